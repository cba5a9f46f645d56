#!/usr/bin/env python3
"""The heavy kernel families of issue 28 timed in Rill and TensorFlow, one sitting.

For each family (3-D convolution and pooling, grouped Conv2D, image ops, NMS, FFT, segment and
sparse ops, linear algebra, scans, SpaceToBatchND, ScatterNd, CTC decoders, strings) one tiny graph
per case: the op under test built with tf.raw_ops on Placeholders (so neither side can fold it
away) and frozen to ~/.cache/rill-bench-models/kernels/<case>.pb (made on each run, not committed).
Each case names where its shape comes from: the 80-model sweep (tests/tfgen/model_sweep.py, e.g.
"sweep Video3D") or the layer corpus (tests/tfgen/make_layer_corpus.py, "corpus <entry>"), and a
"scaled" case takes the same layer or call at a deployment size (the corpus and sweep shapes are
tiny, so their rows mostly measure per-run cost).

  - Rill: `session_runner --benchmark --warmup=3 --repeat=N` (the -c opt build),
    intra = inter = threads, OMP_WAIT_POLICY=PASSIVE (as model_suite.py); its median.
  - TensorFlow: tf.compat.v1.Session on the same GraphDef, intra = inter = threads, its default
    oneDNN path (TF_ENABLE_ONEDNN_OPTS left unset), Session.make_callable, median of N calls after
    3 warm-ups, minus TensorFlow's Python call floor (the median of the same callable over an
    Identity of a scalar, measured in the same process; printed below the table). One child
    process per thread count (TensorFlow keeps its first session's thread pools per process).
  - Grouped Conv2D: TensorFlow refuses it on the CPU, so its column times what Keras emitted
    before groups existed (Split, one Conv2D per group, ConcatV2) on the same weights.
  - Outputs: Rill's fetch (written by the timed session_runner call at 1 thread) is compared with
    TensorFlow's: max |Rill - TF| / max |TF| for floats, "exact"/"DIFF" for ints and strings.

    bazel build -c opt //tools/session_runner
    python3 tools/bench/kernel_families.py [--only conv3d,fft] [--threads 1,2] [--reps 30]

Prints a Markdown table (family, op, shape and source, threads, Rill us, TF us, TF/Rill, check):
TF/Rill above 1 means Rill is faster. --json FILE also writes the rows; --baseline RUNNER also times
another session_runner build on each row right before the current one (before / after, one sitting).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CACHE = os.path.expanduser("~/.cache/rill-bench-models/kernels")
WARMUP = 3


def _r(shape, seed, lo=-1.0, hi=1.0):
    return np.random.RandomState(seed).uniform(lo, hi, shape).astype(np.float32)


def _boxes(n, seed):
    rs = np.random.RandomState(seed)
    yx = rs.uniform(0, 0.8, (n, 2)).astype(np.float32)
    hw = rs.uniform(0.05, 0.2, (n, 2)).astype(np.float32)
    return np.concatenate([yx, yx + hw], 1)


def _sentences(n, seed):
    rs = np.random.RandomState(seed)
    words = ["The", "quick", "brown", "FOX!", "jumps", "over", "lazy", "dog,", "hello", "world."]
    return np.array([" ".join(rs.choice(words, rs.randint(5, 25))).encode() for _ in range(n)])


def _segments(rows, segs, seed):
    return np.sort(np.random.RandomState(seed).randint(0, segs, rows)).astype(np.int32)


def _spd(shape, seed, dtype=np.float32):
    a = _r(shape, seed).astype(dtype)
    n = shape[-1]
    return (np.matmul(a, np.swapaxes(a, -1, -2)) + n * np.eye(n, dtype=dtype)).astype(dtype)


# A case: (name, family, op label, shape text, source, build). build(tf, ph) makes the graph in
# the default graph: ph(name, array) adds a Placeholder fed with array; it returns the fetched
# tensor (named "op"). A build may return (rill tensor, tf builder) where TensorFlow needs another
# graph (grouped Conv2D).
CASES = []


def case(name, family, op, shape, source):
    def register(build):
        CASES.append(dict(name=name, family=family, op=op, shape=shape, source=source,
                          build=build))
        return build
    return register


def _conv3d(x, f, strides, padding):
    def build(tf, ph):
        return tf.raw_ops.Conv3D(input=ph("x", x), filter=tf.constant(f), strides=strides,
                                 padding=padding, name="op")
    return build


case("conv3d_sweep_a", "3-D conv", "Conv3D", "[1,4,16,16,3] k3 ->8 SAME", "sweep Video3D")(
    _conv3d(_r((1, 4, 16, 16, 3), 1), _r((3, 3, 3, 3, 8), 2), [1] * 5, "SAME"))
case("conv3d_sweep_b", "3-D conv", "Conv3D", "[1,4,8,8,12] k(2,3,3) ->16 s(2,1,1)",
     "sweep Video3D")(_conv3d(_r((1, 4, 8, 8, 12), 1), _r((2, 3, 3, 12, 16), 2),
                              [1, 2, 1, 1, 1], "VALID"))
case("conv3d_scaled", "3-D conv", "Conv3D", "[1,8,56,56,16] k3 ->32 SAME",
     "scaled Video3D (C3D-like)")(
    _conv3d(_r((1, 8, 56, 56, 16), 1), _r((3, 3, 3, 16, 32), 2), [1] * 5, "SAME"))


def _conv3d_t(dy, f, in_shape, strides):
    def build(tf, ph):
        return tf.raw_ops.Conv3DBackpropInputV2(
            input_sizes=tf.constant(in_shape, tf.int32), filter=tf.constant(f),
            out_backprop=ph("dy", dy), strides=strides, padding="VALID", name="op")
    return build


case("conv3d_t_sweep", "3-D conv", "Conv3DBackpropInputV2", "[1,2,6,6,16] k2 s2 ->8",
     "sweep Video3D (Conv3DTranspose)")(
    _conv3d_t(_r((1, 2, 6, 6, 16), 1), _r((2, 2, 2, 8, 16), 2), [1, 4, 12, 12, 8],
              [1, 2, 2, 2, 1]))
case("conv3d_t_scaled", "3-D conv", "Conv3DBackpropInputV2", "[1,8,28,28,32] k2 s2 ->16",
     "scaled Video3D")(
    _conv3d_t(_r((1, 8, 28, 28, 32), 1), _r((2, 2, 2, 16, 32), 2), [1, 16, 56, 56, 16],
              [1, 2, 2, 2, 1]))


def _pool3d(kind, x, k, s):
    def build(tf, ph):
        return getattr(tf.raw_ops, kind)(input=ph("x", x), ksize=k, strides=s, padding="VALID",
                                         name="op")
    return build


case("maxpool3d_sweep", "3-D pool", "MaxPool3D", "[1,4,16,16,12] (1,2,2)", "sweep Video3D")(
    _pool3d("MaxPool3D", _r((1, 4, 16, 16, 12), 1), [1, 1, 2, 2, 1], [1, 1, 2, 2, 1]))
case("maxpool3d_scaled", "3-D pool", "MaxPool3D", "[1,16,56,56,32] 2", "scaled Video3D")(
    _pool3d("MaxPool3D", _r((1, 16, 56, 56, 32), 1), [1, 2, 2, 2, 1], [1, 2, 2, 2, 1]))
case("avgpool3d_sweep", "3-D pool", "AvgPool3D", "[1,4,32,32,8] 2", "sweep Video3D")(
    _pool3d("AvgPool3D", _r((1, 4, 32, 32, 8), 1), [1, 2, 2, 2, 1], [1, 2, 2, 2, 1]))
case("avgpool3d_scaled", "3-D pool", "AvgPool3D", "[1,16,56,56,32] 2", "scaled Video3D")(
    _pool3d("AvgPool3D", _r((1, 16, 56, 56, 32), 1), [1, 2, 2, 2, 1], [1, 2, 2, 2, 1]))


def _grouped(x, f, groups, stride):
    def build(tf, ph):
        strides = [1, stride, stride, 1]
        rill = tf.raw_ops.Conv2D(input=ph("x", x), filter=tf.constant(f), strides=strides,
                                 padding="SAME", name="op")

        def tf_graph(tf, ph):
            xs = tf.split(ph("x", x), groups, axis=3)
            fs = np.split(f, groups, axis=3)
            ys = [tf.raw_ops.Conv2D(input=xi, filter=tf.constant(fi), strides=strides,
                                    padding="SAME") for xi, fi in zip(xs, fs)]
            return tf.concat(ys, 3, name="op")
        return rill, tf_graph
    return build


case("gconv_sweep_a", "grouped conv", "Conv2D groups=3", "[1,16,16,24] k3 g3", "sweep RegNetX_like")(
    _grouped(_r((1, 16, 16, 24), 1), _r((3, 3, 8, 24), 2), 3, 1))
case("gconv_sweep_b", "grouped conv", "Conv2D groups=7", "[1,16,16,56] k3 g7 s2",
     "sweep RegNetX_like")(_grouped(_r((1, 16, 16, 56), 1), _r((3, 3, 8, 56), 2), 7, 2))
case("gconv_scaled", "grouped conv", "Conv2D groups=10", "[1,28,28,160] k3 g10",
     "scaled RegNetX-400MF stage 3")(_grouped(_r((1, 28, 28, 160), 1), _r((3, 3, 16, 160), 2),
                                              10, 1))


def _resize(kind, x, size, **attrs):
    def build(tf, ph):
        return getattr(tf.raw_ops, kind)(images=ph("x", x), size=tf.constant(size, tf.int32),
                                         name="op", **attrs)
    return build


case("bicubic_sweep", "image", "ResizeBicubic", "[2,16,16,3] ->20x12", "sweep image_ops")(
    _resize("ResizeBicubic", _r((2, 16, 16, 3), 1), [20, 12], half_pixel_centers=True))
case("bicubic_scaled", "image", "ResizeBicubic", "[1,256,256,3] ->224x224",
     "scaled image_ops (preprocessing)")(
    _resize("ResizeBicubic", _r((1, 256, 256, 3), 1), [224, 224], half_pixel_centers=True))
case("area_sweep", "image", "ResizeArea", "[2,16,16,3] ->20x12", "sweep image_ops")(
    _resize("ResizeArea", _r((2, 16, 16, 3), 1), [20, 12]))
case("area_scaled", "image", "ResizeArea", "[1,512,512,3] ->224x224", "scaled image_ops")(
    _resize("ResizeArea", _r((1, 512, 512, 3), 1), [224, 224]))

# Other channel counts: masks and depth maps (1), RGBA (4), and feature maps resized inside
# segmentation models (64: DeepLab's and U-Net's decoders resize such maps).
for _c in (1, 4, 64):
    _hw = 64 if _c == 64 else 256
    case("bilinear_c%d" % _c, "image", "ResizeBilinear",
         "[1,%d,%d,%d] ->%dx%d" % (_hw // 2, _hw // 2, _c, _hw, _hw),
         "scaled image_ops (%d channels)" % _c)(
        _resize("ResizeBilinear", _r((1, _hw // 2, _hw // 2, _c), 1), [_hw, _hw],
                half_pixel_centers=True))
    _out = 128 if _c == 64 else 224
    case("bicubic_c%d" % _c, "image", "ResizeBicubic",
         "[1,%d,%d,%d] ->%dx%d" % (_hw, _hw, _c, _out, _out),
         "scaled image_ops (%d channels)" % _c)(
        _resize("ResizeBicubic", _r((1, _hw, _hw, _c), 1), [_out, _out],
                half_pixel_centers=True))
    _area_out = 56 if _c == 64 else 224
    case("area_c%d" % _c, "image", "ResizeArea",
         "[1,%d,%d,%d] ->%dx%d" % (2 * _hw, 2 * _hw, _c, _area_out, _area_out),
         "scaled image_ops (%d channels)" % _c)(
        _resize("ResizeArea", _r((1, 2 * _hw, 2 * _hw, _c), 1), [_area_out, _area_out]))


def _scale_translate(x, size, scale):
    def build(tf, ph):
        return tf.raw_ops.ScaleAndTranslate(
            images=ph("x", x), size=tf.constant(size, tf.int32),
            scale=tf.constant(scale, tf.float32), translation=tf.constant([0.0, 0.0]),
            kernel_type="lanczos3", antialias=True, name="op")
    return build


case("scale_translate_sweep", "image", "ScaleAndTranslate", "[2,16,16,3] ->20x12 lanczos3",
     "sweep image_ops")(_scale_translate(_r((2, 16, 16, 3), 1), [20, 12], [20 / 16, 12 / 16]))
case("scale_translate_scaled", "image", "ScaleAndTranslate",
     "[1,256,256,3] ->224x224 lanczos3", "scaled image_ops")(
    _scale_translate(_r((1, 256, 256, 3), 1), [224, 224], [224 / 256, 224 / 256]))


def _crop(image, n_boxes, crop):
    def build(tf, ph):
        boxes = _boxes(n_boxes, 3)
        return tf.raw_ops.CropAndResize(
            image=ph("image", image), boxes=ph("boxes", boxes),
            box_ind=tf.zeros([n_boxes], tf.int32), crop_size=tf.constant(crop, tf.int32),
            name="op")
    return build


case("crop_sweep", "image", "CropAndResize", "[1,16,16,3] 4 boxes ->5x5",
     "sweep detection_postprocess")(_crop(_r((1, 16, 16, 3), 1), 4, [5, 5]))
case("crop_scaled", "image", "CropAndResize", "[1,38,50,256] 100 boxes ->14x14",
     "scaled detection_postprocess (Faster R-CNN ROI crop)")(
    _crop(_r((1, 38, 50, 256), 1), 100, [14, 14]))


def _patches(x, k):
    def build(tf, ph):
        return tf.raw_ops.ExtractImagePatches(images=ph("x", x), ksizes=[1, k, k, 1],
                                              strides=[1, k, k, 1], rates=[1, 1, 1, 1],
                                              padding="VALID", name="op")
    return build


case("patches_sweep", "image", "ExtractImagePatches", "[2,16,16,3] 4x4 s4", "sweep image_ops")(
    _patches(_r((2, 16, 16, 3), 1), 4))
case("patches_scaled", "image", "ExtractImagePatches", "[1,224,224,3] 16x16 s16",
     "scaled image_ops (ViT patches)")(_patches(_r((1, 224, 224, 3), 1), 16))


def _dilation(x, k):
    def build(tf, ph):
        return tf.raw_ops.Dilation2D(input=ph("x", x), filter=tf.constant(_r((k, k, x.shape[3]),
                                                                                 2) * 0.1),
                                     strides=[1, 1, 1, 1], rates=[1, 1, 1, 1], padding="SAME",
                                     name="op")
    return build


case("dilation_corpus", "image", "Dilation2D", "[2,6,6,4] 2x2", "corpus nn_functions")(
    _dilation(_r((2, 6, 6, 4), 1), 2))
case("dilation_scaled", "image", "Dilation2D", "[1,64,64,16] 3x3", "scaled nn_functions")(
    _dilation(_r((1, 64, 64, 16), 1), 3))


def _argmax_pool(x):
    def build(tf, ph):
        return tf.raw_ops.MaxPoolWithArgmax(input=ph("x", x), ksize=[1, 2, 2, 1],
                                            strides=[1, 2, 2, 1], padding="VALID", name="op")[0]
    return build


case("argmax_corpus", "image", "MaxPoolWithArgmax", "[2,6,6,4] 2 s2", "corpus nn_functions")(
    _argmax_pool(_r((2, 6, 6, 4), 1)))
case("argmax_scaled", "image", "MaxPoolWithArgmax", "[1,112,112,64] 2 s2",
     "scaled nn_functions (SegNet encoder)")(_argmax_pool(_r((1, 112, 112, 64), 1)))


def _nms(version, n, max_out):
    def build(tf, ph):
        boxes, scores = _boxes(n, 4), _r((n,), 5, 0, 1)
        common = dict(boxes=ph("boxes", boxes), scores=ph("scores", scores),
                      max_output_size=tf.constant(max_out), iou_threshold=tf.constant(0.5),
                      score_threshold=tf.constant(0.1), name="op")
        if version == 3:
            return tf.raw_ops.NonMaxSuppressionV3(**common)
        if version == 4:
            return tf.raw_ops.NonMaxSuppressionV4(pad_to_max_output_size=True, **common)[0]
        return tf.raw_ops.NonMaxSuppressionV5(soft_nms_sigma=tf.constant(0.5),
                                              pad_to_max_output_size=False, **common)[0]
    return build


case("nms3_sweep", "NMS", "NonMaxSuppressionV3", "32 boxes, max 10",
     "sweep detection_postprocess")(_nms(3, 32, 10))
case("nms3_scaled", "NMS", "NonMaxSuppressionV3", "5000 boxes, max 100",
     "scaled detection_postprocess (RPN proposals)")(_nms(3, 5000, 100))
case("nms4_scaled", "NMS", "NonMaxSuppressionV4", "5000 boxes, max 100 padded",
     "scaled detection_postprocess")(_nms(4, 5000, 100))
case("nms5_sweep", "NMS", "NonMaxSuppressionV5", "32 boxes, max 10 soft sigma 0.5",
     "sweep detection_postprocess")(_nms(5, 32, 10))
case("nms5_scaled", "NMS", "NonMaxSuppressionV5", "1000 boxes, max 100 soft sigma 0.5",
     "scaled detection_postprocess")(_nms(5, 1000, 100))


def _combined(n, classes, per_class, total):
    def build(tf, ph):
        boxes = _boxes(n, 4).reshape(1, n, 1, 4)
        scores = _r((1, n, classes), 5, 0, 1)
        return tf.raw_ops.CombinedNonMaxSuppression(
            boxes=ph("boxes", boxes), scores=ph("scores", scores),
            max_output_size_per_class=tf.constant(per_class),
            max_total_size=tf.constant(total), iou_threshold=tf.constant(0.5),
            score_threshold=tf.constant(0.1), pad_per_class=False, clip_boxes=True, name="op")[0]
    return build


case("cnms_sweep", "NMS", "CombinedNonMaxSuppression", "[1,32,1,4] 2 classes",
     "sweep detection_postprocess")(_combined(32, 2, 5, 8))
case("cnms_scaled", "NMS", "CombinedNonMaxSuppression", "[1,1917,1,4] 20 classes",
     "scaled detection_postprocess (SSD MobileNet anchors)")(_combined(1917, 20, 100, 100))


def _fft(kind, x, length=None):
    def build(tf, ph):
        if length is None:
            return getattr(tf.raw_ops, kind)(input=ph("x", x), name="op")
        return getattr(tf.raw_ops, kind)(input=ph("x", x),
                                         fft_length=tf.constant(length, tf.int32), name="op")
    return build


def _complex(shape, seed):
    return (_r(shape, seed) + 1j * _r(shape, seed + 1)).astype(np.complex64)


case("rfft_sweep", "FFT", "RFFT", "[2,30,256]", "sweep audio_mfcc (STFT frames)")(
    _fft("RFFT", _r((2, 30, 256), 1), [256]))
case("rfft_scaled", "FFT", "RFFT", "[16,124,512]", "scaled audio_mfcc (1 s at 16 kHz, 512 frames)")(
    _fft("RFFT", _r((16, 124, 512), 1), [512]))
case("irfft_sweep", "FFT", "IRFFT", "[2,30,129] ->256", "sweep audio_mfcc")(
    _fft("IRFFT", _complex((2, 30, 129), 1), [256]))
case("fft_corpus", "FFT", "FFT", "[2,8] complex64", "corpus signal_fft")(
    _fft("FFT", _complex((2, 8), 1)))
case("fft_scaled", "FFT", "FFT", "[64,1024] complex64", "scaled signal_fft")(
    _fft("FFT", _complex((64, 1024), 1)))
case("ifft_scaled", "FFT", "IFFT", "[64,1000] complex64", "scaled signal_fft (not a power of 2)")(
    _fft("IFFT", _complex((64, 1000), 1)))
case("rfft2d_scaled", "FFT", "RFFT2D", "[8,128,128]", "scaled signal_fft")(
    _fft("RFFT2D", _r((8, 128, 128), 1), [128, 128]))
case("fft3d", "FFT", "FFT3D", "[2,32,64,64] complex64", "3-D form (volumes; no corpus model)")(
    _fft("FFT3D", _complex((2, 32, 64, 64), 1)))
case("rfft3d", "FFT", "RFFT3D", "[2,64,64,64]", "3-D form (volumes; no corpus model)")(
    _fft("RFFT3D", _r((2, 64, 64, 64), 1), [64, 64, 64]))
case("irfft3d", "FFT", "IRFFT3D", "[2,64,64,33] ->64", "3-D form (volumes; no corpus model)")(
    _fft("IRFFT3D", _complex((2, 64, 64, 33), 1), [64, 64, 64]))


def _segment(kind, rows, cols, segs):
    def build(tf, ph):
        data = ph("data", _r((rows, cols), 1))
        ids = _segments(rows, segs, 2)
        if kind.startswith("Unsorted"):
            ids = np.random.RandomState(3).permutation(ids).astype(np.int32)
            return getattr(tf.raw_ops, kind)(data=data, segment_ids=ph("ids", ids),
                                             num_segments=tf.constant(segs), name="op")
        return getattr(tf.raw_ops, kind)(data=data, segment_ids=ph("ids", ids), name="op")
    return build


case("segsum_sweep", "segment", "SegmentSum", "[6,8] 4 segs", "sweep math_ops")(
    _segment("SegmentSum", 6, 8, 4))
case("segsum_scaled", "segment", "SegmentSum", "[20000,64] 1000 segs", "scaled math_ops")(
    _segment("SegmentSum", 20000, 64, 1000))
case("segmean_scaled", "segment", "SegmentMean", "[20000,64] 1000 segs", "scaled math_ops")(
    _segment("SegmentMean", 20000, 64, 1000))
case("usegmax_sweep", "segment", "UnsortedSegmentMax", "[6,8] 4 segs", "sweep math_ops")(
    _segment("UnsortedSegmentMax", 6, 8, 4))
case("usegsum_scaled", "segment", "UnsortedSegmentSum", "[20000,64] 1000 segs",
     "scaled math_ops")(_segment("UnsortedSegmentSum", 20000, 64, 1000))
case("usegmax_scaled", "segment", "UnsortedSegmentMax", "[20000,64] 1000 segs",
     "scaled math_ops")(_segment("UnsortedSegmentMax", 20000, 64, 1000))


def _sparse_segment(kind, vocab, dim, n, segs):
    def build(tf, ph):
        table = ph("table", _r((vocab, dim), 1))
        idx = np.random.RandomState(2).randint(0, vocab, n).astype(np.int32)
        return getattr(tf.raw_ops, kind)(data=table, indices=ph("idx", idx),
                                         segment_ids=ph("seg", _segments(n, segs, 3)),
                                         name="op")
    return build


case("sparse_segmean_sweep", "segment", "SparseSegmentMean", "table [10,4], 5 ids",
     "sweep sparse_ops")(_sparse_segment("SparseSegmentMean", 10, 4, 5, 4))
case("sparse_segmean_scaled", "segment", "SparseSegmentMean", "table [100000,64], 8192 ids",
     "scaled sparse_ops (embedding bag, batch 512)")(
    _sparse_segment("SparseSegmentMean", 100000, 64, 8192, 512))
case("sparse_segsqrtn_scaled", "segment", "SparseSegmentSqrtN", "table [100000,64], 8192 ids",
     "scaled sparse_ops")(_sparse_segment("SparseSegmentSqrtN", 100000, 64, 8192, 512))


def _spmm(rows, inner, cols, nnz):
    def build(tf, ph):
        rs = np.random.RandomState(4)
        flat = np.sort(rs.choice(rows * inner, nnz, replace=False))
        idx = np.stack([flat // inner, flat % inner], 1).astype(np.int64)
        return tf.raw_ops.SparseTensorDenseMatMul(
            a_indices=ph("idx", idx), a_values=ph("vals", _r((nnz,), 5)),
            a_shape=tf.constant([rows, inner], tf.int64), b=ph("b", _r((inner, cols), 6)),
            name="op")
    return build


case("spmm_sweep", "sparse", "SparseTensorDenseMatMul", "[4,4] 5 nnz x [4,3]", "sweep sparse_ops")(
    _spmm(4, 4, 3, 5))
case("spmm_scaled", "sparse", "SparseTensorDenseMatMul", "[512,20000] 10240 nnz x [20000,64]",
     "scaled sparse_ops (wide features)")(_spmm(512, 20000, 64, 10240))


def _sparse_to_dense(rows, cols, nnz):
    def build(tf, ph):
        rs = np.random.RandomState(4)
        flat = np.sort(rs.choice(rows * cols, nnz, replace=False))
        idx = np.stack([flat // cols, flat % cols], 1).astype(np.int64)
        return tf.raw_ops.SparseToDense(
            sparse_indices=ph("idx", idx), output_shape=tf.constant([rows, cols], tf.int64),
            sparse_values=ph("vals", _r((nnz,), 5)), default_value=tf.constant(0.0),
            name="op")
    return build


case("sparse_to_dense_sweep", "sparse", "SparseToDense", "[4,4] 5 nnz", "sweep sparse_ops")(
    _sparse_to_dense(4, 4, 5))
case("sparse_to_dense_scaled", "sparse", "SparseToDense", "[512,2000] 20000 nnz",
     "scaled sparse_ops")(_sparse_to_dense(512, 2000, 20000))


def _linalg(kind, shape, dtype=np.float32):
    def build(tf, ph):
        a = ph("a", _spd(shape, 1, dtype))
        if kind == "MatrixSolve":
            return tf.raw_ops.MatrixSolve(
                matrix=a, rhs=ph("b", _r(shape[:-1] + (4,), 2).astype(dtype)), name="op")
        if kind == "MatrixTriangularSolve":
            return tf.raw_ops.MatrixTriangularSolve(
                matrix=a, rhs=ph("b", _r(shape[:-1] + (4,), 2).astype(dtype)), lower=True,
                name="op")
        if kind == "LogMatrixDeterminant":
            return tf.raw_ops.LogMatrixDeterminant(input=a, name="op")[1]
        if kind == "Svd":
            return tf.raw_ops.Svd(input=a, compute_uv=False, name="op")[0]
        if kind == "Qr":
            return tf.raw_ops.Qr(input=a, full_matrices=False, name="op")[1]
        return getattr(tf.raw_ops, kind)(input=a, name="op")
    return build


for _kind in ("MatrixInverse", "Cholesky", "Qr", "Svd", "MatrixDeterminant", "MatrixSolve",
              "MatrixTriangularSolve"):
    case("%s_corpus" % _kind, "linalg", _kind, "[2,3,3]", "corpus linalg_ops")(
        _linalg(_kind, (2, 3, 3)))
    case("%s_scaled" % _kind, "linalg", _kind, "[16,64,64]", "scaled linalg_ops")(
        _linalg(_kind, (16, 64, 64)))
case("MatrixInverse_large", "linalg", "MatrixInverse", "[512,512]", "scaled linalg_ops")(
    _linalg("MatrixInverse", (512, 512)))
case("Cholesky_large", "linalg", "Cholesky", "[512,512]", "scaled linalg_ops")(
    _linalg("Cholesky", (512, 512)))

# Every linear algebra kernel on a batch of tiny matrices (a batch of 3-D rotations or
# covariances) and on single matrices of 64 to 512 rows, float32, and float64 at both ends.
_LINALG_SHAPES = [((1000, 3, 3), np.float32), ((64, 64), np.float32), ((256, 256), np.float32),
                  ((512, 512), np.float32), ((1000, 3, 3), np.float64), ((512, 512), np.float64)]
for _kind in ("MatrixDeterminant", "LogMatrixDeterminant", "MatrixInverse", "Cholesky", "Qr",
              "Svd", "MatrixSolve", "MatrixTriangularSolve"):
    for _shape, _dt in _LINALG_SHAPES:
        _dn = "f32" if _dt == np.float32 else "f64"
        _st = "[%s] %s" % (",".join(map(str, _shape)), "float32" if _dt == np.float32 else
                           "float64")
        case("linalg_%s_%s_%s" % (_kind, _dn, "x".join(map(str, _shape))), "linalg", _kind, _st,
             "scaled linalg_ops")(_linalg(_kind, _shape, _dt))


def _cumsum(x, axis, exclusive=False, reverse=False, kind="Cumsum"):
    def build(tf, ph):
        return getattr(tf.raw_ops, kind)(x=ph("x", x), axis=tf.constant(axis),
                                         exclusive=exclusive, reverse=reverse, name="op")
    return build


case("cumsum_sweep", "scan", "Cumsum", "[6,8] axis 1 exclusive", "sweep math_ops")(
    _cumsum(_r((6, 8), 1), 1, exclusive=True))
case("cumsum_scaled_inner", "scan", "Cumsum", "[256,4096] axis 1", "scaled math_ops")(
    _cumsum(_r((256, 4096), 1), 1))
case("cumsum_scaled_outer", "scan", "Cumsum", "[4096,256] axis 0 reverse", "scaled math_ops")(
    _cumsum(_r((4096, 256), 1), 0, reverse=True))
case("cumprod_scaled", "scan", "Cumprod", "[256,4096] axis 1", "scaled math_ops")(
    _cumsum(_r((256, 4096), 1, 0.99, 1.01), 1, kind="Cumprod"))


def _s2b(x, block, pad, back=False):
    def build(tf, ph):
        if back:
            return tf.raw_ops.BatchToSpaceND(input=ph("x", x),
                                             block_shape=tf.constant([block, block]),
                                             crops=tf.constant(pad), name="op")
        return tf.raw_ops.SpaceToBatchND(input=ph("x", x), block_shape=tf.constant([block, block]),
                                         paddings=tf.constant(pad), name="op")
    return build


case("s2b_sweep", "space/batch", "SpaceToBatchND", "[1,8,8,32] block 2", "sweep DeepLab_like")(
    _s2b(_r((1, 8, 8, 32), 1), 2, [[0, 0], [0, 0]]))
case("s2b_scaled", "space/batch", "SpaceToBatchND", "[1,64,64,256] block 2 pad 2",
     "scaled DeepLab_like (ASPP rate 2)")(_s2b(_r((1, 64, 64, 256), 1), 2, [[2, 2], [2, 2]]))
case("b2s_sweep", "space/batch", "BatchToSpaceND", "[4,4,4,16] block 2", "sweep DeepLab_like")(
    _s2b(_r((4, 4, 4, 16), 1), 2, [[0, 0], [0, 0]], back=True))
case("b2s_scaled", "space/batch", "BatchToSpaceND", "[4,34,34,256] block 2 crop 2",
     "scaled DeepLab_like")(_s2b(_r((4, 34, 34, 256), 1), 2, [[2, 2], [2, 2]], back=True))


def _scatter_nd(n, rows, cols):
    def build(tf, ph):
        idx = np.random.RandomState(2).randint(0, rows, (n, 1)).astype(np.int32)
        upd = _r((n, cols) if cols else (n,), 3)
        shape = [rows, cols] if cols else [rows]
        return tf.raw_ops.ScatterNd(indices=ph("idx", idx), updates=ph("upd", upd),
                                    shape=tf.constant(shape, tf.int32), name="op")
    return build


case("scatter_nd_corpus", "scatter", "ScatterNd", "3 rows into [5,4]", "corpus gather_scatter")(
    _scatter_nd(3, 5, 4))
case("scatter_nd_scaled", "scatter", "ScatterNd", "8192 rows of 64 into [20000,64]",
     "scaled gather_scatter")(_scatter_nd(8192, 20000, 64))


def _ctc(kind, t, b, c, beam=None):
    def build(tf, ph):
        x = np.log(np.random.RandomState(1).dirichlet(np.ones(c), (t, b))).astype(np.float32)
        lengths = np.full((b,), t, np.int32)
        if kind == "CTCGreedyDecoder":
            return tf.raw_ops.CTCGreedyDecoder(inputs=ph("x", x),
                                               sequence_length=ph("len", lengths),
                                               merge_repeated=True, name="op")[1]
        return tf.raw_ops.CTCBeamSearchDecoder(inputs=ph("x", x),
                                               sequence_length=ph("len", lengths),
                                               beam_width=beam, top_paths=1,
                                               merge_repeated=False, name="op")[1][0]
    return build


case("ctc_greedy_sweep", "CTC", "CTCGreedyDecoder", "[32,2,11]", "sweep CRNN_CTC_greedy")(
    _ctc("CTCGreedyDecoder", 32, 2, 11))
case("ctc_greedy_scaled", "CTC", "CTCGreedyDecoder", "[200,32,80]",
     "scaled CRNN_CTC_greedy (speech, 80 symbols)")(_ctc("CTCGreedyDecoder", 200, 32, 80))
case("ctc_beam_sweep", "CTC", "CTCBeamSearchDecoder", "[32,2,11] beam 4",
     "sweep CRNN_CTC_beam")(_ctc("CTCBeamSearchDecoder", 32, 2, 11, 4))
case("ctc_beam_scaled", "CTC", "CTCBeamSearchDecoder", "[100,8,37] beam 10",
     "scaled CRNN_CTC_beam (OCR, 37 symbols)")(_ctc("CTCBeamSearchDecoder", 100, 8, 37, 10))


def _strings(kind, n):
    def build(tf, ph):
        s = ph("s", _sentences(n, 1))
        if kind == "StringSplitV2":
            return tf.raw_ops.StringSplitV2(input=s, sep=tf.constant(""), name="op")[1]
        if kind == "RegexReplace":
            return tf.raw_ops.RegexReplace(input=s, pattern="[!,.?]", rewrite="", name="op")
        if kind == "StringLower":
            return tf.raw_ops.StringLower(input=s, name="op")
        return tf.raw_ops.StringToHashBucketFast(input=s, num_buckets=50, name="op")
    return build


for _kind in ("StringSplitV2", "RegexReplace", "StringLower", "StringToHashBucketFast"):
    case("%s_sweep" % _kind, "strings", _kind, "4 sentences", "sweep text_hashing")(
        _strings(_kind, 4))
    case("%s_scaled" % _kind, "strings", _kind, "4096 sentences of 5-25 words",
         "scaled text_hashing (a batch of reviews)")(_strings(_kind, 4096))


# ---------------------------------------------------------------------------------------------
def build_graphs(cases):
    """Freezes each case: {name: {"rill": pb, "tf": pb, "feeds": {ph: npy}}}."""
    import tensorflow as tf
    tf1 = tf.compat.v1
    os.makedirs(CACHE, exist_ok=True)
    out = {}
    for c in cases:
        paths = {"feeds": {}}

        def make(builder, key):
            g = tf.Graph()
            with g.as_default():
                def ph(name, value):
                    dtype = tf.string if value.dtype.kind == "S" else tf.as_dtype(value.dtype)
                    npy = os.path.join(CACHE, "%s_%s.npy" % (c["name"], name))
                    np.save(npy, value)
                    paths["feeds"][name] = npy
                    return tf1.placeholder(dtype, value.shape, name=name)
                r = builder(tf, ph)
            return g, r
        g, r = make(c["build"], "rill")
        tf_builder = None
        if isinstance(r, tuple) and callable(r[1]):
            r, tf_builder = r
        assert r.name.startswith("op:") or r.op.name == "op", (c["name"], r.name)
        paths["fetch"] = r.name
        paths["rill"] = os.path.join(CACHE, c["name"] + ".pb")
        with open(paths["rill"], "wb") as f:
            f.write(g.as_graph_def().SerializeToString())
        paths["tf"] = paths["rill"]
        if tf_builder is not None:
            g2, r2 = make(lambda tf, ph: tf_builder(tf, ph), "tf")
            paths["tf"] = os.path.join(CACHE, c["name"] + ".tf.pb")
            paths["tf_fetch"] = r2.name
            with open(paths["tf"], "wb") as f:
                f.write(g2.as_graph_def().SerializeToString())
        out[c["name"]] = paths
    return out


def _median_us(call, reps):
    for _ in range(WARMUP):
        call()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    return float(np.median(times)) * 1e6


def _reps_for(us, reps):
    """More repetitions for fast cases (about 0.3 s in all), at least `reps`."""
    return int(min(2000, max(reps, 3e5 / max(us, 1.0))))


def peer_main(spec_file, threads, reps):
    """Child process: TensorFlow's median per case at one thread count; prints one JSON line."""
    import tensorflow as tf
    tf1 = tf.compat.v1
    with open(spec_file) as f:
        spec = json.load(f)
    config = tf1.ConfigProto(intra_op_parallelism_threads=threads,
                             inter_op_parallelism_threads=threads)
    result = {}
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [], name="x")
        y = tf.identity(x)
    with tf1.Session(graph=g, config=config) as s:
        call = s.make_callable(y, feed_list=[x])
        result["_floor"] = _median_us(lambda: call(1.0), 2000)
    for name, p in spec.items():
        gd = tf1.GraphDef()
        with open(p["tf"], "rb") as f:
            gd.ParseFromString(f.read())
        g = tf.Graph()
        with g.as_default():
            tf.import_graph_def(gd, name="")
        feeds = {k: np.load(v, allow_pickle=True) for k, v in p["feeds"].items()}
        try:
            with tf1.Session(graph=g, config=config) as s:
                fetch = p.get("tf_fetch", p["fetch"])
                call = s.make_callable(fetch, feed_list=[k + ":0" for k in feeds])
                args = list(feeds.values())
                first = call(*args)
                t0 = time.perf_counter()
                call(*args)
                est = (time.perf_counter() - t0) * 1e6
                us = _median_us(lambda: call(*args), _reps_for(est, reps))
                result[name] = {"us": us}
                if threads == 1:
                    out = os.path.join(CACHE, name + ".tf_out.npy")
                    np.save(out, np.asarray(first))
                    result[name]["out"] = out
        except Exception as e:  # noqa: BLE001 - reported in the table
            result[name] = {"error": str(e).splitlines()[0][:160]}
    print("PEER " + json.dumps(result), flush=True)


