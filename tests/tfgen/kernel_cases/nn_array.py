"""Block-rearranging and structured array ops: SpaceToBatchND, BatchToSpaceND, SpaceToBatch,
BatchToSpace, DepthToSpace, SpaceToDepth, Roll, ReverseSequence, MatrixBandPart, MatrixDiagV3,
MatrixDiagPartV3, MatrixSetDiagV3; the 3-D (NDHWC) window ops Conv3D, Conv3DBackpropInputV2,
MaxPool3D, AvgPool3D; the N-d scatters ScatterNd and TensorScatterUpdate / Add / Sub / Max / Min.

Every dtype TensorFlow's CPU kernel has gets a basic case; float32 (the "full" dtype) gets every
case. Block shapes, paddings and crops are Consts as TensorFlow's graphs have them; where
TensorFlow's shape function would reject a bad value at graph-building time, the operand is a
Placeholder of known shape (the shape function needs block_shape's rank) fed the bad value.
"""
import numpy as np
import tensorflow as tf

from kernel_cases import core
from kernel_cases.core import ALL, FLOATS, NP, const, rand
from kernel_cases.nn import ACC_TOL, ROW_TOL, _tol

tf1 = tf.compat.v1
FULL = "float32"


def _r(op, dt, shape, tag=""):
    return rand(dt, shape, "%s/%s/%s/%s" % (op, dt, shape, tag))


def ph(name, value, dt=None):
    """A Placeholder named `name` of unknown shape, fed `value`."""
    return core.ph(name, value, dt)


def ph_shaped(name, value, dt="int32"):
    """A Placeholder named `name` of `value`'s (known) shape, fed `value`."""
    value = np.asarray(value, dtype=NP[dt])
    t = tf1.placeholder(tf.as_dtype(value.dtype), shape=value.shape, name=name)
    core._feeds.append((t.name, value))
    return t


def space_batch_nd(rec, op):
    to_batch = op == "SpaceToBatchND"
    amounts = "paddings" if to_batch else "crops"

    def gen(dt):
        def c(what, x, block, pairs, idx="int32", error=None, phrases=()):
            def build():
                make = ph_shaped if error else const
                kwargs = {"input": ph("x", x, dt), "block_shape": make("block_shape", block, idx),
                          amounts: make(amounts, np.reshape(pairs, (-1, 2)), idx), "name": "out"}
                return getattr(tf.raw_ops, op)(**kwargs)
            rec.case(op, dt, what, build, error=error, phrases=phrases)

        if to_batch:
            c("basic_2d", _r(op, dt, [2, 4, 6, 3]), [2, 2], [[0, 0], [0, 0]])
            if dt != FULL:
                return
            c("padded", _r(op, dt, [2, 5, 3, 2]), [2, 3], [[1, 0], [2, 1]])
            c("dilated_conv_like", _r(op, dt, [2, 10, 10, 3]), [2, 2], [[2, 2], [2, 2]])
            c("one_dim", _r(op, dt, [2, 12, 3]), [2], [[4, 0]])
            c("three_dims_int64", _r(op, dt, [1, 4, 2, 6, 2]), [2, 1, 3], [[0, 0], [1, 1], [0, 0]],
              "int64")
            c("no_trailing_dims", _r(op, dt, [3, 4, 4]), [2, 4], [[0, 2], [0, 0]])
            c("empty_block", _r(op, dt, [2, 3]), np.zeros([0], np.int32), np.zeros([0, 2]))
            c("zero_batch", _r(op, dt, [0, 4, 4, 1]), [2, 2], [[0, 0], [0, 0]])
            c("zero_block_error", _r(op, dt, [2, 4, 4, 1]), [0, 2], [[0, 0], [0, 0]],
              error="INVALID_ARGUMENT",
              phrases=["All values in block_shape must be positive, got value, 0 at index 0."])
            c("negative_padding_error", _r(op, dt, [2, 4, 4, 1]), [2, 2], [[0, 0], [-1, 1]],
              error="INVALID_ARGUMENT", phrases=["Paddings must be non-negative"])
            c("not_divisible_error", _r(op, dt, [2, 4, 4, 1]), [2, 3], [[0, 0], [0, 1]],
              error="INVALID_ARGUMENT",
              phrases=["padded_shape[1]=5 is not divisible by block_shape[1]=3"])
            c("rank_error", _r(op, dt, [2, 4, 4, 1]), [2, 2, 1, 1], [[0, 0]] * 4,
              error="INVALID_ARGUMENT", phrases=["input rank should be >= 5 instead of 4"])
            c("scalar_error", np.asarray(_r(op, dt, [1]))[0], [2], [[0, 0]],
              error="INVALID_ARGUMENT", phrases=["input rank should be >= 2 instead of 0"])
        else:
            c("basic_2d", _r(op, dt, [8, 2, 3, 3]), [2, 2], [[0, 0], [0, 0]])
            if dt != FULL:
                return
            c("cropped", _r(op, dt, [12, 3, 2, 2]), [2, 3], [[1, 0], [2, 1]])
            c("dilated_conv_like", _r(op, dt, [8, 7, 7, 3]), [2, 2], [[0, 4], [0, 4]])
            c("one_dim", _r(op, dt, [4, 3, 3]), [2], [[0, 1]])
            c("three_dims_int64", _r(op, dt, [6, 4, 2, 2, 2]), [2, 1, 3], [[0, 0], [1, 1], [0, 2]],
              "int64")
            c("crop_all", _r(op, dt, [8, 2, 2, 1]), [2, 2], [[2, 2], [0, 0]])
            c("empty_block", _r(op, dt, [2, 3]), np.zeros([0], np.int32), np.zeros([0, 2]))
            c("zero_batch", _r(op, dt, [0, 2, 2, 1]), [2, 2], [[0, 0], [0, 0]])
            c("zero_block_error", _r(op, dt, [8, 2, 2, 1]), [0, 2], [[0, 0], [0, 0]],
              error="INVALID_ARGUMENT", phrases=["Product of block sizes must be positive, got 0"])
            c("negative_crop_error", _r(op, dt, [8, 2, 2, 1]), [2, 2], [[-1, 0], [0, 0]],
              error="INVALID_ARGUMENT", phrases=["Crops must be non-negative"])
            c("crop_too_large_error", _r(op, dt, [8, 2, 2, 1]), [2, 2], [[3, 2], [0, 0]],
              error="INVALID_ARGUMENT", phrases=["cropped_shape[0]=-1 must be non-negative"])
            c("batch_not_divisible_error", _r(op, dt, [8, 2, 2, 1]), [3, 2], [[0, 0], [0, 0]],
              error="INVALID_ARGUMENT",
              phrases=["Input batch dimension (8) is not divisible by product of block sizes "
                       "(6)"])
            c("rank_error", _r(op, dt, [8, 2, 2, 1]), [2, 2, 1, 1], [[0, 0]] * 4,
              error="INVALID_ARGUMENT", phrases=["input rank should be >= 5 instead of 4"])

    rec.for_dtypes(op, ALL, gen)


