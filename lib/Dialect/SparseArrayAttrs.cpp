//===- SparseArrayAttrs.cpp - #sparse_array.format ------------------------===//
//
// Parsing, printing and verification of the format attribute (seed 002 §3:
// level formats and properties, blocks), iteration algebras and function
// properties. Fill values are spelled by FillValues.cpp.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Format.h"

#include <cstdio>
#include <cstring>

using namespace mlir;
using namespace mlir::sparse_array;

#include "SparseArray/Dialect/SparseArrayEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "SparseArray/Dialect/SparseArrayAttrs.cpp.inc"

void SparseArrayDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "SparseArray/Dialect/SparseArrayAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// FormatAttr
//===----------------------------------------------------------------------===//

static constexpr StringLiteral kNonUnique = "nonunique";
static constexpr StringLiteral kNonOrdered = "nonordered";

static ParseResult parseLevel(AsmParser &parser, LevelSpec &spec) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef name;
  if (parser.parseKeyword(&name))
    return failure();
  spec.format = LevelFormatRegistry::lookup(name);
  if (!spec.format) {
    auto diag = parser.emitError(loc)
                << "unknown level format '" << name << "'; expected one of ";
    llvm::interleaveComma(LevelFormatRegistry::getNames(), diag);
    return diag;
  }
  // A level in hash order is never ordered: `hashed` says so already.
  spec.ordered = !spec.format->hasHashOrder();
  unsigned numParams = spec.format->getNumParams();
  SMLoc paramsLoc = parser.getCurrentLocation();
  if (!numParams && succeeded(parser.parseOptionalLSquare()))
    return parser.emitError(paramsLoc)
           << "level format '" << name << "' takes no parameters";
  if (numParams) {
    // The format's parameters: `structured[2, 4]`.
    unsigned k = 0;
    auto parseParam = [&]() -> ParseResult {
      uint64_t v;
      if (parser.parseInteger(v))
        return failure();
      if (k < numParams)
        spec.params[k] = v;
      ++k;
      return success();
    };
    if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                       parseParam))
      return failure();
    if (k != numParams)
      return parser.emitError(paramsLoc)
             << "level format '" << name << "' takes " << numParams
             << " parameters, got " << k;
  }
  if (failed(parser.parseOptionalLParen()))
    return success();
  bool sawNonUnique = false, sawNonOrdered = false;
  auto parseProperty = [&]() -> ParseResult {
    SMLoc propLoc = parser.getCurrentLocation();
    StringRef prop;
    if (parser.parseKeyword(&prop))
      return failure();
    bool *seen = prop == kNonUnique    ? &sawNonUnique
                 : prop == kNonOrdered ? &sawNonOrdered
                                       : nullptr;
    if (!seen)
      return parser.emitError(propLoc)
             << "unknown level property '" << prop << "'; expected '"
             << kNonUnique << "' or '" << kNonOrdered << "'";
    if (*seen)
      return parser.emitError(propLoc)
             << "level property '" << prop << "' given twice";
    *seen = true;
    return success();
  };
  if (parser.parseCommaSeparatedList(parseProperty) || parser.parseRParen())
    return failure();
  spec.unique = !sawNonUnique;
  spec.ordered = !sawNonOrdered && !spec.format->hasHashOrder();
  return success();
}

static void printLevel(AsmPrinter &printer, const LevelSpec &spec) {
  printer << spec.getName();
  if (unsigned numParams = spec.format->getNumParams()) {
    printer << "[";
    llvm::interleaveComma(ArrayRef(spec.params).take_front(numParams),
                          printer);
    printer << "]";
  }
  SmallVector<StringRef, 2> props;
  if (!spec.unique)
    props.push_back(kNonUnique);
  if (!spec.ordered && !spec.format->hasHashOrder())
    props.push_back(kNonOrdered);
  if (!props.empty()) {
    printer << "(";
    llvm::interleaveComma(props, printer);
    printer << ")";
  }
}

