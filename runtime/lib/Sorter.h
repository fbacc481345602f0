//===- Sorter.h - In-place lexicographic sort of COO entries ----*- C++ -*-===//
//
// The packer's sort (Array.cpp): coordinate columns and values permuted
// together in place. Included by Array.cpp only.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_ARRAY_RUNTIME_SORTER_H
#define SPARSE_ARRAY_RUNTIME_SORTER_H

#include "Array.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace sa_rt {
namespace detail {

//===----------------------------------------------------------------------===//
// Sorting (in place: no per-entry scratch, so packing stays within a small
// factor of the final storage)
//===----------------------------------------------------------------------===//

template <typename V> struct Sorter {
  std::vector<uint64_t *> col; // level order
  V *val;
  std::vector<uint64_t> dim; // per level
  // Where the arrays are owned (the Coo's slots), so that a sort that
  // replaces them by sorted copies can hand the copies over.
  std::vector<uint64_t **> colSlot;
  void **valSlot = nullptr;

  /// Stable counting sort of all n entries by level 0, scattering one
  /// column at a time into a fresh array: sequential reads and independent
  /// writes stall far less than in-place swap chains, and only one extra
  /// column is alive at a time. Stability keeps the file's order within a
  /// bucket (often already sorted: column-major files read as CSR).
  void scatterSortTop(uint64_t n) {
    uint64_t d = dim[0];
    std::vector<uint64_t> start(d + 1, 0);
    for (uint64_t e = 0; e < n; ++e)
      ++start[col[0][e] + 1];
    for (uint64_t b = 0; b < d; ++b)
      start[b + 1] += start[b];
    // The keys, narrowed to 32 bits when they fit: the 64-bit column is
    // rebuilt as runs at the end, so it need not be alive meanwhile.
    if (d <= UINT32_MAX && n <= UINT32_MAX) {
      // Keys narrowed to 32 bits in place (bytewise, so no aliasing
      // assumptions: slot e of 4 bytes only overwrites 8-byte slots already
      // read), then the tail is given back.
      char *bytes = reinterpret_cast<char *>(col[0]);
      for (uint64_t e = 0; e < n; ++e) {
        uint64_t wide;
        std::memcpy(&wide, bytes + 8 * e, 8);
        uint32_t narrow = static_cast<uint32_t>(wide);
        std::memcpy(bytes + 4 * e, &narrow, 4);
      }
      uint32_t *key32 = static_cast<uint32_t *>(
          checkedRealloc(col[0], n, sizeof(uint32_t), "sorting"));
      col[0] = nullptr;
      if (n < (1u << 20)) {
        // Cache-sized: turn the keys into destinations and permute in
        // place (no extra column at all).
        for (uint64_t e = 0; e < n; ++e)
          key32[e] = static_cast<uint32_t>(start[key32[e]]++);
        std::copy_backward(start.begin(), start.begin() + d,
                           start.begin() + d + 1);
        start[0] = 0;
        for (uint64_t e = 0; e < n; ++e)
          while (key32[e] != e) {
            uint32_t to = key32[e];
            for (unsigned l = 1; l < numLevels(); ++l)
              std::swap(col[l][e], col[l][to]);
            std::swap(val[e], val[to]);
            std::swap(key32[e], key32[to]);
          }
      } else {
        scatterAll(n, start, key32);
      }
      *colSlot[0] = col[0] = static_cast<uint64_t *>(
          checkedRealloc(key32, n, sizeof(uint64_t), "coordinates"));
    } else {
      scatterAll(n, start, col[0]);
    }
    // The key column itself becomes runs of equal coordinates.
    for (uint64_t b = 0; b < d; ++b)
      std::fill(col[0] + start[b], col[0] + start[b + 1], b);
    for (uint64_t b = 0; b < d; ++b)
      if (start[b + 1] - start[b] > 1)
        sort(start[b], start[b + 1], 1);
  }

  /// Scatters levels 1.. and the values by `key` (one bucket cursor array,
  /// restored after each pass).
  template <typename K>
  void scatterAll(uint64_t n, std::vector<uint64_t> &start, const K *key) {
    uint64_t d = dim[0];
    auto scatter = [&](auto *src) {
      using T = std::remove_pointer_t<decltype(src)>;
      T *dst = static_cast<T *>(checkedMalloc(n, sizeof(T), "sorting"));
      for (uint64_t e = 0; e < n; ++e)
        dst[start[key[e]]++] = src[e];
      // start[b] advanced to the old start[b + 1]: shift back.
      std::copy_backward(start.begin(), start.begin() + d,
                         start.begin() + d + 1);
      start[0] = 0;
      std::free(src);
      return dst;
    };
    for (unsigned l = 1; l < numLevels(); ++l)
      *colSlot[l] = col[l] = scatter(col[l]);
    val = scatter(val);
    *valSlot = val;
  }

  unsigned numLevels() const { return static_cast<unsigned>(col.size()); }

  void swap(uint64_t a, uint64_t b) {
    for (uint64_t *c : col)
      std::swap(c[a], c[b]);
    std::swap(val[a], val[b]);
  }
  bool less(uint64_t a, uint64_t b, unsigned from) const {
    for (unsigned l = from; l < numLevels(); ++l)
      if (col[l][a] != col[l][b])
        return col[l][a] < col[l][b];
    return false;
  }
  bool isSorted(uint64_t lo, uint64_t hi, unsigned from) const {
    for (uint64_t e = lo + 1; e < hi; ++e)
      if (less(e, e - 1, from))
        return false;
    return true;
  }
  void insertionSort(uint64_t lo, uint64_t hi, unsigned from) {
    for (uint64_t i = lo + 1; i < hi; ++i)
      for (uint64_t j = i; j > lo && less(j, j - 1, from); --j)
        swap(j, j - 1);
  }

  /// American flag sort of [lo, hi) into `buckets` by key(e); then each
  /// bucket is handed to `next(lo, hi)`.
  template <typename Key, typename Next>
  void flagSort(uint64_t lo, uint64_t hi, uint64_t buckets, Key key,
                Next next) {
    std::vector<uint64_t> start(buckets + 1, 0);
    for (uint64_t e = lo; e < hi; ++e)
      ++start[key(e) + 1];
    start[0] = lo;
    for (uint64_t b = 0; b < buckets; ++b)
      start[b + 1] += start[b];
    std::vector<uint64_t> cursor(start.begin(), start.end() - 1);
    for (uint64_t b = 0; b < buckets; ++b) {
      while (cursor[b] < start[b + 1]) {
        uint64_t k = key(cursor[b]);
        if (k == b)
          ++cursor[b];
        else
          swap(cursor[b], cursor[k]++);
      }
    }
    for (uint64_t b = 0; b < buckets; ++b)
      if (start[b + 1] - start[b] > 1)
        next(start[b], start[b + 1]);
  }

  /// Sorts [lo, hi) lexicographically by levels from..L-1.
  void sort(uint64_t lo, uint64_t hi, unsigned from) {
    uint64_t n = hi - lo;
    if (n < 2 || from == numLevels() || isSorted(lo, hi, from))
      return;
    if (n <= 24) {
      insertionSort(lo, hi, from);
      return;
    }
    const uint64_t *c = col[from];
    uint64_t d = dim[from];
    // The stable scatter keeps a file's order within each bucket, which
    // is usually sorted already (column-major and symmetric files read as
    // CSR); tiny ranges are sorted in place.
    if (from == 0 && lo == 0 && n >= 4096 && d <= 2 * n + 1024 &&
        valSlot) {
      scatterSortTop(n);
      return;
    }
    if (d <= 2 * n + 1024) {
      // One counting pass over the whole coordinate range.
      flagSort(lo, hi, d, [c](uint64_t e) { return c[e]; },
               [&](uint64_t a, uint64_t b) { sort(a, b, from + 1); });
      return;
    }
    // Large dimension: comparison sort for moderate ranges, else MSD radix
    // by bytes of the coordinate (256 buckets per pass would dominate
    // small ranges).
    if (n <= 65536) {
      permutationSort(lo, hi, from);
      return;
    }
    int shift = 0;
    while (shift < 56 && ((d - 1) >> (shift + 8)) != 0)
      shift += 8;
    sortBytes(lo, hi, from, shift);
  }

  /// Sorts a range via an index permutation, then gathers the columns of
  /// levels from.. and the values (levels before `from` are constant in
  /// the range). Scratch is proportional to the range only.
  void permutationSort(uint64_t lo, uint64_t hi, unsigned from) {
    uint64_t n = hi - lo;
    std::vector<uint32_t> perm(n);
    for (uint64_t i = 0; i < n; ++i)
      perm[i] = static_cast<uint32_t>(i);
    std::sort(perm.begin(), perm.end(), [&](uint32_t a, uint32_t b) {
      return less(lo + a, lo + b, from);
    });
    std::vector<uint64_t> tmp(n);
    for (unsigned l = from; l < numLevels(); ++l) {
      for (uint64_t i = 0; i < n; ++i)
        tmp[i] = col[l][lo + perm[i]];
      std::copy(tmp.begin(), tmp.end(), col[l] + lo);
    }
    std::vector<V> tv(n);
    for (uint64_t i = 0; i < n; ++i)
      tv[i] = val[lo + perm[i]];
    std::copy(tv.begin(), tv.end(), val + lo);
  }

  void sortBytes(uint64_t lo, uint64_t hi, unsigned from, int shift) {
    uint64_t n = hi - lo;
    if (n < 2)
      return;
    if (n <= 24) {
      insertionSort(lo, hi, from);
      return;
    }
    const uint64_t *c = col[from];
    flagSort(lo, hi, 256, [c, shift](uint64_t e) { return (c[e] >> shift) & 255; },
             [&](uint64_t a, uint64_t b) {
               if (shift == 0)
                 sort(a, b, from + 1);
               else
                 sortBytes(a, b, from, shift - 8);
             });
  }
};

} // namespace detail
} // namespace sa_rt

#endif // SPARSE_ARRAY_RUNTIME_SORTER_H
