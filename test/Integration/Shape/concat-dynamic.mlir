// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks -O0 %s | FileCheck %s
// RUN: sa-run --num-threads=2 --parallel-min-work=1 %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-free-temporaries --sparse-array-derive-algebra --sparse-array-build-lattices --sparse-array-lower-shape | FileCheck %s --check-prefix=LOWER
// Concatenation along a dimension whose sizes are known only at run time
// (numpy.concatenate of arrays of any length): no window offsets to
// compile, so not fused; inputs stored like the result move their stored
// ranges with offsets summed at run time (MoveRanges.cpp, MergedConcat.cpp,
// CooRows.cpp); where the result's storage moves ranges, a part stored
// otherwise (another fill, format or order) is first a kernel storing it
// like the result (StoreDynamicConcatParts); else the runtime (Concat.cpp). Inputs store explicit fills, NaN and -0.0. Expected entries:
// numpy.concatenate on the constants' dense meaning (generated; printing
// lists entries that differ from the fill bitwise).

// The ranges are moved: no concat and no kernel left.
// LOWER-LABEL: func.func @vstack_csr(
// LOWER-NOT: sparse_array.concat
// LOWER-NOT: sparse_array.kernel
// LOWER: return
// LOWER-LABEL: func.func @hstack_coo(
// LOWER-NOT: sparse_array.concat
// LOWER: return
// A kernel stores the part with fill 1 with fill 0, then the ranges move.
// LOWER-LABEL: func.func @other_fill(
// LOWER: sparse_array.kernel
// LOWER-NOT: sparse_array.concat
// LOWER: sparse_array.dealloc
// LOWER: return
// A kernel stores the CSC part as CSR, then the ranges move.
// LOWER-LABEL: func.func @other_format(
// LOWER: sparse_array.kernel
// LOWER-NOT: sparse_array.concat
// LOWER: sparse_array.dealloc
// LOWER: return

// moved ranges (one parent)
func.func @vstack_csr(%b: !sparse_array.array<?x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>, %c: !sparse_array.array<?x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>) -> !sparse_array.array<?x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>> {
  %r = sparse_array.concat %b, %c dim 0 : !sparse_array.array<?x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>, !sparse_array.array<?x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>> -> !sparse_array.array<?x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
  return %r : !sparse_array.array<?x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
}

// moved ranges per row, an empty part
func.func @hstack_csr(%a: !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>, %e: !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>, %b: !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>) -> !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>> {
  %r = sparse_array.concat %a, %e, %b dim 1 : !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>, !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>, !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>> -> !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
  return %r : !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
}

// COO rows merged, each part's run copied
func.func @hstack_coo(%ao: !sparse_array.array<3x?xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>, %bo: !sparse_array.array<3x?xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>) -> !sparse_array.array<3x?xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>> {
  %r = sparse_array.concat %ao, %bo dim 1 : !sparse_array.array<3x?xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>, !sparse_array.array<3x?xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>> -> !sparse_array.array<3x?xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>
  return %r : !sparse_array.array<3x?xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>
}

// COO parts into CSR rows
func.func @vstack_coo_csr(%bo: !sparse_array.array<?x3xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>, %co: !sparse_array.array<?x3xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>) -> !sparse_array.array<?x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>> {
  %r = sparse_array.concat %bo, %co dim 0 : !sparse_array.array<?x3xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>, !sparse_array.array<?x3xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>> -> !sparse_array.array<?x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
  return %r : !sparse_array.array<?x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
}

// CSR parts into COO
func.func @hstack_csr_coo(%a: !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>, %b: !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>) -> !sparse_array.array<3x?xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>> {
  %r = sparse_array.concat %a, %b dim 1 : !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>, !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>> -> !sparse_array.array<3x?xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>
  return %r : !sparse_array.array<3x?xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>
}

// a part with fill 1: every point of its range
func.func @other_fill(%a: !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>, %b1: !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>>) -> !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>> {
  %r = sparse_array.concat %a, %b1 dim 1 : !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>, !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>> -> !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
  return %r : !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
}

// a CSC part: stored as CSR first
func.func @other_format(%a: !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>, %bc: !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], order = [1, 0], fill = 0.0 : f64>>) -> !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>> {
  %r = sparse_array.concat %a, %bc dim 1 : !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>, !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], order = [1, 0], fill = 0.0 : f64>> -> !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
  return %r : !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
}

