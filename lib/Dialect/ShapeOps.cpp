//===- ShapeOps.cpp - Shape operators -------------------------------------===//
//
// seed 001 §4.1 (operator definitions) and §4.2 (shape inference) as
// verifiers; NumPy's basic indexing for slices. Collapse, split, reshape
// and linearize are in ReshapeOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "ShapeOpsAsm.h"
#include "ShapeOpsCommon.h"

#include "SparseArray/Dialect/LevelFormat.h"
#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::sparse_array;
using mlir::sparse_array::detail::checkElementType;
using mlir::sparse_array::detail::checkPositions;
using mlir::sparse_array::detail::checkShape;

//===----------------------------------------------------------------------===//
// `[1:9:2, :, -1, ::3]`
//===----------------------------------------------------------------------===//

ParseResult
mlir::sparse_array::detail::parseSliceSpec(OpAsmParser &parser,
                                           DenseI64ArrayAttr &spec) {
  constexpr int64_t none = SliceOp::kNone;
  SmallVector<int64_t> values;
  auto optionalInteger = [&](int64_t &v) -> ParseResult {
    v = none;
    OptionalParseResult r = parser.parseOptionalInteger(v);
    if (r.has_value() && failed(*r))
      return failure();
    return success();
  };
  auto entry = [&]() -> ParseResult {
    int64_t start, stop = none, step = none;
    if (optionalInteger(start))
      return failure();
    if (failed(parser.parseOptionalColon())) {
      if (start == none)
        return parser.emitError(parser.getCurrentLocation(),
                                "expected an integer index or a slice "
                                "(start:stop:step)");
      values.append({1, start, none, none});
      return success();
    }
    if (optionalInteger(stop))
      return failure();
    if (succeeded(parser.parseOptionalColon()) && optionalInteger(step))
      return failure();
    values.append({0, start, stop, step});
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, entry))
    return failure();
  spec = DenseI64ArrayAttr::get(parser.getContext(), values);
  return success();
}

void mlir::sparse_array::detail::printSliceSpec(OpAsmPrinter &printer,
                                                Operation *,
                                                DenseI64ArrayAttr spec) {
  constexpr int64_t none = SliceOp::kNone;
  ArrayRef<int64_t> s = spec.asArrayRef();
  printer << "[";
  for (unsigned i = 0; i < s.size(); i += 4) {
    if (i)
      printer << ", ";
    if (s[i] == 1) {
      printer << s[i + 1];
      continue;
    }
    if (s[i + 1] != none)
      printer << s[i + 1];
    printer << ":";
    if (s[i + 2] != none)
      printer << s[i + 2];
    if (s[i + 3] != none)
      printer << ":" << s[i + 3];
  }
  printer << "]";
}

//===----------------------------------------------------------------------===//
// Checks the shape ops share
//===----------------------------------------------------------------------===//

/// "result shape [..] is not [..]": the diagnostic every shape op shares.
LogicalResult sparse_array::detail::checkShape(Operation *op, ArrayType result,
                                               ArrayRef<int64_t> expected) {
  if (result.getShape() == expected)
    return success();
  auto print = [](InFlightDiagnostic &d, ArrayRef<int64_t> shape) {
    d << "[";
    llvm::interleaveComma(shape, d, [&](int64_t e) {
      if (ShapedType::isDynamic(e))
        d << "?";
      else
        d << e;
    });
    d << "]";
  };
  InFlightDiagnostic d = op->emitOpError() << "result shape ";
  print(d, result.getShape());
  d << " is not ";
  print(d, expected);
  return d;
}

LogicalResult sparse_array::detail::checkElementType(Operation *op,
                                                     ArrayType source,
                                                     ArrayType result) {
  if (result.getElementType() == source.getElementType())
    return success();
  return op->emitOpError() << "result element type " << result.getElementType()
                           << " differs from the source's "
                           << source.getElementType();
}

