// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --disable-openmp %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices | FileCheck %s --check-prefix=PLAN
// Folds from a start value (reduce_over ... from %s: issue 57, what
// an output the reduction accumulates into is): ((s ⊕ v0) ⊕ v1) ... in
// the loop order, under every reduction strategy. Expected values by hand
// from the dense rows (printed: entries that are not the fill, 1-based):
//   universe, f(x, y) = 2x + y over [[1, 0, 2], [0, 0, 0], [0, 3, 0]] from
//   [1, 5, -1]: 14, 40, -2;
//   signed_zero_sum, exact IEEE add over [[-0, -0], [_, _], [1e16, 1]]
//   (_ implicit +0.0) from [-0, -0, -1e16]: -0 (every term -0), +0 (an
//   implicit +0.0), (-1e16 + 1e16) + 1 = 1 (regrouped: 0);
//   reassociate, i64 add over rows with fill 1 [[2, _, _, _], [_, _, _, _]]
//   from [10, 20]: 15, 24;
//   idempotent, i64 max with fill 0 over [[5, _], [_, _]] from [7, -3]: 7, 0;
//   keyed IEEE maximum over [[1, _], [_, _]] (fill 0) from [nan, 2]: nan, 2;
//   identity with early exit, i64 mul (annihilator 0) with fill 1 over
//   [[2, 3], [_, 4]] from [0, 3]: 0, 12.
// PLAN: reduce_over [%{{.*}}] %{{.*}} from %{{.*}} with @twice_plus {plan = #sparse_array.reduction<strategy = universe{{[,>].*}}}
// PLAN: reduce_over [%{{.*}}] %{{.*}} from %{{.*}} with @add_f64 {plan = #sparse_array.reduction<strategy = signed_zero_sum{{[,>].*}}}
// PLAN: reduce_over [%{{.*}}] %{{.*}} from %{{.*}} with @add_i64 {plan = #sparse_array.reduction<strategy = reassociate{{[,>].*}}}
// PLAN: reduce_over [%{{.*}}] %{{.*}} from %{{.*}} with @max_i64 {plan = #sparse_array.reduction<strategy = idempotent{{[,>].*}}}
// PLAN: reduce_over [%{{.*}}] %{{.*}} from %{{.*}} with @maximum {plan = #sparse_array.reduction<strategy = idempotent{{[,>].*}}}
// PLAN: reduce_over [%{{.*}}] %{{.*}} from %{{.*}} with @mul_i64 {early_exit, plan = #sparse_array.reduction<strategy = identity{{[,>].*}}}

