//===- ImportSemiringOps.cpp - sparse_tensor.binary/unary as functions -----===//
//
// Upstream's "semiring" ops give a value per presence pattern of their
// operands: sparse_tensor.binary has overlap / left / right regions (empty:
// no contribution, `identity`: the operand itself), sparse_tensor.unary has
// present / absent regions. Here presence is a value property (an operand
// is present where it is not its fill, 0, in every bit; stored zeros count
// as absent, as the generated code's explicit-fill checks do), so each op
// becomes one total function that branches on its operands' bits, with
// the explicit iteration algebra (seed 000 §5.1) of where it can differ
// from its value at the fills: binary = union of the non-empty cases'
// patterns, unary = its operand.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::import;

namespace {

/// Whether `v` differs from zero in some bit (an i1).
Value isPresent(OpBuilder &b, Location loc, Value v) {
  Type t = v.getType();
  if (auto ft = dyn_cast<FloatType>(t))
    v = arith::BitcastOp::create(b, loc, b.getIntegerType(ft.getWidth()), v);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(v.getType()));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v, zero);
}

/// Emits one case: the region's value on `args` (its block arguments), the
/// operand itself for `identity`, or zero for an empty region.
FailureOr<Value> emitCase(OpBuilder &b, Location loc, Region &region,
                          ValueRange args, Value identity, Type resultType,
                          Operation *semiringOp) {
  if (identity)
    return identity;
  if (region.empty())
    return arith::ConstantOp::create(b, loc, b.getZeroAttr(resultType))
        .getResult();
  Block &block = region.front();
  IRMapping map;
  for (auto [arg, value] : llvm::zip(block.getArguments(), args))
    map.map(arg, value);
  for (Operation &op : block.without_terminator()) {
    // Values from outside the region: only constants.
    for (Value operand : op.getOperands()) {
      if (map.contains(operand) || region.isAncestor(operand.getParentRegion()))
        continue;
      auto cst = operand.getDefiningOp<arith::ConstantOp>();
      if (!cst) {
        semiringOp->emitOpError("cannot be imported: a region uses a value "
                                "defined outside it that is not a constant");
        return failure();
      }
      map.map(operand, b.clone(*cst)->getResult(0));
    }
    b.clone(op, map);
  }
  Value yielded = block.getTerminator()->getOperand(0);
  if (Value mapped = map.lookupOrNull(yielded))
    return mapped;
  if (auto cst = yielded.getDefiningOp<arith::ConstantOp>())
    return b.clone(*cst)->getResult(0);
  semiringOp->emitOpError("cannot be imported: a region yields a value "
                          "defined outside it that is not a constant");
  return failure();
}

/// Emits `scf.if cond { then } else { else }` yielding one value.
FailureOr<Value>
emitIf(OpBuilder &b, Location loc, Value cond, Type type,
       function_ref<FailureOr<Value>(OpBuilder &)> thenCase,
       function_ref<FailureOr<Value>(OpBuilder &)> elseCase) {
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{type}, cond,
                                /*withElseRegion=*/true);
  OpBuilder tb = ifOp.getThenBodyBuilder();
  FailureOr<Value> t = thenCase(tb);
  if (failed(t))
    return failure();
  scf::YieldOp::create(tb, loc, *t);
  OpBuilder eb = ifOp.getElseBodyBuilder();
  FailureOr<Value> e = elseCase(eb);
  if (failed(e))
    return failure();
  scf::YieldOp::create(eb, loc, *e);
  return ifOp.getResult(0);
}

} // namespace

