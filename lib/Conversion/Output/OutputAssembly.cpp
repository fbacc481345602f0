//===- OutputAssembly.cpp - Result storage of a kernel --------------------===//
//
// seed 002 §4.3: the result assembled by appending in order (sparse
// levels) or stored in place (dense levels), behind the OutputAssembler
// interface (OutputAssembler.h); and the plan KernelLowering makes for it.
//
//===----------------------------------------------------------------------===//

#include "OutputAssembler.h"

#include "Loops/KernelLowering.h"
#include "SparseArray/Conversion/RuntimeCalls.h"
#include "SparseArray/Dialect/Storage.h"
#include "SparseArray/Transforms/Parallelism.h"

#include "CodegenUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SmallBitVector.h"

#include <limits>

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::detail;

OutputAssembler::~OutputAssembler() = default;

Value mlir::sparse_array::detail::growToFit(OpBuilder &b, Location loc,
                                            Value buffer, Value needed) {
  Value cap = memref::DimOp::create(b, loc, buffer, 0);
  Value full =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, needed, cap);
  auto grow = scf::IfOp::create(
      b, loc, full,
      [&](OpBuilder &tb, Location l) {
        Value twice = arith::MulIOp::create(tb, l, cap, constIndex(tb, l, 2));
        Value size = arith::MaxUIOp::create(tb, l, twice, needed);
        Value bigger = memref::ReallocOp::create(
            tb, l, cast<MemRefType>(buffer.getType()), buffer, size);
        scf::YieldOp::create(tb, l, bigger);
      },
      [&](OpBuilder &eb, Location l) { scf::YieldOp::create(eb, l, buffer); });
  return grow.getResult(0);
}

Value mlir::sparse_array::detail::allocOutputBuffer(OpBuilder &b, Location loc,
                                                    Operation *kernel,
                                                    MemRefType type,
                                                    Value size) {
  Value buffer = memref::AllocOp::create(b, loc, type, ValueRange{size});
  // Written once, in order: ask for huge pages (runtime/lib/Memory.cpp).
  Type i64 = b.getI64Type();
  Value address = arith::IndexCastOp::create(
      b, loc, i64,
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer));
  unsigned bytes = (type.getElementTypeBitWidth() + 7) / 8;
  Value total = arith::MulIOp::create(
      b, loc, arith::IndexCastOp::create(b, loc, i64, size),
      arith::ConstantIntOp::create(b, loc, i64, bytes));
  callRuntime(b, loc, kernel, "sa_rt_advise_sequential_buffer", {},
              {address, total});
  return buffer;
}

Value mlir::sparse_array::detail::copyOutputBuffer(OpBuilder &b, Location loc,
                                                   Operation *anchor,
                                                   Value buffer,
                                                   int64_t parallelMin) {
  auto type = cast<MemRefType>(buffer.getType());
  Value n = memref::DimOp::create(b, loc, buffer, 0);
  Value copy = allocOutputBuffer(b, loc, anchor, type, n);
  if (parallelMin > 0) {
    Value zero = constIndex(b, loc, 0);
    copyRange(b, loc, buffer, zero, copy, zero, n, parallelMin);
  } else {
    memref::CopyOp::create(b, loc, buffer, copy);
  }
  return copy;
}

