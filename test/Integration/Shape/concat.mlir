// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks -O0 %s | FileCheck %s
// RUN: sa-run --num-threads=4 --parallel-min-work=1 --bounds-checks %s | FileCheck %s
// RUN: sa-run --linear-threshold=2 %s | FileCheck %s
// Concatenation (seed 001 §4.1, §5.1): each part read through a padded
// window of the concatenated dimension, the part a coordinate lies in
// picked by select_range; a part whose fill differs from the result's is a
// value at all its points. Expected values: numpy.concatenate of the dense
// parts:
//   a = [[0, 1, 0], [2, 0, 3]] (fill 0), b = [[10, 1], [1, 20]] (fill 1)
//   v = [0, 0, 5], w = [7, 0], u = [2, 9] (fill 2)

sparse_array.func @add(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
!csr23 = !sparse_array.array<2x3xf64, #sparse_array.format<[dense, compressed]>>
!csr22 = !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>>
!csr25 = !sparse_array.array<2x5xf64, #sparse_array.format<[dense, compressed]>>
!csc25 = !sparse_array.array<2x5xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
!csr43 = !sparse_array.array<4x3xf64, #sparse_array.format<[dense, compressed]>>
!v3 = !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>
!v2 = !sparse_array.array<2xf64, #sparse_array.format<[compressed]>>
!u2 = !sparse_array.array<2xf64, #sparse_array.format<[compressed], fill = 2.0 : f64>>
!v5 = !sparse_array.array<5xf64, #sparse_array.format<[compressed]>>
!d5 = !sparse_array.array<5xf64>

func.func @main() {
  %a = sparse_array.constant sparse<[[0, 1], [1, 0], [1, 2]], [1.0, 2.0, 3.0]> : tensor<2x3xf64> : !csr23
  %b = sparse_array.constant sparse<[[0, 0], [1, 1]], [10.0, 20.0]> : tensor<2x2xf64> : !csr22
  // hstack(a, b) = [[0, 1, 0, 10, 1], [2, 0, 3, 1, 20]]: b's implicit 1s
  // are values of the result (fill 0).
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 7
  // CHECK-NEXT: 2 5
  // CHECK-NEXT: 1 2 1
  // CHECK-NEXT: 1 4 10
  // CHECK-NEXT: 1 5 1
  // CHECK-NEXT: 2 1 2
  // CHECK-NEXT: 2 3 3
  // CHECK-NEXT: 2 4 1
  // CHECK-NEXT: 2 5 20
  %h = sparse_array.concat %a, %b dim 1 : !csr23, !csr22 -> !csr25
  sparse_array.print %h : !csr25
  // The same into CSC (the loops run over columns; printed in row order).
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 7
  // CHECK-NEXT: 2 5
  // CHECK-NEXT: 1 2 1
  // CHECK-NEXT: 1 4 10
  // CHECK-NEXT: 1 5 1
  // CHECK-NEXT: 2 1 2
  // CHECK-NEXT: 2 3 3
  // CHECK-NEXT: 2 4 1
  // CHECK-NEXT: 2 5 20
  %hc = sparse_array.concat %a, %b dim 1 : !csr23, !csr22 -> !csc25
  sparse_array.print %hc : !csc25
  // vstack(a, a).
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 6
  // CHECK-NEXT: 4 3
  // CHECK-NEXT: 1 2 1
  // CHECK-NEXT: 2 1 2
  // CHECK-NEXT: 2 3 3
  // CHECK-NEXT: 3 2 1
  // CHECK-NEXT: 4 1 2
  // CHECK-NEXT: 4 3 3
  %vs = sparse_array.concat %a, %a dim 0 : !csr23, !csr23 -> !csr43
  sparse_array.print %vs : !csr43

  %v = sparse_array.constant sparse<[[2]], [5.0]> : tensor<3xf64> : !v3
  %w = sparse_array.constant sparse<[[0]], [7.0]> : tensor<2xf64> : !v2
  %u = sparse_array.constant sparse<[[1]], [9.0]> : tensor<2xf64> : !u2
  // [v, w] = [0, 0, 5, 7, 0]; its slice [1:5:2] = [0, 7] (fused: the
  // windows and the part bound compose with the slice).
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 5
  // CHECK-NEXT: 3 5
  // CHECK-NEXT: 4 7
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 1
  // CHECK-NEXT: 2
  // CHECK-NEXT: 2 7
  %x = sparse_array.concat %v, %w dim 0 : !v3, !v2 -> !v5
  sparse_array.print %x : !v5
  %x2 = sparse_array.concat %v, %w dim 0 : !v3, !v2 -> !v5
  %s = sparse_array.slice %x2[1:5:2] : !v5 -> !v2
  sparse_array.print %s : !v2
  // [v, u] = [0, 0, 5, 2, 9]: u's part computed at every point (fill 2).
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 3
  // CHECK-NEXT: 5
  // CHECK-NEXT: 3 5
  // CHECK-NEXT: 4 2
  // CHECK-NEXT: 5 9
  %y = sparse_array.concat %v, %u dim 0 : !v3, !u2 -> !v5
  sparse_array.print %y : !v5
  // [v, w] + [v, u] = [0, 0, 10, 9, 9], fused into one kernel.
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 3
  // CHECK-NEXT: 5
  // CHECK-NEXT: 3 10
  // CHECK-NEXT: 4 9
  // CHECK-NEXT: 5 9
  %x3 = sparse_array.concat %v, %w dim 0 : !v3, !v2 -> !v5
  %y3 = sparse_array.concat %v, %u dim 0 : !v3, !u2 -> !v5
  %z = sparse_array.map @add(%x3, %y3) : (!v5, !v5) -> !d5
  sparse_array.print %z : !d5
  return
}
