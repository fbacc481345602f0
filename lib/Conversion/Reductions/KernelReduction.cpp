//===- KernelReduction.cpp - Reductions inside a kernel -------------------===//
//
// seed 000 §7.2 and thesis 003 §6.3: a reduction's loops per result
// point, its accumulator, early exit at an annihilator.
//
//===----------------------------------------------------------------------===//

#include "Loops/KernelLowering.h"
#include "SparseArray/Algebra/Lattice.h"
#include "SparseArray/Analysis/AlgebraDerivation.h"
#include "SparseArray/Analysis/Evaluator.h"
#include "SparseArray/Analysis/Speculation.h"
#include "SparseArray/Conversion/LevelIterator.h"
#include "SparseArray/Conversion/RuntimeCalls.h"
#include "SparseArray/Dialect/LevelFormat.h"
#include "SparseArray/Dialect/Storage.h"
#include "SparseArray/Transforms/Coiteration.h"

#include "CodegenUtils.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/InterleavedRange.h"

#include <limits>

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::detail;

// bits, with the magnitude bits flipped for negative values: signed integer
// order is then IEEE total order (-0.0 < +0.0). An involution.
Value KernelLowering::toKey(OpBuilder &b, Value v) {
  unsigned width = v.getType().getIntOrFloatBitWidth();
  Type it = b.getIntegerType(width);
  Value bits = arith::BitcastOp::create(b, loc, it, v);
  Value sign = arith::ShRSIOp::create(
      b, loc, bits, arith::ConstantIntOp::create(b, loc, it, width - 1));
  Value mask = arith::ShRUIOp::create(
      b, loc, sign, arith::ConstantIntOp::create(b, loc, it, 1));
  return arith::XOrIOp::create(b, loc, bits, mask);
}

Value KernelLowering::fromKey(OpBuilder &b, Value key) {
  unsigned width = key.getType().getIntOrFloatBitWidth();
  Type it = key.getType();
  Value sign = arith::ShRSIOp::create(
      b, loc, key, arith::ConstantIntOp::create(b, loc, it, width - 1));
  Value mask = arith::ShRUIOp::create(
      b, loc, sign, arith::ConstantIntOp::create(b, loc, it, 1));
  Value bits = arith::XOrIOp::create(b, loc, key, mask);
  return arith::BitcastOp::create(b, loc, reduction.getType(), bits);
}

Value KernelLowering::emitCombinerCall(OpBuilder &b, Value acc, Value v) {
  SmallVector<int32_t> both = {0, 1};
  FailureOr<Value> r =
      inlineCall(b, combiner, ValueRange{acc, v}, combiner.getCaseFor(both), 0);
  if (failed(r)) {
    hadError = true;
    return acc;
  }
  return *r;
}

Value KernelLowering::emitNotAnnihilated(OpBuilder &b, Location l,
                                         ValueRange state) {
  TypedAttr ann = reductionPlan.annihilator;
  Value acc = state[0];
  Value differs;
  if (auto f = dyn_cast<FloatAttr>(ann)) {
    if (f.getValue().isNaN())
      differs =
          arith::CmpFOp::create(b, l, arith::CmpFPredicate::ORD, acc, acc);
    else
      differs = arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE, acc,
                                      arith::ConstantOp::create(b, l, ann));
  } else {
    differs = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, acc,
                                    arith::ConstantOp::create(b, l, ann));
  }
  // Without an identity the accumulator means nothing before the first
  // point.
  if (state.size() > countIndex() && !accumulatorStartsDefined())
    differs = arith::OrIOp::create(
        b, l, differs,
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                              state[countIndex()], constIndex(b, l, 0)));
  return differs;
}

