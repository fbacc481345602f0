// RUN: echo '%%%%MatrixMarket matrix coordinate real general' > %t.mtx
// RUN: echo '3 4 3' >> %t.mtx
// RUN: echo '1 1 2.5' >> %t.mtx
// RUN: echo '3 2 -1' >> %t.mtx
// RUN: echo '3 4 8' >> %t.mtx
// RUN: sa-run %s -- %t.mtx | FileCheck %s
// RUN: sa-opt %s --sparse-array-from-sparse-tensor-pipeline | env TENSOR0=%t.mtx mlir-runner -e main -entry-point-result=void -shared-libs=%sa_runtime_lib,%libomp | FileCheck %s
// RUN: sa-opt %s --sparse-array-import-sparse-tensor | FileCheck %s --check-prefix=IR
//
// sparse_tensor.new of a file name passed in as an argument (how upstream's
// tests pass getTensorFilename(0) to a kernel): read at run time from the
// string. The name is the program's first input (sa-run PROGRAM -- FILE),
// or, without inputs on the command line (mlir-runner), the environment's
// TENSOR0, as upstream's runner library reads it. Expected: the file's
// three entries (0-based), stored CSR.
// CHECK:      ---- Sparse Tensor ----
// CHECK-NEXT: nse = 3
// CHECK-NEXT: dim = ( 3, 4 )
// CHECK-NEXT: lvl = ( 3, 4 )
// CHECK-NEXT: pos[1] : ( 0, 1, 1, 3 )
// CHECK-NEXT: crd[1] : ( 0, 1, 3 )
// CHECK-NEXT: values : ( 2.5, -1, 8 )
// CHECK-NEXT: ----
// IR-LABEL: func.func @load(
// IR: sparse_array.read file %{{.*}} : !llvm.ptr
// IR-LABEL: func.func @main(
// IR: call @sa_rt_input_path(

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
!Filename = !llvm.ptr

func.func private @getTensorFilename(index) -> (!Filename)

func.func @load(%name: !Filename) -> tensor<?x?xf64, #CSR> {
  %t = sparse_tensor.new %name : !Filename to tensor<?x?xf64, #CSR>
  return %t : tensor<?x?xf64, #CSR>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %name = call @getTensorFilename(%c0) : (index) -> (!Filename)
  %t = call @load(%name) : (!Filename) -> tensor<?x?xf64, #CSR>
  sparse_tensor.print %t : tensor<?x?xf64, #CSR>
  bufferization.dealloc_tensor %t : tensor<?x?xf64, #CSR>
  return
}
