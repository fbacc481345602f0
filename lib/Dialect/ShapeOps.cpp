//===- ShapeOps.cpp - Shape operators -------------------------------------===//
//
// seed 001 §4.1 (operator definitions) and §4.2 (shape inference) as
// verifiers; NumPy's basic indexing for slices.
//
//===----------------------------------------------------------------------===//

#include "ShapeOpsAsm.h"

#include "SparseArray/Dialect/LevelFormat.h"
#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::sparse_array;

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
static LogicalResult checkShape(Operation *op, ArrayType result,
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

static LogicalResult checkElementType(Operation *op, ArrayType source,
                                      ArrayType result) {
  if (result.getElementType() == source.getElementType())
    return success();
  return op->emitOpError() << "result element type " << result.getElementType()
                           << " differs from the source's "
                           << source.getElementType();
}

/// `dims` are distinct positions in [0, bound).
static LogicalResult checkPositions(Operation *op, ArrayRef<int64_t> dims,
                                    int64_t bound, StringRef what) {
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
  return checkShape(*this, result, *shape);
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
  return checkShape(*this, result, shape);
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

//===----------------------------------------------------------------------===//
// CollapseOp, SplitOp, ReshapeOp (seed 001 §4.1-4.2, Fig. 9)
//===----------------------------------------------------------------------===//

static LogicalResult checkOrder(Operation *op, StringRef order) {
  if (order == "C" || order == "F")
    return success();
  return op->emitOpError() << "order must be \"C\" or \"F\", got \"" << order
                           << "\"";
}

/// The sizes `sizes` (at most one -1, inferred) that must multiply to
/// `total` (nullopt: known only at run time); the sizes with -1 resolved,
/// or kDynamic when `total` is not known.
static FailureOr<SmallVector<int64_t>>
inferSizes(Operation *op, ArrayRef<int64_t> sizes, std::optional<int64_t> total,
           StringRef what) {
  int64_t known = 1;
  int inferred = -1;
  for (auto [i, s] : llvm::enumerate(sizes)) {
    if (s == -1) {
      if (inferred >= 0)
        return op->emitOpError() << what << " has more than one -1";
      inferred = i;
      continue;
    }
    if (s < 0)
      return op->emitOpError() << what << " has the size " << s
                               << " (sizes are >= 0, or -1 to infer one)";
    if (__builtin_mul_overflow(known, s, &known))
      return op->emitOpError() << what << " has more than 2^63 entries";
  }
  SmallVector<int64_t> out(sizes);
  if (inferred >= 0 && known == 0)
    return op->emitOpError() << what << " cannot infer its -1 next to a size "
                             << "0 (numpy's error too)";
  if (!total) {
    if (inferred >= 0)
      out[inferred] = ShapedType::kDynamic;
    return out;
  }
  if (inferred >= 0) {
    if (*total % known != 0)
      return op->emitOpError() << "cannot split " << *total << " entries into "
                               << what << " (not a multiple of " << known
                               << ")";
    out[inferred] = *total / known;
    return out;
  }
  if (known != *total)
    return op->emitOpError() << what << " holds " << known
                             << " entries, the source " << *total;
  return out;
}

/// The product of `shape`, when every size is static (nullopt otherwise);
/// failure (diagnosed: linearized coordinates would not fit in 64 bits)
/// when it exceeds 2^63.
static FailureOr<std::optional<int64_t>>
staticProduct(Operation *op, ArrayRef<int64_t> shape, StringRef what) {
  if (llvm::any_of(shape, ShapedType::isDynamic))
    return std::optional<int64_t>();
  int64_t n = 1;
  for (int64_t s : shape)
    if (__builtin_mul_overflow(n, s, &n))
      return op->emitOpError() << what << " have more than 2^63 entries";
  return std::optional<int64_t>(n);
}

LogicalResult CollapseOp::verify() {
  ArrayType source = cast<ArrayType>(getSource().getType());
  ArrayType result = cast<ArrayType>(getResult().getType());
  ArrayRef<int64_t> dims = getDims();
  if (failed(checkOrder(*this, getOrder())))
    return failure();
  if (dims.empty())
    return emitOpError() << "needs at least one dimension to collapse";
  if (failed(checkPositions(*this, dims, source.getRank(), "dimension")))
    return failure();
  for (unsigned i = 1; i < dims.size(); ++i)
    if (dims[i] != dims[0] + int64_t(i))
      return emitOpError() << "dimensions to collapse must be adjacent and "
                           << "ascending (transpose them first)";
  if (failed(checkElementType(*this, source, result)))
    return failure();
  ArrayRef<int64_t> in = source.getShape();
  SmallVector<int64_t> shape(in.take_front(dims.front()));
  FailureOr<std::optional<int64_t>> merged = staticProduct(
      *this, in.slice(dims.front(), dims.size()), "the collapsed dimensions");
  if (failed(merged))
    return failure();
  shape.push_back(*merged ? **merged : ShapedType::kDynamic);
  llvm::append_range(shape, in.drop_front(dims.back() + 1));
  return checkShape(*this, result, shape);
}

LogicalResult SplitOp::verify() {
  ArrayType source = cast<ArrayType>(getSource().getType());
  ArrayType result = cast<ArrayType>(getResult().getType());
  if (failed(checkOrder(*this, getOrder())))
    return failure();
  int64_t dim = getDim();
  if (dim < 0 || dim >= int64_t(source.getRank()))
    return emitOpError() << "dimension " << dim << " is not in [0, "
                         << source.getRank() << ")";
  if (getSizes().empty())
    return emitOpError() << "needs at least one size";
  if (failed(checkElementType(*this, source, result)))
    return failure();
  int64_t size = source.getShape()[dim];
  FailureOr<SmallVector<int64_t>> sizes = inferSizes(
      *this, getSizes(),
      ShapedType::isDynamic(size) ? std::nullopt : std::optional(size),
      "the split");
  if (failed(sizes))
    return failure();
  ArrayRef<int64_t> in = source.getShape();
  SmallVector<int64_t> shape(in.take_front(dim));
  llvm::append_range(shape, *sizes);
  llvm::append_range(shape, in.drop_front(dim + 1));
  return checkShape(*this, result, shape);
}

LogicalResult ReshapeOp::verify() {
  ArrayType source = cast<ArrayType>(getSource().getType());
  ArrayType result = cast<ArrayType>(getResult().getType());
  if (failed(checkOrder(*this, getOrder())))
    return failure();
  if (failed(checkElementType(*this, source, result)))
    return failure();
  FailureOr<std::optional<int64_t>> total =
      staticProduct(*this, source.getShape(), "the source's dimensions");
  if (failed(total))
    return failure();
  FailureOr<SmallVector<int64_t>> shape =
      inferSizes(*this, getShape(), *total, "the shape");
  if (failed(shape))
    return failure();
  return checkShape(*this, result, *shape);
}

LogicalResult LinearizeOp::verify() {
  if (getIndices().size() < 2)
    return emitOpError() << "needs at least two index variables";
  if (getSizes().size() + 1 != getIndices().size())
    return emitOpError() << "needs one size per index variable after the "
                            "first, got "
                         << getSizes().size() << " for "
                         << getIndices().size() << " variables";
  for (int64_t s : getSizes())
    if (s <= 0)
      return emitOpError() << "sizes must be positive, got " << s;
  auto kernel = (*this)->getParentOfType<KernelOp>();
  for (auto [i, index] : llvm::enumerate(getIndices())) {
    auto var = dyn_cast<BlockArgument>(index);
    if (!var || var.getOwner() != &kernel.getBody().front() ||
        var.getArgNumber() >= kernel.getNumIndices())
      return emitOpError() << "indices must be index variables of the kernel";
    if (llvm::is_contained(getIndices().take_front(i), index))
      return emitOpError() << "linearizes index variable "
                           << var.getArgNumber() << " twice";
  }
  for (Operation *user : getResult().getUsers())
    if (!isa<AccessOp, DelinearizeOp>(user))
      return emitOpError() << "may only be used as the index of a "
                              "sparse_array.access or sparse_array.delinearize";
  return success();
}

LogicalResult DelinearizeOp::verify() {
  if (getSizes().empty())
    return emitOpError() << "needs at least one size (two parts)";
  if (getResults().size() != getSizes().size() + 1)
    return emitOpError() << "has " << getResults().size() << " results for "
                         << getSizes().size() + 1 << " parts";
  for (int64_t s : getSizes())
    if (s <= 0)
      return emitOpError() << "sizes must be positive, got " << s;
  auto kernel = (*this)->getParentOfType<KernelOp>();
  // A collapsed read of a split read (a reshape's collapse composed with
  // its split): the index is the split's linearize of variables.
  if (!getIndex().getDefiningOp<LinearizeOp>()) {
    auto var = dyn_cast<BlockArgument>(getIndex());
    if (!var || var.getOwner() != &kernel.getBody().front() ||
        var.getArgNumber() >= kernel.getNumIndices())
      return emitOpError() << "index must be an index variable of the kernel "
                              "or a sparse_array.linearize of them";
  }
  for (Value r : getResults())
    for (Operation *user : r.getUsers())
      if (!isa<AccessOp>(user))
        return emitOpError() << "may only be used as indices of a "
                                "sparse_array.access";
  return success();
}

SmallVector<AccessedLevel> mlir::sparse_array::getAccessedLevels(AccessOp access) {
  FormatAttr format = access.getArrayType().getFormat();
  SmallVector<AccessedLevel> out;
  for (unsigned l = 0; l < format.getNumLevels(); ++l) {
    AccessedLevel a;
    a.level = l;
    a.dim = format.getLevelDim(l);
    Value index = access.getIndices()[a.dim];
    if (auto delin = index.getDefiningOp<DelinearizeOp>()) {
      // One part of a collapsed read: the coordinate is (x / d) % m.
      unsigned part = cast<OpResult>(index).getResultNumber();
      a.index = delin.getIndex();
      if (auto lin = a.index.getDefiningOp<LinearizeOp>()) {
        a.index = lin.getIndices().back();
        a.window = lin;
      }
      a.collapsePart = part;
      a.collapseParts = delin.getResults().size();
      a.collapseDivisor = delin.getDivisor(part);
      a.collapseModulus = delin.getModulus(part);
      out.push_back(a);
      continue;
    }
    auto lin = index.getDefiningOp<LinearizeOp>();
    if (!lin) {
      a.index = index;
      out.push_back(a);
      continue;
    }
    ArrayRef<int64_t> sizes = lin.getSizes();
    a.parts = lin.getIndices().size();
    for (unsigned i = 0; i < a.parts; ++i) {
      AccessedLevel part = a;
      part.part = i;
      part.index = lin.getIndices()[i];
      part.divisor = 1;
      for (int64_t s : sizes.drop_front(i))
        part.divisor *= s;
      part.modulus = i ? sizes[i - 1] : 0;
      out.push_back(part);
    }
  }
  return out;
}

SmallVector<BlockArgument> mlir::sparse_array::getIndexVariables(Value index) {
  if (auto arg = dyn_cast<BlockArgument>(index))
    return {arg};
  if (auto delin = index.getDefiningOp<DelinearizeOp>())
    index = delin.getIndex();
  if (auto arg = dyn_cast<BlockArgument>(index))
    return {arg};
  SmallVector<BlockArgument> out;
  if (auto lin = index.getDefiningOp<LinearizeOp>())
    for (Value v : lin.getIndices())
      out.push_back(cast<BlockArgument>(v));
  return out;
}

//===----------------------------------------------------------------------===//
// Collapsed storage (CollapseLevels.cpp merges the levels)
//===----------------------------------------------------------------------===//

namespace {

/// Where the collapsed dimensions are stored: levels [first, first + count).
struct Group {
  unsigned first = 0, count = 0;
};

/// The group of levels storing `dims` in linearization order, if adjacent.
std::optional<Group> storedGroupImpl(FormatAttr format, ArrayRef<int64_t> dims,
                                 bool fortran) {
  Group g;
  g.count = dims.size();
  g.first = format.getDimLevel(fortran ? dims.back() : dims.front());
  for (unsigned i = 0; i < g.count; ++i) {
    int64_t dim = fortran ? dims[g.count - 1 - i] : dims[i];
    if (g.first + i >= format.getNumLevels() ||
        format.getLevelDim(g.first + i) != dim)
      return std::nullopt;
  }
  return g;
}

/// The merged level: full when every level of the group is; a singleton
/// (one child per parent position) when the group starts with one;
/// otherwise compressed. Unique when the group's last level is (distinct
/// positions there have distinct ancestors' coordinates), ordered when
/// all are.
LevelSpec mergedLevel(ArrayRef<LevelSpec> group) {
  LevelSpec m;
  bool allFull = llvm::all_of(group, [](LevelSpec l) { return l.isFull(); });
  if (allFull)
    return group.front().format == LevelFormatRegistry::dense()
               ? group.front()
               : LevelSpec{LevelFormatRegistry::dense(), true, true};
  m.format = !group.front().isFull() &&
                     !group.front().format->hasPositionsBuffer()
                 ? LevelFormatRegistry::singleton()
                 : LevelFormatRegistry::compressed();
  m.unique = group.back().unique;
  m.ordered = llvm::all_of(group, [](LevelSpec l) { return l.ordered; });
  return m;
}

} // namespace

ArrayType mlir::sparse_array::getCollapsedStorageType(ArrayType source,
                                                      ArrayRef<int64_t> dims,
                                                      bool fortran) {
  FormatAttr format = source.getFormat();
  std::optional<Group> g = storedGroupImpl(format, dims, fortran);
  if (!g)
    return ArrayType();
  ArrayRef<LevelSpec> levels = format.getLevels();
  SmallVector<LevelSpec> merged(levels.take_front(g->first));
  merged.push_back(mergedLevel(levels.slice(g->first, g->count)));
  llvm::append_range(merged, levels.drop_front(g->first + g->count));
  // Dimensions after the group move down by count - 1.
  unsigned d0 = dims.front(), shift = dims.size() - 1;
  SmallVector<unsigned> order;
  for (unsigned l = 0; l < levels.size(); ++l) {
    if (l > g->first && l < g->first + g->count)
      continue;
    unsigned dim = format.getLevelDim(l);
    order.push_back(l == g->first ? d0 : (dim > d0 ? dim - shift : dim));
  }
  SmallVector<int64_t> shape(source.getShape().take_front(d0));
  int64_t size = 1;
  for (int64_t d : dims) {
    int64_t s = source.getShape()[d];
    if (ShapedType::isDynamic(s) || ShapedType::isDynamic(size) ||
        __builtin_mul_overflow(size, s, &size))
      size = ShapedType::kDynamic;
  }
  shape.push_back(size);
  llvm::append_range(shape, source.getShape().drop_front(dims.back() + 1));
  bool identity = llvm::equal(order, llvm::seq<unsigned>(0, order.size()));
  // Linearized coordinates may not fit the source's narrower width: 64
  // bits unless the merged size is known to fit (a conversion to the
  // declared width then checks the entries' coordinates).
  unsigned crdWidth = format.getCrdWidth();
  if (crdWidth < 64 &&
      (ShapedType::isDynamic(size) || uint64_t(size) > (uint64_t(1) << crdWidth)))
    crdWidth = 64;
  auto newFormat = FormatAttr::get(
      source.getContext(), merged, identity ? ArrayRef<unsigned>() : order,
      format.getPosWidth(), crdWidth, format.getFill());
  return ArrayType::get(shape, source.getElementType(), newFormat);
}


std::optional<std::pair<unsigned, unsigned>>
mlir::sparse_array::getCollapsedLevels(FormatAttr format, ArrayRef<int64_t> dims,
                                       bool fortran) {
  std::optional<Group> g = storedGroupImpl(format, dims, fortran);
  if (!g)
    return std::nullopt;
  return std::make_pair(g->first, g->count);
}
