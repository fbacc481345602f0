//===- Print.cpp - Exact printing of scalars ------------------------------===//
//
// Floats are printed with the fewest significant digits that read back to
// the same value (so text output round-trips), and the special values are
// spelled `inf`, `-inf`, `nan` as the text array format requires.
//
//===----------------------------------------------------------------------===//

#include "SparseArrayRuntime.h"
#include "Scalar.h"

#include <chrono>
#include <cinttypes>
#include <cstdio>

// One float formatter for scalars and arrays (Scalar.cpp), so a value
// prints the same wherever it appears.
template <typename F>
static int formatInto(char *buf, size_t size, F value) {
  char tmp[48];
  sa_rt::formatShortest(value, tmp);
  return std::snprintf(buf, size, "%s", tmp);
}

extern "C" int sa_rt_format_f64(char *buf, size_t size, double value) {
  return formatInto(buf, size, value);
}

extern "C" int sa_rt_format_f32(char *buf, size_t size, float value) {
  return formatInto(buf, size, value);
}

extern "C" double sa_rt_seconds(void) {
  using Clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(Clock::now().time_since_epoch())
      .count();
}

extern "C" void sa_rt_print_i64(int64_t value) {
  std::printf("%" PRId64, value);
}

extern "C" void sa_rt_print_u64(uint64_t value) {
  std::printf("%" PRIu64, value);
}

extern "C" void sa_rt_print_f64(double value) {
  char buf[64];
  sa_rt_format_f64(buf, sizeof(buf), value);
  std::fputs(buf, stdout);
}

extern "C" void sa_rt_print_f32(float value) {
  char buf[64];
  sa_rt_format_f32(buf, sizeof(buf), value);
  std::fputs(buf, stdout);
}

// Upstream's runner library prints floats with printf's %g (six
// significant digits, `-nan` for a NaN with its sign bit set); imported
// programs print the same text so that their CHECK lines hold.
extern "C" void sa_rt_print_f64_g(double value) { std::printf("%g", value); }

extern "C" void sa_rt_print_f32_g(float value) {
  std::printf("%g", static_cast<double>(value));
}

extern "C" void sa_rt_print_str(const char *text) { std::fputs(text, stdout); }

extern "C" void sa_rt_print_newline(void) { std::fputc('\n', stdout); }