Value KernelLowering::emitReduction(OpBuilder &b, const Context &ctx,
                                    Value startValue) {
  Type t = reduction.getType();
  auto constant = [&](OpBuilder &cb, TypedAttr a) -> Value {
    return arith::ConstantOp::create(cb, loc, a);
  };
  // Inputs absent at this result point may make the reduction a constant.
  const DerivedSpace &space = derivation.derive(kernel, reduction.getResult());
  if (space.fill) {
    IterationAlgebra a = space.algebra;
    for (unsigned k = 0; k < inputs.size(); ++k)
      if (inputs[k].used && !(ctx.alive >> k & 1))
        a = removeOperand(a, k);
    if (a.normalize().isEmpty())
      return constant(b, space.fill);
  }
  using Strategy = ReductionPlan::Strategy;
  bool counting = reductionPlan.strategy != Strategy::Identity;
  TypedAttr zero = isa<FloatType>(t) ? TypedAttr(b.getFloatAttr(t, 0.0))
                                     : TypedAttr(b.getIntegerAttr(t, 0));
  TypedAttr start = reductionPlan.identity    ? reductionPlan.identity
                    : reductionPlan.valueFill ? reductionPlan.valueFill
                                              : zero;
  // A `from` operand: the fold starts from its value, points follow in
  // order (so any combiner, associative or not).
  SmallVector<Value> state = {startValue ? startValue : constant(b, start)};
  if (keyed) {
    // NaN seen: a NaN start value is one.
    Value nanSeen =
        startValue ? Value(arith::CmpFOp::create(b, loc,
                                                 arith::CmpFPredicate::UNO,
                                                 startValue, startValue))
                   : Value(arith::ConstantIntOp::create(b, loc, 0, 1));
    state[0] = toKey(b, state[0]);
    state.push_back(nanSeen);
  }
  if (isSignedZeroDot())
    return emitSignedZeroDot(b, ctx, state[0]);
  if (counting)
    state.push_back(constIndex(b, loc, 0));
  // The reduction's loops are a nest of their own: the enclosing result
  // loop's threaded cases do not reach into them.
  SmallVector<Value> res = emitLoop(b, rank, reductionNest(ctx), state);
  Value acc = res[0];
  if (keyed) {
    Value nan = arith::ConstantOp::create(
        b, loc,
        b.getFloatAttr(
            t, APFloat::getNaN(cast<FloatType>(t).getFloatSemantics())));
    acc = arith::SelectOp::create(b, loc, res[1], nan, fromKey(b, acc));
  }
  if (!counting)
    return acc;
  Value total = constIndex(b, loc, 1);
  for (unsigned d = rank; d < numLoops; ++d)
    total = arith::MulIOp::create(b, loc, total, extents[d]);
  return finishReduction(b, acc, res[countIndex()], total);
}

Value KernelLowering::emitSignedZeroDot(OpBuilder &b, const Context &ctx,
                                        Value start) {
  Context nest = reductionNest(ctx);
  // The sum over the stored points alone, as fast as a declared-finite
  // SpMV: the counts are not needed unless x has a non-finite value or
  // the sum is -0.0 (an empty row, say).
  Value acc = emitLoop(b, rank, nest, ValueRange{start})[0];
  Value zero = constIndex(b, loc, 0);
  auto cmpi = [&](arith::CmpIPredicate p, Value x, Value y) -> Value {
    return arith::CmpIOp::create(b, loc, p, x, y);
  };
  Value negZero = isNegativeZero(b, loc, acc);
  // The counts at this result point (per kept coordinate of the dense
  // factor, or over all of it).
  std::pair<Value, Value> here = denseFactorCountsAt(b, ctx);
  Value need = arith::OrIOp::create(
      b, loc,
      arith::AndIOp::create(b, loc, negZero,
                            cmpi(arith::CmpIPredicate::ne, here.first, zero)),
      cmpi(arith::CmpIPredicate::ne, here.second, zero));
  auto fix = scf::IfOp::create(
      b, loc, unlikely(b, loc, need),
      [&](OpBuilder &tb, Location l) {
        // The same points again, counted by the class of their x.
        Context counting = nest;
        counting.dotCountPass = true;
        Value none = constIndex(tb, l, 0);
        SmallVector<Value> res =
            emitLoop(tb, rank, counting, ValueRange{acc, none, none});
        scf::YieldOp::create(
            tb, l,
            finishReduction(tb, acc, res[countIndex()], Value(),
                            res[nonFiniteIndex()], here));
      },
      [&](OpBuilder &eb, Location l) { scf::YieldOp::create(eb, l, acc); });
  return fix.getResult(0);
}

std::pair<Value, Value> KernelLowering::classifyDenseFactor(OpBuilder &b,
                                                            Value y) {
  auto ft = cast<FloatType>(y.getType());
  Type it = b.getIntegerType(ft.getWidth());
  Value bits = arith::BitcastOp::create(b, loc, it, y);
  // The exponent bits all set: ±inf or NaN, whose product with ±0.0 is NaN.
  Value expMask = arith::BitcastOp::create(
      b, loc, it,
      arith::ConstantOp::create(
          b, loc, b.getFloatAttr(ft, APFloat::getInf(ft.getFloatSemantics()))));
  Value nonFinite = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::AndIOp::create(b, loc, bits, expMask), expMask);
  // ±0.0 * y is +0.0 when the signs agree.
  Value negative = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::slt, bits,
      arith::ConstantIntOp::create(b, loc, it, 0));
  Value sameSign = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, negative,
      arith::ConstantIntOp::create(b, loc, reductionPlan.zeroFillNegative, 1));
  Value finite = arith::XOrIOp::create(
      b, loc, nonFinite, arith::ConstantIntOp::create(b, loc, 1, 1));
  return {arith::AndIOp::create(b, loc, sameSign, finite), nonFinite};
}

