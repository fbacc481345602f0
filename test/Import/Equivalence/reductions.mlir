// REQUIRES: mlir-sparsifier
// RUN: sa-run %s > %t.sa
// RUN: mlir-opt %s --sparsifier | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.up
// RUN: %python %S/../Inputs/compare_prints.py %t.sa %t.up | FileCheck %s
// CHECK: 3 arrays compared, 0 differences
//
// Reductions: row sums of a CSR matrix (linalg.reduce), column sums of a
// CSR matrix (a reduced variable stored above a kept one), and i32 row
// sums from 5 with wrap-around (addi is associative: 5 is added last).
// (An i32 muli row product makes upstream's sparsifier fail: "'tensor.extract'
// op incorrect number of indices"; it is in ../nonzero-fill.mlir.)

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>

func.func @rowsum(%A: tensor<4x5xf64, #CSR>) -> tensor<4xf64> {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<4xf64>
  %y = linalg.fill ins(%z : f64) outs(%e : tensor<4xf64>) -> tensor<4xf64>
  %r = linalg.reduce ins(%A : tensor<4x5xf64, #CSR>) outs(%y : tensor<4xf64>) dimensions = [1]
    (%in: f64, %acc: f64) {
      %s = arith.addf %in, %acc : f64
      linalg.yield %s : f64
    }
  return %r : tensor<4xf64>
}
func.func @colsum(%A: tensor<4x5xf64, #CSR>) -> tensor<5xf64> {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<5xf64>
  %y = linalg.fill ins(%z : f64) outs(%e : tensor<5xf64>) -> tensor<5xf64>
  %r = linalg.reduce ins(%A : tensor<4x5xf64, #CSR>) outs(%y : tensor<5xf64>) dimensions = [0]
    (%in: f64, %acc: f64) {
      %s = arith.addf %acc, %in : f64
      linalg.yield %s : f64
    }
  return %r : tensor<5xf64>
}
func.func @rowsum_i32(%A: tensor<3x4xi32, #CSR>) -> tensor<3xi32> {
  %one = arith.constant 5 : i32
  %e = tensor.empty() : tensor<3xi32>
  %y = linalg.fill ins(%one : i32) outs(%e : tensor<3xi32>) -> tensor<3xi32>
  %r = linalg.reduce ins(%A : tensor<3x4xi32, #CSR>) outs(%y : tensor<3xi32>) dimensions = [1]
    (%in: i32, %acc: i32) {
      %s = arith.addi %acc, %in : i32
      linalg.yield %s : i32
    }
  return %r : tensor<3xi32>
}

func.func @main() {
  %d = arith.constant dense<[[1.0, 0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 3.0, 0.0, 4.0, 0.0], [0.5, 0.0, -2.0, 0.0, 5.5]]> : tensor<4x5xf64>
  %A = sparse_tensor.convert %d : tensor<4x5xf64> to tensor<4x5xf64, #CSR>
  %r1 = call @rowsum(%A) : (tensor<4x5xf64, #CSR>) -> tensor<4xf64>
  %p1 = sparse_tensor.convert %r1 : tensor<4xf64> to tensor<4xf64, #SV>
  sparse_tensor.print %p1 : tensor<4xf64, #SV>
  %r2 = call @colsum(%A) : (tensor<4x5xf64, #CSR>) -> tensor<5xf64>
  %p2 = sparse_tensor.convert %r2 : tensor<5xf64> to tensor<5xf64, #SV>
  sparse_tensor.print %p2 : tensor<5xf64, #SV>
  %di = arith.constant dense<[[2, 3, 4, 5], [0, 7, 0, 0], [-1, -2, 2147483647, 2147483647]]> : tensor<3x4xi32>
  %B = sparse_tensor.convert %di : tensor<3x4xi32> to tensor<3x4xi32, #CSR>
  %r3 = call @rowsum_i32(%B) : (tensor<3x4xi32, #CSR>) -> tensor<3xi32>
  %p3 = sparse_tensor.convert %r3 : tensor<3xi32> to tensor<3xi32, #SV>
  sparse_tensor.print %p3 : tensor<3xi32, #SV>
  bufferization.dealloc_tensor %A : tensor<4x5xf64, #CSR>
  bufferization.dealloc_tensor %B : tensor<3x4xi32, #CSR>
  bufferization.dealloc_tensor %p1 : tensor<4xf64, #SV>
  bufferization.dealloc_tensor %p2 : tensor<5xf64, #SV>
  bufferization.dealloc_tensor %p3 : tensor<3xi32, #SV>
  return
}
