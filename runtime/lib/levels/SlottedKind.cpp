//===- SlottedKind.cpp - Levels of W slots per parent position ------------===//

#include "SlottedKind.h"

#include <cstdlib>

namespace sa_rt {

bool SlottedKind::makeWidth(LevelBuffers &b, uint64_t w, std::string &error) {
  // A free slot must not be a coordinate: iterators and probes stop there.
  if (b.dim > b.freeSlot()) {
    error = "a dimension of " + std::to_string(b.dim) +
            " leaves no coordinate free to mark empty slots at crd_width = " +
            std::to_string(b.crdWidth);
    return false;
  }
  if (b.posWidth == 32 && w > UINT32_MAX) {
    error = "a width of " + std::to_string(w) +
            " slots does not fit pos_width = 32";
    return false;
  }
  void *buf = std::malloc(b.posWidth / 8);
  if (!buf) {
    error = "out of memory";
    return false;
  }
  b.slot[0] = buf;
  b.slotLen[0] = 1;
  b.setSlot(0, 0, w, b.posWidth);
  b.next = 0;
  return true;
}

std::string SlottedKind::checkWidth(const LevelBuffers &b, uint64_t dimSize) {
  if (b.slotLen[0] != 1)
    return "width buffer has " + std::to_string(b.slotLen[0]) +
           " entries, expected 1";
  if (dimSize > b.freeSlot())
    return "a dimension of " + std::to_string(dimSize) +
           " leaves no coordinate free to mark empty slots";
  return "";
}

uint64_t PaddedRowsKind::append(LevelBuffers &b, uint64_t parent,
                                uint64_t coord, uint64_t) const {
  // Slots fill in order; the rows passed over since the last entry get
  // their padding now.
  freeUpTo(b, parent * width(b));
  uint64_t p = b.next++;
  b.setCrd(p, coord);
  return p;
}

void PaddedRowsKind::finish(LevelBuffers &b, uint64_t parents) const {
  freeUpTo(b, parents * width(b));
}

ChildRange PaddedRowsKind::children(const LevelBuffers &b, uint64_t parent,
                                    uint64_t) const {
  uint64_t w = width(b);
  ChildRange r;
  r.lo = parent * w;
  r.hi = r.lo;
  while (r.hi < r.lo + w && b.getCrd(r.hi) != b.freeSlot())
    ++r.hi;
  r.coords = ChildRange::Coords::FromBuffer;
  return r;
}

std::string PaddedRowsKind::checkRows(const LevelBuffers &b,
                                      uint64_t dimSize) const {
  uint64_t w = width(b);
  if (w == 0)
    return b.crdLen ? "has coordinates but width 0" : "";
  if (b.crdLen % w)
    return "has " + std::to_string(b.crdLen) +
           " coordinates, not a whole number of rows of " + std::to_string(w) +
           " slots";
  for (uint64_t q = 0; q < b.crdLen; ++q) {
    uint64_t c = b.getCrd(q);
    bool pad = c == b.freeSlot();
    if (!pad && c >= dimSize)
      return "coordinate " + std::to_string(c) + " at position " +
             std::to_string(q) + " is outside the dimension (size " +
             std::to_string(dimSize) + ")";
    // Within a row: ascending entries, then padding only.
    if (q % w != 0) {
      uint64_t before = b.getCrd(q - 1);
      bool padBefore = before == b.freeSlot();
      if ((padBefore && !pad) || (!padBefore && !pad && before >= c))
        return "coordinates not ascending, or an entry after padding, at "
               "position " + std::to_string(q);
    }
  }
  return "";
}

} // namespace sa_rt
