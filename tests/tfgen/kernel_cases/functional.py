"""Functional control flow and calls, as TensorFlow 2 writes them in graphs (control flow v2):
tf.cond -> If / StatelessIf, tf.switch_case -> StatelessCase / Case, tf.while_loop -> While / StatelessWhile, a tf.function called in a
graph -> StatefulPartitionedCall / PartitionedCall, with the bodies in the GraphDef's function
library. Rill lowers them (graph/function_lowering.h); ToBool is the predicate it inserts.

Suites:
  If               tf.cond: both branches, several outputs, int predicates, nested conds, a
                   branch that would fail if it ran
  StatelessCase    tf.switch_case: every branch, an index out of range (TensorFlow takes the last
                   branch), a default, several outputs, empty and NaN inputs, a branch without
                   inputs, a case in a cond, a non-scalar index (_SwitchN's error)
  Case             tf.switch_case with stateful branches (an assert): the failing branch taken
                   or not
  While            tf.while_loop: counters, zero trips, parallel_iterations, nested loops,
                   a loop inside a cond, a cond inside a loop, a body calling a tf.function,
                   an error raised in the body
  PartitionedCall  tf.function calls: plain, nested, with several outputs
  ToBool           the truth of a tensor on every dtype
"""
import numpy as np
import tensorflow as tf

from kernel_cases.core import ALL, arr, ph, rand, tf1


def to_bool(rec):
    def gen(dt):
        def c(what, value):
            scalar_half = dt == "half" and np.ndim(value) == 0
            rec.case("ToBool", dt, what,
                     lambda: tf.raw_ops.ToBool(input=ph("x", value), name="out"),
                     error="INVALID_ARGUMENT" if scalar_half else None,
                     phrases=["half cannot be converted to a boolean"] if scalar_half else [])

        if dt == "string":
            c("scalar_empty", np.array(b"", dtype=object))
            c("scalar_text", np.array(b"a", dtype=object))
            c("vector", np.array([b""], dtype=object))
            return
        c("scalar_zero", arr(0, dt))
        c("scalar_one", arr(1, dt))
        c("empty", np.zeros([0, 2], dtype=arr(0, dt).dtype))
        c("vector_of_zeros", np.zeros([3], dtype=arr(0, dt).dtype))
        if dt in ("float32", "float64", "half"):
            c("scalar_negative_zero", arr(-0.0, dt))
            c("scalar_nan", arr(np.nan, dt))

    rec.for_dtypes("ToBool", ALL + ["string"], gen)


def if_cases(rec):
    def gen(dt):
        x = rand(dt, [2, 2], "If/x")
        y = rand(dt, [2, 2], "If/y")

        def ph_x():
            return _cached("x", x)

        def ph_y():
            return _cached("y", y)

        def c(what, build, **kw):
            _cache.clear()
            rec.case("If", dt, what, build, **kw)

        # Placeholders are made before tf.cond: one made inside a branch would belong to the
        # branch's function and could not be fed.
        def two_outputs(taken):
            def build():
                a, b, p = ph_x(), ph_y(), ph("p", np.array(taken))
                return tf.cond(p, lambda: (a * 2.0, tf.reduce_sum(b)),
                               lambda: (a - b, tf.reduce_max(b)), name="out")
            return build
        for taken in (True, False):
            c("two_outputs_" + str(taken).lower(), two_outputs(taken), rtol=1e-6)

        def int_predicate(n):
            def build():
                a, b, k = ph_x(), ph_y(), ph("n", np.int32(n))
                return tf.cond(tf.cast(k, tf.bool), lambda: tf.identity(a),
                               lambda: tf.identity(b), name="out")
            return build
        c("int_predicate_3", int_predicate(3))
        c("int_predicate_0", int_predicate(0))

        def nested(p, q):
            def build():
                a, outer, inner = ph_x(), ph("p", np.array(p)), ph("q", np.array(q))
                return tf.cond(outer,
                               lambda: tf.cond(inner, lambda: a * 2.0, lambda: a * 3.0),
                               lambda: tf.cond(inner, lambda: a + 5.0, lambda: -a), name="out")
            return build
        for p in (True, False):
            for q in (True, False):
                c("nested_%s_%s" % (str(p).lower(), str(q).lower()), nested(p, q))

        def guarded(taken):
            def build():
                a = ph_x()

                def checked():
                    check = tf.debugging.assert_positive(a - 100.0, message="branch ran")
                    with tf.control_dependencies([check]):
                        return tf.identity(a)
                return tf.cond(ph("p", np.array(taken)), checked, lambda: a * 0.5, name="out")
            return build
        c("guarded_false", guarded(False))
        c("guarded_true", guarded(True), error="INVALID_ARGUMENT", phrases=["branch ran"])


    rec.for_dtypes("If", ["float32"], gen)