std::pair<Value, Value>
KernelLowering::denseFactorCountsAt(OpBuilder &b, const Context &ctx) {
  if (dotKeptDims.empty())
    return {dotPositives, dotNonFinite};
  unsigned k = reductionPlan.denseFactorInput;
  AccessOp access = kernel.getAccessOf(k);
  Value array = kernel.getInputs()[k];
  Value at = constIndex(b, loc, 0);
  for (unsigned dim : dotKeptDims) {
    unsigned var = cast<BlockArgument>(access.getIndices()[dim]).getArgNumber();
    at = linearize(b, loc, at,
                   DimOp::create(b, loc, array, static_cast<int64_t>(dim)),
                   ctx.coords[loopOfVar(var)]);
  }
  return {memref::LoadOp::create(b, loc, dotPositivesPer, ValueRange{at}),
          memref::LoadOp::create(b, loc, dotNonFinitePer, ValueRange{at})};
}

void KernelLowering::emitDenseFactorCounts(OpBuilder &b) {
  unsigned k = reductionPlan.denseFactorInput;
  Value array = kernel.getInputs()[k];
  // The dimensions read at kept variables: counts per their coordinates.
  dotKeptDims.clear();
  AccessOp access = kernel.getAccessOf(k);
  // (A linearize of reduced variables is reduced: the planner checked.)
  for (auto [dim, index] : llvm::enumerate(access.getIndices()))
    if (!llvm::is_contained(reduction.getIndices(), index) &&
        !index.getDefiningOp<LinearizeOp>())
      dotKeptDims.push_back(dim);
  if (!dotKeptDims.empty()) {
    emitDenseFactorCountsPerKept(b);
    return;
  }
  Value size = constIndex(b, loc, 1);
  for (unsigned d = 0; d < inputs[k].type.getRank(); ++d)
    size = arith::MulIOp::create(
        b, loc, size, DimOp::create(b, loc, array, static_cast<int64_t>(d)));
  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  auto count = [&](OpBuilder &cb, Value flag) {
    return arith::SelectOp::create(cb, loc, flag, one, zero).getResult();
  };
  // An all-dense array's values are its entries, each once.
  auto loop = scf::ForOp::create(
      b, loc, zero, size, one, ValueRange{zero, zero},
      [&](OpBuilder &lb, Location l, Value i, ValueRange acc) {
        Value y = memref::LoadOp::create(lb, l, inputs[k].values, i);
        auto [positive, nonFinite] = classifyDenseFactor(lb, y);
        scf::YieldOp::create(
            lb, l,
            ValueRange{arith::AddIOp::create(lb, l, acc[0], count(lb, positive)),
                       arith::AddIOp::create(lb, l, acc[1],
                                             count(lb, nonFinite))});
      });
  dotPositives = loop.getResult(0);
  dotNonFinite = loop.getResult(1);
}

