//===- CodegenUtils.cpp - Small IR builders shared by codegen -------------===//

#include "CodegenUtils.h"

#include "SparseArray/Conversion/RuntimeCalls.h"
#include "SparseArray/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::sparse_array;

MemRefType mlir::sparse_array::bufferOf(Type element) {
  return MemRefType::get({ShapedType::kDynamic}, element);
}

std::pair<Value, Value> InvariantDivisor::divRem(OpBuilder &b, Location loc,
                                                 Value n) {
  if (getConstantIntValue(divisor))
    return {arith::DivUIOp::create(b, loc, n, divisor),
            arith::RemUIOp::create(b, loc, n, divisor)};
  Type i64 = b.getI64Type();
  if (!reciprocal) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfterValue(divisor);
    Value d = arith::IndexCastUIOp::create(b, loc, i64, divisor);
    Value one = arith::ConstantIntOp::create(b, loc, i64, 1);
    Value ones = arith::ConstantIntOp::create(b, loc, i64, -1);
    reciprocal = arith::DivUIOp::create(
        b, loc, ones, arith::MaxUIOp::create(b, loc, d, one));
  }
  Value n64 = arith::IndexCastUIOp::create(b, loc, i64, n);
  Value q = arith::MulUIExtendedOp::create(b, loc, n64, reciprocal).getHigh();
  Value qi = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), q);
  Value r = arith::SubIOp::create(b, loc, n,
                                  arith::MulIOp::create(b, loc, qi, divisor));
  Value over = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, r,
                                     divisor);
  Value qUp = arith::AddIOp::create(b, loc, qi, constIndex(b, loc, 1));
  Value rDown = arith::SubIOp::create(b, loc, r, divisor);
  return {arith::SelectOp::create(b, loc, over, qUp, qi),
          arith::SelectOp::create(b, loc, over, rDown, r)};
}

Value mlir::sparse_array::constIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value mlir::sparse_array::loadParameter(OpBuilder &b, Location loc,
                                        Value buffer) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfterValue(buffer);
  return loadIndex(b, loc, buffer, constIndex(b, loc, 0));
}

Value mlir::sparse_array::loadIndex(OpBuilder &b, Location loc, Value buffer,
                                    Value pos) {
  Value v = memref::LoadOp::create(b, loc, buffer, ValueRange{pos});
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), v);
}

void mlir::sparse_array::storeIndex(OpBuilder &b, Location loc, Value v,
                                    Value buffer, Value pos) {
  Type t = cast<MemRefType>(buffer.getType()).getElementType();
  memref::StoreOp::create(b, loc, arith::IndexCastUIOp::create(b, loc, t, v),
                          buffer, ValueRange{pos});
}

Value mlir::sparse_array::emitGuardedCoordinateIs(OpBuilder &b, Location loc,
                                                  Value guard, Value buffer,
                                                  Value pos, Value value) {
  auto branch = scf::IfOp::create(
      b, loc, guard,
      [&](OpBuilder &tb, Location l) {
        Value eq = arith::CmpIOp::create(tb, l, arith::CmpIPredicate::eq,
                                         loadIndex(tb, l, buffer, pos), value);
        scf::YieldOp::create(tb, l, eq);
      },
      [&](OpBuilder &eb, Location l) {
        Value no = arith::ConstantIntOp::create(eb, l, 0, 1);
        scf::YieldOp::create(eb, l, no);
      });
  return branch.getResult(0);
}

Value mlir::sparse_array::linearize(OpBuilder &b, Location loc, Value q,
                                    Value extent, Value c) {
  return arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, q, extent),
                               c);
}

Value mlir::sparse_array::emitResize(OpBuilder &b, Location loc, Value buffer,
                                     Value size) {
  return memref::ReallocOp::create(b, loc, cast<MemRefType>(buffer.getType()),
                                   buffer, size);
}

void mlir::sparse_array::emitExtentCheck(OpBuilder &b, Location loc,
                                         Operation *kernel, unsigned input,
                                         unsigned dim, Value actual,
                                         Value expected) {
  Type i64 = b.getI64Type();
  auto toI64 = [&](Value v) {
    return arith::IndexCastOp::create(b, loc, i64, v);
  };
  Value args[] = {arith::ConstantIntOp::create(b, loc, i64, input),
                  arith::ConstantIntOp::create(b, loc, i64, dim), toI64(actual),
                  toI64(expected)};
  callRuntime(b, loc, kernel, "sa_rt_check_extent", {}, args);
}

