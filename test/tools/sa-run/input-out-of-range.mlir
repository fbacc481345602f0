// RUN: bash -c "sa-run %s -- only.mtx 2>&1; echo exit=\$?" | FileCheck %s
// Reading an input that was not given is a runtime error with exit code 2.
// CHECK: sparse_array runtime error: the program reads input #1 but 1 input(s) were given
// CHECK: exit=2
func.func private @sa_rt_input_path(i64) -> !llvm.ptr
func.func @main() {
  %c1 = arith.constant 1 : i64
  %p = func.call @sa_rt_input_path(%c1) : (i64) -> !llvm.ptr
  return
}
