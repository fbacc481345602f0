//===- Pipeline.h - The sparse_array compilation pipeline -------*- C++ -*-===//
//
// `sparse-array-pipeline`: from sparse_array programs to the LLVM dialect.
// sa-run uses it as its default pipeline; sa-opt registers it by name.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_CONVERSION_PIPELINE_H
#define SPARSEARRAY_CONVERSION_PIPELINE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace sparse_array {

struct SparseArrayPipelineOptions
    : public PassPipelineOptions<SparseArrayPipelineOptions> {
  PassOptions::Option<bool> enableOpenMP{
      *this, "enable-openmp",
      llvm::cl::desc("Lower scf.parallel loops to OpenMP (libomp)"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> workspace{
      *this, "workspace",
      llvm::cl::desc("Workspace of row-wise (scatter) products: auto, dense "
                     "or hash"),
      llvm::cl::init("auto")};
  PassOptions::Option<unsigned> linearThreshold{
      *this, "linear-threshold",
      llvm::cl::desc("Coiterate this many inputs or more with one linear "
                     "loop instead of a lattice (0: lattices only)"),
      llvm::cl::init(5)};
  PassOptions::Option<bool> branchlessMerge{
      *this, "branchless-merge",
      llvm::cl::desc("Plan innermost unions that compute every case "
                     "branch-free (false: a branch per case)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> parallelMinExtent{
      *this, "parallel-min-extent",
      llvm::cl::desc("Fewest iterations of a kernel's outermost loop run in "
                     "parallel (0: the plan's defaults)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> parallelMinWork{
      *this, "parallel-min-work",
      llvm::cl::desc("Fewest stored values a kernel reads worth running it "
                     "in parallel (0: the plan's default)"),
      llvm::cl::init(0)};
  PassOptions::Option<std::string> parallelAssembly{
      *this, "parallel-assembly",
      llvm::cl::desc("Parallel rows of a CSR/CSC result: auto, two-phase, "
                     "parts or chained"),
      llvm::cl::init("auto")};
  PassOptions::Option<bool> boundsChecks{
      *this, "bounds-checks",
      llvm::cl::desc("Check every buffer access of the generated code "
                     "(sparse-array-check-bounds): a debug mode"),
      llvm::cl::init(false)};
};

/// Appends the whole pipeline to `pm` (anchored on builtin.module).
void buildSparseArrayPipeline(OpPassManager &pm,
                              const SparseArrayPipelineOptions &options);

/// Runs `pm` (a compilation pipeline) on `module` for the JIT: the IR is
/// verified after the last pass instead of after each one. Per-pass
/// verification was an eighth of a kernel's compile time (SpGEMM: 23M of
/// 185M instructions) and finds only bugs in the passes, which sa-opt and
/// the lit tests still verify after every pass (sa-run --verify-each, and
/// the C API's verify_each=1 option, restore it).
LogicalResult runPipeline(PassManager &pm, ModuleOp module, bool verifyEach);

/// Registers `sparse-array-pipeline` with the global pass registry.
void registerSparseArrayPipelines();

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_CONVERSION_PIPELINE_H
