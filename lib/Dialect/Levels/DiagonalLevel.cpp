//===- DiagonalLevel.cpp - The diagonal level format (DIA) ----------------===//
//
// seed 002 §3.1 (offset and range levels, Table 2; DIA in Fig. 3c and 4):
// one level below a full level whose coordinates are the parent's plus one
// of K stored diagonal offsets. [dense, diagonal] is DIA with its rows
// outermost. Its traits (buffers, properties) are shared with the runtime
// (SparseArrayLevelTraits.h); its iterator is lib/Conversion/Levels.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Dialect/LevelFormat.h"

using namespace mlir;
using namespace mlir::sparse_array;

namespace {

class DiagonalLevelFormat final : public LevelFormat {
public:
  DiagonalLevelFormat() : LevelFormat(sparse_array_levels::kDiagonalTraits) {}
  std::optional<std::string>
  checkParent(std::optional<LevelSpec> parent) const override {
    // The iterator reads the parent's coordinate off its position
    // (p mod extent), which only a full parent gives.
    if (!parent || !parent->isFull())
      return std::string("must follow a full (dense) level");
    return std::nullopt;
  }
};

} // namespace

std::unique_ptr<LevelFormat> mlir::sparse_array::makeDiagonalLevelFormat() {
  return std::make_unique<DiagonalLevelFormat>();
}
