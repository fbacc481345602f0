// RUN: sa-opt %s --sparse-array-fuse | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices | FileCheck %s --check-prefix=PLAN
// transpose, expand_dims and squeeze are views: kernels with permuted
// indices, unread new dimensions and fixed coordinates, fused with the
// compute around them (seed 001 §5.2, Fig. 11).

sparse_array.func @add(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
!csr = !sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed]>>
!csrT = !sparse_array.array<6x4xf64, #sparse_array.format<[dense, compressed]>>
!cscT = !sparse_array.array<6x4xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
!v = !sparse_array.array<6xf64, #sparse_array.format<[compressed]>>
!row = !sparse_array.array<1x6xf64, #sparse_array.format<[dense, compressed]>>

// (A + B)^T: one kernel reading A and B at (j, i).
// CHECK-LABEL: func.func @transpose_of_sum(
// CHECK: sparse_array.kernel ins(%{{.*}}, %{{.*}} :
// CHECK: ^bb0(%[[I:[^:]*]]: index, %[[J:[^:]*]]: index,
// CHECK: sparse_array.access %{{.*}}[%[[J]], %[[I]]]
// CHECK: sparse_array.access %{{.*}}[%[[J]], %[[I]]]
// CHECK-NOT: sparse_array.kernel
// CHECK: return
// Into CSC, the loops follow A's own order: no conversion.
// PLAN-LABEL: func.func @transpose_of_sum(
// PLAN-NOT: sparse_array.convert
// PLAN: return
func.func @transpose_of_sum(%a: !csr, %b: !csr) -> !cscT {
  %s = sparse_array.map @add(%a, %b) : (!csr, !csr) -> !csr
  %t = sparse_array.transpose %s [1, 0] : !csr -> !cscT
  return %t : !cscT
}

// Into CSR, A's entries are re-sorted by column first (a conversion the
// planner inserts, freed after the kernel).
// PLAN-LABEL: func.func @transpose_csr_to_csr(
// PLAN: %[[C:.*]] = sparse_array.convert %{{.*}} : !sparse_array.array<4x6xf64, #csr> to !sparse_array.array<4x6xf64, #csc>
// PLAN: sparse_array.kernel ins(%[[C]]
// PLAN: sparse_array.dealloc %[[C]]
func.func @transpose_csr_to_csr(%a: !csr) -> !csrT {
  %t = sparse_array.transpose %a [1, 0] : !csr -> !csrT
  return %t : !csrT
}

// A + expand_dims(v, 0): v broadcast along the rows, read at (j) only.
// CHECK-LABEL: func.func @plus_row(
// CHECK: ^bb0(%[[I:[^:]*]]: index, %[[J:[^:]*]]: index, %[[A:[^:]*]]: {{.*}}, %[[V:[^:]*]]: {{.*}}):
// CHECK-DAG: sparse_array.access %[[A]][%[[I]], %[[J]]]
// CHECK-DAG: sparse_array.access %[[V]][%[[J]]] :
// CHECK-NOT: sparse_array.kernel
// CHECK: return
func.func @plus_row(%a: !csr, %v: !v) -> !csr {
  %e = sparse_array.expand_dims %v [0] : !v -> !row
  %s = sparse_array.map @add(%a, %e) : (!csr, !row) -> !csr
  return %s : !csr
}

// squeeze(expand_dims(v)) reads v at its own index again; squeeze of a
// matrix row reads coordinate 0.
// CHECK-LABEL: func.func @squeeze_row(
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: sparse_array.access %{{.*}}[%[[C0]], %{{.*}}]
func.func @squeeze_row(%r: !row) -> !v {
  %s = sparse_array.squeeze %r [0] : !row -> !v
  return %s : !v
}
