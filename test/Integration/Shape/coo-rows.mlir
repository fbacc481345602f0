// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks -O0 %s | FileCheck %s
// RUN: sa-run --num-threads=4 --parallel-min-work=1 --bounds-checks %s | FileCheck %s
// Shape operators between COO and CSR rows without a kernel (CooRows.cpp),
// on rows without entries first, in the middle and last (a row's end is
// carried over the empty rows after it). Expected values: numpy of the
// dense arrays, 1-based coordinates as printed:
//   a = [[0,0,0],[1,0,2],[0,0,0],[0,3,0]], b = [[0,0,4],[0,0,0],[5,0,0]]
//   c = [[0,6],[0,0],[7,0]], d = [[0,0],[8,0],[0,9]]

!coo43 = !sparse_array.array<4x3xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!coo33 = !sparse_array.array<3x3xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!csr73 = !sparse_array.array<7x3xf64, #sparse_array.format<[dense, compressed]>>
!csr32 = !sparse_array.array<3x2xf64, #sparse_array.format<[dense, compressed]>>
!coo34 = !sparse_array.array<3x4xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!coo62 = !sparse_array.array<6x2xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!coo22 = !sparse_array.array<2x2xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!coo32 = !sparse_array.array<3x2xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!csr52 = !sparse_array.array<5x2xf64, #sparse_array.format<[dense, compressed]>>

func.func @main() {
  %a = sparse_array.constant sparse<[[1, 0], [1, 2], [3, 1]], [1.0, 2.0, 3.0]> : tensor<4x3xf64> : !coo43
  %b = sparse_array.constant sparse<[[0, 2], [2, 0]], [4.0, 5.0]> : tensor<3x3xf64> : !coo33
  %c = sparse_array.constant sparse<[[0, 1], [2, 0]], [6.0, 7.0]> : tensor<3x2xf64> : !csr32
  %d = sparse_array.constant sparse<[[1, 0], [2, 1]], [8.0, 9.0]> : tensor<3x2xf64> : !csr32
  // vstack(a, b) into CSR: rows 1, 3, 4, 6 hold entries; 0, 2, 5 are
  // empty.
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 5
  // CHECK-NEXT: 7 3
  // CHECK-NEXT: 2 1 1
  // CHECK-NEXT: 2 3 2
  // CHECK-NEXT: 4 2 3
  // CHECK-NEXT: 5 3 4
  // CHECK-NEXT: 7 1 5
  %v = sparse_array.concat %a, %b dim 0 : !coo43, !coo33 -> !csr73
  sparse_array.print %v : !csr73
  // The positions themselves: 0 0 2 2 3 4 4 5.
  // CHECK-NEXT: 0
  // CHECK-NEXT: 0
  // CHECK-NEXT: 2
  // CHECK-NEXT: 2
  // CHECK-NEXT: 3
  // CHECK-NEXT: 4
  // CHECK-NEXT: 4
  // CHECK-NEXT: 5
  %vp = sparse_array.positions %v[1] : !csr73 -> memref<?xi64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %p = memref.load %vp[%i] : memref<?xi64>
    func.call @sa_rt_print_i64(%p) : (i64) -> ()
    func.call @sa_rt_print_newline() : () -> ()
  }
  // vstack(e, f), e's last row empty: e = [[0,0],[1,0],[0,0]],
  // f = [[0,4],[5,0]].
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 3
  // CHECK-NEXT: 5 2
  // CHECK-NEXT: 2 1 1
  // CHECK-NEXT: 4 2 4
  // CHECK-NEXT: 5 1 5
  %e = sparse_array.constant sparse<[[1, 0]], [1.0]> : tensor<3x2xf64> : !coo32
  %f = sparse_array.constant sparse<[[0, 1], [1, 0]], [4.0, 5.0]> : tensor<2x2xf64> : !coo22
  %ef = sparse_array.concat %e, %f dim 0 : !coo32, !coo22 -> !csr52
  sparse_array.print %ef : !csr52
  sparse_array.dealloc %ef : !csr52
  // hstack(c, d) into COO, row after row.
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 4
  // CHECK-NEXT: 3 4
  // CHECK-NEXT: 1 2 6
  // CHECK-NEXT: 2 3 8
  // CHECK-NEXT: 3 1 7
  // CHECK-NEXT: 3 4 9
  %h = sparse_array.concat %c, %d dim 1 : !csr32, !csr32 -> !coo34
  sparse_array.print %h : !coo34
  // vstack(c, d) into COO, part after part.
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 4
  // CHECK-NEXT: 6 2
  // CHECK-NEXT: 1 2 6
  // CHECK-NEXT: 3 1 7
  // CHECK-NEXT: 5 1 8
  // CHECK-NEXT: 6 2 9
  %w = sparse_array.concat %c, %d dim 0 : !csr32, !csr32 -> !coo62
  sparse_array.print %w : !coo62
  // c[1:3] into COO: [[0, 0], [7, 0]].
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 1
  // CHECK-NEXT: 2 2
  // CHECK-NEXT: 2 1 7
  %s = sparse_array.slice %c[1:3] : !csr32 -> !coo22
  sparse_array.print %s : !coo22
  sparse_array.dealloc %v : !csr73
  sparse_array.dealloc %h : !coo34
  sparse_array.dealloc %w : !coo62
  sparse_array.dealloc %s : !coo22
  return
}
func.func private @sa_rt_print_i64(i64)
func.func private @sa_rt_print_newline()
