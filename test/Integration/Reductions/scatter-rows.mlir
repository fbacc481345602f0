// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices | grep -c scatter_loops | FileCheck %s --check-prefix=SCATTER
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices | not grep sparse_array.convert
// Reductions along a middle storage level into sparse results of rank >= 2
// (issue 20): a 3-D CSF, DCSF and COO reduced over their middle dimension
// into CSR, DCSR and CSR with nonordered columns; a 4-D CSF reduced over
// dimension 1 (a workspace of two levels), 2 (a prefix of two levels) and
// both; a CSF whose rows touch few of their 40 columns (drained from the
// sorted list of touched columns; the others touch over an eighth of their
// slots and are drained by a scan in order). Each is a scatter reduction whose entries accumulate per result row
// in a workspace drained in order (ScatterReduction.cpp), with no
// conversion of the input. Strategies: identity (@fadd), universe/signed
// zeros (the exact @add_f64, fill +0.0 is not its identity -0.0),
// idempotent (@max_f64, fill 0), reassociate (i64, fill 1). The i64 sums
// go once to a result of fill 4 (the sum of an all-fill row) and once to
// fill 0, where every entry, those of the skipped empty row included, is
// stored. Expected values: Inputs/scatter_rows_expected.py, left folds over
// the dense numpy arrays in the dense program's order; after each print,
// the number of stored values (entries equal to the fill are dropped).

// SCATTER: 14

