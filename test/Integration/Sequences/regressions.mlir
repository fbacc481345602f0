// RUN: sa-opt --sparse-array-test-sequence-loops %s > %t.mlir
// RUN: sa-run %t.mlir | FileCheck %s
// (Bounds-checked, these 8 loops nests of ~13k lines each took 70 s to
// compile: fuzz.test's depth-3 legs run the bounds checks; the campaign
// script runs more.)
// Expressions sequences.py found wrong. Expected values from its Python
// evaluation of the combinators: at each coordinate of the set, the sum of
// every stored leaf's value (seed 000: a function sees all its stored
// operands), e.g. in the first, x = 5: d3[1] + d4[5] = 3 + 3.
//
// 1. (seed 13) A dense level of an intersection in a concatenation's first
//    part, read where the intersection's sparse level misses x: a case of
//    the union's loop that no edge reaches (the level did not run out).
// 2. (seed 1) The same below a slice, after the sparse level ran out (an
//    empty vector): the dense level stays, located, in the later loops.
// 3. (seed 1) An offset part of a concatenation whose levels ran out holds
//    only located levels: a case must not ask for them (x = 1 lies below
//    the offset; s6 and d8 hold it).
// 4. (seed 4) Cases in order of the levels they ask to match: at x = 0 the
//    case with s2's augmentation term (s2 stored, the intersection not) came
//    after the one with a located dense level only, and s2's 6 was lost.
// 5. (seed 11060, fuzz campaign) A product whose outer factor is an
//    intersection that lost a part: intersect(s2, not(s2)) keeps s2
//    iterated and at its coordinates (a union's case reads s2 there) but
//    holds none, so the product holds nothing at x = 3..8 and only d0
//    counts there (s2's 6 and d3's 5 were added at x = 3).
// 6. (seed 11064, fuzz campaign) A concatenation whose first part's sparse
//    level ran out (s0 empty) moved on with the first part's dense d1
//    dropped: d1's 7 was lost at x = 0, where s3 is stored. Its dense
//    atoms now stay located in the enclosing union (matching only inside
//    their extent).
// 7. (seed 5 with --reversed) A loop without a concatenation's dense first
//    part ran before the one with it (both asked s2 and s5; the tie went
//    to the smaller operand set), and visited x = 0..3 without d0: d0's
//    2 and 5s were lost. Among points asking as many levels, the one with
//    more (dense) levels now comes first.

