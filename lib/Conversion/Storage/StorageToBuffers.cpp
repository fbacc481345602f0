//===- StorageToBuffers.cpp - Arrays to buffers, I/O to the runtime -------===//
//
// Seed 002 §3.1: an array is its level buffers plus values. The lowered form
// of an array value is the list of getLoweredArrayTypes(); crossing into the
// runtime, the buffers are lent to (or taken from) an sa_rt_array handle, so
// the runtime's packing, reading and printing see the same layout.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Conversion/Passes.h"
#include "SparseArray/Conversion/RuntimeCalls.h"
#include "SparseArray/Dialect/SparseArray.h"
#include "SparseArray/Dialect/Storage.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace mlir::sparse_array;

//===----------------------------------------------------------------------===//
// Type conversion
//===----------------------------------------------------------------------===//

ArrayStorageTypeConverter::ArrayStorageTypeConverter() {
  addConversion([](Type type) { return type; });
  addConversion([](ArrayType type, SmallVectorImpl<Type> &results)
                    -> std::optional<LogicalResult> {
    getLoweredArrayTypes(type, results);
    return success();
  });
  // Values crossing between converted and not-yet-converted IR (an
  // unlowered kernel) are bridged by casts; sparse-array-reject-unlowered
  // then names the unlowered op.
  addSourceMaterialization([](OpBuilder &builder, Type type, ValueRange inputs,
                              Location loc) -> Value {
    return UnrealizedConversionCastOp::create(builder, loc, type, inputs)
        .getResult(0);
  });
  addTargetMaterialization([](OpBuilder &builder, TypeRange types,
                              ValueRange inputs,
                              Location loc) -> SmallVector<Value> {
    return UnrealizedConversionCastOp::create(builder, loc, types, inputs)
        .getResults();
  });
}

//===----------------------------------------------------------------------===//
// Runtime calls
//===----------------------------------------------------------------------===//

func::FuncOp mlir::sparse_array::getRuntimeFunc(OpBuilder &builder,
                                               Operation *anchor,
                                               StringRef name,
                                               TypeRange results,
                                               TypeRange args,
                                               bool cInterface) {
  auto module = anchor->getParentOfType<ModuleOp>();
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  auto func = func::FuncOp::create(
      builder, module.getLoc(), name,
      FunctionType::get(builder.getContext(), args, results));
  func.setPrivate();
  if (cInterface)
    func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                  builder.getUnitAttr());
  return func;
}

Value mlir::sparse_array::callRuntime(OpBuilder &builder, Location loc,
                                     Operation *anchor, StringRef name,
                                     TypeRange results, ValueRange args,
                                     bool cInterface) {
  func::FuncOp func = getRuntimeFunc(builder, anchor, name, results,
                                     TypeRange(args), cInterface);
  auto call = func::CallOp::create(builder, loc, func, args);
  return results.empty() ? Value() : call.getResult(0);
}

Value mlir::sparse_array::stringPointer(OpBuilder &builder, Location loc,
                                        Operation *anchor, StringRef text) {
  auto module = anchor->getParentOfType<ModuleOp>();
  std::string name = "__sa_str_" + llvm::utohexstr(llvm::xxh3_64bits(text));
  auto global = module.lookupSymbol<LLVM::GlobalOp>(name);
  if (!global) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    auto type = LLVM::LLVMArrayType::get(
        IntegerType::get(builder.getContext(), 8), text.size() + 1);
    global = LLVM::GlobalOp::create(builder, loc, type, /*isConstant=*/true,
                                    LLVM::Linkage::Internal, name,
                                    builder.getStringAttr(text.str() + '\0'));
  }
  return LLVM::AddressOfOp::create(builder, loc, global);
}

