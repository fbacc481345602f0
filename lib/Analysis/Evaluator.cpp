//===- Evaluator.cpp - Exact compile-time evaluation of functions ---------===//

#include "SparseArray/Analysis/Evaluator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

#include <limits>

using namespace mlir;
using namespace mlir::sparse_array;

/// The NaN this machine's floating-point unit returns for an invalid
/// operation (0 * inf, inf - inf, 0 / 0 ...), in `semantics`. x86 returns a
/// negative quiet NaN; APFloat, which arith's folders use, a positive one.
/// The generated code runs on this machine, and copysign or a bitcast can
/// see the sign, so compile-time results must use the machine's NaN.
static APFloat machineDefaultNaN(const llvm::fltSemantics &semantics) {
  // volatile: the host compiler must not fold this with its own APFloat.
  volatile double zero = 0.0;
  volatile double infinity = std::numeric_limits<double>::infinity();
  APFloat nan(zero * infinity);
  bool losesInfo = false;
  (void)nan.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
  return nan;
}

/// Arithmetic whose folders compute with APFloat rather than with the
/// host's libm (math's transcendental folders call libm, which is what the
/// generated code calls too).
static bool foldsWithAPFloat(Operation &op) {
  return isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
             arith::RemFOp, math::FmaOp>(op);
}

/// `value` folded from `operands` by `op`, with an invalid operation's NaN
/// replaced by the machine's (a NaN operand propagates, as in hardware).
static Attribute withMachineNaN(Operation &op, ArrayRef<Attribute> operands,
                                Attribute value) {
  auto result = dyn_cast<FloatAttr>(value);
  if (!result || !result.getValue().isNaN() || !foldsWithAPFloat(op))
    return value;
  for (Attribute operand : operands)
    if (auto f = dyn_cast<FloatAttr>(operand); f && f.getValue().isNaN())
      return value;
  return FloatAttr::get(result.getType(),
                        machineDefaultNaN(result.getValue().getSemantics()));
}

LogicalResult Evaluator::fail(const Twine &message) {
  lastError = message.str();
  return failure();
}

FuncOp Evaluator::getCopy(FuncOp func) {
  OwningOpRef<FuncOp> &copy = copies[func.getOperation()];
  if (!copy) {
    copy = func.clone();
    originals[copy.get()] = func;
  }
  return copy.get();
}

FailureOr<TypedAttr> Evaluator::evaluate(FuncOp func, ArrayRef<TypedAttr> args,
                                         Region *region) {
  steps = 0;
  lastError.clear();
  if (args.size() != func.getArity())
    return fail("wrong number of arguments");
  SmallVector<Attribute> values(args.begin(), args.end());
  FailureOr<SmallVector<Attribute>> results =
      callFunction(func, values, /*depth=*/0, region);
  if (failed(results))
    return failure();
  auto result = dyn_cast<TypedAttr>((*results)[0]);
  if (!isa_and_nonnull<IntegerAttr, FloatAttr>(result) ||
      result.getType() != func.getResultType())
    return fail("the result is not a constant of the result type");
  return result;
}

FailureOr<SmallVector<Attribute>>
Evaluator::callFunction(FuncOp func, ArrayRef<Attribute> args, unsigned depth,
                        Region *region) {
  if (depth > options.maxCallDepth)
    return fail("calls nest deeper than " + Twine(options.maxCallDepth));
  FuncOp copy = getCopy(func);
  Region *target = &copy.getBody();
  if (region) {
    // The same case region in the copy.
    for (auto [k, original] : llvm::enumerate(func.getCases()))
      if (&original == region)
        target = &copy.getCases()[k];
  }
  return run(*target, args, depth);
}

