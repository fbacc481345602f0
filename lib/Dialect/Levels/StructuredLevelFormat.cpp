//===- StructuredLevelFormat.cpp - N:M structured sparsity ----------------===//
//
// The compiler's half of `structured[n, m]` (kStructuredTraits,
// SparseArrayLevelTraits.h): what its parameters and extent must be.
// Upstream's n:m levels (`j mod 4 : structured[2, 4]`) import as these.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Dialect/LevelFormat.h"

using namespace mlir;
using namespace mlir::sparse_array;

namespace {

class StructuredLevelFormat final : public LevelFormat {
public:
  StructuredLevelFormat()
      : LevelFormat(sparse_array_levels::kStructuredTraits) {}

  std::optional<std::string>
  checkParams(ArrayRef<uint64_t> params) const override {
    uint64_t n = params[0], m = params[1];
    if (n < 1 || n > m)
      return "needs 1 <= n <= m, got n = " + std::to_string(n) +
             ", m = " + std::to_string(m);
    return std::nullopt;
  }

  std::optional<std::string>
  checkExtent(const LevelSpec &spec,
              std::optional<uint64_t> extent) const override {
    // The level is the place in a block of m. A dynamic extent is checked
    // where an array is made (the runtime's StructuredKind).
    uint64_t m = spec.params[1];
    if (extent && *extent != m)
      return "must have extent " + std::to_string(m) + ", got " +
             std::to_string(*extent);
    return std::nullopt;
  }
};

} // namespace

std::unique_ptr<LevelFormat> mlir::sparse_array::makeStructuredLevelFormat() {
  return std::make_unique<StructuredLevelFormat>();
}
