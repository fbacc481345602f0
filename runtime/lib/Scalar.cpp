//===- Scalar.cpp - Element kinds: parse, format, compare -----------------===//

#include "Scalar.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

namespace sa_rt {

namespace {
struct ElemInfo {
  const char *name;
  unsigned bytes;
  bool isFloat;
  unsigned intBits;
};
constexpr ElemInfo kElems[] = {
    {"i1", 1, false, 1},    {"i8", 1, false, 8},    {"i16", 2, false, 16},
    {"i32", 4, false, 32},  {"i64", 8, false, 64},  {"f16", 2, true, 0},
    {"bf16", 2, true, 0},   {"f32", 4, true, 0},    {"f64", 8, true, 0},
};
const ElemInfo &info(Elem e) { return kElems[static_cast<unsigned>(e)]; }

uint64_t f64Bits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}
double bitsF64(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}
uint64_t f32Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
float bitsF32(uint64_t b) {
  uint32_t w = static_cast<uint32_t>(b);
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}

/// The value of a float kind as a double (exact for every kind).
double floatValue(Elem e, uint64_t bits) {
  switch (e) {
  case Elem::F16:
    return smallFloatToDouble(static_cast<uint32_t>(bits), 5, 10);
  case Elem::BF16:
    return smallFloatToDouble(static_cast<uint32_t>(bits), 8, 7);
  case Elem::F32:
    return bitsF32(bits);
  default:
    return bitsF64(bits);
  }
}

/// Parses decimal digits with an optional sign into [-2^63, 2^64).
ParseStatus parseInteger(std::string_view t, bool &negative,
                         uint64_t &magnitude) {
  negative = !t.empty() && t[0] == '-';
  std::string_view digits = t.substr(!t.empty() && (t[0] == '+' || t[0] == '-'));
  if (digits.empty())
    return ParseStatus::NotANumber;
  if (parseDecimal(digits, magnitude))
    return ParseStatus::Ok;
  bool allDigits = true;
  for (char c : digits)
    allDigits = allDigits && c >= '0' && c <= '9';
  if (allDigits)
    return ParseStatus::OutOfRange;
  // "1.5", "1e3", "inf": a number, but not an integer.
  double ignored;
  auto [ptr, ec] = std::from_chars(t.data() + (t[0] == '+'),
                                   t.data() + t.size(), ignored);
  return ec == std::errc() && ptr == t.data() + t.size()
             ? ParseStatus::NotAnInteger
             : ParseStatus::NotANumber;
}

/// A NaN of `width` bits: `nan` for the default quiet NaN, `-nan` for it
/// with the sign bit, else its bits in hex (`0x7FF8000000000001`), so that
/// every NaN prints distinctly and reads back to its bits (fills compare
/// bit for bit: docs/README.md, "Fill values are bits").
int formatNaN(uint64_t bits, unsigned width, unsigned mantissa, char *buf) {
  uint64_t sign = 1ull << (width - 1);
  uint64_t exponent = (sign - 1) & ~((1ull << mantissa) - 1);
  uint64_t quiet = exponent | (1ull << (mantissa - 1));
  if (bits == quiet)
    return std::snprintf(buf, 40, "nan");
  if (bits == (quiet | sign))
    return std::snprintf(buf, 40, "-nan");
  return std::snprintf(buf, 40, "0x%0*llX", int(width / 4),
                       static_cast<unsigned long long>(bits));
}

/// The %g rule, done with to_chars: the shortest round-trip digits, and the
/// fixed spelling when its exponent X satisfies -4 <= X < maxDigits.
template <typename F> int formatShortestImpl(F value, int maxDigits, char *buf) {
  if (std::isnan(value)) {
    if constexpr (sizeof(F) == 8)
      return formatNaN(f64Bits(value), 64, 52, buf);
    else
      return formatNaN(f32Bits(value), 32, 23, buf);
  }
  if (std::isinf(value))
    return std::snprintf(buf, 40, value < 0 ? "-inf" : "inf");
  char *end = buf + 39;
  auto sci = std::to_chars(buf, end, value, std::chars_format::scientific);
  *sci.ptr = '\0';
  const char *e = std::strchr(buf, 'e');
  int exponent = e ? std::atoi(e + 1) : 0;
  if (value == 0 || (exponent >= -4 && exponent < maxDigits)) {
    auto fixed = std::to_chars(buf, end, value, std::chars_format::fixed);
    *fixed.ptr = '\0';
    return static_cast<int>(fixed.ptr - buf);
  }
  return static_cast<int>(sci.ptr - buf);
}

template <typename F> ParseStatus parseFloat(std::string_view t, F &out) {
  const char *b = t.data(), *e = t.data() + t.size();
  if (b != e && *b == '+')
    ++b;
  if (b == e)
    return ParseStatus::NotANumber;
  auto [ptr, ec] = std::from_chars(b, e, out);
  if (ptr != e)
    return ParseStatus::NotANumber;
  // from_chars reports out-of-range magnitudes instead of returning +-inf or
  // 0; follow IEEE rounding (what strtod and the dense program do).
  if (ec == std::errc::result_out_of_range) {
    double d = std::strtod(std::string(b, e).c_str(), nullptr);
    out = static_cast<F>(d);
    return ParseStatus::Ok;
  }
  return ec == std::errc() ? ParseStatus::Ok : ParseStatus::NotANumber;
}
} // namespace

