//===- LatticeAttr.cpp - The coiteration plan of a loop -------------------===//
//
// #sparse_array.lattice: what sparse-array-build-lattices decides for one
// loop (seed 000 §6-7; seed 001 §6 for the loop's sequence expression).
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Algebra/SequenceExpr.h"
#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace mlir::sparse_array;

//===----------------------------------------------------------------------===//
// LatticeAttr
//===----------------------------------------------------------------------===//

// #sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1],
//                       points [{0, 1} omit, {0} produce, {U} produce]>
Attribute LatticeAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  unsigned loop = 0;
  SmallVector<unsigned> present, coiterated;
  SmallVector<LatticePoint> points;
  auto parseList = [&](StringRef keyword,
                       SmallVectorImpl<unsigned> &list) -> ParseResult {
    return failure(
        failed(parser.parseKeyword(keyword)) ||
        parser
            .parseCommaSeparatedList(
                AsmParser::Delimiter::Square,
                [&] { return parser.parseInteger(list.emplace_back()); })
            .failed());
  };
  auto parsePoint = [&]() -> ParseResult {
    LatticePoint &p = points.emplace_back();
    if (parser.parseCommaSeparatedList(
            AsmParser::Delimiter::Braces, [&]() -> ParseResult {
              if (succeeded(parser.parseOptionalKeyword("U"))) {
                p.universe = true;
                return success();
              }
              SMLoc at = parser.getCurrentLocation();
              unsigned k;
              if (parser.parseInteger(k))
                return failure();
              if (k >= kMaxLatticeOperands)
                return parser.emitError(at)
                       << "input " << k << " is beyond the lattice limit";
              p.operands |= uint64_t(1) << k;
              return success();
            }))
      return failure();
    if (succeeded(parser.parseOptionalKeyword("omit")))
      p.producer = false;
    else if (parser.parseKeyword("produce"))
      return failure();
    return success();
  };
  if (parser.parseLess() || parser.parseKeyword("loop") ||
      parser.parseInteger(loop) || parser.parseComma() ||
      parseList("present", present) || parser.parseComma() ||
      parseList("coiterate", coiterated) || parser.parseComma())
    return {};
  bool linear = succeeded(parser.parseOptionalKeyword("linear"));
  // `linear U`: every coordinate of the dimension (one {U} point).
  if (linear && succeeded(parser.parseOptionalKeyword("U"))) {
    LatticePoint &u = points.emplace_back();
    u.universe = true;
  }
  if (!linear && (parser.parseKeyword("points") ||
                  parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                                 parsePoint)))
    return {};
  bool merged = false, branchless = false;
  StringAttr sequence;
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc at = parser.getCurrentLocation();
    if (!linear && !merged && !branchless && !sequence &&
        succeeded(parser.parseOptionalKeyword("merged"))) {
      merged = true;
      continue;
    }
    if (!linear && !branchless && !sequence &&
        succeeded(parser.parseOptionalKeyword("branchless"))) {
      branchless = true;
      continue;
    }
    if (sequence || failed(parser.parseOptionalKeyword("sequence"))) {
      parser.emitError(at) << "expected 'merged', 'branchless' or 'sequence'";
      return {};
    }
    std::string text;
    if (parser.parseString(&text))
      return {};
    sequence = parser.getBuilder().getStringAttr(text);
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<LatticeAttr>(
      loc, parser.getContext(), loop, ArrayRef<unsigned>(present),
      ArrayRef<unsigned>(coiterated), ArrayRef<LatticePoint>(points), linear,
      merged, branchless, sequence);
}

void LatticeAttr::print(AsmPrinter &printer) const {
  raw_ostream &os = printer.getStream();
  os << "<loop " << getLoop() << ", present [";
  llvm::interleaveComma(getPresent(), os);
  os << "], coiterate [";
  llvm::interleaveComma(getCoiterated(), os);
  if (getLinear()) {
    os << "], linear" << (getPoints().empty() ? "" : " U");
  } else {
    os << "], points [";
    llvm::interleaveComma(getPoints(), os, [&](const LatticePoint &p) {
      os << "{";
      llvm::interleaveComma(p.getOperands(), os);
      if (p.universe)
        os << (p.operands ? ", U" : "U");
      os << "} " << (p.producer ? "produce" : "omit");
    });
    os << "]" << (getMerged() ? ", merged" : "")
       << (getBranchless() ? ", branchless" : "");
  }
  if (getSequence()) {
    os << ", sequence ";
    printer.printString(getSequence().getValue());
  }
  os << ">";
}

