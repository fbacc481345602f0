// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks -O0 %s | FileCheck %s
// RUN: sa-run --linear-threshold=2 %s | FileCheck %s
// RUN: sa-run --parallel-min-work=1 --parallel-min-extent=1 %s | FileCheck %s
// A reshape of a computed expression that both collapses and splits its
// dimensions (seed 001 §5.2): one kernel reads the expression's inputs
// through sparse_array.delinearize of the split's linearize, and the loop
// of the split's last part iterates the collapse's product of levels in
// the window its outer parts' loops fix: no collapsed temporary. Expected
// values from numpy on the dense arrays (A, B 4x6; TA, TB 2x3x4):
//   A: (0, 1)=1 (0, 4)=2 (1, 2)=3 (2, 0)=4 (2, 5)=5 (3, 3)=6
//   B: (0, 0)=10 (1, 2)=20 (1, 5)=30 (3, 5)=40
//   TA: (0, 0, 1)=1 (0, 2, 3)=2 (1, 0, 0)=3 (1, 1, 2)=4 (1, 2, 3)=5
//   TB: (0, 0, 0)=10 (0, 2, 3)=20 (1, 2, 0)=30

sparse_array.func @add(%x: f64, %y: f64) -> f64 attributes {commutative, associative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @sub(%x: f64, %y: f64) -> f64 {
  %r = arith.subf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @max(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.maximumf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @mul(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
!csr46 = !sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed]>>
!csr38 = !sparse_array.array<3x8xf64, #sparse_array.format<[dense, compressed]>>
!d38 = !sparse_array.array<3x8xf64>
!d46 = !sparse_array.array<4x6xf64>
!coo46 = !sparse_array.array<4x6xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 1.0 : f64>>
!coo46f2 = !sparse_array.array<4x6xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 2.0 : f64>>
!coo83f2 = !sparse_array.array<8x3xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 2.0 : f64>>
!dcsr46 = !sparse_array.array<4x6xf64, #sparse_array.format<[compressed, compressed]>>
!dcsr212 = !sparse_array.array<2x12xf64, #sparse_array.format<[compressed, compressed]>>
!csf234 = !sparse_array.array<2x3x4xf64, #sparse_array.format<[compressed, compressed, compressed]>>
!csc46 = !sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
!csc38 = !sparse_array.array<3x8xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
!nan46 = !sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed], fill = 0x7FF8000000000000 : f64>>
!nan83 = !sparse_array.array<8x3xf64, #sparse_array.format<[dense, compressed], fill = 0x7FF8000000000000 : f64>>
!r16 = !sparse_array.array<1x6xf64, #sparse_array.format<[dense, compressed]>>
!cd46 = !sparse_array.array<4x6xf64, #sparse_array.format<[compressed, dense], fill = 1.0 : f64>>
!cd46f2 = !sparse_array.array<4x6xf64, #sparse_array.format<[compressed, dense], fill = 2.0 : f64>>
!cd38f2 = !sparse_array.array<3x8xf64, #sparse_array.format<[compressed, dense], fill = 2.0 : f64>>
!v3 = !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>
!v8 = !sparse_array.array<8xf64, #sparse_array.format<[compressed]>>

func.func @main() {
  // (A + B).reshape(3, 8), CSR into CSR: one kernel, each row of the result a window of 8 of the sum's product
  // CHECK: # fill: 0
  // CHECK-NEXT: 2 9
  // CHECK-NEXT: 3 8
  // CHECK-NEXT: 1 1 10
  // CHECK-NEXT: 1 2 1
  // CHECK-NEXT: 1 5 2
  // CHECK-NEXT: 2 1 23
  // CHECK-NEXT: 2 4 30
  // CHECK-NEXT: 2 5 4
  // CHECK-NEXT: 3 2 5
  // CHECK-NEXT: 3 6 6
  // CHECK-NEXT: 3 8 40
  %a1 = sparse_array.constant sparse<[[0,1],[0,4],[1,2],[2,0],[2,5],[3,3]], [1.0,2.0,3.0,4.0,5.0,6.0]> : tensor<4x6xf64> : !csr46
  %b1 = sparse_array.constant sparse<[[0,0],[1,2],[1,5],[3,5]], [10.0,20.0,30.0,40.0]> : tensor<4x6xf64> : !csr46
  %s1 = sparse_array.map @add(%a1, %b1) : (!csr46, !csr46) -> !csr46
  %r1 = sparse_array.reshape %s1 [3, 8] : !csr46 -> !csr38
  sparse_array.print %r1 : !csr38
  // the same into a dense result
  // CHECK: # fill: 0
  // CHECK-NEXT: 2 9
  // CHECK-NEXT: 3 8
  // CHECK-NEXT: 1 1 10
  // CHECK-NEXT: 1 2 1
  // CHECK-NEXT: 1 5 2
  // CHECK-NEXT: 2 1 23
  // CHECK-NEXT: 2 4 30
  // CHECK-NEXT: 2 5 4
  // CHECK-NEXT: 3 2 5
  // CHECK-NEXT: 3 6 6
  // CHECK-NEXT: 3 8 40
  %a2 = sparse_array.constant sparse<[[0,1],[0,4],[1,2],[2,0],[2,5],[3,3]], [1.0,2.0,3.0,4.0,5.0,6.0]> : tensor<4x6xf64> : !csr46
  %b2 = sparse_array.constant sparse<[[0,0],[1,2],[1,5],[3,5]], [10.0,20.0,30.0,40.0]> : tensor<4x6xf64> : !csr46
  %s2 = sparse_array.map @add(%a2, %b2) : (!csr46, !csr46) -> !csr46
  %r2 = sparse_array.reshape %s2 [3, 8] : !csr46 -> !d38
  sparse_array.print %r2 : !d38
  // COO with fill 1 (rows are runs of a non-unique level): (A + B).reshape(8, 3), fill 2
  // CHECK: # fill: 2
  // CHECK-NEXT: 2 8
  // CHECK-NEXT: 8 3
  // CHECK-NEXT: 1 1 11
  // CHECK-NEXT: 2 2 3
  // CHECK-NEXT: 3 3 23
  // CHECK-NEXT: 4 3 31
  // CHECK-NEXT: 5 1 5
  // CHECK-NEXT: 6 3 6
  // CHECK-NEXT: 8 1 7
  // CHECK-NEXT: 8 3 41
  %a3 = sparse_array.constant sparse<[[0,1],[0,4],[1,2],[2,0],[2,5],[3,3]], [1.0,2.0,3.0,4.0,5.0,6.0]> : tensor<4x6xf64> : !coo46
  %b3 = sparse_array.constant sparse<[[0,0],[1,2],[1,5],[3,5]], [10.0,20.0,30.0,40.0]> : tensor<4x6xf64> : !coo46
  %s3 = sparse_array.map @add(%a3, %b3) : (!coo46, !coo46) -> !coo46f2
  %r3 = sparse_array.reshape %s3 [8, 3] : !coo46f2 -> !coo83f2
  sparse_array.print %r3 : !coo83f2
  // DCSR times CSR (compressed rows: the window seeks them), into DCSR [2, 12]
  // CHECK: # fill: 0
  // CHECK-NEXT: 2 1
  // CHECK-NEXT: 2 12
  // CHECK-NEXT: 1 9 60
  %a4 = sparse_array.constant sparse<[[0,1],[0,4],[1,2],[2,0],[2,5],[3,3]], [1.0,2.0,3.0,4.0,5.0,6.0]> : tensor<4x6xf64> : !dcsr46
  %b4 = sparse_array.constant sparse<[[0,0],[1,2],[1,5],[3,5]], [10.0,20.0,30.0,40.0]> : tensor<4x6xf64> : !csr46
  %s4 = sparse_array.map @mul(%a4, %b4) : (!dcsr46, !csr46) -> !dcsr46
  %r4 = sparse_array.reshape %s4 [2, 12] : !dcsr46 -> !dcsr212
  sparse_array.print %r4 : !dcsr212
  // (A - B) of DCSR into 2x3x4 (one collapse, a split into three: windows of 4 at (i * 3 + j) * 4)
  // CHECK: # fill: 0
  // CHECK-NEXT: 3 9
  // CHECK-NEXT: 2 3 4
  // CHECK-NEXT: 1 1 1 -10
  // CHECK-NEXT: 1 1 2 1
  // CHECK-NEXT: 1 2 1 2
  // CHECK-NEXT: 1 3 1 -17
  // CHECK-NEXT: 1 3 4 -30
  // CHECK-NEXT: 2 1 1 4
  // CHECK-NEXT: 2 2 2 5
  // CHECK-NEXT: 2 3 2 6
  // CHECK-NEXT: 2 3 4 -40
  %a5 = sparse_array.constant sparse<[[0,1],[0,4],[1,2],[2,0],[2,5],[3,3]], [1.0,2.0,3.0,4.0,5.0,6.0]> : tensor<4x6xf64> : !dcsr46
  %b5 = sparse_array.constant sparse<[[0,0],[1,2],[1,5],[3,5]], [10.0,20.0,30.0,40.0]> : tensor<4x6xf64> : !dcsr46
  %s5 = sparse_array.map @sub(%a5, %b5) : (!dcsr46, !dcsr46) -> !dcsr46
  %r5 = sparse_array.reshape %s5 [2, 3, 4] : !dcsr46 -> !csf234
  sparse_array.print %r5 : !csf234
  // CSF 2x3x4 (a product of three levels) into 4x6 CSR
  // CHECK: # fill: 0
  // CHECK-NEXT: 2 7
  // CHECK-NEXT: 4 6
  // CHECK-NEXT: 1 1 10
  // CHECK-NEXT: 1 2 1
  // CHECK-NEXT: 2 6 22
  // CHECK-NEXT: 3 1 3
  // CHECK-NEXT: 4 1 4
  // CHECK-NEXT: 4 3 30
  // CHECK-NEXT: 4 6 5
  %a6 = sparse_array.constant sparse<[[0,0,1],[0,2,3],[1,0,0],[1,1,2],[1,2,3]], [1.0,2.0,3.0,4.0,5.0]> : tensor<2x3x4xf64> : !csf234
  %b6 = sparse_array.constant sparse<[[0,0,0],[0,2,3],[1,2,0]], [10.0,20.0,30.0]> : tensor<2x3x4xf64> : !csf234
  %s6 = sparse_array.map @add(%a6, %b6) : (!csf234, !csf234) -> !csf234
  %r6 = sparse_array.reshape %s6 [4, 6] : !csf234 -> !csr46
  sparse_array.print %r6 : !csr46
  // F order: CSC parts into a 3x8 CSC (the loops run over the result's columns first)
  // CHECK: # fill: 0
  // CHECK-NEXT: 2 9
  // CHECK-NEXT: 3 8
  // CHECK-NEXT: 1 1 10
  // CHECK-NEXT: 1 4 23
  // CHECK-NEXT: 1 6 6
  // CHECK-NEXT: 1 8 30
  // CHECK-NEXT: 2 2 1
  // CHECK-NEXT: 2 6 2
  // CHECK-NEXT: 2 8 5
  // CHECK-NEXT: 3 1 4
  // CHECK-NEXT: 3 8 40
  %a7 = sparse_array.constant sparse<[[0,1],[0,4],[1,2],[2,0],[2,5],[3,3]], [1.0,2.0,3.0,4.0,5.0,6.0]> : tensor<4x6xf64> : !csc46
  %b7 = sparse_array.constant sparse<[[0,0],[1,2],[1,5],[3,5]], [10.0,20.0,30.0,40.0]> : tensor<4x6xf64> : !csc46
  %s7 = sparse_array.map @add(%a7, %b7) : (!csc46, !csc46) -> !csc46
  %r7 = sparse_array.reshape %s7 [3, 8] order "F" : !csc46 -> !csc38
  sparse_array.print %r7 : !csc38
  // dense parts (located at the window's coordinates)
  // CHECK: # fill: 0
  // CHECK-NEXT: 2 9
  // CHECK-NEXT: 3 8
  // CHECK-NEXT: 1 1 10
  // CHECK-NEXT: 1 2 1
  // CHECK-NEXT: 1 5 2
  // CHECK-NEXT: 2 1 23
  // CHECK-NEXT: 2 4 30
  // CHECK-NEXT: 2 5 4
  // CHECK-NEXT: 3 2 5
  // CHECK-NEXT: 3 6 6
  // CHECK-NEXT: 3 8 40
  %a8 = sparse_array.constant sparse<[[0,1],[0,4],[1,2],[2,0],[2,5],[3,3]], [1.0,2.0,3.0,4.0,5.0,6.0]> : tensor<4x6xf64> : !d46
  %b8 = sparse_array.constant sparse<[[0,0],[1,2],[1,5],[3,5]], [10.0,20.0,30.0,40.0]> : tensor<4x6xf64> : !d46
  %s8 = sparse_array.map @add(%a8, %b8) : (!d46, !d46) -> !d46
  %r8 = sparse_array.reshape %s8 [3, 8] : !d46 -> !d38
  sparse_array.print %r8 : !d38
  // row sums of the reshape: the reduced loop iterates the windows
  // CHECK: # fill: 0
  // CHECK-NEXT: 1 3
  // CHECK-NEXT: 3
  // CHECK-NEXT: 1 13
  // CHECK-NEXT: 2 57
  // CHECK-NEXT: 3 51
  %a9 = sparse_array.constant sparse<[[0,1],[0,4],[1,2],[2,0],[2,5],[3,3]], [1.0,2.0,3.0,4.0,5.0,6.0]> : tensor<4x6xf64> : !csr46
  %b9 = sparse_array.constant sparse<[[0,0],[1,2],[1,5],[3,5]], [10.0,20.0,30.0,40.0]> : tensor<4x6xf64> : !csr46
  %s9 = sparse_array.map @add(%a9, %b9) : (!csr46, !csr46) -> !csr46
  %r9 = sparse_array.reshape %s9 [3, 8] : !csr46 -> !csr38
  %q9 = sparse_array.reduce @add %r9 dims [1] : !csr38 -> !v3
  sparse_array.print %q9 : !v3
  // column sums: the reduced loop is the outer part's, which would not enclose the window; still exact
  // CHECK: # fill: 0
  // CHECK-NEXT: 1 6
  // CHECK-NEXT: 8
  // CHECK-NEXT: 1 33
  // CHECK-NEXT: 2 6
  // CHECK-NEXT: 4 30
  // CHECK-NEXT: 5 6
  // CHECK-NEXT: 6 6
  // CHECK-NEXT: 8 40
  %a10 = sparse_array.constant sparse<[[0,1],[0,4],[1,2],[2,0],[2,5],[3,3]], [1.0,2.0,3.0,4.0,5.0,6.0]> : tensor<4x6xf64> : !csr46
  %b10 = sparse_array.constant sparse<[[0,0],[1,2],[1,5],[3,5]], [10.0,20.0,30.0,40.0]> : tensor<4x6xf64> : !csr46
  %s10 = sparse_array.map @add(%a10, %b10) : (!csr46, !csr46) -> !csr46
  %r10 = sparse_array.reshape %s10 [3, 8] : !csr46 -> !csr38
  %q10 = sparse_array.reduce @add %r10 dims [0] : !csr38 -> !v8
  sparse_array.print %q10 : !v8
  // a reshape of the reshape: the first result stays (windows are not composed again), the second reads it in windows of its own
  // CHECK: # fill: 0
  // CHECK-NEXT: 2 9
  // CHECK-NEXT: 2 12
  // CHECK-NEXT: 1 1 10
  // CHECK-NEXT: 1 2 1
  // CHECK-NEXT: 1 5 2
  // CHECK-NEXT: 1 9 23
  // CHECK-NEXT: 1 12 30
  // CHECK-NEXT: 2 1 4
  // CHECK-NEXT: 2 6 5
  // CHECK-NEXT: 2 10 6
  // CHECK-NEXT: 2 12 40
  %a11 = sparse_array.constant sparse<[[0,1],[0,4],[1,2],[2,0],[2,5],[3,3]], [1.0,2.0,3.0,4.0,5.0,6.0]> : tensor<4x6xf64> : !csr46
  %b11 = sparse_array.constant sparse<[[0,0],[1,2],[1,5],[3,5]], [10.0,20.0,30.0,40.0]> : tensor<4x6xf64> : !csr46
  %s11 = sparse_array.map @add(%a11, %b11) : (!csr46, !csr46) -> !csr46
  %r11 = sparse_array.reshape %s11 [3, 8] : !csr46 -> !csr38
  %t11 = sparse_array.reshape %r11 [2, 12] : !csr38 -> !dcsr212
  sparse_array.print %t11 : !dcsr212
  // fill NaN: max of A and B (NaN where either is implicit) into 8x3
  // CHECK: # fill: nan
  // CHECK-NEXT: 2 1
  // CHECK-NEXT: 8 3
  // CHECK-NEXT: 3 3 20
  %a12 = sparse_array.constant sparse<[[0,1],[0,4],[1,2],[2,0],[2,5],[3,3]], [1.0,2.0,3.0,4.0,5.0,6.0]> : tensor<4x6xf64> : !nan46
  %b12 = sparse_array.constant sparse<[[0,0],[1,2],[1,5],[3,5]], [10.0,20.0,30.0,40.0]> : tensor<4x6xf64> : !nan46
  %s12 = sparse_array.map @max(%a12, %b12) : (!nan46, !nan46) -> !nan46
  %r12 = sparse_array.reshape %s12 [8, 3] : !nan46 -> !nan83
  sparse_array.print %r12 : !nan83
  // a sparse row broadcast into the sum (read at a fixed row and the window's inner part)
  // CHECK: # fill: 0
  // CHECK-NEXT: 2 12
  // CHECK-NEXT: 3 8
  // CHECK-NEXT: 1 2 11
  // CHECK-NEXT: 1 4 20
  // CHECK-NEXT: 1 5 2
  // CHECK-NEXT: 1 8 10
  // CHECK-NEXT: 2 1 3
  // CHECK-NEXT: 2 2 20
  // CHECK-NEXT: 2 5 4
  // CHECK-NEXT: 2 6 10
  // CHECK-NEXT: 2 8 20
  // CHECK-NEXT: 3 2 5
  // CHECK-NEXT: 3 4 10
  // CHECK-NEXT: 3 6 26
  %a13 = sparse_array.constant sparse<[[0,1],[0,4],[1,2],[2,0],[2,5],[3,3]], [1.0,2.0,3.0,4.0,5.0,6.0]> : tensor<4x6xf64> : !csr46
  %v13 = sparse_array.constant sparse<[[0,1],[0,3]], [10.0,20.0]> : tensor<1x6xf64> : !r16
  %s13 = sparse_array.map @add(%a13, %v13) : (!csr46, !r16) -> !csr46
  %r13 = sparse_array.reshape %s13 [3, 8] : !csr46 -> !csr38
  sparse_array.print %r13 : !csr38
  // [compressed, dense] parts with fill 1 (a full inner level sought by offset), into [compressed, dense] with fill 2
  // CHECK: # fill: 2
  // CHECK-NEXT: 2 3
  // CHECK-NEXT: 3 8
  // CHECK-NEXT: 2 1 14
  // CHECK-NEXT: 3 3 16
  // CHECK-NEXT: 3 8 18
  %d14 = sparse_array.constant sparse<[[1,2],[3,0],[3,5]], [7.0,8.0,9.0]> : tensor<4x6xf64> : !cd46
  %s14 = sparse_array.map @add(%d14, %d14) : (!cd46, !cd46) -> !cd46f2
  %r14 = sparse_array.reshape %s14 [3, 8] : !cd46f2 -> !cd38f2
  sparse_array.print %r14 : !cd38f2
  return
}
