// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --disable-openmp %s | FileCheck %s
// Issue 55, class 2: a reduction folds the reduced entries in C order (the
// dense program's left fold) whatever order the input stores them in. A
// combiner that is not both commutative and associative must not be
// folded in storage order (CSC, COO by columns, DCSC, permuted 3-D):
// the input is read in the fold's order instead. Expected values by hand:
//   add_f64 (exact, not associative) of [[1e16, 1], [-1e16, 1]] in C
//   order: ((1e16 + 1) + -1e16) + 1 = 1 (column order gives 2);
//   f(x, y) = 2x + y over [[1, 2], [3, 4]]: f(f(f(1, 2), 3), 4) = 26 (28
//   in column order); over the 2x2x2 array 1..8: 2^7 * 1 + 2^6 * 2 + ... + 8 = 502;
//   the average (x & y) + ((x ^ y) >> 1) (commutative, idempotent, not
//   associative) of [[0, 8], [4, 0]]: avg(avg(avg(0, 8), 4), 0) = 2 (1 in
//   column order); select(x < y, x, y) of [[nan, 1], [2, 3]]: nan < 1 is
//   false, so 1, then 1 (in column order: nan, 2 -> 2, then 1 -> 1, 3 ->
//   1; rows [nan, 1] -> 1 and [2, 3] -> 2 per row).

sparse_array.func @add_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @twice_plus(%x: f64, %y: f64) -> f64 {
  %c2 = arith.constant 2.0 : f64
  %t = arith.mulf %x, %c2 : f64
  %r = arith.addf %t, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @average(%x: i64, %y: i64) -> i64 attributes {commutative, idempotent} {
  %a = arith.andi %x, %y : i64
  %b = arith.xori %x, %y : i64
  %c1 = arith.constant 1 : i64
  %h = arith.shrsi %b, %c1 : i64
  %r = arith.addi %a, %h : i64
  sparse_array.yield %r : i64
}
sparse_array.func @select_min(%x: f64, %y: f64) -> f64 attributes {idempotent} {
  %lt = arith.cmpf olt, %x, %y : f64
  %r = arith.select %lt, %x, %y : f64
  sparse_array.yield %r : f64
}

!csc = !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
!cooc = !sparse_array.array<2x2xf64, #sparse_array.format<[compressed(nonunique), singleton], order = [1, 0]>>
!dcsc = !sparse_array.array<2x2xf64, #sparse_array.format<[compressed, compressed], order = [1, 0]>>
!fmaj = !sparse_array.array<2x2xf64, #sparse_array.format<[dense, dense], order = [1, 0]>>
!csf_p = !sparse_array.array<2x2x2xf64, #sparse_array.format<[compressed, compressed, compressed], order = [2, 0, 1]>>
!icsc = !sparse_array.array<2x2xi64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
!s = !sparse_array.array<f64>
!si = !sparse_array.array<i64>
!vec = !sparse_array.array<2xf64>

func.func @main() {
  // CHECK-COUNT-4: {{^}}1{{$}}
  %a = sparse_array.constant dense<[[1.0e16, 1.0], [-1.0e16, 1.0]]> : tensor<2x2xf64> : !csc
  %ra = sparse_array.reduce @add_f64 %a dims [0, 1] : !csc -> !s
  sparse_array.print %ra : !s
  %b = sparse_array.convert %a : !csc to !cooc
  %rb = sparse_array.reduce @add_f64 %b dims [0, 1] : !cooc -> !s
  sparse_array.print %rb : !s
  %c = sparse_array.convert %a : !csc to !dcsc
  %rc = sparse_array.reduce @add_f64 %c dims [0, 1] : !dcsc -> !s
  sparse_array.print %rc : !s
  %d = sparse_array.convert %a : !csc to !fmaj
  %rd = sparse_array.reduce @add_f64 %d dims [0, 1] : !fmaj -> !s
  sparse_array.print %rd : !s

  // CHECK: {{^}}26{{$}}
  %e = sparse_array.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf64> : !csc
  %k = sparse_array.kernel ins(%e : !csc) -> !s {
  ^bb0(%i: index, %j: index, %E: !csc):
    %x = sparse_array.access %E[%i, %j] : !csc
    %r = sparse_array.reduce_over [%i, %j] %x with @twice_plus : f64
    sparse_array.yield %r : f64
  }
  sparse_array.print %k : !s

  // 1..8 in C order (storage order 2, 0, 1 gives another value).
  // CHECK: {{^}}502{{$}}
  %p = sparse_array.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]> : tensor<2x2x2xf64> : !csf_p
  %rp = sparse_array.reduce @twice_plus %p dims [0, 1, 2] : !csf_p -> !s
  sparse_array.print %rp : !s

  // CHECK: {{^}}2{{$}}
  %g = sparse_array.constant dense<[[0, 8], [4, 0]]> : tensor<2x2xi64> : !icsc
  %rg = sparse_array.reduce @average %g dims [0, 1] : !icsc -> !si
  sparse_array.print %rg : !si

  // CHECK: {{^}}1{{$}}
  %h = sparse_array.constant dense<[[0x7FF8000000000000, 1.0], [2.0, 3.0]]> : tensor<2x2xf64> : !csc
  %rh = sparse_array.reduce @select_min %h dims [0, 1] : !csc -> !s
  sparse_array.print %rh : !s
  // Per row (dimension 1 reduced, a scatter over the columns stays exact:
  // each row's entries still come in column order).
  // CHECK: # fill: 0
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 2
  // CHECK-NEXT: 1 1
  // CHECK-NEXT: 2 2
  %rr = sparse_array.reduce @select_min %h dims [1] : !csc -> !vec
  sparse_array.print %rr : !vec
  return
}
