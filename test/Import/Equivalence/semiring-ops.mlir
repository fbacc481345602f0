// REQUIRES: mlir-sparsifier
// RUN: sa-run %s > %t.sa
// RUN: mlir-opt %s --sparsifier | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.up
// RUN: %python %S/../Inputs/compare_prints.py %t.sa %t.up | FileCheck %s
// CHECK: 5 arrays compared, 0 differences
//
// sparse_tensor.binary and sparse_tensor.unary regions (present/absent
// semantics) imported as functions with explicit iteration algebras:
// overlap/left/right with a constant captured, a set difference
// (overlap = {}, left = identity, right = {}), a binary on CSR matrices
// with max in the overlap, a unary squaring present entries, and a unary
// whose absent region gives -1 into a dense result.

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#ew2 = { indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"] }
#ew1 = { indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"] }
#mat2 = { indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"] }

func.func @cases(%a: tensor<10xf64, #SV>, %b: tensor<10xf64, #SV>) -> tensor<10xf64, #SV> {
  %e = tensor.empty() : tensor<10xf64, #SV>
  %ten = arith.constant 10.0 : f64
  %r = linalg.generic #ew2 ins(%a, %b : tensor<10xf64, #SV>, tensor<10xf64, #SV>) outs(%e : tensor<10xf64, #SV>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %v = sparse_tensor.binary %x, %y : f64, f64 to f64
      overlap = {
      ^bb0(%p: f64, %q: f64):
        %m = arith.mulf %p, %q : f64
        %one = arith.constant 1.0 : f64
        %s = arith.addf %m, %one : f64
        sparse_tensor.yield %s : f64
      }
      left = {
      ^bb0(%p: f64):
        %s = arith.subf %p, %ten : f64
        sparse_tensor.yield %s : f64
      }
      right = {
      ^bb0(%q: f64):
        %s = arith.addf %q, %q : f64
        sparse_tensor.yield %s : f64
      }
    linalg.yield %v : f64
  } -> tensor<10xf64, #SV>
  return %r : tensor<10xf64, #SV>
}

func.func @difference(%a: tensor<10xf64, #SV>, %b: tensor<10xf64, #SV>) -> tensor<10xf64, #SV> {
  %e = tensor.empty() : tensor<10xf64, #SV>
  %r = linalg.generic #ew2 ins(%a, %b : tensor<10xf64, #SV>, tensor<10xf64, #SV>) outs(%e : tensor<10xf64, #SV>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %v = sparse_tensor.binary %x, %y : f64, f64 to f64
      overlap = {}
      left = identity
      right = {}
    linalg.yield %v : f64
  } -> tensor<10xf64, #SV>
  return %r : tensor<10xf64, #SV>
}

func.func @max_union(%a: tensor<3x4xf64, #CSR>, %b: tensor<3x4xf64, #CSR>) -> tensor<3x4xf64, #CSR> {
  %e = tensor.empty() : tensor<3x4xf64, #CSR>
  %r = linalg.generic #mat2 ins(%a, %b : tensor<3x4xf64, #CSR>, tensor<3x4xf64, #CSR>) outs(%e : tensor<3x4xf64, #CSR>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %v = sparse_tensor.binary %x, %y : f64, f64 to f64
      overlap = {
      ^bb0(%p: f64, %q: f64):
        %m = arith.maximumf %p, %q : f64
        sparse_tensor.yield %m : f64
      }
      left = identity
      right = identity
    linalg.yield %v : f64
  } -> tensor<3x4xf64, #CSR>
  return %r : tensor<3x4xf64, #CSR>
}

func.func @square(%a: tensor<10xf64, #SV>) -> tensor<10xf64, #SV> {
  %e = tensor.empty() : tensor<10xf64, #SV>
  %r = linalg.generic #ew1 ins(%a : tensor<10xf64, #SV>) outs(%e : tensor<10xf64, #SV>) {
  ^bb0(%x: f64, %o: f64):
    %v = sparse_tensor.unary %x : f64 to f64
      present = {
      ^bb0(%p: f64):
        %m = arith.mulf %p, %p : f64
        sparse_tensor.yield %m : f64
      }
      absent = {}
    linalg.yield %v : f64
  } -> tensor<10xf64, #SV>
  return %r : tensor<10xf64, #SV>
}

