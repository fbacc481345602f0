//===- CodegenUtils.h - Small IR builders shared by codegen -----*- C++ -*-===//
//
// Helpers the kernel lowering's layers share (private to lib/Conversion).
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_LIB_CONVERSION_CODEGENUTILS_H
#define SPARSEARRAY_LIB_CONVERSION_CODEGENUTILS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir {
namespace sparse_array {
class ConcatOp;

Value constIndex(OpBuilder &b, Location loc, int64_t v);

/// The 1-D buffer type of `element`s (positions, coordinates, values).
MemRefType bufferOf(Type element);

/// Quotient and remainder by a divisor fixed where it is defined (an
/// extent, a buffer's length) for dividends below 2^63 (positions and
/// coordinates are): a 64-bit udiv costs tens of cycles, so a divisor that
/// is not a constant (which LLVM reduces itself) gets its reciprocal
/// floor((2^64 - 1) / max(d, 1)) once, right after its definition, and each
/// division a high multiply and one correction step (the estimate is never
/// more than one below the quotient for such dividends).
class InvariantDivisor {
public:
  explicit InvariantDivisor(Value divisor) : divisor(divisor) {}
  /// {n / d, n mod d}; d must be nonzero where they are evaluated.
  std::pair<Value, Value> divRem(OpBuilder &b, Location loc, Value n);
  Value getDivisor() const { return divisor; }

private:
  Value divisor;
  /// The reciprocal (i64), built on first use; null for constants.
  Value reciprocal;
};

/// Loads buffer[pos] as an index (positions and coordinates are unsigned).
Value loadIndex(OpBuilder &b, Location loc, Value buffer, Value pos);
/// buffer[0] as an index, loaded right after the buffer's definition: a
/// level's parameter (a width) read once, not per use, where stores to an
/// output keep LLVM from proving it unchanged.
Value loadParameter(OpBuilder &b, Location loc, Value buffer);
/// buffer[pos] = v, the index v cast to the buffer's integer type.
void storeIndex(OpBuilder &b, Location loc, Value v, Value buffer, Value pos);

/// guard && buffer[pos] == value, loading only when the guard holds (pos
/// may be out of bounds otherwise).
Value emitGuardedCoordinateIs(OpBuilder &b, Location loc, Value guard,
                              Value buffer, Value pos, Value value);

/// Row-major step: q * extent + c.
Value linearize(OpBuilder &b, Location loc, Value q, Value extent, Value c);

/// buffer shrunk (or grown) to `size` elements.
Value emitResize(OpBuilder &b, Location loc, Value buffer, Value size);

/// The run-time check that dimension `dim` of input `input` of `kernel` has
/// size `expected` (sa_rt_check_extent stops the program otherwise).
void emitExtentCheck(OpBuilder &b, Location loc, Operation *kernel,
                     unsigned input, unsigned dim, Value actual,
                     Value expected);
/// Run-time checks that the inputs of `concat` agree with the first in
/// every dimension but the concatenated one whose size is known only at run
/// time; sa_rt_check_concat stops the program otherwise. Kernels check their
/// inputs themselves: this is for concatenations lowered without one.
void emitConcatExtentChecks(OpBuilder &b, ConcatOp concat);
/// The run-time check that dimension `dim` of input `input` has at least
/// `stop` entries (sa_rt_check_slice): a slice reads below `stop`.
void emitSliceCheck(OpBuilder &b, Location loc, Operation *kernel,
                    unsigned input, unsigned dim, Value actual, int64_t stop);

/// A run-time error unless dimension `dim` of kernel input `input` (size
/// `actual`) is a multiple of `inner` (a split read).
void emitSplitCheck(OpBuilder &b, Location loc, Operation *kernel,
                    unsigned input, unsigned dim, Value actual, int64_t inner);

/// A run-time error unless dimension `dim` of kernel input `input` (size
/// `actual`), times `per` (the static sizes collapsed with it), splits into
/// exactly `windows` parts of `inner` entries (a reshape read in windows).
void emitWindowsCheck(OpBuilder &b, Location loc, Operation *kernel,
                      unsigned input, unsigned dim, Value actual, int64_t per,
                      int64_t inner, Value windows);

/// Marks `loop` (an scf.for) as one of a few iterations per execution (a
/// row's run of entries): vectorized without interleaving, so that the
/// vector body starts from a low trip count. LLVM's default interleaves
/// copy loops 4x, and runs of 5-10 entries then take the scalar
/// remainder after the vector loop's checks (CSR-into-COO hstack of banded
/// rows: 191 -> 118-134 us).
void markShortLoop(Operation *loop);

/// Marks `loop` (scf.for or scf.while) as running a few times (a segment
/// of N:M's n slots, an ELL row, a row's DIA diagonals): LLVM's runtime
/// unrolling by 8 would wrap each run of 2-11 entries in a remainder loop
/// and an unrolled body it seldom enters (2:4 SpMV: 11 -> 8 ms).
void markNotUnrolled(Operation *loop);

/// value != fill at run time, with isSameScalar's notion of equality (NaNs
/// alike, -0.0 is not 0.0), the fill comparison the runtime uses.
Value differsFrom(OpBuilder &b, Location loc, Value value, TypedAttr fill);

/// Whether OpenMP will run the next parallel region on more than one
/// thread (omp_get_max_threads() > 1), tested where the code runs.
Value severalThreads(OpBuilder &b, Location loc, Operation *anchor);

/// `condition` (i1), marked as almost always false (llvm.expect): the
/// branch it guards is a fallback. LLVM compiles loops reached only that
/// way small, neither vectorized nor unrolled (ExecutionEngine's
/// Optimizer.cpp): they are rarely run, and their code was a large part of
/// a kernel's compile time.
Value unlikely(OpBuilder &b, Location loc, Value condition);

/// Whether the float `value` is -0.0 (its bits, not ==).
Value isNegativeZero(OpBuilder &b, Location loc, Value value);

/// Counts at positions[1, rows] made positions by a running sum
/// (positions[0] is 0); the total, as an index.
Value emitCountsToPositions(OpBuilder &b, Location loc, Value positions,
                            Value rows);

/// The aligned address of a buffer's data, as i64 (for runtime calls).
Value bufferAddress(OpBuilder &b, Location loc, Value buffer);
/// `count` elements of `element` (an integer or float type) in bytes, i64.
Value byteCount(OpBuilder &b, Location loc, Value count, Type element);

/// The first p in [lo, hi) where below(p) is false, by bisection (below
/// must be true then false over the range); hi when it never is.
Value emitLowerBound(OpBuilder &b, Location loc, Value lo, Value hi,
                     function_ref<Value(OpBuilder &, Location, Value)> below);

/// for x in [0, n) body(x), with independent iterations: an scf.parallel
/// (OpenMP once convert-scf-to-openmp runs) when n >= minN — decided here
/// for a static n, at run time otherwise (an scf.if choosing between the
/// parallel loop and an scf.for, the body emitted in both).
void emitParallelFor(OpBuilder &b, Location loc, Value n, int64_t minN,
                     function_ref<void(OpBuilder &, Location, Value)> body);

/// Run `a` (of `na` points) followed by run `c` (of `nc`) for a combiner
/// without an identity: a run that visited no point has no value and is
/// skipped; the combiner runs only on two values.
Value combineCountedRuns(OpBuilder &b, Location loc, Value a, Value na,
                         Value c, Value nc,
                         function_ref<Value(OpBuilder &, Value, Value)> combine);

/// emitParallelFor sharing [0, n) out by work: `positions` (n + 1 entries,
/// non-decreasing) bound the work of each x, and the parallel loop runs
/// over up to kBalancedParts parts of equal work (the first x whose
/// position reaches p / parts of the total, by bisection), each an
/// scf.for over its xs. The loop over parts is scheduled dynamically
/// (emitParallelParts).
constexpr int64_t kBalancedParts = 256;
void emitBalancedParallelFor(
    OpBuilder &b, Location loc, Value n, int64_t minN, Value positions,
    function_ref<void(OpBuilder &, Location, Value)> body);
/// The same, in parallel when `parallelIf` (an i1; folded when constant)
/// holds, sequentially otherwise.
void emitBalancedParallelForIf(
    OpBuilder &b, Location loc, Value n, Value parallelIf, Value positions,
    function_ref<void(OpBuilder &, Location, Value)> body);

/// body(p, lo, hi) for the `parts` parts [lo, hi) of [0, n) in parallel
/// (an scf.parallel over p): parts of equal work by `positions` as above,
/// or of equal size without them. For bodies that set up per-part state
/// (a row-wise product's workspace and output buffers). The scf.parallel
/// carries kScheduleAttrName = "dynamic": parts of equal entries take
/// unequal time, so threads take them one at a time
/// (sparse-array-parts-to-openmp).
void emitParallelParts(
    OpBuilder &b, Location loc, Value n, Value parts, Value positions,
    function_ref<void(OpBuilder &, Location, Value, Value, Value)> body);
/// The same parts claimed in increasing order (sa_rt_chain_claim on the
/// runtime chain `chain`) by one worker per OpenMP thread: a part may wait
/// for the one before it (ChainedRowsOutput.cpp), which is then always
/// running.
void emitClaimedParts(
    OpBuilder &b, Location loc, Operation *anchor, Value n, Value parts,
    Value positions, Value chain,
    function_ref<void(OpBuilder &, Location, Value, Value, Value)> body);

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_LIB_CONVERSION_CODEGENUTILS_H
