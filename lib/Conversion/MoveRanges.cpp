//===- MoveRanges.cpp - slice and concat as copies of stored ranges -------===//
//
// A slice or a concatenation that computes nothing (StoredRanges.cpp says
// when) keeps the source's stored entries in their order: per parent
// position of the level storing the cut dimension (the levels above are
// full, so the parents are alike in every part and in the result), the
// result's entries are one range of each part's positions (seed 002 §3.1:
// a range of positions owns a range at every lower level). So the result
// is written a range at a time: coordinates copied (shifted at the cut
// level), positions shifted, values copied, each a plain counted loop that
// the C compiler vectorizes — the bulk copies seed 001 §8.3 found missing
// from its generated vstack. Results store no entry equal to their fill
// (docs/storage.md): the copy of the values counts such entries (a
// vectorized reduction), and only an input assembled with explicit fills
// makes the result go through sparse_array.change_fill to the same fill
// afterwards, which drops them.
//
// A concatenation with stored levels above the cut (DCSR, COO hstack)
// merges them by coordinate first (MergedConcat); each merged parent then
// gets the parts' ranges as above.
//
// Ranges come from the level iterators (init of a parent segment, search
// for a coordinate on ordered levels); no format is special-cased.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Conversion/LevelIterator.h"
#include "SparseArray/Conversion/Passes.h"
#include "SparseArray/Dialect/LevelFormat.h"
#include "SparseArray/Dialect/SparseArray.h"

#include "CodegenUtils.h"
#include "OutputAssembler.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

using namespace mlir;
using namespace mlir::sparse_array;

namespace {

/// A counted loop [0, n) whose body gets the induction variable.
void forEach(OpBuilder &b, Location loc, Value n,
             function_ref<void(OpBuilder &, Value)> body) {
  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  auto loop = scf::ForOp::create(b, loc, zero, n, one);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  body(b, loop.getInductionVar());
}

/// One array read a range at a time: its level iterators and buffers.
struct RangeSource {
  RangeSource(OpBuilder &b, Location loc, Value array) : array(array) {
    auto type = cast<ArrayType>(array.getType());
    FormatAttr format = type.getFormat();
    for (unsigned l = 0; l < format.getNumLevels(); ++l) {
      buffers.push_back(fetchLevelBuffers(b, loc, array, l));
      its.push_back(
          LevelIteratorRegistry::create(format.getLevels()[l], buffers.back()));
    }
    values = ValuesOp::create(b, loc, bufferOf(type.getElementType()), array);
  }
  bool complete() const {
    return llvm::all_of(its, [](auto &it) { return it != nullptr; });
  }
  unsigned numLevels() const { return its.size(); }

  /// The number of positions of level l under parent positions [0, count).
  Value positionsBelow(OpBuilder &b, Location loc, unsigned l, Value count) {
    return its[l]->init(b, loc, constIndex(b, loc, 0), count).second;
  }

  Value array;
  SmallVector<LevelBuffers> buffers;
  SmallVector<std::unique_ptr<LevelIterator>> its;
  Value values;
};

/// The result's buffers, written range after range; `cursor[l]` is the
/// next position of level l (carried through the loop over parents).
struct RangeSink {
  /// Buffers per level (null where the format has none), and the values.
  SmallVector<Value> positions, coordinates;
  Value values;
  /// The level whose coordinates are shifted (the cut dimension's).
  unsigned cutLevel = 0;
  /// The result's fill, when stored values equal to it are counted (the
  /// last level is not full); the count is the cursors' last entry.
  TypedAttr countedFill;
  /// Copies of at least this many elements (> 0) run on threads.
  int64_t parallelCopyMin = 0;