Attribute FormatAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<LevelSpec> levels;
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        return parseLevel(parser, levels.emplace_back());
      }))
    return {};

  SmallVector<unsigned> order;
  SmallVector<uint64_t> blocks;
  std::optional<unsigned> posWidth, crdWidth;
  TypedAttr fill;
  llvm::StringSet<> seenKeys;
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc keyLoc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key))
      return {};
    if (!seenKeys.insert(key).second) {
      parser.emitError(keyLoc) << "format key '" << key << "' given twice";
      return {};
    }
    if (parser.parseEqual())
      return {};
    if (key == "order") {
      if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
            return parser.parseInteger(order.emplace_back());
          }))
        return {};
    } else if (key == "blocks") {
      if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
            return parser.parseInteger(blocks.emplace_back());
          }))
        return {};
    } else if (key == "pos_width" || key == "crd_width") {
      unsigned width;
      if (parser.parseInteger(width))
        return {};
      (key == "pos_width" ? posWidth : crdWidth) = width;
    } else if (key == "fill") {
      if (parseFillValue(parser, fill))
        return {};
    } else {
      parser.emitError(keyLoc)
          << "unknown format key '" << key
          << "'; expected 'order', 'blocks', 'pos_width', 'crd_width' or "
             "'fill'";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};

  // The identity order is stored as an empty list so that `order = [0, 1]`
  // and no order denote the same format.
  if (llvm::equal(order, llvm::seq<unsigned>(0, order.size())) &&
      order.size() == levels.size())
    order.clear();
  return parser.getChecked<FormatAttr>(
      loc, parser.getContext(), levels, order,
      posWidth.value_or(kDefaultWidth), crdWidth.value_or(kDefaultWidth), fill,
      blocks);
}

void FormatAttr::print(AsmPrinter &printer) const {
  printer << "<[";
  llvm::interleaveComma(getLevels(), printer,
                        [&](const LevelSpec &spec) { printLevel(printer, spec); });
  printer << "]";
  if (!getOrder().empty()) {
    printer << ", order = [";
    llvm::interleaveComma(getOrder(), printer);
    printer << "]";
  }
  if (getPosWidth() != kDefaultWidth)
    printer << ", pos_width = " << getPosWidth();
  if (getCrdWidth() != kDefaultWidth)
    printer << ", crd_width = " << getCrdWidth();
  if (TypedAttr fill = getFill()) {
    printer << ", fill = ";
    printTypedFillValue(printer, fill);
  }
  if (isBlocked()) {
    printer << ", blocks = [";
    llvm::interleaveComma(getBlocks(), printer);
    printer << "]";
  }
  printer << ">";
}

/// Blocks (seed 002's BCSR): a dimension of block size b > 1 is named by
/// exactly two levels (its block, then its place in the block), any other
/// dimension by exactly one.
static LogicalResult verifyBlocks(function_ref<InFlightDiagnostic()> emitError,
                                  size_t numLevels, ArrayRef<unsigned> order,
                                  ArrayRef<uint64_t> blocks) {
  unsigned rank = blocks.size();
  unsigned blocked = 0;
  for (auto [dim, block] : llvm::enumerate(blocks)) {
    if (block == 0)
      return emitError() << "block size of dimension " << dim
                         << " must be positive";
    blocked += block > 1;
  }
  if (blocked == 0)
    return emitError() << "blocks of size 1 only: omit 'blocks'";
  if (numLevels != rank + blocked)
    return emitError() << "a format with blocks " << blocks.size()
                       << " dimensions, " << blocked
                       << " of them blocked, has " << rank + blocked
                       << " levels, got " << numLevels;
  if (order.size() != numLevels)
    return emitError() << "a format with blocks needs an order naming each "
                          "blocked dimension twice (its block, then its "
                          "place in the block)";
  SmallVector<unsigned> seen(rank, 0);
  for (unsigned dim : order) {
    if (dim >= rank)
      return emitError() << "order names dimension " << dim << " of "
                         << rank;
    ++seen[dim];
  }
  for (unsigned dim = 0; dim < rank; ++dim) {
    unsigned expected = blocks[dim] > 1 ? 2 : 1;
    if (seen[dim] != expected)
      return emitError() << "order names dimension " << dim << " (block size "
                         << blocks[dim] << ") " << seen[dim]
                         << " times; expected " << expected;
  }
  return success();
}

