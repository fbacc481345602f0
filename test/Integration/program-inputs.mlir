// RUN: sa-run %s -- first.mtx "second input.tns" | FileCheck %s
// RUN: sa-run %s | FileCheck %s --check-prefix=NONE
// Inputs after `--` reach the program by position through the runtime.

func.func private @sa_rt_num_inputs() -> i64
func.func private @sa_rt_input_path(i64) -> !llvm.ptr
func.func private @sa_rt_print_i64(i64)
func.func private @sa_rt_print_str(!llvm.ptr)
func.func private @sa_rt_print_newline()

// CHECK: 2
// CHECK-NEXT: first.mtx
// CHECK-NEXT: second input.tns
// NONE: 0
// NONE-NOT: {{.}}
func.func @main() {
  %n = func.call @sa_rt_num_inputs() : () -> i64
  func.call @sa_rt_print_i64(%n) : (i64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  scf.for %k = %c0 to %n step %c1 : i64 {
    %p = func.call @sa_rt_input_path(%k) : (i64) -> !llvm.ptr
    func.call @sa_rt_print_str(%p) : (!llvm.ptr) -> ()
    func.call @sa_rt_print_newline() : () -> ()
  }
  return
}
