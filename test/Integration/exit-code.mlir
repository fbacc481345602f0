// RUN: bash -c "sa-run %s; echo exit=\$?" | FileCheck %s
// An i32 result of @main is the process's exit code.

// CHECK: exit=3
func.func @main() -> i32 {
  %c = arith.constant 3 : i32
  return %c : i32
}
