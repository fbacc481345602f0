// RUN: sa-opt %s --sparse-array-derive-algebra --split-input-file | FileCheck %s
// RUN: sa-opt %s --sparse-array-derive-algebra=emit-remarks --split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=RULE
// The seed's derivation examples (seed 000 §5.2, Figs. 2, 11-13; thesis
// §5.2): each kernel gets the iteration algebra over its inputs (leaf k =
// input k) and the fill of its result outside that algebra.

#inf = #sparse_array.format<[compressed], fill = inf : f64>
#zero = #sparse_array.format<[compressed], fill = 0.0 : f64>
!vinf = !sparse_array.array<8xf64, #inf>
!vzero = !sparse_array.array<8xf64, #zero>
!vdense = !sparse_array.array<8xf64>

sparse_array.func @max3(%x: f64, %y: f64, %z: f64) -> f64
    attributes {commutative, annihilator = #sparse_array.annihilator<inf : f64>} {
  %m = arith.maximumf %x, %y : f64
  %r = arith.maximumf %m, %z : f64
  sparse_array.yield %r : f64
}

// Case (1), Fig. 11: ternary max, A and B with fill inf (the annihilator),
// C with fill 0: only A ∩ B needs computing; outside it the result is inf.
// CHECK-LABEL: func.func @commutative_annihilator
// CHECK: sparse_array.kernel
// CHECK: algebra = #sparse_array.algebra<intersect(0, 1)>, fill = #sparse_array.scalar<inf : f64>
// RULE: remark: intersect(0, 1), fill inf (annihilator)
func.func @commutative_annihilator(%a: !vinf, %b: !vinf, %c: !vzero) -> !vinf {
  %r = sparse_array.kernel ins(%a, %b, %c : !vinf, !vinf, !vzero) -> !vinf {
  ^bb0(%i: index, %A: !vinf, %B: !vinf, %C: !vzero):
    %ai = sparse_array.access %A[%i] : !vinf
    %bi = sparse_array.access %B[%i] : !vinf
    %ci = sparse_array.access %C[%i] : !vzero
    %m = sparse_array.apply @max3(%ai, %bi, %ci) : (f64, f64, f64) -> f64
    sparse_array.yield %m : f64
  }
  return %r : !vinf
}

// -----

#five = #sparse_array.format<[compressed], fill = 5.0 : f64>
!v5 = !sparse_array.array<8xf64, #five>
sparse_array.func @min(%x: f64, %y: f64) -> f64 attributes {commutative, idempotent} {
  %r = arith.minimumf %x, %y : f64
  sparse_array.yield %r : f64
}
// Case (2), Fig. 12: min is idempotent and both fills are 5: union, fill 5.
// CHECK-LABEL: func.func @idempotent_equal_fills
// CHECK: algebra = #sparse_array.algebra<union(0, 1)>, fill = #sparse_array.scalar<5.0 : f64>
// RULE: remark: union(0, 1), fill 5.0 (idempotent)
func.func @idempotent_equal_fills(%a: !v5, %b: !v5) -> !v5 {
  %r = sparse_array.kernel ins(%a, %b : !v5, !v5) -> !v5 {
  ^bb0(%i: index, %A: !v5, %B: !v5):
    %ai = sparse_array.access %A[%i] : !v5
    %bi = sparse_array.access %B[%i] : !v5
    %m = sparse_array.apply @min(%ai, %bi) : (f64, f64) -> f64
    sparse_array.yield %m : f64
  }
  return %r : !v5
}

// -----

#ninf = #sparse_array.format<[compressed], fill = -inf : f64>
#fortytwo = #sparse_array.format<[compressed], fill = 42.0 : f64>
!vninf = !sparse_array.array<8xf64, #ninf>
!v42 = !sparse_array.array<8xf64, #fortytwo>
sparse_array.func @max(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-inf : f64>} {
  %r = arith.maximumf %x, %y : f64
  sparse_array.yield %r : f64
}
// Case (3), Fig. 13: max with identity -inf, fills (-inf, 42): union, and
// the result's fill is 42.
// CHECK-LABEL: func.func @identity_other_fill
// CHECK: algebra = #sparse_array.algebra<union(0, 1)>, fill = #sparse_array.scalar<42.0 : f64>
// RULE: remark: union(0, 1), fill 42.0 (identity)
func.func @identity_other_fill(%a: !vninf, %b: !v42) -> !v42 {
  %r = sparse_array.kernel ins(%a, %b : !vninf, !v42) -> !v42 {
  ^bb0(%i: index, %A: !vninf, %B: !v42):
    %ai = sparse_array.access %A[%i] : !vninf
    %bi = sparse_array.access %B[%i] : !v42
    %m = sparse_array.apply @max(%ai, %bi) : (f64, f64) -> f64
    sparse_array.yield %m : f64
  }
  return %r : !v42
}

