//===- Format.cpp - Level kinds and array format specs --------------------===//

#include "Format.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <mutex>
#include <sstream>

namespace sa_rt {

LevelKind::~LevelKind() = default;

uint64_t mostChildren(const LevelBuffers &b, const uint64_t *const *cols,
                      unsigned level, uint64_t n) {
  if (b.mostChildren != LevelBuffers::kUncounted)
    return b.mostChildren;
  uint64_t most = 0, run = 0;
  for (uint64_t e = 0; e < n; ++e) {
    bool same = e > 0;
    for (unsigned l = 0; same && l < level; ++l)
      same = cols[l][e] == cols[l][e - 1];
    run = same ? run + 1 : 1;
    most = std::max(most, run);
  }
  return most;
}

namespace {

// Dense: every coordinate of the dimension has a position, computed as
// parent * size + coordinate; no buffers (seed 002 §3.1, Table 1).
class DenseKind final : public LevelKind {
public:
  DenseKind() : LevelKind(sparse_array_levels::kDenseTraits) {}
  bool numPositions(const LevelBuffers &, uint64_t parents, uint64_t dim,
                    uint64_t, uint64_t &out) const override {
    return !__builtin_mul_overflow(parents, dim, &out);
  }
  uint64_t append(LevelBuffers &, uint64_t parent, uint64_t coord,
                  uint64_t dim) const override {
    return parent * dim + coord;
  }
  ChildRange children(const LevelBuffers &, uint64_t parent,
                      uint64_t dim) const override {
    ChildRange r;
    r.lo = parent * dim;
    r.hi = r.lo + dim;
    r.coordBase = r.lo;
    return r;
  }
};

// Compressed: positions[p]..positions[p+1] delimit parent p's children, whose
// coordinates are stored (seed 002 §3.1). Appending counts children into
// positions[p+1]; finish turns the counts into offsets.
class CompressedKind final : public LevelKind {
public:
  CompressedKind() : LevelKind(sparse_array_levels::kCompressedTraits) {}
  bool numPositions(const LevelBuffers &, uint64_t, uint64_t, uint64_t groups,
                    uint64_t &out) const override {
    out = groups;
    return true;
  }
  uint64_t append(LevelBuffers &b, uint64_t parent, uint64_t coord,
                  uint64_t) const override {
    uint64_t p = b.next++;
    b.setCrd(p, coord);
    b.setPos(parent + 1, b.getPos(parent + 1) + 1);
    return p;
  }
  void finish(LevelBuffers &b, uint64_t parents) const override {
    uint64_t sum = 0;
    for (uint64_t p = 0; p <= parents; ++p) {
      sum += b.getPos(p);
      b.setPos(p, sum);
    }
  }
  ChildRange children(const LevelBuffers &b, uint64_t parent,
                      uint64_t) const override {
    ChildRange r;
    r.lo = b.getPos(parent);
    r.hi = b.getPos(parent + 1);
    r.coords = ChildRange::Coords::FromBuffer;
    return r;
  }
};

// Singleton: exactly one child per parent position, at the same position,
// with a stored coordinate (seed 002 §3.1; COO's inner levels).
class SingletonKind final : public LevelKind {
public:
  SingletonKind() : LevelKind(sparse_array_levels::kSingletonTraits) {}
  bool numPositions(const LevelBuffers &, uint64_t parents, uint64_t,
                    uint64_t, uint64_t &out) const override {
    out = parents;
    return true;
  }
  uint64_t append(LevelBuffers &b, uint64_t parent, uint64_t coord,
                  uint64_t) const override {
    b.setCrd(parent, coord);
    return parent;
  }
  ChildRange children(const LevelBuffers &, uint64_t parent,
                      uint64_t) const override {
    ChildRange r;
    r.lo = parent;
    r.hi = parent + 1;
    r.coords = ChildRange::Coords::FromBuffer;
    return r;
  }
};

struct Registry {
  std::mutex mutex;
  std::vector<const LevelKind *> kinds;
  Registry() {
    static DenseKind dense;
    static CompressedKind compressed;
    static SingletonKind singleton;
    kinds = {&dense, &compressed, &singleton};
    // Level formats in their own files (runtime/lib/levels).
    kinds.push_back(diagonalLevelKind());
    kinds.push_back(ellpackLevelKind());
    kinds.push_back(looseCompressedLevelKind());
    kinds.push_back(hashedLevelKind());
    kinds.push_back(structuredLevelKind());
  }
};
Registry &registry() {
  static Registry r;
  return r;
}

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t end = s.find(sep, start);
    parts.push_back(s.substr(start, end - start));
    if (end == std::string::npos)
      return parts;
    start = end + 1;
  }
}

