//===- Optimizer.cpp - The JIT's LLVM optimization pipeline ---------------===//
//
// LLVM's default per-module pipeline at the requested level, with loop
// metadata that keeps code small where its speed does not pay:
// - a loop reached only through an unlikely branch (a guard's exact
//   fallback, marked with llvm.expect by the lowering) is neither
//   vectorized nor unrolled;
// - a counted loop whose body branches is not unrolled at run time.
//
// Why: code generation is two thirds of a kernel's compile time and grows
// with the code the unroller and vectorizer leave (instructions executed,
// valgrind, bench/compile's SpGEMM: 57M in the IR passes, 64M in code
// generation). A runtime-unrolled loop is its body four to eight times
// plus a remainder loop: for a single-block body (SpMV's inner loop) that
// pays (9.8 ms against 12.3 without, 5.2M entries); for a body with a
// branch (a row-wise product's scatter into its workspace, the gather
// that drops entries equal to the fill) the copies were a third of
// SpGEMM's code and bought nothing measurable. A vectorized cold loop
// (exact SpMV's recount of a row whose sum is -0.0) cost a quarter of that
// kernel's compile time and runs only when x holds inf/NaN or a row sums
// to -0.0.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/ExecutionEngine/Jit.h"

#include "llvm/Analysis/BranchProbabilityInfo.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

using namespace llvm;

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

/// Sets the loop metadata of the file comment. Runs where the vectorizer starts: loops are simplified and rotated by
/// then (a straight-line body is one block), and the unroller runs after.
struct SizeLoopsByTheirUse : PassInfoMixin<SizeLoopsByTheirUse> {
  PreservedAnalyses run(Function &function, FunctionAnalysisManager &fam) {
    LoopInfo &loops = fam.getResult<LoopAnalysis>(function);
    DominatorTree &dt = fam.getResult<DominatorTreeAnalysis>(function);
    BranchProbabilityInfo &probabilities =
        fam.getResult<BranchProbabilityAnalysis>(function);
    for (Loop *loop : loops.getLoopsInPreorder()) {
      if (!loop->getLoopLatch())
        continue;
      if (isCold(loop->getHeader(), dt, probabilities)) {
        addStringMetadataToLoop(loop, "llvm.loop.vectorize.enable", 0);
        addStringMetadataToLoop(loop, "llvm.loop.interleave.count", 1);
        addStringMetadataToLoop(loop, "llvm.loop.unroll.disable");
      } else if (loop->getNumBlocks() > 1) {
        addStringMetadataToLoop(loop, "llvm.loop.unroll.runtime.disable");
      }
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
    builder.registerVectorizerStartEPCallback(
        [](FunctionPassManager &fpm, OptimizationLevel) {
          fpm.addPass(SizeLoopsByTheirUse());
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
