//===- SparseArrayOps.cpp - sparse_array operations -----------------------===//

#include "SparseArray/Dialect/SparseArray.h"

#include "ShapeOpsAsm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::sparse_array;

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

/// `%i, %j(0:8:2)`: index variables, each optionally sliced. Slices are
/// stored three per dimension (lo, hi, step); step 0 marks an unsliced
/// dimension, and no slice at all is stored as an empty array.
static ParseResult
parseSlicedIndices(OpAsmParser &parser,
                   SmallVectorImpl<OpAsmParser::UnresolvedOperand> &indices,
                   DenseI64ArrayAttr &slices) {
  SmallVector<int64_t> triples;
  bool anySliced = false;
  // Optional `(lo:hi[:step])` after an index variable.
  auto parseSliceSuffix = [&]() -> ParseResult {
    if (failed(parser.parseOptionalLParen())) {
      triples.append({0, -1, 0});
      return success();
    }
    int64_t lo, hi, step = 1;
    if (parser.parseInteger(lo) || parser.parseColon() ||
        parser.parseInteger(hi))
      return failure();
    if (succeeded(parser.parseOptionalColon()) && parser.parseInteger(step))
      return failure();
    anySliced = true;
    triples.append({lo, hi, step});
    return parser.parseRParen();
  };
  // Rank-0 accesses have no index at all.
  OpAsmParser::UnresolvedOperand first;
  OptionalParseResult hasFirst = parser.parseOptionalOperand(first);
  if (hasFirst.has_value()) {
    if (failed(*hasFirst))
      return failure();
    indices.push_back(first);
    if (parseSliceSuffix())
      return failure();
    while (succeeded(parser.parseOptionalComma()))
      if (parser.parseOperand(indices.emplace_back()) || parseSliceSuffix())
        return failure();
  }
  slices = DenseI64ArrayAttr::get(parser.getContext(),
                                  anySliced ? ArrayRef<int64_t>(triples)
                                            : ArrayRef<int64_t>());
  return success();
}

static void printSlicedIndices(OpAsmPrinter &printer, Operation *,
                               OperandRange indices, DenseI64ArrayAttr slices) {
  ArrayRef<int64_t> s = slices.asArrayRef();
  for (auto [dim, index] : llvm::enumerate(indices)) {
    if (dim)
      printer << ", ";
    printer << index;
    if (!s.empty() && s[3 * dim + 2] != 0) {
      printer << "(" << s[3 * dim] << ":" << s[3 * dim + 1];
      if (s[3 * dim + 2] != 1)
        printer << ":" << s[3 * dim + 2];
      printer << ")";
    }
  }
}

using mlir::sparse_array::detail::parseSliceSpec;
using mlir::sparse_array::detail::printSliceSpec;

#define GET_OP_CLASSES
#include "SparseArray/Dialect/SparseArrayOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

std::optional<int64_t> mlir::sparse_array::getConstantIndex(Value index) {
  auto constant = index.getDefiningOp<arith::ConstantIndexOp>();
  if (!constant)
    return std::nullopt;
  return constant.value();
}

/// The sparse_array.func named `name`, or an error on `user`.
static FailureOr<FuncOp> lookupFunction(Operation *user,
                                        SymbolTableCollection &symbolTable,
                                        FlatSymbolRefAttr name,
                                        StringRef role = "function") {
  auto func =
      symbolTable.lookupNearestSymbolFrom<FuncOp>(user, name.getAttr());
  if (!func)
    return user->emitOpError()
           << role << " '" << name.getValue()
           << "' does not name a sparse_array.func";
  return func;
}

/// Checks that `func` is binary with (T, T) -> T for T = `type`.
static LogicalResult verifyCombiner(Operation *user, FuncOp func, Type type) {
  FunctionType ft = func.getFunctionType();
  if (ft.getNumInputs() != 2 || ft.getInput(0) != type ||
      ft.getInput(1) != type || ft.getResult(0) != type)
    return user->emitOpError()
           << "combiner @" << func.getSymName() << " must have type (" << type
           << ", " << type << ") -> " << type << ", got " << ft;
  return success();
}

