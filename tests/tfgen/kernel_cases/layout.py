"""Shape and layout ops: Shape, ShapeN, Size, Rank, Reshape, Squeeze, ExpandDims, Transpose,
ConcatV2, Concat, Pack, Unpack, Split, SplitV, Slice, StridedSlice, Tile, Pad, PadV2, MirrorPad, Fill,
Range, XlaDynamicUpdateSlice.

Every dtype gets a basic case; float32 (the "full" dtype) gets every case.
"""
import numpy as np
import tensorflow as tf

from kernel_cases.core import ALL, COMPLEX, const, ph, rand, strings_of, tf_dtype

FULL = "float32"


def _r(op, dt, shape, tag=""):
    return rand(dt, shape, "%s/%s/%s/%s" % (op, dt, shape, tag))


def shape_of(rec, op, dtypes=ALL):
    """Shape, Size, Rank (one input) and ShapeN (two)."""
    def gen(dt):
        def c(what, xs, out="int32"):
            def build():
                inputs = [ph("xyzw"[i], x, dt) for i, x in enumerate(xs)]
                if op == "Rank":
                    return tf.raw_ops.Rank(input=inputs[0], name="out")
                if op == "ShapeN":
                    return tf.raw_ops.ShapeN(input=inputs, out_type=tf_dtype(out), name="out")
                return getattr(tf.raw_ops, op)(input=inputs[0], out_type=tf_dtype(out),
                                               name="out")
            rec.case(op, dt, what, build)
        n = 2 if op == "ShapeN" else 1
        c("matrix", [_r(op, dt, [2, 3], i) for i in range(n)])
        if dt == FULL:
            c("rank3_int64", [_r(op, dt, [2, 3, 4], i) for i in range(n)], "int64")
            c("scalar", [_r(op, dt, [], i) for i in range(n)])
            c("zero_size", [_r(op, dt, [0, 4], i) for i in range(n)])
            if op == "ShapeN":
                c("mixed_ranks", [_r(op, dt, [2, 3], 0), _r(op, dt, [5], 1)])

    rec.for_dtypes(op, dtypes, gen)


def reshape(rec, dtypes=ALL):
    op = "Reshape"

    def gen(dt):
        def c(what, x, shape, idx="int32", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.Reshape(
                tensor=ph("x", x, dt), shape=const("shape", shape, idx), name="out"),
                error=error, phrases=phrases)
        x = _r(op, dt, [2, 3])
        c("matrix_transposed_shape", x, [3, 2])
        if dt != FULL:
            return
        c("flatten_minus1", x, [-1])
        c("rank3_minus1", _r(op, dt, [2, 3, 4]), [-1, 4])
        c("to_scalar", _r(op, dt, [1]), np.zeros([0], np.int32))
        c("scalar_to_matrix", _r(op, dt, []), [1, 1])
        c("zero_size", _r(op, dt, [0, 3]), [3, 0])
        c("zero_size_minus1", _r(op, dt, [0, 3]), [-1, 3])
        c("shape_int64", x, [6, 1], "int64")
        c("size_mismatch_error", x, [4, 2], error="INVALID_ARGUMENT",
          phrases=["Input to reshape is a tensor with 6 values, but the requested shape has 8"])
        c("two_minus1_error", x, [-1, -1], error="INVALID_ARGUMENT",
          phrases=["Only one input size may be -1, not both 0 and 1"])
        c("minus1_not_divisible_error", x, [-1, 4], error="INVALID_ARGUMENT",
          phrases=["Input to reshape is a tensor with 6 values, but the requested shape "
                   "requires a multiple of 4"])

    rec.for_dtypes(op, dtypes, gen)


