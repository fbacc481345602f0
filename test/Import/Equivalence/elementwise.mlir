// REQUIRES: mlir-sparsifier
// RUN: sa-run %s > %t.sa
// RUN: mlir-opt %s --sparsifier | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.up
// RUN: %python %S/../Inputs/compare_prints.py %t.sa %t.up | FileCheck %s
// CHECK: 5 arrays compared, 0 differences
//
// Element-wise programs: named add/sub/mul/max on sparse vectors into
// sparse vectors, a CSR times a dense matrix into CSR, and generic regions
// with constants (2 * a + 1 into a dense result, whose fill is not 0).
// exp(a) into a dense result is in ../nonzero-fill.mlir: upstream's
// sparsifier fails on it ("failed to legalize unresolved materialization").

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>

func.func @add(%a: tensor<8xf64, #SV>, %b: tensor<8xf64, #SV>) -> tensor<8xf64, #SV> {
  %e = tensor.empty() : tensor<8xf64, #SV>
  %r = linalg.add ins(%a, %b : tensor<8xf64, #SV>, tensor<8xf64, #SV>) outs(%e : tensor<8xf64, #SV>) -> tensor<8xf64, #SV>
  return %r : tensor<8xf64, #SV>
}
func.func @sub(%a: tensor<8xf64, #SV>, %b: tensor<8xf64, #SV>) -> tensor<8xf64, #SV> {
  %e = tensor.empty() : tensor<8xf64, #SV>
  %r = linalg.sub ins(%a, %b : tensor<8xf64, #SV>, tensor<8xf64, #SV>) outs(%e : tensor<8xf64, #SV>) -> tensor<8xf64, #SV>
  return %r : tensor<8xf64, #SV>
}
func.func @mul(%a: tensor<8xf64, #SV>, %b: tensor<8xf64, #SV>) -> tensor<8xf64, #SV> {
  %e = tensor.empty() : tensor<8xf64, #SV>
  %r = linalg.mul ins(%a, %b : tensor<8xf64, #SV>, tensor<8xf64, #SV>) outs(%e : tensor<8xf64, #SV>) -> tensor<8xf64, #SV>
  return %r : tensor<8xf64, #SV>
}
func.func @scale(%a: tensor<3x4xf64, #CSR>, %b: tensor<3x4xf64>) -> tensor<3x4xf64, #CSR> {
  %e = tensor.empty() : tensor<3x4xf64, #CSR>
  %r = linalg.mul ins(%a, %b : tensor<3x4xf64, #CSR>, tensor<3x4xf64>) outs(%e : tensor<3x4xf64, #CSR>) -> tensor<3x4xf64, #CSR>
  return %r : tensor<3x4xf64, #CSR>
}
#ew = {
  indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
  iterator_types = ["parallel"]
}
func.func @affine(%a: tensor<8xf64, #SV>) -> tensor<8xf64> {
  %two = arith.constant 2.0 : f64
  %one = arith.constant 1.0 : f64
  %e = tensor.empty() : tensor<8xf64>
  %r = linalg.generic #ew ins(%a : tensor<8xf64, #SV>) outs(%e : tensor<8xf64>) {
  ^bb0(%x: f64, %o: f64):
    %m = arith.mulf %x, %two : f64
    %s = arith.addf %m, %one : f64
    linalg.yield %s : f64
  } -> tensor<8xf64>
  return %r : tensor<8xf64>
}
func.func @main() {
  %va = arith.constant dense<[1.0, 0.0, 0.0, 2.0, 0.0, -3.0, 0.0, 4.0]> : tensor<8xf64>
  %vb = arith.constant dense<[0.0, 0.0, 5.0, -2.0, 0.0, 3.0, 0.0, 0.25]> : tensor<8xf64>
  %a = sparse_tensor.convert %va : tensor<8xf64> to tensor<8xf64, #SV>
  %b = sparse_tensor.convert %vb : tensor<8xf64> to tensor<8xf64, #SV>
  %r1 = call @add(%a, %b) : (tensor<8xf64, #SV>, tensor<8xf64, #SV>) -> tensor<8xf64, #SV>
  sparse_tensor.print %r1 : tensor<8xf64, #SV>
  %r2 = call @sub(%a, %b) : (tensor<8xf64, #SV>, tensor<8xf64, #SV>) -> tensor<8xf64, #SV>
  sparse_tensor.print %r2 : tensor<8xf64, #SV>
  %r3 = call @mul(%a, %b) : (tensor<8xf64, #SV>, tensor<8xf64, #SV>) -> tensor<8xf64, #SV>
  sparse_tensor.print %r3 : tensor<8xf64, #SV>

  %dm = arith.constant dense<[[1.0, 0.0, 2.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 3.0, 0.0, 4.0]]> : tensor<3x4xf64>
  %dn = arith.constant dense<[[2.0, 7.0, 0.5, 1.0], [1.0, 1.0, 1.0, 1.0], [9.0, -1.0, 3.0, 0.0]]> : tensor<3x4xf64>
  %m = sparse_tensor.convert %dm : tensor<3x4xf64> to tensor<3x4xf64, #CSR>
  %r4 = call @scale(%m, %dn) : (tensor<3x4xf64, #CSR>, tensor<3x4xf64>) -> tensor<3x4xf64, #CSR>
  sparse_tensor.print %r4 : tensor<3x4xf64, #CSR>

  %r5 = call @affine(%a) : (tensor<8xf64, #SV>) -> tensor<8xf64>
  %p5 = sparse_tensor.convert %r5 : tensor<8xf64> to tensor<8xf64, #SV>
  sparse_tensor.print %p5 : tensor<8xf64, #SV>

  bufferization.dealloc_tensor %a : tensor<8xf64, #SV>
  bufferization.dealloc_tensor %b : tensor<8xf64, #SV>
  bufferization.dealloc_tensor %m : tensor<3x4xf64, #CSR>
  bufferization.dealloc_tensor %r1 : tensor<8xf64, #SV>
  bufferization.dealloc_tensor %r2 : tensor<8xf64, #SV>
  bufferization.dealloc_tensor %r3 : tensor<8xf64, #SV>
  bufferization.dealloc_tensor %r4 : tensor<3x4xf64, #CSR>
  bufferization.dealloc_tensor %p5 : tensor<8xf64, #SV>
  return
}
