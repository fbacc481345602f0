//===- PartsOutput.cpp - Sparse results assembled in parallel parts -------===//
//
// A sparse result whose outer loop the plan shares out in parts (`parts`):
// each part appends its entries to buffers of its own; after the loop the
// runtime's part buffers (sa_rt_parts_*) join the parts in order into
// buffers of the exact size — the sequential result, for any number of
// threads. Against two phases (TwoPhaseOutput.cpp), which compute every
// entry twice, this copies the result once.
//
// The parts' buffers are copied to their offsets in parallel, each part by
// a thread of its own (the offsets a running sum over the parts' counts).
//
// A compressed vector: coordinate x of the counted loop gives at most one
// entry, so part [lo, hi) appends at most hi - lo of them — without a
// capacity check or a branch (each point writes its slot, the count moves
// only past entries that are not the fill). Rows of one compressed level
// under a full one (CSR, CSC): a part's buffers grow as its rows append;
// each row's count goes to positions[x + 1] (rows never reached keep 0),
// summed into positions once every part is done. Any other sparse format
// (DCSR, COO, CSF, ...): each part assembles the result's rows [lo, hi) of
// its outermost level as an appended output of its own (a full outermost
// level seen from lo, so the part's buffers are its rows'), and the runtime
// joins them buffer by buffer: coordinates and values back to back, the
// positions of every level below the outermost shifted by the entries of
// the parts before.
//
//===----------------------------------------------------------------------===//

#include "OutputAssembler.h"
#include "SparseArray/Conversion/RuntimeCalls.h"

#include "CodegenUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::detail;

namespace {

/// The runtime's buffers for `parts` parts (sa_rt_parts_new).
Value newPartsHandle(OpBuilder &b, Location loc, Operation *kernel,
                     Value parts) {
  return callRuntime(
      b, loc, kernel, "sa_rt_parts_new", {b.getI64Type()},
      {arith::IndexCastOp::create(b, loc, b.getI64Type(), parts)});
}

/// The coordinates a part's loop visits at most: hi - lo, or fewer when
/// `visits` bounds them (the stored ones of a range).
Value visited(OpBuilder &b, Value lo, Value hi, Value visits) {
  Location loc = lo.getLoc();
  Value span = arith::SubIOp::create(b, loc, hi, lo);
  return visits ? arith::MinUIOp::create(b, loc, span, visits).getResult()
                : span;
}

/// What every assembly in parts shares: the runtime's handle and a count
/// per part and buffer (`countsPerPart`), made before the parts run.
class PartsAssembler : public OutputAssembler {
public:
  using OutputAssembler::OutputAssembler;
  bool isDense() const override { return false; }
  bool assemblesInParts() const override { return true; }

  void beginParts(OpBuilder &b, Value parts) override {
    Location loc = getLoc();
    numParts = parts;
    handle = newPartsHandle(b, loc, shape.kernel, parts);
    counts = memref::AllocOp::create(
        b, loc, bufferOf(b.getIndexType()),
        ValueRange{b.createOrFold<arith::MulIOp>(
            loc, parts, constIndex(b, loc, countsPerPart()))});
  }

  void endParts(OpBuilder &b) final {
    joinParts(b);
    joined = true;
  }