LogicalResult FormatAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<LevelSpec> levels,
                                 ArrayRef<unsigned> order, unsigned posWidth,
                                 unsigned crdWidth, TypedAttr fill,
                                 ArrayRef<uint64_t> blocks) {
  for (auto [lvl, spec] : llvm::enumerate(levels)) {
    if (!spec.format)
      return emitError() << "level " << lvl << " has no level format";
    if (!spec.unique && !spec.format->allowsNonUnique())
      return emitError() << "level " << lvl << " ('" << spec.getName()
                         << "') cannot be non-unique";
    if (!spec.ordered && !spec.format->allowsNonOrdered())
      return emitError() << "level " << lvl << " ('" << spec.getName()
                         << "') cannot be non-ordered";
    if (spec.ordered && spec.format->hasHashOrder())
      return emitError() << "level " << lvl << " ('" << spec.getName()
                         << "') keeps coordinates in hash order and cannot "
                            "be ordered";
    unsigned numParams = spec.format->getNumParams();
    if (llvm::any_of(ArrayRef(spec.params).drop_front(numParams),
                     [](uint64_t p) { return p != 0; }))
      return emitError() << "level " << lvl << " ('" << spec.getName()
                         << "') takes " << numParams << " parameters";
    if (std::optional<std::string> why = spec.format->checkParams(
            ArrayRef(spec.params).take_front(numParams)))
      return emitError() << "level " << lvl << " ('" << spec.getName()
                         << "') " << *why;
    std::optional<LevelSpec> parent;
    if (lvl > 0)
      parent = levels[lvl - 1];
    if (std::optional<std::string> reason = spec.format->checkParent(parent))
      return emitError() << "level " << lvl << " ('" << spec.getName()
                         << "') " << *reason;
  }
  if (!levels.empty() && !levels.back().unique)
    return emitError() << "innermost level " << levels.size() - 1
                       << " cannot be non-unique: stored entries must have "
                          "distinct coordinates";
  if (!blocks.empty()) {
    if (failed(verifyBlocks(emitError, levels.size(), order, blocks)))
      return failure();
  } else if (!order.empty()) {
    SmallVector<bool> seen(levels.size(), false);
    bool isPermutation = order.size() == levels.size();
    for (unsigned dim : order) {
      if (!isPermutation || dim >= levels.size() || seen[dim]) {
        isPermutation = false;
        break;
      }
      seen[dim] = true;
    }
    if (!isPermutation) {
      auto diag = emitError() << "order must be a permutation of [0, "
                              << levels.size() << "), got [";
      llvm::interleaveComma(order, diag);
      return diag << "]";
    }
  }
  if (posWidth != 32 && posWidth != 64)
    return emitError() << "pos_width must be 32 or 64, got " << posWidth;
  if (crdWidth != 32 && crdWidth != 64)
    return emitError() << "crd_width must be 32 or 64, got " << crdWidth;
  if (fill && !isa<IntegerAttr, FloatAttr>(fill))
    return emitError()
           << "fill value must be an integer or floating-point constant, got "
           << fill;
  return success();
}

unsigned FormatAttr::getDimLevel(unsigned dim) const {
  if (getOrder().empty())
    return dim;
  const auto *it = llvm::find(getOrder(), dim);
  assert(it != getOrder().end() && "dimension not stored by any level");
  return it - getOrder().begin();
}

bool FormatAttr::isAllDense() const {
  return llvm::all_of(getLevels(),
                      [](const LevelSpec &spec) { return spec.isFull(); });
}

bool FormatAttr::isRowsOfSegments() const {
  ArrayRef<LevelSpec> levels = getLevels();
  return levels.size() >= 2 && levels[0].isFull() && levels[1].isSegmented();
}

unsigned FormatAttr::getRank() const {
  return isBlocked() ? getBlocks().size() : getNumLevels();
}

bool FormatAttr::isBlocked() const { return !getBlocks().empty(); }

uint64_t FormatAttr::getBlock(unsigned dim) const {
  return isBlocked() ? getBlocks()[dim] : 1;
}

FormatAttr::LevelPart FormatAttr::getLevelPart(unsigned lvl) const {
  unsigned dim = getLevelDim(lvl);
  if (getBlock(dim) == 1)
    return LevelPart::Whole;
  return getDimLevel(dim) == lvl ? LevelPart::Block : LevelPart::InBlock;
}

FormatAttr FormatAttr::withFill(TypedAttr fill) const {
  return FormatAttr::get(getContext(), getLevels(), getOrder(), getPosWidth(),
                         getCrdWidth(), fill, getBlocks());
}

