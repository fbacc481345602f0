// RUN: sa-run --import-exact-print %s | FileCheck %s
// RUN: sa-opt --sparse-array-import-sparse-tensor %s | FileCheck %s --check-prefix=IR
// A right fold of a non-commutative operation, out = a - out, is folded in
// the loop order from the output's values with the operation swapped
// (g(acc, a) = a - acc). Expected from a Python loop (acc = y[i]; for j:
// acc = A[i, j] - acc) with A = [[1, 2, 0, 4], [0, 0, 0, 0], [0, 3, 0, 0]],
// y = [10, -0.0, 0.5]: [15, 0, 3.5] (0 - -0.0 is +0.0).
// IR: sparse_array.reduce_over [%{{.*}}] %{{.*}} from %{{.*}} with @__sa_import_swapped_arith_subf
// CHECK: ( 15, 0, 3.5 )
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#rows = { indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"] }
func.func @right_fold(%A: tensor<3x4xf64, #CSR>, %y: tensor<3xf64>) -> tensor<3xf64> {
  %r = linalg.generic #rows ins(%A : tensor<3x4xf64, #CSR>) outs(%y : tensor<3xf64>) {
  ^bb0(%a: f64, %o: f64):
    %s = arith.subf %a, %o : f64
    linalg.yield %s : f64
  } -> tensor<3xf64>
  return %r : tensor<3xf64>
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %d = arith.constant -1.0 : f64
  %Ad = arith.constant dense<[[1.0, 2.0, 0.0, 4.0], [0.0, 0.0, 0.0, 0.0], [0.0, 3.0, 0.0, 0.0]]> : tensor<3x4xf64>
  %A = sparse_tensor.convert %Ad : tensor<3x4xf64> to tensor<3x4xf64, #CSR>
  %y = arith.constant dense<[10.0, -0.0, 0.5]> : tensor<3xf64>
  %r = call @right_fold(%A, %y) : (tensor<3x4xf64, #CSR>, tensor<3xf64>) -> tensor<3xf64>
  %v = vector.transfer_read %r[%c0], %d : tensor<3xf64>, vector<3xf64>
  vector.print %v : vector<3xf64>
  return
}
