//===- StoredLevels.h - Pieces of the in-place shape lowerings --*- C++ -*-===//
//
// What CollapseLevels.cpp and SplitLevels.cpp share: both keep every stored
// entry at its position, rewrite the levels of one group and copy the rest
// (private to lib/Conversion).
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_LIB_CONVERSION_STOREDLEVELS_H
#define SPARSEARRAY_LIB_CONVERSION_STOREDLEVELS_H

#include "SparseArray/Conversion/LevelIterator.h"
#include "SparseArray/Dialect/SparseArray.h"

namespace mlir {
namespace sparse_array {
namespace detail {

/// How many positions level `it` has under parent positions [0, count):
/// where the last parent's segment ends (0 without parents).
Value emitPositionsUnder(OpBuilder &b, Location loc, LevelIterator &it,
                         Value count);

/// Appends copies of level `level`'s buffers of `array` (positions, then
/// coordinates, those its format has) to `buffers`.
void copyLevelBuffers(OpBuilder &b, Location loc, Operation *anchor,
                      Value array, unsigned level,
                      SmallVectorImpl<Value> &buffers, int64_t parallelMin = 0);

/// `type` assembled from `buffers` (its levels') and a copy of `array`'s
/// values, with sizes `dims`: the values counted as they are copied when
/// the last level is not full, and those equal to the fill dropped
/// (dropStoredFills) when a source assembled with some brought them.
/// Copies of at least `parallelMin` (> 0) elements are shared out among
/// threads (copyRange).
Value assembleWithValuesOf(OpBuilder &b, Location loc, Operation *anchor,
                           Value array, ArrayType type,
                           SmallVector<Value> buffers, ValueRange dims,
                           int64_t parallelMin = 0);

} // namespace detail
} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_LIB_CONVERSION_STOREDLEVELS_H
