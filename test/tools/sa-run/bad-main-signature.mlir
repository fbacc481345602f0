// RUN: not sa-run %s 2>&1 | FileCheck %s
// CHECK: bad-main-signature.mlir:3:1: error: @main must have type () -> () or () -> i32, got '(i64) -> f64'
func.func @main(%n: i64) -> f64 {
  %c = arith.constant 1.0 : f64
  return %c : f64
}
