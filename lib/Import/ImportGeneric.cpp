//===- ImportGeneric.cpp - linalg.generic as sparse_array.kernel ----------===//
//
// A linalg.generic is index notation already (seed 000 §4.2): its loops are
// the index variables, its indexing maps the accesses, its region the
// expression. The output map orders the result's variables; the loops it
// does not name are reductions, whose region must be the linalg fold
// out = op(out, e) — then e is reduced with op's function (reduce_over),
// and the output's initial value is combined in where it is not op's
// identity: last where that is exact (canCombineInitLast), else as the
// fold's start value (reduce_over ... from), in the loop order.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::import;

namespace {

/// Translates one generic's region into the body of its kernel.
class RegionTranslator {
public:
  RegionTranslator(linalg::GenericOp op, KernelOp kernel,
                   ArrayRef<int> varOfLoop, ArrayRef<int> kernelInputOf,
                   ArrayRef<int> iotaInputOf, import::FunctionTable &functions)
      : op(op), kernel(kernel), varOfLoop(varOfLoop),
        kernelInputOf(kernelInputOf), iotaInputOf(iotaInputOf),
        functions(functions),
        b(kernel.getContext()) {
    b.setInsertionPointToEnd(&kernel.getBody().front());
  }

  /// The kernel value of region (or captured) value `v`.
  FailureOr<Value> translate(Value v);
  /// Reads kernel input `k` at the variables of `map`.
  FailureOr<Value> access(unsigned k, AffineMap map);
  void bind(Value regionValue, Value kernelValue) {
    mapped[regionValue] = kernelValue;
  }
  OpBuilder &builder() { return b; }

private:
  InFlightDiagnostic fail(Operation *at) {
    return op.emitOpError("cannot be imported: ")
           << "'" << at->getName() << "' ";
  }
  FailureOr<Value> translateOp(Operation *def);