// Splits "a,b(c,d),e" at top-level commas.
std::vector<std::string> splitLevels(const std::string &s) {
  std::vector<std::string> parts;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '(' || c == '[')
      ++depth;
    if (c == ')' || c == ']')
      --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  parts.push_back(cur);
  return parts;
}
} // namespace

const LevelKind *lookupLevelKind(const std::string &name) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const LevelKind *k : r.kinds)
    if (name == k->name())
      return k;
  return nullptr;
}

void registerLevelKind(const LevelKind *kind) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.kinds.push_back(kind);
}

std::vector<const LevelKind *> getLevelKinds() {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.kinds;
}

bool FormatSpec::allDense() const {
  for (const LevelSpec &l : levels)
    if (l.kind->numBuffers() != 0)
      return false;
  return true;
}

unsigned FormatSpec::levelOfDim(unsigned d) const {
  for (unsigned l = 0; l < order.size(); ++l)
    if (order[l] == d)
      return l;
  return d;
}

FormatSpec::Part FormatSpec::levelPart(unsigned l) const {
  unsigned d = order[l];
  if (block(d) == 1)
    return Part::Whole;
  return levelOfDim(d) == l ? Part::Block : Part::InBlock;
}

uint64_t FormatSpec::levelExtent(unsigned l, uint64_t dimSize) const {
  switch (levelPart(l)) {
  case Part::Whole:
    return dimSize;
  case Part::Block:
    return dimSize / block(order[l]);
  case Part::InBlock:
    return block(order[l]);
  }
  return dimSize;
}

uint64_t FormatSpec::levelCoord(unsigned l, uint64_t dimCoord) const {
  switch (levelPart(l)) {
  case Part::Whole:
    return dimCoord;
  case Part::Block:
    return dimCoord / block(order[l]);
  case Part::InBlock:
    return dimCoord % block(order[l]);
  }
  return dimCoord;
}

void FormatSpec::addLevelCoord(unsigned l, uint64_t c,
                               uint64_t &dimCoord) const {
  dimCoord += levelPart(l) == Part::Block ? c * block(order[l]) : c;
}

unsigned FormatSpec::numBuffers() const {
  unsigned n = 1;
  for (const LevelSpec &l : levels)
    n += l.kind->numBuffers();
  return n;
}

int FormatSpec::levelBufferIndex(unsigned level, const char *role) const {
  int slot = role ? levels[level].kind->getTraits().bufferSlot(role) : 0;
  if (slot < 0)
    return -1;
  int k = 0;
  for (unsigned l = 0; l < level; ++l)
    k += static_cast<int>(levels[l].kind->numBuffers());
  return k + slot;
}

int FormatSpec::posBufferIndex(unsigned level) const {
  return levelBufferIndex(level, sparse_array_levels::kPositionsRole);
}

int FormatSpec::crdBufferIndex(unsigned level) const {
  return levelBufferIndex(level, sparse_array_levels::kCoordinatesRole);
}

unsigned FormatSpec::bufferElemBytes(unsigned k) const {
  if (k == valuesBufferIndex())
    return elemBytes(elem);
  for (const LevelSpec &l : levels) {
    const sparse_array_levels::LevelTraits &t = l.kind->getTraits();
    if (k < t.numBuffers)
      return (t.buffers[k].width == sparse_array_levels::BufferWidth::Positions
                  ? posWidth
                  : crdWidth) /
             8;
    k -= t.numBuffers;
  }
  return 0;
}

/// The dimensions and the order against the levels: without blocks, one
/// level per dimension in some order; with blocks, a blocked dimension at
/// two levels (block, then place in the block), the others at one.
static bool checkOrder(FormatSpec &out, bool haveDims, std::string &error) {
  unsigned n = out.numLevels();
  unsigned rank = n;
  if (out.blocked()) {
    unsigned blocked = 0;
    for (uint64_t b : out.blocks)
      blocked += b > 1;
    rank = static_cast<unsigned>(out.blocks.size());
    if (blocked == 0 || rank + blocked != n) {
      error = "blocks must block some dimension and the levels must be one "
              "per dimension plus one per blocked dimension";
      return false;
    }
  }
  if (!haveDims)
    out.dims.assign(rank, -1);
  if (out.dims.size() != rank) {
    error = "the spec has " + std::to_string(out.dims.size()) +
            " dimensions but " + std::to_string(n) + " levels";
    return false;
  }
  if (out.order.empty() && !out.blocked())
    for (unsigned l = 0; l < n; ++l)
      out.order.push_back(l);
  if (out.order.size() != n) {
    error = "order must list every dimension once (blocked ones twice)";
    return false;
  }
  std::vector<unsigned> seen(rank, 0);
  for (unsigned d : out.order) {
    if (d >= rank || ++seen[d] > (out.block(d) > 1 ? 2u : 1u)) {
      error = out.blocked() ? "order must name every dimension once and "
                              "every blocked dimension twice"
                            : "order must be a permutation of the dimensions";
      return false;
    }
  }
  for (unsigned d = 0; d < rank; ++d)
    if (out.dims[d] >= 0 && static_cast<uint64_t>(out.dims[d]) % out.block(d)) {
      error = "dimension " + std::to_string(d) + " of size " +
              std::to_string(out.dims[d]) + " is not a multiple of its block " +
              std::to_string(out.block(d));
      return false;
    }
  return true;
}

