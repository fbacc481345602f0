//===- KernelCompute.cpp - The computation at one point -------------------===//
//
// thesis 003 §6.2.1 (explicit vs implicit fill checks) and §6.2.3 (case
// bodies per lattice point): the kernel's value from its inputs' values,
// function bodies inlined with known-absent operands folded.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"
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

Value mlir::sparse_array::detail::emitMembership(OpBuilder &b, Location loc,
                                                 const IterationAlgebra &a,
                                                 ArrayRef<Value> defined) {
  using Kind = IterationAlgebra::Kind;
  auto constant = [&](bool v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 1);
  };
  switch (a.getKind()) {
  case Kind::Empty:
    return constant(false);
  case Kind::Universe:
    return constant(true);
  case Kind::Leaf:
    return defined[a.getLeaf()] ? defined[a.getLeaf()] : constant(false);
  case Kind::Complement:
    return arith::XOrIOp::create(
        b, loc, emitMembership(b, loc, a.getChildren()[0], defined),
        constant(true));
  case Kind::Union:
  case Kind::Intersection: {
    Value acc;
    for (const IterationAlgebra &c : a.getChildren()) {
      Value v = emitMembership(b, loc, c, defined);
      acc = !acc ? v
            : a.getKind() == Kind::Union
                ? Value(arith::OrIOp::create(b, loc, acc, v))
                : Value(arith::AndIOp::create(b, loc, acc, v));
    }
    return acc;
  }
  }
  llvm_unreachable("unknown algebra kind");
}

SmallVector<Value> KernelLowering::loadInputValues(OpBuilder &b,
                                                   const Context &ctx,
                                                   uint64_t &absent) {
  absent = 0;
  SmallVector<Value> values(inputs.size());
  for (unsigned k = 0; k < inputs.size(); ++k) {
    Input &in = inputs[k];
    if (!in.used)
      continue;
    if (!(ctx.alive >> k & 1)) {
      absent |= uint64_t(1) << k;
      values[k] = arith::ConstantOp::create(b, loc, in.fill);
      continue;
    }
    // Levels left to iterate (in the reduction's loops): no value here.
    if (ctx.processed[k] < in.levels.size())
      continue;
    // A range marker stores true everywhere (ConcatToKernel): its value
    // without a load, for whatever tests presence by value (linear loops).
    if (!in.valuesRead) {
      values[k] = arith::ConstantIntOp::create(b, loc, 1, 1);
      continue;
    }
    if (!ctx.found[k]) {
      values[k] =
          memref::LoadOp::create(b, loc, in.values, ValueRange{ctx.lo[k]});
      continue;
    }
    if (ctx.inBounds >> k & 1) {
      Value stored =
          memref::LoadOp::create(b, loc, in.values, ValueRange{ctx.lo[k]});
      values[k] = arith::SelectOp::create(
          b, loc, ctx.found[k], stored,
          arith::ConstantOp::create(b, loc, in.fill));
      continue;
    }
    // A constant coordinate that may be missing: the fill then, and no
    // load past the segment.
    auto guarded = scf::IfOp::create(
        b, loc, ctx.found[k],
        [&](OpBuilder &tb, Location l) {
          scf::YieldOp::create(
              tb, l,
              memref::LoadOp::create(tb, l, in.values, ValueRange{ctx.lo[k]})
                  .getResult());
        },
        [&](OpBuilder &eb, Location l) {
          scf::YieldOp::create(
              eb, l, arith::ConstantOp::create(eb, l, in.fill).getResult());
        });
    values[k] = guarded.getResult(0);
  }
  return values;
}