/// `dims` are distinct positions in [0, bound).
LogicalResult sparse_array::detail::checkPositions(Operation *op,
                                                   ArrayRef<int64_t> dims,
                                                   int64_t bound,
                                                   StringRef what) {
  llvm::SmallBitVector seen(bound);
  for (int64_t d : dims) {
    if (d < 0 || d >= bound)
      return op->emitOpError()
             << what << " " << d << " is not in [0, " << bound << ")";
    if (seen.test(d))
      return op->emitOpError() << what << " " << d << " is repeated";
    seen.set(d);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// SliceOp
//===----------------------------------------------------------------------===//

FailureOr<SliceOp::Normalized> SliceOp::normalize(unsigned dim,
                                                  std::string *why) {
  auto fail = [&](const Twine &message) -> FailureOr<Normalized> {
    if (why)
      *why = message.str();
    return failure();
  };
  ArrayType type = cast<ArrayType>(getSource().getType());
  int64_t size = type.getShape()[dim];
  bool dynamic = ShapedType::isDynamic(size);
  ArrayRef<int64_t> s = getSpec();
  Normalized n;
  if (4 * dim >= s.size()) { // not given: whole
    n.whole = true;
    n.hi = dynamic ? 0 : size;
    return n;
  }
  int64_t kind = s[4 * dim], start = s[4 * dim + 1], stop = s[4 * dim + 2],
          step = s[4 * dim + 3];
  if (kind == 1) {
    if (dynamic && start < 0)
      return fail("a negative index of dimension " + Twine(dim) +
                  ", whose size is known only at run time");
    int64_t c = start < 0 ? start + size : start;
    if (c < 0 || (!dynamic && c >= size))
      return fail("index " + Twine(start) + " is out of range for dimension " +
                  Twine(dim) + " of size " + Twine(size));
    n.index = true;
    n.lo = c;
    n.hi = c + 1;
    return n;
  }
  if (step == kNone)
    step = 1;
  if (step == 0)
    return fail("slice step of dimension " + Twine(dim) + " is zero");
  n.step = step;
  if (dynamic && step < 0) {
    // Counting down from an explicit start; the stop may be omitted (down
    // to coordinate 0). The size must exceed the start (checked at run
    // time).
    if (start == kNone || start < 0 || (stop != kNone && stop < 0))
      return fail("slicing dimension " + Twine(dim) +
                  ", whose size is known only at run time, with a negative "
                  "step needs an explicit non-negative start (and a "
                  "non-negative stop, if any)");
    n.lo = start;
    n.hi = stop == kNone ? -1 : std::min(start, stop);
    return n;
  }
  if (dynamic) {
    if (start == kNone && stop == kNone && step == 1) {
      n.whole = true;
      return n;
    }
    if (start == kNone)
      start = 0;
    if (start < 0 || stop == kNone || stop < 0)
      return fail("slicing dimension " + Twine(dim) +
                  ", whose size is known only at run time, needs an explicit "
                  "non-negative start and stop");
    n.lo = start;
    n.hi = std::max(start, stop);
    return n;
  }
  // Python's slice.indices for step > 0: negative bounds from the end,
  // both clamped to [0, size].
  auto clamp = [&](int64_t v, int64_t dflt) {
    if (v == kNone)
      return dflt;
    if (v < 0)
      v += size;
    return std::min(std::max(v, int64_t(0)), size);
  };
  if (step < 0) {
    // Python's slice.indices for step < 0: counting down from size - 1 to
    // before 0 (stop -1), bounds clamped to [-1, size - 1].
    auto clampDown = [&](int64_t v, int64_t dflt) {
      if (v == kNone)
        return dflt;
      if (v < 0)
        v += size;
      return std::min(std::max(v, int64_t(-1)), size - 1);
    };
    n.lo = clampDown(start, size - 1);
    n.hi = std::min(n.lo, clampDown(stop, -1));
    // Nothing read: an empty ascending slice (no coordinate -1 in IR).
    if (n.lo == n.hi) {
      n.lo = n.hi = 0;
      n.step = 1;
    }
    return n;
  }
  n.lo = clamp(start, 0);
  n.hi = std::max(n.lo, clamp(stop, size));
  n.whole = n.lo == 0 && n.hi == size && step == 1;
  return n;
}

FailureOr<SmallVector<int64_t>> SliceOp::inferShape(std::string *why) {
  ArrayType type = cast<ArrayType>(getSource().getType());
  SmallVector<int64_t> shape;
  for (unsigned dim = 0; dim < type.getRank(); ++dim) {
    FailureOr<Normalized> n = normalize(dim, why);
    if (failed(n))
      return failure();
    if (n->index)
      continue;
    if (n->whole && type.isDynamicDim(dim))
      shape.push_back(ShapedType::kDynamic);
    else
      shape.push_back(n->length());
  }
  return shape;
}

LogicalResult SliceOp::verify() {
  ArrayType source = cast<ArrayType>(getSource().getType());
  ArrayType result = cast<ArrayType>(getResult().getType());
  ArrayRef<int64_t> s = getSpec();
  if (s.size() % 4 != 0)
    return emitOpError() << "needs four values per entry of its spec";
  if (s.size() / 4 > source.getRank())
    return emitOpError() << "indexes " << s.size() / 4
                         << " dimensions of a rank-" << source.getRank()
                         << " array";
  for (unsigned i = 0; i < s.size(); i += 4)
    if (s[i] != 0 && s[i] != 1)
      return emitOpError() << "spec entry " << i / 4
                           << " is neither a slice (0) nor an index (1)";
  std::string why;
  FailureOr<SmallVector<int64_t>> shape = inferShape(&why);
  if (failed(shape))
    return emitOpError() << why;
  if (failed(checkElementType(*this, source, result)))
    return failure();
  if (failed(checkShape(*this, result, *shape)))
    return failure();
  ShapePlanAttr plan = getPlanAttr();
  return plan ? verifyShapePlan(*this, plan) : success();
}

//===----------------------------------------------------------------------===//
// TransposeOp, ExpandDimsOp, SqueezeOp
//===----------------------------------------------------------------------===//

LogicalResult DynamicSliceOp::verify() {
  ArrayType source = cast<ArrayType>(getSource().getType());
  ArrayType result = cast<ArrayType>(getResult().getType());
  unsigned rank = source.getRank();
  if (getOffsets().size() != rank || getSizes().size() != rank ||
      getStrides().size() != rank)
    return emitOpError() << "needs one offset, size and stride per "
                            "dimension of the rank-"
                         << rank << " source";
  if (failed(checkElementType(*this, source, result)))
    return failure();
  SmallVector<int64_t> shape;
  for (Value size : getSizes()) {
    APInt c;
    shape.push_back(matchPattern(size, m_ConstantInt(&c))
                        ? c.getSExtValue()
                        : ShapedType::kDynamic);
  }
  // A dynamic result size may stand for a constant operand, not the reverse.
  SmallVector<int64_t> expected(result.getShape());
  for (auto [e, s] : llvm::zip(expected, shape))
    if (!ShapedType::isDynamic(e) && !ShapedType::isDynamic(s) && e != s)
      return checkShape(*this, result, shape);
  if (expected.size() != rank)
    return checkShape(*this, result, shape);
  return success();
}

LogicalResult TransposeOp::verify() {
  ArrayType source = cast<ArrayType>(getSource().getType());
  ArrayType result = cast<ArrayType>(getResult().getType());
  ArrayRef<int64_t> perm = getPermutation();
  if (perm.size() != source.getRank())
    return emitOpError() << "permutation has " << perm.size()
                         << " entries for a rank-" << source.getRank()
                         << " array";
  if (failed(checkPositions(*this, perm, source.getRank(), "dimension")))
    return failure();
  if (failed(checkElementType(*this, source, result)))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t d : perm)
    shape.push_back(source.getShape()[d]);
  return checkShape(*this, result, shape);
}

LogicalResult ExpandDimsOp::verify() {
  ArrayType source = cast<ArrayType>(getSource().getType());
  ArrayType result = cast<ArrayType>(getResult().getType());
  ArrayRef<int64_t> dims = getDims();
  int64_t rank = source.getRank() + dims.size();
  if (failed(checkPositions(*this, dims, rank, "new dimension")))
    return failure();
  if (failed(checkElementType(*this, source, result)))
    return failure();
  SmallVector<int64_t> shape;
  unsigned next = 0;
  for (int64_t d = 0; d < rank; ++d)
    shape.push_back(llvm::is_contained(dims, d) ? 1
                                                : source.getShape()[next++]);
  return checkShape(*this, result, shape);
}

LogicalResult SqueezeOp::verify() {
  ArrayType source = cast<ArrayType>(getSource().getType());
  ArrayType result = cast<ArrayType>(getResult().getType());
  ArrayRef<int64_t> dims = getDims();
  if (failed(checkPositions(*this, dims, source.getRank(), "dimension")))
    return failure();
  for (int64_t d : dims)
    if (source.getShape()[d] != 1)
      return emitOpError() << "dimension " << d
                           << " to squeeze does not have static size 1";
  if (failed(checkElementType(*this, source, result)))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < source.getRank(); ++d)
    if (!llvm::is_contained(dims, d))
      shape.push_back(source.getShape()[d]);
  return checkShape(*this, result, shape);
}

