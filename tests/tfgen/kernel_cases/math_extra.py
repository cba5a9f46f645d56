"""InTopKV2, BroadcastArgs, DenseBincount, Bincount, RaggedBincount, SparseBincount, Cross, Bucketize, LowerBound, UpperBound,
HistogramFixedWidth, Dense/Sparse/RaggedCountSparseOutput (tf.sparse.bincount)."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import FLOATS, NP, arr, is_float, ph, rand, tol


def _idx(values, dt):
    return np.asarray(values, dtype=NP[dt])


def in_top_k(rec):
    op = "InTopKV2"

    def gen(dt):
        def c(what, predictions, targets, k, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.InTopKV2(
                predictions=ph("predictions", predictions, "float32"),
                targets=ph("targets", _idx(targets, dt)), k=ph("k", _idx(k, dt)), name="out"),
                error=error, phrases=phrases)

        p = rand("float32", [4, 5], "%s/%s/p" % (op, dt))
        c("basic", p, [0, 1, 2, 4], 2)
        c("k1", p, [3, 0, 4, 1], 1)
        c("k_all", p, [3, 0, 4, 1], 5)
        c("k0", p, [3, 0, 4, 1], 0)
        c("k_negative", p, [3, 0, 4, 1], -1)
        c("k_beyond_classes", p, [3, 0, 4, 1], 9)
        c("ties_count_as_in", arr([[1, 1, 1, 0], [2, 1, 1, 1], [0, 0, 0, 0]], "float32"),
          [2, 3, 1], 1)
        c("non_finite", arr([[np.nan, 1, 2], [1, np.inf, 2], [1, 2, -np.inf], [np.nan, 0, 5]],
                            "float32"), [1, 1, 0, 2], 2)
        c("target_out_of_range", p, [5, -1, 0, 1], 3)
        c("zero_batch", np.zeros([0, 3], np.float32), [], 1)
        c("predictions_not_matrix_error", p.reshape(20), [0], 1, error="INVALID_ARGUMENT")
        c("targets_not_vector_error", p, [[0, 1, 2, 3]], 1, error="INVALID_ARGUMENT")
        c("batch_mismatch_error", p, [0, 1], 1, error="INVALID_ARGUMENT")
        c("k_not_scalar_error", p, [0, 1, 2, 3], [1], error="INVALID_ARGUMENT")

    rec.for_dtypes(op, ["int32", "int64"], gen)


def broadcast_args(rec):
    op = "BroadcastArgs"

    def gen(dt):
        def c(what, s0, s1, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.BroadcastArgs(
                s0=ph("s0", _idx(s0, dt)), s1=ph("s1", _idx(s1, dt)), name="out"),
                error=error, phrases=phrases)

        c("same", [2, 3], [2, 3])
        c("ones_broadcast", [2, 1, 4], [3, 1])
        c("rank_differs", [5], [4, 3, 1])
        c("scalar_shape", [], [2, 3])
        c("both_empty", [], [])
        c("zero_dim", [0, 1], [1, 7])
        c("zero_vs_one", [1], [0])
        c("incompatible_error", [2, 3], [3, 2], error="INVALID_ARGUMENT")
        c("zero_vs_two_error", [0], [2], error="INVALID_ARGUMENT")
        c("not_vector_error", [[2, 3]], [2, 3], error="INVALID_ARGUMENT")
        c("negative_dim_error", [-2, 3], [2, 3], error="INVALID_ARGUMENT")

    rec.for_dtypes(op, ["int32", "int64"], gen)


def dense_bincount(rec):
    op = "DenseBincount"

    def gen(dt):
        rtol, atol = tol("reduce", dt)
        for it in ("int32", "int64"):
            def c(what, values, size, weights, binary_output=False, error=None, phrases=()):
                rec.case(op, dt, "%s_%s" % (what, it), lambda: tf.raw_ops.DenseBincount(
                    input=ph("input", _idx(values, it)), size=ph("size", _idx(size, it)),
                    weights=ph("weights", arr(weights, dt)), binary_output=binary_output,
                    name="out"), rtol=rtol, atol=atol, error=error, phrases=phrases)

            v = [1, 1, 4, 0, 2, 2, 2, 7]
            w = [1, 2, 3, 4, 5, 6, 7, 8] if not is_float(dt) else [0.5, 1, 2, -1, 0.25, 3, 1, 2]
            c("weights", v, 5, w)
            c("no_weights", v, 5, [])
            c("binary_output", v, 5, [], binary_output=True)
            c("binary_output_weights", v, 5, w, binary_output=True)
            c("size_zero", v, 0, [])
            c("empty_input", [], 3, [])
            c("scalar_input", 2, 4, [])
            c("rank2", [[0, 1, 1, 3], [2, 2, 0, 9]], 4, [])
            c("rank2_weights", [[0, 1, 1, 3], [2, 2, 0, 9]], 4, [[1, 2, 3, 4], [5, 6, 7, 8]])
            c("rank2_binary", [[0, 1, 1, 3], [2, 2, 0, 9]], 4, [], binary_output=True)
            c("negative_value_error", [1, -1, 2], 3, [], error="INVALID_ARGUMENT")
            c("negative_size_error", [1, 2], -1, [], error="INVALID_ARGUMENT")
            c("size_not_scalar_error", [1, 2], [3], [], error="INVALID_ARGUMENT")
            c("weights_shape_error", [1, 2, 0], 3, [1, 2], error="INVALID_ARGUMENT")
            c("rank3_error", [[[1]]], 3, [], error="INVALID_ARGUMENT")

    rec.for_dtypes(op, ["int32", "int64", "float32", "float64"], gen)


def ragged_bincount(rec):
    """RaggedBincount: TextVectorization / CategoryEncoding count and multi_hot over ragged ids."""
    op = "RaggedBincount"

    def gen(dt):
        rtol, atol = tol("reduce", dt)
        for it in ("int32", "int64"):
            def c(what, splits, values, size, weights, binary_output=False, error=None,
                  phrases=()):
                rec.case(op, dt, "%s_%s" % (what, it), lambda: tf.raw_ops.RaggedBincount(
                    splits=ph("splits", _idx(splits, "int64")), values=ph("values", _idx(values, it)),
                    size=ph("size", _idx(size, it)), weights=ph("weights", arr(weights, dt)),
                    binary_output=binary_output, name="out"), rtol=rtol, atol=atol, error=error,
                    phrases=phrases)

            sp = [0, 3, 3, 8]
            v = [1, 1, 4, 0, 2, 2, 2, 7]
            w = [1, 2, 3, 4, 5, 6, 7, 8] if not is_float(dt) else [0.5, 1, 2, -1, 0.25, 3, 1, 2]
            c("counts", sp, v, 5, [])
            c("weights", sp, v, 5, w)
            c("binary_output", sp, v, 5, [], binary_output=True)
            c("binary_output_weights", sp, v, 5, w, binary_output=True)
            c("size_zero", sp, v, 0, [])
            c("no_rows", [0], [], 4, [])
            c("empty_rows", [0, 0, 0], [], 3, [])
            c("decreasing_splits", [0, 5, 2, 8], v, 8, [])
            if dt in ("float32", "int32"):
                c("negative_value_error", sp, [1, 1, 4, 0, -2, 2, 2, 7], 5, [],
                  error="INVALID_ARGUMENT", phrases=["Input must be non-negative"])
                c("negative_size_error", sp, v, -1, [], error="INVALID_ARGUMENT",
                  phrases=["size (-1) must be non-negative"])
                c("size_not_scalar_error", sp, v, [5], [], error="INVALID_ARGUMENT",
                  phrases=["Shape must be rank 0 but is rank 1"])
                c("splits_start_error", [1, 3, 8], v, 5, [], error="INVALID_ARGUMENT",
                  phrases=["Splits must start with 0, not with 1"])
                c("splits_end_error", [0, 3, 7], v, 5, [], error="INVALID_ARGUMENT",
                  phrases=["Splits must end with the number of values, got 7 instead of 8"])
                c("splits_empty_error", [], v, 5, [], error="INVALID_ARGUMENT",
                  phrases=["Splits must be non-empty"])

    rec.for_dtypes(op, ["int32", "int64", "float32", "float64"], gen)


def sparse_bincount(rec):
    """SparseBincount: the same counts over a SparseTensor's values (rows by the first index)."""
    op = "SparseBincount"

    def gen(dt):
        rtol, atol = tol("reduce", dt)
        for it in ("int32", "int64"):
            def c(what, indices, values, shape, size, weights, binary_output=False, error=None,
                  phrases=()):
                rec.case(op, dt, "%s_%s" % (what, it), lambda: tf.raw_ops.SparseBincount(
                    indices=ph("indices", np.asarray(indices, np.int64)),
                    values=ph("values", _idx(values, it)),
                    dense_shape=ph("dense_shape", _idx(shape, "int64")),
                    size=ph("size", _idx(size, it)), weights=ph("weights", arr(weights, dt)),
                    binary_output=binary_output, name="out"), rtol=rtol, atol=atol, error=error,
                    phrases=phrases)

            ind = [[0, 0], [0, 2], [0, 3], [2, 0], [2, 1], [3, 4]]
            v = [1, 1, 4, 0, 2, 7]
            w = [1, 2, 3, 4, 5, 6] if not is_float(dt) else [0.5, 1, 2, -1, 0.25, 3]
            c("counts", ind, v, [4, 5], 5, [])
            c("weights", ind, v, [4, 5], 5, w)
            c("binary_output", ind, v, [4, 5], 5, [], binary_output=True)
            c("binary_output_weights", ind, v, [4, 5], 5, w, binary_output=True)
            c("vector", [[0], [2], [3], [6]], [3, 0, 3, 9], [7], 5, [])
            c("vector_weights", [[0], [2], [3], [6]], [3, 0, 3, 9], [7], 5, w[:4])
            c("rank3", [[0, 0, 1], [1, 2, 0], [1, 2, 1]], [2, 2, 1], [2, 3, 2], 3, [])
            c("empty", np.zeros([0, 2]), [], [3, 4], 2, [])
            if dt in ("float32", "int32"):
                c("negative_value_error", [[0], [2]], [1, -1], [5], 3, [],
                  error="INVALID_ARGUMENT", phrases=["Input arr must be non-negative!"])
                c("negative_size_error", ind, v, [4, 5], -2, [], error="INVALID_ARGUMENT",
                  phrases=["size (-2) must be non-negative"])
                c("index_out_of_bounds_error", [[0, 0], [5, 3]], [1, 1], [4, 5], 5, [],
                  error="INVALID_ARGUMENT",
                  phrases=["Sparse index tuple indices[1, :] = [5, 3] is out of bounds"])
                c("negative_index_error", [[-1, 0]], [1], [4, 5], 5, [],
                  error="INVALID_ARGUMENT",
                  phrases=["Sparse index tuple indices[0, :] = [-1, 0] is out of bounds"])
                c("count_mismatch_error", [[0, 0], [1, 1]], [1, 1, 2], [4, 5], 5, [],
                  error="INVALID_ARGUMENT",
                  phrases=["Number of elements in indices (2) and values (3) do not match"])
                c("shape_rank_error", [[0, 0]], [1], [4, 5, 6], 5, [], error="INVALID_ARGUMENT",
                  phrases=["Index rank (2) and shape rank (3) do not match"])

    rec.for_dtypes(op, ["int32", "int64", "float32", "float64"], gen)


