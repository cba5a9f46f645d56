"""Sweeps real model graphs through Rill: each model is built with TensorFlow from seeded weights
(nothing downloaded), frozen the ways users freeze them (convert_variables_to_constants_v2 with
lower_control_flow True and False, or tf.compat.v1's graph_util for TF1 graphs), run in TensorFlow
and in Rill's session_runner on the same inputs, and compared. It prints one row per model:

    model | ref | ops | ran | max rel diff | first error

`ops` is the number of distinct op types (function library included); `max rel diff` is the
largest |Rill - TensorFlow| over the largest |TensorFlow| of each float output (integer, bool
and string outputs must be equal: 0 when they are, "mismatch" when not). A model passes when it
runs and every float output is within 1e-5 relative.

Frozen graphs, inputs and TensorFlow's outputs are cached in ~/.cache/rill-model-sweep (delete a
model's files there to rebuild it). TensorFlow's outputs come from its plain CPU kernels
(TF_ENABLE_ONEDNN_OPTS=0, Grappler off) on the stored graph. Grouped convolutions, which
TensorFlow's CPU kernels refuse, are run by TensorFlow through XLA (jit_compile) instead; the
row's ref column says "xla". A model's name or family says how it was frozen: "_lowered" /
"_while" (lower_control_flow True / False), "tf1_" (tf.compat.v1 graph_util).

    pip install tensorflow-cpu numpy   # only for this script
    bazel build //tools/session_runner
    python3 tests/tfgen/model_sweep.py [--runner PATH] [--list] [NAME-SUBSTRING ...]
    python3 tests/tfgen/model_sweep.py --poison [NAME-SUBSTRING ...]

--poison feeds NaN, +inf and -inf (one element each, one variant each) into every float input,
runs TensorFlow and Rill on each variant and prints one row per model: NaN and +-inf positions
must be equal and finite values within RTOL.

Exit status 1 when any model fails. See docs/model_sweep.md for the last table.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO_ROOT, "tools", "bench"))
import suite_models  # noqa: E402  (the freezing helpers and the suite's hand-built models)

CACHE = os.path.expanduser("~/.cache/rill-model-sweep")
RTOL = 1e-5


# ---------------------------------------------------------------------------------------------
# Freezing helpers. Each builder returns (graph_def, {placeholder: value}, extra) where extra may
# hold "reference": a callable computing TensorFlow's outputs when its graph kernels refuse.

def _tf():
    import tensorflow as tf
    return tf


def _rand(shape, seed=2, lo=-1.0, hi=1.0):
    return np.random.RandomState(seed).uniform(lo, hi, shape).astype(np.float32)


def _ids(shape, n, seed=2, lo=0):
    return np.random.RandomState(seed).randint(lo, n, shape).astype(np.int32)


def _spec(shape, dtype, name):
    return _tf().TensorSpec(shape, dtype, name=name)


def keras_model(make, inputs, lower_control_flow=True, xla_ref=False):
    """A builder freezing the Keras model make() with suite_models._freeze_fn. inputs is a list of
    (name, shape, dtype, value); one input is fed as a tensor, several as a list."""
    def build():
        tf = _tf()
        tf.keras.utils.set_random_seed(1)
        model = make()
        specs = [_spec(s, d, n) for n, s, d, _ in inputs]
        if len(specs) == 1:
            fn, spec = (lambda x: model(x, training=False)), specs[0]
        else:
            fn, spec = (lambda xs: model(list(xs), training=False)), specs
        graph_def = suite_models._freeze_fn(fn, spec, lower_control_flow=lower_control_flow)
        feeds = {n: v for n, _, _, v in inputs}
        extra = {}
        if xla_ref:
            vals = [tf.constant(v) for _, _, _, v in inputs]
            run = tf.function(lambda *xs: model(xs[0] if len(xs) == 1 else list(xs),
                                                training=False), jit_compile=True)
            out = run(*vals)
            extra["reference"] = [np.asarray(o) for o in tf.nest.flatten(out)]
        return graph_def, feeds, extra
    return build


def tf_function(fn, inputs, lower_control_flow=True):
    """A builder freezing a plain function of tensors (no Keras)."""
    def build():
        tf = _tf()
        tf.random.set_seed(1)
        specs = [_spec(s, d, n) for n, s, d, _ in inputs]
        if len(specs) == 1:
            graph_def = suite_models._freeze_fn(fn, specs[0], lower_control_flow)
        else:
            graph_def = suite_models._freeze_fn(lambda xs: fn(*xs), specs, lower_control_flow)
        return graph_def, {n: v for n, _, _, v in inputs}, {}
    return build


def tf1_graph(body, inputs):
    """A builder for a TF1 program: body(placeholders) builds the graph in tf.compat.v1 style (TF1
    control flow, VariableV2 variables) and returns the output tensors; the variables are
    initialized in a Session and frozen with tf.compat.v1.graph_util.convert_variables_to_constants.
    Lookup tables stay in the graph with their initializer, init_all_tables, run before the
    model."""
    def build():
        tf = _tf()
        from tensorflow.python.ops import control_flow_util
        tf1 = tf.compat.v1
        v2 = control_flow_util.ENABLE_CONTROL_FLOW_V2
        control_flow_util.ENABLE_CONTROL_FLOW_V2 = False
        try:
            g = tf.Graph()
            with g.as_default():
                tf1.set_random_seed(1)
                phs = [tf1.placeholder(d, s, name=n) for n, s, d, _ in inputs]
                outs = body(*phs)
                outs = [tf.identity(o, name="Identity" if i == 0 else "Identity_%d" % i)
                        for i, o in enumerate(outs)]
                keep = [o.op.name for o in outs]
                extra = {}
                if tf1.get_collection(tf1.GraphKeys.TABLE_INITIALIZERS):
                    keep.append(tf1.tables_initializer(name="init_all_tables").name)
                    extra["init"] = ["init_all_tables"]
                with tf1.Session(graph=g) as sess:
                    sess.run(tf1.global_variables_initializer())
                    graph_def = tf1.graph_util.convert_variables_to_constants(
                        sess, g.as_graph_def(), keep)
        finally:
            control_flow_util.ENABLE_CONTROL_FLOW_V2 = v2
        return graph_def, {n: v for n, _, _, v in inputs}, extra
    return build


def suite(name, shape=None):
    """A model of tools/bench/suite_models.py, optionally at another input shape."""
    family, build, default_shape, kind = suite_models.MODELS[name]
    shape = shape or default_shape

    def b():
        is_int = kind.startswith("int:")
        graph_def = build(shape, "int32" if is_int else "float32")
        x = _ids(shape, int(kind[4:])) if is_int else _rand(shape)
        return graph_def, {"x": x}, {}
    return b


# ---------------------------------------------------------------------------------------------
# Models.

def _app(name, size, **kw):
    def make():
        return getattr(_tf().keras.applications, name)(weights=None, input_shape=(size, size, 3),
                                                       **kw)
    return keras_model(make, [("x", (1, size, size, 3), "float32", _rand((1, size, size, 3)))])


def _regnet(se):
    """A RegNetX/Y-style network: stem conv, stages of bottleneck blocks with grouped 3x3
    convolutions (group width 8), Squeeze-and-Excitation on the Y variant."""
    def make():
        k = _tf().keras
        L = k.layers
        x = inp = k.Input((32, 32, 3))
        x = L.ReLU()(L.BatchNormalization()(L.Conv2D(16, 3, 2, "same", use_bias=False)(x)))
        for width, stride in ((24, 1), (56, 2)):
            skip = L.BatchNormalization()(L.Conv2D(width, 1, stride, use_bias=False)(x))
            y = L.ReLU()(L.BatchNormalization()(L.Conv2D(width, 1, use_bias=False)(x)))
            y = L.Conv2D(width, 3, stride, "same", groups=width // 8, use_bias=False)(y)
            y = L.ReLU()(L.BatchNormalization()(y))
            if se:
                s = L.GlobalAveragePooling2D(keepdims=True)(y)
                s = L.Conv2D(4, 1, activation="relu")(s)
                s = L.Conv2D(width, 1, activation="sigmoid")(s)
                y = L.Multiply()([y, s])
            y = L.BatchNormalization()(L.Conv2D(width, 1, use_bias=False)(y))
            x = L.ReLU()(L.Add()([skip, y]))
        x = L.GlobalAveragePooling2D()(x)
        return k.Model(inp, L.Dense(10)(x))
    return keras_model(make, [("x", (1, 32, 32, 3), "float32", _rand((1, 32, 32, 3)))],
                       xla_ref=True)


def _resnet_rs():
    """A ResNet-RS-style network: ResNet-D stem (three 3x3 convs), bottleneck blocks with SE and
    an average-pool + 1x1 conv shortcut, dropout before the classifier."""
    def make():
        k = _tf().keras
        L = k.layers
        x = inp = k.Input((32, 32, 3))
        for f, s in ((16, 2), (16, 1), (32, 1)):
            x = L.ReLU()(L.BatchNormalization()(L.Conv2D(f, 3, s, "same", use_bias=False)(x)))
        x = L.MaxPooling2D(3, 2, "same")(x)
        for width in (32, 64):
            skip = L.AveragePooling2D(2, 2, "same")(x)
            skip = L.BatchNormalization()(L.Conv2D(width * 4, 1, use_bias=False)(skip))
            y = L.ReLU()(L.BatchNormalization()(L.Conv2D(width, 1, use_bias=False)(x)))
            y = L.ReLU()(L.BatchNormalization()(L.Conv2D(width, 3, 2, "same", use_bias=False)(y)))
            y = L.BatchNormalization()(L.Conv2D(width * 4, 1, use_bias=False)(y))
            s = L.GlobalAveragePooling2D(keepdims=True)(y)
            s = L.Conv2D(width // 4, 1, activation="relu")(s)
            s = L.Conv2D(width * 4, 1, activation="sigmoid")(s)
            x = L.ReLU()(L.Add()([skip, L.Multiply()([y, s])]))
        x = L.Dropout(0.25)(L.GlobalAveragePooling2D()(x))
        return k.Model(inp, L.Dense(10)(x))
    return keras_model(make, [("x", (1, 32, 32, 3), "float32", _rand((1, 32, 32, 3)))])


def _vit(dynamic=False):
    """ViT: 4x4 patch Conv2D, class token, learned position embedding, two pre-norm blocks of
    MultiHeadAttention and an MLP with Keras's "gelu" (exact), LayerNormalization."""
    def make():
        tf = _tf()
        k = tf.keras
        L = k.layers

        class Tokens(L.Layer):
            def build(self, shape):
                self.cls = self.add_weight(shape=(1, 1, 64), initializer="random_normal")
                self.pos = self.add_weight(shape=(1, 65, 64), initializer="random_normal")

            def call(self, x):
                b = tf.shape(x)[0]
                return tf.concat([tf.tile(self.cls, [b, 1, 1]), x], 1) + self.pos

        x = inp = k.Input((32, 32, 3))
        x = L.Reshape((64, 64))(L.Conv2D(64, 4, 4)(x))
        x = Tokens()(x)
        for _ in range(2):
            y = L.LayerNormalization(epsilon=1e-6)(x)
            x = x + L.MultiHeadAttention(4, 16)(y, y)
            y = L.LayerNormalization(epsilon=1e-6)(x)
            x = x + L.Dense(64)(L.Dense(128, activation="gelu")(y))
        x = L.LayerNormalization(epsilon=1e-6)(x)[:, 0]
        return k.Model(inp, L.Dense(10, activation="softmax")(x))
    inputs = _image_input(32, 2)
    return keras_model(make, _dynamic(inputs) if dynamic else inputs)


