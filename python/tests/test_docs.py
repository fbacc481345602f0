"""docs/python.md's code blocks run, in order, in one namespace."""
import os
import re

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "python.md")


def test_tutorial_runs():
    with open(DOC) as f:
        blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
    assert len(blocks) >= 4
    namespace = {}
    for block in blocks:
        exec(compile(block, DOC, "exec"), namespace)
