"""A fourth set of model families for tests/tfgen/model_sweep.py, chosen as a held-out check: the
architectures and freezing styles the other sets leave out, built from seeded weights (no preset,
no pretrained weight, nothing downloaded).

- keras-cv-attention-models (tf.keras 2, frozen in a child process with TF_USE_LEGACY_KERAS=1):
  families the third set does not hold (BotNet, HaloNet, CoaT, CotNet, CSPNeXt, GPViT, Hiera,
  IFormer, ResMLP, gMLP, WaveMLP, LCNet, TinyNet, FBNetV3, NAT, DiNAT, NFNet, PVT v2, UniFormer,
  VanillaNet, VOLO, YOLOv7, YOLO-NAS, EfficientNet-Lite / EdgeTPU, EVA-02, BEiT, FasterViT,
  AotNet, LLaMA2 in tf.keras).
- keras-hub backbones the third set does not hold (Moonshine, SmolLM3, ESM2, PaliGemma,
  T5Gemma, Qwen).
- tf-keras (Keras 2) recurrent layers, whose frozen graphs carry Keras 2's backend-selection
  functions, and LocallyConnected layers (Keras 2 only), lowered and While.
- Plain TensorFlow: a TF1 Transformer translation model (get_variable layers, greedy decoding in
  a TF1 while loop), a TF1 model of tf.contrib.rnn's fused cells (BlockLSTM, BlockLSTMV2,
  LSTMBlockCell, GRUBlockCell), a TF1 CNN rewritten by optimize_for_inference
  (FusedResizeAndPadConv2D, FusedPadConv2D), recommendation models (DLRM-style dot
  interaction, DCN cross layers), soft-NMS and padded NMS, and the array ops detection and
  ranking heads use (tensor_scatter_nd_*, batched gathers, reverse_sequence, matrix_set_diag).

add(models) registers them; a missing library leaves its models out.
"""
import os
import sys

import numpy as np

from model_sweep import _ids, _rand, _spec, _tf, keras_model, tf1_graph, tf_function

# ---------------------------------------------------------------------------------------------
# keras-cv-attention-models, new families. name -> (module, constructor, kwargs, input size).

KECAM = {
    "BotNet26T": ("botnet", "BotNet26T", {}, 64),
    "HaloNetH0": ("halonet", "HaloNetH0", {}, 64),
    "CoaTLiteMini": ("coat", "CoaTLiteMini", {}, 64),
    "CotNet50": ("cotnet", "CotNet50", {}, 64),
    "CSPNeXtTiny": ("cspnext", "CSPNeXtTiny", {}, 64),
    "GPViT_L1": ("gpvit", "GPViT_L1", {}, 64),
    "HieraTiny": ("hiera", "HieraTiny", {}, 64),
    "IFormerSmall": ("iformer", "IFormerSmall", {}, 64),
    "ResMLP12": ("mlp_family", "ResMLP12", {}, 64),
    "GMLPTiny16": ("mlp_family", "GMLPTiny16", {}, 64),
    "WaveMLP_T": ("mlp_family", "WaveMLP_T", {}, 64),
    "LCNet050": ("mobilenetv3_family", "LCNet050", {}, 64),
    "TinyNetE": ("mobilenetv3_family", "TinyNetE", {}, 64),
    "FBNetV3B": ("mobilenetv3_family", "FBNetV3B", {}, 64),
    "NAT_Mini": ("nat", "NAT_Mini", {}, 64),
    "DiNAT_Mini": ("nat", "DiNAT_Mini", {}, 64),
    "ECA_NFNetL0": ("nfnets", "ECA_NFNetL0", {}, 64),
    "PVT_V2B0": ("pvt", "PVT_V2B0", {}, 64),
    "UniformerSmall32": ("uniformer", "UniformerSmall32", {}, 64),
    "VanillaNet5": ("vanillanet", "VanillaNet5", {}, 64),
    "VOLO_d1": ("volo", "VOLO_d1", {}, 64),
    "YOLOV7_Tiny": ("yolov7", "YOLOV7_Tiny", {}, 64),
    "YOLO_NAS_S": ("yolov8", "YOLO_NAS_S", {}, 64),
    "EfficientNetV1Lite0": ("efficientnet", "EfficientNetV1Lite0", {}, 64),
    "EfficientNetEdgeTPUSmall": ("efficientnet", "EfficientNetEdgeTPUSmall", {}, 64),
    "EVA02TinyPatch14": ("beit", "EVA02TinyPatch14", {}, 56),
    "BEiT_small": ("beit", "Beit", dict(depth=2, embed_dim=64, num_heads=4, patch_size=8), 64),
    "FasterViT0": ("fastervit", "FasterViT0", {}, 64),
    "AotNet50": ("aotnet", "AotNet50", {}, 64),
}
KECAM_DETECTORS = ("YOLOV7_Tiny", "YOLO_NAS_S")


