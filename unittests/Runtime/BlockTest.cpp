//===- BlockTest.cpp - Block formats (BCSR and kin) in the runtime --------===//
//
// Seed 002's BCSR: a blocked dimension d (block size b) is stored at two
// levels, d / b then d mod b. Packing stores whole blocks (the fill where a
// block has no entry), unpacking drops the fill again, and a run of
// non-unique levels (a COO of blocks) has one position per block.
//
//===----------------------------------------------------------------------===//

#include "Array.h"
#include "SpecFixture.h"

#include "gtest/gtest.h"

#include <cstring>
#include <map>
#include <random>
#include <vector>

using namespace sa_rt;
using sa_rt::testing::spec;

namespace {

uint64_t bitsOf(double v) {
  uint64_t b;
  std::memcpy(&b, &v, 8);
  return b;
}

template <typename T> std::vector<T> buffer(const Array &a, unsigned k) {
  const T *p = static_cast<const T *>(a.buffers[k].data);
  return std::vector<T>(p, p + a.buffers[k].len);
}

using Entries = std::map<std::vector<uint64_t>, uint64_t>;

std::unique_ptr<Array> packEntries(const Entries &entries,
                                   std::vector<uint64_t> dims,
                                   const FormatSpec &s, PackError &error) {
  Coo coo(s.elem, static_cast<unsigned>(dims.size()));
  coo.dims = dims;
  for (auto it = entries.rbegin(); it != entries.rend(); ++it)
    coo.push(it->first.data(), it->second); // reversed: packing sorts
  return pack(std::move(coo), s, error);
}

Entries unpackEntries(const Array &a, uint64_t fill) {
  Coo back = unpack(a, &fill);
  Entries got;
  for (uint64_t i = 0; i < back.nnz; ++i) {
    std::vector<uint64_t> c;
    for (unsigned d = 0; d < back.rank(); ++d)
      c.push_back(back.cols[d][i]);
    got[c] = back.valueBits(i);
  }
  return got;
}

/// A 4 x 6 matrix in 2 x 3 blocks, fill NaN: the blocks holding entries,
/// row of blocks by row of blocks, each stored whole in row-major order.
TEST(RuntimeBlocks, BsrStoresWholeBlocks) {
  uint64_t nan = bitsOf(__builtin_nan(""));
  FormatSpec s = spec("elem=f64;levels=dense,compressed,dense,dense;"
                      "order=0,1,0,1;blocks=2,3;fill=nan");
  EXPECT_EQ(s.levelExtent(0, 4), 2u);
  EXPECT_EQ(s.levelExtent(1, 6), 2u);
  EXPECT_EQ(s.levelExtent(2, 4), 2u);
  EXPECT_EQ(s.levelExtent(3, 6), 3u);
  Entries entries = {{{0, 0}, bitsOf(1)}, {{1, 2}, bitsOf(2)},
                     {{3, 4}, bitsOf(3)}, {{2, 5}, bitsOf(-0.0)}};
  PackError error;
  std::unique_ptr<Array> a = packEntries(entries, {4, 6}, s, error);
  ASSERT_TRUE(a) << error.message;
  EXPECT_EQ(a->validate(), "");
  EXPECT_EQ(buffer<uint64_t>(*a, 0), (std::vector<uint64_t>{0, 1, 2}));
  EXPECT_EQ(buffer<uint64_t>(*a, 1), (std::vector<uint64_t>{0, 1}));
  std::vector<uint64_t> values = buffer<uint64_t>(*a, 2);
  std::vector<uint64_t> expected(12, nan);
  expected[0] = bitsOf(1);     // block (0, 0), place (0, 0)
  expected[5] = bitsOf(2);     //               place (1, 2)
  expected[6 + 2] = bitsOf(-0.0); // block (1, 1), place (0, 2)
  expected[6 + 4] = bitsOf(3);    //               place (1, 1)
  EXPECT_EQ(values, expected);
  EXPECT_EQ(unpackEntries(*a, nan), entries);
}

/// Random entries through block formats of every shape: row- and
/// column-major blocks, a COO of blocks, sparse levels inside the block, a
/// 3-D array with an unblocked dimension between blocked ones.
TEST(RuntimeBlocks, EveryBlockFormatKeepsTheEntries) {
  std::mt19937_64 rng(11);
  struct Case {
    const char *levels;
    std::vector<uint64_t> blocks; // one per dimension
  };
  const Case cases[] = {
      {"levels=dense,compressed,dense,dense;order=0,1,0,1", {2, 3}},
      {"levels=dense,compressed,dense,dense;order=1,0,1,0", {4, 2}},
      {"levels=compressed(nonunique),singleton,dense,dense;order=0,1,0,1",
       {3, 2}},
      {"levels=compressed,compressed,compressed,compressed;order=0,1,1,0",
       {2, 2}},
      {"levels=compressed,dense,compressed,dense,dense;order=0,2,1,0,2",
       {2, 1, 3}},
  };
  for (int trial = 0; trial < 40; ++trial) {
    const Case &c = cases[trial % std::size(cases)];
    auto rank = static_cast<unsigned>(c.blocks.size());
    std::vector<uint64_t> dims, blocks;
    for (unsigned d = 0; d < rank; ++d) {
      blocks.push_back(c.blocks[d]);
      dims.push_back(c.blocks[d] * (rng() % 5 + 1));
    }
    std::string text = std::string("elem=i64;") + c.levels + ";blocks=";
    for (unsigned d = 0; d < rank; ++d)
      text += (d ? "," : "") + std::to_string(blocks[d]);
    FormatSpec s = spec(text);
    Entries entries;
    int count = static_cast<int>(rng() % 40);
    for (int i = 0; i < count; ++i) {
      std::vector<uint64_t> at;
      for (unsigned d = 0; d < rank; ++d)
        at.push_back(rng() % dims[d]);
      entries[at] = rng() % 1000 + 1;
    }
    PackError error;
    std::unique_ptr<Array> a = packEntries(entries, dims, s, error);
    ASSERT_TRUE(a) << text << ": " << error.message;
    EXPECT_EQ(a->validate(), "") << text;
    EXPECT_EQ(unpackEntries(*a, 0), entries) << text;
    // Converting to CSR-like storage and back keeps them too.
    std::string plain = rank == 2 ? "elem=i64;levels=dense,compressed"
                                  : "elem=i64;levels=dense,compressed,dense";
    std::unique_ptr<Array> b = convert(*a, spec(plain));
    std::unique_ptr<Array> again = convert(*b, s);
    EXPECT_EQ(unpackEntries(*again, 0), entries) << text;
  }
}

/// A COO of blocks stores each block once: the non-unique level has one
/// position per block, not per entry.
TEST(RuntimeBlocks, CooOfBlocksHasOnePositionPerBlock) {
  FormatSpec s = spec("elem=i64;levels=compressed(nonunique),singleton,dense,"
                      "dense;order=0,1,0,1;blocks=2,2");
  Entries entries = {{{0, 0}, 1}, {{1, 1}, 2}, {{0, 1}, 3}, {{4, 2}, 4}};
  PackError error;
  std::unique_ptr<Array> a = packEntries(entries, {6, 4}, s, error);
  ASSERT_TRUE(a) << error.message;
  EXPECT_EQ(a->validate(), "");
  EXPECT_EQ(buffer<uint64_t>(*a, 0), (std::vector<uint64_t>{0, 2}));
  EXPECT_EQ(buffer<uint64_t>(*a, 1), (std::vector<uint64_t>{0, 2}));
  EXPECT_EQ(buffer<uint64_t>(*a, 2), (std::vector<uint64_t>{0, 1}));
  EXPECT_EQ(buffer<uint64_t>(*a, 3),
            (std::vector<uint64_t>{1, 3, 0, 2, 4, 0, 0, 0}));
  EXPECT_EQ(unpackEntries(*a, 0), entries);
}

TEST(RuntimeBlocks, DuplicatesAreReportedInDimensions) {
  FormatSpec s = spec("elem=f64;levels=dense,compressed,dense,dense;"
                      "order=0,1,0,1;blocks=2,2");
  Coo coo(Elem::F64, 2);
  coo.dims = {4, 4};
  uint64_t a[2] = {3, 2}, b[2] = {0, 1};
  coo.push(a, 1);
  coo.push(b, 2);
  coo.push(a, 3);
  PackError error;
  EXPECT_FALSE(pack(std::move(coo), s, error));
  EXPECT_EQ(error.duplicate, (std::vector<uint64_t>{3, 2}));
}

TEST(RuntimeBlocks, SizesMustBeMultiplesOfTheBlocks) {
  FormatSpec out;
  std::string error;
  EXPECT_FALSE(FormatSpec::parse("elem=f64;dims=4,5;levels=dense,compressed,"
                                 "dense,dense;order=0,1,0,1;blocks=2,2",
                                 out, error));
  EXPECT_EQ(error, "dimension 1 of size 5 is not a multiple of its block 2");
  EXPECT_FALSE(FormatSpec::parse("elem=f64;levels=dense,compressed,dense;"
                                 "order=0,1,0,1;blocks=2,2",
                                 out, error));
  EXPECT_FALSE(FormatSpec::parse("elem=f64;levels=dense,compressed,dense,"
                                 "dense;order=0,1,1,1;blocks=2,2",
                                 out, error));
  EXPECT_FALSE(FormatSpec::parse("elem=f64;levels=dense,compressed;"
                                 "blocks=1,1",
                                 out, error));
  EXPECT_FALSE(FormatSpec::parse("elem=f64;levels=dense,compressed,dense;"
                                 "order=0,1,0;blocks=0,2",
                                 out, error));

  FormatSpec s = spec("elem=f64;levels=dense,compressed,dense,dense;"
                      "order=0,1,0,1;blocks=2,2");
  EXPECT_EQ(spec(s.str()).str(), s.str());
  Coo coo(Elem::F64, 2);
  coo.dims = {4, 3};
  PackError packError;
  EXPECT_FALSE(pack(std::move(coo), s, packError));
  EXPECT_EQ(packError.message, "dimension 1 has size 3, which is not a "
                               "multiple of its block size 2");
  Array lent(s);
  lent.dims = {4, 3};
  EXPECT_EQ(lent.validate(), "dimension 1 has size 3, not a multiple of its "
                             "block size 2");
}

} // namespace