def squeeze(rec, dtypes=ALL):
    op = "Squeeze"

    def gen(dt):
        def c(what, x, dims=(), error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.Squeeze(
                input=ph("x", x, dt), axis=list(dims), name="out"), error=error, phrases=phrases)
        x = _r(op, dt, [1, 2, 1, 3])
        c("all_size1_dims", x)
        if dt != FULL:
            return
        c("squeeze_dims_0", x, [0])
        c("squeeze_dims_negative", x, [-2])
        c("squeeze_dims_two", x, [0, 2])
        c("to_scalar", _r(op, dt, [1, 1]))
        c("zero_size", _r(op, dt, [0, 1, 3]))
        c("nothing_to_squeeze", _r(op, dt, [2, 3]))
        c("not_size1_error", x, [1], error="INVALID_ARGUMENT",
          phrases=["Can not squeeze dim[1], expected a dimension of 1, got 2"])
        c("dim_out_of_range_error", x, [4], error="INVALID_ARGUMENT",
          phrases=["Tried to squeeze dim index 4 for tensor with 4 dimensions"])

    rec.for_dtypes(op, dtypes, gen)


def expand_dims(rec, dtypes=ALL):
    op = "ExpandDims"

    def gen(dt):
        def c(what, x, axis, idx="int32", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.ExpandDims(
                input=ph("x", x, dt), axis=const("axis", axis, idx), name="out"),
                error=error, phrases=phrases)
        x = _r(op, dt, [2, 3])
        c("axis0", x, 0)
        if dt != FULL:
            return
        c("axis1", x, 1)
        c("axis_last", x, 2)
        c("axis_minus1", x, -1)
        c("axis_minus3", x, -3)
        c("scalar", _r(op, dt, []), 0)
        c("axis_int64", x, [1], "int64")
        c("zero_size", _r(op, dt, [0, 3]), 1)
        c("axis_out_of_range_error", x, 3, error="INVALID_ARGUMENT",
          phrases=["Tried to expand dim index 3 for tensor with 2 dimensions"])

    rec.for_dtypes(op, dtypes, gen)


def transpose(rec, dtypes=ALL):
    op = "Transpose"

    def gen(dt):
        def c(what, x, perm, idx="int32", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.Transpose(
                x=ph("x", x, dt), perm=const("perm", perm, idx), name="out"),
                error=error, phrases=phrases)
        x3 = _r(op, dt, [2, 3, 4])
        c("matrix", _r(op, dt, [2, 3]), [1, 0])
        c("rank3", x3, [2, 0, 1])
        if dt != FULL:
            return
        c("rank3_swap_last", x3, [0, 2, 1])
        c("identity_perm", x3, [0, 1, 2])
        c("perm_int64", x3, [1, 2, 0], "int64")
        c("rank4", _r(op, dt, [2, 1, 3, 2]), [3, 1, 0, 2])
        c("vector", _r(op, dt, [5]), [0])
        c("scalar", _r(op, dt, []), np.zeros([0], np.int32))
        c("zero_size", _r(op, dt, [0, 3]), [1, 0])
        c("not_a_permutation_error", x3, [0, 0, 1], error="INVALID_ARGUMENT",
          phrases=["2 is missing from {0,0,1}"])
        c("perm_size_error", x3, [1, 0], error="INVALID_ARGUMENT",
          phrases=["transpose expects a vector of size 3. But input(1) is a vector of size 2"])

    rec.for_dtypes(op, dtypes, gen)


