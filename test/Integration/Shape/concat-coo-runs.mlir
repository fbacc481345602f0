// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks -O0 %s | FileCheck %s
// RUN: sa-run --num-threads=2 --parallel-min-work=1 %s | FileCheck %s
// COO concatenated along a dimension below its rows (MergedConcat.cpp):
// the rows merged by coordinate and each part's run of a row copied entry
// by entry with its lower coordinates (the cut's moved by the part's
// offset) and values, stored fills dropped. Three parts with shared and
// missing rows, 32-bit widths with an input that stores an explicit fill,
// i64 with fill 42, rank 3 along the middle dimension, one row; CSR parts
// without rows into COO. Expected entries: numpy.concatenate of the dense
// parts (generated, values in the constants).

func.func @main() {
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 11
  // CHECK-NEXT: 5 6
  // CHECK-NEXT: 2 2 -2
  // CHECK-NEXT: 2 5 -4.5
  // CHECK-NEXT: 2 6 4
  // CHECK-NEXT: 3 1 2
  // CHECK-NEXT: 3 3 -4
  // CHECK-NEXT: 3 5 4.5
  // CHECK-NEXT: 3 6 3.5
  // CHECK-NEXT: 4 1 4.5
  // CHECK-NEXT: 4 3 2
  // CHECK-NEXT: 4 5 -3
  // CHECK-NEXT: 5 2 0.5
  // h3
  %h3_p0 = sparse_array.constant sparse<[[1, 1], [2, 0], [3, 0], [4, 1]], [-2.0, 2.0, 4.5, 0.5]> : tensor<5x2xf64> : !sparse_array.array<5x2xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>
  %h3_p1 = sparse_array.constant sparse<[[1, 2], [2, 0], [2, 2], [3, 0], [3, 2]], [-4.5, -4.0, 4.5, 2.0, -3.0]> : tensor<5x3xf64> : !sparse_array.array<5x3xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>
  %h3_p2 = sparse_array.constant sparse<[[1, 0], [2, 0]], [4.0, 3.5]> : tensor<5x1xf64> : !sparse_array.array<5x1xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>
  %h3 = sparse_array.concat %h3_p0, %h3_p1, %h3_p2 dim 1 : !sparse_array.array<5x2xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>, !sparse_array.array<5x3xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>, !sparse_array.array<5x1xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>> -> !sparse_array.array<5x6xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>
  sparse_array.print %h3 : !sparse_array.array<5x6xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>

  // CHECK:      # fill: 1
  // CHECK-NEXT: 2 10
  // CHECK-NEXT: 4 6
  // CHECK-NEXT: 1 4 3.5
  // CHECK-NEXT: 1 5 3.5
  // CHECK-NEXT: 1 6 0.5
  // CHECK-NEXT: 2 4 4
  // CHECK-NEXT: 3 3 -0.5
  // CHECK-NEXT: 3 4 4.5
  // CHECK-NEXT: 3 6 -2
  // CHECK-NEXT: 4 1 1.5
  // CHECK-NEXT: 4 2 0.5
  // CHECK-NEXT: 4 6 -3
  // h32
  %h32_p0 = sparse_array.constant sparse<[[0, 1], [1, 2], [2, 1], [2, 2], [3, 0], [3, 1]], [1.0, 1.0, 1.0, -0.5, 1.5, 0.5]> : tensor<4x3xf64> : !sparse_array.array<4x3xf64, #sparse_array.format<[compressed(nonunique), singleton], pos_width = 32, crd_width = 32, fill = 1.0 : f64>>
  %h32_p1 = sparse_array.constant sparse<[[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [2, 0], [2, 2], [3, 2]], [3.5, 3.5, 0.5, 4.0, 1.0, 4.5, -2.0, -3.0]> : tensor<4x3xf64> : !sparse_array.array<4x3xf64, #sparse_array.format<[compressed(nonunique), singleton], pos_width = 32, crd_width = 32, fill = 1.0 : f64>>
  %h32 = sparse_array.concat %h32_p0, %h32_p1 dim 1 : !sparse_array.array<4x3xf64, #sparse_array.format<[compressed(nonunique), singleton], pos_width = 32, crd_width = 32, fill = 1.0 : f64>>, !sparse_array.array<4x3xf64, #sparse_array.format<[compressed(nonunique), singleton], pos_width = 32, crd_width = 32, fill = 1.0 : f64>> -> !sparse_array.array<4x6xf64, #sparse_array.format<[compressed(nonunique), singleton], pos_width = 32, crd_width = 32, fill = 1.0 : f64>>
  sparse_array.print %h32 : !sparse_array.array<4x6xf64, #sparse_array.format<[compressed(nonunique), singleton], pos_width = 32, crd_width = 32, fill = 1.0 : f64>>

  // CHECK:      # fill: 42
  // CHECK-NEXT: 2 15
  // CHECK-NEXT: 6 6
  // CHECK-NEXT: 1 3 5
  // CHECK-NEXT: 1 6 2
  // CHECK-NEXT: 2 1 0
  // CHECK-NEXT: 2 5 -3
  // CHECK-NEXT: 3 4 -2
  // CHECK-NEXT: 4 1 -5
  // CHECK-NEXT: 4 2 -5
  // CHECK-NEXT: 4 4 -2
  // CHECK-NEXT: 4 6 5
  // CHECK-NEXT: 5 1 2
  // CHECK-NEXT: 5 2 -1
  // CHECK-NEXT: 5 5 5
  // CHECK-NEXT: 5 6 -2
  // CHECK-NEXT: 6 2 -5
  // CHECK-NEXT: 6 4 -3
  // hi
  %hi_p0 = sparse_array.constant sparse<[[1, 0], [3, 0], [3, 1], [4, 0], [4, 1], [5, 1]], [0, -5, -5, 2, -1, -5]> : tensor<6x2xi64> : !sparse_array.array<6x2xi64, #sparse_array.format<[compressed(nonunique), singleton], fill = 42 : i64>>
  %hi_p1 = sparse_array.constant sparse<[[0, 0], [0, 3], [1, 2], [2, 1], [3, 1], [3, 3], [4, 2], [4, 3], [5, 1]], [5, 2, -3, -2, -2, 5, 5, -2, -3]> : tensor<6x4xi64> : !sparse_array.array<6x4xi64, #sparse_array.format<[compressed(nonunique), singleton], fill = 42 : i64>>
  %hi = sparse_array.concat %hi_p0, %hi_p1 dim 1 : !sparse_array.array<6x2xi64, #sparse_array.format<[compressed(nonunique), singleton], fill = 42 : i64>>, !sparse_array.array<6x4xi64, #sparse_array.format<[compressed(nonunique), singleton], fill = 42 : i64>> -> !sparse_array.array<6x6xi64, #sparse_array.format<[compressed(nonunique), singleton], fill = 42 : i64>>
  sparse_array.print %hi : !sparse_array.array<6x6xi64, #sparse_array.format<[compressed(nonunique), singleton], fill = 42 : i64>>

  // CHECK:      # fill: -2
  // CHECK-NEXT: 3 17
  // CHECK-NEXT: 3 5 3
  // CHECK-NEXT: 1 3 2 1
  // CHECK-NEXT: 1 5 1 -3.5
  // CHECK-NEXT: 2 1 2 -1.5
  // CHECK-NEXT: 2 2 1 -1
  // CHECK-NEXT: 2 2 3 -3
  // CHECK-NEXT: 2 3 1 1.5
  // CHECK-NEXT: 2 5 1 0.5
  // CHECK-NEXT: 2 5 2 4
  // CHECK-NEXT: 2 5 3 3.5
  // CHECK-NEXT: 3 1 1 -3
  // CHECK-NEXT: 3 2 1 -2.5
  // CHECK-NEXT: 3 3 1 2
  // CHECK-NEXT: 3 3 3 1.5
  // CHECK-NEXT: 3 4 1 0.5
  // CHECK-NEXT: 3 4 2 1.5
  // CHECK-NEXT: 3 4 3 3
  // CHECK-NEXT: 3 5 2 1.5
  // c3
  %c3_p0 = sparse_array.constant sparse<[[0, 0, 0], [1, 0, 1], [1, 1, 0], [1, 1, 2], [2, 0, 0], [2, 1, 0]], [-2.0, -1.5, -1.0, -3.0, -3.0, -2.5]> : tensor<3x2x3xf64> : !sparse_array.array<3x2x3xf64, #sparse_array.format<[compressed(nonunique), singleton(nonunique), singleton], fill = -2.0 : f64>>
  %c3_p1 = sparse_array.constant sparse<[[0, 0, 1], [1, 0, 0], [2, 0, 0], [2, 0, 2]], [1.0, 1.5, 2.0, 1.5]> : tensor<3x1x3xf64> : !sparse_array.array<3x1x3xf64, #sparse_array.format<[compressed(nonunique), singleton(nonunique), singleton], fill = -2.0 : f64>>
  %c3_p2 = sparse_array.constant sparse<[[0, 1, 0], [1, 1, 0], [1, 1, 1], [1, 1, 2], [2, 0, 0], [2, 0, 1], [2, 0, 2], [2, 1, 1]], [-3.5, 0.5, 4.0, 3.5, 0.5, 1.5, 3.0, 1.5]> : tensor<3x2x3xf64> : !sparse_array.array<3x2x3xf64, #sparse_array.format<[compressed(nonunique), singleton(nonunique), singleton], fill = -2.0 : f64>>
  %c3 = sparse_array.concat %c3_p0, %c3_p1, %c3_p2 dim 1 : !sparse_array.array<3x2x3xf64, #sparse_array.format<[compressed(nonunique), singleton(nonunique), singleton], fill = -2.0 : f64>>, !sparse_array.array<3x1x3xf64, #sparse_array.format<[compressed(nonunique), singleton(nonunique), singleton], fill = -2.0 : f64>>, !sparse_array.array<3x2x3xf64, #sparse_array.format<[compressed(nonunique), singleton(nonunique), singleton], fill = -2.0 : f64>> -> !sparse_array.array<3x5x3xf64, #sparse_array.format<[compressed(nonunique), singleton(nonunique), singleton], fill = -2.0 : f64>>
  sparse_array.print %c3 : !sparse_array.array<3x5x3xf64, #sparse_array.format<[compressed(nonunique), singleton(nonunique), singleton], fill = -2.0 : f64>>

  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 6
  // CHECK-NEXT: 1 8
  // CHECK-NEXT: 1 1 1
  // CHECK-NEXT: 1 3 4.5
  // CHECK-NEXT: 1 5 3.5
  // CHECK-NEXT: 1 6 -2
  // CHECK-NEXT: 1 7 1
  // CHECK-NEXT: 1 8 -3.5
  // h1
  %h1_p0 = sparse_array.constant sparse<[[0, 0], [0, 2]], [1.0, 4.5]> : tensor<1x4xf64> : !sparse_array.array<1x4xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>
  %h1_p1 = sparse_array.constant sparse<[[0, 0], [0, 1], [0, 2], [0, 3]], [3.5, -2.0, 1.0, -3.5]> : tensor<1x4xf64> : !sparse_array.array<1x4xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>
  %h1 = sparse_array.concat %h1_p0, %h1_p1 dim 1 : !sparse_array.array<1x4xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>, !sparse_array.array<1x4xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>> -> !sparse_array.array<1x8xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>
  sparse_array.print %h1 : !sparse_array.array<1x8xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>
  // CSR parts with no rows into COO along the columns (CooRows.cpp): the
  // first row's start was read past the positions (bounds checks caught
  // it; moves.py seed 438).
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 0
  // CHECK-NEXT: 0 4
  %e0 = sparse_array.constant dense<0.0> : tensor<0x2xf64> : !sparse_array.array<0x2xf64, #sparse_array.format<[dense, compressed]>>
  %e = sparse_array.concat %e0, %e0 dim 1 : !sparse_array.array<0x2xf64, #sparse_array.format<[dense, compressed]>>, !sparse_array.array<0x2xf64, #sparse_array.format<[dense, compressed]>> -> !sparse_array.array<0x4xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
  sparse_array.print %e : !sparse_array.array<0x4xf64, #sparse_array.format<[compressed(nonunique), singleton]>>

  return
}
