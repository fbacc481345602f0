//===- SparseArray.h - sparse_array dialect ---------------------*- C++ -*-===//
//
// The single public header of the dialect: dialect, attributes, types, ops.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_DIALECT_SPARSEARRAY_H
#define SPARSEARRAY_DIALECT_SPARSEARRAY_H

#include "SparseArray/Algebra/IterationAlgebra.h"
#include "SparseArray/Algebra/Lattice.h"
#include "SparseArray/Algebra/SequenceExpr.h"
#include "SparseArray/Dialect/LevelFormat.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <array>

#include "SparseArray/Dialect/SparseArrayOpsDialect.h.inc"

#include "SparseArray/Dialect/SparseArrayEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "SparseArray/Dialect/SparseArrayAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "SparseArray/Dialect/SparseArrayOpsTypes.h.inc"

#define GET_OP_CLASSES
#include "SparseArray/Dialect/SparseArrayOps.h.inc"

namespace mlir {
namespace sparse_array {

/// The array type of `value`, or null when it has another type.
inline ArrayType getArrayType(Value value) {
  return dyn_cast<ArrayType>(value.getType());
}

/// Prints a fill value the way the format attribute spells it (`nan`,
/// `inf`, `-inf`, or the builtin literal), without the type.
void printFillValue(llvm::raw_ostream &os, TypedAttr fill);

/// Parses a scalar the way fill values are written: `nan : f32`,
/// `-inf : f64`, `-0.0 : f64`, `42 : i32`, `0x7FF8000000000001 : f64`.
ParseResult parseFillValue(AsmParser &parser, TypedAttr &value);

/// Prints `value : type` in the same spelling.
void printTypedFillValue(AsmPrinter &printer, TypedAttr value);

/// The value of an `arith.constant` of index type (a fixed coordinate in an
/// access), if `index` is one.
std::optional<int64_t> getConstantIndex(Value index);

/// One level of a kernel input as the kernel's loops see it (seed 001
/// §5.1): a stored level read at one index variable or constant, or one
/// part of a stored level read through sparse_array.linearize, whose
/// coordinate c then reads as (c / divisor) % modulus (the first part:
/// c / divisor, no modulus).
struct AccessedLevel {
  /// The stored level and the dimension it stores.
  unsigned level = 0, dim = 0;
  /// The index variable (a block argument) or constant coordinate.
  Value index;
  /// A split dimension's level read through sparse_array.linearize: one
  /// entry per part, the level's coordinate c giving the part's variable
  /// (c / divisor) % modulus.
  unsigned part = 0, parts = 1;
  int64_t divisor = 1, modulus = 0;
  bool isSplit() const { return parts > 1; }
  bool isLastPart() const { return part + 1 == parts; }
  /// A collapsed dimension read through sparse_array.delinearize: `index`
  /// is the variable x and the level's coordinate (x / collapseDivisor) %
  /// collapseModulus (no modulus, 0, for the first part).
  unsigned collapsePart = 0, collapseParts = 1;
  int64_t collapseDivisor = 1, collapseModulus = 0;
  bool isCollapsed() const { return collapseParts > 1; }
  /// A collapsed read of a split read (delinearize of a linearize: a
  /// reshape of a computed expression, seed 001 §5.2's composition): the
  /// linearize. `index` is then its last variable, whose loop iterates the
  /// product of the parts' levels within the window [w * n, w * n + n), w
  /// the linearization of the other variables and n the last size.
  LinearizeOp window;
};

/// The levels of the input `access` reads, in storage order, a linearized
/// dimension's level as one entry per part.
SmallVector<AccessedLevel> getAccessedLevels(AccessOp access);

/// The index variables (block arguments) an access index reads: itself, a
/// linearize's operands or a delinearize's operand (or its linearize's
/// operands); none for a constant.
SmallVector<BlockArgument> getIndexVariables(Value index);

/// The array a collapse of `dims` (C order, or F when `fortran`) gives when
/// it merges the levels storing them (adjacent, in the linearization's
/// order; null otherwise): the group becomes one level, full when all
/// were (CollapseLevels.cpp).
ArrayType getCollapsedStorageType(ArrayType source, ArrayRef<int64_t> dims,
                                  bool fortran);

/// The levels [first, first + count) that store `dims` in the order of a
/// collapse's linearization, when adjacent.
std::optional<std::pair<unsigned, unsigned>>
getCollapsedLevels(FormatAttr format, ArrayRef<int64_t> dims, bool fortran);

/// The level storing dimension `dim` when every level above it is full and
/// has no buffers: its parents are then the same positions in every array
/// of that format and shape, and a range of its positions owns a range of
/// positions at each lower level (StoredRanges.cpp).
std::optional<unsigned> getStoredRangeLevel(FormatAttr format, unsigned dim);

/// The level of the concatenated dimension when `op` moves stored ranges:
/// every input stored like the result (levels, order, widths, fill), and
/// above that level full levels (a stored range level) or ordered stored
/// ones that the move merges — unique ones, or a non-unique one right
/// above it (lib/Conversion/Shape/MoveRanges.cpp copies the parts' ranges
/// per parent instead of computing entries).
std::optional<unsigned> getMovedRangeLevel(ConcatOp op);

/// getMovedRangeLevel's condition on the result's storage alone: the
/// level of `dim` when a concatenation along it of parts all stored like
/// `format` moves their stored ranges.
std::optional<unsigned> getConcatRangeLevel(FormatAttr format, unsigned dim);

/// The same storage (levels, order, widths) and the same fill value: the
/// stored ranges of `a` are ranges of an array of type `b`.
bool isStoredAlike(ArrayType a, ArrayType b);

/// (dimension, level) of the one sliced dimension when `op` moves stored
/// ranges: a unit-step slice of a dimension of static size, the others
/// whole, source and result stored alike, a stored range level that is
/// full or ordered.
std::optional<std::pair<unsigned, unsigned>> getMovedRangeLevel(SliceOp op);

/// The level storing the split dimension when `op` keeps every stored
/// entry at its position (the inverse of a collapse that merges levels):
/// shapes static and not empty, source and result stored alike outside
/// the split (widths too where those levels have buffers; the group's are
/// written, so its widths are free), the
/// new dimensions on adjacent levels in the linearization's order — full
/// bufferless levels first, then either none (the split level full too) or
/// one level with positions and ordered coordinates (compressed) followed
/// only by levels with a coordinate per position (singletons; the first
/// then non-unique, as COO's), over an ordered unique source level with
/// positions and coordinates (lib/Conversion/Shape/SplitLevels.cpp).
std::optional<unsigned> getSplitStoredLevel(SplitOp op);

/// Whether `op` stacks matrices stored as COO (ordered rows with a
/// coordinate per position, a column per position under each) into a
/// CSR (a full row level over an ordered unique compressed one) along the
/// rows: every part's entries then keep their order, one range after the
/// other, and only the rows' starts are computed
/// (lib/Conversion/Shape/CooRows.cpp).
bool isConcatIntoRows(ConcatOp op);

/// Whether `op` concatenates matrices stored as CSR (full rows without
/// buffers over ordered unique columns) into COO (non-unique rows, one
/// column per position) along either dimension: the result's entries are
/// the parts' runs, part after part (rows) or row after row (columns), so
/// they are written at known positions (lib/Conversion/Shape/CooRows.cpp).
bool isConcatIntoCoo(ConcatOp op);

/// Whether `op` slices a range of rows (ascending by one, every column) of
/// a matrix stored as CSR into COO: the rows' entries are one range of
/// the source's, copied, with each row's coordinate written over its run
/// (lib/Conversion/Shape/CooRows.cpp).
bool isSliceIntoCoo(SliceOp op);

/// How sparse-array-lower-shape can lower an unfused shape operator
/// (slice, concat, split, collapse) without moving entries one by one:
/// the first of move_ranges, rows_from_coo, coo_from_rows, split_levels,
/// merge_levels its storage allows; null when only the runtime can (the
/// planner, sparse-array-build-lattices, records it as the op's `plan`).
ShapePlanAttr planShapeLowering(Operation *op);

/// Whether `op`'s operand and result storage allow `plan` (the verifier's
/// check of a recorded plan).
LogicalResult verifyShapePlan(Operation *op, ShapePlanAttr plan);

/// The plan recorded on shape operator `op` when it is `lowering` (null
/// otherwise): what sparse-array-lower-shape's patterns match on.
ShapePlanAttr getShapePlan(Operation *op, ShapeLowering lowering);

/// Whether two scalar constants are the same value: bit for bit (-0.0
/// differs from 0.0), except that all NaNs are one value whatever their
/// sign and payload (the fill comparison of the runtime and of generated
/// code).
bool isSameScalar(TypedAttr a, TypedAttr b);

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_DIALECT_SPARSEARRAY_H
