"""The stateless random ops, bit for bit (tolerance 0): V1 (StatelessRandomUniform, ...Normal,
StatelessTruncatedNormal, StatelessRandomUniformInt) take a seed pair, int32 or int64; V2 (...V2)
take a uint64 key [1], counter [>= 2] and alg (1 Philox, 3 auto-select; 2 ThreeFry has no CPU
kernel: "Unsupported algorithm id: 2" for a non-empty output); StatelessRandomGetKeyCounter(Alg)
and StatelessRandomGetAlg give what Keras 3 passes to the V2 ops. Shapes end in partial groups of
the 4 (float, half, int32) or 2 (double, int64) outputs of a Philox block."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import NP, const, ph

tf1 = tf.compat.v1
FLOATS = ["float32", "float64", "half"]
INT_TYPES = ["int32", "int64"]
V1_FLOAT = ("StatelessRandomUniform", "StatelessRandomNormal", "StatelessTruncatedNormal")
V2_FLOAT = ("StatelessRandomUniformV2", "StatelessRandomNormalV2", "StatelessTruncatedNormalV2")
BIG = 2 ** 40 + 3


def u64(name, values):
    return ph(name, np.asarray(values, dtype=np.uint64))


def shape_of(values, tshape, error):
    """The shape input: a Const (so shape inference sees it), a Placeholder in error cases (so
    TensorFlow's shape function leaves the check to the kernel)."""
    return (ph if error else const)("shape", values, tshape)


def _v1_float(rec, op):
    def gen(dt):
        def c(what, shape, seed, tseed="int64", tshape="int32", error=None, phrases=()):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                shape=shape_of(shape, tshape, error), seed=ph("seed", seed, tseed), dtype=dt,
                name="out"), error=error, phrases=phrases)

        c("seed_1_2", [7], [1, 2])
        c("int32_seed_negative", [3, 5], [-1, 2], tseed="int32")
        c("large_seeds_int64_shape", [4, 4], [BIG, -5], tshape="int64")
        c("zero_size", [0, 3], [5, 6])
        c("scalar", [], [9, 9])
        if dt == "float32":
            c("many_1000", [1000], [1234, 5678])
        c("seed_shape_error", [2], [1, 2, 3], error="INVALID_ARGUMENT",
          phrases=["seed must have shape [2], not [3]"])
        c("shape_matrix_error", [[2]], [1, 2], error="INVALID_ARGUMENT",
          phrases=["shape must be a vector of {int32,int64}, got shape [1,1]"])
        c("negative_dim_error", [-1], [1, 2], error="INVALID_ARGUMENT",
          phrases=["Dimension -1 must be >= 0"])

    rec.for_dtypes(op, FLOATS, gen)


def _v1_int(rec):
    op = "StatelessRandomUniformInt"

    def gen(dt):
        def c(what, shape, lo, hi, seed, tseed="int64", error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.StatelessRandomUniformInt(
                shape=shape_of(shape, "int32", error), seed=ph("seed", seed, tseed),
                minval=ph("minval", lo, dt), maxval=ph("maxval", hi, dt), name="out"),
                error=error, phrases=phrases)

        c("dice", [11], 1, 7, [1, 2])
        c("negative_range_int32_seed", [3, 3], -50, 50, [3, -4], tseed="int32")
        c("wide_range", [6], -2 ** 31 + 1 if dt == "int32" else -2 ** 62,
          2 ** 31 - 1 if dt == "int32" else 2 ** 62, [5, 6])
        c("zero_size_skips_bound_checks", [0], [1], 1, [1, 1])
        c("empty_range_error", [2], 5, 5, [1, 1], error="INVALID_ARGUMENT",
          phrases=["Need minval < maxval, got 5 >= 5"])
        c("minval_not_scalar_error", [2], [1], 5, [1, 1], error="INVALID_ARGUMENT",
          phrases=["minval must be 0-D, got shape [1]"])

    rec.for_dtypes(op, INT_TYPES, gen)


