//===- Passes.h - sparse_array conversion passes ----------------*- C++ -*-===//

#ifndef SPARSEARRAY_CONVERSION_PASSES_H
#define SPARSEARRAY_CONVERSION_PASSES_H

#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace sparse_array {

#define GEN_PASS_DECL
#include "SparseArray/Conversion/Passes.h.inc"

/// Converts `!sparse_array.array` to its buffers (memref<?xT> per buffer,
/// then one index per dimension); every other type is kept.
class ArrayStorageTypeConverter : public TypeConverter {
public:
  ArrayStorageTypeConverter();
};

/// The shape lowerings below share bulk copies of at least
/// `parallelCopyMin` (> 0) elements out among threads (copyRange).
///
/// sparse_array.collapse by merging stored levels, where
/// getCollapsedStorageType applies and the result keeps the source's fill (a
/// conversion follows when its format is another); the others stay for the
/// runtime.
void populateCollapseLevelsPatterns(RewritePatternSet &patterns,
                                    int64_t parallelCopyMin = 0);

/// sparse_array.split whose entries keep their positions (getSplitStoredLevel):
/// the parts' coordinates computed per entry, the rest copied
/// (SplitLevels.cpp); the others stay for the runtime.
void populateSplitLevelsPatterns(RewritePatternSet &patterns,
                                 int64_t parallelCopyMin = 0);

/// sparse_array.slice and sparse_array.concat that move stored ranges
/// (getMovedRangeLevel) as copies of those ranges (MoveRanges.cpp).
void populateMoveRangesPatterns(RewritePatternSet &patterns,
                                int64_t parallelCopyMin = 0);

/// sparse_array.concat of COO parts into CSR rows (isConcatIntoRows): the
/// parts' columns and values copied a range at a time, the rows' starts
/// computed from their row coordinates; of CSR parts into COO
/// (isConcatIntoCoo) and slices of CSR rows into COO (isSliceIntoCoo):
/// the runs written at known positions (CooRows.cpp).
void populateCooRowsPatterns(RewritePatternSet &patterns,
                             int64_t parallelCopyMin = 0);

/// sparse_array.extract as a search for its point (LowerExtract.cpp).
void populateLowerExtractPatterns(RewritePatternSet &patterns);

/// Patterns of sparse-array-lower-storage for the storage, I/O and
/// conversion ops (function boundaries and scf are added by the pass).
void populateStorageToBuffersPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns);

/// Marks the ops these patterns lower as illegal and the function-like and
/// call ops as legal once their types are converted.
void configureStorageToBuffersTarget(ConversionTarget &target,
                                     const TypeConverter &converter);

/// memref.realloc of 1-D identity-layout memrefs -> the C library's realloc
/// (see sparse-array-realloc-to-llvm).
void populateReallocToLLVMPatterns(const LLVMTypeConverter &converter,
                                   RewritePatternSet &patterns);

/// The schedule a parallel loop of generated code asks for: "dynamic" on
/// the scf.parallel loops over parts (sparse-array-parts-to-openmp).
constexpr llvm::StringLiteral kScheduleAttrName = "sparse_array.schedule";

#define GEN_PASS_REGISTRATION
#include "SparseArray/Conversion/Passes.h.inc"

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_CONVERSION_PASSES_H
