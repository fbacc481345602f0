//===- SequenceExpr.cpp - Sequence expressions over levels ----------------===//
//
// seed 001 §5.1 (combinator semantics), §6.2.1 Fig. 13 (edge sequences),
// §6.2.2 and App. A Fig. 27 (simplification with ∅ and F).
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Algebra/SequenceExpr.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cassert>

using namespace mlir::sparse_array;
using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::SmallVectorImpl;

using Kind = SequenceExpr::Kind;

SequenceExpr SequenceExpr::make(Node node) {
  return SequenceExpr(std::make_shared<const Node>(std::move(node)));
}

SequenceExpr SequenceExpr::empty() { return make(Node(Kind::Empty)); }
SequenceExpr SequenceExpr::full() { return make(Node(Kind::Full)); }
SequenceExpr SequenceExpr::empty(const SequenceExpr &shape) {
  Node n(Kind::Empty);
  n.shape = std::make_shared<const SequenceExpr>(shape);
  return make(std::move(n));
}
SequenceExpr SequenceExpr::full(const SequenceExpr &shape) {
  Node n(Kind::Full);
  n.shape = std::make_shared<const SequenceExpr>(shape);
  return make(std::move(n));
}
SequenceExpr SequenceExpr::universe(int64_t size) {
  Node n(Kind::Universe);
  n.size = size;
  return make(std::move(n));
}
SequenceExpr SequenceExpr::leaf(unsigned operand, bool dense, int64_t size) {
  Node n(Kind::Leaf);
  n.operand = operand;
  n.dense = dense;
  n.size = size;
  return make(std::move(n));
}
SequenceExpr SequenceExpr::leafLevel(unsigned operand, unsigned level,
                                     bool dense, int64_t size) {
  Node n(Kind::Leaf);
  n.operand = operand;
  n.level = level;
  n.dense = dense;
  n.size = size;
  return make(std::move(n));
}

SequenceExpr SequenceExpr::complement(SequenceExpr operand) {
  Node n(Kind::Complement);
  n.children = {std::move(operand)};
  return make(std::move(n));
}
// A union or intersection of one operand is that operand: the printed
// form has no one-operand `union(x)` (the parser rejects it), so a plan
// that kept one would not read back (a linear loop over one input).
SequenceExpr SequenceExpr::unite(ArrayRef<SequenceExpr> operands) {
  if (operands.size() == 1)
    return operands.front();
  Node n(Kind::Union);
  n.children = operands.vec();
  return make(std::move(n));
}
SequenceExpr SequenceExpr::intersect(ArrayRef<SequenceExpr> operands) {
  if (operands.size() == 1)
    return operands.front();
  Node n(Kind::Intersection);
  n.children = operands.vec();
  return make(std::move(n));
}
SequenceExpr SequenceExpr::product(SequenceExpr outer, SequenceExpr inner) {
  Node n(Kind::Product);
  n.children = {std::move(outer), std::move(inner)};
  return make(std::move(n));
}
SequenceExpr SequenceExpr::concat(SequenceExpr first, SequenceExpr second) {
  Node n(Kind::Concat);
  // The first part's size, kept while the part itself simplifies.
  n.shape = std::make_shared<const SequenceExpr>(first);
  n.children = {std::move(first), std::move(second)};
  return make(std::move(n));
}
SequenceExpr SequenceExpr::offset(SequenceExpr shift, SequenceExpr operand) {
  Node n(Kind::Offset);
  n.children = {std::move(operand)};
  n.shape = std::make_shared<const SequenceExpr>(std::move(shift));
  return make(std::move(n));
}
SequenceExpr SequenceExpr::project(SequenceExpr operand, unsigned index,
                                   int64_t inner) {
  assert(index <= 1 && "projection index is 0 or 1");
  Node n(Kind::Project);
  n.children = {std::move(operand)};
  n.params[0] = index;
  n.params[1] = inner;
  return make(std::move(n));
}
SequenceExpr SequenceExpr::slice(SequenceExpr operand, int64_t start,
                                 int64_t stop, int64_t step) {
  assert(step != 0 && "slice step must not be zero");
  Node n(Kind::Slice);
  n.children = {std::move(operand)};
  n.params[0] = start;
  n.params[1] = stop;
  n.params[2] = step;
  return make(std::move(n));
}

