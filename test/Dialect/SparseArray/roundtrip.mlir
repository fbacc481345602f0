// RUN: sa-opt %s | sa-opt --mlir-print-local-scope | FileCheck %s
// RUN: sa-opt %s --verify-roundtrip > /dev/null
// RUN: sa-opt %s | FileCheck %s --check-prefix=ALIAS
// Every form of the array type and the format attribute prints and parses
// back to the same thing. The checks read the formats inline
// (--mlir-print-local-scope); the ALIAS checks the readable alias names.

// ALIAS-DAG: #csr = #sparse_array.format<[dense, compressed], fill = 0.0 : f64>
// ALIAS-DAG: #csc = #sparse_array.format<[dense, compressed], order = [1, 0], fill = 0.0 : f64>
// ALIAS-DAG: #dcsr = #sparse_array.format<[compressed, compressed], fill = 0.0 : f64>
// ALIAS-DAG: #coo = #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>
// ALIAS-DAG: #csf = #sparse_array.format<[compressed, compressed, compressed], fill = 0.0 : f64>
// ALIAS-DAG: #sparse_vector = #sparse_array.format<[compressed], fill = 0.0 : f64>
// ALIAS-DAG: #bsr = #sparse_array.format<[dense, compressed, dense, dense], order = [0, 1, 0, 1], fill = 0.0 : f64, blocks = [2, 3]>
// ALIAS-DAG: #blocked = #sparse_array.format<[compressed, compressed, compressed, dense, dense], order = [0, 1, 2, 0, 2], fill = 0 : i32, blocks = [2, 1, 4]>
// ALIAS: func.func private @classic_layouts(!sparse_array.array<?x?xf64, #csr>, !sparse_array.array<?x?xf64, #csc>, !sparse_array.array<?x?xf64, #dcsr>, !sparse_array.array<?x?xf64, #coo>

// CHECK-LABEL: func.func private @shapes(
// CHECK-SAME: !sparse_array.array<f64>
// CHECK-SAME: !sparse_array.array<8xf64>
// CHECK-SAME: !sparse_array.array<?xf64>
// CHECK-SAME: !sparse_array.array<0x?x3xf64>
// CHECK-SAME: !sparse_array.array<0xf64>
func.func private @shapes(!sparse_array.array<f64>, !sparse_array.array<8xf64>,
                          !sparse_array.array<?xf64>,
                          !sparse_array.array<0x?x3xf64>,
                          !sparse_array.array<0xf64>)

// CHECK-LABEL: func.func private @element_types(
// CHECK-SAME: !sparse_array.array<4xi1>, !sparse_array.array<4xi8>, !sparse_array.array<4xi16>, !sparse_array.array<4xi32>, !sparse_array.array<4xi64>, !sparse_array.array<4xf16>, !sparse_array.array<4xbf16>, !sparse_array.array<4xf32>, !sparse_array.array<4xf64>)
func.func private @element_types(
    !sparse_array.array<4xi1>, !sparse_array.array<4xi8>,
    !sparse_array.array<4xi16>, !sparse_array.array<4xi32>,
    !sparse_array.array<4xi64>, !sparse_array.array<4xf16>,
    !sparse_array.array<4xbf16>, !sparse_array.array<4xf32>,
    !sparse_array.array<4xf64>)

