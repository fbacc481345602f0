//===- SpecFixture.h - Format specs for the runtime's tests -----*- C++ -*-===//

#ifndef SPARSE_ARRAY_UNITTESTS_RUNTIME_SPECFIXTURE_H
#define SPARSE_ARRAY_UNITTESTS_RUNTIME_SPECFIXTURE_H

#include "Format.h"

#include "gtest/gtest.h"

#include <string>

namespace sa_rt::testing {

/// The spec `text` describes, failing the test when it does not parse.
inline FormatSpec spec(const std::string &text) {
  FormatSpec s;
  std::string error;
  EXPECT_TRUE(FormatSpec::parse(text, s, error)) << text << ": " << error;
  return s;
}

} // namespace sa_rt::testing

#endif // SPARSE_ARRAY_UNITTESTS_RUNTIME_SPECFIXTURE_H