static SequenceExpr convert(const IterationAlgebra &a) {
  using AK = IterationAlgebra::Kind;
  SmallVector<SequenceExpr> children;
  for (const IterationAlgebra &child : a.getChildren())
    children.push_back(convert(child));
  switch (a.getKind()) {
  case AK::Empty:
    return SequenceExpr::empty();
  case AK::Universe:
    return SequenceExpr::universe();
  case AK::Leaf:
    return SequenceExpr::leaf(a.getLeaf());
  case AK::Complement:
    return SequenceExpr::complement(children[0]);
  case AK::Union:
    return SequenceExpr::unite(children);
  case AK::Intersection:
    return SequenceExpr::intersect(children);
  }
  return SequenceExpr::empty();
}

SequenceExpr SequenceExpr::fromAlgebra(const IterationAlgebra &algebra,
                                       ArrayRef<unsigned> coiterated) {
  IterationAlgebra normal = algebra.normalize();
  SmallVector<unsigned> mentioned = normal.getLeaves();
  SmallVector<SequenceExpr> terms{convert(normal)};
  for (unsigned k : coiterated)
    if (!llvm::is_contained(mentioned, k))
      terms.push_back(intersect({leaf(k), complement(leaf(k))}));
  return terms.size() == 1 ? terms.front() : unite(terms);
}

unsigned SequenceExpr::getOperand() const {
  assert(is(Kind::Leaf) && "not a leaf");
  return node->operand;
}

static int64_t mulSize(int64_t a, int64_t b) {
  if (a == SequenceExpr::kDynamic || b == SequenceExpr::kDynamic)
    return SequenceExpr::kDynamic;
  return a * b;
}
static int64_t addSize(int64_t a, int64_t b) {
  if (a == SequenceExpr::kDynamic || b == SequenceExpr::kDynamic)
    return SequenceExpr::kDynamic;
  return a + b;
}

int64_t SequenceExpr::size() const {
  switch (getKind()) {
  case Kind::Empty:
  case Kind::Full:
    return node->shape ? node->shape->size() : kDynamic;
  case Kind::Universe:
  case Kind::Leaf:
    return node->size;
  case Kind::Complement:
  case Kind::Union:
  case Kind::Intersection:
    for (const SequenceExpr &child : getChildren())
      if (child.size() != kDynamic)
        return child.size();
    return kDynamic;
  case Kind::Product:
    return mulSize(getChildren()[0].size(), getChildren()[1].size());
  case Kind::Concat:
    return addSize(node->shape->size(), getChildren()[1].size());
  case Kind::Offset:
    return addSize(node->shape->size(), getChildren()[0].size());
  case Kind::Project: {
    int64_t inner = getProjectInner(), whole = getChildren()[0].size();
    if (getProjectIndex() == 1 || inner == kDynamic)
      return getProjectIndex() == 1 ? inner : kDynamic;
    return whole == kDynamic ? kDynamic : whole / inner;
  }
  case Kind::Slice: {
    int64_t start = getSliceStart(), stop = getSliceStop(),
            step = getSliceStep(), whole = getChildren()[0].size();
    if (start == kDynamic || stop == kDynamic || step == kDynamic)
      return kDynamic;
    // Coordinates past the operand are not read.
    if (whole != kDynamic) {
      if (step > 0)
        stop = std::min(stop, whole);
      else
        start = std::min(start, whole - 1);
    }
    // Counting down, nothing lies below coordinate 0.
    if (step < 0)
      stop = std::max<int64_t>(stop, -1);
    return sliceLength(start, stop, step);
  }
  }
  return kDynamic;
}

bool SequenceExpr::isDense() const {
  ArrayRef<SequenceExpr> c = getChildren();
  switch (getKind()) {
  case Kind::Empty:
  case Kind::Full:
  case Kind::Complement:
  case Kind::Offset:
    return false;
  case Kind::Universe:
    return true;
  case Kind::Leaf:
    return node->dense;
  case Kind::Union:
    return llvm::any_of(c, [](const SequenceExpr &x) { return x.isDense(); });
  case Kind::Intersection:
  case Kind::Product:
  case Kind::Concat:
    return llvm::all_of(c, [](const SequenceExpr &x) { return x.isDense(); });
  case Kind::Project:
  case Kind::Slice:
    return c[0].isDense();
  }
  return false;
}

bool SequenceExpr::needsUniverse() const {
  if (is(Kind::Universe) || is(Kind::Complement))
    return true;
  return llvm::any_of(getChildren(),
                      [](const SequenceExpr &c) { return c.needsUniverse(); });
}