  linalg::GenericOp op;
  KernelOp kernel;
  ArrayRef<int> varOfLoop;
  ArrayRef<int> kernelInputOf;
  /// The kernel input holding 0..n-1 for each loop a linalg.index reads.
  ArrayRef<int> iotaInputOf;
  import::FunctionTable &functions;
  OpBuilder b;
  DenseMap<Value, Value> mapped;
};

FailureOr<Value> RegionTranslator::access(unsigned k, AffineMap map) {
  SmallVector<Value> indices;
  for (AffineExpr e : map.getResults()) {
    if (auto d = dyn_cast<AffineDimExpr>(e)) {
      indices.push_back(kernel.getIndex(varOfLoop[d.getPosition()]));
    } else if (auto c = dyn_cast<AffineConstantExpr>(e)) {
      // A broadcast dimension (size 1) read at its only coordinate.
      indices.push_back(
          arith::ConstantIndexOp::create(b, op.getLoc(), c.getValue()));
    } else {
      std::string text;
      llvm::raw_string_ostream(text) << map;
      op.emitOpError("cannot be imported: indexing map ")
          << text << " is not a projected permutation with constants";
      return failure();
    }
  }
  Value array = kernel.getInputArg(k);
  return AccessOp::create(b, op.getLoc(), array, indices,
                          b.getDenseI64ArrayAttr({}))
      .getResult();
}

FailureOr<Value> RegionTranslator::translate(Value v) {
  if (Value known = mapped.lookup(v))
    return known;
  Block &region = op.getRegion().front();
  FailureOr<Value> result = failure();
  if (auto arg = dyn_cast<BlockArgument>(v); arg && arg.getOwner() == &region) {
    unsigned n = arg.getArgNumber();
    if (n >= op.getNumDpsInputs()) {
      op.emitOpError("cannot be imported: the region reads the output other "
                     "than as the accumulator of its reduction");
      return failure();
    }
    if (kernelInputOf[n] >= 0)
      result = access(kernelInputOf[n], op.getMatchingIndexingMap(
                                            op.getDpsInputOperand(n)));
    else // A scalar input: the value passed.
      result = translate(op.getDpsInputOperand(n)->get());
  } else if (Operation *def = v.getDefiningOp()) {
    if (!op->isProperAncestor(def) && !isa<arith::ConstantOp>(def)) {
      fail(def) << "defines a value the region uses: only constants may be "
                   "captured";
      return failure();
    }
    result = translateOp(def);
  } else {
    op.emitOpError("cannot be imported: the region uses a block argument "
                   "of an enclosing region");
    return failure();
  }
  if (succeeded(result))
    mapped[v] = *result;
  return result;
}

FailureOr<Value> RegionTranslator::translateOp(Operation *def) {
  if (auto c = dyn_cast<arith::ConstantOp>(def)) {
    if (!isa<IntegerType, FloatType, IndexType>(c.getType())) {
      fail(def) << "of type " << c.getType() << " is not a scalar";
      return failure();
    }
    return b.clone(*def)->getResult(0);
  }
  if (auto index = dyn_cast<linalg::IndexOp>(def)) {
    // The coordinate as an i64 (arrays hold no index values).
    MLIRContext *ctx = op.getContext();
    uint64_t d = index.getDim();
    return access(iotaInputOf[d],
                  AffineMap::get(op.getNumLoops(), 0,
                                 getAffineDimExpr(d, ctx), ctx));
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def) &&
      def->getOperand(0).getType().isIndex()) {
    // A coordinate (an i64 here) cast from index: the same value, in the
    // cast's width. Coordinates are non-negative: signed and unsigned
    // casts agree.
    FailureOr<Value> x = translate(def->getOperand(0));
    if (failed(x))
      return failure();
    Type to = def->getResult(0).getType();
    if (!isa<IntegerType>(to) || x->getType() == to)
      return to == x->getType() ? x
                                : (fail(def) << "to " << to
                                             << " is not supported",
                                   FailureOr<Value>(failure()));
    FuncOp cast = functions.getForCast(def->getLoc(), x->getType(), to);
    return ApplyOp::create(b, def->getLoc(), to,
                           FlatSymbolRefAttr::get(cast.getSymNameAttr()),
                           ValueRange{*x})
        .getResult();
  }
  // Operands first: what they use is reported before what uses them.
  SmallVector<Value> args;
  for (Value operand : def->getOperands()) {
    FailureOr<Value> arg = translate(operand);
    if (failed(arg))
      return failure();
    args.push_back(*arg);
  }
  if (isa<sparse_tensor::BinaryOp, sparse_tensor::UnaryOp,
          sparse_tensor::SelectOp>(def)) {
    FailureOr<FuncOp> func = functions.getForSemiringOp(def);
    if (failed(func))
      return failure();
    return ApplyOp::create(b, def->getLoc(), def->getResult(0).getType(),
                           FlatSymbolRefAttr::get(func->getSymNameAttr()),
                           args)
        .getResult();
  }
  Dialect *dialect = def->getDialect();
  bool scalarOp = dialect && isa<arith::ArithDialect, math::MathDialect>(
                                 dialect) &&
                  def->getNumRegions() == 0 && def->getNumResults() == 1;
  for (Type t : def->getOperandTypes())
    scalarOp &= ArrayType::isValidElementType(t);
  if (!scalarOp || !ArrayType::isValidElementType(def->getResult(0).getType())) {
    fail(def) << "is not a scalar arith or math operation the importer "
                 "supports";
    return failure();
  }
  FuncOp func = functions.getFor(def);
  return ApplyOp::create(b, def->getLoc(), def->getResult(0).getType(),
                         FlatSymbolRefAttr::get(func.getSymNameAttr()), args)
      .getResult();
}

/// The reduction `out = combine(out, e)` (or combine(e, out)) of a region.
struct Fold {
  Operation *combine = nullptr;
  Value element;
  unsigned outPosition = 0;
};