def _kecam_freeze(name, out_path):
    """In the child process: builds KECAM[name] with tf.keras 2 and writes its frozen GraphDef
    (input placeholder "x")."""
    import importlib
    import tensorflow as tf
    from model_sweep import suite_models
    tf.keras.utils.set_random_seed(1)
    module, ctor, kw, size = KECAM[name]
    kw = dict(kw)
    make = getattr(importlib.import_module("keras_cv_attention_models." + module), ctor)
    if name not in KECAM_DETECTORS:
        kw["num_classes"] = 10
        if "VOLO" not in name:  # VOLO's heads have no activation argument: logits already
            kw["classifier_activation"] = None
    model = make(input_shape=(size, size, 3), pretrained=None, **kw)
    # Zero-initialized weights (residual gains, layer scales, positional biases) would leave
    # branches out of the comparison: seeded values instead.
    rng = np.random.RandomState(14)
    for w in model.weights:
        if not any(k in w.name for k in ("moving_", "beta", "bias")) and not np.any(w.numpy()):
            w.assign(rng.normal(0, 0.2, w.shape).astype(w.dtype.as_numpy_dtype))
    graph_def = suite_models._freeze_fn(lambda x: model(x, training=False),
                                        tf.TensorSpec((1, size, size, 3), tf.float32, name="x"))
    with open(out_path, "wb") as f:
        f.write(graph_def.SerializeToString())


def _child(flag, name, feeds):
    """A builder running this file as a child process with TF_USE_LEGACY_KERAS=1 (tf-keras);
    the child writes the frozen GraphDef."""
    def build():
        import subprocess
        import tempfile
        tf = _tf()
        env = dict(os.environ, TF_USE_LEGACY_KERAS="1")
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "graph.pb")
            r = subprocess.run([sys.executable, os.path.abspath(__file__), flag, name, out],
                               env=env, capture_output=True, text=True)
            if r.returncode != 0:
                raise RuntimeError(r.stderr.strip().splitlines()[-1] if r.stderr.strip() else
                                   "exit %d" % r.returncode)
            graph_def = tf.compat.v1.GraphDef()
            with open(out, "rb") as f:
                graph_def.ParseFromString(f.read())
        return graph_def, feeds(), {}
    return build


def _kecam_models(m):
    for name, (module, ctor, _, size) in KECAM.items():
        m["kecam_" + name] = ("keras-cv-attention-models %s.%s (tf.keras 2)" % (module, ctor),
                              _child("--kecam", name,
                                     lambda size=size: {"x": _rand((1, size, size, 3), 13)}))


# ---------------------------------------------------------------------------------------------
# tf-keras (Keras 2): recurrent layers (the frozen graph keeps the backend-selection functions
# Keras 2 writes for LSTM / GRU), masking, LocallyConnected, MultiHeadAttention with masks.

TFK = {}  # name -> (make(keras), inputs as [(name, shape, dtype, value)], lower_control_flow)


def _tfk_rnn(kk, kind):
    L = kk.layers
    x = inp = kk.Input((7, 5))
    x = L.Masking(0.0)(x)
    if kind == "lstm":
        x = L.Bidirectional(L.LSTM(6, return_sequences=True))(x)
        x = L.LSTM(5)(x)
    else:
        x = L.Bidirectional(L.GRU(6, return_sequences=True))(x)
        x = L.GRU(5, reset_after=False)(x)
    return kk.Model(inp, L.Dense(3)(x))


def _tfk_local(kk):
    L = kk.layers
    a = inp_a = kk.Input((12, 4))
    b = inp_b = kk.Input((8, 8, 2))
    a = L.LocallyConnected1D(5, 3, activation="relu")(a)
    a = L.LocallyConnected1D(3, 2, strides=2, implementation=2)(a)
    b = L.LocallyConnected2D(4, 3, activation="tanh")(b)
    b = L.LocallyConnected2D(2, 2, strides=2, implementation=3)(b)
    y = L.Concatenate()([L.Flatten()(a), L.Flatten()(b)])
    return kk.Model([inp_a, inp_b], L.Dense(4)(y))


def _tfk_mha(kk):
    L = kk.layers
    q = inp_q = kk.Input((6, 16))
    v = inp_v = kk.Input((9, 16))
    mask = inp_m = kk.Input((6, 9), dtype="bool")
    y = L.MultiHeadAttention(4, 4)(q, v, attention_mask=mask)
    y = L.LayerNormalization()(y + q)
    z = L.MultiHeadAttention(2, 8)(y, y, use_causal_mask=True)
    return kk.Model([inp_q, inp_v, inp_m], L.Dense(3)(z))


def _seq_input():
    x = _rand((2, 7, 5), 21)
    x[1, 5:] = 0.0  # masked steps
    return [("x", (2, 7, 5), "float32", x)]


