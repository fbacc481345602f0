// RUN: sa-opt %s --sparse-array-guard-exact-products --split-input-file | FileCheck %s
// Exact f64 matrix products (add_f64 over mul_f64, fills +0.0; issue 20):
// a guard computed per call by kernels at sparse cost, then scf.if between
// a copy declared with identity and annihilator 0.0 (a sparse product) and
// the kernel itself (the exact union plan).

!A = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
sparse_array.func @add_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @mul_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<1.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
// CHECK-LABEL: func.func @exact_matmul(
// CHECK-SAME: %[[A:.*]]: !sparse_array{{.*}}, %[[B:.*]]: !sparse_array
// No inf/NaN stored in A, nor in B:
// CHECK: %[[NFA:.*]] = sparse_array.kernel ins(%[[A]] : {{.*}}) -> !sparse_array.array<i1>
// CHECK: sparse_array.apply @__sa_not_finite_f64
// CHECK: reduce_over [%{{.*}}, %{{.*}}] %{{.*}} with @__sa_any_i1
// CHECK: sparse_array.kernel ins(%[[B]] : {{.*}}) -> !sparse_array.array<i1>
// The most entries a row of A stores (read at [i, k], counted over k):
// CHECK: %[[RA:.*]] = sparse_array.kernel ins(%[[A]] : {{.*}}) -> !sparse_array.array<?xi64>
// CHECK: ^bb0(%[[X:.*]]: index, %[[K:.*]]: index,
// CHECK: sparse_array.access %{{.*}}[%[[X]], %[[K]]]
// CHECK: sparse_array.apply @__sa_stored_f64
// CHECK: reduce_over [%[[K]]] %{{.*}} with @__sa_count_i64
// CHECK: reduce_over [%{{.*}}] %{{.*}} with @__sa_max_i64
// CHECK: sparse_array.dealloc %[[RA]]
// ... and a column of B (read at [k, j]):
// CHECK: sparse_array.kernel ins(%[[B]] : {{.*}}) -> !sparse_array.array<?xi64>
// CHECK: ^bb0(%[[Y:.*]]: index, %[[K2:.*]]: index,
// CHECK: sparse_array.access %{{.*}}[%[[K2]], %[[Y]]]
// CHECK: %[[KEXT:.*]] = sparse_array.dim %[[A]][1]
// CHECK: %[[KI:.*]] = arith.index_cast %[[KEXT]] : index to i64
// CHECK: %[[SUM:.*]] = arith.addi
// CHECK: %[[ROOM:.*]] = arith.cmpi slt, %[[SUM]], %[[KI]] : i64
// CHECK: %[[BAD:.*]] = arith.ori
// CHECK: %[[FINITE:.*]] = arith.xori %[[BAD]], %true
// CHECK: %[[OK:.*]] = arith.andi %[[ROOM]], %[[FINITE]] : i1
// The exact kernel is the fallback: the guard is expected to hold.
// CHECK: %[[LIKELY:.*]] = llvm.intr.expect %[[OK]], %true{{.*}} : i1
// CHECK: %[[C:.*]] = scf.if %[[LIKELY]] -> (!sparse_array
// CHECK: sparse_array.apply @__sa_mul_f64_finite
// CHECK: reduce_over [%{{.*}}] %{{.*}} with @__sa_add_f64_from_zero : f64
// CHECK: } else {
// CHECK: sparse_array.apply @mul_f64
// CHECK: reduce_over [%{{.*}}] %{{.*}} with @add_f64 : f64
// CHECK: return %[[C]]
// The helpers, once:
// CHECK: sparse_array.func @__sa_add_f64_from_zero(
// CHECK-SAME: identity = #sparse_array.identity<0.0 : f64>
// CHECK: sparse_array.func @__sa_mul_f64_finite(
// CHECK-SAME: annihilator = #sparse_array.annihilator<0.0 : f64>
func.func @exact_matmul(%a: !A, %b: !A) -> !A {
  %r = sparse_array.kernel ins(%a, %b : !A, !A) -> !A {
  ^bb0(%i: index, %j: index, %k: index, %P: !A, %Q: !A):
    %p = sparse_array.access %P[%i, %k] : !A
    %q = sparse_array.access %Q[%k, %j] : !A
    %pq = sparse_array.apply @mul_f64(%p, %q) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%k] %pq with @add_f64 : f64
    sparse_array.yield %s : f64
  }
  return %r : !A
}

// -----