def cross(rec):
    op = "Cross"

    def gen(dt):
        rtol, atol = tol("transc", dt)

        def c(what, a, b, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.Cross(
                a=ph("a", a, dt), b=ph("b", b, dt), name="out"), rtol=rtol, atol=atol,
                error=error, phrases=phrases)

        def r(shape, tag):
            return rand(dt, shape, "%s/%s/%s" % (op, dt, tag), "small")
        c("vector", r([3], "a"), r([3], "b"))
        c("batch", r([2, 4, 3], "c"), r([2, 4, 3], "d"))
        if dt != "float32":
            return
        c("axes", arr([[1, 0, 0], [0, 1, 0], [0, 0, 1]], dt), arr([[0, 1, 0], [0, 0, 1], [1, 0, 0]], dt))
        c("zero_size", r([0, 3], "e"), r([0, 3], "f"))
        c("shape_error", r([3], "g"), r([2, 3], "h"), error="INVALID_ARGUMENT",
          phrases=["Both inputs must be of same shape: [3] vs. [2,3]"])
        c("inner_dim_error", r([2, 2], "i"), r([2, 2], "j"), error="FAILED_PRECONDITION",
          phrases=["Cross-products are only defined for 3-element vectors."])
        c("scalar_error", arr(1, dt), arr(2, dt), error="INVALID_ARGUMENT",
          phrases=["Input must be at least 1D[]"])

    rec.for_dtypes(op, ["float32", "float64", "half", "int32", "int64", "uint8", "int8", "int16"],
                   gen)


