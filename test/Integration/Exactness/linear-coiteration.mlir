// RUN: sa-run --bounds-checks %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices | FileCheck %s --check-prefix=PLAN
// Issue 14, class 6: the sum of 12 compressed vectors by 11 chained maps is
// one kernel whose loop coiterates 12 inputs. A lattice would have 4095
// points and 3^12 cases (the program took minutes to compile from 8
// vectors on); the plan is `linear` instead: one loop over the union of
// the coordinates, absent inputs read as their fills. DCSR matrices the
// same at both loops (the outer one merged). Expected by hand: vector i
// stores i + 1 at i and 2 at 50 + i (and -0.0 at 99, a stored fill),
// matrices likewise on the diagonal.

sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @max(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, idempotent} {
  %r = arith.maximumf %x, %y : f64
  sparse_array.yield %r : f64
}

!v = !sparse_array.array<100xf64, #sparse_array.format<[compressed], fill = -0.0 : f64>>
!m = !sparse_array.array<20x20xf64, #sparse_array.format<[compressed, compressed], fill = -0.0 : f64>>
!r = !sparse_array.array<20xf64, #sparse_array.format<[compressed], fill = -0.0 : f64>>
!cd = !sparse_array.array<4x3xf64, #sparse_array.format<[compressed, dense], fill = -0.0 : f64>>
!d43 = !sparse_array.array<4x3xf64, #sparse_array.format<[dense, dense], fill = -0.0 : f64>>

