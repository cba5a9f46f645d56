"""Records the op-coverage corpus for tests/corpus: what TensorFlow writes for real model code.
Every Keras layer class in its common configurations (convolutions 1-D/2-D/3-D with strides,
dilation and groups; separable, depthwise and transposed convolutions; pooling; normalization;
attention; recurrent layers; embeddings; resizing, cropping, padding and preprocessing layers;
every activation) and tf.image, tf.signal, tf.math, tf.strings, segment, sparse and detection
post-processing functions, each as a small model (seeded weights, nothing downloaded), frozen to a
GraphDef and run in TensorFlow on seeded inputs. For each entry it writes

    tests/corpus/data/<name>.pb          the frozen GraphDef, exactly the graph run;
    tests/corpus/data/<name>.case.pbtxt  feeds, fetches and TensorFlow's outputs (model_test's
                                         format, tests/tfgen/make_model_cases.py);

and tests/corpus/data/README.md: the corpus list (what each graph is) and the coverage report,
which ranks TensorFlow ops by how many corpus graphs use them and says whether Rill registers
each. Deterministic. Regenerate with

    pip install tensorflow-cpu numpy   # only to regenerate
    python3 tests/tfgen/make_layer_corpus.py [name-substring ...]
"""
import collections
import glob
import os
import re
import sys

os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_model_cases as models  # noqa: E402

REPO_ROOT = models.REPO_ROOT
OUT = os.path.join(REPO_ROOT, "tests", "corpus", "data")
k = tf.keras
L = tf.keras.layers
F32 = tf.float32
I32 = tf.int32

# name -> (builder, [(shape, dtype, low, high)], rtol, atol, description)
ENTRIES = collections.OrderedDict()


def entry(name, inputs, description, rtol=1e-5, atol=1e-6):
    def register(builder):
        ENTRIES[name] = (builder, inputs, rtol, atol, description)
        return builder
    return register


def layer_entry(name, layer_fn, shape, description=None, rtol=1e-4, atol=1e-5, dtype=F32,
                low=-1.0, high=1.0):
    """A Sequential of Input(shape[1:]) and the layer(s) layer_fn() returns."""
    def build():
        made = layer_fn()
        made = made if isinstance(made, list) else [made]
        return k.Sequential([k.Input(shape[1:], dtype=dtype)] + made)
    ENTRIES[name] = (build, [(shape, dtype, low, high)], rtol, atol,
                     description or "Keras " + name)


# Convolutions.
layer_entry("conv1d", lambda: L.Conv1D(4, 3), (2, 10, 3))
layer_entry("conv1d_same_stride2", lambda: L.Conv1D(4, 3, strides=2, padding="same"), (2, 11, 3))
layer_entry("conv1d_causal_dilated", lambda: L.Conv1D(4, 3, padding="causal", dilation_rate=2),
            (2, 12, 3))
layer_entry("conv1d_groups", lambda: L.Conv1D(4, 3, groups=2), (2, 10, 4))
layer_entry("conv2d_valid", lambda: L.Conv2D(4, 3), (2, 8, 8, 3))
layer_entry("conv2d_same_stride2", lambda: L.Conv2D(4, 3, strides=2, padding="same"),
            (2, 9, 9, 3))
layer_entry("conv2d_dilated", lambda: L.Conv2D(4, 3, dilation_rate=2, padding="same"),
            (2, 10, 10, 3))
layer_entry("conv2d_groups", lambda: L.Conv2D(6, 3, groups=3, padding="same"), (2, 8, 8, 6),
            "Keras Conv2D(groups=3): TensorFlow refuses grouped Conv2D on CPU without XLA")
layer_entry("conv2d_1x1_relu", lambda: L.Conv2D(8, 1, activation="relu"), (2, 6, 6, 4))
layer_entry("conv3d", lambda: L.Conv3D(3, 2), (1, 5, 5, 5, 2))
layer_entry("conv3d_same_stride2", lambda: L.Conv3D(3, 3, strides=2, padding="same"),
            (1, 6, 6, 6, 2))
layer_entry("separable_conv1d", lambda: L.SeparableConv1D(4, 3, padding="same"), (2, 10, 3))
layer_entry("separable_conv2d", lambda: L.SeparableConv2D(4, 3, depth_multiplier=2), (2, 8, 8, 3))
layer_entry("depthwise_conv1d", lambda: L.DepthwiseConv1D(3, depth_multiplier=2), (2, 10, 3))
layer_entry("depthwise_conv2d", lambda: L.DepthwiseConv2D(3, padding="same"), (2, 8, 8, 3))
layer_entry("depthwise_conv2d_dilated", lambda: L.DepthwiseConv2D(3, dilation_rate=2),
            (2, 9, 9, 3))
