// RUN: not sa-run %s 2>&1 | FileCheck %s
// A slice of a dimension known only at run time is checked against it: the
// kernel reads coordinates up to 6 (0:8:2) of a 5-entry vector.
// CHECK: sparse_array runtime error: operand 0 of a kernel has size 5 in dimension 1, but a slice of it reads up to coordinate 6
// RUN: not sa-run --entry-point=reversed %s 2>&1 | FileCheck %s --check-prefix=REV
// Counting down (5:-1:-2), the first coordinate read, 5, is the greatest.
// REV: sparse_array runtime error: operand 0 of a kernel has size 5 in dimension 1, but a slice of it reads up to coordinate 5

!dyn = !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
!cv4 = !sparse_array.array<4xf64, #sparse_array.format<[compressed]>>
memref.global "private" constant @pos : memref<2xi64> = dense<[0, 2]>
memref.global "private" constant @crd : memref<2xi64> = dense<[1, 4]>
memref.global "private" constant @val : memref<2xf64> = dense<[1.0, 2.0]>

func.func @main() {
  %c5 = arith.constant 5 : index
  %p0 = memref.get_global @pos : memref<2xi64>
  %c0 = memref.get_global @crd : memref<2xi64>
  %v0 = memref.get_global @val : memref<2xf64>
  %p = memref.cast %p0 : memref<2xi64> to memref<?xi64>
  %c = memref.cast %c0 : memref<2xi64> to memref<?xi64>
  %v = memref.cast %v0 : memref<2xf64> to memref<?xf64>
  %x = sparse_array.assemble (%p, %c, %v), (%c5) : memref<?xi64>, memref<?xi64>, memref<?xf64> -> !dyn
  %r = sparse_array.kernel ins(%x : !dyn) -> !cv4 {
  ^bb0(%i: index, %a: !dyn):
    %ai = sparse_array.access %a[%i(0:8:2)] : !dyn
    sparse_array.yield %ai : f64
  }
  sparse_array.print %r : !cv4
  return
}

func.func @reversed() {
  %c5 = arith.constant 5 : index
  %p0 = memref.get_global @pos : memref<2xi64>
  %c0 = memref.get_global @crd : memref<2xi64>
  %v0 = memref.get_global @val : memref<2xf64>
  %p = memref.cast %p0 : memref<2xi64> to memref<?xi64>
  %c = memref.cast %c0 : memref<2xi64> to memref<?xi64>
  %v = memref.cast %v0 : memref<2xf64> to memref<?xf64>
  %x = sparse_array.assemble (%p, %c, %v), (%c5) : memref<?xi64>, memref<?xi64>, memref<?xf64> -> !dyn
  %r = sparse_array.kernel ins(%x : !dyn) -> !sparse_array.array<3xf64, #sparse_array.format<[compressed]>> {
  ^bb0(%i: index, %a: !dyn):
    %ai = sparse_array.access %a[%i(5:-1:-2)] : !dyn
    sparse_array.yield %ai : f64
  }
  sparse_array.print %r : !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>
  return
}
