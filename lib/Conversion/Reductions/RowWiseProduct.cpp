//===- RowWiseProduct.cpp - Row-wise (Gustavson) products -----------------===//
//
// C(i, j) = ⊕_k P(i, k) ⊗ Q(k, j) row by row through a workspace
// (dense or hash), the reduction's `scatter` plan (thesis 003 §6.3).
//
//===----------------------------------------------------------------------===//

#include "Loops/KernelLowering.h"
#include "SparseArray/Algebra/Lattice.h"
#include "SparseArray/Analysis/AlgebraDerivation.h"
#include "SparseArray/Analysis/Evaluator.h"
#include "SparseArray/Analysis/Speculation.h"
#include "SparseArray/Conversion/LevelIterator.h"
#include "SparseArray/Conversion/RuntimeCalls.h"
#include "SparseArray/Dialect/LevelFormat.h"
#include "SparseArray/Dialect/Storage.h"
#include "SparseArray/Transforms/Coiteration.h"

#include "CodegenUtils.h"
#include "RowWise.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/InterleavedRange.h"

#include <limits>

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::detail;

namespace mlir::sparse_array::detail {

/// A row's accumulator (thesis 003 §6.3; SuiteSparse's saxpy workspaces):
/// a value per slot and the generation (row + 1) that last wrote it, so
/// nothing is cleared between rows. A slot is where a column accumulates.
class Workspace {
public:
  Workspace(Value work, Value mark) : work(work), mark(mark) {}
  virtual ~Workspace() = default;
  /// The slot of column j in generation `gen`: the one holding it, or the
  /// one it takes when first written.
  virtual Value slotOf(OpBuilder &b, Location loc, Value j, Value gen) = 0;
  /// Column j (as i64) is written first into `slot` (its mark is set by
  /// the caller).
  virtual void claim(OpBuilder &b, Location loc, Value slot, Value j64) {}

  Value work, mark;
};

} // namespace mlir::sparse_array::detail

namespace {

/// Dense over the columns: column j's slot is j.
class DenseWorkspace final : public Workspace {
public:
  using Workspace::Workspace;
  Value slotOf(OpBuilder &, Location, Value j, Value) override { return j; }
};

/// An open-addressing hash table of a power-of-two size: linear probing
/// from a multiplicative hash, the column each slot holds in `keys`.
class HashWorkspace final : public Workspace {
public:
  HashWorkspace(Value work, Value mark, Value keys, Value tableMask)
      : Workspace(work, mark), keys(keys), tableMask(tableMask) {}
  /// The first slot from the hash that holds j or was not written by this
  /// row.
  Value slotOf(OpBuilder &b, Location loc, Value j, Value gen) override {
    Type i64 = b.getI64Type();
    Value j64 = arith::IndexCastOp::create(b, loc, i64, j);
    Value h = arith::AndIOp::create(
        b, loc,
        arith::ShRUIOp::create(
            b, loc,
            arith::MulIOp::create(
                b, loc, j64,
                arith::ConstantIntOp::create(b, loc, i64,
                                             int64_t(0x9E3779B97F4A7C15ull))),
            arith::ConstantIntOp::create(b, loc, i64, 32)),
        tableMask);
    auto probe = scf::WhileOp::create(
        b, loc, TypeRange{i64}, ValueRange{h},
        [&](OpBuilder &wb, Location wl, ValueRange args) {
          Value s =
              arith::IndexCastOp::create(wb, wl, wb.getIndexType(), args[0]);
          Value mine = arith::CmpIOp::create(
              wb, wl, arith::CmpIPredicate::eq,
              memref::LoadOp::create(wb, wl, mark, ValueRange{s}), gen);
          Value other = arith::CmpIOp::create(
              wb, wl, arith::CmpIPredicate::ne,
              memref::LoadOp::create(wb, wl, keys, ValueRange{s}), j64);
          scf::ConditionOp::create(
              wb, wl, arith::AndIOp::create(wb, wl, mine, other), args);
        },
        [&](OpBuilder &wb, Location wl, ValueRange args) {
          scf::YieldOp::create(
              wb, wl,
              arith::AndIOp::create(
                  wb, wl,
                  arith::AddIOp::create(
                      wb, wl, args[0],
                      arith::ConstantIntOp::create(wb, wl, i64, 1)),
                  tableMask)
                  .getResult());
        });
    return arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                      probe.getResult(0));
  }
  void claim(OpBuilder &b, Location loc, Value slot, Value j64) override {
    memref::StoreOp::create(b, loc, j64, keys, ValueRange{slot});
  }

private:
  Value keys, tableMask;
};

} // namespace

