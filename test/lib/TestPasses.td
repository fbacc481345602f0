//===- TestPasses.td - sparse_array test-only passes -------*- tablegen -*-===//
//
// Passes that exist for tests only: linked into sa-opt, never into the
// pipeline, the Python package or the installed libraries.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_ARRAY_TEST_PASSES
#define SPARSE_ARRAY_TEST_PASSES

include "mlir/Pass/PassBase.td"

def SparseArrayTestSequenceLoopsPass
    : Pass<"sparse-array-test-sequence-loops", "::mlir::ModuleOp"> {
  let summary = "Test: loops over a hand-written sequence expression";
  let description = [{
    Exercises the sequence-expression lattices and iterators (seed 001
    §6-7) before any shape operator exists. Every `func.func` declaration
    carrying `sparse_array.test_sequence = "<expr>"` (the syntax of
    SequenceExpr::print; leaf `s<k>.<l>` / `d<k>.<l>` is level l of
    argument k, sparse or dense) gets a body: the lattice of the expression
    (Fig. 12), one `scf.while` per point over the iterators of its sequence
    (Fig. 23a), and per coordinate x of the expression's space the case of
    the first sub-point at x, which adds to out[x] the values of the arrays
    whose innermost level that case holds. The result is the dense vector
    `out` of size |expr|. Its values are checked against numpy in tests;
    nothing else uses this pass.

    Example (A flattened row by row, plus b):

    ```mlir
    func.func private @f(%A: !csr, %b: !sv) -> !dv
        attributes {sparse_array.test_sequence = "union(product(d0, s0.1), s1)"}
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"
  ];
}

#endif // SPARSE_ARRAY_TEST_PASSES
