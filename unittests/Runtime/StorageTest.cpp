//===- StorageTest.cpp - Scalars, format specs, packing and conversion ----===//

#include "Array.h"
#include "SpecFixture.h"

#include "gtest/gtest.h"

#include <array>
#include <cmath>
#include <map>
#include <random>
#include <vector>

using namespace sa_rt;
using sa_rt::testing::spec;

namespace {

TEST(RuntimeScalar, HalfRoundTripsEveryBitPattern) {
  for (int expBits : {5, 8}) {
    int mantBits = expBits == 5 ? 10 : 7;
    for (uint32_t bits = 0; bits < 65536; ++bits) {
      double v = smallFloatToDouble(bits, expBits, mantBits);
      if (std::isnan(v))
        continue;
      EXPECT_EQ(roundToSmallFloat(v, expBits, mantBits), bits);
    }
  }
}

TEST(RuntimeScalar, HalfRoundsToNearestEven) {
  // 1 + 2^-11 lies half-way between 1 and the next f16 (1 + 2^-10): even
  // mantissa wins; just above it rounds up.
  EXPECT_EQ(roundToSmallFloat(1.0 + std::ldexp(1.0, -11), 5, 10), 0x3C00u);
  EXPECT_EQ(roundToSmallFloat(1.0 + std::ldexp(1.0, -11) + 1e-12, 5, 10),
            0x3C01u);
  EXPECT_EQ(roundToSmallFloat(65520.0, 5, 10), 0x7C00u); // overflows to inf
  EXPECT_EQ(roundToSmallFloat(65519.0, 5, 10), 0x7BFFu); // max finite
  EXPECT_EQ(roundToSmallFloat(std::ldexp(1.0, -25), 5, 10), 0x0000u);
  EXPECT_EQ(roundToSmallFloat(std::ldexp(1.5, -25), 5, 10), 0x0001u);
  EXPECT_EQ(roundToSmallFloat(-0.0, 5, 10), 0x8000u);
}

TEST(RuntimeScalar, FormatParseRoundTrips) {
  std::mt19937_64 rng(7);
  for (Elem e : {Elem::F16, Elem::BF16}) {
    for (uint64_t bits = 0; bits < 65536; ++bits) {
      char buf[48];
      int n = formatValue(e, bits, buf);
      uint64_t back;
      ASSERT_EQ(parseValue(e, std::string_view(buf, n), back), ParseStatus::Ok);
      EXPECT_TRUE(sameValue(e, back, bits)) << elemName(e) << " " << buf;
    }
  }
  for (int i = 0; i < 100000; ++i) {
    uint64_t bits = rng();
    for (Elem e : {Elem::F64, Elem::F32, Elem::I64, Elem::I32, Elem::I8}) {
      uint64_t b = elemBytes(e) == 8 ? bits : bits & ((1ull << (8 * elemBytes(e))) - 1);
      char buf[48];
      int n = formatValue(e, b, buf);
      uint64_t back;
      ASSERT_EQ(parseValue(e, std::string_view(buf, n), back), ParseStatus::Ok)
          << buf;
      EXPECT_TRUE(sameValue(e, back, b)) << elemName(e) << " " << buf;
    }
  }
}

TEST(RuntimeScalar, SmallFloatsPreferPlainSpelling) {
  char buf[48];
  formatValue(Elem::F16, roundToSmallFloat(2048.0, 5, 10), buf);
  EXPECT_STREQ(buf, "2048");
  formatValue(Elem::F16, roundToSmallFloat(65504.0, 5, 10), buf);
  EXPECT_STREQ(buf, "65504");
  formatValue(Elem::F16, roundToSmallFloat(0.1, 5, 10), buf);
  EXPECT_STREQ(buf, "0.1");
  formatValue(Elem::BF16, roundToSmallFloat(1e30, 8, 7), buf);
  EXPECT_EQ(std::string(buf).find('e') != std::string::npos, true) << buf;
}

TEST(RuntimeScalar, IntegersAreSignlessAndRangeChecked) {
  uint64_t bits;
  EXPECT_EQ(parseValue(Elem::I8, "255", bits), ParseStatus::Ok);
  EXPECT_EQ(bits, 0xFFu);
  EXPECT_EQ(parseValue(Elem::I8, "-128", bits), ParseStatus::Ok);
  EXPECT_EQ(parseValue(Elem::I8, "256", bits), ParseStatus::OutOfRange);
  EXPECT_EQ(parseValue(Elem::I8, "-129", bits), ParseStatus::OutOfRange);
  EXPECT_EQ(parseValue(Elem::I1, "2", bits), ParseStatus::OutOfRange);
  EXPECT_EQ(parseValue(Elem::I64, "-9223372036854775808", bits),
            ParseStatus::Ok);
  EXPECT_EQ(parseValue(Elem::I64, "18446744073709551616", bits),
            ParseStatus::OutOfRange);
  EXPECT_EQ(parseValue(Elem::I32, "1.5", bits), ParseStatus::NotAnInteger);
  EXPECT_EQ(parseValue(Elem::I32, "inf", bits), ParseStatus::NotAnInteger);
  EXPECT_EQ(parseValue(Elem::F64, "1e999", bits), ParseStatus::Ok);
  EXPECT_EQ(bits, 0x7FF0000000000000u);
  EXPECT_EQ(parseValue(Elem::F64, "1.5x", bits), ParseStatus::NotANumber);
  EXPECT_EQ(parseValue(Elem::F64, "", bits), ParseStatus::NotANumber);
  EXPECT_EQ(negateBits(Elem::I8, 0x80), 0x80u); // -(-128) wraps
}

TEST(RuntimeFormatSpec, ParsesAndPrints) {
  FormatSpec s = spec("elem=f32;dims=?,4;levels=compressed(nonunique),"
                      "singleton;order=1,0;pos=32;crd=64;fill=inf");
  EXPECT_EQ(s.rank(), 2u);
  EXPECT_FALSE(s.levels[0].unique);
  EXPECT_EQ(s.order, (std::vector<unsigned>{1, 0}));
  EXPECT_EQ(s.numBuffers(), 4u);
  EXPECT_EQ(s.posBufferIndex(0), 0);
  EXPECT_EQ(s.crdBufferIndex(0), 1);
  EXPECT_EQ(s.posBufferIndex(1), -1);
  EXPECT_EQ(s.crdBufferIndex(1), 2);
  FormatSpec again = spec(s.str());
  EXPECT_EQ(again.str(), s.str());

  FormatSpec out;
  std::string error;
  EXPECT_FALSE(FormatSpec::parse("elem=f64;levels=nope", out, error));
  EXPECT_EQ(error, "unknown level format 'nope'");
  // seed 002's hashed level: unordered without saying so; a level below it
  // must compute its positions (full).
  ASSERT_TRUE(FormatSpec::parse("elem=f64;levels=dense,hashed", out, error));
  EXPECT_FALSE(out.levels[1].ordered);
  EXPECT_FALSE(FormatSpec::parse("elem=f64;levels=hashed,compressed", out,
                                 error));
  EXPECT_EQ(error, "level 1 (compressed) cannot follow a level in hash order; "
                   "only a full level can");
  // N:M structured: two parameters, printed back; n <= m; the level's
  // extent (its block here) is m.
  FormatSpec nm = spec("elem=f64;dims=?,8;levels=dense,dense,structured[2,4];"
                       "order=0,1,1;blocks=1,4");
  EXPECT_EQ(nm.levels[2].params[0], 2u);
  EXPECT_EQ(nm.levels[2].params[1], 4u);
  EXPECT_EQ(spec(nm.str()).str(), nm.str());
  EXPECT_NE(nm.str().find("structured[2,4]"), std::string::npos);
  EXPECT_FALSE(FormatSpec::parse(
      "elem=f64;levels=dense,dense,structured[2];order=0,1,1;blocks=1,4", out,
      error));
  EXPECT_EQ(error, "level format 'structured' takes 2 parameters, got 1");
  EXPECT_FALSE(FormatSpec::parse(
      "elem=f64;levels=dense,dense,structured[5,4];order=0,1,1;blocks=1,4",
      out, error));
  EXPECT_EQ(error, "level 2 (structured) needs 1 <= n <= m, got n = 5, m = 4");
  EXPECT_FALSE(FormatSpec::parse(
      "elem=f64;levels=dense,dense,structured[2,4];order=0,1,1;blocks=1,8",
      out, error));
  EXPECT_EQ(error, "level 2 (structured) must have extent 4, got 8");
  EXPECT_FALSE(FormatSpec::parse("elem=f64;levels=dense[3]", out, error));
  EXPECT_EQ(error, "level format 'dense' takes 0 parameters, got 1");
  EXPECT_FALSE(FormatSpec::parse("elem=f64;levels=dense(nonunique)", out, error));
  EXPECT_FALSE(FormatSpec::parse("elem=f64;levels=dense,dense;order=0,0", out,
                                 error));
  EXPECT_FALSE(FormatSpec::parse("elem=f64;levels=singleton", out, error));
  EXPECT_FALSE(FormatSpec::parse("elem=f64;levels=compressed(nonunique)", out,
                                 error));
}

/// Random entries packed into every format unpack to the same entries.
TEST(RuntimePack, EveryFormatKeepsTheEntries) {
  std::mt19937_64 rng(42);
  const char *formats[] = {
      "levels=dense,dense,dense",
      "levels=dense,compressed,compressed",
      "levels=compressed,compressed,compressed;order=2,1,0",
      "levels=compressed(nonunique),singleton(nonunique),singleton",
      "levels=compressed(nonunique),singleton(nonunique),singleton;order=1,0,2",
      "levels=dense,dense,compressed;pos=32;crd=32",
      "levels=compressed,dense,compressed",
      // Inserted in the order given, not sorted (InsertPack.cpp).
      "levels=dense,dense,hashed",
      "levels=hashed,dense,dense;order=2,0,1",
      "levels=dense,hashed,dense;pos=32;crd=32"};
  for (int trial = 0; trial < 30; ++trial) {
    // The first trials are large enough for the flag sort's counting path.
    bool large = trial < 3;
    std::vector<uint64_t> dims = {rng() % (large ? 60 : 9) + 1,
                                  rng() % 9 + 1, rng() % 300 + 1};
    std::map<std::vector<uint64_t>, uint64_t> entries;
    int count = static_cast<int>(large ? 20000 : rng() % 200);
    for (int i = 0; i < count; ++i)
      entries[{rng() % dims[0], rng() % dims[1], rng() % dims[2]}] =
          rng() % 1000 + 1;
    for (const char *f : formats) {
      FormatSpec s = spec(std::string("elem=i64;") + f);
      Coo coo(Elem::I64, 3);
      coo.dims = dims;
      // Push in a scrambled order: packing sorts.
      std::vector<std::pair<std::vector<uint64_t>, uint64_t>> list(
          entries.begin(), entries.end());
      std::shuffle(list.begin(), list.end(), rng);
      for (auto &[c, v] : list)
        coo.push(c.data(), v);
      PackError error;
      std::unique_ptr<Array> a = pack(std::move(coo), s, error);
      ASSERT_TRUE(a) << f << ": " << error.message;
      EXPECT_EQ(a->validate(), "") << f;
      uint64_t zero = 0;
      Coo back = unpack(*a, &zero);
      std::map<std::vector<uint64_t>, uint64_t> got;
      for (uint64_t i = 0; i < back.nnz; ++i)
        got[{back.cols[0][i], back.cols[1][i], back.cols[2][i]}] =
            back.valueBits(i);
      EXPECT_EQ(got, entries) << f;
    }
  }
}

/// N:M structured arrays (at most n entries per block of m) pack and unpack
/// to the same entries; a block with more than n is an error, not a crash.
TEST(RuntimePack, StructuredKeepsTheEntriesAndRejectsFullBlocks) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 40; ++trial) {
    uint64_t n = rng() % 4 + 1, m = std::max<uint64_t>(2, n + rng() % 4);
    uint64_t rows = rng() % 20 + 1, blocks = rng() % 10 + 1;
    std::map<std::vector<uint64_t>, uint64_t> entries;
    for (uint64_t r = 0; r < rows; ++r)
      for (uint64_t b = 0; b < blocks; ++b)
        for (uint64_t k = 0, most = rng() % (n + 1); k < most; ++k)
          entries[{r, b * m + rng() % m}] = rng() % 1000 + 1;
    std::string text = "elem=i64;levels=dense,dense,structured[" +
                       std::to_string(n) + "," + std::to_string(m) +
                       "];order=0,1,1;blocks=1," + std::to_string(m);
    Coo coo(Elem::I64, 2);
    coo.dims = {rows, blocks * m};
    for (auto &[c, v] : entries)
      coo.push(c.data(), v);
    PackError error;
    std::unique_ptr<Array> a = pack(std::move(coo), spec(text), error);
    ASSERT_TRUE(a) << text << ": " << error.message;
    EXPECT_EQ(a->validate(), "") << text;
    uint64_t zero = 0;
    Coo back = unpack(*a, &zero);
    std::map<std::vector<uint64_t>, uint64_t> got;
    for (uint64_t i = 0; i < back.nnz; ++i)
      got[{back.cols[0][i], back.cols[1][i]}] = back.valueBits(i);
    EXPECT_EQ(got, entries) << text;
  }
  Coo coo(Elem::I64, 2);
  coo.dims = {2, 8};
  for (uint64_t c : {4, 5, 7}) {
    uint64_t x[2] = {1, c};
    coo.push(x, c);
  }
  PackError error;
  EXPECT_FALSE(pack(std::move(coo),
                    spec("elem=i64;levels=dense,dense,structured[2,4];"
                         "order=0,1,1;blocks=1,4"),
                    error));
  EXPECT_EQ(error.message,
            "level 2 (structured): a block holds 3 entries, more than the 2 "
            "of structured[2, 4]");
}

