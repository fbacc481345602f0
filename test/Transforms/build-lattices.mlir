// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices --split-input-file | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices=branchless-merge=false --split-input-file | FileCheck %s --check-prefix=CASES
// CASES-NOT: branchless
// The coiteration plan of each kernel: one #sparse_array.lattice per loop
// and set of inputs present there (seed 000 §6, Alg. 2). Points are loops,
// root first; the cases of a point are the points included in it.

!bv = !sparse_array.array<?xi1, #sparse_array.format<[compressed]>>
!sv = !sparse_array.array<?xi64, #sparse_array.format<[compressed]>>
!dv = !sparse_array.array<?xi64>
sparse_array.func @xor(%x: i1, %y: i1) -> i1
    attributes {commutative,
                algebra = #sparse_array.algebra<intersect(union(0, 1), complement(intersect(0, 1))),
                                                fills = [false, false]>} {
  %r = arith.xori %x, %y : i1
  sparse_array.yield %r : i1
}
sparse_array.func @mul(%x: i64, %y: i64) -> i64
    attributes {commutative, annihilator = #sparse_array.annihilator<0 : i64>,
                identity = #sparse_array.identity<1 : i64>} {
  %r = arith.muli %x, %y : i64
  sparse_array.yield %r : i64
}
sparse_array.func @add(%x: i64, %y: i64) -> i64
    attributes {commutative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
// x where m is not stored: a complement in the algebra.
sparse_array.func @without(%x: i64, %m: i64) -> i64
    attributes {algebra = #sparse_array.algebra<intersect(0, complement(1)),
                                                fills = [0 : i64, 0 : i64]>} {
  %c0 = arith.constant 0 : i64
  %set = arith.cmpi ne, %m, %c0 : i64
  %r = arith.select %set, %c0, %x : i64
  sparse_array.yield %r : i64
}

// xor: where both are stored nothing is computed (an omitter, needed so the
// loop over both knows to skip), where one is, it is.
// CHECK-LABEL: func.func @xor_vectors(
// The omitter is the root (both stored), and xor is cheap to evaluate
// there and drop: branch-free.
// CHECK: lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1], points [{0, 1} omit, {0} produce, {1} produce], branchless>]
func.func @xor_vectors(%a: !bv, %b: !bv) -> !bv {
  %r = sparse_array.map @xor(%a, %b) : (!bv, !bv) -> !bv
  return %r : !bv
}

// Annihilator 0: an intersection, one loop that stops when either ends.
// CHECK-LABEL: func.func @mul_vectors(
// CHECK: lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1], points [{0, 1} produce]>]
func.func @mul_vectors(%a: !sv, %b: !sv) -> !sv {
  %r = sparse_array.map @mul(%a, %b) : (!sv, !sv) -> !sv
  return %r : !sv
}

// Identity 0: a union, three loops (both, the rest of a, the rest of b).
// Every case computes, so the first loop is branch-free: one evaluation
// per step with the absent input's fill selected in (`branchless`).
// CHECK-LABEL: func.func @add_vectors(
// CHECK: lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1], points [{0, 1} produce, {0} produce, {1} produce], branchless>]
func.func @add_vectors(%a: !sv, %b: !sv) -> !sv {
  %r = sparse_array.map @add(%a, %b) : (!sv, !sv) -> !sv
  return %r : !sv
}

// A dense operand is located, not coiterated; eliminating it from
// union(0, 1) leaves every coordinate (U): an scf.for over the dimension
// whose cases are "a matches" and "anything else".
// CHECK-LABEL: func.func @add_sparse_dense(
// CHECK: lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0], points [{0, U} produce, {U} produce]>]
func.func @add_sparse_dense(%a: !sv, %b: !dv) -> !dv {
  %r = sparse_array.map @add(%a, %b) : (!sv, !dv) -> !dv
  return %r : !dv
}

// A complement: coordinates of a that m also stores are omitted.
// CHECK-LABEL: func.func @without_mask(
// CHECK: lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1], points [{0, 1} omit, {0} produce]>]
func.func @without_mask(%a: !sv, %m: !sv) -> !sv {
  %r = sparse_array.map @without(%a, %m) : (!sv, !sv) -> !sv
  return %r : !sv
}

// Repeated operands: the fused kernel reads `a` once, at two places of the
// expression. xor(a, a) is false everywhere: the lattice is empty (no
// loop at all).
// CHECK-LABEL: func.func @xor_self(
// CHECK: sparse_array.kernel ins(%{{.*}} : !sparse_array.array<?xi1, #sparse_vector{{[0-9]*}}>)
// CHECK-SAME: lattices = [#sparse_array.lattice<loop 0, present [0], coiterate [0], points []>]
func.func @xor_self(%a: !bv) -> !bv {
  %r = sparse_array.map @xor(%a, %a) : (!bv, !bv) -> !bv
  return %r : !bv
}

// a·b + a: union(intersect(0, 1), 0), which the derivation already
// simplifies to 0 (both occurrences of a are stored or absent together);
// b is still coiterated (augmentation 0 ∪ (1 ∩ ¬1)) so its value is known.
// CHECK-LABEL: func.func @mul_plus_self(
// CHECK: sparse_array.kernel ins(%{{.*}}, %{{.*}} : !sparse_array.array<?xi64, #sparse_vector{{[0-9]*}}>, !sparse_array.array<?xi64, #sparse_vector{{[0-9]*}}>)
// CHECK-SAME: algebra = #sparse_array.algebra<0>
// CHECK-SAME: lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1], points [{0, 1} produce, {0} produce]>]
func.func @mul_plus_self(%a: !sv, %b: !sv) -> !sv {
  %p = sparse_array.map @mul(%a, %b) : (!sv, !sv) -> !sv
  %r = sparse_array.map @add(%p, %a) : (!sv, !sv) -> !sv
  return %r : !sv
}

// -----

!dcsr = !sparse_array.array<?x?xi1, #sparse_array.format<[compressed, compressed]>>
!cd = !sparse_array.array<?x?xi1, #sparse_array.format<[compressed, dense]>>
sparse_array.func @xor(%x: i1, %y: i1) -> i1
    attributes {commutative,
                algebra = #sparse_array.algebra<intersect(union(0, 1), complement(intersect(0, 1))),
                                                fills = [false, false]>} {
  %r = arith.xori %x, %y : i1
  sparse_array.yield %r : i1
}

// Two compressed levels: the outer loop descends with both inputs (an
// input that does not match there has an empty segment below), so the
// inner loop sees both present, and has the same lattice. The plan
// records that decision (`merged`).
// CHECK-LABEL: func.func @xor_dcsr(
// CHECK: lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1], points [{0, 1} omit, {0} produce, {1} produce], merged>,
// CHECK-SAME: #sparse_array.lattice<loop 1, present [0, 1], coiterate [0, 1], points [{0, 1} omit, {0} produce, {1} produce], branchless>]
func.func @xor_dcsr(%a: !dcsr, %b: !dcsr) -> !dcsr {
  %r = sparse_array.map @xor(%a, %b) : (!dcsr, !dcsr) -> !dcsr
  return %r : !dcsr
}

// A dense level below a compressed one: the outer loop descends per case,
// so the inner loop runs with both rows, with a's alone and with b's alone.
// Nothing is coiterated there (dense levels are located); xor of two
// located rows needs every column.
// CHECK-LABEL: func.func @xor_dense_below_compressed(
// CHECK: lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1], points [{0, 1} omit, {0} produce, {1} produce]>,
// CHECK-SAME: #sparse_array.lattice<loop 1, present [0, 1], coiterate [], points [{U} produce]>,
// CHECK-SAME: #sparse_array.lattice<loop 1, present [0], coiterate [], points [{U} produce]>,
// CHECK-SAME: #sparse_array.lattice<loop 1, present [1], coiterate [], points [{U} produce]>]
func.func @xor_dense_below_compressed(%a: !cd, %b: !cd) -> !cd {
  %r = sparse_array.map @xor(%a, %b) : (!cd, !cd) -> !cd
  return %r : !cd
}

// -----

!csr = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
!csc = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
// Loops follow the result (rows, then columns): the CSC input is converted
// to CSR before the kernel and freed after it. The row loop coiterates
// nothing (dense levels); the column loop merges both rows.
// CHECK-LABEL: func.func @add_csc_csr(
// CHECK: %[[T:.*]] = sparse_array.convert %{{.*}} : !sparse_array.array<?x?xf64, #csc> to !sparse_array.array<?x?xf64, #csr>
// CHECK: %[[R:.*]] = sparse_array.kernel ins(%[[T]], %{{.*}} :
// CHECK-SAME: lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [], points [{U} produce], merged>,
// CHECK-SAME: #sparse_array.lattice<loop 1, present [0, 1], coiterate [0, 1], points [{0, 1} produce, {0} produce, {1} produce], branchless>]
// CHECK: sparse_array.dealloc %[[T]]
// CHECK: return %[[R]]
func.func @add_csc_csr(%a: !csc, %b: !csr) -> !csr {
  %r = sparse_array.map @add(%a, %b) : (!csc, !csr) -> !csr
  return %r : !csr
}

// -----

#zero = #sparse_array.format<[dense, compressed], fill = 0.0 : f64>
#one = #sparse_array.format<[dense, compressed], fill = 1.0 : f64>
!m0 = !sparse_array.array<4x4xf64, #zero>
!m1 = !sparse_array.array<4x4xf64, #one>
sparse_array.func @power(%x: f64, %y: f64) -> f64
    attributes {identity = #sparse_array.identity<1.0 : f64, positions = [1]>} {
  %r = math.powf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @not(%x: f64) -> f64 {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %isZero = arith.cmpf oeq, %x, %zero : f64
  %r = arith.select %isZero, %one, %zero : f64
  sparse_array.yield %r : f64
}
sparse_array.func @mul(%x: f64, %y: f64) -> f64
    attributes {commutative, annihilator = #sparse_array.annihilator<0.0 : f64>,
                identity = #sparse_array.identity<1.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
// Masked power B^C·¬D (seed 000 Fig. 2). Result fill 1: only B ∪ C ∪ D,
// seven producer points. Result fill 0: every point (U) in the column
// loop, each case a sub-point.
// CHECK-LABEL: func.func @masked_power_fill_one(
// CHECK: #sparse_array.lattice<loop 1, present [0, 1, 2], coiterate [0, 1, 2], points [{0, 1, 2} produce, {0, 1} produce, {0, 2} produce, {1, 2} produce, {0} produce, {1} produce, {2} produce], branchless>
func.func @masked_power_fill_one(%b: !m0, %c: !m0, %d: !m0) -> !m1 {
  %p = sparse_array.map @power(%b, %c) : (!m0, !m0) -> !m0
  %n = sparse_array.map @not(%d) : (!m0) -> !m0
  %r = sparse_array.map @mul(%p, %n) : (!m0, !m0) -> !m1
  return %r : !m1
}
// CHECK-LABEL: func.func @masked_power_fill_zero(
// CHECK: #sparse_array.lattice<loop 1, present [0, 1, 2], coiterate [0, 1, 2], points [{0, 1, 2, U} produce, {0, 1, U} produce, {0, 2, U} produce, {1, 2, U} produce, {0, U} produce, {1, U} produce, {2, U} produce, {U} produce]>
func.func @masked_power_fill_zero(%b: !m0, %c: !m0, %d: !m0) -> !m0 {
  %p = sparse_array.map @power(%b, %c) : (!m0, !m0) -> !m0
  %n = sparse_array.map @not(%d) : (!m0) -> !m0
  %r = sparse_array.map @mul(%p, %n) : (!m0, !m0) -> !m0
  return %r : !m0
}

// -----

// Linear coiteration (issue 14): with linear-threshold=3, three sparse
// vectors under a union (two fused maps) are one loop over the union of their coordinates;
// with a dense operand that makes the space need U, one counted loop over
// every coordinate; two vectors stay below the threshold (a lattice).
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices=linear-threshold=3 --split-input-file | FileCheck %s --check-prefix=LINEAR
// linear-threshold=0: lattices only.
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices=linear-threshold=0 --split-input-file | FileCheck %s --check-prefix=LATTICE
// LATTICE-LABEL: func.func @three_vectors(
// LATTICE: lattices = [#sparse_array.lattice<loop 0, present [0, 1, 2], coiterate [0, 1, 2], points [{0, 1, 2} produce, {0, 1} produce, {0, 2} produce, {1, 2} produce, {0} produce, {1} produce, {2} produce], branchless>]
!lv = !sparse_array.array<?xi64, #sparse_array.format<[compressed]>>
!lv1 = !sparse_array.array<?xi64, #sparse_array.format<[compressed], fill = 1 : i64>>
sparse_array.func @add2(%x: i64, %y: i64) -> i64
    attributes {commutative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
// LINEAR-LABEL: func.func @three_vectors(
// LINEAR: lattices = [#sparse_array.lattice<loop 0, present [0, 1, 2], coiterate [0, 1, 2], linear>]
// LINEAR-LABEL: func.func @three_vectors_universe(
// LINEAR: lattices = [#sparse_array.lattice<loop 0, present [0, 1, 2], coiterate [0, 1, 2], linear U>]
// LINEAR-LABEL: func.func @two_vectors(
// LINEAR: lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1], points [{0, 1} produce, {0} produce, {1} produce]>]
func.func @three_vectors(%a: !lv, %b: !lv, %c: !lv) -> !lv {
  %s = sparse_array.map @add2(%a, %b) {infer_fill} : (!lv, !lv) -> !lv
  %r = sparse_array.map @add2(%s, %c) : (!lv, !lv) -> !lv
  return %r : !lv
}
// The sum's fill is 1, the declared one 0: every point computes (U).
func.func @three_vectors_universe(%a: !lv1, %b: !lv, %c: !lv) -> !lv {
  %s = sparse_array.map @add2(%a, %b) {infer_fill} : (!lv1, !lv) -> !lv1
  %r = sparse_array.map @add2(%s, %c) : (!lv1, !lv) -> !lv
  return %r : !lv
}
func.func @two_vectors(%a: !lv, %b: !lv) -> !lv {
  %r = sparse_array.map @add2(%a, %b) : (!lv, !lv) -> !lv
  return %r : !lv
}

// -----

// The case budget: a union of four vectors is below the default threshold
// (5) but its lattice has 81 cases (> 64): planned linear. Three keep their
// lattice (27 cases).
!qv = !sparse_array.array<?xi64, #sparse_array.format<[compressed]>>
sparse_array.func @qadd(%x: i64, %y: i64) -> i64
    attributes {commutative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
// CHECK-LABEL: func.func @four_vectors(
// CHECK: lattices = [#sparse_array.lattice<loop 0, present [0, 1, 2, 3], coiterate [0, 1, 2, 3], linear>]
// CHECK-LABEL: func.func @three_vectors_lattice(
// CHECK: lattices = [#sparse_array.lattice<loop 0, present [0, 1, 2], coiterate [0, 1, 2], points [{0, 1, 2} produce,
func.func @four_vectors(%a: !qv, %b: !qv, %c: !qv, %d: !qv) -> !qv {
  %s = sparse_array.map @qadd(%a, %b) {infer_fill} : (!qv, !qv) -> !qv
  %t = sparse_array.map @qadd(%s, %c) {infer_fill} : (!qv, !qv) -> !qv
  %r = sparse_array.map @qadd(%t, %d) : (!qv, !qv) -> !qv
  return %r : !qv
}
func.func @three_vectors_lattice(%a: !qv, %b: !qv, %c: !qv) -> !qv {
  %s = sparse_array.map @qadd(%a, %b) {infer_fill} : (!qv, !qv) -> !qv
  %r = sparse_array.map @qadd(%s, %c) : (!qv, !qv) -> !qv
  return %r : !qv
}

// -----

// A sliced input: the loop's sequence expression is recorded (seed 001
// §5.1), with each input's view (here input 1 read through a slice); a
// lattice over plain levels records none.
!sv10 = !sparse_array.array<10xi64, #sparse_array.format<[compressed]>>
!sv4 = !sparse_array.array<4xi64, #sparse_array.format<[compressed]>>
sparse_array.func @sadd(%x: i64, %y: i64) -> i64
    attributes {commutative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
// CHECK-LABEL: func.func @sliced_plus(
// CHECK: lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1], points [{0, 1} produce, {0} produce, {1} produce], sequence "union(s0, slice(s1, 1, 9, 2))">]
func.func @sliced_plus(%a: !sv4, %b: !sv10) -> !sv4 {
  %s = sparse_array.slice %b[1:9:2] : !sv10 -> !sv4
  %r = sparse_array.map @sadd(%a, %s) : (!sv4, !sv4) -> !sv4
  return %r : !sv4
}

// -----

// Not branch-free: a function the verifier cannot prove trap-free (a
// division by a value), and an outer loop (the row loop of a CSR sum); the
// inner loop of the sum is.
!sv = !sparse_array.array<?xi64, #sparse_array.format<[compressed]>>
!csr = !sparse_array.array<?x?xi64, #sparse_array.format<[dense, compressed]>>
sparse_array.func @x_plus_y_by_odd(%x: i64, %y: i64) -> i64
    attributes {algebra = #sparse_array.algebra<union(0, 1), fills = [0, 0]>} {
  %c1 = arith.constant 1 : i64
  %o = arith.ori %y, %c1 : i64
  %q = arith.divsi %y, %o : i64
  %r = arith.addi %x, %q : i64
  sparse_array.yield %r : i64
}
sparse_array.func @iadd(%x: i64, %y: i64) -> i64
    attributes {commutative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
// CHECK-LABEL: func.func @may_trap(
// CHECK: lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1], points [{0, 1} produce, {0} produce, {1} produce]>]
func.func @may_trap(%a: !sv, %b: !sv) -> !sv {
  %r = sparse_array.map @x_plus_y_by_odd(%a, %b) : (!sv, !sv) -> !sv
  return %r : !sv
}
// CHECK-LABEL: func.func @csr_sum(
// CHECK: lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [], points [{U} produce], merged>, #sparse_array.lattice<loop 1, present [0, 1], coiterate [0, 1], points [{0, 1} produce, {0} produce, {1} produce], branchless>]
func.func @csr_sum(%a: !csr, %b: !csr) -> !csr {
  %r = sparse_array.map @iadd(%a, %b) : (!csr, !csr) -> !csr
  return %r : !csr
}

// -----

// An omitted root with a function that calls libm (evaluating it where
// the lattice skips costs a math call per step): cases, not branch-free.
!sv = !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
sparse_array.func @sqrt_where_one(%x: f64, %y: f64) -> f64
    attributes {algebra = #sparse_array.algebra<intersect(union(0, 1), complement(intersect(0, 1))),
                                                fills = [0.0 : f64, 0.0 : f64]>} {
  %s = arith.addf %x, %y : f64
  %r = math.sqrt %s : f64
  sparse_array.yield %r : f64
}
// CHECK-LABEL: func.func @omitted_root_with_libm(
// CHECK: lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1], points [{0, 1} omit, {0} produce, {1} produce]>]
func.func @omitted_root_with_libm(%a: !sv, %b: !sv) -> !sv {
  %r = sparse_array.map @sqrt_where_one(%a, %b) : (!sv, !sv) -> !sv
  return %r : !sv
}

// -----

// A reduction over both dimensions of a CSC matrix (issue 55, class 2):
// an associative and commutative combiner folds in storage order (scatter
// loops over the columns, no conversion); one that is not keeps the fold's
// C order: the input is converted to rows first.
!csc = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
!s = !sparse_array.array<f64>
sparse_array.func @sum_reorderable(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, identity = #sparse_array.identity<0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @sum_exact(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
// CHECK-LABEL: func.func @csc_total_reorderable(
// CHECK-NOT: sparse_array.convert
// CHECK: reduce_over [%{{.*}}, %{{.*}}] %{{.*}} with @sum_reorderable {plan = #sparse_array.reduction<strategy = identity, algebra = <0>, value_fill = <0.0 : f64>>, scatter_loops = array<i32: 1, 0>
func.func @csc_total_reorderable(%a: !csc) -> !s {
  %r = sparse_array.reduce @sum_reorderable %a dims [0, 1] : !csc -> !s
  return %r : !s
}
// CHECK-LABEL: func.func @csc_total_in_c_order(
// CHECK: sparse_array.convert %{{.*}} : !sparse_array.array<?x?xf64, #{{.*}}> to !sparse_array.array<?x?xf64, #{{.*}}>
// CHECK-NOT: scatter_loops
// CHECK: return
func.func @csc_total_in_c_order(%a: !csc) -> !s {
  %r = sparse_array.reduce @sum_exact %a dims [0, 1] : !csc -> !s
  return %r : !s
}

// -----

// A hashed level (seed 002: locate, no order) is located where another
// input's stored coordinates drive its loop (H * S), or where the loop
// visits every coordinate anyway (H + D). Where locating it would make the
// loop visit every coordinate that iterating it would not (H alone, H * D,
// SpMV with a dense x, H + S), it is converted to compressed (sorted per
// row by the runtime) and iterated.
!h = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, hashed]>>
!s = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
!d = !sparse_array.array<?x?xf64>
!x = !sparse_array.array<?xf64>
sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @mul(%x: f64, %y: f64) -> f64
    attributes {commutative, annihilator = #sparse_array.annihilator<0.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
// CHECK-LABEL: func.func @hashed_spmv(
// CHECK: %[[T:.*]] = sparse_array.convert %{{.*}} : !sparse_array.array<?x?xf64, #format> to !sparse_array.array<?x?xf64, #csr>
// CHECK: sparse_array.kernel ins(%[[T]], %{{.*}} :
// CHECK-SAME: #sparse_array.lattice<loop 1, present [0, 1], coiterate [0], points [{0} produce]>
// CHECK: sparse_array.dealloc %[[T]]
func.func @hashed_spmv(%a: !h, %x: !x) -> !x {
  %r = sparse_array.kernel ins(%a, %x : !h, !x) -> !x {
  ^bb0(%i: index, %j: index, %A: !h, %X: !x):
    %p = sparse_array.access %A[%i, %j] : !h
    %q = sparse_array.access %X[%j] : !x
    %m = sparse_array.apply @mul(%p, %q) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%j] %m with @add : f64
    sparse_array.yield %s : f64
  }
  return %r : !x
}
// CHECK-LABEL: func.func @hashed_times_dense(
// CHECK: sparse_array.convert %{{.*}} : !sparse_array.array<?x?xf64, #format> to !sparse_array.array<?x?xf64, #csr>
func.func @hashed_times_dense(%a: !h, %b: !d) -> !s {
  %r = sparse_array.map @mul(%a, %b) : (!h, !d) -> !s
  return %r : !s
}
// CHECK-LABEL: func.func @hashed_plus_sparse(
// CHECK: sparse_array.convert %{{.*}} : !sparse_array.array<?x?xf64, #format> to !sparse_array.array<?x?xf64, #csr>
// CHECK: coiterate [0, 1]
func.func @hashed_plus_sparse(%a: !h, %b: !s) -> !s {
  %r = sparse_array.map @add(%a, %b) : (!h, !s) -> !s
  return %r : !s
}
// CHECK-LABEL: func.func @hashed_times_sparse(
// CHECK-NOT: sparse_array.convert
// CHECK: #sparse_array.lattice<loop 1, present [0, 1], coiterate [1], points [{1} produce]>
// CHECK: return
func.func @hashed_times_sparse(%a: !h, %b: !s) -> !s {
  %r = sparse_array.map @mul(%a, %b) : (!h, !s) -> !s
  return %r : !s
}
// CHECK-LABEL: func.func @hashed_plus_dense(
// CHECK-NOT: sparse_array.convert
// CHECK: return
func.func @hashed_plus_dense(%a: !h, %b: !d) -> !d {
  %r = sparse_array.map @add(%a, %b) : (!h, !d) -> !d
  return %r : !d
}

// -----

// An outer product x[:, None] * y[None, :] with the exact multiply (no
// annihilator: x * 0 is -0.0 or NaN for some x), a union. The column loop
// reads y to its last level: it descends per case (not merged), so where y
// holds nothing the row loop visits x's entries only, not every row.
!col = !sparse_array.array<?x1xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
!row = !sparse_array.array<1x?xf64, #sparse_array.format<[dense, compressed]>>
!outer = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
sparse_array.func @mul_exact(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<1.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
// CHECK-LABEL: func.func @outer_exact(
// CHECK: lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [1], points [{1, U} produce, {U} produce]>,
// CHECK-SAME: #sparse_array.lattice<loop 1, present [0, 1], coiterate [0], points [{0, U} produce, {U} produce]>,
// CHECK-SAME: #sparse_array.lattice<loop 1, present [0], coiterate [0], points [{0} produce]>]
func.func @outer_exact(%x: !col, %y: !row) -> !outer {
  %r = sparse_array.map @mul_exact(%x, %y) : (!col, !row) -> !outer
  return %r : !outer
}
