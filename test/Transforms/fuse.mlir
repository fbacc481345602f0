// RUN: sa-opt %s --sparse-array-fuse --split-input-file | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --split-input-file | FileCheck %s --check-prefix=DERIVED
// Array-level ops become kernels; a chain of kernels becomes one (no
// temporary arrays, seed 000 §8.2.2).

#sv = #sparse_array.format<[dense, compressed], fill = 0 : i1>
!m = !sparse_array.array<?x?xi1, #sv>
sparse_array.func @xor(%x: i1, %y: i1) -> i1
    attributes {commutative,
                algebra = #sparse_array.algebra<intersect(union(0, 1), complement(intersect(0, 1))),
                                                fills = [0 : i1, 0 : i1]>} {
  %r = arith.xori %x, %y : i1
  sparse_array.yield %r : i1
}
sparse_array.func @and(%x: i1, %y: i1) -> i1
    attributes {commutative, annihilator = #sparse_array.annihilator<0 : i1>} {
  %r = arith.andi %x, %y : i1
  sparse_array.yield %r : i1
}

// and(xor(A, B), C): one kernel over A, B, C.
// CHECK-LABEL: func.func @fused_and_of_xor(
// CHECK-SAME: %[[A:[^:]*]]: {{.*}}, %[[B:[^:]*]]: {{.*}}, %[[C:[^:]*]]: {{.*}})
// CHECK: sparse_array.kernel ins(%[[A]], %[[B]], %[[C]] :
// CHECK: ^bb0(%[[I:[^:]*]]: index, %[[J:[^:]*]]: index, %[[AA:[^:]*]]: {{.*}}, %[[BA:[^:]*]]: {{.*}}, %[[CA:[^:]*]]: {{.*}}):
// CHECK-DAG: %[[AV:.*]] = sparse_array.access %[[AA]][%[[I]], %[[J]]]
// CHECK-DAG: %[[BV:.*]] = sparse_array.access %[[BA]][%[[I]], %[[J]]]
// CHECK: %[[X:.*]] = sparse_array.apply @xor(%[[AV]], %[[BV]])
// CHECK: %[[CV:.*]] = sparse_array.access %[[CA]][%[[I]], %[[J]]]
// CHECK: %[[Y:.*]] = sparse_array.apply @and(%[[X]], %[[CV]])
// CHECK: sparse_array.yield %[[Y]]
// CHECK-NOT: sparse_array.kernel
// CHECK-NOT: sparse_array.map
// DERIVED-LABEL: func.func @fused_and_of_xor(
// DERIVED: algebra = #sparse_array.algebra<intersect(union(0, 1), union(complement(0), complement(1)), 2)>, fill = #sparse_array.scalar<0 : i1>
func.func @fused_and_of_xor(%a: !m, %b: !m, %c: !m) -> !m {
  %x = sparse_array.map @xor(%a, %b) : (!m, !m) -> !m
  %y = sparse_array.map @and(%x, %c) : (!m, !m) -> !m
  return %y : !m
}

// An array passed twice and read alike is one input read twice: its leaf
// repeats in the algebra: xor(A, A) is empty, and so is and(xor(A, A), B).
// CHECK-LABEL: func.func @repeated_input(
// CHECK-SAME: %[[A:[^:]*]]: {{.*}}, %[[B:[^:]*]]: {{.*}})
// CHECK: sparse_array.kernel ins(%[[A]], %[[B]] :
// CHECK: ^bb0(%[[I:[^:]*]]: index, %[[J:[^:]*]]: index, %[[AA:[^:]*]]: {{.*}}, %[[BA:[^:]*]]: {{.*}}):
// CHECK: %[[AV:.*]] = sparse_array.access %[[AA]][%[[I]], %[[J]]]
// CHECK: %[[AV2:.*]] = sparse_array.access %[[AA]][%[[I]], %[[J]]]
// CHECK: sparse_array.apply @xor(%[[AV]], %[[AV2]])
// DERIVED-LABEL: func.func @repeated_input(
// DERIVED: algebra = #sparse_array.algebra<empty>, fill = #sparse_array.scalar<0 : i1>
func.func @repeated_input(%a: !m, %b: !m) -> !m {
  %x = sparse_array.map @xor(%a, %a) : (!m, !m) -> !m
  %y = sparse_array.map @and(%x, %b) : (!m, !m) -> !m
  return %y : !m
}

// -----

sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
// NumPy broadcasting: a 4x1 column against a row vector of 8: the column
// reads coordinate 0 along j, the vector has no i.
// CHECK-LABEL: func.func @broadcast(
// CHECK: ^bb0(%[[I:[^:]*]]: index, %[[J:[^:]*]]: index, %[[COL:[^:]*]]: {{.*}}, %[[ROW:[^:]*]]: {{.*}}):
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: sparse_array.access %[[COL]][%[[I]], %[[ZERO]]]
// CHECK: sparse_array.access %[[ROW]][%[[J]]]
func.func @broadcast(%col: !sparse_array.array<4x1xf64>, %row: !sparse_array.array<8xf64>) -> !sparse_array.array<4x8xf64> {
  %r = sparse_array.map @add(%col, %row)
      : (!sparse_array.array<4x1xf64>, !sparse_array.array<8xf64>) -> !sparse_array.array<4x8xf64>
  return %r : !sparse_array.array<4x8xf64>
}

