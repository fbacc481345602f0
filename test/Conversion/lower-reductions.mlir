// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices --split-input-file | FileCheck %s --check-prefix=PLAN
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices --sparse-array-lower-iterators --canonicalize --split-input-file | FileCheck %s
// Reductions (seed 000 §7.2): which points the reduction loops visit
// follows from the combiner's properties and the reduced value's fill, and
// an annihilator stops them early.

!m = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
!v = !sparse_array.array<?xf64>
sparse_array.func @min(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, idempotent, identity = #sparse_array.identity<inf : f64>} {
  %r = arith.minimumf %x, %y : f64
  sparse_array.yield %r : f64
}
// Fill 0 is not min's identity, but min is idempotent: the stored entries,
// counted, then the fill once if some column was not stored. The
// accumulator is the IEEE total-order key (an integer min per entry) plus a
// NaN flag, decoded once: exactly minimumf's result. Rows of at most 16
// entries accumulate the float itself (a compare and select per entry),
// exact unless the minimum is a zero, whose sign the keys then settle.
// PLAN-LABEL: func.func @row_minima(
// PLAN: sparse_array.reduce_over [%{{.*}}] %{{.*}} with @min {plan = #sparse_array.reduction<strategy = idempotent{{[,>].*}}} : f64
// CHECK-LABEL: func.func @row_minima(
// CHECK: scf.for %[[I:.*]] = %c0 to %{{.*}} step %c1 {
// CHECK: %[[LEN:.*]] = arith.subi
// CHECK: %[[SHORT:.*]] = arith.cmpi ule, %[[LEN]], %c16 : index
// CHECK: %[[R:.*]]:3 = scf.if %[[SHORT]] -> (i64, i1, index) {
// CHECK: %[[F:.*]]:4 = scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %cst, %{{.*}} = %false, %{{.*}} = %c0) : (index, f64, i1, index)
// CHECK: arith.cmpf olt
// CHECK: arith.select
// CHECK: arith.cmpf uno
// CHECK: %[[ZERO:.*]] = arith.cmpf oeq, %[[F]]#1, %{{.*}} : f64
// CHECK: scf.if
// CHECK: scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %c9218868437227405312_i64, %{{.*}} = %false, %{{.*}} = %c0) : (index, i64, i1, index)
// CHECK: } else {
// CHECK: } else {
// CHECK: scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %c9218868437227405312_i64, %{{.*}} = %false, %{{.*}} = %c0) : (index, i64, i1, index)
// CHECK-NOT: arith.andi
// CHECK: scf.condition
// CHECK: arith.bitcast %{{.*}} : f64 to i64
// CHECK: arith.minsi
// CHECK: arith.cmpf uno
// CHECK-NOT: arith.minimumf
// CHECK: scf.yield
// CHECK: %[[BITS:.*]] = arith.bitcast %{{.*}} : i64 to f64
// CHECK: %[[ACC:.*]] = arith.select %[[R]]#1, %{{.*}}, %[[BITS]] : f64
// CHECK: %[[MISSING:.*]] = arith.cmpi ult, %[[R]]#2, %{{.*}} : index
// CHECK: scf.if %[[MISSING]] -> (f64) {
// CHECK: arith.minimumf %[[ACC]], %{{.*}} : f64
// CHECK: memref.store
func.func @row_minima(%a: !m) -> !v {
  %r = sparse_array.reduce @min %a dims [1] : !m -> !v
  return %r : !v
}

// -----

!mb = !sparse_array.array<?x?xi1, #sparse_array.format<[dense, compressed]>>
!vb = !sparse_array.array<?xi1>
sparse_array.func @or(%x: i1, %y: i1) -> i1
    attributes {commutative, associative, idempotent, identity = #sparse_array.identity<false>,
                annihilator = #sparse_array.annihilator<true>} {
  %r = arith.ori %x, %y : i1
  sparse_array.yield %r : i1
}
// Fill false is or's identity: stored entries only, from false, no count;
// true annihilates: the loop stops at the first true.
// PLAN-LABEL: func.func @row_any(
// PLAN: with @or {early_exit, plan = #sparse_array.reduction<strategy = identity{{[,>].*}}} : i1
// CHECK-LABEL: func.func @row_any(
// CHECK: scf.while (%{{.*}} = %{{.*}}, %[[ACC:.*]] = %false) : (index, i1) -> (index, i1)
// CHECK: %[[MORE:.*]] = arith.cmpi ult
// CHECK: %[[LIVE:.*]] = arith.cmpi ne, %[[ACC]], %true : i1
// CHECK: %[[C:.*]] = arith.andi %[[MORE]], %[[LIVE]] : i1
// CHECK: scf.condition(%[[C]])
// CHECK: arith.ori
// CHECK-NOT: scf.if
// CHECK: memref.store
func.func @row_any(%a: !mb) -> !vb {
  %r = sparse_array.reduce @or %a dims [1] : !mb -> !vb
  return %r : !vb
}

