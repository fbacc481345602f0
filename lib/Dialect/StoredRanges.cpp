//===- StoredRanges.cpp - Shape operators that move stored ranges ---------===//
//
// When a slice or a concatenation computes nothing, its result's stored
// entries are the source's, in the same order, cut into or joined from
// ranges of stored positions (seed 002 §3.1: below a range of positions of
// one level lies a range of positions of every lower level). The lowering
// (lib/Conversion/Shape/MoveRanges.cpp) then copies buffers a range at a time:
// loops the C compiler turns into memcpy-like code, the bulk copies seed
// 001 §8.3 found missing from its generated vstack. These predicates say
// when that applies; sparse-array-fuse keeps such an op only when nothing
// fuses with it, and sparse-array-lower-shape moves it.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Dialect/SparseArray.h"

using namespace mlir;
using namespace mlir::sparse_array;

std::optional<unsigned>
mlir::sparse_array::getStoredRangeLevel(FormatAttr format, unsigned dim) {
  unsigned level = format.getDimLevel(dim);
  // Every level above must be full and bufferless: the parents of `level`
  // are then the same positions in every array of the same shape.
  for (LevelSpec above : format.getLevels().take_front(level))
    if (!above.isFull() || above.format->hasPositionsBuffer() ||
        above.format->hasCoordinatesBuffer())
      return std::nullopt;
  return level;
}

bool mlir::sparse_array::isStoredAlike(ArrayType a, ArrayType b) {
  FormatAttr fa = a.getFormat(), fb = b.getFormat();
  return fa.getLevels() == fb.getLevels() && fa.getOrder() == fb.getOrder() &&
         fa.getPosWidth() == fb.getPosWidth() &&
         fa.getCrdWidth() == fb.getCrdWidth() &&
         isSameScalar(fa.getFill(), fb.getFill());
}

std::optional<unsigned> mlir::sparse_array::getMovedRangeLevel(ConcatOp op) {
  auto result = cast<ArrayType>(op.getResult().getType());
  for (Value input : op.getInputs())
    if (!isStoredAlike(cast<ArrayType>(input.getType()), result))
      return std::nullopt;
  return getConcatRangeLevel(result.getFormat(), op.getDim());
}

std::optional<unsigned>
mlir::sparse_array::getConcatRangeLevel(FormatAttr format, unsigned dim) {
  if (std::optional<unsigned> level = getStoredRangeLevel(format, dim))
    return level;
  // Stored levels above a stored cut level are merged (the union of the
  // parts' coordinates, in order): ordered, with coordinates per position; unique
  // (a merged coordinate owns the parts' children together), or — right
  // above the cut — non-unique (each part's run of a coordinate is copied
  // whole: COO rows).
  unsigned cut = format.getDimLevel(dim);
  // A part may lack a merged parent; a full cut level would then miss that
  // part's entries of the row.
  if (format.getLevels()[cut].isFull())
    return std::nullopt;
  for (unsigned l = 0; l < cut; ++l) {
    LevelSpec spec = format.getLevels()[l];
    if (spec.isFull()) {
      if (spec.format->hasPositionsBuffer() ||
          spec.format->hasCoordinatesBuffer())
        return std::nullopt;
      continue;
    }
    if (!spec.ordered || !spec.format->hasCoordinatesBuffer() ||
        (!spec.unique && l + 1 != cut))
      return std::nullopt;
  }
  return cut;
}

std::optional<std::pair<unsigned, unsigned>>
mlir::sparse_array::getMovedRangeLevel(SliceOp op) {
  auto source = cast<ArrayType>(op.getSource().getType());
  auto result = cast<ArrayType>(op.getResult().getType());
  if (source.getRank() != result.getRank() || !isStoredAlike(source, result))
    return std::nullopt;
  std::optional<unsigned> sliced;
  for (unsigned d = 0; d < source.getRank(); ++d) {
    FailureOr<SliceOp::Normalized> n = op.normalize(d);
    if (failed(n) || n->index)
      return std::nullopt;
    if (n->whole)
      continue;
    // One dimension, ascending by one, of a size known at compile time
    // (no run-time extent check to make).
    if (sliced || n->step != 1 || source.isDynamicDim(d))
      return std::nullopt;
    sliced = d;
  }
  if (!sliced)
    return std::nullopt;
  std::optional<unsigned> level =
      getStoredRangeLevel(source.getFormat(), *sliced);
  // A range of coordinates is a range of positions on full levels and,
  // found by bisection, on ordered ones.
  if (!level)
    return std::nullopt;
  LevelSpec spec = source.getFormat().getLevels()[*level];
  if (!spec.ordered || (spec.isFull() && !spec.unique))
    return std::nullopt;
  return std::make_pair(*sliced, *level);
}