def run_tf(spec, threads, reps):
    spec_file = os.path.join(CACHE, "spec.json")
    with open(spec_file, "w") as f:
        json.dump(spec, f)
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--_peer", spec_file,
                          str(threads), str(reps)], capture_output=True, text=True)
    line = [l for l in out.stdout.splitlines() if l.startswith("PEER ")]
    if not line:
        raise RuntimeError("TensorFlow child failed: " + out.stderr[-2000:])
    return json.loads(line[0][5:])


def run_rill(runner, p, threads, repeat, out_dir=None):
    cfg = os.path.join(CACHE, "threads%d.config.pbtxt" % threads)
    with open(cfg, "w") as f:
        f.write("intra_op_parallelism_threads: %d inter_op_parallelism_threads: %d\n" %
                (threads, threads))
    args = [runner, "--graph=" + p["rill"], "--config=" + cfg, "--fetch=" + p["fetch"],
            "--benchmark", "--warmup=%d" % WARMUP, "--repeat=%d" % repeat]
    args += ["--feed=%s=%s" % (k, v) for k, v in p["feeds"].items()]
    if out_dir:
        args.append("--output_dir=" + out_dir)
    env = dict(os.environ)
    if "OMP_WAIT_POLICY" not in env and "GOMP_SPINCOUNT" not in env:
        env["OMP_WAIT_POLICY"] = "PASSIVE"
    out = subprocess.run(args, capture_output=True, text=True, env=env)
    m = re.search(r"median ([0-9.]+) ?(us|ms|s)\b", out.stdout)
    if out.returncode != 0 or not m:
        return None, (out.stderr.strip().splitlines() or ["?"])[-1][:160]
    return float(m.group(1)) * {"us": 1.0, "ms": 1e3, "s": 1e6}[m.group(2)], None