layer_entry("depthwise_conv2d_stride2", lambda: L.DepthwiseConv2D(3, strides=2, padding="same"),
            (2, 9, 9, 4))
layer_entry("conv1d_transpose", lambda: L.Conv1DTranspose(4, 3, strides=2), (2, 6, 3))
layer_entry("conv2d_transpose", lambda: L.Conv2DTranspose(4, 3, strides=2, padding="same"),
            (2, 5, 5, 3))
layer_entry("conv2d_transpose_valid", lambda: L.Conv2DTranspose(2, 2), (2, 4, 4, 3))
layer_entry("conv3d_transpose", lambda: L.Conv3DTranspose(2, 2, strides=2), (1, 3, 3, 3, 2))

# Pooling.
layer_entry("max_pool1d", lambda: L.MaxPooling1D(2), (2, 9, 3))
layer_entry("avg_pool1d_same", lambda: L.AveragePooling1D(3, strides=2, padding="same"),
            (2, 9, 3))
layer_entry("max_pool2d_same", lambda: L.MaxPooling2D(3, strides=2, padding="same"),
            (2, 9, 9, 3))
layer_entry("avg_pool2d", lambda: L.AveragePooling2D(2), (2, 8, 8, 3))
layer_entry("max_pool3d", lambda: L.MaxPooling3D(2), (1, 4, 4, 4, 2))
layer_entry("avg_pool3d", lambda: L.AveragePooling3D(2), (1, 4, 4, 4, 2))
layer_entry("global_pools", lambda: [L.GlobalAveragePooling2D(keepdims=True),
                                     L.GlobalMaxPooling2D()], (2, 5, 5, 3))
layer_entry("global_pool1d", lambda: L.GlobalMaxPooling1D(), (2, 7, 3))
layer_entry("global_avg_pool3d", lambda: L.GlobalAveragePooling3D(), (1, 3, 3, 3, 2))

# Normalization.
layer_entry("batch_norm", lambda: L.BatchNormalization(), (2, 4, 4, 3))
layer_entry("layer_norm", lambda: L.LayerNormalization(), (2, 5, 6))
layer_entry("group_norm", lambda: L.GroupNormalization(groups=2), (2, 4, 4, 6))
layer_entry("unit_norm", lambda: L.UnitNormalization(), (2, 6))
layer_entry("spectral_like_l2", lambda: L.Lambda(lambda x: tf.math.l2_normalize(x, axis=-1)),
            (2, 6))

# Dense, embedding, reshaping and merging.
layer_entry("dense_relu", lambda: L.Dense(5, activation="relu"), (2, 7))
layer_entry("dense_3d", lambda: L.Dense(4), (2, 3, 5))
layer_entry("einsum_dense", lambda: L.EinsumDense("abc,cd->abd", output_shape=(None, 4)),
            (2, 3, 5))
layer_entry("embedding", lambda: L.Embedding(20, 4), (2, 6), dtype=I32, low=0, high=20)
layer_entry("flatten_reshape_permute", lambda: [L.Flatten(), L.Reshape((3, 8)),
                                                L.Permute((2, 1))], (2, 4, 6))
layer_entry("repeat_vector", lambda: L.RepeatVector(3), (2, 4))
layer_entry("zero_padding1d", lambda: L.ZeroPadding1D((1, 2)), (2, 5, 3))
layer_entry("zero_padding2d", lambda: L.ZeroPadding2D(((1, 0), (2, 1))), (2, 4, 4, 3))
layer_entry("zero_padding3d", lambda: L.ZeroPadding3D(1), (1, 3, 3, 3, 2))
layer_entry("cropping1d", lambda: L.Cropping1D((1, 2)), (2, 7, 3))
layer_entry("cropping2d", lambda: L.Cropping2D(((1, 1), (0, 2))), (2, 6, 6, 3))
layer_entry("cropping3d", lambda: L.Cropping3D(1), (1, 4, 4, 4, 2))
layer_entry("upsampling1d", lambda: L.UpSampling1D(2), (2, 4, 3))
layer_entry("upsampling2d_nearest", lambda: L.UpSampling2D(2), (2, 4, 4, 3))
layer_entry("upsampling2d_bilinear", lambda: L.UpSampling2D(2, interpolation="bilinear"),
            (2, 4, 4, 3))
