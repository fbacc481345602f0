// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks -O0 %s | FileCheck %s
// RUN: sa-run --linear-threshold=2 --threads=2 --parallel-min-extent=1 --parallel-min-work=1 %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-free-temporaries | FileCheck %s --check-prefix=FUSE
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra | FileCheck %s --check-prefix=PLAN
// A stored concatenation part (or a slice of one) whose fill is not the
// result's (seed 001 §5.1 with fills): its implicit entries are values of
// the result, so its whole range is. Like a computed part, it is read
// through its window with a range marker (select_range's `ranges`): one
// kernel, no change_fill, no temporary, the marked range iterated alone.
// Inputs store explicit fills, NaN and -0.0; parts in CSR, COO (fill NaN)
// and DCSR (i64, fill 42); a slice and a strided slice of a part, fused;
// a +0.0 fill into a -0.0 result (its implicit +0.0 become entries).
// Expected entries: numpy on the constants' dense meaning (generated;
// printing lists entries that differ from the fill bitwise), with
// C = [[0, 0, 0, 0, 5, -1, 0, 0], [0, 0, 0, 0, 0, 0, -1, 0], [1, 0, 0, 0, 0, 0, 1, 0]].

sparse_array.func @add(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}

!a = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed]>>
!b1 = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>>
!w1 = !sparse_array.array<3x8xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>>
!h = !sparse_array.array<3x8xf64, #sparse_array.format<[dense, compressed]>>
!bn = !sparse_array.array<3x4xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0x7FF8000000000000 : f64>>
!vcoo = !sparse_array.array<6x4xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!ai = !sparse_array.array<3x4xi64, #sparse_array.format<[dense, compressed], fill = 0 : i64>>
!bi = !sparse_array.array<3x4xi64, #sparse_array.format<[compressed, compressed], fill = 42 : i64>>
!vi = !sparse_array.array<6x4xi64, #sparse_array.format<[dense, compressed], fill = 0 : i64>>
!a0 = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed], fill = -0.0 : f64>>
!bz = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
!hz = !sparse_array.array<3x8xf64, #sparse_array.format<[dense, compressed], fill = -0.0 : f64>>

// Alone: one kernel (the parts' stored ranges are not the result's, so
// nothing is moved), B's range marked; the space is A's entries and the
// marked range, not the universe.
// FUSE-LABEL: func.func @hstack(
// FUSE-NEXT: %[[M:.*]] = sparse_array.constant dense<true> : tensor<4xi1>
// FUSE-NEXT: %[[K:.*]] = sparse_array.kernel ins(%{{.*}}, %{{.*}}, %[[M]] :
// FUSE: %[[R:.*]] = sparse_array.access %{{.*}}[%{{.*}}(-4:4)] padded : !sparse_array.array<4xi1>
// FUSE: sparse_array.select_range %{{.*}} [4] (%{{.*}}, %{{.*}}) ranges [1] (%[[R]])
// FUSE-NOT: change_fill
// FUSE-NOT: dealloc
// FUSE: return %[[K]]
// PLAN-LABEL: func.func @hstack(
// PLAN: algebra = #sparse_array.algebra<union(0, 1, 2)>, fill = #sparse_array.scalar<0.0 : f64>
func.func @hstack(%a: !a, %b: !b1) -> !h {
  %h = sparse_array.concat %a, %b dim 1 : !a, !b1 -> !h
  return %h : !h
}

func.func @part_first(%b: !b1, %a: !a) -> !h {
  %h = sparse_array.concat %b, %a dim 1 : !b1, !a -> !h
  return %h : !h
}

// The slice, the concatenation and the sum are one kernel: the part is
// read through its window bounded to the slice's columns.
// FUSE-LABEL: func.func @slice_sum(
// FUSE-NEXT: sparse_array.constant dense<true>
// FUSE-NEXT: %[[S:.*]] = sparse_array.kernel
// FUSE: sparse_array.access %{{.*}}[%{{.*}}, %{{.*}}(-2:6)] padded bounds [0, -1, 2, 6]
// FUSE-NOT: sparse_array.kernel
// FUSE-NOT: sparse_array.slice
// FUSE-NOT: change_fill
// FUSE-NOT: dealloc
// FUSE: return %[[S]]
func.func @slice_sum(%a: !a, %w: !w1, %c: !h) -> !h {
  %s = sparse_array.slice %w[:, 2:6] : !w1 -> !b1
  %h = sparse_array.concat %a, %s dim 1 : !a, !b1 -> !h
  %r = sparse_array.map @add(%h, %c) : (!h, !h) -> !h
  return %r : !h
}

// FUSE-LABEL: func.func @strided_part(
// FUSE-NOT: change_fill
// FUSE: return
func.func @strided_part(%a: !a, %w: !w1) -> !h {
  %s = sparse_array.slice %w[:, 1:8:2] : !w1 -> !b1
  %h = sparse_array.concat %a, %s dim 1 : !a, !b1 -> !h
  return %h : !h
}

