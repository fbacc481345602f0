//===- Importer.h - Pieces of sparse-array-import-sparse-tensor -*- C++ -*-===//
//
// The importer's parts, one job each: types (ImportTypes.cpp), the
// functions applying scalar operations with their exact properties
// (ImportFunctions.cpp), linalg.generic -> sparse_array.kernel
// (ImportGeneric.cpp), assembled arrays (ImportAssemble.cpp) and the walk over a module (ImportSparseTensor.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_LIB_IMPORT_IMPORTER_H
#define SPARSEARRAY_LIB_IMPORT_IMPORTER_H

#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"

namespace mlir {
namespace sparse_array {
namespace import {

/// The array type of a ranked tensor type: same shape and element type
/// (i64 for a dense tensor of index),
/// fill 0, levels/order/widths from its #sparse_tensor.encoding (dense
/// without one). Emits an error at `loc` naming what is not representable.
FailureOr<ArrayType> convertTensorType(Location loc, Type type);

/// What an operation's function declares: the properties that hold for
/// every operand value (NaN, ±inf, -0.0, wrap-around included).
struct ScalarOpProperties {
  bool commutative = false, associative = false, idempotent = false;
  /// Identity at `identityPositions` (every position when empty), or null.
  TypedAttr identity;
  SmallVector<unsigned> identityPositions;
  /// Annihilator at `annihilatorPositions` (every position when empty).
  TypedAttr annihilator;
  SmallVector<unsigned> annihilatorPositions;
};

/// The exact properties of a scalar arith operation (none for others and
/// for floating-point operations with fast-math flags).
ScalarOpProperties getOpProperties(Operation *op);

/// Whether combining `init` into a fold with `op` first (the linalg
/// reduction's order) equals combining it last: `op` associative, or
/// `init` neutral for it in every bit (arith.addf of ±0.0: a fold from
/// +0.0 differs from one from -0.0 only in a -0.0 result, which adding
/// +0.0 last corrects; arith.mulf of 1.0).
bool canCombineInitLast(Operation *op, TypedAttr init);

/// One sparse_array.func per distinct scalar operation (name, attributes,
/// types), applying it to its arguments, with getOpProperties.
class FunctionTable {
public:
  explicit FunctionTable(ModuleOp module) : module(module), symbols(module) {}

