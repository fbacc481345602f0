//===- RowWiseParallel.cpp - Row-wise products over parallel parts --------===//
//
// A row-wise product planned parallel (sparse-array-plan-parallel) shares
// its rows out in parts of equal work — the rows' products, not their
// count, since power-law rows differ by orders of magnitude — a few per
// thread. Each part has its own workspace and appends its rows to buffers
// of its own, storing each row's entry count at positions[i + 1]; once
// every part is done the counts are summed into positions and the parts'
// entries are copied back to back, in part order, into buffers of the
// exact size. No two threads write the same memory, and the result is the
// sequential one bit for bit for any number of threads (a row is computed
// by one thread in the sequential order).
//
// Why not the two phases of TwoPhaseOutput.cpp: counting a row's entries
// exactly (the fill dropped) costs its whole scatter, which is most of a
// row-wise product's time; copying the entries once is far cheaper.
//
//===----------------------------------------------------------------------===//

#include "Loops/KernelLowering.h"
#include "SparseArray/Conversion/RuntimeCalls.h"

#include "CodegenUtils.h"
#include "Reductions/RowWise.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::detail;

/// Parts per thread: enough that a part running long (its rows' products
/// are an estimate of their time) is made up by the others, few enough
/// that every part's workspace (cleared once per part) stays cheap.
static constexpr int64_t kPartsPerThread = 4;

SmallVector<Value> KernelLowering::emitParallelRowWise(
    OpBuilder &b, const RowWise &rw,
    function_ref<SmallVector<Value>(OpBuilder &, Location)> sequentialRows) {
  Type i64 = b.getI64Type();
  auto memrefOf = [](Type t) {
    return MemRefType::get({ShapedType::kDynamic}, t);
  };
  auto parallelRows = [&](OpBuilder &pb, Location l) -> SmallVector<Value> {
    Value one = constIndex(pb, l, 1);
    Value threads = arith::IndexCastOp::create(
        pb, l, pb.getIndexType(),
        callRuntime(pb, l, kernel, "omp_get_max_threads", {pb.getI32Type()},
                    {}));
    Value parts = arith::MinUIOp::create(
        pb, l, rw.rows,
        arith::MulIOp::create(pb, l,
                              arith::MaxUIOp::create(pb, l, threads, one),
                              constIndex(pb, l, kPartsPerThread)));
    Value handle =
        callRuntime(pb, l, kernel, "sa_rt_parts_new", {i64},
                    {arith::IndexCastOp::create(pb, l, i64, parts)});
    // Each part's first row: where its entries go once positions are made.
    Value starts = memref::AllocOp::create(pb, l, memrefOf(pb.getIndexType()),
                                           ValueRange{parts});
    emitParallelParts(
        pb, l, rw.rows, parts, rw.work,
        [&](OpBuilder &bb, Location bl, Value p, Value lo, Value hi) {
          memref::StoreOp::create(bb, bl, lo, starts, ValueRange{p});
          // The part's products (rw.work's prefix sums), within 8 times
          // the entries it reads (its rows of P, all of Q); grown as rows
          // are appended (growToFit) past that.
          Value cap = rowWiseCapacity(
              bb, bl,
              arith::SubIOp::create(bb, bl, loadIndex(bb, bl, rw.work, hi),
                                    loadIndex(bb, bl, rw.work, lo)),
              arith::AddIOp::create(
                  bb, bl,
                  arith::SubIOp::create(bb, bl, loadIndex(bb, bl, rw.P.pos, hi),
                                        loadIndex(bb, bl, rw.P.pos, lo)),
                  memref::DimOp::create(bb, bl, rw.Q.vals, 0)));
          Value crd = memref::AllocOp::create(bb, bl, memrefOf(rw.crdType),
                                              ValueRange{cap});
          Value val = memref::AllocOp::create(bb, bl, memrefOf(rw.valType),
                                              ValueRange{cap});
          SmallVector<Value> rows = emitRowWiseRange(
              bb, rw, lo, hi, ValueRange{constIndex(bb, bl, 0), crd, val},
              /*rowCounts=*/true);
          callRuntime(bb, bl, kernel, "sa_rt_parts_adopt", {},
                      {handle, arith::IndexCastOp::create(bb, bl, i64, p),
                       bufferAddress(bb, bl, rows[1]),
                       byteCount(bb, bl, rows[0], rw.crdType),
                       bufferAddress(bb, bl, rows[2]),
                       byteCount(bb, bl, rows[0], rw.valType)});
          // Adopted by the runtime: freed once joined.
        });
    // positions[i + 1] holds row i's count.
    Value total = emitCountsToPositions(pb, l, rw.posOut, rw.rows);
    Value crd =
        allocOutputBuffer(pb, l, kernel, memrefOf(rw.crdType), total);
    Value val =
        allocOutputBuffer(pb, l, kernel, memrefOf(rw.valType), total);
    // Each part copies its entries to its first row's position, in
    // parallel.
    emitParallelFor(pb, l, parts, 2, [&](OpBuilder &cb, Location cl, Value p) {
      Value offset = loadIndex(
          cb, cl, rw.posOut, memref::LoadOp::create(cb, cl, starts, ValueRange{p}));
      Value part = arith::IndexCastOp::create(cb, cl, i64, p);
      for (auto [slot, buffer, type] :
           {std::make_tuple(0, crd, rw.crdType), std::make_tuple(1, val, rw.valType)})
        callRuntime(cb, cl, kernel, "sa_rt_parts_take_part", {},
                    {handle, part, arith::ConstantIntOp::create(cb, cl, i64, slot),
                     arith::AddIOp::create(cb, cl, bufferAddress(cb, cl, buffer),
                                           byteCount(cb, cl, offset, type))});
    });
    memref::DeallocOp::create(pb, l, starts);
    callRuntime(pb, l, kernel, "sa_rt_parts_free", {}, {handle});
    return {crd, val};
  };
  Value large = parallelWorthwhile(b, rw.rows);
  auto choice = scf::IfOp::create(
      b, loc, large,
      [&](OpBuilder &tb, Location l) {
        scf::YieldOp::create(tb, l, parallelRows(tb, l));
      },
      [&](OpBuilder &eb, Location l) {
        scf::YieldOp::create(eb, l, sequentialRows(eb, l));
      });
  return SmallVector<Value>(choice.getResults());
}
