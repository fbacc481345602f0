// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks -O0 %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse | FileCheck %s --check-prefix=IR
// A slice read by several computations is a view fused into each (seed
// 001 §5.2), not a copy they share. Expected values: numpy, with
//   W = 4x6, stored (0,0)=1 (0,4)=2 (1,0)=3 (1,4)=4 (1,5)=9 (2,2)=5
//       (2,3)=6 (2,4)=11 (3,0)=7 (3,5)=8; B = 2x3, (0,0)=10 (0,1)=30 (1,2)=20
//   S = W[1:3, ::2] = [[3, 0, 4], [0, 5, 11]]
//   S + B, S * B, S.sum(axis=1) = [7, 16]

sparse_array.func @add(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @mul(%x: f64, %y: f64) -> f64
    attributes {commutative, annihilator = #sparse_array.annihilator<0.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
!w = !sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed]>>
!s = !sparse_array.array<2x3xf64, #sparse_array.format<[dense, compressed]>>
!r = !sparse_array.array<2xf64>

// IR-LABEL: func.func @shared(
// IR-NOT: sparse_array.slice
// IR-COUNT-3: sparse_array.access %{{.*}}[%{{.*}}(1:3), %{{.*}}(0:6:2)]
// IR-NOT: sparse_array.slice
// IR: return
func.func @shared(%w: !w, %b: !s) -> (!s, !s, !r) {
  %s = sparse_array.slice %w[1:3, ::2] : !w -> !s
  %sum = sparse_array.map @add(%s, %b) : (!s, !s) -> !s
  %prod = sparse_array.map @mul(%s, %b) : (!s, !s) -> !s
  %rows = sparse_array.reduce @add %s dims [1] : !s -> !r
  return %sum, %prod, %rows : !s, !s, !r
}

func.func @main() {
  %w = sparse_array.constant sparse<[[0, 0], [0, 4], [1, 0], [1, 4], [1, 5], [2, 2], [2, 3], [2, 4], [3, 0], [3, 5]],
      [1.0, 2.0, 3.0, 4.0, 9.0, 5.0, 6.0, 11.0, 7.0, 8.0]> : tensor<4x6xf64> : !w
  %b = sparse_array.constant sparse<[[0, 0], [0, 1], [1, 2]], [10.0, 30.0, 20.0]> : tensor<2x3xf64> : !s
  %sum, %prod, %rows = func.call @shared(%w, %b) : (!w, !s) -> (!s, !s, !r)
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 5
  // CHECK-NEXT: 2 3
  // CHECK-NEXT: 1 1 13
  // CHECK-NEXT: 1 2 30
  // CHECK-NEXT: 1 3 4
  // CHECK-NEXT: 2 2 5
  // CHECK-NEXT: 2 3 31
  sparse_array.print %sum : !s
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 2
  // CHECK-NEXT: 2 3
  // CHECK-NEXT: 1 1 30
  // CHECK-NEXT: 2 3 220
  sparse_array.print %prod : !s
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 2
  // CHECK-NEXT: 1 7
  // CHECK-NEXT: 2 16
  sparse_array.print %rows : !r
  return
}
