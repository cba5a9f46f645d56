"""ClipByValue, Select, SelectV2, Cast, ZerosLike, OnesLike, AddN, BroadcastTo, RefIdentity."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import (ALL, COMPLEX, NP, QUANTIZED, arr, const, is_float, is_int, ph, qarr,
                               rand, strings_of, tf_dtype, tol)


def _bounds(dt):
    """(low, high) scalar clip bounds that fit dtype `dt`."""
    if dt == "uint8":
        return 2, 6
    if is_int(dt):
        return -2, 4
    return -1.5, 2.0


def clip_by_value(rec, dtypes=ALL):
    op = "ClipByValue"

    def gen(dt):
        def c(what, t, lo, hi, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.ClipByValue(
                t=ph("x", t, dt), clip_value_min=ph("y", lo, dt), clip_value_max=ph("z", hi, dt),
                name="out"), error=error, phrases=phrases)

        lo, hi = _bounds(dt)
        x = rand(dt, [2, 3], "%s/%s/x" % (op, dt))
        c("scalar_bounds", x, lo, hi)
        c("tensor_bounds", x, np.minimum(rand(dt, [2, 3], "%s/%s/lo" % (op, dt)), lo),
          np.maximum(rand(dt, [2, 3], "%s/%s/hi" % (op, dt)), hi))
        c("min_greater_than_max", x, hi, lo)
        c("scalar_input", arr(5, dt), lo, hi)
        c("zero_size", rand(dt, [0, 3], "z"), lo, hi)
        if is_float(dt):
            c("nan_inf", arr([np.nan, np.inf, -np.inf, 0, 1.25, -3], dt), lo, hi)
        c("bounds_shape_error", x, arr([lo, lo, lo], dt), hi, error="INVALID_ARGUMENT",
          phrases=["clip_value_min and clip_value_max must be either of the same shape as "
                   "input, or a scalar"])

    rec.for_dtypes(op, dtypes, gen)


def select(rec, op, dtypes=ALL):
    def gen(dt):
        def c(what, cond, t, e, error=None, phrases=()):
            def build():
                cv, tv, ev = ph("x", cond, "bool"), ph("y", t, dt), ph("z", e, dt)
                if op == "Select":
                    return tf.raw_ops.Select(condition=cv, x=tv, y=ev, name="out")
                return tf.raw_ops.SelectV2(condition=cv, t=tv, e=ev, name="out")
            rec.case(op, dt, what, build, error=error, phrases=phrases)

        def r(shape, tag):
            return rand(dt, shape, "%s/%s/%s" % (op, dt, tag))

        cond = rand("bool", [2, 3], "%s/%s/cond" % (op, dt))
        c("same_shape", cond, r([2, 3], "t"), r([2, 3], "e"))
        c("scalar_cond_true", arr(True, "bool"), r([2, 3], "t"), r([2, 3], "e"))
        c("scalar_cond_false", arr(False, "bool"), r([2, 3], "t"), r([2, 3], "e"))
        c("zero_size", rand("bool", [0, 3], "c0"), r([0, 3], "t0"), r([0, 3], "e0"))
        if op == "Select":
            c("rank1_cond_matrix", arr([True, False], "bool"), r([2, 3], "t"), r([2, 3], "e"))
            c("rank1_cond_rank3", arr([False, True], "bool"), r([2, 2, 2], "t3"),
              r([2, 2, 2], "e3"))
            c("cond_shape_error", arr([True, False, True], "bool"), r([2, 3], "t"),
              r([2, 3], "e"), error="INVALID_ARGUMENT",
              phrases=["Number of batches of 'then' must match size of 'cond'"])
            c("operand_shape_error", cond, r([2, 3], "t"), r([3, 2], "e"),
              error="INVALID_ARGUMENT", phrases=["must have the same size and shape"])
        else:
            c("broadcast_cond_row", arr([True, False, True], "bool"), r([2, 3], "t"),
              r([2, 3], "e"))
            c("broadcast_all", arr([[True], [False]], "bool"), r([1, 3], "t"), r([], "e"))
            c("broadcast_rank3", rand("bool", [2, 1, 3], "c3"), r([4, 1], "t"),
              r([1, 4, 3], "e"))
            c("incompatible_shapes_error", cond, r([3, 2], "t"), r([2, 3], "e"),
              error="INVALID_ARGUMENT", phrases=["broadcastable"])

    rec.for_dtypes(op, dtypes, gen)


# Cast's dtypes beyond ALL (TensorFlow's CPU kernel casts between every pair of these, ALL,
# COMPLEX and QUANTIZED).
CAST_EXTRA = ["uint16", "uint32", "uint64", "bfloat16"]


def _cast_floating(dt):
    return is_float(dt) or dt == "bfloat16"


def _cast_values(src, dst):
    """In-range values for a src -> dst cast (out-of-range float -> int is undefined in C++)."""
    if src in CAST_EXTRA or dst in CAST_EXTRA:
        return _cast_extra_values(src, dst)
    if src == "bool":
        return [True, False, True]
    if is_float(src):
        if dst == "bool":
            return [0.0, -0.0, 0.5, -2.0, np.nan, np.inf, 1e-3]
        if is_float(dst):
            vals = [-1.7, -0.5, 0.0, 0.5, 1.7, 2.5, 100.9, -100.9, np.nan, np.inf, -np.inf,
                    1.0 / 3.0, 65504.0, -65520.0, 70000.0, 1e-8, 3e-5]
            if src == "float64":
                vals += [1e39, -1e39, 1e-46, 0.1]
            return vals
        if dst == "uint8":
            return [0.0, 0.5, 1.7, 2.5, 100.9, 254.9, 0.2, 255.0]
        lo = float(np.iinfo(NP[dst]).min)
        hi = -lo - 1
        vals = [-1.7, -0.5, 0.0, 0.5, 1.7, 2.5, -2.5, 100.9, -100.9, -127.9, 126.5]
        if dst != "int8":
            vals += [hi - 0.5 if dst == "int16" else 1000.25, lo]
        if dst == "int64" and src == "float64":
            vals += [2.0 ** 62, -(2.0 ** 63), 1e18 + 0.5]
        if dst in ("int32", "int64") and src == "float32":
            vals += [16777217.0, -2.0 ** 31]
        return vals
    info = np.iinfo(NP[src])
    vals = [0, 1, 7, info.max, info.min, info.max - 1, 200 if info.max >= 200 else 100]
    if info.min < 0:
        vals += [-1, -7, -129 if info.min < -129 else -100]
    if info.max > 70000:
        vals += [70000, 16777217, 65519, 65520, 300]
    elif info.max > 300:
        vals += [300, 2049]
    return vals


def _cast_extra_values(src, dst):
    """_cast_values for a pair with a CAST_EXTRA dtype: floating values kept only where they are
    in the destination's range once held in `src` (TensorFlow's float -> uint32 of a NaN or an
    out-of-range value depends on the element's place in its vector loop)."""
    if src == "bool":
        return [True, False, True]
    if not _cast_floating(src):
        info = np.iinfo(NP[src])
        vals = [0, 1, 7, info.max, info.min, info.max - 1, 100, 255, 256]
        if info.min < 0:
            vals += [-1, -7, -129 if info.min < -129 else -100]
        if info.max > 70000:
            vals += [70000, 16777217, 65519, 65520, 65535, 65536, 2 ** 31, 2 ** 31 + 129]
        elif info.max > 300:
            vals += [300, 2049, 32767, 32768]
        if info.max > 2 ** 40:
            vals += [2 ** 53 + 1, 2 ** 62 + 2 ** 39 + 1]
        return [v for v in vals if info.min <= v <= info.max]
    vals = [0.0, 0.5, 1.7, 2.5, 100.9, 254.9, 0.2, 255.0, -0.5, 1.0 / 3.0, 1.00415, -3.3]
    if dst == "bool":
        return vals + [-0.0, -2.0, np.nan, np.inf, 1e-3]
    if _cast_floating(dst):
        vals += [-1.7, -100.9, np.nan, np.inf, -np.inf, 65504.0, -65520.0, 70000.0, 1e-8, 3e-5,
                 1.0 + 2.0 ** -8 + 2.0 ** -12, 3.0e38]
        if src == "float64":
            vals += [1e39, -1e39, 1e-46, 0.1]
        return vals
    vals += [-1.7, -100.9, 126.5, 1000.25, 32766.5, 65534.9, 65535.0, 40000.5, 2147483520.0,
             3e9, 4294967040.0, 1e18, 2.0 ** 62, 9.2e18]
    info = np.iinfo(NP[dst])
    held = arr(vals, src).astype(np.float64)
    return [v for v, h in zip(vals, held)
            if np.isfinite(h) and (h >= 0 if info.min == 0 else h > info.min - 1)
            and h < info.max + 1 and h < 2.0 ** 63]


