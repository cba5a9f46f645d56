"""TF1 control flow: tf.cond and tf.while_loop graphs (Switch/Merge/Enter/Exit/NextIteration/
LoopCond), built with control flow v1 as TF1 models were (tf.compat.v1.disable_control_flow_v2
inside each case) and run with Grappler off.

Suites:
  Switch  raw Switch on every dtype (fetch the taken output), the non-scalar pred error, and the
          dead-fetch error TensorFlow gives for the untaken output.
  Merge   tf.cond graphs: both branches, value_index, several outputs, nested conds, a branch
          that would fail if it ran, conds on every dtype.
  Enter   tf.while_loop graphs: counters and sums, loop invariants, zero trips, parallel
          iterations 1 and 32, nested loops, a loop inside a cond, a cond inside a loop, a vector
          that grows each iteration (shape invariants), an error raised inside the body.
"""
import numpy as np
import tensorflow as tf

from kernel_cases.core import ALL, const, in_control_flow_v1, ph, rand, tf1


def switch(rec):
    def gen(dt):
        x = rand(dt, [2, 3], "Switch/" + dt)
        for taken in (True, False):
            rec.case("Switch", dt, "pred_%s" % str(taken).lower(),
                     lambda taken=taken: tf.raw_ops.Switch(
                         data=ph("x", x), pred=ph("p", np.array(taken)), name="out")[int(taken)])
        if dt == "float32":
            rec.case("Switch", dt, "dead_fetch_error",
                     lambda: tf.raw_ops.Switch(data=ph("x", x), pred=ph("p", np.array(True)),
                                               name="out")[0],
                     error="INVALID_ARGUMENT", phrases=["Retval[0] does not have value"])
            rec.case("Switch", dt, "vector_pred_error",
                     lambda: tf.raw_ops.Switch(data=ph("x", x),
                                               pred=ph("p", np.array([True, False])),
                                               name="out")[1],
                     error="INVALID_ARGUMENT",
                     phrases=["The second input must be a scalar, but it has shape [2]"])

    rec.for_dtypes("Switch", ALL, gen)


def merge(rec):
    def gen(dt):
        x = rand(dt, [3], "Merge/x/" + dt)
        y = rand(dt, [3], "Merge/y/" + dt)

        def simple(taken):
            def build():
                # Operands are made outside the branches: a Placeholder fed inside a branch
                # would be live on both sides.
                p, a, b = ph("p", np.array(taken)), ph("x", x), ph("y", y)
                out = tf1.cond(p, lambda: tf.identity(a), lambda: tf.identity(b), name="out")
                merge_op = out.op
                return [out, merge_op.outputs[1]]
            return in_control_flow_v1(build)

        for taken in (True, False):
            rec.case("Merge", dt, "cond_%s" % str(taken).lower(), simple(taken), case_dtype=dt)

    rec.for_dtypes("Merge", ALL, gen)

    def gen_float(dt):
        x = rand(dt, [2, 2], "Merge/f/x")
        y = rand(dt, [2, 2], "Merge/f/y")

        def arith(taken):
            def build():
                a, b = ph("a", x), ph("b", y)
                return tf1.cond(ph("p", np.array(taken)),
                                lambda: (a * b + 1.0, tf.reduce_sum(a)),
                                lambda: (a - b, tf.reduce_max(b)), name="out")
            return in_control_flow_v1(build)

        def nested(p, q):
            def build():
                a, outer, inner = ph("a", x), ph("p", np.array(p)), ph("q", np.array(q))
                return tf1.cond(
                    outer,
                    lambda: tf1.cond(inner, lambda: a * 2.0, lambda: a * 3.0),
                    lambda: tf1.cond(inner, lambda: a + 5.0, lambda: -a),
                    name="out")
            return in_control_flow_v1(build)

        def guarded(taken):
            # The true branch fails its Assert when it runs; with p false it must not run.
            def build():
                a = ph("a", x)

                def checked():
                    check = tf1.assert_positive(a - 100.0, message="branch ran")
                    with tf1.control_dependencies([check]):
                        return tf.identity(a)
                return tf1.cond(ph("p", np.array(taken)), checked, lambda: a * 0.5, name="out")
            return in_control_flow_v1(build)

        def cond_on_value():
            def build():
                a = ph("a", x)
                return tf1.cond(tf.reduce_sum(a) > 0, lambda: tf.nn.relu(a),
                                lambda: tf.square(a), name="out")
            return in_control_flow_v1(build)

        for taken in (True, False):
            t = str(taken).lower()
            rec.case("Merge", dt, "two_outputs_" + t, arith(taken), rtol=1e-6)
            rec.case("Merge", dt, "guarded_" + t, guarded(taken),
                     error=None if not taken else "INVALID_ARGUMENT",
                     phrases=[] if not taken else ["branch ran"])
        for p in (True, False):
            for q in (True, False):
                rec.case("Merge", dt, "nested_%s_%s" % (str(p).lower(), str(q).lower()),
                         nested(p, q))
        rec.case("Merge", dt, "pred_from_value", cond_on_value())

    rec.for_dtypes("Merge", ["float32"], gen_float)


