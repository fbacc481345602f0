# Shared set-up for scripts/test.sh and scripts/demo.sh: install the Debian
# packages that are missing, configure build/ once, build incrementally.
# Quiet on success; on failure, the log of the failing step is printed.
# shellcheck shell=bash

SA_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SA_BUILD=${SA_BUILD_DIR:-$SA_ROOT/build}
SA_LLVM=/usr/lib/llvm-22

# Everything the project needs from Debian (LLVM/MLIR 22 toolchain, the test
# tools, GoogleTest, Python for lit, numpy/scipy as the independent Matrix
# Market reader of the storage tests, compiler-rt for the sanitizer build;
# pydata/sparse and matplotlib for bench/shape; pytest for the Python
# package's tests; Dask and its distributed scheduler for sparse_array.dask).
SA_PACKAGES=(
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools clang-22 lld-22
  libomp-22-dev libclang-rt-22-dev ninja-build cmake ccache libgtest-dev
  python3 python3-numpy python3-scipy libgraphblas-dev
  python3-sparse python3-matplotlib python3-pytest
  python3-dask python3-distributed
)

sa_log() { printf '%s\n' "$*" >&2; }
sa_die() { sa_log "error: $*"; exit 1; }

# Runs a command with its output in a log file; prints the log's tail and
# fails when the command fails.
sa_quiet() {
  local log=$1; shift
  if ! "$@" >"$log" 2>&1; then
    sa_log "error: '$*' failed; last lines of $log:"
    tail -n 60 "$log" >&2
    return 1
  fi
}

sa_ensure_packages() {
  local missing=() pkg
  for pkg in "${SA_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' \
      || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || sa_die "missing packages (${missing[*]}) and no root/sudo to install them"
    sudo=(sudo)
  fi
  sa_log "installing missing Debian packages: ${missing[*]}"
  local log
  log=$(mktemp /tmp/sparse-array-apt.XXXXXX.log)
  sa_quiet "$log" "${sudo[@]}" apt-get update -q
  sa_quiet "$log" "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${missing[@]}"
  rm -f "$log"
}

sa_configure() {
  [ -f "$SA_BUILD/build.ninja" ] && return 0
  mkdir -p "$SA_BUILD"
  local launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  sa_log "configuring $SA_BUILD"
  sa_quiet "$SA_BUILD/configure.log" cmake -G Ninja -S "$SA_ROOT" -B "$SA_BUILD" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DMLIR_DIR="$SA_LLVM/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$SA_LLVM/bin/lit" \
    "${launcher[@]}"
}

sa_build() {
  # ninja prints "no work to do" when up to date; keep the log either way.
  sa_quiet "$SA_BUILD/build.log" cmake --build "$SA_BUILD" -- "$@"
}

# The runtime and sa-io alone, built with AddressSanitizer and UBSan
# (runtime/CMakeLists.txt configures on its own).
SA_SANITIZE_BUILD=$SA_BUILD/sanitize
sa_build_sanitized() {
  if [ ! -f "$SA_SANITIZE_BUILD/build.ninja" ]; then
    local launcher=()
    command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    mkdir -p "$SA_SANITIZE_BUILD"
    sa_quiet "$SA_SANITIZE_BUILD/configure.log" cmake -G Ninja \
      -S "$SA_ROOT/runtime" -B "$SA_SANITIZE_BUILD" \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-22 \
      -DSA_RT_SANITIZE=ON "${launcher[@]}"
  fi
  sa_quiet "$SA_SANITIZE_BUILD/build.log" cmake --build "$SA_SANITIZE_BUILD"
}

sa_setup() {
  sa_ensure_packages
  sa_configure
  sa_build
}
