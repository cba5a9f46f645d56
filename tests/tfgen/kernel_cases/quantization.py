"""FakeQuantWithMinMaxArgs, FakeQuantWithMinMaxVars, FakeQuantWithMinMaxVarsPerChannel,
QuantizeAndDequantizeV2 and V4: what quantization-aware-trained models keep in their frozen
graphs; their gradient ops (FakeQuantWithMinMax*Gradient, QuantizeAndDequantizeV4Grad), what
quantization-aware training graphs hold; and QuantizeV2 / Dequantize over the quantized dtypes
(qint8, quint8, qint16, quint16, qint32), what TF1 quantize_weights graphs hold."""
import numpy as np
import tensorflow as tf

from kernel_cases import core
from kernel_cases.core import QUANTIZED, arr, ph, qarr, rand, tol

# Values that land on both sides of the range, on rounding ties and on the range's ends;
# -0.21568634 in [-1, 1] is quantized differently by the Args and the Vars kernels.
EDGES = [-7.0, -6.0, -1.0, -0.5, -0.21568634, -0.03, 0.0, 0.01, 0.02, 0.49, 0.5, 1.0, 5.99, 6.0,
         6.1, 300.0]


def fake_quant_args(rec):
    op = "FakeQuantWithMinMaxArgs"

    def gen(dt):
        def c(what, x, error=None, phrases=(), **attrs):
            rec.case(op, dt, what, lambda: tf.raw_ops.FakeQuantWithMinMaxArgs(
                inputs=ph("x", x, dt), name="out", **attrs), error=error, phrases=phrases,
                case_dtype="")
        c("defaults", arr(EDGES, dt))
        c("symmetric", arr(EDGES, dt), min=-1.0, max=1.0)
        c("narrow_range", arr(EDGES, dt), min=-1.0, max=1.0, narrow_range=True)
        c("nudged_zero_point", arr(EDGES, dt), min=-0.1, max=6.3)
        c("positive_range", arr(EDGES, dt), min=0.5, max=2.0)
        c("negative_range", arr(EDGES, dt), min=-3.0, max=-0.2)
        c("four_bits", arr(EDGES, dt), min=-2.0, max=2.0, num_bits=4)
        c("sixteen_bits", rand(dt, [4, 50], "fq_args/16"), min=-5.0, max=5.0, num_bits=16)
        c("large", rand(dt, [8, 64, 3], "fq_args/large"), min=-4.0, max=4.0)
        c("zero_size", arr(np.zeros([0, 3]), dt))
        c("min_not_below_max_error", arr([1.0], dt), min=1.0, max=1.0, error="INVALID_ARGUMENT",
          phrases=["min has to be smaller than max"])
        c("num_bits_error", arr([1.0], dt), num_bits=1, error="INVALID_ARGUMENT",
          phrases=["num_bits must be between 2 and 16, inclusive"])
        c("num_bits_17_error", arr([1.0], dt), num_bits=17, error="INVALID_ARGUMENT",
          phrases=["num_bits must be between 2 and 16, inclusive"])

    rec.for_dtypes(op, ["float32"], gen)


def fake_quant_vars(rec):
    op = "FakeQuantWithMinMaxVars"

    def gen(dt):
        def c(what, x, lo, hi, error=None, phrases=(), **attrs):
            rec.case(op, dt, what, lambda: tf.raw_ops.FakeQuantWithMinMaxVars(
                inputs=ph("x", x, dt), min=ph("min", lo, dt), max=ph("max", hi, dt), name="out",
                **attrs), error=error, phrases=phrases, case_dtype="")
        c("relu6_range", arr(EDGES, dt), 0.0, 6.0)
        c("symmetric", arr(EDGES, dt), -1.0, 1.0)
        c("narrow_range", arr(EDGES, dt), -1.0, 1.0, narrow_range=True)
        c("nudged_zero_point", arr(EDGES, dt), -0.1, 6.3)
        c("positive_range", arr(EDGES, dt), 0.5, 2.0)
        c("both_zero", arr(EDGES, dt), 0.0, 0.0)
        c("four_bits", arr(EDGES, dt), -2.0, 2.0, num_bits=4)
        c("large", rand(dt, [8, 64, 3], "fq_vars/large"), -4.0, 4.0)
        c("zero_size", arr(np.zeros([0, 3]), dt), -1.0, 1.0)
        c("min_not_scalar_error", arr([1.0], dt), [-1.0], 1.0, error="INVALID_ARGUMENT",
          phrases=["must be rank 0"])
        c("num_bits_error", arr([1.0], dt), -1.0, 1.0, num_bits=17, error="INVALID_ARGUMENT",
          phrases=["num_bits must be between 2 and 16, inclusive"])

    rec.for_dtypes(op, ["float32"], gen)


