//===- Optimizer.cpp - The JIT's LLVM optimization pipeline ---------------===//
//
// LLVM's default per-module pipeline at the requested level, with loop
// metadata that keeps code small where its speed does not pay: a loop
// reached only through an unlikely branch -- a guard's fallback, which the
// lowering marks with llvm.expect (exact SpMV's recount of a row whose sum
// is -0.0 or whose x holds inf/NaN; the exact kernel behind
// guard-exact-products), or a failed check ending in unreachable -- is
// neither vectorized nor unrolled.
//
// Why: code generation is two thirds of a kernel's compile time and grows
// with the code the vectorizer and unroller leave (instructions executed,
// valgrind). Exact SpMV's recount loop, vectorized with gathers and
// interleaved, was a quarter of that kernel's compile time.
//
// Tried and left out, since each slowed the kernels at run time: not
// unrolling counted loops whose body branches (SpGEMM's scatter and
// gather; 10 % of SpGEMM's compile, but bcsstk13 products 3.9 -> 4.3 ms
// and logical_xor 63 -> 83 us), and -O2 (no non-trivial loop unswitching:
// exact SpMV compiled in 40 % less, but logical_xor 63 -> 82 us and max
// +10 %).
//
//===----------------------------------------------------------------------===//

#include "SparseArray/ExecutionEngine/Jit.h"

#include "llvm/Analysis/BranchProbabilityInfo.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

using namespace llvm;

// For measuring what the metadata costs or saves (sa-run takes LLVM's
// options): off, the pipeline is LLVM's own.
static cl::opt<bool>
    sizeLoops("sparse-array-small-cold-loops", cl::init(true), cl::Hidden,
              cl::desc("Compile loops on cold paths small (Optimizer.cpp)"));

namespace {

/// True when `header` is reached only through an edge LLVM deems unlikely
/// (the sparse_array lowering marks a guard's fallback with llvm.expect;
/// a failed bounds check ends in unreachable).
bool isCold(BasicBlock *header, DominatorTree &dt,
            BranchProbabilityInfo &probabilities) {
  const BranchProbability unlikely(1, 1000);
  for (DomTreeNode *node = dt.getNode(header); node && node->getIDom();
       node = node->getIDom()) {
    BasicBlock *above = node->getIDom()->getBlock();
    for (BasicBlock *next : successors(above))
      if (dt.dominates(BasicBlockEdge(above, next), header) &&
          probabilities.getEdgeProbability(above, next) <= unlikely)
        return true;
  }
  return false;
}

/// Sets the loop metadata of the file comment on cold loops. Runs where
/// the vectorizer starts: branch weights from llvm.expect are in place by
/// then, and the vectorizer and unroller run after.
struct SmallColdLoops : PassInfoMixin<SmallColdLoops> {
  PreservedAnalyses run(Function &function, FunctionAnalysisManager &fam) {
    LoopInfo &loops = fam.getResult<LoopAnalysis>(function);
    DominatorTree &dt = fam.getResult<DominatorTreeAnalysis>(function);
    BranchProbabilityInfo &probabilities =
        fam.getResult<BranchProbabilityAnalysis>(function);
    for (Loop *loop : loops.getLoopsInPreorder()) {
      if (!loop->getLoopLatch() ||
          !isCold(loop->getHeader(), dt, probabilities))
        continue;
      addStringMetadataToLoop(loop, "llvm.loop.vectorize.enable", 0);
      addStringMetadataToLoop(loop, "llvm.loop.interleave.count", 1);
      addStringMetadataToLoop(loop, "llvm.loop.unroll.disable");
    }
    // Only loop metadata changed: the CFG and every analysis still hold.
    return PreservedAnalyses::all();
  }
};

} // namespace

std::function<Error(Module *)>
mlir::sparse_array::makeKernelOptimizer(unsigned optLevel,
                                        TargetMachine *targetMachine,
                                        raw_ostream *print) {
  return [optLevel, targetMachine, print](Module *module) -> Error {
    OptimizationLevel level = optLevel == 0   ? OptimizationLevel::O0
                              : optLevel == 1 ? OptimizationLevel::O1
                              : optLevel == 2 ? OptimizationLevel::O2
                                              : OptimizationLevel::O3;
    LoopAnalysisManager lam;
    FunctionAnalysisManager fam;
    CGSCCAnalysisManager cgam;
    ModuleAnalysisManager mam;
    PipelineTuningOptions tuning;
    tuning.LoopUnrolling = true;
    tuning.LoopInterleaving = true;
    tuning.LoopVectorization = true;
    tuning.SLPVectorization = true;
    PassBuilder builder(targetMachine, tuning);
    if (sizeLoops)
      builder.registerVectorizerStartEPCallback(
        [](FunctionPassManager &fpm, OptimizationLevel) {
          fpm.addPass(SmallColdLoops());
        });
    builder.registerModuleAnalyses(mam);
    builder.registerCGSCCAnalyses(cgam);
    builder.registerFunctionAnalyses(fam);
    builder.registerLoopAnalyses(lam);
    builder.crossRegisterProxies(lam, fam, cgam, mam);
    ModulePassManager mpm =
        level == OptimizationLevel::O0
            ? builder.buildO0DefaultPipeline(level)
            : builder.buildPerModuleDefaultPipeline(level);
    mpm.run(*module, mam);
    if (print)
      module->print(*print, nullptr);
    return Error::success();
  };
}
