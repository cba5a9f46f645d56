# A TF1 image classifier's forward pass as tutorials write it: conv2d, bias_add, relu, max_pool,
# reshape, matmul, softmax, argmax, accuracy, with fixed weights; plus pad, slice, tile,
# concat, stack, transpose, one_hot, clip_by_value, gather, and reductions with keepdims.
import numpy as np
import rill.compat.v1 as tf

rng = np.random.RandomState(0)
images = rng.uniform(-1, 1, size=[4, 8, 8, 1]).astype(np.float32)
labels = np.array([0, 1, 2, 1])
x = tf.placeholder(tf.float32, [None, 8, 8, 1], name="x")
y_ = tf.placeholder(tf.int64, [None], name="y_")
w1 = tf.Variable(tf.constant(rng.uniform(-0.5, 0.5, [3, 3, 1, 4]).astype(np.float32)))
b1 = tf.Variable(tf.constant(0.1, shape=[4]))
h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w1, strides=[1, 1, 1, 1], padding="SAME"), b1))
p = tf.nn.max_pool(h, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
flat = tf.reshape(p, [-1, 4 * 4 * 4])
w2 = tf.Variable(tf.constant(rng.uniform(-0.5, 0.5, [64, 3]).astype(np.float32)))
logits = tf.matmul(flat, w2)
probs = tf.nn.softmax(logits)
pred = tf.argmax(logits, 1)
acc = tf.reduce_mean(tf.cast(tf.equal(pred, y_), tf.float32))
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y_, logits=logits))
print(h.shape, p.shape, flat.shape, logits.shape, pred.dtype)
m = tf.constant([[1, 2, 3], [4, 5, 6]])
extras = [tf.pad(m, [[1, 0], [0, 2]]), tf.slice(m, [0, 1], [2, 2]), tf.tile(m, [1, 2]),
          tf.concat([m, m], 0), tf.stack([m, m], axis=1), tf.transpose(m),
          tf.one_hot([0, 2], 3), tf.clip_by_value(m, 2, 5), tf.gather(m, [1, 0]),
          tf.reduce_sum(m, axis=1, keepdims=True), tf.reduce_max(m), tf.expand_dims(m, 0),
          tf.squeeze(tf.expand_dims(m, 0)), tf.shape(m), tf.size(m), tf.rank(m)]
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {x: images, y_: labels}
    print(np.round(sess.run(probs, feed), 4).tolist())
    print(sess.run(pred, feed).tolist(), float(sess.run(acc, feed)), round(float(sess.run(loss, feed)), 4))
    for e in sess.run(extras):
        print(np.asarray(e).tolist())