def fake_quant_vars_per_channel(rec):
    op = "FakeQuantWithMinMaxVarsPerChannel"

    def gen(dt):
        def c(what, x, lo, hi, error=None, phrases=(), **attrs):
            rec.case(op, dt, what, lambda: tf.raw_ops.FakeQuantWithMinMaxVarsPerChannel(
                inputs=ph("x", x, dt), min=ph("min", lo, dt), max=ph("max", hi, dt), name="out",
                **attrs), error=error, phrases=phrases, case_dtype="")
        x = arr(np.array(EDGES[:15]).reshape(5, 3), dt)
        lo, hi = [-1.0, -1.0, -0.1], [1.0, 1.0, 6.3]
        c("matrix", x, lo, hi)
        c("narrow_range", x, lo, hi, narrow_range=True)
        c("with_zero_channel", x, [0.0, 0.5, -3.0], [0.0, 2.0, -0.2])
        c("vector", arr([-0.5, 0.3, 7.0], dt), lo, hi, num_bits=5)
        c("conv_weights", rand(dt, [3, 3, 4, 8], "fq_pc/conv", "small"),
          list(-0.5 - np.arange(8) * 0.05), list(0.5 + np.arange(8) * 0.05))
        c("zero_size", arr(np.zeros([0, 3]), dt), lo, hi)
        c("min_size_error", x, [0.0, 1.0], [1.0, 2.0, 3.0], error="INVALID_ARGUMENT",
          phrases=["min has incorrect size"])
        c("max_size_error", x, lo, [1.0, 2.0], error="INVALID_ARGUMENT",
          phrases=["max has incorrect size"])
        c("num_bits_error", x, lo, hi, num_bits=1, error="INVALID_ARGUMENT",
          phrases=["num_bits must be between 2 and 16, inclusive"])

    rec.for_dtypes(op, ["float32"], gen)


def quantize_and_dequantize(rec, op):
    """QuantizeAndDequantizeV2 / V4 (the same forward kernel in TensorFlow)."""
    fn = getattr(tf.raw_ops, op)

    def gen(dt):
        def c(what, x, lo, hi, error=None, phrases=(), **attrs):
            rec.case(op, dt, what, lambda: fn(
                input=ph("x", x, dt), input_min=ph("min", lo, dt), input_max=ph("max", hi, dt),
                name="out", **attrs), error=error, phrases=phrases)
        x = arr([-3.0, -1.0, -0.5, -0.3, -0.01, 0.0, 0.004, 0.25, 0.5, 0.7, 1.0, 2.5], dt)
        c("from_data", x, 0.0, 0.0)
        c("range_given", x, -1.0, 1.0, range_given=True)
        c("range_given_asymmetric", x, -0.5, 2.0, range_given=True)
        c("narrow_range", x, -1.0, 1.0, range_given=True, narrow_range=True)
        c("half_up", x, -1.0, 1.0, range_given=True, round_mode="HALF_UP")
        c("unsigned", arr([0.0, 0.1, 0.2, 0.5, 0.9, 1.0, 3.0], dt), 0.0, 1.0, range_given=True,
          signed_input=False)
        c("four_bits", x, 0.0, 0.0, num_bits=4)
        c("ties", arr(np.arange(-8, 9) / 16.0, dt), -1.0, 1.0, range_given=True, num_bits=5)
        c("per_axis", arr(np.arange(24).reshape(2, 3, 4) / 7.0 - 1.5, dt), [0.0] * 3, [0.0] * 3,
          axis=1)
        c("large", rand(dt, [6, 50], "%s/%s/large" % (op, dt)), 0.0, 0.0)
        c("all_zero", arr(np.zeros([3]), dt), 0.0, 0.0)
        if dt == "float32":
            c("invalid_range_error", x, 1.0, -1.0, range_given=True, error="INVALID_ARGUMENT",
              phrases=["Invalid range: input_min 1 > input_max -1"])
            c("num_bits_error", x, -1.0, 1.0, num_bits=0, error="INVALID_ARGUMENT",
              phrases=["num_bits is out of range"])
            c("axis_error", x, [0.0], [0.0], axis=2, error="INVALID_ARGUMENT")

    rec.for_dtypes(op, ["float32", "float64"], gen)