Value mlir::sparse_array::detail::forPieces(
    OpBuilder &b, Location loc, Value n, Value parallel, bool counting,
    function_ref<Value(OpBuilder &, Location, Value, Value)> piece) {
  constexpr int64_t kPieces = 64;
  auto pieces = [&](OpBuilder &pb, Location l) -> Value {
    Value one = constIndex(pb, l, 1);
    Value count = arith::MinUIOp::create(pb, l, n, constIndex(pb, l, kPieces));
    Value size = arith::CeilDivUIOp::create(
        pb, l, n, arith::MaxUIOp::create(pb, l, count, one));
    Value counts;
    if (counting)
      counts = memref::AllocaOp::create(
          pb, l, MemRefType::get({kPieces}, pb.getIndexType()));
    scf::ParallelOp::create(
        pb, l, ValueRange{constIndex(pb, l, 0)}, ValueRange{count},
        ValueRange{one}, [&](OpBuilder &cb, Location cl, ValueRange ivs) {
          Value lo = arith::MinUIOp::create(
              cb, cl, n, arith::MulIOp::create(cb, cl, ivs.front(), size));
          Value hi = arith::MinUIOp::create(
              cb, cl, n, arith::AddIOp::create(cb, cl, lo, size));
          Value c = piece(cb, cl, lo, arith::SubIOp::create(cb, cl, hi, lo));
          if (counting)
            memref::StoreOp::create(cb, cl, c, counts, ivs);
        });
    if (!counting)
      return Value();
    auto sum = scf::ForOp::create(
        pb, l, constIndex(pb, l, 0), count, one,
        ValueRange{constIndex(pb, l, 0)},
        [&](OpBuilder &sb, Location sl, Value i, ValueRange acc) {
          Value c = memref::LoadOp::create(sb, sl, counts, ValueRange{i});
          scf::YieldOp::create(
              sb, sl, ValueRange{arith::AddIOp::create(sb, sl, acc[0], c)});
        });
    return sum.getResult(0);
  };
  auto branch = scf::IfOp::create(
      b, loc, parallel,
      [&](OpBuilder &tb, Location l) {
        Value c = pieces(tb, l);
        scf::YieldOp::create(tb, l, c ? ValueRange{c} : ValueRange{});
      },
      [&](OpBuilder &eb, Location l) {
        Value c = piece(eb, l, constIndex(eb, l, 0), n);
        scf::YieldOp::create(eb, l, c ? ValueRange{c} : ValueRange{});
      });
  return counting ? branch.getResult(0) : Value();
}

/// forPieces when n >= parallelMin > 0; else `chunk` once over [0, n).
static Value
forCopyChunks(OpBuilder &b, Location loc, Value n, int64_t parallelMin,
              bool counting,
              function_ref<Value(OpBuilder &, Location, Value, Value)> chunk) {
  if (parallelMin <= 0)
    return chunk(b, loc, constIndex(b, loc, 0), n);
  Value large = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, n,
                                      constIndex(b, loc, parallelMin));
  return forPieces(b, loc, n, large, counting, chunk);
}

void mlir::sparse_array::detail::copyRange(OpBuilder &b, Location loc,
                                           Value source, Value from, Value dest,
                                           Value to, Value n,
                                           int64_t parallelMin) {
  if (parallelMin > 0) {
    forCopyChunks(b, loc, n, parallelMin, /*counting=*/false,
                  [&](OpBuilder &cb, Location cl, Value lo, Value len) {
                    copyRange(cb, cl, source,
                              arith::AddIOp::create(cb, cl, from, lo), dest,
                              arith::AddIOp::create(cb, cl, to, lo), len);
                    return Value();
                  });
    return;
  }
  unsigned bits = cast<MemRefType>(source.getType())
                      .getElementType()
                      .getIntOrFloatBitWidth();
  int64_t bytes = bits % 8 == 0 ? bits / 8 : 0;
  // The runtime function is declared in the module of `dest` (an inserted
  // op: the builder may be inside a region not attached yet); the loop
  // copies when there is none.
  Operation *anchor = dest.getDefiningOp();
  if (!anchor)
    anchor = dest.getParentRegion()->getParentOp();
  if (!anchor || !anchor->getParentOfType<ModuleOp>())
    bytes = 0;
  if (bytes) {
    // The C library's memcpy (sa_rt_copy_bytes): faster than a loop once
    // the buffers are beyond the caches.
    Type i64 = b.getI64Type();
    Value width = arith::ConstantIntOp::create(b, loc, i64, bytes);
    auto addressOf = [&](Value buffer, Value index) {
      Value base = arith::IndexCastOp::create(
          b, loc, i64,
          memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer));
      return arith::AddIOp::create(
          b, loc, base,
          arith::MulIOp::create(
              b, loc, arith::IndexCastOp::create(b, loc, i64, index), width));
    };
    Value size = arith::MulIOp::create(
        b, loc, arith::IndexCastOp::create(b, loc, i64, n), width);
    callRuntime(b, loc, anchor, "sa_rt_copy_bytes", {},
                {addressOf(dest, to), addressOf(source, from), size});
    return;
  }
  scf::ForOp::create(
      b, loc, constIndex(b, loc, 0), n, constIndex(b, loc, 1), ValueRange{},
      [&](OpBuilder &lb, Location l, Value i, ValueRange) {
        Value v = memref::LoadOp::create(
            lb, l, source, ValueRange{arith::AddIOp::create(lb, l, from, i)});
        memref::StoreOp::create(
            lb, l, v, dest, ValueRange{arith::AddIOp::create(lb, l, to, i)});
        scf::YieldOp::create(lb, l);
      });
}

