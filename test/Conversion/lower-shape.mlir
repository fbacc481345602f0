// RUN: sa-opt %s --sparse-array-build-lattices --sparse-array-lower-shape --canonicalize --cse | FileCheck %s
// sparse-array-lower-shape: a collapse whose dimensions are stored by
// adjacent levels in the linearization's order merges them (seed 001 §4.1):
// one loop nest over the group writes the merged coordinates, no entry moves.

!csr = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed]>>
!csc = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
!v12 = !sparse_array.array<12xf64, #sparse_array.format<[compressed]>>
!d12 = !sparse_array.array<12xf64>
!v12fill = !sparse_array.array<12xf64, #sparse_array.format<[compressed], fill = 1.0 : f64>>
!csf = !sparse_array.array<2x3x2xf64, #sparse_array.format<[compressed, compressed, compressed]>>
!m26 = !sparse_array.array<2x6xf64, #sparse_array.format<[compressed, compressed]>>

// CSR: for each row, for each entry p, crd'[p] = i * n + crd[p]; positions
// [0, nnz]; values copied (memcpy per 32 KiB block), then counting those
// equal to the fill from cache (an input assembled with some): then
// change_fill drops them.
// CHECK-LABEL: func.func @csr_to_vector(
// CHECK-NOT:     sparse_array.collapse
// CHECK:         %[[POS:.*]] = sparse_array.positions %{{.*}}[1]
// CHECK:         %[[CRD:.*]] = sparse_array.coordinates %{{.*}}[1]
// CHECK:         scf.for %[[I:.*]] =
// CHECK:           scf.for %[[P:.*]] =
// CHECK:             %[[C:.*]] = memref.load %[[CRD]][%[[P]]]
// CHECK:             %[[M:.*]] = arith.muli %[[I]],
// CHECK:             arith.addi %[[M]],
// CHECK:             memref.store %{{.*}}, %{{.*}}[%[[P]]]
// CHECK:         scf.for {{.*}} step %c4096 iter_args
// CHECK:           func.call @sa_rt_copy_bytes(
// CHECK:           scf.for
// CHECK:             memref.load
// CHECK:             arith.cmpi eq
// CHECK:         %[[A:.*]] = sparse_array.assemble
// CHECK:         %[[R:.*]] = scf.if
// CHECK:           sparse_array.change_fill %[[A]]
// CHECK-NOT:     sparse_array.convert
// CHECK:         return %[[R]]
func.func @csr_to_vector(%a: !csr) -> !v12 {
  %v = sparse_array.collapse %a [0, 1] : !csr -> !v12
  return %v : !v12
}

// A result in another format: merged, then converted.
// CHECK-LABEL: func.func @csr_to_dense(
// CHECK:         sparse_array.assemble
// CHECK:         sparse_array.convert
func.func @csr_to_dense(%a: !csr) -> !d12 {
  %v = sparse_array.collapse %a [0, 1] : !csr -> !d12
  return %v : !d12
}

// The inner pair of a CSF: positions per parent (the first level's
// entries), one loop per level of the group under it.
// CHECK-LABEL: func.func @csf_inner(
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:         sparse_array.assemble
// CHECK-SAME:      -> !sparse_array.array<2x6xf64, #{{.*}}>
func.func @csf_inner(%t: !csf) -> !m26 {
  %v = sparse_array.collapse %t [1, 2] : !csf -> !m26
  return %v : !m26
}

// CSC collapsed in C order stores its dimensions the other way round, and a
// result with another fill makes implicit entries values: both stay for the
// runtime.
// CHECK-LABEL: func.func @not_merged(
// CHECK:         sparse_array.collapse %{{.*}} [0, 1] :
// CHECK:         sparse_array.collapse %{{.*}} [0, 1] :
func.func @not_merged(%a: !csc, %b: !csr) -> (!v12, !v12fill) {
  %v = sparse_array.collapse %a [0, 1] : !csc -> !v12
  %w = sparse_array.collapse %b [0, 1] : !csr -> !v12fill
  return %v, %w : !v12, !v12fill
}

// sparse-array-lower-shape: a split whose entries keep their positions
// (seed 001 §4.1, the inverse of the merges above): one pass over the
// split level's entries writes each part's coordinate (a quotient and a
// remainder of the linear one) and, under full levels, the rows' starts as
// the rows go by; levels outside the group and the values are copied.

