// RUN: not sa-run %s 2>&1 | FileCheck %s
// RUN: not sa-run --entry-point=into_rows %s 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: not sa-run --entry-point=into_coo %s 2>&1 | FileCheck %s --check-prefix=COO
// RUN: sa-run --entry-point=agree %s | FileCheck %s --check-prefix=AGREE
// Concatenated inputs must agree in every other dimension (numpy raises).
// Sizes known only at run time are checked where the concatenation is
// lowered without a kernel (its parts' stored ranges moved: MoveRanges,
// CooRows), which take the other dimensions' sizes from the first part:
// hstack of a 2-row and a 4-row CSR printed a 2-row result before.

!a = !sparse_array.array<2x3xf64, #sparse_array.format<[dense, compressed]>>
!b = !sparse_array.array<4x3xf64, #sparse_array.format<[dense, compressed]>>
!d = !sparse_array.array<?x3xf64, #sparse_array.format<[dense, compressed]>>
!r = !sparse_array.array<?x6xf64, #sparse_array.format<[dense, compressed]>>
!coo23 = !sparse_array.array<2x3xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!coo22 = !sparse_array.array<2x2xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!cood = !sparse_array.array<2x?xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!rows = !sparse_array.array<4x?xf64, #sparse_array.format<[dense, compressed]>>
!coor = !sparse_array.array<?x6xf64, #sparse_array.format<[compressed(nonunique), singleton]>>

func.func private @inputs() -> (!d, !d) {
  %a = sparse_array.constant dense<[[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]]> : tensor<2x3xf64> : !a
  %b = sparse_array.constant dense<[[4.0, 0.0, 0.0], [0.0, 0.0, 5.0], [6.0, 0.0, 0.0], [0.0, 7.0, 0.0]]> : tensor<4x3xf64> : !b
  %da = sparse_array.convert %a : !a to !d
  %db = sparse_array.convert %b : !b to !d
  return %da, %db : !d, !d
}

// CHECK: sparse_array runtime error: input 1 of a concatenation along dimension 2 has size 4 in dimension 1, but the result has size 2 there
// CHECK-NOT: # fill
func.func @main() {
  %da, %db = func.call @inputs() : () -> (!d, !d)
  %r = sparse_array.concat %da, %db dim 1 : !d, !d -> !r
  sparse_array.print %r : !r
  return
}

// COO parts stacked into CSR rows (CooRows.cpp), 3 and 2 columns.
// ROWS: sparse_array runtime error: input 1 of a concatenation along dimension 1 has size 2 in dimension 2, but the result has size 3 there
func.func @into_rows() {
  %a = sparse_array.constant dense<[[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]]> : tensor<2x3xf64> : !coo23
  %b = sparse_array.constant dense<[[4.0, 0.0], [0.0, 5.0]]> : tensor<2x2xf64> : !coo22
  %da = sparse_array.convert %a : !coo23 to !cood
  %db = sparse_array.convert %b : !coo22 to !cood
  %r = sparse_array.concat %da, %db dim 0 : !cood, !cood -> !rows
  sparse_array.print %r : !rows
  return
}

// CSR parts into COO (CooRows.cpp).
// COO: sparse_array runtime error: input 1 of a concatenation along dimension 2 has size 4 in dimension 1, but the result has size 2 there
func.func @into_coo() {
  %da, %db = func.call @inputs() : () -> (!d, !d)
  %r = sparse_array.concat %da, %db dim 1 : !d, !d -> !coor
  sparse_array.print %r : !coor
  return
}

// Agreeing sizes pass the checks (numpy: np.hstack([a, a])).
// AGREE:      # fill: 0
// AGREE-NEXT: 2 6
// AGREE-NEXT: 2 6
// AGREE-NEXT: 1 1 1
// AGREE-NEXT: 1 3 2
// AGREE-NEXT: 1 4 1
// AGREE-NEXT: 1 6 2
// AGREE-NEXT: 2 2 3
// AGREE-NEXT: 2 5 3
func.func @agree() {
  %da, %db = func.call @inputs() : () -> (!d, !d)
  %r = sparse_array.concat %da, %da dim 1 : !d, !d -> !r
  sparse_array.print %r : !r
  return
}
