// RUN: sa-run %s -- %t.txt %t.mtx | FileCheck %s
// RUN: FileCheck --check-prefix=FILE %s < %t.txt
// RUN: FileCheck --check-prefix=MTX %s < %t.mtx
// Constants, conversions, fill changes with NaN / -0.0 / inf, dimension
// queries, and write-then-read round trips, executed.

!dense = !sparse_array.array<2x3xf64>
!csr_nan = !sparse_array.array<2x3xf64, #sparse_array.format<[dense, compressed], fill = nan : f64>>
!dcsc_nan = !sparse_array.array<?x?xf64, #sparse_array.format<[compressed, compressed], order = [1, 0], fill = nan : f64>>
!coo_negzero = !sparse_array.array<?x?xf64, #sparse_array.format<[compressed(nonunique), singleton], fill = -0.0 : f64>>
!csr = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
!ivec = !sparse_array.array<5xi8, #sparse_array.format<[compressed], fill = -1 : i8>>
!ivec_dense = !sparse_array.array<5xi8>

func.func @main() {
  // Entries equal to the fill, bit for bit, are implicit: the NaN of the
  // fill's bits is; NaNs of another payload or sign are values (they print
  // as -nan or as their bits).
  // CHECK:      # fill: nan
  // CHECK-NEXT: 2 5
  // CHECK-NEXT: 2 3
  // CHECK-NEXT: 1 1 0
  // CHECK-NEXT: 1 2 -0
  // CHECK-NEXT: 2 1 0x7FF8000000000001
  // CHECK-NEXT: 2 2 inf
  // CHECK-NEXT: 2 3 -nan
  %a = sparse_array.constant dense<[[0.0, -0.0, 0x7FF8000000000000], [0x7FF8000000000001, 0x7FF0000000000000, 0xFFF8000000000000]]> : tensor<2x3xf64> : !csr_nan
  sparse_array.print %a : !csr_nan

  // The same array, column-major and doubly compressed: same text.
  // CHECK:      # fill: nan
  // CHECK-NEXT: 2 5
  // CHECK-NEXT: 2 3
  // CHECK-NEXT: 1 1 0
  // CHECK-NEXT: 1 2 -0
  // CHECK-NEXT: 2 1 0x7FF8000000000001
  // CHECK-NEXT: 2 2 inf
  // CHECK-NEXT: 2 3 -nan
  %b = sparse_array.convert %a : !csr_nan to !dcsc_nan
  sparse_array.print %b : !dcsc_nan

  // Fill -0.0: the NaNs become explicit; 0.0 is not -0.0 and stays stored;
  // the stored -0.0 becomes implicit.
  // CHECK:      # fill: -0
  // CHECK-NEXT: 2 5
  // CHECK-NEXT: 2 3
  // CHECK-NEXT: 1 1 0
  // CHECK-NEXT: 1 3 nan
  // CHECK-NEXT: 2 1 0x7FF8000000000001
  // CHECK-NEXT: 2 2 inf
  // CHECK-NEXT: 2 3 -nan
  %c = sparse_array.change_fill %b : !dcsc_nan to !coo_negzero
  sparse_array.print %c : !coo_negzero

  // Dimension sizes of a dynamically shaped array come from its value.
  // CHECK:      2
  // CHECK-NEXT: 3
  %d0 = sparse_array.dim %c[0] : !coo_negzero
  %d1 = sparse_array.dim %c[1] : !coo_negzero
  %i0 = arith.index_cast %d0 : index to i64
  %i1 = arith.index_cast %d1 : index to i64
  call @sa_rt_print_i64(%i0) : (i64) -> ()
  call @sa_rt_print_newline() : () -> ()
  call @sa_rt_print_i64(%i1) : (i64) -> ()
  call @sa_rt_print_newline() : () -> ()

  // Integer fill -1 and a dense staging constant.
  // CHECK:      # fill: -1
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 5
  // CHECK-NEXT: 2 0
  // CHECK-NEXT: 5 127
  %v = sparse_array.constant dense<[-1, 0, -1, -1, 127]> : tensor<5xi8> : !ivec
  sparse_array.print %v : !ivec
  // Changing the fill to 0 makes the -1 entries explicit.
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 4
  // CHECK-NEXT: 5
  // CHECK-NEXT: 1 -1
  // CHECK-NEXT: 3 -1
  // CHECK-NEXT: 4 -1
  // CHECK-NEXT: 5 127
  %w = sparse_array.change_fill %v : !ivec to !ivec_dense
  sparse_array.print %w : !ivec_dense

  // Booleans print as 0/1; with fill true the false entries are stored.
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 4
  // CHECK-NEXT: 1 1
  // CHECK-NEXT: 3 1
  // CHECK:      # fill: 1
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 4
  // CHECK-NEXT: 2 0
  // CHECK-NEXT: 4 0
  %bits = sparse_array.constant dense<[true, false, true, false]> : tensor<4xi1> : !sparse_array.array<4xi1, #sparse_array.format<[compressed]>>
  sparse_array.print %bits : !sparse_array.array<4xi1, #sparse_array.format<[compressed]>>
  %ones = sparse_array.change_fill %bits : !sparse_array.array<4xi1, #sparse_array.format<[compressed]>> to !sparse_array.array<4xi1, #sparse_array.format<[compressed], fill = 1 : i1>>
  sparse_array.print %ones : !sparse_array.array<4xi1, #sparse_array.format<[compressed], fill = 1 : i1>>

  // Write the NaN-fill array in the text format (input 0) and read it back
  // with the same fill: every NaN reads back to its bits.
  %c0 = arith.constant 0 : index
  sparse_array.write %a to input %c0 : !csr_nan
  %r = sparse_array.read input %c0 : !dcsc_nan
  // CHECK:      # fill: nan
  // CHECK-NEXT: 2 5
  // CHECK-NEXT: 2 3
  // CHECK-NEXT: 1 1 0
  // CHECK-NEXT: 1 2 -0
  // CHECK-NEXT: 2 1 0x7FF8000000000001
  // CHECK-NEXT: 2 2 inf
  // CHECK-NEXT: 2 3 -nan
  sparse_array.print %r : !dcsc_nan

  // Matrix Market output needs fill 0 (input 1).
  %c1 = arith.constant 1 : index
  %z = sparse_array.constant sparse<[[0, 2], [1, 0]], [2.5, -1.0]> : tensor<2x3xf64> : !dense
  sparse_array.write %z to input %c1 : !dense
  %back = sparse_array.read input %c1 : !csr
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 2
  // CHECK-NEXT: 2 3
  // CHECK-NEXT: 1 3 2.5
  // CHECK-NEXT: 2 1 -1
  sparse_array.print %back : !csr
  return
}

func.func private @sa_rt_print_i64(i64)
func.func private @sa_rt_print_newline()

// FILE:      # fill: nan
// FILE-NEXT: 2 5
// FILE-NEXT: 2 3
// FILE-NEXT: 1 1 0
// FILE-NEXT: 1 2 -0
// FILE-NEXT: 2 1 0x7FF8000000000001
// FILE-NEXT: 2 2 inf
// FILE-NEXT: 2 3 -nan

// MTX:      %%MatrixMarket matrix coordinate real general
// MTX-NEXT: 2 3 2
// MTX-NEXT: 1 3 2.5
// MTX-NEXT: 2 1 -1