Value mlir::sparse_array::detail::copyRangeCountingFills(
    OpBuilder &b, Location loc, Value source, Value from, Value dest, Value to,
    Value n, TypedAttr fill, Value counted, int64_t parallelMin) {
  if (parallelMin > 0) {
    Value pieces = forCopyChunks(
        b, loc, n, parallelMin, /*counting=*/true,
        [&](OpBuilder &cb, Location cl, Value lo, Value len) {
          return copyRangeCountingFills(
              cb, cl, source, arith::AddIOp::create(cb, cl, from, lo), dest,
              arith::AddIOp::create(cb, cl, to, lo), len, fill,
              constIndex(cb, cl, 0));
        });
    return arith::AddIOp::create(b, loc, counted, pieces);
  }
  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  // In blocks of 32 KiB: a copy (copyRange: memcpy for byte-sized
  // elements), then a loop counting the block's fills from L1. Copying and
  // counting in one loop was no faster than this (bcsstk13's collapse).
  constexpr int64_t kBlock = 4096;
  Value block = constIndex(b, loc, kBlock);
  auto blocks = scf::ForOp::create(
      b, loc, zero, n, block, ValueRange{counted},
      [&](OpBuilder &bb, Location bl, Value first, ValueRange sums) {
        Value stop = arith::MinUIOp::create(
            bb, bl, n, arith::AddIOp::create(bb, bl, first, block));
        Value src = arith::AddIOp::create(bb, bl, from, first);
        Value dst = arith::AddIOp::create(bb, bl, to, first);
        Value len = arith::SubIOp::create(bb, bl, stop, first);
        copyRange(bb, bl, source, src, dest, dst, len);
        auto count = scf::ForOp::create(
            bb, bl, zero, len, one, sums,
            [&](OpBuilder &lb, Location l, Value i, ValueRange args) {
              Value v = memref::LoadOp::create(
                  lb, l, dest,
                  ValueRange{arith::AddIOp::create(lb, l, dst, i)});
              Value same = arith::XOrIOp::create(
                  lb, l, differsFrom(lb, l, v, fill),
                  arith::ConstantIntOp::create(lb, l, 1, 1));
              Value sum = arith::AddIOp::create(
                  lb, l, args[0],
                  arith::IndexCastUIOp::create(lb, l, lb.getIndexType(), same));
              scf::YieldOp::create(lb, l, sum);
            });
        scf::YieldOp::create(bb, bl, count.getResults());
      });
  return blocks.getResult(0);
}

std::pair<Value, Value> mlir::sparse_array::detail::copyCountingFills(
    OpBuilder &b, Location loc, Operation *anchor, Value values, TypedAttr fill,
    int64_t parallelMin) {
  auto type = cast<MemRefType>(values.getType());
  Value n = memref::DimOp::create(b, loc, values, 0);
  Value copy = allocOutputBuffer(b, loc, anchor, type, n);
  Value zero = constIndex(b, loc, 0);
  return {copy, copyRangeCountingFills(b, loc, values, zero, copy, zero, n,
                                       fill, zero, parallelMin)};
}

Value mlir::sparse_array::detail::dropStoredFills(OpBuilder &b, Location loc,
                                                  Value array,
                                                  Value storedFills) {
  Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                    storedFills, constIndex(b, loc, 0));
  auto branch = scf::IfOp::create(
      b, loc, any,
      [&](OpBuilder &tb, Location l) {
        Value clean =
            ChangeFillOp::create(tb, l, array.getType(), array).getResult();
        DeallocOp::create(tb, l, array);
        scf::YieldOp::create(tb, l, clean);
      },
      [&](OpBuilder &eb, Location l) { scf::YieldOp::create(eb, l, array); });
  return branch.getResult(0);
}