/// More than 2^20 entries take the scatter sort.
TEST(RuntimePack, LargeInputsSortByScatter) {
  std::mt19937_64 rng(3);
  const uint64_t n = (1u << 20) + 17;
  Coo coo(Elem::F32, 2);
  coo.dims = {5000, 3000};
  std::vector<std::pair<uint64_t, uint64_t>> coords;
  for (uint64_t i = 0; i < n; ++i)
    coords.push_back({i % 5000, (i * 7919) % 3000});
  std::sort(coords.begin(), coords.end());
  coords.erase(std::unique(coords.begin(), coords.end()), coords.end());
  std::shuffle(coords.begin(), coords.end(), rng);
  for (auto [r, c] : coords) {
    uint64_t x[2] = {r, c};
    coo.push(x, r * 3000 + c + 1);
  }
  PackError error;
  std::unique_ptr<Array> a =
      pack(std::move(coo), spec("elem=f32;levels=dense,compressed"), error);
  ASSERT_TRUE(a) << error.message;
  EXPECT_EQ(a->validate(), "");
  uint64_t zero = 0;
  Coo back = unpack(*a, &zero);
  ASSERT_EQ(back.nnz, coords.size());
  std::sort(coords.begin(), coords.end());
  for (uint64_t i = 0; i < back.nnz; ++i) {
    ASSERT_EQ(back.cols[0][i], coords[i].first);
    ASSERT_EQ(back.cols[1][i], coords[i].second);
    ASSERT_EQ(back.valueBits(i), coords[i].first * 3000 + coords[i].second + 1);
  }
}

