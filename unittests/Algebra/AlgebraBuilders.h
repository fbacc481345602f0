//===- AlgebraBuilders.h - Short names for algebras in tests ----*- C++ -*-===//

#ifndef SPARSEARRAY_UNITTESTS_ALGEBRABUILDERS_H
#define SPARSEARRAY_UNITTESTS_ALGEBRABUILDERS_H

#include "SparseArray/Algebra/IterationAlgebra.h"

#include <initializer_list>

namespace mlir::sparse_array::testing {
using A = IterationAlgebra;
inline A x(unsigned k) { return A::leaf(k); }
inline A no(A a) { return A::complement(a); }
inline A u(std::initializer_list<A> as) { return A::unite(as); }
inline A n(std::initializer_list<A> as) { return A::intersect(as); }
} // namespace mlir::sparse_array::testing

#endif // SPARSEARRAY_UNITTESTS_ALGEBRABUILDERS_H
