// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks %s | FileCheck %s
// RUN: sa-run --threads 2 %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices | FileCheck %s --check-prefix=PLAN
// SpMV and dot products with exact IEEE add (identity -0.0) and mul (no
// annihilator: 0 * inf is NaN, 0 * -1 is -0.0) at sparse cost (issue 20
// part 3, strategy signed_zero_dot): only A's stored entries are visited;
// the dense x's non-finite values and the values whose product with A's
// fill is +0.0, counted over all of x and over the visited entries, decide
// the terms of the entries A does not store. Expected: the dense program,
// a left fold from -0.0 in Python floats (s = -0.0; for j: s += A[i][j] * x[j]):
//   A = [[1, 0, 2, 0], [0, 0, 0, 0], [0, -0.0, 0, 0], [3, -3, 0, 0], [0, 0, 0, 5]]
//   x1 = [1, -1, 2, -0.5]    -> [5, 0.0, 0.0, 6, -2.5]
//   x2 = [-1, -2, -3, -4]    -> [-7, -0.0, 0.0, 3, -20]   (every omitted
//        term is 0 * negative = -0.0; row 2's stored -0.0 * -2 is +0.0)
//   x3 = [1, inf, 2, 3]      -> [nan, nan, nan, -inf, nan] (0 * inf omitted,
//        or stored -0.0 * inf; row 3 stores -3 * inf)
//   x4 = [-0.0, -0.0, -0.0, -0.0] -> [-0.0, -0.0, 0.0, 0.0, -0.0]
//        (1 * -0.0 = -0.0; row 3: 3 * -0.0 + -3 * -0.0 = -0.0 + 0.0 = 0.0;
//        row 2: -0.0 * -0.0 = +0.0)
//   The same A with fill -0.0 (Aneg), x2: omitted terms -0.0 * negative =
//        +0.0 -> [-7, 0.0, 0.0, 3, -20]
//   x5 = [nan, 1, 1, 1]      -> [nan, nan, nan, nan, nan]
//   f32 dot: a = [0, 2, 0, -0.0], b = [-1, 3, -2, 4] -> 6;
//        b2 = [-1, -3, -2, 4] -> a . b2 = -6; a = [0, 0, 0, -0.0] . b2 ->
//        -0.0 * 4 = -0.0, omitted 0 * -1, 0 * -3, 0 * -2 are -0.0 -> -0.0;
//        . [1, 1, 1, 4] -> +0.0 (omitted 0 * 1 = +0.0)

// A dense vector prints the entries that are not its fill (+0.0), with
// their 1-based coordinates; a scalar equal to its fill prints no value.

// PLAN-COUNT-4: strategy = signed_zero_dot

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
sparse_array.func @add_f32(%x: f32, %y: f32) -> f32
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f32>} {
  %r = arith.addf %x, %y : f32
  sparse_array.yield %r : f32
}
sparse_array.func @mul_f32(%x: f32, %y: f32) -> f32
    attributes {commutative, identity = #sparse_array.identity<1.0 : f32>} {
  %r = arith.mulf %x, %y : f32
  sparse_array.yield %r : f32
}
!csr = !sparse_array.array<5x4xf64, #sparse_array.format<[dense, compressed]>>
!csrn = !sparse_array.array<5x4xf64, #sparse_array.format<[dense, compressed], fill = -0.0 : f64>>
!csc = !sparse_array.array<5x4xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
!x = !sparse_array.array<4xf64>
!y = !sparse_array.array<5xf64>
!sv = !sparse_array.array<4xf32, #sparse_array.format<[compressed]>>
!dv = !sparse_array.array<4xf32>
!s = !sparse_array.array<f32>

func.func @spmv(%a: !csr, %x: !x) -> !y {
  %r = sparse_array.kernel ins(%a, %x : !csr, !x) -> !y {
  ^bb0(%i: index, %j: index, %A: !csr, %X: !x):
    %aij = sparse_array.access %A[%i, %j] : !csr
    %xj = sparse_array.access %X[%j] : !x
    %p = sparse_array.apply @mul_f64(%aij, %xj) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%j] %p with @add_f64 : f64
    sparse_array.yield %s : f64
  }
  return %r : !y
}