FormatAttr FormatAttr::withoutBlocks() const {
  if (!isBlocked())
    return *this;
  SmallVector<LevelSpec> levels;
  SmallVector<unsigned> order;
  for (unsigned l = 0; l < getNumLevels(); ++l) {
    if (getLevelPart(l) == LevelPart::InBlock)
      continue;
    levels.push_back(getLevels()[l]);
    order.push_back(getLevelDim(l));
  }
  if (llvm::equal(order, llvm::seq<unsigned>(0, order.size())))
    order.clear();
  auto ignore = [] { return InFlightDiagnostic(); };
  if (failed(verify(ignore, levels, order, getPosWidth(), getCrdWidth(),
                    getFill(), {}))) {
    // Dropping the in-block levels broke a placement rule (a singleton
    // whose non-unique parent lost its child): keep what is dense, store
    // the rest compressed, which fits below anything.
    for (LevelSpec &spec : levels)
      if (!spec.isFull())
        spec = LevelSpec{LevelFormatRegistry::compressed()};
  }
  return FormatAttr::get(getContext(), levels, order, getPosWidth(),
                         getCrdWidth(), getFill());
}

FormatAttr FormatAttr::getDefault(MLIRContext *ctx, unsigned rank,
                                  Type elementType) {
  SmallVector<LevelSpec> levels(rank, LevelSpec{LevelFormatRegistry::dense()});
  TypedAttr zero;
  if (ArrayType::isValidElementType(elementType))
    zero = cast<TypedAttr>(Builder(ctx).getZeroAttr(elementType));
  return FormatAttr::get(ctx, levels, {}, kDefaultWidth, kDefaultWidth, zero);
}

void mlir::sparse_array::printTypedFillValue(AsmPrinter &printer,
                                             TypedAttr value) {
  printFillValue(printer.getStream(), value);
  printer << " : " << value.getType();
}

bool mlir::sparse_array::isSameScalar(TypedAttr a, TypedAttr b) {
  if (!a || !b || a.getType() != b.getType())
    return false;
  // Bit for bit, NaNs too (docs/README.md, "Fill values are bits"): the
  // runtime and the generated code compare with a fill the same way.
  if (auto fa = dyn_cast<FloatAttr>(a))
    return fa.getValue().bitwiseIsEqual(cast<FloatAttr>(b).getValue());
  if (auto ia = dyn_cast<IntegerAttr>(a))
    return ia.getValue() == cast<IntegerAttr>(b).getValue();
  return a == b;
}

//===----------------------------------------------------------------------===//
// AlgebraAttr
//===----------------------------------------------------------------------===//

static ParseResult parseAlgebra(AsmParser &parser,
                                std::optional<IterationAlgebra> &result) {
  unsigned leaf;
  OptionalParseResult leafResult = parser.parseOptionalInteger(leaf);
  if (leafResult.has_value()) {
    if (failed(*leafResult))
      return failure();
    result = IterationAlgebra::leaf(leaf);
    return success();
  }
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  if (keyword == "universe") {
    result = IterationAlgebra::universe();
    return success();
  }
  if (keyword == "empty") {
    result = IterationAlgebra::empty();
    return success();
  }
  if (keyword != "union" && keyword != "intersect" && keyword != "complement")
    return parser.emitError(loc)
           << "unknown iteration algebra term '" << keyword
           << "'; expected an operand number, 'union', 'intersect', "
              "'complement', 'universe' or 'empty'";
  std::vector<IterationAlgebra> children;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Paren, [&] {
        std::optional<IterationAlgebra> child;
        if (parseAlgebra(parser, child))
          return failure();
        children.push_back(*child);
        return success();
      }))
    return failure();
  if (keyword == "complement") {
    if (children.size() != 1)
      return parser.emitError(loc) << "'complement' takes one operand, got "
                                   << children.size();
    result = IterationAlgebra::complement(children.front());
    return success();
  }
  if (children.empty())
    return parser.emitError(loc) << "'" << keyword << "' needs operands";
  result = keyword == "union" ? IterationAlgebra::unite(children)
                              : IterationAlgebra::intersect(children);
  return success();
}

Attribute AlgebraAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  std::optional<IterationAlgebra> algebra;
  if (parser.parseLess() || parseAlgebra(parser, algebra))
    return {};
  SmallVector<TypedAttr> fills;
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("fills") || parser.parseEqual() ||
        parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
          return parseFillValue(parser, fills.emplace_back());
        }))
      return {};
  }
  if (parser.parseGreater())
    return {};
  std::vector<uint32_t> code = algebra->encode();
  return parser.getChecked<AlgebraAttr>(loc, parser.getContext(),
                                        ArrayRef<uint32_t>(code),
                                        ArrayRef<TypedAttr>(fills));
}

void AlgebraAttr::print(AsmPrinter &printer) const {
  printer << "<";
  getAlgebra().print(printer.getStream());
  if (!getFills().empty()) {
    printer << ", fills = [";
    llvm::interleaveComma(getFills(), printer, [&](TypedAttr fill) {
      printTypedFillValue(printer, fill);
    });
    printer << "]";
  }
  printer << ">";
}

