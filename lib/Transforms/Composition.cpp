//===- Composition.cpp - A producer's reads through its consumer's --------===//
//
// seed 001 §5.2: fusing a producer kernel into its consumer composes what
// the consumer reads of the producer (a variable, a slice, a window, a
// fixed coordinate, a split) with what the producer reads of its inputs.
//
//===----------------------------------------------------------------------===//

#include "Composition.h"

#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::sparse_array;

/// Whether `inner` (of the producer) reads an output dimension that the
/// consumer's padded `outer` access reads through a window.
static bool readsWindow(AccessOp inner, KernelOp producer, AccessOp outer) {
  if (!outer.getPadded())
    return false;
  unsigned producerRank = producer.getResultType().getRank();
  return llvm::any_of(inner.getIndices(), [&](Value index) {
    auto arg = dyn_cast<BlockArgument>(index);
    return arg && arg.getOwner() == &producer.getBody().front() &&
           arg.getArgNumber() < producerRank &&
           outer.isSliced(arg.getArgNumber());
  });
}

/// The producer's access `inner` in the fused kernel: where it reads a
/// producer output variable r, it now reads what the consumer's `outer`
/// access reads at dimension r — a fused variable, sliced or not, or a
/// constant coordinate — composed with its own slice there: coordinate
/// lo2 + step2 * (lo + step * x) is the slice (lo2 + step2 * lo, step2 *
/// step) of the same length (seed 001 §5.2: a slice of an expression
/// slices what the expression reads).
Value mlir::sparse_array::detail::composeAccess(PatternRewriter &rewriter,
                                                AccessOp inner,
                                                KernelOp producer,
                                                AccessOp outer,
                                                IRMapping &mapping) {
  Location loc = inner.getLoc();
  unsigned producerRank = producer.getResultType().getRank();
  SmallVector<Value> indices;
  SmallVector<int64_t> triples;
  // Per dimension, the coordinates a window reads ([0, -1): all).
  SmallVector<int64_t> bounds;
  bool anySliced = false, anyBound = false;
  auto recordBound = [&](unsigned dim,
                         std::optional<std::array<int64_t, 2>> bound) {
    if (!bound)
      return;
    anyBound = true;
    bounds[2 * dim] = (*bound)[0];
    bounds[2 * dim + 1] = (*bound)[1];
  };
  for (auto [dim, index] : llvm::enumerate(inner.getIndices())) {
    std::optional<std::array<int64_t, 3>> own;
    if (inner.isSliced(dim))
      own = inner.getSlice(dim);
    std::optional<std::array<int64_t, 2>> bound = inner.getBound(dim);
    bounds.append({0, -1});
    if (auto lin = index.getDefiningOp<LinearizeOp>()) {
      // A split read of the producer's: its variables are the consumer's
      // at those dimensions (plain variables: see composable()).
      SmallVector<Value> vars;
      for (Value v : lin.getIndices()) {
        unsigned r = cast<BlockArgument>(v).getArgNumber();
        vars.push_back(r < producerRank ? mapping.lookup(outer.getIndices()[r])
                                        : mapping.lookup(v));
      }
      indices.push_back(
          LinearizeOp::create(rewriter, loc, vars, lin.getSizesAttr()));
      triples.append({0, -1, 0});
      continue;
    }
    auto arg = dyn_cast<BlockArgument>(index);
    bool outputVar = arg && arg.getOwner() == &producer.getBody().front() &&
                     arg.getArgNumber() < producerRank;
    if (!outputVar) {
      indices.push_back(mapping.lookupOrDefault(index));
      triples.append(own ? SmallVector<int64_t>{(*own)[0], (*own)[1], (*own)[2]}
                         : SmallVector<int64_t>{0, -1, 0});
      anySliced |= own.has_value();
      recordBound(dim, bound);
      continue;
    }
    unsigned r = arg.getArgNumber();
    Value outerIndex = outer.getIndices()[r];
    if (auto lin = outerIndex.getDefiningOp<LinearizeOp>()) {
      // The consumer splits this producer dimension: so does the fused
      // read (unsliced there: see composable()).
      SmallVector<Value> vars = llvm::map_to_vector(
          lin.getIndices(), [&](Value v) { return mapping.lookup(v); });
      indices.push_back(
          LinearizeOp::create(rewriter, loc, vars, lin.getSizesAttr()));
      triples.append({0, -1, 0});
      continue;
    }
    if (std::optional<int64_t> c = getConstantIndex(outerIndex)) {
      int64_t at = own ? (*own)[0] + (*own)[2] * *c : *c;
      // Outside a padded window (or the slice a window is over): the
      // input's fill, nothing read.
      int64_t size = inner.getArrayType().getShape()[dim];
      bool outside =
          (inner.getPadded() && !ShapedType::isDynamic(size) &&
           (at < 0 || at >= size)) ||
          (bound && (at < (*bound)[0] || at >= (*bound)[1])) ||
          (outer.getPadded() && own &&
           (*c < 0 || *c >= sliceLength((*own)[0], (*own)[1], (*own)[2])));
      if (outside)
        return arith::ConstantOp::create(rewriter, loc,
                                         inner.getArrayType().getFillValue());
      indices.push_back(arith::ConstantIndexOp::create(rewriter, loc, at));
      triples.append({0, -1, 0});
      continue;
    }
    indices.push_back(mapping.lookup(outerIndex));
    std::optional<std::array<int64_t, 3>> theirs;
    if (outer.isSliced(r))
      theirs = outer.getSlice(r);
    std::optional<std::array<int64_t, 3>> composed = own ? own : theirs;
    if (own && theirs) {
      auto [lo2, hi2, step2] = *own;
      auto [lo, hi, step] = *theirs;
      int64_t count = sliceLength(lo, hi, step);
      int64_t first = lo2 + step2 * lo, stride = step2 * step;
      // Either may count down: the stop is one past the last coordinate
      // in the direction of the composed stride. An empty slice reads
      // nothing: (0:0), wherever it would start.
      int64_t last = first + stride * (count - 1);
      composed =
          count
              ? std::array<int64_t, 3>{first, stride > 0 ? last + 1 : last - 1,
                                       stride}
              : std::array<int64_t, 3>{0, 0, 1};
      // Through a window, x may reach outside [0, |own|): coordinates of
      // the array outside own's range are not the producer's (seed 001
      // §5.2: slice(slice(a, own), window)). The window reads only that
      // range (within any bound the producer's read already had).
      int64_t ownCount = sliceLength(lo2, hi2, step2);
      int64_t ownLast = lo2 + step2 * (ownCount - 1);
      if (outer.getPadded() && count &&
          (lo < 0 || lo + step * (count - 1) < 0 || lo >= ownCount ||
           lo + step * (count - 1) >= ownCount)) {
        // Within the dimension (a padded own slice may reach outside it;
        // a plain one on a dimension known only at run time lies within
        // it, see composable()) and any bound the producer's read had.
        int64_t from = std::max<int64_t>(std::min(lo2, ownLast), 0);
        int64_t to = std::max(lo2, ownLast) + 1;
        int64_t size = inner.getArrayType().getShape()[dim];
        if (!ShapedType::isDynamic(size))
          to = std::min(to, size);
        if (bound) {
          from = std::max(from, (*bound)[0]);
          to = std::min(to, (*bound)[1]);
        }
        bound = ownCount && from < to ? std::array<int64_t, 2>{from, to}
                                      : std::array<int64_t, 2>{0, 0};
      }
    }
    recordBound(dim, bound);
    if (composed) {
      anySliced = true;
      triples.append({(*composed)[0], (*composed)[1], (*composed)[2]});
    } else {
      triples.append({0, -1, 0});
    }
  }
  auto composed = AccessOp::create(
      rewriter, loc, mapping.lookup(inner.getArray()), indices,
      rewriter.getDenseI64ArrayAttr(anySliced ? ArrayRef<int64_t>(triples)
                                              : ArrayRef<int64_t>()));
  // A window stays a window (its coordinates may reach outside), and a
  // read of a dimension the consumer reads through a window (a
  // concatenation's part) becomes one: outside the part's range the
  // producer's inputs are absent (composable() makes such reads plain).
  composed.setPadded(inner.getPadded() || readsWindow(inner, producer, outer));
  if (anyBound)
    composed.setBoundsAttr(rewriter.getDenseI64ArrayAttr(bounds));
  return composed;
}

