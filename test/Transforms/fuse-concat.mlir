// RUN: sa-opt %s --sparse-array-fuse | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices | FileCheck %s --check-prefix=PLAN
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-free-temporaries | FileCheck %s --check-prefix=FREE
// Concatenation as a kernel (seed 001 §5.1): each part through a padded
// window at its offset, select_range picking the part; fused with slices
// and maps around it (no temporary).

sparse_array.func @add(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
!a = !sparse_array.array<4x3xf64, #sparse_array.format<[dense, compressed]>>
!b = !sparse_array.array<4x5xf64, #sparse_array.format<[dense, compressed]>>
!b1 = !sparse_array.array<4x5xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>>
!b3 = !sparse_array.array<3x5xf64, #sparse_array.format<[dense, compressed]>>
!bc = !sparse_array.array<4x5xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
!bd = !sparse_array.array<4x5xf64, #sparse_array.format<[dense, dense], fill = 1.0 : f64>>
!h = !sparse_array.array<4x8xf64, #sparse_array.format<[dense, compressed]>>
!s = !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed]>>
!c = !sparse_array.array<4xf64, #sparse_array.format<[compressed]>>
!v3 = !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>
!v5 = !sparse_array.array<5xf64, #sparse_array.format<[compressed]>>
!v8 = !sparse_array.array<8xf64, #sparse_array.format<[compressed]>>

// hstack: A at columns 0..2 (window 0:8), B at 3..7 (window -3:5); B is
// stored in another format (CSC), so the parts' stored ranges are not the
// result's: a kernel.
// CHECK-LABEL: func.func @hstack(
// CHECK: ^bb0(%[[I:[^:]*]]: index, %[[L:[^:]*]]: index, %[[A:[^:]*]]: {{.*}}, %[[B:[^:]*]]: {{.*}}):
// CHECK: %[[X:.*]] = sparse_array.access %[[A]][%[[I]], %[[L]](0:8)] padded
// CHECK: %[[Y:.*]] = sparse_array.access %[[B]][%[[I]], %[[L]](-3:5)] padded
// CHECK: sparse_array.select_range %[[L]] [3] (%[[X]], %[[Y]])
func.func @hstack(%a: !a, %b: !bc) -> !h {
  %h = sparse_array.concat %a, %b dim 1 : !a, !bc -> !h
  return %h : !h
}

// B's fill (1) is not the result's (0): every point of B's range is a
// value of the result. B is read through its window with a range marker
// (no change_fill: a refilled copy would store every point of that range
// anyway), so the kernel's space is A's entries and B's range, not the
// universe over the whole result.
// CHECK-LABEL: func.func @hstack_other_fill(
// CHECK-NEXT: %[[M:.*]] = sparse_array.constant dense<true> : tensor<5xi1>
// CHECK-NEXT: sparse_array.kernel ins(%{{.*}}, %{{.*}}, %[[M]] :
// CHECK: sparse_array.select_range %{{.*}} [3] (%{{.*}}, %{{.*}}) ranges [1]
// CHECK-NOT: change_fill
// CHECK: return
// PLAN-LABEL: func.func @hstack_other_fill(
// PLAN: algebra = #sparse_array.algebra<union(0, 1, 2)>
func.func @hstack_other_fill(%a: !a, %b: !b1) -> !h {
  %h = sparse_array.concat %a, %b dim 1 : !a, !b1 -> !h
  return %h : !h
}

