// RUN: sa-run %s | FileCheck %s
// A concatenation whose parts' fills differ (0 and 1) is U in the derivation:
// an over-approximation, so not exact. xor's explicit algebra complements
// its arguments ((a ∪ b) ∩ ¬(a ∩ b), true only where stored entries are
// never the fill); substituted with the concatenation's U it gave ¬x and
// omitted the points where x is stored, though the concatenation holds its
// fill 0 at some of them (elementwise.py --slices seed 122 found it).
// numpy: c = concat([1, 0], [1, 0, 1]) = [1, 0, 1, 0, 1],
//        x = big[0:13:3] = [0, 1, 0, 1, 0], c ^ x = [1, 1, 1, 1, 1].
// CHECK: # fill: 0
// CHECK-NEXT: 1 5
// CHECK-NEXT: 5
// CHECK-NEXT: 1 1
// CHECK-NEXT: 2 1
// CHECK-NEXT: 3 1
// CHECK-NEXT: 4 1
// CHECK-NEXT: 5 1

sparse_array.func @xor(%x: i1, %y: i1) -> i1
    attributes {commutative, associative, identity = #sparse_array.identity<0 : i1>,
                algebra = #sparse_array.algebra<intersect(union(0, 1), complement(intersect(0, 1))),
                                                fills = [0 : i1, 0 : i1]>} {
  %r = arith.xori %x, %y : i1
  sparse_array.yield %r : i1
}

!big = !sparse_array.array<14xi1, #sparse_array.format<[compressed], fill = 0 : i1>>
!x = !sparse_array.array<5xi1, #sparse_array.format<[compressed], fill = 0 : i1>>
!p0 = !sparse_array.array<2xi1, #sparse_array.format<[compressed], fill = 0 : i1>>
!p1 = !sparse_array.array<3xi1, #sparse_array.format<[compressed], fill = 1 : i1>>
!c = !sparse_array.array<5xi1, #sparse_array.format<[dense], fill = 0 : i1>>
!r = !sparse_array.array<5xi1, #sparse_array.format<[compressed], fill = 0 : i1>>

func.func @main() {
  %big = sparse_array.constant sparse<[[1], [2], [3], [4], [6], [7], [9], [10]], [false, true, true, true, false, true, true, false]> : tensor<14xi1> : !big
  %x = sparse_array.slice %big[0:-1:3] : !big -> !x
  %p0 = sparse_array.constant sparse<[[0]], [true]> : tensor<2xi1> : !p0
  %p1 = sparse_array.constant sparse<[[1]], [false]> : tensor<3xi1> : !p1
  %c = sparse_array.concat %p0, %p1 dim 0 : !p0, !p1 -> !c
  %m = sparse_array.map @xor(%c, %x) : (!c, !x) -> !r
  sparse_array.print %m : !r
  return
}
