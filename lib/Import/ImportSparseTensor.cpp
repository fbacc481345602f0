//===- ImportSparseTensor.cpp - sparse-array-import-sparse-tensor ---------===//
//
// Issue 19: sparse_array as the backend of frontends that emit linalg on
// sparse_tensor-encoded tensors. Named linalg ops are generalized first;
// then each function is rewritten op by op in program order, tensor values
// mapped to array values (ModuleImporter). Anything on tensors that has no
// exact translation is an error naming it.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "SparseArray/Conversion/Pipeline.h"
#include "SparseArray/Conversion/RuntimeCalls.h"
#include "SparseArray/Import/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace sparse_array {
#define GEN_PASS_DEF_SPARSEARRAYIMPORTSPARSETENSORPASS
#include "SparseArray/Import/Passes.h.inc"
} // namespace sparse_array
} // namespace mlir

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::import;

namespace {

/// Named linalg ops as linalg.generic (linalg.fill stays: its constant is
/// an output's initial value, see OutputInit).
LogicalResult generalizeNamedOps(ModuleOp module) {
  SmallVector<linalg::LinalgOp> named;
  module.walk([&](linalg::LinalgOp op) {
    if (!isa<linalg::GenericOp, linalg::FillOp>(op))
      named.push_back(op);
  });
  IRRewriter rewriter(module.getContext());
  for (linalg::LinalgOp op : named) {
    rewriter.setInsertionPoint(op);
    if (failed(linalg::generalizeNamedOp(rewriter, op)))
      return op->emitOpError("cannot be imported: it has no linalg.generic "
                             "form");
  }
  return success();
}

bool isTensor(Type t) { return isa<TensorType>(t); }

/// Tensor-valued before the import (function arguments are retyped in
/// place first).
bool wasTensor(Value v) {
  return isa<TensorType, ArrayType>(v.getType());
}

/// Rewrites one module's functions.
class ModuleImporter {
public:
  ModuleImporter(ModuleOp module, bool exactPrint)
      : module(module), functions(module), exactPrint(exactPrint) {}

  LogicalResult run() {
    if (failed(generalizeNamedOps(module)) ||
        failed(import::unrollWindows(module)))
      return failure();
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp func : funcs)
      if (failed(convertSignature(func)))
        return failure();
    for (func::FuncOp func : funcs)
      if (!func.isExternal() && failed(importBody(func)))
        return failure();
    return success();
  }

private:
  LogicalResult convertSignature(func::FuncOp func);
  LogicalResult importBody(func::FuncOp func);
  /// Imports the ops under `root` (and `root` itself when `includeRoot`),
  /// outer ones first; the ops replaced are added to `replaced`.
  LogicalResult importOps(Operation *root, bool includeRoot);
  /// Rewrites `op` (builder before it); sets `handled` when it did.
  LogicalResult importOp(Operation *op, OpBuilder &b, bool &handled);
  /// scf.for/while/if carrying tensors: operands, region arguments and
  /// results retyped to arrays in place (their bodies are imported next);
  /// sets `retyped` when `op` is one.
  LogicalResult retypeControlFlow(Operation *op, bool &retyped);
  /// The array of tensor value `v` as an operand of `user`.
  FailureOr<Value> arrayOf(Value v, Operation *user);
  /// `v` (a tensor of static shape) as a constant array of `value` (zero
  /// when null), made once where `v` is defined.
  FailureOr<Value> materializeSplat(Value v, TypedAttr value);
  /// What importOperands does with operands that are not tensors.
  enum class OtherOperands { Keep, Null, Drop };
  /// The arrays of `values`' tensors, in order, with the others kept,
  /// replaced by null or dropped.
  FailureOr<SmallVector<Value>> importOperands(ValueRange values,
                                               Operation *user,
                                               OtherOperands others);
  FailureOr<ArrayType> convert(Location loc, Type type) {
    return convertTensorType(loc, type);
  }
  OutputInit initOf(Value v);
  /// The tensor type `v` had before it was retyped to an array.
  RankedTensorType tensorTypeOf(Value v) {
    Type t = tensorTypes.lookup(v);
    return cast<RankedTensorType>(t ? t : v.getType());
  }

