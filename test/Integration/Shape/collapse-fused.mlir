// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks -O0 %s | FileCheck %s
// RUN: sa-run --linear-threshold=2 %s | FileCheck %s
// A collapse feeding a computation is fused (seed 001 §5.1 a × b, §8.5): the
// consumer reads the source through sparse_array.delinearize and its loop
// over the collapsed coordinate iterates the product of the levels storing
// the parts (outer first; parts stored in another order are converted
// first), so no collapsed array is built. Expected values from numpy's
// reshape (C and F order) on the dense arrays:
//   A (4x6) = [[0, 1, 0, 0, 2, 0], [0, 0, 3, 0, 0, 0], [4, 0, 0, 0, 0, 5], [0, 0, 0, 6, 0, 0]]
//   v (24): 10, 20, 30, 40, 50, 60, 70 at 1, 4, 5, 12, 17, 21, 23
//   T (2x3x4): 1, 2, 3, 4, 5 at (0,0,1), (0,2,3), (1,0,0), (1,1,2), (1,2,3)
//   B (2x12): 10, 20, 30, 40, 50 at (0,3), (0,11), (1,0), (1,6), (1,7)
//   E (3x4, fill 2): 5, 6, 7, 8 at (0,1), (0,3), (2,0), (2,2); w = 1..12

