// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks -O0 %s | FileCheck %s
// RUN: sa-run --num-threads=4 --parallel-min-work=1 --bounds-checks %s | FileCheck %s
// Collapses that merge stored levels (sparse-array-lower-shape; seed 001
// §4.1): CSC in F order, COO, DCSR into a dense vector (merged, then
// converted), the inner and the outer pair of a CSF, an all-dense matrix,
// compressed rows over dense columns. Expected values: numpy.reshape of
//   a = [[0, 1, 0, 2], [3, 0, 0, 4], [0, 5, 6, 0]]
//   t (2x3x2) with t[0,1,1] = 1, t[1,0,0] = 2, t[1,2,1] = 3, t[1,2,0] = 4

!csc34 = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
!coo34 = !sparse_array.array<3x4xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!dcsr34 = !sparse_array.array<3x4xf64, #sparse_array.format<[compressed, compressed]>>
!dense34 = !sparse_array.array<3x4xf64>
!cd34 = !sparse_array.array<3x4xf64, #sparse_array.format<[compressed, dense]>>
!csf = !sparse_array.array<2x3x2xf64, #sparse_array.format<[compressed, compressed, compressed]>>
!v12 = !sparse_array.array<12xf64, #sparse_array.format<[compressed]>>
!d12 = !sparse_array.array<12xf64>
!m26 = !sparse_array.array<2x6xf64, #sparse_array.format<[compressed, compressed]>>
!m62 = !sparse_array.array<6x2xf64, #sparse_array.format<[compressed, compressed]>>

!wide = !sparse_array.array<70000x70000xf64, #sparse_array.format<[dense, compressed], crd_width = 32>>
!wide1 = !sparse_array.array<4900000000xf64, #sparse_array.format<[compressed]>>

func.func @main() {
  %csc = sparse_array.constant dense<[[0.0, 1.0, 0.0, 2.0], [3.0, 0.0, 0.0, 4.0], [0.0, 5.0, 6.0, 0.0]]> : tensor<3x4xf64> : !csc34
  %1 = sparse_array.collapse %csc [0, 1] order "F" : !csc34 -> !v12
  sparse_array.print %1 : !v12
  %coo = sparse_array.constant dense<[[0.0, 1.0, 0.0, 2.0], [3.0, 0.0, 0.0, 4.0], [0.0, 5.0, 6.0, 0.0]]> : tensor<3x4xf64> : !coo34
  %2 = sparse_array.collapse %coo [0, 1] : !coo34 -> !v12
  sparse_array.print %2 : !v12
  %dcsr = sparse_array.constant dense<[[0.0, 1.0, 0.0, 2.0], [3.0, 0.0, 0.0, 4.0], [0.0, 5.0, 6.0, 0.0]]> : tensor<3x4xf64> : !dcsr34
  %3 = sparse_array.collapse %dcsr [0, 1] : !dcsr34 -> !d12
  sparse_array.print %3 : !d12
  %t = sparse_array.constant sparse<[[0, 1, 1], [1, 0, 0], [1, 2, 1], [1, 2, 0]], [1.0, 2.0, 3.0, 4.0]> : tensor<2x3x2xf64> : !csf
  %4 = sparse_array.collapse %t [1, 2] : !csf -> !m26
  sparse_array.print %4 : !m26
  %5 = sparse_array.collapse %t [0, 1] : !csf -> !m62
  sparse_array.print %5 : !m62
  %d = sparse_array.constant dense<[[0.0, 1.0, 0.0, 2.0], [3.0, 0.0, 0.0, 4.0], [0.0, 5.0, 6.0, 0.0]]> : tensor<3x4xf64> : !dense34
  %6 = sparse_array.collapse %d [0, 1] : !dense34 -> !d12
  sparse_array.print %6 : !d12
  %cd = sparse_array.constant dense<[[0.0, 1.0, 0.0, 2.0], [3.0, 0.0, 0.0, 4.0], [0.0, 5.0, 6.0, 0.0]]> : tensor<3x4xf64> : !cd34
  %7 = sparse_array.collapse %cd [0, 1] : !cd34 -> !v12
  sparse_array.print %7 : !v12
  // 32-bit coordinates whose linearization needs 64 bits (4.9e9).
  %w = sparse_array.constant sparse<[[69999, 69999]], [5.0]> : tensor<70000x70000xf64> : !wide
  %8 = sparse_array.collapse %w [0, 1] : !wide -> !wide1
  sparse_array.print %8 : !wide1
  return
}
// CHECK:      # fill: 0
// CHECK-NEXT: 1 6
// CHECK-NEXT: 12
// CHECK-NEXT: 2 3
// CHECK-NEXT: 4 1
// CHECK-NEXT: 6 5
// CHECK-NEXT: 9 6
// CHECK-NEXT: 10 2
// CHECK-NEXT: 11 4
// CHECK:      # fill: 0
// CHECK-NEXT: 1 6
// CHECK-NEXT: 12
// CHECK-NEXT: 2 1
// CHECK-NEXT: 4 2
// CHECK-NEXT: 5 3
// CHECK-NEXT: 8 4
// CHECK-NEXT: 10 5
// CHECK-NEXT: 11 6
// CHECK:      # fill: 0
// CHECK-NEXT: 1 6
// CHECK-NEXT: 12
// CHECK-NEXT: 2 1
// CHECK-NEXT: 4 2
// CHECK-NEXT: 5 3
// CHECK-NEXT: 8 4
// CHECK-NEXT: 10 5
// CHECK-NEXT: 11 6
// CHECK:      # fill: 0
// CHECK-NEXT: 2 4
// CHECK-NEXT: 2 6
// CHECK-NEXT: 1 4 1
// CHECK-NEXT: 2 1 2
// CHECK-NEXT: 2 5 4
// CHECK-NEXT: 2 6 3
// CHECK:      # fill: 0
// CHECK-NEXT: 2 4
// CHECK-NEXT: 6 2
// CHECK-NEXT: 2 2 1
// CHECK-NEXT: 4 1 2
// CHECK-NEXT: 6 1 4
// CHECK-NEXT: 6 2 3
// CHECK:      # fill: 0
// CHECK-NEXT: 1 6
// CHECK-NEXT: 12
// CHECK-NEXT: 2 1
// CHECK-NEXT: 4 2
// CHECK-NEXT: 5 3
// CHECK-NEXT: 8 4
// CHECK-NEXT: 10 5
// CHECK-NEXT: 11 6
// CHECK:      # fill: 0
// CHECK-NEXT: 1 6
// CHECK-NEXT: 12
// CHECK-NEXT: 2 1
// CHECK-NEXT: 4 2
// CHECK-NEXT: 5 3
// CHECK-NEXT: 8 4
// CHECK-NEXT: 10 5
// CHECK-NEXT: 11 6
// CHECK:      # fill: 0
// CHECK-NEXT: 1 1
// CHECK-NEXT: 4900000000
// CHECK-NEXT: 4900000000 5
