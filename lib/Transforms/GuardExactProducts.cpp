//===- GuardExactProducts.cpp - Exact f64 products under a guard ----------===//
//
// Issue 20 part 3 for matrix products: C = A B with the standard library's
// exact add_f64 (identity -0.0) and mul_f64 (no annihilator) is planned
// as the union of A and B, since a point no k stores in both may be NaN
// (0 * inf) or -0.0 in the dense program. Under a guard computed per call
// at sparse cost (no inf/NaN stored; max stored per row of A + max stored
// per column of B < K, so every point has a k stored in neither, whose
// term is +0.0), the sum of the stored products from +0.0 is the dense
// fold bit for bit: the kernel becomes scf.if between a copy declared with
// identity and annihilator 0.0 and itself (see Passes.td). The same for a
// matrix times a sparse vector (either side), the vector's stored entries
// counted in place of B's most per column: its exact plan, the union of
// A's rows and x, merged every row with all of x.
//
// Issue 56 for (min, +): y = min_k A(.., k) + B(k, ..) with the exact
// IEEE add and minimum, a factor with fill +inf, is planned over every
// point, since inf + x is NaN for x = -inf and NaN for x = NaN. When no
// value of either factor (stored or fill) is -inf or NaN -- checked per
// call over the stored values -- every term with a +inf factor is +inf,
// min's identity, and skipping it is exact: the kernel becomes scf.if
// between a copy whose add declares the annihilator +inf and itself.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Analysis/AlgebraDerivation.h"
#include "SparseArray/Dialect/SparseArray.h"
#include "SparseArray/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"

namespace mlir {
namespace sparse_array {
#define GEN_PASS_DEF_SPARSEARRAYGUARDEXACTPRODUCTSPASS
#include "SparseArray/Transforms/Passes.h.inc"
} // namespace sparse_array
} // namespace mlir

using namespace mlir;
using namespace mlir::sparse_array;