SmallVector<Value> KernelLowering::emitCompute(OpBuilder &b, const Context &ctx,
                                               bool omitter, ValueRange out) {
  uint64_t absent = 0;
  SmallVector<Value> values = loadInputValues(b, ctx, absent);
  SmallVector<Value> presence = runTimePresence(ctx);
  if (reduction) {
    // The fold's start value at this point, outside its loops.
    auto startValue = [&](OpBuilder &cb) -> Value {
      if (!reduction.getStart())
        return Value();
      return emitBody(cb, absent, values, reduction.getStart(), nullptr,
                      ctx.coords, presence);
    };
    auto computeReduced = [&](OpBuilder &cb) {
      IRMapping given;
      given.map(reduction.getResult(),
                emitReduction(cb, ctx, startValue(cb)));
      Value v = emitBody(cb, absent, values, Value(), &given, ctx.coords,
                         presence);
      return output->store(cb, ctx.coords, v, out);
    };
    // Whether the point can differ from the fill is decided from the inputs
    // known here (a mask, dense or coiterated: seed 000 §7.2); those only
    // the reduction reads may or may not be there (eliminated). Points
    // ruled out never run their reduction.
    IterationAlgebra space = algebraWithout(absent);
    for (unsigned k : space.getLeaves())
      if (!values[k])
        space = eliminateOperand(space, k);
    space = space.normalize();
    if (space.isUniverse() || (!omitter && space.getLeaves().empty()))
      return computeReduced(b);
    if (!speculatableBody || output->isDense())
      return emitIfMember(b, space, values, absent, out, computeReduced);
    // Branch-free: a point outside the space reduces over nothing (its
    // loops' ranges collapse) and stores the fill, which appends nothing.
    // A mask and the emptiness of a row are then one loop-entry test
    // instead of two unpredictable branches per row (BFS pull's rows are
    // a few entries long; the branches cost more than the work).
    Value inside = emitIsMember(b, space, values, absent);
    IRMapping given;
    Context guarded = ctx;
    guarded.rangeGuard = inside;
    given.map(reduction.getResult(), emitReduction(b, guarded, startValue(b)));
    Value v = emitBody(b, absent, values, Value(), &given, ctx.coords,
                       presence);
    Value fill = arith::ConstantOp::create(b, loc, resultFill);
    v = arith::SelectOp::create(b, loc, inside, v, fill);
    return output->store(b, ctx.coords, v, out);
  }
  auto compute = [&](OpBuilder &cb) {
    Value v = emitBody(cb, absent, values, Value(), nullptr, ctx.coords,
                       presence);
    return output->store(cb, ctx.coords, v, out);
  };
  // A located input that missed (seed 002's hashed level; its value the
  // fill by a select): the point is one without it, decided by the
  // algebra, not by the body evaluated at the fill — LLVM folds f(fill)
  // where every operand is a constant, possibly to another NaN than the
  // derivation's result fill, which a sparse result would then store.
  bool locatedMiss = (ctx.locatedMisses & ctx.inBounds) != 0;
  if (!omitter && !locatedMiss)
    return compute(b);
  // An omitter at the innermost loop: skip only if the stored entries are
  // not explicit fill values (thesis 003 §6.2.1): an entry equal to its
  // array's fill is treated as absent.
  return emitIfMember(b, algebraWithout(absent), values, absent, out, compute);
}

SmallVector<Value> KernelLowering::emitIfMember(
    OpBuilder &b, const IterationAlgebra &space, ArrayRef<Value> values,
    uint64_t absent, ValueRange otherwise,
    function_ref<SmallVector<Value>(OpBuilder &)> then) {
  Value inside = emitIsMember(b, space, values, absent);
  auto branch = scf::IfOp::create(
      b, loc, inside,
      [&](OpBuilder &tb, Location l) { scf::YieldOp::create(tb, l, then(tb)); },
      [&](OpBuilder &eb, Location l) {
        scf::YieldOp::create(eb, l, otherwise);
      });
  return SmallVector<Value>(branch.getResults());
}

Value KernelLowering::emitIsMember(OpBuilder &b, const IterationAlgebra &space,
                                   ArrayRef<Value> values, uint64_t absent) {
  SmallVector<Value> defined(inputs.size());
  for (unsigned k : space.getLeaves())
    if (values[k] && !(absent >> k & 1))
      defined[k] = differsFrom(b, loc, values[k], inputs[k].fill);
  return emitMembership(b, loc, space, defined);
}

