// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices --sparse-array-lower-shape --canonicalize | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices --sparse-array-lower-shape=parallel-copy-min=1024 --canonicalize | FileCheck %s --check-prefix=PAR
// Slices and concatenations with nothing to fuse, stored like their
// results, move ranges of stored positions (MoveRanges.cpp): counted copy
// loops per parent of the cut level, coordinates shifted there, positions
// moved below it, the values counted against the fill (an input that
// stores explicit fills goes through change_fill); no kernel, no search
// where a range is located.

!a = !sparse_array.array<4x3xf64, #sparse_array.format<[dense, compressed]>>
!b = !sparse_array.array<4x5xf64, #sparse_array.format<[dense, compressed]>>
!h = !sparse_array.array<4x8xf64, #sparse_array.format<[dense, compressed]>>
!v = !sparse_array.array<8x5xf64, #sparse_array.format<[dense, compressed]>>
!s = !sparse_array.array<4x2xf64, #sparse_array.format<[dense, compressed]>>
!r = !sparse_array.array<2x5xf64, #sparse_array.format<[dense, compressed]>>
!coo = !sparse_array.array<4x5xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!coo8 = !sparse_array.array<8x5xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!coo2 = !sparse_array.array<2x5xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!d = !sparse_array.array<4x3xf64>
!d6 = !sparse_array.array<4x6xf64>

// hstack: per row, A's segment then B's, B's coordinates moved by 3. A
// long range is copied by a plain loop (coordinates: shifted for B) and
// the values in blocks of 4096 (memcpy, then counted from cache), a short
// one in one loop. With threads, pieces of rows in parallel: a piece's
// first entry is after both parts' entries of the rows before it (A's
// positions plus B's at its first row).
// PAR-LABEL: func.func @hstack(
// PAR: scf.parallel (%[[P:.*]]) = (%c0) to (%c4) step (%c1) {
// PAR: %[[FIRST:.*]] = arith.minui %[[P]], %c4 : index
// PAR: %[[LAST:.*]] = arith.minui %{{.*}}, %c4 : index
// PAR: %[[PA:.*]] = memref.load %{{.*}}[%[[FIRST]]] : memref<?xi64>
// PAR: %[[A:.*]] = arith.index_castui %[[PA]]
// PAR: %[[PB:.*]] = memref.load %{{.*}}[%[[FIRST]]] : memref<?xi64>
// PAR: %[[B:.*]] = arith.index_castui %[[PB]]
// PAR: %[[AT:.*]] = arith.addi %[[A]], %[[B]] : index
// PAR: scf.for %{{.*}} = %[[FIRST]] to %[[LAST]] step %c1 iter_args(%{{.*}} = %[[AT]],
// CHECK-LABEL: func.func @hstack(
// CHECK-NOT: sparse_array.kernel
// CHECK: %[[POS:.*]] = memref.alloc() : memref<5xi64>
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %c4 step %c1 iter_args(%[[AT:.*]] = %c0, %[[FILLS:.*]] = %c0)
// CHECK:   %[[N:.*]] = arith.subi
// CHECK:   %[[LONG:.*]] = arith.cmpi ugt, %[[N]], %c4096
// CHECK:   %[[NA:.*]] = scf.if %[[LONG]]
// CHECK:     scf.for %{{.*}} = %c0 to %[[N]] step %c1 {
// CHECK-NOT:   arith.addi %{{.*}}, %c3_i64
// CHECK:       memref.store
// CHECK:     scf.for %[[BLK:.*]] = %c0 to %[[N]] step %c4096
// CHECK:       %[[END:.*]] = arith.minui %[[N]]
// CHECK:       %[[LEN:.*]] = arith.subi %[[END]], %[[BLK]]
// CHECK:       %[[BYTES:.*]] = arith.index_cast %[[LEN]] : index to i64
// CHECK:       %[[SIZE:.*]] = arith.muli %[[BYTES]], %c8_i64
// CHECK:       func.call @sa_rt_copy_bytes(%{{.*}}, %{{.*}}, %[[SIZE]])
// CHECK:       scf.for %{{.*}} = %c0 to %[[LEN]] step %c1 iter_args
// CHECK:         arith.cmpi eq
// CHECK:   } else {
// CHECK:     scf.for %{{.*}} = %c0 to %[[N]] step %c1
// CHECK:   scf.if
// CHECK:     scf.for %{{.*}} = %c0 to %{{.*}} step %c1 {
// CHECK:       %[[C:.*]] = memref.load
// CHECK:       arith.addi %[[C]], %c3_i64 : i64
// CHECK:     scf.for {{.*}} step %c4096 iter_args(%{{.*}} = %[[NA]])
// CHECK:   memref.store %{{.*}}, %[[POS]]
// CHECK: sparse_array.assemble
// CHECK: scf.if
// CHECK:   sparse_array.change_fill
// CHECK:   sparse_array.dealloc
func.func @hstack(%a: !a, %b: !b) -> !h {
  %h = sparse_array.concat %a, %b dim 1 : !a, !b -> !h
  return %h : !h
}

