"""Gradient cases for ops/nn_ops.cc and ops/image_ops.cc: activations and their gradient ops,
bias, softmax and losses, convolutions, pooling, batch normalization."""
import numpy as np
import tensorflow as tf

from grad_cases import math_cases, rand

raw = tf.raw_ops
F32, F64 = np.float32, np.float64


def softmax_rows(v):
    e = np.exp(v - v.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)).astype(v.dtype)


def relu6_values(shape, seed, dtype):
    """Values away from Relu6's kinks at 0 and 6."""
    v = rand(shape, seed, "positive", dtype) * rand(shape, (seed, "sign"), "nonzero", dtype)
    return (v * 2.5 + np.where(rand(shape, (seed, "hi"), "unit", dtype) > 0.5, 6.0, 0.0)).astype(
        dtype)


def activation_cases(add):
    for op, kind in [("Relu", "nonzero"), ("Elu", "nonzero"), ("Selu", "nonzero"),
                     ("Softplus", "any"), ("Softsign", "nonzero")]:
        fn = getattr(raw, op)
        for what, shape in [("rank2", [3, 4]), ("rank3", [2, 3, 2])]:
            for dt in [F32, F64]:
                add(op, what, [("x", rand(shape, (op, what, dt), kind, dt))],
                    lambda x, fn=fn: fn(features=x, name="out"))
    for dt in [F32, F64]:
        add("Relu6", "rank2", [("x", relu6_values([4, 5], ("relu6", dt), dt))],
            lambda x: raw.Relu6(features=x, name="out"))
    for alpha in [0.2, 0.01, 1.5]:
        for dt in [F32, F64]:
            add("LeakyRelu", "alpha%g" % alpha, [("x", rand([3, 4], ("lrelu", alpha, dt),
                                                             "nonzero", dt))],
                lambda x, alpha=alpha: raw.LeakyRelu(features=x, alpha=alpha, name="out"))
    # The activation gradient ops (gradients, features / outputs).
    for op in ["ReluGrad", "EluGrad", "SeluGrad", "SoftplusGrad"]:
        fn = getattr(raw, op)
        second = "outputs" if op in ("EluGrad", "SeluGrad") else "features"
        for dt in [F32, F64]:
            add(op, "rank2", [("g", rand([3, 4], (op, "g", dt), "any", dt)),
                              ("x", rand([3, 4], (op, "x", dt), "nonzero", dt))],
                lambda g, x, fn=fn, second=second: fn(gradients=g, name="out", **{second: x}))
    for dt in [F32, F64]:
        add("Relu6Grad", "rank2", [("g", rand([4, 5], ("r6g", dt), "any", dt)),
                                   ("x", relu6_values([4, 5], ("r6g_x", dt), dt))],
            lambda g, x: raw.Relu6Grad(gradients=g, features=x, name="out"))
        for alpha in [0.2, 0.5]:
            add("LeakyReluGrad", "alpha%g" % alpha,
                [("g", rand([3, 4], ("lrg", alpha, dt), "any", dt)),
                 ("x", rand([3, 4], ("lrg_x", alpha, dt), "nonzero", dt))],
                lambda g, x, alpha=alpha: raw.LeakyReluGrad(gradients=g, features=x, alpha=alpha,
                                                            name="out"))