  /// Copies the positions [lo, hi) of level l of `src`, and everything
  /// below them, to the cursors `cursor[l..]`; the coordinates of the cut
  /// level get `shift` added. Returns the cursors after the range.
  SmallVector<Value> copy(OpBuilder &b, Location loc, RangeSource &src,
                          unsigned l, Value lo, Value hi, ValueRange cursor,
                          Value shift) {
    unsigned last = src.numLevels() - 1;
    Value n = arith::SubIOp::create(b, loc, hi, lo);
    Value at = cursor[l];
    Value srcCrd = src.buffers[l].coordinates;
    SmallVector<Value> next(cursor);
    // Coordinates, and the values on the last level (counting those equal
    // to the fill), in one loop.
    bool count = l == last && countedFill;
    if (srcCrd || l == last) {
      // One entry t: coordinates moved (at the cut level), the value
      // copied; returns whether it equals the fill (when counted).
      auto moveCoordinate = [&](OpBuilder &lb, Value from, Value to) {
        Value c = memref::LoadOp::create(lb, loc, srcCrd, ValueRange{from});
        if (l == cutLevel)
          c = arith::AddIOp::create(
              lb, loc, c,
              arith::IndexCastOp::create(lb, loc, c.getType(), shift));
        memref::StoreOp::create(lb, loc, c, coordinates[l], ValueRange{to});
      };
      auto body = [&](OpBuilder &lb, Value t) -> Value {
        Value from = arith::AddIOp::create(lb, loc, lo, t);
        Value to = arith::AddIOp::create(lb, loc, at, t);
        if (srcCrd)
          moveCoordinate(lb, from, to);
        if (l != last)
          return Value();
        Value v = memref::LoadOp::create(lb, loc, src.values, ValueRange{from});
        memref::StoreOp::create(lb, loc, v, values, ValueRange{to});
        if (!count)
          return Value();
        return arith::IndexCastUIOp::create(
            lb, loc, lb.getIndexType(),
            arith::XOrIOp::create(lb, loc, differsFrom(lb, loc, v, countedFill),
                                  arith::ConstantIntOp::create(lb, loc, 1, 1)));
      };
      Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
      if (!count) {
        forEach(b, loc, n, [&](OpBuilder &lb, Value t) { body(lb, t); });
      } else {
        // Counted over [first, stop), from `fills`.
        auto countLoop = [&](OpBuilder &lb, Value first, Value stop,
                             Value fills) {
          auto loop = scf::ForOp::create(lb, loc, first, stop, one,
                                         ValueRange{fills});
          OpBuilder::InsertionGuard inner(lb);
          lb.setInsertionPointToStart(loop.getBody());
          Value sum = arith::AddIOp::create(lb, loc, loop.getRegionIterArgs()[0],
                                            body(lb, loop.getInductionVar()));
          scf::YieldOp::create(lb, loc, sum);
          return loop.getResult(0);
        };
        // Long ranges as plain copies (the coordinates' a memcpy, or a
        // vectorized add when shifted) and the values copied and counted
        // in blocks from L1 (copyRangeCountingFills). Short ones (rows) in
        // one loop, without the blocks' overhead.
        // A range long enough to copy on threads is long.
        int64_t longer = 4096;
        if (parallelCopyMin > 0)
          longer = std::min(longer, parallelCopyMin - 1);
        Value isLong = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                             n, constIndex(b, loc, longer));
        auto branch = scf::IfOp::create(
            b, loc, isLong,
            [&](OpBuilder &tb, Location l2) {
              // Unshifted coordinates are a bulk copy (memcpy).
              if (srcCrd && l != cutLevel)
                sparse_array::detail::copyRange(
                    tb, l2, srcCrd, lo, coordinates[l], at, n, parallelCopyMin);
              else if (srcCrd)
                forEach(tb, l2, n, [&](OpBuilder &lb, Value t) {
                  moveCoordinate(lb, arith::AddIOp::create(lb, l2, lo, t),
                                 arith::AddIOp::create(lb, l2, at, t));
                });
              scf::YieldOp::create(tb, l2,
                                   sparse_array::detail::copyRangeCountingFills(
                                       tb, l2, src.values, lo, values, at, n,
                                       countedFill, cursor.back(),
                                       parallelCopyMin));
            },
            [&](OpBuilder &eb, Location l2) {
              scf::YieldOp::create(eb, l2,
                                   countLoop(eb, zero, n, cursor.back()));
            });
        next.back() = branch.getResult(0);
      }
    }
    next[l] = arith::AddIOp::create(b, loc, at, n);
    if (l == last)
      return next;
    // The children of [lo, hi): their positions, each moved by the
    // distance between where they start in the source and in the result.
    auto [childLo, childHi] = src.its[l + 1]->init(b, loc, lo, hi);
    if (Value srcPos = src.buffers[l + 1].positions) {
      Type t = cast<MemRefType>(srcPos.getType()).getElementType();
      Value delta = arith::IndexCastOp::create(
          b, loc, t, arith::SubIOp::create(b, loc, cursor[l + 1], childLo));
      Value one = constIndex(b, loc, 1);
      Value from0 = arith::AddIOp::create(b, loc, lo, one);
      Value to0 = arith::AddIOp::create(b, loc, at, one);
      forEach(b, loc, n, [&](OpBuilder &lb, Value t) {
        Value p = memref::LoadOp::create(
            lb, loc, srcPos,
            ValueRange{arith::AddIOp::create(lb, loc, from0, t)});
        memref::StoreOp::create(
            lb, loc, arith::AddIOp::create(lb, loc, p, delta), positions[l + 1],
            ValueRange{arith::AddIOp::create(lb, loc, to0, t)});
      });
    }
    return copy(b, loc, src, l + 1, childLo, childHi, next, shift);
  }
  /// Whether every level of `src` below l holds one position per parent and
  /// no positions (branchless, as COO's singletons): a position of level l
  /// is then one entry, its coordinates and value at the same offset of
  /// each lower level, and a run of l copies entry by entry (copyRun).
  static bool copiesEntries(RangeSource &src, unsigned l) {
    for (unsigned j = l + 1; j < src.numLevels(); ++j) {
      const LevelSpec &spec = src.its[j]->getSpec();
      if (!spec.isBranchless() || spec.format->hasPositionsBuffer() ||
          !src.buffers[j].coordinates)
        return false;
    }
    return src.buffers[l].coordinates != nullptr;
  }

