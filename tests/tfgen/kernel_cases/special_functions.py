"""Special functions of two and three arguments: Igamma, Igammac, IgammaGradA, Zeta, Betainc, and
RandomGammaGrad (the derivative of a gamma sample in its alpha, tf.random.gamma's gradient)."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import arr, ph, rand, seed_of, tol

FLOATS = ["float32", "float64"]


def _positive(dt, shape, seed, scale=1.0):
    return arr(rand(dt, shape, seed, "positive") * scale, dt)


def incomplete_gamma(rec, op):
    """Igamma, Igammac or IgammaGradA(a, x): broadcasting, the series (x < a + 1) and continued
    fraction (x > a + 1) regions, large a, and the domain's edges (a <= 0, x < 0, inf, NaN)."""
    raw = getattr(tf.raw_ops, op)

    def gen(dt):
        rtol, atol = tol("loose", dt)

        def c(what, a, x):
            rec.case(op, dt, what, lambda: raw(a=ph("a", a, dt), x=ph("x", x, dt), name="out"),
                     rtol=rtol, atol=atol)

        def operands(what, sa, sx):
            seed = "%s/%s/%s" % (op, dt, what)
            return _positive(dt, sa, seed + "a"), _positive(dt, sx, seed + "x")

        c("same_shape", *operands("same_shape", [2, 3], [2, 3]))
        c("scalar_a", arr(2.5, dt), _positive(dt, [2, 3], "%s/%s/scalar_a" % (op, dt)))
        c("scalar_x", _positive(dt, [2, 3], "%s/%s/scalar_x" % (op, dt)), arr(1.5, dt))
        c("broadcast_both", *operands("broadcast_both", [3, 1], [1, 4]))
        c("zero_size", *operands("zero_size", [0, 3], [1, 3]))
        if dt == "float32":
            c("large_1000", *operands("large_1000", [1000], [1000]))
        a = [0.5, 1, 5, 50, 200, 0.01, 3, 20, 1, 100]
        x = [1e-3, 0.5, 3, 40, 230, 2, 30, 1e-5, 1e-30, 99]
        c("series_and_fraction", arr(a, dt), arr(x, dt))
        c("domain_edges", arr([0, -1, 2, 2, 2, np.nan, 1, np.inf, 3], dt),
          arr([1, 1, -0.5, 0, np.inf, 1, np.nan, 2, 1e6], dt))

    rec.for_dtypes(op, FLOATS, gen)


def random_gamma_grad(rec):
    """RandomGammaGrad(alpha, sample): broadcasting, small and large alpha and samples, the
    domain's edges (alpha <= 0, sample <= 0, inf, NaN)."""
    op = "RandomGammaGrad"

    def gen(dt):
        rtol, atol = tol("loose", dt)

        def c(what, a, x):
            rec.case(op, dt, what, lambda: tf.raw_ops.RandomGammaGrad(
                alpha=ph("alpha", a, dt), sample=ph("sample", x, dt), name="out"),
                rtol=rtol, atol=atol)
        seed = "%s/%s/" % (op, dt)
        c("same_shape", _positive(dt, [2, 3], seed + "a"), _positive(dt, [2, 3], seed + "x"))
        c("scalar_alpha", arr(2.5, dt), _positive(dt, [2, 3], seed + "scalar_alpha"))
        c("broadcast_both", _positive(dt, [3, 1], seed + "ba"), _positive(dt, [1, 4], seed + "bx"))
        c("zero_size", _positive(dt, [0, 3], seed + "za"), _positive(dt, [1, 3], seed + "zx"))
        a = [0.5, 1, 5, 50, 200, 0.01, 3, 20, 1, 100, 0.3, 7]
        x = [1e-3, 0.5, 3, 40, 230, 2, 30, 1e-5, 1e-30, 99, 0.2, 6.5]
        c("series_and_fraction", arr(a, dt), arr(x, dt))
        c("domain_edges", arr([0, -1, 2, 2, 2, np.nan, 1, np.inf, 3], dt),
          arr([1, 1, -0.5, 0, np.inf, 1, np.nan, 2, 1e6], dt))

    rec.for_dtypes(op, FLOATS, gen)


