//===- Error.h - Runtime error reporting ------------------------*- C++ -*-===//

#ifndef SPARSE_ARRAY_RUNTIME_ERROR_H
#define SPARSE_ARRAY_RUNTIME_ERROR_H

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace sa_rt {

/// Prints "sparse_array runtime error: ..." and exits with status 2.
[[noreturn]] inline void fatal(const char *format, ...)
    __attribute__((format(printf, 1, 2)));

[[noreturn]] inline void fatal(const char *format, ...) {
  std::fflush(stdout);
  std::fputs("sparse_array runtime error: ", stderr);
  va_list args;
  va_start(args, format);
  std::vfprintf(stderr, format, args);
  va_end(args);
  std::fputc('\n', stderr);
  std::exit(2);
}

} // namespace sa_rt

#endif // SPARSE_ARRAY_RUNTIME_ERROR_H