!v12w = !sparse_array.array<12xf64, #sparse_array.format<[compressed], pos_width = 32, crd_width = 32>>
!csr34w = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed], pos_width = 32, crd_width = 32>>
!coo34 = !sparse_array.array<3x4xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!coo34w = !sparse_array.array<3x4xf64, #sparse_array.format<[compressed(nonunique), singleton], pos_width = 32, crd_width = 32>>
!csc43 = !sparse_array.array<4x3xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
!dcsr34 = !sparse_array.array<3x4xf64, #sparse_array.format<[compressed, compressed]>>
!csr212 = !sparse_array.array<2x12xf64, #sparse_array.format<[dense, compressed]>>
!t234 = !sparse_array.array<2x3x4xf64, #sparse_array.format<[dense, dense, compressed]>>
!d34 = !sparse_array.array<3x4xf64>

// CSR from a vector: row c / 4 and column c % 4 of each entry; rows from
// the last one seen up to this entry's start here; the rest at the end.
// CHECK-LABEL: func.func @vector_to_csr(
// CHECK-NOT:     sparse_array.split
// CHECK:         %[[CRD:.*]] = sparse_array.coordinates %{{.*}}[0]
// CHECK:         %[[POS:.*]] = memref.alloc() : memref<4xi32>
// CHECK:         %[[LAST:.*]] = scf.for %[[Q:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[NEXT:.*]] = %{{.*}}) -> (index) {
// CHECK:           %[[C:.*]] = memref.load %[[CRD]][%[[Q]]]
// CHECK:           %[[CI:.*]] = arith.index_castui %[[C]]
// CHECK:           %[[ROW:.*]] = arith.divui %[[CI]], %c4
// CHECK:           %[[END:.*]] = arith.addi %[[ROW]], %c1
// CHECK:           scf.for %[[R:.*]] = %[[NEXT]] to %[[END]]
// CHECK:             memref.store %{{.*}}, %[[POS]][%[[R]]]
// CHECK:           arith.remui %[[CI]], %c4
// CHECK:           memref.store %{{.*}}[%[[Q]]] : memref<?xi32>
// CHECK:           scf.yield %[[END]]
// CHECK:         scf.for %{{.*}} = %[[LAST]] to %c4
// CHECK:         scf.for {{.*}} iter_args
// CHECK:         %[[A:.*]] = sparse_array.assemble
// CHECK:         scf.if
// CHECK:           sparse_array.change_fill %[[A]]
func.func @vector_to_csr(%v: !v12w) -> !csr34w {
  %r = sparse_array.split %v dim 0 [3, 4] : !v12w -> !csr34w
  return %r : !csr34w
}

// COO: the vector's positions, and both coordinates per entry in one
// loop without a row to track.
// CHECK-LABEL: func.func @vector_to_coo(
// CHECK:         %[[POS:.*]] = sparse_array.positions %{{.*}}[0]
// CHECK:         memref.copy %[[POS]]
// CHECK:         scf.for %[[Q:.*]] =
// CHECK-NOT:       scf.for
// CHECK:           arith.divui %{{.*}}, %c4
// CHECK:           arith.remui %{{.*}}, %c4
// CHECK:         sparse_array.assemble
func.func @vector_to_coo(%v: !v12) -> !coo34 {
  %r = sparse_array.split %v dim 0 [3, 4] : !v12 -> !coo34
  return %r : !coo34
}

// F order: (c % 4, c / 4), stored column first.
// CHECK-LABEL: func.func @fortran(
// CHECK-NOT:     sparse_array.split
// CHECK:         arith.divui %{{.*}}, %c4
// CHECK:         arith.remui %{{.*}}, %c4
// CHECK:         sparse_array.assemble
func.func @fortran(%v: !v12) -> !csc43 {
  %r = sparse_array.split %v dim 0 [4, 3] order "F" : !v12 -> !csc43
  return %r : !csc43
}

// The inner dimension of a CSR: a loop per row (the parents), each row's
// entries split into 3 rows of 4 under it.
// CHECK-LABEL: func.func @inner_of_csr(
// CHECK-NOT:     sparse_array.split
// CHECK:         scf.for %[[P:[a-z0-9_]+]] =
// CHECK:           arith.muli %[[P]], %c3
// CHECK:           scf.for
// CHECK:         sparse_array.assemble
func.func @inner_of_csr(%a: !csr212) -> !t234 {
  %r = sparse_array.split %a dim 1 [3, 4] : !csr212 -> !t234
  return %r : !t234
}

