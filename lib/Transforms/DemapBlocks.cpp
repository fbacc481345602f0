//===- DemapBlocks.cpp - Kernels over the levels of blocked inputs --------===//
//
// seed 002 §3's BCSR iterated as stored: a kernel reading an array with
// blocks (a dimension d of block size b at two levels, d / b and d mod b)
// reads instead the array of its levels (sparse_array.demap, the same
// buffers), and each index variable v bound to a blocked dimension becomes
// two, V (the block) and w (the place in it), v = V * b + w. Every other
// input read at v is read at sparse_array.linearize(V, w) [b] (seed 001
// §4.1's split read); a reduction over v reduces over V and w (in the
// dense program's order: for each result point, V then w, which is v
// ascending); a result dimension indexed by v is computed split, (n / b,
// b), and taken back as (n) with the same values buffer (a dense,
// row-major result: no entry moves). The
// loops then follow the blocked input's levels (block row, block column,
// row in block, column in block for BCSR), so a block's entries are read
// in storage order, without a conversion.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Dialect/SparseArray.h"
#include "SparseArray/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::sparse_array;

namespace {

/// The index variables bound to blocked dimensions and their block sizes.
struct BlockedVars {
  llvm::SmallDenseMap<unsigned, uint64_t> blockOf;
  SmallVector<unsigned> inputs; // the blocked inputs
};

/// The variable (argument number) `index` is, if an index variable.
std::optional<unsigned> indexVariable(KernelOp kernel, Value index) {
  auto arg = dyn_cast<BlockArgument>(index);
  if (!arg || arg.getOwner() != &kernel.getBody().front() ||
      arg.getArgNumber() >= kernel.getNumIndices())
    return std::nullopt;
  return arg.getArgNumber();
}

/// Which variables to split, or failure when the kernel reads a blocked
/// input other than plainly (each dimension at its own index variable,
/// unsliced) or two blocked dimensions of different block sizes at one
/// variable.
FailureOr<BlockedVars> findBlockedVars(KernelOp kernel) {
  BlockedVars found;
  for (unsigned k = 0, e = kernel.getInputs().size(); k < e; ++k) {
    FormatAttr format =
        cast<ArrayType>(kernel.getInputs()[k].getType()).getFormat();
    if (!format.isBlocked())
      continue;
    AccessOp first = kernel.getAccessOf(k);
    if (!first || !first.getSlices().empty())
      return failure();
    llvm::SmallDenseSet<unsigned> seen;
    for (auto [dim, index] : llvm::enumerate(first.getIndices())) {
      std::optional<unsigned> var = indexVariable(kernel, index);
      if (!var || !seen.insert(*var).second)
        return failure();
      uint64_t block = format.getBlock(dim);
      if (block == 1)
        continue;
      auto [it, inserted] = found.blockOf.try_emplace(*var, block);
      if (!inserted && it->second != block)
        return failure();
    }
    // Every access of the input reads it the same way.
    for (Operation *user : kernel.getInputArg(k).getUsers()) {
      auto access = dyn_cast<AccessOp>(user);
      if (!access || access.getIndices() != first.getIndices() ||
          !access.getSlices().empty())
        return failure();
    }
    found.inputs.push_back(k);
  }
  if (found.blockOf.empty())
    return failure();
  // A variable split for one input but bound to an unblocked dimension of
  // another blocked input: that input's level would be read at the block
  // index. Such kernels convert.
  for (unsigned k : found.inputs) {
    FormatAttr format =
        cast<ArrayType>(kernel.getInputs()[k].getType()).getFormat();
    for (auto [dim, index] : llvm::enumerate(kernel.getAccessOf(k).getIndices()))
      if (format.getBlock(dim) == 1 &&
          found.blockOf.contains(*indexVariable(kernel, index)))
        return failure();
  }
  return found;
}

/// Whether every use of a split variable can take (V, w): an index of an
/// access whose extent there is a multiple of the block (not a broadcast
/// size 1), or a reduced variable.
bool usesSplit(KernelOp kernel, const BlockedVars &vars) {
  for (auto [var, block] : vars.blockOf) {
    for (OpOperand &use : kernel.getIndex(var).getUses()) {
      Operation *user = use.getOwner();
      if (auto reduce = dyn_cast<ReduceOverOp>(user)) {
        if (llvm::is_contained(reduce.getIndices(), use.get()) &&
            use.get() != reduce.getValue())
          continue;
        return false;
      }
      auto access = dyn_cast<AccessOp>(user);
      if (!access)
        return false;
      // The array is operand 0, the indices follow.
      unsigned dim = use.getOperandNumber() - 1;
      if (use.getOperandNumber() == 0 || access.isSliced(dim))
        return false;
      int64_t size = access.getArrayType().getShape()[dim];
      if (!ShapedType::isDynamic(size) && size % static_cast<int64_t>(block))
        return false;
    }
  }
  return true;
}

/// The result type with each dimension indexed by a split variable split
/// into (n / b, b); the positions of the split pairs' first halves.
ArrayType splitResultType(KernelOp kernel, const BlockedVars &vars,
                          SmallVectorImpl<unsigned> &pairs) {
  ArrayType type = kernel.getResultType();
  SmallVector<int64_t> shape;
  for (auto [dim, size] : llvm::enumerate(type.getShape())) {
    auto it = vars.blockOf.find(dim);
    if (it == vars.blockOf.end()) {
      shape.push_back(size);
      continue;
    }
    auto block = static_cast<int64_t>(it->second);
    pairs.push_back(shape.size());
    shape.push_back(ShapedType::isDynamic(size) ? size : size / block);
    shape.push_back(block);
  }
  FormatAttr dense =
      FormatAttr::getDefault(kernel.getContext(), shape.size(),
                             type.getElementType())
          .withFill(type.getFormat().getFill());
  return ArrayType::get(shape, type.getElementType(), dense);
}

} // namespace

