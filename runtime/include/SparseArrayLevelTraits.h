//===- SparseArrayLevelTraits.h - What a level format declares --*- C++ -*-===//
//
// One description per level format (seed 002 §3, Tables 1 and 2), read by
// both halves of the storage model: the compiler's LevelFormat and the
// runtime's LevelKind are each built from a LevelTraits, so the two cannot
// disagree on a format's properties, capabilities or buffers, and a format
// added to one is checked against the other by name (unittests/Runtime,
// LevelTraitsTest). Plain C++17, no MLIR or LLVM dependency.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_ARRAY_LEVEL_TRAITS_H
#define SPARSE_ARRAY_LEVEL_TRAITS_H

#include <cstring>

namespace sparse_array_levels {

/// Level capabilities (seed 002 §3.2, Table 1), a bit set.
enum Capability : unsigned {
  kNoCapability = 0,
  /// Iterate a coordinate range; positions computed from coordinates.
  kCoordinateValueIteration = 1u << 0,
  /// Iterate stored positions and read their coordinates.
  kPositionIteration = 1u << 1,
  /// The position of a given coordinate without a scan.
  kLocate = 1u << 2,
  /// Insert coordinates in any order into preallocated storage.
  kInsert = 1u << 3,
  /// Append coordinates in order.
  kAppend = 1u << 4,
};

/// Which of an array's two integer widths (`pos=`/`crd=` of the format)
/// types a level buffer: widths are per array, buffers per level.
enum class BufferWidth : unsigned char { Positions, Coordinates };

/// One 1-D buffer a level stores. Arrays lay out, per level in storage
/// order, the buffers its format declares in declaration order, then the
/// values (docs/storage.md).
struct LevelBufferDecl {
  /// What the buffer holds; kPositionsRole and kCoordinatesRole are the
  /// roles the generic iterators, assembly and conversions read.
  const char *role;
  BufferWidth width;
};

/// The role of a segment-bounds buffer: entries [pos[p], pos[p+1]) are the
/// children of parent position p.
inline constexpr const char *kPositionsRole = "positions";
/// The role of a per-position coordinate buffer: crd[q] is the coordinate
/// at position q.
inline constexpr const char *kCoordinatesRole = "coordinates";

inline constexpr unsigned kMaxLevelBuffers = 4;
/// The most integer parameters a level format takes (`structured[n, m]`).
inline constexpr unsigned kMaxLevelParams = 2;

struct LevelTraits {
  /// Keyword in `#sparse_array.format<[...]>` and in the runtime's specs.
  const char *name;
  // Properties (seed 002 §3.3). Ordered and unique are per level; a format
  // says whether a level may drop them.
  bool full;
  bool branchless;
  bool compact;
  bool allowsNonUnique;
  bool allowsNonOrdered;
  /// Whether a level of this format may sit below a non-unique level and
  /// hold its duplicates (one child position per parent position).
  bool acceptsNonUniqueParent;
  /// Whether the level may only sit below a full level: its positions are
  /// slots counted per parent position, and its iterator reads the parent's
  /// coordinate off the parent position.
  bool needsFullParent;
  unsigned capabilities;
  unsigned numBuffers;
  LevelBufferDecl buffers[kMaxLevelBuffers];
  /// Whether the level keeps coordinates in hash order (seed 002's hashed
  /// level): its positions are slots a coordinate's hash picks, so it is
  /// never ordered, its entries are assigned positions out of order, and a
  /// level below it must compute its positions from its parent's (full).
  bool hashOrder = false;
  /// How many integer parameters a level of this format is written with
  /// (`name[p0, p1]`): part of the level's type, like ordered and unique.
  unsigned numParams = 0;

