// RUN: not sa-run %s -- %S/Inputs/2x3.mtx 2>&1 | FileCheck %s
// A static dimension of the array type must match the file.
// CHECK: sparse_array runtime error: {{.*}}2x3.mtx:2: dimension 2 has size 3 but the array type requires 4

func.func @main() {
  %c0 = arith.constant 0 : index
  %a = sparse_array.read input %c0 : !sparse_array.array<2x4xf64, #sparse_array.format<[dense, compressed]>>
  sparse_array.print %a : !sparse_array.array<2x4xf64, #sparse_array.format<[dense, compressed]>>
  return
}
