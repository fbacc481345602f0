// RUN: not sa-opt %s --sparse-array-pipeline 2>&1 | FileCheck %s
// A construct the pipeline cannot compile is named in a diagnostic, not
// leaked as an unresolved materialization from the LLVM conversions.

// CHECK: error: 'func.func' uses type '(!sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>>) -> f64' that the sparse_array pipeline cannot lower yet
// CHECK-NOT: unresolved
func.func @uses_array(%a: !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>) -> f64 {
  %c = arith.constant 1.0 : f64
  return %c : f64
}
