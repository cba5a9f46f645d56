"""The models of tools/bench/model_suite.py: each one a frozen GraphDef (seeded random weights,
nothing downloaded) with one input and one output, made once into ~/.cache/rill-bench-models/suite.

MODELS maps a name to (family, builder, input shape, input kind). A builder takes the input shape
and returns a GraphDef whose input placeholder is named "x" and whose output is "Identity".
Input sizes are chosen so each run takes about 1-50 ms on one core of the 2-core benchmark
machine; the large CNNs run below their native 224x224 / 299x299 (see docs/performance.md).
"""
import json
import os

import numpy as np

CACHE = os.path.join(os.path.expanduser("~/.cache/rill-bench-models"), "suite")


def _freeze_fn(fn, spec, lower_control_flow=True):
    """A tf.function of one input, frozen (variables folded into Consts); the placeholder is
    renamed "x" and the result "Identity" by Keras / tf.function's own naming."""
    import tensorflow as tf
    from tensorflow.python.framework import convert_to_constants
    concrete = tf.function(fn).get_concrete_function(spec)
    frozen = convert_to_constants.convert_variables_to_constants_v2(
        concrete, lower_control_flow=lower_control_flow)
    return frozen.graph.as_graph_def()


def _keras(make):
    """A builder freezing the Keras model make(input shape without batch) at a fixed batch."""
    def build(shape, dtype="float32"):
        import tensorflow as tf
        tf.keras.utils.set_random_seed(1)
        model = make(tuple(shape[1:]))
        return _freeze_fn(lambda x: model(x, training=False), tf.TensorSpec(shape, dtype))
    return build


def _app(name, **kw):
    def make(s):
        import tensorflow as tf
        return getattr(tf.keras.applications, name)(weights=None, input_shape=s, **kw)
    return _keras(make)


def _encoder(s):
    """Two Transformer encoder blocks (post-norm): MultiHeadAttention(4 heads of 64) + residual +
    LayerNormalization, Dense 1024 GELU (exact, Erf) + Dense 256 + residual + LayerNormalization."""
    import tensorflow as tf
    k = tf.keras
    x = inp = k.Input(s)
    for _ in range(2):
        a = k.layers.MultiHeadAttention(num_heads=4, key_dim=64)(x, x)
        x = k.layers.LayerNormalization(epsilon=1e-6)(x + a)
        # The exact GELU written with Erf: Keras's "gelu" and tf.nn.gelu use Erfc, which tf2onnx
        # passes on to ONNX, which has no such op.
        f = k.layers.Dense(1024, activation=lambda v: 0.5 * v * (1.0 + tf.math.erf(
            v * 0.7071067811865476)))(x)
        f = k.layers.Dense(s[-1])(f)
        x = k.layers.LayerNormalization(epsilon=1e-6)(x + f)
    x = k.layers.GlobalAveragePooling1D()(x)
    return k.Model(inp, k.layers.Dense(10, activation="softmax")(x))


def _recurrent(layer):
    def make(s):
        import tensorflow as tf
        k = tf.keras
        return k.Sequential([k.Input(s, dtype="int32"), k.layers.Embedding(5000, 64),
                             getattr(k.layers, layer)(128),
                             k.layers.Dense(4, activation="softmax")])
    return make


def _text_cnn(s):
    """Embedding 128 + two Conv1D 128x5 ReLU with max pooling + Dense: a 1-D text classifier."""
    import tensorflow as tf
    k = tf.keras
    return k.Sequential([k.Input(s, dtype="int32"), k.layers.Embedding(20000, 128),
                         k.layers.Conv1D(128, 5, activation="relu"), k.layers.MaxPooling1D(5),
                         k.layers.Conv1D(128, 5, activation="relu"),
                         k.layers.GlobalMaxPooling1D(), k.layers.Dense(64, activation="relu"),
                         k.layers.Dense(1, activation="sigmoid")])


