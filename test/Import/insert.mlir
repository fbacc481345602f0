// RUN: sa-run %s | FileCheck %s
// RUN: sa-opt --sparse-array-import-sparse-tensor %s | FileCheck %s --check-prefix=IR
// tensor.insert into sparse tensors (issue 57): a kernel taking the scalar
// where a one-entry marker holds and the tensor's entry elsewhere, over
// the stored entries only. Expected values by hand: A = [[1, 0, 2],
// [0, 0, 0], [0, 3, 4]] with 5 at (0, 2) and (1, 1), -0.0 at (1, 0) and 0
// at (2, 2) is [[1, 0, 5], [-0, 5, 0], [0, 3, 0]] (the inserted 0 equals
// the fill: no entry, where upstream would store an explicit zero); A
// itself is unchanged; x[k] = k * k inserted at k = 7, 5, 3, 1 in a loop
// is stored in order; a COO tensor from two inserts.
// IR: sparse_array.apply @__sa_import_insert_pick
// CHECK:      ( ( 1, 0, 5 ), ( -0, 5, 0 ), ( 0, 3, 0 ) )
// CHECK-NEXT: ( ( 1, 0, 2 ), ( 0, 0, 0 ), ( 0, 3, 4 ) )
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 4
// CHECK-NEXT: dim = ( 8 )
// CHECK-NEXT: lvl = ( 8 )
// CHECK-NEXT: pos[0] : ( 0, 4 )
// CHECK-NEXT: crd[0] : ( 1, 3, 5, 7 )
// CHECK-NEXT: values : ( 1, 9, 25, 49 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 2
// CHECK-NEXT: dim = ( 2, 3 )
// CHECK-NEXT: lvl = ( 2, 3 )
// CHECK-NEXT: pos[0] : ( 0, 2 )
// CHECK-NEXT: crd[0] : ( 0, 1, 1, 2 )
// CHECK-NEXT: values : ( -1, 5 )
// CHECK-NEXT: ----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#COO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>
#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %d = arith.constant -1.0 : f64
  %f0 = arith.constant 0.0 : f64
  %f5 = arith.constant 5.0 : f64
  %fn = arith.constant -0.0 : f64
  %Ad = arith.constant dense<[[1.0, 0.0, 2.0], [0.0, 0.0, 0.0], [0.0, 3.0, 4.0]]> : tensor<3x3xf64>
  %A = sparse_tensor.convert %Ad : tensor<3x3xf64> to tensor<3x3xf64, #CSR>
  // Overwrite a stored entry, add one in an empty row, store -0.0, and
  // overwrite a stored entry with 0 (the fill: the entry becomes implicit).
  %A1 = tensor.insert %f5 into %A[%c0, %c2] : tensor<3x3xf64, #CSR>
  %A2 = tensor.insert %f5 into %A1[%c1, %c1] : tensor<3x3xf64, #CSR>
  %A3 = tensor.insert %fn into %A2[%c1, %c0] : tensor<3x3xf64, #CSR>
  %A4 = tensor.insert %f0 into %A3[%c2, %c2] : tensor<3x3xf64, #CSR>
  %D = sparse_tensor.convert %A4 : tensor<3x3xf64, #CSR> to tensor<3x3xf64>
  %v = vector.transfer_read %D[%c0, %c0], %d : tensor<3x3xf64>, vector<3x3xf64>
  vector.print %v : vector<3x3xf64>
  // The original is unchanged (value semantics).
  %E = sparse_tensor.convert %A : tensor<3x3xf64, #CSR> to tensor<3x3xf64>
  %w = vector.transfer_read %E[%c0, %c0], %d : tensor<3x3xf64>, vector<3x3xf64>
  vector.print %w : vector<3x3xf64>
  // COO built by inserts out of order, in a loop: x[i] = i * i at 7, 5, 3, 1.
  %e = tensor.empty() : tensor<8xf64, #SV>
  %s = scf.for %i = %c0 to %c8 step %c2 iter_args(%acc = %e) -> tensor<8xf64, #SV> {
    %j = arith.subi %c8, %i : index
    %k = arith.subi %j, %c1 : index
    %ki = arith.index_cast %k : index to i64
    %kf = arith.sitofp %ki : i64 to f64
    %sq = arith.mulf %kf, %kf : f64
    %n = tensor.insert %sq into %acc[%k] : tensor<8xf64, #SV>
    scf.yield %n : tensor<8xf64, #SV>
  }
  sparse_tensor.print %s : tensor<8xf64, #SV>
  %ce = tensor.empty() : tensor<2x3xf64, #COO>
  %c_1 = tensor.insert %f5 into %ce[%c1, %c2] : tensor<2x3xf64, #COO>
  %c_2 = tensor.insert %d into %c_1[%c0, %c1] : tensor<2x3xf64, #COO>
  sparse_tensor.print %c_2 : tensor<2x3xf64, #COO>
  return
}
