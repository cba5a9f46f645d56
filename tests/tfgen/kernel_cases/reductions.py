"""Sum, Mean, Max, Min, Prod, EuclideanNorm, ArgMax, ArgMin, All, Any, Cumsum, Cumprod,
CumulativeLogsumexp (Sum, Mean, Prod, EuclideanNorm, Cumsum and Cumprod also complex64 and
complex128, as TensorFlow's CPU kernels)."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import (ALL, COMPLEX, NP, arr, const, is_float, is_int, ph, rand, seed_of,
                               tf_dtype, tol)

REDUCE = ["Sum", "Mean", "Max", "Min", "Prod"]
# Sum, Prod, Cumsum and Cumprod also take these (TensorFlow's CPU kernels; they wrap).
WIDE_UNSIGNED = ["uint16", "uint32", "uint64"]
# ... and bfloat16, compared bit for bit: TensorFlow sums bfloat16 in float and rounds once,
# multiplies it in bfloat16 in Eigen's packet order, and rounds every step of its scans.
BF16 = ["bfloat16"]
# Sum, Mean, Prod, EuclideanNorm, Cumsum and Cumprod also take complex64 and complex128; their
# "nan_inf" cases put infinities and NaN in either part. Mean divides and EuclideanNorm squares
# with the plain formulas ((a c + b d) / (c^2 + d^2), x conj(x)), which NaN and infinities pass
# through as IEEE arithmetic does. Where TensorFlow's products follow C's Annex G rules in part of
# Eigen's loop (an infinite part can turn a NaN product back into an infinity, depending on where
# the element falls), the cases hold NaN but no infinities: ANNEX_G_PRODUCTS, and Prod's rows
# of finite and infinite values.
ANNEX_G_PRODUCTS = {("Prod", "complex128"), ("EuclideanNorm", "complex64")}


def _complex_specials(dt, shape, infinities=True):
    parts = [np.nan, 1.0, 2.0, np.inf, -np.inf, 3.0, np.inf, 1.0, 0.0, -0.0, 0.5, -1.5]
    if not infinities:
        parts = [1e15 if np.isinf(p) else p for p in parts]  # 1e15 squared fits float32
    n = int(np.prod(shape))
    re = np.reshape([parts[i % len(parts)] for i in range(n)], shape)
    im = np.reshape([parts[(5 * i + 3) % len(parts)] for i in range(n)], shape)
    out = np.zeros(shape, dtype=NP[dt])
    out.real, out.imag = re, im
    return out


def _bf16(shape, seed, lo, hi):
    """bfloat16 values with full 8-bit mantissas, so the order and rounding of each step shows."""
    rs = np.random.RandomState(seed_of(seed))
    return np.array(rs.uniform(lo, hi, size=shape), dtype=NP["bfloat16"])


def _values(op, dt, shape, tag):
    """Float operands whose sums (products for Prod in half) are exact, so TF's summation order
    does not matter; Prod of many int values overflows, so its int operands are small."""
    if op in ("Prod", "Cumprod"):
        kind = "pow2" if dt == "half" else "small"
    elif op == "CumulativeLogsumexp":
        kind = "any"
    else:
        kind = "exact_sum"
    return rand(dt, shape, "%s/%s/%s" % (op, dt, tag), kind)


def reduce(rec, op, dtypes=ALL):
    logical = op in ("All", "Any")
    dtypes = ["bool"] if logical else dtypes

    def gen(dt):
        kind = "exact" if op in ("Max", "Min") else "reduce"
        rtol, atol = tol(kind, dt)

        def c(what, x, axis, keep_dims=False, tidx="int32", error=None, phrases=()):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                input=ph("x", x, dt), axis=const("axis", axis, tidx), keep_dims=keep_dims,
                name="out"), rtol=rtol, atol=atol, error=error, phrases=phrases,
                case_dtype="" if logical else None)

        x = _values(op, dt, [2, 3, 4], "x")
        c("axis0", x, 0)
        c("axis1_keep_dims", x, 1, keep_dims=True)
        c("axis_negative", x, -1)
        c("axis_list", x, [0, 2])
        c("axis_list_keep_dims", x, [0, 2], keep_dims=True)
        c("axis_all", x, [0, 1, 2])
        c("axis_empty_list", x, np.zeros([0], np.int32))
        c("axis_int64", x, [-2], tidx="int64")
        c("scalar_input", _values(op, dt, [], "s"), np.zeros([0], np.int32))
        c("vector_all", _values(op, dt, [7], "v"), 0)
        c("zero_size_dim_reduced", _values(op, dt, [0, 3], "z"), 0)
        c("zero_size_dim_kept", _values(op, dt, [0, 3], "z"), 1)
        if is_float(dt):
            c("nan_inf", arr([[np.nan, 1, 2], [np.inf, -np.inf, 3], [np.inf, 1, 0]], dt), 1)
        if dt in COMPLEX:
            c("nan_parts", _complex_specials(dt, [4, 3], infinities=False), 1)
            if (op, dt) not in ANNEX_G_PRODUCTS:
                c("nan_inf", _complex_specials(dt, [4, 3]), 1)
                if op != "Prod":
                    c("finite_and_inf_rows", _complex_specials(dt, [3, 4]), 0)
        if is_int(dt) and op in ("Sum", "Prod", "Mean", "EuclideanNorm"):
            # Sum and Prod wrap; Mean's sum does not (TF accumulates it wider).
            c("sum_overflows", arr([[100, 100, 100], [120, 120, 3], [1, 2, 3]], dt), 1)
        if dt in WIDE_UNSIGNED:
            top = int(np.iinfo(NP[dt]).max)
            c("sum_overflows", arr([[top, top, 3], [top - 1, 2, 1], [1, 2, 3]], dt), 1)
        if is_int(dt) and op == "Mean" and dt != "uint8":
            c("negative_truncation", arr([[-7, 0, 0], [7, 0, 1], [-8, -1, 0]], dt), 1)
        if op in ("Sum", "Mean") and dt in ("float32", "float64") + tuple(COMPLEX):
            c("large_1000", _values(op, dt, [1000], "large"), 0)
        if dt == "bfloat16":
            lo, hi = (0.6, 1.5) if op == "Prod" else (-4.0, 4.0)
            for n in (7, 8, 31, 33, 100, 1000):
                c("rounded_vector_%d" % n, _bf16([n], (op, "vector", n), lo, hi), 0)
            c("rounded_rows", _bf16([5, 45], (op, "rows"), lo, hi), 1)
            c("rounded_rows_keep_dims", _bf16([3, 2, 37], (op, "rows3"), lo, hi), [2],
              keep_dims=True)
            for outer, k, inner in ((1, 20, 8), (2, 17, 9), (3, 40, 16), (2, 3, 7)):
                c("rounded_columns_%dx%dx%d" % (outer, k, inner),
                  _bf16([outer, k, inner], (op, "cols", outer, k, inner), lo, hi), 1)
            c("rounded_axes_first_last", _bf16([3, 5, 7], (op, "fl"), lo, hi), [0, 2])
            c("rounded_axes_transposed", _bf16([2, 3, 4, 5], (op, "tr"), lo, hi), [0, 2])
            c("rounded_axes_collapsed", _bf16([6, 7, 3, 4], (op, "co"), lo, hi), [0, 1, 3])
            c("nan_inf", arr([[np.nan, 1, 2], [np.inf, -np.inf, 3], [np.inf, 1, 0]], dt), 1)
            c("overflow_to_inf", arr([[3e38, 3e38, 1], [-3e38, 2, 1]], dt), 1)
        c("axis_out_of_range_error", x, 3, error="INVALID_ARGUMENT",
          phrases=["Invalid reduction dimension (3 for input with 3 dimension(s)"])

    rec.for_dtypes(op, dtypes, gen)


def arg_reduce(rec, op, dtypes=ALL):
    def gen(dt):
        def c(what, x, axis, out="int64", tidx="int32", error=None, phrases=()):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                input=ph("x", x, dt), dimension=const("dimension", axis, tidx),
                output_type=tf_dtype(out), name="out"), error=error, phrases=phrases)

        x = rand(dt, [3, 4], "%s/%s/x" % (op, dt))
        c("axis0", x, 0)
        c("axis1_int32_output", x, 1, out="int32")
        c("axis_negative", x, -1)
        c("axis_int64", x, 0, tidx="int64", out="int32")
        c("rank3_axis1", rand(dt, [2, 3, 2], "%s/%s/x3" % (op, dt)), 1)
        c("vector", rand(dt, [7], "%s/%s/v" % (op, dt)), 0)
        ties = [[1, 3, 3, 0], [2, 2, 2, 2], [0, 1, 0, 1]] if dt != "bool" else \
            [[True, False, True, True], [False, False, False, False], [True, True, True, True]]
        c("ties_first_index", arr(ties, dt), 1)
        if is_float(dt):
            c("nan_inf", arr([[np.nan, 1, 2], [np.inf, -np.inf, 3], [1, np.nan, 5],
                              [-np.inf, -np.inf, -np.inf]], dt), 1)
        c("zero_size_other_dim", rand(dt, [0, 3], "z"), 1)
        c("axis_out_of_range_error", x, 2, error="INVALID_ARGUMENT",
          phrases=["Expected dimension in the range [-2, 2), but got 2"])
        c("empty_reduction_error", rand(dt, [0, 3], "z"), 0, error="INVALID_ARGUMENT",
          phrases=["Reduction axis 0 is empty in shape [0,3]"])

    rec.for_dtypes(op, dtypes, gen)


def cumsum(rec, op="Cumsum", dtypes=ALL):
    """Cumsum and the other scans (Cumprod, CumulativeLogsumexp)."""
    def gen(dt):
        rtol, atol = tol("loose" if op == "CumulativeLogsumexp" else "reduce", dt)

        def c(what, x, axis, exclusive=False, reverse=False, tidx="int32", error=None,
              phrases=()):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                x=ph("x", x, dt), axis=const("axis", axis, tidx), exclusive=exclusive,
                reverse=reverse, name="out"), rtol=rtol, atol=atol, error=error,
                phrases=phrases)

        x = _values(op, dt, [2, 3, 4], "x")
        c("axis0", x, 0)
        c("axis1", x, 1)
        c("axis_negative", x, -1)
        c("exclusive", x, 2, exclusive=True)
        c("reverse", x, 2, reverse=True)
        c("exclusive_reverse", x, 1, exclusive=True, reverse=True)
        c("axis_int64", x, 1, tidx="int64")
        c("vector", _values(op, dt, [7], "v"), 0)
        c("zero_size", _values(op, dt, [0, 3], "z"), 1)
        if dt in COMPLEX:
            c("nan_inf", _complex_specials(dt, [12]), 0)
            c("nan_inf_reverse", _complex_specials(dt, [2, 6]), 1, reverse=True)
        if is_float(dt):
            c("nan_inf", arr([1, np.inf, -np.inf, 2, np.nan, 3], dt), 0)
            if op != "Cumsum":
                c("infinities", arr([-np.inf, -np.inf, np.inf, np.inf, 1], dt), 0)
                c("infinities_exclusive", arr([-np.inf, -np.inf, np.inf, np.inf, 1], dt), 0,
                  exclusive=True)
        if is_int(dt) and op == "Cumprod":
            c("product_overflows", arr([100, 100, 100, 7, 120, 3], dt), 0)
        if dt in WIDE_UNSIGNED:
            top = int(np.iinfo(NP[dt]).max)
            c("wraps", arr([top, 2, 3, top - 1, 70, 1], dt), 0)
        if dt in ("float32", "float64") + tuple(COMPLEX) and op != "Cumprod":
            c("large_1000", _values(op, dt, [1000], "large"), 0)
        if dt == "bfloat16":
            lo, hi = (0.6, 1.5) if op == "Cumprod" else (-4.0, 4.0)
            c("rounded_vector_300", _bf16([300], (op, "vector"), lo, hi), 0)
            c("rounded_axis1", _bf16([3, 40, 5], (op, "axis1"), lo, hi), 1)
            c("rounded_exclusive_reverse", _bf16([4, 33], (op, "excl"), lo, hi), 1,
              exclusive=True, reverse=True)
            c("nan_inf", arr([1, np.inf, -np.inf, 2, np.nan, 3], dt), 0)
        c("axis_out_of_range_error", x, 3, error="INVALID_ARGUMENT",
          phrases=["ScanOp: Expected scan axis in the range [-3, 3), but got 3"])

    rec.for_dtypes(op, dtypes, gen)


def build_all(rec, emit):
    for op in REDUCE:
        reduce(rec, op, ALL + WIDE_UNSIGNED + BF16 + COMPLEX if op in ("Sum", "Prod") else
               ALL + BF16 + COMPLEX if op == "Mean" else
               ALL + WIDE_UNSIGNED + BF16 if op in ("Max", "Min") else ALL)
        emit(op)
    for op in ("ArgMax", "ArgMin"):
        arg_reduce(rec, op, ALL + WIDE_UNSIGNED)
        emit(op)
    for op in ("All", "Any"):
        reduce(rec, op)
        emit(op)
    for op in ("Cumsum", "Cumprod", "CumulativeLogsumexp"):
        cumsum(rec, op, ALL + WIDE_UNSIGNED + BF16 + COMPLEX if op != "CumulativeLogsumexp" else
               ALL)
        emit(op)
    reduce(rec, "EuclideanNorm", ALL + WIDE_UNSIGNED + COMPLEX)
    emit("EuclideanNorm")
