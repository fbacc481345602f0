// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices --sparse-array-plan-parallel=min-work=1 --sparse-array-lower-iterators | FileCheck %s
// RUN: sa-opt %s --sparse-array-pipeline=parallel-min-work=1 | FileCheck %s --check-prefix=OMP
// RUN: sa-opt %s --sparse-array-pipeline=enable-openmp=false | FileCheck %s --check-prefix=SEQ
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices --sparse-array-plan-parallel --sparse-array-lower-iterators | FileCheck %s --check-prefix=MINWORK
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices "--sparse-array-plan-parallel=min-work=1 assembly=two-phase" --sparse-array-lower-iterators | FileCheck %s --check-prefix=TWO
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices "--sparse-array-plan-parallel=min-work=1 assembly=parts" --sparse-array-lower-iterators | FileCheck %s --check-prefix=JOIN
// A kernel planned parallel: its outermost loop becomes scf.parallel (the
// body stores in place, nothing is carried), behind a run-time check of
// the plan's min_extent when the size is dynamic; the dense result's fill
// is parallel too. convert-scf-to-openmp makes them OpenMP work-sharing
// loops.

sparse_array.func @add(%x: f64, %y: f64) -> f64 attributes {commutative, associative, identity = #sparse_array.identity<0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @mul(%x: f64, %y: f64) -> f64 attributes {commutative, annihilator = #sparse_array.annihilator<0.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
!csr = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
!dv = !sparse_array.array<?xf64>
!big = !sparse_array.array<100000xf64>
!sv = !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
!dcsr = !sparse_array.array<?x?xf64, #sparse_array.format<[compressed, compressed]>>
!dcsr32 = !sparse_array.array<?x?xf64, #sparse_array.format<[compressed, compressed], pos_width = 32>>

// CHECK-LABEL: func.func @spmv(
// The fill: parallel from 16384 entries on.
// CHECK:         %[[FILLBIG:.*]] = arith.cmpi uge, %{{.*}}, %c16384
// CHECK:         scf.if %[[FILLBIG]] {
// CHECK:           scf.parallel
// CHECK:         } else {
// CHECK:           scf.for
// The rows: parallel from 256 on, in up to 256 parts of equal entries of
// A (the first row of each part found by bisection on A's positions),
// each part's rows in order, each row's reduction inside.
// CHECK:         %[[ROWS_EXTENT:.*]] = arith.cmpi uge, %{{.*}}, %c256
// CHECK:         %[[ROWS_THREADS:.*]] = {{(func\.)?}}call @omp_get_max_threads()
// CHECK:         %[[ROWS_SEVERAL:.*]] = arith.cmpi sgt, %[[ROWS_THREADS]], %c1_i32
// CHECK:         %[[ROWS:.*]] = arith.andi %[[ROWS_EXTENT]], %[[ROWS_SEVERAL]]
// CHECK:         scf.if %[[ROWS]] {
// CHECK:           %[[PARTS:.*]] = arith.minui %{{.*}}, %c256
// CHECK:           scf.parallel (%[[P:.*]]) = (%c0{{.*}}) to (%[[PARTS]]) step (%c1{{.*}}) {
// CHECK:             scf.while
// CHECK:             scf.while
// CHECK:             scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NOT:           scf.parallel
// CHECK:               memref.store %{{.*}}, %{{.*}}[%{{.*}}]
// CHECK:             scf.reduce
// CHECK-NEXT:      } {sparse_array.schedule = "dynamic"}
// CHECK:         } else {
// CHECK:           scf.for
// The fill's loop is scheduled statically, the parts' dynamically.
// OMP-LABEL: llvm.func @spmv(
// OMP:         omp.parallel
// OMP:         omp.wsloop {
// OMP:         omp.parallel
// OMP:         omp.wsloop schedule(dynamic) {
// SEQ-LABEL: llvm.func @spmv(
// SEQ-NOT:     omp.
// SEQ:         llvm.return
// Without OpenMP nothing is planned parallel: one append pass for CSR rows
// (a single loop nest, no count-then-fill).
// SEQ-LABEL: llvm.func @csr_two_phase(
// SEQ-NOT:     omp.
// SEQ:         llvm.return
func.func @spmv(%a: !csr, %x: !dv) -> !dv {
  %y = sparse_array.kernel ins(%a, %x : !csr, !dv) -> !dv {
  ^bb0(%i: index, %j: index, %A: !csr, %X: !dv):
    %aij = sparse_array.access %A[%i, %j] : !csr
    %xj = sparse_array.access %X[%j] : !dv
    %p = sparse_array.apply @mul(%aij, %xj) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%j] %p with @add : f64
    sparse_array.yield %s : f64
  }
  return %y : !dv
}

