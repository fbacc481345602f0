//===- LowerExtract.cpp - sparse-array-lower-extract ----------------------===//
//
// One entry of an array at run-time coordinates (sparse_array.extract, the
// import of tensor.extract, issue 19): the point is found level by level
// through the level iterators (seed 001 §7.1.1: locate on levels with
// random access, search in the parent's segment otherwise — seed 002 §4.2's
// level functions), and a point the array does not store reads as its fill.
// A level whose coordinate is missing ends the search: the levels below are
// never read at a position that does not exist.
//
//===----------------------------------------------------------------------===//

#include "CodegenUtils.h"

#include "SparseArray/Conversion/LevelIterator.h"
#include "SparseArray/Conversion/Passes.h"
#include "SparseArray/Conversion/RuntimeCalls.h"
#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir {
namespace sparse_array {
#define GEN_PASS_DEF_SPARSEARRAYLOWEREXTRACTPASS
#include "SparseArray/Conversion/Passes.h.inc"
} // namespace sparse_array
} // namespace mlir

using namespace mlir;
using namespace mlir::sparse_array;

namespace {

/// Emits the search for one extract.
class PointReader {
public:
  PointReader(ExtractOp op, SmallVector<std::unique_ptr<LevelIterator>> its)
      : op(op), type(cast<ArrayType>(op.getSource().getType())),
        iterators(std::move(its)) {}

  /// The value at the op's coordinates: levels [l, rank) below the
  /// positions [lo, hi) of level l - 1 (the root: [0, 1)).
  Value read(OpBuilder &b, Location loc, unsigned l, Value lo, Value hi) {
    FormatAttr format = type.getFormat();
    if (l == iterators.size())
      return memref::LoadOp::create(b, loc, values(b, loc), lo);
    LevelIterator &it = *iterators[l];
    Value crd = op.getIndices()[format.getLevelDim(l)];
    if (it.canLocate()) {
      // One position per coordinate under the first parent (a non-unique
      // parent's run repeats one point: its first entry is the point's).
      // A locate that can miss (hashed) says whether it found the point.
      Value found;
      Value pos = it.locateAccess(b, loc, lo, crd, {}, found);
      Value next = arith::AddIOp::create(b, loc, pos, constIndex(b, loc, 1));
      if (!found)
        return read(b, loc, l + 1, pos, next);
      return readIf(b, loc, found, l + 1, pos, next);
    }
    auto [begin, end] = it.init(b, loc, lo, hi);
    LevelIterator::SearchResult found = it.search(b, loc, begin, end, crd);
    return readIf(b, loc, found.found, l + 1, found.first, found.last);
  }

  /// read(l, lo, hi) where `found` holds, else the fill.
  Value readIf(OpBuilder &b, Location loc, Value found, unsigned l, Value lo,
               Value hi) {
    auto branch = scf::IfOp::create(
        b, loc, found,
        [&](OpBuilder &tb, Location tl) {
          scf::YieldOp::create(tb, tl, read(tb, tl, l, lo, hi));
        },
        [&](OpBuilder &eb, Location el) {
          scf::YieldOp::create(
              eb, el, arith::ConstantOp::create(eb, el, type.getFillValue())
                          .getResult());
        });
    return branch.getResult(0);
  }

  /// Stops the program when a coordinate lies outside its dimension.
  void checkBounds(OpBuilder &b, Location loc) {
    std::string site = "sparse_array.extract at " + describeLocation(loc);
    for (auto [dim, index] : llvm::enumerate(op.getIndices())) {
      Value size = DimOp::create(b, loc, op.getSource(), dim);
      Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           index, size);
      auto check = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/true);
      OpBuilder eb = check.getElseBodyBuilder();
      Type i64 = eb.getI64Type();
      callRuntime(eb, loc, op, "sa_rt_index_error", {},
                  {stringPointer(eb, loc, op, site),
                   arith::ConstantIntOp::create(eb, loc, i64, dim),
                   arith::IndexCastOp::create(eb, loc, i64, index),
                   arith::IndexCastOp::create(eb, loc, i64, size)});
    }
  }

private:
  Value values(OpBuilder &b, Location loc) {
    auto flat =
        MemRefType::get({ShapedType::kDynamic}, type.getElementType());
    return ValuesOp::create(b, loc, flat, op.getSource());
  }

  ExtractOp op;
  ArrayType type;
  SmallVector<std::unique_ptr<LevelIterator>> iterators;
};

struct LowerExtract : OpRewritePattern<ExtractOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ExtractOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<ArrayType>(op.getSource().getType());
    ArrayRef<LevelSpec> levels = type.getFormat().getLevels();
    SmallVector<std::unique_ptr<LevelIterator>> iterators;
    for (unsigned l = 0; l < levels.size(); ++l) {
      LevelBuffers buffers =
          fetchLevelBuffers(rewriter, loc, op.getSource(), l);
      std::unique_ptr<LevelIterator> it =
          LevelIteratorRegistry::create(levels[l], buffers);
      if (!it)
        return op.emitOpError("level ")
               << l << " ('" << levels[l].format->getName()
               << "') has no iterator to find a coordinate with";
      iterators.push_back(std::move(it));
    }
    PointReader reader(op, std::move(iterators));
    reader.checkBounds(rewriter, loc);
    Value v = reader.read(rewriter, loc, 0, constIndex(rewriter, loc, 0),
                          constIndex(rewriter, loc, 1));
    rewriter.replaceOp(op, v);
    return success();
  }
};

struct LowerExtractPass
    : public sparse_array::impl::SparseArrayLowerExtractPassBase<
          LowerExtractPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateLowerExtractPatterns(patterns);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
    // A level without an iterator leaves its extract in place.
    WalkResult left = getOperation().walk([](ExtractOp) {
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

void mlir::sparse_array::populateLowerExtractPatterns(
    RewritePatternSet &patterns) {
  patterns.add<LowerExtract>(patterns.getContext());
}