// Fused: the marked part is read by the consumer's kernel, no temporary;
// the kernel's space is the union of the parts' and C's (PLAN).
// CHECK-LABEL: func.func @sum_with_other_fill(
// CHECK-NEXT: %[[M:.*]] = sparse_array.constant dense<true>
// CHECK-NEXT: %[[K:.*]] = sparse_array.kernel ins(%{{.*}}, %{{.*}}, %[[M]], %{{.*}} :
// CHECK-NOT: change_fill
// CHECK: return %[[K]]
// FREE-LABEL: func.func @sum_with_other_fill(
// FREE-NOT: dealloc
// FREE: return
// PLAN-LABEL: func.func @sum_with_other_fill(
// PLAN: algebra = #sparse_array.algebra<union(0, 1, 2, 3)>
func.func @sum_with_other_fill(%a: !a, %b: !b1, %c: !h) -> !h {
  %h = sparse_array.concat %a, %b dim 1 : !a, !b1 -> !h
  %s = sparse_array.map @add(%h, %c) : (!h, !h) -> !h
  return %s : !h
}

// A dense part is present at every point of its window and nowhere else:
// its leaf is its range whatever its fill (no universe, no copy).
// PLAN-LABEL: func.func @dense_part_other_fill(
// PLAN-NOT: change_fill
// PLAN: algebra = #sparse_array.algebra<union(0, 1)>
func.func @dense_part_other_fill(%a: !a, %b: !bd) -> !h {
  %h = sparse_array.concat %a, %b dim 1 : !a, !bd -> !h
  return %h : !h
}

// Alone, with every part stored like the result, a concatenation moves
// stored ranges: it stays for sparse-array-lower-shape (MoveRanges.cpp);
// so does a slice of one dimension.
// CHECK-LABEL: func.func @hstack_moved(
// CHECK-NEXT: sparse_array.concat
// CHECK-NEXT: sparse_array.slice
// CHECK-NEXT: return
func.func @hstack_moved(%a: !a, %b: !b) -> (!h, !b3) {
  %h = sparse_array.concat %a, %b dim 1 : !a, !b -> !h
  %s = sparse_array.slice %b[1:4] : !b -> !b3
  return %h, %s : !h, !b3
}

// Columns 2..5 of hstack(A, B): the windows and the bound compose with
// the slice (A: 2:6, B: -1:3, the part boundary at x = 1).
// CHECK-LABEL: func.func @slice_of_hstack(
// CHECK: sparse_array.access %{{.*}}[%{{.*}}, %[[L:.*]](2:6)] padded
// CHECK: sparse_array.access %{{.*}}[%{{.*}}, %[[L]](-1:3)] padded
// CHECK: sparse_array.select_range %[[L]] [1]
// CHECK-NOT: sparse_array.kernel
// CHECK: return
func.func @slice_of_hstack(%a: !a, %b: !b) -> !s {
  %h = sparse_array.concat %a, %b dim 1 : !a, !b -> !h
  %s = sparse_array.slice %h[:, 2:6] : !h -> !s
  return %s : !s
}

// Column 5 of hstack(A, B) is column 2 of B: the part is known, A unread.
// CHECK-LABEL: func.func @column_of_hstack(
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[Y:.*]] = sparse_array.access %{{.*}}[%{{.*}}, %[[C2]]]
// CHECK-NOT: select_range
// CHECK: sparse_array.yield %[[Y]]
func.func @column_of_hstack(%a: !a, %b: !b) -> !c {
  %h = sparse_array.concat %a, %b dim 1 : !a, !b -> !h
  %s = sparse_array.slice %h[:, 5] : !h -> !c
  return %s : !c
}

// A map over concatenations: one kernel over all four parts; the plan
// records each part's view (a window, seed 001's offset |a| + b).
// CHECK-LABEL: func.func @sum_of_concats(
// CHECK: sparse_array.kernel ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} :
// CHECK-COUNT-2: sparse_array.select_range
// CHECK: sparse_array.apply @add
// PLAN-LABEL: func.func @sum_of_concats(
// PLAN: sequence "union(slice(s0, 0, 8, 1), slice(s1, -3, 5, 1), slice(s2, 0, 8, 1), slice(s3, -3, 5, 1))"
func.func @sum_of_concats(%p: !v3, %q: !v5, %r: !v3, %s: !v5) -> !v8 {
  %x = sparse_array.concat %p, %q dim 0 : !v3, !v5 -> !v8
  %y = sparse_array.concat %r, %s dim 0 : !v3, !v5 -> !v8
  %z = sparse_array.map @add(%x, %y) : (!v8, !v8) -> !v8
  return %z : !v8
}