// A static size past the threshold: no run-time check of the extent, one
// of the thread count.
// CHECK-LABEL: func.func @static_large(
// CHECK:         scf.parallel
// CHECK:         call @omp_get_max_threads()
// CHECK:         scf.if
// CHECK:           scf.parallel
// CHECK:         } else {
// CHECK:           scf.for
// CHECK:         return
func.func @static_large(%a: !big, %b: !big) -> !big {
  %c = sparse_array.map @add(%a, %b) : (!big, !big) -> !big
  return %c : !big
}

// A CSR result whose entries the inputs' bound, chained (the default):
// one worker per thread claims parts in order; a part zeroes its rows'
// counts, appends its rows to scratch buffers (grown as needed), waits for
// where the part before it ended, publishes its own end, copies its
// entries there and makes its rows' positions; the result's buffers,
// allocated at the bound before the loop, are trimmed after it.
// CHECK-LABEL: func.func @csr_two_phase(
// CHECK:         %[[POS:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK:         %[[CRD:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK:         %[[VAL:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK:         %[[H:.*]] = call @sa_rt_chain_new(
// CHECK:           call @omp_get_max_threads()
// CHECK:           scf.parallel
// CHECK:             scf.while
// CHECK:               call @sa_rt_chain_claim(%[[H]])
// CHECK:               scf.condition
// CHECK:             } do {
// CHECK:               scf.for
// CHECK:                 memref.store %{{.*}}, %[[POS]]
// CHECK:               %[[ROWS:.*]]:4 = scf.for
// CHECK:                 scf.if
// CHECK:                   memref.realloc
// CHECK:               call @sa_rt_chain_start(%[[H]],
// CHECK:               call @sa_rt_chain_publish(%[[H]],
// CHECK:               memref.dealloc %[[ROWS]]#1
// CHECK:               memref.dealloc %[[ROWS]]#2
// CHECK:               scf.for
// CHECK:                 memref.load %[[POS]]
// CHECK:                 memref.store %{{.*}}, %[[POS]]
// CHECK:         %[[TOTAL:.*]] = call @sa_rt_chain_free(%[[H]])
// CHECK:         %[[TI:.*]] = arith.index_cast %[[TOTAL]]
// CHECK:         memref.realloc %[[CRD]](%[[TI]])
// CHECK:         memref.realloc %[[VAL]](%[[TI]])
// CHECK:         sparse_array.assemble(%[[POS]],

// A CSR result in two phases (forced; chained by default, above): the
// rows' loops count the entries that are not the fill into
// positions[i + 1], a running sum makes the positions, the coordinate and
// value buffers are allocated at the total, and the rows' loops run
// again, writing row i from positions[i] on.
// TWO-LABEL: func.func @csr_two_phase(
// TWO:         scf.parallel
// TWO:           scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// TWO:             %[[N:.*]] = scf.while
// TWO:             %[[R1:.*]] = arith.addi %[[R]], %c1
// TWO:             memref.store %{{.*}}, %[[POS:.*]][%[[R1]]]
// TWO:         %[[TOTAL:.*]] = scf.for {{.*}} iter_args
// TWO:         memref.alloc(%{{.*}}) : memref<?xi64>
// TWO:         memref.alloc(%{{.*}}) : memref<?xf64>
// TWO:         scf.parallel
// TWO:           scf.for %[[R2:.*]] = %{{.*}} to %{{.*}} step
// TWO:             memref.load %[[POS]][%[[R2]]]
// TWO:             scf.while
// TWO:         sparse_array.assemble
func.func @csr_two_phase(%a: !csr, %b: !csr) -> !csr {
  %c = sparse_array.map @add(%a, %b) : (!csr, !csr) -> !csr
  return %c : !csr
}