def special_gradients(dt):
    """Gradients for EDGES with a NaN and infinities where EDGES lie outside [-6, 6]."""
    g = np.linspace(-2.0, 2.0, len(EDGES))
    g[0], g[-1], g[-2] = np.nan, np.inf, -np.inf
    return arr(g, dt)


def fake_quant_args_gradient(rec):
    op = "FakeQuantWithMinMaxArgsGradient"

    def gen(dt):
        def c(what, g, x, error=None, phrases=(), **attrs):
            rec.case(op, dt, what, lambda: tf.raw_ops.FakeQuantWithMinMaxArgsGradient(
                gradients=ph("g", g, dt), inputs=ph("x", x, dt), name="out", **attrs),
                error=error, phrases=phrases, case_dtype="")
        x = arr(EDGES, dt)
        g = rand(dt, [len(EDGES)], "fq_args_grad/g")
        c("defaults", g, x)
        c("symmetric", g, x, min=-1.0, max=1.0)
        c("narrow_range", g, x, min=-1.0, max=1.0, narrow_range=True)
        c("nudged_zero_point", g, x, min=-0.1, max=6.3)
        c("positive_range", g, x, min=0.5, max=2.0)
        c("four_bits", g, x, min=-2.0, max=2.0, num_bits=4)
        c("nan_and_inf", special_gradients(dt), arr(EDGES[:-1] + [np.nan], dt))
        c("sixteen_bits", rand(dt, [4, 50], "fq_args_grad/16g"),
          rand(dt, [4, 50], "fq_args_grad/16x"), min=-1.0, max=1.0, num_bits=16)
        c("large", rand(dt, [8, 64, 3], "fq_args_grad/large_g"),
          rand(dt, [8, 64, 3], "fq_args_grad/large_x") * 3, min=-4.0, max=4.0)
        c("scalar", arr(2.5, dt), arr(0.5, dt))
        c("zero_size", arr(np.zeros([0, 3]), dt), arr(np.zeros([0, 3]), dt))
        c("shape_mismatch_error", arr([1.0, 2.0], dt), arr([1.0, 2.0, 3.0], dt),
          error="INVALID_ARGUMENT", phrases=["must have the same size and shape",
                                             "Input 0: [2] != input 1: [3]"])
        c("min_not_below_max_error", arr([1.0], dt), arr([1.0], dt), min=2.0, max=1.0,
          error="INVALID_ARGUMENT", phrases=["min has to be smaller than max, was: 2 >= 1"])
        c("num_bits_error", arr([1.0], dt), arr([1.0], dt), num_bits=17,
          error="INVALID_ARGUMENT", phrases=["num_bits must be between 2 and 16, inclusive"])

    rec.for_dtypes(op, ["float32"], gen)


def fake_quant_vars_gradient(rec):
    op = "FakeQuantWithMinMaxVarsGradient"

    def gen(dt):
        rt, at = tol("reduce", dt)

        def c(what, g, x, lo, hi, error=None, phrases=(), **attrs):
            rec.case(op, dt, what, lambda: tf.raw_ops.FakeQuantWithMinMaxVarsGradient(
                gradients=ph("g", g, dt), inputs=ph("x", x, dt), min=ph("min", lo, dt),
                max=ph("max", hi, dt), name="out", **attrs), rtol=0.0 if error else rt,
                atol=0.0 if error else at, error=error, phrases=phrases, case_dtype="")
        x = arr(EDGES, dt)
        g = rand(dt, [len(EDGES)], "fq_vars_grad/g")
        c("relu6_range", g, x, 0.0, 6.0)
        c("symmetric", g, x, -1.0, 1.0)
        c("narrow_range", g, x, -1.0, 1.0, narrow_range=True)
        c("nudged_zero_point", g, x, -0.1, 6.3)
        c("positive_range", g, x, 0.5, 2.0)
        c("negative_range", g, x, -3.0, -0.2)
        c("both_zero", g, x, 0.0, 0.0)
        c("min_above_max", g, x, 2.0, 1.0)
        c("four_bits", g, x, -2.0, 2.0, num_bits=4)
        c("nan_and_inf", special_gradients(dt), arr(EDGES[:-1] + [np.nan], dt), -1.0, 1.0)
        c("large", rand(dt, [8, 64, 3], "fq_vars_grad/large_g"),
          rand(dt, [8, 64, 3], "fq_vars_grad/large_x") * 3, -4.0, 4.0)
        c("zero_size", arr(np.zeros([0, 3]), dt), arr(np.zeros([0, 3]), dt), -1.0, 1.0)
        c("size_error", arr([1.0, 2.0], dt), arr([1.0, 2.0, 3.0], dt), -1.0, 1.0,
          error="INVALID_ARGUMENT", phrases=["gradient and input must be the same size"])
        c("min_not_scalar_error", arr([1.0], dt), arr([1.0], dt), [-1.0], 1.0,
          error="INVALID_ARGUMENT", phrases=["`min` must be rank 0 but is rank 1"])
        c("max_not_scalar_error", arr([1.0], dt), arr([1.0], dt), -1.0, [[1.0]],
          error="INVALID_ARGUMENT", phrases=["`max` must be rank 0 but is rank 2"])
        c("num_bits_error", arr([1.0], dt), arr([1.0], dt), -1.0, 1.0, num_bits=1,
          error="INVALID_ARGUMENT", phrases=["num_bits must be between 2 and 16, inclusive"])

    rec.for_dtypes(op, ["float32"], gen)


