//===- TestSequenceLoops.cpp - sparse-array-test-sequence-loops -----------===//
//
// seed 001 §6.3 and Fig. 15 (CFIR loops from a lattice: one loop per point
// in order, a switch over its sub-points, locators bound after eval) and
// Fig. 23a (compiled through the iterator model), for hand-written
// sequence expressions. A test harness for the iterator layer.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Algebra/SequenceLattice.h"
#include "SparseArray/Conversion/SequenceIterator.h"
#include "SparseArray/Dialect/SparseArray.h"

#include "CodegenUtils.h"
#include "TestPasses.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

#include <map>

namespace mlir {
namespace sparse_array {
namespace test {
#define GEN_PASS_DEF_SPARSEARRAYTESTSEQUENCELOOPSPASS
#include "TestPasses.h.inc"
} // namespace test
} // namespace sparse_array
} // namespace mlir

using namespace mlir;
using namespace mlir::sparse_array;

namespace {

using Kind = SequenceExpr::Kind;

/// One test function's lowering.
class SequenceLoops {
public:
  SequenceLoops(func::FuncOp func, SequenceExpr root)
      : func(func), loc(func.getLoc()), root(std::move(root)) {}

  LogicalResult run();

private:
  LogicalResult createLeaves(OpBuilder &b);
  LeafIterator *leafOf(const SequenceExpr &leaf) {
    auto it = leaves.find({leaf.getOperand(), leaf.getLevel()});
    return it == leaves.end() ? nullptr : it->second.get();
  }
  std::unique_ptr<SequenceIterator> iteratorOf(const SequenceExpr &seq);
  /// Initializes the parts of `seq` no earlier loop iterated.
  void initFresh(OpBuilder &b, const SequenceExpr &seq);
  /// out[x] += the values of the arrays whose innermost level `seq` holds.
  void emitCase(OpBuilder &b, Location l, const SequenceExpr &seq, Value x);

