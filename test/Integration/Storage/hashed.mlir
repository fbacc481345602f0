// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks -O0 %s | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 sa-run --parallel-min-work=1 --parallel-min-extent=1 %s | FileCheck %s
// RUN: not sa-run --entry-point=unreachable_entry %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: sa-opt %s --sparse-array-legalize-formats | FileCheck %s --check-prefix=PLAN
// seed 002's hashed level (Table 2's locate by linear probing): a vector of
// 16 in one table of W = 8 slots, assembled by hand. Home slots
// (hashedHome(c, 8), SparseArrayLevelTraits.h): 0, 6, 11 -> 0; 1 -> 1;
// 5 -> 7; 10, 15 -> 6. The table holds 6, 0, 1, 11 in slots 0-3 (a chain
// from home 0), 15 in slot 4 (home 6, wrapped past 10 in 6 and 5 in 7),
// slot 5 empty (all-ones coordinate; its value 1e300 is garbage no
// kernel may read), 10 in 6, 5 in 7. Probes for 12 (home 1) and 14
// (home 4) run to the empty slot and miss.
//   x = [-0.0, -7, 0, 0, 0, 5, 6, 0, 0, 0, 10, 11, 0, 0, 0, 15], fill 0
//   sum (add_f64 from -0.0): 40
//   A x, A = rows {0: 1, 1: 2, 3: 100}, {5: 1, 12: 1, 15: 2}, {},
//            {6: 1, 10: 1, 11: 1, 14: -1}: [-14, 35, 0, 27]
//   2 * x (dense y = 2): [-0, -14, 0, 0, 0, 10, 12, 0, 0, 0, 20, 22, 0, 0, 0, 30]
//   x[12] = 0 (a miss, not the garbage), x[15] = 15, x[0] = -0

// Legalization leaves the table as it is (printing and the conversion to a
// sorted vector are the runtime's); sparse-array-build-lattices then
// locates into it for @spmv (the rows' columns drive the loop) and reads
// an ordered copy where locating would visit every coordinate (@total,
// @twice, @gaps: test/Transforms/build-lattices.mlir pins which).
// PLAN-LABEL: func.func @spmv(
// PLAN-NOT: sparse_array.convert
// PLAN-LABEL: func.func @total(
// PLAN-NOT: sparse_array.convert
// PLAN-LABEL: func.func @twice(
// PLAN-NOT: sparse_array.convert
// PLAN-LABEL: func.func @main(

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

!hashed = !sparse_array.array<16xf64, #sparse_array.format<[hashed]>>
!sv = !sparse_array.array<16xf64, #sparse_array.format<[compressed]>>
!x = !sparse_array.array<16xf64>
!a = !sparse_array.array<4x16xf64, #sparse_array.format<[dense, compressed]>>
!y = !sparse_array.array<4xf64>
!s = !sparse_array.array<f64>
!hninf = !sparse_array.array<16xf64, #sparse_array.format<[hashed], fill = 0xFFF0000000000000 : f64>>
!snan = !sparse_array.array<16xf64, #sparse_array.format<[compressed], fill = 0xFFF8000000000000 : f64>>

memref.global "private" constant @width : memref<1xi64> = dense<[8]>
memref.global "private" constant @crd : memref<8xi64> = dense<[6, 0, 1, 11, 15, -1, 10, 5]>
memref.global "private" constant @val : memref<8xf64> = dense<[6.0, -0.0, -7.0, 11.0, 15.0, 1.0e300, 10.0, 5.0]>
// 15 moved to slot 5, past the empty slot 4 where its probe stops.
memref.global "private" constant @bad_crd : memref<8xi64> = dense<[6, 0, 1, 11, -1, 15, 10, 5]>

func.func @assemble(%c0: memref<8xi64>) -> !hashed {
  %c16 = arith.constant 16 : index
  %w0 = memref.get_global @width : memref<1xi64>
  %v0 = memref.get_global @val : memref<8xf64>
  %w = memref.cast %w0 : memref<1xi64> to memref<?xi64>
  %c = memref.cast %c0 : memref<8xi64> to memref<?xi64>
  %v = memref.cast %v0 : memref<8xf64> to memref<?xf64>
  %h = sparse_array.assemble (%w, %c, %v), (%c16) : memref<?xi64>, memref<?xi64>, memref<?xf64> -> !hashed
  return %h : !hashed
}

func.func @spmv(%a: !a, %x: !hashed) -> !y {
  %r = sparse_array.kernel ins(%a, %x : !a, !hashed) -> !y {
  ^bb0(%i: index, %k: index, %A: !a, %X: !hashed):
    %p = sparse_array.access %A[%i, %k] : !a
    %q = sparse_array.access %X[%k] : !hashed
    %m = sparse_array.apply @mul_f64(%p, %q) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%k] %m with @add_f64 : f64
    sparse_array.yield %s : f64
  }
  return %r : !y
}

func.func @total(%x: !hashed) -> !s {
  %r = sparse_array.kernel ins(%x : !hashed) -> !s {
  ^bb0(%k: index, %X: !hashed):
    %q = sparse_array.access %X[%k] : !hashed
    %s = sparse_array.reduce_over [%k] %q with @add_f64 : f64
    sparse_array.yield %s : f64
  }
  return %r : !s
}

