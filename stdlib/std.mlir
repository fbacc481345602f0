// The sparse_array standard library: scalar functions with their algebraic
// properties, declared exactly (every property holds for every input,
// NaN, ±inf, -0.0 and integer wrap-around included), as checked by
//   sa-opt stdlib/std.mlir --sparse-array-check-properties
//
// Exactness has consequences worth knowing:
// - f64 add has identity -0.0 (0.0 + -0.0 = 0.0, so 0.0 is not an
//   identity) and is not associative (rounding);
// - f64 mul has no annihilator 0.0 (0 * inf = nan, 0 * -1 = -0.0): a product
//   of sparse operands is not an intersection unless the data is known to be
//   finite; the derivation then falls back to a union with fill 0 * 0 = 0;
// - NaN-propagating min/max (arith.minimumf/maximumf) have identities ±inf
//   but no annihilator (max(inf, nan) = nan).
// Integer functions have the usual ring/lattice properties.

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

sparse_array.func @add_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}

sparse_array.func @add_i64(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}

sparse_array.func @sub_f64(%x: f64, %y: f64) -> f64
    attributes {identity = #sparse_array.identity<0.0 : f64, positions = [1]>} {
  %r = arith.subf %x, %y : f64
  sparse_array.yield %r : f64
}

sparse_array.func @sub_i64(%x: i64, %y: i64) -> i64
    attributes {identity = #sparse_array.identity<0 : i64, positions = [1]>} {
  %r = arith.subi %x, %y : i64
  sparse_array.yield %r : i64
}

sparse_array.func @mul_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<1.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}

sparse_array.func @mul_i64(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, distributes_over = [@add_i64],
                annihilator = #sparse_array.annihilator<0 : i64>,
                identity = #sparse_array.identity<1 : i64>} {
  %r = arith.muli %x, %y : i64
  sparse_array.yield %r : i64
}

sparse_array.func @div_f64(%x: f64, %y: f64) -> f64
    attributes {identity = #sparse_array.identity<1.0 : f64, positions = [1]>} {
  %r = arith.divf %x, %y : f64
  sparse_array.yield %r : f64
}

// Signed division; division by zero has no value (the checker skips it).
sparse_array.func @div_i64(%x: i64, %y: i64) -> i64
    attributes {annihilator = #sparse_array.annihilator<0 : i64, positions = [0]>,
                identity = #sparse_array.identity<1 : i64, positions = [1]>} {
  %r = arith.divsi %x, %y : i64
  sparse_array.yield %r : i64
}

// Unsigned interpretation of the same bits.
sparse_array.func @div_u64(%x: i64, %y: i64) -> i64
    attributes {annihilator = #sparse_array.annihilator<0 : i64, positions = [0]>,
                identity = #sparse_array.identity<1 : i64, positions = [1]>} {
  %r = arith.divui %x, %y : i64
  sparse_array.yield %r : i64
}

// x^0 = 1 for every x (NaN included): with both fills 0 the result's fill
// is 1 and only the exponent's stored entries can differ from it.
sparse_array.func @pow_f64(%x: f64, %y: f64) -> f64
    attributes {identity = #sparse_array.identity<1.0 : f64, positions = [1]>,
                algebra = #sparse_array.algebra<1, fills = [0.0 : f64, 0.0 : f64]>} {
  %r = math.powf %x, %y : f64
  sparse_array.yield %r : f64
}

// ldexp(x, e) = x * 2^e, scaling by exact powers of two in steps so that
// large |e| neither overflows early nor loses the result. |e| beyond 2200
// takes every finite double to 0 or inf already, so e is clamped there.
sparse_array.func @ldexp_f64(%x: f64, %e: i32) -> f64
    attributes {annihilator = #sparse_array.annihilator<0.0 : f64, positions = [0]>,
                identity = #sparse_array.identity<0 : i32, positions = [1]>} {
  %wide = arith.extsi %e : i32 to i64
  %hi = arith.constant 2200 : i64
  %lo = arith.constant -2200 : i64
  %clampHi = arith.minsi %wide, %hi : i64
  %e64 = arith.maxsi %clampHi, %lo : i64
  %c0 = arith.constant 0 : i64
  %cmax = arith.constant 1023 : i64
  %cmin = arith.constant -1022 : i64
  %bias = arith.constant 1023 : i64
  %c52 = arith.constant 52 : i64
  %r:2 = scf.while (%v = %x, %rest = %e64) : (f64, i64) -> (f64, i64) {
    %more = arith.cmpi ne, %rest, %c0 : i64
    scf.condition(%more) %v, %rest : f64, i64
  } do {
  ^bb0(%v: f64, %rest: i64):
    %up = arith.minsi %rest, %cmax : i64
    %k = arith.maxsi %up, %cmin : i64
    %biased = arith.addi %k, %bias : i64
    %bits = arith.shli %biased, %c52 : i64
    %scale = arith.bitcast %bits : i64 to f64
    %next = arith.mulf %v, %scale : f64
    %left = arith.subi %rest, %k : i64
    scf.yield %next, %left : f64, i64
  }
  sparse_array.yield %r#0 : f64
}

//===----------------------------------------------------------------------===//
// Order
//===----------------------------------------------------------------------===//

sparse_array.func @min_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, idempotent,
                identity = #sparse_array.identity<inf : f64>} {
  %r = arith.minimumf %x, %y : f64
  sparse_array.yield %r : f64
}

