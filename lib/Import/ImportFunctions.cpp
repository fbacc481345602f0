//===- ImportFunctions.cpp - Scalar operations as sparse_array.func --------===//
//
// Each arith/math operation of an imported region becomes a function that
// applies it, so that the kernel's expression keeps its structure and the
// derivation (seed 000 §5.2) reasons about each operation. The properties
// declared are the ones that hold for every value (the standard library's
// choices): IEEE arith.addf has identity -0.0 (x + +0.0 turns -0.0 into
// +0.0) and arith.mulf no annihilator (0 * inf is NaN), so nothing assumes,
// as upstream's sparsifier does, that an absent entry may be skipped
// whenever it is zero.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::import;

namespace {

TypedAttr intAttr(Type type, const APInt &value) {
  return IntegerAttr::get(type, value);
}

TypedAttr floatAttr(Type type, double value) {
  auto ft = cast<FloatType>(type);
  APFloat v(value);
  bool lost = false;
  v.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
  return FloatAttr::get(type, v);
}

TypedAttr negZero(Type type) {
  auto ft = cast<FloatType>(type);
  return FloatAttr::get(type, APFloat::getZero(ft.getFloatSemantics(), true));
}

TypedAttr infinity(Type type, bool negative) {
  auto ft = cast<FloatType>(type);
  return FloatAttr::get(type,
                        APFloat::getInf(ft.getFloatSemantics(), negative));
}

/// A commutative, associative, idempotent order or lattice operation.
ScalarOpProperties semilattice(TypedAttr identity, TypedAttr annihilator) {
  ScalarOpProperties p;
  p.commutative = p.associative = p.idempotent = true;
  p.identity = identity;
  p.annihilator = annihilator;
  return p;
}

} // namespace

ScalarOpProperties import::getOpProperties(Operation *op) {
  ScalarOpProperties p;
  if (op->getNumOperands() != 2 || op->getNumResults() != 1)
    return p;
  Type type = op->getResult(0).getType();
  if (op->getOperand(0).getType() != type ||
      op->getOperand(1).getType() != type)
    return p;
  // Fast-math flags license results the properties would not predict.
  if (auto fm = dyn_cast<arith::ArithFastMathInterface>(op))
    if (fm.getFastMathFlagsAttr() &&
        fm.getFastMathFlagsAttr().getValue() != arith::FastMathFlags::none)
      return p;

  if (isa<FloatType>(type)) {
    if (isa<arith::AddFOp>(op)) {
      p.commutative = true;
      p.identity = negZero(type);
    } else if (isa<arith::SubFOp>(op)) {
      p.identity = floatAttr(type, 0.0);
      p.identityPositions = {1};
    } else if (isa<arith::MulFOp>(op)) {
      p.commutative = true;
      p.identity = floatAttr(type, 1.0);
    } else if (isa<arith::DivFOp>(op)) {
      p.identity = floatAttr(type, 1.0);
      p.identityPositions = {1};
    } else if (isa<arith::MinimumFOp>(op)) {
      p = semilattice(infinity(type, false), nullptr);
    } else if (isa<arith::MaximumFOp>(op)) {
      p = semilattice(infinity(type, true), nullptr);
    }
    return p;
  }
  auto it = dyn_cast<IntegerType>(type);
  if (!it)
    return p;
  unsigned w = it.getWidth();
  APInt zero = APInt::getZero(w), one(w, 1), ones = APInt::getAllOnes(w);
  APInt smin = APInt::getSignedMinValue(w), smax = APInt::getSignedMaxValue(w);
  if (isa<arith::AddIOp>(op)) {
    p.commutative = p.associative = true;
    p.identity = intAttr(type, zero);
  } else if (isa<arith::SubIOp>(op)) {
    p.identity = intAttr(type, zero);
    p.identityPositions = {1};
  } else if (isa<arith::MulIOp>(op)) {
    p.commutative = p.associative = true;
    p.identity = intAttr(type, one);
    p.annihilator = intAttr(type, zero);
  } else if (isa<arith::DivSIOp, arith::DivUIOp>(op)) {
    // Division by zero has no value in the dense program either.
    p.identity = intAttr(type, one);
    p.identityPositions = {1};
    p.annihilator = intAttr(type, zero);
    p.annihilatorPositions = {0};
  } else if (isa<arith::AndIOp>(op)) {
    p = semilattice(intAttr(type, ones), intAttr(type, zero));
  } else if (isa<arith::OrIOp>(op)) {
    p = semilattice(intAttr(type, zero), intAttr(type, ones));
  } else if (isa<arith::XOrIOp>(op)) {
    p.commutative = p.associative = true;
    p.identity = intAttr(type, zero);
  } else if (isa<arith::MinSIOp>(op)) {
    p = semilattice(intAttr(type, smax), intAttr(type, smin));
  } else if (isa<arith::MaxSIOp>(op)) {
    p = semilattice(intAttr(type, smin), intAttr(type, smax));
  } else if (isa<arith::MinUIOp>(op)) {
    p = semilattice(intAttr(type, ones), intAttr(type, zero));
  } else if (isa<arith::MaxUIOp>(op)) {
    p = semilattice(intAttr(type, zero), intAttr(type, ones));
  }
  return p;
}

