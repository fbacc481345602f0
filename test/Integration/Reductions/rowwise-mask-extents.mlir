// RUN: sa-run %s -- %S/Inputs/a-2x3.mtx %S/Inputs/b-3x2.mtx %S/Inputs/mask-2x2.mtx | FileCheck %s
// RUN: sa-opt %s --sparse-array-pipeline | FileCheck %s --check-prefix=ROWWISE
// ROWWISE: sa_rt_sort_i64
// RUN: not sa-run %s -- %S/Inputs/a-2x3.mtx %S/Inputs/b-3x2.mtx %S/Inputs/mask-2x3.mtx 2>&1 | FileCheck %s --check-prefix=COLS
// RUN: not sa-run %s -- %S/Inputs/a-2x3.mtx %S/Inputs/b-3x2.mtx %S/Inputs/mask-3x2.mtx 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: not sa-run %s -- %S/Inputs/a-2x3.mtx %S/Inputs/a-2x3.mtx %S/Inputs/mask-2x2.mtx 2>&1 | FileCheck %s --check-prefix=INNER
// A masked row-wise product C<¬M> = A · B whose sizes are known only at
// run time: the mask's rows are scattered into marks as wide as C's rows,
// so a mask of another size must stop the program (not write past them),
// as must factors whose shared dimension differs.
// A = [[3, 0, 0], [0, 0, -2]], B = [[2, 0], [0, 0], [0, 4]]:
// A · B = [[6, 0], [0, -8]]; M masks (1, 1) out. Integers: the product is
// summed from add's identity over stored products, the row-wise plan.
// CHECK:      # fill: 0
// CHECK-NEXT: 2 1
// CHECK-NEXT: 2 2
// CHECK-NEXT: 2 2 -8
// COLS: sparse_array runtime error: operand 2 of a kernel has size 3 in dimension 2, but the result has size 2 there
// ROWS: sparse_array runtime error: operand 2 of a kernel has size 3 in dimension 1, but the result has size 2 there
// INNER: sparse_array runtime error: operand 1 of a kernel has size 2 in dimension 1, but the result has size 3 there

!m = !sparse_array.array<?x?xi64, #sparse_array.format<[dense, compressed]>>
!b = !sparse_array.array<?x?xi1, #sparse_array.format<[dense, compressed]>>
sparse_array.func @mul(%x: i64, %y: i64) -> i64
    attributes {commutative, annihilator = #sparse_array.annihilator<0 : i64>} {
  %r = arith.muli %x, %y : i64
  sparse_array.yield %r : i64
}
sparse_array.func @add(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
sparse_array.func @keep_unless(%m: i1, %x: i64) -> i64
    attributes {algebra = #sparse_array.algebra<intersect(complement(0), 1),
                                                fills = [false, 0 : i64]>} {
  %z = arith.constant 0 : i64
  %r = arith.select %m, %z, %x : i64
  sparse_array.yield %r : i64
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = sparse_array.read input %c0 : !m
  %b = sparse_array.read input %c1 : !m
  %mask = sparse_array.read input %c2 : !b
  %c = sparse_array.kernel ins(%a, %b, %mask : !m, !m, !b) -> !m {
  ^bb0(%i: index, %j: index, %k: index, %A: !m, %B: !m, %M: !b):
    %x = sparse_array.access %A[%i, %k] : !m
    %y = sparse_array.access %B[%k, %j] : !m
    %p = sparse_array.apply @mul(%x, %y) : (i64, i64) -> i64
    %s = sparse_array.reduce_over [%k] %p with @add : i64
    %mij = sparse_array.access %M[%i, %j] : !b
    %r = sparse_array.apply @keep_unless(%mij, %s) : (i1, i64) -> i64
    sparse_array.yield %r : i64
  }
  sparse_array.print %c : !m
  return
}
