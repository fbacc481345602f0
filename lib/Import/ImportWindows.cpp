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
// Windows whose extents or inputs' sizes are known only at run time, or
// with more taps than are unrolled, loop over the taps instead (scf.for,
// the output carried): each tap's slices then have run-time offsets
// (sparse_array.dynamic_slice).
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
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
  /// The generic of tap `values` (one per window loop, constants or loop
  /// variables) accumulating into `acc`.
  Value buildTap(RewriterBase &rewriter, ArrayRef<OpFoldResult> values,
                 Value acc);
  /// Every tap in turn, unrolled (static extents) or in loops.
  Value unrollTaps(RewriterBase &rewriter, Value acc);
  Value loopTaps(RewriterBase &rewriter, Value acc);

  linalg::GenericOp op;
  unsigned numLoops;
  SmallVector<utils::IteratorType> iterators;
  SmallVector<int64_t> ranges;
  /// Each loop's extent (constants where static), made before the taps.
  SmallVector<OpFoldResult> extents;
  /// The taps run in loops (a run-time extent or input size, or more taps
  /// than are unrolled).
  bool looped = false;
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
  // Taps run one after the other: the fold visits the tap loops outside
  // the other reduction loops. A reduction loop the op nests outside a
  // window loop then becomes a tap loop too (its coordinate fixed per tap),
  // unless the combiner is associative and commutative (the order is not
  // seen): the fold keeps the op's loop order, exactly.
  Block &region = op.getRegion().front();
  Operation *combine = region.getTerminator()->getOperand(0).getDefiningOp();
  import::ScalarOpProperties p =
      combine ? import::getOpProperties(combine) : import::ScalarOpProperties();
  if (!(p.associative && p.commutative) && isWindow.any()) {
    int last = isWindow.find_last();
    for (int v = 0; v < last; ++v)
      if (iterators[v] == utils::IteratorType::reduction)
        isWindow.set(v);
  }
  int64_t taps = 1;
  for (unsigned v : isWindow.set_bits()) {
    if (ShapedType::isDynamic(ranges[v]))
      looped = true;
    else
      taps *= ranges[v];
    window.push_back(v);
  }
  constexpr int64_t kMaxTaps = 64;
  for (OpOperand *in : op.getDpsInputOperands()) {
    auto type = dyn_cast<RankedTensorType>(in->get().getType());
    looped |= type && !type.hasStaticShape();
  }
  looped |= taps > kMaxTaps;
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

