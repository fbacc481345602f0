//===- LoopLeaves.h - The leaves one loop coiterates ------------*- C++ -*-===//
//
// Private to lib/Conversion: a loop's participants as leaves of the
// iterator model (seed 001 §7.1.1), built by KernelLowering::makeLoopLeaves
// and iterated by LoopEmitter.cpp's loops.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_LIB_CONVERSION_LOOPLEAVES_H
#define SPARSEARRAY_LIB_CONVERSION_LOOPLEAVES_H

#include "CodegenUtils.h"

#include "SparseArray/Algebra/Lattice.h"
#include "SparseArray/Algebra/SequenceExpr.h"
#include "SparseArray/Conversion/LevelIterator.h"
#include "SparseArray/Conversion/SequenceIterator.h"

#include <memory>

namespace mlir::sparse_array::detail {
/// The inputs one loop coiterates, as leaves of the iterator model (seed
/// 001 §7.1.1): a cursor per participant over the segment its enclosing
/// loops left it, threaded through the loop's control flow. Every loop and
/// case test is a sequence over these leaves, asked through its iterator.
class LoopLeaves {
public:
  /// How many times longer than the shortest an intersection's longest
  /// segment must be for its behind cursors to gallop (segmentsSkewed).
  /// Measured at one thread, rows of 8 against rows or a cached vector of
  /// 8r entries: the branch-free step is faster up to r = 4 (6.3 vs 11.5
  /// ms at r = 1), even at r = 8, the gallop from r = 16 (31.7 vs 51.5).
  static constexpr int64_t kGallopRatio = 8;
  /// `views`: what each participant iterates as, a sequence over its
  /// leaf `s<k>` (the plan's, seed 001 §5.2).
  /// `levels`: per participant, its level bound to the loop, or the
  /// levels of a collapsed read (outer first: a leaf each, the inner ones
  /// under the outer's position; `sizes` gives the inner parts' extents).
  /// `windows`: per participant, the run-time bounds of a window its view
  /// slices (a collapse read through a split), or nulls.
  LoopLeaves(ArrayRef<unsigned> participants,
             ArrayRef<SmallVector<LevelIterator *>> levels,
             ArrayRef<SmallVector<Value>> sizes, ArrayRef<SequenceExpr> views,
             ArrayRef<Value> begin, ArrayRef<Value> end,
             ArrayRef<Value> parentPos, Value extent,
             SmallVector<std::pair<Value, Value>> windows)
      : participants(participants), extent(extent), views(views),
        windows(std::move(windows)) {
    SmallVector<LeafIterator *> raw;
    for (unsigned i = 0; i < participants.size(); ++i) {
      firstLeaf.push_back(leaves.size());
      leaves.push_back(
          std::make_unique<LeafIterator>(*levels[i][0], begin[i], end[i],
                                         parentPos[i]));
      for (unsigned j = 1; j < levels[i].size(); ++j)
        leaves.push_back(std::make_unique<LeafIterator>(
            *levels[i][j], sizes[i][j], leaves.back().get()));
      lastLeaf.push_back(leaves.size() - 1);
    }
    for (std::unique_ptr<LeafIterator> &l : leaves)
      raw.push_back(l.get());
    cursors = std::make_unique<SequenceCursors>(raw);
  }