layer_entry("upsampling3d", lambda: L.UpSampling3D(2), (1, 2, 2, 2, 2))
layer_entry("resizing_bilinear", lambda: L.Resizing(7, 5), (2, 4, 6, 3))
layer_entry("resizing_nearest", lambda: L.Resizing(7, 5, interpolation="nearest"), (2, 4, 6, 3))
layer_entry("resizing_bicubic", lambda: L.Resizing(7, 5, interpolation="bicubic"), (2, 4, 6, 3))
layer_entry("resizing_area", lambda: L.Resizing(3, 2, interpolation="area"), (2, 6, 6, 3))
layer_entry("center_crop", lambda: L.CenterCrop(4, 4), (2, 6, 7, 3))
layer_entry("rescaling", lambda: L.Rescaling(1 / 127.5, offset=-1), (2, 4, 4, 3), low=0,
            high=255)
layer_entry("normalization", lambda: L.Normalization(mean=[0.1, 0.2, 0.3],
                                                     variance=[1.0, 2.0, 3.0]), (2, 4, 3))


@entry("merge_layers", [((2, 5), F32, -1, 1), ((2, 5), F32, -1, 1)], "Keras Add, Subtract, "
       "Multiply, Average, Maximum, Minimum, Concatenate and Dot of two inputs")
def merge_layers():
    a, b = k.Input((5,)), k.Input((5,))
    outs = [L.Add()([a, b]), L.Subtract()([a, b]), L.Multiply()([a, b]), L.Average()([a, b]),
            L.Maximum()([a, b]), L.Minimum()([a, b]), L.Dot(axes=1)([a, b])]
    return k.Model([a, b], L.Concatenate()(outs))


# Activations: every Keras activation and activation layer.
for act in ["relu", "relu6", "elu", "selu", "gelu", "sigmoid", "hard_sigmoid", "softplus",
            "softsign", "tanh", "exponential", "swish", "mish", "log_softmax", "softmax",
            "leaky_relu", "hard_silu", "linear", "silu", "celu", "glu", "log_sigmoid",
            "sparse_plus", "squareplus", "tanh_shrink", "hard_tanh", "soft_shrink",
            "hard_shrink", "sparsemax"]:
    def make(act=act):
        return L.Activation(act)
    try:
        k.activations.get(act)
    except Exception:  # an activation this Keras does not have
        continue
    layer_entry("act_" + act, make, (2, 8), "Keras Activation('%s')" % act, low=-3, high=3)
layer_entry("gelu_approximate", lambda: L.Lambda(lambda x: tf.nn.gelu(x, approximate=True)),
            (2, 8), low=-3, high=3)
layer_entry("gelu_exact", lambda: L.Lambda(lambda x: tf.nn.gelu(x, approximate=False)),
            (2, 8), "tf.nn.gelu(approximate=False): Erfc in TensorFlow's graph", low=-3, high=3)
layer_entry("prelu", lambda: L.PReLU(), (2, 6))
layer_entry("relu_layer_options", lambda: L.ReLU(max_value=0.5, negative_slope=0.1,
                                                 threshold=0.2), (2, 8))
layer_entry("leaky_relu_layer", lambda: L.LeakyReLU(0.2), (2, 8))
layer_entry("elu_layer", lambda: L.ELU(0.5), (2, 8))
layer_entry("softmax_axis", lambda: L.Softmax(axis=1), (2, 4, 3))

# Attention and recurrent layers.


@entry("multi_head_attention", [((2, 4, 8), F32, -1, 1)], "Keras MultiHeadAttention(2 heads, "
       "key_dim 4), self-attention", 1e-4, 1e-5)
def multi_head_attention():
    x = k.Input((4, 8))
    return k.Model(x, L.MultiHeadAttention(2, 4)(x, x))


@entry("attention_layers", [((2, 3, 4), F32, -1, 1), ((2, 5, 4), F32, -1, 1)],
       "Keras Attention and AdditiveAttention (query, value)", 1e-4, 1e-5)
def attention_layers():
    q, v = k.Input((3, 4)), k.Input((5, 4))
    return k.Model([q, v], L.Concatenate()([L.Attention()([q, v]), L.AdditiveAttention()([q, v])]))


@entry("transformer_block", [((2, 6, 8), F32, -1, 1)], "a Transformer encoder block: "
       "MultiHeadAttention, residual Add, LayerNormalization, Dense(gelu exact), Dense", 1e-4, 1e-5)
def transformer_block():
    x = k.Input((6, 8))
    h = L.LayerNormalization()(x + L.MultiHeadAttention(2, 4)(x, x))
    f = L.Dense(8)(L.Dense(16, activation="gelu")(h))
    return k.Model(x, L.LayerNormalization()(h + f))