def _mha_inputs():
    mask = np.random.RandomState(22).uniform(0, 1, (2, 6, 9)) < 0.7
    mask[:, :, 0] = True
    return [("q", (2, 6, 16), "float32", _rand((2, 6, 16), 23)),
            ("v", (2, 9, 16), "float32", _rand((2, 9, 16), 24)),
            ("mask", (2, 6, 9), "bool", mask)]


for _lower in (True, False):
    _tag = "lowered" if _lower else "while"
    TFK["tfk_bilstm_masked_" + _tag] = (lambda kk: _tfk_rnn(kk, "lstm"), _seq_input, _lower)
    TFK["tfk_bigru_masked_" + _tag] = (lambda kk: _tfk_rnn(kk, "gru"), _seq_input, _lower)
TFK["tfk_locally_connected"] = (_tfk_local, lambda: [
    ("a", (2, 12, 4), "float32", _rand((2, 12, 4), 25)),
    ("b", (2, 8, 8, 2), "float32", _rand((2, 8, 8, 2), 26))], True)
TFK["tfk_mha_masks"] = (_tfk_mha, _mha_inputs, True)


def _tfk_freeze(name, out_path):
    """In the child process: builds TFK[name] with tf.keras 2 and freezes it."""
    import tensorflow as tf
    from model_sweep import suite_models
    tf.keras.utils.set_random_seed(1)
    make, inputs, lower = TFK[name]
    model = make(tf.keras)
    ins = inputs()
    specs = [tf.TensorSpec(s, d, name=n) for n, s, d, _ in ins]
    if len(specs) == 1:
        fn, spec = (lambda x: model(x, training=False)), specs[0]
    else:
        fn, spec = (lambda xs: model(list(xs), training=False)), specs
    graph_def = suite_models._freeze_fn(fn, spec, lower_control_flow=lower)
    with open(out_path, "wb") as f:
        f.write(graph_def.SerializeToString())


def _tfk_models(m):
    what = {"tfk_locally_connected": "tf-keras LocallyConnected1D/2D (implementations 1-3)",
            "tfk_mha_masks": "tf-keras MultiHeadAttention, attention_mask and causal mask"}
    for name, (_, inputs, lower) in TFK.items():
        desc = what.get(name) or "tf-keras %s + Masking, %s" % (
            "Bidirectional LSTM" if "lstm" in name else "Bidirectional GRU",
            "lowered" if lower else "While")
        m[name] = (desc, _child("--tfk", name,
                                lambda inputs=inputs: {n: v for n, _, _, v in inputs()}))


# ---------------------------------------------------------------------------------------------
# keras-hub backbones the third set does not hold.

def _hub_models(m):
    import sweep_pypi as sp
    hm = lambda: __import__("keras_hub").models  # noqa: E731
    m["hub_Moonshine"] = ("keras-hub MoonshineBackbone (speech encoder-decoder, partial rotary)",
                          sp.hub_model(lambda: hm().MoonshineBackbone(
                              vocabulary_size=sp.VOCAB, filter_dim=32, encoder_num_layers=2,
                              decoder_num_layers=2, hidden_dim=32, intermediate_dim=64,
                              encoder_num_heads=4, decoder_num_heads=4),
                              [("encoder_input_values", (2, 1600, 1), "float32",
                                _rand((2, 1600, 1), 31)),
                               ("encoder_padding_mask", (2, 1600), "bool",
                                np.ones((2, 1600), bool)),
                               ("decoder_token_ids", (2, 6), "int32", _ids((2, 6), 97, 32, 1)),
                               ("decoder_padding_mask", (2, 6), "bool",
                                np.ones((2, 6), bool))]))
    m["hub_SmolLM3"] = ("keras-hub SmolLM3Backbone (NoPE layers, GQA)", sp._enc(
        "SmolLM3Backbone", vocabulary_size=sp.VOCAB, hidden_dim=32, intermediate_dim=64,
        num_layers=2, num_attention_heads=4, num_key_value_heads=2, attention_bias=False,
        attention_dropout=0.0, rope_layer_enabled_list=[True, False],
        layer_types=["full_attention", "full_attention"], mlp_bias=False,
        layer_norm_epsilon=1e-6, max_position_embeddings=64, rope_theta=10000.0,
        partial_rotary_factor=1.0))
    m["hub_ESM2"] = ("keras-hub ESM2Backbone", sp.hub_model(
        lambda: hm().ESM2Backbone(vocabulary_size=sp.VOCAB, num_layers=2, num_heads=4,
                                  hidden_dim=32, intermediate_dim=64, max_sequence_length=32),
        [i for i in sp._text() if i[0] == "token_ids"]))
    m["hub_Qwen1"] = ("keras-hub QwenBackbone (Qwen 1)", sp._enc(
        "QwenBackbone", vocabulary_size=sp.VOCAB, num_layers=2, num_query_heads=4,
        num_key_value_heads=2, hidden_dim=32, intermediate_dim=64))
    m["hub_T5Gemma"] = ("keras-hub T5GemmaBackbone (GQA encoder-decoder, local layers)",
                        sp.hub_model(lambda: hm().T5GemmaBackbone(
                            vocabulary_size=sp.VOCAB, encoder_hidden_dim=32,
                            encoder_intermediate_dim=64, encoder_num_layers=2,
                            encoder_num_attention_heads=4, encoder_num_key_value_heads=2,
                            encoder_head_dim=8,
                            encoder_layer_types=["sliding_attention", "full_attention"],
                            decoder_hidden_dim=32, decoder_intermediate_dim=64,
                            decoder_num_layers=2, decoder_num_attention_heads=4,
                            decoder_num_key_value_heads=2, decoder_head_dim=8,
                            decoder_layer_types=["sliding_attention", "full_attention"],
                            sliding_window=4), sp._seq2seq()))
    m["hub_PaliGemma"] = ("keras-hub PaliGemmaBackbone (SigLIP ViT + Gemma, prefix LM)",
                          sp.hub_model(lambda: hm().PaliGemmaBackbone(
                              vocabulary_size=sp.VOCAB, image_size=32, num_layers=2,
                              num_query_heads=4, num_key_value_heads=1, hidden_dim=32,
                              intermediate_dim=64, head_dim=8, vit_patch_size=8,
                              vit_num_heads=2, vit_hidden_dim=16, vit_num_layers=2),
                              [("images", (2, 32, 32, 3), "float32", _rand((2, 32, 32, 3), 33)),
                               ("token_ids", (2, 24), "int32", _ids((2, 24), 97, 34, 1)),
                               ("padding_mask", (2, 24), "int32", np.ones((2, 24), np.int32)),
                               ("response_mask", (2, 24), "int32",
                                (np.arange(24) >= 20).astype(np.int32)[None].repeat(2, 0))]))


