//===- ImportWindows.cpp - Convolution windows as offset slices -----------===//
//
// A linalg.generic that reads a coordinate as a sum of loops,
// I(s * i + d * k) (convolution and pooling maps such as (d0 + d2, d1 + d3)),
// reads, for each fixed value of the window loop k, the slice
// I[d * k : d * k + s * n : s] at loop i: seed 001 §5.1's offset combinator
// (a window of the stored input, iterated where it is stored; nothing is
// densified). The generic becomes one generic per tap of its window loops
// (static extents), in the order of the fold: tap t accumulates into the
// result of tap t - 1, starting from the output's initial value (the
// combiner's identity when the output is undefined, as a reduction over
// the window would start). Reduction loops that are not window loops stay
// in each tap's generic, which then folds from the previous tap's values
// (reduce_over ... from): the fold's order is the loop order, exactly.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::sparse_array;

namespace {

/// An affine expression as sum_v coeff[v] * d_v + constant.
struct LinearForm {
  SmallVector<int64_t> coeff;
  int64_t constant = 0;

  unsigned numDims() const {
    return llvm::count_if(coeff, [](int64_t c) { return c != 0; });
  }
};

bool addLinear(AffineExpr e, int64_t scale, LinearForm &out) {
  if (auto d = dyn_cast<AffineDimExpr>(e)) {
    out.coeff[d.getPosition()] += scale;
    return true;
  }
  if (auto c = dyn_cast<AffineConstantExpr>(e)) {
    out.constant += scale * c.getValue();
    return true;
  }
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return false;
  if (e.getKind() == AffineExprKind::Add)
    return addLinear(bin.getLHS(), scale, out) &&
           addLinear(bin.getRHS(), scale, out);
  if (e.getKind() == AffineExprKind::Mul) {
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
      return addLinear(bin.getLHS(), scale * c.getValue(), out);
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getLHS()))
      return addLinear(bin.getRHS(), scale * c.getValue(), out);
  }
  return false;
}

std::optional<LinearForm> linearForm(AffineExpr e, unsigned numDims) {
  LinearForm form;
  form.coeff.assign(numDims, 0);
  if (!addLinear(e, 1, form))
    return std::nullopt;
  return form;
}

std::string str(AffineExpr e) {
  std::string text;
  llvm::raw_string_ostream(text) << e;
  return text;
}

/// Whether some input of `op` reads a coordinate as a sum of loops.
bool readsWindows(linalg::GenericOp op) {
  for (OpOperand *in : op.getDpsInputOperands())
    for (AffineExpr e : op.getMatchingIndexingMap(in).getResults()) {
      std::optional<LinearForm> form = linearForm(e, op.getNumLoops());
      if (form && form->numDims() > 1)
        return true;
    }
  return false;
}

/// Whether `v` holds no defined values (the output of a reduction that
/// starts from the combiner's identity).
bool isUndefinedTensor(Value v) {
  if (v.getDefiningOp<tensor::EmptyOp>())
    return true;
  auto alloc = v.getDefiningOp<bufferization::AllocTensorOp>();
  return alloc && !alloc.getCopy();
}

class WindowUnroller {
public:
  explicit WindowUnroller(linalg::GenericOp op)
      : op(op), numLoops(op.getNumLoops()),
        iterators(op.getIteratorTypesArray()),
        ranges(op.getStaticLoopRanges()) {}

  LogicalResult run(RewriterBase &rewriter);

private:
  InFlightDiagnostic refuse() {
    return op.emitOpError("cannot be imported: ");
  }
  LogicalResult findWindowLoops();
  LogicalResult checkFoldOrder();
  /// The generic of tap `values` (one per window loop) accumulating into
  /// `acc`.
  Value buildTap(RewriterBase &rewriter, ArrayRef<int64_t> values, Value acc);

  linalg::GenericOp op;
  unsigned numLoops;
  SmallVector<utils::IteratorType> iterators;
  SmallVector<int64_t> ranges;
  /// The window loops, in loop order, and each loop's position among the
  /// loops that stay (-1 for window loops).
  SmallVector<unsigned> window;
  SmallVector<int> keptPosition;
};

