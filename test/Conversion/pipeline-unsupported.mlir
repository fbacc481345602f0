// RUN: not sa-opt %s --sparse-array-pipeline 2>&1 | FileCheck %s
// A construct the pipeline cannot compile is named in a diagnostic, once,
// not leaked as an unresolved materialization from the LLVM conversions nor
// reported again through the casts that bridge to it.

// CHECK: error: 'ub.poison' uses type '!sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>>' that the sparse_array pipeline cannot lower yet
// CHECK-NOT: unresolved
// CHECK-NOT: unrealized_conversion_cast
func.func @uses_array(%a: !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>) -> !sparse_array.array<?xf64, #sparse_array.format<[compressed]>> {
  %p = ub.poison : !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
  return %p : !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
}