def zeta(rec):
    """Zeta(x, q) = sum_k (q + k)^-x: broadcasting, large and small q, the pole x = 1, x < 1 and
    non-positive q (TensorFlow's NaN and inf there)."""
    op = "Zeta"

    def gen(dt):
        rtol, atol = tol("loose", dt)

        def c(what, x, q):
            rec.case(op, dt, what,
                     lambda: tf.raw_ops.Zeta(x=ph("x", x, dt), q=ph("q", q, dt), name="out"),
                     rtol=rtol, atol=atol)

        def exponents(shape, what):
            return arr(1.5 + _positive(dt, shape, "%s/%s/%s/x" % (op, dt, what)), dt)

        c("same_shape", exponents([2, 3], "same"), _positive(dt, [2, 3], "%s/%s/q" % (op, dt)))
        c("scalar_x", arr(2, dt), _positive(dt, [2, 3], "%s/%s/scalar_x" % (op, dt)))
        c("broadcast_both", exponents([3, 1], "both"), _positive(dt, [1, 4], "%s/%s/b" % (op, dt)))
        c("zero_size", exponents([0, 3], "zero"), _positive(dt, [1, 3], "%s/%s/z" % (op, dt)))
        if dt == "float32":
            c("large_1000", exponents([1000], "large"),
              _positive(dt, [1000], "%s/%s/large" % (op, dt)))
        c("values", arr([2, 4, 3, 1.5, 10, 2, 30, 1.01], dt),
          arr([1, 1, 0.5, 100, 2, 1e-3, 1.5, 1], dt))
        c("domain_edges", arr([1, 0.5, -2, 2, 3, 2, 2, np.nan, 2], dt),
          arr([1, 1, 1, 0, -2, -1.5, np.inf, 1, np.nan], dt))

    rec.for_dtypes(op, FLOATS, gen)


def betainc(rec):
    """Betainc(a, b, x): operands scalar or of one shape (no broadcasting), the continued
    fraction's two regions, the domain's edges, and TensorFlow's shape errors."""
    op = "Betainc"

    def gen(dt):
        rtol, atol = tol("loose", dt)

        def c(what, a, b, x, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.Betainc(
                a=ph("a", a, dt), b=ph("b", b, dt), x=ph("x", x, dt), name="out"),
                rtol=rtol, atol=atol, error=error, phrases=phrases)

        def unit(shape, what):
            u = np.random.RandomState(seed_of(op, dt, what, "x"))
            return arr(u.uniform(0.01, 0.99, size=shape), dt)

        def params(shape, what):
            return _positive(dt, shape, "%s/%s/%s" % (op, dt, what))

        c("same_shape", params([2, 3], "a"), params([2, 3], "b"), unit([2, 3], "x"))
        c("scalar_x", params([2, 3], "sa"), params([2, 3], "sb"), arr(0.3, dt))
        c("scalar_a_b", arr(2.5, dt), arr(0.7, dt), unit([3, 2], "sx"))
        c("scalar_a", arr(1.5, dt), params([4], "a4"), unit([4], "x4"))
        c("all_scalars", arr(2, dt), arr(3, dt), arr(0.4, dt))
        c("zero_size", params([0, 3], "za"), arr(2, dt), unit([0, 3], "zx"))
        if dt == "float32":
            c("large_1000", params([1000], "la"), params([1000], "lb"), unit([1000], "lx"))
        c("values", arr([0.5, 5, 50, 1, 0.1, 200, 3, 10], dt),
          arr([0.5, 2, 60, 1, 0.2, 100, 30, 0.5], dt),
          arr([0.2, 0.9, 0.45, 0.75, 1e-4, 0.7, 0.05, 0.999], dt))
        c("domain_edges", arr([0, -1, 2, 2, 2, 2, np.nan, 2, np.inf], dt),
          arr([2, 2, 0, 3, 3, 3, 2, 2, 2], dt),
          arr([0.5, 0.5, 0.5, 0, 1, 1.5, 0.5, -0.1, 0.5], dt))
        c("shapes_a_b_error", params([2], "ea"), params([3], "eb"), arr(0.5, dt),
          error="INVALID_ARGUMENT", phrases=["Shapes of a and b are inconsistent"])
        c("shapes_a_x_error", params([2], "fa"), arr(2, dt), unit([3], "fx"),
          error="INVALID_ARGUMENT", phrases=["Shapes of a and x are inconsistent"])
        c("shapes_b_x_error", arr(2, dt), params([2, 2], "gb"), unit([4], "gx"),
          error="INVALID_ARGUMENT", phrases=["Shapes of b and x are inconsistent"])
        c("no_broadcasting_error", params([1, 3], "ha"), params([2, 3], "hb"), unit([2, 3], "hx"),
          error="INVALID_ARGUMENT", phrases=["Shapes of a and b are inconsistent"])

    rec.for_dtypes(op, FLOATS, gen)


def build_all(rec, emit):
    for op in ["Igamma", "Igammac", "IgammaGradA"]:
        incomplete_gamma(rec, op)
        emit(op)
    zeta(rec)
    emit("Zeta")
    betainc(rec)
    emit("Betainc")
    random_gamma_grad(rec)
    emit("RandomGammaGrad")
