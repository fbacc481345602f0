//===- reference.cpp - Inputs and hand-written merge loops -----------------===//
//
// Generates the element-wise benchmark's inputs and times what a careful
// C++ programmer writes by hand for them: one two-pointer merge per CSR row,
// output buffers allocated once (uninitialized) at their upper bound, the
// function inlined.
//
//   sa-bench-elementwise-ref --out DIR [--rows R] [--runs-per-row K]
//                            [--run-length L] [--repeat N] [--seed S]
//
// A is R x R with K runs of L consecutive columns per row (banded, like
// finite-element matrices); B is A with every column shifted by one (seed
// 000 §8), so a run of A and its shifted copy overlap in L - 1 entries.
// Writes DIR/{a_f64,b_f64,b_i32,a_bool,b_bool}.mtx and prints one line per
// kernel: `name seconds entries checksum`.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

struct Csr {
  int64_t rows = 0, cols = 0;
  std::vector<int64_t> pos, crd;
};

// Output buffers: allocated at their upper bound and left uninitialized
// (no zeroing pass; pages are touched only where entries are written).
template <typename T> struct Out {
  std::unique_ptr<int64_t[]> pos, crd;
  std::unique_ptr<T[]> val;
  int64_t nnz = 0;
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

template <typename T> Out<T> allocate(const Csr &a, const Csr &b) {
  Out<T> o;
  size_t cap = a.crd.size() + b.crd.size();
  o.pos.reset(new int64_t[a.rows + 1]);
  o.crd.reset(new int64_t[cap]);
  o.val.reset(new T[cap]);
  return o;
}

// Union merge: both(x, y), onlyA(x), onlyB(y) each return false to store
// nothing (the result equals the fill).
template <typename T, typename VA, typename VB, typename Both, typename OnlyA,
          typename OnlyB>
Out<T> unionMerge(const Csr &a, const VA *va, const Csr &b, const VB *vb,
                  Both both, OnlyA onlyA, OnlyB onlyB) {
  Out<T> o = allocate<T>(a, b);
  int64_t *crd = o.crd.get();
  T *val = o.val.get();
  int64_t n = 0;
  o.pos[0] = 0;
  for (int64_t i = 0; i < a.rows; ++i) {
    int64_t p = a.pos[i], pe = a.pos[i + 1];
    int64_t q = b.pos[i], qe = b.pos[i + 1];
    while (p < pe && q < qe) {
      int64_t ca = a.crd[p], cb = b.crd[q];
      T r;
      if (ca == cb) {
        if (both(va[p], vb[q], r)) {
          crd[n] = ca;
          val[n++] = r;
        }
        ++p;
        ++q;
      } else if (ca < cb) {
        if (onlyA(va[p], r)) {
          crd[n] = ca;
          val[n++] = r;
        }
        ++p;
      } else {
        if (onlyB(vb[q], r)) {
          crd[n] = cb;
          val[n++] = r;
        }
        ++q;
      }
    }
    for (; p < pe; ++p) {
      T r;
      if (onlyA(va[p], r)) {
        crd[n] = a.crd[p];
        val[n++] = r;
      }
    }
    for (; q < qe; ++q) {
      T r;
      if (onlyB(vb[q], r)) {
        crd[n] = b.crd[q];
        val[n++] = r;
      }
    }
    o.pos[i + 1] = n;
  }
  o.nnz = n;
  return o;
}

// Iterates `a` and finds the matching entry of `b` by merging.
template <typename T, typename VA, typename VB, typename Both, typename OnlyA>
Out<T> leftMerge(const Csr &a, const VA *va, const Csr &b, const VB *vb,
                 Both both, OnlyA onlyA) {
  Out<T> o = allocate<T>(a, b);
  int64_t *crd = o.crd.get();
  T *val = o.val.get();
  int64_t n = 0;
  o.pos[0] = 0;
  for (int64_t i = 0; i < a.rows; ++i) {
    int64_t q = b.pos[i], qe = b.pos[i + 1];
    for (int64_t p = a.pos[i], pe = a.pos[i + 1]; p < pe; ++p) {
      int64_t c = a.crd[p];
      while (q < qe && b.crd[q] < c)
        ++q;
      T r;
      bool keep = (q < qe && b.crd[q] == c) ? both(va[p], vb[q], r)
                                            : onlyA(va[p], r);
      if (keep) {
        crd[n] = c;
        val[n++] = r;
      }
    }
    o.pos[i + 1] = n;
  }
  o.nnz = n;
  return o;
}

template <typename T> double checksum(const Out<T> &o) {
  double s = 0;
  for (int64_t k = 0; k < o.nnz; ++k)
    s += static_cast<double>(o.val[k]);
  return s;
}

template <typename F> void timeIt(const char *name, int repeat, F kernel) {
  double best = 1e300;
  int64_t nnz = 0;
  double sum = 0;
  for (int r = 0; r < repeat; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    auto o = kernel();
    auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
    nnz = o.nnz;
    sum = checksum(o);
  }
  std::printf("%s %.6f %lld %.17g\n", name, best, static_cast<long long>(nnz),
              sum);
  std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv) {
  std::string out;
  int64_t rows = 1 << 20, runs = 2, len = 5;
  int repeat = 3;
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
    else if (k == "--repeat")
      repeat = static_cast<int>(v);
    else if (k == "--seed")
      seed = static_cast<uint64_t>(v);
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      return 1;
    }
  }
  if (out.empty() || rows / runs <= len) {
    std::fprintf(stderr, "usage: %s --out DIR [--rows R] [--runs-per-row K] "
                         "[--run-length L] [--repeat N] [--seed S]\n",
                 argv[0]);
    return 1;
  }
  Csr a = generate(rows, runs, len, seed);
  Csr b = shifted(a);
  std::vector<double> af = values(a.crd.size(), seed + 1);
  std::vector<double> bf = values(b.crd.size(), seed + 2);
  std::vector<int32_t> bi = exponents(b.crd.size(), seed + 3);
  std::vector<uint8_t> ones(a.crd.size(), 1);

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

  // add: union, fill 0 (0 + 0); a sum equal to 0 is the fill and not stored.
  timeIt("add", repeat, [&] {
    return unionMerge<double>(
        a, af.data(), b, bf.data(),
        [](double x, double y, double &r) { return (r = x + y) != 0.0 || std::signbit(r); },
        [](double x, double &r) { return (r = x) != 0.0 || std::signbit(r); },
        [](double y, double &r) { return (r = y) != 0.0 || std::signbit(r); });
  });
  // logical_xor of two Boolean matrices: the symmetric difference.
  timeIt("xor", repeat, [&] {
    return unionMerge<uint8_t>(
        a, ones.data(), b, ones.data(),
        [](uint8_t x, uint8_t y, uint8_t &r) { return (r = x ^ y) != 0; },
        [](uint8_t x, uint8_t &r) { return (r = x) != 0; },
        [](uint8_t y, uint8_t &r) { return (r = y) != 0; });
  });
  // ldexp(A, B): 0 annihilates from the left, exponent 0 is the identity:
  // iterate A, find B.
  timeIt("ldexp", repeat, [&] {
    return leftMerge<double>(
        a, af.data(), b, bi.data(),
        [](double x, int32_t e, double &r) {
          r = std::ldexp(x, e);
          return r != 0.0 || std::signbit(r);
        },
        [](double x, double &r) { return (r = x) != 0.0 || std::signbit(r); });
  });
  // power(A, B) with fills 0: the result's fill is 0^0 = 1 and x^0 = 1, so
  // iterate B, find A; 0^y where A holds nothing.
  timeIt("power", repeat, [&] {
    return leftMerge<double>(
        b, bf.data(), a, af.data(),
        [](double y, double x, double &r) { return (r = std::pow(x, y)) != 1.0; },
        [](double y, double &r) { return (r = std::pow(0.0, y)) != 1.0; });
  });
  return 0;
}
