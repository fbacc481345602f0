//===- Inputs.cpp - The program's command-line inputs ---------------------===//

#include "SparseArrayRuntime.h"
#include "Error.h"

#include <cstdlib>
#include <string>
#include <vector>

namespace {
std::vector<std::string> &inputs() {
  static std::vector<std::string> list;
  return list;
}
} // namespace

extern "C" void sa_rt_set_inputs(int64_t count, const char *const *paths) {
  inputs().clear();
  for (int64_t i = 0; i < count; ++i)
    inputs().emplace_back(paths[i]);
}

extern "C" int64_t sa_rt_num_inputs(void) {
  return static_cast<int64_t>(inputs().size());
}

extern "C" const char *sa_rt_input_path(int64_t k) {
  // Without command-line inputs (a program run by mlir-runner), upstream's
  // convention: the environment variable TENSOR<k>.
  if (inputs().empty() && k >= 0) {
    std::string name = "TENSOR" + std::to_string(k);
    if (const char *path = std::getenv(name.c_str()))
      return path;
  }
  if (k < 0 || k >= sa_rt_num_inputs())
    sa_rt::fatal("the program reads input #%lld but %lld input(s) were given "
                 "(sa-run PROGRAM -- INPUT...)",
                 static_cast<long long>(k),
                 static_cast<long long>(sa_rt_num_inputs()));
  return inputs()[k].c_str();
}
