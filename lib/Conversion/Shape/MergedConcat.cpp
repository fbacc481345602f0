//===- MergedConcat.cpp - Concatenations merging the levels above the cut ===//
//
// A concatenation whose levels above the cut are stored (DCSR or COO
// hstack, CSF along an inner dimension): those levels are merged by
// coordinate, and below each merged parent the parts' ranges follow one
// another as MoveRanges.cpp copies them; COO rows in pieces on threads.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Conversion/LevelIterator.h"
#include "SparseArray/Conversion/Passes.h"
#include "SparseArray/Dialect/LevelFormat.h"
#include "SparseArray/Dialect/SparseArray.h"

#include "CodegenUtils.h"
#include "Output/OutputAssembler.h"
#include "RangeMoves.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::detail;

namespace {

/// A concatenation whose levels above the cut are stored: the result's
/// levels above the cut are the union of the parts' (a merge by
/// coordinate, level by level), and below each merged parent the parts'
/// ranges follow one another as in the flat case (DCSR or COO hstack).
class MergedConcat {
public:
  MergedConcat(Location loc, MutableArrayRef<RangeSource> parts,
               ArrayRef<Value> offsets, unsigned cut, RangeSink &sink)
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
                      offsets[k]);
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
              tb, l2, pos,
              arith::AddIOp::create(tb, l2, pos, constIndex(tb, l2, 1)));
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
    Value size =
        arith::SubIOp::create(b, loc, seg.front().second, seg.front().first);
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
                    Value shift = offsets[k];
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
  ArrayRef<Value> offsets;
  unsigned cut;
  RangeSink &sink;
};

} // namespace

/// The merged concatenation's result: capacities the parts' positions
/// summed per level (merging can only shrink the levels above the cut).
Value mlir::sparse_array::detail::mergedConcat(
    OpBuilder &b, Location loc, Operation *op,
    MutableArrayRef<RangeSource> parts, ArrayRef<Value> offsets, unsigned cut,
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
