// RUN: sa-run %s | FileCheck %s
// NumPy broadcasting of sparse inputs along size-1 dimensions: the
// constant coordinate 0 is searched in a level that stores coordinates
// (bisection on ordered levels, a scan on unordered ones, the run of
// duplicates on non-unique ones); where it is missing the input is absent
// and reads as its fill. Inputs whose last stored level is bound above the
// innermost loop read as absent where that level did not match.

sparse_array.func @add_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @sub_f64(%x: f64, %y: f64) -> f64 {
  %r = arith.subf %x, %y : f64
  sparse_array.yield %r : f64
}

!sv1 = !sparse_array.array<1xf64, #sparse_array.format<[compressed]>>
!uv1 = !sparse_array.array<1xf64, #sparse_array.format<[compressed(nonordered)]>>
!dv4 = !sparse_array.array<4xf64>
!coo31 = !sparse_array.array<3x1xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!csr34 = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed]>>
!dcc211 = !sparse_array.array<2x1x1xf64, #sparse_array.format<[dense, compressed, compressed], fill = -inf : f64>>
!d212 = !sparse_array.array<2x1x2xf64, #sparse_array.format<[dense, dense, dense], fill = inf : f64>>
!dcc212 = !sparse_array.array<2x1x2xf64, #sparse_array.format<[dense, compressed, compressed], fill = -inf : f64>>

func.func @main() {
  %d = sparse_array.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64> : !dv4

  // A stored size-1 vector: 7 + d.
  // CHECK: # fill: 0
  // CHECK-NEXT: 1 4
  // CHECK-NEXT: 4
  // CHECK-NEXT: 1 8
  // CHECK-NEXT: 2 9
  // CHECK-NEXT: 3 10
  // CHECK-NEXT: 4 11
  %s = sparse_array.constant sparse<[[0]], [7.0]> : tensor<1xf64> : !sv1
  %r0 = sparse_array.map @add_f64(%s, %d) : (!sv1, !dv4) -> !dv4
  sparse_array.print %r0 : !dv4

  // An empty one: its fill, 0 + d.
  // CHECK: # fill: 0
  // CHECK-NEXT: 1 4
  // CHECK-NEXT: 4
  // CHECK-NEXT: 1 1
  // CHECK-NEXT: 2 2
  // CHECK-NEXT: 3 3
  // CHECK-NEXT: 4 4
  %e = sparse_array.constant sparse<[[0]], [0.0]> : tensor<1xf64> : !sv1
  %r1 = sparse_array.map @add_f64(%e, %d) : (!sv1, !dv4) -> !dv4
  sparse_array.print %r1 : !dv4

  // Unordered: found by a scan (-3 + 3 is the fill, not listed).
  // CHECK: # fill: 0
  // CHECK-NEXT: 1 3
  // CHECK-NEXT: 4
  // CHECK-NEXT: 1 -2
  // CHECK-NEXT: 2 -1
  // CHECK-NEXT: 4 1
  %u = sparse_array.constant sparse<[[0]], [-3.0]> : tensor<1xf64> : !uv1
  %r2 = sparse_array.map @add_f64(%u, %d) : (!uv1, !dv4) -> !dv4
  sparse_array.print %r2 : !dv4

  // COO column broadcast along the columns of a CSR matrix: the
  // singleton level is searched for column 0 inside each row's segment.
  // Row 1 of the column is absent (fill 0): only b's entry there.
  // CHECK: # fill: 0
  // CHECK-NEXT: 2 9
  // CHECK-NEXT: 3 4
  // CHECK-NEXT: 1 1 2
  // CHECK-NEXT: 1 2 7
  // CHECK-NEXT: 1 3 2
  // CHECK-NEXT: 1 4 2
  // CHECK-NEXT: 2 3 6
  // CHECK-NEXT: 3 1 4
  // CHECK-NEXT: 3 2 3
  // CHECK-NEXT: 3 3 3
  // CHECK-NEXT: 3 4 10
  %col = sparse_array.constant sparse<[[0, 0], [2, 0]], [2.0, 3.0]> : tensor<3x1xf64> : !coo31
  %b = sparse_array.constant sparse<[[0, 1], [1, 2], [2, 3], [2, 0]], [5.0, 6.0, 7.0, 1.0]> : tensor<3x4xf64> : !csr34
  %r3 = sparse_array.map @add_f64(%col, %b) : (!coo31, !csr34) -> !csr34
  sparse_array.print %r3 : !csr34

  // 2x1x1 broadcast along the last dimension: its last stored level is
  // bound at the middle loop. Row 0 is absent: -inf - y = -inf, the fill.
  // CHECK: # fill: -inf
  // CHECK-NEXT: 3 2
  // CHECK-NEXT: 2 1 2
  // CHECK-NEXT: 2 1 1 2
  // CHECK-NEXT: 2 1 2 5
  %x = sparse_array.constant sparse<[[1, 0, 0]], [5.0]> : tensor<2x1x1xf64> : !dcc211
  %y = sparse_array.constant dense<[[[4.0, 4.0]], [[3.0, -0.0]]]> : tensor<2x1x2xf64> : !d212
  %r4 = sparse_array.map @sub_f64(%x, %y) : (!dcc211, !d212) -> !dcc212
  sparse_array.print %r4 : !dcc212
  return
}