def fake_quant_vars_per_channel_gradient(rec):
    op = "FakeQuantWithMinMaxVarsPerChannelGradient"

    def gen(dt):
        rt, at = tol("reduce", dt)

        def c(what, g, x, lo, hi, error=None, phrases=(), **attrs):
            rec.case(op, dt, what, lambda: tf.raw_ops.FakeQuantWithMinMaxVarsPerChannelGradient(
                gradients=ph("g", g, dt), inputs=ph("x", x, dt), min=ph("min", lo, dt),
                max=ph("max", hi, dt), name="out", **attrs), rtol=0.0 if error else rt,
                atol=0.0 if error else at, error=error, phrases=phrases, case_dtype="")
        x = arr(np.array(EDGES[:15]).reshape(5, 3), dt)
        g = rand(dt, [5, 3], "fq_pc_grad/g")
        lo, hi = [-1.0, -1.0, -0.1], [1.0, 1.0, 6.3]
        c("matrix", g, x, lo, hi)
        c("narrow_range", g, x, lo, hi, narrow_range=True)
        c("with_zero_channel", g, x, [0.0, 0.5, -3.0], [0.0, 2.0, -0.2])
        c("four_bits", g, x, lo, hi, num_bits=4)
        c("vector", arr([2.0, -1.5, 0.25], dt), arr([-0.5, 0.3, 7.0], dt), lo, hi, num_bits=5)
        c("conv_weights", rand(dt, [3, 3, 4, 8], "fq_pc_grad/conv_g"),
          rand(dt, [3, 3, 4, 8], "fq_pc_grad/conv_x"),
          list(-0.5 - np.arange(8) * 0.05), list(0.5 + np.arange(8) * 0.05))
        c("rank5", rand(dt, [2, 1, 3, 2, 3], "fq_pc_grad/r5g"),
          rand(dt, [2, 1, 3, 2, 3], "fq_pc_grad/r5x"), lo, hi)
        c("nan_and_inf", special_gradients(dt)[:15].reshape(5, 3),
          arr(np.array(EDGES[:14] + [np.nan]).reshape(5, 3), dt), lo, hi)
        c("zero_size", arr(np.zeros([0, 3]), dt), arr(np.zeros([0, 3]), dt), lo, hi)
        c("size_error", g, arr(np.zeros([3, 5]), dt), lo, hi, error="INVALID_ARGUMENT",
          phrases=["gradient and input must be the same size"])
        c("min_rank_error", g, x, 0.0, hi, error="INVALID_ARGUMENT",
          phrases=["`min` must be rank 1 but is rank 0"])
        c("max_rank_error", g, x, lo, [hi], error="INVALID_ARGUMENT",
          phrases=["`max` must be rank 1 but is rank 2"])
        c("min_size_error", g, x, [0.0, 1.0], hi, error="INVALID_ARGUMENT",
          phrases=["min has incorrect size, expected 3 was 2"])
        c("max_size_error", g, x, lo, [1.0, 2.0, 3.0, 4.0], error="INVALID_ARGUMENT",
          phrases=["max has incorrect size, expected 3 was 4"])
        c("num_bits_error", g, x, lo, hi, num_bits=1, error="INVALID_ARGUMENT",
          phrases=["num_bits must be between 2 and 16, inclusive"])

    rec.for_dtypes(op, ["float32"], gen)