// A sparse vector from coiterated ones: ranges of their coordinates (from
// 16384 of A's on), the result in parts.
// CHECK-LABEL: func.func @sparse_result(
// CHECK:         arith.cmpi uge, %{{.*}}, %c16384
// CHECK:         scf.parallel
// CHECK:           func.call @sa_rt_parts_adopt(
// CHECK:         scf.parallel
// CHECK:           func.call @sa_rt_parts_take_part(
// CHECK:         return
func.func @sparse_result(%a: !sv, %b: !sv) -> !sv {
  %c = sparse_array.map @add(%a, %b) : (!sv, !sv) -> !sv
  return %c : !sv
}

// A row-wise product: the running sum of the rows' products is the
// measure of work; from 256 rows on, a few parts per thread, each with its
// own workspace (cleared once) and buffers, storing row counts at
// positions[i + 1]; the counts are summed, the parts' entries joined in
// part order into buffers of the exact size.
// CHECK-LABEL: func.func @spgemm(
// CHECK:         %[[WORK:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// Each row's products in parallel (parts of equal entries of A), then one
// scan for their running sum and maximum.
// CHECK:         scf.if
// CHECK:           scf.parallel
// CHECK:             scf.for
// CHECK:               scf.for
// CHECK:               memref.store %{{.*}}, %[[WORK]][%{{.*}}]
// CHECK:           } {sparse_array.schedule = "dynamic"}
// CHECK:         } else {
// CHECK:         scf.for
// CHECK:           %[[PRODUCTS:.*]] = memref.load %[[WORK]]
// CHECK:           memref.store %{{.*}}, %[[WORK]][%{{.*}}]
// CHECK:           arith.maxui %{{.*}}, %{{.*}}
// CHECK:         %[[BIG_EXTENT:.*]] = arith.cmpi uge, %{{.*}}, %c256
// CHECK:         %[[BIG_THREADS:.*]] = {{(func\.)?}}call @omp_get_max_threads()
// CHECK:         %[[BIG_SEVERAL:.*]] = arith.cmpi sgt, %[[BIG_THREADS]], %c1_i32
// CHECK:         %[[BIG:.*]] = arith.andi %[[BIG_EXTENT]], %[[BIG_SEVERAL]]
// CHECK:         scf.if %[[BIG]] -> (memref<?xi64>, memref<?xf64>) {
// CHECK:           %[[T:.*]] = func.call @omp_get_max_threads()
// CHECK:           %[[H:.*]] = func.call @sa_rt_parts_new(
// CHECK:           scf.parallel (%[[P:.*]]) =
// CHECK:             memref.load %[[WORK]]
// CHECK:             memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK:             memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK:             memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK:             scf.for
// CHECK:             scf.if
// CHECK:               arith.subi
// CHECK:             func.call @sa_rt_parts_adopt(%[[H]],
// The runtime adopts the part's buffers: not freed here.
// CHECK-NOT:         memref.dealloc
// CHECK:           scf.for
// CHECK:           scf.parallel
// CHECK:             func.call @sa_rt_parts_take_part(%[[H]],
// CHECK:           call @sa_rt_parts_free(%[[H]])
// CHECK:         } else {
// CHECK-NOT:       scf.parallel
// CHECK:         }
// CHECK:         memref.dealloc %[[WORK]]
// CHECK:         sparse_array.assemble
// OMP-LABEL: llvm.func @spgemm(
// OMP:         llvm.call @omp_get_max_threads()
// OMP:         omp.wsloop
// SEQ-LABEL: llvm.func @spgemm(
// SEQ-NOT:     omp_get_max_threads
// SEQ:         llvm.return
func.func @spgemm(%a: !csr, %b: !csr) -> !csr {
  %c = sparse_array.kernel ins(%a, %b : !csr, !csr) -> !csr {
  ^bb0(%i: index, %j: index, %k: index, %A: !csr, %B: !csr):
    %aik = sparse_array.access %A[%i, %k] : !csr
    %bkj = sparse_array.access %B[%k, %j] : !csr
    %p = sparse_array.apply @mul(%aik, %bkj) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%k] %p with @add : f64
    sparse_array.yield %s : f64
  }
  return %c : !csr
}

