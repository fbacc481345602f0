// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks -O0 %s | FileCheck %s
// RUN: sa-run --linear-threshold=2 %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices | FileCheck %s --check-prefix=PLAN
// A dense part of a concatenation into a sparse result is iterated in its
// window only (seed 001 §5.1: the part's range), not as the universe of
// the whole result: the rows (or columns) of the sparse parts visit their
// stored entries alone. The dense part's fill (1) is not the result's (0):
// its entries are values of the result wherever they lie, an entry 1
// included; entries equal to the result's fill are dropped. The values are
// numpy's:
//   D = [[1, 0, 5, 1], [2, 1, 1, 1], [1, 1, -0.0, 3]]  (dense, fill 1)
//   B = 2x4, (0,1)=7 (1,3)=-4; Y = 5x4, (1,1)=-1 (3,0)=6 (4,3)=4;
//   E = 3x3, (0,2)=8 (2,0)=9                         (CSR, fill 0)
//   np.concatenate([D, B], 0) + Y; np.concatenate([E, D], 1);
//   np.concatenate([a, z], 0) + y with a = [[1, 2, 1, 3, 1]], z of 0x5,
//   y = [[0, 1, 0, 0, 1]] (i64, fill 1)

sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, identity = #sparse_array.identity<0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}

!d = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, dense], fill = 1.0 : f64>>
!b = !sparse_array.array<2x4xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
!y = !sparse_array.array<5x4xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
!e = !sparse_array.array<3x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
!h = !sparse_array.array<3x7xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>

// The rows loop iterates the dense part's window (Y's rows are dense:
// every row; the sparse part's row window is located, as it would save
// nothing iterated), so in the sparse part's rows the columns loop
// iterates the stored columns alone, not every column.
// PLAN-LABEL: func.func @vstack_add(
// PLAN: sparse_array.kernel
// PLAN-SAME: #sparse_array.lattice<loop 0, present [0, 1, 2], coiterate [0], points [{0, U} produce, {U} produce]
// PLAN-SAME: #sparse_array.lattice<loop 1, present [1, 2], coiterate [1, 2], points [{1, 2} produce, {1} produce, {2} produce]
// PLAN-NOT: sparse_array.kernel
func.func @vstack_add(%d: !d, %b: !b, %y: !y) -> !y {
  %c = sparse_array.concat %d, %b dim 0 : !d, !b -> !y
  %s = sparse_array.map @add(%c, %y) : (!y, !y) -> !y
  return %s : !y
}

// The columns loop iterates the dense part's window after the sparse
// part's columns.
// PLAN-LABEL: func.func @hstack(
// PLAN: sparse_array.kernel
// PLAN-SAME: #sparse_array.lattice<loop 1, present [0, 1], coiterate [0, 1]
// PLAN-SAME: sequence "union(slice(s0, 0, 7, 1), slice(s1, -3, 4, 1))"
func.func @hstack(%e: !e, %d: !d) -> !h {
  %c = sparse_array.concat %e, %d dim 1 : !e, !d -> !h
  return %c : !h
}

sparse_array.func @addi(%x: i64, %y: i64) -> i64 attributes {commutative} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}

!a1 = !sparse_array.array<1x5xi64, #sparse_array.format<[dense, compressed], fill = 1 : i64>>
!z0 = !sparse_array.array<0x5xi64, #sparse_array.format<[dense, compressed], fill = 1 : i64>>

// A part of no rows: its window (-1:0) starts below 0 and holds nothing;
// the rows loop must not locate it at -1 (its positions buffer was read
// at -1).
func.func @empty_part(%a: !a1, %z: !z0, %y: !a1) -> !a1 {
  %c = sparse_array.concat %a, %z dim 0 : !a1, !z0 -> !a1
  %s = sparse_array.map @addi(%c, %y) : (!a1, !a1) -> !a1
  return %s : !a1
}

func.func @main() {
  %d = sparse_array.constant dense<[[1.0, 0.0, 5.0, 1.0], [2.0, 1.0, 1.0, 1.0], [1.0, 1.0, -0.0, 3.0]]> : tensor<3x4xf64> : !d
  %b = sparse_array.constant dense<[[0.0, 7.0, 0.0, 0.0], [0.0, 0.0, 0.0, -4.0]]> : tensor<2x4xf64> : !b
  %y = sparse_array.constant dense<[[0.0, 0.0, 0.0, 0.0], [0.0, -1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [6.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 4.0]]> : tensor<5x4xf64> : !y
  %e = sparse_array.constant dense<[[0.0, 0.0, 8.0], [0.0, 0.0, 0.0], [9.0, 0.0, 0.0]]> : tensor<3x3xf64> : !e

  %v = func.call @vstack_add(%d, %b, %y) : (!d, !b, !y) -> !y
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 11
  // CHECK-NEXT: 5 4
  // CHECK-NEXT: 1 1 1
  // CHECK-NEXT: 1 3 5
  // CHECK-NEXT: 1 4 1
  // CHECK-NEXT: 2 1 2
  // CHECK-NEXT: 2 3 1
  // CHECK-NEXT: 2 4 1
  // CHECK-NEXT: 3 1 1
  // CHECK-NEXT: 3 2 1
  // CHECK-NEXT: 3 4 3
  // CHECK-NEXT: 4 1 6
  // CHECK-NEXT: 4 2 7
  sparse_array.print %v : !y
  %h = func.call @hstack(%e, %d) : (!e, !d) -> !h
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 13
  // CHECK-NEXT: 3 7
  // CHECK-NEXT: 1 3 8
  // CHECK-NEXT: 1 4 1
  // CHECK-NEXT: 1 6 5
  // CHECK-NEXT: 1 7 1
  // CHECK-NEXT: 2 4 2
  // CHECK-NEXT: 2 5 1
  // CHECK-NEXT: 2 6 1
  // CHECK-NEXT: 2 7 1
  // CHECK-NEXT: 3 1 9
  // CHECK-NEXT: 3 4 1
  // CHECK-NEXT: 3 5 1
  // CHECK-NEXT: 3 6 -0
  // CHECK-NEXT: 3 7 3
  sparse_array.print %h : !h
  %a1 = sparse_array.constant dense<[[1, 2, 1, 3, 1]]> : tensor<1x5xi64> : !a1
  %z0 = sparse_array.constant dense<1> : tensor<0x5xi64> : !z0
  %y1 = sparse_array.constant dense<[[0, 1, 0, 0, 1]]> : tensor<1x5xi64> : !a1
  %e1 = func.call @empty_part(%a1, %z0, %y1) : (!a1, !z0, !a1) -> !a1
  // CHECK:      # fill: 1
  // CHECK-NEXT: 2 3
  // CHECK-NEXT: 1 5
  // CHECK-NEXT: 1 2 3
  // CHECK-NEXT: 1 4 3
  // CHECK-NEXT: 1 5 2
  sparse_array.print %e1 : !a1
  return
}