static void fillBuffer(OpBuilder &b, Location loc, Value buffer, Value from,
                       Value to, Value value) {
  scf::ForOp::create(b, loc, from, to, constIndex(b, loc, 1), ValueRange{},
                     [&](OpBuilder &fb, Location l, Value i, ValueRange) {
                       memref::StoreOp::create(fb, l, value, buffer, i);
                       scf::YieldOp::create(fb, l);
                     });
}

/// The result's extents in dimension order (the shape operand of
/// sparse_array.assemble).
static SmallVector<Value> extentsInDimOrder(const OutputShape &shape) {
  FormatAttr format = shape.resultType.getFormat();
  SmallVector<Value> dims(shape.extents.size());
  for (unsigned l = 0; l < shape.extents.size(); ++l)
    dims[format.getLevelDim(l)] = shape.extents[l];
  return dims;
}

namespace {

/// Every level dense: one buffer of fills, entries stored in place.
class DenseOutput : public OutputAssembler {
public:
  DenseOutput(OpBuilder &b, const OutputShape &shape) : OutputAssembler(shape) {
    Location loc = getLoc();
    Value size = constIndex(b, loc, 1);
    for (Value e : shape.extents)
      size = b.createOrFold<arith::MulIOp>(loc, size, e);
    Type elt = shape.resultType.getElementType();
    values =
        allocOutputBuffer(b, loc, shape.kernel,
                          MemRefType::get({ShapedType::kDynamic}, elt), size);
    Value fill =
        arith::ConstantOp::create(b, loc, shape.resultType.getFillValue());
    if (shape.parallel)
      emitParallelFor(b, loc, size, kMinParallelEntries,
                      [&](OpBuilder &pb, Location l, Value i) {
                        memref::StoreOp::create(pb, l, fill, values, i);
                      });
    else
      fillBuffer(b, loc, values, constIndex(b, loc, 0), size, fill);
  }
  bool isDense() const override { return true; }
  SmallVector<Value> store(OpBuilder &b, ArrayRef<Value> coords, Value v,
                           ValueRange state) override {
    Location loc = getLoc();
    Value q = constIndex(b, loc, 0);
    for (auto [extent, c] : llvm::zip(shape.extents, coords))
      q = linearize(b, loc, q, extent, c);
    memref::StoreOp::create(b, loc, v, values, q);
    return SmallVector<Value>(state);
  }
  Value finish(OpBuilder &b, ValueRange) override {
    return AssembleOp::create(b, getLoc(), shape.resultType, ValueRange{values},
                              ValueRange(extentsInDimOrder(shape)));
  }

private:
  Value values;
};

} // namespace


std::unique_ptr<OutputAssembler>
OutputAssembler::create(OpBuilder &b, const OutputShape &shape,
                        const AppendPlan &plan) {
  if (shape.resultType.isAllDense())
    return std::make_unique<DenseOutput>(b, shape);
  return std::make_unique<AppendOutput>(b, shape, plan);
}