// A computed part fuses: its reads become windows at the part's offset
// (outside its range its inputs are absent), the plan their union.
// CHECK-LABEL: func.func @computed_part(
// CHECK: sparse_array.kernel ins(%{{.*}}, %{{.*}}, %{{.*}} :
// CHECK: sparse_array.access %{{.*}}[%{{.*}}, %[[L:.*]](-3:5)] padded
// CHECK: sparse_array.access %{{.*}}[%{{.*}}, %[[L]](-3:5)] padded
// CHECK: sparse_array.apply @add
// CHECK: sparse_array.access %{{.*}}[%{{.*}}, %[[L]](0:8)] padded
// CHECK: sparse_array.select_range %[[L]] [3]
// CHECK-NOT: sparse_array.kernel
// PLAN-LABEL: func.func @computed_part(
// PLAN: algebra = #sparse_array.algebra<union(0, 1, 2)>
func.func @computed_part(%a: !a, %b: !b, %c: !b) -> !h {
  %d = sparse_array.map @add(%b, %c) : (!b, !b) -> !b
  %h = sparse_array.concat %a, %d dim 1 : !a, !b -> !h
  return %h : !h
}

// A computed dense part whose fill (1) is not the other part's: fused, its
// range would be values where its inputs are absent, the universe of the
// whole result; it stays a kernel, read as a dense part (its window).
// CHECK-LABEL: func.func @computed_dense_part_other_fill(
// CHECK: %[[D:.*]] = sparse_array.kernel ins(%{{.*}} : {{.*}}) -> {{.*}}#dense
// CHECK: sparse_array.kernel ins(%{{.*}}, %[[D]] :
// PLAN-LABEL: func.func @computed_dense_part_other_fill(
// PLAN-NOT: universe
// PLAN: algebra = #sparse_array.algebra<union(0, 1)>
sparse_array.func @add1(%x: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %r = arith.addf %x, %one : f64
  sparse_array.yield %r : f64
}
func.func @computed_dense_part_other_fill(%a: !a, %b: !b) -> !h {
  %d = sparse_array.map @add1(%b) : (!b) -> !bd
  %h = sparse_array.concat %a, %d dim 1 : !a, !bd -> !h
  return %h : !h
}

// A part that slices its input, fused: through the window (-3:5) the
// slice 5:10 of %w becomes (2:10), bounded to the slice's columns [5, 10)
// (the columns of %w below them are present, but not the part's).
// CHECK-LABEL: func.func @sliced_part(
// CHECK-NEXT: %[[H:.*]] = sparse_array.kernel ins(%{{.*}}, %{{.*}}, %{{.*}} :
// CHECK: sparse_array.access %{{.*}}[%{{.*}}, %{{.*}}(2:10)] padded bounds [0, -1, 5, 10] :
// CHECK: sparse_array.access %{{.*}}[%{{.*}}, %{{.*}}(-3:5)] padded :
// CHECK: sparse_array.access %{{.*}}[%{{.*}}, %{{.*}}(0:8)] padded :
// CHECK-NOT: sparse_array.kernel
// CHECK: return %[[H]]
!w = !sparse_array.array<4x10xf64, #sparse_array.format<[dense, compressed]>>
func.func @sliced_part(%a: !a, %w: !w, %c: !b) -> !h {
  %s = sparse_array.slice %w[:, 5:10] : !w -> !b
  %d = sparse_array.map @add(%s, %c) : (!b, !b) -> !b
  %h = sparse_array.concat %a, %d dim 1 : !a, !b -> !h
  return %h : !h
}

