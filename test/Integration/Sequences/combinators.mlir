// RUN: sa-opt --sparse-array-test-sequence-loops %s > %t.mlir
// RUN: sa-run %t.mlir | FileCheck %s
// RUN: sa-run --bounds-checks %t.mlir | FileCheck %s
// Each sequence combinator's iterator (seed 001 §7.1) in an executed loop
// nest built from its lattice (Fig. 12, 15). The test lowering adds, at
// every coordinate x of the expression, the values of the arrays whose
// innermost level the case taken at x holds: for a union that is the sum
// of the stored values there. Expected values by numpy, e.g. for the first
// function: A.flatten() + b with A = [[1, 0, 2], [0, 0, 3]] and
// b = [0, 10, 0, 30, 0, 20].

!csr = !sparse_array.array<2x3xf64, #sparse_array.format<[dense, compressed]>>
!csr32 = !sparse_array.array<3x2xf64, #sparse_array.format<[dense, compressed]>>
!dcsr = !sparse_array.array<2x3xf64, #sparse_array.format<[compressed, compressed]>>
!s2 = !sparse_array.array<2xf64, #sparse_array.format<[compressed]>>
!s3 = !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>
!s4 = !sparse_array.array<4xf64, #sparse_array.format<[compressed]>>
!s6 = !sparse_array.array<6xf64, #sparse_array.format<[compressed]>>
!s9 = !sparse_array.array<9xf64, #sparse_array.format<[compressed]>>
!s10 = !sparse_array.array<10xf64, #sparse_array.format<[compressed]>>
!d9 = !sparse_array.array<9xf64, #sparse_array.format<[dense]>>
!dv = !sparse_array.array<?xf64, #sparse_array.format<[dense]>>

// (i_A × j_A) ∪ k_b: a collapsed CSR matrix plus a vector (Fig. 10, 22).
func.func private @collapse_add(%A: !csr, %b: !s6) -> !dv
    attributes {sparse_array.test_sequence = "union(product(d0, s0.1), s1)"}
// The same over DCSR: both levels of A are iterated.
func.func private @collapse_add_dcsr(%A: !dcsr, %b: !s6) -> !dv
    attributes {sparse_array.test_sequence = "union(product(s0, s0.1), s1)"}
// A CSR matrix whose first and last rows are empty, collapsed: the
// product skips the empty rows (Fig. 20's init and next).
func.func private @collapse_empty_rows(%A: !csr32) -> !dv
    attributes {sparse_array.test_sequence = "product(d0, s0.1)"}
// a ⊔ b (Fig. 14b): a's loop, then b's shifted by |a| = 4.
func.func private @concat(%a: !s4, %b: !s3) -> !dv
    attributes {sparse_array.test_sequence = "concat(s0, s1)"}
// (a ∪ b) ⊔ c (Fig. 14e): both points of the union continue into |a| + c.
func.func private @concat_union(%a: !s4, %b: !s4, %c: !s3) -> !dv
    attributes {sparse_array.test_sequence = "concat(union(s0, s1), s2)"}
// a[1:9:3] of a sparse vector: coordinates 1, 4, 7.
func.func private @slice(%a: !s10) -> !dv
    attributes {sparse_array.test_sequence = "slice(s0, 1, 9, 3)"}
// d[2:8:2] of a dense vector: located at the start, then stepped.
func.func private @slice_dense(%d: !d9) -> !dv
    attributes {sparse_array.test_sequence = "slice(d0, 2, 8, 2)"}
// a[1:9:2] ∪ (b × c) (Fig. 14f): an outer product of two vectors.
func.func private @slice_union_product(%a: !s10, %b: !s2, %c: !s2) -> !dv
    attributes {sparse_array.test_sequence = "union(slice(s0, 1, 9, 2), product(s1, s2))"}
// a ∩ d: a iterated, d located at a's coordinates (§6.3.1).
func.func private @intersect_locate(%a: !s9, %d: !d9) -> !dv
    attributes {sparse_array.test_sequence = "intersect(s0, d1)"}
// a ∪ d: the dense operand is iterated too; the union ends with it.
func.func private @union_dense(%a: !s9, %d: !d9) -> !dv
    attributes {sparse_array.test_sequence = "union(s0, d1)"}
// π₀(a, 3): the blocks of three coordinates holding an entry of a; the
// case reads a at the block's first entry.
func.func private @project(%a: !s9) -> !dv
    attributes {sparse_array.test_sequence = "project0(s0, 3)"}