  Value finish(OpBuilder &b, ValueRange) final {
    // A kernel whose outer loop has nothing to visit (an empty lattice)
    // never ran its parts: one empty part over every row.
    if (!joined) {
      Location loc = getLoc();
      Value zero = constIndex(b, loc, 0);
      beginParts(b, constIndex(b, loc, 1));
      endPart(b, zero, beginPart(b, zero, zero, shape.extents[0], zero));
      endParts(b);
    }
    return assemble(b);
  }

protected:
  /// Turns the parts' counts (countsPerPart per part) into the offsets
  /// where each part's buffers start in the joined ones, in place; the
  /// joined sizes. A slot where `dropsLeadingZero` (positions) loses the
  /// leading 0 of every part but the first.
  SmallVector<Value> countsToOffsets(OpBuilder &b,
                                     function_ref<bool(unsigned)> dropsLeadingZero) {
    Location loc = getLoc();
    unsigned n = countsPerPart();
    Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
    SmallVector<Value> init(n, zero);
    auto scan = scf::ForOp::create(
        b, loc, zero, numParts, one, init,
        [&](OpBuilder &fb, Location l, Value p, ValueRange sums) {
          SmallVector<Value> next;
          Value first = arith::CmpIOp::create(fb, l, arith::CmpIPredicate::eq,
                                              p, constIndex(fb, l, 0));
          for (unsigned s = 0; s < n; ++s) {
            Value at = countIndex(fb, l, p, s);
            Value c = memref::LoadOp::create(fb, l, counts, ValueRange{at});
            if (dropsLeadingZero(s))
              c = arith::SubIOp::create(
                  fb, l, c,
                  arith::SelectOp::create(fb, l, first, constIndex(fb, l, 0),
                                          constIndex(fb, l, 1)));
            memref::StoreOp::create(fb, l, sums[s], counts, ValueRange{at});
            next.push_back(arith::AddIOp::create(fb, l, sums[s], c));
          }
          scf::YieldOp::create(fb, l, next);
        });
    return SmallVector<Value>(scan.getResults());
  }
  /// Part p's buffers copied to their offsets (countsToOffsets), each part
  /// by a thread of its own; then the counts and the handle are freed.
  void takePartsInParallel(
      OpBuilder &b,
      function_ref<void(OpBuilder &, Location, Value, function_ref<Value(unsigned)>)>
          take) {
    Location loc = getLoc();
    emitParallelFor(b, loc, numParts, 2, [&](OpBuilder &pb, Location l, Value p) {
      take(pb, l, p, [&](unsigned s) -> Value {
        return memref::LoadOp::create(pb, l, counts,
                                      ValueRange{countIndex(pb, l, p, s)});
      });
    });
    memref::DeallocOp::create(b, loc, counts);
    callRuntime(b, loc, shape.kernel, "sa_rt_parts_free", {}, {handle});
  }
  Value countIndex(OpBuilder &b, Location l, Value p, unsigned s) {
    return b.createOrFold<arith::AddIOp>(
        l, b.createOrFold<arith::MulIOp>(l, p, constIndex(b, l, countsPerPart())),
        constIndex(b, l, s));
  }
  virtual unsigned countsPerPart() const { return 1; }
  /// The parts' buffers joined into the result's (after the loop).
  virtual void joinParts(OpBuilder &b) = 0;
  /// The result from the joined buffers.
  virtual Value assemble(OpBuilder &b) = 0;
  Value numParts, handle, counts;
  bool joined = false;
};

/// The parts' buffers and their join; a part's state starts with its
/// count, coordinate and value buffers.
class PartsOutput : public PartsAssembler {
public:
  PartsOutput(OpBuilder &b, const OutputShape &shape)
      : PartsAssembler(shape) {
    FormatAttr format = shape.resultType.getFormat();
    posType = b.getIntegerType(format.getPosWidth());
    crdType = b.getIntegerType(format.getCrdWidth());
    valType = shape.resultType.getElementType();
  }

  void endPart(OpBuilder &b, Value p, ValueRange state) override {
    Location loc = getLoc();
    memref::StoreOp::create(b, loc, state[0], counts, ValueRange{p});
    callRuntime(b, loc, shape.kernel, "sa_rt_parts_adopt", {},
                {handle, arith::IndexCastOp::create(b, loc, b.getI64Type(), p),
                 bufferAddress(b, loc, state[1]),
                 byteCount(b, loc, state[0], crdType),
                 bufferAddress(b, loc, state[2]),
                 byteCount(b, loc, state[0], valType)});
    // The runtime owns the buffers from here on (frees them once joined).
  }

  void joinParts(OpBuilder &b) override {
    Location loc = getLoc();
    Value total = countsToOffsets(b, [](unsigned) { return false; })[0];
    coordinates =
        allocOutputBuffer(b, loc, shape.kernel, bufferOf(crdType), total);
    values = allocOutputBuffer(b, loc, shape.kernel, bufferOf(valType), total);
    takePartsInParallel(b, [&](OpBuilder &pb, Location l, Value p,
                               function_ref<Value(unsigned)> offsetOf) {
      Type i64 = pb.getI64Type();
      Value part = arith::IndexCastOp::create(pb, l, i64, p);
      Value offset = offsetOf(0);
      for (auto [slot, buffer, type] :
           {std::make_tuple(0, coordinates, crdType),
            std::make_tuple(1, values, valType)})
        callRuntime(pb, l, shape.kernel, "sa_rt_parts_take_part", {},
                    {handle, part, arith::ConstantIntOp::create(pb, l, i64, slot),
                     arith::AddIOp::create(pb, l, bufferAddress(pb, l, buffer),
                                           byteCount(pb, l, offset, type))});
    });
    makePositions(b, total);
  }