Value KernelLowering::finishReduction(OpBuilder &b, Value acc, Value count,
                                      Value total, Value nonFinite,
                                      std::pair<Value, Value> denseCounts) {
  using Strategy = ReductionPlan::Strategy;
  auto constant = [&](OpBuilder &cb, TypedAttr a) -> Value {
    return arith::ConstantOp::create(cb, loc, a);
  };
  if (reductionPlan.strategy == Strategy::Reassociate) {
    // The points not visited hold the fill: acc ⊕ fill^(total - count),
    // the power by repeated squaring (associativity regroups the fold,
    // commutativity moves the fills to the end).
    Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
    Value missing = arith::SubIOp::create(b, loc, total, count);
    Value fill = constant(b, reductionPlan.valueFill);
    Value f = arith::ConstantIntOp::create(b, loc, 0, 1);
    // (k, base, power, has power): power = base^(bits of k consumed).
    SmallVector<Value> init = {missing, fill, fill, f};
    auto loop = scf::WhileOp::create(
        b, loc, ValueRange(init).getTypes(), init,
        [&](OpBuilder &wb, Location l, ValueRange args) {
          scf::ConditionOp::create(
              wb, l,
              arith::CmpIOp::create(wb, l, arith::CmpIPredicate::ne, args[0],
                                    zero),
              args);
        },
        [&](OpBuilder &wb, Location l, ValueRange args) {
          Value k = args[0], base = args[1], power = args[2], has = args[3];
          Value odd =
              arith::CmpIOp::create(wb, l, arith::CmpIPredicate::ne,
                                    arith::AndIOp::create(wb, l, k, one), zero);
          // Only combinations the grouping needs are evaluated.
          auto take = scf::IfOp::create(
              wb, l, odd,
              [&](OpBuilder &tb, Location tl) {
                Value both =
                    scf::IfOp::create(
                        tb, tl, has,
                        [&](OpBuilder &hb, Location hl) {
                          scf::YieldOp::create(
                              hb, hl, emitCombinerCall(hb, power, base));
                        },
                        [&](OpBuilder &nb, Location nl) {
                          scf::YieldOp::create(nb, nl, base);
                        })
                        .getResult(0);
                scf::YieldOp::create(tb, tl, both);
              },
              [&](OpBuilder &eb, Location el) {
                scf::YieldOp::create(eb, el, power);
              });
          Value rest = arith::ShRUIOp::create(wb, l, k, one);
          Value square = scf::IfOp::create(
                             wb, l,
                             arith::CmpIOp::create(
                                 wb, l, arith::CmpIPredicate::ne, rest, zero),
                             [&](OpBuilder &tb, Location tl) {
                               scf::YieldOp::create(
                                   tb, tl, emitCombinerCall(tb, base, base));
                             },
                             [&](OpBuilder &eb, Location el) {
                               scf::YieldOp::create(eb, el, base);
                             })
                             .getResult(0);
          Value hasNow = arith::OrIOp::create(wb, l, has, odd);
          scf::YieldOp::create(
              wb, l, ValueRange{rest, square, take.getResult(0), hasNow});
        });
    Value power = loop.getResult(2);
    Value none =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, missing, zero);
    // A start value is a visited point: it is combined with the power.
    Value noneVisited =
        reduction.getStart()
            ? Value(arith::ConstantIntOp::create(b, loc, 0, 1))
            : Value(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          count, zero));
    // Nothing missing: acc. Nothing visited: the power (an empty range
    // keeps the start value). Else both.
    auto fix = scf::IfOp::create(
        b, loc, none,
        [&](OpBuilder &tb, Location l) { scf::YieldOp::create(tb, l, acc); },
        [&](OpBuilder &eb, Location l) {
          auto both = scf::IfOp::create(
              eb, l, noneVisited,
              [&](OpBuilder &nb, Location nl) {
                scf::YieldOp::create(nb, nl, power);
              },
              [&](OpBuilder &cb, Location cl) {
                scf::YieldOp::create(cb, cl, emitCombinerCall(cb, acc, power));
              });
          scf::YieldOp::create(eb, l, both.getResult(0));
        });
    return fix.getResult(0);
  }
  if (reductionPlan.strategy == Strategy::SignedZeroDot) {
    // seed 000 §7.2 with the omitted points' terms read off the dense
    // factor: some omitted term NaN -> NaN (NaN + anything is NaN); else
    // some omitted +0.0 turns a -0.0 sum into +0.0; -0.0 terms change
    // nothing.
    Type t = acc.getType();
    Value negZero = isNegativeZero(b, loc, acc);
    auto [positives, nonFinites] =
        denseCounts.first ? denseCounts : std::pair(dotPositives, dotNonFinite);
    Value positiveOmitted = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult, count, positives);
    Value nanOmitted = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult, nonFinite, nonFinites);
    Value r = arith::SelectOp::create(
        b, loc, arith::AndIOp::create(b, loc, negZero, positiveOmitted),
        constant(b, b.getFloatAttr(t, 0.0)), acc);
    Value nan = constant(
        b, b.getFloatAttr(
               t, APFloat::getNaN(cast<FloatType>(t).getFloatSemantics())));
    return arith::SelectOp::create(b, loc, nanOmitted, nan, r);
  }
  if (reductionPlan.strategy == Strategy::SignedZeroSum) {
    // The points not visited add +0.0: only a -0.0 sum changes (+0.0).
    Type t = acc.getType();
    Value negZero = isNegativeZero(b, loc, acc);
    Value missing =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, count, total);
    return arith::SelectOp::create(
        b, loc, arith::AndIOp::create(b, loc, negZero, missing),
        constant(b, b.getFloatAttr(t, 0.0)), acc);
  }
  if (reductionPlan.strategy == Strategy::Idempotent) {
    // Some point was not visited: it holds the fill; once is enough.
    Value missing =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, count, total);
    auto fix = scf::IfOp::create(
        b, loc, missing,
        [&](OpBuilder &tb, Location l) {
          Value fill = constant(tb, reductionPlan.valueFill);
          Value combined = emitCombinerCall(tb, acc, fill);
          if (accumulatorStartsDefined()) {
            scf::YieldOp::create(tb, l, combined);
            return;
          }
          Value first = arith::CmpIOp::create(tb, l, arith::CmpIPredicate::eq,
                                              count, constIndex(tb, l, 0));
          scf::YieldOp::create(
              tb, l,
              arith::SelectOp::create(tb, l, first, fill, combined)
                  .getResult());
        },
        [&](OpBuilder &eb, Location l) { scf::YieldOp::create(eb, l, acc); });
    return fix.getResult(0);
  }
  return acc;
}