AppendOutput::AppendOutput(OpBuilder &b, const OutputShape &shape,
                           const AppendPlan &plan)
    : OutputAssembler(shape) {
  Location loc = getLoc();
  FormatAttr format = shape.resultType.getFormat();
  Type elt = shape.resultType.getElementType();
  ArrayRef<Value> extents = shape.extents;
  capacityIsBound = plan.capacityIsBound;
  Value cap = plan.capacity;
  // A sparse vector has at most one entry per coordinate: when its loop
  // visits every coordinate anyway (mxv results, masked vectors), its
  // extent bounds it at no more memory than the work.
  if (plan.vectorVisitsEveryCoordinate) {
    cap = arith::MaxUIOp::create(b, loc, extents[0], constIndex(b, loc, 1));
    capacityIsBound = true;
    appendBranchFree = format.getLevels()[0].format->hasPositionsBuffer() &&
                       format.getLevels()[0].unique;
  }
  auto memrefOf = [&](Type t) {
    return MemRefType::get({ShapedType::kDynamic}, t);
  };
  Value denseParents = constIndex(b, loc, 1); // positions of a full prefix
  Value zero = constIndex(b, loc, 0);
  for (unsigned l = 0; l < format.getNumLevels(); ++l) {
    OutputLevel &ol = outLevels.emplace_back();
    ol.spec = format.getLevels()[l];
    if (ol.spec.isFull()) {
      denseParents = arith::MulIOp::create(b, loc, denseParents, extents[l]);
      continue;
    }
    ol.sparse = true;
    ol.hasPositions = ol.spec.format->hasPositionsBuffer();
    Type crdType = b.getIntegerType(format.getCrdWidth());
    Type posType = b.getIntegerType(format.getPosWidth());
    ol.crdSlot = initial.size();
    initial.push_back(
        allocOutputBuffer(b, loc, shape.kernel, memrefOf(crdType), cap));
    ol.countSlot = initial.size();
    initial.push_back(zero);
    if (ol.hasPositions) {
      // Parents: the full prefix's positions, or those appended above.
      bool parentAppended = l > 0 && outLevels[l - 1].sparse;
      Value size =
          parentAppended
              ? arith::AddIOp::create(b, loc, cap, constIndex(b, loc, 1))
              : arith::AddIOp::create(b, loc, denseParents,
                                      constIndex(b, loc, 1));
      ol.posSlot = initial.size();
      initial.push_back(
          allocOutputBuffer(b, loc, shape.kernel, memrefOf(posType), size));
    }
  }
  // A full level below an appended one multiplies its entries by its
  // extent: the inputs' entry count no longer bounds the buffers.
  for (unsigned l = 1; l < outLevels.size(); ++l)
    if (outLevels[l - 1].sparse && !outLevels[l].sparse)
      capacityIsBound = false;
  {
    unsigned d = outLevels.size() - 1;
    bool allFullAbove =
        llvm::all_of(ArrayRef(outLevels).take_front(d),
                     [](const OutputLevel &ol) { return !ol.sparse; });
    positionsAfterLoop = outLevels[d].hasPositions &&
                         ((d > 0 && outLevels[d - 1].sparse) || allFullAbove);
    everyParentVisited = positionsAfterLoop && allFullAbove &&
                         plan.outerLoopsVisitEveryCoordinate;
  }
  // Positions start at 0; parents that might not be visited keep 0 until
  // finish's running max.
  for (OutputLevel &ol : outLevels) {
    if (!ol.sparse || !ol.hasPositions)
      continue;
    Value pos = initial[ol.posSlot];
    Value zeroPos =
        arith::ConstantIntOp::create(b, loc, 0, format.getPosWidth());
    if (&ol == &outLevels.back() && everyParentVisited)
      memref::StoreOp::create(b, loc, zeroPos, pos, ValueRange{zero});
    else
      fillBuffer(b, loc, pos, zero, memref::DimOp::create(b, loc, pos, 0),
                 zeroPos);
  }
  valuesSlot = initial.size();
  initial.push_back(
      allocOutputBuffer(b, loc, shape.kernel, memrefOf(elt), cap));
}

SmallVector<Value> AppendOutput::endLoop(OpBuilder &b, unsigned d,
                                         ArrayRef<Value> coords,
                                         ValueRange state) {
  SmallVector<Value> o(state);
  if (d + 1 != rank() || !positionsAfterLoop)
    return o;
  // The innermost level's positions: stored once per parent, after its
  // loop, instead of with every entry (see positionsAfterLoop). Parents
  // never reached keep 0, fixed by finish.
  Location loc = getLoc();
  const OutputLevel &last = outLevels[d];
  Value slot;
  if (d > 0 && outLevels[d - 1].sparse) {
    // The end of the parent level's last entry: this coordinate's entry
    // when it got children, otherwise an earlier parent whose end is the
    // unchanged count.
    slot = o[outLevels[d - 1].countSlot];
  } else {
    Value q = constIndex(b, loc, 0);
    for (unsigned lv = 0; lv < d; ++lv)
      q = linearize(b, loc, q, shape.extents[lv], coords[lv]);
    slot = arith::AddIOp::create(b, loc, q, constIndex(b, loc, 1));
  }
  Type posType = b.getIntegerType(shape.resultType.getFormat().getPosWidth());
  memref::StoreOp::create(
      b, loc, arith::IndexCastUIOp::create(b, loc, posType, o[last.countSlot]),
      o[last.posSlot], slot);
  return o;
}