// A compressed vector over counted rows: the rows in parts (up to 256,
// cut at equal entries of A), each appending to buffers of its own bounded
// by its rows (no capacity check), the count moving past entries that are
// not the fill; the parts' counts summed, their entries joined in order.
// CHECK-LABEL: func.func @mxv_sparse(
// CHECK:         %[[BIG_EXTENT:.*]] = arith.cmpi uge, %{{.*}}, %c256
// CHECK:         %[[BIG_THREADS:.*]] = {{(func\.)?}}call @omp_get_max_threads()
// CHECK:         %[[BIG_SEVERAL:.*]] = arith.cmpi sgt, %[[BIG_THREADS]], %c1_i32
// CHECK:         %[[BIG:.*]] = arith.andi %[[BIG_EXTENT]], %[[BIG_SEVERAL]]
// CHECK:         %[[NP:.*]] = arith.select %[[BIG]], %{{.*}}, %c1
// CHECK:         %[[H:.*]] = call @sa_rt_parts_new(
// CHECK:         %[[COUNTS:.*]] = memref.alloc(%[[NP]]) : memref<?xindex>
// CHECK:         scf.if %[[BIG]] {
// CHECK:           scf.parallel (%[[P:.*]]) =
// CHECK:             memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK:             memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK:             %[[ROWS:.*]]:3 = scf.for
// CHECK:               memref.store
// CHECK:               memref.store
// CHECK:               arith.addi
// CHECK:             memref.store %[[ROWS]]#0, %[[COUNTS]][%[[P]]]
// CHECK:             func.call @sa_rt_parts_adopt(%[[H]],
// CHECK:         } else {
// CHECK-NOT:       scf.parallel
// CHECK:           func.call @sa_rt_parts_adopt(%[[H]],
// CHECK:         }
// The counts become offsets (a running sum, in place); each part copies
// its entries to its offset, in parallel.
// CHECK:         %[[TOTAL:.*]] = scf.for %[[Q:.*]] = %{{.*}} to %[[NP]] {{.*}} iter_args(%[[SUM:.*]] = %{{.*}})
// CHECK:           memref.store %[[SUM]], %[[COUNTS]][%[[Q]]]
// CHECK:         %[[CRD:.*]] = memref.alloc(%[[TOTAL]]) : memref<?xi64>
// CHECK:         %[[VAL:.*]] = memref.alloc(%[[TOTAL]]) : memref<?xf64>
// CHECK:         scf.parallel (%[[Q2:.*]]) =
// CHECK:           memref.load %[[COUNTS]][%[[Q2]]]
// CHECK:           func.call @sa_rt_parts_take_part(%[[H]], %{{.*}}, %c0_i64
// CHECK:           func.call @sa_rt_parts_take_part(%[[H]], %{{.*}}, %c1_i64
// CHECK:         call @sa_rt_parts_free(%[[H]])
// CHECK:         sparse_array.assemble(%{{.*}}, %[[CRD]], %[[VAL]])
func.func @mxv_sparse(%a: !csr, %x: !dv) -> !sv {
  %y = sparse_array.kernel ins(%a, %x : !csr, !dv) -> !sv {
  ^bb0(%i: index, %j: index, %A: !csr, %X: !dv):
    %aij = sparse_array.access %A[%i, %j] : !csr
    %xj = sparse_array.access %X[%j] : !dv
    %p = sparse_array.apply @mul(%aij, %xj) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%j] %p with @add : f64
    sparse_array.yield %s : f64
  }
  return %y : !sv
}

// A scalar reduction: up to 256 parts (by the extent alone, so any thread
// count regroups the fold alike) cut at equal entries of A, each reducing
// its rows from the start value into its slot of the partial buffers;
// then the slots combined in part order.
// CHECK-LABEL: func.func @total(
// CHECK:         %[[NP:.*]] = arith.select %{{.*}}, %{{.*}}, %c1{{.*}} : index
// CHECK:         %[[PART:.*]] = memref.alloc(%[[NP]]) : memref<?xf64>
// CHECK:         scf.if
// CHECK:           scf.parallel (%[[P:.*]]) =
// CHECK:             %[[R:.*]] = scf.for
// CHECK:             memref.store %[[R]], %[[PART]][%[[P]]]
// CHECK:         } else {
// CHECK-NOT:       scf.parallel
// CHECK:         }
// CHECK:         %[[FIRST:.*]] = memref.load %[[PART]][%c0
// CHECK:         %[[ALL:.*]] = scf.for %{{.*}} = %c1{{.*}} to %[[NP]] {{.*}} iter_args(%[[ACC:.*]] = %[[FIRST]])
// CHECK:           %[[NEXT:.*]] = memref.load %[[PART]]
// CHECK:           arith.addf %[[ACC]], %[[NEXT]]
// CHECK:         memref.dealloc %[[PART]]
func.func @total(%a: !csr) -> !sparse_array.array<f64> {
  %s = sparse_array.reduce @add %a dims [0, 1] : !csr -> !sparse_array.array<f64>
  return %s : !sparse_array.array<f64>
}