def space_batch_4d(rec, op):
    to_batch = op == "SpaceToBatch"
    amounts = "paddings" if to_batch else "crops"

    def gen(dt):
        def c(what, x, pairs, block_size=2, idx="int32", error=None, phrases=()):
            def build():
                make = ph_shaped if error else const
                kwargs = {"input": ph("x", x, dt), amounts: make(amounts, pairs, idx),
                          "block_size": block_size, "name": "out"}
                return getattr(tf.raw_ops, op)(**kwargs)
            rec.case(op, dt, what, build, error=error, phrases=phrases)

        if to_batch:
            c("basic", _r(op, dt, [2, 4, 6, 3]), [[0, 0], [0, 0]])
            if dt != FULL:
                return
            c("padded_block3", _r(op, dt, [1, 5, 4, 2]), [[1, 0], [1, 1]], block_size=3)
            c("int64_paddings", _r(op, dt, [1, 3, 3, 1]), [[1, 0], [0, 1]], idx="int64")
            c("not_divisible_error", _r(op, dt, [2, 4, 4, 1]), [[0, 0], [0, 0]], block_size=3,
              error="INVALID_ARGUMENT",
              phrases=["padded_shape[0]=4 is not divisible by block_shape[0]=3"])
            c("rank_error", _r(op, dt, [4, 4, 1]), [[0, 0], [0, 0]], error="INVALID_ARGUMENT",
              phrases=["Input rank should be: 4instead of: 3"])
        else:
            c("basic", _r(op, dt, [8, 2, 3, 3]), [[0, 0], [0, 0]])
            if dt != FULL:
                return
            c("cropped_block3", _r(op, dt, [9, 2, 2, 2]), [[1, 0], [1, 1]], block_size=3)
            c("int64_crops", _r(op, dt, [4, 2, 2, 1]), [[1, 0], [0, 1]], idx="int64")
            c("batch_not_divisible_error", _r(op, dt, [6, 2, 2, 1]), [[0, 0], [0, 0]],
              error="INVALID_ARGUMENT",
              phrases=["Input batch dimension (6) is not divisible by product of block sizes "
                       "(4)"])
            c("rank_error", _r(op, dt, [4, 2, 1]), [[0, 0], [0, 0]], error="INVALID_ARGUMENT",
              phrases=["Input rank should be: 4instead of: 3"])

    rec.for_dtypes(op, ALL, gen)


def depth_space(rec, op):
    def gen(dt):
        def c(what, x, block_size=2, error=None, phrases=()):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                input=ph("x", x, dt), block_size=block_size, name="out"),
                error=error, phrases=phrases)

        if op == "DepthToSpace":
            c("basic", _r(op, dt, [2, 2, 3, 8]))
            if dt != FULL:
                return
            c("block3", _r(op, dt, [1, 2, 2, 18]), block_size=3)
            c("zero_batch", _r(op, dt, [0, 2, 2, 4]))
            c("depth_error", _r(op, dt, [1, 2, 2, 8]), block_size=3, error="INVALID_ARGUMENT",
              phrases=["Input depth dimension 8 should be divisible by: 9"])
            c("rank_error", _r(op, dt, [2, 2, 8]), error="INVALID_ARGUMENT",
              phrases=["Input rank should be: 4 instead of: 3"])
        else:
            c("basic", _r(op, dt, [2, 4, 6, 2]))
            if dt != FULL:
                return
            c("block3", _r(op, dt, [1, 6, 3, 3]), block_size=3)
            c("zero_depth", _r(op, dt, [1, 4, 4, 0]))
            c("size_error", _r(op, dt, [1, 4, 6, 1]), block_size=4, error="INVALID_ARGUMENT",
              phrases=["Image width 6 and height 4 should be divisible by block_size: 4"])
            c("rank_error", _r(op, dt, [4, 4, 1]), error="INVALID_ARGUMENT",
              phrases=["Input rank should be 4 instead of 3"])

    rec.for_dtypes(op, ALL, gen)