bool FormatSpec::parse(const std::string &text, FormatSpec &out,
                       std::string &error) {
  out = FormatSpec();
  bool haveElem = false, haveLevels = false, haveDims = false;
  std::string fillText;
  for (const std::string &item : split(text, ';')) {
    if (item.empty())
      continue;
    size_t eq = item.find('=');
    if (eq == std::string::npos) {
      error = "expected key=value, found '" + item + "'";
      return false;
    }
    std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    if (key == "elem") {
      if (!parseElemName(value, out.elem)) {
        error = "unknown element type '" + value + "'";
        return false;
      }
      haveElem = true;
    } else if (key == "dims") {
      haveDims = true;
      if (value.empty())
        continue; // rank 0
      for (const std::string &d : split(value, ',')) {
        uint64_t v;
        if (d == "?")
          out.dims.push_back(-1);
        else if (parseDecimal(d, v) && v <= INT64_MAX)
          out.dims.push_back(static_cast<int64_t>(v));
        else {
          error = "bad dimension size '" + d + "'";
          return false;
        }
      }
    } else if (key == "levels") {
      haveLevels = true;
      if (value.empty())
        continue;
      for (const std::string &lv : splitLevels(value)) {
        std::string name = lv, props, params;
        size_t paren = lv.find('(');
        if (paren != std::string::npos) {
          if (lv.back() != ')') {
            error = "bad level '" + lv + "'";
            return false;
          }
          name = lv.substr(0, paren);
          props = lv.substr(paren + 1, lv.size() - paren - 2);
        }
        // Parameters: name[p0,p1].
        size_t bracket = name.find('[');
        if (bracket != std::string::npos) {
          if (name.back() != ']') {
            error = "bad level '" + lv + "'";
            return false;
          }
          params = name.substr(bracket + 1, name.size() - bracket - 2);
          name = name.substr(0, bracket);
        }
        LevelSpec spec;
        spec.kind = lookupLevelKind(name);
        if (!spec.kind) {
          error = "unknown level format '" + name + "'";
          return false;
        }
        unsigned numParams = spec.kind->getTraits().numParams;
        std::vector<std::string> given =
            params.empty() ? std::vector<std::string>() : split(params, ',');
        if (given.size() != numParams) {
          error = "level format '" + name + "' takes " +
                  std::to_string(numParams) + " parameters, got " +
                  std::to_string(given.size());
          return false;
        }
        for (unsigned k = 0; k < numParams; ++k)
          if (!parseDecimal(given[k], spec.params[k])) {
            error = "bad parameter '" + given[k] + "' of level '" + lv + "'";
            return false;
          }
        // A level in hash order is never ordered (`hashed` says so).
        spec.ordered = !spec.kind->getTraits().hashOrder;
        if (!props.empty())
          for (const std::string &p : split(props, ',')) {
            if (p == "nonunique" && spec.kind->allowsNonUnique())
              spec.unique = false;
            else if (p == "nonordered" && spec.kind->allowsNonOrdered())
              spec.ordered = false;
            else {
              error = "level format '" + name + "' does not allow '" + p + "'";
              return false;
            }
          }
        out.levels.push_back(spec);
      }
    } else if (key == "order") {
      // Rank 0: no levels, an empty order.
      for (const std::string &d :
           value.empty() ? std::vector<std::string>() : split(value, ',')) {
        uint64_t v;
        if (!parseDecimal(d, v) || v > 1000) {
          error = "bad order entry '" + d + "'";
          return false;
        }
        out.order.push_back(static_cast<unsigned>(v));
      }
    } else if (key == "blocks") {
      for (const std::string &b : split(value, ',')) {
        uint64_t v;
        if (!parseDecimal(b, v) || v == 0) {
          error = "bad block size '" + b + "'";
          return false;
        }
        out.blocks.push_back(v);
      }
    } else if (key == "pos" || key == "crd") {
      unsigned w = value == "32" ? 32 : value == "64" ? 64 : 0;
      if (!w) {
        error = key + " width must be 32 or 64, not '" + value + "'";
        return false;
      }
      (key == "pos" ? out.posWidth : out.crdWidth) = w;
    } else if (key == "fill") {
      fillText = value;
    } else {
      error = "unknown key '" + key + "'";
      return false;
    }
  }
  if (!haveElem || !haveLevels) {
    error = "a format spec needs elem= and levels=";
    return false;
  }
  unsigned n = out.numLevels();
  if (!checkOrder(out, haveDims, error))
    return false;
  // Levels below a non-unique level must be able to hold its duplicates
  // (the compiler verifies this too; the runtime may be called from C).
  for (unsigned l = 1; l < n; ++l)
    if (!out.levels[l - 1].unique &&
        !out.levels[l].kind->getTraits().acceptsNonUniqueParent) {
      error = "level " + std::to_string(l) +
              " cannot follow a non-unique level";
      return false;
    }
  for (unsigned l = 0; l < n; ++l) {
    const LevelSpec *parent = l ? &out.levels[l - 1] : nullptr;
    const char *why = out.levels[l].kind->checkParent(parent);
    if (!why && out.levels[l].kind->getTraits().needsFullParent &&
        (!parent || !parent->kind->getTraits().full))
      why = "must follow a full (dense) level";
    // A parent in hash order fills its positions out of order: only a
    // level computing its positions from them fits below.
    if (!why && parent && parent->kind->getTraits().hashOrder &&
        !out.levels[l].kind->getTraits().full)
      why = "cannot follow a level in hash order; only a full level can";
    if (why) {
      error = "level " + std::to_string(l) + " (" + out.levels[l].kind->name() +
              ") " + why;
      return false;
    }
    // Parameters, against the extent where the type gives it.
    int64_t dim = out.dims[out.order[l]];
    uint64_t extent = out.levelPart(l) == Part::InBlock
                          ? out.block(out.order[l])
                          : out.levelExtent(l, static_cast<uint64_t>(dim));
    bool known = dim >= 0 || out.levelPart(l) == Part::InBlock;
    std::string bad =
        out.levels[l].kind->checkLevel(out.levels[l], known ? &extent : nullptr);
    if (!bad.empty()) {
      error = "level " + std::to_string(l) + " (" + out.levels[l].kind->name() +
              ") " + bad;
      return false;
    }
  }
  if (n > 0 && !out.levels[n - 1].unique) {
    error = "the innermost level must be unique";
    return false;
  }
  if (n > 0 && out.levels[0].kind->getTraits().acceptsNonUniqueParent) {
    error = "the outermost level needs positions (a singleton level has none)";
    return false;
  }
  if (!fillText.empty()) {
    if (fillText.rfind("bits:0x", 0) == 0) {
      char *end = nullptr;
      out.fill = std::strtoull(fillText.c_str() + 7, &end, 16);
      if (*end != '\0' || fillText.size() == 7) {
        error = "bad fill bits '" + fillText + "'";
        return false;
      }
    } else {
      ParseStatus s = parseValue(out.elem, fillText, out.fill);
      if (s != ParseStatus::Ok) {
        error = std::string("fill value '") + fillText + "' for " +
                elemName(out.elem) + ": " + parseStatusText(s);
        return false;
      }
    }
  }
  return true;
}