//===----------------------------------------------------------------------===//
// ConcatOp, SelectRangeOp
//===----------------------------------------------------------------------===//

LogicalResult ConcatOp::verify() {
  auto result = cast<ArrayType>(getResult().getType());
  if (getInputs().empty())
    return emitOpError() << "needs at least one input";
  int64_t dim = getDim();
  if (dim < 0 || dim >= int64_t(result.getRank()))
    return emitOpError() << "dimension " << dim << " is not in [0, "
                         << result.getRank() << ")";
  SmallVector<int64_t> shape(result.getShape());
  shape[dim] = 0;
  // A size along the axis known only at run time in any input makes the
  // result's (the sum is not checked against a static size).
  bool dynamic = llvm::any_of(getInputs(), [&](Value input) {
    return cast<ArrayType>(input.getType()).isDynamicDim(dim);
  });
  for (auto [k, input] : llvm::enumerate(getInputs())) {
    auto type = cast<ArrayType>(input.getType());
    if (failed(checkElementType(*this, type, result)))
      return failure();
    if (type.getRank() != result.getRank())
      return emitOpError() << "input " << k << " has rank " << type.getRank()
                           << ", the result " << result.getRank();
    if (!dynamic &&
        __builtin_add_overflow(shape[dim], type.getShape()[dim], &shape[dim]))
      return emitOpError() << "the inputs have more than 2^63 entries along "
                           << "dimension " << dim;
    // Sizes known only at run time match each other (checked when the
    // concatenation runs), not a static size.
    auto size = [](int64_t n) {
      return ShapedType::isDynamic(n) ? std::string("?") : std::to_string(n);
    };
    for (unsigned d = 0; d < type.getRank(); ++d)
      if (d != dim && type.getShape()[d] != result.getShape()[d])
        return emitOpError()
               << "input " << k << " has size " << size(type.getShape()[d])
               << " in dimension " << d << ", the result "
               << size(result.getShape()[d]);
  }
  if (dynamic && !result.isDynamicDim(dim))
    return emitOpError() << "result size " << result.getShape()[dim]
                         << " in dimension " << dim
                         << " needs to be ? (an input's size there is known "
                            "only at run time)";
  if (dynamic)
    shape[dim] = ShapedType::kDynamic;
  if (failed(checkShape(*this, result, shape)))
    return failure();
  ShapePlanAttr plan = getPlanAttr();
  return plan ? verifyShapePlan(*this, plan) : success();
}