def roll(rec):
    op = "Roll"

    def gen(dt):
        def c(what, x, shift, axis, sdt="int32", adt="int32", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.Roll(
                input=ph("x", x, dt), shift=ph("shift", shift, sdt), axis=ph("axis", axis, adt),
                name="out"), error=error, phrases=phrases)

        c("two_axes", _r(op, dt, [3, 4, 5]), [1, -2], [0, 2])
        if dt != FULL:
            return
        c("scalar_shift", _r(op, dt, [7]), 3, 0)
        c("same_axis_twice_int64", _r(op, dt, [4, 6]), [5, 4], [1, 1], "int64", "int64")
        c("negative_axis_large_shift", _r(op, dt, [2, 3, 4]), [-11], [-2])
        c("all_axes", _r(op, dt, [2, 3, 4, 2]), [1, 2, 3, 1], [0, 1, 2, 3])
        c("empty", _r(op, dt, [2, 0, 3]), [1, 1], [0, 1])
        c("axis_error", _r(op, dt, [2, 3]), [1], [2], error="INVALID_ARGUMENT",
          phrases=["axis 2 is out of range"])
        c("negative_axis_error", _r(op, dt, [2, 3]), [1], [-3], error="INVALID_ARGUMENT",
          phrases=["axis -1 is out of range"])
        c("size_error", _r(op, dt, [2, 3]), [1, 2], [1], error="INVALID_ARGUMENT",
          phrases=["shift and axis must have the same size"])
        c("shift_rank_error", _r(op, dt, [2, 3]), [[1]], [1], error="INVALID_ARGUMENT",
          phrases=["shift must be a scalar or a 1-D vector. Found: [1,1]"])
        c("scalar_input_error", np.asarray(_r(op, dt, [1]))[0], 1, 0, error="INVALID_ARGUMENT",
          phrases=["input must be 1-D or higher"])

    rec.for_dtypes(op, ALL, gen)


def reverse_sequence(rec):
    op = "ReverseSequence"

    def gen(dt):
        def c(what, x, lengths, seq_dim, batch_dim=0, ldt="int64", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.ReverseSequence(
                input=ph("x", x, dt), seq_lengths=ph("y", lengths, ldt), seq_dim=seq_dim,
                batch_dim=batch_dim, name="out"), error=error, phrases=phrases)

        c("basic", _r(op, dt, [3, 5, 2]), [1, 5, 3], 1)
        if dt != FULL:
            return
        c("int32_lengths", _r(op, dt, [3, 4]), [0, 2, 4], 1, ldt="int32")
        c("batch_after_seq", _r(op, dt, [4, 2, 3]), [3, 1], 0, 1)
        c("seq_last", _r(op, dt, [2, 3, 4]), [4, 2], 2, 0)
        c("too_long_error", _r(op, dt, [2, 3, 4]), [1, 5], 2, error="INVALID_ARGUMENT",
          phrases=["seq_lens(1) > input.dims(2)"])
        c("negative_error", _r(op, dt, [3, 5]), [1, -1, 3], 1, error="INVALID_ARGUMENT",
          phrases=["seq_lens(1) < 0"])
        c("count_error", _r(op, dt, [3, 5]), [1, 2], 1, error="INVALID_ARGUMENT",
          phrases=["Length of seq_lengths != input.dims(0), (2 vs. 3)"])
        c("lengths_rank_error", _r(op, dt, [3, 5]), [[1, 2, 3]], 1, error="INVALID_ARGUMENT",
          phrases=["seq_lengths must be 1-dim, not 2"])
        c("same_dims_error", _r(op, dt, [3, 5]), [1, 2, 3], 0, 0, error="INVALID_ARGUMENT",
          phrases=["batch_dim == seq_dim == 0"])
        c("seq_dim_error", _r(op, dt, [3, 5]), [1, 2, 3], 2, error="INVALID_ARGUMENT",
          phrases=["seq_dim must be < input rank ( 2 vs. 2)"])
        c("batch_dim_error", _r(op, dt, [3, 5]), [1, 2, 3], 1, 2, error="INVALID_ARGUMENT",
          phrases=["batch_dim must be < input rank ( 2 vs. 2)"])
        c("negative_seq_dim_error", _r(op, dt, [3, 5]), [1, 2, 3], -1, error="INVALID_ARGUMENT",
          phrases=["Invalid seq_dim -1"])

    rec.for_dtypes(op, ALL, gen)


def matrix_band_part(rec):
    op = "MatrixBandPart"

    def gen(dt):
        def c(what, x, lower, upper, idx="int64", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.MatrixBandPart(
                input=ph("x", x, dt), num_lower=ph("y", lower, idx),
                num_upper=ph("z", upper, idx), name="out"), error=error, phrases=phrases)

        c("band", _r(op, dt, [2, 4, 5]), 1, 2)
        if dt != FULL:
            return
        c("lower_triangle_int32", _r(op, dt, [5, 4]), -1, 0, "int32")
        c("upper_triangle", _r(op, dt, [3, 3, 4]), 0, -1)
        c("full_bounds", _r(op, dt, [4, 5]), 4, 5)
        c("empty", _r(op, dt, [0, 3, 3]), 1, 1)
        c("lower_error", _r(op, dt, [4, 5]), 5, 1, error="INVALID_ARGUMENT",
          phrases=["num_lower must be negative or less or equal to number of rows (4) got: 5"])
        c("upper_error", _r(op, dt, [4, 5]), 1, 6, error="INVALID_ARGUMENT",
          phrases=["num_upper must be negative or less or equal to number of columns (5) got: "
                   "6"])
        c("rank_error", _r(op, dt, [5]), 1, 1, error="INVALID_ARGUMENT",
          phrases=["input must be at least 2-dim, received shape: [5]"])
        c("scalar_error", _r(op, dt, [4, 5]), [1], 1, error="INVALID_ARGUMENT",
          phrases=["num_lower must be scalar, got shape [1]"])

    rec.for_dtypes(op, ALL, gen)


