//===- ShapeOpsAsm.h - Custom assembly of shape ops -------------*- C++ -*-===//
//
// Custom directives of the shape operators (ShapeOps.cpp), declared for the
// generated parsers and printers in SparseArrayOps.cpp. Private to
// lib/Dialect.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_LIB_DIALECT_SHAPEOPSASM_H
#define SPARSEARRAY_LIB_DIALECT_SHAPEOPSASM_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpImplementation.h"

namespace mlir {
namespace sparse_array {
namespace detail {

/// `[1:9:2, :, -1]`: NumPy basic indexing, four values per entry (see
/// SliceOp).
ParseResult parseSliceSpec(OpAsmParser &parser, DenseI64ArrayAttr &spec);
void printSliceSpec(OpAsmPrinter &printer, Operation *op,
                    DenseI64ArrayAttr spec);

} // namespace detail
} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_LIB_DIALECT_SHAPEOPSASM_H
