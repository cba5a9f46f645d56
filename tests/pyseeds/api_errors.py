# Errors TF1 programs meet, with TensorFlow's classes and texts: bad feed keys and fetches, an
# uninitialized variable, mismatched shapes at graph building, bad dtypes, a closed session.
# Printed: the class and the message's first line (after TensorFlow 2's "Graph execution error:"
# heading), cut before " for " (the node description that follows differs).
import rill.compat.v1 as tf


def show(fn):
    try:
        fn()
        print("no error")
    except Exception as e:  # noqa: B902 (the probe prints whatever is raised)
        lines = [line for line in str(e).splitlines()
                 if line.strip() and line != "Graph execution error:"]
        print(type(e).__name__, lines[0].split(" for ")[0])


x = tf.placeholder(tf.float32, [2], name="x")
y = tf.add(x, 1.0, name="y")
v = tf.Variable(1.0, name="v")
sess = tf.Session()
show(lambda: sess.run(y, {"x": [1.0, 2.0]}))
show(lambda: sess.run(y, {"nope:0": [1.0, 2.0]}))
show(lambda: sess.run(y, {"x:1": [1.0, 2.0]}))
show(lambda: sess.run("nope"))
show(lambda: sess.run("x:3"))
show(lambda: sess.run("nope:0"))
show(lambda: sess.run(v))
show(lambda: tf.matmul(tf.constant([[1.0, 2.0]]), tf.constant([[1.0, 2.0]])))
show(lambda: tf.add(tf.constant(1), tf.constant(1.0)))
show(lambda: tf.constant([1.5], dtype=tf.int32))
show(lambda: tf.get_default_graph().get_tensor_by_name("y"))
sess.close()
show(lambda: sess.run(y, {x: [1.0, 2.0]}))
