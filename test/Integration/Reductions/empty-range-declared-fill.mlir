// RUN: sa-run %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse | FileCheck %s --check-prefix=FUSE
// A reduction whose combiner declares no identity gives, over an empty
// range, the reduced value's fill: here the map's declared fill 0, not
// max(1, 1) = 1, the fill the map's inputs give it. Fusing the map into the
// reduction changed that (found by reductions.py once it drew combiners
// without an identity): a map declared with another fill than its inputs
// give stays an array before such a reduction; one declared with that fill
// fuses.

sparse_array.func @max(%x: i64, %y: i64) -> i64 {
  %r = arith.maxsi %x, %y : i64
  sparse_array.yield %r : i64
}
sparse_array.func @average(%x: i64, %y: i64) -> i64 attributes {commutative, idempotent} {
  %a = arith.andi %x, %y : i64
  %b = arith.xori %x, %y : i64
  %c1 = arith.constant 1 : i64
  %h = arith.shrsi %b, %c1 : i64
  %r = arith.addi %a, %h : i64
  sparse_array.yield %r : i64
}

!v = !sparse_array.array<0xi64, #sparse_array.format<[compressed], fill = 1 : i64>>
!m0 = !sparse_array.array<2x0xi64>
!m1 = !sparse_array.array<2x0xi64, #sparse_array.format<[dense, dense], fill = 1 : i64>>
!r = !sparse_array.array<2xi64, #sparse_array.format<[compressed], fill = 7 : i64>>

// FUSE-LABEL: func.func @main
// FUSE: sparse_array.kernel ins(%{{.*}}, %{{.*}} : !sparse_array.array<0xi64, #{{.*}}>, !sparse_array.array<0xi64, #{{.*}}>) -> !sparse_array.array<2x0xi64>
// FUSE: sparse_array.kernel ins(%{{.*}} : !sparse_array.array<2x0xi64>) -> !sparse_array.array<2xi64, #{{.*}}>
// FUSE: sparse_array.kernel ins(%{{.*}}, %{{.*}} : !sparse_array.array<0xi64, #{{.*}}>, !sparse_array.array<0xi64, #{{.*}}>) -> !sparse_array.array<2xi64, #{{.*}}>
func.func @main() {
  %x = sparse_array.constant dense<1> : tensor<0xi64> : !v
  %y = sparse_array.constant dense<1> : tensor<0xi64> : !v
  // Every entry of the result is the fold of nothing: the map's fill 0.
  // CHECK: # fill: 7
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 2
  // CHECK-NEXT: 1 0
  // CHECK-NEXT: 2 0
  %m = sparse_array.map @max(%x, %y) : (!v, !v) -> !m0
  %r = sparse_array.reduce @average %m dims [1] : !m0 -> !r
  sparse_array.print %r : !r
  // Declared with the fill its inputs give (1): fused, and 1.
  // CHECK: # fill: 7
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 2
  // CHECK-NEXT: 1 1
  // CHECK-NEXT: 2 1
  %m1 = sparse_array.map @max(%x, %y) : (!v, !v) -> !m1
  %r1 = sparse_array.reduce @average %m1 dims [1] : !m1 -> !r
  sparse_array.print %r1 : !r
  return
}
