// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks -O0 %s | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 sa-run --parallel-min-work=1 --parallel-min-extent=1 %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-legalize-formats --sparse-array-derive-algebra --sparse-array-build-lattices | FileCheck %s --check-prefix=PLAN
// Kernels over block formats (seed 002's BCSR; issue 58): the blocked input
// read by its levels (sparse_array.demap, no conversion) where the kernel
// allows, else converted to its unblocked format. Expected values: the
// dense program in Python floats, a left fold over k from add_f64's
// identity -0.0 (max from -inf), independent of the compiler:
//   A = [[1, 0, 2, 0, 0, 0], [0, -3, 0, 0, 0, 0], [0, 0, 0, 4, 0, 5],
//        [0, 0, 0, -0.0, 6, 0]], in 2 x 3 blocks (blocks (0, 0) and (1, 1)
//        stored whole, their zeros and the -0.0 included)
//   x1 = [1, 10, 100, 1000, -2, 0.5]: A x1 = [201, -30, 4002.5, -12]
//   x2 = x1 with x2[3] = inf: A x2 = [nan, nan, inf, nan] (0 * inf, -0.0 * inf)
//   max over each row (fill 0 counts): [2, 0, 5, 6]
//   column sums, A stored in column-major 2 x 1 blocks: [1, -3, 2, 4, 6, 5]
//   A + A (a sparse result: converted): the entries not +0.0, the -0.0
//   too (-0.0 + -0.0 = -0.0)

// The SpMV is planned as an exact dot over A's stored points (counts of
// x's non-finite values), A's levels located and iterated as stored:
// PLAN-LABEL: func.func @spmv(
// PLAN: sparse_array.demap
// PLAN-NOT: sparse_array.convert
// PLAN: strategy = signed_zero_dot
// PLAN-LABEL: func.func @double(
// PLAN: sparse_array.convert

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
sparse_array.func @max_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, idempotent,
                identity = #sparse_array.identity<-inf : f64>} {
  %r = arith.maximumf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @twice(%x: f64) -> f64 {
  %r = arith.addf %x, %x : f64
  sparse_array.yield %r : f64
}

!bsr = !sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed, dense, dense], order = [0, 1, 0, 1], blocks = [2, 3]>>
!bsc = !sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed, dense], order = [1, 0, 0], blocks = [2, 1]>>
!csr = !sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed]>>
!x = !sparse_array.array<6xf64>
!y = !sparse_array.array<4xf64>

func.func @spmv(%a: !bsr, %x: !x) -> !y {
  %r = sparse_array.kernel ins(%a, %x : !bsr, !x) -> !y {
  ^bb0(%i: index, %k: index, %A: !bsr, %X: !x):
    %p = sparse_array.access %A[%i, %k] : !bsr
    %q = sparse_array.access %X[%k] : !x
    %m = sparse_array.apply @mul_f64(%p, %q) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%k] %m with @add_f64 : f64
    sparse_array.yield %s : f64
  }
  return %r : !y
}

func.func @row_max(%a: !bsr) -> !y {
  %r = sparse_array.kernel ins(%a : !bsr) -> !y {
  ^bb0(%i: index, %k: index, %A: !bsr):
    %p = sparse_array.access %A[%i, %k] : !bsr
    %s = sparse_array.reduce_over [%k] %p with @max_f64 : f64
    sparse_array.yield %s : f64
  }
  return %r : !y
}

func.func @column_sums(%a: !bsc) -> !x {
  %r = sparse_array.kernel ins(%a : !bsc) -> !x {
  ^bb0(%j: index, %i: index, %A: !bsc):
    %p = sparse_array.access %A[%i, %j] : !bsc
    %s = sparse_array.reduce_over [%i] %p with @add_f64 : f64
    sparse_array.yield %s : f64
  }
  return %r : !x
}

func.func @double(%a: !bsr) -> !csr {
  %r = sparse_array.kernel ins(%a : !bsr) -> !csr {
  ^bb0(%i: index, %j: index, %A: !bsr):
    %p = sparse_array.access %A[%i, %j] : !bsr
    %n = sparse_array.apply @twice(%p) : (f64) -> f64
    sparse_array.yield %n : f64
  }
  return %r : !csr
}

func.func @main() {
  %d = sparse_array.constant dense<[[1.0, 0.0, 2.0, 0.0, 0.0, 0.0], [0.0, -3.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 4.0, 0.0, 5.0], [0.0, 0.0, 0.0, -0.0, 6.0, 0.0]]> : tensor<4x6xf64> : !sparse_array.array<4x6xf64>
  %a = sparse_array.convert %d : !sparse_array.array<4x6xf64> to !bsr
  %c = sparse_array.convert %d : !sparse_array.array<4x6xf64> to !bsc
  %x1 = sparse_array.constant dense<[1.0, 10.0, 100.0, 1000.0, -2.0, 0.5]> : tensor<6xf64> : !x
  %x2 = sparse_array.constant dense<[1.0, 10.0, 100.0, 0x7FF0000000000000, -2.0, 0.5]> : tensor<6xf64> : !x
  %y1 = call @spmv(%a, %x1) : (!bsr, !x) -> !y
  sparse_array.print %y1 : !y
  %y2 = call @spmv(%a, %x2) : (!bsr, !x) -> !y
  sparse_array.print %y2 : !y
  %m = call @row_max(%a) : (!bsr) -> !y
  sparse_array.print %m : !y
  %s = call @column_sums(%c) : (!bsc) -> !x
  sparse_array.print %s : !x
  %n = call @double(%a) : (!bsr) -> !csr
  sparse_array.print %n : !csr
  return
}
// CHECK:      # fill: 0
// CHECK-NEXT: 1 4
// CHECK-NEXT: 4
// CHECK-NEXT: 1 201
// CHECK-NEXT: 2 -30
// CHECK-NEXT: 3 4002.5
// CHECK-NEXT: 4 -12
// CHECK-NEXT: # fill: 0
// CHECK-NEXT: 1 4
// CHECK-NEXT: 4
// CHECK-NEXT: 1 nan
// CHECK-NEXT: 2 nan
// CHECK-NEXT: 3 inf
// CHECK-NEXT: 4 {{-?}}nan
// CHECK-NEXT: # fill: 0
// CHECK-NEXT: 1 3
// CHECK-NEXT: 4
// CHECK-NEXT: 1 2
// CHECK-NEXT: 3 5
// CHECK-NEXT: 4 6
// CHECK-NEXT: # fill: 0
// CHECK-NEXT: 1 6
// CHECK-NEXT: 6
// CHECK-NEXT: 1 1
// CHECK-NEXT: 2 -3
// CHECK-NEXT: 3 2
// CHECK-NEXT: 4 4
// CHECK-NEXT: 5 6
// CHECK-NEXT: 6 5
// CHECK-NEXT: # fill: 0
// CHECK-NEXT: 2 7
// CHECK-NEXT: 4 6
// CHECK-NEXT: 1 1 2
// CHECK-NEXT: 1 3 4
// CHECK-NEXT: 2 2 -6
// CHECK-NEXT: 3 4 8
// CHECK-NEXT: 3 6 10
// CHECK-NEXT: 4 4 -0
// CHECK-NEXT: 4 5 12