def _bert(dynamic=False):
    """A BERT-like encoder: int32 token ids and an int32 attention mask, token + position
    embeddings, LayerNormalization, two blocks of masked MultiHeadAttention and a GELU (tanh
    approximation) MLP, pooled [CLS] output through tanh. dynamic: batch and sequence length
    unknown when frozen."""
    def make():
        tf = _tf()
        k = tf.keras
        L = k.layers

        class Bert(k.Model):
            def __init__(self):
                super().__init__()
                self.tok, self.pos = L.Embedding(1000, 64), L.Embedding(16, 64)
                self.norm0 = L.LayerNormalization(epsilon=1e-12)
                self.blocks = [(L.MultiHeadAttention(4, 16), L.LayerNormalization(epsilon=1e-12),
                                L.Dense(256, activation=lambda v: tf.nn.gelu(v, True)),
                                L.Dense(64), L.LayerNormalization(epsilon=1e-12))
                               for _ in range(2)]
                self.pool = L.Dense(64, activation="tanh")

            def call(self, inputs):
                ids, mask = inputs
                x = self.tok(ids) + self.pos(tf.range(tf.shape(ids)[1])[tf.newaxis, :])
                x = self.norm0(x)
                att_mask = tf.cast(mask[:, tf.newaxis, :], tf.bool)
                for att, n1, d1, d2, n2 in self.blocks:
                    x = n1(x + att(x, x, attention_mask=att_mask))
                    x = n2(x + d2(d1(x)))
                return x, self.pool(x[:, 0])
        return Bert()
    mask = np.ones((2, 16), np.int32)
    mask[0, 10:] = 0
    shape = (None, None) if dynamic else (2, 16)
    return keras_model(make, [("ids", shape, "int32", _ids((2, 16), 1000)),
                              ("mask", shape, "int32", mask)])


def _unet():
    """U-Net: Conv2D + MaxPooling down, Conv2DTranspose and UpSampling2D (bilinear and nearest)
    up, Concatenate skips, sigmoid mask."""
    def make():
        k = _tf().keras
        L = k.layers
        x = inp = k.Input((32, 32, 3))
        c1 = L.Conv2D(8, 3, padding="same", activation="relu")(x)
        c2 = L.Conv2D(16, 3, padding="same", activation="relu")(L.MaxPooling2D()(c1))
        c3 = L.Conv2D(32, 3, padding="same", activation="relu")(L.MaxPooling2D()(c2))
        u2 = L.Conv2DTranspose(16, 3, 2, padding="same")(c3)
        u2 = L.Conv2D(16, 3, padding="same", activation="relu")(L.Concatenate()([u2, c2]))
        u1 = L.UpSampling2D(interpolation="bilinear")(u2)
        u1b = L.UpSampling2D(interpolation="nearest")(u2)
        u1 = L.Concatenate()([u1, u1b, c1])
        u1 = L.Conv2DTranspose(8, 2, 1, padding="valid")(u1)
        return k.Model(inp, L.Conv2D(1, 2, activation="sigmoid")(u1))
    return keras_model(make, [("x", (1, 32, 32, 3), "float32", _rand((1, 32, 32, 3)))])


def _wavenet():
    """WaveNet-like: causal dilated Conv1D stack (dilations 1..8) with gated tanh * sigmoid
    units, residual and skip 1x1 convolutions."""
    def make():
        k = _tf().keras
        L = k.layers
        x = inp = k.Input((64, 1))
        x = L.Conv1D(16, 2, padding="causal")(x)
        skips = []
        for d in (1, 2, 4, 8):
            t = L.Conv1D(16, 2, padding="causal", dilation_rate=d, activation="tanh")(x)
            s = L.Conv1D(16, 2, padding="causal", dilation_rate=d, activation="sigmoid")(x)
            z = L.Multiply()([t, s])
            skips.append(L.Conv1D(16, 1)(z))
            x = L.Add()([x, L.Conv1D(16, 1)(z)])
        y = L.ReLU()(L.Add()(skips))
        return k.Model(inp, L.Conv1D(8, 1, activation="softmax")(y))
    return keras_model(make, [("x", (2, 64, 1), "float32", _rand((2, 64, 1)))])


def _deeplab():
    """DeepLab-like: backbone convs, ASPP of atrous Conv2D (rates 2, 4, 6) and image pooling,
    bilinear resize (tf.image.resize) back to the input size."""
    def make():
        tf = _tf()
        k = tf.keras
        L = k.layers
        x = inp = k.Input((32, 32, 3))
        x = L.Conv2D(16, 3, 2, "same", activation="relu")(x)
        x = L.Conv2D(32, 3, 2, "same", activation="relu")(x)
        branches = [L.Conv2D(16, 1, activation="relu")(x)]
        for r in (2, 4, 6):
            branches.append(L.Conv2D(16, 3, padding="same", dilation_rate=r,
                                     activation="relu")(x))
        pool = L.GlobalAveragePooling2D(keepdims=True)(x)
        pool = L.Conv2D(16, 1, activation="relu")(pool)
        branches.append(L.Lambda(lambda t: tf.image.resize(t, (8, 8)))(pool))
        y = L.Conv2D(16, 1, activation="relu")(L.Concatenate()(branches))
        y = L.Conv2D(5, 1)(y)
        return k.Model(inp, L.Lambda(lambda t: tf.image.resize(t, (32, 32)))(y))
    return keras_model(make, [("x", (1, 32, 32, 3), "float32", _rand((1, 32, 32, 3)))])


def _rnn(kind, lower):
    """Recurrent text models on int32 ids (Embedding, mask_zero where named)."""
    def make():
        k = _tf().keras
        L = k.layers
        ids = k.Input((12,), dtype="int32")
        if kind == "bilstm":
            x = L.Embedding(500, 16)(ids)
            x = L.Bidirectional(L.LSTM(16))(x)
        elif kind == "bigru":
            x = L.Embedding(500, 16)(ids)
            x = L.Bidirectional(L.GRU(16, return_sequences=True))(x)
            x = L.GlobalAveragePooling1D()(x)
        elif kind == "stacked":
            x = L.Embedding(500, 16)(ids)
            x = L.LSTM(16, return_sequences=True)(x)
            x = L.GRU(16, return_sequences=True)(x)
            x = L.LSTM(16)(x)
        elif kind == "simplernn":
            x = L.Embedding(500, 16)(ids)
            x = L.SimpleRNN(16, return_sequences=True)(x)
            x = L.SimpleRNN(16)(x)
        elif kind == "masked":
            x = L.Embedding(500, 16, mask_zero=True)(ids)
            x = L.LSTM(16)(x)
        return k.Model(ids, L.Dense(4, activation="softmax")(x))
    ids = _ids((3, 12), 500)
    if kind == "masked":
        ids[0, 8:] = 0
        ids[1, 4:] = 0
    return keras_model(make, [("x", (3, 12), "int32", ids)], lower_control_flow=lower)


def _masking(lower):
    """Masking layer on float sequences ahead of an LSTM (zero time steps skipped)."""
    def make():
        k = _tf().keras
        L = k.layers
        x = inp = k.Input((10, 6))
        x = L.Masking(0.0)(x)
        x = L.LSTM(8, return_sequences=True)(x)
        return k.Model(inp, L.TimeDistributed(L.Dense(3))(x))
    x = _rand((2, 10, 6))
    x[0, 6:] = 0
    return keras_model(make, [("x", (2, 10, 6), "float32", x)], lower_control_flow=lower)


def _convlstm(lower):
    def make():
        k = _tf().keras
        L = k.layers
        x = inp = k.Input((4, 8, 8, 2))
        x = L.ConvLSTM2D(4, 3, padding="same", return_sequences=True)(x)
        x = L.ConvLSTM2D(4, 3, padding="same")(x)
        return k.Model(inp, L.Conv2D(1, 1)(x))
    return keras_model(make, [("x", (1, 4, 8, 8, 2), "float32", _rand((1, 4, 8, 8, 2)))],
                       lower_control_flow=lower)