unsigned KernelLowering::loopOfVar(unsigned var) const {
  if (var >= rank)
    return var; // reduction variables: their own loops
  return llvm::find(loopDim, var) - loopDim.begin();
}

SmallVector<Value> KernelLowering::runTimePresence(const Context &ctx) const {
  if (speculatableBody)
    return {};
  SmallVector<Value> presence(inputs.size());
  bool any = false;
  for (unsigned k = 0; k < inputs.size(); ++k)
    if (inputs[k].used && (ctx.alive >> k & 1) &&
        ctx.processed[k] == inputs[k].levels.size() && ctx.found[k]) {
      presence[k] = ctx.found[k];
      any = true;
    }
  return any ? presence : SmallVector<Value>();
}

Value KernelLowering::emitApplyCases(OpBuilder &b, FuncOp func, ValueRange args,
                                     ArrayRef<int32_t> definedPositions,
                                     ArrayRef<Value> isFill, Value outside,
                                     TypedAttr fill) {
  Type type = func.getFunctionType().getResult(0);
  // Operand i undecided from `from` on: a branch on whether it is its fill.
  std::function<Value(OpBuilder &, unsigned, SmallVector<int32_t>)> cases =
      [&](OpBuilder &cb, unsigned from,
          SmallVector<int32_t> defined) -> Value {
    unsigned i = from;
    while (i < isFill.size() && !isFill[i])
      ++i;
    if (i == isFill.size()) {
      llvm::sort(defined);
      FailureOr<Value> r =
          inlineCall(cb, func, args, func.getCaseFor(defined), 0);
      if (succeeded(r))
        return *r;
      hadError = true;
      return arith::ConstantOp::create(cb, loc, resultFill);
    }
    auto branch = scf::IfOp::create(
        cb, loc, isFill[i],
        [&](OpBuilder &tb, Location l) {
          scf::YieldOp::create(tb, l, cases(tb, i + 1, defined));
        },
        [&](OpBuilder &eb, Location l) {
          SmallVector<int32_t> more(defined);
          more.push_back(i);
          scf::YieldOp::create(eb, l, cases(eb, i + 1, more));
        });
    return branch.getResult(0);
  };
  SmallVector<int32_t> defined(definedPositions);
  if (!outside)
    return cases(b, 0, defined);
  auto branch = scf::IfOp::create(
      b, loc, TypeRange{type}, outside, /*withElse=*/true);
  {
    OpBuilder tb = OpBuilder::atBlockBegin(branch.thenBlock());
    scf::YieldOp::create(tb, loc,
                         arith::ConstantOp::create(tb, loc, fill).getResult());
  }
  {
    OpBuilder eb = OpBuilder::atBlockBegin(branch.elseBlock());
    scf::YieldOp::create(eb, loc, cases(eb, 0, defined));
  }
  return branch.getResult(0);
}