// Column sums of CSR (a scatter reduction, declared associative): one part
// of rows (of equal entries) per OpenMP thread, at most A's entries over
// the columns (a part visits as many points as it starts and combines
// accumulators), part 0 adding into the
// result's sums, part p > 0 into its slice of one buffer, which it zeroes
// itself; then each column's sums combined in part order, in parallel over
// columns.
// CHECK-LABEL: func.func @column_sums(
// CHECK:         %[[SUMS:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK:         call @omp_get_max_threads()
// CHECK:         %[[T:.*]] = call @omp_get_max_threads()
// CHECK:         %[[TI:.*]] = arith.index_cast %[[T]]
// CHECK:         %[[W:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<?xi64>
// CHECK:         %[[WI:.*]] = arith.index_castui %[[W]]
// CHECK:         %[[AFF:.*]] = arith.divui %[[WI]], %{{.*}} : index
// CHECK:         arith.minui %[[TI]], %[[AFF]] : index
// CHECK:         %[[NP:.*]] = arith.select %{{.*}}, %{{.*}}, %c1{{.*}} : index
// CHECK:         %[[OTHERS:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK:         scf.parallel
// CHECK:           scf.if %[[FIRST:.*]] {
// CHECK-NEXT:      } else {
// CHECK:             scf.for
// CHECK:               memref.store %{{.*}}, %[[OTHERS]]
// CHECK:           %[[MINE:.*]] = scf.if %[[FIRST]] -> (memref<?xf64>) {
// CHECK-NEXT:        scf.yield %[[SUMS]]
// CHECK:           } else {
// CHECK-NEXT:        scf.yield %[[OTHERS]]
// CHECK:           scf.for {{.*}} iter_args(%{{.*}} = %[[MINE]],
// CHECK:             arith.addf
// CHECK:         } {sparse_array.schedule = "dynamic"}
// CHECK:         scf.if
// CHECK:           scf.parallel (%[[Q:.*]]) =
// CHECK:             %[[S0:.*]] = memref.load %[[SUMS]][%[[Q]]]
// CHECK:             %[[S:.*]] = scf.for %{{.*}} = %c1{{.*}} to %[[NP]] {{.*}} iter_args(%[[ACC:.*]] = %[[S0]])
// CHECK:               %[[SP:.*]] = memref.load %[[OTHERS]]
// CHECK:               arith.addf %[[ACC]], %[[SP]]
// CHECK:             memref.store %[[S]], %[[SUMS]][%[[Q]]]
// CHECK:         memref.dealloc %[[OTHERS]]
// CHECK:         sparse_array.assemble(%[[SUMS]])
func.func @column_sums(%a: !csr) -> !dv {
  %y = sparse_array.reduce @add %a dims [0] : !csr -> !dv
  return %y : !dv
}

// CSR rows in parts (forced; chained by default): each part zeroes its
// rows' positions, appends its rows to buffers of its own (grown as
// needed) and stores each row's count after the row's loop; the parts are
// joined, the counts summed into positions.
sparse_array.func @sin_of(%x: f64) -> f64 {
  %r = math.sin %x : f64
  sparse_array.yield %r : f64
}
// JOIN-LABEL: func.func @csr_parts(
// JOIN:         %[[POS:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// JOIN:         %[[H:.*]] = call @sa_rt_parts_new(
// JOIN:           scf.parallel (%[[P:.*]]) =
// JOIN:             scf.for
// JOIN:               memref.store %{{.*}}, %[[POS]]
// JOIN:             %[[ROWS:.*]]:4 = scf.for
// JOIN:               math.sin
// JOIN:               scf.if
// JOIN:                 memref.realloc
// JOIN:               %[[N:.*]] = arith.subi
// JOIN:               memref.store %{{.*}}, %[[POS]]
// JOIN:             func.call @sa_rt_parts_adopt(%[[H]],
// JOIN:           func.call @sa_rt_parts_take_part(%[[H]],
// JOIN:         call @sa_rt_parts_free(%[[H]])
// JOIN:         scf.for
// JOIN:           memref.load %[[POS]]
// JOIN:           memref.store %{{.*}}, %[[POS]]
// JOIN:         sparse_array.assemble(%[[POS]],
func.func @csr_parts(%a: !csr) -> !csr {
  %c = sparse_array.map @sin_of(%a) : (!csr) -> !csr
  return %c : !csr
}

