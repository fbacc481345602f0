//===- LooseCompressedKind.cpp - The runtime half of loose_compressed -----===//
//
// A compressed level (seed 002 §3.1) whose parent position p owns the
// positions [bounds[2 p], bounds[2 p + 1]) (kLooseCompressedTraits): the
// segments may leave gaps, so an array can be assembled from buffers whose
// rows have slack (upstream's loose_compressed). Packed here without gaps:
// appends count each parent's children, finish lays the segments end to
// end.
//
//===----------------------------------------------------------------------===//

#include "../Format.h"

#include <cstdlib>
#include <string>

namespace sa_rt {
namespace {

class LooseCompressedKind final : public LevelKind {
public:
  LooseCompressedKind()
      : LevelKind(sparse_array_levels::kLooseCompressedTraits) {}

  bool prepare(LevelBuffers &b, const uint64_t *const *, unsigned, uint64_t,
               std::string &error) const override {
    uint64_t len;
    if (__builtin_mul_overflow(b.parents, uint64_t(2), &len)) {
      error = "its bounds overflow 64 bits";
      return false;
    }
    // calloc: every parent's count starts at 0 (one byte for none).
    void *buf = std::calloc(len ? len : 1, b.posWidth / 8);
    if (!buf) {
      error = "out of memory";
      return false;
    }
    b.slot[0] = buf;
    b.slotLen[0] = len;
    b.next = 0;
    return true;
  }

  std::string validateBuffers(const LevelBuffers &b,
                              uint64_t dimSize) const override {
    if (b.slotLen[0] != 2 * b.parents)
      return "bounds buffer has " + std::to_string(b.slotLen[0]) +
             " entries, expected " + std::to_string(2 * b.parents);
    for (uint64_t p = 0; p < b.parents; ++p) {
      uint64_t lo = bound(b, 2 * p), hi = bound(b, 2 * p + 1);
      if (lo > hi || hi > b.crdLen)
        return "segment [" + std::to_string(lo) + ", " + std::to_string(hi) +
               ") of parent position " + std::to_string(p) +
               " is not within its " + std::to_string(b.crdLen) +
               " coordinates";
      // Only entries hold coordinates; a gap may hold anything.
      for (uint64_t q = lo; q < hi; ++q)
        if (b.getCrd(q) >= dimSize)
          return "coordinate " + std::to_string(b.getCrd(q)) +
                 " at position " + std::to_string(q) +
                 " is outside the dimension (size " + std::to_string(dimSize) +
                 ")";
    }
    return "";
  }

  bool numPositions(const LevelBuffers &, uint64_t, uint64_t, uint64_t groups,
                    uint64_t &out) const override {
    out = groups;
    return true;
  }

  uint64_t append(LevelBuffers &b, uint64_t parent, uint64_t coord,
                  uint64_t) const override {
    uint64_t p = b.next++;
    b.setCrd(p, coord);
    set(b, 2 * parent + 1, bound(b, 2 * parent + 1) + 1);
    return p;
  }
  void finish(LevelBuffers &b, uint64_t parents) const override {
    uint64_t end = 0;
    for (uint64_t p = 0; p < parents; ++p) {
      uint64_t count = bound(b, 2 * p + 1);
      set(b, 2 * p, end);
      end += count;
      set(b, 2 * p + 1, end);
    }
  }

  ChildRange children(const LevelBuffers &b, uint64_t parent,
                      uint64_t) const override {
    ChildRange r;
    r.lo = bound(b, 2 * parent);
    r.hi = bound(b, 2 * parent + 1);
    r.coords = ChildRange::Coords::FromBuffer;
    return r;
  }

private:
  static uint64_t bound(const LevelBuffers &b, uint64_t k) {
    return b.posWidth == 32 ? static_cast<const uint32_t *>(b.slot[0])[k]
                            : static_cast<const uint64_t *>(b.slot[0])[k];
  }
  static void set(LevelBuffers &b, uint64_t k, uint64_t v) {
    if (b.posWidth == 32)
      static_cast<uint32_t *>(b.slot[0])[k] = static_cast<uint32_t>(v);
    else
      static_cast<uint64_t *>(b.slot[0])[k] = v;
  }
};

} // namespace

const LevelKind *looseCompressedLevelKind() {
  static LooseCompressedKind kind;
  return &kind;
}

} // namespace sa_rt
