// RUN: not sa-run %s 2>&1 | FileCheck %s
// An integer index of a dimension known only at run time is checked against
// it: row 3 of a 2-row matrix.
// CHECK: sparse_array runtime error: operand 0 of a kernel has size 2 in dimension 1, but a slice of it reads up to coordinate 3

!dyn = !sparse_array.array<?x3xf64, #sparse_array.format<[dense, compressed]>>
!row = !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>
memref.global "private" constant @pos : memref<3xi64> = dense<[0, 1, 2]>
memref.global "private" constant @crd : memref<2xi64> = dense<[1, 2]>
memref.global "private" constant @val : memref<2xf64> = dense<[1.0, 2.0]>

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %p0 = memref.get_global @pos : memref<3xi64>
  %c0 = memref.get_global @crd : memref<2xi64>
  %v0 = memref.get_global @val : memref<2xf64>
  %p = memref.cast %p0 : memref<3xi64> to memref<?xi64>
  %c = memref.cast %c0 : memref<2xi64> to memref<?xi64>
  %v = memref.cast %v0 : memref<2xf64> to memref<?xf64>
  %a = sparse_array.assemble (%p, %c, %v), (%c2, %c3) : memref<?xi64>, memref<?xi64>, memref<?xf64> -> !dyn
  %r = sparse_array.slice %a[3] : !dyn -> !row
  sparse_array.print %r : !row
  return
}
