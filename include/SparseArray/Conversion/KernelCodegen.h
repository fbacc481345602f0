//===- KernelCodegen.h - Kernels to loops over level iterators --*- C++ -*-===//
//
// Lowers a derived `sparse_array.kernel` (algebra and fill attached) to
// scf/memref/arith loops over the level buffers of its inputs, assembling
// the result (seed 000 §7.1; seed 002 §4; thesis 003 §6.2).
//
// One loop per result level, in the result's storage order. At each loop
// the inputs whose level there is not full are coiterated along an
// iteration lattice (SparseArray/Algebra/Lattice.h) built from the
// kernel's algebra with the operands known absent removed and the others
// eliminated; full levels are located. Every level is iterated through the
// LevelIterator interface below, chosen from the level format's properties
// and buffers, never its name.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_CONVERSION_KERNELCODEGEN_H
#define SPARSEARRAY_CONVERSION_KERNELCODEGEN_H

#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace sparse_array {

/// Lowers every kernel in `root` as its plans say (lattices, reduction
/// plans, parallel plans). Emits an error naming the construct and fails
/// for what cannot be compiled yet.
LogicalResult lowerKernels(Operation *root);

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_CONVERSION_KERNELCODEGEN_H
