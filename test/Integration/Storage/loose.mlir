// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks -O0 %s | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 sa-run --parallel-min-work=1 --parallel-min-extent=1 %s | FileCheck %s
// RUN: not sa-run --entry-point=segment_past_the_end %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: sa-opt %s --sparse-array-legalize-formats | FileCheck %s --check-prefix=PLAN
// The loose_compressed level (upstream's; issue 58): row i's entries are
// positions [bounds[2i], bounds[2i+1]), the segments out of row order with
// gaps between them whose coordinates (99, 77, 55, 66) and values (1e300)
// are not entries. Kernels read the assembled buffers as they are. The
// matrix, and the expected values (Python floats; sums fold left from
// add_f64's identity -0.0):
//   A = [[0, 1, 0, 0, -0.0], [0, 0, 0, 0, 0], [2, 0, inf, -3, 0],
//        [0, 0, 0, 0, 4]]
//   x = [1, 10, 100, 1000, 0.5]: A x = [10, 0, inf, 2]
//   max over each row (fill 0 counts): [1, 0, inf, 4]
//   column sums (A read by columns: converted): [2, 1, inf, -3, 4]
//   A + A into CSR: 2 at (0, 1), -0.0 at (0, 4) (not the fill, bitwise),
//   4, inf, -6 in row 2, 8 at (3, 4)

// Row-wise kernels read A as stored; the column-wise one converts it.
// PLAN-LABEL: func.func @spmv(
// PLAN-NOT: sparse_array.convert
// PLAN-LABEL: func.func @column_sums(
// PLAN: sparse_array.convert %{{.*}} : !sparse_array.array<4x5xf64, #{{.*}}> to !sparse_array.array<4x5xf64, #[[CSR:.*]]>

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

!loose = !sparse_array.array<4x5xf64, #sparse_array.format<[dense, loose_compressed]>>
!csr = !sparse_array.array<4x5xf64, #sparse_array.format<[dense, compressed]>>
!x = !sparse_array.array<5xf64>
!y = !sparse_array.array<4xf64>

memref.global "private" constant @bounds : memref<8xi64> = dense<[6, 8, 3, 3, 0, 3, 4, 5]>
memref.global "private" constant @crd : memref<10xi64> = dense<[0, 2, 3, 99, 4, 77, 1, 4, 55, 66]>
memref.global "private" constant @val : memref<10xf64> = dense<[2.0, 0x7FF0000000000000, -3.0, 1.0e300, 4.0, 1.0e300, 1.0, -0.0, 1.0e300, 1.0e300]>
memref.global "private" constant @bad_bounds : memref<8xi64> = dense<[6, 8, 3, 3, 0, 11, 4, 5]>

func.func @assemble(%b: memref<8xi64>) -> !loose {
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c0 = memref.get_global @crd : memref<10xi64>
  %v0 = memref.get_global @val : memref<10xf64>
  %bd = memref.cast %b : memref<8xi64> to memref<?xi64>
  %c = memref.cast %c0 : memref<10xi64> to memref<?xi64>
  %v = memref.cast %v0 : memref<10xf64> to memref<?xf64>
  %a = sparse_array.assemble (%bd, %c, %v), (%c4, %c5) : memref<?xi64>, memref<?xi64>, memref<?xf64> -> !loose
  return %a : !loose
}

func.func @spmv(%a: !loose, %x: !x) -> !y {
  %r = sparse_array.kernel ins(%a, %x : !loose, !x) -> !y {
  ^bb0(%i: index, %k: index, %A: !loose, %X: !x):
    %p = sparse_array.access %A[%i, %k] : !loose
    %q = sparse_array.access %X[%k] : !x
    %m = sparse_array.apply @mul_f64(%p, %q) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%k] %m with @add_f64 : f64
    sparse_array.yield %s : f64
  }
  return %r : !y
}