std::optional<unsigned> mlir::sparse_array::getSplitStoredLevel(SplitOp op) {
  auto source = cast<ArrayType>(op.getSource().getType());
  auto result = cast<ArrayType>(op.getResult().getType());
  FormatAttr sf = source.getFormat(), rf = result.getFormat();
  // Static sizes (no run-time check of the split to make), none 0.
  if (!source.hasStaticShape() || !result.hasStaticShape() ||
      llvm::is_contained(result.getShape(), 0) ||
      !isSameScalar(sf.getFill(), rf.getFill()))
    return std::nullopt;
  unsigned d = op.getDim(), k = op.getSizes().size();
  bool fortran = op.getOrder() == "F";
  unsigned level = sf.getDimLevel(d);
  auto resultDim = [&](unsigned dim) { return dim < d ? dim : dim + k - 1; };
  // Levels outside the split keep their buffers (copied): the same widths
  // where they have any. The group's are written (any widths: a vector
  // of 2^32 coordinates or more splits into 32-bit ones).
  for (unsigned l = 0; l < sf.getNumLevels(); ++l) {
    if (l == level)
      continue;
    unsigned rl = l < level ? l : l + k - 1;
    LevelSpec spec = sf.getLevels()[l];
    if (spec != rf.getLevels()[rl] ||
        rf.getLevelDim(rl) != resultDim(sf.getLevelDim(l)) ||
        (spec.format->hasPositionsBuffer() &&
         sf.getPosWidth() != rf.getPosWidth()) ||
        (spec.format->hasCoordinatesBuffer() &&
         sf.getCrdWidth() != rf.getCrdWidth()))
      return std::nullopt;
  }
  for (unsigned j = 0; j < k; ++j)
    if (rf.getLevelDim(level + j) != (fortran ? d + k - 1 - j : d + j))
      return std::nullopt;
  auto bufferless = [](LevelSpec s) {
    return s.isFull() && !s.format->hasPositionsBuffer() &&
           !s.format->hasCoordinatesBuffer();
  };
  ArrayRef<LevelSpec> group = rf.getLevels().slice(level, k);
  unsigned f = 0;
  while (f < k && bufferless(group[f]))
    ++f;
  LevelSpec split = sf.getLevels()[level];
  if (f == k)
    return bufferless(split) ? std::optional<unsigned>(level) : std::nullopt;
  auto storesSegments = [](LevelSpec s) {
    return s.ordered && !s.isFull() && s.format->hasPositionsBuffer() &&
           s.format->hasCoordinatesBuffer();
  };
  if (!storesSegments(split) || !split.unique || !storesSegments(group[f]))
    return std::nullopt;
  // Below a unique first stored level, a coordinate would own a run of
  // entries (DCSR's rows): not one coordinate per entry.
  if (f + 1 < k && group[f].unique)
    return std::nullopt;
  for (LevelSpec s : group.drop_front(f + 1))
    if (!s.ordered || s.format->hasPositionsBuffer() ||
        !s.format->hasCoordinatesBuffer())
      return std::nullopt;
  return level;
}

bool mlir::sparse_array::isConcatIntoRows(ConcatOp op) {
  auto result = cast<ArrayType>(op.getResult().getType());
  FormatAttr rf = result.getFormat();
  if (op.getDim() != 0 || result.getRank() != 2 || rf.getLevelDim(0) != 0)
    return false;
  LevelSpec rows = rf.getLevels()[0], cols = rf.getLevels()[1];
  if (!rows.isFull() || rows.format->hasPositionsBuffer() ||
      rows.format->hasCoordinatesBuffer() || cols.isFull() || !cols.ordered ||
      !cols.unique || !cols.format->hasPositionsBuffer() ||
      !cols.format->hasCoordinatesBuffer())
    return false;
  for (Value input : op.getInputs()) {
    FormatAttr f = cast<ArrayType>(input.getType()).getFormat();
    LevelSpec r = f.getLevels()[0], c = f.getLevels()[1];
    // The columns are copied as they are: the same width and fill.
    if (f.getLevelDim(0) != 0 || f.getCrdWidth() != rf.getCrdWidth() ||
        !isSameScalar(f.getFill(), rf.getFill()) || r.isFull() || !r.ordered ||
        !r.format->hasCoordinatesBuffer() || !c.ordered || !c.unique ||
        c.format->hasPositionsBuffer() || !c.format->hasCoordinatesBuffer())
      return false;
  }
  return true;
}

/// COO: rows non-unique with positions and coordinates, one column per
/// position below (row-major).
static bool isCooMatrix(ArrayType type) {
  FormatAttr f = type.getFormat();
  if (type.getRank() != 2 || f.getLevelDim(0) != 0)
    return false;
  LevelSpec rows = f.getLevels()[0], cols = f.getLevels()[1];
  return !rows.isFull() && !rows.unique && rows.format->hasPositionsBuffer() &&
         rows.format->hasCoordinatesBuffer() && cols.ordered &&
         !cols.format->hasPositionsBuffer() &&
         cols.format->hasCoordinatesBuffer();
}

/// CSR read into the COO `result`: full rows without buffers over ordered
/// unique columns, copied in their width with the result's fill.
static bool isCsrInto(ArrayType type, ArrayType result) {
  FormatAttr f = type.getFormat(), rf = result.getFormat();
  LevelSpec r = f.getLevels()[0], c = f.getLevels()[1];
  return f.getLevelDim(0) == 0 && f.getCrdWidth() == rf.getCrdWidth() &&
         isSameScalar(f.getFill(), rf.getFill()) && r.isFull() &&
         !r.format->hasPositionsBuffer() && !r.format->hasCoordinatesBuffer() &&
         !c.isFull() && c.ordered && c.unique &&
         c.format->hasCoordinatesBuffer();
}

bool mlir::sparse_array::isConcatIntoCoo(ConcatOp op) {
  auto result = cast<ArrayType>(op.getResult().getType());
  if (!isCooMatrix(result))
    return false;
  return llvm::all_of(op.getInputs(), [&](Value input) {
    return isCsrInto(cast<ArrayType>(input.getType()), result);
  });
}

bool mlir::sparse_array::isSliceIntoCoo(SliceOp op) {
  auto source = cast<ArrayType>(op.getSource().getType());
  auto result = cast<ArrayType>(op.getResult().getType());
  if (source.getRank() != 2 || !isCooMatrix(result) ||
      !isCsrInto(source, result) || source.isDynamicDim(0))
    return false;
  // A range of rows, ascending by one (a size known at compile time: no
  // run-time check to make), every column.
  FailureOr<SliceOp::Normalized> rows = op.normalize(0), cols = op.normalize(1);
  return succeeded(rows) && succeeded(cols) && !rows->index &&
         rows->step == 1 && !cols->index && cols->whole;
}
