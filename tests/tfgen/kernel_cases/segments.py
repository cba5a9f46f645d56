"""Segment reductions: SegmentSum/Mean/Max/Min/Prod (sorted ids), UnsortedSegmentSum/Max/Min/Prod
(ids in any order, negative ids dropped), SparseSegmentSum/Mean/SqrtN (rows picked by indices)
and their WithNumSegments forms (the row count given); the Sum, Mean and Prod forms of the first
two also on complex64 and complex128."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import ALL, COMPLEX, NP, arr, is_float, ph, rand, tol

SORTED = ["SegmentSum", "SegmentMean", "SegmentMax", "SegmentMin", "SegmentProd"]
UNSORTED = ["UnsortedSegmentSum", "UnsortedSegmentMax", "UnsortedSegmentMin",
            "UnsortedSegmentProd"]
SPARSE = ["SparseSegmentSum", "SparseSegmentMean", "SparseSegmentSqrtN"]
SPARSE_NUM = [op + "WithNumSegments" for op in SPARSE]
# The segment reductions TensorFlow's CPU kernels also run on complex64 and complex128. Their
# "nan_parts" cases hold NaN and large parts but no infinities, which TensorFlow's complex
# products may recover by C's Annex G rules where Rill's give NaN.
COMPLEX_OPS = ["SegmentSum", "SegmentMean", "SegmentProd", "UnsortedSegmentSum",
               "UnsortedSegmentProd"]


def _complex_parts(dt, shape):
    parts = [np.nan, 1.0, 2.0, 1e15, -1e15, 3.0, 0.5, -0.0, -1.5]
    n = int(np.prod(shape))
    out = np.zeros(shape, dtype=NP[dt])
    out.real = np.reshape([parts[i % len(parts)] for i in range(n)], shape)
    out.imag = np.reshape([parts[(4 * i + 2) % len(parts)] for i in range(n)], shape)
    return out


def _data(op, dt, shape, tag):
    """Operands whose sums (products for Prod) are exact in every dtype, so the summation order
    does not matter; Prod's integers are small."""
    if op.endswith("Prod"):
        kind = "pow2" if is_float(dt) else "small"
    elif op.endswith("Max") or op.endswith("Min"):
        kind = "any"
    else:
        kind = "exact_sum"
    return rand(dt, shape, "%s/%s/%s" % (op, dt, tag), kind)


def _ids(values, it="int32"):
    return np.asarray(values, dtype=np.int32 if it == "int32" else np.int64).reshape(
        np.shape(values))


def _kind(op):
    return "exact" if op.endswith("Max") or op.endswith("Min") else "reduce"


def sorted_segment(rec, op, dtypes=ALL):
    def gen(dt):
        rtol, atol = tol(_kind(op), dt)

        def c(what, data, ids, error=None, phrases=()):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                data=ph("data", data, dt), segment_ids=ph("segment_ids", ids), name="out"),
                rtol=rtol, atol=atol, error=error, phrases=phrases)

        d = _data(op, dt, [5, 3], "d")
        c("basic", d, _ids([0, 0, 1, 2, 2]))
        c("empty_segments", d, _ids([0, 0, 3, 3, 5]))
        c("first_id_not_zero", d[:3], _ids([2, 2, 2]))
        c("rank3", _data(op, dt, [4, 2, 3], "r3"), _ids([0, 1, 1, 1]))
        c("vector", _data(op, dt, [6], "v"), _ids([0, 0, 0, 1, 1, 2]))
        c("ids_int64", d, _ids([0, 1, 1, 1, 4], "int64"))
        c("zero_rows", _data(op, dt, [0, 3], "z"), _ids([]))
        if is_float(dt):
            c("nan_inf", arr([[np.nan, 1], [2, np.inf], [-np.inf, 3], [np.inf, -np.inf]], dt),
              _ids([0, 0, 1, 1]))
        if dt in COMPLEX:
            c("nan_parts", _complex_parts(dt, [6, 2]), _ids([0, 0, 1, 1, 1, 3]))
        c("ids_not_increasing_error", d, _ids([0, 2, 1, 2, 2]), error="INVALID_ARGUMENT",
          phrases=["segment ids are not increasing"])
        c("negative_id_error", d, _ids([-1, 0, 0, 1, 1]), error="INVALID_ARGUMENT",
          phrases=["Segment id -1 out of range [0, 2), possibly because 'segment_ids' input is "
                   "not sorted."])
        c("all_ids_negative_error", d, _ids([-3, -3, -2, -2, -1]), error="INVALID_ARGUMENT")
        c("ids_not_vector_error", d, _ids([[0], [0], [1], [1], [1]]), error="INVALID_ARGUMENT",
          phrases=["segment_ids should be a vector."])
        c("ids_size_error", d, _ids([0, 0, 1]), error="INVALID_ARGUMENT",
          phrases=["segment_ids should be the same size as dimension 0 of input."])
        c("scalar_data_error", _data(op, dt, [], "s"), _ids([0]), error="INVALID_ARGUMENT",
          phrases=["input must be at least rank 1"])

    rec.for_dtypes(op, dtypes, gen)


