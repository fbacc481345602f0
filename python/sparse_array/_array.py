"""sparse_array.Array: an array in a storage format with a fill value."""
import numpy as np

from . import _storage
from ._format import bsr, ELEMENT, Format, Level, make_format, type_text
from ._trace import static_types, Traced


class _Operations:
    """The operations Array's methods call. Each builds arrays, so its
    module sits above this one and cannot be imported from here: the
    package binds them once every module is loaded
    (_dispatch.bind_array_methods, run by sparse_array/__init__.py)."""

    def __getattr__(self, name):
        raise RuntimeError("sparse_array: Array.%s needs the package imported "
                           "(import sparse_array)" % name)


OPS = _Operations()


def _reduction(name):
    """The method numpy names `name` (sum, prod, min, max, any, all)."""
    if name in ("sum", "prod"):
        # np.sum's dtype (dask.array passes it to chunks): numpy's function.
        def method(self, axis=None, dtype=None, keepdims=False):
            return OPS.numpy_functions[getattr(np, name)](self, axis, dtype, keepdims=keepdims)
    else:
        def method(self, axis=None, keepdims=False):
            return OPS.reduce(name, self, axis, keepdims)
    method.__name__ = name
    method.__doc__ = "numpy's %s over `axis` (int, tuple or None), exactly." % name
    return method


def _scalar_exponent(x):
    """(value as a float, whether it is a float) of an exponent NumPy's
    fast scalar power takes (a Python or NumPy number, a 0-d integer or
    float array), else (None, False)."""
    if isinstance(x, (bool, int, float, np.integer, np.floating)):
        return float(x), isinstance(x, (float, np.floating))
    if isinstance(x, np.ndarray) and x.ndim == 0 and x.dtype.kind in "iuf":
        return float(x), x.dtype.kind == "f"
    # A 0-d sparse_array array stands for a 0-d ndarray (fuzz_idioms seed
    # 9804: -0.0 ** asarray(0.5) is sqrt's -0.0, not pow's 0.0).
    if isinstance(x, Array) and x.ndim == 0 and np.dtype(x.dtype).kind in "iuf":
        return float(x.todense()), np.dtype(x.dtype).kind == "f"
    return None, False


