//===- ImportAssemble.cpp - sparse_tensor.assemble -> sparse_array --------===//
//
// An array from a user's level buffers (issue 19). Upstream's storage
// layout lists, per level, its positions and then its coordinates, except
// that a trailing COO region stored as an array of structures has one
// [entries x levels] coordinates tensor; sparse_array stores every level's
// coordinates on their own (docs/storage.md), so that tensor is split into
// columns. Each buffer is copied into storage the array owns (the tensors
// stay values), and the array is validated at run time: kernels rely on
// positions, bounds and order that upstream leaves to the user.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "SparseArray/Conversion/RuntimeCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensorType.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::import;

namespace {

/// Reports the diagnostic (when it goes out of scope) and fails.
FailureOr<Value> fail(InFlightDiagnostic &&) { return failure(); }

/// Builds the buffers of one assemble, in sparse_array's order.
class AssembleImporter {
public:
  AssembleImporter(OpBuilder &b, sparse_tensor::AssembleOp op,
                   function_ref<FailureOr<Value>(Value)> arrayOf)
      : b(b), op(op), loc(op.getLoc()), arrayOf(arrayOf) {}

  /// A fresh buffer of `elem` holding column `column` of `columns` of
  /// tensor `t` (the whole tensor when columns == 1).
  FailureOr<Value> buffer(Value t, Type elem, int64_t column = 0,
                          int64_t columns = 1) {
    if (auto c = t.getDefiningOp<arith::ConstantOp>())
      return constantColumn(c, elem, column, columns);
    // A function argument is retyped to an array already.
    Type held = isa<ArrayType>(t.getType())
                    ? cast<ArrayType>(t.getType()).getElementType()
                    : getElementTypeOrSelf(t.getType());
    // Narrower level buffers (8- or 16-bit widths) widen as they are
    // copied: positions and coordinates are non-negative.
    bool widen = held != elem && isa<IntegerType>(held) &&
                 isa<IntegerType>(elem) &&
                 held.getIntOrFloatBitWidth() < elem.getIntOrFloatBitWidth();
    if (held != elem && !widen)
      return fail(op.emitOpError("cannot be imported: a level or values "
                                 "operand holding ")
                  << held << " where the format stores " << elem
                  << " (index tensors only as constants)");
    FailureOr<Value> array = arrayOf(t);
    if (failed(array))
      return failure();
    Value flat = ValuesOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, held), *array);
    auto flatType = MemRefType::get({ShapedType::kDynamic}, elem);
    Value total = memref::DimOp::create(b, loc, flat, 0);
    Value step = arith::ConstantIndexOp::create(b, loc, columns);
    Value n = arith::DivUIOp::create(b, loc, total, step);
    Value copy = memref::AllocOp::create(b, loc, flatType, ValueRange{n});
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value first = arith::ConstantIndexOp::create(b, loc, column);
    scf::ForOp::create(b, loc, zero, n, one, ValueRange{},
                       [&](OpBuilder &fb, Location l, Value i, ValueRange) {
                         Value at = arith::AddIOp::create(
                             fb, l, arith::MulIOp::create(fb, l, i, step),
                             first);
                         Value v = memref::LoadOp::create(fb, l, flat, at);
                         if (widen)
                           v = arith::ExtUIOp::create(fb, l, elem, v);
                         memref::StoreOp::create(fb, l, v, copy, i);
                         scf::YieldOp::create(fb, l);
                       });
    return copy;
  }

private:
  /// A constant tensor's column as a constant array's values, copied.
  FailureOr<Value> constantColumn(arith::ConstantOp c, Type elem,
                                  int64_t column, int64_t columns) {
    auto attr = dyn_cast<DenseElementsAttr>(c.getValue());
    if (!attr)
      return fail(op.emitOpError("cannot be imported: a level constant "
                                    "that is not dense elements"));
    SmallVector<Attribute> picked;
    int64_t k = 0;
    if (isa<IntegerType, IndexType>(attr.getElementType())) {
      for (const APInt &v : attr.getValues<APInt>())
        if (k++ % columns == column)
          picked.push_back(IntegerAttr::get(elem, v.getSExtValue()));
    } else {
      for (Attribute v : attr.getValues<Attribute>())
        if (k++ % columns == column)
          picked.push_back(v);
    }
    auto type = RankedTensorType::get({int64_t(picked.size())}, elem);
    auto arrayType = ArrayType::get({int64_t(picked.size())}, elem);
    Value array = ConstantOp::create(b, loc, arrayType,
                                     DenseElementsAttr::get(type, picked));
    auto flatType = MemRefType::get({ShapedType::kDynamic}, elem);
    Value flat = ValuesOp::create(b, loc, flatType, array);
    Value n = arith::ConstantIndexOp::create(b, loc, picked.size());
    Value copy = memref::AllocOp::create(b, loc, flatType, ValueRange{n});
    memref::CopyOp::create(b, loc, flat, copy);
    return copy;
  }

  OpBuilder &b;
  sparse_tensor::AssembleOp op;
  Location loc;
  function_ref<FailureOr<Value>(Value)> arrayOf;
};