def unsorted_segment(rec, op, dtypes=ALL):
    def gen(dt):
        rtol, atol = tol(_kind(op), dt)

        def c(what, data, ids, num, num_dtype="int32", error=None, phrases=()):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                data=ph("data", data, dt), segment_ids=ph("segment_ids", ids),
                num_segments=ph("num_segments", _ids(num, num_dtype)), name="out"),
                rtol=rtol, atol=atol, error=error, phrases=phrases)

        d = _data(op, dt, [5, 3], "d")
        c("basic", d, _ids([2, 0, 2, -1, 0]), 4)
        c("rank2_ids", _data(op, dt, [2, 3, 2], "r3"), _ids([[0, 1, 1], [2, -1, 0]]), 3)
        c("ids_shape_of_data", _data(op, dt, [2, 3], "full"), _ids([[3, 1, 1], [0, 3, -2]]), 5)
        c("vector", _data(op, dt, [6], "v"), _ids([1, 1, 0, 1, 0, 2]), 3)
        c("int64_ids_and_num_segments", d, _ids([1, 1, 0, 0, 1], "int64"), 2,
          num_dtype="int64")
        c("no_segments", d, _ids([-1, -1, -1, -1, -1]), 0)
        c("zero_rows", _data(op, dt, [0, 3], "z"), _ids([]), 2)
        if is_float(dt):
            c("nan_inf", arr([[np.nan, 1], [2, np.inf], [-np.inf, 3], [np.inf, -np.inf]], dt),
              _ids([1, 1, 0, 0]), 2)
        if dt in COMPLEX:
            c("nan_parts", _complex_parts(dt, [6, 2]), _ids([1, 1, 0, 0, -1, 2]), 4)
        c("id_out_of_range_error", d, _ids([0, 5, 1, 0, 0]), 4, error="INVALID_ARGUMENT",
          phrases=["segment_ids[1] = 5 is out of range [0, 4)"])
        c("ids_not_prefix_error", d, _ids([0, 1, 1]), 4, error="INVALID_ARGUMENT",
          phrases=["data.shape = [5,3] does not start with segment_ids.shape = [3]"])
        c("num_segments_not_scalar_error", d, _ids([0, 1, 1, 0, 0]), [3],
          error="INVALID_ARGUMENT", phrases=["num_segments should be a scalar, not shape [1]"])
        c("num_segments_negative_error", d, _ids([0, 1, 1, 0, 0]), -1, error="INVALID_ARGUMENT",
          phrases=["Input num_segments == -1 must not be negative."])

    rec.for_dtypes(op, dtypes, gen)


