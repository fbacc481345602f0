//===- PropertyChecker.cpp - Test declared properties against bodies ------===//

#include "SparseArray/Analysis/PropertyChecker.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallString.h"

#include <random>

using namespace mlir;
using namespace mlir::sparse_array;

SmallVector<TypedAttr> mlir::sparse_array::getSampleValues(Type type,
                                                           unsigned randomSamples,
                                                           uint64_t seed) {
  SmallVector<TypedAttr> samples;
  std::mt19937_64 rng(seed);
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = floatType.getFloatSemantics();
    auto add = [&](APFloat v) { samples.push_back(FloatAttr::get(type, v)); };
    auto fromDouble = [&](double d) {
      APFloat v(d);
      bool lost;
      (void)v.convert(sem, APFloat::rmNearestTiesToEven, &lost);
      add(v);
    };
    // Special values early, so counterexamples read like "0 * inf = nan".
    for (double d : {0.0, 1.0, 2.0})
      fromDouble(d);
    add(APFloat::getInf(sem, false));
    add(APFloat::getInf(sem, true));
    add(APFloat::getNaN(sem));
    for (double d : {-1.0, -0.0, 0.5, -3.5, 3.0, 7.0})
      fromDouble(d);
    add(APFloat::getLargest(sem, false));
    add(APFloat::getLargest(sem, true));
    add(APFloat::getSmallestNormalized(sem, false));
    add(APFloat::getSmallest(sem, true));
    std::uniform_real_distribution<double> dist(-100.0, 100.0);
    for (unsigned i = 0; i < randomSamples; ++i)
      fromDouble(dist(rng));
    return samples;
  }
  auto intType = cast<IntegerType>(type);
  unsigned width = intType.getWidth();
  auto add = [&](APInt v) { samples.push_back(IntegerAttr::get(type, v)); };
  add(APInt(width, 0));
  add(APInt(width, 1));
  if (width == 1)
    return samples;
  add(APInt::getAllOnes(width)); // -1
  add(APInt(width, 2));
  add(APInt(width, -2, /*isSigned=*/true));
  add(APInt(width, 3));
  add(APInt(width, 7));
  add(APInt(width, 12));
  add(APInt(width, 18));
  add(APInt::getSignedMinValue(width));
  add(APInt::getSignedMaxValue(width));
  for (unsigned i = 0; i < randomSamples; ++i)
    // Random bits truncated to the width (a wider APInt value is invalid:
    // it compared unequal to itself after folding, a false counterexample).
    add(APInt(width, rng(), /*isSigned=*/false, /*implicitTrunc=*/true));
  return samples;
}

namespace {

/// Same value for the purpose of a property: bit-identical, or both NaN.
bool sameResult(TypedAttr a, TypedAttr b) {
  if (auto fa = dyn_cast<FloatAttr>(a))
    if (auto fb = dyn_cast<FloatAttr>(b))
      if (fa.getValue().isNaN() && fb.getValue().isNaN())
        return true;
  return isSameScalar(a, b);
}

std::string str(TypedAttr value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printFillValue(os, value);
  return text;
}

class Checker {
public:
  Checker(FuncOp func, SymbolTableCollection &symbols, Evaluator &evaluator,
          const PropertyCheckOptions &options)
      : func(func), symbols(symbols), evaluator(evaluator), options(options) {}

