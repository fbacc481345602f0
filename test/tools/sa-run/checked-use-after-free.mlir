// RUN: not sa-run --bounds-checks %s 2>&1 | FileCheck %s
// A use after a free the verifier cannot order (a loop whose second
// iteration reads the array its first one freed): with --bounds-checks the
// freed array's positions point past its coordinates, so the kernel's read
// stops the program instead of returning stale entries.

sparse_array.func @neg(%x: f64) -> f64 {
  %r = arith.negf %x : f64
  sparse_array.yield %r : f64
}
!v = !sparse_array.array<3xf64, #sparse_array.format<[compressed], fill = -0.0 : f64>>
!w = !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>

// CHECK: # fill: 0
// CHECK: sparse_array runtime error: out-of-bounds read in code generated for the operation at {{.*}}checked-use-after-free.mlir:[[@LINE+9]]:10, buffer: coordinates of level 0
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = sparse_array.constant sparse<[[1]], [2.0]> : tensor<3xf64> : !w
  %b = sparse_array.map @neg(%a) : (!w) -> !v
  scf.for %i = %c0 to %c2 step %c1 {
    // The second iteration maps the array the first one freed.
    %c = sparse_array.map @neg(%b) : (!v) -> !w
    sparse_array.print %c : !w
    sparse_array.dealloc %c : !w
    sparse_array.dealloc %b : !v
  }
  return
}
