"""Gradient cases for ops/math_ops.cc: broadcasting arithmetic, unary functions, reductions,
matrix products, casts."""
import numpy as np
import tensorflow as tf

from grad_cases import rand

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
