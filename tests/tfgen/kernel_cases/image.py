"""Image and detection post-processing kernels: NonMaxSuppressionV2/V3/V4/V5,
NonMaxSuppressionWithOverlaps, CombinedNonMaxSuppression, FusedResizeAndPadConv2D,
FusedPadConv2D, CropAndResize, ResizeBicubic, ResizeArea, RGBToHSV, HSVToRGB, AdjustContrastv2,
AdjustHue, AdjustSaturation, ExtractImagePatches, MaxPoolWithArgmax, Dilation2D.

Boxes are built from multiples of 1/64 so they are exact in half; scores are distinct so the
selection order never depends on ties."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import arr, const, ph, rand, seed_of


def _boxes(n, seed, flip=False):
    """n boxes [y1, x1, y2, x2] in [0, 1.5), some overlapping; corners swapped when flip."""
    rs = np.random.RandomState(seed_of(seed))
    y = np.round(rs.uniform(0, 1, n) * 16) / 16
    x = np.round(rs.uniform(0, 1, n) * 16) / 16
    h = np.round(rs.uniform(0.1, 0.5, n) * 64) / 64
    w = np.round(rs.uniform(0.1, 0.5, n) * 64) / 64
    b = np.stack([y, x, y + h, x + w], axis=1)
    if flip:
        b[::2] = b[::2][:, [2, 3, 0, 1]]
    return b


def _scores(n, seed):
    """n distinct scores in (0, 1), multiples of 1/256 (exact in half)."""
    rs = np.random.RandomState(seed_of(seed))
    return (rs.permutation(200)[:n] + 20) / 256.0


# Clusters of heavily overlapping boxes (IoU well above 0.5 inside a cluster, 0 across).
CLUSTER_BOXES = [[0, 0, 1, 1], [0, 0.0625, 1, 1.0625], [0, -0.0625, 1, 0.9375],
                 [0, 10, 1, 11], [0, 10.0625, 1, 11.0625], [0, 100, 1, 101]]
CLUSTER_SCORES = [0.875, 0.75, 0.625, 0.9375, 0.5, 0.25]
# IoU of boxes 0 and 1 is exactly 0.5 (1 inside 0, half its area).
HALF_IOU_BOXES = [[0, 0, 2, 1], [0, 0, 1, 1]]


def nms(rec, op):
    def gen(dt):
        soft = op == "NonMaxSuppressionV5"
        rtol, atol = (1e-6, 1e-6) if dt == "float32" else (2e-3, 2e-3)

        def c(what, boxes, scores, max_out, iou=0.5, score_t=float("-inf"), sigma=0.0,
              pad=False, tdt=None, error=None, phrases=()):
            tdt = tdt or dt

            def build():
                kw = dict(boxes=ph("x", arr(boxes, dt)), scores=ph("y", arr(scores, dt)),
                          max_output_size=ph("max_output_size", np.asarray(max_out, np.int32)),
                          iou_threshold=ph("iou_threshold", arr(iou, tdt if not soft else dt)),
                          name="out")
                if op != "NonMaxSuppressionV2":
                    kw["score_threshold"] = ph("score_threshold",
                                               arr(score_t, tdt if not soft else dt))
                if soft:
                    kw["soft_nms_sigma"] = ph("soft_nms_sigma", arr(sigma, dt))
                if op not in ("NonMaxSuppressionV2", "NonMaxSuppressionV3"):
                    kw["pad_to_max_output_size"] = pad
                return getattr(tf.raw_ops, op)(**kw)
            rec.case(op, dt, what, build, rtol=rtol, atol=atol, error=error, phrases=phrases)

        s = op + "/" + dt
        c("clusters", CLUSTER_BOXES, CLUSTER_SCORES, 6)
        c("clusters_max2", CLUSTER_BOXES, CLUSTER_SCORES, 2)
        if op != "NonMaxSuppressionV2":
            c("score_threshold", CLUSTER_BOXES, CLUSTER_SCORES, 6, score_t=0.6)
        else:
            c("lowest_scores", CLUSTER_BOXES[:3], [-3e38, float("-inf"), -1.0], 3)
            c("half_lowest_scores", CLUSTER_BOXES[:3], [-65504.0, float("-inf"), -1.0], 3)
        c("random", _boxes(12, s + "/a"), _scores(12, s + "/b"), 8, iou=0.3)
        c("flipped_corners", _boxes(10, s + "/c", flip=True), _scores(10, s + "/d"), 10, iou=0.2)
        c("iou_exactly_threshold", HALF_IOU_BOXES, [0.75, 0.5], 2, iou=0.5)
        c("iou_zero", CLUSTER_BOXES, CLUSTER_SCORES, 6, iou=0.0)
        c("iou_one", CLUSTER_BOXES + [[0, 0, 1, 1]], CLUSTER_SCORES + [0.125], 7, iou=1.0)
        c("zero_area_box", [[0, 0, 0, 1], [0, 0, 0, 1], [0, 0, 1, 1]], [0.5, 0.75, 0.25], 3)
        c("no_boxes", np.zeros([0, 4]), np.zeros([0]), 3)
        c("max_output_zero", CLUSTER_BOXES, CLUSTER_SCORES, 0)
        if op not in ("NonMaxSuppressionV2", "NonMaxSuppressionV3"):
            c("pad", CLUSTER_BOXES, CLUSTER_SCORES, 5, pad=True)
            c("pad_score_threshold", CLUSTER_BOXES, CLUSTER_SCORES, 5, score_t=0.7, pad=True)
        if soft:
            c("soft_sigma", CLUSTER_BOXES, CLUSTER_SCORES, 6, iou=1.0, sigma=0.5)
            c("soft_sigma_threshold", CLUSTER_BOXES, CLUSTER_SCORES, 6, iou=0.9, sigma=0.25,
              score_t=0.3)
            c("soft_random", _boxes(12, s + "/e"), _scores(12, s + "/f"), 12, iou=1.0,
              sigma=0.3, score_t=0.1, pad=True)
            c("negative_sigma_error", CLUSTER_BOXES, CLUSTER_SCORES, 6, sigma=-1.0,
              error="INVALID_ARGUMENT", phrases=["soft_nms_sigma"])
        elif dt == "half":
            c("float_thresholds", _boxes(12, s + "/g"), _scores(12, s + "/h"), 8, iou=0.3,
              tdt="float32")
        c("boxes_rank_error", np.zeros([4]), np.zeros([1]), 3,
          error="INVALID_ARGUMENT", phrases=["boxes must be 2-D"])
        c("boxes_columns_error", np.zeros([2, 3]), np.zeros([2]), 3,
          error="INVALID_ARGUMENT", phrases=["boxes must have 4 columns"])
        c("scores_rank_error", CLUSTER_BOXES, [CLUSTER_SCORES], 3,
          error="INVALID_ARGUMENT", phrases=["scores must be 1-D"])
        c("scores_size_error", CLUSTER_BOXES, CLUSTER_SCORES[:5], 3,
          error="INVALID_ARGUMENT", phrases=["scores has incompatible shape"])
        c("max_output_rank_error", CLUSTER_BOXES, CLUSTER_SCORES, [3],
          error="INVALID_ARGUMENT", phrases=["max_output_size must be 0-D"])
        c("iou_rank_error", CLUSTER_BOXES, CLUSTER_SCORES, 3, iou=[0.5],
          error="INVALID_ARGUMENT", phrases=["iou_threshold must be 0-D"])
        c("iou_range_error", CLUSTER_BOXES, CLUSTER_SCORES, 3, iou=1.5,
          error="INVALID_ARGUMENT", phrases=["iou_threshold must be in [0, 1]"])
        if op != "NonMaxSuppressionV2":
            c("score_threshold_rank_error", CLUSTER_BOXES, CLUSTER_SCORES, 3, score_t=[0.5],
              error="INVALID_ARGUMENT", phrases=["score_threshold must be 0-D"])

    rec.for_dtypes(op, ["float32", "half"], gen)


def _iou_matrix(boxes):
    b = np.asarray(boxes, np.float64)
    y0, x0 = np.minimum(b[:, 0], b[:, 2]), np.minimum(b[:, 1], b[:, 3])
    y1, x1 = np.maximum(b[:, 0], b[:, 2]), np.maximum(b[:, 1], b[:, 3])
    area = (y1 - y0) * (x1 - x0)
    ih = np.maximum(np.minimum(y1[:, None], y1) - np.maximum(y0[:, None], y0), 0)
    iw = np.maximum(np.minimum(x1[:, None], x1) - np.maximum(x0[:, None], x0), 0)
    inter = ih * iw
    return inter / (area[:, None] + area - inter)


def nms_with_overlaps(rec):
    """NonMaxSuppressionWithOverlaps: hard NMS over a given similarity matrix (read as
    overlaps[candidate][selected]; asymmetric matrices show which)."""
    op = "NonMaxSuppressionWithOverlaps"

    def gen(dt):
        def c(what, overlaps, scores, max_out, thr=0.5, score_t=float("-inf"), error=None,
              phrases=()):
            def build():
                return tf.raw_ops.NonMaxSuppressionWithOverlaps(
                    overlaps=ph("x", arr(overlaps, dt)), scores=ph("y", arr(scores, dt)),
                    max_output_size=ph("max_output_size", np.asarray(max_out, np.int32)),
                    overlap_threshold=ph("overlap_threshold", arr(thr, dt)),
                    score_threshold=ph("score_threshold", arr(score_t, dt)), name="out")
            rec.case(op, dt, what, build, error=error, phrases=phrases)

        s = op + "/" + dt
        clusters = _iou_matrix(CLUSTER_BOXES)
        c("cluster_ious", clusters, CLUSTER_SCORES, 6)
        c("cluster_ious_max2", clusters, CLUSTER_SCORES, 2)
        c("score_threshold", clusters, CLUSTER_SCORES, 6, score_t=0.6)
        rs = np.random.RandomState(seed_of(s + "/a"))
        asym = np.round(rs.uniform(0, 1, (9, 9)) * 32) / 32
        c("asymmetric", asym, _scores(9, s + "/b"), 9, thr=0.5)
        c("asymmetric_transposed", asym.T, _scores(9, s + "/b"), 9, thr=0.5)
        c("random_ious", _iou_matrix(_boxes(12, s + "/c")), _scores(12, s + "/d"), 8, thr=0.3)
        c("threshold_equal", [[1.0, 0.5], [0.5, 1.0]], [0.75, 0.5], 2, thr=0.5)
        c("threshold_above_one", clusters * 3, CLUSTER_SCORES, 6, thr=2.0)
        c("negative_threshold", clusters, CLUSTER_SCORES, 6, thr=-0.5)
        nan = clusters.copy()
        nan[1, 0] = float("nan")
        c("nan_overlap", nan, CLUSTER_SCORES, 6)
        c("nan_overlap_score_threshold", nan, CLUSTER_SCORES, 6, score_t=0.1)
        c("no_boxes", np.zeros([0, 0]), np.zeros([0]), 3)
        c("max_output_zero", clusters, CLUSTER_SCORES, 0)
        c("negative_max_output_error", clusters, CLUSTER_SCORES, -1,
          error="INVALID_ARGUMENT", phrases=["output size must be non-negative"])
        c("overlaps_rank_error", np.zeros([4]), np.zeros([4]), 3,
          error="INVALID_ARGUMENT", phrases=["overlaps must be 2-D"])
        c("overlaps_square_error", np.zeros([2, 3]), np.zeros([2]), 3,
          error="INVALID_ARGUMENT", phrases=["overlaps must be square"])
        c("scores_rank_error", clusters, [CLUSTER_SCORES], 3,
          error="INVALID_ARGUMENT", phrases=["scores must be 1-D"])
        c("scores_size_error", clusters, CLUSTER_SCORES[:5], 3,
          error="INVALID_ARGUMENT", phrases=["scores has incompatible shape"])
        c("max_output_rank_error", clusters, CLUSTER_SCORES, [3],
          error="INVALID_ARGUMENT", phrases=["max_output_size must be 0-D"])
        c("overlap_threshold_rank_error", clusters, CLUSTER_SCORES, 3, thr=[0.5],
          error="INVALID_ARGUMENT", phrases=["overlap_threshold must be 0-D"])
        c("score_threshold_rank_error", clusters, CLUSTER_SCORES, 3, score_t=[0.5],
          error="INVALID_ARGUMENT", phrases=["score_threshold must be 0-D"])

    rec.for_dtypes(op, ["float32"], gen)


def _ph_known(name, value):
    """A Placeholder of value's shape: TensorFlow's shape functions of the fused pad convolutions
    refuse an input of unknown rank ("Shape must be rank -1 but is rank 4")."""
    from kernel_cases import core
    value = np.asarray(value)
    t = tf.compat.v1.placeholder(tf.as_dtype(value.dtype), shape=value.shape, name=name)
    core._feeds.append((t.name, value))
    return t


def fused_pad_conv(rec, op):
    """FusedResizeAndPadConv2D / FusedPadConv2D (optimize_for_inference's fusions). TensorFlow's
    kernel convolves the first image for every image of the batch: the batch-3 cases record it."""
    resize = op == "FusedResizeAndPadConv2D"
    # FusedResizeAndPadConv2D in half: Rill registers no kernel (kernels/image/fused_pad_conv_op.cc
    # says why), so it has no half cases.
    dts = ["float32", "float64"] + ([] if resize else ["half", "bfloat16"])

    def gen(dt):
        # half and bfloat16: TensorFlow's product rounds every step to T (up to 1.3% on the
        # half cases), Rill sums in float and rounds once.
        rtol, atol = {"float32": (1e-5, 1e-5), "float64": (1e-12, 1e-12),
                      "half": (5e-2, 5e-2), "bfloat16": (5e-2, 5e-2)}[dt]

        def c(what, shape=(1, 5, 7, 3), fshape=(3, 3, 3, 4), pads=((0, 0), (1, 2), (2, 1), (0, 0)),
              size=(8, 6), mode="REFLECT", strides=(1, 1, 1, 1), padding="VALID",
              align=False, error=None, phrases=()):
            s = op + "/" + dt + "/" + what
            x = rand(dt, list(shape), s + "/x") if np.prod(shape) else np.zeros(shape)
            f = rand(dt, list(fshape), s + "/f") if np.prod(fshape) else np.zeros(fshape)

            def build():
                kw = dict(input=_ph_known("x", arr(x, dt)),
                          paddings=_ph_known("paddings", np.asarray(pads, np.int32)),
                          filter=_ph_known("filter", arr(f, dt)), mode=mode,
                          strides=list(strides), padding=padding, name="out")
                if resize:
                    kw["size"] = _ph_known("size", np.asarray(size, np.int32))
                    kw["resize_align_corners"] = align
                return getattr(tf.raw_ops, op)(**kw)
            rec.case(op, dt, what, build, rtol=rtol, atol=atol, error=error, phrases=phrases)

        c("reflect_valid")
        c("symmetric_same_strided", mode="SYMMETRIC", strides=(1, 2, 2, 1), padding="SAME")
        c("reflect_same_row_stride", strides=(1, 2, 1, 1), padding="SAME")
        c("no_padding", pads=((0, 0),) * 4, fshape=(1, 1, 3, 2))
        c("symmetric_full", mode="SYMMETRIC", shape=(1, 3, 4, 2), fshape=(2, 2, 2, 3),
          pads=((0, 0), (3, 3), (4, 4), (0, 0)), size=(3, 4))
        c("batch_uses_first_image", shape=(3, 5, 7, 2), fshape=(3, 3, 2, 2))
        if resize:
            c("align_corners", align=True, mode="SYMMETRIC", padding="SAME")
            c("downscale", shape=(1, 9, 11, 2), fshape=(3, 3, 2, 2), size=(4, 5))
            c("downscale_align_corners", shape=(1, 9, 11, 2), fshape=(3, 3, 2, 2), size=(4, 5),
              align=True)
            c("size_one", size=(1, 1), pads=((0, 0),) * 4, fshape=(1, 1, 3, 2), align=True)
            c("size_zero_error", size=(0, 6), error="INVALID_ARGUMENT",
              phrases=["output dimensions must be positive"])
        c("negative_padding_error", pads=((0, 0), (-1, 2), (2, 1), (0, 0)),
          error="INVALID_ARGUMENT", phrases=["paddings must be non-negative: -1 2"])
        c("reflect_too_large_error", pads=((0, 0), (9, 0), (2, 1), (0, 0)),
          error="INVALID_ARGUMENT", phrases=["paddings must be less than the dimension size"])
        c("symmetric_too_large_error", mode="SYMMETRIC", pads=((0, 0), (9, 0), (2, 1), (0, 0)),
          error="INVALID_ARGUMENT",
          phrases=["paddings must be no greater than the dimension size"])
        c("batch_padding_error", shape=(2, 5, 7, 3), pads=((1, 0), (1, 2), (2, 1), (0, 0)),
          error="INVALID_ARGUMENT",
          phrases=["Fused mirror padding only support spatial padding, not batches"])
        c("channel_padding_error", pads=((0, 0), (1, 2), (2, 1), (0, 1)),
          error="INVALID_ARGUMENT",
          phrases=["Fused mirror padding only support spatial padding, not channels"])
        c("depth_error", fshape=(3, 3, 2, 4), error="INVALID_ARGUMENT",
          phrases=["input and filter must have the same depth: 3 vs 2"])
        c("batch_stride_error", strides=(2, 1, 1, 1), error="INVALID_ARGUMENT",
          phrases=["does not yet support strides in the batch and depth dimensions"])
        c("empty_input_error", shape=(0, 5, 7, 3), error="INVALID_ARGUMENT",
          phrases=["Input tensor can't be empty"])
        c("empty_output_error", fshape=(3, 3, 3, 0), error="INVALID_ARGUMENT",
          phrases=["Output tensor can't be empty"])

    rec.for_dtypes(op, dts, gen)


def combined_nms(rec):
    op = "CombinedNonMaxSuppression"

    def gen(dt):
        def c(what, boxes, scores, per_class, total, iou=0.5, score_t=float("-inf"),
              pad_per_class=False, clip=True, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.CombinedNonMaxSuppression(
                boxes=ph("x", arr(boxes, dt)), scores=ph("y", arr(scores, dt)),
                max_output_size_per_class=ph("max_output_size_per_class",
                                             np.asarray(per_class, np.int32)),
                max_total_size=ph("max_total_size", np.asarray(total, np.int32)),
                iou_threshold=ph("iou_threshold", arr(iou, dt)),
                score_threshold=ph("score_threshold", arr(score_t, dt)),
                pad_per_class=pad_per_class, clip_boxes=clip, name="out"),
                error=error, phrases=phrases)

        s = op + "/" + dt
        b1 = np.stack([_boxes(8, s + "/a"), _boxes(8, s + "/b")])[:, :, None, :]
        sc = np.stack([np.stack([_scores(8, s + "/c%d/%d" % (k, j)) for j in range(3)], axis=1)
                       for k in range(2)])
        bq = np.stack([np.stack([_boxes(8, s + "/d%d/%d" % (k, j)) for j in range(3)], axis=1)
                       for k in range(2)])
        c("shared_boxes", b1, sc, 4, 10)
        c("per_class_boxes", bq, sc, 3, 6, iou=0.3)
        c("pad_per_class", b1, sc, 2, 10, pad_per_class=True)
        c("pad_per_class_total", b1, sc, 4, 5, pad_per_class=True)
        c("no_clip", b1 * 1.5 - 0.25, sc, 4, 10, clip=False)
        c("clip", b1 * 1.5 - 0.25, sc, 4, 10)
        c("score_threshold", b1, sc, 8, 30, score_t=0.5)
        c("flipped_corners", _boxes(8, s + "/e", flip=True)[None, :, None, :], sc[:1], 8, 24,
          iou=0.2)
        c("clusters", np.array(CLUSTER_BOXES)[None, :, None, :],
          np.stack([CLUSTER_SCORES, CLUSTER_SCORES[::-1]], axis=1)[None], 6, 12)
        c("batch_mismatch_error", b1, sc[:1], 4, 10, error="INVALID_ARGUMENT",
          phrases=["boxes and scores must have same batch size"])
        c("max_total_zero_error", b1, sc, 4, 0, error="INVALID_ARGUMENT",
          phrases=["max_total_size must be > 0"])
        c("per_class_rank_error", b1, sc, [4], 10, error="INVALID_ARGUMENT",
          phrases=["max_size_per_class must be 0-D"])
        c("iou_range_error", b1, sc, 4, 10, iou=-0.5, error="INVALID_ARGUMENT",
          phrases=["iou_threshold must be in [0, 1]"])
        c("q_error", bq[:, :, :2], sc, 4, 10, error="INVALID_ARGUMENT",
          phrases=["third dimension of boxes must be either 1 or num classes"])
        c("boxes_rank_error", b1[:, :, 0], sc, 4, 10, error="INVALID_ARGUMENT",
          phrases=["boxes must be 4-D"])
        c("columns_error", b1[..., :3], sc, 4, 10, error="INVALID_ARGUMENT",
          phrases=["boxes must have 4 columns"])
        c("scores_size_error", b1, sc[:, :5], 4, 10, error="INVALID_ARGUMENT",
          phrases=["scores has incompatible shape"])

    rec.for_dtypes(op, ["float32"], gen)


def crop_and_resize(rec):
    op = "CropAndResize"

    def gen(dt):
        rtol, atol = (1e-5, 1e-5) if dt != "half" else (2e-3, 2e-3)
        s = op + "/" + dt

        def c(what, image, boxes, ind, size, method="bilinear", extrapolation=0.0, error=None,
              phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.CropAndResize(
                image=ph("x", image, dt), boxes=ph("y", arr(boxes, "float32")),
                box_ind=ph("z", np.asarray(ind, np.int32)),
                crop_size=ph("crop_size", np.asarray(size, np.int32)), method=method,
                extrapolation_value=extrapolation, name="out"),
                rtol=rtol, atol=atol, error=error, phrases=phrases)

        img = rand(dt, [2, 5, 6, 2], s + "/img")
        boxes = [[0.0, 0.0, 1.0, 1.0], [0.1, 0.2, 0.7, 0.9], [0.8, 0.9, 0.2, 0.1],
                 [-0.2, -0.1, 1.3, 1.2]]
        for method in ("bilinear", "nearest"):
            c(method, img, boxes, [0, 1, 0, 1], [3, 4], method=method)
            c(method + "_extrapolation", img, boxes, [1, 1, 0, 0], [4, 5], method=method,
              extrapolation=-1.5)
            c(method + "_size1", img, boxes, [0, 1, 1, 0], [1, 1], method=method)
            c(method + "_size1_by_3", img, boxes, [0, 1, 1, 0], [1, 3], method=method)
        c("upsample", img[:1], [[0.25, 0.25, 0.75, 0.75]], [0], [7, 6])
        c("no_boxes", img, np.zeros([0, 4]), np.zeros([0]), [3, 3])
        c("image_rank_error", img[0], boxes, [0, 0, 0, 0], [3, 3], error="INVALID_ARGUMENT",
          phrases=["input image must be 4-D"])
        c("empty_image_error", img[:, :0], boxes, [0, 0, 0, 0], [3, 3],
          error="INVALID_ARGUMENT", phrases=["image dimensions must be positive"])
        c("boxes_rank_error", img, [0.0, 0.0, 1.0, 1.0], [0], [3, 3], error="INVALID_ARGUMENT",
          phrases=["boxes must be 2-D"])
        c("boxes_columns_error", img, [[0.0, 0.0, 1.0]], [0], [3, 3], error="INVALID_ARGUMENT",
          phrases=["boxes must have 4 columns"])
        c("box_ind_size_error", img, boxes, [0, 0], [3, 3], error="INVALID_ARGUMENT",
          phrases=["box_index has incompatible shape"])
        c("box_ind_range_error", img, boxes, [0, 2, 0, 0], [3, 3], error="OUT_OF_RANGE",
          phrases=["box_index has values outside [0, batch_size)"])
        c("crop_size_error", img, boxes, [0, 0, 0, 0], [3, 3, 3], error="INVALID_ARGUMENT",
          phrases=["crop_size must have two elements"])
        c("crop_zero_error", img, boxes, [0, 0, 0, 0], [0, 3], error="INVALID_ARGUMENT",
          phrases=["crop dimensions must be positive"])
        c("nonfinite_box_error", img, [[0.0, np.nan, 1.0, 1.0]], [0], [3, 3],
          error="INVALID_ARGUMENT", phrases=["not finite"])

    rec.for_dtypes(op, ["float32", "float64", "half", "int32", "int64", "uint8", "int8",
                        "int16"], gen)


INT_AND_FLOAT = ["float32", "float64", "half", "int32", "int64", "uint8", "int8", "int16"]


def resize(rec, op):
    def gen(dt):
        rtol, atol = (1e-5, 1e-5) if dt != "half" else (2e-3, 2e-3)
        s = op + "/" + dt
        hp = op != "ResizeArea"

        def c(what, shape, size, align=False, half_pixel=False, error=None, phrases=()):
            x = rand(dt, shape, s + "/" + what)

            def build():
                kw = dict(images=ph("x", x, dt), size=const("size", size), align_corners=align,
                          name="out")
                if hp:
                    kw["half_pixel_centers"] = half_pixel
                return getattr(tf.raw_ops, op)(**kw)
            rec.case(op, dt, what, build, rtol=rtol, atol=atol, error=error, phrases=phrases)

        c("upsample", [1, 3, 4, 2], [6, 7])
        c("downsample", [2, 6, 5, 1], [3, 2])
        c("downsample_uneven", [1, 7, 9, 2], [3, 4])
        c("mixed", [1, 4, 6, 1], [7, 3])
        c("align_corners", [1, 3, 4, 2], [5, 7], align=True)
        c("align_corners_down", [1, 7, 6, 1], [4, 4], align=True)
        c("same_size", [1, 3, 4, 2], [3, 4])
        c("to_one", [1, 3, 4, 1], [1, 1])
        c("from_one", [1, 1, 1, 2], [3, 2])
        if hp:
            c("half_pixel_centers", [1, 3, 4, 2], [5, 9], half_pixel=True)
            c("half_pixel_down", [1, 8, 7, 1], [3, 4], half_pixel=True)
            c("both_flags_error", [1, 3, 4, 2], [5, 5], True, True, error="INVALID_ARGUMENT",
              phrases=["If half_pixel_centers is True, align_corners must be False."])
        c("rank_error", [3, 4, 2], [5, 5], error="INVALID_ARGUMENT",
          phrases=["input must be 4-dimensional"])
        c("zero_size_error", [1, 3, 4, 2], [0, 5], error="INVALID_ARGUMENT",
          phrases=["output dimensions must be positive"])
        c("empty_image_error", [1, 0, 4, 2], [3, 3], error="INVALID_ARGUMENT",
          phrases=["input image must be of non-zero size"])

    rec.for_dtypes(op, INT_AND_FLOAT, gen)


def _rgb(dt, shape, seed):
    """Values in [0, 1] with multiples of 1/64 (exact in half), some grays and ties."""
    rs = np.random.RandomState(seed_of(seed))
    v = np.round(rs.uniform(0, 1, shape) * 64) / 64
    flat = v.reshape(-1, 3)
    specials = [[0.5, 0.5, 0.5], [0.0, 0.0, 0.0], [0.75, 0.75, 0.25]]
    if len(flat) > 3:
        flat[:3] = specials
    return arr(v, dt)


def color(rec, op):
    def gen(dt):
        rtol, atol = {"float32": (1e-6, 1e-6), "float64": (1e-12, 1e-12),
                      "half": (2e-3, 2e-3)}[dt]
        s = op + "/" + dt

        def c(what, x, error=None, phrases=()):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(images=ph("x", x, dt),
                                                                   name="out"),
                     rtol=rtol, atol=atol, error=error, phrases=phrases)

        c("image", _rgb(dt, [2, 3, 4, 3], s + "/a"))
        c("vector", _rgb(dt, [3], s + "/b"))
        c("matrix", _rgb(dt, [5, 3], s + "/c"))
        if op == "HSVToRGB":
            c("hue_sweep", arr(np.stack([np.arange(25) / 24.0, np.full(25, 0.75),
                                         np.full(25, 0.5)], axis=1), dt))
        else:
            c("wide_range", rand(dt, [4, 3], s + "/d"))
        c("channels_error", _rgb(dt, [2, 3], s + "/e")[:, :2], error="FAILED_PRECONDITION",
          phrases=["input must have 3 channels but input only has 2 channels."])

    rec.for_dtypes(op, ["float32", "float64", "half"], gen)


def adjust(rec, op):
    arg = {"AdjustContrastv2": "contrast_factor", "AdjustHue": "delta",
           "AdjustSaturation": "scale"}[op]

    def gen(dt):
        rtol, atol = (1e-5, 1e-5) if dt == "float32" else (2e-3, 2e-3)
        s = op + "/" + dt

        def c(what, x, f, error=None, phrases=()):
            rec.case(op, dt, what, lambda: getattr(tf.raw_ops, op)(**{
                "images": ph("x", x, dt), arg: ph("y", np.asarray(f, np.float32)),
                "name": "out"}), rtol=rtol, atol=atol, error=error, phrases=phrases)

        img = _rgb(dt, [2, 3, 5, 3], s + "/a")
        for f in ((0.5, 2.0, -1.0, 0.0) if op != "AdjustHue" else (0.25, -0.4, 0.0, 1.5)):
            c("factor_%s" % str(f).replace("-", "m").replace(".", "_"), img, f)
        c("rank3", _rgb(dt, [4, 3, 3], s + "/b"), 0.7 if op != "AdjustHue" else 0.1)
        c("rank5", _rgb(dt, [2, 1, 3, 2, 3], s + "/c"), 1.3 if op != "AdjustHue" else -0.2)
        if op == "AdjustContrastv2":
            c("odd_sizes", rand(dt, [1, 7, 3, 2], s + "/d"), 1.7)
            c("one_pixel", rand(dt, [2, 1, 1, 4], s + "/e"), 3.0)
        c("rank_error", _rgb(dt, [4, 3], s + "/f"), 0.5, error="INVALID_ARGUMENT",
          phrases=["input must be at least 3-D"])
        c("factor_rank_error", img, [0.5, 0.5], error="INVALID_ARGUMENT",
          phrases=["%s must be scalar" % arg])
        if op != "AdjustContrastv2":
            c("channels_error", rand(dt, [1, 2, 2, 4], s + "/g"), 0.5,
              error="INVALID_ARGUMENT", phrases=["input must have 3 channels"])

    rec.for_dtypes(op, ["float32", "half"], gen)


def extract_image_patches(rec):
    op = "ExtractImagePatches"

    def gen(dt):
        s = op + "/" + dt

        def c(what, shape, k, st, r, padding, error=None, phrases=()):
            x = rand(dt, shape, s + "/" + what)
            rec.case(op, dt, what, lambda: tf.raw_ops.ExtractImagePatches(
                images=ph("x", x, dt), ksizes=[1] + k + [1], strides=[1] + st + [1],
                rates=[1] + r + [1], padding=padding, name="out"), error=error, phrases=phrases)

        c("valid_2x2", [2, 4, 5, 2], [2, 2], [1, 1], [1, 1], "VALID")
        c("same_3x3_stride2", [1, 5, 6, 3], [3, 3], [2, 2], [1, 1], "SAME")
        c("rates", [1, 7, 6, 1], [2, 3], [1, 2], [2, 2], "VALID")
        c("same_rates", [1, 5, 5, 2], [3, 2], [2, 3], [2, 1], "SAME")
        c("window_too_large", [1, 2, 2, 1], [3, 3], [1, 1], [1, 1], "VALID")
        c("rank_error", [4, 5, 2], [2, 2], [1, 1], [1, 1], "VALID",
          error="INVALID_ARGUMENT", phrases=["input must be 4-dimensional"])
        if dt == "float32":
            def attrs(what, k, st, r, code, phrase):
                x = rand(dt, [1, 4, 4, 2], s + "/" + what)
                rec.case(op, dt, what, lambda: tf.raw_ops.ExtractImagePatches(
                    images=ph("x", x, dt), ksizes=k, strides=st, rates=r, padding="VALID",
                    name="out"), error=code, phrases=[phrase])
            attrs("ksizes_batch_error", [2, 2, 2, 1], [1] * 4, [1] * 4, "UNIMPLEMENTED",
                  "Only support ksizes across space.")
            attrs("strides_depth_error", [1, 2, 2, 1], [1, 1, 1, 2], [1] * 4, "UNIMPLEMENTED",
                  "Only support strides across space.")
            attrs("rates_batch_error", [1, 2, 2, 1], [1] * 4, [2, 1, 1, 1], "UNIMPLEMENTED",
                  "Only support rates across space.")
            attrs("ksizes_zero_error", [1, 0, 2, 1], [1] * 4, [1] * 4, "OUT_OF_RANGE",
                  "ksizes is out of range.")
            attrs("strides_negative_error", [1, 2, 2, 1], [1, 1, -1, 1], [1] * 4,
                  "OUT_OF_RANGE", "strides is out of range.")

    rec.for_dtypes(op, INT_AND_FLOAT, gen)


def max_pool_with_argmax(rec):
    op = "MaxPoolWithArgmax"

    def gen(dt):
        s = op + "/" + dt

        def c(what, x, k, st, padding, batch_index=False, error=None, phrases=()):
            k = k if len(k) == 4 else [1] + k + [1]
            if what == "batch_error":
                k = [2] + k[1:]
            if what == "depth_error":
                k = k[:3] + [2]
            rec.case(op, dt, what, lambda: tf.raw_ops.MaxPoolWithArgmax(
                input=ph("x", x, dt), ksize=k, strides=[1] + st + [1],
                padding=padding, include_batch_in_index=batch_index, name="out"),
                error=error, phrases=phrases)

        c("valid_2x2", rand(dt, [2, 4, 6, 3], s + "/a"), [2, 2], [2, 2], "VALID")
        c("same_3x3_stride2", rand(dt, [2, 5, 7, 2], s + "/b"), [3, 3], [2, 2], "SAME")
        c("batch_index", rand(dt, [2, 5, 7, 2], s + "/c"), [3, 3], [2, 2], "SAME",
          batch_index=True)
        c("overlap", rand(dt, [1, 4, 4, 1], s + "/d"), [3, 2], [1, 1], "SAME")
        c("ties", arr(np.ones([1, 3, 4, 2]), dt), [2, 2], [1, 2], "VALID")
        c("window_too_large_error", rand(dt, [1, 1, 1, 1], s + "/e"), [3, 3], [1, 1], "VALID",
          error="INVALID_ARGUMENT", phrases=["Computed output size would be negative"])
        if dt == "float32":
            x = rand(dt, [2, 4, 5, 2], s + "/f")
            rec.case(op, dt, "argmax_int32", lambda: tf.raw_ops.MaxPoolWithArgmax(
                input=ph("x", x, dt), ksize=[1, 2, 2, 1], strides=[1, 1, 2, 1], padding="SAME",
                Targmax=tf.int32, include_batch_in_index=True, name="out"))
            c("batch_error", x, [2, 2], [1, 1], "VALID", error="UNIMPLEMENTED",
              phrases=["Pooling is not yet supported on the batch dimension."])
            c("depth_error", x, [2, 2], [1, 1], "VALID", error="UNIMPLEMENTED",
              phrases=["MaxPooling supports exactly one of pooling across depth"])
            c("rank_error", x[0], [2, 2], [1, 1], "VALID", error="INVALID_ARGUMENT",
              phrases=["tensor_in must be 4-dimensional"])

    rec.for_dtypes(op, INT_AND_FLOAT, gen)


def dilation2d(rec):
    op = "Dilation2D"

    def gen(dt):
        s = op + "/" + dt

        def c(what, shape, fshape, st, r, padding, error=None, phrases=()):
            x = rand(dt, shape, s + "/" + what + "/x", "small")
            f = rand(dt, fshape, s + "/" + what + "/f", "small")
            rec.case(op, dt, what, lambda: tf.raw_ops.Dilation2D(
                input=ph("x", x, dt), filter=ph("y", f, dt), strides=[1] + st + [1],
                rates=[1] + r + [1], padding=padding, name="out"), error=error, phrases=phrases)

        c("valid", [2, 5, 6, 2], [2, 3, 2], [1, 1], [1, 1], "VALID")
        c("same_stride2", [1, 6, 7, 3], [3, 3, 3], [2, 2], [1, 1], "SAME")
        c("rates", [1, 7, 7, 1], [2, 2, 1], [1, 1], [2, 3], "VALID")
        c("same_rates", [1, 5, 6, 2], [3, 2, 2], [1, 2], [2, 1], "SAME")
        c("depth_error", [1, 4, 4, 2], [2, 2, 3], [1, 1], [1, 1], "VALID",
          error="INVALID_ARGUMENT", phrases=["input and filter must have the same depth"])
        c("filter_rank_error", [1, 4, 4, 2], [2, 2], [1, 1], [1, 1], "VALID",
          error="INVALID_ARGUMENT", phrases=["filter must be 3-dimensional"])
        c("rank_error", [4, 4, 2], [2, 2, 2], [1, 1], [1, 1], "VALID",
          error="INVALID_ARGUMENT", phrases=["input must be 4-dimensional"])
        if dt == "float32":
            x = rand(dt, [1, 4, 4, 2], s + "/attrs/x")
            f = rand(dt, [2, 2, 2], s + "/attrs/f")
            for what, st, r, phrase in (
                    ("stride_batch_error", [2, 1, 1, 1], [1] * 4,
                     "Stride is only supported across spatial dimensions."),
                    ("rate_depth_error", [1] * 4, [1, 1, 1, 2],
                     "Rate is only supported across spatial dimensions.")):
                rec.case(op, dt, what, lambda st=st, r=r: tf.raw_ops.Dilation2D(
                    input=ph("x", x, dt), filter=ph("y", f, dt), strides=st, rates=r,
                    padding="VALID", name="out"), error="UNIMPLEMENTED", phrases=[phrase])

    rec.for_dtypes(op, INT_AND_FLOAT, gen)


def scale_and_translate(rec):
    op = "ScaleAndTranslate"

    def gen(dt):
        rtol, atol = (1e-5, 1e-5) if dt != "half" else (2e-3, 2e-3)
        s = op + "/" + dt

        def c(what, shape, size, scale, shift, kernel="lanczos3", antialias=True, error=None,
              phrases=()):
            x = rand(dt, shape, s + "/" + what)
            rec.case(op, dt, what, lambda: tf.raw_ops.ScaleAndTranslate(
                images=ph("x", x, dt), size=const("size", size),
                scale=ph("scale", np.asarray(scale, np.float32)),
                translation=ph("translation", np.asarray(shift, np.float32)),
                kernel_type=kernel, antialias=antialias, name="out"),
                rtol=rtol, atol=atol, error=error, phrases=phrases)

        c("upsample", [1, 4, 5, 2], [7, 9], [7 / 4, 9 / 5], [0, 0])
        c("downsample", [2, 9, 8, 1], [4, 3], [4 / 9, 3 / 8], [0, 0])
        c("downsample_no_antialias", [1, 9, 8, 2], [4, 3], [4 / 9, 3 / 8], [0, 0],
          antialias=False)
        c("translate", [1, 5, 6, 1], [5, 6], [1, 1], [0.5, -1.25])
        c("outside", [1, 4, 4, 1], [6, 6], [1, 1], [3, -3])
        if dt == "float32":
            for k in ("lanczos1", "lanczos5", "gaussian", "box", "triangle", "keyscubic",
                      "mitchellcubic"):
                c("up_" + k, [1, 4, 5, 2], [7, 8], [7 / 4, 8 / 5], [0.25, 0], kernel=k)
                c("down_" + k, [1, 9, 10, 1], [4, 3], [4 / 9, 3 / 10], [0, 0.5], kernel=k)
            c("kernel_error", [1, 4, 4, 1], [2, 2], [0.5, 0.5], [0, 0], kernel="cubic",
              error="INVALID_ARGUMENT", phrases=["Unrecognized kernel type: cubic"])
            c("scale_error", [1, 4, 4, 1], [2, 2], [0.5, 0.0], [0, 0],
              error="INVALID_ARGUMENT", phrases=["Scale must be greater than zero."])
            c("rank_error", [4, 4, 1], [2, 2], [0.5, 0.5], [0, 0],
              error="INVALID_ARGUMENT", phrases=["input must be 4-dimensional"])
            c("empty_image_error", [1, 0, 4, 1], [2, 2], [0.5, 0.5], [0, 0],
              error="INVALID_ARGUMENT", phrases=["input image must be of non-zero size"])

    rec.for_dtypes(op, INT_AND_FLOAT, gen)


def image_projective_transform(rec, op="ImageProjectiveTransformV3"):
    """ImageProjectiveTransformV3 / V2: rotations, zooms, shears and projective warps in every
    fill mode and both interpolations, one transform for the batch or one per image. V2 has no
    fill_value (it fills with 0): its cases record V3's with fill 0, and NaN / inf pixels."""
    v3 = op == "ImageProjectiveTransformV3"
    c30, s30 = np.cos(0.5), np.sin(0.5)
    rot = [c30, -s30, 2.0, s30, c30, -1.0, 0.0, 0.0]
    zoom = [0.7, 0.0, 0.8, 0.0, 1.3, -0.6, 0.0, 0.0]
    proj = [1.0, 0.2, -0.5, 0.1, 0.9, 0.4, 0.03, -0.02]
    far = [1.0, 0.0, -12.0, 0.0, 1.0, 9.0, 0.0, 0.0]

    def gen(dt):
        rtol, atol = (1e-6, 1e-5) if dt in ("float32", "float64") else (0, 0) if dt != "half" \
            else (1e-3, 1e-2)

        def c(what, images, transforms, shape, fill=0.0, interp="BILINEAR", mode="CONSTANT",
              error=None, phrases=()):
            def build():
                kw = dict(images=ph("images", images, dt),
                          transforms=ph("transforms", transforms, "float32"),
                          output_shape=ph("output_shape", np.asarray(shape, np.int32)),
                          interpolation=interp, fill_mode=mode, name="out")
                if not v3:
                    return tf.raw_ops.ImageProjectiveTransformV2(**kw)
                return tf.raw_ops.ImageProjectiveTransformV3(
                    fill_value=ph("fill_value", np.asarray(fill, np.float32)), **kw)
            rec.case(op, dt, what, build, rtol=rtol, atol=atol, error=error, phrases=phrases)

        img = arr(np.arange(2 * 6 * 7 * 2).reshape(2, 6, 7, 2) % 23, dt)
        for mode in ("CONSTANT", "REFLECT", "WRAP", "NEAREST"):
            for interp in ("BILINEAR", "NEAREST"):
                tag = "%s_%s" % (mode.lower(), interp.lower())
                c("rotate_" + tag, img, [rot], [6, 7], 3.0, interp, mode)
                c("projective_" + tag, img, [proj], [5, 8], 1.0, interp, mode)
                c("far_" + tag, img, [far], [6, 7], 2.0, interp, mode)
        c("per_image", img, [zoom, rot], [6, 7])
        c("identity_resized_canvas", img, [[1, 0, 0, 0, 1, 0, 0, 0]], [8, 9], 5.0, "NEAREST")
        c("one_pixel", img[:, :1, :1], [rot], [3, 3], 0.0, "BILINEAR", "REFLECT")
        c("zero_projection", img, [[1, 0, 0, 0, 1, 0, -1.0, 0]], [6, 7], 4.0)
        if dt == "float32":
            c("rank3_error", img[0], [rot], [6, 7], error="INVALID_ARGUMENT",
              phrases=["Input images must have rank 4"])
            c("transform_shape_error", img, [rot[:7]], [6, 7], error="INVALID_ARGUMENT",
              phrases=["Input transform should be num_images x 8 or 1 x 8"])
            c("transform_batch_error", img, [rot] * 3, [6, 7], error="INVALID_ARGUMENT",
              phrases=["Input transform should be num_images x 8 or 1 x 8"])
            c("output_shape_rank_error", img, [rot], [[6, 7]], error="INVALID_ARGUMENT",
              phrases=["output shape must be 1-dimensional[1,2]"])
            c("output_shape_length_error", img, [rot], [6, 7, 1], error="INVALID_ARGUMENT",
              phrases=["output shape must have two elements[3]"])
            c("output_shape_zero_error", img, [rot], [0, 7], error="INVALID_ARGUMENT",
              phrases=["output dimensions must be positive"])
            if v3:
                c("fill_value_error", img, [rot], [6, 7], fill=[0.0, 1.0],
                  error="INVALID_ARGUMENT", phrases=["fill_value must be a scalar[2]"])
            else:
                c("empty_batch", img[:0], [rot], [6, 7])
                c("nan_transform", img, [[np.nan, 0, 0, 0, 1, 0, 0, 0]], [6, 7])
        if dt in ("float32", "float64", "half") and not v3:
            special = img.copy()
            special[0, 2, 3, 0] = np.nan
            special[1, 4, 1, 1] = np.inf
            special[0, 0, 0, 1] = -np.inf
            for interp in ("BILINEAR", "NEAREST"):
                c("non_finite_pixels_" + interp.lower(), special, [rot], [6, 7], 0.0, interp,
                  "REFLECT")

    rec.for_dtypes(op, ["float32", "float64", "half", "int32", "int64", "uint8"], gen)


def build_all(rec, emit):
    image_projective_transform(rec)
    emit("ImageProjectiveTransformV3")
    image_projective_transform(rec, "ImageProjectiveTransformV2")
    emit("ImageProjectiveTransformV2")
    for op in ("NonMaxSuppressionV2", "NonMaxSuppressionV3", "NonMaxSuppressionV4",
               "NonMaxSuppressionV5"):
        nms(rec, op)
        emit(op)
    nms_with_overlaps(rec)
    emit("NonMaxSuppressionWithOverlaps")
    for op in ("FusedResizeAndPadConv2D", "FusedPadConv2D"):
        fused_pad_conv(rec, op)
        emit(op)
    combined_nms(rec)
    emit("CombinedNonMaxSuppression")
    crop_and_resize(rec)
    emit("CropAndResize")
    for op in ("ResizeBicubic", "ResizeArea"):
        resize(rec, op)
        emit(op)
    for op in ("RGBToHSV", "HSVToRGB"):
        color(rec, op)
        emit(op)
    for op in ("AdjustContrastv2", "AdjustHue", "AdjustSaturation"):
        adjust(rec, op)
        emit(op)
    extract_image_patches(rec)
    emit("ExtractImagePatches")
    max_pool_with_argmax(rec)
    emit("MaxPoolWithArgmax")
    dilation2d(rec)
    emit("Dilation2D")
    scale_and_translate(rec)
    emit("ScaleAndTranslate")
