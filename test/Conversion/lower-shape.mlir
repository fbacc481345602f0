// RUN: sa-opt %s --sparse-array-lower-shape --canonicalize --cse | FileCheck %s
// sparse-array-lower-shape: a collapse whose dimensions are stored by
// adjacent levels in the linearization's order merges them (seed 001 §4.1):
// one loop nest over the group writes the merged coordinates, no entry moves.

!csr = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed]>>
!csc = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
!v12 = !sparse_array.array<12xf64, #sparse_array.format<[compressed]>>
!d12 = !sparse_array.array<12xf64>
!v12fill = !sparse_array.array<12xf64, #sparse_array.format<[compressed], fill = 1.0 : f64>>
!csf = !sparse_array.array<2x3x2xf64, #sparse_array.format<[compressed, compressed, compressed]>>
!m26 = !sparse_array.array<2x6xf64, #sparse_array.format<[compressed, compressed]>>

// CSR: for each row, for each entry p, crd'[p] = i * n + crd[p]; positions
// [0, nnz]; values copied.
// CHECK-LABEL: func.func @csr_to_vector(
// CHECK-NOT:     sparse_array.collapse
// CHECK:         %[[POS:.*]] = sparse_array.positions %{{.*}}[1]
// CHECK:         %[[CRD:.*]] = sparse_array.coordinates %{{.*}}[1]
// CHECK:         scf.for %[[I:.*]] =
// CHECK:           scf.for %[[P:.*]] =
// CHECK:             %[[C:.*]] = memref.load %[[CRD]][%[[P]]]
// CHECK:             %[[M:.*]] = arith.muli %[[I]],
// CHECK:             arith.addi %[[M]],
// CHECK:             memref.store %{{.*}}, %{{.*}}[%[[P]]]
// CHECK:         memref.copy
// CHECK:         %[[R:.*]] = sparse_array.assemble
// CHECK-NOT:     sparse_array.convert
// CHECK:         return %[[R]]
func.func @csr_to_vector(%a: !csr) -> !v12 {
  %v = sparse_array.collapse %a [0, 1] : !csr -> !v12
  return %v : !v12
}

// A result in another format: merged, then converted.
// CHECK-LABEL: func.func @csr_to_dense(
// CHECK:         sparse_array.assemble
// CHECK:         sparse_array.convert
func.func @csr_to_dense(%a: !csr) -> !d12 {
  %v = sparse_array.collapse %a [0, 1] : !csr -> !d12
  return %v : !d12
}

// The inner pair of a CSF: positions per parent (the first level's
// entries), one loop per level of the group under it.
// CHECK-LABEL: func.func @csf_inner(
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:         sparse_array.assemble
// CHECK-SAME:      -> !sparse_array.array<2x6xf64, #{{.*}}>
func.func @csf_inner(%t: !csf) -> !m26 {
  %v = sparse_array.collapse %t [1, 2] : !csf -> !m26
  return %v : !m26
}

// CSC collapsed in C order stores its dimensions the other way round, and a
// result with another fill makes implicit entries values: both stay for the
// runtime.
// CHECK-LABEL: func.func @not_merged(
// CHECK:         sparse_array.collapse %{{.*}} [0, 1] :
// CHECK:         sparse_array.collapse %{{.*}} [0, 1] :
func.func @not_merged(%a: !csc, %b: !csr) -> (!v12, !v12fill) {
  %v = sparse_array.collapse %a [0, 1] : !csc -> !v12
  %w = sparse_array.collapse %b [0, 1] : !csr -> !v12fill
  return %v, %w : !v12, !v12fill
}
