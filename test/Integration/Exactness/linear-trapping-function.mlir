// RUN: sa-run %s | FileCheck %s
// RUN: sa-run -O0 %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices | FileCheck %s --check-prefix=PLAN
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices --sparse-array-lower-iterators --canonicalize | FileCheck %s --check-prefix=LOWER
// A kernel over five sparse vectors whose function divides by an input
// that may be absent: the case region for "divisor absent" (its fill 0)
// defines the value there, the general body would trap (SIGFPE). Its
// lattice has 31 points and 243 cases, past kMaxLatticeCases: the kernel
// coiterates its inputs with one linear loop, which picks the function's
// case at run time from its operands' values (emitBody) — the case where
// the divisor holds its fill, the body where it does not — instead of
// evaluating the body with fills (a linear loop used to divide by 0
// there: wrong values, or SIGFPE at -O0). Every coordinate where e is
// absent stores some of a..d (where all five are absent the dense
// program itself divides 0 by 0). Expected by hand: (a + b + c + d) / e
// where e is stored, the sum where it is not.

sparse_array.func @add(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
// x / y, and x where y is absent (the case region).
sparse_array.func @div_or_keep(%x: i64, %y: i64) -> i64 {
  %r = arith.divsi %x, %y : i64
  sparse_array.yield %r : i64
} case [0] {
^bb0(%x: i64, %y: i64):
  sparse_array.yield %x : i64
}

!v = !sparse_array.array<8xi64, #sparse_array.format<[compressed]>>
!d = !sparse_array.array<8xi64>

// PLAN-LABEL: func.func @main
// PLAN: lattices = [#sparse_array.lattice<loop 0, present [0, 1, 2, 3, 4], coiterate [0, 1, 2, 3, 4], linear
// LOWER-LABEL: func.func @main
// The case by the operands' values: where the sum is not its fill and e
// holds its fill (absent, or an explicit 0), keep the sum; divide where e
// is not its fill.
// LOWER:         arith.divsi %[[X:[^,]*]], %[[E:[^ ]*]] : i64
// LOWER:         scf.if %{{.*}} -> (i64) {
// LOWER-NEXT:      scf.yield %[[X]] : i64
// LOWER-NEXT:    } else {
// LOWER-NEXT:      arith.divsi %[[X]], %[[E]] : i64
func.func @main() {
  %a = sparse_array.constant sparse<[[0], [1], [5]], [6, 8, 1]> : tensor<8xi64> : !v
  %b = sparse_array.constant sparse<[[1], [2]], [4, 9]> : tensor<8xi64> : !v
  %c = sparse_array.constant sparse<[[3]], [10]> : tensor<8xi64> : !v
  %d = sparse_array.constant sparse<[[4], [7]], [7, -2]> : tensor<8xi64> : !v
  %e = sparse_array.constant sparse<[[1], [3], [6]], [3, 5, 2]> : tensor<8xi64> : !v
  %s1 = sparse_array.map @add(%a, %b) {infer_fill} : (!v, !v) -> !v
  %s2 = sparse_array.map @add(%s1, %c) {infer_fill} : (!v, !v) -> !v
  %s3 = sparse_array.map @add(%s2, %d) {infer_fill} : (!v, !v) -> !v
  %q = sparse_array.map @div_or_keep(%s3, %e) : (!v, !v) -> !d
  // [6, 12/3, 9, 10/5, 7, 1, 0/2, -2]
  // (the printed entries are those that differ from the fill 0)
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 7
  // CHECK-NEXT: 8
  // CHECK-NEXT: 1 6
  // CHECK-NEXT: 2 4
  // CHECK-NEXT: 3 9
  // CHECK-NEXT: 4 2
  // CHECK-NEXT: 5 7
  // CHECK-NEXT: 6 1
  // CHECK-NEXT: 8 -2
  // CHECK-EMPTY:
  sparse_array.print %q : !d
  return
}
