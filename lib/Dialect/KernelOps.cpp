//===- KernelOps.cpp - sparse_array.kernel and its accesses ---------------===//
//
// Verifiers of the index-notation kernel (seed 000 §4.2) and of its
// accesses: extents of index variables, free variables of the expression,
// slices, windows and linearized (split) reads.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::sparse_array;

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

void KernelOp::build(OpBuilder &builder, OperationState &state,
                     Type resultType, ValueRange inputs, unsigned numIndices) {
  state.addOperands(inputs);
  state.addTypes(resultType);
  Region *region = state.addRegion();
  Block *block = new Block();
  region->push_back(block);
  for (unsigned i = 0; i < numIndices; ++i)
    block->addArgument(builder.getIndexType(), state.location);
  for (Value input : inputs)
    block->addArgument(input.getType(), state.location);
}

YieldOp KernelOp::getYield() {
  return cast<YieldOp>(getBody().front().getTerminator());
}

AccessOp KernelOp::getAccessOf(unsigned k) {
  for (Operation *user : getInputArg(k).getUsers())
    if (auto access = dyn_cast<AccessOp>(user))
      return access;
  return nullptr;
}

/// Extent of an accessed dimension: the slice length or the dimension size.
static int64_t accessExtent(AccessOp access, unsigned dim) {
  if (access.isSliced(dim)) {
    auto [lo, hi, step] = access.getSlice(dim);
    return sliceLength(lo, hi, step);
  }
  return access.getArrayType().getShape()[dim];
}

