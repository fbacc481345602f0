//===- ScatterRowsOutput.cpp - A scatter reduction's rows, one at a time --===//
//
// The assembler of a scatter reduction whose result is sparse of rank >= 2
// with its leading levels as the outermost loops (a CSF summed over its
// middle level into CSR; the exact SpGEMM fallback in Gustavson's order):
// one row's entries accumulate in a workspace, drained in order after the
// row's loops. Also the per-point count shared with ScatterReduction.cpp.
//
//===----------------------------------------------------------------------===//

#include "Reductions/Scatter.h"

#include "CodegenUtils.h"
#include "SparseArray/Conversion/RuntimeCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::detail;

/// Counts a point of entry q, whose value is v and combination `next`:
/// returns the new accumulator (without an identity the first point is the
/// accumulator).
Value mlir::sparse_array::detail::countPoint(OpBuilder &b, Location loc, const ScatterTarget &target,
                        Value count, Value q, Value v, Value next) {
  Value n = memref::LoadOp::create(b, loc, count, q);
  if (!target.hasIdentity)
    next = arith::SelectOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, n,
                              constIndex(b, loc, 0)),
        v, next);
  memref::StoreOp::create(
      b, loc, arith::AddIOp::create(b, loc, n, constIndex(b, loc, 1)), count,
      q);
  return next;
}

namespace {

/// A sparse result of rank >= 2 whose leading `prefix` levels are the
/// outermost loops (a CSF reduced over its middle level into CSR): the
/// entries below one prefix coordinate (a row) accumulate in a workspace
/// over the remaining levels, drained in storage order into the result's
/// appended assembler after the row's loops. Memory is one row's entries,
/// not the result's dense size. A workspace slot is reset when a row first
/// touches it (marked with the row), so a drain visits only the touched
/// slots (sorted) — unless an entry no point reached is not the result's
/// fill (`untouchedStored`, a run-time flag): then every entry of every
/// row is stored, rows the loops skip included (caught up in order).
class ScatterRowsOutput : public OutputAssembler {
public:
  ScatterRowsOutput(OpBuilder &b, const OutputShape &shape, ScatterTarget t,
                    unsigned prefix, Value *result)
      : OutputAssembler(shape), target(std::move(t)), prefix(prefix),
        result(result) {
    Location loc = getLoc();
    ArrayType type = target.kernel.getResultType();
    unsigned rank = type.getRank();
    for (unsigned l = 0; l < rank; ++l) {
      unsigned var = type.getFormat().getLevelDim(l);
      unsigned p = llvm::find(target.order, int32_t(var)) - target.order.begin();
      levelLoop.push_back(p);
      resultExtents.push_back(shape.extents[p]);
    }
    rows = constIndex(b, loc, 1);
    for (unsigned l = 0; l < prefix; ++l)
      rows = b.createOrFold<arith::MulIOp>(loc, rows, resultExtents[l]);
    width = constIndex(b, loc, 1);
    for (unsigned l = prefix; l < rank; ++l)
      width = b.createOrFold<arith::MulIOp>(loc, width, resultExtents[l]);
    perEntry = constIndex(b, loc, 1);
    for (auto [p, var] : llvm::enumerate(target.order))
      if (unsigned(var) >= rank)
        perEntry = b.createOrFold<arith::MulIOp>(loc, perEntry, shape.extents[p]);
    auto memrefOf = [](Type t) {
      return MemRefType::get({ShapedType::kDynamic}, t);
    };
    Type idx = b.getIndexType();
    acc = memref::AllocOp::create(b, loc, memrefOf(type.getElementType()),
                                  ValueRange{width});
    mark = memref::AllocOp::create(b, loc, memrefOf(idx), ValueRange{width});
    touched = memref::AllocOp::create(b, loc, memrefOf(b.getI64Type()),
                                      ValueRange{width});
    scf::ForOp::create(b, loc, constIndex(b, loc, 0), width,
                       constIndex(b, loc, 1), ValueRange{},
                       [&](OpBuilder &fb, Location l, Value i, ValueRange) {
                         memref::StoreOp::create(fb, l, constIndex(fb, l, 0),
                                                 mark, i);
                         scf::YieldOp::create(fb, l);
                       });
    if (target.counting)
      count = memref::AllocOp::create(b, loc, memrefOf(idx), ValueRange{width});
    // The value of an entry no point reached: the start value finished
    // with every point's fill.
    untouched = arith::ConstantOp::create(b, loc, target.start);
    if (target.counting)
      untouched = target.finishEntry(b, untouched, constIndex(b, loc, 0),
                                     perEntry);
    untouchedStored = differsFrom(b, loc, untouched, type.getFillValue());
    // Only the last inner level stores positions per parent once a row is
    // drained; deeper workspaces close each parent after every entry.
    AppendPlan plan;
    plan.capacity = arith::AddIOp::create(b, loc, width, constIndex(b, loc, 16));
    out = OutputAssembler::create(
        b, OutputShape{target.kernel, type, resultExtents, false}, plan);
    initial.assign(out->initialState().begin(), out->initialState().end());
    numOut = initial.size();
    initial.push_back(constIndex(b, loc, 0)); // touched slots
    initial.push_back(constIndex(b, loc, 0)); // next row to store
  }

