//===- Error.cpp - Runtime errors: exit, or back to a library host --------===//
//
// A program run by sa-run stops on bad data (exit 2). A library host
// (Python, the C API) cannot let a call end the process: it runs the call
// under sa_rt_try, and an error longjmps back to it with the reason. The
// frames skipped are generated code (no destructors) and runtime frames;
// memory they had allocated is not freed (documented in the header).
//
//===----------------------------------------------------------------------===//

#include "Error.h"

#include "SparseArrayRuntime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

sa_rt::ErrorTrap *&sa_rt::currentTrap() {
  static thread_local ErrorTrap *trap = nullptr;
  return trap;
}

void sa_rt::fatal(const char *format, ...) {
  va_list args;
  va_start(args, format);
  if (ErrorTrap *trap = currentTrap()) {
    std::vsnprintf(trap->message, sizeof(trap->message), format, args);
    va_end(args);
    std::longjmp(trap->env, 1);
  }
  std::fflush(stdout);
  std::fputs("sparse_array runtime error: ", stderr);
  std::vfprintf(stderr, format, args);
  va_end(args);
  std::fputc('\n', stderr);
  std::exit(2);
}

extern "C" int sa_rt_try(void (*fn)(void *), void *arg, char *message,
                         size_t size) {
  sa_rt::ErrorTrap trap;
  trap.message[0] = '\0';
  sa_rt::ErrorTrap *outer = sa_rt::currentTrap();
  sa_rt::currentTrap() = &trap;
  // Volatile: read after a longjmp.
  volatile int failed = 0;
  if (setjmp(trap.env) == 0)
    fn(arg);
  else
    failed = 1;
  sa_rt::currentTrap() = outer;
  if (failed && message && size) {
    std::strncpy(message, trap.message, size - 1);
    message[size - 1] = '\0';
  }
  return failed;
}
