// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks -O0 %s | FileCheck %s
// RUN: sa-run --num-threads=4 --parallel-min-work=1 --bounds-checks %s | FileCheck %s
// collapse, split and reshape (seed 001 §4.1) in C and F order, into other
// formats and fills, through the runtime (every stored entry moved to its
// coordinates in the new shape). Expected values: numpy.reshape of the dense
// arrays
//   a = [[0, 1, 0, 2], [3, 0, 0, 4], [0, 5, 6, 0]] (fill 0)
//   b = [[1, 7, 1], [nan, 1, 2]] (fill 1)

!csr34 = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed]>>
!v12 = !sparse_array.array<12xf64, #sparse_array.format<[compressed]>>
!d12 = !sparse_array.array<12xf64>
!coo43 = !sparse_array.array<4x3xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!dcsc26 = !sparse_array.array<2x6xf64, #sparse_array.format<[compressed, compressed], order = [1, 0]>>
!b23 = !sparse_array.array<2x3xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>>
!b32 = !sparse_array.array<3x2xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>>
!z32 = !sparse_array.array<3x2xf64, #sparse_array.format<[compressed, compressed]>>
!csf232 = !sparse_array.array<2x3x2xf64, #sparse_array.format<[compressed, compressed, compressed]>>
!e03 = !sparse_array.array<0x3xf64, #sparse_array.format<[dense, compressed]>>
!e30 = !sparse_array.array<3x0xf64, #sparse_array.format<[compressed, compressed]>>

func.func @main() {
  %a = sparse_array.constant sparse<[[0, 1], [0, 3], [1, 0], [1, 3], [2, 1], [2, 2]], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<3x4xf64> : !csr34
  %b = sparse_array.constant dense<[[1.0, 7.0, 1.0], [0x7FF8000000000000, 1.0, 2.0]]> : tensor<2x3xf64> : !b23
  %v = sparse_array.collapse %a [0, 1] : !csr34 -> !v12
  sparse_array.print %v : !v12
  %vf = sparse_array.collapse %a [0, 1] order "F" : !csr34 -> !d12
  sparse_array.print %vf : !d12
  %s = sparse_array.split %v dim 0 [3, 4] : !v12 -> !csr34
  sparse_array.print %s : !csr34
  %sf = sparse_array.split %vf dim 0 [4, -1] order "F" : !d12 -> !coo43
  sparse_array.print %sf : !coo43
  %r = sparse_array.reshape %a [2, -1] : !csr34 -> !dcsc26
  sparse_array.print %r : !dcsc26
  %rb = sparse_array.reshape %b [3, 2] : !b23 -> !b32
  sparse_array.print %rb : !b32
  // Into fill 0: b's implicit 1s become values.
  %rz = sparse_array.reshape %b [3, 2] order "F" : !b23 -> !z32
  sparse_array.print %rz : !z32
  %r3 = sparse_array.reshape %a [2, 3, 2] : !csr34 -> !csf232
  sparse_array.print %r3 : !csf232
  %e = sparse_array.constant dense<0.0> : tensor<0x3xf64> : !e03
  %re = sparse_array.reshape %e [3, 0] : !e03 -> !e30
  sparse_array.print %re : !e30
  return
}
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
// CHECK-NEXT: 2 3
// CHECK-NEXT: 4 1
// CHECK-NEXT: 6 5
// CHECK-NEXT: 9 6
// CHECK-NEXT: 10 2
// CHECK-NEXT: 11 4
// CHECK:      # fill: 0
// CHECK-NEXT: 2 6
// CHECK-NEXT: 3 4
// CHECK-NEXT: 1 2 1
// CHECK-NEXT: 1 4 2
// CHECK-NEXT: 2 1 3
// CHECK-NEXT: 2 4 4
// CHECK-NEXT: 3 2 5
// CHECK-NEXT: 3 3 6
// CHECK:      # fill: 0
// CHECK-NEXT: 2 6
// CHECK-NEXT: 4 3
// CHECK-NEXT: 1 3 6
// CHECK-NEXT: 2 1 3
// CHECK-NEXT: 2 2 5
// CHECK-NEXT: 2 3 2
// CHECK-NEXT: 3 3 4
// CHECK-NEXT: 4 1 1
// CHECK:      # fill: 0
// CHECK-NEXT: 2 6
// CHECK-NEXT: 2 6
// CHECK-NEXT: 1 2 1
// CHECK-NEXT: 1 4 2
// CHECK-NEXT: 1 5 3
// CHECK-NEXT: 2 2 4
// CHECK-NEXT: 2 4 5
// CHECK-NEXT: 2 5 6
// CHECK:      # fill: 1
// CHECK-NEXT: 2 3
// CHECK-NEXT: 3 2
// CHECK-NEXT: 1 2 7
// CHECK-NEXT: 2 2 nan
// CHECK-NEXT: 3 2 2
// CHECK:      # fill: 0
// CHECK-NEXT: 2 6
// CHECK-NEXT: 3 2
// CHECK-NEXT: 1 1 1
// CHECK-NEXT: 1 2 1
// CHECK-NEXT: 2 1 nan
// CHECK-NEXT: 2 2 1
// CHECK-NEXT: 3 1 7
// CHECK-NEXT: 3 2 2
// CHECK:      # fill: 0
// CHECK-NEXT: 3 6
// CHECK-NEXT: 2 3 2
// CHECK-NEXT: 1 1 2 1
// CHECK-NEXT: 1 2 2 2
// CHECK-NEXT: 1 3 1 3
// CHECK-NEXT: 2 1 2 4
// CHECK-NEXT: 2 2 2 5
// CHECK-NEXT: 2 3 1 6
// CHECK:      # fill: 0
// CHECK-NEXT: 2 0
// CHECK-NEXT: 3 0
