// REQUIRES: mlir-sparsifier
// RUN: sa-run %s > %t.sa
// RUN: mlir-opt %s --sparsifier | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.up
// RUN: %python %S/../Inputs/compare_prints.py %t.sa %t.up | FileCheck %s
// CHECK: 3 arrays compared, 0 differences
//
// Matrix products: CSR times dense into dense (SpMM), CSR times CSR into
// CSR (SpGEMM, a sparse output from tensor.empty), and DCSR times CSC.

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#CSC = #sparse_tensor.encoding<{ map = (d0, d1) -> (d1 : dense, d0 : compressed) }>
#DCSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed, d1 : compressed) }>

func.func @spmm(%A: tensor<4x5xf64, #CSR>, %B: tensor<5x3xf64>) -> tensor<4x3xf64> {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<4x3xf64>
  %c = linalg.fill ins(%z : f64) outs(%e : tensor<4x3xf64>) -> tensor<4x3xf64>
  %r = linalg.matmul ins(%A, %B : tensor<4x5xf64, #CSR>, tensor<5x3xf64>) outs(%c : tensor<4x3xf64>) -> tensor<4x3xf64>
  return %r : tensor<4x3xf64>
}

func.func @spgemm(%A: tensor<4x5xf64, #CSR>, %B: tensor<5x3xf64, #CSR>) -> tensor<4x3xf64, #CSR> {
  %e = tensor.empty() : tensor<4x3xf64, #CSR>
  %r = linalg.matmul ins(%A, %B : tensor<4x5xf64, #CSR>, tensor<5x3xf64, #CSR>) outs(%e : tensor<4x3xf64, #CSR>) -> tensor<4x3xf64, #CSR>
  return %r : tensor<4x3xf64, #CSR>
}

func.func @dcsr_csc(%A: tensor<4x5xf64, #DCSR>, %B: tensor<5x3xf64, #CSC>) -> tensor<4x3xf64> {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<4x3xf64>
  %c = linalg.fill ins(%z : f64) outs(%e : tensor<4x3xf64>) -> tensor<4x3xf64>
  %r = linalg.matmul ins(%A, %B : tensor<4x5xf64, #DCSR>, tensor<5x3xf64, #CSC>) outs(%c : tensor<4x3xf64>) -> tensor<4x3xf64>
  return %r : tensor<4x3xf64>
}

func.func @main() {
  %da = arith.constant dense<[[1.0, 0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 3.0, 0.0, 4.0, 0.0], [0.0, 0.0, 0.0, 0.0, 5.5]]> : tensor<4x5xf64>
  %db = arith.constant dense<[[1.0, 2.0, 0.0], [0.0, 0.0, -1.0], [0.5, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 4.0, 8.0]]> : tensor<5x3xf64>
  %A = sparse_tensor.convert %da : tensor<4x5xf64> to tensor<4x5xf64, #CSR>
  %C1 = call @spmm(%A, %db) : (tensor<4x5xf64, #CSR>, tensor<5x3xf64>) -> tensor<4x3xf64>
  %P1 = sparse_tensor.convert %C1 : tensor<4x3xf64> to tensor<4x3xf64, #CSR>
  sparse_tensor.print %P1 : tensor<4x3xf64, #CSR>

  %B = sparse_tensor.convert %db : tensor<5x3xf64> to tensor<5x3xf64, #CSR>
  %C2 = call @spgemm(%A, %B) : (tensor<4x5xf64, #CSR>, tensor<5x3xf64, #CSR>) -> tensor<4x3xf64, #CSR>
  sparse_tensor.print %C2 : tensor<4x3xf64, #CSR>

  %Ad = sparse_tensor.convert %da : tensor<4x5xf64> to tensor<4x5xf64, #DCSR>
  %Bc = sparse_tensor.convert %db : tensor<5x3xf64> to tensor<5x3xf64, #CSC>
  %C3 = call @dcsr_csc(%Ad, %Bc) : (tensor<4x5xf64, #DCSR>, tensor<5x3xf64, #CSC>) -> tensor<4x3xf64>
  %P3 = sparse_tensor.convert %C3 : tensor<4x3xf64> to tensor<4x3xf64, #CSR>
  sparse_tensor.print %P3 : tensor<4x3xf64, #CSR>

  bufferization.dealloc_tensor %A : tensor<4x5xf64, #CSR>
  bufferization.dealloc_tensor %B : tensor<5x3xf64, #CSR>
  bufferization.dealloc_tensor %Ad : tensor<4x5xf64, #DCSR>
  bufferization.dealloc_tensor %Bc : tensor<5x3xf64, #CSC>
  bufferization.dealloc_tensor %P1 : tensor<4x3xf64, #CSR>
  bufferization.dealloc_tensor %C2 : tensor<4x3xf64, #CSR>
  bufferization.dealloc_tensor %P3 : tensor<4x3xf64, #CSR>
  return
}