  /// The function applying `op` (one result, scalar operands) to its
  /// operands in order; created on first use.
  FuncOp getFor(Operation *op);
  /// The function of a sparse_tensor.binary or sparse_tensor.unary: its
  /// regions as one total function of its operands' values, with the
  /// explicit algebra of where it differs from its value at 0
  /// (ImportSemiringOps.cpp). Fails with a diagnostic on `op`.
  FailureOr<FuncOp> getForSemiringOp(Operation *op);
  /// The element conversion of a sparse_tensor.convert from `from` to
  /// `to` (both integer or float types, not equal).
  FuncOp getForCast(Location loc, Type from, Type to);
  /// f(x, y) = x: ties a value to the range of a loop it does not depend
  /// on (no properties: its value at every point is x).
  FuncOp getKeepFirst(Type x, Type y);
  /// g(a, b) = op(b, a) for a binary `op` (a right fold's combiner as
  /// f(acc, value)); no properties.
  FuncOp getSwapped(Operation *op);
  /// f(m, s, x) = m ? s : x (m: i1): a tensor.insert's entry where its
  /// marker holds (no properties: its value at the fills decides).
  FuncOp getPick(Type t);
  /// The functions of a sparse_tensor.reduce whose accumulator is operand
  /// `accPosition` (0 or 1): the element (present entries, else the
  /// identity) and the combiner (the region, declaring the identity).
  FailureOr<std::pair<FuncOp, FuncOp>>
  getForCustomReduction(Operation *op, unsigned accPosition);
  ModuleOp getModule() { return module; }

private:
  ModuleOp module;
  SymbolTable symbols;
  llvm::StringMap<FuncOp> cache;
};

/// How the output operand of a linalg.generic is initialized.
struct OutputInit {
  enum class Kind {
    /// tensor.empty / bufferization.alloc_tensor: no defined values.
    Undefined,
    /// linalg.fill of a constant.
    Constant,
    /// An array value.
    Array,
  };
  Kind kind = Kind::Undefined;
  TypedAttr constant;
  Value array;
};

/// Rewrites each linalg.generic of `module` that reads a coordinate as a
/// sum of loops (convolution, pooling) as one generic per tap of its window
/// loops over offset slices of its inputs (ImportWindows.cpp); fails with a
/// diagnostic naming what it cannot rewrite.
LogicalResult unrollWindows(ModuleOp module);

/// Builds the sparse_array.kernel computing `op` at `b`'s insertion point
/// from the imported input arrays (null for scalar inputs); fails with a
/// diagnostic on `op` naming what it cannot translate.
FailureOr<Value> importGeneric(OpBuilder &b, linalg::GenericOp op,
                               ArrayRef<Value> inputs, const OutputInit &init,
                               ArrayType resultType, FunctionTable &functions);

/// Rewrites a vector.print of a scalar or a vector (or a string, or
/// punctuation) as calls of the runtime's printers at `b`'s insertion
/// point, floats as upstream prints them or, `exact`, with round-trip
/// digits (ImportPrint.cpp).
LogicalResult importVectorPrint(OpBuilder &b, Operation *print, bool exact);

/// Prints scalar `v` as upstream's runner library does (floats with %g,
/// integers signed, i1 as 0/1) at `b`'s insertion point; an unsupported
/// type is an error on `anchor` (ImportPrint.cpp).
LogicalResult printScalarAsUpstream(OpBuilder &b, Location loc,
                                    Operation *anchor, Value v,
                                    bool exact = false);

/// Rewrites a sparse_tensor.print of an array as upstream prints it: the
/// header, `nse`, `dim` and `lvl` sizes, each level's `pos[l]`/`crd[l]`
/// buffer (a trailing COO region's coordinates interleaved at its first
/// level unless `soa`), the values (ImportTensorPrint.cpp).
LogicalResult importSparseTensorPrint(OpBuilder &b,
                                      sparse_tensor::PrintOp op, Value array,
                                      RankedTensorType sourceType);

/// One level operand as upstream lists a tensor's storage: the positions
/// of `level`, or its coordinates — a trailing COO region's (unless `soa`)
/// together at its first level, interleaved by whoever reads them.
struct UpstreamLevelBuffers {
  unsigned level;
  bool positions;
  SmallVector<Value> buffers;
};

/// Whether a level of `format` stores what upstream calls its positions:
/// a buffer typed by pos_width (compressed: positions; loose_compressed:
/// bounds, (lo, hi) per parent position).
bool storesUpstreamPositions(const LevelFormat *format);
/// That buffer of level `l` of `array`, or null.
Value upstreamPositions(OpBuilder &b, Location loc, Value array, unsigned l);

/// A dense array of static shape `type` holding `scalars` in row-major
/// order (index scalars cast to the held integers; ImportDenseBuild.cpp).
Value denseArrayOf(OpBuilder &b, Location loc, ValueRange scalars,
                   ArrayType type);

/// A sparse_tensor.foreach as loops over the stored entries of its array.
struct ImportedForeach {
  /// The outermost loop (its body holds the cloned, not yet imported, body).
  Operation *outermost = nullptr;
  /// The values the loops carry out (the foreach's results).
  SmallVector<Value> results;
};

/// Builds the loop nest of `op` over `array` at `b`'s insertion point, the
/// body cloned into the innermost loop (ImportForeach.cpp).
FailureOr<ImportedForeach> importForeach(OpBuilder &b,
                                         sparse_tensor::ForeachOp op,
                                         Value array);

/// The level buffers of `array` (of tensor type `sourceType`) in
/// upstream's order, shared by sparse_tensor.print and disassemble
/// (ImportBuffers.cpp).
SmallVector<UpstreamLevelBuffers>
upstreamLevelBuffers(OpBuilder &b, Location loc, Value array,
                     RankedTensorType sourceType);

/// The memref a sparse_tensor.values, positions or coordinates `op` reads
/// from `array`: the array's buffer, copied when the program asks for
/// another element type (index where the format holds i64)
/// (ImportBuffers.cpp).
FailureOr<Value> importStorageBuffer(OpBuilder &b, Operation *op,
                                     Value array, RankedTensorType sourceType);

/// The values of `array` in row-major order as a memref of `target` (a
/// ranked memref of its shape, or an unranked one): what an external
/// function declared on tensors (printMemrefF64) receives
/// (ImportBuffers.cpp).
FailureOr<Value> denseMemRefOf(OpBuilder &b, Location loc, Operation *anchor,
                               Value array, Type target);

/// The vector a vector.transfer_read of a tensor reads from its array: one
/// sparse_array.extract per element, the padding outside the tensor
/// (ImportPrint.cpp); a masked, scalable or 0-d read, or one of more than
/// 4096 elements, is an error.
FailureOr<Value> importTransferRead(OpBuilder &b, Operation *read,
                                    Value array);

/// The array of a linalg.fill of `scalar` (a value known only at run time,
/// or a constant into a shape known only at run time) into its output's
/// shape: a dense array filled in a loop, converted to `type`
/// (ImportDenseBuild.cpp).
FailureOr<Value> importFill(OpBuilder &b, linalg::FillOp fill, ArrayType type,
                            Value scalar,
                            function_ref<FailureOr<Value>(Value)> arrayOf);

/// tensor.insert of a scalar into the array `dest`: into a dense array, a
/// copy of its values with the entry written; into a sparse one, a kernel
/// taking the scalar where a one-entry marker holds and `dest` elsewhere
/// (O(stored entries), ImportDenseBuild.cpp).
FailureOr<Value> importInsert(OpBuilder &b, tensor::InsertOp op, Value dest,
                              ArrayType type, FunctionTable &functions);

/// tensor.from_elements: a dense array of the scalars (ImportDenseBuild.cpp).
FailureOr<Value> importFromElements(OpBuilder &b, tensor::FromElementsOp op,
                                    ArrayType type);

/// tensor.pad of `source` with its fill by static amounts: a kernel reading
/// it through a padded window (ImportDenseBuild.cpp).
FailureOr<Value> importPad(OpBuilder &b, tensor::PadOp pad, Value source,
                           ArrayType type);

/// Whether `op` is a shape operation importShapeOp translates.
bool isImportedShapeOp(Operation *op);

/// The array `op` (a shape operation) computes from the arrays of its
/// tensor operands, at `b`'s insertion point (ImportShapeOps.cpp).
FailureOr<Value> importShapeOp(OpBuilder &b, Operation *op,
                               ArrayRef<Value> sources, ArrayType resultType,
                               FunctionTable &functions);

/// The array a sparse_tensor.assemble builds from its level and values
/// tensors (`arrayOf` imports a tensor operand), copied into buffers it
/// owns and validated at run time (ImportAssemble.cpp).
FailureOr<Value> importAssemble(OpBuilder &b, sparse_tensor::AssembleOp op,
                                ArrayType type,
                                function_ref<FailureOr<Value>(Value)> arrayOf);

/// The values of a sparse_tensor.disassemble's results, in order (level
/// arrays, values array, level lengths, values length), from the array of
/// its tensor (of `sourceType`: the operand may be retyped already): each
/// output a copy of the user's buffer (`outputOf`: its
/// array, null for an uninitialized tensor) with the array's buffer written
/// over its first elements, a buffer too small being a run-time error
/// (ImportAssemble.cpp).
FailureOr<SmallVector<Value>>
importDisassemble(OpBuilder &b, sparse_tensor::DisassembleOp op, Value array,
                  RankedTensorType sourceType,
                  function_ref<FailureOr<ArrayType>(Type)> convert,
                  function_ref<FailureOr<Value>(Value)> outputOf);

} // namespace import
} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_LIB_IMPORT_IMPORTER_H
