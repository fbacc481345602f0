// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks -O0 %s | FileCheck %s
// RUN: sa-run --linear-threshold=2 --threads=2 --parallel-min-extent=1 --parallel-min-work=1 %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-free-temporaries | FileCheck %s --check-prefix=FUSE
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra | FileCheck %s --check-prefix=PLAN
// A concatenation part computed with another fill than the result's
// (seed 001 §5.1 with fills): its implicit entries are values of the
// result, so its whole range is stored. The part fuses: the kernel reads
// it through its window, and a range marker (a dense i1 array of the
// part's extent, whose values are never read) makes its leaf the part's
// range, iterated there alone (select_range's `ranges`): no change_fill,
// no temporary. The expected entries are numpy's, with the part
// P = B + 1 (add1; its fill 1):
//   np.concatenate([A, P], 1); np.concatenate([P, A], 1);
//   np.concatenate([A, P], 0) into COO;
//   np.concatenate([A, P], 1) + C; np.concatenate([A, Bn + 1], 1) (the
//   part's fill NaN); np.concatenate([A0, P], 1) with fill -0.0 (+0.0 is
//   stored); np.concatenate([P, D], 1) and np.concatenate([P, A + 2], 1)
//   (no part brings the result's fill: every part marked). Printing lists
//   entries that differ from the fill bitwise.
//   A = [[0.0, 1.5, 0.0, -0.0], [2.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0x7FF8000000000000, 4.0]]
//   B = [[0.0, -1.0, 0.0, 3.0], [0.0, 0.0, 0.0, 0.0], [-0.0, 0.0, 2.5, 0.0]]
//   C = [[0.0, 0.0, 0.0, 0.0, 5.0, -1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0], [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]
//   Bn = [[0x7FF8000000000000, 2.0, 0x7FF8000000000000, 0x7FF8000000000000], [0x7FF8000000000000, 0x7FF8000000000000, -1.0, 0x7FF8000000000000], [0.0, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000]]
//   A0 = [[-0.0, 2.0, -0.0, -0.0], [-0.0, -0.0, 0.0, -0.0], [-0.0, -0.0, -0.0, 7.0]]
//   D = [[0.0, 3.0], [0.0, 0.0], [-0.0, 7.0]] (dense)

sparse_array.func @add1(%x: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %r = arith.addf %x, %one : f64
  sparse_array.yield %r : f64
}
sparse_array.func @add2(%x: f64) -> f64 {
  %two = arith.constant 2.0 : f64
  %r = arith.addf %x, %two : f64
  sparse_array.yield %r : f64
}
sparse_array.func @add(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}

!a = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed]>>
!b1 = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>>
!h = !sparse_array.array<3x8xf64, #sparse_array.format<[dense, compressed]>>
!vcoo = !sparse_array.array<6x4xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!bn = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed], fill = 0x7FF8000000000000 : f64>>
!a0 = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed], fill = -0.0 : f64>>
!hz = !sparse_array.array<3x8xf64, #sparse_array.format<[dense, compressed], fill = -0.0 : f64>>
!b2 = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed], fill = 2.0 : f64>>
!d = !sparse_array.array<3x2xf64>
!r6 = !sparse_array.array<3x6xf64, #sparse_array.format<[dense, compressed]>>

// FUSE-LABEL: func.func @hstack(
// FUSE-NEXT: %[[M:.*]] = sparse_array.constant dense<true> : tensor<4xi1>
// FUSE-NEXT: %[[K:.*]] = sparse_array.kernel ins(%{{.*}}, %{{.*}}, %[[M]] :
// FUSE: %[[R:.*]] = sparse_array.access %{{.*}}[%{{.*}}(-4:4)] padded : !sparse_array.array<4xi1>
// FUSE-NEXT: sparse_array.select_range %{{.*}} [4] (%{{.*}}, %{{.*}}) ranges [1] (%[[R]])
// FUSE-NOT: change_fill
// FUSE-NOT: sparse_array.concat
// FUSE-NOT: dealloc
// FUSE: return %[[K]]
func.func @hstack(%a: !a, %b: !a) -> !h {
  %p = sparse_array.map @add1(%b) : (!a) -> !b1
  %h = sparse_array.concat %a, %p dim 1 : !a, !b1 -> !h
  return %h : !h
}

// FUSE-LABEL: func.func @vstack_coo(
// FUSE-NOT: change_fill
// FUSE: return
func.func @vstack_coo(%a: !a, %b: !a) -> !vcoo {
  %p = sparse_array.map @add1(%b) : (!a) -> !b1
  %v = sparse_array.concat %a, %p dim 0 : !a, !b1 -> !vcoo
  return %v : !vcoo
}