FailureOr<Fold> matchFold(linalg::GenericOp op) {
  Block &region = op.getRegion().front();
  BlockArgument out = region.getArgument(op.getNumDpsInputs());
  Value yielded = region.getTerminator()->getOperand(0);
  Operation *combine = yielded.getDefiningOp();
  auto bad = [&](const Twine &why) {
    op.emitOpError("cannot be imported: ") << why;
    return failure();
  };
  if (auto custom = dyn_cast_or_null<sparse_tensor::ReduceOp>(combine)) {
    // out = reduce(x, out) over stored x from the identity.
    Fold fold{combine, Value(), 0};
    if (custom.getX() == out && custom.getY() != out) {
      fold.element = custom.getY();
    } else if (custom.getY() == out && custom.getX() != out) {
      fold.element = custom.getX();
      fold.outPosition = 1;
    } else {
      return bad("a sparse_tensor.reduce must combine the output once");
    }
    if (!out.hasOneUse())
      return bad("the output is read other than as the reduction's "
                 "accumulator");
    return fold;
  }
  if (!combine || combine->getParentOp() != op ||
      combine->getNumOperands() != 2)
    return bad("a region with reduction loops must yield op(out, value) of "
               "a binary operation");
  Fold fold{combine, Value(), 0};
  if (combine->getOperand(0) == out && combine->getOperand(1) != out) {
    fold.element = combine->getOperand(1);
  } else if (combine->getOperand(1) == out && combine->getOperand(0) != out) {
    fold.element = combine->getOperand(0);
    fold.outPosition = 1;
  } else {
    return bad("a region with reduction loops must yield op(out, value) "
               "with the output read once");
  }
  if (!out.hasOneUse())
    return bad("the output is read other than as the reduction's "
               "accumulator");
  return fold;
}

} // namespace

