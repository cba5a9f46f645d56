# Exporting a TF1 SavedModel (saved_model.builder.SavedModelBuilder, predict_signature_def) and
# loading it back with saved_model.loader.load in a fresh graph.
import os
import tempfile

import numpy as np
import rill.compat.v1 as tf

export_dir = os.path.join(tempfile.mkdtemp(), "model")
with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    w = tf.Variable([[2.0], [-1.0]], name="w")
    y = tf.add(tf.matmul(x, w), 0.5, name="y")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(w.assign([[3.0], [1.0]]))
        b = tf.saved_model.builder.SavedModelBuilder(export_dir)
        sig = tf.saved_model.signature_def_utils.predict_signature_def({"x": x}, {"y": y})
        b.add_meta_graph_and_variables(sess, [tf.saved_model.tag_constants.SERVING],
                                       signature_def_map={"serving_default": sig})
        b.save()
print(sorted(os.listdir(export_dir)), sorted(os.listdir(os.path.join(export_dir, "variables"))))
with tf.Graph().as_default():
    with tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, ["serve"], export_dir)
        s = meta.signature_def["serving_default"]
        print(s.method_name, s.inputs["x"].name, s.outputs["y"].name,
              [d.size for d in s.inputs["x"].tensor_shape.dim])
        print(sess.run(s.outputs["y"].name, {s.inputs["x"].name: np.array([[1.0, 2.0]])}).tolist())
try:
    tf.saved_model.builder.SavedModelBuilder(export_dir)
except AssertionError as e:
    print("AssertionError", str(e).replace(export_dir, "DIR"))
