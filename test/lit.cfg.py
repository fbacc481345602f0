# -*- Python -*-
# lit configuration of the sparse_array test suite.

import os
import sys

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "SPARSE_ARRAY"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs", "CMakeLists.txt",
                   "README.md"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.sparse_array_obj_root, "test")

# Captured FileCheck variables must not leak across CHECK-LABELs.
config.environment["FILECHECK_OPTS"] = (
    "-enable-var-scope --allow-unused-prefixes=false")

llvm_config.use_default_substitutions()
llvm_config.with_system_environment(["HOME", "TMP", "TEMP"])

# Run every sa-opt test through a print/parse round trip as well when asked.
sa_opt = "sa-opt"
if os.environ.get("SPARSE_ARRAY_OPT_CHECK_IR_ROUNDTRIP"):
    sa_opt = "sa-opt --verify-roundtrip"

tool_dirs = [config.sparse_array_tools_dir, config.llvm_tools_dir]
tools = [
    ToolSubst("sa-opt", command=sa_opt.split()[0],
              extra_args=sa_opt.split()[1:], unresolved="fatal"),
    ToolSubst("sa-run", unresolved="fatal"),
    ToolSubst("mlir-runner", unresolved="ignore"),
    ToolSubst("mlir-opt", unresolved="ignore"),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)
# FileCheck, not, count from the LLVM tools directory.
llvm_config.add_tool_substitutions(["FileCheck", "not", "count"],
                                   [config.llvm_tools_dir])

lib = config.llvm_lib_dir
shlib = config.llvm_shlib_ext
config.substitutions.append(("%mlir_runner_utils",
                             os.path.join(lib, "libmlir_runner_utils" + shlib)))
config.substitutions.append(("%mlir_c_runner_utils",
                             os.path.join(lib, "libmlir_c_runner_utils" + shlib)))
config.substitutions.append(("%libomp", os.path.join(lib, "libomp" + shlib)))
config.substitutions.append(("%sa_runtime_lib",
                             os.path.join(config.sparse_array_lib_dir,
                                          "libsparse_array_runtime" + shlib)))
config.substitutions.append(("%sa_src_root", config.sparse_array_src_root))
config.substitutions.append(("%sa_obj_root", config.sparse_array_obj_root))
config.substitutions.append(("%cxx", config.cxx_compiler))
config.substitutions.append(("%cc", config.c_compiler))

# Building an out-of-tree consumer of the installed package (test/Install).
import shutil
if shutil.which("cmake") and shutil.which("ninja"):
    config.available_features.add("cmake")

# x86's floating-point unit returns a negative NaN for invalid operations;
# tests that see a NaN's sign (copysign) are written for it.
import platform
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86_64")

# Real matrices live beside the checkout, never inside it; tests that read
# them say `REQUIRES: shared-data` and are skipped in a bare checkout.
shared_data = os.path.normpath(
    os.path.join(config.sparse_array_src_root, "..", "shared", "data"))
if os.path.isdir(shared_data):
    config.available_features.add("shared-data")
config.substitutions.append(("%shared_data", shared_data))

# The independent reference reader (scipy.io.mmread) for the storage tests.
try:
    import scipy.io  # noqa: F401
    config.available_features.add("scipy")
except ImportError:
    pass

# sa-io (runtime only). `lit --param sa_io=PATH` substitutes another build of
# it: scripts/test.sh runs test/Runtime again with the AddressSanitizer+UBSan
# build.
sa_io = lit_config.params.get(
    "sa_io", os.path.join(config.sparse_array_tools_dir, "sa-io"))
config.substitutions.append(("%sa_io", sa_io))
if lit_config.params.get("sa_io"):
    config.available_features.add("sanitized-runtime")

# Upstream's sparsifier and runner: the importer's equivalence tests run each
# program both ways.
if os.path.exists(os.path.join(config.llvm_tools_dir, "mlir-opt")) and \
        os.path.exists(os.path.join(config.llvm_tools_dir, "mlir-runner")):
    config.available_features.add("mlir-sparsifier")

# Upstream's own sparse_tensor integration tests (reference data beside the
# checkout, never copied in): test/Import/Upstream runs each through the
# importer and checks it with the file's CHECK lines.
upstream_tests = os.path.normpath(
    os.path.join(config.sparse_array_src_root, "..", "shared",
                 "upstream-sparse-tensor"))
if os.path.isdir(upstream_tests):
    config.available_features.add("upstream-sparse-tensor")
config.substitutions.append(("%upstream_tests", upstream_tests))
config.substitutions.append((
    "%run_upstream_imported",
    " ".join([sys.executable, os.path.join(config.sparse_array_src_root, "test",
                                      "Import", "Upstream", "Inputs",
                                      "run_imported.py"),
              "--sa-opt", os.path.join(config.sparse_array_tools_dir, "sa-opt"),
              "--runtime", os.path.join(config.sparse_array_lib_dir,
                                        "libsparse_array_runtime" + shlib),
              "--libomp", os.path.join(lib, "libomp" + shlib),
              "--llvm-bin", config.llvm_tools_dir, "--llvm-lib", lib])))

if os.path.exists(os.path.join(lib, "libomp" + shlib)):
    config.available_features.add("openmp")

# ThreadSanitizer over compiled kernels: clang instruments the lowered
# programs, LLVM's Archer tool tells TSan about OpenMP's synchronization.
clang = os.path.join(config.llvm_tools_dir, "clang")
archer = os.path.join(lib, "libarcher" + shlib)
config.substitutions.append(("%clang", clang))
config.substitutions.append(("%libarcher", archer))
if os.path.exists(clang) and os.path.exists(archer) and \
        "openmp" in config.available_features:
    config.available_features.add("tsan")

config.environment["PATH"] = os.pathsep.join(
    [config.sparse_array_tools_dir, config.llvm_tools_dir,
     config.environment.get("PATH", "")])