layer_entry("lstm", lambda: L.LSTM(4), (2, 5, 3))
layer_entry("lstm_sequences", lambda: L.LSTM(4, return_sequences=True), (2, 5, 3))
layer_entry("gru", lambda: L.GRU(4), (2, 5, 3))
layer_entry("gru_reset_before", lambda: L.GRU(4, reset_after=False), (2, 5, 3))
layer_entry("simple_rnn", lambda: L.SimpleRNN(4, return_sequences=True), (2, 5, 3))
layer_entry("bidirectional_lstm", lambda: L.Bidirectional(L.LSTM(3)), (2, 5, 3))
layer_entry("lstm_unrolled", lambda: L.LSTM(4, unroll=True), (2, 5, 3))
layer_entry("conv_lstm1d", lambda: L.ConvLSTM1D(2, 3, padding="same"), (1, 3, 6, 2))


@entry("text_gru_classifier", [((2, 8), I32, 0, 50)], "Embedding(50, 8), GRU(8), "
       "Dense(3, softmax)", 1e-4, 1e-5)
def text_gru_classifier():
    return k.Sequential([k.Input((8,), dtype="int32"), L.Embedding(50, 8), L.GRU(8),
                         L.Dense(3, activation="softmax")])


# tf.image, tf.signal, tf.math, tf.strings, segment, sparse and detection functions, as frozen
# tf.functions.
FUNCTIONS = collections.OrderedDict()


def function_entry(name, inputs, description, rtol=1e-5, atol=1e-6):
    def register(fn):
        FUNCTIONS[name] = (fn, inputs, rtol, atol, description)
        return fn
    return register


IMG = [((1, 6, 6, 3), F32, 0, 1)]


@function_entry("image_resize_methods", IMG, "tf.image.resize with bilinear, nearest, bicubic, "
                "area, lanczos3, mitchellcubic (antialias off)", 1e-4, 1e-5)
def image_resize_methods(x):
    return [tf.image.resize(x, (4, 9), method=m) for m in
            ("bilinear", "nearest", "bicubic", "area", "lanczos3", "mitchellcubic")]


@function_entry("image_color", IMG, "tf.image rgb_to_grayscale, rgb_to_hsv, hsv_to_rgb, "
                "adjust_brightness/contrast/saturation/hue, per_image_standardization", 1e-4, 1e-5)
def image_color(x):
    return [tf.image.rgb_to_grayscale(x), tf.image.rgb_to_hsv(x),
            tf.image.hsv_to_rgb(tf.image.rgb_to_hsv(x)), tf.image.adjust_brightness(x, 0.1),
            tf.image.adjust_contrast(x, 1.5), tf.image.adjust_saturation(x, 0.7),
            tf.image.adjust_hue(x, 0.1), tf.image.per_image_standardization(x)]


@function_entry("image_geometry", IMG, "tf.image flips, rot90, transpose, central_crop, "
                "pad_to_bounding_box, crop_to_bounding_box, extract_patches")
def image_geometry(x):
    return [tf.image.flip_left_right(x), tf.image.flip_up_down(x), tf.image.rot90(x),
            tf.image.transpose(x), tf.image.central_crop(x, 0.5),
            tf.image.pad_to_bounding_box(x, 1, 2, 8, 9), tf.image.crop_to_bounding_box(x, 1, 1, 3, 4),
            tf.image.extract_patches(x, [1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1], "VALID")]


@function_entry("image_gradients", IMG, "tf.image.image_gradients, sobel_edges, total_variation",
                1e-4, 1e-5)
def image_gradients(x):
    dy, dx = tf.image.image_gradients(x)
    return [dy, dx, tf.image.sobel_edges(x), tf.image.total_variation(x)]


BOXES = [((6, 4), F32, 0, 1), ((6,), F32, 0, 1)]


@function_entry("non_max_suppression", BOXES, "tf.image.non_max_suppression (V3), "
                "_padded (V4), _with_scores (V5)")
def non_max_suppression(boxes, scores):
    boxes = tf.concat([tf.minimum(boxes[:, :2], boxes[:, 2:]),
                       tf.maximum(boxes[:, :2], boxes[:, 2:])], axis=1)
    v3 = tf.image.non_max_suppression(boxes, scores, 4, iou_threshold=0.3, score_threshold=0.1)
    v4, n = tf.image.non_max_suppression_padded(boxes, scores, 4, iou_threshold=0.3,
                                                pad_to_max_output_size=True)
    v5, s5 = tf.image.non_max_suppression_with_scores(boxes, scores, 4, soft_nms_sigma=0.5)
    return [v3, v4, n, v5, s5]


