"""Gathers, OneHot, Where, TopKV2, Unique, ReverseV2, Reverse, EnsureShape, UnravelIndex, Bitcast, identity-like ops, CheckNumerics,
IdentityN.

Every dtype gets a basic case; float32 (the "full" dtype) gets every case.
"""
import numpy as np
import tensorflow as tf

from kernel_cases.core import ALL, FLOATS, NP, arr, const, is_float, ph, rand, tf_dtype

FULL = "float32"


def _r(op, dt, shape, tag=""):
    return rand(dt, shape, "%s/%s/%s/%s" % (op, dt, shape, tag))


def gather_v2(rec, dtypes=ALL):
    op = "GatherV2"

    def gen(dt):
        def c(what, params, indices, axis, tind="int32", batch_dims=0, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.GatherV2(
                params=ph("x", params, dt), indices=ph("y", indices, tind),
                axis=const("axis", axis), batch_dims=batch_dims, name="out"),
                error=error, phrases=phrases)
        p = _r(op, dt, [3, 4])
        c("axis0", p, [2, 0], 0)
        if dt != FULL:
            return
        c("axis1", p, [3, 0, 1], 1)
        c("axis_negative", p, [1, 1], -1)
        c("indices_rank2", p, [[0, 2], [1, 0]], 0)
        c("scalar_index", p, 2, 1)
        c("indices_int64", p, [1, 2, 1], 0, "int64")
        c("rank3_params_axis1", _r(op, dt, [2, 3, 2]), [[2], [0]], 1)
        c("empty_indices", p, np.zeros([0], np.int32), 0)
        c("batch_dims1", _r(op, dt, [2, 3]), [[0, 2], [1, 1]], 1, batch_dims=1)
        c("index_out_of_range_error", p, [1, 7], 0, error="INVALID_ARGUMENT",
          phrases=["indices[1] = 7 is not in [0, 3)"])
        c("negative_index_error", p, [-1, 0], 1, error="INVALID_ARGUMENT",
          phrases=["indices[0] = -1 is not in [0, 4)"])

    rec.for_dtypes(op, dtypes, gen)


def gather(rec, dtypes=ALL):
    op = "Gather"

    def gen(dt):
        def c(what, params, indices, tind="int32", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.Gather(
                params=ph("x", params, dt), indices=ph("y", indices, tind), name="out"),
                error=error, phrases=phrases)
        p = _r(op, dt, [3, 4])
        c("rows", p, [2, 0, 2])
        if dt != FULL:
            return
        c("indices_rank2", p, [[0, 1], [2, 2]])
        c("indices_int64", p, [1], "int64")
        c("scalar_index", p, 1)
        c("vector_params", _r(op, dt, [5]), [4, 0, 3])
        c("index_out_of_range_error", p, [0, 3], error="INVALID_ARGUMENT",
          phrases=["indices[1] = 3 is not in [0, 3)"])

    rec.for_dtypes(op, dtypes, gen)


def gather_nd(rec, dtypes=ALL):
    op = "GatherNd"

    def gen(dt):
        def c(what, params, indices, tind="int32", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.GatherNd(
                params=ph("x", params, dt), indices=ph("y", indices, tind), name="out"),
                error=error, phrases=phrases)
        p = _r(op, dt, [3, 4])
        c("elements", p, [[0, 1], [2, 3]])
        if dt != FULL:
            return
        c("rows", p, [[1], [0], [1]])
        c("single_element", p, [2, 0])
        c("indices_rank3", p, [[[0, 0], [1, 1]], [[2, 2], [0, 3]]])
        c("indices_int64", _r(op, dt, [2, 3, 2]), [[1, 2], [0, 0]], "int64")
        c("empty_indices", p, np.zeros([0, 2], np.int32))
        c("index_out_of_range_error", p, [[0, 0], [3, 0]], error="INVALID_ARGUMENT",
          phrases=["indices[1] = [3, 0] does not index into param shape [3,4]"])

    rec.for_dtypes(op, dtypes, gen)


