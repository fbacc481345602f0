"""docs/python.md's code blocks run, in order, in one namespace."""
import os
import re

DOC = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "docs", "python.md"))


def test_tutorial_runs():
    with open(DOC) as f:
        text = f.read()
    blocks = [(text.count("\n", 0, m.start(1)), m.group(1))
              for m in re.finditer(r"```python\n(.*?)```", text, re.S)]
    assert len(blocks) >= 5
    namespace = {}
    for line, block in blocks:
        # Padded to the block's line in the file, so that tracebacks and
        # sa.function (which reads a function's source) see the document.
        exec(compile("\n" * line + block, DOC, "exec"), namespace)