std::string FormatSpec::str() const {
  std::ostringstream os;
  os << "elem=" << elemName(elem) << ";dims=";
  for (unsigned d = 0; d < rank(); ++d) {
    if (d)
      os << ',';
    if (dims[d] < 0)
      os << '?';
    else
      os << dims[d];
  }
  os << ";levels=";
  for (unsigned l = 0; l < numLevels(); ++l) {
    if (l)
      os << ',';
    os << levels[l].kind->name();
    if (unsigned numParams = levels[l].kind->getTraits().numParams) {
      os << '[';
      for (unsigned k = 0; k < numParams; ++k)
        os << (k ? "," : "") << levels[l].params[k];
      os << ']';
    }
    if (!levels[l].unique || !levels[l].ordered) {
      os << '(';
      if (!levels[l].unique)
        os << "nonunique";
      if (!levels[l].unique && !levels[l].ordered)
        os << ',';
      if (!levels[l].ordered)
        os << "nonordered";
      os << ')';
    }
  }
  os << ";order=";
  for (unsigned l = 0; l < order.size(); ++l)
    os << (l ? "," : "") << order[l];
  if (blocked()) {
    os << ";blocks=";
    for (unsigned d = 0; d < blocks.size(); ++d)
      os << (d ? "," : "") << blocks[d];
  }
  char fillHex[32];
  std::snprintf(fillHex, sizeof(fillHex), "%" PRIx64, fill);
  os << ";pos=" << posWidth << ";crd=" << crdWidth << ";fill=bits:0x"
     << fillHex;
  return os.str();
}

} // namespace sa_rt