def quantize_and_dequantize_v4_grad(rec):
    op = "QuantizeAndDequantizeV4Grad"

    def gen(dt):
        def c(what, g, x, lo, hi, error=None, phrases=(), **attrs):
            rec.case(op, dt, what, lambda: tf.raw_ops.QuantizeAndDequantizeV4Grad(
                gradients=ph("g", g, dt), input=ph("x", x, dt), input_min=ph("min", lo, dt),
                input_max=ph("max", hi, dt), name="out", **attrs), error=error, phrases=phrases)
        x = arr([-3.0, -1.0, -0.5, -0.3, -0.01, 0.0, 0.004, 0.25, 0.5, 0.7, 1.0, 2.5], dt)
        g = rand(dt, [12], "qdq4g/%s/g" % dt)
        c("symmetric", g, x, -1.0, 1.0)
        c("asymmetric", g, x, -0.5, 2.0)
        c("empty_range", g, x, 1.0, -1.0)
        c("point_range", g, x, 0.25, 0.25)
        g_special = g.copy()
        g_special[0], g_special[-1], g_special[5] = np.nan, np.inf, -np.inf
        c("nan_and_inf", g_special, arr(list(x[:-1]) + [np.nan], dt), -1.0, 1.0)
        x3 = arr(np.arange(24).reshape(2, 3, 4) / 7.0 - 1.5, dt)
        g3 = rand(dt, [2, 3, 4], "qdq4g/%s/g3" % dt)
        c("axis0", g3, x3, [-1.0, 0.0], [0.5, 2.0], axis=0)
        c("axis1", g3, x3, [-1.0, -0.5, 0.0], [0.0, 0.5, 1.0], axis=1)
        c("axis2", g3, x3, [-1.5, -1.0, -0.5, 0.0], [0.0, 0.5, 1.0, 1.5], axis=2)
        c("large", rand(dt, [6, 50], "qdq4g/%s/large_g" % dt),
          rand(dt, [6, 50], "qdq4g/%s/large_x" % dt), -0.8, 1.1)
        c("scalar", arr(1.5, dt), arr(0.5, dt), 0.0, 1.0)
        c("zero_size", arr(np.zeros([0, 3]), dt), arr(np.zeros([0, 3]), dt), -1.0, 1.0)
        if dt == "float32":
            c("axis_error", g, x, [0.0], [1.0], axis=1, error="INVALID_ARGUMENT",
              phrases=["Axis should be -1 or 0 or a positive value less than 1",
                       "given axis value was 1"])
            c("size_error", g, arr([1.0, 2.0], dt), -1.0, 1.0, error="INVALID_ARGUMENT",
              phrases=["gradient and input must be the same size"])
            c("min_rank2_error", g, x, [[0.0]], 1.0, error="INVALID_ARGUMENT",
              phrases=["Input min tensor must have dimension 0 or 1. Received 2."])
            c("max_rank2_error", g, x, 0.0, [[1.0]], error="INVALID_ARGUMENT",
              phrases=["Input max tensor must have dimension 0 or 1. Received 2."])
            c("min_not_scalar_error", g, x, [0.0], 1.0, error="INVALID_ARGUMENT",
              phrases=["input_min must be a scalar if axis is unspecified"])
            c("max_not_scalar_error", g, x, 0.0, [1.0], error="INVALID_ARGUMENT",
              phrases=["input_max must be a scalar if axis is unspecified"])
            c("min_scalar_with_axis_error", g3, x3, 0.0, [1.0] * 3, axis=1,
              error="INVALID_ARGUMENT",
              phrases=["Shape must be rank 1 for input_min_tensor when the axis is specified"])
            c("max_scalar_with_axis_error", g3, x3, [0.0] * 3, 1.0, axis=1,
              error="INVALID_ARGUMENT",
              phrases=["Shape must be rank 1 for input_max_tensor when the axis is specified"])
            c("min_size_error", g3, x3, [0.0] * 2, [1.0] * 3, axis=1, error="INVALID_ARGUMENT",
              phrases=["min has incorrect size, expected 3 was 2"])
            c("max_size_error", g3, x3, [0.0] * 3, [1.0] * 4, axis=1, error="INVALID_ARGUMENT",
              phrases=["max has incorrect size, expected 3 was 4"])

    rec.for_dtypes(op, ["float32", "float64", "half"], gen)


