//===- ReshapeOps.cpp - Collapse, split, reshape and their storage -------===//
//
// seed 001 §4.1-4.2 (Fig. 9) for the operators that regroup dimensions —
// collapse, split, reshape, linearize/delinearize — as verifiers, the
// levels an access reads through them, and the storage of a collapsed
// array (CollapseLevels.cpp merges the levels). The other shape operators
// are in ShapeOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "ShapeOpsCommon.h"

#include "SparseArray/Dialect/LevelFormat.h"
#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::sparse_array;
using mlir::sparse_array::detail::checkElementType;
using mlir::sparse_array::detail::checkPositions;
using mlir::sparse_array::detail::checkShape;

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
  if (failed(checkShape(*this, result, shape)))
    return failure();
  ShapePlanAttr plan = getPlanAttr();
  return plan ? verifyShapePlan(*this, plan) : success();
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
  if (failed(checkShape(*this, result, shape)))
    return failure();
  ShapePlanAttr plan = getPlanAttr();
  return plan ? verifyShapePlan(*this, plan) : success();
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
  // Blocks interleave a dimension's two levels with others': never one
  // group (such arrays are read through their unblocked format).
  if (format.isBlocked())
    return std::nullopt;
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