namespace {

/// `ok`, marked as almost always true (llvm.expect): the exact kernel in
/// the other branch is a fallback, which LLVM then compiles small
/// (ExecutionEngine's Optimizer.cpp), not vectorized or unrolled.
Value likely(OpBuilder &b, Location loc, Value ok) {
  return LLVM::ExpectOp::create(b, loc, ok,
                                arith::ConstantIntOp::create(b, loc, 1, 1));
}

// The functions the guard and the fast copy apply. The fast copy's add
// and mul declare properties that hold on the guarded inputs only (finite
// values, and sums that never meet -0.0: a sum from +0.0 is never -0.0).
// The mul adds +0.0 so that a -0.0 product becomes +0.0: a row-wise
// product stores a slot's first term as is (not +0.0 + term), and under
// the guard every fold has a +0.0 term that makes a lone -0.0 vanish.
constexpr const char *kHelpers = R"mlir(
sparse_array.func @__sa_add_f64_from_zero(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @__sa_mul_f64_finite(%x: f64, %y: f64) -> f64
    attributes {commutative, annihilator = #sparse_array.annihilator<0.0 : f64>} {
  %p = arith.mulf %x, %y : f64
  %z = arith.constant 0.0 : f64
  %r = arith.addf %p, %z : f64
  sparse_array.yield %r : f64
}
sparse_array.func @__sa_stored_f64(%x: f64) -> i64 {
  %b = arith.bitcast %x : f64 to i64
  %z = arith.constant 0 : i64
  %ne = arith.cmpi ne, %b, %z : i64
  %r = arith.extui %ne : i1 to i64
  sparse_array.yield %r : i64
}
sparse_array.func @__sa_not_finite_f64(%x: f64) -> i1 {
  %b = arith.bitcast %x : f64 to i64
  %e = arith.constant 9218868437227405312 : i64
  %m = arith.andi %b, %e : i64
  %r = arith.cmpi eq, %m, %e : i64
  sparse_array.yield %r : i1
}
sparse_array.func @__sa_count_i64(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
sparse_array.func @__sa_max_i64(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, idempotent,
                identity = #sparse_array.identity<-9223372036854775808 : i64>} {
  %r = arith.maxsi %x, %y : i64
  sparse_array.yield %r : i64
}
sparse_array.func @__sa_add_f64_inf_absorbs(%x: f64, %y: f64) -> f64
    attributes {commutative, annihilator = #sparse_array.annihilator<inf : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @__sa_nan_or_minus_inf_f64(%x: f64) -> i1 {
  %m = arith.constant 0xFFF0000000000000 : f64
  %n = arith.cmpf uno, %x, %x : f64
  %i = arith.cmpf oeq, %x, %m : f64
  %r = arith.ori %n, %i : i1
  sparse_array.yield %r : i1
}
sparse_array.func @__sa_any_i1(%x: i1, %y: i1) -> i1
    attributes {commutative, associative, idempotent,
                identity = #sparse_array.identity<false>,
                annihilator = #sparse_array.annihilator<true>} {
  %r = arith.ori %x, %y : i1
  sparse_array.yield %r : i1
}
)mlir";

/// C(x, y) = sum_k A(x, k) * B(k, y) — or y(x) = sum_k A(x, k) * v(k), or
/// v(k) * A(k, x) — with exact IEEE add and mul, both factors sparse with
/// fill +0.0, the result's fill +0.0.
struct ExactProduct {
  KernelOp kernel;
  ApplyOp mul;
  ReduceOverOp sum;
  /// Per factor: its kernel input, the dimension read at its result
  /// index (-1 for a vector, read at k only) and the one read at k.
  unsigned input[2];
  int keptDim[2];
  unsigned reducedDim[2];
};

bool isPositiveZero(TypedAttr a) {
  auto f = dyn_cast_or_null<FloatAttr>(a);
  return f && f.getType().isF64() && f.getValue().isPosZero();
}

/// A kernel yielding `sum_k f(x, y)`: a reduce_over of one index, not
/// scattered, whose combiner `isSum` accepts with a whole identity
/// `isIdentity` accepts, of an apply of two arguments whose function
/// `isProduct` accepts and that declares no annihilator.
struct ReducedProduct {
  ReduceOverOp sum;
  ApplyOp product;
};

std::optional<ReducedProduct>
matchReducedProduct(KernelOp kernel, SymbolTableCollection &symbols,
                    function_ref<bool(FuncOp)> isSum,
                    function_ref<bool(TypedAttr)> isIdentity,
                    function_ref<bool(FuncOp)> isProduct) {
  auto sum = kernel.getYield().getValue().getDefiningOp<ReduceOverOp>();
  if (!sum || sum.getIndices().size() != 1 || sum.getScatter() ||
      sum.getScatterLoops() || sum.getStart())
    return std::nullopt;
  auto combiner =
      symbols.lookupNearestSymbolFrom<FuncOp>(sum, sum.getCombinerAttr());
  IdentityAttr identity = combiner ? combiner.getIdentityAttr() : nullptr;
  if (!combiner || !isSum(combiner) || !identity ||
      !identity.getPositions().empty() || !isIdentity(identity.getValue()))
    return std::nullopt;
  auto product = sum.getValue().getDefiningOp<ApplyOp>();
  if (!product || product.getArgs().size() != 2)
    return std::nullopt;
  auto callee =
      symbols.lookupNearestSymbolFrom<FuncOp>(product, product.getCalleeAttr());
  if (!callee || !isProduct(callee) || callee.getAnnihilatorAttr())
    return std::nullopt;
  return ReducedProduct{sum, product};
}

std::optional<ExactProduct> matchExactProduct(KernelOp kernel,
                                              SymbolTableCollection &symbols) {
  ArrayType result = kernel.getResultType();
  unsigned rank = result.getRank();
  if ((rank != 1 && rank != 2) || kernel.getNumIndices() != rank + 1 ||
      kernel.getInputs().size() != 2 || !isPositiveZero(result.getFillValue()))
    return std::nullopt;
  auto isNegZero = [](TypedAttr a) {
    return cast<FloatAttr>(a).getValue().isNegZero();
  };
  std::optional<ReducedProduct> r = matchReducedProduct(
      kernel, symbols, isExactFloatAdd, isNegZero, isExactFloatMul);
  if (!r)
    return std::nullopt;
  ReduceOverOp sum = r->sum;
  ApplyOp mul = r->product;
  Value k = sum.getIndices()[0];
  ExactProduct match{kernel, mul, sum, {}, {}, {}};
  SmallVector<Value> kept;
  for (unsigned f = 0; f < 2; ++f) {
    auto access = mul.getArgs()[f].getDefiningOp<AccessOp>();
    auto arg = access ? dyn_cast<BlockArgument>(access.getArray())
                      : BlockArgument();
    if (!arg || arg.getOwner() != &kernel.getBody().front() ||
        !access.getSlices().empty() || access.getIndices().size() > 2)
      return std::nullopt;
    auto type = cast<ArrayType>(access.getArray().getType());
    if (type.isAllDense() || !isPositiveZero(type.getFillValue()))
      return std::nullopt;
    match.input[f] = arg.getArgNumber() - kernel.getNumIndices();
    ValueRange indices = access.getIndices();
    if (indices.size() == 1) {
      // A vector read at k (only as one factor of a vector result).
      if (indices[0] != k)
        return std::nullopt;
      match.reducedDim[f] = 0;
      match.keptDim[f] = -1;
      continue;
    }
    unsigned kDim = indices[0] == k ? 0 : 1;
    if (indices[kDim] != k || indices[1 - kDim] == k)
      return std::nullopt;
    match.reducedDim[f] = kDim;
    match.keptDim[f] = 1 - kDim;
    kept.push_back(indices[1 - kDim]);
  }
  // Each result index read by one factor (A A passes the same array as both
  // inputs: the verifier wants one input per access pattern).
  if (match.input[0] == match.input[1] || kept.size() != rank ||
      (rank == 2 && kept[0] == kept[1]) ||
      !llvm::all_of(kept, [&](Value v) {
        return v == Value(kernel.getIndex(0)) ||
               (rank == 2 && v == Value(kernel.getIndex(1)));
      }))
    return std::nullopt;
  return match;
}

/// Declares the helper functions in `module`, each unless a function of
/// its name is there already (a module guarded before).
LogicalResult declareHelpers(ModuleOp module) {
  OwningOpRef<ModuleOp> helpers =
      parseSourceString<ModuleOp>(kHelpers, module.getContext());
  if (!helpers)
    return module.emitError("could not build the exact-product guard's functions");
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  for (auto func : helpers->getBody()->getOps<FuncOp>())
    if (!SymbolTable::lookupSymbolIn(module, func.getSymName()))
      b.clone(*func);
  return success();
}

ArrayType scalarArrayOf(Type elt) {
  return ArrayType::get({}, elt, FormatAttr::getDefault(elt.getContext(), 0, elt));
}

/// A kernel: whether `predicate` (f64 -> i1) holds for any entry of
/// `array` (any rank), as a rank-0 array. Planned over the stored entries
/// when the predicate is false at the fill.
Value anyEntry(OpBuilder &b, Location loc, Value array, StringRef predicate) {
  MLIRContext *ctx = b.getContext();
  Type i1 = b.getI1Type();
  unsigned rank = cast<ArrayType>(array.getType()).getRank();
  auto kernel = KernelOp::create(b, loc, scalarArrayOf(i1), ValueRange{array}, rank);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&kernel.getBody().front());
  SmallVector<Value> indices;
  for (unsigned d = 0; d < rank; ++d)
    indices.push_back(kernel.getIndex(d));
  Value v = AccessOp::create(b, loc, kernel.getInputArg(0), indices,
                             DenseI64ArrayAttr());
  Value holds = ApplyOp::create(b, loc, i1, FlatSymbolRefAttr::get(ctx, predicate),
                                ValueRange{v});
  Value any = ReduceOverOp::create(b, loc, i1, holds, indices, Value(),
                                   FlatSymbolRefAttr::get(ctx, "__sa_any_i1"),
                                   ReductionPlanAttr(), UnitAttr(), DenseI32ArrayAttr(),
                                   DenseI32ArrayAttr());
  YieldOp::create(b, loc, any);
  return kernel.getResult();
}

/// A kernel over the vector `array` (f64): its entries that are not +0.0
/// (how many k it stores). A rank-0 array.
Value countStored(OpBuilder &b, Location loc, Value array) {
  MLIRContext *ctx = b.getContext();
  Type i64 = b.getI64Type();
  auto count = KernelOp::create(b, loc, scalarArrayOf(i64), ValueRange{array}, 1);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&count.getBody().front());
  Value k = count.getIndex(0);
  Value v = AccessOp::create(b, loc, count.getInputArg(0), ValueRange{k},
                             DenseI64ArrayAttr());
  Value stored = ApplyOp::create(
      b, loc, i64, FlatSymbolRefAttr::get(ctx, "__sa_stored_f64"), ValueRange{v});
  Value n = ReduceOverOp::create(
      b, loc, i64, stored, ValueRange{k}, Value(),
      FlatSymbolRefAttr::get(ctx, "__sa_count_i64"), ReductionPlanAttr(), UnitAttr(),
      DenseI32ArrayAttr(), DenseI32ArrayAttr());
  YieldOp::create(b, loc, n);
  return count.getResult();
}