def concat(rec, dtypes=ALL, op="ConcatV2"):
    """ConcatV2 (axis after the values) or Concat (concat_dim, int32 only, before them)."""

    def gen(dt):
        def c(what, xs, axis, idx="int32", error=None, phrases=()):
            def build():
                values = [ph("xyzw"[i], x, dt) for i, x in enumerate(xs)]
                if op == "Concat":
                    return tf.raw_ops.Concat(concat_dim=const("concat_dim", axis, idx),
                                             values=values, name="out")
                return tf.raw_ops.ConcatV2(values=values, axis=const("axis", axis, idx),
                                           name="out")
            rec.case(op, dt, what, build, error=error, phrases=phrases)

        def r(shape, i=0):
            return _r(op, dt, shape, i)
        c("axis0", [r([2, 3]), r([1, 3], 1)], 0)
        if dt != FULL:
            return
        c("axis1", [r([2, 3]), r([2, 1], 1)], 1)
        c("axis_negative", [r([2, 3]), r([2, 2], 1)], -1)
        c("three_inputs", [r([1, 2]), r([3, 2], 1), r([2, 2], 2)], 0)
        if op == "ConcatV2":
            c("axis_int64", [r([2, 2, 2]), r([2, 1, 2], 1)], 1, "int64")
        c("vectors", [r([3]), r([2], 1)], 0)
        c("zero_size_input", [r([0, 3]), r([2, 3], 1)], 0)
        c("dimension_mismatch_error", [r([2, 3]), r([2, 2], 1)], 0, error="INVALID_ARGUMENT",
          phrases=["ConcatOp : Dimension 1 in both shapes must be equal"])
        c("axis_out_of_range_error", [r([2, 3]), r([2, 3], 1)], 2, error="INVALID_ARGUMENT",
          phrases=["ConcatOp : Expected concatenating dimensions in the range [-2, 2), but got 2"])

    rec.for_dtypes(op, dtypes, gen)


def pack(rec, dtypes=ALL):
    op = "Pack"

    def gen(dt):
        def c(what, xs, axis=0, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.Pack(
                values=[ph("xyzw"[i], x, dt) for i, x in enumerate(xs)], axis=axis,
                name="out"), error=error, phrases=phrases)
        three = [_r(op, dt, [2, 3], i) for i in range(3)]
        c("axis0", three)
        if dt != FULL:
            return
        c("axis1", three, 1)
        c("axis_negative", three, -1)
        c("scalars", [_r(op, dt, [], i) for i in range(3)])
        c("one_input", three[:1])
        c("zero_size", [_r(op, dt, [0, 3], i) for i in range(2)], 1)
        c("shape_mismatch_error", [three[0], _r(op, dt, [3, 2])], error="INVALID_ARGUMENT",
          phrases=["Shapes of all inputs must match: values[0].shape = [2,3] != "
                   "values[1].shape = [3,2]"])

    rec.for_dtypes(op, dtypes, gen)


def unpack(rec, dtypes=ALL):
    op = "Unpack"

    def gen(dt):
        def c(what, x, num, axis=0, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.Unpack(
                value=ph("x", x, dt), num=num, axis=axis, name="out"), error=error,
                phrases=phrases)
        c("axis0", _r(op, dt, [3, 2]), 3)
        if dt != FULL:
            return
        c("axis1", _r(op, dt, [2, 3]), 3, 1)
        c("axis_negative", _r(op, dt, [2, 2, 3]), 3, -1)
        c("vector_to_scalars", _r(op, dt, [2]), 2)
        c("zero_size", _r(op, dt, [2, 0]), 2)
        c("num_mismatch_error", _r(op, dt, [2, 3]), 3, error="INVALID_ARGUMENT",
          phrases=["Input shape axis 0 must equal 3, got shape [2,3]"])

    rec.for_dtypes(op, dtypes, gen)


def split(rec, dtypes=ALL):
    op = "Split"

    def gen(dt):
        def c(what, x, axis, num, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.Split(
                axis=const("split_dim", axis), value=ph("x", x, dt), num_split=num, name="out"),
                error=error, phrases=phrases)
        x = _r(op, dt, [4, 6])
        c("axis0_two", x, 0, 2)
        if dt != FULL:
            return
        c("axis1_three", x, 1, 3)
        c("axis_negative", x, -1, 2)
        c("one_way", x, 0, 1)
        c("zero_size", _r(op, dt, [0, 4]), 1, 2)
        c("not_divisible_error", x, 0, 3, error="INVALID_ARGUMENT",
          phrases=["Number of ways to split should evenly divide the split dimension"])

    rec.for_dtypes(op, dtypes, gen)