@function_entry("combined_nms", [((1, 6, 1, 4), F32, 0, 1), ((1, 6, 2), F32, 0, 1)],
                "tf.image.combined_non_max_suppression")
def combined_nms(boxes, scores):
    r = tf.image.combined_non_max_suppression(boxes, scores, 3, 4, iou_threshold=0.4)
    return [r.nmsed_boxes, r.nmsed_scores, r.nmsed_classes, r.valid_detections]


@function_entry("crop_and_resize", [((2, 6, 6, 3), F32, 0, 1)], "tf.image.crop_and_resize "
                "(bilinear and nearest)", 1e-4, 1e-5)
def crop_and_resize(x):
    boxes = tf.constant([[0.1, 0.2, 0.8, 0.9], [0.0, 0.0, 1.0, 1.0], [0.3, 0.1, 0.6, 0.5]])
    idx = tf.constant([0, 1, 1])
    return [tf.image.crop_and_resize(x, boxes, idx, (3, 4)),
            tf.image.crop_and_resize(x, boxes, idx, (3, 4), method="nearest")]


@function_entry("top_k_argsort", [((3, 7), F32, -1, 1)], "tf.math.top_k, tf.sort, tf.argsort, "
                "argmax, argmin")
def top_k_argsort(x):
    v, i = tf.math.top_k(x, 3)
    return [v, i, tf.sort(x, direction="DESCENDING"), tf.argsort(x), tf.argmax(x, 1),
            tf.argmin(x, 0)]


@function_entry("signal_frame_stft", [((2, 64), F32, -1, 1)], "tf.signal.frame, hann_window, "
                "stft (RFFT), inverse_stft-free magnitude", 1e-4, 1e-4)
def signal_frame_stft(x):
    frames = tf.signal.frame(x, 16, 8)
    spec = tf.signal.stft(x, 16, 8, fft_length=16)
    return [frames, tf.abs(spec), tf.signal.hann_window(8), tf.signal.hamming_window(8)]


@function_entry("signal_fft", [((2, 8), F32, -1, 1)], "tf.signal.rfft, irfft, fft, ifft, dct",
                1e-4, 1e-4)
def signal_fft(x):
    c = tf.signal.rfft(x)
    z = tf.complex(x, x)
    return [tf.abs(c), tf.signal.irfft(c), tf.abs(tf.signal.fft(z)),
            tf.math.real(tf.signal.ifft(z)), tf.signal.dct(x)]


@function_entry("math_special", [((3, 5), F32, 0.1, 3)], "tf.math erf, erfc, lgamma, digamma, "
                "log1p, expm1, rsqrt, softplus, xlogy, igamma-free special functions", 1e-4, 1e-5)
def math_special(x):
    return [tf.math.erf(x), tf.math.erfc(x), tf.math.lgamma(x), tf.math.digamma(x),
            tf.math.log1p(x), tf.math.expm1(x), tf.math.rsqrt(x), tf.math.xlogy(x, x),
            tf.math.xdivy(x, x), tf.math.bessel_i0e(x), tf.math.bessel_i1e(x),
            tf.math.erfinv(x / 4), tf.math.ndtri(x / 4), tf.math.sinh(x), tf.math.cosh(x),
            tf.math.asinh(x), tf.math.atan2(x, x + 1), tf.math.squared_difference(x, 1.0)]


@function_entry("math_scans", [((3, 5), F32, -1, 1)], "tf.math cumsum, cumprod (exclusive, "
                "reverse), cumulative_logsumexp, reduce_logsumexp, reduce_euclidean_norm")
def math_scans(x):
    return [tf.math.cumsum(x, 1), tf.math.cumsum(x, 0, exclusive=True, reverse=True),
            tf.math.cumprod(x, 1), tf.math.cumulative_logsumexp(x, 1),
            tf.math.reduce_logsumexp(x, 1), tf.math.reduce_euclidean_norm(x, 0),
            tf.math.reduce_variance(x, 1), tf.math.reduce_std(x, 0)]


@function_entry("math_integer", [((4, 5), I32, -20, 20)], "integer tf.math: floordiv, floormod, "
                "truncatediv, truncatemod, bitwise ops, abs, sign, bincount, cumsum")
def math_integer(x):
    y = tf.abs(x) + 1
    return [x // y, x % y, tf.truncatediv(x, y), tf.truncatemod(x, y),
            tf.bitwise.bitwise_and(x, y), tf.bitwise.bitwise_or(x, y),
            tf.bitwise.bitwise_xor(x, y), tf.bitwise.invert(x), tf.bitwise.left_shift(x, 2),
            tf.bitwise.right_shift(x, 1), tf.sign(x), tf.math.bincount(tf.abs(x), minlength=21),
            tf.math.cumsum(x, 1)]


