// RUN: sa-opt %s --sparse-array-parts-to-openmp | FileCheck %s
// RUN: sa-opt %s --sparse-array-parts-to-openmp --convert-scf-to-openmp | FileCheck %s --check-prefix=BOTH
// A loop over parts (marked dynamic) becomes an OpenMP work-sharing loop
// with schedule(dynamic), its body in an alloca scope; unmarked loops and
// marked ones it does not lower (two dimensions, a reduction) are left to
// convert-scf-to-openmp.

// CHECK-LABEL: func.func @parts(
// CHECK-SAME:      %[[N:.*]]: index, %[[M:.*]]: memref<?xf64>)
// CHECK:         omp.parallel {
// CHECK-NEXT:      omp.wsloop schedule(dynamic) {
// CHECK-NEXT:        omp.loop_nest (%[[P:.*]]) : index = (%c0) to (%[[N]]) step (%c1) {
// CHECK-NEXT:          memref.alloca_scope {
// CHECK-NEXT:            %[[T:.*]] = memref.alloca() : memref<1xf64>
// CHECK:                 memref.store %{{.*}}, %[[M]][%[[P]]]
// CHECK-NEXT:          }
// CHECK-NEXT:          omp.yield
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      omp.terminator
// CHECK-NEXT:    }
// CHECK-NOT:     scf.parallel
// CHECK:         return
func.func @parts(%n: index, %m: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%p) = (%c0) to (%n) step (%c1) {
    %t = memref.alloca() : memref<1xf64>
    %x = arith.index_cast %p : index to i64
    %f = arith.sitofp %x : i64 to f64
    memref.store %f, %t[%c0] : memref<1xf64>
    %v = memref.load %t[%c0] : memref<1xf64>
    memref.store %v, %m[%p] : memref<?xf64>
    scf.reduce
  } {sparse_array.schedule = "dynamic"}
  return
}

// CHECK-LABEL: func.func @unmarked(
// CHECK:         scf.parallel
// CHECK-NOT:     omp.
// BOTH-LABEL: func.func @unmarked(
// BOTH:         omp.wsloop {
func.func @unmarked(%n: index, %m: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  scf.parallel (%p) = (%c0) to (%n) step (%c1) {
    memref.store %z, %m[%p] : memref<?xf64>
    scf.reduce
  }
  return
}

// CHECK-LABEL: func.func @two_dims(
// CHECK:         scf.parallel
// CHECK-NOT:     omp.
// BOTH-LABEL: func.func @two_dims(
// BOTH:         omp.wsloop {
func.func @two_dims(%n: index, %m: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  scf.parallel (%p, %q) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    memref.store %z, %m[%p, %q] : memref<?x?xf64>
    scf.reduce
  } {sparse_array.schedule = "dynamic"}
  return
}

// CHECK-LABEL: func.func @reduction(
// CHECK:         scf.parallel
// CHECK-NOT:     omp.
// BOTH-LABEL: func.func @reduction(
// BOTH:         omp.wsloop reduction(
func.func @reduction(%n: index, %m: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %s = scf.parallel (%p) = (%c0) to (%n) step (%c1) init (%z) -> f64 {
    %v = memref.load %m[%p] : memref<?xf64>
    scf.reduce(%v : f64) {
    ^bb0(%a: f64, %b: f64):
      %r = arith.addf %a, %b : f64
      scf.reduce.return %r : f64
    }
  } {sparse_array.schedule = "dynamic"}
  return %s : f64
}
