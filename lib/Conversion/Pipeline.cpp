//===- Pipeline.cpp - The sparse_array compilation pipeline ---------------===//

#include "SparseArray/Conversion/Pipeline.h"
#include "SparseArray/Conversion/Passes.h"
#include "SparseArray/Transforms/Parallelism.h"
#include "SparseArray/Transforms/Passes.h"

#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::sparse_array;

void mlir::sparse_array::buildSparseArrayPipeline(
    OpPassManager &pm, const SparseArrayPipelineOptions &options) {
  // --- sparse_array stages -------------------------------------------------
  // Functions named like what compiled code calls (libm, libc, the runtime)
  // would capture those calls: reported first.
  pm.addPass(createSparseArrayCheckSymbolsPass());
  // Array-level ops to index-notation kernels, chains fused into one.
  pm.addPass(createSparseArrayFusePass());
  // Arrays left between kernels that the program only reads: freed after
  // their last use (a frontend's program does not free them).
  pm.addPass(createSparseArrayFreeTemporariesPass());
  // Arrays in level formats an operation cannot read or build (plugins
  // such as DIA): converted around it (seed 002 §3.2 capabilities).
  pm.addPass(createSparseArrayLegalizeFormatsPass());
  // Exact f64 matrix products: a sparse plan under a run-time guard, the
  // exact union plan otherwise (issue 20).
  pm.addPass(createSparseArrayGuardExactProductsPass());
  // Iteration algebra and result fill of every kernel (seed 000 §5.2).
  pm.addPass(createSparseArrayDeriveAlgebraPass());
  // Coiteration plan: inputs in loop order, one iteration lattice per loop
  // and set of inputs present there (seed 000 §6, Alg. 2).
  pm.addPass(createSparseArrayBuildLatticesPass(
      SparseArrayBuildLatticesPassOptions{
          options.linearThreshold, options.branchlessMerge, options.workspace}));
  // Which outermost loops run in parallel: dense results or CSR rows (two
  // phases), no cursor carried from one iteration to the next. Without
  // OpenMP no kernel is planned, so the code is the sequential one (no
  // counting pass for sparse rows).
  if (options.enableOpenMP)
    pm.addPass(createSparseArrayPlanParallelPass(
        SparseArrayPlanParallelPassOptions{options.parallelMinExtent,
                                           options.parallelMinWork,
                                           options.parallelAssembly}));
  // Kernels to loops along those lattices: level iterators over the input
  // buffers, cases per lattice point, results assembled (seed 000 §7,
  // seed 001 §7.1, seed 002 §4).
  pm.addPass(createSparseArrayLowerIteratorsPass());
  // Single entries read at run-time coordinates: a search per level.
  pm.addPass(createSparseArrayLowerExtractPass());
  // Collapses whose dimensions are stored by adjacent levels: the levels
  // merged, no entry moved (seed 001 §4.1).
  // Bulk copies shared out among threads with OpenMP: from kMinParallelCopy
  // elements, or the parallel-min-work threshold when one is given.
  pm.addPass(createSparseArrayLowerShapePass(SparseArrayLowerShapePassOptions{
      !options.enableOpenMP         ? 0
      : options.parallelMinWork > 0 ? options.parallelMinWork
                                    : kMinParallelCopy}));
  // Debug mode: every buffer access checked, violations reported by name.
  if (options.boundsChecks)
    pm.addPass(createSparseArrayCheckBoundsPass());
  // Array values to their level buffers; I/O and conversions to runtime
  // calls (seed 002 §3.1).
  pm.addPass(createSparseArrayLowerStoragePass());
  // Anything of the dialect that is still present cannot be compiled: say
  // so by name before the LLVM conversions would fail obscurely.
  pm.addPass(createSparseArrayRejectUnloweredPass());

  // bf16 arithmetic in f32, rounded back (exact: f32 holds more than twice
  // bf16's precision), so that only conversions remain, which the next
  // pass expands into integer operations (no compiler-rt calls).
  arith::ArithEmulateUnsupportedFloatsOptions bf16;
  bf16.sourceTypeStrs = {"bf16"};
  pm.addPass(arith::createArithEmulateUnsupportedFloats(bf16));
  // Exact float min/max without LLVM's branch on the sign.
  pm.addPass(createSparseArrayExpandFloatMinMaxPass());

  // --- clean-up --------------------------------------------------------------
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // --- parallelism ----------------------------------------------------------
  // scf.parallel -> omp.parallel/omp.wsloop. It emits memref.alloca_scope for
  // reductions, so memref must be lowered before scf is (toolchain notes).
  // The loops over parts first, scheduled dynamically; the others static.
  if (options.enableOpenMP) {
    pm.addPass(createSparseArrayPartsToOpenMPPass());
    pm.addPass(createConvertSCFToOpenMPPass());
  }

  // --- to the LLVM dialect ---------------------------------------------------
  pm.addPass(createLowerAffinePass());
  // Growing and trimming output buffers: the C library's realloc (no copy
  // when it can extend or trim in place); any other realloc to alloc +
  // copy + dealloc.
  pm.addPass(createSparseArrayReallocToLLVMPass());
  pm.addPass(memref::createExpandReallocPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createSCFToControlFlowPass());
  // Vectors an imported program reads from tensors (vector.transfer_read
  // becomes extracts gathered by vector.from_elements).
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addNestedPass<func::FuncOp>(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  if (options.enableOpenMP)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // No inexact rewrites of C library calls by LLVM (pow(2^n, x) as
  // exp2(n * x)).
  pm.addPass(createSparseArrayExactLibCallsPass());
}

LogicalResult mlir::sparse_array::runPipeline(PassManager &pm, ModuleOp module,
                                              bool verifyEach) {
  pm.enableVerifier(verifyEach);
  if (failed(pm.run(module)))
    return failure();
  return verifyEach ? success() : verify(module);
}

void mlir::sparse_array::registerSparseArrayPipelines() {
  PassPipelineRegistration<SparseArrayPipelineOptions>(
      "sparse-array-pipeline",
      "Compile sparse_array programs to the LLVM dialect (the pipeline sa-run "
      "uses)",
      buildSparseArrayPipeline);
}
