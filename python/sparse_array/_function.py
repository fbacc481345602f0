"""User functions written in Python, translated into sparse_array.func
(seed 000: a function with properties, or an explicit iteration algebra).

    @sa.function(commutative=True, associative=True, identity=0.0)
    def fadd(x: float, y: float) -> float:
        return x + y

The body may use arithmetic (+ - * / ** on floats; + - * & | ^ << >> on
ints), comparisons (chained too), `and`/`or`/`not`, conditional
expressions, assignments, if/elif/else, `for i in range(N)` with a constant
N, and math.sqrt/exp/log/sin/cos/tan/fabs/floor/ceil/copysign/isnan/isinf,
abs, min, max. Anything else is a SyntaxError/TypeError naming it. The
declared properties are checked when the function is defined
(sparse-array-check-properties): a false one raises ValueError with the
counterexample.
"""
import ast
import hashlib
import inspect
import itertools
import struct
import textwrap

import numpy as np

from . import _capi, _ops
from ._errors import CompileError
from ._format import scalar_text

_TYPES = {float: "f64", int: "i64", bool: "i1", "float": "f64", "int": "i64", "bool": "i1",
          np.float64: "f64", np.int64: "i64", np.bool_: "i1"}
_DTYPES = {"f64": np.dtype(np.float64), "i64": np.dtype(np.int64), "i1": np.dtype(np.bool_)}


# --- explicit iteration algebras ---------------------------------------------------