namespace {

Type ptrType(MLIRContext *ctx) { return LLVM::LLVMPointerType::get(ctx); }

Value indexToI64(OpBuilder &builder, Location loc, Value index) {
  return arith::IndexCastOp::create(builder, loc, builder.getI64Type(), index);
}

Value constI64(OpBuilder &builder, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(builder, loc, builder.getI64Type(),
                                      value);
}

/// "i1", "f64", ...: the suffix of the per-type buffer functions.
std::string typeSuffix(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// The lowered values of an array taken out of runtime handle `handle`,
/// which is freed.
SmallVector<Value> takeArray(OpBuilder &builder, Location loc,
                             Operation *anchor, Value handle, ArrayType type) {
  MLIRContext *ctx = builder.getContext();
  SmallVector<Value> values;
  for (auto [k, buffer] : llvm::enumerate(getArrayBuffers(type))) {
    auto memref = MemRefType::get({ShapedType::kDynamic}, buffer.elementType);
    values.push_back(callRuntime(
        builder, loc, anchor,
        "sa_rt_array_take_buffer_" + typeSuffix(buffer.elementType), {memref},
        {handle, constI64(builder, loc, k)}, /*cInterface=*/true));
  }
  for (unsigned d = 0; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d)) {
      values.push_back(
          arith::ConstantIndexOp::create(builder, loc, type.getShape()[d]));
      continue;
    }
    Value size =
        callRuntime(builder, loc, anchor, "sa_rt_array_dim",
                    {builder.getI64Type()}, {handle, constI64(builder, loc, d)});
    values.push_back(arith::IndexCastOp::create(
        builder, loc, IndexType::get(ctx), size));
  }
  callRuntime(builder, loc, anchor, "sa_rt_array_free", {}, {handle});
  return values;
}

/// A runtime handle that borrows the buffers `lowered` of an array of
/// `type` (free it with sa_rt_array_free; the buffers stay the caller's).
Value lendArray(OpBuilder &builder, Location loc, Operation *anchor,
                ValueRange lowered, ArrayType type) {
  MLIRContext *ctx = builder.getContext();
  Value handle = callRuntime(
      builder, loc, anchor, "sa_rt_array_new", {ptrType(ctx)},
      {stringPointer(builder, loc, anchor, getRuntimeSpec(type))});
  SmallVector<ArrayBuffer> buffers = getArrayBuffers(type);
  for (auto [k, buffer] : llvm::enumerate(buffers))
    callRuntime(builder, loc, anchor,
                "sa_rt_array_set_buffer_" + typeSuffix(buffer.elementType), {},
                {handle, constI64(builder, loc, k), lowered[k]},
                /*cInterface=*/true);
  for (unsigned d = 0; d < type.getRank(); ++d)
    callRuntime(builder, loc, anchor, "sa_rt_array_set_dim", {},
                {handle, constI64(builder, loc, d),
                 indexToI64(builder, loc, lowered[buffers.size() + d])});
  return handle;
}

/// Lends the array to the runtime for one call `fn(handle, extra...)`.
void callOnLentArray(OpBuilder &builder, Location loc, Operation *anchor,
                     ValueRange lowered, ArrayType type, StringRef fn,
                     ValueRange extra = {}, bool handleFirst = true) {
  Value handle = lendArray(builder, loc, anchor, lowered, type);
  SmallVector<Value> args;
  if (handleFirst)
    args.push_back(handle);
  args.append(extra.begin(), extra.end());
  if (!handleFirst)
    args.push_back(handle);
  callRuntime(builder, loc, anchor, fn, {}, args);
  callRuntime(builder, loc, anchor, "sa_rt_array_free", {}, {handle});
}

/// The runtime repacks the array `lowered` of type `source` into `result`
/// (another format and/or fill); returns the result's lowered values.
SmallVector<Value> repack(OpBuilder &builder, Location loc, Operation *anchor,
                          ValueRange lowered, ArrayType source,
                          ArrayType result) {
  Value handle = lendArray(builder, loc, anchor, lowered, source);
  Value converted = callRuntime(
      builder, loc, anchor, "sa_rt_array_convert",
      {ptrType(builder.getContext())},
      {handle, stringPointer(builder, loc, anchor, getRuntimeSpec(result))});
  callRuntime(builder, loc, anchor, "sa_rt_array_free", {}, {handle});
  return takeArray(builder, loc, anchor, converted, result);
}

