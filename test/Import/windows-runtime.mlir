// RUN: sa-run %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-import-sparse-tensor | FileCheck %s --check-prefix=IR
// RUN: not sa-run --entry-point=conv_too_short %s 2>&1 | FileCheck %s --check-prefix=CONV-ERR
// RUN: not sa-run --entry-point=slice_outside %s 2>&1 | FileCheck %s --check-prefix=SLICE-ERR
//
// Windows whose taps run in loops (issue 57): a filter of run-time extent,
// an input of run-time size, a window of more taps than are unrolled; and
// tensor.extract_slice with run-time offsets (sparse_array.dynamic_slice).
// Expected values from Python loops over the dense arrays (not the
// compiler), folding in linalg's order: acc = out; for k: acc += I[i + k] * F[k].

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>

// The taps of a run-time extent: one loop carrying the output, each tap's
// input window a run-time slice.
// IR-LABEL: func.func @conv_dynamic(
// IR: scf.for %[[K:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// IR: sparse_array.dynamic_slice %{{.*}}[%[[K]]]
// IR: sparse_array.kernel
// IR: scf.yield
func.func @conv_dynamic(%I: tensor<?xf64, #SV>, %F: tensor<?xf64>, %o: tensor<?xf64>) -> tensor<?xf64> {
  %r = linalg.conv_1d ins(%I, %F : tensor<?xf64, #SV>, tensor<?xf64>) outs(%o : tensor<?xf64>) -> tensor<?xf64>
  return %r : tensor<?xf64>
}

// 65 taps: looped although static.
// IR-LABEL: func.func @conv_wide(
// IR: scf.for
// IR: sparse_array.dynamic_slice
func.func @conv_wide(%I: tensor<80xf64, #SV>, %F: tensor<65xf64>, %o: tensor<16xf64>) -> tensor<16xf64> {
  %r = linalg.conv_1d ins(%I, %F : tensor<80xf64, #SV>, tensor<65xf64>) outs(%o : tensor<16xf64>) -> tensor<16xf64>
  return %r : tensor<16xf64>
}

#w = { indexing_maps = [affine_map<(i, k) -> (i + k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"] }
func.func @window_of_dynamic_input(%A: tensor<?xf64>, %F: tensor<3xf64>, %y: tensor<4xf64>) -> tensor<4xf64> {
  %r = linalg.generic #w ins(%A, %F : tensor<?xf64>, tensor<3xf64>) outs(%y : tensor<4xf64>) {
  ^bb0(%a: f64, %f: f64, %o: f64):
    %s = arith.addf %o, %a : f64
    linalg.yield %s : f64
  } -> tensor<4xf64>
  return %r : tensor<4xf64>
}

func.func @slice_at(%A: tensor<6x6xf64, #CSR>, %r: index, %c: index) -> tensor<2x3xf64, #CSR> {
  %s = tensor.extract_slice %A[%r, %c] [2, 3] [2, 1] : tensor<6x6xf64, #CSR> to tensor<2x3xf64, #CSR>
  return %s : tensor<2x3xf64, #CSR>
}

// I = [1, 2, 0, -1, 3, 0, 2], F = [1, -1, 2, 0.5], out = [0.5, 0, -1, 2].
// CHECK: ( -1, 1.5, 6, -1 )
// CHECK-NEXT: ( -8, -7.5, -5, 35.5, -27, -11.5, 35, -13.5, 15, -9.5, 33, -2.5, -21, 35.5, 13, 11.5 )
// A = [3, 0, -2, 0, 5, 1], y = [1, 2, 3, 4]: y[i] + A[i] + A[i + 1] + A[i + 2].
// CHECK-NEXT: ( 2, 0, 6, 10 )
// M[1::2][:2, 2:5] of M[r][c] = 6 r + c where (r + c) % 3 == 0, else 0.
// CHECK-NEXT: ( ( 8, 0, 0 ), ( 0, 21, 0 ) )
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %m1 = arith.constant -1.0 : f64
  %id = arith.constant dense<[1.0, 2.0, 0.0, -1.0, 3.0, 0.0, 2.0]> : tensor<7xf64>
  %is = sparse_tensor.convert %id : tensor<7xf64> to tensor<?xf64, #SV>
  %f = arith.constant dense<[1.0, -1.0, 2.0, 0.5]> : tensor<4xf64>
  %fd = tensor.cast %f : tensor<4xf64> to tensor<?xf64>
  %o = arith.constant dense<[0.5, 0.0, -1.0, 2.0]> : tensor<4xf64>
  %od = tensor.cast %o : tensor<4xf64> to tensor<?xf64>
  %r = call @conv_dynamic(%is, %fd, %od) : (tensor<?xf64, #SV>, tensor<?xf64>, tensor<?xf64>) -> tensor<?xf64>
  %rv = vector.transfer_read %r[%c0], %m1 : tensor<?xf64>, vector<4xf64>
  vector.print %rv : vector<4xf64>

  %wd = arith.constant dense<[0.0, 2.0, -2.0, 0.0, 1.0, -3.0, 0.0, 0.0, -4.0, 0.0, -1.0, -5.0, 0.0, -2.0, 5.0, 0.0, -3.0, 4.0, 0.0, -4.0, 3.0, 0.0, -5.0, 2.0, 0.0, 5.0, 1.0, 0.0, 4.0, 0.0, 0.0, 3.0, -1.0, 0.0, 2.0, -2.0, 0.0, 1.0, -3.0, 0.0, 0.0, -4.0, 0.0, -1.0, -5.0, 0.0, -2.0, 5.0, 0.0, -3.0, 4.0, 0.0, -4.0, 3.0, 0.0, -5.0, 2.0, 0.0, 5.0, 1.0, 0.0, 4.0, 0.0, 0.0, 3.0, -1.0, 0.0, 2.0, -2.0, 0.0, 1.0, -3.0, 0.0, 0.0, -4.0, 0.0, -1.0, -5.0, 0.0, -2.0]> : tensor<80xf64>
  %ws = sparse_tensor.convert %wd : tensor<80xf64> to tensor<80xf64, #SV>
  %wf = arith.constant dense<[-3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0, 0.0, -2.0, 3.0, 1.0, -1.0, -3.0, 2.0]> : tensor<65xf64>
  %wo = arith.constant dense<[0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5]> : tensor<16xf64>
  %wr = call @conv_wide(%ws, %wf, %wo) : (tensor<80xf64, #SV>, tensor<65xf64>, tensor<16xf64>) -> tensor<16xf64>
  %wv = vector.transfer_read %wr[%c0], %m1 : tensor<16xf64>, vector<16xf64>
  vector.print %wv : vector<16xf64>

  %a = arith.constant dense<[3.0, 0.0, -2.0, 0.0, 5.0, 1.0]> : tensor<6xf64>
  %ad = tensor.cast %a : tensor<6xf64> to tensor<?xf64>
  %g = arith.constant dense<[7.0, 8.0, 9.0]> : tensor<3xf64>
  %y = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64>
  %gr = call @window_of_dynamic_input(%ad, %g, %y) : (tensor<?xf64>, tensor<3xf64>, tensor<4xf64>) -> tensor<4xf64>
  %gv = vector.transfer_read %gr[%c0], %m1 : tensor<4xf64>, vector<4xf64>
  vector.print %gv : vector<4xf64>

  %md = arith.constant dense<[[0.0, 0.0, 0.0, 3.0, 0.0, 0.0], [0.0, 0.0, 8.0, 0.0, 0.0, 11.0], [0.0, 13.0, 0.0, 0.0, 16.0, 0.0], [18.0, 0.0, 0.0, 21.0, 0.0, 0.0], [0.0, 0.0, 26.0, 0.0, 0.0, 29.0], [0.0, 31.0, 0.0, 0.0, 34.0, 0.0]]> : tensor<6x6xf64>
  %ms = sparse_tensor.convert %md : tensor<6x6xf64> to tensor<6x6xf64, #CSR>
  %s = call @slice_at(%ms, %c1, %c2) : (tensor<6x6xf64, #CSR>, index, index) -> tensor<2x3xf64, #CSR>
  %sd = sparse_tensor.convert %s : tensor<2x3xf64, #CSR> to tensor<2x3xf64>
  %sv = vector.transfer_read %sd[%c0, %c0], %m1 : tensor<2x3xf64>, vector<2x3xf64>
  vector.print %sv : vector<2x3xf64>
  return
}

// A filter longer than the input allows: the third tap's window does not fit.
// CONV-ERR: slice: dimension 0: 4 coordinates from 2 by 1 do not fit the source's 5
func.func @conv_too_short() {
  %c0 = arith.constant 0 : index
  %m1 = arith.constant -1.0 : f64
  %id = arith.constant dense<[1.0, 2.0, 0.0, -1.0, 3.0]> : tensor<5xf64>
  %is = sparse_tensor.convert %id : tensor<5xf64> to tensor<?xf64, #SV>
  %f = arith.constant dense<[1.0, -1.0, 2.0, 0.5]> : tensor<4xf64>
  %fd = tensor.cast %f : tensor<4xf64> to tensor<?xf64>
  %o = arith.constant dense<[0.5, 0.0, -1.0, 2.0]> : tensor<4xf64>
  %od = tensor.cast %o : tensor<4xf64> to tensor<?xf64>
  %r = call @conv_dynamic(%is, %fd, %od) : (tensor<?xf64, #SV>, tensor<?xf64>, tensor<?xf64>) -> tensor<?xf64>
  %rv = vector.transfer_read %r[%c0], %m1 : tensor<?xf64>, vector<4xf64>
  vector.print %rv : vector<4xf64>
  return
}

// SLICE-ERR: slice: dimension 0: 2 coordinates from 5 by 2 do not fit the source's 6
func.func @slice_outside() {
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %md = arith.constant dense<[[0.0, 0.0, 0.0, 3.0, 0.0, 0.0], [0.0, 0.0, 8.0, 0.0, 0.0, 11.0], [0.0, 13.0, 0.0, 0.0, 16.0, 0.0], [18.0, 0.0, 0.0, 21.0, 0.0, 0.0], [0.0, 0.0, 26.0, 0.0, 0.0, 29.0], [0.0, 31.0, 0.0, 0.0, 34.0, 0.0]]> : tensor<6x6xf64>
  %ms = sparse_tensor.convert %md : tensor<6x6xf64> to tensor<6x6xf64, #CSR>
  %s = call @slice_at(%ms, %c5, %c2) : (tensor<6x6xf64, #CSR>, index, index) -> tensor<2x3xf64, #CSR>
  sparse_tensor.print %s : tensor<2x3xf64, #CSR>
  return
}
