// RUN: sa-opt %s --sparse-array-check-bounds | FileCheck %s
// The debug mode: every 1-D load and store is preceded by a comparison with
// the buffer's size and a runtime report naming the site and the buffer;
// frees become checked (quarantining) runtime calls.

!csr = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>

// Each site names the operation's location and the buffer.
// CHECK-DAG: llvm.mlir.global internal constant @__sa_str_{{.*}}("out-of-bounds read in code generated for the operation at {{.*}}check-bounds.mlir:[[#@LINE+19]]:8, buffer: coordinates of level 1 of the array defined at {{.*}}check-bounds.mlir:[[#@LINE+17]]:29\00")
// CHECK-DAG: llvm.mlir.global internal constant @__sa_str_{{.*}}("out-of-bounds write in code generated for the operation at {{.*}}check-bounds.mlir:[[#@LINE+20]]:3, buffer: a buffer carried by a loop or passed as argument 2\00")
// CHECK-DAG: llvm.mlir.global internal constant @__sa_str_{{.*}}("sparse_array.dealloc at {{.*}}check-bounds.mlir:[[#@LINE+47]]:3\00")

// CHECK-LABEL: func.func @loads_and_stores(
// CHECK: %[[CRD:.*]] = sparse_array.coordinates %{{.*}}[1]
// CHECK: %[[N:.*]] = memref.dim %[[CRD]], %{{.*}} : memref<?xi64>
// CHECK: %[[OK:.*]] = arith.cmpi ult, %[[P:.*]], %[[N]] : index
// CHECK: scf.if %[[OK]] {
// CHECK: } else {
// CHECK:   %[[SITE:.*]] = llvm.mlir.addressof @__sa_str_{{.*}} : !llvm.ptr
// CHECK:   func.call @sa_rt_bounds_error(%[[SITE]], %{{.*}}, %{{.*}}) : (!llvm.ptr, i64, i64) -> ()
// CHECK: }
// CHECK: memref.load %[[CRD]][%[[P]]] : memref<?xi64>
// CHECK: %[[M:.*]] = memref.dim %[[OUT:.*]], %{{.*}} : memref<?xi64>
// CHECK: arith.cmpi ult, %{{.*}}, %[[M]] : index
// CHECK: memref.store %{{.*}}, %[[OUT]][%{{.*}}] : memref<?xi64>
func.func @loads_and_stores(%a: !csr, %p: index, %out: memref<?xi64>) {
  %c = sparse_array.coordinates %a[1] : !csr -> memref<?xi64>
  %x = memref.load %c[%p] : memref<?xi64>
  %c0 = arith.constant 0 : index
  memref.store %x, %out[%c0] : memref<?xi64>
  return
}

// 2-D memrefs are not the project's buffers: left alone.
// CHECK-LABEL: func.func @two_dimensional(
// CHECK-NOT: sa_rt_bounds_error
// CHECK: memref.load
func.func @two_dimensional(%m: memref<?x?xf64>, %i: index) -> f64 {
  %x = memref.load %m[%i, %i] : memref<?x?xf64>
  return %x : f64
}

// The positions are poisoned first: pos[p] = p * (coordinates + 1).
// CHECK-LABEL: func.func @checked_free(
// CHECK: %[[POS:.*]] = sparse_array.positions %{{.*}}[1]
// CHECK: %[[CRD:.*]] = sparse_array.coordinates %{{.*}}[1]
// CHECK: %[[L:.*]] = memref.dim %[[CRD]]
// CHECK: %[[STRIDE:.*]] = arith.addi %[[L]], %{{.*}} : index
// CHECK: scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step
// CHECK:   %[[X:.*]] = arith.muli %[[P]], %[[STRIDE]] : index
// CHECK:   memref.store %{{.*}}, %[[POS]][%[[P]]] : memref<?xi64>
// CHECK: %[[V:.*]] = sparse_array.values %{{.*}} : !sparse_array.array
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[V]]
// CHECK: %[[I:.*]] = arith.index_cast %[[PTR]] : index to i64
// CHECK: call @sa_rt_checked_dealloc(%{{.*}}, %[[I]]) : (!llvm.ptr, i64) -> ()
// CHECK-NOT: sparse_array.dealloc
func.func @checked_free(%a: !csr) {
  sparse_array.dealloc %a : !csr
  return
}