def _v2_errors(c):
    """The key/counter/alg error cases every V2 op shares; c(what, shape, key, counter, alg, ...)."""
    c("threefry_empty_ok", [0], [1], [1, 2], 2)
    c("threefry_error", [2], [1], [1, 2], 2, error="INVALID_ARGUMENT",
      phrases=["Unsupported algorithm id: 2"])
    c("alg_0_error", [2], [1], [1, 2], 0, error="INVALID_ARGUMENT",
      phrases=["Unsupported algorithm id: 0"])
    c("alg_vector_error", [2], [1], [1, 2], [1], error="INVALID_ARGUMENT",
      phrases=["input 3 (0-based) must have shape [], not [1]"])
    c("key_shape_error", [2], [1, 2], [1, 2], 1, error="INVALID_ARGUMENT",
      phrases=["key must have shape [1], not [2]. (Note that batched keys are not supported yet.)"])
    # TensorFlow's minimum counter length is the algorithm's id: 2 for ThreeFry, 1 for Philox.
    c("threefry_counter_shape_error", [2], [1], [1], 2, error="INVALID_ARGUMENT",
      phrases=["counter must be a vector with length at least 2; got shape: [1]. (Note that "
               "batched counters are not supported yet.)"])
    c("empty_counter_error", [2], [1], [], 1, error="INVALID_ARGUMENT",
      phrases=["counter must be a vector with length at least 1; got shape: [0]."])
    c("key_checked_before_shape_error", [[2]], [1, 2], [1, 2], 1, error="INVALID_ARGUMENT",
      phrases=["key must have shape [1], not [2]."])
    c("shape_matrix_error", [[2]], [1], [1, 2], 1, error="INVALID_ARGUMENT",
      phrases=["shape must be a vector of {int32,int64}, got shape [1,1]"])
    c("negative_dim_error", [-1], [1], [1, 2], 1, error="INVALID_ARGUMENT",
      phrases=["Dimension -1 must be >= 0"])


def _v2_float(rec, op):
    def gen(dt):
        def c(what, shape, key, counter, alg, tshape="int32", error=None, phrases=()):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                shape=shape_of(shape, tshape, error), key=u64("key", key),
                counter=u64("counter", counter), alg=ph("alg", alg, "int32"), dtype=dt, name="out"),
                error=error, phrases=phrases)

        c("philox", [7], [1], [1, 2], 1)
        c("auto_select_matrix", [3, 5], [2 ** 63 + 7], [2 ** 64 - 1, 2 ** 40], 3)
        c("long_counter_int64_shape", [2, 3], [5], [0, 9, 77], 1, tshape="int64")
        c("scalar", [], [9], [0, 0], 1)
        if dt == "float32":
            c("many_1000", [1000], [1234], [5678, 1], 1)
        _v2_errors(c)

    rec.for_dtypes(op, FLOATS, gen)


def _v2_int(rec):
    op = "StatelessRandomUniformIntV2"

    def gen(dt):
        def c(what, shape, key, counter, alg, lo=1, hi=7, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.StatelessRandomUniformIntV2(
                shape=shape_of(shape, "int32", error), key=u64("key", key),
                counter=u64("counter", counter), alg=ph("alg", alg, "int32"),
                minval=ph("minval", lo, dt), maxval=ph("maxval", hi, dt), name="out"), error=error, phrases=phrases)

        c("dice", [11], [1], [1, 2], 1)
        c("negative_range_auto_select", [3, 3], [2 ** 63 + 7], [3, 4], 3, lo=-50, hi=50)
        c("wide_range", [6], [5], [6, 0], 1, lo=-2 ** 31 + 1 if dt == "int32" else -2 ** 62,
          hi=2 ** 31 - 1 if dt == "int32" else 2 ** 62)
        c("zero_size_skips_bound_checks", [0], [1], [1, 2], 1, lo=[1], hi=1)
        c("empty_range_error", [2], [1], [1, 2], 1, lo=5, hi=5, error="INVALID_ARGUMENT",
          phrases=["Need minval < maxval, got 5 >= 5"])
        c("threefry_empty_range_error", [2], [1], [1, 2], 2, lo=5, hi=5,
          error="INVALID_ARGUMENT", phrases=["Need minval < maxval, got 5 >= 5"])
        c("minval_not_scalar_error", [2], [1], [1, 2], 1, lo=[1], hi=5, error="INVALID_ARGUMENT",
          phrases=["minval must be 0-D, got shape [1]"])
        _v2_errors(c)

    rec.for_dtypes(op, INT_TYPES, gen)