class Algebra:
    """An iteration algebra over the operands (seed 000 §4): union,
    intersect, complement of operand indices."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return "Algebra(%s)" % self.text


def _alg(x):
    return x.text if isinstance(x, Algebra) else str(int(x))


def union(*xs):
    return Algebra("union(%s)" % ", ".join(_alg(x) for x in xs))


def intersect(*xs):
    return Algebra("intersect(%s)" % ", ".join(_alg(x) for x in xs))


def complement(x):
    return Algebra("complement(%s)" % _alg(x))


# --- the translator ----------------------------------------------------------

class _Translator(ast.NodeVisitor):
    """Python AST -> MLIR text in SSA form (values: (name, type))."""

    def __init__(self, source, filename):
        self.lines = []
        self.counter = itertools.count()
        self.source, self.filename = source, filename

    # -- helpers
    def error(self, node, what, exc=SyntaxError):
        line = getattr(node, "lineno", 0)
        raise exc("%s:%d: %s is not supported in a sparse_array function" % (
            self.filename, line, what))

    def fresh(self):
        return "%%v%d" % next(self.counter)

    def emit(self, text, type_):
        name = self.fresh()
        self.lines.append("%s = %s" % (name, text % {"t": type_}) if "%(t)s" in text else
                          "%s = %s" % (name, text))
        return (name, type_)

    def const(self, value, type_):
        if type_ == "f64":
            bits = struct.unpack("<Q", struct.pack("<d", float(value)))[0]
            return self.emit("arith.constant 0x%016X : f64" % bits, "f64")
        if type_ == "i1":
            return self.emit("arith.constant %s" % ("true" if value else "false"), "i1")
        return self.emit("arith.constant %d : i64" % int(np.int64(value)), "i64")

    def to_float(self, v, node):
        name, t = v
        if t == "f64":
            return v
        if t == "i64":
            return self.emit("arith.sitofp %s : i64 to f64" % name, "f64")
        return self.emit("arith.uitofp %s : i1 to f64" % name, "f64")

    def to_int(self, v):
        name, t = v
        if t == "i1":
            return self.emit("arith.extui %s : i1 to i64" % name, "i64")
        return v

    def unify(self, a, b, node):
        """Python's promotion: bool < int < float."""
        if a[1] == b[1]:
            return a, b
        if "f64" in (a[1], b[1]):
            return self.to_float(a, node), self.to_float(b, node)
        return self.to_int(a), self.to_int(b)

    # -- expressions
    def expr(self, node, env):
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool):
                return self.const(node.value, "i1")
            if isinstance(node.value, int):
                return self.const(node.value, "i64")
            if isinstance(node.value, float):
                return self.const(node.value, "f64")
            self.error(node, "the constant %r" % (node.value,))
        if isinstance(node, ast.Name):
            if node.id in env:
                return env[node.id]
            if node.id in ("inf", "nan"):
                return self.const(float(node.id), "f64")
            self.error(node, "the name %r (not an argument or assigned before)" % node.id, NameError)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                node.value.id in ("math", "np", "numpy") and node.attr in ("inf", "nan", "pi", "e"):
            return self.const(float(getattr(np, node.attr)), "f64")
        if isinstance(node, ast.BinOp):
            return self.binop(node, self.expr(node.left, env), self.expr(node.right, env))
        if isinstance(node, ast.UnaryOp):
            v = self.expr(node.operand, env)
            if isinstance(node.op, ast.USub):
                if v[1] == "f64":
                    return self.emit("arith.negf %s : f64" % v[0], "f64")
                v = self.to_int(v)
                zero = self.const(0, "i64")
                return self.emit("arith.subi %s, %s : i64" % (zero[0], v[0]), "i64")
            if isinstance(node.op, ast.UAdd):
                return v
            if isinstance(node.op, ast.Not):
                b = self.truth(v)
                one = self.const(True, "i1")
                return self.emit("arith.xori %s, %s : i1" % (b[0], one[0]), "i1")
            if isinstance(node.op, ast.Invert) and v[1] != "f64":
                v = self.to_int(v)
                ones = self.const(-1, "i64")
                return self.emit("arith.xori %s, %s : i64" % (v[0], ones[0]), "i64")
            self.error(node, "the operator %s" % type(node.op).__name__)
        if isinstance(node, ast.Compare):
            result, left = None, self.expr(node.left, env)
            for op, comp in zip(node.ops, node.comparators):
                right = self.expr(comp, env)
                c = self.compare(node, op, left, right)
                result = c if result is None else self.emit(
                    "arith.andi %s, %s : i1" % (result[0], c[0]), "i1")
                left = right
            return result
        if isinstance(node, ast.BoolOp):
            vals = [self.truth(self.expr(v, env)) for v in node.values]
            op = "arith.andi" if isinstance(node.op, ast.And) else "arith.ori"
            acc = vals[0]
            for v in vals[1:]:
                acc = self.emit("%s %s, %s : i1" % (op, acc[0], v[0]), "i1")
            return acc
        if isinstance(node, ast.IfExp):
            cond = self.truth(self.expr(node.test, env))
            return self.branch(cond, lambda: self.expr(node.body, env),
                               lambda: self.expr(node.orelse, env), node)
        if isinstance(node, ast.Call):
            return self.call(node, env)
        self.error(node, "the expression %s" % type(node).__name__)

    def truth(self, v):
        name, t = v
        if t == "i1":
            return v
        if t == "i64":
            zero = self.const(0, "i64")
            return self.emit("arith.cmpi ne, %s, %s : i64" % (name, zero[0]), "i1")
        zero = self.const(0.0, "f64")
        return self.emit("arith.cmpf une, %s, %s : f64" % (name, zero[0]), "i1")

    def binop(self, node, a, b):
        op = node.op
        if isinstance(op, ast.Div):
            a, b = self.to_float(a, node), self.to_float(b, node)
            return self.emit("arith.divf %s, %s : f64" % (a[0], b[0]), "f64")
        if isinstance(op, ast.Pow):
            if a[1] != "f64" and b[1] != "f64":
                self.error(node, "** of integers")
            a, b = self.to_float(a, node), self.to_float(b, node)
            return self.emit("math.powf %s, %s : f64" % (a[0], b[0]), "f64")
        if isinstance(op, (ast.FloorDiv, ast.Mod)):
            self.error(node, "%s (division by zero has no value in a kernel)" % (
                "//" if isinstance(op, ast.FloorDiv) else "%"))
        a, b = self.unify(a, b, node)
        t = a[1]
        arith = {ast.Add: ("addf", "addi"), ast.Sub: ("subf", "subi"), ast.Mult: ("mulf", "muli"),
                 ast.BitAnd: (None, "andi"), ast.BitOr: (None, "ori"), ast.BitXor: (None, "xori"),
                 ast.LShift: (None, "shli"), ast.RShift: (None, "shrsi")}.get(type(op))
        if arith is None:
            self.error(node, "the operator %s" % type(op).__name__)
        if t == "f64":
            if arith[0] is None:
                self.error(node, "the operator %s on floats" % type(op).__name__, TypeError)
            return self.emit("arith.%s %s, %s : f64" % (arith[0], a[0], b[0]), "f64")
        if t == "i1" and type(op) in (ast.Add, ast.Sub, ast.Mult, ast.LShift, ast.RShift):
            a, b, t = self.to_int(a), self.to_int(b), "i64"
        if type(op) in (ast.LShift, ast.RShift):
            return self.shift(op, a, b)
        return self.emit("arith.%s %s, %s : %s" % (arith[1], a[0], b[0], t), t)

    def shift(self, op, a, b):
        # Python shifts by 64 or more: << gives 0 in 64 bits (wrapped), >>
        # the sign; a negative count raises in Python: 0 here is not exact,
        # so the count is taken as unsigned (>= 64).
        c64 = self.const(64, "i64")
        inrange = self.emit("arith.cmpi ult, %s, %s : i64" % (b[0], c64[0]), "i1")
        if isinstance(op, ast.LShift):
            s = self.emit("arith.shli %s, %s : i64" % (a[0], b[0]), "i64")
            zero = self.const(0, "i64")
            return self.emit("arith.select %s, %s, %s : i64" % (inrange[0], s[0], zero[0]), "i64")
        c63 = self.const(63, "i64")
        count = self.emit("arith.select %s, %s, %s : i64" % (inrange[0], b[0], c63[0]), "i64")
        return self.emit("arith.shrsi %s, %s : i64" % (a[0], count[0]), "i64")

    def compare(self, node, op, a, b):
        a, b = self.unify(a, b, node)
        t = a[1]
        fpred = {ast.Lt: "olt", ast.LtE: "ole", ast.Gt: "ogt", ast.GtE: "oge", ast.Eq: "oeq",
                 ast.NotEq: "une"}
        ipred = {ast.Lt: "slt", ast.LtE: "sle", ast.Gt: "sgt", ast.GtE: "sge", ast.Eq: "eq",
                 ast.NotEq: "ne"}
        if type(op) not in fpred:
            self.error(node, "the comparison %s" % type(op).__name__)
        if t == "f64":
            return self.emit("arith.cmpf %s, %s, %s : f64" % (fpred[type(op)], a[0], b[0]), "i1")
        if t == "i1":
            a, b, t = self.to_int(a), self.to_int(b), "i64"
        return self.emit("arith.cmpi %s, %s, %s : %s" % (ipred[type(op)], a[0], b[0], t), "i1")

    def call(self, node, env):
        f = node.func
        name = None
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "math":
            name = "math." + f.attr
        elif isinstance(f, ast.Name):
            name = f.id
        if node.keywords:
            self.error(node, "keyword arguments")
        args = [self.expr(a, env) for a in node.args]
        unary = {"math.sqrt": "math.sqrt", "math.exp": "math.exp", "math.log": "math.log",
                 "math.sin": "math.sin", "math.cos": "math.cos", "math.tan": "math.tan",
                 "math.fabs": "math.absf", "math.floor": "math.floor", "math.ceil": "math.ceil"}
        if name in unary and len(args) == 1:
            x = self.to_float(args[0], node)
            r = self.emit("%s %s : f64" % (unary[name], x[0]), "f64")
            if name in ("math.floor", "math.ceil"):  # Python returns an int
                return self.emit("arith.fptosi %s : f64 to i64" % r[0], "i64")
            return r
        if name == "math.copysign" and len(args) == 2:
            x, y = self.to_float(args[0], node), self.to_float(args[1], node)
            return self.emit("math.copysign %s, %s : f64" % (x[0], y[0]), "f64")
        if name == "math.isnan" and len(args) == 1:
            x = self.to_float(args[0], node)
            return self.emit("arith.cmpf uno, %s, %s : f64" % (x[0], x[0]), "i1")
        if name == "math.isinf" and len(args) == 1:
            x = self.to_float(args[0], node)
            ax = self.emit("math.absf %s : f64" % x[0], "f64")
            inf = self.const(float("inf"), "f64")
            return self.emit("arith.cmpf oeq, %s, %s : f64" % (ax[0], inf[0]), "i1")
        if name == "abs" and len(args) == 1:
            x = args[0]
            if x[1] == "f64":
                return self.emit("math.absf %s : f64" % x[0], "f64")
            x = self.to_int(x)
            return self.emit("math.absi %s : i64" % x[0], "i64")
        if name in ("min", "max") and len(args) >= 2:
            # Python: the first of the extreme values (b replaces a only if
            # strictly smaller/greater; NaN comparisons are false).
            acc = args[0]
            for b in args[1:]:
                acc, b = self.unify(acc, b, node)
                better = self.compare(node, ast.Lt() if name == "min" else ast.Gt(), b, acc)
                acc = self.emit("arith.select %s, %s, %s : %s" % (better[0], b[0], acc[0], acc[1]),
                                acc[1])
            return acc
        if name in ("float", "int", "bool") and len(args) == 1:
            if name == "float":
                return self.to_float(args[0], node)
            if name == "bool":
                return self.truth(args[0])
            if args[0][1] == "f64":
                return self.emit("arith.fptosi %s : f64 to i64" % args[0][0], "i64")
            return self.to_int(args[0])
        self.error(node, "the call %s(%d arguments)" % (name or ast.dump(f), len(args)))

    def branch(self, cond, then_fn, else_fn, node):
        """scf.if evaluating one side (Python's laziness)."""
        outer = self.lines
        self.lines = []
        a = then_fn()
        then_lines = self.lines
        self.lines = []
        b = else_fn()
        else_lines = self.lines
        self.lines = outer
        if a[1] != b[1]:
            # Promote inside each branch.
            self.lines, target = then_lines, ("f64" if "f64" in (a[1], b[1]) else "i64")
            a = self.to_float(a, node) if target == "f64" else self.to_int(a)
            then_lines, self.lines = self.lines, else_lines
            b = self.to_float(b, node) if target == "f64" else self.to_int(b)
            else_lines, self.lines = self.lines, outer
        name = self.fresh()
        self.lines.append("%s = scf.if %s -> %s {" % (name, cond[0], a[1]))
        self.lines += ["  " + l for l in then_lines] + ["  scf.yield %s : %s" % (a[0], a[1]), "} else {"]
        self.lines += ["  " + l for l in else_lines] + ["  scf.yield %s : %s" % (b[0], b[1]), "}"]
        return (name, a[1])

    # -- statements: a block returns a value, possibly in branches
    def block(self, stmts, env):
        """Translates statements until a return; returns the value."""
        env = dict(env)
        for k, st in enumerate(stmts):
            if isinstance(st, ast.Return):
                if st.value is None:
                    self.error(st, "a return without a value")
                return self.expr(st.value, env)
            if isinstance(st, ast.Assign):
                if len(st.targets) != 1 or not isinstance(st.targets[0], ast.Name):
                    self.error(st, "assignment to anything but one name")
                env[st.targets[0].id] = self.expr(st.value, env)
                continue
            if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.value:
                env[st.target.id] = self.expr(st.value, env)
                continue
            if isinstance(st, ast.AugAssign) and isinstance(st.target, ast.Name):
                env[st.target.id] = self.binop(st, self.expr(st.target, env), self.expr(st.value, env)) \
                    if False else self.binop(ast.BinOp(op=st.op, lineno=st.lineno),
                                             self.expr(st.target, env), self.expr(st.value, env))
                continue
            if isinstance(st, ast.If):
                rest = stmts[k + 1:]
                cond = self.truth(self.expr(st.test, env))
                # Each side continues with the statements after the if.
                return self.branch(cond, lambda: self.block(st.body + rest, env),
                                   lambda: self.block(st.orelse + rest, env), st)
            if isinstance(st, ast.For):
                env = self.loop(st, env)
                continue
            if isinstance(st, ast.Pass) or (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant)):
                continue
            self.error(st, "the statement %s" % type(st).__name__)
        self.error(stmts[-1] if stmts else None, "a body that does not return")

    def loop(self, st, env):
        """for i in range(N) (constant N): scf.for carrying the variables the
        body assigns."""
        it = st.iter
        if not (isinstance(st.target, ast.Name) and isinstance(it, ast.Call) and
                isinstance(it.func, ast.Name) and it.func.id == "range" and
                all(isinstance(a, ast.Constant) and isinstance(a.value, int) for a in it.args)
                and 1 <= len(it.args) <= 3) or st.orelse:
            self.error(st, "a loop other than `for i in range(constant)`")
        bounds = [a.value for a in it.args]
        lo, hi, step = (0, bounds[0], 1) if len(bounds) == 1 else (bounds + [1])[:3]
        if step <= 0:
            self.error(st, "a range with a step that is not positive")
        assigned = sorted({t.id for s in ast.walk(st) for t in
                           ([s.target] if isinstance(s, (ast.AugAssign, ast.AnnAssign)) else
                            s.targets if isinstance(s, ast.Assign) else [])
                           if isinstance(t, ast.Name)} & set(env))
        for s in ast.walk(st):
            if isinstance(s, (ast.Return, ast.If, ast.For)) and s is not st:
                self.error(s, "return, if or for inside a loop")
        lo_c, hi_c, step_c = (self.emit("arith.constant %d : index" % v, "index") for v in (lo, hi, step))
        iv = self.fresh()
        carried = [(self.fresh(), env[n]) for n in assigned]
        results = self.fresh()
        outer = self.lines
        self.lines = []
        inner = dict(env)
        inner[st.target.id] = self.emit("arith.index_cast %s : index to i64" % iv, "i64")
        for (arg, (_, t)), n in zip(carried, assigned):
            inner[n] = (arg, t)
        for s in st.body:
            if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
                v = self.expr(s.value, inner)
            elif isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name):
                v = self.binop(ast.BinOp(op=s.op, lineno=s.lineno), self.expr(s.target, inner),
                               self.expr(s.value, inner))
            else:
                self.error(s, "the statement %s in a loop" % type(s).__name__)
            name = s.targets[0].id if isinstance(s, ast.Assign) else s.target.id
            if name in inner and name in assigned and v[1] != inner[name][1]:
                self.error(s, "a loop variable %r that changes type" % name, TypeError)
            inner[name] = v
        body = self.lines
        self.lines = outer
        if not assigned:
            self.lines.append("scf.for %s = %s to %s step %s {" % (iv, lo_c[0], hi_c[0], step_c[0]))
            self.lines += ["  " + l for l in body] + ["}"]
            return env
        types = [env[n][1] for n in assigned]
        self.lines.append("%s:%d = scf.for %s = %s to %s step %s iter_args(%s) -> (%s) {" % (
            results, len(assigned), iv, lo_c[0], hi_c[0], step_c[0],
            ", ".join("%s = %s" % (arg, v[0]) for arg, v in carried), ", ".join(types)))
        self.lines += ["  " + l for l in body]
        self.lines.append("  scf.yield %s : %s" % (", ".join(inner[n][0] for n in assigned), ", ".join(types)))
        self.lines.append("}")
        out = dict(env)
        for k, n in enumerate(assigned):
            out[n] = ("%s#%d" % (results, k), types[k])
        return out