class ArrayOperators:
    """numpy's operators, methods and shape operations, through the ufunc
    and function protocols (shared by Array and the traced Lazy)."""

    # Above numpy's arrays where code picks the "outer" type of operands
    # (dask.array's dot and tensordot read it).
    __array_priority__ = 10

    # --- operators (numpy semantics) ------------------------------------
    def __add__(self, other): return np.add(self, other)
    def __radd__(self, other): return np.add(other, self)
    def __sub__(self, other): return np.subtract(self, other)
    def __rsub__(self, other): return np.subtract(other, self)
    def __mul__(self, other): return np.multiply(self, other)
    def __rmul__(self, other): return np.multiply(other, self)
    def __truediv__(self, other): return np.true_divide(self, other)
    def __pow__(self, other):
        # NumPy 1.24's fast scalar power (ndarray.__pow__ with a number or
        # a 0-d array as the exponent) is another ufunc, with its own
        # values and dtype: x ** 0.5 is sqrt (-0.0 ** 0.5 is -0.0, pow
        # gives 0.0), x ** 2 is square (a 0-d int32 stays int32, np.power
        # gives int64).
        exponent, is_float = _scalar_exponent(other)
        kind = np.dtype(self.dtype).kind
        if exponent is not None and kind == "f":
            if exponent == 0.0:  # ones_like: 1 in the base's dtype
                return np.power(self, np.dtype(self.dtype).type(0))
            fast = {1.0: np.positive, -1.0: np.reciprocal, 0.5: np.sqrt,
                    2.0: np.square}.get(exponent)
            if fast is not None:
                return fast(self)
        elif exponent == 2.0 and kind in "iu":
            return np.square(self.astype(np.float64) if is_float else self)
        return np.power(self, other)

    def __rpow__(self, other): return np.power(other, self)
    def __rtruediv__(self, other): return np.true_divide(other, self)
    def __floordiv__(self, other): return np.floor_divide(self, other)
    def __rfloordiv__(self, other): return np.floor_divide(other, self)
    def __mod__(self, other): return np.remainder(self, other)
    def __rmod__(self, other): return np.remainder(other, self)
    def __and__(self, other): return np.bitwise_and(self, other)
    def __rand__(self, other): return np.bitwise_and(other, self)
    def __or__(self, other): return np.bitwise_or(self, other)
    def __ror__(self, other): return np.bitwise_or(other, self)
    def __xor__(self, other): return np.bitwise_xor(self, other)
    def __rxor__(self, other): return np.bitwise_xor(other, self)
    def __lshift__(self, other): return np.left_shift(self, other)
    def __rlshift__(self, other): return np.left_shift(other, self)
    def __rshift__(self, other): return np.right_shift(self, other)
    def __rrshift__(self, other): return np.right_shift(other, self)
    def __invert__(self): return np.invert(self)
    def __neg__(self): return np.negative(self)
    def __pos__(self):
        # NumPy's unary + of a bool array is a copy (np.positive refuses).
        return self if self.dtype == np.bool_ else np.positive(self)
    def __abs__(self): return np.absolute(self)
    def __lt__(self, other): return np.less(self, other)
    def __le__(self, other): return np.less_equal(self, other)
    def __gt__(self, other): return np.greater(self, other)
    def __ge__(self, other): return np.greater_equal(self, other)
    def __eq__(self, other): return np.equal(self, other)
    def __ne__(self, other): return np.not_equal(self, other)
    __hash__ = object.__hash__  # identity, as before __eq__ became numpy's

    def astype(self, dtype, copy=True):
        """The values (and the fill) converted to `dtype` as NumPy does."""
        return OPS.astype(self, dtype)

    def round(self, decimals=0):
        """np.round(self, decimals)."""
        return OPS.around(self, decimals)

    def clip(self, min=None, max=None):
        """np.clip(self, min, max)."""
        return OPS.clip(self, min, max)

    def __matmul__(self, other):
        return OPS.matmul(self, other)

    def __rmatmul__(self, other):
        return OPS.matmul(other, self)

    def dot(self, other):
        """np.dot(self, other)."""
        return np.dot(self, other)

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __bool__(self):
        # As before __len__: an array object is true (`if a` must not
        # become a test of its first extent).
        return True

    def copy(self):
        """The same array: arrays are immutable, so nothing needs copying."""
        return self

    def ravel(self, order="C"):
        """reshape(-1) in `order` (C or F)."""
        return self.reshape(-1, order=order)

    flatten = ravel

    # --- shape (numpy semantics; _shape.py) --------------------------------
    def __getitem__(self, key):
        return OPS.getitem(self, key)

    def reshape(self, *shape, order="C"):
        if len(shape) == 1 and not isinstance(shape[0], (int, np.integer)):
            shape = shape[0]
        return OPS.reshape(self, shape, order)

    def transpose(self, *axes):
        if len(axes) == 1 and not isinstance(axes[0], (int, np.integer)):
            axes = axes[0]
        return OPS.transpose(self, axes or None)

    @property
    def T(self):
        return self.transpose()

    def squeeze(self, axis=None):
        return OPS.squeeze(self, axis)

    sum = _reduction("sum")
    prod = _reduction("prod")
    min = _reduction("min")
    max = _reduction("max")
    any = _reduction("any")
    all = _reduction("all")


