// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --split-input-file -verify-diagnostics --mlir-print-local-scope | FileCheck %s
// Output fill values and formats left to inference (infer_fill,
// infer_format): the derivation decides them, and the values that consume
// the result follow.

#f1 = #sparse_array.format<[dense, compressed], fill = 1.0 : f64>
#f2 = #sparse_array.format<[dense, compressed], fill = 2.0 : f64>
!a = !sparse_array.array<4x4xf64, #f1>
!b = !sparse_array.array<4x4xf64, #f2>
sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
// add(A_1, B_2) has fill 1 + 2 = 3: the result type says so, and so does
// the signature of this (uncalled) function.
// CHECK-LABEL: func.func @infer_fill_of_sum(
// CHECK-SAME: -> !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed], fill = 3.0 : f64>>
// CHECK: sparse_array.kernel
// CHECK-SAME: -> !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed], fill = 3.0 : f64>>
// CHECK-SAME: algebra = #sparse_array.algebra<union(0, 1)>, fill = #sparse_array.scalar<3.0 : f64>
// CHECK-NOT: infer_fill
func.func @infer_fill_of_sum(%a: !a, %b: !b) -> !a {
  %s = sparse_array.map @add(%a, %b) {infer_fill} : (!a, !b) -> !a
  return %s : !a
}

// Users that take any array (print, dim, dealloc: the frees that
// sparse-array-free-temporaries adds) follow the inferred type.
// CHECK-LABEL: func.func @infer_fill_printed_and_freed(
// CHECK: %[[S:.*]] = sparse_array.kernel
// CHECK-SAME: fill = 3.0 : f64>>
// CHECK: sparse_array.print %[[S]] : !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed], fill = 3.0 : f64>>
// CHECK: sparse_array.dealloc %[[S]] : !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed], fill = 3.0 : f64>>
func.func @infer_fill_printed_and_freed(%a: !a, %b: !b) {
  %s = sparse_array.map @add(%a, %b) {infer_fill} : (!a, !b) -> !a
  sparse_array.print %s : !a
  sparse_array.dealloc %s : !a
  return
}

// -----

#sv = #sparse_array.format<[compressed]>
!v = !sparse_array.array<8xi64, #sv>
sparse_array.func @ipow(%x: i64, %n: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %c1) -> i64 : i64 {
    %m = arith.muli %acc, %x : i64
    scf.yield %m : i64
  }
  sparse_array.yield %r : i64
}
sparse_array.func @mul(%x: i64, %y: i64) -> i64
    attributes {commutative, annihilator = #sparse_array.annihilator<0 : i64>,
                identity = #sparse_array.identity<1 : i64>} {
  %r = arith.muli %x, %y : i64
  sparse_array.yield %r : i64
}
// x^0 = 1 outside x ∪ n: the inferred fill 1 flows into the consuming
// kernels, whose derivation then uses it: mul(p_1, y_0) is annihilated by
// y's fill 0, so only y is iterated.
// The result is used twice, so it is not fused away.
// CHECK-LABEL: func.func @inferred_fill_flows_to_consumers(
// CHECK: %[[P:.*]] = sparse_array.kernel {{.*}} -> !sparse_array.array<8xi64, #sparse_array.format<[compressed], fill = 1 : i64>>
// CHECK-SAME: algebra = #sparse_array.algebra<union(0, 1)>
// CHECK: sparse_array.kernel ins(%[[P]], %{{.*}} : !sparse_array.array<8xi64, #sparse_array.format<[compressed], fill = 1 : i64>>,
// CHECK-SAME: algebra = #sparse_array.algebra<1>, fill = #sparse_array.scalar<0 : i64>
// CHECK: ^bb0(%{{.*}}: index, %{{.*}}: !sparse_array.array<8xi64, #sparse_array.format<[compressed], fill = 1 : i64>>
func.func @inferred_fill_flows_to_consumers(%x: !v, %n: !v, %y: !v) -> (!v, !v) {
  %p = sparse_array.map @ipow(%x, %n) {infer_fill} : (!v, !v) -> !v
  %r = sparse_array.map @mul(%p, %y) : (!v, !v) -> !v
  %q = sparse_array.map @mul(%p, %y) : (!v, !v) -> !v
  return %r, %q : !v, !v
}

// -----

!v = !sparse_array.array<8xi32, #sparse_array.format<[compressed]>>
sparse_array.func @sdiv(%x: i32, %y: i32) -> i32 {
  %r = arith.divsi %x, %y : i32
  sparse_array.yield %r : i32
}
func.func @fill_cannot_be_inferred(%a: !v, %b: !v) -> !v {
  // expected-error@+1 {{cannot infer the result's fill (universe); declare it in the result type}}
  %q = sparse_array.map @sdiv(%a, %b) {infer_fill} : (!v, !v) -> !v
  return %q : !v
}

// -----

#f1 = #sparse_array.format<[compressed], fill = 1.0 : f64>
!v1 = !sparse_array.array<8xf64, #f1>
!v0 = !sparse_array.array<8xf64, #sparse_array.format<[compressed]>>
sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
func.func @called_function(%a: !v1, %b: !v0) -> !v0 {
  // expected-error@+1 {{cannot infer the result's type: it is used by 'func.return', which needs it declared}}
  %s = sparse_array.map @add(%a, %b) {infer_fill} : (!v1, !v0) -> !v0
  return %s : !v0
}
func.func @caller(%a: !v1, %b: !v0) -> !v0 {
  %r = func.call @called_function(%a, %b) : (!v1, !v0) -> !v0
  return %r : !v0
}

// -----

#csc = #sparse_array.format<[dense, compressed], order = [1, 0], crd_width = 32>
!m = !sparse_array.array<4x4xf64, #csc>
!d = !sparse_array.array<4x4xf64>
sparse_array.func @mul(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @sdiv(%x: f64, %y: f64) -> f64 {
  %r = arith.divf %x, %y : f64
  sparse_array.yield %r : f64
}
// infer_format: the layout of an input indexed like the result (CSC here).
// CHECK-LABEL: func.func @format_like_input(
// CHECK-SAME: -> !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed], order = [1, 0], crd_width = 32, fill = 0.0 : f64>>
func.func @format_like_input(%a: !m, %b: !m) -> !d {
  %p = sparse_array.map @mul(%a, %b) {infer_format} : (!m, !m) -> !d
  return %p : !d
}
// 0.0 / 0.0 is NaN, not the declared fill 0: every point is computed, so
// the result is stored dense.
// CHECK-LABEL: func.func @format_dense_for_universe(
// CHECK-SAME: -> !sparse_array.array<4x4xf64>
func.func @format_dense_for_universe(%a: !m, %b: !m) -> !m {
  %q = sparse_array.map @sdiv(%a, %b) {infer_format} : (!m, !m) -> !m
  return %q : !m
}