/// The path operand of read/write: the k-th program input (the converted
/// optional `input` operand) or a literal.
Value filePath(OpBuilder &builder, Location loc, Operation *anchor,
               ArrayRef<ValueRange> input, std::optional<StringRef> path) {
  if (path)
    return stringPointer(builder, loc, anchor, *path);
  return callRuntime(builder, loc, anchor, "sa_rt_input_path",
                     {ptrType(builder.getContext())},
                     {indexToI64(builder, loc, input.front().front())});
}

/// A constant 1-D buffer holding `values` (reshaped to 1-D).
Value constantBuffer(OpBuilder &builder, Location loc, Operation *anchor,
                     DenseElementsAttr values) {
  auto module = anchor->getParentOfType<ModuleOp>();
  int64_t n = values.getNumElements();
  Type elementType = values.getElementType();
  auto flat = values.reshape(RankedTensorType::get({n}, elementType));
  auto memrefType = MemRefType::get({n}, elementType);
  memref::GlobalOp global;
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    std::string name;
    for (unsigned i = 0;; ++i) {
      name = "__sa_const_" + std::to_string(i);
      if (!module.lookupSymbol(name))
        break;
    }
    global = memref::GlobalOp::create(
        builder, loc, name, builder.getStringAttr("private"), memrefType,
        flat, /*constant=*/true, /*alignment=*/IntegerAttr());
  }
  Value ref = memref::GetGlobalOp::create(builder, loc, memrefType,
                                          global.getSymName());
  return memref::CastOp::create(
      builder, loc, MemRefType::get({ShapedType::kDynamic}, elementType), ref);
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

struct ReadOpLowering : OpConversionPattern<ReadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<ArrayType>(op.getType());
    Value path = op.getFile() ? adaptor.getFile().front()
                              : filePath(rewriter, loc, op, adaptor.getInput(),
                                         op.getPath());
    Value handle = callRuntime(
        rewriter, loc, op, "sa_rt_array_read", {ptrType(getContext())},
        {path, stringPointer(rewriter, loc, op, getRuntimeSpec(type)),
         stringPointer(rewriter, loc, op, op.getFileFormat())});
    SmallVector<Value> lowered = takeArray(rewriter, loc, op, handle, type);
    rewriter.replaceOpWithMultiple(op, {lowered});
    return success();
  }
};

struct PrintOpLowering : OpConversionPattern<PrintOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PrintOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    callOnLentArray(rewriter, op.getLoc(), op, adaptor.getSource(),
                    cast<ArrayType>(op.getSource().getType()),
                    "sa_rt_array_print");
    rewriter.eraseOp(op);
    return success();
  }
};

struct ValidateOpLowering : OpConversionPattern<ValidateOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ValidateOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    callOnLentArray(rewriter, loc, op, adaptor.getSource(),
                    cast<ArrayType>(op.getSource().getType()),
                    "sa_rt_array_validate",
                    {stringPointer(rewriter, loc, op, op.getWhat())});
    rewriter.eraseOp(op);
    return success();
  }
};

struct WriteOpLowering : OpConversionPattern<WriteOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WriteOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value path = filePath(rewriter, loc, op, adaptor.getInput(), op.getPath());
    callOnLentArray(rewriter, loc, op, adaptor.getSource(),
                    cast<ArrayType>(op.getSource().getType()),
                    "sa_rt_array_write", {path});
    rewriter.eraseOp(op);
    return success();
  }
};

/// convert and change_fill: the runtime repacks into the result's format
/// (and fill).
template <typename OpTy>
struct RepackLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OneToNOpAdaptor = typename OpConversionPattern<OpTy>::OneToNOpAdaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> lowered =
        repack(rewriter, op.getLoc(), op, adaptor.getSource(),
               cast<ArrayType>(op.getSource().getType()),
               cast<ArrayType>(op.getType()));
    rewriter.replaceOpWithMultiple(op, {lowered});
    return success();
  }
};