def split_v(rec, dtypes=ALL):
    op = "SplitV"

    def gen(dt):
        def c(what, x, sizes, axis, tlen="int32", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.SplitV(
                value=ph("x", x, dt), size_splits=const("size_splits", sizes, tlen),
                axis=const("split_dim", axis), num_split=len(sizes), name="out"),
                error=error, phrases=phrases)
        x = _r(op, dt, [4, 6])
        c("axis1_sizes", x, [1, 2, 3], 1)
        if dt != FULL:
            return
        c("minus1_size", x, [1, -1], 0)
        c("axis_negative", x, [2, 4], -1)
        c("sizes_int64", x, [3, -1, 1], 1, "int64")
        c("zero_size_piece", x, [0, 4], 0)
        c("sizes_sum_error", x, [1, 2], 0, error="INVALID_ARGUMENT",
          phrases=["Determined shape must either match input shape along split_dim exactly "
                   "if fully specified"])

    rec.for_dtypes(op, dtypes, gen)


def slice_op(rec, dtypes=ALL):
    op = "Slice"

    def gen(dt):
        def c(what, x, begin, size, idx="int32", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.Slice(
                input=ph("x", x, dt), begin=const("begin", begin, idx),
                size=const("size", size, idx), name="out"), error=error, phrases=phrases)
        x = _r(op, dt, [3, 4])
        c("matrix", x, [1, 1], [2, 2])
        if dt != FULL:
            return
        c("size_minus1", x, [1, 2], [-1, -1])
        c("index_int64", x, [0, 1], [3, 2], "int64")
        c("rank3", _r(op, dt, [2, 3, 4]), [1, 0, 2], [1, -1, 2])
        c("empty_result", x, [1, 1], [0, 2])
        c("full", x, [0, 0], [3, 4])
        c("out_of_bounds_error", x, [1, 0], [3, 4], error="INVALID_ARGUMENT",
          phrases=["Expected size[0] in [0, 2], but got 3"])

    rec.for_dtypes(op, dtypes, gen)


def xla_dynamic_update_slice(rec, dtypes=ALL + COMPLEX):
    """XlaDynamicUpdateSlice: what Keras 3's ops.slice_update freezes to on the TensorFlow
    backend (Swin's shifted-window mask, key/value caches). Start indices are clamped so the
    update fits, as XLA's DynamicUpdateSlice does; the indices may be fed."""
    op = "XlaDynamicUpdateSlice"
    from tensorflow.compiler.tf2xla.python import xla

    def gen(dt):
        def c(what, x, update, indices, idx="int32", fed=False, error=None, phrases=()):
            rec.case(op, dt, what, lambda: xla.dynamic_update_slice(
                ph("x", x, dt), ph("update", update, dt),
                (ph if fed else const)("indices", indices, idx), name="out"),
                error=error, phrases=phrases)
        x = _r(op, dt, [3, 4])
        u = _r(op, dt, [2, 2], "update")
        c("matrix", x, u, [1, 2])
        if dt != FULL:
            return
        c("origin", x, u, [0, 0])
        c("index_int64", x, u, [1, 1], "int64")
        c("fed_indices", x, u, [2, 1], fed=True)
        c("clamped_high", x, u, [2, 3])
        c("clamped_negative", x, u, [-1, 5])
        c("clamped_fed", x, u, [5, -3], "int64", fed=True)
        c("rank3", _r(op, dt, [2, 3, 4]), _r(op, dt, [1, 3, 2], "u3"), [1, 0, 1])
        c("rank1_whole", _r(op, dt, [5]), _r(op, dt, [5], "u1"), [3])
        c("scalar", np.float32(2.5), np.float32(-1.0), np.zeros([0], np.int32))
        c("empty_update", x, np.zeros([0, 2], np.float32), [3, 9])
        c("empty_input", np.zeros([0, 3], np.float32), np.zeros([0, 2], np.float32), [0, 1])
        c("index_length_error", x, u, [1], error="INVALID_ARGUMENT",
          phrases=["index must be a vector with length equal to the number of input "
                   "dimensions"])
        c("index_rank2_error", x, u, [[1, 1]], error="INVALID_ARGUMENT",
          phrases=["index must be a vector with length equal to the number of input "
                   "dimensions"])
        c("update_too_big_error", x, np.ones([4, 1], np.float32), [0, 0],
          error="INVALID_ARGUMENT",
          phrases=["Update dim size 4 greater than dynamic slice dimension: 3."])
        c("rank_mismatch_error", x, np.ones([2], np.float32), [0, 0], error="INVALID_ARGUMENT",
          phrases=["input and update must have the same rank, input shape is [3,4]; update "
                   "shape is [2]"])

    rec.for_dtypes(op, dtypes, gen)