def while_loops(rec):
    def gen(dt):
        def loop(what, build, **kw):
            rec.case("Enter", dt, what, in_control_flow_v1(build), **kw)

        def counter(n, parallel=10):
            def build():
                limit = ph("n", np.int32(n))
                return tf1.while_loop(lambda i, s: i < limit, lambda i, s: (i + 1, s + i * i),
                                      [tf.constant(0), tf.constant(0)],
                                      parallel_iterations=parallel, name="out")
            return build

        loop("counter_10", counter(10))
        loop("zero_trips", counter(0))
        loop("counter_1000_parallel_1", counter(1000, parallel=1))
        loop("counter_1000_parallel_32", counter(1000, parallel=32))

        x = rand(dt, [4], "Enter/x")

        def invariant():
            a = ph("a", x)
            return tf1.while_loop(lambda i, v: i < 5, lambda i, v: (i + 1, v * 0.5 + a),
                                  [tf.constant(0), tf.zeros_like(a)], name="out")
        loop("loop_invariant", invariant, rtol=1e-6)

        def nested():
            def outer_body(i, acc):
                inner = tf1.while_loop(lambda j, s: j < i, lambda j, s: (j + 1, s + j),
                                       [tf.constant(0), acc], name="inner")
                return i + 1, inner[1]
            n = ph("n", np.int32(6))
            return tf1.while_loop(lambda i, acc: i < n, outer_body,
                                  [tf.constant(0), tf.constant(0)], name="out")
        loop("nested", nested)

        def cond_in_loop():
            def body(i, v):
                v = tf1.cond(tf.equal(i % 2, 0), lambda: v * 2.0, lambda: v + 1.0)
                return i + 1, v
            return tf1.while_loop(lambda i, v: i < 7, body, [tf.constant(0), ph("a", x)],
                                  name="out")
        loop("cond_in_loop", cond_in_loop, rtol=1e-6)

        def loop_in_cond(taken):
            def build():
                a = ph("a", x)
                return tf1.cond(
                    ph("p", np.array(taken)),
                    lambda: tf1.while_loop(lambda v: tf.reduce_sum(v) < 1000.0,
                                           lambda v: v * 2.0 + 1.0, [a])[0],
                    lambda: a - 1.0, name="out")
            return build
        loop("loop_in_cond_true", loop_in_cond(True), rtol=1e-6)
        loop("loop_in_cond_false", loop_in_cond(False))

        def growing():
            return tf1.while_loop(lambda i, v: i < 4,
                                  lambda i, v: (i + 1, tf.concat([v, v * 2.0], 0)),
                                  [tf.constant(0), ph("a", x)],
                                  shape_invariants=[tf.TensorShape([]), tf.TensorShape(None)],
                                  name="out")
        loop("growing_vector", growing)

        def failing():
            def body(i, v):
                checked = tf.debugging.check_numerics(v * 1e30, "loop overflow")
                return i + 1, checked
            return tf1.while_loop(lambda i, v: i < 5, body, [tf.constant(0), ph("a", x)],
                                  name="out")
        loop("error_in_body", failing, error="INVALID_ARGUMENT",
             phrases=["loop overflow : Tensor had Inf values"])

    rec.for_dtypes("Enter", ["float32"], gen)


def build_all(rec, emit):
    switch(rec)
    emit("Switch")
    merge(rec)
    emit("Merge")
    while_loops(rec)
    emit("Enter")
