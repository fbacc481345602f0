//===- frontend-opt.cpp - A frontend's opt tool with sparse_array ---------===//
//
// What a project that emits linalg on sparse_tensor-encoded tensors links to
// use sparse_array as its backend: one call registers the dialects (the
// upstream ones its programs contain included), one the passes and
// pipelines (sparse-array-from-sparse-tensor-pipeline among them).
//
//===----------------------------------------------------------------------===//

#include "SparseArray/InitSparseArray.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::sparse_array::registerSparseArrayDialects(registry);
  mlir::sparse_array::registerSparseArrayPassesAndPipelines();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "a frontend's opt tool with sparse_array\n", registry));
}
