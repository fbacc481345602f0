//===- Passes.h - Importing other dialects' programs ------------*- C++ -*-===//
//
// sparse-array-import-sparse-tensor and the pipeline
// sparse-array-from-sparse-tensor-pipeline (import, then
// sparse-array-pipeline): sparse_array as a backend for frontends that emit
// linalg on sparse_tensor-encoded tensors (issue 19).
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_IMPORT_PASSES_H
#define SPARSEARRAY_IMPORT_PASSES_H

#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace sparse_array {

#define GEN_PASS_DECL
#include "SparseArray/Import/Passes.h.inc"

/// Imports every function of `module` (see the pass's description);
/// emits a diagnostic naming the construct and fails on anything it
/// cannot translate exactly. `exactPrint`: prints use sparse_array's exact
/// text rather than upstream's.
LogicalResult importSparseTensorProgram(ModuleOp module,
                                        bool exactPrint = false);

/// The dialects an imported program may contain (linalg, tensor,
/// sparse_tensor, bufferization), added to `registry`.
void registerImportedDialects(DialectRegistry &registry);

/// Whether `module` uses any of those dialects (types included): whether a
/// runner should import it first.
bool needsSparseTensorImport(ModuleOp module);

/// Registers `sparse-array-from-sparse-tensor-pipeline`.
void registerSparseArrayImportPipeline();

#define GEN_PASS_REGISTRATION
#include "SparseArray/Import/Passes.h.inc"

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_IMPORT_PASSES_H
