// RUN: sa-run %s | FileCheck %s
// RUN: not sa-run --entry-point=mismatch %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: sa-opt %s --sparse-array-import-sparse-tensor | FileCheck %s --check-prefix=IR
//
// tensor.cast: sizes made dynamic to call a function over any shape, and
// static again (a conversion, checked at run time). Row sums of
// [[1, 0, 2], [0, 0, 0], [0.5, 0, -4]] (numpy): [3, 0, -3.5].
// CHECK: ( 3, 0, -3.5 )
// BAD: sparse_array runtime error: convert: dimension 0 has size 3 but the result type requires 4
// IR-LABEL: func.func @main()
// IR: sparse_array.convert %{{.*}} : !sparse_array.array<3x3xf64, #{{.*}}> to !sparse_array.array<?x?xf64,
// IR: call @rowsum
// IR: sparse_array.convert %{{.*}} : !sparse_array.array<?xf64> to !sparse_array.array<3xf64>

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @rowsum(%A: tensor<?x?xf64, #CSR>) -> tensor<?xf64> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %A, %c0 : tensor<?x?xf64, #CSR>
  %z = arith.constant 0.0 : f64
  %e = tensor.empty(%n) : tensor<?xf64>
  %y = linalg.fill ins(%z : f64) outs(%e : tensor<?xf64>) -> tensor<?xf64>
  %r = linalg.reduce ins(%A : tensor<?x?xf64, #CSR>) outs(%y : tensor<?xf64>) dimensions = [1]
    (%in: f64, %acc: f64) {
      %s = arith.addf %in, %acc : f64
      linalg.yield %s : f64
    }
  return %r : tensor<?xf64>
}
func.func @main() {
  %d = arith.constant dense<[[1.0, 0.0, 2.0], [0.0, 0.0, 0.0], [0.5, 0.0, -4.0]]> : tensor<3x3xf64>
  %A = sparse_tensor.convert %d : tensor<3x3xf64> to tensor<3x3xf64, #CSR>
  %D = tensor.cast %A : tensor<3x3xf64, #CSR> to tensor<?x?xf64, #CSR>
  %r = call @rowsum(%D) : (tensor<?x?xf64, #CSR>) -> tensor<?xf64>
  %s = tensor.cast %r : tensor<?xf64> to tensor<3xf64>
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f64
  %v = vector.transfer_read %s[%c0], %pad : tensor<3xf64>, vector<3xf64>
  vector.print %v : vector<3xf64>
  return
}

func.func @mismatch() {
  %d = arith.constant dense<[[1.0, 0.0, 2.0], [0.0, 0.0, 0.0], [0.5, 0.0, -4.0]]> : tensor<3x3xf64>
  %A = sparse_tensor.convert %d : tensor<3x3xf64> to tensor<3x3xf64, #CSR>
  %D = tensor.cast %A : tensor<3x3xf64, #CSR> to tensor<?x?xf64, #CSR>
  %r = call @rowsum(%D) : (tensor<?x?xf64, #CSR>) -> tensor<?xf64>
  %bad = tensor.cast %r : tensor<?xf64> to tensor<4xf64>
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f64
  %w = vector.transfer_read %bad[%c0], %pad : tensor<4xf64>, vector<4xf64>
  vector.print %w : vector<4xf64>
  return
}