func.func @twice(%x: !hashed, %y: !x) -> !x {
  %r = sparse_array.kernel ins(%x, %y : !hashed, !x) -> !x {
  ^bb0(%k: index, %X: !hashed, %Y: !x):
    %q = sparse_array.access %X[%k] : !hashed
    %p = sparse_array.access %Y[%k] : !x
    %m = sparse_array.apply @mul_f64(%q, %p) : (f64, f64) -> f64
    sparse_array.yield %m : f64
  }
  return %r : !x
}

func.func @main() {
  %crd = memref.get_global @crd : memref<8xi64>
  %x = call @assemble(%crd) : (memref<8xi64>) -> !hashed
  %a = sparse_array.constant dense<[[1.0, 2.0, 0.0, 100.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
                                    [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 2.0],
                                    [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
                                    [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, -1.0, 0.0]]> : tensor<4x16xf64> : !a
  %y = call @spmv(%a, %x) : (!a, !hashed) -> !y
  sparse_array.print %y : !y
  %t = call @total(%x) : (!hashed) -> !s
  sparse_array.print %t : !s
  %two = sparse_array.constant dense<2.0> : tensor<16xf64> : !x
  %d = call @twice(%x, %two) : (!hashed, !x) -> !x
  sparse_array.print %d : !x
  %c12 = arith.constant 12 : index
  %c15 = arith.constant 15 : index
  %c0 = arith.constant 0 : index
  %m = sparse_array.extract %x[%c12] : !hashed
  %h = sparse_array.extract %x[%c15] : !hashed
  %z = sparse_array.extract %x[%c0] : !hashed
  vector.print %m : f64
  vector.print %h : f64
  vector.print %z : f64
  // The runtime's conversion to a sorted vector skips the empty slot.
  %v = sparse_array.convert %x : !hashed to !sv
  sparse_array.print %v : !sv
  // And back: the runtime builds a table by insert (W = 16 for 7 entries).
  %back = sparse_array.convert %v : !sv to !hashed
  %t2 = call @total(%back) : (!hashed) -> !s
  sparse_array.print %t2 : !s
  %c16 = arith.constant 16 : index
  %w0 = memref.get_global @width : memref<1xi64>
  %v0 = memref.get_global @val : memref<8xf64>
  %w = memref.cast %w0 : memref<1xi64> to memref<?xi64>
  %cc = memref.cast %crd : memref<8xi64> to memref<?xi64>
  %vv = memref.cast %v0 : memref<8xf64> to memref<?xf64>
  %hn = sparse_array.assemble (%w, %cc, %vv), (%c16) : memref<?xi64>, memref<?xi64>, memref<?xf64> -> !hninf
  %g = call @gaps(%hn) : (!hninf) -> !snan
  sparse_array.print %g : !snan
  return
}

func.func @unreachable_entry() {
  %crd = memref.get_global @bad_crd : memref<8xi64>
  %x = call @assemble(%crd) : (memref<8xi64>) -> !hashed
  sparse_array.print %x : !hashed
  return
}
// -inf - x over x with fill -inf: NaN (the result's fill, x86's default
// NaN) where x has no entry, -inf where it has one. Located misses are
// points without x (the algebra's), never the body at the fill: LLVM folds
// -inf - -inf to another NaN, which a sparse result would store.
sparse_array.func @ninf_minus(%x: f64) -> f64 {
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %r = arith.subf %ninf, %x : f64
  sparse_array.yield %r : f64
}
func.func @gaps(%x: !hninf) -> !snan {
  %r = sparse_array.map @ninf_minus(%x) : (!hninf) -> !snan
  return %r : !snan
}

// CHECK:      # fill: 0
// CHECK-NEXT: 1 3
// CHECK-NEXT: 4
// CHECK-NEXT: 1 -14
// CHECK-NEXT: 2 35
// CHECK-NEXT: 4 27
// CHECK-NEXT: # fill: 0
// CHECK-NEXT: 0 1
// CHECK-EMPTY:
// CHECK-NEXT: 40
// CHECK-NEXT: # fill: 0
// CHECK-NEXT: 1 7
// CHECK-NEXT: 16
// CHECK-NEXT: 1 -0
// CHECK-NEXT: 2 -14
// CHECK-NEXT: 6 10
// CHECK-NEXT: 7 12
// CHECK-NEXT: 11 20
// CHECK-NEXT: 12 22
// CHECK-NEXT: 16 30
// CHECK-NEXT: 0
// CHECK-NEXT: 15
// CHECK-NEXT: -0
// CHECK-NEXT: # fill: 0
// CHECK-NEXT: 1 7
// CHECK-NEXT: 16
// CHECK-NEXT: 1 -0
// CHECK-NEXT: 2 -7
// CHECK-NEXT: 6 5
// CHECK-NEXT: 7 6
// CHECK-NEXT: 11 10
// CHECK-NEXT: 12 11
// CHECK-NEXT: 16 15
// CHECK-NEXT: # fill: 0
// CHECK-NEXT: 0 1
// CHECK-EMPTY:
// CHECK-NEXT: 40
// CHECK-NEXT: # fill: -nan
// CHECK-NEXT: 1 7
// CHECK-NEXT: 16
// CHECK-NEXT: 1 -inf
// CHECK-NEXT: 2 -inf
// CHECK-NEXT: 6 -inf
// CHECK-NEXT: 7 -inf
// CHECK-NEXT: 11 -inf
// CHECK-NEXT: 12 -inf
// CHECK-NEXT: 16 -inf
// BAD: level 0 coordinate 15 at position 5 is not reachable from its home slot 6 (an empty slot between)