  ArrayRef<unsigned> getParticipants() const { return participants; }
  SequenceCursors &getCursors() { return *cursors; }
  /// Participant i's innermost leaf: where its entries (and the segments
  /// below them) are.
  LeafIterator &leaf(unsigned i) { return *leaves[lastLeaf[i]]; }
  /// Each participant's position.
  SmallVector<Value> positions() const {
    return llvm::map_to_vector(lastLeaf,
                               [&](unsigned l) { return leaves[l]->pos; });
  }
  /// Steps the loop's sequence past x with `step` and returns each
  /// participant's segment below its entry at x: from its position before
  /// to the end of its run where it matched (`m`), empty where it did not.
  /// A plain leaf steps exactly to that end; a slice may step further (over
  /// coordinates off its stride), so its end is taken before stepping.
  std::pair<SmallVector<Value>, SmallVector<Value>>
  step(OpBuilder &b, Location loc, const SequenceIterator::LeafMatches &m,
       llvm::function_ref<void()> step) {
    unsigned n = participants.size();
    SmallVector<Value> before = positions(), after(n);
    for (unsigned i = 0; i < n; ++i) {
      if (views[i].is(SequenceExpr::Kind::Leaf))
        continue;
      Value here = m.lookup(&leaf(i));
      after[i] = here ? leaf(i).runEnd(b, loc, here) : leaf(i).pos;
    }
    step();
    for (unsigned i = 0; i < n; ++i) {
      if (!after[i])
        after[i] = leaf(i).pos;
      // What the level below and the values see (a level read backwards
      // runs over mirrored positions).
      std::tie(before[i], after[i]) =
          leaf(i).storedSegment(b, loc, before[i], after[i]);
    }
    return {before, after};
  }
  /// Whether a loop over `point` whose only case is the point itself (an
  /// intersection: a coordinate counts only where every operand has it)
  /// may, where its operands disagree, move each behind the largest of
  /// their coordinates straight to it (leapfrog, LeafIterator::gallop)
  /// instead of one step: every operand a plain leaf of one ordered,
  /// unique level that stores its coordinates. A short row against a long
  /// one (SpMV with a sparse x) then costs the short one's entries times
  /// the log of the gaps, not both lengths.
  bool canGallop(const LatticePoint &point) const {
    unsigned operands = 0;
    for (unsigned i = 0; i < participants.size(); ++i) {
      if (!point.hasOperand(participants[i]))
        continue;
      ++operands;
      const LeafIterator &l = *leaves[lastLeaf[i]];
      const LevelSpec &spec = l.getSpec();
      if (!views[i].is(SequenceExpr::Kind::Leaf) || firstLeaf[i] != lastLeaf[i] ||
          !spec.ordered || !spec.unique || spec.isFull() || spec.canLocate() ||
          l.isReflected())
        return false;
    }
    return operands >= 2 && !point.universe;
  }
  /// Whether what is left of `point`'s operands' segments (from the
  /// cursors on) differs in length by kGallopRatio or more: only then does
  /// a gallop pay. Between segments of like length (random CSR .* CSR, 10
  /// entries a row) the cursor behind is almost always one step short, and
  /// the probe and bisection took twice the branch-free step's time (29 ->
  /// 56 ms at one thread). Asked where the operands disagree, not once
  /// before the loop: a loop-invariant test made LLVM unswitch the loop,
  /// and rows whose entries all match (a symmetric A .* Aᵀ) ran 20 %
  /// slower in the copy.
  Value segmentsSkewed(OpBuilder &b, Location loc, const LatticePoint &point) {
    Value shortest, longest;
    for (unsigned i = 0; i < participants.size(); ++i) {
      if (!point.hasOperand(participants[i]))
        continue;
      const LeafIterator &l = leaf(i);
      Value len = arith::SubIOp::create(b, loc, l.end, l.pos);
      shortest = shortest ? Value(arith::MinUIOp::create(b, loc, shortest, len))
                          : len;
      longest = longest ? Value(arith::MaxUIOp::create(b, loc, longest, len))
                        : len;
    }
    Value scaled = arith::MulIOp::create(b, loc, shortest,
                                         constIndex(b, loc, kGallopRatio));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, longest,
                                 scaled);
  }
  /// canGallop's move: every operand of `point` to the first of its
  /// coordinates at or past the largest current one (all valid).
  void gallop(OpBuilder &b, Location loc, const LatticePoint &point) {
    Value target;
    for (unsigned i = 0; i < participants.size(); ++i)
      if (point.hasOperand(participants[i])) {
        Value c = leaf(i).eval(b, loc);
        target = target ? Value(arith::MaxUIOp::create(b, loc, target, c)) : c;
      }
    for (unsigned i = 0; i < participants.size(); ++i)
      if (point.hasOperand(participants[i]))
        leaf(i).gallop(b, loc, target);
  }
  /// Positions every participant's sequence on its first coordinate (a
  /// slice skips what lies before its start).
  void init(OpBuilder &b, Location loc) {
    // Inner leaves of products have no cursor until their outer part
    // initializes them; the control flow threads them from the start.
    for (unsigned i = 0; i < participants.size(); ++i)
      for (unsigned l = firstLeaf[i] + 1; l <= lastLeaf[i]; ++l)
        leaves[l]->begin = leaves[l]->pos = leaves[l]->end =
            constIndex(b, loc, 0);
    for (unsigned i = 0; i < participants.size(); ++i)
      if (!views[i].is(SequenceExpr::Kind::Leaf))
        make(sequenceOf(i), /*latticeMode=*/false)->init(b, loc);
  }

