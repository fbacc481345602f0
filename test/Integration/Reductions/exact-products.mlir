// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks --workspace=hash %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-guard-exact-products --sparse-array-derive-algebra --sparse-array-build-lattices | FileCheck %s --check-prefix=PLAN
// C = A B with the exact add_f64 (identity -0.0) and mul_f64 (0 * inf is
// NaN, 0 * -1 is -0.0), fills +0.0 (issue 20 part 3): under the guard (no
// inf/NaN stored, max row of A + max column of B < K) the row-wise product
// summing from +0.0; otherwise the exact union plan. Expected: the dense
// program, a left fold from -0.0 in Python floats over k, printed as the
// entries that are not the fill +0.0 (row-major, 1-based):
//   A1 = [[1, 0, 0, -2], [0, 0, 0, 0], [0, -0.0, 0, 0]]
//   B1 = [[3, 0, 0], [0, 5, 0], [0, 0, 0], [0.5, 0, -1]]   (K = 4)
//     guard holds (max row 2 + max column 2 < 4):
//     C = [[3 - 1 = 2, 0.0, 2.0], [0.0]*3, [0.0, -0.0 * 5 -> 0.0, 0.0]]
//     (row 2: -0.0 * 5 = -0.0 and a k stored in neither: +0.0)
//   B2 = B1 with B[1][1] = inf: guard fails; C(i, j) is NaN wherever some k
//     has A(i, k) = 0 and B(k, j) = inf, i.e. column 1 in every row, and
//     row 2's -0.0 * inf too: [[2, nan, 2], [0, nan, 0], [0, nan, 0]]
//   A3 = [[-1, -1]], B3 = [[0, 2], [0, 0]] (K = 2): a full row, guard
//     fails; C(0, 0) = -1 * 0 + -1 * 0 = -0.0 + -0.0 = -0.0 (stored: it is
//     not the fill), C(0, 1) = -2 + -0.0 = -2
//   A4 = [[-1, 0]], B4 = [[0], [-3]] (K = 2): max row 1 + max column 1 is
//     not less than K (every k stored in one factor): the exact plan;
//     C = -1 * 0 + 0 * -3 = -0.0 + -0.0 = -0.0
//   A5 A5, A5 = [[1, 0, 0, -2], [0, 3, 0, 0], [0, 0, 0, 0], [0, 0, -0.0, 0]]
//     (max row 2 + max column 1 < 4: guarded): [[1, 0, 0, -2], [0, 9, 0, 0],
//     [0]*4, [0]*4] (row 3: -0.0 * 0 terms and +0.0 ones: +0.0)
//   A6 A6, A6 = [[-1, -1], [0, 0]] (a full row: the exact plan):
//     [[1, 1], [0, 0]] (1 + -1 * 0 = 1; row 1: -0.0 + 0.0 = 0.0)
//   A7 = [[4, 0, 0, 3]], B7 = [[-2, -0.0, 4, 0], [0]*4, [0, 0, 0, 2],
//     [0]*4] (guarded: 2 + 1 < 4): C = [[-8, 4 * -0.0 + 0 + 0 + 0 = 0.0,
//     16, 0]]; the lone -0.0 product must not be stored (the fast copy's
//     mul turns -0.0 into +0.0; found by reductions.py seed 171)

// PLAN-LABEL: func.func @matmul_343(
// PLAN: scf.if
// PLAN: with @__sa_add_f64_from_zero {plan = #sparse_array.reduction<strategy = identity{{[,>].*}}, scatter = array<i32: 0, 1>}
// PLAN: } else {
// The exact plan scatters each row's products into a workspace over the
// columns (loops i, k, j: Gustavson's order) instead of converting B:
// PLAN: with @add_f64 {plan = #sparse_array.reduction<strategy = signed_zero_sum{{[,>].*}}, scatter_loops = array<i32: 0, 2, 1>}
// The repeated operand (A A) is guarded too:
// PLAN-LABEL: func.func @square_4(
// PLAN: scf.if
// PLAN: sparse_array.kernel ins(%[[A:.*]], %[[A]] : !sparse_array.array<4x4xf64, #csr>, !sparse_array.array<4x4xf64, #csr>)
// PLAN: @__sa_add_f64_from_zero

