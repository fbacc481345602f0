//===- LevelIterator.cpp - Iterators over stored levels -------------------===//
//
// seed 001 §7.1.1 (iterator model for formats, Fig. 18/19); seed 002 §3.2
// (level capabilities) and §4.2 (level functions).
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Conversion/LevelIterator.h"
#include "SparseArray/Dialect/SparseArray.h"

#include "CodegenUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"

#include <mutex>

using namespace mlir;
using namespace mlir::sparse_array;

LevelIterator::~LevelIterator() = default;

Value LevelIterator::valid(OpBuilder &b, Location loc, Value pos,
                           Value end) const {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, pos, end);
}

Value LevelIterator::matches(OpBuilder &b, Location loc, Value begin, Value pos,
                             Value end, Value x, Value isValid) {
  if (!isValid)
    isValid = valid(b, loc, pos, end);
  auto m = scf::IfOp::create(
      b, loc, isValid,
      [&](OpBuilder &tb, Location l) {
        Value c = coordinate(tb, l, begin, pos);
        Value eq = arith::CmpIOp::create(tb, l, arith::CmpIPredicate::eq, c, x);
        scf::YieldOp::create(tb, l, eq);
      },
      [&](OpBuilder &eb, Location l) {
        Value no = arith::ConstantIntOp::create(eb, l, 0, 1);
        scf::YieldOp::create(eb, l, no);
      });
  return m.getResult(0);
}

Value LevelIterator::next(OpBuilder &b, Location loc, Value pos, Value end) {
  // pos + 1 on unique levels: a format plugin that allows non-unique levels
  // gets runs without code of its own.
  return scanRun(b, loc, pos, end);
}

Value LevelIterator::scanRun(OpBuilder &b, Location loc, Value pos,
                             Value end) {
  Value after = arith::AddIOp::create(b, loc, pos, constIndex(b, loc, 1));
  if (spec.unique)
    return after;
  Value crd = coordinate(b, loc, Value(), pos);
  auto loop = scf::WhileOp::create(
      b, loc, TypeRange{b.getIndexType()}, ValueRange{after},
      [&](OpBuilder &bb, Location l, ValueRange args) {
        Value same = matches(bb, l, Value(), args[0], end, crd);
        scf::ConditionOp::create(bb, l, same, args);
      },
      [&](OpBuilder &bb, Location l, ValueRange args) {
        Value n = arith::AddIOp::create(bb, l, args[0], constIndex(bb, l, 1));
        scf::YieldOp::create(bb, l, n);
      });
  return loop.getResult(0);
}

Value LevelIterator::advance(OpBuilder &b, Location loc, Value matched,
                             Value pos, Value end) {
  if (!hasSegments()) {
    Value n = arith::AddIOp::create(b, loc, pos, constIndex(b, loc, 1));
    return arith::SelectOp::create(b, loc, matched, n, pos);
  }
  auto se = scf::IfOp::create(
      b, loc, matched,
      [&](OpBuilder &tb, Location l) {
        scf::YieldOp::create(tb, l, next(tb, l, pos, end));
      },
      [&](OpBuilder &eb, Location l) { scf::YieldOp::create(eb, l, pos); });
  return se.getResult(0);
}

Value LevelIterator::locate(OpBuilder &, Location, Value, Value) {
  llvm_unreachable("level cannot locate");
}

