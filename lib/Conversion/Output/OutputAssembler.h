//===- OutputAssembler.h - Where a kernel's result entries go --*- C++ -*-===//
//
// Output assembly as its own layer (seed 002 §4.3, private to
// lib/Conversion): the loop emitter hands each computed entry to an
// assembler with its coordinates (one per result level) and tells it when a
// result loop ends; the assembler knows nothing of loops or lattices, and
// the loops nothing of buffers. Its state (buffers, counts) travels through
// the loops as SSA values the loops carry for it.
//
// Dense results are stored in place; sparse ones are appended in order
// (the loops visit result coordinates in storage order). A two-phase
// parallel assembler (count, scan, fill) and one in parallel parts are
// further implementations of the same interface.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_LIB_CONVERSION_OUTPUTASSEMBLER_H
#define SPARSEARRAY_LIB_CONVERSION_OUTPUTASSEMBLER_H

#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/IR/Builders.h"

#include <memory>

namespace mlir {
namespace sparse_array {
namespace detail {

/// What assembling a kernel's result needs to know of the kernel.
struct OutputShape {
  KernelOp kernel;
  ArrayType resultType;
  /// The extent of each result level (the result loops' extents).
  SmallVector<Value> extents;
  /// The kernel's loops run in parallel: a dense result's fill too.
  bool parallel = false;
};

/// How the loops visit the result, for appended outputs (decided by the
/// kernel's analysis and plan).
struct AppendPlan {
  /// Initial capacity of every buffer.
  Value capacity;
  /// No level can have more entries than `capacity`: appends need no
  /// capacity checks.
  bool capacityIsBound = false;
  /// Every result loop above the innermost visits each of its coordinates
  /// (lattices with U alone), so that every parent of the innermost level
  /// is reached.
  bool outerLoopsVisitEveryCoordinate = false;
  /// A vector whose loop visits each coordinate in order (mxv results).
  bool vectorVisitsEveryCoordinate = false;
};

class OutputAssembler {
public:
  virtual ~OutputAssembler();

  /// Dense results in place, else appended in order.
  static std::unique_ptr<OutputAssembler>
  create(OpBuilder &b, const OutputShape &shape, const AppendPlan &plan);

  /// The state the loops carry for the output, as set up before them.
  ArrayRef<Value> initialState() const { return initial; }
  /// Whether every point of the result is stored (a fill stored outside
  /// the kernel's space is then work, not a no-op).
  virtual bool isDense() const = 0;
  /// Stores entry `v` at `coords` (one per result level, outermost first);
  /// entries equal to the result's fill are dropped where the format
  /// allows.
  virtual SmallVector<Value> store(OpBuilder &b, ArrayRef<Value> coords,
                                   Value v, ValueRange state) = 0;
  /// After the loop over result level `level` ran, at the coordinates of
  /// the loops around it.
  virtual SmallVector<Value> endLoop(OpBuilder &b, unsigned level,
                                     ArrayRef<Value> coords, ValueRange state) {
    return SmallVector<Value>(state);
  }
  /// The result array.
  virtual Value finish(OpBuilder &b, ValueRange state) = 0;

  /// Parallel rows (two-phase assembly): the outermost loop runs once per
  /// phase; in each, the state an iteration x carries starts as
  /// rowState(x) and ends in endRow. One phase and no row state otherwise.
  virtual unsigned numPhases() const { return 1; }
  virtual void beginPhase(OpBuilder &b, unsigned phase) {}
  virtual SmallVector<Value> rowState(OpBuilder &b, Value x) { return {}; }
  virtual void endRow(OpBuilder &b, Value x, ValueRange state) {}

