//===- hand_kernels.cpp - Hand-written merge loops, called in-process -----===//
//
// The hand-written baseline of bench_elementwise.py: the merge loops a C++
// programmer would write for add, logical_xor, ldexp and power over CSR
// matrices, compiled with -O3 -march=native into a shared library that the
// benchmark's sparse_array program calls (sa-run --shared-libs) on the very
// buffers its own kernels read. Same inputs, same memory, same process:
// the comparison is between the loops. Output buffers are allocated at
// their upper bound, uninitialized, with the huge-page advice the
// generated code gives its outputs (runtime/lib/Memory.cpp).
//
// Each entry point takes the positions, coordinates and values of A and B
// (MLIR memref descriptors, C interface) and a repeat count, and prints
// `hand-NAME best-seconds entries value-sum`.
//
//===----------------------------------------------------------------------===//

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>

namespace {

/// A 1-D memref descriptor (MLIR's C interface).
template <typename T> struct Memref {
  T *allocated, *aligned;
  int64_t offset, size, stride;
  const T *data() const { return aligned + offset; }
};

/// A CSR matrix viewed in the caller's buffers.
struct Csr {
  int64_t rows;
  const int64_t *pos, *crd;
  int64_t nnz;
};

Csr view(const Memref<int64_t> *pos, const Memref<int64_t> *crd) {
  return {pos->size - 1, pos->data(), crd->data(), crd->size};
}

// Output buffers: allocated at their upper bound and left uninitialized
// (no zeroing pass; pages are touched only where entries are written).
template <typename T> struct Out {
  std::unique_ptr<int64_t[]> pos, crd;
  std::unique_ptr<T[]> val;
  int64_t nnz = 0;
};

// The same allocation policy as sparse_array's generated code: output
// buffers of 4 MiB and more ask for transparent huge pages
// (runtime/lib/Memory.cpp), so both sides pay the same for first touches
// and the comparison is between the loops.
static void adviseHuge(void *p, size_t bytes) {
  constexpr uintptr_t kHuge = uintptr_t(2) << 20;
  if (bytes < 2 * kHuge)
    return;
  uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + kHuge - 1) & ~(kHuge - 1);
  uintptr_t end = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(kHuge - 1);
  if (end > begin)
    (void)madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE);
}

template <typename T> Out<T> allocate(const Csr &a, const Csr &b) {
  Out<T> o;
  size_t cap = a.nnz + b.nnz;
  o.pos.reset(new int64_t[a.rows + 1]);
  o.crd.reset(new int64_t[cap]);
  o.val.reset(new T[cap]);
  adviseHuge(o.pos.get(), (a.rows + 1) * sizeof(int64_t));
  adviseHuge(o.crd.get(), cap * sizeof(int64_t));
  adviseHuge(o.val.get(), cap * sizeof(T));
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

extern "C" {

// add: union, fill 0 (0 + 0); a sum equal to 0 is the fill and not stored.
void _mlir_ciface_sa_bench_hand_add(Memref<int64_t> *ap, Memref<int64_t> *ac,
                                    Memref<double> *av, Memref<int64_t> *bp,
                                    Memref<int64_t> *bc, Memref<double> *bv,
                                    int64_t repeat) {
  Csr a = view(ap, ac), b = view(bp, bc);
  timeIt("hand-add", repeat, [&] {
    return unionMerge<double>(
        a, av->data(), b, bv->data(),
        [](double x, double y, double &r) { return (r = x + y) != 0.0 || std::signbit(r); },
        [](double x, double &r) { return (r = x) != 0.0 || std::signbit(r); },
        [](double y, double &r) { return (r = y) != 0.0 || std::signbit(r); });
  });
}

// logical_xor of two Boolean matrices: the symmetric difference.
void _mlir_ciface_sa_bench_hand_xor(Memref<int64_t> *ap, Memref<int64_t> *ac,
                                    Memref<uint8_t> *av, Memref<int64_t> *bp,
                                    Memref<int64_t> *bc, Memref<uint8_t> *bv,
                                    int64_t repeat) {
  Csr a = view(ap, ac), b = view(bp, bc);
  timeIt("hand-xor", repeat, [&] {
    return unionMerge<uint8_t>(
        a, av->data(), b, bv->data(),
        [](uint8_t x, uint8_t y, uint8_t &r) { return (r = x ^ y) != 0; },
        [](uint8_t x, uint8_t &r) { return (r = x) != 0; },
        [](uint8_t y, uint8_t &r) { return (r = y) != 0; });
  });
}

// ldexp(A, B): 0 annihilates from the left, exponent 0 is the identity:
// iterate A, find B.
void _mlir_ciface_sa_bench_hand_ldexp(Memref<int64_t> *ap, Memref<int64_t> *ac,
                                      Memref<double> *av, Memref<int64_t> *bp,
                                      Memref<int64_t> *bc, Memref<int32_t> *bv,
                                      int64_t repeat) {
  Csr a = view(ap, ac), b = view(bp, bc);
  timeIt("hand-ldexp", repeat, [&] {
    return leftMerge<double>(
        a, av->data(), b, bv->data(),
        [](double x, int32_t e, double &r) {
          r = std::ldexp(x, e);
          return r != 0.0 || std::signbit(r);
        },
        [](double x, double &r) { return (r = x) != 0.0 || std::signbit(r); });
  });
}

// power(A, B) with fills 0: the result's fill is 0^0 = 1 and x^0 = 1, so
// iterate B, find A; 0^y where A holds nothing.
void _mlir_ciface_sa_bench_hand_power(Memref<int64_t> *ap, Memref<int64_t> *ac,
                                      Memref<double> *av, Memref<int64_t> *bp,
                                      Memref<int64_t> *bc, Memref<double> *bv,
                                      int64_t repeat) {
  Csr a = view(ap, ac), b = view(bp, bc);
  timeIt("hand-power", repeat, [&] {
    return leftMerge<double>(
        b, bv->data(), a, av->data(),
        [](double y, double x, double &r) { return (r = std::pow(x, y)) != 1.0; },
        [](double y, double &r) { return (r = std::pow(0.0, y)) != 1.0; });
  });
}

} // extern "C"