  /// The run of level l's positions from `first` (< end) whose coordinate
  /// is `x`, and the entries below them (copiesEntries): one loop that
  /// copies an entry and reads the next coordinate to decide whether the
  /// run goes on. A separate scan for the run's end and a copy loop per
  /// buffer cost four loop exits per run; runs of a merged concatenation
  /// are rows of a few entries (COO hstack). Returns the cursors after the
  /// run and the run's end.
  std::pair<SmallVector<Value>, Value> copyRun(OpBuilder &b, Location loc,
                                               RangeSource &src, unsigned l,
                                               Value first, Value end, Value x,
                                               ValueRange cursor, Value shift) {
    unsigned last = src.numLevels() - 1;
    Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
    // Position of the run's first entry at each level (one child each).
    SmallVector<Value> base(last + 1);
    base[l] = first;
    for (unsigned j = l + 1; j <= last; ++j)
      base[j] = src.its[j]
                    ->init(b, loc, base[j - 1],
                           arith::AddIOp::create(b, loc, base[j - 1], one))
                    .first;
    SmallVector<Value> init{zero};
    if (countedFill)
      init.push_back(cursor.back());
    SmallVector<Type> types(init.size(), b.getIndexType());
    auto loop = scf::WhileOp::create(
        b, loc, types, init,
        [&](OpBuilder &lb, Location l2, ValueRange args) {
          Value t = args[0];
          for (unsigned j = l; j <= last; ++j) {
            Value from = arith::AddIOp::create(lb, l2, base[j], t);
            Value c = memref::LoadOp::create(lb, l2, src.buffers[j].coordinates,
                                             ValueRange{from});
            if (j == cutLevel)
              c = arith::AddIOp::create(
                  lb, l2, c,
                  arith::IndexCastOp::create(lb, l2, c.getType(), shift));
            memref::StoreOp::create(
                lb, l2, c, coordinates[j],
                ValueRange{arith::AddIOp::create(lb, l2, cursor[j], t)});
          }
          Value v = memref::LoadOp::create(
              lb, l2, src.values,
              ValueRange{arith::AddIOp::create(lb, l2, base[last], t)});
          memref::StoreOp::create(
              lb, l2, v, values,
              ValueRange{arith::AddIOp::create(lb, l2, cursor[last], t)});
          SmallVector<Value> next{arith::AddIOp::create(lb, l2, t, one)};
          if (countedFill)
            next.push_back(arith::AddIOp::create(
                lb, l2, args[1],
                arith::IndexCastUIOp::create(
                    lb, l2, lb.getIndexType(),
                    arith::XOrIOp::create(
                        lb, l2, differsFrom(lb, l2, v, countedFill),
                        arith::ConstantIntOp::create(lb, l2, 1, 1)))));
          Value more = src.its[l]->matches(
              lb, l2, Value(), arith::AddIOp::create(lb, l2, first, next[0]),
              end, x);
          scf::ConditionOp::create(lb, l2, more, next);
        },
        [&](OpBuilder &lb, Location l2, ValueRange args) {
          scf::YieldOp::create(lb, l2, args);
        });
    Value n = loop.getResult(0);
    SmallVector<Value> c(cursor);
    for (unsigned j = l; j <= last; ++j)
      c[j] = arith::AddIOp::create(b, loc, cursor[j], n);
    if (countedFill)
      c.back() = loop.getResult(1);
    return {c, arith::AddIOp::create(b, loc, first, n)};
  }
};

/// What a concatenation or a slice writes: ranges of the cut level (and
/// below), and the levels above when a concatenation merges them.
struct RangeMove {
  ArrayType resultType;
  unsigned cut;
  /// The first level the move writes: the cut when the levels above are
  /// full, 0 when they are merged.
  unsigned first = 0;
  /// The number of parents of level `first`.
  Value firstParents;
  /// Per level of the result: its buffers' capacity (positions, then
  /// coordinates; values: the last level's).
  SmallVector<Value> posCapacity, crdCapacity;
  /// Whether the capacities are what will be written (no shrinking).
  bool exact = false;
  /// Writes every range, from the cursors of all levels (and the count of
  /// stored fills, last); returns them after.
  std::function<SmallVector<Value>(OpBuilder &, RangeSink &, ValueRange)> emit;
};

/// The loop over the parents [first, last) of level `cut` when the levels
/// above are full: `body` writes one parent's ranges, the cut level's
/// positions follow each parent.
SmallVector<Value> emitParentLoop(
    OpBuilder &b, Location loc, RangeSink &sink, ValueRange cursor,
    unsigned cut, Value first, Value last,
    function_ref<SmallVector<Value>(OpBuilder &, Value, ValueRange)> body) {
  Value one = constIndex(b, loc, 1);
  auto loop =
      scf::ForOp::create(b, loc, first, last, one, cursor.drop_front(cut));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value r = loop.getInductionVar();
  SmallVector<Value> c(cursor.take_front(cut));
  llvm::append_range(c, loop.getRegionIterArgs());
  c = body(b, r, c);
  if (Value pos = sink.positions[cut])
    storeIndex(b, loc, c[cut], pos, arith::AddIOp::create(b, loc, r, one));
  scf::YieldOp::create(b, loc, ArrayRef(c).drop_front(cut));
  SmallVector<Value> out(cursor.take_front(cut));
  llvm::append_range(out, loop.getResults());
  return out;
}