  func::FuncOp func;
  Location loc;
  SequenceExpr root;
  std::map<std::pair<unsigned, unsigned>, std::unique_ptr<LeafIterator>> leaves;
  SmallVector<LeafIterator *> order;
  llvm::DenseSet<LeafIterator *> iterated;
  std::unique_ptr<SequenceCursors> cursors;
  Value out;
  std::string error;
};

void collectLeaves(const SequenceExpr &s, SmallVectorImpl<SequenceExpr> &out) {
  if (s.is(Kind::Leaf))
    out.push_back(s);
  for (const SequenceExpr &c : s.getChildren())
    collectLeaves(c, out);
}

/// Whether leaf (operand, level) is sliced with a negative step in `s`: it
/// is then read backwards (a reflected level iterator).
bool readBackwards(const SequenceExpr &s, const SequenceExpr &leaf) {
  if (s.is(Kind::Slice) && s.getSliceStep() < 0 &&
      s.getChildren()[0].is(Kind::Leaf) &&
      s.getChildren()[0].getOperand() == leaf.getOperand() &&
      s.getChildren()[0].getLevel() == leaf.getLevel())
    return true;
  return llvm::any_of(s.getChildren(), [&](const SequenceExpr &c) {
    return readBackwards(c, leaf);
  });
}

LogicalResult SequenceLoops::createLeaves(OpBuilder &b) {
  SmallVector<SequenceExpr> found;
  collectLeaves(root, found);
  llvm::sort(found, [](const SequenceExpr &x, const SequenceExpr &y) {
    return std::make_pair(x.getOperand(), x.getLevel()) <
           std::make_pair(y.getOperand(), y.getLevel());
  });
  for (const SequenceExpr &leaf : found) {
    auto key = std::make_pair(leaf.getOperand(), leaf.getLevel());
    if (leaves.count(key))
      continue;
    if (leaf.getOperand() >= func.getNumArguments())
      return func.emitError() << "leaf " << leaf.str() << " names no argument";
    Value array = func.getArgument(leaf.getOperand());
    auto type = dyn_cast<ArrayType>(array.getType());
    if (!type)
      return func.emitError() << "argument " << leaf.getOperand()
                              << " is not a sparse_array array";
    FormatAttr format = type.getFormat();
    if (leaf.getLevel() >= format.getNumLevels())
      return func.emitError() << "leaf " << leaf.str() << ": no such level";
    LevelSpec spec = format.getLevels()[leaf.getLevel()];
    if (spec.isFull() != leaf.isDenseLeaf())
      return func.emitError() << "leaf " << leaf.str() << " says "
                              << (leaf.isDenseLeaf() ? "dense" : "sparse")
                              << " but the level is " << spec.getName();
    LeafIterator *parent = nullptr;
    if (leaf.getLevel() > 0) {
      auto p = leaves.find({leaf.getOperand(), leaf.getLevel() - 1});
      if (p == leaves.end())
        return func.emitError()
               << "leaf " << leaf.str()
               << " needs the level above it in the expression";
      parent = p->second.get();
    }
    auto level = LevelIteratorRegistry::create(
        spec, fetchLevelBuffers(b, loc, array, leaf.getLevel()));
    if (!level)
      return func.emitError()
             << "level format '" << spec.getName() << "' has no iterator";
    if (readBackwards(root, leaf) && !level->canLocate())
      level = makeReflectedIterator(std::move(level));
    Value extent = DimOp::create(
        b, loc, array,
        static_cast<int64_t>(format.getLevelDim(leaf.getLevel())));
    auto it = std::make_unique<LeafIterator>(std::move(level), extent, parent);
    order.push_back(it.get());
    leaves[key] = std::move(it);
  }
  return success();
}

std::unique_ptr<SequenceIterator>
SequenceLoops::iteratorOf(const SequenceExpr &seq) {
  return SequenceIterator::fromExpr(
      seq, [&](const SequenceExpr &l) { return leafOf(l); }, *cursors, error);
}

void SequenceLoops::initFresh(OpBuilder &b, const SequenceExpr &seq) {
  std::unique_ptr<SequenceIterator> it = iteratorOf(seq);
  if (!it)
    return;
  SmallVector<LeafIterator *> active;
  it->collectActiveLeaves(active);
  if (llvm::none_of(active,
                    [&](LeafIterator *l) { return iterated.count(l); })) {
    it->init(b, loc);
    return;
  }
  for (const SequenceExpr &c : seq.getChildren())
    initFresh(b, c);
}

void SequenceLoops::emitCase(OpBuilder &b, Location l, const SequenceExpr &seq,
                             Value x) {
  std::unique_ptr<SequenceIterator> it = iteratorOf(seq);
  SmallVector<std::pair<LeafIterator *, Value>> matched;
  if (it)
    it->collectMatched(b, l, x, matched);
  Value zero = arith::ConstantOp::create(b, l, b.getF64FloatAttr(0.0));
  Value sum = zero;
  for (auto &[key, leaf] : leaves) {
    Value array = func.getArgument(key.first);
    auto type = cast<ArrayType>(array.getType());
    if (key.second + 1 != type.getFormat().getNumLevels())
      continue;
    LeafIterator *cursor = leaf.get();
    for (auto [m, here] : matched) {
      if (m != cursor)
        continue;
      Value values = ValuesOp::create(
          b, l, MemRefType::get({ShapedType::kDynamic}, type.getElementType()),
          array);
      // Loaded only where the leaf stores x (its position is valid there).
      auto v = scf::IfOp::create(
          b, l, here,
          [&](OpBuilder &tb, Location tl) {
            scf::YieldOp::create(
                tb, tl,
                memref::LoadOp::create(
                    tb, tl, values,
                    ValueRange{cursor
                                   ->storedSegment(
                                       tb, tl, cursor->pos,
                                       arith::AddIOp::create(
                                           tb, tl, cursor->pos,
                                           constIndex(tb, tl, 1)))
                                   .first})
                    .getResult());
          },
          [&](OpBuilder &eb, Location el) {
            scf::YieldOp::create(eb, el, zero);
          });
      sum = arith::AddFOp::create(b, l, sum, v.getResult(0));
      break;
    }
  }
  Value old = memref::LoadOp::create(b, l, out, ValueRange{x});
  memref::StoreOp::create(b, l, arith::AddFOp::create(b, l, old, sum), out,
                          ValueRange{x});
}

LogicalResult SequenceLoops::run() {
  auto resultType = func.getNumResults() == 1
                        ? dyn_cast<ArrayType>(func.getResultTypes()[0])
                        : ArrayType();
  if (!resultType || resultType.getRank() != 1 || !resultType.isAllDense() ||
      !resultType.getElementType().isF64())
    return func.emitError("a test sequence function returns a dense f64 "
                          "vector");
  for (Type t : func.getArgumentTypes())
    if (auto at = dyn_cast<ArrayType>(t); !at || !at.getElementType().isF64())
      return func.emitError("test sequence arguments are f64 arrays");
  Block *entry = func.addEntryBlock();
  OpBuilder b = OpBuilder::atBlockBegin(entry);
  if (failed(createLeaves(b)))
    return failure();
  cursors = std::make_unique<SequenceCursors>(order);
  // Empty cursors until a loop initializes them (a level's init may read
  // its parent's position, valid only under it).
  for (LeafIterator *leaf : order)
    leaf->begin = leaf->pos = leaf->end = constIndex(b, loc, 0);

  std::unique_ptr<SequenceIterator> rootIt = iteratorOf(root);
  if (!rootIt)
    return func.emitError() << error;
  Value size = rootIt->size(b, loc);
  out = memref::AllocOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, b.getF64Type()),
      ValueRange{size});
  scf::ForOp::create(
      b, loc, constIndex(b, loc, 0), size, constIndex(b, loc, 1), ValueRange{},
      [&](OpBuilder &fb, Location l, Value i, ValueRange) {
        Value zero = arith::ConstantOp::create(fb, l, fb.getF64FloatAttr(0.0));
        memref::StoreOp::create(fb, l, zero, out, ValueRange{i});
        scf::YieldOp::create(fb, l);
      });

  SequenceLattice lattice = SequenceLattice::build(root);
  bool failed = false;
  for (const SequencePoint &point : lattice.getPoints()) {
    if (!point.loop)
      continue;
    std::unique_ptr<SequenceIterator> it = iteratorOf(point.sequence);
    if (!it)
      return func.emitError() << error;
    if (&point != &lattice.getPoints().front()) {
      initFresh(b, point.sequence);
      it->resume(b, loc);
    } else {
      it->init(b, loc);
    }
    SmallVector<LeafIterator *> active;
    it->collectActiveLeaves(active);
    iterated.insert(active.begin(), active.end());
    cursors->emitWhile(
        b, loc, [&](OpBuilder &cb, Location l) { return it->valid(cb, l); },
        [&](OpBuilder &bb, Location l) {
          Value x = it->eval(bb, l);
          it->bindLocated(bb, l, x);
          // The cases, first match taken. Seed 001 §6.3.2 drops the test
          // when the point has one sub-point, but a loop over an
          // intersection visits the least coordinate of its parts, which
          // not all of them need hold.
          std::function<void(OpBuilder &, unsigned)> cases = [&](OpBuilder &cb,
                                                                 unsigned i) {
            if (i == point.subPoints.size())
              return;
            const SequencePoint &subPoint =
                lattice.getPoints()[point.subPoints[i]];
            const SequenceExpr &sub = subPoint.sequence;
            std::unique_ptr<SequenceIterator> subIt = iteratorOf(sub);
            if (!subIt) {
              failed = true;
              return;
            }
            Value here = subIt->equals(cb, l, x);
            scf::IfOp::create(
                cb, l, here,
                [&](OpBuilder &tb, Location) {
                  // An omitter (seed 000 §6.3) skips the coordinate.
                  if (subPoint.producer)
                    emitCase(tb, l, sub, x);
                  scf::YieldOp::create(tb, l);
                },
                [&](OpBuilder &eb, Location) {
                  cases(eb, i + 1);
                  scf::YieldOp::create(eb, l);
                });
          };
          cases(bb, 0);
          it->next(bb, l, x);
        });
  }
  if (failed)
    return func.emitError() << error;
  Value result =
      AssembleOp::create(b, loc, resultType, ValueRange{out}, ValueRange{size});
  func::ReturnOp::create(b, loc, result);
  return success();
}

struct TestSequenceLoopsPass
    : public sparse_array::test::impl::SparseArrayTestSequenceLoopsPassBase<
          TestSequenceLoopsPass> {
  void runOnOperation() override {
    SmallVector<func::FuncOp> funcs;
    getOperation().walk([&](func::FuncOp f) {
      if (f->hasAttr("sparse_array.test_sequence") && f.isDeclaration())
        funcs.push_back(f);
    });
    for (func::FuncOp f : funcs) {
      auto text =
          dyn_cast<StringAttr>(f->getAttr("sparse_array.test_sequence"));
      std::optional<SequenceExpr> seq =
          text ? SequenceExpr::parse(text.getValue()) : std::nullopt;
      if (!seq) {
        f.emitError("malformed sparse_array.test_sequence");
        return signalPassFailure();
      }
      f->removeAttr("sparse_array.test_sequence");
      if (failed(SequenceLoops(f, *seq).run()))
        return signalPassFailure();
    }
  }
};

} // namespace

void mlir::sparse_array::test::registerTestPasses() {
  PassRegistration<TestSequenceLoopsPass>();
}
