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
  /// Rows of a CSR/CSC result: counted then filled (two phases, the
  /// function evaluated twice), appended per part and joined (parts, the
  /// result copied once), or chosen by the kernel's work per entry.
  enum class Assembly { Auto, TwoPhase, Parts };
  Assembly assembly = Assembly::Auto;
};

/// "auto", "two-phase" or "parts"; nullopt for anything else.
std::optional<ParallelOptions::Assembly> parseAssembly(StringRef name);

/// Defaults of ParallelOptions::minExtent: an OpenMP region costs a few
/// microseconds, the work of some 10^4 entries.
constexpr int64_t kMinParallelEntries = 16384;
constexpr int64_t kMinParallelRows = 256;

/// The plan for `kernel` (its `lattices` must be set).
ParallelAttr planParallelism(KernelOp kernel, const ParallelOptions &options);

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_TRANSFORMS_PARALLELISM_H