class Array(ArrayOperators):
    """An n-dimensional array whose implicit entries hold `fill_value`,
    stored in `format` (buffers in docs/storage.md order). Immutable: every
    operation returns a new array."""

    def __init__(self, shape, dtype, fmt, fill_value, buffers, owner=None):
        self.shape = tuple(int(n) for n in shape)
        self.dtype = np.dtype(dtype)
        self.format = fmt
        self.fill_value = self.dtype.type(fill_value)
        self._buffers = [np.ascontiguousarray(b) for b in buffers]
        # What keeps the buffers alive (numpy arrays, or the owner of
        # buffers a kernel returned).
        self._owner = owner
        self._packed = None
        self._signature = None

    def __reduce__(self):
        """Pickles shape, dtype, format, fill and the buffers' contents (not
        the memory they borrow), so arrays travel between processes (Dask's
        workers)."""
        return (_rebuild, (self.shape, self.dtype.str, self.format, self.fill_value,
                           [np.array(b) for b in self._buffers]))

    def _words(self):
        """The packed-interface words of this array as an argument: per
        buffer (allocated, aligned, offset, size, stride), then the
        extents."""
        if self._packed is None:
            words = []
            for b in self._buffers:
                address = b.ctypes.data
                words += [address, address, 0, len(b), 1]
            self._packed = words + list(self.shape)
        return self._packed

    def _allocations(self):
        return self._words()[0:5 * len(self._buffers):5]

    def signature(self):
        """What a compiled kernel depends on: dtype, format, fill bits and
        which extents are 1 (broadcast); while tracing (static types), the
        shape too."""
        if self._signature is None:
            self._signature = (self.dtype.char, self.format.key(), self.fill_value.tobytes(),
                               tuple(n == 1 for n in self.shape))
        if static_types():
            return self._signature + (self.shape,)
        return self._signature

    # --- properties ---------------------------------------------------
    @property
    def ndim(self):
        return len(self.shape)

    @property
    def nnz(self):
        """Stored entries (values buffer length; a dense array stores all)."""
        return int(len(self._buffers[-1]))

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    def mlir_type(self):
        return type_text(self.shape, self.dtype, self.format, self.fill_value)

    def __repr__(self):
        return "<sparse_array.Array shape=%s dtype=%s format=%s fill_value=%r nnz=%d>" % (
            self.shape, self.dtype, self.format.name(), self.fill_value.item(), self.nnz)

    def with_fill(self, fill_value):
        """The same stored entries over implicit entries of `fill_value`: a
        different array (scipy's pattern as a graph whose missing edges are
        +inf, say). No copy. Stored entries equal to the new fill stay
        stored (explicit fills are allowed)."""
        if self.format.is_dense():
            return self
        return Array(self.shape, self.dtype, self.format, fill_value, self._buffers, owner=self)

    # --- conversions out ----------------------------------------------
    def _entries(self):
        """(coordinates, values) of every stored entry; a format the package
        does not unpack itself is converted by the runtime first."""
        generic = self.format.generic()
        if generic == self.format:
            return _storage.entries(self.format, self.shape, self._buffers)
        return OPS.restore(self, generic)._entries()

    def todense(self):
        """A numpy array (fills included)."""
        f = self.format
        if f.is_dense() and not f.blocks and len(f.levels) == self.ndim and self.ndim:
            # The values buffer is the array in level order (asarray's
            # layout): a reshape and a transpose, no coordinates.
            vals = self._buffers[-1].reshape(tuple(self.shape[d] for d in f.order))
            return np.ascontiguousarray(vals.transpose(np.argsort(f.order)))
        out = np.full(self.shape, self.fill_value, dtype=self.dtype)
        coords, values = self._entries()
        if self.ndim == 0:
            return np.array(values[0], dtype=self.dtype)
        out[tuple(coords.T)] = values
        return out

    def __array__(self, dtype=None, copy=None):
        d = self.todense()
        return d if dtype is None else d.astype(dtype)

    def to_scipy(self):
        """A scipy.sparse CSR/CSC matrix (zero-copy for CSR and CSC), or
        COO; the fill must be 0 (scipy has no other)."""
        import scipy.sparse as sp
        if self.ndim != 2:
            raise ValueError("scipy.sparse holds matrices; this array has rank %d" % self.ndim)
        if _storage.differs(np.array([self.fill_value]), np.zeros(1, self.dtype))[0] and not (
                self.dtype.kind == "f" and self.fill_value == 0):
            raise ValueError("the fill value is %r; scipy.sparse assumes 0" % self.fill_value.item())
        f = self.format
        if [l.kind for l in f.levels] == ["dense", "compressed"] and f.levels[1].unique:
            pos, crd, vals = self._buffers
            cls = sp.csr_matrix if f.order == (0, 1) else sp.csc_matrix
            m = cls((vals, crd, pos), shape=self.shape, copy=False)
            m._sparse_array_owner = self  # keeps borrowed buffers alive
            return m
        if f.blocks and f == bsr(f.blocks).with_widths(f.pos_width, f.crd_width):
            # scipy's bsr_matrix stores the same buffers (blocks row-major).
            pos, crd, vals = self._buffers
            m = sp.bsr_matrix((vals.reshape(-1, *f.blocks), crd, pos), shape=self.shape,
                              copy=False)
            m._sparse_array_owner = self
            return m
        coords, values = self._entries()
        return sp.coo_matrix((values, (coords[:, 0], coords[:, 1])), shape=self.shape)

    def to_pydata(self):
        """A pydata sparse.COO with the same fill value."""
        import sparse
        coords, values = self._entries()
        keep = _storage.differs(values, self.fill_value) if len(values) else np.zeros(0, bool)
        return sparse.COO(coords[keep].T, values[keep], shape=self.shape,
                          fill_value=self.fill_value)

    def write(self, path):
        """Matrix Market (.mtx, fill 0) or the text format (any fill)."""
        OPS.write(self, path)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        # With a Lazy operand, array_ufunc records the operation (_trace).
        return OPS.array_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        impl = OPS.numpy_functions.get(func)
        if impl is None or not all(issubclass(t, (Array, np.ndarray)) for t in types):
            return NotImplemented
        return impl(*args, **kwargs)