LogicalResult LatticeAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  unsigned loop, ArrayRef<unsigned> present,
                                  ArrayRef<unsigned> coiterated,
                                  ArrayRef<LatticePoint> points, bool linear,
                                  bool merged, bool branchless,
                                  StringAttr sequence) {
  auto increasing = [](ArrayRef<unsigned> list) {
    for (unsigned i = 1; i < list.size(); ++i)
      if (list[i - 1] >= list[i])
        return false;
    return true;
  };
  if (!increasing(present) || !increasing(coiterated))
    return emitError() << "'present' and 'coiterate' must list inputs in "
                          "increasing order, each once";
  uint64_t presentMask = 0, coiteratedMask = 0;
  for (unsigned k : present) {
    if (k >= kMaxLatticeOperands)
      return emitError() << "input " << k << " is beyond the lattice limit";
    presentMask |= uint64_t(1) << k;
  }
  for (unsigned k : coiterated) {
    if (!(presentMask >> k & 1))
      return emitError() << "coiterated input " << k << " is not present";
    coiteratedMask |= uint64_t(1) << k;
  }
  if (linear && merged)
    return emitError() << "a linear coiteration is one loop already; it "
                          "cannot be merged";
  if (merged && points.empty())
    return emitError() << "a merged loop needs lattice points";
  if (branchless) {
    // Every non-empty subset of the root's inputs, each computed (the root
    // may be an omitter, evaluated and dropped): one evaluation in general
    // form is then what the cases do.
    if (linear || merged || points.empty() || points.front().universe ||
        points.front().size() < 2)
      return emitError() << "a branchless loop needs a lattice whose root "
                            "coiterates two or more inputs, without U, and "
                            "is neither linear nor merged";
    unsigned n = points.front().size();
    if (n >= 16 || points.size() != (size_t(1) << n) - 1 ||
        llvm::any_of(points, [&](const LatticePoint &p) {
          return (!p.producer && &p != &points.front()) || p.universe;
        }))
      return emitError() << "a branchless loop's points must be every "
                            "non-empty subset of the root's inputs, each "
                            "'produce' but the root";
  }
  if (linear && coiterated.empty())
    return emitError() << "a linear coiteration needs coiterated inputs";
  if (linear &&
      !(points.empty() || (points.size() == 1 && points[0].universe &&
                           !points[0].operands && points[0].producer)))
    return emitError() << "a linear coiteration has no lattice points but U";
  for (unsigned i = 0; i < points.size(); ++i) {
    const LatticePoint &p = points[i];
    if (p.operands & ~coiteratedMask)
      return emitError() << "point " << i
                         << " lists an input that is not coiterated";
    if (!p.operands && !p.universe)
      return emitError() << "point " << i << " is empty";
    if (!p.isSubsetOf(points.front()))
      return emitError() << "point " << i
                         << " is not included in the root (the first point)";
    for (unsigned j = 0; j < i; ++j)
      if (points[j].sameSet(p))
        return emitError() << "point " << i << " repeats point " << j;
    if (i > 0 && points[i - 1].size() < p.size())
      return emitError() << "points must be ordered by decreasing size";
  }
  if (sequence) {
    std::optional<SequenceExpr> seq = SequenceExpr::parse(sequence.getValue());
    if (!seq)
      return emitError() << "malformed sequence expression \""
                         << sequence.getValue() << "\"";
    for (unsigned k : seq->getOperands())
      if (!(coiteratedMask >> k & 1))
        return emitError() << "the sequence reads input " << k
                           << ", which is not coiterated";
  }
  return success();
}

/// The first part of `seq` that reads input k alone and is neither a merge
/// nor a complement (those belong to the lattice): the input's view.
static std::optional<SequenceExpr> findView(const SequenceExpr &seq,
                                            unsigned k) {
  using Kind = SequenceExpr::Kind;
  bool merge = seq.is(Kind::Union) || seq.is(Kind::Intersection) ||
               seq.is(Kind::Complement);
  SmallVector<unsigned> ops = seq.getOperands();
  if (!merge && ops.size() == 1 && ops[0] == k)
    return seq;
  for (const SequenceExpr &c : seq.getChildren())
    if (std::optional<SequenceExpr> v = findView(c, k))
      return v;
  return std::nullopt;
}

SequenceExpr LatticeAttr::getView(unsigned k) const {
  if (getSequence())
    if (std::optional<SequenceExpr> seq =
            SequenceExpr::parse(getSequence().getValue()))
      if (std::optional<SequenceExpr> view = findView(*seq, k))
        return *view;
  return SequenceExpr::leaf(k);
}

Lattice LatticeAttr::getLattice() const {
  return Lattice::fromPoints(getPoints());
}

uint64_t LatticeAttr::getPresentMask() const {
  uint64_t mask = 0;
  for (unsigned k : getPresent())
    mask |= uint64_t(1) << k;
  return mask;
}