@function_entry("segments", [((6, 3), F32, -1, 1)], "segment_sum/mean/max/min/prod, "
                "unsorted_segment_sum/max/min/prod/mean/sqrt_n, sparse_segment_sum/mean/sqrt_n")
def segments(x):
    ids = tf.constant([0, 0, 1, 2, 2, 2])
    uids = tf.constant([2, 0, 1, 2, 0, 3])
    idx = tf.constant([0, 2, 3, 5])
    sids = tf.constant([0, 0, 1, 1])
    return [tf.math.segment_sum(x, ids), tf.math.segment_mean(x, ids),
            tf.math.segment_max(x, ids), tf.math.segment_min(x, ids),
            tf.math.segment_prod(x, ids), tf.math.unsorted_segment_sum(x, uids, 4),
            tf.math.unsorted_segment_max(x, uids, 4), tf.math.unsorted_segment_min(x, uids, 4),
            tf.math.unsorted_segment_prod(x, uids, 4), tf.math.unsorted_segment_mean(x, uids, 4),
            tf.math.unsorted_segment_sqrt_n(x, uids, 4),
            tf.sparse.segment_sum(x, idx, sids), tf.sparse.segment_mean(x, idx, sids),
            tf.sparse.segment_sqrt_n(x, idx, sids)]


@function_entry("sparse_ops", [((4, 3), F32, -1, 1)], "tf.sparse from_dense, to_dense, "
                "sparse_dense_matmul, reduce_sum, add, SparseToDense")
def sparse_ops(x):
    sp = tf.sparse.from_dense(tf.nn.relu(x))
    w = tf.reshape(tf.range(6, dtype=tf.float32), (3, 2))
    return [tf.sparse.to_dense(sp), tf.sparse.sparse_dense_matmul(sp, w),
            tf.sparse.reduce_sum(sp, 1), tf.sparse.to_dense(tf.sparse.add(sp, sp)),
            tf.sparse.to_dense(tf.sparse.reorder(sp))]


@function_entry("strings_ops", [((4,), I32, -50, 50)], "tf.strings as_string, length, "
                "upper/lower, substr, join, reduce_join, regex_replace, regex_full_match, "
                "to_number, split to ragged flat values, string_to_hash_bucket_fast")
def strings_ops(x):
    s = tf.strings.as_string(x)
    w = tf.strings.join(["ab", s, "Cd"], separator="-")
    return [tf.strings.length(w), tf.strings.upper(w), tf.strings.lower(w),
            tf.strings.substr(w, 1, 3), tf.reshape(tf.strings.reduce_join(w, separator=","), [1]),
            tf.strings.regex_replace(w, "[0-9]+", "#"), tf.strings.regex_full_match(w, ".*-1.*"),
            tf.strings.to_number(s), tf.strings.split(w, "-").flat_values,
            tf.strings.to_hash_bucket_fast(w, 10), tf.strings.strip(tf.strings.join([" ", w]))]


@function_entry("gather_scatter", [((5, 4), F32, -1, 1)], "gather (axis, batch_dims), gather_nd, "
                "scatter_nd, tensor_scatter_nd_update/add/max, boolean_mask, where, one_hot")
def gather_scatter(x):
    idx = tf.constant([[0, 1], [3, 2], [4, 0]])
    return [tf.gather(x, [3, 1], axis=1), tf.gather(x, [[0], [2], [1], [3], [0]], batch_dims=1),
            tf.gather_nd(x, idx), tf.scatter_nd(idx, tf.constant([1.0, 2.0, 3.0]), (5, 4)),
            tf.tensor_scatter_nd_update(x, idx, tf.constant([1.0, 2.0, 3.0])),
            tf.tensor_scatter_nd_add(x, idx, tf.constant([1.0, 2.0, 3.0])),
            tf.tensor_scatter_nd_max(x, idx, tf.constant([1.0, 2.0, 3.0])),
            tf.boolean_mask(x, x[:, 0] > 0), tf.where(x > 0), tf.one_hot(tf.argmax(x, 1), 4),
            tf.where(x > 0, x, -x)]


@function_entry("array_ops", [((2, 3, 4), F32, -1, 1)], "reverse, roll, tile, pad (reflect, "
                "symmetric), space_to_depth, depth_to_space, batch_to_space, space_to_batch, "
                "matrix_band_part, diag, eye, linspace, meshgrid, unique, einsum")