def _tf2_while_rnn(shape):
    """A tanh RNN cell (256 units) written as tf.while_loop over the time steps inside a
    tf.function, frozen without lowering: the graph keeps TF2's While op and its body function."""
    import tensorflow as tf
    rng = np.random.RandomState(1)
    batch, steps, feat = shape
    units = 256
    w = tf.constant(rng.normal(0, 0.1, (feat, units)).astype(np.float32))
    u = tf.constant(rng.normal(0, 0.1, (units, units)).astype(np.float32))
    b = tf.constant(rng.normal(0, 0.1, (units,)).astype(np.float32))
    out = tf.constant(rng.normal(0, 0.1, (units, 10)).astype(np.float32))

    def fn(x):
        xs = tf.transpose(x, [1, 0, 2])

        def body(t, h):
            return t + 1, tf.tanh(tf.matmul(xs[t], w) + tf.matmul(h, u) + b)
        _, h = tf.while_loop(lambda t, h: t < steps, body,
                             (tf.constant(0), tf.zeros([batch, units])))
        return tf.nn.softmax(tf.matmul(h, out))
    return _freeze_fn(fn, tf.TensorSpec(shape, tf.float32, name="x"), lower_control_flow=False)


def _tf1_lrn_cnn(shape):
    """A classic TF1 graph built with tf.compat.v1 ops (no Keras): Conv 7x7/2 64 ReLU, LRN,
    MaxPool 3/2, Conv 3x3 128 ReLU, LRN, MaxPool 3/2, Conv 3x3 192 ReLU, Conv 3x3 21, bilinear
    resize (ResizeBilinear) back to the input size, Softmax: an AlexNet-era segmentation net."""
    import tensorflow as tf
    tf1 = tf.compat.v1
    rng = np.random.RandomState(1)

    def conv(x, k, cin, cout, stride, relu=True):
        w = tf.constant(rng.normal(0, (2.0 / (k * k * cin)) ** 0.5, (k, k, cin, cout))
                        .astype(np.float32))
        b = tf.constant(rng.normal(0, 0.01, (cout,)).astype(np.float32))
        y = tf.nn.bias_add(tf1.nn.conv2d(x, w, [1, stride, stride, 1], "SAME"), b)
        return tf.nn.relu(y) if relu else y

    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, shape, name="x")
        y = conv(x, 7, 3, 64, 2)
        y = tf1.nn.lrn(y, depth_radius=2, bias=2.0, alpha=1e-4, beta=0.75)
        y = tf1.nn.max_pool(y, [1, 3, 3, 1], [1, 2, 2, 1], "SAME")
        y = conv(y, 3, 64, 128, 1)
        y = tf1.nn.lrn(y, depth_radius=2, bias=2.0, alpha=1e-4, beta=0.75)
        y = tf1.nn.max_pool(y, [1, 3, 3, 1], [1, 2, 2, 1], "SAME")
        y = conv(y, 3, 128, 192, 1)
        y = conv(y, 3, 192, 21, 1, relu=False)
        y = tf1.image.resize_bilinear(y, shape[1:3], align_corners=False)
        tf.identity(tf.nn.softmax(y), name="Identity")
    return g.as_graph_def()


def _raw(build):
    return lambda shape, dtype="float32": build(shape)


