// RUN: not sa-run %s 2>&1 | FileCheck %s
// What the pipeline cannot compile yet is named, with its location; nothing
// runs and the exit code is non-zero.
// CHECK: unsupported-construct.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'ub.poison' uses type '!sparse_array.array<4xf64>' that the sparse_array pipeline cannot lower yet
func.func @main() {
  %a = ub.poison : !sparse_array.array<4xf64>
  return
}