class Function:
    """A scalar function for sparse_array operations: call it on arrays for
    an element-wise map; use it in sa.reduce and as a semiring's add or
    multiply."""

    def __init__(self, py, name, arg_types, result_type, text):
        self.py, self.__name__, self.arg_types = py, name, arg_types
        self.result_type, self.text = result_type, text
        self.__doc__ = py.__doc__

    @property
    def dtype(self):
        return _DTYPES[self.result_type]

    def evaluate(self, *values):
        """The Python function on scalars (the result's fill); None when it
        raises (any fill is exact)."""
        try:
            return self.py(*[v.item() if hasattr(v, "item") else v for v in values])
        except Exception:
            return None

    def __call__(self, *arrays):
        return _ops.map_function(self, arrays)

    def __repr__(self):
        return "<sparse_array.Function %s>" % self.__name__


def _attr_scalar(value, mlir_type, what):
    return scalar_text(value, _DTYPES[mlir_type])


def function(py=None, *, commutative=False, associative=False, idempotent=False,
             identity=None, annihilator=None, algebra=None, fills=None, types=None,
             check=True):
    """Decorator: a Python scalar function as a sparse_array function."""
    if py is None:
        return lambda f: function(f, commutative=commutative, associative=associative,
                                  idempotent=idempotent, identity=identity,
                                  annihilator=annihilator, algebra=algebra, fills=fills,
                                  types=types, check=check)
    try:
        source = textwrap.dedent(inspect.getsource(py))
        filename = inspect.getsourcefile(py) or "<function>"
    except (OSError, TypeError):
        raise TypeError("sparse_array.function: the source of %r is not available" % py)
    tree = ast.parse(source)
    fdef = tree.body[0]
    if not isinstance(fdef, ast.FunctionDef):
        raise TypeError("sparse_array.function applies to a def")
    fdef.body = [s for s in fdef.body]
    args = [a.arg for a in fdef.args.args]
    if fdef.args.vararg or fdef.args.kwarg or fdef.args.kwonlyargs or fdef.args.defaults:
        raise SyntaxError("sparse_array.function: only positional arguments without defaults")
    sig = inspect.signature(py)
    if types is not None:
        arg_types = [_TYPES[t] if t in _TYPES else _TYPES[np.dtype(t).type] for t in types]
    else:
        arg_types = []
        for a in args:
            ann = sig.parameters[a].annotation
            arg_types.append(_TYPES.get(ann, "f64") if ann is not inspect.Parameter.empty else "f64")
    tr = _Translator(source, filename)
    # Line numbers relative to the file.
    ast.increment_lineno(tree, (py.__code__.co_firstlineno - 1))
    env = {a: ("%%arg_%s" % a, t) for a, t in zip(args, arg_types)}
    result = tr.block(fdef.body, env)
    ann = sig.return_annotation
    result_type = _TYPES.get(ann, result[1]) if ann is not inspect.Signature.empty else result[1]
    if result_type != result[1]:
        if result_type == "f64":
            result = tr.to_float(result, fdef)
        elif result_type == "i64" and result[1] == "i1":
            result = tr.to_int(result)
        else:
            raise TypeError("%s returns %s, annotated %s" % (py.__name__, result[1], result_type))
    # A name every process derives alike (str hashes are salted per
    # process): the on-disk kernel cache is keyed by the program's text.
    name = "py_%s_%s" % (py.__name__, hashlib.sha1(source.encode()).hexdigest()[:8])
    attrs = [p for p, on in (("commutative", commutative), ("associative", associative),
                             ("idempotent", idempotent)) if on]
    if identity is not None:
        attrs.append("identity = #sparse_array.identity<%s>" % _attr_scalar(identity, result_type, "identity"))
    if annihilator is not None:
        attrs.append("annihilator = #sparse_array.annihilator<%s>" % _attr_scalar(annihilator, result_type, "annihilator"))
    if algebra is not None:
        fills = fills if fills is not None else [0] * len(args)
        attrs.append("algebra = #sparse_array.algebra<%s, fills = [%s]>" % (
            algebra.text if isinstance(algebra, Algebra) else algebra,
            ", ".join(scalar_text(f, _DTYPES[t]) for f, t in zip(fills, arg_types))))
    header = "sparse_array.func @%s(%s) -> %s" % (
        name, ", ".join("%%arg_%s: %s" % (a, t) for a, t in zip(args, arg_types)), result_type)
    if attrs:
        header += "\n    attributes {%s}" % ", ".join(attrs)
    body = ["  " + l for l in tr.lines] + ["  sparse_array.yield %s : %s" % (result[0], result_type)]
    text = header + " {\n" + "\n".join(body) + "\n}\n"
    f = Function(py, name, arg_types, result_type, text)
    if check:
        try:
            _capi.check(text)
        except CompileError as e:
            # The property checker's errors (the counterexamples), without
            # the IR it prints after them.
            message = str(e).split("note: see current operation")[0].rstrip()
            raise ValueError("sparse_array.function %s: %s" % (py.__name__, message)) from None
    return f
