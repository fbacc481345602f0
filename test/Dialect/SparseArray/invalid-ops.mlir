// RUN: sa-opt %s -split-input-file -verify-diagnostics
// One case per diagnostic of functions, kernels and array-level ops.

//===----------------------------------------------------------------------===//
// sparse_array.func
//===----------------------------------------------------------------------===//

// expected-error@+1 {{'sparse_array.func' op must return exactly one scalar, got 2 results}}
sparse_array.func @two_results(%x: i64) -> (i64, i64) {
  sparse_array.yield %x : i64
}

// -----

// expected-error@+1 {{'sparse_array.func' op needs at least one argument}}
sparse_array.func @no_arguments() -> i64 {
  %c = arith.constant 1 : i64
  sparse_array.yield %c : i64
}

// -----

// expected-error@+1 {{'sparse_array.func' op arguments and result must be scalars of an array element type, got 'index'}}
sparse_array.func @index_argument(%x: index) -> i64 {
  %c = arith.constant 1 : i64
  sparse_array.yield %c : i64
}

// -----

// expected-error@+1 {{'sparse_array.func' op commutative needs at least two arguments}}
sparse_array.func @commutative_unary(%x: i64) -> i64 attributes {commutative} {
  sparse_array.yield %x : i64
}

// -----

// expected-error@+1 {{'sparse_array.func' op commutative needs all arguments of one type}}
sparse_array.func @commutative_mixed(%x: f64, %e: i32) -> f64 attributes {commutative} {
  sparse_array.yield %x : f64
}

// -----

// expected-error@+1 {{'sparse_array.func' op associative needs type (T, T) -> T, got '(f64, f64, f64) -> f64'}}
sparse_array.func @associative_ternary(%x: f64, %y: f64, %z: f64) -> f64 attributes {associative} {
  sparse_array.yield %x : f64
}

// -----

// expected-error@+1 {{'sparse_array.func' op idempotent needs two or more arguments of the result type (f(x, ..., x) = x), got '(f64) -> f64'}}
sparse_array.func @idempotent_unary(%x: f64) -> f64 attributes {idempotent} {
  sparse_array.yield %x : f64
}

// -----

// expected-error@+1 {{'sparse_array.func' op annihilator value has type 'i32' but the result has type 'i64'}}
sparse_array.func @annihilator_wrong_type(%x: i64, %y: i64) -> i64
    attributes {annihilator = #sparse_array.annihilator<0 : i32>} {
  sparse_array.yield %x : i64
}

// -----

// expected-error@+1 {{'sparse_array.func' op annihilator position 2 is out of range for 2 arguments}}
sparse_array.func @annihilator_position_range(%x: i64, %y: i64) -> i64
    attributes {annihilator = #sparse_array.annihilator<0 : i64, positions = [2]>} {
  sparse_array.yield %x : i64
}

// -----

// ldexp(x, e): 0.0 annihilates at x only; at e it would need type i32.
// expected-error@+1 {{'sparse_array.func' op annihilator value has type 'f64' but argument 1 has type 'i32'}}
sparse_array.func @annihilator_argument_type(%x: f64, %e: i32) -> f64
    attributes {annihilator = #sparse_array.annihilator<0.0 : f64>} {
  sparse_array.yield %x : f64
}

// -----

// A property spelled as a bare value would be dropped silently.
// expected-error@+1 {{'identity' must be written #sparse_array.identity<value>, got 0.000000e+00 : f64}}
sparse_array.func @bare_identity(%x: f64, %y: f64) -> f64 attributes {identity = 0.0 : f64} {
  sparse_array.yield %x : f64
}

// -----

// expected-error@+1 {{'annihilator' must be written #sparse_array.annihilator<value>, got 0.000000e+00 : f64}}
sparse_array.func @bare_annihilator(%x: f64, %y: f64) -> f64 attributes {annihilator = 0.0 : f64} {
  sparse_array.yield %x : f64
}

// -----

// expected-error@+1 {{'sparse_array.func' op identity needs a binary function, got 3 arguments}}
sparse_array.func @identity_ternary(%x: f64, %y: f64, %z: f64) -> f64
    attributes {identity = #sparse_array.identity<0.0 : f64>} {
  sparse_array.yield %x : f64
}

// -----

// expected-error@+1 {{'sparse_array.func' op identity value has type 'f32' but argument 0 has type 'f64'}}
sparse_array.func @identity_wrong_type(%x: f64, %y: f64) -> f64
    attributes {identity = #sparse_array.identity<0.0 : f32>} {
  sparse_array.yield %x : f64
}

// -----

// ldexp(x, 0) = x: identity 0 at position 1 returns argument 0 (f64) -- fine;
// at position 0 it would return the i32 argument.
// expected-error@+1 {{'sparse_array.func' op identity at position 0 returns argument 1, whose type 'i32' is not the result type 'f64'}}
sparse_array.func @identity_returns_wrong_type(%x: i32, %e: i32) -> f64
    attributes {identity = #sparse_array.identity<0 : i32, positions = [0]>} {
  %r = arith.sitofp %x : i32 to f64
  sparse_array.yield %r : f64
}

// -----

// expected-error@+1 {{'sparse_array.func' op algebra names argument 2 but the function has 2 arguments}}
sparse_array.func @algebra_unknown_argument(%x: i1, %y: i1) -> i1
    attributes {algebra = #sparse_array.algebra<union(0, 2), fills = [0 : i1, 0 : i1]>} {
  sparse_array.yield %x : i1
}

// -----

// expected-error@+1 {{'sparse_array.func' op algebra must give the assumed fill value of each of the 2 arguments, got 1}}
sparse_array.func @algebra_missing_fill(%x: i1, %y: i1) -> i1
    attributes {algebra = #sparse_array.algebra<union(0, 1), fills = [0 : i1]>} {
  sparse_array.yield %x : i1
}

// -----

// expected-error@+1 {{'sparse_array.func' op algebra assumes a fill of type 'i64' for argument 1 of type 'i1'}}
sparse_array.func @algebra_fill_type(%x: i1, %y: i1) -> i1
    attributes {algebra = #sparse_array.algebra<union(0, 1), fills = [0 : i1, 0 : i64]>} {
  sparse_array.yield %x : i1
}

// -----

// expected-error@+1 {{'sparse_array.func' op has 1 case regions but 0 case argument sets}}
"sparse_array.func"() <{function_type = (i64) -> i64, sym_name = "case_without_set"}> ({
^bb0(%x: i64):
  "sparse_array.yield"(%x) : (i64) -> ()
}, {
^bb0(%x: i64):
  "sparse_array.yield"(%x) : (i64) -> ()
}) : () -> ()

// -----

