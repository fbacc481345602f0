//===- RuntimeCalls.h - Calls into the sparse_array runtime -----*- C++ -*-===//
//
// Declarations of runtime entry points (runtime/include/SparseArrayRuntime.h)
// created on first use, shared by the storage and kernel lowerings.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_CONVERSION_RUNTIMECALLS_H
#define SPARSEARRAY_CONVERSION_RUNTIMECALLS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

#include <string>

namespace mlir {
namespace sparse_array {

/// The private declaration of runtime function `name` in the module of
/// `anchor`. `cInterface` functions take/return memrefs through descriptors
/// (`_mlir_ciface_` wrappers).
func::FuncOp getRuntimeFunc(OpBuilder &builder, Operation *anchor,
                            StringRef name, TypeRange results, TypeRange args,
                            bool cInterface = false);

/// Calls runtime function `name`; its single result, or null.
Value callRuntime(OpBuilder &builder, Location loc, Operation *anchor,
                  StringRef name, TypeRange results, ValueRange args,
                  bool cInterface = false);

/// A pointer (`!llvm.ptr`) to a NUL-terminated constant string, one
/// global per text in the module of `anchor`.
Value stringPointer(OpBuilder &builder, Location loc, Operation *anchor,
                    StringRef text);

/// file:line:column of a location (the first of a fused one), for run-time
/// error messages.
std::string describeLocation(Location loc);

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_CONVERSION_RUNTIMECALLS_H