/// The result's sizes of a collapse, split or reshape, from the source's
/// (`src`): static ones as constants, the others computed (a -1 is the
/// source's entries over the other sizes; the runtime checks the totals).
Value productOf(OpBuilder &b, Location loc, ValueRange dims) {
  Value p = arith::ConstantIndexOp::create(b, loc, 1);
  for (Value d : dims)
    p = arith::MulIOp::create(b, loc, p, d);
  return p;
}

/// `sizes` with the -1 resolved against `total` entries.
SmallVector<Value> resolveSizes(OpBuilder &b, Location loc,
                                ArrayRef<int64_t> sizes, Value total) {
  SmallVector<Value> out;
  Value known = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t s : sizes)
    if (s >= 0)
      known = arith::MulIOp::create(
          b, loc, known, arith::ConstantIndexOp::create(b, loc, s));
  for (int64_t s : sizes)
    out.push_back(s >= 0 ? Value(arith::ConstantIndexOp::create(b, loc, s))
                         : Value(arith::DivUIOp::create(b, loc, total, known)));
  return out;
}

SmallVector<Value> reshapedDims(OpBuilder &b, Location loc, CollapseOp op,
                                ValueRange src) {
  ArrayRef<int64_t> dims = op.getDims();
  SmallVector<Value> out(src.take_front(dims.front()));
  out.push_back(productOf(b, loc, src.slice(dims.front(), dims.size())));
  llvm::append_range(out, src.drop_front(dims.back() + 1));
  return out;
}

SmallVector<Value> reshapedDims(OpBuilder &b, Location loc, SplitOp op,
                                ValueRange src) {
  unsigned dim = op.getDim();
  SmallVector<Value> out(src.take_front(dim));
  llvm::append_range(out, resolveSizes(b, loc, op.getSizes(), src[dim]));
  llvm::append_range(out, src.drop_front(dim + 1));
  return out;
}

SmallVector<Value> reshapedDims(OpBuilder &b, Location loc, ReshapeOp op,
                                ValueRange src) {
  return resolveSizes(b, loc, op.getShape(), productOf(b, loc, src));
}

/// A runtime array with `type`'s spec and sizes `dims` and no buffers: the
/// shape a runtime operation produces.
Value shapeHandle(OpBuilder &b, Location loc, Operation *anchor, ArrayType type,
                  ValueRange dims) {
  Value shape =
      callRuntime(b, loc, anchor, "sa_rt_array_new", {ptrType(b.getContext())},
                  {stringPointer(b, loc, anchor, getRuntimeSpec(type))});
  for (auto [d, size] : llvm::enumerate(dims))
    callRuntime(b, loc, anchor, "sa_rt_array_set_dim", {},
                {shape, constI64(b, loc, d), indexToI64(b, loc, size)});
  return shape;
}

/// collapse, split and reshape: the runtime moves every stored entry to
/// its coordinates in the new shape (seed 001 §4.1), into the result's
/// format and fill.
template <typename OpTy>
struct ReshapeLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OneToNOpAdaptor = typename OpConversionPattern<OpTy>::OneToNOpAdaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto source = cast<ArrayType>(op.getSource().getType());
    auto result = cast<ArrayType>(op.getType());
    ValueRange lowered = adaptor.getSource();
    ValueRange srcDims = lowered.drop_front(getArrayBuffers(source).size());
    SmallVector<Value> dims = reshapedDims(rewriter, loc, op, srcDims);
    Value handle = lendArray(rewriter, loc, op, lowered, source);
    Value shape = shapeHandle(rewriter, loc, op, result, dims);
    Value reshaped = callRuntime(
        rewriter, loc, op, "sa_rt_array_reshape", {ptrType(op.getContext())},
        {handle, shape, constI64(rewriter, loc, op.getOrder() == "F")});
    callRuntime(rewriter, loc, op, "sa_rt_array_free", {}, {shape});
    callRuntime(rewriter, loc, op, "sa_rt_array_free", {}, {handle});
    rewriter.replaceOpWithMultiple(op,
                                   {takeArray(rewriter, loc, op, reshaped, result)});
    return success();
  }
};