def array_ops(x):
    img = tf.reshape(x, (1, 2, 3, 4))
    return [tf.reverse(x, [1]), tf.roll(x, 1, 2), tf.tile(x, [1, 2, 1]),
            tf.pad(x, [[0, 0], [1, 1], [2, 2]], "REFLECT"),
            tf.pad(x, [[0, 0], [1, 1], [1, 1]], "SYMMETRIC"),
            tf.nn.space_to_depth(tf.reshape(x, (1, 2, 4, 3)), 2),
            tf.nn.depth_to_space(img, 2),
            tf.space_to_batch(tf.reshape(x, (1, 4, 6, 1)), [2, 2], [[0, 0], [0, 0]]),
            tf.batch_to_space(tf.reshape(x, (4, 2, 3, 1)), [2, 2], [[0, 0], [0, 1]]),
            tf.linalg.band_part(x, 1, 0), tf.linalg.diag(x[0, 0]), tf.eye(3),
            tf.linspace(0.0, 1.0, 5), tf.meshgrid(tf.range(3), tf.range(2))[0],
            tf.unique(tf.cast(tf.reshape(x, [-1]) * 2, tf.int32)).y,
            tf.einsum("bij,bkj->bik", x, x)]


@function_entry("linalg_ops", [((2, 3, 3), F32, -1, 1)], "matmul (adjoint, batch), "
                "matrix_transpose, det, inv, cholesky, qr, svd values, triangular_solve, norm",
                1e-3, 1e-4)
def linalg_ops(x):
    spd = tf.matmul(x, x, transpose_b=True) + 3 * tf.eye(3)
    return [tf.matmul(x, x, adjoint_a=True), tf.linalg.matrix_transpose(x), tf.linalg.det(spd),
            tf.linalg.inv(spd), tf.linalg.cholesky(spd), tf.linalg.qr(spd)[1] ** 2,
            tf.linalg.svd(spd, compute_uv=False),
            tf.linalg.triangular_solve(tf.linalg.cholesky(spd), x), tf.norm(x, axis=[1, 2]),
            tf.linalg.trace(spd), tf.linalg.logdet(spd)]


@function_entry("nn_functions", [((2, 6, 6, 4), F32, -1, 1)], "tf.nn lrn, fractional-free pools, "
                "max_pool_with_argmax, dilation2d, moments, batch_normalization, softmax "
                "cross-entropy, l2_loss, log_poisson, in_top_k, bias_add NCHW-free", 1e-4, 1e-5)
def nn_functions(x):
    labels = tf.constant([1, 3])
    logits = tf.reduce_mean(x, axis=[1, 2])
    mean, var = tf.nn.moments(x, [0, 1, 2])
    pooled, argmax = tf.nn.max_pool_with_argmax(x, 2, 2, "VALID")
    return [tf.nn.local_response_normalization(x, 2, 1.0, 0.5, 0.75), pooled, argmax,
            tf.nn.dilation2d(x, tf.ones((2, 2, 4)) * 0.1, [1, 1, 1, 1], "SAME", "NHWC",
                             [1, 1, 1, 1]),
            tf.nn.batch_normalization(x, mean, var, 0.1, 1.2, 1e-3),
            tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits),
            tf.nn.softmax_cross_entropy_with_logits(tf.one_hot(labels, 4), logits),
            tf.nn.sigmoid_cross_entropy_with_logits(tf.ones_like(logits), logits),
            tf.nn.l2_loss(x), tf.nn.in_top_k(labels, logits, 2),
            tf.nn.avg_pool3d(tf.reshape(x, (2, 2, 3, 6, 4)), 2, 1, "VALID"),
            tf.nn.conv2d(x, tf.ones((3, 3, 4, 2)) * 0.1, 1, "SAME", dilations=2)]


@function_entry("tf1_while_cond", [((3,), F32, -1, 1)], "tf.while_loop and tf.cond in a "
                "tf.function (functional While/If, lowered)")
def tf1_while_cond(x):
    i0 = tf.constant(0)
    _, y = tf.while_loop(lambda i, v: i < 5, lambda i, v: (i + 1, v * 1.1 + 0.1), [i0, x])
    z = tf.cond(tf.reduce_sum(x) > 0, lambda: y * 2, lambda: y - 1)
    return [y, z]


@function_entry("random_seeded_shapes", [((2, 3), F32, -1, 1)], "shape arithmetic: shape, "
                "size, rank, broadcast_to, broadcast_dynamic_shape, expand_dims, squeeze, "
                "stack/unstack, split (sizes), strided slices with masks")
