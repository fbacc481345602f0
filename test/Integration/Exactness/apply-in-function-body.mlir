// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks -O0 %s | FileCheck %s
// Issue 14, class 1: a sparse_array.apply at the top of a function body
// (not nested in an scf.if) is inlined in place. Before, the call's clone
// was erased while the value map still pointed at it: a crash, a store of
// the wrong type, or a use that does not dominate. Expected values by hand
// (numpy: 2 * x, (x + y) * x, max(x + 1, y)).

sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @mul(%x: f64, %y: f64) -> f64 {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
// One call at the top.
sparse_array.func @twice(%x: f64) -> f64 {
  %a = sparse_array.apply @add(%x, %x) : (f64, f64) -> f64
  sparse_array.yield %a : f64
}
// A chain: a call whose result feeds another call and an arith op.
sparse_array.func @sum_times_first(%x: f64, %y: f64) -> f64 {
  %s = sparse_array.apply @add(%x, %y) : (f64, f64) -> f64
  %p = sparse_array.apply @mul(%s, %x) : (f64, f64) -> f64
  sparse_array.yield %p : f64
}
// A call at the top and one nested in a region, and a call of a function
// that itself calls at the top.
sparse_array.func @max_succ(%x: f64, %y: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %s = sparse_array.apply @add(%x, %one) : (f64, f64) -> f64
  %gt = arith.cmpf ogt, %s, %y : f64
  %r = scf.if %gt -> f64 {
    %t = sparse_array.apply @twice(%s) : (f64) -> f64
    %h = arith.mulf %t, %one : f64
    %half = arith.constant 0.5 : f64
    %v = arith.mulf %h, %half : f64
    scf.yield %v : f64
  } else {
    scf.yield %y : f64
  }
  sparse_array.yield %r : f64
}

!d2 = !sparse_array.array<2xf64>
!s4 = !sparse_array.array<4xf64, #sparse_array.format<[compressed]>>
!s4f1 = !sparse_array.array<4xf64, #sparse_array.format<[compressed], fill = 1.0 : f64>>

func.func @main() {
  %d = sparse_array.constant dense<[1.0, 2.0]> : tensor<2xf64> : !d2
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 2
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 2 4
  %r = sparse_array.map @twice(%d) : (!d2) -> !d2
  sparse_array.print %r : !d2

  // (x + y) * x over sparse vectors: x = {0: 3, 2: -1}, y = {1: 5, 2: 4}:
  // [9, 0, -3, 0].
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 4
  // CHECK-NEXT: 1 9
  // CHECK-NEXT: 3 -3
  %x = sparse_array.constant sparse<[[0], [2]], [3.0, -1.0]> : tensor<4xf64> : !s4
  %y = sparse_array.constant sparse<[[1], [2]], [5.0, 4.0]> : tensor<4xf64> : !s4
  %p = sparse_array.map @sum_times_first(%x, %y) : (!s4, !s4) -> !s4
  sparse_array.print %p : !s4

  // max(x + 1, y) by cases: [4, 5, 4, 1], fill max(0 + 1, 0) = 1.
  // CHECK:      # fill: 1
  // CHECK-NEXT: 1 3
  // CHECK-NEXT: 4
  // CHECK-NEXT: 1 4
  // CHECK-NEXT: 2 5
  // CHECK-NEXT: 3 4
  %m = sparse_array.map @max_succ(%x, %y) : (!s4, !s4) -> !s4f1
  sparse_array.print %m : !s4f1
  return
}
