"""A fixed set of random NumPy programs (fuzz_programs.py) and idioms
(fuzz_idioms.py) through the package, eagerly, lazily and mixed, against
NumPy bit for bit. More on demand:
PYTHONPATH=build/python python3 python/tests/fuzz_programs.py --count 2000
--seed 42."""
import numpy as np
import pytest

import fuzz_idioms
import fuzz_programs


@pytest.mark.parametrize("seed", range(4))
def test_random_programs(seed):
    rng = np.random.default_rng(1000 + seed)
    problems = [p for p in (fuzz_programs.run_program(rng, i) for i in range(40)) if p]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("seed", range(3))
def test_random_idioms(seed):
    # NumPy idioms (fuzz_idioms.py): axes in any order, 0-d operands,
    # reflected operators, constant powers, NaN bits through moves.
    rng = np.random.default_rng(2000 + seed)
    problems = [p for p in (fuzz_idioms.run_program(rng, i) for i in range(80)) if p]
    assert not problems, "\n".join(problems)