/// Allocates the result's buffers from level `first` on, writes them
/// (`move.emit`), shrinks them to what was written and assembles the
/// result with dimension sizes `dims`.
Value emitRangeMove(OpBuilder &b, Location loc, Operation *op, RangeMove &move,
                    ArrayRef<Value> dims, int64_t parallelCopyMin) {
  FormatAttr format = move.resultType.getFormat();
  unsigned numLevels = format.getNumLevels();
  Type posType = b.getIntegerType(format.getPosWidth());
  Type crdType = b.getIntegerType(format.getCrdWidth());
  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  RangeSink sink;
  sink.cutLevel = move.cut;
  sink.parallelCopyMin = parallelCopyMin;
  sink.positions.assign(numLevels, Value());
  sink.coordinates.assign(numLevels, Value());
  for (unsigned l = move.first; l < numLevels; ++l) {
    const LevelFormat *lf = format.getLevels()[l].format;
    if (lf->hasPositionsBuffer()) {
      sink.positions[l] = sparse_array::detail::allocOutputBuffer(
          b, loc, op, bufferOf(posType), move.posCapacity[l]);
      storeIndex(b, loc, zero, sink.positions[l], zero);
    }
    if (lf->hasCoordinatesBuffer())
      sink.coordinates[l] = sparse_array::detail::allocOutputBuffer(
          b, loc, op, bufferOf(crdType), move.crdCapacity[l]);
  }
  sink.values = sparse_array::detail::allocOutputBuffer(
      b, loc, op, bufferOf(move.resultType.getElementType()),
      move.crdCapacity[numLevels - 1]);

  // Stored values equal to the fill are counted unless the last level is
  // full (a full level stores every entry).
  if (!format.getLevels().back().isFull())
    sink.countedFill = format.getFill();
  // The cursors of every level (those above `first` stay 0), and the count
  // of stored fills.
  SmallVector<Value> init(numLevels + (sink.countedFill ? 1 : 0), zero);
  SmallVector<Value> written = move.emit(b, sink, init);
  Value storedFills;
  if (sink.countedFill)
    storedFills = written.pop_back_val();
  auto resize = [&](Value buffer, Value size) {
    return move.exact ? buffer : emitResize(b, loc, buffer, size);
  };
  // Positions written per level: the parents' count + 1.
  SmallVector<Value> buffers;
  for (unsigned l = move.first; l < numLevels; ++l) {
    if (Value pos = sink.positions[l]) {
      Value count = l == move.first ? move.firstParents : written[l - 1];
      buffers.push_back(
          resize(pos, arith::AddIOp::create(b, loc, count, one)));
    }
    if (Value crd = sink.coordinates[l])
      buffers.push_back(resize(crd, written[l]));
  }
  buffers.push_back(resize(sink.values, written.back()));
  Value result = AssembleOp::create(b, loc, move.resultType, buffers, dims);
  if (!storedFills)
    return result;
  // An input stored explicit fills: drop them (rare: readers, kernels and
  // conversions never store them).
  return sparse_array::detail::dropStoredFills(b, loc, result, storedFills);
}

/// The product of the sizes of the levels above `cut` (full levels): the
/// parents of level `cut`.
Value parentsOf(OpBuilder &b, Location loc, ArrayType type,
                ArrayRef<Value> dims, unsigned cut) {
  Value n = constIndex(b, loc, 1);
  for (unsigned l = 0; l < cut; ++l)
    n = arith::MulIOp::create(b, loc, n,
                              dims[type.getFormat().getLevelDim(l)]);
  return n;
}

SmallVector<Value> dimSizes(OpBuilder &b, Location loc, Value array) {
  SmallVector<Value> dims;
  auto type = cast<ArrayType>(array.getType());
  for (unsigned d = 0; d < type.getRank(); ++d)
    dims.push_back(type.isDynamicDim(d)
                       ? Value(DimOp::create(b, loc, array, int64_t(d)))
                       : constIndex(b, loc, type.getShape()[d]));
  return dims;
}

/// A concatenation whose levels above the cut are stored: the result's
/// levels above the cut are the union of the parts' (a merge by
/// coordinate, level by level), and below each merged parent the parts'
/// ranges follow one another as in the flat case (DCSR or COO hstack).
class MergedConcat {
public:
  MergedConcat(Location loc, MutableArrayRef<RangeSource> parts,
               ArrayRef<int64_t> offsets, unsigned cut, RangeSink &sink)
      : loc(loc), parts(parts), offsets(offsets), cut(cut), sink(sink) {}

  /// Level l of the result below result position `parent`, from each
  /// part's segment of level l under the matching parent (empty where a
  /// part has none); returns the cursors after it.
  SmallVector<Value> level(OpBuilder &b, unsigned l, Value parent,
                           ArrayRef<std::pair<Value, Value>> seg,
                           ValueRange cursor) {
    if (l == cut) {
      SmallVector<Value> c(cursor);
      for (auto [k, part] : llvm::enumerate(parts))
        c = sink.copy(b, loc, part, cut, seg[k].first, seg[k].second, c,
                      constIndex(b, loc, offsets[k]));
      return c;
    }
    LevelIterator &first = *parts.front().its[l];
    if (first.getSpec().isFull())
      return fullLevel(b, l, parent, seg, cursor);
    return mergeLevel(b, l, seg, cursor);
  }

  /// Whether level 0 is the non-unique one above the cut and each of its
  /// positions one entry in every part (COO rows): then the result's
  /// entries of a range of row coordinates start where the parts' entries
  /// before that range end, found by a search, and ranges are written
  /// independently (inPieces).
  bool rowsOfEntries() const {
    return cut == 1 && !parts.front().its[0]->getSpec().unique &&
           llvm::all_of(parts, [](RangeSource &part) {
             return RangeSink::copiesEntries(part, 0);
           });
  }

