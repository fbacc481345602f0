//===- sa-io.cpp - Read, convert and print arrays with the runtime --------===//
//
//   sa-io [options] FILE SPEC [SPEC...]
//
// Reads FILE into the first SPEC, converts the array through every further
// SPEC in turn and prints the result in the text format. Options:
//   --file-format=F   auto (default), mtx, tns or text
//   --write=PATH      write instead of printing (.mtx: Matrix Market)
//   --no-output       neither print nor write (for timing)
//   --stats           report seconds spent reading+packing, peak resident
//                     memory and the bytes of the final buffers on stderr
//
// Only the runtime library is linked, so this is what the sanitizer build
// and the I/O benchmark run.
//
//===----------------------------------------------------------------------===//

#include "SparseArrayRuntime.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <sys/resource.h>
#include <vector>

/// Peak resident set of this process image in KiB. VmHWM starts afresh at
/// exec, unlike getrusage's ru_maxrss, which Linux carries over from the
/// (possibly much larger) parent that forked us.
static long peakRssKb() {
  if (std::FILE *f = std::fopen("/proc/self/status", "r")) {
    char line[256];
    long kb = -1;
    while (std::fgets(line, sizeof(line), f))
      if (std::sscanf(line, "VmHWM: %ld kB", &kb) == 1)
        break;
    std::fclose(f);
    if (kb >= 0)
      return kb;
  }
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

int main(int argc, char **argv) {
  std::string fileFormat = "auto", writePath;
  bool output = true, stats = false;
  std::vector<const char *> positional;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--file-format=", 0) == 0)
      fileFormat = arg.substr(14);
    else if (arg.rfind("--write=", 0) == 0)
      writePath = arg.substr(8);
    else if (arg == "--no-output")
      output = false;
    else if (arg == "--stats")
      stats = true;
    else if (arg == "--help" || arg == "-h") {
      std::printf("usage: sa-io [--file-format=F] [--write=PATH] "
                  "[--no-output] [--stats] FILE SPEC [SPEC...]\n");
      return 0;
    } else if (arg.rfind("--", 0) == 0) {
      std::fprintf(stderr, "sa-io: unknown option '%s'\n", arg.c_str());
      return 1;
    } else
      positional.push_back(argv[i]);
  }
  if (positional.size() < 2) {
    std::fprintf(stderr, "usage: sa-io [options] FILE SPEC [SPEC...]\n");
    return 1;
  }
  long baseKb = peakRssKb();
  auto start = std::chrono::steady_clock::now();
  sa_rt_array *array =
      sa_rt_array_read(positional[0], positional[1], fileFormat.c_str());
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  if (stats) {
    std::fprintf(stderr,
                 "read_seconds=%.6f peak_rss_kb=%ld base_rss_kb=%ld "
                 "storage_bytes=%llu\n",
                 seconds, peakRssKb(), baseKb,
                 static_cast<unsigned long long>(
                     sa_rt_array_storage_bytes(array)));
  }
  for (size_t i = 2; i < positional.size(); ++i) {
    sa_rt_array *next = sa_rt_array_convert(array, positional[i]);
    sa_rt_array_free(array);
    array = next;
  }
  if (!writePath.empty())
    sa_rt_array_write(array, writePath.c_str());
  else if (output)
    sa_rt_array_print(array);
  sa_rt_array_free(array);
  return 0;
}
