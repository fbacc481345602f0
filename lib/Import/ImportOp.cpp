//===- ImportOp.cpp - Importing one op ------------------------------------===//
//
// ModuleImporter::importOp (ModuleImporter.h): the translation of each op
// on tensors (calls, returns, linalg.generic, sparse_tensor and tensor ops)
// into its sparse_array equivalent, or an error naming what has none.
//
//===----------------------------------------------------------------------===//

#include "ModuleImporter.h"

#include "SparseArray/Conversion/RuntimeCalls.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::import;

LogicalResult ModuleImporter::importOp(Operation *op, OpBuilder &b,
                                       bool &handled) {
  handled = true;
  Location loc = op->getLoc();
  auto mapResult = [&](Value from, Value to) { arrays[from] = to; };

  if (auto ret = dyn_cast<func::ReturnOp>(op)) {
    FailureOr<SmallVector<Value>> operands =
        importOperands(ret.getOperands(), op, OtherOperands::Keep);
    if (failed(operands))
      return failure();
    func::ReturnOp::create(b, loc, *operands);
    return success();
  }
  if (auto call = dyn_cast<func::CallOp>(op)) {
    auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
    if (!callee)
      return call.emitOpError("cannot be imported: unknown callee");
    FailureOr<SmallVector<Value>> operands =
        importOperands(call.getOperands(), op, OtherOperands::Keep);
    if (failed(operands))
      return failure();
    if (callee.isExternal())
      // Tensors passed to a function defined elsewhere: buffers.
      for (auto [k, v] : llvm::enumerate(*operands)) {
        Type want = callee.getArgumentTypes()[k];
        if (!isa<ArrayType>(v.getType()))
          continue;
        FailureOr<Value> m = denseMemRefOf(b, loc, op, v, want);
        if (failed(m))
          return failure();
        v = *m;
      }
    auto next = func::CallOp::create(b, loc, callee, *operands);
    for (auto [from, to] : llvm::zip(call.getResults(), next.getResults())) {
      if (isTensor(from.getType()))
        mapResult(from, to);
      else
        from.replaceAllUsesWith(to);
    }
    return success();
  }
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    if (!isTensor(c.getType())) {
      handled = false;
      return success();
    }
    // Read by sparse_tensor.assemble only (index levels included): it
    // takes the elements itself.
    if (!c->use_empty() && llvm::all_of(c->getUsers(), [](Operation *u) {
          return isa<sparse_tensor::AssembleOp>(u);
        }))
      return success();
    FailureOr<ArrayType> type = convert(loc, c.getType());
    auto value = dyn_cast<ElementsAttr>(c.getValue());
    if (failed(type))
      return failure();
    if (!value)
      return c.emitOpError("cannot be imported: not an elements constant");
    if (getElementTypeOrSelf(c.getType()).isIndex()) {
      // Index elements are held as i64 (convertTensorType).
      auto dense = dyn_cast<DenseIntElementsAttr>(c.getValue());
      if (!dense)
        return c.emitOpError("cannot be imported: a sparse constant of "
                             "index elements");
      value = dense.mapValues(b.getI64Type(),
                              [](const APInt &v) { return v.sextOrTrunc(64); });
    }
    mapResult(c, ConstantOp::create(b, loc, *type, value));
    return success();
  }
  if (isa<tensor::EmptyOp>(op)) {
    undefined.insert(op->getResult(0));
    return success();
  }
  if (auto alloc = dyn_cast<bufferization::AllocTensorOp>(op)) {
    if (alloc.getCopy()) {
      FailureOr<Value> a = arrayOf(alloc.getCopy(), op);
      if (failed(a))
        return failure();
      mapResult(alloc.getResult(), *a);
    } else {
      undefined.insert(alloc.getResult());
    }
    return success();
  }
  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    Value scalar = fill.getInputs()[0];
    if (fill->getNumResults() != 1)
      return fill.emitOpError("cannot be imported: a fill of a buffer");
    if (auto cst = scalar.getDefiningOp<arith::ConstantOp>()) {
      filled[fill->getResult(0)] = cast<TypedAttr>(cst.getValue());
      return success();
    }
    // A value known only at run time: the array, filled in a loop.
    FailureOr<ArrayType> type = convert(loc, fill->getResult(0).getType());
    FailureOr<Value> a =
        failed(type) ? FailureOr<Value>(failure())
                     : importFill(b, fill, *type, scalar,
                                  [&](Value v) { return arrayOf(v, op); });
    if (failed(a))
      return failure();
    mapResult(fill->getResult(0), *a);
    return success();
  }
  if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
    if (llvm::any_of(generic->getOperandTypes(),
                     [](Type t) { return isa<MemRefType>(t); }))
      return generic.emitOpError("cannot be imported: it works on buffers");
    if (llvm::any_of(generic->getOperandTypes(), [](Type t) {
          return isa<TensorType>(t) && getElementTypeOrSelf(t).isIndex();
        }))
      return generic.emitOpError("cannot be imported: a tensor of index "
                                 "elements as operand");
    // Scalar inputs are null: the region reads their (constant) values.
    FailureOr<SmallVector<Value>> inputs =
        importOperands(generic.getDpsInputs(), op, OtherOperands::Null);
    if (failed(inputs))
      return failure();
    if (generic->getNumResults() != 1)
      return generic.emitOpError("cannot be imported: ")
             << generic->getNumResults() << " results (one is supported)";
    FailureOr<ArrayType> type =
        convert(loc, generic->getResult(0).getType());
    if (failed(type))
      return failure();
    Value out = generic.getDpsInits()[0];
    OutputInit init = initOf(out);
    if (init.kind == OutputInit::Kind::Array && !init.array)
      return generic.emitOpError("cannot be imported: its output has no "
                                 "imported value");
    FailureOr<Value> kernel =
        importGeneric(b, generic, *inputs, init, *type, functions);
    if (failed(kernel))
      return failure();
    mapResult(generic->getResult(0), *kernel);
    return success();
  }
  // (The op first: getResult(0) of an op without results reads outside it.)
  if (isa<tensor::CastOp>(op) &&
      isa<UnrankedTensorType>(op->getResult(0).getType())) {
    // Rank erased for a call of a function defined elsewhere: the same
    // array (the call passes it as a buffer).
    FailureOr<Value> src = arrayOf(op->getOperand(0), op);
    if (failed(src))
      return failure();
    mapResult(op->getResult(0), *src);
    return success();
  }
  if (isa<sparse_tensor::ToValuesOp, sparse_tensor::ToPositionsOp,
          sparse_tensor::ToCoordinatesOp>(op)) {
    FailureOr<Value> src = arrayOf(op->getOperand(0), op);
    if (failed(src))
      return failure();
    FailureOr<Value> buffer =
        importStorageBuffer(b, op, *src, tensorTypeOf(op->getOperand(0)));
    if (failed(buffer))
      return failure();
    op->getResult(0).replaceAllUsesWith(*buffer);
    return success();
  }
  if (isa<sparse_tensor::ConvertOp, tensor::CastOp>(op)) {
    // A format change, or (tensor.cast) sizes made static or dynamic: a
    // conversion, which checks sizes made static at run time.
    FailureOr<Value> src = arrayOf(op->getOperand(0), op);
    FailureOr<ArrayType> type = convert(loc, op->getResult(0).getType());
    if (failed(src) || failed(type))
      return failure();
    Value from = *src;
    Type fromElem = cast<ArrayType>(from.getType()).getElementType();
    Type toElem = type->getElementType();
    if (fromElem != toElem) {
      // The element type changes: each entry converted (in the source's
      // format), then the format changed. Zero converts to zero, so the
      // fill stays 0.
      if (!fromElem.isIntOrFloat() || !toElem.isIntOrFloat())
        return op->emitOpError("cannot be imported: converting ")
               << fromElem << " elements to " << toElem;
      auto srcType = cast<ArrayType>(from.getType());
      FormatAttr f = srcType.getFormat().withFill(b.getZeroAttr(toElem));
      auto mapped = ArrayType::get(srcType.getShape(), toElem, f);
      FuncOp fn = functions.getForCast(loc, fromElem, toElem);
      from = MapOp::create(b, loc, mapped,
                           FlatSymbolRefAttr::get(fn.getSymNameAttr()),
                           ValueRange{from}, nullptr, nullptr);
    }
    if (from.getType() == *type)
      mapResult(op->getResult(0), from);
    else
      mapResult(op->getResult(0), ConvertOp::create(b, loc, *type, from));
    return success();
  }
  if (auto read = dyn_cast<sparse_tensor::NewOp>(op)) {
    // Upstream programs name their inputs getTensorFilename(i) (the
    // runner's TENSOR<i> variables): here the i-th program input.
    auto call = read.getSource().getDefiningOp<func::CallOp>();
    FailureOr<ArrayType> type = convert(loc, read.getType());
    if (failed(type))
      return failure();
    if (call && call.getCallee() == "getTensorFilename" &&
        call.getNumOperands() == 1) {
      mapResult(read, ReadOp::create(b, loc, *type, call.getOperand(0),
                                     Value(), nullptr,
                                     b.getStringAttr("auto")));
      filenameCalls.insert(call);
      return success();
    }
    // A file name computed elsewhere (passed in as an argument): the
    // string it points to, at run time.
    if (!isa<LLVM::LLVMPointerType>(read.getSource().getType()))
      return read.emitOpError("cannot be imported: a file name of type ")
             << read.getSource().getType();
    mapResult(read, ReadOp::create(b, loc, *type, Value(), read.getSource(),
                                   nullptr, b.getStringAttr("auto")));
    return success();
  }
  if (auto assemble = dyn_cast<sparse_tensor::AssembleOp>(op)) {
    FailureOr<ArrayType> type = convert(loc, assemble.getType());
    if (failed(type))
      return failure();
    FailureOr<Value> array = importAssemble(
        b, assemble, *type, [&](Value t) { return arrayOf(t, op); });
    if (failed(array))
      return failure();
    mapResult(assemble, *array);
    return success();
  }
  if (auto dis = dyn_cast<sparse_tensor::DisassembleOp>(op)) {
    FailureOr<Value> src = arrayOf(dis.getTensor(), op);
    if (failed(src))
      return failure();
    Value source = dis.getTensor();
    RankedTensorType sourceType = tensorTypeOf(source);
    FailureOr<SmallVector<Value>> results = importDisassemble(
        b, dis, *src, sourceType, [&](Type t) { return convert(loc, t); },
        [&](Value t) -> FailureOr<Value> {
          if (undefined.contains(t))
            return Value();
          return arrayOf(t, op);
        });
    if (failed(results))
      return failure();
    for (auto [from, to] : llvm::zip(dis->getResults(), *results)) {
      if (isTensor(from.getType()))
        mapResult(from, to);
      else
        from.replaceAllUsesWith(to);
    }
    return success();
  }
  if (auto foreach = dyn_cast<sparse_tensor::ForeachOp>(op)) {
    // Loops over the stored entries; the cloned body imported in place.
    FailureOr<Value> src = arrayOf(foreach.getTensor(), op);
    if (failed(src))
      return failure();
    FailureOr<ImportedForeach> loops = importForeach(b, foreach, *src);
    if (failed(loops) || failed(importOps(loops->outermost, true)))
      return failure();
    for (auto [from, to] : llvm::zip(foreach->getResults(), loops->results)) {
      if (isTensor(from.getType()))
        mapResult(from, to);
      else
        from.replaceAllUsesWith(to);
    }
    return success();
  }
  if (isa<sparse_tensor::HasRuntimeLibraryOp>(op)) {
    // Arrays live in runtime-managed storage: deallocations are needed.
    op->getResult(0).replaceAllUsesWith(
        arith::ConstantIntOp::create(b, loc, 1, 1).getResult());
    return success();
  }
  if (auto count = dyn_cast<sparse_tensor::NumberOfEntriesOp>(op)) {
    // The stored entries: the length of the values buffer.
    FailureOr<Value> src = arrayOf(count.getTensor(), op);
    if (failed(src))
      return failure();
    auto type = cast<ArrayType>(src->getType());
    Value values = ValuesOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, type.getElementType()),
        *src);
    Value n = memref::DimOp::create(b, loc, values, 0);
    count.getResult().replaceAllUsesWith(n);
    return success();
  }
  if (auto print = dyn_cast<sparse_tensor::PrintOp>(op)) {
    // Upstream's text of the storage (ImportTensorPrint.cpp).
    FailureOr<Value> src = arrayOf(print.getTensor(), op);
    if (failed(src))
      return failure();
    if (exactPrint) {
      PrintOp::create(b, loc, *src);
      return success();
    }
    Value source = print.getTensor();
    RankedTensorType sourceType = tensorTypeOf(source);
    return importSparseTensorPrint(b, print, *src, sourceType);
  }
  if (auto dealloc = dyn_cast<bufferization::DeallocTensorOp>(op)) {
    // A tensor.empty never made into an array holds nothing to free.
    if (undefined.contains(dealloc.getTensor()) &&
        !arrays.contains(dealloc.getTensor()))
      return success();
    FailureOr<Value> src = arrayOf(dealloc.getTensor(), op);
    if (failed(src))
      return failure();
    // Constants are global data; an alias freed already stays freed.
    if (!src->getDefiningOp<ConstantOp>() && freed.insert(*src).second)
      DeallocOp::create(b, loc, *src);
    return success();
  }
  if (isImportedShapeOp(op)) {
    FailureOr<SmallVector<Value>> sources =
        importOperands(op->getOperands(), op, OtherOperands::Drop);
    if (failed(sources))
      return failure();
    FailureOr<ArrayType> type = convert(loc, op->getResult(0).getType());
    if (failed(type))
      return failure();
    FailureOr<Value> result = importShapeOp(b, op, *sources, *type, functions);
    if (failed(result))
      return failure();
    mapResult(op->getResult(0), *result);
    return success();
  }
  if (auto extract = dyn_cast<tensor::ExtractOp>(op)) {
    // One element: the dense program's value, stored or the fill.
    FailureOr<Value> src = arrayOf(extract.getTensor(), op);
    if (failed(src))
      return failure();
    Value v = ExtractOp::create(b, loc, *src, extract.getIndices());
    if (extract.getType().isIndex()) // held as i64 (convertTensorType)
      v = arith::IndexCastOp::create(b, loc, extract.getType(), v);
    extract.getResult().replaceAllUsesWith(v);
    return success();
  }
  if (isa<vector::PrintOp>(op))
    return importVectorPrint(b, op, exactPrint);
  if (auto read = dyn_cast<vector::TransferReadOp>(op)) {
    if (!wasTensor(read.getBase())) {
      handled = false;
      return success();
    }
    FailureOr<Value> src = arrayOf(read.getBase(), op);
    if (failed(src))
      return failure();
    FailureOr<Value> v = importTransferRead(b, op, *src);
    if (failed(v))
      return failure();
    read.getResult().replaceAllUsesWith(*v);
    return success();
  }
  if (auto dim = dyn_cast<tensor::DimOp>(op)) {
    std::optional<int64_t> index = dim.getConstantIndex();
    if (!index)
      return dim.emitOpError("cannot be imported: the dimension must be a "
                             "constant");
    FailureOr<Value> src = arrayOf(dim.getSource(), op);
    if (failed(src))
      return failure();
    Value d = DimOp::create(b, loc, *src, b.getI64IntegerAttr(*index));
    dim.getResult().replaceAllUsesWith(d);
    return success();
  }
  handled = false;
  return success();
}
