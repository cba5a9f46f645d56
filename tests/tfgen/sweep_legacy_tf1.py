"""TF1 graphs of model code that uses ops the other families leave out, for
tests/tfgen/model_sweep.py: a bag-of-words classifier whose first layer is
tf.matmul(..., a_is_sparse=True) and a hashed-feature layer with b_is_sparse=True (SparseMatMul),
a TF 1.0-era dynamic_rnn loop whose TensorArrays carry the V2 op names (TensorArrayV2,
TensorArrayScatterV2, ReadV2, WriteV2, GatherV2, SizeV2: the graph written by tf.compat.v1 and
rewritten as TensorFlow 0.12-1.0 wrote it, GraphDef producer 21), and the evaluation graph of a
CTC speech model (greedy decoding, then tf.edit_distance against sparse labels, normalized and
not), and an eight-bit image classifier as graph_transforms' quantize_nodes writes one (QuantizeV2
MIN_FIRST, QuantizedConv2D, RequantizationRange / Requantize, QuantizedBiasAdd, QuantizedRelu,
QuantizedMaxPool / AvgPool, QuantizedConcat, QuantizedReshape, QuantizedMatMul, Dequantize).
Weights are seeded; nothing is downloaded.
"""
import numpy as np

from model_sweep import _rand, _tf, tf1_graph


def _w(shape, seed, scale=0.3):
    return np.random.RandomState(seed).normal(0, scale, shape).astype(np.float32)


def _sparse_matmul():
    tf = _tf()
    rs = np.random.RandomState(64)
    x = (rs.uniform(0, 1, (4, 40)) * (rs.uniform(0, 1, (4, 40)) < 0.15)).astype(np.float32)

    def body(x):
        tf1 = tf.compat.v1
        h = tf.nn.relu(tf1.matmul(x, _w([40, 16], 1), a_is_sparse=True) + _w([16], 2, 0.1))
        sparse_w = _w([16, 8], 3) * (np.random.RandomState(4).uniform(0, 1, (16, 8)) < 0.3)
        h2 = tf.tanh(tf1.matmul(h, sparse_w.astype(np.float32), b_is_sparse=True))
        logits = tf1.matmul(h2, _w([3, 8], 5), transpose_b=True, a_is_sparse=True,
                            b_is_sparse=True)
        return [tf.nn.softmax(logits), h]
    return tf1_graph(body, [("x", (None, 40), tf.float32, x)])


def _tensor_array_v2_rnn():
    tf = _tf()
    x = _rand((6, 3, 5), seed=64)  # time-major

    def body(x):
        tf1 = tf.compat.v1
        steps = tf.shape(x)[0]
        inputs = tf.TensorArray(tf.float32, size=steps).unstack(x)
        outputs = tf.TensorArray(tf.float32, size=steps)
        w, u = _w([5, 7], 6), _w([7, 7], 7)

        def step(t, h, out):
            h = tf.tanh(tf.matmul(inputs.read(t), w) + tf.matmul(h, u))
            return t + 1, h, out.write(t, h)
        _, h, outputs = tf1.while_loop(lambda t, *_: t < steps, step,
                                       [tf.constant(0), tf.zeros([tf.shape(x)[1], 7]), outputs])
        return [outputs.stack(), h, outputs.size()]
    frozen = tf1_graph(body, [("x", (None, None, 5), tf.float32, x)])

    def build():
        from kernel_cases.tensor_arrays_v2 import to_v2  # pylint: disable=import-outside-toplevel
        graph_def, feeds, extra = frozen()
        return to_v2(graph_def), feeds, extra
    return build


def _ctc_edit_distance():
    tf = _tf()
    logits = _rand((7, 3, 5), seed=65) * 3.0  # [time, batch, classes]; class 4 is blank
    labels = np.array([[1, 2, 3, 0], [2, 2, 0, 0], [3, 1, 1, 2]], np.int32)

    def body(logits, labels):
        lens = tf.fill([tf.shape(logits)[1]], tf.shape(logits)[0])
        (decoded,), _ = tf.nn.ctc_greedy_decoder(logits, lens)
        truth = tf.cast(tf.sparse.from_dense(labels), tf.int64)
        return [tf.edit_distance(decoded, truth),
                tf.edit_distance(decoded, truth, normalize=False),
                tf.sparse.to_dense(decoded, default_value=-1)]
    return tf1_graph(body, [("logits", (None, None, 5), tf.float32, logits),
                            ("labels", (None, None), tf.int32, labels)])