// The default format (all dense, identity order, 64-bit widths, fill 0) is
// not printed, however it is spelled.
// CHECK-LABEL: func.func private @default_format_elided(
// CHECK-SAME: !sparse_array.array<2x3xf32>, !sparse_array.array<2x3xf32>, !sparse_array.array<2x3xi8>)
func.func private @default_format_elided(
    !sparse_array.array<2x3xf32, #sparse_array.format<[dense, dense]>>,
    !sparse_array.array<2x3xf32, #sparse_array.format<[dense, dense], order = [0, 1], pos_width = 64, crd_width = 64, fill = 0.0 : f32>>,
    !sparse_array.array<2x3xi8, #sparse_array.format<[dense, dense], fill = 0 : i8>>)

// CHECK-LABEL: func.func private @classic_layouts(
// CHECK-SAME: !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
// CHECK-SAME: !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], order = [1, 0], fill = 0.0 : f64>>
// CHECK-SAME: !sparse_array.array<?x?xf64, #sparse_array.format<[compressed, compressed], fill = 0.0 : f64>>
// CHECK-SAME: !sparse_array.array<?x?xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>
// CHECK-SAME: !sparse_array.array<?x?x?xf64, #sparse_array.format<[compressed(nonunique), singleton(nonunique), singleton], fill = 0.0 : f64>>
// CHECK-SAME: !sparse_array.array<?x?x?xf64, #sparse_array.format<[compressed, compressed, compressed], fill = 0.0 : f64>>
// CHECK-SAME: !sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>>
func.func private @classic_layouts(
    !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>,
    !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>,
    !sparse_array.array<?x?xf64, #sparse_array.format<[compressed, compressed]>>,
    !sparse_array.array<?x?xf64, #sparse_array.format<[compressed(nonunique), singleton]>>,
    !sparse_array.array<?x?x?xf64, #sparse_array.format<[compressed(nonunique), singleton(nonunique), singleton]>>,
    !sparse_array.array<?x?x?xf64, #sparse_array.format<[compressed, compressed, compressed]>>,
    !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>)

// Level properties in every combination a format allows; singleton below a
// unique compressed level is allowed (one entry per parent entry).
// CHECK-LABEL: func.func private @level_properties(
// CHECK-SAME: #sparse_array.format<[compressed(nonordered)], fill = 0.0 : f64>
// CHECK-SAME: #sparse_array.format<[compressed(nonunique, nonordered), singleton(nonordered)], fill = 0.0 : f64>
// CHECK-SAME: #sparse_array.format<[compressed(nonunique, nonordered), singleton(nonunique, nonordered), singleton], fill = 0.0 : f64>
// CHECK-SAME: #sparse_array.format<[dense, compressed, singleton], fill = 0.0 : f64>
func.func private @level_properties(
    !sparse_array.array<9xf64, #sparse_array.format<[compressed(nonordered)]>>,
    !sparse_array.array<9x9xf64, #sparse_array.format<[compressed(nonordered, nonunique), singleton(nonordered)]>>,
    !sparse_array.array<9x9x9xf64, #sparse_array.format<[compressed(nonunique, nonordered), singleton(nonunique, nonordered), singleton]>>,
    !sparse_array.array<9x9x9xf64, #sparse_array.format<[dense, compressed, singleton]>>)

// CHECK-LABEL: func.func private @orders_and_widths(
// CHECK-SAME: #sparse_array.format<[dense, compressed, compressed], order = [2, 0, 1], fill = 0.0 : f64>
// CHECK-SAME: #sparse_array.format<[dense, compressed], pos_width = 32, crd_width = 32, fill = 0.0 : f64>
// CHECK-SAME: #sparse_array.format<[dense, compressed], pos_width = 32, fill = 0.0 : f64>
// CHECK-SAME: #sparse_array.format<[dense, compressed], crd_width = 32, fill = 0.0 : f64>
// CHECK-SAME: #sparse_array.format<[dense, dense], order = [1, 0], fill = 0.0 : f64>
func.func private @orders_and_widths(
    !sparse_array.array<2x3x4xf64, #sparse_array.format<[dense, compressed, compressed], order = [2, 0, 1]>>,
    !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed], pos_width = 32, crd_width = 32>>,
    !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed], pos_width = 32>>,
    !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed], crd_width = 32>>,
    !sparse_array.array<4x4xf64, #sparse_array.format<[dense, dense], order = [1, 0]>>)