/// A kernel over `array` (rank 2, f64): per coordinate of dimension
/// `keptDim`, the entries that are not +0.0 (how many k it stores),
/// then their maximum; or, with `keptDim` < 0, whether any entry is inf
/// or NaN. A rank-0 array.
Value guardReduction(OpBuilder &b, Location loc, Value array, int keptDim) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<ArrayType>(array.getType());
  auto scalarOf = [&](Type elt) { return scalarArrayOf(elt); };
  if (keptDim < 0)
    return anyEntry(b, loc, array, "__sa_not_finite_f64");
  Type i64 = b.getI64Type();
  // Counts per kept coordinate: a dense vector.
  auto counts = ArrayType::get({type.getShape()[keptDim]}, i64,
                               FormatAttr::getDefault(ctx, 1, i64));
  auto count = KernelOp::create(b, loc, counts, ValueRange{array}, 2);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&count.getBody().front());
    SmallVector<Value> indices(2);
    indices[keptDim] = count.getIndex(0);
    indices[1 - keptDim] = count.getIndex(1);
    Value v = AccessOp::create(b, loc, count.getInputArg(0), indices,
                               DenseI64ArrayAttr());
    Value stored = ApplyOp::create(
        b, loc, i64, FlatSymbolRefAttr::get(ctx, "__sa_stored_f64"), ValueRange{v});
    Value n = ReduceOverOp::create(
        b, loc, i64, stored, ValueRange{count.getIndex(1)}, Value(),
        FlatSymbolRefAttr::get(ctx, "__sa_count_i64"), ReductionPlanAttr(), UnitAttr(),
        DenseI32ArrayAttr(), DenseI32ArrayAttr());
    YieldOp::create(b, loc, n);
  }
  auto most = KernelOp::create(b, loc, scalarOf(i64), ValueRange{count.getResult()}, 1);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&most.getBody().front());
    Value c = AccessOp::create(b, loc, most.getInputArg(0),
                               ValueRange{most.getIndex(0)}, DenseI64ArrayAttr());
    Value m = ReduceOverOp::create(
        b, loc, i64, c, ValueRange{most.getIndex(0)}, Value(),
        FlatSymbolRefAttr::get(ctx, "__sa_max_i64"), ReductionPlanAttr(), UnitAttr(),
        DenseI32ArrayAttr(), DenseI32ArrayAttr());
    YieldOp::create(b, loc, m);
  }
  DeallocOp::create(b, loc, count.getResult());
  return most.getResult();
}