def bincount(rec):
    op = "Bincount"

    def gen(dt):
        def c(what, arr_, size, weights, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.Bincount(
                arr=ph("arr", arr_, "int32"), size=ph("size", size, "int32"),
                weights=ph("w", weights, dt), name="out"), error=error, phrases=phrases)
        c("counts", [1, 3, 1, 0, 7], 5, arr([], dt))
        c("weighted_matrix", [[1, 2], [2, 0]], 3, arr([[1, 2], [3, 4]], dt))
        if dt != "float32":
            return
        c("zero_size", [1, 2], 0, arr([], dt))
        c("negative_error", [1, -1], 3, arr([], dt), error="INVALID_ARGUMENT",
          phrases=["Input arr must be non-negative!"])
        c("size_error", [1], -1, arr([], dt), error="INVALID_ARGUMENT",
          phrases=["size (-1) must be non-negative"])

    rec.for_dtypes(op, ["float32", "float64", "int32", "int64"], gen)


def bucketize(rec):
    op = "Bucketize"

    def gen(dt):
        def c(what, x, boundaries, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.Bucketize(
                input=ph("x", x, dt), boundaries=boundaries, name="out"), error=error,
                phrases=phrases)
        c("basic", arr([[-5, 0, 5], [10, 12, 100]], dt), [0.0, 10.0, 100.0])
        c("fractional_bounds", arr([1, 2, 3, -1], dt), [1.5, 2.5])
        c("repeated_bounds", arr([0, 1, 2], dt), [1.0, 1.0, 2.0])
        c("no_bounds", arr([3, -3], dt), [])
        c("zero_size", arr(np.zeros([0, 2]), dt), [1.0])
        c("large", rand(dt, [1000], "%s/%s/large" % (op, dt)), [-50.0, -1.0, 0.0, 0.5, 7.0, 60.0])
        if is_float(dt):
            c("specials", arr([np.nan, np.inf, -np.inf, -0.0, 1e30], dt), [-1.0, 0.0, 1.0])
        c("unsorted_error", arr([1, 2], dt), [2.0, 1.0], error="INVALID_ARGUMENT",
          phrases=["Expected sorted boundaries"])

    rec.for_dtypes(op, ["float32", "float64", "int32", "int64"], gen)


