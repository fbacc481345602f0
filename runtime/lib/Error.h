//===- Error.h - Runtime error reporting ------------------------*- C++ -*-===//

#ifndef SPARSE_ARRAY_RUNTIME_ERROR_H
#define SPARSE_ARRAY_RUNTIME_ERROR_H

#include <csetjmp>
#include <cstdarg>
#include <cstddef>

namespace sa_rt {

/// A library host's recovery point (sa_rt_try): a runtime error on the
/// thread that set it writes its reason here and jumps back.
struct ErrorTrap {
  std::jmp_buf env;
  char message[1024];
};

/// The calling thread's innermost trap, or null.
ErrorTrap *&currentTrap();

/// Reports "sparse_array runtime error: ..." — to the thread's trap when a
/// host set one (sa_rt_try), else on stderr, exiting with status 2.
[[noreturn]] void fatal(const char *format, ...)
    __attribute__((format(printf, 1, 2)));

} // namespace sa_rt

#endif // SPARSE_ARRAY_RUNTIME_ERROR_H