static void addEdges(const SequenceExpr &s,
                     SmallVectorImpl<SequenceExpr> &out) {
  auto add = [&](const SequenceExpr &e) {
    if (!llvm::is_contained(out, e))
      out.push_back(e);
  };
  ArrayRef<SequenceExpr> c = s.getChildren();
  switch (s.getKind()) {
  case Kind::Empty:
  case Kind::Full:
    return;
  case Kind::Universe:
  case Kind::Leaf:
    add(s);
    return;
  case Kind::Complement:
  case Kind::Union:
  case Kind::Intersection:
    for (const SequenceExpr &child : c)
      addEdges(child, out);
    return;
  // The inner side of a product restarts for every outer coordinate and
  // the second part of a concatenation waits for the first: neither
  // running out changes the loop's state.
  case Kind::Product:
  case Kind::Concat:
  case Kind::Offset:
    addEdges(c[0], out);
    return;
  // A slice or projection can run out before its operand does.
  case Kind::Project:
  case Kind::Slice:
    add(s);
    addEdges(c[0], out);
    return;
  }
}

SmallVector<SequenceExpr, 4> SequenceExpr::edges() const {
  SmallVector<SequenceExpr, 4> out;
  addEdges(*this, out);
  return out;
}

SequenceExpr SequenceExpr::remove(const SequenceExpr &edge,
                                  bool *disjoint) const {
  return remove(edge, disjoint,
                [](const SequenceExpr &, const SequenceExpr *)
                    -> std::optional<SequenceExpr> { return std::nullopt; });
}

SequenceExpr SequenceExpr::remove(const SequenceExpr &edge, bool *disjoint,
                                  RemoveHook hook) const {
  bool moved = false;
  SequenceExpr result = removeImpl(edge, moved, hook, nullptr);
  if (disjoint)
    *disjoint = moved;
  return result;
}

SequenceExpr SequenceExpr::removeImpl(const SequenceExpr &edge, bool &disjoint,
                                      RemoveHook hook,
                                      const SequenceExpr *parent) const {
  if (std::optional<SequenceExpr> given = hook(*this, parent))
    return *given;
  if (*this == edge)
    return isDense() ? full(*this) : empty(*this);
  ArrayRef<SequenceExpr> c = getChildren();
  SmallVector<SequenceExpr> r;
  for (const SequenceExpr &child : c)
    r.push_back(child.removeImpl(edge, disjoint, hook, this));
  auto any = [&](Kind k) {
    return llvm::any_of(r, [&](const SequenceExpr &x) { return x.is(k); });
  };
  switch (getKind()) {
  case Kind::Empty:
  case Kind::Full:
  case Kind::Universe:
  case Kind::Leaf:
    return *this;
  case Kind::Complement:
    if (r[0].is(Kind::Full))
      return full(*this);
    if (r[0].is(Kind::Empty))
      return universe(size());
    return complement(r[0]);
  case Kind::Union: {
    // A dense operand runs out only at the end of the dimension.
    if (any(Kind::Full))
      return full(*this);
    SmallVector<SequenceExpr> live;
    for (const SequenceExpr &x : r)
      if (!x.is(Kind::Empty))
        live.push_back(x);
    if (live.empty())
      return empty(*this);
    return live.size() == 1 ? live.front() : unite(live);
  }
  case Kind::Intersection:
    if (any(Kind::Full))
      return full(*this);
    if (any(Kind::Empty))
      return empty(*this);
    return intersect(r);
  case Kind::Product:
    // Fig. 27: the outer side done is the whole product done (F) only when
    // every inner sequence was complete.
    if (r[0].is(Kind::Full) && c[1].isDense())
      return full(*this);
    if (r[0].isExhausted() || r[1].isExhausted())
      return empty(*this);
    return product(r[0], r[1]);
  case Kind::Concat:
    if (r[0].isExhausted()) {
      // Seed 001 §6.2.2: a ⊔ b once a ran out is |a| + b, a disjoint set.
      disjoint = true;
      if (r[1].is(Kind::Full))
        return full(*this);
      if (r[1].is(Kind::Empty))
        return empty(*this);
      return offset(*node->shape, r[1]);
    }
    // Right padding (X + |b|): the second part keeps only its size.
    {
      Node n = *node;
      n.children = {r[0], r[1]};
      return make(std::move(n));
    }
  case Kind::Offset:
    if (r[0].is(Kind::Full))
      return full(*this);
    if (r[0].is(Kind::Empty))
      return empty(*this);
    return offset(*node->shape, r[0]);
  case Kind::Project:
  case Kind::Slice: {
    if (r[0].is(Kind::Full))
      return full(*this);
    if (r[0].is(Kind::Empty))
      return empty(*this);
    Node n = *node;
    n.children = {r[0]};
    return make(std::move(n));
  }
  }
  return *this;
}