def _seq2seq(lower):
    """Encoder LSTM + decoder LSTM initialized from its state, Luong Attention over the encoder
    outputs, concatenated context, Dense softmax per step."""
    def make():
        k = _tf().keras
        L = k.layers
        enc_in = k.Input((10,), dtype="int32")
        dec_in = k.Input((7,), dtype="int32")
        e = L.Embedding(300, 16)(enc_in)
        enc, h, c = L.LSTM(16, return_sequences=True, return_state=True)(e)
        d = L.Embedding(300, 16)(dec_in)
        dec = L.LSTM(16, return_sequences=True)(d, initial_state=[h, c])
        ctx = L.Attention(use_scale=True)([dec, enc])
        y = L.Concatenate()([dec, ctx])
        y2 = L.AdditiveAttention()([dec, enc])
        y = L.Concatenate()([y, y2])
        return k.Model([enc_in, dec_in], L.Dense(300, activation="softmax")(y))
    return keras_model(make, [("enc", (2, 10), "int32", _ids((2, 10), 300)),
                              ("dec", (2, 7), "int32", _ids((2, 7), 300, seed=3))],
                       lower_control_flow=lower)


def _detection():
    """Detection post-processing on raw boxes and scores: NonMaxSuppressionV4 (padded) and V5
    (soft-NMS sigma), CombinedNonMaxSuppression, CropAndResize of the kept boxes, TopKV2 and
    GatherNd."""
    tf = _tf()
    rng = np.random.RandomState(4)
    yx = rng.uniform(0, 0.7, (32, 2)).astype(np.float32)
    hw = rng.uniform(0.1, 0.3, (32, 2)).astype(np.float32)
    boxes = np.concatenate([yx, yx + hw], 1)
    scores = rng.uniform(0, 1, (32,)).astype(np.float32)
    image = _rand((1, 16, 16, 3))

    def fn(boxes, scores, image):
        idx4, n4 = tf.raw_ops.NonMaxSuppressionV4(
            boxes=boxes, scores=scores, max_output_size=10, iou_threshold=0.5,
            score_threshold=0.2, pad_to_max_output_size=True)
        idx5, sc5, n5 = tf.raw_ops.NonMaxSuppressionV5(
            boxes=boxes, scores=scores, max_output_size=10, iou_threshold=0.5,
            score_threshold=0.1, soft_nms_sigma=0.5, pad_to_max_output_size=False)
        cb, cs, cc, cv = tf.image.combined_non_max_suppression(
            tf.reshape(boxes, [1, 32, 1, 4]), tf.reshape(tf.stack([scores, 1 - scores], 1),
                                                           [1, 32, 2]),
            max_output_size_per_class=5, max_total_size=8, iou_threshold=0.5,
            score_threshold=0.1)
        kept = tf.gather(boxes, idx4[:4])
        crops = tf.image.crop_and_resize(image, kept, tf.zeros([4], tf.int32), [5, 5])
        top, top_i = tf.math.top_k(scores, 6)
        pairs = tf.stack([top_i, tf.zeros_like(top_i)], 1)
        gathered = tf.gather_nd(boxes, pairs)
        return idx4, n4, idx5, sc5, n5, cb, cs, cc, cv, crops, top, gathered
    return tf_function(fn, [("boxes", (32, 4), tf.float32, boxes),
                            ("scores", (32,), tf.float32, scores),
                            ("image", (1, 16, 16, 3), tf.float32, image)])


def _preprocess_image():
    """Image preprocessing layers: Rescaling, Resizing (bilinear), CenterCrop, Normalization
    (adapted mean and variance), then a small conv classifier."""
    def make():
        k = _tf().keras
        L = k.layers
        norm = L.Normalization()
        norm.adapt(_rand((8, 20, 20, 3), seed=5, lo=0, hi=1))
        x = inp = k.Input((24, 24, 3))
        x = L.Rescaling(1 / 255.0)(x)
        x = L.Resizing(20, 20)(x)
        x = L.CenterCrop(16, 16)(x)
        x = norm(x)
        x = L.Conv2D(4, 3, activation="relu")(x)
        return k.Model(inp, L.Dense(3)(L.Flatten()(x)))
    return keras_model(make, [("x", (2, 24, 24, 3), "float32",
                               _rand((2, 24, 24, 3), lo=0, hi=255))])


def _preprocess_tabular():
    """Tabular preprocessing: Hashing + CategoryEncoding (count), Discretization + CategoryEncoding
    (multi_hot) of numeric features, concatenated into a Dense."""
    def make():
        tf = _tf()
        k = tf.keras
        L = k.layers

        class Tabular(k.Model):
            def __init__(self):
                super().__init__()
                self.hash = L.Hashing(num_bins=8)
                self.count = L.CategoryEncoding(num_tokens=8, output_mode="count")
                self.disc = L.Discretization(bin_boundaries=[-0.5, 0.0, 0.5])
                self.multi = L.CategoryEncoding(num_tokens=4, output_mode="multi_hot")
                self.dense = L.Dense(2)

            def call(self, inputs):
                cat, num = inputs
                x = tf.concat([self.count(self.hash(cat)), self.multi(self.disc(num)), num], 1)
                return self.dense(x)
        return Tabular()
    cat = np.array([[3, 7, 5], [42, 0, 11], [19, 19, 100], [1, 2, 3]], np.int64)
    return keras_model(make, [("cat", (4, 3), "int64", cat), ("num", (4, 2), "float32",
                                                               _rand((4, 2)))])


def _tf1_text():
    """A TF1 text classifier on raw strings, as TextVectorization and StringLookup compute it
    (their tables cannot be frozen by convert_variables_to_constants_v2, which leaves the table
    handle a Placeholder): lower-case, strip punctuation, split on whitespace (ragged), look the
    words up in a StaticHashTable, pad to 8 (RaggedTensorToTensor), Embedding mean, and a
    categorical string feature through a second table and one_hot. The tables are initialized by
    init_all_tables, run before the model."""
    tf = _tf()
    tf1 = tf.compat.v1
    words = ["the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "hello", "world"]

    def body(text, color):
        vocab = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(
            tf.constant(words), tf.range(2, len(words) + 2, dtype=tf.int64)), default_value=1)
        colors = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(
            tf.constant(["red", "green", "blue"]), tf.constant([0, 1, 2], tf.int64)),
            default_value=3)
        t = tf.strings.lower(text)
        t = tf.strings.regex_replace(t, "[%s]" % re.escape("!\"#$%&()*+,-./:;<=>?@[\\]^_`{|}~"),
                                     "")
        tokens = tf.strings.split(t)
        ids = tf.ragged.map_flat_values(vocab.lookup, tokens).to_tensor(0, shape=[None, 8])
        emb = tf1.get_variable("emb", [12, 8], use_resource=False,
                               initializer=tf1.random_normal_initializer(seed=1))
        x = tf.reduce_mean(tf.nn.embedding_lookup(emb, ids), 1)
        c = tf.one_hot(colors.lookup(color), 4)
        w = tf1.get_variable("w", [12, 2], use_resource=False,
                             initializer=tf1.glorot_uniform_initializer(seed=2))
        return [tf.matmul(tf.concat([x, c], 1), w), ids]
    text = np.array([b"The quick brown FOX!", b"hello world, hello dog", b"unknown words here"])
    color = np.array([b"red", b"blue", b"purple"])
    return tf1_graph(body, [("text", (None,), tf.string, text), ("color", (None,), tf.string,
                                                                     color)])


def _var(name, shape, seed):
    tf1 = _tf().compat.v1
    return tf1.get_variable(name, shape, use_resource=False,
                            initializer=tf1.glorot_uniform_initializer(seed=seed))


def _tf1_mlp():
    """A TF1 MLP with tf.compat.v1 variables (VariableV2) and FusedBatchNorm in inference mode."""
    tf = _tf()
    tf1 = tf.compat.v1

    def body(x):
        h = tf.nn.relu(tf.matmul(x, _var("w1", [20, 32], 1)) + _var("b1", [32], 2))
        h4 = tf.reshape(h, [-1, 1, 1, 32])
        mean, var = tf.constant(np.linspace(-0.1, 0.1, 32, dtype=np.float32)), \
            tf.constant(np.linspace(0.5, 1.5, 32, dtype=np.float32))
        h4, _, _ = tf1.nn.fused_batch_norm(h4, _var("g", [32], 3), _var("be", [32], 4), mean,
                                           var, is_training=False)
        h = tf.reshape(h4, [-1, 32])
        return [tf.nn.softmax(tf.matmul(h, _var("w2", [32, 5], 5)))]
    return tf1_graph(body, [("x", (None, 20), tf.float32, _rand((4, 20)))])


def _tf1_cnn():
    """A TF1 CNN: conv2d, max_pool, separable_conv2d, avg_pool, dense."""
    tf = _tf()
    tf1 = tf.compat.v1

    def body(x):
        h = tf.nn.relu(tf1.nn.conv2d(x, _var("c1", [3, 3, 3, 8], 1), [1, 1, 1, 1], "SAME"))
        h = tf1.nn.max_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
        h = tf.nn.relu6(tf1.nn.separable_conv2d(h, _var("dw", [3, 3, 8, 1], 2),
                                                _var("pw", [1, 1, 8, 16], 3), [1, 1, 1, 1],
                                                "VALID"))
        h = tf1.nn.avg_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
        h = tf.reshape(h, [-1, 3 * 3 * 16])
        return [tf.matmul(h, _var("fc", [144, 10], 4))]
    return tf1_graph(body, [("x", (None, 16, 16, 3), tf.float32, _rand((2, 16, 16, 3)))])


