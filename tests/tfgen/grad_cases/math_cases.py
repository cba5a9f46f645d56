"""Gradient cases for ops/math_ops.cc: broadcasting arithmetic, unary functions, reductions,
matrix products, casts."""
import numpy as np
import tensorflow as tf

from grad_cases import rand, seed_of

raw = tf.raw_ops


def cases(add):
    for op in ["Add", "AddV2", "Sub", "Mul", "RealDiv", "Div"]:
        fn = getattr(raw, op)
        kind = "nonzero" if op in ("RealDiv", "Div") else "any"
        for what, sx, sy in [("same_shape", [2, 3], [2, 3]), ("broadcast_row", [4, 3], [3]),
                             ("broadcast_both", [2, 1, 3], [4, 1]), ("scalar", [3, 2], [])]:
            for dt in [np.float32, np.float64]:
                add(op, what, [("x", rand(sx, (op, what, "x", dt), "any", dt)),
                               ("y", rand(sy, (op, what, "y", dt), kind, dt))],
                    lambda x, y, fn=fn: fn(x=x, y=y, name="out"))
    for op, kind in [("Neg", "any"), ("Square", "any"), ("Sqrt", "positive"), ("Rsqrt", "positive"),
                     ("Exp", "any"), ("Log", "positive"), ("Tanh", "any"), ("Sigmoid", "any"),
                     ("Identity", "any")]:
        fn = getattr(raw, op)
        for dt in [np.float32, np.float64]:
            add(op, "rank2", [("x", rand([3, 4], (op, dt), kind, dt))],
                lambda x, fn=fn: fn(x=x, name="out") if fn is not raw.Identity else
                fn(input=x, name="out"))
    add("Cast", "to_double", [("x", rand([2, 3], "cast"))],
        lambda x: raw.Cast(x=x, DstT=tf.float64, name="out"))
    add("Cast", "to_int_and_back", [("x", rand([2, 3], "cast_int"))],
        lambda x: raw.Cast(x=raw.Cast(x=x, DstT=tf.int32), DstT=tf.float32, name="out"))
    for op in ["Sum", "Mean"]:
        fn = getattr(raw, op)
        for what, shape, axis, keep in [("all", [2, 3, 4], [0, 1, 2], False),
                                        ("axis1", [2, 3, 4], [1], False),
                                        ("negative_axis_keep", [2, 3, 4], [-1], True),
                                        ("axes02", [2, 3, 4], [0, 2], False)]:
            add(op, what, [("x", rand(shape, (op, what)))],
                lambda x, fn=fn, axis=axis, keep=keep: fn(
                    input=x, axis=tf.constant(axis), keep_dims=keep, name="out"))
    for ta in [False, True]:
        for tb in [False, True]:
            a_shape = [4, 3] if ta else [3, 4]
            b_shape = [5, 4] if tb else [4, 5]
            add("MatMul", "ta%d_tb%d" % (ta, tb),
                [("a", rand(a_shape, ("mm", ta, tb, "a"))), ("b", rand(b_shape, ("mm", ta, tb, "b")))],
                lambda a, b, ta=ta, tb=tb: raw.MatMul(a=a, b=b, transpose_a=ta, transpose_b=tb,
                                                      name="out"))
    more_cases(add)
    parameterized_truncated_normal(add)


def sparse(shape, seed, dt):
    """Values with about half the entries zero, as the sparse flags expect."""
    v = rand(shape, seed)
    v[rand(shape, (seed, "mask"), "unit") < 0] = 0
    return v.astype(dt)