bool parseDecimal(std::string_view t, uint64_t &out) {
  if (t.empty() || t.size() > 20)
    return false;
  uint64_t v = 0;
  for (char c : t) {
    unsigned d = static_cast<unsigned char>(c) - '0';
    if (d > 9 || __builtin_mul_overflow(v, 10, &v) ||
        __builtin_add_overflow(v, d, &v))
      return false;
  }
  out = v;
  return true;
}

int formatShortest(double value, char *buf) {
  return formatShortestImpl(value, 17, buf);
}
int formatShortest(float value, char *buf) {
  return formatShortestImpl(value, 9, buf);
}

const char *elemName(Elem e) { return info(e).name; }

bool parseElemName(std::string_view name, Elem &out) {
  for (unsigned i = 0; i < sizeof(kElems) / sizeof(kElems[0]); ++i)
    if (name == kElems[i].name) {
      out = static_cast<Elem>(i);
      return true;
    }
  return false;
}

unsigned elemBytes(Elem e) { return info(e).bytes; }
bool isFloatElem(Elem e) { return info(e).isFloat; }
unsigned intElemBits(Elem e) { return info(e).intBits; }

const char *parseStatusText(ParseStatus status) {
  switch (status) {
  case ParseStatus::Ok:
    return "ok";
  case ParseStatus::NotANumber:
    return "not a number";
  case ParseStatus::NotAnInteger:
    return "not an integer";
  case ParseStatus::OutOfRange:
    return "out of range";
  }
  return "?";
}

ParseStatus parseValue(Elem e, std::string_view token, uint64_t &bits) {
  if (!isFloatElem(e)) {
    bool negative;
    uint64_t mag;
    ParseStatus s = parseInteger(token, negative, mag);
    if (s != ParseStatus::Ok)
      return s;
    unsigned w = intElemBits(e);
    if (w == 1) {
      // i1 holds booleans: only 0 and 1.
      if (mag > 1 || (negative && mag != 0))
        return ParseStatus::OutOfRange;
      bits = mag;
      return ParseStatus::Ok;
    }
    // Signless: [-2^(w-1), 2^w - 1].
    uint64_t maxUnsigned = w == 64 ? ~0ull : (1ull << w) - 1;
    uint64_t maxNegative = 1ull << (w - 1);
    if (negative ? mag > maxNegative : mag > maxUnsigned)
      return ParseStatus::OutOfRange;
    uint64_t v = negative ? (~mag + 1) : mag;
    bits = w == 64 ? v : (v & ((1ull << w) - 1));
    return ParseStatus::Ok;
  }
  // A float's bits in hex (`0x7FF8000000000001`, as NaNs other than nan and
  // -nan print): exactly one hex digit per 4 bits of the type.
  unsigned digits = elemBytes(e) * 2;
  if (token.size() == 2 + digits && token[0] == '0' &&
      (token[1] == 'x' || token[1] == 'X')) {
    uint64_t v = 0;
    auto [ptr, ec] =
        std::from_chars(token.data() + 2, token.data() + token.size(), v, 16);
    if (ec != std::errc() || ptr != token.data() + token.size())
      return ParseStatus::NotANumber;
    bits = v;
    return ParseStatus::Ok;
  }
  switch (e) {
  case Elem::F32: {
    float f;
    ParseStatus s = parseFloat(token, f);
    bits = f32Bits(f);
    return s;
  }
  case Elem::F64: {
    double d;
    ParseStatus s = parseFloat(token, d);
    bits = f64Bits(d);
    return s;
  }
  default: {
    // f16/bf16: correctly rounded to double, then to the small type. The two
    // roundings differ from one only for decimals within 2^-53 relative of a
    // half-way point between two small floats.
    double d;
    ParseStatus s = parseFloat(token, d);
    bits = e == Elem::F16 ? roundToSmallFloat(d, 5, 10)
                          : roundToSmallFloat(d, 8, 7);
    return s;
  }
  }
}

