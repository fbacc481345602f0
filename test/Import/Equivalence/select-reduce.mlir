// REQUIRES: mlir-sparsifier
// RUN: sa-run %s > %t.sa
// RUN: mlir-opt %s --sparsifier | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.up
// RUN: %python %S/../Inputs/compare_prints.py %t.sa %t.up | FileCheck %s
// CHECK: 4 arrays compared, 0 differences
//
// sparse_tensor.select (keep the stored entries a predicate accepts),
// sparse_tensor.reduce (custom reductions over the stored entries only,
// from their identity: a product from 1 and a max from -inf, whose result
// for an empty row is the identity), and sparse_tensor.number_of_entries
// (stored entries: which array is printed last depends on it).

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#DV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : dense) }>
#ew = { indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"] }
#rows = { indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"] }

func.func @positive(%a: tensor<4x5xf64, #CSR>) -> tensor<4x5xf64, #CSR> {
  %e = tensor.empty() : tensor<4x5xf64, #CSR>
  %r = linalg.generic #ew ins(%a : tensor<4x5xf64, #CSR>) outs(%e : tensor<4x5xf64, #CSR>) {
  ^bb0(%x: f64, %o: f64):
    %s = sparse_tensor.select %x : f64 {
      ^bb0(%v: f64):
        %z = arith.constant 0.0 : f64
        %keep = arith.cmpf ogt, %v, %z : f64
        sparse_tensor.yield %keep : i1
    }
    linalg.yield %s : f64
  } -> tensor<4x5xf64, #CSR>
  return %r : tensor<4x5xf64, #CSR>
}

func.func @rowprod(%a: tensor<4x5xf64, #CSR>) -> tensor<4xf64> {
  %one = arith.constant 1.0 : f64
  %e = tensor.empty() : tensor<4xf64>
  %y = linalg.fill ins(%one : f64) outs(%e : tensor<4xf64>) -> tensor<4xf64>
  %r = linalg.generic #rows ins(%a : tensor<4x5xf64, #CSR>) outs(%y : tensor<4xf64>) {
  ^bb0(%x: f64, %acc: f64):
    %p = sparse_tensor.reduce %x, %acc, %one : f64 {
      ^bb0(%u: f64, %v: f64):
        %m = arith.mulf %u, %v : f64
        sparse_tensor.yield %m : f64
    }
    linalg.yield %p : f64
  } -> tensor<4xf64>
  return %r : tensor<4xf64>
}

func.func @rowmax(%a: tensor<4x5xf64, #CSR>) -> tensor<4xf64> {
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %e = tensor.empty() : tensor<4xf64>
  %y = linalg.fill ins(%ninf : f64) outs(%e : tensor<4xf64>) -> tensor<4xf64>
  %r = linalg.generic #rows ins(%a : tensor<4x5xf64, #CSR>) outs(%y : tensor<4xf64>) {
  ^bb0(%x: f64, %acc: f64):
    %p = sparse_tensor.reduce %acc, %x, %ninf : f64 {
      ^bb0(%u: f64, %v: f64):
        %m = arith.maximumf %u, %v : f64
        sparse_tensor.yield %m : f64
    }
    linalg.yield %p : f64
  } -> tensor<4xf64>
  return %r : tensor<4xf64>
}

func.func @main() {
  %d = arith.constant dense<[[1.5, 0.0, -2.0, 0.0, 3.0], [0.0, 0.0, 0.0, 0.0, 0.0], [-1.0, -4.0, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, -0.5, 0.25]]> : tensor<4x5xf64>
  %A = sparse_tensor.convert %d : tensor<4x5xf64> to tensor<4x5xf64, #CSR>
  %r1 = call @positive(%A) : (tensor<4x5xf64, #CSR>) -> tensor<4x5xf64, #CSR>
  sparse_tensor.print %r1 : tensor<4x5xf64, #CSR>
  %r2 = call @rowprod(%A) : (tensor<4x5xf64, #CSR>) -> tensor<4xf64>
  %p2 = sparse_tensor.convert %r2 : tensor<4xf64> to tensor<4xf64, #DV>
  sparse_tensor.print %p2 : tensor<4xf64, #DV>
  %r3 = call @rowmax(%A) : (tensor<4x5xf64, #CSR>) -> tensor<4xf64>
  %p3 = sparse_tensor.convert %r3 : tensor<4xf64> to tensor<4xf64, #DV>
  sparse_tensor.print %p3 : tensor<4xf64, #DV>
  %n = sparse_tensor.number_of_entries %r1 : tensor<4x5xf64, #CSR>
  // Four entries are positive: then the selection is printed again, else
  // the products (a mismatch between the runs either way).
  %four = arith.constant 4 : index
  %ok = arith.cmpi eq, %n, %four : index
  scf.if %ok {
    sparse_tensor.print %r1 : tensor<4x5xf64, #CSR>
  } else {
    sparse_tensor.print %p2 : tensor<4xf64, #DV>
  }
  return
}