def strided_slice(rec, dtypes=ALL):
    op = "StridedSlice"

    def gen(dt):
        def c(what, x, begin, end, strides, idx="int32", error=None, phrases=(), **masks):
            rec.case(op, dt, what, lambda: tf.raw_ops.StridedSlice(
                input=ph("x", x, dt), begin=const("begin", begin, idx),
                end=const("end", end, idx), strides=const("strides", strides, idx),
                name="out", **masks), error=error, phrases=phrases)
        x = _r(op, dt, [3, 4])
        x3 = _r(op, dt, [2, 3, 4])
        c("basic", x, [1, 0], [3, 2], [1, 1])
        if dt != FULL:
            return
        c("stride2", x, [0, 0], [3, 4], [2, 2])
        c("negative_strides", x, [2, 3], [0, 0], [-1, -1])
        c("reverse_all_masks", x, [0, 0], [0, 0], [-1, -1], begin_mask=3, end_mask=3)
        c("negative_stride2", x, [-1, -1], [-4, -5], [-2, -3])
        c("negative_indices", x, [-2, -3], [-1, -1], [1, 1])
        c("begin_mask", x, [2, 1], [3, 3], [1, 1], begin_mask=1)
        c("end_mask", x, [1, 1], [2, 2], [1, 1], end_mask=2)
        c("ellipsis_mask", x3, [0, 1], [0, 3], [1, 1], ellipsis_mask=1)
        c("ellipsis_middle", x3, [1, 0, 2], [2, 0, 4], [1, 1, 1], ellipsis_mask=2)
        c("new_axis_mask", x, [0, 0, 1], [0, 2, 3], [1, 1, 1], new_axis_mask=1)
        c("new_axis_middle", x, [0, 0, 0], [2, 0, 4], [1, 1, 1], new_axis_mask=2)
        c("shrink_axis_mask", x, [1, 0], [2, 0], [1, 1], shrink_axis_mask=1, end_mask=2)
        c("shrink_to_scalar", x, [1, 2], [2, 3], [1, 1], shrink_axis_mask=3)
        c("shrink_negative_index", x3, [-1], [0], [1], shrink_axis_mask=1)
        c("clamped_out_of_range", x, [-10, 1], [10, 10], [1, 1])
        c("empty_result", x, [2, 0], [1, 4], [1, 1])
        c("index_int64", x3, [0, 1, 0], [2, 3, 4], [1, 1, 2], "int64")
        c("zero_size_input", _r(op, dt, [0, 3]), [0, 1], [0, 3], [1, 1])
        c("zero_stride_error", x, [0, 0], [3, 4], [1, 0], error="INVALID_ARGUMENT",
          phrases=["strides[1] must be non-zero"])
        c("shrink_out_of_range_error", x, [5], [6], [1], shrink_axis_mask=1,
          error="INVALID_ARGUMENT", phrases=["slice index 5 of dimension 0 out of bounds"])

    rec.for_dtypes(op, dtypes, gen)


