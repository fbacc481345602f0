"""The package's layering (docs/python.md, "How it works"): each module
imports the modules it uses at load time, and the import graph has no
cycle — no module reaches one above it from inside a function. Array's
methods reach the operations through _array.OPS, bound by __init__."""
import ast
import os

import sparse_array

PACKAGE = os.path.dirname(sparse_array.__file__)


def _modules():
    return sorted(f[:-3] for f in os.listdir(PACKAGE) if f.endswith(".py"))


def _relative_imports(node):
    """Names of the package's modules an import statement loads."""
    if not isinstance(node, ast.ImportFrom) or node.level != 1:
        return []
    if node.module:
        return [node.module]
    return [alias.name for alias in node.names]


def _graph():
    top, nested = {}, {}
    for name in _modules():
        with open(os.path.join(PACKAGE, name + ".py")) as f:
            tree = ast.parse(f.read())
        top[name] = {m for stmt in tree.body for m in _relative_imports(stmt)}
        # Load-time imports may sit under a top-level `if` (an optional
        # dependency already loaded); any inside a function or class is
        # nested.
        nested[name] = sorted(
            (node.lineno, m) for stmt in tree.body
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            for node in ast.walk(stmt) for m in _relative_imports(node))
        top[name] |= {m for stmt in tree.body if isinstance(stmt, ast.If)
                      for node in ast.walk(stmt) for m in _relative_imports(node)}
    return top, nested


def test_no_import_inside_functions():
    _, nested = _graph()
    assert {k: v for k, v in nested.items() if v} == {}


def test_import_graph_is_acyclic():
    top, _ = _graph()
    state = {}

    def visit(m, path):
        if state.get(m) == "done":
            return
        assert state.get(m) != "open", "import cycle: " + " -> ".join(path + [m])
        state[m] = "open"
        for n in sorted(top.get(m, ())):
            visit(n, path + [m])
        state[m] = "done"

    for m in top:
        visit(m, [])


def test_array_methods_are_bound():
    a = sparse_array.asarray([[1.0, 0.0], [0.0, 2.0]], format="csr")
    assert float(a.sum()) == 3.0 and a.T.shape == (2, 2)