# Float -> int values outside the destination's range: C++ leaves the result undefined; these
# cases record what TensorFlow's CPU kernel gives (checked stable across runs).
CAST_OUT_OF_RANGE = [("float32", "int32"), ("float32", "int64"), ("float64", "int32"),
                     ("float32", "uint8"), ("half", "int32")]


def cast(rec, dtypes=ALL):
    op = "Cast"

    def gen(src):
        def c(what, x, dst, error=None, phrases=()):
            rec.case(op, src, what, lambda: tf.raw_ops.Cast(x=ph("x", x, src),
                                                            DstT=tf_dtype(dst), name="out"),
                     error=error, phrases=phrases)
        for dst in dtypes + (CAST_EXTRA if dtypes is ALL else []):
            c("to_" + dst, arr(_cast_values(src, dst), src), dst)
        c("zero_size_to_int32", rand(src, [0, 3], "z"), "int32")
        c("scalar_to_float32", arr(_cast_values(src, "float32")[1], src), "float32")
        c("matrix_to_int64", rand(src, [2, 3], "Cast/%s/matrix" % src), "int64")
        for s, d in CAST_OUT_OF_RANGE:
            if s == src:
                vals = [3e9, -3e9, 1e20, np.nan, np.inf, -np.inf, 300.0, -1.0, -1.7]
                c("out_of_range_to_" + d, arr(vals, s), d)
        if src in ("float32", "int32") and dtypes is ALL:
            # To the quantized dtypes: as to their integer dtypes (truncation, wrapping).
            vals = ([1.5, 2.5, -1.5, -2.5, 0.7, 300.7, -300.2, 70000.0, 1e10, np.nan]
                    if src == "float32" else [1, -1, 127, 128, -129, 255, 256, 70000, -70000])
            for q in QUANTIZED:
                c("to_" + q, arr(vals, src), q)

    rec.for_dtypes(op, dtypes, gen)
    if dtypes is not ALL:
        return

    def gen_extra(src):
        c = (lambda what, x, dst, truncate=False: rec.case(
            op, src, what, lambda: tf.raw_ops.Cast(x=ph("x", x, src), DstT=tf_dtype(dst),
                                                   Truncate=truncate, name="out")))
        for dst in ALL + CAST_EXTRA:
            if dst != src:
                c("to_" + dst, arr(_cast_values(src, dst), src), dst)
        c("zero_size_to_int32", rand(src, [0, 3], "z"), "int32")
        c("matrix_to_float32", rand(src, [2, 3], "Cast/%s/matrix" % src), "float32")
        for q in QUANTIZED:
            c("to_" + q, arr([0, 1, 7, 100, 127, 200], src), q)
        if src == "bfloat16":
            c("specials_to_float32", arr([np.nan, np.inf, -np.inf, -0.0, 3.0e38, 1e-40], src),
              "float32")
            c("subnormals_to_bool", arr([1e-40, -1e-40, 0.0, -0.0, 9.2e-41], src), "bool")

    rec.for_dtypes(op, CAST_EXTRA, gen_extra)

    def gen_truncate(src):
        # Truncate: a float or double cast to a narrower floating type rounds toward zero.
        vals = arr([1.0 + 2.0 ** -8 + 2.0 ** -12, -3.3, 1.0 / 3.0, -2.0 / 3.0, 65519.0, 65520.0,
                    np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-6, 3e-8, 3.0e38], src)
        for dst in ["half", "bfloat16"] + (["float32"] if src == "float64" else []):
            rec.case(op, src, "truncate_to_" + dst, lambda: tf.raw_ops.Cast(
                x=ph("x", vals, src), DstT=tf_dtype(dst), Truncate=True, name="out"))

    rec.for_dtypes(op, ["float32", "float64"], gen_truncate)

    def gen_quantized(src):
        # From the quantized dtypes: as from their integer dtypes, to every dtype and to each
        # other.
        lo, hi = {"qint8": (-128, 127), "quint8": (0, 255), "qint16": (-32768, 32767),
                  "quint16": (0, 65535), "qint32": (-2 ** 31, 2 ** 31 - 1)}[src]
        vals = qarr(np.clip([lo, -129, -1, 0, 1, 2, 127, 128, 255, 256, 70000, hi], lo, hi), src)

        def c(what, x, dst):
            rec.case(op, src, what, lambda: tf.raw_ops.Cast(x=ph("x", x, src),
                                                            DstT=tf_dtype(dst), name="out"))
        for dst in dtypes + QUANTIZED + CAST_EXTRA:
            if dst != src:
                c("to_" + dst, vals, dst)
        c("zero_size_to_float32", qarr(np.zeros([0, 2], np.int64), src), "float32")

    rec.for_dtypes(op, QUANTIZED, gen_quantized)


