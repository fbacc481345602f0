// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices --sparse-array-lower-iterators --canonicalize --cse | FileCheck %s
// Sliced accesses lower through the slice iterator (seed 001 Fig. 21): a
// stored level seeks the start by bisection, skips coordinates off the
// stride, and runs out at the stop; a dense level is located at s + r*x.

!cv = !sparse_array.array<10xf64, #sparse_array.format<[compressed]>>
!cv4 = !sparse_array.array<4xf64, #sparse_array.format<[compressed]>>
!dv = !sparse_array.array<10xf64>
!dv4 = !sparse_array.array<4xf64>

sparse_array.func @mul(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}

// CHECK-LABEL: func.func @sliced_copy(
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C9:.*]] = arith.constant 9 : index
// CHECK: %[[CRD:.*]] = sparse_array.coordinates
//   Seek: a lower bound of 1 by bisection.
// CHECK: %[[SEEK:.*]]:2 = scf.while
// CHECK:   arith.shrui
// CHECK:   arith.cmpi ult, %{{.*}}, %[[C1]] : index
//   Skip what lies below 1 or off the stride 2 (up to the stop 9; signed:
//   a padded window may start before 0).
// CHECK: %[[START:.*]] = scf.while (%{{.*}} = %[[SEEK]]#0)
// CHECK:   arith.remui %{{.*}}, %[[C2]] : index
// CHECK:   arith.cmpi slt, %{{.*}}, %[[C9]] : index
//   The loop over the slice runs while a coordinate below 9 is left, at
//   x = (c - 1) / 2.
// CHECK: scf.while (%{{.*}} = %[[START]],
// CHECK:   arith.cmpi slt, %{{.*}}, %[[C9]] : index
// CHECK: } do {
// CHECK:   %[[SHIFT:.*]] = arith.subi %{{.*}}, %[[C1]] : index
// CHECK:   arith.divui %[[SHIFT]], %[[C2]] : index
func.func @sliced_copy(%x: !cv) -> !cv4 {
  %r = sparse_array.kernel ins(%x : !cv) -> !cv4 {
  ^bb0(%i: index, %a: !cv):
    %ai = sparse_array.access %a[%i(1:9:2)] : !cv
    sparse_array.yield %ai : f64
  }
  return %r : !cv4
}

// The dense operand is never iterated: read at 2 + 2*x. (f64 mul is exact:
// 0 * inf is NaN, so the product is a union over every coordinate, a
// counted loop the sliced sparse operand follows.)
// CHECK-LABEL: func.func @sliced_dense(
// CHECK: scf.for %[[X:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[TWICE:.*]] = arith.muli %[[X]], %[[C2:.*]] : index
// CHECK: %[[AT:.*]] = arith.addi %[[TWICE]], %[[C2]] : index
// CHECK: memref.load %{{.*}}[%[[AT]]] : memref<?xf64>
func.func @sliced_dense(%d: !dv, %x: !cv) -> !dv4 {
  %r = sparse_array.kernel ins(%d, %x : !dv, !cv) -> !dv4 {
  ^bb0(%i: index, %a: !dv, %b: !cv):
    %ai = sparse_array.access %a[%i(2:10:2)] : !dv
    %bi = sparse_array.access %b[%i(0:8:2)] : !cv
    %s = sparse_array.apply @mul(%ai, %bi) : (f64, f64) -> f64
    sparse_array.yield %s : f64
  }
  return %r : !dv4
}

// A negative step reads the stored level backwards (a reflected level
// iterator, K = 2^62): the segment [b, e) becomes [K - e, K - b), position
// q reads stored position K - 1 - q and coordinate c reads K - c, so the
// slice iterator seeks K - 8 by bisection and runs to K - 0 as for a positive
// step; x = (8 - c) / 2, and the value is loaded at the stored position.
// CHECK-LABEL: func.func @reversed_copy(
// CHECK-DAG: %[[K1:.*]] = arith.constant 4611686018427387903 : index
// CHECK-DAG: %[[K8:.*]] = arith.constant 4611686018427387896 : index
// CHECK-DAG: %[[K:.*]] = arith.constant 4611686018427387904 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[CRD:.*]] = sparse_array.coordinates
// CHECK-DAG: %[[VAL:.*]] = sparse_array.values
// CHECK: %[[LO:.*]] = arith.subi %[[K]], %{{.*}} : index
// CHECK: %[[HI:.*]] = arith.subi %[[K]], %{{.*}} : index
// CHECK: scf.while (%{{.*}} = %[[LO]], %{{.*}} = %[[HI]])
// CHECK:   %[[MID:.*]] = arith.shrui
// CHECK:   %[[P:.*]] = arith.subi %[[K1]], %[[MID]] : index
// CHECK:   memref.load %[[CRD]][%[[P]]]
// CHECK:   arith.cmpi ult, %{{.*}}, %[[K8]] : index
//   Skip what lies above 8 or off the stride, then the loop.
// CHECK: scf.while
// CHECK: scf.while
// CHECK: } do {
// CHECK:   %[[STORED:.*]] = arith.subi %[[K1]], %{{.*}} : index
// CHECK:   %[[C:.*]] = arith.index_castui
// CHECK:   %[[DIST:.*]] = arith.subi %[[C8]], %[[C]] : index
// CHECK:   arith.divui %[[DIST]], %{{.*}} : index
// CHECK:   memref.load %[[VAL]][%[[STORED]]] : memref<?xf64>
func.func @reversed_copy(%x: !cv) -> !cv4 {
  %r = sparse_array.kernel ins(%x : !cv) -> !cv4 {
  ^bb0(%i: index, %a: !cv):
    %ai = sparse_array.access %a[%i(8:0:-2)] : !cv
    sparse_array.yield %ai : f64
  }
  return %r : !cv4
}
