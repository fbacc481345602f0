//===- VersionByWork.cpp - Parallel or sequential kernel, by its work -----===//
//
// A kernel with a sparse result planned parallel pays for it even when it
// then runs as one part: its entries appended to part buffers and copied
// into the result's (parts), or every entry computed twice (two phases).
// Below the plan's min_work, or on one thread, the sequential kernel is the
// better code, so the kernel is emitted twice behind one run-time test of
// its work and OpenMP's thread count: the parallel version (the test done:
// its plan without min_work) and the sequential one, which appends straight
// into the result's buffers.
//
//===----------------------------------------------------------------------===//

#include "Loops/KernelLowering.h"

#include "CodegenUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::detail;

Value mlir::sparse_array::detail::storedValuesRead(OpBuilder &b, Location loc,
                                                  KernelOp kernel,
                                                  int64_t atMost) {
  Value work = constIndex(b, loc, 0);
  for (auto [k, input] : llvm::enumerate(kernel.getInputs())) {
    if (!kernel.getAccessOf(k))
      continue;
    auto type = cast<ArrayType>(input.getType());
    std::optional<int64_t> elements = type.getNumElements();
    Value n;
    if (type.isAllDense() && elements) {
      n = constIndex(b, loc, std::min(*elements, atMost));
    } else {
      Value values = ValuesOp::create(
          b, loc, MemRefType::get({ShapedType::kDynamic}, type.getElementType()),
          input);
      n = memref::DimOp::create(b, loc, values, 0);
    }
    work = b.createOrFold<arith::AddIOp>(loc, work, n);
  }
  return work;
}

void mlir::sparse_array::detail::versionByWork(
    KernelOp kernel, SmallVectorImpl<KernelOp> &kernels) {
  ParallelAttr plan = kernel.getParallelAttr();
  // Only a sparse result's parallel code differs from the sequential one
  // when it runs as one part; and a kernel that iterates outside its
  // inputs' stored entries has more work than they measure (the
  // lowering counts its coordinates: parallelWork).
  if (!plan || !plan.isParallel() || plan.getMinWork() <= 1 ||
      kernel.getResultType().isAllDense() || !kernel.getAlgebra() ||
      !kernel.getAlgebra()->getAlgebra().normalize().withinStoredEntries()) {
    kernels.push_back(kernel);
    return;
  }
  MLIRContext *ctx = kernel.getContext();
  Location loc = kernel.getLoc();
  ParallelAttr parallel = ParallelAttr::get(
      ctx, plan.getMode(), plan.getMinExtent(), 0, plan.getBalance(),
      plan.getTwoPhase(), plan.getParts(), plan.getChained(), "");
  ParallelAttr sequential = ParallelAttr::get(
      ctx, "none", 0, 0, -1, false, false, false,
      ("fewer than " + Twine(plan.getMinWork()) +
       " stored values read, or one thread (tested at run time)")
          .str());
  OpBuilder b(kernel);
  Value enough = b.createOrFold<arith::CmpIOp>(
      loc, arith::CmpIPredicate::uge,
      storedValuesRead(b, loc, kernel, plan.getMinWork()),
      constIndex(b, loc, plan.getMinWork()));
  if (std::optional<int64_t> known = getConstantIntValue(enough);
      known && !*known) {
    kernel.setParallelAttr(sequential);
    kernels.push_back(kernel);
    return;
  }
  // On one thread the parallel version's extra pass or copies buy nothing:
  // the sequential one runs (issue 56).
  enough = b.createOrFold<arith::AndIOp>(loc, enough,
                                         severalThreads(b, loc, kernel));
  auto version = [&](OpBuilder &vb, Location l, ParallelAttr attr) {
    auto copy = cast<KernelOp>(vb.clone(*kernel));
    copy.setParallelAttr(attr);
    kernels.push_back(copy);
    scf::YieldOp::create(vb, l, copy.getResult());
  };
  auto choice = scf::IfOp::create(
      b, loc, enough,
      [&](OpBuilder &tb, Location l) { version(tb, l, parallel); },
      [&](OpBuilder &eb, Location l) { version(eb, l, sequential); });
  kernel.getResult().replaceAllUsesWith(choice.getResult(0));
  kernel.erase();
}
