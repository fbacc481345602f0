// RUN: sa-opt %s --sparse-array-derive-algebra --sparse-array-build-lattices | FileCheck %s --check-prefix=PLAN
// RUN: sa-opt %s --sparse-array-derive-algebra --sparse-array-build-lattices \
// RUN:   | sed 's/value_fill = <1 : i64>/value_fill = <7 : i64>/' \
// RUN:   | sa-opt --sparse-array-lower-iterators | FileCheck %s
// RUN: sa-opt %s --sparse-array-derive-algebra --sparse-array-build-lattices \
// RUN:   | sed 's/key_short_range = 16/key_short_range = 5/' \
// RUN:   | sa-opt --sparse-array-lower-iterators | FileCheck %s --check-prefix=KEYS
// RUN: sa-opt %s --sparse-array-derive-algebra --sparse-array-build-lattices=workspace=hash \
// RUN:   | FileCheck %s --check-prefix=HASH
// RUN: sa-opt %s --sparse-array-derive-algebra --sparse-array-build-lattices=workspace=hash \
// RUN:   | sed 's/workspace = hash/workspace = dense/' \
// RUN:   | sa-opt --sparse-array-lower-iterators | FileCheck %s --check-prefix=DENSE
// RUN: not sa-opt %s --sparse-array-build-lattices=workspace=bogus 2>&1 | FileCheck %s --check-prefix=BOGUS
// Code generation carries out the reduction plan the planner recorded on
// reduce_over; it does not plan again (issue 58). Row sums of an i64 CSR
// matrix with fill 1 are planned `reassociate` (the fill is not add's
// identity 0): the stored entries, then the fill once per implicit entry,
// combined by repeated squaring from the plan's value_fill. The second RUN
// edits the recorded fill to 7: the lowering folds 7s — re-planning would
// have derived 1 again.
// Row maxima of f64 are planned to accumulate total-order keys, rows of at
// most key_short_range entries as floats first; the third RUN edits that
// length to 5, which the lowering's dispatch then compares with.

// PLAN: reduce_over {{.*}} with @max_f64 {plan = #sparse_array.reduction<strategy = idempotent, algebra = <0>, value_fill = <0.0 : f64>, keys = max, key_short_range = 16>}
// PLAN: reduce_over {{.*}} {plan = #sparse_array.reduction<strategy = reassociate, algebra = <0>, value_fill = <1 : i64>>}


// KEYS-LABEL: func.func @row_max(
// KEYS: %[[FIVE:.*]] = arith.constant 5 : index
// KEYS: arith.cmpi ule, %{{.*}}, %[[FIVE]] : index

// A row-wise product's workspace is the planner's option, recorded on the
// plan (absent: auto, chosen per call); the lowering builds the one the
// plan names: edited from hash to dense, the hash table's probing loops
// are gone (one scf.while left: the rows' sort).
// HASH: with @add_i64 {plan = #sparse_array.reduction<strategy = identity, algebra = <intersect(0, 1)>, value_fill = <0 : i64>, workspace = hash>, scatter = array<i32: 0, 1>}
// DENSE-LABEL: func.func @spgemm(
// DENSE-COUNT-1: scf.while
// DENSE-NOT: scf.while
// BOGUS: unknown workspace 'bogus' (auto, dense or hash)

// CHECK-LABEL: func.func @row_sums(
// CHECK: arith.constant 7 : i64
// CHECK-NOT: sparse_array.reduce_over

sparse_array.func @add_i64(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}

sparse_array.func @max_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, idempotent,
                identity = #sparse_array.identity<-inf : f64>} {
  %r = arith.maximumf %x, %y : f64
  sparse_array.yield %r : f64
}

!fcsr = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
!fy = !sparse_array.array<?xf64>

func.func @row_max(%a: !fcsr) -> !fy {
  %r = sparse_array.kernel ins(%a : !fcsr) -> !fy {
  ^bb0(%i: index, %j: index, %A: !fcsr):
    %v = sparse_array.access %A[%i, %j] : !fcsr
    %s = sparse_array.reduce_over [%j] %v with @max_f64 : f64
    sparse_array.yield %s : f64
  }
  return %r : !fy
}

!csr = !sparse_array.array<?x?xi64, #sparse_array.format<[dense, compressed], fill = 1 : i64>>
!y = !sparse_array.array<?xi64>

func.func @row_sums(%a: !csr) -> !y {
  %r = sparse_array.kernel ins(%a : !csr) -> !y {
  ^bb0(%i: index, %j: index, %A: !csr):
    %v = sparse_array.access %A[%i, %j] : !csr
    %s = sparse_array.reduce_over [%j] %v with @add_i64 : i64
    sparse_array.yield %s : i64
  }
  return %r : !y
}

!sp = !sparse_array.array<?x?xi64, #sparse_array.format<[dense, compressed]>>
sparse_array.func @mul(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, annihilator = #sparse_array.annihilator<0 : i64>,
                identity = #sparse_array.identity<1 : i64>} {
  %r = arith.muli %x, %y : i64
  sparse_array.yield %r : i64
}

func.func @spgemm(%a: !sp, %b: !sp) -> !sp {
  %c = sparse_array.kernel ins(%a, %b : !sp, !sp) -> !sp {
  ^bb0(%i: index, %j: index, %k: index, %A: !sp, %B: !sp):
    %x = sparse_array.access %A[%i, %k] : !sp
    %y = sparse_array.access %B[%k, %j] : !sp
    %p = sparse_array.apply @mul(%x, %y) : (i64, i64) -> i64
    %s = sparse_array.reduce_over [%k] %p with @add_i64 : i64
    sparse_array.yield %s : i64
  }
  return %c : !sp
}
