"""The on-disk kernel cache: a second process loads what the first
compiled (no compilation), with the same results; a damaged entry is
compiled again and replaced; no cache directory means no cache."""
import os
import subprocess
import sys

PROGRAM = r"""
import json, sys
import numpy as np
import sparse_array as sa
from sparse_array import _compile
d = np.array([[1.0, 0.0, -2.0], [0.0, np.inf, 0.0], [3.0, 0.0, -0.0]])
a = sa.asarray(d, format="csr")
r = [np.minimum(a, a.T).todense(), a.sum(axis=0).todense(), (a @ np.ones(3)).todense()]
json.dump({"from_cache": [m.from_cache for m in _compile._CACHE.values()],
           "results": [x.tolist() for x in r]}, sys.stdout)
"""


def _run(cache):
    env = dict(os.environ, SPARSE_ARRAY_CACHE_DIR=cache)
    out = subprocess.run([sys.executable, "-c", PROGRAM], env=env, check=True,
                         capture_output=True, text=True).stdout
    import json
    return json.loads(out.replace("Infinity", "1e999").replace("NaN", "null"))


def test_second_process_loads(tmp_path):
    cache = str(tmp_path / "kernels")
    first = _run(cache)
    assert first["from_cache"] and not any(first["from_cache"])
    entries = sorted(os.listdir(cache))
    assert len(entries) == len(first["from_cache"])
    assert all(e.endswith(".so") for e in entries)
    second = _run(cache)
    assert all(second["from_cache"])
    assert second["results"] == first["results"]
    assert sorted(os.listdir(cache)) == entries


def test_damaged_entry_is_replaced(tmp_path):
    cache = str(tmp_path / "kernels")
    _run(cache)
    victim = os.path.join(cache, sorted(os.listdir(cache))[0])
    with open(victim, "wb") as f:
        f.write(b"not a shared library")
    again = _run(cache)
    assert again["from_cache"].count(False) == 1
    assert all(_run(cache)["from_cache"])


def test_no_cache_dir(tmp_path):
    out = _run("")
    assert not any(out["from_cache"])
