//===- ShapeOpsCommon.h - Checks the shape ops share ------------*- C++ -*-===//
//
// Verifier pieces shared by ShapeOps.cpp and ReshapeOps.cpp. Private to
// lib/Dialect.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_LIB_DIALECT_SHAPEOPSCOMMON_H
#define SPARSEARRAY_LIB_DIALECT_SHAPEOPSCOMMON_H

#include "SparseArray/Dialect/SparseArray.h"

namespace mlir {
namespace sparse_array {
namespace detail {

/// "result shape [..] is not [..]": the diagnostic every shape op shares.
LogicalResult checkShape(Operation *op, ArrayType result,
                         ArrayRef<int64_t> expected);
/// The result's element type is the source's.
LogicalResult checkElementType(Operation *op, ArrayType source,
                               ArrayType result);
/// `dims` are distinct positions in [0, bound).
LogicalResult checkPositions(Operation *op, ArrayRef<int64_t> dims,
                             int64_t bound, StringRef what);

} // namespace detail
} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_LIB_DIALECT_SHAPEOPSCOMMON_H
