// RUN: sa-opt %s --sparse-array-legalize-formats --split-input-file | FileCheck %s
// Arrays whose level formats an operation cannot use (the diagonal level:
// coordinates computed from its parent's, no append) are converted around
// it; plain reads of a kernel keep them.

!dia = !sparse_array.array<4x5xf64, #sparse_array.format<[dense, diagonal]>>
!vec = !sparse_array.array<5xf64>
!out = !sparse_array.array<4xf64>
sparse_array.func @mul(%x: f64, %y: f64) -> f64
    attributes {commutative, annihilator = #sparse_array.annihilator<0.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, identity = #sparse_array.identity<0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
// A(i, j) x(j), i outside j: the diagonal level is read as it is stored.
// CHECK-LABEL: func.func @spmv_reads_dia(
// CHECK-NOT: sparse_array.convert
// CHECK: sparse_array.kernel ins(%{{.*}}, %{{.*}} : !sparse_array.array<4x5xf64, #{{.*}}>, !sparse_array.array<5xf64{{.*}}>)
// CHECK-NOT: sparse_array.convert
// CHECK-NOT: sparse_array.dealloc
func.func @spmv_reads_dia(%a: !dia, %x: !vec) -> !out {
  %y = sparse_array.kernel ins(%a, %x : !dia, !vec) -> !out {
  ^bb0(%i: index, %j: index, %A: !dia, %X: !vec):
    %aij = sparse_array.access %A[%i, %j] : !dia
    %xj = sparse_array.access %X[%j] : !vec
    %p = sparse_array.apply @mul(%aij, %xj) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%j] %p with @add : f64
    sparse_array.yield %s : f64
  }
  return %y : !out
}

// -----

!dia = !sparse_array.array<4x4xf64, #sparse_array.format<[dense, diagonal]>>
!vec = !sparse_array.array<4xf64>
sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, identity = #sparse_array.identity<0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
// The transposed read A(j, i) puts the row loop inside: the input becomes
// [dense, compressed] before the kernel and is freed after it.
// CHECK-LABEL: func.func @column_sums(
// CHECK-SAME: %[[A:.*]]: !sparse_array.array<4x4xf64, #[[DIA:[a-z0-9_]+]]>)
// CHECK: %[[C:.*]] = sparse_array.convert %[[A]] : !sparse_array.array<4x4xf64, #[[DIA]]> to !sparse_array.array<4x4xf64, #[[CSR:[a-z0-9_]+]]>
// CHECK: %[[Y:.*]] = sparse_array.kernel ins(%[[C]] : !sparse_array.array<4x4xf64, #[[CSR]]>)
// CHECK: sparse_array.access %{{.*}}[%{{.*}}, %{{.*}}] : !sparse_array.array<4x4xf64, #[[CSR]]>
// CHECK: sparse_array.dealloc %[[C]]
// CHECK: return %[[Y]]
func.func @column_sums(%a: !dia) -> !vec {
  %y = sparse_array.kernel ins(%a : !dia) -> !vec {
  ^bb0(%j: index, %i: index, %A: !dia):
    %aij = sparse_array.access %A[%i, %j] : !dia
    %s = sparse_array.reduce_over [%i] %aij with @add : f64
    sparse_array.yield %s : f64
  }
  return %y : !vec
}

// -----

!dia = !sparse_array.array<4x4xf64, #sparse_array.format<[dense, diagonal]>>
!csr = !sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed]>>
sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, identity = #sparse_array.identity<0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
// A DIA result: the kernel assembles [dense, compressed], the runtime
// converts it, the intermediate is freed.
// CHECK-LABEL: func.func @dia_result(
// CHECK: %[[K:.*]] = sparse_array.map @add(%{{.*}}, %{{.*}}) : (!sparse_array.array<4x4xf64, #{{.*}}>, !sparse_array.array<4x4xf64, #{{.*}}>) -> !sparse_array.array<4x4xf64, #[[CSR:[a-z0-9_]+]]>
// CHECK: %[[R:.*]] = sparse_array.convert %[[K]] : !sparse_array.array<4x4xf64, #[[CSR]]> to !sparse_array.array<4x4xf64, #[[DIA:[a-z0-9_]+]]>
// CHECK: sparse_array.dealloc %[[K]]
// CHECK: sparse_array.print %[[R]] : !sparse_array.array<4x4xf64, #[[DIA]]>
// CHECK: return %[[R]]
func.func @dia_result(%a: !csr, %b: !csr) -> !dia {
  %s = sparse_array.map @add(%a, %b) : (!csr, !csr) -> !dia
  sparse_array.print %s : !dia
  return %s : !dia
}

// -----

!dia = !sparse_array.array<4x4xf64, #sparse_array.format<[dense, diagonal]>>
!dia3 = !sparse_array.array<2x4xf64, #sparse_array.format<[dense, diagonal]>>
// A shape operator reads the generic format; conversions, printing and the
// runtime's other operations take any format as it is.
// CHECK-LABEL: func.func @slice_of_dia(
// CHECK-NEXT: %[[C:.*]] = sparse_array.convert
// CHECK-NEXT: %[[S:.*]] = sparse_array.slice %[[C]]
// CHECK-NEXT: %[[R:.*]] = sparse_array.convert %[[S]]
// CHECK-NEXT: sparse_array.dealloc %[[C]]
// CHECK-NEXT: sparse_array.dealloc %[[S]]
// CHECK-NEXT: sparse_array.print %[[R]]
func.func @slice_of_dia(%a: !dia) {
  %s = sparse_array.slice %a[1:3, :] : !dia -> !dia3
  sparse_array.print %s : !dia3
  return
}

// -----

!loose = !sparse_array.array<6xf64, #sparse_array.format<[loose_compressed]>>
!dia = !sparse_array.array<4x4xf64, #sparse_array.format<[dense, diagonal]>>
!s = !sparse_array.array<f64>
sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, identity = #sparse_array.identity<0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
// At the outermost level a level only its iterator reads is read as it is
// stored where its dimension is a loop's (a loose vector's one segment);
// a point read (extract) goes through the level iterators of any format.
// CHECK-LABEL: func.func @outermost_loose(
// CHECK-NOT: sparse_array.convert
// CHECK: sparse_array.kernel ins(%{{.*}} : !sparse_array.array<6xf64, #{{.*}}>)
// CHECK-NOT: sparse_array.convert
// CHECK: sparse_array.extract %{{.*}}[%{{.*}}, %{{.*}}] : !sparse_array.array<4x4xf64, #{{.*}}>
// CHECK-NOT: sparse_array.convert
// CHECK: return
func.func @outermost_loose(%a: !loose, %d: !dia) -> (!s, f64) {
  %r = sparse_array.kernel ins(%a : !loose) -> !s {
  ^bb0(%i: index, %A: !loose):
    %v = sparse_array.access %A[%i] : !loose
    %s = sparse_array.reduce_over [%i] %v with @add : f64
    sparse_array.yield %s : f64
  }
  %c1 = arith.constant 1 : index
  %e = sparse_array.extract %d[%c1, %c1] : !dia
  return %r, %e : !s, f64
}
