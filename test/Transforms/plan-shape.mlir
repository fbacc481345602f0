// RUN: sa-opt %s --sparse-array-build-lattices | FileCheck %s
// RUN: sa-opt %s --sparse-array-build-lattices | sa-opt | FileCheck %s
// sparse-array-build-lattices plans each shape operator fusion left: the
// in-place lowering its storage allows, recorded as `plan` (which
// sparse-array-lower-shape carries out); none where only the runtime can
// move the entries.

!csr = !sparse_array.array<4x3xf64, #sparse_array.format<[dense, compressed]>>
!csr5 = !sparse_array.array<4x5xf64, #sparse_array.format<[dense, compressed]>>
!csr8 = !sparse_array.array<4x8xf64, #sparse_array.format<[dense, compressed]>>
!csr85 = !sparse_array.array<8x5xf64, #sparse_array.format<[dense, compressed]>>
!csr25 = !sparse_array.array<2x5xf64, #sparse_array.format<[dense, compressed]>>
!csc = !sparse_array.array<4x3xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
!coo = !sparse_array.array<4x5xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!coo85 = !sparse_array.array<8x5xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!coo25 = !sparse_array.array<2x5xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!v12 = !sparse_array.array<12xf64, #sparse_array.format<[compressed]>>
!v12fill = !sparse_array.array<12xf64, #sparse_array.format<[compressed], fill = 1.0 : f64>>

// CHECK-LABEL: func.func @moves(
// CHECK:         sparse_array.concat {{.*}} dim 1 {plan = #sparse_array.shape_plan<lowering = move_ranges, level = 1>}
// CHECK:         sparse_array.slice {{.*}} {plan = #sparse_array.shape_plan<lowering = move_ranges, level = 1, dim = 1>}
func.func @moves(%a: !csr, %b: !csr5) -> (!csr8, !csr) {
  %h = sparse_array.concat %a, %b dim 1 : !csr, !csr5 -> !csr8
  %s = sparse_array.slice %b[:, 1:4] : !csr5 -> !csr
  return %h, %s : !csr8, !csr
}

// CHECK-LABEL: func.func @coo_rows(
// CHECK:         sparse_array.concat {{.*}} dim 0 {plan = #sparse_array.shape_plan<lowering = rows_from_coo>}
// CHECK:         sparse_array.concat {{.*}} dim 0 {plan = #sparse_array.shape_plan<lowering = coo_from_rows>}
// CHECK:         sparse_array.slice {{.*}} {plan = #sparse_array.shape_plan<lowering = coo_from_rows>}
func.func @coo_rows(%a: !coo, %b: !coo, %c: !csr5, %d: !csr5)
    -> (!csr85, !coo85, !coo25) {
  %r = sparse_array.concat %a, %b dim 0 : !coo, !coo -> !csr85
  %o = sparse_array.concat %c, %d dim 0 : !csr5, !csr5 -> !coo85
  %s = sparse_array.slice %c[1:3] : !csr5 -> !coo25
  return %r, %o, %s : !csr85, !coo85, !coo25
}

// CHECK-LABEL: func.func @levels(
// CHECK:         sparse_array.collapse {{.*}} {plan = #sparse_array.shape_plan<lowering = merge_levels>}
// CHECK:         sparse_array.split {{.*}} {plan = #sparse_array.shape_plan<lowering = split_levels, level = 0>}
func.func @levels(%a: !csr, %v: !v12) -> (!v12, !csr) {
  %c = sparse_array.collapse %a [0, 1] : !csr -> !v12
  %s = sparse_array.split %v dim 0 [4, 3] : !v12 -> !csr
  return %c, %s : !v12, !csr
}

// CSC collapsed in C order stores its dimensions the other way round, and
// another fill makes implicit entries values: the runtime's, no plan.
// CHECK-LABEL: func.func @runtime(
// CHECK:         sparse_array.collapse %{{.*}} [0, 1] :
// CHECK-NOT:     plan
// CHECK:         return
func.func @runtime(%a: !csc, %b: !csr) -> (!v12, !v12fill) {
  %v = sparse_array.collapse %a [0, 1] : !csc -> !v12
  %w = sparse_array.collapse %b [0, 1] : !csr -> !v12fill
  return %v, %w : !v12, !v12fill
}