sparse_array.func @add_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @fadd(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, identity = #sparse_array.identity<0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @max_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, idempotent,
                identity = #sparse_array.identity<-inf : f64>} {
  %r = arith.maximumf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @add_i64(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
func.func private @sa_rt_print_i64(i64)
func.func private @sa_rt_print_newline()
!t_csf = !sparse_array.array<3x4x5xf64, #sparse_array.format<[dense, compressed, compressed]>>
!t_dcsf = !sparse_array.array<3x4x5xf64, #sparse_array.format<[compressed, compressed, compressed]>>
!t_coo = !sparse_array.array<3x4x5xf64, #sparse_array.format<[compressed(nonunique), singleton(nonunique), singleton]>>
!r_csr = !sparse_array.array<3x5xf64, #sparse_array.format<[dense, compressed]>>
!r_dcsr = !sparse_array.array<3x5xf64, #sparse_array.format<[compressed, compressed]>>
!r_csr_no = !sparse_array.array<3x5xf64, #sparse_array.format<[dense, compressed(nonordered)]>>
!i_dcsf = !sparse_array.array<3x4x5xi64, #sparse_array.format<[compressed, compressed, compressed], fill = 1 : i64>>
!ri_csr4 = !sparse_array.array<3x5xi64, #sparse_array.format<[dense, compressed], fill = 4 : i64>>
!ri_csr0 = !sparse_array.array<3x5xi64, #sparse_array.format<[dense, compressed]>>
!q4 = !sparse_array.array<2x3x4x3xf64, #sparse_array.format<[dense, compressed, compressed, compressed]>>
!q3a = !sparse_array.array<2x4x3xf64, #sparse_array.format<[dense, compressed, compressed]>>
!q3b = !sparse_array.array<2x3x3xf64, #sparse_array.format<[dense, compressed, compressed]>>
!q3c = !sparse_array.array<2x4x3xf64, #sparse_array.format<[compressed, compressed, compressed]>>
!q2 = !sparse_array.array<2x3xf64, #sparse_array.format<[dense, compressed]>>
!w_csf = !sparse_array.array<3x4x40xf64, #sparse_array.format<[dense, compressed, compressed]>>
!rw_csr = !sparse_array.array<3x40xf64, #sparse_array.format<[dense, compressed]>>
!rw_csr_no = !sparse_array.array<3x40xf64, #sparse_array.format<[dense, compressed(nonordered)]>>
func.func @main() {
  %c0 = arith.constant 0 : index
  %tc = sparse_array.constant sparse<[[0,0,0],[0,0,1],[0,1,0],[0,1,2],[0,1,3],[0,2,0],[0,2,4],[0,3,2],[0,3,3],[2,0,0],[2,0,1],[2,0,3],[2,1,0],[2,1,1],[2,1,3],[2,2,1],[2,2,2],[2,2,3],[2,3,0],[2,3,3]], [-2.0, -0.0, -2.0, 0x7FF0000000000000, 0x7FF8000000000000, -0.0, 3.25, 0x7FF8000000000000, 1.5, -7.0, 0.5, 0x7FF0000000000000, 3.25, 0xFFF0000000000000, 3.25, -0.0, -0.0, -0.0, -2.0, 0x7FF0000000000000]> : tensor<3x4x5xf64> : !t_csf
  %td = sparse_array.constant sparse<[[0,0,0],[0,0,1],[0,1,0],[0,1,2],[0,1,3],[0,2,0],[0,2,4],[0,3,2],[0,3,3],[2,0,0],[2,0,1],[2,0,3],[2,1,0],[2,1,1],[2,1,3],[2,2,1],[2,2,2],[2,2,3],[2,3,0],[2,3,3]], [-2.0, -0.0, -2.0, 0x7FF0000000000000, 0x7FF8000000000000, -0.0, 3.25, 0x7FF8000000000000, 1.5, -7.0, 0.5, 0x7FF0000000000000, 3.25, 0xFFF0000000000000, 3.25, -0.0, -0.0, -0.0, -2.0, 0x7FF0000000000000]> : tensor<3x4x5xf64> : !t_dcsf
  %to = sparse_array.constant sparse<[[0,0,0],[0,0,1],[0,1,0],[0,1,2],[0,1,3],[0,2,0],[0,2,4],[0,3,2],[0,3,3],[2,0,0],[2,0,1],[2,0,3],[2,1,0],[2,1,1],[2,1,3],[2,2,1],[2,2,2],[2,2,3],[2,3,0],[2,3,3]], [-2.0, -0.0, -2.0, 0x7FF0000000000000, 0x7FF8000000000000, -0.0, 3.25, 0x7FF8000000000000, 1.5, -7.0, 0.5, 0x7FF0000000000000, 3.25, 0xFFF0000000000000, 3.25, -0.0, -0.0, -0.0, -2.0, 0x7FF0000000000000]> : tensor<3x4x5xf64> : !t_coo
  %id = sparse_array.constant sparse<[[0,0,3],[0,0,4],[0,1,3],[0,2,1],[0,3,3],[0,3,4],[2,1,1],[2,1,3],[2,2,0],[2,2,1],[2,3,2]], [-5, 3, 5, -7, -5, -9, -6, 3, 8, 9, -7]> : tensor<3x4x5xi64> : !i_dcsf
  %qc = sparse_array.constant sparse<[[0,0,1,0],[0,0,1,1],[0,0,2,0],[0,0,2,2],[0,0,3,0],[0,0,3,2],[0,1,0,1],[0,1,1,0],[0,1,2,0],[0,1,3,0],[0,2,0,0],[0,2,0,1],[0,2,0,2],[0,2,1,0],[0,2,2,1],[0,2,3,0],[0,2,3,2],[1,0,0,2],[1,0,1,0],[1,0,2,1],[1,0,3,1],[1,1,0,2],[1,1,1,0],[1,1,3,1],[1,2,1,2],[1,2,2,0],[1,2,2,2]], [0.5, -2.0, -2.0, 1.5, 0.5, -0.0, 1.5, 3.25, -7.0, -0.0, -0.0, -7.0, 1.5, -2.0, -0.0, 3.25, -7.0, -2.0, 0.5, -0.0, 0.5, 1.5, -2.0, -0.0, -0.0, -7.0, 3.25]> : tensor<2x3x4x3xf64> : !q4
  %wc = sparse_array.constant sparse<[[0,1,24],[1,0,31],[1,1,3],[1,1,24],[1,2,34],[1,3,30],[2,1,20],[2,1,34],[2,2,29],[2,2,35],[2,3,7],[2,3,9],[2,3,13],[2,3,19]], [0.0, -7.0, 3.25, 0.0, -2.0, -0.0, -7.0, 1.5, 3.25, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 1.5]> : tensor<3x4x40xf64> : !w_csf
  %r1 = sparse_array.reduce @fadd %tc dims [1] : !t_csf -> !r_csr
  sparse_array.print %r1 : !r_csr
  %v_r1 = sparse_array.values %r1 : !r_csr -> memref<?xf64>
  %n_r1 = memref.dim %v_r1, %c0 : memref<?xf64>
  %l_r1 = arith.index_cast %n_r1 : index to i64
  func.call @sa_rt_print_i64(%l_r1) : (i64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  %r2 = sparse_array.reduce @add_f64 %tc dims [1] : !t_csf -> !r_csr
  sparse_array.print %r2 : !r_csr
  %v_r2 = sparse_array.values %r2 : !r_csr -> memref<?xf64>
  %n_r2 = memref.dim %v_r2, %c0 : memref<?xf64>
  %l_r2 = arith.index_cast %n_r2 : index to i64
  func.call @sa_rt_print_i64(%l_r2) : (i64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  %r3 = sparse_array.reduce @max_f64 %tc dims [1] : !t_csf -> !r_csr
  sparse_array.print %r3 : !r_csr
  %v_r3 = sparse_array.values %r3 : !r_csr -> memref<?xf64>
  %n_r3 = memref.dim %v_r3, %c0 : memref<?xf64>
  %l_r3 = arith.index_cast %n_r3 : index to i64
  func.call @sa_rt_print_i64(%l_r3) : (i64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  %r4 = sparse_array.reduce @add_f64 %td dims [1] : !t_dcsf -> !r_dcsr
  sparse_array.print %r4 : !r_dcsr
  %v_r4 = sparse_array.values %r4 : !r_dcsr -> memref<?xf64>
  %n_r4 = memref.dim %v_r4, %c0 : memref<?xf64>
  %l_r4 = arith.index_cast %n_r4 : index to i64
  func.call @sa_rt_print_i64(%l_r4) : (i64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  %r5 = sparse_array.reduce @add_f64 %to dims [1] : !t_coo -> !r_csr
  sparse_array.print %r5 : !r_csr
  %v_r5 = sparse_array.values %r5 : !r_csr -> memref<?xf64>
  %n_r5 = memref.dim %v_r5, %c0 : memref<?xf64>
  %l_r5 = arith.index_cast %n_r5 : index to i64
  func.call @sa_rt_print_i64(%l_r5) : (i64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  %r6 = sparse_array.reduce @fadd %tc dims [1] : !t_csf -> !r_csr_no
  sparse_array.print %r6 : !r_csr_no
  %v_r6 = sparse_array.values %r6 : !r_csr_no -> memref<?xf64>
  %n_r6 = memref.dim %v_r6, %c0 : memref<?xf64>
  %l_r6 = arith.index_cast %n_r6 : index to i64
  func.call @sa_rt_print_i64(%l_r6) : (i64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  %r7 = sparse_array.reduce @add_i64 %id dims [1] : !i_dcsf -> !ri_csr4
  sparse_array.print %r7 : !ri_csr4
  %v_r7 = sparse_array.values %r7 : !ri_csr4 -> memref<?xi64>
  %n_r7 = memref.dim %v_r7, %c0 : memref<?xi64>
  %l_r7 = arith.index_cast %n_r7 : index to i64
  func.call @sa_rt_print_i64(%l_r7) : (i64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  %r8 = sparse_array.reduce @add_i64 %id dims [1] : !i_dcsf -> !ri_csr0
  sparse_array.print %r8 : !ri_csr0
  %v_r8 = sparse_array.values %r8 : !ri_csr0 -> memref<?xi64>
  %n_r8 = memref.dim %v_r8, %c0 : memref<?xi64>
  %l_r8 = arith.index_cast %n_r8 : index to i64
  func.call @sa_rt_print_i64(%l_r8) : (i64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  %r9 = sparse_array.reduce @add_f64 %qc dims [1] : !q4 -> !q3a
  sparse_array.print %r9 : !q3a
  %v_r9 = sparse_array.values %r9 : !q3a -> memref<?xf64>
  %n_r9 = memref.dim %v_r9, %c0 : memref<?xf64>
  %l_r9 = arith.index_cast %n_r9 : index to i64
  func.call @sa_rt_print_i64(%l_r9) : (i64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  %r10 = sparse_array.reduce @add_f64 %qc dims [2] : !q4 -> !q3b
  sparse_array.print %r10 : !q3b
  %v_r10 = sparse_array.values %r10 : !q3b -> memref<?xf64>
  %n_r10 = memref.dim %v_r10, %c0 : memref<?xf64>
  %l_r10 = arith.index_cast %n_r10 : index to i64
  func.call @sa_rt_print_i64(%l_r10) : (i64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  %r11 = sparse_array.reduce @fadd %qc dims [1, 2] : !q4 -> !q2
  sparse_array.print %r11 : !q2
  %v_r11 = sparse_array.values %r11 : !q2 -> memref<?xf64>
  %n_r11 = memref.dim %v_r11, %c0 : memref<?xf64>
  %l_r11 = arith.index_cast %n_r11 : index to i64
  func.call @sa_rt_print_i64(%l_r11) : (i64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  %r12 = sparse_array.reduce @max_f64 %qc dims [1] : !q4 -> !q3c
  sparse_array.print %r12 : !q3c
  %v_r12 = sparse_array.values %r12 : !q3c -> memref<?xf64>
  %n_r12 = memref.dim %v_r12, %c0 : memref<?xf64>
  %l_r12 = arith.index_cast %n_r12 : index to i64
  func.call @sa_rt_print_i64(%l_r12) : (i64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  %r13 = sparse_array.reduce @add_f64 %wc dims [1] : !w_csf -> !rw_csr
  sparse_array.print %r13 : !rw_csr
  %v_r13 = sparse_array.values %r13 : !rw_csr -> memref<?xf64>
  %n_r13 = memref.dim %v_r13, %c0 : memref<?xf64>
  %l_r13 = arith.index_cast %n_r13 : index to i64
  func.call @sa_rt_print_i64(%l_r13) : (i64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  %r14 = sparse_array.reduce @max_f64 %wc dims [1] : !w_csf -> !rw_csr_no
  sparse_array.print %r14 : !rw_csr_no
  %v_r14 = sparse_array.values %r14 : !rw_csr_no -> memref<?xf64>
  %n_r14 = memref.dim %v_r14, %c0 : memref<?xf64>
  %l_r14 = arith.index_cast %n_r14 : index to i64
  func.call @sa_rt_print_i64(%l_r14) : (i64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  return
}

// CHECK: # fill: 0
// CHECK-NEXT: 2 7
// CHECK-NEXT: 3 5
// CHECK-NEXT: 1 1 -4
// CHECK-NEXT: 1 3 nan
// CHECK-NEXT: 1 4 nan
// CHECK-NEXT: 1 5 3.25
// CHECK-NEXT: 3 1 -5.75
// CHECK-NEXT: 3 2 -inf
// CHECK-NEXT: 3 4 inf
// CHECK-NEXT: 7
// CHECK: # fill: 0
// CHECK-NEXT: 2 7
// CHECK-NEXT: 3 5
// CHECK-NEXT: 1 1 -4
// CHECK-NEXT: 1 3 nan
// CHECK-NEXT: 1 4 nan
// CHECK-NEXT: 1 5 3.25
// CHECK-NEXT: 3 1 -5.75
// CHECK-NEXT: 3 2 -inf
// CHECK-NEXT: 3 4 inf
// CHECK-NEXT: 7
// CHECK: # fill: 0
// CHECK-NEXT: 2 6
// CHECK-NEXT: 3 5
// CHECK-NEXT: 1 3 nan
// CHECK-NEXT: 1 4 nan
// CHECK-NEXT: 1 5 3.25
// CHECK-NEXT: 3 1 3.25
// CHECK-NEXT: 3 2 0.5
// CHECK-NEXT: 3 4 inf
// CHECK-NEXT: 6
// CHECK: # fill: 0
// CHECK-NEXT: 2 7
// CHECK-NEXT: 3 5
// CHECK-NEXT: 1 1 -4
// CHECK-NEXT: 1 3 nan
// CHECK-NEXT: 1 4 nan
// CHECK-NEXT: 1 5 3.25
// CHECK-NEXT: 3 1 -5.75
// CHECK-NEXT: 3 2 -inf
// CHECK-NEXT: 3 4 inf
// CHECK-NEXT: 7
// CHECK: # fill: 0
// CHECK-NEXT: 2 7
// CHECK-NEXT: 3 5
// CHECK-NEXT: 1 1 -4
// CHECK-NEXT: 1 3 nan
// CHECK-NEXT: 1 4 nan
// CHECK-NEXT: 1 5 3.25
// CHECK-NEXT: 3 1 -5.75
// CHECK-NEXT: 3 2 -inf
// CHECK-NEXT: 3 4 inf
// CHECK-NEXT: 7
// CHECK: # fill: 0
// CHECK-NEXT: 2 7
// CHECK-NEXT: 3 5
// CHECK-NEXT: 1 1 -4
// CHECK-NEXT: 1 3 nan
// CHECK-NEXT: 1 4 nan
// CHECK-NEXT: 1 5 3.25
// CHECK-NEXT: 3 1 -5.75
// CHECK-NEXT: 3 2 -inf
// CHECK-NEXT: 3 4 inf
// CHECK-NEXT: 7
// CHECK: # fill: 4
// CHECK-NEXT: 2 7
// CHECK-NEXT: 3 5
// CHECK-NEXT: 1 2 -4
// CHECK-NEXT: 1 4 -4
// CHECK-NEXT: 1 5 -4
// CHECK-NEXT: 3 1 11
// CHECK-NEXT: 3 2 5
// CHECK-NEXT: 3 3 -4
// CHECK-NEXT: 3 4 6
// CHECK-NEXT: 7
// CHECK: # fill: 0
// CHECK-NEXT: 2 15
// CHECK-NEXT: 3 5
// CHECK-NEXT: 1 1 4
// CHECK-NEXT: 1 2 -4
// CHECK-NEXT: 1 3 4
// CHECK-NEXT: 1 4 -4
// CHECK-NEXT: 1 5 -4
// CHECK-NEXT: 2 1 4
// CHECK-NEXT: 2 2 4
// CHECK-NEXT: 2 3 4
// CHECK-NEXT: 2 4 4
// CHECK-NEXT: 2 5 4
// CHECK-NEXT: 3 1 11
// CHECK-NEXT: 3 2 5
// CHECK-NEXT: 3 3 -4
// CHECK-NEXT: 3 4 6
// CHECK-NEXT: 3 5 4
// CHECK-NEXT: 15
// CHECK: # fill: 0
// CHECK-NEXT: 3 13
// CHECK-NEXT: 2 4 3
// CHECK-NEXT: 1 1 2 -5.5
// CHECK-NEXT: 1 1 3 1.5
// CHECK-NEXT: 1 2 1 1.75
// CHECK-NEXT: 1 2 2 -2
// CHECK-NEXT: 1 3 1 -9
// CHECK-NEXT: 1 3 3 1.5
// CHECK-NEXT: 1 4 1 3.75
// CHECK-NEXT: 1 4 3 -7
// CHECK-NEXT: 2 1 3 -0.5
// CHECK-NEXT: 2 2 1 -1.5
// CHECK-NEXT: 2 3 1 -7
// CHECK-NEXT: 2 3 3 3.25
// CHECK-NEXT: 2 4 2 0.5
// CHECK-NEXT: 13
// CHECK: # fill: 0
// CHECK-NEXT: 3 15
// CHECK-NEXT: 2 3 3
// CHECK-NEXT: 1 1 1 -1
// CHECK-NEXT: 1 1 2 -2
// CHECK-NEXT: 1 1 3 1.5
// CHECK-NEXT: 1 2 1 -3.75
// CHECK-NEXT: 1 2 2 1.5
// CHECK-NEXT: 1 3 1 1.25
// CHECK-NEXT: 1 3 2 -7
// CHECK-NEXT: 1 3 3 -5.5
// CHECK-NEXT: 2 1 1 0.5
// CHECK-NEXT: 2 1 2 0.5
// CHECK-NEXT: 2 1 3 -2
// CHECK-NEXT: 2 2 1 -2
// CHECK-NEXT: 2 2 3 1.5
// CHECK-NEXT: 2 3 1 -7
// CHECK-NEXT: 2 3 3 3.25
// CHECK-NEXT: 15
// CHECK: # fill: 0
// CHECK-NEXT: 2 6
// CHECK-NEXT: 2 3
// CHECK-NEXT: 1 1 -3.5
// CHECK-NEXT: 1 2 -7.5
// CHECK-NEXT: 1 3 -4
// CHECK-NEXT: 2 1 -8.5
// CHECK-NEXT: 2 2 0.5
// CHECK-NEXT: 2 3 2.75
// CHECK-NEXT: 6
// CHECK: # fill: 0
// CHECK-NEXT: 3 9
// CHECK-NEXT: 2 4 3
// CHECK-NEXT: 1 1 2 1.5
// CHECK-NEXT: 1 1 3 1.5
// CHECK-NEXT: 1 2 1 3.25
// CHECK-NEXT: 1 3 3 1.5
// CHECK-NEXT: 1 4 1 3.25
// CHECK-NEXT: 2 1 3 1.5
// CHECK-NEXT: 2 2 1 0.5
// CHECK-NEXT: 2 3 3 3.25
// CHECK-NEXT: 2 4 2 0.5
// CHECK-NEXT: 9
// CHECK: # fill: 0
// CHECK-NEXT: 2 11
// CHECK-NEXT: 3 40
// CHECK-NEXT: 2 4 3.25
// CHECK-NEXT: 2 32 -7
// CHECK-NEXT: 2 35 -2
// CHECK-NEXT: 3 8 -inf
// CHECK-NEXT: 3 10 nan
// CHECK-NEXT: 3 14 nan
// CHECK-NEXT: 3 20 1.5
// CHECK-NEXT: 3 21 -7
// CHECK-NEXT: 3 30 3.25
// CHECK-NEXT: 3 35 1.5
// CHECK-NEXT: 3 36 inf
// CHECK-NEXT: 11
// CHECK: # fill: 0
// CHECK-NEXT: 2 7
// CHECK-NEXT: 3 40
// CHECK-NEXT: 2 4 3.25
// CHECK-NEXT: 3 10 nan
// CHECK-NEXT: 3 14 nan
// CHECK-NEXT: 3 20 1.5
// CHECK-NEXT: 3 30 3.25
// CHECK-NEXT: 3 35 1.5
// CHECK-NEXT: 3 36 inf
// CHECK-NEXT: 7