  /// Level 0 (rowsOfEntries) from each part's segment `seg`, as pieces of
  /// the row coordinates [0, extent) that an scf.parallel shares out when
  /// `parallel` holds: a piece's parts start at the first row at or after
  /// its first coordinate (a bisection per part), its result entries at the
  /// sum of the entries before them. Returns the cursors after all rows:
  /// `total` entries at every level, the fills counted added to the last.
  SmallVector<Value> inPieces(OpBuilder &b,
                              ArrayRef<std::pair<Value, Value>> seg,
                              ValueRange cursor, Value extent, Value total,
                              Value parallel) {
    bool counting = sink.countedFill != nullptr;
    unsigned numLevels = cursor.size() - (counting ? 1 : 0);
    Value zero = constIndex(b, loc, 0);
    Value fills = sparse_array::detail::forPieces(
        b, loc, extent, parallel, counting,
        [&](OpBuilder &pb, Location, Value first, Value len) -> Value {
          Value stop = arith::AddIOp::create(pb, loc, first, len);
          SmallVector<std::pair<Value, Value>> piece;
          Value start = zero;
          for (auto [k, part] : llvm::enumerate(parts)) {
            LevelIterator &it = *part.its[0];
            auto [lo, hi] = seg[k];
            Value from = it.search(pb, loc, lo, hi, first).first;
            Value to = it.search(pb, loc, from, hi, stop).first;
            piece.push_back({from, to});
            start = arith::AddIOp::create(
                pb, loc, start, arith::SubIOp::create(pb, loc, from, lo));
          }
          SmallVector<Value> c(numLevels, start);
          if (counting)
            c.push_back(zero);
          c = level(pb, 0, zero, piece, c);
          return counting ? c.back() : Value();
        });
    SmallVector<Value> c(numLevels, total);
    if (counting)
      c.push_back(arith::AddIOp::create(b, loc, cursor.back(), fills));
    return c;
  }

private:
  /// Each part's children of its position `pos` at level l + 1, or an
  /// empty segment where `present` is false.
  std::pair<Value, Value> childSegment(OpBuilder &b, unsigned k, unsigned l,
                                       Value present, Value pos) {
    auto branch = scf::IfOp::create(
        b, loc, present,
        [&](OpBuilder &tb, Location l2) {
          auto [lo, hi] = parts[k].its[l + 1]->init(
              tb, l2, pos, arith::AddIOp::create(tb, l2, pos, constIndex(tb, l2, 1)));
          scf::YieldOp::create(tb, l2, ValueRange{lo, hi});
        },
        [&](OpBuilder &eb, Location l2) {
          Value zero = constIndex(eb, l2, 0);
          scf::YieldOp::create(eb, l2, ValueRange{zero, zero});
        });
    return {branch.getResult(0), branch.getResult(1)};
  }

  /// Below result position `rp` of level l: level l + 1, then its
  /// positions entry.
  SmallVector<Value> descend(OpBuilder &b, unsigned l, Value rp,
                             ArrayRef<std::pair<Value, Value>> children,
                             ValueRange cursor) {
    SmallVector<Value> c = level(b, l + 1, rp, children, cursor);
    if (Value pos = sink.positions[l + 1])
      storeIndex(b, loc, c[l + 1], pos,
                 arith::AddIOp::create(b, loc, rp, constIndex(b, loc, 1)));
    return c;
  }

