//===- EllpackKind.cpp - The runtime half of the ellpack level ------------===//
//
// seed 002 §2 and Fig. 4 (ELL), rows outermost: below a full level, parent
// position p owns the W slots [p W, (p + 1) W) (W: the most entries any
// parent has, stored in the one-entry `width` buffer); its entries'
// coordinates ascend from p W and the slots after them are padding, with
// all-ones coordinates and the fill as values.
//
//===----------------------------------------------------------------------===//

#include "../Format.h"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace sa_rt {
namespace {

class EllpackKind final : public LevelKind {
public:
  EllpackKind() : LevelKind(sparse_array_levels::kEllpackTraits) {}

  bool prepare(LevelBuffers &b, const uint64_t *const *cols, unsigned level,
               uint64_t n, std::string &error) const override {
    // Padding must not be a coordinate: the iterator ends a row at its
    // first slot holding a coordinate >= the extent.
    if (b.dim > padding(b)) {
      error = "a dimension of " + std::to_string(b.dim) +
              " leaves no coordinate free for padding at crd_width = " +
              std::to_string(b.crdWidth);
      return false;
    }
    // W: the longest run of entries sharing the coordinates above.
    uint64_t width = mostChildren(b, cols, level, n);
    void *buf = std::malloc(b.posWidth / 8);
    if (!buf) {
      error = "out of memory";
      return false;
    }
    b.slot[0] = buf;
    b.slotLen[0] = 1;
    set(b, 0, width);
    b.next = 0;
    return true;
  }

  std::string validateBuffers(const LevelBuffers &b,
                              uint64_t dimSize) const override {
    if (b.slotLen[0] != 1)
      return "width buffer has " + std::to_string(b.slotLen[0]) +
             " entries, expected 1";
    if (dimSize > padding(b))
      return "a dimension of " + std::to_string(dimSize) +
             " leaves no coordinate free for padding";
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

  bool numPositions(const LevelBuffers &b, uint64_t parents, uint64_t,
                    uint64_t, uint64_t &out) const override {
    return !__builtin_mul_overflow(parents, width(b), &out);
  }

  uint64_t append(LevelBuffers &b, uint64_t parent, uint64_t coord,
                  uint64_t) const override {
    // Slots fill in order; the rows passed over since the last entry get
    // their padding now.
    padUpTo(b, parent * width(b));
    uint64_t p = b.next++;
    b.setCrd(p, coord);
    return p;
  }
  void finish(LevelBuffers &b, uint64_t parents) const override {
    padUpTo(b, parents * width(b));
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
  static uint64_t width(const LevelBuffers &b) {
    return b.getSlot(0, 0, b.posWidth);
  }
  static void set(LevelBuffers &b, uint64_t k, uint64_t v) {
    b.setSlot(0, k, v, b.posWidth);
  }
  static uint64_t padding(const LevelBuffers &b) { return b.freeSlot(); }
  static void padUpTo(LevelBuffers &b, uint64_t end) {
    for (; b.next < end; ++b.next)
      b.setCrd(b.next, padding(b));
  }
};

} // namespace

const LevelKind *ellpackLevelKind() {
  static EllpackKind kind;
  return &kind;
}

} // namespace sa_rt
