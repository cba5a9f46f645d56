"""EditDistance (tf.edit_distance, CTC and sequence-model evaluation graphs): Levenshtein distances
between the sequences of two sparse tensors, normalized and not, for every value dtype the CPU
kernel takes; sequences missing on either side, groups out of order (a group met twice
overwrites), rank 3, an output larger than either input, NaN and -0 values, and TensorFlow's
error texts (shape checks, an empty output, a group outside the output)."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import ALL, COMPLEX, NP, ph

DTYPES = ALL + COMPLEX + ["string"]


def _values(ints, dt):
    """`ints` (small non-negative integers) as values of dtype `dt`."""
    if dt == "string":
        return np.array([("s%d" % i).encode() for i in ints], dtype=object)
    if dt == "bool":
        return np.array([i % 2 == 1 for i in ints], dtype=np.bool_)
    return np.array(ints).astype(NP[dt])


def _idx(rows, rank=2):
    return np.array(rows, dtype=np.int64).reshape([-1, rank])


def build_all(rec, emit):
    def gen(dt):
        def c(what, hi, hv, hs, ti, tv, ts, normalize=True, error=None, phrases=()):
            rec.case("EditDistance", dt, what, lambda: tf.raw_ops.EditDistance(
                hypothesis_indices=ph("hi", np.asarray(hi, np.int64)),
                hypothesis_values=ph("hv", hv), hypothesis_shape=ph("hs", np.asarray(hs, np.int64)),
                truth_indices=ph("ti", np.asarray(ti, np.int64)), truth_values=ph("tv", tv),
                truth_shape=ph("ts", np.asarray(ts, np.int64)), normalize=normalize, name="out"),
                error=error, phrases=phrases, case_dtype="string" if dt == "string" else dt)

        v = lambda *ints: _values(list(ints), dt)  # noqa: E731
        hi = _idx([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2], [2, 0]])
        hv = v(1, 2, 3, 0, 1, 2)
        ti = _idx([[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [2, 0]])
        tv = v(1, 3, 2, 3, 1, 2)
        for norm in (True, False):
            tag = "normalized" if norm else "raw"
            c("rows_" + tag, hi, hv, [3, 3], ti, tv, [3, 3], norm)
            # Row 0 only in the hypothesis, row 2 only in the truth, row 1 in neither.
            c("missing_sequences_" + tag, _idx([[0, 0], [0, 1]]), v(1, 2), [3, 2],
              _idx([[2, 0]]), v(2), [1, 1], norm)
            # Groups out of order: row 0 met twice in the hypothesis (the second overwrites).
            c("unsorted_groups_" + tag, _idx([[0, 0], [1, 0], [0, 1]]), v(1, 2, 3), [2, 2],
              _idx([[0, 0]]), v(1), [2, 1], norm)
            c("rank3_" + tag, _idx([[0, 0, 0], [0, 1, 0], [0, 1, 1], [1, 0, 0]], 3),
              v(1, 2, 3, 1), [2, 2, 2], _idx([[0, 1, 0], [0, 1, 1], [0, 1, 2], [1, 1, 0]], 3),
              v(2, 3, 0, 1), [1, 3, 3], norm)
        c("both_empty", np.zeros([0, 2]), v(), [2, 3], np.zeros([0, 2]), v(), [1, 4])
        c("last_index_not_read", _idx([[0, 5]]), v(1), [1, 1], _idx([[0, 0]]), v(1), [1, 1])
        if dt in ("float32", "float64", "half", "complex64"):
            nan = np.array([np.nan, -0.0, 0.0]).astype(dt)
            c("nan_differs_neg_zero_equals", _idx([[0, 0], [0, 1]]), nan[:2], [1, 2],
              _idx([[0, 0], [0, 1]]), nan[[0, 2]], [1, 2], False)
        if dt not in ("float32", "int32", "string"):
            return
        err = "INVALID_ARGUMENT"
        one, sh = _idx([[0, 0]]), [2, 1]
        c("hypothesis_indices_not_matrix_error", [0, 0], v(1), sh, one, v(1), sh, error=err,
          phrases=["hypothesis_indices should be a matrix, but got shape: [2]"])
        c("truth_indices_not_matrix_error", one, v(1), sh, [0, 0], v(1), sh, error=err,
          phrases=["truth_indices should be a matrix, but got shape: [2]"])
        c("hypothesis_values_not_vector_error", one, v(1).reshape([1, 1]), sh, one, v(1), sh,
          error=err, phrases=["hypothesis_values should be a vector, but got shape: [1,1]"])
        c("truth_values_not_vector_error", one, v(1), sh, one, v(1).reshape([1, 1]), sh,
          error=err, phrases=["truth_values should be a vector, but got shape: [1,1]"])
        c("hypothesis_shape_not_vector_error", one, v(1), [sh], one, v(1), sh, error=err,
          phrases=["hypothesis_shape should be a vector, but got shape: [1,2]"])
        c("truth_shape_not_vector_error", one, v(1), sh, one, v(1), [sh], error=err,
          phrases=["truth_shape should be a vector, but got shape: [1,2]"])
        c("hypothesis_values_count_error", one, v(1, 2), sh, one, v(1), sh, error=err, phrases=[
            "Expected hypothesis_values.NumElements == #rows(hypothesis_indices), their shapes "
            "are: [2] and [1,2]"])
        c("truth_values_count_error", one, v(1), sh, one, v(1, 2), sh, error=err, phrases=[
            "Expected truth_values.NumElements == #rows(truth_indices), their shapes are: [2] and "
            "[1,2]"])
        c("hypothesis_shape_count_error", one, v(1), [2, 1, 1], one, v(1), sh, error=err,
          phrases=["Expected hypothesis_shape.NumElements == #cols(hypothesis_indices), their "
                   "shapes are: [3] and [1,2]"])
        c("truth_shape_count_error", one, v(1), sh, one, v(1), [2, 1, 1], error=err,
          phrases=["Expected truth_shape.NumElements == #cols(truth_indices), their shapes "
                   "are: [3] and [1,2]"])
        c("rank1_error", _idx([[0]], 1), v(1), [2], _idx([[0]], 1), v(1), [2], error=err,
          phrases=["Input SparseTensors must have rank at least 2, but truth_shape rank is: 1"])
        c("rank_mismatch_error", one, v(1), sh, _idx([[0, 0, 0]], 3), v(1), [2, 1, 1],
          error=err, phrases=["Expected truth and hypothesis to have matching ranks, but their "
                              "shapes are: [3] and [2]"])
        c("negative_dim_error", one, v(1), [-2, 1], one, v(1), sh, error=err,
          phrases=["Dimension -2 must be >= 0"])
        c("empty_output_error", np.zeros([0, 3]), v(), [2, 0, 3], np.zeros([0, 3]), v(),
          [1, 0, 4], error=err, phrases=["Got output shape [2,0] which has 0 elements"])
        c("group_outside_output_error", _idx([[5, 0]]), v(1), sh, one, v(1), sh,
          error="INTERNAL", phrases=[
              "Got an inner product 5 which would require writing to outside of the buffer for "
              "the output tensor (max elements 2)"])
        c("negative_index_error", _idx([[-1, 0]]), v(1), sh, one, v(1), sh, error="INTERNAL",
          phrases=["Got an inner product -1 which would require writing to outside of the "
                   "buffer for the output tensor (max elements 2)"])

    rec.for_dtypes("EditDistance", DTYPES, gen)
    emit("EditDistance")