LogicalResult AlgebraAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<uint32_t> code,
                                  ArrayRef<TypedAttr> fills) {
  if (!IterationAlgebra::decode(code))
    return emitError() << "malformed iteration algebra encoding";
  for (TypedAttr fill : fills)
    if (!isa_and_nonnull<IntegerAttr, FloatAttr>(fill))
      return emitError() << "assumed fill values must be integer or "
                            "floating-point constants";
  return success();
}

IterationAlgebra AlgebraAttr::getAlgebra() const {
  return *IterationAlgebra::decode(getCode());
}

//===----------------------------------------------------------------------===//
// AnnihilatorAttr, IdentityAttr
//===----------------------------------------------------------------------===//

template <typename AttrT>
static Attribute parsePropertyValue(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  TypedAttr value;
  SmallVector<unsigned> positions;
  if (parser.parseLess() || parseFillValue(parser, value))
    return {};
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("positions") || parser.parseEqual() ||
        parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
          return parser.parseInteger(positions.emplace_back());
        }))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<AttrT>(loc, parser.getContext(), value,
                                  ArrayRef<unsigned>(positions));
}

template <typename AttrT>
static void printPropertyValue(AttrT attr, AsmPrinter &printer) {
  printer << "<";
  printTypedFillValue(printer, attr.getValue());
  if (!attr.getPositions().empty()) {
    printer << ", positions = [";
    llvm::interleaveComma(attr.getPositions(), printer);
    printer << "]";
  }
  printer << ">";
}

static LogicalResult
verifyPropertyValue(function_ref<InFlightDiagnostic()> emitError,
                    TypedAttr value, ArrayRef<unsigned> positions) {
  if (!isa_and_nonnull<IntegerAttr, FloatAttr>(value))
    return emitError()
           << "property value must be an integer or floating-point constant";
  for (auto [i, pos] : llvm::enumerate(positions))
    if (llvm::is_contained(positions.take_front(i), pos))
      return emitError() << "position " << pos << " listed twice";
  return success();
}

Attribute AnnihilatorAttr::parse(AsmParser &parser, Type) {
  return parsePropertyValue<AnnihilatorAttr>(parser);
}
void AnnihilatorAttr::print(AsmPrinter &printer) const {
  printPropertyValue(*this, printer);
}
LogicalResult
AnnihilatorAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        TypedAttr value, ArrayRef<unsigned> positions) {
  return verifyPropertyValue(emitError, value, positions);
}

Attribute IdentityAttr::parse(AsmParser &parser, Type) {
  return parsePropertyValue<IdentityAttr>(parser);
}
void IdentityAttr::print(AsmPrinter &printer) const {
  printPropertyValue(*this, printer);
}
LogicalResult IdentityAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   TypedAttr value,
                                   ArrayRef<unsigned> positions) {
  return verifyPropertyValue(emitError, value, positions);
}

//===----------------------------------------------------------------------===//
// ScalarAttr
//===----------------------------------------------------------------------===//

Attribute ScalarAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  TypedAttr value;
  if (parser.parseLess() || parseFillValue(parser, value) ||
      parser.parseGreater())
    return {};
  return parser.getChecked<ScalarAttr>(loc, parser.getContext(), value);
}

void ScalarAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printTypedFillValue(printer, getValue());
  printer << ">";
}

LogicalResult ScalarAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 TypedAttr value) {
  if (!isa_and_nonnull<IntegerAttr, FloatAttr>(value))
    return emitError() << "scalar must be an integer or floating-point constant";
  return success();
}