  ModuleOp module;
  FunctionTable functions;
  /// Print sparse_array's exact text instead of upstream's.
  bool exactPrint;
  /// Tensor value -> array value.
  DenseMap<Value, Value> arrays;
  /// The tensor types of function arguments retyped to arrays (storage
  /// details arrays do not keep: a COO region's array of structures).
  DenseMap<Value, Type> tensorTypes;
  /// Tensors that are a linalg.fill of a constant (materialized on demand).
  DenseMap<Value, TypedAttr> filled;
  /// Tensors without defined values (tensor.empty, alloc_tensor).
  DenseSet<Value> undefined;
  /// Arrays freed already (a dealloc of an alias must not free twice).
  DenseSet<Value> freed;
  /// Ops rewritten, erased (last first) once their function is imported.
  SmallVector<Operation *> replaced;
  /// getTensorFilename calls sparse_tensor.new read (erased once unused: the
  /// runner library that defines it is not needed).
  SetVector<Operation *> filenameCalls;
};

LogicalResult ModuleImporter::convertSignature(func::FuncOp func) {
  FunctionType type = func.getFunctionType();
  if (func.isExternal()) {
    // A function defined elsewhere (the runner library's printMemref*)
    // takes buffers: what bufferization would pass it.
    SmallVector<Type> ins;
    for (Type t : type.getInputs()) {
      if (auto ranked = dyn_cast<RankedTensorType>(t)) {
        if (ranked.getEncoding())
          return func.emitOpError("cannot be imported: an external function "
                                  "taking a sparse tensor");
        t = MemRefType::get(ranked.getShape(), ranked.getElementType());
      } else if (auto unranked = dyn_cast<UnrankedTensorType>(t)) {
        t = UnrankedMemRefType::get(unranked.getElementType(), 0);
      }
      ins.push_back(t);
    }
    if (llvm::any_of(type.getResults(), isTensor))
      return func.emitOpError("cannot be imported: an external function "
                              "returning a tensor");
    func.setFunctionType(
        FunctionType::get(func.getContext(), ins, type.getResults()));
    return success();
  }
  // Tensor types become array types; the others stay.
  auto convertAll = [&](TypeRange types,
                        SmallVector<Type> &into) -> LogicalResult {
    for (Type t : types) {
      if (!isTensor(t)) {
        into.push_back(t);
        continue;
      }
      FailureOr<ArrayType> a = convert(func.getLoc(), t);
      if (failed(a))
        return failure();
      into.push_back(*a);
    }
    return success();
  };
  SmallVector<Type> ins, outs;
  if (failed(convertAll(type.getInputs(), ins)) ||
      failed(convertAll(type.getResults(), outs)))
    return failure();
  func.setFunctionType(FunctionType::get(func.getContext(), ins, outs));
  if (!func.isExternal())
    for (auto [arg, t] : llvm::zip(func.getArguments(), ins)) {
      if (isTensor(arg.getType())) {
        arrays[arg] = arg;
        tensorTypes[arg] = arg.getType();
      }
      arg.setType(t);
    }
  return success();
}

OutputInit ModuleImporter::initOf(Value v) {
  OutputInit init;
  if (undefined.contains(v))
    return init;
  if (TypedAttr c = filled.lookup(v)) {
    init.kind = OutputInit::Kind::Constant;
    init.constant = c;
    return init;
  }
  // A splat constant (`arith.constant dense<0.0>`, how many programs make
  // an output) starts every entry from the same value, as a fill does.
  if (auto c = v.getDefiningOp<arith::ConstantOp>())
    if (auto splat = dyn_cast<SplatElementsAttr>(c.getValue())) {
      init.kind = OutputInit::Kind::Constant;
      init.constant = splat.getSplatValue<TypedAttr>();
      return init;
    }
  init.kind = OutputInit::Kind::Array;
  init.array = arrays.lookup(v);
  return init;
}

FailureOr<Value> ModuleImporter::materializeSplat(Value v, TypedAttr value) {
  auto tensor = cast<RankedTensorType>(v.getType());
  FailureOr<ArrayType> type = convert(v.getLoc(), tensor);
  if (failed(type))
    return failure();
  OpBuilder b(v.getDefiningOp());
  // A fill's constant has the tensor's element type; zeros the array's.
  Type elem = value ? tensor.getElementType() : type->getElementType();
  auto splat = DenseElementsAttr::get(
      RankedTensorType::get(tensor.getShape(), elem),
      value ? Attribute(value) : Attribute(b.getZeroAttr(elem)));
  Value a = ConstantOp::create(b, v.getLoc(), *type, splat);
  arrays[v] = a;
  return a;
}