SmallVector<Value> KernelLowering::emitCombine(OpBuilder &b, const Context &ctx,
                                               bool omitter, ValueRange state) {
  uint64_t absent = 0;
  SmallVector<Value> values = loadInputValues(b, ctx, absent);
  bool counting = state.size() > countIndex();
  auto combineAt = [&](OpBuilder &cb) {
    if (ctx.dotCountPass) {
      // signed_zero_dot's second pass: counts only.
      auto [positive, nonFinite] =
          classifyDenseFactor(cb, values[reductionPlan.denseFactorInput]);
      Value one = constIndex(cb, loc, 1), zero = constIndex(cb, loc, 0);
      return SmallVector<Value>{
          state[0],
          arith::AddIOp::create(
              cb, loc, state[countIndex()],
              arith::SelectOp::create(cb, loc, positive, one, zero)),
          arith::AddIOp::create(
              cb, loc, state[nonFiniteIndex()],
              arith::SelectOp::create(cb, loc, nonFinite, one, zero))};
    }
    Value v = emitBody(cb, absent, values, reduction.getValue(), nullptr,
                       ctx.coords, runTimePresence(ctx));
    SmallVector<Value> r;
    Value next, first;
    if (keyed && ctx.fastFloat) {
      first = v;
      Value better = arith::CmpFOp::create(cb, loc,
                                           keyedMax ? arith::CmpFPredicate::OGT
                                                    : arith::CmpFPredicate::OLT,
                                           v, state[0]);
      next = arith::SelectOp::create(cb, loc, better, v, state[0]);
    } else if (keyed) {
      first = toKey(cb, v);
      next = keyedMax ? Value(arith::MaxSIOp::create(cb, loc, state[0], first))
                      : Value(arith::MinSIOp::create(cb, loc, state[0], first));
    } else {
      first = v;
      next = emitCombinerCall(cb, state[0], v);
    }
    if (counting && !accumulatorStartsDefined())
      next = arith::SelectOp::create(
          cb, loc,
          arith::CmpIOp::create(cb, loc, arith::CmpIPredicate::eq,
                                state[countIndex()], constIndex(cb, loc, 0)),
          first, next);
    r.push_back(next);
    if (keyed)
      r.push_back(arith::OrIOp::create(
          cb, loc, state[1],
          arith::CmpFOp::create(cb, loc, arith::CmpFPredicate::UNO, v, v)));
    if (counting)
      r.push_back(arith::AddIOp::create(cb, loc, state[countIndex()],
                                        constIndex(cb, loc, 1)));
    return r;
  };
  if (!omitter)
    return combineAt(b);
  // An omitted point holds the value's fill unless a stored entry is an
  // explicit fill (thesis §6.2.1): then it is combined after all.
  IterationAlgebra space = reductionPlan.algebra;
  for (unsigned k = 0; k < inputs.size(); ++k)
    if (absent >> k & 1)
      space = removeOperand(space, k);
  return emitIfMember(b, space.normalize(), values, absent, state, combineAt);
}

