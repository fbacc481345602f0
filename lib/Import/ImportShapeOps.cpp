//===- ImportShapeOps.cpp - tensor/sparse_tensor shape ops as arrays' -----===//
//
// The shape operators frontends emit map one to one onto the dialect's
// (seed 001 §4), which sparse-array-fuse composes with the kernels around
// them: tensor.collapse_shape / expand_shape (one collapse / split per
// reassociation group of several dimensions), tensor.extract_slice with
// static offsets, sizes and strides (a slice; a dropped unit dimension is an
// integer index), tensor.concat and sparse_tensor.concatenate (a concat).
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/Matchers.h"

#include "SparseArray/Dialect/LevelFormat.h"

#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::import;

namespace {

/// The type of an intermediate of a chain of collapses or splits: dense
/// outer levels over a compressed innermost one (what sparse-array-fuse
/// composes away).
ArrayType intermediateType(ArrayRef<int64_t> shape, ArrayType like) {
  MLIRContext *ctx = like.getContext();
  SmallVector<LevelSpec> levels(shape.size(),
                                LevelSpec{LevelFormatRegistry::dense()});
  if (!levels.empty())
    levels.back().format = LevelFormatRegistry::compressed();
  auto format = FormatAttr::get(ctx, levels, {}, 64, 64,
                                like.getFillValue());
  return ArrayType::get(shape, like.getElementType(), format);
}

/// Collapses (split = false) or splits the groups of `groups` in turn,
/// from the last (so earlier dimensions keep their positions).
Value reshapeGroups(OpBuilder &b, Location loc, Value source,
                    ArrayRef<ReassociationIndices> groups,
                    ArrayRef<int64_t> expandedShape, ArrayType resultType,
                    bool split) {
  SmallVector<unsigned> multi;
  for (auto [g, group] : llvm::enumerate(groups))
    if (group.size() > 1)
      multi.push_back(g);
  if (multi.empty())
    return source.getType() == resultType
               ? source
               : ConvertOp::create(b, loc, resultType, source).getResult();
  // Shapes as the groups are processed, last group first.
  SmallVector<int64_t> shape = llvm::to_vector(
      cast<ArrayType>(source.getType()).getShape());
  Value current = source;
  for (auto [step, g] : llvm::enumerate(llvm::reverse(multi))) {
    const ReassociationIndices &group = groups[g];
    bool last = step + 1 == multi.size();
    SmallVector<int64_t> next;
    unsigned first = group.front();
    if (split) {
      // Dimension g of the collapsed shape becomes the group's sizes.
      // A size known only at run time (at most one per group) is the
      // split's inferred -1.
      SmallVector<int64_t> sizes;
      for (int64_t d : group)
        sizes.push_back(ShapedType::isDynamic(expandedShape[d])
                            ? -1
                            : expandedShape[d]);
      next.assign(shape.begin(), shape.begin() + g);
      for (int64_t d : group)
        next.push_back(expandedShape[d]);
      next.append(shape.begin() + g + 1, shape.end());
      ArrayType type = last ? resultType
                            : intermediateType(next, resultType);
      current = SplitOp::create(b, loc, type, current,
                                b.getI64IntegerAttr(g),
                                b.getDenseI64ArrayAttr(sizes),
                                b.getStringAttr("C"), /*plan=*/nullptr);
    } else {
      int64_t size = 1;
      for (int64_t d : group)
        size = ShapedType::isDynamic(shape[d]) || ShapedType::isDynamic(size)
                   ? ShapedType::kDynamic
                   : size * shape[d];
      next.assign(shape.begin(), shape.begin() + first);
      next.push_back(size);
      next.append(shape.begin() + group.back() + 1, shape.end());
      ArrayType type = last ? resultType
                            : intermediateType(next, resultType);
      current = CollapseOp::create(
          b, loc, type, current,
          b.getDenseI64ArrayAttr(SmallVector<int64_t>(group.begin(),
                                                      group.end())),
          b.getStringAttr("C"), /*plan=*/nullptr);
    }
    shape = next;
  }
  return current;
}

} // namespace

/// A concatenation; where an input's size along the axis is known only at
/// run time, sparse_array's result is too (its verifier): a static result
/// type is then a conversion of it, checked at run time (as tensor.cast).
static Value importConcat(OpBuilder &b, Location loc, ArrayRef<Value> sources,
                          int64_t axis, ArrayType resultType) {
  bool dynamic = llvm::any_of(sources, [&](Value v) {
    return cast<ArrayType>(v.getType()).isDynamicDim(axis);
  });
  if (!dynamic || resultType.isDynamicDim(axis))
    return ConcatOp::create(b, loc, resultType, sources,
                            b.getI64IntegerAttr(axis), /*plan=*/nullptr);
  SmallVector<int64_t> shape(resultType.getShape());
  shape[axis] = ShapedType::kDynamic;
  auto joinedType = ArrayType::get(shape, resultType.getElementType(),
                                   resultType.getFormat());
  Value joined =
      ConcatOp::create(b, loc, joinedType, sources, b.getI64IntegerAttr(axis),
                       /*plan=*/nullptr);
  return ConvertOp::create(b, loc, resultType, joined);
}

