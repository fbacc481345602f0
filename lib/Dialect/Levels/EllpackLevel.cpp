//===- EllpackLevel.cpp - The ellpack level format (ELL) ------------------===//
//
// seed 002 §2 and Fig. 4 (ELL), rows outermost: below a full level, W slots
// per parent, its entries first (ascending coordinates), then padding.
// [dense, ellpack] is ELLPACK for matrices whose rows have about the same
// number of entries (meshes). Traits shared with the runtime
// (SparseArrayLevelTraits.h); iterator in lib/Conversion/Levels.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Dialect/LevelFormat.h"

using namespace mlir;
using namespace mlir::sparse_array;

namespace {

class EllpackLevelFormat final : public LevelFormat {
public:
  EllpackLevelFormat() : LevelFormat(sparse_array_levels::kEllpackTraits) {}
  std::optional<std::string>
  checkParent(std::optional<LevelSpec> parent) const override {
    // Slots are counted per parent position, W to each: a full parent.
    if (!parent || !parent->isFull())
      return std::string("must follow a full (dense) level");
    return std::nullopt;
  }
};

} // namespace

std::unique_ptr<LevelFormat> mlir::sparse_array::makeEllpackLevelFormat() {
  return std::make_unique<EllpackLevelFormat>();
}
