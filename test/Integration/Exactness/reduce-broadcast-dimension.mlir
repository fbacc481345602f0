// RUN: sa-run %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse | FileCheck %s --check-prefix=FUSE
// Issue 14, class 2: a reduction over a dimension that only broadcasting
// creates (the map's inputs have lower rank). The map's result has the
// dimension's extent in its type, the fused kernel would have none: the
// map stays its own kernel. Expected by hand: sum(-2 over 3) = -6,
// sums of rows of [[-1, -2, -3]] broadcast to 4x3 = -6 each; max over 5
// copies of -x.

sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @neg(%x: f64) -> f64 {
  %r = arith.negf %x : f64
  sparse_array.yield %r : f64
}
sparse_array.func @max(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, idempotent} {
  %r = arith.maximumf %x, %y : f64
  sparse_array.yield %r : f64
}

!s = !sparse_array.array<f64>
!d3 = !sparse_array.array<3xf64>
!v3 = !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>
!d43 = !sparse_array.array<4x3xf64>
!d4 = !sparse_array.array<4xf64>
!d53 = !sparse_array.array<5x3xf64>

// FUSE-LABEL: func.func @main
// The broadcasting map and the reduction stay two kernels (three times);
// a map whose broadcast dimension the consumer keeps (a static result
// dimension) is fused into it.
// FUSE-COUNT-7: sparse_array.kernel ins(
// FUSE-NOT: sparse_array.kernel ins(
func.func @main() {
  // CHECK:      # fill: 0
  // CHECK-NEXT: 0 1
  // CHECK-EMPTY:
  // CHECK-NEXT: -6
  %s = sparse_array.constant dense<2.0> : tensor<f64> : !s
  %m = sparse_array.map @neg(%s) : (!s) -> !d3
  %r = sparse_array.reduce @add %m dims [0] : !d3 -> !s
  sparse_array.print %r : !s

  // A sparse vector broadcast along rows, reduced along them (dimension 0
  // exists only in the map's result): column sums 4 * -v.
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 3
  // CHECK-NEXT: 3
  // CHECK-NEXT: 1 -4
  // CHECK-NEXT: 2 -8
  // CHECK-NEXT: 3 -12
  %v = sparse_array.constant sparse<[[0], [1], [2]], [1.0, 2.0, 3.0]> : tensor<3xf64> : !v3
  %b = sparse_array.map @neg(%v) : (!v3) -> !d43
  %c = sparse_array.reduce @add %b dims [0] : !d43 -> !d3
  sparse_array.print %c : !d3

  // Max over the broadcast dimension of 5 copies: -v itself.
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 3
  // CHECK-NEXT: 3
  // CHECK-NEXT: 1 -1
  // CHECK-NEXT: 2 -2
  // CHECK-NEXT: 3 -3
  %e = sparse_array.map @neg(%v) : (!v3) -> !d53
  %f = sparse_array.reduce @max %e dims [0] : !d53 -> !d3
  sparse_array.print %f : !d3

  // Row sums of the same broadcast: the kept dimension 0 has the result's
  // static size 4, so map and reduction fuse; each row sums to -6.
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 4
  // CHECK-NEXT: 4
  // CHECK-NEXT: 1 -6
  // CHECK-NEXT: 2 -6
  // CHECK-NEXT: 3 -6
  // CHECK-NEXT: 4 -6
  %g = sparse_array.map @neg(%v) : (!v3) -> !d43
  %h = sparse_array.reduce @add %g dims [1] : !d43 -> !d4
  sparse_array.print %h : !d4
  return
}