/// A concatenation left to here: sizes along the axis known only at run
/// time (the fused kernel's windows and MoveRanges' copies need what the
/// inputs do not give: offsets when compiling, or storage like the
/// result's). The runtime adds each part's entries at its offset and packs
/// them into the result's format and fill (Concat.cpp); a part with
/// another fill adds every point of its range. The result's sizes: the
/// parts' sum along the axis, the first part's elsewhere (the runtime
/// checks every part's).
struct ConcatLowering : OpConversionPattern<ConcatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConcatOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto result = cast<ArrayType>(op.getType());
    unsigned axis = op.getDim();
    auto partDims = [&](unsigned k) {
      auto type = cast<ArrayType>(op.getInputs()[k].getType());
      return adaptor.getInputs()[k].drop_front(getArrayBuffers(type).size());
    };
    SmallVector<Value> dims(partDims(0));
    for (unsigned k = 1; k < op.getInputs().size(); ++k)
      dims[axis] =
          arith::AddIOp::create(rewriter, loc, dims[axis], partDims(k)[axis]);
    Value shape = shapeHandle(rewriter, loc, op, result, dims);
    Value concat = callRuntime(rewriter, loc, op, "sa_rt_concat_new",
                               {ptrType(op.getContext())},
                               {shape, constI64(rewriter, loc, axis)});
    callRuntime(rewriter, loc, op, "sa_rt_array_free", {}, {shape});
    for (auto [input, lowered] : llvm::zip(op.getInputs(), adaptor.getInputs()))
      callOnLentArray(rewriter, loc, op, lowered,
                      cast<ArrayType>(input.getType()), "sa_rt_concat_add",
                      {concat}, /*handleFirst=*/false);
    Value joined = callRuntime(rewriter, loc, op, "sa_rt_concat_finish",
                               {ptrType(op.getContext())}, {concat});
    rewriter.replaceOpWithMultiple(
        op, {takeArray(rewriter, loc, op, joined, result)});
    return success();
  }
};

/// A slice with bounds known at run time: the runtime moves the stored
/// entries on the slice's grid into a new array (Slice.cpp), after
/// checking the bounds against the source's sizes.
struct DynamicSliceLowering : OpConversionPattern<DynamicSliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DynamicSliceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto source = cast<ArrayType>(op.getSource().getType());
    auto result = cast<ArrayType>(op.getType());
    auto single = [](ArrayRef<ValueRange> values) {
      SmallVector<Value> flat;
      for (ValueRange v : values)
        flat.push_back(v.front());
      return flat;
    };
    SmallVector<Value> sizes = single(adaptor.getSizes());
    SmallVector<Value> offsets = single(adaptor.getOffsets());
    SmallVector<Value> strides = single(adaptor.getStrides());
    Value shape = shapeHandle(rewriter, loc, op, result, sizes);
    Value slice = callRuntime(rewriter, loc, op, "sa_rt_slice_new",
                              {ptrType(op.getContext())}, {shape});
    callRuntime(rewriter, loc, op, "sa_rt_array_free", {}, {shape});
    for (unsigned d = 0; d < source.getRank(); ++d)
      callRuntime(rewriter, loc, op, "sa_rt_slice_set", {},
                  {slice, constI64(rewriter, loc, d),
                   indexToI64(rewriter, loc, offsets[d]),
                   indexToI64(rewriter, loc, strides[d])});
    Value handle = lendArray(rewriter, loc, op, adaptor.getSource(), source);
    Value sliced = callRuntime(rewriter, loc, op, "sa_rt_slice_finish",
                               {ptrType(op.getContext())}, {slice, handle});
    callRuntime(rewriter, loc, op, "sa_rt_array_free", {}, {handle});
    rewriter.replaceOpWithMultiple(
        op, {takeArray(rewriter, loc, op, sliced, result)});
    return success();
  }
};