  /// Assembly in parts (a sparse result planned `parts`): the outer
  /// loop's coordinates run in `parts` parts [lo, hi), in parallel; part
  /// p's state starts as beginPart and ends in endPart; endParts joins them
  /// (before finish). `visits`, when given, bounds the coordinates the
  /// part's loop visits (stored ones in a range), else hi - lo. `p` is the
  /// constant 0 exactly when the loop runs as one part, [lo, hi) every
  /// coordinate (sequentially, below the plan's thresholds).
  virtual bool assemblesInParts() const { return false; }
  /// The most parts the assembler affords — each part's state costs
  /// memory: a scatter reduction's accumulators — or null for the loop's
  /// default. `work(b)` emits an estimate of the points the loop visits
  /// (the balancing input's entries, else the outer extent); `minWork` is
  /// the least work the plan deems worth a thread (its min_extent).
  virtual Value maxParts(OpBuilder &b, function_ref<Value(OpBuilder &)> work,
                         int64_t minWork) {
    return Value();
  }
  /// The runtime chain (sa_rt_chain_new) through which threads claim the
  /// parts in increasing order (emitClaimedParts), once beginParts ran; or
  /// null: any order.
  virtual Value chain() const { return Value(); }
  virtual void beginParts(OpBuilder &b, Value parts) {}
  virtual SmallVector<Value> beginPart(OpBuilder &b, Value p, Value lo,
                                       Value hi, Value visits = Value()) {
    return {};
  }
  virtual void endPart(OpBuilder &b, Value p, ValueRange state) {}
  virtual void endParts(OpBuilder &b) {}

protected:
  OutputAssembler(const OutputShape &shape) : shape(shape) {}
  Location getLoc() { return shape.kernel.getLoc(); }

