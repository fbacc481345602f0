//===- PrintTest.cpp - Exact float formatting of the runtime --------------===//

#include "SparseArrayRuntime.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>

namespace {

std::string f64(double v) {
  char buf[64];
  sa_rt_format_f64(buf, sizeof(buf), v);
  return buf;
}
std::string f32(float v) {
  char buf[64];
  sa_rt_format_f32(buf, sizeof(buf), v);
  return buf;
}

TEST(RuntimePrint, SpecialValuesAreSpelledOut) {
  EXPECT_EQ(f64(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(f64(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(f64(std::nan("")), "nan");
  EXPECT_EQ(f32(-std::numeric_limits<float>::infinity()), "-inf");
  EXPECT_EQ(f64(-0.0), "-0");
  EXPECT_EQ(f64(0.1), "0.1");
  EXPECT_EQ(f64(1.0), "1");
  EXPECT_EQ(f32(0.1f), "0.1");
}

// Fewest digits, but no exponent when a plain spelling is as exact.
TEST(RuntimePrint, PlainSpellingPreferred) {
  EXPECT_EQ(f64(10.0), "10");
  EXPECT_EQ(f64(65504.0), "65504");
  EXPECT_EQ(f64(1e16), "10000000000000000");
  EXPECT_EQ(f64(1e300), "1e+300");
  EXPECT_EQ(f64(1e-7), "1e-07");
  EXPECT_EQ(f64(0.0001), "0.0001");
  EXPECT_EQ(f32(1e10f), "1e+10");
}

TEST(RuntimePrint, DoublesRoundTripExactly) {
  std::mt19937_64 rng(1);
  const double fixed[] = {std::numeric_limits<double>::max(),
                          std::numeric_limits<double>::min(),
                          std::numeric_limits<double>::denorm_min(),
                          -std::numeric_limits<double>::denorm_min(),
                          1.0 / 3.0, 2.5e-300};
  for (double v : fixed)
    EXPECT_EQ(std::strtod(f64(v).c_str(), nullptr), v) << f64(v);
  for (int i = 0; i < 20000; ++i) {
    uint64_t bits = rng();
    double v;
    std::memcpy(&v, &bits, sizeof(v));
    if (std::isnan(v))
      continue;
    double back = std::strtod(f64(v).c_str(), nullptr);
    EXPECT_EQ(std::memcmp(&back, &v, sizeof(v)), 0) << f64(v);
  }
}

TEST(RuntimePrint, FloatsRoundTripExactly) {
  std::mt19937 rng(2);
  for (int i = 0; i < 20000; ++i) {
    uint32_t bits = rng();
    float v;
    std::memcpy(&v, &bits, sizeof(v));
    if (std::isnan(v))
      continue;
    float back = std::strtof(f32(v).c_str(), nullptr);
    EXPECT_EQ(std::memcmp(&back, &v, sizeof(v)), 0) << f32(v);
  }
}

TEST(RuntimeInputs, ListIsCopiedAndIndexed) {
  std::string a = "first.mtx", b = "second.tns";
  const char *paths[] = {a.c_str(), b.c_str()};
  sa_rt_set_inputs(2, paths);
  a = "changed";
  EXPECT_EQ(sa_rt_num_inputs(), 2);
  EXPECT_STREQ(sa_rt_input_path(0), "first.mtx");
  EXPECT_STREQ(sa_rt_input_path(1), "second.tns");
}

TEST(RuntimeInputs, OutOfRangeIsAFatalError) {
  sa_rt_set_inputs(0, nullptr);
  EXPECT_EXIT(sa_rt_input_path(0), ::testing::ExitedWithCode(2),
              "reads input #0 but 0 input\\(s\\) were given");
}

TEST(RuntimeChecks, WindowsOfAReshapeAreCountedExactly) {
  // 2 rows of 4 in windows of 2: 4 windows, the loop's extent.
  sa_rt_check_windows(0, 0, 2, 4, 2, 4);
  EXPECT_EXIT(sa_rt_check_windows(0, 0, 2, 4, 3, 2),
              ::testing::ExitedWithCode(2),
              "holds 2 x 4 entries, which a split into parts of 3 entries "
              "cannot divide");
  // 3 windows of 2 over one row of 4: floor(3 * 2 / 4) = 1 is no match.
  EXPECT_EXIT(sa_rt_check_windows(1, 0, 1, 4, 2, 3),
              ::testing::ExitedWithCode(2),
              "1 x 4 entries, 2 parts of 2, but the kernel's loop over the "
              "parts .* has 3");
  // 2^62 rows of 4 wrap to 0 entries in 64 bits: no false match with 0.
  EXPECT_EXIT(sa_rt_check_windows(0, 0, int64_t(1) << 62, 4, 2, 0),
              ::testing::ExitedWithCode(2), "but the kernel's loop");
}

} // namespace