def _rebuild(shape, dtype, fmt, fill_value, buffers):
    return Array(shape, dtype, fmt, fill_value, buffers)


def _dtype_of(dtype):
    dtype = np.dtype(dtype)
    if dtype in ELEMENT:
        return dtype
    if dtype.kind == "f":
        return np.dtype(np.float64)
    if dtype.kind in "iu":
        return np.dtype(np.int64)
    raise TypeError("dtype %s is not supported (float64, float32, int64, int32, bool)" % dtype)


def _from_coords(shape, dtype, fmt, fill, coords, values):
    if any(l.hash_order for l in fmt.levels) and not fmt.blocks:
        # Inserted in the order given (seed 002's insert; the runtime's
        # InsertPack.cpp): handed over as an unordered COO, never sorted.
        rank = len(shape)
        coo = Format([Level("compressed", unique=rank == 1, ordered=False)] +
                     [Level("singleton", unique=k == rank - 1, ordered=False)
                      for k in range(1, rank)])
        buffers = _storage.build(coo, shape, coords, values, fill, dtype, sort=False)
        return OPS.restore(Array(shape, dtype, coo, fill, buffers), fmt)
    generic = fmt.generic()
    buffers = _storage.build(generic, shape, coords, values, fill, dtype)
    array = Array(shape, dtype, generic, fill, buffers)
    if generic == fmt:
        return array
    return OPS.restore(array, fmt)


def asarray(x, format=None, fill_value=None, dtype=None):
    """An Array from a numpy array (or anything np.asarray takes), a
    scipy.sparse matrix/array, a pydata sparse.COO, or an Array.

    format: "dense", "csr", "csc", "coo", "dcsr", "csf", "dia", "ell",
    "compressed", sparse_array.bsr((r, c)), a list of level names or a Format
    (scipy's bsr_matrix comes in as bsr of its block size, without copying); fill_value: the value of implicit
    entries (default 0; for scipy/pydata inputs the source's fill, which
    must match). Entries equal to the fill (bitwise for floats) are not
    stored. scipy CSR/CSC in canonical form with any index width are taken
    without copying."""
    if isinstance(x, Traced):
        # A lazy expression: its value.
        x = x.compute()
    if isinstance(x, Array):
        if format is None and fill_value is None and dtype is None:
            return x
        # Another dtype, format or fill: compiled kernels over the stored
        # entries (the dense values only where a new fill makes every point
        # an entry).
        if dtype is not None:
            x = OPS.astype(x, _dtype_of(dtype))
        fmt = x.format if format is None else make_format(format, x.ndim)
        return OPS.convert(x, fmt, x.fill_value if fill_value is None else fill_value)
    try:
        import scipy.sparse as sp
        if sp.issparse(x):
            return _from_scipy(x, format, fill_value, dtype)
    except ImportError:
        pass
    if type(x).__module__.split(".")[0] == "sparse" and hasattr(x, "todense") and \
            hasattr(x, "fill_value"):
        return _from_pydata(x, format, fill_value, dtype)
    a = np.asarray(x)
    dt = _dtype_of(dtype or a.dtype)
    a = a.astype(dt, copy=False)
    fill = dt.type(0 if fill_value is None else fill_value)
    fmt = make_format(format or "dense", a.ndim)
    if fmt.is_dense():
        vals = np.ascontiguousarray(np.transpose(a, fmt.order)).ravel() if a.ndim else a.reshape(1)
        return Array(a.shape, dt, fmt, fill, [vals])
    keep = _storage.differs(a, fill)
    coords = np.argwhere(keep)
    return _from_coords(a.shape, dt, fmt, fill, coords, a[keep])