def bounds(rec, op):
    """LowerBound / UpperBound (tf.searchsorted): per row, where each value would be inserted
    into the sorted row."""
    fn = getattr(tf.raw_ops, op)

    def gen(dt):
        def c(what, sorted_inputs, values, out_type=None, error=None, phrases=()):
            kw = {} if out_type is None else {"out_type": out_type}
            rec.case(op, dt, what, lambda: fn(sorted_inputs=ph("sorted", sorted_inputs, dt),
                                              values=ph("values", values, dt), name="out", **kw),
                     error=error, phrases=phrases)
        c("basic", arr([[0, 2, 2, 5, 9], [1, 1, 1, 3, 3]], dt),
          arr([[0, 1, 2, 4, 9, 10], [1, 3, 0, 2, 3, 4]], dt))
        c("int64_out", arr([[0, 2, 2, 5, 9]], dt), arr([[2, 5, 6]], dt), out_type=tf.int64)
        c("large", np.sort(rand(dt, [3, 200], "%s/%s/sorted" % (op, dt)), 1),
          rand(dt, [3, 50], "%s/%s/values" % (op, dt)))
        c("empty_rows", arr(np.zeros([2, 0]), dt), arr([[1, 2], [3, 4]], dt))
        c("no_values", arr([[1, 2]], dt), arr(np.zeros([1, 0]), dt))
        if is_float(dt):
            c("specials", arr([[-np.inf, -1, 0, 1, np.inf]], dt),
              arr([[-np.inf, np.inf, -0.0, 0.5]], dt))
        if dt == "float32":
            c("batch_mismatch_error", arr([[1, 2]], dt), arr([[1], [2]], dt),
              error="INVALID_ARGUMENT", phrases=["Leading dim_size of both tensors must match"])
            c("vector_error", arr([1, 2], dt), arr([1], dt), error="INVALID_ARGUMENT")

    rec.for_dtypes(op, ["float32", "float64", "half", "int32", "int64", "uint8", "int8", "int16"],
                   gen)