// -----

#zero = #sparse_array.format<[compressed], fill = 0.0 : f64>
#four = #sparse_array.format<[compressed], fill = 4.0 : f64>
!vzero = !sparse_array.array<8xf64, #zero>
!v4 = !sparse_array.array<8xf64, #four>
sparse_array.func @divide(%x: f64, %y: f64) -> f64
    attributes {annihilator = #sparse_array.annihilator<0.0 : f64, positions = [0]>} {
  %r = arith.divf %x, %y : f64
  sparse_array.yield %r : f64
}
// Case (4), thesis Fig. 5-2: div(A_0, B_4) with annihilator 0 at position 0
// iterates A only.
// CHECK-LABEL: func.func @annihilator_at_position
// CHECK: algebra = #sparse_array.algebra<0>, fill = #sparse_array.scalar<0.0 : f64>
// RULE: remark: 0, fill 0.0 (annihilator at positions)
func.func @annihilator_at_position(%a: !vzero, %b: !v4) -> !vzero {
  %r = sparse_array.kernel ins(%a, %b : !vzero, !v4) -> !vzero {
  ^bb0(%i: index, %A: !vzero, %B: !v4):
    %ai = sparse_array.access %A[%i] : !vzero
    %bi = sparse_array.access %B[%i] : !v4
    %q = sparse_array.apply @divide(%ai, %bi) : (f64, f64) -> f64
    sparse_array.yield %q : f64
  }
  return %r : !vzero
}
// The annihilator at position 0 says nothing about B: div(B_4, A_0) has
// no rule but the fallback, whose fill 4/0 = inf is computed exactly.
// CHECK-LABEL: func.func @annihilator_wrong_position
// CHECK: algebra = #sparse_array.algebra<union(1, 0)>, fill = #sparse_array.scalar<inf : f64>
// RULE: remark: union(1, 0), fill inf (union by evaluation)
func.func @annihilator_wrong_position(%a: !vzero, %b: !v4) -> !sparse_array.array<8xf64, #sparse_array.format<[compressed], fill = inf : f64>> {
  %r = sparse_array.kernel ins(%a, %b : !vzero, !v4) -> !sparse_array.array<8xf64, #sparse_array.format<[compressed], fill = inf : f64>> {
  ^bb0(%i: index, %A: !vzero, %B: !v4):
    %ai = sparse_array.access %A[%i] : !vzero
    %bi = sparse_array.access %B[%i] : !v4
    %q = sparse_array.apply @divide(%bi, %ai) : (f64, f64) -> f64
    sparse_array.yield %q : f64
  }
  return %r : !sparse_array.array<8xf64, #sparse_array.format<[compressed], fill = inf : f64>>
}

// -----

