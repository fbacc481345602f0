// RUN: not sa-run %s -- %S/Inputs/row-out-of-range.mtx > %t.out 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: count 0 < %t.out
// A compiled program given a malformed file stops with file, line and
// reason, a non-zero exit code, and prints nothing it has not finished.
// CHECK: sparse_array runtime error: {{.*}}row-out-of-range.mtx:4: coordinate 3 of dimension 1 (1..2) is out of range

!csr = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
func.func @main() {
  %c0 = arith.constant 0 : index
  %a = sparse_array.read input %c0 : !csr
  sparse_array.print %a : !csr
  return
}
