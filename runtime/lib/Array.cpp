//===- Array.cpp - Runtime arrays, COO staging, packing -------------------===//

#include "Array.h"
#include "SparseArrayRuntime.h"
#include "Error.h"
#include "Sorter.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>

namespace sa_rt {

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

static uint64_t byteCount(uint64_t count, uint64_t elemSize,
                          const char *what) {
  uint64_t bytes;
  if (__builtin_mul_overflow(count, elemSize, &bytes))
    fatal("%s: %llu entries of %llu bytes overflow 64 bits", what,
          static_cast<unsigned long long>(count),
          static_cast<unsigned long long>(elemSize));
  return bytes ? bytes : 1; // never hand out null for a valid buffer
}

// A fresh buffer or a clear error; large ones get the huge-page advice of
// buffers filled once, in order (Memory.cpp).
static void *checked(void *p, uint64_t bytes, const char *what) {
  if (!p)
    fatal("out of memory allocating %llu bytes for %s",
          static_cast<unsigned long long>(bytes), what);
  sa_rt_advise_sequential_buffer(reinterpret_cast<int64_t>(p),
                                 static_cast<int64_t>(bytes));
  return p;
}

void *checkedMalloc(uint64_t count, uint64_t elemSize, const char *what) {
  uint64_t bytes = byteCount(count, elemSize, what);
  void *p = std::malloc(bytes);
  return checked(p, bytes, what);
}

void *checkedCalloc(uint64_t count, uint64_t elemSize, const char *what) {
  uint64_t bytes = byteCount(count, elemSize, what);
  void *p = std::calloc(1, bytes);
  return checked(p, bytes, what);
}

void *checkedRealloc(void *old, uint64_t count, uint64_t elemSize,
                     const char *what) {
  uint64_t bytes = byteCount(count, elemSize, what);
  void *p = std::realloc(old, bytes);
  return checked(p, bytes, what);
}

//===----------------------------------------------------------------------===//
// Array
//===----------------------------------------------------------------------===//

Array::Array(const FormatSpec &s) : spec(s) {
  dims.assign(spec.rank(), 0);
  for (unsigned d = 0; d < spec.rank(); ++d)
    if (spec.dims[d] >= 0)
      dims[d] = static_cast<uint64_t>(spec.dims[d]);
  buffers.resize(spec.numBuffers());
}

Array::~Array() {
  for (Buffer &b : buffers)
    if (b.owned)
      std::free(b.data);
}

LevelBuffers Array::level(unsigned l) const {
  LevelBuffers lb;
  lb.posWidth = spec.posWidth;
  lb.crdWidth = spec.crdWidth;
  int p = spec.posBufferIndex(l), c = spec.crdBufferIndex(l);
  if (p >= 0) {
    lb.pos = buffers[p].data;
    lb.posLen = buffers[p].len;
  }
  if (c >= 0) {
    lb.crd = buffers[c].data;
    lb.crdLen = buffers[c].len;
  }
  int first = spec.levelBufferIndex(l, nullptr);
  for (unsigned k = 0; k < spec.levels[l].kind->numBuffers(); ++k) {
    lb.slot[k] = buffers[first + k].data;
    lb.slotLen[k] = buffers[first + k].len;
  }
  lb.parentDim = l ? levelDim(l - 1) : 0;
  lb.dim = levelDim(l);
  lb.setParams(spec.levels[l].params);
  return lb;
}

uint64_t Array::valueBits(uint64_t pos) const {
  uint64_t bits = 0;
  unsigned b = elemBytes(spec.elem);
  std::memcpy(&bits, static_cast<const char *>(values().data) + pos * b, b);
  return bits;
}

//===----------------------------------------------------------------------===//
// Coo
//===----------------------------------------------------------------------===//

Coo::Coo(Elem e, unsigned rank) : elem(e) {
  dims.assign(rank, 0);
  cols.assign(rank, nullptr);
}

Coo::~Coo() {
  for (uint64_t *c : cols)
    std::free(c);
  std::free(vals);
}

Coo::Coo(Coo &&o) noexcept
    : elem(o.elem), dims(std::move(o.dims)), cols(std::move(o.cols)),
      vals(o.vals), nnz(o.nnz), cap(o.cap) {
  o.cols.clear();
  o.vals = nullptr;
  o.nnz = o.cap = 0;
}

void Coo::reserve(uint64_t n) {
  if (n <= cap)
    return;
  for (uint64_t *&c : cols)
    c = static_cast<uint64_t *>(
        checkedRealloc(c, n, sizeof(uint64_t), "coordinates"));
  vals = checkedRealloc(vals, n, elemBytes(elem), "values");
  cap = n;
}

void Coo::release() {
  for (uint64_t *&c : cols) {
    std::free(c);
    c = nullptr;
  }
  std::free(vals);
  vals = nullptr;
  nnz = cap = 0;
}

void Coo::shrinkToFit() {
  if (nnz == cap || nnz == 0)
    return;
  for (uint64_t *&c : cols)
    c = static_cast<uint64_t *>(
        checkedRealloc(c, nnz, sizeof(uint64_t), "coordinates"));
  vals = checkedRealloc(vals, nnz, elemBytes(elem), "values");
  cap = nnz;
}

bool prepareLevel(Array &array, unsigned l, LevelBuffers &b,
                  const uint64_t *const *cols, uint64_t n, uint64_t groups,
                  uint64_t &positions, PackError &error) {
  const LevelKind *k = array.spec.levels[l].kind;
  // The kind's own buffers (seed 002: e.g. a DIA level's offsets), which
  // the array owns from here on.
  if (!k->prepare(b, cols, l, n, error.message)) {
    error.message = "level " + std::to_string(l) + " (" + k->name() +
                    "): " + error.message;
    for (unsigned s = 0; s < k->numBuffers(); ++s)
      std::free(b.slot[s]);
    return false;
  }
  int firstBuffer = array.spec.levelBufferIndex(l, nullptr);
  for (unsigned s = 0; s < k->numBuffers(); ++s)
    if (b.slot[s])
      array.buffers[firstBuffer + s] = {b.slot[s], b.slotLen[s], true};
  if (!k->numPositions(b, b.parents, b.dim, groups, positions)) {
    error.message = "level " + std::to_string(l) +
                    " has more positions than 64 bits can count";
    return false;
  }
  return true;
}

bool checkExtents(const Coo &coo, const FormatSpec &spec, PackError &error) {
  for (unsigned d = 0; d < spec.rank(); ++d)
    if (spec.crdWidth == 32 && coo.dims[d] > (1ull << 32)) {
      error.message = "dimension " + std::to_string(d) + " has size " +
                      std::to_string(coo.dims[d]) +
                      ", which does not fit crd_width = 32";
      return false;
    }
  for (unsigned d = 0; d < spec.rank(); ++d)
    if (coo.dims[d] % spec.block(d)) {
      error.message = "dimension " + std::to_string(d) + " has size " +
                      std::to_string(coo.dims[d]) +
                      ", which is not a multiple of its block size " +
                      std::to_string(spec.block(d));
      return false;
    }
  return true;
}

namespace {

using detail::Sorter;

//===----------------------------------------------------------------------===//
// Packing
//===----------------------------------------------------------------------===//

template <typename V> struct Packer {
  const FormatSpec &spec;
  std::vector<uint64_t *> col; // level order
  const V *val;
  V *out = nullptr; // null when the COO values become the values buffer
  std::vector<LevelBuffers> lb;
  std::vector<uint64_t> dim;

  /// Whether entries e and g have the same coordinates at levels l..m.
  bool samePrefix(unsigned l, unsigned m, uint64_t e, uint64_t g) const {
    for (unsigned k = l; k <= m && k < col.size(); ++k)
      if (col[k][e] != col[k][g])
        return false;
    return true;
  }

  void visit(unsigned l, uint64_t parent, uint64_t lo, uint64_t hi) {
    if (l == col.size()) {
      if (out)
        out[parent] = val[lo];
      return;
    }
    const LevelKind *k = spec.levels[l].kind;
    LevelBuffers &b = lb[l];
    const uint64_t *c = col[l];
    uint64_t d = dim[l];
    if (!spec.levels[l].unique) {
      // One position per distinct coordinate prefix through the first
      // unique level below (each entry in COO; each block in a COO of
      // blocks, whose dense levels below hold the block's entries).
      unsigned m = l;
      while (m < col.size() && !spec.levels[m].unique)
        ++m;
      for (uint64_t e = lo; e < hi;) {
        uint64_t g = e + 1;
        while (g < hi && samePrefix(l, m, e, g))
          ++g;
        visit(l + 1, k->append(b, parent, c[e], d), e, g);
        e = g;
      }
      return;
    }
    for (uint64_t e = lo; e < hi;) {
      uint64_t g = e + 1;
      while (g < hi && c[g] == c[e])
        ++g;
      visit(l + 1, k->append(b, parent, c[e], d), e, g);
      e = g;
    }
  }
};

/// Blocks (BCSR): replaces the entries' dimension columns by level
/// columns (d / b and d mod b for a blocked dimension), so that sorting and
/// packing see one column per level in level order.
void toLevelColumns(Coo &coo, const FormatSpec &spec) {
  unsigned L = spec.numLevels();
  std::vector<uint64_t *> cols(L);
  std::vector<uint64_t> extents(L);
  for (unsigned l = 0; l < L; ++l) {
    const uint64_t *from = coo.cols[spec.order[l]];
    uint64_t *to = static_cast<uint64_t *>(
        checkedMalloc(coo.nnz ? coo.nnz : 1, sizeof(uint64_t), "coordinates"));
    for (uint64_t e = 0; e < coo.nnz; ++e)
      to[e] = spec.levelCoord(l, from[e]);
    cols[l] = to;
    extents[l] = spec.levelExtent(l, coo.dims[spec.order[l]]);
  }
  for (uint64_t *c : coo.cols)
    std::free(c);
  coo.cols = std::move(cols);
  coo.dims = std::move(extents);
}

template <typename V>
std::unique_ptr<Array> packTyped(Coo &coo, const FormatSpec &spec,
                                 PackError &error) {
  unsigned L = spec.numLevels();
  uint64_t nnz = coo.nnz;
  auto array = std::make_unique<Array>(spec);
  array->dims = coo.dims;

  if (!checkExtents(coo, spec, error))
    return nullptr;

  // colOf[l]: the column of `coo` holding level l's coordinates.
  std::vector<unsigned> colOf(spec.order.begin(), spec.order.end());
  if (spec.blocked()) {
    toLevelColumns(coo, spec);
    for (unsigned l = 0; l < L; ++l)
      colOf[l] = l;
  }
  Sorter<V> sorter;
  sorter.val = static_cast<V *>(coo.vals);
  for (unsigned l = 0; l < L; ++l) {
    sorter.col.push_back(coo.cols[colOf[l]]);
    sorter.colSlot.push_back(&coo.cols[colOf[l]]);
    sorter.dim.push_back(coo.dims[colOf[l]]);
  }
  sorter.valSlot = &coo.vals;
  sorter.sort(0, nnz, 0);

  // Groups per level (distinct coordinate prefixes; every entry below a
  // non-unique level), and duplicates.
  std::vector<uint64_t> groups(L, nnz ? 1 : 0);
  unsigned firstNonUnique = L;
  for (unsigned l = 0; l < L; ++l)
    if (!spec.levels[l].unique) {
      firstNonUnique = l;
      break;
    }
  for (uint64_t e = 1; e < nnz; ++e) {
    unsigned l = 0;
    while (l < L && sorter.col[l][e] == sorter.col[l][e - 1])
      ++l;
    if (l == L) {
      error.message = "duplicate entry";
      error.duplicate.assign(spec.rank(), 0);
      for (unsigned l = 0; l < L; ++l)
        spec.addLevelCoord(l, sorter.col[l][e],
                           error.duplicate[spec.order[l]]);
      return nullptr;
    }
    for (unsigned m = l; m < L; ++m)
      ++groups[m];
  }
  // A run of non-unique levels has one position per distinct prefix
  // through the unique level that ends it (Packer::visit).
  for (unsigned l = firstNonUnique; l < L; ++l) {
    unsigned m = l;
    while (m + 1 < L && !spec.levels[m].unique)
      ++m;
    groups[l] = groups[m];
  }

  // Buffers. A level with one position per entry stores exactly the
  // (sorted) coordinate column, and a leaf level with one position per
  // entry stores exactly the values: those are moved, not copied.
  Packer<V> packer{spec, sorter.col, static_cast<const V *>(coo.vals),
                   nullptr, {}, {}};
  std::vector<bool> reusedCol(coo.rank(), false);
  uint64_t parents = 1;
  for (unsigned l = 0; l < L; ++l) {
    const LevelKind *k = spec.levels[l].kind;
    LevelBuffers b;
    b.posWidth = spec.posWidth;
    b.crdWidth = spec.crdWidth;
    b.parentDim = l ? sorter.dim[l - 1] : 0;
    b.dim = sorter.dim[l];
    b.setParams(spec.levels[l].params);
    b.parents = parents;
    uint64_t positions;
    if (!prepareLevel(*array, l, b, sorter.col.data(), nnz, groups[l],
                      positions, error))
      return nullptr;
    if (spec.posWidth == 32 && k->hasPositions() && positions > UINT32_MAX) {
      error.message = "level " + std::to_string(l) + " stores " +
                      std::to_string(positions) +
                      " entries, which do not fit pos_width = 32";
      return nullptr;
    }
    int pi = spec.posBufferIndex(l), ci = spec.crdBufferIndex(l);
    if (pi >= 0) {
      uint64_t n = k->posLength(parents);
      b.pos = checkedCalloc(n, spec.posWidth / 8, "positions");
      b.posLen = n;
      array->buffers[pi] = {b.pos, n, true};
    }
    if (ci >= 0) {
      uint64_t n = k->crdLength(positions);
      if (n == nnz && spec.crdWidth == 64) {
        b.crd = sorter.col[l];
        b.crdWritable = false;
        reusedCol[colOf[l]] = true;
      } else {
        b.crd = checkedMalloc(n, spec.crdWidth / 8, "coordinates");
      }
      b.crdLen = n;
      array->buffers[ci] = {b.crd, n, true};
    }
    packer.lb.push_back(b);
    packer.dim.push_back(sorter.dim[l]);
    parents = positions;
  }
  Buffer &values = array->buffers[spec.valuesBufferIndex()];
  bool moveValues = parents == nnz;
  if (moveValues) {
    values = {coo.vals, nnz, true};
  } else {
    V fill;
    std::memcpy(&fill, &spec.fill, sizeof(V));
    V *out = static_cast<V *>(checkedMalloc(parents, sizeof(V), "values"));
    std::fill(out, out + parents, fill);
    values = {out, parents, true};
    packer.out = out;
  }
  if (nnz)
    packer.visit(0, 0, 0, nnz);
  parents = 1;
  for (unsigned l = 0; l < L; ++l) {
    uint64_t positions;
    spec.levels[l].kind->numPositions(packer.lb[l], parents, sorter.dim[l],
                                      groups[l], positions);
    spec.levels[l].kind->finish(packer.lb[l], parents);
    parents = positions;
  }

  // Hand the moved columns over; free the rest now.
  for (unsigned d = 0; d < coo.rank(); ++d) {
    if (!reusedCol[d])
      std::free(coo.cols[d]);
    coo.cols[d] = nullptr;
  }
  if (moveValues)
    coo.vals = nullptr;
  coo.nnz = coo.cap = 0;
  return array;
}

//===----------------------------------------------------------------------===//
// Iteration
//===----------------------------------------------------------------------===//

/// Calls f(levelCoords, valuePosition) for every stored entry in storage
/// order.
template <typename F> void forEachStored(const Array &a, F &&f) {
  unsigned L = a.spec.numLevels();
  if (L == 0) {
    f(static_cast<const uint64_t *>(nullptr), uint64_t(0));
    return;
  }
  std::vector<LevelBuffers> lb;
  std::vector<uint64_t> dim;
  for (unsigned l = 0; l < L; ++l) {
    lb.push_back(a.level(l));
    dim.push_back(a.levelDim(l));
  }
  std::vector<uint64_t> coords(L);
  auto rec = [&](auto &self, unsigned l, uint64_t parent) -> void {
    ChildRange r = a.spec.levels[l].kind->children(lb[l], parent, dim[l]);
    for (uint64_t p = r.lo; p < r.hi; ++p) {
      if (r.holes && lb[l].getCrd(p) == lb[l].freeSlot())
        continue;
      coords[l] = r.coords == ChildRange::Coords::FromBuffer ? lb[l].getCrd(p)
                  : r.coords == ChildRange::Coords::FromKind
                      ? a.spec.levels[l].kind->coordinateAt(lb[l], p)
                      : p - r.coordBase;
      if (l + 1 == L)
        f(coords.data(), p);
      else
        self(self, l + 1, p);
    }
  };
  rec(rec, 0, 0);
}

/// Whether iteration order is lexicographic in dimension order.
bool iteratesInDimOrder(const FormatSpec &s) {
  if (s.blocked())
    return false;
  for (unsigned l = 0; l < s.numLevels(); ++l)
    if (s.order[l] != l || !s.levels[l].ordered)
      return false;
  return true;
}

/// Buffered text output: snprintf-free formatting of coordinates.
class Writer {
public:
  explicit Writer(std::FILE *out) : out(out) {}
  ~Writer() { flush(); }
  void put(const char *s, size_t n) {
    if (len + n > sizeof(buf))
      flush();
    std::memcpy(buf + len, s, n);
    len += n;
  }
  void put(const char *s) { put(s, std::strlen(s)); }
  void put(char c) { put(&c, 1); }
  void putU64(uint64_t v) {
    char tmp[24];
    auto [end, ec] = std::to_chars(tmp, tmp + sizeof(tmp), v);
    put(tmp, end - tmp);
  }
  void putValue(Elem e, uint64_t bits) {
    char tmp[48];
    int n = formatValue(e, bits, tmp);
    put(tmp, n);
  }
  void flush() {
    if (len)
      std::fwrite(buf, 1, len, out);
    len = 0;
  }

private:
  std::FILE *out;
  char buf[1 << 16];
  size_t len = 0;
};

} // namespace

std::unique_ptr<Array> pack(Coo &&coo, const FormatSpec &spec,
                            PackError &error) {
  if (insertsInAnyOrder(spec))
    return packByInsert(coo, spec, error);
  switch (elemBytes(spec.elem)) {
  case 1:
    return packTyped<uint8_t>(coo, spec, error);
  case 2:
    return packTyped<uint16_t>(coo, spec, error);
  case 4:
    return packTyped<uint32_t>(coo, spec, error);
  default:
    return packTyped<uint64_t>(coo, spec, error);
  }
}

Coo unpack(const Array &a, const uint64_t *dropValue) {
  Elem e = a.spec.elem;
  Coo coo(e, a.spec.rank());
  coo.dims = a.dims;
  uint64_t count = 0;
  forEachStored(a, [&](const uint64_t *, uint64_t p) {
    count += !dropValue || !sameValue(e, a.valueBits(p), *dropValue);
  });
  coo.reserve(count);
  std::vector<uint64_t> dimCoords(a.spec.rank());
  forEachStored(a, [&](const uint64_t *lc, uint64_t p) {
    uint64_t bits = a.valueBits(p);
    if (dropValue && sameValue(e, bits, *dropValue))
      return;
    std::fill(dimCoords.begin(), dimCoords.end(), 0);
    for (unsigned l = 0; l < a.spec.numLevels(); ++l)
      a.spec.addLevelCoord(l, lc[l], dimCoords[a.spec.order[l]]);
    coo.push(dimCoords.data(), bits);
  });
  return coo;
}

/// Sorts `coo` lexicographically in dimension order (identity spec).
static void sortDimOrder(Coo &coo) {
  auto sortAs = [&](auto *vals) {
    using V = std::remove_pointer_t<decltype(vals)>;
    Sorter<V> s;
    s.val = vals;
    s.col = coo.cols;
    for (uint64_t *&c : coo.cols)
      s.colSlot.push_back(&c);
    s.valSlot = &coo.vals;
    s.dim = coo.dims;
    s.sort(0, coo.nnz, 0);
  };
  switch (elemBytes(coo.elem)) {
  case 1:
    return sortAs(static_cast<uint8_t *>(coo.vals));
  case 2:
    return sortAs(static_cast<uint16_t *>(coo.vals));
  case 4:
    return sortAs(static_cast<uint32_t *>(coo.vals));
  default:
    return sortAs(static_cast<uint64_t *>(coo.vals));
  }
}

std::unique_ptr<Array> convert(const Array &a, const FormatSpec &spec) {
  if (spec.elem != a.spec.elem || spec.rank() != a.spec.rank())
    fatal("convert: element type or rank differs (%s, rank %u to %s, rank %u)",
          elemName(a.spec.elem), a.spec.rank(), elemName(spec.elem),
          spec.rank());
  for (unsigned d = 0; d < spec.rank(); ++d)
    if (spec.dims[d] >= 0 && static_cast<uint64_t>(spec.dims[d]) != a.dims[d])
      fatal("convert: dimension %u has size %llu but the result type "
            "requires %lld",
            d, static_cast<unsigned long long>(a.dims[d]),
            static_cast<long long>(spec.dims[d]));
  Elem e = spec.elem;
  if (sameValue(e, a.spec.fill, spec.fill)) {
    if (std::unique_ptr<Array> sorted = sortInnermostLevel(a, spec))
      return sorted;
    PackError error;
    std::unique_ptr<Array> result = pack(unpack(a, &spec.fill), spec, error);
    if (!result)
      fatal("convert: %s", error.duplicate.empty()
                               ? error.message.c_str()
                               : "the source array stores an entry twice");
    return result;
  }
  // A different fill: the old implicit entries now differ from the fill,
  // so the whole index space is enumerated (documented as densifying).
  uint64_t total = 1;
  for (uint64_t d : a.dims)
    if (__builtin_mul_overflow(total, d, &total))
      fatal("change_fill: the array has more than 2^64 entries");
  Coo stored = unpack(a, nullptr);
  sortDimOrder(stored);
  uint64_t explicitCount = 0;
  for (uint64_t i = 0; i < stored.nnz; ++i)
    explicitCount += !sameValue(e, stored.valueBits(i), spec.fill);
  Coo coo(e, spec.rank());
  coo.dims = a.dims;
  coo.reserve(explicitCount + (total - std::min(total, stored.nnz)));
  unsigned r = spec.rank();
  std::vector<uint64_t> x(r, 0);
  uint64_t next = 0;
  for (uint64_t i = 0; i < total; ++i) {
    bool isStored = next < stored.nnz;
    for (unsigned d = 0; isStored && d < r; ++d)
      isStored = stored.cols[d][next] == x[d];
    uint64_t bits = isStored ? stored.valueBits(next++) : a.spec.fill;
    if (!sameValue(e, bits, spec.fill))
      coo.push(x.data(), bits);
    for (int d = static_cast<int>(r) - 1; d >= 0; --d) {
      if (++x[d] < a.dims[d])
        break;
      x[d] = 0;
    }
  }
  stored.release();
  PackError error;
  std::unique_ptr<Array> result = pack(std::move(coo), spec, error);
  if (!result) {
    if (!error.duplicate.empty())
      fatal("convert: the source array stores an entry twice");
    fatal("convert: %s", error.message.c_str());
  }
  return result;
}

void printText(const Array &a, std::FILE *out) {
  Elem e = a.spec.elem;
  Writer w(out);
  w.put("# fill: ");
  w.putValue(e, a.spec.fill);
  w.put('\n');
  auto header = [&](uint64_t nnz) {
    w.putU64(a.spec.rank());
    w.put(' ');
    w.putU64(nnz);
    w.put('\n');
    for (unsigned d = 0; d < a.spec.rank(); ++d) {
      if (d)
        w.put(' ');
      w.putU64(a.dims[d]);
    }
    w.put('\n');
  };
  auto entry = [&](const uint64_t *coords, uint64_t bits) {
    for (unsigned d = 0; d < a.spec.rank(); ++d) {
      w.putU64(coords[d] + 1);
      w.put(' ');
    }
    w.putValue(e, bits);
    w.put('\n');
  };
  if (iteratesInDimOrder(a.spec)) {
    uint64_t nnz = 0;
    forEachStored(a, [&](const uint64_t *, uint64_t p) {
      nnz += !sameValue(e, a.valueBits(p), a.spec.fill);
    });
    header(nnz);
    forEachStored(a, [&](const uint64_t *lc, uint64_t p) {
      uint64_t bits = a.valueBits(p);
      if (!sameValue(e, bits, a.spec.fill))
        entry(lc, bits);
    });
    return;
  }
  Coo coo = unpack(a, &a.spec.fill);
  sortDimOrder(coo);
  header(coo.nnz);
  std::vector<uint64_t> x(a.spec.rank());
  for (uint64_t i = 0; i < coo.nnz; ++i) {
    for (unsigned d = 0; d < a.spec.rank(); ++d)
      x[d] = coo.cols[d][i];
    entry(x.data(), coo.valueBits(i));
  }
}

void printMatrixMarket(const Array &a, std::FILE *out, const char *path) {
  Elem e = a.spec.elem;
  if (a.spec.rank() != 2)
    fatal("%s: Matrix Market holds matrices; the array has rank %u", path,
          a.spec.rank());
  uint64_t zero = 0;
  if (!sameValue(e, a.spec.fill, zero)) {
    char buf[48];
    formatValue(e, a.spec.fill, buf);
    fatal("%s: Matrix Market files cannot represent fill value %s (write "
          "the text format, or change the fill to 0 first)",
          path, buf);
  }
  Coo coo = unpack(a, &a.spec.fill);
  sortDimOrder(coo);
  Writer w(out);
  w.put(isFloatElem(e) ? "%%MatrixMarket matrix coordinate real general\n"
                       : "%%MatrixMarket matrix coordinate integer general\n");
  w.putU64(a.dims[0]);
  w.put(' ');
  w.putU64(a.dims[1]);
  w.put(' ');
  w.putU64(coo.nnz);
  w.put('\n');
  for (uint64_t i = 0; i < coo.nnz; ++i) {
    w.putU64(coo.cols[0][i] + 1);
    w.put(' ');
    w.putU64(coo.cols[1][i] + 1);
    w.put(' ');
    w.putValue(e, coo.valueBits(i));
    w.put('\n');
  }
}

} // namespace sa_rt