ALIGNS = ["RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT"]


def matrix_diag_part(rec):
    op = "MatrixDiagPartV3"

    def gen(dt):
        def c(what, x, k, align="RIGHT_LEFT", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.MatrixDiagPartV3(
                input=ph("x", x, dt), k=ph("k", k, "int32"),
                padding_value=ph("y", _r(op, dt, [], "pad"), dt), align=align, name="out"),
                error=error, phrases=phrases)

        c("band_right_left", _r(op, dt, [2, 4, 5]), [-1, 2])
        if dt != FULL:
            return
        for align in ALIGNS[1:]:
            c("band_" + align.lower(), _r(op, dt, [4, 5]), [-2, 1], align)
        c("main", _r(op, dt, [3, 4, 3]), 0)
        c("one_super", _r(op, dt, [3, 5]), 2)
        c("subs_tall", _r(op, dt, [6, 3]), [-4, -1], "LEFT_RIGHT")
        c("widest", _r(op, dt, [4, 5]), [-3, 4])
        c("lower_bound_error", _r(op, dt, [4, 5]), [-4, 0], error="INVALID_ARGUMENT",
          phrases=["lower_diag_index is out of bound: -4. It must be between -4 and 5"])
        c("upper_bound_error", _r(op, dt, [4, 5]), [0, 5], error="INVALID_ARGUMENT",
          phrases=["upper_diag_index is out of bound: 5 It must be between -4 and 5"])
        c("order_error", _r(op, dt, [4, 5]), [2, 1], error="INVALID_ARGUMENT",
          phrases=["lower_diag_index must not be larger than upper_diag_index: 2 > 1"])
        c("k_size_error", _r(op, dt, [4, 5]), [1, 2, 3], error="INVALID_ARGUMENT",
          phrases=["diag_index must have only one or two elements, received 3 elements."])
        c("k_empty_error", _r(op, dt, [4, 5]), np.zeros([0], np.int32), error="INVALID_ARGUMENT",
          phrases=["Expected diag_index to have at least 1 element"])
        c("k_rank_error", _r(op, dt, [4, 5]), [[1]], error="INVALID_ARGUMENT",
          phrases=["diag_index must be a scalar or vector, received shape: [1,1]"])
        c("rank_error", _r(op, dt, [5]), 0, error="INVALID_ARGUMENT",
          phrases=["input must be at least 2-dim, received shape: [5]"])

    rec.for_dtypes(op, ALL, gen)


def matrix_diag(rec):
    op = "MatrixDiagV3"

    def gen(dt):
        def c(what, d, k, rows=-1, cols=-1, align="RIGHT_LEFT", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.MatrixDiagV3(
                diagonal=ph("x", d, dt), k=ph("k", k, "int32"),
                num_rows=ph("rows", rows, "int32"), num_cols=ph("cols", cols, "int32"),
                padding_value=ph("y", _r(op, dt, [], "pad"), dt), align=align, name="out"),
                error=error, phrases=phrases)

        c("band_right_left", _r(op, dt, [2, 2, 3]), [-1, 0])
        if dt != FULL:
            return
        for align in ALIGNS[1:]:
            c("band_" + align.lower(), _r(op, dt, [3, 4]), [-1, 1], align=align)
        c("main_batch", _r(op, dt, [2, 3, 4]), 0)
        c("super_rows_given", _r(op, dt, [2]), 1, rows=3)
        c("sub_cols_given", _r(op, dt, [3]), -2, cols=4)
        c("wide", _r(op, dt, [3]), 0, rows=3, cols=6)
        c("tall_band", _r(op, dt, [2, 3]), [-2, -1], rows=5, cols=3, align="LEFT_LEFT")
        c("far_sub", _r(op, dt, [3]), -5)
        c("num_diags_error", _r(op, dt, [2, 3]), [0, 2], error="INVALID_ARGUMENT",
          phrases=["The number of diagonals provided in the input does not match the "
                   "lower_diag_index and upper_diag_index range."])
        c("rows_small_error", _r(op, dt, [3]), 0, rows=2, cols=2, error="INVALID_ARGUMENT",
          phrases=["The number of rows is too small."])
        c("cols_small_error", _r(op, dt, [3]), 0, rows=3, cols=2, error="INVALID_ARGUMENT",
          phrases=["The number of columns is too small."])
        c("inconsistent_error", _r(op, dt, [3]), 0, rows=5, cols=4, error="INVALID_ARGUMENT",
          phrases=["The number of rows or columns is not consistent with the specified "
                   "d_lower, d_upper, and diagonal."])
        c("rows_rank_error", _r(op, dt, [3]), 0, rows=[1], error="INVALID_ARGUMENT",
          phrases=["num_rows must be a scalar"])
        c("diagonal_rank_error", np.asarray(_r(op, dt, [1]))[0], 0, error="INVALID_ARGUMENT",
          phrases=["diagonal must be at least 1-dim, received shape: []"])

    rec.for_dtypes(op, ALL, gen)