// PLAN-LABEL: func.func @main
// PLAN: sparse_array.kernel ins(%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} :
// PLAN-SAME: #sparse_array.lattice<loop 0, present [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], coiterate [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], linear>
// PLAN: #sparse_array.lattice<loop 0, present [0, 1, 2, 3, 4, 5], coiterate [0, 1, 2, 3, 4, 5], linear>, #sparse_array.lattice<loop 1, present [0, 1, 2, 3, 4, 5], coiterate [0, 1, 2, 3, 4, 5], linear>
// PLAN: #sparse_array.lattice<loop 0, present [0, 1, 2, 3, 4], coiterate [0, 1, 2, 3, 4], linear>, #sparse_array.lattice<loop 1, present [0, 1, 2, 3, 4], coiterate [], points [{U} produce]>
func.func @main() {
  %v0 = sparse_array.constant sparse<[[0], [50], [99]], [1.0, 2.0, -0.0]> : tensor<100xf64> : !v
  %v1 = sparse_array.constant sparse<[[1], [51], [99]], [2.0, 2.0, -0.0]> : tensor<100xf64> : !v
  %v2 = sparse_array.constant sparse<[[2], [52], [99]], [3.0, 2.0, -0.0]> : tensor<100xf64> : !v
  %v3 = sparse_array.constant sparse<[[3], [53], [99]], [4.0, 2.0, -0.0]> : tensor<100xf64> : !v
  %v4 = sparse_array.constant sparse<[[4], [54], [99]], [5.0, 2.0, -0.0]> : tensor<100xf64> : !v
  %v5 = sparse_array.constant sparse<[[5], [55], [99]], [6.0, 2.0, -0.0]> : tensor<100xf64> : !v
  %v6 = sparse_array.constant sparse<[[6], [56], [99]], [7.0, 2.0, -0.0]> : tensor<100xf64> : !v
  %v7 = sparse_array.constant sparse<[[7], [57], [99]], [8.0, 2.0, -0.0]> : tensor<100xf64> : !v
  %v8 = sparse_array.constant sparse<[[8], [58], [99]], [9.0, 2.0, -0.0]> : tensor<100xf64> : !v
  %v9 = sparse_array.constant sparse<[[9], [59], [99]], [10.0, 2.0, -0.0]> : tensor<100xf64> : !v
  %v10 = sparse_array.constant sparse<[[10], [60], [99]], [11.0, 2.0, -0.0]> : tensor<100xf64> : !v
  %v11 = sparse_array.constant sparse<[[11], [61], [99]], [12.0, 2.0, -0.0]> : tensor<100xf64> : !v
  %s1 = sparse_array.map @add(%v0, %v1) : (!v, !v) -> !v
  %s2 = sparse_array.map @add(%s1, %v2) : (!v, !v) -> !v
  %s3 = sparse_array.map @add(%s2, %v3) : (!v, !v) -> !v
  %s4 = sparse_array.map @add(%s3, %v4) : (!v, !v) -> !v
  %s5 = sparse_array.map @add(%s4, %v5) : (!v, !v) -> !v
  %s6 = sparse_array.map @add(%s5, %v6) : (!v, !v) -> !v
  %s7 = sparse_array.map @add(%s6, %v7) : (!v, !v) -> !v
  %s8 = sparse_array.map @add(%s7, %v8) : (!v, !v) -> !v
  %s9 = sparse_array.map @add(%s8, %v9) : (!v, !v) -> !v
  %s10 = sparse_array.map @add(%s9, %v10) : (!v, !v) -> !v
  %s11 = sparse_array.map @add(%s10, %v11) : (!v, !v) -> !v
  // CHECK:      # fill: -0
  // CHECK-NEXT: 1 24
  // CHECK-NEXT: 100
  // CHECK-NEXT: 1 1
  // CHECK-NEXT: 2 2
  // CHECK-NEXT: 3 3
  // CHECK-NEXT: 4 4
  // CHECK-NEXT: 5 5
  // CHECK-NEXT: 6 6
  // CHECK-NEXT: 7 7
  // CHECK-NEXT: 8 8
  // CHECK-NEXT: 9 9
  // CHECK-NEXT: 10 10
  // CHECK-NEXT: 11 11
  // CHECK-NEXT: 12 12
  // CHECK-NEXT: 51 2
  // CHECK-NEXT: 52 2
  // CHECK-NEXT: 53 2
  // CHECK-NEXT: 54 2
  // CHECK-NEXT: 55 2
  // CHECK-NEXT: 56 2
  // CHECK-NEXT: 57 2
  // CHECK-NEXT: 58 2
  // CHECK-NEXT: 59 2
  // CHECK-NEXT: 60 2
  // CHECK-NEXT: 61 2
  // CHECK-NEXT: 62 2
  sparse_array.print %s11 : !v

  // Six DCSR matrices, matrix i storing i + 1 at (i, i) and (i, 19 - i):
  // row maxima of their sum.
  // CHECK:      # fill: -0
  // CHECK-NEXT: 1 6
  %a0 = sparse_array.constant sparse<[[0, 0], [0, 19]], [1.0, 1.0]> : tensor<20x20xf64> : !m
  %a1 = sparse_array.constant sparse<[[1, 1], [1, 18]], [2.0, 2.0]> : tensor<20x20xf64> : !m
  %a2 = sparse_array.constant sparse<[[2, 2], [2, 17]], [3.0, 3.0]> : tensor<20x20xf64> : !m
  %a3 = sparse_array.constant sparse<[[3, 3], [3, 16]], [4.0, 4.0]> : tensor<20x20xf64> : !m
  %a4 = sparse_array.constant sparse<[[4, 4], [4, 15]], [5.0, 5.0]> : tensor<20x20xf64> : !m
  %a5 = sparse_array.constant sparse<[[5, 5], [5, 14]], [6.0, 6.0]> : tensor<20x20xf64> : !m
  %t1 = sparse_array.map @add(%a0, %a1) : (!m, !m) -> !m
  %t2 = sparse_array.map @add(%t1, %a2) : (!m, !m) -> !m
  %t3 = sparse_array.map @add(%t2, %a3) : (!m, !m) -> !m
  %t4 = sparse_array.map @add(%t3, %a4) : (!m, !m) -> !m
  %t5 = sparse_array.map @add(%t4, %a5) : (!m, !m) -> !m
  %rows = sparse_array.reduce @max %t5 dims [1] : !m -> !r
  // CHECK-NEXT: 20
  // CHECK-NEXT: 1 1
  // CHECK-NEXT: 2 2
  // CHECK-NEXT: 3 3
  // CHECK-NEXT: 4 4
  // CHECK-NEXT: 5 5
  // CHECK-NEXT: 6 6
  sparse_array.print %rows : !r

  // Five matrices stored [compressed, dense]: the linear outer loop over
  // rows descends with every input; one without the row is absent there
  // (its empty segment must not be located through the dense level, which
  // read another row's values).
  // CHECK:      # fill: -0
  // CHECK-NEXT: 2 5
  // CHECK-NEXT: 4 3
  // CHECK-NEXT: 1 1 1
  // CHECK-NEXT: 2 2 10
  // CHECK-NEXT: 3 3 100
  // CHECK-NEXT: 4 1 1000
  // CHECK-NEXT: 4 3 10000
  %c0 = sparse_array.constant sparse<[[0, 0]], [1.0]> : tensor<4x3xf64> : !cd
  %c1 = sparse_array.constant sparse<[[1, 1]], [10.0]> : tensor<4x3xf64> : !cd
  %c2 = sparse_array.constant sparse<[[2, 2]], [100.0]> : tensor<4x3xf64> : !cd
  %c3 = sparse_array.constant sparse<[[3, 0]], [1000.0]> : tensor<4x3xf64> : !cd
  %c4 = sparse_array.constant sparse<[[3, 2]], [10000.0]> : tensor<4x3xf64> : !cd
  %u1 = sparse_array.map @add(%c0, %c1) {infer_fill} : (!cd, !cd) -> !cd
  %u2 = sparse_array.map @add(%u1, %c2) {infer_fill} : (!cd, !cd) -> !cd
  %u3 = sparse_array.map @add(%u2, %c3) {infer_fill} : (!cd, !cd) -> !cd
  %u4 = sparse_array.map @add(%u3, %c4) : (!cd, !cd) -> !d43
  sparse_array.print %u4 : !d43
  return
}