Value mlir::sparse_array::detail::rowWiseCapacity(OpBuilder &b, Location loc,
                                                 Value products,
                                                 Value inputEntries) {
  Value limit =
      arith::MulIOp::create(b, loc, inputEntries, constIndex(b, loc, 8));
  return arith::AddIOp::create(b, loc, constIndex(b, loc, 16),
                               arith::MinUIOp::create(b, loc, products, limit));
}

LogicalResult KernelLowering::runRowWiseProduct() {
  OpBuilder b(kernel);
  kernel.getBody().walk([&](ReduceOverOp r) { reduction = r; });
  if (!kernel.getAlgebra() || !kernel.getFill() || !reduction.getStrategy())
    return kernel.emitError("kernel has no coiteration plan; run "
                            "--sparse-array-derive-algebra and "
                            "--sparse-array-build-lattices first");
  combiner = symbols.lookupNearestSymbolFrom<FuncOp>(
      kernel, reduction.getCombinerAttr());
  reductionPlan = ReductionPlan::fromAttr(reduction.getPlanAttr(), combiner);
  parallelPlan = kernel.getParallelAttr();
  // The planner chose the factors (sparse-array-build-lattices records
  // them); hand-written plans must still have the shape lowered here.
  ArrayRef<int32_t> planned = *reduction.getScatter();
  RowWise rw;
  rw.pk = planned[0];
  rw.qk = planned[1];
  std::optional<std::pair<unsigned, unsigned>> shape =
      matchRowWiseShape(kernel, reduction);
  if (!shape || shape->first != rw.pk || shape->second != rw.qk)
    return kernel.emitError("sparse_array.reduce_over is planned to scatter "
                            "with factors ")
           << rw.pk << " and " << rw.qk
           << ", which do not form a row-wise matrix product (P(i, k) and "
              "Q(k, j) stored by rows, a result stored by rows)";
  resultType = kernel.getResultType();
  resultFill = resultType.getFillValue();
  bool vec = resultType.getRank() == 1;
  rank = resultType.getRank();
  numLoops = rank + 1;
  algebra = kernel.getAlgebra()->getAlgebra();
  for (unsigned k = 0; k < kernel.getInputs().size(); ++k) {
    Input &in = inputs.emplace_back();
    in.type = cast<ArrayType>(kernel.getInputs()[k].getType());
    in.fill = in.type.getFillValue();
    in.used = static_cast<bool>(kernel.getAccessOf(k));
  }
  Type elt = resultType.getElementType();
  FormatAttr resultFormat = resultType.getFormat();
  // The compressed level: a matrix's second, a vector's only one (a vector
  // is a one-row matrix here: its positions are [0, nnz]).
  auto factor = [&](unsigned k) {
    Value array = kernel.getInputs()[k];
    LevelBuffers level =
        fetchLevelBuffers(b, loc, array, inputs[k].type.getRank() - 1);
    return RowWiseFactor{
        level.positions, level.coordinates,
        ValuesOp::create(b, loc, bufferOf(inputs[k].type.getElementType()),
                         array)};
  };
  rw.P = factor(rw.pk);
  rw.Q = factor(rw.qk);
  // A mask M(i, j) the result is a function of, if any.
  if (kernel.getYield().getValue() != reduction.getResult())
    for (Value arg :
         kernel.getYield().getValue().getDefiningOp()->getOperands())
      if (auto access = arg.getDefiningOp<AccessOp>())
        rw.mk = cast<BlockArgument>(access.getArray()).getArgNumber() -
                kernel.getNumIndices();
  if (rw.mk)
    rw.M = factor(*rw.mk);
  // Rows and columns are levels: a CSC product runs over columns.
  auto dimOfLevel = [&](unsigned k, unsigned level) {
    return static_cast<int64_t>(inputs[k].type.getFormat().getLevelDim(level));
  };
  rw.rows = vec ? constIndex(b, loc, 1)
                : Value(DimOp::create(b, loc, kernel.getInputs()[rw.pk],
                                      dimOfLevel(rw.pk, 0)));
  Value inner = DimOp::create(b, loc, kernel.getInputs()[rw.pk],
                              vec ? int64_t(0) : dimOfLevel(rw.pk, 1));
  rw.cols =
      DimOp::create(b, loc, kernel.getInputs()[rw.qk], dimOfLevel(rw.qk, 1));
  Type i64 = b.getI64Type();
  // The shared dimension must agree (static sizes are verified).
  emitExtentCheck(
      b, loc, kernel, rw.qk, dimOfLevel(rw.qk, 0),
      DimOp::create(b, loc, kernel.getInputs()[rw.qk], dimOfLevel(rw.qk, 0)),
      inner);
  // So must the mask's (its rows are scattered into column-sized marks).
  if (rw.mk) {
    SmallVector<std::pair<int64_t, Value>> expected = {
        {vec ? 0 : dimOfLevel(*rw.mk, 1), rw.cols}};
    if (!vec)
      expected.push_back({dimOfLevel(*rw.mk, 0), rw.rows});
    for (auto [dim, size] : expected)
      emitExtentCheck(b, loc, kernel, *rw.mk, dim,
                      DimOp::create(b, loc, kernel.getInputs()[*rw.mk], dim),
                      size);
  }

  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  bool parallel = parallelPlan && parallelPlan.isParallel();
  if (parallel && vec)
    return kernel.emitError("parallel plan for a row-wise product with one "
                            "row (a vector result): only rows are shared out");
  // The most products a row can have: the sum of Q's row lengths over the
  // row of P, at most the number of columns. A parallel plan also keeps
  // the running sum of the rows' products: its measure of work.
  auto rowProducts = [&](OpBuilder &fb, Location l, Value i) -> Value {
    Value next = arith::AddIOp::create(fb, l, i, one);
    auto sum = scf::ForOp::create(
        fb, l, loadIndex(fb, l, rw.P.pos, i), loadIndex(fb, l, rw.P.pos, next),
        one, ValueRange{zero},
        [&](OpBuilder &sb, Location sl, Value p, ValueRange acc) {
          Value k = loadIndex(sb, sl, rw.P.crd, p);
          Value len = arith::SubIOp::create(
              sb, sl,
              loadIndex(sb, sl, rw.Q.pos, arith::AddIOp::create(sb, sl, k, one)),
              loadIndex(sb, sl, rw.Q.pos, k));
          scf::YieldOp::create(
              sb, sl, arith::AddIOp::create(sb, sl, acc[0], len).getResult());
        });
    return sum.getResult(0);
  };
  if (parallel) {
    // Each row's products in parallel (rows in parts of equal entries of
    // P: a random read of Q's positions per entry is most of this pass),
    // then one scan over the rows for their running sum and maximum.
    rw.work = memref::AllocOp::create(
        b, loc, bufferOf(i64),
        ValueRange{arith::AddIOp::create(b, loc, rw.rows, one)});
    memref::StoreOp::create(b, loc, arith::ConstantIntOp::create(b, loc, i64, 0),
                            rw.work, ValueRange{zero});
    emitBalancedParallelForIf(
        b, loc, rw.rows, parallelWorthwhile(b, rw.rows), rw.P.pos,
        [&](OpBuilder &fb, Location l, Value i) {
          memref::StoreOp::create(
              fb, l, arith::IndexCastOp::create(fb, l, i64, rowProducts(fb, l, i)),
              rw.work, ValueRange{arith::AddIOp::create(fb, l, i, one)});
        });
  }
  auto maxProducts = scf::ForOp::create(
      b, loc, zero, rw.rows, one, ValueRange{zero, zero},
      [&](OpBuilder &fb, Location l, Value i, ValueRange m) {
        Value next = arith::AddIOp::create(fb, l, i, one);
        Value products = rw.work ? loadIndex(fb, l, rw.work, next)
                                 : rowProducts(fb, l, i);
        Value total = arith::AddIOp::create(fb, l, m[1], products);
        if (rw.work)
          memref::StoreOp::create(fb, l,
                                  arith::IndexCastOp::create(fb, l, i64, total),
                                  rw.work, ValueRange{next});
        scf::YieldOp::create(
            fb, l,
            ValueRange{arith::MaxUIOp::create(fb, l, m[0], products), total});
      });
  rw.bound = arith::MinUIOp::create(b, loc, maxProducts.getResult(0), rw.cols);
  rw.products = maxProducts.getResult(1);
  // Workspace (SuiteSparse's choice, seed 000 §8): dense over the columns,
  // or, when rows have far fewer products than columns, an open-addressing
  // hash table of twice the densest row's products (a power of two).
  Value tableSize = constIndex(b, loc, 16);
  {
    Value twice =
        arith::MulIOp::create(b, loc, rw.bound, constIndex(b, loc, 2));
    auto grow = scf::WhileOp::create(
        b, loc, TypeRange{b.getIndexType()}, ValueRange{tableSize},
        [&](OpBuilder &wb, Location l, ValueRange args) {
          scf::ConditionOp::create(
              wb, l,
              arith::CmpIOp::create(wb, l, arith::CmpIPredicate::ult, args[0],
                                    twice),
              args);
        },
        [&](OpBuilder &wb, Location l, ValueRange args) {
          scf::YieldOp::create(
              wb, l,
              arith::MulIOp::create(wb, l, args[0], constIndex(wb, l, 2))
                  .getResult());
        });
    tableSize = grow.getResult(0);
  }
  Value useHash;
  if (reductionPlan.workspace == ReductionWorkspace::Hash)
    useHash = arith::ConstantIntOp::create(b, loc, 1, 1);
  else if (reductionPlan.workspace == ReductionWorkspace::Dense)
    useHash = arith::ConstantIntOp::create(b, loc, 0, 1);
  else {
    // Measured (bench/peers/workspace_sweep.py, random columns, issue 20):
    // the dense workspace wins while it is small enough to stay cached
    // (under 2^16 columns: 1.1-2.4x) and whenever rows average 16
    // products or more (1.3-2x up to 2^18 columns, even at 2^20); the
    // hash table only when rows average a few products over many columns
    // (4 products: 1.4-1.8x from 2^16 columns on). The maximum row, the
    // old criterion, is a power-law graph's hub, not its typical row.
    Value fewProducts = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult, maxProducts.getResult(1),
        arith::MulIOp::create(b, loc, rw.rows, constIndex(b, loc, 8)));
    Value manyColumns =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, rw.cols,
                              constIndex(b, loc, 1 << 16));
    useHash = arith::AndIOp::create(b, loc, fewProducts, manyColumns);
  }
  rw.workspace = WorkspacePlan{
      useHash, arith::SelectOp::create(b, loc, useHash, tableSize, rw.cols),
      tableSize,
      arith::IndexCastOp::create(b, loc, i64,
                                 arith::SubIOp::create(b, loc, tableSize, one))};
  // The mask's part of the kernel's algebra (both factors eliminated).
  if (rw.M)
    rw.maskSpace =
        eliminateOperand(eliminateOperand(algebra, rw.pk), rw.qk).normalize();
  // Output: CSR, rows appended in order (in parts, with a parallel plan).
  rw.posType = b.getIntegerType(resultFormat.getPosWidth());
  rw.crdType = b.getIntegerType(resultFormat.getCrdWidth());
  rw.valType = elt;
  rw.posOut = allocOutputBuffer(b, loc, kernel, bufferOf(rw.posType),
                                arith::AddIOp::create(b, loc, rw.rows, one));
  memref::StoreOp::create(b, loc,
                          arith::ConstantIntOp::create(b, loc, rw.posType, 0),
                          rw.posOut, ValueRange{zero});
  auto sequentialRows = [&](OpBuilder &sb, Location l) -> SmallVector<Value> {
    Value cap = rowWiseCapacity(
        sb, l, rw.products,
        arith::AddIOp::create(sb, l,
                              memref::DimOp::create(sb, l, rw.P.vals, 0),
                              memref::DimOp::create(sb, l, rw.Q.vals, 0)));
    Value crd = allocOutputBuffer(sb, l, kernel, bufferOf(rw.crdType), cap);
    Value val = allocOutputBuffer(sb, l, kernel, bufferOf(elt), cap);
    SmallVector<Value> rows = emitRowWiseRange(
        sb, rw, constIndex(sb, l, 0), rw.rows,
        ValueRange{constIndex(sb, l, 0), crd, val}, /*rowCounts=*/false);
    return {emitResize(sb, l, rows[1], rows[0]),
            emitResize(sb, l, rows[2], rows[0])};
  };
  SmallVector<Value> buffers =
      parallel ? emitParallelRowWise(b, rw, sequentialRows)
               : sequentialRows(b, loc);
  if (rw.work)
    memref::DeallocOp::create(b, loc, rw.work);
  if (hadError)
    return failure();
  // Dimension order: rows are the result's first level.
  SmallVector<Value> dims = {rw.rows, rw.cols};
  if (vec)
    dims = {rw.cols};
  else if (resultType.getFormat().getLevelDim(0) != 0)
    std::swap(dims[0], dims[1]);
  Value result = AssembleOp::create(
      b, loc, resultType, ValueRange{rw.posOut, buffers[0], buffers[1]}, dims);
  kernel.getResult().replaceAllUsesWith(result);
  kernel.erase();
  return success();
}