def _key_counter(rec, op):
    def gen(dt):
        def c(what, seed, error=None, phrases=()):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                seed=ph("seed", seed, dt), name="out"), error=error, phrases=phrases)

        c("seed_1_2", [1, 2])
        c("negative_seed", [-1, 7])
        if dt == "int64":
            c("large_seed", [BIG, -BIG])
        c("seed_shape_error", [1, 2, 3], error="INVALID_ARGUMENT",
          phrases=["seed must have shape [2], not [3]"])

    rec.for_dtypes(op, INT_TYPES, gen)


def _get_alg(rec):
    rec.for_dtypes("StatelessRandomGetAlg", ["int32"], lambda dt: rec.case(
        "StatelessRandomGetAlg", dt, "philox_on_cpu",
        lambda: tf.raw_ops.StatelessRandomGetAlg(name="out")))


def _multinomial(rec):
    """StatelessMultinomial: Multinomial's sampling (a double per sample, rows one after another)
    from the seed's generator."""
    def gen(dt):
        def c(what, logits, n, seed, tseed="int64", out="int64", error=None, phrases=()):
            rec.case("StatelessMultinomial", dt, what, lambda: tf.raw_ops.StatelessMultinomial(
                logits=ph("x", logits, dt), num_samples=const("num_samples", n),
                seed=ph("seed", seed, tseed), output_dtype=out, name="out"),
                error=error, phrases=phrases)

        rng = np.random.RandomState(7)
        c("two_rows", rng.uniform(-2, 2, [2, 5]), 10, [1, 2])
        c("int32_output_int32_seed", rng.uniform(-2, 2, [3, 4]), 7, [-3, 4], tseed="int32",
          out="int32")
        c("with_neg_inf", [[0, -np.inf, 1, 0.5]], 12, [BIG, 6])
        c("one_class", [[0.5], [3]], 5, [5, 6])
        c("no_samples", [[0.5, 1]], 0, [5, 6])
        c("seed_shape_error", [[0.5, 1]], 3, [1, 2, 3], error="INVALID_ARGUMENT",
          phrases=["seed must have shape [2], not [3]"])
        c("logits_rank_error", [0.5, 1], 3, [1, 2], error="INVALID_ARGUMENT",
          phrases=["logits should be a matrix, got shape [2]"])

    rec.for_dtypes("StatelessMultinomial", FLOATS, gen)


def _shuffle(rec):
    """StatelessShuffle: RandomShuffle's Fisher-Yates from the V2 generator, any dtype."""
    def gen(dt):
        def c(what, shape, key, counter, alg, error=None, phrases=()):
            n = int(np.prod(shape))
            x = (np.arange(n) % 120).reshape(shape)
            if dt == "bool":
                x = x % 2 == 0
            rec.case("StatelessShuffle", dt, what, lambda: tf.raw_ops.StatelessShuffle(
                value=ph("x", np.asarray(x).astype(dt)), key=u64("key", key),
                counter=u64("counter", counter), alg=ph("alg", alg, "int32"), name="out"),
                error=error, phrases=phrases)

        c("vector", [10], [1], [1, 2], 1)
        c("rows", [7, 3], [BIG], [5, 0], 3)
        c("single_row", [1, 4], [2], [3, 4], 1)
        c("scalar", [], [2], [3, 4], 1)
        if dt == "float32":
            c("long", [300], [9], [8, 7], 1)
            for what, key, counter, alg, phrase in [
                    ("threefry_error", [1], [1, 2], 2, "Unsupported algorithm id: 2"),
                    ("alg_0_error", [1], [1, 2], 0, "Unsupported algorithm id: 0"),
                    ("alg_vector_error", [1], [1, 2], [1],
                     "input 3 (0-based) must have shape [], not [1]"),
                    ("key_shape_error", [1, 2], [1, 2], 1,
                     "key must have shape [1], not [2]. (Note that batched keys are not "
                     "supported yet.)"),
                    ("empty_counter_error", [1], [], 1,
                     "counter must be a vector with length at least 1; got shape: [0].")]:
                c(what, [4], key, counter, alg, error="INVALID_ARGUMENT", phrases=[phrase])

    rec.for_dtypes("StatelessShuffle", ["float32", "float64", "half", "int32", "int64", "uint8",
                                        "int8", "int16", "bool"], gen)


