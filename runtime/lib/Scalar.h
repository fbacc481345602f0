//===- Scalar.h - Element kinds: parse, format, compare ---------*- C++ -*-===//
//
// The runtime handles values as bit patterns of 1, 2, 4 or 8 bytes; the
// element kind says how to read, print and compare them. Parsing is exact
// (correct rounding for floats, range checks for integers) and printing
// round-trips, so that text written by the runtime reads back bit-exactly.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_ARRAY_RUNTIME_SCALAR_H
#define SPARSE_ARRAY_RUNTIME_SCALAR_H

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace sa_rt {

/// Element types of arrays (the MLIR names: i1 ... f64). Integers are
/// signless like MLIR's: a file value is accepted if it fits the signed or
/// the unsigned range of the width, and printed as signed.
enum class Elem : uint8_t { I1, I8, I16, I32, I64, F16, BF16, F32, F64 };

const char *elemName(Elem e);
bool parseElemName(std::string_view name, Elem &out);
/// Bytes per stored value (i1 is one byte holding 0 or 1).
unsigned elemBytes(Elem e);
bool isFloatElem(Elem e);
/// Width in bits of an integer element kind (1 ... 64).
unsigned intElemBits(Elem e);

/// Parses unsigned decimal digits (no sign) into `out`; false on any other
/// character, an empty token, or a value past 2^64 - 1. Shared by the
/// readers and the format-spec parser.
bool parseDecimal(std::string_view token, uint64_t &out);

/// Shortest decimal spelling of a double (maxDigits 17) or float (9) that
/// reads back exactly, preferring the plain spelling over an exponent
/// whenever one with at most maxDigits significant digits exists (10, not
/// 1e+01; 1e-07, not 0.0000001). `inf`, `-inf`, `nan`. Returns the length;
/// `buf` must hold 40 bytes.
int formatShortest(double value, char *buf);
int formatShortest(float value, char *buf);

/// Why a value token was rejected.
enum class ParseStatus { Ok, NotANumber, NotAnInteger, OutOfRange };
const char *parseStatusText(ParseStatus status);

/// Parses `token` as a value of kind `e` into `bits` (the value's bit
/// pattern, zero-extended). Integers accept an optional sign and decimal
/// digits; floats accept decimal and `inf`/`nan` spellings, rounded once to
/// the nearest value of the type (ties to even).
ParseStatus parseValue(Elem e, std::string_view token, uint64_t &bits);

/// Writes the shortest decimal spelling of `bits` that parses back to the
/// same bits (`inf`, `-inf`, `nan`; integers signed). Returns the length;
/// `buf` must hold 40 bytes.
int formatValue(Elem e, uint64_t bits, char *buf);

/// Whether two bit patterns are the same value as a dense program sees it:
/// floats compare equal when bitwise equal or both NaN (so -0.0 differs from
/// 0.0, and a NaN fill matches every NaN).
bool sameValue(Elem e, uint64_t a, uint64_t b);

/// The bit pattern of the integer 1 (pattern files) and of -x (skew-
/// symmetric files: two's complement wrap-around for integers, sign flip for
/// floats).
uint64_t oneBits(Elem e);
uint64_t negateBits(Elem e, uint64_t bits);

/// Rounds `value` to the nearest binary floating-point number with
/// `expBits` exponent and `mantBits` fraction bits (ties to even; overflow
/// to infinity; NaN stays quiet NaN). Returns its bit pattern. f16 is
/// (5, 10), bf16 is (8, 7).
uint32_t roundToSmallFloat(double value, int expBits, int mantBits);
double smallFloatToDouble(uint32_t bits, int expBits, int mantBits);

} // namespace sa_rt

#endif // SPARSE_ARRAY_RUNTIME_SCALAR_H