def quantize_and_dequantize_v3(rec):
    """QuantizeAndDequantizeV3: V2's kernel with num_bits an int32 input (range_given defaults to
    true; always half to even)."""
    op = "QuantizeAndDequantizeV3"

    def gen(dt):
        def c(what, x, lo, hi, bits=8, error=None, phrases=(), **attrs):
            rec.case(op, dt, what, lambda: tf.raw_ops.QuantizeAndDequantizeV3(
                input=ph("x", x, dt), input_min=ph("min", lo, dt), input_max=ph("max", hi, dt),
                num_bits=ph("num_bits", bits, "int32"), name="out", **attrs),
                error=error, phrases=phrases)
        x = arr([-3.0, -1.0, -0.5, -0.3, -0.01, 0.0, 0.004, 0.25, 0.5, 0.7, 1.0, 2.5], dt)
        c("range_given", x, -1.0, 1.0)
        c("from_data", x, 0.0, 0.0, range_given=False)
        c("narrow_four_bits", x, -1.0, 2.0, bits=4, narrow_range=True)
        c("unsigned", arr([0.0, 0.1, 0.2, 0.5, 0.9, 1.0, 3.0], dt), 0.0, 1.0, signed_input=False)
        c("ties", arr(np.arange(-8, 9) / 16.0, dt), -1.0, 1.0, bits=5)
        c("per_axis", arr(np.arange(24).reshape(2, 3, 4) / 7.0 - 1.5, dt), [0.0] * 3, [0.0] * 3,
          axis=1, range_given=False)
        if dt == "float32":
            c("num_bits_error", x, -1.0, 1.0, bits=0, error="INVALID_ARGUMENT",
              phrases=["num_bits is out of range: 0 with `signed_input_` 1"])
            c("invalid_range_error", x, 1.0, -1.0, error="INVALID_ARGUMENT",
              phrases=["Invalid range: input_min 1 > input_max -1"])

    rec.for_dtypes(op, ["float32", "float64"], gen)


# Ranges: symmetric, ReLU6-like, lopsided, one that QuantizeV2 widens to include 0, a tiny one
# that ensure_minimum_range widens, and one below zero.
Q_RANGES = [("symmetric", -1.0, 1.0), ("relu6", 0.0, 6.0), ("lopsided", -3.7, 2.3),
            ("positive", 0.1, 0.2), ("tiny", -0.001, 0.0005), ("negative", -5.0, -1.0)]
Q_LIMITS = {"qint8": (-128, 127), "quint8": (0, 255), "qint16": (-32768, 32767),
            "quint16": (0, 65535), "qint32": (-2 ** 31, 2 ** 31 - 1)}


def shaped_ph(name, value):
    """A Placeholder of the value's static shape (Dequantize's shape function refuses an axis
    on an input of unknown rank)."""
    t = tf.compat.v1.placeholder(tf.as_dtype(value.dtype), shape=value.shape, name=name)
    core._feeds.append((t.name, value))
    return t


def q_input(what, lo, hi):
    """48 seeded floats over 1.5x the range and 17 points across it (rounding ties)."""
    span = max(abs(lo), abs(hi), 1.0)
    x = rand("float32", [48], "quantize/" + what) * np.float32(0.15 * span)
    return np.concatenate([x, np.linspace(lo, hi, 17)]).astype(np.float32)


