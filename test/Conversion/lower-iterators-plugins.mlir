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
// division in them. A row's diagonals are few: the loop over them is not
// unrolled (LevelIterator::shortSegments).
// CHECK: #[[NOUNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK: #[[$FEW:.*]] = #llvm.loop_annotation<unroll = #[[NOUNROLL]]>
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
// CHECK: arith.addf
// CHECK: } attributes {loop_annotation = #[[$FEW]]}
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
// the row and its first slot row * K from the cursor's parent position
// (LevelIterator::coordinateBelow), known outside the row's loop: nothing
// but a subtraction, a load and an add per entry, no division per row
// (the row's coordinate modulo a dynamic extent by its reciprocal, once
// per row, shared with init). An interior row takes all K slots after two
// compares.
// CHECK-LABEL: func.func @dia_matvec(
// CHECK: %[[OFF:.*]] = sparse_array.level_buffer %{{.*}}[1] "offsets"
// CHECK: %[[K:.*]] = memref.dim %[[OFF]]
// The interior rows (every offset lands inside), also once:
// CHECK: %[[ROWS:.*]]:2 = scf.if
// CHECK: arith.maxsi
// CHECK: scf.for %[[I:[a-z0-9]+]] =
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: arith.mului_extended
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[R:.*]], %[[ROWS]]#0
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[R]], %[[ROWS]]#1
// CHECK: %[[IN:.*]] = arith.andi %[[GE]], %[[LT]]
// CHECK: scf.if %[[IN]]
// CHECK: %[[BASE:.*]] = arith.muli %[[I]], %[[K]] : index
// CHECK: scf.while (%[[P:.*]] = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK: } do {
// CHECK-NEXT: ^bb0(%[[Q:.*]]: index, %{{.*}}: f64):
// CHECK-NEXT: %[[KK:.*]] = arith.subi %[[Q]], %[[BASE]] : index
// CHECK-NEXT: %[[O:.*]] = memref.load %[[OFF]][%[[KK]]]
// CHECK-NEXT: %[[OI:.*]] = arith.index_cast %[[O]]
// CHECK-NEXT: arith.addi %[[R]], %[[OI]] : index
// CHECK-NOT: arith.mului_extended
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

// -----

!csr = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
!hash = !sparse_array.array<?xf64, #sparse_array.format<[hashed]>>
!v = !sparse_array.array<?xf64>
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
// seed 002 Fig. 16: a matrix times a hash map vector. The rows' stored
// columns drive the loop (the product's annihilator makes it an
// intersection); the vector is located at each (never iterated): its home
// slot from the column's hash (times 2^64/phi, bits 32.., masked by W - 1,
// W loaded once before the loops), a probe loop that stops at the column,
// an empty slot (a coordinate not below the extent) or after W probes, and
// the value selected by whether the probe found the column (the slot it
// stopped at is always in bounds: no branch around the load).
// CHECK-LABEL: func.func @spmv_hash(
// CHECK-DAG: %[[K:.*]] = arith.constant -7046029254386353131 : index
// CHECK-DAG: %[[N:.*]] = sparse_array.dim %{{.*}}[0] : !sparse_array.array<?xf64
// CHECK: %[[W:.*]] = sparse_array.level_buffer %{{.*}}[0] "width"
// CHECK: %[[WL:.*]] = memref.load %[[W]][%{{.*}}]
// CHECK: %[[WV:.*]] = arith.index_castui %[[WL]]
// CHECK: %[[CRD:.*]] = sparse_array.coordinates %{{.*}}[0] : !sparse_array.array<?xf64
// CHECK: %[[VAL:.*]] = sparse_array.values %{{.*}} : !sparse_array.array<?xf64
// CHECK: scf.for
// CHECK: scf.while
// CHECK: } do {
// CHECK-NOT: memref.load %[[W]]
// CHECK: %[[J:.*]] = arith.index_castui %{{.*}} : i64 to index
// CHECK: %[[MASK:.*]] = arith.subi %[[WV]], %{{.*}}
// CHECK: %[[H:.*]] = arith.muli %[[J]], %[[K]]
// CHECK: %[[SH:.*]] = arith.shrui %[[H]], %{{.*}}
// CHECK: %[[HOME:.*]] = arith.andi %[[SH]], %[[MASK]]
// CHECK: %[[P:.*]]:3 = scf.while (%{{.*}} = %[[HOME]], %[[STEPS:.*]] = %{{.*}})
// CHECK: %[[AT:.*]] = memref.load %[[CRD]]
// CHECK: %[[ATI:.*]] = arith.index_castui %[[AT]]
// CHECK: arith.cmpi ne, %[[ATI]], %[[J]]
// CHECK: arith.cmpi ult, %[[ATI]], %[[N]]
// CHECK: arith.cmpi ult, %[[STEPS]], %[[WV]]
// CHECK: scf.condition
// CHECK: } do {
// CHECK: arith.andi %{{.*}}, %[[MASK]]
// CHECK: %[[FOUND:.*]] = arith.cmpi eq, %[[P]]#2, %[[J]]
// CHECK-NOT: scf.if
// CHECK: %[[STORED:.*]] = memref.load %[[VAL]][%[[P]]#0]
// CHECK: arith.select %[[FOUND]], %[[STORED]]
func.func @spmv_hash(%a: !csr, %x: !hash) -> !v {
  %r = sparse_array.kernel ins(%a, %x : !csr, !hash) -> !v {
  ^bb0(%i: index, %j: index, %A: !csr, %X: !hash):
    %p = sparse_array.access %A[%i, %j] : !csr
    %q = sparse_array.access %X[%j] : !hash
    %m = sparse_array.apply @mul(%p, %q) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%j] %m with @add : f64
    sparse_array.yield %s : f64
  }
  return %r : !v
}

// -----

!nm = !sparse_array.array<?x?x4xf64, #sparse_array.format<[dense, dense, structured[2, 4]]>>
!v = !sparse_array.array<?x?xf64>
sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, identity = #sparse_array.identity<0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
// N:M structured: ELL's padded rows with the width a constant of the type
// (n = 2 slots per block, no width buffer): a block's segment starts at
// 2 p; its last slot decides whether it is full, else a bisection. The
// loop over a segment runs at most twice: LLVM is told not to unroll it.
// CHECK-LABEL: func.func @nm_block_sums(
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-NOT: "width"
// CHECK: %[[CRD:.*]] = sparse_array.coordinates %{{.*}}[2]
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[BEGIN:.*]] = arith.muli %{{.*}}, %[[C2]]
// CHECK: %[[LAST:.*]] = arith.addi %[[BEGIN]], %{{.*}}
// CHECK: memref.load %[[CRD]][%[[LAST]]]
// CHECK: arith.cmpi ult, %{{.*}}, %[[C4]]
// CHECK: scf.if
// CHECK: arith.addi %[[BEGIN]], %[[C2]]
// CHECK: scf.while
// CHECK: scf.while
// CHECK: arith.addf
// CHECK: } attributes {loop_annotation = #[[$FEW]]}
func.func @nm_block_sums(%a: !nm) -> !v {
  %r = sparse_array.kernel ins(%a : !nm) -> !v {
  ^bb0(%i: index, %j: index, %k: index, %A: !nm):
    %p = sparse_array.access %A[%i, %j, %k] : !nm
    %s = sparse_array.reduce_over [%k] %p with @add : f64
    sparse_array.yield %s : f64
  }
  return %r : !v
}
