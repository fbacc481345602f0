// RUN: sa-run --bounds-checks %s | FileCheck %s
// RUN: sa-run --bounds-checks -O0 %s | FileCheck %s
// Issue 14, class 5: size-1 broadcasting through sparse inputs stored in
// another order than the loops (converted first) that are empty or miss
// the broadcast coordinate. A missed constant coordinate leaves the search
// at the end of its segment; the dense level below multiplied that out of
// range and the compressed level below it read positions past their
// buffer. With --bounds-checks such a read stops the program; here every
// result is the dense program's (numpy: a + 1 broadcast).

sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}

!a = !sparse_array.array<3x4x1xf64, #sparse_array.format<[compressed, dense, compressed], order = [1, 0, 2]>>
!b = !sparse_array.array<1x4x2xf64, #sparse_array.format<[compressed, dense, compressed], order = [2, 0, 1]>>
!d = !sparse_array.array<3x4x2xf64>

func.func @main() {
  %one = sparse_array.constant dense<1.0> : tensor<3x4x2xf64> : !d
  // Empty (its only entry is its fill): 1 everywhere.
  // CHECK:      # fill: 0
  // CHECK-NEXT: 3 24
  // CHECK-NEXT: 3 4 2
  // CHECK-NEXT: 1 1 1 1
  // CHECK-NEXT: 1 1 2 1
  // CHECK:      3 4 2 1
  %e = sparse_array.constant sparse<[[0, 0, 0]], [0.0]> : tensor<3x4x1xf64> : !a
  %r0 = sparse_array.map @add(%e, %one) : (!a, !d) -> !d
  sparse_array.print %r0 : !d

  // One entry, a(2, 3, 0) = 5: 6 at (2, 3, *), 1 elsewhere.
  // CHECK:      # fill: 0
  // CHECK-NEXT: 3 24
  // CHECK:      3 3 2 1
  // CHECK-NEXT: 3 4 1 6
  // CHECK-NEXT: 3 4 2 6
  %s = sparse_array.constant sparse<[[2, 3, 0]], [5.0]> : tensor<3x4x1xf64> : !a
  %r1 = sparse_array.map @add(%s, %one) : (!a, !d) -> !d
  sparse_array.print %r1 : !d

  // Broadcast along dimension 0 with the stored levels in order
  // (k, i, j): b(0, 1, 1) = 2: 3 at (*, 1, 1).
  // CHECK:      # fill: 0
  // CHECK-NEXT: 3 24
  // CHECK-NEXT: 3 4 2
  // CHECK-NEXT: 1 1 1 1
  // CHECK-NEXT: 1 1 2 1
  // CHECK-NEXT: 1 2 1 1
  // CHECK-NEXT: 1 2 2 3
  // CHECK:      2 2 2 3
  // CHECK:      3 2 2 3
  %bs = sparse_array.constant sparse<[[0, 1, 1]], [2.0]> : tensor<1x4x2xf64> : !b
  %r2 = sparse_array.map @add(%bs, %one) : (!b, !d) -> !d
  sparse_array.print %r2 : !d
  return
}