  /// A full level: every coordinate x of the parent, at result position
  /// parent * size + x; a part is present where its segment is not empty.
  SmallVector<Value> fullLevel(OpBuilder &b, unsigned l, Value parent,
                               ArrayRef<std::pair<Value, Value>> seg,
                               ValueRange cursor) {
    // A present part's segment is its parent's whole row of the level.
    Value size = arith::SubIOp::create(b, loc, seg.front().second,
                                       seg.front().first);
    for (auto [lo, hi] : seg.drop_front())
      size = arith::MaxUIOp::create(b, loc, size,
                                    arith::SubIOp::create(b, loc, hi, lo));
    Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
    auto loop = scf::ForOp::create(b, loc, zero, size, one, cursor);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value x = loop.getInductionVar();
      SmallVector<std::pair<Value, Value>> children;
      for (auto [k, s] : llvm::enumerate(seg)) {
        Value present = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                              s.first, s.second);
        children.push_back(childSegment(
            b, k, l, present, arith::AddIOp::create(b, loc, s.first, x)));
      }
      Value rp = linearize(b, loc, parent, size, x);
      scf::YieldOp::create(
          b, loc, descend(b, l, rp, children, loop.getRegionIterArgs()));
    }
    SmallVector<Value> c(loop.getResults());
    c[l] = arith::AddIOp::create(b, loc, c[l], size);
    return c;
  }

  /// A stored level: the parts' segments merged by coordinate. A unique
  /// level gets each coordinate once and merges what lies below it; the
  /// non-unique level right above the cut copies each part's run of the
  /// coordinate whole, in part order.
  SmallVector<Value> mergeLevel(OpBuilder &b, unsigned l,
                                ArrayRef<std::pair<Value, Value>> seg,
                                ValueRange cursor) {
    unsigned n = parts.size();
    bool unique = parts.front().its[l]->getSpec().unique;
    SmallVector<Value> init;
    for (auto [lo, hi] : seg)
      init.push_back(lo);
    unsigned numCursors = cursor.size();
    llvm::append_range(init, cursor);
    SmallVector<Type> types(init.size(), b.getIndexType());
    auto loop = scf::WhileOp::create(
        b, loc, types, init,
        [&](OpBuilder &cb, Location l2, ValueRange args) {
          Value any = arith::ConstantIntOp::create(cb, l2, 0, 1);
          for (unsigned k = 0; k < n; ++k)
            any = arith::OrIOp::create(
                cb, l2, any,
                parts[k].its[l]->valid(cb, l2, args[k], seg[k].second));
          scf::ConditionOp::create(cb, l2, any, args);
        },
        [&](OpBuilder &bb, Location l2, ValueRange args) {
          Value none = constIndex(bb, l2, std::numeric_limits<int64_t>::max());
          SmallVector<Value> valid, crd;
          Value least = none;
          for (unsigned k = 0; k < n; ++k) {
            LevelIterator &it = *parts[k].its[l];
            valid.push_back(it.valid(bb, l2, args[k], seg[k].second));
            auto read = scf::IfOp::create(
                bb, l2, valid.back(),
                [&](OpBuilder &tb, Location l3) {
                  scf::YieldOp::create(
                      tb, l3, it.coordinate(tb, l3, seg[k].first, args[k]));
                },
                [&](OpBuilder &eb, Location l3) {
                  scf::YieldOp::create(eb, l3, none);
                });
            crd.push_back(read.getResult(0));
            least = arith::MinUIOp::create(bb, l2, least, crd.back());
          }
          SmallVector<Value> matched, next;
          for (unsigned k = 0; k < n; ++k)
            matched.push_back(arith::AndIOp::create(
                bb, l2, valid[k],
                arith::CmpIOp::create(bb, l2, arith::CmpIPredicate::eq, crd[k],
                                      least)));
          SmallVector<Value> c(args.drop_front(n));
          if (unique) {
            Value rp = c[l];
            storeIndex(bb, l2, least, sink.coordinates[l], rp);
            c[l] = arith::AddIOp::create(bb, l2, rp, constIndex(bb, l2, 1));
            SmallVector<std::pair<Value, Value>> children;
            for (unsigned k = 0; k < n; ++k)
              children.push_back(childSegment(bb, k, l, matched[k], args[k]));
            c = descend(bb, l, rp, children, c);
            for (unsigned k = 0; k < n; ++k)
              next.push_back(arith::SelectOp::create(
                  bb, l2, matched[k],
                  arith::AddIOp::create(bb, l2, args[k], constIndex(bb, l2, 1)),
                  args[k]));
          } else {
            // Each part's run of the coordinate, with everything below.
            for (unsigned k = 0; k < n; ++k) {
              LevelIterator &it = *parts[k].its[l];
              SmallVector<Type> ct(numCursors + 1, bb.getIndexType());
              auto copyRun = scf::IfOp::create(
                  bb, l2, matched[k],
                  [&](OpBuilder &tb, Location l3) {
                    Value shift = constIndex(tb, l3, offsets[k]);
                    SmallVector<Value> r;
                    Value end;
                    if (RangeSink::copiesEntries(parts[k], l)) {
                      std::tie(r, end) =
                          sink.copyRun(tb, l3, parts[k], l, args[k],
                                       seg[k].second, least, c, shift);
                    } else {
                      end = it.next(tb, l3, args[k], seg[k].second);
                      r = sink.copy(tb, l3, parts[k], l, args[k], end, c,
                                    shift);
                    }
                    r.push_back(end);
                    scf::YieldOp::create(tb, l3, r);
                  },
                  [&](OpBuilder &eb, Location l3) {
                    SmallVector<Value> r(c);
                    r.push_back(args[k]);
                    scf::YieldOp::create(eb, l3, r);
                  });
              c = SmallVector<Value>(copyRun.getResults().drop_back());
              next.push_back(copyRun.getResults().back());
            }
          }
          llvm::append_range(next, c);
          scf::YieldOp::create(bb, l2, next);
        });
    return SmallVector<Value>(loop.getResults().drop_front(n));
  }

  Location loc;
  MutableArrayRef<RangeSource> parts;
  ArrayRef<int64_t> offsets;
  unsigned cut;
  RangeSink &sink;
};

