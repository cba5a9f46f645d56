# tf.nn beyond the basics: activations, top_k / in_top_k, embedding_lookup, the sigmoid and
# softmax cross entropies, l2_normalize, depthwise and transposed convolutions, lrn, moments.
import numpy as np
import rill.compat.v1 as tf


def r(v):
    return np.round(np.asarray(v, dtype=np.float64), 4).tolist()


x = tf.constant([[-2.0, -0.5, 0.0, 0.5, 3.0]])
acts = [tf.nn.elu(x), tf.nn.selu(x), tf.nn.softplus(x), tf.nn.softsign(x),
        tf.nn.leaky_relu(x, alpha=0.1), tf.nn.relu6(x * 3.0), tf.nn.sigmoid(x), tf.nn.tanh(x),
        tf.nn.softmax(x), tf.nn.log_softmax(x), tf.nn.l2_normalize(x, axis=1)]
topk = tf.nn.top_k(tf.constant([[1.0, 5.0, 3.0], [9.0, 2.0, 4.0]]), k=2)
intop = tf.nn.in_top_k(tf.constant([[1.0, 5.0, 3.0], [9.0, 2.0, 4.0]]), [2, 0], 1)
emb = tf.nn.embedding_lookup(tf.constant([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]), [2, 0, 2])
logits = tf.constant([[1.0, -1.0, 0.5]])
sig = tf.nn.sigmoid_cross_entropy_with_logits(labels=[[1.0, 0.0, 1.0]], logits=logits)
soft = tf.nn.softmax_cross_entropy_with_logits(labels=[[0.0, 1.0, 0.0]], logits=logits)
img = tf.constant(np.arange(32, dtype=np.float32).reshape([1, 4, 4, 2]) / 10.0)
dw = tf.nn.depthwise_conv2d(img, tf.ones([2, 2, 2, 1]), [1, 1, 1, 1], "VALID")
ct = tf.nn.conv2d_transpose(tf.ones([1, 2, 2, 1]), tf.ones([3, 3, 2, 1]), [1, 4, 4, 2],
                            [1, 2, 2, 1], "SAME")
lrn = tf.nn.lrn(img, depth_radius=1, bias=1.0, alpha=0.5, beta=0.75)
mean, var = tf.nn.moments(tf.constant([[1.0, 2.0], [3.0, 6.0]]), axes=[0])
print(topk.values.name, topk.indices.dtype, emb.shape, dw.shape, ct.shape)
with tf.Session() as sess:
    for a in sess.run(acts):
        print(r(a))
    tv = sess.run(topk)
    print(r(tv.values), tv.indices.tolist(), sess.run(intop).tolist())
    print(r(sess.run(emb)), r(sess.run(sig)), r(sess.run(soft)))
    print(r(sess.run(dw)))
    print(r(sess.run(ct)))
    print(r(sess.run(lrn))[0][0])
    print(r(sess.run(mean)), r(sess.run(var)))