def one_hot(rec, dtypes=ALL):
    op = "OneHot"

    def gen(dt):
        def c(what, indices, depth, on, off, axis=-1, ti="int32", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.OneHot(
                indices=ph("x", indices, ti),
                # A bad Const depth is rejected by TF's shape function while building the graph.
                depth=(ph if error else const)("depth", depth, "int32"),
                on_value=ph("on_value", on, dt), off_value=ph("off_value", off, dt),
                axis=axis, name="out"), error=error, phrases=phrases)
        on, off = (True, False) if dt == "bool" else (5, 2)
        c("axis_last", [0, 2, -1, 5, 1], 3, on, off)
        if dt != FULL:
            return
        c("default_like_values", [1, 0], 2, 1, 0)
        c("axis0", [0, 2, -1, 1], 3, on, off, axis=0)
        c("indices_rank2", [[0, 1], [3, 2]], 4, -1.5, 0.25)
        c("indices_rank2_axis1", [[0, 1], [3, 2]], 4, on, off, axis=1)
        c("indices_int64", [2, 0], 3, on, off, ti="int64")
        c("indices_uint8", [2, 255, 0], 3, on, off, ti="uint8")
        c("scalar_index", 1, 3, on, off)
        c("zero_depth", [0, 1], 0, on, off)
        c("empty_indices", np.zeros([0], np.int32), 3, on, off)
        c("negative_depth_error", [0, 1], -1, on, off, error="INVALID_ARGUMENT",
          phrases=["depth must be non-negative, got: -1"])

    rec.for_dtypes(op, dtypes, gen)


def where(rec, dtypes=ALL):
    op = "Where"

    def gen(dt):
        def c(what, x, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.Where(condition=ph("x", x, dt),
                                                            name="out"),
                     error=error, phrases=phrases)
        if dt == "bool":
            c("rank1", [True, False, True, True, False])
            c("rank2", [[False, True, True], [True, False, False]])
            c("rank3", rand("bool", [2, 3, 2], "Where/r3"))
            c("all_false", [False, False, False])
            c("scalar_error", True, error="INVALID_ARGUMENT",
              phrases=["WhereOp : Unhandled input dimensions: 0"])
            c("zero_size", np.zeros([0, 3], np.bool_))
            return
        values = [[0, 1, 0], [2, 0, 3]]
        if dt == "half":  # TF registers the kernel only to fail at run time
            c("half_unimplemented_error", arr(values, dt), error="UNIMPLEMENTED",
              phrases=["No WhereOp available for float16/half type on CPU"])
            return
        c("nonzero_rank2", arr(values, dt))
        if is_float(dt):
            c("nan_inf_negative_zero", arr([0.0, -0.0, np.nan, np.inf, -1.0, 1e-3], dt))

    rec.for_dtypes(op, dtypes, gen)


def top_k(rec, dtypes=ALL):
    op = "TopKV2"

    def gen(dt):
        def c(what, x, k, tk="int32", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.TopKV2(
                input=ph("x", x, dt), k=const("k", k, tk), sorted=True, name="out"),
                error=error, phrases=phrases)
        c("vector", _r(op, dt, [7]), 3)
        c("ties_lower_index_first", arr([1, 3, 3, 2, 3, 0], dt), 4)
        if dt != FULL:
            return
        c("matrix_rows", _r(op, dt, [3, 5]), 2)
        c("k_equals_size", _r(op, dt, [2, 4]), 4)
        c("k_zero", _r(op, dt, [2, 4]), 0)
        c("k_int64", _r(op, dt, [6]), 2, "int64")
        c("rank3", _r(op, dt, [2, 2, 3]), 1)
        c("inf_values", arr([1, -np.inf, np.inf, 0, -1], dt), 5)
        c("k_too_large_error", _r(op, dt, [2, 3]), 4, error="INVALID_ARGUMENT",
          phrases=["input must have at least k columns. Had 3, needed 4"])

    rec.for_dtypes(op, dtypes, gen)


def nth_element(rec):
    op = "NthElement"

    def gen(dt):
        def c(what, x, n, reverse=False, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.NthElement(
                input=ph("x", x, dt), n=ph("n", n, "int32"), reverse=reverse, name="out"),
                error=error, phrases=phrases)
        c("matrix", _r(op, dt, [3, 5]), 2)
        c("reverse", _r(op, dt, [2, 2, 4]), 0, reverse=True)
        if dt != FULL:
            return
        c("vector_last", _r(op, dt, [6]), 5)
        c("ties", arr([[1, 1, 2, 2], [3, 3, 3, 0]], dt), 1)
        c("zero_rows", _r(op, dt, [0, 3]), 1)
        c("n_too_large_error", _r(op, dt, [2, 3]), 3, error="INVALID_ARGUMENT",
          phrases=["Input must have last dimension > n = 3"])
        c("negative_n_error", _r(op, dt, [2, 3]), -1, error="INVALID_ARGUMENT",
          phrases=["n must be non-negative but is -1"])

    rec.for_dtypes(op, [d for d in ALL if d != "bool"], gen)