def like(rec, op, dtypes=ALL):
    def gen(dt):
        def c(what, x):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(x=ph("x", x, dt), name="out"))
        c("matrix", rand(dt, [2, 3], "%s/%s" % (op, dt)))
        c("scalar", rand(dt, [], "%s/%s/s" % (op, dt)))
        c("zero_size", rand(dt, [0, 3], "z"))
        if is_float(dt):
            c("nan_inf", arr([np.nan, np.inf, -np.inf, -0.0], dt))

    rec.for_dtypes(op, dtypes, gen)


def add_n(rec, dtypes=ALL):
    op = "AddN"
    names = ["x", "y", "z", "w"]

    def gen(dt):
        def c(what, values, kind="exact", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.AddN(
                inputs=[ph(names[i], v, dt) for i, v in enumerate(values)], name="out"),
                *tol(kind, dt), error=error, phrases=phrases)

        def r(shape, i):
            return rand(dt, shape, "%s/%s/%s/%d" % (op, dt, shape, i), "exact_sum")
        c("one_input", [r([2, 3], 0)])
        c("two_inputs", [r([2, 3], 0), r([2, 3], 1)])
        c("four_inputs", [r([2, 3], i) for i in range(4)], "reduce")
        c("two_scalars", [r([], 0), r([], 1)])
        c("zero_size", [r([0, 3], 0), r([0, 3], 1)])
        if is_int(dt):
            info = np.iinfo(NP[dt])
            c("overflow_wraps", [arr([info.max, info.min, info.max], dt),
                                 arr([1, -1 if info.min < 0 else info.max, info.max], dt)])
        if is_float(dt):
            c("nan_inf", [arr([np.nan, np.inf, np.inf, 1], dt), arr([1, -np.inf, 1, -0.0], dt)])
        c("shape_mismatch_error", [r([2, 3], 0), r([3, 2], 1)], error="INVALID_ARGUMENT",
          phrases=["must have the same size and shape"])

    rec.for_dtypes(op, dtypes, gen)