def matrix_set_diag(rec):
    op = "MatrixSetDiagV3"

    def gen(dt):
        def c(what, x, d, k, align="RIGHT_LEFT", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.MatrixSetDiagV3(
                input=ph("x", x, dt), diagonal=ph("y", d, dt), k=ph("k", k, "int32"),
                align=align, name="out"), error=error, phrases=phrases)

        c("band_right_left", _r(op, dt, [2, 4, 5]), _r(op, dt, [2, 2, 4], "d"), [-1, 0])
        if dt != FULL:
            return
        for align in ALIGNS[1:]:
            c("band_" + align.lower(), _r(op, dt, [4, 5]), _r(op, dt, [4, 4], "d"), [-2, 1],
              align)
        c("main", _r(op, dt, [3, 4, 3]), _r(op, dt, [3, 3], "d"), 0)
        c("super", _r(op, dt, [3, 5]), _r(op, dt, [3], "d"), 2)
        c("shape_error", _r(op, dt, [4, 5]), _r(op, dt, [2, 3], "d"), [-1, 0],
          error="INVALID_ARGUMENT",
          phrases=["Either first dimensions of diagonal don't match input.shape[:-2], or "
                   "diagonal.shape[:-1] is not equal to the longests diagonal in range "
                   "[lower_diag_index:upper_diag_index].\nInput shape: [4,5]\nDiagonal shape: "
                   "[2,3]\nExpected diagonal shape: [2,4]"])
        c("num_diags_error", _r(op, dt, [4, 5]), _r(op, dt, [3, 4], "d"), [-1, 0],
          error="INVALID_ARGUMENT",
          phrases=["The number of diagonals provided in `diag` is not consistent with "
                   "`lower_diag_index` and `upper_diag_index`"])
        c("bound_error", _r(op, dt, [4, 5]), _r(op, dt, [4], "d"), 7, error="INVALID_ARGUMENT",
          phrases=["lower_diag_index is out of bound: 7 It must be between -4 and 5"])
        c("rank_error", _r(op, dt, [5]), _r(op, dt, [4], "d"), 0, error="INVALID_ARGUMENT",
          phrases=["input must be at least 2-dim, received shape: [5]"])

    rec.for_dtypes(op, ALL, gen)


def matrix_diag_v1(rec, op):
    """MatrixDiag, MatrixDiagPart, MatrixSetDiag (main diagonal only), Diag and DiagPart."""
    raw = getattr(tf.raw_ops, op)
    dtypes = ALL + (["complex64", "complex128"] if op in ("Diag", "DiagPart") else [])

    def gen(dt):
        def c(what, x, d=None, error=None, phrases=()):
            if op == "MatrixSetDiag":
                build = lambda: raw(input=ph("x", x, dt), diagonal=ph("y", d, dt), name="out")
            elif op in ("MatrixDiag", "Diag"):
                build = lambda: raw(diagonal=ph("x", x, dt), name="out")
            else:
                build = lambda: raw(input=ph("x", x, dt), name="out")
            rec.case(op, dt, what, build, error=error, phrases=phrases)

        def r(shape, tag=""):
            return _r(op, dt, shape, tag)

        if op == "MatrixDiag":
            c("batch", r([2, 3]))
            if dt != FULL:
                return
            c("vector", r([4]))
            c("zero_size", r([2, 0]))
            c("rank_error", np.asarray(r([1]))[0], error="INVALID_ARGUMENT",
              phrases=["diagonal must be at least 1-dim, received shape: []"])
        elif op == "MatrixDiagPart":
            c("batch", r([2, 3, 3]))
            if dt != FULL:
                return
            c("wide", r([3, 5]))
            c("tall", r([2, 5, 3]))
            c("zero_size", r([0, 2, 2]))
            c("rank_error", r([5]), error="INVALID_ARGUMENT",
              phrases=["input must be at least 2-dim, received shape: [5]"])
        elif op == "MatrixSetDiag":
            c("batch", r([2, 3, 3]), r([2, 3], "d"))
            if dt != FULL:
                return
            c("wide", r([3, 5]), r([3], "d"))
            c("tall", r([5, 2]), r([2], "d"))
            c("shape_error", r([4, 5]), r([3], "d"), error="INVALID_ARGUMENT",
              phrases=["Either first dimensions of diagonal don't match input.shape[:-2], or "
                       "diagonal.shape[:-1] is not equal to the longests diagonal in range "
                       "[lower_diag_index:upper_diag_index].\nInput shape: [4,5]\nDiagonal "
                       "shape: [3]\nExpected diagonal shape: [4]"])
            c("rank_error", r([5]), r([4], "d"), error="INVALID_ARGUMENT",
              phrases=["input must be at least 2-dim, received shape: [5]"])
        elif op == "Diag":
            c("vector", r([3]))
            if dt != FULL:
                return
            c("rank2", r([2, 3]))
            c("zero_size", r([0]))
            c("scalar_error", np.asarray(r([1]))[0], error="INVALID_ARGUMENT",
              phrases=["Input must be at least rank 1, got 0"])
        else:
            c("matrix", r([3, 3]))
            if dt != FULL:
                return
            c("rank4", r([2, 3, 2, 3]))
            c("zero_size", r([0, 0]))
            c("odd_rank_error", r([3]), error="INVALID_ARGUMENT",
              phrases=["The rank of the tensor should be ", "even and positive, got shape [3]"])
            c("mismatch_error", r([2, 3]), error="INVALID_ARGUMENT",
              phrases=["Invalid shape [2,3]: dimensions 0 and 1 do not match."])

    rec.for_dtypes(op, dtypes, gen)