def _poisson(rec):
    """StatelessRandomPoisson: Knuth's method below rate 10, Hormann's rejection from 10, one
    stream per output; lam broadcast over the shape's leading dims; every dtype, rates of each
    type."""
    def gen(dt):
        def c(what, shape, lam, seed, rtype="float32", tseed="int64", error=None, phrases=()):
            rec.case("StatelessRandomPoisson", dt, what,
                     lambda: tf.raw_ops.StatelessRandomPoisson(
                         shape=shape_of(shape, "int32", error), seed=ph("seed", seed, tseed),
                         lam=ph("lam", np.asarray(lam).astype(rtype)), dtype=dt, name="out"),
                     error=error, phrases=phrases)

        c("small_rates", [6, 3], [0.5, 3.0, 9.5], [1, 2])
        c("large_rates", [5, 2], [10.0, 250.5], [3, 4], rtype="float64")
        c("scalar_rate", [3, 4], 4.0, [-5, 6], tseed="int32")
        c("zero_and_negative", [4, 2], [0.0, -3.0], [7, 8])
        c("int_rates", [2, 3], [1, 12, 30], [9, 10], rtype="int32")
        c("int64_half_rates", [2, 2], [2, 15], [11, 12], rtype="int64")
        c("half_rates", [3, 2], [1.5, 40], [13, 14], rtype="float16")
        c("zero_size", [0, 2], [1.0, 2.0], [1, 2])
        c("shape_suffix_error", [3, 2], [1.0, 2.0, 3.0], [1, 2], error="INVALID_ARGUMENT",
          phrases=["Shape passed in must end with broadcasted shape."])
        c("seed_shape_error", [2], [1.0, 2.0], [1, 2, 3], error="INVALID_ARGUMENT",
          phrases=["seed must have shape [2], not [3]"])

    rec.for_dtypes("StatelessRandomPoisson", ["float32", "float64", "half", "int32", "int64"], gen)


def _binomial(rec):
    """StatelessRandomBinomial: binomial inversion where count * p < 10, BTRS from 10 (p the
    smaller of prob and 1 - prob), one stream per output; counts and probs broadcast against each
    other and over the shape's leading dims; the degenerate probabilities and counts; every output
    dtype and every counts / probs dtype."""
    def gen(dt):
        def c(what, shape, counts, probs, seed, t="float64", tseed="int64", error=None,
              phrases=()):
            rec.case("StatelessRandomBinomial", dt, what,
                     lambda: tf.raw_ops.StatelessRandomBinomial(
                         shape=shape_of(shape, "int32", error), seed=ph("seed", seed, tseed),
                         counts=ph("counts", np.asarray(counts).astype(t)),
                         probs=ph("probs", np.asarray(probs).astype(t)), dtype=dt, name="out"),
                     error=error, phrases=phrases)

        c("inversion", [6, 4], [5.0, 9.0, 20.0, 3.0], [0.3, 0.5, 0.2, 0.05], [1, 2])
        c("btrs", [5, 3], [40.0, 1000.0, 250.0], [0.4, 0.25, 0.5], [3, 4])
        c("above_half", [4, 4], [10.0, 50.0, 300.0, 7.0], [0.7, 0.95, 0.6, 0.9], [5, 6])
        c("broadcast_counts_probs", [3, 2, 3], [[12.0], [30.0]], [0.1, 0.5, 0.8], [7, 8],
          tseed="int32")
        c("degenerate", [2, 6], [0.0, -3.0, 10.0, 10.0, 10.0, 4.0],
          [0.5, 0.5, 0.0, 1.0, 1.5, np.nan] if dt in ("float32", "float64", "half") else
          [0.5, 0.5, 0.0, 1.0, 1.5, 0.25], [9, 10])
        c("float32_params", [3, 2], [25.0, 6.0], [0.45, 0.35], [11, 12], t="float32")
        c("half_params", [3, 2], [25.0, 60.0], [0.45, 0.15], [13, 14], t="float16")
        c("scalar_params", [4], 17.0, 0.6, [15, 16])
        c("zero_size", [0, 2], [1.0, 2.0], 0.5, [1, 2])
        c("shape_suffix_error", [3, 2], [1.0, 2.0, 3.0], 0.5, [1, 2], error="INVALID_ARGUMENT",
          phrases=["Shape passed in must end with broadcasted shape."])
        c("batch_error", [3], [1.0, 2.0], [0.5, 0.2, 0.1], [1, 2], error="INVALID_ARGUMENT",
          phrases=["counts and probs must have compatible batch dimensions: [2] vs. [3]"])
        c("seed_shape_error", [2], [1.0, 2.0], 0.5, [1, 2, 3], error="INVALID_ARGUMENT",
          phrases=["seed must have shape [2], not [3]"])

    rec.for_dtypes("StatelessRandomBinomial", ["float32", "float64", "half", "int32", "int64"],
                   gen)