// CSR + CSR into DCSR (32-bit positions): each part of the rows assembles
// them as a DCSR of its own (its buffers grow as it appends) and hands
// every buffer to the runtime in a slot; after the parts, the outermost
// positions are [0, entries], the coordinates and values are joined back
// to back, the inner positions shifted by the parts before.
// Parts: at most 256, and no more than the entries' estimate (the
// buffers' capacity) over min_extent (256), at least one: each part costs
// buffers of its own.
// CHECK-LABEL: func.func @dcsr_parts(
// CHECK:         %[[MANY:.*]] = arith.minui %{{.*}}, %c256{{(_[0-9]+)?}} : index
// CHECK:         %[[BYWORK:.*]] = arith.divui %{{.*}}, %c256{{.*}} : index
// CHECK:         %[[ONE:.*]] = arith.maxui %[[BYWORK]], %c1{{.*}} : index
// CHECK:         arith.minui %[[MANY]], %[[ONE]] : index
// CHECK:         %[[H:.*]] = call @sa_rt_parts_new(
// CHECK:         scf.if %{{.*}} {
// CHECK:           scf.parallel (%[[P:.*]]) =
// CHECK:             memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK:             %[[ROWS:.*]]:7 = scf.for
// CHECK-COUNT-5:     func.call @sa_rt_parts_adopt_slot(%[[H]],
// CHECK-NOT:         memref.dealloc
// CHECK:         } else {
// CHECK-NOT:       scf.parallel
// CHECK-COUNT-5:   func.call @sa_rt_parts_adopt_slot(%[[H]],
// CHECK:         }
// CHECK:         %[[POS0:.*]] = memref.alloc(%c2) : memref<?xi32>
// CHECK:         scf.parallel
// CHECK:           func.call @sa_rt_parts_take_part(%[[H]], %{{.*}}, %c1_i64
// CHECK:           func.call @sa_rt_parts_take_part_positions(%[[H]], %{{.*}}, %c2_i64, %{{.*}}, %c32_i64,
// CHECK:           func.call @sa_rt_parts_take_part(%[[H]], %{{.*}}, %c3_i64
// CHECK:           func.call @sa_rt_parts_take_part(%[[H]], %{{.*}}, %c4_i64
// CHECK:         call @sa_rt_parts_free(%[[H]])
// CHECK:         sparse_array.assemble(%[[POS0]],
func.func @dcsr_parts(%a: !csr, %b: !csr) -> !dcsr32 {
  %c = sparse_array.map @add(%a, %b) : (!csr, !csr) -> !dcsr32
  return %c : !dcsr32
}

