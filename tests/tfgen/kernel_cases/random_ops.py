"""RandomUniform, RandomStandardNormal, TruncatedNormal, RandomUniformInt with seeds set: Rill must
reproduce TensorFlow's Philox streams bit for bit (tolerance 0), for the seeds TensorFlow's Python
layer writes (graph seed as `seed`, op seed as `seed2`) and for shapes that end in partial groups
of the 4 (float, half) or 2 (double, int64) outputs each Philox block gives."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import ALL, arr, const, ph, rand

FLOATS = ["float32", "float64", "half"]


def _float_op(rec, op):
    def gen(dt):
        def c(what, shape, seed, seed2, tshape="int32"):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                shape=const("shape", shape, tshape), dtype=dt, seed=seed, seed2=seed2,
                name="out"))

        c("seed_1_2", [7], 1, 2)
        c("matrix_partial_groups", [3, 5], 87654321, 11)
        c("graph_seed_only", [2, 2, 3], 42, 0)
        c("op_seed_only", [9], 0, 7)
        c("large_seeds_int64_shape", [4, 4], 2 ** 40 + 3, 2 ** 33 + 5, tshape="int64")
        c("zero_size", [0, 3], 5, 6)
        c("scalar", [], 9, 9)
        if dt == "float32":
            c("many_1000", [1000], 1234, 5678)

    rec.for_dtypes(op, FLOATS, gen)


def _uniform_int(rec):
    def gen(dt):
        def c(what, shape, lo, hi, seed, seed2, error=None, phrases=()):
            rec.case("RandomUniformInt", dt, what, lambda: tf.raw_ops.RandomUniformInt(
                shape=const("shape", shape), minval=const("minval", lo, dt),
                maxval=const("maxval", hi, dt), seed=seed, seed2=seed2, name="out"),
                error=error, phrases=phrases)

        c("dice", [11], 1, 7, 1, 2)
        c("negative_range", [3, 3], -50, 50, 3, 4)
        c("wide_range", [6], -2 ** 31 + 1 if dt == "int32" else -2 ** 62,
          2 ** 31 - 1 if dt == "int32" else 2 ** 62, 5, 6)
        c("zero_size", [0], 0, 5, 1, 1)
        c("empty_range_error", [2], 5, 5, 1, 1, error="INVALID_ARGUMENT",
          phrases=["Need minval < maxval, got 5 >= 5"])

    rec.for_dtypes("RandomUniformInt", ["int32", "int64"], gen)


def _random_shuffle(rec):
    def gen(dt):
        def c(what, x, seed, seed2):
            rec.case("RandomShuffle", dt, what, lambda: tf.raw_ops.RandomShuffle(
                value=ph("x", x, dt), seed=seed, seed2=seed2, name="out"))

        base = "RandomShuffle/" + dt
        c("vector", rand(dt, [10], base + "/v"), 1, 2)
        c("rows", rand(dt, [7, 3], base + "/r"), 5, 0)
        c("single_row", rand(dt, [1, 4], base + "/s"), 5, 6)

    rec.for_dtypes("RandomShuffle", ALL, gen)


def _multinomial(rec):
    def gen(dt):
        def c(what, logits, n, seed, seed2, out="int64", error=None, phrases=()):
            rec.case("Multinomial", dt, what, lambda: tf.raw_ops.Multinomial(
                logits=ph("x", logits, dt), num_samples=const("num_samples", n), seed=seed,
                seed2=seed2, output_dtype=out, name="out"), error=error, phrases=phrases)

        base = "Multinomial/" + dt
        c("two_rows", rand(dt, [2, 5], base + "/a", "small"), 10, 1, 2)
        c("int32_output", rand(dt, [3, 4], base + "/b", "small"), 7, 3, 4, out="int32")
        c("with_neg_inf", arr([[0, -np.inf, 1, 0.5]], dt), 12, 5, 6)
        c("vector_error", rand(dt, [4], base + "/c"), 3, 1, 1, error="INVALID_ARGUMENT",
          phrases=["logits should be a matrix"])

    rec.for_dtypes("Multinomial", FLOATS, gen)


def build_all(rec, emit):
    _random_shuffle(rec)
    emit("RandomShuffle")
    _multinomial(rec)
    emit("Multinomial")
    for op in ("RandomUniform", "RandomStandardNormal", "TruncatedNormal"):
        _float_op(rec, op)
        emit(op)
    _uniform_int(rec)
    emit("RandomUniformInt")