LevelIterator::SearchResult LevelIterator::search(OpBuilder &b, Location loc,
                                                  Value begin, Value end,
                                                  Value target) {
  Value one = constIndex(b, loc, 1);
  Value first;
  if (spec.ordered) {
    first = emitLowerBound(b, loc, begin, end,
                           [&](OpBuilder &bb, Location l, Value mid) -> Value {
                             return arith::CmpIOp::create(
                                 bb, l, arith::CmpIPredicate::ult,
                                 coordinate(bb, l, begin, mid), target);
                           });
  } else {
    // Unordered: scan to the first match.
    auto loop = scf::WhileOp::create(
        b, loc, TypeRange{b.getIndexType()}, ValueRange{begin},
        [&](OpBuilder &bb, Location l, ValueRange args) {
          Value inBounds = valid(bb, l, args[0], end);
          Value hit = matches(bb, l, begin, args[0], end, target, inBounds);
          Value more = arith::AndIOp::create(
              bb, l, inBounds,
              arith::XOrIOp::create(bb, l, hit,
                                    arith::ConstantIntOp::create(bb, l, 1, 1)));
          scf::ConditionOp::create(bb, l, more, args);
        },
        [&](OpBuilder &bb, Location l, ValueRange args) {
          scf::YieldOp::create(
              bb, l, arith::AddIOp::create(bb, l, args[0], one).getResult());
        });
    first = loop.getResult(0);
  }
  Value hit = matches(b, loc, begin, first, end, target);
  // The matching run, or [first, first) when there is none.
  auto run = scf::IfOp::create(
      b, loc, hit,
      [&](OpBuilder &tb, Location l) {
        scf::YieldOp::create(tb, l, next(tb, l, first, end));
      },
      [&](OpBuilder &eb, Location l) { scf::YieldOp::create(eb, l, first); });
  return {first, hit, run.getResult(0)};
}