// Not guarded: a declared annihilator (already a sparse product), a fill
// other than +0.0 (-0.0 products would not be signed zeros of one kind),
// a result fill other than +0.0.
!A = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
!N = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], fill = -0.0 : f64>>
!R = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>>
sparse_array.func @add_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @mul_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<1.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @fmul(%x: f64, %y: f64) -> f64
    attributes {commutative, annihilator = #sparse_array.annihilator<0.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
// CHECK-LABEL: func.func @not_guarded(
// CHECK-NOT: scf.if
// CHECK-NOT: __sa_
// CHECK: return
// CHECK-NOT: sparse_array.func @__sa_
func.func @not_guarded(%a: !A, %b: !A, %n: !N) -> (!A, !A, !R) {
  %r1 = sparse_array.kernel ins(%a, %b : !A, !A) -> !A {
  ^bb0(%i: index, %j: index, %k: index, %P: !A, %Q: !A):
    %p = sparse_array.access %P[%i, %k] : !A
    %q = sparse_array.access %Q[%k, %j] : !A
    %pq = sparse_array.apply @fmul(%p, %q) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%k] %pq with @add_f64 : f64
    sparse_array.yield %s : f64
  }
  %r2 = sparse_array.kernel ins(%n, %b : !N, !A) -> !A {
  ^bb0(%i: index, %j: index, %k: index, %P: !N, %Q: !A):
    %p = sparse_array.access %P[%i, %k] : !N
    %q = sparse_array.access %Q[%k, %j] : !A
    %pq = sparse_array.apply @mul_f64(%p, %q) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%k] %pq with @add_f64 : f64
    sparse_array.yield %s : f64
  }
  %r3 = sparse_array.kernel ins(%a, %b : !A, !A) -> !R {
  ^bb0(%i: index, %j: index, %k: index, %P: !A, %Q: !A):
    %p = sparse_array.access %P[%i, %k] : !A
    %q = sparse_array.access %Q[%k, %j] : !A
    %pq = sparse_array.apply @mul_f64(%p, %q) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%k] %pq with @add_f64 : f64
    sparse_array.yield %s : f64
  }
  return %r1, %r2, %r3 : !A, !A, !R
}

// -----

// A matrix times a sparse vector (and a sparse vector times a matrix):
// the same guard, a vector's stored entries counted in place of the most a
// column stores (every row needs a k stored in neither: its +0.0 term).
// With a dense vector the exact plan is sparse already: not guarded.
!A = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
!V = !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
!D = !sparse_array.array<?xf64>
sparse_array.func @add_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @mul_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<1.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
// CHECK-LABEL: func.func @exact_spmv(
// CHECK-SAME: %[[A:.*]]: !sparse_array{{.*}}, %[[V:.*]]: !sparse_array
// CHECK: sparse_array.kernel ins(%[[A]] : {{.*}}) -> !sparse_array.array<i1>
// CHECK: sparse_array.kernel ins(%[[V]] : {{.*}}) -> !sparse_array.array<i1>
// CHECK: %[[RA:.*]] = sparse_array.kernel ins(%[[A]] : {{.*}}) -> !sparse_array.array<?xi64>
// CHECK: sparse_array.dealloc %[[RA]]
// CHECK: %[[NV:.*]] = sparse_array.kernel ins(%[[V]] : {{.*}}) -> !sparse_array.array<i64>
// CHECK: ^bb0(%[[K:.*]]: index,
// CHECK: sparse_array.apply @__sa_stored_f64
// CHECK: reduce_over [%[[K]]] %{{.*}} with @__sa_count_i64
// CHECK: %[[KEXT:.*]] = sparse_array.dim %[[A]][1]
// CHECK: arith.cmpi slt
// CHECK: %[[OK:.*]] = arith.andi
// CHECK: %[[LIKELY:.*]] = llvm.intr.expect %[[OK]], %true{{.*}} : i1
// CHECK: %[[Y:.*]] = scf.if %[[LIKELY]] -> (!sparse_array
// CHECK: sparse_array.apply @__sa_mul_f64_finite
// CHECK: reduce_over [%{{.*}}] %{{.*}} with @__sa_add_f64_from_zero : f64
// CHECK: } else {
// CHECK: reduce_over [%{{.*}}] %{{.*}} with @add_f64 : f64
// CHECK: return %[[Y]]
func.func @exact_spmv(%a: !A, %v: !V) -> !D {
  %r = sparse_array.kernel ins(%a, %v : !A, !V) -> !D {
  ^bb0(%i: index, %k: index, %P: !A, %X: !V):
    %p = sparse_array.access %P[%i, %k] : !A
    %x = sparse_array.access %X[%k] : !V
    %px = sparse_array.apply @mul_f64(%p, %x) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%k] %px with @add_f64 : f64
    sparse_array.yield %s : f64
  }
  return %r : !D
}
// CHECK-LABEL: func.func @exact_vxm(
// CHECK: %[[RA:.*]] = sparse_array.kernel ins(%{{.*}} : {{.*}}) -> !sparse_array.array<?xi64>
// CHECK: sparse_array.access %{{.*}}[%[[KK:.*]], %{{.*}}]
// CHECK: reduce_over [%[[KK]]]
// CHECK: scf.if
// CHECK: @__sa_add_f64_from_zero
// CHECK: return
func.func @exact_vxm(%v: !V, %a: !A) -> !V {
  %r = sparse_array.kernel ins(%v, %a : !V, !A) -> !V {
  ^bb0(%j: index, %k: index, %X: !V, %P: !A):
    %x = sparse_array.access %X[%k] : !V
    %p = sparse_array.access %P[%k, %j] : !A
    %xp = sparse_array.apply @mul_f64(%x, %p) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%k] %xp with @add_f64 : f64
    sparse_array.yield %s : f64
  }
  return %r : !V
}
// CHECK-LABEL: func.func @dense_vector_not_guarded(
// CHECK-NOT: scf.if
// CHECK: return
func.func @dense_vector_not_guarded(%a: !A, %v: !D) -> !D {
  %r = sparse_array.kernel ins(%a, %v : !A, !D) -> !D {
  ^bb0(%i: index, %k: index, %P: !A, %X: !D):
    %p = sparse_array.access %P[%i, %k] : !A
    %x = sparse_array.access %X[%k] : !D
    %px = sparse_array.apply @mul_f64(%p, %x) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%k] %px with @add_f64 : f64
    sparse_array.yield %s : f64
  }
  return %r : !D
}
