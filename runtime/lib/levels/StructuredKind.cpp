//===- StructuredKind.cpp - The runtime half of N:M structured levels -----===//
//
// `structured[n, m]` (kStructuredTraits): rows of n slots, entries first
// (ascending, below m), then padding (all-ones coordinates, the fill as
// values) — ELL with its width given by the type, not stored.
//
//===----------------------------------------------------------------------===//

#include "SlottedKind.h"

#include <string>

namespace sa_rt {
namespace {

class StructuredKind final : public PaddedRowsKind {
public:
  StructuredKind() : PaddedRowsKind(sparse_array_levels::kStructuredTraits) {}

  std::string checkLevel(const LevelSpec &spec,
                         const uint64_t *extent) const override {
    uint64_t n = spec.params[0], m = spec.params[1];
    if (n < 1 || n > m)
      return "needs 1 <= n <= m, got n = " + std::to_string(n) +
             ", m = " + std::to_string(m);
    if (extent && *extent != m)
      return "must have extent " + std::to_string(m) + ", got " +
             std::to_string(*extent);
    return "";
  }

  bool prepare(LevelBuffers &b, const uint64_t *const *cols, unsigned level,
               uint64_t n, std::string &error) const override {
    if (std::string why = checkExtent(b); !why.empty()) {
      error = why;
      return false;
    }
    uint64_t most = mostChildren(b, cols, level, n);
    if (most > width(b)) {
      error = "a block holds " + std::to_string(most) +
              " entries, more than the " + std::to_string(width(b)) +
              " of structured[" + std::to_string(b.params[0]) + ", " +
              std::to_string(b.params[1]) + "]";
      return false;
    }
    b.next = 0;
    return true;
  }

  std::string validateBuffers(const LevelBuffers &b,
                              uint64_t dimSize) const override {
    if (std::string why = checkExtent(b); !why.empty())
      return why;
    return checkRows(b, dimSize);
  }

protected:
  uint64_t width(const LevelBuffers &b) const override { return b.params[0]; }

private:
  static std::string checkExtent(const LevelBuffers &b) {
    if (b.dim != b.params[1])
      return "has extent " + std::to_string(b.dim) + ", not m = " +
             std::to_string(b.params[1]);
    return "";
  }
};

} // namespace

const LevelKind *structuredLevelKind() {
  static StructuredKind kind;
  return &kind;
}

} // namespace sa_rt