// SpMV over DCSR rows into a dense vector (planned "ranges"): A's stored
// rows in up to 256 parts of equal entries (bisection on its row
// positions), each part the coordinates [from, to) from its first stored
// row's (0 for the first part) to the next part's (the extent for the
// last); A's row segment narrowed to them by two bisections, then the
// usual loop over stored rows, storing in place.
// CHECK-LABEL: func.func @dcsr_ranges(
// CHECK:         %[[BIG_EXTENT:.*]] = arith.cmpi uge, %[[STORED:.*]], %c256
// CHECK:         %[[BIG_THREADS:.*]] = {{(func\.)?}}call @omp_get_max_threads()
// CHECK:         %[[BIG_SEVERAL:.*]] = arith.cmpi sgt, %[[BIG_THREADS]], %c1_i32
// CHECK:         %[[BIG:.*]] = arith.andi %[[BIG_EXTENT]], %[[BIG_SEVERAL]]
// CHECK:         scf.if %[[BIG]] {
// CHECK:           scf.parallel (%[[P:.*]]) =
// CHECK:             scf.while
// CHECK:             scf.while
// CHECK:             %[[FIRST:.*]] = arith.cmpi eq, %[[P]], %c0
// CHECK:             %[[AT:.*]] = scf.if
// CHECK:             %[[FROM:.*]] = arith.select %[[FIRST]], %c0{{.*}}, %[[AT]]
// CHECK:             %[[TO:.*]] = scf.if
// CHECK:             %[[LO:.*]]:2 = scf.while
// CHECK:               arith.cmpi ult, %{{.*}}, %[[FROM]]
// CHECK:             %[[HI:.*]]:2 = scf.while (%{{.*}} = %[[LO]]#0, %{{.*}} = %[[STORED]])
// CHECK:               arith.cmpi ult, %{{.*}}, %[[TO]]
// CHECK:             scf.while (%{{.*}} = %[[LO]]#0, %{{.*}} = %[[LO]]#0, %{{.*}} = %[[HI]]#0)
// CHECK:               memref.store
// CHECK:         } else {
// CHECK-NOT:       scf.parallel
// CHECK:         }
func.func @dcsr_ranges(%a: !dcsr, %x: !dv) -> !dv {
  %y = sparse_array.kernel ins(%a, %x : !dcsr, !dv) -> !dv {
  ^bb0(%i: index, %j: index, %A: !dcsr, %X: !dv):
    %aij = sparse_array.access %A[%i, %j] : !dcsr
    %xj = sparse_array.access %X[%j] : !dv
    %p = sparse_array.apply @mul(%aij, %xj) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%j] %p with @add : f64
    sparse_array.yield %s : f64
  }
  return %y : !dv
}

// DCSR plus a dense matrix (planned "ranges" without balance): the outer
// loop visits every row (U) and steps A's stored rows, so the rows are cut
// into equal ranges [lo, hi) of [0, extent), A's row segment narrowed to
// each by two bisections, and the counted loop runs over the range only.
// CHECK-LABEL: func.func @dcsr_plus_dense(
// CHECK:         %[[BIG_EXTENT:.*]] = arith.cmpi uge, %{{.*}}, %c256
// CHECK:         %[[BIG_THREADS:.*]] = {{(func\.)?}}call @omp_get_max_threads()
// CHECK:         %[[BIG_SEVERAL:.*]] = arith.cmpi sgt, %[[BIG_THREADS]], %c1_i32
// CHECK:         %[[BIG:.*]] = arith.andi %[[BIG_EXTENT]], %[[BIG_SEVERAL]]
// CHECK:         scf.if %[[BIG]] {
// CHECK:           scf.parallel (%[[P:.*]]) =
// CHECK:             %[[FROM:.*]] = arith.divui
// CHECK:             %[[TO:.*]] = arith.select
// CHECK:             %[[LO:.*]]:2 = scf.while
// CHECK:               arith.cmpi ult, %{{.*}}, %[[FROM]]
// CHECK:             %[[HI:.*]]:2 = scf.while (%{{.*}} = %[[LO]]#0,
// CHECK:               arith.cmpi ult, %{{.*}}, %[[TO]]
// CHECK:             scf.for %{{.*}} = %[[FROM]] to %[[TO]] step %{{.*}} iter_args(%{{.*}} = %[[LO]]#0, %{{.*}} = %[[LO]]#0, %{{.*}} = %[[HI]]#0)
// CHECK:               arith.addf
// CHECK:         } else {
// CHECK-NOT:       scf.parallel
// CHECK:         }
!dm = !sparse_array.array<?x?xf64>
func.func @dcsr_plus_dense(%a: !dcsr, %b: !dm) -> !dm {
  %c = sparse_array.map @add(%a, %b) : (!dcsr, !dm) -> !dm
  return %c : !dm
}

// A loop over U (x + 1 changes the fill 0, and the result's fill is 0:
// every point is a value) stores far more than its input: the parts are
// not capped by the input's entries (only minui(extent, 256)).
sparse_array.func @add1(%x: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %r = arith.addf %x, %one : f64
  sparse_array.yield %r : f64
}
// CHECK-LABEL: func.func @universe_parts(
// CHECK:         arith.minui %{{.*}}, %c256{{(_[0-9]+)?}} : index
// CHECK-NOT:     arith.divui
// CHECK:         call @sa_rt_parts_new(
func.func @universe_parts(%a: !csr) -> !dcsr {
  %c = sparse_array.map @add1(%a) : (!csr) -> !dcsr
  return %c : !dcsr
}