void KernelLowering::setUpOutput(OpBuilder &b) {
  OutputShape shape{kernel, resultType,
                    SmallVector<Value>(ArrayRef(extents).take_front(rank)),
                    parallelPlan && parallelPlan.isParallel()};
  AppendPlan plan;
  if (!resultType.isAllDense()) {
    // Initial capacity: the entries the inputs store (a union of them
    // fits), at least 16; buffers double when full. When the iteration
    // space lies within the inputs' stored entries and no input is
    // broadcast (each binds every loop), no level can have more entries
    // than that: no checks.
    plan.capacityIsBound =
        algebra.normalize().withinStoredEntries() &&
        llvm::all_of(inputs, [&](const Input &in) {
          if (!in.used)
            return true;
          llvm::SmallBitVector bound(rank);
          for (const InputLevel &level : in.levels)
            if (level.loop >= 0 && static_cast<unsigned>(level.loop) < rank)
              bound.set(level.loop);
          return bound.all();
        });
    plan.capacity = arith::AddIOp::create(
        b, loc, constIndex(b, loc, 16),
        storedValuesRead(b, loc, kernel, std::numeric_limits<int64_t>::max()));
    // Loops that visit every coordinate of their dimension: a lattice with
    // U alone.
    auto visitsEveryCoordinate = [&](LatticeAttr lattice) {
      return llvm::any_of(lattice.getPoints(), [](const LatticePoint &p) {
        return p.universe && !p.operands;
      });
    };
    auto lattices = kernel.getLattices()->getAsRange<LatticeAttr>();
    plan.vectorVisitsEveryCoordinate =
        rank == 1 && llvm::any_of(lattices, [&](LatticeAttr lattice) {
          return lattice.getLoop() == 0 && visitsEveryCoordinate(lattice);
        });
    plan.outerLoopsVisitEveryCoordinate =
        llvm::all_of(lattices, [&](LatticeAttr lattice) {
          return lattice.getLoop() + 1 >= rank ||
                 visitsEveryCoordinate(lattice);
        });
  }
  if (outputFactory)
    output = outputFactory(b, shape);
  else if (parallelPlan && parallelPlan.isParallel() &&
           parallelPlan.getTwoPhase())
    output = createTwoPhaseRowsOutput(b, shape);
  else if (parallelPlan && parallelPlan.isParallel() &&
           parallelPlan.getChained() && plan.capacityIsBound)
    output = createChainedRowsOutput(b, shape, plan);
  else if (parallelPlan && parallelPlan.isParallel() &&
           parallelPlan.getChained()) {
    // The planner vouched that the inputs' entries bound the result's; a
    // hand-written plan may be wrong.
    if (!hadError)
      kernel.emitError() << "kernel is planned `chained`, but the entries "
                            "its inputs store do not bound its result's";
    hadError = true;
    output = createPartsOutput(b, shape, plan);
  } else if (parallelPlan && parallelPlan.isParallel() &&
             parallelPlan.getParts())
    output = createPartsOutput(b, shape, plan);
  else
    output = OutputAssembler::create(b, shape, plan);
}