/// The merged concatenation's result: capacities the parts' positions
/// summed per level (merging can only shrink the levels above the cut).
Value mergedConcat(OpBuilder &b, Location loc, Operation *op,
                   MutableArrayRef<RangeSource> parts,
                   ArrayRef<int64_t> offsets, unsigned cut,
                   ArrayRef<Value> dims, int64_t parallelCopyMin) {
  auto resultType = cast<ArrayType>(op->getResult(0).getType());
  FormatAttr format = resultType.getFormat();
  unsigned numLevels = format.getNumLevels();
  RangeMove move;
  move.resultType = resultType;
  move.cut = cut;
  move.first = 0;
  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  move.firstParents = one;
  SmallVector<Value> counts(parts.size(), one);
  Value above = one;
  for (unsigned l = 0; l < numLevels; ++l) {
    move.posCapacity.push_back(arith::AddIOp::create(b, loc, above, one));
    Value total = zero;
    for (auto [part, count] : llvm::zip(parts, counts)) {
      count = part.positionsBelow(b, loc, l, count);
      total = arith::AddIOp::create(b, loc, total, count);
    }
    move.crdCapacity.push_back(above = total);
  }
  move.emit = [&](OpBuilder &eb, RangeSink &sink, ValueRange cursor) {
    SmallVector<std::pair<Value, Value>> seg;
    for (RangeSource &part : parts)
      seg.push_back(part.its[0]->init(eb, loc, zero, one));
    MergedConcat merge(loc, parts, offsets, cut, sink);
    SmallVector<Value> c;
    if (parallelCopyMin > 0 && merge.rowsOfEntries()) {
      Value total = move.crdCapacity.back();
      Value parallel =
          arith::CmpIOp::create(eb, loc, arith::CmpIPredicate::uge, total,
                                constIndex(eb, loc, parallelCopyMin));
      c = merge.inPieces(eb, seg, cursor, dims[format.getLevelDim(0)], total,
                         parallel);
    } else {
      c = merge.level(eb, 0, zero, seg, cursor);
    }
    if (Value pos = sink.positions[0])
      storeIndex(eb, loc, c[0], pos, one);
    return c;
  };
  return emitRangeMove(b, loc, op, move, dims, parallelCopyMin);
}

/// concat: per parent, each part's range in turn, its coordinates at the
/// cut level moved by the part's offset.
struct ConcatByRanges : OpRewritePattern<ConcatOp> {
  ConcatByRanges(MLIRContext *context, int64_t parallelCopyMin)
      : OpRewritePattern(context), parallelCopyMin(parallelCopyMin) {}
  /// Copies of at least this many elements (> 0) run on threads.
  int64_t parallelCopyMin;
  LogicalResult matchAndRewrite(ConcatOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<unsigned> cut = getMovedRangeLevel(op);
    if (!cut)
      return rewriter.notifyMatchFailure(op, "not a move of stored ranges");
    Location loc = op.getLoc();
    auto resultType = cast<ArrayType>(op.getType());
    unsigned numLevels = resultType.getFormat().getNumLevels();
    SmallVector<RangeSource> parts;
    for (Value input : op.getInputs()) {
      parts.emplace_back(rewriter, loc, input);
      if (!parts.back().complete())
        return rewriter.notifyMatchFailure(op, "a level has no iterator");
    }
    unsigned dim = op.getDim();
    SmallVector<Value> dims = dimSizes(rewriter, loc, op.getInputs().front());
    dims[dim] = constIndex(rewriter, loc, resultType.getShape()[dim]);
    Value parents = parentsOf(rewriter, loc, resultType, dims, *cut);

    SmallVector<int64_t> offsets;
    int64_t offset = 0;
    for (Value input : op.getInputs()) {
      offsets.push_back(offset);
      offset += cast<ArrayType>(input.getType()).getShape()[dim];
    }
    if (!getStoredRangeLevel(resultType.getFormat(), dim)) {
      rewriter.replaceOp(op, mergedConcat(rewriter, loc, op, parts, offsets,
                                          *cut, dims, parallelCopyMin));
      return success();
    }
    // Exact capacities: the parts' positions per level summed.
    RangeMove move;
    move.resultType = resultType;
    move.cut = *cut;
    move.exact = true;
    move.posCapacity.assign(numLevels, Value());
    move.crdCapacity.assign(numLevels, Value());
    Value zero = constIndex(rewriter, loc, 0), one = constIndex(rewriter, loc, 1);
    SmallVector<Value> counts(parts.size(), parents);
    Value above = parents;
    for (unsigned l = *cut; l < numLevels; ++l) {
      move.posCapacity[l] = arith::AddIOp::create(rewriter, loc, above, one);
      Value total = zero;
      for (auto [part, count] : llvm::zip(parts, counts)) {
        count = part.positionsBelow(rewriter, loc, l, count);
        total = arith::AddIOp::create(rewriter, loc, total, count);
      }
      move.crdCapacity[l] = above = total;
    }
    move.first = *cut;
    move.firstParents = parents;
    // Parents [first, last): each part's range of each, in turn.
    auto parentsIn = [&](OpBuilder &b, RangeSink &sink, ValueRange cursor,
                         Value first, Value last) {
      return emitParentLoop(
          b, loc, sink, cursor, *cut, first, last,
          [&](OpBuilder &lb, Value r, ValueRange c0) {
            SmallVector<Value> c(c0);
            Value next = arith::AddIOp::create(lb, loc, r, one);
            for (auto [part, off] : llvm::zip(parts, offsets)) {
              auto [lo, hi] = part.its[*cut]->init(lb, loc, r, next);
              c = sink.copy(lb, loc, part, *cut, lo, hi, c,
                            constIndex(lb, loc, off));
            }
            return c;
          });
    };
    move.emit = [&](OpBuilder &b, RangeSink &sink, ValueRange cursor) {
      // (One parent, the cut at the first level: its long ranges are the
      // copies shared out instead.)
      if (parallelCopyMin <= 0 || *cut == 0)
        return parentsIn(b, sink, cursor, zero, parents);
      // In pieces of parents on threads: a piece's result positions at
      // each level start after the parts' positions under the parents
      // before it (each part's, from its positions under [0, first)).
      bool counting = sink.countedFill != nullptr;
      Value total = move.crdCapacity.back();
      Value parallel =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, total,
                                constIndex(b, loc, parallelCopyMin));
      Value fills = sparse_array::detail::forPieces(
          b, loc, parents, parallel, counting,
          [&](OpBuilder &pb, Location, Value first, Value len) -> Value {
            SmallVector<Value> c(cursor.take_front(*cut));
            SmallVector<Value> before(parts.size(), first);
            for (unsigned l = *cut; l < numLevels; ++l) {
              Value at = zero;
              for (auto [part, n] : llvm::zip(parts, before)) {
                n = part.positionsBelow(pb, loc, l, n);
                at = arith::AddIOp::create(pb, loc, at, n);
              }
              c.push_back(at);
            }
            if (counting)
              c.push_back(zero);
            c = parentsIn(pb, sink, c, first,
                          arith::AddIOp::create(pb, loc, first, len));
            return counting ? c.back() : Value();
          });
      SmallVector<Value> c(cursor.take_front(*cut));
      for (unsigned l = *cut; l < numLevels; ++l)
        c.push_back(move.crdCapacity[l]);
      if (counting)
        c.push_back(arith::AddIOp::create(b, loc, cursor.back(), fills));
      return c;
    };
    rewriter.replaceOp(
        op, emitRangeMove(rewriter, loc, op, move, dims, parallelCopyMin));
    return success();
  }
};

