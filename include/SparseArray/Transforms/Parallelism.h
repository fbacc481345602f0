//===- Parallelism.h - Which kernel loops run in parallel -------*- C++ -*-===//
//
// The parallel plan of a kernel whose coiteration is planned: whether its
// outermost result loop may run its iterations on several threads (they
// must write disjoint parts of the output and carry nothing from one to
// the next), and from how many iterations on. sparse-array-plan-parallel
// records it as `#sparse_array.parallel`; sparse-array-lower-iterators
// follows it.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_TRANSFORMS_PARALLELISM_H
#define SPARSEARRAY_TRANSFORMS_PARALLELISM_H

#include "SparseArray/Dialect/SparseArray.h"

#include <optional>

namespace mlir {
namespace sparse_array {

struct ParallelOptions {
  /// Fewest iterations of the outermost loop worth a parallel region when
  /// that loop is the only one (each iteration one entry) and when inner
  /// loops follow (each iteration a row of work). 0: the defaults.
  int64_t minExtent = 0;
  /// Fewest stored values the kernel reads (see ParallelAttr's min_work)
  /// worth a parallel region. 0: the default.
  int64_t minWork = 0;
  /// Rows of a CSR/CSC result: counted then filled (two phases, the
  /// function evaluated twice), appended per part and joined (parts, the
  /// result copied once), parts placed in order as they finish (chained:
  /// when the inputs' entries bound the result's), or chosen (auto:
  /// chained where it applies, else by the kernel's work per entry).
  enum class Assembly { Auto, TwoPhase, Parts, Chained };
  Assembly assembly = Assembly::Auto;
};

/// "auto", "two-phase", "parts" or "chained"; nullopt for anything else.
std::optional<ParallelOptions::Assembly> parseAssembly(StringRef name);

/// Defaults of ParallelOptions::minExtent: an OpenMP region costs a few
/// microseconds, the work of some 10^4 entries.
constexpr int64_t kMinParallelEntries = 16384;
constexpr int64_t kMinParallelRows = 256;
/// Defaults of ParallelOptions::minWork, measured on two threads with
/// bench/shape: slice(A) * B of a 4,000-entry matrix took 0.135 ms in
/// parallel and 0.018 ms on one thread; a dense result (SpMV) was faster
/// in parallel from 84k on. A sparse result's parts (buffers of their
/// own, joined after) or phases cost more: slices of CSR into COO, hstacks
/// of CSR into COO and slice(A) * B were 1.1-3.4x slower in parallel at
/// 164k and 1.3M entries read (0.35 vs 0.10 ms, 1.8 vs 0.94 ms for the
/// slice into COO), and within 10% either way at 10.5M (slice(A) * B 22%
/// faster).
constexpr int64_t kMinParallelWork = 32768;
/// Fewest elements a bulk copy of a shape lowering (MoveRanges, CooRows,
/// CollapseLevels, SplitLevels) shares out among threads (256 KB of f64).
/// Measured on two threads with bench/shape: a fresh 84 MB copy took
/// 11-12 ms on two against 21-22 ms on one; the collapse of CSR into a
/// vector took 0.018-0.025 ms instead of 0.043-0.054 at 84k entries
/// (bcsstk13) and 0.064 instead of 0.165 at 164k.
constexpr int64_t kMinParallelCopy = int64_t(1) << 15;
constexpr int64_t kMinParallelWorkSparse = int64_t(1) << 21;

/// The plan for `kernel` (its `lattices` must be set).
ParallelAttr planParallelism(KernelOp kernel, const ParallelOptions &options);

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_TRANSFORMS_PARALLELISM_H