// expected-error@+1 {{'sparse_array.func' op case 0 names argument 2, which is not one of the 2 arguments}}
sparse_array.func @case_unknown_argument(%x: i64, %y: i64) -> i64 {
  sparse_array.yield %x : i64
} case [2] {
^bb0(%x: i64, %y: i64):
  sparse_array.yield %x : i64
}

// -----

// expected-error@+1 {{'sparse_array.func' op case 0 lists argument 1 twice}}
sparse_array.func @case_duplicate_argument(%x: i64, %y: i64) -> i64 {
  sparse_array.yield %x : i64
} case [1, 1] {
^bb0(%x: i64, %y: i64):
  sparse_array.yield %x : i64
}

// -----

// expected-error@+1 {{'sparse_array.func' op cases 0 and 1 are for the same arguments}}
sparse_array.func @cases_same_arguments(%x: i64, %y: i64) -> i64 {
  sparse_array.yield %x : i64
} case [0, 1] {
^bb0(%x: i64, %y: i64):
  sparse_array.yield %x : i64
} case [1, 0] {
^bb0(%x: i64, %y: i64):
  sparse_array.yield %y : i64
}

// -----

// expected-error@+1 {{'sparse_array.func' op body must not be empty}}
sparse_array.func @declaration(%x: i64) -> i64

// -----

// expected-error@+1 {{'sparse_array.func' op case 0 arguments must match the signature}}
sparse_array.func @case_wrong_arguments(%x: i64, %y: i64) -> i64 {
  sparse_array.yield %x : i64
} case [0] {
^bb0(%x: i64):
  sparse_array.yield %x : i64
}

// -----

sparse_array.func @yield_wrong_type(%x: i64) -> i64 {
  %f = arith.constant 1.0 : f64
  // expected-error@+1 {{'sparse_array.yield' op yields 'f64' but the function returns 'i64'}}
  sparse_array.yield %f : f64
}

// -----

module {
  module @inner {}
  // expected-error@+1 {{'sparse_array.func' op distributes_over takes flat symbol names}}
  sparse_array.func @nested_reference(%x: f64, %y: f64) -> f64
      attributes {distributes_over = [@inner::@f]} {
    sparse_array.yield %x : f64
  }
}

// -----

func.func @not_a_sparse_array_func(%x: f64, %y: f64) -> f64 {
  return %x : f64
}
// expected-error@+1 {{'sparse_array.func' op distributes_over target 'not_a_sparse_array_func' does not name a sparse_array.func}}
sparse_array.func @distributes_over_func(%x: f64, %y: f64) -> f64
    attributes {distributes_over = [@not_a_sparse_array_func]} {
  sparse_array.yield %x : f64
}

// -----

sparse_array.func @add32(%x: f32, %y: f32) -> f32 {
  sparse_array.yield %x : f32
}
// expected-error@+1 {{'sparse_array.func' op distributes over @add32 which must have the same binary type '(f64, f64) -> f64'}}
sparse_array.func @mul64(%x: f64, %y: f64) -> f64
    attributes {distributes_over = [@add32]} {
  sparse_array.yield %x : f64
}

//===----------------------------------------------------------------------===//
// Attributes of functions
//===----------------------------------------------------------------------===//

// -----

