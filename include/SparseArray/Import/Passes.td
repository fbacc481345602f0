//===- Passes.td - Importing other dialects' programs ------*- tablegen -*-===//

#ifndef SPARSE_ARRAY_IMPORT_PASSES
#define SPARSE_ARRAY_IMPORT_PASSES

include "mlir/Pass/PassBase.td"

def SparseArrayImportSparseTensorPass
    : Pass<"sparse-array-import-sparse-tensor", "::mlir::ModuleOp"> {
  let summary = "Import linalg programs on (sparse_tensor-encoded) tensors";
  let description = [{
    Turns the programs MLIR frontends hand to upstream's sparsifier into
    sparse_array programs (issue 19; docs/frontends.md):

    - A ranked `tensor` becomes a `!sparse_array.array` of the same shape
      and element type, fill 0. Its `#sparse_tensor.encoding` gives the
      levels (`dense`, `compressed`, `singleton` with `nonunique` /
      `nonordered`), the order (a `dimToLvl` permutation) and the widths
      (`posWidth`/`crdWidth` 0 or 64 -> 64, 32 -> 32); without one the
      array is dense. Function signatures, calls and returns follow.
    - Named linalg ops are generalized; a `linalg.generic` becomes a
      `sparse_array.kernel`: its loops the index variables (the output's
      first, in the output map's order, then the reduction loops), each
      input an access at its projected-permutation map (a constant 0
      result reads a broadcast dimension). Each arith/math operation of
      the region becomes a `sparse_array.func` applying it, declaring the
      properties that hold exactly for every value (NaN, ±inf, -0.0 and
      wrap-around included: `arith.mulf` has no annihilator, `arith.addf`
      has identity -0.0), so derivation is exact where upstream assumes
      absent entries are zero. A region `out = op(out, e)` with
      reduction loops is `sparse_array.reduce_over` of `e` with op's
      function, combined with the initial value when that is not op's
      identity (allowed when op is associative, or exactly neutral:
      `addf` of ±0.0, `mulf` of 1.0).
    - `sparse_tensor.binary` / `unary` / `select` become functions with an
      explicit iteration algebra (present/absent semantics);
      `sparse_tensor.reduce` folds the present entries from its identity.
    - Shape operations (`tensor.collapse_shape`, `expand_shape`, static
      `extract_slice`, `tensor.concat`, `sparse_tensor.concatenate`) become
      the dialect's; `sparse_tensor.new` of `getTensorFilename(i)` reads
      program input i; `number_of_entries` is the values buffer's length.
    - `linalg.fill` of a constant, `tensor.empty` and
      `bufferization.alloc_tensor` as outputs; `arith.constant` tensors,
      `sparse_tensor.convert`, `tensor.dim` and
      `bufferization.dealloc_tensor` map to their sparse_array ops.
    - `sparse_tensor.print` and `vector.print` print upstream's text (the
      storage: `nse`, `dim`, `lvl`, `pos[l]`, `crd[l]`, `values`; floats
      as printf's `%g`), so that a frontend's CHECK lines hold;
      `exact-print` prints sparse_array's exact text instead.

    Any other operation on tensors, and any construct the translation
    does not support, is an error naming it: never a silently different
    program.

    Example:

    ```mlir
    %0 = linalg.matvec ins(%A, %x : tensor<?x?xf64, #CSR>, tensor<?xf64>)
                       outs(%y : tensor<?xf64>) -> tensor<?xf64>
    ```

    with `%y` a `linalg.fill` of 0.0 becomes (abridged)

    ```mlir
    %0 = sparse_array.kernel ins(%A, %x : ...) -> !sparse_array.array<?xf64> {
    ^bb0(%i: index, %j: index, %a: ..., %b: ...):
      %p = sparse_array.apply @__sa_import_arith_mulf_f64(%aij, %bj) : (f64, f64) -> f64
      %s = sparse_array.reduce_over [%j] %p with @__sa_import_arith_addf_f64 : f64
      %r = sparse_array.apply @__sa_import_arith_addf_f64(%zero, %s) : (f64, f64) -> f64
      sparse_array.yield %r : f64
    }
    ```
  }];
  let options = [
    Option<"exactPrint", "exact-print", "bool", /*default=*/"false",
           "Print with sparse_array's exact text (sparse_array.print; "
           "floats with round-trip digits) instead of upstream's "
           "sparse_tensor.print layout and six significant digits: for "
           "checking imported programs against exact references">
  ];
  let dependentDialects = [
    "::mlir::sparse_array::SparseArrayDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
}

#endif // SPARSE_ARRAY_IMPORT_PASSES
