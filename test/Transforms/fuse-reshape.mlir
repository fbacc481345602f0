// RUN: sa-opt %s --sparse-array-fuse | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices --sparse-array-lower-iterators --sparse-array-lower-shape | FileCheck %s --check-prefix=LOWER
// split and reshape become kernels that read the source through
// sparse_array.linearize (seed 001 §4.1, §5.1): its parts iterate the
// stored coordinates' quotients and remainders, fused with the compute
// around them; a reshape's groups of several source dimensions are
// collapses (merged levels) first.

sparse_array.func @mul(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
!v12 = !sparse_array.array<12xf64, #sparse_array.format<[compressed]>>
!csr34 = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed]>>
!csr43 = !sparse_array.array<4x3xf64, #sparse_array.format<[dense, compressed]>>
!csc34 = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
!csr26 = !sparse_array.array<2x6xf64, #sparse_array.format<[dense, compressed]>>
!coo34 = !sparse_array.array<3x4xf64, #sparse_array.format<[compressed(nonunique), singleton]>>

// split(x) * B: one kernel, x read at (i * 4 + j); no temporary.
// CHECK-LABEL: func.func @split_times(
// CHECK:         sparse_array.kernel ins(%{{.*}}, %{{.*}} : !sparse_array.array<12xf64, #{{.*}}>, !sparse_array.array<3x4xf64
// CHECK:         ^bb0(%[[I:[^:]*]]: index, %[[J:[^:]*]]: index,
// CHECK:           %[[L:.*]] = sparse_array.linearize %[[I]], %[[J]] [4]
// CHECK:           sparse_array.access %{{.*}}[%[[L]]]
// CHECK:           sparse_array.apply @mul
// CHECK-NOT:     sparse_array.kernel
// CHECK:         return
// LOWER-LABEL: func.func @split_times(
// LOWER-NOT:     sparse_array.kernel
// LOWER-NOT:     sparse_array.convert
// LOWER:         arith.divui
// LOWER:         arith.remui
// LOWER:         return
func.func @split_times(%x: !v12, %b: !csr34) -> !csr34 {
  %s = sparse_array.split %x dim 0 [3, 4] : !v12 -> !csr34
  %m = sparse_array.map @mul(%s, %b) : (!csr34, !csr34) -> !csr34
  return %m : !csr34
}

// F order: l = i + 3 * j, so j is the outer part; a CSC result's loops run
// over j first.
// CHECK-LABEL: func.func @split_fortran(
// CHECK:         ^bb0(%[[I:[^:]*]]: index, %[[J:[^:]*]]: index,
// CHECK:           sparse_array.linearize %[[J]], %[[I]] [3]
func.func @split_fortran(%x: !v12, %b: !csc34) -> !csc34 {
  %s = sparse_array.split %x dim 0 [3, 4] order "F" : !v12 -> !csc34
  %m = sparse_array.map @mul(%s, %b) : (!csc34, !csc34) -> !csc34
  return %m : !csc34
}

// Alone, a split whose entries keep their positions stays for
// sparse-array-lower-shape (SplitLevels.cpp: no search for the rows' runs).
// CHECK-LABEL: func.func @split_alone(
// CHECK:         sparse_array.split %{{.*}} dim 0 [3, 4] order "F"
// CHECK-NOT:     sparse_array.kernel
// LOWER-LABEL: func.func @split_alone(
// LOWER-NOT:     sparse_array.split
// LOWER-NOT:     sparse_array.kernel
// LOWER:         sparse_array.assemble
func.func @split_alone(%x: !v12) -> !csc34 {
  %s = sparse_array.split %x dim 0 [3, 4] order "F" : !v12 -> !csc34
  return %s : !csc34
}

// Its parts out of the loops' order (F order into row-major CSR): the
// runtime moves the entries instead.
// CHECK-LABEL: func.func @split_unordered(
// CHECK:         sparse_array.split
func.func @split_unordered(%x: !v12) -> !csr34 {
  %s = sparse_array.split %x dim 0 [3, 4] order "F" : !v12 -> !csr34
  return %s : !csr34
}

// reshape 3x4 -> 4x3 alone: collapse (levels merged), then a split whose
// entries keep their positions (both buffer code in
// sparse-array-lower-shape).
// CHECK-LABEL: func.func @reshape(
// CHECK:         %[[C:.*]] = sparse_array.collapse %{{.*}} [0, 1] : !sparse_array.array<3x4xf64, #{{.*}}> -> !sparse_array.array<12xf64
// CHECK:         sparse_array.split %[[C]] dim 0 [4, 3] :
// CHECK-NOT:     sparse_array.kernel
// CHECK-NOT:     sparse_array.reshape
// LOWER-LABEL: func.func @reshape(
// LOWER-NOT:     sparse_array.collapse
// LOWER-NOT:     sparse_array.split
// LOWER-NOT:     sparse_array.convert
// LOWER:         return
func.func @reshape(%a: !csr34) -> !csr43 {
  %r = sparse_array.reshape %a [4, 3] : !csr34 -> !csr43
  return %r : !csr43
}