/// The scalar of a rank-0 array, which is then freed.
Value takeScalar(OpBuilder &b, Location loc, Value array) {
  auto type = cast<ArrayType>(array.getType());
  Value values = ValuesOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, type.getElementType()),
      array);
  Value v = memref::LoadOp::create(
      b, loc, values, ValueRange{arith::ConstantIndexOp::create(b, loc, 0)});
  DeallocOp::create(b, loc, array);
  return v;
}

void guardProduct(const ExactProduct &p) {
  KernelOp kernel = p.kernel;
  Location loc = kernel.getLoc();
  OpBuilder b(kernel);
  Value a = kernel.getInputs()[p.input[0]], c = kernel.getInputs()[p.input[1]];
  Value zero = arith::ConstantIntOp::create(b, loc, 0, 64);
  Value badA = takeScalar(b, loc, guardReduction(b, loc, a, -1));
  Value badB = takeScalar(b, loc, guardReduction(b, loc, c, -1));
  auto clamp = [&](Value v) { return arith::MaxSIOp::create(b, loc, v, zero); };
  // The most k a factor's row (or column) stores; a vector's all of them.
  auto most = [&](Value factor, int keptDim) {
    return clamp(takeScalar(b, loc,
                            keptDim < 0 ? countStored(b, loc, factor)
                                        : guardReduction(b, loc, factor, keptDim)));
  };
  Value mostA = most(a, p.keptDim[0]);
  Value mostB = most(c, p.keptDim[1]);
  Value extent = arith::IndexCastOp::create(
      b, loc, b.getI64Type(),
      DimOp::create(b, loc, a, static_cast<int64_t>(p.reducedDim[0])));
  // Each at most K: no overflow.
  Value emptyK = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::slt,
      arith::AddIOp::create(b, loc, mostA, mostB), extent);
  Value bad = arith::OrIOp::create(b, loc, badA, badB);
  Value ok = arith::AndIOp::create(
      b, loc, emptyK,
      arith::XOrIOp::create(b, loc, bad,
                            arith::ConstantIntOp::create(b, loc, 1, 1)));
  Type resultType = kernel.getResult().getType();
  auto branch = scf::IfOp::create(b, loc, TypeRange{resultType},
                                  likely(b, loc, ok), /*withElseRegion=*/true);
  {
    OpBuilder tb = branch.getThenBodyBuilder();
    auto fast = cast<KernelOp>(tb.clone(*kernel));
    MLIRContext *ctx = b.getContext();
    auto fastSum = fast.getYield().getValue().getDefiningOp<ReduceOverOp>();
    fastSum.getValue().getDefiningOp<ApplyOp>().setCalleeAttr(
        FlatSymbolRefAttr::get(ctx, "__sa_mul_f64_finite"));
    fastSum.setCombinerAttr(
        FlatSymbolRefAttr::get(ctx, "__sa_add_f64_from_zero"));
    scf::YieldOp::create(tb, loc, fast.getResult());
  }
  kernel.getResult().replaceAllUsesWith(branch.getResult(0));
  OpBuilder eb = branch.getElseBodyBuilder();
  auto yield = scf::YieldOp::create(eb, loc, kernel.getResult());
  kernel->moveBefore(yield);
}