bool import::canCombineInitLast(Operation *op, TypedAttr init) {
  ScalarOpProperties p = getOpProperties(op);
  if (p.associative && p.commutative)
    return true;
  auto f = dyn_cast_or_null<FloatAttr>(init);
  if (!f || p.identity == nullptr)
    return false;
  if (isa<arith::AddFOp>(op))
    return f.getValue().isZero();
  if (isa<arith::MulFOp>(op))
    return f.getValue().isExactlyValue(1.0);
  return false;
}

/// What makes two operations the same function: name, operand and result
/// types, attributes (after `prefix`, which tells variants apart).
static std::string functionKey(StringRef prefix, Operation *op) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << prefix << op->getName() << "(";
  llvm::interleaveComma(op->getOperandTypes(), os);
  os << ")->" << op->getResult(0).getType() << op->getAttrDictionary();
  return key;
}

/// `prefix` followed by the operation's name with '.' as '_'.
static std::string functionName(StringRef prefix, Operation *op) {
  std::string name = (prefix + op->getName().getStringRef()).str();
  std::replace(name.begin(), name.end(), '.', '_');
  return name;
}

FuncOp import::FunctionTable::getFor(Operation *op) {
  std::string key = functionKey("", op);
  auto it = cache.find(key);
  if (it != cache.end())
    return it->second;

  MLIRContext *ctx = op->getContext();
  std::string name = functionName("__sa_import_", op);
  std::string typeName;
  llvm::raw_string_ostream ts(typeName);
  ts << op->getResult(0).getType();
  name += "_" + typeName;

  ScalarOpProperties p = getOpProperties(op);
  auto unit = [&](bool b) { return b ? UnitAttr::get(ctx) : UnitAttr(); };
  IdentityAttr identity =
      p.identity ? IdentityAttr::get(ctx, p.identity, p.identityPositions)
                 : IdentityAttr();
  AnnihilatorAttr annihilator =
      p.annihilator
          ? AnnihilatorAttr::get(ctx, p.annihilator, p.annihilatorPositions)
          : AnnihilatorAttr();
  auto type = FunctionType::get(ctx, op->getOperandTypes(),
                                op->getResultTypes());
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  auto func = FuncOp::create(
      b, op->getLoc(), b.getStringAttr(name), TypeAttr::get(type),
      /*sym_visibility=*/b.getStringAttr("private"), nullptr, nullptr,
      unit(p.commutative), unit(p.associative), unit(p.idempotent),
      annihilator, identity, nullptr, nullptr, nullptr, /*casesCount=*/0);
  Block *body = b.createBlock(&func.getBody());
  // One argument per operand position (not per value: x - x has two).
  SmallVector<Value> args;
  for (Value operand : op->getOperands())
    args.push_back(body->addArgument(operand.getType(), op->getLoc()));
  Operation *clone = b.clone(*op);
  clone->setOperands(args);
  YieldOp::create(b, op->getLoc(), clone->getResult(0));
  func->remove();
  symbols.insert(func);
  cache[key] = func;
  return func;
}