LogicalResult
ParallelAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                     StringRef mode, int64_t minExtent, int64_t minWork,
                     int64_t balance, bool twoPhase, bool parts,
                     bool chained, StringRef reason) {
  bool parallel = mode == "outer" || mode == "ranges";
  // The lowering multiplies two numbers up to min_work (saturated).
  if (minWork < 0 || minWork >= (int64_t(1) << 31))
    return emitError() << "min_work counts stored values: it is in [0, 2^31)";
  if (balance < -1 || (balance >= 0 && !parallel))
    return emitError() << "balance names an input of a parallel loop";
  if (twoPhase && !parallel)
    return emitError() << "two_phase assembles the result of a parallel loop";
  if (parts && !parallel)
    return emitError() << "parts assembles the result of a parallel loop";
  if (parts && twoPhase)
    return emitError() << "a result is assembled in two phases or in parts, "
                          "not both";
  if (chained && (!parts || mode != "outer"))
    return emitError() << "chained places the parts of a parallel outer loop "
                          "(with parts)";
  if (parallel) {
    if (minExtent < 1)
      return emitError() << "a parallel loop needs min_extent >= 1";
    if (!reason.empty())
      return emitError() << "a parallel loop has no reason to stay sequential";
    if (mode == "ranges" && twoPhase)
      return emitError() << "ranges of stored coordinates assemble a sparse "
                            "result in parts, not in two phases";
    return success();
  }
  if (mode != "none")
    return emitError()
           << "parallel mode must be \"outer\", \"ranges\" or \"none\", not \""
           << mode << "\"";
  if (reason.empty())
    return emitError() << "a sequential kernel's plan says why (reason)";
  if (minExtent != 0)
    return emitError() << "min_extent applies to parallel loops only";
  if (minWork != 0)
    return emitError() << "min_work applies to parallel loops only";
  return success();
}

// <"mode"[, min_extent = N][, min_work = W][, balance = k]
//  [, two_phase | parts[, chained]][, reason = "..."]>
Attribute ParallelAttr::parse(AsmParser &parser, Type) {
  std::string mode, reason;
  int64_t minExtent = 0, minWork = 0, balance = -1;
  bool twoPhase = false, parts = false, chained = false;
  if (parser.parseLess() || parser.parseString(&mode))
    return {};
  while (succeeded(parser.parseOptionalComma())) {
    StringRef key;
    if (parser.parseKeyword(&key))
      return {};
    if (key == "two_phase") {
      twoPhase = true;
      continue;
    }
    if (key == "parts") {
      parts = true;
      continue;
    }
    if (key == "chained") {
      chained = true;
      continue;
    }
    if (parser.parseEqual())
      return {};
    if (key == "min_extent") {
      if (parser.parseInteger(minExtent))
        return {};
    } else if (key == "min_work") {
      if (parser.parseInteger(minWork))
        return {};
    } else if (key == "balance") {
      if (parser.parseInteger(balance))
        return {};
    } else if (key == "reason") {
      if (parser.parseString(&reason))
        return {};
    } else {
      parser.emitError(parser.getCurrentLocation())
          << "expected 'min_extent', 'min_work', 'balance', 'two_phase', "
             "'parts', 'chained' or 'reason', got '"
          << key
          << "'";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                    parser.getContext(), mode, minExtent, minWork, balance,
                    twoPhase, parts, chained, reason);
}

void ParallelAttr::print(AsmPrinter &printer) const {
  printer << "<\"" << getMode() << "\"";
  if (getMinExtent() != 0)
    printer << ", min_extent = " << getMinExtent();
  if (getMinWork() != 0)
    printer << ", min_work = " << getMinWork();
  if (getBalance() >= 0)
    printer << ", balance = " << getBalance();
  if (getTwoPhase())
    printer << ", two_phase";
  if (getParts())
    printer << ", parts";
  if (getChained())
    printer << ", chained";
  if (!getReason().empty()) {
    printer << ", reason = ";
    printer.printString(getReason());
  }
  printer << ">";
}

//===----------------------------------------------------------------------===//
// ReductionPlanAttr
//===----------------------------------------------------------------------===//

LogicalResult ReductionPlanAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, ReductionStrategy strategy,
    AlgebraAttr algebra, ScalarAttr, int64_t zeroFactor, int64_t denseFactor,
    bool zeroFillNegative, ReductionKeys keys, int64_t keyShortRange,
    ReductionWorkspace) {
  if (keyShortRange < 0 || (keys == ReductionKeys::None && keyShortRange))
    return emitError() << "key_short_range is a range length of a keyed "
                          "reduction";
  bool dot = strategy == ReductionStrategy::SignedZeroDot;
  if (dot && (zeroFactor < 0 || denseFactor < 0 || zeroFactor == denseFactor))
    return emitError() << "signed_zero_dot needs two different kernel inputs "
                          "as zero_factor and dense_factor";
  if (!dot && (zeroFactor >= 0 || denseFactor >= 0 || zeroFillNegative))
    return emitError() << "zero_factor, dense_factor and zero_fill_negative "
                          "belong to signed_zero_dot only";
  if (strategy != ReductionStrategy::Universe && !algebra)
    return emitError() << "strategy " << stringifyReductionStrategy(strategy)
                       << " needs the algebra of the points it visits";
  return success();
}
