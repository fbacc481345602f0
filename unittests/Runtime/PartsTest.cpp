//===- PartsTest.cpp - Sparse results joined from parallel parts ----------===//
//
// The runtime side of assembly in parts: slots adopt malloc'ed buffers
// (trimmed to their bytes), parts are taken to their offsets in any order,
// positions lose a later part's leading 0 and are shifted.
//
//===----------------------------------------------------------------------===//

#include "SparseArrayRuntime.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

/// A malloc'ed buffer holding `values`, with `spare` unused elements after
/// them (a part's buffer has room to spare).
template <typename T>
int64_t mallocBuffer(const std::vector<T> &values, size_t spare) {
  auto *p = static_cast<T *>(std::malloc((values.size() + spare) * sizeof(T)));
  std::memcpy(p, values.data(), values.size() * sizeof(T));
  for (size_t i = 0; i < spare; ++i)
    p[values.size() + i] = T(-1);
  return reinterpret_cast<int64_t>(p);
}

int64_t address(void *p) { return reinterpret_cast<int64_t>(p); }

TEST(Parts, AdoptedBuffersJoinInPartOrderWhateverTheTakeOrder) {
  int64_t h = sa_rt_parts_new(3);
  std::vector<std::vector<int64_t>> crd = {{4, 7}, {}, {1, 2, 9}};
  std::vector<std::vector<double>> val = {{0.5, -0.0}, {}, {1.0, 2.0, 3.0}};
  for (int64_t p = 0; p < 3; ++p)
    sa_rt_parts_adopt(h, p, mallocBuffer(crd[p], 100),
                      int64_t(crd[p].size() * 8), mallocBuffer(val[p], 5),
                      int64_t(val[p].size() * 8));
  std::vector<int64_t> outCrd(5, 0);
  std::vector<double> outVal(5, 0);
  int64_t offsets[] = {0, 2, 2};
  for (int64_t p : {2, 0, 1}) {
    sa_rt_parts_take_part(h, p, 0, address(outCrd.data() + offsets[p]));
    sa_rt_parts_take_part(h, p, 1, address(outVal.data() + offsets[p]));
  }
  sa_rt_parts_free(h);
  EXPECT_EQ(outCrd, (std::vector<int64_t>{4, 7, 1, 2, 9}));
  EXPECT_EQ(outVal, (std::vector<double>{0.5, -0.0, 1.0, 2.0, 3.0}));
  EXPECT_TRUE(std::signbit(outVal[1]));
}

TEST(Parts, PositionsDropALaterPartsLeadingZeroAndShift) {
  for (int64_t width : {32, 64}) {
    int64_t h = sa_rt_parts_new(2);
    // Part 0: rows with 2 and 1 entries; part 1: rows with 0 and 3.
    if (width == 32) {
      sa_rt_parts_adopt_slot(h, 0, 0, mallocBuffer<uint32_t>({0, 2, 3}, 7), 12);
      sa_rt_parts_adopt_slot(h, 1, 0, mallocBuffer<uint32_t>({0, 0, 3}, 7), 12);
      std::vector<uint32_t> out(5, 99);
      sa_rt_parts_take_part_positions(h, 1, 0, address(out.data() + 3), 32, 3);
      sa_rt_parts_take_part_positions(h, 0, 0, address(out.data()), 32, 0);
      EXPECT_EQ(out, (std::vector<uint32_t>{0, 2, 3, 3, 6}));
    } else {
      sa_rt_parts_adopt_slot(h, 0, 0, mallocBuffer<uint64_t>({0, 2, 3}, 7), 24);
      sa_rt_parts_adopt_slot(h, 1, 0, mallocBuffer<uint64_t>({0, 0, 3}, 7), 24);
      std::vector<uint64_t> out(5, 99);
      sa_rt_parts_take_part_positions(h, 0, 0, address(out.data()), 64, 0);
      sa_rt_parts_take_part_positions(h, 1, 0, address(out.data() + 3), 64, 3);
      EXPECT_EQ(out, (std::vector<uint64_t>{0, 2, 3, 3, 6}));
    }
    sa_rt_parts_free(h);
  }
}

TEST(Parts, EmptyAndReplacedSlotsAndUntakenPartsAreFreed) {
  // Runs clean under ASan/LSan and valgrind: an empty buffer is freed on
  // adoption, a slot adopted twice frees the first buffer, and free
  // releases parts never taken.
  int64_t h = sa_rt_parts_new(2);
  sa_rt_parts_adopt_slot(h, 0, 0, mallocBuffer<int64_t>({}, 4), 0);
  sa_rt_parts_adopt_slot(h, 0, 1, mallocBuffer<int64_t>({1}, 4), 8);
  sa_rt_parts_adopt_slot(h, 0, 1, mallocBuffer<int64_t>({5, 6}, 4), 16);
  sa_rt_parts_adopt_slot(h, 1, 3, mallocBuffer<int64_t>({8}, 0), 8);
  std::vector<int64_t> out(2, 0);
  sa_rt_parts_take_part(h, 0, 0, address(out.data())); // empty: no bytes
  sa_rt_parts_take_part(h, 0, 1, address(out.data()));
  EXPECT_EQ(out, (std::vector<int64_t>{5, 6}));
  sa_rt_parts_free(h);
}

} // namespace
