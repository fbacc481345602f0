// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks -O0 %s | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 sa-run --parallel-min-work=1 --parallel-min-extent=1 %s | FileCheck %s
// RUN: not sa-run --entry-point=unsorted_entry %s 2>&1 | FileCheck %s --check-prefix=UNSORTED
// RUN: not sa-run --entry-point=too_full_entry %s 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: sa-opt %s --sparse-array-legalize-formats | FileCheck %s --check-prefix=PLAN
// N:M structured sparsity (upstream's `structured[2, 4]`): a 3 x 8 matrix,
// columns in blocks of 4, each holding at most 2 entries, assembled by
// hand. Two slots per block, entries first, then padding (all-ones
// coordinates; the values there, 1e300, are garbage no kernel may read):
//   A = [[0, 0, 1, 2 | 0, 3, 0, 4],
//        [0, 5, 0, 0 | 7, 0, 0, 8],
//        [9, 0, -0.0, 0 | 0, 0, 0, 0]]  (the -0.0 stored)
//   x = [1 .. 8]: A x = [61, 109, 9]
//   max over each row from -inf (the fill 0 counts where a row has one):
//     [4, 8, 9]
//   A * 2 (dense B = 2, a structured result: converted): the entries
//     doubled, the -0.0 too
// Expected values: the dense program in Python floats.

// Kernels read the structured level as stored (demap, no conversion).
// PLAN-LABEL: func.func @spmv(
// PLAN: sparse_array.demap
// PLAN-NOT: sparse_array.convert
// PLAN-LABEL: func.func @rowmax(
// PLAN: sparse_array.demap
// PLAN-NOT: sparse_array.convert
// PLAN-LABEL: func.func @double(

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
                identity = #sparse_array.identity<0xFFF0000000000000 : f64>} {
  %r = arith.maximumf %x, %y : f64
  sparse_array.yield %r : f64
}

!nm = !sparse_array.array<3x8xf64, #sparse_array.format<[dense, dense, structured[2, 4]], order = [0, 1, 1], blocks = [1, 4]>>
!d = !sparse_array.array<3x8xf64>
!x = !sparse_array.array<8xf64>
!y = !sparse_array.array<3xf64>

memref.global "private" constant @crd : memref<12xi64> = dense<[2, 3, 1, 3, 1, -1, 0, 3, 0, 2, -1, -1]>
memref.global "private" constant @val : memref<12xf64> = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 1.0e300, 7.0, 8.0, 9.0, -0.0, 1.0e300, 1.0e300]>
// Block (1, 1) holds 3 before 0: not ascending.
memref.global "private" constant @unsorted_crd : memref<12xi64> = dense<[2, 3, 1, 3, 1, -1, 3, 0, 0, 2, -1, -1]>

func.func @assemble(%c0: memref<12xi64>) -> !nm {
  %i3 = arith.constant 3 : index
  %i8 = arith.constant 8 : index
  %v0 = memref.get_global @val : memref<12xf64>
  %c = memref.cast %c0 : memref<12xi64> to memref<?xi64>
  %v = memref.cast %v0 : memref<12xf64> to memref<?xf64>
  %a = sparse_array.assemble (%c, %v), (%i3, %i8) : memref<?xi64>, memref<?xf64> -> !nm
  return %a : !nm
}

func.func @spmv(%a: !nm, %x: !x) -> !y {
  %r = sparse_array.kernel ins(%a, %x : !nm, !x) -> !y {
  ^bb0(%i: index, %k: index, %A: !nm, %X: !x):
    %p = sparse_array.access %A[%i, %k] : !nm
    %q = sparse_array.access %X[%k] : !x
    %m = sparse_array.apply @mul_f64(%p, %q) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%k] %m with @add_f64 : f64
    sparse_array.yield %s : f64
  }
  return %r : !y
}

func.func @rowmax(%a: !nm) -> !y {
  %r = sparse_array.kernel ins(%a : !nm) -> !y {
  ^bb0(%i: index, %k: index, %A: !nm):
    %p = sparse_array.access %A[%i, %k] : !nm
    %s = sparse_array.reduce_over [%k] %p with @max_f64 : f64
    sparse_array.yield %s : f64
  }
  return %r : !y
}

func.func @double(%a: !nm, %b: !d) -> !nm {
  %r = sparse_array.kernel ins(%a, %b : !nm, !d) -> !nm {
  ^bb0(%i: index, %k: index, %A: !nm, %B: !d):
    %p = sparse_array.access %A[%i, %k] : !nm
    %q = sparse_array.access %B[%i, %k] : !d
    %m = sparse_array.apply @mul_f64(%p, %q) : (f64, f64) -> f64
    sparse_array.yield %m : f64
  }
  return %r : !nm
}

func.func @main() {
  %crd = memref.get_global @crd : memref<12xi64>
  %a = call @assemble(%crd) : (memref<12xi64>) -> !nm
  %x = sparse_array.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf64> : !x
  %y = call @spmv(%a, %x) : (!nm, !x) -> !y
  sparse_array.print %y : !y
  %m = call @rowmax(%a) : (!nm) -> !y
  sparse_array.print %m : !y
  %two = sparse_array.constant dense<2.0> : tensor<3x8xf64> : !d
  %b = call @double(%a, %two) : (!nm, !d) -> !nm
  sparse_array.print %b : !nm
  // Through the dense format and back: the runtime packs the blocks.
  %dense = sparse_array.convert %b : !nm to !d
  %back = sparse_array.convert %dense : !d to !nm
  %y2 = call @spmv(%back, %x) : (!nm, !x) -> !y
  sparse_array.print %y2 : !y
  return
}

func.func @unsorted_entry() {
  %crd = memref.get_global @unsorted_crd : memref<12xi64>
  %a = call @assemble(%crd) : (memref<12xi64>) -> !nm
  sparse_array.print %a : !nm
  return
}

// Three entries in block (0, 0): no 2:4 array holds them.
func.func @too_full_entry() {
  %d = sparse_array.constant dense<[[1.0, 2.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]> : tensor<3x8xf64> : !d
  %a = sparse_array.convert %d : !d to !nm
  sparse_array.print %a : !nm
  return
}
// CHECK:      # fill: 0
// CHECK-NEXT: 1 3
// CHECK-NEXT: 3
// CHECK-NEXT: 1 61
// CHECK-NEXT: 2 109
// CHECK-NEXT: 3 9
// CHECK-NEXT: # fill: 0
// CHECK-NEXT: 1 3
// CHECK-NEXT: 3
// CHECK-NEXT: 1 4
// CHECK-NEXT: 2 8
// CHECK-NEXT: 3 9
// CHECK-NEXT: # fill: 0
// CHECK-NEXT: 2 9
// CHECK-NEXT: 3 8
// CHECK-NEXT: 1 3 2
// CHECK-NEXT: 1 4 4
// CHECK-NEXT: 1 6 6
// CHECK-NEXT: 1 8 8
// CHECK-NEXT: 2 2 10
// CHECK-NEXT: 2 5 14
// CHECK-NEXT: 2 8 16
// CHECK-NEXT: 3 1 18
// CHECK-NEXT: 3 3 -0
// CHECK-NEXT: # fill: 0
// CHECK-NEXT: 1 3
// CHECK-NEXT: 3
// CHECK-NEXT: 1 122
// CHECK-NEXT: 2 218
// CHECK-NEXT: 3 18
// UNSORTED: level 2 coordinates not ascending, or an entry after padding, at position 7
// FULL: a block holds 3 entries, more than the 2 of structured[2, 4]
