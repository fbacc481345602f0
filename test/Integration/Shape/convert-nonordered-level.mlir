// RUN: sa-run %s | FileCheck %s
// A kernel whose loops do not follow an input's levels converts it; the
// dimensions read at constants sort first, so a nonordered level read at
// a constant coordinate (the squeezed one) comes to store a dimension a
// loop iterates (here counting down): that level must be ordered in the
// conversion (it was not, and the kernel was rejected; found by the
// elementwise fuzzer). Expected from numpy: A[3:0:-1] with
//   A (4x3) = [[0, 1, 0], [2, 0, 3], [0, 4, 0], [5, 0, 6]]
// CHECK: # fill: 0
// CHECK-NEXT: 2 5
// CHECK-NEXT: 3 3
// CHECK-NEXT: 1 1 5
// CHECK-NEXT: 1 3 6
// CHECK-NEXT: 2 2 4
// CHECK-NEXT: 3 1 2
// CHECK-NEXT: 3 3 3
!in = !sparse_array.array<4x3x1xf64, #sparse_array.format<[dense, compressed, compressed(nonordered)]>>
!sq = !sparse_array.array<4x3xf64, #sparse_array.format<[dense, compressed]>>
!csc = !sparse_array.array<3x3xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
func.func @main() {
  %a = sparse_array.constant sparse<[[0,1,0],[1,0,0],[1,2,0],[2,1,0],[3,0,0],[3,2,0]], [1.0,2.0,3.0,4.0,5.0,6.0]> : tensor<4x3x1xf64> : !in
  %q = sparse_array.squeeze %a [2] : !in -> !sq
  %s = sparse_array.slice %q[3:0:-1, 0:3] : !sq -> !csc
  sparse_array.print %s : !csc
  return
}
