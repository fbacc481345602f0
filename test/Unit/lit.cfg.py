# -*- Python -*-
# Runs the GoogleTest binaries as one lit suite, so `check-sparse-array`
# reports unit and regression tests together.

import os

import lit.formats

config.name = "SPARSE_ARRAY-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.sparse_array_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