FailureOr<FuncOp> FunctionTable::getForSemiringOp(Operation *op) {
  MLIRContext *ctx = op->getContext();
  Location loc = op->getLoc();
  Type resultType = op->getResult(0).getType();
  for (Type t : op->getOperandTypes())
    if (!ArrayType::isValidElementType(t))
      return op->emitOpError("cannot be imported: operand type ")
             << t << " is not an array element type";
  auto type = FunctionType::get(ctx, op->getOperandTypes(), {resultType});
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  std::string name = "__sa_import_" + op->getName().getStringRef().str();
  std::replace(name.begin(), name.end(), '.', '_');

  SmallVector<TypedAttr> fills;
  for (Type t : op->getOperandTypes())
    fills.push_back(cast<TypedAttr>(b.getZeroAttr(t)));
  IterationAlgebra algebra = IterationAlgebra::empty();
  auto binary = dyn_cast<sparse_tensor::BinaryOp>(op);
  auto unary = dyn_cast<sparse_tensor::UnaryOp>(op);
  auto select = dyn_cast<sparse_tensor::SelectOp>(op);
  if (binary) {
    IterationAlgebra a = IterationAlgebra::leaf(0),
                     c = IterationAlgebra::leaf(1);
    SmallVector<IterationAlgebra> parts;
    if (!binary.getOverlapRegion().empty())
      parts.push_back(IterationAlgebra::intersect({a, c}));
    if (binary.getLeftIdentity() || !binary.getLeftRegion().empty())
      parts.push_back(IterationAlgebra::intersect(
          {a, IterationAlgebra::complement(c)}));
    if (binary.getRightIdentity() || !binary.getRightRegion().empty())
      parts.push_back(IterationAlgebra::intersect(
          {IterationAlgebra::complement(a), c}));
    if (!parts.empty())
      algebra = IterationAlgebra::unite(parts).normalize();
  } else if (unary || select) {
    // Where the operand is absent the value is the absent region's (the
    // fill; select: 0); only present points differ from it.
    algebra = IterationAlgebra::leaf(0);
  } else {
    return op->emitOpError("cannot be imported: no function for it");
  }

  auto func = FuncOp::create(
      b, loc, b.getStringAttr(name), TypeAttr::get(type),
      b.getStringAttr("private"), nullptr, nullptr, nullptr, nullptr, nullptr,
      nullptr, nullptr, nullptr, AlgebraAttr::get(ctx, algebra, fills),
      nullptr, /*casesCount=*/0);
  Block *body = b.createBlock(&func.getBody());
  SmallVector<Value> args;
  for (Type t : op->getOperandTypes())
    args.push_back(body->addArgument(t, loc));

  FailureOr<Value> result = failure();
  if (binary) {
    Value x = args[0], y = args[1];
    Value px = isPresent(b, loc, x), py = isPresent(b, loc, y);
    auto overlap = [&](OpBuilder &ob) {
      return emitCase(ob, loc, binary.getOverlapRegion(), {x, y}, Value(),
                      resultType, op);
    };
    auto left = [&](OpBuilder &ob) {
      return emitCase(ob, loc, binary.getLeftRegion(), {x},
                      binary.getLeftIdentity() ? x : Value(), resultType, op);
    };
    auto right = [&](OpBuilder &ob) {
      return emitCase(ob, loc, binary.getRightRegion(), {y},
                      binary.getRightIdentity() ? y : Value(), resultType, op);
    };
    auto none = [&](OpBuilder &ob) -> FailureOr<Value> {
      return arith::ConstantOp::create(ob, loc, ob.getZeroAttr(resultType))
          .getResult();
    };
    result = emitIf(
        b, loc, px, resultType,
        [&](OpBuilder &tb) {
          return emitIf(tb, loc, py, resultType, overlap, left);
        },
        [&](OpBuilder &eb) {
          return emitIf(eb, loc, py, resultType, right, none);
        });
  } else if (select) {
    // Present entries the predicate keeps; everything else absent (0).
    Value x = args[0];
    Value px = isPresent(b, loc, x);
    result = emitIf(
        b, loc, px, resultType,
        [&](OpBuilder &tb) -> FailureOr<Value> {
          FailureOr<Value> keep = emitCase(tb, loc, select.getRegion(), {x},
                                           Value(), tb.getI1Type(), op);
          if (failed(keep))
            return failure();
          Value zero =
              arith::ConstantOp::create(tb, loc, tb.getZeroAttr(resultType));
          return arith::SelectOp::create(tb, loc, *keep, x, zero).getResult();
        },
        [&](OpBuilder &eb) -> FailureOr<Value> {
          return arith::ConstantOp::create(eb, loc, eb.getZeroAttr(resultType))
              .getResult();
        });
  } else {
    Value x = args[0];
    Value px = isPresent(b, loc, x);
    result = emitIf(
        b, loc, px, resultType,
        [&](OpBuilder &tb) {
          return emitCase(tb, loc, unary.getPresentRegion(), {x}, Value(),
                          resultType, op);
        },
        [&](OpBuilder &eb) {
          return emitCase(eb, loc, unary.getAbsentRegion(), {}, Value(),
                          resultType, op);
        });
  }
  if (failed(result)) {
    func.erase();
    return failure();
  }
  YieldOp::create(b, loc, *result);
  func->remove();
  symbols.insert(func);
  return func;
}

