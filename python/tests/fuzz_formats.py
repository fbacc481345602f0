"""Storage formats the fuzz harnesses draw (every format the package
names, the plugins' and block formats included: "hash" is seed 002's
hashed level under dense ones), shared by
fuzz_programs.py and fuzz_idioms.py."""
import sparse_array as sa

FORMATS = {0: ["dense"], 1: ["dense", "compressed", "loose", "hash"],
           2: ["dense", "csr", "csc", "coo", "dcsr", "dia", "ell", "bsr", "loose", "hash"],
           3: ["dense", "csf", "coo", "loose", "hash"]}

# "loose": a loose_compressed level where CSR/CSF has its first compressed
# one (outermost for vectors).
LOOSE = {1: ["loose_compressed"], 2: ["dense", "loose_compressed"],
         3: ["dense", "loose_compressed", "compressed"]}


def resolve(fmt, shape):
    """The format to pass for `shape`: "bsr" becomes sa.bsr of the
    smallest blocks (> 1 where possible) dividing the extents — blocks of a
    whole small matrix included; "csr" when no extent can be blocked;
    "loose" a format with a loose_compressed level."""
    if fmt == "loose":
        return sa.Format(LOOSE[len(shape)])
    if fmt != "bsr":
        return fmt
    blocks = []
    for n in shape:
        divisors = [b for b in range(2, max(n, 2) + 1) if n % b == 0]
        blocks.append(divisors[0] if divisors else 1)
    return "csr" if blocks == [1, 1] else sa.bsr(tuple(blocks))
