// RUN: sa-opt %s --sparse-array-lower-shape | FileCheck %s
// sparse-array-lower-shape carries out the plan sparse-array-build-lattices
// recorded and decides nothing itself: the same collapse, whose levels
// merge, is lowered in place with its plan and left to the runtime
// (sparse-array-lower-storage) without one.

!csr = !sparse_array.array<4x3xf64, #sparse_array.format<[dense, compressed]>>
!v12 = !sparse_array.array<12xf64, #sparse_array.format<[compressed]>>

// CHECK-LABEL: func.func @planned(
// CHECK-NOT:     sparse_array.collapse
// CHECK:         sparse_array.assemble
func.func @planned(%a: !csr) -> !v12 {
  %v = sparse_array.collapse %a [0, 1] {plan = #sparse_array.shape_plan<lowering = merge_levels>} : !csr -> !v12
  return %v : !v12
}

// CHECK-LABEL: func.func @unplanned(
// CHECK:         sparse_array.collapse %{{.*}} [0, 1] :
// CHECK-NOT:     sparse_array.assemble
// CHECK:         return
func.func @unplanned(%a: !csr) -> !v12 {
  %v = sparse_array.collapse %a [0, 1] : !csr -> !v12
  return %v : !v12
}
