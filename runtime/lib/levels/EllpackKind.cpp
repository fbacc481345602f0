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

#include <algorithm>
#include <string>

namespace sa_rt {
namespace {

class EllpackKind final : public SlottedKind {
public:
  EllpackKind() : SlottedKind(sparse_array_levels::kEllpackTraits) {}

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
    uint64_t w = width(b);
    if (w == 0)
      return b.crdLen ? "has coordinates but width 0" : "";
    for (uint64_t q = 0; q < b.crdLen; ++q) {
      uint64_t c = b.getCrd(q);
      bool pad = c == padding(b);
      if (!pad && c >= dimSize)
        return "coordinate " + std::to_string(c) + " at position " +
               std::to_string(q) + " is outside the dimension (size " +
               std::to_string(dimSize) + ")";
      // Within a row: ascending entries, then padding only.
      if (q % w != 0) {
        uint64_t before = b.getCrd(q - 1);
        bool padBefore = before == padding(b);
        if ((padBefore && !pad) || (!padBefore && !pad && before >= c))
          return "coordinates not ascending, or an entry after padding, at "
                 "position " + std::to_string(q);
      }
    }
    return "";
  }

  uint64_t append(LevelBuffers &b, uint64_t parent, uint64_t coord,
                  uint64_t) const override {
    // Slots fill in order; the rows passed over since the last entry get
    // their padding now.
    freeUpTo(b, parent * width(b));
    uint64_t p = b.next++;
    b.setCrd(p, coord);
    return p;
  }
  void finish(LevelBuffers &b, uint64_t parents) const override {
    freeUpTo(b, parents * width(b));
  }

  ChildRange children(const LevelBuffers &b, uint64_t parent,
                      uint64_t) const override {
    uint64_t w = width(b);
    ChildRange r;
    r.lo = parent * w;
    r.hi = r.lo;
    while (r.hi < r.lo + w && b.getCrd(r.hi) != padding(b))
      ++r.hi;
    r.coords = ChildRange::Coords::FromBuffer;
    return r;
  }

private:
  static uint64_t padding(const LevelBuffers &b) { return b.freeSlot(); }
};

} // namespace

const LevelKind *ellpackLevelKind() {
  static EllpackKind kind;
  return &kind;
}

} // namespace sa_rt