FailureOr<Value> ModuleImporter::arrayOf(Value v, Operation *user) {
  if (Value a = arrays.lookup(v))
    return a;
  if (undefined.contains(v)) {
    // A tensor.empty handed on as a value (to a function that writes it as
    // an output): its contents are undefined upstream; here zeros, made
    // once, where it was.
    auto tensor = cast<RankedTensorType>(v.getType());
    // A sparse tensor.empty (or one entries are inserted into) is empty,
    // as upstream's sparse tensor.empty is.
    if (!tensor.hasStaticShape() ||
        !(tensor.getEncoding() || isa<func::CallOp, tensor::InsertOp>(user)))
      return user->emitOpError("cannot be imported: it reads a tensor that "
                               "was never initialized");
    return materializeSplat(v, TypedAttr());
  }
  if (TypedAttr c = filled.lookup(v)) {
    // A constant tensor used as a value: materialize it once, where the
    // fill was.
    if (cast<RankedTensorType>(v.getType()).hasStaticShape())
      return materializeSplat(v, c);
    // Of a shape known only at run time: filled in a loop where it was.
    auto fill = cast<linalg::FillOp>(v.getDefiningOp());
    OpBuilder b(fill);
    FailureOr<ArrayType> type = convert(v.getLoc(), v.getType());
    FailureOr<Value> a = failed(type) ? FailureOr<Value>(failure()) : importFill(
        b, fill, *type, fill.getInputs()[0],
        [&](Value w) { return arrayOf(w, fill); });
    if (succeeded(a))
      arrays[v] = *a;
    return a;
  }
  return user->emitOpError("cannot be imported: operand of type ")
         << v.getType() << " has no imported value";
}

FailureOr<SmallVector<Value>>
ModuleImporter::importOperands(ValueRange values, Operation *user,
                               OtherOperands others) {
  SmallVector<Value> result;
  for (Value v : values) {
    if (!wasTensor(v)) {
      if (others == OtherOperands::Keep)
        result.push_back(v);
      else if (others == OtherOperands::Null)
        result.push_back(Value());
      continue;
    }
    FailureOr<Value> a = arrayOf(v, user);
    if (failed(a))
      return failure();
    result.push_back(*a);
  }
  return result;
}

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

LogicalResult ModuleImporter::retypeControlFlow(Operation *op,
                                                bool &retyped) {
  retyped = false;
  if (!isa<scf::ForOp, scf::WhileOp, scf::IfOp, scf::YieldOp,
           scf::ConditionOp>(op))
    return success();
  auto carriesTensor = [](Value v) { return isTensor(v.getType()); };
  bool any = llvm::any_of(op->getOperands(), carriesTensor) ||
             llvm::any_of(op->getResults(), carriesTensor);
  for (Region &r : op->getRegions())
    for (Block &block : r)
      any |= llvm::any_of(block.getArguments(), carriesTensor);
  if (!any)
    return success();
  retyped = true;
  // Operands: the arrays of the tensors (initial values, yielded values).
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isTensor(operand.get().getType()))
      continue;
    FailureOr<Value> a = arrayOf(operand.get(), op);
    if (failed(a))
      return failure();
    operand.set(*a);
  }
  // Region arguments and results: the arrays of their tensor types.
  auto retype = [&](Value v) -> LogicalResult {
    if (!isTensor(v.getType()))
      return success();
    FailureOr<ArrayType> t = convert(op->getLoc(), v.getType());
    if (failed(t))
      return failure();
    v.setType(*t);
    arrays[v] = v;
    return success();
  };
  for (Region &r : op->getRegions())
    for (Block &block : r)
      for (BlockArgument arg : block.getArguments())
        if (failed(retype(arg)))
          return failure();
  for (Value result : op->getResults())
    if (failed(retype(result)))
      return failure();
  return success();
}