void mlir::sparse_array::emitConcatExtentChecks(OpBuilder &b, ConcatOp concat) {
  Location loc = concat.getLoc();
  auto result = cast<ArrayType>(concat.getType());
  Type i64 = b.getI64Type();
  auto constI64 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i64, v).getResult();
  };
  auto dimOf = [&](Value array, unsigned d) {
    return arith::IndexCastOp::create(b, loc, i64,
                                      DimOp::create(b, loc, array, int64_t(d)))
        .getResult();
  };
  // The verifier makes a dimension dynamic in all inputs or in none.
  Value first = concat.getInputs().front();
  for (unsigned d = 0; d < result.getRank(); ++d) {
    if (d == concat.getDim() || !result.isDynamicDim(d))
      continue;
    Value expected = dimOf(first, d);
    for (auto [k, input] : llvm::enumerate(concat.getInputs().drop_front())) {
      Value args[] = {constI64(k + 1), constI64(concat.getDim()), constI64(d),
                      dimOf(input, d), expected};
      callRuntime(b, loc, concat, "sa_rt_check_concat", {}, args);
    }
  }
}

/// fn(input, dim, actual, bound): a runtime check of a dimension of a
/// kernel input against a static bound.
static void emitDimensionCheck(OpBuilder &b, Location loc, Operation *kernel,
                               StringRef fn, unsigned input, unsigned dim,
                               Value actual, int64_t bound) {
  Type i64 = b.getI64Type();
  Value args[] = {arith::ConstantIntOp::create(b, loc, i64, input),
                  arith::ConstantIntOp::create(b, loc, i64, dim),
                  arith::IndexCastOp::create(b, loc, i64, actual),
                  arith::ConstantIntOp::create(b, loc, i64, bound)};
  callRuntime(b, loc, kernel, fn, {}, args);
}

void mlir::sparse_array::emitSliceCheck(OpBuilder &b, Location loc,
                                        Operation *kernel, unsigned input,
                                        unsigned dim, Value actual,
                                        int64_t stop) {
  emitDimensionCheck(b, loc, kernel, "sa_rt_check_slice", input, dim, actual,
                     stop);
}

void mlir::sparse_array::emitSplitCheck(OpBuilder &b, Location loc,
                                        Operation *kernel, unsigned input,
                                        unsigned dim, Value actual,
                                        int64_t inner) {
  emitDimensionCheck(b, loc, kernel, "sa_rt_check_split", input, dim, actual,
                     inner);
}

void mlir::sparse_array::emitWindowsCheck(OpBuilder &b, Location loc,
                                          Operation *kernel, unsigned input,
                                          unsigned dim, Value actual,
                                          int64_t per, int64_t inner,
                                          Value windows) {
  Type i64 = b.getI64Type();
  auto constI64 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i64, v).getResult();
  };
  Value args[] = {constI64(input),
                  constI64(dim),
                  arith::IndexCastOp::create(b, loc, i64, actual),
                  constI64(per),
                  constI64(inner),
                  arith::IndexCastOp::create(b, loc, i64, windows)};
  callRuntime(b, loc, kernel, "sa_rt_check_windows", {}, args);
}

void mlir::sparse_array::markShortLoop(Operation *loop) {
  MLIRContext *ctx = loop->getContext();
  auto once = LLVM::LoopInterleaveAttr::get(
      ctx, IntegerAttr::get(IntegerType::get(ctx, 32), 1));
  // scf-to-cf moves the annotation to the loop's latch branch.
  loop->setAttr("loop_annotation",
                LLVM::LoopAnnotationAttr::get(ctx, {}, {}, once, {}, {}, {}, {},
                                              {}, {}, {}, {}, {}, {}, {}, {}));
}

void mlir::sparse_array::markNotUnrolled(Operation *loop) {
  MLIRContext *ctx = loop->getContext();
  auto off = LLVM::LoopUnrollAttr::get(ctx, BoolAttr::get(ctx, true), {}, {},
                                       {}, {}, {}, {});
  loop->setAttr("loop_annotation",
                LLVM::LoopAnnotationAttr::get(ctx, {}, {}, {}, off, {}, {}, {},
                                              {}, {}, {}, {}, {}, {}, {}, {}));
}