def sparse_matmul(add):
    """SparseMatMul (math_grad.cc), recorded with the nn family (nn_cases.py calls this), whose test
    links the Relu gradient its ReluGrad case needs: every transpose pair with each sparse flag
    (the gradient's products take the flags along), float x bfloat16 operands (float products
    cast back), and a gradient made by ReluGrad (which TensorFlow takes as sparse)."""
    bf16 = tf.bfloat16.as_numpy_dtype

    def mm(a, b, ta=False, tb=False, sa=False, sb=False):
        return raw.SparseMatMul(a=a, b=b, transpose_a=ta, transpose_b=tb, a_is_sparse=sa,
                                b_is_sparse=sb, name="out")

    for ta in [False, True]:
        for tb in [False, True]:
            a_shape = [4, 3] if ta else [3, 4]
            b_shape = [5, 4] if tb else [4, 5]
            for sa, sb in [(False, False), (True, False), (False, True), (True, True)]:
                seed = ("smm", ta, tb, sa, sb)
                add("SparseMatMul", "ta%d_tb%d_sa%d_sb%d" % (ta, tb, sa, sb),
                    [("a", sparse(a_shape, seed + ("a",), np.float32)),
                     ("b", sparse(b_shape, seed + ("b",), np.float32))],
                    lambda a, b, ta=ta, tb=tb, sa=sa, sb=sb: mm(a, b, ta, tb, sa, sb))
    # bfloat16 operands: TensorFlow's products run in float and are rounded once to bfloat16.
    for what, da, db, sa in [("a_bfloat16", bf16, np.float32, False),
                             ("b_bfloat16", np.float32, bf16, False),
                             ("both_bfloat16_sparse", bf16, bf16, True),
                             ("both_bfloat16", bf16, bf16, False)]:
        add("SparseMatMul", what,
            [("a", sparse([3, 4], ("smm_bf", what, "a"), da)),
             ("b", sparse([4, 5], ("smm_bf", what, "b"), db))],
            lambda a, b, sa=sa: mm(a, b, sa=sa), rtol=1e-2, atol=1e-2)
    add("SparseMatMul", "relu_grad_is_sparse",
        [("a", sparse([3, 4], ("smm_relu", "a"), np.float32)),
         ("b", sparse([4, 5], ("smm_relu", "b"), np.float32))],
        lambda a, b: raw.Relu(features=mm(a, b, sa=True), name="relu"))


def binary(add, op, kind_x, kind_y, shapes=None, dtypes=(np.float32, np.float64), rtol=1e-5,
           atol=1e-6, fn=None, names=("x", "y")):
    fn = fn or getattr(raw, op)
    shapes = shapes or [("same_shape", [2, 3], [2, 3]), ("broadcast_row", [4, 3], [3]),
                        ("broadcast_both", [2, 1, 3], [4, 1]), ("scalar", [3, 2], [])]
    for what, sx, sy in shapes:
        for dt in dtypes:
            add(op, what, [(names[0], rand(sx, (op, what, "x", dt), kind_x, dt)),
                           (names[1], rand(sy, (op, what, "y", dt), kind_y, dt))],
                lambda x, y, fn=fn, names=names: fn(**{names[0]: x, names[1]: y}, name="out"),
                rtol, atol)


def unary(add, op, kind, shapes=([3, 4],), dtypes=(np.float32, np.float64), rtol=1e-5, atol=1e-6,
          arg="x"):
    fn = getattr(raw, op)
    for shape in shapes:
        for dt in dtypes:
            what = "rank%d" % len(shape)
            add(op, what, [("x", rand(shape, (op, what, dt), kind, dt))],
                lambda x, fn=fn: fn(**{arg: x}, name="out"), rtol, atol)


def distinct(shape, seed, dtype=np.float32):
    """Values with no ties (a permutation scaled), for Max/Min-like ops."""
    n = int(np.prod(shape))
    rng = np.random.RandomState(seed_of(seed))
    return (rng.permutation(n).reshape(shape) * 0.25 - n * 0.1).astype(dtype)