// expected-error@+1 {{unknown iteration algebra term 'xor'; expected an operand number, 'union', 'intersect', 'complement', 'universe' or 'empty'}}
sparse_array.func private @algebra_unknown_term(%x: i1, %y: i1) -> i1 attributes {algebra = #sparse_array.algebra<xor(0, 1)>}

// -----

// expected-error@+1 {{'complement' takes one operand, got 2}}
sparse_array.func private @complement_two(%x: i1, %y: i1) -> i1 attributes {algebra = #sparse_array.algebra<complement(0, 1)>}

// -----

// expected-error@+1 {{'union' needs operands}}
sparse_array.func private @union_empty(%x: i1, %y: i1) -> i1 attributes {algebra = #sparse_array.algebra<union()>}

// -----

// expected-error@+1 {{position 1 listed twice}}
sparse_array.func private @position_twice(%x: i64, %y: i64) -> i64 attributes {annihilator = #sparse_array.annihilator<0 : i64, positions = [1, 1]>}

// -----

// expected-error@+1 {{fill value must be an integer or floating-point constant, got "zero"}}
sparse_array.func private @property_not_a_number(%x: i64, %y: i64) -> i64 attributes {identity = #sparse_array.identity<"zero">}

//===----------------------------------------------------------------------===//
// sparse_array.apply
//===----------------------------------------------------------------------===//

// -----

func.func @g(%x: i64) -> i64 {
  return %x : i64
}
sparse_array.func @apply_func_func(%x: i64) -> i64 {
  // expected-error@+1 {{'sparse_array.apply' op function 'g' does not name a sparse_array.func}}
  %r = sparse_array.apply @g(%x) : (i64) -> i64
  sparse_array.yield %r : i64
}

// -----

sparse_array.func @negate(%x: i64) -> i64 {
  sparse_array.yield %x : i64
}
sparse_array.func @apply_wrong_types(%x: i32) -> i64 {
  // expected-error@+1 {{'sparse_array.apply' op operand and result types must match @negate of type '(i64) -> i64'}}
  %r = sparse_array.apply @negate(%x) : (i32) -> i64
  sparse_array.yield %r : i64
}

//===----------------------------------------------------------------------===//
// sparse_array.kernel, access, reduce_over
//===----------------------------------------------------------------------===//

// -----

func.func @kernel_too_few_arguments(%b: !sparse_array.array<4xf64>, %c: !sparse_array.array<4xf64>) {
  // expected-error@+1 {{'sparse_array.kernel' op body must take the index variables followed by one argument per input}}
  %r = sparse_array.kernel ins(%b, %c : !sparse_array.array<4xf64>, !sparse_array.array<4xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%B: !sparse_array.array<4xf64>):
    %z = arith.constant 0.0 : f64
    sparse_array.yield %z : f64
  }
  return
}

// -----

func.func @kernel_lattice_loop(%b: !sparse_array.array<4xf64>) {
  // expected-error@+1 {{'sparse_array.kernel' op has a lattice for loop 1 but only 1 loops}}
  %r = sparse_array.kernel ins(%b : !sparse_array.array<4xf64>) -> !sparse_array.array<4xf64>
      attributes {lattices = [#sparse_array.lattice<loop 1, present [0], coiterate [], points [{U} produce]>]} {
  ^bb0(%i: index, %B: !sparse_array.array<4xf64>):
    %v = sparse_array.access %B[%i] : !sparse_array.array<4xf64>
    sparse_array.yield %v : f64
  }
  return
}

// -----

func.func @kernel_lattice_input(%b: !sparse_array.array<4xf64>) {
  // expected-error@+1 {{'sparse_array.kernel' op has a lattice over input 1 but only 1 inputs}}
  %r = sparse_array.kernel ins(%b : !sparse_array.array<4xf64>) -> !sparse_array.array<4xf64>
      attributes {lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [], points [{U} produce]>]} {
  ^bb0(%i: index, %B: !sparse_array.array<4xf64>):
    %v = sparse_array.access %B[%i] : !sparse_array.array<4xf64>
    sparse_array.yield %v : f64
  }
  return
}

// -----

func.func @kernel_lattice_twice(%b: !sparse_array.array<4xf64>) {
  // expected-error@+1 {{'sparse_array.kernel' op has two lattices for loop 0 with the same inputs present}}
  %r = sparse_array.kernel ins(%b : !sparse_array.array<4xf64>) -> !sparse_array.array<4xf64>
      attributes {lattices = [#sparse_array.lattice<loop 0, present [0], coiterate [], points [{U} produce]>,
                              #sparse_array.lattice<loop 0, present [0], coiterate [], points []>]} {
  ^bb0(%i: index, %B: !sparse_array.array<4xf64>):
    %v = sparse_array.access %B[%i] : !sparse_array.array<4xf64>
    sparse_array.yield %v : f64
  }
  return
}

// -----

func.func @kernel_index_type(%b: !sparse_array.array<4xf64>) {
  // expected-error@+1 {{'sparse_array.kernel' op index variable 0 must have type index}}
  %r = sparse_array.kernel ins(%b : !sparse_array.array<4xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: i64, %B: !sparse_array.array<4xf64>):
    %z = arith.constant 0.0 : f64
    sparse_array.yield %z : f64
  }
  return
}

// -----

func.func @kernel_input_type(%b: !sparse_array.array<4xf64>) {
  // expected-error@+1 {{'sparse_array.kernel' op body argument for input 0 must have the input's type '!sparse_array.array<4xf64>'}}
  %r = sparse_array.kernel ins(%b : !sparse_array.array<4xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %B: !sparse_array.array<4xf32>):
    %z = arith.constant 0.0 : f64
    sparse_array.yield %z : f64
  }
  return
}

// -----

func.func @kernel_rank_exceeds_indices(%b: !sparse_array.array<4xf64>) {
  // expected-error@+1 {{'sparse_array.kernel' op the result has rank 2 but only 1 index variables are declared}}
  %r = sparse_array.kernel ins(%b : !sparse_array.array<4xf64>) -> !sparse_array.array<4x4xf64> {
  ^bb0(%i: index, %B: !sparse_array.array<4xf64>):
    %v = sparse_array.access %B[%i] : !sparse_array.array<4xf64>
    sparse_array.yield %v : f64
  }
  return
}

// -----

sparse_array.func @first(%x: f64) -> f64 {
  sparse_array.yield %x : f64
}
func.func @kernel_input_escapes(%b: !sparse_array.array<4xf64>) {
  %r = sparse_array.kernel ins(%b : !sparse_array.array<4xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %B: !sparse_array.array<4xf64>):
    %v = sparse_array.access %B[%i] : !sparse_array.array<4xf64>
    // expected-error@+1 {{'sparse_array.yield' op uses a kernel input other than through sparse_array.access}}
    sparse_array.yield %B : !sparse_array.array<4xf64>
  }
  return
}

// -----

func.func @kernel_two_access_patterns(%a: !sparse_array.array<4x4xf64>) {
  %r = sparse_array.kernel ins(%a : !sparse_array.array<4x4xf64>) -> !sparse_array.array<4x4xf64> {
  ^bb0(%i: index, %j: index, %A: !sparse_array.array<4x4xf64>):
    %v = sparse_array.access %A[%i, %j] : !sparse_array.array<4x4xf64>
    // expected-error@+1 {{'sparse_array.access' op accesses input 0 differently from an earlier access; pass the array once per access pattern}}
    %w = sparse_array.access %A[%j, %i] : !sparse_array.array<4x4xf64>
    sparse_array.yield %v : f64
  }
  return
}

// -----

sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  sparse_array.yield %x : f64
}
func.func @kernel_extent_mismatch(%b: !sparse_array.array<4xf64>, %c: !sparse_array.array<5xf64>) {
  %r = sparse_array.kernel ins(%b, %c : !sparse_array.array<4xf64>, !sparse_array.array<5xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %B: !sparse_array.array<4xf64>, %C: !sparse_array.array<5xf64>):
    %v = sparse_array.access %B[%i] : !sparse_array.array<4xf64>
    // expected-error@+1 {{'sparse_array.access' op index variable 0 ranges over 5 values here but over 4 elsewhere}}
    %w = sparse_array.access %C[%i] : !sparse_array.array<5xf64>
    %s = sparse_array.apply @add(%v, %w) : (f64, f64) -> f64
    sparse_array.yield %s : f64
  }
  return
}

// -----

func.func @kernel_unused_index(%b: !sparse_array.array<4xf64>) {
  // expected-error@+1 {{'sparse_array.kernel' op index variable 1 is not used by any access, so its extent is unknown}}
  %r = sparse_array.kernel ins(%b : !sparse_array.array<4xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %j: index, %B: !sparse_array.array<4xf64>):
    %v = sparse_array.access %B[%i] : !sparse_array.array<4xf64>
    sparse_array.yield %v : f64
  }
  return
}

// -----

func.func @kernel_result_size(%b: !sparse_array.array<4xf64>) {
  // expected-error@+1 {{'sparse_array.kernel' op result dimension 0 has size 3 but its index variable ranges over 4 values}}
  %r = sparse_array.kernel ins(%b : !sparse_array.array<4xf64>) -> !sparse_array.array<3xf64> {
  ^bb0(%i: index, %B: !sparse_array.array<4xf64>):
    %v = sparse_array.access %B[%i] : !sparse_array.array<4xf64>
    sparse_array.yield %v : f64
  }
  return
}

// -----

sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  sparse_array.yield %x : f64
}
func.func @kernel_reduce_dot_without_factors(%b: !sparse_array.array<4xf64>) {
  %r = sparse_array.kernel ins(%b : !sparse_array.array<4xf64>) -> !sparse_array.array<f64> {
  ^bb0(%i: index, %B: !sparse_array.array<4xf64>):
    %v = sparse_array.access %B[%i] : !sparse_array.array<4xf64>
    // expected-error@+1 {{signed_zero_dot needs two different kernel inputs as zero_factor and dense_factor}}
    %s = sparse_array.reduce_over [%i] %v with @add {plan = #sparse_array.reduction<strategy = signed_zero_dot, algebra = #sparse_array.algebra<0>>} : f64
    sparse_array.yield %s : f64
  }
  return
}

// -----

sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  sparse_array.yield %x : f64
}
func.func @kernel_reduce_factors_elsewhere(%b: !sparse_array.array<4xf64>) {
  %r = sparse_array.kernel ins(%b : !sparse_array.array<4xf64>) -> !sparse_array.array<f64> {
  ^bb0(%i: index, %B: !sparse_array.array<4xf64>):
    %v = sparse_array.access %B[%i] : !sparse_array.array<4xf64>
    // expected-error@+1 {{zero_factor, dense_factor and zero_fill_negative belong to signed_zero_dot only}}
    %s = sparse_array.reduce_over [%i] %v with @add {plan = #sparse_array.reduction<strategy = identity, algebra = #sparse_array.algebra<0>, dense_factor = 0>} : f64
    sparse_array.yield %s : f64
  }
  return
}

// -----

sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  sparse_array.yield %x : f64
}
func.func @kernel_reduce_plan_without_algebra(%b: !sparse_array.array<4xf64>) {
  %r = sparse_array.kernel ins(%b : !sparse_array.array<4xf64>) -> !sparse_array.array<f64> {
  ^bb0(%i: index, %B: !sparse_array.array<4xf64>):
    %v = sparse_array.access %B[%i] : !sparse_array.array<4xf64>
    // expected-error@+1 {{strategy identity needs the algebra of the points it visits}}
    %s = sparse_array.reduce_over [%i] %v with @add {plan = #sparse_array.reduction<strategy = identity>} : f64
    sparse_array.yield %s : f64
  }
  return
}

// -----

sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  sparse_array.yield %x : f64
}
func.func @kernel_reduce_plan_input_out_of_range(%b: !sparse_array.array<4xf64>) {
  %r = sparse_array.kernel ins(%b : !sparse_array.array<4xf64>) -> !sparse_array.array<f64> {
  ^bb0(%i: index, %B: !sparse_array.array<4xf64>):
    %v = sparse_array.access %B[%i] : !sparse_array.array<4xf64>
    // expected-error@+1 {{'sparse_array.reduce_over' op plan names kernel input 3, which the kernel does not read}}
    %s = sparse_array.reduce_over [%i] %v with @add {plan = #sparse_array.reduction<strategy = signed_zero_dot, algebra = #sparse_array.algebra<0>, zero_factor = 0, dense_factor = 3>} : f64
    sparse_array.yield %s : f64
  }
  return
}

// -----

sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  sparse_array.yield %x : f64
}
func.func @kernel_reduce_short_range_without_keys(%b: !sparse_array.array<4xf64>) {
  %r = sparse_array.kernel ins(%b : !sparse_array.array<4xf64>) -> !sparse_array.array<f64> {
  ^bb0(%i: index, %B: !sparse_array.array<4xf64>):
    %v = sparse_array.access %B[%i] : !sparse_array.array<4xf64>
    // expected-error@+1 {{key_short_range is a range length of a keyed reduction}}
    %s = sparse_array.reduce_over [%i] %v with @add {plan = #sparse_array.reduction<strategy = identity, algebra = #sparse_array.algebra<0>, key_short_range = 4>} : f64
    sparse_array.yield %s : f64
  }
  return
}

// -----

sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  sparse_array.yield %x : f64
}
func.func @kernel_reduce_unknown_strategy(%b: !sparse_array.array<4xf64>) {
  %r = sparse_array.kernel ins(%b : !sparse_array.array<4xf64>) -> !sparse_array.array<f64> {
  ^bb0(%i: index, %B: !sparse_array.array<4xf64>):
    %v = sparse_array.access %B[%i] : !sparse_array.array<4xf64>
    // expected-error@+2 {{expected ::mlir::sparse_array::ReductionStrategy to be one of: identity, idempotent, reassociate, signed_zero_sum, signed_zero_dot, universe}}
    // expected-error@+1 {{failed to parse SparseArray_ReductionPlanAttr parameter 'strategy'}}
    %s = sparse_array.reduce_over [%i] %v with @add {plan = #sparse_array.reduction<strategy = fast>} : f64
    sparse_array.yield %s : f64
  }
  return
}

// -----

sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  sparse_array.yield %x : f64
}
func.func @kernel_reduce_output_index(%b: !sparse_array.array<4xf64>) {
  %r = sparse_array.kernel ins(%b : !sparse_array.array<4xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %B: !sparse_array.array<4xf64>):
    %v = sparse_array.access %B[%i] : !sparse_array.array<4xf64>
    // expected-error@+1 {{'sparse_array.reduce_over' op reduces over index variable 0, which indexes the result}}
    %s = sparse_array.reduce_over [%i] %v with @add : f64
    sparse_array.yield %s : f64
  }
  return
}

// -----

sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  sparse_array.yield %x : f64
}
func.func @kernel_reduce_from_reduced(%a: !sparse_array.array<4x4xf64>, %b: !sparse_array.array<4xf64>) {
  %r = sparse_array.kernel ins(%a, %b : !sparse_array.array<4x4xf64>, !sparse_array.array<4xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %j: index, %A: !sparse_array.array<4x4xf64>, %B: !sparse_array.array<4xf64>):
    %v = sparse_array.access %A[%i, %j] : !sparse_array.array<4x4xf64>
    %d = sparse_array.access %B[%j] : !sparse_array.array<4xf64>
    // expected-error@+1 {{'sparse_array.reduce_over' op starts from a value of index variable 1, which it reduces over}}
    %s = sparse_array.reduce_over [%j] %v from %d with @add : f64
    sparse_array.yield %s : f64
  }
  return
}

// -----

func.func @kernel_yield_type(%b: !sparse_array.array<4xf64>) {
  %r = sparse_array.kernel ins(%b : !sparse_array.array<4xf64>) -> !sparse_array.array<4xf32> {
  ^bb0(%i: index, %B: !sparse_array.array<4xf64>):
    %v = sparse_array.access %B[%i] : !sparse_array.array<4xf64>
    // expected-error@+1 {{'sparse_array.yield' op yields 'f64' but the result's element type is 'f32'}}
    sparse_array.yield %v : f64
  }
  return
}

// -----

func.func @kernel_unreduced_index(%a: !sparse_array.array<4x4xf64>) {
  %r = sparse_array.kernel ins(%a : !sparse_array.array<4x4xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %j: index, %A: !sparse_array.array<4x4xf64>):
    %v = sparse_array.access %A[%i, %j] : !sparse_array.array<4x4xf64>
    // expected-error@+1 {{'sparse_array.yield' op the result depends on index variable 1, which neither indexes the result nor is reduced}}
    sparse_array.yield %v : f64
  }
  return
}

// -----