# TensorFlow's half Conv3D and Conv3DBackpropInputV2 accumulate in half (errors up to ~0.015 on
# these sums of O(1) products, against the exact result); Rill accumulates in float and rounds
# once, so half compares with a tolerance wider than those errors.
CONV3D_TOL = dict(ACC_TOL, half=(2e-2, 2e-2))


def conv3d(rec):
    op = "Conv3D"

    def gen(dt):
        rtol, atol = _tol(CONV3D_TOL, dt)

        def c(what, in_shape, f_shape, strides=(1, 1, 1, 1, 1), padding="VALID",
              dilations=(1, 1, 1, 1, 1), error=None, phrases=()):
            x = rand(dt, in_shape, "%s/%s/%s/x" % (op, dt, what), "small")
            f = rand(dt, f_shape, "%s/%s/%s/f" % (op, dt, what), "small")
            rec.case(op, dt, what, lambda: tf.raw_ops.Conv3D(
                input=ph("x", x, dt), filter=ph("y", f, dt), strides=list(strides),
                padding=padding, dilations=list(dilations), name="out"),
                rtol=rtol, atol=atol, error=error, phrases=phrases)

        c("valid", [2, 5, 6, 4, 2], [2, 3, 2, 2, 3])
        c("same_stride2", [1, 6, 5, 7, 3], [3, 3, 3, 3, 2], [1, 2, 2, 2, 1], "SAME")
        if dt != FULL:
            return
        c("pointwise", [2, 3, 3, 3, 4], [1, 1, 1, 4, 5])
        c("valid_mixed_strides", [1, 7, 6, 5, 2], [3, 2, 2, 2, 2], [1, 2, 1, 3, 1])
        c("same_even_filter", [1, 4, 5, 3, 1], [2, 2, 4, 1, 2], padding="SAME")
        c("zero_batch", [0, 4, 4, 4, 2], [2, 2, 2, 2, 1])
        c("dilation_error", [1, 5, 5, 5, 1], [2, 2, 2, 1, 1], dilations=(1, 2, 1, 1, 1),
          error="INVALID_ARGUMENT",
          phrases=["CPU implementation of Conv3D currently only supports dilated rates of 1."])
        c("input_rank_error", [5, 5, 5, 1], [2, 2, 2, 1, 1], error="INVALID_ARGUMENT",
          phrases=["input must be 5-dimensional"])
        c("filter_rank_error", [1, 5, 5, 5, 1], [2, 2, 1, 1], error="INVALID_ARGUMENT",
          phrases=["filter must be 5-dimensional"])
        c("depth_error", [1, 4, 4, 4, 2], [2, 2, 2, 3, 1], error="INVALID_ARGUMENT",
          phrases=["Input depth must be evenly divisible by filter depth: 2 vs 3"])
        c("grouped_error", [1, 4, 4, 4, 4], [2, 2, 2, 2, 1], error="INVALID_ARGUMENT",
          phrases=["Number of channels in filter (2) must match last dimension of input (4)"])
        c("empty_filter_error", [1, 4, 4, 4, 2], [2, 0, 2, 2, 1], error="INVALID_ARGUMENT",
          phrases=["filter must not have zero elements (i.e. all dimensions must be "
                   "non-zero)"])
        c("batch_stride_error", [1, 4, 4, 4, 2], [2, 2, 2, 2, 1], strides=(2, 1, 1, 1, 1),
          error="INVALID_ARGUMENT",
          phrases=["Current implementation does not yet support strides in the batch and depth "
                   "dimensions."])
        c("empty_output", [1, 2, 4, 4, 1], [3, 2, 2, 1, 1])
        c("negative_size_error", [1, 1, 4, 4, 1], [3, 2, 2, 1, 1], error="INVALID_ARGUMENT",
          phrases=["Computed output size would be negative"])

    rec.for_dtypes(op, FLOATS, gen)


def conv3d_backprop_input(rec):
    op = "Conv3DBackpropInputV2"

    def gen(dt):
        rtol, atol = _tol(CONV3D_TOL, dt)

        def c(what, in_sizes, f_shape, g_shape, strides=(1, 2, 2, 2, 1), padding="VALID",
              idx="int32", error=None, phrases=()):
            f = rand(dt, f_shape, "%s/%s/%s/f" % (op, dt, what), "small")
            g = rand(dt, g_shape, "%s/%s/%s/g" % (op, dt, what), "small")
            rec.case(op, dt, what, lambda: tf.raw_ops.Conv3DBackpropInputV2(
                input_sizes=(ph if error else const)("input_sizes", in_sizes, idx),
                filter=ph("x", f, dt),
                out_backprop=ph("y", g, dt), strides=list(strides), padding=padding, name="out"),
                rtol=rtol, atol=atol, error=error, phrases=phrases)

        c("valid_stride2", [1, 5, 7, 4, 2], [2, 3, 2, 2, 3], [1, 2, 3, 2, 3])
        c("same_stride2", [2, 4, 6, 3, 2], [3, 3, 3, 2, 2], [2, 2, 3, 2, 2], padding="SAME")
        if dt != FULL:
            return
        c("stride1_int64_sizes", [1, 4, 4, 4, 1], [2, 2, 2, 1, 2], [1, 3, 3, 3, 2],
          strides=(1, 1, 1, 1, 1), idx="int64")
        c("size_error", [1, 5, 7, 4, 2], [2, 3, 2, 2, 3], [1, 1, 3, 2, 3],
          error="INVALID_ARGUMENT",
          phrases=["Conv3DBackpropInputOp: Size of out_backprop doesn't match computed: actual = "
                   "1, computed = 2 spatial_dim: 1 input: 5 filter: 2 output: 1 stride: 2 "
                   "dilation: 1"])
        c("channels_error", [1, 5, 7, 4, 3], [2, 3, 2, 2, 3], [1, 2, 3, 2, 3],
          error="INVALID_ARGUMENT",
          phrases=["input and filter_sizes must have the same number of channels. Got 3 for "
                   "input and 2 for filter_sizes"])
        c("batch_error", [2, 5, 7, 4, 2], [2, 3, 2, 2, 3], [1, 2, 3, 2, 3],
          error="INVALID_ARGUMENT",
          phrases=["Conv3DBackpropInputOp: input and out_backprop must have the same batch "
                   "size. Input batch: 2, outbackprop batch: 1, batch_dim: 0"])
        c("out_channels_error", [1, 5, 7, 4, 2], [2, 3, 2, 2, 3], [1, 2, 3, 2, 2],
          error="INVALID_ARGUMENT",
          phrases=["out_backprop and filter_sizes must have the same number of channels. Got 2 "
                   "for out_backprop and 3 for filter_sizes"])
        c("sizes_length_error", [1, 5, 7, 4], [2, 3, 2, 2, 3], [1, 2, 3, 2, 3],
          error="INVALID_ARGUMENT", phrases=["input tensor must have 5 dimensions"])
        c("filter_rank_error", [1, 5, 7, 4, 2], [3, 2, 2, 3], [1, 2, 3, 2, 3],
          error="INVALID_ARGUMENT", phrases=["filter_sizes tensor must have 5 dimensions"])

    rec.for_dtypes(op, FLOATS, gen)