def random_seeded_shapes(x):
    a, b = tf.unstack(x, axis=1)[:2]
    s1, s2 = tf.split(x, [1, 2], axis=1)
    return [tf.shape(x), tf.size(x), tf.rank(x), tf.broadcast_to(x[:, :1], (2, 4)),
            tf.broadcast_dynamic_shape(tf.shape(x), tf.constant([1, 3])),
            tf.expand_dims(x, 1), tf.squeeze(x[:1]), tf.stack([a, b], 1), s1, s2,
            x[::-1, 1:], x[..., tf.newaxis, 0], tf.reverse_sequence(
                tf.reshape(x, (2, 3, 1)), [1, 3], 1, 0)]


def freeze_function(fn, specs):
    concrete = tf.function(fn).get_concrete_function(*specs)
    from tensorflow.python.framework import convert_to_constants
    frozen = convert_to_constants.convert_variables_to_constants_v2(concrete)
    return frozen.graph.as_graph_def()


def make_inputs(rs, specs):
    out = []
    for shape, dtype, low, high in specs:
        if dtype == I32:
            out.append(rs.randint(low, high, size=shape).astype(np.int32))
        else:
            out.append(rs.uniform(low, high, size=shape).astype(np.float32))
    return out


def rill_registered_ops():
    ops = set()
    for path in glob.glob(os.path.join(REPO_ROOT, "ops", "*.cc")):
        ops.update(re.findall(r'REGISTER_OP\("([A-Za-z0-9_]+)"\)', open(path).read()))
    return ops


def main():
    only = sys.argv[1:]
    models.OUT = OUT
    summary, failed = [], []
    todo = [(n, e, False) for n, e in ENTRIES.items()] + \
        [(n, e, True) for n, e in FUNCTIONS.items()]
    for index, (name, (builder, specs, rtol, atol, description), is_fn) in enumerate(todo):
        if only and not any(o in name for o in only):
            continue
        rs = np.random.RandomState(1000 + index)
        tf.keras.utils.set_random_seed(index + 1)
        tspecs = [tf.TensorSpec(s, d) for s, d, _, _ in specs]
        try:
            if is_fn:
                graph_def = freeze_function(builder, tspecs)
            else:
                graph_def = models.freeze_keras(builder(), tspecs)
            models.write(name, graph_def, make_inputs(rs, specs), rtol, atol, description,
                         summary)
        except Exception as e:  # TensorFlow cannot build or freeze it: listed, not recorded
            failed.append((name, str(e).splitlines()[0][:200]))
            print("%s: not recorded: %s" % (name, failed[-1][1]))
    if only:
        return
    write_readme(summary, failed)


def write_readme(summary, failed):
    registered = rill_registered_ops()
    uses = collections.Counter()
    for item in summary:
        uses.update(item[5].keys())
    lines = ["# Op-coverage corpus", "",
             "Written by `tests/tfgen/make_layer_corpus.py` with TensorFlow %s (seeded weights, "
             "nothing downloaded); replayed by `//tests/corpus:corpus_test` (model_test's runner)."
             " Do not edit by hand: regenerate with `python3 tests/tfgen/make_layer_corpus.py`."
             % tf.__version__, "",
             "## Coverage: TensorFlow ops by the number of corpus graphs that use them", "",
             "| op | graphs | Rill registers it |", "|---|---:|---|"]
    lowered = {"PartitionedCall", "StatefulPartitionedCall", "If", "StatelessIf", "While",
               "StatelessWhile"}  # inlined or turned into TF1 control flow before running
    for op, n in sorted(uses.items(), key=lambda kv: (-kv[1], kv[0])):
        lines.append("| %s | %d | %s |" % (op, n, "yes" if op in registered else
                                          "lowered" if op in lowered else "**no**"))
    lines += ["", "%d graphs, %d distinct ops, %d of them registered in Rill, %d lowered." % (
        len(summary), len(uses), sum(1 for op in uses if op in registered),
        sum(1 for op in uses if op in lowered)), ""]
    if failed:
        lines += ["## Not recorded (TensorFlow could not build or freeze them)", ""]
        lines += ["- %s: %s" % f for f in failed] + [""]
    lines += ["## Graphs", ""]
    for name, description, ph, fetch, shapes, ops, size, rtol, atol in summary:
        lines.append("- `%s`: %s; %d nodes, %.1f KB, rtol %g atol %g" % (
            name, description, sum(ops.values()), size / 1024.0, rtol, atol))
    with open(os.path.join(OUT, "README.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
