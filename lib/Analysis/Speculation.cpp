//===- Speculation.cpp - Functions that may run where not needed ----------===//

#include "SparseArray/Analysis/Speculation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

#include <functional>

using namespace mlir;
using namespace mlir::sparse_array;

static bool isSpeculatableImpl(FuncOp func, Operation *from,
                               SymbolTableCollection &symbols,
                               DenseSet<Operation *> &seen) {
  if (!func || !seen.insert(func).second)
    return static_cast<bool>(func);
  return !func->walk([&](Operation *op) {
                if (op == func.getOperation() || isa<YieldOp>(op))
                  return WalkResult::advance();
                if (auto call = dyn_cast<ApplyOp>(op))
                  return isSpeculatableImpl(
                             symbols.lookupNearestSymbolFrom<FuncOp>(
                                 from, call.getCalleeAttr()),
                             from, symbols, seen)
                             ? WalkResult::advance()
                             : WalkResult::interrupt();
                return isPure(op) ? WalkResult::advance()
                                  : WalkResult::interrupt();
              })
              .wasInterrupted();
}

bool mlir::sparse_array::isSpeculatable(FuncOp func, Operation *from,
                                        SymbolTableCollection &symbols) {
  DenseSet<Operation *> seen;
  return isSpeculatableImpl(func, from, symbols, seen);
}

bool mlir::sparse_array::isCheapKernel(KernelOp kernel,
                                       SymbolTableCollection &symbols) {
  if (!isSpeculatableKernel(kernel, symbols))
    return false;
  DenseSet<Operation *> seen;
  std::function<bool(FuncOp)> cheap = [&](FuncOp func) {
    if (!func || !seen.insert(func).second)
      return static_cast<bool>(func);
    return !func->walk([&](Operation *op) {
                  if (auto call = dyn_cast<ApplyOp>(op))
                    return cheap(symbols.lookupNearestSymbolFrom<FuncOp>(
                               kernel, call.getCalleeAttr()))
                               ? WalkResult::advance()
                               : WalkResult::interrupt();
                  return op->getDialect() &&
                                 op->getDialect()->getNamespace() == "math"
                             ? WalkResult::interrupt()
                             : WalkResult::advance();
                })
                .wasInterrupted();
  };
  return llvm::all_of(kernel.getBody().front().without_terminator(),
                      [&](Operation &op) {
                        auto apply = dyn_cast<ApplyOp>(op);
                        return !apply ||
                               cheap(symbols.lookupNearestSymbolFrom<FuncOp>(
                                   kernel, apply.getCalleeAttr()));
                      });
}

bool mlir::sparse_array::isSpeculatableKernel(KernelOp kernel,
                                              SymbolTableCollection &symbols) {
  DenseSet<Operation *> seen;
  return llvm::all_of(
      kernel.getBody().front().without_terminator(), [&](Operation &op) {
        if (auto apply = dyn_cast<ApplyOp>(op))
          return isSpeculatableImpl(symbols.lookupNearestSymbolFrom<FuncOp>(
                                        kernel, apply.getCalleeAttr()),
                                    kernel, symbols, seen);
        // select_range picks among values computed already: it cannot trap.
        return isa<AccessOp, ReduceOverOp, SelectRangeOp, arith::ConstantOp>(
            op);
      });
}
