"""Sparse ops of feature columns and sparse feature pipelines: SparseCross (crossed_column,
tf.sparse.cross), SparseSlice, SparseSoftmax, SparseTensorDenseAdd, SparseReduceMax,
SparseDenseCwiseMul / Add / Div (a SparseTensor times, plus or over a broadcast dense tensor),
SparseCrossV2 and SparseCrossHashed (tf.sparse.cross / cross_hashed)."""
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


def sparse_cross_v2_hashed(rec, op):
    """SparseCrossV2 (tf.sparse.cross: features joined by `sep`) and SparseCrossHashed
    (tf.sparse.cross_hashed: FingerprintCat64 of the features' Fingerprint64 or, with
    strong_hash, SipHash keyed by salt), on int64 and string inputs and mixes of them."""
    v2 = op == "SparseCrossV2"

    def gen(dt):
        def c(what, sparse, dense, sep="_X_", num_buckets=0, strong=False, salt=(1, 2),
              error=None, phrases=()):
            def build():
                idx = [ph("i%d" % k, _i64(i)) for k, (i, _, _) in enumerate(sparse)]
                vals = [ph("v%d" % k, v if isinstance(v, np.ndarray) else np.asarray(v))
                        for k, (_, v, _) in enumerate(sparse)]
                shapes = [ph("s%d" % k, _i64(s)) for k, (_, _, s) in enumerate(sparse)]
                dns = [ph("d%d" % k, d) for k, d in enumerate(dense)]
                if v2:
                    return list(tf.raw_ops.SparseCrossV2(
                        indices=idx, values=vals, shapes=shapes, dense_inputs=dns,
                        sep=ph("sep", np.asarray(sep, dtype=object)), name="out"))
                return list(tf.raw_ops.SparseCrossHashed(
                    indices=idx, values=vals, shapes=shapes, dense_inputs=dns,
                    num_buckets=ph("num_buckets", np.int64(num_buckets)),
                    strong_hash=ph("strong_hash", np.array(strong)),
                    salt=ph("salt", _i64(salt)), name="out"))
            rec.case(op, dt, what, build, error=error, phrases=phrases, case_dtype="")

        s_a = ([[0, 0], [0, 1], [2, 0]], _s([b"engineer", b"doctor", b"artist"]), [3, 2])
        s_b = ([[0, 0], [1, 0], [2, 0], [2, 1]], _s([b"paris", b"lima", b"oslo", b""]), [3, 2])
        i_a = ([[0, 0], [0, 1], [2, 0]], _i64([3, -7, 1 << 40]), [3, 2])
        i_b = ([[0, 0], [1, 0], [2, 0], [2, 1]], _i64([0, 5, 9, -1]), [3, 2])
        s_d = _s([[b"x"], [b"y"], [b"z"]])
        i_d = _i64([[11, 12], [13, -14], [1 << 33, 0]])
        if dt == "string":
            a, b, d = s_a, s_b, s_d
        elif dt == "int64":
            a, b, d = i_a, i_b, i_d
        else:  # "mixed": string and int64 inputs together
            a, b, d = s_a, i_b, i_d if not v2 else s_d
        if v2:
            c("two_sparse", [a, b], [])
            c("sparse_dense", [a], [d])
            c("three", [a, b], [d])
            c("dense_only", [], [d, d])
            c("one_input", [b], [])
            c("other_separator", [a, b], [d], sep="--")
            c("empty_separator", [a, b], [], sep="")
            c("rows_out_of_order", [([[1, 0], [0, 0], [2, 0]], a[1], [3, 2])], [d])
            c("row_out_of_range", [([[0, 0], [7, 0]], a[1][:2], [3, 2])], [d])
            c("no_inputs", [], [])
            if dt == "string":
                c("separator_not_scalar_error", [a], [], sep=[b"a", b"b"],
                  error="INVALID_ARGUMENT",
                  phrases=["Input separator should be a scalar. Received: Tensor<type: string "
                           "shape: [2] values: a b>"])
        else:
            strong_ok = d is not i_d  # TensorFlow crashes on a strong hash of a dense int64
            for strong in (False, True):
                tag = "strong_" if strong else ""
                c(tag + "two_sparse", [a, b], [], num_buckets=100, strong=strong)
                c(tag + "one_input", [b], [], num_buckets=0, strong=strong, salt=(5, 7))
                c(tag + "negative_salt", [a, b], [], num_buckets=1000, strong=strong,
                  salt=(-3, 1 << 62))
                if not strong or strong_ok:
                    c(tag + "sparse_dense", [a], [d], num_buckets=1000, strong=strong)
                    c(tag + "three", [a, b], [d], num_buckets=0, strong=strong)
            c("negative_buckets", [a, b], [], num_buckets=-5)
            c("dense_only", [], [d, d], num_buckets=7)
            c("rows_out_of_order", [([[1, 0], [0, 0], [2, 0]], a[1], [3, 2])], [],
              num_buckets=10)
            c("no_inputs", [], [])
            if dt == "string":
                c("salt_length_error", [a], [], salt=[5], error="INVALID_ARGUMENT",
                  phrases=['Input "salt" must have length 2 but has length 1'])
        if dt == "string":
            c("indices_not_matrix_error", [([0, 1], a[1][:2], [3, 2])], [],
              error="INVALID_ARGUMENT",
              phrases=["Input indices should be a matrix but received shape [2] at position 0"])
            c("values_size_error", [(a[0], a[1][:2], [3, 2])], [], error="INVALID_ARGUMENT",
              phrases=["Expected size of values to be 3 got 2 at position 0"])
            c("shape_not_2d_error", [(a[0], a[1], [3, 2, 1])], [], error="INVALID_ARGUMENT",
              phrases=["shape should imply a 2D tensor, but got [3] at position 0"])
            c("batch_mismatch_error", [a, (b[0], b[1], [4, 2])], [], error="INVALID_ARGUMENT",
              phrases=["Expected batch size 3 got 4 at position 1"])
            c("dense_batch_mismatch_error", [a], [d[:2]], error="INVALID_ARGUMENT",
              phrases=["Expected batch size 3 got 2 at dense tensor 0"])
            c("dense_not_matrix_error", [a], [d[0]], error="INVALID_ARGUMENT",
              phrases=["Dense inputs should be a matrix but received shape [1] at position 0"])

    rec.for_dtypes(op, ["string", "int64", "mixed"], gen)


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


