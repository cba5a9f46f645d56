"""Backprop kernels the nn gradients build (graph/gradients/nn_grad.cc): ResizeBilinearGrad,
ResizeNearestNeighborGrad, LRNGrad, MaxPoolGradGrad, Conv3DBackpropFilterV2,
AvgPool3DGrad, MaxPool3DGrad, MaxPool3DGradGrad, Dilation2DBackpropInput,
Dilation2DBackpropFilter, ResizeBicubicGrad, CropAndResizeGradImage, CropAndResizeGradBoxes,
ScaleAndTranslateGrad."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import const, ph, rand


def _tol(dt):
    return {"float32": (1e-5, 1e-5), "float64": (1e-12, 1e-12), "half": (3e-3, 3e-3)}.get(
        dt, (0.0, 0.0))


RESIZE_CASES = [
    # what, image [n, h, w, c], resized [h, w], align_corners, half_pixel_centers
    ("upsample", [1, 3, 4, 2], [6, 7], False, False),
    ("downsample", [2, 6, 5, 1], [3, 2], False, False),
    ("align_corners", [1, 3, 4, 2], [5, 7], True, False),
    ("half_pixel_centers", [1, 3, 4, 2], [5, 9], False, True),
    ("half_pixel_down", [1, 7, 6, 1], [3, 4], False, True),
]


def resize_bilinear_grad(rec):
    def gen(dt):
        rtol, atol = _tol(dt)
        s = "ResizeBilinearGrad/" + dt
        for what, shape, size, align, half in RESIZE_CASES:
            g = rand("float32", [shape[0]] + size + [shape[3]], s + "/" + what + "/g", "small")
            image = rand(dt, shape, s + "/" + what + "/x", "small")
            rec.case("ResizeBilinearGrad", dt, what,
                     lambda g=g, image=image, align=align, half=half:
                     tf.raw_ops.ResizeBilinearGrad(grads=ph("g", g), original_image=ph("x", image),
                                                   align_corners=align, half_pixel_centers=half,
                                                   name="out"), rtol=rtol, atol=atol)
        g = rand("float32", [1, 2, 2, 1], s + "/flags/g")
        image = rand(dt, [1, 3, 3, 1], s + "/flags/x")
        rec.case("ResizeBilinearGrad", dt, "both_flags_error",
                 lambda: tf.raw_ops.ResizeBilinearGrad(
                     grads=ph("g", g), original_image=ph("x", image), align_corners=True,
                     half_pixel_centers=True, name="out"),
                 error="INVALID_ARGUMENT",
                 phrases=["If half_pixel_centers is True, align_corners must be False."])

    rec.for_dtypes("ResizeBilinearGrad", ["float32", "float64", "half"], gen)


def resize_nearest_grad(rec):
    def gen(dt):
        rtol, atol = _tol(dt)
        s = "ResizeNearestNeighborGrad/" + dt
        for what, shape, size, align, half in RESIZE_CASES:
            g = rand(dt, [shape[0]] + size + [shape[3]], s + "/" + what, "small")
            rec.case("ResizeNearestNeighborGrad", dt, what,
                     lambda g=g, shape=shape, align=align, half=half:
                     tf.raw_ops.ResizeNearestNeighborGrad(
                         grads=ph("g", g, dt), size=const("size", shape[1:3]),
                         align_corners=align, half_pixel_centers=half, name="out"),
                     rtol=rtol, atol=atol)
        g = rand(dt, [2, 3, 3], s + "/rank")
        rec.case("ResizeNearestNeighborGrad", dt, "rank_error",
                 lambda: tf.raw_ops.ResizeNearestNeighborGrad(
                     grads=ph("g", g, dt), size=ph("size", np.array([2, 2], np.int32)),
                     name="out"),
                 error="INVALID_ARGUMENT", phrases=["input must be 4-dimensional"])

    rec.for_dtypes("ResizeNearestNeighborGrad",
                   ["float32", "float64", "half", "int8", "uint8", "int32"], gen)


def lrn_grad(rec):
    def gen(dt):
        rtol, atol = (1e-5, 1e-6) if dt == "float32" else (3e-3, 3e-3)
        s = "LRNGrad/" + dt

        def c(what, shape, **attrs):
            x = rand(dt, shape, s + "/" + what + "/x", "small")
            g = rand(dt, shape, s + "/" + what + "/g", "small")

            def build():
                xi = ph("x", x, dt)
                y = tf.raw_ops.LRN(input=xi, **attrs)
                return tf.raw_ops.LRNGrad(input_grads=ph("g", g, dt), input_image=xi,
                                          output_image=y, name="out", **attrs)
            rec.case("LRNGrad", dt, what, build, rtol=rtol, atol=atol)

        c("defaults", [1, 2, 2, 7])
        c("radius2", [2, 3, 1, 6], depth_radius=2, bias=2.0, alpha=0.1, beta=0.75)
        c("radius1_beta1", [1, 2, 3, 4], depth_radius=1, bias=1.5, alpha=0.5, beta=1.0)
        x = rand(dt, [2, 3, 4], s + "/rank")
        rec.case("LRNGrad", dt, "rank_error",
                 lambda: tf.raw_ops.LRNGrad(input_grads=ph("g", x, dt), input_image=ph("x", x, dt),
                                            output_image=ph("y", x, dt), name="out"),
                 error="INVALID_ARGUMENT", phrases=["inputs must be 4-dimensional"])

    rec.for_dtypes("LRNGrad", ["float32", "half"], gen)


def max_pool_grad_grad(rec):
    def gen(dt):
        s = "MaxPoolGradGrad/" + dt

        def c(what, shape, ksize, strides, padding):
            x = rand(dt, shape, s + "/" + what + "/x")
            g = rand(dt, shape, s + "/" + what + "/g")

            def build():
                xi = ph("x", x, dt)
                y = tf.raw_ops.MaxPool(input=xi, ksize=ksize, strides=strides, padding=padding)
                return tf.raw_ops.MaxPoolGradGrad(orig_input=xi, orig_output=y,
                                                  grad=ph("g", g, dt), ksize=ksize,
                                                  strides=strides, padding=padding, name="out")
            rec.case("MaxPoolGradGrad", dt, what, build)

        c("valid_2x2", [2, 4, 6, 3], [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
        c("same_3x3_stride2", [1, 5, 7, 2], [1, 3, 3, 1], [1, 2, 2, 1], "SAME")
        c("same_overlap", [1, 4, 4, 1], [1, 3, 3, 1], [1, 1, 1, 1], "SAME")
        x = rand(dt, [2, 4, 4], s + "/rank")
        rec.case("MaxPoolGradGrad", dt, "rank_error",
                 lambda: tf.raw_ops.MaxPoolGradGrad(
                     orig_input=ph("x", x, dt), orig_output=ph("y", x, dt), grad=ph("g", x, dt),
                     ksize=[1, 2, 2, 1], strides=[1, 1, 1, 1], padding="VALID", name="out"),
                 error="INVALID_ARGUMENT", phrases=["tensor_in must be 4-dimensional"])

    rec.for_dtypes("MaxPoolGradGrad", ["float32", "float64", "half", "int32", "int64"], gen)


WINDOW_TYPES = ["float32", "float64", "half", "int32", "int64"]


def _pooled(shape, ksize, strides, padding):
    out = list(shape)
    for d in range(1, len(shape) - 1):
        out[d] = (-(-shape[d] // strides[d]) if padding == "SAME"
                  else (shape[d] - ksize[d]) // strides[d] + 1)
    return out


def conv3d_backprop_filter(rec):
    def gen(dt):
        s = "Conv3DBackpropFilterV2/" + dt
        rtol, atol = {"float32": (1e-5, 1e-5), "float64": (1e-12, 1e-12),
                      "half": (5e-3, 5e-3)}[dt]

        def c(what, in_shape, f_shape, strides, padding):
            x = rand(dt, in_shape, s + "/" + what + "/x", "small")
            g = rand(dt, _pooled(in_shape, [1] + f_shape[:3] + [1], strides, padding)[:4] +
                     [f_shape[4]], s + "/" + what + "/g", "small")
            rec.case("Conv3DBackpropFilterV2", dt, what,
                     lambda: tf.raw_ops.Conv3DBackpropFilterV2(
                         input=ph("x", x, dt), filter_sizes=const("filter_sizes", f_shape),
                         out_backprop=ph("g", g, dt), strides=strides, padding=padding,
                         name="out"), rtol=rtol, atol=atol)

        c("valid", [1, 4, 4, 3, 2], [2, 2, 2, 2, 3], [1, 1, 1, 1, 1], "VALID")
        c("same_stride2", [2, 5, 4, 4, 1], [3, 2, 3, 1, 2], [1, 2, 2, 2, 1], "SAME")
        c("same_stride_mixed", [1, 3, 5, 4, 2], [1, 3, 2, 2, 2], [1, 1, 2, 1, 1], "SAME")

    rec.for_dtypes("Conv3DBackpropFilterV2", ["float32", "float64", "half"], gen)


POOL3D_CASES = [
    ("valid_2x2x2", [1, 4, 4, 4, 2], [1, 2, 2, 2, 1], [1, 2, 2, 2, 1], "VALID"),
    ("same_3x3x3_stride2", [2, 5, 4, 5, 1], [1, 3, 3, 3, 1], [1, 2, 2, 2, 1], "SAME"),
    ("same_overlap", [1, 3, 4, 3, 2], [1, 2, 3, 2, 1], [1, 1, 1, 1, 1], "SAME"),
]


def pool3d_grads(rec):
    def gen_avg(dt):
        s = "AvgPool3DGrad/" + dt
        for what, shape, ksize, strides, padding in POOL3D_CASES:
            g = rand(dt, _pooled(shape, ksize, strides, padding), s + "/" + what)
            rec.case("AvgPool3DGrad", dt, what,
                     lambda g=g, shape=shape, ksize=ksize, strides=strides, padding=padding:
                     tf.raw_ops.AvgPool3DGrad(orig_input_shape=const("shape", shape),
                                              grad=ph("g", g, dt), ksize=ksize, strides=strides,
                                              padding=padding, name="out"),
                     rtol=1e-5, atol=1e-6)

    def gen_max(op):
        def gen(dt):
            s = op + "/" + dt
            for what, shape, ksize, strides, padding in POOL3D_CASES:
                x = rand(dt, shape, s + "/" + what + "/x")
                g_shape = shape if op == "MaxPool3DGradGrad" else _pooled(shape, ksize, strides,
                                                                           padding)
                g = rand(dt, g_shape, s + "/" + what + "/g")

                def build(x=x, g=g, ksize=ksize, strides=strides, padding=padding):
                    xi = ph("x", x, dt)
                    y = tf.raw_ops.MaxPool3D(input=xi, ksize=ksize, strides=strides,
                                             padding=padding)
                    return getattr(tf.raw_ops, op)(orig_input=xi, orig_output=y,
                                                   grad=ph("g", g, dt), ksize=ksize,
                                                   strides=strides, padding=padding, name="out")
                rec.case(op, dt, what, build, rtol=1e-6, atol=1e-6)
        return gen

    rec.for_dtypes("AvgPool3DGrad", ["float32"], gen_avg)
    for op in ("MaxPool3DGrad", "MaxPool3DGradGrad"):
        rec.for_dtypes(op, ["float32"], gen_max(op))


def dilation2d_backprops(rec, op):
    def gen(dt):
        s = op + "/" + dt
        rtol, atol = _tol(dt)

        def c(what, shape, f_shape, strides, rates, padding):
            x = rand(dt, shape, s + "/" + what + "/x")
            f = rand(dt, f_shape, s + "/" + what + "/f")
            eff = [1] + [(f_shape[i] - 1) * rates[i + 1] + 1 for i in (0, 1)] + [1]
            g = rand(dt, _pooled(shape, eff, strides, padding), s + "/" + what + "/g")
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(
                input=ph("x", x, dt), filter=ph("f", f, dt), out_backprop=ph("g", g, dt),
                strides=strides, rates=rates, padding=padding, name="out"), rtol=rtol, atol=atol)

        c("valid", [2, 4, 5, 2], [2, 2, 2], [1, 1, 1, 1], [1, 1, 1, 1], "VALID")
        c("same_stride2", [1, 5, 5, 1], [3, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], "SAME")
        c("same_rates2", [1, 6, 5, 2], [2, 2, 2], [1, 1, 1, 1], [1, 2, 2, 1], "SAME")

    rec.for_dtypes(op, WINDOW_TYPES, gen)


def resize_bicubic_grad(rec):
    def gen(dt):
        rtol, atol = _tol(dt)
        s = "ResizeBicubicGrad/" + dt
        for what, shape, size, align, half in RESIZE_CASES:
            g = rand("float32", [shape[0]] + size + [shape[3]], s + "/" + what + "/g", "small")
            image = rand(dt, shape, s + "/" + what + "/x", "small")
            rec.case("ResizeBicubicGrad", dt, what,
                     lambda g=g, image=image, align=align, half=half:
                     tf.raw_ops.ResizeBicubicGrad(grads=ph("g", g), original_image=ph("x", image),
                                                  align_corners=align, half_pixel_centers=half,
                                                  name="out"), rtol=rtol, atol=atol)

    rec.for_dtypes("ResizeBicubicGrad", ["float32", "float64"], gen)


CROP_BOXES = np.array([[0.1, 0.2, 0.8, 0.7], [0.05, 0.0, 0.6, 0.9], [0.3, 0.6, 0.45, 0.85],
                       [-0.2, 0.1, 1.1, 0.5]], np.float32)


def crop_and_resize_grads(rec):
    def gen_image(dt):
        rtol, atol = _tol(dt)
        s = "CropAndResizeGradImage/" + dt
        for what, crop, method in [("bilinear", [3, 4], "bilinear"), ("bilinear_1x1", [1, 1],
                                                                        "bilinear"),
                                   ("nearest", [4, 3], "nearest")]:
            g = rand("float32", [4] + crop + [2], s + "/" + what, "small")
            rec.case("CropAndResizeGradImage", dt, what,
                     lambda g=g, method=method: tf.raw_ops.CropAndResizeGradImage(
                         grads=ph("g", g), boxes=ph("boxes", CROP_BOXES),
                         box_ind=ph("box_ind", np.array([0, 1, 1, 0], np.int32)),
                         image_size=const("image_size", [2, 6, 7, 2]), T=tf.as_dtype(dt),
                         method=method, name="out"), rtol=rtol, atol=atol)
        g = rand("float32", [4, 2, 2, 2], s + "/bad_index")
        rec.case("CropAndResizeGradImage", dt, "box_index_error",
                 lambda: tf.raw_ops.CropAndResizeGradImage(
                     grads=ph("g", g), boxes=ph("boxes", CROP_BOXES),
                     box_ind=ph("box_ind", np.array([0, 2, 1, 0], np.int32)),
                     image_size=const("image_size", [2, 6, 7, 2]), T=tf.as_dtype(dt), name="out"),
                 error="OUT_OF_RANGE", phrases=["box_index has values outside [0, batch_size)"])

    def gen_boxes(dt):
        s = "CropAndResizeGradBoxes/" + dt
        for what, crop in [("crop3x4", [3, 4]), ("crop1x1", [1, 1]), ("crop2x1", [2, 1])]:
            g = rand("float32", [4] + crop + [2], s + "/" + what + "/g", "small")
            image = rand(dt, [2, 6, 7, 2], s + "/" + what + "/x", "small")
            rec.case("CropAndResizeGradBoxes", dt, what,
                     lambda g=g, image=image: tf.raw_ops.CropAndResizeGradBoxes(
                         grads=ph("g", g), image=ph("x", image, dt),
                         boxes=ph("boxes", CROP_BOXES),
                         box_ind=ph("box_ind", np.array([0, 1, 1, 0], np.int32)), name="out"),
                     rtol=1e-5, atol=1e-5)

    rec.for_dtypes("CropAndResizeGradImage", ["float32", "float64", "half"], gen_image)
    rec.for_dtypes("CropAndResizeGradBoxes",
                   ["float32", "float64", "half", "int8", "uint8", "int16", "int32", "int64"],
                   gen_boxes)


def scale_and_translate_grad(rec):
    def gen(dt):
        s = "ScaleAndTranslateGrad/" + dt
        for what, shape, size, scale, shift, kernel, antialias in [
                ("lanczos3_up", [1, 4, 5, 2], [7, 9], [1.75, 1.8], [0.0, 0.0], "lanczos3", True),
                ("lanczos5_down_shift", [2, 8, 7, 1], [4, 3], [0.5, 0.45], [0.5, -0.25],
                 "lanczos5", True),
                ("keyscubic_no_antialias", [1, 6, 6, 2], [3, 4], [0.5, 0.7], [0.0, 0.3],
                 "keyscubic", False),
                ("box", [1, 3, 4, 1], [5, 5], [1.5, 1.25], [0.2, 0.0], "box", True),
                ("mitchellcubic", [1, 5, 4, 1], [3, 6], [0.6, 1.5], [0.0, 0.0], "mitchellcubic",
                 True),
                ("lanczos1", [1, 4, 4, 1], [6, 2], [1.5, 0.5], [0.0, 0.0], "lanczos1", True),
                ("gaussian", [1, 5, 4, 1], [3, 6], [0.6, 1.5], [0.0, 0.0], "gaussian", False),
                ("triangle", [1, 3, 4, 1], [5, 5], [1.5, 1.25], [0.2, 0.0], "triangle", True)]:
            g = rand(dt, [shape[0]] + size + [shape[3]], s + "/" + what + "/g", "small")
            image = rand(dt, shape, s + "/" + what + "/x", "small")
            rec.case("ScaleAndTranslateGrad", dt, what,
                     lambda g=g, image=image, scale=scale, shift=shift, kernel=kernel,
                     antialias=antialias: tf.raw_ops.ScaleAndTranslateGrad(
                         grads=ph("g", g), original_image=ph("x", image),
                         scale=const("scale", scale, "float32"),
                         translation=const("translation", shift, "float32"), kernel_type=kernel,
                         antialias=antialias, name="out"), rtol=1e-5, atol=1e-6)

    rec.for_dtypes("ScaleAndTranslateGrad", ["float32"], gen)


def build_all(rec, emit):
    resize_bilinear_grad(rec)
    emit("ResizeBilinearGrad")
    resize_nearest_grad(rec)
    emit("ResizeNearestNeighborGrad")
    lrn_grad(rec)
    emit("LRNGrad")
    max_pool_grad_grad(rec)
    emit("MaxPoolGradGrad")
    conv3d_backprop_filter(rec)
    emit("Conv3DBackpropFilterV2")
    pool3d_grads(rec)
    for op in ("AvgPool3DGrad", "MaxPool3DGrad", "MaxPool3DGradGrad"):
        emit(op)
    for op in ("Dilation2DBackpropInput", "Dilation2DBackpropFilter"):
        dilation2d_backprops(rec, op)
        emit(op)
    resize_bicubic_grad(rec)
    emit("ResizeBicubicGrad")
    crop_and_resize_grads(rec)
    emit("CropAndResizeGradImage")
    emit("CropAndResizeGradBoxes")
    scale_and_translate_grad(rec)
    emit("ScaleAndTranslateGrad")