#bool = #sparse_array.format<[compressed], fill = 0 : i1>
#true = #sparse_array.format<[compressed], fill = 1 : i1>
!vb = !sparse_array.array<8xi1, #bool>
!vt = !sparse_array.array<8xi1, #true>
sparse_array.func @logical_xor(%x: i1, %y: i1) -> i1
    attributes {commutative, associative,
                algebra = #sparse_array.algebra<intersect(union(0, 1), complement(intersect(0, 1))),
                                                fills = [0 : i1, 0 : i1]>} {
  %r = arith.xori %x, %y : i1
  sparse_array.yield %r : i1
}
// Explicit algebra (symmetric difference), normalized by De Morgan.
// CHECK-LABEL: func.func @explicit_xor
// CHECK: algebra = #sparse_array.algebra<intersect(union(0, 1), union(complement(0), complement(1)))>, fill = #sparse_array.scalar<0 : i1>
// RULE: remark: intersect(union(0, 1), union(complement(0), complement(1))), fill 0 (explicit algebra)
func.func @explicit_xor(%a: !vb, %b: !vb) -> !vb {
  %r = sparse_array.kernel ins(%a, %b : !vb, !vb) -> !vb {
  ^bb0(%i: index, %A: !vb, %B: !vb):
    %ai = sparse_array.access %A[%i] : !vb
    %bi = sparse_array.access %B[%i] : !vb
    %x = sparse_array.apply @logical_xor(%ai, %bi) : (i1, i1) -> i1
    sparse_array.yield %x : i1
  }
  return %r : !vb
}
// The algebra assumes fills (0, 0); with (1, 0) it does not apply, and
// the other rules do: a union, fill xor(1, 0) = 1 by evaluation.
// CHECK-LABEL: func.func @explicit_xor_other_fills
// CHECK: algebra = #sparse_array.algebra<union(0, 1)>, fill = #sparse_array.scalar<1 : i1>
// RULE: remark: union(0, 1), fill 1 (union by evaluation; explicit algebra not used: fills differ)
func.func @explicit_xor_other_fills(%a: !vt, %b: !vb) -> !vt {
  %r = sparse_array.kernel ins(%a, %b : !vt, !vb) -> !vt {
  ^bb0(%i: index, %A: !vt, %B: !vb):
    %ai = sparse_array.access %A[%i] : !vt
    %bi = sparse_array.access %B[%i] : !vb
    %x = sparse_array.apply @logical_xor(%ai, %bi) : (i1, i1) -> i1
    sparse_array.yield %x : i1
  }
  return %r : !vt
}
// xor's algebra complements its arguments: "both defined" means both true
// only for exact arguments (inputs, whose stored fills the generated code
// treats as absent). xor(a, xor(t, t)) with t of fill 1: the inner xor is
// computed (a union by evaluation, fill 0, yet false wherever t is
// stored), so the outer xor may not complement it and is a union too.
// CHECK-LABEL: func.func @explicit_xor_of_computed
// CHECK: algebra = #sparse_array.algebra<union(0, 1)>, fill = #sparse_array.scalar<0 : i1>
// RULE: remark: 1, fill 0 (union by evaluation; explicit algebra not used: fills differ)
// RULE: remark: union(0, 1), fill 0 (union by evaluation; explicit algebra not used: it complements a computed argument)
func.func @explicit_xor_of_computed(%a: !vb, %t: !vt) -> !vb {
  %r = sparse_array.kernel ins(%a, %t : !vb, !vt) -> !vb {
  ^bb0(%i: index, %A: !vb, %T: !vt):
    %ai = sparse_array.access %A[%i] : !vb
    %ti = sparse_array.access %T[%i] : !vt
    %tt = sparse_array.apply @logical_xor(%ti, %ti) : (i1, i1) -> i1
    %x = sparse_array.apply @logical_xor(%ai, %tt) : (i1, i1) -> i1
    sparse_array.yield %x : i1
  }
  return %r : !vb
}

// -----