namespace {

/// Full levels (seed 001 Fig. 18): every coordinate of the dimension has a
/// position (parent * size + coordinate). Coordinate-value iteration and
/// locate.
class FullIterator : public LevelIterator {
public:
  FullIterator(LevelSpec spec, Value size) : LevelIterator(spec), size(size) {}
  bool canLocate() const override { return true; }
  std::pair<Value, Value> init(OpBuilder &b, Location loc, Value lo,
                               Value hi) override {
    Value begin = arith::MulIOp::create(b, loc, lo, size);
    // One parent (the loops' case: hi = lo + 1): its segment of `size`.
    if (auto add = hi.getDefiningOp<arith::AddIOp>();
        add && add.getLhs() == lo && matchPattern(add.getRhs(), m_One()))
      return {begin, arith::AddIOp::create(b, loc, begin, size)};
    return {begin, arith::MulIOp::create(b, loc, hi, size)};
  }
  Value coordinate(OpBuilder &b, Location loc, Value begin,
                   Value pos) override {
    return arith::SubIOp::create(b, loc, pos, begin);
  }
  Value locate(OpBuilder &b, Location loc, Value parent, Value crd) override {
    Value base = arith::MulIOp::create(b, loc, parent, size);
    return arith::AddIOp::create(b, loc, base, crd);
  }

private:
  Value size;
};

/// Levels that store coordinates per position (seed 001 Fig. 19;
/// compressed: children of a parent through the positions buffer;
/// singleton: one child per parent position). Position iteration;
/// duplicates on non-unique levels form runs.
class StoredCoordinateIterator : public LevelIterator {
public:
  StoredCoordinateIterator(LevelSpec spec, Value positions, Value coordinates)
      : LevelIterator(spec), positions(positions), coordinates(coordinates) {}
  bool canLocate() const override { return false; }
  std::pair<Value, Value> init(OpBuilder &b, Location loc, Value lo,
                               Value hi) override {
    if (!positions)
      return {lo, hi};
    return {loadIndex(b, loc, positions, lo), loadIndex(b, loc, positions, hi)};
  }
  Value coordinate(OpBuilder &b, Location loc, Value, Value pos) override {
    return loadIndex(b, loc, coordinates, pos);
  }

private:
  Value positions, coordinates;
};

/// One part of a level read through sparse_array.linearize (seed 001 §5.1:
/// the projections of a split): positions are the stored level's, the
/// coordinate of a position is its stored coordinate's quotient
/// (c / divisor, the first part) or remainder ((c / divisor) % modulus).
/// The first part takes the level's segment under a parent; each later
/// part the run of positions its enclosing part's coordinate spans (the
/// positions of one quotient are contiguous on an ordered level), like a
/// singleton below a non-unique level. Parts before the last are
/// non-unique: a coordinate spans the run of positions sharing it.
class SplitPartIterator : public LevelIterator {
public:
  SplitPartIterator(std::unique_ptr<LevelIterator> base, bool first, bool last,
                    Value divisor, Value modulus)
      : LevelIterator(partSpec(base->getSpec(), last)), base(std::move(base)),
        first(first), divisor(divisor), modulus(modulus) {}
  bool canLocate() const override { return false; }
  std::pair<Value, Value> init(OpBuilder &b, Location loc, Value lo,
                               Value hi) override {
    if (first)
      return base->init(b, loc, lo, hi);
    return {lo, hi};
  }
  Value coordinate(OpBuilder &b, Location loc, Value begin,
                   Value pos) override {
    Value c = base->coordinate(b, loc, begin, pos);
    c = arith::DivUIOp::create(b, loc, c, divisor);
    if (modulus)
      c = arith::RemUIOp::create(b, loc, c, modulus);
    return c;
  }
  Value next(OpBuilder &b, Location loc, Value pos, Value end) override {
    // The run of positions with the same coordinate of this part.
    return scanRun(b, loc, pos, end);
  }

private:
  static LevelSpec partSpec(LevelSpec spec, bool last) {
    if (!last)
      spec.unique = false;
    return spec;
  }
  std::unique_ptr<LevelIterator> base;
  bool first;
  Value divisor, modulus;
};

/// A level read from its end (makeReflectedIterator): virtual position
/// q = K - 1 - p and coordinate K - c for stored position p and coordinate
/// c (K = kReflectionBase). A segment [b, e) reads as [K - e, K - b); a run
/// [q, r) of virtual positions is the stored run [K - r, K - q).
class ReflectedIterator : public LevelIterator {
public:
  explicit ReflectedIterator(std::unique_ptr<LevelIterator> base)
      : LevelIterator(base->getSpec()), base(std::move(base)) {}
  bool canLocate() const override { return false; }
  bool isReflected() const override { return true; }
  bool shortSegments() const override { return base->shortSegments(); }
  std::pair<Value, Value> init(OpBuilder &b, Location loc, Value lo,
                               Value hi) override {
    auto [begin, end] = base->init(b, loc, lo, hi);
    return {reflect(b, loc, end, 0), reflect(b, loc, begin, 0)};
  }
  Value coordinate(OpBuilder &b, Location loc, Value, Value pos) override {
    // The stored level's own segment start is not known here; the base
    // formats this wraps read a position's coordinate alone.
    Value stored = base->coordinate(b, loc, Value(), reflect(b, loc, pos, 1));
    return reflect(b, loc, stored, 0);
  }
  Value next(OpBuilder &b, Location loc, Value pos, Value end) override {
    return scanRun(b, loc, pos, end);
  }
  std::pair<Value, Value> storedSegment(OpBuilder &b, Location loc, Value lo,
                                        Value hi) override {
    return {reflect(b, loc, hi, 0), reflect(b, loc, lo, 0)};
  }

private:
  /// K - bias - v.
  static Value reflect(OpBuilder &b, Location loc, Value v, int64_t bias) {
    return arith::SubIOp::create(b, loc,
                                 constIndex(b, loc, kReflectionBase - bias), v);
  }
  std::unique_ptr<LevelIterator> base;
};

struct Registry {
  std::mutex mutex;
  llvm::DenseMap<const LevelFormat *, LevelIteratorFactory> factories;
  Registry() {
    // The level formats in lib/Conversion/Iterators/Levels.
    factories[LevelFormatRegistry::lookup("diagonal")] = makeDiagonalIterator;
    factories[LevelFormatRegistry::lookup("ellpack")] = makeEllpackIterator;
    factories[LevelFormatRegistry::lookup("loose_compressed")] =
        makeLooseCompressedIterator;
    factories[LevelFormatRegistry::lookup("hashed")] = makeHashedIterator;
    factories[LevelFormatRegistry::lookup("structured")] =
        makeStructuredIterator;
  }
};

Registry &registry() {
  static Registry r;
  return r;
}

} // namespace

