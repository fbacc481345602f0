//===- Speculation.h - Functions that may run where not needed --*- C++ -*-===//
//
// Code generation evaluates a function at points the dense program would
// not need it at only when that cannot trap: branch-free masked reductions
// evaluate past the mask, linear coiteration evaluates the general body
// where a lattice would take a case region or skip an omitter.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_ANALYSIS_SPECULATION_H
#define SPARSEARRAY_ANALYSIS_SPECULATION_H

#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace sparse_array {

/// Whether `func`, with what it calls (its body and case bodies alike),
/// can run anywhere: no traps (arith's integer divisions are speculatable
/// only by nonzero constants), no effects, no loops. Callees are looked up
/// from `from`.
bool isSpeculatable(FuncOp func, Operation *from,
                    SymbolTableCollection &symbols);

/// Whether every function a kernel's body applies is speculatable.
bool isSpeculatableKernel(KernelOp kernel, SymbolTableCollection &symbols);

/// Whether the kernel is speculatable and cheap to evaluate needlessly: no
/// math operation (libm calls: pow, exp, ...) in what it applies, only
/// arithmetic and selects.
bool isCheapKernel(KernelOp kernel, SymbolTableCollection &symbols);

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_ANALYSIS_SPECULATION_H