def unique(rec, dtypes=ALL, op="Unique"):
    """Unique or UniqueWithCounts."""

    def gen(dt):
        def c(what, x, out_idx="int32", error=None, phrases=()):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                x=ph("x", x, dt), out_idx=tf_dtype(out_idx), name="out"),
                error=error, phrases=phrases)
        c("repeats", arr([True, False, False, True] if dt == "bool" else [1, 3, 1, 2, 3, 0, 2],
                         dt))
        if dt != FULL:
            return
        c("out_idx_int64", arr([5, 5, -1, 5], dt), "int64")
        c("all_same", arr([2, 2, 2], dt))
        c("all_distinct", _r(op, dt, [5]))
        c("signed_zeros_and_inf", arr([0.0, -0.0, np.inf, 1.0, np.inf], dt))
        c("empty", arr([], dt))
        c("rank2_error", _r(op, dt, [2, 2]), error="INVALID_ARGUMENT",
          phrases=["unique expects a 1D vector"])

    rec.for_dtypes(op, dtypes, gen)


def unique_v2(rec, dtypes=ALL):
    """UniqueV2: an empty axis (Unique's 1-D form) or one axis over slices of any rank."""
    op = "UniqueV2"

    def gen(dt):
        def c(what, x, axis, taxis="int64", out_idx="int32", fed_axis=False, error=None,
              phrases=()):
            def build():
                a = (ph("axis", np.asarray(axis, NP[taxis])) if fed_axis
                     else const("axis", axis, taxis))
                return tf.raw_ops.UniqueV2(x=ph("x", x, dt), axis=a, out_idx=tf_dtype(out_idx),
                                           name="out")
            rec.case(op, dt, what, build, error=error, phrases=phrases)

        rows = (arr([[True, False], [False, True], [True, False]], dt) if dt == "bool"
                else arr([[1, 2], [3, 0], [1, 2], [3, 1]], dt))
        c("rows_axis0", rows, [0])
        if dt != FULL:
            return
        c("empty_axis_vector", arr([1, 3, 1, 2, 3], dt), [])
        c("columns_axis1_int32", arr([[1, 2, 1, 0], [3, 4, 3, 0]], dt), [1], taxis="int32",
          out_idx="int64")
        c("negative_axis", arr([[1, 2, 1], [3, 4, 3]], dt), [-1])
        c("rank3_middle_axis", arr([[[1, 2], [1, 2], [0, 2]], [[5, 6], [5, 6], [5, 6]]], dt),
          [1])
        c("vector_axis0", arr([0.0, -0.0, 4, 4, 1], dt), [0])
        c("fed_axis", rows, [0], fed_axis=True)
        c("zero_rows", np.zeros([0, 3], NP[dt]), [0])
        c("empty_slices", np.zeros([3, 0], NP[dt]), [0])
        c("nan_rows_distinct", arr([[np.nan, 1], [np.nan, 1]], dt), [0])
        c("axis_out_of_range_error", rows, [2], error="INVALID_ARGUMENT",
          phrases=["axis has to be between [0, 2)"])
        c("empty_axis_rank2_error", rows, [], error="INVALID_ARGUMENT",
          phrases=["unique expects a 1D vector"])
        c("two_axes_error", rows, [0, 1], error="INVALID_ARGUMENT",
          phrases=["axis does not support input tensors larger than 1 elements"])
        c("scalar_axis_error", rows, 0, fed_axis=True, error="INVALID_ARGUMENT",
          phrases=["axis expects a 1D vector"])

    rec.for_dtypes(op, dtypes, gen)


def reverse(rec, dtypes=ALL):
    op = "ReverseV2"

    def gen(dt):
        def c(what, x, axis, tidx="int32", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.ReverseV2(
                tensor=ph("x", x, dt), axis=const("axis", axis, tidx), name="out"),
                error=error, phrases=phrases)
        x = _r(op, dt, [2, 3])
        c("axis0", x, [0])
        if dt != FULL:
            return
        c("axis1", x, [1])
        c("axis_negative", x, [-1])
        c("both_axes", x, [0, 1])
        c("no_axes", x, np.zeros([0], np.int32))
        c("rank3_axes_0_2", _r(op, dt, [2, 3, 2]), [0, 2])
        c("axis_int64", x, [1], "int64")
        c("zero_size", _r(op, dt, [0, 3]), [1])
        c("duplicate_axis_error", x, [0, 0], error="INVALID_ARGUMENT",
          phrases=["axis 0 specified more than once"])
        c("axis_out_of_range_error", x, [2], error="INVALID_ARGUMENT",
          phrases=["'axis'[0] = 2 is out of valid range"])

    rec.for_dtypes(op, dtypes, gen)