// x first, and A's fill -0.0.
func.func @spmv_neg(%a: !csrn, %x: !x) -> !y {
  %r = sparse_array.kernel ins(%x, %a : !x, !csrn) -> !y {
  ^bb0(%i: index, %j: index, %X: !x, %A: !csrn):
    %aij = sparse_array.access %A[%i, %j] : !csrn
    %xj = sparse_array.access %X[%j] : !x
    %p = sparse_array.apply @mul_f64(%xj, %aij) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%j] %p with @add_f64 : f64
    sparse_array.yield %s : f64
  }
  return %r : !y
}

// A stored by columns: converted (no scatter loops for this strategy).
func.func @spmv_csc(%a: !csc, %x: !x) -> !y {
  %r = sparse_array.kernel ins(%a, %x : !csc, !x) -> !y {
  ^bb0(%i: index, %j: index, %A: !csc, %X: !x):
    %aij = sparse_array.access %A[%i, %j] : !csc
    %xj = sparse_array.access %X[%j] : !x
    %p = sparse_array.apply @mul_f64(%aij, %xj) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%j] %p with @add_f64 : f64
    sparse_array.yield %s : f64
  }
  return %r : !y
}

func.func @dot(%a: !sv, %b: !dv) -> !s {
  %r = sparse_array.kernel ins(%a, %b : !sv, !dv) -> !s {
  ^bb0(%j: index, %A: !sv, %B: !dv):
    %aj = sparse_array.access %A[%j] : !sv
    %bj = sparse_array.access %B[%j] : !dv
    %p = sparse_array.apply @mul_f32(%aj, %bj) : (f32, f32) -> f32
    %s = sparse_array.reduce_over [%j] %p with @add_f32 : f32
    sparse_array.yield %s : f32
  }
  return %r : !s
}

func.func @main() {
  %a = sparse_array.constant sparse<[[0, 0], [0, 2], [2, 1], [3, 0], [3, 1], [4, 3]],
      [1.0, 2.0, -0.0, 3.0, -3.0, 5.0]> : tensor<5x4xf64> : !csr
  %an = sparse_array.constant sparse<[[0, 0], [0, 2], [2, 1], [3, 0], [3, 1], [4, 3]],
      [1.0, 2.0, -0.0, 3.0, -3.0, 5.0]> : tensor<5x4xf64> : !csrn
  %ac = sparse_array.convert %a : !csr to !csc
  %x1 = sparse_array.constant dense<[1.0, -1.0, 2.0, -0.5]> : tensor<4xf64> : !x
  %x2 = sparse_array.constant dense<[-1.0, -2.0, -3.0, -4.0]> : tensor<4xf64> : !x
  %x3 = sparse_array.constant dense<[1.0, 0x7FF0000000000000, 2.0, 3.0]> : tensor<4xf64> : !x
  %x4 = sparse_array.constant dense<[-0.0, -0.0, -0.0, -0.0]> : tensor<4xf64> : !x
  %x5 = sparse_array.constant dense<[0x7FF8000000000000, 1.0, 1.0, 1.0]> : tensor<4xf64> : !x
  %y1 = func.call @spmv(%a, %x1) : (!csr, !x) -> !y
  sparse_array.print %y1 : !y
  %y2 = func.call @spmv(%a, %x2) : (!csr, !x) -> !y
  sparse_array.print %y2 : !y
  %y3 = func.call @spmv(%a, %x3) : (!csr, !x) -> !y
  sparse_array.print %y3 : !y
  %y4 = func.call @spmv(%a, %x4) : (!csr, !x) -> !y
  sparse_array.print %y4 : !y
  %y5 = func.call @spmv_neg(%an, %x2) : (!csrn, !x) -> !y
  sparse_array.print %y5 : !y
  %y6 = func.call @spmv_csc(%ac, %x2) : (!csc, !x) -> !y
  sparse_array.print %y6 : !y
  %y7 = func.call @spmv(%a, %x5) : (!csr, !x) -> !y
  sparse_array.print %y7 : !y
  %sa = sparse_array.constant sparse<[[1], [3]], [2.0, -0.0]> : tensor<4xf32> : !sv
  %b1 = sparse_array.constant dense<[-1.0, 3.0, -2.0, 4.0]> : tensor<4xf32> : !dv
  %b2 = sparse_array.constant dense<[-1.0, -3.0, -2.0, 4.0]> : tensor<4xf32> : !dv
  %b3 = sparse_array.constant dense<[1.0, 1.0, 1.0, 4.0]> : tensor<4xf32> : !dv
  %sz = sparse_array.constant sparse<[[3]], [-0.0]> : tensor<4xf32> : !sv
  %d1 = func.call @dot(%sa, %b1) : (!sv, !dv) -> !s
  sparse_array.print %d1 : !s
  %d2 = func.call @dot(%sa, %b2) : (!sv, !dv) -> !s
  sparse_array.print %d2 : !s
  %d3 = func.call @dot(%sz, %b2) : (!sv, !dv) -> !s
  sparse_array.print %d3 : !s
  %d4 = func.call @dot(%sz, %b3) : (!sv, !dv) -> !s
  sparse_array.print %d4 : !s
  return
}