  Value assemble(OpBuilder &b) override {
    return AssembleOp::create(b, getLoc(), shape.resultType,
                              ValueRange{positions, coordinates, values},
                              ValueRange(extentsInDimOrder()));
  }

protected:
  /// The result's positions once the parts are joined.
  virtual void makePositions(OpBuilder &b, Value total) = 0;
  SmallVector<Value> extentsInDimOrder() const {
    SmallVector<Value> dims(shape.extents.size());
    FormatAttr format = shape.resultType.getFormat();
    for (unsigned l = 0; l < dims.size(); ++l)
      dims[format.getLevelDim(l)] = shape.extents[l];
    return dims;
  }
  /// `cap` elements of coordinates and of values for a part.
  SmallVector<Value> partBuffers(OpBuilder &b, Value cap) {
    Location loc = getLoc();
    return {
        memref::AllocOp::create(b, loc, bufferOf(crdType), ValueRange{cap}),
        memref::AllocOp::create(b, loc, bufferOf(valType), ValueRange{cap})};
  }

  Type posType, crdType, valType;
  Value positions, coordinates, values;
};

class PartsVectorOutput final : public PartsOutput {
public:
  using PartsOutput::PartsOutput;

  SmallVector<Value> beginPart(OpBuilder &b, Value, Value lo, Value hi,
                               Value visits) override {
    Location loc = getLoc();
    Value cap = arith::MaxUIOp::create(b, loc, visited(b, lo, hi, visits),
                                       constIndex(b, loc, 1));
    SmallVector<Value> state = {constIndex(b, loc, 0)};
    llvm::append_range(state, partBuffers(b, cap));
    return state;
  }

  SmallVector<Value> store(OpBuilder &b, ArrayRef<Value> coords, Value v,
                           ValueRange state) override {
    Location loc = getLoc();
    Value count = state[0];
    memref::StoreOp::create(
        b, loc, arith::IndexCastUIOp::create(b, loc, crdType, coords[0]),
        state[1], count);
    memref::StoreOp::create(b, loc, v, state[2], count);
    Value kept = differsFrom(b, loc, v, shape.resultType.getFillValue());
    return {arith::AddIOp::create(
                b, loc, count,
                arith::IndexCastUIOp::create(b, loc, b.getIndexType(), kept)),
            state[1], state[2]};
  }

protected:
  void makePositions(OpBuilder &b, Value total) override {
    Location loc = getLoc();
    positions = memref::AllocOp::create(b, loc, bufferOf(posType),
                                        ValueRange{constIndex(b, loc, 2)});
    memref::StoreOp::create(b, loc,
                            arith::ConstantIntOp::create(b, loc, posType, 0),
                            positions, constIndex(b, loc, 0));
    memref::StoreOp::create(
        b, loc, arith::IndexCastUIOp::create(b, loc, posType, total),
        positions, constIndex(b, loc, 1));
  }
};

class PartsRowsOutput final : public PartsOutput {
public:
  PartsRowsOutput(OpBuilder &b, const OutputShape &shape)
      : PartsOutput(b, shape) {
    Location loc = getLoc();
    Value rows = shape.extents[0];
    positions = allocOutputBuffer(
        b, loc, shape.kernel, bufferOf(posType),
        arith::AddIOp::create(b, loc, rows, constIndex(b, loc, 1)));
    memref::StoreOp::create(b, loc,
                            arith::ConstantIntOp::create(b, loc, posType, 0),
                            positions, constIndex(b, loc, 0));
  }

  /// (count, coordinates, values, the count where the current row began)
  SmallVector<Value> beginPart(OpBuilder &b, Value, Value lo, Value hi,
                               Value visits) override {
    Location loc = getLoc();
    zeroRowCounts(b, loc, positions, lo, hi);
    Value cap = arith::AddIOp::create(b, loc, constIndex(b, loc, 16),
                                      visited(b, lo, hi, visits));
    Value zero = constIndex(b, loc, 0);
    SmallVector<Value> state = {zero};
    llvm::append_range(state, partBuffers(b, cap));
    state.push_back(zero);
    return state;
  }

