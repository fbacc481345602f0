// RUN: sa-run %s | FileCheck %s
// sparse_tensor.foreach over a BSR tensor (2 x 2 blocks): every stored slot of
// the stored blocks (their zeros too) in storage order, each dimension's
// coordinate rebuilt as block x 2 + place (the importer crashed on blocked
// levels before). Blocks (0, 0), (0, 1), (1, 0) of [[1, 0, 0, 0],
// [0, 0, 0, 2], [0, 0, 0, 0], [3, 0, 0, 0]].
// CHECK:      0 0 1
// CHECK-NEXT: 0 1 0
// CHECK-NEXT: 1 0 0
// CHECK-NEXT: 1 1 0
// CHECK-NEXT: 0 2 0
// CHECK-NEXT: 0 3 0
// CHECK-NEXT: 1 2 0
// CHECK-NEXT: 1 3 2
// CHECK-NEXT: 2 0 0
// CHECK-NEXT: 2 1 0
// CHECK-NEXT: 3 0 3
// CHECK-NEXT: 3 1 0

#BSR = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense) }>
func.func @main() {
  %d = arith.constant dense<[[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0], [3.0, 0.0, 0.0, 0.0]]> : tensor<4x4xf64>
  %s = sparse_tensor.convert %d : tensor<4x4xf64> to tensor<4x4xf64, #BSR>
  sparse_tensor.foreach in %s : tensor<4x4xf64, #BSR> do {
    ^bb0(%i: index, %j: index, %v: f64):
      vector.print %i : index punctuation <no_punctuation>
      vector.print str " "
      vector.print %j : index punctuation <no_punctuation>
      vector.print str " "
      vector.print %v : f64
  }
  bufferization.dealloc_tensor %s : tensor<4x4xf64, #BSR>
  return
}