func.func @kernel_raw_arith(%b: !sparse_array.array<4xf64>) {
  %r = sparse_array.kernel ins(%b : !sparse_array.array<4xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %B: !sparse_array.array<4xf64>):
    %v = sparse_array.access %B[%i] : !sparse_array.array<4xf64>
    // expected-error@+1 {{'arith.addf' op is not allowed in a kernel body (only sparse_array.access, apply, reduce_over, select_range, arith.constant and yield); wrap scalar code in a sparse_array.func}}
    %w = arith.addf %v, %v : f64
    sparse_array.yield %w : f64
  }
  return
}

// -----

func.func @access_not_input(%b: !sparse_array.array<4xf64>) {
  %r = sparse_array.kernel ins(%b : !sparse_array.array<4xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %B: !sparse_array.array<4xf64>):
    %p = ub.poison : !sparse_array.array<4xf64>
    // expected-error@+1 {{'sparse_array.access' op must access a kernel input (a body argument after the index variables)}}
    %v = sparse_array.access %p[%i] : !sparse_array.array<4xf64>
    sparse_array.yield %v : f64
  }
  return
}

// -----

func.func @access_rank(%a: !sparse_array.array<4x4xf64>) {
  %r = sparse_array.kernel ins(%a : !sparse_array.array<4x4xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %A: !sparse_array.array<4x4xf64>):
    // expected-error@+1 {{'sparse_array.access' op needs 2 index variables for a rank-2 array, got 1}}
    %v = sparse_array.access %A[%i] : !sparse_array.array<4x4xf64>
    sparse_array.yield %v : f64
  }
  return
}

// -----

func.func @access_constant_out_of_range(%b: !sparse_array.array<2xf64>, %c4: !sparse_array.array<4xf64>) {
  %r = sparse_array.kernel ins(%b, %c4 : !sparse_array.array<2xf64>, !sparse_array.array<4xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %B: !sparse_array.array<2xf64>, %C: !sparse_array.array<4xf64>):
    %c = arith.constant 2 : index
    %w = sparse_array.access %C[%i] : !sparse_array.array<4xf64>
    // expected-error@+1 {{'sparse_array.access' op constant index 2 is out of range for dimension 0}}
    %v = sparse_array.access %B[%c] : !sparse_array.array<2xf64>
    sparse_array.yield %v : f64
  }
  return
}

// -----

func.func @access_not_index_variable(%b: !sparse_array.array<4xf64>, %n: index) {
  %r = sparse_array.kernel ins(%b : !sparse_array.array<4xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %B: !sparse_array.array<4xf64>):
    %j = index.add %i, %i
    // expected-error@+1 {{'sparse_array.access' op indices must be index variables of the kernel, constants, sparse_array.linearize or sparse_array.delinearize}}
    %v = sparse_array.access %B[%j] : !sparse_array.array<4xf64>
    sparse_array.yield %v : f64
  }
  return
}

// -----

func.func @access_slice_out_of_range(%b: !sparse_array.array<8xf64>) {
  %r = sparse_array.kernel ins(%b : !sparse_array.array<8xf64>) -> !sparse_array.array<5xf64> {
  ^bb0(%i: index, %B: !sparse_array.array<8xf64>):
    // expected-error@+1 {{'sparse_array.access' op slice (4:9:1) of dimension 0 is not within [0, 8) in the order of its step}}
    %v = sparse_array.access %B[%i(4:9)] : !sparse_array.array<8xf64>
    sparse_array.yield %v : f64
  }
  return
}

// -----

func.func @access_reversed_slice_out_of_range(%b: !sparse_array.array<8xf64>) {
  %r = sparse_array.kernel ins(%b : !sparse_array.array<8xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %B: !sparse_array.array<8xf64>):
    // expected-error@+1 {{'sparse_array.access' op slice (8:0:-2) of dimension 0 is not within [0, 8) in the order of its step}}
    %v = sparse_array.access %B[%i(8:0:-2)] : !sparse_array.array<8xf64>
    sparse_array.yield %v : f64
  }
  return
}

// -----

func.func @access_reversed_slice_order(%b: !sparse_array.array<8xf64>) {
  %r = sparse_array.kernel ins(%b : !sparse_array.array<8xf64>) -> !sparse_array.array<0xf64> {
  ^bb0(%i: index, %B: !sparse_array.array<8xf64>):
    // expected-error@+1 {{'sparse_array.access' op slice (2:5:-1) of dimension 0 is not within [0, 8) in the order of its step}}
    %v = sparse_array.access %B[%i(2:5:-1)] : !sparse_array.array<8xf64>
    sparse_array.yield %v : f64
  }
  return
}

// -----

func.func @access_bounds_not_padded(%b: !sparse_array.array<8xf64>) {
  %r = sparse_array.kernel ins(%b : !sparse_array.array<8xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %B: !sparse_array.array<8xf64>):
    // expected-error@+1 {{'sparse_array.access' op has bounds but is not padded}}
    %v = sparse_array.access %B[%i(0:4)] bounds [0, 2] : !sparse_array.array<8xf64>
    sparse_array.yield %v : f64
  }
  return
}

// -----

func.func @access_bounds_count(%b: !sparse_array.array<8xf64>) {
  %r = sparse_array.kernel ins(%b : !sparse_array.array<8xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %B: !sparse_array.array<8xf64>):
    // expected-error@+1 {{'sparse_array.access' op needs two bound values per dimension}}
    %v = sparse_array.access %B[%i(-2:2)] padded bounds [0, 2, 4] : !sparse_array.array<8xf64>
    sparse_array.yield %v : f64
  }
  return
}

// -----

func.func @access_bounds_outside(%b: !sparse_array.array<8xf64>) {
  %r = sparse_array.kernel ins(%b : !sparse_array.array<8xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %B: !sparse_array.array<8xf64>):
    // expected-error@+1 {{'sparse_array.access' op bounds [6, 9) of dimension 0 must lie within a sliced dimension}}
    %v = sparse_array.access %B[%i(-2:2)] padded bounds [6, 9] : !sparse_array.array<8xf64>
    sparse_array.yield %v : f64
  }
  return
}

// -----

func.func @access_slice_triples(%b: !sparse_array.array<8xf64>) {
  %r = sparse_array.kernel ins(%b : !sparse_array.array<8xf64>) -> !sparse_array.array<8xf64> {
  ^bb0(%i: index, %B: !sparse_array.array<8xf64>):
    // expected-error@+1 {{'sparse_array.access' op needs three slice values per dimension}}
    %v = "sparse_array.access"(%B, %i) <{slices = array<i64: 0, 4>}> : (!sparse_array.array<8xf64>, index) -> f64
    sparse_array.yield %v : f64
  }
  return
}

// -----

sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  sparse_array.yield %x : f64
}
func.func @reduce_over_nothing(%b: !sparse_array.array<4xf64>) {
  %r = sparse_array.kernel ins(%b : !sparse_array.array<4xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %B: !sparse_array.array<4xf64>):
    %v = sparse_array.access %B[%i] : !sparse_array.array<4xf64>
    // expected-error@+1 {{'sparse_array.reduce_over' op needs at least one index variable to reduce}}
    %s = sparse_array.reduce_over [] %v with @add : f64
    sparse_array.yield %s : f64
  }
  return
}

// -----

sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  sparse_array.yield %x : f64
}
func.func @reduce_over_non_variable(%a: !sparse_array.array<4x4xf64>) {
  %r = sparse_array.kernel ins(%a : !sparse_array.array<4x4xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %j: index, %A: !sparse_array.array<4x4xf64>):
    %v = sparse_array.access %A[%i, %j] : !sparse_array.array<4x4xf64>
    %c = arith.constant 1 : index
    // expected-error@+1 {{'sparse_array.reduce_over' op can only reduce over index variables of the kernel}}
    %s = sparse_array.reduce_over [%c] %v with @add : f64
    sparse_array.yield %s : f64
  }
  return
}

// -----

sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  sparse_array.yield %x : f64
}
func.func @reduce_over_twice(%a: !sparse_array.array<4x4xf64>) {
  %r = sparse_array.kernel ins(%a : !sparse_array.array<4x4xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %j: index, %A: !sparse_array.array<4x4xf64>):
    %v = sparse_array.access %A[%i, %j] : !sparse_array.array<4x4xf64>
    // expected-error@+1 {{'sparse_array.reduce_over' op reduces over index variable 1 twice}}
    %s = sparse_array.reduce_over [%j, %j] %v with @add : f64
    sparse_array.yield %s : f64
  }
  return
}

// -----

sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  sparse_array.yield %x : f64
}
func.func @scatter_one_factor(%a: !sparse_array.array<4x4xf64>) {
  %r = sparse_array.kernel ins(%a : !sparse_array.array<4x4xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %j: index, %A: !sparse_array.array<4x4xf64>):
    %v = sparse_array.access %A[%i, %j] : !sparse_array.array<4x4xf64>
    // expected-error@+1 {{'sparse_array.reduce_over' op scatter names the two factors of a product, two different kernel inputs}}
    %s = sparse_array.reduce_over [%j] %v with @add {scatter = array<i32: 0, 0>} : f64
    sparse_array.yield %s : f64
  }
  return
}

// -----

sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  sparse_array.yield %x : f64
}
func.func @scatter_factor_out_of_range(%a: !sparse_array.array<4x4xf64>) {
  %r = sparse_array.kernel ins(%a : !sparse_array.array<4x4xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %j: index, %A: !sparse_array.array<4x4xf64>):
    %v = sparse_array.access %A[%i, %j] : !sparse_array.array<4x4xf64>
    // expected-error@+1 {{'sparse_array.reduce_over' op scatter factor 3 is not an input the kernel accesses}}
    %s = sparse_array.reduce_over [%j] %v with @add {scatter = array<i32: 0, 3>} : f64
    sparse_array.yield %s : f64
  }
  return
}

// -----

sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  sparse_array.yield %x : f64
}
func.func @scatter_loops_not_permutation(%a: !sparse_array.array<4x4xf64>, %b: !sparse_array.array<4x4xf64>) {
  %r = sparse_array.kernel ins(%a, %b : !sparse_array.array<4x4xf64>, !sparse_array.array<4x4xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %j: index, %A: !sparse_array.array<4x4xf64>, %B: !sparse_array.array<4x4xf64>):
    %v = sparse_array.access %A[%j, %i] : !sparse_array.array<4x4xf64>
    %w = sparse_array.access %B[%j, %i] : !sparse_array.array<4x4xf64>
    %p = sparse_array.apply @add(%v, %w) : (f64, f64) -> f64
    // expected-error@+1 {{'sparse_array.reduce_over' op scatter_loops must order all 2 index variables of the kernel, each once}}
    %s = sparse_array.reduce_over [%j] %p with @add {scatter_loops = array<i32: 1, 1>} : f64
    sparse_array.yield %s : f64
  }
  return
}

// -----

sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  sparse_array.yield %x : f64
}
func.func @scatter_loops_short(%a: !sparse_array.array<4x4xf64>, %b: !sparse_array.array<4x4xf64>) {
  %r = sparse_array.kernel ins(%a, %b : !sparse_array.array<4x4xf64>, !sparse_array.array<4x4xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %j: index, %A: !sparse_array.array<4x4xf64>, %B: !sparse_array.array<4x4xf64>):
    %v = sparse_array.access %A[%j, %i] : !sparse_array.array<4x4xf64>
    %w = sparse_array.access %B[%j, %i] : !sparse_array.array<4x4xf64>
    %p = sparse_array.apply @add(%v, %w) : (f64, f64) -> f64
    // expected-error@+1 {{'sparse_array.reduce_over' op scatter_loops must order all 2 index variables of the kernel, each once}}
    %s = sparse_array.reduce_over [%j] %p with @add {scatter_loops = array<i32: 1>} : f64
    sparse_array.yield %s : f64
  }
  return
}

// -----

sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  sparse_array.yield %x : f64
}
func.func @scatter_loops_and_scatter(%a: !sparse_array.array<4x4xf64>, %b: !sparse_array.array<4x4xf64>) {
  %r = sparse_array.kernel ins(%a, %b : !sparse_array.array<4x4xf64>, !sparse_array.array<4x4xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %j: index, %A: !sparse_array.array<4x4xf64>, %B: !sparse_array.array<4x4xf64>):
    %v = sparse_array.access %A[%j, %i] : !sparse_array.array<4x4xf64>
    %w = sparse_array.access %B[%j, %i] : !sparse_array.array<4x4xf64>
    %p = sparse_array.apply @add(%v, %w) : (f64, f64) -> f64
    // expected-error@+1 {{'sparse_array.reduce_over' op scatter_loops and scatter are two plans; a reduction takes one}}
    %s = sparse_array.reduce_over [%j] %p with @add {scatter_loops = array<i32: 1, 0>, scatter = array<i32: 0, 1>} : f64
    sparse_array.yield %s : f64
  }
  return
}

// -----

sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  sparse_array.yield %x : f64
}
func.func @scatter_loops_early_exit(%a: !sparse_array.array<4x4xf64>, %b: !sparse_array.array<4x4xf64>) {
  %r = sparse_array.kernel ins(%a, %b : !sparse_array.array<4x4xf64>, !sparse_array.array<4x4xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %j: index, %A: !sparse_array.array<4x4xf64>, %B: !sparse_array.array<4x4xf64>):
    %v = sparse_array.access %A[%j, %i] : !sparse_array.array<4x4xf64>
    %w = sparse_array.access %B[%j, %i] : !sparse_array.array<4x4xf64>
    %p = sparse_array.apply @add(%v, %w) : (f64, f64) -> f64
    // expected-error@+1 {{'sparse_array.reduce_over' op scatter_loops accumulates many results at once: no early_exit}}
    %s = sparse_array.reduce_over [%j] %p with @add {scatter_loops = array<i32: 1, 0>, early_exit} : f64
    sparse_array.yield %s : f64
  }
  return
}