FuncOp import::FunctionTable::getSwapped(Operation *op) {
  std::string key = functionKey("swapped:", op);
  auto it = cache.find(key);
  if (it != cache.end())
    return it->second;
  MLIRContext *ctx = op->getContext();
  std::string name = functionName("__sa_import_swapped_", op);
  // g(a, b) = op(b, a): no properties (op's are about its own order).
  SmallVector<Type> types = {op->getOperand(1).getType(),
                             op->getOperand(0).getType()};
  auto type = FunctionType::get(ctx, types, op->getResultTypes());
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  auto func = FuncOp::create(
      b, op->getLoc(), b.getStringAttr(name), TypeAttr::get(type),
      b.getStringAttr("private"), nullptr, nullptr, nullptr, nullptr, nullptr,
      nullptr, nullptr, nullptr, nullptr, nullptr, /*casesCount=*/0);
  Block *body = b.createBlock(&func.getBody());
  Value first = body->addArgument(types[0], op->getLoc());
  Value second = body->addArgument(types[1], op->getLoc());
  Operation *clone = b.clone(*op);
  clone->setOperands({second, first});
  YieldOp::create(b, op->getLoc(), clone->getResult(0));
  func->remove();
  symbols.insert(func);
  cache[key] = func;
  return func;
}

FuncOp import::FunctionTable::getKeepFirst(Type x, Type y) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << "keep_first(" << x << "," << y << ")";
  auto it = cache.find(key);
  if (it != cache.end())
    return it->second;
  MLIRContext *ctx = x.getContext();
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  Location loc = module.getLoc();
  auto func = FuncOp::create(
      b, loc, b.getStringAttr("__sa_import_keep_first"),
      TypeAttr::get(FunctionType::get(ctx, {x, y}, {x})),
      b.getStringAttr("private"), nullptr, nullptr, nullptr, nullptr, nullptr,
      nullptr, nullptr, nullptr, nullptr, nullptr, /*casesCount=*/0);
  Block *body = b.createBlock(&func.getBody());
  Value first = body->addArgument(x, loc);
  body->addArgument(y, loc);
  YieldOp::create(b, loc, first);
  func->remove();
  symbols.insert(func);
  cache[key] = func;
  return func;
}

FuncOp import::FunctionTable::getPick(Type t) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << "pick(" << t << ")";
  auto it = cache.find(key);
  if (it != cache.end())
    return it->second;
  MLIRContext *ctx = t.getContext();
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  Location loc = module.getLoc();
  Type i1 = b.getI1Type();
  auto func = FuncOp::create(
      b, loc, b.getStringAttr("__sa_import_insert_pick"),
      TypeAttr::get(FunctionType::get(ctx, {i1, t, t}, {t})),
      b.getStringAttr("private"), nullptr, nullptr, nullptr, nullptr, nullptr,
      nullptr, nullptr, nullptr, nullptr, nullptr, /*casesCount=*/0);
  Block *body = b.createBlock(&func.getBody());
  Value m = body->addArgument(i1, loc);
  Value s = body->addArgument(t, loc);
  Value x = body->addArgument(t, loc);
  YieldOp::create(b, loc, arith::SelectOp::create(b, loc, m, s, x).getResult());
  func->remove();
  symbols.insert(func);
  cache[key] = func;
  return func;
}

FuncOp import::FunctionTable::getForCast(Location loc, Type from, Type to) {
  // Upstream's element conversions: floats extended or truncated, integers
  // sign-extended (i1 zero-extended) or truncated, and across kinds signed
  // (i1 unsigned) — one operation, whose function getFor makes.
  Block scratch;
  Value x = scratch.addArgument(from, loc);
  OpBuilder b(from.getContext());
  b.setInsertionPointToEnd(&scratch);
  Operation *cast = nullptr;
  bool fromFloat = isa<FloatType>(from), toFloat = isa<FloatType>(to);
  unsigned fw = from.getIntOrFloatBitWidth(), tw = to.getIntOrFloatBitWidth();
  if (fromFloat && toFloat)
    cast = fw < tw ? arith::ExtFOp::create(b, loc, to, x).getOperation()
                   : arith::TruncFOp::create(b, loc, to, x).getOperation();
  else if (!fromFloat && !toFloat)
    cast = fw < tw ? (fw == 1 ? arith::ExtUIOp::create(b, loc, to, x).getOperation()
                              : arith::ExtSIOp::create(b, loc, to, x).getOperation())
                   : arith::TruncIOp::create(b, loc, to, x).getOperation();
  else if (toFloat)
    cast = fw == 1 ? arith::UIToFPOp::create(b, loc, to, x).getOperation()
                   : arith::SIToFPOp::create(b, loc, to, x).getOperation();
  else
    cast = tw == 1 ? arith::FPToUIOp::create(b, loc, to, x).getOperation()
                   : arith::FPToSIOp::create(b, loc, to, x).getOperation();
  FuncOp f = getFor(cast);
  cast->erase();
  return f;
}
