//===- generate.cpp - Inputs of the element-wise benchmark ----------------===//
//
// Generates the element-wise benchmark's inputs (the hand-written loops it
// compares with are in hand_kernels.cpp).
//
//   sa-bench-elementwise-gen --out DIR [--rows R] [--runs-per-row K]
//                            [--run-length L] [--seed S]
//
// A is R x R with K runs of L consecutive columns per row (banded, like
// finite-element matrices); B is A with every column shifted by one (seed
// 000 §8), so a run of A and its shifted copy overlap in L - 1 entries.
// Writes DIR/{a_f64,b_f64,b_i32,a_bool,b_bool}.mtx and prints
// `entries NNZ(A) NNZ(B)`.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

struct Csr {
  int64_t rows = 0, cols = 0;
  std::vector<int64_t> pos, crd;
};

Csr generate(int64_t rows, int64_t runs, int64_t len, uint64_t seed) {
  Csr a;
  a.rows = a.cols = rows;
  a.pos.reserve(rows + 1);
  a.pos.push_back(0);
  std::mt19937_64 rng(seed);
  std::vector<int64_t> starts;
  // Runs sit in disjoint slots of the row, one run per slot at most, so
  // every row holds exactly runs * len sorted, distinct columns.
  int64_t slot = rows / runs;
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t r = 0; r < runs; ++r) {
      int64_t s = r * slot + static_cast<int64_t>(rng() % (slot - len));
      for (int64_t k = 0; k < len; ++k)
        a.crd.push_back(s + k);
    }
    a.pos.push_back(static_cast<int64_t>(a.crd.size()));
  }
  return a;
}

// Every column plus one, wrapping around: the rows stay sorted except that
// a last column moves to the front.
Csr shifted(const Csr &a) {
  Csr b = a;
  for (int64_t i = 0; i < a.rows; ++i) {
    auto first = b.crd.begin() + a.pos[i], last = b.crd.begin() + a.pos[i + 1];
    for (auto it = first; it != last; ++it)
      *it = (*it + 1) % a.cols;
    std::rotate(first, std::find(first, last, 0) == last
                           ? first
                           : std::find(first, last, 0),
                last);
  }
  return b;
}

// Values that print short and exactly: k/8 for k in [1, 64].
std::vector<double> values(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> v(n);
  for (double &x : v)
    x = static_cast<double>(1 + rng() % 64) / 8.0;
  return v;
}

std::vector<int32_t> exponents(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int32_t> v(n);
  for (int32_t &x : v)
    x = static_cast<int32_t>(rng() % 21) - 10;
  return v;
}

// field: "real", "integer" or "pattern"; value(k) formats entry k.
template <typename F>
void writeMtx(const std::string &path, const Csr &a, const char *field,
              F value) {
  FILE *f = std::fopen(path.c_str(), "w");
  if (!f) {
    std::perror(path.c_str());
    std::exit(1);
  }
  std::fprintf(f, "%%%%MatrixMarket matrix coordinate %s general\n", field);
  std::fprintf(f, "%lld %lld %lld\n", static_cast<long long>(a.rows),
               static_cast<long long>(a.cols),
               static_cast<long long>(a.crd.size()));
  std::string buf;
  buf.reserve(1 << 20);
  char line[96];
  for (int64_t i = 0; i < a.rows; ++i)
    for (int64_t p = a.pos[i]; p < a.pos[i + 1]; ++p) {
      int n = std::snprintf(line, sizeof(line), "%lld %lld",
                            static_cast<long long>(i + 1),
                            static_cast<long long>(a.crd[p] + 1));
      buf.append(line, n);
      value(p, buf);
      buf.push_back('\n');
      if (buf.size() > (1 << 20) - 128) {
        std::fwrite(buf.data(), 1, buf.size(), f);
        buf.clear();
      }
    }
  std::fwrite(buf.data(), 1, buf.size(), f);
  std::fclose(f);
}

} // namespace

int main(int argc, char **argv) {
  std::string out;
  int64_t rows = 1 << 20, runs = 2, len = 5;
  uint64_t seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i];
    long long v = std::atoll(argv[i + 1]);
    if (k == "--out")
      out = argv[i + 1];
    else if (k == "--rows")
      rows = v;
    else if (k == "--runs-per-row")
      runs = v;
    else if (k == "--run-length")
      len = v;
    else if (k == "--seed")
      seed = static_cast<uint64_t>(v);
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      return 1;
    }
  }
  if (out.empty() || rows / runs <= len) {
    std::fprintf(stderr, "usage: %s --out DIR [--rows R] [--runs-per-row K] "
                         "[--run-length L] [--seed S]\n",
                 argv[0]);
    return 1;
  }
  Csr a = generate(rows, runs, len, seed);
  Csr b = shifted(a);
  std::vector<double> af = values(a.crd.size(), seed + 1);
  std::vector<double> bf = values(b.crd.size(), seed + 2);
  std::vector<int32_t> bi = exponents(b.crd.size(), seed + 3);

  auto real = [](const std::vector<double> &v) {
    return [&v](int64_t p, std::string &s) {
      char t[40];
      s.append(t, std::snprintf(t, sizeof(t), " %.17g", v[p]));
    };
  };
  writeMtx(out + "/a_f64.mtx", a, "real", real(af));
  writeMtx(out + "/b_f64.mtx", b, "real", real(bf));
  writeMtx(out + "/b_i32.mtx", b, "integer", [&](int64_t p, std::string &s) {
    s += ' ';
    s += std::to_string(bi[p]);
  });
  writeMtx(out + "/a_bool.mtx", a, "pattern", [](int64_t, std::string &) {});
  writeMtx(out + "/b_bool.mtx", b, "pattern", [](int64_t, std::string &) {});
  std::printf("entries %lld %lld\n", static_cast<long long>(a.crd.size()),
              static_cast<long long>(b.crd.size()));
  return 0;
}
