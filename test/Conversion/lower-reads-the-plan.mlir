// RUN: sa-opt %s --sparse-array-derive-algebra --sparse-array-build-lattices | FileCheck %s --check-prefix=PLAN
// RUN: sa-opt %s --sparse-array-derive-algebra --sparse-array-build-lattices \
// RUN:   | sed 's/value_fill = <1 : i64>/value_fill = <7 : i64>/' \
// RUN:   | sa-opt --sparse-array-lower-iterators | FileCheck %s
// Code generation carries out the reduction plan the planner recorded on
// reduce_over; it does not plan again (issue 58). Row sums of an i64 CSR
// matrix with fill 1 are planned `reassociate` (the fill is not add's
// identity 0): the stored entries, then the fill once per implicit entry,
// combined by repeated squaring from the plan's value_fill. The second RUN
// edits the recorded fill to 7: the lowering folds 7s — re-planning would
// have derived 1 again.

// PLAN: reduce_over {{.*}} {plan = #sparse_array.reduction<strategy = reassociate, algebra = <0>, value_fill = <1 : i64>>}

// CHECK-LABEL: func.func @row_sums(
// CHECK: arith.constant 7 : i64
// CHECK-NOT: sparse_array.reduce_over

sparse_array.func @add_i64(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}

!csr = !sparse_array.array<?x?xi64, #sparse_array.format<[dense, compressed], fill = 1 : i64>>
!y = !sparse_array.array<?xi64>

func.func @row_sums(%a: !csr) -> !y {
  %r = sparse_array.kernel ins(%a : !csr) -> !y {
  ^bb0(%i: index, %j: index, %A: !csr):
    %v = sparse_array.access %A[%i, %j] : !csr
    %s = sparse_array.reduce_over [%j] %v with @add_i64 : i64
    sparse_array.yield %s : i64
  }
  return %r : !y
}
