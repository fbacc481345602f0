// A missing library is an error naming it; an existing one is loaded and
// the program runs, calling C functions it declares.
// RUN: not sa-run --shared-libs=%t.does-not-exist.so %s 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: sa-run: error: shared library '{{.*}}does-not-exist.so' does not exist
// RUN: sa-run --shared-libs=%mlir_c_runner_utils %s | FileCheck %s
// CHECK: 42
func.func private @labs(i64) -> i64
func.func private @sa_rt_print_i64(i64)
func.func private @sa_rt_print_newline()
func.func @main() {
  %c = arith.constant -42 : i64
  %r = func.call @labs(%c) : (i64) -> i64
  func.call @sa_rt_print_i64(%r) : (i64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  return
}
