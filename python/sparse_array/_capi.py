"""ctypes binding of libSparseArrayCAPI.so (include/SparseArray/CAPI)."""
import ctypes
import os

from ._errors import CompileError, SparseArrayError

_HERE = os.path.dirname(os.path.abspath(__file__))


def _library_path():
    """The library next to the package (installed or copied into the build
    tree), else $SPARSE_ARRAY_CAPI."""
    env = os.environ.get("SPARSE_ARRAY_CAPI")
    if env:
        return env
    return os.path.join(_HERE, "libSparseArrayCAPI.so")


def _load():
    path = _library_path()
    if not os.path.exists(path):
        raise ImportError("sparse_array: %s not found (build the project, or "
                          "set SPARSE_ARRAY_CAPI)" % path)
    lib = ctypes.CDLL(path, mode=ctypes.RTLD_LOCAL)
    lib.sa_module_compile.restype = ctypes.c_void_p
    lib.sa_module_compile.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                                      ctypes.POINTER(ctypes.c_void_p)]
    lib.sa_module_lookup.restype = ctypes.c_void_p
    lib.sa_module_lookup.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    lib.sa_call.restype = ctypes.c_int
    lib.sa_call.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]
    lib.sa_module_from_cache.restype = ctypes.c_int
    lib.sa_module_from_cache.argtypes = [ctypes.c_void_p]
    lib.sa_module_free.restype = None
    lib.sa_module_free.argtypes = [ctypes.c_void_p]
    lib.sa_free.restype = None
    lib.sa_free.argtypes = [ctypes.c_void_p]
    lib.sa_check.restype = ctypes.c_int
    lib.sa_check.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                             ctypes.POINTER(ctypes.c_void_p)]
    lib.sa_run_passes.restype = ctypes.c_int
    lib.sa_run_passes.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                                  ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p)]
    lib.sa_level_formats.restype = ctypes.c_void_p
    lib.sa_level_formats.argtypes = []
    lib.sa_rt_set_inputs.restype = None
    lib.sa_rt_set_inputs.argtypes = [ctypes.c_int64, ctypes.POINTER(ctypes.c_char_p)]
    return lib


LIB = _load()


def _message(error):
    if not error.value:
        return ""
    text = ctypes.string_at(error.value).decode("utf-8", "replace")
    LIB.sa_free(error.value)
    return text


def level_formats():
    """{name: (buffer widths, allows nonunique, allows nonordered, hash
    order, number of parameters)} of every level format the library knows,
    built-ins and plugins alike (hash order: never ordered, e.g. seed 002's
    hashed level; parameters: `structured[n, m]`'s n and m)."""
    text = ctypes.c_void_p(LIB.sa_level_formats())
    formats = {}
    for line in _message(text).splitlines():
        name, *fields = line.split()
        props = dict(f.split("=", 1) for f in fields)
        widths = tuple(w for w in props["buffers"].split(",") if w)
        formats[name] = (widths, props["nonunique"] == "1", props["nonordered"] == "1",
                         props["hashorder"] == "1", int(props.get("params", 0)))
    return formats


class Module:
    """A compiled module; its functions stay valid while it lives."""

    def __init__(self, text, options=""):
        data = text.encode()
        error = ctypes.c_void_p()
        handle = LIB.sa_module_compile(data, len(data), options.encode() or None,
                                       ctypes.byref(error))
        if not handle:
            raise CompileError(_message(error))
        self._handle = handle
        self._free = LIB.sa_module_free
        # Loaded from the on-disk kernel cache rather than compiled.
        self.from_cache = bool(LIB.sa_module_from_cache(handle))

    def lookup(self, name):
        fn = LIB.sa_module_lookup(self._handle, name.encode())
        if not fn:
            raise SparseArrayError("no function @%s in the module" % name)
        return fn

    def __del__(self):
        if getattr(self, "_handle", None):
            self._free(self._handle)
            self._handle = None


def call(fn, args):
    """Calls a packed entry point with `args` (a ctypes array of pointers);
    a runtime error raises SparseArrayError."""
    error = ctypes.c_void_p()
    if LIB.sa_call(fn, args, ctypes.byref(error)) != 0:
        raise SparseArrayError(_message(error))


def free(address):
    LIB.sa_free(address)


def set_inputs(paths):
    """The files `sparse_array.read input %k` reads (copied by the
    runtime)."""
    array = (ctypes.c_char_p * len(paths))(*paths)
    LIB.sa_rt_set_inputs(len(paths), array)


def check(text, passes="sparse-array-check-properties"):
    """Runs `passes` on `text` (no lowering); CompileError with the
    diagnostics when they fail."""
    data = text.encode()
    error = ctypes.c_void_p()
    if LIB.sa_check(data, len(data), passes.encode(), ctypes.byref(error)) != 0:
        raise CompileError(_message(error))


def run_passes(text, passes):
    """The module after `passes` (textual pipeline, nested in the module),
    as text; CompileError with the diagnostics when they fail."""
    data = text.encode()
    output, error = ctypes.c_void_p(), ctypes.c_void_p()
    if LIB.sa_run_passes(data, len(data), passes.encode(), ctypes.byref(output),
                         ctypes.byref(error)) != 0:
        raise CompileError(_message(error))
    return _message(output)