func.func @row_max(%a: !loose) -> !y {
  %r = sparse_array.kernel ins(%a : !loose) -> !y {
  ^bb0(%i: index, %k: index, %A: !loose):
    %p = sparse_array.access %A[%i, %k] : !loose
    %s = sparse_array.reduce_over [%k] %p with @max_f64 : f64
    sparse_array.yield %s : f64
  }
  return %r : !y
}

func.func @column_sums(%a: !loose) -> !x {
  %r = sparse_array.kernel ins(%a : !loose) -> !x {
  ^bb0(%j: index, %i: index, %A: !loose):
    %p = sparse_array.access %A[%i, %j] : !loose
    %s = sparse_array.reduce_over [%i] %p with @add_f64 : f64
    sparse_array.yield %s : f64
  }
  return %r : !x
}

func.func @double(%a: !loose) -> !csr {
  %r = sparse_array.kernel ins(%a, %a : !loose, !loose) -> !csr {
  ^bb0(%i: index, %j: index, %A: !loose, %B: !loose):
    %p = sparse_array.access %A[%i, %j] : !loose
    %q = sparse_array.access %B[%i, %j] : !loose
    %n = sparse_array.apply @add_f64(%p, %q) : (f64, f64) -> f64
    sparse_array.yield %n : f64
  }
  return %r : !csr
}

func.func @main() {
  %b = memref.get_global @bounds : memref<8xi64>
  %a = call @assemble(%b) : (memref<8xi64>) -> !loose
  %x = sparse_array.constant dense<[1.0, 10.0, 100.0, 1000.0, 0.5]> : tensor<5xf64> : !x
  %y = call @spmv(%a, %x) : (!loose, !x) -> !y
  sparse_array.print %y : !y
  %m = call @row_max(%a) : (!loose) -> !y
  sparse_array.print %m : !y
  %s = call @column_sums(%a) : (!loose) -> !x
  sparse_array.print %s : !x
  %n = call @double(%a) : (!loose) -> !csr
  sparse_array.print %n : !csr
  // Back to loose_compressed (the runtime packs it, no gaps) and printed.
  %l = sparse_array.convert %n : !csr to !loose
  sparse_array.print %l : !loose
  return
}

func.func @segment_past_the_end() {
  %b = memref.get_global @bad_bounds : memref<8xi64>
  %a = call @assemble(%b) : (memref<8xi64>) -> !loose
  sparse_array.print %a : !loose
  return
}
// CHECK:      # fill: 0
// CHECK-NEXT: 1 3
// CHECK-NEXT: 4
// CHECK-NEXT: 1 10
// CHECK-NEXT: 3 inf
// CHECK-NEXT: 4 2
// CHECK-NEXT: # fill: 0
// CHECK-NEXT: 1 3
// CHECK-NEXT: 4
// CHECK-NEXT: 1 1
// CHECK-NEXT: 3 inf
// CHECK-NEXT: 4 4
// CHECK-NEXT: # fill: 0
// CHECK-NEXT: 1 5
// CHECK-NEXT: 5
// CHECK-NEXT: 1 2
// CHECK-NEXT: 2 1
// CHECK-NEXT: 3 inf
// CHECK-NEXT: 4 -3
// CHECK-NEXT: 5 4
// CHECK-NEXT: # fill: 0
// CHECK-NEXT: 2 6
// CHECK-NEXT: 4 5
// CHECK-NEXT: 1 2 2
// CHECK-NEXT: 1 5 -0
// CHECK-NEXT: 3 1 4
// CHECK-NEXT: 3 3 inf
// CHECK-NEXT: 3 4 -6
// CHECK-NEXT: 4 5 8
// CHECK-NEXT: # fill: 0
// CHECK-NEXT: 2 6
// CHECK-NEXT: 4 5
// CHECK-NEXT: 1 2 2
// CHECK-NEXT: 1 5 -0
// CHECK-NEXT: 3 1 4
// CHECK-NEXT: 3 3 inf
// CHECK-NEXT: 3 4 -6
// CHECK-NEXT: 4 5 8
// BAD: level 1 segment [0, 11) of parent position 2 is not within its 10 coordinates
