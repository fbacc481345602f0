//===- PartsToOpenMP.cpp - Parallel loops over parts, scheduled dynamically -===//
//
// The loops over a kernel's parts (CodegenUtils' emitParallelParts) as
// OpenMP work-sharing loops with schedule(dynamic) (issue 17): parts of
// equal entries differ in time by their rows' set-up, so threads take them
// one at a time. Everything else is convert-scf-to-openmp's.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Conversion/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace sparse_array {
#define GEN_PASS_DEF_SPARSEARRAYPARTSTOOPENMPPASS
#include "SparseArray/Conversion/Passes.h.inc"
} // namespace sparse_array
} // namespace mlir

using namespace mlir;

namespace {

/// omp.parallel { omp.wsloop schedule(dynamic) { omp.loop_nest { body } } }
/// in place of `loop`, the body inside a memref.alloca_scope so that its
/// allocas live one iteration (as convert-scf-to-openmp does).
void lowerDynamic(scf::ParallelOp loop, RewriterBase &rewriter) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  auto parallel = omp::ParallelOp::create(
      rewriter, loc, /*allocate_vars=*/{}, /*allocator_vars=*/{},
      /*if_expr=*/Value(), /*num_threads=*/Value(),
      /*private_vars=*/ValueRange(), /*private_syms=*/nullptr,
      /*private_needs_barrier=*/nullptr, omp::ClauseProcBindKindAttr{},
      /*reduction_mod=*/nullptr, /*reduction_vars=*/{},
      /*reduction_byref=*/DenseBoolArrayAttr{}, /*reduction_syms=*/ArrayAttr{});
  rewriter.createBlock(&parallel.getRegion());
  auto wsloop = omp::WsloopOp::create(rewriter, loc);
  wsloop.setScheduleKindAttr(omp::ClauseScheduleKindAttr::get(
      rewriter.getContext(), omp::ClauseScheduleKind::Dynamic));
  omp::TerminatorOp::create(rewriter, loc);
  rewriter.createBlock(&wsloop.getRegion());
  auto nest = omp::LoopNestOp::create(
      rewriter, loc, /*collapse_num_loops=*/1, loop.getLowerBound(),
      loop.getUpperBound(), loop.getStep(), /*loop_inclusive=*/false,
      /*tile_sizes=*/nullptr);
  rewriter.inlineRegionBefore(loop.getRegion(), nest.getRegion(),
                              nest.getRegion().begin());
  Block &entry = nest.getRegion().front();
  rewriter.eraseOp(entry.getTerminator()); // the empty scf.reduce
  Block *ops = rewriter.splitBlock(&entry, entry.begin());
  rewriter.setInsertionPointToStart(&entry);
  auto scope = memref::AllocaScopeOp::create(rewriter, loc, TypeRange());
  omp::YieldOp::create(rewriter, loc, ValueRange());
  Block *body = rewriter.createBlock(&scope.getBodyRegion());
  rewriter.mergeBlocks(ops, body);
  rewriter.setInsertionPointToEnd(body);
  memref::AllocaScopeReturnOp::create(rewriter, loc, ValueRange());
  rewriter.eraseOp(loop);
}

struct PartsToOpenMPPass
    : public sparse_array::impl::SparseArrayPartsToOpenMPPassBase<
          PartsToOpenMPPass> {
  void runOnOperation() override {
    SmallVector<scf::ParallelOp> loops;
    getOperation()->walk([&](scf::ParallelOp loop) {
      auto schedule =
          loop->getAttrOfType<StringAttr>(sparse_array::kScheduleAttrName);
      if (schedule && schedule.getValue() == "dynamic" &&
          loop.getNumLoops() == 1 && loop.getNumReductions() == 0)
        loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ParallelOp loop : loops)
      lowerDynamic(loop, rewriter);
  }
};

} // namespace
