// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices | FileCheck %s --check-prefix=PLAN
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices --sparse-array-lower-iterators | FileCheck %s
// Scatter reductions (issue 20): a reduction whose input stores the
// reduced dimension above the kept one (column sums of CSR) is planned
// `scatter_loops` in the input's order, and lowered to one pass over the
// stored entries combining each into an accumulator per result entry: no
// conversion of the input (the nested order would need CSC).

sparse_array.func @fadd(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, identity = #sparse_array.identity<0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @add_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @iadd(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
!csr = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
!icsr = !sparse_array.array<?x?xi64, #sparse_array.format<[dense, compressed], fill = 1 : i64>>
!d = !sparse_array.array<?xf64>
!id = !sparse_array.array<?xi64>
!sv = !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
!csf = !sparse_array.array<?x?x?xf64, #sparse_array.format<[dense, compressed, compressed]>>

// The identity strategy into a dense vector: the accumulators are the
// result's values (no copy, no counts).
// PLAN-LABEL: func.func @colsum(
// PLAN-NOT: sparse_array.convert
// PLAN: sparse_array.kernel {{.*}} lattices = [#sparse_array.lattice<loop 0, present [0], coiterate [], points [{U} produce], merged>, #sparse_array.lattice<loop 1, present [0], coiterate [0], points [{0} produce]>]
// PLAN: sparse_array.reduce_over [%{{.*}}] %{{.*}} with @fadd {plan = #sparse_array.reduction<strategy = identity{{[,>].*}}, scatter_loops = array<i32: 1, 0>}
// CHECK-LABEL: func.func @colsum(
// CHECK-NOT: sparse_array.convert
// CHECK: %[[ACC:.*]] = memref.alloc(%[[N:.*]]) : memref<?xf64>
// The accumulators start at the identity, then rows, then their entries.
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.while
// CHECK: %[[V:[0-9]+]] = memref.load %{{[0-9]+}}[%{{.*}}] : memref<?xf64>
// CHECK: %[[A:.*]] = memref.load %[[ACC]][%[[Q:.*]]]
// CHECK: %[[S:.*]] = arith.addf %[[A]], %[[V]] : f64
// CHECK: memref.store %[[S]], %[[ACC]][%[[Q]]]
// CHECK-NOT: memref.alloc
// CHECK: sparse_array.assemble(%[[ACC]]), (%[[N]])
func.func @colsum(%a: !csr) -> !d {
  %r = sparse_array.reduce @fadd %a dims [0] : !csr -> !d
  return %r : !d
}

// Fill 1 is not the identity: the points visited are counted per entry
// and the implicit ones added after the pass (reassociate).
// PLAN-LABEL: func.func @colsum_fill_one(
// PLAN: strategy = reassociate{{.*}}scatter_loops = array<i32: 1, 0>
// CHECK-LABEL: func.func @colsum_fill_one(
// CHECK: %[[ACC:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK: %[[CNT:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK: memref.load %[[ACC]]
// CHECK: arith.addi
// CHECK: memref.load %[[CNT]]
// CHECK: memref.store %{{.*}}, %[[CNT]]
// CHECK: memref.store %{{.*}}, %[[ACC]]
// The finishing pass: fill^(rows - count) by repeated squaring.
// CHECK: scf.for
// CHECK: memref.load %[[CNT]]
// CHECK: scf.while
// CHECK: memref.dealloc %[[CNT]]
// CHECK: sparse_array.assemble(%[[ACC]])
func.func @colsum_fill_one(%a: !icsr) -> !id {
  %r = sparse_array.reduce @iadd %a dims [0] : !icsr -> !id
  return %r : !id
}

// Exact f64 sums (signed_zero_sum): a -0.0 sum becomes +0.0 when its
// column has a point not visited. A sum is -0.0 at the end only when every
// point added was -0.0, so only -0.0 values are counted: behind a branch
// real data rarely takes, their entries are logged in a buffer the loops
// carry; after the loops the log is counted per entry - into counts of the
// result's size only when it is not empty (else one zero every entry reads).
// PLAN-LABEL: func.func @colsum_exact(
// PLAN: strategy = signed_zero_sum{{.*}}scatter_loops = array<i32: 1, 0>
// CHECK-LABEL: func.func @colsum_exact(
// CHECK: %[[ACC:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: scf.while
// CHECK: %[[V:[0-9]+]] = memref.load %{{[0-9]+}}[%{{.*}}] : memref<?xf64>
// CHECK: memref.load %[[ACC]]
// CHECK: arith.addf
// CHECK: %[[VB:.*]] = arith.bitcast %[[V]] : f64 to i64
// CHECK: %[[NZ:.*]] = arith.cmpi eq, %[[VB]], %{{.*}} : i64
// CHECK-NEXT: %[[LOG:.*]]:2 = scf.if %[[NZ]] -> (memref<?xindex>, index) {
// CHECK: memref.realloc
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xindex>
// CHECK: memref.store %{{.*}}, %[[ACC]]
// CHECK: %[[ANY:.*]] = arith.cmpi ne, %[[N:.*]], %c0{{.*}} : index
// CHECK: %[[LEN:.*]] = arith.select %[[ANY]], %{{.*}}, %c1{{.*}} : index
// CHECK: %[[CNT:.*]] = memref.alloc(%[[LEN]]) : memref<?xindex>
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[N]]
// CHECK: memref.store %{{.*}}, %[[CNT]]
// CHECK: scf.for
// CHECK: %[[Q:.*]] = arith.select %[[ANY]]
// CHECK: memref.load %[[CNT]][%[[Q]]]
// CHECK: memref.dealloc %[[CNT]]
func.func @colsum_exact(%a: !csr) -> !d {
  %r = sparse_array.reduce @add_f64 %a dims [0] : !csr -> !d
  return %r : !d
}