Value WindowUnroller::buildTap(RewriterBase &rewriter,
                               ArrayRef<OpFoldResult> values, Value acc) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  unsigned numKept = numLoops - window.size();
  SmallVector<OpFoldResult> tapValue(numLoops, rewriter.getIndexAttr(0));
  for (auto [w, value] : llvm::zip(window, values))
    tapValue[w] = value;
  // c0 + sum coeff * value: folded while every term is a constant.
  auto offsetOf = [&](const LinearForm &form) -> OpFoldResult {
    int64_t constant = form.constant;
    Value dynamic;
    for (unsigned v = 0; v < numLoops; ++v) {
      if (form.coeff[v] == 0 || keptPosition[v] >= 0)
        continue;
      if (std::optional<int64_t> c = getConstantIntValue(tapValue[v])) {
        constant += form.coeff[v] * *c;
        continue;
      }
      Value term = cast<Value>(tapValue[v]);
      if (form.coeff[v] != 1)
        term = arith::MulIOp::create(
            rewriter, loc, term,
            arith::ConstantIndexOp::create(rewriter, loc, form.coeff[v]));
      dynamic = dynamic ? Value(arith::AddIOp::create(rewriter, loc, dynamic,
                                                      term))
                        : term;
    }
    if (!dynamic)
      return rewriter.getIndexAttr(constant);
    if (constant == 0)
      return dynamic;
    return arith::AddIOp::create(
               rewriter, loc, dynamic,
               arith::ConstantIndexOp::create(rewriter, loc, constant))
        .getResult();
  };
  auto isConstant = [](OpFoldResult v, int64_t c) {
    std::optional<int64_t> k = getConstantIntValue(v);
    return k && *k == c;
  };

  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *in : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(in);
    Value source = in->get();
    auto type = dyn_cast<RankedTensorType>(source.getType());
    SmallVector<AffineExpr> results;
    SmallVector<OpFoldResult> offsets, sizes, strides;
    bool sliced = false;
    for (auto [dim, e] : llvm::enumerate(map.getResults())) {
      LinearForm form = *linearForm(e, numLoops);
      OpFoldResult offset = offsetOf(form);
      std::optional<unsigned> loop;
      for (unsigned v = 0; v < numLoops; ++v)
        if (form.coeff[v] != 0 && keptPosition[v] >= 0)
          loop = v;
      if (!loop) {
        // A fixed coordinate (the filter's tap): read there, or, known at
        // run time only, through a one-coordinate slice.
        if (std::optional<int64_t> c = getConstantIntValue(offset)) {
          results.push_back(getAffineConstantExpr(*c, ctx));
          offsets.push_back(rewriter.getIndexAttr(0));
          sizes.push_back(
              type ? tensor::getMixedSize(rewriter, loc, source, dim)
                   : OpFoldResult(rewriter.getIndexAttr(1)));
        } else {
          results.push_back(getAffineConstantExpr(0, ctx));
          offsets.push_back(offset);
          sizes.push_back(rewriter.getIndexAttr(1));
          sliced = true;
        }
        strides.push_back(rewriter.getIndexAttr(1));
        continue;
      }
      int64_t stride = form.coeff[*loop];
      results.push_back(getAffineDimExpr(keptPosition[*loop], ctx));
      OpFoldResult size = extents[*loop];
      offsets.push_back(offset);
      sizes.push_back(size);
      strides.push_back(rewriter.getIndexAttr(stride));
      if (!isConstant(offset, 0) || stride != 1 || !type ||
          !isConstant(size, type.getDimSize(dim)))
        sliced = true;
    }
    if (sliced) {
      // The stored input's window at this tap, with the input's encoding.
      SmallVector<int64_t> shape;
      for (OpFoldResult size : sizes)
        shape.push_back(
            getConstantIntValue(size).value_or(ShapedType::kDynamic));
      auto sliceType = RankedTensorType::get(shape, type.getElementType(),
                                             type.getEncoding());
      source = tensor::ExtractSliceOp::create(rewriter, loc, sliceType, source,
                                              offsets, sizes, strides);
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
            ? getValueOrCreateConstantIndexOp(rewriter, index.getLoc(),
                                              tapValue[v])
            : Value(linalg::IndexOp::create(rewriter, index.getLoc(),
                                            keptPosition[v]));
    rewriter.replaceOp(index, replacement);
  }
  rewriter.setInsertionPointAfter(tap);
  return tap->getResult(0);
}

Value WindowUnroller::unrollTaps(RewriterBase &rewriter, Value acc) {
  // A window of extent 0 has no taps: the fold is its start value.
  bool noTaps = llvm::any_of(window, [&](unsigned w) { return ranges[w] == 0; });
  SmallVector<int64_t> values(window.size(), 0);
  while (!noTaps) {
    SmallVector<OpFoldResult> tap;
    for (int64_t v : values)
      tap.push_back(rewriter.getIndexAttr(v));
    acc = buildTap(rewriter, tap, acc);
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
  return acc;
}

Value WindowUnroller::loopTaps(RewriterBase &rewriter, Value acc) {
  // One loop per window loop, in their order, carrying the output.
  Location loc = op.getLoc();
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  SmallVector<scf::ForOp> loops;
  SmallVector<OpFoldResult> tap;
  for (unsigned w : window) {
    Value extent = getValueOrCreateConstantIndexOp(rewriter, loc, extents[w]);
    auto loop = scf::ForOp::create(rewriter, loc, zero, extent, one,
                                   ValueRange{acc});
    rewriter.setInsertionPointToStart(loop.getBody());
    tap.push_back(loop.getInductionVar());
    acc = loop.getRegionIterArgs()[0];
    loops.push_back(loop);
  }
  Value result = buildTap(rewriter, tap, acc);
  for (scf::ForOp loop : llvm::reverse(loops)) {
    rewriter.setInsertionPointToEnd(loop.getBody());
    scf::YieldOp::create(rewriter, loc, result);
    result = loop.getResult(0);
  }
  rewriter.setInsertionPointAfter(loops.front());
  return result;
}

LogicalResult WindowUnroller::run(RewriterBase &rewriter) {
  if (op.getNumDpsInits() != 1 || op->getNumResults() != 1)
    return refuse() << "a window read with " << op.getNumDpsInits()
                    << " outputs (one is supported)";
  if (failed(findWindowLoops()))
    return failure();
  rewriter.setInsertionPoint(op);
  for (Range r : cast<linalg::LinalgOp>(op.getOperation())
                     .createLoopRanges(rewriter, op.getLoc()))
    extents.push_back(r.size);
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
  acc = looped ? loopTaps(rewriter, acc) : unrollTaps(rewriter, acc);
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
