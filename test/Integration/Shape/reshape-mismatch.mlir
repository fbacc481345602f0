// RUN: sa-run %s 2>&1 | FileCheck %s --check-prefix=OK
// RUN: not sa-run --entry-point=bad %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not sa-run --entry-point=bad_reshape %s 2>&1 | FileCheck %s --check-prefix=BADRESHAPE
// RUN: not sa-run --entry-point=bad_runtime_reshape %s 2>&1 | FileCheck %s --check-prefix=RESHAPE
// RUN: not sa-run --entry-point=bad_static %s 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: not sa-run --entry-point=bad_static_coo %s 2>&1 | FileCheck %s --check-prefix=STATIC
// Sizes known only at run time: a split's -1 is inferred from the source's
// size (6 into 2 x 3, as numpy.reshape(v, (-1, 3))), and a size that does not
// divide it is a run-time error: the split kernel names the operand and the
// size (a reshape whose -1 is outermost is that split kernel too); the
// runtime's reshape (an inferred inner size) names both shapes (numpy:
// "cannot reshape array of size 6 into shape (4)").
// OK:      # fill: 0
// OK-NEXT: 2 2
// OK-NEXT: 2 3
// OK-NEXT: 1 2 1
// OK-NEXT: 1 3 2
// BAD: sparse_array runtime error: operand 0 of a kernel has size 6 in dimension 1, which a split into parts of 4 entries cannot divide
// BADRESHAPE: sparse_array runtime error: operand 0 of a kernel has size 6 in dimension 1, which a split into parts of 4 entries cannot divide
// RESHAPE: sparse_array runtime error: reshape: cannot reshape an array of shape (6,) into shape (4, 1)
// Static parts whose product (1 x 3) divides the size but is not it: the
// kernel read coordinates past the result's rows (heap corruption into
// CSR, inconsistent buffers into COO) before it checked the product.
// STATIC: sparse_array runtime error: operand 0 of a kernel has size 6 in dimension 1, but the result has size 3 there

!dyn = !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
!split = !sparse_array.array<?x3xf64, #sparse_array.format<[dense, compressed]>>
!bad = !sparse_array.array<?x4xf64, #sparse_array.format<[dense, compressed]>>
!static = !sparse_array.array<1x3xf64, #sparse_array.format<[dense, compressed]>>
!static_coo = !sparse_array.array<1x3xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
memref.global "private" constant @pos : memref<2xi64> = dense<[0, 2]>
memref.global "private" constant @crd : memref<2xi64> = dense<[1, 2]>
memref.global "private" constant @val : memref<2xf64> = dense<[1.0, 2.0]>

func.func @vector() -> !dyn {
  %c6 = arith.constant 6 : index
  %p0 = memref.get_global @pos : memref<2xi64>
  %c0 = memref.get_global @crd : memref<2xi64>
  %v0 = memref.get_global @val : memref<2xf64>
  %p = memref.cast %p0 : memref<2xi64> to memref<?xi64>
  %c = memref.cast %c0 : memref<2xi64> to memref<?xi64>
  %v = memref.cast %v0 : memref<2xf64> to memref<?xf64>
  %a = sparse_array.assemble (%p, %c, %v), (%c6) : memref<?xi64>, memref<?xi64>, memref<?xf64> -> !dyn
  return %a : !dyn
}

func.func @main() {
  %a = func.call @vector() : () -> !dyn
  %r = sparse_array.split %a dim 0 [-1, 3] : !dyn -> !split
  sparse_array.print %r : !split
  return
}

func.func @bad() {
  %a = func.call @vector() : () -> !dyn
  %r = sparse_array.split %a dim 0 [-1, 4] : !dyn -> !bad
  sparse_array.print %r : !bad
  return
}

func.func @bad_reshape() {
  %a = func.call @vector() : () -> !dyn
  %r = sparse_array.reshape %a [-1, 4] : !dyn -> !bad
  sparse_array.print %r : !bad
  return
}

func.func @bad_runtime_reshape() {
  %a = func.call @vector() : () -> !dyn
  %r = sparse_array.reshape %a [4, -1] : !dyn -> !sparse_array.array<4x?xf64, #sparse_array.format<[dense, compressed]>>
  sparse_array.print %r : !sparse_array.array<4x?xf64, #sparse_array.format<[dense, compressed]>>
  return
}

func.func @bad_static() {
  %a = func.call @vector() : () -> !dyn
  %r = sparse_array.split %a dim 0 [1, 3] : !dyn -> !static
  sparse_array.print %r : !static
  return
}

func.func @bad_static_coo() {
  %a = func.call @vector() : () -> !dyn
  %r = sparse_array.split %a dim 0 [1, 3] : !dyn -> !static_coo
  sparse_array.print %r : !static_coo
  return
}
