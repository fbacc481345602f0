//===- Print.cpp - Exact printing of scalars ------------------------------===//
//
// Floats are printed with the fewest significant digits that read back to
// the same value (so text output round-trips), and the special values are
// spelled `inf`, `-inf`, `nan` as the text array format requires.
//
//===----------------------------------------------------------------------===//

#include "SparseArrayRuntime.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

template <typename T> static T parse(const char *text);
template <> double parse<double>(const char *text) {
  return std::strtod(text, nullptr);
}
// strtof rounds once, directly to float (strtod + narrowing could round
// twice).
template <> float parse<float>(const char *text) {
  return std::strtof(text, nullptr);
}

template <typename T>
static int formatFloat(char *buf, size_t size, T value, int maxDigits) {
  if (std::isnan(value))
    return std::snprintf(buf, size, "nan");
  if (std::isinf(value))
    return std::snprintf(buf, size, value < 0 ? "-inf" : "inf");
  // The fewest significant digits that read back exactly; then, among the
  // equally exact longer spellings, the first without an exponent (10, not
  // 1e+01), if there is one within the type's maximum precision.
  int digits = 1;
  for (; digits < maxDigits; ++digits) {
    std::snprintf(buf, size, "%.*g", digits, static_cast<double>(value));
    T reread = parse<T>(buf);
    if (reread == value && std::signbit(reread) == std::signbit(value))
      break;
  }
  for (int more = digits; more <= maxDigits; ++more) {
    int length =
        std::snprintf(buf, size, "%.*g", more, static_cast<double>(value));
    if (!std::strchr(buf, 'e'))
      return length;
  }
  return std::snprintf(buf, size, "%.*g", digits, static_cast<double>(value));
}

extern "C" int sa_rt_format_f64(char *buf, size_t size, double value) {
  return formatFloat(buf, size, value, 17);
}

extern "C" int sa_rt_format_f32(char *buf, size_t size, float value) {
  return formatFloat(buf, size, value, 9);
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

extern "C" void sa_rt_print_str(const char *text) { std::fputs(text, stdout); }

extern "C" void sa_rt_print_newline(void) { std::fputc('\n', stdout); }