// Dense into dense: the values copied as they are.
// CHECK-LABEL: func.func @dense(
// CHECK-NOT:     sparse_array.split
// CHECK:         memref.copy
// CHECK:         sparse_array.assemble
func.func @dense(%v: !d12) -> !d34 {
  %r = sparse_array.split %v dim 0 [3, 4] : !d12 -> !d34
  return %r : !d34
}

// The group's buffers are written: a 64-bit vector (2^32 coordinates or
// more, say) splits into 32-bit COO levels, its positions converted.
// CHECK-LABEL: func.func @narrower(
// CHECK-NOT:     sparse_array.split
// CHECK:         scf.for %[[I:.*]] =
// CHECK:           %[[P:.*]] = memref.load %{{.*}}[%[[I]]] : memref<?xi64>
// CHECK:           %[[PI:.*]] = arith.index_castui %[[P]] : i64 to index
// CHECK:           %[[P32:.*]] = arith.index_castui %[[PI]] : index to i32
// CHECK:           memref.store %[[P32]], %{{.*}}[%[[I]]] : memref<?xi32>
// CHECK:         sparse_array.assemble
func.func @narrower(%v: !v12) -> !coo34w {
  %r = sparse_array.split %v dim 0 [3, 4] : !v12 -> !coo34w
  return %r : !coo34w
}

// A DCSR's rows own runs of entries, and another fill makes implicit
// entries values: both stay.
// CHECK-LABEL: func.func @not_split_in_place(
// CHECK:         sparse_array.split %{{.*}} dim 0 [3, 4] :
// CHECK:         sparse_array.split %{{.*}} dim 0 [3, 4] :
func.func @not_split_in_place(%v: !v12, %w: !v12fill) -> (!dcsr34, !csr34w) {
  %r = sparse_array.split %v dim 0 [3, 4] : !v12 -> !dcsr34
  %s = sparse_array.split %w dim 0 [3, 4] : !v12fill -> !csr34w
  return %r, %s : !dcsr34, !csr34w
}

// COO parts stacked along the rows into CSR (seed 001 §8.3's concatenation
// with a conversion): the positions zeroed, then each part's row
// coordinates walked once (shifted by the rows before it: the second
// part's by 2) writing each row's end at pos[row + 1]; its columns and
// values copied as a range; a running maximum over the rows last.
!cootop = !sparse_array.array<2x4xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!coobot = !sparse_array.array<3x4xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!csr54 = !sparse_array.array<5x4xf64, #sparse_array.format<[dense, compressed]>>
// CHECK-LABEL: func.func @coo_into_csr(
// CHECK-NOT:     sparse_array.concat
// CHECK:         %[[POS:.*]] = memref.alloc() : memref<6xi64>
// CHECK:         scf.for %{{.*}} = %c0 to %c6 step %c1 {
// CHECK:           memref.store %c0_i64, %[[POS]]
// CHECK:         scf.for %[[Q:.*]] = %{{.*}} to %{{.*}} step %c1 {
// CHECK:           %[[ROW:.*]] = memref.load %{{.*}}[%[[Q]]] : memref<?xi64>
// CHECK:           %[[R:.*]] = arith.index_castui %[[ROW]]
// CHECK:           %[[SLOT:.*]] = arith.addi %[[R]], %c1
// CHECK:           memref.store %{{.*}}, %[[POS]][%[[SLOT]]]
// CHECK:         scf.for
// CHECK:           memref.load
// CHECK:           memref.store
// CHECK:         scf.for {{.*}} step %c4096
// CHECK:         scf.for %{{.*}} = %{{[0-9]+}} to %{{[0-9]+}} step %c1 {
// CHECK-NEXT:      memref.load %{{.*}} : memref<?xi64>
// CHECK-NEXT:      arith.index_castui
// CHECK-NEXT:      arith.addi %{{.*}}, %c3
// CHECK:         scf.for %[[RR:.*]] = %c1 to %c6 step %c1 iter_args(%[[PREV:.*]] = %c0)
// CHECK:           %[[E:.*]] = arith.index_castui
// CHECK:           %[[M:.*]] = arith.maxui %[[E]], %[[PREV]]
// CHECK:           memref.store %{{.*}}, %[[POS]][%[[RR]]]
// CHECK:         sparse_array.assemble
// CHECK:         sparse_array.change_fill
func.func @coo_into_csr(%t: !cootop, %b: !coobot) -> !csr54 {
  %r = sparse_array.concat %t, %b dim 0 : !cootop, !coobot -> !csr54
  return %r : !csr54
}