def more_cases(add):
    add("AddN", "three", [("a", rand([2, 3], "addn_a")), ("b", rand([2, 3], "addn_b")),
                          ("c", rand([2, 3], "addn_c"))],
        lambda a, b, c: raw.AddN(inputs=[a, b, c], name="out"))
    add("AddN", "same_input_twice", [("a", rand([4], "addn2_a", dtype=np.float64))],
        lambda a: raw.AddN(inputs=[a, a], name="out"))
    binary(add, "Pow", "positive", "any")
    binary(add, "Pow", "nonzero", "any", shapes=[("negative_base", [2, 3], [2, 3])])
    for op in ["Maximum", "Minimum"]:
        binary(add, op, "any", "any")
    binary(add, "SquaredDifference", "any", "any")
    binary(add, "DivNoNan", "any", "nonzero")
    add("DivNoNan", "zero_divisor", [("x", rand([2, 3], "dnn_x")),
                                     ("y", np.array([[1.5, 0, -2], [0, 0.5, 1]], np.float32))],
        lambda x, y: raw.DivNoNan(x=x, y=y, name="out"))
    binary(add, "MulNoNan", "any", "any")
    add("MulNoNan", "zero_and_nan", [("x", np.array([[np.nan, 1.5], [np.inf, -2]], np.float32)),
                                     ("y", np.array([[0, 2], [0, 0.5]], np.float32))],
        lambda x, y: raw.MulNoNan(x=x, y=y, name="out"))
    binary(add, "FloorDiv", "any", "nonzero", shapes=[("same_shape", [2, 3], [2, 3])])
    binary(add, "FloorMod", "any", "nonzero")
    binary(add, "TruncateDiv", "any", "nonzero", shapes=[("same_shape", [2, 3], [2, 3])])
    for op in ["Xlogy", "Xlog1py", "Xdivy"]:
        binary(add, op, "any", "positive")
        add(op, "zero_x", [("x", np.array([[0, 1.5, 0], [2, 0, -1]], np.float32)),
                           ("y", rand([2, 3], (op, "zero_x_y"), "positive"))],
            lambda x, y, fn=getattr(raw, op): fn(x=x, y=y, name="out"))
    binary(add, "Atan2", "nonzero", "nonzero", names=("y", "x"))
    for op in ["Select", "SelectV2"]:
        fn = getattr(raw, op)
        keys = ("x", "y") if op == "Select" else ("t", "e")
        for what, sc, sx, sy in [("same_shape", [2, 3], [2, 3], [2, 3]),
                                 ("vector_condition", [2], [2, 3], [2, 3])] + (
                                     [("broadcast", [3], [2, 1], [2, 3]),
                                      ("scalar_branch", [2, 3], [], [2, 3])]
                                     if op == "SelectV2" else []):
            if op == "SelectV2" and what == "vector_condition":
                continue
            for dt in [np.float32, np.float64]:
                cond = rand(sc, (op, what, "c")) > 0
                add(op, what, [("t", rand(sx, (op, what, "t", dt), "any", dt)),
                               ("e", rand(sy, (op, what, "e", dt), "any", dt))],
                    lambda t, e, fn=fn, cond=cond, keys=keys: fn(
                        condition=tf.constant(cond), **{keys[0]: t, keys[1]: e}, name="out"))
    for what, sx, slo, shi in [("scalar_bounds", [3, 4], [], []), ("same_shape", [3, 4], [3, 4], [3, 4])]:
        for dt in [np.float32, np.float64]:
            x = distinct(sx, ("clip", what, "x"), dt)
            lo = np.full(slo, -0.6, dt) if not slo else rand(slo, ("clip", what, "lo"), "any", dt) - 0.55
            hi = np.full(shi, 0.7, dt) if not shi else rand(shi, ("clip", what, "hi"), "any", dt) + 0.6
            add("ClipByValue", what, [("t", x), ("lo", lo), ("hi", hi)],
                lambda t, lo, hi: raw.ClipByValue(t=t, clip_value_min=lo, clip_value_max=hi,
                                                  name="out"))
    binary(add, "Cross", "any", "any", shapes=[("vector", [3], [3]), ("batch", [2, 4, 3], [2, 4, 3])],
           names=("a", "b"))
    for op, kind in [("Abs", "nonzero"), ("Sign", "nonzero"), ("Reciprocal", "nonzero"),
                     ("Sin", "any"), ("Cos", "any"), ("Sinh", "any"), ("Cosh", "any"),
                     ("Log1p", "positive"), ("Expm1", "any"), ("Erf", "any"), ("Erfc", "any"),
                     ("Asinh", "any"), ("Atanh", "unit"), ("Lgamma", "positive"),
                     ("Erfinv", "unit"), ("BesselI0e", "nonzero"), ("BesselI1e", "nonzero"),
                     ("Floor", "any"), ("Ceil", "any"), ("Round", "any"),
                     ("Atan", "any"), ("Asin", "unit"), ("Acos", "unit"), ("Tan", "unit"),
                     ("Rint", "any"), ("Inv", "nonzero"),
                     ("BesselI0", "any"), ("BesselI1", "nonzero"), ("BesselJ0", "any"),
                     ("BesselJ1", "nonzero"), ("BesselY0", "positive"), ("BesselY1", "positive"),
                     ("BesselK0", "positive"), ("BesselK1", "positive"),
                     ("BesselK0e", "positive"), ("BesselK1e", "positive"), ("Dawsn", "any"),
                     ("Expint", "positive"), ("FresnelCos", "any"), ("FresnelSin", "any"),
                     ("Spence", "positive")]:
        unary(add, op, kind, shapes=([3, 4], [2, 1, 3]))
    add("Acosh", "rank2", [("x", rand([3, 4], "acosh", "positive") + 1.0)],
        lambda x: raw.Acosh(x=x, name="out"))
    add("Acosh", "rank2", [("x", rand([3, 4], "acosh64", "positive", np.float64) + 1.0)],
        lambda x: raw.Acosh(x=x, name="out"))
    unary(add, "Digamma", "positive", shapes=([3, 4], [2, 1, 3]))
    add("Digamma", "negative_x", [("x", np.array([-0.5, -1.25, -2.6, 0.3, 4.5], np.float64))],
        lambda x: raw.Digamma(x=x, name="out"))
    # Polygamma: the order `a` (integers) is fed too; its gradient is None, as in TensorFlow.
    for what, a, sx in [("same_shape", [[0, 1, 2], [3, 1, 0]], [2, 3]),
                        ("scalar_order", 1, [3, 4]), ("broadcast_both", [[0], [2]], [1, 3])]:
        for dt in [np.float32, np.float64]:
            add("Polygamma", what, [("x", rand(sx, ("polygamma", what, dt), "positive", dt)),
                                    ("a", np.array(a, dt))],
                lambda x, a: raw.Polygamma(a=a, x=x, name="out"))
    # Igamma / Igammac: both a and x differentiated (a through IgammaGradA); Zeta: q only.
    for op in ["Igamma", "Igammac"]:
        for what, sa, sx in [("same_shape", [2, 3], [2, 3]), ("scalar_a", [], [3, 4]),
                             ("broadcast_both", [3, 1], [1, 4])]:
            for dt in [np.float32, np.float64]:
                add(op, what, [("a", rand(sa, (op, what, "a", dt), "positive", dt) + 0.5),
                               ("x", rand(sx, (op, what, "x", dt), "positive", dt) + 0.2)],
                    lambda a, x, fn=getattr(raw, op): fn(a=a, x=x, name="out"))
    for what, sx, sq in [("same_shape", [2, 3], [2, 3]), ("scalar_x", [], [3, 4]),
                         ("broadcast_both", [3, 1], [1, 4])]:
        for dt in [np.float32, np.float64]:
            add("Zeta", what, [("q", rand(sq, ("zeta", what, "q", dt), "positive", dt) + 0.5),
                               ("x", rand(sx, ("zeta", what, "x", dt), "positive", dt) + 1.5)],
                lambda q, x: raw.Zeta(x=x, q=q, name="out"))
    # Betainc: x only (a and b get None, as in TensorFlow); operands scalar or of x's shape.
    for what, sa, sb, sx in [("same_shape", [2, 3], [2, 3], [2, 3]),
                             ("scalar_a_b", [], [], [3, 4]), ("scalar_x", [2, 2], [2, 2], []),
                             ("ones_at_the_ends", None, None, [4])]:
        for dt in [np.float32, np.float64]:
            if sa is None:  # a = 1 and b = 1: xlogy/xlog1py keep the partial finite at x = 0, 1
                a, b = np.array([1, 2, 1, 3], dt), np.array([1, 1, 2, 1], dt)
                x = np.array([0.0, 0.3, 0.0, 0.6], dt)
            else:
                a = rand(sa, ("betainc", what, "a", dt), "positive", dt) + 0.5
                b = rand(sb, ("betainc", what, "b", dt), "positive", dt) + 0.5
                x = rand(sx, ("betainc", what, "x", dt), "unit", dt) * 0.45 + 0.5
            add("Betainc", what, [("x", x), ("a", a), ("b", b)],
                lambda x, a, b: raw.Betainc(a=a, b=b, x=x, name="out"))
    for dt in [np.float32, np.float64]:
        add("Ndtri", "rank2", [("x", rand([3, 4], ("ndtri", dt), "unit", dt) * 0.5 + 0.5)],
            lambda x: raw.Ndtri(x=x, name="out"))
        add("BesselI1e", "with_zero", [("x", np.array([0, 1.5, -0.5, 2], dt))],
            lambda x: raw.BesselI1e(x=x, name="out"))
    for op in ["ArgMax", "ArgMin"]:
        add(op, "axis1", [("x", distinct([3, 4], (op, "x")))],
            lambda x, fn=getattr(raw, op): fn(input=x, dimension=tf.constant(1), name="out"))
    # Gradients of the first-order gradient ops (second derivatives).
    for op in ["SigmoidGrad", "TanhGrad", "RsqrtGrad", "SqrtGrad"]:
        kind = "positive" if op in ("RsqrtGrad", "SqrtGrad") else "unit"
        for dt in [np.float32, np.float64]:
            add(op, "rank2", [("y", rand([3, 4], (op, "y", dt), kind, dt)),
                              ("dy", rand([3, 4], (op, "dy", dt), "any", dt))],
                lambda y, dy, fn=getattr(raw, op): fn(y=y, dy=dy, name="out"))
    # Reductions.
    reductions = [("all", [2, 3, 4], [0, 1, 2], False), ("axis1", [2, 3, 4], [1], False),
                  ("negative_axis_keep", [2, 3, 4], [-1], True), ("axes02", [2, 3, 4], [0, 2], False),
                  ("scalar_axis", [3, 4], 0, False)]
    for op in ["Max", "Min", "Prod", "EuclideanNorm"]:
        fn = getattr(raw, op)
        for what, shape, axis, keep in reductions:
            for dt in [np.float32, np.float64]:
                x = distinct(shape, (op, what, dt), dt) if op in ("Max", "Min") else \
                    rand(shape, (op, what, dt), "nonzero" if op == "Prod" else "any", dt)
                add(op, what, [("x", x)],
                    lambda x, fn=fn, axis=axis, keep=keep: fn(
                        input=x, axis=tf.constant(axis), keep_dims=keep, name="out"))
    add("Max", "ties", [("x", np.array([[1, 3, 3], [2, 2, 2]], np.float32))],
        lambda x: raw.Max(input=x, axis=tf.constant([1]), keep_dims=False, name="out"))
    add("Prod", "with_zero", [("x", np.array([[1.5, 0, 2], [0, 0, 3], [1, -2, 0.5]], np.float32))],
        lambda x: raw.Prod(input=x, axis=tf.constant([1]), keep_dims=False, name="out"))
    for op in ["Cumsum", "Cumprod", "CumulativeLogsumexp"]:
        fn = getattr(raw, op)
        for axis in [0, 1, -1]:
            for exclusive in [False, True]:
                for reverse in [False, True]:
                    if op == "Cumsum" and axis == -1 and (exclusive or reverse):
                        continue
                    dt = np.float64 if (exclusive and reverse) else np.float32
                    kind = "nonzero" if op == "Cumprod" else "any"
                    add(op, "axis%d_ex%d_rev%d" % (axis, exclusive, reverse),
                        [("x", rand([3, 4], (op, axis, exclusive, reverse), kind, dt))],
                        lambda x, fn=fn, axis=axis, e=exclusive, r=reverse: fn(
                            x=x, axis=tf.constant(axis), exclusive=e, reverse=r, name="out"))


