//===- LevelIterator.h - Iterators over stored levels -----------*- C++ -*-===//
//
// The iterator model of seed 001 §7.1 for array levels (seed 002 §4: level
// functions behind a format-independent interface): a cursor is a position
// in a segment [begin, end) of a level's positions; init finds the segment
// under a parent, valid tests the cursor, coordinate evaluates it, matches
// is `equals`, next steps past a coordinate's run of positions, locate
// gives the position of a coordinate on levels with random access, search
// finds one coordinate in a segment.
//
// Code generation asks the iterator; it never branches on a level format.
// A level format brings its iterator by registering a factory
// (LevelIteratorRegistry); formats without one get the iterator their
// properties and capabilities call for.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_CONVERSION_LEVELITERATOR_H
#define SPARSEARRAY_CONVERSION_LEVELITERATOR_H

#include "SparseArray/Algebra/SequenceExpr.h"
#include "SparseArray/Dialect/LevelFormat.h"

#include "mlir/IR/Builders.h"

#include <functional>
#include <memory>

namespace mlir {
namespace sparse_array {

class LevelIterator {
public:
  virtual ~LevelIterator();
  const LevelSpec &getSpec() const { return spec; }

  /// Whether the level supports random access (coordinate -> position):
  /// seed 001 §6.3.1 locates into such levels instead of iterating them.
  virtual bool canLocate() const = 0;
  /// The first and end position of the children of parent segment
  /// [parentLo, parentHi).
  virtual std::pair<Value, Value> init(OpBuilder &b, Location loc,
                                       Value parentLo, Value parentHi) = 0;
  /// Whether the cursor has an entry: pos < end.
  Value valid(OpBuilder &b, Location loc, Value pos, Value end) const;
  /// The coordinate stored at position `pos` (valid positions only).
  virtual Value coordinate(OpBuilder &b, Location loc, Value begin,
                           Value pos) = 0;
  /// The coordinate at `pos` of the segment init gave below parent position
  /// `parent` (a cursor that knows it: a kernel's coiterated input), for
  /// levels whose coordinates derive from the parent (DIA: no division of
  /// the segment's start per row). By default coordinate().
  virtual Value coordinateBelow(OpBuilder &b, Location loc, Value parent,
                                Value begin, Value pos) {
    return coordinate(b, loc, begin, pos);
  }
  /// valid && coordinate == x, reading the coordinate only when valid
  /// (`isValid`, when given, is the cursor's valid() already computed).
  Value matches(OpBuilder &b, Location loc, Value begin, Value pos, Value end,
                Value x, Value isValid = Value());
  /// Whether a coordinate may span several positions (non-unique levels).
  bool hasSegments() const { return !spec.unique; }
  /// The position after the run of positions holding the coordinate at
  /// `pos` (pos + 1 on unique levels; by default scanRun, so a format
  /// allowing non-unique levels needs no code for it).
  virtual Value next(OpBuilder &b, Location loc, Value pos, Value end);
  /// Where the cursor continues: next(pos) if it matched, else pos. A
  /// select on unique levels; a scan only under a matching non-unique one.
  Value advance(OpBuilder &b, Location loc, Value matched, Value pos,
                Value end);
  /// Position of coordinate `crd` below parent position `parent`.
  virtual Value locate(OpBuilder &b, Location loc, Value parent, Value crd);

  struct SearchResult {
    /// The first position at or after which `target` could be (the match
    /// when `found`).
    Value first;
    /// i1: whether the segment holds `target`.
    Value found;
    /// The end of the run of `target` (first when not found).
    Value last;
  };
  /// Finds `target` in [begin, end): bisection on ordered levels, a scan
  /// otherwise.
  SearchResult search(OpBuilder &b, Location loc, Value begin, Value end,
                      Value target);

