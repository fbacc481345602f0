// RUN: sa-opt %s -split-input-file -verify-diagnostics --sparse-array-check-properties
// RUN: sa-opt %s -split-input-file --sparse-array-check-properties=warn-only 2>&1 | FileCheck %s --check-prefix=WARN
// Planted false properties, each reported with a counterexample found by
// evaluating the body exactly. True properties pass silently.

// The classic: 0 is not an annihilator of floating-point multiplication.
// (x86's default NaN: the machine's 0 * inf.)
// expected-error@+1 {{property 'annihilator 0.0' of @fmul does not hold: @fmul(0.0, inf) = 0xFFF8000000000000, expected 0.0}}
sparse_array.func @fmul(%x: f64, %y: f64) -> f64
    attributes {commutative, annihilator = #sparse_array.annihilator<0.0 : f64>,
                identity = #sparse_array.identity<1.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
// WARN: warning: property 'annihilator 0.0' of @fmul does not hold

// -----

// expected-error@+1 {{property 'commutative' of @sub does not hold: @sub(1, 0) = 1 but @sub(0, 1) = -1}}
sparse_array.func @sub(%x: i64, %y: i64) -> i64 attributes {commutative} {
  %r = arith.subi %x, %y : i64
  sparse_array.yield %r : i64
}

// -----

// expected-error@+1 {{property 'associative' of @fadd does not hold}}
sparse_array.func @fadd(%x: f64, %y: f64) -> f64 attributes {associative} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}

// -----

// expected-error@+1 {{property 'idempotent' of @add does not hold: @add(1, 1) = 2, expected 1}}
sparse_array.func @add(%x: i64, %y: i64) -> i64 attributes {idempotent} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}

// -----

// expected-error@+1 {{property 'identity 0.0' of @fadd does not hold: @fadd(0.0, -0.0) = 0.0, expected -0.0}}
sparse_array.func @fadd(%x: f64, %y: f64) -> f64
    attributes {identity = #sparse_array.identity<0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}

// -----

// Identity at the wrong position: 1 / y is not y.
// expected-error@+1 {{property 'identity 1.0' of @div does not hold: @div(1.0, 0.0) = inf, expected 0.0}}
sparse_array.func @div(%x: f64, %y: f64) -> f64
    attributes {identity = #sparse_array.identity<1.0 : f64, positions = [0]>} {
  %r = arith.divf %x, %y : f64
  sparse_array.yield %r : f64
}

// -----

sparse_array.func @max(%x: i64, %y: i64) -> i64 {
  %r = arith.maxsi %x, %y : i64
  sparse_array.yield %r : i64
}
// Multiplication does not distribute over max for negative factors.
// expected-error@+1 {{property 'distributes_over @max' of @mul does not hold}}
sparse_array.func @mul(%x: i64, %y: i64) -> i64 attributes {distributes_over = [@max]} {
  %r = arith.muli %x, %y : i64
  sparse_array.yield %r : i64
}

// -----

// An or is not an intersection: or(1, 0) is defined where only x is.
// expected-error@+1 {{property 'algebra intersect(0, 1)' of @or does not hold: @or(1, 0) = 1 outside the algebra, where the result must be 0}}
sparse_array.func @or(%x: i1, %y: i1) -> i1
    attributes {algebra = #sparse_array.algebra<intersect(0, 1), fills = [0 : i1, 0 : i1]>} {
  %r = arith.ori %x, %y : i1
  sparse_array.yield %r : i1
}

// -----

// A case body that disagrees with the general body: |x| + 1 is not gcd(x, 0).
// expected-error@+1 {{property 'case [0]' of @gcd does not hold: the case gives 2 for @gcd(1, 0) but the body gives 1}}
sparse_array.func @gcd(%x: i64, %y: i64) -> i64 {
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
  %one = arith.constant 1 : i64
  %b = arith.addi %a, %one : i64
  sparse_array.yield %b : i64
}

// -----

// True properties, including unsigned semantics and undefined inputs
// (x / 0) that are skipped.
sparse_array.func @div_u8(%x: i8, %y: i8) -> i8
    attributes {annihilator = #sparse_array.annihilator<0 : i8, positions = [0]>,
                identity = #sparse_array.identity<1 : i8, positions = [1]>} {
  %r = arith.divui %x, %y : i8
  sparse_array.yield %r : i8
}
sparse_array.func @max(%x: f32, %y: f32) -> f32
    attributes {commutative, associative, idempotent,
                identity = #sparse_array.identity<-inf : f32>} {
  %r = arith.maximumf %x, %y : f32
  sparse_array.yield %r : f32
}

// -----

// Narrow integers (issue 14): random samples are truncated to the width;
// untruncated ones reported "@add(2052932740, 0) = 2052932740 but
// @add(0, 2052932740) = 2052932740" for true properties.
sparse_array.func @add_i8(%x: i8, %y: i8) -> i8
    attributes {commutative, associative, identity = #sparse_array.identity<0 : i8>} {
  %r = arith.addi %x, %y : i8
  sparse_array.yield %r : i8
}
sparse_array.func @add_i32(%x: i32, %y: i32) -> i32
    attributes {commutative, associative, identity = #sparse_array.identity<0 : i32>} {
  %r = arith.addi %x, %y : i32
  sparse_array.yield %r : i32
}
sparse_array.func @max_i16(%x: i16, %y: i16) -> i16
    attributes {commutative, associative, idempotent,
                identity = #sparse_array.identity<-32768 : i16>,
                annihilator = #sparse_array.annihilator<32767 : i16>} {
  %r = arith.maxsi %x, %y : i16
  sparse_array.yield %r : i16
}
