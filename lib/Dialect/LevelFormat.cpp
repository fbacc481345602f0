//===- LevelFormat.cpp - Built-in level formats and the registry ----------===//
//
// The level formats of seed 002 §3.1 (Table 1) the compiler knows: dense,
// compressed, singleton and the plugins whose traits describe them (DIA,
// ELL). A format with a rule its traits cannot state subclasses LevelFormat.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Dialect/LevelFormat.h"

#include "llvm/ADT/StringMap.h"

#include <mutex>

using namespace mlir;
using namespace mlir::sparse_array;

LevelFormat::~LevelFormat() = default;

std::optional<std::string>
LevelFormat::checkParent(std::optional<LevelSpec> parent) const {
  // A non-unique parent owns duplicates that only a format accepting them
  // (seed 002: singleton below compressed(non-unique), as in COO) can hold.
  if (parent && !parent->unique && !acceptsNonUniqueParent())
    return std::string("cannot follow the non-unique level above it; only a "
                       "level that accepts duplicates (e.g. singleton) can");
  if (traits.needsFullParent && (!parent || !parent->isFull()))
    return std::string("must follow a full (dense) level");
  // The parent's positions are hash slots, filled out of order: only a
  // level that computes its positions from them (a full one) fits below.
  if (parent && parent->format->hasHashOrder() && !isFull())
    return std::string("cannot follow a level in hash order ('") +
           parent->getName().str() + "'); only a full level can";
  return std::nullopt;
}

std::optional<std::string>
LevelFormat::checkParams(ArrayRef<uint64_t>) const {
  return std::nullopt;
}

std::optional<std::string>
LevelFormat::checkExtent(const LevelSpec &, std::optional<uint64_t>) const {
  return std::nullopt;
}

bool LevelSpec::isFull() const { return format->isFull(); }
bool LevelSpec::isBranchless() const { return format->isBranchless(); }
bool LevelSpec::isCompact() const { return format->isCompact(); }
bool LevelSpec::isReadOnlyByItsIterator() const {
  return (!format->isFull() && !format->hasCoordinatesBuffer()) ||
         !format->isCompact();
}
bool LevelSpec::canAssemble() const {
  return hasCapability(format->getCapabilities(), LevelCapability::Append) ||
         hasCapability(format->getCapabilities(), LevelCapability::Insert);
}
bool LevelSpec::canLocate() const {
  return hasCapability(format->getCapabilities(), LevelCapability::Locate);
}
bool LevelSpec::isSegmented() const {
  return !format->isFull() && format->hasPositionsBuffer();
}
StringRef LevelSpec::getName() const { return format->getName(); }
LevelSpec LevelSpec::orderedForm() const {
  LevelSpec ordered = format->hasHashOrder()
                          ? withFormat(LevelFormatRegistry::compressed())
                          : *this;
  ordered.ordered = true;
  return ordered;
}

namespace {

/// Formats whose traits say everything (seed 002 Tables 1-2).
class BuiltinLevelFormat final : public LevelFormat {
public:
  using LevelFormat::LevelFormat;
};

/// Exactly one coordinate per parent position, no pos array (COO's lower
/// levels).
class SingletonLevelFormat final : public LevelFormat {
public:
  SingletonLevelFormat() : LevelFormat(sparse_array_levels::kSingletonTraits) {}
  std::optional<std::string>
  checkParent(std::optional<LevelSpec> parent) const override {
    // One child per parent position only makes sense below a level whose
    // positions are entries rather than coordinate slots: a compressed-like
    // (position-iterated, branching) level or a non-unique one.
    if (!parent)
      return std::string("cannot be the outermost level");
    if (std::optional<std::string> why = LevelFormat::checkParent(parent))
      return why;
    bool compressedLike =
        hasCapability(parent->format->getCapabilities(),
                      LevelCapability::PositionIteration) &&
        !parent->isBranchless();
    if (!compressedLike && parent->unique)
      return std::string("must follow a compressed or non-unique level");
    return std::nullopt;
  }
};

struct Registry {
  std::mutex mutex;
  std::vector<std::unique_ptr<LevelFormat>> formats;
  llvm::StringMap<const LevelFormat *> byName;
  const LevelFormat *dense, *compressed, *singleton;

  Registry() {
    dense = add(std::make_unique<BuiltinLevelFormat>(
        sparse_array_levels::kDenseTraits));
    compressed = add(std::make_unique<BuiltinLevelFormat>(
        sparse_array_levels::kCompressedTraits));
    singleton = add(std::make_unique<SingletonLevelFormat>());
    // Formats their traits describe completely; their iterators are in
    // lib/Conversion/Iterators/Levels, their runtime halves in
    // runtime/lib/levels.
    add(std::make_unique<BuiltinLevelFormat>(
        sparse_array_levels::kDiagonalTraits));
    add(std::make_unique<BuiltinLevelFormat>(
        sparse_array_levels::kEllpackTraits));
    add(std::make_unique<BuiltinLevelFormat>(
        sparse_array_levels::kLooseCompressedTraits));
    add(std::make_unique<BuiltinLevelFormat>(
        sparse_array_levels::kHashedTraits));
    add(makeStructuredLevelFormat());
  }
  const LevelFormat *add(std::unique_ptr<LevelFormat> format) {
    auto [it, inserted] = byName.try_emplace(format->getName(), format.get());
    if (!inserted)
      return nullptr;
    formats.push_back(std::move(format));
    return it->second;
  }
};

Registry &getRegistry() {
  static Registry registry;
  return registry;
}

} // namespace

const LevelFormat *
LevelFormatRegistry::registerFormat(std::unique_ptr<LevelFormat> format) {
  Registry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  return registry.add(std::move(format));
}

const LevelFormat *LevelFormatRegistry::lookup(StringRef name) {
  Registry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  return registry.byName.lookup(name);
}

std::vector<std::string> LevelFormatRegistry::getNames() {
  Registry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  std::vector<std::string> names;
  for (const auto &format : registry.formats)
    names.push_back(format->getName().str());
  return names;
}

const LevelFormat *LevelFormatRegistry::dense() { return getRegistry().dense; }
const LevelFormat *LevelFormatRegistry::compressed() {
  return getRegistry().compressed;
}
const LevelFormat *LevelFormatRegistry::singleton() {
  return getRegistry().singleton;
}