Value KernelLowering::emitBody(OpBuilder &b, uint64_t absent,
                               ArrayRef<Value> inputValues, Value root,
                               const IRMapping *given, ArrayRef<Value> coords,
                               ArrayRef<Value> presence) {
  IRMapping map;
  // Only what the result depends on, not through values given already (a
  // reduction's operands are not available outside it).
  Block &body = kernel.getBody().front();
  Value target = root ? root : cast<YieldOp>(body.getTerminator()).getValue();
  DenseSet<Operation *> needed;
  SmallVector<Value> work = {target};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != &body || needed.contains(def))
      continue;
    needed.insert(def);
    if (given && given->contains(v))
      continue;
    for (Value operand : def->getOperands())
      work.push_back(operand);
  }
  DenseMap<Value, TypedAttr> known; // values fixed by absent operands
  // v's fill and its derived space without the absent inputs (no fill: no
  // space to be outside of).
  auto spaceHere = [&](Value v) -> std::pair<TypedAttr, IterationAlgebra> {
    const DerivedSpace &space = derivation.derive(kernel, v);
    if (!space.fill)
      return {TypedAttr(), IterationAlgebra::universe()};
    IterationAlgebra a = space.algebra;
    for (unsigned k = 0; k < inputs.size(); ++k)
      if (absent >> k & 1)
        a = removeOperand(a, k);
    return {space.fill, a.normalize()};
  };
  auto staticValue = [&](Value v) -> TypedAttr {
    auto [fill, a] = spaceHere(v);
    return fill && a.isEmpty() ? fill : TypedAttr();
  };
  // Run-time presence (a linear or merged loop's misses): whether a value
  // lies outside its derived space here, decided as the lattice's omitter
  // test is, from the inputs' values (an explicit fill is no entry).
  auto outsideAtRunTime = [&](Value v) -> std::pair<TypedAttr, Value> {
    if (presence.empty())
      return {};
    auto [fill, a] = spaceHere(v);
    if (!fill)
      return {};
    if (llvm::none_of(a.getLeaves(), [&](unsigned k) {
          return k < presence.size() && presence[k];
        }))
      return {}; // decided by the lattice
    // A leaf read only inside a reduction (or by a loop not entered here)
    // has no value at this point: membership is not decidable, so the
    // function is evaluated on its operands' values, as the dense program
    // does (its cases still apply by those values).
    if (llvm::any_of(a.getLeaves(),
                     [&](unsigned k) { return !inputValues[k]; }))
      return {};
    SmallVector<Value> defined(inputs.size());
    for (unsigned k : a.getLeaves())
      defined[k] = differsFrom(b, loc, inputValues[k], inputs[k].fill);
    Value inside = emitMembership(b, loc, a, defined);
    return {fill,
            arith::XOrIOp::create(b, loc, inside,
                                  arith::ConstantIntOp::create(b, loc, 1, 1))};
  };
  for (Operation &op : kernel.getBody().front()) {
    if (auto yield = dyn_cast<YieldOp>(op))
      return map.lookup(root ? root : yield.getValue());
    // Coordinates of split and collapsed reads: the loops' business, not
    // the value's.
    if (!needed.contains(&op) || isa<LinearizeOp, DelinearizeOp>(op))
      continue;
    if (given && op.getNumResults() == 1 && given->contains(op.getResult(0))) {
      map.map(op.getResult(0), given->lookup(op.getResult(0)));
      continue;
    }
    if (auto access = dyn_cast<AccessOp>(op)) {
      unsigned k = cast<BlockArgument>(access.getArray()).getArgNumber() -
                   kernel.getNumIndices();
      map.map(access.getResult(), inputValues[k]);
      if (absent >> k & 1)
        known[access.getResult()] = inputs[k].fill;
      continue;
    }
    if (auto apply = dyn_cast<ApplyOp>(op)) {
      if (TypedAttr fixed = staticValue(apply.getResult())) {
        known[apply.getResult()] = fixed;
        map.map(apply.getResult(), arith::ConstantOp::create(b, loc, fixed));
        continue;
      }
      auto func = symbols.lookupNearestSymbolFrom<FuncOp>(
          kernel, apply.getCalleeAttr());
      SmallVector<Value> args;
      SmallVector<int32_t> definedPositions;
      for (auto [i, arg] : llvm::enumerate(apply.getArgs())) {
        args.push_back(map.lookup(arg));
        TypedAttr a = known.lookup(arg);
        if (!a || !isSameScalar(a, func.getCaseFill(i)))
          definedPositions.push_back(i);
      }
      // A function that may trap (or loop) where the dense program takes
      // one of its cases takes it at run time: by its operands' values
      // (an operand holding its case fill is not defined there, stored or
      // not), and the value's fill outside its space (a linear loop's
      // points). One that cannot trap is evaluated as it is.
      if (!isSpeculatable(func, kernel, symbols)) {
        auto [fill, outside] = outsideAtRunTime(apply.getResult());
        SmallVector<Value> undecided(args.size());
        SmallVector<int32_t> surelyDefined;
        bool dynamic = false;
        for (int32_t i : definedPositions) {
          if (func.getCases().empty()) {
            surelyDefined.push_back(i);
            continue;
          }
          undecided[i] = arith::XOrIOp::create(
              b, loc, differsFrom(b, loc, args[i], func.getCaseFill(i)),
              arith::ConstantIntOp::create(b, loc, 1, 1));
          dynamic = true;
        }
        if (dynamic || outside) {
          map.map(apply.getResult(),
                  emitApplyCases(b, func, args, surelyDefined, undecided,
                                 outside, fill));
          continue;
        }
      }
      Region *region = func.getCaseFor(definedPositions);
      FailureOr<Value> r = inlineCall(b, func, args, region, 0);
      if (failed(r)) {
        hadError = true;
        return arith::ConstantOp::create(b, loc, resultFill);
      }
      map.map(apply.getResult(), *r);
      continue;
    }
    if (auto select = dyn_cast<SelectRangeOp>(op)) {
      if (TypedAttr fixed = staticValue(select.getResult())) {
        known[select.getResult()] = fixed;
        map.map(select.getResult(), arith::ConstantOp::create(b, loc, fixed));
        continue;
      }
      // The part the coordinate lies in (parts outside their windows read
      // their fills, so every part's value is defined here).
      unsigned var = cast<BlockArgument>(select.getIndex()).getArgNumber();
      Value x = coords[loopOfVar(var)];
      ArrayRef<int64_t> bounds = select.getBounds();
      Value v = map.lookup(select.getParts().back());
      for (int p = int(bounds.size()) - 1; p >= 0; --p) {
        Value below = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                            x, constIndex(b, loc, bounds[p]));
        v = arith::SelectOp::create(b, loc, below,
                                    map.lookup(select.getParts()[p]), v);
      }
      map.map(select.getResult(), v);
      continue;
    }
    Operation *clone = b.clone(op, map);
    if (auto c = dyn_cast<arith::ConstantOp>(clone))
      if (auto typed = dyn_cast<TypedAttr>(c.getValue()))
        known[op.getResult(0)] = typed;
  }
  llvm_unreachable("kernel body without yield");
}

