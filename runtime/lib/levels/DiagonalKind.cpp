//===- DiagonalKind.cpp - The runtime half of the diagonal level ----------===//
//
// seed 002 §3.1, Table 2 (offset and range level functions), Fig. 3c (DIA):
// a level below a full level whose coordinates are its parent's plus one of
// K stored, ascending offsets. Parent position p owns positions
// [p K, (p + 1) K); those whose coordinate leaves the dimension are padding
// and hold the fill.
//
//===----------------------------------------------------------------------===//

#include "../Format.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

namespace sa_rt {
namespace {

class DiagonalKind final : public LevelKind {
public:
  DiagonalKind() : LevelKind(sparse_array_levels::kDiagonalTraits) {}

  bool prepare(LevelBuffers &b, const uint64_t *const *cols, unsigned level,
               uint64_t n, std::string &error) const override {
    const uint64_t *parentCrd = cols[level - 1], *crd = cols[level];
    // The distinct differences coordinate - parent coordinate, ascending.
    std::vector<int64_t> offsets(n);
    for (uint64_t e = 0; e < n; ++e)
      offsets[e] = static_cast<int64_t>(crd[e]) -
                   static_cast<int64_t>(parentCrd[e]);
    std::sort(offsets.begin(), offsets.end());
    offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
    if (b.crdWidth == 32 &&
        !offsets.empty() &&
        (offsets.front() < INT32_MIN || offsets.back() > INT32_MAX)) {
      error = "a diagonal offset does not fit crd_width = 32";
      return false;
    }
    unsigned bytes = b.crdWidth / 8;
    void *buf = std::malloc(std::max<uint64_t>(offsets.size(), 1) * bytes);
    if (!buf) {
      error = "out of memory for " + std::to_string(offsets.size()) +
              " diagonal offsets";
      return false;
    }
    for (uint64_t k = 0; k < offsets.size(); ++k)
      store(b, buf, k, offsets[k]);
    b.slot[0] = buf;
    b.slotLen[0] = offsets.size();
    return true;
  }

  std::string validateBuffers(const LevelBuffers &b,
                              uint64_t dimSize) const override {
    for (uint64_t k = 0; k < b.slotLen[0]; ++k) {
      int64_t o = offset(b, k);
      if (k && o <= offset(b, k - 1))
        return "diagonal offsets are not strictly ascending at " +
               std::to_string(k);
      // An offset no row can use would be all padding: a bound on the
      // coordinates computed from it, which stay within the dimension.
      if (o <= -static_cast<int64_t>(b.parentDim) ||
          o >= static_cast<int64_t>(dimSize))
        return "diagonal offset " + std::to_string(o) +
               " lies outside the matrix";
    }
    return "";
  }

  bool numPositions(const LevelBuffers &b, uint64_t parents, uint64_t,
                    uint64_t, uint64_t &out) const override {
    return !__builtin_mul_overflow(parents, b.slotLen[0], &out);
  }
  uint64_t posLength(uint64_t) const override { return 0; }
  uint64_t crdLength(uint64_t) const override { return 0; }

  uint64_t append(LevelBuffers &b, uint64_t parent, uint64_t coord,
                  uint64_t) const override {
    int64_t d = static_cast<int64_t>(coord) -
                static_cast<int64_t>(parent % b.parentDim);
    uint64_t lo = 0, hi = b.slotLen[0];
    while (lo < hi) { // the offset is there: prepare collected it
      uint64_t mid = lo + (hi - lo) / 2;
      if (offset(b, mid) < d)
        lo = mid + 1;
      else
        hi = mid;
    }
    return parent * b.slotLen[0] + lo;
  }

  ChildRange children(const LevelBuffers &b, uint64_t parent,
                      uint64_t dimSize) const override {
    // Seed 002's range level function: the offsets that keep the
    // coordinate r + offset inside [0, dimSize).
    int64_t r = static_cast<int64_t>(parent % b.parentDim);
    uint64_t K = b.slotLen[0], lo = 0, hi = K;
    while (lo < K && offset(b, lo) < -r)
      ++lo;
    while (hi > lo && offset(b, hi - 1) >= static_cast<int64_t>(dimSize) - r)
      --hi;
    ChildRange range;
    range.lo = parent * K + lo;
    range.hi = parent * K + hi;
    range.coords = ChildRange::Coords::FromKind;
    return range;
  }

  uint64_t coordinateAt(const LevelBuffers &b, uint64_t pos) const override {
    uint64_t K = b.slotLen[0];
    return static_cast<uint64_t>(static_cast<int64_t>(pos / K % b.parentDim) +
                                 offset(b, pos % K));
  }

private:
  static int64_t offset(const LevelBuffers &b, uint64_t k) {
    return b.crdWidth == 32 ? static_cast<const int32_t *>(b.slot[0])[k]
                            : static_cast<const int64_t *>(b.slot[0])[k];
  }
  static void store(const LevelBuffers &b, void *buf, uint64_t k, int64_t v) {
    if (b.crdWidth == 32)
      static_cast<int32_t *>(buf)[k] = static_cast<int32_t>(v);
    else
      static_cast<int64_t *>(buf)[k] = v;
  }
};

} // namespace

const LevelKind *diagonalLevelKind() {
  static DiagonalKind kind;
  return &kind;
}

} // namespace sa_rt