Value mlir::sparse_array::differsFrom(OpBuilder &b, Location loc, Value value,
                                      TypedAttr fill) {
  Value f = arith::ConstantOp::create(b, loc, fill);
  Type type = value.getType();
  if (auto ft = dyn_cast<FloatType>(type)) {
    auto intType = b.getIntegerType(ft.getWidth());
    Value vi = arith::BitcastOp::create(b, loc, intType, value);
    Value fi = arith::BitcastOp::create(b, loc, intType, f);
    // Bit for bit: a NaN of another sign or payload than a NaN fill is a
    // value of its own (docs/README.md, "Fill values are bits").
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, vi, fi);
  }
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, value, f);
}

Value mlir::sparse_array::unlikely(OpBuilder &b, Location loc,
                                   Value condition) {
  Value no = arith::ConstantIntOp::create(b, loc, 0, 1);
  return LLVM::ExpectOp::create(b, loc, condition, no);
}

Value mlir::sparse_array::isNegativeZero(OpBuilder &b, Location loc,
                                         Value value) {
  Type t = value.getType();
  Type bits = b.getIntegerType(t.getIntOrFloatBitWidth());
  Value negZero = arith::ConstantOp::create(b, loc, b.getFloatAttr(t, -0.0));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                               arith::BitcastOp::create(b, loc, bits, value),
                               arith::BitcastOp::create(b, loc, bits, negZero));
}

Value mlir::sparse_array::emitCountsToPositions(OpBuilder &b, Location loc,
                                                Value positions, Value rows) {
  // Sequential: one add per row against the loops' work per row.
  Value one = constIndex(b, loc, 1);
  Type posType = cast<MemRefType>(positions.getType()).getElementType();
  auto scan = scf::ForOp::create(
      b, loc, one, arith::AddIOp::create(b, loc, rows, one), one,
      ValueRange{arith::ConstantIntOp::create(b, loc, posType, 0)},
      [&](OpBuilder &fb, Location l, Value i, ValueRange acc) {
        Value c = memref::LoadOp::create(fb, l, positions, ValueRange{i});
        Value s = arith::AddIOp::create(fb, l, acc[0], c);
        memref::StoreOp::create(fb, l, s, positions, i);
        scf::YieldOp::create(fb, l, s);
      });
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(),
                                      scan.getResult(0));
}

Value mlir::sparse_array::bufferAddress(OpBuilder &b, Location loc,
                                        Value buffer) {
  return arith::IndexCastOp::create(
      b, loc, b.getI64Type(),
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer));
}

Value mlir::sparse_array::byteCount(OpBuilder &b, Location loc, Value count,
                                    Type element) {
  Type i64 = b.getI64Type();
  unsigned bytes = (element.getIntOrFloatBitWidth() + 7) / 8;
  return arith::MulIOp::create(
      b, loc, arith::IndexCastOp::create(b, loc, i64, count),
      arith::ConstantIntOp::create(b, loc, i64, bytes));
}

Value mlir::sparse_array::emitLowerBound(
    OpBuilder &b, Location loc, Value lo, Value hi,
    function_ref<Value(OpBuilder &, Location, Value)> below) {
  auto search = scf::WhileOp::create(
      b, loc, TypeRange{b.getIndexType(), b.getIndexType()},
      ValueRange{lo, hi},
      [&](OpBuilder &cb, Location l, ValueRange args) {
        Value more = arith::CmpIOp::create(cb, l, arith::CmpIPredicate::ult,
                                           args[0], args[1]);
        scf::ConditionOp::create(cb, l, more, args);
      },
      [&](OpBuilder &wb, Location l, ValueRange args) {
        Value one = constIndex(wb, l, 1);
        Value mid = arith::ShRUIOp::create(
            wb, l, arith::AddIOp::create(wb, l, args[0], args[1]), one);
        Value isBelow = below(wb, l, mid);
        Value next = arith::SelectOp::create(
            wb, l, isBelow, arith::AddIOp::create(wb, l, mid, one), args[0]);
        Value end = arith::SelectOp::create(wb, l, isBelow, args[1], mid);
        scf::YieldOp::create(wb, l, ValueRange{next, end});
      });
  return search.getResult(0);
}