def sparse_segment(rec, op, dtypes=ALL):
    def gen(dt):
        rtol, atol = tol("reduce" if op == "SparseSegmentSum" else "loose", dt)

        def c(what, data, indices, ids, error=None, phrases=()):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                data=ph("data", data, dt), indices=ph("indices", indices),
                segment_ids=ph("segment_ids", ids), name="out"),
                rtol=rtol, atol=atol, error=error, phrases=phrases)

        d = _data(op, dt, [5, 3], "d")
        c("basic", d, _ids([0, 1, 4, 2, 2]), _ids([0, 0, 1, 3, 3]))
        c("repeated_rows", d, _ids([4, 4, 4, 0]), _ids([0, 0, 0, 1]))
        c("rank3", _data(op, dt, [4, 2, 3], "r3"), _ids([3, 0, 1]), _ids([0, 1, 1]))
        c("vector", _data(op, dt, [6], "v"), _ids([5, 0, 1, 2]), _ids([1, 1, 1, 2]))
        c("int64_indices_and_ids", d, _ids([1, 2, 3], "int64"), _ids([0, 0, 2], "int64"))
        c("no_indices", d, _ids([]), _ids([]))
        c("index_out_of_range_error", d, _ids([0, 5, 3]), _ids([0, 0, 1]),
          error="INVALID_ARGUMENT", phrases=["Bad: indices[1] == 5 out of range [0, 5)"])
        c("negative_index_error", d, _ids([0, -1, 3]), _ids([0, 0, 1]),
          error="INVALID_ARGUMENT", phrases=["Bad: indices[1] == -1 out of range [0, 5)"])
        c("ids_not_increasing_error", d, _ids([0, 1, 3]), _ids([1, 0, 1]),
          error="INVALID_ARGUMENT", phrases=["segment ids are not increasing"])
        c("negative_id_error", d, _ids([0, 1, 3]), _ids([-1, 0, 1]), error="INVALID_ARGUMENT",
          phrases=["Segment id -1 out of range [0, 2), possibly because 'segment_ids' input is "
                   "not sorted."])
        c("size_mismatch_error", d, _ids([0, 1, 3]), _ids([0, 0]), error="INVALID_ARGUMENT",
          phrases=["segment_ids and indices should have same size."])
        c("indices_not_vector_error", d, _ids([[0], [1]]), _ids([0, 0]),
          error="INVALID_ARGUMENT", phrases=["indices should be a vector."])
        c("ids_not_vector_error", d, _ids([0, 1]), _ids([[0], [0]]), error="INVALID_ARGUMENT",
          phrases=["segment_ids should be a vector."])

    rec.for_dtypes(op, dtypes, gen)


def sparse_segment_num(rec, op, dtypes=ALL):
    """SparseSegment*WithNumSegments: the output has num_segments rows (trailing ones empty, as
    embedding_lookup_sparse of a batch with empty last rows needs)."""
    def gen(dt):
        rtol, atol = tol("reduce" if op.startswith("SparseSegmentSum") else "loose", dt)

        def c(what, data, indices, ids, num, error=None, phrases=()):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                data=ph("data", data, dt), indices=ph("indices", indices),
                segment_ids=ph("segment_ids", ids), num_segments=ph("num_segments", num),
                name="out"), rtol=rtol, atol=atol, error=error, phrases=phrases)

        d = _data(op, dt, [5, 3], "d")
        c("basic", d, _ids([0, 1, 4, 2, 2]), _ids([0, 0, 1, 3, 3]), _ids(6))
        c("exact_rows", d, _ids([0, 1, 4]), _ids([0, 1, 1]), _ids(2))
        c("rank3_int64", _data(op, dt, [4, 2, 3], "r3"), _ids([3, 0, 1], "int64"),
          _ids([0, 2, 2], "int64"), _ids(4, "int64"))
        c("no_indices", d, _ids([]), _ids([]), _ids(3))
        c("zero_segments", d, _ids([]), _ids([]), _ids(0))
        c("id_not_below_num_error", d, _ids([0, 1, 3]), _ids([0, 1, 3]), _ids(3),
          error="INVALID_ARGUMENT", phrases=["segment ids must be < num_segments"])
        c("negative_num_error", d, _ids([]), _ids([]), _ids(-1), error="INVALID_ARGUMENT")
        c("ids_not_increasing_error", d, _ids([0, 1, 3]), _ids([1, 0, 1]), _ids(4),
          error="INVALID_ARGUMENT", phrases=["segment ids are not increasing"])
        c("index_out_of_range_error", d, _ids([0, 5, 3]), _ids([0, 0, 1]), _ids(4),
          error="INVALID_ARGUMENT", phrases=["Bad: indices[1] == 5 out of range [0, 5)"])
    rec.for_dtypes(op, dtypes, gen)


def build_all(rec, emit):
    for op in SORTED:
        sorted_segment(rec, op, ALL + COMPLEX if op in COMPLEX_OPS else ALL)
        emit(op)
    for op in UNSORTED:
        unsorted_segment(rec, op, ALL + COMPLEX if op in COMPLEX_OPS else ALL)
        emit(op)
    for op in SPARSE:
        sparse_segment(rec, op)
        emit(op)
    for op in SPARSE_NUM:
        sparse_segment_num(rec, op)
        emit(op)