#sv = #sparse_array.format<[compressed]>
!v = !sparse_array.array<8xi64, #sv>
sparse_array.func @gcd(%x: i64, %y: i64) -> i64
    attributes {commutative,
                algebra = #sparse_array.algebra<union(0, 1), fills = [0 : i64, 0 : i64]>} {
  %ax = math.absi %x : i64
  %ay = math.absi %y : i64
  %r:2 = scf.while (%a = %ax, %b = %ay) : (i64, i64) -> (i64, i64) {
    %c0 = arith.constant 0 : i64
    %nz = arith.cmpi ne, %a, %c0 : i64
    scf.condition(%nz) %a, %b : i64, i64
  } do {
  ^bb0(%a: i64, %b: i64):
    %m = arith.remsi %b, %a : i64
    scf.yield %m, %a : i64, i64
  }
  sparse_array.yield %r#1 : i64
}
sparse_array.func @bitwise_and(%x: i64, %y: i64) -> i64
    attributes {commutative, annihilator = #sparse_array.annihilator<0 : i64>} {
  %r = arith.andi %x, %y : i64
  sparse_array.yield %r : i64
}
// Nested calls compose (seed 000 §5.2, Fig. 14):
// bitwise_and(gcd(b, c), d) => (b ∪ c) ∩ d.
// CHECK-LABEL: func.func @nested_and_of_gcd
// CHECK: algebra = #sparse_array.algebra<intersect(union(0, 1), 2)>, fill = #sparse_array.scalar<0 : i64>
// RULE: remark: union(0, 1), fill 0 (explicit algebra)
// RULE: remark: intersect(union(0, 1), 2), fill 0 (annihilator)
func.func @nested_and_of_gcd(%b: !v, %c: !v, %d: !v) -> !v {
  %a = sparse_array.kernel ins(%b, %c, %d : !v, !v, !v) -> !v {
  ^bb0(%i: index, %B: !v, %C: !v, %D: !v):
    %bi = sparse_array.access %B[%i] : !v
    %ci = sparse_array.access %C[%i] : !v
    %di = sparse_array.access %D[%i] : !v
    %g = sparse_array.apply @gcd(%bi, %ci) : (i64, i64) -> i64
    %r = sparse_array.apply @bitwise_and(%g, %di) : (i64, i64) -> i64
    sparse_array.yield %r : i64
  }
  return %a : !v
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
// Masked power A = B^C * not(D), Fig. 2, all inputs with fill 0. Outside
// B ∪ C ∪ D the value is 0^0 * not(0) = 1, found by evaluating @power and
// @not: with the result compressed at 1 (Fig. 2c) only B ∪ C ∪ D is
// computed; compressed at 0 (Fig. 2b) every point must be.
// CHECK-LABEL: func.func @masked_power_fill_one
// CHECK: algebra = #sparse_array.algebra<union(0, 1, 2)>, fill = #sparse_array.scalar<1.0 : f64>
// RULE: remark: union(0, 1), fill 1.0 (union by evaluation)
// RULE: remark: 2, fill 1.0 (union by evaluation)
// RULE: remark: union(0, 1, 2), fill 1.0 (identity)
func.func @masked_power_fill_one(%b: !m0, %c: !m0, %d: !m0) -> !m1 {
  %a = sparse_array.kernel ins(%b, %c, %d : !m0, !m0, !m0) -> !m1 {
  ^bb0(%i: index, %j: index, %B: !m0, %C: !m0, %D: !m0):
    %bij = sparse_array.access %B[%i, %j] : !m0
    %cij = sparse_array.access %C[%i, %j] : !m0
    %dij = sparse_array.access %D[%i, %j] : !m0
    %p = sparse_array.apply @power(%bij, %cij) : (f64, f64) -> f64
    %n = sparse_array.apply @not(%dij) : (f64) -> f64
    %r = sparse_array.apply @mul(%p, %n) : (f64, f64) -> f64
    sparse_array.yield %r : f64
  }
  return %a : !m1
}
// CHECK-LABEL: func.func @masked_power_fill_zero
// CHECK: algebra = #sparse_array.algebra<universe>, fill = #sparse_array.scalar<0.0 : f64>
// RULE: remark: kernel: universe, fill 0.0 (declared fill differs from the derived one: universe)
func.func @masked_power_fill_zero(%b: !m0, %c: !m0, %d: !m0) -> !m0 {
  %a = sparse_array.kernel ins(%b, %c, %d : !m0, !m0, !m0) -> !m0 {
  ^bb0(%i: index, %j: index, %B: !m0, %C: !m0, %D: !m0):
    %bij = sparse_array.access %B[%i, %j] : !m0
    %cij = sparse_array.access %C[%i, %j] : !m0
    %dij = sparse_array.access %D[%i, %j] : !m0
    %p = sparse_array.apply @power(%bij, %cij) : (f64, f64) -> f64
    %n = sparse_array.apply @not(%dij) : (f64) -> f64
    %r = sparse_array.apply @mul(%p, %n) : (f64, f64) -> f64
    sparse_array.yield %r : f64
  }
  return %a : !m0
}

// -----

#two = #sparse_array.format<[compressed], fill = 2 : i64>
#ten = #sparse_array.format<[compressed], fill = 10 : i64>
#kilo = #sparse_array.format<[compressed], fill = 1024 : i64>
!v2 = !sparse_array.array<8xi64, #two>
!v10 = !sparse_array.array<8xi64, #ten>
!vk = !sparse_array.array<8xi64, #kilo>
// No properties at all: x^n by repeated multiplication in a loop.
sparse_array.func @ipow(%x: i64, %n: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %c1) -> i64 : i64 {
    %m = arith.muli %acc, %x : i64
    scf.yield %m : i64
  }
  sparse_array.yield %r : i64
}
// Fallback: union, fill inferred through the loop: 2^10 = 1024.
// CHECK-LABEL: func.func @fill_through_loop
// CHECK: algebra = #sparse_array.algebra<union(0, 1)>, fill = #sparse_array.scalar<1024 : i64>
func.func @fill_through_loop(%x: !v2, %n: !v10) -> !vk {
  %r = sparse_array.kernel ins(%x, %n : !v2, !v10) -> !vk {
  ^bb0(%i: index, %X: !v2, %N: !v10):
    %xi = sparse_array.access %X[%i] : !v2
    %ni = sparse_array.access %N[%i] : !v10
    %p = sparse_array.apply @ipow(%xi, %ni) : (i64, i64) -> i64
    sparse_array.yield %p : i64
  }
  return %r : !vk
}

