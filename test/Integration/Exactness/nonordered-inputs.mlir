// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices | FileCheck %s --check-prefix=PLAN
// Issue 14, class 3: `compressed(nonordered)` levels whose coordinates are
// out of order, assembled from buffers. Coiteration merges coordinates in
// increasing order, so such an input is sorted by a conversion first (the
// entry after an out-of-order one was skipped, and compressed results came
// out unordered in an ordered type). Expected values by hand (numpy on the
// dense arrays: u = [7, 42, 5], fill 42).

sparse_array.func @neg(%x: f64) -> f64 {
  %r = arith.negf %x : f64
  sparse_array.yield %r : f64
}
sparse_array.func @add(%x: f64, %y: f64) -> f64 {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}

!u = !sparse_array.array<3xf64, #sparse_array.format<[compressed(nonordered)], fill = 42.0 : f64>>
!d3 = !sparse_array.array<3xf64>
!c3 = !sparse_array.array<3xf64, #sparse_array.format<[compressed], fill = -42.0 : f64>>
!v3 = !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>
!c3f = !sparse_array.array<3xf64, #sparse_array.format<[compressed], fill = 42.0 : f64>>
!ucsr = !sparse_array.array<2x4xf64, #sparse_array.format<[dense, compressed(nonordered)]>>
!csr = !sparse_array.array<2x4xf64, #sparse_array.format<[dense, compressed]>>

memref.global "private" constant @upos : memref<2xi64> = dense<[0, 2]>
memref.global "private" constant @ucrd : memref<2xi64> = dense<[2, 0]>
memref.global "private" constant @uval : memref<2xf64> = dense<[5.0, 7.0]>
// Rows {3: 1, 0: 2, 2: 3} and {1: 4, 0: 5}.
memref.global "private" constant @mpos : memref<3xi64> = dense<[0, 3, 5]>
memref.global "private" constant @mcrd : memref<5xi64> = dense<[3, 0, 2, 1, 0]>
memref.global "private" constant @mval : memref<5xf64> = dense<[1.0, 2.0, 3.0, 4.0, 5.0]>

// Each kernel reading an unordered input converts it to the ordered format
// first and frees the copy after.
// PLAN-LABEL: func.func @main
// PLAN-COUNT-4: sparse_array.convert
func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %p0 = memref.get_global @upos : memref<2xi64>
  %c0 = memref.get_global @ucrd : memref<2xi64>
  %v0 = memref.get_global @uval : memref<2xf64>
  %p = memref.cast %p0 : memref<2xi64> to memref<?xi64>
  %c = memref.cast %c0 : memref<2xi64> to memref<?xi64>
  %v = memref.cast %v0 : memref<2xf64> to memref<?xf64>
  %u = sparse_array.assemble (%p, %c, %v), (%c3) : memref<?xi64>, memref<?xi64>, memref<?xf64> -> !u

  // -u into a dense result: [-7, -42, -5].
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 3
  // CHECK-NEXT: 3
  // CHECK-NEXT: 1 -7
  // CHECK-NEXT: 2 -42
  // CHECK-NEXT: 3 -5
  %r = sparse_array.map @neg(%u) : (!u) -> !d3
  sparse_array.print %r : !d3

  // Into an ordered compressed result with fill -42: entries in order.
  // CHECK:      # fill: -42
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 3
  // CHECK-NEXT: 1 -7
  // CHECK-NEXT: 3 -5
  %q = sparse_array.map @neg(%u) : (!u) -> !c3
  sparse_array.print %q : !c3

  // Coiterated with an ordered vector w = {1: 1, 2: 2}: u + w = [7, 43, 7].
  // CHECK:      # fill: 42
  // CHECK-NEXT: 1 3
  // CHECK-NEXT: 3
  // CHECK-NEXT: 1 7
  // CHECK-NEXT: 2 43
  // CHECK-NEXT: 3 7
  %w = sparse_array.constant sparse<[[1], [2]], [1.0, 2.0]> : tensor<3xf64> : !v3
  %s = sparse_array.map @add(%u, %w) : (!u, !v3) -> !c3f
  sparse_array.print %s : !c3f

  // A CSR matrix with unordered rows plus an ordered one (B(0, 1) = 10,
  // B(1, 0) = 20): [[2, 10, 3, 1], [25, 4, 0, 0]].
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 6
  // CHECK-NEXT: 2 4
  // CHECK-NEXT: 1 1 2
  // CHECK-NEXT: 1 2 10
  // CHECK-NEXT: 1 3 3
  // CHECK-NEXT: 1 4 1
  // CHECK-NEXT: 2 1 25
  // CHECK-NEXT: 2 2 4
  %mp0 = memref.get_global @mpos : memref<3xi64>
  %mc0 = memref.get_global @mcrd : memref<5xi64>
  %mv0 = memref.get_global @mval : memref<5xf64>
  %mp = memref.cast %mp0 : memref<3xi64> to memref<?xi64>
  %mc = memref.cast %mc0 : memref<5xi64> to memref<?xi64>
  %mv = memref.cast %mv0 : memref<5xf64> to memref<?xf64>
  %a = sparse_array.assemble (%mp, %mc, %mv), (%c2, %c4) : memref<?xi64>, memref<?xi64>, memref<?xf64> -> !ucsr
  %b = sparse_array.constant sparse<[[0, 1], [1, 0]], [10.0, 20.0]> : tensor<2x4xf64> : !csr
  %t = sparse_array.map @add(%a, %b) : (!ucsr, !csr) -> !csr
  sparse_array.print %t : !csr
  return
}
