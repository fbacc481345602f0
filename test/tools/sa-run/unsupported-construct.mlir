// RUN: not sa-run %s 2>&1 | FileCheck %s
// What the pipeline cannot compile yet is named, with its location; nothing
// runs and the exit code is non-zero.
// Function signatures and calls with arrays are lowered (to buffers); the
// poison value of array type is not.
// CHECK: unsupported-construct.mlir:[[@LINE+8]]:{{[0-9]+}}: error: 'ub.poison' uses type '!sparse_array.array<4xf64>' that the sparse_array pipeline cannot lower yet
// CHECK-NOT: error
// CHECK-NOT: unresolved
// CHECK-NOT: PLEASE submit a bug report

func.func private @consume(!sparse_array.array<4xf64>)

func.func @main() {
  %a = ub.poison : !sparse_array.array<4xf64>
  func.call @consume(%a) : (!sparse_array.array<4xf64>) -> ()
  return
}