// A dynamic dimension is never broadcast: it is indexed like the result's.
// CHECK-LABEL: func.func @no_broadcast_of_dynamic(
// CHECK: ^bb0(%[[I:[^:]*]]: index, %[[J:[^:]*]]: index, %[[M:[^:]*]]: {{.*}}, %[[V:[^:]*]]: {{.*}}):
// CHECK-NOT: arith.constant
// CHECK: sparse_array.access %[[M]][%[[I]], %[[J]]]
// CHECK: sparse_array.access %[[V]][%[[J]]]
func.func @no_broadcast_of_dynamic(%m: !sparse_array.array<4x?xf64>, %v: !sparse_array.array<?xf64>) -> !sparse_array.array<4x8xf64> {
  %r = sparse_array.map @add(%m, %v)
      : (!sparse_array.array<4x?xf64>, !sparse_array.array<?xf64>) -> !sparse_array.array<4x8xf64>
  return %r : !sparse_array.array<4x8xf64>
}

// -----

sparse_array.func @max(%x: f64, %y: f64) -> f64
    attributes {commutative, idempotent, identity = #sparse_array.identity<-inf : f64>} {
  %r = arith.maximumf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
// Reduction, then an element-wise map over its result: y(i) = max_j A(i,j) + b(i).
// CHECK-LABEL: func.func @reduce_then_map(
// CHECK: sparse_array.kernel
// CHECK: ^bb0(%[[I:[^:]*]]: index, %[[J:[^:]*]]: index,
// CHECK: sparse_array.reduce_over [%[[J]]] %{{.*}} with @max
// CHECK: sparse_array.apply @add
// CHECK-NOT: sparse_array.kernel
func.func @reduce_then_map(%A: !sparse_array.array<4x8xf64>, %b: !sparse_array.array<4xf64>) -> !sparse_array.array<4xf64> {
  %m = sparse_array.reduce @max %A dims [1] : !sparse_array.array<4x8xf64> -> !sparse_array.array<4xf64>
  %y = sparse_array.map @add(%m, %b) : (!sparse_array.array<4xf64>, !sparse_array.array<4xf64>) -> !sparse_array.array<4xf64>
  return %y : !sparse_array.array<4xf64>
}

// Column sums of CSR (the reduced row stored above the kept column) scatter
// into their result only as a kernel of their own: the map after them
// stays a second kernel (fused, the input would be converted to CSC).
// Row sums of CSR fuse with it.
// CHECK-LABEL: func.func @column_sums_then_map(
// CHECK: sparse_array.kernel
// CHECK: sparse_array.reduce_over
// CHECK-NOT: sparse_array.apply
// CHECK: sparse_array.kernel
// CHECK: sparse_array.apply @add
// CHECK-LABEL: func.func @row_sums_then_map(
// CHECK: sparse_array.kernel
// CHECK: sparse_array.reduce_over
// CHECK: sparse_array.apply @add
// CHECK-NOT: sparse_array.kernel
// CHECK: return
func.func @column_sums_then_map(%A: !sparse_array.array<4x8xf64, #sparse_array.format<[dense, compressed]>>, %b: !sparse_array.array<8xf64>) -> !sparse_array.array<8xf64> {
  %m = sparse_array.reduce @add %A dims [0] : !sparse_array.array<4x8xf64, #sparse_array.format<[dense, compressed]>> -> !sparse_array.array<8xf64>
  %y = sparse_array.map @add(%m, %b) : (!sparse_array.array<8xf64>, !sparse_array.array<8xf64>) -> !sparse_array.array<8xf64>
  return %y : !sparse_array.array<8xf64>
}
func.func @row_sums_then_map(%A: !sparse_array.array<4x8xf64, #sparse_array.format<[dense, compressed]>>, %b: !sparse_array.array<4xf64>) -> !sparse_array.array<4xf64> {
  %m = sparse_array.reduce @add %A dims [1] : !sparse_array.array<4x8xf64, #sparse_array.format<[dense, compressed]>> -> !sparse_array.array<4xf64>
  %y = sparse_array.map @add(%m, %b) : (!sparse_array.array<4xf64>, !sparse_array.array<4xf64>) -> !sparse_array.array<4xf64>
  return %y : !sparse_array.array<4xf64>
}

// Reducing the middle dimension of a 3-D array keeps the others in order.
// CHECK-LABEL: func.func @reduce_middle(
// CHECK: ^bb0(%[[I:[^:]*]]: index, %[[K:[^:]*]]: index, %[[J:[^:]*]]: index, %[[T:[^:]*]]: {{.*}}):
// CHECK: %[[V:.*]] = sparse_array.access %[[T]][%[[I]], %[[J]], %[[K]]]
// CHECK: sparse_array.reduce_over [%[[J]]] %[[V]] with @add
func.func @reduce_middle(%t: !sparse_array.array<2x3x4xf64>) -> !sparse_array.array<2x4xf64> {
  %r = sparse_array.reduce @add %t dims [1] : !sparse_array.array<2x3x4xf64> -> !sparse_array.array<2x4xf64>
  return %r : !sparse_array.array<2x4xf64>
}

// -----

sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
// A result used twice stays materialized (fusing would compute it twice).
// CHECK-LABEL: func.func @negative_shared_producer(
// CHECK-COUNT-3: sparse_array.kernel
func.func @negative_shared_producer(%a: !sparse_array.array<4xf64>) -> (!sparse_array.array<4xf64>, !sparse_array.array<4xf64>) {
  %s = sparse_array.map @add(%a, %a) : (!sparse_array.array<4xf64>, !sparse_array.array<4xf64>) -> !sparse_array.array<4xf64>
  %t = sparse_array.map @add(%s, %a) : (!sparse_array.array<4xf64>, !sparse_array.array<4xf64>) -> !sparse_array.array<4xf64>
  %u = sparse_array.map @add(%s, %a) : (!sparse_array.array<4xf64>, !sparse_array.array<4xf64>) -> !sparse_array.array<4xf64>
  return %t, %u : !sparse_array.array<4xf64>, !sparse_array.array<4xf64>
}
