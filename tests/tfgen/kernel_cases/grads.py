"""The gradient helpers of TensorFlow's training graphs: ReluGrad, Relu6Grad, EluGrad, SeluGrad,
LeakyReluGrad, SoftplusGrad, SigmoidGrad, TanhGrad, SqrtGrad, RsqrtGrad, BiasAddGrad,
BroadcastGradientArgs, InvertPermutation."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import ALL, FLOATS, arr, const, ph, rand, tol

REAL = [dt for dt in ALL if dt != "bool"]


def _elementwise(rec, op, dtypes, first, second, kind, second_kind="any", attrs=None):
    """`first`/`second`: the op's two input names (gradients/features or y/dy)."""
    def gen(dt):
        rtol, atol = tol(kind, dt)

        def c(what, a, b, error=None, phrases=()):
            def build():
                kwargs = dict(attrs or {})
                kwargs[first] = ph("x", a, dt)
                kwargs[second] = ph("y", b, dt)
                return getattr(tf.raw_ops, op)(name="out", **kwargs)

            rec.case(op, dt, what, build, rtol=rtol, atol=atol, error=error, phrases=phrases)

        base = "%s/%s" % (op, dt)
        c("matrix", rand(dt, [3, 4], base + "/a"), rand(dt, [3, 4], base + "/b", second_kind))
        c("with_edges", rand(dt, [7], base + "/c"),
          arr([0, 1, 6, 7, 2, 1, 3], dt) if dt not in FLOATS else
          arr([-1, 0, 6, 0.5, -0.25, 2, 1], dt))
        c("zero_size", rand(dt, [0, 2], base + "/z"), rand(dt, [0, 2], base + "/z2"))
        same_count_only = first == "y"  # SigmoidGrad & co. check element counts only
        c("shape_mismatch_error", rand(dt, [2], base + "/e"), rand(dt, [3], base + "/f"),
          error="INVALID_ARGUMENT",
          phrases=["must have same number of elements, got 2 and 3" if same_count_only else
                   "must have the same size and shape.  Input 0: [2] != input 1: [3]"])
        if same_count_only:
            c("same_count_other_shape", rand(dt, [2, 3], base + "/g"),
              rand(dt, [3, 2], base + "/h", second_kind))

    rec.for_dtypes(op, dtypes, gen)


def _bias_add_grad(rec):
    def gen(dt):
        rtol, atol = tol("reduce", dt)

        def c(what, x, fmt="NHWC", error=None, phrases=()):
            rec.case("BiasAddGrad", dt, what, lambda: tf.raw_ops.BiasAddGrad(
                out_backprop=ph("x", x, dt), data_format=fmt, name="out"), rtol=rtol, atol=atol,
                error=error, phrases=phrases)

        base = "BiasAddGrad/" + dt
        c("matrix", rand(dt, [5, 3], base + "/m", "exact_sum"))
        c("nhwc", rand(dt, [2, 3, 2, 4], base + "/n", "exact_sum"))
        if dt in FLOATS:
            c("nchw", rand(dt, [2, 3, 2, 2], base + "/c", "exact_sum"), fmt="NCHW")
        c("rank1_error", rand(dt, [3], base + "/e"), error="INVALID_ARGUMENT",
          phrases=["Input tensor must be at least 2D: [3]"])

    rec.for_dtypes("BiasAddGrad", REAL, gen)


def _broadcast_gradient_args(rec):
    def gen(dt):
        def c(what, s0, s1, error=None, phrases=()):
            rec.case("BroadcastGradientArgs", dt, what, lambda: tf.raw_ops.BroadcastGradientArgs(
                s0=ph("x", np.array(s0, dtype=dt), dt), s1=ph("y", np.array(s1, dtype=dt), dt),
                name="out"), error=error, phrases=phrases)

        c("same", [2, 3], [2, 3])
        c("row_vector", [2, 3], [3])
        c("column", [2, 3], [2, 1])
        c("scalar", [2, 3], [])
        c("both_broadcast", [4, 1, 3], [2, 1])
        c("ones_everywhere", [1, 2], [1, 1])
        c("same_with_ones", [1, 3], [1, 3])
        c("incompatible_error", [2, 3], [4], error="INVALID_ARGUMENT",
          phrases=["Incompatible shapes: [2,3] vs. [4]"])

    rec.for_dtypes("BroadcastGradientArgs", ["int32", "int64"], gen)


def _invert_permutation(rec):
    def gen(dt):
        def c(what, x, error=None, phrases=()):
            rec.case("InvertPermutation", dt, what, lambda: tf.raw_ops.InvertPermutation(
                x=ph("x", np.array(x, dtype=dt), dt), name="out"), error=error, phrases=phrases)

        c("basic", [2, 0, 3, 1])
        c("empty", [])
        c("out_of_range_error", [0, 3, 1], error="INVALID_ARGUMENT",
          phrases=["3 is not between 0 and 3"])
        c("duplicate_error", [1, 1, 0], error="INVALID_ARGUMENT",
          phrases=["1 is duplicated in the input."])

    rec.for_dtypes("InvertPermutation", ["int32", "int64"], gen)


def build_all(rec, emit):
    specs = [
        ("ReluGrad", REAL, "gradients", "features", "exact"),
        ("Relu6Grad", REAL, "gradients", "features", "exact"),
        ("EluGrad", FLOATS, "gradients", "outputs", "transc"),
        ("SeluGrad", FLOATS, "gradients", "outputs", "transc"),
        ("SoftplusGrad", FLOATS, "gradients", "features", "loose"),
        ("SigmoidGrad", FLOATS, "y", "dy", "transc"),
        ("TanhGrad", FLOATS, "y", "dy", "transc"),
        ("SqrtGrad", FLOATS, "y", "dy", "transc"),
        ("RsqrtGrad", FLOATS, "y", "dy", "transc"),
    ]
    for op, dtypes, first, second, kind in specs:
        second_kind = "positive" if op in ("SqrtGrad", "RsqrtGrad") else "any"
        _elementwise(rec, op, dtypes, first, second, kind, second_kind)
        emit(op)
    _elementwise(rec, "LeakyReluGrad", FLOATS, "gradients", "features", "transc",
                 attrs={"alpha": 0.3})
    emit("LeakyReluGrad")
    _bias_add_grad(rec)
    emit("BiasAddGrad")
    _broadcast_gradient_args(rec)
    emit("BroadcastGradientArgs")
    _invert_permutation(rec)
    emit("InvertPermutation")
