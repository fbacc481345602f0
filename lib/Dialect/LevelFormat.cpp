//===- LevelFormat.cpp - Built-in level formats and the registry ----------===//
//
// The built-in level formats of seed 002 §3.1 (Table 1): dense, compressed,
// singleton. Range, offset and hashed are meant to be added as further
// subclasses registered through LevelFormatRegistry.
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
  return std::nullopt;
}

bool LevelSpec::isFull() const { return format->isFull(); }
bool LevelSpec::isBranchless() const { return format->isBranchless(); }
bool LevelSpec::isCompact() const { return format->isCompact(); }
StringRef LevelSpec::getName() const { return format->getName(); }

namespace {

/// Every coordinate of the dimension is present; positions are computed
/// (p = parent * N + i). Seed 002 Table 1/2.
class DenseLevelFormat final : public LevelFormat {
public:
  StringRef getName() const override { return "dense"; }
  bool isFull() const override { return true; }
  bool isBranchless() const override { return false; }
  bool isCompact() const override { return true; }
  bool allowsNonUnique() const override { return false; }
  bool allowsNonOrdered() const override { return false; }
  bool hasPositionsBuffer() const override { return false; }
  bool hasCoordinatesBuffer() const override { return false; }
  LevelCapability getCapabilities() const override {
    return LevelCapability::CoordinateValueIteration |
           LevelCapability::Locate | LevelCapability::Insert;
  }
};

/// Coordinates stored in crd, segment of parent p in [pos[p], pos[p+1]).
class CompressedLevelFormat final : public LevelFormat {
public:
  StringRef getName() const override { return "compressed"; }
  bool isFull() const override { return false; }
  bool isBranchless() const override { return false; }
  bool isCompact() const override { return true; }
  bool allowsNonUnique() const override { return true; }
  bool allowsNonOrdered() const override { return true; }
  bool hasPositionsBuffer() const override { return true; }
  bool hasCoordinatesBuffer() const override { return true; }
  LevelCapability getCapabilities() const override {
    return LevelCapability::PositionIteration | LevelCapability::Append;
  }
};

/// Exactly one coordinate per parent position, no pos array (COO's lower
/// levels).
class SingletonLevelFormat final : public LevelFormat {
public:
  StringRef getName() const override { return "singleton"; }
  bool isFull() const override { return false; }
  bool isBranchless() const override { return true; }
  bool isCompact() const override { return true; }
  bool allowsNonUnique() const override { return true; }
  bool allowsNonOrdered() const override { return true; }
  bool hasPositionsBuffer() const override { return false; }
  bool hasCoordinatesBuffer() const override { return true; }
  LevelCapability getCapabilities() const override {
    return LevelCapability::PositionIteration | LevelCapability::Append;
  }
  bool acceptsNonUniqueParent() const override { return true; }
  std::optional<std::string>
  checkParent(std::optional<LevelSpec> parent) const override {
    // One child per parent position only makes sense below a level whose
    // positions are entries rather than coordinate slots: a compressed-like
    // (position-iterated, branching) level or a non-unique one.
    if (!parent)
      return std::string("cannot be the outermost level");
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
    dense = add(std::make_unique<DenseLevelFormat>());
    compressed = add(std::make_unique<CompressedLevelFormat>());
    singleton = add(std::make_unique<SingletonLevelFormat>());
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