// The plan's min_work: a kernel reading fewer stored values than that runs
// sequentially even with enough rows — A's entries plus x's, against
// 32768 for a dense result.
// MINWORK-LABEL: func.func @spmv(
// MINWORK:         %[[EXTENT:.*]] = arith.cmpi uge, %{{.*}}, %c256
// MINWORK:         %[[T:.*]] = call @omp_get_max_threads()
// MINWORK:         %[[SEVERAL:.*]] = arith.cmpi sgt, %[[T]], %c1_i32
// MINWORK:         %[[ROWS:.*]] = arith.andi %[[EXTENT]], %[[SEVERAL]]
// MINWORK:         %[[NA:.*]] = memref.dim %{{.*}}, %c0
// MINWORK:         %[[NX:.*]] = memref.dim %{{.*}}, %c0
// MINWORK:         %[[W:.*]] = arith.addi %[[NA]], %[[NX]]
// MINWORK:         %[[ENOUGH:.*]] = arith.cmpi uge, %[[W]], %c32768
// MINWORK:         %[[GO:.*]] = arith.andi %[[ROWS]], %[[ENOUGH]]
// MINWORK:         scf.if %[[GO]] {
// MINWORK:           scf.parallel
// MINWORK:         } else {
// MINWORK:           scf.for
// Static and dense: 2 x 100000 values, decided here (the thread count at
// run time).
// MINWORK-LABEL: func.func @static_large(
// MINWORK-NOT:     %c32768
// MINWORK:         scf.parallel
// A sparse result within its inputs' entries: the kernel twice, behind
// one test of the stored values it reads (A's plus B's against 2097152)
// and of OpenMP's thread count (one thread: the sequential version) —
// the parallel version without min_work (tested), and the sequential one
// appending straight into the result (no parts, no part buffers).
// MINWORK-LABEL: func.func @dcsr_parts(
// MINWORK:         %[[NA:.*]] = memref.dim
// MINWORK:         %[[NB:.*]] = memref.dim
// MINWORK:         %[[W:.*]] = arith.addi %[[NA]], %[[NB]]
// MINWORK:         %[[ENOUGH:.*]] = arith.cmpi uge, %[[W]], %c2097152
// MINWORK:         %[[T:.*]] = call @omp_get_max_threads()
// MINWORK:         %[[SEVERAL:.*]] = arith.cmpi sgt, %[[T]], %c1_i32
// MINWORK:         %[[GO:.*]] = arith.andi %[[ENOUGH]], %[[SEVERAL]]
// MINWORK:         scf.if %[[GO]] -> (!sparse_array.array<?x?xf64, #dcsr>) {
// MINWORK-NOT:       %c2097152
// MINWORK:           scf.parallel
// Below min_extent, the parallel version's one part is the whole result:
// its capacity bounds it, no growth checks — which a part of several has.
// MINWORK:             memref.realloc
// MINWORK:             call @sa_rt_parts_adopt_slot({{.*}}, %c4_i64
// MINWORK:           } else {
// MINWORK-NOT:         memref.realloc
// MINWORK:             call @sa_rt_parts_adopt_slot({{.*}}, %c4_i64
// MINWORK:           sparse_array.assemble
// MINWORK:         } else {
// MINWORK-NOT:       scf.parallel
// MINWORK-NOT:       sa_rt_parts
// MINWORK:           sparse_array.assemble
// MINWORK:         return
// A function that changes the fill iterates every coordinate: the work
// counts them too (saturated at min_work), 2097152 for a sparse result.
// MINWORK-LABEL: func.func @universe_parts(
// MINWORK:         arith.minui %{{.*}}, %c2097152
// MINWORK:         arith.muli
// MINWORK:         arith.cmpi uge, %{{.*}}, %c2097152
// MINWORK:         arith.andi
// 300 rows but 2 x 9000 values: sequential, decided here.
// MINWORK-LABEL: func.func @static_little_work(
// MINWORK-NOT:     scf.parallel
// MINWORK:         return
func.func @static_little_work(%a: !sparse_array.array<300x30xf64>,
                              %b: !sparse_array.array<300x30xf64>)
    -> !sparse_array.array<300x30xf64> {
  %c = sparse_array.map @add(%a, %b)
      : (!sparse_array.array<300x30xf64>, !sparse_array.array<300x30xf64>)
      -> !sparse_array.array<300x30xf64>
  return %c : !sparse_array.array<300x30xf64>
}