struct ConstantOpLowering : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConstantOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto type = cast<ArrayType>(op.getType());
    ArrayRef<int64_t> shape = type.getShape();
    SmallVector<Value> staging; // the lowered form of the staging array
    ArrayType stagingType;
    if (auto dense = dyn_cast<DenseElementsAttr>(op.getValue())) {
      // Dense staging array with the result's fill: packing drops the
      // entries equal to it.
      stagingType = ArrayType::get(
          shape, type.getElementType(),
          FormatAttr::getDefault(ctx, type.getRank(), type.getElementType())
              .withFill(type.getFillValue()));
      staging.push_back(constantBuffer(rewriter, loc, op, dense));
    } else {
      // Sparse constant: a COO staging array (compressed(nonunique),
      // singleton...) over the attribute's coordinate and value lists.
      auto sparse = cast<SparseElementsAttr>(op.getValue());
      unsigned rank = type.getRank(); // >= 1 (verifier)
      const LevelFormat *compressed = LevelFormatRegistry::compressed();
      const LevelFormat *singleton = LevelFormatRegistry::singleton();
      SmallVector<LevelSpec> levels;
      for (unsigned l = 0; l < rank; ++l)
        levels.push_back(LevelSpec{l == 0 ? compressed : singleton,
                                   /*ordered=*/true,
                                   /*unique=*/l + 1 == rank});
      auto format = FormatAttr::get(ctx, levels, {}, 64, 64,
                                    type.getFillValue());
      stagingType = ArrayType::get(shape, type.getElementType(), format);
      DenseIntElementsAttr indices = sparse.getIndices();
      int64_t nnz = sparse.getValues().getNumElements();
      SmallVector<int64_t> coords(indices.getValues<int64_t>());
      Type i64 = rewriter.getI64Type();
      auto column = [&](ArrayRef<int64_t> data) {
        return constantBuffer(
            rewriter, loc, op,
            DenseElementsAttr::get(
                RankedTensorType::get({int64_t(data.size())}, i64), data));
      };
      staging.push_back(column({0, nnz}));
      for (unsigned l = 0; l < rank; ++l) {
        SmallVector<int64_t> levelCoords;
        for (int64_t e = 0; e < nnz; ++e)
          levelCoords.push_back(coords[e * rank + l]);
        staging.push_back(column(levelCoords));
      }
      staging.push_back(constantBuffer(rewriter, loc, op, sparse.getValues()));
    }
    for (int64_t size : shape)
      staging.push_back(arith::ConstantIndexOp::create(rewriter, loc, size));
    SmallVector<Value> lowered =
        repack(rewriter, loc, op, staging, stagingType, type);
    rewriter.replaceOpWithMultiple(op, {lowered});
    return success();
  }
};

struct DimOpLowering : OpConversionPattern<DimOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DimOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<ArrayType>(op.getSource().getType());
    size_t first = getArrayBuffers(type).size();
    rewriter.replaceOp(op, adaptor.getSource()[first + op.getDimension()]);
    return success();
  }
};

/// positions / coordinates / values: one of the lowered buffers.
template <typename OpTy, BufferKind Kind>
struct BufferOpLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OneToNOpAdaptor = typename OpConversionPattern<OpTy>::OneToNOpAdaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<ArrayType>(op.getSource().getType());
    unsigned level = 0;
    if constexpr (Kind != BufferKind::Values)
      level = op.getLevel();
    std::optional<unsigned> index = getBufferIndex(type, Kind, level);
    if (!index)
      return rewriter.notifyMatchFailure(op, "no such buffer");
    rewriter.replaceOp(op, adaptor.getSource()[*index]);
    return success();
  }
};

