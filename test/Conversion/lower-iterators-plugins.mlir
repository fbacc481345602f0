// RUN: sa-opt %s --sparse-array-fuse --sparse-array-legalize-formats --sparse-array-derive-algebra --sparse-array-build-lattices --sparse-array-lower-iterators --canonicalize --cse --split-input-file | FileCheck %s
// Level format plugins lower through their own iterators (registered with
// their formats): the loop emitter asks the iterator, never the format.

!ell = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, ellpack]>>
!v = !sparse_array.array<?xf64>
sparse_array.func @neg(%x: f64) -> f64 {
  %r = arith.negf %x : f64
  sparse_array.yield %r : f64
}
// ELL: a row's segment starts at i W (W loaded once, before the loops) and
// ends at its first padding slot (a coordinate not below the extent): the
// last slot decides whether the row is full; otherwise a bisection over the
// slots.
// CHECK-LABEL: func.func @ell_rows(
// CHECK: %[[W:.*]] = sparse_array.level_buffer %{{.*}}[1] "width"
// CHECK: %[[WL:.*]] = memref.load %[[W]][%{{.*}}]
// CHECK: %[[WV:.*]] = arith.index_castui %[[WL]]
// CHECK: %[[CRD:.*]] = sparse_array.coordinates %{{.*}}[1]
// CHECK: scf.for %[[I:[a-z0-9]+]] =
// CHECK-NOT: memref.load %[[W]]
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
// The row's coordinate (its position mod the row count, not a constant
// here) by the extent's reciprocal, computed once before the loops: no
// division in them.
// CHECK-LABEL: func.func @dia_row_sums(
// CHECK: %[[ROWS:.*]] = sparse_array.dim %{{.*}}[0]
// CHECK: %[[R64:.*]] = arith.index_castui %[[ROWS]] : index to i64
// CHECK: %[[NZ:.*]] = arith.maxui %[[R64]]
// CHECK: %[[RECIP:.*]] = arith.divui %{{.*}}, %[[NZ]] : i64
// CHECK: %[[OFF:.*]] = sparse_array.level_buffer %{{.*}}[1] "offsets"
// CHECK: scf.for %[[I:[a-z0-9]+]] =
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: arith.mului_extended %{{.*}}, %[[RECIP]]
// CHECK: memref.load %[[OFF]]
// CHECK: arith.cmpi slt
// CHECK: scf.while
// CHECK: memref.load %[[OFF]]
// CHECK: arith.cmpi slt
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: return
func.func @dia_row_sums(%a: !dia) -> !v {
  %r = sparse_array.reduce @add %a dims [1] : !dia -> !v
  return %r : !v
}

// -----

!dia = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, diagonal]>>
!v = !sparse_array.array<?xf64>
sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, identity = #sparse_array.identity<0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @mul(%x: f64, %y: f64) -> f64
    attributes {commutative, annihilator = #sparse_array.annihilator<0.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}

// DIA SpMV: a column is the row plus offsets[k], k = position - row * K,
// the row from the segment's start by K's reciprocal (computed once, right
// after the offsets): no division inside the loops. An interior row takes
// all K slots after two compares.
// CHECK-LABEL: func.func @dia_matvec(
// CHECK: %[[OFF:.*]] = sparse_array.level_buffer %{{.*}}[1] "offsets"
// CHECK: %[[K:.*]] = memref.dim %[[OFF]]
// CHECK: %[[K64:.*]] = arith.index_castui %[[K]] : index to i64
// CHECK: %[[KNZ:.*]] = arith.maxui %[[K64]]
// CHECK: %[[KR:.*]] = arith.divui %{{.*}}, %[[KNZ]] : i64
// The interior rows (every offset lands inside), also once:
// CHECK: %[[ROWS:.*]]:2 = scf.if
// CHECK: arith.maxsi
// CHECK: scf.for %[[I:[a-z0-9]+]] =
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: %[[GE:.*]] = arith.cmpi sge, %{{.*}}, %[[ROWS]]#0
// CHECK: %[[LT:.*]] = arith.cmpi slt, %{{.*}}, %[[ROWS]]#1
// CHECK: %[[IN:.*]] = arith.andi %[[GE]], %[[LT]]
// CHECK: scf.if %[[IN]]
// CHECK: arith.mului_extended %{{.*}}, %[[KR]]
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: memref.load %[[OFF]]
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: return
func.func @dia_matvec(%a: !dia, %x: !v) -> !v {
  %r = sparse_array.kernel ins(%a, %x : !dia, !v) -> !v {
  ^bb0(%i: index, %j: index, %A: !dia, %X: !v):
    %aij = sparse_array.access %A[%i, %j] : !dia
    %xj = sparse_array.access %X[%j] : !v
    %p = sparse_array.apply @mul(%aij, %xj) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%j] %p with @add : f64
    sparse_array.yield %s : f64
  }
  return %r : !v
}
