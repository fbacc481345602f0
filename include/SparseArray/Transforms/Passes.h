//===- Passes.h - sparse_array passes ---------------------------*- C++ -*-===//

#ifndef SPARSEARRAY_TRANSFORMS_PASSES_H
#define SPARSEARRAY_TRANSFORMS_PASSES_H

#include "SparseArray/Dialect/SparseArray.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace sparse_array {

#define GEN_PASS_DECL
#include "SparseArray/Transforms/Passes.h.inc"

/// Patterns of sparse-array-fuse: map/reduce to kernels, kernel fusion.
void populateSparseArrayFusionPatterns(RewritePatternSet &patterns);

/// The shape operators (slice, transpose, expand_dims, squeeze, concat,
/// split, reshape) as kernels (ShapeToKernels.cpp; part of the fusion
/// patterns).
void populateShapeToKernelPatterns(RewritePatternSet &patterns);

/// change_fill of a kernel's only use: the kernel declares that fill
/// (RefillKernels.cpp; part of the fusion patterns).
void populateRefillKernelPatterns(RewritePatternSet &patterns);

/// Frees each kernel, map or reduce result (or another op's that owns new
/// storage: shape ops, change_fill) under `root` that nothing
/// frees, returns or passes on: after its last use in its block, when
/// every use is a computation reading it (sparse-array-free-temporaries).
/// Returns how many deallocations it inserted.
unsigned freeComputedTemporaries(Operation *root);

/// `type` with every level that needs its own reads or cannot be assembled
/// (read only by its iterator, no append or insert) stored compressed, its
/// ordered/unique properties kept; `type` itself when it has none.
ArrayType getGenericArrayType(ArrayType type);

/// Reads each blocked input of `kernel` (a format with blocks) through
/// sparse_array.demap, each index variable of a blocked dimension split
/// into the block and the place in it (DemapBlocks.cpp). Fails, changing
/// nothing, when the kernel reads them other than plainly or its result
/// would need moving entries to be taken back unsplit.
LogicalResult demapBlockedInputs(KernelOp kernel);

/// Inserts the conversions of sparse-array-legalize-formats under `root`;
/// returns how many.
unsigned legalizeLevelFormats(Operation *root);

/// sparse-array-guard-exact-products: each exact f64 matrix product
/// (add_f64 over mul_f64 of two factors with fill +0.0) becomes scf.if
/// between a copy planned as a sparse product and itself, on a guard
/// computed per call (GuardExactProducts.cpp).
LogicalResult guardExactProducts(ModuleOp module);

/// Reports every sparse_array op, type or attribute under `root`; returns
/// failure when there was one. Shared by the pass and by sa-run.
LogicalResult rejectUnloweredConstructs(Operation *root);

#define GEN_PASS_REGISTRATION
#include "SparseArray/Transforms/Passes.h.inc"

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_TRANSFORMS_PASSES_H
