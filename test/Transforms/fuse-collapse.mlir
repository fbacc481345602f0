// RUN: sa-opt %s --sparse-array-fuse | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices --sparse-array-lower-iterators --sparse-array-lower-shape --canonicalize | FileCheck %s --check-prefix=LOWER
// A collapse feeding a computation fuses into it (seed 001 §8.5's
// collapse(A) * x): the kernel reads A through sparse_array.delinearize, its
// loop iterates the product of A's levels (the plan's view
// product(s0, s0.1)), and the only buffers allocated are the output's
// (positions, coordinates, values): no collapsed copy of A.

sparse_array.func @mul(%x: f64, %y: f64) -> f64 attributes {commutative, annihilator = #sparse_array.annihilator<0.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}

!csr = !sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed]>>
!cv = !sparse_array.array<24xf64, #sparse_array.format<[compressed]>>

// CHECK-LABEL: func.func @collapse_mul(
// CHECK-NOT:     sparse_array.collapse
// CHECK:         sparse_array.kernel ins(%{{.*}}, %{{.*}} : !sparse_array.array<4x6xf64, #{{.*}}>, !sparse_array.array<24xf64, #{{.*}}>)
// CHECK:           %[[P:.*]]:2 = sparse_array.delinearize %{{.*}} [6] : index, index
// CHECK:           sparse_array.access %{{.*}}[%[[P]]#0, %[[P]]#1]
// CHECK-NOT:     sparse_array.kernel
// LOWER-LABEL: func.func @collapse_mul(
// LOWER-COUNT-3: memref.alloc
// LOWER-NOT:     memref.alloc
// LOWER-NOT:     sparse_array.collapse
// LOWER:         return
func.func @collapse_mul(%a: !csr, %x: !cv) -> !cv {
  %c = sparse_array.collapse %a [0, 1] : !csr -> !cv
  %r = sparse_array.map @mul(%c, %x) : (!cv, !cv) -> !cv
  return %r : !cv
}

// Alone, a collapse stays an op: sparse-array-lower-shape merges the levels.
// CHECK-LABEL: func.func @collapse_alone(
// CHECK:         sparse_array.collapse
// CHECK-NOT:     sparse_array.kernel
func.func @collapse_alone(%a: !csr) -> !cv {
  %c = sparse_array.collapse %a [0, 1] : !csr -> !cv
  return %c : !cv
}

sparse_array.func @add(%x: f64, %y: f64) -> f64 attributes {commutative, identity = #sparse_array.identity<0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}

// A collapse of a computed expression (numpy's (A + B).reshape(-1)) fuses
// with its producer: one kernel over x reads A and B at the delinearized
// parts, its loop iterates union(A's product, B's product); no CSR sum is
// built and no levels are merged afterwards.
// CHECK-LABEL: func.func @collapse_of_sum(
// CHECK-NOT:     sparse_array.collapse
// CHECK:         sparse_array.kernel ins(%{{.*}}, %{{.*}} : !sparse_array.array<4x6xf64, #{{.*}}>, !sparse_array.array<4x6xf64, #{{.*}}>) -> !sparse_array.array<24xf64
// CHECK:           %[[P:.*]]:2 = sparse_array.delinearize %{{.*}} [6] : index, index
// CHECK:           sparse_array.access %{{.*}}[%[[P]]#0, %[[P]]#1]
// CHECK:           sparse_array.access %{{.*}}[%[[P]]#0, %[[P]]#1]
// CHECK:           sparse_array.apply @add
// CHECK-NOT:     sparse_array.kernel
// LOWER-LABEL: func.func @collapse_of_sum(
// LOWER-COUNT-3: memref.alloc
// LOWER-NOT:     memref.alloc
// LOWER-NOT:     sparse_array.collapse
// LOWER:         return
func.func @collapse_of_sum(%a: !csr, %b: !csr) -> !cv {
  %s = sparse_array.map @add(%a, %b) : (!csr, !csr) -> !csr
  %c = sparse_array.collapse %s [0, 1] : !csr -> !cv
  return %c : !cv
}