// compressed vectors, one of size 0
func.func @vectors(%u: !sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>>, %v: !sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>>, %w: !sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>>) -> !sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>> {
  %r = sparse_array.concat %u, %v, %w dim 0 : !sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>>, !sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>>, !sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>> -> !sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>>
  return %r : !sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>>
}

// dense parts, fill 42
func.func @dense_rows(%d1: !sparse_array.array<?x3xf64, #sparse_array.format<[dense, dense], fill = 42.0 : f64>>, %d2: !sparse_array.array<?x3xf64, #sparse_array.format<[dense, dense], fill = 42.0 : f64>>) -> !sparse_array.array<?x3xf64, #sparse_array.format<[dense, dense], fill = 42.0 : f64>> {
  %r = sparse_array.concat %d1, %d2 dim 0 : !sparse_array.array<?x3xf64, #sparse_array.format<[dense, dense], fill = 42.0 : f64>>, !sparse_array.array<?x3xf64, #sparse_array.format<[dense, dense], fill = 42.0 : f64>> -> !sparse_array.array<?x3xf64, #sparse_array.format<[dense, dense], fill = 42.0 : f64>>
  return %r : !sparse_array.array<?x3xf64, #sparse_array.format<[dense, dense], fill = 42.0 : f64>>
}

// a result with fill -0.0 (the parts' +0.0 are values)
func.func @negzero(%a: !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>, %b: !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>) -> !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = -0.0 : f64>> {
  %r = sparse_array.concat %a, %b dim 1 : !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>, !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>> -> !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = -0.0 : f64>>
  return %r : !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = -0.0 : f64>>
}

// Parts the runtime used to take, now each a kernel storing the part with
// the result's levels and fill, whose ranges then move: a COO part with
// fill NaN, sparse parts of a dense result, a computed part with fill 2
// (the map fused into that kernel).
// LOWER-LABEL: func.func @other_fill_coo(
// LOWER: sparse_array.kernel
// LOWER-NOT: sparse_array.concat
// LOWER: sparse_array.dealloc
// LOWER: return
// LOWER-LABEL: func.func @into_dense(
// LOWER: sparse_array.kernel
// LOWER: sparse_array.kernel
// LOWER-NOT: sparse_array.concat
// LOWER: return
// LOWER-LABEL: func.func @computed_part(
// LOWER: sparse_array.kernel
// LOWER-NOT: sparse_array.kernel
// LOWER-NOT: sparse_array.concat
// LOWER: return
!csr3 = !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
!csr3one = !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>>
!csr3two = !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 2.0 : f64>>
!coo3 = !sparse_array.array<3x?xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>
!coo3nan = !sparse_array.array<3x?xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0x7FF8000000000000 : f64>>
!dense3 = !sparse_array.array<3x?xf64>
func.func @other_fill_coo(%ao: !coo3, %bn: !coo3nan) -> !coo3 {
  %r = sparse_array.concat %ao, %bn dim 1 : !coo3, !coo3nan -> !coo3
  return %r : !coo3
}
func.func @into_dense(%a: !csr3, %b1: !csr3one) -> !dense3 {
  %r = sparse_array.concat %a, %b1 dim 1 : !csr3, !csr3one -> !dense3
  return %r : !dense3
}
func.func @computed_part(%a: !csr3, %b1: !csr3one) -> !csr3 {
  %s = sparse_array.map @add(%b1, %b1) : (!csr3one, !csr3one) -> !csr3two
  %r = sparse_array.concat %a, %s dim 1 : !csr3, !csr3two -> !csr3
  return %r : !csr3
}

// Compressed rows over dense columns move no ranges along the columns (a
// part may lack a row the other stores): the runtime's, the concatenation
// stays for sparse-array-lower-storage.
// LOWER-LABEL: func.func @compressed_dense(
// LOWER-NOT: sparse_array.kernel
// LOWER: sparse_array.concat
// LOWER: return
!cd3 = !sparse_array.array<3x?xf64, #sparse_array.format<[compressed, dense], fill = 0.0 : f64>>
func.func @compressed_dense(%a: !cd3, %b: !cd3) -> !cd3 {
  %r = sparse_array.concat %a, %b dim 1 : !cd3, !cd3 -> !cd3
  return %r : !cd3
}