// -----

func.func @reduce_over_unknown_combiner(%a: !sparse_array.array<4x4xf64>) {
  %r = sparse_array.kernel ins(%a : !sparse_array.array<4x4xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %j: index, %A: !sparse_array.array<4x4xf64>):
    %v = sparse_array.access %A[%i, %j] : !sparse_array.array<4x4xf64>
    // expected-error@+1 {{'sparse_array.reduce_over' op combiner 'plus' does not name a sparse_array.func}}
    %s = sparse_array.reduce_over [%j] %v with @plus : f64
    sparse_array.yield %s : f64
  }
  return
}

// -----

sparse_array.func @add32(%x: f32, %y: f32) -> f32 {
  sparse_array.yield %x : f32
}
func.func @reduce_over_combiner_type(%a: !sparse_array.array<4x4xf64>) {
  %r = sparse_array.kernel ins(%a : !sparse_array.array<4x4xf64>) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %j: index, %A: !sparse_array.array<4x4xf64>):
    %v = sparse_array.access %A[%i, %j] : !sparse_array.array<4x4xf64>
    // expected-error@+1 {{'sparse_array.reduce_over' op combiner @add32 must have type ('f64', 'f64') -> 'f64', got '(f32, f32) -> f32'}}
    %s = sparse_array.reduce_over [%j] %v with @add32 : f64
    sparse_array.yield %s : f64
  }
  return
}

//===----------------------------------------------------------------------===//
// sparse_array.map, sparse_array.reduce
//===----------------------------------------------------------------------===//

// -----

sparse_array.func @id(%x: f64) -> f64 {
  sparse_array.yield %x : f64
}
func.func @map_rank_too_high(%a: !sparse_array.array<4x4xf64>) {
  // expected-error@+1 {{'sparse_array.map' op input 0 has rank 2, more than the result's 1}}
  %r = sparse_array.map @id(%a) : (!sparse_array.array<4x4xf64>) -> !sparse_array.array<4xf64>
  return
}

// -----

sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  sparse_array.yield %x : f64
}
func.func @map_no_broadcast(%a: !sparse_array.array<4x4xf64>, %v: !sparse_array.array<3xf64>) {
  // expected-error@+1 {{'sparse_array.map' op input 1 dimension 0 of size 3 does not broadcast to result dimension 1 of size 4}}
  %r = sparse_array.map @add(%a, %v) : (!sparse_array.array<4x4xf64>, !sparse_array.array<3xf64>) -> !sparse_array.array<4x4xf64>
  return
}

// -----

sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  sparse_array.yield %x : f64
}
func.func @map_arity(%a: !sparse_array.array<4xf64>) {
  // expected-error@+1 {{'sparse_array.map' op @add takes 2 arguments but 1 arrays are given}}
  %r = sparse_array.map @add(%a) : (!sparse_array.array<4xf64>) -> !sparse_array.array<4xf64>
  return
}

// -----

sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  sparse_array.yield %x : f64
}
func.func @map_input_type(%a: !sparse_array.array<4xf64>, %b: !sparse_array.array<4xf32>) {
  // expected-error@+1 {{'sparse_array.map' op input 1 has element type 'f32' but @add expects 'f64'}}
  %r = sparse_array.map @add(%a, %b) : (!sparse_array.array<4xf64>, !sparse_array.array<4xf32>) -> !sparse_array.array<4xf64>
  return
}

// -----

sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  sparse_array.yield %x : f64
}
func.func @map_result_type(%a: !sparse_array.array<4xf64>) {
  // expected-error@+1 {{'sparse_array.map' op result element type 'f32' differs from @add's result type 'f64'}}
  %r = sparse_array.map @add(%a, %a) : (!sparse_array.array<4xf64>, !sparse_array.array<4xf64>) -> !sparse_array.array<4xf32>
  return
}

// -----

func.func @reduce_no_dims(%a: !sparse_array.array<4x4xf64>) {
  // expected-error@+1 {{'sparse_array.reduce' op needs at least one dimension to reduce}}
  %r = sparse_array.reduce @add %a dims [] : !sparse_array.array<4x4xf64> -> !sparse_array.array<4x4xf64>
  return
}

// -----

func.func @reduce_dims_order(%a: !sparse_array.array<4x4xf64>) {
  // expected-error@+1 {{'sparse_array.reduce' op dims must be increasing dimensions of the rank-2 input}}
  %r = sparse_array.reduce @add %a dims [1, 0] : !sparse_array.array<4x4xf64> -> !sparse_array.array<f64>
  return
}

// -----

func.func @reduce_result_rank(%a: !sparse_array.array<4x4xf64>) {
  // expected-error@+1 {{'sparse_array.reduce' op result must have rank 1}}
  %r = sparse_array.reduce @add %a dims [1] : !sparse_array.array<4x4xf64> -> !sparse_array.array<f64>
  return
}

// -----

func.func @reduce_result_size(%a: !sparse_array.array<4x5xf64>) {
  // expected-error@+1 {{'sparse_array.reduce' op result dimension 0 must have size 4}}
  %r = sparse_array.reduce @add %a dims [1] : !sparse_array.array<4x5xf64> -> !sparse_array.array<5xf64>
  return
}

// -----

func.func @reduce_element_type(%a: !sparse_array.array<4x4xf64>) {
  // expected-error@+1 {{'sparse_array.reduce' op result element type must be the input's}}
  %r = sparse_array.reduce @add %a dims [1] : !sparse_array.array<4x4xf64> -> !sparse_array.array<4xf32>
  return
}

// -----

sparse_array.func @first(%x: f64, %y: i32) -> f64 {
  sparse_array.yield %x : f64
}
func.func @reduce_combiner_type(%a: !sparse_array.array<4x4xf64>) {
  // expected-error@+1 {{'sparse_array.reduce' op combiner @first must have type ('f64', 'f64') -> 'f64', got '(f64, i32) -> f64'}}
  %r = sparse_array.reduce @first %a dims [1] : !sparse_array.array<4x4xf64> -> !sparse_array.array<4xf64>
  return
}

// -----

func.func @yield_outside(%x: f64) {
  // expected-error@+1 {{'sparse_array.yield' op expects parent op to be one of 'sparse_array.func, sparse_array.kernel'}}
  sparse_array.yield %x : f64
}