def pool3d(rec, op):
    def gen(dt):
        rtol, atol = _tol(ROW_TOL, dt)

        def c(what, shape, ksize, strides, padding="VALID", error=None, phrases=()):
            x = rand(dt, shape, "%s/%s/%s" % (op, dt, what))
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                input=ph("x", x, dt), ksize=list(ksize), strides=list(strides), padding=padding,
                name="out"), rtol=rtol, atol=atol, error=error, phrases=phrases)

        c("valid_2x2x2", [2, 4, 6, 5, 3], [1, 2, 2, 2, 1], [1, 2, 2, 2, 1])
        if dt != FULL:
            return
        c("same_3x3x3", [1, 5, 6, 4, 2], [1, 3, 3, 3, 1], [1, 2, 2, 2, 1], "SAME")
        c("same_stride1", [1, 3, 4, 3, 2], [1, 2, 3, 2, 1], [1, 1, 1, 1, 1], "SAME")
        c("valid_overlapping", [2, 5, 5, 5, 1], [1, 3, 2, 3, 1], [1, 1, 2, 2, 1])
        c("window_larger_than_input", [1, 5, 6, 4, 2], [1, 6, 2, 2, 1], [1, 2, 2, 2, 1])
        c("batch_window_error", [1, 4, 4, 4, 1], [2, 1, 1, 1, 1], [1, 1, 1, 1, 1],
          error="UNIMPLEMENTED",
          phrases=["Pooling is not yet supported on the batch dimension."])
        c("depth_stride_error", [1, 4, 4, 4, 2], [1, 1, 1, 1, 1], [1, 1, 1, 1, 2],
          error="UNIMPLEMENTED",
          phrases=["Pooling is not yet supported on the depth dimension."])
        c("zero_window_error", [1, 4, 4, 4, 1], [1, 0, 2, 2, 1], [1, 2, 2, 2, 1],
          error="INVALID_ARGUMENT",
          phrases=["Sliding window ksize field must have non-negative dimensions"])
        c("rank_error", [4, 4, 4, 1], [1, 2, 2, 2, 1], [1, 2, 2, 2, 1], error="INVALID_ARGUMENT",
          phrases=["tensor_in must be 5-dimensional"])

    rec.for_dtypes(op, FLOATS, gen)