LogicalResult WindowUnroller::findWindowLoops() {
  llvm::SmallBitVector isWindow(numLoops);
  for (OpOperand *in : op.getDpsInputOperands())
    for (AffineExpr e : op.getMatchingIndexingMap(in).getResults()) {
      std::optional<LinearForm> form = linearForm(e, numLoops);
      if (!form)
        return refuse() << "indexing map result " << str(e)
                        << " is not a sum of loops times constants";
      if (form->numDims() < 2)
        continue;
      // The reduction loops of a sum are the window's; a sum of parallel
      // loops only (a diagonal) is not a window.
      for (unsigned v = 0; v < numLoops; ++v)
        if (form->coeff[v] != 0 &&
            iterators[v] == utils::IteratorType::reduction)
          isWindow.set(v);
    }
  int64_t taps = 1;
  for (unsigned v : isWindow.set_bits()) {
    if (ShapedType::isDynamic(ranges[v]))
      return refuse() << "window loop d" << v
                      << " has an extent known only at run time";
    taps *= ranges[v];
    window.push_back(v);
  }
  constexpr int64_t kMaxTaps = 64;
  if (taps > kMaxTaps)
    return refuse() << "a window of " << taps << " taps (at most "
                    << kMaxTaps << " are unrolled)";
  keptPosition.assign(numLoops, -1);
  int next = 0;
  for (unsigned v = 0; v < numLoops; ++v)
    if (!isWindow.test(v))
      keptPosition[v] = next++;
  // Once the window loops are fixed, each coordinate is s * i + offset of
  // at most one loop i, with s > 0: a strided slice.
  for (OpOperand *in : op.getDpsInputOperands())
    for (AffineExpr e : op.getMatchingIndexingMap(in).getResults()) {
      LinearForm form = *linearForm(e, numLoops);
      unsigned kept = 0;
      for (unsigned v = 0; v < numLoops; ++v) {
        if (form.coeff[v] == 0 || isWindow.test(v))
          continue;
        ++kept;
        if (form.coeff[v] < 0)
          return refuse() << "indexing map result " << str(e)
                          << " reads loop d" << v << " in reverse";
      }
      if (kept > 1)
        return refuse() << "indexing map result " << str(e)
                        << " sums loops that are not window loops";
      for (unsigned w : window)
        if (form.coeff[w] < 0)
          return refuse() << "indexing map result " << str(e)
                          << " reads window loop d" << w << " in reverse";
    }
  return success();
}

LogicalResult WindowUnroller::checkFoldOrder() {
  // Taps run one after the other: the fold visits the window loops
  // outside the other reduction loops. Where the op nests a reduction
  // loop outside a window loop, the orders differ; an associative,
  // commutative combiner does not see it.
  Block &region = op.getRegion().front();
  Operation *combine =
      region.getTerminator()->getOperand(0).getDefiningOp();
  import::ScalarOpProperties p =
      combine ? import::getOpProperties(combine) : import::ScalarOpProperties();
  if (p.associative && p.commutative)
    return success();
  for (unsigned v = 0; v < numLoops; ++v)
    if (iterators[v] == utils::IteratorType::reduction && keptPosition[v] >= 0)
      for (unsigned w : window)
        if (v < w)
          return refuse() << "reduction loop d" << v
                          << " is nested outside window loop d" << w
                          << " and the fold is not associative: unrolling "
                             "the window would change its order";
  return success();
}