/// The producer's select_range in the fused kernel: its coordinate is what
/// the consumer reads of that producer dimension. Through a slice (lo +
/// step * x) a bound b becomes the number of x below it, ceil((b - lo) /
/// step) (at least 0); at a fixed coordinate the part is known.
Value mlir::sparse_array::detail::composeSelect(PatternRewriter &rewriter,
                                                SelectRangeOp select,
                                                KernelOp producer,
                                                AccessOp outer,
                                                IRMapping &mapping) {
  unsigned r = cast<BlockArgument>(select.getIndex()).getArgNumber();
  ArrayRef<int64_t> bounds = select.getBounds();
  // A concatenation the producer reduces over (a fused reduction of it,
  // fused again): its index is one of the fused kernel's own, not a
  // coordinate the consumer reads.
  if (r >= outer.getIndices().size()) {
    auto mapped = [&](ValueRange vs) {
      return llvm::map_to_vector(vs, [&](Value v) { return mapping.lookup(v); });
    };
    return SelectRangeOp::create(rewriter, select.getLoc(),
                                 select.getResult().getType(),
                                 mapping.lookup(select.getIndex()),
                                 select.getBoundsAttr(), mapped(select.getParts()),
                                 select.getRangedAttr(), mapped(select.getRanges()));
  }
  Value outerIndex = outer.getIndices()[r];
  if (std::optional<int64_t> c = getConstantIndex(outerIndex)) {
    unsigned p = llvm::count_if(bounds, [&](int64_t b) { return b <= *c; });
    return mapping.lookup(select.getParts()[p]);
  }
  SmallVector<int64_t> mapped(bounds);
  SmallVector<Value> parts = llvm::map_to_vector(
      select.getParts(), [&](Value v) { return mapping.lookup(v); });
  // Range markers follow their parts (numbered from the end once the
  // parts are reversed).
  SmallVector<int64_t> ranged(select.getRanged().value_or(ArrayRef<int64_t>{}));
  SmallVector<Value> ranges = llvm::map_to_vector(
      select.getRanges(), [&](Value v) { return mapping.lookup(v); });
  if (outer.isSliced(r)) {
    auto [lo, hi, step] = outer.getSlice(r);
    if (step > 0) {
      for (int64_t &b : mapped)
        b = b <= lo ? 0 : (b - lo + step - 1) / step;
    } else {
      // Counting down, x reads lo - |step| * x: the parts come in reverse
      // order, and coordinates at or above a bound b are the x with
      // lo - |step| * x >= b, i.e. x < floor((lo - b) / |step|) + 1.
      for (int64_t &b : mapped)
        b = b > lo ? 0 : (lo - b) / -step + 1;
      std::reverse(mapped.begin(), mapped.end());
      std::reverse(parts.begin(), parts.end());
      for (int64_t &p : ranged)
        p = int64_t(parts.size()) - 1 - p;
      std::reverse(ranged.begin(), ranged.end());
      std::reverse(ranges.begin(), ranges.end());
    }
  }
  return SelectRangeOp::create(
      rewriter, select.getLoc(), select.getResult().getType(),
      mapping.lookup(outerIndex), rewriter.getDenseI64ArrayAttr(mapped), parts,
      ranged.empty() ? DenseI64ArrayAttr()
                     : rewriter.getDenseI64ArrayAttr(ranged),
      ranges);
}