func.func private @seed13_concat_dense_in_intersection(%a0: !sparse_array.array<5xf64, #sparse_array.format<[compressed]>>, %a1: !sparse_array.array<5xf64, #sparse_array.format<[compressed]>>, %a2: !sparse_array.array<5xf64, #sparse_array.format<[compressed]>>, %a3: !sparse_array.array<7xf64, #sparse_array.format<[dense]>>, %a4: !sparse_array.array<9xf64, #sparse_array.format<[dense]>>, %a5: !sparse_array.array<9xf64, #sparse_array.format<[compressed]>>, %a6: !sparse_array.array<2xf64, #sparse_array.format<[compressed]>>) -> !sparse_array.array<?xf64, #sparse_array.format<[dense]>> attributes {sparse_array.test_sequence = "union(concat(intersect(s0, s1, s2), slice(d3, 1, 7, 1)), concat(intersect(d4, s5), s6))"}
func.func private @seed1_slice_dense_in_intersection(%a0: !sparse_array.array<1xf64, #sparse_array.format<[dense]>>, %a1: !sparse_array.array<1xf64, #sparse_array.format<[compressed]>>, %a2: !sparse_array.array<1xf64, #sparse_array.format<[dense]>>, %a3: !sparse_array.array<1xf64, #sparse_array.format<[compressed]>>, %a4: !sparse_array.array<2xf64, #sparse_array.format<[dense]>>, %a5: !sparse_array.array<2xf64, #sparse_array.format<[compressed]>>) -> !sparse_array.array<?xf64, #sparse_array.format<[dense]>> attributes {sparse_array.test_sequence = "union(union(union(d0, s1), d2, s3), slice(intersect(d4, s5), 1, 2, 2))"}
func.func private @seed1_offset_missing_below_its_start(%a0: !sparse_array.array<2xf64, #sparse_array.format<[compressed]>>, %a1: !sparse_array.array<2xf64, #sparse_array.format<[compressed]>>, %a2: !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>, %a3: !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>, %a4: !sparse_array.array<3xf64, #sparse_array.format<[dense]>>, %a5: !sparse_array.array<5xf64, #sparse_array.format<[compressed]>>, %a6: !sparse_array.array<5xf64, #sparse_array.format<[compressed]>>, %a7: !sparse_array.array<5xf64, #sparse_array.format<[compressed]>>, %a8: !sparse_array.array<12xf64, #sparse_array.format<[dense]>>) -> !sparse_array.array<?xf64, #sparse_array.format<[dense]>> attributes {sparse_array.test_sequence = "union(concat(intersect(s0, s1), intersect(s2, s3, d4)), intersect(union(s5, s6, s7), slice(d8, 0, 9, 2)))"}
func.func private @seed4_case_order(%a0: !sparse_array.array<2xf64, #sparse_array.format<[compressed]>>, %a1: !sparse_array.array<8xf64, #sparse_array.format<[dense]>>, %a2: !sparse_array.array<10xf64, #sparse_array.format<[compressed]>>, %a3: !sparse_array.array<10xf64, #sparse_array.format<[compressed]>>, %a4: !sparse_array.array<7xf64, #sparse_array.format<[dense]>>, %a5: !sparse_array.array<7xf64, #sparse_array.format<[compressed]>>, %a6: !sparse_array.array<9xf64, #sparse_array.format<[compressed]>>) -> !sparse_array.array<?xf64, #sparse_array.format<[dense]>> attributes {sparse_array.test_sequence = "union(intersect(concat(s0, d1), union(s2, s3)), concat(union(d4, s5), slice(s6, 0, 7, 3)))"}
func.func private @seed11060_product_of_augmented(%a0: !sparse_array.array<9xf64, #sparse_array.format<[dense]>>, %a1: !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>, %a2: !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>, %a3: !sparse_array.array<10xf64, #sparse_array.format<[dense]>>) -> !sparse_array.array<?xf64, #sparse_array.format<[dense]>> attributes {sparse_array.test_sequence = "union(d0, product(intersect(s1, s2), slice(d3, 1, 8, 3)))"}
func.func private @seed11064_concat_moved_on(%a0: !sparse_array.array<1xf64, #sparse_array.format<[compressed]>>, %a1: !sparse_array.array<1xf64, #sparse_array.format<[dense]>>, %a2: !sparse_array.array<1xf64, #sparse_array.format<[compressed]>>, %a3: !sparse_array.array<2xf64, #sparse_array.format<[compressed]>>) -> !sparse_array.array<?xf64, #sparse_array.format<[dense]>> attributes {sparse_array.test_sequence = "union(concat(intersect(s0, d1), s2), s3)"}
func.func private @seed5_dense_first_part_order(%a0: !sparse_array.array<4xf64, #sparse_array.format<[dense]>>, %a1: !sparse_array.array<5xf64, #sparse_array.format<[compressed]>>, %a2: !sparse_array.array<9xf64, #sparse_array.format<[compressed]>>, %a3: !sparse_array.array<9xf64, #sparse_array.format<[dense]>>, %a4: !sparse_array.array<9xf64, #sparse_array.format<[compressed]>>, %a5: !sparse_array.array<9xf64, #sparse_array.format<[compressed]>>) -> !sparse_array.array<?xf64, #sparse_array.format<[dense]>> attributes {sparse_array.test_sequence = "union(concat(d0, s1), union(s2, d3), intersect(s4, s5))"}
func.func @main() {
  %a_c0 = sparse_array.constant sparse<[], []> : tensor<5xf64> : !sparse_array.array<5xf64, #sparse_array.format<[compressed]>>
  %a_c1 = sparse_array.constant sparse<[[0], [1], [2], [3], [4]], [9.0, 3.0, 2.0, 1.0, 6.0]> : tensor<5xf64> : !sparse_array.array<5xf64, #sparse_array.format<[compressed]>>
  %a_c2 = sparse_array.constant sparse<[[0], [1], [2], [3], [4]], [5.0, 3.0, 3.0, 7.0, 6.0]> : tensor<5xf64> : !sparse_array.array<5xf64, #sparse_array.format<[compressed]>>
  %a_c3 = sparse_array.constant dense<[2.0, 3.0, 1.0, 9.0, 7.0, 1.0, 9.0]> : tensor<7xf64> : !sparse_array.array<7xf64, #sparse_array.format<[dense]>>
  %a_c4 = sparse_array.constant dense<[8.0, 1.0, 1.0, 1.0, 8.0, 3.0, 6.0, 5.0, 5.0]> : tensor<9xf64> : !sparse_array.array<9xf64, #sparse_array.format<[dense]>>
  %a_c5 = sparse_array.constant sparse<[[0], [1], [2], [3], [4], [7], [8]], [6.0, 9.0, 4.0, 8.0, 4.0, 1.0, 8.0]> : tensor<9xf64> : !sparse_array.array<9xf64, #sparse_array.format<[compressed]>>
  %a_c6 = sparse_array.constant sparse<[[0], [1]], [7.0, 1.0]> : tensor<2xf64> : !sparse_array.array<2xf64, #sparse_array.format<[compressed]>>
  %ra = call @seed13_concat_dense_in_intersection(%a_c0, %a_c1, %a_c2, %a_c3, %a_c4, %a_c5, %a_c6) : (!sparse_array.array<5xf64, #sparse_array.format<[compressed]>>, !sparse_array.array<5xf64, #sparse_array.format<[compressed]>>, !sparse_array.array<5xf64, #sparse_array.format<[compressed]>>, !sparse_array.array<7xf64, #sparse_array.format<[dense]>>, !sparse_array.array<9xf64, #sparse_array.format<[dense]>>, !sparse_array.array<9xf64, #sparse_array.format<[compressed]>>, !sparse_array.array<2xf64, #sparse_array.format<[compressed]>>) -> !sparse_array.array<?xf64, #sparse_array.format<[dense]>>
  sparse_array.print %ra : !sparse_array.array<?xf64, #sparse_array.format<[dense]>>
  %b_c0 = sparse_array.constant dense<[6.0]> : tensor<1xf64> : !sparse_array.array<1xf64, #sparse_array.format<[dense]>>
  %b_c1 = sparse_array.constant sparse<[], []> : tensor<1xf64> : !sparse_array.array<1xf64, #sparse_array.format<[compressed]>>
  %b_c2 = sparse_array.constant dense<[3.0]> : tensor<1xf64> : !sparse_array.array<1xf64, #sparse_array.format<[dense]>>
  %b_c3 = sparse_array.constant sparse<[], []> : tensor<1xf64> : !sparse_array.array<1xf64, #sparse_array.format<[compressed]>>
  %b_c4 = sparse_array.constant dense<[8.0, 1.0]> : tensor<2xf64> : !sparse_array.array<2xf64, #sparse_array.format<[dense]>>
  %b_c5 = sparse_array.constant sparse<[], []> : tensor<2xf64> : !sparse_array.array<2xf64, #sparse_array.format<[compressed]>>
  %rb = call @seed1_slice_dense_in_intersection(%b_c0, %b_c1, %b_c2, %b_c3, %b_c4, %b_c5) : (!sparse_array.array<1xf64, #sparse_array.format<[dense]>>, !sparse_array.array<1xf64, #sparse_array.format<[compressed]>>, !sparse_array.array<1xf64, #sparse_array.format<[dense]>>, !sparse_array.array<1xf64, #sparse_array.format<[compressed]>>, !sparse_array.array<2xf64, #sparse_array.format<[dense]>>, !sparse_array.array<2xf64, #sparse_array.format<[compressed]>>) -> !sparse_array.array<?xf64, #sparse_array.format<[dense]>>
  sparse_array.print %rb : !sparse_array.array<?xf64, #sparse_array.format<[dense]>>
  %c_c0 = sparse_array.constant sparse<[[0]], [9.0]> : tensor<2xf64> : !sparse_array.array<2xf64, #sparse_array.format<[compressed]>>
  %c_c1 = sparse_array.constant sparse<[[0]], [7.0]> : tensor<2xf64> : !sparse_array.array<2xf64, #sparse_array.format<[compressed]>>
  %c_c2 = sparse_array.constant sparse<[[0], [1], [2]], [3.0, 4.0, 2.0]> : tensor<3xf64> : !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>
  %c_c3 = sparse_array.constant sparse<[[1], [2]], [3.0, 7.0]> : tensor<3xf64> : !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>
  %c_c4 = sparse_array.constant dense<[7.0, 2.0, 6.0]> : tensor<3xf64> : !sparse_array.array<3xf64, #sparse_array.format<[dense]>>
  %c_c5 = sparse_array.constant sparse<[], []> : tensor<5xf64> : !sparse_array.array<5xf64, #sparse_array.format<[compressed]>>
  %c_c6 = sparse_array.constant sparse<[[1], [3], [4]], [8.0, 1.0, 7.0]> : tensor<5xf64> : !sparse_array.array<5xf64, #sparse_array.format<[compressed]>>
  %c_c7 = sparse_array.constant sparse<[[2]], [7.0]> : tensor<5xf64> : !sparse_array.array<5xf64, #sparse_array.format<[compressed]>>
  %c_c8 = sparse_array.constant dense<[3.0, 1.0, 5.0, 5.0, 6.0, 1.0, 2.0, 3.0, 3.0, 4.0, 6.0, 4.0]> : tensor<12xf64> : !sparse_array.array<12xf64, #sparse_array.format<[dense]>>
  %rc = call @seed1_offset_missing_below_its_start(%c_c0, %c_c1, %c_c2, %c_c3, %c_c4, %c_c5, %c_c6, %c_c7, %c_c8) : (!sparse_array.array<2xf64, #sparse_array.format<[compressed]>>, !sparse_array.array<2xf64, #sparse_array.format<[compressed]>>, !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>, !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>, !sparse_array.array<3xf64, #sparse_array.format<[dense]>>, !sparse_array.array<5xf64, #sparse_array.format<[compressed]>>, !sparse_array.array<5xf64, #sparse_array.format<[compressed]>>, !sparse_array.array<5xf64, #sparse_array.format<[compressed]>>, !sparse_array.array<12xf64, #sparse_array.format<[dense]>>) -> !sparse_array.array<?xf64, #sparse_array.format<[dense]>>
  sparse_array.print %rc : !sparse_array.array<?xf64, #sparse_array.format<[dense]>>
  %d_c0 = sparse_array.constant sparse<[], []> : tensor<2xf64> : !sparse_array.array<2xf64, #sparse_array.format<[compressed]>>
  %d_c1 = sparse_array.constant dense<[9.0, 2.0, 2.0, 6.0, 5.0, 3.0, 2.0, 3.0]> : tensor<8xf64> : !sparse_array.array<8xf64, #sparse_array.format<[dense]>>
  %d_c2 = sparse_array.constant sparse<[[0], [6], [7]], [6.0, 4.0, 1.0]> : tensor<10xf64> : !sparse_array.array<10xf64, #sparse_array.format<[compressed]>>
  %d_c3 = sparse_array.constant sparse<[], []> : tensor<10xf64> : !sparse_array.array<10xf64, #sparse_array.format<[compressed]>>
  %d_c4 = sparse_array.constant dense<[5.0, 4.0, 6.0, 4.0, 6.0, 7.0, 6.0]> : tensor<7xf64> : !sparse_array.array<7xf64, #sparse_array.format<[dense]>>
  %d_c5 = sparse_array.constant sparse<[], []> : tensor<7xf64> : !sparse_array.array<7xf64, #sparse_array.format<[compressed]>>
  %d_c6 = sparse_array.constant sparse<[[0], [1], [2], [3], [4], [5], [6], [7], [8]], [7.0, 6.0, 8.0, 8.0, 7.0, 6.0, 9.0, 2.0, 9.0]> : tensor<9xf64> : !sparse_array.array<9xf64, #sparse_array.format<[compressed]>>
  %rd = call @seed4_case_order(%d_c0, %d_c1, %d_c2, %d_c3, %d_c4, %d_c5, %d_c6) : (!sparse_array.array<2xf64, #sparse_array.format<[compressed]>>, !sparse_array.array<8xf64, #sparse_array.format<[dense]>>, !sparse_array.array<10xf64, #sparse_array.format<[compressed]>>, !sparse_array.array<10xf64, #sparse_array.format<[compressed]>>, !sparse_array.array<7xf64, #sparse_array.format<[dense]>>, !sparse_array.array<7xf64, #sparse_array.format<[compressed]>>, !sparse_array.array<9xf64, #sparse_array.format<[compressed]>>) -> !sparse_array.array<?xf64, #sparse_array.format<[dense]>>
  sparse_array.print %rd : !sparse_array.array<?xf64, #sparse_array.format<[dense]>>
  %e_c0 = sparse_array.constant dense<[7.0, 4.0, 7.0, 2.0, 6.0, 2.0, 8.0, 8.0, 3.0]> : tensor<9xf64> : !sparse_array.array<9xf64, #sparse_array.format<[dense]>>
  %e_c1 = sparse_array.constant sparse<[[0], [2]], [7.0, 8.0]> : tensor<3xf64> : !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>
  %e_c2 = sparse_array.constant sparse<[[0], [1]], [6.0, 6.0]> : tensor<3xf64> : !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>
  %e_c3 = sparse_array.constant dense<[4.0, 5.0, 4.0, 6.0, 8.0, 4.0, 4.0, 2.0, 8.0, 9.0]> : tensor<10xf64> : !sparse_array.array<10xf64, #sparse_array.format<[dense]>>
  %re = call @seed11060_product_of_augmented(%e_c0, %e_c1, %e_c2, %e_c3) : (!sparse_array.array<9xf64, #sparse_array.format<[dense]>>, !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>, !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>, !sparse_array.array<10xf64, #sparse_array.format<[dense]>>) -> !sparse_array.array<?xf64, #sparse_array.format<[dense]>>
  sparse_array.print %re : !sparse_array.array<?xf64, #sparse_array.format<[dense]>>
  %f_c0 = sparse_array.constant sparse<[], []> : tensor<1xf64> : !sparse_array.array<1xf64, #sparse_array.format<[compressed]>>
  %f_c1 = sparse_array.constant dense<[7.0]> : tensor<1xf64> : !sparse_array.array<1xf64, #sparse_array.format<[dense]>>
  %f_c2 = sparse_array.constant sparse<[[0]], [8.0]> : tensor<1xf64> : !sparse_array.array<1xf64, #sparse_array.format<[compressed]>>
  %f_c3 = sparse_array.constant sparse<[[0], [1]], [9.0, 2.0]> : tensor<2xf64> : !sparse_array.array<2xf64, #sparse_array.format<[compressed]>>
  %rf = call @seed11064_concat_moved_on(%f_c0, %f_c1, %f_c2, %f_c3) : (!sparse_array.array<1xf64, #sparse_array.format<[compressed]>>, !sparse_array.array<1xf64, #sparse_array.format<[dense]>>, !sparse_array.array<1xf64, #sparse_array.format<[compressed]>>, !sparse_array.array<2xf64, #sparse_array.format<[compressed]>>) -> !sparse_array.array<?xf64, #sparse_array.format<[dense]>>
  sparse_array.print %rf : !sparse_array.array<?xf64, #sparse_array.format<[dense]>>
  %g_c0 = sparse_array.constant dense<[2.0, 5.0, 5.0, 5.0]> : tensor<4xf64> : !sparse_array.array<4xf64, #sparse_array.format<[dense]>>
  %g_c1 = sparse_array.constant sparse<[], []> : tensor<5xf64> : !sparse_array.array<5xf64, #sparse_array.format<[compressed]>>
  %g_c2 = sparse_array.constant sparse<[[0], [1], [2], [3], [5], [6], [7], [8]], [8.0, 7.0, 4.0, 6.0, 9.0, 8.0, 6.0, 9.0]> : tensor<9xf64> : !sparse_array.array<9xf64, #sparse_array.format<[compressed]>>
  %g_c3 = sparse_array.constant dense<[1.0, 3.0, 7.0, 2.0, 4.0, 5.0, 4.0, 2.0, 8.0]> : tensor<9xf64> : !sparse_array.array<9xf64, #sparse_array.format<[dense]>>
  %g_c4 = sparse_array.constant sparse<[], []> : tensor<9xf64> : !sparse_array.array<9xf64, #sparse_array.format<[compressed]>>
  %g_c5 = sparse_array.constant sparse<[[1], [2], [4], [5], [6], [7], [8]], [6.0, 8.0, 3.0, 4.0, 7.0, 6.0, 1.0]> : tensor<9xf64> : !sparse_array.array<9xf64, #sparse_array.format<[compressed]>>
  %rg = call @seed5_dense_first_part_order(%g_c0, %g_c1, %g_c2, %g_c3, %g_c4, %g_c5) : (!sparse_array.array<4xf64, #sparse_array.format<[dense]>>, !sparse_array.array<5xf64, #sparse_array.format<[compressed]>>, !sparse_array.array<9xf64, #sparse_array.format<[compressed]>>, !sparse_array.array<9xf64, #sparse_array.format<[dense]>>, !sparse_array.array<9xf64, #sparse_array.format<[compressed]>>, !sparse_array.array<9xf64, #sparse_array.format<[compressed]>>) -> !sparse_array.array<?xf64, #sparse_array.format<[dense]>>
  sparse_array.print %rg : !sparse_array.array<?xf64, #sparse_array.format<[dense]>>
  return
}

// CHECK:      # fill: 0
// CHECK-NEXT: 1 11
// CHECK-NEXT: 11
// CHECK-NEXT: 1 28
// CHECK-NEXT: 2 16
// CHECK-NEXT: 3 10
// CHECK-NEXT: 4 17
// CHECK-NEXT: 5 24
// CHECK-NEXT: 6 6
// CHECK-NEXT: 7 7
// CHECK-NEXT: 8 15
// CHECK-NEXT: 9 20
// CHECK-NEXT: 10 8
// CHECK-NEXT: 11 10
// CHECK:      # fill: 0
// CHECK-NEXT: 1 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1 10
// CHECK:      # fill: 0
// CHECK-NEXT: 1 5
// CHECK-NEXT: 5
// CHECK-NEXT: 1 19
// CHECK-NEXT: 2 13
// CHECK-NEXT: 3 23
// CHECK-NEXT: 4 12
// CHECK-NEXT: 5 25
// CHECK:      # fill: 0
// CHECK-NEXT: 1 10
// CHECK-NEXT: 10
// CHECK-NEXT: 1 11
// CHECK-NEXT: 2 4
// CHECK-NEXT: 3 15
// CHECK-NEXT: 4 6
// CHECK-NEXT: 5 8
// CHECK-NEXT: 6 13
// CHECK-NEXT: 7 15
// CHECK-NEXT: 8 11
// CHECK-NEXT: 9 10
// CHECK-NEXT: 10 12
// CHECK:      # fill: 0
// CHECK-NEXT: 1 9
// CHECK-NEXT: 9
// CHECK-NEXT: 1 25
// CHECK-NEXT: 2 25
// CHECK-NEXT: 3 22
// CHECK-NEXT: 4 2
// CHECK-NEXT: 5 6
// CHECK-NEXT: 6 2
// CHECK-NEXT: 7 8
// CHECK-NEXT: 8 8
// CHECK-NEXT: 9 3
// CHECK:      # fill: 0
// CHECK-NEXT: 1 2
// CHECK-NEXT: 2
// CHECK-NEXT: 1 16
// CHECK-NEXT: 2 10
// CHECK:      # fill: 0
// CHECK-NEXT: 1 9
// CHECK-NEXT: 9
// CHECK-NEXT: 1 11
// CHECK-NEXT: 2 21
// CHECK-NEXT: 3 24
// CHECK-NEXT: 4 13
// CHECK-NEXT: 5 7
// CHECK-NEXT: 6 18
// CHECK-NEXT: 7 19
// CHECK-NEXT: 8 14
// CHECK-NEXT: 9 18