def quantize_v2(rec):
    op = "QuantizeV2"

    def gen(dt):
        T = getattr(tf, dt)

        def c(what, x, lo, hi, error=None, phrases=(), shaped=False, **attrs):
            make = shaped_ph if shaped else ph
            rec.case(op, dt, what, lambda: tf.raw_ops.QuantizeV2(
                input=make("x", x), min_range=make("min", np.float32(lo) if np.ndim(lo) == 0
                                                   else np.asarray(lo, np.float32)),
                max_range=make("max", np.float32(hi) if np.ndim(hi) == 0
                               else np.asarray(hi, np.float32)),
                T=T, name="out", **attrs), error=error, phrases=phrases)
        for what, lo, hi in Q_RANGES:
            x = q_input(what, lo, hi)
            c("min_combined_" + what, x, lo, hi)
            c("min_first_" + what, x, lo, hi, mode="MIN_FIRST")
            c("scaled_" + what, x, lo, hi, mode="SCALED")
            c("scaled_narrow_even_" + what, x, lo, hi, mode="SCALED", narrow_range=True,
              round_mode="HALF_TO_EVEN")
        x = q_input("nonfinite", -1.0, 1.0)
        x[:3] = [np.nan, np.inf, -np.inf]
        for mode in ("MIN_COMBINED", "MIN_FIRST", "SCALED"):
            c("nonfinite_" + mode.lower(), x, -1.0, 1.0, mode=mode)
            c("zero_range_" + mode.lower(), x, 0.0, 0.0, mode=mode, ensure_minimum_range=0.0)
        c("ensure_minimum_range_large", x, -0.5, 0.5, ensure_minimum_range=3.0)
        c("scalar", np.float32(0.3), -1.0, 1.0)
        c("zero_size", np.zeros([0, 3], np.float32), -1.0, 1.0)
        m = q_input("per_channel", -2.0, 3.0)[:60].reshape(4, 5, 3)
        lo3, hi3 = [-1.0, 0.0, -3.0], [1.0, 6.0, 0.5]
        c("axis_last_min_combined", m, lo3, hi3, axis=2, shaped=True)
        c("axis_last_scaled", m, lo3, hi3, axis=2, mode="SCALED", shaped=True)
        c("axis_middle_scaled_narrow", m, [-1.0, -2.0, 0.0, -0.5, -4.0],
          [1.0, 0.5, 2.0, 0.25, 4.0], axis=1, mode="SCALED", narrow_range=True, shaped=True)
        c("axis_first_min_combined", m, [-1.0, -2.0, 0.0, -0.5], [1.0, 0.5, 2.0, 0.25], axis=0,
          shaped=True)
        x = np.array([0.5, -0.5], np.float32)
        c("min_not_scalar_error", x, [0.0, 1.0], 1.0, error="INVALID_ARGUMENT",
          phrases=["If axis is not specified, min_range must contain a single float element, "
                   "but it contains 2 elements"])
        c("max_below_min_error", x, 2.0, 1.0, error="INVALID_ARGUMENT",
          phrases=["input_max_range must be larger than input_min_range."])
        c("half_to_even_min_combined_error", x, -1.0, 1.0, round_mode="HALF_TO_EVEN",
          error="INVALID_ARGUMENT",
          phrases=["Round mode 'HALF_TO_EVEN' only supported for mode 'SCALED', but mode is "
                   "'MIN_COMBINED'."])
        c("axis_min_first_unimplemented", m, lo3, hi3, axis=2, mode="MIN_FIRST", shaped=True,
          error="UNIMPLEMENTED",
          phrases=["MIN_FIRST mode is not implemented for Quantize with axis != -1."])
        c("axis_range_size_error", m, [0.0, 1.0], [1.0, 2.0], axis=2, error="INVALID_ARGUMENT",
          phrases=["min_range is a 1-D tensor of size 2 and input's axis dimension is of size 3"])
        c("axis_range_rank_error", m, [[0.0, 1.0, 2.0]], [1.0, 2.0, 3.0], axis=2,
          error="INVALID_ARGUMENT", phrases=["but min_range dims are 2"])
        c("axis_past_rank_error", x, [0.0], [1.0], axis=3, error="INVALID_ARGUMENT",
          phrases=["given axis value was 3 and input's dims was 1"])

    rec.for_dtypes(op, QUANTIZED, gen)


