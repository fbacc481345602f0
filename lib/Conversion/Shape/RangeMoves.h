//===- RangeMoves.h - Stored ranges written into a result ------*- C++ -*-===//
//
// What MoveRanges.cpp's slices and concatenations share: the inputs read
// a range of positions at a time (RangeSource), the result's buffers
// written range after range (RangeSink), and the move that allocates,
// writes and assembles them (RangeMove, emitRangeMove).
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_LIB_CONVERSION_RANGEMOVES_H
#define SPARSEARRAY_LIB_CONVERSION_RANGEMOVES_H

#include "SparseArray/Conversion/LevelIterator.h"
#include "SparseArray/Dialect/SparseArray.h"

#include "CodegenUtils.h"

#include "mlir/IR/Builders.h"

#include <functional>
#include <memory>

namespace mlir {
namespace sparse_array {
namespace detail {

/// A counted loop [0, n) whose body gets the induction variable.
void forEach(OpBuilder &b, Location loc, Value n,
             function_ref<void(OpBuilder &, Value)> body);

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
                          Value shift);

  /// Whether every level of `src` below l holds one position per parent and
  /// no positions (branchless, as COO's singletons): a position of level l
  /// is then one entry, its coordinates and value at the same offset of
  /// each lower level, and a run of l copies entry by entry (copyRun).
  static bool copiesEntries(RangeSource &src, unsigned l);

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
                                               ValueRange cursor, Value shift);
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
    function_ref<SmallVector<Value>(OpBuilder &, Value, ValueRange)> body);

/// Allocates the result's buffers from level `first` on, writes them
/// (`move.emit`), shrinks them to what was written and assembles the
/// result with dimension sizes `dims`.
Value emitRangeMove(OpBuilder &b, Location loc, Operation *op, RangeMove &move,
                    ArrayRef<Value> dims, int64_t parallelCopyMin);

/// The product of the sizes of the levels above `cut` (full levels): the
/// parents of level `cut`.
Value parentsOf(OpBuilder &b, Location loc, ArrayType type,
                ArrayRef<Value> dims, unsigned cut);

SmallVector<Value> dimSizes(OpBuilder &b, Location loc, Value array);

/// The merged concatenation's result: capacities the parts' positions
/// summed per level (merging can only shrink the levels above the cut).
Value mergedConcat(OpBuilder &b, Location loc, Operation *op,
                   MutableArrayRef<RangeSource> parts, ArrayRef<Value> offsets,
                   unsigned cut, ArrayRef<Value> dims, int64_t parallelCopyMin);

} // namespace detail
} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_LIB_CONVERSION_RANGEMOVES_H