/// The buffers of a loose_compressed level's entries (its coordinates,
/// those of the singleton levels below, the values) cut to the shortest:
/// upstream lets them run past the last segment by different amounts
/// (BCOO's coordinates with a spare row), the format stores one entry per
/// position in each. The array validates every segment against them.
void cutToShortest(OpBuilder &b, Location loc, ArrayRef<Value *> entries) {
  Value length = memref::DimOp::create(b, loc, *entries.front(), 0);
  for (Value *e : entries.drop_front())
    length = arith::MinUIOp::create(b, loc, length,
                                    memref::DimOp::create(b, loc, *e, 0));
  for (Value *e : entries) {
    auto type = cast<MemRefType>(e->getType());
    *e = memref::ReinterpretCastOp::create(
        b, loc, type, *e, OpFoldResult(b.getIndexAttr(0)),
        ArrayRef<OpFoldResult>{length}, ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  }
}

} // namespace

FailureOr<Value>
mlir::sparse_array::import::importAssemble(
    OpBuilder &b, sparse_tensor::AssembleOp op, ArrayType type,
    function_ref<FailureOr<Value>(Value)> arrayOf) {
  Location loc = op.getLoc();
  if (!type.hasStaticShape())
    return fail(op.emitOpError("cannot be imported: the assembled tensor's "
                                  "dimension sizes must be static"));
  sparse_tensor::SparseTensorType stt(op.getResult().getType());
  FormatAttr format = type.getFormat();
  ArrayRef<LevelSpec> levels = format.getLevels();
  unsigned rank = levels.size();
  // Upstream's level operands, in its storage order; a trailing COO
  // region stored as an array of structures is one operand for its levels.
  unsigned aos = stt.getAoSCOOStart();
  Type posType = b.getIntegerType(format.getPosWidth());
  Type crdType = b.getIntegerType(format.getCrdWidth());
  AssembleImporter importer(b, op, arrayOf);
  SmallVector<Value> buffers;
  auto operands = op.getLevels();
  unsigned next = 0;
  auto take = [&]() -> FailureOr<Value> {
    if (next >= operands.size())
      return fail(op.emitOpError("cannot be imported: fewer level "
                                    "tensors than the format stores"));
    return operands[next++];
  };
  Value aosCoordinates;
  // Where each level's buffers are in `buffers` (-1: none).
  SmallVector<int> posAt(rank, -1), crdAt(rank, -1);
  for (unsigned l = 0; l < rank; ++l) {
    if (storesUpstreamPositions(levels[l].format)) {
      posAt[l] = buffers.size();
      FailureOr<Value> t = take();
      if (failed(t))
        return failure();
      FailureOr<Value> pos = importer.buffer(*t, posType);
      if (failed(pos))
        return failure();
      buffers.push_back(*pos);
    }
    if (!levels[l].format->hasCoordinatesBuffer())
      continue;
    FailureOr<Value> crd;
    if (l < aos) {
      FailureOr<Value> t = take();
      if (failed(t))
        return failure();
      crd = importer.buffer(*t, crdType);
    } else {
      if (l == aos) {
        FailureOr<Value> t = take();
        if (failed(t))
          return failure();
        aosCoordinates = *t;
      }
      crd = importer.buffer(aosCoordinates, crdType, l - aos, rank - aos);
    }
    if (failed(crd))
      return failure();
    crdAt[l] = buffers.size();
    buffers.push_back(*crd);
  }
  if (next != operands.size())
    return fail(op.emitOpError("cannot be imported: more level tensors "
                                  "than the format stores"));
  FailureOr<Value> values =
      importer.buffer(op.getValues(), type.getElementType());
  if (failed(values))
    return failure();
  buffers.push_back(*values);
  // A loose level's entries with singleton levels below: their buffers
  // cut to one length (a level with positions below sizes them itself).
  for (unsigned l = 0; l < rank; ++l) {
    if (!sparse_tensor::isLooseCompressedLT(stt.getLvlType(l)))
      continue;
    SmallVector<Value *> entries;
    bool singletonsBelow = true;
    for (unsigned k = l; k < rank; ++k) {
      singletonsBelow &= k == l || posAt[k] < 0;
      if (crdAt[k] >= 0)
        entries.push_back(&buffers[crdAt[k]]);
    }
    entries.push_back(&buffers.back());
    if (singletonsBelow)
      cutToShortest(b, loc, entries);
  }
  SmallVector<Value> dims;
  for (int64_t size : type.getShape())
    dims.push_back(arith::ConstantIndexOp::create(b, loc, size));
  Value array = AssembleOp::create(b, loc, type, buffers, dims);
  ValidateOp::create(
      b, loc, array,
      b.getStringAttr("sparse_tensor.assemble at " + describeLocation(loc)));
  return array;
}

