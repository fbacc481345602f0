// RUN: sa-run %s | FileCheck %s
// RUN: not sa-run --entry-point=mismatch %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: sa-opt %s --sparse-array-import-sparse-tensor | FileCheck %s --check-prefix=IR
//
// tensor.concat of sparse tensors whose sizes along the axis are known only
// at run time (upstream's sparsifier lowers no tensor.concat of sparse
// tensors, and sparse_tensor.concatenate rejects dynamic inputs). A static
// result type is a conversion of the concatenation, checked at run time
// (as tensor.cast). Expected: numpy.concatenate([A, B]) of
// A = [[1, 0, 2], [0, 0, 3]] and B = [[0, 4, 0], [5, 0, 0], [0, 0, 6]].
// CHECK:      ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 5, 3 )
// CHECK-NEXT: lvl = ( 5, 3 )
// CHECK-NEXT: pos[1] : ( 0, 2, 3, 4, 5, 6 )
// CHECK-NEXT: crd[1] : ( 0, 2, 2, 1, 0, 2 )
// CHECK-NEXT: values : ( 1, 2, 3, 4, 5, 6 )
// CHECK-NEXT: ----
// CHECK:      ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 5, 3 )
// CHECK-NEXT: lvl = ( 5, 3 )
// CHECK-NEXT: pos[1] : ( 0, 2, 3, 4, 5, 6 )
// CHECK-NEXT: crd[1] : ( 0, 2, 2, 1, 0, 2 )
// CHECK-NEXT: values : ( 1, 2, 3, 4, 5, 6 )
// CHECK-NEXT: ----
// BAD: sparse_array runtime error: convert: dimension 0 has size 5 but the result type requires 6
// IR-LABEL: func.func @vstack(
// IR: sparse_array.concat %{{.*}}, %{{.*}} dim 0 : {{.*}} -> !sparse_array.array<?x3xf64,
// IR-LABEL: func.func @vstack_static(
// IR: %[[J:.*]] = sparse_array.concat %{{.*}}, %{{.*}} dim 0 : {{.*}} -> !sparse_array.array<?x3xf64,
// IR: sparse_array.convert %[[J]] : !sparse_array.array<?x3xf64, {{.*}}> to !sparse_array.array<5x3xf64,

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @vstack(%a: tensor<?x3xf64, #CSR>, %b: tensor<?x3xf64, #CSR>) -> tensor<?x3xf64, #CSR> {
  %r = tensor.concat dim(0) %a, %b : (tensor<?x3xf64, #CSR>, tensor<?x3xf64, #CSR>) -> tensor<?x3xf64, #CSR>
  return %r : tensor<?x3xf64, #CSR>
}
func.func @vstack_static(%a: tensor<?x3xf64, #CSR>, %b: tensor<?x3xf64, #CSR>) -> tensor<5x3xf64, #CSR> {
  %r = tensor.concat dim(0) %a, %b : (tensor<?x3xf64, #CSR>, tensor<?x3xf64, #CSR>) -> tensor<5x3xf64, #CSR>
  return %r : tensor<5x3xf64, #CSR>
}
func.func @vstack_six(%a: tensor<?x3xf64, #CSR>, %b: tensor<?x3xf64, #CSR>) -> tensor<6x3xf64, #CSR> {
  %r = tensor.concat dim(0) %a, %b : (tensor<?x3xf64, #CSR>, tensor<?x3xf64, #CSR>) -> tensor<6x3xf64, #CSR>
  return %r : tensor<6x3xf64, #CSR>
}

func.func @main() {
  %da = arith.constant dense<[[1.0, 0.0, 2.0], [0.0, 0.0, 3.0]]> : tensor<2x3xf64>
  %db = arith.constant dense<[[0.0, 4.0, 0.0], [5.0, 0.0, 0.0], [0.0, 0.0, 6.0]]> : tensor<3x3xf64>
  %a = sparse_tensor.convert %da : tensor<2x3xf64> to tensor<?x3xf64, #CSR>
  %b = sparse_tensor.convert %db : tensor<3x3xf64> to tensor<?x3xf64, #CSR>
  %r1 = call @vstack(%a, %b) : (tensor<?x3xf64, #CSR>, tensor<?x3xf64, #CSR>) -> tensor<?x3xf64, #CSR>
  sparse_tensor.print %r1 : tensor<?x3xf64, #CSR>
  %r2 = call @vstack_static(%a, %b) : (tensor<?x3xf64, #CSR>, tensor<?x3xf64, #CSR>) -> tensor<5x3xf64, #CSR>
  sparse_tensor.print %r2 : tensor<5x3xf64, #CSR>
  bufferization.dealloc_tensor %a : tensor<?x3xf64, #CSR>
  bufferization.dealloc_tensor %b : tensor<?x3xf64, #CSR>
  return
}

// The parts hold 5 rows; the result type says 6.
func.func @mismatch() {
  %da = arith.constant dense<[[1.0, 0.0, 2.0], [0.0, 0.0, 3.0]]> : tensor<2x3xf64>
  %db = arith.constant dense<[[0.0, 4.0, 0.0], [5.0, 0.0, 0.0], [0.0, 0.0, 6.0]]> : tensor<3x3xf64>
  %a = sparse_tensor.convert %da : tensor<2x3xf64> to tensor<?x3xf64, #CSR>
  %b = sparse_tensor.convert %db : tensor<3x3xf64> to tensor<?x3xf64, #CSR>
  %r = call @vstack_six(%a, %b) : (tensor<?x3xf64, #CSR>, tensor<?x3xf64, #CSR>) -> tensor<6x3xf64, #CSR>
  sparse_tensor.print %r : tensor<6x3xf64, #CSR>
  return
}
