// RUN: not sa-run %s 2>&1 | FileCheck %s
// Verifier diagnostics of the type system reach the user the same way.
// CHECK: invalid-type.mlir:[[@LINE+1]]:{{[0-9]+}}: error: fill value type 'f32' does not match element type 'f64'
func.func private @f(!sparse_array.array<4xf64, #sparse_array.format<[compressed], fill = 1.0 : f32>>)
func.func @main() {
  return
}