/// The first x in [0, n] that starts part q of `parts`: where the
/// positions reach q * total / parts (bisection), or q * n / parts without
/// positions.
static Value partStart(OpBuilder &b, Location loc, Value n, Value parts,
                       Value positions, Value q) {
  if (!positions)
    return arith::DivUIOp::create(b, loc, arith::MulIOp::create(b, loc, q, n),
                                  parts);
  Value total = loadIndex(b, loc, positions, n);
  Value target = arith::DivUIOp::create(
      b, loc, arith::MulIOp::create(b, loc, q, total), parts);
  return emitLowerBound(b, loc, constIndex(b, loc, 0), n,
                        [&](OpBuilder &wb, Location wl, Value mid) -> Value {
                          return arith::CmpIOp::create(
                              wb, wl, arith::CmpIPredicate::ult,
                              loadIndex(wb, wl, positions, mid), target);
                        });
}

/// body(p, lo, hi) for part p of [0, n): the last part ends at n (xs past
/// the last unit of work included).
static void runPartOf(
    OpBuilder &b, Location loc, Value n, Value parts, Value positions, Value p,
    function_ref<void(OpBuilder &, Location, Value, Value, Value)> body) {
  Value next = arith::AddIOp::create(b, loc, p, constIndex(b, loc, 1));
  Value last =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, next, parts);
  Value lo = partStart(b, loc, n, parts, positions, p);
  Value hi = arith::SelectOp::create(
      b, loc, last, n, partStart(b, loc, n, parts, positions, next));
  body(b, loc, p, lo, hi);
}

void mlir::sparse_array::emitParallelParts(
    OpBuilder &b, Location loc, Value n, Value parts, Value positions,
    function_ref<void(OpBuilder &, Location, Value, Value, Value)> body) {
  Value zero = constIndex(b, loc, 0);
  // Parts of equal entries are not parts of equal time (a part of many
  // short rows pays each row's set-up): threads take them one at a time.
  auto loop = scf::ParallelOp::create(
      b, loc, ValueRange{zero}, ValueRange{parts},
      ValueRange{constIndex(b, loc, 1)},
      [&](OpBuilder &pb, Location l, ValueRange ivs) {
        runPartOf(pb, l, n, parts, positions, ivs.front(), body);
      });
  loop->setAttr(kScheduleAttrName, b.getStringAttr("dynamic"));
}

void mlir::sparse_array::emitClaimedParts(
    OpBuilder &b, Location loc, Operation *anchor, Value n, Value parts,
    Value positions, Value chain,
    function_ref<void(OpBuilder &, Location, Value, Value, Value)> body) {
  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  Type i64 = b.getI64Type();
  // One worker per thread (a static loop): each claims the next part until
  // none is left, so parts are claimed in increasing order by running
  // threads (OpenMP's dynamic schedule may hand a thread a later block).
  Value threads = arith::IndexCastOp::create(
      b, loc, b.getIndexType(),
      callRuntime(b, loc, anchor, "omp_get_max_threads", b.getI32Type(), {}));
  Value workers = arith::MinUIOp::create(
      b, loc, parts, arith::MaxUIOp::create(b, loc, threads, one));
  scf::ParallelOp::create(
      b, loc, ValueRange{zero}, ValueRange{workers}, ValueRange{one},
      [&](OpBuilder &pb, Location l, ValueRange) {
        scf::WhileOp::create(
            pb, l, TypeRange{pb.getIndexType()}, ValueRange{},
            [&](OpBuilder &cb, Location cl, ValueRange) {
              Value p = arith::IndexCastOp::create(
                  cb, cl, cb.getIndexType(),
                  callRuntime(cb, cl, anchor, "sa_rt_chain_claim", {i64},
                              {chain}));
              Value more = arith::CmpIOp::create(
                  cb, cl, arith::CmpIPredicate::ult, p, parts);
              scf::ConditionOp::create(cb, cl, more, ValueRange{p});
            },
            [&](OpBuilder &wb, Location wl, ValueRange args) {
              runPartOf(wb, wl, n, parts, positions, args.front(), body);
              scf::YieldOp::create(wb, wl);
            });
      });
}

/// The parallel loop over [0, n), or over parts of equal work.
static void emitParallelLoop(
    OpBuilder &b, Location loc, Value n, Value positions,
    function_ref<void(OpBuilder &, Location, Value)> body) {
  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  if (!positions) {
    scf::ParallelOp::create(b, loc, ValueRange{zero}, ValueRange{n},
                            ValueRange{one},
                            [&](OpBuilder &bb, Location bl, ValueRange ivs) {
                              body(bb, bl, ivs.front());
                            });
    return;
  }
  Value parts =
      arith::MinUIOp::create(b, loc, n, constIndex(b, loc, kBalancedParts));
  emitParallelParts(
      b, loc, n, parts, positions,
      [&](OpBuilder &pb, Location l, Value, Value lo, Value hi) {
        scf::ForOp::create(pb, l, lo, hi, constIndex(pb, l, 1), ValueRange{},
                           [&](OpBuilder &fb, Location fl, Value x, ValueRange) {
                             body(fb, fl, x);
                             scf::YieldOp::create(fb, fl);
                           });
      });
}

