"""Storage formats the fuzz harnesses draw (every format the package
names, the plugins' and block formats included: "hash" is seed 002's
hashed level under dense ones, "nm" N:M structured sparsity), shared by
fuzz_programs.py and fuzz_idioms.py."""
import sparse_array as sa

FORMATS = {0: ["dense"], 1: ["dense", "compressed", "loose", "hash", "nm"],
           2: ["dense", "csr", "csc", "coo", "dcsr", "dia", "ell", "bsr", "loose", "hash", "nm"],
           3: ["dense", "csf", "coo", "loose", "hash", "nm"]}

# "loose": a loose_compressed level where CSR/CSF has its first compressed
# one (outermost for vectors).
LOOSE = {1: ["loose_compressed"], 2: ["dense", "loose_compressed"],
         3: ["dense", "loose_compressed", "compressed"]}


def resolve(fmt, shape):
    """The format to pass for `shape`: "bsr" becomes sa.bsr of the
    smallest blocks (> 1 where possible) dividing the extents — blocks of a
    whole small matrix included; "csr" when no extent can be blocked;
    "loose" a format with a loose_compressed level; "nm" m:m structured
    (any data fits) with m the smallest block dividing the last extent,
    "dense" when none does."""
    if fmt == "loose":
        return sa.Format(LOOSE[len(shape)])
    if fmt not in ("bsr", "nm"):
        return fmt
    blocks = [smallest_block(n) for n in shape]
    if fmt == "nm":
        m = blocks[-1]
        return sa.structured(m, m, rank=len(shape)) if m > 1 else "dense"
    return "csr" if blocks == [1, 1] else sa.bsr(tuple(blocks))


def smallest_block(n):
    divisors = [b for b in range(2, max(n, 2) + 1) if n % b == 0]
    return divisors[0] if divisors else 1
