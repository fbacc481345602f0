//===- Composition.h - A producer's reads through its consumer's -*- C++
//-*-===//
//
// Private to lib/Transforms: the access compositions of sparse-array-fuse
// (Fuse.cpp), seed 001 §5.2.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_LIB_TRANSFORMS_COMPOSITION_H
#define SPARSEARRAY_LIB_TRANSFORMS_COMPOSITION_H

#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace sparse_array {
namespace detail {

/// The producer's access `inner` rewritten to read, at each producer output
/// variable, what the consumer's `outer` access reads there (composed with
/// inner's own slice; a constant outside a window is the fill).
Value composeAccess(PatternRewriter &rewriter, AccessOp inner,
                    KernelOp producer, AccessOp outer, IRMapping &mapping);
/// The producer's select_range with its coordinate read through `outer`.
Value composeSelect(PatternRewriter &rewriter, SelectRangeOp select,
                    KernelOp producer, AccessOp outer, IRMapping &mapping);

} // namespace detail
} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_LIB_TRANSFORMS_COMPOSITION_H
