// RUN: sa-run --import-exact-print %s | FileCheck %s
// RUN: sa-run --disable-openmp --import-exact-print %s | FileCheck %s
// RUN: sa-opt --sparse-array-import-sparse-tensor --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices %s | FileCheck %s --check-prefix=PLAN
// SpMM C = A B (CSR A, dense B) with exact IEEE add and mul is
// signed_zero_dot with counts per column j of B (issue 57's bench: it was
// planned over every (i, j, k)). A column of B holding inf makes every
// entry of that column NaN (0 * inf), and a -0.0 sum turns +0.0 only where
// an omitted term is +0.0. Expected values from a Python loop over the
// dense arrays: acc = C0[i, j]; for k: acc = acc + A[i, k] * B[k, j],
// with C0 = -0.0 everywhere, then +0.0 everywhere:
//   [[nan, -3, 0], [nan, -0, 0], [nan, 0, 0], [nan, -3.5, -5]] and
//   [[nan, -3, 0], [nan, 0, 0], [nan, 0, 0], [nan, -3.5, -5]].
// PLAN: strategy = signed_zero_dot
// CHECK:      ( ( nan, -3, 0 ), ( nan, -0, 0 ), ( nan, 0, 0 ), ( nan, -3.5, -5 ) )
// CHECK-NEXT: ( ( nan, -3, 0 ), ( nan, 0, 0 ), ( nan, 0, 0 ), ( nan, -3.5, -5 ) )
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @spmm(%A: tensor<4x5xf64, #CSR>, %B: tensor<5x3xf64>, %C: tensor<4x3xf64>) -> tensor<4x3xf64> {
  %r = linalg.matmul ins(%A, %B : tensor<4x5xf64, #CSR>, tensor<5x3xf64>) outs(%C : tensor<4x3xf64>) -> tensor<4x3xf64>
  return %r : tensor<4x3xf64>
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %d = arith.constant -1.0 : f64
  %Ad = arith.constant dense<[[1.0, 1.0, 0.0, 1.0, 0.0],
                              [0.0, 0.0, 0.0, 0.0, 0.0],
                              [0.0, -0.0, 0.0, 0.0, 0.0],
                              [3.0, 0.0, 0.0, 0.0, -2.5]]> : tensor<4x5xf64>
  %A = sparse_tensor.convert %Ad : tensor<4x5xf64> to tensor<4x5xf64, #CSR>
  %B = arith.constant dense<[[1.0, -2.0, 0.0], [1.0, -0.0, 0.0], [0x7FF0000000000000, -1.0, 0.0], [1.0, -1.0, 0.0], [0.0, -1.0, 2.0]]> : tensor<5x3xf64>
  %z = arith.constant dense<-0.0> : tensor<4x3xf64>
  %r = call @spmm(%A, %B, %z) : (tensor<4x5xf64, #CSR>, tensor<5x3xf64>, tensor<4x3xf64>) -> tensor<4x3xf64>
  %v = vector.transfer_read %r[%c0, %c0], %d : tensor<4x3xf64>, vector<4x3xf64>
  vector.print %v : vector<4x3xf64>
  %z2 = arith.constant dense<0.0> : tensor<4x3xf64>
  %r2 = call @spmm(%A, %B, %z2) : (tensor<4x5xf64, #CSR>, tensor<5x3xf64>, tensor<4x3xf64>) -> tensor<4x3xf64>
  %v2 = vector.transfer_read %r2[%c0, %c0], %d : tensor<4x3xf64>, vector<4x3xf64>
  vector.print %v2 : vector<4x3xf64>
  return
}