// The part, the concatenation and the sum are one kernel.
// FUSE-LABEL: func.func @sum(
// FUSE-NEXT: sparse_array.constant dense<true>
// FUSE-NEXT: %[[S:.*]] = sparse_array.kernel
// FUSE-NOT: sparse_array.kernel
// FUSE-NOT: change_fill
// FUSE-NOT: dealloc
// FUSE: return %[[S]]
func.func @sum(%a: !a, %b: !a, %c: !h) -> !h {
  %p = sparse_array.map @add1(%b) : (!a) -> !b1
  %h = sparse_array.concat %a, %p dim 1 : !a, !b1 -> !h
  %s = sparse_array.map @add(%h, %c) : (!h, !h) -> !h
  return %s : !h
}

func.func @nan_part(%a: !a, %bn: !bn) -> !h {
  %p = sparse_array.map @add1(%bn) : (!bn) -> !bn
  %h = sparse_array.concat %a, %p dim 1 : !a, !bn -> !h
  return %h : !h
}

func.func @negzero_result(%a0: !a0, %b: !a) -> !hz {
  %p = sparse_array.map @add1(%b) : (!a) -> !b1
  %h = sparse_array.concat %a0, %p dim 1 : !a0, !b1 -> !hz
  return %h : !hz
}

// The computed part first: the select's common fill is the stored
// part's (the marked part's own fill is never the common one).
// PLAN-LABEL: func.func @part_first(
// PLAN: algebra = #sparse_array.algebra<union(0, 2, 1)>, fill = #sparse_array.scalar<0.0 : f64>
func.func @part_first(%a: !a, %b: !a) -> !h {
  %p = sparse_array.map @add1(%b) : (!a) -> !b1
  %h = sparse_array.concat %p, %a dim 1 : !b1, !a -> !h
  return %h : !h
}

// No part brings the result's fill (the other part dense, or computed
// with a third fill): still one kernel, every computed part marked, no
// change_fill and no temporary. With a dense part the space is its window
// and the marked range; with two computed parts the select's fill is the
// last part's, not the declared one, so the kernel's space is the
// universe: every point is a value of some part anyway.
// PLAN-LABEL: func.func @dense_and_part(
// PLAN: algebra = #sparse_array.algebra<union(0, 2, 1)>, fill = #sparse_array.scalar<0.0 : f64>
// PLAN-LABEL: func.func @two_parts(
// PLAN: algebra = #sparse_array.algebra<universe>, fill = #sparse_array.scalar<0.0 : f64>
// FUSE-LABEL: func.func @dense_and_part(
// FUSE-NEXT: %[[M:.*]] = sparse_array.constant dense<true> : tensor<4xi1>
// FUSE-NEXT: %[[K:.*]] = sparse_array.kernel ins(%{{.*}}, %{{.*}}, %[[M]] :
// FUSE: sparse_array.select_range %{{.*}} [4] (%{{.*}}, %{{.*}}) ranges [0]
// FUSE-NOT: change_fill
// FUSE-NOT: dealloc
// FUSE: return %[[K]]
func.func @dense_and_part(%b: !a, %d: !d) -> !r6 {
  %p = sparse_array.map @add1(%b) : (!a) -> !b1
  %h = sparse_array.concat %p, %d dim 1 : !b1, !d -> !r6
  return %h : !r6
}

// FUSE-LABEL: func.func @two_parts(
// FUSE-NEXT: sparse_array.constant dense<true>
// FUSE-NEXT: sparse_array.constant dense<true>
// FUSE-NEXT: %[[K:.*]] = sparse_array.kernel
// FUSE: sparse_array.select_range %{{.*}} [4] (%{{.*}}, %{{.*}}) ranges [0, 1]
// FUSE-NOT: sparse_array.kernel
// FUSE-NOT: change_fill
// FUSE-NOT: dealloc
// FUSE: return %[[K]]
func.func @two_parts(%a: !a, %b: !a) -> !h {
  %p = sparse_array.map @add1(%b) : (!a) -> !b1
  %q = sparse_array.map @add2(%a) : (!a) -> !b2
  %h = sparse_array.concat %p, %q dim 1 : !b1, !b2 -> !h
  return %h : !h
}