LogicalResult KernelOp::verifyRegions() {
  Block &body = getBody().front();
  unsigned numInputs = getInputs().size();
  if (body.getNumArguments() < numInputs)
    return emitOpError() << "body must take the index variables followed by "
                            "one argument per input";
  unsigned numIndices = getNumIndices();
  for (unsigned i = 0; i < numIndices; ++i)
    if (!getIndex(i).getType().isIndex())
      return emitOpError() << "index variable " << i << " must have type index";
  for (unsigned k = 0; k < numInputs; ++k)
    if (getInputArg(k).getType() != getInputs()[k].getType())
      return emitOpError() << "body argument for input " << k
                           << " must have the input's type "
                           << getInputs()[k].getType();
  ArrayType resultType = getResultType();
  // The parallel plan names an input to balance on and may assemble the
  // result by rows: both need the stored layouts they read.
  if (ParallelAttr plan = getParallelAttr()) {
    auto rowsOfPositions = [](ArrayType t) {
      return t.getRank() >= 2 && t.getFormat().isRowsOfSegments();
    };
    if (int64_t k = plan.getBalance(); k >= 0) {
      if (k >= static_cast<int64_t>(numInputs))
        return emitOpError() << "parallel plan balances on input " << k
                             << ", but the kernel has " << numInputs
                             << " inputs";
      auto balanced = cast<ArrayType>(getInputs()[k].getType());
      if (plan.isRanges()) {
        // Ranges are cut at its outermost level's stored coordinates.
        if (balanced.getRank() == 0 ||
            balanced.getFormat().getLevels()[0].isFull() ||
            !balanced.getFormat().getLevels()[0].ordered)
          return emitOpError()
                 << "parallel ranges are cut at input " << k
                 << "'s coordinates, but its outermost level does not store "
                    "ordered coordinates";
      } else if (!rowsOfPositions(balanced))
        return emitOpError() << "parallel plan balances on input " << k
                             << ", which is not stored as a full level over "
                                "one with positions";
    }
    bool rowWise = false, scatterLoops = false;
    getBody().walk([&](ReduceOverOp r) {
      rowWise |= r.getScatter().has_value();
      scatterLoops |= r.getScatterLoops().has_value();
    });
    // A scatter reduction's parts accumulate on their own (one
    // accumulator per part, the result's size): never a sparse result
    // accumulated row by row.
    bool scatterInParts = scatterLoops && plan.isParallel();
    if (scatterInParts && !plan.getParts())
      return emitOpError() << "a scatter reduction planned parallel "
                              "accumulates in parts";
    if (scatterInParts && resultType.getRank() > 1 && !resultType.isAllDense())
      return emitOpError() << "a scatter reduction into " << resultType
                           << " accumulates row by row in one workspace: it "
                              "cannot be planned parallel";
    if (plan.getParts() && !rowWise && !scatterLoops &&
        (resultType.getRank() == 0 || resultType.isAllDense()))
      return emitOpError() << "parts assembles a sparse result, not "
                           << resultType;
    if (plan.isRanges() && !plan.getParts() && !rowWise &&
        resultType.getRank() > 0 && !resultType.isAllDense())
      return emitOpError() << "parallel ranges assemble a sparse result in "
                              "parts";
    if (plan.getChained() &&
        (resultType.getRank() != 2 || !rowsOfPositions(resultType) ||
         !resultType.getFormat().getLevels()[1].unique || rowWise ||
         scatterLoops))
      return emitOpError() << "chained places rows of a result stored as a "
                              "full level over a unique one with positions "
                              "(CSR, CSC), not "
                           << resultType;
    if (plan.getTwoPhase() &&
        (resultType.getRank() != 2 || !rowsOfPositions(resultType) ||
         !resultType.getFormat().getLevels()[1].unique))
      return emitOpError() << "two_phase assembles a result stored as a full "
                              "level over a unique one with positions (CSR, "
                              "CSC), not "
                           << resultType;
  }
  unsigned rank = resultType.getRank();
  if (numIndices < rank)
    return emitOpError() << "the result has rank " << rank << " but only "
                         << numIndices << " index variables are declared";

  // Lattices: one per loop and set of present inputs, over the inputs.
  if (std::optional<ArrayAttr> lattices = getLattices()) {
    SmallVector<std::pair<unsigned, uint64_t>> seen;
    for (Attribute a : *lattices) {
      auto lattice = cast<LatticeAttr>(a);
      if (lattice.getLoop() >= numIndices)
        return emitOpError() << "has a lattice for loop " << lattice.getLoop()
                             << " but only " << numIndices << " loops";
      for (unsigned k : lattice.getPresent())
        if (k >= numInputs)
          return emitOpError() << "has a lattice over input " << k
                               << " but only " << numInputs << " inputs";
      std::pair<unsigned, uint64_t> key(lattice.getLoop(),
                                        lattice.getPresentMask());
      if (llvm::is_contained(seen, key))
        return emitOpError() << "has two lattices for loop "
                             << lattice.getLoop()
                             << " with the same inputs present";
      seen.push_back(key);
    }
  }

  // Inputs are used only by accesses, each input with a single list of
  // index variables (checked in program order, so the later access errs).
  for (unsigned k = 0; k < numInputs; ++k)
    for (Operation *user : getInputArg(k).getUsers())
      if (!isa<AccessOp>(user))
        return user->emitOpError() << "uses a kernel input other than through "
                                      "sparse_array.access";
  SmallVector<AccessOp> firstAccess(numInputs);
  for (Operation &op : body) {
    auto access = dyn_cast<AccessOp>(op);
    if (!access)
      continue;
    unsigned k = cast<BlockArgument>(access.getArray()).getArgNumber() -
                 numIndices;
    AccessOp &first = firstAccess[k];
    if (!first) {
      first = access;
      continue;
    }
    if (access.getIndices() != first.getIndices() ||
        access.getSlices() != first.getSlices())
      return access.emitOpError()
             << "accesses input " << k
             << " differently from an earlier access; pass the array once "
                "per access pattern";
  }

  // Index extents agree across accesses; every index variable is used.
  SmallVector<int64_t> extent(numIndices, ShapedType::kDynamic);
  SmallVector<bool> used(numIndices, false);
  // Variable `var` read with `e` values (kDynamic: known at run time).
  auto record = [&](AccessOp access, unsigned var, int64_t e) -> LogicalResult {
    used[var] = true;
    if (ShapedType::isDynamic(e))
      return success();
    if (!ShapedType::isDynamic(extent[var]) && extent[var] != e)
      return access.emitOpError()
             << "index variable " << var << " ranges over " << e
             << " values here but over " << extent[var] << " elsewhere";
    extent[var] = e;
    return success();
  };
  for (Operation &op : body) {
    auto access = dyn_cast<AccessOp>(op);
    if (!access)
      continue;
    for (auto [dim, index] : llvm::enumerate(access.getIndices())) {
      // A split read: the first variable ranges over the dimension's size
      // over the others' product, the others over their sizes.
      if (auto lin = index.getDefiningOp<LinearizeOp>()) {
        int64_t size = access.getArrayType().getShape()[dim];
        int64_t inner = 1;
        for (int64_t s : lin.getSizes())
          inner *= s;
        for (auto [i, v] : llvm::enumerate(lin.getIndices())) {
          int64_t e = i ? lin.getSizes()[i - 1]
                        : (ShapedType::isDynamic(size) ? size : size / inner);
          if (failed(record(access, cast<BlockArgument>(v).getArgNumber(), e)))
            return failure();
        }
        continue;
      }
      // A collapsed read: the variable ranges over the first part's size
      // times the others' (the first part's dimension's size times its
      // divisor).
      if (auto delin = index.getDefiningOp<DelinearizeOp>()) {
        if (cast<OpResult>(index).getResultNumber() != 0)
          continue;
        int64_t size = access.getArrayType().getShape()[dim];
        int64_t e =
            ShapedType::isDynamic(size) ? size : size * delin.getDivisor(0);
        // Of a split read: its variables split that extent.
        if (auto lin = delin.getIndex().getDefiningOp<LinearizeOp>()) {
          int64_t inner = 1;
          for (int64_t s : lin.getSizes())
            inner *= s;
          if (!ShapedType::isDynamic(e) && e % inner != 0)
            return access.emitOpError()
                   << "reads a collapse of " << e
                   << " coordinates through a linearize of sizes' product "
                   << inner;
          for (auto [i, v] : llvm::enumerate(lin.getIndices())) {
            int64_t ev = i ? lin.getSizes()[i - 1]
                           : (ShapedType::isDynamic(e) ? e : e / inner);
            if (failed(
                    record(access, cast<BlockArgument>(v).getArgNumber(), ev)))
              return failure();
          }
          continue;
        }
        if (failed(record(access,
                          cast<BlockArgument>(delin.getIndex()).getArgNumber(),
                          e)))
          return failure();
        continue;
      }
      auto arg = dyn_cast<BlockArgument>(index);
      if (!arg)
        continue; // a constant coordinate
      if (failed(record(access, arg.getArgNumber(), accessExtent(access, dim))))
        return failure();
    }
  }
  for (unsigned var = 0; var < numIndices; ++var) {
    // A result variable no access uses (every input broadcast along it)
    // ranges over the result's static size.
    if (!used[var] && (var >= rank || resultType.isDynamicDim(var)))
      return emitOpError() << "index variable " << var
                           << " is not used by any access, so its extent is "
                              "unknown";
    if (var < rank && !resultType.isDynamicDim(var) &&
        !ShapedType::isDynamic(extent[var]) &&
        extent[var] != resultType.getShape()[var])
      return emitOpError() << "result dimension " << var << " has size "
                           << resultType.getShape()[var]
                           << " but its index variable ranges over "
                           << extent[var] << " values";
  }

  // The expression: allowed ops, free index variables.
  DenseMap<Value, llvm::SmallBitVector> freeVars;
  auto freeOf = [&](Value v) {
    auto it = freeVars.find(v);
    return it == freeVars.end() ? llvm::SmallBitVector(numIndices)
                                : it->second;
  };
  for (Operation &op : body) {
    llvm::SmallBitVector vars(numIndices);
    if (auto access = dyn_cast<AccessOp>(op)) {
      for (Value index : access.getIndices()) {
        if (auto arg = dyn_cast<BlockArgument>(index))
          vars.set(arg.getArgNumber());
        if (auto lin = index.getDefiningOp<LinearizeOp>())
          for (Value v : lin.getIndices())
            vars.set(cast<BlockArgument>(v).getArgNumber());
        if (index.getDefiningOp<DelinearizeOp>())
          for (BlockArgument v : getIndexVariables(index))
            vars.set(v.getArgNumber());
      }
    } else if (isa<LinearizeOp, DelinearizeOp>(op)) {
      // Checked by its verifier; its variables count where it is read.
    } else if (auto reduce = dyn_cast<ReduceOverOp>(op)) {
      vars = freeOf(reduce.getValue());
      for (Value index : reduce.getIndices()) {
        unsigned var = cast<BlockArgument>(index).getArgNumber();
        if (var < rank)
          return reduce.emitOpError()
                 << "reduces over index variable " << var
                 << ", which indexes the result";
        vars.reset(var);
      }
      if (Value start = reduce.getStart()) {
        llvm::SmallBitVector startVars = freeOf(start);
        for (Value index : reduce.getIndices())
          if (startVars.test(cast<BlockArgument>(index).getArgNumber()))
            return reduce.emitOpError()
                   << "starts from a value of index variable "
                   << cast<BlockArgument>(index).getArgNumber()
                   << ", which it reduces over";
        vars |= startVars;
      }
    } else if (auto select = dyn_cast<SelectRangeOp>(op)) {
      vars.set(cast<BlockArgument>(select.getIndex()).getArgNumber());
      for (Value part : select.getParts())
        vars |= freeOf(part);
      for (Value range : select.getRanges())
        vars |= freeOf(range);
    } else if (isa<ApplyOp>(op)) {
      for (Value operand : op.getOperands())
        vars |= freeOf(operand);
    } else if (auto yield = dyn_cast<YieldOp>(op)) {
      if (yield.getValue().getType() != resultType.getElementType())
        return yield.emitOpError()
               << "yields " << yield.getValue().getType()
               << " but the result's element type is "
               << resultType.getElementType();
      llvm::SmallBitVector free = freeOf(yield.getValue());
      for (int var = free.find_first(); var >= 0; var = free.find_next(var))
        if (static_cast<unsigned>(var) >= rank)
          return yield.emitOpError()
                 << "the result depends on index variable " << var
                 << ", which neither indexes the result nor is reduced";
    } else if (!isa<arith::ConstantOp>(op) ||
               (op.getResult(0).getType().isIndex() &&
                llvm::any_of(op.getUsers(),
                             [](Operation *u) { return !isa<AccessOp>(u); }))) {
      return op.emitOpError()
             << "is not allowed in a kernel body (only sparse_array.access, "
                "apply, reduce_over, select_range, arith.constant and yield); "
                "wrap scalar code in a sparse_array.func";
    }
    if (op.getNumResults() == 1)
      freeVars[op.getResult(0)] = vars;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// AccessOp
//===----------------------------------------------------------------------===//

LogicalResult AccessOp::verify() {
  auto kernel = (*this)->getParentOfType<KernelOp>();
  ArrayType type = getArrayType();
  auto arg = dyn_cast<BlockArgument>(getArray());
  if (!arg || arg.getOwner() != &kernel.getBody().front() ||
      arg.getArgNumber() < kernel.getNumIndices())
    return emitOpError() << "must access a kernel input (a body argument "
                            "after the index variables)";
  if (getIndices().size() != type.getRank())
    return emitOpError() << "needs " << type.getRank()
                         << " index variables for a rank-" << type.getRank()
                         << " array, got " << getIndices().size();
  for (auto [dim, index] : llvm::enumerate(getIndices())) {
    // A fixed coordinate (broadcasting a size-1 dimension).
    if (std::optional<int64_t> fixed = getConstantIndex(index)) {
      int64_t size = type.getShape()[dim];
      if (*fixed < 0 || (!ShapedType::isDynamic(size) && *fixed >= size))
        return emitOpError() << "constant index " << *fixed
                             << " is out of range for dimension " << dim;
      if (isSliced(dim))
        return emitOpError() << "a constant index cannot be sliced";
      continue;
    }
    if (auto lin = index.getDefiningOp<LinearizeOp>()) {
      if (isSliced(dim))
        return emitOpError() << "a linearized index cannot be sliced";
      int64_t size = type.getShape()[dim], inner = 1;
      for (int64_t s : lin.getSizes())
        inner *= s;
      if (!ShapedType::isDynamic(size) && size % inner != 0)
        return emitOpError() << "dimension " << dim << " of size " << size
                             << " is not a multiple of the linearized sizes' "
                                "product "
                             << inner;
      continue;
    }
    if (auto delin = index.getDefiningOp<DelinearizeOp>()) {
      if (isSliced(dim))
        return emitOpError() << "a delinearized index cannot be sliced";
      // A part after the first ranges over its size exactly.
      unsigned part = cast<OpResult>(index).getResultNumber();
      int64_t size = type.getShape()[dim];
      if (part && !ShapedType::isDynamic(size) &&
          size != delin.getModulus(part))
        return emitOpError() << "dimension " << dim << " of size " << size
                             << " is read as delinearized part " << part
                             << " of size " << delin.getModulus(part);
      continue;
    }
    auto var = dyn_cast<BlockArgument>(index);
    if (!var || var.getOwner() != &kernel.getBody().front() ||
        var.getArgNumber() >= kernel.getNumIndices())
      return emitOpError() << "indices must be index variables of the kernel, "
                              "constants, sparse_array.linearize or "
                              "sparse_array.delinearize";
  }
  ArrayRef<int64_t> slices = getSlices();
  if (std::optional<ArrayRef<int64_t>> bounds = getBounds()) {
    if (!getPadded())
      return emitOpError() << "has bounds but is not padded";
    if (bounds->size() != 2 * type.getRank())
      return emitOpError() << "needs two bound values per dimension";
    for (unsigned dim = 0; dim < type.getRank(); ++dim) {
      int64_t lo = (*bounds)[2 * dim], hi = (*bounds)[2 * dim + 1];
      if (lo == 0 && hi == -1)
        continue;
      // A size known only at run time is checked then (KernelAnalysis).
      int64_t size = type.getShape()[dim];
      if (!isSliced(dim) || lo < 0 || hi < lo ||
          (!ShapedType::isDynamic(size) && hi > size))
        return emitOpError()
               << "bounds [" << lo << ", " << hi << ") of dimension " << dim
               << " must lie within a sliced dimension";
    }
  }
  if (slices.empty())
    return success();
  if (slices.size() != 3 * type.getRank())
    return emitOpError() << "needs three slice values per dimension";
  for (unsigned dim = 0; dim < type.getRank(); ++dim) {
    if (!isSliced(dim))
      continue;
    auto [lo, hi, step] = getSlice(dim);
    int64_t size = type.getShape()[dim];
    bool dynamic = ShapedType::isDynamic(size);
    // Ascending: lo <= hi; counting down (a reversal): hi <= lo.
    bool ordered = step > 0 ? hi >= lo : hi <= lo;
    // A padded window may reach outside a dimension of known size, or of
    // one known only at run time where bounds say what it reads.
    if (getPadded() && ordered && (!dynamic || getBound(dim)))
      continue;
    // Counting down reads lo first and stops before hi >= -1.
    bool within = step > 0 ? lo >= 0 && (dynamic || hi <= size)
                           : hi >= -1 && (dynamic || lo < size || lo == hi);
    if (!ordered || !within)
      return emitOpError() << "slice (" << lo << ":" << hi << ":" << step
                           << ") of dimension " << dim << " is not within [0, "
                           << (ShapedType::isDynamic(size)
                                   ? std::string("?")
                                   : std::to_string(size))
                           << ") in the order of its step";
  }
  return success();
}
