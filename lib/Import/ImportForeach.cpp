//===- ImportForeach.cpp - sparse_tensor.foreach -> scf loops -------------===//
//
// sparse_tensor.foreach runs its body once per stored entry, in storage
// order, with the entry's dimension coordinates and value and the loop-
// carried values. Imported as a loop nest over the array's levels, each
// read by its level iterator (seed 002 §4: the format's own, so a level
// format plugin needs no code here): a loop over the positions init gives
// under the parent position, each position's coordinate from the iterator.
// A blocked array is walked by its levels (sparse_array.demap, the same
// buffers) and each blocked dimension's coordinate is block × size + place.
// The body is cloned into the innermost loop; the caller imports it.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "SparseArray/Conversion/LevelIterator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::import;

namespace {

class ForeachBuilder {
public:
  ForeachBuilder(sparse_tensor::ForeachOp op, Value array)
      : op(op), loc(op.getLoc()), array(array),
        format(cast<ArrayType>(array.getType()).getFormat()) {}

  FailureOr<ImportedForeach> build(OpBuilder &b) {
    unsigned rank = format.getNumLevels();
    if (rank == 0)
      return LogicalResult(op.emitOpError(
          "cannot be imported: a foreach over a 0-d tensor"));
    if (op.getOrder())
      return LogicalResult(op.emitOpError(
          "cannot be imported: a foreach with an explicit order"));
    auto arrayType = cast<ArrayType>(array.getType());
    values = ValuesOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic},
                                arrayType.getElementType()),
        array);
    Value levels =
        format.isBlocked()
            ? DemapOp::create(b, loc, DemapOp::getDemappedType(arrayType),
                              array)
                  .getResult()
            : array;
    FormatAttr levelFormat = cast<ArrayType>(levels.getType()).getFormat();
    for (unsigned l = 0; l < rank; ++l) {
      iterators.push_back(LevelIteratorRegistry::create(
          levelFormat.getLevels()[l], fetchLevelBuffers(b, loc, levels, l)));
      if (!iterators.back())
        return LogicalResult(op.emitOpError("cannot be imported: level ")
                             << l << " ("
                             << levelFormat.getLevels()[l].getName()
                             << ") has no iterator");
    }
    levelCoordinates.assign(rank, Value());
    one = arith::ConstantIndexOp::create(b, loc, 1);
    ImportedForeach result;
    result.results =
        level(b, 0, arith::ConstantIndexOp::create(b, loc, 0),
              op.getInitArgs(), result.outermost);
    return result;
  }

private:
  /// The loops of levels `l` and below under parent position `parent`,
  /// carrying `iters`; returns the values they yield. The first loop made
  /// is stored in `outermost`.
  SmallVector<Value> level(OpBuilder &b, unsigned l, Value parent,
                           ValueRange iters, Operation *&outermost) {
    if (l == format.getNumLevels())
      return body(b, parent, iters);
    LevelIterator &it = *iterators[l];
    auto [lo, hi] = it.init(b, loc, parent,
                            arith::AddIOp::create(b, loc, parent, one));
    auto loop = scf::ForOp::create(
        b, loc, lo, hi, one, iters,
        [&](OpBuilder &fb, Location, Value p, ValueRange inner) {
          levelCoordinates[l] = it.coordinate(fb, loc, lo, p);
          Operation *unused = nullptr;
          scf::YieldOp::create(fb, loc, level(fb, l + 1, p, inner, unused));
        });
    if (!outermost)
      outermost = loop;
    return loop.getResults();
  }

  /// Dimension `d`'s coordinate from the levels' (a blocked one's block
  /// times its size plus its place in the block).
  Value dimensionCoordinate(OpBuilder &b, unsigned d) {
    Value whole, block, place;
    for (unsigned l = 0; l < format.getNumLevels(); ++l) {
      if (format.getLevelDim(l) != d)
        continue;
      switch (format.getLevelPart(l)) {
      case FormatAttr::LevelPart::Whole:
        whole = levelCoordinates[l];
        break;
      case FormatAttr::LevelPart::Block:
        block = levelCoordinates[l];
        break;
      case FormatAttr::LevelPart::InBlock:
        place = levelCoordinates[l];
        break;
      }
    }
    if (whole)
      return whole;
    Value size = arith::ConstantIndexOp::create(b, loc, format.getBlock(d));
    return arith::AddIOp::create(b, loc,
                                 arith::MulIOp::create(b, loc, block, size),
                                 place);
  }

  /// The body at position `p`: dimension coordinates, value, carried values.
  SmallVector<Value> body(OpBuilder &b, Value p, ValueRange iters) {
    Block &block = op.getRegion().front();
    IRMapping mapping;
    unsigned rank = cast<ArrayType>(array.getType()).getRank();
    for (unsigned d = 0; d < rank; ++d)
      mapping.map(block.getArgument(d), dimensionCoordinate(b, d));
    Value value = memref::LoadOp::create(b, loc, values, p);
    if (block.getArgument(rank).getType().isIndex()) // held as i64
      value = arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
    mapping.map(block.getArgument(rank), value);
    for (auto [arg, v] : llvm::zip(block.getArguments().drop_front(rank + 1),
                                   iters))
      mapping.map(arg, v);
    for (Operation &inner : block.without_terminator())
      b.clone(inner, mapping);
    SmallVector<Value> yielded;
    for (Value v : block.getTerminator()->getOperands())
      yielded.push_back(mapping.lookupOrDefault(v));
    return yielded;
  }

  sparse_tensor::ForeachOp op;
  Location loc;
  Value array;
  FormatAttr format;
  Value values, one;
  SmallVector<std::unique_ptr<LevelIterator>> iterators;
  SmallVector<Value> levelCoordinates;
};

} // namespace

FailureOr<ImportedForeach>
mlir::sparse_array::import::importForeach(OpBuilder &b,
                                          sparse_tensor::ForeachOp op,
                                          Value array) {
  return ForeachBuilder(op, array).build(b);
}