  std::vector<PropertyViolation> run();

private:
  /// Evaluation of `fn` (default: func), or null where it has no value.
  TypedAttr call(ArrayRef<TypedAttr> args, FuncOp fn = {},
                 Region *region = nullptr) {
    FailureOr<TypedAttr> result =
        evaluator.evaluate(fn ? fn : func, args, region);
    return succeeded(result) ? *result : TypedAttr();
  }
  std::string callText(ArrayRef<TypedAttr> args, FuncOp fn = {}) {
    std::string text = "@" + (fn ? fn : func).getSymName().str() + "(";
    for (auto [i, a] : llvm::enumerate(args))
      text += (i ? ", " : "") + str(a);
    return text + ")";
  }
  /// Samples of argument `pos`, including `extra` values. Checks over
  /// triples (cubic in the sample count) take fewer random values.
  SmallVector<TypedAttr> samples(unsigned pos, ArrayRef<TypedAttr> extra = {},
                                 bool forTriples = false) {
    Type type = func.getArgumentTypes()[pos];
    unsigned random =
        forTriples ? std::min(options.randomSamples, 2u) : options.randomSamples;
    SmallVector<TypedAttr> values =
        getSampleValues(type, random, options.seed + pos);
    for (TypedAttr e : extra)
      if (e && e.getType() == type &&
          llvm::none_of(values, [&](TypedAttr v) { return isSameScalar(v, e); }))
        values.push_back(e);
    return values;
  }
  /// Calls `visit` on argument tuples: every combination for the positions
  /// in `full` (each ranging over its samples), the other positions taking
  /// samples in turn. Stops when `visit` returns false.
  void forTuples(ArrayRef<unsigned> full,
                 function_ref<bool(SmallVector<TypedAttr> &)> visit);
  /// Calls `visit` on every triple of `values` until it returns false.
  void forTriples(ArrayRef<TypedAttr> values,
                  function_ref<bool(TypedAttr, TypedAttr, TypedAttr)> visit);
  void report(StringRef property, std::string counterexample) {
    violations.push_back({property.str(), std::move(counterexample)});
  }
  SmallVector<TypedAttr> propertyValues() {
    SmallVector<TypedAttr> values;
    if (auto a = func.getAnnihilatorAttr())
      values.push_back(a.getValue());
    if (auto i = func.getIdentityAttr())
      values.push_back(i.getValue());
    if (auto alg = func.getAlgebraAttr())
      values.append(alg.getFills().begin(), alg.getFills().end());
    return values;
  }

  void checkCommutative();
  void checkAssociative();
  void checkIdempotent();
  void checkAnnihilator();
  void checkIdentity();
  void checkDistributive();
  void checkAlgebra();
  void checkCases();