// -----

#sv = #sparse_array.format<[compressed]>
#minus = #sparse_array.format<[compressed], fill = -2147483648 : i32>
!v = !sparse_array.array<8xi32, #sv>
!vmin = !sparse_array.array<8xi32, #minus>
sparse_array.func @sub(%x: i32, %y: i32) -> i32 {
  %r = arith.subi %x, %y : i32
  sparse_array.yield %r : i32
}
sparse_array.func @sdiv(%x: i32, %y: i32) -> i32 {
  %r = arith.divsi %x, %y : i32
  sparse_array.yield %r : i32
}
// Exact integer semantics: 0 - INT_MIN wraps to INT_MIN.
// CHECK-LABEL: func.func @fill_wraps_around
// CHECK: algebra = #sparse_array.algebra<union(0, 1)>, fill = #sparse_array.scalar<-2147483648 : i32>
func.func @fill_wraps_around(%a: !v, %b: !vmin) -> !vmin {
  %r = sparse_array.kernel ins(%a, %b : !v, !vmin) -> !vmin {
  ^bb0(%i: index, %A: !v, %B: !vmin):
    %ai = sparse_array.access %A[%i] : !v
    %bi = sparse_array.access %B[%i] : !vmin
    %d = sparse_array.apply @sub(%ai, %bi) : (i32, i32) -> i32
    sparse_array.yield %d : i32
  }
  return %r : !vmin
}
// 0 / 0 has no value: nothing can be skipped.
// CHECK-LABEL: func.func @fill_undefined
// CHECK: algebra = #sparse_array.algebra<universe>, fill = #sparse_array.scalar<0 : i32>
// RULE: remark: universe, fill unknown (universe)
func.func @fill_undefined(%a: !v, %b: !v) -> !v {
  %r = sparse_array.kernel ins(%a, %b : !v, !v) -> !v {
  ^bb0(%i: index, %A: !v, %B: !v):
    %ai = sparse_array.access %A[%i] : !v
    %bi = sparse_array.access %B[%i] : !v
    %q = sparse_array.apply @sdiv(%ai, %bi) : (i32, i32) -> i32
    sparse_array.yield %q : i32
  }
  return %r : !v
}

// -----

