"""Sparse-tensor ops on (indices, values, dense_shape) triples: SparseToDense,
SparseTensorDenseMatMul, SparseReduceSum, SparseAdd, SparseReorder, SparseReshape,
SparseFillEmptyRows."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import ALL, arr, is_float, ph, rand, tol

NUMERIC = ["float32", "float64", "half", "int32", "int64", "uint8", "int8", "int16"]


def _i64(v):
    return np.asarray(v, dtype=np.int64)


def _vals(dt, n, tag):
    return rand(dt, [n], tag, "exact_sum" if is_float(dt) else "small")


def sparse_to_dense(rec):
    op = "SparseToDense"

    def gen(dt):
        def c(what, idx, shape, vals, default, error=None, phrases=(), it="int64",
              validate=True):
            npi = np.int32 if it == "int32" else np.int64
            rec.case(op, dt, what, lambda: tf.raw_ops.SparseToDense(
                sparse_indices=ph("sparse_indices", np.asarray(idx, npi)),
                output_shape=ph("output_shape", np.asarray(shape, npi)),
                sparse_values=ph("sparse_values", vals, dt),
                default_value=ph("default_value", default, dt),
                validate_indices=validate, name="out"), error=error, phrases=phrases)

        v3 = rand(dt, [3], op + dt, "any")
        d = rand(dt, [], op + dt + "d", "any")
        c("matrix", [[0, 1], [1, 0], [2, 2]], [3, 4], v3, d)
        c("int32_indices", [[0, 1], [1, 0], [2, 2]], [3, 4], v3, d, it="int32")
        c("scalar_value", [[0, 0, 1], [1, 1, 0]], [2, 2, 2], v3[0], d)
        c("vector_indices", [0, 3, 4], [6], v3, d)
        c("scalar_index", 2, [4], v3[0], d)
        c("no_indices", np.zeros((0, 2)), [2, 3], v3[:0], d)
        c("empty_output", np.zeros((0, 2)), [0, 3], v3[:0], d)
        c("unsorted_unvalidated", [[2, 2], [0, 1], [1, 0]], [3, 4], v3, d, validate=False)
        c("unsorted_error", [[2, 2], [0, 1], [1, 0]], [3, 4], v3, d, error="INVALID_ARGUMENT",
          phrases=["indices[1] = [0,1] is out of order. Many sparse ops require sorted indices."])
        c("repeated_error", [[0, 1], [0, 1], [1, 0]], [3, 4], v3, d, error="INVALID_ARGUMENT",
          phrases=["indices[1] = [0,1] is repeated"])
        c("out_of_bounds_error", [[0, 1], [3, 0], [3, 1]], [3, 4], v3, d,
          error="INVALID_ARGUMENT",
          phrases=["indices[1] = [3,0] is out of bounds: need 0 <= index < [3,4]"])
        c("negative_index_error", [[0, -1], [1, 0], [2, 2]], [3, 4], v3, d,
          error="INVALID_ARGUMENT",
          phrases=["indices[0] = [0,-1] is out of bounds: need 0 <= index < [3,4]"])
        c("out_of_bounds_unvalidated_error", [[5, 1], [1, 0], [2, 2]], [3, 4], v3, d,
          error="INVALID_ARGUMENT", validate=False,
          phrases=["Indices are not valid (out of bounds).  Shape: [3,4]"])
        c("values_shape_error", [[0, 1], [1, 0]], [3, 4], v3, d, error="INVALID_ARGUMENT",
          phrases=["sparse_values has incorrect shape [3], should be [] or [2]"])
        c("shape_length_error", [[0, 1], [1, 0], [2, 2]], [3, 4, 1], v3, d,
          error="INVALID_ARGUMENT",
          phrases=["output_shape has incorrect number of elements: 3 should be: 2"])
        c("shape_not_vector_error", [[0, 1], [1, 0], [2, 2]], [[3, 4]], v3, d,
          error="INVALID_ARGUMENT", phrases=["output_shape must be rank 1, got shape [1,2]"])
        c("default_not_scalar_error", [[0, 1], [1, 0], [2, 2]], [3, 4], v3, v3[:1],
          error="INVALID_ARGUMENT", phrases=["default_value should be a scalar."])
        c("indices_rank3_error", [[[0, 1]]], [3, 4], v3[:1], d, error="INVALID_ARGUMENT",
          phrases=["sparse_indices should be a scalar, vector, or matrix, got shape [1,1,2]"])
        c("negative_shape_error", [[0, 1]], [-3, 4], v3[:1], d, error="INVALID_ARGUMENT",
          phrases=["Dimension -3 must be >= 0"])

    rec.for_dtypes(op, ALL, gen)


def sparse_dense_matmul(rec):
    op = "SparseTensorDenseMatMul"

    def gen(dt):
        rtol, atol = tol("reduce", dt)

        def c(what, idx, vals, shape, b, error=None, phrases=(), it="int64", **attrs):
            npi = np.int32 if it == "int32" else np.int64
            rec.case(op, dt, what, lambda: tf.raw_ops.SparseTensorDenseMatMul(
                a_indices=ph("a_indices", np.asarray(idx, npi)), a_values=ph("a_values", vals, dt),
                a_shape=ph("a_shape", _i64(shape)), b=ph("b", b, dt), name="out", **attrs),
                rtol=rtol, atol=atol, error=error, phrases=phrases)

        idx = [[0, 1], [1, 3], [2, 0], [2, 3], [0, 1]]  # unsorted, one repeated
        vals = _vals(dt, 5, op + "v")
        b = rand(dt, [4, 2], op + dt + "b", "exact_sum" if is_float(dt) else "small")
        bt = rand(dt, [2, 4], op + dt + "bt", "exact_sum" if is_float(dt) else "small")
        bl = rand(dt, [3, 2], op + dt + "bl", "exact_sum" if is_float(dt) else "small")
        c("basic", idx, vals, [3, 4], b)
        c("int32_indices", idx, vals, [3, 4], b, it="int32")
        c("adjoint_a", idx, vals, [3, 4], bl, adjoint_a=True)
        c("adjoint_b", idx, vals, [3, 4], bt, adjoint_b=True)
        c("adjoint_both", idx, vals, [3, 4], bl.T.copy(), adjoint_a=True, adjoint_b=True)
        c("no_entries", np.zeros((0, 2)), vals[:0], [3, 4], b)
        c("empty_b", idx, vals, [3, 4], b[:, :0])
        c("row_out_of_bounds_error", [[0, 1], [3, 0]], vals[:2], [3, 4], b,
          error="INVALID_ARGUMENT", phrases=["m (3) from index[1,0] out of bounds (>=3)"])
        c("col_out_of_bounds_error", [[0, 4], [2, 0]], vals[:2], [3, 4], b,
          error="INVALID_ARGUMENT", phrases=["k (4) from index[0,1] out of bounds (>=4)"])
        c("negative_index_error", [[0, -1]], vals[:1], [3, 4], b, error="INVALID_ARGUMENT",
          phrases=["k (-1) from index[0,1] out of bounds (>=4)"])
        c("adjoint_out_of_bounds_error", [[0, 4]], vals[:1], [3, 4], bl, adjoint_a=True,
          error="INVALID_ARGUMENT", phrases=["m (4) from index[0,1] out of bounds (>=4)"])
        c("inner_dim_error", idx, vals, [3, 4], bl, error="INVALID_ARGUMENT",
          phrases=["Cannot multiply A and B because inner dimension does not match: 4 vs. 3.  "
                   "Did you forget a transpose?  Dimensions of A: [3, 4).  Dimensions of B: "
                   "[3,2]"])
        c("b_not_matrix_error", idx, vals, [3, 4], b[:, 0], error="INVALID_ARGUMENT",
          phrases=["Tensor 'b' is not a matrix"])
        c("shape_length_error", idx, vals, [3, 4, 1], b, error="INVALID_ARGUMENT",
          phrases=["Tensor 'a_shape' must have 2 elements"])
        c("indices_not_matrix_error", [0, 1], vals[:2], [3, 4], b, error="INVALID_ARGUMENT",
          phrases=["Tensor 'a_indices' is not a matrix"])
        c("values_count_error", idx, vals[:4], [3, 4], b, error="INVALID_ARGUMENT",
          phrases=["Number of rows of a_indices does not match number of entries in a_values"])
        c("index_columns_error", [[0, 1, 0]], vals[:1], [3, 4], b, error="INVALID_ARGUMENT",
          phrases=["Number of columns of a_indices does not match number of entries in "
                   "a_shape"])

    rec.for_dtypes(op, ALL, gen)


def sparse_reduce_sum(rec):
    op = "SparseReduceSum"

    def gen(dt):
        rtol, atol = tol("reduce", dt)

        def c(what, idx, vals, shape, axes, keep=False, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.SparseReduceSum(
                input_indices=ph("input_indices", _i64(idx)),
                input_values=ph("input_values", vals, dt), input_shape=ph("input_shape",
                                                                          _i64(shape)),
                reduction_axes=ph("reduction_axes", np.asarray(axes, np.int32)),
                keep_dims=keep, name="out"), rtol=rtol, atol=atol, error=error,
                phrases=phrases)

        idx = [[0, 1, 0], [1, 0, 1], [1, 2, 1], [0, 1, 1], [2, 2, 0], [1, 0, 1]]
        vals = _vals(dt, 6, op + dt)
        sh = [3, 3, 2]
        c("axis0", idx, vals, sh, [0])
        c("axis1_keep_dims", idx, vals, sh, [1], keep=True)
        c("axes_0_2", idx, vals, sh, [0, 2])
        c("negative_axis", idx, vals, sh, [-1])
        c("all_axes", idx, vals, sh, [0, 1, 2])
        c("all_axes_keep_dims", idx, vals, sh, [2, 0, 1], keep=True)
        c("repeated_axis", idx, vals, sh, [1, -2])
        c("scalar_axis", idx, vals, sh, 1)
        c("no_axes", idx, vals, sh, [])
        c("no_entries", np.zeros((0, 3)), vals[:0], sh, [1])
        c("axis_error", idx, vals, sh, [3], error="INVALID_ARGUMENT",
          phrases=["Invalid reduction dimension 3, for input with 3 dimensions."])
        c("negative_axis_error", idx, vals, sh, [-4], error="INVALID_ARGUMENT",
          phrases=["Invalid reduction dimension -4, for input with 3 dimensions."])
        c("out_of_bounds_error", [[0, 1], [3, 0]], vals[:2], [3, 2], [1], error="INTERNAL",
          phrases=["Obtained a write index of 3 which is outside of bounds of [0, 3)"])
        c("values_count_error", idx, vals[:5], sh, [1], error="INVALID_ARGUMENT",
          phrases=["indices and values rows (indexing dimension) must match. (indices = 6, "
                   "values = 5)"])
        c("indices_not_matrix_error", [0, 1], vals[:2], [3, 2], [1], error="INVALID_ARGUMENT",
          phrases=["indices must be a matrix, but got: [2]"])
        c("rank_mismatch_error", idx, vals, [3, 3], [1], error="INVALID_ARGUMENT")
        c("shape_not_vector_error", idx, vals, [sh], [1], error="INVALID_ARGUMENT",
          phrases=["Expected input_shape to be a vector; got shape: [1,3]"])
        c("values_not_vector_error", idx, vals.reshape(2, 3), sh, [1],
          error="INVALID_ARGUMENT", phrases=["vals must be a vec, but got: [2,3]"])

    rec.for_dtypes(op, NUMERIC, gen)


def sparse_add(rec):
    op = "SparseAdd"

    def gen(dt):
        rtol, atol = tol("reduce", dt)

        def c(what, ai, av, ash, bi, bv, bsh, thresh=0, error=None, phrases=(), tdt=None):
            rec.case(op, dt, what, lambda: tf.raw_ops.SparseAdd(
                a_indices=ph("a_indices", _i64(ai)), a_values=ph("a_values", av, dt),
                a_shape=ph("a_shape", _i64(ash)), b_indices=ph("b_indices", _i64(bi)),
                b_values=ph("b_values", bv, dt), b_shape=ph("b_shape", _i64(bsh)),
                thresh=ph("thresh", thresh, tdt or dt), name="out"),
                rtol=rtol, atol=atol, error=error, phrases=phrases)

        ai = [[0, 1], [1, 0], [2, 3]]
        bi = [[0, 0], [0, 1], [2, 2], [2, 3], [2, 4]]
        av = _vals(dt, 3, op + dt + "a")
        bv = _vals(dt, 5, op + dt + "b")
        if dt != "uint8":
            bv[1] = -av[0]  # cancels to 0 at [0, 1]
        c("basic", ai, av, [3, 5], bi, bv, [3, 5])
        c("threshold", ai, av, [3, 5], bi, bv, [3, 5], thresh=2)
        if is_float(dt):
            c("nan_sum_dropped", [[0, 0], [1, 1]], arr([np.nan, np.nan], dt), [2, 2],
              [[0, 0]], arr([1], dt), [2, 2], thresh=0.5)
        c("a_empty", np.zeros((0, 2)), av[:0], [3, 5], bi, bv, [3, 5])
        c("both_empty", np.zeros((0, 2)), av[:0], [3, 5], np.zeros((0, 2)), bv[:0], [3, 5])
        c("unsorted", [[2, 3], [0, 1], [1, 0]], av, [3, 5], bi, bv, [3, 5])
        c("rank3", [[0, 0, 1], [1, 1, 0]], av[:2], [2, 2, 2], [[0, 0, 1], [1, 0, 0]], bv[:2],
          [2, 2, 2])
        c("shape_mismatch_error", ai, av, [3, 5], bi, bv, [3, 6], error="INVALID_ARGUMENT",
          phrases=["Operands' shapes do not match: got 5 and 6 for dimension 1"])
        c("thresh_not_scalar_error", ai, av, [3, 5], bi, bv, [3, 5], thresh=[0],
          error="INVALID_ARGUMENT",
          phrases=["The magnitude threshold must be a scalar: got shape [1]"])
        c("values_count_error", ai, bv[:4], [3, 5], bi, bv, [3, 5], error="INVALID_ARGUMENT",
          phrases=["Expected 3 and 5 non-empty input values, got 4 and 5"])
        c("indices_not_matrix_error", [0, 1], av[:2], [3, 5], bi, bv, [3, 5],
          error="INVALID_ARGUMENT",
          phrases=["Input indices should be matrices but received shapes: [2] and [5,2]"])
        c("rank_mismatch_error", ai, av, [3, 5], [[0, 0, 0]], bv[:1], [3, 5, 1],
          error="INVALID_ARGUMENT",
          phrases=["Input indices must have the same dimension, got 2 and 3"])
        c("values_not_vector_error", ai, av.reshape(1, 3), [3, 5], bi, bv, [3, 5],
          error="INVALID_ARGUMENT")
        c("shape_not_vector_error", ai, av, [[3, 5]], bi, bv, [3, 5], error="INVALID_ARGUMENT")

    rec.for_dtypes(op, NUMERIC, gen)


def sparse_reorder(rec):
    op = "SparseReorder"

    def gen(dt):
        def c(what, idx, vals, shape, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.SparseReorder(
                input_indices=ph("input_indices", _i64(idx)),
                input_values=ph("input_values", vals, dt),
                input_shape=ph("input_shape", _i64(shape)), name="out"),
                error=error, phrases=phrases)

        vals = rand(dt, [4], op + dt, "any")
        c("matrix", [[2, 0], [0, 3], [1, 1], [0, 1]], vals, [3, 4])
        c("rank3", [[1, 0, 1], [0, 1, 1], [1, 0, 0], [0, 0, 0]], vals, [2, 2, 2])
        c("sorted", [[0, 1], [0, 3], [1, 1], [2, 0]], vals, [3, 4])
        c("vector", [[3], [0], [2], [1]], vals, [5])
        c("empty", np.zeros((0, 2)), vals[:0], [3, 4])
        c("values_count_error", [[2, 0], [0, 3]], vals[:3], [3, 4], error="INVALID_ARGUMENT",
          phrases=["Number of elements in indices (2) and values (3) do not match"])
        c("indices_not_matrix_error", [2, 0], vals[:2], [3, 4], error="INVALID_ARGUMENT",
          phrases=["Sparse indices must be rank 2 but is rank 1"])
        c("rank_mismatch_error", [[2, 0], [0, 3]], vals[:2], [3, 4, 1],
          error="INVALID_ARGUMENT", phrases=["Index rank (2) and shape rank (3) do not match"])
        c("values_not_vector_error", [[2, 0], [0, 3]], vals[:2].reshape(1, 2), [3, 4],
          error="INVALID_ARGUMENT", phrases=["Sparse values must be rank 1 but is rank 2"])
        c("shape_not_vector_error", [[2, 0], [0, 3]], vals[:2], [[3, 4]],
          error="INVALID_ARGUMENT", phrases=["Sparse shape must be rank 1 but is rank 2"])

    rec.for_dtypes(op, ALL, gen)


def sparse_reshape(rec):
    op = "SparseReshape"

    def gen(dt):
        def c(what, idx, shape, new_shape, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.SparseReshape(
                input_indices=ph("input_indices", _i64(idx)),
                input_shape=ph("input_shape", _i64(shape)),
                new_shape=ph("new_shape", _i64(new_shape)), name="out"),
                error=error, phrases=phrases, case_dtype="")

        idx = [[0, 1], [2, 3], [1, 0], [2, 1]]
        c("infer_dim", idx, [3, 4], [2, -1])
        c("flatten", idx, [3, 4], [12])
        c("rank3", idx, [3, 4], [2, 3, 2])
        c("from_rank3", [[0, 1, 1], [1, 2, 0]], [2, 3, 2], [-1, 4])
        c("same_shape", idx, [3, 4], [3, 4])
        c("empty", np.zeros((0, 2)), [0, 4], [-1, 2])
        c("out_of_bounds_unchecked", [[5, 1]], [3, 4], [12])
        c("two_unknown_error", idx, [3, 4], [-1, -1], error="INVALID_ARGUMENT",
          phrases=["only one output dimension may be -1, not both 0 and 1"])
        c("size_error", idx, [3, 4], [5, 2], error="INVALID_ARGUMENT",
          phrases=["Input to reshape is a tensor with 12 dense values, but the requested shape "
                   "has 10. input_shape=[3,4] output_shape=[5,2]"])
        c("not_multiple_error", idx, [3, 4], [5, -1], error="INVALID_ARGUMENT",
          phrases=["Input to reshape is a SparseTensor with 12 dense values, but the requested "
                   "shape requires a multiple of 5. input_shape=[3,4] output_shape=[5,1]"])
        c("negative_dim_error", idx, [3, 4], [-2, 6], error="INVALID_ARGUMENT",
          phrases=["size 0 must be non-negative, not -2"])
        c("infer_from_zero_error", np.zeros((0, 2)), [0, 4], [0, -1], error="INVALID_ARGUMENT",
          phrases=["reshape cannot infer the missing input size for an empty tensor unless all "
                   "specified input sizes are non-zero"])
        c("indices_not_matrix_error", [0, 1], [3, 4], [12], error="INVALID_ARGUMENT",
          phrases=["Input must be a matrix."])
        c("shape_not_vector_error", idx, [[3, 4]], [12], error="INVALID_ARGUMENT",
          phrases=["Input shape must be a vector."])
        c("new_shape_not_vector_error", idx, [3, 4], [[12]], error="INVALID_ARGUMENT",
          phrases=["Target shape should be a vector but received shape [1,1]"])
        c("rank_mismatch_error", idx, [3, 4, 1], [12], error="INVALID_ARGUMENT",
          phrases=["Input tensor rank must match input shape length."])

    rec.for_dtypes(op, ["int64"], gen)


def sparse_fill_empty_rows(rec):
    op = "SparseFillEmptyRows"

    def gen(dt):
        def c(what, idx, vals, shape, default, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.SparseFillEmptyRows(
                indices=ph("indices", _i64(idx)), values=ph("values", vals, dt),
                dense_shape=ph("dense_shape", _i64(shape)),
                default_value=ph("default_value", default, dt), name="out"),
                error=error, phrases=phrases)

        vals = rand(dt, [4], op + dt, "any")
        d = rand(dt, [], op + dt + "d", "any")
        c("basic", [[0, 1], [2, 3], [2, 0]], vals[:3], [4, 4], d)
        c("unsorted_rows", [[2, 1], [0, 1], [2, 0], [0, 0]], vals, [4, 4], d)
        c("vector", [[2], [0]], vals[:2], [4], d)
        c("rank3", [[1, 0, 1], [3, 1, 0]], vals[:2], [4, 2, 2], d)
        c("no_entries", np.zeros((0, 2)), vals[:0], [2, 4], d)
        c("no_rows", np.zeros((0, 2)), vals[:0], [0, 4], d)
        c("column_unchecked", [[0, 9]], vals[:1], [2, 4], d)
        c("row_out_of_bounds_error", [[0, 1], [5, 3]], vals[:2], [4, 4], d,
          error="INVALID_ARGUMENT", phrases=["indices(1, 0) is invalid: 5 >= 4"])
        c("negative_row_error", [[0, 1], [-1, 3]], vals[:2], [4, 4], d,
          error="INVALID_ARGUMENT", phrases=["indices(1, 0) is invalid: -1 >= 4"])
        c("values_count_error", [[0, 1]], vals[:2], [4, 4], d, error="INVALID_ARGUMENT",
          phrases=["The length of `values` (2) must match the first dimension of `indices` (1)."])
        c("shape_length_error", [[0, 1]], vals[:1], [4, 4, 1], d, error="INVALID_ARGUMENT",
          phrases=["The length of `dense_shape` (3) must match the second dimension of "
                   "`indices` (2)."])
        c("empty_shape_error", np.zeros((0, 0)), vals[:0], [], d, error="INVALID_ARGUMENT",
          phrases=["Dense shape cannot be empty."])
        c("negative_rows_error", np.zeros((0, 2)), vals[:0], [-1, 2], d,
          error="INVALID_ARGUMENT",
          phrases=["Expected shape dimensions to be non-negative, got -1"])
        c("default_not_scalar_error", [[0, 1]], vals[:1], [4, 4], vals[:1],
          error="INVALID_ARGUMENT", phrases=["default_value must be a scalar, saw: [1]"])
        c("indices_not_matrix_error", [0, 1], vals[:2], [4, 4], d, error="INVALID_ARGUMENT",
          phrases=["indices must be a matrix, saw: [2]"])
        c("shape_not_vector_error", [[0, 1]], vals[:1], [[4, 4]], d, error="INVALID_ARGUMENT",
          phrases=["dense_shape must be a vector, saw: [1,2]"])
        c("values_not_vector_error", [[0, 1]], vals[:1].reshape(1, 1), [4, 4], d,
          error="INVALID_ARGUMENT", phrases=["values must be a vector, saw: [1,1]"])

    rec.for_dtypes(op, ALL, gen)


def build_all(rec, emit):
    sparse_to_dense(rec)
    emit("SparseToDense")
    sparse_dense_matmul(rec)
    emit("SparseTensorDenseMatMul")
    sparse_reduce_sum(rec)
    emit("SparseReduceSum")
    sparse_add(rec)
    emit("SparseAdd")
    sparse_reorder(rec)
    emit("SparseReorder")
    sparse_reshape(rec)
    emit("SparseReshape")
    sparse_fill_empty_rows(rec)
    emit("SparseFillEmptyRows")
