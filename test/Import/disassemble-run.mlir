// RUN: sa-opt %s --sparse-array-import-sparse-tensor | FileCheck %s --check-prefix=IR
// RUN: sa-run %s | FileCheck %s
// RUN: not sa-run --entry-point=too_small %s 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: not sa-run --entry-point=too_small_coo %s 2>&1 | FileCheck %s --check-prefix=AOS
//
// sparse_tensor.disassemble: each output is a copy of the user's tensor
// with the array's buffer written over its first elements (the rest keeps
// the tensor's values, which upstream leaves undefined); a tensor too small
// for its buffer stops the program (upstream writes past its end).

#CSR32 = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed), posWidth = 32, crdWidth = 32 }>
#COO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>

// The buffers in upstream's order, converted to the outputs' widths (index
// tensors are i64 arrays), each checked against its output's size, written
// by a loop and assembled as a dense array; the COO coordinates interleaved.
// IR-LABEL: func.func @coo(
// IR: %[[P:.*]] = sparse_array.positions %{{.*}}[0]
// IR: %[[C0:.*]] = sparse_array.coordinates %{{.*}}[0]
// IR: %[[C1:.*]] = sparse_array.coordinates %{{.*}}[1]
// IR: call @sa_rt_check_capacity
// IR: scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// IR: memref.load %[[P]]
// IR: sparse_array.assemble({{.*}}) : memref<?xi64> -> !sparse_array.array<2xi64>
// IR: call @sa_rt_check_capacity
// IR: scf.for %[[K:.*]] =
// IR: memref.load %[[C0]][%[[K]]]
// IR: memref.load %[[C1]][%[[K]]]
// IR: sparse_array.assemble({{.*}}) : memref<?xi64> -> !sparse_array.array<3x2xi64>
// IR: sparse_array.values
// IR-NOT: sparse_tensor.disassemble
func.func @coo(%B: tensor<3x4xf64, #COO>) -> (tensor<2xindex>, tensor<3x2xindex>, tensor<3xf64>, index) {
  %bp = tensor.empty() : tensor<2xindex>
  %bc = tensor.empty() : tensor<3x2xindex>
  %bv = tensor.empty() : tensor<3xf64>
  %sp, %sc, %sv, %l1, %l2, %l3 = sparse_tensor.disassemble %B : tensor<3x4xf64, #COO>
      out_lvls(%bp, %bc : tensor<2xindex>, tensor<3x2xindex>) out_vals(%bv : tensor<3xf64>)
      -> (tensor<2xindex>, tensor<3x2xindex>), tensor<3xf64>, (index, index), index
  return %sp, %sc, %sv, %l2 : tensor<2xindex>, tensor<3x2xindex>, tensor<3xf64>, index
}

// The CSR of [[1.5, 0, 0, 2], [0, 0, 0, 0], [0, -3, 0, 4.25]] into outputs
// larger than its buffers, initialized to 7 (positions, coordinates) and
// 9.5 (values): positions [0, 2, 2, 4, 7], coordinates [0, 3, 1, 3, 7, 7],
// values [1.5, 2, -3, 4.25, 9.5].
// CHECK: 0, 2, 2, 4, 7
// CHECK-NEXT: 0, 3, 1, 3, 7, 7
// CHECK-NEXT: 1.5, 2, -3, 4.25, 9.5
// CHECK-NEXT: 4
func.func @main() {
  %d = arith.constant dense<[[1.5, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0], [0.0, -3.0, 0.0, 4.25]]> : tensor<3x4xf64>
  %A = sparse_tensor.convert %d : tensor<3x4xf64> to tensor<3x4xf64, #CSR32>
  %op = arith.constant dense<7> : tensor<5xi32>
  %oc = arith.constant dense<7> : tensor<6xi32>
  %ov = arith.constant dense<9.5> : tensor<5xf64>
  %rp, %rc, %rv, %lp, %lc, %lv = sparse_tensor.disassemble %A : tensor<3x4xf64, #CSR32>
      out_lvls(%op, %oc : tensor<5xi32>, tensor<6xi32>) out_vals(%ov : tensor<5xf64>)
      -> (tensor<5xi32>, tensor<6xi32>), tensor<5xf64>, (i32, i64), index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  scf.for %k = %c0 to %c4 step %c1 {
    %x = tensor.extract %rp[%k] : tensor<5xi32>
    vector.print %x : i32 punctuation <comma>
  }
  %p4 = tensor.extract %rp[%c4] : tensor<5xi32>
  vector.print %p4 : i32
  scf.for %k = %c0 to %c5 step %c1 {
    %x = tensor.extract %rc[%k] : tensor<6xi32>
    vector.print %x : i32 punctuation <comma>
  }
  %q5 = tensor.extract %rc[%c5] : tensor<6xi32>
  vector.print %q5 : i32
  scf.for %k = %c0 to %c4 step %c1 {
    %x = tensor.extract %rv[%k] : tensor<5xf64>
    vector.print %x : f64 punctuation <comma>
  }
  %v4 = tensor.extract %rv[%c4] : tensor<5xf64>
  vector.print %v4 : f64
  vector.print %lc : i64
  return
}

// SMALL: sparse_array runtime error: sparse_tensor.disassemble at {{.*}}disassemble-run.mlir:[[@LINE+7]]:{{[0-9]+}}: the coordinates of level 1 need 4 elements, but the output tensor holds 3
func.func @too_small() {
  %d = arith.constant dense<[[1.5, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0], [0.0, -3.0, 0.0, 4.25]]> : tensor<3x4xf64>
  %A = sparse_tensor.convert %d : tensor<3x4xf64> to tensor<3x4xf64, #CSR32>
  %op = tensor.empty() : tensor<4xi32>
  %oc = tensor.empty() : tensor<3xi32>
  %ov = tensor.empty() : tensor<4xf64>
  %rp, %rc, %rv, %lp, %lc, %lv = sparse_tensor.disassemble %A : tensor<3x4xf64, #CSR32>
      out_lvls(%op, %oc : tensor<4xi32>, tensor<3xi32>) out_vals(%ov : tensor<4xf64>)
      -> (tensor<4xi32>, tensor<3xi32>), tensor<4xf64>, (i32, i64), index
  vector.print %lv : index
  return
}

// The array-of-structures coordinates of both COO levels: 4 entries need 8.
// AOS: sparse_array runtime error: sparse_tensor.disassemble at {{.*}}: the coordinates of levels 0 to 1 need 8 elements, but the output tensor holds 6
func.func @too_small_coo() {
  %d = arith.constant dense<[[1.5, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0], [0.0, -3.0, 0.0, 4.25]]> : tensor<3x4xf64>
  %B = sparse_tensor.convert %d : tensor<3x4xf64> to tensor<3x4xf64, #COO>
  %bp = tensor.empty() : tensor<2xindex>
  %bc = tensor.empty() : tensor<3x2xindex>
  %bv = tensor.empty() : tensor<4xf64>
  %sp, %sc, %sv, %l1, %l2, %l3 = sparse_tensor.disassemble %B : tensor<3x4xf64, #COO>
      out_lvls(%bp, %bc : tensor<2xindex>, tensor<3x2xindex>) out_vals(%bv : tensor<4xf64>)
      -> (tensor<2xindex>, tensor<3x2xindex>), tensor<4xf64>, (index, index), index
  vector.print %l2 : index
  return
}
