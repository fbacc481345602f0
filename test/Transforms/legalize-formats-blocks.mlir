// RUN: sa-opt %s --sparse-array-legalize-formats --split-input-file | FileCheck %s
// Blocked inputs (formats with `blocks`, seed 002's BCSR) in kernels: read
// by their levels through sparse_array.demap, each index variable of a
// blocked dimension split into the block and the place in it; kernels that
// cannot be split convert the input to its unblocked format.

!bsr = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed, dense, dense], order = [0, 1, 0, 1], blocks = [2, 3]>>
!vec = !sparse_array.array<?xf64>
sparse_array.func @mul(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @add(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
// y(i) = sum_k A(i, k) x(k): A's levels at (I, K, i', k'); x at
// linearize(K, k') [3]; the result computed as (?, 2) and taken back as
// (?) with the same values buffer (no copy).
// CHECK-LABEL: func.func @spmv(
// CHECK-SAME: %[[A:[a-z0-9]+]]: !sparse_array.array<?x?xf64, #bsr>
// CHECK-NOT: sparse_array.convert
// CHECK: %[[L:.*]] = sparse_array.demap %[[A]] : !sparse_array.array<?x?xf64, #bsr> -> !sparse_array.array<?x?x2x3xf64, #[[LV:[a-z0-9_]+]]>
// CHECK: %[[R:.*]] = sparse_array.kernel ins(%[[L]], %{{.*}} : !sparse_array.array<?x?x2x3xf64, #[[LV]]>, !sparse_array.array<?xf64>) -> !sparse_array.array<?x2xf64>
// CHECK-NEXT: ^bb0(%[[I:.*]]: index, %[[I2:.*]]: index, %[[K:.*]]: index, %[[K2:.*]]: index,
// CHECK-NEXT: %[[LIN:.*]] = sparse_array.linearize %[[K]], %[[K2]] [3]
// CHECK-NEXT: sparse_array.access %{{.*}}[%[[I]], %[[K]], %[[I2]], %[[K2]]]
// CHECK-NEXT: sparse_array.access %{{.*}}[%[[LIN]]] : !sparse_array.array<?xf64>
// CHECK: sparse_array.reduce_over [%[[K]], %[[K2]]]
// CHECK: %[[V:.*]] = sparse_array.values %[[R]] : !sparse_array.array<?x2xf64> -> memref<?xf64>
// CHECK: %[[D0:.*]] = sparse_array.dim %[[R]][0]
// CHECK: %[[D1:.*]] = sparse_array.dim %[[R]][1]
// CHECK: %[[N:.*]] = arith.muli %[[D0]], %[[D1]]
// CHECK: %[[Y:.*]] = sparse_array.assemble(%[[V]]), (%[[N]]) : memref<?xf64> -> !sparse_array.array<?xf64>
// CHECK-NOT: sparse_array.dealloc
// CHECK: return %[[Y]]
func.func @spmv(%a: !bsr, %x: !vec) -> !vec {
  %y = sparse_array.kernel ins(%a, %x : !bsr, !vec) -> !vec {
  ^bb0(%i: index, %k: index, %A: !bsr, %X: !vec):
    %aik = sparse_array.access %A[%i, %k] : !bsr
    %xk = sparse_array.access %X[%k] : !vec
    %p = sparse_array.apply @mul(%aik, %xk) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%k] %p with @add : f64
    sparse_array.yield %s : f64
  }
  return %y : !vec
}

// -----

// Column-major blocks of 4 x 1 (the column dimension unblocked: one level),
// summed over rows: the reduced variable splits, the result does not.
!bsc = !sparse_array.array<8x5xf64, #sparse_array.format<[dense, compressed, dense], order = [1, 0, 0], blocks = [4, 1]>>
!vec = !sparse_array.array<5xf64>
sparse_array.func @add(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
// CHECK-LABEL: func.func @column_sums(
// CHECK: %[[L:.*]] = sparse_array.demap %{{.*}} -> !sparse_array.array<5x2x4xf64, #{{.*}}>
// CHECK: %[[R:.*]] = sparse_array.kernel ins(%[[L]] : {{.*}}) -> !sparse_array.array<5xf64>
// CHECK-NEXT: ^bb0(%[[J:.*]]: index, %[[I:.*]]: index, %[[I2:.*]]: index,
// CHECK-NEXT: sparse_array.access %{{.*}}[%[[J]], %[[I]], %[[I2]]]
// CHECK: sparse_array.reduce_over [%[[I]], %[[I2]]]
// CHECK-NOT: sparse_array.assemble
// CHECK: return %[[R]]
func.func @column_sums(%a: !bsc) -> !vec {
  %y = sparse_array.kernel ins(%a : !bsc) -> !vec {
  ^bb0(%j: index, %i: index, %A: !bsc):
    %aij = sparse_array.access %A[%i, %j] : !bsc
    %s = sparse_array.reduce_over [%i] %aij with @add : f64
    sparse_array.yield %s : f64
  }
  return %y : !vec
}

// -----

// A sparse result indexed by a blocked variable cannot be taken back
// without moving entries: the input is converted to its unblocked format
// (the block levels' formats, [dense, compressed]) and freed after.
!bsr = !sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed, dense, dense], order = [0, 1, 0, 1], blocks = [2, 3]>>
!csr = !sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed]>>
sparse_array.func @neg(%x: f64) -> f64 {
  %r = arith.negf %x : f64
  sparse_array.yield %r : f64
}
// CHECK-LABEL: func.func @negate(
// CHECK-NOT: sparse_array.demap
// CHECK: %[[C:.*]] = sparse_array.convert %{{.*}} : !sparse_array.array<4x6xf64, #bsr> to !sparse_array.array<4x6xf64, #csr>
// CHECK: sparse_array.kernel ins(%[[C]] :
// CHECK: sparse_array.dealloc %[[C]]
func.func @negate(%a: !bsr) -> !csr {
  %y = sparse_array.kernel ins(%a : !bsr) -> !csr {
  ^bb0(%i: index, %j: index, %A: !bsr):
    %aij = sparse_array.access %A[%i, %j] : !bsr
    %n = sparse_array.apply @neg(%aij) : (f64) -> f64
    sparse_array.yield %n : f64
  }
  return %y : !csr
}

