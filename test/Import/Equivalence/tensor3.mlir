// REQUIRES: mlir-sparsifier
// RUN: sa-run %s > %t.sa
// RUN: mlir-opt %s --sparsifier | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.up
// RUN: %python %S/../Inputs/compare_prints.py %t.sa %t.up | FileCheck %s
// CHECK: 3 arrays compared, 0 differences
//
// Kernels over a 3-D CSF tensor and SDDMM: tensor-times-vector
// A(i,j) = sum_k B(i,j,k) c(k); MTTKRP A(i,j) = sum_{k,l} B(i,k,l) C(k,j)
// D(l,j); and the sampled product S(i,j) * sum_k P(i,k) Q(k,j) into CSR.

#CSF = #sparse_tensor.encoding<{ map = (d0, d1, d2) -> (d0 : compressed, d1 : compressed, d2 : compressed) }>
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>

#ttv = {
  indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (k)>, affine_map<(i, j, k) -> (i, j)>],
  iterator_types = ["parallel", "parallel", "reduction"]
}
func.func @ttv(%B: tensor<2x3x4xf64, #CSF>, %c: tensor<4xf64>) -> tensor<2x3xf64> {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<2x3xf64>
  %y = linalg.fill ins(%z : f64) outs(%e : tensor<2x3xf64>) -> tensor<2x3xf64>
  %r = linalg.generic #ttv ins(%B, %c : tensor<2x3x4xf64, #CSF>, tensor<4xf64>) outs(%y : tensor<2x3xf64>) {
  ^bb0(%b: f64, %x: f64, %acc: f64):
    %p = arith.mulf %b, %x : f64
    %s = arith.addf %acc, %p : f64
    linalg.yield %s : f64
  } -> tensor<2x3xf64>
  return %r : tensor<2x3xf64>
}

#mttkrp = {
  indexing_maps = [affine_map<(i, j, k, l) -> (i, k, l)>, affine_map<(i, j, k, l) -> (k, j)>, affine_map<(i, j, k, l) -> (l, j)>, affine_map<(i, j, k, l) -> (i, j)>],
  iterator_types = ["parallel", "parallel", "reduction", "reduction"]
}
func.func @mttkrp(%B: tensor<2x3x4xf64, #CSF>, %C: tensor<3x2xf64>, %D: tensor<4x2xf64>) -> tensor<2x2xf64> {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<2x2xf64>
  %y = linalg.fill ins(%z : f64) outs(%e : tensor<2x2xf64>) -> tensor<2x2xf64>
  %r = linalg.generic #mttkrp ins(%B, %C, %D : tensor<2x3x4xf64, #CSF>, tensor<3x2xf64>, tensor<4x2xf64>) outs(%y : tensor<2x2xf64>) {
  ^bb0(%b: f64, %c: f64, %d: f64, %acc: f64):
    %p = arith.mulf %b, %c : f64
    %q = arith.mulf %p, %d : f64
    %s = arith.addf %acc, %q : f64
    linalg.yield %s : f64
  } -> tensor<2x2xf64>
  return %r : tensor<2x2xf64>
}

#sddmm = {
  indexing_maps = [affine_map<(i, j, k) -> (i, j)>, affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
  iterator_types = ["parallel", "parallel", "reduction"]
}
func.func @sddmm(%S: tensor<3x3xf64, #CSR>, %P: tensor<3x2xf64>, %Q: tensor<2x3xf64>) -> tensor<3x3xf64, #CSR> {
  %e = tensor.empty() : tensor<3x3xf64, #CSR>
  %r = linalg.generic #sddmm ins(%S, %P, %Q : tensor<3x3xf64, #CSR>, tensor<3x2xf64>, tensor<2x3xf64>) outs(%e : tensor<3x3xf64, #CSR>) {
  ^bb0(%s: f64, %p: f64, %q: f64, %acc: f64):
    %m = arith.mulf %p, %q : f64
    %t = arith.mulf %s, %m : f64
    %a = arith.addf %acc, %t : f64
    linalg.yield %a : f64
  } -> tensor<3x3xf64, #CSR>
  return %r : tensor<3x3xf64, #CSR>
}

func.func @main() {
  %db = arith.constant dense<[[[1.0, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0], [0.0, 3.0, 0.0, 0.0]],
                              [[0.0, 0.0, 0.0, 0.0], [4.0, 0.0, 5.0, 0.0], [0.0, 0.0, 0.0, -6.0]]]> : tensor<2x3x4xf64>
  %B = sparse_tensor.convert %db : tensor<2x3x4xf64> to tensor<2x3x4xf64, #CSF>
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64>
  %r1 = call @ttv(%B, %c) : (tensor<2x3x4xf64, #CSF>, tensor<4xf64>) -> tensor<2x3xf64>
  %p1 = sparse_tensor.convert %r1 : tensor<2x3xf64> to tensor<2x3xf64, #CSR>
  sparse_tensor.print %p1 : tensor<2x3xf64, #CSR>

  %C = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf64>
  %D = arith.constant dense<[[1.0, -1.0], [0.5, 0.0], [2.0, 1.0], [0.0, 3.0]]> : tensor<4x2xf64>
  %r2 = call @mttkrp(%B, %C, %D) : (tensor<2x3x4xf64, #CSF>, tensor<3x2xf64>, tensor<4x2xf64>) -> tensor<2x2xf64>
  %p2 = sparse_tensor.convert %r2 : tensor<2x2xf64> to tensor<2x2xf64, #CSR>
  sparse_tensor.print %p2 : tensor<2x2xf64, #CSR>

  %ds = arith.constant dense<[[1.0, 0.0, 2.0], [0.0, 0.0, 0.0], [0.0, 3.0, -1.0]]> : tensor<3x3xf64>
  %S = sparse_tensor.convert %ds : tensor<3x3xf64> to tensor<3x3xf64, #CSR>
  %P = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf64>
  %Q = arith.constant dense<[[1.0, 0.0, 2.0], [0.5, 1.0, -1.0]]> : tensor<2x3xf64>
  %r3 = call @sddmm(%S, %P, %Q) : (tensor<3x3xf64, #CSR>, tensor<3x2xf64>, tensor<2x3xf64>) -> tensor<3x3xf64, #CSR>
  sparse_tensor.print %r3 : tensor<3x3xf64, #CSR>

  bufferization.dealloc_tensor %B : tensor<2x3x4xf64, #CSF>
  bufferization.dealloc_tensor %S : tensor<3x3xf64, #CSR>
  bufferization.dealloc_tensor %p1 : tensor<2x3xf64, #CSR>
  bufferization.dealloc_tensor %p2 : tensor<2x2xf64, #CSR>
  bufferization.dealloc_tensor %r3 : tensor<3x3xf64, #CSR>
  return
}
