# Freezing a TF1 model: graph_util.convert_variables_to_constants keeps what the output needs and
# turns variables into Consts; the frozen GraphDef imported into a fresh graph gives the same
# values; train.write_graph writes it; tf.logging is there.
import os
import tempfile

import rill.compat.v1 as tf

tf.logging.set_verbosity(tf.logging.ERROR)
x = tf.placeholder(tf.float32, [None, 2], name="x")
w = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="w")
b = tf.Variable([0.5, -0.5], name="b")
y = tf.nn.relu(tf.matmul(x, w) + b, name="y")
unused = tf.constant(3.0, name="unused") * 2.0
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    frozen = tf.graph_util.convert_variables_to_constants(sess, sess.graph.as_graph_def(), ["y"])
    feed = {x: [[1.0, 1.0], [-1.0, 0.0]]}
    print(sess.run(y, feed).tolist())
print(sorted((n.name, n.op) for n in frozen.node))
with tf.Graph().as_default():
    tf.import_graph_def(frozen, name="")
    g = tf.get_default_graph()
    with tf.Session() as sess:
        print(sess.run("y:0", {"x:0": [[1.0, 1.0], [-1.0, 0.0]]}).tolist())
d = tempfile.mkdtemp()
p = tf.train.write_graph(frozen, d, "frozen.pb", as_text=False)
p2 = tf.train.write_graph(frozen, d, "frozen.pbtxt")
print(os.path.basename(p), os.path.getsize(p) > 0, open(p2).read().startswith("node {"))
