// RUN: sa-run -O0 %s | FileCheck %s
// RUN: sa-run %s | FileCheck %s
// A function that traps in its body where an operand holds its fill (x / y
// at y = 0) has a case region for that point. The dense program takes the
// case wherever y holds its fill, stored or not: an explicitly stored 0
// divisor takes it too (an entry equal to its array's fill is no entry,
// seed 003 §6.2.1), and so does a divisor computed to 0 (c - c). Before,
// the lattice chose the case by which inputs were stored and divided by
// the stored 0 (SIGFPE). Expected by hand (numpy with the case applied):
//   x = [6, 8, 9, 10], y = [0 (stored), 4, absent, 0 (stored)]
//   x / y, or x where y is 0: [6, 2, 9, 10]
//   z = y - y: stored where y is, all 0: x where z is 0: [6, 8, 9, 10]

sparse_array.func @div_or_keep(%x: i64, %y: i64) -> i64 {
  %r = arith.divsi %x, %y : i64
  sparse_array.yield %r : i64
} case [0] {
^bb0(%x: i64, %y: i64):
  sparse_array.yield %x : i64
}
sparse_array.func @sub(%x: i64, %y: i64) -> i64 {
  %r = arith.subi %x, %y : i64
  sparse_array.yield %r : i64
}

!v = !sparse_array.array<4xi64, #sparse_array.format<[compressed]>>
!d = !sparse_array.array<4xi64>

func.func @main() {
  %x = sparse_array.constant sparse<[[0], [1], [2], [3]], [6, 8, 9, 10]> : tensor<4xi64> : !v
  %y = sparse_array.constant sparse<[[0], [1], [3]], [0, 4, 0]> : tensor<4xi64> : !v
  %q = sparse_array.map @div_or_keep(%x, %y) : (!v, !v) -> !d
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 4
  // CHECK-NEXT: 4
  // CHECK-NEXT: 1 6
  // CHECK-NEXT: 2 2
  // CHECK-NEXT: 3 9
  // CHECK-NEXT: 4 10
  sparse_array.print %q : !d
  %z = sparse_array.map @sub(%y, %y) : (!v, !v) -> !v
  %r = sparse_array.map @div_or_keep(%x, %z) : (!v, !v) -> !d
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 4
  // CHECK-NEXT: 4
  // CHECK-NEXT: 1 6
  // CHECK-NEXT: 2 8
  // CHECK-NEXT: 3 9
  // CHECK-NEXT: 4 10
  // CHECK-EMPTY:
  sparse_array.print %r : !d
  return
}