SmallVector<Value>
KernelLowering::combineReductionStates(OpBuilder &b, ValueRange first,
                                       ValueRange second, const Context &ctx) {
  bool counting = first.size() > countIndex();
  Value acc;
  if (ctx.dotCountPass)
    acc = first[0]; // the counting pass carries the sum unchanged
  if (keyed && ctx.fastFloat) {
    // As one point after another: the later only when strictly better.
    Value better = arith::CmpFOp::create(
        b, loc, keyedMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT,
        second[0], first[0]);
    acc = arith::SelectOp::create(b, loc, better, second[0], first[0]);
  } else if (keyed) {
    acc = keyedMax ? Value(arith::MaxSIOp::create(b, loc, first[0], second[0]))
                   : Value(arith::MinSIOp::create(b, loc, first[0], second[0]));
  }
  auto emptyRun = [&](OpBuilder &cb, ValueRange state) {
    return arith::CmpIOp::create(cb, loc, arith::CmpIPredicate::eq,
                                 state[countIndex()], constIndex(cb, loc, 0));
  };
  if (!acc) {
    if (counting && !accumulatorStartsDefined()) {
      acc = combineCountedRuns(
          b, loc, first[0], first[countIndex()], second[0],
          second[countIndex()], [&](OpBuilder &cb, Value x, Value y) {
            return emitCombinerCall(cb, x, y);
          });
    } else {
      acc = emitCombinerCall(b, first[0], second[0]);
    }
  } else if (counting && !accumulatorStartsDefined()) {
    acc = arith::SelectOp::create(b, loc, emptyRun(b, first), second[0], acc);
    acc = arith::SelectOp::create(b, loc, emptyRun(b, second), first[0], acc);
  }
  SmallVector<Value> state = {acc};
  if (keyed)
    state.push_back(arith::OrIOp::create(b, loc, first[1], second[1]));
  if (counting)
    state.push_back(arith::AddIOp::create(b, loc, first[countIndex()],
                                          second[countIndex()]));
  if (ctx.dotCountPass)
    state.push_back(arith::AddIOp::create(b, loc, first[nonFiniteIndex()],
                                          second[nonFiniteIndex()]));
  return state;
}

void KernelLowering::emitDenseFactorCountsPerKept(OpBuilder &b) {
  unsigned k = reductionPlan.denseFactorInput;
  Value array = kernel.getInputs()[k];
  unsigned rank = inputs[k].type.getRank();
  SmallVector<Value> dims;
  for (unsigned d = 0; d < rank; ++d)
    dims.push_back(DimOp::create(b, loc, array, static_cast<int64_t>(d)));
  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  Value kept = one, size = one;
  for (unsigned d = 0; d < rank; ++d)
    size = arith::MulIOp::create(b, loc, size, dims[d]);
  for (unsigned d : dotKeptDims)
    kept = arith::MulIOp::create(b, loc, kept, dims[d]);
  auto counts = MemRefType::get({ShapedType::kDynamic}, b.getIndexType());
  dotPositivesPer = memref::AllocOp::create(b, loc, counts, ValueRange{kept});
  dotNonFinitePer = memref::AllocOp::create(b, loc, counts, ValueRange{kept});
  scf::ForOp::create(b, loc, zero, kept, one, ValueRange{},
                     [&](OpBuilder &lb, Location l, Value i, ValueRange) {
                       memref::StoreOp::create(lb, l, zero, dotPositivesPer, i);
                       memref::StoreOp::create(lb, l, zero, dotNonFinitePer, i);
                       scf::YieldOp::create(lb, l);
                     });
  // Each entry (row-major: its position's coordinates) counts for the
  // coordinate of its kept dimensions.
  scf::ForOp::create(
      b, loc, zero, size, one, ValueRange{},
      [&](OpBuilder &lb, Location l, Value e, ValueRange) {
        SmallVector<Value> coords(rank);
        Value rest = e;
        for (int d = rank - 1; d >= 0; --d) {
          coords[d] = arith::RemUIOp::create(lb, l, rest, dims[d]);
          rest = arith::DivUIOp::create(lb, l, rest, dims[d]);
        }
        Value at = constIndex(lb, l, 0);
        for (unsigned d : dotKeptDims)
          at = linearize(lb, l, at, dims[d], coords[d]);
        Value y = memref::LoadOp::create(lb, l, inputs[k].values, e);
        auto [positive, nonFinite] = classifyDenseFactor(lb, y);
        auto bump = [&](Value buffer, Value flag) {
          Value c = memref::LoadOp::create(lb, l, buffer, at);
          Value inc = arith::SelectOp::create(lb, l, flag, constIndex(lb, l, 1),
                                              constIndex(lb, l, 0));
          memref::StoreOp::create(lb, l, arith::AddIOp::create(lb, l, c, inc),
                                  buffer, at);
        };
        bump(dotPositivesPer, positive);
        bump(dotNonFinitePer, nonFinite);
        scf::YieldOp::create(lb, l);
      });
}