func.func @main() {
  %a = sparse_array.constant dense<[[0.0, 1.5, 0.0, -0.0], [2.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0x7FF8000000000000, 4.0]]> : tensor<3x4xf64> : !a
  %b = sparse_array.constant dense<[[0.0, -1.0, 0.0, 3.0], [0.0, 0.0, 0.0, 0.0], [-0.0, 0.0, 2.5, 0.0]]> : tensor<3x4xf64> : !a
  %c = sparse_array.constant dense<[[0.0, 0.0, 0.0, 0.0, 5.0, -1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0], [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]> : tensor<3x8xf64> : !h
  %bn = sparse_array.constant dense<[[0x7FF8000000000000, 2.0, 0x7FF8000000000000, 0x7FF8000000000000], [0x7FF8000000000000, 0x7FF8000000000000, -1.0, 0x7FF8000000000000], [0.0, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000]]> : tensor<3x4xf64> : !bn
  %a0 = sparse_array.constant dense<[[-0.0, 2.0, -0.0, -0.0], [-0.0, -0.0, 0.0, -0.0], [-0.0, -0.0, -0.0, 7.0]]> : tensor<3x4xf64> : !a0

  %h = func.call @hstack(%a, %b) : (!a, !a) -> !h
  sparse_array.print %h : !h
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 16
  // CHECK-NEXT: 3 8
  // CHECK-NEXT: 1 2 1.5
  // CHECK-NEXT: 1 4 -0
  // CHECK-NEXT: 1 5 1
  // CHECK-NEXT: 1 7 1
  // CHECK-NEXT: 1 8 4
  // CHECK-NEXT: 2 1 2
  // CHECK-NEXT: 2 5 1
  // CHECK-NEXT: 2 6 1
  // CHECK-NEXT: 2 7 1
  // CHECK-NEXT: 2 8 1
  // CHECK-NEXT: 3 3 nan
  // CHECK-NEXT: 3 4 4
  // CHECK-NEXT: 3 5 1
  // CHECK-NEXT: 3 6 1
  // CHECK-NEXT: 3 7 3.5
  // CHECK-NEXT: 3 8 1

  %pf = func.call @part_first(%a, %b) : (!a, !a) -> !h
  sparse_array.print %pf : !h
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 16
  // CHECK-NEXT: 3 8
  // CHECK-NEXT: 1 1 1
  // CHECK-NEXT: 1 3 1
  // CHECK-NEXT: 1 4 4
  // CHECK-NEXT: 1 6 1.5
  // CHECK-NEXT: 1 8 -0
  // CHECK-NEXT: 2 1 1
  // CHECK-NEXT: 2 2 1
  // CHECK-NEXT: 2 3 1
  // CHECK-NEXT: 2 4 1
  // CHECK-NEXT: 2 5 2
  // CHECK-NEXT: 3 1 1
  // CHECK-NEXT: 3 2 1
  // CHECK-NEXT: 3 3 3.5
  // CHECK-NEXT: 3 4 1
  // CHECK-NEXT: 3 7 nan
  // CHECK-NEXT: 3 8 4

  %v = func.call @vstack_coo(%a, %b) : (!a, !a) -> !vcoo
  sparse_array.print %v : !vcoo
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 16
  // CHECK-NEXT: 6 4
  // CHECK-NEXT: 1 2 1.5
  // CHECK-NEXT: 1 4 -0
  // CHECK-NEXT: 2 1 2
  // CHECK-NEXT: 3 3 nan
  // CHECK-NEXT: 3 4 4
  // CHECK-NEXT: 4 1 1
  // CHECK-NEXT: 4 3 1
  // CHECK-NEXT: 4 4 4
  // CHECK-NEXT: 5 1 1
  // CHECK-NEXT: 5 2 1
  // CHECK-NEXT: 5 3 1
  // CHECK-NEXT: 5 4 1
  // CHECK-NEXT: 6 1 1
  // CHECK-NEXT: 6 2 1
  // CHECK-NEXT: 6 3 3.5
  // CHECK-NEXT: 6 4 1

  %s = func.call @sum(%a, %b, %c) : (!a, !a, !h) -> !h
  sparse_array.print %s : !h
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 16
  // CHECK-NEXT: 3 8
  // CHECK-NEXT: 1 2 1.5
  // CHECK-NEXT: 1 5 6
  // CHECK-NEXT: 1 6 -1
  // CHECK-NEXT: 1 7 1
  // CHECK-NEXT: 1 8 4
  // CHECK-NEXT: 2 1 2
  // CHECK-NEXT: 2 5 1
  // CHECK-NEXT: 2 6 1
  // CHECK-NEXT: 2 8 1
  // CHECK-NEXT: 3 1 1
  // CHECK-NEXT: 3 3 nan
  // CHECK-NEXT: 3 4 4
  // CHECK-NEXT: 3 5 1
  // CHECK-NEXT: 3 6 1
  // CHECK-NEXT: 3 7 3.5
  // CHECK-NEXT: 3 8 1

  %n = func.call @nan_part(%a, %bn) : (!a, !bn) -> !h
  sparse_array.print %n : !h
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 16
  // CHECK-NEXT: 3 8
  // CHECK-NEXT: 1 2 1.5
  // CHECK-NEXT: 1 4 -0
  // CHECK-NEXT: 1 5 nan
  // CHECK-NEXT: 1 6 3
  // CHECK-NEXT: 1 7 nan
  // CHECK-NEXT: 1 8 nan
  // CHECK-NEXT: 2 1 2
  // CHECK-NEXT: 2 5 nan
  // CHECK-NEXT: 2 6 nan
  // CHECK-NEXT: 2 8 nan
  // CHECK-NEXT: 3 3 nan
  // CHECK-NEXT: 3 4 4
  // CHECK-NEXT: 3 5 1
  // CHECK-NEXT: 3 6 nan
  // CHECK-NEXT: 3 7 nan
  // CHECK-NEXT: 3 8 nan

  %z = func.call @negzero_result(%a0, %b) : (!a0, !a) -> !hz
  sparse_array.print %z : !hz
  // CHECK:      # fill: -0
  // CHECK-NEXT: 2 15
  // CHECK-NEXT: 3 8
  // CHECK-NEXT: 1 2 2
  // CHECK-NEXT: 1 5 1
  // CHECK-NEXT: 1 6 0
  // CHECK-NEXT: 1 7 1
  // CHECK-NEXT: 1 8 4
  // CHECK-NEXT: 2 3 0
  // CHECK-NEXT: 2 5 1
  // CHECK-NEXT: 2 6 1
  // CHECK-NEXT: 2 7 1
  // CHECK-NEXT: 2 8 1
  // CHECK-NEXT: 3 4 7
  // CHECK-NEXT: 3 5 1
  // CHECK-NEXT: 3 6 1
  // CHECK-NEXT: 3 7 3.5
  // CHECK-NEXT: 3 8 1
  %dd = sparse_array.constant dense<[[0.0, 3.0], [0.0, 0.0], [-0.0, 7.0]]> : tensor<3x2xf64> : !d
  %dp = func.call @dense_and_part(%b, %dd) : (!a, !d) -> !r6
  sparse_array.print %dp : !r6
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 14
  // CHECK-NEXT: 3 6
  // CHECK-NEXT: 1 1 1
  // CHECK-NEXT: 1 3 1
  // CHECK-NEXT: 1 4 4
  // CHECK-NEXT: 1 6 3
  // CHECK-NEXT: 2 1 1
  // CHECK-NEXT: 2 2 1
  // CHECK-NEXT: 2 3 1
  // CHECK-NEXT: 2 4 1
  // CHECK-NEXT: 3 1 1
  // CHECK-NEXT: 3 2 1
  // CHECK-NEXT: 3 3 3.5
  // CHECK-NEXT: 3 4 1
  // CHECK-NEXT: 3 5 -0
  // CHECK-NEXT: 3 6 7

  %tp = func.call @two_parts(%a, %b) : (!a, !a) -> !h
  sparse_array.print %tp : !h
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 23
  // CHECK-NEXT: 3 8
  // CHECK-NEXT: 1 1 1
  // CHECK-NEXT: 1 3 1
  // CHECK-NEXT: 1 4 4
  // CHECK-NEXT: 1 5 2
  // CHECK-NEXT: 1 6 3.5
  // CHECK-NEXT: 1 7 2
  // CHECK-NEXT: 1 8 2
  // CHECK-NEXT: 2 1 1
  // CHECK-NEXT: 2 2 1
  // CHECK-NEXT: 2 3 1
  // CHECK-NEXT: 2 4 1
  // CHECK-NEXT: 2 5 4
  // CHECK-NEXT: 2 6 2
  // CHECK-NEXT: 2 7 2
  // CHECK-NEXT: 2 8 2
  // CHECK-NEXT: 3 1 1
  // CHECK-NEXT: 3 2 1
  // CHECK-NEXT: 3 3 3.5
  // CHECK-NEXT: 3 4 1
  // CHECK-NEXT: 3 5 2
  // CHECK-NEXT: 3 6 2
  // CHECK-NEXT: 3 7 nan
  // CHECK-NEXT: 3 8 6
  return
}