def _param_truncated_normal(rec):
    """StatelessParameterizedTruncatedNormal (half, float and double):
    each of TensorFlow's three samplers (normal rejection, uniform rejection on a narrow interval,
    exponential rejection from a far bound), mirrored bounds, one-sided infinite bounds, the four
    parameters broadcast, small outputs (TensorFlow draws them in one piece), its error texts."""
    def gen(dt):
        def c(what, shape, mean, std, lo, hi, seed, tseed="int64", error=None, phrases=()):
            def p(name, v):
                return ph(name, np.asarray(v).astype(NP[dt]))
            rec.case("StatelessParameterizedTruncatedNormal", dt, what,
                     lambda: tf.raw_ops.StatelessParameterizedTruncatedNormal(
                         shape=shape_of(shape, "int32", error), seed=ph("seed", seed, tseed),
                         means=p("means", mean), stddevs=p("stddevs", std),
                         minvals=p("minvals", lo), maxvals=p("maxvals", hi), name="out"),
                     error=error, phrases=phrases)
        inf = np.inf
        c("normal_rejection", [5, 3], [0.0, 1.0, -2.0], [1.0, 2.0, 0.5], [-2.0, -5.0, -4.0],
          [2.0, 3.0, 0.0], [1, 2])
        c("uniform_rejection", [6, 2], [0.0, 3.0], [1.0, 1.0], [0.2, 3.1], [0.5, 3.3], [3, 4])
        c("exponential_rejection", [4, 2], [0.0, 0.0], [1.0, 2.0], [2.5, 7.0], [inf, 20.0], [5, 6])
        c("mirrored_bounds", [4, 2], [0.0, 5.0], [1.0, 1.0], [-inf, 0.0], [-2.5, 1.0], [7, 8],
          tseed="int32")
        c("broadcast_params", [2, 2, 3], [[0.0], [10.0]], 2.0, [-1.0, 0.0, 1.0], 12.0, [9, 10])
        c("scalar_params", [7], 1.5, 0.25, 1.0, 3.0, [11, 12])
        c("zero_size", [0, 2], 0.0, 1.0, [-1.0, 0.0], 1.0, [1, 2])
        c("invalid_stddev_error", [3], 0.0, -1.0, -1.0, 1.0, [1, 2], error="INVALID_ARGUMENT",
          phrases=["Invalid parameters"])
        c("invalid_bounds_error", [3], 0.0, 1.0, 2.0, 1.0, [1, 2], error="INVALID_ARGUMENT",
          phrases=["Invalid parameters"])
        c("shape_suffix_error", [3, 2], [1.0, 2.0, 3.0], 1.0, -1.0, 1.0, [1, 2],
          error="INVALID_ARGUMENT", phrases=["Shape passed in must end with broadcasted shape."])
        c("seed_shape_error", [2], 0.0, 1.0, -1.0, 1.0, [1, 2, 3], error="INVALID_ARGUMENT",
          phrases=["seed must have shape [2], not [3]"])

    rec.for_dtypes("StatelessParameterizedTruncatedNormal", ["float32", "float64", "half"], gen)