LogicalResult mlir::sparse_array::demapBlockedInputs(KernelOp kernel) {
  // A kernel whose result type is still to be derived keeps conversions:
  // its split result's type would be decided after this.
  if (kernel.getInferFill() || kernel.getInferFormat())
    return failure();
  FailureOr<BlockedVars> vars = findBlockedVars(kernel);
  if (failed(vars) || !usesSplit(kernel, *vars))
    return failure();
  ArrayType resultType = kernel.getResultType();
  unsigned rank = resultType.getRank();
  bool splitsResult = llvm::any_of(
      vars->blockOf, [&](auto entry) { return entry.first < rank; });
  FormatAttr rf = resultType.getFormat();
  // A split result is taken back without moving an entry only when
  // it is dense and row-major.
  if (splitsResult &&
      (!rf.isAllDense() || !rf.isIdentityOrder() || rf.isBlocked()))
    return failure();

  Location loc = kernel.getLoc();
  Block &body = kernel.getBody().front();
  MLIRContext *ctx = kernel.getContext();
  // v keeps its argument and becomes the block variable V; w is inserted
  // after it (result variables stay first, in the result's order).
  SmallVector<unsigned> splitVars;
  for (auto [var, block] : vars->blockOf)
    splitVars.push_back(var);
  llvm::sort(splitVars, std::greater<unsigned>());
  llvm::SmallDenseMap<unsigned, std::pair<BlockArgument, BlockArgument>>
      parts; // v -> (V, w)
  for (unsigned var : splitVars) {
    BlockArgument outer = body.getArgument(var);
    BlockArgument inner =
        body.insertArgument(var + 1, IndexType::get(ctx), loc);
    parts[var] = {outer, inner};
  }
  auto partsOf = [&](Value v) -> std::optional<std::pair<Value, Value>> {
    for (auto &[var, p] : parts)
      if (p.first == v)
        return std::make_pair(Value(p.first), Value(p.second));
    return std::nullopt;
  };

  // The blocked inputs: their levels, read at each level's variable.
  OpBuilder before(kernel);
  for (unsigned k : vars->inputs) {
    Value source = kernel.getInputs()[k];
    auto type = cast<ArrayType>(source.getType());
    FormatAttr format = type.getFormat();
    ArrayType levels = DemapOp::getDemappedType(type);
    kernel->setOperand(k, DemapOp::create(before, loc, levels, source));
    BlockArgument arg = kernel.getInputArg(k);
    arg.setType(levels);
    for (Operation *user : llvm::make_early_inc_range(arg.getUsers())) {
      auto access = cast<AccessOp>(user);
      SmallVector<Value> indices;
      for (unsigned l = 0; l < format.getNumLevels(); ++l) {
        Value v = access.getIndices()[format.getLevelDim(l)];
        bool inBlock =
            format.getLevelPart(l) == FormatAttr::LevelPart::InBlock;
        indices.push_back(inBlock ? partsOf(v)->second : v);
      }
      OpBuilder b(access);
      auto read = AccessOp::create(b, access.getLoc(), arg, indices,
                                   b.getDenseI64ArrayAttr({}));
      access.getResult().replaceAllUsesWith(read.getResult());
      access.erase();
    }
  }

  // Every other use of a split variable: a linearized read (one linearize
  // per variable, so that repeated reads of an input stay one access
  // pattern), or both halves reduced.
  OpBuilder atStart = OpBuilder::atBlockBegin(&body);
  for (auto &[var, p] : parts) {
    auto [outer, inner] = p;
    uint64_t block = vars->blockOf.lookup(var);
    Value linear;
    for (OpOperand &use : llvm::make_early_inc_range(outer.getUses())) {
      Operation *user = use.getOwner();
      if (auto reduce = dyn_cast<ReduceOverOp>(user)) {
        SmallVector<Value> indices;
        for (Value v : reduce.getIndices()) {
          indices.push_back(v);
          if (v == outer)
            indices.push_back(inner);
        }
        reduce.getIndicesMutable().assign(indices);
        continue;
      }
      auto access = cast<AccessOp>(user);
      if (llvm::is_contained(vars->inputs,
                             cast<BlockArgument>(access.getArray())
                                     .getArgNumber() -
                                 kernel.getNumIndices()))
        continue; // already reads the levels
      if (!linear)
        linear = LinearizeOp::create(
            atStart, loc, ValueRange{outer, inner},
            atStart.getDenseI64ArrayAttr({static_cast<int64_t>(block)}));
      use.set(linear);
    }
  }

  if (!splitsResult)
    return success();
  SmallVector<unsigned> pairs;
  kernel.getResult().setType(splitResultType(kernel, *vars, pairs));
  // A dense row-major (n / b, b) is stored as (n) is: the result takes
  // over the split result's values buffer (no copy; assemble owns it).
  OpBuilder after(ctx);
  after.setInsertionPointAfter(kernel);
  Value split = kernel.getResult();
  Type elementType = resultType.getElementType();
  SmallPtrSet<Operation *, 8> readers; // of the split result, here
  auto values = ValuesOp::create(
      after, loc, MemRefType::get({ShapedType::kDynamic}, elementType), split);
  readers.insert(values);
  SmallVector<Value> sizes;
  auto splitRank = static_cast<int64_t>(
      cast<ArrayType>(split.getType()).getRank());
  auto dimOf = [&](int64_t d) {
    auto dim = DimOp::create(after, loc, split, d);
    readers.insert(dim);
    return dim.getResult();
  };
  for (int64_t d = 0; d < splitRank; ++d) {
    Value size = dimOf(d);
    if (llvm::is_contained(pairs, static_cast<unsigned>(d)))
      size = arith::MulIOp::create(after, loc, size, dimOf(++d));
    sizes.push_back(size);
  }
  auto result = AssembleOp::create(after, loc, resultType,
                                   ValueRange{values.getResult()}, sizes);
  split.replaceAllUsesExcept(result.getResult(), readers);
  return success();
}