//===----------------------------------------------------------------------===//
// FuncOp
//===----------------------------------------------------------------------===//

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType = [](Builder &builder, ArrayRef<Type> argTypes,
                          ArrayRef<Type> results,
                          function_interface_impl::VariadicFlag,
                          std::string &) {
    return builder.getFunctionType(argTypes, results);
  };
  if (function_interface_impl::parseFunctionOp(
          parser, result, /*allowVariadic=*/false,
          getFunctionTypeAttrName(result.name), buildFuncType,
          getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name)))
    return failure();
  // A property spelled as a bare value (`identity = 0.0 : f64`) would be
  // dropped when the attributes become the op's properties, and the
  // function would silently lose it: say so.
  auto expect = [&](StringAttr name, auto typed,
                    StringRef spelling) -> LogicalResult {
    Attribute a = result.attributes.get(name);
    if (!a || isa<decltype(typed)>(a))
      return success();
    return parser.emitError(parser.getNameLoc())
           << "'" << name.getValue() << "' must be written " << spelling
           << ", got " << a;
  };
  if (failed(expect(getIdentityAttrName(result.name), IdentityAttr(),
                    "#sparse_array.identity<value>")) ||
      failed(expect(getAnnihilatorAttrName(result.name), AnnihilatorAttr(),
                    "#sparse_array.annihilator<value>")) ||
      failed(expect(getAlgebraAttrName(result.name), AlgebraAttr(),
                    "#sparse_array.algebra<...>")))
    return failure();
  SmallVector<Attribute> caseArgs;
  while (succeeded(parser.parseOptionalKeyword("case"))) {
    SmallVector<int32_t> positions;
    if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
          return parser.parseInteger(positions.emplace_back());
        }))
      return failure();
    caseArgs.push_back(DenseI32ArrayAttr::get(parser.getContext(), positions));
    if (parser.parseRegion(*result.addRegion()))
      return failure();
  }
  if (!caseArgs.empty())
    result.addAttribute(getCaseArgsAttrName(result.name),
                        ArrayAttr::get(parser.getContext(), caseArgs));
  return success();
}

void FuncOp::print(OpAsmPrinter &printer) {
  printer << ' ';
  if (auto visibility = getSymVisibility())
    printer << *visibility << ' ';
  printer.printSymbolName(getSymName());
  // The signature names the body's arguments, as func.func does.
  printer << "(";
  llvm::interleaveComma(getBody().getArguments(), printer,
                        [&](BlockArgument arg) {
                          printer.printRegionArgument(arg);
                        });
  printer << ") -> ";
  llvm::interleaveComma(getResultTypes(), printer);
  printer.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getSymNameAttrName(), getFunctionTypeAttrName(),
       getSymVisibilityAttrName(), getArgAttrsAttrName(),
       getResAttrsAttrName(), getCaseArgsAttrName()});
  printer << ' ';
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/true);
  for (auto [k, region] : llvm::enumerate(getCases())) {
    printer << " case [";
    llvm::interleaveComma(getCasePositions(k), printer);
    printer << "] ";
    printer.printRegion(region, /*printEntryBlockArgs=*/true,
                        /*printBlockTerminators=*/true);
  }
}

ArrayRef<int32_t> FuncOp::getCasePositions(unsigned k) {
  return cast<DenseI32ArrayAttr>((*getCaseArgs())[k]).asArrayRef();
}

TypedAttr FuncOp::getCaseFill(unsigned i) {
  if (AlgebraAttr algebra = getAlgebraAttr())
    if (i < algebra.getFills().size())
      return algebra.getFills()[i];
  return cast<TypedAttr>(Builder(getContext()).getZeroAttr(getArgumentTypes()[i]));
}

Region *FuncOp::getCaseFor(ArrayRef<int32_t> defined) {
  for (unsigned k = 0, e = getCases().size(); k < e; ++k) {
    SmallVector<int32_t> positions(getCasePositions(k));
    llvm::sort(positions);
    if (llvm::equal(positions, defined))
      return &getCases()[k];
  }
  return nullptr;
}

/// The type that an argument at any of `positions` has, when they all agree.
static LogicalResult checkValueAt(FuncOp op, StringRef property,
                                  TypedAttr value, ArrayRef<unsigned> positions) {
  unsigned arity = op.getArity();
  for (unsigned pos : positions)
    if (pos >= arity)
      return op.emitOpError() << property << " position " << pos
                              << " is out of range for " << arity
                              << " arguments";
  for (unsigned pos = 0; pos < arity; ++pos) {
    if (!positions.empty() && !llvm::is_contained(positions, pos))
      continue;
    if (op.getArgumentTypes()[pos] != value.getType())
      return op.emitOpError()
             << property << " value has type " << value.getType()
             << " but argument " << pos << " has type "
             << op.getArgumentTypes()[pos];
  }
  return success();
}