  SmallVector<Value> store(OpBuilder &b, ArrayRef<Value> coords, Value v,
                           ValueRange state) override {
    return appendToRow(b, getLoc(), state, coords[1], v,
                       shape.resultType.getFillValue());
  }

  SmallVector<Value> endLoop(OpBuilder &b, unsigned level,
                             ArrayRef<Value> coords,
                             ValueRange state) override {
    if (level != 1)
      return SmallVector<Value>(state);
    return storeRowCount(b, getLoc(), state, coords[0], positions);
  }

protected:
  void makePositions(OpBuilder &b, Value) override {
    emitCountsToPositions(b, getLoc(), positions, shape.extents[0]);
  }
};

/// Any sparse format: a part is the rows [lo, hi) of the outermost level
/// assembled by an AppendOutput of its own; the joined buffers are the
/// sequential result's.
class PartsAppendOutput final : public PartsAssembler {
public:
  PartsAppendOutput(OpBuilder &b, const OutputShape &shape,
                    const AppendPlan &plan)
      : PartsAssembler(shape), plan(plan) {
    FormatAttr format = shape.resultType.getFormat();
    outerFull = format.getLevels()[0].isFull();
    for (auto [l, spec] : llvm::enumerate(format.getLevels())) {
      if (spec.isFull())
        continue;
      if (spec.format->hasPositionsBuffer())
        slots.push_back({Slot::Positions, static_cast<unsigned>(l),
                         b.getIntegerType(format.getPosWidth())});
      slots.push_back({Slot::Coordinates, static_cast<unsigned>(l),
                       b.getIntegerType(format.getCrdWidth())});
    }
    slots.push_back({Slot::Values, 0, shape.resultType.getElementType()});
  }

  /// Each part costs buffers of its own (allocated, trimmed, joined): no
  /// more parts than the result's entries pay for, about `minWork` each
  /// (at least one part). 256 parts of a 4,000-entry slice into COO spent
  /// 70% of the time in malloc, realloc and free. Only when the capacity
  /// bounds the entries (the loops visit only stored entries): a loop
  /// over U (a complement, a fill that changes) may store far more than
  /// its inputs, and keeps its parts.
  Value maxParts(OpBuilder &b, function_ref<Value(OpBuilder &)>,
                 int64_t minWork) override {
    if (!plan.capacityIsBound)
      return Value();
    Location loc = getLoc();
    return arith::MaxUIOp::create(
        b, loc,
        arith::DivUIOp::create(b, loc, plan.capacity,
                               constIndex(b, loc, std::max<int64_t>(minWork, 1))),
        constIndex(b, loc, 1));
  }

  SmallVector<Value> beginPart(OpBuilder &b, Value p, Value lo, Value hi,
                               Value visits) override {
    Location loc = getLoc();
    Value one = constIndex(b, loc, 1);
    partLo = lo;
    OutputShape part = shape;
    part.parallel = false;
    if (outerFull)
      part.extents[0] = arith::SubIOp::create(b, loc, hi, lo);
    // The loop run as one part (below the plan's thresholds) is the whole
    // result: the whole plan holds, a bound capacity included (no growth
    // checks per entry: a split into COO spent a third of its time there).
    if (isConstantIntValue(p, 0)) {
      current = std::make_unique<AppendOutput>(b, part, plan);
      return SmallVector<Value>(current->initialState());
    }
    // The inputs' entries shared out by parts, a quarter more for slack
    // (parts are cut at equal entries of one input, or are equal spans);
    // buffers grow past that. Not by rows: R-MAT's parts of many short
    // rows got buffers hundreds of times too large, each faulting in a
    // huge page it barely used, and parts of a hub row grew ten times.
    AppendPlan partPlan = plan;
    partPlan.capacityIsBound = false;
    partPlan.vectorVisitsEveryCoordinate = false;
    Value share = arith::DivUIOp::create(
        b, loc,
        arith::AddIOp::create(
            b, loc, plan.capacity,
            arith::ShRUIOp::create(b, loc, plan.capacity, constIndex(b, loc, 2))),
        arith::MaxUIOp::create(b, loc, numParts, one));
    partPlan.capacity =
        arith::AddIOp::create(b, loc, constIndex(b, loc, 16), share);
    current = std::make_unique<AppendOutput>(b, part, partPlan);
    return SmallVector<Value>(current->initialState());
  }