/// Buffers lent from outside (C callers) are checked before use.
TEST(RuntimeArray, ValidateRejectsInconsistentBuffers) {
  Array a(spec("elem=f64;dims=2,3;levels=dense,compressed"));
  uint64_t pos[3] = {0, 2, 1}, crd[2] = {0, 5};
  double vals[2] = {1, 2};
  a.buffers[0] = {pos, 3, false};
  a.buffers[1] = {crd, 1, false};
  a.buffers[2] = {vals, 2, false};
  EXPECT_EQ(a.validate(), "level 1 positions decrease at 1");
  pos[2] = 2;
  EXPECT_EQ(a.validate(), "level 1 has 1 coordinates, expected 2");
  a.buffers[1].len = 2;
  EXPECT_EQ(a.validate(), "level 1 coordinate 5 at position 1 is outside "
                          "the dimension (size 3)");
  crd[1] = 2;
  EXPECT_EQ(a.validate(), "");
  a.buffers[2].len = 3;
  EXPECT_EQ(a.validate(), "the array has 3 values, expected 2");
}

TEST(RuntimePack, DuplicatesAreReported) {
  Coo coo(Elem::F64, 2);
  coo.dims = {3, 3};
  uint64_t a[2] = {1, 2}, b[2] = {0, 0};
  coo.push(a, 1);
  coo.push(b, 2);
  coo.push(a, 3);
  PackError error;
  EXPECT_FALSE(pack(std::move(coo), spec("elem=f64;levels=dense,compressed"),
                    error));
  EXPECT_EQ(error.duplicate, (std::vector<uint64_t>{1, 2}));
  // Formats packed by insertion find the repeat where it lands.
  for (const char *levels : {"dense,hashed", "hashed,dense", "dense,dense"}) {
    Coo again(Elem::F64, 2);
    again.dims = {3, 3};
    again.push(a, 1);
    again.push(b, 2);
    again.push(a, 3);
    PackError repeat;
    EXPECT_FALSE(pack(std::move(again),
                      spec(std::string("elem=f64;levels=") + levels), repeat))
        << levels;
    EXPECT_EQ(repeat.message, "duplicate entry") << levels;
    EXPECT_EQ(repeat.duplicate, (std::vector<uint64_t>{1, 2})) << levels;
  }
}