sparse_array.func @add(%x: f64, %y: f64) -> f64 attributes {commutative, associative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @mul(%x: f64, %y: f64) -> f64 attributes {commutative, annihilator = #sparse_array.annihilator<0.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
!csr = !sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed]>>
!csc = !sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
!cv = !sparse_array.array<24xf64, #sparse_array.format<[compressed]>>
!csf = !sparse_array.array<2x3x4xf64, #sparse_array.format<[compressed, compressed, compressed]>>
!m12 = !sparse_array.array<2x12xf64, #sparse_array.format<[compressed, compressed]>>
!d12 = !sparse_array.array<2x12xf64>
!v24 = !sparse_array.array<24xf64, #sparse_array.format<[compressed]>>
!dense = !sparse_array.array<2x3x4xf64>
!coo = !sparse_array.array<3x4xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 2.0 : f64>>
!v12f = !sparse_array.array<12xf64, #sparse_array.format<[compressed], fill = 2.0 : f64>>
!dv12 = !sparse_array.array<12xf64>

func.func @main() {
  // CSR collapsed (C order) times v: A.reshape(-1) * v
  // CHECK: # fill: 0
  // CHECK-NEXT: 1 5
  // CHECK-NEXT: 24
  // CHECK-NEXT: 2 10
  // CHECK-NEXT: 5 40
  // CHECK-NEXT: 13 160
  // CHECK-NEXT: 18 250
  // CHECK-NEXT: 22 360
  // CSC collapsed in F order (its stored order) plus v: A.reshape(-1, order="F") + v
  // CHECK: # fill: 0
  // CHECK-NEXT: 1 12
  // CHECK-NEXT: 24
  // CHECK-NEXT: 2 10
  // CHECK-NEXT: 3 4
  // CHECK-NEXT: 5 21
  // CHECK-NEXT: 6 30
  // CHECK-NEXT: 10 3
  // CHECK-NEXT: 13 40
  // CHECK-NEXT: 16 6
  // CHECK-NEXT: 17 2
  // CHECK-NEXT: 18 50
  // CHECK-NEXT: 22 60
  // CHECK-NEXT: 23 5
  // CHECK-NEXT: 24 70
  // A collapse of a computed expression: (A + A).reshape(-1) * v
  // CHECK: # fill: 0
  // CHECK-NEXT: 1 5
  // CHECK-NEXT: 24
  // CHECK-NEXT: 2 20
  // CHECK-NEXT: 5 80
  // CHECK-NEXT: 13 320
  // CHECK-NEXT: 18 500
  // CHECK-NEXT: 22 720
  // A CSF's inner dimensions collapsed, times a DCSR: T.reshape(2, 12) * B
  // CHECK: # fill: 0
  // CHECK-NEXT: 2 3
  // CHECK-NEXT: 2 12
  // CHECK-NEXT: 1 12 40
  // CHECK-NEXT: 2 1 90
  // CHECK-NEXT: 2 7 160
  // All three dimensions, plus the dense T collapsed (located, not iterated)
  // CHECK: # fill: 0
  // CHECK-NEXT: 1 5
  // CHECK-NEXT: 24
  // CHECK-NEXT: 2 2
  // CHECK-NEXT: 12 4
  // CHECK-NEXT: 13 6
  // CHECK-NEXT: 19 8
  // CHECK-NEXT: 24 10
  // A reduction over a collapsed dimension: T.reshape(2, 12).sum(1) = [3, 12]
  // CHECK: # fill: 0
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 2
  // CHECK-NEXT: 1 3
  // CHECK-NEXT: 2 12
  // COO with fill 2 collapsed in F order (converted to column-major first)
  // times w: E.reshape(-1, order="F") * w
  // CHECK: # fill: 0
  // CHECK-NEXT: 1 12
  // CHECK-NEXT: 12
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 2 4
  // CHECK-NEXT: 3 21
  // CHECK-NEXT: 4 20
  // CHECK-NEXT: 5 10
  // CHECK-NEXT: 6 12
  // CHECK-NEXT: 7 14
  // CHECK-NEXT: 8 16
  // CHECK-NEXT: 9 72
  // CHECK-NEXT: 10 60
  // CHECK-NEXT: 11 22
  // CHECK-NEXT: 12 24
  // The same COO in C order (its stored order: rows are runs of two
  // entries, each run the inner part's segment): E.reshape(-1) * w
  // CHECK: # fill: 0
  // CHECK-NEXT: 1 12
  // CHECK-NEXT: 12
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 2 10
  // CHECK-NEXT: 3 6
  // CHECK-NEXT: 4 24
  // CHECK-NEXT: 5 10
  // CHECK-NEXT: 6 12
  // CHECK-NEXT: 7 14
  // CHECK-NEXT: 8 16
  // CHECK-NEXT: 9 63
  // CHECK-NEXT: 10 20
  // CHECK-NEXT: 11 88
  // CHECK-NEXT: 12 24

  %a = sparse_array.constant sparse<[[0,1],[0,4],[1,2],[2,0],[2,5],[3,3]], [1.0,2.0,3.0,4.0,5.0,6.0]> : tensor<4x6xf64> : !csr
  %v = sparse_array.constant sparse<[[1],[4],[5],[12],[17],[21],[23]], [10.0,20.0,30.0,40.0,50.0,60.0,70.0]> : tensor<24xf64> : !cv
  %c = sparse_array.collapse %a [0, 1] : !csr -> !cv
  %r = sparse_array.map @mul(%c, %v) : (!cv, !cv) -> !cv
  sparse_array.print %r : !cv
  %b = sparse_array.constant sparse<[[0,1],[0,4],[1,2],[2,0],[2,5],[3,3]], [1.0,2.0,3.0,4.0,5.0,6.0]> : tensor<4x6xf64> : !csc
  %cf = sparse_array.collapse %b [0, 1] order "F" : !csc -> !cv
  %r2 = sparse_array.map @add(%cf, %v) : (!cv, !cv) -> !cv
  sparse_array.print %r2 : !cv
  %a2 = sparse_array.map @add(%a, %a) : (!csr, !csr) -> !csr
  %c3 = sparse_array.collapse %a2 [0, 1] : !csr -> !cv
  %r3 = sparse_array.map @mul(%c3, %v) : (!cv, !cv) -> !cv
  sparse_array.print %r3 : !cv

  %t_a = sparse_array.constant sparse<[[0,0,1],[0,2,3],[1,0,0],[1,1,2],[1,2,3]], [1.0,2.0,3.0,4.0,5.0]> : tensor<2x3x4xf64> : !csf
  %t_b = sparse_array.constant sparse<[[0,3],[0,11],[1,0],[1,6],[1,7]], [10.0,20.0,30.0,40.0,50.0]> : tensor<2x12xf64> : !m12
  // collapse the inner two dims of a CSF; multiply with a DCSR
  %t_c = sparse_array.collapse %t_a [1, 2] : !csf -> !m12
  %t_r = sparse_array.map @mul(%t_c, %t_b) : (!m12, !m12) -> !m12
  sparse_array.print %t_r : !m12
  // collapse all three dims, sum with a dense copy of A
  %t_d = sparse_array.constant sparse<[[0,0,1],[0,2,3],[1,0,0],[1,1,2],[1,2,3]], [1.0,2.0,3.0,4.0,5.0]> : tensor<2x3x4xf64> : !dense
  %t_c2 = sparse_array.collapse %t_a [0, 1, 2] : !csf -> !v24
  %t_c3 = sparse_array.collapse %t_d [0, 1, 2] : !dense -> !sparse_array.array<24xf64>
  %t_r2 = sparse_array.map @add(%t_c2, %t_c3) : (!v24, !sparse_array.array<24xf64>) -> !v24
  sparse_array.print %t_r2 : !v24
  // a reduction over a collapsed dimension: row sums of reshape(A, (2, 12))
  %t_c4 = sparse_array.collapse %t_a [1, 2] : !csf -> !m12
  %t_s = sparse_array.reduce @add %t_c4 dims [1] : !m12 -> !sparse_array.array<2xf64>
  sparse_array.print %t_s : !sparse_array.array<2xf64>
  // COO with fill 2 (runs of rows), F order: the parts are read in another
  // order than stored (converted), into a dense result
  %t_e = sparse_array.constant sparse<[[0,1],[0,3],[2,0],[2,2]], [5.0,6.0,7.0,8.0]> : tensor<3x4xf64> : !coo
  %t_c5 = sparse_array.collapse %t_e [0, 1] order "F" : !coo -> !v12f
  %t_w = sparse_array.constant dense<[1.0,2.0,3.0,4.0,5.0,6.0,7.0,8.0,9.0,10.0,11.0,12.0]> : tensor<12xf64> : !dv12
  %t_r3 = sparse_array.map @mul(%t_c5, %t_w) : (!v12f, !dv12) -> !dv12
  sparse_array.print %t_r3 : !dv12
  %t_c6 = sparse_array.collapse %t_e [0, 1] : !coo -> !v12f
  %t_r4 = sparse_array.map @mul(%t_c6, %t_w) : (!v12f, !dv12) -> !dv12
  sparse_array.print %t_r4 : !dv12
  return
}
