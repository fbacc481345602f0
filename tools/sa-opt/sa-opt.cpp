//===- sa-opt.cpp - sparse_array optimizer driver -------------------------===//
//
// mlir-opt for sparse_array: the dialect, the upstream dialects its programs
// use, the project's passes and pipelines, and the upstream passes the
// pipeline is made of.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/InitSparseArray.h"
#include "TestPasses.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::sparse_array::registerSparseArrayDialects(registry);
  mlir::sparse_array::registerSparseArrayPassesAndPipelines();
  mlir::sparse_array::test::registerTestPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "sparse_array optimizer driver\n", registry));
}