int formatValue(Elem e, uint64_t bits, char *buf) {
  if (!isFloatElem(e)) {
    unsigned w = intElemBits(e);
    if (w == 1)
      return std::snprintf(buf, 40, "%d", bits & 1 ? 1 : 0);
    int64_t v = w == 64 ? static_cast<int64_t>(bits)
                        : static_cast<int64_t>(bits << (64 - w)) >> (64 - w);
    auto [ptr, ec] = std::to_chars(buf, buf + 40, v);
    *ptr = '\0';
    return static_cast<int>(ptr - buf);
  }
  double value = floatValue(e, bits);
  if (std::isnan(value)) {
    unsigned width = elemBytes(e) * 8;
    return formatNaN(bits, width,
                     e == Elem::F64   ? 52
                     : e == Elem::F32 ? 23
                     : e == Elem::F16 ? 10
                                      : 7,
                     buf);
  }
  if (std::isinf(value))
    return std::snprintf(buf, 40, value < 0 ? "-inf" : "inf");
  if (e == Elem::F64)
    return formatShortest(value, buf);
  if (e == Elem::F32)
    return formatShortest(bitsF32(bits), buf);
  // f16/bf16: the fewest significant digits that read back to the bits,
  // then (as formatShortest does) the plain spelling if one exists within
  // the type's precision (f16 needs up to 5 digits, bf16 up to 4).
  int maxDigits = e == Elem::F16 ? 5 : 4;
  int digits = 1;
  for (; digits < 9; ++digits) {
    int len = std::snprintf(buf, 40, "%.*g", digits, value);
    uint64_t reread;
    if (parseValue(e, std::string_view(buf, len), reread) == ParseStatus::Ok &&
        reread == bits)
      break;
  }
  for (int more = digits; more <= maxDigits; ++more) {
    int len = std::snprintf(buf, 40, "%.*g", more, value);
    if (!std::strchr(buf, 'e'))
      return len;
  }
  return std::snprintf(buf, 40, "%.*g", digits, value);
}

bool sameValue(Elem, uint64_t a, uint64_t b) {
  // Bit for bit, NaNs too: a NaN of another sign or payload than a NaN
  // fill is stored (docs/README.md, "Fill values are bits").
  return a == b;
}

uint64_t oneBits(Elem e) {
  switch (e) {
  case Elem::F16:
    return roundToSmallFloat(1.0, 5, 10);
  case Elem::BF16:
    return roundToSmallFloat(1.0, 8, 7);
  case Elem::F32:
    return f32Bits(1.0f);
  case Elem::F64:
    return f64Bits(1.0);
  default:
    return 1;
  }
}

uint64_t negateBits(Elem e, uint64_t bits) {
  if (isFloatElem(e))
    return bits ^ (1ull << (elemBytes(e) * 8 - 1));
  unsigned w = intElemBits(e);
  uint64_t v = ~bits + 1;
  return w == 64 ? v : (v & ((1ull << w) - 1));
}

uint32_t roundToSmallFloat(double value, int expBits, int mantBits) {
  uint32_t sign = std::signbit(value) ? 1u << (expBits + mantBits) : 0;
  uint32_t expMax = (1u << expBits) - 1;
  if (std::isnan(value))
    return sign | (expMax << mantBits) | (1u << (mantBits - 1));
  double a = std::fabs(value);
  if (std::isinf(a))
    return sign | (expMax << mantBits);
  if (a == 0)
    return sign;
  int bias = (1 << (expBits - 1)) - 1;
  int minNormal = 1 - bias;
  int e;
  std::frexp(a, &e);
  int unbiased = e - 1; // a in [2^unbiased, 2^(unbiased+1))
  int quantum = (unbiased < minNormal ? minNormal : unbiased) - mantBits;
  // Count of quanta, rounded to nearest even (the default rounding mode).
  double count = std::nearbyint(std::ldexp(a, -quantum));
  uint64_t m = static_cast<uint64_t>(count);
  if (unbiased < minNormal)
    return sign | static_cast<uint32_t>(m); // subnormal (or smallest normal)
  int64_t field = unbiased + bias;
  if (m == (2ull << mantBits)) {
    m >>= 1;
    ++field;
  }
  if (field >= expMax)
    return sign | (expMax << mantBits);
  return sign | static_cast<uint32_t>(field << mantBits) |
         static_cast<uint32_t>(m - (1ull << mantBits));
}

double smallFloatToDouble(uint32_t bits, int expBits, int mantBits) {
  bool negative = (bits >> (expBits + mantBits)) & 1;
  uint32_t field = (bits >> mantBits) & ((1u << expBits) - 1);
  uint32_t mant = bits & ((1u << mantBits) - 1);
  int bias = (1 << (expBits - 1)) - 1;
  double v;
  if (field == (1u << expBits) - 1)
    v = mant ? std::numeric_limits<double>::quiet_NaN()
             : std::numeric_limits<double>::infinity();
  else if (field == 0)
    v = std::ldexp(static_cast<double>(mant), 1 - bias - mantBits);
  else
    v = std::ldexp(static_cast<double>(mant | (1u << mantBits)),
                   static_cast<int>(field) - bias - mantBits);
  return negative ? -v : v;
}

} // namespace sa_rt