def case_cases(rec):
    """tf.switch_case writes StatelessCase, or Case when a branch is stateful."""
    def stateless(dt):
        x = rand(dt, [2, 3], "StatelessCase/x")

        def c(what, build, **kw):
            _cache.clear()
            rec.case("StatelessCase", dt, what, build, **kw)

        def three(index, default=False):
            def build():
                a, i = _cached("x", x), ph("i", np.int32(index))
                branches = [lambda: a * 2.0, lambda: tf.tanh(a) + 1.0, lambda: -a]
                if default:
                    return tf.switch_case(i, branches[:2], default=branches[2], name="out")
                return tf.switch_case(i, branches, name="out")
            return build
        for index in (0, 1, 2):
            c("branch_%d" % index, three(index), rtol=1e-6)
        # TensorFlow runs the last branch for an index outside [0, branches).
        for index, tag in ((3, "3"), (-1, "minus_1"), (7, "7"), (-2147483648, "int32_min")):
            c("out_of_range_" + tag, three(index))
        c("default_taken", three(5, default=True))
        c("default_not_taken", three(1, default=True), rtol=1e-6)

        def two_outputs(index):
            def build():
                a, i = _cached("x", x), ph("i", np.int32(index))
                return tf.switch_case(i, [lambda: (a + 1.0, tf.reduce_sum(a)),
                                          lambda: (a * a, tf.reduce_max(a))], name="out")
            return build
        c("two_outputs_0", two_outputs(0), rtol=1e-6)
        c("two_outputs_1", two_outputs(1), rtol=1e-6)

        def values(index, value):
            def build():
                a, i = ph("a", value), ph("i", np.int32(index))
                return tf.switch_case(i, [lambda: a + 1.0, lambda: a * 0.0, lambda: tf.abs(a)],
                                      name="out")
            return build
        c("empty_input", values(2, np.zeros([0, 3], np.float32)))
        special = np.array([np.nan, -np.inf, np.inf, -0.0], np.float32)
        c("nan_inputs_add", values(0, special))
        c("nan_inputs_times_zero", values(1, special))

        def constants(index):
            def build():
                i = ph("i", np.int32(index))
                return tf.switch_case(i, [lambda: tf.constant([1.0, 2.0]),
                                          lambda: tf.constant([3.0, 4.0])], name="out")
            return build
        c("no_inputs_0", constants(0))
        c("no_inputs_1", constants(1))

        def single(index):
            def build():
                a, i = _cached("x", x), ph("i", np.int32(index))
                return tf.switch_case(i, [lambda: a - 1.0], name="out")
            return build
        c("one_branch", single(0))
        c("one_branch_out_of_range", single(4))

        def in_cond(p, index):
            def build():
                a, q, i = _cached("x", x), ph("p", np.array(p)), ph("i", np.int32(index))
                return tf.cond(q, lambda: tf.switch_case(i, [lambda: a + 10.0, lambda: a - 10.0]),
                               lambda: a * 3.0, name="out")
            return build
        c("in_cond_true_1", in_cond(True, 1))
        c("in_cond_false", in_cond(False, 1))

        def bad_index(index):
            def build():
                a = _cached("x", x)
                i = ph("i", np.asarray(index, np.int32))
                return tf.switch_case(i, [lambda: a + 1.0, lambda: a - 1.0], name="out")
            return build
        c("index_vector_error", bad_index([1]), error="INVALID_ARGUMENT",
          phrases=["The second input must be a scalar, but it has shape [1]"])
        c("index_empty_error", bad_index(np.zeros([0], np.int32)), error="INVALID_ARGUMENT",
          phrases=["The second input must be a scalar, but it has shape [0]"])

    rec.for_dtypes("StatelessCase", ["float32"], stateless)

    def stateful(dt):
        x = rand(dt, [2, 2], "Case/x")

        def guarded(index):
            def build():
                a, i = _cached("x", x), ph("i", np.int32(index))

                def checked():
                    check = tf.debugging.assert_positive(a - 100.0, message="branch ran")
                    with tf.control_dependencies([check]):
                        return tf.identity(a)
                return tf.switch_case(i, [lambda: a * 0.5, checked, lambda: a + 0.25],
                                      name="out")
            return build
        for index in (0, 2, 9):
            _cache.clear()
            rec.case("Case", dt, "guarded_%d" % index, guarded(index))
        _cache.clear()
        rec.case("Case", dt, "guarded_1", guarded(1), error="INVALID_ARGUMENT",
                 phrases=["branch ran"])

    rec.for_dtypes("Case", ["float32"], stateful)