/// M(i, j) in the current row: its stored value, else its fill.
static Value maskAt(OpBuilder &b, Location loc, const RowWise &rw,
                    TypedAttr fill, Value j, Value gen) {
  Value here = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      memref::LoadOp::create(b, loc, rw.maskMark, ValueRange{j}), gen);
  return arith::SelectOp::create(
      b, loc, here, memref::LoadOp::create(b, loc, rw.maskVal, ValueRange{j}),
      arith::ConstantOp::create(b, loc, fill));
}

SmallVector<Value> KernelLowering::emitRowWiseRange(OpBuilder &b, RowWise rw,
                                                    Value lo, Value hi,
                                                    ValueRange acc,
                                                    bool rowCounts) {
  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  Type i64 = b.getI64Type();
  const WorkspacePlan &plan = rw.workspace;
  // This run's workspace (both kinds share the buffers: one of them runs),
  // the columns its current row touched and the mask's row.
  Value work = memref::AllocOp::create(b, loc, bufferOf(rw.valType),
                                       ValueRange{plan.size});
  Value mark =
      memref::AllocOp::create(b, loc, bufferOf(i64), ValueRange{plan.size});
  Value keys =
      memref::AllocOp::create(b, loc, bufferOf(i64),
                              ValueRange{arith::SelectOp::create(
                                  b, loc, plan.useHash, plan.tableSize, one)});
  rw.touched = memref::AllocOp::create(
      b, loc, bufferOf(i64),
      ValueRange{arith::AddIOp::create(b, loc, rw.bound, one)});
  if (rw.M) {
    rw.maskMark =
        memref::AllocOp::create(b, loc, bufferOf(i64), ValueRange{rw.cols});
    rw.maskVal = memref::AllocOp::create(
        b, loc, bufferOf(inputs[*rw.mk].type.getElementType()),
        ValueRange{rw.cols});
  }
  // Generations are rows + 1: cleared once, never between rows.
  auto clear = [&](Value buffer, Value size) {
    scf::ForOp::create(b, loc, zero, size, one, ValueRange{},
                       [&](OpBuilder &fb, Location l, Value j, ValueRange) {
                         memref::StoreOp::create(
                             fb, l, arith::ConstantIntOp::create(fb, l, i64, 0),
                             buffer, j);
                         scf::YieldOp::create(fb, l);
                       });
  };
  clear(mark, plan.size);
  if (rw.M)
    clear(rw.maskMark, rw.cols);
  DenseWorkspace dense(work, mark);
  HashWorkspace hash(work, mark, keys, plan.tableMask);
  SmallVector<Value> results;
  if (reductionPlan.workspace == ReductionWorkspace::Auto) {
    auto choice = scf::IfOp::create(
        b, loc, plan.useHash,
        [&](OpBuilder &tb, Location l) {
          scf::YieldOp::create(
              tb, l, emitRowWiseRows(tb, rw, hash, lo, hi, acc, rowCounts));
        },
        [&](OpBuilder &eb, Location l) {
          scf::YieldOp::create(
              eb, l, emitRowWiseRows(eb, rw, dense, lo, hi, acc, rowCounts));
        });
    results.assign(choice.getResults().begin(), choice.getResults().end());
  } else {
    Workspace &ws = reductionPlan.workspace == ReductionWorkspace::Hash
                        ? static_cast<Workspace &>(hash)
                        : static_cast<Workspace &>(dense);
    results = emitRowWiseRows(b, rw, ws, lo, hi, acc, rowCounts);
  }
  for (Value buffer : {work, mark, rw.touched, keys})
    memref::DeallocOp::create(b, loc, buffer);
  if (rw.M) {
    memref::DeallocOp::create(b, loc, rw.maskMark);
    memref::DeallocOp::create(b, loc, rw.maskVal);
  }
  return results;
}

