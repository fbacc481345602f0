//===- LevelFormat.h - Level formats as plugins -----------------*- C++ -*-===//
//
// A level format describes how one level of an array's coordinate tree is
// stored (seed 002 §3.1-3.3). Every consumer (verifier, storage lowering,
// iterator codegen) asks a LevelFormat for its properties and capabilities
// instead of switching on a format's name, so that new formats (range,
// offset, hashed, ...) plug in by registering a subclass.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_DIALECT_LEVELFORMAT_H
#define SPARSEARRAY_DIALECT_LEVELFORMAT_H

#include "SparseArrayLevelTraits.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace sparse_array {

class LevelFormat;

/// One stored level: its format plus the properties that a format may let
/// the user relax (seed 002 §3.3: ordered, unique).
struct LevelSpec {
  const LevelFormat *format = nullptr;
  bool ordered = true;
  bool unique = true;
  /// The format's integer parameters (`structured[n, m]`), as many as it
  /// declares (LevelTraits::numParams); the rest 0.
  std::array<uint64_t, sparse_array_levels::kMaxLevelParams> params = {};

  bool operator==(const LevelSpec &other) const {
    return format == other.format && ordered == other.ordered &&
           unique == other.unique && params == other.params;
  }
  bool operator!=(const LevelSpec &other) const { return !(*this == other); }

  /// Seed 002 §3.3 properties of this level (format properties combined
  /// with the per-level ordered/unique flags).
  bool isFull() const;
  bool isBranchless() const;
  bool isCompact() const;
  /// A segment of stored entries per parent position, bounded by a
  /// positions buffer (compressed and its kin): the shape that row-wise
  /// plans, balancing and parts outputs ask for.
  bool isSegmented() const;
  /// Whether only the level's own iterator can read it: its coordinates are
  /// computed from the parent's (seed 002's offset level, DIA) or padding
  /// sits between its entries (not compact: seed 002 Fig. 3's unlabeled
  /// nodes, DIA and ELL), so code that walks positions and coordinate
  /// buffers directly would misread it.
  bool isReadOnlyByItsIterator() const;
  /// Whether a kernel can build the level in order (append or insert).
  bool canAssemble() const;
  /// Whether a position is found from the parent's and a coordinate
  /// (seed 002 §3.2 locate): such a level read at an index variable is
  /// located once its parent is positioned, whichever loop binds the
  /// variable, so it does not constrain the loop order.
  bool canLocate() const;
  StringRef getName() const;
  /// The same properties stored in `other` (a generic level replacing a
  /// plugin's): ordered and unique kept, parameters dropped.
  LevelSpec withFormat(const LevelFormat *other) const {
    LevelSpec s{other, ordered, unique};
    return s;
  }
  /// This level ordered, for code that must merge it in order: the same
  /// level marked ordered, or where its format keeps hash order (never
  /// ordered) a compressed level (what a conversion sorts it into).
  LevelSpec orderedForm() const;
};

inline llvm::hash_code hash_value(const LevelSpec &spec) {
  return llvm::hash_combine(spec.format, spec.ordered, spec.unique,
                            llvm::hash_combine_range(spec.params.begin(),
                                                     spec.params.end()));
}

/// Level capabilities (seed 002 §3.2): how a level can be iterated, accessed
/// and assembled. A bit set, the same bits as the shared traits'.
enum class LevelCapability : unsigned {
  None = sparse_array_levels::kNoCapability,
  /// Iterate a coordinate range and compute positions from coordinates.
  CoordinateValueIteration = sparse_array_levels::kCoordinateValueIteration,
  /// Iterate stored positions and read coordinates from them.
  PositionIteration = sparse_array_levels::kPositionIteration,
  /// Random access: position of a given coordinate in O(1) or better than a
  /// scan.
  Locate = sparse_array_levels::kLocate,
  /// Insert coordinates in any order into preallocated storage.
  Insert = sparse_array_levels::kInsert,
  /// Append coordinates in order.
  Append = sparse_array_levels::kAppend,
};

inline LevelCapability operator|(LevelCapability a, LevelCapability b) {
  return static_cast<LevelCapability>(static_cast<unsigned>(a) |
                                      static_cast<unsigned>(b));
}
inline bool hasCapability(LevelCapability set, LevelCapability c) {
  return (static_cast<unsigned>(set) & static_cast<unsigned>(c)) != 0;
}

