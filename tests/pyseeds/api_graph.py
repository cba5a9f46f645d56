# Graph building as TF1 programs use it: names and name scopes, devices (strings, nesting, None,
# device functions), colocation, control dependencies, dtype and shape inference, node_defs.
import rill.compat.v1 as tf

print(tf.constant(1).name, tf.constant(2).name, tf.constant(3.0, name="c").name,
      tf.constant(4.0, name="c").name)
with tf.name_scope("s"):
    x = tf.constant([1, 2], name="x")
    with tf.name_scope("inner"):
        y = tf.identity(x)
with tf.name_scope("s"):
    z = tf.constant(0, name="x")
print(x.name, y.name, z.name)
print(x.dtype, tf.constant(1.5).dtype, tf.constant(True).dtype, tf.constant("s").dtype,
      tf.constant(2**40).dtype, tf.constant([1, 2.5]).dtype)
print(tf.constant(7, dtype=tf.float64).dtype, tf.constant(0, shape=[2, 2]).shape)
with tf.device("/cpu:0"):
    a = tf.constant(1.0, name="da")
    with tf.device("/job:worker/task:1"):
        b = tf.constant(1.0, name="db")
    with tf.device(None):
        c = tf.constant(1.0, name="dc")
    with tf.device("/device:GPU:1"):
        d = tf.constant(1.0, name="dd")
print(repr(a.device), repr(b.device), repr(c.device), repr(d.device))
seen = []


def fn(op):
    seen.append((op.node_def.op, op.node_def.name))
    return "/device:CPU:0" if op.node_def.op == "Const" else "/device:GPU:0"


with tf.device(fn):
    e = tf.constant(1.0, name="fe")
    f = tf.square(e, name="ff")
print(seen, repr(e.device), repr(f.device))
with tf.device("/job:ps"):
    with tf.device(fn):
        g = tf.constant(1.0, name="fg")
print(repr(g.device))
with tf.colocate_with(a):
    h = tf.constant(2.0, name="h")
print(repr(h.device), h.op.colocation_groups(), h.op.get_attr("_class"))
with tf.control_dependencies([a, b.op]):
    i = tf.constant(3.0, name="i")
    with tf.control_dependencies(None):
        j = tf.constant(4.0, name="j")
print(sorted(o.name for o in i.op.control_inputs), j.op.control_inputs)
m = tf.matmul(tf.constant([[1.0, 2.0]]), tf.constant([[3.0], [4.0]]))
print(m.name, m.shape, m.op.type, m.op.get_attr("transpose_a"), [t.name for t in m.op.inputs])
p = tf.placeholder(tf.float32, shape=[None, 3], name="p")
print(p.shape, p.dtype, p.op.type, p.op.get_attr("dtype"))
s = p + 1.0
t = 2 * p
u = p @ tf.ones([3, 1])
print(s.name, s.op.type, [x.name for x in s.op.inputs], t.name, t.op.type, u.name, u.shape)
print((p - 1).name, (p / 2).name, (-p).name, p[0].name, p[:, 1:].name)
print(tf.add_n([p, p, p]).name, tf.reduce_sum(p).name, tf.reduce_mean(p, axis=1).shape)
print(tf.sin(p).op.type, tf.cast(p, tf.int32).dtype, tf.reshape(p, [-1]).shape)
nd = m.op.node_def
print(nd.name, nd.op, list(nd.input), sorted(nd.attr.keys()))
print(tf.get_default_graph().get_tensor_by_name("p:0") is p,
      tf.get_default_graph().get_operation_by_name("p") is p.op)
gd = tf.get_default_graph().as_graph_def()
print(len(gd.node), [n.name for n in gd.node][:5])
g2 = tf.Graph()
with g2.as_default():
    k = tf.constant(1.0)
    print(k.graph is g2, tf.get_default_graph() is g2, k.name)
print(tf.get_default_graph() is g2)
