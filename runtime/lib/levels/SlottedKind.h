//===- SlottedKind.h - Levels of W slots per parent position -----*- C++ -*-===//
//
// What seed 002's ELL and hashed levels share: parent position p owns the W
// slots [p W, (p + 1) W) of the coordinates buffer (W in the one-entry
// `width` buffer, pos_width wide); a slot without an entry holds the
// all-ones coordinate (free) and the fill as its value, so the dimension
// must leave that coordinate free.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_ARRAY_RUNTIME_SLOTTEDKIND_H
#define SPARSE_ARRAY_RUNTIME_SLOTTEDKIND_H

#include "../Format.h"

#include <string>

namespace sa_rt {

class SlottedKind : public LevelKind {
public:
  using LevelKind::LevelKind;

  bool numPositions(const LevelBuffers &b, uint64_t parents, uint64_t,
                    uint64_t, uint64_t &out) const override {
    return !__builtin_mul_overflow(parents, width(b), &out);
  }

protected:
  /// W: by default the one entry of the `width` buffer (declared first).
  virtual uint64_t width(const LevelBuffers &b) const {
    return b.getSlot(0, 0, b.posWidth);
  }
  /// The width buffer holding `w` (prepare), or false with the reason when
  /// the dimension leaves no coordinate free or memory runs out.
  static bool makeWidth(LevelBuffers &b, uint64_t w, std::string &error);
  /// The width buffer's and the dimension's checks (validateBuffers); ""
  /// when they hold.
  static std::string checkWidth(const LevelBuffers &b, uint64_t dimSize);
  /// Marks the slots from b.next up to `end` free.
  static void freeUpTo(LevelBuffers &b, uint64_t end) {
    for (; b.next < end; ++b.next)
      b.setCrd(b.next, b.freeSlot());
  }
};

/// Rows of W slots holding their entries first, coordinates ascending, then
/// padding (seed 002's ELL; N:M structured levels): what appending,
/// iterating and validating such rows take.
class PaddedRowsKind : public SlottedKind {
public:
  using SlottedKind::SlottedKind;

  uint64_t append(LevelBuffers &b, uint64_t parent, uint64_t coord,
                  uint64_t) const override;
  void finish(LevelBuffers &b, uint64_t parents) const override;
  ChildRange children(const LevelBuffers &b, uint64_t parent,
                      uint64_t) const override;

protected:
  /// Every coordinate below `dimSize` or padding, ascending within a row,
  /// no entry after padding ("" when so).
  std::string checkRows(const LevelBuffers &b, uint64_t dimSize) const;
};

} // namespace sa_rt

#endif // SPARSE_ARRAY_RUNTIME_SLOTTEDKIND_H