# Placeholders shared by the lambdas of one case (made once per graph).
_cache = {}


def _cached(name, value):
    g = tf1.get_default_graph()
    key = (id(g), name)
    if key not in _cache:
        _cache[key] = ph(name, value)
    return _cache[key]


def while_cases(rec):
    def gen(dt):
        def c(what, build, **kw):
            _cache.clear()
            rec.case("While", dt, what, build, **kw)

        def counter(n, parallel=10):
            def build():
                limit = ph("n", np.int32(n))
                return tf.while_loop(lambda i, s: i < limit, lambda i, s: (i + 1, s + i * i),
                                     [tf.constant(0), tf.constant(0)],
                                     parallel_iterations=parallel, name="out")
            return build
        c("counter_10", counter(10))
        c("zero_trips", counter(0))
        c("counter_500_parallel_1", counter(500, parallel=1))
        c("counter_500_parallel_32", counter(500, parallel=32))

        x = rand(dt, [4], "While/x")

        def nested():
            n = ph("n", np.int32(5))

            def outer_body(i, acc):
                inner = tf.while_loop(lambda j, s: j < i, lambda j, s: (j + 1, s + j),
                                      [tf.constant(0), acc])
                return i + 1, inner[1]
            return tf.while_loop(lambda i, acc: i < n, outer_body,
                                 [tf.constant(0), tf.constant(0)], name="out")
        c("nested", nested)

        def cond_in_loop():
            def body(i, v):
                return i + 1, tf.cond(tf.equal(i % 2, 0), lambda: v * 2.0, lambda: v + 1.0)
            return tf.while_loop(lambda i, v: i < 7, body, [tf.constant(0), ph("a", x)],
                                 name="out")
        c("cond_in_loop", cond_in_loop, rtol=1e-6)

        def loop_in_cond(taken):
            def build():
                a, p = ph("a", x), ph("p", np.array(taken))
                return tf.cond(p, lambda: tf.while_loop(
                    lambda v: tf.reduce_sum(v) < 1000.0, lambda v: v * 2.0 + 1.0, [a])[0],
                    lambda: a - 1.0, name="out")
            return build
        c("loop_in_cond_true", loop_in_cond(True), rtol=1e-6)
        c("loop_in_cond_false", loop_in_cond(False))

        @tf.function
        def step(v):
            return tf.tanh(v) + 0.5

        def calls_function():
            return tf.while_loop(lambda i, v: i < 6, lambda i, v: (i + 1, step(v)),
                                 [tf.constant(0), ph("a", x)], name="out")
        c("body_calls_function", calls_function, rtol=1e-6)

        def failing():
            def body(i, v):
                return i + 1, tf.debugging.check_numerics(v * 1e30, "loop overflow")
            return tf.while_loop(lambda i, v: i < 5, body, [tf.constant(0), ph("a", x)],
                                 name="out")
        c("error_in_body", failing, error="INVALID_ARGUMENT",
          phrases=["loop overflow : Tensor had Inf values"])

    rec.for_dtypes("While", ["float32"], gen)


def call_cases(rec):
    def gen(dt):
        x = rand(dt, [3], "PartitionedCall/x")
        y = rand(dt, [3], "PartitionedCall/y")

        @tf.function
        def affine(a, b):
            return a * 3.0 + b, tf.reduce_sum(a * b)

        @tf.function
        def outer(a):
            s, _ = affine(a, a)
            return tf.nn.relu(s) - 1.0

        rec.case("PartitionedCall", dt, "two_outputs",
                 lambda: affine(ph("x", x), ph("y", y)), rtol=1e-6)
        rec.case("PartitionedCall", dt, "nested", lambda: outer(ph("x", x)), rtol=1e-6)

    rec.for_dtypes("PartitionedCall", ["float32"], gen)


def build_all(rec, emit):
    to_bool(rec)
    emit("ToBool")
    if_cases(rec)
    emit("If")
    case_cases(rec)
    emit("StatelessCase")
    emit("Case")
    while_cases(rec)
    emit("While")
    call_cases(rec)
    emit("PartitionedCall")