// x1: [5, 0, 0, 6, -2.5]
// CHECK: 1 3
// CHECK-NEXT: 5
// CHECK-NEXT: 1 5
// CHECK-NEXT: 4 6
// CHECK-NEXT: 5 -2.5
// x2: [-7, -0.0, 0, 3, -20]
// CHECK: 1 4
// CHECK-NEXT: 5
// CHECK-NEXT: 1 -7
// CHECK-NEXT: 2 -0
// CHECK-NEXT: 4 3
// CHECK-NEXT: 5 -20
// x3: [nan, nan, nan, -inf, nan]
// CHECK: 1 5
// CHECK-NEXT: 5
// CHECK-NEXT: 1 {{-?}}nan
// CHECK-NEXT: 2 {{-?}}nan
// CHECK-NEXT: 3 {{-?}}nan
// CHECK-NEXT: 4 -inf
// CHECK-NEXT: 5 {{-?}}nan
// x4: [-0.0, -0.0, 0, 0, -0.0]
// CHECK: 1 3
// CHECK-NEXT: 5
// CHECK-NEXT: 1 -0
// CHECK-NEXT: 2 -0
// CHECK-NEXT: 5 -0
// fill -0.0, x2: [-7, 0, 0, 3, -20]
// CHECK: 1 3
// CHECK-NEXT: 5
// CHECK-NEXT: 1 -7
// CHECK-NEXT: 4 3
// CHECK-NEXT: 5 -20
// CSC, x2: as CSR
// CHECK: 1 4
// CHECK-NEXT: 5
// CHECK-NEXT: 1 -7
// CHECK-NEXT: 2 -0
// CHECK-NEXT: 4 3
// CHECK-NEXT: 5 -20
// x5: all nan
// CHECK: 1 5
// CHECK-NEXT: 5
// CHECK-NEXT: 1 {{-?}}nan
// CHECK-NEXT: 2 {{-?}}nan
// CHECK-NEXT: 3 {{-?}}nan
// CHECK-NEXT: 4 {{-?}}nan
// CHECK-NEXT: 5 {{-?}}nan
// dots: 6, -6, -0.0, +0.0
// CHECK: 0 1
// CHECK-EMPTY:
// CHECK-NEXT: 6
// CHECK: 0 1
// CHECK-EMPTY:
// CHECK-NEXT: -6
// CHECK: 0 1
// CHECK-EMPTY:
// CHECK-NEXT: -0
// CHECK: # fill: 0
// CHECK-NEXT: 0 0