LogicalResult FuncOp::verify() {
  FunctionType type = getFunctionType();
  if (type.getNumResults() != 1)
    return emitOpError() << "must return exactly one scalar, got "
                         << type.getNumResults() << " results";
  if (type.getNumInputs() == 0)
    return emitOpError() << "needs at least one argument";
  for (Type t : llvm::concat<const Type>(type.getInputs(), type.getResults()))
    if (!ArrayType::isValidElementType(t))
      return emitOpError() << "arguments and result must be scalars of an "
                              "array element type, got "
                           << t;
  unsigned arity = type.getNumInputs();
  Type resultType = type.getResult(0);
  bool allSame = llvm::all_of(type.getInputs(),
                              [&](Type t) { return t == resultType; });
  if (getCommutative() && arity < 2)
    return emitOpError() << "commutative needs at least two arguments";
  if (getCommutative() && !llvm::all_equal(type.getInputs()))
    return emitOpError() << "commutative needs all arguments of one type";
  if (getAssociative() && (arity != 2 || !allSame))
    return emitOpError() << "associative needs type (T, T) -> T, got " << type;
  if (getIdempotent() && (arity < 2 || !allSame))
    return emitOpError()
           << "idempotent needs two or more arguments of the result type "
              "(f(x, ..., x) = x), got "
           << type;
  if (auto annihilator = getAnnihilatorAttr()) {
    if (annihilator.getValue().getType() != resultType)
      return emitOpError() << "annihilator value has type "
                           << annihilator.getValue().getType()
                           << " but the result has type " << resultType;
    if (failed(checkValueAt(*this, "annihilator", annihilator.getValue(),
                            annihilator.getPositions())))
      return failure();
  }
  if (auto identity = getIdentityAttr()) {
    if (arity != 2)
      return emitOpError() << "identity needs a binary function, got "
                           << arity << " arguments";
    if (failed(checkValueAt(*this, "identity", identity.getValue(),
                            identity.getPositions())))
      return failure();
    for (unsigned pos = 0; pos < 2; ++pos)
      if (identity.holdsAt(pos) && type.getInput(1 - pos) != resultType)
        return emitOpError() << "identity at position " << pos
                             << " returns argument " << 1 - pos
                             << ", whose type " << type.getInput(1 - pos)
                             << " is not the result type " << resultType;
  }
  if (auto algebra = getAlgebraAttr()) {
    for (unsigned leaf : algebra.getAlgebra().getLeaves())
      if (leaf >= arity)
        return emitOpError() << "algebra names argument " << leaf
                             << " but the function has " << arity
                             << " arguments";
    if (algebra.getFills().size() != arity)
      return emitOpError() << "algebra must give the assumed fill value of "
                              "each of the "
                           << arity << " arguments, got "
                           << algebra.getFills().size();
    for (auto [pos, fill] : llvm::enumerate(algebra.getFills()))
      if (fill.getType() != type.getInput(pos))
        return emitOpError() << "algebra assumes a fill of type "
                             << fill.getType() << " for argument " << pos
                             << " of type " << type.getInput(pos);
  }
  size_t numCases = getCaseArgs() ? getCaseArgs()->size() : 0;
  if (numCases != getCases().size())
    return emitOpError() << "has " << getCases().size()
                         << " case regions but " << numCases
                         << " case argument sets";
  for (unsigned k = 0; k < numCases; ++k) {
    ArrayRef<int32_t> positions = getCasePositions(k);
    for (auto [i, pos] : llvm::enumerate(positions)) {
      if (pos < 0 || static_cast<unsigned>(pos) >= arity)
        return emitOpError() << "case " << k << " names argument " << pos
                             << ", which is not one of the " << arity
                             << " arguments";
      if (llvm::is_contained(positions.take_front(i), pos))
        return emitOpError() << "case " << k << " lists argument " << pos
                             << " twice";
    }
    SmallVector<int32_t> sorted(positions);
    llvm::sort(sorted);
    for (unsigned other = 0; other < k; ++other) {
      SmallVector<int32_t> prior(getCasePositions(other));
      llvm::sort(prior);
      if (prior == sorted)
        return emitOpError() << "cases " << other << " and " << k
                             << " are for the same arguments";
    }
  }
  return success();
}