  FuncOp func;
  SymbolTableCollection &symbols;
  Evaluator &evaluator;
  const PropertyCheckOptions &options;
  std::vector<PropertyViolation> violations;
};

void Checker::forTuples(ArrayRef<unsigned> full,
                        function_ref<bool(SmallVector<TypedAttr> &)> visit) {
  unsigned arity = func.getArity();
  SmallVector<SmallVector<TypedAttr>> pools;
  for (unsigned pos = 0; pos < arity; ++pos)
    pools.push_back(samples(pos, propertyValues()));
  SmallVector<unsigned> counter(full.size(), 0);
  unsigned rotate = 0;
  while (true) {
    SmallVector<TypedAttr> args(arity);
    for (unsigned pos = 0; pos < arity; ++pos)
      args[pos] = pools[pos][(rotate + pos) % pools[pos].size()];
    for (auto [k, pos] : llvm::enumerate(full))
      args[pos] = pools[pos][counter[k]];
    if (!visit(args))
      return;
    ++rotate;
    unsigned k = 0;
    for (; k < full.size(); ++k) {
      if (++counter[k] < pools[full[k]].size())
        break;
      counter[k] = 0;
    }
    if (k == full.size())
      return;
  }
}

void Checker::checkCommutative() {
  unsigned arity = func.getArity();
  for (unsigned p = 0; p + 1 < arity; ++p) {
    bool ok = true;
    forTuples({p, p + 1}, [&](SmallVector<TypedAttr> &args) {
      TypedAttr r1 = call(args);
      SmallVector<TypedAttr> swapped(args);
      std::swap(swapped[p], swapped[p + 1]);
      TypedAttr r2 = call(swapped);
      if (r1 && r2 && !sameResult(r1, r2)) {
        report("commutative", callText(args) + " = " + str(r1) + " but " +
                                  callText(swapped) + " = " + str(r2));
        ok = false;
      }
      return ok;
    });
    if (!ok)
      return;
  }
}

void Checker::forTriples(
    ArrayRef<TypedAttr> values,
    function_ref<bool(TypedAttr, TypedAttr, TypedAttr)> visit) {
  for (TypedAttr x : values)
    for (TypedAttr y : values)
      for (TypedAttr z : values)
        if (!visit(x, y, z))
          return;
}

void Checker::checkAssociative() {
  std::string f = "@" + func.getSymName().str();
  forTriples(samples(0, propertyValues(), true),
             [&](TypedAttr x, TypedAttr y, TypedAttr z) {
               TypedAttr xy = call({x, y}), yz = call({y, z});
               if (!xy || !yz)
                 return true;
               TypedAttr left = call({xy, z}), right = call({x, yz});
               if (!left || !right || sameResult(left, right))
                 return true;
               report("associative", f + "(" + callText({x, y}) + ", " +
                                         str(z) + ") = " + str(left) +
                                         " but " + f + "(" + str(x) + ", " +
                                         callText({y, z}) + ") = " +
                                         str(right));
               return false;
             });
}

void Checker::checkIdempotent() {
  for (TypedAttr x : samples(0, propertyValues())) {
    SmallVector<TypedAttr> args(func.getArity(), x);
    TypedAttr r = call(args);
    if (r && !sameResult(r, x)) {
      report("idempotent", callText(args) + " = " + str(r) + ", expected " +
                               str(x));
      return;
    }
  }
}

void Checker::checkAnnihilator() {
  AnnihilatorAttr annihilator = func.getAnnihilatorAttr();
  TypedAttr a = annihilator.getValue();
  std::string name = "annihilator " + str(a);
  for (unsigned pos = 0; pos < func.getArity(); ++pos) {
    if (!annihilator.holdsAt(pos))
      continue;
    SmallVector<unsigned> others;
    for (unsigned q = 0; q < func.getArity(); ++q)
      if (q != pos)
        others.push_back(q);
    bool ok = true;
    forTuples(others.size() > 2 ? ArrayRef<unsigned>(others).take_front(2)
                                : ArrayRef<unsigned>(others),
              [&](SmallVector<TypedAttr> &args) {
                args[pos] = a;
                TypedAttr r = call(args);
                if (r && !sameResult(r, a)) {
                  report(name, callText(args) + " = " + str(r) +
                                   ", expected " + str(a));
                  ok = false;
                }
                return ok;
              });
    if (!ok)
      return;
  }
}

void Checker::checkIdentity() {
  IdentityAttr identity = func.getIdentityAttr();
  TypedAttr id = identity.getValue();
  std::string name = "identity " + str(id);
  for (unsigned pos = 0; pos < 2; ++pos) {
    if (!identity.holdsAt(pos))
      continue;
    for (TypedAttr y : samples(1 - pos, propertyValues())) {
      SmallVector<TypedAttr> args(2);
      args[pos] = id;
      args[1 - pos] = y;
      TypedAttr r = call(args);
      if (r && !sameResult(r, y)) {
        report(name, callText(args) + " = " + str(r) + ", expected " + str(y));
        return;
      }
    }
  }
}

void Checker::checkDistributive() {
  for (Attribute ref : func.getDistributesOverAttr()) {
    auto g = symbols.lookupNearestSymbolFrom<FuncOp>(
        func, cast<FlatSymbolRefAttr>(ref).getAttr());
    if (!g)
      continue;
    std::string name = "distributes_over @" + g.getSymName().str();
    forTriples(samples(0, propertyValues(), true),
               [&](TypedAttr a, TypedAttr b, TypedAttr c) {
                 TypedAttr gbc = call({b, c}, g);
                 TypedAttr ab = call({a, b}), ac = call({a, c});
                 if (!gbc || !ab || !ac)
                   return true;
                 TypedAttr left = call({a, gbc}), right = call({ab, ac}, g);
                 if (!left || !right || sameResult(left, right))
                   return true;
                 report(name, "a = " + str(a) + ", b = " + str(b) +
                                  ", c = " + str(c) + ": f(a, g(b, c)) = " +
                                  str(left) + " but g(f(a, b), f(a, c)) = " +
                                  str(right));
                 return false;
               });
  }
}

void Checker::checkAlgebra() {
  AlgebraAttr algebra = func.getAlgebraAttr();
  IterationAlgebra expr = algebra.getAlgebra();
  ArrayRef<TypedAttr> fills = algebra.getFills();
  TypedAttr outside = call(fills);
  if (!outside)
    return;
  unsigned arity = func.getArity();
  std::string name = "algebra " + expr.str();
  for (unsigned mask = 0; mask < (1u << std::min(arity, 12u)); ++mask) {
    SmallVector<bool> defined(arity);
    for (unsigned k = 0; k < arity; ++k)
      defined[k] = mask & (1u << k);
    if (expr.contains(defined))
      continue;
    // Outside the algebra: defined arguments take non-fill values, the
    // others their fills; the result must be f(fills).
    SmallVector<unsigned> definedPositions;
    for (unsigned k = 0; k < arity; ++k)
      if (defined[k])
        definedPositions.push_back(k);
    bool ok = true;
    forTuples(ArrayRef<unsigned>(definedPositions).take_front(2),
              [&](SmallVector<TypedAttr> &args) {
                for (unsigned k = 0; k < arity; ++k) {
                  if (!defined[k])
                    args[k] = fills[k];
                  else if (isSameScalar(args[k], fills[k]))
                    return true; // an explicit fill is not "defined"
                }
                TypedAttr r = call(args);
                if (r && !sameResult(r, outside)) {
                  report(name, callText(args) + " = " + str(r) +
                                   " outside the algebra, where the result "
                                   "must be " +
                                   str(outside));
                  ok = false;
                }
                return ok;
              });
    if (!ok)
      return;
  }
}

void Checker::checkCases() {
  unsigned arity = func.getArity();
  SmallVector<TypedAttr> fills;
  for (unsigned i = 0; i < arity; ++i)
    fills.push_back(func.getCaseFill(i));
  for (unsigned k = 0, e = func.getCases().size(); k < e; ++k) {
    Region *caseRegion = &func.getCases()[k];
    ArrayRef<int32_t> positions = func.getCasePositions(k);
    SmallVector<unsigned> defined(positions.begin(), positions.end());
    std::string name = "case [";
    for (auto [i, p] : llvm::enumerate(positions))
      name += (i ? ", " : "") + std::to_string(p);
    name += "]";
    bool ok = true;
    forTuples(ArrayRef<unsigned>(defined).take_front(2),
              [&](SmallVector<TypedAttr> &args) {
                for (unsigned q = 0; q < arity; ++q) {
                  if (!llvm::is_contained(defined, q))
                    args[q] = fills[q];
                  else if (isSameScalar(args[q], fills[q]))
                    return true; // a defined argument holds a non-fill value
                }
                TypedAttr general = call(args);
                TypedAttr special = call(args, {}, caseRegion);
                if (general && special && !sameResult(general, special)) {
                  report(name, "the case gives " + str(special) + " for " +
                                   callText(args) + " but the body gives " +
                                   str(general));
                  ok = false;
                }
                return ok;
              });
  }
}

std::vector<PropertyViolation> Checker::run() {
  if (func.getCommutative())
    checkCommutative();
  if (func.getAssociative())
    checkAssociative();
  if (func.getIdempotent())
    checkIdempotent();
  if (func.getAnnihilatorAttr())
    checkAnnihilator();
  if (func.getIdentityAttr())
    checkIdentity();
  if (func.getDistributesOverAttr())
    checkDistributive();
  if (func.getAlgebraAttr())
    checkAlgebra();
  if (!func.getCases().empty())
    checkCases();
  return violations;
}

} // namespace

std::vector<PropertyViolation>
mlir::sparse_array::checkProperties(FuncOp func, SymbolTableCollection &symbols,
                                    Evaluator &evaluator,
                                    const PropertyCheckOptions &options) {
  return Checker(func, symbols, evaluator, options).run();
}