func.func @vstack_coo(%a: !a, %b: !bn) -> !vcoo {
  %v = sparse_array.concat %a, %b dim 0 : !a, !bn -> !vcoo
  return %v : !vcoo
}

func.func @vstack_dcsr_i64(%a: !ai, %b: !bi) -> !vi {
  %v = sparse_array.concat %a, %b dim 0 : !ai, !bi -> !vi
  return %v : !vi
}

func.func @negzero(%a: !a0, %b: !bz) -> !hz {
  %h = sparse_array.concat %a, %b dim 1 : !a0, !bz -> !hz
  return %h : !hz
}

func.func @main() {
  %a = sparse_array.constant sparse<[[0, 1], [0, 3], [1, 0], [1, 2], [2, 2], [2, 3]], [1.5, -0.0, 2.0, 0.0, 0x7FF8000000000000, 4.0]> : tensor<3x4xf64> : !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
  %b1 = sparse_array.constant sparse<[[0, 0], [0, 2], [1, 1], [2, 1], [2, 3]], [0.0, 1.0, -0.0, 0x7FF8000000000000, 2.5]> : tensor<3x4xf64> : !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>>
  %w1 = sparse_array.constant sparse<[[0, 1], [0, 2], [0, 5], [1, 3], [1, 4], [1, 7], [2, 0], [2, 5], [2, 6]], [3.0, 0.0, -2.0, 1.0, 0.5, 9.0, 6.0, 0x7FF8000000000000, -0.0]> : tensor<3x8xf64> : !sparse_array.array<3x8xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>>
  %bn = sparse_array.constant sparse<[[0, 1], [1, 0], [1, 2], [2, 3]], [2.0, 0.0, -1.0, 0x7FF8000000000000]> : tensor<3x4xf64> : !sparse_array.array<3x4xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0x7FF8000000000000 : f64>>
  %ai = sparse_array.constant sparse<[[0, 1], [1, 3], [2, 0], [2, 2]], [7, -3, 42, 0]> : tensor<3x4xi64> : !sparse_array.array<3x4xi64, #sparse_array.format<[dense, compressed], fill = 0 : i64>>
  %bi = sparse_array.constant sparse<[[0, 0], [0, 3], [2, 1], [2, 2]], [0, 42, -5, 9]> : tensor<3x4xi64> : !sparse_array.array<3x4xi64, #sparse_array.format<[compressed, compressed], fill = 42 : i64>>
  %a0 = sparse_array.constant sparse<[[0, 1], [1, 2], [2, 3]], [2.0, 0.0, 7.0]> : tensor<3x4xf64> : !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed], fill = -0.0 : f64>>
  %bz = sparse_array.constant sparse<[[0, 0], [1, 1], [2, 2]], [-0.0, 3.0, 0.0]> : tensor<3x4xf64> : !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
  %c = sparse_array.constant dense<[[0.0, 0.0, 0.0, 0.0, 5.0, -1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0], [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0]]> : tensor<3x8xf64> : !h

  %hstack = func.call @hstack(%a, %b1) : (!a, !b1) -> !h
  sparse_array.print %hstack : !h
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 16
  // CHECK-NEXT: 3 8
  // CHECK-NEXT: 1 2 1.5
  // CHECK-NEXT: 1 4 -0
  // CHECK-NEXT: 1 6 1
  // CHECK-NEXT: 1 7 1
  // CHECK-NEXT: 1 8 1
  // CHECK-NEXT: 2 1 2
  // CHECK-NEXT: 2 5 1
  // CHECK-NEXT: 2 6 -0
  // CHECK-NEXT: 2 7 1
  // CHECK-NEXT: 2 8 1
  // CHECK-NEXT: 3 3 nan
  // CHECK-NEXT: 3 4 4
  // CHECK-NEXT: 3 5 1
  // CHECK-NEXT: 3 6 nan
  // CHECK-NEXT: 3 7 1
  // CHECK-NEXT: 3 8 2.5
  sparse_array.dealloc %hstack : !h

  %part_first = func.call @part_first(%b1, %a) : (!b1, !a) -> !h
  sparse_array.print %part_first : !h
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 16
  // CHECK-NEXT: 3 8
  // CHECK-NEXT: 1 2 1
  // CHECK-NEXT: 1 3 1
  // CHECK-NEXT: 1 4 1
  // CHECK-NEXT: 1 6 1.5
  // CHECK-NEXT: 1 8 -0
  // CHECK-NEXT: 2 1 1
  // CHECK-NEXT: 2 2 -0
  // CHECK-NEXT: 2 3 1
  // CHECK-NEXT: 2 4 1
  // CHECK-NEXT: 2 5 2
  // CHECK-NEXT: 3 1 1
  // CHECK-NEXT: 3 2 nan
  // CHECK-NEXT: 3 3 1
  // CHECK-NEXT: 3 4 2.5
  // CHECK-NEXT: 3 7 nan
  // CHECK-NEXT: 3 8 4
  sparse_array.dealloc %part_first : !h

  %slice_sum = func.call @slice_sum(%a, %w1, %c) : (!a, !w1, !h) -> !h
  sparse_array.print %slice_sum : !h
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 16
  // CHECK-NEXT: 3 8
  // CHECK-NEXT: 1 2 1.5
  // CHECK-NEXT: 1 5 5
  // CHECK-NEXT: 1 7 1
  // CHECK-NEXT: 1 8 -2
  // CHECK-NEXT: 2 1 2
  // CHECK-NEXT: 2 5 1
  // CHECK-NEXT: 2 6 1
  // CHECK-NEXT: 2 7 -0.5
  // CHECK-NEXT: 2 8 1
  // CHECK-NEXT: 3 1 1
  // CHECK-NEXT: 3 3 nan
  // CHECK-NEXT: 3 4 4
  // CHECK-NEXT: 3 5 1
  // CHECK-NEXT: 3 6 1
  // CHECK-NEXT: 3 7 2
  // CHECK-NEXT: 3 8 nan
  sparse_array.dealloc %slice_sum : !h

  %strided_part = func.call @strided_part(%a, %w1) : (!a, !w1) -> !h
  sparse_array.print %strided_part : !h
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 17
  // CHECK-NEXT: 3 8
  // CHECK-NEXT: 1 2 1.5
  // CHECK-NEXT: 1 4 -0
  // CHECK-NEXT: 1 5 3
  // CHECK-NEXT: 1 6 1
  // CHECK-NEXT: 1 7 -2
  // CHECK-NEXT: 1 8 1
  // CHECK-NEXT: 2 1 2
  // CHECK-NEXT: 2 5 1
  // CHECK-NEXT: 2 6 1
  // CHECK-NEXT: 2 7 1
  // CHECK-NEXT: 2 8 9
  // CHECK-NEXT: 3 3 nan
  // CHECK-NEXT: 3 4 4
  // CHECK-NEXT: 3 5 1
  // CHECK-NEXT: 3 6 1
  // CHECK-NEXT: 3 7 nan
  // CHECK-NEXT: 3 8 1
  sparse_array.dealloc %strided_part : !h

  %vstack_coo = func.call @vstack_coo(%a, %bn) : (!a, !bn) -> !vcoo
  sparse_array.print %vstack_coo : !vcoo
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 16
  // CHECK-NEXT: 6 4
  // CHECK-NEXT: 1 2 1.5
  // CHECK-NEXT: 1 4 -0
  // CHECK-NEXT: 2 1 2
  // CHECK-NEXT: 3 3 nan
  // CHECK-NEXT: 3 4 4
  // CHECK-NEXT: 4 1 nan
  // CHECK-NEXT: 4 2 2
  // CHECK-NEXT: 4 3 nan
  // CHECK-NEXT: 4 4 nan
  // CHECK-NEXT: 5 2 nan
  // CHECK-NEXT: 5 3 -1
  // CHECK-NEXT: 5 4 nan
  // CHECK-NEXT: 6 1 nan
  // CHECK-NEXT: 6 2 nan
  // CHECK-NEXT: 6 3 nan
  // CHECK-NEXT: 6 4 nan
  sparse_array.dealloc %vstack_coo : !vcoo

  %vstack_dcsr_i64 = func.call @vstack_dcsr_i64(%ai, %bi) : (!ai, !bi) -> !vi
  sparse_array.print %vstack_dcsr_i64 : !vi
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 14
  // CHECK-NEXT: 6 4
  // CHECK-NEXT: 1 2 7
  // CHECK-NEXT: 2 4 -3
  // CHECK-NEXT: 3 1 42
  // CHECK-NEXT: 4 2 42
  // CHECK-NEXT: 4 3 42
  // CHECK-NEXT: 4 4 42
  // CHECK-NEXT: 5 1 42
  // CHECK-NEXT: 5 2 42
  // CHECK-NEXT: 5 3 42
  // CHECK-NEXT: 5 4 42
  // CHECK-NEXT: 6 1 42
  // CHECK-NEXT: 6 2 -5
  // CHECK-NEXT: 6 3 9
  // CHECK-NEXT: 6 4 42
  sparse_array.dealloc %vstack_dcsr_i64 : !vi

  %negzero = func.call @negzero(%a0, %bz) : (!a0, !bz) -> !hz
  sparse_array.print %negzero : !hz
  // CHECK:      # fill: -0
  // CHECK-NEXT: 2 14
  // CHECK-NEXT: 3 8
  // CHECK-NEXT: 1 2 2
  // CHECK-NEXT: 1 6 0
  // CHECK-NEXT: 1 7 0
  // CHECK-NEXT: 1 8 0
  // CHECK-NEXT: 2 3 0
  // CHECK-NEXT: 2 5 0
  // CHECK-NEXT: 2 6 3
  // CHECK-NEXT: 2 7 0
  // CHECK-NEXT: 2 8 0
  // CHECK-NEXT: 3 4 7
  // CHECK-NEXT: 3 5 0
  // CHECK-NEXT: 3 6 0
  // CHECK-NEXT: 3 7 0
  // CHECK-NEXT: 3 8 0
  sparse_array.dealloc %negzero : !hz

  return
}