class _Cell(object):
    """The part of an RNNCell tf.compat.v1.nn.dynamic_rnn needs: an LSTM (state c and h
    concatenated) or a GRU with tf.compat.v1 variables (Keras 3 has no TF1 cells)."""

    def __init__(self, units, gru, name):
        self.units, self.gru, self.name = units, gru, name
        self.state_size = units if gru else 2 * units
        self.output_size = units

    def zero_state(self, batch, dtype):
        return _tf().zeros([batch, self.state_size], dtype)

    def __call__(self, x, state):
        tf = _tf()
        tf1 = tf.compat.v1
        u = self.units
        with tf1.variable_scope(self.name, reuse=tf1.AUTO_REUSE):
            if self.gru:
                zr = tf.sigmoid(tf.matmul(tf.concat([x, state], 1),
                                          _var("zr", [x.shape[-1] + u, 2 * u], 1)))
                z, r = tf.split(zr, 2, 1)
                c = tf.tanh(tf.matmul(tf.concat([x, r * state], 1),
                                      _var("c", [x.shape[-1] + u, u], 2)))
                h = z * state + (1 - z) * c
                return h, h
            c, h = tf.split(state, 2, 1)
            g = tf.matmul(tf.concat([x, h], 1), _var("k", [x.shape[-1] + u, 4 * u], 3))
            i, j, f, o = tf.split(g + _var("b", [4 * u], 4), 4, 1)
            c = tf.sigmoid(f + 1.0) * c + tf.sigmoid(i) * tf.tanh(j)
            h = tf.sigmoid(o) * tf.tanh(c)
            return h, tf.concat([c, h], 1)


def _tf1_dynamic_rnn():
    """TF1 dynamic_rnn over an LSTM cell with sequence_length: a TF1 while loop (Enter, Merge,
    Switch, NextIteration, Exit) with TensorArrays."""
    tf = _tf()
    tf1 = tf.compat.v1

    def body(x, lengths):
        outs, state = tf1.nn.dynamic_rnn(_Cell(12, False, "lstm"), x, sequence_length=lengths,
                                         dtype=tf.float32)
        return [outs, state]
    return tf1_graph(body, [("x", (3, 7, 5), tf.float32, _rand((3, 7, 5))),
                            ("lengths", (3,), tf.int32, np.array([7, 3, 5], np.int32))])


def _tf1_bidirectional_gru():
    tf = _tf()
    tf1 = tf.compat.v1

    def body(x):
        (of, ob), _ = tf1.nn.bidirectional_dynamic_rnn(
            _Cell(8, True, "fw"), _Cell(8, True, "bw"), x, dtype=tf.float32)
        return [tf.concat([of, ob], 2)]
    return tf1_graph(body, [("x", (2, 6, 4), tf.float32, _rand((2, 6, 4)))])


def _image_input(size=32, batch=1):
    return [("x", (batch, size, size, 3), "float32", _rand((batch, size, size, 3)))]


def _dynamic(inputs):
    return [(n, (None,) + tuple(s[1:]), d, v) for n, s, d, v in inputs]