FailureOr<std::pair<FuncOp, FuncOp>>
FunctionTable::getForCustomReduction(Operation *op, unsigned accPosition) {
  auto reduce = cast<sparse_tensor::ReduceOp>(op);
  MLIRContext *ctx = op->getContext();
  Location loc = op->getLoc();
  Type type = op->getResult(0).getType();
  auto identity = reduce.getIdentity().getDefiningOp<arith::ConstantOp>();
  if (!identity)
    return op->emitOpError("cannot be imported: its identity must be a "
                           "constant");
  TypedAttr identityValue = cast<TypedAttr>(identity.getValue());
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());

  // The element: present entries as they are, absent ones the identity
  // (upstream reduces stored entries only, from the identity).
  auto elementType = FunctionType::get(ctx, {type}, {type});
  auto element = FuncOp::create(
      b, loc, b.getStringAttr("__sa_import_sparse_tensor_reduce_element"),
      TypeAttr::get(elementType), b.getStringAttr("private"), nullptr,
      nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
      AlgebraAttr::get(ctx, IterationAlgebra::leaf(0),
                       {cast<TypedAttr>(b.getZeroAttr(type))}),
      nullptr, /*casesCount=*/0);
  {
    OpBuilder::InsertionGuard guard(b);
    Block *body = b.createBlock(&element.getBody());
    Value x = body->addArgument(type, loc);
    Value keep = isPresent(b, loc, x);
    Value id = arith::ConstantOp::create(b, loc, identityValue);
    YieldOp::create(b, loc,
                    arith::SelectOp::create(b, loc, keep, x, id).getResult());
  }
  element->remove();
  symbols.insert(element);

  // The combiner: the region as f(acc, value), declaring the identity it
  // is given (only absent entries, the element's fill, are skipped by it:
  // what upstream does).
  auto combinerType = FunctionType::get(ctx, {type, type}, {type});
  auto combiner = FuncOp::create(
      b, loc, b.getStringAttr("__sa_import_sparse_tensor_reduce"),
      TypeAttr::get(combinerType), b.getStringAttr("private"),
      /*arg_attrs=*/nullptr, /*res_attrs=*/nullptr, /*commutative=*/nullptr,
      /*associative=*/nullptr, /*idempotent=*/nullptr,
      /*annihilator=*/nullptr, IdentityAttr::get(ctx, identityValue, {}),
      /*distributes_over=*/nullptr, /*algebra=*/nullptr,
      /*case_args=*/nullptr, /*casesCount=*/0);
  Block *body = b.createBlock(&combiner.getBody());
  Value acc = body->addArgument(type, loc);
  Value value = body->addArgument(type, loc);
  SmallVector<Value> regionArgs = accPosition == 0
                                      ? SmallVector<Value>{acc, value}
                                      : SmallVector<Value>{value, acc};
  FailureOr<Value> result = emitCase(b, loc, reduce.getRegion(), regionArgs,
                                     Value(), type, op);
  if (failed(result)) {
    combiner.erase();
    return failure();
  }
  YieldOp::create(b, loc, *result);
  combiner->remove();
  symbols.insert(combiner);
  return std::make_pair(element, combiner);
}