# name -> (family, builder, input shape, input: "float" uniform in [-1, 1] or "int:N" ids < N)
MODELS = {
    "EfficientNetB0": ("depthwise + swish + SE", _app("EfficientNetB0"), (1, 224, 224, 3),
                       "float"),
    "EfficientNetV2B0": ("depthwise + swish + SE", _app("EfficientNetV2B0"), (1, 224, 224, 3),
                         "float"),
    "MobileNetV3Small": ("depthwise + hard-swish + SE", _app("MobileNetV3Small"),
                         (1, 224, 224, 3), "float"),
    "MobileNetV3Large": ("depthwise + hard-swish + SE", _app("MobileNetV3Large"),
                         (1, 224, 224, 3), "float"),
    "MobileNetV2": ("depthwise-separable", _app("MobileNetV2"), (1, 224, 224, 3), "float"),
    "DenseNet121": ("densely connected", _app("DenseNet121"), (1, 160, 160, 3), "float"),
    "InceptionV3": ("inception", _app("InceptionV3"), (1, 160, 160, 3), "float"),
    "ResNet50": ("residual v1", _app("ResNet50"), (1, 160, 160, 3), "float"),
    "ResNet50V2": ("residual v2", _app("ResNet50V2"), (1, 160, 160, 3), "float"),
    "VGG16": ("VGG", _app("VGG16"), (1, 96, 96, 3), "float"),
    "NASNetMobile": ("NAS cells", _app("NASNetMobile"), (1, 224, 224, 3), "float"),
    "Encoder_b1": ("Transformer encoder", _keras(_encoder), (1, 64, 256), "float"),
    "Encoder_b8": ("Transformer encoder", _keras(_encoder), (8, 64, 256), "float"),
    "GRU_tf1": ("recurrent, TF1 loop", _keras(_recurrent("GRU")), (16, 64), "int:5000"),
    "LSTM_tf1": ("recurrent, TF1 loop", _keras(_recurrent("LSTM")), (16, 64), "int:5000"),
    "RNN_tf2_while": ("recurrent, TF2 While", _raw(_tf2_while_rnn), (16, 64, 64), "float"),
    "TextCNN1D": ("1-D convolution", _keras(_text_cnn), (8, 256), "int:20000"),
    "TF1_LRN_resize": ("classic TF1 graph", _raw(_tf1_lrn_cnn), (1, 224, 224, 3), "float"),
}


def input_value(name):
    _, _, shape, kind = MODELS[name]
    rng = np.random.RandomState(2)
    if kind.startswith("int:"):
        return rng.randint(0, int(kind[4:]), shape).astype(np.int32)
    return rng.uniform(-1, 1, shape).astype(np.float32)


def paths(name):
    """{"pb", "x", "onnx", "onnx_error", "meta"} paths in the cache for a model."""
    base = os.path.join(CACHE, name)
    return {"pb": base + ".pb", "x": base + "_x.npy", "onnx": base + ".onnx",
            "onnx_error": base + ".onnx.error", "meta": base + ".json"}


def make(name):
    """Freezes `name` into the cache unless it is there; returns its paths and metadata
    {"input": tensor, "output": tensor, "nodes": count}."""
    p = paths(name)
    if not os.path.exists(p["meta"]):
        os.makedirs(CACHE, exist_ok=True)
        _, build, shape, kind = MODELS[name]
        graph_def = build(shape, "int32" if kind.startswith("int:") else "float32")
        with open(p["pb"], "wb") as f:
            f.write(graph_def.SerializeToString())
        np.save(p["x"], input_value(name))
        # Keras's frozen recurrent layers keep unread "unused_control_flow_input" placeholders.
        placeholders = [n.name for n in graph_def.node if n.op == "Placeholder"]
        assert "x" in placeholders, (name, placeholders)
        meta = {"input": "x:0", "output": "Identity:0", "nodes": len(graph_def.node)}
        with open(p["meta"], "w") as f:
            json.dump(meta, f)
    with open(p["meta"]) as f:
        return p, json.load(f)


def make_onnx(name):
    """Converts the frozen graph with tf2onnx (opset 17) into the cache; returns the .onnx path,
    or None with the converter's error kept in the cache (the table says which)."""
    p, meta = make(name)
    if os.path.exists(p["onnx"]):
        return p["onnx"]
    if os.path.exists(p["onnx_error"]):
        return None
    import tensorflow as tf
    import tf2onnx
    graph_def = tf.compat.v1.GraphDef()
    with open(p["pb"], "rb") as f:
        graph_def.ParseFromString(f.read())
    try:
        model, _ = tf2onnx.convert.from_graph_def(
            graph_def, input_names=[meta["input"]], output_names=[meta["output"]], opset=17)
        with open(p["onnx"], "wb") as f:
            f.write(model.SerializeToString())
        return p["onnx"]
    except Exception as e:  # the converter raises many kinds; its message is what we report
        with open(p["onnx_error"], "w") as f:
            f.write("%s: %s" % (type(e).__name__, str(e).splitlines()[0][:300] if str(e) else ""))
        return None