def scatter_nd(rec):
    op = "ScatterNd"

    def gen(dt):
        def c(what, indices, updates, shape, idx="int32", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.ScatterNd(
                indices=ph("i", indices, idx), updates=ph("x", updates, dt),
                shape=ph("shape", shape, idx), name="out"), error=error, phrases=phrases)

        upd = _r(op, dt, [4, 2], "u")
        c("duplicates_summed", [[0], [2], [0], [3]], upd, [5, 2])
        if dt != FULL:
            return
        c("elements_int64", np.array([[0, 1], [2, 2], [1, 0]]), _r(op, dt, [3], "e"), [3, 3],
          "int64")
        c("batched_indices", [[[0], [3]], [[1], [0]]], _r(op, dt, [2, 2, 3], "b"), [4, 3])
        c("no_updates", np.zeros([0, 1]), np.zeros([0, 2], np.float32), [3, 2])
        c("empty_shape_no_updates", np.zeros([2, 0]), np.zeros([2, 0], np.float32), [0])
        c("out_of_range_error", [[0], [4]], _r(op, dt, [2], "o"), [4], error="INVALID_ARGUMENT",
          phrases=["indices[1] = [4] does not index into shape [4]"])
        c("last_bad_index_error", [[0], [5], [7]], _r(op, dt, [3], "o"), [4],
          error="INVALID_ARGUMENT", phrases=["indices[2] = [7] does not index into shape [4]"])
        c("negative_index_error", [[0, 1], [-2, 1]], _r(op, dt, [2, 2], "o"), [3, 3, 2],
          error="INVALID_ARGUMENT",
          phrases=["indices[1] = [-2, 1] does not index into shape [3,3,2]"])
        c("outer_error", [[0], [1]], _r(op, dt, [3], "o"), [4], error="INVALID_ARGUMENT",
          phrases=["Dimensions [0,1) of indices[shape=[2,1]] must match dimensions [0,1) of "
                   "updates[shape=[3]]"])
        c("inner_error", [[0], [1]], _r(op, dt, [2, 1], "o"), [4], error="INVALID_ARGUMENT",
          phrases=["Dimensions [1,1) of input[shape=[4]] must match dimensions [1,2) of "
                   "updates[shape=[2,1]]"])
        c("index_depth_error", [[0, 0, 0, 0]], _r(op, dt, [1], "o"), [4],
          error="INVALID_ARGUMENT",
          phrases=["Dimensions [4,1) of input[shape=[4]] must match dimensions [1,1) of "
                   "updates[shape=[1]]"])
        c("negative_shape_error", [[0], [1]], _r(op, dt, [2], "o"), [-4],
          error="INVALID_ARGUMENT", phrases=["Dimension -4 must be >= 0"])
        c("empty_output_error", [[0], [5]], _r(op, dt, [2], "o"), [0], error="INVALID_ARGUMENT",
          phrases=["Indices and updates specified for empty output.  indices shape: [2,1]"])
        c("whole_tensor_error", np.zeros([1, 0]), _r(op, dt, [1, 4], "o"), [4],
          error="INVALID_ARGUMENT",
          phrases=["Indices and updates specified for empty output shape"])
        c("scalar_indices_error", 0, _r(op, dt, [], "o"), [4], error="INVALID_ARGUMENT",
          phrases=["Indices shape must have rank at least one. Found:[]"])
        c("shape_rank_error", [[0], [1]], _r(op, dt, [2], "o"), [[4]], error="INVALID_ARGUMENT",
          phrases=["Shape must be a vector"])

    rec.for_dtypes(op, ALL, gen)


def tensor_scatter(rec, op):
    def gen(dt):
        def c(what, tensor, indices, updates, idx="int32", error=None, phrases=()):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                tensor=ph("x", tensor, dt), indices=ph("i", indices, idx),
                updates=ph("y", updates, dt), name="out"), error=error, phrases=phrases)

        c("rows", _r(op, dt, [5, 3], "t"), [[4], [1], [0]], _r(op, dt, [3, 3], "u"))
        if dt != FULL:
            return
        dup = "last_duplicate" if op == "TensorScatterUpdate" else "duplicates"
        c(dup, _r(op, dt, [4], "t"), [[1], [3], [1]], _r(op, dt, [3], "u"))
        c("elements_int64", _r(op, dt, [3, 4], "t"), np.array([[0, 1], [2, 3]]),
          _r(op, dt, [2], "u"), "int64")
        c("no_updates", _r(op, dt, [3], "t"), np.zeros([0, 1]), np.zeros([0], np.float32))
        c("out_of_range_error", _r(op, dt, [4], "t"), [[0], [4]], _r(op, dt, [2], "u"),
          error="INVALID_ARGUMENT", phrases=["indices[1] = [4] does not index into shape [4]"])
        c("outer_error", _r(op, dt, [4], "t"), [[0], [1]], _r(op, dt, [3], "u"),
          error="INVALID_ARGUMENT",
          phrases=["Outer dimensions of indices and update must match. Indices shape: [2,1], "
                   "updates shape:[3]"])
        c("inner_error", _r(op, dt, [2, 2], "t"), [[0, 0, 0]], _r(op, dt, [1], "u"),
          error="INVALID_ARGUMENT",
          phrases=["Inner dimensions of output shape must match inner dimensions of updates "
                   "shape. Output: [2,2] updates: [1]"])
        c("empty_tensor_error", np.zeros([0], np.float32), [[0]], _r(op, dt, [1], "u"),
          error="INVALID_ARGUMENT",
          phrases=["Indices and updates specified for empty output shape"])
        c("scalar_indices_error", _r(op, dt, [4], "t"), 0, _r(op, dt, [], "u"),
          error="INVALID_ARGUMENT",
          phrases=["Indices shape must have rank at least one. Found:[]"])

    rec.for_dtypes(op, ALL, gen)


def build_all(rec, emit):
    for op in ("SpaceToBatchND", "BatchToSpaceND"):
        space_batch_nd(rec, op)
        emit(op)
    for op in ("SpaceToBatch", "BatchToSpace"):
        space_batch_4d(rec, op)
        emit(op)
    for op in ("DepthToSpace", "SpaceToDepth"):
        depth_space(rec, op)
        emit(op)
    for op, builder in (("Roll", roll), ("ReverseSequence", reverse_sequence),
                        ("MatrixBandPart", matrix_band_part),
                        ("MatrixDiagPartV3", matrix_diag_part), ("MatrixDiagV3", matrix_diag),
                        ("MatrixSetDiagV3", matrix_set_diag)):
        builder(rec)
        emit(op)
    for op in ("MatrixDiag", "MatrixDiagPart", "MatrixSetDiag", "Diag", "DiagPart"):
        matrix_diag_v1(rec, op)
        emit(op)
    conv3d(rec)
    emit("Conv3D")
    conv3d_backprop_input(rec)
    emit("Conv3DBackpropInputV2")
    for op in ("MaxPool3D", "AvgPool3D"):
        pool3d(rec, op)
        emit(op)
    scatter_nd(rec)
    emit("ScatterNd")
    for op in ("TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub", "TensorScatterMax",
               "TensorScatterMin"):
        tensor_scatter(rec, op)
        emit(op)
