// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices | FileCheck %s --check-prefix=PLAN
// Sums with the standard library's exact f64 add (identity -0.0) over fill
// +0.0 at sparse cost (issue 20, strategy signed_zero_sum): the stored
// entries are summed from -0.0 and a -0.0 sum of a row with an implicit
// entry becomes +0.0, which is the dense fold exactly. numpy on the dense
// arrays (a left fold from the first entry):
//   A = [[-0.0, 0], [-0.0, -0.0], [0, 0], [nan, 0], [inf, -inf], [1, -1], [0, 2.5]]
//   row sums: [0.0, -0.0, 0.0, nan, nan, 0.0, 2.5] (-0.0 + 0.0 is +0.0;
//   the full row of -0.0 keeps its sign; 1 + -1 is +0.0)
//   column sums (a scatter reduction): [nan, -inf]
// The fill 0 is not printed; -0.0 is stored (bitwise not the fill).
//   Z = [[-0.0, -0.0, -0.0, 0], [-0.0, 0, 0.0 (stored), 0], [-0.0, -0.0, -0.0, 0]]
//   column sums (scatter; only -0.0 values are counted there):
//   [-0.0, 0.0, 0.0, 0.0] (a full column of -0.0 keeps its sign; a missing
//   or a stored +0.0 makes it +0.0; the empty column is +0.0)
//   G (20 x 2): column 0 twenty -0.0 (full), column 1 nineteen (row 19
//   missing): [-0.0, 0.0] (39 values logged: the log grows past 16)

// PLAN-COUNT-5: strategy = signed_zero_sum

sparse_array.func @add_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
!csr = !sparse_array.array<7x2xf64, #sparse_array.format<[dense, compressed]>>
!d7 = !sparse_array.array<7xf64>
!d2 = !sparse_array.array<2xf64>
!v7 = !sparse_array.array<7xf64, #sparse_array.format<[compressed]>>
func.func @main() {
  %a = sparse_array.constant sparse<[[0, 0], [1, 0], [1, 1], [3, 0], [4, 0], [4, 1], [5, 0], [5, 1], [6, 1]],
      [-0.0, -0.0, -0.0, 0x7FF8000000000000, 0x7FF0000000000000, 0xFFF0000000000000, 1.0, -1.0, 2.5]> : tensor<7x2xf64> : !csr
  %r = sparse_array.reduce @add_f64 %a dims [1] : !csr -> !d7
  sparse_array.print %r : !d7
  %s = sparse_array.reduce @add_f64 %a dims [1] : !csr -> !v7
  sparse_array.print %s : !v7
  %c = sparse_array.reduce @add_f64 %a dims [0] : !csr -> !d2
  sparse_array.print %c : !d2
  %z = sparse_array.constant sparse<[[0, 0], [0, 1], [0, 2], [1, 0], [1, 2], [2, 0], [2, 1], [2, 2]],
      [-0.0, -0.0, -0.0, -0.0, 0.0, -0.0, -0.0, -0.0]> : tensor<3x4xf64> : !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed]>>
  %zc = sparse_array.reduce @add_f64 %z dims [0] : !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed]>> -> !sparse_array.array<4xf64>
  sparse_array.print %zc : !sparse_array.array<4xf64>
  %g = sparse_array.constant sparse<[[0, 0], [1, 0], [2, 0], [3, 0], [4, 0], [5, 0], [6, 0], [7, 0], [8, 0], [9, 0], [10, 0], [11, 0], [12, 0], [13, 0], [14, 0], [15, 0], [16, 0], [17, 0], [18, 0], [19, 0], [0, 1], [1, 1], [2, 1], [3, 1], [4, 1], [5, 1], [6, 1], [7, 1], [8, 1], [9, 1], [10, 1], [11, 1], [12, 1], [13, 1], [14, 1], [15, 1], [16, 1], [17, 1], [18, 1]],
      [-0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0]> : tensor<20x2xf64> : !sparse_array.array<20x2xf64, #sparse_array.format<[dense, compressed]>>
  %gc = sparse_array.reduce @add_f64 %g dims [0] : !sparse_array.array<20x2xf64, #sparse_array.format<[dense, compressed]>> -> !sparse_array.array<2xf64>
  sparse_array.print %gc : !sparse_array.array<2xf64>
  return
}

// CHECK: # fill: 0
// CHECK-NEXT: 1 4
// CHECK-NEXT: 7
// CHECK-NEXT: 2 -0
// CHECK-NEXT: 4 {{-?}}nan
// CHECK-NEXT: 5 {{-?}}nan
// CHECK-NEXT: 7 2.5
// CHECK: # fill: 0
// CHECK-NEXT: 1 4
// CHECK-NEXT: 7
// CHECK-NEXT: 2 -0
// CHECK-NEXT: 4 {{-?}}nan
// CHECK-NEXT: 5 {{-?}}nan
// CHECK-NEXT: 7 2.5
// CHECK: # fill: 0
// CHECK-NEXT: 1 2
// CHECK-NEXT: 2
// CHECK-NEXT: 1 {{-?}}nan
// CHECK-NEXT: 2 -inf
// CHECK: # fill: 0
// CHECK-NEXT: 1 1
// CHECK-NEXT: 4
// CHECK-NEXT: 1 -0
// CHECK: # fill: 0
// CHECK-NEXT: 1 1
// CHECK-NEXT: 2
// CHECK-NEXT: 1 -0
