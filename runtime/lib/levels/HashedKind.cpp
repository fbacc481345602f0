//===- HashedKind.cpp - The runtime half of the hashed level --------------===//
//
// seed 002 §3.1-3.4, Tables 2 and 3 (hashed: locate by linear probing,
// insert): parent position p owns the W slots [p W, (p + 1) W) of the
// coordinates buffer, W a power of two in the one-entry `width` buffer.
// Coordinate c sits in the first slot from hashedHome(c, W) on (wrapping
// within the segment) that is c or empty; empty slots hold all-ones
// coordinates and the fill as values. W is at least 3/2 the most
// children a parent has, so every segment keeps an empty slot (a probe for
// a missing coordinate stops there) and probes stay short.
//
//===----------------------------------------------------------------------===//

#include "SlottedKind.h"

#include <string>

namespace sa_rt {
namespace {

using sparse_array_levels::hashedHome;

class HashedKind final : public SlottedKind {
public:
  HashedKind() : SlottedKind(sparse_array_levels::kHashedTraits) {}

  bool prepare(LevelBuffers &b, const uint64_t *const *cols, unsigned level,
               uint64_t n, std::string &error) const override {
    uint64_t most = mostChildren(b, cols, level, n);
    // The fullest table at most two thirds full (a miss probes ~5 slots
    // there, fewer in the others); one slot always empty, so that a miss
    // stops.
    uint64_t width = 1;
    while (width < most + most / 2 + 1) {
      if (width > (UINT64_MAX >> 2)) {
        error = "a parent with " + std::to_string(most) +
                " children needs more slots than 64 bits can count";
        return false;
      }
      width <<= 1;
    }
    return makeWidth(b, width, error);
  }

  std::string validateBuffers(const LevelBuffers &b,
                              uint64_t dimSize) const override {
    if (std::string why = checkWidth(b, dimSize); !why.empty())
      return why;
    uint64_t w = width(b);
    if (w == 0 || (w & (w - 1)))
      return "width " + std::to_string(w) + " is not a power of two";
    if (b.crdLen % w)
      return "has " + std::to_string(b.crdLen) +
             " coordinates, not a whole number of tables of " +
             std::to_string(w) + " slots";
    for (uint64_t base = 0; base < b.crdLen; base += w) {
      bool anyEmpty = false;
      for (uint64_t s = 0; s < w; ++s) {
        uint64_t c = b.getCrd(base + s);
        if (c == b.freeSlot()) {
          anyEmpty = true;
          continue;
        }
        if (c >= dimSize)
          return "coordinate " + std::to_string(c) + " at position " +
                 std::to_string(base + s) +
                 " is outside the dimension (size " + std::to_string(dimSize) +
                 ")";
        // The probe for c from its home slot must reach s over other
        // coordinates only: an empty slot stops it early (unreachable), c
        // itself earlier is a repeat.
        for (uint64_t t = hashedHome(c, w); t != s; t = (t + 1) & (w - 1)) {
          uint64_t before = b.getCrd(base + t);
          if (before == b.freeSlot())
            return "coordinate " + std::to_string(c) + " at position " +
                   std::to_string(base + s) +
                   " is not reachable from its home slot " +
                   std::to_string(base + hashedHome(c, w)) +
                   " (an empty slot between)";
          if (before == c)
            return "repeats coordinate " + std::to_string(c) +
                   " at position " + std::to_string(base + s);
        }
      }
      if (!anyEmpty)
        return "table at position " + std::to_string(base) +
               " has no empty slot";
    }
    return "";
  }

  uint64_t append(LevelBuffers &b, uint64_t parent, uint64_t coord,
                  uint64_t) const override {
    // Insert (seed 002 Table 3). Appending, parents arrive in increasing
    // order: this parent's table and those passed over are emptied first
    // (after insertInit, all are).
    uint64_t w = width(b), base = parent * w;
    freeUpTo(b, base + w);
    uint64_t s = hashedHome(coord, w);
    for (uint64_t at = b.getCrd(base + s); at != b.freeSlot() && at != coord;
         at = b.getCrd(base + s))
      s = (s + 1) & (w - 1);
    b.setCrd(base + s, coord);
    return base + s;
  }
  void finish(LevelBuffers &b, uint64_t parents) const override {
    freeUpTo(b, parents * width(b));
  }
  void insertInit(LevelBuffers &b, uint64_t parents) const override {
    freeUpTo(b, parents * width(b));
  }

  ChildRange children(const LevelBuffers &b, uint64_t parent,
                      uint64_t) const override {
    ChildRange r;
    r.lo = parent * width(b);
    r.hi = r.lo + width(b);
    r.coords = ChildRange::Coords::FromBuffer;
    r.holes = true;
    return r;
  }
};

} // namespace

const LevelKind *hashedLevelKind() {
  static HashedKind kind;
  return &kind;
}

} // namespace sa_rt
