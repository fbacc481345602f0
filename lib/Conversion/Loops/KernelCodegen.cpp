//===- KernelCodegen.cpp - Kernels to loops over level iterators ----------===//
//
// Lowers derived kernels (seed 000 §7, seed 002 §4, thesis 003 §6.2). The
// layers, one concern each, are described in KernelLowering.h and
// docs/architecture.md.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Conversion/KernelCodegen.h"

#include "CodegenUtils.h"
#include "KernelLowering.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::detail;

// The driver: the row-wise plan, or analysis, output set-up, the loop nest
// from the outermost result loop, and the finished result.
LogicalResult KernelLowering::run() {
  ReduceOverOp scatterLoops;
  kernel.getBody().walk([&](ReduceOverOp r) {
    if (r.getScatterLoops())
      scatterLoops = r;
  });
  if (scatterLoops)
    return runScatterReduction(scatterLoops);
  bool scatter = false;
  kernel.getBody().walk(
      [&](ReduceOverOp r) { scatter |= r.getScatter().has_value(); });
  if (scatter)
    return runRowWiseProduct();
  OpBuilder b(kernel);
  if (failed(analyze(b)))
    return failure();
  setUpOutput(b);
  Context ctx;
  ctx.nestEnd = rank;
  for (unsigned k = 0; k < inputs.size(); ++k) {
    if (inputs[k].used)
      ctx.alive |= uint64_t(1) << k;
    ctx.processed.push_back(0);
    ctx.lo.push_back(constIndex(b, loc, 0));
    ctx.hi.push_back(constIndex(b, loc, 1));
    ctx.found.push_back(Value());
  }
  SmallVector<Value> out;
  ValueRange initial = output->initialState();
  if (rank == 0) {
    for (unsigned k = 0; k < inputs.size(); ++k)
      if (ctx.alive >> k & 1)
        locateLevels(b, ctx, k, 0);
    out = emitCompute(b, ctx, false, initial);
  } else {
    out = emitLoop(b, 0, ctx, initial);
  }
  if (hadError)
    return failure();
  // signed_zero_dot's per-column counts live for the loops only.
  for (Value counts : {dotPositivesPer, dotNonFinitePer})
    if (counts)
      memref::DeallocOp::create(b, loc, counts);
  Value result = output->finish(b, out);
  kernel.getResult().replaceAllUsesWith(result);
  kernel.erase();
  return success();
}

LogicalResult mlir::sparse_array::lowerKernels(Operation *root) {
  SmallVector<KernelOp> found, kernels;
  root->walk([&](KernelOp k) { found.push_back(k); });
  for (KernelOp k : found)
    versionByWork(k, kernels);
  SymbolTableCollection symbols;
  bool ok = true;
  for (KernelOp k : kernels) {
    KernelLowering lowering(k, symbols);
    if (failed(lowering.run()))
      ok = false;
  }
  return success(ok);
}