std::unique_ptr<LevelIterator>
mlir::sparse_array::makeFullIterator(LevelSpec spec, Value size) {
  return std::make_unique<FullIterator>(spec, size);
}

std::unique_ptr<LevelIterator> mlir::sparse_array::makeStoredCoordinateIterator(
    LevelSpec spec, Value positions, Value coordinates) {
  return std::make_unique<StoredCoordinateIterator>(spec, positions,
                                                    coordinates);
}

std::unique_ptr<LevelIterator>
mlir::sparse_array::makeReflectedIterator(std::unique_ptr<LevelIterator> base) {
  return std::make_unique<ReflectedIterator>(std::move(base));
}

std::unique_ptr<LevelIterator>
mlir::sparse_array::makeSplitPartIterator(std::unique_ptr<LevelIterator> base,
                                          bool first, bool last, Value divisor,
                                          Value modulus) {
  return std::make_unique<SplitPartIterator>(std::move(base), first, last,
                                             divisor, modulus);
}

void LevelIteratorRegistry::registerFactory(const LevelFormat *format,
                                            LevelIteratorFactory factory) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.factories[format] = std::move(factory);
}

std::unique_ptr<LevelIterator>
LevelIteratorRegistry::create(LevelSpec spec, const LevelBuffers &buffers) {
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.factories.find(spec.format);
    if (it != r.factories.end())
      return it->second(spec, buffers);
  }
  const LevelFormat *f = spec.format;
  LevelCapability caps = f->getCapabilities();
  if (spec.isFull() &&
      hasCapability(caps, LevelCapability::CoordinateValueIteration) &&
      hasCapability(caps, LevelCapability::Locate))
    return makeFullIterator(spec, buffers.size);
  if (hasCapability(caps, LevelCapability::PositionIteration) &&
      f->hasCoordinatesBuffer())
    return makeStoredCoordinateIterator(spec, buffers.positions,
                                        buffers.coordinates);
  return nullptr;
}

LevelBuffers mlir::sparse_array::fetchLevelBuffers(OpBuilder &b, Location loc,
                                                   Value array, unsigned l) {
  auto type = cast<ArrayType>(array.getType());
  FormatAttr format = type.getFormat();
  LevelSpec spec = format.getLevels()[l];
  LevelBuffers buffers;
  auto extentOf = [&](unsigned level) -> Value {
    unsigned dim = format.getLevelDim(level);
    if (ShapedType::isDynamic(type.getShape()[dim]))
      return DimOp::create(b, loc, array, static_cast<int64_t>(dim));
    return constIndex(b, loc, type.getShape()[dim]);
  };
  buffers.size = extentOf(l);
  if (spec.isFull())
    return buffers;
  if (l > 0)
    buffers.parentSize = extentOf(l - 1);
  for (const LevelBufferDecl &decl : spec.format->getBuffers()) {
    auto memref = MemRefType::get(
        {ShapedType::kDynamic},
        b.getIntegerType(decl.width == sparse_array_levels::BufferWidth::Positions
                             ? format.getPosWidth()
                             : format.getCrdWidth()));
    StringRef role = decl.role;
    Value buffer;
    if (role == sparse_array_levels::kPositionsRole)
      buffer = buffers.positions = PositionsOp::create(b, loc, memref, array, l);
    else if (role == sparse_array_levels::kCoordinatesRole)
      buffer = buffers.coordinates =
          CoordinatesOp::create(b, loc, memref, array, l);
    else
      buffer = LevelBufferOp::create(b, loc, memref, array, l, role);
    buffers.declared.push_back(buffer);
  }
  return buffers;
}