/// slice: per parent, the range of the cut level's positions whose
/// coordinates lie in [start, stop) (located on a full level, found by
/// bisection on an ordered one), its coordinates moved down by start. The
/// buffers are sized for the source's entries and shrunk afterwards.
struct SliceByRanges : OpRewritePattern<SliceOp> {
  SliceByRanges(MLIRContext *context, int64_t parallelCopyMin)
      : OpRewritePattern(context), parallelCopyMin(parallelCopyMin) {}
  /// Copies of at least this many elements (> 0) run on threads.
  int64_t parallelCopyMin;
  LogicalResult matchAndRewrite(SliceOp op,
                                PatternRewriter &rewriter) const override {
    auto moved = getMovedRangeLevel(op);
    if (!moved)
      return rewriter.notifyMatchFailure(op, "not a move of stored ranges");
    unsigned dim = moved->first, cut = moved->second;
    Location loc = op.getLoc();
    auto resultType = cast<ArrayType>(op.getType());
    unsigned numLevels = resultType.getFormat().getNumLevels();
    RangeSource src(rewriter, loc, op.getSource());
    if (!src.complete())
      return rewriter.notifyMatchFailure(op, "a level has no iterator");
    SliceOp::Normalized n = *op.normalize(dim);
    SmallVector<Value> dims = dimSizes(rewriter, loc, op.getSource());
    Value parents = parentsOf(rewriter, loc, resultType, dims, cut);
    dims[dim] = constIndex(rewriter, loc, n.length());

    RangeMove move;
    move.resultType = resultType;
    move.cut = cut;
    move.posCapacity.assign(numLevels, Value());
    move.crdCapacity.assign(numLevels, Value());
    Value one = constIndex(rewriter, loc, 1);
    Value above = parents;
    for (unsigned l = cut; l < numLevels; ++l) {
      move.posCapacity[l] = arith::AddIOp::create(rewriter, loc, above, one);
      move.crdCapacity[l] = above = src.positionsBelow(rewriter, loc, l, above);
    }
    int64_t size = cast<ArrayType>(op.getSource().getType()).getShape()[dim];
    Value start = constIndex(rewriter, loc, n.lo);
    Value stop = constIndex(rewriter, loc, n.lo + n.length());
    LevelIterator &it = *src.its[cut];
    move.first = cut;
    move.firstParents = parents;
    auto rangeOf = [&](OpBuilder &b, Value r, ValueRange cursor,
                       RangeSink &sink) {
      Value lo, hi;
      if (it.getSpec().isFull() && it.canLocate()) {
        lo = it.locate(b, loc, r, start);
        hi = arith::AddIOp::create(b, loc, lo,
                                   constIndex(b, loc, n.length()));
      } else {
        auto [begin, end] =
            it.init(b, loc, r, arith::AddIOp::create(b, loc, r, one));
        // An open end needs no search.
        lo = n.lo == 0 ? begin : it.search(b, loc, begin, end, start).first;
        hi = n.lo + n.length() == size ? end
                                       : it.search(b, loc, lo, end, stop).first;
      }
      return sink.copy(b, loc, src, cut, lo, hi, cursor,
                       constIndex(b, loc, -n.lo));
    };
    move.emit = [&](OpBuilder &b, RangeSink &sink, ValueRange cursor) {
      return emitParentLoop(b, loc, sink, cursor, cut, constIndex(b, loc, 0),
                            parents, [&](OpBuilder &lb, Value r, ValueRange c) {
                              return rangeOf(lb, r, c, sink);
                            });
    };
    rewriter.replaceOp(
        op, emitRangeMove(rewriter, loc, op, move, dims, parallelCopyMin));
    return success();
  }
};

} // namespace

void mlir::sparse_array::populateMoveRangesPatterns(RewritePatternSet &patterns,
                                                    int64_t parallelCopyMin) {
  patterns.add<ConcatByRanges, SliceByRanges>(patterns.getContext(),
                                              parallelCopyMin);
}
