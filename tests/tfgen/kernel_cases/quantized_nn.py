"""The eight-bit layers of fully quantized TF1 graphs (graph_transforms' quantize_nodes):
QuantizedConv2D and QuantizedMatMul (quint8 x quint8 -> qint32, the only pair TensorFlow 2.21's CPU
kernels compute), QuantizedBiasAdd (quint8 and qint8 -> qint32), QuantizedMaxPool and
QuantizedAvgPool (quint8, qint8) and QuantizedConcat (quint8, qint32). Values span each type;
ranges are symmetric, one-sided (zero at the type's end), wholly negative or positive (zero outside
the range: the padding and offset paths), equal and reversed, with TensorFlow's error texts.
TensorFlow aborts the process (a failed CHECK) on a convolution with no output rows, columns or
filters, so those have no case; Rill's kernel gives an empty output there (its unit test)."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import ph, qarr

LIMITS = {"quint8": (0, 255), "qint8": (-128, 127), "qint32": (-2**31, 2**31 - 1)}
RANGES = [("symmetric", -1.0, 1.0), ("relu", 0.0, 6.0), ("skewed", -7.3, 2.1),
          ("negative", -3.0, -1.0), ("positive", 1.0, 3.0), ("equal", 2.0, 2.0),
          ("reversed", 1.0, -1.0)]


def _q(dt, shape, seed, lo=None, hi=None):
    rs = np.random.RandomState(seed)
    qlo, qhi = LIMITS[dt]
    lo = qlo if lo is None else lo
    hi = qhi if hi is None else hi
    return qarr(rs.randint(lo, hi + 1, size=shape, dtype=np.int64), dt)


def _f(v):
    return np.asarray(v, np.float32)


def quantized_conv2d(rec):
    def gen(dt):
        def c(what, x, w, ranges=(-1.0, 1.0, -1.0, 1.0), strides=(1, 1, 1, 1), padding="SAME",
              dilations=(1, 1, 1, 1), error=None, phrases=()):
            mi, ma, fi, fa = ranges
            rec.case("QuantizedConv2D", dt, what, lambda: tf.raw_ops.QuantizedConv2D(
                input=ph("x", x), filter=ph("w", w), min_input=ph("min_x", _f(mi)),
                max_input=ph("max_x", _f(ma)), min_filter=ph("min_w", _f(fi)),
                max_filter=ph("max_w", _f(fa)), strides=list(strides), padding=padding,
                dilations=list(dilations), out_type=tf.qint32, name="out"),
                error=error, phrases=phrases)
        x = _q("quint8", [2, 6, 7, 3], 1)
        w = _q("quint8", [3, 2, 3, 4], 2)
        for pad in ("SAME", "VALID"):
            for s in (1, 2, 3):
                c("%s_stride%d" % (pad.lower(), s), x, w, strides=(1, s, s, 1), padding=pad)
        for what, lo, hi in RANGES:
            c("input_" + what, x, w, (lo, hi, -1.0, 1.0))
            c("filter_" + what, x, w, (-1.0, 1.0, lo, hi))
            c("input_%s_valid_stride2" % what, x, w, (lo, hi, -0.5, 2.0), strides=(1, 2, 2, 1),
              padding="VALID")
        c("both_skewed_same_stride2", x, w, (-7.3, 2.1, -0.4, 1.7), strides=(1, 2, 2, 1))
        c("valid_stride3_offset", _q("quint8", [1, 7, 7, 1], 3), _q("quint8", [2, 2, 1, 1], 4),
          strides=(1, 3, 3, 1), padding="VALID")
        c("same_stride5_late_window", _q("quint8", [1, 10, 10, 2], 13),
          _q("quint8", [2, 2, 2, 3], 14), strides=(1, 5, 5, 1))
        c("valid_stride3_filter4", _q("quint8", [1, 9, 9, 2], 15), _q("quint8", [4, 4, 2, 2], 16),
          strides=(1, 3, 3, 1), padding="VALID")
        c("valid_stride2_even", _q("quint8", [1, 8, 8, 2], 5), _q("quint8", [3, 3, 2, 2], 6),
          strides=(1, 2, 2, 1), padding="VALID")
        c("one_by_one", _q("quint8", [1, 4, 4, 8], 7), _q("quint8", [1, 1, 8, 5], 8),
          (-2.0, 6.0, -0.3, 0.3))
        c("filter_larger_same", _q("quint8", [1, 2, 3, 2], 9), _q("quint8", [4, 5, 2, 3], 10))
        c("extremes", qarr(np.full([1, 3, 3, 4], 255), "quint8"),
          qarr(np.full([3, 3, 4, 2], 255), "quint8"), (-1.0, 1.0, 0.5, 2.0))
        c("deep", _q("quint8", [1, 3, 3, 64], 11), _q("quint8", [3, 3, 64, 3], 12),
          (-4.0, 4.0, -1.0, 1.0))
        c("input_rank_error", x[0], w, error="INVALID_ARGUMENT",
          phrases=["input must be rank 4 but is rank 3"])
        c("filter_rank_error", x, w[0], error="INVALID_ARGUMENT",
          phrases=["filter must be rank 4 but is rank 3"])
        c("min_input_rank_error", x, w, ([-1.0], 1.0, -1.0, 1.0), error="INVALID_ARGUMENT",
          phrases=["min_input must be rank 0 but is rank 1"])
        c("max_input_rank_error", x, w, (-1.0, [[1.0]], -1.0, 1.0), error="INVALID_ARGUMENT",
          phrases=["max_input must be rank 0 but is rank 2"])
        c("min_filter_rank_error", x, w, (-1.0, 1.0, np.zeros([0]), 1.0),
          error="INVALID_ARGUMENT", phrases=["min_filter must be rank 0 but is rank 1"])
        c("max_filter_rank_error", x, w, (-1.0, 1.0, -1.0, [1.0, 2.0]),
          error="INVALID_ARGUMENT", phrases=["max_filter must be rank 0 but is rank 1"])
        c("depth_error", x, w[:, :, :2], error="INVALID_ARGUMENT",
          phrases=["input and filter must have the same depth: 3 vs 2"])
        c("unequal_strides_error", x, w, strides=(1, 1, 2, 1), error="INVALID_ARGUMENT",
          phrases=["Current implementation only supports equal length strides in the row and "
                   "column dimensions."])
        c("batch_stride_error", x, w, strides=(2, 1, 1, 1), error="INVALID_ARGUMENT",
          phrases=["Current implementation does not yet support strides in the batch and depth "
                   "dimensions."])
        c("dilation_error", x, w, dilations=(1, 2, 2, 1), error="INVALID_ARGUMENT",
          phrases=["Current implementation only supports dilated rate as 1 in the row and "
                   "column dimensions."])
        c("depth_dilation_error", x, w, dilations=(1, 1, 1, 2), error="INVALID_ARGUMENT",
          phrases=["Current implementation does not yet support dilations in the batch and "
                   "depth dimensions."])
        c("empty_batch_error", x[:0], w, error="INVALID_ARGUMENT",
          phrases=["Invalid input: Shapes dimension cannot be 0."])
        c("empty_rows_error", x[:, :0], w, error="INVALID_ARGUMENT",
          phrases=["Invalid input: Shapes dimension cannot be 0."])
        c("empty_filter_error", x, w[:0], error="INVALID_ARGUMENT",
          phrases=["filter patch must contain at least one element"])
    rec.for_dtypes("QuantizedConv2D", ["quint8"], gen)


def quantized_matmul(rec):
    def gen(dt):
        def c(what, a, b, ranges=(-1.0, 1.0, -1.0, 1.0), ta=False, tb=False, error=None,
              phrases=()):
            mi, ma, bi, ba = ranges
            rec.case("QuantizedMatMul", dt, what, lambda: tf.raw_ops.QuantizedMatMul(
                a=ph("a", a), b=ph("b", b), min_a=ph("min_a", _f(mi)), max_a=ph("max_a", _f(ma)),
                min_b=ph("min_b", _f(bi)), max_b=ph("max_b", _f(ba)), Toutput=tf.qint32,
                transpose_a=ta, transpose_b=tb, name="out"), error=error, phrases=phrases)
        a = _q("quint8", [5, 7], 21)
        b = _q("quint8", [7, 4], 22)
        for ta in (False, True):
            for tb in (False, True):
                c("transpose_%d%d" % (ta, tb), a.T.copy() if ta else a, b.T.copy() if tb else b,
                  (-2.0, 3.0, -0.5, 0.7), ta, tb)
        for what, lo, hi in RANGES[:5]:
            c("a_" + what, a, b, (lo, hi, -1.0, 1.0))
            c("b_" + what, a, b, (-1.0, 1.0, lo, hi))
        c("large_k", _q("quint8", [3, 700], 23), _q("quint8", [700, 6], 24), (-5.0, 5.0, 0.0, 1.0))
        c("extremes", qarr(np.full([2, 300], 255), "quint8"), qarr(np.full([300, 2], 255), "quint8"),
          (1.0, 3.0, 1.0, 3.0))
        c("vector_product", _q("quint8", [1, 9], 25), _q("quint8", [9, 1], 26))
        # An inner dimension of 0 has no case: TensorFlow leaves the [3, 2] result unwritten
        # (Rill's is zeros).
        c("empty_m", qarr(np.zeros([0, 4]), "quint8"), b[:4])
        c("equal_a_range_error", a, b, (1.0, 1.0, -1.0, 1.0), error="INVALID_ARGUMENT",
          phrases=["max_a must be larger than min_a."])
        c("reversed_b_range_error", a, b, (-1.0, 1.0, 1.0, -1.0), error="INVALID_ARGUMENT",
          phrases=["max_b must be larger than min_b."])
        c("min_a_rank_error", a, b, ([-1.0], 1.0, -1.0, 1.0), error="INVALID_ARGUMENT",
          phrases=["min_a must be a scalar, but got shape[1]"])
        c("max_a_size_error", a, b, (-1.0, [1.0, 2.0], -1.0, 1.0), error="INVALID_ARGUMENT",
          phrases=["max_a must be a scalar, but got shape[2]"])
        c("min_b_size_error", a, b, (-1.0, 1.0, np.zeros([0]), 1.0), error="INVALID_ARGUMENT",
          phrases=["min_b must be a scalar, but got shape[0]"])
        c("max_b_one_element", a, b, (-1.0, 1.0, -1.0, [[1.0]]))
        c("a_not_matrix_error", a[0], b, error="INVALID_ARGUMENT",
          phrases=["In[0] is not a matrix"])
        c("b_not_matrix_error", a, b.reshape([7, 2, 2]), error="INVALID_ARGUMENT",
          phrases=["In[1] is not a matrix"])
        c("size_error", a, b[:6], error="INVALID_ARGUMENT",
          phrases=["Matrix size-incompatible: In[0]: [5,7], In[1]: [6,4]"])
    rec.for_dtypes("QuantizedMatMul", ["quint8"], gen)


def quantized_bias_add(rec):
    def gen(dt):
        def c(what, x, b, ranges=(-1.0, 1.0, -1.0, 1.0), error=None, phrases=()):
            mi, ma, bi, ba = ranges
            rec.case("QuantizedBiasAdd", dt, what, lambda: tf.raw_ops.QuantizedBiasAdd(
                input=ph("x", x), bias=ph("bias", b), min_input=ph("min_x", _f(mi)),
                max_input=ph("max_x", _f(ma)), min_bias=ph("min_b", _f(bi)),
                max_bias=ph("max_b", _f(ba)), out_type=tf.qint32, name="out"),
                error=error, phrases=phrases)
        x = _q(dt, [4, 6], 31)
        b = _q(dt, [6], 32)
        for what, lo, hi in RANGES:
            c("input_" + what, x, b, (lo, hi, -2.0, 2.0))
            c("bias_" + what, x, b, (-2.0, 2.0, lo, hi))
        c("nhwc", _q(dt, [2, 3, 4, 5], 33), _q(dt, [5], 34), (-6.0, 6.0, -20.5, 20.5))
        c("tiny_bias_range", x, b, (0.0, 6.0, -1e-3, 1e-3))
        c("huge_input_range", x, b, (-3e4, 3e4, -0.1, 0.2))
        c("extremes", qarr(np.array([LIMITS[dt]] * 3), dt), qarr(np.array(LIMITS[dt]), dt),
          (-8.0, 8.0, -8.0, 8.0))
        c("input_rank_error", x[0], b, error="INVALID_ARGUMENT",
          phrases=["Input tensor must be at least 2D: [6]"])
        c("bias_rank_error", x, b.reshape([2, 3]), error="INVALID_ARGUMENT",
          phrases=["Biases must be 1D: [2,3]"])
        c("bias_size_error", x, b[:5], error="INVALID_ARGUMENT",
          phrases=["Must provide as many biases as the last dimension of the input tensor: [5] "
                   "vs. [4,6]"])
        c("min_input_rank_error", x, b, ([-1.0], 1.0, -1.0, 1.0), error="INVALID_ARGUMENT",
          phrases=["`min_input` must be rank 0 but is rank 1"])
        c("max_bias_rank_error", x, b, (-1.0, 1.0, -1.0, [1.0, 2.0]), error="INVALID_ARGUMENT",
          phrases=["`max_bias` must be rank 0 but is rank 1"])
    rec.for_dtypes("QuantizedBiasAdd", ["quint8", "qint8"], gen)


def quantized_pool(rec, op):
    def gen(dt):
        def c(what, x, ksize, strides, padding, lo=-1.0, hi=1.0, error=None, phrases=()):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                input=ph("x", x), min_input=ph("min", _f(lo)), max_input=ph("max", _f(hi)),
                ksize=list(ksize), strides=list(strides), padding=padding, name="out"),
                error=error, phrases=phrases)
        x = _q(dt, [2, 7, 6, 3], len(op) + len(dt))
        for pad in ("SAME", "VALID"):
            for k, s in [(2, 2), (3, 2), (3, 1), (1, 1), (3, 3), (4, 3)]:
                c("%s_k%d_s%d" % (pad.lower(), k, s), x, [1, k, k, 1], [1, s, s, 1], pad)
        c("rect_window", x, [1, 2, 3, 1], [1, 1, 2, 1], "SAME", -6.0, 6.0)
        c("whole_image", x, [1, 7, 6, 1], [1, 1, 1, 1], "VALID", 0.0, 6.0)
        c("extremes", qarr(np.array([LIMITS[dt]] * 8).reshape([1, 4, 4, 1]), dt), [1, 3, 3, 1],
          [1, 1, 1, 1], "SAME")
        c("equal_range", x, [1, 2, 2, 1], [1, 2, 2, 1], "SAME", 3.0, 3.0)
        c("rank_error", x[0], [1, 2, 2, 1], [1, 2, 2, 1], "SAME", error="INVALID_ARGUMENT",
          phrases=["tensor_in_shape must have 2 spatial dimensions. 3 0"])
        c("batch_window_error", x, [2, 2, 2, 1], [1, 2, 2, 1], "SAME", error="UNIMPLEMENTED",
          phrases=["Pooling is not yet supported on the batch dimension."])
        c("batch_stride_error", x, [1, 2, 2, 1], [2, 2, 2, 1], "SAME", error="UNIMPLEMENTED",
          phrases=["Pooling is not yet supported on the batch dimension."])
        if op == "QuantizedMaxPool":
            c("depth_window", x, [1, 1, 1, 3], [1, 1, 1, 3], "VALID")
        else:
            c("depth_window_error", x, [1, 1, 1, 3], [1, 1, 1, 3], "VALID",
              error="UNIMPLEMENTED",
              phrases=["Non-spatial pooling is not yet supported. Volunteers? :)"])
        c("min_rank_error", x, [1, 2, 2, 1], [1, 2, 2, 1], "SAME", [-1.0], 1.0,
          error="INVALID_ARGUMENT",
          phrases=["min_input shape must be rank 0 but is rank 1, received shape: [1]"])
        c("max_rank_error", x, [1, 2, 2, 1], [1, 2, 2, 1], "SAME", -1.0, [1.0, 2.0],
          error="INVALID_ARGUMENT",
          phrases=["max_input shape must be rank 0 but is rank 1, received shape: [2]"])
        c("empty_batch", x[:0], [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
    rec.for_dtypes(op, ["quint8", "qint8"], gen)


def quantized_concat(rec):
    def gen(dt):
        def c(what, axis, values, ranges, error=None, phrases=(), axis_value=None):
            def build():
                mins = [ph("min%d" % i, _f(r[0])) for i, r in enumerate(ranges)]
                maxes = [ph("max%d" % i, _f(r[1])) for i, r in enumerate(ranges)]
                return tf.raw_ops.QuantizedConcat(
                    concat_dim=ph("axis", np.asarray(axis, np.int32)),
                    values=[ph("v%d" % i, v) for i, v in enumerate(values)], input_mins=mins,
                    input_maxes=maxes, name="out")
            rec.case("QuantizedConcat", dt, what, build, error=error, phrases=phrases)
        a = _q(dt, [2, 3, 4], 41)
        b = _q(dt, [2, 3, 4], 42)
        d = _q(dt, [2, 5, 4], 43)
        for axis in (0, 1, 2):
            c("same_ranges_axis%d" % axis, axis, [a, b], [(-1.0, 1.0), (-1.0, 1.0)])
        c("different_ranges", 0, [a, b], [(-1.0, 1.0), (-3.0, 2.0)])
        c("one_sided_ranges", 2, [a, b], [(0.0, 6.0), (0.0, 2.5)])
        c("negative_ranges", 1, [a, b], [(-5.0, -1.0), (-2.0, -0.5)])
        c("positive_ranges", 1, [a, b], [(1.0, 5.0), (0.5, 2.0)])
        c("three_inputs", 1, [a, d, b], [(-1.0, 1.0), (-4.0, 0.5), (-0.25, 8.0)])
        c("equal_range_input", 0, [a, b], [(2.0, 2.0), (-1.0, 1.0)])
        c("empty_input", 1, [a, a[:, :0]], [(-1.0, 1.0), (-9.0, 9.0)])
        c("vectors", 0, [a.ravel(), b[0, 0]], [(-1.5, 1.0), (-1.0, 1.5)])
        c("rank_error", 0, [a, b[0]], [(-1.0, 1.0), (-1.0, 1.0)], error="INVALID_ARGUMENT",
          phrases=["ConcatOp : Ranks of all input tensors should match: shape[0] = [2,3,4] vs. "
                   "shape[1] = [3,4]"])
        c("dims_error", 0, [a, d], [(-1.0, 1.0), (-1.0, 1.0)], error="INVALID_ARGUMENT",
          phrases=["ConcatOp : Dimensions of inputs should match: shape[0] = [2,3,4] vs. "
                   "shape[1] = [2,5,4]"])
        c("axis_error", 3, [a, b], [(-1.0, 1.0), (-1.0, 1.0)], error="INVALID_ARGUMENT",
          phrases=["ConcatOp : Expected concatenating dimensions in the range [0, 3), but got 3"])
        c("negative_axis_error", -1, [a, b], [(-1.0, 1.0), (-1.0, 1.0)],
          error="INVALID_ARGUMENT",
          phrases=["ConcatOp : Expected concatenating dimensions in the range [0, 3), but got -1"])
        c("axis_rank_error", [0], [a, b], [(-1.0, 1.0), (-1.0, 1.0)], error="INVALID_ARGUMENT",
          phrases=["Concat dim tensor should be a scalar integer, but got shape [1]"])
        # TensorFlow reads a range's first element whatever its shape.
        c("one_element_range_vector", 0, [a, b], [([-1.5], 1.0), (-1.0, [[2.0]])])
    rec.for_dtypes("QuantizedConcat", ["quint8", "qint32"], gen)


def build_all(rec, emit):
    quantized_conv2d(rec)
    emit("QuantizedConv2D")
    quantized_matmul(rec)
    emit("QuantizedMatMul")
    quantized_bias_add(rec)
    emit("QuantizedBiasAdd")
    for op in ("QuantizedMaxPool", "QuantizedAvgPool"):
        quantized_pool(rec, op)
        emit(op)
    quantized_concat(rec)
    emit("QuantizedConcat")