func.func @main() {
  %A = sparse_array.constant sparse<[[0, 0], [0, 2], [1, 2]], [1.0, 2.0, 3.0]> : tensor<2x3xf64> : !csr
  %E = sparse_array.constant sparse<[[1, 0]], [5.0]> : tensor<3x2xf64> : !csr32
  %D = sparse_array.constant sparse<[[0, 0], [0, 2], [1, 2]], [1.0, 2.0, 3.0]> : tensor<2x3xf64> : !dcsr
  %b6 = sparse_array.constant sparse<[[1], [3], [5]], [10.0, 30.0, 20.0]> : tensor<6xf64> : !s6
  %a4 = sparse_array.constant sparse<[[0], [3]], [1.0, 2.0]> : tensor<4xf64> : !s4
  %b4 = sparse_array.constant sparse<[[1], [3]], [10.0, 20.0]> : tensor<4xf64> : !s4
  %b3 = sparse_array.constant sparse<[[1], [2]], [5.0, 6.0]> : tensor<3xf64> : !s3
  %a10 = sparse_array.constant sparse<[[0], [1], [4], [6], [7], [9]], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<10xf64> : !s10
  %d9 = sparse_array.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]> : tensor<9xf64> : !d9
  %b2 = sparse_array.constant sparse<[[1]], [100.0]> : tensor<2xf64> : !s2
  %c2 = sparse_array.constant sparse<[[0], [1]], [1.0, 2.0]> : tensor<2xf64> : !s2
  %a9 = sparse_array.constant sparse<[[1], [2], [7]], [10.0, 20.0, 50.0]> : tensor<9xf64> : !s9

  // [1, 10, 2, 30, 0, 23]
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 5
  // CHECK-NEXT: 6
  // CHECK-NEXT: 1 1
  // CHECK-NEXT: 2 10
  // CHECK-NEXT: 3 2
  // CHECK-NEXT: 4 30
  // CHECK-NEXT: 6 23
  %r0 = call @collapse_add(%A, %b6) : (!csr, !s6) -> !dv
  sparse_array.print %r0 : !dv
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 5
  // CHECK-NEXT: 6
  // CHECK-NEXT: 1 1
  // CHECK-NEXT: 2 10
  // CHECK-NEXT: 3 2
  // CHECK-NEXT: 4 30
  // CHECK-NEXT: 6 23
  %r1 = call @collapse_add_dcsr(%D, %b6) : (!dcsr, !s6) -> !dv
  sparse_array.print %r1 : !dv
  // [[0, 0], [5, 0], [0, 0]].flatten() = [0, 0, 5, 0, 0, 0]
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 1
  // CHECK-NEXT: 6
  // CHECK-NEXT: 3 5
  %re = call @collapse_empty_rows(%E) : (!csr32) -> !dv
  sparse_array.print %re : !dv
  // np.concatenate([[1, 0, 0, 2], [0, 5, 6]])
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 4
  // CHECK-NEXT: 7
  // CHECK-NEXT: 1 1
  // CHECK-NEXT: 4 2
  // CHECK-NEXT: 6 5
  // CHECK-NEXT: 7 6
  %r2 = call @concat(%a4, %b3) : (!s4, !s3) -> !dv
  sparse_array.print %r2 : !dv
  // np.concatenate([[1, 10, 0, 22], [0, 5, 6]])
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 5
  // CHECK-NEXT: 7
  // CHECK-NEXT: 1 1
  // CHECK-NEXT: 2 10
  // CHECK-NEXT: 4 22
  // CHECK-NEXT: 6 5
  // CHECK-NEXT: 7 6
  %r3 = call @concat_union(%a4, %b4, %b3) : (!s4, !s4, !s3) -> !dv
  sparse_array.print %r3 : !dv
  // a[1:9:3] = [2, 3, 5]
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 3
  // CHECK-NEXT: 3
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 2 3
  // CHECK-NEXT: 3 5
  %r4 = call @slice(%a10) : (!s10) -> !dv
  sparse_array.print %r4 : !dv
  // d[2:8:2] = [3, 5, 7]
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 3
  // CHECK-NEXT: 3
  // CHECK-NEXT: 1 3
  // CHECK-NEXT: 2 5
  // CHECK-NEXT: 3 7
  %r5 = call @slice_dense(%d9) : (!d9) -> !dv
  sparse_array.print %r5 : !dv
  // a[1:9:2] = [2, 0, 0, 5] (coordinates 1, 3, 5, 7) plus
  // np.outer(b, c).flatten() = [0, 0, 100, 100] + [0, 0, 1, 2]
  // (each product entry adds b and c): [2, 0, 101, 107]
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 3
  // CHECK-NEXT: 4
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 3 101
  // CHECK-NEXT: 4 107
  %r6 = call @slice_union_product(%a10, %b2, %c2) : (!s10, !s2, !s2) -> !dv
  sparse_array.print %r6 : !dv
  // (a + d) where a is stored: [0, 12, 23, 0, 0, 0, 0, 58, 0]
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 3
  // CHECK-NEXT: 9
  // CHECK-NEXT: 2 12
  // CHECK-NEXT: 3 23
  // CHECK-NEXT: 8 58
  %r7 = call @intersect_locate(%a9, %d9) : (!s9, !d9) -> !dv
  sparse_array.print %r7 : !dv
  // a + d everywhere: [1, 12, 23, 4, 5, 6, 7, 58, 9]
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 9
  // CHECK-NEXT: 9
  // CHECK-NEXT: 1 1
  // CHECK-NEXT: 2 12
  // CHECK-NEXT: 3 23
  // CHECK-NEXT: 4 4
  // CHECK-NEXT: 5 5
  // CHECK-NEXT: 6 6
  // CHECK-NEXT: 7 7
  // CHECK-NEXT: 8 58
  // CHECK-NEXT: 9 9
  %r8 = call @union_dense(%a9, %d9) : (!s9, !d9) -> !dv
  sparse_array.print %r8 : !dv
  // blocks 0 (entries 1, 2: first 10) and 2 (entry 7: 50): [10, 0, 50]
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 3
  // CHECK-NEXT: 1 10
  // CHECK-NEXT: 3 50
  %r9 = call @project(%a9) : (!s9) -> !dv
  sparse_array.print %r9 : !dv
  return
}