def dequantize(rec):
    op = "Dequantize"

    def gen(dt):
        T = getattr(tf, dt)
        lo_q, hi_q = Q_LIMITS[dt]
        rs = np.random.RandomState(sum(map(ord, dt)))
        q = np.concatenate([rs.randint(lo_q, hi_q, size=45, dtype=np.int64), [lo_q, hi_q, 0]])
        qv = qarr(q, dt)

        def c(what, x, lo, hi, error=None, phrases=(), out=None, shaped=False, **attrs):
            make = shaped_ph if shaped else ph
            if out is not None:
                attrs["dtype"] = tf.bfloat16
            rec.case(op, dt, what, lambda: tf.raw_ops.Dequantize(
                input=make("x", x), min_range=make("min", np.float32(lo) if np.ndim(lo) == 0
                                                   else np.asarray(lo, np.float32)),
                max_range=make("max", np.float32(hi) if np.ndim(hi) == 0
                               else np.asarray(hi, np.float32)),
                name="out", **attrs), error=error, phrases=phrases,
                case_dtype=out or "float32")
        for what, lo, hi in Q_RANGES + [("zero", 0.0, 0.0), ("equal", 2.0, 2.0),
                                        ("reversed", 2.0, 1.0)]:
            c("min_combined_" + what, qv, lo, hi)
            c("min_first_" + what, qv, lo, hi, mode="MIN_FIRST")
            c("scaled_" + what, qv, lo, hi, mode="SCALED")
            c("scaled_narrow_" + what, qv, lo, hi, mode="SCALED", narrow_range=True)
        c("bfloat16_min_combined", qv, -3.7, 2.3, out="bfloat16")
        c("bfloat16_scaled_error", qv, -1.0, 1.0, out="bfloat16", mode="SCALED",
          error="INVALID_ARGUMENT",
          phrases=["When output type is bfloat16, Mode string must be 'MIN_COMBINED', is "
                   "'SCALED'"])
        c("scalar", qarr(q[0], dt), -1.0, 1.0)
        c("zero_size", qarr(np.zeros([0, 2], np.int64), dt), -1.0, 1.0)
        m = qarr(q[:45].reshape(3, 5, 3), dt)
        c("axis_last_min_combined", m, [-1.0, 0.0, -3.0], [1.0, 6.0, 0.5], axis=2, shaped=True)
        c("axis_last_scaled", m, [-1.0, 0.0, -3.0], [1.0, 6.0, 0.5], axis=2, mode="SCALED",
          shaped=True)
        c("axis_middle_scaled_narrow", m, [-1.0, -2.0, 0.0, -0.5, -4.0],
          [1.0, 0.5, 2.0, 0.25, 4.0], axis=1, mode="SCALED", narrow_range=True, shaped=True)
        c("axis_first_bfloat16", m, [-1.0, -2.0, 0.0], [1.0, 0.5, 2.0], axis=0, shaped=True,
          out="bfloat16")
        c("axis_min_first_unimplemented", m, [-1.0, 0.0, -3.0], [1.0, 6.0, 0.5], axis=2,
          mode="MIN_FIRST", shaped=True, error="UNIMPLEMENTED",
          phrases=["MIN_FIRST mode is not implemented for Dequantize with axis != -1."])
        c("min_size_error", qv, [0.0, 1.0], 1.0, error="INVALID_ARGUMENT",
          phrases=["input_min_tensor must have as many elements as input on the dequantization "
                   "axis (-1), got 2, expected 1"])
        c("max_size_error", qv, 0.0, [1.0, 2.0], error="INVALID_ARGUMENT",
          phrases=["input_max_tensor must have as many elements as input on the dequantization "
                   "axis (-1), got 2, expected 1"])
        c("axis_min_size_error", m, [0.0, 1.0], [1.0, 2.0, 3.0], axis=2, shaped=True,
          error="INVALID_ARGUMENT",
          phrases=["input_min_tensor must have as many elements as input on the dequantization "
                   "axis (2), got 2, expected 3"])

    rec.for_dtypes(op, QUANTIZED, gen)


def build_all(rec, emit):
    fake_quant_args(rec)
    emit("FakeQuantWithMinMaxArgs")
    fake_quant_vars(rec)
    emit("FakeQuantWithMinMaxVars")
    fake_quant_vars_per_channel(rec)
    emit("FakeQuantWithMinMaxVarsPerChannel")
    for op in ("QuantizeAndDequantizeV2", "QuantizeAndDequantizeV4"):
        quantize_and_dequantize(rec, op)
        emit(op)
    quantize_and_dequantize_v3(rec)
    emit("QuantizeAndDequantizeV3")
    fake_quant_args_gradient(rec)
    emit("FakeQuantWithMinMaxArgsGradient")
    fake_quant_vars_gradient(rec)
    emit("FakeQuantWithMinMaxVarsGradient")
    fake_quant_vars_per_channel_gradient(rec)
    emit("FakeQuantWithMinMaxVarsPerChannelGradient")
    quantize_and_dequantize_v4_grad(rec)
    emit("QuantizeAndDequantizeV4Grad")
    quantize_v2(rec)
    emit("QuantizeV2")
    dequantize(rec)
    emit("Dequantize")