/// A function body or case: entry block arguments are the function's
/// arguments, and it yields one value of the result type.
static LogicalResult verifyFunctionRegion(FuncOp op, Region &region,
                                         StringRef what) {
  if (region.empty())
    return op.emitOpError() << what << " must not be empty";
  Block &entry = region.front();
  if (entry.getArgumentTypes() != op.getArgumentTypes())
    return op.emitOpError() << what << " arguments must match the signature";
  for (Block &block : region)
    if (auto yield = dyn_cast<YieldOp>(block.getTerminator()))
      if (yield.getValue().getType() != op.getResultType())
        return yield.emitOpError()
               << "yields " << yield.getValue().getType()
               << " but the function returns " << op.getResultType();
  return success();
}

LogicalResult FuncOp::verifyRegions() {
  if (failed(verifyFunctionRegion(*this, getBody(), "body")))
    return failure();
  for (auto [k, region] : llvm::enumerate(getCases()))
    if (failed(verifyFunctionRegion(*this, region,
                                    "case " + std::to_string(k))))
      return failure();
  return success();
}

LogicalResult FuncOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  ArrayAttr targets = getDistributesOverAttr();
  if (!targets)
    return success();
  for (Attribute ref : targets) {
    auto name = dyn_cast<FlatSymbolRefAttr>(ref);
    if (!name)
      return emitOpError() << "distributes_over takes flat symbol names";
    FailureOr<FuncOp> other =
        lookupFunction(*this, symbolTable, name, "distributes_over target");
    if (failed(other))
      return failure();
    if (getFunctionType() != other->getFunctionType() ||
        failed(verifyCombiner(*this, *other, getResultType())))
      return emitOpError() << "distributes over @" << other->getSymName()
                           << " which must have the same binary type "
                           << getFunctionType();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ApplyOp
//===----------------------------------------------------------------------===//

LogicalResult ApplyOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  FailureOr<FuncOp> func = lookupFunction(*this, symbolTable, getCalleeAttr());
  if (failed(func))
    return failure();
  FunctionType expected = func->getFunctionType();
  if (TypeRange(getArgs()) != TypeRange(expected.getInputs()) ||
      getResult().getType() != expected.getResult(0))
    return emitOpError() << "operand and result types must match @"
                         << getCallee() << " of type " << expected;
  return success();
}

//===----------------------------------------------------------------------===//
// ReduceOverOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceOverOp::verify() {
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (getIndices().empty())
    return emitOpError() << "needs at least one index variable to reduce";
  for (auto [i, index] : llvm::enumerate(getIndices())) {
    auto var = dyn_cast<BlockArgument>(index);
    if (!var || var.getOwner() != &kernel.getBody().front() ||
        var.getArgNumber() >= kernel.getNumIndices())
      return emitOpError() << "can only reduce over index variables of the "
                              "kernel";
    if (llvm::is_contained(getIndices().take_front(i), index))
      return emitOpError() << "reduces over index variable "
                           << var.getArgNumber() << " twice";
  }
  if (ReductionPlanAttr plan = getPlanAttr()) {
    int64_t inputs = kernel.getInputs().size();
    for (int64_t k : {plan.getZeroFactor(), plan.getDenseFactor()})
      if (k >= inputs || (k >= 0 && !kernel.getAccessOf(k)))
        return emitOpError() << "plan names kernel input " << k
                             << ", which the kernel does not read";
  }
  if (std::optional<ArrayRef<int32_t>> factors = getScatter()) {
    if (factors->size() != 2 || (*factors)[0] == (*factors)[1])
      return emitOpError() << "scatter names the two factors of a product, "
                              "two different kernel inputs";
    for (int32_t k : *factors)
      if (k < 0 || k >= int32_t(kernel.getInputs().size()) ||
          !kernel.getAccessOf(k))
        return emitOpError() << "scatter factor " << k
                             << " is not an input the kernel accesses";
  }
  if (std::optional<ArrayRef<int32_t>> order = getScatterLoops()) {
    if (getScatter())
      return emitOpError() << "scatter_loops and scatter are two plans; a "
                              "reduction takes one";
    if (getEarlyExit())
      return emitOpError() << "scatter_loops accumulates many results at "
                              "once: no early_exit";
    SmallVector<int32_t> sorted(*order);
    llvm::sort(sorted);
    for (auto [i, v] : llvm::enumerate(sorted))
      if (v != int32_t(i) || sorted.size() != kernel.getNumIndices())
        return emitOpError() << "scatter_loops must order all "
                             << kernel.getNumIndices()
                             << " index variables of the kernel, each once";
  }
  return success();
}