#zero = #sparse_array.format<[compressed], fill = 0.0 : f64>
!vzero = !sparse_array.array<8xf64, #zero>
sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
// Constants are "never defined": add(a, 3) iterates a, fill 0 + 3 = 3.
// The declared identity is -0.0, not the +0.0 fill, so the fill comes from
// evaluation.
// CHECK-LABEL: func.func @add_constant
// CHECK: algebra = #sparse_array.algebra<0>, fill = #sparse_array.scalar<3.0 : f64>
func.func @add_constant(%a: !vzero) -> !sparse_array.array<8xf64, #sparse_array.format<[compressed], fill = 3.0 : f64>> {
  %r = sparse_array.kernel ins(%a : !vzero) -> !sparse_array.array<8xf64, #sparse_array.format<[compressed], fill = 3.0 : f64>> {
  ^bb0(%i: index, %A: !vzero):
    %ai = sparse_array.access %A[%i] : !vzero
    %c = arith.constant 3.0 : f64
    %s = sparse_array.apply @add(%ai, %c) : (f64, f64) -> f64
    sparse_array.yield %s : f64
  }
  return %r : !sparse_array.array<8xf64, #sparse_array.format<[compressed], fill = 3.0 : f64>>
}
// Row sums of a matrix with fill 0: the sum of fills is 0 + 0 + ... = 0.
// CHECK-LABEL: func.func @row_sum
// CHECK: algebra = #sparse_array.algebra<0>, fill = #sparse_array.scalar<0.0 : f64>
// RULE: remark: 0, fill 0.0 (reduction by evaluation)
func.func @row_sum(%m: !sparse_array.array<4x8xf64, #sparse_array.format<[dense, compressed]>>) -> !sparse_array.array<4xf64> {
  %r = sparse_array.kernel ins(%m : !sparse_array.array<4x8xf64, #sparse_array.format<[dense, compressed]>>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %j: index, %M: !sparse_array.array<4x8xf64, #sparse_array.format<[dense, compressed]>>):
    %mij = sparse_array.access %M[%i, %j] : !sparse_array.array<4x8xf64, #sparse_array.format<[dense, compressed]>>
    %s = sparse_array.reduce_over [%j] %mij with @add : f64
    sparse_array.yield %s : f64
  }
  return %r : !sparse_array.array<4xf64>
}
// Row sums with fill 1 count the implicit entries: all-fill rows sum to 8.
// CHECK-LABEL: func.func @row_sum_fill_one
// CHECK: algebra = #sparse_array.algebra<0>, fill = #sparse_array.scalar<8.0 : f64>
func.func @row_sum_fill_one(%m: !sparse_array.array<4x8xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>>) -> !sparse_array.array<4xf64, #sparse_array.format<[compressed], fill = 8.0 : f64>> {
  %r = sparse_array.kernel ins(%m : !sparse_array.array<4x8xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>>) -> !sparse_array.array<4xf64, #sparse_array.format<[compressed], fill = 8.0 : f64>> {
  ^bb0(%i: index, %j: index, %M: !sparse_array.array<4x8xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>>):
    %mij = sparse_array.access %M[%i, %j] : !sparse_array.array<4x8xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>>
    %s = sparse_array.reduce_over [%j] %mij with @add : f64
    sparse_array.yield %s : f64
  }
  return %r : !sparse_array.array<4xf64, #sparse_array.format<[compressed], fill = 8.0 : f64>>
}

// -----

// Fill values are bits (docs/README.md): -x over a vector with fill NaN has
// fill -NaN (another sign bit), not the declared fill NaN, so every point
// is computed (the result stores the -NaNs); a declared -nan keeps the
// input's sparsity.
#nan = #sparse_array.format<[compressed], fill = nan : f64>
!vnan = !sparse_array.array<8xf64, #nan>
sparse_array.func @negate(%x: f64) -> f64 {
  %r = arith.negf %x : f64
  sparse_array.yield %r : f64
}
// CHECK-LABEL: func.func @nan_fills_differ
// CHECK: algebra = #sparse_array.algebra<universe>, fill = #sparse_array.scalar<nan : f64>
func.func @nan_fills_differ(%a: !vnan) -> !vnan {
  %r = sparse_array.kernel ins(%a : !vnan) -> !vnan {
  ^bb0(%i: index, %A: !vnan):
    %x = sparse_array.access %A[%i] : !vnan
    %y = sparse_array.apply @negate(%x) : (f64) -> f64
    sparse_array.yield %y : f64
  }
  return %r : !vnan
}
#negnan = #sparse_array.format<[compressed], fill = 0xFFF8000000000000 : f64>
!vnegnan = !sparse_array.array<8xf64, #negnan>
// CHECK-LABEL: func.func @negated_nan_fill
// CHECK: algebra = #sparse_array.algebra<0>, fill = #sparse_array.scalar<0xFFF8000000000000 : f64>
func.func @negated_nan_fill(%a: !vnan) -> !vnegnan {
  %r = sparse_array.kernel ins(%a : !vnan) -> !vnegnan {
  ^bb0(%i: index, %A: !vnan):
    %x = sparse_array.access %A[%i] : !vnan
    %y = sparse_array.apply @negate(%x) : (f64) -> f64
    sparse_array.yield %y : f64
  }
  return %r : !vnegnan
}