SmallVector<Value> AppendOutput::store(OpBuilder &b, ArrayRef<Value> coords,
                                       Value v, ValueRange state) {
  SmallVector<Value> out(state);
  Location loc = getLoc();
  FormatAttr format = shape.resultType.getFormat();
  TypedAttr resultFill = shape.resultType.getFillValue();
  ArrayRef<Value> extents = shape.extents;
  unsigned rank = this->rank();
  Value differs = differsFrom(b, loc, v, resultFill);
  if (appendBranchFree) {
    const OutputLevel &ol = outLevels[0];
    Value count = out[ol.countSlot];
    Type crdType = b.getIntegerType(format.getCrdWidth());
    memref::StoreOp::create(
        b, loc, arith::IndexCastUIOp::create(b, loc, crdType, coords[0]),
        out[ol.crdSlot], count);
    memref::StoreOp::create(b, loc, v, out[valuesSlot], count);
    out[ol.countSlot] = arith::AddIOp::create(
        b, loc, count,
        arith::IndexCastUIOp::create(b, loc, b.getIndexType(), differs));
    return out;
  }
  auto branch = scf::IfOp::create(
      b, loc, differs,
      [&](OpBuilder &tb, Location l) {
        SmallVector<Value> o(out);
        Value one = constIndex(tb, l, 1);
        Value q = constIndex(tb, l, 0);
        for (unsigned lv = 0; lv < rank; ++lv) {
          OutputLevel &ol = outLevels[lv];
          Value c = coords[lv];
          if (!ol.sparse) {
            q = linearize(tb, l, q, extents[lv], c);
            continue;
          }
          Type crdType = b.getIntegerType(format.getCrdWidth());
          Value cc = arith::IndexCastUIOp::create(tb, l, crdType, c);
          Value count = o[ol.countSlot];
          // The storage below a new entry: the full levels directly below
          // multiply it by their extents; the next appended level's
          // positions there start at 0, and values there start as the fill.
          unsigned next = lv + 1;
          Value blockSize = one;
          while (next < rank && !outLevels[next].sparse)
            blockSize =
                arith::MulIOp::create(tb, l, blockSize, extents[next++]);
          int belowSlot = -1;
          if (next < rank && outLevels[next].hasPositions)
            belowSlot = outLevels[next].posSlot;
          else if (next == rank && next != lv + 1)
            belowSlot = valuesSlot;
          auto initBelow = [&](OpBuilder &ab, Location al, Value n) {
            Value hi = arith::MulIOp::create(ab, al, n, blockSize);
            Value lo = arith::SubIOp::create(ab, al, hi, blockSize);
            if (belowSlot == valuesSlot) {
              Value vals = ensureCapacity(ab, o[belowSlot], hi);
              fillBuffer(ab, al, vals, lo, hi,
                         arith::ConstantOp::create(ab, al, resultFill));
              return vals;
            }
            // positions[parent + 1] for every new parent
            hi = arith::AddIOp::create(ab, al, hi, one);
            lo = arith::AddIOp::create(ab, al, lo, one);
            Value pos = ensureCapacity(ab, o[belowSlot], hi);
            fillBuffer(ab, al, pos, lo, hi,
                       arith::ConstantIntOp::create(
                           ab, al, ab.getIntegerType(format.getPosWidth()), 0));
            return pos;
          };
          auto append = [&](OpBuilder &ab, Location al) {
            SmallVector<Value> r;
            Value n = arith::AddIOp::create(ab, al, count, one);
            Value crd = ensureCapacity(ab, o[ol.crdSlot], n);
            memref::StoreOp::create(ab, al, cc, crd, count);
            r = {crd, n};
            if (belowSlot >= 0)
              r.push_back(initBelow(ab, al, n));
            return r;
          };
          SmallVector<Value> appended;
          if (ol.hasPositions && ol.spec.unique && lv + 1 == rank) {
            // The innermost loop visits each coordinate of a parent once,
            // in order: nothing to merge with (the hot path).
            appended = append(tb, l);
          } else if (ol.hasPositions && ol.spec.unique) {
            // A new coordinate under parent q unless the last one appended
            // (under this parent) is c: positions[q + 1] != 0 says q has
            // children already.
            Value qp1 = arith::AddIOp::create(tb, l, q, one);
            Value posEnd = loadIndex(tb, l, o[ol.posSlot], qp1);
            Value has = arith::CmpIOp::create(tb, l, arith::CmpIPredicate::ne,
                                              posEnd, constIndex(tb, l, 0));
            Value same = emitGuardedCoordinateIs(
                tb, l, has, o[ol.crdSlot],
                arith::SubIOp::create(tb, l, count, one), c);
            auto branch = scf::IfOp::create(
                tb, l, same,
                [&](OpBuilder &sb, Location sl) {
                  SmallVector<Value> keep{o[ol.crdSlot], count};
                  if (belowSlot >= 0)
                    keep.push_back(o[belowSlot]);
                  scf::YieldOp::create(sb, sl, keep);
                },
                [&](OpBuilder &ab, Location al) {
                  scf::YieldOp::create(ab, al, append(ab, al));
                });
            appended = SmallVector<Value>(branch.getResults());
          } else if (ol.hasPositions) {
            // Non-unique: one position per entry.
            appended = append(tb, l);
          } else {
            // Singleton: the position is the parent's.
            Value needed = arith::AddIOp::create(tb, l, q, one);
            Value crd = ensureCapacity(tb, o[ol.crdSlot], needed);
            memref::StoreOp::create(tb, l, cc, crd, q);
            appended = {crd, needed};
            if (belowSlot >= 0)
              appended.push_back(initBelow(tb, l, needed));
          }
          Value newCount = appended[1];
          o[ol.crdSlot] = appended[0];
          o[ol.countSlot] = newCount;
          if (belowSlot >= 0)
            o[belowSlot] = appended[2];
          if (ol.hasPositions && !(lv + 1 == rank && positionsAfterLoop)) {
            Value qp1 = arith::AddIOp::create(tb, l, q, one);
            Type posType = b.getIntegerType(format.getPosWidth());
            memref::StoreOp::create(
                tb, l, arith::IndexCastUIOp::create(tb, l, posType, newCount),
                o[ol.posSlot], qp1);
          }
          q = arith::SubIOp::create(tb, l, newCount, one);
        }
        Value vals = ensureCapacity(tb, o[valuesSlot],
                                    arith::AddIOp::create(tb, l, q, one));
        memref::StoreOp::create(tb, l, v, vals, q);
        o[valuesSlot] = vals;
        scf::YieldOp::create(tb, l, o);
      },
      [&](OpBuilder &eb, Location l) { scf::YieldOp::create(eb, l, out); });
  return SmallVector<Value>(branch.getResults());
}

