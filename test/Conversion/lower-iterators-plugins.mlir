// RUN: sa-opt %s --sparse-array-fuse --sparse-array-legalize-formats --sparse-array-derive-algebra --sparse-array-build-lattices --sparse-array-lower-iterators --canonicalize --cse --split-input-file | FileCheck %s
// Level format plugins lower through their own iterators (registered with
// their formats): the loop emitter asks the iterator, never the format.

!ell = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, ellpack]>>
!v = !sparse_array.array<?xf64>
sparse_array.func @neg(%x: f64) -> f64 {
  %r = arith.negf %x : f64
  sparse_array.yield %r : f64
}
// ELL: a row's segment starts at i W and ends at its first padding slot
// (a coordinate not below the extent): the last slot decides whether the
// row is full; otherwise a bisection over the slots.
// CHECK-LABEL: func.func @ell_rows(
// CHECK: %[[W:.*]] = sparse_array.level_buffer %{{.*}}[1] "width"
// CHECK: %[[CRD:.*]] = sparse_array.coordinates %{{.*}}[1]
// CHECK: scf.for %[[I:[a-z0-9]+]] =
// CHECK: %[[WL:.*]] = memref.load %[[W]][%{{.*}}]
// CHECK: %[[WV:.*]] = arith.index_castui %[[WL]]
// CHECK: %[[BEGIN:.*]] = arith.muli %[[I]], %[[WV]]
// CHECK: scf.if
// CHECK: %[[END:.*]] = arith.addi %[[BEGIN]], %[[WV]]
// CHECK: %[[LAST:.*]] = arith.subi %[[END]], %{{.*}}
// CHECK: memref.load %[[CRD]][%[[LAST]]]
// CHECK: arith.cmpi ult
// CHECK: scf.if
// CHECK: scf.yield %[[END]]
// CHECK: scf.while (%{{.*}} = %[[BEGIN]], %{{.*}} = %[[LAST]])
// CHECK: memref.load %[[CRD]]
// CHECK: arith.cmpi ult
func.func @ell_rows(%a: !ell) -> !ell {
  %r = sparse_array.map @neg(%a) : (!ell) -> !ell
  return %r : !ell
}

// -----

!dia = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, diagonal]>>
!v = !sparse_array.array<?xf64>
sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, identity = #sparse_array.identity<0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
// DIA: a row's offsets that land inside the matrix, by two searches over
// the ascending offsets (each skipped when the first or last offset fits);
// the column is the row plus the offset.
// CHECK-LABEL: func.func @dia_row_sums(
// CHECK: %[[OFF:.*]] = sparse_array.level_buffer %{{.*}}[1] "offsets"
// CHECK: scf.for %[[I:[a-z0-9]+]] =
// CHECK: arith.remui %[[I]]
// CHECK: memref.load %[[OFF]]
// CHECK: arith.cmpi slt
// CHECK: scf.while
// CHECK: memref.load %[[OFF]]
// CHECK: arith.cmpi slt
func.func @dia_row_sums(%a: !dia) -> !v {
  %r = sparse_array.reduce @add %a dims [1] : !dia -> !v
  return %r : !v
}