def bias_softmax_loss_cases(add):
    for what, vs, bs, fmt in [("rank2", [3, 4], [4], "NHWC"),
                              ("rank4_nhwc", [2, 3, 2, 4], [4], "NHWC"),
                              ("rank4_nchw", [2, 4, 3, 2], [4], "NCHW"),
                              ("rank3_nchw", [2, 3, 5], [3], "NCHW")]:
        for dt in [F32, F64]:
            add("BiasAdd", what, [("value", rand(vs, ("ba", what, dt), "any", dt)),
                                  ("bias", rand(bs, ("ba_b", what, dt), "any", dt))],
                lambda v, b, fmt=fmt: raw.BiasAdd(value=v, bias=b, data_format=fmt, name="out"))
            add("BiasAddGrad", what, [("g", rand(vs, ("bag", what, dt), "any", dt))],
                lambda g, fmt=fmt: raw.BiasAddGrad(out_backprop=g, data_format=fmt, name="out"))
    for op in ["Softmax", "LogSoftmax"]:
        fn = getattr(raw, op)
        for what, shape in [("rank2", [3, 5]), ("rank3", [2, 3, 4]), ("rank1", [6])]:
            for dt in [F32, F64]:
                add(op, what, [("logits", rand(shape, (op, what, dt), "any", dt))],
                    lambda x, fn=fn: fn(logits=x, name="out"))
    for what, shape in [("rank2", [3, 4]), ("rank4", [2, 2, 3, 2]), ("scalar", [])]:
        for dt in [F32, F64]:
            add("L2Loss", what, [("t", rand(shape, ("l2", what, dt), "any", dt))],
                lambda t: raw.L2Loss(t=t, name="out"))
    for dt in [F32, F64]:
        labels = softmax_rows(rand([3, 5], ("xent_l", dt), "any", dt))
        add("SoftmaxCrossEntropyWithLogits", "loss",
            [("features", rand([3, 5], ("xent", dt), "any", dt)), ("labels", labels)],
            lambda f, l: raw.SoftmaxCrossEntropyWithLogits(features=f, labels=l, name="out")[0])
        add("SoftmaxCrossEntropyWithLogits", "loss_and_backprop",
            [("features", rand([4, 3], ("xent2", dt), "any", dt)),
             ("labels", softmax_rows(rand([4, 3], ("xent2_l", dt), "any", dt)))],
            lambda f, l: list(raw.SoftmaxCrossEntropyWithLogits(features=f, labels=l, name="out")))
        add("SparseSoftmaxCrossEntropyWithLogits", "loss",
            [("features", rand([4, 5], ("sxent", dt), "any", dt))],
            lambda f: raw.SparseSoftmaxCrossEntropyWithLogits(
                features=f, labels=tf.constant([0, 4, 2, 1]), name="out")[0])
        add("SparseSoftmaxCrossEntropyWithLogits", "loss_and_backprop_int64",
            [("features", rand([3, 4], ("sxent2", dt), "any", dt))],
            lambda f: list(raw.SparseSoftmaxCrossEntropyWithLogits(
                features=f, labels=tf.constant([3, 0, 1], tf.int64), name="out")))


CONV_CONFIGS = [
    # what, input shape, filter shape, strides, padding, dilations
    ("same", [2, 5, 5, 3], [3, 3, 3, 4], [1, 1, 1, 1], "SAME", [1, 1, 1, 1]),
    ("valid", [1, 6, 5, 2], [2, 3, 2, 3], [1, 1, 1, 1], "VALID", [1, 1, 1, 1]),
    ("same_stride2", [2, 7, 6, 2], [3, 3, 2, 2], [1, 2, 2, 1], "SAME", [1, 1, 1, 1]),
    ("valid_stride_hw", [1, 7, 8, 2], [2, 2, 2, 3], [1, 2, 3, 1], "VALID", [1, 1, 1, 1]),
]


