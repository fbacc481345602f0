// RUN: sa-opt %s -split-input-file -verify-diagnostics --sparse-array-reject-unlowered | FileCheck %s
// Whatever still mentions sparse_array when the pipeline hands over to the
// LLVM conversions is reported by name; everything else passes untouched.

// CHECK-LABEL: func.func @negative_no_arrays(
// CHECK: arith.addi
func.func @negative_no_arrays(%a: i64, %b: i64) -> i64 {
  %c = arith.addi %a, %b : i64
  return %c : i64
}

// -----

// expected-error@+1 {{'func.func' uses type '(!sparse_array.array<4xf64>) -> ()' that the sparse_array pipeline cannot lower yet}}
func.func @array_argument(%a: !sparse_array.array<4xf64>) {
  return
}

// -----

// Nested inside another type.
// expected-error@+1 {{'func.func' uses type '() -> tuple<i32, !sparse_array.array<?x?xf32, #sparse_array.format<[dense, compressed], fill = 0.0 : f32>>>' that the sparse_array pipeline cannot lower yet}}
func.func private @array_in_tuple() -> tuple<i32, !sparse_array.array<?x?xf32, #sparse_array.format<[dense, compressed]>>>

// -----

func.func @array_value() {
  // expected-error@+1 {{'ub.poison' uses type '!sparse_array.array<2xi32>' that the sparse_array pipeline cannot lower yet}}
  %x = ub.poison : !sparse_array.array<2xi32>
  return
}

// -----

// expected-error@+1 {{'func.func' has attribute 'layout' that the sparse_array pipeline cannot lower yet}}
func.func @format_attribute() attributes {layout = #sparse_array.format<[compressed]>} {
  return
}