TEST(RuntimeConvert, ChangingTheFillMakesImplicitEntriesExplicit) {
  Coo coo(Elem::I32, 2);
  coo.dims = {2, 2};
  uint64_t c[2] = {0, 1};
  coo.push(c, 7);
  PackError error;
  std::unique_ptr<Array> a =
      pack(std::move(coo), spec("elem=i32;levels=dense,compressed"), error);
  ASSERT_TRUE(a);
  // New fill 7: the stored 7 becomes implicit, the three zeros explicit.
  std::unique_ptr<Array> b =
      convert(*a, spec("elem=i32;levels=compressed,compressed;fill=7"));
  Coo back = unpack(*b, nullptr);
  ASSERT_EQ(back.nnz, 3u);
  for (uint64_t i = 0; i < back.nnz; ++i)
    EXPECT_EQ(back.valueBits(i), 0u);
  EXPECT_FALSE(back.cols[0][0] == 0 && back.cols[1][0] == 1);
}

/// A 2 x n i32 matrix with `entries` (row, column, value) over `fill`.
std::unique_ptr<Array>
matrix(uint64_t n, const char *format,
       std::initializer_list<std::array<uint64_t, 3>> entries) {
  Coo coo(Elem::I32, 2);
  coo.dims = {2, n};
  for (auto [i, j, v] : entries) {
    uint64_t c[2] = {i, j};
    coo.push(c, v);
  }
  PackError error;
  std::unique_ptr<Array> a = pack(std::move(coo), spec(format), error);
  EXPECT_TRUE(a) << error.message;
  return a;
}

