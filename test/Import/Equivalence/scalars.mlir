// REQUIRES: mlir-sparsifier
// RUN: sa-run %s | FileCheck %s
// RUN: mlir-opt %s --sparsifier | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s
//
// Scalar results printed with vector.print, both ways through the same
// checks (values with few digits: upstream prints six significant ones):
// the sum of a CSR matrix reduced into a rank-0 tensor and read with
// tensor.extract, an i32 product with wrap-around (65536 * 65536 = 0 in
// 32 bits) and one without, an element of a dense result, the stored entry
// count, a string and punctuation. (tensor.extract of a sparse tensor makes
// upstream fail: ../beyond-upstream.mlir.)

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>

func.func @sum(%A: tensor<3x4xf64, #CSR>) -> tensor<f64> {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %y = linalg.fill ins(%z : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %r = linalg.reduce ins(%A : tensor<3x4xf64, #CSR>) outs(%y : tensor<f64>) dimensions = [0, 1]
    (%in: f64, %acc: f64) {
      %s = arith.addf %in, %acc : f64
      linalg.yield %s : f64
    }
  return %r : tensor<f64>
}
func.func @prod(%A: tensor<4xi32>) -> tensor<i32> {
  %one = arith.constant 1 : i32
  %e = tensor.empty() : tensor<i32>
  %y = linalg.fill ins(%one : i32) outs(%e : tensor<i32>) -> tensor<i32>
  %r = linalg.reduce ins(%A : tensor<4xi32>) outs(%y : tensor<i32>) dimensions = [0]
    (%in: i32, %acc: i32) {
      %s = arith.muli %in, %acc : i32
      linalg.yield %s : i32
    }
  return %r : tensor<i32>
}
func.func @scale(%A: tensor<3x4xf64, #CSR>) -> tensor<3x4xf64> {
  %e = tensor.empty() : tensor<3x4xf64>
  %r = linalg.generic { indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"] }
      ins(%A : tensor<3x4xf64, #CSR>) outs(%e : tensor<3x4xf64>) {
  ^bb0(%x: f64, %o: f64):
    %two = arith.constant 2.0 : f64
    %y = arith.mulf %x, %two : f64
    linalg.yield %y : f64
  } -> tensor<3x4xf64>
  return %r : tensor<3x4xf64>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d = arith.constant dense<[[1.0, 0.0, 2.5, 0.0], [0.0, 0.0, 0.0, 0.0], [-4.0, 0.0, 0.0, 8.25]]> : tensor<3x4xf64>
  %A = sparse_tensor.convert %d : tensor<3x4xf64> to tensor<3x4xf64, #CSR>
  %s = call @sum(%A) : (tensor<3x4xf64, #CSR>) -> tensor<f64>
  %sv = tensor.extract %s[] : tensor<f64>
  // CHECK: sum: 7.75
  vector.print str "sum: "
  vector.print %sv : f64
  %w = arith.constant dense<[65536, 3, 65536, 5]> : tensor<4xi32>
  %p = call @prod(%w) : (tensor<4xi32>) -> tensor<i32>
  %pv = tensor.extract %p[] : tensor<i32>
  %q = arith.constant dense<[-2, 3, 1, 7]> : tensor<4xi32>
  %p2 = call @prod(%q) : (tensor<4xi32>) -> tensor<i32>
  %pv2 = tensor.extract %p2[] : tensor<i32>
  // CHECK-NEXT: ( 0, -42 )
  vector.print punctuation <open>
  vector.print %pv : i32 punctuation <comma>
  vector.print %pv2 : i32 punctuation <close>
  vector.print punctuation <newline>
  %g = call @scale(%A) : (tensor<3x4xf64, #CSR>) -> tensor<3x4xf64>
  %g1 = tensor.extract %g[%c2, %c3] : tensor<3x4xf64>
  %g2 = tensor.extract %g[%c1, %c2] : tensor<3x4xf64>
  // CHECK-NEXT: 16.5
  // CHECK-NEXT: 0
  vector.print %g1 : f64
  vector.print %g2 : f64
  %n = sparse_tensor.number_of_entries %A : tensor<3x4xf64, #CSR>
  // CHECK-NEXT: 4
  vector.print %n : index
  %t = arith.cmpf ogt, %sv, %g1 : f64
  // CHECK-NEXT: 0
  vector.print %t : i1
  bufferization.dealloc_tensor %A : tensor<3x4xf64, #CSR>
  return
}