LogicalResult
ReduceOverOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  FailureOr<FuncOp> func =
      lookupFunction(*this, symbolTable, getCombinerAttr(), "combiner");
  if (failed(func))
    return failure();
  return verifyCombiner(*this, *func, getValue().getType());
}

//===----------------------------------------------------------------------===//
// MapOp, ReduceOp
//===----------------------------------------------------------------------===//

LogicalResult MapOp::verify() {
  ArrayType result = cast<ArrayType>(getResult().getType());
  unsigned rank = result.getRank();
  for (auto [k, input] : llvm::enumerate(getInputs())) {
    ArrayType type = cast<ArrayType>(input.getType());
    if (type.getRank() > rank)
      return emitOpError() << "input " << k << " has rank " << type.getRank()
                           << ", more than the result's " << rank;
    unsigned offset = rank - type.getRank();
    for (unsigned dim = 0; dim < type.getRank(); ++dim) {
      int64_t in = type.getShape()[dim];
      int64_t out = result.getShape()[offset + dim];
      if (ShapedType::isDynamic(in) || ShapedType::isDynamic(out) ||
          in == out || in == 1)
        continue;
      return emitOpError() << "input " << k << " dimension " << dim
                           << " of size " << in
                           << " does not broadcast to result dimension "
                           << offset + dim << " of size " << out;
    }
  }
  return success();
}

LogicalResult MapOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  FailureOr<FuncOp> func = lookupFunction(*this, symbolTable, getFnAttr());
  if (failed(func))
    return failure();
  FunctionType ft = func->getFunctionType();
  if (ft.getNumInputs() != getInputs().size())
    return emitOpError() << "@" << getFn() << " takes " << ft.getNumInputs()
                         << " arguments but " << getInputs().size()
                         << " arrays are given";
  for (auto [k, input] : llvm::enumerate(getInputs()))
    if (cast<ArrayType>(input.getType()).getElementType() != ft.getInput(k))
      return emitOpError() << "input " << k << " has element type "
                           << cast<ArrayType>(input.getType()).getElementType()
                           << " but @" << getFn() << " expects "
                           << ft.getInput(k);
  Type elt = cast<ArrayType>(getResult().getType()).getElementType();
  if (elt != ft.getResult(0))
    return emitOpError() << "result element type " << elt << " differs from @"
                         << getFn() << "'s result type " << ft.getResult(0);
  return success();
}

LogicalResult ReduceOp::verify() {
  ArrayType input = cast<ArrayType>(getInput().getType());
  ArrayType result = cast<ArrayType>(getResult().getType());
  ArrayRef<int64_t> dims = getDims();
  if (dims.empty())
    return emitOpError() << "needs at least one dimension to reduce";
  for (auto [i, dim] : llvm::enumerate(dims))
    if (dim < 0 || dim >= static_cast<int64_t>(input.getRank()) ||
        (i > 0 && dims[i - 1] >= dim))
      return emitOpError() << "dims must be increasing dimensions of the "
                              "rank-"
                           << input.getRank() << " input";
  SmallVector<int64_t> expected;
  for (unsigned dim = 0; dim < input.getRank(); ++dim)
    if (!llvm::is_contained(dims, dim))
      expected.push_back(input.getShape()[dim]);
  if (expected.size() != result.getRank())
    return emitOpError() << "result must have rank " << expected.size();
  for (auto [dim, size] : llvm::enumerate(expected))
    if (!ShapedType::isDynamic(size) && !result.isDynamicDim(dim) &&
        size != result.getShape()[dim])
      return emitOpError() << "result dimension " << dim << " must have size "
                           << size;
  if (input.getElementType() != result.getElementType())
    return emitOpError() << "result element type must be the input's";
  return success();
}

LogicalResult ReduceOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  FailureOr<FuncOp> func = lookupFunction(*this, symbolTable, getFnAttr());
  if (failed(func))
    return failure();
  return verifyCombiner(*this, *func,
                        cast<ArrayType>(getInput().getType()).getElementType());
}
