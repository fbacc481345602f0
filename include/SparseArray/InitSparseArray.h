//===- InitSparseArray.h - Registration for the tools -----------*- C++ -*-===//

#ifndef SPARSEARRAY_INITSPARSEARRAY_H
#define SPARSEARRAY_INITSPARSEARRAY_H

#include "mlir/IR/DialectRegistry.h"

namespace mlir {
namespace sparse_array {

/// sparse_array and the upstream dialects its programs and pipeline use.
void registerSparseArrayDialects(DialectRegistry &registry);

/// The project's passes and pipelines plus the upstream passes that appear
/// in the pipeline, so each stage can also be run alone from sa-opt.
void registerSparseArrayPassesAndPipelines();

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_INITSPARSEARRAY_H
