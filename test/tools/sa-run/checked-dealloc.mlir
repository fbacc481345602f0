// RUN: not sa-run --bounds-checks %s 2>&1 | FileCheck %s
// A free the verifier cannot order (in a loop that runs twice): with
// --bounds-checks the second free stops the program with its location
// instead of corrupting the heap (glibc's "double free or corruption").

sparse_array.func @neg(%x: f64) -> f64 {
  %r = arith.negf %x : f64
  sparse_array.yield %r : f64
}
!v = !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>

// CHECK: sparse_array runtime error: sparse_array.dealloc at {{.*}}checked-dealloc.mlir:[[@LINE+10]]:5: the array was freed already (a double free)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = sparse_array.constant sparse<[[1]], [2.0]> : tensor<3xf64> : !v
  %b = sparse_array.map @neg(%a) : (!v) -> !v
  sparse_array.print %b : !v
  scf.for %i = %c0 to %c2 step %c1 {
    // The first iteration frees %b, the second would free it again.
    sparse_array.dealloc %b : !v
  }
  return
}
