//===- FillValues.cpp - Fill values as text -------------------------------===//
//
// How the dialect spells fill values (seed 000 §3) in formats, algebras and
// properties: the shortest decimal that reads back to the same bits, NaN
// payloads and -0.0 included, and the parser of those spellings.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Format.h"

#include <cstdio>
#include <cstring>

using namespace mlir;
using namespace mlir::sparse_array;


/// Shortest decimal spelling of `value` that reads back to the same bits in
/// its own semantics; always contains a '.' or an exponent so that it lexes
/// as a float. Every supported type converts to double exactly.
static std::string formatFloat(const APFloat &value) {
  APFloat wide = value;
  bool losesInfo = false;
  (void)wide.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                     &losesInfo);
  double asDouble = wide.convertToDouble();
  // Fewest significant digits that read back to the same bits; among the
  // longer (equally exact) spellings prefer one without exponent: 10.0, not
  // 1.0e+01.
  auto roundTrips = [&](const char *text) {
    APFloat reread(value.getSemantics());
    auto status = reread.convertFromString(text, APFloat::rmNearestTiesToEven);
    if (!status) {
      llvm::consumeError(status.takeError());
      return false;
    }
    return reread.bitwiseIsEqual(value);
  };
  std::string text;
  char buf[64];
  int digits = 1;
  for (; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof(buf), "%.*g", digits, asDouble);
    if (roundTrips(buf)) {
      text = buf;
      break;
    }
  }
  for (int more = digits; !text.empty() && more <= 17; ++more) {
    std::snprintf(buf, sizeof(buf), "%.*g", more, asDouble);
    if (!std::strchr(buf, 'e')) {
      text = buf;
      break;
    }
  }
  if (text.empty()) {
    // Not reached for IEEE types; hex is exact in any case.
    APInt bits = value.bitcastToAPInt();
    SmallString<32> hex;
    bits.toStringUnsigned(hex, 16);
    return "0x" + std::string(hex.str());
  }
  // MLIR's lexer needs a '.' before any exponent: "1e+10" -> "1.0e+10".
  if (text.find('.') == std::string::npos) {
    size_t exp = text.find_first_of("eE");
    text.insert(exp == std::string::npos ? text.size() : exp, ".0");
  }
  return text;
}

void mlir::sparse_array::printFillValue(raw_ostream &os, TypedAttr fill) {
  if (auto floatAttr = dyn_cast<FloatAttr>(fill)) {
    const APFloat &value = floatAttr.getValue();
    if (value.isInfinity()) {
      os << (value.isNegative() ? "-inf" : "inf");
      return;
    }
    if (value.isNaN()) {
      // Only the default quiet NaN gets the keyword; any other payload or
      // sign is printed as its exact bit pattern.
      if (value.bitwiseIsEqual(APFloat::getNaN(value.getSemantics()))) {
        os << "nan";
        return;
      }
      APInt bits = value.bitcastToAPInt();
      SmallString<32> hex;
      bits.toStringUnsigned(hex, 16);
      os << "0x";
      for (unsigned i = hex.size(); i < bits.getBitWidth() / 4; ++i)
        os << '0';
      os << hex;
      return;
    }
    os << formatFloat(value);
    return;
  }
  if (auto intAttr = dyn_cast<IntegerAttr>(fill)) {
    const APInt &value = intAttr.getValue();
    // i1 prints as 0/1; wider integers as signed decimals (the bits are what
    // matter; functions decide on signed or unsigned interpretation).
    if (value.getBitWidth() == 1)
      os << (value.isOne() ? "1" : "0");
    else
      os << value.getSExtValue();
    return;
  }
  fill.print(os);
}

/// Parses `nan : T`, `inf : T`, `-inf : T`, or any builtin integer/float
/// literal with its type (`-0.0 : f64`, `42 : i32`, `0x7FC00000 : f32`).
ParseResult mlir::sparse_array::parseFillValue(AsmParser &parser,
                                              TypedAttr &fill) {
  SMLoc loc = parser.getCurrentLocation();
  auto parseSpecialFloat = [&](bool nan, bool negative) -> ParseResult {
    Type type;
    if (parser.parseColonType(type))
      return failure();
    auto floatType = dyn_cast<FloatType>(type);
    if (!floatType)
      return parser.emitError(loc) << "'" << (nan ? "nan" : "inf")
                                   << "' needs a floating-point type, got "
                                   << type;
    const llvm::fltSemantics &sem = floatType.getFloatSemantics();
    fill = FloatAttr::get(floatType, nan ? APFloat::getNaN(sem)
                                         : APFloat::getInf(sem, negative));
    return success();
  };
  if (succeeded(parser.parseOptionalKeyword("nan")))
    return parseSpecialFloat(/*nan=*/true, false);
  if (succeeded(parser.parseOptionalKeyword("inf")))
    return parseSpecialFloat(/*nan=*/false, false);
  bool negative = succeeded(parser.parseOptionalMinus());
  if (negative && succeeded(parser.parseOptionalKeyword("inf")))
    return parseSpecialFloat(/*nan=*/false, true);

  Attribute attr;
  if (parser.parseAttribute(attr))
    return failure();
  if (auto floatAttr = dyn_cast<FloatAttr>(attr)) {
    APFloat value = floatAttr.getValue();
    if (negative)
      value.changeSign();
    fill = FloatAttr::get(floatAttr.getType(), value);
    return success();
  }
  if (auto intAttr = dyn_cast<IntegerAttr>(attr)) {
    APInt value = intAttr.getValue();
    if (negative) {
      // The literal was read as a magnitude that fits the unsigned range;
      // a negated one must fit the signed range.
      unsigned width = value.getBitWidth();
      APInt limit = APInt::getOneBitSet(width + 1, width - 1); // 2^(w-1)
      if (value.zext(width + 1).ugt(limit))
        return parser.emitError(loc)
               << "integer fill value out of range for " << intAttr.getType();
      value.negate();
    }
    fill = IntegerAttr::get(intAttr.getType(), value);
    return success();
  }
  return parser.emitError(loc)
         << "fill value must be an integer or floating-point constant, got "
         << attr;
}
