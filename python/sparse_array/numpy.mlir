// Functions with NumPy's exact semantics where they differ from the standard
// library's (stdlib/std.mlir), prepended to every program of the Python
// package. Properties declared exactly, as checked by
//   sa-opt python/sparse_array/numpy.mlir --sparse-array-check-properties

// np.minimum / np.maximum of floats: NaN propagates; of two equal values
// (+0.0 and -0.0) the second is the result — not IEEE's minimum (-0.0 <
// +0.0), hence not commutative. Folds of them are still associative.
sparse_array.func @np_minimum_f64(%x: f64, %y: f64) -> f64
    attributes {associative, idempotent,
                identity = #sparse_array.identity<inf : f64>} {
  %lt = arith.cmpf olt, %x, %y : f64
  %nan = arith.cmpf uno, %x, %x : f64
  %first = arith.ori %lt, %nan : i1
  %r = arith.select %first, %x, %y : f64
  sparse_array.yield %r : f64
}

sparse_array.func @np_maximum_f64(%x: f64, %y: f64) -> f64
    attributes {associative, idempotent,
                identity = #sparse_array.identity<-inf : f64>} {
  %gt = arith.cmpf ogt, %x, %y : f64
  %nan = arith.cmpf uno, %x, %x : f64
  %first = arith.ori %gt, %nan : i1
  %r = arith.select %first, %x, %y : f64
  sparse_array.yield %r : f64
}

// np.fmax / np.fmin of floats: NaN only when both are (then the first);
// otherwise the larger (smaller) number, of two equal values (+0.0 and
// -0.0) the second, as NumPy's loops compute them. No identity: -inf is
// not one, fmax(-inf, NaN) is -inf.
sparse_array.func @np_fmax_f64(%x: f64, %y: f64) -> f64
    attributes {associative, idempotent} {
  %gt = arith.cmpf ogt, %x, %y : f64
  %nan = arith.cmpf uno, %y, %y : f64
  %first = arith.ori %gt, %nan : i1
  %r = arith.select %first, %x, %y : f64
  sparse_array.yield %r : f64
}

sparse_array.func @np_fmin_f64(%x: f64, %y: f64) -> f64
    attributes {associative, idempotent} {
  %lt = arith.cmpf olt, %x, %y : f64
  %nan = arith.cmpf uno, %y, %y : f64
  %first = arith.ori %lt, %nan : i1
  %r = arith.select %first, %x, %y : f64
  sparse_array.yield %r : f64
}

// np.gcd of int64: Euclid on the magnitudes as unsigned numbers (so that
// gcd(INT64_MIN, 7) = 1), the result's bits as int64.
sparse_array.func @np_gcd_i64(%x: i64, %y: i64) -> i64
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
    %m = arith.remui %b, %a : i64
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

// np.ldexp with an int64 exponent array (the standard library's ldexp_f64
// takes i32): the same exact scaling in steps; exponents beyond +-2200
// saturate every finite double already, so clamping them is exact.
sparse_array.func @np_ldexp_f64(%x: f64, %e: i64) -> f64
    attributes {annihilator = #sparse_array.annihilator<0.0 : f64, positions = [0]>,
                identity = #sparse_array.identity<0 : i64, positions = [1]>} {
  %hi = arith.constant 2200 : i64
  %lo = arith.constant -2200 : i64
  %clampHi = arith.minsi %e, %hi : i64
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
