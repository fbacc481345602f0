// REQUIRES: mlir-sparsifier
// RUN: sa-run %s > %t.sa
// RUN: mlir-opt %s --sparsifier | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.up
// RUN: %python %S/../Inputs/compare_prints.py %t.sa %t.up | FileCheck %s
// CHECK: 5 arrays compared, 0 differences
//
// Shape operators: sparse_tensor.concatenate of CSR matrices along rows and
// columns, tensor.collapse_shape of a CSR matrix into a sparse vector,
// tensor.expand_shape back into CSR, and an element-wise product fused with
// a collapse (a collapsed CSR times a sparse vector, seed 001 §8.5).

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#ew2 = { indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"] }

func.func @vstack(%a: tensor<2x3xf64, #CSR>, %b: tensor<3x3xf64, #CSR>) -> tensor<5x3xf64, #CSR> {
  %r = sparse_tensor.concatenate %a, %b {dimension = 0 : index} : tensor<2x3xf64, #CSR>, tensor<3x3xf64, #CSR> to tensor<5x3xf64, #CSR>
  return %r : tensor<5x3xf64, #CSR>
}
func.func @hstack(%a: tensor<3x3xf64, #CSR>, %b: tensor<3x3xf64, #CSR>) -> tensor<3x6xf64, #CSR> {
  %r = sparse_tensor.concatenate %a, %b {dimension = 1 : index} : tensor<3x3xf64, #CSR>, tensor<3x3xf64, #CSR> to tensor<3x6xf64, #CSR>
  return %r : tensor<3x6xf64, #CSR>
}
func.func @collapse(%a: tensor<3x3xf64, #CSR>) -> tensor<9xf64, #SV> {
  %r = tensor.collapse_shape %a [[0, 1]] : tensor<3x3xf64, #CSR> into tensor<9xf64, #SV>
  return %r : tensor<9xf64, #SV>
}
func.func @expand(%v: tensor<9xf64, #SV>) -> tensor<3x3xf64, #CSR> {
  %r = tensor.expand_shape %v [[0, 1]] output_shape [3, 3] : tensor<9xf64, #SV> into tensor<3x3xf64, #CSR>
  return %r : tensor<3x3xf64, #CSR>
}
func.func @collapse_mul(%a: tensor<3x3xf64, #CSR>, %v: tensor<9xf64, #SV>) -> tensor<9xf64, #SV> {
  %c = tensor.collapse_shape %a [[0, 1]] : tensor<3x3xf64, #CSR> into tensor<9xf64, #SV>
  %e = tensor.empty() : tensor<9xf64, #SV>
  %r = linalg.mul ins(%c, %v : tensor<9xf64, #SV>, tensor<9xf64, #SV>) outs(%e : tensor<9xf64, #SV>) -> tensor<9xf64, #SV>
  return %r : tensor<9xf64, #SV>
}

func.func @main() {
  %da = arith.constant dense<[[1.0, 0.0, 2.0], [0.0, 0.0, 3.0]]> : tensor<2x3xf64>
  %db = arith.constant dense<[[0.0, 4.0, 0.0], [5.0, 0.0, 0.0], [0.0, 0.0, 6.0]]> : tensor<3x3xf64>
  %dv = arith.constant dense<[1.0, 0.0, 3.0, 0.0, 0.0, 2.0, 0.0, 0.0, -1.0]> : tensor<9xf64>
  %a = sparse_tensor.convert %da : tensor<2x3xf64> to tensor<2x3xf64, #CSR>
  %b = sparse_tensor.convert %db : tensor<3x3xf64> to tensor<3x3xf64, #CSR>
  %v = sparse_tensor.convert %dv : tensor<9xf64> to tensor<9xf64, #SV>
  %r1 = call @vstack(%a, %b) : (tensor<2x3xf64, #CSR>, tensor<3x3xf64, #CSR>) -> tensor<5x3xf64, #CSR>
  sparse_tensor.print %r1 : tensor<5x3xf64, #CSR>
  %r2 = call @hstack(%b, %b) : (tensor<3x3xf64, #CSR>, tensor<3x3xf64, #CSR>) -> tensor<3x6xf64, #CSR>
  sparse_tensor.print %r2 : tensor<3x6xf64, #CSR>
  %r3 = call @collapse(%b) : (tensor<3x3xf64, #CSR>) -> tensor<9xf64, #SV>
  sparse_tensor.print %r3 : tensor<9xf64, #SV>
  %r4 = call @expand(%v) : (tensor<9xf64, #SV>) -> tensor<3x3xf64, #CSR>
  sparse_tensor.print %r4 : tensor<3x3xf64, #CSR>
  %r5 = call @collapse_mul(%b, %v) : (tensor<3x3xf64, #CSR>, tensor<9xf64, #SV>) -> tensor<9xf64, #SV>
  sparse_tensor.print %r5 : tensor<9xf64, #SV>
  bufferization.dealloc_tensor %a : tensor<2x3xf64, #CSR>
  bufferization.dealloc_tensor %b : tensor<3x3xf64, #CSR>
  bufferization.dealloc_tensor %v : tensor<9xf64, #SV>
  return
}