SmallVector<Value> KernelLowering::emitRowWiseRows(OpBuilder &ob,
                                                   const RowWise &rw,
                                                   Workspace &ws, Value lo,
                                                   Value hi, ValueRange acc,
                                                   bool rowCounts) {
  Value one = constIndex(ob, loc, 1);
  Type i64 = ob.getI64Type();
  auto rowLoop = scf::ForOp::create(
      ob, loc, lo, hi, one, acc,
      [&](OpBuilder &rb, Location l, Value i, ValueRange rowAcc) {
        Value gen = arith::AddIOp::create(
            rb, l, arith::IndexCastOp::create(rb, l, i64, i),
            arith::ConstantIntOp::create(rb, l, i64, 1));
        Value next = arith::AddIOp::create(rb, l, i, one);
        if (rw.M)
          scf::ForOp::create(
              rb, l, loadIndex(rb, l, rw.M->pos, i),
              loadIndex(rb, l, rw.M->pos, next), one, ValueRange{},
              [&](OpBuilder &mb, Location ml, Value e, ValueRange) {
                Value j = loadIndex(mb, ml, rw.M->crd, e);
                memref::StoreOp::create(mb, ml, gen, rw.maskMark,
                                        ValueRange{j});
                memref::StoreOp::create(
                    mb, ml,
                    memref::LoadOp::create(mb, ml, rw.M->vals, ValueRange{e}),
                    rw.maskVal, ValueRange{j});
                scf::YieldOp::create(mb, ml);
              });
        Value count = emitRowScatter(rb, rw, ws, i, gen);
        SmallVector<Value> row = emitRowGather(rb, rw, ws, gen, count, rowAcc);
        // positions[i + 1]: the entries so far, or (in parts) the row's own
        // count, summed once every part is done.
        Value position =
            rowCounts ? arith::SubIOp::create(rb, l, row[0], rowAcc[0])
                      : row[0];
        memref::StoreOp::create(
            rb, l, arith::IndexCastUIOp::create(rb, l, rw.posType, position),
            rw.posOut, ValueRange{next});
        scf::YieldOp::create(rb, l, row);
      });
  return SmallVector<Value>(rowLoop.getResults());
}