def histogram_fixed_width(rec):
    op = "HistogramFixedWidth"

    def gen(dt):
        def c(what, values, value_range, nbins, dtype=None, error=None, phrases=()):
            kw = {} if dtype is None else {"dtype": dtype}
            rec.case(op, dt, what, lambda: tf.raw_ops.HistogramFixedWidth(
                values=ph("values", values, dt), value_range=ph("range", value_range, dt),
                nbins=ph("nbins", nbins, "int32"), name="out", **kw), error=error,
                phrases=phrases)
        c("basic", arr([-1, 0, 1, 2, 3, 4, 5, 9, 10, 11], dt), arr([0, 10], dt), 5)
        c("int64_out", arr([[0, 1], [7, 3]], dt), arr([0, 8], dt), 4, dtype=tf.int64)
        c("one_bin", arr([-5, 5, 50], dt), arr([-1, 1], dt), 1)
        c("empty", arr(np.zeros([0]), dt), arr([0, 1], dt), 3)
        c("large", rand(dt, [500], "%s/%s/large" % (op, dt)), arr([-5, 5], dt), 7)
        if is_float(dt):
            c("fractional", arr([0.1, 0.25, 0.5, 0.74999, 0.75, 1.0, -0.0], dt),
              arr([0.0, 1.0], dt), 4)
            c("uneven_step", arr(np.linspace(-1, 2, 61), dt), arr([-1.0, 2.0], dt), 7)
        if dt == "float32":
            c("nbins_error", arr([1], dt), arr([0, 1], dt), 0, error="INVALID_ARGUMENT",
              phrases=["nbins should be a positive number, but got '0'"])
            c("range_order_error", arr([1], dt), arr([1, 0], dt), 2, error="INVALID_ARGUMENT",
              phrases=["value_range should satisfy value_range[0] < value_range[1]"])
            c("range_size_error", arr([1], dt), arr([0, 1, 2], dt), 2,
              error="INVALID_ARGUMENT", phrases=["value_range should be a vector of 2 elements"])

    rec.for_dtypes(op, ["float32", "float64", "int32", "int64"], gen)