def parameterized_truncated_normal(add):
    """StatelessParameterizedTruncatedNormal differentiated in its four parameters: broadcast
    against each other and under the sample dims `shape` adds in front, and all of one shape."""
    for what, shape, ps in [("broadcast", [3, 2, 4], [[2, 1], [4], [], [2, 4]]),
                            ("same_shape", [5, 3], [[3], [3], [3], [3]])]:
        for dt in [np.float32, np.float64]:
            mean = rand(ps[0], ("ptn", what, "mean", dt), "any", dt)
            stddev = rand(ps[1], ("ptn", what, "stddev", dt), "positive", dt)
            minval = (-1.0 - rand(ps[2], ("ptn", what, "min", dt), "positive", dt)).astype(dt)
            maxval = (1.0 + rand(ps[3], ("ptn", what, "max", dt), "positive", dt)).astype(dt)
            add("StatelessParameterizedTruncatedNormal", what,
                [("means", mean), ("stddevs", stddev), ("minvals", minval), ("maxvals", maxval)],
                lambda m, sd, lo, hi, shape=shape: raw.StatelessParameterizedTruncatedNormal(
                    shape=tf.constant(shape), seed=tf.constant([7, 11], tf.int64), means=m,
                    stddevs=sd, minvals=lo, maxvals=hi, name="out"))