SmallVector<std::pair<Value, Value>>
AppendOutput::completeBuffers(OpBuilder &b, ValueRange out) {
  Location loc = getLoc();
  SmallVector<std::pair<Value, Value>> buffers;
  unsigned rank = this->rank();
  ArrayRef<Value> extents = shape.extents;
  FormatAttr format = shape.resultType.getFormat();
  Value one = constIndex(b, loc, 1);
  Value parents = one; // positions of the level above
  for (unsigned l = 0; l < rank; ++l) {
    OutputLevel &ol = outLevels[l];
    if (!ol.sparse) {
      parents = arith::MulIOp::create(b, loc, parents, extents[l]);
      continue;
    }
    if (ol.hasPositions) {
      Value size = arith::AddIOp::create(b, loc, parents, one);
      Value pos = out[ol.posSlot];
      Type posType = b.getIntegerType(format.getPosWidth());
      // Parents without children kept 0: positions are the running max.
      if (!(l + 1 == rank && everyParentVisited))
        scf::ForOp::create(
            b, loc, one, size, one,
            ValueRange{arith::ConstantIntOp::create(b, loc, posType, 0)},
            [&](OpBuilder &fb, Location fl, Value i, ValueRange acc) {
              Value p = memref::LoadOp::create(fb, fl, pos, ValueRange{i});
              Value m = arith::MaxUIOp::create(fb, fl, p, acc[0]);
              memref::StoreOp::create(fb, fl, m, pos, i);
              scf::YieldOp::create(fb, fl, m);
            });
      buffers.push_back({pos, size});
    }
    buffers.push_back({out[ol.crdSlot], out[ol.countSlot]});
    parents = out[ol.countSlot];
  }
  buffers.push_back({out[valuesSlot], parents});
  return buffers;
}

Value AppendOutput::finish(OpBuilder &b, ValueRange out) {
  Location loc = getLoc();
  SmallVector<Value> buffers;
  for (auto [buffer, size] : completeBuffers(b, out))
    buffers.push_back(emitResize(b, loc, buffer, size));
  return AssembleOp::create(b, loc, shape.resultType, buffers,
                            ValueRange(extentsInDimOrder(shape)));
}
