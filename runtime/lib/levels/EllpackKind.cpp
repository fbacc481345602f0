//===- EllpackKind.cpp - The runtime half of the ellpack level ------------===//
//
// seed 002 §2 and Fig. 4 (ELL), rows outermost: below a full level, parent
// position p owns the W slots [p W, (p + 1) W) (W: the most entries any
// parent has, stored in the one-entry `width` buffer); its entries'
// coordinates ascend from p W and the slots after them are padding, with
// all-ones coordinates and the fill as values.
//
//===----------------------------------------------------------------------===//

#include "SlottedKind.h"

#include <string>

namespace sa_rt {
namespace {

class EllpackKind final : public PaddedRowsKind {
public:
  EllpackKind() : PaddedRowsKind(sparse_array_levels::kEllpackTraits) {}

  bool prepare(LevelBuffers &b, const uint64_t *const *cols, unsigned level,
               uint64_t n, std::string &error) const override {
    // W: the longest run of entries sharing the coordinates above (the
    // iterator ends a row at its first free slot).
    return makeWidth(b, mostChildren(b, cols, level, n), error);
  }

  std::string validateBuffers(const LevelBuffers &b,
                              uint64_t dimSize) const override {
    if (std::string why = checkWidth(b, dimSize); !why.empty())
      return why;
    return checkRows(b, dimSize);
  }
};

} // namespace

const LevelKind *ellpackLevelKind() {
  static EllpackKind kind;
  return &kind;
}

} // namespace sa_rt