def _from_scipy(m, format, fill_value, dtype):
    import scipy.sparse as sp
    if fill_value is not None and fill_value != 0:
        # The scipy matrix's implicit entries are 0: a different fill makes
        # them stored entries.
        return asarray(m.toarray(), format=format or "csr", fill_value=fill_value, dtype=dtype)
    dt = _dtype_of(dtype or m.dtype)
    fill = dt.type(0)
    name = format or ("csc" if m.format == "csc" else "coo" if m.format == "coo" else
                      bsr(m.blocksize) if m.format == "bsr" and m.blocksize != (1, 1) else "csr")
    fmt = make_format(name, 2)
    levels = [l.kind for l in fmt.levels]
    if m.format == "bsr" and fmt.blocks == tuple(m.blocksize) and \
            fmt == bsr(m.blocksize).with_widths(fmt.pos_width, fmt.crd_width):
        # The same buffers as scipy's (zero-copy when canonical): rows of
        # blocks, block columns in order, each block whole and row-major.
        # (scipy's has_canonical_format is False for some canonical BSR
        # matrices built from dense ones: checked here.)
        if not _increasing_in_rows(m.indptr, m.indices):
            m = m.copy()
            m.sum_duplicates()
        fmt = fmt.with_widths(32 if m.indptr.dtype == np.int32 else 64,
                              32 if m.indices.dtype == np.int32 else 64)
        vals = m.data.astype(dt, copy=False).reshape(-1)
        return Array(m.shape, dt, fmt, fill, [m.indptr, m.indices, vals], owner=m)
    if levels == ["dense", "compressed"] and m.format in ("csr", "csc") and \
            fmt.order == ((0, 1) if m.format == "csr" else (1, 0)):
        if not m.has_canonical_format:
            m = m.copy()
            m.sum_duplicates()
        width = 32 if m.indptr.dtype == np.int32 else 64
        fmt = fmt.with_widths(width, 32 if m.indices.dtype == np.int32 else 64)
        vals = m.data.astype(dt, copy=False)
        return Array(m.shape, dt, fmt, fill, [m.indptr, m.indices, vals], owner=m)
    coo = m.tocoo()
    coo.sum_duplicates()
    coords = np.stack([coo.row, coo.col], axis=1).astype(np.int64)
    return _from_coords(m.shape, dt, fmt, fill, coords, coo.data.astype(dt))


def _increasing_in_rows(indptr, indices):
    """Column indices strictly increasing within each row (canonical)."""
    if len(indices) < 2:
        return True
    step = np.diff(indices.astype(np.int64)) > 0
    starts = np.asarray(indptr[1:-1], dtype=np.int64)
    starts = starts[(starts > 0) & (starts < len(indices))]
    step[starts - 1] = True  # a new row may start anywhere
    return bool(step.all())


def _from_pydata(x, format, fill_value, dtype):
    fill = x.fill_value if fill_value is None else fill_value
    if fill_value is not None and not np.array_equal(np.array(fill_value), np.array(x.fill_value), equal_nan=True):
        return asarray(x.todense(), format=format, fill_value=fill_value, dtype=dtype)
    coo = x.tocoo() if hasattr(x, "tocoo") else x
    dt = _dtype_of(dtype or coo.dtype)
    fmt = make_format(format or ("coo" if coo.ndim != 2 else "csr"), coo.ndim)
    return _from_coords(coo.shape, dt, fmt, dt.type(fill), coo.coords.T.astype(np.int64),
                        coo.data.astype(dt))