// Fused with a consumer: collapse, then one kernel reading the collapsed
// vector through the linearized parts.
// CHECK-LABEL: func.func @reshape_times(
// CHECK:         %[[C:.*]] = sparse_array.collapse %{{.*}} [0, 1] : !sparse_array.array<3x4xf64, #{{.*}}> -> !sparse_array.array<12xf64
// CHECK:         sparse_array.kernel ins(%[[C]], %{{.*}} :
// CHECK:           sparse_array.linearize
// CHECK-NOT:     sparse_array.reshape
func.func @reshape_times(%a: !csr34, %b: !csr43) -> !csr43 {
  %r = sparse_array.reshape %a [4, 3] : !csr34 -> !csr43
  %m = sparse_array.map @mul(%r, %b) : (!csr43, !csr43) -> !csr43
  return %m : !csr43
}

// A pure collapse of a COO: one collapse, no kernel.
// CHECK-LABEL: func.func @reshape_collapse(
// CHECK:         sparse_array.collapse %{{.*}} [0, 1] : {{.*}} -> !sparse_array.array<12xf64, #{{.*}}>
// CHECK-NOT:     sparse_array.kernel
func.func @reshape_collapse(%a: !coo34) -> !v12 {
  %r = sparse_array.reshape %a [12] : !coo34 -> !v12
  return %r : !v12
}

// A split read inside a fused producer composes: (split(x) * B) read
// through a transpose stays one kernel only when the parts keep their
// order; here the transpose's loops run over j first, so the split stays
// its own kernel.
// CHECK-LABEL: func.func @split_then_transpose(
// CHECK-COUNT-2: sparse_array.kernel
func.func @split_then_transpose(%x: !v12, %b: !csr34) -> !csr43 {
  %s = sparse_array.split %x dim 0 [3, 4] : !v12 -> !csr34
  %m = sparse_array.map @mul(%s, %b) : (!csr34, !csr34) -> !csr34
  %t = sparse_array.transpose %m [1, 0] : !csr34 -> !csr43
  return %t : !csr43
}

// A reshape of a computed expression that collapses and splits (3x4 ->
// 4x3 of a sum): one kernel reading the sum's inputs through the
// delinearize of the split's linearize; the loop over j iterates the
// product of A's and B's levels in the window [i * 3, i * 3 + 3) (seed 001
// §5.2). No collapsed vector, no uncollapsed sum.
// CHECK-LABEL: func.func @reshape_sum(
// CHECK-NOT:     sparse_array.collapse
// CHECK:         sparse_array.kernel ins(%{{.*}}, %{{.*}} : !sparse_array.array<3x4xf64, #{{.*}}>, !sparse_array.array<3x4xf64, #{{.*}}>) -> !sparse_array.array<4x3xf64
// CHECK:         ^bb0(%[[I:[^:]*]]: index, %[[J:[^:]*]]: index,
// CHECK:           %[[L:.*]] = sparse_array.linearize %[[I]], %[[J]] [3]
// CHECK:           %[[D:.*]]:2 = sparse_array.delinearize %[[L]] [4]
// CHECK:           sparse_array.access %{{.*}}[%[[D]]#0, %[[D]]#1]
// CHECK:           sparse_array.access %{{.*}}[%[[D]]#0, %[[D]]#1]
// CHECK:           sparse_array.apply @mul
// CHECK-NOT:     sparse_array.kernel
// CHECK:         return
// LOWER-LABEL: func.func @reshape_sum(
// LOWER-NOT:     sparse_array.kernel
// LOWER-NOT:     sparse_array.convert
// LOWER-NOT:     sparse_array.collapse
// LOWER-COUNT-3: memref.alloc
// LOWER-NOT:     memref.alloc
// LOWER:         scf.for %[[I:.*]] = %{{.*}} to %c4
// LOWER:         arith.muli %[[I]], %c3
// LOWER:         scf.while
// LOWER-NOT:     memref.alloc
// LOWER:         sparse_array.assemble
func.func @reshape_sum(%a: !csr34, %b: !csr34) -> !csr43 {
  %s = sparse_array.map @mul(%a, %b) : (!csr34, !csr34) -> !csr34
  %r = sparse_array.reshape %s [4, 3] : !csr34 -> !csr43
  return %r : !csr43
}

// Read in windows, a collapse is not composed again: the reshape of a
// reshape of a sum keeps its first result (the second split's windows
// would need the first's).
// CHECK-LABEL: func.func @reshape_twice(
// CHECK-COUNT-2: sparse_array.kernel
func.func @reshape_twice(%a: !csr34, %b: !csr34) -> !csr26 {
  %s = sparse_array.map @mul(%a, %b) : (!csr34, !csr34) -> !csr34
  %r = sparse_array.reshape %s [4, 3] : !csr34 -> !csr43
  %t = sparse_array.reshape %r [2, 6] : !csr43 -> !csr26
  return %t : !csr26
}