def tile(rec, dtypes=ALL + COMPLEX + ["string", "bfloat16", "uint32", "uint64"]):
    op = "Tile"

    def gen(dt):
        def c(what, x, multiples, idx="int32", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.Tile(
                input=ph("x", x, None if dt == "string" else dt),
                multiples=const("multiples", multiples, idx), name="out"),
                error=error, phrases=phrases)
        if dt == "string":
            c("matrix", strings_of(op, [2, 3]), [2, 2])
            c("scalar", strings_of(op, []), np.zeros([0], np.int32))
            return
        x = _r(op, dt, [2, 3])
        c("matrix", x, [2, 1])
        if dt != FULL:
            return
        c("both_dims", x, [2, 3])
        c("vector", _r(op, dt, [3]), [3])
        c("multiples_int64", x, [1, 2], "int64")
        c("zero_multiple", x, [0, 2])
        c("scalar", _r(op, dt, []), np.zeros([0], np.int32))
        c("zero_size_input", _r(op, dt, [0, 3]), [2, 2])
        c("length_mismatch_error", x, [1, 2, 3], error="INVALID_ARGUMENT",
          phrases=["Expected multiples argument to be a vector of length 2 but got length 3"])

    rec.for_dtypes(op, dtypes, gen)


def pad(rec, op, dtypes=ALL):
    def gen(dt):
        def c(what, x, paddings, idx="int32", mode="REFLECT", error=None, phrases=()):
            def build():
                # A Placeholder for bad paddings: TF's shape function rejects a bad Const.
                xv = ph("x", x, dt)
                p = (ph if error else const)("paddings", paddings, idx)
                if op == "Pad":
                    return tf.raw_ops.Pad(input=xv, paddings=p, name="out")
                if op == "PadV2":
                    return tf.raw_ops.PadV2(input=xv, paddings=p,
                                            constant_values=ph("y", rand(dt, [], "cv"), dt),
                                            name="out")
                return tf.raw_ops.MirrorPad(input=xv, paddings=p, mode=mode, name="out")
            rec.case(op, dt, what, build, error=error, phrases=phrases)
        x = _r(op, dt, [3, 4])
        if op == "MirrorPad":
            c("reflect", x, [[1, 2], [2, 3]])
            if dt != FULL:
                c("symmetric", x, [[1, 2], [3, 4]], mode="SYMMETRIC")
                return
            c("symmetric_max", x, [[3, 3], [4, 4]], mode="SYMMETRIC")
            c("symmetric_small", x, [[1, 0], [0, 2]], mode="SYMMETRIC")
            c("reflect_vector", _r(op, dt, [5]), [[4, 2]])
            c("reflect_int64_paddings", x, [[2, 1], [0, 3]], "int64")
            c("zero_paddings", x, [[0, 0], [0, 0]])
            c("reflect_rank3", _r(op, dt, [2, 3, 2]), [[1, 1], [0, 2], [1, 0]])
            c("reflect_too_large_error", x, [[3, 0], [0, 0]], error="INVALID_ARGUMENT",
              phrases=["paddings must be less than the dimension size: 3, 0 not less than 3"])
            c("symmetric_too_large_error", x, [[0, 0], [5, 0]], mode="SYMMETRIC",
              error="INVALID_ARGUMENT",
              phrases=["paddings must be no greater than the dimension size: 5, 0 greater "
                       "than 4"])
            # int64 extremes: checked against the dimension before any sum is formed.
            c("reflect_int64_max_error", x, [[2**63 - 1, 0], [0, 0]], "int64",
              error="INVALID_ARGUMENT",
              phrases=["paddings must be less than the dimension size: 9223372036854775807, 0 "
                       "not less than 3"])
            c("symmetric_int64_max_error", x, [[0, 0], [0, 2**63 - 1]], "int64",
              mode="SYMMETRIC", error="INVALID_ARGUMENT",
              phrases=["paddings must be no greater than the dimension size: 0, "
                       "9223372036854775807 greater than 4"])
            c("int64_min_error", x, [[-2**63, 0], [0, 0]], "int64", error="INVALID_ARGUMENT",
              phrases=["paddings must be non-negative: -9223372036854775808 0"])
            return
        c("matrix", x, [[1, 2], [0, 1]])
        if dt != FULL:
            return
        c("vector", _r(op, dt, [3]), [[2, 0]])
        c("paddings_int64", x, [[0, 1], [3, 0]], "int64")
        c("zero_paddings", x, [[0, 0], [0, 0]])
        c("zero_size_input", _r(op, dt, [0, 3]), [[1, 1], [0, 0]])
        c("scalar", _r(op, dt, []), np.zeros([0, 2], np.int32))
        c("rank3", _r(op, dt, [2, 1, 2]), [[0, 1], [1, 1], [2, 0]])
        c("negative_padding_error", x, [[-1, 0], [0, 0]], error="INVALID_ARGUMENT",
          phrases=["Paddings must be non-negative: -1 0"])
        c("paddings_rank_error", x, [[1, 1]], error="INVALID_ARGUMENT",
          phrases=["The first dimension of paddings must be the rank of inputs"])
        # before + size + after past int64: TensorFlow wraps the sum ("Expected a non-negative
        # size, got -9223372036854775806"); Rill checks it first, so only the code is shared.
        c("int64_max_padding_error", x, [[2**63 - 1, 0], [0, 0]], "int64",
          error="INVALID_ARGUMENT")
        c("int64_sum_overflow_error", x, [[0, 0], [2**62, 2**62]], "int64",
          error="INVALID_ARGUMENT")
        c("int64_min_error", x, [[-2**63, 0], [0, 0]], "int64", error="INVALID_ARGUMENT",
          phrases=["Paddings must be non-negative: -9223372036854775808 0"])

    rec.for_dtypes(op, dtypes, gen)


