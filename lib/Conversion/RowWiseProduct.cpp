//===- RowWiseProduct.cpp - Row-wise (Gustavson) products -----------------===//
//
// C(i, j) = ⊕_k P(i, k) ⊗ Q(k, j) row by row through a workspace
// (dense or hash), the reduction's `scatter` plan (thesis 003 §6.3).
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"
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

LogicalResult KernelLowering::runRowWiseProduct() {
  OpBuilder b(kernel);
  kernel.getBody().walk([&](ReduceOverOp r) { reduction = r; });
  if (!kernel.getAlgebra() || !kernel.getFill() || !reduction.getStrategy())
    return kernel.emitError("kernel has no coiteration plan; run "
                            "--sparse-array-derive-algebra and "
                            "--sparse-array-build-lattices first");
  combiner = symbols.lookupNearestSymbolFrom<FuncOp>(
      kernel, reduction.getCombinerAttr());
  reductionPlan = derivation.planReduction(kernel, reduction);
  // The planner chose the factors (sparse-array-build-lattices records
  // them); hand-written plans must still have the shape lowered here.
  ArrayRef<int32_t> planned = *reduction.getScatter();
  unsigned pk = planned[0], qk = planned[1];
  std::optional<std::pair<unsigned, unsigned>> shape =
      matchRowWiseShape(kernel, reduction);
  if (!shape || shape->first != pk || shape->second != qk)
    return kernel.emitError("sparse_array.reduce_over is planned to scatter "
                            "with factors ")
           << pk << " and " << qk
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
  auto memrefOf = [](Type t) {
    return MemRefType::get({ShapedType::kDynamic}, t);
  };
  struct Factor {
    Value pos, crd, vals;
  };
  // The compressed level: a matrix's second, a vector's only one (a vector
  // is a one-row matrix here: its positions are [0, nnz]).
  auto factor = [&](unsigned k) {
    Value array = kernel.getInputs()[k];
    LevelBuffers level =
        fetchLevelBuffers(b, loc, array, inputs[k].type.getRank() - 1);
    return Factor{level.positions, level.coordinates,
                  ValuesOp::create(b, loc,
                                   memrefOf(inputs[k].type.getElementType()),
                                   array)};
  };
  Factor P = factor(pk), Q = factor(qk);
  // A mask M(i, j) the result is a function of, if any.
  std::optional<unsigned> mk;
  if (kernel.getYield().getValue() != reduction.getResult())
    for (Value arg :
         kernel.getYield().getValue().getDefiningOp()->getOperands())
      if (auto access = arg.getDefiningOp<AccessOp>())
        mk = cast<BlockArgument>(access.getArray()).getArgNumber() -
             kernel.getNumIndices();
  std::optional<Factor> M;
  if (mk)
    M = factor(*mk);
  // Rows and columns are levels: a CSC product runs over columns.
  auto dimOfLevel = [&](unsigned k, unsigned level) {
    return static_cast<int64_t>(inputs[k].type.getFormat().getLevelDim(level));
  };
  Value rows = vec ? constIndex(b, loc, 1)
                   : Value(DimOp::create(b, loc, kernel.getInputs()[pk],
                                         dimOfLevel(pk, 0)));
  Value inner = DimOp::create(b, loc, kernel.getInputs()[pk],
                              vec ? int64_t(0) : dimOfLevel(pk, 1));
  Value cols = DimOp::create(b, loc, kernel.getInputs()[qk], dimOfLevel(qk, 1));
  Type i64 = b.getI64Type();
  // The shared dimension must agree (static sizes are verified).
  emitExtentCheck(
      b, loc, kernel, qk, dimOfLevel(qk, 0),
      DimOp::create(b, loc, kernel.getInputs()[qk], dimOfLevel(qk, 0)), inner);
  // So must the mask's (its rows are scattered into column-sized marks).
  if (mk) {
    SmallVector<std::pair<int64_t, Value>> expected = {
        {vec ? 0 : dimOfLevel(*mk, 1), cols}};
    if (!vec)
      expected.push_back({dimOfLevel(*mk, 0), rows});
    for (auto [dim, size] : expected)
      emitExtentCheck(b, loc, kernel, *mk, dim,
                      DimOp::create(b, loc, kernel.getInputs()[*mk], dim),
                      size);
  }

  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  // The most products a row can have: the sum of Q's row lengths over the
  // row of P, at most the number of columns.
  auto maxProducts = scf::ForOp::create(
      b, loc, zero, rows, one, ValueRange{zero},
      [&](OpBuilder &fb, Location l, Value i, ValueRange m) {
        auto sum = scf::ForOp::create(
            fb, l, loadIndex(fb, l, P.pos, i),
            loadIndex(fb, l, P.pos, arith::AddIOp::create(fb, l, i, one)), one,
            ValueRange{zero},
            [&](OpBuilder &sb, Location sl, Value p, ValueRange acc) {
              Value k = loadIndex(sb, sl, P.crd, p);
              Value len = arith::SubIOp::create(
                  sb, sl,
                  loadIndex(sb, sl, Q.pos,
                            arith::AddIOp::create(sb, sl, k, one)),
                  loadIndex(sb, sl, Q.pos, k));
              scf::YieldOp::create(
                  sb, sl,
                  arith::AddIOp::create(sb, sl, acc[0], len).getResult());
            });
        scf::YieldOp::create(
            fb, l,
            arith::MaxUIOp::create(fb, l, m[0], sum.getResult(0)).getResult());
      });
  Value bound = arith::MinUIOp::create(b, loc, maxProducts.getResult(0), cols);
  // Workspace (SuiteSparse's choice, seed 000 §8): dense over the columns,
  // or, when rows have far fewer products than columns, an open-addressing
  // hash table of twice the densest row's products (a power of two).
  Value tableSize = constIndex(b, loc, 16);
  {
    Value twice = arith::MulIOp::create(b, loc, bound, constIndex(b, loc, 2));
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
  if (workspaceMode == "hash")
    useHash = arith::ConstantIntOp::create(b, loc, 1, 1);
  else if (workspaceMode == "dense")
    useHash = arith::ConstantIntOp::create(b, loc, 0, 1);
  else
    useHash = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult,
        arith::MulIOp::create(b, loc, bound, constIndex(b, loc, 8)), cols);
  Value wsSize = arith::SelectOp::create(b, loc, useHash, tableSize, cols);
  Value tableMask = arith::IndexCastOp::create(
      b, loc, i64, arith::SubIOp::create(b, loc, tableSize, one));
  // Values, the row that last wrote each slot (i + 1: nothing to clear
  // between rows), the column held by each hash slot, and the columns the
  // current row touched.
  Value work =
      memref::AllocOp::create(b, loc, memrefOf(elt), ValueRange{wsSize});
  Value mark =
      memref::AllocOp::create(b, loc, memrefOf(i64), ValueRange{wsSize});
  Value keys = memref::AllocOp::create(
      b, loc, memrefOf(i64),
      ValueRange{arith::SelectOp::create(b, loc, useHash, tableSize, one)});
  Value touched = memref::AllocOp::create(
      b, loc, memrefOf(i64),
      ValueRange{arith::AddIOp::create(b, loc, bound, one)});
  Value maskMark, maskVal;
  if (M) {
    maskMark = memref::AllocOp::create(b, loc, memrefOf(i64), ValueRange{cols});
    maskVal = memref::AllocOp::create(
        b, loc, memrefOf(inputs[*mk].type.getElementType()), ValueRange{cols});
  }
  auto clear = [&](Value buffer, Value size) {
    scf::ForOp::create(b, loc, zero, size, one, ValueRange{},
                       [&](OpBuilder &fb, Location l, Value j, ValueRange) {
                         memref::StoreOp::create(
                             fb, l, arith::ConstantIntOp::create(fb, l, i64, 0),
                             buffer, j);
                         scf::YieldOp::create(fb, l);
                       });
  };
  clear(mark, wsSize);
  if (M)
    clear(maskMark, cols);
  // Whether a product at (i, j) can matter, from the mask alone (the
  // kernel's algebra with both factors eliminated).
  IterationAlgebra maskSpace = IterationAlgebra::universe();
  if (M) {
    maskSpace = kernel.getAlgebra()->getAlgebra();
    maskSpace =
        eliminateOperand(eliminateOperand(maskSpace, pk), qk).normalize();
  }
  // Output: CSR, appended row by row.
  Type posType = b.getIntegerType(resultFormat.getPosWidth());
  Type crdType = b.getIntegerType(resultFormat.getCrdWidth());
  Value cap = arith::AddIOp::create(
      b, loc, constIndex(b, loc, 16),
      arith::AddIOp::create(b, loc, memref::DimOp::create(b, loc, P.vals, 0),
                            memref::DimOp::create(b, loc, Q.vals, 0)));
  Value posOut = allocOutput(b, memrefOf(posType),
                             arith::AddIOp::create(b, loc, rows, one));
  memref::StoreOp::create(b, loc,
                          arith::ConstantIntOp::create(b, loc, posType, 0),
                          posOut, ValueRange{zero});
  Value crdOut = allocOutput(b, memrefOf(crdType), cap);
  Value valOut = allocOutput(b, memrefOf(elt), cap);
  capacityIsBound = false;

  // The rows, with the dense workspace or the hash table.
  auto emitRows = [&](OpBuilder &ob, bool hash) -> SmallVector<Value> {
    // The slot of column j: j itself, or its hash table slot (linear probing
    // from a multiplicative hash) - the first slot that holds j or was not
    // written by this row.
    auto slotOf = [&](OpBuilder &sb, Location sl, Value j, Value gen) -> Value {
      if (!hash)
        return j;
      Value j64 = arith::IndexCastOp::create(sb, sl, i64, j);
      Value h = arith::AndIOp::create(
          sb, sl,
          arith::ShRUIOp::create(
              sb, sl,
              arith::MulIOp::create(
                  sb, sl, j64,
                  arith::ConstantIntOp::create(sb, sl, i64,
                                               int64_t(0x9E3779B97F4A7C15ull))),
              arith::ConstantIntOp::create(sb, sl, i64, 32)),
          tableMask);
      auto probe = scf::WhileOp::create(
          sb, sl, TypeRange{i64}, ValueRange{h},
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
      return arith::IndexCastOp::create(sb, sl, sb.getIndexType(),
                                        probe.getResult(0));
    };
    auto rowLoop = scf::ForOp::create(
        ob, loc, zero, rows, one, ValueRange{zero, crdOut, valOut},
        [&](OpBuilder &rb, Location l, Value i, ValueRange acc) {
          Value gen = arith::AddIOp::create(
              rb, l, arith::IndexCastOp::create(rb, l, i64, i),
              arith::ConstantIntOp::create(rb, l, i64, 1));
          Value next = arith::AddIOp::create(rb, l, i, one);
          if (M)
            scf::ForOp::create(
                rb, l, loadIndex(rb, l, M->pos, i),
                loadIndex(rb, l, M->pos, next), one, ValueRange{},
                [&](OpBuilder &mb, Location ml, Value e, ValueRange) {
                  Value j = loadIndex(mb, ml, M->crd, e);
                  memref::StoreOp::create(mb, ml, gen, maskMark, ValueRange{j});
                  memref::StoreOp::create(
                      mb, ml,
                      memref::LoadOp::create(mb, ml, M->vals, ValueRange{e}),
                      maskVal, ValueRange{j});
                  scf::YieldOp::create(mb, ml);
                });
          // M(i, j): its stored value in this row, else its fill.
          auto maskAt = [&](OpBuilder &mb, Location ml, Value j) -> Value {
            Value here = arith::CmpIOp::create(
                mb, ml, arith::CmpIPredicate::eq,
                memref::LoadOp::create(mb, ml, maskMark, ValueRange{j}), gen);
            return arith::SelectOp::create(
                mb, ml, here,
                memref::LoadOp::create(mb, ml, maskVal, ValueRange{j}),
                arith::ConstantOp::create(mb, ml, inputs[*mk].fill));
          };
          Value pLo = loadIndex(rb, l, P.pos, i);
          Value pHi = loadIndex(rb, l, P.pos, next);
          // Scatter: every stored P(i, k) times the row k of Q.
          auto overP = scf::ForOp::create(
              rb, l, pLo, pHi, one, ValueRange{zero},
              [&](OpBuilder &pb, Location pl, Value p, ValueRange pc) {
                Value k = loadIndex(pb, pl, P.crd, p);
                Value a = memref::LoadOp::create(pb, pl, P.vals, ValueRange{p});
                Value qLo = loadIndex(pb, pl, Q.pos, k);
                Value qHi = loadIndex(pb, pl, Q.pos,
                                      arith::AddIOp::create(pb, pl, k, one));
                auto overQ = scf::ForOp::create(
                    pb, pl, qLo, qHi, one, ValueRange{pc[0]},
                    [&](OpBuilder &qb, Location ql, Value q, ValueRange qc) {
                      Value j = loadIndex(qb, ql, Q.crd, q);
                      auto accumulate =
                          [&](OpBuilder &ab) -> SmallVector<Value> {
                        Value bv = memref::LoadOp::create(ab, ql, Q.vals,
                                                          ValueRange{q});
                        SmallVector<Value> values(inputs.size());
                        values[pk] = a;
                        values[qk] = bv;
                        Value v = emitBody(ab, 0, values, reduction.getValue());
                        Value slot = slotOf(ab, ql, j, gen);
                        Value seen = arith::CmpIOp::create(
                            ab, ql, arith::CmpIPredicate::eq,
                            memref::LoadOp::create(ab, ql, mark,
                                                   ValueRange{slot}),
                            gen);
                        auto upd = scf::IfOp::create(
                            ab, ql, seen,
                            [&](OpBuilder &tb, Location tl) {
                              Value old = memref::LoadOp::create(
                                  tb, tl, work, ValueRange{slot});
                              memref::StoreOp::create(
                                  tb, tl, emitCombinerCall(tb, old, v), work,
                                  ValueRange{slot});
                              scf::YieldOp::create(tb, tl, qc[0]);
                            },
                            [&](OpBuilder &eb, Location el) {
                              Value j64 =
                                  arith::IndexCastOp::create(eb, el, i64, j);
                              memref::StoreOp::create(eb, el, gen, mark,
                                                      ValueRange{slot});
                              memref::StoreOp::create(eb, el, v, work,
                                                      ValueRange{slot});
                              if (hash)
                                memref::StoreOp::create(eb, el, j64, keys,
                                                        ValueRange{slot});
                              memref::StoreOp::create(eb, el, j64, touched,
                                                      ValueRange{qc[0]});
                              scf::YieldOp::create(
                                  eb, el,
                                  arith::AddIOp::create(eb, el, qc[0], one)
                                      .getResult());
                            });
                        return SmallVector<Value>(upd.getResults());
                      };
                      if (!M || maskSpace.isUniverse()) {
                        scf::YieldOp::create(qb, ql, accumulate(qb));
                        return;
                      }
                      // A masked-out column takes no products.
                      SmallVector<Value> defined(inputs.size());
                      defined[*mk] = differsFrom(qb, ql, maskAt(qb, ql, j),
                                                 inputs[*mk].fill);
                      Value member = emitMembership(qb, ql, maskSpace, defined);
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
          Value count = overP.getResult(0);
          // Gather in column order; entries equal to the fill are dropped.
          Value touchedPtr = arith::IndexCastOp::create(
              rb, l, i64,
              memref::ExtractAlignedPointerAsIndexOp::create(rb, l, touched));
          callRuntime(
              rb, l, kernel, "sa_rt_sort_i64", {},
              {touchedPtr, arith::IndexCastOp::create(rb, l, i64, count)});
          Value needed = arith::AddIOp::create(rb, l, acc[0], count);
          Value crd = ensureCapacity(rb, acc[1], needed);
          Value val = ensureCapacity(rb, acc[2], needed);
          auto gather = scf::ForOp::create(
              rb, l, zero, count, one, ValueRange{acc[0]},
              [&](OpBuilder &gb, Location gl, Value t, ValueRange gc) {
                Value j64 =
                    memref::LoadOp::create(gb, gl, touched, ValueRange{t});
                Value j =
                    arith::IndexCastOp::create(gb, gl, gb.getIndexType(), j64);
                Value x = memref::LoadOp::create(
                    gb, gl, work, ValueRange{slotOf(gb, gl, j, gen)});
                if (M) {
                  SmallVector<Value> values(inputs.size());
                  values[*mk] = maskAt(gb, gl, j);
                  IRMapping given;
                  given.map(reduction.getResult(), x);
                  x = emitBody(gb, 0, values, Value(), &given);
                }
                auto keep = scf::IfOp::create(
                    gb, gl, differsFrom(gb, gl, x, resultFill),
                    [&](OpBuilder &tb, Location tl) {
                      Value c =
                          crdType == j64.getType()
                              ? j64
                              : arith::TruncIOp::create(tb, tl, crdType, j64)
                                    .getResult();
                      memref::StoreOp::create(tb, tl, c, crd,
                                              ValueRange{gc[0]});
                      memref::StoreOp::create(tb, tl, x, val,
                                              ValueRange{gc[0]});
                      scf::YieldOp::create(
                          tb, tl,
                          arith::AddIOp::create(tb, tl, gc[0], one)
                              .getResult());
                    },
                    [&](OpBuilder &eb, Location el) {
                      scf::YieldOp::create(eb, el, gc[0]);
                    });
                scf::YieldOp::create(gb, gl, keep.getResults());
              });
          Value nnz = gather.getResult(0);
          memref::StoreOp::create(
              rb, l, arith::IndexCastUIOp::create(rb, l, posType, nnz), posOut,
              ValueRange{arith::AddIOp::create(rb, l, i, one)});
          scf::YieldOp::create(rb, l, ValueRange{nnz, crd, val});
        });
    return SmallVector<Value>(rowLoop.getResults());
  };
  SmallVector<Value> rowResults;
  if (workspaceMode == "auto") {
    auto choice = scf::IfOp::create(
        b, loc, useHash,
        [&](OpBuilder &tb, Location l) {
          scf::YieldOp::create(tb, l, emitRows(tb, true));
        },
        [&](OpBuilder &eb, Location l) {
          scf::YieldOp::create(eb, l, emitRows(eb, false));
        });
    rowResults.assign(choice.getResults().begin(), choice.getResults().end());
  } else {
    rowResults = emitRows(b, workspaceMode == "hash");
  }
  Value nnz = rowResults[0];
  Value crdFinal = emitResize(b, loc, rowResults[1], nnz);
  Value valFinal = emitResize(b, loc, rowResults[2], nnz);
  memref::DeallocOp::create(b, loc, work);
  memref::DeallocOp::create(b, loc, mark);
  memref::DeallocOp::create(b, loc, touched);
  memref::DeallocOp::create(b, loc, keys);
  if (M) {
    memref::DeallocOp::create(b, loc, maskMark);
    memref::DeallocOp::create(b, loc, maskVal);
  }
  if (hadError)
    return failure();
  // Dimension order: rows are the result's first level.
  SmallVector<Value> dims = {rows, cols};
  if (vec)
    dims = {cols};
  else if (resultType.getFormat().getLevelDim(0) != 0)
    std::swap(dims[0], dims[1]);
  Value result = AssembleOp::create(
      b, loc, resultType, ValueRange{posOut, crdFinal, valFinal}, dims);
  kernel.getResult().replaceAllUsesWith(result);
  kernel.erase();
  return success();
}