  SmallVector<Value> store(OpBuilder &b, ArrayRef<Value> coords, Value v,
                           ValueRange state) override {
    return current->store(b, fromLo(b, coords), v, state);
  }

  SmallVector<Value> endLoop(OpBuilder &b, unsigned level,
                             ArrayRef<Value> coords,
                             ValueRange state) override {
    // The outermost loop ends per part (endPart), not after the parts.
    if (level == 0)
      return SmallVector<Value>(state);
    return current->endLoop(b, level, fromLo(b, coords), state);
  }

  void endPart(OpBuilder &b, Value p, ValueRange partState) override {
    Location loc = getLoc();
    Type i64 = b.getI64Type();
    SmallVector<Value> state = current->endLoop(b, 0, {}, partState);
    Value base = arith::MulIOp::create(b, loc, p,
                                       constIndex(b, loc, slots.size()));
    for (auto [s, buffer] :
         llvm::enumerate(current->completeBuffers(b, state))) {
      auto [data, size] = buffer;
      memref::StoreOp::create(
          b, loc, size, counts,
          ValueRange{arith::AddIOp::create(b, loc, base, constIndex(b, loc, s))});
      callRuntime(b, loc, shape.kernel, "sa_rt_parts_adopt_slot", {},
                  {handle, arith::IndexCastOp::create(b, loc, i64, p),
                   arith::ConstantIntOp::create(b, loc, i64, s),
                   bufferAddress(b, loc, data),
                   byteCount(b, loc, size, slots[s].type)});
      // Adopted by the runtime: freed once joined.
    }
  }

  void joinParts(OpBuilder &b) override {
    Location loc = getLoc();
    Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
    SmallVector<Value> totals = countsToOffsets(
        b, [&](unsigned s) { return slots[s].kind == Slot::Positions; });
    for (auto [s, slot] : llvm::enumerate(slots)) {
      if (slot.kind == Slot::Positions && slot.level == 0) {
        // One parent: [0, the outermost level's entries] (its coordinates
        // are the next slot).
        Value pos = allocOutputBuffer(b, loc, shape.kernel, bufferOf(slot.type),
                                      constIndex(b, loc, 2));
        memref::StoreOp::create(b, loc,
                                arith::ConstantIntOp::create(b, loc, slot.type, 0),
                                pos, zero);
        memref::StoreOp::create(
            b, loc, arith::IndexCastUIOp::create(b, loc, slot.type, totals[s + 1]),
            pos, one);
        buffers.push_back(pos);
        continue;
      }
      buffers.push_back(allocOutputBuffer(b, loc, shape.kernel,
                                          bufferOf(slot.type), totals[s]));
    }
    // A positions buffer is shifted by the entries of the parts before:
    // the offset of its level's coordinates (the next slot).
    takePartsInParallel(b, [&](OpBuilder &pb, Location l, Value p,
                               function_ref<Value(unsigned)> offsetOf) {
      Type i64 = pb.getI64Type();
      Value part = arith::IndexCastOp::create(pb, l, i64, p);
      for (auto [s, slot] : llvm::enumerate(slots)) {
        if (slot.kind == Slot::Positions && slot.level == 0)
          continue;
        Value dest = arith::AddIOp::create(
            pb, l, bufferAddress(pb, l, buffers[s]),
            byteCount(pb, l, offsetOf(s), slot.type));
        Value slotIndex = arith::ConstantIntOp::create(pb, l, i64, s);
        if (slot.kind == Slot::Positions)
          callRuntime(pb, l, shape.kernel, "sa_rt_parts_take_part_positions",
                      {},
                      {handle, part, slotIndex, dest,
                       arith::ConstantIntOp::create(
                           pb, l, i64, slot.type.getIntOrFloatBitWidth()),
                       arith::IndexCastOp::create(pb, l, i64, offsetOf(s + 1))});
        else
          callRuntime(pb, l, shape.kernel, "sa_rt_parts_take_part", {},
                      {handle, part, slotIndex, dest});
      }
    });
  }

