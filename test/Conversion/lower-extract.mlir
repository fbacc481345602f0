// RUN: sa-opt %s --sparse-array-lower-extract --canonicalize | FileCheck %s
//
// sparse_array.extract finds its point level by level: located on dense
// levels (in storage order), bisected in the parent's segment on ordered
// stored levels, the levels below read only where the coordinate is found;
// a missing point reads as the fill. Each coordinate is checked against its
// dimension first.

!csr = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], fill = nan : f64>>
!coo = !sparse_array.array<4x5xi64, #sparse_array.format<[compressed(nonunique), singleton], pos_width = 32, crd_width = 32, fill = 42 : i64>>
!dd = !sparse_array.array<4x?xi1, #sparse_array.format<[dense, dense], order = [1, 0]>>

// CHECK-LABEL: func.func @csr(
// CHECK-SAME: %[[A:.*]]: !sparse_array.array<?x?xf64, #{{.*}}>, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK-DAG: %[[NAN:.*]] = arith.constant 0x7FF8000000000000 : f64
// CHECK-DAG: %[[POS:.*]] = sparse_array.positions %[[A]][1]
// CHECK-DAG: %[[CRD:.*]] = sparse_array.coordinates %[[A]][1]
// CHECK: %[[N0:.*]] = sparse_array.dim %[[A]][0]
// CHECK: %[[IN0:.*]] = arith.cmpi ult, %[[I]], %[[N0]]
// CHECK: scf.if %[[IN0]] {
// CHECK: } else {
// CHECK: func.call @sa_rt_index_error(
// CHECK: %[[N1:.*]] = sparse_array.dim %[[A]][1]
// CHECK: arith.cmpi ult, %[[J]], %[[N1]]
// CHECK: func.call @sa_rt_index_error(
// CHECK: %[[NEXT:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK: memref.load %[[POS]][%[[I]]]
// CHECK: memref.load %[[POS]][%[[NEXT]]]
// CHECK: %[[FIRST:.*]]:2 = scf.while
// CHECK: memref.load %[[CRD]]
// CHECK: %[[FOUND:.*]] = scf.if %{{.*}} -> (i1) {
// CHECK: arith.cmpi eq, %{{.*}}, %[[J]] : index
// CHECK: %[[V:.*]] = scf.if %[[FOUND]] -> (f64) {
// CHECK: %[[VALS:.*]] = sparse_array.values %[[A]]
// CHECK: %[[X:.*]] = memref.load %[[VALS]][%[[FIRST]]#0]
// CHECK: scf.yield %[[X]] : f64
// CHECK: } else {
// CHECK: scf.yield %[[NAN]] : f64
// CHECK: return %[[V]] : f64
func.func @csr(%a: !csr, %i: index, %j: index) -> f64 {
  %v = sparse_array.extract %a[%i, %j] : !csr
  return %v : f64
}

// The singleton level is searched within the run of i's positions, and
// only when i is found.
// CHECK-LABEL: func.func @coo(
// CHECK: scf.while
// CHECK: %[[FOUND:.*]] = scf.if %{{.*}} -> (i1) {
// CHECK: scf.if %[[FOUND]] -> (i64) {
// CHECK: scf.while
// CHECK: scf.while
// CHECK: sparse_array.values
// CHECK: } else {
// CHECK: scf.yield %c42_i64 : i64
// CHECK: } else {
// CHECK: scf.yield %c42_i64 : i64
func.func @coo(%a: !coo, %i: index, %j: index) -> i64 {
  %v = sparse_array.extract %a[%i, %j] : !coo
  return %v : i64
}

// Dense levels locate: level 0 stores dimension 1, so the position is
// j * 4 + i; no search.
// CHECK-LABEL: func.func @dense(
// CHECK-SAME: %[[A:.*]]: !sparse_array.array<4x?xi1, #{{.*}}>, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK-NOT: scf.while
// CHECK: %[[R:.*]] = arith.muli %[[J]], %c4 : index
// CHECK: %[[P:.*]] = arith.addi %[[R]], %[[I]] : index
// CHECK: %[[VALS:.*]] = sparse_array.values %[[A]]
// CHECK: memref.load %[[VALS]][%[[P]]]
// CHECK-NOT: scf.while
// CHECK: return
func.func @dense(%a: !dd, %i: index, %j: index) -> i1 {
  %v = sparse_array.extract %a[%i, %j] : !dd
  return %v : i1
}

// Rank 0: the one value.
// CHECK-LABEL: func.func @scalar(
// CHECK: %[[VALS:.*]] = sparse_array.values
// CHECK: memref.load %[[VALS]][%c0]
func.func @scalar(%a: !sparse_array.array<f32>) -> f32 {
  %v = sparse_array.extract %a[] : !sparse_array.array<f32>
  return %v : f32
}