def count_sparse_output(rec, op):
    """tf.sparse.bincount of a dense, sparse or ragged tensor: counts, weights in every output
    type, binary_output, minlength / maxlength, empty inputs, large int64 values, and TensorFlow
    2.21's errors (negative values, shapes, indices, splits) in its order."""
    kind = op[:op.index("Count")]

    def gen(dt):
        def c(what, data, weights=(), out="float32", binary=False, minlength=-1, maxlength=-1,
              error=None, phrases=()):
            """data: dense values; (indices, values, dense_shape); or (splits, values)."""
            def build():
                w = ph("weights", np.asarray(weights, NP[out]).reshape(np.shape(weights)))
                kw = dict(weights=w, binary_output=binary, minlength=minlength,
                          maxlength=maxlength, name="out")
                if kind == "Dense":
                    return list(tf.raw_ops.DenseCountSparseOutput(
                        values=ph("values", _idx(data, dt)), **kw))
                if kind == "Sparse":
                    idx, vals, shape = data
                    return list(tf.raw_ops.SparseCountSparseOutput(
                        indices=ph("indices", np.asarray(idx, np.int64).reshape(
                            np.shape(idx) if np.size(idx) else (0, len(shape)))),
                        values=ph("values", _idx(vals, dt)),
                        dense_shape=ph("dense_shape", np.asarray(shape, np.int64)), **kw))
                splits, vals = data
                return list(tf.raw_ops.RaggedCountSparseOutput(
                    splits=ph("splits", np.asarray(splits, np.int64)),
                    values=ph("values", _idx(vals, dt)), **kw))
            rec.case(op, dt, what, build, error=error, phrases=phrases)

        if kind == "Dense":
            m = [[1, 2, 2, 7], [4, 0, 4, 4], [3, 3, 3, 3]]
            wm = [[0.5, 1.5, 2.0, -1.0], [0.25, 4.0, 1.0, 1.0], [1.0, 2.0, 3.0, 4.0]]
            vec, wv = [5, 1, 5, 0, 9], [1.0, 2.0, 3.0, 4.0, 0.5]
            c("matrix_counts", m)
            c("vector_counts", vec)
            for out in ("float32", "float64", "int32", "int64"):
                c("matrix_weights_" + out, m, wm, out=out)
            c("vector_weights", vec, wv)
            c("binary", m, wm, binary=True)
            c("maxlength", m, maxlength=4)
            c("minlength", vec, minlength=20)
            c("maxlength_and_minlength", m, minlength=10, maxlength=3)
            c("empty_vector", np.zeros([0], np.int32), minlength=3)
            c("empty_columns", np.zeros([2, 0], np.int32))
            if dt == "int64":
                c("large_values", [5, 3000000000, 5])
            c("negative_error", [1, -2], [1.0, 2.0, 3.0], error="INVALID_ARGUMENT",
              phrases=["Input values must all be non-negative"])
            c("rank3_error", [[[1]]], error="INVALID_ARGUMENT",
              phrases=["Input must be a 1 or 2-dimensional tensor. Got: [1,1,1]"])
            c("scalar_error", 3, error="INVALID_ARGUMENT",
              phrases=["Input must be a 1 or 2-dimensional tensor. Got: []"])
            c("weights_shape_error", [1, 2], [1.0, 2.0, 3.0], error="INVALID_ARGUMENT",
              phrases=["Weights and data must have the same shape. Weight shape: [3]; data "
                       "shape: [2]"])
            c("zero_rows_error", np.zeros([0, 3], np.int32), error="INVALID_ARGUMENT",
              phrases=["Invalid input: Shapes dimension cannot be 0."])
        elif kind == "Sparse":
            sp = ([[0, 0], [0, 1], [0, 3], [2, 0], [2, 2]], [4, 4, 1, 0, 7], [3, 4])
            w5 = [0.5, 1.5, 2.0, -1.0, 0.25]
            c("matrix_counts", sp)
            c("one_d", ([[1], [3], [4]], [2, 2, 0], [5]), [0.5, 0.25, 2.0])
            for out in ("float32", "float64", "int32", "int64"):
                c("weights_" + out, sp, w5, out=out)
            c("binary", sp, w5, binary=True)
            c("maxlength", sp, maxlength=5)
            c("minlength", sp, minlength=12)
            c("rank3_rows_by_first_index", ([[0, 1, 1], [1, 0, 0]], [3, 5], [2, 2, 2]))
            c("no_entries", ([], [], [3, 2]))
            if dt == "int64":
                c("large_values", ([[0, 0], [1, 0]], [3000000000, 7], [2, 1]))
            c("index_error", ([[0, 0], [0, 5]], [4, 4], [3, 2]), error="INVALID_ARGUMENT",
              phrases=["Invalid index value at 1: dimension 1 has value 5 which is not in [0, 2) "
                       "(as given by dense shape Tensor<type: int64 shape: [2] values: 3 2>"])
            c("index_before_negative_error", ([[0, 7]], [-4], [3, 2]),
              error="INVALID_ARGUMENT", phrases=["Invalid index value at 0: dimension 1"])
            c("negative_error", ([[0, 1]], [-4], [3, 2]), [1.0, 2.0], error="INVALID_ARGUMENT",
              phrases=["Input values must all be non-negative"])
            c("weights_shape_error", ([[0, 1]], [4], [3, 2]), [1.0, 2.0],
              error="INVALID_ARGUMENT",
              phrases=["Weights and values must have the same shape. Weight shape: [2]; values "
                       "shape: [1]"])
            c("zero_batches_error", ([], [], [0, 2]), error="INVALID_ARGUMENT",
              phrases=["Cannot allocate 0 batches, is the dense shape too wide?"])
            c("values_count_error", ([[0, 0]], [4, 3], [3, 2]), error="INVALID_ARGUMENT",
              phrases=["Number of values must match first dimension of indices.Got 2 values, "
                       "indices shape: [1,2]"])
            c("shape_length_error", ([[0]], [4], [3, 2]), error="INVALID_ARGUMENT",
              phrases=["Number of dimensions must match second dimension of indices.Got 2 "
                       "dimensions, indices shape: [1,1]"])
            c("empty_shape_error", (np.zeros([0, 0]), [], []), error="INVALID_ARGUMENT",
              phrases=["The shape argument requires at least one element."])
            c("values_not_vector_error", ([[0, 1]], [[4]], [3, 2]), error="INVALID_ARGUMENT",
              phrases=["Input values must be a vector. Got: [1,1]"])
            c("indices_not_matrix_error", ([0, 1], [4], [3, 2]), error="INVALID_ARGUMENT",
              phrases=["Input indices must be a 2-dimensional tensor. Got: [2]"])
        else:
            rg = ([0, 3, 3, 7], [1, 2, 1, 4, 4, 9, 0])
            w7 = [0.5, 1.5, 2.0, -1.0, 0.25, 3.0, 1.0]
            c("counts", rg)
            for out in ("float32", "float64", "int32", "int64"):
                c("weights_" + out, rg, w7, out=out)
            c("binary", rg, w7, binary=True)
            c("maxlength", rg, maxlength=4)
            c("minlength", rg, minlength=15)
            c("non_monotonic_splits", ([0, 6, 5], [1, 2, 3, 4, 5]))
            c("splits_past_the_values", ([0, 3, 2, 5], [1, 2, 3, 4, 5]))
            c("empty", ([0, 0, 0], []), minlength=4)
            if dt == "int64":
                c("large_values", ([0, 1, 2], [3000000000, 7]))
            c("weights_before_splits_error", ([0, 3, 5], [1, -2, 3, 4, 5]), [1.0, 2.0],
              error="INVALID_ARGUMENT",
              phrases=["Weights and values must have the same shape. Weight shape: [2]; values "
                       "shape: [5]"])
            c("splits_start_error", ([1, 3, 5], [1, -2, 3, 4, 5]), error="INVALID_ARGUMENT",
              phrases=["Splits must start with 0, not with 1"])
            c("splits_end_error", ([0, 3, 4], [1, 2, 3, 4, 5]), error="INVALID_ARGUMENT",
              phrases=["Splits must end with the number of values, got 4 instead of 5"])
            c("one_split_error", ([0], [1]), error="INVALID_ARGUMENT",
              phrases=["Must provide at least 2 elements for the splits argument"])
            c("negative_error", ([0, 3, 5], [1, -2, 3, 4, 5]), error="INVALID_ARGUMENT",
              phrases=["Input values must all be non-negative"])

    rec.for_dtypes(op, ["int32", "int64"], gen)


def build_all(rec, emit):
    in_top_k(rec)
    emit("InTopKV2")
    broadcast_args(rec)
    emit("BroadcastArgs")
    dense_bincount(rec)
    emit("DenseBincount")
    ragged_bincount(rec)
    emit("RaggedBincount")
    sparse_bincount(rec)
    emit("SparseBincount")
    cross(rec)
    emit("Cross")
    bucketize(rec)
    emit("Bucketize")
    bincount(rec)
    emit("Bincount")
    for op in ("LowerBound", "UpperBound"):
        bounds(rec, op)
        emit(op)
    histogram_fixed_width(rec)
    emit("HistogramFixedWidth")
    for op in ("DenseCountSparseOutput", "SparseCountSparseOutput", "RaggedCountSparseOutput"):
        count_sparse_output(rec, op)
        emit(op)
