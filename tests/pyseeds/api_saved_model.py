# Loading a TF1 SavedModel (data/tf1_saved_model, written by make_saved_model.py) with
# saved_model.loader.load and running its serving signature by the names the MetaGraphDef gives;
# the same model's GraphDef through import_graph_def. Run from tests/pyseeds/.
import numpy as np
import rill.compat.v1 as tf

with tf.Session(graph=tf.Graph()) as sess:
    meta = tf.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING],
                                      "data/tf1_saved_model")
    sig = meta.signature_def["serving_default"]
    x_name = sig.inputs["x"].name
    y_name = sig.outputs["probs"].name
    print(list(meta.meta_info_def.tags), x_name, y_name, sig.method_name)
    x = np.array([[1.0, 2.0, 3.0], [0.0, -1.0, 0.5]], np.float32)
    print(np.round(sess.run(y_name, {x_name: x}), 5))
    w = sess.graph.get_tensor_by_name("W:0")
    print(sess.run(w))
    gd = meta.graph_def
with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [None, 3], name="in")
    w_val = tf.constant([[1.0, -1.0], [0.5, 0.25], [-2.0, 2.0]])
    probs, = tf.import_graph_def(gd, input_map={"x:0": x, "W/read:0": w_val,
                                                 "b/read:0": tf.constant([0.0, 0.0])},
                                 return_elements=["probs:0"], name="m")
    with tf.Session() as sess:
        print(probs.name, np.round(sess.run(probs, {x: [[1.0, 1.0, 1.0]]}), 5))