sparse_array.func @add_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @mul_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<1.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
func.func @matmul_343(%a: !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed]>>, %b: !sparse_array.array<4x3xf64, #sparse_array.format<[dense, compressed]>>) -> !sparse_array.array<3x3xf64, #sparse_array.format<[dense, compressed]>> {
  %r = sparse_array.kernel ins(%a, %b : !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed]>>, !sparse_array.array<4x3xf64, #sparse_array.format<[dense, compressed]>>) -> !sparse_array.array<3x3xf64, #sparse_array.format<[dense, compressed]>> {
  ^bb0(%i: index, %j: index, %k: index, %P: !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed]>>, %Q: !sparse_array.array<4x3xf64, #sparse_array.format<[dense, compressed]>>):
    %p = sparse_array.access %P[%i, %k] : !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed]>>
    %q = sparse_array.access %Q[%k, %j] : !sparse_array.array<4x3xf64, #sparse_array.format<[dense, compressed]>>
    %pq = sparse_array.apply @mul_f64(%p, %q) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%k] %pq with @add_f64 : f64
    sparse_array.yield %s : f64
  }
  return %r : !sparse_array.array<3x3xf64, #sparse_array.format<[dense, compressed]>>
}

func.func @matmul_122(%a: !sparse_array.array<1x2xf64, #sparse_array.format<[dense, compressed]>>, %b: !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>>) -> !sparse_array.array<1x2xf64, #sparse_array.format<[dense, compressed]>> {
  %r = sparse_array.kernel ins(%a, %b : !sparse_array.array<1x2xf64, #sparse_array.format<[dense, compressed]>>, !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>>) -> !sparse_array.array<1x2xf64, #sparse_array.format<[dense, compressed]>> {
  ^bb0(%i: index, %j: index, %k: index, %P: !sparse_array.array<1x2xf64, #sparse_array.format<[dense, compressed]>>, %Q: !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>>):
    %p = sparse_array.access %P[%i, %k] : !sparse_array.array<1x2xf64, #sparse_array.format<[dense, compressed]>>
    %q = sparse_array.access %Q[%k, %j] : !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>>
    %pq = sparse_array.apply @mul_f64(%p, %q) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%k] %pq with @add_f64 : f64
    sparse_array.yield %s : f64
  }
  return %r : !sparse_array.array<1x2xf64, #sparse_array.format<[dense, compressed]>>
}

func.func @matmul_121(%a: !sparse_array.array<1x2xf64, #sparse_array.format<[dense, compressed]>>, %b: !sparse_array.array<2x1xf64, #sparse_array.format<[dense, compressed]>>) -> !sparse_array.array<1x1xf64, #sparse_array.format<[dense, compressed]>> {
  %r = sparse_array.kernel ins(%a, %b : !sparse_array.array<1x2xf64, #sparse_array.format<[dense, compressed]>>, !sparse_array.array<2x1xf64, #sparse_array.format<[dense, compressed]>>) -> !sparse_array.array<1x1xf64, #sparse_array.format<[dense, compressed]>> {
  ^bb0(%i: index, %j: index, %k: index, %P: !sparse_array.array<1x2xf64, #sparse_array.format<[dense, compressed]>>, %Q: !sparse_array.array<2x1xf64, #sparse_array.format<[dense, compressed]>>):
    %p = sparse_array.access %P[%i, %k] : !sparse_array.array<1x2xf64, #sparse_array.format<[dense, compressed]>>
    %q = sparse_array.access %Q[%k, %j] : !sparse_array.array<2x1xf64, #sparse_array.format<[dense, compressed]>>
    %pq = sparse_array.apply @mul_f64(%p, %q) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%k] %pq with @add_f64 : f64
    sparse_array.yield %s : f64
  }
  return %r : !sparse_array.array<1x1xf64, #sparse_array.format<[dense, compressed]>>
}

