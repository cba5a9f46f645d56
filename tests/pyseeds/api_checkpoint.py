# Restoring a checkpoint TensorFlow's Saver wrote (data/tf_checkpoint, by make_saved_model.py)
# into the same variables, also under other names through a var_list dict. Run from tests/pyseeds/.
import rill.compat.v1 as tf

w = tf.Variable(tf.zeros([2, 2]), name="layer/w")
step = tf.Variable(0, dtype=tf.int64, name="step")
other = tf.Variable(tf.zeros([2, 2]), name="other")
saver = tf.train.Saver([w, step])
renamed = tf.train.Saver({"layer/w": other})
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    saver.restore(sess, "data/tf_checkpoint/model")
    renamed.restore(sess, "data/tf_checkpoint/model")
    print(sess.run(w).tolist(), sess.run(step).item(), sess.run(other).tolist())
    try:
        tf.train.Saver().restore(sess, "data/tf_checkpoint/model")
    except tf.errors.NotFoundError as e:
        print(type(e).__name__, str(e).splitlines()[0])
