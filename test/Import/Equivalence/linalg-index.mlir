// REQUIRES: mlir-sparsifier
// RUN: sa-run %s > %t.sa
// RUN: mlir-opt %s --sparsifier | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.up
// RUN: diff %t.sa %t.up
// RUN: FileCheck %s < %t.sa
//
// linalg.index in a region (coordinates as values: a dense input holding
// 0..n-1 read at the loop), into dense outputs passed to the function as a
// never-written tensor.empty; the same text as upstream's (the diff).
// References (numpy), A = [[1, 0, 2, 0], [0, 0, 0, 3], [4, 0, 0, 0]]:
// A * (i - j) (i32 casts) = [[0, 0, -4, 0], [0, 0, 0, -6], [8, 0, 0, 0]];
// A + 10 i + j as f64 = [[1, 1, 4, 3], [10, 11, 12, 16], [24, 21, 22, 23]].
// CHECK:      values : ( 0, 0, -4, 0, 0, 0, 0, -6, 8, 0, 0, 0 )
// CHECK:      values : ( 1, 1, 4, 3, 10, 11, 12, 16, 24, 21, 22, 23 )

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#DD = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : dense) }>
#trait = {
  indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
  iterator_types = ["parallel", "parallel"]
}

func.func @scaled(%a: tensor<3x4xi32, #CSR>, %out: tensor<3x4xi32>) -> tensor<3x4xi32> {
  %r = linalg.generic #trait ins(%a : tensor<3x4xi32, #CSR>) outs(%out : tensor<3x4xi32>) {
  ^bb0(%x: i32, %o: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %d = arith.subi %ii, %jj : i32
    %p = arith.muli %x, %d : i32
    linalg.yield %p : i32
  } -> tensor<3x4xi32>
  return %r : tensor<3x4xi32>
}

func.func @shifted(%a: tensor<3x4xf64, #CSR>, %out: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %r = linalg.generic #trait ins(%a : tensor<3x4xf64, #CSR>) outs(%out : tensor<3x4xf64>) {
  ^bb0(%x: f64, %o: f64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %jj = arith.index_cast %j : index to i64
    %ten = arith.constant 10 : i64
    %t = arith.muli %ii, %ten : i64
    %s = arith.addi %t, %jj : i64
    %f = arith.sitofp %s : i64 to f64
    %y = arith.addf %x, %f : f64
    linalg.yield %y : f64
  } -> tensor<3x4xf64>
  return %r : tensor<3x4xf64>
}

func.func @main() {
  %di = arith.constant dense<[[1, 0, 2, 0], [0, 0, 0, 3], [4, 0, 0, 0]]> : tensor<3x4xi32>
  %ai = sparse_tensor.convert %di : tensor<3x4xi32> to tensor<3x4xi32, #CSR>
  %e1 = tensor.empty() : tensor<3x4xi32>
  %r1 = call @scaled(%ai, %e1) : (tensor<3x4xi32, #CSR>, tensor<3x4xi32>) -> tensor<3x4xi32>
  %p1 = sparse_tensor.convert %r1 : tensor<3x4xi32> to tensor<3x4xi32, #DD>
  sparse_tensor.print %p1 : tensor<3x4xi32, #DD>
  %df = arith.constant dense<[[1.0, 0.0, 2.0, 0.0], [0.0, 0.0, 0.0, 3.0], [4.0, 0.0, 0.0, 0.0]]> : tensor<3x4xf64>
  %af = sparse_tensor.convert %df : tensor<3x4xf64> to tensor<3x4xf64, #CSR>
  %e2 = tensor.empty() : tensor<3x4xf64>
  %r2 = call @shifted(%af, %e2) : (tensor<3x4xf64, #CSR>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %p2 = sparse_tensor.convert %r2 : tensor<3x4xf64> to tensor<3x4xf64, #DD>
  sparse_tensor.print %p2 : tensor<3x4xf64, #DD>
  return
}
