//===- ImportTensorPrint.cpp - sparse_tensor.print in upstream's text -----===//
//
// Upstream prints a sparse tensor's storage, not its values:
//
//   ---- Sparse Tensor ----
//   nse = <stored values>
//   dim = ( <dimension sizes> )
//   lvl = ( <level sizes> )
//   pos[l] : ( ... )          levels with positions
//   crd[l] : ( ... )          levels with coordinates
//   values : ( ... )
//   ----
//
// Imported programs print the same text, so that a frontend's CHECK lines
// and tools keep working. Upstream stores a trailing COO region's
// coordinates as one array of structures at the region's first level
// (unless its singletons say `soa`): printed there, interleaved, with no
// line for the later levels. Numbers print as upstream's runner library
// prints them (printScalarAsUpstream); an empty buffer prints "(  )".
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "SparseArray/Conversion/RuntimeCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensorType.h"

#include <string>

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::import;

namespace {

/// Emits the text of one sparse_tensor.print.
class TensorPrinter {
public:
  TensorPrinter(OpBuilder &b, sparse_tensor::PrintOp op)
      : b(b), op(op), loc(op.getLoc()) {}

  void text(StringRef t) {
    callRuntime(b, loc, op, "sa_rt_print_str", {},
                {stringPointer(b, loc, op, t)});
  }

  LogicalResult scalar(OpBuilder &at, Value v) {
    return printScalarAsUpstream(at, loc, op, v);
  }

  /// "( a, b, c )" of index values known at compile time or not.
  LogicalResult sizes(ArrayRef<Value> values) {
    text("( ");
    for (auto [k, v] : llvm::enumerate(values)) {
      if (k)
        text(", ");
      if (failed(scalar(b, v)))
        return failure();
    }
    text(" )\n");
    return success();
  }

  /// "label( e0, e1, ... )": element k * n + c is buffers[c][k], n the
  /// number of buffers (of the same length).
  LogicalResult list(StringRef label, ArrayRef<Value> buffers) {
    text(label);
    text("( ");
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value n = memref::DimOp::create(b, loc, buffers.front(), 0);
    LogicalResult result = success();
    scf::ForOp::create(
        b, loc, zero, n, one, ValueRange{},
        [&](OpBuilder &fb, Location l, Value k, ValueRange) {
          // A separator before every element but the very first.
          Value later = arith::CmpIOp::create(fb, l, arith::CmpIPredicate::ne,
                                              k, zero);
          auto sep = scf::IfOp::create(fb, l, later, /*withElse=*/false);
          {
            OpBuilder::InsertionGuard g(fb);
            fb.setInsertionPointToStart(sep.thenBlock());
            callRuntime(fb, l, op, "sa_rt_print_str", {},
                        {stringPointer(fb, l, op, ", ")});
          }
          for (auto [c, buffer] : llvm::enumerate(buffers)) {
            if (c)
              callRuntime(fb, l, op, "sa_rt_print_str", {},
                          {stringPointer(fb, l, op, ", ")});
            Value v = memref::LoadOp::create(fb, l, buffer, k);
            if (failed(scalar(fb, v)))
              result = failure();
          }
          scf::YieldOp::create(fb, l);
        });
    text(" )\n");
    return result;
  }

private:
  OpBuilder &b;
  sparse_tensor::PrintOp op;
  Location loc;
};

} // namespace

LogicalResult mlir::sparse_array::import::importSparseTensorPrint(
    OpBuilder &b, sparse_tensor::PrintOp op, Value array,
    RankedTensorType sourceType) {
  Location loc = op.getLoc();
  auto type = cast<ArrayType>(array.getType());
  FormatAttr format = type.getFormat();
  unsigned rank = type.getRank();
  TensorPrinter print(b, op);
  print.text("---- Sparse Tensor ----\nnse = ");
  Value values = ValuesOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, type.getElementType()),
      array);
  if (failed(print.scalar(b, memref::DimOp::create(b, loc, values, 0))))
    return failure();
  print.text("\ndim = ");
  SmallVector<Value> dims, lvls;
  for (unsigned d = 0; d < rank; ++d)
    dims.push_back(DimOp::create(b, loc, array, static_cast<int64_t>(d)));
  // The levels' extents: those of the array of its levels (a blocked
  // dimension's blocks and block size, upstream's lvl sizes).
  Value levels = DemapOp::create(b, loc, DemapOp::getDemappedType(type), array);
  for (unsigned l = 0; l < format.getNumLevels(); ++l)
    lvls.push_back(DimOp::create(b, loc, levels, static_cast<int64_t>(l)));
  if (failed(print.sizes(dims)))
    return failure();
  print.text("lvl = ");
  if (failed(print.sizes(lvls)))
    return failure();
  for (const UpstreamLevelBuffers &g :
       upstreamLevelBuffers(b, loc, array, sourceType)) {
    if (failed(print.list((g.positions ? "pos[" : "crd[") +
                              std::to_string(g.level) + "] : ",
                          g.buffers)))
      return failure();
  }
  if (failed(print.list("values : ", {values})))
    return failure();
  print.text("----\n");
  return success();
}
