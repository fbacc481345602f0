// RUN: sa-run %s -- %S/Inputs/2x3.mtx %S/Inputs/2x3.mtx | FileCheck %s
// RUN: not sa-run %s -- %S/Inputs/2x3.mtx %S/Inputs/2x4.mtx 2>&1 | FileCheck %s --check-prefix=MISMATCH
// Operands whose sizes are known only at run time must have the result's:
// otherwise the loops would read past the smaller one's buffers.

!csr = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}

// CHECK:      # fill: 0
// CHECK-NEXT: 2 2
// CHECK-NEXT: 2 3
// CHECK-NEXT: 1 1 3
// CHECK-NEXT: 2 3 -4
// MISMATCH: sparse_array runtime error: operand 1 of a kernel has size 4 in dimension 2, but the result has size 3 there
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = sparse_array.read input %c0 : !csr
  %b = sparse_array.read input %c1 : !csr
  %s = sparse_array.map @add(%a, %b) : (!csr, !csr) -> !csr
  sparse_array.print %s : !csr
  return
}