def conv_output_shape(in_shape, f_shape, strides, padding, dilations, out_channels):
    dims = []
    for i in (1, 2):
        k = (f_shape[i - 1] - 1) * dilations[i] + 1
        if padding == "SAME":
            dims.append(-(-in_shape[i] // strides[i]))
        else:
            dims.append((in_shape[i] - k) // strides[i] + 1)
    return [in_shape[0], dims[0], dims[1], out_channels]


def explicit_padding_cases(add):
    """padding EXPLICIT: [1, 5, 5, 2] input padded (1, 2) rows and (2, 0) columns."""
    xs, pads = [1, 5, 5, 2], [0, 0, 1, 2, 2, 0, 0, 0]
    for dt in [F32, F64]:
        tol = dict(rtol=1e-5, atol=1e-5) if dt == F32 else {}
        attrs = dict(strides=[1, 2, 2, 1], padding="EXPLICIT", explicit_paddings=pads)
        fs = [3, 3, 2, 3]
        ys = [1, 3, 3, 3]  # ((5 + 3 - 3) // 2 + 1, (5 + 2 - 3) // 2 + 1)
        add("Conv2D", "explicit", [("input", rand(xs, ("c2d_ex", dt), "any", dt)),
                                   ("filter", rand(fs, ("c2d_ex_f", dt), "any", dt))],
            lambda x, f, attrs=attrs: raw.Conv2D(input=x, filter=f, name="out", **attrs), **tol)
        add("Conv2DBackpropInput", "explicit",
            [("filter", rand(fs, ("c2dbi_ex_f", dt), "any", dt)),
             ("out_backprop", rand(ys, ("c2dbi_ex_g", dt), "any", dt))],
            lambda f, g, attrs=attrs: raw.Conv2DBackpropInput(
                input_sizes=tf.constant(xs), filter=f, out_backprop=g, name="out", **attrs), **tol)
        add("Conv2DBackpropFilter", "explicit",
            [("input", rand(xs, ("c2dbf_ex_x", dt), "any", dt)),
             ("out_backprop", rand(ys, ("c2dbf_ex_g", dt), "any", dt))],
            lambda x, g, attrs=attrs: raw.Conv2DBackpropFilter(
                input=x, filter_sizes=tf.constant(fs), out_backprop=g, name="out", **attrs), **tol)
        add("MaxPool", "explicit", [("input", rand(xs, ("mp_ex", dt), "any", dt))],
            lambda x: raw.MaxPool(input=x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1],
                                  padding="EXPLICIT", explicit_paddings=[0, 0, 1, 0, 0, 1, 0, 0],
                                  name="out"))


def depthwise_cases(add, what, xs, dfs, dys, attrs, dt, tol):
    """DepthwiseConv2dNative and its backprops; the filter has channel multiplier dfs[3]."""
    add("DepthwiseConv2dNative", what,
        [("input", rand(xs, ("dw", what, dt), "any", dt)),
         ("filter", rand(dfs, ("dw_f", what, dt), "any", dt))],
        lambda x, f: raw.DepthwiseConv2dNative(input=x, filter=f, name="out", **attrs), **tol)
    add("DepthwiseConv2dNativeBackpropInput", what,
        [("filter", rand(dfs, ("dwbi_f", what, dt), "any", dt)),
         ("out_backprop", rand(dys, ("dwbi_g", what, dt), "any", dt))],
        lambda f, g: raw.DepthwiseConv2dNativeBackpropInput(
            input_sizes=tf.constant(xs), filter=f, out_backprop=g, name="out", **attrs), **tol)
    add("DepthwiseConv2dNativeBackpropFilter", what,
        [("input", rand(xs, ("dwbf_x", what, dt), "any", dt)),
         ("out_backprop", rand(dys, ("dwbf_g", what, dt), "any", dt))],
        lambda x, g: raw.DepthwiseConv2dNativeBackpropFilter(
            input=x, filter_sizes=tf.constant(dfs), out_backprop=g, name="out", **attrs), **tol)


def conv_cases(add):
    for what, xs, fs, st, pad, dil in CONV_CONFIGS:
        for dt in [F32, F64]:
            tol = dict(rtol=1e-5, atol=1e-5) if dt == F32 else {}
            attrs = dict(strides=st, padding=pad, dilations=dil)
            dfs = [fs[0], fs[1], xs[3], 2]
            dys = conv_output_shape(xs, dfs, st, pad, dil, xs[3] * 2)
            if dil != [1, 1, 1, 1]:
                continue  # TensorFlow's CPU conv backprops have no dilations
            if st[1] == st[2]:  # TensorFlow's CPU depthwise backprops need equal strides
                depthwise_cases(add, what, xs, dfs, dys, attrs, dt, tol)
            add("Conv2D", what, [("input", rand(xs, ("c2d", what, dt), "any", dt)),
                                 ("filter", rand(fs, ("c2d_f", what, dt), "any", dt))],
                lambda x, f, attrs=attrs: raw.Conv2D(input=x, filter=f, name="out", **attrs),
                **tol)
            ys = conv_output_shape(xs, fs, st, pad, dil, fs[3])
            add("Conv2DBackpropInput", what,
                [("filter", rand(fs, ("c2dbi_f", what, dt), "any", dt)),
                 ("out_backprop", rand(ys, ("c2dbi_g", what, dt), "any", dt))],
                lambda f, g, xs=xs, attrs=attrs: raw.Conv2DBackpropInput(
                    input_sizes=tf.constant(xs), filter=f, out_backprop=g, name="out", **attrs),
                **tol)
            add("Conv2DBackpropFilter", what,
                [("input", rand(xs, ("c2dbf_x", what, dt), "any", dt)),
                 ("out_backprop", rand(ys, ("c2dbf_g", what, dt), "any", dt))],
                lambda x, g, fs=fs, attrs=attrs: raw.Conv2DBackpropFilter(
                    input=x, filter_sizes=tf.constant(fs), out_backprop=g, name="out", **attrs),
                **tol)


POOL_CONFIGS = [
    # what, input shape, ksize, strides, padding
    ("valid_2x2", [2, 4, 4, 3], [1, 2, 2, 1], [1, 2, 2, 1], "VALID"),
    ("same_3x3_stride2", [1, 5, 6, 2], [1, 3, 3, 1], [1, 2, 2, 1], "SAME"),
    ("valid_overlap", [2, 5, 5, 1], [1, 3, 2, 1], [1, 1, 2, 1], "VALID"),
    ("same_stride1", [1, 4, 3, 2], [1, 2, 2, 1], [1, 1, 1, 1], "SAME"),
]


def pool_output_shape(xs, ks, st, pad):
    dims = []
    for i in (1, 2):
        if pad == "SAME":
            dims.append(-(-xs[i] // st[i]))
        else:
            dims.append((xs[i] - ks[i]) // st[i] + 1)
    return [xs[0], dims[0], dims[1], xs[3]]


def pool_cases(add):
    for what, xs, ks, st, pad in POOL_CONFIGS:
        attrs = dict(ksize=ks, strides=st, padding=pad)
        for dt in [F32, F64]:
            add("MaxPool", what, [("input", rand(xs, ("mp", what, dt), "any", dt))],
                lambda x, attrs=attrs: raw.MaxPool(input=x, name="out", **attrs))
            add("MaxPoolV2", what, [("input", rand(xs, ("mp2", what, dt), "any", dt))],
                lambda x, ks=ks, st=st, pad=pad: raw.MaxPoolV2(
                    input=x, ksize=tf.constant(ks), strides=tf.constant(st), padding=pad,
                    name="out"))
            add("AvgPool", what, [("value", rand(xs, ("ap", what, dt), "any", dt))],
                lambda x, attrs=attrs: raw.AvgPool(value=x, name="out", **attrs))
            ys = pool_output_shape(xs, ks, st, pad)
            add("AvgPoolGrad", what, [("grad", rand(ys, ("apg", what, dt), "any", dt))],
                lambda g, xs=xs, attrs=attrs: raw.AvgPoolGrad(
                    orig_input_shape=tf.constant(xs), grad=g, name="out", **attrs))


def max_pool_grad_cases(add):
    """MaxPoolGrad and MaxPoolGradGrad with orig_output the max pool of orig_input."""
    for what, xs, ks, st, pad in POOL_CONFIGS:
        attrs = dict(ksize=ks, strides=st, padding=pad)
        for dt in [F32, F64]:
            x = rand(xs, ("mpg", what, dt), "any", dt)
            y = tf.nn.max_pool2d(x, ks, st, pad).numpy().astype(dt)
            add("MaxPoolGrad", what, [("orig_input", x), ("grad", rand(y.shape, ("mpg_g", what, dt),
                                                                        "any", dt))],
                lambda x, g, y=y, attrs=attrs: raw.MaxPoolGrad(
                    orig_input=x, orig_output=tf.constant(y), grad=g, name="out", **attrs))
            add("MaxPoolGradGrad", what,
                [("orig_input", x), ("grad", rand(xs, ("mpgg_g", what, dt), "any", dt))],
                lambda x, g, y=y, attrs=attrs: raw.MaxPoolGradGrad(
                    orig_input=x, orig_output=tf.constant(y), grad=g, name="out", **attrs))


def lrn_resize_cases(add):
    for what, shape, attrs in [("defaults", [1, 2, 2, 7], {}),
                               ("radius2", [2, 3, 1, 6], dict(depth_radius=2, bias=2.0, alpha=0.1,
                                                               beta=0.75)),
                               ("radius1_beta1", [1, 2, 3, 4], dict(depth_radius=1, bias=1.5,
                                                                    alpha=0.5, beta=1.0))]:
        add("LRN", what, [("input", rand(shape, ("lrn", what), "any"))],
            lambda x, attrs=attrs: raw.LRN(input=x, name="out", **attrs))
    for what, shape, size, align, half in [("upsample", [1, 3, 4, 2], [6, 7], False, False),
                                           ("downsample", [2, 6, 5, 1], [3, 2], False, False),
                                           ("align_corners", [1, 3, 4, 2], [5, 7], True, False),
                                           ("half_pixel", [1, 3, 4, 2], [5, 9], False, True),
                                           ("half_pixel_down", [1, 7, 6, 1], [3, 4], False, True)]:
        for op in ["ResizeBilinear", "ResizeNearestNeighbor"]:
            fn = getattr(raw, op)
            for dt in [F32, F64]:
                add(op, what, [("images", rand(shape, (op, what, dt), "any", dt))],
                    lambda x, fn=fn, size=size, align=align, half=half: fn(
                        images=x, size=tf.constant(size), align_corners=align,
                        half_pixel_centers=half, name="out"))


CONV3D_CONFIGS = [
    # what, input shape, filter shape, strides, padding
    ("valid", [1, 4, 4, 3, 2], [2, 2, 2, 2, 3], [1, 1, 1, 1, 1], "VALID"),
    ("same_stride2", [2, 5, 4, 4, 1], [3, 2, 3, 1, 2], [1, 2, 2, 2, 1], "SAME"),
]


def conv3d_pool3d_dilation_cases(add):
    for what, xs, fs, st, pad in CONV3D_CONFIGS:
        ys = [xs[0]] + [(-(-xs[i] // st[i]) if pad == "SAME" else (xs[i] - fs[i - 1]) // st[i] + 1)
                        for i in (1, 2, 3)] + [fs[4]]
        for dt in [F32, F64]:
            tol = dict(rtol=1e-5, atol=1e-5) if dt == F32 else {}
            add("Conv3D", what, [("input", rand(xs, ("c3d", what, dt), "any", dt)),
                                 ("filter", rand(fs, ("c3d_f", what, dt), "any", dt))],
                lambda x, f, st=st, pad=pad: raw.Conv3D(input=x, filter=f, strides=st,
                                                        padding=pad, name="out"), **tol)
            add("Conv3DBackpropInputV2", what,
                [("filter", rand(fs, ("c3dbi_f", what, dt), "any", dt)),
                 ("out_backprop", rand(ys, ("c3dbi_g", what, dt), "any", dt))],
                lambda f, g, xs=xs, st=st, pad=pad: raw.Conv3DBackpropInputV2(
                    input_sizes=tf.constant(xs), filter=f, out_backprop=g, strides=st,
                    padding=pad, name="out"), **tol)
            add("Conv3DBackpropFilterV2", what,
                [("input", rand(xs, ("c3dbf_x", what, dt), "any", dt)),
                 ("out_backprop", rand(ys, ("c3dbf_g", what, dt), "any", dt))],
                lambda x, g, fs=fs, st=st, pad=pad: raw.Conv3DBackpropFilterV2(
                    input=x, filter_sizes=tf.constant(fs), out_backprop=g, strides=st,
                    padding=pad, name="out"), **tol)
    for what, xs, ks, st, pad in [
            ("valid_2x2x2", [1, 4, 4, 4, 2], [1, 2, 2, 2, 1], [1, 2, 2, 2, 1], "VALID"),
            ("same_3x3x3_stride2", [2, 5, 4, 5, 1], [1, 3, 3, 3, 1], [1, 2, 2, 2, 1], "SAME"),
            ("same_overlap", [1, 3, 4, 3, 2], [1, 2, 3, 2, 1], [1, 1, 1, 1, 1], "SAME")]:
        attrs = dict(ksize=ks, strides=st, padding=pad)
        x = rand(xs, ("p3d", what), "any")
        y = raw.MaxPool3D(input=x, **attrs).numpy()
        add("MaxPool3D", what, [("input", x)],
            lambda x, attrs=attrs: raw.MaxPool3D(input=x, name="out", **attrs))
        add("AvgPool3D", what, [("input", x)],
            lambda x, attrs=attrs: raw.AvgPool3D(input=x, name="out", **attrs))
        add("AvgPool3DGrad", what, [("grad", rand(y.shape, ("ap3g", what), "any"))],
            lambda g, xs=xs, attrs=attrs: raw.AvgPool3DGrad(
                orig_input_shape=tf.constant(xs), grad=g, name="out", **attrs))
        add("MaxPool3DGrad", what, [("orig_input", x), ("grad", rand(y.shape, ("mp3g", what),
                                                                      "any"))],
            lambda x, g, y=y, attrs=attrs: raw.MaxPool3DGrad(
                orig_input=x, orig_output=tf.constant(y), grad=g, name="out", **attrs))
        add("MaxPool3DGradGrad", what, [("orig_input", x), ("grad", rand(xs, ("mp3gg", what),
                                                                          "any"))],
            lambda x, g, y=y, attrs=attrs: raw.MaxPool3DGradGrad(
                orig_input=x, orig_output=tf.constant(y), grad=g, name="out", **attrs))
    for what, xs, fs, st, rates, pad in [
            ("valid", [2, 4, 5, 2], [2, 2, 2], [1, 1, 1, 1], [1, 1, 1, 1], "VALID"),
            ("same_stride2", [1, 5, 5, 1], [3, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], "SAME"),
            ("same_rates2", [1, 6, 5, 2], [2, 2, 2], [1, 1, 1, 1], [1, 2, 2, 1], "SAME")]:
        for dt in [F32, F64]:
            add("Dilation2D", what, [("input", rand(xs, ("dil", what, dt), "any", dt)),
                                     ("filter", rand(fs, ("dil_f", what, dt), "any", dt))],
                lambda x, f, st=st, rates=rates, pad=pad: raw.Dilation2D(
                    input=x, filter=f, strides=st, rates=rates, padding=pad, name="out"))


def bicubic_crop_cases(add):
    for what, shape, size, align, half in [("upsample", [1, 3, 4, 2], [6, 7], False, False),
                                           ("downsample", [2, 6, 5, 1], [3, 2], False, False),
                                           ("align_corners", [1, 3, 4, 2], [5, 7], True, False),
                                           ("half_pixel", [1, 3, 4, 2], [5, 9], False, True),
                                           ("half_pixel_down", [1, 7, 6, 1], [3, 4], False, True)]:
        for dt in [F32, F64]:
            add("ResizeBicubic", what, [("images", rand(shape, ("bicubic", what, dt), "any", dt))],
                lambda x, size=size, align=align, half=half: raw.ResizeBicubic(
                    images=x, size=tf.constant(size), align_corners=align,
                    half_pixel_centers=half, name="out"), rtol=1e-5, atol=1e-5)
    boxes = np.array([[0.1, 0.2, 0.8, 0.7], [0.05, 0.0, 0.6, 0.9], [0.3, 0.6, 0.45, 0.85]],
                     np.float32)
    for what, crop, method in [("bilinear", [3, 4], "bilinear"), ("bilinear_1x1", [1, 1],
                                                                    "bilinear"),
                               ("nearest", [4, 3], "nearest")]:
        for dt in [F32, F64]:
            add("CropAndResize", what,
                [("image", rand([2, 6, 7, 2], ("crop", what, dt), "any", dt)), ("boxes", boxes)],
                lambda im, b, crop=crop, method=method: raw.CropAndResize(
                    image=im, boxes=b, box_ind=tf.constant([0, 1, 1]), crop_size=tf.constant(crop),
                    method=method, name="out"), rtol=1e-5, atol=1e-5)

    # ImageProjectiveTransformV3 / V2: the gradient warped back by the inverted transforms.
    rot = [[np.cos(0.4), -np.sin(0.4), 1.5, np.sin(0.4), np.cos(0.4), -1.0, 0.0, 0.0]]
    proj = [[1.0, 0.2, -0.5, 0.1, 0.9, 0.4, 0.03, -0.02], [0.8, 0.0, 0.5, 0.0, 1.2, -0.4, 0, 0]]
    for what, transforms, interp, mode in [("rotate_bilinear_constant", rot, "BILINEAR",
                                            "CONSTANT"),
                                           ("per_image_bilinear_reflect", proj, "BILINEAR",
                                            "REFLECT"),
                                           ("rotate_nearest_wrap", rot, "NEAREST", "WRAP")]:
        add("ImageProjectiveTransformV3", what,
            [("images", rand([2, 6, 7, 2], ("ipt", what), "any", F32))],
            lambda im, t=transforms, interp=interp, mode=mode:
                raw.ImageProjectiveTransformV3(
                    images=im, transforms=tf.constant(t, tf.float32),
                    output_shape=tf.constant([5, 8]), fill_value=tf.constant(0.5),
                    interpolation=interp, fill_mode=mode, name="out"), rtol=1e-5, atol=1e-5)
        add("ImageProjectiveTransformV2", what,
            [("images", rand([2, 6, 7, 2], ("ipt2", what), "any", F32))],
            lambda im, t=transforms, interp=interp, mode=mode:
                raw.ImageProjectiveTransformV2(
                    images=im, transforms=tf.constant(t, tf.float32),
                    output_shape=tf.constant([5, 8]), interpolation=interp, fill_mode=mode,
                    name="out"), rtol=1e-5, atol=1e-5)


SCALE_TRANSLATE_CASES = [
    # what, image shape, size, scale [y, x], translation [y, x], kernel_type, antialias
    ("lanczos3_up", [1, 4, 5, 2], [7, 9], [1.75, 1.8], [0.0, 0.0], "lanczos3", True),
    ("lanczos3_down_shift", [2, 8, 7, 1], [4, 3], [0.5, 0.45], [0.5, -0.25], "lanczos3", True),
    ("keyscubic_no_antialias", [1, 6, 6, 2], [3, 4], [0.5, 0.7], [0.0, 0.3], "keyscubic", False),
    ("triangle", [1, 3, 4, 1], [5, 5], [1.5, 1.25], [0.2, 0.0], "triangle", True),
    ("gaussian", [1, 5, 4, 1], [3, 6], [0.6, 1.5], [0.0, 0.0], "gaussian", True),
]


def scale_and_translate_cases(add):
    for what, shape, size, scale, shift, kernel, antialias in SCALE_TRANSLATE_CASES:
        add("ScaleAndTranslate", what, [("images", rand(shape, ("sat", what), "any"))],
            lambda x, size=size, scale=scale, shift=shift, kernel=kernel, antialias=antialias:
            raw.ScaleAndTranslate(images=x, size=tf.constant(size), scale=tf.constant(scale),
                                  translation=tf.constant(shift), kernel_type=kernel,
                                  antialias=antialias, name="out"))


def batch_norm_cases(add):
    for op in ["FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3"]:
        fn = getattr(raw, op)
        for what, xs, fmt, training in [("train_nhwc", [2, 3, 2, 4], "NHWC", True),
                                        ("infer_nhwc", [2, 2, 3, 3], "NHWC", False),
                                        ("train_nchw", [2, 3, 2, 2], "NCHW", True),
                                        ("infer_nchw", [2, 4, 2, 3], "NCHW", False)]:
            c = xs[3] if fmt == "NHWC" else xs[1]
            inputs = [("x", rand(xs, (op, what, "x"), "any")),
                      ("scale", rand([c], (op, what, "scale"), "positive")),
                      ("offset", rand([c], (op, what, "offset"), "any"))]
            if not training:
                inputs += [("mean", rand([c], (op, what, "mean"), "any")),
                           ("variance", rand([c], (op, what, "var"), "positive"))]

            def build(x, scale, offset, mean=None, variance=None, fn=fn, c=c, fmt=fmt,
                      training=training):
                if mean is None:
                    mean = tf.zeros([c])
                    variance = tf.ones([c])
                return fn(x=x, scale=scale, offset=offset, mean=mean, variance=variance,
                          epsilon=0.001, data_format=fmt, is_training=training, name="out")[0]

            add(op, what, inputs, build, rtol=1e-4, atol=1e-5)
    # half x (V2, V3): x and its gradient are rounded to half (about 1e-3 relative).
    for op in ["FusedBatchNormV2", "FusedBatchNormV3"]:
        fn = getattr(raw, op)
        for what, training in [("train_half", True), ("infer_half", False)]:
            inputs = [("x", rand([2, 3, 2, 4], (op, what, "x"), "any", np.float16)),
                      ("scale", rand([4], (op, what, "scale"), "positive")),
                      ("offset", rand([4], (op, what, "offset"), "any"))]

            def build(x, scale, offset, fn=fn, training=training, op=op, what=what):
                return fn(x=x, scale=scale, offset=offset,
                          mean=tf.constant(rand([4], (op, what, "mean"), "any")),
                          variance=tf.constant(rand([4], (op, what, "var"), "positive")),
                          epsilon=0.001, is_training=training, name="out")[0]

            add(op, what, inputs, build, rtol=2e-3, atol=2e-3)


def batch_norm_grad_cases(add):
    for op in ["FusedBatchNormGrad", "FusedBatchNormGradV2", "FusedBatchNormGradV3"]:
        fn = getattr(raw, op)
        for what, xs, fmt, training in [("train_nhwc", [2, 3, 2, 4], "NHWC", True),
                                        ("infer_nhwc", [2, 2, 3, 3], "NHWC", False),
                                        ("train_nchw", [2, 3, 2, 2], "NCHW", True),
                                        ("infer_nchw", [2, 4, 2, 3], "NCHW", False)]:
            axes = (0, 1, 2) if fmt == "NHWC" else (0, 2, 3)
            c = xs[3] if fmt == "NHWC" else xs[1]
            x = rand(xs, (op, what, "x"), "any")
            if training:
                mean, var = x.mean(axis=axes), x.var(axis=axes)
            else:
                mean, var = rand([c], (op, what, "mean"), "any"), rand([c], (op, what, "var"),
                                                                      "positive")
            inputs = [("y_backprop", rand(xs, (op, what, "dy"), "any")), ("x", x),
                      ("scale", rand([c], (op, what, "scale"), "positive"))]

            def build(dy, x, scale, fn=fn, op=op, mean=mean, var=var, fmt=fmt, training=training):
                extra = ({"reserve_space_3": tf.constant([], tf.float32)} if op.endswith("V3")
                         else {})
                return list(fn(y_backprop=dy, x=x, scale=scale, reserve_space_1=tf.constant(mean),
                               reserve_space_2=tf.constant(var), epsilon=0.001, data_format=fmt,
                               is_training=training, name="out", **extra)[:3])

            add(op, what, inputs, build, rtol=1e-4, atol=1e-5)


def image_cases(add):
    for what, xs, ks, st, rates, pad in [
            ("valid_2x2", [2, 4, 5, 2], [1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID"),
            ("same_3x3_stride2", [1, 5, 5, 3], [1, 3, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], "SAME"),
            ("valid_rates2", [2, 6, 5, 1], [1, 2, 2, 1], [1, 1, 2, 1], [1, 2, 2, 1], "VALID"),
            ("same_rect", [1, 4, 6, 2], [1, 2, 3, 1], [1, 2, 1, 1], [1, 1, 1, 1], "SAME")]:
        for dt in [F32, F64]:
            add("ExtractImagePatches", what, [("images", rand(xs, ("eip", what, dt), "any", dt))],
                lambda x, ks=ks, st=st, rates=rates, pad=pad: raw.ExtractImagePatches(
                    images=x, ksizes=ks, strides=st, rates=rates, padding=pad, name="out"))
    for what, shape in [("rank2", [5, 3]), ("rank4", [2, 3, 2, 3])]:
        for dt in [F32, F64]:
            images = rand(shape, ("hsv", what, dt), "positive", dt) / 2.5  # in 0.2 .. 0.8
            add("RGBToHSV", what, [("images", images)],
                lambda x: raw.RGBToHSV(images=x, name="out"))


def cases(add):
    activation_cases(add)
    math_cases.sparse_matmul(add)  # its ReluGrad case needs the Relu gradient linked
    bias_softmax_loss_cases(add)
    conv_cases(add)
    explicit_padding_cases(add)
    pool_cases(add)
    max_pool_grad_cases(add)
    lrn_resize_cases(add)
    conv3d_pool3d_dilation_cases(add)
    bicubic_crop_cases(add)
    scale_and_translate_cases(add)
    batch_norm_cases(add)
    batch_norm_grad_cases(add)
    image_cases(add)
