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

} // namespace sa_rt
