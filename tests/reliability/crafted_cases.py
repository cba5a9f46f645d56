"""What the crafted rounds 10-12 (crafted_round10.py, crafted_round11.py, crafted_round12.py)
share: the command line that runs a round's families from one seed into a recorded suite, and the
value helpers hostile cases draw from (uniform values, poisoned arrays, a tolerance scaled to a
case's outputs). Each round's cases are recorded by crafted_round9.py's recorder (Gen).

    import crafted_cases
    FAMILIES = [("name", fam_function, count), ...]   # fam_function(gen, count) records cases
    if __name__ == "__main__":
        crafted_cases.main(FAMILIES, seed=12, out="crafted_round12.pbtxt.gz")
"""
import argparse
import os

import crafted_round9 as r9  # sets TF_ENABLE_ONEDNN_OPTS=0 before TensorFlow
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
NAN, INF = float("nan"), float("inf")


def main(families, seed, out):
    """Parses --seed, --out, --only and -n, runs each family (scaled by -n) into one Gen and writes
    the suite; prints each family's count and the totals."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=seed)
    ap.add_argument("--out", default=os.path.join(HERE, "data", out))
    ap.add_argument("--only", default="")
    ap.add_argument("-n", type=float, default=1.0, help="scales every family's count")
    args = ap.parse_args()
    g = r9.Gen(args.seed)
    for name, fam, n in families:
        if args.only and args.only not in name:
            continue
        before = len(g.cases)
        fam(g, max(1, int(n * args.n)))
        print("%-12s %4d cases" % (name, len(g.cases) - before), flush=True)
    g.write(args.out)
    print("%d cases (%d ran, %d refused), %d skipped, written to %s" % (
        len(g.cases), g.stats["ok"], g.stats["error"], g.skipped, args.out))


def scaled_atol(scale):
    """A tolerance function for Gen.case: `scale` times the largest finite output magnitude (at
    least `scale`)."""
    def atol(outputs):
        m = 1.0
        for o in outputs:
            o = np.asarray(o)
            if o.dtype.kind == "f" and o.size:
                finite = np.abs(o[np.isfinite(o)])
                if finite.size:
                    m = max(m, float(finite.max()))
        return scale * m
    return atol


def uniform(g, *shape, lo=-1.0, hi=1.0, dtype=np.float32):
    """Values drawn uniformly from [lo, hi) by g's random stream, of `shape`."""
    return np.array([g.r.uniform(lo, hi) for _ in range(int(np.prod(shape)))],
                    dtype=np.float64).astype(dtype).reshape(shape)


def poison(g, a, p=0.2, specials=(NAN, INF, -INF, -0.0, 1e30, -1e30, 1e-40)):
    """`a` with NaN, +-inf, -0, 1e30 and subnormals (or `specials`) at random places."""
    a = a.copy()
    flat = a.reshape(-1)
    with np.errstate(over="ignore", invalid="ignore"):
        for i in range(flat.size):
            if g.r.random() < p:
                flat[i] = g.r.choice(specials)
    return a
