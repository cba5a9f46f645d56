"""FakeQuantWithMinMaxArgs, FakeQuantWithMinMaxVars, FakeQuantWithMinMaxVarsPerChannel,
QuantizeAndDequantizeV2 and V4: what quantization-aware-trained models keep in their frozen
graphs."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import arr, ph, rand

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
