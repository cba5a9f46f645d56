# Math functions TF1 programs use beyond the operators: casts, mod, count_nonzero,
# reduce_logsumexp, norm, eye, linspace, cumsum, and elementwise functions from the op registry.
import numpy as np
import rill.compat.v1 as tf


def r(v):
    return np.round(np.asarray(v, dtype=np.float64), 4).tolist()


m = tf.constant([[1.0, -2.0, 0.0], [3.0, 0.5, -1.0]])
vals = [tf.to_int32(m), tf.to_int64(m), tf.to_double(m), tf.mod(tf.constant([7, -7]), 3),
        tf.floormod(tf.constant([7.5, -7.5]), 2.0), tf.count_nonzero(m),
        tf.count_nonzero(m, axis=1), tf.reduce_logsumexp(m), tf.reduce_logsumexp(m, axis=1),
        tf.reduce_logsumexp(m, axis=0, keepdims=True), tf.norm(m), tf.norm(m, axis=1),
        tf.eye(2, 3), tf.linspace(0.0, 1.0, 5), tf.cumsum(m, axis=1), tf.sqrt(tf.abs(m)),
        tf.exp(m), tf.log1p(tf.abs(m)), tf.sign(m), tf.floor(m * 1.5), tf.round(m * 1.5),
        tf.maximum(m, 0.5), tf.square(m), tf.rsqrt(tf.abs(m) + 1.0), tf.reduce_prod(m, 0),
        tf.reduce_any(m > 2.0), tf.reduce_all(m > -5.0), tf.argmin(m, 1), tf.range(2, 10, 3),
        tf.truediv(tf.constant([7, 8]), tf.constant([2, 4]))]
print([v.dtype.name for v in vals])
with tf.Session() as sess:
    for v in sess.run(vals):
        print(r(v) if np.asarray(v).dtype.kind == "f" else np.asarray(v).tolist())
