// RUN: sa-opt %s --sparse-array-realloc-to-llvm | FileCheck %s
// A 1-D realloc becomes the C library's realloc on the allocated pointer
// (alignment padding carried along, at least one byte asked for) and a new
// descriptor; no malloc + copy + free.

// CHECK-LABEL: func.func @grow(
// CHECK:         %[[ALLOC:.*]] = llvm.extractvalue %{{.*}}[0]
// CHECK:         %[[ALIGNED:.*]] = llvm.extractvalue %{{.*}}[1]
// CHECK:         llvm.ptrtoint %[[ALIGNED]]
// CHECK:         llvm.ptrtoint %[[ALLOC]]
// CHECK:         %[[BYTES:.*]] = llvm.intr.umax
// CHECK:         %[[NEW:.*]] = llvm.call @realloc(%[[ALLOC]], %[[BYTES]])
// CHECK:         llvm.getelementptr %[[NEW]]
// CHECK-NOT:     llvm.call @malloc
// CHECK-NOT:     llvm.call @free
// CHECK:         return
func.func @grow(%m: memref<?xf64>, %n: index) -> memref<?xf64> {
  %r = memref.realloc %m(%n) : memref<?xf64> to memref<?xf64>
  return %r : memref<?xf64>
}

// A realloc with an alignment is left to expand-realloc.
// CHECK-LABEL: func.func @aligned(
// CHECK-NOT:     @realloc
// CHECK:         memref.realloc
func.func @aligned(%m: memref<?xf64>, %n: index) -> memref<?xf64> {
  %r = memref.realloc %m(%n) {alignment = 64} : memref<?xf64> to memref<?xf64>
  return %r : memref<?xf64>
}
