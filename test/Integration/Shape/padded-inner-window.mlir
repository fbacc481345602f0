// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --disable-openmp %s | FileCheck %s
// A padded window over an inner dense dimension (what tensor.pad and the
// concatenation of middle dimensions read): the window's level is iterated
// under its parent's position. Located from the root instead, row 1's
// coordinate -1 read row 0's last entry (printed 2 where the fill is).
// Expected by hand: B(i, j, 0) = -A(i, j - 1, 0), -0 (negated fill) where
// j - 1 is outside [0, 2).
// CHECK:      # fill: 0
// CHECK-NEXT: 3 6
// CHECK-NEXT: 2 3 1
// CHECK-NEXT: 1 1 1 -0
// CHECK-NEXT: 1 2 1 -1
// CHECK-NEXT: 1 3 1 -2
// CHECK-NEXT: 2 1 1 -0
// CHECK-NEXT: 2 2 1 -3
// CHECK-NEXT: 2 3 1 -4
sparse_array.func @neg(%x: f32) -> f32 {
  %r = arith.negf %x : f32
  sparse_array.yield %r : f32
}
!A = !sparse_array.array<2x2x1xf32>
!R = !sparse_array.array<2x3x1xf32>
func.func @main() {
  %a = sparse_array.constant dense<[[[1.0], [2.0]], [[3.0], [4.0]]]> : tensor<2x2x1xf32> : !A
  %r = sparse_array.kernel ins(%a : !A) -> !R {
  ^bb0(%i: index, %j: index, %k: index, %A: !A):
    %v = sparse_array.access %A[%i, %j(-1:2), %k] padded : !A
    %n = sparse_array.apply @neg(%v) : (f32) -> f32
    sparse_array.yield %n : f32
  }
  sparse_array.print %r : !R
  return
}