  bool isDense() const override { return false; }

  SmallVector<Value> store(OpBuilder &b, ArrayRef<Value> coords, Value v,
                           ValueRange state) override {
    Location loc = getLoc();
    Value row = constIndex(b, loc, 0), q = constIndex(b, loc, 0);
    for (auto [l, p] : llvm::enumerate(levelLoop)) {
      Value &into = l < prefix ? row : q;
      into = linearize(b, loc, into, resultExtents[l], coords[p]);
    }
    Value gen = arith::AddIOp::create(b, loc, row, constIndex(b, loc, 1));
    Value nt = state[numOut];
    Value fresh = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        memref::LoadOp::create(b, loc, mark, q), gen);
    auto first = scf::IfOp::create(
        b, loc, fresh,
        [&](OpBuilder &tb, Location l) {
          memref::StoreOp::create(tb, l, gen, mark, q);
          memref::StoreOp::create(
              tb, l, arith::IndexCastOp::create(tb, l, tb.getI64Type(), q),
              touched, nt);
          memref::StoreOp::create(
              tb, l, arith::ConstantOp::create(tb, l, target.start), acc, q);
          if (count)
            memref::StoreOp::create(tb, l, constIndex(tb, l, 0), count, q);
          scf::YieldOp::create(
              tb, l, ValueRange{arith::AddIOp::create(tb, l, nt,
                                                      constIndex(tb, l, 1))});
        },
        [&](OpBuilder &eb, Location l) { scf::YieldOp::create(eb, l, nt); });
    Value a = memref::LoadOp::create(b, loc, acc, q);
    Value next = target.combine(b, a, v);
    // Every visited point is counted (also for signed_zero_sum: where the
    // sum ends -0.0 every point added was -0.0).
    if (count)
      next = countPoint(b, loc, target, count, q, v, next);
    memref::StoreOp::create(b, loc, next, acc, q);
    SmallVector<Value> o(state);
    o[numOut] = first.getResult(0);
    return o;
  }

