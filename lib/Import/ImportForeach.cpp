//===- ImportForeach.cpp - sparse_tensor.foreach -> scf loops -------------===//
//
// sparse_tensor.foreach runs its body once per stored entry, in storage
// order, with the entry's dimension coordinates and value and the loop-
// carried values. Imported as a loop nest over the array's levels, each
// level read through its buffers (docs/storage.md): a level with positions
// loops over its parent's segment, a level with coordinates only (singleton)
// shares its parent's position, a level with neither (dense) loops over its
// size. The body is cloned into the innermost loop; the caller imports it.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

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
    auto held = [&](unsigned width) {
      return MemRefType::get({ShapedType::kDynamic}, b.getIntegerType(width));
    };
    auto arrayType = cast<ArrayType>(array.getType());
    values = ValuesOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic},
                                arrayType.getElementType()),
        array);
    for (unsigned l = 0; l < rank; ++l) {
      const LevelFormat *lf = format.getLevels()[l].format;
      positions.push_back(
          lf->hasPositionsBuffer()
              ? Value(PositionsOp::create(b, loc, held(format.getPosWidth()),
                                          array, l))
              : Value());
      coordinates.push_back(
          lf->hasCoordinatesBuffer()
              ? Value(CoordinatesOp::create(
                    b, loc, held(format.getCrdWidth()), array, l))
              : Value());
      sizes.push_back(DimOp::create(
          b, loc, array, static_cast<int64_t>(format.getLevelDim(l))));
    }
    levelCoordinates.assign(rank, Value());
    zero = arith::ConstantIndexOp::create(b, loc, 0);
    one = arith::ConstantIndexOp::create(b, loc, 1);
    ImportedForeach result;
    result.results = level(b, 0, zero, op.getInitArgs(), result.outermost);
    return result;
  }

private:
  Value asIndex(OpBuilder &b, Value v) {
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), v);
  }

  /// The loops of levels `l` and below under parent position `parent`,
  /// carrying `iters`; returns the values they yield. The first loop made
  /// is stored in `outermost`.
  SmallVector<Value> level(OpBuilder &b, unsigned l, Value parent,
                           ValueRange iters, Operation *&outermost) {
    if (l == format.getNumLevels())
      return body(b, parent, iters);
    Value lo, hi;
    if (Value pos = positions[l]) {
      // A segment of the parent's position.
      Value next = arith::AddIOp::create(b, loc, parent, one);
      lo = asIndex(b, memref::LoadOp::create(b, loc, pos, parent));
      hi = asIndex(b, memref::LoadOp::create(b, loc, pos, next));
    } else if (Value crd = coordinates[l]) {
      // One entry at the parent's position.
      levelCoordinates[l] =
          asIndex(b, memref::LoadOp::create(b, loc, crd, parent));
      return level(b, l + 1, parent, iters, outermost);
    } else {
      // Every coordinate, positions parent * size + i.
      lo = arith::MulIOp::create(b, loc, parent, sizes[l]);
      hi = arith::AddIOp::create(b, loc, lo, sizes[l]);
    }
    Value base = lo;
    auto loop = scf::ForOp::create(
        b, loc, lo, hi, one, iters,
        [&](OpBuilder &fb, Location, Value p, ValueRange inner) {
          levelCoordinates[l] =
              coordinates[l]
                  ? asIndex(fb, memref::LoadOp::create(fb, loc, coordinates[l],
                                                       p))
                  : Value(arith::SubIOp::create(fb, loc, p, base));
          Operation *unused = nullptr;
          scf::YieldOp::create(fb, loc, level(fb, l + 1, p, inner, unused));
        });
    if (!outermost)
      outermost = loop;
    return loop.getResults();
  }

  /// The body at position `p`: dimension coordinates, value, carried values.
  SmallVector<Value> body(OpBuilder &b, Value p, ValueRange iters) {
    Block &block = op.getRegion().front();
    IRMapping mapping;
    unsigned rank = format.getNumLevels();
    for (unsigned l = 0; l < rank; ++l)
      mapping.map(block.getArgument(format.getLevelDim(l)),
                  levelCoordinates[l]);
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
  Value values, zero, one;
  SmallVector<Value> positions, coordinates, sizes, levelCoordinates;
};

} // namespace

FailureOr<ImportedForeach>
mlir::sparse_array::import::importForeach(OpBuilder &b,
                                          sparse_tensor::ForeachOp op,
                                          Value array) {
  return ForeachBuilder(op, array).build(b);
}