using sparse_array_levels::LevelBufferDecl;
using sparse_array_levels::LevelTraits;

/// A level format: its traits (the description it shares with the
/// runtime's LevelKind, runtime/include/SparseArrayLevelTraits.h) and the
/// rules a description cannot state (checkParent). Instances are stateless
/// singletons owned by the registry; LevelSpec refers to them by pointer,
/// so a format's identity is its address.
class LevelFormat {
public:
  explicit LevelFormat(const LevelTraits &traits) : traits(traits) {}
  virtual ~LevelFormat();

  const LevelTraits &getTraits() const { return traits; }
  /// Keyword used in `#sparse_array.format<[...]>`.
  StringRef getName() const { return traits.name; }

  // Format properties (seed 002 §3.3). `ordered` and `unique` are per level
  // (LevelSpec); a format says whether it allows relaxing them.
  bool isFull() const { return traits.full; }
  bool isBranchless() const { return traits.branchless; }
  bool isCompact() const { return traits.compact; }
  bool allowsNonUnique() const { return traits.allowsNonUnique; }
  bool allowsNonOrdered() const { return traits.allowsNonOrdered; }
  /// Coordinates in hash order (seed 002's hashed level): never ordered;
  /// the level below must be full (LevelTraits::hashOrder).
  bool hasHashOrder() const { return traits.hashOrder; }

  /// Capabilities of a level stored in this format.
  LevelCapability getCapabilities() const {
    return static_cast<LevelCapability>(traits.capabilities);
  }

  /// The buffers a level of this format stores (seed 002 §3.1), in the
  /// order an array lays them out: per level in storage order, these, then
  /// the values (Storage.h).
  ArrayRef<LevelBufferDecl> getBuffers() const {
    return ArrayRef<LevelBufferDecl>(traits.buffers, traits.numBuffers);
  }
  /// positions[p] .. positions[p + 1] are the children of parent position p.
  bool hasPositionsBuffer() const { return traits.hasPositions(); }
  /// coordinates[q] is the coordinate of position q.
  bool hasCoordinatesBuffer() const { return traits.hasCoordinates(); }

  /// How many integer parameters a level of this format is written with.
  unsigned getNumParams() const { return traits.numParams; }
  /// Why `params` (getNumParams() of them) do not make a level of this
  /// format, or std::nullopt when they do.
  virtual std::optional<std::string>
  checkParams(ArrayRef<uint64_t> params) const;
  /// Why a level with `spec`'s parameters cannot have extent `extent`
  /// (std::nullopt: dynamic), or std::nullopt when it can.
  virtual std::optional<std::string>
  checkExtent(const LevelSpec &spec, std::optional<uint64_t> extent) const;

  /// Whether this level may be stored below `parent` (std::nullopt for the
  /// outermost level). On failure, returns the reason (without the level
  /// number), e.g. "must follow a compressed or non-unique level".
  virtual std::optional<std::string>
  checkParent(std::optional<LevelSpec> parent) const;

  /// Whether this level may hold the duplicates of a non-unique parent: each
  /// parent position then owns exactly one child position.
  bool acceptsNonUniqueParent() const { return traits.acceptsNonUniqueParent; }

private:
  const LevelTraits &traits;
};

/// The level format plugins with rules of their own (lib/Dialect/Levels),
/// registered with the built-ins.
std::unique_ptr<LevelFormat> makeStructuredLevelFormat();

/// Registry of level formats, looked up by name when parsing. The built-in
/// formats (dense, compressed, singleton) are always present; plugins add
/// theirs with registerFormat before parsing IR that names them.
class LevelFormatRegistry {
public:
  /// Takes ownership; returns the registered instance, or nullptr when a
  /// format of that name exists already.
  static const LevelFormat *registerFormat(std::unique_ptr<LevelFormat> format);
  static const LevelFormat *lookup(StringRef name);
  /// Names of all registered formats in registration order.
  static std::vector<std::string> getNames();

  static const LevelFormat *dense();
  static const LevelFormat *compressed();
  static const LevelFormat *singleton();
};

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_DIALECT_LEVELFORMAT_H
