//===- CheckBounds.cpp - sparse-array-check-bounds ------------------------===//
//
// A debug mode (issue 14): every load and store of a 1-D buffer is compared
// with the buffer's size first, and a violation is reported by the runtime
// with the kernel, the buffer and the index, instead of reading a
// neighbour's memory or crashing.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Conversion/Passes.h"
#include "SparseArray/Conversion/RuntimeCalls.h"
#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir {
namespace sparse_array {
#define GEN_PASS_DEF_SPARSEARRAYCHECKBOUNDSPASS
#include "SparseArray/Conversion/Passes.h.inc"
} // namespace sparse_array
} // namespace mlir

using namespace mlir;
using namespace mlir::sparse_array;

namespace {

/// Which buffer a memref is, in the words of the storage layout.
std::string describeBuffer(Value buffer) {
  std::string text;
  llvm::raw_string_ostream os(text);
  Operation *def = buffer.getDefiningOp();
  auto arrayAt = [&](Value array) {
    os << " of the array defined at " << describeLocation(array.getLoc());
  };
  if (auto op = dyn_cast_or_null<PositionsOp>(def)) {
    os << "positions of level " << op.getLevel();
    arrayAt(op.getSource());
  } else if (auto op = dyn_cast_or_null<CoordinatesOp>(def)) {
    os << "coordinates of level " << op.getLevel();
    arrayAt(op.getSource());
  } else if (auto op = dyn_cast_or_null<ValuesOp>(def)) {
    os << "values";
    arrayAt(op.getSource());
  } else if (isa_and_nonnull<memref::AllocOp, memref::ReallocOp>(def)) {
    os << "a buffer allocated at " << describeLocation(def->getLoc());
  } else if (auto arg = dyn_cast<BlockArgument>(buffer)) {
    os << "a buffer carried by a loop or passed as argument "
       << arg.getArgNumber();
  } else {
    os << "a buffer defined at " << describeLocation(buffer.getLoc());
  }
  return text;
}

void guard(OpBuilder &b, Operation *access, Value buffer, Value index,
           bool isStore) {
  Location loc = access->getLoc();
  b.setInsertionPoint(access);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value size = memref::DimOp::create(b, loc, buffer, zero);
  Value inside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index, size);
  std::string site = (isStore ? "out-of-bounds write" : "out-of-bounds read");
  site += " in code generated for the operation at " + describeLocation(loc) +
          ", buffer: " + describeBuffer(buffer);
  auto check = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/true);
  OpBuilder eb = check.getElseBodyBuilder();
  Type i64 = eb.getI64Type();
  Value sitePtr = stringPointer(eb, loc, access, site);
  callRuntime(eb, loc, access, "sa_rt_bounds_error", {},
              {sitePtr, arith::IndexCastOp::create(eb, loc, i64, index),
               arith::IndexCastOp::create(eb, loc, i64, size)});
}

/// Checked frees: the array's buffers are kept (quarantined, so that no
/// later array gets their addresses) and its values buffer registered; a
/// second free of the same array stops the program instead of corrupting
/// the heap. What one block shows is rejected by the verifier already; this
/// catches frees through loops, calls and aliases.
/// A freed array's positions are overwritten so that every segment lies
/// past its coordinates (pos[p] = p * (coordinates + 1)): generated code
/// that still reads the array then stops with an out-of-bounds report, and
/// the runtime's consistency checks refuse it, instead of reading stale
/// entries. Arrays assembled from global buffers (constant data) are left
/// alone.
void poisonPositions(OpBuilder &b, Location loc, Value array) {
  if (auto assemble = array.getDefiningOp<AssembleOp>())
    for (Value buffer : assemble.getBuffers()) {
      while (auto cast = buffer.getDefiningOp<memref::CastOp>())
        buffer = cast.getSource();
      if (buffer.getDefiningOp<memref::GetGlobalOp>())
        return;
    }
  auto type = cast<ArrayType>(array.getType());
  FormatAttr format = type.getFormat();
  for (unsigned l = 0; l < format.getNumLevels(); ++l) {
    const LevelFormat *lf = format.getLevels()[l].format;
    if (!lf->hasPositionsBuffer() || !lf->hasCoordinatesBuffer())
      continue;
    auto buffer = [&](unsigned width) {
      return MemRefType::get({ShapedType::kDynamic}, b.getIntegerType(width));
    };
    Value pos = PositionsOp::create(b, loc, buffer(format.getPosWidth()),
                                    array, l);
    Value crd = CoordinatesOp::create(b, loc, buffer(format.getCrdWidth()),
                                      array, l);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value stride = arith::AddIOp::create(
        b, loc, memref::DimOp::create(b, loc, crd, zero), one);
    Value n = memref::DimOp::create(b, loc, pos, zero);
    Type elem = b.getIntegerType(format.getPosWidth());
    scf::ForOp::create(b, loc, zero, n, one, ValueRange(),
                       [&](OpBuilder &fb, Location fl, Value p, ValueRange) {
                         Value v = arith::MulIOp::create(fb, fl, p, stride);
                         memref::StoreOp::create(
                             fb, fl, arith::IndexCastOp::create(fb, fl, elem, v),
                             pos, p);
                         scf::YieldOp::create(fb, fl);
                       });
  }
}

void checkDealloc(OpBuilder &b, DeallocOp dealloc) {
  Location loc = dealloc.getLoc();
  b.setInsertionPoint(dealloc);
  auto type = cast<ArrayType>(dealloc.getSource().getType());
  poisonPositions(b, loc, dealloc.getSource());
  Value values = ValuesOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, type.getElementType()),
      dealloc.getSource());
  Value pointer =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, values);
  std::string site = "sparse_array.dealloc at " + describeLocation(loc);
  callRuntime(b, loc, dealloc, "sa_rt_checked_dealloc", {},
              {stringPointer(b, loc, dealloc, site),
               arith::IndexCastOp::create(b, loc, b.getI64Type(), pointer)});
  dealloc.erase();
}

struct CheckBoundsPass
    : public sparse_array::impl::SparseArrayCheckBoundsPassBase<
          CheckBoundsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> accesses;
    getOperation()->walk([&](Operation *op) {
      if (isa<memref::LoadOp, memref::StoreOp>(op))
        accesses.push_back(op);
    });
    OpBuilder b(&getContext());
    SmallVector<DeallocOp> deallocs;
    getOperation()->walk([&](DeallocOp d) { deallocs.push_back(d); });
    for (DeallocOp d : deallocs)
      checkDealloc(b, d);
    for (Operation *op : accesses) {
      if (auto load = dyn_cast<memref::LoadOp>(op)) {
        if (load.getMemRefType().getRank() == 1)
          guard(b, op, load.getMemRef(), load.getIndices()[0], false);
      } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
        if (store.getMemRefType().getRank() == 1)
          guard(b, op, store.getMemRef(), store.getIndices()[0], true);
      }
    }
  }
};

} // namespace