  /// After the first loop below the prefix, a row's points are all
  /// visited: store the rows skipped before it and then it.
  SmallVector<Value> endLoop(OpBuilder &b, unsigned level,
                             ArrayRef<Value> coords, ValueRange state) override {
    if (level != prefix)
      return SmallVector<Value>(state);
    Location loc = getLoc();
    Value row = constIndex(b, loc, 0);
    for (unsigned l = 0; l < prefix; ++l)
      row = linearize(b, loc, row, resultExtents[l], coords[l]);
    SmallVector<Value> o = catchUp(b, state[numOut + 1], row, state);
    SmallVector<Value> rowCoords(coords.take_front(prefix));
    Value gen = arith::AddIOp::create(b, loc, row, constIndex(b, loc, 1));
    Value nt = o[numOut];
    // Every slot in order also when the row touched more than an eighth of
    // them: cheaper than sorting the list (unreached slots hold the fill
    // then, dropped by the appender).
    Value dense = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ugt,
        arith::MulIOp::create(b, loc, nt, constIndex(b, loc, 8)), width);
    auto drained = scf::IfOp::create(
        b, loc, arith::OrIOp::create(b, loc, untouchedStored, dense),
        [&](OpBuilder &tb, Location l) {
          SmallVector<Value> r = storeRow(
              tb, rowCoords, ValueRange(o).take_front(numOut),
              [&](OpBuilder &sb, Value q) {
                Value reached = arith::CmpIOp::create(
                    sb, l, arith::CmpIPredicate::eq,
                    memref::LoadOp::create(sb, l, mark, q), gen);
                auto v = scf::IfOp::create(
                    sb, l, reached,
                    [&](OpBuilder &rb, Location rl) {
                      scf::YieldOp::create(rb, rl, entryAt(rb, q));
                    },
                    [&](OpBuilder &ub, Location ul) {
                      scf::YieldOp::create(ub, ul, untouched);
                    });
                return v.getResult(0);
              });
          scf::YieldOp::create(tb, l, r);
        },
        [&](OpBuilder &eb, Location l) {
          scf::YieldOp::create(
              eb, l, storeTouched(eb, rowCoords, nt,
                                  ValueRange(o).take_front(numOut)));
        });
    SmallVector<Value> r(drained.getResults());
    r.push_back(constIndex(b, loc, 0));
    r.push_back(gen);
    return r;
  }

  Value finish(OpBuilder &b, ValueRange state) override {
    Location loc = getLoc();
    SmallVector<Value> o = catchUp(b, state[numOut + 1], rows, state);
    *result = out->finish(b, ValueRange(o).take_front(numOut));
    for (Value buffer : {acc, mark, touched, count})
      if (buffer)
        memref::DeallocOp::create(b, loc, buffer);
    return *result;
  }