// -----

!m = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
!v = !sparse_array.array<?xf64>
sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
// 0.0 is not an identity of exact f64 addition (-0.0 + 0.0 is 0.0) and
// add is neither idempotent nor associative, but adding +0.0 changes only
// a -0.0 sum (issue 20, strategy signed_zero_sum): the stored entries are
// summed from -0.0 and counted, and a -0.0 sum of a row with an implicit
// entry becomes +0.0 - the dense fold's bits, at sparse cost (no loop over
// every column).
// PLAN-LABEL: func.func @row_sums(
// PLAN: with @add {plan = #sparse_array.reduction<strategy = signed_zero_sum{{[,>].*}}} : f64
// CHECK-LABEL: func.func @row_sums(
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c1 {
// CHECK: %[[R:.*]]:3 = scf.while
// CHECK: arith.addf
// CHECK: %[[BITS:.*]] = arith.bitcast %[[R]]#1 : f64 to i64
// CHECK: %[[NEG:.*]] = arith.cmpi eq, %[[BITS]], %c-9223372036854775808_i64 : i64
// CHECK: %[[MISS:.*]] = arith.cmpi ult, %[[R]]#2, %{{.*}} : index
// CHECK: %[[FIX:.*]] = arith.andi %[[NEG]], %[[MISS]] : i1
// CHECK: %[[V:.*]] = arith.select %[[FIX]], %{{.*}}, %[[R]]#1 : f64
// CHECK: memref.store %[[V]]
func.func @row_sums(%a: !m) -> !v {
  %r = sparse_array.reduce @add %a dims [1] : !m -> !v
  return %r : !v
}

// -----

!m = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
!x = !sparse_array.array<?xf64>
!v = !sparse_array.array<?xf64>
sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @mul(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<1.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
// SpMV with exact add and mul (0 * inf is NaN, 0 * -1 is -0.0; issue 20,
// strategy signed_zero_dot): one pass over x counts its values whose
// product with A's fill +0.0 is +0.0 (finite, sign clear) and its
// non-finite ones. Each row sums A's stored entries only (no loop over
// every column, nothing but the multiply-add per entry). Only when x has a
// non-finite value, or the sum is -0.0 and x has a +0.0 class, are the
// row's entries visited again to count the same two classes of the x they
// read: fewer than all of either class means an omitted term of that
// class: NaN, or a -0.0 sum that becomes +0.0.
// PLAN-LABEL: func.func @exact_spmv(
// PLAN: lattice<loop 1, present [0, 1], coiterate [0], points [{0} produce]>
// PLAN: with @add {plan = #sparse_array.reduction<strategy = signed_zero_dot{{[,>].*}}} : f64
// CHECK-LABEL: func.func @exact_spmv(
// CHECK: %[[EXP:.*]] = arith.constant 9218868437227405312 : i64
// CHECK: %[[XV:.*]] = sparse_array.values %{{.*}} : !sparse_array.array<?xf64>
// CHECK: %[[N:.*]]:2 = scf.for %{{.*}} iter_args(%{{.*}} = %c0, %{{.*}} = %c0) -> (index, index) {
// CHECK: memref.load %[[XV]]
// CHECK: arith.andi %{{.*}}, %[[EXP]] : i64
// CHECK: scf.yield
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c1 {
// CHECK: %[[R:.*]]:2 = scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %cst{{.*}}) : (index, f64)
// CHECK: %[[Y:.*]] = memref.load %[[XV]]
// CHECK-NEXT: %[[P:.*]] = arith.mulf %{{.*}}, %[[Y]] : f64
// CHECK-NEXT: %[[S:.*]] = arith.addf %{{.*}}, %[[P]] : f64
// CHECK-NEXT: scf.yield %{{.*}}, %[[S]] : index, f64
// CHECK: %[[NEG:.*]] = arith.cmpi eq, %{{.*}}, %c-9223372036854775808_i64 : i64
// CHECK: %[[HASPOS:.*]] = arith.cmpi ne, %[[N]]#0, %c0 : index
// CHECK: %[[NEGPOS:.*]] = arith.andi %[[NEG]], %[[HASPOS]] : i1
// CHECK: %[[HASBAD:.*]] = arith.cmpi ne, %[[N]]#1, %c0 : index
// CHECK: %[[NEED:.*]] = arith.ori %[[NEGPOS]], %[[HASBAD]] : i1
// The recount is a fallback, expected not to run (compiled small).
// CHECK: %[[RARE:.*]] = llvm.intr.expect %[[NEED]], %false : i1
// CHECK: %[[V:.*]] = scf.if %[[RARE]] -> (f64) {
// CHECK: %[[C:.*]]:3 = scf.while
// CHECK: %[[Y2:.*]] = memref.load %[[XV]]
// CHECK-NOT: arith.mulf
// CHECK: arith.bitcast %[[Y2]] : f64 to i64
// CHECK: %[[POS:.*]] = arith.cmpi ult, %[[C]]#1, %[[N]]#0 : index
// CHECK: %[[NAN:.*]] = arith.cmpi ult, %[[C]]#2, %[[N]]#1 : index
// CHECK: %[[FIX:.*]] = arith.andi %{{.*}}, %[[POS]] : i1
// CHECK: %[[Z:.*]] = arith.select %[[FIX]], %{{.*}}, %[[R]]#1 : f64
// CHECK: %[[W:.*]] = arith.select %[[NAN]], %{{.*}}, %[[Z]] : f64
// CHECK: scf.yield %[[W]] : f64
// CHECK: } else {
// CHECK: scf.yield %[[R]]#1 : f64
// CHECK: memref.store %[[V]]
func.func @exact_spmv(%a: !m, %x: !x) -> !v {
  %r = sparse_array.kernel ins(%a, %x : !m, !x) -> !v {
  ^bb0(%i: index, %j: index, %A: !m, %X: !x):
    %aij = sparse_array.access %A[%i, %j] : !m
    %xj = sparse_array.access %X[%j] : !x
    %p = sparse_array.apply @mul(%aij, %xj) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%j] %p with @add : f64
    sparse_array.yield %s : f64
  }
  return %r : !v
}

// -----

!m = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
!d = !sparse_array.array<?x?xf64>
!v = !sparse_array.array<?xf64>
sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @mul(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<1.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
// The dense factor read at a kept index too (row i of D): one count over
// it cannot stand for every row's omitted terms, so the counts are taken
// per row (per coordinate of D's kept dimensions): signed_zero_dot still.
// PLAN-LABEL: func.func @dense_factor_per_row(
// PLAN: with @add {plan = #sparse_array.reduction<strategy = signed_zero_dot{{[,>].*}}} : f64
func.func @dense_factor_per_row(%a: !m, %d: !d) -> !v {
  %r = sparse_array.kernel ins(%a, %d : !m, !d) -> !v {
  ^bb0(%i: index, %j: index, %A: !m, %D: !d):
    %aij = sparse_array.access %A[%i, %j] : !m
    %dij = sparse_array.access %D[%i, %j] : !d
    %p = sparse_array.apply @mul(%aij, %dij) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%j] %p with @add : f64
    sparse_array.yield %s : f64
  }
  return %r : !v
}

// -----

!m = !sparse_array.array<?x?xi64, #sparse_array.format<[dense, compressed], fill = 2 : i64>>
!v = !sparse_array.array<?xi64>
sparse_array.func @mul(%x: i64, %y: i64) -> i64
    attributes {commutative, annihilator = #sparse_array.annihilator<0 : i64>,
                identity = #sparse_array.identity<1 : i64>} {
  %r = arith.muli %x, %y : i64
  sparse_array.yield %r : i64
}
// Row products with fill 2: the fill is not mul's identity and mul is
// declared neither associative nor idempotent here, so every column is
// visited in order (universe) - until the product is 0, the annihilator:
// the counted loop becomes a while loop that also tests the accumulator.
// PLAN-LABEL: func.func @row_products(
// PLAN: with @mul {early_exit, plan = #sparse_array.reduction<strategy = universe{{[,>].*}}} : i64
// CHECK-LABEL: func.func @row_products(
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c1 {
// CHECK: scf.while (%{{.*}} = %{{.*}}, %[[ACC:.*]] = %c1_i64, %{{.*}} = %c0, %[[X:.*]] = %c0)
// CHECK-DAG: %[[MORE:.*]] = arith.cmpi ult, %[[X]], %{{.*}} : index
// CHECK-DAG: %[[LIVE:.*]] = arith.cmpi ne, %[[ACC]], %c0_i64 : i64
// CHECK: %[[C:.*]] = arith.andi %[[MORE]], %[[LIVE]] : i1
// CHECK: scf.condition(%[[C]])
// CHECK: arith.muli
// CHECK: arith.addi %{{.*}}, %c1 : index
// CHECK: memref.store
func.func @row_products(%a: !m) -> !v {
  %r = sparse_array.reduce @mul %a dims [1] : !m -> !v
  return %r : !v
}

// -----

!m = !sparse_array.array<?x?xi64, #sparse_array.format<[dense, compressed], fill = 1 : i64>>
!v = !sparse_array.array<?xi64>
sparse_array.func @add(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
// Integer row sums with fill 1: add is commutative and associative, so the
// stored entries are folded (a while loop over the row, counting them) and
// the fill is added once per implicit entry - by repeated squaring of
// fill ⊕ fill, not by visiting the columns.
// PLAN-LABEL: func.func @row_counts(
// PLAN: with @add {plan = #sparse_array.reduction<strategy = reassociate{{[,>].*}}} : i64
// CHECK-LABEL: func.func @row_counts(
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c1 {
// CHECK: %[[LOOP:.*]]:3 = scf.while
// CHECK-NOT: scf.for
// CHECK: %[[MISSING:.*]] = arith.subi %{{.*}}, %[[LOOP]]#2 : index
// CHECK: %[[POW:.*]]:4 = scf.while (%{{.*}} = %[[MISSING]], %{{.*}} = %c1_i64, %{{.*}} = %c1_i64, %{{.*}} = %false)
// CHECK: arith.shrui
// CHECK: arith.addi
// CHECK: scf.if
// CHECK: arith.addi %[[LOOP]]#1, %[[POW]]#2 : i64
func.func @row_counts(%a: !m) -> !v {
  %r = sparse_array.reduce @add %a dims [1] : !m -> !v
  return %r : !v
}

// -----

!mi = !sparse_array.array<?x?xi64, #sparse_array.format<[dense, compressed]>>
!vi = !sparse_array.array<?xi64>
sparse_array.func @mul(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, annihilator = #sparse_array.annihilator<0 : i64>,
                identity = #sparse_array.identity<1 : i64>} {
  %r = arith.muli %x, %y : i64
  sparse_array.yield %r : i64
}
sparse_array.func @add(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
// SpMV y(i) = sum_j A(i, j) x(j) with a sparse x: the product is an
// intersection (0 annihilates), fill 0 = add's identity: one loop over the
// row and x while both have entries, nothing else. Where the two disagree
// and what is left of one segment is at least 8 times the other's
// (LoopLeaves::segmentsSkewed), each cursor behind the larger coordinate
// gallops to it (probes 1, 2, 4, ... ahead, then bisection): a short row
// against a long x costs the row's entries times a log, not x's length
// (LoopLeaves::gallop). Otherwise the cursor at the smaller coordinate
// steps branch-free (segments of like length). The gallop is marked
// unlikely, so its code stays out of the loop's path where every entry
// matches.
// PLAN-LABEL: func.func @spmspv(
// PLAN: #sparse_array.lattice<loop 1, present [0, 1], coiterate [0, 1], points [{0, 1} produce]>
// PLAN: with @add {plan = #sparse_array.reduction<strategy = identity{{[,>].*}}} : i64
// CHECK-LABEL: func.func @spmspv(
// CHECK: scf.for
// CHECK: arith.index_castui
// CHECK: %[[AEND:.*]] = arith.index_castui
// CHECK: arith.index_castui
// CHECK: %[[XEND:.*]] = arith.index_castui
// CHECK: %[[L:.*]]:3 = scf.while (%[[P:.*]] = %{{.*}}, %[[Q:.*]] = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK: arith.andi
// CHECK: scf.condition
// CHECK: %[[EQA:.*]] = arith.cmpi eq, %[[CA:.*]], %{{.*}}
// CHECK: %[[EQX:.*]] = arith.cmpi eq, %[[CX:.*]], %{{.*}}
// CHECK: scf.if
// CHECK: arith.muli
// CHECK: arith.addi
// CHECK: } else {
// CHECK: %[[LA:.*]] = arith.subi %[[AEND]], %[[P]]
// CHECK: %[[LX:.*]] = arith.subi %[[XEND]], %[[Q]]
// CHECK: %[[SHORT:.*]] = arith.minui %[[LA]], %[[LX]]
// CHECK: %[[LONG:.*]] = arith.maxui %[[LA]], %[[LX]]
// CHECK: %[[SCALED:.*]] = arith.muli %[[SHORT]], %c8
// CHECK: %[[SKEWED:.*]] = arith.cmpi uge, %[[LONG]], %[[SCALED]]
// CHECK: %[[RARE:.*]] = llvm.intr.expect %[[SKEWED]], %false
// CHECK: scf.if %[[RARE]] -> (index, index) {
// CHECK: %[[T:.*]] = arith.maxui %[[CA]], %[[CX]] : index
// CHECK: %[[BEHIND:.*]] = arith.cmpi ult, %[[CA]], %[[T]]
// CHECK: scf.if %[[BEHIND]] -> (index) {
// CHECK: scf.while (%{{.*}} = %[[P]], %{{.*}} = %c1)
// CHECK: arith.shli
// CHECK: scf.while
// CHECK: } else {
// CHECK: scf.yield %[[P]] : index
// CHECK: arith.cmpi ult, %[[CX]], %[[T]]
// CHECK: scf.while (%{{.*}} = %[[Q]], %{{.*}} = %c1)
// CHECK: scf.yield %[[Q]] : index
// CHECK: } else {
// CHECK-NOT: scf.while
// CHECK: %[[NP:.*]] = arith.addi %[[P]], %c1
// CHECK: arith.select %[[EQA]], %[[NP]], %[[P]]
// CHECK: %[[NQ:.*]] = arith.addi %[[Q]], %c1
// CHECK: arith.select %[[EQX]], %[[NQ]], %[[Q]]
// CHECK-NOT: scf.while
// CHECK: memref.store %[[L]]#2
!sv = !sparse_array.array<?xi64, #sparse_array.format<[compressed]>>
func.func @spmspv(%a: !mi, %x: !sv) -> !vi {
  %y = sparse_array.kernel ins(%a, %x : !mi, !sv) -> !vi {
  ^bb0(%i: index, %j: index, %A: !mi, %X: !sv):
    %aij = sparse_array.access %A[%i, %j] : !mi
    %xj = sparse_array.access %X[%j] : !sv
    %p = sparse_array.apply @mul(%aij, %xj) : (i64, i64) -> i64
    %s = sparse_array.reduce_over [%j] %p with @add : i64
    sparse_array.yield %s : i64
  }
  return %y : !vi
}

// -----

!m = !sparse_array.array<?x?xi1, #sparse_array.format<[dense, compressed]>>
!v = !sparse_array.array<?xi1, #sparse_array.format<[compressed]>>
sparse_array.func @and(%x: i1, %y: i1) -> i1
    attributes {commutative, associative, idempotent, annihilator = #sparse_array.annihilator<false>,
                identity = #sparse_array.identity<true>} {
  %r = arith.andi %x, %y : i1
  sparse_array.yield %r : i1
}
sparse_array.func @or(%x: i1, %y: i1) -> i1
    attributes {commutative, associative, idempotent, identity = #sparse_array.identity<false>,
                annihilator = #sparse_array.annihilator<true>} {
  %r = arith.ori %x, %y : i1
  sparse_array.yield %r : i1
}
sparse_array.func @keep_unless(%m: i1, %x: i1) -> i1
    attributes {algebra = #sparse_array.algebra<intersect(complement(0), 1), fills = [false, false]>} {
  %t = arith.constant true
  %n = arith.xori %m, %t : i1
  %r = arith.andi %n, %x : i1
  sparse_array.yield %r : i1
}
// BFS pull, next = mask(¬seen, A ∨.∧ frontier) (thesis Fig. 2-1c): every
// vertex not seen yet (the complemented mask is an omitter: seen vertices
// skip their dot product), each dot product coiterates the in-neighbours
// and the frontier and stops at the first hit.
// PLAN-LABEL: func.func @bfs_pull_step(
// PLAN: #sparse_array.lattice<loop 0, present [0, 1, 2], coiterate [0], points [{0, U} omit, {U} produce]>
// PLAN: #sparse_array.lattice<loop 1, present [0, 1, 2], coiterate [1, 2], points [{1, 2} produce]>
// PLAN: with @or {early_exit, plan = #sparse_array.reduction<strategy = identity{{[,>].*}}} : i1
// CHECK-LABEL: func.func @bfs_pull_step(
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args(
// The seen check (a stored true skips the vertex) collapses the dot
// product's range, no branch: a seen vertex's loop ends before it starts.
// The result is the fill there, counted as no entry.
// CHECK: %[[SEEN:.*]] = memref.load %{{.*}} : memref<?xi1>
// CHECK-NOT: scf.if
// CHECK: %[[END:.*]] = arith.select %[[SEEN]], %[[LO:.*]], %{{.*}} : index
// CHECK: scf.while (%{{.*}} = %[[LO]], %{{.*}} = %{{.*}}, %[[ACC:.*]] = %false)
// CHECK: arith.cmpi ult, %{{.*}}, %[[END]] : index
// CHECK: arith.cmpi ne, %[[ACC]], %true : i1
// CHECK: scf.condition
// CHECK: %[[V:.*]] = arith.select %[[SEEN]], %false, %{{.*}} : i1
// The vector's loop visits every coordinate: the entry is written to the
// next slot unconditionally and counted when it is not the fill.
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[N:.*]]] : memref<?xi64>
// CHECK: memref.store %[[V]], %{{.*}}[%[[N]]] : memref<?xi1>
// CHECK: %[[INC:.*]] = arith.index_castui %[[V]] : i1 to index
// CHECK: arith.addi %[[N]], %[[INC]] : index
func.func @bfs_pull_step(%seen: !v, %a: !m, %f: !v) -> !v {
  %y = sparse_array.kernel ins(%seen, %a, %f : !v, !m, !v) -> !v {
  ^bb0(%i: index, %j: index, %S: !v, %A: !m, %F: !v):
    %s = sparse_array.access %S[%i] : !v
    %aij = sparse_array.access %A[%i, %j] : !m
    %fj = sparse_array.access %F[%j] : !v
    %p = sparse_array.apply @and(%aij, %fj) : (i1, i1) -> i1
    %r = sparse_array.reduce_over [%j] %p with @or : i1
    %o = sparse_array.apply @keep_unless(%s, %r) : (i1, i1) -> i1
    sparse_array.yield %o : i1
  }
  return %y : !v
}

// -----

// Not branch-free when what follows the reduction may trap: an integer
// division by a computed divisor must not run at masked-out points.
!m = !sparse_array.array<?x?xi64, #sparse_array.format<[dense, compressed]>>
!v = !sparse_array.array<?xi1, #sparse_array.format<[compressed]>>
!w = !sparse_array.array<?xi64, #sparse_array.format<[compressed]>>
sparse_array.func @add(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
sparse_array.func @ratio_unless(%m: i1, %x: i64) -> i64
    attributes {algebra = #sparse_array.algebra<intersect(complement(0), 1), fills = [false, 0 : i64]>} {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c1000 = arith.constant 1000 : i64
  %odd = arith.ori %x, %c1 : i64
  %q = arith.divui %c1000, %odd : i64
  %z = arith.cmpi eq, %x, %c0 : i64
  %k = arith.ori %m, %z : i1
  %r = arith.select %k, %c0, %q : i64
  sparse_array.yield %r : i64
}
// CHECK-LABEL: func.func @masked_division(
// CHECK: %[[SEEN:.*]] = memref.load %{{.*}} : memref<?xi1>
// CHECK: scf.if %[[SEEN]]
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } else {
// CHECK: scf.while
// CHECK: arith.divui
func.func @masked_division(%seen: !v, %a: !m) -> !w {
  %y = sparse_array.kernel ins(%seen, %a : !v, !m) -> !w {
  ^bb0(%i: index, %j: index, %S: !v, %A: !m):
    %s = sparse_array.access %S[%i] : !v
    %aij = sparse_array.access %A[%i, %j] : !m
    %r = sparse_array.reduce_over [%j] %aij with @add : i64
    %o = sparse_array.apply @ratio_unless(%s, %r) : (i1, i64) -> i64
    sparse_array.yield %o : i64
  }
  return %y : !w
}

// -----

!csr = !sparse_array.array<?x?xi64, #sparse_array.format<[dense, compressed]>>
!csc = !sparse_array.array<?x?xi64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
sparse_array.func @mul(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, annihilator = #sparse_array.annihilator<0 : i64>,
                identity = #sparse_array.identity<1 : i64>} {
  %r = arith.muli %x, %y : i64
  sparse_array.yield %r : i64
}
sparse_array.func @add(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
// SpGEMM of CSR factors into CSR, products only where both are stored and
// summed from add's identity: row by row (Gustavson), each row of A
// scattering scaled rows of B into a dense workspace, whose touched columns
// are sorted and appended. B is read by rows as stored (no conversion).
// The result's coordinates and values start at the rows' products summed
// (at most 8 times the entries of A and B): no row grows them.
// PLAN-LABEL: func.func @spgemm(
// PLAN-NOT: sparse_array.convert
// PLAN: with @add {plan = #sparse_array.reduction<strategy = identity{{[,>].*}}, scatter = array<i32: 0, 1>} : i64
// CHECK-LABEL: func.func @spgemm(
// CHECK-NOT: sparse_array.convert
// CHECK: %[[SUMS:.*]]:2 = scf.for
// CHECK: %[[FIT:.*]] = arith.minui %[[SUMS]]#1, %{{.*}} : index
// CHECK: %[[CAP:.*]] = arith.addi %[[FIT]], %c16 : index
// CHECK: memref.alloc(%[[CAP]]) : memref<?xi64>
// CHECK: memref.alloc(%[[CAP]]) : memref<?xi64>
// CHECK: %[[W:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK: %[[MARK:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK: scf.for %[[I:.*]] = %c0 to %{{.*}} step %c1 iter_args(
// CHECK: scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step %c1 iter_args(
// CHECK: scf.for %[[Q:.*]] = %{{.*}} to %{{.*}} step %c1 iter_args(
// CHECK: arith.muli
// CHECK: scf.if
// CHECK: arith.addi
// CHECK: call @sa_rt_sort_i64(
// CHECK: sparse_array.assemble
func.func @spgemm(%a: !csr, %b: !csr) -> !csr {
  %c = sparse_array.kernel ins(%a, %b : !csr, !csr) -> !csr {
  ^bb0(%i: index, %j: index, %k: index, %A: !csr, %B: !csr):
    %x = sparse_array.access %A[%i, %k] : !csr
    %y = sparse_array.access %B[%k, %j] : !csr
    %p = sparse_array.apply @mul(%x, %y) : (i64, i64) -> i64
    %s = sparse_array.reduce_over [%k] %p with @add : i64
    sparse_array.yield %s : i64
  }
  return %c : !csr
}
// Not firing: a CSC result is computed by inner products (B converted to
// be read by columns).
// PLAN-LABEL: func.func @spgemm_into_csc(
// PLAN: sparse_array.convert
// PLAN: with @add {plan = #sparse_array.reduction<strategy = identity{{[,>].*}}} : i64
func.func @spgemm_into_csc(%a: !csr, %b: !csr) -> !csc {
  %c = sparse_array.kernel ins(%a, %b : !csr, !csr) -> !csc {
  ^bb0(%i: index, %j: index, %k: index, %A: !csr, %B: !csr):
    %x = sparse_array.access %A[%i, %k] : !csr
    %y = sparse_array.access %B[%k, %j] : !csr
    %p = sparse_array.apply @mul(%x, %y) : (i64, i64) -> i64
    %s = sparse_array.reduce_over [%k] %p with @add : i64
    sparse_array.yield %s : i64
  }
  return %c : !csc
}
// Firing for CSC everywhere: the same product over columns,
// C(:, j) = Σ_k A(:, k) B(k, j): B's column j scatters A's columns. Its
// outer loop runs over B's first level (columns), the result is assembled
// with its dimensions in order (rows from A, columns from B).
// PLAN-LABEL: func.func @spgemm_csc(
// PLAN-NOT: sparse_array.convert
// PLAN: with @add {plan = #sparse_array.reduction<strategy = identity{{[,>].*}}, scatter = array<i32: 1, 0>} : i64
// CHECK-LABEL: func.func @spgemm_csc(
// CHECK-SAME: %[[A:[^:]*]]: !sparse_array.array<?x?xi64, #csc>, %[[B:[^:]*]]: !sparse_array.array<?x?xi64, #csc>
// CHECK-NOT: sparse_array.convert
// CHECK-DAG: %[[COLS:.*]] = sparse_array.dim %[[B]][1]
// CHECK-DAG: %[[ROWS:.*]] = sparse_array.dim %[[A]][0]
// CHECK: scf.for %{{.*}} = %c0 to %[[COLS]] step %c1 iter_args(
// CHECK: call @sa_rt_sort_i64(
// CHECK: sparse_array.assemble({{.*}}), (%[[ROWS]], %[[COLS]])
func.func @spgemm_csc(%a: !csc, %b: !csc) -> !csc {
  %c = sparse_array.kernel ins(%a, %b : !csc, !csc) -> !csc {
  ^bb0(%i: index, %j: index, %k: index, %A: !csc, %B: !csc):
    %x = sparse_array.access %A[%i, %k] : !csc
    %y = sparse_array.access %B[%k, %j] : !csc
    %p = sparse_array.apply @mul(%x, %y) : (i64, i64) -> i64
    %s = sparse_array.reduce_over [%k] %p with @add : i64
    sparse_array.yield %s : i64
  }
  return %c : !csc
}

// -----

!csr = !sparse_array.array<?x?xi1, #sparse_array.format<[dense, compressed]>>
sparse_array.func @and(%x: i1, %y: i1) -> i1
    attributes {commutative, associative, idempotent, annihilator = #sparse_array.annihilator<false>,
                identity = #sparse_array.identity<true>} {
  %r = arith.andi %x, %y : i1
  sparse_array.yield %r : i1
}
sparse_array.func @or(%x: i1, %y: i1) -> i1
    attributes {commutative, associative, idempotent, identity = #sparse_array.identity<false>,
                annihilator = #sparse_array.annihilator<true>} {
  %r = arith.ori %x, %y : i1
  sparse_array.yield %r : i1
}
sparse_array.func @keep_unless(%m: i1, %x: i1) -> i1
    attributes {algebra = #sparse_array.algebra<intersect(complement(0), 1), fills = [false, false]>} {
  %t = arith.constant true
  %n = arith.xori %m, %t : i1
  %r = arith.andi %n, %x : i1
  sparse_array.yield %r : i1
}
// Multi-source BFS step C<¬V> = A ∨.∧ F, row by row: V's row is scattered
// into marks first, masked-out columns take no products, and the masking
// function runs at the gather.
// PLAN-LABEL: func.func @masked_spgemm(
// PLAN: with @or {plan = #sparse_array.reduction<strategy = identity{{[,>].*}}, scatter = array<i32: 0, 1>} : i1
// CHECK-LABEL: func.func @masked_spgemm(
// CHECK: scf.for %[[I:.*]] = %c0 to %{{.*}} step %c1 iter_args(
// The mask row, scattered.
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xi1>
// CHECK: scf.for
// CHECK: scf.for
// The mask test before the product.
// CHECK: scf.if
// CHECK: arith.andi
// CHECK: call @sa_rt_sort_i64(
func.func @masked_spgemm(%a: !csr, %f: !csr, %v: !csr) -> !csr {
  %c = sparse_array.kernel ins(%a, %f, %v : !csr, !csr, !csr) -> !csr {
  ^bb0(%i: index, %j: index, %k: index, %A: !csr, %F: !csr, %V: !csr):
    %x = sparse_array.access %A[%i, %k] : !csr
    %y = sparse_array.access %F[%k, %j] : !csr
    %p = sparse_array.apply @and(%x, %y) : (i1, i1) -> i1
    %s = sparse_array.reduce_over [%k] %p with @or : i1
    %m = sparse_array.access %V[%i, %j] : !csr
    %r = sparse_array.apply @keep_unless(%m, %s) : (i1, i1) -> i1
    sparse_array.yield %r : i1
  }
  return %c : !csr
}

// -----

!m = !sparse_array.array<?x?xi1, #sparse_array.format<[dense, compressed]>>
!v = !sparse_array.array<?xi1, #sparse_array.format<[compressed]>>
sparse_array.func @and(%x: i1, %y: i1) -> i1
    attributes {commutative, associative, idempotent, annihilator = #sparse_array.annihilator<false>,
                identity = #sparse_array.identity<true>} {
  %r = arith.andi %x, %y : i1
  sparse_array.yield %r : i1
}
sparse_array.func @or(%x: i1, %y: i1) -> i1
    attributes {commutative, associative, idempotent, identity = #sparse_array.identity<false>,
                annihilator = #sparse_array.annihilator<true>} {
  %r = arith.ori %x, %y : i1
  sparse_array.yield %r : i1
}
// BFS push, next = frontier ∨.∧ A: a compressed vector times a CSR matrix
// is the one-row case of the row-wise product (each frontier vertex
// scatters its out-edges), with A as stored.
// PLAN-LABEL: func.func @bfs_push_step(
// PLAN-NOT: sparse_array.convert
// PLAN: with @or {plan = #sparse_array.reduction<strategy = identity{{[,>].*}}, scatter = array<i32: 0, 1>} : i1
// CHECK-LABEL: func.func @bfs_push_step(
// CHECK-NOT: sparse_array.convert
// The frontier's entries (the one row, its loop folded away), each
// scattering its row of A.
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1 iter_args(%{{.*}} = %c0) -> (index) {
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1 iter_args(
// CHECK: call @sa_rt_sort_i64(
func.func @bfs_push_step(%f: !v, %a: !m) -> !v {
  %y = sparse_array.kernel ins(%f, %a : !v, !m) -> !v {
  ^bb0(%j: index, %i: index, %F: !v, %A: !m):
    %fi = sparse_array.access %F[%i] : !v
    %aij = sparse_array.access %A[%i, %j] : !m
    %p = sparse_array.apply @and(%fi, %aij) : (i1, i1) -> i1
    %s = sparse_array.reduce_over [%i] %p with @or : i1
    sparse_array.yield %s : i1
  }
  return %y : !v
}