def fill(rec, dtypes=ALL):
    op = "Fill"

    def gen(dt):
        def c(what, dims, idx="int32", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.Fill(
                dims=const("dims", dims, idx), value=ph("x", rand(dt, [], "%s/%s" % (op, dt)),
                                                       dt), name="out"),
                error=error, phrases=phrases)
        c("matrix", [2, 3])
        if dt != FULL:
            return
        c("scalar", np.zeros([0], np.int32))
        c("dims_int64", [3, 1, 2], "int64")
        c("zero_size", [0, 2])

    rec.for_dtypes(op, dtypes, gen)


def range_op(rec, dtypes=ALL):
    op = "Range"

    def gen(dt):
        def c(what, start, limit, delta, error=None, phrases=()):
            # TF's shape function rejects bad constant operands while building the graph, so the
            # error cases feed them through Placeholders instead.
            # TF's shape function refuses half and bfloat16 constants, so those are fed too.
            node = ph if error or dt in ("half", "bfloat16") else const
            rec.case(op, dt, what, lambda: tf.raw_ops.Range(
                start=node("start", start, dt), limit=node("limit", limit, dt),
                delta=node("delta", delta, dt), name="out"), error=error, phrases=phrases)
        c("basic", 0, 5, 1)
        c("negative_delta", 5, 0, -1)
        c("step3_not_reaching_limit", 3, 10, 3)
        c("empty", 1, 1, 1)
        if dt not in ("uint8",):
            c("negative_start", -3, 3, 2)
        if dt in ("float32", "float64", "half", "bfloat16"):
            c("fractional_delta", 0, 1, 0.3)
            c("fractional_negative_delta", 1, -0.5, -0.25)
        if dt in ("half", "bfloat16"):
            # T(i) * delta and start + ... round in T; the size from T's quotient.
            c("rounded_steps", 0.1, 60, 0.7)
            c("large_start", 1000, 1100, 0.3)
        c("zero_delta_error", 0, 5, 0, error="INVALID_ARGUMENT",
          phrases=["Requires delta != 0"])
        c("wrong_direction_error", 5, 0, 1, error="INVALID_ARGUMENT",
          phrases=["Requires start <= limit when delta > 0: 5/0"])

    rec.for_dtypes(op, dtypes, gen)


def empty(rec, dtypes=ALL):
    """Empty with init=True (TensorFlow's values are otherwise undefined)."""
    op = "Empty"

    def gen(dt):
        def c(what, shape, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.Empty(
                shape=ph("shape", shape, "int32"), dtype=tf.as_dtype(dt), init=True, name="out"),
                error=error, phrases=phrases)
        c("matrix", [2, 3])
        if dt != FULL:
            return
        c("scalar", np.zeros([0], np.int32))
        c("zero_size", [0, 4])
        c("shape_rank_error", [[2, 3]], error="INVALID_ARGUMENT",
          phrases=["shape must be a vector of int32, got shape [1,2]"])

    rec.for_dtypes(op, dtypes, gen)