/// level_buffer: the buffer of the level with that role.
struct LevelBufferOpLowering : OpConversionPattern<LevelBufferOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LevelBufferOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<unsigned> index =
        getBufferIndex(cast<ArrayType>(op.getSource().getType()),
                       op.getLevel(), op.getRole());
    if (!index)
      return rewriter.notifyMatchFailure(op, "no such buffer");
    rewriter.replaceOp(op, adaptor.getSource()[*index]);
    return success();
  }
};

/// dealloc: every buffer of the lowered array.
struct DeallocOpLowering : OpConversionPattern<DeallocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DeallocOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    for (Value part : adaptor.getSource())
      if (isa<MemRefType>(part.getType()))
        memref::DeallocOp::create(rewriter, op.getLoc(), part);
    rewriter.eraseOp(op);
    return success();
  }
};

/// assemble: the buffers and sizes are the lowered array.
struct AssembleOpLowering : OpConversionPattern<AssembleOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AssembleOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> parts;
    for (ValueRange r : adaptor.getOperands())
      parts.append(r.begin(), r.end());
    rewriter.replaceOpWithMultiple(op, {parts});
    return success();
  }
};

/// demap: the source's buffers, with one size per level (a blocked
/// dimension's size over its block, and the block).
struct DemapOpLowering : OpConversionPattern<DemapOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DemapOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<ArrayType>(op.getSource().getType());
    FormatAttr format = type.getFormat();
    ValueRange source = adaptor.getSource();
    size_t numBuffers = getArrayBuffers(type).size();
    SmallVector<Value> parts(source.take_front(numBuffers));
    ValueRange dims = source.drop_front(numBuffers);
    for (unsigned l = 0; l < format.getNumLevels(); ++l) {
      unsigned dim = format.getLevelDim(l);
      Value block = arith::ConstantIndexOp::create(
          rewriter, loc, static_cast<int64_t>(format.getBlock(dim)));
      switch (format.getLevelPart(l)) {
      case FormatAttr::LevelPart::Whole:
        parts.push_back(dims[dim]);
        break;
      case FormatAttr::LevelPart::Block:
        parts.push_back(arith::DivUIOp::create(rewriter, loc, dims[dim], block));
        break;
      case FormatAttr::LevelPart::InBlock:
        parts.push_back(block);
        break;
      }
    }
    rewriter.replaceOpWithMultiple(op, {parts});
    return success();
  }
};

} // namespace

void mlir::sparse_array::populateStorageToBuffersPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns
      .add<ReadOpLowering, PrintOpLowering, ValidateOpLowering, WriteOpLowering,
           RepackLowering<ConvertOp>, RepackLowering<ChangeFillOp>,
           ReshapeLowering<CollapseOp>, ReshapeLowering<SplitOp>,
           ReshapeLowering<ReshapeOp>, ConcatLowering, DynamicSliceLowering,
           ConstantOpLowering,
           DimOpLowering, AssembleOpLowering, DemapOpLowering,
           DeallocOpLowering,
           BufferOpLowering<PositionsOp, BufferKind::Positions>,
           BufferOpLowering<CoordinatesOp, BufferKind::Coordinates>,
           LevelBufferOpLowering,
           BufferOpLowering<ValuesOp, BufferKind::Values>>(
          converter, patterns.getContext());
}

void mlir::sparse_array::configureStorageToBuffersTarget(
    ConversionTarget &target, const TypeConverter &converter) {
  target.addIllegalOp<DemapOp>();
  target.addIllegalOp<ReadOp, PrintOp, ValidateOp, WriteOp, ConvertOp,
                      ChangeFillOp, CollapseOp, SplitOp, ReshapeOp, ConcatOp,
                      DynamicSliceOp, ConstantOp, DimOp, PositionsOp, CoordinatesOp,
                      LevelBufferOp, ValuesOp,
                      AssembleOp, DeallocOp>();
  target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
    return converter.isSignatureLegal(op.getFunctionType()) &&
           converter.isLegal(&op.getBody());
  });
  target.addDynamicallyLegalOp<func::CallOp, func::ReturnOp>(
      [&](Operation *op) { return converter.isLegal(op); });
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
}