def reverse_v1(rec, dtypes=ALL):
    """Reverse: a bool flag per dim."""
    op = "Reverse"

    def gen(dt):
        def c(what, x, dims, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.Reverse(
                tensor=ph("x", x, dt), dims=const("dims", np.array(dims, np.bool_), "bool"),
                name="out"), error=error, phrases=phrases)
        x = _r(op, dt, [2, 3])
        c("dim0", x, [True, False])
        if dt != FULL:
            return
        c("dim1", x, [False, True])
        c("both_dims", x, [True, True])
        c("no_dims", x, [False, False])
        c("rank3_dims_0_2", _r(op, dt, [2, 3, 2]), [True, False, True])
        c("zero_size_inner", _r(op, dt, [2, 0]), [True, True])
        c("zero_first_dim_error", _r(op, dt, [0, 3]), [False, True], error="INVALID_ARGUMENT",
          phrases=["Invalid input first dimension. Found 0."])
        c("scalar_ignores_dims", _r(op, dt, []), [True, False, True])
        c("dims_count_error", x, [True, False, True], error="INVALID_ARGUMENT",
          phrases=["'dims' must have the same number of values as 'input' has dimensions. "
                   "'input' has 2'dims' has 3 values"])

    rec.for_dtypes(op, dtypes, gen)


def ensure_shape(rec, dtypes=ALL):
    """EnsureShape: the input when its shape fits the attr (-1 dims and unknown rank match all)."""
    op = "EnsureShape"

    def gen(dt):
        def c(what, x, shape, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.EnsureShape(
                input=ph("x", x, dt), shape=shape, name="out"), error=error, phrases=phrases)
        x = _r(op, dt, [2, 3])
        c("exact", x, [2, 3])
        if dt != FULL:
            return
        c("partial", x, [None, 3])
        c("unknown_rank", x, None)
        c("scalar", _r(op, dt, []), [])
        c("zero_size", _r(op, dt, [0, 3]), [0, None])
        c("dim_mismatch_error", x, [3, None], error="INVALID_ARGUMENT",
          phrases=["Shape of tensor ", "[2,3] is not compatible with expected shape [3,?]."])
        c("rank_mismatch_error", x, [6], error="INVALID_ARGUMENT",
          phrases=["Shape of tensor ", "[2,3] is not compatible with expected shape [6]."])

    rec.for_dtypes(op, dtypes, gen)


def unravel_index(rec):
    op = "UnravelIndex"

    def gen(dt):
        def c(what, indices, dims, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.UnravelIndex(
                indices=ph("x", indices, dt), dims=ph("dims", dims, dt), name="out"),
                error=error, phrases=phrases, case_dtype=dt)
        c("vector", [22, 41, 37], [7, 6])
        c("scalar", 1621, [6, 7, 8, 9])
        c("empty_indices_error", np.zeros([0], np.int64), [3, 4], error="INVALID_ARGUMENT",
          phrases=["received empty tensor indices: Tensor<type: %s shape: [0] values: >" % dt])
        c("one_dim", [0, 4, 2], [5])
        c("zero_dim_error", [5], [2, 0], error="INVALID_ARGUMENT",
          phrases=["Input dims cannot contain a dim of zero, but dims contains zero at index 1"])
        c("negative_dim_error", [5], [-2, 3], error="INVALID_ARGUMENT",
          phrases=["Input dims cannot be negative. Got dim = -2 at index 0"])
        c("out_of_bound_error", [1, 4], [2, 2], error="INVALID_ARGUMENT",
          phrases=["index is out of bound as with dims"])
        c("indices_rank_error", [[1, 2], [0, 1]], [2, 2], error="INVALID_ARGUMENT",
          phrases=["The indices can only be scalar or vector, got \"[2,2]\""])
        if dt == "int32":
            c("overflow_error", [1], [65536, 65536], error="INVALID_ARGUMENT",
              phrases=["Input dims product is causing integer overflow"])

    rec.for_dtypes(op, ["int32", "int64"], gen)


