// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks %s | FileCheck %s
// RUN: sa-run --linear-threshold=2 %s | FileCheck %s
// Splits and reshapes fused with compute (seed 001 §4.1, §5.1): the
// source is read through sparse_array.linearize, its stored coordinates'
// quotients and remainders iterated as two levels. Expected values: numpy
// on the dense arrays
//   x (12) = 2 at 1, 3 at 4, -1 at 5, 4 at 10 (fill 0; y: the same, fill 1)
//   B = [[1, 0, 2, 0], [0, 5, 3, 0], [7, 0, 0, 8]]
//   A2 (2x12) = 1 at (0,0), 2 at (0,5), 3 at (0,11), 4 at (1,3), 5 at (1,4)
//   d = arange(12) (dense)

sparse_array.func @mul(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @add(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
!v12 = !sparse_array.array<12xf64, #sparse_array.format<[compressed]>>
!y12 = !sparse_array.array<12xf64, #sparse_array.format<[compressed], fill = 1.0 : f64>>
!y34 = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>>
!d12 = !sparse_array.array<12xf64>
!csr34 = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed]>>
!d34 = !sparse_array.array<3x4xf64>
!csc34 = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
!csr43 = !sparse_array.array<4x3xf64, #sparse_array.format<[dense, compressed]>>
!r3 = !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>
!csr212 = !sparse_array.array<2x12xf64, #sparse_array.format<[dense, compressed]>>
!csf234 = !sparse_array.array<2x3x4xf64, #sparse_array.format<[dense, compressed, compressed]>>

func.func @main() {
  %x = sparse_array.constant sparse<[[1], [4], [5], [10]], [2.0, 3.0, -1.0, 4.0]> : tensor<12xf64> : !v12
  %b = sparse_array.constant dense<[[1.0, 0.0, 2.0, 0.0], [0.0, 5.0, 3.0, 0.0], [7.0, 0.0, 0.0, 8.0]]> : tensor<3x4xf64> : !csr34
  %s = sparse_array.split %x dim 0 [3, 4] : !v12 -> !csr34
  %m = sparse_array.map @mul(%s, %b) : (!csr34, !csr34) -> !csr34
  sparse_array.print %m : !csr34
  %f = sparse_array.split %x dim 0 [3, -1] order "F" : !v12 -> !csc34
  sparse_array.print %f : !csc34
  %s2 = sparse_array.split %x dim 0 [-1, 4] : !v12 -> !csr34
  %r = sparse_array.reduce @add %s2 dims [1] : !csr34 -> !r3
  sparse_array.print %r : !r3
  %s3 = sparse_array.split %x dim 0 [3, 4] : !v12 -> !csr34
  %p = sparse_array.map @add(%s3, %b) : (!csr34, !csr34) -> !csr34
  sparse_array.print %p : !csr34
  %a2 = sparse_array.constant sparse<[[0, 0], [0, 5], [0, 11], [1, 3], [1, 4]], [1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<2x12xf64> : !csr212
  %t = sparse_array.split %a2 dim 1 [3, 4] : !csr212 -> !csf234
  sparse_array.print %t : !csf234
  %d = sparse_array.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]> : tensor<12xf64> : !d12
  %ds = sparse_array.split %d dim 0 [3, 4] : !d12 -> !d34
  sparse_array.print %ds : !d34
  %rb = sparse_array.reshape %b [4, 3] : !csr34 -> !csr43
  %rb2 = sparse_array.reshape %b [4, 3] : !csr34 -> !csr43
  %sq = sparse_array.map @mul(%rb, %rb2) : (!csr43, !csr43) -> !csr43
  sparse_array.print %sq : !csr43
  // Fill 1 kept: y's implicit entries are 1 in the split too.
  %y = sparse_array.constant sparse<[[1], [4], [5], [10]], [2.0, 3.0, -1.0, 4.0]> : tensor<12xf64> : !y12
  %ys = sparse_array.split %y dim 0 [3, 4] : !y12 -> !y34
  sparse_array.print %ys : !y34
  return
}
// CHECK:      # fill: 1
// CHECK-NEXT: 2 4
// CHECK-NEXT: 3 4
// CHECK-NEXT: 1 2 2
// CHECK-NEXT: 2 1 3
// CHECK-NEXT: 2 2 -1
// CHECK-NEXT: 3 3 4
