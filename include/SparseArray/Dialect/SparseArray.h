//===- SparseArray.h - sparse_array dialect ---------------------*- C++ -*-===//
//
// The single public header of the dialect: dialect, attributes, types, ops.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_DIALECT_SPARSEARRAY_H
#define SPARSEARRAY_DIALECT_SPARSEARRAY_H

#include "SparseArray/Dialect/LevelFormat.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "SparseArray/Dialect/SparseArrayOpsDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "SparseArray/Dialect/SparseArrayAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "SparseArray/Dialect/SparseArrayOpsTypes.h.inc"

#define GET_OP_CLASSES
#include "SparseArray/Dialect/SparseArrayOps.h.inc"

namespace mlir {
namespace sparse_array {

/// The array type of `value`, or null when it has another type.
inline ArrayType getArrayType(Value value) {
  return dyn_cast<ArrayType>(value.getType());
}

/// Prints a fill value the way the format attribute spells it (`nan`,
/// `inf`, `-inf`, or the builtin literal), without the type.
void printFillValue(llvm::raw_ostream &os, TypedAttr fill);

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_DIALECT_SPARSEARRAY_H