def bitcast(rec):
    """Bitcast to a same-size, smaller and larger type where there is one."""
    op = "Bitcast"
    same = {"float32": "int32", "float64": "int64", "half": "int16", "int32": "float32",
            "int64": "float64", "uint8": "int8", "int8": "uint8", "int16": "half",
            "complex64": "float64", "complex128": "complex128"}
    smaller = {"float32": "int16", "float64": "float32", "half": "uint8", "int32": "int8",
               "int64": "int32", "int16": "int8", "complex64": "float32",
               "complex128": "float64"}
    larger = {"uint8": "int16", "int8": "half", "int16": "float32", "half": "int32",
              "float32": "float64", "int32": "int64", "float64": "complex128",
              "int64": "complex128", "complex64": "complex128"}

    def gen(dt):
        def c(what, x, out, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.Bitcast(
                input=ph("x", x, dt), type=tf.as_dtype(out), name="out"),
                error=error, phrases=phrases)
        c("same_size", _r(op, dt, [2, 3]), same[dt])
        if dt in smaller:
            c("smaller", _r(op, dt, [3]), smaller[dt])
            c("smaller_scalar", _r(op, dt, []), smaller[dt])
        if dt in larger:
            ratio = np.dtype(NP[larger[dt]]).itemsize // np.dtype(NP[dt]).itemsize
            c("larger", _r(op, dt, [2, ratio]), larger[dt])
            c("larger_shape_error", _r(op, dt, [2, ratio + 1]), larger[dt],
              error="INVALID_ARGUMENT", phrases=["Cannot bitcast from "])
        c("zero_size", _r(op, dt, [0, 3]), same[dt])

    rec.for_dtypes(op, [d for d in ALL if d != "bool"] + ["complex64", "complex128"], gen)


def identity_like(rec, op, dtypes=ALL):
    """StopGradient, PreventGradient, Snapshot: the output is the input."""
    def gen(dt):
        def c(what, x):
            attrs = {"message": "no gradient"} if op == "PreventGradient" else {}
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                input=ph("x", x, dt), name="out", **attrs))
        c("matrix", _r(op, dt, [2, 3]))
        if dt != FULL:
            return
        c("scalar", _r(op, dt, []))
        c("zero_size", _r(op, dt, [0, 3]))
        c("nan_inf", arr([np.nan, np.inf, -np.inf, -0.0], dt))

    rec.for_dtypes(op, dtypes, gen)


def check_numerics(rec, dtypes=FLOATS):
    op = "CheckNumerics"

    def gen(dt):
        def c(what, x, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.CheckNumerics(
                tensor=ph("x", x, dt), message="check x", name="out"),
                error=error, phrases=phrases)
        c("finite", _r(op, dt, [2, 3]))
        c("zero_size", _r(op, dt, [0, 3]))
        c("nan_error", arr([1, np.nan, 2], dt), error="INVALID_ARGUMENT",
          phrases=["check x : Tensor had NaN values"])
        c("inf_error", arr([1, -np.inf, 2], dt), error="INVALID_ARGUMENT",
          phrases=["check x : Tensor had Inf values"])
        c("nan_and_inf_error", arr([np.inf, np.nan], dt), error="INVALID_ARGUMENT",
          phrases=["check x : Tensor had Inf and NaN values"])

    rec.for_dtypes(op, dtypes, gen)


def identity_n(rec, dtypes=ALL):
    op = "IdentityN"

    def gen(dt):
        def c(what, xs):
            rec.case(op, dt, what, lambda: tf.raw_ops.IdentityN(
                input=[ph("xyzw"[i], x) for i, x in enumerate(xs)], name="out"))
        c("with_int32", [_r(op, dt, [2, 3]), np.array([1, 2, 3], np.int32)])
        if dt != FULL:
            return
        c("one_input", [_r(op, dt, [2])])
        c("three_inputs", [_r(op, dt, []), np.array([True, False]), _r(op, dt, [0, 2])])

    rec.for_dtypes(op, dtypes, gen)


def build_all(rec, emit):
    for fn, op in [(gather_v2, "GatherV2"), (gather, "Gather"), (gather_nd, "GatherNd"),
                   (one_hot, "OneHot"), (where, "Where"), (top_k, "TopKV2"),
                   (unique, "Unique"), (reverse, "ReverseV2"), (reverse_v1, "Reverse"),
                   (lambda rec: unique(rec, op="UniqueWithCounts"), "UniqueWithCounts"),
                   (unique_v2, "UniqueV2"),
                   (ensure_shape, "EnsureShape"), (unravel_index, "UnravelIndex"),
                   (bitcast, "Bitcast"), (nth_element, "NthElement")]:
        fn(rec)
        emit(op)
    for op in ("StopGradient", "PreventGradient", "Snapshot"):
        identity_like(rec, op)
        emit(op)
    check_numerics(rec, FLOATS + ["bfloat16"])
    emit("CheckNumerics")
    identity_n(rec)
    emit("IdentityN")
