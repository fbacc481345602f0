// REQUIRES: mlir-sparsifier
// RUN: sa-run %s > %t.sa
// RUN: mlir-opt %s --sparsifier | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.up
// RUN: %python %S/../Inputs/compare_prints.py %t.sa %t.up | FileCheck %s
// CHECK: 4 arrays compared, 0 differences
//
// SpMV as frontends write it, run through the importer (sa-run imports
// linalg on tensors first) and through upstream's --sparsifier: CSR and CSC
// matvec from a zero-filled output, and an i64 y + A x into initialized y
// (addi is associative, so y is added after the sum).

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#CSC = #sparse_tensor.encoding<{ map = (d0, d1) -> (d1 : dense, d0 : compressed) }>
#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>

func.func @spmv(%A: tensor<4x5xf64, #CSR>, %x: tensor<5xf64>) -> tensor<4xf64> {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<4xf64>
  %y = linalg.fill ins(%z : f64) outs(%e : tensor<4xf64>) -> tensor<4xf64>
  %r = linalg.matvec ins(%A, %x : tensor<4x5xf64, #CSR>, tensor<5xf64>) outs(%y : tensor<4xf64>) -> tensor<4xf64>
  return %r : tensor<4xf64>
}

func.func @spmv_csc(%A: tensor<4x5xf64, #CSC>, %x: tensor<5xf64>) -> tensor<4xf64> {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<4xf64>
  %y = linalg.fill ins(%z : f64) outs(%e : tensor<4xf64>) -> tensor<4xf64>
  %r = linalg.matvec ins(%A, %x : tensor<4x5xf64, #CSC>, tensor<5xf64>) outs(%y : tensor<4xf64>) -> tensor<4xf64>
  return %r : tensor<4xf64>
}

#matvec = {
  indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>],
  iterator_types = ["parallel", "reduction"]
}
func.func @spmv_acc(%A: tensor<4x5xi64, #CSR>, %x: tensor<5xi64>, %y: tensor<4xi64>) -> tensor<4xi64> {
  %r = linalg.generic #matvec ins(%A, %x : tensor<4x5xi64, #CSR>, tensor<5xi64>) outs(%y : tensor<4xi64>) {
  ^bb0(%a: i64, %b: i64, %acc: i64):
    %p = arith.muli %a, %b : i64
    %s = arith.addi %acc, %p : i64
    linalg.yield %s : i64
  } -> tensor<4xi64>
  return %r : tensor<4xi64>
}

func.func @main() {
  %d = arith.constant dense<[[1.0, 0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 3.0, 0.0, 4.0, 0.0], [0.0, 0.0, 0.0, 0.0, 5.5]]> : tensor<4x5xf64>
  %x = arith.constant dense<[1.0, 2.0, -3.0, 4.0, 0.5]> : tensor<5xf64>
  %A = sparse_tensor.convert %d : tensor<4x5xf64> to tensor<4x5xf64, #CSR>
  %y = call @spmv(%A, %x) : (tensor<4x5xf64, #CSR>, tensor<5xf64>) -> tensor<4xf64>
  %ys = sparse_tensor.convert %y : tensor<4xf64> to tensor<4xf64, #SV>
  sparse_tensor.print %ys : tensor<4xf64, #SV>

  %C = sparse_tensor.convert %d : tensor<4x5xf64> to tensor<4x5xf64, #CSC>
  %yc = call @spmv_csc(%C, %x) : (tensor<4x5xf64, #CSC>, tensor<5xf64>) -> tensor<4xf64>
  %ycs = sparse_tensor.convert %yc : tensor<4xf64> to tensor<4xf64, #SV>
  sparse_tensor.print %ycs : tensor<4xf64, #SV>

  %di = arith.constant dense<[[1, 0, 2, 0, 0], [0, 0, 0, 0, 0], [0, 3, 0, 4, 0], [0, 0, 0, 0, -5]]> : tensor<4x5xi64>
  %xi = arith.constant dense<[1, 2, 3, 4, 9223372036854775807]> : tensor<5xi64>
  %y0 = arith.constant dense<[10, 20, 0, 2]> : tensor<4xi64>
  %Ai = sparse_tensor.convert %di : tensor<4x5xi64> to tensor<4x5xi64, #CSR>
  %yi = call @spmv_acc(%Ai, %xi, %y0) : (tensor<4x5xi64, #CSR>, tensor<5xi64>, tensor<4xi64>) -> tensor<4xi64>
  %yis = sparse_tensor.convert %yi : tensor<4xi64> to tensor<4xi64, #SV>
  sparse_tensor.print %yis : tensor<4xi64, #SV>
  sparse_tensor.print %Ai : tensor<4x5xi64, #CSR>

  bufferization.dealloc_tensor %A : tensor<4x5xf64, #CSR>
  bufferization.dealloc_tensor %C : tensor<4x5xf64, #CSC>
  bufferization.dealloc_tensor %Ai : tensor<4x5xi64, #CSR>
  bufferization.dealloc_tensor %ys : tensor<4xf64, #SV>
  bufferization.dealloc_tensor %ycs : tensor<4xf64, #SV>
  bufferization.dealloc_tensor %yis : tensor<4xi64, #SV>
  return
}