sparse_array.func @max_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, idempotent,
                identity = #sparse_array.identity<-inf : f64>} {
  %r = arith.maximumf %x, %y : f64
  sparse_array.yield %r : f64
}

sparse_array.func @min_i64(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, idempotent,
                annihilator = #sparse_array.annihilator<-9223372036854775808 : i64>,
                identity = #sparse_array.identity<9223372036854775807 : i64>} {
  %r = arith.minsi %x, %y : i64
  sparse_array.yield %r : i64
}

sparse_array.func @max_i64(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, idempotent,
                annihilator = #sparse_array.annihilator<9223372036854775807 : i64>,
                identity = #sparse_array.identity<-9223372036854775808 : i64>} {
  %r = arith.maxsi %x, %y : i64
  sparse_array.yield %r : i64
}

// Unsigned maximum of the same bits.
sparse_array.func @max_u64(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, idempotent,
                annihilator = #sparse_array.annihilator<-1 : i64>,
                identity = #sparse_array.identity<0 : i64>} {
  %r = arith.maxui %x, %y : i64
  sparse_array.yield %r : i64
}

//===----------------------------------------------------------------------===//
// Logic and bits
//===----------------------------------------------------------------------===//

sparse_array.func @and_i1(%x: i1, %y: i1) -> i1
    attributes {commutative, associative, idempotent, distributes_over = [@or_i1],
                annihilator = #sparse_array.annihilator<0 : i1>,
                identity = #sparse_array.identity<1 : i1>} {
  %r = arith.andi %x, %y : i1
  sparse_array.yield %r : i1
}

sparse_array.func @or_i1(%x: i1, %y: i1) -> i1
    attributes {commutative, associative, idempotent, distributes_over = [@and_i1],
                annihilator = #sparse_array.annihilator<1 : i1>,
                identity = #sparse_array.identity<0 : i1>} {
  %r = arith.ori %x, %y : i1
  sparse_array.yield %r : i1
}

// Symmetric difference: defined where exactly one side is (seed 000 Fig. 15).
sparse_array.func @xor_i1(%x: i1, %y: i1) -> i1
    attributes {commutative, associative, identity = #sparse_array.identity<0 : i1>,
                algebra = #sparse_array.algebra<intersect(union(0, 1), complement(intersect(0, 1))),
                                                fills = [0 : i1, 0 : i1]>} {
  %r = arith.xori %x, %y : i1
  sparse_array.yield %r : i1
}

sparse_array.func @and_i64(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, idempotent, distributes_over = [@or_i64],
                annihilator = #sparse_array.annihilator<0 : i64>,
                identity = #sparse_array.identity<-1 : i64>} {
  %r = arith.andi %x, %y : i64
  sparse_array.yield %r : i64
}

sparse_array.func @or_i64(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, idempotent, distributes_over = [@and_i64],
                annihilator = #sparse_array.annihilator<-1 : i64>,
                identity = #sparse_array.identity<0 : i64>} {
  %r = arith.ori %x, %y : i64
  sparse_array.yield %r : i64
}

sparse_array.func @xor_i64(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.xori %x, %y : i64
  sparse_array.yield %r : i64
}

// Shifts by s outside [0, 64) give what shifting one bit at a time would:
// 0 to the left; the sign to the right.
sparse_array.func @left_shift_i64(%x: i64, %s: i64) -> i64
    attributes {annihilator = #sparse_array.annihilator<0 : i64, positions = [0]>,
                identity = #sparse_array.identity<0 : i64, positions = [1]>} {
  %c64 = arith.constant 64 : i64
  %inRange = arith.cmpi ult, %s, %c64 : i64
  %r = scf.if %inRange -> i64 {
    %v = arith.shli %x, %s : i64
    scf.yield %v : i64
  } else {
    %z = arith.constant 0 : i64
    scf.yield %z : i64
  }
  sparse_array.yield %r : i64
}

sparse_array.func @right_shift_i64(%x: i64, %s: i64) -> i64
    attributes {annihilator = #sparse_array.annihilator<0 : i64, positions = [0]>,
                identity = #sparse_array.identity<0 : i64, positions = [1]>} {
  %c64 = arith.constant 64 : i64
  %inRange = arith.cmpi ult, %s, %c64 : i64
  %r = scf.if %inRange -> i64 {
    %v = arith.shrsi %x, %s : i64
    scf.yield %v : i64
  } else {
    %c63 = arith.constant 63 : i64
    %sign = arith.shrsi %x, %c63 : i64
    scf.yield %sign : i64
  }
  sparse_array.yield %r : i64
}

//===----------------------------------------------------------------------===//
// Number theory
//===----------------------------------------------------------------------===//

// Greatest common divisor (seed 000 Fig. 5): non-zero only where an
// argument is, and cheap when only one is.
// Not associative and 0 is not an identity, because of signs and INT_MIN:
// gcd(0, -1) = 1 (the checker finds both).
sparse_array.func @gcd_i64(%x: i64, %y: i64) -> i64
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
} case [0] {
^bb0(%x: i64, %y: i64):
  %a = math.absi %x : i64
  sparse_array.yield %a : i64
} case [1] {
^bb0(%x: i64, %y: i64):
  %a = math.absi %y : i64
  sparse_array.yield %a : i64
}
