"""The kernels of fully quantized graphs (graph_transforms' quantize_nodes) Rill runs:
RequantizationRange and Requantize after every QuantizedConv2D / QuantizedMatMul (a qint32
result, its used range, then 8 bits again; TensorFlow 2.21 registers both for a qint32 input only,
Requantize with quint8 and qint8 outputs), QuantizedReshape, QuantizedRelu and QuantizedRelu6
(quint8 and qint32). Values span each type (its ends, zero, small and large values), ranges
symmetric, one-sided, equal, reversed and tiny, with TensorFlow's error texts."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import QUANTIZED, ph, qarr

RANGES = [("symmetric", -10.0, 10.0), ("relu_range", 0.0, 6.0), ("skewed", -7.3, 2.1),
          ("wide", -1500.25, 300.5), ("tiny", -1e-3, 2e-3), ("equal", 2.0, 2.0)]
OUT_RANGES = [("out_symmetric", -3.0, 5.0), ("out_relu6", 0.0, 6.0), ("out_unit", -1.0, 1.0),
              ("out_small", -0.7, 0.9), ("out_zero", 0.0, 0.0)]


def _values(seed, n=40):
    rs = np.random.RandomState(seed)
    v = np.concatenate([rs.randint(-2**31, 2**31 - 1, size=n, dtype=np.int64),
                        rs.randint(-70000, 70000, size=n // 2),
                        [0, 1, -1, -2**31, 2**31 - 1, 2**30, -2**30]])
    return qarr(v, "qint32")


def requantization_range(rec):
    def gen(dt):
        def c(what, x, lo, hi, error=None, phrases=()):
            rec.case("RequantizationRange", dt, what, lambda: tf.raw_ops.RequantizationRange(
                input=ph("x", x), input_min=ph("min", np.asarray(lo, np.float32)),
                input_max=ph("max", np.asarray(hi, np.float32)), name="out"),
                error=error, phrases=phrases, case_dtype="float32")
        if dt != "qint32":
            c("refused", qarr([0], dt), -1.0, 1.0)
        x = _values(1)
        for what, lo, hi in RANGES:
            c(what, x, lo, hi)
        c("positive_values", qarr([3, 5, 70000], dt), -10.0, 10.0)
        c("negative_values", qarr([-3, -5, -70000], dt), -10.0, 10.0)
        c("empty", qarr(np.zeros([0], np.int64), dt), -10.0, 10.0)
        c("matrix", qarr(np.arange(-6, 6).reshape([3, 4]) * 1000000, dt), -4.0, 8.0)
    rec.for_dtypes("RequantizationRange", QUANTIZED, gen)


def requantize(rec):
    def gen(dt):
        T = getattr(tf, dt)

        def c(what, x, lo, hi, olo, ohi, error=None, phrases=()):
            rec.case("Requantize", dt, what, lambda: tf.raw_ops.Requantize(
                input=ph("x", x), input_min=ph("min", np.asarray(lo, np.float32)),
                input_max=ph("max", np.asarray(hi, np.float32)),
                requested_output_min=ph("omin", np.asarray(olo, np.float32)),
                requested_output_max=ph("omax", np.asarray(ohi, np.float32)), out_type=T,
                name="out"), error=error, phrases=phrases, case_dtype=dt)
        x = _values(2)
        for what, lo, hi in RANGES:
            for owhat, olo, ohi in OUT_RANGES:
                c(what + "_" + owhat, x, lo, hi, olo, ohi)
        c("matrix", qarr(np.arange(-6, 6).reshape([3, 4]) * 100000000, "qint32"), -4.0, 8.0,
          -2.0, 2.0)
        c("empty", qarr(np.zeros([0, 3], np.int64), "qint32"), -1.0, 1.0, -1.0, 1.0)
        c("output_min_positive_error", x, -1.0, 1.0, 1.0, 2.0, error="INVALID_ARGUMENT",
          phrases=["requested_output_min must be <= 0, but got 1"])
        c("output_max_below_min_error", x, -1.0, 1.0, -1.0, -2.0, error="INVALID_ARGUMENT",
          phrases=["requested_output_max must be >= requested_output_min, but got -2 and -1"])
    rec.for_dtypes("Requantize", ["quint8", "qint8"], gen)


def quantized_reshape(rec):
    def gen(dt):
        x = qarr(np.arange(24) % 7 * 9, dt).reshape([2, 3, 4])

        def c(what, value, shape, lo=-1.0, hi=1.0, error=None, phrases=(), tshape=np.int32):
            rec.case("QuantizedReshape", dt, what, lambda: tf.raw_ops.QuantizedReshape(
                tensor=ph("x", value), shape=ph("shape", np.asarray(shape, tshape)),
                input_min=ph("min", np.asarray(lo, np.float32)),
                input_max=ph("max", np.asarray(hi, np.float32)), name="out"),
                error=error, phrases=phrases)
        c("infer_dim", x, [4, -1])
        c("int64_shape", x, [24], tshape=np.int64)
        c("one_element_range", x, [6, 4], [-2.5], [3.5])
        c("count_error", x, [5, 5], error="INVALID_ARGUMENT",
          phrases=["Input to reshape is a tensor with 24 values, but the requested shape has 25"])
        c("range_rank_error", x, [24], [[-1.0]], 1.0, error="INVALID_ARGUMENT",
          phrases=["input_min must be a scalar or a vector of 1 element"])
        c("range_size_error", x, [24], -1.0, [1.0, 2.0], error="INVALID_ARGUMENT",
          phrases=["input_max must be a scalar or a vector of 1 element"])
    rec.for_dtypes("QuantizedReshape", QUANTIZED, gen)


def quantized_relu(rec, op):
    limits = {"quint8": (0, 255), "qint32": (-2**31, 2**31 - 1), "qint8": (-128, 127),
              "qint16": (-2**15, 2**15 - 1), "quint16": (0, 65535)}

    def gen(dt):
        lo_q, hi_q = limits[dt]
        rs = np.random.RandomState(len(op) + len(dt))
        x = qarr(np.concatenate([rs.randint(lo_q, hi_q, size=60, dtype=np.int64),
                                 [lo_q, hi_q, 0]]), dt)

        def c(what, lo, hi, value=x, error=None, phrases=()):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                features=ph("x", value), min_features=ph("min", np.asarray(lo, np.float32)),
                max_features=ph("max", np.asarray(hi, np.float32)), out_type=getattr(tf, dt),
                name="out"), error=error, phrases=phrases)
        for what, lo, hi in [("symmetric", -10.0, 10.0), ("relu6_range", 0.0, 6.0),
                             ("above_six", -1.0, 7.0), ("skewed", -3.3, 12.7),
                             ("small", -0.5, 0.25), ("equal", 2.0, 2.0),
                             ("reversed", 1.0, -1.0)]:
            c(what, lo, hi)
        c("matrix", -2.0, 8.0, x[:60].reshape([6, 10]))
        c("min_rank_error", [-1.0], 1.0, error="INVALID_ARGUMENT",
          phrases=["`min_input` must be rank 0 but is rank 1"])
        c("max_rank_error", -1.0, [1.0, 2.0], error="INVALID_ARGUMENT",
          phrases=["`max_input` must be rank 0 but is rank 1"])
    rec.for_dtypes(op, QUANTIZED, gen)


def build_all(rec, emit):
    requantization_range(rec)
    emit("RequantizationRange")
    requantize(rec)
    emit("Requantize")
    quantized_reshape(rec)
    emit("QuantizedReshape")
    for op in ("QuantizedRelu", "QuantizedRelu6"):
        quantized_relu(rec, op)
        emit(op)
