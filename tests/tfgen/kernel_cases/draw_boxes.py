"""DrawBoundingBoxes and DrawBoundingBoxesV2 (float and half images, as TensorFlow 2.21 registers
them): grey, RGB and RGBA images with boxes inside, clipped at each edge, inverted, wholly outside,
degenerate (one row or column), NaN, more boxes than colours; V2 with its own colours (more
channels than the image, no rows for the default table); TensorFlow's error texts."""
import numpy as np
import tensorflow as tf

from kernel_cases.core import ph, rand

BOXES = [[0.1, 0.2, 0.8, 0.7], [-0.3, -0.2, 0.5, 0.4], [0.5, 0.6, 1.4, 1.2],
         [0.7, 0.1, 0.2, 0.9], [1.2, 0.1, 1.5, 0.9], [0.4, 0.4, 0.4, 0.9],
         [0.0, 0.0, 1.0, 1.0], [0.25, 0.3, 0.26, 0.31], [-1.0, -1.0, -0.5, 2.0],
         [0.3, 0.3, 0.6, 0.6], [0.1, 0.5, 0.9, 0.55], [0.2, 0.2, 0.3, 0.3]]


def draw(rec, op):
    def gen(dt):
        def c(what, images, boxes, colors=None, error=None, phrases=()):
            def build():
                kw = {"images": ph("images", images, dt),
                      "boxes": ph("boxes", np.asarray(boxes, np.float32)), "name": "out"}
                if op == "DrawBoundingBoxesV2":
                    kw["colors"] = ph("colors", np.asarray(colors, np.float32))
                return getattr(tf.raw_ops, op)(**kw)
            rec.case(op, dt, what, build, error=error, phrases=phrases)
        v2 = op == "DrawBoundingBoxesV2"
        palette = rand("float32", [3, 5], "%s/palette" % op)
        no_rows = np.zeros([0, 4], np.float32)
        for depth in (1, 3, 4):
            img = rand(dt, [2, 9, 11, depth], "%s/%s/%d" % (op, dt, depth))
            boxes = np.asarray([BOXES[:6], BOXES[6:]], np.float32)
            c("depth%d" % depth, img, boxes, palette if v2 else None)
            if v2:
                c("depth%d_default_colors" % depth, img, boxes, no_rows)
        img = rand(dt, [1, 6, 7, 3], "%s/%s/small" % (op, dt))
        c("all_boxes_cycle_colors", img, [BOXES], palette if v2 else None)
        c("nan_box", img, [[[np.nan, 0.1, 0.5, 0.5], [0.1, 0.1, np.nan, 0.9]]],
          palette if v2 else None)
        c("no_boxes", img, np.zeros([1, 0, 4]), palette if v2 else None)
        c("one_pixel_image", rand(dt, [1, 1, 1, 4], "%s/%s/one" % (op, dt)), [BOXES[:3]],
          palette if v2 else None)
        c("images_rank_error", img[0], [BOXES[:2]], palette if v2 else None,
          error="INVALID_ARGUMENT", phrases=["The rank of the images should be 4"])
        c("boxes_rank_error", img, BOXES[:2], palette if v2 else None,
          error="INVALID_ARGUMENT", phrases=["The rank of the boxes tensor should be 3"])
        c("batch_error", img, [BOXES[:2], BOXES[2:4]], palette if v2 else None,
          error="INVALID_ARGUMENT", phrases=["The batch sizes should be the same"])
        c("depth_error", rand(dt, [1, 4, 4, 2], "%s/%s/d2" % (op, dt)), [BOXES[:2]],
          palette if v2 else None, error="INVALID_ARGUMENT",
          phrases=["Channel depth should be either 1 (GRY), 3 (RGB), or 4 (RGBA)"])
        c("box_size_error", img, np.zeros([1, 2, 5]), palette if v2 else None,
          error="INVALID_ARGUMENT",
          phrases=["The size of the third dimension of the box must be 4. Received: 5"])
        if v2:
            c("colors_rank_error", img, [BOXES[:2]], [1.0, 0.0, 0.0, 1.0],
              error="INVALID_ARGUMENT", phrases=["colors must be a 2-D matrix[4]"])
            c("colors_channels_error", img, [BOXES[:2]], [[1.0, 0.0], [0.0, 1.0]],
              error="INVALID_ARGUMENT",
              phrases=["colors must have equal or more channels than the image provided: [2,2]"])
    rec.for_dtypes(op, ["float32", "half"], gen)


def build_all(rec, emit):
    for op in ("DrawBoundingBoxes", "DrawBoundingBoxesV2"):
        draw(rec, op)
        emit(op)