FailureOr<Value> KernelLowering::inlineCall(OpBuilder &b, FuncOp func,
                                            ValueRange args, Region *region,
                                            unsigned depth) {
  if (depth > 32) {
    kernel.emitError() << "cannot inline @" << func.getSymName()
                       << ": calls nest too deeply (recursion?)";
    return failure();
  }
  Region &body = region ? *region : func.getBody();
  if (!body.hasOneBlock()) {
    func.emitError() << "cannot inline a function body of several blocks";
    return failure();
  }
  IRMapping map;
  Block &block = body.front();
  for (auto [arg, v] : llvm::zip(block.getArguments(), args))
    map.map(arg, v);
  for (Operation &op : block) {
    if (auto yield = dyn_cast<YieldOp>(op))
      return map.lookup(yield.getValue());
    // A call at the top of the body is inlined in place (cloning it first
    // would leave the mapping pointing at the erased clone).
    if (auto call = dyn_cast<ApplyOp>(op)) {
      auto callee =
          symbols.lookupNearestSymbolFrom<FuncOp>(kernel, call.getCalleeAttr());
      SmallVector<Value> callArgs;
      for (Value a : call.getArgs())
        callArgs.push_back(map.lookupOrDefault(a));
      FailureOr<Value> r = inlineCall(b, callee, callArgs, nullptr, depth + 1);
      if (failed(r))
        return failure();
      map.map(call.getResult(), *r);
      continue;
    }
    Operation *clone = b.clone(op, map);
    // Calls inside (also nested in loops) are ordinary calls: inline them.
    SmallVector<ApplyOp> calls;
    clone->walk([&](ApplyOp call) { calls.push_back(call); });
    for (ApplyOp call : calls) {
      auto callee =
          symbols.lookupNearestSymbolFrom<FuncOp>(kernel, call.getCalleeAttr());
      OpBuilder cb(call);
      FailureOr<Value> r =
          inlineCall(cb, callee, call.getArgs(), nullptr, depth + 1);
      if (failed(r))
        return failure();
      call.getResult().replaceAllUsesWith(*r);
      call.erase();
    }
  }
  func.emitError() << "function body without yield";
  return failure();
}