  /// The sequence a seed-000 lattice point's loop iterates: the union of
  /// its operands (and U) in lattice mode — it runs while all of them have
  /// entries, then the lattice moves on (seed 000 §7.1) — and, as a case,
  /// holds x when every one of them is there.
  std::unique_ptr<SequenceIterator> of(const LatticePoint &point) {
    SmallVector<SequenceExpr> parts;
    if (point.universe)
      parts.push_back(SequenceExpr::universe());
    for (unsigned i = 0; i < participants.size(); ++i)
      if (point.hasOperand(participants[i]))
        parts.push_back(sequenceOf(i));
    return make(SequenceExpr::unite(parts), /*latticeMode=*/true);
  }
  /// Every participant's coordinates (and U) as one whole sequence: what
  /// a loop that descends with every input visits.
  std::unique_ptr<SequenceIterator> ofAll(bool universe) {
    SmallVector<SequenceExpr> parts;
    if (universe)
      parts.push_back(SequenceExpr::universe());
    for (unsigned i = 0; i < participants.size(); ++i)
      parts.push_back(sequenceOf(i));
    return make(SequenceExpr::unite(parts), /*latticeMode=*/false);
  }

private:
  std::unique_ptr<SequenceIterator> make(const SequenceExpr &seq,
                                         bool latticeMode) {
    std::string error;
    auto it = SequenceIterator::fromExpr(
        seq,
        [&](const SequenceExpr &leafExpr) -> LeafIterator * {
          auto *at = llvm::find(participants, leafExpr.getOperand());
          if (at == participants.end())
            return nullptr;
          unsigned i = at - participants.begin();
          unsigned l = firstLeaf[i] + leafExpr.getLevel();
          return l <= lastLeaf[i] ? leaves[l].get() : nullptr;
        },
        *cursors, error, latticeMode, extent,
        [&](const SequenceExpr &slice) -> std::pair<Value, Value> {
          // The participant whose view is this slice.
          for (unsigned i = 0; i < participants.size(); ++i)
            if (views[i] == slice)
              return windows[i];
          return {};
        });
    assert(it && "leaves and U always have iterators");
    return it;
  }

  /// Participant i's view.
  const SequenceExpr &sequenceOf(unsigned i) const { return views[i]; }

  ArrayRef<unsigned> participants;
  Value extent;
  ArrayRef<SequenceExpr> views;
  SmallVector<std::pair<Value, Value>> windows;
  SmallVector<std::unique_ptr<LeafIterator>> leaves;
  /// Per participant: its leaves are leaves[firstLeaf[i] ..= lastLeaf[i]].
  SmallVector<unsigned> firstLeaf, lastLeaf;
  std::unique_ptr<SequenceCursors> cursors;
};

} // namespace mlir::sparse_array::detail

#endif // SPARSEARRAY_LIB_CONVERSION_LOOPLEAVES_H