def compare(rill_npy, tf_npy):
    got = np.load(rill_npy, allow_pickle=True)
    want = np.load(tf_npy, allow_pickle=True)
    if got.shape != want.shape:
        return "DIFF shape %s vs %s" % (got.shape, want.shape)
    if got.dtype.kind in "fc":
        same = (got == want) | (np.isnan(got) & np.isnan(want))  # inf == inf, NaN == NaN
        if same.all():
            return "0e+00"
        finite = np.isfinite(want)
        if not (finite | same).all():
            return "DIFF (non-finite)"
        scale = max(float(np.abs(want[finite]).max()), 1e-30)
        with np.errstate(invalid="ignore"):  # inf - inf where both are inf
            diff = np.abs(got.astype(np.complex128) - want)[finite]
        return "%.0e" % (float(diff.max()) / scale)
    if got.dtype.kind in "OSU":
        got = np.array([v if isinstance(v, bytes) else str(v).encode() for v in got.ravel()])
        want = np.array([v if isinstance(v, bytes) else str(v).encode() for v in want.ravel()])
    return "exact" if np.array_equal(got, want) else "DIFF"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    # bazel-bin follows the last build's configuration (another checkout user's fastbuild, say):
    # the -c opt output is named directly.
    ap.add_argument("--runner", default=os.path.join(ROOT, "bazel-out/k8-opt/bin/tools/"
                                                            "session_runner/session_runner"))
    ap.add_argument("--baseline", help="another session_runner, timed right before --runner")
    ap.add_argument("--only", help="comma-separated substrings of case names, families or ops")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--reps", type=int, default=30, help="minimum timed repetitions")
    ap.add_argument("--json", help="also write the rows here")
    ap.add_argument("--_peer", nargs=3, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a._peer:
        return peer_main(a._peer[0], int(a._peer[1]), int(a._peer[2]))
    cases = CASES
    if a.only:
        keys = a.only.split(",")
        cases = [c for c in CASES
                 if any(k in c["name"] or k in c["family"] or k in c["op"] for k in keys)]
    spec = build_graphs(cases)
    threads_list = [int(t) for t in a.threads.split(",")]
    rows = []
    floors = {}
    for t in threads_list:
        tf_res = run_tf(spec, t, a.reps)
        floors[t] = tf_res.pop("_floor")
        for c in cases:
            p = spec[c["name"]]
            tf_r = tf_res.get(c["name"], {})
            tf_us = max(tf_r["us"] - floors[t], 0.0) if "us" in tf_r else None
            repeat = _reps_for(tf_us or 1000.0, a.reps)
            row = dict(family=c["family"], op=c["op"], shape=c["shape"], source=c["source"],
                       case=c["name"], threads=t, tf_us=tf_us, tf_error=tf_r.get("error"))
            if a.baseline:
                row["base_us"], _ = run_rill(a.baseline, p, t, repeat)
            out_dir = os.path.join(CACHE, "out_" + c["name"]) if t == 1 else None
            if out_dir:
                os.makedirs(out_dir, exist_ok=True)
            row["rill_us"], row["rill_error"] = run_rill(a.runner, p, t, repeat, out_dir)
            if out_dir and row["rill_us"] is not None and "out" in tf_r:
                npy = os.path.join(out_dir, p["fetch"].replace("/", "_").replace(":", "_") +
                                   ".npy")
                row["check"] = compare(npy, tf_r["out"]) if os.path.exists(npy) else "no output"
            rows.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
    print_table(rows, floors, bool(a.baseline))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"rows": rows, "floors": floors}, f, indent=1)