def _gamma(rec):
    """StatelessRandomGammaV2: -log1p(-u) at alpha 1, Marsaglia and Tsang's rejection elsewhere
    (boosted below 1), one stream per output; alpha broadcast over the shape's leading dims."""
    def gen(dt):
        def c(what, shape, alpha, seed, tseed="int64", error=None, phrases=()):
            rec.case("StatelessRandomGammaV2", dt, what,
                     lambda: tf.raw_ops.StatelessRandomGammaV2(
                         shape=shape_of(shape, "int32", error), seed=ph("seed", seed, tseed),
                         alpha=ph("alpha", np.asarray(alpha).astype(NP[dt])), name="out"),
                     error=error, phrases=phrases)

        c("alphas", [6, 4], [0.25, 1.0, 2.5, 40.0], [1, 2])
        c("scalar_alpha", [3, 5], 0.7, [-5, 6], tseed="int32")
        c("one", [8], 1.0, [7, 8])
        c("tiny_and_large", [4, 2], [1e-3, 1e4], [9, 10])
        c("zero_size", [0, 2], [1.0, 2.0], [1, 2])
        c("shape_suffix_error", [3, 2], [1.0, 2.0, 3.0], [1, 2], error="INVALID_ARGUMENT",
          phrases=["Shape passed in must end with broadcasted shape."])
        c("seed_shape_error", [2], [1.0, 2.0], [1, 2, 3], error="INVALID_ARGUMENT",
          phrases=["seed must have shape [2], not [3]"])

    rec.for_dtypes("StatelessRandomGammaV2", ["float32", "float64", "half"], gen)


def _gamma_v3(rec):
    """StatelessRandomGammaV3: V2's sampler on a key, counter and algorithm."""
    def gen(dt):
        def c(what, shape, key, counter, alg, alpha, error=None, phrases=()):
            rec.case("StatelessRandomGammaV3", dt, what,
                     lambda: tf.raw_ops.StatelessRandomGammaV3(
                         shape=shape_of(shape, "int32", error), key=u64("key", key),
                         counter=u64("counter", counter), alg=ph("alg", alg, "int32"),
                         alpha=ph("alpha", np.asarray(alpha).astype(NP[dt])), name="out"),
                     error=error, phrases=phrases)

        c("philox", [5, 3], [1], [1, 2], 1, [0.3, 1.0, 7.5])
        c("auto_select", [4], [2 ** 63 + 7], [2 ** 64 - 1, 2 ** 40], 3, 2.0)
        c("zero_size", [0, 2], [5], [0, 9], 1, [1.0, 2.0])
        c("bad_alg_error", [2], [1], [1, 2], 2, 1.0, error="INVALID_ARGUMENT")
        c("key_shape_error", [2], [1, 2], [1, 2], 1, 1.0, error="INVALID_ARGUMENT",
          phrases=["key must have shape [1], not [2]"])

    rec.for_dtypes("StatelessRandomGammaV3", ["float32", "float64", "half"], gen)


def build_all(rec, emit):
    for op in V1_FLOAT:
        _v1_float(rec, op)
        emit(op)
    _v1_int(rec)
    emit("StatelessRandomUniformInt")
    for op in V2_FLOAT:
        _v2_float(rec, op)
        emit(op)
    _v2_int(rec)
    emit("StatelessRandomUniformIntV2")
    for op in ("StatelessRandomGetKeyCounter", "StatelessRandomGetKeyCounterAlg"):
        _key_counter(rec, op)
        emit(op)
    _get_alg(rec)
    emit("StatelessRandomGetAlg")
    _multinomial(rec)
    emit("StatelessMultinomial")
    _shuffle(rec)
    emit("StatelessShuffle")
    _poisson(rec)
    emit("StatelessRandomPoisson")
    _gamma(rec)
    emit("StatelessRandomGammaV2")
    _gamma_v3(rec)
    emit("StatelessRandomGammaV3")
    _binomial(rec)
    emit("StatelessRandomBinomial")
    _param_truncated_normal(rec)
    emit("StatelessParameterizedTruncatedNormal")