def _quantize_nodes_cnn():
    tf = _tf()
    x = _rand((2, 8, 8, 3), seed=66)

    def q8(seed, shape, rng):  # a quint8 Const of seeded codes and its float range
        codes = np.random.RandomState(seed).randint(0, 256, shape).astype(np.uint8)
        return (tf.constant(codes, dtype=tf.quint8), tf.constant(np.float32(rng[0])),
                tf.constant(np.float32(rng[1])))

    def requantize(t, lo, hi):
        rlo, rhi = tf.raw_ops.RequantizationRange(input=t, input_min=lo, input_max=hi)
        return tf.raw_ops.Requantize(input=t, input_min=lo, input_max=hi,
                                     requested_output_min=rlo, requested_output_max=rhi,
                                     out_type=tf.quint8)

    def body(x):
        r = tf.raw_ops
        q, lo, hi = r.QuantizeV2(input=x, min_range=tf.reduce_min(x), max_range=tf.reduce_max(x),
                                 T=tf.quint8, mode="MIN_FIRST")
        w, wlo, whi = q8(1, [3, 3, 3, 8], (-0.6, 0.5))
        c, clo, chi = r.QuantizedConv2D(input=q, filter=w, min_input=lo, max_input=hi,
                                        min_filter=wlo, max_filter=whi, strides=[1, 1, 1, 1],
                                        padding="SAME")
        c, clo, chi = requantize(c, clo, chi)
        b, blo, bhi = q8(2, [8], (-0.2, 0.3))
        c, clo, chi = r.QuantizedBiasAdd(input=c, bias=b, min_input=clo, max_input=chi,
                                         min_bias=blo, max_bias=bhi, out_type=tf.qint32)
        c, clo, chi = requantize(c, clo, chi)
        c, clo, chi = r.QuantizedRelu(features=c, min_features=clo, max_features=chi)
        p, plo, phi = r.QuantizedMaxPool(input=c, min_input=clo, max_input=chi,
                                         ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")
        a, alo, ahi = r.QuantizedAvgPool(input=c, min_input=clo, max_input=chi,
                                         ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1], padding="SAME")
        w2, w2lo, w2hi = q8(3, [1, 1, 8, 8], (-0.4, 0.7))
        a, alo, ahi = r.QuantizedConv2D(input=a, filter=w2, min_input=alo, max_input=ahi,
                                        min_filter=w2lo, max_filter=w2hi, strides=[1, 1, 1, 1],
                                        padding="VALID")
        a, alo, ahi = requantize(a, alo, ahi)
        cat, catlo, cathi = r.QuantizedConcat(concat_dim=tf.constant(3), values=[p, a],
                                              input_mins=[plo, alo], input_maxes=[phi, ahi])
        flat, flo, fhi = r.QuantizedReshape(tensor=cat, shape=tf.constant([-1, 4 * 4 * 16]),
                                            input_min=catlo, input_max=cathi)
        fw, fwlo, fwhi = q8(4, [4 * 4 * 16, 10], (-0.3, 0.3))
        logits, llo, lhi = r.QuantizedMatMul(a=flat, b=fw, min_a=flo, max_a=fhi, min_b=fwlo,
                                             max_b=fwhi)
        logits8, l8lo, l8hi = requantize(logits, llo, lhi)
        out = r.Dequantize(input=logits8, min_range=l8lo, max_range=l8hi, mode="MIN_FIRST")
        return [tf.nn.softmax(out), r.Dequantize(input=logits, min_range=llo, max_range=lhi,
                                                  mode="MIN_FIRST")]
    return tf1_graph(body, [("x", (None, 8, 8, 3), tf.float32, x)])


def add(m):
    """Registers these models in the sweep's model table (name -> (what it is, builder))."""
    m["tf1_sparse_matmul"] = ("TF1 matmul with a_is_sparse / b_is_sparse (SparseMatMul)",
                              _sparse_matmul())
    m["tf1_tensor_array_v2"] = ("TF 1.0-era dynamic_rnn loop, TensorArray V2 ops",
                                _tensor_array_v2_rnn())
    m["tf1_ctc_edit_distance"] = ("CTC greedy decoding + edit_distance vs sparse labels",
                                  _ctc_edit_distance())
    m["tf1_quantize_nodes_cnn"] = ("eight-bit CNN as graph_transforms quantize_nodes writes it",
                                   _quantize_nodes_cnn())
