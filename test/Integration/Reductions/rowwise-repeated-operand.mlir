// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --workspace=hash %s | FileCheck %s
// C = A · A with A passed twice: two accesses of one array, a row-wise
// (Gustavson) product reading A by rows for both factors. Expected entries
// from numpy's A @ A on the dense A:
//   [[ 1  8 12  0]
//    [ 0  0  0  0]
//    [ 0 20 25 12]
//    [ 0  0  0  0]]
// CHECK: # fill: 0
// CHECK-NEXT: 2 6
// CHECK-NEXT: 4 4
// CHECK-NEXT: 1 1 1
// CHECK-NEXT: 1 2 8
// CHECK-NEXT: 1 3 12
// CHECK-NEXT: 3 2 20
// CHECK-NEXT: 3 3 25
// CHECK-NEXT: 3 4 12

!m = !sparse_array.array<4x4xi64, #sparse_array.format<[dense, compressed]>>
sparse_array.func @mul(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, annihilator = #sparse_array.annihilator<0 : i64>,
                identity = #sparse_array.identity<1 : i64>} {
  %r = arith.muli %x, %y : i64
  sparse_array.yield %r : i64
}
sparse_array.func @add(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
func.func @main() {
  %a = sparse_array.constant sparse<[[0, 0], [0, 2], [1, 3], [2, 1], [2, 2]], [1, 2, 3, 4, 5]> : tensor<4x4xi64> : !m
  %c = sparse_array.kernel ins(%a, %a : !m, !m) -> !m {
  ^bb0(%i: index, %j: index, %k: index, %A: !m, %B: !m):
    %x = sparse_array.access %A[%i, %k] : !m
    %y = sparse_array.access %B[%k, %j] : !m
    %p = sparse_array.apply @mul(%x, %y) : (i64, i64) -> i64
    %s = sparse_array.reduce_over [%k] %p with @add : i64
    sparse_array.yield %s : i64
  }
  sparse_array.print %c : !m
  sparse_array.dealloc %c : !m
  return
}