// vstack: the outermost level is cut (one parent): B's positions moved by
// A's entries, its coordinates and values copied as they are (a long
// range's coordinates in one bulk copy from A's first entry).
// With parallel-copy-min, a range of that many entries is long, and its
// coordinates and values are copied in pieces by an scf.parallel (OpenMP
// threads once lowered), each piece's fills counted into a slot of a stack
// buffer and summed after; shorter ones as before.
// PAR-LABEL: func.func @vstack(
// PAR: %[[LONG:.*]] = arith.cmpi ugt, %[[N:.*]], %c1023 : index
// PAR-NEXT: scf.if %[[LONG]] -> (index) {
// PAR-NEXT: %[[BIG:.*]] = arith.cmpi uge, %[[N]], %c1024 : index
// PAR-NEXT: scf.if %[[BIG]] {
// PAR: scf.parallel
// PAR: func.call @sa_rt_copy_bytes
// PAR: } else {
// PAR: func.call @sa_rt_copy_bytes
// PAR: %[[SLOTS:.*]] = memref.alloca() : memref<64xindex>
// PAR-NEXT: scf.parallel
// PAR: func.call @sa_rt_copy_bytes
// PAR: memref.store %{{.*}}, %[[SLOTS]][%{{.*}}] : memref<64xindex>
// PAR: scf.for
// PAR: memref.load %[[SLOTS]]

// CHECK-LABEL: func.func @vstack(
// CHECK-NOT: sparse_array.kernel
// CHECK: %[[ACRD:.*]] = sparse_array.coordinates %arg0[1]
// CHECK: %[[NA:.*]] = memref.load %{{.*}}[%c4]
// CHECK: %[[CRD:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK: scf.for %{{.*}} = %c0 to %c4
// CHECK: %[[N:.*]] = arith.subi
// CHECK: scf.if %{{.*}} -> (index) {
// CHECK:   %[[BYTES:.*]] = arith.muli %{{.*}}, %c8_i64
// CHECK:   extract_aligned_pointer_as_index %[[CRD]]
// CHECK:   extract_aligned_pointer_as_index %[[ACRD]]
// CHECK:   func.call @sa_rt_copy_bytes(%{{.*}}, %{{.*}}, %[[BYTES]])
// CHECK:   scf.for %{{.*}} = %c0 to %[[N]] step %c4096
// CHECK: } else {
// CHECK: %[[B0:.*]] = memref.load %[[BPOS:.*]][%c0]
// CHECK: scf.for
// CHECK:   memref.load %[[BPOS]]
// CHECK:   arith.addi
// CHECK-NOT: scf.while
// CHECK: sparse_array.assemble
func.func @vstack(%a: !b, %b: !b) -> !v {
  %v = sparse_array.concat %a, %b dim 0 : !b, !b -> !v
  return %v : !v
}

// Columns 1..2: per row, the range found by two bisections.
// CHECK-LABEL: func.func @columns(
// CHECK: scf.for
// CHECK:   scf.while
// CHECK:     arith.cmpi ult, %{{.*}}, %c1 : index
// CHECK:   scf.while
// CHECK:     arith.cmpi ult, %{{.*}}, %c3 : index
// CHECK:   scf.for
// CHECK:     arith.addi %{{.*}}, %c-1_i64 : i64
// CHECK: memref.realloc
func.func @columns(%b: !b) -> !s {
  %s = sparse_array.slice %b[:, 1:3] : !b -> !s
  return %s : !s
}

// Rows 1..2 of CSR: located (a full level), no search.
// CHECK-LABEL: func.func @rows(
// CHECK-NOT: scf.while
// CHECK: sparse_array.assemble
func.func @rows(%b: !b) -> !r {
  %s = sparse_array.slice %b[1:3] : !b -> !r
  return %s : !r
}

// COO: the outermost, non-unique level found by bisection (its runs kept
// whole), the singleton level's coordinates copied.
// CHECK-LABEL: func.func @coo_rows(
// CHECK: scf.while
// CHECK: scf.while
// CHECK: sparse_array.assemble
func.func @coo_rows(%b: !coo) -> !coo2 {
  %s = sparse_array.slice %b[1:3] : !coo -> !coo2
  return %s : !coo2
}

// CHECK-LABEL: func.func @coo_vstack(
// CHECK-NOT: sparse_array.kernel
// CHECK: sparse_array.assemble
func.func @coo_vstack(%a: !coo, %b: !coo) -> !coo8 {
  %v = sparse_array.concat %a, %b dim 0 : !coo, !coo -> !coo8
  return %v : !coo8
}