def _fmt(us):
    return "-" if us is None else ("%.0f" % us if us >= 100 else "%.1f" % us)


def print_table(rows, floors, baseline):
    checks = {r["case"]: r.get("check", "") for r in rows if r["threads"] == 1}
    head = "| family | op | shape (source) | threads | "
    head += "Rill before us | " if baseline else ""
    head += "Rill us | TF us | TF/Rill | check |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for r in rows:
        ratio = "-"
        if r["rill_us"] and r["tf_us"] is not None:
            ratio = "%.2f" % (r["tf_us"] / r["rill_us"])
        cells = [r["family"], r["op"], "%s (%s)" % (r["shape"], r["source"]), str(r["threads"])]
        if baseline:
            cells.append(_fmt(r.get("base_us")))
        cells += [_fmt(r["rill_us"]) if r["rill_us"] is not None else "error: " + r["rill_error"],
                  _fmt(r["tf_us"]) if r["tf_us"] is not None else "error: %s" % r["tf_error"],
                  ratio, checks.get(r["case"], "")]
        print("| " + " | ".join(cells) + " |")
    print()
    print("TensorFlow's Python call floor (subtracted from its column): " +
          ", ".join("%d thread%s %.1f us" % (t, "s" if t > 1 else "", f)
                    for t, f in sorted(floors.items())))


if __name__ == "__main__":
    main()