Value WindowUnroller::buildTap(RewriterBase &rewriter, ArrayRef<int64_t> values,
                               Value acc) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  unsigned numKept = numLoops - window.size();
  SmallVector<int64_t> tapValue(numLoops, 0);
  for (auto [w, value] : llvm::zip(window, values))
    tapValue[w] = value;

  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *in : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(in);
    Value source = in->get();
    auto type = dyn_cast<RankedTensorType>(source.getType());
    SmallVector<AffineExpr> results;
    SmallVector<int64_t> offsets, sizes, strides;
    bool sliced = false;
    for (auto [dim, e] : llvm::enumerate(map.getResults())) {
      LinearForm form = *linearForm(e, numLoops);
      int64_t offset = form.constant;
      std::optional<unsigned> loop;
      for (unsigned v = 0; v < numLoops; ++v) {
        if (form.coeff[v] == 0)
          continue;
        if (keptPosition[v] < 0)
          offset += form.coeff[v] * tapValue[v];
        else
          loop = v;
      }
      if (!loop) {
        // A fixed coordinate (the filter's tap): read there.
        results.push_back(getAffineConstantExpr(offset, ctx));
        offsets.push_back(0);
        sizes.push_back(type ? type.getDimSize(dim) : 1);
        strides.push_back(1);
        continue;
      }
      int64_t stride = form.coeff[*loop];
      results.push_back(getAffineDimExpr(keptPosition[*loop], ctx));
      int64_t size = ranges[*loop];
      offsets.push_back(offset);
      sizes.push_back(size);
      strides.push_back(stride);
      if (offset != 0 || stride != 1 || !type || size != type.getDimSize(dim))
        sliced = true;
    }
    if (sliced) {
      // The stored input's window at this tap, with the input's encoding.
      auto sliceType = RankedTensorType::get(sizes, type.getElementType(),
                                             type.getEncoding());
      source = tensor::ExtractSliceOp::create(
          rewriter, loc, sliceType, source, ValueRange{}, ValueRange{},
          ValueRange{}, rewriter.getDenseI64ArrayAttr(offsets),
          rewriter.getDenseI64ArrayAttr(sizes),
          rewriter.getDenseI64ArrayAttr(strides));
    }
    inputs.push_back(source);
    maps.push_back(AffineMap::get(numKept, 0, results, ctx));
  }
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<AffineExpr> outResults;
  for (AffineExpr e : outMap.getResults())
    outResults.push_back(getAffineDimExpr(
        keptPosition[cast<AffineDimExpr>(e).getPosition()], ctx));
  maps.push_back(AffineMap::get(numKept, 0, outResults, ctx));
  SmallVector<utils::IteratorType> keptIterators;
  for (unsigned v = 0; v < numLoops; ++v)
    if (keptPosition[v] >= 0)
      keptIterators.push_back(iterators[v]);

  auto tap = linalg::GenericOp::create(rewriter, loc, TypeRange{acc.getType()},
                                       inputs, ValueRange{acc}, maps,
                                       keptIterators);
  IRMapping mapping;
  op.getRegion().cloneInto(&tap.getRegion(), mapping);
  // linalg.index of a window loop is the tap's value; of another loop, its
  // new position.
  SmallVector<linalg::IndexOp> indices;
  tap.getRegion().walk([&](linalg::IndexOp index) { indices.push_back(index); });
  for (linalg::IndexOp index : indices) {
    rewriter.setInsertionPoint(index);
    unsigned v = index.getDim();
    Value replacement =
        keptPosition[v] < 0
            ? Value(arith::ConstantIndexOp::create(rewriter, index.getLoc(),
                                                   tapValue[v]))
            : Value(linalg::IndexOp::create(rewriter, index.getLoc(),
                                            keptPosition[v]));
    rewriter.replaceOp(index, replacement);
  }
  rewriter.setInsertionPointAfter(tap);
  return tap->getResult(0);
}

LogicalResult WindowUnroller::run(RewriterBase &rewriter) {
  if (op.getNumDpsInits() != 1 || op->getNumResults() != 1)
    return refuse() << "a window read with " << op.getNumDpsInits()
                    << " outputs (one is supported)";
  if (failed(findWindowLoops()) || failed(checkFoldOrder()))
    return failure();
  for (OpOperand *in : op.getDpsInputOperands()) {
    auto type = dyn_cast<RankedTensorType>(in->get().getType());
    if (type && !type.hasStaticShape())
      return refuse() << "a window read of an input whose shape is known "
                         "only at run time";
  }
  rewriter.setInsertionPoint(op);
  Value acc = op.getDpsInits()[0];
  if (isUndefinedTensor(acc)) {
    // The fold over the window would start from the combiner's identity.
    Block &region = op.getRegion().front();
    Operation *combine =
        region.getTerminator()->getOperand(0).getDefiningOp();
    import::ScalarOpProperties p =
        combine ? import::getOpProperties(combine)
                : import::ScalarOpProperties();
    if (!p.identity || !p.identityPositions.empty())
      return refuse() << "a window read into an undefined output whose "
                         "combiner has no identity to start from";
    Value identity = arith::ConstantOp::create(rewriter, op.getLoc(),
                                               p.identity);
    acc = linalg::FillOp::create(rewriter, op.getLoc(), ValueRange{identity},
                                 ValueRange{acc})
              ->getResult(0);
  }
  // A window of extent 0 has no taps: the fold is its start value.
  bool noTaps = llvm::any_of(window, [&](unsigned w) { return ranges[w] == 0; });
  SmallVector<int64_t> values(window.size(), 0);
  while (!noTaps) {
    acc = buildTap(rewriter, values, acc);
    // The next tap in the nested loops' order (the last loop fastest).
    int w = int(window.size()) - 1;
    for (; w >= 0; --w) {
      if (++values[w] < ranges[window[w]])
        break;
      values[w] = 0;
    }
    if (w < 0)
      break;
  }
  rewriter.replaceOp(op, acc);
  return success();
}

} // namespace

LogicalResult import::unrollWindows(ModuleOp module) {
  SmallVector<linalg::GenericOp> windowed;
  module.walk([&](linalg::GenericOp op) {
    if (readsWindows(op))
      windowed.push_back(op);
  });
  IRRewriter rewriter(module.getContext());
  for (linalg::GenericOp op : windowed)
    if (failed(WindowUnroller(op).run(rewriter)))
      return failure();
  return success();
}