// -----

!csr = !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed]>>
func.func @parallel_balance_out_of_range(%a: !csr) -> !csr {
  // expected-error@+1 {{parallel plan balances on input 3, but the kernel has 1 inputs}}
  %r = sparse_array.kernel ins(%a : !csr) -> !csr attributes {parallel = #sparse_array.parallel<"outer", min_extent = 1, balance = 3>} {
  ^bb0(%i: index, %j: index, %A: !csr):
    %v = sparse_array.access %A[%i, %j] : !csr
    sparse_array.yield %v : f64
  }
  return %r : !csr
}

// -----

!d = !sparse_array.array<4x4xf64>
func.func @parallel_balance_dense(%a: !d) -> !d {
  // expected-error@+1 {{parallel plan balances on input 0, which is not stored as a full level over one with positions}}
  %r = sparse_array.kernel ins(%a : !d) -> !d attributes {parallel = #sparse_array.parallel<"outer", min_extent = 1, balance = 0>} {
  ^bb0(%i: index, %j: index, %A: !d):
    %v = sparse_array.access %A[%i, %j] : !d
    sparse_array.yield %v : f64
  }
  return %r : !d
}

// -----

!dcsr = !sparse_array.array<4x4xf64, #sparse_array.format<[compressed, compressed]>>
func.func @parallel_two_phase_dcsr(%a: !dcsr) -> !dcsr {
  // expected-error@+1 {{two_phase assembles a result stored as a full level over a unique one with positions (CSR, CSC)}}
  %r = sparse_array.kernel ins(%a : !dcsr) -> !dcsr attributes {parallel = #sparse_array.parallel<"outer", min_extent = 1, two_phase>} {
  ^bb0(%i: index, %j: index, %A: !dcsr):
    %v = sparse_array.access %A[%i, %j] : !dcsr
    sparse_array.yield %v : f64
  }
  return %r : !dcsr
}

// -----

!dcsr = !sparse_array.array<4x4xf64, #sparse_array.format<[compressed, compressed]>>
func.func @parallel_chained_dcsr(%a: !dcsr) -> !dcsr {
  // expected-error@+1 {{chained places rows of a result stored as a full level over a unique one with positions (CSR, CSC)}}
  %r = sparse_array.kernel ins(%a : !dcsr) -> !dcsr attributes {parallel = #sparse_array.parallel<"outer", min_extent = 1, parts, chained>} {
  ^bb0(%i: index, %j: index, %A: !dcsr):
    %v = sparse_array.access %A[%i, %j] : !dcsr
    sparse_array.yield %v : f64
  }
  return %r : !dcsr
}

// -----

!d = !sparse_array.array<4x4xf64>
func.func @parallel_parts_dense(%a: !d) -> !d {
  // expected-error@+1 {{parts assembles a sparse result, not}}
  %r = sparse_array.kernel ins(%a : !d) -> !d attributes {parallel = #sparse_array.parallel<"outer", min_extent = 1, parts>} {
  ^bb0(%i: index, %j: index, %A: !d):
    %v = sparse_array.access %A[%i, %j] : !d
    sparse_array.yield %v : f64
  }
  return %r : !d
}

// -----

!csr = !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed]>>
func.func @parallel_ranges_cut_full(%a: !csr) -> !csr {
  // expected-error@+1 {{parallel ranges are cut at input 0's coordinates, but its outermost level does not store ordered coordinates}}
  %r = sparse_array.kernel ins(%a : !csr) -> !csr attributes {parallel = #sparse_array.parallel<"ranges", min_extent = 1, balance = 0, parts>} {
  ^bb0(%i: index, %j: index, %A: !csr):
    %v = sparse_array.access %A[%i, %j] : !csr
    sparse_array.yield %v : f64
  }
  return %r : !csr
}

// -----

!dcsr = !sparse_array.array<4x4xf64, #sparse_array.format<[compressed, compressed]>>
func.func @parallel_ranges_without_parts(%a: !dcsr) -> !dcsr {
  // expected-error@+1 {{parallel ranges assemble a sparse result in parts}}
  %r = sparse_array.kernel ins(%a : !dcsr) -> !dcsr attributes {parallel = #sparse_array.parallel<"ranges", min_extent = 1, balance = 0>} {
  ^bb0(%i: index, %j: index, %A: !dcsr):
    %v = sparse_array.access %A[%i, %j] : !dcsr
    sparse_array.yield %v : f64
  }
  return %r : !dcsr
}

// -----

!csr = !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed]>>
sparse_array.func @max(%x: f64, %y: f64) -> f64 attributes {commutative, associative, idempotent} {
  %r = arith.maximumf %x, %y : f64
  sparse_array.yield %r : f64
}
func.func @parallel_scatter_without_parts(%a: !csr) -> !sparse_array.array<4xf64> {
  // expected-error@+1 {{a scatter reduction planned parallel accumulates in parts}}
  %y = sparse_array.kernel ins(%a : !csr) -> !sparse_array.array<4xf64> attributes {parallel = #sparse_array.parallel<"outer", min_extent = 1, balance = 0>} {
  ^bb0(%j: index, %i: index, %A: !csr):
    %aij = sparse_array.access %A[%i, %j] : !csr
    %m = sparse_array.reduce_over [%i] %aij with @max {scatter_loops = array<i32: 1, 0>, plan = #sparse_array.reduction<strategy = idempotent, algebra = #sparse_array.algebra<0>>} : f64
    sparse_array.yield %m : f64
  }
  return %y : !sparse_array.array<4xf64>
}

// -----

!csf = !sparse_array.array<4x4x4xf64, #sparse_array.format<[dense, compressed, compressed]>>
!csr = !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed]>>
sparse_array.func @max(%x: f64, %y: f64) -> f64 attributes {commutative, associative, idempotent} {
  %r = arith.maximumf %x, %y : f64
  sparse_array.yield %r : f64
}
func.func @parallel_scatter_rows(%a: !csf) -> !csr {
  // expected-error@+1 {{a scatter reduction into '!sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>' accumulates row by row in one workspace: it cannot be planned parallel}}
  %y = sparse_array.kernel ins(%a : !csf) -> !csr attributes {parallel = #sparse_array.parallel<"outer", min_extent = 1, parts>} {
  ^bb0(%i: index, %k: index, %j: index, %A: !csf):
    %v = sparse_array.access %A[%i, %j, %k] : !csf
    %m = sparse_array.reduce_over [%j] %v with @max {scatter_loops = array<i32: 0, 2, 1>, plan = #sparse_array.reduction<strategy = idempotent, algebra = #sparse_array.algebra<0>>} : f64
    sparse_array.yield %m : f64
  }
  return %y : !csr
}