LogicalResult ModuleImporter::importOps(Operation *root, bool includeRoot) {
  WalkResult walk = root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == root && !includeRoot)
      return WalkResult::advance();
    bool retyped = false;
    if (failed(retypeControlFlow(op, retyped)))
      return WalkResult::interrupt();
    if (retyped)
      return WalkResult::advance();
    OpBuilder b(op);
    bool handled = false;
    if (failed(importOp(op, b, handled)))
      return WalkResult::interrupt();
    if (handled) {
      replaced.push_back(op);
      return WalkResult::skip();
    }
    Dialect *d = op->getDialect();
    StringRef ns = d ? d->getNamespace() : StringRef();
    bool onTensors =
        llvm::any_of(op->getOperandTypes(), isTensor) ||
        llvm::any_of(op->getResultTypes(), isTensor) ||
        ns == "linalg" || ns == "tensor" || ns == "sparse_tensor" ||
        ns == "bufferization";
    if (onTensors) {
      op->emitOpError("cannot be imported: '")
          << op->getName() << "' has no sparse_array translation";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult ModuleImporter::importBody(func::FuncOp func) {
  replaced.clear();
  if (failed(importOps(func, /*includeRoot=*/false)))
    return failure();
  for (Operation *op : llvm::reverse(replaced)) {
    op->dropAllUses();
    op->erase();
  }
  for (Operation *call : filenameCalls)
    if (call->use_empty())
      call->erase();
  // getTensorFilename(i) whose string is used otherwise (passed to a
  // function that reads it): the runtime's program input i, which is the
  // runner's TENSOR<i> without command-line inputs.
  SmallVector<func::CallOp> named;
  func.walk([&](func::CallOp call) {
    if (call.getCallee() == "getTensorFilename" && call.getNumOperands() == 1 &&
        call.getNumResults() == 1)
      named.push_back(call);
  });
  for (func::CallOp call : named) {
    OpBuilder b(call);
    Value k = call.getOperand(0);
    if (k.getType().isIndex())
      k = arith::IndexCastOp::create(b, call.getLoc(), b.getI64Type(), k);
    Value path = callRuntime(b, call.getLoc(), call, "sa_rt_input_path",
                             {call.getResult(0).getType()}, {k});
    call.getResult(0).replaceAllUsesWith(path);
    call.erase();
  }
  filenameCalls.clear();
  return success();
}

struct ImportSparseTensorPass
    : public sparse_array::impl::SparseArrayImportSparseTensorPassBase<
          ImportSparseTensorPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(importSparseTensorProgram(getOperation(), exactPrint)))
      signalPassFailure();
  }
};

} // namespace

LogicalResult mlir::sparse_array::importSparseTensorProgram(ModuleOp module,
                                                           bool exactPrint) {
  return ModuleImporter(module, exactPrint).run();
}

void mlir::sparse_array::registerImportedDialects(DialectRegistry &registry) {
  registry.insert<bufferization::BufferizationDialect, linalg::LinalgDialect,
                  sparse_tensor::SparseTensorDialect, tensor::TensorDialect,
                  vector::VectorDialect>();
}

bool mlir::sparse_array::needsSparseTensorImport(ModuleOp module) {
  WalkResult found = module.walk([](Operation *op) {
    Dialect *d = op->getDialect();
    StringRef ns = d ? d->getNamespace() : StringRef();
    if (ns == "linalg" || ns == "tensor" || ns == "sparse_tensor" ||
        ns == "bufferization" || ns == "vector")
      return WalkResult::interrupt();
    if (llvm::any_of(op->getOperandTypes(), isTensor) ||
        llvm::any_of(op->getResultTypes(), isTensor))
      return WalkResult::interrupt();
    if (auto f = dyn_cast<func::FuncOp>(op))
      if (llvm::any_of(f.getFunctionType().getInputs(), isTensor) ||
          llvm::any_of(f.getFunctionType().getResults(), isTensor))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

void mlir::sparse_array::registerSparseArrayImportPipeline() {
  PassPipelineRegistration<SparseArrayPipelineOptions>(
      "sparse-array-from-sparse-tensor-pipeline",
      "Import linalg on sparse_tensor-encoded tensors, then "
      "sparse-array-pipeline down to the LLVM dialect",
      [](OpPassManager &pm, const SparseArrayPipelineOptions &options) {
        pm.addPass(createSparseArrayImportSparseTensorPass());
        buildSparseArrayPipeline(pm, options);
      });
}
