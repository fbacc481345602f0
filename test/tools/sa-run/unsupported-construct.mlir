// RUN: not sa-run %s 2>&1 | FileCheck %s
// What the pipeline cannot compile yet is named, with its location; nothing
// runs and the exit code is non-zero.
// CHECK-DAG: unsupported-construct.mlir:10:{{[0-9]+}}: error: 'func.func' uses type '(!sparse_array.array<4xf64>) -> ()' that the sparse_array pipeline cannot lower yet
// CHECK-DAG: unsupported-construct.mlir:13:{{[0-9]+}}: error: 'ub.poison' uses type '!sparse_array.array<4xf64>' that the sparse_array pipeline cannot lower yet
// CHECK-DAG: unsupported-construct.mlir:14:{{[0-9]+}}: error: 'func.call' uses type '!sparse_array.array<4xf64>' that the sparse_array pipeline cannot lower yet
// CHECK-NOT: unresolved
// CHECK-NOT: PLEASE submit a bug report

func.func private @consume(!sparse_array.array<4xf64>)

func.func @main() {
  %a = ub.poison : !sparse_array.array<4xf64>
  func.call @consume(%a) : (!sparse_array.array<4xf64>) -> ()
  return
}