Value KernelLowering::emitRowScatter(OpBuilder &rb, const RowWise &rw,
                                     Workspace &ws, Value i, Value gen) {
  Location l = loc;
  Value zero = constIndex(rb, l, 0), one = constIndex(rb, l, 1);
  Type i64 = rb.getI64Type();
  Value pLo = loadIndex(rb, l, rw.P.pos, i);
  Value pHi = loadIndex(rb, l, rw.P.pos, arith::AddIOp::create(rb, l, i, one));
  // Every stored P(i, k) times the row k of Q, into the workspace.
  auto overP = scf::ForOp::create(
      rb, l, pLo, pHi, one, ValueRange{zero},
      [&](OpBuilder &pb, Location pl, Value p, ValueRange pc) {
        Value k = loadIndex(pb, pl, rw.P.crd, p);
        Value a = memref::LoadOp::create(pb, pl, rw.P.vals, ValueRange{p});
        Value qLo = loadIndex(pb, pl, rw.Q.pos, k);
        Value qHi =
            loadIndex(pb, pl, rw.Q.pos, arith::AddIOp::create(pb, pl, k, one));
        auto overQ = scf::ForOp::create(
            pb, pl, qLo, qHi, one, ValueRange{pc[0]},
            [&](OpBuilder &qb, Location ql, Value q, ValueRange qc) {
              Value j = loadIndex(qb, ql, rw.Q.crd, q);
              auto accumulate = [&](OpBuilder &ab) -> SmallVector<Value> {
                Value bv =
                    memref::LoadOp::create(ab, ql, rw.Q.vals, ValueRange{q});
                SmallVector<Value> values(inputs.size());
                values[rw.pk] = a;
                values[rw.qk] = bv;
                Value v = emitBody(ab, 0, values, reduction.getValue());
                Value slot = ws.slotOf(ab, ql, j, gen);
                Value seen = arith::CmpIOp::create(
                    ab, ql, arith::CmpIPredicate::eq,
                    memref::LoadOp::create(ab, ql, ws.mark, ValueRange{slot}),
                    gen);
                auto upd = scf::IfOp::create(
                    ab, ql, seen,
                    [&](OpBuilder &tb, Location tl) {
                      Value old = memref::LoadOp::create(tb, tl, ws.work,
                                                         ValueRange{slot});
                      memref::StoreOp::create(tb, tl,
                                              emitCombinerCall(tb, old, v),
                                              ws.work, ValueRange{slot});
                      scf::YieldOp::create(tb, tl, qc[0]);
                    },
                    [&](OpBuilder &eb, Location el) {
                      Value j64 = arith::IndexCastOp::create(eb, el, i64, j);
                      memref::StoreOp::create(eb, el, gen, ws.mark,
                                              ValueRange{slot});
                      memref::StoreOp::create(eb, el, v, ws.work,
                                              ValueRange{slot});
                      ws.claim(eb, el, slot, j64);
                      memref::StoreOp::create(eb, el, j64, rw.touched,
                                              ValueRange{qc[0]});
                      scf::YieldOp::create(
                          eb, el,
                          arith::AddIOp::create(eb, el, qc[0], one)
                              .getResult());
                    });
                return SmallVector<Value>(upd.getResults());
              };
              if (!rw.M || rw.maskSpace.isUniverse()) {
                scf::YieldOp::create(qb, ql, accumulate(qb));
                return;
              }
              // A masked-out column takes no products.
              SmallVector<Value> defined(inputs.size());
              defined[*rw.mk] = differsFrom(
                  qb, ql, maskAt(qb, ql, rw, inputs[*rw.mk].fill, j, gen),
                  inputs[*rw.mk].fill);
              Value member = emitMembership(qb, ql, rw.maskSpace, defined);
              auto guarded = scf::IfOp::create(
                  qb, ql, member,
                  [&](OpBuilder &tb, Location tl) {
                    scf::YieldOp::create(tb, tl, accumulate(tb));
                  },
                  [&](OpBuilder &eb, Location el) {
                    scf::YieldOp::create(eb, el, qc[0]);
                  });
              scf::YieldOp::create(qb, ql, guarded.getResults());
            });
        scf::YieldOp::create(pb, pl, overQ.getResults());
      });
  return overP.getResult(0);
}