  Value assemble(OpBuilder &b) override {
    SmallVector<Value> dims(shape.extents.size());
    FormatAttr format = shape.resultType.getFormat();
    for (unsigned l = 0; l < dims.size(); ++l)
      dims[format.getLevelDim(l)] = shape.extents[l];
    return AssembleOp::create(b, getLoc(), shape.resultType, buffers, dims);
  }

private:
  unsigned countsPerPart() const override { return slots.size(); }
  struct Slot {
    enum Kind { Positions, Coordinates, Values } kind;
    unsigned level;
    Type type;
  };
  /// The part's coordinates: a full outermost level counts from lo.
  SmallVector<Value> fromLo(OpBuilder &b, ArrayRef<Value> coords) {
    SmallVector<Value> shifted(coords);
    if (outerFull && !shifted.empty())
      shifted[0] = arith::SubIOp::create(b, getLoc(), shifted[0], partLo);
    return shifted;
  }

  AppendPlan plan;
  bool outerFull = false;
  SmallVector<Slot> slots;
  Value partLo;
  std::unique_ptr<AppendOutput> current;
  SmallVector<Value> buffers;
};

} // namespace

std::unique_ptr<OutputAssembler>
mlir::sparse_array::detail::createPartsOutput(OpBuilder &b,
                                              const OutputShape &shape,
                                              const AppendPlan &plan) {
  FormatAttr format = shape.resultType.getFormat();
  ArrayRef<LevelSpec> levels = format.getLevels();
  auto uniqueWithPositions = [&](unsigned l) {
    return levels[l].isSegmented() && levels[l].unique;
  };
  if (levels.size() == 1 && uniqueWithPositions(0))
    return std::make_unique<PartsVectorOutput>(b, shape);
  if (levels.size() == 2 && format.isRowsOfSegments() && levels[1].unique)
    return std::make_unique<PartsRowsOutput>(b, shape);
  return std::make_unique<PartsAppendOutput>(b, shape, plan);
}

void mlir::sparse_array::detail::zeroRowCounts(OpBuilder &b, Location loc,
                                               Value positions, Value lo,
                                               Value hi) {
  Value one = constIndex(b, loc, 1);
  Type posType = cast<MemRefType>(positions.getType()).getElementType();
  Value zeroPos = arith::ConstantIntOp::create(b, loc, posType, 0);
  scf::ForOp::create(b, loc, arith::AddIOp::create(b, loc, lo, one),
                     arith::AddIOp::create(b, loc, hi, one), one, ValueRange{},
                     [&](OpBuilder &fb, Location l, Value i, ValueRange) {
                       memref::StoreOp::create(fb, l, zeroPos, positions, i);
                       scf::YieldOp::create(fb, l);
                     });
}

SmallVector<Value> mlir::sparse_array::detail::appendToRow(
    OpBuilder &b, Location loc, ValueRange state, Value column, Value v,
    TypedAttr fill) {
  Type crdType = cast<MemRefType>(state[1].getType()).getElementType();
  auto kept = scf::IfOp::create(
      b, loc, differsFrom(b, loc, v, fill),
      [&](OpBuilder &tb, Location l) {
        Value count = state[0];
        Value next = arith::AddIOp::create(tb, l, count, constIndex(tb, l, 1));
        Value crd = growToFit(tb, l, state[1], next);
        Value val = growToFit(tb, l, state[2], next);
        memref::StoreOp::create(
            tb, l, arith::IndexCastUIOp::create(tb, l, crdType, column), crd,
            count);
        memref::StoreOp::create(tb, l, v, val, count);
        scf::YieldOp::create(tb, l, ValueRange{next, crd, val, state[3]});
      },
      [&](OpBuilder &eb, Location l) { scf::YieldOp::create(eb, l, state); });
  return SmallVector<Value>(kept.getResults());
}

SmallVector<Value> mlir::sparse_array::detail::storeRowCount(OpBuilder &b,
                                                      Location loc,
                                                      ValueRange state,
                                                      Value row,
                                                      Value positions) {
  Type posType = cast<MemRefType>(positions.getType()).getElementType();
  Value rowCount = arith::SubIOp::create(b, loc, state[0], state[3]);
  memref::StoreOp::create(
      b, loc, arith::IndexCastUIOp::create(b, loc, posType, rowCount),
      positions,
      ValueRange{arith::AddIOp::create(b, loc, row, constIndex(b, loc, 1))});
  return {state[0], state[1], state[2], state[0]};
}
