// Gathers on or off (sa-run's --vector-gathers) give the same results; a
// bad value is an error naming it.
// RUN: sa-run --vector-gathers=on %s | FileCheck %s
// RUN: sa-run --vector-gathers=off %s | FileCheck %s
// RUN: sa-run %s | FileCheck %s
// RUN: not sa-run --vector-gathers=maybe %s 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: sa-run: error: --vector-gathers=maybe is not one of auto, on, off

// y(i) = sum_j A(i, j) * x(j): x is read at A's coordinates, a gather once
// the row loop is vectorized. A(i, j) = 1 for j < i, x(j) = j + 0.5, so
// y(i) = i^2 / 2 (row 0 is empty: no entry).
!csr = !sparse_array.array<12x12xf64, #sparse_array.format<[dense, compressed]>>
!x = !sparse_array.array<12xf64>
!y = !sparse_array.array<12xf64, #sparse_array.format<[compressed]>>
sparse_array.func @mul(%a: f64, %b: f64) -> f64
    attributes {commutative, annihilator = #sparse_array.annihilator<0.0 : f64>} {
  %r = arith.mulf %a, %b : f64
  sparse_array.yield %r : f64
}
sparse_array.func @add(%a: f64, %b: f64) -> f64
    attributes {commutative, associative, identity = #sparse_array.identity<0.0 : f64>} {
  %r = arith.addf %a, %b : f64
  sparse_array.yield %r : f64
}
func.func @main() {
  %a = sparse_array.constant dense<[[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0]]> : tensor<12x12xf64> : !csr
  %x = sparse_array.constant dense<[0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5]> : tensor<12xf64> : !x
  %y = sparse_array.kernel ins(%a, %x : !csr, !x) -> !y {
  ^bb0(%i: index, %j: index, %A: !csr, %X: !x):
    %aij = sparse_array.access %A[%i, %j] : !csr
    %xj = sparse_array.access %X[%j] : !x
    %p = sparse_array.apply @mul(%aij, %xj) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%j] %p with @add : f64
    sparse_array.yield %s : f64
  }
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 11
  // CHECK-NEXT: 12
  // CHECK-NEXT: 2 0.5
  // CHECK-NEXT: 3 2
  // CHECK-NEXT: 4 4.5
  // CHECK-NEXT: 5 8
  // CHECK-NEXT: 6 12.5
  // CHECK-NEXT: 7 18
  // CHECK-NEXT: 8 24.5
  // CHECK-NEXT: 9 32
  // CHECK-NEXT: 10 40.5
  // CHECK-NEXT: 11 50
  // CHECK-NEXT: 12 60.5
  sparse_array.print %y : !y
  return
}
