"""TF1 stacks (StackV2/StackPushV2/StackPopV2/StackCloseV2), which tf.gradients of a TF1 while
loop uses to keep the forward loop's values for the backward loop. Cases: push/pop order, popping
an empty stack, and gradients through while loops (the graph tf.gradients builds: stacks, a
ControlTrigger, the backward loop)."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import in_control_flow_v1, ph, rand, tf1

R = tf.raw_ops


def build_all(rec, emit):
    def c(op, dt, what, build, **kw):
        rec.case(op, dt, what, in_control_flow_v1(build), **kw)

    def stacks(dt):
        a, b = rand(dt, [2], "S/a" + dt), rand(dt, [3], "S/b" + dt)

        def lifo():
            h = R.StackV2(max_size=-1, elem_type=tf.as_dtype(dt), stack_name="s", name="out")
            p1 = R.StackPushV2(handle=h, elem=ph("a", a))
            with tf.control_dependencies([p1]):
                p2 = R.StackPushV2(handle=h, elem=ph("b", b))
            with tf.control_dependencies([p2]):
                first = R.StackPopV2(handle=h, elem_type=tf.as_dtype(dt))
            with tf.control_dependencies([first]):
                second = R.StackPopV2(handle=h, elem_type=tf.as_dtype(dt))
            with tf.control_dependencies([second]):
                close = R.StackCloseV2(handle=h)
            with tf.control_dependencies([close]):
                return [tf.identity(first), tf.identity(second), tf.identity(p1)]
        c("StackPushV2", dt, "last_in_first_out", lifo)
        c("StackPushV2", dt, "pop_empty_error", lambda: R.StackPopV2(
            handle=R.StackV2(max_size=-1, elem_type=tf.as_dtype(dt), stack_name="s"),
            elem_type=tf.as_dtype(dt), name="out"), error="INVALID_ARGUMENT",
          phrases=["is empty"])

    def gradients(dt):
        x = rand(dt, [3], "S/x" + dt, kind="small")

        def grad(body, parallel=10):
            def build():
                v0 = ph("x", x)
                _, y = tf1.while_loop(lambda i, v: i < 4, body, [tf.constant(0), v0],
                                      parallel_iterations=parallel, name="out")
                return [y, tf.gradients(y, v0)[0]]
            return build
        c("StackPopV2", dt, "gradient_sin_mul", grad(lambda i, v: (i + 1, tf.sin(v) * v)),
          rtol=1e-5, atol=1e-6)
        c("StackPopV2", dt, "gradient_parallel_1", grad(lambda i, v: (i + 1, tf.tanh(v) * 2.0 + v),
                                                      parallel=1), rtol=1e-5, atol=1e-6)

        def nested():
            v0 = ph("x", x)

            def outer(i, v):
                _, w = tf1.while_loop(lambda j, u: j < 2, lambda j, u: (j + 1, tf.sin(u) + u),
                                      [tf.constant(0), v])
                return i + 1, w * v
            _, y = tf1.while_loop(lambda i, v: i < 3, outer, [tf.constant(0), v0], name="out")
            return [y, tf.gradients(tf.reduce_sum(y), v0)[0]]
        c("StackPopV2", dt, "gradient_nested_loops", nested, rtol=1e-5, atol=1e-6)

    rec.for_dtypes("StackPushV2", ["float32", "int32"], stacks)
    emit("StackPushV2")
    rec.for_dtypes("StackPopV2", ["float32"], gradients)
    emit("StackPopV2")