namespace {

/// Writes the outputs of one disassemble: each a copy of the user's buffer
/// with its first elements overwritten by one of the array's buffers (or,
/// for a trailing COO region stored as an array of structures, by several
/// coordinate buffers interleaved).
class DisassembleWriter {
public:
  DisassembleWriter(OpBuilder &b, sparse_tensor::DisassembleOp op)
      : b(b), op(op), loc(op.getLoc()) {}

  struct Written {
    Value array;
    /// Elements written: the length upstream returns.
    Value length;
  };

  /// An array of `type` holding `out`'s elements (zeros when `out` is null:
  /// a tensor.empty) with element k * n + c replaced by sources[c][k], n
  /// the number of sources. `what` names the buffer in run-time errors.
  FailureOr<Written> write(ArrayType type, Value out, ArrayRef<Value> sources,
                           StringRef what) {
    Type elem = type.getElementType();
    for (Value s : sources) {
      Type held = cast<MemRefType>(s.getType()).getElementType();
      if (held != elem && !(isa<IntegerType>(held) && isa<IntegerType>(elem)))
        return LogicalResult(op.emitOpError("cannot be imported: the ")
                    << what << " hold " << held << ", the output tensor "
                    << elem);
    }
    auto flatType = MemRefType::get({ShapedType::kDynamic}, elem);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    SmallVector<Value> dims;
    Value capacity;
    if (out) {
      for (unsigned d = 0; d < type.getRank(); ++d)
        dims.push_back(DimOp::create(b, loc, out, static_cast<int64_t>(d)));
      Value flat = ValuesOp::create(b, loc, flatType, out);
      capacity = memref::DimOp::create(b, loc, flat, 0);
    } else {
      if (!type.hasStaticShape())
        return LogicalResult(op.emitOpError("cannot be imported: an uninitialized "
                                   "output tensor of dynamic shape"));
      int64_t total = 1;
      for (int64_t size : type.getShape()) {
        dims.push_back(arith::ConstantIndexOp::create(b, loc, size));
        total *= size;
      }
      capacity = arith::ConstantIndexOp::create(b, loc, total);
    }
    Value buffer =
        memref::AllocOp::create(b, loc, flatType, ValueRange{capacity});
    Value count = memref::DimOp::create(b, loc, sources.front(), 0);
    Value stride = arith::ConstantIndexOp::create(b, loc, sources.size());
    Value length = arith::MulIOp::create(b, loc, count, stride);
    checkCapacity(length, capacity, what);
    if (out) {
      memref::CopyOp::create(b, loc, ValuesOp::create(b, loc, flatType, out),
                             buffer);
    } else {
      // Upstream leaves the tail undefined; zeros make it deterministic.
      Value z = arith::ConstantOp::create(b, loc, b.getZeroAttr(elem));
      scf::ForOp::create(b, loc, length, capacity, one, ValueRange{},
                         [&](OpBuilder &fb, Location l, Value k, ValueRange) {
                           memref::StoreOp::create(fb, l, z, buffer, k);
                           scf::YieldOp::create(fb, l);
                         });
    }
    scf::ForOp::create(
        b, loc, zero, count, one, ValueRange{},
        [&](OpBuilder &fb, Location l, Value k, ValueRange) {
          Value base = arith::MulIOp::create(fb, l, k, stride);
          for (auto [c, source] : llvm::enumerate(sources)) {
            Value v = memref::LoadOp::create(fb, l, source, k);
            v = convert(fb, l, v, elem);
            Value at = arith::AddIOp::create(
                fb, l, base, arith::ConstantIndexOp::create(fb, l, c));
            memref::StoreOp::create(fb, l, v, buffer, at);
          }
          scf::YieldOp::create(fb, l);
        });
    Value array = AssembleOp::create(b, loc, type, ValueRange{buffer}, dims);
    return Written{array, length};
  }

private:
  /// Positions and coordinates are non-negative: zero-extended or
  /// truncated to the output's width.
  static Value convert(OpBuilder &b, Location loc, Value v, Type to) {
    Type from = v.getType();
    if (from == to)
      return v;
    if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
      return arith::ExtUIOp::create(b, loc, to, v);
    return arith::TruncIOp::create(b, loc, to, v);
  }