def concat_offset(rec):
    """ConcatOffset: int32 or int64 shapes (the shape_type attr) fed through placeholders."""
    op = "ConcatOffset"

    def gen(dt):
        def c(what, dim, shapes, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.ConcatOffset(
                concat_dim=ph("concat_dim", dim, "int32"),
                shape=[ph("xyzw"[i], s, dt) for i, s in enumerate(shapes)], name="out"),
                error=error, phrases=phrases, case_dtype=dt)
        c("axis1", 1, [[2, 3, 5], [2, 7, 5], [2, 1, 5]])
        c("axis0_negative", -2, [[4, 3], [1, 3]])
        c("zero_sizes", 0, [[0, 2], [3, 2], [0, 2]])
        c("out_of_range_error", 2, [[2, 3], [2, 3]], error="INVALID_ARGUMENT",
          phrases=["Concat dim is out of range: 2 vs. 2"])
        c("length_error", 0, [[2, 3], [2, 3, 1]], error="INVALID_ARGUMENT",
          phrases=["input 1 should contain 2 elements, but got 3"])
        c("mismatch_error", 0, [[2, 3], [2, 4]], error="INVALID_ARGUMENT",
          phrases=["All dimensions except 0 must match. Input 1 has shape [2 4] and doesn't "
                   "match input 0 with shape [2 3]."])

    rec.for_dtypes(op, ["int32", "int64"], gen)


def lin_space(rec, dtypes=ALL):
    op = "LinSpace"

    def gen(dt):
        def c(what, start, stop, num, idx="int32", error=None, phrases=()):
            # Placeholders: TensorFlow's shape function rejects bad constant operands.
            rec.case(op, dt, what, lambda: tf.raw_ops.LinSpace(
                start=ph("start", start, dt), stop=ph("stop", stop, dt),
                num=ph("num", num, idx), name="out"), error=error, phrases=phrases)
        c("basic", 0, 1, 5)
        c("decreasing_int64_num", 3, -2, 7, "int64")
        c("one", 2.5, 9, 1)
        c("two", -1, 1, 2)
        c("thirds", 0, 1, 4)
        c("large", -3, 7.5, 1000)
        c("zero_num_error", 0, 1, 0, error="INVALID_ARGUMENT", phrases=["Requires num > 0: 0"])
        c("start_shape_error", [0, 1], 1, 3, error="INVALID_ARGUMENT",
          phrases=["start must be a scalar, not shape [2]"])

    rec.for_dtypes(op, dtypes, gen)


def build_all(rec, emit):
    for op in ("Shape", "ShapeN", "Size", "Rank"):
        shape_of(rec, op)
        emit(op)
    for fn, op in [(reshape, "Reshape"), (squeeze, "Squeeze"), (expand_dims, "ExpandDims"),
                   (transpose, "Transpose"), (concat, "ConcatV2"),
                   (lambda rec: concat(rec, op="Concat"), "Concat"), (pack, "Pack"),
                   (unpack, "Unpack"), (split, "Split"), (split_v, "SplitV"),
                   (slice_op, "Slice"), (strided_slice, "StridedSlice"), (tile, "Tile"),
                   (xla_dynamic_update_slice, "XlaDynamicUpdateSlice")]:
        fn(rec)
        emit(op)
    for op in ("Pad", "PadV2", "MirrorPad"):
        pad(rec, op)
        emit(op)
    fill(rec, ALL + ["uint16", "uint32", "uint64", "bfloat16"])
    emit("Fill")
    range_op(rec, ALL + ["bfloat16"])
    emit("Range")
    lin_space(rec)
    emit("LinSpace")
    concat_offset(rec)
    emit("ConcatOffset")
    empty(rec)
    emit("Empty")