void mlir::sparse_array::emitParallelFor(
    OpBuilder &b, Location loc, Value n, int64_t minN,
    function_ref<void(OpBuilder &, Location, Value)> body) {
  emitBalancedParallelFor(b, loc, n, minN, Value(), body);
}

void mlir::sparse_array::emitBalancedParallelFor(
    OpBuilder &b, Location loc, Value n, int64_t minN, Value positions,
    function_ref<void(OpBuilder &, Location, Value)> body) {
  Value large;
  if (std::optional<int64_t> c = getConstantIntValue(n))
    large = arith::ConstantIntOp::create(b, loc, b.getI1Type(), *c >= minN);
  else
    large = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, n,
                                  constIndex(b, loc, minN));
  emitBalancedParallelForIf(b, loc, n, large, positions, body);
}

void mlir::sparse_array::emitBalancedParallelForIf(
    OpBuilder &b, Location loc, Value n, Value large, Value positions,
    function_ref<void(OpBuilder &, Location, Value)> body) {
  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  auto parallel = [&](OpBuilder &pb, Location l) {
    emitParallelLoop(pb, l, n, positions, body);
  };
  auto sequential = [&](OpBuilder &sb, Location l) {
    scf::ForOp::create(sb, l, zero, n, one, ValueRange{},
                       [&](OpBuilder &bb, Location bl, Value x, ValueRange) {
                         body(bb, bl, x);
                         scf::YieldOp::create(bb, bl);
                       });
  };
  if (std::optional<int64_t> c = getConstantIntValue(large)) {
    if (*c)
      parallel(b, loc);
    else
      sequential(b, loc);
    return;
  }
  scf::IfOp::create(
      b, loc, large,
      [&](OpBuilder &tb, Location l) {
        parallel(tb, l);
        scf::YieldOp::create(tb, l);
      },
      [&](OpBuilder &eb, Location l) {
        sequential(eb, l);
        scf::YieldOp::create(eb, l);
      });
}

Value mlir::sparse_array::combineCountedRuns(
    OpBuilder &b, Location loc, Value a, Value na, Value c, Value nc,
    function_ref<Value(OpBuilder &, Value, Value)> combine) {
  auto empty = [&](OpBuilder &eb, Value n) {
    return arith::CmpIOp::create(eb, loc, arith::CmpIPredicate::eq, n,
                                 constIndex(eb, loc, 0));
  };
  auto pick = scf::IfOp::create(
      b, loc, empty(b, na),
      [&](OpBuilder &tb, Location l) { scf::YieldOp::create(tb, l, c); },
      [&](OpBuilder &eb, Location l) {
        auto both = scf::IfOp::create(
            eb, l, empty(eb, nc),
            [&](OpBuilder &tb, Location tl) { scf::YieldOp::create(tb, tl, a); },
            [&](OpBuilder &cb, Location cl) {
              scf::YieldOp::create(cb, cl, combine(cb, a, c));
            });
        scf::YieldOp::create(eb, l, both.getResult(0));
      });
  return pick.getResult(0);
}

std::string mlir::sparse_array::describeLocation(Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else if (auto fused = dyn_cast<FusedLoc>(loc);
           fused && !fused.getLocations().empty())
    return mlir::sparse_array::describeLocation(fused.getLocations().front());
  else if (auto named = dyn_cast<NameLoc>(loc))
    return mlir::sparse_array::describeLocation(named.getChildLoc());
  else
    loc.print(os);
  return text;
}

Value mlir::sparse_array::severalThreads(OpBuilder &b, Location loc,
                                         Operation *anchor) {
  // OpenMP's thread count for the next parallel region: with one thread a
  // parallel plan's extra work (a counting pass, parts copied together)
  // buys nothing, so the sequential code runs (issue 56).
  Value threads = callRuntime(b, loc, anchor, "omp_get_max_threads",
                              b.getI32Type(), {});
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, threads,
                               arith::ConstantIntOp::create(b, loc, 1, 32));
}
