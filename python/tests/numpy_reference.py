"""NumPy's portable loops as the tests' reference. On AVX-512 machines
NumPy 1.24 computes float power, exp, log, sin ... with SVML, which is not
correctly rounded and differs from its own scalar loops (and from libm,
which the compiled kernels call) by an ulp: np.power(2.0**53, x) on 536 of
2,001 points. Import this before NumPy's first import (conftest.py, the
fuzz scripts); scripts/test.sh sets the variable too."""
import os

os.environ.setdefault(
    "NPY_DISABLE_CPU_FEATURES",
    "AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL")