/// The sparse_array.slice of a tensor.extract_slice with known offsets,
/// sizes and strides.
static Value importStaticSlice(OpBuilder &b, Location loc,
                               tensor::ExtractSliceOp slice, Value source,
                               ArrayRef<int64_t> offsets,
                               ArrayRef<int64_t> sizes,
                               ArrayRef<int64_t> strides,
                               ArrayType resultType) {
  llvm::SmallBitVector dropped = slice.getDroppedDims();
  SmallVector<int64_t> spec;
  for (unsigned d = 0; d < offsets.size(); ++d) {
    if (dropped.test(d)) {
      spec.append({1, offsets[d], SliceOp::kNone, SliceOp::kNone});
      continue;
    }
    // Coordinates offset, offset + stride, ... (size of them).
    int64_t stop = sizes[d] == 0 ? offsets[d]
                                 : offsets[d] + (sizes[d] - 1) * strides[d] + 1;
    spec.append({0, offsets[d], stop, strides[d]});
  }
  return SliceOp::create(b, loc, resultType, source,
                         b.getDenseI64ArrayAttr(spec), /*plan=*/nullptr)
      .getResult();
}

FailureOr<Value> import::importShapeOp(OpBuilder &b, Operation *op,
                                       ArrayRef<Value> sources,
                                       ArrayType resultType,
                                       FunctionTable &functions) {
  Location loc = op->getLoc();
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
    return reshapeGroups(b, loc, sources[0],
                         collapse.getReassociationIndices(), {}, resultType,
                         /*split=*/false);
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    for (const ReassociationIndices &group : expand.getReassociationIndices())
      if (llvm::count_if(group, [&](int64_t d) {
            return ShapedType::isDynamic(expand.getStaticOutputShape()[d]);
          }) > 1)
        return op->emitOpError("cannot be imported: an expanded group with "
                               "more than one size known only at run time");
    return reshapeGroups(b, loc, sources[0], expand.getReassociationIndices(),
                         expand.getStaticOutputShape(), resultType,
                         /*split=*/true);
  }
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    // Operands that are constants count as static (upstream's programs
    // pass arith.constant values for slices typed `slice(?, 4, ?)`): the
    // slice fuses into its readers. Else the runtime slices.
    auto known = [](ArrayRef<OpFoldResult> mixed) {
      SmallVector<int64_t> values;
      for (OpFoldResult v : mixed)
        values.push_back(
            getConstantIntValue(v).value_or(ShapedType::kDynamic));
      return values;
    };
    SmallVector<int64_t> offsets = known(slice.getMixedOffsets());
    SmallVector<int64_t> sizes = known(slice.getMixedSizes());
    SmallVector<int64_t> strides = known(slice.getMixedStrides());
    if (!ShapedType::isDynamicShape(offsets) &&
        !ShapedType::isDynamicShape(sizes) &&
        !ShapedType::isDynamicShape(strides))
      return importStaticSlice(b, loc, slice, sources[0], offsets, sizes,
                               strides, resultType);
    if (slice.getDroppedDims().any())
      return op->emitOpError("cannot be imported: a rank-reducing slice "
                             "with bounds known only at run time");
    auto values = [&](ArrayRef<OpFoldResult> mixed) {
      return getValueOrCreateConstantIndexOp(b, loc, mixed);
    };
    return DynamicSliceOp::create(b, loc, resultType, sources[0],
                                  values(slice.getMixedOffsets()),
                                  values(slice.getMixedSizes()),
                                  values(slice.getMixedStrides()))
        .getResult();
  }
  if (auto concat = dyn_cast<tensor::ConcatOp>(op))
    return importConcat(b, loc, sources, concat.getDim(), resultType);
  if (auto reshape = dyn_cast<tensor::ReshapeOp>(op)) {
    // Row-major, as numpy.reshape: the result type's sizes, those it
    // leaves open from a constant shape operand.
    SmallVector<int64_t> shape(resultType.getShape());
    DenseIntElementsAttr given;
    matchPattern(reshape.getShape(), m_Constant(&given));
    for (auto [d, size] : llvm::enumerate(shape)) {
      if (!ShapedType::isDynamic(size))
        continue;
      if (!given)
        return op->emitOpError("cannot be imported: a size known only at "
                               "run time (the shape is not a constant)");
      size = given.getValues<APInt>()[d].getSExtValue();
    }
    return ReshapeOp::create(b, loc, resultType, sources[0],
                             b.getDenseI64ArrayAttr(shape),
                             b.getStringAttr("C"))
        .getResult();
  }
  if (auto concat = dyn_cast<sparse_tensor::ConcatenateOp>(op))
    return ConcatOp::create(b, loc, resultType, sources,
                            b.getI64IntegerAttr(concat.getDimension()),
                            /*plan=*/nullptr)
        .getResult();
  if (auto pad = dyn_cast<tensor::PadOp>(op))
    return importPad(b, pad, sources[0], resultType);
  if (auto elems = dyn_cast<tensor::FromElementsOp>(op))
    return importFromElements(b, elems, resultType);
  if (auto insert = dyn_cast<tensor::InsertOp>(op))
    return importInsert(b, insert, sources[0], resultType, functions);
  if (isa<sparse_tensor::LoadOp>(op)) // the tensor as it is
    return sources[0];
  return op->emitOpError("cannot be imported: not a shape operation");
}

bool import::isImportedShapeOp(Operation *op) {
  return isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp,
             tensor::ExtractSliceOp, tensor::ConcatOp, tensor::ReshapeOp,
             sparse_tensor::ConcatenateOp, tensor::PadOp, tensor::InsertOp,
             tensor::FromElementsOp, sparse_tensor::LoadOp>(
      op);
}
