// REQUIRES: openmp
// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --disable-openmp %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-pipeline | FileCheck %s --check-prefix=IR
// A parallel reduction runs through OpenMP (libomp is loaded by sa-run) and
// gives the same exact integer sum as the sequential build.

func.func private @sa_rt_print_i64(i64)
func.func private @sa_rt_print_newline()

// IR: omp.parallel
// IR: omp.wsloop
// CHECK: 500000500000
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1000001 : index
  %zero = arith.constant 0 : i64
  %sum = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> i64 {
    %v = arith.index_cast %i : index to i64
    scf.reduce(%v : i64) {
    ^bb0(%a: i64, %b: i64):
      %s = arith.addi %a, %b : i64
      scf.reduce.return %s : i64
    }
  }
  func.call @sa_rt_print_i64(%sum) : (i64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  return
}
