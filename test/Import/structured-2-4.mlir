// RUN: sa-run %s | FileCheck %s
// Upstream's 2:4 structured sparsity (`j mod 4 : structured[2, 4]`) through
// the importer: a matrix converted into it, read by a linalg.matvec (the
// level iterated as stored: 2 slots per block of 4, padding skipped), its
// stored entries by sparse_tensor.foreach in storage order, its level-2
// coordinates and values as upstream's buffers. Block (1, 0) holds one
// entry: its second slot is padding (an all-ones coordinate, -1 as i8, and
// the fill). Upstream's runtime (MLIR 22) packs the same matrix's entries
// back to back instead — ( 2, 3, 1, 3, 1, 0, 3, 0, 2, 0 ): 7 lands in block
// (1, 0)'s slot — so it needs exactly n entries per block; here any block
// may hold fewer. Expected values by hand:
//   A = [[0, 0, 1, 2, 0, 3, 0, 4], [0, 5, 0, 0, 7, 0, 0, 8],
//        [9, 0, 10, 0, 0, 0, 0, 0]]
//   A [1 .. 8] = [61, 109, 39]
// CHECK:      ( 61, 109, 39 )
// CHECK-NEXT: 0 2 1
// CHECK-NEXT: 0 3 2
// CHECK-NEXT: 0 5 3
// CHECK-NEXT: 0 7 4
// CHECK-NEXT: 1 1 5
// CHECK-NEXT: 1 4 7
// CHECK-NEXT: 1 7 8
// CHECK-NEXT: 2 0 9
// CHECK-NEXT: 2 2 10
// CHECK-NEXT: ( 2, 3, 1, 3, 1, -1, 0, 3, 0, 2 )
// CHECK-NEXT: ( 1, 2, 3, 4, 5, 0, 7, 8, 9, 10 )

#NV_24 = #sparse_tensor.encoding<{
  map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]),
  crdWidth = 8
}>

func.func @matvec(%a: tensor<3x8xf64, #NV_24>, %x: tensor<8xf64>) -> tensor<3xf64> {
  %z = arith.constant dense<0.0> : tensor<3xf64>
  %y = linalg.matvec ins(%a, %x : tensor<3x8xf64, #NV_24>, tensor<8xf64>)
                     outs(%z : tensor<3xf64>) -> tensor<3xf64>
  return %y : tensor<3xf64>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %f0 = arith.constant 0.0 : f64
  %u0 = arith.constant 0 : i8
  %d = arith.constant dense<[[0.0, 0.0, 1.0, 2.0, 0.0, 3.0, 0.0, 4.0],
                             [0.0, 5.0, 0.0, 0.0, 7.0, 0.0, 0.0, 8.0],
                             [9.0, 0.0, 10.0, 0.0, 0.0, 0.0, 0.0, 0.0]]> : tensor<3x8xf64>
  %a = sparse_tensor.convert %d : tensor<3x8xf64> to tensor<3x8xf64, #NV_24>
  %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf64>
  %y = call @matvec(%a, %x) : (tensor<3x8xf64, #NV_24>, tensor<8xf64>) -> tensor<3xf64>
  %vy = vector.transfer_read %y[%c0], %f0 : tensor<3xf64>, vector<3xf64>
  vector.print %vy : vector<3xf64>
  sparse_tensor.foreach in %a : tensor<3x8xf64, #NV_24> do {
    ^bb0(%i: index, %j: index, %v: f64):
      vector.print %i : index punctuation <no_punctuation>
      vector.print str " "
      vector.print %j : index punctuation <no_punctuation>
      vector.print str " "
      vector.print %v : f64
  }
  %crd = sparse_tensor.coordinates %a {level = 2 : index} : tensor<3x8xf64, #NV_24> to memref<?xi8>
  %vc = vector.transfer_read %crd[%c0], %u0 : memref<?xi8>, vector<10xi8>
  vector.print %vc : vector<10xi8>
  %val = sparse_tensor.values %a : tensor<3x8xf64, #NV_24> to memref<?xf64>
  %vv = vector.transfer_read %val[%c0], %f0 : memref<?xf64>, vector<10xf64>
  vector.print %vv : vector<10xf64>
  bufferization.dealloc_tensor %a : tensor<3x8xf64, #NV_24>
  return
}
