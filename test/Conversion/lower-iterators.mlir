// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices --sparse-array-lower-iterators --split-input-file -verify-diagnostics | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices=branchless-merge=false --sparse-array-lower-iterators --split-input-file -verify-diagnostics | FileCheck %s --check-prefix=CASES
// Kernels become loops along their iteration lattices (seed 000 §7.1).

!sv = !sparse_array.array<?xi64, #sparse_array.format<[compressed]>>
sparse_array.func @xor(%x: i64, %y: i64) -> i64
    attributes {commutative,
                algebra = #sparse_array.algebra<intersect(union(0, 1), complement(intersect(0, 1))),
                                                fills = [0 : i64, 0 : i64]>} {
  %r = arith.xori %x, %y : i64
  sparse_array.yield %r : i64
}
// Lattice {a, b}- {a}+ {b}+: a loop while both have entries, where a
// coordinate both store is skipped unless one holds the fill 0 (explicit
// fill check), then a loop over the rest of each.
// CASES-LABEL: func.func @xor_of_compressed(
// CASES: %[[PA:.*]] = sparse_array.positions %{{.*}}[0]
// CASES: %[[CA:.*]] = sparse_array.coordinates %{{.*}}[0]
// CASES: %[[PB:.*]] = sparse_array.positions %{{.*}}[0]
// CASES: scf.while
// CASES: arith.andi
// CASES: scf.condition
// CASES: arith.minui
// The omitter case: both stored; compute only if one equals the fill.
// CASES: arith.cmpi ne
// CASES: arith.cmpi ne
// CASES: arith.andi
// CASES: arith.xori
// CASES: scf.while
// CASES: scf.while
// CASES-NOT: scf.while
// CASES: sparse_array.assemble
// CASES-NOT: sparse_array.func
// Planned branch-free (the omitter is the root and xor is cheap): the
// first loop evaluates xor once per step, both-stored coordinates too,
// and drops a result equal to the fill; one branch tells where both
// inputs are at the coordinate (then both step unconditionally) from the
// branch-free step elsewhere.
// CHECK-LABEL: func.func @xor_of_compressed(
// CHECK: scf.while
// CHECK: scf.condition
// CHECK: arith.minui
// CHECK: %[[BOTH:.*]] = arith.andi
// CHECK-NEXT: scf.if %[[BOTH]]
// CHECK: arith.xori
// CHECK: } else {
// CHECK-NOT: scf.while
// CHECK: arith.xori
// CHECK: scf.while
// CHECK: scf.while
// CHECK-NOT: scf.while
// CHECK: sparse_array.assemble
func.func @xor_of_compressed(%a: !sv, %b: !sv) -> !sv {
  %r = sparse_array.map @xor(%a, %b) : (!sv, !sv) -> !sv
  return %r : !sv
}

// -----

!dv = !sparse_array.array<8xf64>
sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
// Dense operands are located, not coiterated: one scf.for.
// CHECK-LABEL: func.func @dense_add(
// CHECK: memref.alloc
// CHECK: scf.for
// CHECK-NOT: scf.while
// CHECK: arith.addf
// CHECK: sparse_array.assemble
func.func @dense_add(%a: !dv, %b: !dv) -> !dv {
  %r = sparse_array.map @add(%a, %b) : (!dv, !dv) -> !dv
  return %r : !dv
}

// A CSC operand of a CSR result is converted to CSR first (the loops follow
// the result's order); the copy is freed after the kernel.
!csr = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
!csc = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
// CHECK-LABEL: func.func @csc_plus_csr(
// CHECK: %[[T:.*]] = sparse_array.convert %{{.*}} : !sparse_array.array<?x?xf64, #csc> to !sparse_array.array<?x?xf64, #csr>
// CHECK: scf.while
// CHECK: %[[R:.*]] = sparse_array.assemble
// CHECK: sparse_array.dealloc %[[T]]
// CHECK: return %[[R]]
func.func @csc_plus_csr(%a: !csc, %b: !csr) -> !csr {
  %r = sparse_array.map @add(%a, %b) : (!csc, !csr) -> !csr
  return %r : !csr
}


// -----

// A union whose cases all compute (add, fill 0), planned `branchless`: the
// root loop steps each input by a select on its match and evaluates once,
// the absent input's value its fill (a select, no case branch); only the
// drop of a fill-valued result branches. The two tails follow.
!sv = !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
// Where both inputs are at x, one branch steps both; elsewhere the step
// is branch-free: a select per input on its match.
// CHECK-LABEL: func.func @branchless_add(
// CHECK: scf.while
// CHECK: scf.condition
// CHECK: %[[X:.*]] = arith.minui
// CHECK: %[[MA:.*]] = arith.cmpi eq, %{{.*}}, %[[X]]
// CHECK: %[[MB:.*]] = arith.cmpi eq, %{{.*}}, %[[X]]
// CHECK: %[[BOTH:.*]] = arith.andi %[[MA]], %[[MB]]
// CHECK-NEXT: scf.if %[[BOTH]]
// CHECK: } else {
// CHECK-NOT: scf.if
// CHECK: arith.select %[[MA]]
// CHECK-NOT: scf.if
// CHECK: arith.select %[[MB]]
// CHECK-NOT: scf.if
// CHECK: %[[VA:.*]] = arith.select %[[MA]], %{{.*}}, %cst
// CHECK-NOT: scf.if
// CHECK: %[[VB:.*]] = arith.select %[[MB]], %{{.*}}, %cst
// CHECK: arith.addf %[[VA]], %[[VB]]
// CHECK: scf.if
// CHECK: scf.while
// CHECK: scf.while
// CHECK-NOT: scf.while
// CHECK: sparse_array.assemble
func.func @branchless_add(%a: !sv, %b: !sv) -> !sv {
  %r = sparse_array.map @add(%a, %b) : (!sv, !sv) -> !sv
  return %r : !sv
}