// Exactly 2^32 entries still fit 32-bit coordinates (0 .. 2^32-1).
// CHECK-LABEL: func.func private @crd_width_limit(
// CHECK-SAME: !sparse_array.array<4294967296xf64, #sparse_array.format<[compressed], crd_width = 32, fill = 0.0 : f64>>
func.func private @crd_width_limit(
    !sparse_array.array<4294967296xf64, #sparse_array.format<[compressed], crd_width = 32>>)

// Fill values: any value of the element type, spelled exactly.
// CHECK-LABEL: func.func private @fill_values(
// CHECK-SAME: fill = 1.0 : f64
// CHECK-SAME: fill = inf : f64
// CHECK-SAME: fill = -inf : f32
// CHECK-SAME: fill = nan : f64
// CHECK-SAME: fill = 0x7FF8000000000001 : f64
// CHECK-SAME: fill = -0.0 : f64
// CHECK-SAME: fill = 42.0 : f64
// CHECK-SAME: fill = 0.1 : f64
// CHECK-SAME: fill = inf : f16
// CHECK-SAME: fill = nan : bf16
// CHECK-SAME: fill = -9223372036854775808 : i64
// CHECK-SAME: fill = -1 : i8
// CHECK-SAME: fill = -128 : i8
// CHECK-SAME: fill = 1 : i1
// CHECK-SAME: fill = 42 : i32
// CHECK-SAME: fill = 65504.0 : f16
func.func private @fill_values(
    !sparse_array.array<4xf64, #sparse_array.format<[compressed], fill = 1.0 : f64>>,
    !sparse_array.array<4xf64, #sparse_array.format<[compressed], fill = inf : f64>>,
    !sparse_array.array<4xf32, #sparse_array.format<[compressed], fill = -inf : f32>>,
    !sparse_array.array<4xf64, #sparse_array.format<[compressed], fill = nan : f64>>,
    !sparse_array.array<4xf64, #sparse_array.format<[compressed], fill = 0x7FF8000000000001 : f64>>,
    !sparse_array.array<4xf64, #sparse_array.format<[compressed], fill = -0.0 : f64>>,
    !sparse_array.array<4xf64, #sparse_array.format<[compressed], fill = 4.2e1 : f64>>,
    !sparse_array.array<4xf64, #sparse_array.format<[compressed], fill = 0.1 : f64>>,
    !sparse_array.array<4xf16, #sparse_array.format<[compressed], fill = inf : f16>>,
    !sparse_array.array<4xbf16, #sparse_array.format<[compressed], fill = nan : bf16>>,
    !sparse_array.array<4xi64, #sparse_array.format<[compressed], fill = -9223372036854775808 : i64>>,
    !sparse_array.array<4xi8, #sparse_array.format<[compressed], fill = 255 : i8>>,
    !sparse_array.array<4xi8, #sparse_array.format<[compressed], fill = -128 : i8>>,
    !sparse_array.array<4xi1, #sparse_array.format<[compressed], fill = true>>,
    !sparse_array.array<4xi32, #sparse_array.format<[compressed], fill = 42 : i32>>,
    !sparse_array.array<4xf16, #sparse_array.format<[compressed], fill = 65504.0 : f16>>)

// A dense array may have a non-zero fill (it matters once the array is
// converted to a sparse format); it is printed since it differs from the
// default. A format without a fill and one with fill zero are the same type.
// CHECK-LABEL: func.func private @fill_normalization(
// CHECK-SAME: !sparse_array.array<3xf64, #sparse_array.format<[dense], fill = 1.0 : f64>>
// CHECK-SAME: !sparse_array.array<3xi32, #sparse_array.format<[compressed], fill = 0 : i32>>,
// CHECK-SAME: !sparse_array.array<3xi32, #sparse_array.format<[compressed], fill = 0 : i32>>)
func.func private @fill_normalization(
    !sparse_array.array<3xf64, #sparse_array.format<[dense], fill = 1.0 : f64>>,
    !sparse_array.array<3xi32, #sparse_array.format<[compressed]>>,
    !sparse_array.array<3xi32, #sparse_array.format<[compressed], fill = 0 : i32>>)

// Arrays flow through ordinary SSA and control flow.
// CHECK-LABEL: func.func @select_array(
// CHECK-SAME: %[[C:.*]]: i1, %[[A:.*]]: !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>, %[[B:.*]]: !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>)
// CHECK: %[[R:.*]] = arith.select %[[C]], %[[A]], %[[B]]
// CHECK: return %[[R]]
func.func @select_array(%c: i1,
    %a: !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>,
    %b: !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>)
    -> !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>> {
  %r = arith.select %c, %a, %b : !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
  return %r : !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
}

// The parallel plan: both modes print as parsed.
// CHECK-LABEL: func.func private @parallel_plans()
// CHECK-SAME: b = #sparse_array.parallel<"outer", min_extent = 256, balance = 1, two_phase>
// CHECK-SAME: p = #sparse_array.parallel<"outer", min_extent = 256>
// CHECK-SAME: pc = #sparse_array.parallel<"outer", min_extent = 256, balance = 0, parts, chained>
// CHECK-SAME: pp = #sparse_array.parallel<"outer", min_extent = 256, balance = 0, parts>
// CHECK-SAME: q = #sparse_array.parallel<"none", reason = "sparse result">
// CHECK-SAME: r = #sparse_array.parallel<"ranges", min_extent = 256, balance = 0, parts>
// CHECK-SAME: w = #sparse_array.parallel<"ranges", min_extent = 256, min_work = 131072, balance = 0, parts>
func.func private @parallel_plans() attributes {b = #sparse_array.parallel<"outer", min_extent = 256, balance = 1, two_phase>, p = #sparse_array.parallel<"outer", min_extent = 256>, pc = #sparse_array.parallel<"outer", min_extent = 256, balance = 0, parts, chained>, pp = #sparse_array.parallel<"outer", min_extent = 256, balance = 0, parts>, q = #sparse_array.parallel<"none", reason = "sparse result">, r = #sparse_array.parallel<"ranges", min_extent = 256, balance = 0, parts>, w = #sparse_array.parallel<"ranges", min_extent = 256, min_work = 131072, balance = 0, parts>}

// Blocks (BCSR): a blocked dimension at two levels, block then place in the
// block; a dimension of block size 1 at one level; any order of levels.
// CHECK-LABEL: func.func private @blocks(
// CHECK-SAME: !sparse_array.array<4x9xf64, #sparse_array.format<[dense, compressed, dense, dense], order = [0, 1, 0, 1], fill = 0.0 : f64, blocks = [2, 3]>>
// CHECK-SAME: !sparse_array.array<?x5x8xi32, #sparse_array.format<[compressed, compressed, compressed, dense, dense], order = [0, 1, 2, 0, 2], fill = 0 : i32, blocks = [2, 1, 4]>>
// CHECK-SAME: !sparse_array.array<?x?xf32, #sparse_array.format<[dense, compressed, dense, dense], order = [1, 0, 1, 0], pos_width = 32, crd_width = 32, fill = 1.0 : f32, blocks = [4, 4]>>
func.func private @blocks(
    !sparse_array.array<4x9xf64, #sparse_array.format<[dense, compressed, dense, dense], order = [0, 1, 0, 1], blocks = [2, 3]>>,
    !sparse_array.array<?x5x8xi32, #sparse_array.format<[compressed, compressed, compressed, dense, dense], order = [0, 1, 2, 0, 2], blocks = [2, 1, 4]>>,
    !sparse_array.array<?x?xf32, #sparse_array.format<[dense, compressed, dense, dense], order = [1, 0, 1, 0], blocks = [4, 4], pos_width = 32, crd_width = 32, fill = 1.0 : f32>>)