bool SequenceExpr::contains(
    llvm::function_ref<bool(const SequenceExpr &)> present) const {
  ArrayRef<SequenceExpr> c = getChildren();
  switch (getKind()) {
  case Kind::Empty:
  case Kind::Full:
    return false;
  case Kind::Universe:
    return true;
  case Kind::Leaf:
    return present(*this);
  case Kind::Complement:
    return !c[0].contains(present);
  case Kind::Union:
    return llvm::any_of(
        c, [&](const SequenceExpr &x) { return x.contains(present); });
  case Kind::Intersection:
  case Kind::Product:
    return llvm::all_of(
        c, [&](const SequenceExpr &x) { return x.contains(present); });
  // A loop over a ⊔ b is in a's part; over |a| + b in b's.
  case Kind::Concat:
  case Kind::Offset:
  case Kind::Project:
  case Kind::Slice:
    return c[0].contains(present);
  }
  return false;
}

static void collectOperands(const SequenceExpr &s, SmallVector<unsigned> &out) {
  if (s.is(Kind::Leaf))
    out.push_back(s.getOperand());
  for (const SequenceExpr &child : s.getChildren())
    collectOperands(child, out);
}

SequenceExpr SequenceExpr::mapLeaves(
    llvm::function_ref<SequenceExpr(const SequenceExpr &)> f) const {
  auto map = [&](const SequenceExpr &e) { return e.mapLeaves(f); };
  SmallVector<SequenceExpr> children;
  for (const SequenceExpr &c : getChildren())
    children.push_back(map(c));
  switch (getKind()) {
  case Kind::Leaf:
    return f(*this);
  case Kind::Empty:
    return getShape() ? empty(map(*getShape())) : *this;
  case Kind::Full:
    return getShape() ? full(map(*getShape())) : *this;
  case Kind::Universe:
    return *this;
  case Kind::Complement:
    return complement(children[0]);
  case Kind::Union:
    return unite(children);
  case Kind::Intersection:
    return intersect(children);
  case Kind::Product:
    return product(children[0], children[1]);
  case Kind::Concat:
    return concat(children[0], children[1]);
  case Kind::Offset:
    return offset(map(*getShape()), children[0]);
  case Kind::Project:
    return project(children[0], getProjectIndex(), getProjectInner());
  case Kind::Slice:
    return slice(children[0], getSliceStart(), getSliceStop(), getSliceStep());
  }
  llvm_unreachable("unknown sequence kind");
}

SmallVector<unsigned> SequenceExpr::getOperands() const {
  SmallVector<unsigned> out;
  collectOperands(*this, out);
  llvm::sort(out);
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool SequenceExpr::operator==(const SequenceExpr &other) const {
  if (node == other.node)
    return true;
  const Node &a = *node, &b = *other.node;
  if (a.kind != b.kind || a.operand != b.operand || a.level != b.level ||
      a.dense != b.dense || a.size != b.size || a.params[0] != b.params[0] ||
      a.params[1] != b.params[1] || a.params[2] != b.params[2] ||
      !llvm::equal(a.children, b.children) || bool(a.shape) != bool(b.shape))
    return false;
  return !a.shape || *a.shape == *b.shape;
}

static void printInt(llvm::raw_ostream &os, int64_t v) {
  if (v == SequenceExpr::kDynamic)
    os << '?';
  else
    os << v;
}

void SequenceExpr::print(llvm::raw_ostream &os) const {
  ArrayRef<SequenceExpr> c = getChildren();
  auto list = [&](const char *name) {
    os << name << '(';
    llvm::interleaveComma(c, os, [&](const SequenceExpr &x) { x.print(os); });
    os << ')';
  };
  switch (getKind()) {
  case Kind::Empty:
    os << "empty";
    return;
  case Kind::Full:
    os << "full";
    return;
  case Kind::Universe:
    os << "universe";
    return;
  case Kind::Leaf:
    os << (node->dense ? 'd' : 's') << node->operand;
    if (node->level)
      os << '.' << node->level;
    return;
  case Kind::Complement:
    return list("not");
  case Kind::Union:
    return list("union");
  case Kind::Intersection:
    return list("intersect");
  case Kind::Product:
    return list("product");
  case Kind::Concat:
    return list("concat");
  case Kind::Offset:
    os << "offset(|" << *node->shape << "|, " << c[0] << ')';
    return;
  case Kind::Project:
    os << "project" << getProjectIndex() << '(' << c[0] << ", ";
    printInt(os, getProjectInner());
    os << ')';
    return;
  case Kind::Slice:
    os << "slice(" << c[0] << ", ";
    printInt(os, getSliceStart());
    os << ", ";
    printInt(os, getSliceStop());
    os << ", ";
    printInt(os, getSliceStep());
    os << ')';
    return;
  }
}

std::string SequenceExpr::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  print(os);
  return s;
}