TEST(RuntimeConcat, PartsAtTheirOffsetsAnotherFillEverywhere) {
  std::unique_ptr<Array> a =
      matrix(2, "elem=i32;levels=dense,compressed", {{0, 1, 5}, {1, 0, 6}});
  // Fill 7 into a fill-0 result: its three implicit 7s are entries there.
  std::unique_ptr<Array> b =
      matrix(2, "elem=i32;levels=compressed,compressed;fill=7", {{1, 1, 0}});
  Concat c(spec("elem=i32;levels=dense,compressed"), {2, 4}, 1);
  c.add(*a);
  c.add(*b);
  std::unique_ptr<Array> r = c.finish();
  Coo out = unpack(*r, nullptr);
  std::vector<std::array<uint64_t, 3>> got;
  for (uint64_t e = 0; e < out.nnz; ++e)
    got.push_back({out.cols[0][e], out.cols[1][e], out.valueBits(e)});
  std::vector<std::array<uint64_t, 3>> want = {
      {0, 1, 5}, {0, 2, 7}, {0, 3, 7}, {1, 0, 6}, {1, 2, 7}};
  EXPECT_EQ(got, want);
}

TEST(RuntimeConcat, SizesMustBeTheResults) {
  std::unique_ptr<Array> a =
      matrix(2, "elem=i32;levels=dense,compressed", {{0, 1, 5}});
  EXPECT_EXIT(
      {
        Concat c(spec("elem=i32;levels=dense,compressed"), {2, 3}, 1);
        c.add(*a);
        c.finish();
      },
      ::testing::ExitedWithCode(2),
      "the parts' sizes along dimension 1 sum to 2, the result has 3");
  EXPECT_EXIT(
      {
        Concat c(spec("elem=i32;levels=dense,compressed"), {3, 4}, 1);
        c.add(*a);
      },
      ::testing::ExitedWithCode(2),
      "part 0 has size 2 in dimension 0, the result 3");
}

} // namespace
