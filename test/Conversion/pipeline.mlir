// RUN: sa-opt %s --sparse-array-pipeline | FileCheck %s
// RUN: sa-opt %s --sparse-array-pipeline=enable-openmp=false | FileCheck %s --check-prefix=SEQ
// sparse-array-pipeline takes scalar/loop code all the way to the LLVM
// dialect; parallel loops become OpenMP unless disabled.

// CHECK-LABEL: llvm.func @scale(
// CHECK:         omp.parallel
// CHECK:         omp.wsloop
// CHECK:         llvm.fmul
// CHECK-NOT:     scf.
// CHECK-NOT:     memref.
// SEQ-LABEL:   llvm.func @scale(
// SEQ-NOT:       omp.
// SEQ:           llvm.fmul
func.func @scale(%m: memref<?xf64>, %s: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %m[%i] : memref<?xf64>
    %w = arith.mulf %v, %s : f64
    memref.store %w, %m[%i] : memref<?xf64>
    scf.reduce
  }
  return
}

// Math that has no LLVM intrinsic goes to libm.
// CHECK-LABEL: llvm.func @error_function(
// CHECK:         llvm.call @erf(
func.func @error_function(%x: f64) -> f64 {
  %r = math.erf %x : f64
  return %r : f64
}