func.func @absent_minus_one(%a: tensor<10xf64, #SV>) -> tensor<10xf64> {
  %e = tensor.empty() : tensor<10xf64>
  %r = linalg.generic #ew1 ins(%a : tensor<10xf64, #SV>) outs(%e : tensor<10xf64>) {
  ^bb0(%x: f64, %o: f64):
    %v = sparse_tensor.unary %x : f64 to f64
      present = {
      ^bb0(%p: f64):
        %one = arith.constant 1.0 : f64
        %m = arith.addf %p, %one : f64
        sparse_tensor.yield %m : f64
      }
      absent = {
        %m1 = arith.constant -1.0 : f64
        sparse_tensor.yield %m1 : f64
      }
    linalg.yield %v : f64
  } -> tensor<10xf64>
  return %r : tensor<10xf64>
}

func.func @main() {
  %va = arith.constant dense<[1.0, 0.0, 2.0, 0.0, 5.0, 0.0, 7.0, 0.0, 9.0, 0.0]> : tensor<10xf64>
  %vb = arith.constant dense<[0.0, 2.0, 3.0, 0.0, 0.0, 6.0, 0.0, 8.0, 0.0, 0.0]> : tensor<10xf64>
  %a = sparse_tensor.convert %va : tensor<10xf64> to tensor<10xf64, #SV>
  %b = sparse_tensor.convert %vb : tensor<10xf64> to tensor<10xf64, #SV>
  %r1 = call @cases(%a, %b) : (tensor<10xf64, #SV>, tensor<10xf64, #SV>) -> tensor<10xf64, #SV>
  sparse_tensor.print %r1 : tensor<10xf64, #SV>
  %r2 = call @difference(%a, %b) : (tensor<10xf64, #SV>, tensor<10xf64, #SV>) -> tensor<10xf64, #SV>
  sparse_tensor.print %r2 : tensor<10xf64, #SV>
  %dm = arith.constant dense<[[1.0, 0.0, -2.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 3.0, 0.0, -4.0]]> : tensor<3x4xf64>
  %dn = arith.constant dense<[[2.0, 0.0, -3.0, 1.0], [0.0, 0.5, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]]> : tensor<3x4xf64>
  %m = sparse_tensor.convert %dm : tensor<3x4xf64> to tensor<3x4xf64, #CSR>
  %n = sparse_tensor.convert %dn : tensor<3x4xf64> to tensor<3x4xf64, #CSR>
  %r3 = call @max_union(%m, %n) : (tensor<3x4xf64, #CSR>, tensor<3x4xf64, #CSR>) -> tensor<3x4xf64, #CSR>
  sparse_tensor.print %r3 : tensor<3x4xf64, #CSR>
  %r4 = call @square(%a) : (tensor<10xf64, #SV>) -> tensor<10xf64, #SV>
  sparse_tensor.print %r4 : tensor<10xf64, #SV>
  %r5 = call @absent_minus_one(%a) : (tensor<10xf64, #SV>) -> tensor<10xf64>
  %p5 = sparse_tensor.convert %r5 : tensor<10xf64> to tensor<10xf64, #SV>
  sparse_tensor.print %p5 : tensor<10xf64, #SV>
  bufferization.dealloc_tensor %a : tensor<10xf64, #SV>
  bufferization.dealloc_tensor %b : tensor<10xf64, #SV>
  bufferization.dealloc_tensor %m : tensor<3x4xf64, #CSR>
  bufferization.dealloc_tensor %n : tensor<3x4xf64, #CSR>
  bufferization.dealloc_tensor %r1 : tensor<10xf64, #SV>
  bufferization.dealloc_tensor %r2 : tensor<10xf64, #SV>
  bufferization.dealloc_tensor %r3 : tensor<3x4xf64, #CSR>
  bufferization.dealloc_tensor %r4 : tensor<10xf64, #SV>
  bufferization.dealloc_tensor %p5 : tensor<10xf64, #SV>
  return
}