FailureOr<SmallVector<Attribute>> Evaluator::run(Region &region,
                                                 ArrayRef<Attribute> args,
                                                 unsigned depth,
                                                 const Scope *parent) {
  if (!region.hasOneBlock())
    return fail("unstructured control flow (more than one block) cannot be "
                "evaluated");
  Block &block = region.front();
  if (block.getNumArguments() != args.size())
    return fail("region argument count mismatch");
  Scope scope;
  scope.parent = parent;
  llvm::DenseMap<Value, Attribute> &env = scope.values;
  for (auto [arg, value] : llvm::zip(block.getArguments(), args))
    env[arg] = value;
  auto lookup = [&](Value v) -> Attribute { return scope.lookup(v); };
  auto operandValues = [&](Operation &op, SmallVectorImpl<Attribute> &out) {
    for (Value operand : op.getOperands()) {
      Attribute value = lookup(operand);
      if (!value)
        return false;
      out.push_back(value);
    }
    return true;
  };
  auto asInt = [](Attribute attr) -> std::optional<APInt> {
    if (auto intAttr = dyn_cast_or_null<IntegerAttr>(attr))
      return intAttr.getValue();
    return std::nullopt;
  };

  for (Operation &op : block) {
    if (++steps > options.maxSteps)
      return fail("gave up after " + Twine(options.maxSteps) +
                  " operations (a loop that does not terminate?)");
    SmallVector<Attribute> operands;
    if (!operandValues(op, operands))
      return fail("'" + op.getName().getStringRef() +
                  "' uses a value defined outside the function");

    if (op.hasTrait<OpTrait::IsTerminator>())
      return SmallVector<Attribute>(operands);

    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      std::optional<APInt> cond = asInt(operands[0]);
      if (!cond)
        return fail("scf.if condition is not a constant");
      Region &taken = cond->isZero() ? ifOp.getElseRegion()
                                     : ifOp.getThenRegion();
      if (taken.empty())
        continue;
      FailureOr<SmallVector<Attribute>> results = run(taken, {}, depth, &scope);
      if (failed(results))
        return failure();
      for (auto [result, value] : llvm::zip(ifOp.getResults(), *results))
        env[result] = value;
      continue;
    }

    if (auto forOp = dyn_cast<scf::ForOp>(op)) {
      std::optional<APInt> lb = asInt(operands[0]), ub = asInt(operands[1]),
                           step = asInt(operands[2]);
      if (!lb || !ub || !step)
        return fail("scf.for bounds are not constants");
      bool isUnsigned = forOp.getUnsignedCmp();
      SmallVector<Attribute> iterArgs(operands.begin() + 3, operands.end());
      for (APInt iv = *lb;
           isUnsigned ? iv.ult(*ub) : iv.slt(*ub);) {
        SmallVector<Attribute> bodyArgs;
        bodyArgs.push_back(
            IntegerAttr::get(forOp.getInductionVar().getType(), iv));
        bodyArgs.append(iterArgs);
        FailureOr<SmallVector<Attribute>> next =
            run(forOp.getRegion(), bodyArgs, depth, &scope);
        if (failed(next))
          return failure();
        iterArgs = *next;
        bool overflow = false;
        iv = isUnsigned ? iv.uadd_ov(*step, overflow)
                        : iv.sadd_ov(*step, overflow);
        if (overflow)
          break;
      }
      for (auto [result, value] : llvm::zip(forOp.getResults(), iterArgs))
        env[result] = value;
      continue;
    }

    if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
      SmallVector<Attribute> state(operands);
      while (true) {
        FailureOr<SmallVector<Attribute>> before =
            run(whileOp.getBefore(), state, depth, &scope);
        if (failed(before))
          return failure();
        std::optional<APInt> cond = asInt((*before)[0]);
        if (!cond)
          return fail("scf.while condition is not a constant");
        SmallVector<Attribute> forwarded(before->begin() + 1, before->end());
        if (cond->isZero()) {
          for (auto [result, value] : llvm::zip(whileOp.getResults(), forwarded))
            env[result] = value;
          break;
        }
        FailureOr<SmallVector<Attribute>> after =
            run(whileOp.getAfter(), forwarded, depth, &scope);
        if (failed(after))
          return failure();
        state = *after;
      }
      continue;
    }

    if (auto apply = dyn_cast<ApplyOp>(op)) {
      // Resolve against the original program (copies are detached).
      Operation *original =
          originals.lookup(apply->getParentOfType<FuncOp>());
      auto callee = original ? SymbolTable::lookupNearestSymbolFrom<FuncOp>(
                                   original, apply.getCalleeAttr())
                             : FuncOp();
      if (!callee)
        return fail("cannot resolve @" + apply.getCallee());
      FailureOr<SmallVector<Attribute>> results =
          callFunction(callee, operands, depth + 1);
      if (failed(results))
        return failure();
      env[apply.getResult()] = (*results)[0];
      continue;
    }

    if (op.getNumRegions() != 0)
      return fail("'" + op.getName().getStringRef() +
                  "' has regions and cannot be evaluated");

    SmallVector<OpFoldResult> folded;
    if (failed(op.fold(operands, folded)) ||
        folded.size() != op.getNumResults())
      return fail("'" + op.getName().getStringRef() +
                  "' does not fold on these constants");
    for (auto [result, value] : llvm::zip(op.getResults(), folded)) {
      Attribute attr = dyn_cast<Attribute>(value);
      if (!attr)
        attr = lookup(cast<Value>(value));
      if (!isa_and_nonnull<IntegerAttr, FloatAttr>(attr))
        return fail("'" + op.getName().getStringRef() +
                    "' folds to a non-constant (e.g. poison)");
      env[result] = withMachineNaN(op, operands, attr);
    }
  }
  return fail("region without terminator");
}