def broadcast_to(rec, dtypes=ALL + COMPLEX + ["string", "bfloat16", "uint16", "uint32",
                                                 "uint64"]):
    op = "BroadcastTo"

    def gen(dt):
        def c(what, x, shape, idx="int32", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.BroadcastTo(
                input=ph("x", x, None if dt == "string" else dt),
                shape=const("shape", shape, idx), name="out"), error=error, phrases=phrases)

        def r(shape):
            if dt == "string":
                return strings_of(op, shape)
            return rand(dt, shape, "%s/%s/%s" % (op, dt, shape))
        c("row_to_matrix", r([3]), [2, 3])
        c("column_to_matrix", r([2, 1]), [2, 3])
        c("scalar_to_matrix", r([]), [2, 2])
        c("same_shape", r([2, 3]), [2, 3])
        c("rank_increase", r([3, 1]), [2, 3, 4], "int64")
        c("zero_size", r([1, 3]), [0, 3])
        c("incompatible_error", r([2]), [3], error="INVALID_ARGUMENT",
          phrases=["Incompatible shapes: [2] vs. [3]"])

    rec.for_dtypes(op, dtypes, gen)


def ref_identity(rec):
    """RefIdentity of a VariableV2 (assigned first, ordered by a control edge): the fetched output
    is the variable's value, an AssignAdd through it updates the variable (its fetched ref output),
    and an uninitialized variable fails only where its value is read."""
    op = "RefIdentity"
    tf1 = tf.compat.v1

    def gen(dt):
        def variable(value):
            v = tf.raw_ops.VariableV2(shape=list(np.shape(value)), dtype=tf_dtype(dt), name="v")
            return v, tf.raw_ops.Assign(ref=v, value=const("v_init", value, dt), name="v_assign")

        def read(what, shape):
            value = rand(dt, shape, "%s/%s/%s" % (op, dt, what))

            def build():
                v, init = variable(value)
                with tf1.control_dependencies([init]):
                    return tf.raw_ops.RefIdentity(input=v, name="out")
            rec.case(op, dt, what, build)

        read("vector", [5])
        read("matrix", [2, 3])
        read("scalar", [])
        if dt in ("float32", "int32"):
            value = rand(dt, [4], "%s/%s/assign" % (op, dt))
            delta = rand(dt, [4], "%s/%s/delta" % (op, dt))

            def assign_through():
                v, init = variable(value)
                with tf1.control_dependencies([init]):
                    ref = tf.raw_ops.RefIdentity(input=v, name="out")
                return tf.raw_ops.AssignAdd(ref=ref, value=ph("delta", delta, dt), name="add")
            rec.case(op, dt, "assign_add_through_it", assign_through)

            def uninitialized():
                v = tf.raw_ops.VariableV2(shape=[2], dtype=tf_dtype(dt), name="v")
                return tf.raw_ops.RefIdentity(input=v, name="out")
            rec.case(op, dt, "uninitialized_error", uninitialized, error="FAILED_PRECONDITION",
                     phrases=["Attempting to use uninitialized value"])

    rec.for_dtypes(op, ["float32", "float64", "int32", "int64", "bool"], gen)


def build_all(rec, emit):
    clip_by_value(rec)
    emit("ClipByValue")
    for op in ("Select", "SelectV2"):
        select(rec, op)
        emit(op)
    cast(rec)
    emit("Cast")
    for op in ("ZerosLike", "OnesLike"):
        like(rec, op)
        emit(op)
    add_n(rec)
    emit("AddN")
    broadcast_to(rec)
    emit("BroadcastTo")
    ref_identity(rec)
    emit("RefIdentity")
