// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices --sparse-array-plan-parallel | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices "--sparse-array-plan-parallel=min-extent=2 min-work=5" | FileCheck %s --check-prefix=SMALL
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices "--sparse-array-plan-parallel=assembly=parts" | FileCheck %s --check-prefix=PARTS
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices "--sparse-array-plan-parallel=assembly=two-phase" | FileCheck %s --check-prefix=TWO
// RUN: not sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices "--sparse-array-plan-parallel=assembly=bogus" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: sparse-array-plan-parallel: assembly must be auto, two-phase, parts or chained, not 'bogus'
// The parallel plan of each kernel: its outermost result loop runs in
// parallel when the result is dense and the loop carries no cursor; the
// plan says why not otherwise.

sparse_array.func @add(%x: f64, %y: f64) -> f64 attributes {commutative, associative, identity = #sparse_array.identity<0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @mul(%x: f64, %y: f64) -> f64 attributes {commutative, annihilator = #sparse_array.annihilator<0.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
!csr = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
!dcsr = !sparse_array.array<?x?xf64, #sparse_array.format<[compressed, compressed]>>
!coo = !sparse_array.array<?x?xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!udcsr = !sparse_array.array<?x?xf64, #sparse_array.format<[compressed(nonordered), compressed]>>
!dm = !sparse_array.array<?x?xf64>
!dv = !sparse_array.array<?xf64>
!sv = !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
!d8 = !sparse_array.array<8xf64>
!d1000 = !sparse_array.array<1000x4xf64>

// y = A x over CSR rows: the row level is located, the rows are independent;
// shared out by A's entries (balance = 0), not by rows.
// CHECK-LABEL: func.func @spmv(
// CHECK: parallel = #sparse_array.parallel<"outer", min_extent = 256, min_work = 32768, balance = 0>
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

// A single loop (one entry per iteration) needs more iterations.
// CHECK-LABEL: func.func @dense_vector(
// CHECK: parallel = #sparse_array.parallel<"outer", min_extent = 16384, min_work = 32768>
func.func @dense_vector(%a: !dv, %b: !dv) -> !dv {
  %c = sparse_array.map @add(%a, %b) : (!dv, !dv) -> !dv
  return %c : !dv
}

// CSR + dense into a dense matrix: rows in parallel.
// CHECK-LABEL: func.func @add_into_dense(
// CHECK: parallel = #sparse_array.parallel<"outer", min_extent = 256, min_work = 32768, balance = 0>
func.func @add_into_dense(%a: !csr, %b: !dm) -> !dm {
  %c = sparse_array.map @add(%a, %b) : (!csr, !dm) -> !dm
  return %c : !dm
}

// A CSR result whose entries the inputs' stored entries bound: parts
// claimed in order, each placed where the one before it ended (chained:
// every entry computed once, copied from a scratch buffer still in
// cache); `assembly` forces two phases or parts joined after the loop.
// CHECK-LABEL: func.func @csr_result(
// CHECK: parallel = #sparse_array.parallel<"outer", min_extent = 256, min_work = 2097152, balance = 0, parts, chained>
// PARTS-LABEL: func.func @csr_result(
// PARTS: parallel = #sparse_array.parallel<"outer", min_extent = 256, min_work = 2097152, balance = 0, parts>
// TWO-LABEL: func.func @csr_result(
// TWO: parallel = #sparse_array.parallel<"outer", min_extent = 256, min_work = 2097152, balance = 0, two_phase>
func.func @csr_result(%a: !csr, %b: !csr) -> !csr {
  %c = sparse_array.map @add(%a, %b) : (!csr, !csr) -> !csr
  return %c : !csr
}

// A CSR result scaled by a row vector broadcast down the rows: v's entries
// do not bound the result's (each is used once per row), so no buffer can
// be sized before the loop — a cheap function: two phases (count, scan,
// fill: the function evaluated twice costs less than copying the result).
// CHECK-LABEL: func.func @csr_broadcast(
// CHECK: parallel = #sparse_array.parallel<"outer", min_extent = 256, min_work = 2097152, balance = 0, two_phase>
func.func @csr_broadcast(%a: !csr, %v: !sv) -> !csr {
  %c = sparse_array.kernel ins(%a, %v : !csr, !sv) -> !csr {
  ^bb0(%i: index, %j: index, %A: !csr, %V: !sv):
    %aij = sparse_array.access %A[%i, %j] : !csr
    %vj = sparse_array.access %V[%j] : !sv
    %s = sparse_array.apply @add(%aij, %vj) : (f64, f64) -> f64
    sparse_array.yield %s : f64
  }
  return %c : !csr
}

// A CSR result whose entries cost more than their copy (a math function):
// chained as well; forced to two phases, the function evaluated twice.
sparse_array.func @sin_of(%x: f64) -> f64 {
  %r = math.sin %x : f64
  sparse_array.yield %r : f64
}
// CHECK-LABEL: func.func @csr_costly(
// CHECK: parallel = #sparse_array.parallel<"outer", min_extent = 256, min_work = 2097152, balance = 0, parts, chained>
// TWO-LABEL: func.func @csr_costly(
// TWO: parallel = #sparse_array.parallel<"outer", min_extent = 256, min_work = 2097152, balance = 0, two_phase>
func.func @csr_costly(%a: !csr) -> !csr {
  %c = sparse_array.map @sin_of(%a) : (!csr) -> !csr
  return %c : !csr
}

// A compressed vector from two coiterated ones: ranges of coordinates cut
// at A's stored ones (from 16384 of them on: one index variable), each
// range's segments found by bisection, the result in parts.
// CHECK-LABEL: func.func @sparse_vector(
// CHECK: parallel = #sparse_array.parallel<"ranges", min_extent = 16384, min_work = 2097152, balance = 0, parts>
func.func @sparse_vector(%a: !sv, %b: !sv) -> !sv {
  %c = sparse_array.map @add(%a, %b) : (!sv, !sv) -> !sv
  return %c : !sv
}

// A compressed vector over counted rows (SpMV into a sparse vector): each
// row gives at most one entry; parts append to buffers of their own.
// CHECK-LABEL: func.func @mxv_sparse(
// CHECK: parallel = #sparse_array.parallel<"outer", min_extent = 256, min_work = 2097152, balance = 0, parts>
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

// CSR + CSR into DCSR or COO: each part assembles its rows on its own,
// the parts' buffers are joined in order.
// CHECK-LABEL: func.func @dcsr_result(
// CHECK: parallel = #sparse_array.parallel<"outer", min_extent = 256, min_work = 2097152, balance = 0, parts>
// CHECK-LABEL: func.func @coo_result(
// CHECK: parallel = #sparse_array.parallel<"outer", min_extent = 256, min_work = 2097152, balance = 0, parts>
func.func @dcsr_result(%a: !csr, %b: !csr) -> !dcsr {
  %c = sparse_array.map @add(%a, %b) : (!csr, !csr) -> !dcsr
  return %c : !dcsr
}
func.func @coo_result(%a: !csr, %b: !csr) -> !coo {
  %c = sparse_array.map @add(%a, %b) : (!csr, !csr) -> !coo
  return %c : !coo
}

// DCSR inputs: the outermost loop coiterates their stored rows, cut into
// ranges at A's (parts of equal entries below them).
// CHECK-LABEL: func.func @dcsr_inputs(
// CHECK: parallel = #sparse_array.parallel<"ranges", min_extent = 256, min_work = 2097152, balance = 0, parts>
func.func @dcsr_inputs(%a: !dcsr, %b: !dcsr) -> !dcsr {
  %c = sparse_array.map @add(%a, %b) : (!dcsr, !dcsr) -> !dcsr
  return %c : !dcsr
}

// SpMV over DCSR rows into a dense vector: ranges of stored rows, each
// storing its rows in place (no parts).
// CHECK-LABEL: func.func @stored_rows(
// CHECK: parallel = #sparse_array.parallel<"ranges", min_extent = 256, min_work = 32768, balance = 0>
func.func @stored_rows(%a: !dcsr, %x: !dv) -> !dv {
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

// Stored rows: a DCSR whose rows are not in order is converted before
// (its rows are not coiterated), the total of a DCSR stays sequential (a
// scalar fold over stored rows stays in order), and a DCSR plus a dense
// matrix (U visits every row, stepping the DCSR's cursor) runs in equal
// ranges of rows (no balance).
// CHECK-LABEL: func.func @unordered_rows(
// CHECK: sparse_array.convert
// CHECK: parallel = #sparse_array.parallel<"ranges", min_extent = 256, min_work = 32768, balance = 0>
// CHECK-LABEL: func.func @stored_total(
// CHECK: parallel = #sparse_array.parallel<"none", reason = "scalar reduction over stored coordinates: its fold stays in order">
// CHECK-LABEL: func.func @stored_plus_dense(
// CHECK: parallel = #sparse_array.parallel<"ranges", min_extent = 256, min_work = 32768>
func.func @unordered_rows(%a: !udcsr, %x: !dv) -> !dv {
  %y = sparse_array.kernel ins(%a, %x : !udcsr, !dv) -> !dv {
  ^bb0(%i: index, %j: index, %A: !udcsr, %X: !dv):
    %aij = sparse_array.access %A[%i, %j] : !udcsr
    %xj = sparse_array.access %X[%j] : !dv
    %p = sparse_array.apply @mul(%aij, %xj) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%j] %p with @add : f64
    sparse_array.yield %s : f64
  }
  return %y : !dv
}
func.func @stored_total(%a: !dcsr) -> !sparse_array.array<f64> {
  %s = sparse_array.reduce @add %a dims [0, 1] : !dcsr -> !sparse_array.array<f64>
  return %s : !sparse_array.array<f64>
}
func.func @stored_plus_dense(%a: !dcsr, %b: !dm) -> !dm {
  %c = sparse_array.map @add(%a, %b) : (!dcsr, !dm) -> !dm
  return %c : !dm
}

// A scalar reduction with an associative combiner: its first loop (rows)
// in parts of equal entries, the parts' results combined in order.
// CHECK-LABEL: func.func @total(
// CHECK: parallel = #sparse_array.parallel<"outer", min_extent = 256, min_work = 32768, balance = 0>
func.func @total(%a: !csr) -> !sparse_array.array<f64> {
  %s = sparse_array.reduce @add %a dims [0, 1] : !csr -> !sparse_array.array<f64>
  return %s : !sparse_array.array<f64>
}

// Not declared associative (IEEE addition with NaN and -0.0 as the
// standard library's add_f64): the fold is not regrouped.
sparse_array.func @exact_add(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
// CHECK-LABEL: func.func @total_exact(
// CHECK: parallel = #sparse_array.parallel<"none", reason = "scalar reduction whose combiner is not declared associative: its fold cannot be regrouped into parts">
func.func @total_exact(%a: !csr) -> !sparse_array.array<f64> {
  %s = sparse_array.reduce @exact_add %a dims [0, 1] : !csr -> !sparse_array.array<f64>
  return %s : !sparse_array.array<f64>
}

// A static vector below the threshold of a single loop.
// CHECK-LABEL: func.func @total_tiny(
// CHECK: parallel = #sparse_array.parallel<"none", reason = "the outermost loop has 8 iterations, fewer than 16384">
func.func @total_tiny(%a: !d8) -> !sparse_array.array<f64> {
  %s = sparse_array.reduce @add %a dims [0] : !d8 -> !sparse_array.array<f64>
  return %s : !sparse_array.array<f64>
}

// Static sizes below the threshold stay sequential (unless the threshold
// is lowered).
// CHECK-LABEL: func.func @tiny(
// CHECK: parallel = #sparse_array.parallel<"none", reason = "the outermost loop has 8 iterations, fewer than 16384">
// SMALL-LABEL: func.func @tiny(
// SMALL: parallel = #sparse_array.parallel<"outer", min_extent = 2, min_work = 5>
func.func @tiny(%a: !d8, %b: !d8) -> !d8 {
  %c = sparse_array.map @add(%a, %b) : (!d8, !d8) -> !d8
  return %c : !d8
}
// Dense rows cost alike: rows shared out as they come (no balance).
// CHECK-LABEL: func.func @rows_enough(
// CHECK: parallel = #sparse_array.parallel<"outer", min_extent = 256, min_work = 32768>{{[}]}}
func.func @rows_enough(%a: !d1000, %b: !d1000) -> !d1000 {
  %c = sparse_array.map @add(%a, %b) : (!d1000, !d1000) -> !d1000
  return %c : !d1000
}

// A row-wise (Gustavson) product: parts of rows with a workspace each,
// balanced by the products counted through P's rows (input 0).
// CHECK-LABEL: func.func @spgemm(
// CHECK: parallel = #sparse_array.parallel<"outer", min_extent = 256, min_work = 2097152, balance = 0, parts>
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

// Column sums of CSR (a scatter reduction: every row adds into the
// columns' entries) with an associative combiner: the rows in parts of
// equal entries, each part accumulating on its own (`parts`), combined per
// column in part order. Into a compressed vector too; from DCSR in ranges
// of its stored rows.
// CHECK-LABEL: func.func @column_sums(
// CHECK: parallel = #sparse_array.parallel<"outer", min_extent = 256, min_work = 32768, balance = 0, parts>
// CHECK: scatter_loops = array<i32: 1, 0>
func.func @column_sums(%a: !csr) -> !dv {
  %y = sparse_array.reduce @add %a dims [0] : !csr -> !dv
  return %y : !dv
}
// CHECK-LABEL: func.func @column_sums_sparse(
// CHECK: parallel = #sparse_array.parallel<"outer", min_extent = 256, min_work = 32768, balance = 0, parts>
func.func @column_sums_sparse(%a: !csr) -> !sv {
  %y = sparse_array.reduce @add %a dims [0] : !csr -> !sv
  return %y : !sv
}
// CHECK-LABEL: func.func @column_sums_dcsr(
// CHECK: parallel = #sparse_array.parallel<"ranges", min_extent = 256, min_work = 32768, balance = 0, parts>
func.func @column_sums_dcsr(%a: !dcsr) -> !dv {
  %y = sparse_array.reduce @add %a dims [0] : !dcsr -> !dv
  return %y : !dv
}
// Not declared associative: each column's fold stays in row order.
// CHECK-LABEL: func.func @column_sums_exact(
// CHECK: parallel = #sparse_array.parallel<"none", reason = "scatter reduction: iterations of its outer loop combine into the same result entries, and its combiner is not declared associative: the entries' folds cannot be regrouped">
func.func @column_sums_exact(%a: !csr) -> !dv {
  %y = sparse_array.reduce @exact_add %a dims [0] : !csr -> !dv
  return %y : !dv
}
// The scatter loops' own plan says why they stay sequential: here a
// static extent below the threshold.
!d8x4 = !sparse_array.array<8x4xf64, #sparse_array.format<[dense, compressed]>>
// CHECK-LABEL: func.func @column_sums_tiny(
// CHECK: parallel = #sparse_array.parallel<"none", reason = "scatter reduction: its loops: the outermost loop has 8 iterations, fewer than 256">
// SMALL-LABEL: func.func @column_sums_tiny(
// SMALL: parallel = #sparse_array.parallel<"outer", min_extent = 2, min_work = 5, balance = 0, parts>
func.func @column_sums_tiny(%a: !d8x4) -> !sparse_array.array<4xf64> {
  %y = sparse_array.reduce @add %a dims [0] : !d8x4 -> !sparse_array.array<4xf64>
  return %y : !sparse_array.array<4xf64>
}
// A CSF summed over its middle level into CSR: accumulated row by row in
// one workspace.
!csf = !sparse_array.array<?x?x?xf64, #sparse_array.format<[dense, compressed, compressed]>>
// CHECK-LABEL: func.func @csf_middle(
// CHECK: parallel = #sparse_array.parallel<"none", reason = "scatter reduction: a sparse result accumulated row by row in one workspace">
func.func @csf_middle(%a: !csf) -> !csr {
  %y = sparse_array.reduce @add %a dims [1] : !csf -> !csr
  return %y : !csr
}