LogicalResult SelectRangeOp::verify() {
  ArrayRef<int64_t> bounds = getBounds();
  if (bounds.size() + 1 != getParts().size())
    return emitOpError() << "needs one part more than bounds, got "
                         << getParts().size() << " parts and " << bounds.size()
                         << " bounds";
  for (unsigned i = 1; i < bounds.size(); ++i)
    if (bounds[i] < bounds[i - 1])
      return emitOpError() << "bounds must not decrease";
  for (Value part : getParts())
    if (part.getType() != getResult().getType())
      return emitOpError() << "part of type " << part.getType()
                           << " for a result of type " << getResult().getType();
  auto kernel = (*this)->getParentOfType<KernelOp>();
  auto var = dyn_cast<BlockArgument>(getIndex());
  if (!var || var.getOwner() != &kernel.getBody().front() ||
      var.getArgNumber() >= kernel.getNumIndices())
    return emitOpError() << "index must be an index variable of the kernel";
  ArrayRef<int64_t> ranged = getRanged().value_or(ArrayRef<int64_t>{});
  if (ranged.size() != getRanges().size())
    return emitOpError() << "needs one range per ranged part, got "
                         << getRanges().size() << " ranges for "
                         << ranged.size() << " parts";
  for (auto [i, p] : llvm::enumerate(ranged))
    if (p < 0 || p >= int64_t(getParts().size()) || (i && p <= ranged[i - 1]))
      return emitOpError() << "ranged parts must be increasing part numbers "
                              "below "
                           << getParts().size();
  for (Value range : getRanges()) {
    auto access = range.getDefiningOp<AccessOp>();
    if (!access || !access.getArrayType().isAllDense())
      return emitOpError() << "a range must be the read of a dense array";
  }
  return success();
}

Value SelectRangeOp::getRangeOf(unsigned p) {
  ArrayRef<int64_t> ranged = getRanged().value_or(ArrayRef<int64_t>{});
  auto at = llvm::find(ranged, int64_t(p));
  return at == ranged.end() ? Value() : getRanges()[at - ranged.begin()];
}