// A computed sparse part whose fill (1) is not the result's (0): it is a
// value at every point of its range. It fuses, with a range marker (a
// dense i1 array of its extent, read through the same window, values
// never read): the marker's leaf is the part's range, so the columns loop
// iterates the first part's stored columns and every column of the
// second part's range, not the universe of the whole result.
// CHECK-LABEL: func.func @computed_part_other_fill(
// CHECK-NEXT: %[[M:.*]] = sparse_array.constant dense<true> : tensor<5xi1> : !sparse_array.array<5xi1>
// CHECK-NEXT: sparse_array.kernel ins(%{{.*}}, %{{.*}}, %[[M]] :
// CHECK: %[[P:.*]] = sparse_array.apply @add1
// CHECK: %[[R:.*]] = sparse_array.access %{{.*}}[%{{.*}}(-3:5)] padded : !sparse_array.array<5xi1>
// CHECK-NEXT: sparse_array.select_range %{{.*}} [3] (%{{.*}}, %[[P]]) ranges [1] (%[[R]])
// CHECK-NOT: change_fill
// CHECK-NOT: sparse_array.concat
// CHECK: return
// FREE-LABEL: func.func @computed_part_other_fill(
// FREE-NOT: dealloc
// FREE: return
// PLAN-LABEL: func.func @computed_part_other_fill(
// PLAN: algebra = #sparse_array.algebra<union(0, 1, 2)>
// PLAN-SAME: #sparse_array.lattice<loop 1, present [0, 1, 2], coiterate [0, 1, 2]
// PLAN-SAME: sequence "union(slice(s0, 0, 8, 1), slice(s1, -3, 5, 1), slice(s2, -3, 5, 1))"
func.func @computed_part_other_fill(%a: !a, %b: !b) -> !h {
  %d = sparse_array.map @add1(%b) : (!b) -> !b1
  %h = sparse_array.concat %a, %d dim 1 : !a, !b1 -> !h
  return %h : !h
}

// The same part in a concatenation fused with a sum: one kernel, the
// union of the parts' spaces (the marker's range for the part) and the
// sum's other operand.
// CHECK-LABEL: func.func @sum_with_computed_part_other_fill(
// CHECK-NEXT: sparse_array.constant dense<true>
// CHECK-NEXT: sparse_array.kernel
// CHECK-NOT: sparse_array.kernel
// CHECK: return
// PLAN-LABEL: func.func @sum_with_computed_part_other_fill(
// PLAN: algebra = #sparse_array.algebra<union(0, 1, 2, 3)>
// PLAN-NOT: universe
// PLAN: return
func.func @sum_with_computed_part_other_fill(%a: !a, %b: !b, %c: !h) -> !h {
  %d = sparse_array.map @add1(%b) : (!b) -> !b1
  %h = sparse_array.concat %a, %d dim 1 : !a, !b1 -> !h
  %s = sparse_array.map @add(%h, %c) : (!h, !h) -> !h
  return %s : !h
}

// Two CSR parts stacked, then summed with a CSR: their row windows cover
// the rows between them and neither is dense or broadcast below, so the
// rows loop locates them (one plain loop) instead of coiterating the
// windows (SpMV over a vstack ran 1.6x slower so).
!s4 = !sparse_array.array<4x3xf64, #sparse_array.format<[dense, compressed]>>
!s8 = !sparse_array.array<8x3xf64, #sparse_array.format<[dense, compressed]>>
// PLAN-LABEL: func.func @csr_rows_located(
// PLAN: #sparse_array.lattice<loop 0, present [0, 1, 2], coiterate [], points [{U} produce]
func.func @csr_rows_located(%a: !s4, %b: !s4, %c: !s8) -> !s8 {
  %v = sparse_array.concat %a, %b dim 0 : !s4, !s4 -> !s8
  %s = sparse_array.map @add(%v, %c) : (!s8, !s8) -> !s8
  return %s : !s8
}
