//===- TestPasses.h - sparse_array test-only passes -------------*- C++ -*-===//

#ifndef SPARSEARRAY_TEST_LIB_TESTPASSES_H
#define SPARSEARRAY_TEST_LIB_TESTPASSES_H

namespace mlir {
namespace sparse_array {
namespace test {

/// Registers the passes of TestPasses.td with the pass registry (sa-opt).
void registerTestPasses();

} // namespace test
} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_TEST_LIB_TESTPASSES_H
