//===- SortLevelTest.cpp - convert's per-row sort of an unordered level ---===//
//
// sortInnermostLevel (SortLevel.cpp) gives bit for bit the buffers the
// generic unpack / sort / pack path gives, for hashed and nonordered
// compressed innermost levels below dense ones, dropping entries equal to
// the fill as that path does; it declines every other pair of formats.
//
//===----------------------------------------------------------------------===//

#include "Array.h"
#include "SpecFixture.h"

#include <cstring>
#include <random>
#include <set>

using namespace sa_rt;
using namespace sa_rt::testing;

namespace {

/// Random i64 entries of a `dims` array, some equal to `fill`, in random
/// order, packed as `format`.
std::unique_ptr<Array> randomArray(std::mt19937_64 &rng,
                                   const std::vector<uint64_t> &dims,
                                   const std::string &format, uint64_t fill,
                                   unsigned count) {
  Coo coo(Elem::I64, dims.size());
  coo.dims = dims;
  std::set<std::vector<uint64_t>> seen;
  for (unsigned i = 0; i < count; ++i) {
    std::vector<uint64_t> c;
    for (uint64_t d : dims)
      c.push_back(rng() % d);
    if (!seen.insert(c).second)
      continue;
    coo.push(c.data(), rng() % 4 == 0 ? fill : rng() % 1000);
  }
  PackError error;
  std::unique_ptr<Array> a = pack(std::move(coo), spec(format), error);
  EXPECT_TRUE(a) << format << ": " << error.message;
  return a;
}

void expectSameBuffers(const Array &a, const Array &b) {
  ASSERT_EQ(a.buffers.size(), b.buffers.size());
  for (unsigned k = 0; k < a.buffers.size(); ++k) {
    ASSERT_EQ(a.buffers[k].len, b.buffers[k].len) << "buffer " << k;
    uint64_t bytes = a.buffers[k].len * a.spec.bufferElemBytes(k);
    EXPECT_EQ(std::memcmp(a.buffers[k].data, b.buffers[k].data, bytes), 0)
        << "buffer " << k;
  }
  EXPECT_EQ(a.dims, b.dims);
}

TEST(RuntimeSortLevel, MatchesTheGenericConversion) {
  std::mt19937_64 rng(58);
  struct Case {
    const char *from, *to;
  } cases[] = {
      {"levels=dense,hashed", "levels=dense,compressed"},
      {"levels=hashed", "levels=compressed"},
      {"levels=dense,dense,hashed", "levels=dense,dense,compressed"},
      {"levels=dense,hashed;pos=32;crd=32", "levels=dense,compressed;pos=32"},
      {"levels=dense,hashed", "levels=dense,compressed;pos=32;crd=32"},
      {"levels=dense,compressed(nonordered)", "levels=dense,compressed"},
  };
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<uint64_t> dims = {rng() % 7 + 1, rng() % 5 + 1,
                                  rng() % 500 + 1};
    for (const Case &c : cases)
      for (uint64_t fill : {uint64_t(0), uint64_t(7)}) {
        std::string fillText = ";fill=" + std::to_string(fill);
        FormatSpec from = spec(std::string("elem=i64;") + c.from + fillText);
        std::vector<uint64_t> d(dims.end() - from.rank(), dims.end());
        std::unique_ptr<Array> a =
            randomArray(rng, d, std::string("elem=i64;") + c.from + fillText,
                        fill, trial < 2 ? 3000 : rng() % 200);
        ASSERT_TRUE(a);
        FormatSpec to = spec(std::string("elem=i64;") + c.to + fillText);
        std::unique_ptr<Array> fast = sortInnermostLevel(*a, to);
        ASSERT_TRUE(fast) << c.from << " to " << c.to;
        EXPECT_EQ(fast->validate(), "");
        EXPECT_EQ(fast->validateOrder(), "");
        PackError error;
        std::unique_ptr<Array> generic = pack(unpack(*a, &to.fill), to, error);
        ASSERT_TRUE(generic) << error.message;
        expectSameBuffers(*fast, *generic);
      }
  }
}

TEST(RuntimeSortLevel, DeclinesOtherConversions) {
  std::mt19937_64 rng(59);
  struct Case {
    const char *from, *to;
  } cases[] = {
      // Already ordered, or not ordered by the result.
      {"levels=dense,compressed", "levels=dense,compressed"},
      {"levels=dense,hashed", "levels=dense,compressed(nonordered)"},
      // A level above that is not dense, or that changes.
      {"levels=compressed,hashed", "levels=compressed,compressed"},
      {"levels=dense,hashed", "levels=dense,compressed;order=1,0"},
      // Not the innermost level, or a result that is not compressed.
      {"levels=dense,hashed,dense", "levels=dense,compressed,dense"},
      {"levels=dense,hashed", "levels=dense,dense"},
  };
  unsigned checked = 0;
  for (const Case &c : cases) {
    std::string from = std::string("elem=i64;") + c.from;
    FormatSpec f;
    std::string error;
    if (!FormatSpec::parse(from, f, error))
      continue; // a format the runtime refuses has nothing to convert
    ++checked;
    std::vector<uint64_t> dims = {4, 6, 3};
    dims.resize(f.rank());
    std::unique_ptr<Array> a = randomArray(rng, dims, from, 0, 30);
    ASSERT_TRUE(a);
    EXPECT_FALSE(sortInnermostLevel(*a, spec(std::string("elem=i64;") + c.to)))
        << c.from << " to " << c.to;
  }
  EXPECT_GE(checked, 5u);
}

} // namespace