  /// The positions [lo, hi) of the cursor as the level stores them: where
  /// its children's segment and its values are (a reflected level's cursor
  /// runs over mirrored positions).
  virtual std::pair<Value, Value> storedSegment(OpBuilder &, Location, Value lo,
                                                Value hi) {
    return {lo, hi};
  }
  /// Whether the cursor reads the level backwards (makeReflectedIterator).
  virtual bool isReflected() const { return false; }
  /// Whether the format exists for segments of a few entries (N:M's n
  /// slots per block, ELL's row width, DIA's diagonals, seed 002 §2): a
  /// loop over such segments runs a few times.
  virtual bool shortSegments() const { return false; }

  // What an access reads at the level: a combinator of seed 001 §5.1 over
  // it (slice, padding, a collapse's part, a split's window). The base
  // reads the loop's coordinate as the level's; the access wrappers
  // (AccessIterators.cpp) own their combinator's coordinate map here, so
  // the loop emitter asks the iterator and never the combinator. Iterating
  // a combinator is the plan's sequence view (SequenceIterator).

  /// The position below `parent` of the coordinate loop coordinate `x`
  /// reads (`loops`: the coordinates of the loops entered). An access that
  /// may read outside the level ands into `found` (null: stored as far as
  /// known) whether it reads inside; the position is then a valid one.
  virtual Value locateAccess(OpBuilder &b, Location loc, Value parent, Value x,
                             ArrayRef<Value> loops, Value &found) {
    return locate(b, loc, parent, x);
  }
  /// Whether a locateAccess that reports a miss still returns a position
  /// the level stores (a hashed level's empty slot), so that its value may
  /// be loaded and selected away instead of guarded.
  virtual bool missLandsInBounds() const { return false; }
  /// The loop coordinates [lo, hi) the level is iterated in (a collapse in
  /// the windows of a split: the enclosing loops fix it); null: all.
  virtual std::pair<Value, Value> accessWindow(OpBuilder &, Location,
                                               ArrayRef<Value> loops) {
    return {};
  }
  /// The extent of an inner part of a collapsed read (null otherwise).
  virtual Value partExtent(OpBuilder &, Location) { return {}; }
  /// Whether the level is a later part of the collapsed read of the level
  /// above, iterated with it as one product.
  virtual bool continuesCollapse() const { return false; }
  /// What input `k` iterates as at this level and the `group` - 1 levels
  /// below it bound to the same loop: the view the plan must record.
  virtual SequenceExpr accessView(unsigned k, unsigned group) const {
    return SequenceExpr::leaf(k);
  }

protected:
  explicit LevelIterator(LevelSpec spec) : spec(spec) {}
  /// pos + 1 on unique levels; else the end of the run of positions whose
  /// coordinate() equals the one at `pos` (a scan).
  Value scanRun(OpBuilder &b, Location loc, Value pos, Value end);
  LevelSpec spec;
};

/// What a level's iterator reads: its buffers (null when the format has
/// none) and the extents of its dimension and its parent level's.
struct LevelBuffers {
  Value positions;
  Value coordinates;
  /// Every buffer the level's format declares, by slot (positions and
  /// coordinates among them).
  SmallVector<Value, 2> declared;
  Value size;
  /// Null at the outermost level.
  Value parentSize;
};

/// The buffers level `l` of `array` has (per its format) and the extents
/// of the dimensions it and its parent store.
LevelBuffers fetchLevelBuffers(OpBuilder &b, Location loc, Value array,
                               unsigned l);

using LevelIteratorFactory = std::function<std::unique_ptr<LevelIterator>(
    LevelSpec, const LevelBuffers &)>;

class LevelIteratorRegistry {
public:
  /// Gives `format` its own iterator; replaces an earlier factory.
  static void registerFactory(const LevelFormat *format,
                              LevelIteratorFactory factory);
  /// The iterator of a level: the format's registered factory, else the one
  /// its properties call for — full levels with coordinate-value iteration
  /// and locate (dense), levels that store coordinates per position
  /// (compressed, singleton). Null when neither applies.
  static std::unique_ptr<LevelIterator> create(LevelSpec spec,
                                               const LevelBuffers &buffers);
};

/// The iterators of the level formats in lib/Conversion/Iterators/Levels,
/// registered with their formats by LevelIteratorRegistry.
std::unique_ptr<LevelIterator> makeDiagonalIterator(LevelSpec spec,
                                                    const LevelBuffers &buffers);
std::unique_ptr<LevelIterator> makeEllpackIterator(LevelSpec spec,
                                                   const LevelBuffers &buffers);
std::unique_ptr<LevelIterator>
makeLooseCompressedIterator(LevelSpec spec, const LevelBuffers &buffers);
std::unique_ptr<LevelIterator> makeHashedIterator(LevelSpec spec,
                                                  const LevelBuffers &buffers);
std::unique_ptr<LevelIterator>
makeStructuredIterator(LevelSpec spec, const LevelBuffers &buffers);

/// The built-in iterators, for factories that wrap them.
std::unique_ptr<LevelIterator> makeFullIterator(LevelSpec spec, Value size);
std::unique_ptr<LevelIterator> makeStoredCoordinateIterator(LevelSpec spec,
                                                            Value positions,
                                                            Value coordinates);

/// Reflection for reading a level backwards: coordinate c reads as
/// kReflectionBase - c and position p as kReflectionBase - 1 - p, so that
/// both ascend as the level is read from its end (every coordinate and
/// position stays below 2^62).
constexpr int64_t kReflectionBase = int64_t(1) << 62;

/// `base` read backwards within each segment (a slice with a negative
/// step, seed 001 Fig. 21 counting down): the coordinates and positions
/// reflected (kReflectionBase), so that the generic cursor, runs and
/// bisection apply unchanged; storedSegment maps a run back. Only for
/// ordered levels without random access.
std::unique_ptr<LevelIterator>
makeReflectedIterator(std::unique_ptr<LevelIterator> base);

/// A part of a level that stores coordinates, read through
/// sparse_array.linearize: coordinates (c / divisor) % modulus (no modulus
/// for the first part); the first part iterates `base`'s segments, later
/// ones the runs their enclosing part leaves them.
std::unique_ptr<LevelIterator>
makeSplitPartIterator(std::unique_ptr<LevelIterator> base, bool first,
                      bool last, Value divisor, Value modulus);

/// Access wrappers (AccessIterators.cpp): `base` read through one
/// combinator; every other question is `base`'s.
/// A slice (lo, hi, step) of the level (seed 000 §4.2, a[lo:hi:step]): loop
/// coordinate x reads lo + step * x; `bound` is the access's bound, which
/// the plan's view records (slicedView).
std::unique_ptr<LevelIterator>
makeSlicedAccess(std::unique_ptr<LevelIterator> base,
                 std::array<int64_t, 3> slice,
                 std::optional<std::array<int64_t, 2>> bound);
/// A padded window: level coordinates outside [validLo, validHi) read the
/// fill (located at validLo, so nothing reads past the level). Wrapped by
/// the slice that maps the loop's coordinates to the level's.
std::unique_ptr<LevelIterator>
makePaddedAccess(std::unique_ptr<LevelIterator> base, int64_t validLo,
                 int64_t validHi);
/// Part `part` of a collapsed read (sparse_array.delinearize, seed 001
/// §5.1's product): loop coordinate x reads (x / divisor) % modulus (no
/// modulus, 0, for the first part).
std::unique_ptr<LevelIterator>
makeCollapsedPartAccess(std::unique_ptr<LevelIterator> base, unsigned part,
                        int64_t divisor, int64_t modulus);
/// A collapsed read of a split read (AccessedLevel::window): loop
/// coordinate x reads x + w * size of the collapse, w the linearization of
/// the coordinates of the enclosing loops `loops` with `sizes`.
std::unique_ptr<LevelIterator>
makeWindowedAccess(std::unique_ptr<LevelIterator> base,
                   ArrayRef<unsigned> loops, ArrayRef<int64_t> sizes,
                   int64_t size);

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_CONVERSION_LEVELITERATOR_H