def _swin():
    """A Swin-Transformer block pair: patch embedding, window partition (reshape/transpose),
    window attention with a relative position bias table (gather), shifted windows (tf.roll)
    with the shift mask, patch merging."""
    def make():
        tf = _tf()
        k = tf.keras
        L = k.layers
        ws, dim, heads = 4, 32, 2

        class Block(L.Layer):
            def __init__(self, shift):
                super().__init__()
                self.shift = shift
                self.norm1, self.norm2 = L.LayerNormalization(), L.LayerNormalization()
                self.qkv, self.proj = L.Dense(3 * dim), L.Dense(dim)
                self.mlp1, self.mlp2 = L.Dense(2 * dim, activation="gelu"), L.Dense(dim)

            def build(self, shape):
                self.table = self.add_weight(shape=((2 * ws - 1) ** 2, heads),
                                             initializer="random_normal")
                c = np.stack(np.meshgrid(np.arange(ws), np.arange(ws), indexing="ij"))
                c = c.reshape(2, -1)
                rel = (c[:, :, None] - c[:, None, :]).transpose(1, 2, 0) + ws - 1
                self.index = (rel[..., 0] * (2 * ws - 1) + rel[..., 1]).reshape(-1)
                mask = np.zeros((1, 8, 8, 1), np.float32)
                if self.shift:
                    n = 0
                    for h in (slice(0, -ws), slice(-ws, -self.shift), slice(-self.shift, None)):
                        for w in (slice(0, -ws), slice(-ws, -self.shift),
                                  slice(-self.shift, None)):
                            mask[:, h, w, :] = n
                            n += 1
                mw = mask.reshape(1, 2, ws, 2, ws, 1).transpose(0, 1, 3, 2, 4, 5)
                mw = mw.reshape(-1, ws * ws)
                am = mw[:, None, :] - mw[:, :, None]
                self.attn_mask = np.where(am != 0, -100.0, 0.0).astype(np.float32)

            def call(self, x):
                b = tf.shape(x)[0]
                y = self.norm1(x)
                if self.shift:
                    y = tf.roll(y, [-self.shift, -self.shift], [1, 2])
                y = tf.reshape(y, [b, 2, ws, 2, ws, dim])
                y = tf.reshape(tf.transpose(y, [0, 1, 3, 2, 4, 5]), [-1, ws * ws, dim])
                qkv = tf.reshape(self.qkv(y), [-1, ws * ws, 3, heads, dim // heads])
                q, kk, v = tf.unstack(tf.transpose(qkv, [2, 0, 3, 1, 4]))
                a = tf.matmul(q * (dim // heads) ** -0.5, kk, transpose_b=True)
                bias = tf.reshape(tf.gather(self.table, self.index), [ws * ws, ws * ws, heads])
                a = a + tf.transpose(bias, [2, 0, 1])[tf.newaxis]
                a = tf.reshape(a, [b, 4, heads, ws * ws, ws * ws]) + \
                    self.attn_mask[np.newaxis, :, np.newaxis]
                a = tf.nn.softmax(tf.reshape(a, [-1, heads, ws * ws, ws * ws]))
                y = tf.reshape(tf.transpose(tf.matmul(a, v), [0, 2, 1, 3]), [-1, ws * ws, dim])
                y = tf.reshape(self.proj(y), [b, 2, 2, ws, ws, dim])
                y = tf.reshape(tf.transpose(y, [0, 1, 3, 2, 4, 5]), [b, 8, 8, dim])
                if self.shift:
                    y = tf.roll(y, [self.shift, self.shift], [1, 2])
                x = x + y
                return x + self.mlp2(self.mlp1(self.norm2(x)))

        x = inp = k.Input((32, 32, 3))
        x = L.Conv2D(dim, 4, 4)(x)
        x = Block(0)(x)
        x = Block(2)(x)
        x = L.Lambda(lambda t: tf.concat([t[:, 0::2, 0::2], t[:, 1::2, 0::2], t[:, 0::2, 1::2],
                                          t[:, 1::2, 1::2]], -1))(x)
        x = L.Dense(2 * dim, use_bias=False)(L.LayerNormalization()(x))
        return k.Model(inp, L.Dense(10)(L.GlobalAveragePooling2D()(x)))
    return keras_model(make, _image_input())


def _mixer():
    """MLP-Mixer and ConvMixer blocks: token mixing by transposed Dense, depthwise conv with
    GELU, BatchNorm, residuals."""
    def make():
        k = _tf().keras
        L = k.layers
        x = inp = k.Input((32, 32, 3))
        x = L.Conv2D(32, 4, 4)(x)
        y = L.BatchNormalization()(L.Activation("gelu")(L.DepthwiseConv2D(5, padding="same")(x)))
        x = L.Add()([x, y])
        x = L.BatchNormalization()(L.Activation("gelu")(L.Conv2D(32, 1)(x)))
        x = L.Reshape((64, 32))(x)
        y = L.Permute((2, 1))(L.LayerNormalization()(x))
        y = L.Dense(64)(L.Dense(128, activation="gelu")(y))
        x = L.Add()([x, L.Permute((2, 1))(y)])
        y = L.Dense(32)(L.Dense(64, activation="gelu")(L.LayerNormalization()(x)))
        x = L.Add()([x, y])
        return k.Model(inp, L.Dense(10)(L.GlobalAveragePooling1D()(x)))
    return keras_model(make, _image_input())


def _yolo():
    """A YOLO-like detector: LeakyReLU convs, SPP (max pools 5, 9, 13 SAME), nearest upsampling
    into a second scale, and box decoding (sigmoid, exp, grid offsets, anchors)."""
    def make():
        tf = _tf()
        k = tf.keras
        L = k.layers

        def conv(x, f, s=1):
            x = L.Conv2D(f, 3, s, "same", use_bias=False)(x)
            return L.LeakyReLU(0.1)(L.BatchNormalization()(x))
        x = inp = k.Input((64, 64, 3))
        c3 = conv(conv(conv(x, 8, 2), 16, 2), 32, 2)
        c4 = conv(c3, 64, 2)
        spp = L.Concatenate()([c4] + [L.MaxPooling2D(p, 1, "same")(c4) for p in (5, 9, 13)])
        c4 = conv(spp, 64)
        up = L.Concatenate()([L.UpSampling2D()(L.Conv2D(32, 1)(c4)), c3])
        outs = []
        for feat, g in ((c4, 4), (conv(up, 32), 8)):
            p = L.Reshape((g, g, 2, 7))(L.Conv2D(2 * 7, 1)(feat))

            def decode(p, g=g):
                gy, gx = tf.meshgrid(tf.range(g), tf.range(g), indexing="ij")
                grid = tf.cast(tf.stack([gx, gy], -1), tf.float32)[tf.newaxis, :, :, tf.newaxis]
                xy = (tf.sigmoid(p[..., :2]) + grid) / g
                wh = tf.exp(tf.clip_by_value(p[..., 2:4], -4.0, 4.0)) * \
                    tf.constant([[0.1, 0.2], [0.3, 0.15]])
                return tf.reshape(tf.concat([xy, wh, tf.sigmoid(p[..., 4:])], -1), [-1, g * g * 2,
                                                                                     7])
            outs.append(L.Lambda(decode)(p))
        return k.Model(inp, L.Concatenate(axis=1)(outs))
    return keras_model(make, _image_input(64))


def _crnn_ctc(beam):
    """A CRNN text recognizer: convs over a 16x64 line image, columns to a sequence, a
    Bidirectional LSTM, per-step log-softmax and CTC greedy (or beam-search) decoding."""
    tf = _tf()

    def make():
        k = tf.keras
        L = k.layers
        x = inp = k.Input((16, 64, 1))
        x = L.MaxPooling2D()(L.Conv2D(8, 3, padding="same", activation="relu")(x))
        x = L.MaxPooling2D((2, 1))(L.Conv2D(16, 3, padding="same", activation="relu")(x))
        x = L.Reshape((32, 4 * 16))(L.Permute((2, 1, 3))(x))
        x = L.Bidirectional(L.LSTM(16, return_sequences=True))(x)
        return k.Model(inp, L.Dense(11, activation="log_softmax")(x))

    def build():
        tf.keras.utils.set_random_seed(1)
        model = make()

        def fn(x):
            logp = model(x, training=False)
            t = tf.transpose(logp, [1, 0, 2])
            lengths = tf.fill([tf.shape(x)[0]], 32)
            if beam:
                (decoded,), p = tf.nn.ctc_beam_search_decoder(t, lengths, beam_width=4,
                                                              top_paths=1)
            else:
                (decoded,), p = tf.nn.ctc_greedy_decoder(t, lengths)
            return logp, tf.sparse.to_dense(decoded, -1), p
        x = _rand((2, 16, 64, 1))
        graph_def = suite_models._freeze_fn(fn, _spec((2, 16, 64, 1), "float32", "x"))
        return graph_def, {"x": x}, {}
    return build


def _video3d():
    """3-D convolutions over a short clip: Conv3D, MaxPooling3D, AveragePooling3D,
    Conv3DTranspose, UpSampling3D, GlobalAveragePooling3D; and TimeDistributed Conv2D."""
    def make():
        k = _tf().keras
        L = k.layers
        x = inp = k.Input((4, 16, 16, 3))
        t = L.TimeDistributed(L.Conv2D(4, 3, padding="same", activation="relu"))(x)
        x = L.Conv3D(8, 3, padding="same", activation="relu")(x)
        x = L.Concatenate()([x, t])
        x = L.MaxPooling3D((1, 2, 2))(x)
        x = L.Conv3D(16, (2, 3, 3), strides=(2, 1, 1), activation="relu")(x)
        y = L.Conv3DTranspose(8, 2, strides=2)(x)
        y = L.AveragePooling3D(2)(L.UpSampling3D((1, 2, 2))(y))
        return k.Model(inp, [L.Dense(5)(L.GlobalAveragePooling3D()(x)), y])
    return keras_model(make, [("x", (1, 4, 16, 16, 3), "float32", _rand((1, 4, 16, 16, 3)))])


def _conv_zoo():
    """Convolution variants: Conv1DTranspose, SeparableConv1D, DepthwiseConv1D, dilated
    SeparableConv2D and DepthwiseConv2D, strided Conv2DTranspose with output padding,
    Cropping/ZeroPadding, PReLU, ELU, ReLU with threshold and max value."""
    def make():
        k = _tf().keras
        L = k.layers
        s = inp1 = k.Input((32, 4))
        s = L.Conv1DTranspose(8, 3, strides=2, padding="same")(s)
        s = L.SeparableConv1D(8, 3, dilation_rate=2, activation="elu")(s)
        s = L.DepthwiseConv1D(3, depth_multiplier=2)(s)
        s = L.GlobalMaxPooling1D()(L.Cropping1D((1, 2))(L.ZeroPadding1D(2)(s)))
        x = inp2 = k.Input((16, 16, 3))
        x = L.SeparableConv2D(8, 3, dilation_rate=2, padding="same")(x)
        x = L.PReLU()(x)
        x = L.DepthwiseConv2D(3, dilation_rate=2, padding="same", depth_multiplier=2)(x)
        x = L.ReLU(max_value=2.0, threshold=0.1, negative_slope=0.05)(x)
        x = L.Conv2DTranspose(4, 3, strides=2, padding="same", output_padding=1)(x)
        x = L.Cropping2D(((1, 2), (3, 0)))(L.ZeroPadding2D(((0, 1), (2, 1)))(x))
        x = L.GlobalMaxPooling2D()(x)
        return k.Model([inp1, inp2], L.Dense(3)(L.Concatenate()([s, x])))
    return keras_model(make, [("a", (2, 32, 4), "float32", _rand((2, 32, 4))),
                              ("b", (2, 16, 16, 3), "float32", _rand((2, 16, 16, 3), seed=3))])


def _activations():
    """Every Keras activation by name on a Dense layer, concatenated."""
    names = ["celu", "elu", "exponential", "gelu", "glu", "hard_shrink", "hard_sigmoid",
             "hard_silu", "hard_tanh", "leaky_relu", "linear", "log_sigmoid", "log_softmax",
             "mish", "relu", "relu6", "selu", "sigmoid", "silu", "soft_shrink", "softmax",
             "softplus", "softsign", "sparse_plus", "sparsemax", "squareplus", "tanh",
             "tanh_shrink"]

    def make():
        import keras
        k = _tf().keras
        L = k.layers
        x = inp = k.Input((12,))
        outs = []
        for n in names:
            try:
                keras.activations.get(n)
            except ValueError:
                continue
            outs.append(L.Dense(6, activation=n)(x))
        return k.Model(inp, L.Concatenate()(outs))
    return keras_model(make, [("x", (4, 12), "float32", _rand((4, 12), lo=-3, hi=3))])


def _norm_zoo():
    """Normalization layers: GroupNormalization, UnitNormalization, LayerNormalization over two
    axes and with rms_scaling, BatchNormalization on a sequence, tf.math.l2_normalize."""
    def make():
        tf = _tf()
        k = tf.keras
        L = k.layers
        x = inp = k.Input((8, 8, 16))
        a = L.GroupNormalization(groups=4)(x)
        b = L.UnitNormalization()(x)
        c = L.LayerNormalization(axis=[1, 2, 3])(x)
        d = L.LayerNormalization(rms_scaling=True)(x)
        e = L.Reshape((64, 16))(L.BatchNormalization(momentum=0.5, epsilon=0.01)(x))
        f = L.Lambda(lambda t: tf.math.l2_normalize(t, axis=-1))(x)
        y = L.Concatenate()([a, b, c, d, f])
        return k.Model(inp, [y, L.LayerNormalization(center=False)(e)])
    return keras_model(make, [("x", (2, 8, 8, 16), "float32", _rand((2, 8, 8, 16)))])


def _image_ops():
    """tf.image as serving code uses it: resize (bilinear, nearest, bicubic, area, lanczos3,
    antialiased), grayscale, HSV, contrast, per-image standardization, extract_patches, rot90,
    flips, crop and pad to a bounding box, Sobel edges, total variation."""
    tf = _tf()

    def fn(x):
        outs = [tf.image.resize(x, (20, 12), m) for m in ("bilinear", "nearest", "bicubic",
                                                         "area", "lanczos3")]
        outs.append(tf.image.resize(x, (8, 8), "bilinear", antialias=True))
        outs.append(tf.image.resize(x, (20, 20), preserve_aspect_ratio=True))
        outs.append(tf.compat.v1.image.resize_bilinear(x, (20, 12), align_corners=True))
        outs.append(tf.compat.v1.image.resize_nearest_neighbor(x, (20, 12),
                                                               half_pixel_centers=True))
        outs.append(tf.image.rgb_to_grayscale(x))
        outs.append(tf.image.hsv_to_rgb(tf.image.rgb_to_hsv(tf.abs(x))))
        outs.append(tf.image.adjust_contrast(x, 1.5))
        outs.append(tf.image.adjust_saturation(tf.abs(x), 0.7))
        outs.append(tf.image.adjust_hue(tf.abs(x), 0.2))
        outs.append(tf.image.per_image_standardization(x))
        outs.append(tf.image.extract_patches(x, [1, 4, 4, 1], [1, 4, 4, 1], [1, 1, 1, 1],
                                             "VALID"))
        outs.append(tf.image.rot90(x, 3))
        outs.append(tf.image.flip_left_right(tf.image.flip_up_down(x)))
        outs.append(tf.image.pad_to_bounding_box(tf.image.crop_to_bounding_box(x, 2, 3, 10, 9),
                                                 1, 2, 14, 14))
        outs.append(tf.image.central_crop(x, 0.5))
        outs.append(tf.image.sobel_edges(x))
        outs.append(tf.image.total_variation(x))
        outs.append(tf.image.image_gradients(x)[0])
        return outs
    return tf_function(fn, _image_input(16, 2))


def _audio():
    """Keyword-spotting front end: STFT (frame, Hann window, RFFT), magnitude, mel matrix, log,
    MFCCs (DCT), then a small Conv2D classifier."""
    tf = _tf()
    rng = np.random.RandomState(6)
    w1 = tf.constant(rng.normal(0, 0.2, (3, 3, 1, 4)).astype(np.float32))
    w2 = tf.constant(rng.normal(0, 0.2, (280, 5)).astype(np.float32))

    def fn(wave):
        stft = tf.signal.stft(wave, frame_length=256, frame_step=128, fft_length=256)
        mag = tf.abs(stft)
        mel = tf.signal.linear_to_mel_weight_matrix(20, 129, 16000, 20.0, 4000.0)
        logmel = tf.math.log(tf.tensordot(mag, mel, 1) + 1e-6)
        mfcc = tf.signal.mfccs_from_log_mel_spectrograms(logmel)[..., :12]
        y = tf.nn.relu(tf.nn.conv2d(mfcc[..., tf.newaxis], w1, 1, "VALID"))
        y = tf.nn.max_pool2d(y, 2, 2, "VALID")
        return tf.nn.softmax(tf.matmul(tf.reshape(y, [tf.shape(y)[0], -1]), w2)), mfcc
    return tf_function(fn, [("wave", (2, 4000), tf.float32, _rand((2, 4000)))])


def _control(lower):
    """tf.cond and tf.switch_case on a fed flag and a while loop (greedy decoding with a
    TensorArray, argmax, embedding lookup and an early stop), frozen lowered or not."""
    tf = _tf()
    rng = np.random.RandomState(7)
    emb = tf.constant(rng.normal(0, 1, (20, 8)).astype(np.float32))
    w = tf.constant(rng.normal(0, 1, (16, 20)).astype(np.float32))
    u = tf.constant(rng.normal(0, 0.5, (16, 16)).astype(np.float32))
    wx = tf.constant(rng.normal(0, 0.5, (8, 16)).astype(np.float32))

    def fn(h0, flag, branch):
        h0 = tf.cond(flag[0] > 0, lambda: tf.tanh(h0), lambda: h0 * 0.5)
        h0 = tf.switch_case(branch[0], [lambda: h0, lambda: tf.nn.relu(h0),
                                        lambda: tf.sigmoid(h0)])
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)

        def cond(t, h, tok, ta, done):
            return tf.logical_and(t < 10, tf.logical_not(tf.reduce_all(done)))

        def body(t, h, tok, ta, done):
            h = tf.tanh(tf.matmul(tf.gather(emb, tok), wx) + tf.matmul(h, u))
            tok = tf.argmax(tf.matmul(h, w), -1, output_type=tf.int32)
            return t + 1, h, tok, ta.write(t, tok), tf.logical_or(done, tf.equal(tok, 0))
        t, h, _, ta, _ = tf.while_loop(cond, body, (0, h0, tf.zeros([2], tf.int32), ta,
                                                    tf.zeros([2], tf.bool)))
        return t, h, tf.transpose(ta.stack())
    return tf_function(fn, [("h0", (2, 16), tf.float32, _rand((2, 16))),
                            ("flag", (1,), tf.int32, np.array([1], np.int32)),
                            ("branch", (1,), tf.int32, np.array([2], np.int32))], lower)


def _fake_quant():
    """A quantization-aware-trained CNN as frozen: FakeQuantWithMinMaxArgs on the input,
    FakeQuantWithMinMaxVarsPerChannel on the conv weights and FakeQuantWithMinMaxVars on the
    dense weights (the activations' fake quantization is left out: a level flips when two
    correct convolutions round their sums differently)."""
    tf = _tf()
    rng = np.random.RandomState(8)
    w = tf.constant(rng.normal(0, 0.3, (3, 3, 3, 8)).astype(np.float32))
    d = tf.constant(rng.normal(0, 0.3, (8 * 8 * 8, 10)).astype(np.float32))

    def fn(x):
        x = tf.quantization.fake_quant_with_min_max_args(x, -1.0, 1.0)
        wq = tf.quantization.fake_quant_with_min_max_vars_per_channel(
            w, tf.constant(-0.5 - np.arange(8) * 0.05, tf.float32),
            tf.constant(0.5 + np.arange(8) * 0.05, tf.float32), narrow_range=True)
        y = tf.nn.relu6(tf.nn.conv2d(x, wq, 2, "SAME"))
        y = tf.reshape(y, [-1, 8 * 8 * 8])
        dq = tf.quantization.fake_quant_with_min_max_vars(d, -1.0, 1.0, num_bits=8)
        return tf.matmul(y, dq)
    return tf_function(fn, _image_input(16, 2))


def _qdq():
    """QuantizeAndDequantizeV2 (range given and from the data) and V4, as TF-TRT style and
    tf.quantization graphs keep them."""
    tf = _tf()
    rng = np.random.RandomState(8)
    d = tf.constant(rng.normal(0, 0.3, (16 * 16 * 3, 10)).astype(np.float32))

    def fn(x):
        y = tf.quantization.quantize_and_dequantize(x, -1.0, 1.0, range_given=True)
        y = tf.reshape(y, [-1, 16 * 16 * 3])
        dq = tf.quantization.quantize_and_dequantize_v2(d, -1.0, 1.0, num_bits=8,
                                                        range_given=False)
        return tf.matmul(y, dq)
    return tf_function(fn, _image_input(16, 2))


def _text_hashing():
    """A text classifier on raw strings that needs no lookup table (so it freezes with
    convert_variables_to_constants_v2): lower-case, strip punctuation, split on whitespace,
    hash the words into 50 buckets (StringToHashBucketFast), pad to 6 (RaggedTensorToTensor),
    embedding mean, Dense."""
    tf = _tf()
    rng = np.random.RandomState(10)
    emb = tf.constant(rng.normal(0, 1, (51, 8)).astype(np.float32))
    w = tf.constant(rng.normal(0, 0.5, (8, 3)).astype(np.float32))

    def fn(text):
        t = tf.strings.regex_replace(tf.strings.lower(text), "[!,.?]", "")
        words = tf.strings.split(t)
        ids = tf.ragged.map_flat_values(
            lambda v: tf.strings.to_hash_bucket_fast(v, 50) + 1, words)
        ids = ids.to_tensor(0, shape=[None, 6])
        mask = tf.cast(ids > 0, tf.float32)[..., tf.newaxis]
        x = tf.reduce_sum(tf.gather(emb, ids) * mask, 1) / tf.maximum(tf.reduce_sum(mask, 1), 1)
        return tf.nn.softmax(tf.matmul(x, w)), ids
    text = np.array([b"The quick brown FOX!", b"hello, world", b"",
                     b"one two three four five six seven eight"])
    return tf_function(fn, [("text", (None,), tf.string, text)])


def _math_ops():
    """tf.math and array ops models use outside layers: cumsum/cumprod, segment and unsorted
    segment reductions, bincount, searchsorted, einsum, logsumexp, sort/argsort, unique, where,
    matrix inverse/determinant/band part/Cholesky, cross, histogram, top_k, clip_by_norm."""
    tf = _tf()

    def fn(x, seg):
        spd = tf.matmul(x[:4, :4], x[:4, :4], transpose_b=True) + 4 * tf.eye(4)
        return [tf.cumsum(x, 1, exclusive=True), tf.math.cumprod(x, 0, reverse=True),
                tf.math.segment_sum(x, seg), tf.math.unsorted_segment_max(x, seg, 4),
                tf.math.unsorted_segment_mean(x, seg, 4),
                tf.math.bincount(seg, minlength=5),
                tf.searchsorted(tf.sort(x, 1), x[:, :3]),
                tf.searchsorted(tf.sort(x, 1), x[:, :3], side="right"),
                tf.einsum("ij,kj->ik", x, x), tf.einsum("ij->j", x),
                tf.reduce_logsumexp(x, 1), tf.argsort(x, 1), tf.sort(x, 1, "DESCENDING"),
                tf.unique(seg)[1], tf.where(x > 0.5), tf.linalg.inv(spd), tf.linalg.det(spd),
                tf.linalg.band_part(x, 1, 0), tf.linalg.cholesky(spd),
                tf.linalg.cross(x[:, :3], x[:, 3:6]),
                tf.histogram_fixed_width(x, [-1.0, 1.0], nbins=7),
                tf.math.top_k(x, 3)[1], tf.clip_by_norm(x, 1.0), tf.math.floormod(x, 0.3),
                tf.math.reduce_std(x, 0), tf.math.argmin(x, 1), tf.math.is_finite(x),
                tf.linalg.matrix_transpose(x), tf.linalg.diag_part(spd), tf.linalg.trace(spd)]
    return tf_function(fn, [("x", (6, 8), tf.float32, _rand((6, 8))),
                            ("seg", (6,), tf.int32, np.array([0, 0, 1, 2, 2, 3], np.int32))])


def _string_ops():
    """tf.strings in serving signatures: lower/upper, regex_replace, split and join, substr,
    length, to_hash_bucket_fast, as_string, to_number, format, reduce_join, ngrams."""
    tf = _tf()

    def fn(s, num):
        words = tf.strings.split(s)
        return [tf.strings.lower(s), tf.strings.upper(s), tf.strings.regex_replace(s, "o+", "0"),
                tf.strings.reduce_join(words, axis=1, separator="|"),
                words.to_tensor("<pad>"), tf.strings.substr(s, 1, 3), tf.strings.length(s),
                tf.strings.to_hash_bucket_fast(s, 100), tf.strings.as_string(num, precision=2),
                tf.strings.to_number(tf.strings.as_string(num)),
                tf.strings.join([s, tf.strings.as_string(num)], separator="#"),
                tf.strings.ngrams(words, 2, separator=" ").to_tensor(""),
                tf.strings.regex_full_match(s, ".*fox.*")]
    return tf_function(fn, [("s", (3,), tf.string,
                             np.array([b"The quick fox", b"foo  boo", b"hello"])),
                            ("num", (3,), tf.float32, np.array([1.5, -2.25, 3.0], np.float32))])


def _sparse_ops():
    """Sparse features as recommenders feed them (indices, values, dense shape): embedding
    lookups with SparseSegmentMean / SqrtN, safe_embedding_lookup_sparse (SparseFillEmptyRows),
    sparse_dense_matmul, sparse reduce_sum, to_dense."""
    tf = _tf()
    emb = tf.constant(np.random.RandomState(9).normal(0, 1, (10, 4)).astype(np.float32))

    def fn(idx, vals, shape):
        sp = tf.SparseTensor(idx, vals, shape)
        spf = tf.SparseTensor(idx, tf.cast(vals, tf.float32), shape)
        return [tf.nn.embedding_lookup_sparse(emb, sp, None, combiner="mean"),
                tf.nn.embedding_lookup_sparse(emb, sp, None, combiner="sqrtn"),
                tf.nn.safe_embedding_lookup_sparse(emb, sp, None, combiner="sum"),
                tf.sparse.sparse_dense_matmul(spf, tf.ones([4, 3])),
                tf.sparse.reduce_sum(spf, 1), tf.sparse.to_dense(sp)]
    idx = np.array([[0, 0], [0, 2], [1, 1], [3, 0], [3, 3]], np.int64)
    return tf_function(fn, [("idx", (None, 2), tf.int64, idx),
                            ("vals", (None,), tf.int64, np.array([1, 5, 2, 9, 0], np.int64)),
                            ("shape", (2,), tf.int64, np.array([4, 4], np.int64))])


def _gpt(dynamic):
    """A GPT-like decoder: causal MultiHeadAttention (use_causal_mask), learned positions,
    pre-norm blocks, tied output projection; sequence length unknown when dynamic."""
    def make():
        tf = _tf()
        k = tf.keras
        L = k.layers

        class Gpt(k.Model):
            def __init__(self):
                super().__init__()
                self.tok, self.pos = L.Embedding(200, 32), L.Embedding(32, 32)
                self.blocks = [(L.LayerNormalization(), L.MultiHeadAttention(2, 16),
                                L.LayerNormalization(), L.Dense(64, activation="gelu"),
                                L.Dense(32)) for _ in range(2)]
                self.norm = L.LayerNormalization()

            def call(self, ids):
                x = self.tok(ids) + self.pos(tf.range(tf.shape(ids)[1]))
                for n1, att, n2, d1, d2 in self.blocks:
                    y = n1(x)
                    x = x + att(y, y, use_causal_mask=True)
                    x = x + d2(d1(n2(x)))
                return tf.matmul(self.norm(x), self.tok.embeddings, transpose_b=True)
        return Gpt()
    shape = (None, None) if dynamic else (2, 12)
    return keras_model(make, [("ids", shape, "int32", _ids((2, 12), 200))])


def _gqa():
    """GroupedQueryAttention and EinsumDense (Keras 3) with a float64 Dense head."""
    def make():
        k = _tf().keras
        L = k.layers
        x = inp = k.Input((10, 32))
        x = x + L.GroupQueryAttention(8, 4, 2)(x, x)
        x = L.EinsumDense("abc,cd->abd", output_shape=(None, 16), bias_axes="d")(x)
        return k.Model(inp, L.GlobalAveragePooling1D()(x))
    return keras_model(make, [("x", (2, 10, 32), "float32", _rand((2, 10, 32)))])


def _rnn_variants(lower):
    """Recurrent variants: unrolled LSTM, GRU with reset_after=False, go_backwards, a
    Bidirectional merged by sum, RNN(StackedRNNCells)."""
    def make():
        k = _tf().keras
        L = k.layers
        x = inp = k.Input((8, 6))
        a = L.LSTM(8, unroll=True)(x)
        b = L.GRU(8, reset_after=False, go_backwards=True)(x)
        c = L.Bidirectional(L.SimpleRNN(8), merge_mode="sum")(x)
        d = L.RNN(L.StackedRNNCells([L.LSTMCell(8), L.GRUCell(8)]))(x)
        return k.Model(inp, L.Concatenate()([a, b, c, d]))
    return keras_model(make, [("x", (3, 8, 6), "float32", _rand((3, 8, 6)))],
                       lower_control_flow=lower)


def _models():
    m = {}
    # Keras applications at small inputs (the smallest each accepts, or near it).
    for name, size in (("ConvNeXtTiny", 32), ("EfficientNetB0", 32), ("EfficientNetV2B0", 32),
                       ("Xception", 71), ("MobileNet", 32), ("MobileNetV2", 32),
                       ("MobileNetV3Small", 32), ("MobileNetV3Large", 32),
                       ("NASNetMobile", 32), ("DenseNet121", 32), ("InceptionV3", 75),
                       ("InceptionResNetV2", 75), ("VGG16", 32), ("VGG19", 32),
                       ("ResNet50", 32), ("ResNet101", 32), ("ResNet50V2", 32)):
        m["app_" + name] = ("keras.applications", _app(name, size))
    m["RegNetX_like"] = ("grouped conv (xla-ref)", _regnet(False))
    m["RegNetY_like"] = ("grouped conv + SE (xla-ref)", _regnet(True))
    m["ResNetRS_like"] = ("SE + avgpool shortcut", _resnet_rs())
    m["ViT"] = ("patch conv + MHA + gelu", _vit())
    m["BERT_like"] = ("int ids + attention mask", _bert())
    m["UNet"] = ("Conv2DTranspose + UpSampling2D", _unet())
    m["WaveNet_like"] = ("causal dilated Conv1D", _wavenet())
    m["DeepLab_like"] = ("atrous conv + resize", _deeplab())
    for lower in (True, False):
        tag = "lowered" if lower else "while"
        for kind in ("bilstm", "bigru", "stacked", "simplernn", "masked"):
            m["rnn_%s_%s" % (kind, tag)] = ("recurrent, " + tag, _rnn(kind, lower))
        m["masking_lstm_" + tag] = ("Masking + LSTM, " + tag, _masking(lower))
        m["convlstm2d_" + tag] = ("ConvLSTM2D, " + tag, _convlstm(lower))
        m["seq2seq_attention_" + tag] = ("seq2seq + Attention, " + tag, _seq2seq(lower))
    m["detection_postprocess"] = ("NMS, CropAndResize, TopK", _detection())
    m["preprocess_image"] = ("Rescaling, Resizing, CenterCrop, Normalization",
                             _preprocess_image())
    m["preprocess_tabular"] = ("IntegerLookup, Hashing, Discretization, CategoryEncoding",
                               _preprocess_tabular())
    m["tf1_text_tables"] = ("TF1 graph_util, string input, lookup tables", _tf1_text())
    m["tf1_mlp"] = ("TF1 graph_util", _tf1_mlp())
    m["tf1_cnn"] = ("TF1 graph_util", _tf1_cnn())
    m["tf1_dynamic_rnn"] = ("TF1 graph_util, while loop", _tf1_dynamic_rnn())
    m["tf1_bidirectional_gru"] = ("TF1 graph_util, while loop", _tf1_bidirectional_gru())
    m["app_MobileNetV2_dynamic"] = ("keras.applications, batch None", keras_model(
        lambda: _tf().keras.applications.MobileNetV2(weights=None, input_shape=(32, 32, 3)),
        _dynamic(_image_input(32, 2))))
    m["ViT_dynamic"] = ("batch None", _vit(dynamic=True))
    m["BERT_dynamic"] = ("batch and length None", _bert(dynamic=True))
    m["GPT_causal"] = ("causal MHA", _gpt(False))
    m["GPT_causal_dynamic"] = ("causal MHA, length None", _gpt(True))
    m["GroupQueryAttention"] = ("GQA + EinsumDense", _gqa())
    m["Swin_like"] = ("shifted windows, tf.roll", _swin())
    m["Mixer_like"] = ("MLP-Mixer + ConvMixer", _mixer())
    m["YOLO_like"] = ("SPP + upsample + decode", _yolo())
    m["CRNN_CTC_greedy"] = ("BiLSTM + CTC greedy decoder", _crnn_ctc(False))
    m["CRNN_CTC_beam"] = ("BiLSTM + CTC beam search", _crnn_ctc(True))
    m["Video3D"] = ("Conv3D family", _video3d())
    m["conv_zoo"] = ("1-D/2-D conv variants", _conv_zoo())
    m["activations"] = ("every Keras activation", _activations())
    m["normalizations"] = ("Group/Unit/Layer/RMS norm", _norm_zoo())
    m["image_ops"] = ("tf.image", _image_ops())
    m["audio_mfcc"] = ("tf.signal STFT + MFCC", _audio())
    m["control_lowered"] = ("cond, switch_case, while + TensorArray", _control(True))
    m["control_functional"] = ("If, Case, While (not lowered)", _control(False))
    m["fake_quant"] = ("QAT FakeQuant (args, vars, per channel)", _fake_quant())
    m["quantize_dequantize"] = ("QuantizeAndDequantizeV2/V4", _qdq())
    m["text_hashing"] = ("string input, split, hash buckets, to_tensor", _text_hashing())
    m["math_ops"] = ("tf.math zoo", _math_ops())
    m["string_ops"] = ("tf.strings zoo", _string_ops())
    m["sparse_ops"] = ("sparse embedding lookups", _sparse_ops())
    m["rnn_variants_lowered"] = ("unroll, reset_after, go_backwards", _rnn_variants(True))
    m["rnn_variants_while"] = ("unroll, reset_after, go_backwards", _rnn_variants(False))
    m["suite_Encoder"] = ("Transformer encoder (suite)", suite("Encoder_b1", (1, 16, 256)))
    m["suite_TextCNN1D"] = ("1-D convolution (suite)", suite("TextCNN1D", (2, 64)))
    m["suite_RNN_tf2_while"] = ("TF2 While (suite)", suite("RNN_tf2_while", (2, 8, 16)))
    m["suite_TF1_LRN_resize"] = ("classic TF1 graph (suite)",
                                 suite("TF1_LRN_resize", (1, 32, 32, 3)))
    import sweep_families  # noqa: E402  (more families: feature columns, NMS loops, audio, ...)
    sweep_families.add(m)
    import sweep_legacy_tf1  # noqa: E402  (SparseMatMul, TensorArray V2 names, EditDistance)
    sweep_legacy_tf1.add(m)
    import sweep_pypi  # noqa: E402  (models built with keras-hub and tf-slim)
    sweep_pypi.add(m)
    import sweep_heldout  # noqa: E402  (held-out families: more kecam, tf-keras, TF1 Transformer)
    sweep_heldout.add(m)
    import sweep_next_ops  # noqa: E402  (models holding ops of "The next ops": Case, ...)
    sweep_next_ops.add(m)
    return m


# ---------------------------------------------------------------------------------------------
# Running.

def _consumed(graph_def):
    return {i.split(":")[0].lstrip("^") for n in graph_def.node for i in n.input}


def _outputs(graph_def):
    """The frozen function's results: Identity nodes named Identity, Identity_N nothing reads."""
    read = _consumed(graph_def)
    outs = [n.name for n in graph_def.node if n.op == "Identity" and n.name not in read and
            re.fullmatch(r"Identity(_\d+)?", n.name)]
    return sorted(outs, key=lambda s: int(s.split("_")[1]) if "_" in s else 0)


def _op_types(graph_def):
    ops = {n.op for n in graph_def.node}
    for f in graph_def.library.function:
        ops |= {n.op for n in f.node_def}
    fnames = {f.signature.name for f in graph_def.library.function}
    return sorted(ops - fnames)


def _run_tf(graph_def, feeds, fetches, init=()):
    tf = _tf()
    from tensorflow.core.protobuf import config_pb2, rewriter_config_pb2
    config = config_pb2.ConfigProto(
        intra_op_parallelism_threads=1, inter_op_parallelism_threads=1,
        graph_options=config_pb2.GraphOptions(rewrite_options=rewriter_config_pb2.RewriterConfig(
            disable_meta_optimizer=True)))
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(graph_def, name="")
    with tf.compat.v1.Session(graph=g, config=config) as sess:
        for op in init:
            sess.run(op)
        return sess.run([f + ":0" for f in fetches], {k + ":0": v for k, v in feeds.items()})


def build(name, models):
    """Freezes `name` into the cache unless it is there; returns its metadata."""
    base = os.path.join(CACHE, name)
    if os.path.exists(base + ".json"):
        with open(base + ".json") as f:
            return json.load(f)
    os.makedirs(CACHE, exist_ok=True)
    meta = {"name": name, "family": models[name][0]}
    try:
        graph_def, feeds, extra = models[name][1]()
        fetches = _outputs(graph_def)
        meta.update(fetches=fetches, feeds=sorted(feeds), ops=_op_types(graph_def),
                    nodes=len(graph_def.node), bytes=graph_def.ByteSize(),
                    init=extra.get("init", []))
        with open(base + ".pb", "wb") as f:
            f.write(graph_def.SerializeToString(deterministic=True))
        if "reference" in extra:
            want = extra["reference"]
            meta["reference"] = "xla"
        else:
            want = _run_tf(graph_def, feeds, fetches, meta["init"])
        np.savez(base + "_in.npz", **feeds)
        np.savez(base + "_want.npz", *want)
    except Exception as e:  # what TensorFlow raised is what the table reports
        meta["build_error"] = "%s: %s" % (type(e).__name__, str(e).strip().splitlines()[0][:200]
                                          if str(e).strip() else "")
    with open(base + ".json", "w") as f:
        json.dump(meta, f)
    return meta


def _rel_diff(got, want):
    """max |got - want| / max |want| for floats (NaN and inf positions must agree), 0 or None
    (mismatch) for anything else."""
    if got.shape != want.shape:
        return None
    if want.dtype.kind in "fc":
        g, w = got.astype(np.float64), want.astype(np.float64)
        if not np.array_equal(np.isnan(g), np.isnan(w)):
            return None
        fin = np.isfinite(w)
        if not np.array_equal(g[~fin & ~np.isnan(w)], w[~fin & ~np.isnan(w)]):
            return None
        if not fin.any():
            return 0.0
        scale = max(np.abs(w[fin]).max(), 1e-30)
        return float(np.abs(g[fin] - w[fin]).max() / scale)
    if want.dtype.kind in "SUO":
        return 0.0 if [bytes(v) if not isinstance(v, bytes) else v for v in got.ravel()] == \
            [v if isinstance(v, bytes) else str(v).encode() for v in want.ravel()] else None
    return 0.0 if np.array_equal(got, want) else None


def run_rill(name, meta, runner, inputs=None, want=None, got_out=None):
    """Runs the cached model in session_runner: (max rel diff or None, error or ""). `inputs`
    and `want` replace the cached inputs and TensorFlow's cached outputs, and Rill's outputs
    are appended to `got_out` (--poison)."""
    base = os.path.join(CACHE, name)
    tmp = tempfile.mkdtemp(prefix="sweep_")
    try:
        args = [runner, "--graph=" + base + ".pb", "--output_dir=" + tmp]
        for op in meta.get("init", []):
            args += ["--target=" + op, "--then"]
        if inputs is None:
            inputs = np.load(base + "_in.npz")
        for k in meta["feeds"]:
            path = os.path.join(tmp, "in_%s.npy" % k)
            v = inputs[k]
            np.save(path, v.astype("S") if v.dtype.kind in "OU" else v)
            args.append("--feed=%s:0=%s" % (k, path))
        args += ["--fetch=%s:0" % f for f in meta["fetches"]]
        r = subprocess.run(args, capture_output=True, text=True, timeout=600)
        if r.returncode != 0:
            err = r.stderr.strip().splitlines()
            first = err[0] if err else "exit %d" % r.returncode
            return None, first.split(" in binary running on Rill")[0][:240]
        if want is None:
            want = np.load(base + "_want.npz", allow_pickle=True)
        elif not want:  # nothing to compare with: it ran
            return 0.0, ""
        worst = 0.0
        gots = [np.load(os.path.join(tmp, "%s_0.npy" % f.replace("/", "_")), allow_pickle=True)
                for f in meta["fetches"]]
        if got_out is not None:
            got_out.extend(gots)
        for i, (f, got) in enumerate(zip(meta["fetches"], gots)):
            d = _rel_diff(got, want["arr_%d" % i])
            if d is None:
                return None, "output %s:0 differs (shape %s vs %s, or values)" % (
                    f, got.shape, want["arr_%d" % i].shape)
            worst = max(worst, d)
        return worst, ""
    except subprocess.TimeoutExpired:
        return None, "timed out after 600 s"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# --poison: one element of a float input set to NaN, +inf or -inf; TensorFlow and Rill must give
# the same NaN and +-inf positions and finite values within RTOL.

POISON = ((float("nan"), "nan", 1 / 3), (float("inf"), "+inf", 1 / 2),
          (float("-inf"), "-inf", 2 / 3))


def _poison_variants(meta, inputs):
    """(label, inputs) per float feed and poison value: the element at a fixed fraction of the
    flattened input replaced."""
    for k in meta["feeds"]:
        v = inputs[k]
        if v.dtype.kind != "f" or v.size == 0:
            continue
        for value, tag, frac in POISON:
            changed = dict(inputs)
            p = v.copy()
            i = min(int(v.size * frac), v.size - 1)
            p.reshape(-1)[i] = value
            changed[k] = p
            yield "%s[%d]=%s" % (k, i, tag), changed


def _nonfinite(a):
    a = a.astype(np.float64)
    return "NaN %d, +inf %d, -inf %d" % (np.isnan(a).sum(), np.isposinf(a).sum(),
                                         np.isneginf(a).sum())


def poison_model(name, meta, runner):
    """Runs every poisoned variant in TensorFlow and Rill: (variants, worst rel diff, first
    mismatch or "")."""
    tf = _tf()
    graph_def = tf.compat.v1.GraphDef()
    with open(os.path.join(CACHE, name + ".pb"), "rb") as f:
        graph_def.ParseFromString(f.read())
    inputs = dict(np.load(os.path.join(CACHE, name + "_in.npz")))
    count, worst = 0, 0.0
    for label, feeds in _poison_variants(meta, inputs):
        count += 1
        try:
            want = _run_tf(graph_def, feeds, meta["fetches"], meta["init"])
        except Exception as e:  # TensorFlow refusing the input: Rill must refuse it too
            _, err = run_rill(name, meta, runner, feeds, {})
            if not err:
                return count, None, "%s: TensorFlow raised %s, Rill ran" % (label, type(e).__name__)
            continue
        got = []
        d, err = run_rill(name, meta, runner, feeds,
                          {"arr_%d" % i: w for i, w in enumerate(want)}, got)
        if d is None or d > RTOL:
            detail = err
            if err.startswith("output "):
                detail = err.split(" differs")[0]
                for i, f in enumerate(meta["fetches"]):
                    w = np.asarray(want[i])
                    if w.dtype.kind == "f" and i < len(got):
                        detail += "; %s TF %s / Rill %s" % (f, _nonfinite(w), _nonfinite(got[i]))
            elif d is not None:
                detail = "rel diff %.2e" % d
            return count, None, "%s: %s" % (label, detail)
        worst = max(worst, d)
    return count, worst, ""


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runner", default=os.path.join(
        REPO_ROOT, "bazel-bin/tools/session_runner/session_runner"))
    p.add_argument("--list", action="store_true", help="list the models and exit")
    p.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    p.add_argument("--poison", action="store_true",
                   help="feed NaN, +inf and -inf into each float input and compare patterns")
    p.add_argument("only", nargs="*")
    a = p.parse_args()
    models = _models()
    names = [n for n in models if not a.only or any(o.lower() in n.lower() for o in a.only)]
    if a.list:
        for n in names:
            print("%-28s %s" % (n, models[n][0]))
        return 0
    if a.poison:
        return poison_main(names, models, a.runner)
    fmt = "| %s | %s | %s | %s | %s | %s |" if a.markdown else "%-28s %-8s %4s %-4s %-12s %s"
    if a.markdown:
        print("| model | ref | ops | ran | max rel diff | first error |")
        print("| --- | --- | --- | --- | --- | --- |")
    else:
        print(fmt % ("model", "ref", "ops", "ran", "max rel diff", "first error"))
    failed = 0
    for n in names:
        meta = build(n, models)
        if "build_error" in meta:
            print(fmt % (n, "-", "-", "-", "-", "TensorFlow: " + meta["build_error"]))
            failed += 1
            continue
        d, err = run_rill(n, meta, a.runner)
        ok = d is not None and d <= RTOL
        failed += not ok
        print(fmt % (n, meta.get("reference", "tf"), len(meta["ops"]),
                     "yes" if d is not None else "no",
                     "-" if d is None else "%.2e%s" % (d, "" if ok else " FAIL"), err), flush=True)
    print("%d of %d models pass" % (len(names) - failed, len(names)))
    return 1 if failed else 0


def poison_main(names, models, runner):
    fmt = "%-28s %-9s %-12s %s"
    print(fmt % ("model", "variants", "max rel diff", "first mismatch"))
    failed = 0
    for n in names:
        meta = build(n, models)
        if "build_error" in meta or meta.get("reference"):
            print(fmt % (n, "-", "-", "skipped: " + ("TensorFlow: " + meta["build_error"]
                                                    if "build_error" in meta else
                                                    "reference through XLA")))
            continue
        count, d, err = poison_model(n, meta, runner)
        failed += d is None
        print(fmt % (n, count, "-" if d is None else "%.2e" % d, err or "ok"), flush=True)
    print("%d of %d models match TensorFlow's NaN / inf pattern" % (len(names) - failed,
                                                                    len(names)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