sparse_array.func @twice_plus(%x: f64, %y: f64) -> f64 {
  %c2 = arith.constant 2.0 : f64
  %t = arith.mulf %x, %c2 : f64
  %r = arith.addf %t, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @add_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @add_i64(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
sparse_array.func @max_i64(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, idempotent} {
  %r = arith.maxsi %x, %y : i64
  sparse_array.yield %r : i64
}
sparse_array.func @maximum(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, idempotent,
                identity = #sparse_array.identity<0xFFF0000000000000 : f64>} {
  %r = arith.maximumf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @mul_i64(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, annihilator = #sparse_array.annihilator<0 : i64>,
                identity = #sparse_array.identity<1 : i64>} {
  %r = arith.muli %x, %y : i64
  sparse_array.yield %r : i64
}

!m3 = !sparse_array.array<3x3xf64, #sparse_array.format<[dense, compressed]>>
!v3 = !sparse_array.array<3xf64>
!m32 = !sparse_array.array<3x2xf64, #sparse_array.format<[dense, compressed]>>
!mi1 = !sparse_array.array<2x4xi64, #sparse_array.format<[dense, compressed], fill = 1 : i64>>
!mi0 = !sparse_array.array<2x2xi64, #sparse_array.format<[dense, compressed]>>
!mf0 = !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>>
!mm1 = !sparse_array.array<2x2xi64, #sparse_array.format<[dense, compressed], fill = 1 : i64>>
!vi = !sparse_array.array<2xi64>
!vf = !sparse_array.array<2xf64>

func.func @main() {
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 3
  // CHECK-NEXT: 3
  // CHECK-NEXT: 1 14
  // CHECK-NEXT: 2 40
  // CHECK-NEXT: 3 -2
  %a = sparse_array.constant dense<[[1.0, 0.0, 2.0], [0.0, 0.0, 0.0], [0.0, 3.0, 0.0]]> : tensor<3x3xf64> : !m3
  %a0 = sparse_array.constant dense<[1.0, 5.0, -1.0]> : tensor<3xf64> : !v3
  %ra = sparse_array.kernel ins(%a, %a0 : !m3, !v3) -> !v3 {
  ^bb0(%i: index, %j: index, %A: !m3, %S: !v3):
    %v = sparse_array.access %A[%i, %j] : !m3
    %s = sparse_array.access %S[%i] : !v3
    %r = sparse_array.reduce_over [%j] %v from %s with @twice_plus : f64
    sparse_array.yield %r : f64
  }
  sparse_array.print %ra : !v3

  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 3
  // CHECK-NEXT: 1 -0
  // CHECK-NEXT: 3 1
  %b = sparse_array.constant dense<[[-0.0, -0.0], [0.0, 0.0], [1.0e16, 1.0]]> : tensor<3x2xf64> : !m32
  %b0 = sparse_array.constant dense<[-0.0, -0.0, -1.0e16]> : tensor<3xf64> : !v3
  %rb = sparse_array.kernel ins(%b, %b0 : !m32, !v3) -> !v3 {
  ^bb0(%i: index, %j: index, %B: !m32, %S: !v3):
    %v = sparse_array.access %B[%i, %j] : !m32
    %s = sparse_array.access %S[%i] : !v3
    %r = sparse_array.reduce_over [%j] %v from %s with @add_f64 : f64
    sparse_array.yield %r : f64
  }
  sparse_array.print %rb : !v3

  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 2
  // CHECK-NEXT: 1 15
  // CHECK-NEXT: 2 24
  %c = sparse_array.constant dense<[[2, 1, 1, 1], [1, 1, 1, 1]]> : tensor<2x4xi64> : !mi1
  %c0 = sparse_array.constant dense<[10, 20]> : tensor<2xi64> : !vi
  %rc = sparse_array.kernel ins(%c, %c0 : !mi1, !vi) -> !vi {
  ^bb0(%i: index, %j: index, %C: !mi1, %S: !vi):
    %v = sparse_array.access %C[%i, %j] : !mi1
    %s = sparse_array.access %S[%i] : !vi
    %r = sparse_array.reduce_over [%j] %v from %s with @add_i64 : i64
    sparse_array.yield %r : i64
  }
  sparse_array.print %rc : !vi

  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 1
  // CHECK-NEXT: 2
  // CHECK-NEXT: 1 7
  %d = sparse_array.constant dense<[[5, 0], [0, 0]]> : tensor<2x2xi64> : !mi0
  %d0 = sparse_array.constant dense<[7, -3]> : tensor<2xi64> : !vi
  %rd = sparse_array.kernel ins(%d, %d0 : !mi0, !vi) -> !vi {
  ^bb0(%i: index, %j: index, %D: !mi0, %S: !vi):
    %v = sparse_array.access %D[%i, %j] : !mi0
    %s = sparse_array.access %S[%i] : !vi
    %r = sparse_array.reduce_over [%j] %v from %s with @max_i64 : i64
    sparse_array.yield %r : i64
  }
  sparse_array.print %rd : !vi

  // (the row of -3 gives the fill: no entry; the next line is a header)
  // CHECK-NEXT: # fill: 0
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 2
  // CHECK-NEXT: 1 nan
  // CHECK-NEXT: 2 2
  %e = sparse_array.constant dense<[[1.0, 0.0], [0.0, 0.0]]> : tensor<2x2xf64> : !mf0
  %e0 = sparse_array.constant dense<[0x7FF8000000000000, 2.0]> : tensor<2xf64> : !vf
  %re = sparse_array.kernel ins(%e, %e0 : !mf0, !vf) -> !vf {
  ^bb0(%i: index, %j: index, %E: !mf0, %S: !vf):
    %v = sparse_array.access %E[%i, %j] : !mf0
    %s = sparse_array.access %S[%i] : !vf
    %r = sparse_array.reduce_over [%j] %v from %s with @maximum : f64
    sparse_array.yield %r : f64
  }
  sparse_array.print %re : !vf

  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 1
  // CHECK-NEXT: 2
  // CHECK-NEXT: 2 12
  %f = sparse_array.constant dense<[[2, 3], [1, 4]]> : tensor<2x2xi64> : !mm1
  %f0 = sparse_array.constant dense<[0, 3]> : tensor<2xi64> : !vi
  %rf = sparse_array.kernel ins(%f, %f0 : !mm1, !vi) -> !vi {
  ^bb0(%i: index, %j: index, %F: !mm1, %S: !vi):
    %v = sparse_array.access %F[%i, %j] : !mm1
    %s = sparse_array.access %S[%i] : !vi
    %r = sparse_array.reduce_over [%j] %v from %s with @mul_i64 : i64
    sparse_array.yield %r : i64
  }
  sparse_array.print %rf : !vi
  return
}