namespace {
/// Recursive descent over print's syntax.
class Parser {
public:
  explicit Parser(llvm::StringRef text) : rest(text) {}

  std::optional<SequenceExpr> parseAll() {
    std::optional<SequenceExpr> e = parseExpr();
    skipSpace();
    if (!e || !rest.empty())
      return std::nullopt;
    return e;
  }

private:
  void skipSpace() { rest = rest.ltrim(); }
  bool consume(llvm::StringRef token) {
    skipSpace();
    return rest.consume_front(token);
  }
  std::optional<int64_t> parseInt() {
    skipSpace();
    if (rest.consume_front("?"))
      return SequenceExpr::kDynamic;
    bool negative = rest.consume_front("-");
    size_t n = 0;
    while (n < rest.size() && llvm::isDigit(rest[n]))
      ++n;
    int64_t v;
    if (n == 0 || rest.take_front(n).getAsInteger(10, v))
      return std::nullopt;
    rest = rest.drop_front(n);
    return negative ? -v : v;
  }
  /// `name(` children `)`.
  std::optional<SmallVector<SequenceExpr>> parseList() {
    SmallVector<SequenceExpr> out;
    if (!consume("("))
      return std::nullopt;
    do {
      std::optional<SequenceExpr> e = parseExpr();
      if (!e)
        return std::nullopt;
      out.push_back(*e);
    } while (consume(","));
    if (!consume(")"))
      return std::nullopt;
    return out;
  }
  std::optional<SequenceExpr> parseExpr() {
    skipSpace();
    size_t n = 0;
    while (n < rest.size() && llvm::isAlnum(rest[n]))
      ++n;
    llvm::StringRef word = rest.take_front(n);
    rest = rest.drop_front(n);
    if (word == "empty")
      return SequenceExpr::empty();
    if (word == "full")
      return SequenceExpr::full();
    if (word == "universe")
      return SequenceExpr::universe();
    if ((word.starts_with("s") || word.starts_with("d")) && word.size() > 1 &&
        llvm::all_of(word.drop_front(), llvm::isDigit)) {
      unsigned operand, level = 0;
      if (word.drop_front().getAsInteger(10, operand))
        return std::nullopt;
      if (rest.consume_front(".")) {
        std::optional<int64_t> l = parseInt();
        if (!l || *l < 0)
          return std::nullopt;
        level = unsigned(*l);
      }
      return SequenceExpr::leafLevel(operand, level, word[0] == 'd');
    }
    if (word == "offset") {
      if (!consume("(") || !consume("|"))
        return std::nullopt;
      std::optional<SequenceExpr> shift = parseExpr();
      if (!shift || !consume("|") || !consume(","))
        return std::nullopt;
      std::optional<SequenceExpr> operand = parseExpr();
      if (!operand || !consume(")"))
        return std::nullopt;
      return SequenceExpr::offset(*shift, *operand);
    }
    if (word == "project0" || word == "project1" || word == "slice") {
      if (!consume("("))
        return std::nullopt;
      std::optional<SequenceExpr> operand = parseExpr();
      if (!operand)
        return std::nullopt;
      SmallVector<int64_t, 3> ints;
      while (consume(",")) {
        std::optional<int64_t> v = parseInt();
        if (!v)
          return std::nullopt;
        ints.push_back(*v);
      }
      if (!consume(")"))
        return std::nullopt;
      if (word == "slice") {
        if (ints.size() != 3 || ints[2] == 0)
          return std::nullopt;
        return SequenceExpr::slice(*operand, ints[0], ints[1], ints[2]);
      }
      if (ints.size() != 1)
        return std::nullopt;
      return SequenceExpr::project(*operand, word == "project1", ints[0]);
    }
    std::optional<SmallVector<SequenceExpr>> children = parseList();
    if (!children)
      return std::nullopt;
    if (word == "not" && children->size() == 1)
      return SequenceExpr::complement((*children)[0]);
    if (word == "union" && children->size() >= 2)
      return SequenceExpr::unite(*children);
    if (word == "intersect" && children->size() >= 2)
      return SequenceExpr::intersect(*children);
    if (word == "product" && children->size() == 2)
      return SequenceExpr::product((*children)[0], (*children)[1]);
    if (word == "concat" && children->size() == 2)
      return SequenceExpr::concat((*children)[0], (*children)[1]);
    return std::nullopt;
  }

  llvm::StringRef rest;
};
} // namespace

std::optional<SequenceExpr> SequenceExpr::parse(llvm::StringRef text) {
  return Parser(text).parseAll();
}