  bool has(Capability c) const { return (capabilities & c) != 0; }
  /// Index among this level's buffers of the one with `role`, or -1.
  int bufferSlot(const char *role) const {
    for (unsigned k = 0; k < numBuffers; ++k)
      if (std::strcmp(buffers[k].role, role) == 0)
        return static_cast<int>(k);
    return -1;
  }
  bool hasPositions() const { return bufferSlot(kPositionsRole) >= 0; }
  bool hasCoordinates() const { return bufferSlot(kCoordinatesRole) >= 0; }
};

// The built-in formats (seed 002 §3.1).

/// Every coordinate of the dimension; position = parent * size + coordinate.
inline constexpr LevelTraits kDenseTraits = {
    "dense", /*full=*/true, /*branchless=*/false, /*compact=*/true,
    /*allowsNonUnique=*/false, /*allowsNonOrdered=*/false,
    /*acceptsNonUniqueParent=*/false, /*needsFullParent=*/false,
    kCoordinateValueIteration | kLocate | kInsert, 0, {}};

/// A segment of stored coordinates per parent, bounded by positions.
inline constexpr LevelTraits kCompressedTraits = {
    "compressed", /*full=*/false, /*branchless=*/false, /*compact=*/true,
    /*allowsNonUnique=*/true, /*allowsNonOrdered=*/true,
    /*acceptsNonUniqueParent=*/false, /*needsFullParent=*/false,
    kPositionIteration | kAppend, 2,
    {{kPositionsRole, BufferWidth::Positions},
     {kCoordinatesRole, BufferWidth::Coordinates}}};

/// Exactly one stored coordinate per parent position (COO's lower levels).
inline constexpr LevelTraits kSingletonTraits = {
    "singleton", /*full=*/false, /*branchless=*/true, /*compact=*/true,
    /*allowsNonUnique=*/true, /*allowsNonOrdered=*/true,
    /*acceptsNonUniqueParent=*/true, /*needsFullParent=*/false,
    kPositionIteration | kAppend, 1,
    {{kCoordinatesRole, BufferWidth::Coordinates}}};

/// The role of a diagonal level's offsets buffer (signed, ascending).
inline constexpr const char *kOffsetsRole = "offsets";

/// Seed 002's DIA storage as one level below a full level (its Table 2 offset
/// and range level functions, rows outermost): the level stores K diagonal
/// offsets; parent position p owns positions [p K, (p + 1) K), position
/// p K + k holding coordinate r + offsets[k] (r: the parent's coordinate).
/// Positions whose coordinate falls outside the dimension are padding (the
/// unlabeled nodes of seed 002 Fig. 3c): never iterated, hence not compact.
inline constexpr LevelTraits kDiagonalTraits = {
    "diagonal", /*full=*/false, /*branchless=*/false, /*compact=*/false,
    /*allowsNonUnique=*/false, /*allowsNonOrdered=*/false,
    /*acceptsNonUniqueParent=*/false, /*needsFullParent=*/true,
    kPositionIteration, 1,
    {{kOffsetsRole, BufferWidth::Coordinates}}};

/// The role of an ellpack level's one-entry buffer holding its width W.
inline constexpr const char *kWidthRole = "width";

/// Seed 002's ELL with rows outermost (ELLPACK, rows of W slots): below a
/// full level, parent position p owns positions [p W, (p + 1) W); its
/// entries' coordinates ascend from p W, the slots after them are padding
/// holding all-ones coordinates (and the fill as values).
inline constexpr LevelTraits kEllpackTraits = {
    "ellpack", /*full=*/false, /*branchless=*/false, /*compact=*/false,
    /*allowsNonUnique=*/false, /*allowsNonOrdered=*/false,
    /*acceptsNonUniqueParent=*/false, /*needsFullParent=*/true,
    kPositionIteration, 2,
    {{kWidthRole, BufferWidth::Positions},
     {kCoordinatesRole, BufferWidth::Coordinates}}};

/// The role of a loose level's bounds buffer: (lo, hi) per parent position.
inline constexpr const char *kBoundsRole = "bounds";

/// A compressed level whose segments need not abut (upstream's
/// `loose_compressed`): parent position p's children are positions
/// [bounds[2 p], bounds[2 p + 1]), so segments can leave room to grow or
/// be assembled from buffers made elsewhere. Positions between segments
/// are not entries (not compact), hence read only by its iterator.
inline constexpr LevelTraits kLooseCompressedTraits = {
    "loose_compressed", /*full=*/false, /*branchless=*/false, /*compact=*/false,
    /*allowsNonUnique=*/true, /*allowsNonOrdered=*/true,
    /*acceptsNonUniqueParent=*/false, /*needsFullParent=*/false,
    kPositionIteration, 2,
    {{kBoundsRole, BufferWidth::Positions},
     {kCoordinatesRole, BufferWidth::Coordinates}}};

/// Seed 002's hashed level (Table 2, Fig. 3's hash map vector): parent
/// position p owns the W slots [p W, (p + 1) W) (W, a power of two, in the
/// one-entry `width` buffer); coordinate c lives in the first slot from
/// hashedHome(c, W) on, probing linearly (wrapping within the segment),
/// that holds c; an empty slot holds an all-ones coordinate (the seed's
/// -1) and the fill as its value. Every segment keeps an empty slot, so a
/// probe for a missing coordinate stops (locate can miss: seed 002's
/// `found`). Unordered (hash order), unique, locatable; built by insert.
inline constexpr LevelTraits kHashedTraits = {
    "hashed", /*full=*/false, /*branchless=*/false, /*compact=*/false,
    /*allowsNonUnique=*/false, /*allowsNonOrdered=*/true,
    /*acceptsNonUniqueParent=*/false, /*needsFullParent=*/false,
    kPositionIteration | kLocate | kInsert, 2,
    {{kWidthRole, BufferWidth::Positions},
     {kCoordinatesRole, BufferWidth::Coordinates}},
    /*hashOrder=*/true};

/// N:M structured sparsity (upstream's `structured[n, m]`, NVIDIA's 2:4):
/// the place in a block of m (the in-block level of a dimension blocked by
/// m, or a level of extent m) holding at most n entries. ELL with its width
/// in the type: parent position p owns the n slots [p n, (p + 1) n), its
/// entries' coordinates ascending from p n, then padding (all-ones
/// coordinates, the fill as values). Parameters: n, m (1 <= n <= m).
inline constexpr LevelTraits kStructuredTraits = {
    "structured", /*full=*/false, /*branchless=*/false, /*compact=*/false,
    /*allowsNonUnique=*/false, /*allowsNonOrdered=*/false,
    /*acceptsNonUniqueParent=*/false, /*needsFullParent=*/true,
    kPositionIteration, 1,
    {{kCoordinatesRole, BufferWidth::Coordinates}},
    /*hashOrder=*/false, /*numParams=*/2};

/// The multiplier of hashedHome: 2^64 / golden ratio (Fibonacci hashing),
/// so that strided coordinates (multiples of a power of two) spread over
/// the table instead of colliding as they would under c mod W.
inline constexpr unsigned long long kHashMultiplier = 0x9E3779B97F4A7C15ull;

/// The slot (within its segment of `width` slots, a power of two) where a
/// hashed level's probe for coordinate `c` starts: bits 32.. of c times
/// kHashMultiplier (mod 2^64). Generated code computes the same.
inline unsigned long long hashedHome(unsigned long long c,
                                     unsigned long long width) {
  return ((c * kHashMultiplier) >> 32) & (width - 1);
}

} // namespace sparse_array_levels

#endif // SPARSE_ARRAY_LEVEL_TRAITS_H