func.func @matmul_144(%a: !sparse_array.array<1x4xf64, #sparse_array.format<[dense, compressed]>>, %b: !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed]>>) -> !sparse_array.array<1x4xf64, #sparse_array.format<[dense, compressed]>> {
  %r = sparse_array.kernel ins(%a, %b : !sparse_array.array<1x4xf64, #sparse_array.format<[dense, compressed]>>, !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed]>>) -> !sparse_array.array<1x4xf64, #sparse_array.format<[dense, compressed]>> {
  ^bb0(%i: index, %j: index, %k: index, %P: !sparse_array.array<1x4xf64, #sparse_array.format<[dense, compressed]>>, %Q: !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed]>>):
    %p = sparse_array.access %P[%i, %k] : !sparse_array.array<1x4xf64, #sparse_array.format<[dense, compressed]>>
    %q = sparse_array.access %Q[%k, %j] : !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed]>>
    %pq = sparse_array.apply @mul_f64(%p, %q) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%k] %pq with @add_f64 : f64
    sparse_array.yield %s : f64
  }
  return %r : !sparse_array.array<1x4xf64, #sparse_array.format<[dense, compressed]>>
}

// A A: the same array as both factors.
func.func @square_4(%a: !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed]>>) -> !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed]>> {
  %r = sparse_array.kernel ins(%a, %a : !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed]>>, !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed]>>) -> !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed]>> {
  ^bb0(%i: index, %j: index, %k: index, %P: !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed]>>, %Q: !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed]>>):
    %p = sparse_array.access %P[%i, %k] : !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed]>>
    %q = sparse_array.access %Q[%k, %j] : !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed]>>
    %pq = sparse_array.apply @mul_f64(%p, %q) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%k] %pq with @add_f64 : f64
    sparse_array.yield %s : f64
  }
  return %r : !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed]>>
}

// A A: the same array as both factors.
func.func @square_2(%a: !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>>) -> !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>> {
  %r = sparse_array.kernel ins(%a, %a : !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>>, !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>>) -> !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>> {
  ^bb0(%i: index, %j: index, %k: index, %P: !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>>, %Q: !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>>):
    %p = sparse_array.access %P[%i, %k] : !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>>
    %q = sparse_array.access %Q[%k, %j] : !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>>
    %pq = sparse_array.apply @mul_f64(%p, %q) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%k] %pq with @add_f64 : f64
    sparse_array.yield %s : f64
  }
  return %r : !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>>
}

func.func @main() {
  %a1 = sparse_array.constant sparse<[[0, 0], [0, 3], [2, 1]], [1.0, -2.0, -0.0]> : tensor<3x4xf64> : !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed]>>
  %b1 = sparse_array.constant sparse<[[0, 0], [1, 1], [3, 0], [3, 2]], [3.0, 5.0, 0.5, -1.0]> : tensor<4x3xf64> : !sparse_array.array<4x3xf64, #sparse_array.format<[dense, compressed]>>
  %b2 = sparse_array.constant sparse<[[0, 0], [1, 1], [3, 0], [3, 2]], [3.0, 0x7FF0000000000000, 0.5, -1.0]> : tensor<4x3xf64> : !sparse_array.array<4x3xf64, #sparse_array.format<[dense, compressed]>>
  %a3 = sparse_array.constant sparse<[[0, 0], [0, 1]], [-1.0, -1.0]> : tensor<1x2xf64> : !sparse_array.array<1x2xf64, #sparse_array.format<[dense, compressed]>>
  %b3 = sparse_array.constant sparse<[[0, 1]], [2.0]> : tensor<2x2xf64> : !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>>
  %c1 = func.call @matmul_343(%a1, %b1) : (!sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed]>>, !sparse_array.array<4x3xf64, #sparse_array.format<[dense, compressed]>>) -> !sparse_array.array<3x3xf64, #sparse_array.format<[dense, compressed]>>
  sparse_array.print %c1 : !sparse_array.array<3x3xf64, #sparse_array.format<[dense, compressed]>>
  %c2 = func.call @matmul_343(%a1, %b2) : (!sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed]>>, !sparse_array.array<4x3xf64, #sparse_array.format<[dense, compressed]>>) -> !sparse_array.array<3x3xf64, #sparse_array.format<[dense, compressed]>>
  sparse_array.print %c2 : !sparse_array.array<3x3xf64, #sparse_array.format<[dense, compressed]>>
  %c3 = func.call @matmul_122(%a3, %b3) : (!sparse_array.array<1x2xf64, #sparse_array.format<[dense, compressed]>>, !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>>) -> !sparse_array.array<1x2xf64, #sparse_array.format<[dense, compressed]>>
  sparse_array.print %c3 : !sparse_array.array<1x2xf64, #sparse_array.format<[dense, compressed]>>
  %a4 = sparse_array.constant sparse<[[0, 0]], [-1.0]> : tensor<1x2xf64> : !sparse_array.array<1x2xf64, #sparse_array.format<[dense, compressed]>>
  %b4 = sparse_array.constant sparse<[[1, 0]], [-3.0]> : tensor<2x1xf64> : !sparse_array.array<2x1xf64, #sparse_array.format<[dense, compressed]>>
  %c4 = func.call @matmul_121(%a4, %b4) : (!sparse_array.array<1x2xf64, #sparse_array.format<[dense, compressed]>>, !sparse_array.array<2x1xf64, #sparse_array.format<[dense, compressed]>>) -> !sparse_array.array<1x1xf64, #sparse_array.format<[dense, compressed]>>
  sparse_array.print %c4 : !sparse_array.array<1x1xf64, #sparse_array.format<[dense, compressed]>>
  %a5 = sparse_array.constant sparse<[[0, 0], [0, 3], [1, 1], [3, 2]], [1.0, -2.0, 3.0, -0.0]> : tensor<4x4xf64> : !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed]>>
  %c5 = func.call @square_4(%a5) : (!sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed]>>) -> !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed]>>
  sparse_array.print %c5 : !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed]>>
  %a6 = sparse_array.constant sparse<[[0, 0], [0, 1]], [-1.0, -1.0]> : tensor<2x2xf64> : !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>>
  %c6 = func.call @square_2(%a6) : (!sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>>) -> !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>>
  sparse_array.print %c6 : !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>>
  %a7 = sparse_array.constant sparse<[[0, 0], [0, 3]], [4.0, 3.0]> : tensor<1x4xf64> : !sparse_array.array<1x4xf64, #sparse_array.format<[dense, compressed]>>
  %b7 = sparse_array.constant sparse<[[0, 0], [0, 1], [0, 2], [2, 3]], [-2.0, -0.0, 4.0, 2.0]> : tensor<4x4xf64> : !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed]>>
  %c7 = func.call @matmul_144(%a7, %b7) : (!sparse_array.array<1x4xf64, #sparse_array.format<[dense, compressed]>>, !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed]>>) -> !sparse_array.array<1x4xf64, #sparse_array.format<[dense, compressed]>>
  sparse_array.print %c7 : !sparse_array.array<1x4xf64, #sparse_array.format<[dense, compressed]>>
  return
}