// -----

// A diagonal read A(i, i) of a blocked input is not plain: converted.
!bsr = !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed, dense, dense], order = [0, 1, 0, 1], blocks = [2, 2]>>
!vec = !sparse_array.array<4xf64>
// CHECK-LABEL: func.func @diagonal(
// CHECK-NOT: sparse_array.demap
// CHECK: sparse_array.convert
func.func @diagonal(%a: !bsr) -> !vec {
  %y = sparse_array.kernel ins(%a : !bsr) -> !vec {
  ^bb0(%i: index, %A: !bsr):
    %aii = sparse_array.access %A[%i, %i] : !bsr
    sparse_array.yield %aii : f64
  }
  return %y : !vec
}

// -----

// Another input read twice at a split variable: one linearize serves both
// reads (one access pattern per input, as the verifier requires; found by
// fuzz_programs.py seed 6803, program 1103).
!bsr = !sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed, dense, dense], order = [0, 1, 0, 1], blocks = [2, 3]>>
!csr = !sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed]>>
!vec = !sparse_array.array<4xf64>
sparse_array.func @mul(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @add(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
// CHECK-LABEL: func.func @repeated_reads(
// CHECK: sparse_array.kernel
// CHECK-NEXT: ^bb0(%[[I:.*]]: index, %[[I2:.*]]: index, %[[K:.*]]: index, %[[K2:.*]]: index,
// CHECK-DAG: %[[LI:.*]] = sparse_array.linearize %[[I]], %[[I2]] [2]
// CHECK-DAG: %[[LK:.*]] = sparse_array.linearize %[[K]], %[[K2]] [3]
// CHECK: sparse_array.access %{{.*}}[%[[LI]], %[[LK]]] : !sparse_array.array<4x6xf64, #csr>
// CHECK: sparse_array.access %{{.*}}[%[[LI]], %[[LK]]] : !sparse_array.array<4x6xf64, #csr>
// CHECK-NOT: sparse_array.linearize
func.func @repeated_reads(%a: !bsr, %b: !csr) -> !vec {
  %y = sparse_array.kernel ins(%a, %b : !bsr, !csr) -> !vec {
  ^bb0(%i: index, %k: index, %A: !bsr, %B: !csr):
    %aik = sparse_array.access %A[%i, %k] : !bsr
    %b1 = sparse_array.access %B[%i, %k] : !csr
    %b2 = sparse_array.access %B[%i, %k] : !csr
    %bb = sparse_array.apply @mul(%b1, %b2) : (f64, f64) -> f64
    %p = sparse_array.apply @mul(%aik, %bb) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%k] %p with @add : f64
    sparse_array.yield %s : f64
  }
  return %y : !vec
}

// -----

// Two blocked inputs disagreeing on a variable: j is blocked by 3 in A and
// unblocked in B (blocks [2, 1]); splitting j would read B's column level
// at the block index. Both are converted instead.
!a = !sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed, dense, dense], order = [0, 1, 0, 1], blocks = [2, 3]>>
!b = !sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed, dense], order = [0, 1, 0], blocks = [2, 1]>>
!d = !sparse_array.array<4x6xf64>
sparse_array.func @add(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
// CHECK-LABEL: func.func @disagreeing_blocks(
// CHECK-NOT: sparse_array.demap
// CHECK-COUNT-2: sparse_array.convert
func.func @disagreeing_blocks(%a: !a, %b: !b) -> !d {
  %y = sparse_array.kernel ins(%a, %b : !a, !b) -> !d {
  ^bb0(%i: index, %j: index, %A: !a, %B: !b):
    %x = sparse_array.access %A[%i, %j] : !a
    %z = sparse_array.access %B[%i, %j] : !b
    %s = sparse_array.apply @add(%x, %z) : (f64, f64) -> f64
    sparse_array.yield %s : f64
  }
  return %y : !d
}