FailureOr<Value> import::importGeneric(OpBuilder &b, linalg::GenericOp op,
                                       ArrayRef<Value> inputs,
                                       const OutputInit &init,
                                       ArrayType resultType,
                                       FunctionTable &functions) {
  Location loc = op.getLoc();
  if (op.getNumDpsInits() != 1 || op->getNumResults() != 1)
    return op.emitOpError("cannot be imported: ")
           << op.getNumDpsInits() << " outputs (one is supported)";
  unsigned numLoops = op.getNumLoops();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!outMap.isProjectedPermutation(/*allowZeroInResults=*/false)) {
    std::string text;
    llvm::raw_string_ostream(text) << outMap;
    return op.emitOpError("cannot be imported: output map ")
           << text << " is not a projected permutation";
  }

  // Index variables: the output's dimensions in order, then the others.
  SmallVector<int> varOfLoop(numLoops, -1);
  unsigned rank = outMap.getNumResults();
  for (unsigned r = 0; r < rank; ++r) {
    unsigned loop = outMap.getDimPosition(r);
    if (iterators[loop] != utils::IteratorType::parallel)
      return op.emitOpError("cannot be imported: reduction loop d")
             << loop << " indexes the output";
    varOfLoop[loop] = r;
  }
  SmallVector<unsigned> reducedVars;
  for (unsigned loop = 0; loop < numLoops; ++loop) {
    if (varOfLoop[loop] >= 0)
      continue;
    if (iterators[loop] == utils::IteratorType::parallel)
      return op.emitOpError("cannot be imported: parallel loop d")
             << loop << " does not index the output";
    varOfLoop[loop] = rank + reducedVars.size();
    reducedVars.push_back(varOfLoop[loop]);
  }

  Block &region = op.getRegion().front();
  BlockArgument outArg = region.getArgument(op.getNumDpsInputs());
  std::optional<Fold> fold;
  if (!reducedVars.empty()) {
    FailureOr<Fold> matched = matchFold(op);
    if (failed(matched))
      return failure();
    fold = *matched;
  }

  // The fold's functions: the operation's, or a sparse_tensor.reduce's
  // element (stored entries, else its identity) and combiner.
  FuncOp combiner, elementFn;
  TypedAttr identity;
  bool rightFold = false; // a swapped combiner: always from the output
  if (fold) {
    if (isa<sparse_tensor::ReduceOp>(fold->combine)) {
      auto fns = functions.getForCustomReduction(fold->combine,
                                                 fold->outPosition);
      if (failed(fns))
        return failure();
      std::tie(elementFn, combiner) = *fns;
      identity = combiner.getIdentityAttr().getValue();
    } else if (fold->outPosition == 1 &&
               !getOpProperties(fold->combine).commutative) {
      // out = op(x, out): acc = g(acc, x) with g(a, b) = op(b, a), folded
      // from the output's values (no identity to start from).
      if (init.kind == OutputInit::Kind::Undefined)
        return op.emitOpError("cannot be imported: the reduction '")
               << fold->combine->getName()
               << "(value, out)' folds into an output that was never "
                  "initialized and has no identity to start from";
      combiner = functions.getSwapped(fold->combine);
      rightFold = true;
    } else {
      combiner = functions.getFor(fold->combine);
      identity = getOpProperties(fold->combine).identity;
    }
  }
  bool custom = elementFn != nullptr;

  // Which initial value the kernel needs, and whether the fold starts
  // from it (reduce_over ... from: the loop order is the fold's order) or
  // combines it last (exact when the combiner is associative and
  // commutative, or the start is such that it commutes: +0.0 for addf).
  bool needInit = false, foldFromInit = false;
  if (fold) {
    switch (init.kind) {
    case OutputInit::Kind::Undefined:
      break;
    case OutputInit::Kind::Constant:
      if (init.constant == identity && !rightFold)
        break;
      needInit = true;
      foldFromInit = custom || rightFold ||
                     !canCombineInitLast(fold->combine, init.constant);
      break;
    case OutputInit::Kind::Array:
      needInit = true;
      foldFromInit = custom || rightFold ||
                     !canCombineInitLast(fold->combine, nullptr);
      break;
    }
  } else if (!outArg.use_empty()) {
    if (init.kind == OutputInit::Kind::Undefined)
      return op.emitOpError("cannot be imported: the region reads an "
                            "output that was never initialized");
    needInit = true;
  }

  // Kernel inputs: the tensor inputs the region reads, then the output's
  // initial array when it is read.
  SmallVector<Value> kernelInputs;
  SmallVector<int> kernelInputOf(op.getNumDpsInputs(), -1);
  for (unsigned n = 0; n < op.getNumDpsInputs(); ++n) {
    if (!inputs[n])
      continue;
    kernelInputOf[n] = kernelInputs.size();
    kernelInputs.push_back(inputs[n]);
  }
  int initInput = -1;
  if (needInit && init.kind == OutputInit::Kind::Array) {
    initInput = kernelInputs.size();
    kernelInputs.push_back(init.array);
  }
  // linalg.index d (a coordinate as a value) reads a dense input holding
  // 0, 1, ..., n - 1 at loop d: an ordinary operand of the region, whose
  // fill (0) the derivation weighs like any other's.
  SmallVector<int> iotaInputOf(numLoops, -1);
  // Each loop's extent from an operand's array type (the function's
  // arguments are retyped to arrays already).
  SmallVector<int64_t> ranges(numLoops, ShapedType::kDynamic);
  auto noteExtents = [&](ArrayType type, AffineMap map) {
    for (auto [r, e] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(e))
        if (!type.isDynamicDim(r))
          ranges[dim.getPosition()] = type.getShape()[r];
  };
  for (unsigned n = 0; n < op.getNumDpsInputs(); ++n)
    if (inputs[n])
      noteExtents(cast<ArrayType>(inputs[n].getType()),
                  op.getMatchingIndexingMap(op.getDpsInputOperand(n)));
  noteExtents(resultType, outMap);
  constexpr int64_t kMaxIota = int64_t(1) << 22;
  for (Operation &inner : op.getRegion().front()) {
    auto index = dyn_cast<linalg::IndexOp>(inner);
    if (!index || iotaInputOf[index.getDim()] >= 0)
      continue;
    uint64_t d = index.getDim();
    if (ShapedType::isDynamic(ranges[d]) || ranges[d] > kMaxIota)
      return op.emitOpError("cannot be imported: linalg.index of loop d")
             << d << ", whose extent is "
             << (ShapedType::isDynamic(ranges[d]) ? "known only at run time"
                                                  : "above 2^22");
    SmallVector<int64_t> iota(ranges[d]);
    for (int64_t k = 0; k < ranges[d]; ++k)
      iota[k] = k;
    auto tensorType = RankedTensorType::get({ranges[d]}, b.getI64Type());
    auto arrayType = ArrayType::get({ranges[d]}, b.getI64Type());
    iotaInputOf[d] = kernelInputs.size();
    kernelInputs.push_back(ConstantOp::create(
        b, loc, arrayType, DenseIntElementsAttr::get(tensorType, iota)));
  }

  auto kernel =
      KernelOp::create(b, loc, resultType, kernelInputs, numLoops);
  RegionTranslator tr(op, kernel, varOfLoop, kernelInputOf, iotaInputOf,
                      functions);
  OpBuilder &kb = tr.builder();
  Value initValue;
  if (needInit) {
    if (initInput >= 0) {
      FailureOr<Value> a = tr.access(initInput, outMap);
      if (failed(a))
        return failure();
      initValue = *a;
    } else {
      initValue = arith::ConstantOp::create(kb, loc, init.constant);
    }
  }

  // A loop no read value depends on (sum_j c, a constant output) still
  // needs its extent: `value` becomes keep_first(value, read of an input
  // that has the loop) — the same value, now over the loop's range.
  auto coverLoops = [&](Value value, bool reduced) -> FailureOr<Value> {
    for (unsigned loop = 0; loop < numLoops; ++loop) {
      if ((iterators[loop] == utils::IteratorType::reduction) != reduced)
        continue;
      Value var = kernel.getIndex(varOfLoop[loop]);
      if (llvm::any_of(var.getUsers(),
                       [](Operation *user) { return isa<AccessOp>(user); }))
        continue;
      int source = -1;
      for (unsigned n = 0; n < op.getNumDpsInputs() && source < 0; ++n)
        if (kernelInputOf[n] >= 0 &&
            op.getMatchingIndexingMap(op.getDpsInputOperand(n))
                .isFunctionOfDim(loop))
          source = n;
      if (source < 0)
        return op.emitOpError("cannot be imported: no input read by the "
                              "region has loop d")
               << loop << ", whose extent is then unknown";
      FailureOr<Value> read = tr.access(
          kernelInputOf[source],
          op.getMatchingIndexingMap(op.getDpsInputOperand(source)));
      if (failed(read))
        return failure();
      FuncOp keep = functions.getKeepFirst(value.getType(), read->getType());
      value = ApplyOp::create(kb, loc, value.getType(),
                              FlatSymbolRefAttr::get(keep.getSymNameAttr()),
                              ValueRange{value, *read});
    }
    return value;
  };

  Value result;
  if (fold) {
    FailureOr<Value> element = tr.translate(fold->element);
    if (failed(element))
      return failure();
    element = coverLoops(*element, /*reduced=*/true);
    if (failed(element))
      return failure();
    if (elementFn)
      element = ApplyOp::create(kb, loc, element->getType(),
                                FlatSymbolRefAttr::get(
                                    elementFn.getSymNameAttr()),
                                ValueRange{*element})
                    .getResult();
    SmallVector<Value> vars;
    for (unsigned v : reducedVars)
      vars.push_back(kernel.getIndex(v));
    auto symbol = FlatSymbolRefAttr::get(combiner.getSymNameAttr());
    // The combiner is f(acc, element) (a custom reduction's is built so;
    // a right fold's is the operation swapped unless it is commutative):
    // the fold from the output's value starts there.
    result = ReduceOverOp::create(kb, loc, *element, vars,
                                  foldFromInit ? initValue : Value(), symbol,
                                  nullptr, nullptr, nullptr, nullptr);
    if (initValue && !foldFromInit) {
      SmallVector<Value> args = {initValue, result};
      if (fold->outPosition == 1)
        std::swap(args[0], args[1]);
      result = ApplyOp::create(kb, loc, result.getType(), symbol, args);
    }
  } else {
    if (initValue)
      tr.bind(outArg, initValue);
    FailureOr<Value> value =
        tr.translate(region.getTerminator()->getOperand(0));
    if (failed(value))
      return failure();
    result = *value;
  }
  FailureOr<Value> covered = coverLoops(result, /*reduced=*/false);
  if (failed(covered))
    return failure();
  result = *covered;
  if (result.getType() != resultType.getElementType())
    return op.emitOpError("cannot be imported: the region yields ")
           << result.getType() << " for a result of "
           << resultType.getElementType();
  YieldOp::create(kb, loc, result);
  return kernel.getResult();
}