// A compressed vector result: accumulated densely, then appended in order
// with entries equal to the fill dropped.
// PLAN-LABEL: func.func @colsum_sparse(
// PLAN: scatter_loops = array<i32: 1, 0>
// CHECK-LABEL: func.func @colsum_sparse(
// CHECK: %[[ACC:.*]] = memref.alloc
// CHECK: memref.store %{{.*}}, %[[ACC]]
// CHECK: scf.for
// CHECK: memref.load %[[ACC]]
// CHECK: arith.cmpi ne
// CHECK: memref.dealloc %[[ACC]]
// CHECK: sparse_array.assemble
func.func @colsum_sparse(%a: !csr) -> !sv {
  %r = sparse_array.reduce @fadd %a dims [0] : !csr -> !sv
  return %r : !sv
}

// Rows stay nested: a row sum of CSR needs no scatter.
// PLAN-LABEL: func.func @rowsum(
// PLAN-NOT: scatter_loops
// PLAN: return
func.func @rowsum(%a: !csr) -> !d {
  %r = sparse_array.reduce @fadd %a dims [1] : !csr -> !d
  return %r : !d
}

// A sparse result of rank 2 below a reduced middle level (a CSF summed over
// dimension 1 into CSR): one workspace over the columns, whose slots are
// reset when a row first touches them (marked with the row) and drained
// sorted after the row's loops. No conversion, no array of the result's
// dense size.
// PLAN-LABEL: func.func @csf_middle_sum(
// PLAN: scatter_loops = array<i32: 0, 2, 1>
// CHECK-LABEL: func.func @csf_middle_sum(
// CHECK-NOT: sparse_array.convert
// CHECK: %[[ACC:.*]] = memref.alloc(%[[W:.*]]) : memref<?xf64>
// CHECK: %[[MARK:.*]] = memref.alloc(%[[W]]) : memref<?xindex>
// CHECK: %[[TOUCHED:.*]] = memref.alloc(%[[W]]) : memref<?xi64>
// CHECK: memref.load %[[MARK]]
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[MARK]]
// CHECK: memref.store %{{.*}}, %[[TOUCHED]]
// CHECK: memref.load %[[ACC]]
// CHECK: call @sa_rt_sort_i64
// CHECK: memref.load %[[TOUCHED]]
// CHECK: memref.dealloc %[[ACC]]
func.func @csf_middle_sum(%a: !csf) -> !csr {
  %r = sparse_array.reduce @fadd %a dims [1] : !csf -> !csr
  return %r : !csr
}