// CSR parts into COO (seed 001 §8.3's concatenation with a conversion).
// Along the columns, row after row: each part's run of the row written at
// the cursor, the row coordinate per entry, the columns shifted by the
// parts before (the second part's by 2), values copied and counted in the
// same loop, marked not to interleave (runs are short: markShortLoop). The
// first level's positions are [0, total].
!csrl = !sparse_array.array<3x2xf64, #sparse_array.format<[dense, compressed]>>
!csrr = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed]>>
!coo36 = !sparse_array.array<3x6xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
// CHECK-LABEL: func.func @csr_into_coo_columns(
// CHECK-NOT:     sparse_array.concat
// CHECK-NOT:     sparse_array.kernel
// CHECK:         %[[POS:.*]] = memref.alloc() : memref<2xi64>
// CHECK:         memref.store %{{.*}}, %[[POS]][%c1]
// CHECK:         %[[ROWS:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK:         %[[COLS:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK:         scf.for %[[R:.*]] = %c0 to %c3 step %c1 iter_args
// CHECK:           %[[RC:.*]] = arith.index_cast %[[R]] : index to i64
// CHECK:           scf.for
// CHECK:             memref.store %[[RC]], %[[ROWS]]
// CHECK:             memref.store %{{.*}}, %[[COLS]]
// CHECK:             arith.cmpi eq
// CHECK:           } {loop_annotation = #[[SHORT:.*]]}
// CHECK:           scf.for
// CHECK:             memref.store %[[RC]], %[[ROWS]]
// CHECK:             %[[C:.*]] = memref.load
// CHECK:             %[[S:.*]] = arith.addi %[[C]], %c2_i64
// CHECK:             memref.store %[[S]], %[[COLS]]
// CHECK:           } {loop_annotation = #[[SHORT]]}
// CHECK:         sparse_array.assemble
// CHECK:         sparse_array.change_fill
func.func @csr_into_coo_columns(%l: !csrl, %q: !csrr) -> !coo36 {
  %r = sparse_array.concat %l, %q dim 1 : !csrl, !csrr -> !coo36
  return %r : !coo36
}

// Along the rows, part after part: each row's coordinate (shifted by the
// rows before: 3 for the second part) over its run, the columns and values
// copied as one range.
!csrb = !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>>
!coo52 = !sparse_array.array<5x2xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
// CHECK-LABEL: func.func @csr_into_coo_rows(
// CHECK-NOT:     sparse_array.kernel
// CHECK:         scf.for %[[Q:.*]] = %c0 to %c3 step %c1 {
// CHECK:           scf.for
// CHECK:             memref.store
// CHECK:         scf.for
// CHECK:           memref.load
// CHECK:           memref.store
// CHECK:         scf.for %[[Q2:.*]] = %c0 to %c2 step %c1 {
// CHECK:           %[[ROW:.*]] = arith.addi %[[Q2]], %c3
// CHECK:           arith.index_cast %[[ROW]]
// CHECK:         sparse_array.assemble
func.func @csr_into_coo_rows(%t: !csrl, %b: !csrb) -> !coo52 {
  %r = sparse_array.concat %t, %b dim 0 : !csrl, !csrb -> !coo52
  return %r : !coo52
}

// A range of CSR rows sliced into COO: the rows' entries are one range
// [pos[1], pos[3]) of the source, copied as such (columns, values counted);
// each row's coordinate, shifted by -1, written over its run.
!csr54s = !sparse_array.array<5x4xf64, #sparse_array.format<[dense, compressed]>>
!coo24 = !sparse_array.array<2x4xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
// CHECK-LABEL: func.func @csr_rows_into_coo(
// CHECK-NOT:     sparse_array.kernel
// CHECK:         %[[P:.*]] = sparse_array.positions %{{.*}}[1]
// CHECK:         %[[LO:.*]] = memref.load %[[P]][%c1]
// CHECK:         %[[HI:.*]] = memref.load %[[P]][%c3]
// CHECK:         scf.for %[[Q:.*]] = %c1 to %c3 step %c1 {
// CHECK:           %[[ROW:.*]] = arith.addi %[[Q]], %c-1
// CHECK:           arith.index_cast %[[ROW]]
// CHECK:           scf.for
// CHECK:             memref.store
// CHECK:         scf.for
// CHECK:           memref.load
// CHECK:           memref.store
// CHECK:         scf.for %{{.*}} step %c4096
// CHECK:         sparse_array.assemble
// CHECK:         sparse_array.change_fill
func.func @csr_rows_into_coo(%a: !csr54s) -> !coo24 {
  %r = sparse_array.slice %a[1:3] : !csr54s -> !coo24
  return %r : !coo24
}
