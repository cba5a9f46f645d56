# TF1 control flow: tf.cond (branches reading outside tensors and variables, constants inside,
# nested structures, a cond inside a cond) and tf.while_loop (a counter, a loop reading an outside
# tensor, two loop variables, a cond inside the body), with feeds deciding the branch.
import rill.compat.v1 as tf



def py(v):
    """Values as Python numbers (numpy 1.x and 2.x print numpy scalars differently)."""
    if isinstance(v, (list, tuple)):
        return type(v)(py(e) for e in v)
    return v.item()


x = tf.placeholder(tf.float32, [], name="x")
y = tf.constant(10.0, name="y")
v = tf.Variable(3.0, name="v")
r = tf.cond(x > 0, lambda: x * y, lambda: x - v)
pair = tf.cond(x > 5, lambda: (x + 1.0, tf.constant(1)), lambda: (x - 1.0, tf.constant(0)))
nested = tf.cond(x > 0, lambda: tf.cond(x > 2, lambda: y, lambda: y * 2.0), lambda: y * 3.0)
print(r.name, r.op.type, [t.name for t in pair], nested.name)
i = tf.constant(0)
count = tf.while_loop(lambda i: i < 10, lambda i: i + 1, [i])
acc = tf.while_loop(lambda i, s: i < 4, lambda i, s: (i + 1, s + y * tf.cast(i, tf.float32)),
                    [tf.constant(0), tf.constant(0.0)])
mixed = tf.while_loop(lambda i, s: i < 5,
                      lambda i, s: (i + 1, tf.cond(tf.equal(i % 2, 0), lambda: s + 1.0, lambda: s - x)),
                      [tf.constant(0), tf.constant(0.0)])
print(count.name, count.op.type, [t.name for t in acc])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for value in (2.0, -1.0, 7.0):
        print(value, py(sess.run([r, pair, nested], {x: value})))
    print(py(sess.run(count)), py(sess.run(acc)), py(sess.run(mixed, {x: 0.5})))
