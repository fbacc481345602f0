// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --disable-openmp -O0 %s | FileCheck %s
// Issue 55, class 1: a function that may trap (integer division by a
// variable, gcd's loop), applied to a reduction's result, in a kernel that
// also reads a compressed vector at a fixed coordinate (or broadcast from
// size 1). The trapping function's run-time test of its derived space
// needed the values of inputs only the reduction's loop reads: a crash at
// compile time. Expected by hand (numpy: (10 - 1 + 20 - 1) // 5 = 5,
// gcd(28, 6) = 2, and per row sum(A[i, :] - b[0]) // c[i]).

sparse_array.func @sub(%x: i64, %y: i64) -> i64 {
  %r = arith.subi %x, %y : i64
  sparse_array.yield %r : i64
}
sparse_array.func @add(%x: i64, %y: i64) -> i64 attributes {commutative, associative,
    identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
sparse_array.func @div(%x: i64, %y: i64) -> i64 {
  %r = arith.divsi %x, %y : i64
  sparse_array.yield %r : i64
}
sparse_array.func @gcd(%x: i64, %y: i64) -> i64 {
  %r:2 = scf.while (%a = %x, %b = %y) : (i64, i64) -> (i64, i64) {
    %c0 = arith.constant 0 : i64
    %nz = arith.cmpi ne, %b, %c0 : i64
    scf.condition(%nz) %a, %b : i64, i64
  } do {
  ^bb0(%a: i64, %b: i64):
    %m = arith.remsi %a, %b : i64
    scf.yield %b, %m : i64, i64
  }
  sparse_array.yield %r#0 : i64
}

!d = !sparse_array.array<2xi64>
!b = !sparse_array.array<1xi64, #sparse_array.format<[compressed]>>
!s = !sparse_array.array<i64>
!c = !sparse_array.array<i64, #sparse_array.format<[], fill = 5 : i64>>
!c6 = !sparse_array.array<i64, #sparse_array.format<[], fill = 6 : i64>>
!m = !sparse_array.array<2x3xi64, #sparse_array.format<[dense, compressed]>>
!v = !sparse_array.array<2xi64, #sparse_array.format<[compressed], fill = 3 : i64>>

func.func @main() {
  %a = sparse_array.constant dense<[10, 20]> : tensor<2xi64> : !d
  %b = sparse_array.constant dense<1> : tensor<1xi64> : !b
  %c = sparse_array.constant dense<5> : tensor<i64> : !c

  // The issue's program: map, reduce, map.
  // CHECK: # fill: 0
  // CHECK-NEXT: 0 1
  // CHECK-EMPTY:
  // CHECK-NEXT: 5
  %m = sparse_array.map @sub(%a, %b) : (!d, !b) -> !d
  %r = sparse_array.reduce @add %m dims [0] : !d -> !s
  %q = sparse_array.map @div(%r, %c) : (!s, !c) -> !s
  sparse_array.print %q : !s

  // The same as one kernel: b read at the fixed coordinate 0.
  // CHECK: # fill: 0
  // CHECK-NEXT: 0 1
  // CHECK-EMPTY:
  // CHECK-NEXT: 5
  %k = sparse_array.kernel ins(%a, %b, %c : !d, !b, !c) -> !s {
  ^bb0(%i: index, %A: !d, %B: !b, %C: !c):
    %c0 = arith.constant 0 : index
    %x = sparse_array.access %A[%i] : !d
    %y = sparse_array.access %B[%c0] : !b
    %z = sparse_array.apply @sub(%x, %y) : (i64, i64) -> i64
    %s = sparse_array.reduce_over [%i] %z with @add : i64
    %w = sparse_array.access %C[] : !c
    %v = sparse_array.apply @div(%s, %w) : (i64, i64) -> i64
    sparse_array.yield %v : i64
  }
  sparse_array.print %k : !s

  // gcd (a loop) in place of the division: gcd(28, 6) = 2.
  // CHECK: # fill: 0
  // CHECK-NEXT: 0 1
  // CHECK-EMPTY:
  // CHECK-NEXT: 2
  %c6 = sparse_array.constant dense<6> : tensor<i64> : !c6
  %g = sparse_array.map @gcd(%r, %c6) : (!s, !c6) -> !s
  sparse_array.print %g : !s

  // Rows of a CSR matrix: (sum_j (A[i, j] - b[0])) // c[i], c stored
  // with fill 3: row 0: (7 - 1) + (0 - 1) * 2 = 4, 4 // 3 = 1; row 1:
  // (9 - 1) + (5 - 1) + (0 - 1) = 11, 11 // 2 = 5.
  // CHECK: # fill: 0
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 2
  // CHECK-NEXT: 1 1
  // CHECK-NEXT: 2 5
  %A = sparse_array.constant dense<[[7, 0, 0], [9, 5, 0]]> : tensor<2x3xi64> : !m
  %cv = sparse_array.constant dense<[3, 2]> : tensor<2xi64> : !v
  %rows = sparse_array.kernel ins(%A, %b, %cv : !m, !b, !v) -> !d {
  ^bb0(%i: index, %j: index, %M: !m, %B: !b, %V: !v):
    %c0 = arith.constant 0 : index
    %x = sparse_array.access %M[%i, %j] : !m
    %y = sparse_array.access %B[%c0] : !b
    %z = sparse_array.apply @sub(%x, %y) : (i64, i64) -> i64
    %s = sparse_array.reduce_over [%j] %z with @add : i64
    %w = sparse_array.access %V[%i] : !v
    %v = sparse_array.apply @div(%s, %w) : (i64, i64) -> i64
    sparse_array.yield %v : i64
  }
  sparse_array.print %rows : !d
  return
}
