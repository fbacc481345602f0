// RUN: not sa-run %s 2>&1 | FileCheck %s
// A syntax error is reported with file, line and column.
// CHECK: parse-error.mlir:[[@LINE+2]]:{{[0-9]+}}: error: use of undeclared SSA value name
func.func @main() {
  %x = arith.addi %undefined, %undefined : i64
  return
}
