// RUN: sa-opt %s --sparse-array-check-symbols --split-input-file --verify-diagnostics
// RUN: not sa-run %S/Inputs/exp-named-function.mlir 2>&1 | FileCheck %s --check-prefix=JIT
//
// sparse-array-check-symbols: a function named like what compiled code
// calls would capture those calls (math.exp lowers to a call of `exp`).
// JIT: error: function @exp has the name of the C library function 'exp', which compiled code calls: rename it

// expected-error @+1 {{function @exp has the name of the C library function 'exp', which compiled code calls: rename it}}
func.func @exp(%x: f64) -> f64 {
  return %x : f64
}

// -----

// expected-error @+1 {{function @memcpy has the name of the C library function 'memcpy'}}
func.func @memcpy() {
  return
}

// -----

// expected-error @+1 {{function @sa_rt_array_print has the name of the runtime function 'sa_rt_array_print'}}
func.func @sa_rt_array_print() {
  return
}

// -----

// expected-error @+1 {{function @powf has the name of the C library function 'powf'}}
func.func private @powf(%x: f32) -> f32 {
  return %x : f32
}

// -----

// Declarations (calls into the C library) and other names are fine.
func.func private @exp2(f64) -> f64
func.func @exponent(%x: f64) -> f64 {
  %y = func.call @exp2(%x) : (f64) -> f64
  return %y : f64
}
func.func @main() {
  return
}