/// y = min_k A(.., k) + B(k, ..): the exact add's apply and the kernel
/// inputs its two terms read.
struct TropicalProduct {
  KernelOp kernel;
  ApplyOp add;
  unsigned input[2];
};

bool isF64Inf(TypedAttr a, bool negative) {
  auto f = dyn_cast_or_null<FloatAttr>(a);
  return f && f.getType().isF64() && f.getValue().isInfinity() &&
         f.getValue().isNegative() == negative;
}

bool isF64NaN(TypedAttr a) {
  auto f = dyn_cast_or_null<FloatAttr>(a);
  return f && f.getValue().isNaN();
}

std::optional<TropicalProduct>
matchTropicalProduct(KernelOp kernel, SymbolTableCollection &symbols) {
  auto isPlusInf = [](TypedAttr a) { return isF64Inf(a, /*negative=*/false); };
  std::optional<ReducedProduct> r = matchReducedProduct(
      kernel, symbols, isExactFloatMinimum, isPlusInf, isExactFloatAdd);
  if (!r)
    return std::nullopt;
  ReduceOverOp sum = r->sum;
  ApplyOp add = r->product;
  TropicalProduct match{kernel, add, {}};
  bool infFill = false;
  for (unsigned f = 0; f < 2; ++f) {
    auto access = add.getArgs()[f].getDefiningOp<AccessOp>();
    auto arg = access ? dyn_cast<BlockArgument>(access.getArray())
                      : BlockArgument();
    if (!arg || arg.getOwner() != &kernel.getBody().front() ||
        !access.getSlices().empty() ||
        !llvm::is_contained(access.getIndices(), sum.getIndices()[0]))
      return std::nullopt;
    auto type = cast<ArrayType>(access.getArray().getType());
    TypedAttr fill = type.getFillValue();
    // A fill of -inf or NaN: the guard would always fail.
    if (!type.getElementType().isF64() || isF64Inf(fill, true) || isF64NaN(fill))
      return std::nullopt;
    infFill |= !type.isAllDense() && isF64Inf(fill, false);
    match.input[f] = arg.getArgNumber() - kernel.getNumIndices();
  }
  // Without a sparse factor of fill +inf there is nothing to skip.
  if (!infFill || match.input[0] == match.input[1])
    return std::nullopt;
  return match;
}