// A consumer reads the concatenation (not fused: an array between them,
// freed after the kernel).
// LOWER-LABEL: func.func @sum(
// LOWER: %[[K:.*]] = sparse_array.kernel
// LOWER: sparse_array.dealloc
// LOWER-NEXT: return %[[K]]
sparse_array.func @add(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
!csr = !sparse_array.array<?x3xf64, #sparse_array.format<[dense, compressed]>>
!csr5 = !sparse_array.array<5x3xf64, #sparse_array.format<[dense, compressed]>>
func.func @sum(%b: !csr, %c: !csr, %x: !csr5) -> !csr5 {
  %v = sparse_array.concat %b, %c dim 0 : !csr, !csr -> !csr
  %s = sparse_array.map @add(%v, %x) : (!csr, !csr5) -> !csr5
  return %s : !csr5
}

func.func @main() {
  %a = sparse_array.constant sparse<[[0, 1], [1, 0], [2, 0], [2, 1]], [1.5, -0.0, 0.0, 0x7FF8000000000000]> : tensor<3x2xf64> : !sparse_array.array<3x2xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
  %ao = sparse_array.constant sparse<[[0, 1], [1, 0], [2, 1]], [1.5, -0.0, 0x7FF8000000000000]> : tensor<3x2xf64> : !sparse_array.array<3x2xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>
  %b = sparse_array.constant sparse<[[0, 0], [0, 2], [2, 2]], [2.0, -1.0, 4.0]> : tensor<3x3xf64> : !sparse_array.array<3x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
  %b1 = sparse_array.constant sparse<[[0, 0], [1, 1], [2, 2]], [0.0, 1.0, 0x7FF8000000000000]> : tensor<3x3xf64> : !sparse_array.array<3x3xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>>
  %bc = sparse_array.constant sparse<[[0, 2], [1, 0], [2, 1]], [3.0, 5.0, -0.0]> : tensor<3x3xf64> : !sparse_array.array<3x3xf64, #sparse_array.format<[dense, compressed], order = [1, 0], fill = 0.0 : f64>>
  %bo = sparse_array.constant sparse<[[0, 0], [2, 1], [2, 2]], [2.0, 6.0, 4.0]> : tensor<3x3xf64> : !sparse_array.array<3x3xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>
  %c = sparse_array.constant sparse<[[0, 1], [1, 0]], [7.0, -2.5]> : tensor<2x3xf64> : !sparse_array.array<2x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
  %co = sparse_array.constant sparse<[[0, 1], [1, 0], [1, 2]], [7.0, -2.5, 0.0]> : tensor<2x3xf64> : !sparse_array.array<2x3xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>
  %d1 = sparse_array.constant sparse<[[0, 0], [1, 2]], [1.0, 42.0]> : tensor<2x3xf64> : !sparse_array.array<2x3xf64, #sparse_array.format<[dense, dense], fill = 42.0 : f64>>
  %d2 = sparse_array.constant sparse<[[0, 1]], [0.0]> : tensor<1x3xf64> : !sparse_array.array<1x3xf64, #sparse_array.format<[dense, dense], fill = 42.0 : f64>>
  %e = sparse_array.constant dense<[[], [], []]> : tensor<3x0xf64> : !sparse_array.array<3x0xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
  %u = sparse_array.constant sparse<[[1], [3]], [3.0, -0.0]> : tensor<4xf64> : !sparse_array.array<4xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>>
  %v = sparse_array.constant dense<[]> : tensor<0xf64> : !sparse_array.array<0xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>>
  %w = sparse_array.constant sparse<[[0], [2]], [8.0, 0.0]> : tensor<3xf64> : !sparse_array.array<3xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>>
  %a_dyn1 = sparse_array.convert %a : !sparse_array.array<3x2xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>> to !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
  %ao_dyn1 = sparse_array.convert %ao : !sparse_array.array<3x2xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>> to !sparse_array.array<3x?xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>
  %b_dyn0 = sparse_array.convert %b : !sparse_array.array<3x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>> to !sparse_array.array<?x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
  %b_dyn1 = sparse_array.convert %b : !sparse_array.array<3x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>> to !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
  %b1_dyn1 = sparse_array.convert %b1 : !sparse_array.array<3x3xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>> to !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>>
  %bc_dyn1 = sparse_array.convert %bc : !sparse_array.array<3x3xf64, #sparse_array.format<[dense, compressed], order = [1, 0], fill = 0.0 : f64>> to !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], order = [1, 0], fill = 0.0 : f64>>
  %bo_dyn0 = sparse_array.convert %bo : !sparse_array.array<3x3xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>> to !sparse_array.array<?x3xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>
  %bo_dyn1 = sparse_array.convert %bo : !sparse_array.array<3x3xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>> to !sparse_array.array<3x?xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>
  %c_dyn0 = sparse_array.convert %c : !sparse_array.array<2x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>> to !sparse_array.array<?x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
  %co_dyn0 = sparse_array.convert %co : !sparse_array.array<2x3xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>> to !sparse_array.array<?x3xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>
  %d1_dyn0 = sparse_array.convert %d1 : !sparse_array.array<2x3xf64, #sparse_array.format<[dense, dense], fill = 42.0 : f64>> to !sparse_array.array<?x3xf64, #sparse_array.format<[dense, dense], fill = 42.0 : f64>>
  %d2_dyn0 = sparse_array.convert %d2 : !sparse_array.array<1x3xf64, #sparse_array.format<[dense, dense], fill = 42.0 : f64>> to !sparse_array.array<?x3xf64, #sparse_array.format<[dense, dense], fill = 42.0 : f64>>
  %e_dyn1 = sparse_array.convert %e : !sparse_array.array<3x0xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>> to !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
  %u_dyn0 = sparse_array.convert %u : !sparse_array.array<4xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>> to !sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>>
  %v_dyn0 = sparse_array.convert %v : !sparse_array.array<0xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>> to !sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>>
  %w_dyn0 = sparse_array.convert %w : !sparse_array.array<3xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>> to !sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>>

  %vstack_csr = func.call @vstack_csr(%b_dyn0, %c_dyn0) : (!sparse_array.array<?x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>, !sparse_array.array<?x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>) -> !sparse_array.array<?x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
  sparse_array.print %vstack_csr : !sparse_array.array<?x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 5
  // CHECK-NEXT: 5 3
  // CHECK-NEXT: 1 1 2
  // CHECK-NEXT: 1 3 -1
  // CHECK-NEXT: 3 3 4
  // CHECK-NEXT: 4 2 7
  // CHECK-NEXT: 5 1 -2.5
  sparse_array.dealloc %vstack_csr : !sparse_array.array<?x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>

  %hstack_csr = func.call @hstack_csr(%a_dyn1, %e_dyn1, %b_dyn1) : (!sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>, !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>, !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>) -> !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
  sparse_array.print %hstack_csr : !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 6
  // CHECK-NEXT: 3 5
  // CHECK-NEXT: 1 2 1.5
  // CHECK-NEXT: 1 3 2
  // CHECK-NEXT: 1 5 -1
  // CHECK-NEXT: 2 1 -0
  // CHECK-NEXT: 3 2 nan
  // CHECK-NEXT: 3 5 4
  sparse_array.dealloc %hstack_csr : !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>

  %hstack_coo = func.call @hstack_coo(%ao_dyn1, %bo_dyn1) : (!sparse_array.array<3x?xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>, !sparse_array.array<3x?xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>) -> !sparse_array.array<3x?xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>
  sparse_array.print %hstack_coo : !sparse_array.array<3x?xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 6
  // CHECK-NEXT: 3 5
  // CHECK-NEXT: 1 2 1.5
  // CHECK-NEXT: 1 3 2
  // CHECK-NEXT: 2 1 -0
  // CHECK-NEXT: 3 2 nan
  // CHECK-NEXT: 3 4 6
  // CHECK-NEXT: 3 5 4
  sparse_array.dealloc %hstack_coo : !sparse_array.array<3x?xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>

  %vstack_coo_csr = func.call @vstack_coo_csr(%bo_dyn0, %co_dyn0) : (!sparse_array.array<?x3xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>, !sparse_array.array<?x3xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>) -> !sparse_array.array<?x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
  sparse_array.print %vstack_coo_csr : !sparse_array.array<?x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 5
  // CHECK-NEXT: 5 3
  // CHECK-NEXT: 1 1 2
  // CHECK-NEXT: 3 2 6
  // CHECK-NEXT: 3 3 4
  // CHECK-NEXT: 4 2 7
  // CHECK-NEXT: 5 1 -2.5
  sparse_array.dealloc %vstack_coo_csr : !sparse_array.array<?x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>

  %hstack_csr_coo = func.call @hstack_csr_coo(%a_dyn1, %b_dyn1) : (!sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>, !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>) -> !sparse_array.array<3x?xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>
  sparse_array.print %hstack_csr_coo : !sparse_array.array<3x?xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 6
  // CHECK-NEXT: 3 5
  // CHECK-NEXT: 1 2 1.5
  // CHECK-NEXT: 1 3 2
  // CHECK-NEXT: 1 5 -1
  // CHECK-NEXT: 2 1 -0
  // CHECK-NEXT: 3 2 nan
  // CHECK-NEXT: 3 5 4
  sparse_array.dealloc %hstack_csr_coo : !sparse_array.array<3x?xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0.0 : f64>>

  %other_fill = func.call @other_fill(%a_dyn1, %b1_dyn1) : (!sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>, !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>>) -> !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
  sparse_array.print %other_fill : !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 11
  // CHECK-NEXT: 3 5
  // CHECK-NEXT: 1 2 1.5
  // CHECK-NEXT: 1 4 1
  // CHECK-NEXT: 1 5 1
  // CHECK-NEXT: 2 1 -0
  // CHECK-NEXT: 2 3 1
  // CHECK-NEXT: 2 4 1
  // CHECK-NEXT: 2 5 1
  // CHECK-NEXT: 3 2 nan
  // CHECK-NEXT: 3 3 1
  // CHECK-NEXT: 3 4 1
  // CHECK-NEXT: 3 5 nan
  sparse_array.dealloc %other_fill : !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>

  %other_format = func.call @other_format(%a_dyn1, %bc_dyn1) : (!sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>, !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], order = [1, 0], fill = 0.0 : f64>>) -> !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
  sparse_array.print %other_format : !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 6
  // CHECK-NEXT: 3 5
  // CHECK-NEXT: 1 2 1.5
  // CHECK-NEXT: 1 5 3
  // CHECK-NEXT: 2 1 -0
  // CHECK-NEXT: 2 3 5
  // CHECK-NEXT: 3 2 nan
  // CHECK-NEXT: 3 4 -0
  sparse_array.dealloc %other_format : !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>

  %vectors = func.call @vectors(%u_dyn0, %v_dyn0, %w_dyn0) : (!sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>>, !sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>>, !sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>>) -> !sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>>
  sparse_array.print %vectors : !sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>>
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 3
  // CHECK-NEXT: 7
  // CHECK-NEXT: 2 3
  // CHECK-NEXT: 4 -0
  // CHECK-NEXT: 5 8
  sparse_array.dealloc %vectors : !sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>>

  %dense_rows = func.call @dense_rows(%d1_dyn0, %d2_dyn0) : (!sparse_array.array<?x3xf64, #sparse_array.format<[dense, dense], fill = 42.0 : f64>>, !sparse_array.array<?x3xf64, #sparse_array.format<[dense, dense], fill = 42.0 : f64>>) -> !sparse_array.array<?x3xf64, #sparse_array.format<[dense, dense], fill = 42.0 : f64>>
  sparse_array.print %dense_rows : !sparse_array.array<?x3xf64, #sparse_array.format<[dense, dense], fill = 42.0 : f64>>
  // CHECK:      # fill: 42
  // CHECK-NEXT: 2 2
  // CHECK-NEXT: 3 3
  // CHECK-NEXT: 1 1 1
  // CHECK-NEXT: 3 2 0
  sparse_array.dealloc %dense_rows : !sparse_array.array<?x3xf64, #sparse_array.format<[dense, dense], fill = 42.0 : f64>>

  %negzero = func.call @negzero(%a_dyn1, %b_dyn1) : (!sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>, !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>) -> !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = -0.0 : f64>>
  sparse_array.print %negzero : !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = -0.0 : f64>>
  // CHECK:      # fill: -0
  // CHECK-NEXT: 2 14
  // CHECK-NEXT: 3 5
  // CHECK-NEXT: 1 1 0
  // CHECK-NEXT: 1 2 1.5
  // CHECK-NEXT: 1 3 2
  // CHECK-NEXT: 1 4 0
  // CHECK-NEXT: 1 5 -1
  // CHECK-NEXT: 2 2 0
  // CHECK-NEXT: 2 3 0
  // CHECK-NEXT: 2 4 0
  // CHECK-NEXT: 2 5 0
  // CHECK-NEXT: 3 1 0
  // CHECK-NEXT: 3 2 nan
  // CHECK-NEXT: 3 3 0
  // CHECK-NEXT: 3 4 0
  // CHECK-NEXT: 3 5 4
  sparse_array.dealloc %negzero : !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed], fill = -0.0 : f64>>
  %x = sparse_array.constant dense<[[1.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, -4.0], [0.0, 0.5, 0.0], [0.0, 0.0, 0.0]]> : tensor<5x3xf64> : !csr5
  %sum = func.call @sum(%b_dyn0, %c_dyn0, %x) : (!csr, !csr, !csr5) -> !csr5
  sparse_array.print %sum : !csr5
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 4
  // CHECK-NEXT: 5 3
  // CHECK-NEXT: 1 1 3
  // CHECK-NEXT: 1 3 -1
  // CHECK-NEXT: 4 2 7.5
  // CHECK-NEXT: 5 1 -2.5
  %bn = sparse_array.constant sparse<[[0, 1], [1, 1], [2, 0], [2, 2]], [2.0, 0.0, -0.0, 0x7FF8000000000000]> : tensor<3x3xf64> : !sparse_array.array<3x3xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0x7FF8000000000000 : f64>>
  %bn_dyn1 = sparse_array.convert %bn : !sparse_array.array<3x3xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = 0x7FF8000000000000 : f64>> to !coo3nan
  %other_fill_coo = func.call @other_fill_coo(%ao_dyn1, %bn_dyn1) : (!coo3, !coo3nan) -> !coo3
  sparse_array.print %other_fill_coo : !coo3
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 11
  // CHECK-NEXT: 3 5
  // CHECK-NEXT: 1 2 1.5
  // CHECK-NEXT: 1 3 nan
  // CHECK-NEXT: 1 4 2
  // CHECK-NEXT: 1 5 nan
  // CHECK-NEXT: 2 1 -0
  // CHECK-NEXT: 2 3 nan
  // CHECK-NEXT: 2 5 nan
  // CHECK-NEXT: 3 2 nan
  // CHECK-NEXT: 3 3 -0
  // CHECK-NEXT: 3 4 nan
  // CHECK-NEXT: 3 5 nan
  sparse_array.dealloc %other_fill_coo : !coo3
  %into_dense = func.call @into_dense(%a_dyn1, %b1_dyn1) : (!csr3, !csr3one) -> !dense3
  sparse_array.print %into_dense : !dense3
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 11
  // CHECK-NEXT: 3 5
  // CHECK-NEXT: 1 2 1.5
  // CHECK-NEXT: 1 4 1
  // CHECK-NEXT: 1 5 1
  // CHECK-NEXT: 2 1 -0
  // CHECK-NEXT: 2 3 1
  // CHECK-NEXT: 2 4 1
  // CHECK-NEXT: 2 5 1
  // CHECK-NEXT: 3 2 nan
  // CHECK-NEXT: 3 3 1
  // CHECK-NEXT: 3 4 1
  // CHECK-NEXT: 3 5 nan
  sparse_array.dealloc %into_dense : !dense3
  %computed_part = func.call @computed_part(%a_dyn1, %b1_dyn1) : (!csr3, !csr3one) -> !csr3
  sparse_array.print %computed_part : !csr3
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 11
  // CHECK-NEXT: 3 5
  // CHECK-NEXT: 1 2 1.5
  // CHECK-NEXT: 1 4 2
  // CHECK-NEXT: 1 5 2
  // CHECK-NEXT: 2 1 -0
  // CHECK-NEXT: 2 3 2
  // CHECK-NEXT: 2 4 2
  // CHECK-NEXT: 2 5 2
  // CHECK-NEXT: 3 2 nan
  // CHECK-NEXT: 3 3 2
  // CHECK-NEXT: 3 4 2
  // CHECK-NEXT: 3 5 nan
  sparse_array.dealloc %computed_part : !csr3
  %a_cd = sparse_array.convert %a : !sparse_array.array<3x2xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>> to !cd3
  %b_cd = sparse_array.convert %b : !sparse_array.array<3x3xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>> to !cd3
  %compressed_dense = func.call @compressed_dense(%a_cd, %b_cd) : (!cd3, !cd3) -> !cd3
  sparse_array.print %compressed_dense : !cd3
  // numpy: the same entries as hstack_csr's
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 6
  // CHECK-NEXT: 3 5
  // CHECK-NEXT: 1 2 1.5
  // CHECK-NEXT: 1 3 2
  // CHECK-NEXT: 1 5 -1
  // CHECK-NEXT: 2 1 -0
  // CHECK-NEXT: 3 2 nan
  // CHECK-NEXT: 3 5 4
  sparse_array.dealloc %compressed_dense : !cd3
  return
}
