// RUN: sa-run %s | FileCheck %s
//
// An output made by a splat arith.constant starts every entry from that
// value, as a linalg.fill does: sums from dense<0.0> (neutral: imported
// as a plain reduction) and i64 sums from dense<7> (addi is associative:
// 7 is added to the sum). References (numpy): A @ x with
// A = [[1, 0, 2], [0, 0, 0], [0, 3, 0]], x = [1, 2, 3] is [7, 0, 6];
// the i64 row sums of [[1, 0, 2], [0, 0, 0], [0, 3, 0]] plus 7 are
// [10, 7, 10].
// CHECK:      values : ( 7, 0, 6 )
// CHECK:      ( 10, 7, 10 )

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>

func.func @main() {
  %ad = arith.constant dense<[[1.0, 0.0, 2.0], [0.0, 0.0, 0.0], [0.0, 3.0, 0.0]]> : tensor<3x3xf64>
  %a = sparse_tensor.convert %ad : tensor<3x3xf64> to tensor<3x3xf64, #CSR>
  %x = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf64>
  %z = arith.constant dense<0.0> : tensor<3xf64>
  %y = linalg.matvec ins(%a, %x : tensor<3x3xf64, #CSR>, tensor<3xf64>) outs(%z : tensor<3xf64>) -> tensor<3xf64>
  %ys = sparse_tensor.convert %y : tensor<3xf64> to tensor<3xf64, #sparse_tensor.encoding<{ map = (d0) -> (d0 : dense) }>>
  sparse_tensor.print %ys : tensor<3xf64, #sparse_tensor.encoding<{ map = (d0) -> (d0 : dense) }>>
  %bd = arith.constant dense<[[1, 0, 2], [0, 0, 0], [0, 3, 0]]> : tensor<3x3xi64>
  %b = sparse_tensor.convert %bd : tensor<3x3xi64> to tensor<3x3xi64, #CSR>
  %seven = arith.constant dense<7> : tensor<3xi64>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%b : tensor<3x3xi64, #CSR>) outs(%seven : tensor<3xi64>) {
    ^bb0(%v: i64, %acc: i64):
      %r = arith.addi %acc, %v : i64
      linalg.yield %r : i64
  } -> tensor<3xi64>
  %c0 = arith.constant 0 : index
  %p = arith.constant 0 : i64
  %sv = vector.transfer_read %s[%c0], %p : tensor<3xi64>, vector<3xi64>
  vector.print %sv : vector<3xi64>
  return
}