void guardTropicalProduct(const TropicalProduct &p) {
  KernelOp kernel = p.kernel;
  Location loc = kernel.getLoc();
  OpBuilder b(kernel);
  Value bad;
  for (unsigned input : p.input) {
    Value any = takeScalar(
        b, loc, anyEntry(b, loc, kernel.getInputs()[input], "__sa_nan_or_minus_inf_f64"));
    bad = bad ? Value(arith::OrIOp::create(b, loc, bad, any)) : any;
  }
  Value ok = arith::XOrIOp::create(b, loc, bad,
                                   arith::ConstantIntOp::create(b, loc, 1, 1));
  auto branch = scf::IfOp::create(b, loc, TypeRange{kernel.getResult().getType()},
                                  likely(b, loc, ok), /*withElseRegion=*/true);
  {
    OpBuilder tb = branch.getThenBodyBuilder();
    auto fast = cast<KernelOp>(tb.clone(*kernel));
    auto fastSum = fast.getYield().getValue().getDefiningOp<ReduceOverOp>();
    fastSum.getValue().getDefiningOp<ApplyOp>().setCalleeAttr(
        FlatSymbolRefAttr::get(b.getContext(), "__sa_add_f64_inf_absorbs"));
    scf::YieldOp::create(tb, loc, fast.getResult());
  }
  kernel.getResult().replaceAllUsesWith(branch.getResult(0));
  OpBuilder eb = branch.getElseBodyBuilder();
  auto yield = scf::YieldOp::create(eb, loc, kernel.getResult());
  kernel->moveBefore(yield);
}

} // namespace

LogicalResult mlir::sparse_array::guardExactProducts(ModuleOp module) {
  SymbolTableCollection symbols;
  SmallVector<ExactProduct> products;
  SmallVector<TropicalProduct> tropical;
  module.walk([&](KernelOp kernel) {
    if (std::optional<ExactProduct> p = matchExactProduct(kernel, symbols))
      products.push_back(*p);
    else if (std::optional<TropicalProduct> t = matchTropicalProduct(kernel, symbols))
      tropical.push_back(*t);
  });
  if (products.empty() && tropical.empty())
    return success();
  if (failed(declareHelpers(module)))
    return failure();
  for (const ExactProduct &p : products)
    guardProduct(p);
  for (const TropicalProduct &t : tropical)
    guardTropicalProduct(t);
  return success();
}

namespace {
struct GuardExactProductsPass
    : public sparse_array::impl::SparseArrayGuardExactProductsPassBase<
          GuardExactProductsPass> {
  void runOnOperation() override {
    if (failed(guardExactProducts(getOperation())))
      signalPassFailure();
  }
};
} // namespace
