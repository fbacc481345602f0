// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --linear-threshold=1 %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices=linear-threshold=1 | FileCheck %s --check-prefix=PLAN
// A strided slice of a sum whose loop over the columns is linear (one
// presence bit per sparse input instead of a lattice) with one sparse
// input: the plan's sequence is that input's slice itself. It was recorded
// as "union(slice(s0, 1, 8, 2))", which does not parse back, so the loop
// emitter read the view as s0 and refused the kernel (found by the
// elementwise fuzzer, seed 917). Expected: numpy's (A + B)[:, 1::2] with
//   A = [[0, 1, 0, 0, 2, 0, 0, 0], [0, 0, 0, 3, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 4]]
//   B = [[1, 2, 3, 4, 5, 6, 7, 8]] * 3 rows
// = [[3, 4, 6, 8], [2, 7, 6, 8], [2, 4, 6, 12]].

// PLAN: lattice<loop 1, present [0, 1], coiterate [0], linear U, sequence "slice(s0, 1, 8, 2)">

// CHECK: # fill: 0
// CHECK-NEXT: 2 12
// CHECK-NEXT: 3 4
// CHECK-NEXT: 1 1 3
// CHECK-NEXT: 1 2 4
// CHECK-NEXT: 1 3 6
// CHECK-NEXT: 1 4 8
// CHECK-NEXT: 2 1 2
// CHECK-NEXT: 2 2 7
// CHECK-NEXT: 2 3 6
// CHECK-NEXT: 2 4 8
// CHECK-NEXT: 3 1 2
// CHECK-NEXT: 3 2 4
// CHECK-NEXT: 3 3 6
// CHECK-NEXT: 3 4 12

sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
!csr = !sparse_array.array<3x8xf64, #sparse_array.format<[dense, compressed]>>
!den = !sparse_array.array<3x8xf64>
!out = !sparse_array.array<3x8xf64, #sparse_array.format<[dense, compressed]>>
!sl = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed]>>
func.func @main() {
  %a = sparse_array.constant sparse<[[0, 1], [0, 4], [1, 3], [2, 7]], [1.0, 2.0, 3.0, 4.0]> : tensor<3x8xf64> : !csr
  %b = sparse_array.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]]> : tensor<3x8xf64> : !den
  %m = sparse_array.map @add(%a, %b) : (!csr, !den) -> !out
  %s = sparse_array.slice %m[:, 1:8:2] : !out -> !sl
  sparse_array.print %s : !sl
  return
}