// C1 (guarded: row-wise from +0.0)
// CHECK: # fill: 0
// CHECK-NEXT: 2 2
// CHECK-NEXT: 3 3
// CHECK-NEXT: 1 1 2
// CHECK-NEXT: 1 3 2
// C2 (inf stored: the exact plan)
// CHECK: # fill: 0
// CHECK-NEXT: 2 5
// CHECK-NEXT: 3 3
// CHECK-NEXT: 1 1 2
// CHECK-NEXT: 1 2 {{-?}}nan
// CHECK-NEXT: 1 3 2
// CHECK-NEXT: 2 2 {{-?}}nan
// CHECK-NEXT: 3 2 {{-?}}nan
// C3 (a full row: the exact plan; -0.0 where no k is stored in both)
// CHECK: # fill: 0
// CHECK-NEXT: 2 2
// CHECK-NEXT: 1 2
// CHECK-NEXT: 1 1 -0
// CHECK-NEXT: 1 2 -2
// C4 (the guard's boundary: the exact plan)
// CHECK: # fill: 0
// CHECK-NEXT: 2 1
// CHECK-NEXT: 1 1
// CHECK-NEXT: 1 1 -0
// C5 (A A, guarded)
// CHECK: # fill: 0
// CHECK-NEXT: 2 3
// CHECK-NEXT: 4 4
// CHECK-NEXT: 1 1 1
// CHECK-NEXT: 1 4 -2
// CHECK-NEXT: 2 2 9
// C6 (A A, the exact plan)
// CHECK: # fill: 0
// CHECK-NEXT: 2 2
// CHECK-NEXT: 2 2
// CHECK-NEXT: 1 1 1
// CHECK-NEXT: 1 2 1
// C7 (guarded; a lone stored -0.0 product is +0.0 in the dense fold)
// CHECK: # fill: 0
// CHECK-NEXT: 2 2
// CHECK-NEXT: 1 4
// CHECK-NEXT: 1 1 -8
// CHECK-NEXT: 1 3 16