# TensorFlow's CPU kernels of SparseDenseCwise*: every real number type.
SPARSE_DENSE_TYPES = NUMERIC + ["uint16", "uint32", "uint64", "bfloat16"]


def sparse_dense_cwise(rec, op):
    div = op == "SparseDenseCwiseDiv"

    def gen(dt):
        floating = is_float(dt) or dt == "bfloat16"
        rtol, atol = {"half": (1e-3, 1e-3), "bfloat16": (1e-2, 1e-2)}.get(
            dt, (1e-6, 0.0) if floating else (0.0, 0.0))

        def c(what, idx, vals, shape, dense, error=None, phrases=()):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                sp_indices=ph("sp_indices", _i64(idx)), sp_values=ph("sp_values", vals, dt),
                sp_shape=ph("sp_shape", _i64(shape)), dense=ph("dense", dense, dt), name="out"),
                rtol=rtol, atol=atol, error=error, phrases=phrases)

        dense_kind = "positive" if div else "small"
        idx = [[0, 0], [0, 3], [1, 1], [2, 0], [2, 3]]
        vals = rand(dt, [5], (op, dt, "v"), "small")
        c("same_shape", idx, vals, [3, 4], rand(dt, [3, 4], (op, dt, "d"), dense_kind))
        c("row_broadcast", idx, vals, [3, 4], rand(dt, [4], (op, dt, "row"), dense_kind))
        c("column_broadcast", idx, vals, [3, 4], rand(dt, [3, 1], (op, dt, "col"), dense_kind))
        c("scalar_dense", idx, vals, [3, 4], rand(dt, [], (op, dt, "s"), dense_kind))
        c("unsorted_repeated", [[2, 3], [0, 0], [2, 3], [1, 2]], vals[:4], [3, 4],
          rand(dt, [3, 4], (op, dt, "u"), dense_kind))
        c("vector", [[3], [0]], vals[:2], [5], rand(dt, [5], (op, dt, "vec"), dense_kind))
        c("rank3", [[0, 1, 2], [1, 0, 0]], vals[:2], [2, 2, 3],
          rand(dt, [2, 1, 3], (op, dt, "r3"), dense_kind))
        c("rank5", [[1, 0, 1, 0, 1], [0, 0, 0, 0, 0]], vals[:2], [2, 1, 2, 1, 2],
          rand(dt, [2], (op, dt, "r5"), dense_kind))
        c("no_entries", np.zeros((0, 2)), vals[:0], [3, 4], rand(dt, [4], (op, dt, "e"),
                                                               dense_kind))
        if dt in ("float32", "float64", "half"):
            special = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5], dtype=np.float64)
            d = np.array([2.0, -0.5, np.inf, np.nan, 3.0, -np.inf], dtype=np.float64)
            c("non_finite", [[k] for k in range(6)], special, [6], d)
        if dt in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"):
            info = np.iinfo(np.dtype(dt))
            big = np.array([info.max, info.min, info.max - 1, 7], dtype=np.dtype(dt))
            dd = np.array([1, 1, 2, 3] if div or info.min == 0 else [1, -1, 2, -3],
                          dtype=np.dtype(dt))
            if div and info.min < 0:
                big[1] = info.min + 1  # MIN / -1 kills TensorFlow's process
                dd = np.array([2, -1, -3, -2], dtype=np.dtype(dt))
            c("edges", [[k] for k in range(4)], big, [4], dd)
        if div:
            zero_elsewhere = np.array([[1, 0, 2], [4, 5, 6]])
            c("zero_not_read", [[0, 2], [1, 1]], vals[:2], [2, 3], zero_elsewhere)
            c("zero_read_error", [[0, 2], [0, 1]], vals[:2], [2, 3], zero_elsewhere,
              error="INVALID_ARGUMENT",
              phrases=["SparseDenseCwiseDiv cannot divide by zero,but input dense tensor "
                       "contains zero "])
            if dt == "float32":
                c("negative_zero_error", [[1]], vals[:1], [2], np.array([1.0, -0.0]),
                  error="INVALID_ARGUMENT", phrases=["cannot divide by zero"])
        if dt != "float32":
            return
        one = rand(dt, [3], (op, dt, "one"), "positive")
        c("indices_not_matrix_error", [0, 1], vals[:2], [3, 4], one, error="INVALID_ARGUMENT",
          phrases=["Input sp_indices should be a matrix but received shape: [2]"])
        c("values_not_vector_error", [[0, 1]], vals[:1].reshape(1, 1), [3, 4], one,
          error="INVALID_ARGUMENT",
          phrases=["Inputs sp_values and sp_shape should be vectors but received shapes: [1,1] "
                   "and [2]"])
        c("shape_not_vector_error", [[0, 1]], vals[:1], [[3, 4]], one, error="INVALID_ARGUMENT",
          phrases=["Inputs sp_values and sp_shape should be vectors but received shapes: [1] "
                   "and [1,2]"])
        c("count_mismatch_error", [[0, 1]], vals[:2], [3, 4], one, error="INVALID_ARGUMENT",
          phrases=["The first dimension of values and indices should match. (2 vs. 1)"])
        c("rank_mismatch_error", [[0, 1]], vals[:1], [3, 4, 5], one, error="INVALID_ARGUMENT",
          phrases=["Number of dimensions must match second dimension of indices. Got 3 "
                   "dimensions, indices shape: [1,2]"])
        c("empty_shape_error", np.zeros((1, 0)), vals[:1], np.zeros([0]), one,
          error="INVALID_ARGUMENT",
          phrases=["The shape argument requires at least one element."])
        c("negative_shape_error", [[0, 1]], vals[:1], [2, -3], one, error="INVALID_ARGUMENT",
          phrases=["Expected shape dimensions to be non-negative, got -3"])
        c("incompatible_error", [[0, 1]], vals[:1], [2, 3], np.ones([1, 4], np.float32),
          error="INVALID_ARGUMENT",
          phrases=["SparseDenseBinaryOpShared broadcasts dense to sparse only; got incompatible "
                   "shapes: [2,3] vs. [1,4]"])
        c("dense_higher_rank_error", [[0, 1]], vals[:1], [2, 3], np.ones([1, 2, 3], np.float32),
          error="INVALID_ARGUMENT",
          phrases=["got incompatible shapes: [2,3] vs. [1,2,3]"])
        c("dense_bigger_error", [[0, 1]], vals[:1], [1, 3], np.ones([2, 3], np.float32),
          error="INVALID_ARGUMENT", phrases=["got incompatible shapes: [1,3] vs. [2,3]"])
        c("rank6_error", [[0] * 6], vals[:1], [1] * 6, one[:1], error="INVALID_ARGUMENT",
          phrases=["Only tensors with ranks between 1 and 5 are currently supported.  Tensor "
                   "rank: 6"])
        c("index_too_big_error", [[0, 1], [2, 0]], vals[:2], [2, 3], one, error="INVALID_ARGUMENT",
          phrases=["Provided indices are out-of-bounds w.r.t. dense side with broadcasted "
                   "shape"])
        c("negative_index_error", [[0, -1]], vals[:1], [2, 3], one, error="INVALID_ARGUMENT",
          phrases=["Provided indices are out-of-bounds w.r.t. dense side with broadcasted "
                   "shape"])

    rec.for_dtypes(op, SPARSE_DENSE_TYPES, gen)


def build_all(rec, emit):
    sparse_cross(rec)
    emit("SparseCross")
    for op in ("SparseCrossV2", "SparseCrossHashed"):
        sparse_cross_v2_hashed(rec, op)
        emit(op)
    sparse_reduce_max(rec)
    emit("SparseReduceMax")
    sparse_slice(rec)
    emit("SparseSlice")
    sparse_softmax(rec)
    emit("SparseSoftmax")
    sparse_tensor_dense_add(rec)
    emit("SparseTensorDenseAdd")
    for op in ("SparseDenseCwiseMul", "SparseDenseCwiseAdd", "SparseDenseCwiseDiv"):
        sparse_dense_cwise(rec, op)
        emit(op)
