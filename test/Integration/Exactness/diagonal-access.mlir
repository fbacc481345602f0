// RUN: not sa-opt %s --sparse-array-pipeline 2>&1 | FileCheck %s --check-prefix=ERR
// Issue 14, class 7: A[i, i] names what is not supported (an index
// variable repeated at two stored levels) instead of calling it an order
// mismatch, which the pipeline's conversions would have fixed.

!csr = !sparse_array.array<3x3xf64, #sparse_array.format<[dense, compressed]>>
!v = !sparse_array.array<3xf64>

// ERR: error: input 0 repeats an index variable at two of its stored levels (a diagonal such as A[i, i]); only arrays stored dense may repeat one yet
func.func @diagonal(%a: !csr) -> !v {
  %d = sparse_array.kernel ins(%a : !csr) -> !v {
  ^bb0(%i: index, %A: !csr):
    %x = sparse_array.access %A[%i, %i] : !csr
    sparse_array.yield %x : f64
  }
  return %d : !v
}
