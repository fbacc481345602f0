// RUN: sa-run %s -- first.mtx "second input.tns" | FileCheck %s
// RUN: sa-run %s | FileCheck %s --check-prefix=NONE
// RUN: not sa-run %s --print-lowered 2>&1 | FileCheck %s --check-prefix=LATE
// RUN: sa-run %s -- --not-an-option | FileCheck %s --check-prefix=DASHED
// LATE: sa-run: error: '--print-lowered' after the program would be an input: put options before the program, or inputs after `--`
// Inputs after `--` reach the program by position through the runtime;
// without `--`, a dashed word after the program is a misplaced option.

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
// DASHED: 1
// DASHED-NEXT: --not-an-option
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
