// RUN: sa-opt %s --sparse-array-pipeline=enable-openmp=false | mlir-runner -e main -entry-point-result=void -shared-libs=%sa_runtime_lib | FileCheck %s
// The runtime is also a plain shared library with a C ABI, usable from
// upstream's mlir-runner (and from C, C++ or Python) without sa-run.

func.func private @sa_rt_print_f64(f64)
func.func private @sa_rt_print_newline()

// CHECK: 2.5
func.func @main() {
  %x = arith.constant 2.5 : f64
  func.call @sa_rt_print_f64(%x) : (f64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  return
}
