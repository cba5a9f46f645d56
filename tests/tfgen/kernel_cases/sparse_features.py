"""Sparse ops of feature columns and sparse feature pipelines: SparseCross (crossed_column,
tf.sparse.cross), SparseSlice, SparseSoftmax, SparseTensorDenseAdd, SparseReduceMax."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import ALL, is_float, ph, rand, tol

NUMERIC = ["float32", "float64", "half", "int32", "int64", "uint8", "int8", "int16"]

HASH_KEY = 0xDECAFCAFFE  # tf.sparse.cross_hashed's default


def _i64(v):
    return np.asarray(v, dtype=np.int64)


def _s(v):
    return np.asarray(v, dtype=object)


def sparse_cross(rec):
    op = "SparseCross"

    def gen(dt):
        def c(what, sparse, dense, hashed, num_buckets=0, hash_key=HASH_KEY, error=None,
              phrases=(), internal=None):
            """sparse: [(indices, values, shape)], dense: [matrix]; values of dtype `dt`
            except where given as strings."""
            def build():
                conv = (lambda v: _s(v)) if dt == "string" else _i64
                idx = [ph("i%d" % k, _i64(i)) for k, (i, _, _) in enumerate(sparse)]
                vals = [ph("v%d" % k, conv(v)) for k, (_, v, _) in enumerate(sparse)]
                shapes = [ph("s%d" % k, _i64(s)) for k, (_, _, s) in enumerate(sparse)]
                dns = [ph("d%d" % k, conv(d)) for k, d in enumerate(dense)]
                it = internal or (tf.int64 if hashed or dt == "int64" else tf.string)
                return list(tf.raw_ops.SparseCross(
                    indices=idx, values=vals, shapes=shapes, dense_inputs=dns,
                    hashed_output=hashed, num_buckets=num_buckets, hash_key=hash_key,
                    out_type=tf.int64 if hashed else tf.string, internal_type=it, name="out"))
            rec.case(op, dt, what, build, error=error, phrases=phrases, case_dtype="")

        if dt == "string":
            a = ([[0, 0], [0, 1], [2, 0]], [b"engineer", b"doctor", b"artist"], [3, 2])
            b = ([[0, 0], [1, 0], [2, 0], [2, 1]], [b"paris", b"lima", b"oslo", b""], [3, 2])
            d = [[b"x"], [b"y"], [b"z"]]
        else:
            a = ([[0, 0], [0, 1], [2, 0]], [3, -7, 1 << 40], [3, 2])
            b = ([[0, 0], [1, 0], [2, 0], [2, 1]], [0, 5, 9, -1], [3, 2])
            d = [[11], [12], [13]]
        for hashed in (True, False):
            tag = "hashed" if hashed else "strings"
            c(tag + "_two_sparse", [a, b], [], hashed, 100)
            c(tag + "_sparse_dense", [a], [d], hashed, 1000)
            c(tag + "_three", [a, b], [d], hashed, 0)
            c(tag + "_dense_only", [], [d, d], hashed, 7)
            c(tag + "_one_input", [b], [], hashed, 10)
        c("hashed_other_key", [a, b], [], True, 50, hash_key=12345)
        c("hashed_no_buckets", [a, b], [d], True, 0, hash_key=1)
        c("empty_batch", [([[0, 0]], a[1][:1], [1, 2]), (np.zeros([0, 2]), b[1][:0], [1, 2])],
          [], True, 10)
        c("rows_out_of_order", [([[1, 0], [0, 0], [2, 0]], a[1], [3, 2])], [d], True, 10)
        c("row_out_of_range", [([[0, 0], [7, 0]], a[1][:2], [3, 2])], [d], False)
        c("strings_internal_int64", [a], [d], False, internal=tf.int64)
        if dt == "int64":
            c("internal_type_error", [a], [], False, internal=tf.string,
              error="INVALID_ARGUMENT",
              phrases=["Input values should be of internal type 7 but received 9"])
            c("dense_internal_type_error", [], [d], False, internal=tf.string,
              error="INVALID_ARGUMENT",
              phrases=["Dense inputs should be of internal type 7 but received 9"])
        c("indices_not_matrix_error", [([0, 1], a[1][:2], [3, 2])], [], True, 10,
          error="INVALID_ARGUMENT",
          phrases=["Input indices should be a matrix but received shape [2] at position 0"])
        c("values_size_error", [(a[0], a[1][:2], [3, 2])], [], True, 10,
          error="INVALID_ARGUMENT", phrases=["Expected size of values to be 3 got 2 at position 0"])
        c("shape_not_2d_error", [(a[0], a[1], [3, 2, 1])], [], True, 10,
          error="INVALID_ARGUMENT", phrases=["shape should imply a 2D tensor"])
        c("batch_mismatch_error", [a, (b[0], b[1], [4, 2])], [], True, 10,
          error="INVALID_ARGUMENT", phrases=["Expected batch size 3 got 4 at position 1"])
        c("dense_batch_mismatch_error", [a], [d[:2]], True, 10, error="INVALID_ARGUMENT",
          phrases=["Expected batch size 3 got 2 at dense tensor 0"])
        c("dense_not_matrix_error", [a], [d[0]], True, 10, error="INVALID_ARGUMENT",
          phrases=["Dense inputs should be a matrix but received shape [1] at position 0"])

    rec.for_dtypes(op, ["int64", "string"], gen)


def sparse_reduce_max(rec):
    op = "SparseReduceMax"

    def gen(dt):
        def c(what, idx, vals, shape, axes, keep=False, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.SparseReduceMax(
                input_indices=ph("input_indices", _i64(idx)),
                input_values=ph("input_values", vals, dt),
                input_shape=ph("input_shape", _i64(shape)),
                reduction_axes=ph("reduction_axes", np.asarray(axes, np.int32)),
                keep_dims=keep, name="out"), error=error, phrases=phrases)

        idx = [[0, 1, 0], [1, 0, 1], [1, 2, 1], [0, 1, 1], [2, 2, 0], [1, 0, 0]]
        vals = rand(dt, [6], op + dt, "any")
        sh = [3, 3, 2]
        c("axis0", idx, vals, sh, [0])
        c("axis1_keep_dims", idx, vals, sh, [1], keep=True)
        c("axes_0_2", idx, vals, sh, [0, 2])
        c("negative_axis", idx, vals, sh, [-1])
        c("all_axes", idx, vals, sh, [0, 1, 2])
        c("no_axes", idx, vals, sh, [])
        c("unsorted_entries", idx[::-1], vals[::-1], sh, [2])
        c("no_entries", np.zeros((0, 3)), vals[:0], sh, [1])
        if is_float(dt):
            special = np.array([np.nan, 3, -np.inf, -np.inf, 2, np.nan], dtype=vals.dtype)
            c("nan_and_inf", [[0, 0], [0, 1], [1, 0], [1, 2], [2, 0], [2, 1]], special, [3, 3],
              [1])
        c("axis_error", idx, vals, sh, [3], error="INVALID_ARGUMENT",
          phrases=["Invalid reduction dimension 3, for input with 3 dimensions."])

    rec.for_dtypes(op, NUMERIC, gen)


def sparse_slice(rec):
    op = "SparseSlice"

    def gen(dt):
        def c(what, idx, vals, shape, start, size, error=None, phrases=()):
            rec.case(op, dt, what, lambda: list(tf.raw_ops.SparseSlice(
                indices=ph("indices", _i64(idx)),
                values=ph("values", vals, dt if dt != "string" else None),
                shape=ph("shape", _i64(shape)), start=ph("start", _i64(start)),
                size=ph("size", _i64(size)), name="out")), error=error, phrases=phrases)

        idx = [[0, 0], [0, 3], [1, 1], [2, 0], [2, 4], [3, 2]]
        vals = rand(dt, [6], op + dt, "any") if dt != "string" else \
            np.array([b"a", b"bb", b"", b"ccc", b"d", b"e"], object)
        sh = [4, 5]
        c("inner", idx, vals, sh, [1, 0], [2, 3])
        c("past_the_end", idx, vals, sh, [2, 2], [5, 5])
        c("everything", idx, vals, sh, [0, 0], [4, 5])
        c("outside", idx, vals, sh, [5, 0], [2, 2])
        c("zero_size", idx, vals, sh, [1, 1], [0, 3])
        c("unsorted", idx[::-1], vals[::-1], sh, [0, 0], [3, 3])
        c("rank3", [[0, 1, 1], [1, 0, 2], [1, 1, 0]], vals[:3], [2, 2, 3], [1, 0, 0], [1, 2, 2])
        c("start_length_error", idx, vals, sh, [1, 0, 0], [2, 3], error="INVALID_ARGUMENT",
          phrases=["Expected start to be a vector of length 2 but got length 3"])
        c("size_length_error", idx, vals, sh, [1, 0], [2], error="INVALID_ARGUMENT",
          phrases=["Expected size to be a vector of length 2 but got length 1"])
        c("indices_not_matrix_error", [0, 1], vals[:2], sh, [0, 0], [1, 1],
          error="INVALID_ARGUMENT",
          phrases=["Sparse indices must be rank 2 but is rank 1"])
        c("values_count_error", idx, vals[:5], sh, [0, 0], [1, 1], error="INVALID_ARGUMENT",
          phrases=["Number of elements in indices (6) and values (5) do not match"])
        c("start_not_vector_error", idx, vals, sh, [[0, 0]], [1, 1], error="INVALID_ARGUMENT",
          phrases=["Input start should be a vector but received shape [1,2]"])
        c("negative_size_error", idx, vals, sh, [0, 0], [-1, 1], error="INVALID_ARGUMENT",
          phrases=["Expected a non-negative size, got -1"])
        c("negative_start", idx, vals, sh, [-1, 0], [3, 4])

    rec.for_dtypes(op, NUMERIC + ["bool", "string"], gen)


def sparse_softmax(rec):
    op = "SparseSoftmax"

    def gen(dt):
        rtol, atol = tol("transc", dt)

        def c(what, idx, vals, shape, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.SparseSoftmax(
                sp_indices=ph("sp_indices", _i64(idx)), sp_values=ph("sp_values", vals, dt),
                sp_shape=ph("sp_shape", _i64(shape)), name="out"), rtol=rtol, atol=atol,
                error=error, phrases=phrases)

        idx = [[0, 0], [0, 3], [1, 1], [2, 0], [2, 4], [2, 2], [3, 2]]
        vals = rand(dt, [7], op + dt, "any") * 3
        c("rows", idx, vals, [4, 5])
        c("unsorted_indices", idx[::-1], vals, [4, 5])
        c("rank3", [[0, 0, 1], [0, 0, 2], [1, 1, 0], [0, 1, 1]], vals[:4], [2, 2, 3])
        c("large_values", idx[:3], np.array([100, 90, 50], dtype=vals.dtype), [4, 5])
        c("no_entries", np.zeros((0, 2)), vals[:0], [4, 5])
        c("rank1_error", [[0], [1]], vals[:2], [4], error="INVALID_ARGUMENT",
          phrases=["Input should have rank >= 2, but received shape: 4"])
        c("indices_not_matrix_error", [0, 1], vals[:2], [4, 5], error="INVALID_ARGUMENT",
          phrases=["Input sp_indices should be a matrix but received shape: [2]"])
        c("values_count_error", idx, vals[:6], [4, 5], error="INVALID_ARGUMENT",
          phrases=["indices and values rows (indexing dimension) must match. (indices = 7, "
                   "values = 6)"])
        c("rank_mismatch_error", idx, vals, [4, 5, 1], error="INVALID_ARGUMENT",
          phrases=["Order length must be SparseTensor rank."])

    rec.for_dtypes(op, ["float32", "float64", "half"], gen)


def sparse_tensor_dense_add(rec):
    op = "SparseTensorDenseAdd"

    def gen(dt):
        def c(what, idx, vals, shape, b, it=np.int64, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.SparseTensorDenseAdd(
                a_indices=ph("a_indices", np.asarray(idx, it)), a_values=ph("a_values", vals, dt),
                a_shape=ph("a_shape", np.asarray(shape, it)), b=ph("b", b, dt), name="out"),
                error=error, phrases=phrases)

        kind = "exact_sum" if is_float(dt) else "small"
        idx = [[0, 0], [0, 3], [1, 1], [2, 0], [1, 1]]
        vals = rand(dt, [5], op + dt, kind)
        b = rand(dt, [3, 4], op + dt + "b", kind)
        c("matrix_repeated", idx, vals, [3, 4], b)
        c("int32_indices", idx, vals, [3, 4], b, it=np.int32)
        c("vector", [[2], [0]], vals[:2], [4], b[0])
        c("rank3", [[0, 1, 1], [1, 0, 2]], vals[:2], [2, 2, 3], rand(dt, [2, 2, 3], op + dt, kind))
        c("no_entries", np.zeros((0, 2)), vals[:0], [3, 4], b)
        c("shape_mismatch_error", idx, vals, [3, 5], rand(dt, [3, 4], "m" + dt, kind),
          error="INVALID_ARGUMENT", phrases=[
              "Dimension 1 does not equal (no broadcasting is supported): sparse side 5 vs "
              "dense side 4"])
        c("rank_mismatch_error", idx, vals, [3, 4], b[0], error="INVALID_ARGUMENT",
          phrases=["Two operands have different ranks; received: 2 and 1"])
        c("index_out_of_range_error", [[0, 0], [3, 1]], vals[:2], [3, 4], b,
          error="INVALID_ARGUMENT",
          phrases=["Sparse tensor has an invalid index on dimension 0: a_indices(1,0) = 3"])
        c("values_count_error", idx, vals[:4], [3, 4], b, error="INVALID_ARGUMENT",
          phrases=["Dimensions 5 and 4 are not compatible"])

    rec.for_dtypes(op, NUMERIC, gen)


def build_all(rec, emit):
    sparse_cross(rec)
    emit("SparseCross")
    sparse_reduce_max(rec)
    emit("SparseReduceMax")
    sparse_slice(rec)
    emit("SparseSlice")
    sparse_softmax(rec)
    emit("SparseSoftmax")
    sparse_tensor_dense_add(rec)
    emit("SparseTensorDenseAdd")