  /// Stops the program when the user's buffer is too small (upstream
  /// writes past its end).
  void checkCapacity(Value needed, Value capacity, StringRef what) {
    Value fits = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                       needed, capacity);
    auto check = scf::IfOp::create(b, loc, fits, /*withElseRegion=*/true);
    OpBuilder eb = check.getElseBodyBuilder();
    std::string site = ("sparse_tensor.disassemble at " +
                        describeLocation(loc) + ": the " + what)
                           .str();
    Type i64 = eb.getI64Type();
    callRuntime(eb, loc, op, "sa_rt_check_capacity", {},
                {stringPointer(eb, loc, op, site),
                 arith::IndexCastOp::create(eb, loc, i64, needed),
                 arith::IndexCastOp::create(eb, loc, i64, capacity)});
  }

  OpBuilder &b;
  sparse_tensor::DisassembleOp op;
  Location loc;
};

} // namespace

FailureOr<SmallVector<Value>> mlir::sparse_array::import::importDisassemble(
    OpBuilder &b, sparse_tensor::DisassembleOp op, Value array,
    RankedTensorType sourceType,
    function_ref<FailureOr<ArrayType>(Type)> convert,
    function_ref<FailureOr<Value>(Value)> outputOf) {
  Location loc = op.getLoc();
  auto type = cast<ArrayType>(array.getType());
  unsigned rank = type.getRank();
  // The array's buffers grouped as upstream lists its level operands.
  SmallVector<std::pair<SmallVector<Value>, std::string>> groups;
  for (UpstreamLevelBuffers &g : upstreamLevelBuffers(b, loc, array, sourceType)) {
    std::string l = std::to_string(g.level);
    std::string what =
        g.positions ? "positions of level " + l
        : g.buffers.size() > 1
            ? "coordinates of levels " + l + " to " + std::to_string(rank - 1)
            : "coordinates of level " + l;
    groups.push_back({std::move(g.buffers), what});
  }
  auto outs = op.getOutLevels();
  if (outs.size() != groups.size())
    return LogicalResult(op.emitOpError("cannot be imported: ")
                << outs.size() << " level tensors where the format stores "
                << groups.size());
  DisassembleWriter writer(b, op);
  SmallVector<Value> arrays, lengths;
  auto writeOne = [&](Value outTensor, Type resultType,
                      ArrayRef<Value> sources, StringRef what) {
    FailureOr<ArrayType> t = convert(resultType);
    FailureOr<Value> out = outputOf(outTensor);
    if (failed(t) || failed(out))
      return failure();
    FailureOr<DisassembleWriter::Written> w =
        writer.write(*t, *out, sources, what);
    if (failed(w))
      return failure();
    arrays.push_back(w->array);
    lengths.push_back(w->length);
    return success();
  };
  for (auto [k, group] : llvm::enumerate(groups))
    if (failed(writeOne(outs[k], op.getRetLevels()[k].getType(), group.first,
                        group.second)))
      return failure();
  Value values = ValuesOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, type.getElementType()),
      array);
  if (failed(writeOne(op.getOutValues(), op.getRetValues().getType(),
                      {values}, "values")))
    return failure();
  // Results: level tensors, values tensor, level lengths, values length.
  SmallVector<Value> results(arrays.begin(), arrays.end() - 1);
  results.push_back(arrays.back());
  // A length is a scalar or a 0-d tensor holding it.
  auto castTo = [&](Value n, Type t) -> FailureOr<Value> {
    auto tensor = dyn_cast<RankedTensorType>(t);
    Type elem = tensor ? tensor.getElementType() : t;
    if (!elem.isIndex())
      n = arith::IndexCastOp::create(b, loc, elem, n);
    if (!tensor)
      return n;
    FailureOr<ArrayType> arrayType = convert(t);
    if (failed(arrayType))
      return failure();
    return denseArrayOf(b, loc, n, *arrayType);
  };
  for (auto [k, len] : llvm::enumerate(op.getLvlLens())) {
    FailureOr<Value> n = castTo(lengths[k], len.getType());
    if (failed(n))
      return failure();
    results.push_back(*n);
  }
  FailureOr<Value> n = castTo(lengths.back(), op.getValLen().getType());
  if (failed(n))
    return failure();
  results.push_back(*n);
  return results;
}