SmallVector<Value> KernelLowering::emitRowGather(OpBuilder &rb,
                                                 const RowWise &rw,
                                                 Workspace &ws, Value gen,
                                                 Value count, ValueRange acc) {
  Location l = loc;
  Value zero = constIndex(rb, l, 0), one = constIndex(rb, l, 1);
  Type i64 = rb.getI64Type();
  // In column order unless the result's columns are declared nonordered
  // (then in the order first touched, as scipy leaves them); entries
  // equal to the fill are dropped.
  const LevelSpec &columns = resultType.getFormat().getLevels().back();
  if (columns.ordered) {
    Value touchedPtr = arith::IndexCastOp::create(
        rb, l, i64,
        memref::ExtractAlignedPointerAsIndexOp::create(rb, l, rw.touched));
    callRuntime(rb, l, kernel, "sa_rt_sort_i64", {},
                {touchedPtr, arith::IndexCastOp::create(rb, l, i64, count)});
  }
  Value needed = arith::AddIOp::create(rb, l, acc[0], count);
  Value crd = growToFit(rb, l, acc[1], needed);
  Value val = growToFit(rb, l, acc[2], needed);
  auto gather = scf::ForOp::create(
      rb, l, zero, count, one, ValueRange{acc[0]},
      [&](OpBuilder &gb, Location gl, Value t, ValueRange gc) {
        Value j64 = memref::LoadOp::create(gb, gl, rw.touched, ValueRange{t});
        Value j = arith::IndexCastOp::create(gb, gl, gb.getIndexType(), j64);
        Value x = memref::LoadOp::create(gb, gl, ws.work,
                                         ValueRange{ws.slotOf(gb, gl, j, gen)});
        if (rw.M) {
          SmallVector<Value> values(inputs.size());
          values[*rw.mk] = maskAt(gb, gl, rw, inputs[*rw.mk].fill, j, gen);
          IRMapping given;
          given.map(reduction.getResult(), x);
          x = emitBody(gb, 0, values, Value(), &given);
        }
        auto keep = scf::IfOp::create(
            gb, gl, differsFrom(gb, gl, x, resultFill),
            [&](OpBuilder &tb, Location tl) {
              Value c = rw.crdType == j64.getType()
                            ? j64
                            : arith::TruncIOp::create(tb, tl, rw.crdType, j64)
                                  .getResult();
              memref::StoreOp::create(tb, tl, c, crd, ValueRange{gc[0]});
              memref::StoreOp::create(tb, tl, x, val, ValueRange{gc[0]});
              scf::YieldOp::create(
                  tb, tl,
                  arith::AddIOp::create(tb, tl, gc[0], one).getResult());
            },
            [&](OpBuilder &eb, Location el) {
              scf::YieldOp::create(eb, el, gc[0]);
            });
        scf::YieldOp::create(gb, gl, keep.getResults());
      });
  return {gather.getResult(0), crd, val};
}