# ---------------------------------------------------------------------------------------------
# Plain TensorFlow.

def _w(shape, seed, scale=0.3):
    return np.random.RandomState(seed).normal(0, scale, shape).astype(np.float32)


def _tf1_transformer():
    """A TF1 translation model as tf.compat.v1 code wrote it: dense projections of
    tf.compat.v1.get_variable weights (tensordot, as tf.compat.v1.layers.dense wrote them),
    hand-written layer norm, an encoder layer with a padding mask, and greedy decoding in a TF1
    while loop (a growing decoded prefix re-run through a causal decoder layer
    each step, shape invariants, argmax, tf.concat)."""
    tf = _tf()
    d, vocab, steps = 16, 23, 5

    def body(src):
        tf1 = tf.compat.v1
        init = tf1.random_normal_initializer(0.0, 0.3, seed=3)
        emb = tf1.get_variable("emb", [vocab, d], initializer=init)
        pos = tf1.get_variable("pos", [32, d], initializer=init)

        def dense(x, units, act=None, name=None):  # tf.compat.v1.layers.dense needs Keras 2
            with tf1.variable_scope(name):
                w = tf1.get_variable("kernel", [x.shape[-1], units], initializer=init)
                b = tf1.get_variable("bias", [units], initializer=init)
                y = tf.tensordot(x, w, 1) + b
                return act(y) if act else y

        def norm(x, scope):
            with tf1.variable_scope(scope):
                g = tf1.get_variable("g", [d], initializer=tf1.ones_initializer())
                mean, var = tf.nn.moments(x, [-1], keepdims=True)
                return (x - mean) * tf1.rsqrt(var + 1e-6) * g

        def attend(q_in, kv_in, bias, scope):
            with tf1.variable_scope(scope, reuse=tf1.AUTO_REUSE):
                q = dense(q_in, d, name="q")
                k = dense(kv_in, d, name="k")
                v = dense(kv_in, d, name="v")

                def heads(t):
                    t = tf.reshape(t, [tf.shape(t)[0], tf.shape(t)[1], 4, d // 4])
                    return tf.transpose(t, [0, 2, 1, 3])
                logits = tf.matmul(heads(q), heads(k), transpose_b=True) * (d // 4) ** -0.5
                w = tf.nn.softmax(logits + bias)
                o = tf.transpose(tf.matmul(w, heads(v)), [0, 2, 1, 3])
                o = tf.reshape(o, [tf.shape(o)[0], tf.shape(o)[1], d])
                return dense(o, d, name="o")

        def ffn(x, scope):
            with tf1.variable_scope(scope, reuse=tf1.AUTO_REUSE):
                h = dense(x, 2 * d, tf.nn.relu, name="f1")
                return dense(h, d, name="f2")

        src_len = tf.shape(src)[1]
        pad_bias = tf.cast(tf.equal(src, 0), tf.float32)[:, None, None, :] * -1e9
        x = tf.nn.embedding_lookup(emb, src) * d ** 0.5 + pos[:src_len]
        x = norm(x + attend(x, x, pad_bias, "enc_att"), "enc_n1")
        memory = norm(x + ffn(x, "enc_ffn"), "enc_n2")

        def decode(prefix):
            n = tf.shape(prefix)[1]
            y = tf.gather(emb_value, prefix) * d ** 0.5 + pos[:n]
            causal = (1.0 - tf1.matrix_band_part(tf.ones([n, n]), -1, 0)) * -1e9
            y = norm(y + attend(y, y, causal, "dec_self"), "dec_n1")
            y = norm(y + attend(y, memory, pad_bias, "dec_cross"), "dec_n2")
            y = norm(y + ffn(y, "dec_ffn"), "dec_n3")
            return tf.matmul(y[:, -1], emb_value, transpose_b=True)

        emb_value = tf.identity(emb, name="emb_value")  # read once, outside the loop
        batch = tf.shape(src)[0]
        start = tf.fill([batch, 1], 1)

        def step(i, prefix, scores):
            logits = decode(prefix)
            nxt = tf.argmax(logits, -1, output_type=tf.int32)
            best = tf.reduce_max(tf.nn.log_softmax(logits), -1)
            return i + 1, tf.concat([prefix, nxt[:, None]], 1), scores + best
        _, out, scores = tf1.while_loop(
            lambda i, *_: i < steps, step, [tf.constant(0), start, tf.zeros([batch])],
            shape_invariants=[tf.TensorShape([]), tf.TensorShape([None, None]),
                              tf.TensorShape([None])])
        return [out, scores, memory]
    src = _ids((2, 7), 23, 41, 2)
    src[1, 5:] = 0
    return tf1_graph(body, [("src", (None, None), tf.int32, src)])


def _recsys_dlrm():
    """A DLRM-style recommender: a bottom MLP over dense features, embedding lookups of
    categorical ids, the pairwise dot interaction (batched matmul, the strict upper triangle
    gathered by a constant index list), a top MLP; a DCN-v2 cross network on the same inputs."""
    tf = _tf()
    nf, d = 4, 8
    tables = [tf.constant(_w((v, d), 50 + i)) for i, v in enumerate((11, 7, 13))]
    tri = np.array([i * nf + j for i in range(nf) for j in range(i + 1, nf)], np.int32)

    def fn(dense, cats):
        bot = tf.nn.relu(tf.matmul(dense, _w((5, d), 60)) + 0.1)
        embs = [tf.gather(t, cats[:, i]) for i, t in enumerate(tables)]
        feats = tf.stack([bot] + embs, 1)  # [batch, nf, d]
        inter = tf.matmul(feats, feats, transpose_b=True)
        flat = tf.reshape(inter, [-1, nf * nf])
        pairs = tf.gather(flat, tri, axis=1)
        top = tf.nn.relu(tf.matmul(tf.concat([bot, pairs], 1), _w((d + len(tri), 8), 61)))
        ctr = tf.sigmoid(tf.matmul(top, _w((8, 1), 62)))
        x0 = tf.concat([dense] + embs, 1)
        x = x0
        for i in range(2):  # DCN-v2 cross layers: x0 * (W x + b) + x
            x = x0 * (tf.matmul(x, _w((29, 29), 63 + i, 0.1)) + 0.05) + x
        return [ctr, tf.nn.sigmoid(tf.reduce_sum(x, 1)), pairs]
    return tf_function(fn, [("dense", (None, 5), tf.float32, _rand((3, 5), 64)),
                            ("cats", (None, 3), tf.int32,
                             np.array([[1, 2, 3], [10, 6, 12], [0, 0, 0]], np.int32))])


def _soft_nms():
    """Detection post-processing the first sets leave out: soft-NMS
    (non_max_suppression_with_scores with sigma > 0, NonMaxSuppressionV5), padded NMS
    (pad_to_max_output_size), non_max_suppression_overlaps, per-class boxes through batched
    gathers, and box IoU matrices."""
    tf = _tf()

    def fn(boxes, scores):
        b0, s0 = boxes[0], scores[0, :, 0]
        sel, sel_scores = tf.image.non_max_suppression_with_scores(
            b0, s0, 6, iou_threshold=0.6, score_threshold=0.05, soft_nms_sigma=0.5)
        padded, valid = tf.image.non_max_suppression_padded(
            b0, s0, 8, iou_threshold=0.5, score_threshold=0.1, pad_to_max_output_size=True)
        ymin, xmin, ymax, xmax = tf.unstack(b0, axis=1)
        area = (ymax - ymin) * (xmax - xmin)
        iy = tf.maximum(0.0, tf.minimum(ymax[:, None], ymax) - tf.maximum(ymin[:, None], ymin))
        ix = tf.maximum(0.0, tf.minimum(xmax[:, None], xmax) - tf.maximum(xmin[:, None], xmin))
        iou = iy * ix / (area[:, None] + area - iy * ix)
        ov = tf.image.non_max_suppression_overlaps(iou, s0, 5, 0.5, 0.1)
        top_s, top_i = tf.math.top_k(tf.reshape(scores, [2, -1]), 5)
        box_i = top_i // 3
        picked = tf.gather(boxes, box_i, batch_dims=1)
        return [sel, sel_scores, padded, valid, ov, picked, tf.gather(b0, sel)]
    rng = np.random.RandomState(70)
    yx = rng.uniform(0, 0.6, (2, 20, 2))
    hw = rng.uniform(0.1, 0.4, (2, 20, 2))
    boxes = np.concatenate([yx, yx + hw], -1).astype(np.float32)
    scores = rng.uniform(0, 1, (2, 20, 3)).astype(np.float32)
    return tf_function(fn, [("boxes", (2, 20, 4), tf.float32, boxes),
                            ("scores", (2, 20, 3), tf.float32, scores)])


def _array_ops():
    """Array ops of ranking, detection and sequence heads: tensor_scatter_nd_update / add /
    max / min / sub, scatter_nd, gather_nd and gather with batch_dims, reverse_sequence,
    matrix_set_diag / matrix_diag with k, boolean_mask, dynamic_stitch, unravel_index,
    sequence_mask, tf.math.segment_max / min / prod / mean on sorted ids, in_top_k,
    confusion_matrix, one_hot with on/off values, tf.reverse, tf.repeat."""
    tf = _tf()

    def fn(x, idx, lens):
        pos = tf.stack([tf.range(4), idx[:, 0]], 1)
        outs = [tf.tensor_scatter_nd_update(x, pos, tf.fill([4], 9.0)),
                tf.tensor_scatter_nd_add(x, pos, tf.ones([4])),
                tf.tensor_scatter_nd_max(x, pos, tf.fill([4], 0.5)),
                tf.tensor_scatter_nd_min(x, pos, tf.fill([4], -0.5)),
                tf.tensor_scatter_nd_sub(x, pos, tf.ones([4])),
                tf.scatter_nd(pos, tf.range(4, dtype=tf.float32), [4, 6]),
                tf.gather_nd(x, pos), tf.gather(x, idx, batch_dims=1),
                tf.gather_nd(tf.reshape(x, [4, 3, 2]), idx[:, :1] % 3, batch_dims=1),
                tf.reverse_sequence(x, lens, seq_axis=1, batch_axis=0),
                tf.linalg.set_diag(tf.reshape(x, [2, 2, 6])[:, :, :2], tf.ones([2, 2])),
                tf.linalg.diag(x[:, :3], k=1), tf.linalg.diag_part(
                    tf.reshape(x[:, :4], [4, 2, 2]), k=(-1, 0)),
                tf.boolean_mask(x, x[:, 0] > 0), tf.dynamic_stitch(
                    [tf.constant([0, 2]), tf.constant([1, 3])], [x[:2], x[2:]]),
                tf.unravel_index(idx[:, 0] + 7, [3, 5]),
                tf.sequence_mask(lens, 6), tf.math.segment_max(x, [0, 0, 1, 1]),
                tf.math.segment_min(x, [0, 1, 1, 2]), tf.math.segment_prod(x, [0, 0, 0, 1]),
                tf.math.segment_mean(x, [0, 1, 1, 1]),
                tf.math.in_top_k(idx[:, 0], x, 2),
                tf.math.confusion_matrix(idx[:, 0], idx[:, 1], 6),
                tf.one_hot(idx[:, 0], 5, on_value=2.0, off_value=-1.0, axis=0),
                tf.reverse(x, [0, 1]), tf.repeat(x, lens[:4] % 3 + 1, axis=0),
                tf.math.unsorted_segment_sum(x, idx[:, 1] % 3, 3)]
        return outs
    return tf_function(fn, [("x", (4, 6), tf.float32, _rand((4, 6), 80)),
                            ("idx", (4, 2), tf.int32,
                             np.array([[1, 5], [0, 2], [5, 5], [3, 0]], np.int32)),
                            ("lens", (4,), tf.int32, np.array([6, 2, 0, 4], np.int32))])


def _keras_layers():
    """Keras 3 layers not covered by the other sets: SeparableConv1D, DepthwiseConv1D,
    Conv2D with dilation and groups=1 depth multiplier, AlphaDropout / GaussianNoise at
    inference, Bidirectional GRU with a mask from Embedding(mask_zero), TimeDistributed Dense
    over a sequence, Dot with normalize, Minimum /
    Maximum / Subtract / Average merges."""
    def make():
        k = _tf().keras
        L = k.layers
        ids = inp_ids = k.Input((9,), dtype="int32")
        e = L.Embedding(30, 8, mask_zero=True)(ids)
        r = L.Bidirectional(L.GRU(5, return_sequences=True))(e)
        r = L.TimeDistributed(L.Dense(4))(r)
        c = L.SeparableConv1D(6, 3, depth_multiplier=2, padding="same")(e)
        c = L.DepthwiseConv1D(3, dilation_rate=2, padding="same")(c)
        c = L.AlphaDropout(0.2)(L.GaussianNoise(0.3)(c))
        a = L.GlobalAveragePooling1D()(r)
        b = L.GlobalMaxPooling1D()(c)
        b = L.Dense(4)(b)
        y = L.Concatenate()([L.Minimum()([a, b]), L.Maximum()([a, b]), L.Subtract()([a, b]),
                             L.Average()([a, b]), L.Dot(1, normalize=True)([a, b])])
        return k.Model(inp_ids, L.Dense(3)(y))
    ids = _ids((2, 9), 30, 90, 1)
    ids[1, 6:] = 0
    return keras_model(make, [("ids", (2, 9), "int32", ids)])


def _tf1_block_rnn():
    """A TF1 speech / text model as tf.contrib.rnn's fused cells wrote it (DeepSpeech 0.x froze
    its acoustic model this way): a BlockLSTM layer (LSTMBlockFusedCell: time-major, seq_len_max
    from the batch's lengths, peepholes, cell clipping), a BlockLSTMV2 layer, LSTMBlockCell and
    GRUBlockCell stepped in a TF1 while loop (dynamic_rnn with LSTMBlockCell / GRUBlockCell), the
    outputs masked by the sequence lengths."""
    tf = _tf()
    t_len, batch, inp, cell = 7, 3, 6, 8

    def body(x, lengths):
        tf1 = tf.compat.v1
        init = tf1.random_normal_initializer(0.0, 0.4, seed=5)

        def var(name, shape):
            return tf1.get_variable(name, shape, initializer=init)
        xt = tf.transpose(x, [1, 0, 2])  # time-major
        seq_len_max = tf.cast(tf.reduce_max(lengths), tf.int64)
        zeros = tf.zeros([tf.shape(x)[0], cell])
        mask = tf.transpose(tf.sequence_mask(lengths, t_len, tf.float32))[:, :, None]
        l1 = tf.raw_ops.BlockLSTM(
            seq_len_max=seq_len_max, x=xt, cs_prev=zeros, h_prev=zeros,
            w=var("l1_w", [inp + cell, 4 * cell]), wci=var("l1_wci", [cell]),
            wcf=var("l1_wcf", [cell]), wco=var("l1_wco", [cell]), b=var("l1_b", [4 * cell]),
            forget_bias=1.0, cell_clip=2.0, use_peephole=True)
        h1 = l1.h * mask
        l2 = tf.raw_ops.BlockLSTMV2(
            seq_len_max=seq_len_max, x=h1, cs_prev=zeros, h_prev=zeros,
            w=var("l2_w", [2 * cell, 4 * cell]), wci=var("l2_wci", [cell]),
            wcf=var("l2_wcf", [cell]), wco=var("l2_wco", [cell]), b=var("l2_b", [4 * cell]))
        h2 = l2.h * mask
        w3, b3 = var("l3_w", [2 * cell, 4 * cell]), var("l3_b", [4 * cell])
        peep = [var("l3_p%d" % i, [cell]) for i in range(3)]
        w_ru, w_c = var("g_wru", [2 * cell, 2 * cell]), var("g_wc", [2 * cell, cell])
        b_ru, b_c = var("g_bru", [2 * cell]), var("g_bc", [cell])

        def step(t, cs, h, g, out):
            xi = h2[t]
            c3 = tf.raw_ops.LSTMBlockCell(x=xi, cs_prev=cs, h_prev=h, w=w3, wci=peep[0],
                                          wcf=peep[1], wco=peep[2], b=b3, forget_bias=0.5,
                                          cell_clip=3.0, use_peephole=False)
            gr = tf.raw_ops.GRUBlockCell(x=c3.h, h_prev=g, w_ru=w_ru, w_c=w_c, b_ru=b_ru,
                                         b_c=b_c)
            live = tf.cast(t < lengths, tf.float32)[:, None]  # dynamic_rnn's copy-through
            cs = live * c3.cs + (1 - live) * cs
            h = live * c3.h + (1 - live) * h
            g = live * gr.h + (1 - live) * g
            return t + 1, cs, h, g, out.write(t, g)
        out = tf.TensorArray(tf.float32, size=t_len)
        _, cs, h, g, out = tf1.while_loop(lambda t, *_: t < t_len, step,
                                          [tf.constant(0), zeros, zeros, zeros, out])
        return [tf.transpose(out.stack(), [1, 0, 2]), g, h1, l1.cs, l2.co]
    return tf1_graph(body, [("x", (None, t_len, inp), tf.float32, _rand((batch, t_len, inp), 95)),
                            ("lengths", (None,), tf.int32, np.array([7, 4, 1], np.int32))])


def _tf1_optimized_for_inference():
    """A TF1 image model (resize to the network's size, reflection and symmetric padding before
    convolutions, batch norm, an upsampling decoder) frozen with graph_util and then rewritten
    by TensorFlow's optimize_for_inference, as TF1 mobile deployment guides did: the rewrite
    folds the batch norms and fuses ResizeBilinear + MirrorPad + Conv2D into
    FusedResizeAndPadConv2D and MirrorPad + Conv2D into FusedPadConv2D."""
    tf = _tf()

    def body(x):
        tf1 = tf.compat.v1
        init = tf1.random_normal_initializer(0.0, 0.3, seed=7)

        def conv(h, name, k, cin, cout, stride=1, padding="VALID"):
            w = tf1.get_variable(name, [k, k, cin, cout], initializer=init)
            return tf.nn.conv2d(h, w, [1, stride, stride, 1], padding)

        def bn(h, name, ch):
            with tf1.variable_scope(name):
                scale = tf1.get_variable("scale", [ch], initializer=tf1.ones_initializer())
                offset = tf1.get_variable("offset", [ch], initializer=init)
                mean = tf1.get_variable("mean", [ch], initializer=init)
                var = tf1.get_variable("var", [ch], initializer=tf1.ones_initializer())
            return tf1.nn.fused_batch_norm(h, scale, offset, mean=mean, variance=var,
                                           is_training=False)[0]
        h = tf1.image.resize_bilinear(x, [40, 40])
        h = tf.pad(h, [[0, 0], [3, 3], [3, 3], [0, 0]], mode="REFLECT")
        h = tf.nn.relu(bn(conv(h, "c1", 7, 3, 8, 2), "bn1", 8))
        h = tf.pad(h, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="SYMMETRIC")
        h = tf.nn.relu(bn(conv(h, "c2", 3, 8, 12, 2), "bn2", 12))
        h = tf1.image.resize_bilinear(h, [20, 20], align_corners=True)
        h = tf.pad(h, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
        h = tf.nn.relu(conv(h, "c3", 3, 12, 8, 1, "SAME"))
        logits = tf.reduce_mean(conv(h, "c4", 1, 8, 5), [1, 2])
        return [tf.nn.softmax(logits), h]
    frozen = tf1_graph(body, [("x", (1, 33, 29, 3), tf.float32, _rand((1, 33, 29, 3), 97))])

    def build():
        from tensorflow.python.tools import optimize_for_inference_lib
        graph_def, feeds, extra = frozen()
        optimized = optimize_for_inference_lib.optimize_for_inference(
            graph_def, ["x"], ["Identity", "Identity_1"], tf.float32.as_datatype_enum)
        return optimized, feeds, extra
    return build


def _plain(m):
    m["tf1_transformer_greedy"] = ("TF1 Transformer, get_variable layers, greedy decode loop",
                                   _tf1_transformer())
    m["tf1_block_rnn"] = ("TF1 fused RNN cells: BlockLSTM, BlockLSTMV2, LSTMBlockCell, "
                          "GRUBlockCell", _tf1_block_rnn())
    m["tf1_optimize_for_inference"] = ("TF1 CNN after optimize_for_inference: "
                                       "FusedResizeAndPadConv2D, FusedPadConv2D",
                                       _tf1_optimized_for_inference())
    m["recsys_dlrm_dcn"] = ("DLRM dot interaction + DCN-v2 cross layers, batch None",
                            _recsys_dlrm())
    m["detection_soft_nms"] = ("soft-NMS (V5 sigma), padded NMS, NMS with overlaps",
                               _soft_nms())
    m["array_ops_heads"] = ("tensor_scatter_nd_*, batched gathers, reverse_sequence, diag",
                            _array_ops())
    m["keras3_seq_layers"] = ("SeparableConv1D, DepthwiseConv1D, masked BiGRU, merges",
                              _keras_layers())


def add(m):
    _plain(m)
    import importlib.util
    have = lambda mod: importlib.util.find_spec(mod) is not None  # noqa: E731
    if have("keras_cv_attention_models") and have("tf_keras"):
        _kecam_models(m)
    else:
        print("sweep_heldout: keras-cv-attention-models models left out (needs it and tf-keras)")
    if have("tf_keras"):
        _tfk_models(m)
    else:
        print("sweep_heldout: tf-keras models left out")
    if have("keras_hub"):
        _hub_models(m)
    else:
        print("sweep_heldout: keras-hub models left out")


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    if len(sys.argv) == 4 and sys.argv[1] == "--kecam":
        _kecam_freeze(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == "--tfk":
        _tfk_freeze(sys.argv[2], sys.argv[3])
    else:
        sys.exit("usage: sweep_heldout.py --kecam|--tfk NAME OUT.pb (run by model_sweep.py)")
