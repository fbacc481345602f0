// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices | grep -c scatter_loops | FileCheck %s --check-prefix=SCATTER
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices | grep -c sparse_array.convert | FileCheck %s --check-prefix=CONVERT
// Reductions along a non-leading storage level (issue 20): column sums and
// maxima of CSR and COO, a CSF reduced over its middle dimension, and
// y = A x with A stored by columns, all planned as scatter reductions
// (scatter_loops: the loops follow the input's storage, each entry's
// value combined into its result entry) with no conversion of the input.
// Every strategy: identity (declared @fadd), idempotent (@max_f64 with fill
// 0), reassociate (i64 fill 1), universe (the exact @add_f64, fill 0 is
// not its identity -0.0). Expected values: numpy on the dense arrays,
//   A = [[1.5, 0, -0.0], [0, inf, 2], [nan, 0, 0], [-2, 0, -0.0]]
//   A.sum(0) = [nan, inf, 2]; np.fmax is not max_f64: np.maximum.reduce(A, 0) = [nan, inf, 2]
//   I = [[1, 5, 1], [1, -7, 1], [1, 1, 9], [1, 2, 1]] (fill 1): I.sum(0) = [4, 1, 12]
//   T (2x3x2): T.sum(1) = [[2, 4], [0, 9]]
//   A @ [2, -1, 0.5] = [3, -inf, nan, -4]
//   Z = [[-0.0, -0.0], [-0.0, 0]]: Z.sum(0) = [-0.0, 0.0], np.maximum.reduce(Z, 0) = [-0.0, 0.0]
// (the sums as sequential folds from the first entry, numpy's order).

// Nine scatter reductions; the only conversions are the program's two.
// SCATTER: 9
// CONVERT: 2

sparse_array.func @add_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @fadd(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, identity = #sparse_array.identity<0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @fmul(%x: f64, %y: f64) -> f64
    attributes {commutative, annihilator = #sparse_array.annihilator<0.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @max_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, idempotent,
                identity = #sparse_array.identity<-inf : f64>} {
  %r = arith.maximumf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @add_i64(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
!csr = !sparse_array.array<4x3xf64, #sparse_array.format<[dense, compressed]>>
!csc = !sparse_array.array<4x3xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
!coo = !sparse_array.array<4x3xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!icsr = !sparse_array.array<4x3xi64, #sparse_array.format<[dense, compressed], fill = 1 : i64>>
!csf = !sparse_array.array<2x3x2xf64, #sparse_array.format<[dense, compressed, compressed]>>
!d3 = !sparse_array.array<3xf64>
!d4 = !sparse_array.array<4xf64>
!i3 = !sparse_array.array<3xi64>
!v3 = !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>
!csr22 = !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>>
!d2 = !sparse_array.array<2xf64>
!d22 = !sparse_array.array<2x2xf64>
func.func @main() {
  %a = sparse_array.constant sparse<[[0, 0], [0, 2], [1, 1], [1, 2], [2, 0], [3, 0], [3, 2]],
      [1.5, -0.0, 0x7FF0000000000000, 2.0, 0x7FF8000000000000, -2.0, -0.0]> : tensor<4x3xf64> : !csr
  %s1 = sparse_array.reduce @add_f64 %a dims [0] : !csr -> !d3
  sparse_array.print %s1 : !d3
  %s2 = sparse_array.reduce @fadd %a dims [0] : !csr -> !v3
  sparse_array.print %s2 : !v3
  %s3 = sparse_array.reduce @max_f64 %a dims [0] : !csr -> !d3
  sparse_array.print %s3 : !d3
  %i = sparse_array.constant sparse<[[0, 1], [1, 1], [2, 2], [3, 1]], [5, -7, 9, 2]> : tensor<4x3xi64> : !icsr
  %s4 = sparse_array.reduce @add_i64 %i dims [0] : !icsr -> !i3
  sparse_array.print %s4 : !i3
  %t = sparse_array.constant sparse<[[0, 0, 1], [0, 2, 0], [0, 2, 1], [1, 1, 1], [1, 2, 1]], [1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<2x3x2xf64> : !csf
  %s5 = sparse_array.reduce @fadd %t dims [1] : !csf -> !d22
  sparse_array.print %s5 : !d22
  %c = sparse_array.convert %a : !csr to !csc
  %x = sparse_array.constant dense<[2.0, -1.0, 0.5]> : tensor<3xf64> : !d3
  %y = sparse_array.kernel ins(%c, %x : !csc, !d3) -> !d4 {
  ^bb0(%i0: index, %k: index, %A: !csc, %X: !d3):
    %aik = sparse_array.access %A[%i0, %k] : !csc
    %xk = sparse_array.access %X[%k] : !d3
    %p = sparse_array.apply @fmul(%aik, %xk) : (f64, f64) -> f64
    %r = sparse_array.reduce_over [%k] %p with @fadd : f64
    sparse_array.yield %r : f64
  }
  sparse_array.print %y : !d4
  %o = sparse_array.convert %a : !csr to !coo
  %s7 = sparse_array.reduce @fadd %o dims [0] : !coo -> !v3
  sparse_array.print %s7 : !v3
  %z = sparse_array.constant sparse<[[0, 0], [0, 1], [1, 0]], [-0.0, -0.0, -0.0]> : tensor<2x2xf64> : !csr22
  %z1 = sparse_array.reduce @add_f64 %z dims [0] : !csr22 -> !d2
  sparse_array.print %z1 : !d2
  %z2 = sparse_array.reduce @max_f64 %z dims [0] : !csr22 -> !d2
  sparse_array.print %z2 : !d2
  return
}

// CHECK: # fill: 0
// CHECK-NEXT: 1 3
// CHECK-NEXT: 3
// CHECK-NEXT: 1 nan
// CHECK-NEXT: 2 inf
// CHECK-NEXT: 3 2
// CHECK: # fill: 0
// CHECK-NEXT: 1 3
// CHECK-NEXT: 3
// CHECK-NEXT: 1 nan
// CHECK-NEXT: 2 inf
// CHECK-NEXT: 3 2
// CHECK: # fill: 0
// CHECK-NEXT: 1 3
// CHECK-NEXT: 3
// CHECK-NEXT: 1 nan
// CHECK-NEXT: 2 inf
// CHECK-NEXT: 3 2
// CHECK: # fill: 0
// CHECK-NEXT: 1 3
// CHECK-NEXT: 3
// CHECK-NEXT: 1 4
// CHECK-NEXT: 2 1
// CHECK-NEXT: 3 12
// CHECK: # fill: 0
// CHECK-NEXT: 2 3
// CHECK-NEXT: 2 2
// CHECK-NEXT: 1 1 2
// CHECK-NEXT: 1 2 4
// CHECK-NEXT: 2 2 9
// CHECK: # fill: 0
// CHECK-NEXT: 1 4
// CHECK-NEXT: 4
// CHECK-NEXT: 1 3
// CHECK-NEXT: 2 -inf
// CHECK-NEXT: 3 nan
// CHECK-NEXT: 4 -4
// CHECK: # fill: 0
// CHECK-NEXT: 1 3
// CHECK-NEXT: 3
// CHECK-NEXT: 1 nan
// CHECK-NEXT: 2 inf
// CHECK-NEXT: 3 2
// CHECK: # fill: 0
// CHECK-NEXT: 1 1
// CHECK-NEXT: 2
// CHECK-NEXT: 1 -0
// CHECK: # fill: 0
// CHECK-NEXT: 1 1
// CHECK-NEXT: 2
// CHECK-NEXT: 1 -0