// DCSR hstack: the row level is merged by coordinate (each row once, the
// parts' coordinates compared), and below a merged row each part's segment
// follows the other's, B's columns moved by 5.
// CHECK-LABEL: func.func @dcsr_hstack(
// CHECK-NOT: sparse_array.kernel
// CHECK: scf.while
// CHECK:   arith.minui
// CHECK:   %[[LEAST:.*]] = arith.minui
// CHECK:   %[[ROW:.*]] = arith.index_castui %[[LEAST]] : index to i64
// CHECK:   memref.store %[[ROW]]
// CHECK:   scf.for
// CHECK:     memref.load
// CHECK-NOT: arith.addi %{{.*}}, %c5_i64
// CHECK:     memref.store
// CHECK:   scf.for
// CHECK:     %[[C:.*]] = memref.load %{{.*}} : memref<?xi64>
// CHECK:     arith.addi %[[C]], %c5_i64 : i64
// CHECK: sparse_array.assemble
!dcsr = !sparse_array.array<4x5xf64, #sparse_array.format<[compressed, compressed]>>
!dcsrh = !sparse_array.array<4x10xf64, #sparse_array.format<[compressed, compressed]>>
func.func @dcsr_hstack(%a: !dcsr, %b: !dcsr) -> !dcsrh {
  %h = sparse_array.concat %a, %b dim 1 : !dcsr, !dcsr -> !dcsrh
  return %h : !dcsrh
}

// COO hstack: the rows (non-unique, right above the cut) merged by
// coordinate, each part's run of a row copied with its columns entry by
// entry in the loop that reads the next row coordinate to find the run's
// end (no separate scan, no loop per buffer); the second part's columns
// shifted by 5.
// CHECK-LABEL: func.func @coo_hstack(
// CHECK-NOT: sparse_array.kernel
// CHECK: scf.while
// CHECK:   arith.minui
// CHECK:   %[[LEAST:.*]] = arith.minui
// CHECK:   scf.if
// CHECK:     scf.while (%[[T:.*]] = %c0,
// CHECK:       memref.load %[[ROWS:.*]][%{{.*}}] : memref<?xi64>
// CHECK:       memref.store
// CHECK:       memref.load
// CHECK-NOT:   %c5_i64
// CHECK:       memref.store
// CHECK:       memref.load %{{.*}} : memref<?xf64>
// CHECK:       memref.store
// CHECK:       %[[NEXT:.*]] = arith.addi %[[T]], %c1
// CHECK:       scf.if
// CHECK:         %[[R:.*]] = memref.load %[[ROWS]]
// CHECK:         %[[RI:.*]] = arith.index_castui %[[R]]
// CHECK:         arith.cmpi eq, %[[RI]], %[[LEAST]]
// CHECK:       scf.condition
// CHECK-NOT: scf.for
// CHECK:   scf.if
// CHECK:     scf.while
// CHECK:       arith.addi %{{.*}}, %c5_i64 : i64
// CHECK:       memref.store
// CHECK:       scf.condition
// CHECK-NOT: scf.for
// CHECK: sparse_array.assemble
!cooh = !sparse_array.array<4x10xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
func.func @coo_hstack(%a: !coo, %b: !coo) -> !cooh {
  %h = sparse_array.concat %a, %b dim 1 : !coo, !coo -> !cooh
  return %h : !cooh
}

// Merged rows over a dense cut level: a kernel (a part without the row
// would leave a hole in it).
// CHECK-LABEL: func.func @merged_dense_rows(
// CHECK: sparse_array.kernel
!cd = !sparse_array.array<4x5xf64, #sparse_array.format<[compressed, dense]>>
!cdh = !sparse_array.array<4x10xf64, #sparse_array.format<[compressed, dense]>>
func.func @merged_dense_rows(%a: !cd, %b: !cd) -> !cdh {
  %h = sparse_array.concat %a, %b dim 1 : !cd, !cd -> !cdh
  return %h : !cdh
}

// Dense arrays store every entry: values copied per row, nothing counted,
// the buffer exactly as large as the result.
// CHECK-LABEL: func.func @dense(
// CHECK: memref.alloc() : memref<24xf64>
// CHECK-NOT: arith.cmpi
// CHECK-NOT: change_fill
// CHECK-NOT: memref.realloc
// CHECK: sparse_array.assemble
func.func @dense(%a: !d, %b: !d) -> !d6 {
  %h = sparse_array.concat %a, %b dim 1 : !d, !d -> !d6
  return %h : !d6
}

// Another fill in a part: every point of its range is a value of the
// result, so its stored range is not the result's: one kernel, the part
// read with a range marker (ConcatToKernel), no change_fill, no moves.
// CHECK-LABEL: func.func @other_fill(
// CHECK-NOT: sparse_array.change_fill
// CHECK: sparse_array.kernel
// CHECK-NOT: sparse_array.change_fill
// CHECK: return
!b1 = !sparse_array.array<4x5xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>>
func.func @other_fill(%a: !a, %b: !b1) -> !h {
  %h = sparse_array.concat %a, %b dim 1 : !a, !b1 -> !h
  return %h : !h
}

// A part stored otherwise (CSC): a kernel.
// CHECK-LABEL: func.func @other_format(
// CHECK-NOT: sparse_array.concat
// CHECK: sparse_array.kernel
!bc = !sparse_array.array<4x5xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
func.func @other_format(%a: !a, %b: !bc) -> !h {
  %h = sparse_array.concat %a, %b dim 1 : !a, !bc -> !h
  return %h : !h
}
