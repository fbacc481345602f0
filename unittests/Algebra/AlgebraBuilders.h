//===- AlgebraBuilders.h - Short names for algebras in tests ----*- C++ -*-===//

#ifndef SPARSEARRAY_UNITTESTS_ALGEBRABUILDERS_H
#define SPARSEARRAY_UNITTESTS_ALGEBRABUILDERS_H

#include "SparseArray/Algebra/IterationAlgebra.h"

#include <initializer_list>
#include <random>

namespace mlir::sparse_array::testing {
using A = IterationAlgebra;
inline A x(unsigned k) { return A::leaf(k); }
inline A no(A a) { return A::complement(a); }
inline A u(std::initializer_list<A> as) { return A::unite(as); }
inline A n(std::initializer_list<A> as) { return A::intersect(as); }

/// Random algebra over `numOperands` leaves.
inline A randomAlgebra(std::mt19937 &rng, unsigned numOperands,
                       unsigned depth) {
  std::uniform_int_distribution<unsigned> pick(0, depth == 0 ? 1 : 4);
  unsigned kind = pick(rng);
  auto leaf = [&] { return x(rng() % numOperands); };
  switch (kind) {
  case 0:
    return leaf();
  case 1:
    return no(leaf());
  case 2:
    return no(randomAlgebra(rng, numOperands, depth - 1));
  case 3:
    return u({randomAlgebra(rng, numOperands, depth - 1),
              randomAlgebra(rng, numOperands, depth - 1)});
  default:
    return n({randomAlgebra(rng, numOperands, depth - 1),
              randomAlgebra(rng, numOperands, depth - 1)});
  }
}
} // namespace mlir::sparse_array::testing

#endif // SPARSEARRAY_UNITTESTS_ALGEBRABUILDERS_H