private:
  using ValueAt = llvm::function_ref<Value(OpBuilder &, Value)>;

  /// The finished entry of workspace slot q.
  Value entryAt(OpBuilder &b, Value q) {
    Value v = memref::LoadOp::create(b, getLoc(), acc, q);
    if (count)
      v = target.finishEntry(b, v, memref::LoadOp::create(b, getLoc(), count, q),
                             perEntry);
    return v;
  }

  /// The result coordinates (prefix then inner levels) of slot q in a row.
  SmallVector<Value> coordsOf(OpBuilder &b, ArrayRef<Value> rowCoords,
                              Value q) {
    Location loc = getLoc();
    SmallVector<Value> c(rowCoords);
    unsigned rank = resultExtents.size();
    c.resize(rank);
    for (unsigned l = rank; l-- > prefix;) {
      c[l] = arith::RemUIOp::create(b, loc, q, resultExtents[l]);
      q = arith::DivUIOp::create(b, loc, q, resultExtents[l]);
    }
    return c;
  }

  /// Stores `c`'s entry v; the innermost level's positions of its parent
  /// are closed after every entry when the workspace spans several levels
  /// (a parent's last close wins), else once per row (storeRow).
  SmallVector<Value> emit(OpBuilder &b, ArrayRef<Value> c, Value v,
                          ValueRange state) {
    SmallVector<Value> o = out->store(b, c, v, state);
    unsigned rank = c.size();
    if (rank - prefix > 1)
      o = out->endLoop(b, rank - 1, c.take_front(rank - 1), o);
    return o;
  }
  SmallVector<Value> closeRow(OpBuilder &b, ArrayRef<Value> rowCoords,
                              ValueRange state) {
    unsigned rank = resultExtents.size();
    if (rank - prefix > 1)
      return SmallVector<Value>(state);
    return out->endLoop(b, rank - 1, rowCoords, state);
  }

  /// Every slot of a row, in order, valued by `valueAt`.
  SmallVector<Value> storeRow(OpBuilder &b, ArrayRef<Value> rowCoords,
                              ValueRange state, ValueAt valueAt) {
    Location loc = getLoc();
    auto loop = scf::ForOp::create(
        b, loc, constIndex(b, loc, 0), width, constIndex(b, loc, 1), state,
        [&](OpBuilder &fb, Location l, Value q, ValueRange s) {
          scf::YieldOp::create(
              fb, l, emit(fb, coordsOf(fb, rowCoords, q), valueAt(fb, q), s));
        });
    return closeRow(b, rowCoords, loop.getResults());
  }

  /// The `nt` touched slots of a row, sorted unless the result's only
  /// inner level is nonordered.
  SmallVector<Value> storeTouched(OpBuilder &b, ArrayRef<Value> rowCoords,
                                  Value nt, ValueRange state) {
    Location loc = getLoc();
    ArrayType type = target.kernel.getResultType();
    bool sorted = type.getRank() - prefix > 1 ||
                  type.getFormat().getLevels().back().ordered;
    if (sorted) {
      Type i64 = b.getI64Type();
      Value address = arith::IndexCastOp::create(
          b, loc, i64,
          memref::ExtractAlignedPointerAsIndexOp::create(b, loc, touched));
      callRuntime(b, loc, target.kernel, "sa_rt_sort_i64", {},
                  {address, arith::IndexCastOp::create(b, loc, i64, nt)});
    }
    auto loop = scf::ForOp::create(
        b, loc, constIndex(b, loc, 0), nt, constIndex(b, loc, 1), state,
        [&](OpBuilder &fb, Location l, Value t, ValueRange s) {
          Value q = arith::IndexCastOp::create(
              fb, l, fb.getIndexType(),
              memref::LoadOp::create(fb, l, touched, t));
          scf::YieldOp::create(
              fb, l, emit(fb, coordsOf(fb, rowCoords, q), entryAt(fb, q), s));
        });
    return closeRow(b, rowCoords, loop.getResults());
  }

  /// Rows [from, to) no point reached: every entry untouched, stored only
  /// when that is not the fill. Returns the whole state, next row = to.
  SmallVector<Value> catchUp(OpBuilder &b, Value from, Value to,
                             ValueRange state) {
    Location loc = getLoc();
    ValueRange outState = state.take_front(numOut);
    auto skipped = scf::IfOp::create(
        b, loc, untouchedStored,
        [&](OpBuilder &tb, Location l) {
          auto loop = scf::ForOp::create(
              tb, l, from, to, constIndex(tb, l, 1), outState,
              [&](OpBuilder &fb, Location fl, Value r, ValueRange s) {
                // The row's coordinates: r delinearized over the prefix.
                SmallVector<Value> rowCoords(prefix);
                for (unsigned lv = prefix; lv-- > 0;) {
                  rowCoords[lv] =
                      arith::RemUIOp::create(fb, fl, r, resultExtents[lv]);
                  r = arith::DivUIOp::create(fb, fl, r, resultExtents[lv]);
                }
                scf::YieldOp::create(
                    fb, fl, storeRow(fb, rowCoords, s, [&](OpBuilder &, Value) {
                      return untouched;
                    }));
              });
          scf::YieldOp::create(tb, l, loop.getResults());
        },
        [&](OpBuilder &eb, Location l) { scf::YieldOp::create(eb, l, outState); });
    SmallVector<Value> o(skipped.getResults());
    o.push_back(state[numOut]);
    o.push_back(to);
    return o;
  }

  ScatterTarget target;
  unsigned prefix;
  Value *result;
  SmallVector<unsigned> levelLoop;
  SmallVector<Value> resultExtents;
  Value rows, width, perEntry, acc, mark, touched, count;
  Value untouched, untouchedStored;
  std::unique_ptr<OutputAssembler> out;
  unsigned numOut = 0;
};

} // namespace

std::unique_ptr<OutputAssembler> mlir::sparse_array::detail::createScatterRowsOutput(
    OpBuilder &b, const OutputShape &shape, ScatterTarget target,
    unsigned prefix, Value *result) {
  return std::make_unique<ScatterRowsOutput>(b, shape, std::move(target),
                                             prefix, result);
}