  OutputShape shape;
  SmallVector<Value> initial;
};

/// A result whose outermost level is full and whose second and last level
/// has positions (CSR, CSC), assembled by parallel rows in two phases:
/// count each row's entries (the loops without stores), scan the counts
/// into positions, then fill each row at its offset (TwoPhaseOutput.cpp).
std::unique_ptr<OutputAssembler> createTwoPhaseRowsOutput(OpBuilder &b,
                                                          const OutputShape &shape);

/// A sparse result assembled in parallel parts, each appending to buffers
/// of its own, joined in part order by the runtime (PartsOutput.cpp): a
/// compressed vector whose counted loop gives each coordinate at most one
/// entry; rows of one compressed level under a full one (CSR, CSC); any
/// other sparse format, each part assembling its rows of the outermost
/// level as an AppendOutput of its own (`plan`'s capacity shared out).
std::unique_ptr<OutputAssembler> createPartsOutput(OpBuilder &b,
                                                   const OutputShape &shape,
                                                   const AppendPlan &plan);

/// Rows of a CSR/CSC result whose entries the inputs' stored entries bound
/// (`plan.capacity`), in parts claimed in order (`parts, chained`): each
/// part computes its rows into scratch buffers and copies them to where
/// the part before it ended, once that part published its end
/// (ChainedRowsOutput.cpp).
std::unique_ptr<OutputAssembler> createChainedRowsOutput(OpBuilder &b,
                                                         const OutputShape &shape,
                                                         const AppendPlan &plan);

/// Rows of a CSR/CSC result appended per part (PartsOutput.cpp,
/// ChainedRowsOutput.cpp), a part's state being (count, coordinates,
/// values, the count where the current row began): positions[lo + 1, hi]
/// zeroed (rows whose loops never run count 0); entry v at `column`
/// appended unless it is `fill` (the buffers grown as needed); and after
/// row `row`'s loop its count stored at positions[row + 1].
void zeroRowCounts(OpBuilder &b, Location loc, Value positions, Value lo,
                   Value hi);
SmallVector<Value> appendToRow(OpBuilder &b, Location loc, ValueRange state,
                               Value column, Value v, TypedAttr fill);
SmallVector<Value> storeRowCount(OpBuilder &b, Location loc, ValueRange state,
                          Value row, Value positions);

/// A fresh output buffer of `size` elements (huge pages asked for when
/// large: written once, in order).
Value allocOutputBuffer(OpBuilder &b, Location loc, Operation *kernel,
                        MemRefType type, Value size);
/// Runs `piece(b, loc, lo, len)` over [0, n): in up to 64 pieces that an
/// scf.parallel shares out (OpenMP threads once lowered, each a contiguous
/// run of pieces) when the i1 `parallel` holds, else once over [0, n). Two
/// threads copy a fresh 84 MB buffer in half the time of one: the page
/// faults and the memory traffic both split. With `counting`, `piece`
/// returns a count and the sum is returned (through a stack buffer, one
/// slot per piece); else null.
Value forPieces(OpBuilder &b, Location loc, Value n, Value parallel,
                bool counting,
                function_ref<Value(OpBuilder &, Location, Value, Value)> piece);
/// The copies below take `parallelMin`: a copy of at least that many
/// elements (> 0) is shared out among threads in pieces (an scf.parallel,
/// OpenMP loops once lowered); 0 copies on the calling thread.
///
/// A fresh copy of a 1-D buffer (a result owns its buffers), allocated as
/// allocOutputBuffer does.
Value copyOutputBuffer(OpBuilder &b, Location loc, Operation *anchor,
                       Value buffer, int64_t parallelMin = 0);
/// A copy of the values buffer `values` and how many of them equal `fill`
/// (isSameScalar's equality), counted as they are copied: one loop the C
/// compiler vectorizes.
std::pair<Value, Value> copyCountingFills(OpBuilder &b, Location loc,
                                          Operation *anchor, Value values,
                                          TypedAttr fill,
                                          int64_t parallelMin = 0);
/// Copies `n` elements of the 1-D buffer `source` from `from` to `dest` at
/// `to` (distinct buffers): one memcpy for byte-sized elements when `dest`
/// lies in a module (the runtime's sa_rt_copy_bytes), else a loop.
void copyRange(OpBuilder &b, Location loc, Value source, Value from, Value dest,
               Value to, Value n, int64_t parallelMin = 0);
/// Copies `n` values from `source` at `from` to `dest` at `to`; returns
/// `counted` plus how many of them equal `fill` (copyCountingFills' loop).
Value copyRangeCountingFills(OpBuilder &b, Location loc, Value source,
                             Value from, Value dest, Value to, Value n,
                             TypedAttr fill, Value counted,
                             int64_t parallelMin = 0);
/// `array` without stored entries equal to its fill: unchanged when
/// `storedFills` is 0, else through change_fill to its own fill (which
/// drops them; the original is freed). Results store no such entries
/// (docs/storage.md); only inputs assembled with them bring them.
Value dropStoredFills(OpBuilder &b, Location loc, Value array,
                      Value storedFills);
/// `buffer`, grown (doubled, at least to `needed`) when it holds fewer
/// than `needed` elements.
Value growToFit(OpBuilder &b, Location loc, Value buffer, Value needed);

/// Sparse output levels and their growing buffers, threaded through every
/// loop and branch as SSA values.
struct OutputLevel {
  LevelSpec spec;
  bool sparse = false;       // appended (stores coordinates)
  bool hasPositions = false; // compressed-like
  int crdSlot = -1, countSlot = -1, posSlot = -1;
};

/// Levels appended in order: coordinates and values pushed as the loops
/// reach them, positions per parent (seed 002 §4.3, the append capability).
class AppendOutput : public OutputAssembler {
public:
  AppendOutput(OpBuilder &b, const OutputShape &shape, const AppendPlan &plan);
  bool isDense() const override { return false; }
  SmallVector<Value> store(OpBuilder &b, ArrayRef<Value> coords, Value v,
                           ValueRange state) override;
  SmallVector<Value> endLoop(OpBuilder &b, unsigned level,
                             ArrayRef<Value> coords, ValueRange state) override;
  Value finish(OpBuilder &b, ValueRange state) override;
  /// The result's buffers in storage order (docs/storage.md), each with
  /// its element count, once the loops are done: positions completed,
  /// buffers not trimmed to their counts.
  SmallVector<std::pair<Value, Value>> completeBuffers(OpBuilder &b,
                                                       ValueRange state);

private:
  Value ensureCapacity(OpBuilder &b, Value buffer, Value needed) {
    return capacityIsBound ? buffer : growToFit(b, getLoc(), buffer, needed);
  }
  unsigned rank() const { return shape.extents.size(); }

  SmallVector<OutputLevel> outLevels;
  int valuesSlot = -1;
  /// The initial capacity bounds every output buffer, so appends need no
  /// capacity checks.
  bool capacityIsBound = false;
  /// The innermost output level's positions are stored once per parent
  /// after the innermost loop: it has positions, and its parent is an
  /// entry of the level above (sparse) or a full prefix — never a dense
  /// level below a sparse one, whose slots an unreached parent would alias.
  bool positionsAfterLoop = false;
  /// Whether every parent of the innermost level is visited, so that its
  /// positions are all written after their loops: no zeroing before and no
  /// running-max fix-up after (only when every level above is full and
  /// every outer loop visits each coordinate).
  bool everyParentVisited = false;
  /// A vector output whose loop visits every coordinate in order: the
  /// entries appended before coordinate c are fewer than c + 1 <= extent =
  /// capacity, so each point stores its coordinate and value in the next
  /// slot unconditionally and counts them only when the value is not the
  /// fill (no branch on the value; see store).
  bool appendBranchFree = false;
};

} // namespace detail
} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_LIB_CONVERSION_OUTPUTASSEMBLER_H
