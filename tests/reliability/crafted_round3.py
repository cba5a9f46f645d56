#!/usr/bin/env python3
"""Crafted-input campaign, round 3 (issue 26): values a hostile or careless user feeds.

Generates text GraphDefs (no TensorFlow needed) and runs each through session_runner under
`ulimit -v 8000000` and `timeout 40`, recording how it ended: a signal (crash), the timeout
(hang), exit 0 where an error was due, an error without a `Code: message` line, or a clean
result. The ground is what earlier rounds did not cover (docs/build.md, "Crafted-input
campaign"): NaN, inf and huge floats that become indices or sizes (casts, histograms, crop
boxes, resize scales, NMS, colour-space sectors, quantization ranges), int64 extremes in size
and index arithmetic (segment counts, bincount sizes, diagonals, scatter shapes, sparse shapes,
shifts, rolls, unravel), empty tensors and huge dims beside a zero dim, rank-0 inputs where a
vector or matrix is due, Const tensors whose content disagrees with their shape, type attrs with
invalid codes on ops whose output dtype comes from an attr, iterative special functions and
samplers with non-finite parameters, functions and While/If with wrong signatures, and
ConfigProto extremes.

    python3 tests/reliability/crafted_round3.py RUNNER [--only=SUBSTR] [--out=DIR] [--c_api=LIB]

RUNNER is a built session_runner; `--c_api=LIB` (bazel-bin/c/libtensorflow.so.2) also runs C API
misuse programs through ctypes, each in its own process; `--out` keeps each case's GraphDef
(DIR/cases/NAME.pbtxt) and a results.tsv of every case (outcome, exit status, last stderr line, stdout). Prints one line per case that did not end
cleanly and a count per category; exits 1 when any case crashed, hung or lacked a message.
"""

import os
import shutil
import struct
import subprocess
import sys
import tempfile

INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)
INT32_MAX = 2**31 - 1
INT32_MIN = -(2**31)
NAN = float("nan")
INF = float("inf")

# ---------------------------------------------------------------------------------------------
# A small text-format GraphDef writer.

DT = {
    "float": 1, "double": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6, "string": 7,
    "complex64": 8, "int64": 9, "bool": 10, "bfloat16": 14, "uint16": 17, "complex128": 18,
    "half": 19, "resource": 20, "variant": 21, "uint32": 22, "uint64": 23,
}
VAL_FIELD = {
    "float": "float_val", "double": "double_val", "int32": "int_val", "uint8": "int_val",
    "int16": "int_val", "int8": "int_val", "uint16": "int_val", "int64": "int64_val",
    "bool": "bool_val", "string": "string_val", "uint32": "uint32_val", "uint64": "uint64_val",
    "half": "half_val", "bfloat16": "half_val", "complex64": "scomplex_val",
    "complex128": "dcomplex_val",
}


def esc(b):
    if isinstance(b, str):
        b = b.encode()
    return '"' + "".join(chr(c) if 32 <= c < 127 and c not in (34, 92) else "\\%03o" % c
                         for c in b) + '"'


def num(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        if v != v:
            return "nan"
        if v in (INF, -INF):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    return str(v)


def shape_text(dims):
    if dims is None:
        return "unknown_rank: true"
    return " ".join("dim { size: %d }" % d for d in dims)


def tensor_text(dtype, shape, vals=None, content=None):
    code = DT[dtype] if isinstance(dtype, str) else dtype
    t = "dtype: %d tensor_shape { %s }" % (code, shape_text(shape))
    if content is not None:
        t += " tensor_content: " + esc(content)
    elif vals is not None:
        field = VAL_FIELD[dtype]
        for v in vals:
            if dtype == "string":
                t += " string_val: " + esc(v)
            elif field in ("scomplex_val", "dcomplex_val"):
                t += " %s: %s %s: %s" % (field, num(v.real), field, num(v.imag))
            else:
                t += " %s: %s" % (field, num(v))
    return t


def ty(dtype):
    return "type: %d" % (DT[dtype] if isinstance(dtype, str) else dtype)


def i(v):
    return "i: %d" % v


def f(v):
    return "f: " + num(float(v))


def b(v):
    return "b: " + num(bool(v))


def s(v):
    return "s: " + esc(v)


def shp(dims):
    return "shape { %s }" % shape_text(dims)


def li(vals):
    return "list { %s }" % " ".join("i: %d" % v for v in vals)


def lf(vals):
    return "list { %s }" % " ".join("f: %s" % num(float(v)) for v in vals)


def ltype(vals):
    return "list { %s }" % " ".join(
        "type: %d" % (DT[v] if isinstance(v, str) else v) for v in vals)


def lshape(shapes):
    return "list { %s }" % " ".join("shape { %s }" % shape_text(d) for d in shapes)


def fn(name, **attrs):
    return "func { name: %s %s }" % (esc(name), " ".join(
        "attr { key: %s value { %s } }" % (esc(k), v) for k, v in attrs.items()))


class G:
    """Nodes of one GraphDef, plus the function library's text."""

    def __init__(self):
        self.nodes = []
        self.library = ""

    def node(self, name, op, inputs=(), device=None, **attrs):
        t = "node { name: %s op: %s" % (esc(name), esc(op))
        for x in inputs:
            t += " input: " + esc(x)
        if device:
            t += " device: " + esc(device)
        for k, v in attrs.items():
            t += " attr { key: %s value { %s } }" % (esc(k), v)
        self.nodes.append(t + " }")
        return name

    def const(self, name, dtype, shape, vals=None, content=None):
        return self.node(name, "Const", dtype=ty(dtype),
                         value="tensor { %s }" % tensor_text(dtype, shape, vals, content))

    def text(self):
        return "\n".join(self.nodes) + ("\nlibrary { %s }" % self.library if self.library else "")


def c(g, name, dtype, vals, shape=None):
    """A Const of `vals` (a flat list) shaped `shape` (default: a vector, or a scalar for one)."""
    if shape is None:
        shape = [] if not isinstance(vals, list) else [len(vals)]
    if not isinstance(vals, list):
        vals = [vals]
    return g.const(name, dtype, shape, vals)


# ---------------------------------------------------------------------------------------------
# The cases. Each is (category, name, graph text, fetches, extra session_runner args).

CASES = []


def case(cat, name, g, fetch, args=(), config=None):
    CASES.append((cat, name, g.text(), fetch if isinstance(fetch, list) else [fetch],
                  list(args), config))


def unary(cat, name, op, dtype, vals, shape=None, **attrs):
    g = G()
    c(g, "x", dtype, vals, shape)
    g.node("y", op, ["x"], **attrs)
    case(cat, name, g, "y")


def binary(cat, name, op, dtype, xv, yv, tattr="T", **attrs):
    g = G()
    c(g, "x", dtype, xv)
    c(g, "z", dtype, yv)
    if tattr:
        attrs[tattr] = ty(dtype)
    g.node("y", op, ["x", "z"], **attrs)
    case(cat, name, g, "y")


FLOATS = [NAN, INF, -INF, 1e30, -1e30, 3e9, -3e9, 0.5, -0.0]


def gen_nonfinite_to_int():
    cat = "nonfinite_to_index"
    for src in ("float", "double", "half", "bfloat16"):
        vals = FLOATS if src not in ("half", "bfloat16") else [0x7e00, 0x7c00, 0xfc00, 0x7bff]
        if src == "bfloat16":
            vals = [0x7fc0, 0x7f80, 0xff80, 0x7f7f]
        for dst in ("int32", "int64", "uint8", "int8", "int16", "uint16", "uint32", "uint64",
                    "bool", "half", "bfloat16", "complex64"):
            unary(cat, "cast_%s_to_%s" % (src, dst), "Cast", src, vals, SrcT=ty(src), DstT=ty(dst))
    for dst in ("int32", "int64", "uint8", "float", "half"):
        unary(cat, "cast_int64_extremes_to_%s" % dst, "Cast", "int64",
              [INT64_MAX, INT64_MIN, 2**31, -1], SrcT=ty("int64"), DstT=ty(dst))
    unary(cat, "cast_truncate", "Cast", "float", FLOATS, SrcT=ty("float"), DstT=ty("int32"),
          Truncate=b(True))
    # HistogramFixedWidth: index = (v - lo) / (hi - lo) * nbins.
    for label, vals, rng, nbins in [
            ("nan_values", [NAN, INF, -INF, 1.0], [0.0, 5.0], 5),
            ("nan_range", [1.0, 2.0], [NAN, 5.0], 5),
            ("inf_range", [1.0, 2.0], [-INF, INF], 5),
            ("empty_range", [1.0, 2.0], [1.0, 1.0], 5),
            ("reversed_range", [1.0, 2.0], [5.0, 0.0], 5),
            ("huge_values", [1e30, -1e30, 3e38], [0.0, 1e-30], 3),
            ("zero_bins", [1.0], [0.0, 5.0], 0),
            ("negative_bins", [1.0], [0.0, 5.0], -3),
            ("huge_bins", [1.0], [0.0, 5.0], 2**40),
    ]:
        for dt in ("float", "double"):
            g = G()
            c(g, "v", dt, vals)
            c(g, "r", dt, rng)
            c(g, "n", "int32" if abs(nbins) < 2**31 else "int64", nbins)
            g.node("y", "HistogramFixedWidth", ["v", "r", "n"], T=ty(dt), dtype=ty("int32"))
            case(cat, "histogram_%s_%s" % (label, dt), g, "y")
    g = G()
    c(g, "v", "int32", [INT32_MAX, INT32_MIN, 0])
    c(g, "r", "int32", [INT32_MIN, INT32_MAX])
    c(g, "n", "int32", 4)
    g.node("y", "HistogramFixedWidth", ["v", "r", "n"], T=ty("int32"), dtype=ty("int32"))
    case(cat, "histogram_int32_full_range", g, "y")
    g = G()
    c(g, "v", "int64", [INT64_MAX, INT64_MIN, 0])
    c(g, "r", "int64", [INT64_MIN, INT64_MAX])
    c(g, "n", "int32", 4)
    g.node("y", "HistogramFixedWidth", ["v", "r", "n"], T=ty("int64"), dtype=ty("int32"))
    case(cat, "histogram_int64_full_range", g, "y")
    # Bucketize with NaN input and NaN/unsorted boundaries.
    unary(cat, "bucketize_nan", "Bucketize", "float", FLOATS, T=ty("float"),
          boundaries=lf([0, 1, 2]))
    unary(cat, "bucketize_nan_boundaries", "Bucketize", "float", [1.0, 2.0], T=ty("float"),
          boundaries=lf([NAN, 1, 0]))
    unary(cat, "bucketize_unsorted", "Bucketize", "int32", [1, 2], T=ty("int32"),
          boundaries=lf([3, 1, 2]))
    # CropAndResize with non-finite and huge boxes.
    for label, box in [("nan", [NAN, 0, 1, 1]), ("inf", [-INF, -INF, INF, INF]),
                       ("huge", [-1e30, -1e30, 1e30, 1e30]), ("big", [0, 0, 3e9, 3e9]),
                       ("neg", [-3e9, -3e9, 0, 0])]:
        for method in ("bilinear", "nearest"):
            g = G()
            g.const("img", "float", [1, 4, 4, 1], [float(k) for k in range(16)])
            g.const("boxes", "float", [1, 4], [float(v) for v in box])
            c(g, "ind", "int32", [0])
            c(g, "size", "int32", [3, 3])
            g.node("y", "CropAndResize", ["img", "boxes", "ind", "size"], T=ty("float"),
                   method=s(method), extrapolation_value=f(NAN if label == "big" else 0))
            case(cat, "crop_and_resize_%s_%s" % (label, method), g, "y")
    for label, img_shape, box, ind, size in [
            ("box_index_out_of_range", [1, 4, 4, 1], [0, 0, 1, 1], [5], [2, 2]),
            ("box_index_negative", [1, 4, 4, 1], [0, 0, 1, 1], [-1], [2, 2]),
            ("crop_size_zero", [1, 4, 4, 1], [0, 0, 1, 1], [0], [0, 2]),
            ("crop_size_negative", [1, 4, 4, 1], [0, 0, 1, 1], [0], [-2, 2]),
            ("crop_size_huge", [1, 4, 4, 1], [0, 0, 1, 1], [0], [INT32_MAX, INT32_MAX]),
            ("empty_image", [1, 0, 4, 1], [0, 0, 1, 1], [0], [2, 2]),
            ("empty_batch", [0, 4, 4, 1], [0, 0, 1, 1], [0], [2, 2])]:
        g = G()
        n = 1
        for d in img_shape:
            n *= d
        g.const("img", "float", img_shape, [1.0] * n if n else None)
        g.const("boxes", "float", [1, 4], [float(v) for v in box])
        c(g, "ind", "int32", ind)
        c(g, "size", "int32", size)
        g.node("y", "CropAndResize", ["img", "boxes", "ind", "size"], T=ty("float"))
        case(cat, "crop_and_resize_" + label, g, "y")
    # Crop-and-resize gradients with non-finite boxes.
    for label, box in [("nan", [NAN, 0, 1, 1]), ("huge", [-1e30, -1e30, 1e30, 1e30])]:
        g = G()
        g.const("grads", "float", [1, 2, 2, 1], [1.0] * 4)
        g.const("boxes", "float", [1, 4], box)
        c(g, "ind", "int32", [0])
        c(g, "isize", "int32", [1, 4, 4, 1])
        g.node("y", "CropAndResizeGradImage", ["grads", "boxes", "ind", "isize"], T=ty("float"))
        case(cat, "crop_and_resize_grad_image_" + label, g, "y")
        g = G()
        g.const("grads", "float", [1, 2, 2, 1], [1.0] * 4)
        g.const("img", "float", [1, 4, 4, 1], [1.0] * 16)
        g.const("boxes", "float", [1, 4], box)
        c(g, "ind", "int32", [0])
        g.node("y", "CropAndResizeGradBoxes", ["grads", "img", "boxes", "ind"], T=ty("float"))
        case(cat, "crop_and_resize_grad_boxes_" + label, g, "y")
    # ScaleAndTranslate: spans from the scale and translation.
    for label, scale, trans in [("nan_scale", [NAN, 1], [0, 0]), ("inf_scale", [INF, 1], [0, 0]),
                                ("zero_scale", [0, 1], [0, 0]), ("neg_scale", [-1, 1], [0, 0]),
                                ("tiny_scale", [1e-30, 1], [0, 0]),
                                ("nan_translate", [1, 1], [NAN, 0]),
                                ("huge_translate", [1, 1], [1e30, -1e30]),
                                ("inf_translate", [1, 1], [INF, -INF])]:
        for kernel in ("lanczos3", "triangle", "box"):
            g = G()
            g.const("img", "float", [1, 4, 4, 1], [float(k) for k in range(16)])
            c(g, "size", "int32", [3, 3])
            c(g, "scale", "float", [float(v) for v in scale])
            c(g, "trans", "float", [float(v) for v in trans])
            g.node("y", "ScaleAndTranslate", ["img", "size", "scale", "trans"], T=ty("float"),
                   kernel_type=s(kernel), antialias=b(True))
            case(cat, "scale_and_translate_%s_%s" % (label, kernel), g, "y")
    for label, size in [("zero", [0, 3]), ("neg", [-1, 3]), ("huge", [INT32_MAX, INT32_MAX])]:
        g = G()
        g.const("img", "float", [1, 4, 4, 1], [1.0] * 16)
        c(g, "size", "int32", size)
        c(g, "scale", "float", [1.0, 1.0])
        c(g, "trans", "float", [0.0, 0.0])
        g.node("y", "ScaleAndTranslate", ["img", "size", "scale", "trans"], T=ty("float"))
        case(cat, "scale_and_translate_size_" + label, g, "y")
    g = G()
    g.const("img", "float", [1, 4, 4, 1], [1.0] * 16)
    c(g, "size", "int32", [3, 3])
    c(g, "scale", "float", [1.0, 1.0])
    c(g, "trans", "float", [0.0, 0.0])
    g.node("y", "ScaleAndTranslate", ["img", "size", "scale", "trans"], T=ty("float"),
           kernel_type=s("bogus"))
    case(cat, "scale_and_translate_unknown_kernel", g, "y")
    g = G()
    g.const("grads", "float", [1, 3, 3, 1], [1.0] * 9)
    g.const("img", "float", [1, 4, 4, 1], [1.0] * 16)
    c(g, "scale", "float", [NAN, 1.0])
    c(g, "trans", "float", [1e30, 0.0])
    g.node("y", "ScaleAndTranslateGrad", ["grads", "img", "scale", "trans"], T=ty("float"))
    case(cat, "scale_and_translate_grad_nan", g, "y")
    # NMS with non-finite boxes, scores and thresholds.
    for label, boxes, scores, iou, thr in [
            ("nan_scores", [0, 0, 1, 1, 0, 0, 1, 1], [NAN, 0.5], 0.5, -INF),
            ("inf_scores", [0, 0, 1, 1, 0, 0, 1, 1], [INF, -INF], 0.5, -INF),
            ("nan_boxes", [NAN, 0, 1, 1, 0, NAN, 1, 1], [0.9, 0.5], 0.5, 0.0),
            ("inf_boxes", [-INF, -INF, INF, INF, 0, 0, 1, 1], [0.9, 0.5], 0.5, 0.0),
            ("nan_iou", [0, 0, 1, 1, 0, 0, 1, 1], [0.9, 0.5], NAN, 0.0),
            ("iou_above_one", [0, 0, 1, 1, 0, 0, 1, 1], [0.9, 0.5], 2.0, 0.0),
            ("iou_negative", [0, 0, 1, 1, 0, 0, 1, 1], [0.9, 0.5], -1.0, 0.0),
            ("nan_threshold", [0, 0, 1, 1, 0, 0, 1, 1], [0.9, 0.5], 0.5, NAN)]:
        for op in ("NonMaxSuppressionV3", "NonMaxSuppressionV4", "NonMaxSuppressionV5"):
            g = G()
            g.const("boxes", "float", [2, 4], [float(v) for v in boxes])
            c(g, "scores", "float", scores)
            c(g, "max", "int32", 10)
            c(g, "iou", "float", iou)
            c(g, "thr", "float", thr)
            ins = ["boxes", "scores", "max", "iou", "thr"]
            attrs = {"T": ty("float")}
            if op == "NonMaxSuppressionV5":
                c(g, "sigma", "float", NAN if label == "nan_iou" else 0.5)
                ins.append("sigma")
            if op != "NonMaxSuppressionV3":
                attrs["pad_to_max_output_size"] = b(True)
            g.node("y", op, ins, **attrs)
            case(cat, "nms_%s_%s" % (label, op), g, "y")
    for label, mx, sigma in [("max_negative", -1, 0.0), ("max_huge", INT32_MAX, 0.0),
                             ("sigma_inf", 10, INF), ("sigma_negative", 10, -1.0),
                             ("sigma_tiny", 10, 1e-38)]:
        g = G()
        g.const("boxes", "float", [2, 4], [0.0, 0, 1, 1, 0, 0, 1, 1])
        c(g, "scores", "float", [0.9, 0.5])
        c(g, "max", "int32", mx)
        c(g, "iou", "float", 0.5)
        c(g, "thr", "float", 0.0)
        c(g, "sigma", "float", sigma)
        g.node("y", "NonMaxSuppressionV5", ["boxes", "scores", "max", "iou", "thr", "sigma"],
               T=ty("float"), pad_to_max_output_size=b(True))
        case(cat, "nms_v5_" + label, g, "y")
    for label, per_class, total, scores in [("nan", 2, 4, NAN), ("huge_total", 2, INT32_MAX, 0.5),
                                            ("huge_per_class", INT32_MAX, 4, 0.5),
                                            ("negative", -1, -1, 0.5)]:
        g = G()
        g.const("boxes", "float", [1, 2, 1, 4], [0.0, 0, 1, 1, 0, 0, NAN, 1])
        g.const("scores", "float", [1, 2, 2], [scores, 0.5, 0.4, 0.3])
        c(g, "pc", "int32", per_class)
        c(g, "tot", "int32", total)
        c(g, "iou", "float", 0.5)
        c(g, "thr", "float", 0.0)
        g.node("y", "CombinedNonMaxSuppression", ["boxes", "scores", "pc", "tot", "iou", "thr"],
               pad_per_class=b(True))
        case(cat, "combined_nms_" + label, g, ["y:0", "y:3"])
    # Colour spaces: the hue sector is an index.
    for op in ("HSVToRGB", "RGBToHSV"):
        for dt in ("float", "double"):
            g = G()
            g.const("x", dt, [3, 3], [NAN, 0.5, 0.5, INF, 1, 1, -1e30, 1e30, -INF])
            g.node("y", op, ["x"], T=ty(dt))
            case(cat, "%s_nonfinite_%s" % (op.lower(), dt), g, "y")
    for delta in (NAN, INF, 1e30, -1e30):
        g = G()
        g.const("x", "float", [1, 1, 3], [0.2, 0.5, 0.9])
        c(g, "d", "float", delta)
        g.node("y", "AdjustHue", ["x", "d"], T=ty("float"))
        case(cat, "adjust_hue_%s" % num(delta), g, "y")
        g.nodes[-1] = g.nodes[-1].replace('"AdjustHue"', '"AdjustSaturation"')
        case(cat, "adjust_saturation_%s" % num(delta), g, "y")
        g.nodes[-1] = g.nodes[-1].replace('"AdjustSaturation"', '"AdjustContrastv2"')
        case(cat, "adjust_contrast_%s" % num(delta), g, "y")
    # Quantization with non-finite or degenerate ranges.
    for lo, hi in [(NAN, 1.0), (0.0, INF), (-INF, INF), (1.0, 0.0), (0.0, 0.0), (-1e38, 1e38)]:
        g = G()
        c(g, "x", "float", [0.5, NAN, INF, -1.0])
        c(g, "lo", "float", lo)
        c(g, "hi", "float", hi)
        g.node("y", "FakeQuantWithMinMaxVars", ["x", "lo", "hi"], num_bits=i(8))
        case(cat, "fake_quant_vars_%s_%s" % (num(lo), num(hi)), g, "y")
        g = G()
        c(g, "x", "float", [0.5, NAN, INF, -1.0])
        g.node("y", "FakeQuantWithMinMaxArgs", ["x"], min=f(lo), max=f(hi))
        case(cat, "fake_quant_args_%s_%s" % (num(lo), num(hi)), g, "y")
        for op, extra in (("QuantizeAndDequantizeV2", {}),
                          ("QuantizeAndDequantizeV4", {})):
            g = G()
            c(g, "x", "float", [0.5, NAN, INF, -1.0])
            c(g, "lo", "float", lo)
            c(g, "hi", "float", hi)
            g.node("y", op, ["x", "lo", "hi"], T=ty("float"), range_given=b(True),
                   num_bits=i(8), **extra)
            case(cat, "%s_%s_%s" % (op.lower(), num(lo), num(hi)), g, "y")
    for nb in (0, 1, 63, 64, 100, -1):
        g = G()
        c(g, "x", "float", [0.5, -1.0])
        c(g, "lo", "float", -1.0)
        c(g, "hi", "float", 1.0)
        g.node("y", "QuantizeAndDequantizeV2", ["x", "lo", "hi"], T=ty("float"),
               num_bits=i(nb), range_given=b(True))
        case(cat, "quantize_and_dequantize_bits_%d" % nb, g, "y")
        g = G()
        c(g, "x", "float", [0.5, -1.0])
        c(g, "lo", "float", -1.0)
        c(g, "hi", "float", 1.0)
        g.node("y", "FakeQuantWithMinMaxVars", ["x", "lo", "hi"], num_bits=i(nb))
        case(cat, "fake_quant_bits_%d" % nb, g, "y")
    # Resize with coordinates far outside the image (align_corners + half_pixel_centers).
    for op in ("ResizeBilinear", "ResizeNearestNeighbor", "ResizeBicubic", "ResizeArea"):
        for label, shape, size, ac, hp in [
                ("both_modes", [1, 2, 2, 1], [3, 3], True, True),
                ("to_one", [1, 5, 5, 1], [1, 1], True, False),
                ("from_one_half_pixel", [1, 1, 1, 1], [4, 4], False, True),
                ("empty_channels", [1, 2, 2, 0], [3, 3], False, False),
                ("huge_upscale", [1, 1, 1, 1], [1 << 16, 1 << 16], False, True),
                ("int32_max", [1, 2, 2, 1], [INT32_MAX, 1], False, False)]:
            g = G()
            n = 1
            for d in shape:
                n *= d
            g.const("x", "float", shape, [1.0] * n if n else None)
            c(g, "size", "int32", size)
            g.node("y", op, ["x", "size"], T=ty("float"), align_corners=b(ac),
                   half_pixel_centers=b(hp))
            case(cat, "%s_%s" % (op.lower(), label), g, "y")
    for op in ("ResizeBilinearGrad", "ResizeNearestNeighborGrad", "ResizeBicubicGrad"):
        g = G()
        g.const("grads", "float", [1, 3, 3, 1], [1.0] * 9)
        if op == "ResizeNearestNeighborGrad":
            c(g, "orig", "int32", [INT32_MAX, INT32_MAX])
        else:
            g.const("orig", "float", [1, 0, 5, 1])
        g.node("y", op, ["grads", "orig"], T=ty("float"), align_corners=b(False),
               half_pixel_centers=b(True))
        case(cat, op.lower() + "_degenerate_original", g, "y")


def gen_int_extremes():
    cat = "int_extremes"
    # Division and modulus of the most negative integer by -1, and by zero.
    for dt, mn in (("int32", INT32_MIN), ("int64", INT64_MIN), ("int8", -128), ("int16", -32768)):
        for op in ("Div", "FloorDiv", "TruncateDiv", "Mod", "FloorMod", "TruncateMod",
                   "DivNoNan", "RealDiv"):
            binary(cat, "%s_min_by_minus_one_%s" % (op.lower(), dt), op, dt, [mn, mn, 7],
                   [-1, 1, -1])
            binary(cat, "%s_min_by_minus_one_scalar_%s" % (op.lower(), dt), op, dt, [mn, 5],
                   -1)
        for op in ("Abs", "Neg", "Sign", "Square", "Reciprocal", "Inv"):
            unary(cat, "%s_of_min_%s" % (op.lower(), dt), op, dt, [mn, -1, 0], T=ty(dt))
        binary(cat, "pow_negative_exponent_" + dt, "Pow", dt, [2, 3], [-1, -2])
        binary(cat, "pow_huge_exponent_" + dt, "Pow", dt, [3, -1], [2**30, 2**30 + 1])
    # Shifts by the width and more, by negative amounts.
    for dt, bits in (("int8", 8), ("int32", 32), ("int64", 64), ("uint8", 8), ("uint32", 32),
                     ("uint64", 64), ("int16", 16), ("uint16", 16)):
        lo = -5 if not dt.startswith("u") else 0
        for op in ("LeftShift", "RightShift"):
            binary(cat, "%s_%s" % (op.lower(), dt), op, dt, [1, 1, 1, 1, lo and -8 or 8],
                   [bits, bits + 1, 1000 if bits > 8 else 100, lo, bits - 1])
    # Roll by INT64_MIN, Cumsum and Cumprod of the extremes, ReverseSequence's lengths.
    for shift in (INT64_MIN, INT64_MAX, -1, 2**40):
        g = G()
        c(g, "x", "float", [1.0, 2, 3, 4, 5])
        c(g, "shift", "int64", [shift])
        c(g, "axis", "int64", [0])
        g.node("y", "Roll", ["x", "shift", "axis"], T=ty("float"), Tshift=ty("int64"),
               Taxis=ty("int64"))
        case(cat, "roll_shift_%d" % shift, g, "y")
    for axis in (INT64_MIN, INT64_MAX, 1, -2):
        g = G()
        c(g, "x", "float", [1.0, 2, 3, 4, 5])
        c(g, "shift", "int64", [1])
        c(g, "axis", "int64", [axis])
        g.node("y", "Roll", ["x", "shift", "axis"], T=ty("float"), Tshift=ty("int64"),
               Taxis=ty("int64"))
        case(cat, "roll_axis_%d" % axis, g, "y")
    for op in ("Cumsum", "Cumprod", "CumulativeLogsumexp"):
        for axis in (INT32_MIN, INT32_MAX, 1, -2):
            g = G()
            c(g, "x", "float", [1.0, 2, 3])
            c(g, "axis", "int32", axis)
            g.node("y", op, ["x", "axis"], T=ty("float"), Tidx=ty("int32"))
            case(cat, "%s_axis_%d" % (op.lower(), axis), g, "y")
    for lens in ([INT64_MAX, 1], [-1, 1], [INT64_MIN, 0], [4, 0]):
        g = G()
        g.const("x", "float", [2, 3], [1.0] * 6)
        c(g, "lens", "int64", lens)
        g.node("y", "ReverseSequence", ["x", "lens"], T=ty("float"), Tlen=ty("int64"),
               seq_dim=i(1), batch_dim=i(0))
        case(cat, "reverse_sequence_%d" % lens[0], g, "y")
    for sd, bd in ((0, 0), (5, 0), (1, -1), (INT32_MAX, 0)):
        g = G()
        g.const("x", "float", [2, 3], [1.0] * 6)
        c(g, "lens", "int64", [1, 1])
        g.node("y", "ReverseSequence", ["x", "lens"], T=ty("float"), Tlen=ty("int64"),
               seq_dim=i(sd), batch_dim=i(bd))
        case(cat, "reverse_sequence_dims_%d_%d" % (sd, bd), g, "y")
    # UnravelIndex with zero, negative and overflowing dims.
    for label, idx, dims in [("zero_dim", [0], [0, 3]), ("negative_dim", [1], [-2, 3]),
                             ("overflow", [5], [2**32, 2**32, 2**32]),
                             ("negative_index", [-1], [2, 3]), ("index_past", [6], [2, 3]),
                             ("min_index", [INT64_MIN], [2, 3]), ("empty_dims", [0], [])]:
        g = G()
        c(g, "idx", "int64", idx)
        c(g, "dims", "int64", dims)
        g.node("y", "UnravelIndex", ["idx", "dims"], Tidx=ty("int64"))
        case(cat, "unravel_index_" + label, g, "y")
    # InvertPermutation, Transpose perms.
    for label, p in [("dup", [0, 0, 1]), ("huge", [0, INT32_MAX, 1]), ("neg", [0, -1, 1]),
                     ("min", [INT32_MIN, 1, 2])]:
        unary(cat, "invert_permutation_" + label, "InvertPermutation", "int32", p, T=ty("int32"))
        g = G()
        g.const("x", "float", [1, 2, 3], [1.0] * 6)
        c(g, "p", "int32", p)
        g.node("y", "Transpose", ["x", "p"], T=ty("float"), Tperm=ty("int32"))
        case(cat, "transpose_perm_" + label, g, "y")
    # Diagonals: k, num_rows, num_cols and padding at the extremes.
    for label, k, rows, cols in [("k_min", [INT32_MIN], -1, -1), ("k_max", [INT32_MAX], -1, -1),
                                 ("k_range_reversed", [1, -1], -1, -1),
                                 ("k_range_wide", [-100000, 100000], -1, -1),
                                 ("rows_huge", [0], INT32_MAX, INT32_MAX),
                                 ("rows_negative", [0], -5, 3), ("rows_small", [0], 1, 1),
                                 ("k_three", [0, 1, 2], -1, -1)]:
        g = G()
        c(g, "d", "float", [1.0, 2.0])
        c(g, "k", "int32", k)
        c(g, "rows", "int32", rows)
        c(g, "cols", "int32", cols)
        c(g, "pad", "float", NAN)
        g.node("y", "MatrixDiagV3", ["d", "k", "rows", "cols", "pad"], T=ty("float"))
        case(cat, "matrix_diag_v3_" + label, g, "y")
        if rows == -1:
            g = G()
            g.const("m", "float", [3, 3], [float(v) for v in range(9)])
            c(g, "k", "int32", k)
            c(g, "pad", "float", 0.0)
            g.node("y", "MatrixDiagPartV3", ["m", "k", "pad"], T=ty("float"))
            case(cat, "matrix_diag_part_v3_" + label, g, "y")
            g = G()
            g.const("m", "float", [3, 3], [float(v) for v in range(9)])
            g.const("d", "float", [3], [1.0, 2.0, 3.0])
            c(g, "k", "int32", k)
            g.node("y", "MatrixSetDiagV3", ["m", "d", "k"], T=ty("float"))
            case(cat, "matrix_set_diag_v3_" + label, g, "y")
    for lo, hi in ((INT64_MIN, INT64_MIN), (INT64_MAX, INT64_MAX), (-5, 2**40)):
        g = G()
        g.const("m", "float", [3, 3], [float(v) for v in range(9)])
        c(g, "lo", "int64", lo)
        c(g, "hi", "int64", hi)
        g.node("y", "MatrixBandPart", ["m", "lo", "hi"], T=ty("float"), Tindex=ty("int64"))
        case(cat, "matrix_band_part_%d_%d" % (lo, hi), g, "y")
    # Sizes from values: segments, bincounts, scatter and sparse shapes, one-hot depth.
    for ns in (2**40, INT64_MAX, -1, 0, INT32_MAX):
        for op in ("UnsortedSegmentSum", "UnsortedSegmentMax", "UnsortedSegmentProd"):
            g = G()
            c(g, "data", "float", [1.0, 2.0])
            c(g, "ids", "int64", [0, 1])
            c(g, "n", "int64", ns)
            g.node("y", op, ["data", "ids", "n"], T=ty("float"), Tindices=ty("int64"),
                   Tnumsegments=ty("int64"))
            case(cat, "%s_num_segments_%d" % (op.lower(), ns), g, "y")
        g = G()
        c(g, "data", "string", ["a", "b"])
        c(g, "ids", "int64", [0, 1])
        c(g, "n", "int64", ns)
        g.node("y", "UnsortedSegmentJoin", ["data", "ids", "n"], Tindices=ty("int64"),
               Tnumsegments=ty("int64"), separator=s(","))
        case(cat, "unsorted_segment_join_num_segments_%d" % ns, g, "y")
    for ids in ([0, INT64_MAX], [0, 2**40], [-1, 0], [1, 0], [INT64_MIN, 0]):
        for op in ("SegmentSum", "SegmentMax", "SegmentMean"):
            g = G()
            c(g, "data", "float", [1.0, 2.0])
            c(g, "ids", "int64", ids)
            g.node("y", op, ["data", "ids"], T=ty("float"), Tindices=ty("int64"))
            case(cat, "%s_ids_%d_%d" % (op.lower(), ids[0], ids[1]), g, "y")
        for op in ("SparseSegmentSum", "SparseSegmentMean", "SparseSegmentSqrtN"):
            g = G()
            c(g, "data", "float", [1.0, 2.0])
            c(g, "idx", "int64", [0, 1])
            c(g, "ids", "int64", ids)
            g.node("y", op, ["data", "idx", "ids"], T=ty("float"), Tidx=ty("int64"),
                   Tsegmentids=ty("int64"))
            case(cat, "%s_ids_%d_%d" % (op.lower(), ids[0], ids[1]), g, "y")
        g = G()
        c(g, "data", "float", [1.0, 2.0])
        c(g, "idx", "int64", ids)
        c(g, "ids", "int64", [0, 0])
        g.node("y", "SparseSegmentSum", ["data", "idx", "ids"], T=ty("float"), Tidx=ty("int64"),
               Tsegmentids=ty("int64"))
        case(cat, "sparse_segment_sum_indices_%d_%d" % (ids[0], ids[1]), g, "y")
    for size in (2**31, INT32_MAX, -1, 0, 2**30):
        g = G()
        c(g, "arr", "int32", [0, 1, 1])
        c(g, "size", "int32", size if size < 2**31 else INT32_MIN)
        g.const("w", "float", [0])
        g.node("y", "Bincount", ["arr", "size", "w"], T=ty("float"))
        case(cat, "bincount_size_%d" % size, g, "y")
        g = G()
        c(g, "arr", "int64", [0, 1, 1])
        c(g, "size", "int64", size)
        g.const("w", "float", [0])
        g.node("y", "DenseBincount", ["arr", "size", "w"], T=ty("float"), Tidx=ty("int64"),
               binary_output=b(False))
        case(cat, "dense_bincount_size_%d" % size, g, "y")
    for arr in ([-1, 2], [INT32_MIN], [INT32_MAX]):
        g = G()
        c(g, "arr", "int32", arr)
        c(g, "size", "int32", 4)
        g.const("w", "float", [0])
        g.node("y", "Bincount", ["arr", "size", "w"], T=ty("float"))
        case(cat, "bincount_arr_%d" % arr[0], g, "y")
    g = G()
    c(g, "arr", "int32", [0, 1, 1])
    c(g, "size", "int32", 4)
    c(g, "w", "float", [1.0, 2.0])
    g.node("y", "Bincount", ["arr", "size", "w"], T=ty("float"))
    case(cat, "bincount_weights_mismatch", g, "y")
    g = G()
    g.const("arr", "int32", [2, 2], [0, 1, 1, 3])
    c(g, "size", "int32", 4)
    g.const("w", "float", [3, 1], [1.0, 2.0, 3.0])
    g.node("y", "DenseBincount", ["arr", "size", "w"], T=ty("float"), Tidx=ty("int32"))
    case(cat, "dense_bincount_2d_weights_mismatch", g, "y")
    for label, shape in [("overflow", [2**32, 2**32, 2**32]), ("negative", [-1, 3]),
                         ("zero_and_huge", [0, INT64_MAX]), ("huge", [2**40])]:
        g = G()
        g.const("idx", "int64", [1, 1], [0])
        c(g, "upd", "float", [1.0])
        c(g, "shape", "int64", shape)
        g.node("y", "ScatterNd", ["idx", "upd", "shape"], T=ty("float"), Tindices=ty("int64"))
        case(cat, "scatter_nd_shape_" + label, g, "y")
        g = G()
        g.const("idx", "int64", [1, 1], [0])
        c(g, "oshape", "int64", shape)
        c(g, "vals", "float", [1.0])
        c(g, "dflt", "float", 0.0)
        g.node("y", "SparseToDense", ["idx", "oshape", "vals", "dflt"], T=ty("float"),
               Tindices=ty("int64"))
        case(cat, "sparse_to_dense_shape_" + label, g, "y")
        g = G()
        g.const("idx", "int64", [1, len(shape)], [0] * len(shape))
        c(g, "ishape", "int64", shape)
        c(g, "nshape", "int64", [-1])
        g.node("y", "SparseReshape", ["idx", "ishape", "nshape"])
        case(cat, "sparse_reshape_from_" + label, g, ["y:0", "y:1"])
        g = G()
        g.const("idx", "int64", [1, len(shape)], [0] * len(shape))
        c(g, "vals", "float", [1.0])
        c(g, "ishape", "int64", shape)
        g.node("y", "SparseReorder", ["idx", "vals", "ishape"], T=ty("float"))
        case(cat, "sparse_reorder_" + label, g, ["y:0", "y:1"])
    for label, new in [("two_unknown", [-1, -1]), ("min", [INT64_MIN, 2]),
                       ("overflow", [2**62, 4]), ("zero_unknown", [0, -1])]:
        g = G()
        g.const("idx", "int64", [1, 2], [0, 0])
        c(g, "ishape", "int64", [2, 3])
        c(g, "nshape", "int64", new)
        g.node("y", "SparseReshape", ["idx", "ishape", "nshape"])
        case(cat, "sparse_reshape_to_" + label, g, ["y:0", "y:1"])
    for label, idx in [("past", [5, 0]), ("negative", [-1, 0]), ("min", [INT64_MIN, 0])]:
        g = G()
        g.const("idx", "int64", [1, 2], idx)
        c(g, "vals", "float", [1.0])
        c(g, "shape", "int64", [2, 2])
        g.const("b", "float", [2, 2], [1.0] * 4)
        g.node("y", "SparseTensorDenseMatMul", ["idx", "vals", "shape", "b"], T=ty("float"),
               Tindices=ty("int64"))
        case(cat, "sparse_dense_matmul_index_" + label, g, "y")
        g = G()
        g.const("idx", "int64", [1, 2], idx)
        c(g, "vals", "float", [1.0])
        c(g, "shape", "int64", [2, 2])
        c(g, "axes", "int32", [1])
        g.node("y", "SparseReduceSum", ["idx", "vals", "shape", "axes"], T=ty("float"))
        case(cat, "sparse_reduce_sum_index_" + label, g, "y")
        g = G()
        g.const("idx", "int64", [1, 2], idx)
        c(g, "vals", "float", [1.0])
        c(g, "shape", "int64", [2, 2])
        c(g, "dflt", "float", 0.0)
        g.node("y", "SparseFillEmptyRows", ["idx", "vals", "shape", "dflt"], T=ty("float"))
        case(cat, "sparse_fill_empty_rows_index_" + label, g, ["y:0", "y:1", "y:2", "y:3"])
    for label, thresh in [("nan", NAN), ("inf", INF), ("negative", -1.0)]:
        g = G()
        g.const("ai", "int64", [1, 1], [0])
        c(g, "av", "float", [1.0])
        c(g, "ash", "int64", [3])
        g.const("bi", "int64", [1, 1], [0])
        c(g, "bv", "float", [-1.0])
        c(g, "bsh", "int64", [3])
        c(g, "th", "float", thresh)
        g.node("y", "SparseAdd", ["ai", "av", "ash", "bi", "bv", "bsh", "th"], T=ty("float"),
               Treal=ty("float"))
        case(cat, "sparse_add_thresh_" + label, g, ["y:0", "y:1", "y:2"])
    g = G()
    g.const("ai", "int64", [1, 1], [0])
    c(g, "av", "float", [1.0])
    c(g, "ash", "int64", [3])
    g.const("bi", "int64", [1, 2], [0, 0])
    c(g, "bv", "float", [-1.0])
    c(g, "bsh", "int64", [3, 3])
    c(g, "th", "float", 0.0)
    g.node("y", "SparseAdd", ["ai", "av", "ash", "bi", "bv", "bsh", "th"], T=ty("float"),
           Treal=ty("float"))
    case(cat, "sparse_add_rank_mismatch", g, ["y:0", "y:1", "y:2"])
    for depth in (2**31 - 1, -1, 0, 2**30):
        for axis in (-1, 0, -2, 5):
            g = G()
            c(g, "idx", "int32", [0, 1])
            c(g, "depth", "int32", depth)
            c(g, "on", "float", 1.0)
            c(g, "off", "float", 0.0)
            g.node("y", "OneHot", ["idx", "depth", "on", "off"], T=ty("float"), TI=ty("int32"),
                   axis=i(axis))
            case(cat, "one_hot_depth_%d_axis_%d" % (depth, axis), g, "y")
    # LinSpace and Multinomial counts; TopK, NthElement and InTopK's k.
    for n in (0, -1, INT32_MAX, 2**40, 1):
        for start, stop in ((0.0, 1.0), (NAN, 1.0), (-INF, INF)):
            g = G()
            c(g, "a", "float", start)
            c(g, "b", "float", stop)
            c(g, "n", "int64", n)
            g.node("y", "LinSpace", ["a", "b", "n"], T=ty("float"), Tidx=ty("int64"))
            case(cat, "linspace_%d_%s_%s" % (n, num(start), num(stop)), g, "y")
    for ns in (0, -1, INT32_MAX, 2**28):
        g = G()
        g.const("logits", "float", [1, 2], [0.0, 0.0])
        c(g, "n", "int32", ns)
        g.node("y", "Multinomial", ["logits", "n"], T=ty("float"), output_dtype=ty("int64"),
               seed=i(1), seed2=i(2))
        case(cat, "multinomial_samples_%d" % ns, g, "y")
    for label, logits in [("nan", [NAN, 0.0]), ("all_neg_inf", [-INF, -INF]),
                          ("inf", [INF, 0.0]), ("huge", [3e38, -3e38])]:
        g = G()
        g.const("logits", "float", [1, 2], logits)
        c(g, "n", "int32", 8)
        g.node("y", "Multinomial", ["logits", "n"], T=ty("float"), output_dtype=ty("int64"),
               seed=i(1), seed2=i(2))
        case(cat, "multinomial_logits_" + label, g, "y")
    g = G()
    g.const("logits", "float", [2, 0])
    c(g, "n", "int32", 3)
    g.node("y", "Multinomial", ["logits", "n"], T=ty("float"), output_dtype=ty("int64"))
    case(cat, "multinomial_no_classes", g, "y")
    for k in (-1, INT32_MAX, 6, 0):
        g = G()
        c(g, "x", "float", [1.0, NAN, 3.0, INF, -INF])
        c(g, "k", "int32", k)
        g.node("y", "TopKV2", ["x", "k"], T=ty("float"), sorted=b(True))
        case(cat, "topk_k_%d" % k, g, ["y:0", "y:1"])
        g = G()
        c(g, "x", "float", [1.0, NAN, 3.0, INF, -INF])
        c(g, "n", "int32", k)
        g.node("y", "NthElement", ["x", "n"], T=ty("float"), reverse=b(False))
        case(cat, "nth_element_%d" % k, g, "y")
        g = G()
        g.const("p", "float", [2, 3], [1.0, NAN, 3.0, INF, 2.0, 2.0])
        c(g, "t", "int32", [0, 2])
        c(g, "k", "int32", k)
        g.node("y", "InTopKV2", ["p", "t", "k"], T=ty("int32"))
        case(cat, "in_top_k_k_%d" % k, g, "y")
    for t in ([5, 0], [-1, 0], [INT32_MIN, INT32_MAX]):
        g = G()
        g.const("p", "float", [2, 3], [1.0, 2.0, 3.0, 4.0, 2.0, 2.0])
        c(g, "t", "int32", t)
        c(g, "k", "int32", 1)
        g.node("y", "InTopKV2", ["p", "t", "k"], T=ty("int32"))
        case(cat, "in_top_k_target_%d" % t[0], g, "y")
    # DynamicStitch: the output's size is the largest index + 1.
    for idx in ([INT32_MAX], [2**30], [-1], [INT32_MIN]):
        g = G()
        c(g, "i0", "int32", idx)
        c(g, "d0", "float", [1.0])
        g.node("y", "DynamicStitch", ["i0", "d0"], T=ty("float"), N=i(1))
        case(cat, "dynamic_stitch_index_%d" % idx[0], g, "y")
    # Random integers over the widest ranges.
    for dt, lo, hi in (("int64", INT64_MIN, INT64_MAX), ("int32", INT32_MIN, INT32_MAX),
                       ("int64", 5, 5), ("int64", 5, -5), ("int32", 0, 1)):
        g = G()
        c(g, "shape", "int32", [4])
        c(g, "lo", dt, lo)
        c(g, "hi", dt, hi)
        g.node("y", "RandomUniformInt", ["shape", "lo", "hi"], Tout=ty(dt), T=ty("int32"),
               seed=i(1), seed2=i(1))
        case(cat, "random_uniform_int_%s_%d_%d" % (dt, lo, hi), g, "y")
        g = G()
        c(g, "shape", "int32", [4])
        c(g, "seed", "int64", [1, 2])
        c(g, "lo", dt, lo)
        c(g, "hi", dt, hi)
        g.node("y", "StatelessRandomUniformInt", ["shape", "seed", "lo", "hi"], dtype=ty(dt),
               T=ty("int32"), Tseed=ty("int64"))
        case(cat, "stateless_random_uniform_int_%s_%d_%d" % (dt, lo, hi), g, "y")
    # StridedSlice and Slice at the int64 edges.
    for label, begin, end, stride in [("stride_min", [INT64_MAX], [INT64_MIN], [INT64_MIN]),
                                      ("stride_max", [INT64_MIN], [INT64_MAX], [INT64_MAX]),
                                      ("begin_max", [INT64_MAX], [INT64_MAX], [1]),
                                      ("end_min_neg", [-1], [INT64_MIN], [-1]),
                                      ("stride_zero", [0], [3], [0])]:
        g = G()
        c(g, "x", "float", [1.0, 2, 3, 4, 5])
        c(g, "b", "int64", begin)
        c(g, "e", "int64", end)
        c(g, "s", "int64", stride)
        g.node("y", "StridedSlice", ["x", "b", "e", "s"], T=ty("float"), Index=ty("int64"))
        case(cat, "strided_slice_" + label, g, "y")
    for label, begin, size in [("begin_max", [INT64_MAX], [1]), ("size_max", [1], [INT64_MAX]),
                               ("both_max", [INT64_MAX], [INT64_MAX]),
                               ("neg_begin", [INT64_MIN], [-1])]:
        g = G()
        c(g, "x", "float", [1.0, 2, 3, 4, 5])
        c(g, "b", "int64", begin)
        c(g, "sz", "int64", size)
        g.node("y", "Slice", ["x", "b", "sz"], T=ty("float"), Index=ty("int64"))
        case(cat, "slice_" + label, g, "y")
    for label, masks in [("ellipsis_twice", dict(ellipsis_mask=i(3))),
                         ("all_masks", dict(begin_mask=i(-1), end_mask=i(-1), ellipsis_mask=i(0),
                                            new_axis_mask=i(-1), shrink_axis_mask=i(-1))),
                         ("new_axis_64", dict(new_axis_mask=i(2**40))),
                         ("shrink_out_of_range", dict(shrink_axis_mask=i(1)))]:
        g = G()
        g.const("x", "float", [2, 3], [1.0] * 6)
        c(g, "b", "int32", [5, 0])
        c(g, "e", "int32", [6, 1])
        c(g, "s", "int32", [1, 1])
        g.node("y", "StridedSlice", ["x", "b", "e", "s"], T=ty("float"), Index=ty("int32"),
               **masks)
        case(cat, "strided_slice_masks_" + label, g, "y")
    # Gather's batch_dims and axis beyond the rank, split counts.
    for bd, axis in ((5, 0), (-5, 0), (1, 0), (0, 5), (INT32_MIN, 0), (0, INT32_MIN)):
        g = G()
        g.const("p", "float", [2, 3], [1.0] * 6)
        g.const("idx", "int32", [2, 1], [0, 1])
        c(g, "axis", "int32", axis)
        g.node("y", "GatherV2", ["p", "idx", "axis"], Tparams=ty("float"), Tindices=ty("int32"),
               Taxis=ty("int32"), batch_dims=i(bd))
        case(cat, "gather_v2_batch_dims_%d_axis_%d" % (bd, axis), g, "y")
    g = G()
    g.const("p", "float", [2, 3], [1.0] * 6)
    g.const("idx", "int32", [1, 5], [0, 0, 0, 0, 0])
    g.node("y", "GatherNd", ["p", "idx"], Tparams=ty("float"), Tindices=ty("int32"))
    case(cat, "gather_nd_index_depth_past_rank", g, "y")
    for ns in (0, -1, INT32_MAX, 2**40, 3):
        g = G()
        c(g, "axis", "int32", 0)
        c(g, "x", "float", [1.0, 2.0, 3.0, 4.0])
        g.node("y", "Split", ["axis", "x"], T=ty("float"), num_split=i(ns))
        case(cat, "split_num_%d" % ns, g, "y")
    for label, sizes in [("two_unknown", [-1, -1]), ("sum_past", [3, 3]), ("negative", [-2, 6]),
                         ("min", [INT64_MIN, 4]), ("overflow", [INT64_MAX, INT64_MAX])]:
        g = G()
        c(g, "x", "float", [1.0, 2.0, 3.0, 4.0])
        c(g, "sizes", "int64", sizes)
        c(g, "axis", "int32", 0)
        g.node("y", "SplitV", ["x", "sizes", "axis"], T=ty("float"), Tlen=ty("int64"),
               num_split=i(2))
        case(cat, "split_v_" + label, g, "y")
    for axis in (INT64_MIN, INT64_MAX, 2, -3):
        g = G()
        c(g, "a", "float", [1.0])
        c(g, "b", "float", [2.0])
        c(g, "axis", "int64", axis)
        g.node("y", "ConcatV2", ["a", "b", "axis"], T=ty("float"), N=i(2), Tidx=ty("int64"))
        case(cat, "concat_v2_axis_%d" % axis, g, "y")
        g = G()
        c(g, "x", "float", [1.0])
        c(g, "axis", "int64", axis)
        g.node("y", "ExpandDims", ["x", "axis"], T=ty("float"), Tdim=ty("int64"))
        case(cat, "expand_dims_%d" % axis, g, "y")
        for op in ("Sum", "Max", "ArgMax", "Mean", "ReverseV2", "EuclideanNorm"):
            g = G()
            g.const("x", "float", [2, 2], [1.0, 2.0, 3.0, 4.0])
            c(g, "axis", "int64", [axis])
            attrs = {"T": ty("float"), "Tidx": ty("int64")}
            if op == "ArgMax":
                c(g, "axis", "int64", axis)
                g.nodes.pop(-2)
                attrs["output_type"] = ty("int64")
            g.node("y", op, ["x", "axis"], **attrs)
            case(cat, "%s_axis_%d" % (op.lower(), axis), g, "y")
    # Substr with positions and lengths at the extremes.
    for pos, ln in ((INT32_MAX, 1), (INT32_MIN, 1), (1, INT32_MAX), (-1, INT32_MIN), (0, -1)):
        for unit in ("BYTE", "UTF8_CHAR"):
            g = G()
            c(g, "x", "string", ["hello", "\xe2\x82\xac"])
            c(g, "pos", "int32", pos)
            c(g, "len", "int32", ln)
            g.node("y", "Substr", ["x", "pos", "len"], T=ty("int32"), unit=s(unit))
            case(cat, "substr_%d_%d_%s" % (pos, ln, unit), g, "y")


def gen_empty_and_huge_dims():
    cat = "empty_tensors"
    # Zero-size operands of the heavy kernels.
    for label, x, w, strides in [("zero_batch", [0, 4, 4, 2], [2, 2, 2, 3], [1, 1, 1, 1]),
                                 ("zero_channels", [1, 4, 4, 0], [2, 2, 0, 3], [1, 1, 1, 1]),
                                 ("zero_out_channels", [1, 4, 4, 2], [2, 2, 2, 0], [1, 1, 1, 1]),
                                 ("zero_height", [1, 0, 4, 2], [2, 2, 2, 3], [1, 1, 1, 1]),
                                 ("zero_filter", [1, 4, 4, 2], [0, 2, 2, 3], [1, 1, 1, 1]),
                                 ("filter_larger", [1, 2, 2, 2], [3, 3, 2, 3], [1, 1, 1, 1])]:
        for pad in ("SAME", "VALID"):
            g = G()
            g.const("x", "float", x)
            g.const("w", "float", w)
            g.node("y", "Conv2D", ["x", "w"], T=ty("float"), strides=li(strides),
                   padding=s(pad))
            case(cat, "conv2d_%s_%s" % (label, pad), g, "y")
            g = G()
            g.const("x", "float", x)
            g.const("w", "float", w[:3] + [1])
            g.node("y", "DepthwiseConv2dNative", ["x", "w"], T=ty("float"), strides=li(strides),
                   padding=s(pad))
            case(cat, "depthwise_%s_%s" % (label, pad), g, "y")
            g = G()
            g.const("x", "float", x)
            g.const("w", "float", w)
            g.const("bias", "float", [w[3]])
            g.node("y", "_FusedConv2D", ["x", "w", "bias"], T=ty("float"), num_args=i(1),
                   strides=li(strides), padding=s(pad), fused_ops="list { s: \"BiasAdd\" }")
            case(cat, "fused_conv2d_%s_%s" % (label, pad), g, "y")
            for op in ("MaxPool", "AvgPool"):
                g = G()
                g.const("x", "float", x)
                g.node("y", op, ["x"], T=ty("float"), ksize=li([1, 2, 2, 1]),
                       strides=li([1, 1, 1, 1]), padding=s(pad))
                case(cat, "%s_%s_%s" % (op.lower(), label, pad), g, "y")
            g = G()
            c(g, "isz", "int32", x)
            g.const("w", "float", w)
            g.const("dy", "float", x[:3] + [w[3]])
            g.node("y", "Conv2DBackpropInput", ["isz", "w", "dy"], T=ty("float"),
                   strides=li(strides), padding=s(pad))
            case(cat, "conv2d_backprop_input_%s_%s" % (label, pad), g, "y")
            g = G()
            g.const("x", "float", x)
            c(g, "fsz", "int32", w)
            g.const("dy", "float", x[:3] + [w[3]])
            g.node("y", "Conv2DBackpropFilter", ["x", "fsz", "dy"], T=ty("float"),
                   strides=li(strides), padding=s(pad))
            case(cat, "conv2d_backprop_filter_%s_%s" % (label, pad), g, "y")
    for label, x, w in [("zero_depth", [1, 0, 4, 4, 2], [1, 2, 2, 2, 3]),
                        ("zero_in", [1, 2, 4, 4, 0], [1, 2, 2, 0, 3])]:
        g = G()
        g.const("x", "float", x)
        g.const("w", "float", w)
        g.node("y", "Conv3D", ["x", "w"], T=ty("float"), strides=li([1] * 5), padding=s("SAME"))
        case(cat, "conv3d_" + label, g, "y")
        for op in ("MaxPool3D", "AvgPool3D"):
            g = G()
            g.const("x", "float", x)
            g.node("y", op, ["x"], T=ty("float"), ksize=li([1, 1, 2, 2, 1]),
                   strides=li([1] * 5), padding=s("SAME"))
            case(cat, "%s_%s" % (op.lower(), label), g, "y")
    for a, bb in (([0, 3], [3, 2]), ([2, 0], [0, 3]), ([2, 3], [3, 0]), ([0, 0], [0, 0])):
        for op in ("MatMul", "BatchMatMulV2"):
            g = G()
            g.const("a", "float", a)
            g.const("b", "float", bb)
            g.node("y", op, ["a", "b"], T=ty("float"))
            case(cat, "%s_%dx%d_%dx%d" % (op.lower(), a[0], a[1], bb[0], bb[1]), g, "y")
        g = G()
        g.const("a", "float", a)
        g.const("b", "float", bb)
        g.const("bias", "float", [bb[1]])
        g.node("y", "_FusedMatMul", ["a", "b", "bias"], T=ty("float"), num_args=i(1),
               fused_ops="list { s: \"BiasAdd\" s: \"Relu\" }")
        case(cat, "fused_matmul_%dx%d_%dx%d" % (a[0], a[1], bb[0], bb[1]), g, "y")
    g = G()
    c(g, "eq", "string", "ij,jk->ik")
    g.const("a", "float", [0, 3])
    g.const("b", "float", [3, 2], [1.0] * 6)
    g.node("y", "Einsum", ["a", "b"], T=ty("float"), N=i(2), equation=s("ij,jk->ik"))
    case(cat, "einsum_empty", g, "y")
    for op in ("Sum", "Prod", "Max", "Min", "Mean", "All", "Any", "ArgMax", "ArgMin",
               "EuclideanNorm"):
        for dt in ("float", "int32", "bool", "int8", "half"):
            if (op in ("All", "Any")) != (dt == "bool"):
                continue
            for shape, axis in (([0], 0), ([2, 0], 1), ([0, 3], 0), ([0, 3], 1)):
                g = G()
                g.const("x", dt, shape)
                c(g, "axis", "int32", [axis] if op not in ("ArgMax", "ArgMin") else axis)
                attrs = {"Tidx": ty("int32")}
                if op not in ("All", "Any"):
                    attrs["T"] = ty(dt)
                g.node("y", op, ["x", "axis"], **attrs)
                case(cat, "%s_empty_%s_%s_axis_%d" % (op.lower(), dt,
                                                       "x".join(map(str, shape)), axis), g, "y")
    for op in ("Softmax", "LogSoftmax", "Relu", "Sigmoid", "L2Loss", "Cumsum", "Unique",
               "Where", "TopKV2", "Cholesky", "MatrixInverse", "MatrixDeterminant",
               "LogMatrixDeterminant", "Qr", "Svd", "MatrixSolve", "FFT", "RFFT", "IRFFT",
               "SoftmaxCrossEntropyWithLogits", "BiasAdd", "LRN", "FusedBatchNormV3",
               "Diag", "DiagPart", "MatrixDiag", "MatrixDiagPart", "InvertPermutation",
               "RandomShuffle", "Reverse", "Transpose", "Tile", "Pad", "MirrorPad",
               "DepthToSpace", "SpaceToDepth", "Bitcast", "DecodeRaw", "StringSplitV2",
               "ReduceJoin", "UniqueWithCounts", "NthElement", "MatrixTriangularSolve",
               "Cross", "BatchToSpaceND", "SpaceToBatchND", "Cumprod", "ClipByValue",
               "SparseSoftmaxCrossEntropyWithLogits", "DynamicStitch", "ZerosLike"):
        for label, shape in (("empty", [0]), ("empty_matrix", [0, 0]), ("empty_rows", [2, 0, 0]),
                             ("scalar", [])):
            g = G()
            dt = "float"
            if op in ("FFT",):
                dt = "complex64"
            if op in ("InvertPermutation",):
                dt = "int32"
            if op in ("DecodeRaw", "StringSplitV2", "ReduceJoin"):
                dt = "string"
            n = 1
            for d in shape:
                n *= d
            vals = None
            if n:
                vals = [1] if dt == "int32" else ["ab"] if dt == "string" else \
                    [complex(1, 0)] if dt == "complex64" else [1.0]
            g.const("x", dt, shape, vals)
            ins = ["x"]
            attrs = {"T": ty(dt)}
            if op in ("Cumsum", "Cumprod"):
                c(g, "axis", "int32", 0)
                ins.append("axis")
            elif op in ("TopKV2", "NthElement"):
                c(g, "k", "int32", 0)
                ins.append("k")
            elif op in ("FFT", "RFFT", "IRFFT"):
                attrs = {"Tcomplex": ty("complex64")} if op != "FFT" else {"Tcomplex":
                                                                           ty("complex64")}
                if op == "IRFFT":
                    g.nodes.pop()
                    g.const("x", "complex64", shape, [complex(1, 0)] if n else None)
                if op != "FFT":
                    c(g, "len", "int32", [0])
                    ins.append("len")
                    attrs["Treal"] = ty("float")
            elif op in ("SoftmaxCrossEntropyWithLogits", "MatrixSolve", "MatrixTriangularSolve",
                        "Cross"):
                ins.append("x")
            elif op == "SparseSoftmaxCrossEntropyWithLogits":
                g.const("lab", "int32", shape[:-1] if shape else [], [0] * (
                    1 if not shape[:-1] else 0) if not shape or shape[0] == 0 else [0] * shape[0])
                ins.append("lab")
                attrs["Tlabels"] = ty("int32")
            elif op == "BiasAdd":
                g.const("bias", "float", shape[-1:] if shape else [], vals)
                ins.append("bias")
            elif op == "FusedBatchNormV3":
                for k in ("scale", "offset", "mean", "var"):
                    g.const(k, "float", [0])
                    ins.append(k)
                attrs["U"] = ty("float")
                attrs["is_training"] = b(False)
            elif op == "Reverse":
                g.const("dims", "bool", [len(shape)], [False] * len(shape) or None)
                ins.append("dims")
            elif op == "Transpose":
                c(g, "perm", "int32", list(range(len(shape)))[::-1] if shape else [])
                if not shape:
                    g.nodes[-1] = g.nodes[-1]
                ins.append("perm")
            elif op == "Tile":
                c(g, "mult", "int32", [INT32_MAX] * len(shape) if shape else [])
                ins.append("mult")
            elif op in ("Pad", "MirrorPad"):
                g.const("pad", "int32", [len(shape), 2], [1] * (2 * len(shape)) or None)
                ins.append("pad")
                if op == "MirrorPad":
                    attrs["mode"] = s("REFLECT")
            elif op in ("DepthToSpace", "SpaceToDepth"):
                attrs["block_size"] = i(2)
            elif op in ("BatchToSpaceND", "SpaceToBatchND"):
                c(g, "block", "int32", [2])
                g.const("crops", "int32", [1, 2], [0, 0])
                ins += ["block", "crops"]
            elif op == "Bitcast":
                attrs["type"] = ty("int8")
            elif op == "DecodeRaw":
                attrs = {"out_type": ty("int32")}
            elif op == "StringSplitV2":
                attrs = {}
                c(g, "sep", "string", "")
                ins.append("sep")
            elif op == "ReduceJoin":
                attrs = {}
                c(g, "axis", "int32", [0])
                ins.append("axis")
            elif op in ("Unique", "UniqueWithCounts"):
                attrs["out_idx"] = ty("int32")
            elif op == "ClipByValue":
                c(g, "lo", "float", 0.0)
                c(g, "hi", "float", 1.0)
                ins += ["lo", "hi"]
            elif op == "DynamicStitch":
                g.nodes.pop()
                g.const("x", "int32", shape, [0] * n if n else None)
                g.const("d", "float", shape, vals)
                ins = ["x", "d"]
                attrs["N"] = i(1)
            if op in ("Where",):
                attrs = {"T": ty("float")}
            g.node("y", op, ins, **attrs)
            fetch = "y"
            if op in ("Unique", "UniqueWithCounts", "TopKV2", "Qr", "Svd",
                      "SoftmaxCrossEntropyWithLogits", "LogMatrixDeterminant",
                      "SparseSoftmaxCrossEntropyWithLogits", "FusedBatchNormV3"):
                fetch = "y:0"
            case(cat, "%s_%s" % (op.lower(), label), g, fetch)
    # A zero dim beside dims whose product overflows: zero elements, huge strides.
    for shape in ([0, 2**62, 4], [2**62, 0, 2**62], [0, INT64_MAX, INT64_MAX]):
        label = "x".join(str(d) for d in shape)
        for op in ("Transpose", "Sum", "Tile", "Reshape", "Pad", "ConcatV2", "Reverse", "Cumsum",
                   "Softmax", "Shape", "Size", "BroadcastTo", "Slice", "Pack", "Gather",
                   "MatMul", "ExpandDims", "Squeeze", "StridedSlice", "OnesLike", "Add",
                   "Where", "ArgMax", "Max", "Unpack", "Split"):
            g = G()
            c(g, "dims", "int64", shape)
            c(g, "zero", "float", 0.0)
            g.node("x", "Fill", ["dims", "zero"], T=ty("float"), index_type=ty("int64"))
            ins = ["x"]
            attrs = {"T": ty("float")}
            if op == "Transpose":
                c(g, "perm", "int32", [2, 0, 1])
                ins.append("perm")
            elif op in ("Sum", "Max", "Cumsum", "ArgMax"):
                c(g, "axis", "int32", [0] if op in ("Sum", "Max") else 2)
                ins.append("axis")
            elif op == "Tile":
                c(g, "m", "int32", [1, 2, 1])
                ins.append("m")
            elif op == "Reshape":
                c(g, "sh", "int64", [-1, 0])
                ins.append("sh")
                attrs["Tshape"] = ty("int64")
            elif op == "Pad":
                g.const("p", "int32", [3, 2], [0, 1, 0, 0, 0, 0])
                ins.append("p")
            elif op == "ConcatV2":
                c(g, "axis", "int32", 0)
                ins += ["x", "axis"]
                attrs["N"] = i(2)
            elif op == "Reverse":
                c(g, "d", "bool", [True, True, False])
                ins.append("d")
            elif op == "BroadcastTo":
                c(g, "sh", "int64", [2] + shape)
                ins.append("sh")
                attrs["Tidx"] = ty("int64")
            elif op == "Slice":
                c(g, "b", "int64", [0, 1, 1])
                c(g, "sz", "int64", [-1, -1, -1])
                ins += ["b", "sz"]
                attrs["Index"] = ty("int64")
            elif op == "StridedSlice":
                c(g, "b", "int64", [0, 1, 1])
                c(g, "e", "int64", [0, -1, -1])
                c(g, "st", "int64", [1, 2, 3])
                ins += ["b", "e", "st"]
                attrs["Index"] = ty("int64")
                attrs["begin_mask"] = i(1)
                attrs["end_mask"] = i(1)
            elif op == "Pack":
                ins.append("x")
                attrs["N"] = i(2)
            elif op == "Gather":
                c(g, "idx", "int32", [0])
                ins.append("idx")
                attrs = {"Tparams": ty("float"), "Tindices": ty("int32")}
            elif op == "MatMul":
                g.node("x2", "Reshape", ["x", "sh2"], T=ty("float"), Tshape=ty("int64"))
                c(g, "sh2", "int64", [-1, shape[-1]])
                ins = ["x2", "x2"]
                attrs["transpose_b"] = b(True)
            elif op == "ExpandDims":
                c(g, "d", "int32", 1)
                ins.append("d")
            elif op == "Add":
                ins.append("x")
            elif op in ("Shape", "Size"):
                attrs["out_type"] = ty("int64")
            elif op == "Unpack":
                attrs["num"] = i(shape[0] if shape[0] < 5 else 0)
            elif op == "Split":
                c(g, "axis", "int32", 0)
                ins = ["axis", "x"]
                attrs["num_split"] = i(2)
            g.node("y", op, ins, **attrs)
            case(cat, "huge_beside_zero_%s_%s" % (op.lower(), label), g,
                 "y" if op not in ("Unpack", "Split") else "x")


def gen_rank0():
    cat = "rank0_inputs"
    # Vector/matrix inputs given as scalars (shape functions and kernels both).
    specs = [
        ("Softmax", [("x", "float")], {"T": "float"}), ("BiasAdd", [("x", "float"), ("b", "float")], {"T": "float"}),
        ("TopKV2", [("x", "float"), ("k", "int32")], {"T": "float"}),
        ("Unique", [("x", "float")], {"T": "float", "out_idx": "int32"}),
        ("ArgMax", [("x", "float"), ("a", "int32")], {"T": "float", "Tidx": "int32"}),
        ("ReverseV2", [("x", "float"), ("a", "int32")], {"T": "float", "Tidx": "int32"}),
        ("Gather", [("x", "float"), ("i", "int32")], {"Tparams": "float", "Tindices": "int32"}),
        ("GatherNd", [("x", "float"), ("i", "int32")], {"Tparams": "float", "Tindices": "int32"}),
        ("Transpose", [("x", "float"), ("p", "int32")], {"T": "float", "Tperm": "int32"}),
        ("Diag", [("x", "float")], {"T": "float"}), ("DiagPart", [("x", "float")], {"T": "float"}),
        ("MatrixDiag", [("x", "float")], {"T": "float"}),
        ("MatrixDiagPart", [("x", "float")], {"T": "float"}),
        ("MatrixSetDiag", [("x", "float"), ("d", "float")], {"T": "float"}),
        ("MatrixBandPart", [("x", "float"), ("l", "int64"), ("u", "int64")],
         {"T": "float", "Tindex": "int64"}),
        ("Cross", [("x", "float"), ("y", "float")], {"T": "float"}),
        ("InTopKV2", [("p", "float"), ("t", "int32"), ("k", "int32")], {"T": "int32"}),
        ("Bincount", [("a", "int32"), ("s", "int32"), ("w", "float")], {"T": "float"}),
        ("SegmentSum", [("x", "float"), ("i", "int32")], {"T": "float", "Tindices": "int32"}),
        ("UnsortedSegmentSum", [("x", "float"), ("i", "int32"), ("n", "int32")],
         {"T": "float", "Tindices": "int32", "Tnumsegments": "int32"}),
        ("Multinomial", [("l", "float"), ("n", "int32")], {"T": "float", "output_dtype": "int64"}),
        ("Fill", [("d", "int32"), ("v", "float")], {"T": "float", "index_type": "int32"}),
        ("Reshape", [("x", "float"), ("s", "int32")], {"T": "float", "Tshape": "int32"}),
        ("Tile", [("x", "float"), ("m", "int32")], {"T": "float", "Tmultiples": "int32"}),
        ("Pad", [("x", "float"), ("p", "int32")], {"T": "float", "Tpaddings": "int32"}),
        ("MirrorPad", [("x", "float"), ("p", "int32")], {"T": "float", "Tpaddings": "int32"}),
        ("Slice", [("x", "float"), ("b", "int32"), ("s", "int32")], {"T": "float", "Index": "int32"}),
        ("StridedSlice", [("x", "float"), ("b", "int32"), ("e", "int32"), ("s", "int32")],
         {"T": "float", "Index": "int32"}),
        ("BroadcastTo", [("x", "float"), ("s", "int32")], {"T": "float", "Tidx": "int32"}),
        ("Range", [("a", "int32"), ("b", "int32"), ("d", "int32")], {"Tidx": "int32"}),
        ("ScatterNd", [("i", "int32"), ("u", "float"), ("s", "int32")],
         {"T": "float", "Tindices": "int32"}),
        ("SparseToDense", [("i", "int32"), ("s", "int32"), ("v", "float"), ("d", "float")],
         {"T": "float", "Tindices": "int32"}),
        ("OneHot", [("i", "int32"), ("d", "int32"), ("on", "float"), ("off", "float")],
         {"T": "float", "TI": "int32"}),
        ("Cumsum", [("x", "float"), ("a", "int32")], {"T": "float", "Tidx": "int32"}),
        ("L2Loss", [("x", "float")], {"T": "float"}),
        ("ResizeBilinear", [("x", "float"), ("s", "int32")], {"T": "float"}),
        ("CropAndResize", [("x", "float"), ("b", "float"), ("i", "int32"), ("s", "int32")],
         {"T": "float"}),
        ("NonMaxSuppressionV3", [("b", "float"), ("s", "float"), ("m", "int32"),
                                 ("i", "float"), ("t", "float")], {"T": "float"}),
        ("MatMul", [("a", "float"), ("b", "float")], {"T": "float"}),
        ("BatchMatMulV2", [("a", "float"), ("b", "float")], {"T": "float"}),
        ("Conv2D", [("x", "float"), ("w", "float")], {"T": "float"}),
        ("MaxPool", [("x", "float")], {"T": "float"}),
        ("FFT", [("x", "complex64")], {"Tcomplex": "complex64"}),
        ("RFFT", [("x", "float"), ("n", "int32")], {"Treal": "float", "Tcomplex": "complex64"}),
        ("Cholesky", [("x", "float")], {"T": "float"}),
        ("MatrixInverse", [("x", "float")], {"T": "float"}),
        ("Einsum", [("a", "float"), ("b", "float")], {"T": "float", "N": 2}),
        ("StringSplitV2", [("x", "string"), ("s", "string")], {}),
        ("ReduceJoin", [("x", "string"), ("a", "int32")], {}),
        ("DecodeRaw", [("x", "string")], {"out_type": "float"}),
        ("StringNGrams", [("x", "string"), ("s", "int64")], {"Tsplits": "int64"}),
        ("UnravelIndex", [("i", "int32"), ("d", "int32")], {"Tidx": "int32"}),
        ("DynamicStitch", [("i", "int32"), ("d", "float")], {"T": "float", "N": 1}),
        ("HistogramFixedWidth", [("v", "float"), ("r", "float"), ("n", "int32")],
         {"T": "float", "dtype": "int32"}),
        ("Bucketize", [("x", "float")], {"T": "float"}),
        ("SparseReshape", [("i", "int64"), ("s", "int64"), ("n", "int64")], {}),
        ("SparseTensorDenseMatMul", [("i", "int64"), ("v", "float"), ("s", "int64"),
                                     ("b", "float")], {"T": "float", "Tindices": "int64"}),
        ("SparseReduceSum", [("i", "int64"), ("v", "float"), ("s", "int64"), ("a", "int32")],
         {"T": "float"}),
        ("SparseFillEmptyRows", [("i", "int64"), ("v", "float"), ("s", "int64"),
                                 ("d", "float")], {"T": "float"}),
        ("ConcatOffset", [("d", "int32"), ("a", "int32"), ("b", "int32")], {"N": 2}),
        ("BroadcastArgs", [("a", "int32"), ("b", "int32")], {"T": "int32"}),
        ("BroadcastGradientArgs", [("a", "int32"), ("b", "int32")], {"T": "int32"}),
        ("Where", [("x", "float")], {"T": "float"}),
        ("ReverseSequence", [("x", "float"), ("l", "int64")],
         {"T": "float", "Tlen": "int64", "seq_dim": 0}),
        ("RaggedTensorToTensor", [("s", "int64"), ("v", "float"), ("d", "float"),
                                  ("r", "int64")],
         {"T": "float", "Tindex": "int64", "Tshape": "int64", "num_row_partition_tensors": 1,
          "row_partition_types": "ROW_SPLITS"}),
        ("StatelessRandomUniformInt", [("s", "int32"), ("seed", "int64"), ("lo", "int32"),
                                       ("hi", "int32")],
         {"dtype": "int32", "T": "int32", "Tseed": "int64"}),
        ("EncodePng", [("x", "uint8")], {"T": "uint8"}),
        ("EncodeJpeg", [("x", "uint8")], {}),
        ("Pack", [("x", "float")], {"T": "float", "N": 1, "axis": 2}),
        ("Unpack", [("x", "float")], {"T": "float", "num": 1}),
        ("SplitV", [("x", "float"), ("s", "int64"), ("a", "int32")],
         {"T": "float", "Tlen": "int64", "num_split": 1}),
        ("LinSpace", [("a", "float"), ("b", "float"), ("n", "int32")],
         {"T": "float", "Tidx": "int32"}),
        ("LRN", [("x", "float")], {"T": "float"}),
        ("Dilation2D", [("x", "float"), ("f", "float")], {"T": "float"}),
        ("ExtractImagePatches", [("x", "float")], {"T": "float"}),
        ("AdjustHue", [("x", "float"), ("d", "float")], {"T": "float"}),
        ("RGBToHSV", [("x", "float")], {"T": "float"}),
        ("SpaceToBatchND", [("x", "float"), ("b", "int32"), ("p", "int32")],
         {"T": "float", "Tblock_shape": "int32", "Tpaddings": "int32"}),
        ("CTCGreedyDecoder", [("x", "float"), ("l", "int32")], {"T": "float"}),
        ("TensorListFromTensor", [("x", "float"), ("s", "int32")],
         {"element_dtype": "float", "shape_type": "int32"}),
        ("Substr", [("x", "string"), ("p", "int32"), ("l", "int32")], {"T": "int32"}),
    ]
    default_list = {"strides": [1, 1, 1, 1], "ksize": [1, 1, 1, 1], "rates": [1, 1, 1, 1],
                    "ksizes": [1, 1, 1, 1], "dilations": [1, 1, 1, 1]}
    for op, ins, attrs in specs:
        g = G()
        names = []
        for n, dt in ins:
            name = "in_" + n
            v = {"float": 1.0, "int32": 1, "int64": 1, "string": "a,b", "uint8": 1,
                 "complex64": complex(1, 0)}[dt]
            g.const(name, dt, [], [v])
            names.append(name)
        a = {}
        for k, v in attrs.items():
            if isinstance(v, int) and not isinstance(v, bool):
                a[k] = i(v)
            elif v in DT:
                a[k] = ty(v)
            elif k == "row_partition_types":
                a[k] = "list { s: %s }" % esc(v)
            else:
                a[k] = s(v)
        if op in ("Conv2D", "MaxPool", "Dilation2D", "ExtractImagePatches"):
            a["padding"] = s("SAME")
            for k in ("strides", "ksize", "rates", "ksizes", "dilations"):
                if k in ("ksize",) and op != "MaxPool":
                    continue
                if k in ("rates", "ksizes") and op != "ExtractImagePatches":
                    continue
                if k == "rates" and op == "Dilation2D":
                    continue
                a[k] = li(default_list[k])
            if op == "Dilation2D":
                a["rates"] = li([1, 1, 1, 1])
        if op == "Bucketize":
            a["boundaries"] = lf([0.0])
        if op == "Einsum":
            a["equation"] = s("ij,jk->ik")
        if op == "StringNGrams":
            a.update(separator=s(" "), ngram_widths=li([2]), left_pad=s(""), right_pad=s(""),
                     pad_width=i(0), preserve_short_sequences=b(False))
        g.node("y", op, names, **a)
        case(cat, op.lower() + "_scalar_inputs", g, "y")


def gen_const_content():
    cat = "const_content"
    # tensor_content whose length disagrees with the shape and dtype; value fields of the wrong
    # kind; more values than elements; huge counts of strings.
    for dt, size in (("float", 4), ("double", 8), ("int64", 8), ("half", 2), ("complex128", 16),
                     ("bool", 1), ("int8", 1), ("uint64", 8), ("bfloat16", 2)):
        for label, shape, nbytes in (("short", [4], 3 * size), ("long", [2], 3 * size),
                                     ("odd", [2], 2 * size - 1), ("empty_content", [3], 0),
                                     ("for_empty", [0], size), ("huge_shape", [2**40], 16)):
            g = G()
            g.const("x", dt, shape, content=b"\x01" * nbytes)
            g.node("y", "Identity", ["x"], T=ty(dt))
            case(cat, "content_%s_%s" % (dt, label), g, "y")
    for label, tensor in [
            ("float_with_int_vals", "dtype: DT_FLOAT tensor_shape { dim { size: 2 } } int_val: 3"),
            ("int_with_float_vals", "dtype: DT_INT32 tensor_shape { dim { size: 2 } } float_val: 1"),
            ("too_many_vals", "dtype: DT_FLOAT tensor_shape { dim { size: 2 } } float_val: 1 "
                              "float_val: 2 float_val: 3"),
            ("vals_and_content", "dtype: DT_FLOAT tensor_shape { dim { size: 1 } } float_val: 1 "
                                 "tensor_content: \"\\000\\000\\200?\""),
            ("string_count_short", "dtype: DT_STRING tensor_shape { dim { size: 3 } } "
                                   "string_val: \"a\" string_val: \"b\""),
            ("string_huge_count", "dtype: DT_STRING tensor_shape { dim { size: 1000000000 } } "
                                  "string_val: \"a\""),
            ("string_content", "dtype: DT_STRING tensor_shape { dim { size: 2 } } "
                               "tensor_content: \"\\377\\377\\377\\377\\377\\377\\377\\177\""),
            ("half_val_wide", "dtype: DT_HALF tensor_shape { dim { size: 2 } } half_val: 70000 "
                              "half_val: -1"),
            ("bool_content_2", "dtype: DT_BOOL tensor_shape { dim { size: 2 } } "
                               "tensor_content: \"\\002\\377\""),
            ("complex_odd_vals", "dtype: DT_COMPLEX64 tensor_shape { dim { size: 2 } } "
                                 "scomplex_val: 1 scomplex_val: 2 scomplex_val: 3"),
            ("negative_dim", "dtype: DT_FLOAT tensor_shape { dim { size: -1 } } float_val: 1"),
            ("unknown_rank", "dtype: DT_FLOAT tensor_shape { unknown_rank: true } float_val: 1"),
            ("dtype_mismatch_attr", "dtype: DT_INT64 tensor_shape { dim { size: 1 } } "
                                    "int64_val: 1"),
            ("resource", "dtype: DT_RESOURCE tensor_shape { } resource_handle_val { device: "
                         "\"/cpu:0\" name: \"v\" }"),
            ("variant", "dtype: DT_VARIANT tensor_shape { } variant_val { type_name: \"x\" "
                        "metadata: \"y\" }"),
            ("invalid_dtype", "dtype: DT_INVALID tensor_shape { dim { size: 1 } }"),
            ("dtype_1000", "dtype: 1000 tensor_shape { dim { size: 1 } }"),
            ("ref_dtype", "dtype: DT_FLOAT_REF tensor_shape { dim { size: 1 } } float_val: 1"),
            ("int8_out_of_range", "dtype: DT_INT8 tensor_shape { dim { size: 2 } } int_val: 1000 "
                                  "int_val: -1000"),
            ("uint32_val_in_int", "dtype: DT_UINT32 tensor_shape { dim { size: 2 } } "
                                  "int_val: -1"),
            ("version_number", "dtype: DT_FLOAT tensor_shape { dim { size: 1 } } "
                               "version_number: -5 float_val: 1")]:
        for attr_dtype in ("float", "same"):
            g = G()
            dt_text = tensor.split()[1]
            code = attr_dtype if attr_dtype == "float" else None
            if code is None:
                g.node("x", "Const", dtype="type: " + dt_text, value="tensor { %s }" % tensor)
                t = "type: " + dt_text
            else:
                g.node("x", "Const", dtype=ty("float"), value="tensor { %s }" % tensor)
                t = ty("float")
            g.node("y", "Identity", ["x"], T=t)
            case(cat, "tensor_%s_attr_%s" % (label, attr_dtype), g, "y")


def gen_type_attrs():
    cat = "type_attr_codes"
    # Ops whose output dtype comes from an attr, given invalid, reference, resource and variant
    # codes (and, for list(type) attrs, lists of them).
    codes = [0, 1000, -1, 101, 120, 20, 21, 2**31 - 1]
    for code in codes:
        tag = str(code)
        g = G()
        g.node("x", "Placeholder", dtype="type: %d" % code, shape=shp([2]))
        case(cat, "placeholder_%s" % tag, g, "x")
        g = G()
        c(g, "x", "float", [1.5, NAN])
        g.node("y", "Cast", ["x"], SrcT=ty("float"), DstT="type: %d" % code)
        case(cat, "cast_to_%s" % tag, g, "y")
        g = G()
        c(g, "x", "float", [1.5, NAN])
        g.node("y", "Cast", ["x"], SrcT="type: %d" % code, DstT=ty("float"))
        case(cat, "cast_from_%s" % tag, g, "y")
        g = G()
        c(g, "x", "float", [1.5, 2.0])
        g.node("y", "Bitcast", ["x"], T=ty("float"), type="type: %d" % code)
        case(cat, "bitcast_to_%s" % tag, g, "y")
        g = G()
        c(g, "shape", "int32", [2])
        g.node("y", "Empty", ["shape"], dtype="type: %d" % code, init=b(True))
        case(cat, "empty_%s" % tag, g, "y")
        g = G()
        c(g, "x", "string", ["abcdefgh"])
        g.node("y", "DecodeRaw", ["x"], out_type="type: %d" % code)
        case(cat, "decode_raw_%s" % tag, g, "y")
        g = G()
        g.node("v", "VariableV2", dtype="type: %d" % code, shape=shp([2]))
        case(cat, "variable_v2_%s" % tag, g, "v")
        g = G()
        g.node("v", "VarHandleOp", dtype="type: %d" % code, shape=shp([2]),
               shared_name=s("v"))
        g.node("y", "ReadVariableOp", ["v"], dtype="type: %d" % code)
        case(cat, "var_handle_%s" % tag, g, "y")
        g = G()
        c(g, "n", "int32", 2)
        g.node("ta", "TensorArrayV3", ["n"], dtype="type: %d" % code,
               element_shape=shp(None))
        g.node("y", "TensorArraySizeV3", ["ta", "ta:1"])
        case(cat, "tensor_array_%s" % tag, g, "y")
        g = G()
        c(g, "es", "int32", -1)
        c(g, "n", "int32", 2)
        g.node("l", "TensorListReserve", ["es", "n"], element_dtype="type: %d" % code,
               shape_type=ty("int32"))
        g.node("y", "TensorListLength", ["l"])
        case(cat, "tensor_list_reserve_%s" % tag, g, "y")
        g = G()
        c(g, "n", "int32", 2)
        g.node("st", "StackV2", ["n"], elem_type="type: %d" % code, stack_name=s("s"))
        g.node("y", "StackCloseV2", ["st"])
        case(cat, "stack_%s" % tag, g, "st")
        g = G()
        c(g, "x", "float", [1.0])
        g.node("y", "IdentityN", ["x"], T=ltype([code]))
        case(cat, "identity_n_%s" % tag, g, "y")
        g = G()
        c(g, "prefix", "string", "/nonexistent/ckpt")
        c(g, "names", "string", ["a"])
        c(g, "slices", "string", [""])
        g.node("y", "RestoreV2", ["prefix", "names", "slices"], dtypes=ltype([code]))
        case(cat, "restore_v2_%s" % tag, g, "y")
        g = G()
        c(g, "shape", "int32", [2])
        c(g, "seed", "int64", [1, 2])
        c(g, "lo", "int32", 0)
        c(g, "hi", "int32", 5)
        g.node("y", "StatelessRandomUniformInt", ["shape", "seed", "lo", "hi"],
               dtype="type: %d" % code, T=ty("int32"), Tseed=ty("int64"))
        case(cat, "stateless_uniform_int_%s" % tag, g, "y")
        g = G()
        g.const("x", "float", [2, 2], [1.0] * 4)
        g.node("y", "Shape", ["x"], T=ty("float"), out_type="type: %d" % code)
        case(cat, "shape_out_type_%s" % tag, g, "y")
        g = G()
        c(g, "x", "float", [1.0, 2.0])
        g.node("y", "Unique", ["x"], T=ty("float"), out_idx="type: %d" % code)
        case(cat, "unique_out_idx_%s" % tag, g, "y:1")
        g = G()
        c(g, "x", "float", [1.0, 2.0])
        c(g, "a", "int32", 0)
        g.node("y", "ArgMax", ["x", "a"], T=ty("float"), Tidx=ty("int32"),
               output_type="type: %d" % code)
        case(cat, "argmax_output_type_%s" % tag, g, "y")
        g = G()
        c(g, "x", "float", [1.0, 2.0])
        g.node("y", "Identity", ["x"], T="type: %d" % code)
        case(cat, "identity_T_%s" % tag, g, "y")
        g = G()
        c(g, "x", "float", [1.0, 2.0])
        c(g, "n", "int32", 3)
        g.node("y", "Multinomial", ["x", "n"], T=ty("float"), output_dtype="type: %d" % code)
        case(cat, "multinomial_output_%s" % tag, g, "y")
        g = G()
        c(g, "x", "string", ["1", "2"])
        g.node("y", "StringToNumber", ["x"], out_type="type: %d" % code)
        case(cat, "string_to_number_%s" % tag, g, "y")
        g = G()
        c(g, "x", "string", [""])
        g.node("y", "DecodePng", ["x"], dtype="type: %d" % code, channels=i(0))
        case(cat, "decode_png_%s" % tag, g, "y")


def gen_samplers_and_series():
    cat = "iterative_math"
    # Special functions whose series or continued fractions iterate, at extreme arguments.
    vals = [NAN, INF, -INF, 1e30, -1e30, 0.0, -0.0, 1e-30, 1.0, -1.0, 3e38, -2.0]
    pairs_a = []
    pairs_b = []
    for a in vals:
        for x in vals:
            pairs_a.append(a)
            pairs_b.append(x)
    for op in ("Igamma", "Igammac", "IgammaGradA", "Zeta", "Polygamma", "Betainc", "Xlogy",
               "Xlog1py", "Xdivy", "Atan2", "Pow", "SquaredDifference", "FloorMod",
               "TruncateMod", "FloorDiv"):
        for dt in ("float", "double"):
            g = G()
            c(g, "a", dt, pairs_a)
            c(g, "x", dt, pairs_b)
            ins = ["a", "x"]
            if op == "Betainc":
                c(g, "z", dt, [0.5] * len(pairs_a))
                ins.append("z")
            g.node("y", op, ins, T=ty(dt))
            case(cat, "%s_extremes_%s" % (op.lower(), dt), g, "y")
    for dt in ("float", "double"):
        g = G()
        c(g, "a", dt, [1e10, 1e20, 1e30, 3e38 if dt == "float" else 1e300])
        c(g, "b", dt, [1e10, 1e20, 1e30, 3e38 if dt == "float" else 1e300])
        c(g, "x", dt, [0.5, 0.5, 0.5, 0.5])
        g.node("y", "Betainc", ["a", "b", "x"], T=ty(dt))
        case(cat, "betainc_huge_ab_" + dt, g, "y")
        g = G()
        c(g, "a", dt, [1e10, 1e20, 1e30, 1e7])
        c(g, "x", dt, [1e10, 1e20, 1e30, 1e7 + 1])
        g.node("y", "Igamma", ["a", "x"], T=ty(dt))
        case(cat, "igamma_huge_equal_" + dt, g, "y")
    for op in ("Lgamma", "Digamma", "Erfinv", "Ndtri", "BesselI0e", "BesselI1e", "Erf", "Erfc",
               "Expm1", "Log1p", "Softplus", "Selu", "Elu", "Tan", "Acosh", "Atanh", "Asinh",
               "Sinh", "Cosh", "Rint", "Round", "Sign", "Reciprocal", "Rsqrt", "Sqrt", "Exp",
               "Softsign", "Sigmoid", "Tanh", "Floor", "Ceil", "IsFinite"):
        for dt in ("float", "double", "half", "bfloat16"):
            if dt in ("half", "bfloat16"):
                g = G()
                g.const("x", dt, [6], [0x7e00, 0x7c00, 0xfc00, 0x7bff, 0xfbff, 0x0001]
                        if dt == "half" else [0x7fc0, 0x7f80, 0xff80, 0x7f7f, 0xff7f, 0x0001])
            else:
                g = G()
                c(g, "x", dt, vals + [-1e10, 1e-45, 2**52 + 0.5, -(2**62)])
            g.node("y", op, ["x"], T=ty(dt))
            case(cat, "%s_extremes_%s" % (op.lower(), dt), g, "y")
    # Complex transcendental functions at the extremes.
    for op in ("Exp", "Log", "Sqrt", "Tanh", "Sigmoid", "Reciprocal", "Abs", "ComplexAbs",
               "Rsqrt", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Pow"):
        g = G()
        vals_c = [complex(NAN, 0), complex(INF, INF), complex(-INF, NAN), complex(1e30, -1e30),
                  complex(0, 0), complex(3e38, 3e38)]
        c(g, "x", "complex64", vals_c)
        ins = ["x"]
        if op == "Pow":
            c(g, "z", "complex64", list(reversed(vals_c)))
            ins.append("z")
        attrs = {"T": ty("complex64")}
        if op == "ComplexAbs":
            attrs["Tout"] = ty("float")
        g.node("y", op, ins, **attrs)
        case(cat, "complex_%s_extremes" % op.lower(), g, "y")
    # Matrix decompositions of NaN, inf and huge entries (iterative algorithms).
    for op in ("Svd", "Qr", "Cholesky", "MatrixInverse", "MatrixDeterminant",
               "LogMatrixDeterminant", "MatrixSolve", "MatrixTriangularSolve"):
        for label, m in (("nan", [NAN, 1, 1, 1]), ("inf", [INF, 1, -INF, 1]),
                         ("huge", [3e38, 3e38, -3e38, 3e38]), ("tiny", [1e-45, 0, 0, 1e-45]),
                         ("singular", [1.0, 2, 2, 4])):
            g = G()
            g.const("m", "float", [2, 2], m)
            ins = ["m"]
            attrs = {"T": ty("float")}
            if op in ("MatrixSolve", "MatrixTriangularSolve"):
                g.const("r", "float", [2, 1], [1.0, 1.0])
                ins.append("r")
            if op == "Svd":
                attrs["compute_uv"] = b(True)
            g.node("y", op, ins, **attrs)
            case(cat, "%s_%s" % (op.lower(), label), g, "y" if op not in (
                "Svd", "Qr", "LogMatrixDeterminant") else "y:0")
    # Rejection samplers with parameters that never accept.
    g = G()
    c(g, "shape", "int32", [4])
    c(g, "seed", "int64", [1, 2])
    g.node("y", "StatelessRandomGetKeyCounterAlg", ["seed"], Tseed=ty("int64"))
    case(cat, "stateless_get_key_counter_alg", g, ["y:0", "y:1", "y:2"])
    for alg, key, counter in ((-1, [1], [0, 0]), (99, [1], [0, 0]), (INT32_MIN, [1], [0, 0]),
                              (1, [1, 2], [0, 0]), (1, [], [0, 0]), (1, [1], []),
                              (2, [1], [0]), (3, [1], [0, 0]), (1, [1], [0])):
        for op in ("StatelessRandomUniformV2", "StatelessRandomNormalV2",
                   "StatelessTruncatedNormalV2", "StatelessRandomUniformIntV2"):
            g = G()
            c(g, "shape", "int32", [3])
            g.const("key", "uint64", [len(key)], key or None)
            g.const("counter", "uint64", [len(counter)], counter or None)
            c(g, "alg", "int32", alg)
            ins = ["shape", "key", "counter", "alg"]
            attrs = {"dtype": ty("float"), "Tshape": ty("int32")}
            if op == "StatelessRandomUniformIntV2":
                c(g, "lo", "int32", 0)
                c(g, "hi", "int32", 10)
                ins += ["lo", "hi"]
                attrs["dtype"] = ty("int32")
            g.node("y", op, ins, **attrs)
            case(cat, "%s_alg_%d_key_%d_counter_%d" % (op.lower(), alg, len(key), len(counter)),
                 g, "y")
    for x in ([NAN, 1.0], [INF, 2.0], [-INF, 1e30]):
        g = G()
        c(g, "x", "float", x)
        g.node("y", "RandomShuffle", ["x"], T=ty("float"), seed=i(INT64_MIN), seed2=i(-1))
        case(cat, "random_shuffle_seed_min_%s" % num(x[0]), g, "y")


def gen_functions_and_control_flow():
    cat = "functions_control_flow"

    def fdef(name, args, rets, nodes, ret_map, attrs=""):
        t = "function { signature { name: %s " % esc(name)
        for n, dt in args:
            t += "input_arg { name: %s type: %s } " % (esc(n), dt)
        for n, dt in rets:
            t += "output_arg { name: %s type: %s } " % (esc(n), dt)
        t += attrs + "} "
        for nd in nodes:
            t += "node_def { %s } " % nd
        for k, v in ret_map:
            t += "ret { key: %s value: %s } " % (esc(k), esc(v))
        return t + "}"

    ident = 'name: "i" op: "Identity" input: "x" attr { key: "T" value { type: DT_FLOAT } }'
    good = fdef("f", [("x", "DT_FLOAT")], [("y", "DT_FLOAT")], [ident], [("y", "i:output:0")])
    variants = {
        "ret_missing": fdef("f", [("x", "DT_FLOAT")], [("y", "DT_FLOAT")], [ident], []),
        "ret_extra": fdef("f", [("x", "DT_FLOAT")], [("y", "DT_FLOAT")], [ident],
                          [("y", "i:output:0"), ("z", "i:output:0")]),
        "ret_unknown_node": fdef("f", [("x", "DT_FLOAT")], [("y", "DT_FLOAT")], [ident],
                                 [("y", "nope:output:0")]),
        "ret_bad_output_index": fdef("f", [("x", "DT_FLOAT")], [("y", "DT_FLOAT")], [ident],
                                     [("y", "i:output:7")]),
        "ret_negative_index": fdef("f", [("x", "DT_FLOAT")], [("y", "DT_FLOAT")], [ident],
                                   [("y", "i:output:-1")]),
        "ret_bad_arg_name": fdef("f", [("x", "DT_FLOAT")], [("y", "DT_FLOAT")], [ident],
                                 [("y", "i:bogus:0")]),
        "ret_is_arg": fdef("f", [("x", "DT_FLOAT")], [("y", "DT_FLOAT")], [], [("y", "x")]),
        "ret_dtype_mismatch": fdef("f", [("x", "DT_FLOAT")], [("y", "DT_INT32")], [ident],
                                   [("y", "i:output:0")]),
        "arg_unused_input_missing": fdef(
            "f", [("x", "DT_FLOAT")], [("y", "DT_FLOAT")],
            ['name: "i" op: "Identity" input: "w" attr { key: "T" value { type: DT_FLOAT } }'],
            [("y", "i:output:0")]),
        "duplicate_arg": fdef("f", [("x", "DT_FLOAT"), ("x", "DT_FLOAT")], [("y", "DT_FLOAT")],
                              [ident], [("y", "i:output:0")]),
        "arg_and_node_same_name": fdef(
            "f", [("x", "DT_FLOAT")], [("y", "DT_FLOAT")],
            ['name: "x" op: "Identity" input: "x" attr { key: "T" value { type: DT_FLOAT } }'],
            [("y", "x:output:0")]),
        "arg_type_attr_missing": fdef("f", [("x", "DT_FLOAT")], [("y", "DT_FLOAT")],
                                      ['name: "i" op: "Identity" input: "x" attr { key: "T" '
                                       'value { placeholder: "Tz" } }'],
                                      [("y", "i:output:0")]),
        "arg_type_attr_declared_unset": (
            "function { signature { name: \"f\" input_arg { name: \"x\" type_attr: \"T\" } "
            "output_arg { name: \"y\" type_attr: \"T\" } attr { name: \"T\" type: \"type\" } } "
            "node_def { name: \"i\" op: \"Identity\" input: \"x\" attr { key: \"T\" value { "
            "placeholder: \"T\" } } } ret { key: \"y\" value: \"i:output:0\" } }"),
        "number_attr_negative": (
            "function { signature { name: \"f\" input_arg { name: \"x\" type: DT_FLOAT "
            "number_attr: \"N\" } output_arg { name: \"y\" type: DT_FLOAT } attr { name: \"N\" "
            "type: \"int\" } } node_def { name: \"i\" op: \"AddN\" input: \"x\" attr { key: \"N\""
            " value { placeholder: \"N\" } } attr { key: \"T\" value { type: DT_FLOAT } } } "
            "ret { key: \"y\" value: \"i:sum:0\" } }"),
        "node_input_self": fdef(
            "f", [("x", "DT_FLOAT")], [("y", "DT_FLOAT")],
            ['name: "i" op: "Add" input: "x" input: "i:z:0" attr { key: "T" value { type: '
             'DT_FLOAT } }'], [("y", "i:z:0")]),
        "node_two_inputs_for_one": fdef(
            "f", [("x", "DT_FLOAT")], [("y", "DT_FLOAT")],
            ['name: "i" op: "Identity" input: "x" input: "x" attr { key: "T" value { type: '
             'DT_FLOAT } }'], [("y", "i:output:0")]),
        "control_ret_unknown": fdef("f", [("x", "DT_FLOAT")], [("y", "DT_FLOAT")], [ident],
                                    [("y", "i:output:0")],
                                    "control_output: \"c\"") + "",
        "output_list_huge_number": (
            "function { signature { name: \"f\" input_arg { name: \"x\" type: DT_FLOAT } "
            "output_arg { name: \"y\" type: DT_FLOAT number_attr: \"N\" } attr { name: \"N\" "
            "type: \"int\" } } node_def { name: \"i\" op: \"Identity\" input: \"x\" attr { key: "
            "\"T\" value { type: DT_FLOAT } } } ret { key: \"y\" value: \"i:output:0\" } }"),
    }
    variants["control_ret_unknown"] = variants["control_ret_unknown"].replace(
        "} }", "} control_ret { key: \"c\" value: \"nope\" } }", 1) if False else \
        variants["control_ret_unknown"][:-1] + "control_ret { key: \"c\" value: \"nope\" } }"
    callers = {
        "direct": lambda g: g.node("y", "f", ["x"]),
        "partitioned": lambda g: g.node("y", "PartitionedCall", ["x"], Tin=ltype(["float"]),
                                        Tout=ltype(["float"]), f=fn("f")),
        "partitioned_wrong_tin": lambda g: g.node("y", "PartitionedCall", ["x"],
                                                  Tin=ltype(["int32"]), Tout=ltype(["float"]),
                                                  f=fn("f")),
        "partitioned_two_tout": lambda g: g.node("y", "StatefulPartitionedCall", ["x"],
                                                 Tin=ltype(["float"]),
                                                 Tout=ltype(["float", "float"]), f=fn("f")),
        "partitioned_no_tout": lambda g: g.node("y", "PartitionedCall", ["x"],
                                                Tin=ltype(["float"]), Tout=ltype([]),
                                                f=fn("f")),
        "partitioned_attr_to_func": lambda g: g.node("y", "PartitionedCall", ["x"],
                                                     Tin=ltype(["float"]),
                                                     Tout=ltype(["float"]),
                                                     f=fn("f", T=ty("float"), N=i(-5))),
        "with_attrs": lambda g: g.node("y", "f", ["x"], T=ty("float"), N=i(-5)),
        "with_attrs_huge_N": lambda g: g.node("y", "f", ["x"], T=ty("float"), N=i(2**40)),
    }
    for vname, lib in [("good", good)] + sorted(variants.items()):
        for cname, call in callers.items():
            if vname != "good" and cname not in ("direct", "partitioned", "with_attrs"):
                continue
            g = G()
            c(g, "x", "float", [1.0, 2.0])
            call(g)
            g.library = lib
            case(cat, "function_%s_call_%s" % (vname, cname), g, "y")
    # While and If with bodies of the wrong arity or dtypes; a loop that never ends.
    cond_lt = fdef("cond", [("i", "DT_INT32")], [("r", "DT_BOOL")],
                   ['name: "lim" op: "Const" attr { key: "dtype" value { type: DT_INT32 } } '
                    'attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape {} '
                    'int_val: 10 } } }',
                    'name: "lt" op: "Less" input: "i" input: "lim:output:0" attr { key: "T" '
                    'value { type: DT_INT32 } }'], [("r", "lt:z:0")])
    cond_true = fdef("cond", [("i", "DT_INT32")], [("r", "DT_BOOL")],
                     ['name: "t" op: "Const" attr { key: "dtype" value { type: DT_BOOL } } '
                      'attr { key: "value" value { tensor { dtype: DT_BOOL tensor_shape {} '
                      'bool_val: true } } }'], [("r", "t:output:0")])
    cond_vec = fdef("cond", [("i", "DT_INT32")], [("r", "DT_BOOL")],
                    ['name: "t" op: "Const" attr { key: "dtype" value { type: DT_BOOL } } '
                     'attr { key: "value" value { tensor { dtype: DT_BOOL tensor_shape { dim { '
                     'size: 2 } } bool_val: true bool_val: false } } }'], [("r", "t:output:0")])
    cond_int = fdef("cond", [("i", "DT_INT32")], [("r", "DT_INT32")],
                    ['name: "t" op: "Identity" input: "i" attr { key: "T" value { type: '
                     'DT_INT32 } }'], [("r", "t:output:0")])
    cond_str = fdef("cond", [("i", "DT_INT32")], [("r", "DT_STRING")],
                    ['name: "t" op: "AsString" input: "i" attr { key: "T" value { type: '
                     'DT_INT32 } }'], [("r", "t:output:0")])
    cond_empty = fdef("cond", [("i", "DT_INT32")], [("r", "DT_BOOL")],
                      ['name: "t" op: "Const" attr { key: "dtype" value { type: DT_BOOL } } '
                       'attr { key: "value" value { tensor { dtype: DT_BOOL tensor_shape { dim '
                       '{ size: 0 } } } } }'], [("r", "t:output:0")])
    body_inc = fdef("body", [("i", "DT_INT32")], [("o", "DT_INT32")],
                    ['name: "one" op: "Const" attr { key: "dtype" value { type: DT_INT32 } } '
                     'attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape {} '
                     'int_val: 1 } } }',
                     'name: "a" op: "AddV2" input: "i" input: "one:output:0" attr { key: "T" '
                     'value { type: DT_INT32 } }'], [("o", "a:z:0")])
    body_two = fdef("body", [("i", "DT_INT32")], [("o", "DT_INT32"), ("p", "DT_INT32")],
                    ['name: "a" op: "Identity" input: "i" attr { key: "T" value { type: '
                     'DT_INT32 } }'], [("o", "a:output:0"), ("p", "a:output:0")])
    body_float = fdef("body", [("i", "DT_INT32")], [("o", "DT_FLOAT")],
                      ['name: "a" op: "Cast" input: "i" attr { key: "SrcT" value { type: '
                       'DT_INT32 } } attr { key: "DstT" value { type: DT_FLOAT } }'],
                      [("o", "a:y:0")])
    body_grow = fdef("body", [("i", "DT_INT32")], [("o", "DT_INT32")],
                     ['name: "a" op: "Pack" input: "i" input: "i" attr { key: "T" value { '
                      'type: DT_INT32 } } attr { key: "N" value { i: 2 } }'],
                     [("o", "a:output:0")])
    body_none = fdef("body", [("i", "DT_INT32")], [], [], [])
    for label, lib, shape_inv in [
            ("ok", cond_lt + body_inc, True), ("never_ends", cond_true + body_inc, True),
            ("cond_vector", cond_vec + body_inc, True), ("cond_int", cond_int + body_inc, True),
            ("cond_string", cond_str + body_inc, True), ("cond_empty", cond_empty + body_inc, True),
            ("body_two_outputs", cond_lt + body_two, True),
            ("body_float", cond_lt + body_float, True),
            ("body_grows_shape", cond_true + body_grow, False),
            ("body_grows_shape_checked", cond_true + body_grow, True),
            ("body_no_outputs", cond_lt + body_none, True), ("no_library", "", True)]:
        for op in ("While", "StatelessWhile"):
            g = G()
            c(g, "x", "int32", 0)
            g.node("y", op, ["x"], T=ltype(["int32"]), cond=fn("cond"), body=fn("body"),
                   output_shapes=lshape([[]]), parallel_iterations=i(10),
                   _lower_using_switch_merge=b(True) if op == "While" else b(False))
            g.library = lib
            case(cat, "%s_%s" % (op.lower(), label), g, "y",
                 config="operation_timeout_in_ms: 3000" if label in (
                     "never_ends", "body_grows_shape", "body_grows_shape_checked",
                     "cond_int", "cond_string", "cond_vector") else None)
    g = G()
    c(g, "x", "int32", 0)
    g.node("y", "While", ["x"], T=ltype(["int32"]), cond=fn("cond"), body=fn("body"),
           parallel_iterations=i(-3))
    g.library = cond_lt + body_inc
    case(cat, "while_parallel_iterations_negative", g, "y")
    g = G()
    c(g, "x", "int32", 0)
    g.node("y", "While", ["x", "x"], T=ltype(["int32", "int32"]), cond=fn("cond"),
           body=fn("body"))
    g.library = cond_lt + body_inc
    case(cat, "while_two_loop_vars_one_arg_functions", g, "y")
    g = G()
    c(g, "x", "int32", 0)
    g.node("y", "While", ["x"], T=ltype(["int32"]), cond=fn("body"), body=fn("body"))
    g.library = cond_lt + body_inc
    case(cat, "while_cond_returns_int_body_as_cond", g, "y",
         config="operation_timeout_in_ms: 3000")
    then_f = fdef("then", [("x", "DT_FLOAT")], [("y", "DT_FLOAT")], [ident],
                  [("y", "i:output:0")])
    else_int = fdef("else", [("x", "DT_FLOAT")], [("y", "DT_INT32")],
                    ['name: "c" op: "Cast" input: "x" attr { key: "SrcT" value { type: DT_FLOAT'
                     ' } } attr { key: "DstT" value { type: DT_INT32 } }'], [("y", "c:y:0")])
    else_two = fdef("else", [("x", "DT_FLOAT")], [("y", "DT_FLOAT"), ("z", "DT_FLOAT")],
                    [ident], [("y", "i:output:0"), ("z", "i:output:0")])
    else_noarg = fdef("else", [], [("y", "DT_FLOAT")],
                      ['name: "k" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } } '
                       'attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape {} '
                       'float_val: 7 } } }'], [("y", "k:output:0")])
    for label, lib, pred_dt, pred_vals in [
            ("else_int", then_f + else_int, "bool", False),
            ("else_two", then_f + else_two, "bool", False),
            ("else_no_arg", then_f + else_noarg, "bool", False),
            ("pred_vector", then_f + then_f.replace('"then"', '"else"'), "bool", [True, False]),
            ("pred_empty", then_f + then_f.replace('"then"', '"else"'), "bool", []),
            ("pred_string", then_f + then_f.replace('"then"', '"else"'), "string", ""),
            ("pred_nan", then_f + then_f.replace('"then"', '"else"'), "float", NAN),
            ("pred_int_vector", then_f + then_f.replace('"then"', '"else"'), "int32", [0, 1])]:
        for op in ("If", "StatelessIf"):
            g = G()
            if isinstance(pred_vals, list) and not pred_vals:
                g.const("p", pred_dt, [0])
            else:
                c(g, "p", pred_dt, pred_vals)
            c(g, "x", "float", [1.0, 2.0])
            g.node("y", op, ["p", "x"], Tcond=ty(pred_dt), Tin=ltype(["float"]),
                   Tout=ltype(["float"]), then_branch=fn("then"), else_branch=fn("else"))
            g.library = lib
            case(cat, "%s_%s" % (op.lower(), label), g, "y")
    # Raw frames: an Enter without an Exit, NextIteration feeding a Merge of another frame.
    g = G()
    c(g, "x", "int32", 0)
    g.node("e", "Enter", ["x"], T=ty("int32"), frame_name=s("f1"))
    g.node("e2", "Enter", ["e"], T=ty("int32"), frame_name=s("f2"))
    g.node("y", "Identity", ["e2"], T=ty("int32"))
    case(cat, "enter_nested_without_exit", g, "y")
    g = G()
    c(g, "x", "int32", 0)
    g.node("e", "Enter", ["x"], T=ty("int32"), frame_name=s("f1"))
    g.node("m", "Merge", ["e", "n"], T=ty("int32"), N=i(2))
    g.node("n", "NextIteration", ["m"], T=ty("int32"))
    g.node("x2", "Exit", ["m"], T=ty("int32"))
    case(cat, "merge_next_iteration_no_switch", g, "x2", config="operation_timeout_in_ms: 3000")
    g = G()
    c(g, "x", "int32", 0)
    c(g, "t", "bool", True)
    g.node("e", "Enter", ["x"], T=ty("int32"), frame_name=s("f1"))
    g.node("te", "Enter", ["t"], T=ty("bool"), frame_name=s("f1"), is_constant=b(True))
    g.node("m", "Merge", ["e", "n"], T=ty("int32"), N=i(2))
    g.node("lc", "LoopCond", ["te"])
    g.node("sw", "Switch", ["m", "lc"], T=ty("int32"))
    g.node("n", "NextIteration", ["sw:1"], T=ty("int32"))
    g.node("x2", "Exit", ["sw"], T=ty("int32"))
    case(cat, "raw_loop_never_ends", g, "x2", config="operation_timeout_in_ms: 2000")
    case(cat, "raw_loop_never_ends_timeout_1ms", g, "x2", config="operation_timeout_in_ms: 1")
    g2 = G()
    g2.nodes = list(g.nodes)
    g2.nodes[2] = g2.nodes[2].replace('frame_name', 'parallel_iterations" value { i: 1 } } attr'
                                      ' { key: "frame_name', 1) if False else g2.nodes[2]
    g2.node("e3", "Enter", ["x"], T=ty("int32"), frame_name=s("f1"), parallel_iterations=i(7))
    g2.node("y2", "Identity", ["e3"], T=ty("int32"))
    case(cat, "raw_loop_frames_disagree_parallel_iterations", g2, "x2",
         config="operation_timeout_in_ms: 2000")


def gen_configs():
    cat = "config"
    g = G()
    g.const("a", "float", [2, 2], [1.0, 2, 3, 4])
    g.node("y", "MatMul", ["a", "a"], T=ty("float"))
    for label, cfg in [
            ("negative_intra", "intra_op_parallelism_threads: -5"),
            ("negative_inter", "inter_op_parallelism_threads: -100"),
            ("huge_intra", "intra_op_parallelism_threads: 2147483647"),
            ("device_count_negative_gpu", "device_count { key: \"GPU\" value: -1 }"),
            ("device_count_huge_gpu", "device_count { key: \"GPU\" value: 2147483647 }"),
            ("device_count_empty_key", "device_count { key: \"\" value: 3 }"),
            ("device_count_cpu_max", "device_count { key: \"CPU\" value: 2147483647 }"),
            ("timeout_negative", "operation_timeout_in_ms: -1"),
            ("timeout_min", "operation_timeout_in_ms: -9223372036854775808"),
            ("timeout_1", "operation_timeout_in_ms: 1"),
            ("pool_negative", "session_inter_op_thread_pool { num_threads: -3 }"),
            ("pool_huge", "session_inter_op_thread_pool { num_threads: 100000 }"),
            ("use_per_session_and_pools", "use_per_session_threads: true "
                                          "session_inter_op_thread_pool { num_threads: 2 }"),
            ("gpu_fraction_nan", "gpu_options { per_process_gpu_memory_fraction: nan }"),
            ("gpu_fraction_inf", "gpu_options { per_process_gpu_memory_fraction: inf }"),
            ("gpu_fraction_huge", "gpu_options { per_process_gpu_memory_fraction: 1e30 }"),
            ("gpu_polling", "gpu_options { polling_active_delay_usecs: -5 "
                            "polling_inactive_delay_msecs: -1 }"),
            ("gpu_allocator", "gpu_options { allocator_type: \"%n%s\" }"),
            ("gpu_deferred", "gpu_options { deferred_deletion_bytes: -1 }"),
            ("gpu_memory_limit_mb_list", "gpu_options { experimental { virtual_devices { "
                                         "memory_limit_mb: 1e30 memory_limit_mb: nan } } }"),
            ("gpu_priority", "gpu_options { experimental { virtual_devices { memory_limit_mb: 1"
                             " priority: 100 priority: -100 priority: 5 } } }"),
            ("gpu_visible_huge", "gpu_options { visible_device_list: \"99999999999999999999\" }"),
            ("gpu_visible_space", "gpu_options { visible_device_list: \" 0 , 1\" }"),
            ("gpu_kernel_tracker", "gpu_options { experimental { kernel_tracker_max_interval: "
                                   "-1 kernel_tracker_max_bytes: -1 kernel_tracker_max_pending: "
                                   "-1 } }"),
            ("graph_options_opt_level", "graph_options { optimizer_options { opt_level: -7 "
                                        "global_jit_level: 99 } }"),
            ("graph_options_build_cost", "graph_options { build_cost_model: -1 "
                                         "build_cost_model_after: -5 timeline_step: -1 }"),
            ("rewrite_options", "graph_options { rewrite_options { constant_folding: 9 "
                                "min_graph_nodes: -1 meta_optimizer_iterations: 77 "
                                "memory_optimization: 99 optimizers: \"bogus\" } }"),
            ("rewrite_custom", "graph_options { rewrite_options { custom_optimizers { name: "
                               "\"nope\" } } }"),
            ("experimental_executor", "experimental { executor_type: \"BOGUS\" }"),
            ("experimental_collective", "experimental { collective_group_leader: \"/job:x\" "
                                        "collective_nccl: true }"),
            ("experimental_xla", "experimental { xla_fusion_autotuner_thresh: -1 "
                                 "disable_output_partition_graphs: true }"),
            ("isolate", "isolate_session_state: true experimental { "
                        "share_session_state_in_clusterspec_propagation: true }"),
            ("placement_period", "placement_period: -1"),
            ("device_filters", "device_filters: \"/job:nope\" device_filters: \"%s%s\""),
            ("device_filters_cpu", "device_filters: \"/device:CPU:7\""),
            ("rpc_options", "rpc_options { compression_level: -99 compression_algorithm: "
                            "\"bogus\" }"),
            ("cluster_def", "cluster_def { job { name: \"\" tasks { key: -1 value: \"\" } } }"),
            ("allow_soft_and_log", "allow_soft_placement: true log_device_placement: true "
                                   "device_count { key: \"CPU\" value: 0 }")]:
        case(cat, "config_" + label, g, "y", config=cfg)
    # Run options through session_runner are not exposed; feeds of odd .npy are the npy sweep's.


def gen_feeds():
    """.npy feeds that lie, fed to graphs whose ops trust the fed shape and values."""
    cat = "npy_feeds"
    out = []

    def npy(descr, shape, data, header_extra=""):
        sh = "(" + "".join("%d, " % d for d in shape) + ")" if len(shape) != 1 else \
            "(%d,)" % shape[0]
        h = "{'descr': '%s', 'fortran_order': False, 'shape': %s, %s}" % (descr, sh,
                                                                           header_extra)
        h += " " * ((64 - (10 + len(h) + 1) % 64) % 64) + "\n"
        return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode() + data

    # Values a graph uses as sizes or indices, fed through a placeholder of unknown shape.
    for label, descr, shape, data, op_graph in [
            ("fill_dims_overflow", "<i8", (3,), struct.pack("<3q", 2**32, 2**32, 2**32), "fill"),
            ("fill_dims_negative", "<i8", (2,), struct.pack("<2q", -1, 3), "fill"),
            ("fill_zero_and_huge", "<i8", (3,), struct.pack("<3q", 0, INT64_MAX, INT64_MAX),
             "fill"),
            ("gather_nan_index", "<i8", (2,), struct.pack("<2q", INT64_MIN, INT64_MAX), "gather"),
            ("reshape_minus_ones", "<i8", (2,), struct.pack("<2q", -1, -1), "reshape"),
            ("reshape_min", "<i8", (2,), struct.pack("<2q", INT64_MIN, -1), "reshape"),
            ("range_min_max", "<i8", (3,), struct.pack("<3q", INT64_MIN, INT64_MAX, 1), "range"),
            ("range_delta_min", "<i8", (3,), struct.pack("<3q", INT64_MAX, INT64_MIN, INT64_MIN),
             "range"),
            ("range_small_delta", "<i8", (3,), struct.pack("<3q", 0, 2**40, 1), "range"),
            ("onehot_depth_huge", "<i8", (1,), struct.pack("<q", 2**40), "onehot"),
            ("tile_empty_huge", "<i8", (1,), struct.pack("<q", INT64_MAX), "tile")]:
        out.append((label, npy(descr, shape, data), op_graph))
    graphs = {}
    g = G()
    g.node("p", "Placeholder", dtype=ty("int64"))
    c(g, "z", "float", 0.0)
    g.node("y", "Fill", ["p", "z"], T=ty("float"), index_type=ty("int64"))
    graphs["fill"] = g
    g = G()
    g.node("p", "Placeholder", dtype=ty("int64"))
    c(g, "params", "float", [1.0, 2.0])
    c(g, "axis", "int32", 0)
    g.node("y", "GatherV2", ["params", "p", "axis"], Tparams=ty("float"), Tindices=ty("int64"),
           Taxis=ty("int32"))
    graphs["gather"] = g
    g = G()
    g.node("p", "Placeholder", dtype=ty("int64"))
    c(g, "x", "float", [1.0, 2.0])
    g.node("y", "Reshape", ["x", "p"], T=ty("float"), Tshape=ty("int64"))
    graphs["reshape"] = g
    g = G()
    g.node("p", "Placeholder", dtype=ty("int64"))
    for k in range(3):
        c(g, "k%d" % k, "int32", k)
        g.node("s%d" % k, "GatherV2", ["p", "k%d" % k, "ax"], Tparams=ty("int64"),
               Tindices=ty("int32"), Taxis=ty("int32"))
    c(g, "ax", "int32", 0)
    g.node("y", "Range", ["s0", "s1", "s2"], Tidx=ty("int64"))
    graphs["range"] = g
    g = G()
    g.node("p", "Placeholder", dtype=ty("int64"))
    c(g, "k0", "int32", 0)
    c(g, "ax", "int32", 0)
    g.node("d", "GatherV2", ["p", "k0", "ax"], Tparams=ty("int64"), Tindices=ty("int32"),
           Taxis=ty("int32"))
    g.node("d32", "Cast", ["d"], SrcT=ty("int64"), DstT=ty("int32"))
    c(g, "idx", "int32", [0])
    c(g, "on", "float", 1.0)
    c(g, "off", "float", 0.0)
    g.node("y", "OneHot", ["idx", "d32", "on", "off"], T=ty("float"), TI=ty("int32"))
    graphs["onehot"] = g
    g = G()
    g.node("p", "Placeholder", dtype=ty("int64"))
    g.const("x", "float", [0])
    g.node("y", "Tile", ["x", "p"], T=ty("float"), Tmultiples=ty("int64"))
    graphs["tile"] = g
    return cat, out, graphs


# ---------------------------------------------------------------------------------------------
# C API misuse (null pointers, counts that disagree with arrays, attrs of invalid values) through
# ctypes, each program in its own process.

C_PRELUDE = r"""
import ctypes, sys
L = ctypes.CDLL(sys.argv[1])
P = ctypes.c_void_p
for n in ("TF_NewStatus", "TF_NewGraph", "TF_NewOperation", "TF_FinishOperation",
          "TF_NewSessionOptions", "TF_NewSession", "TF_NewTensor", "TF_AllocateTensor",
          "TF_GraphOperationByName", "TF_Message", "TF_NewBuffer", "TF_NewBufferFromString",
          "TF_NewImportGraphDefOptions", "TF_TensorData", "TF_OperationName",
          "TF_GraphToFunction", "TF_FunctionImportFunctionDef", "TF_NewWhile",
          "TF_LoadSessionFromSavedModel", "TF_GraphNextOperation", "TF_OperationOpType",
          "TF_GraphImportGraphDefWithResults", "TF_NewApiDefMap", "TF_GetAllOpList"):
    getattr(L, n).restype = P
L.TF_Message.restype = ctypes.c_char_p
class Out(ctypes.Structure):
    _fields_ = [("oper", P), ("index", ctypes.c_int)]
st = P(L.TF_NewStatus())
g = P(L.TF_NewGraph())
def code():
    return L.TF_GetCode(st)
def msg():
    return L.TF_Message(st)
def op(t, name, inputs=(), **attrs):
    d = P(L.TF_NewOperation(g, t.encode(), name.encode()))
    for x in inputs:
        L.TF_AddInput(d, x)
    for k, v in attrs.items():
        if isinstance(v, tuple) and v[0] == "type":
            L.TF_SetAttrType(d, k.encode(), v[1])
        elif isinstance(v, tuple) and v[0] == "tensor":
            L.TF_SetAttrTensor(d, k.encode(), v[1], st)
    o = P(L.TF_FinishOperation(d, st))
    return o
def scalar_f(v):
    t = P(L.TF_AllocateTensor(1, None, 0, 4))
    ctypes.cast(L.TF_TensorData(t), ctypes.POINTER(ctypes.c_float))[0] = v
    return t
def report(ok):
    print("code", code(), msg())
    sys.exit(0 if ok else 3)
"""

C_CASES = [
    ("set_attr_type_1000", """
d = P(L.TF_NewOperation(g, b"Placeholder", b"p"))
L.TF_SetAttrType(d, b"dtype", 1000)
o = P(L.TF_FinishOperation(d, st))
report(code() != 0)
"""),
    ("set_attr_type_ref", """
d = P(L.TF_NewOperation(g, b"Placeholder", b"p"))
L.TF_SetAttrType(d, b"dtype", 101)
o = P(L.TF_FinishOperation(d, st))
report(True)
"""),
    ("set_attr_int_list_negative_count", """
d = P(L.TF_NewOperation(g, b"Placeholder", b"p"))
L.TF_SetAttrType(d, b"dtype", 1)
vals = (ctypes.c_int64 * 2)(1, 2)
L.TF_SetAttrIntList(d, b"strides", vals, -5)
o = P(L.TF_FinishOperation(d, st))
report(True)
"""),
    ("set_attr_shape_negative_dims_count", """
d = P(L.TF_NewOperation(g, b"Placeholder", b"p"))
L.TF_SetAttrType(d, b"dtype", 1)
dims = (ctypes.c_int64 * 2)(-7, 2**62)
L.TF_SetAttrShape(d, b"shape", dims, 2)
o = P(L.TF_FinishOperation(d, st))
report(code() != 0)
"""),
    ("set_attr_shape_rank_huge", """
d = P(L.TF_NewOperation(g, b"Placeholder", b"p"))
L.TF_SetAttrType(d, b"dtype", 1)
dims = (ctypes.c_int64 * 300)(*([1] * 300))
L.TF_SetAttrShape(d, b"shape", dims, 300)
o = P(L.TF_FinishOperation(d, st))
report(code() != 0)
"""),
    ("set_attr_shape_list_null_entries", """
d = P(L.TF_NewOperation(g, b"Placeholder", b"p"))
L.TF_SetAttrType(d, b"dtype", 1)
arr = (P * 2)(None, None)
nd = (ctypes.c_int * 2)(3, -1)
L.TF_SetAttrShapeList(d, b"_output_shapes", arr, nd, 2)
o = P(L.TF_FinishOperation(d, st))
report(True)
"""),
    ("set_attr_type_list_invalid_codes", """
d = P(L.TF_NewOperation(g, b"IdentityN", b"n"))
c1 = op("Const", "c", value=("tensor", scalar_f(1.0)), dtype=("type", 1))
outs = (Out * 1)(Out(c1, 0))
L.TF_AddInputList(d, outs, 1)
types = (ctypes.c_int * 2)(1000, 0)
L.TF_SetAttrTypeList(d, b"T", types, 2)
o = P(L.TF_FinishOperation(d, st))
report(code() != 0)
"""),
    ("add_input_list_negative", """
d = P(L.TF_NewOperation(g, b"AddN", b"n"))
outs = (Out * 1)()
L.TF_AddInputList(d, outs, -3)
o = P(L.TF_FinishOperation(d, st))
report(code() != 0)
"""),
    ("add_input_out_of_range_index", """
c1 = op("Const", "c", value=("tensor", scalar_f(1.0)), dtype=("type", 1))
d = P(L.TF_NewOperation(g, b"Identity", b"i"))
L.TF_AddInput(d, Out(c1, 5))
o = P(L.TF_FinishOperation(d, st))
report(code() != 0)
"""),
    ("add_input_negative_index", """
c1 = op("Const", "c", value=("tensor", scalar_f(1.0)), dtype=("type", 1))
d = P(L.TF_NewOperation(g, b"Identity", b"i"))
L.TF_AddInput(d, Out(c1, -1))
o = P(L.TF_FinishOperation(d, st))
report(code() != 0)
"""),
    ("set_attr_value_proto_garbage", """
d = P(L.TF_NewOperation(g, b"Placeholder", b"p"))
junk = b"\\xff" * 64
L.TF_SetAttrValueProto(d, b"dtype", junk, len(junk), st)
c0 = code()
L.TF_SetAttrType(d, b"dtype", 1)
o = P(L.TF_FinishOperation(d, st))
print("first", c0)
report(c0 != 0)
"""),
    ("set_attr_value_proto_null_huge_len", """
d = P(L.TF_NewOperation(g, b"Placeholder", b"p"))
L.TF_SetAttrValueProto(d, b"dtype", None, ctypes.c_size_t(2**40), st)
c0 = code()
L.TF_SetAttrType(d, b"dtype", 1)
o = P(L.TF_FinishOperation(d, st))
report(c0 != 0)
"""),
    ("set_attr_tensor_list_null_and_count", """
d = P(L.TF_NewOperation(g, b"Placeholder", b"p"))
L.TF_SetAttrType(d, b"dtype", 1)
arr = (P * 2)(None, None)
L.TF_SetAttrTensorList(d, b"x", arr, 2, st)
c0 = code()
o = P(L.TF_FinishOperation(d, st))
report(c0 != 0)
"""),
    ("set_attr_string_list_null_lengths", """
d = P(L.TF_NewOperation(g, b"Placeholder", b"p"))
L.TF_SetAttrType(d, b"dtype", 1)
arr = (ctypes.c_char_p * 2)(b"a", None)
L.TF_SetAttrStringList(d, b"x", arr, None, 2)
o = P(L.TF_FinishOperation(d, st))
report(True)
"""),
    ("allocate_tensor_negative_and_huge_dims", """
dims = (ctypes.c_int64 * 2)(-3, 2**62)
t = L.TF_AllocateTensor(1, dims, 2, 8)
dims2 = (ctypes.c_int64 * 3)(2**32, 2**32, 2**32)
t2 = L.TF_AllocateTensor(1, dims2, 3, 0)
print(t, t2)
report(True)
"""),
    ("new_tensor_len_short", """
dims = (ctypes.c_int64 * 2)(1000, 1000)
buf = ctypes.create_string_buffer(16)
DEALLOC = ctypes.CFUNCTYPE(None, P, ctypes.c_size_t, P)
dealloc = DEALLOC(lambda a, b, c: None)
t = L.TF_NewTensor(1, dims, 2, buf, 16, dealloc, None)
print(t)
report(True)
"""),
    ("graph_set_tensor_shape_bad", """
p = op("Placeholder", "p", dtype=("type", 1))
dims = (ctypes.c_int64 * 2)(-5, 3)
L.TF_GraphSetTensorShape(g, Out(p, 0), dims, 2, st)
c1 = code()
L.TF_GraphSetTensorShape(g, Out(p, 0), None, 4, st)
c2 = code()
L.TF_GraphSetTensorShape(g, Out(p, 7), dims, 2, st)
c3 = code()
print(c1, c2, c3)
report(c1 != 0 and c2 != 0 and c3 != 0)
"""),
    ("graph_get_tensor_shape_wrong_count", """
p = op("Placeholder", "p", dtype=("type", 1))
dims = (ctypes.c_int64 * 2)(4, 3)
L.TF_GraphSetTensorShape(g, Out(p, 0), dims, 2, st)
out = (ctypes.c_int64 * 1)()
L.TF_GraphGetTensorShape(g, Out(p, 0), out, 1, st)
c1 = code()
L.TF_GraphGetTensorShape(g, Out(p, 0), out, -1, st)
c2 = code()
report(c1 != 0 and c2 != 0)
"""),
    ("output_consumers_negative_max", """
p = op("Placeholder", "p", dtype=("type", 1))
i = op("Identity", "i", [Out(p, 0)])
class In(ctypes.Structure):
    _fields_ = [("oper", P), ("index", ctypes.c_int)]
arr = (In * 1)()
n = L.TF_OperationOutputConsumers(Out(p, 0), arr, -5)
n2 = L.TF_OperationOutputConsumers(Out(p, 9), arr, 1)
print(n, n2)
report(True)
"""),
    ("get_attr_tensor_list_negative_max", """
c1 = op("Const", "c", value=("tensor", scalar_f(1.0)), dtype=("type", 1))
arr = (P * 1)()
L.TF_OperationGetAttrTensorList(c1, b"value", arr, -1, st)
c0 = code()
L.TF_OperationGetAttrIntList(c1, b"dtype", None, 5)
L.TF_OperationGetAttrShape(c1, b"value", (ctypes.c_int64 * 1)(), -3, st)
report(True)
"""),
    ("session_run_negative_counts", """
c1 = op("Const", "c", value=("tensor", scalar_f(1.0)), dtype=("type", 1))
opts = P(L.TF_NewSessionOptions())
sess = P(L.TF_NewSession(g, opts, st))
outs = (Out * 1)(Out(c1, 0))
vals = (P * 1)()
L.TF_SessionRun(sess, None, None, None, -1, outs, vals, -1, None, -1, None, st)
c0 = code()
L.TF_SessionRun(sess, None, None, None, 3, outs, vals, 1, None, 0, None, st)
c1c = code()
L.TF_SessionRun(sess, None, None, None, 0, outs, None, 1, None, 0, None, st)
c2 = code()
print(c0, c1c, c2)
report(True)
"""),
    ("session_run_fetch_bad_index", """
c1 = op("Const", "c", value=("tensor", scalar_f(1.0)), dtype=("type", 1))
opts = P(L.TF_NewSessionOptions())
sess = P(L.TF_NewSession(g, opts, st))
outs = (Out * 2)(Out(c1, 3), Out(None, 0))
vals = (P * 2)()
L.TF_SessionRun(sess, None, None, None, 0, outs, vals, 2, None, 0, None, st)
report(code() != 0)
"""),
    ("session_run_feed_null_tensor", """
p = op("Placeholder", "p", dtype=("type", 1))
i = op("Identity", "i", [Out(p, 0)])
opts = P(L.TF_NewSessionOptions())
sess = P(L.TF_NewSession(g, opts, st))
ins = (Out * 1)(Out(p, 0))
invals = (P * 1)(None)
outs = (Out * 1)(Out(i, 0))
vals = (P * 1)()
L.TF_SessionRun(sess, None, ins, invals, 1, outs, vals, 1, None, 0, None, st)
report(code() != 0)
"""),
    ("session_run_feed_wrong_dtype_tensor", """
p = op("Placeholder", "p", dtype=("type", 1))
i = op("Identity", "i", [Out(p, 0)])
opts = P(L.TF_NewSessionOptions())
sess = P(L.TF_NewSession(g, opts, st))
t = P(L.TF_AllocateTensor(7, None, 0, 0))
ins = (Out * 1)(Out(p, 0))
invals = (P * 1)(t)
outs = (Out * 1)(Out(i, 0))
vals = (P * 1)()
L.TF_SessionRun(sess, None, ins, invals, 1, outs, vals, 1, None, 0, None, st)
report(code() != 0)
"""),
    ("session_run_options_garbage", """
c1 = op("Const", "c", value=("tensor", scalar_f(1.0)), dtype=("type", 1))
opts = P(L.TF_NewSessionOptions())
sess = P(L.TF_NewSession(g, opts, st))
junk = b"\\x08\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\x01" + b"\\x10\\x80\\x80\\x80\\x80\\x80\\x80\\x80\\x80\\x80\\x01"
buf = P(L.TF_NewBufferFromString(junk, len(junk)))
outs = (Out * 1)(Out(c1, 0))
vals = (P * 1)()
L.TF_SessionRun(sess, buf, None, None, 0, outs, vals, 1, None, 0, None, st)
report(True)
"""),
    ("set_config_garbage", """
opts = P(L.TF_NewSessionOptions())
junk = b"\\x0a\\xff\\xff\\xff\\xff\\x0f"
L.TF_SetConfig(opts, junk, len(junk), st)
c0 = code()
cfg = b"\\x10\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\x01"
L.TF_SetConfig(opts, cfg, len(cfg), st)
c1 = code()
sess = P(L.TF_NewSession(g, opts, st))
print(c0, c1)
report(c0 != 0)
"""),
    ("import_graph_def_null_data", """
buf = P(L.TF_NewBuffer())
class Buf(ctypes.Structure):
    _fields_ = [("data", P), ("length", ctypes.c_size_t), ("dealloc", P)]
b = ctypes.cast(buf, ctypes.POINTER(Buf))
b[0].data = None
b[0].length = 100
o = P(L.TF_NewImportGraphDefOptions())
L.TF_GraphImportGraphDef(g, buf, o, st)
report(code() != 0)
"""),
    ("import_options_return_output_negative", """
p = op("Placeholder", "p", dtype=("type", 1))
gd = P(L.TF_NewBuffer())
L.TF_GraphToGraphDef(g, gd, st)
g2 = P(L.TF_NewGraph())
o = P(L.TF_NewImportGraphDefOptions())
L.TF_ImportGraphDefOptionsAddReturnOutput(o, b"p", -4)
L.TF_ImportGraphDefOptionsAddReturnOutput(o, b"nope", 0)
L.TF_ImportGraphDefOptionsAddInputMapping(o, b"p", -1, Out(p, 9))
L.TF_ImportGraphDefOptionsSetPrefix(o, b"")
L.TF_GraphImportGraphDef(g2, gd, o, st)
report(code() != 0)
"""),
    ("while_loop_mismatched_outputs", """
p = op("Placeholder", "p", dtype=("type", 3))
ins = (Out * 1)(Out(p, 0))
class WP(ctypes.Structure):
    _fields_ = [("ninputs", ctypes.c_int), ("cond_graph", P), ("cond_inputs", P),
                ("cond_output", Out), ("body_graph", P), ("body_inputs", P),
                ("body_outputs", P), ("name", ctypes.c_char_p)]
L.TF_NewWhile.restype = WP
w = L.TF_NewWhile(g, ins, 1, st)
if code() != 0:
    report(True)
w.name = b"w"
w.cond_output = Out(None, 0)
outs = (Out * 1)()
L.TF_FinishWhile(ctypes.byref(w), st, outs)
report(code() != 0)
"""),
    ("saved_model_null_tags_count", """
opts = P(L.TF_NewSessionOptions())
s = L.TF_LoadSessionFromSavedModel(opts, None, b"/nonexistent", None, 3, g, None, st)
report(code() != 0)
"""),
    ("try_evaluate_constant_bad_output", """
p = op("Placeholder", "p", dtype=("type", 1))
res = (P * 1)()
r1 = L.TF_TryEvaluateConstant(g, Out(p, 5), res, st)
c1 = code()
r2 = L.TF_TryEvaluateConstant(g, Out(None, 0), res, st)
report(True)
"""),
    ("graph_to_function_bad_counts", """
p = op("Placeholder", "p", dtype=("type", 1))
i = op("Identity", "i", [Out(p, 0)])
ins = (Out * 1)(Out(p, 0))
outs = (Out * 1)(Out(i, 3))
f = L.TF_GraphToFunction(g, b"f", 0, -1, None, 1, ins, 1, outs, None, None, b"", st)
c1 = code()
f2 = L.TF_GraphToFunction(g, b"f2", 0, 1, None, -2, ins, -1, outs, None, None, b"", st)
c2 = code()
print(c1, c2)
report(c1 != 0)
"""),
    ("set_attr_func_name_huge_length", """
d = P(L.TF_NewOperation(g, b"PartitionedCall", b"pc"))
L.TF_SetAttrFuncName(d, b"f", b"abc", ctypes.c_size_t(0))
types = (ctypes.c_int * 0)()
L.TF_SetAttrTypeList(d, b"Tin", types, 0)
L.TF_SetAttrTypeList(d, b"Tout", types, 0)
L.TF_AddInputList(d, None, 0)
o = P(L.TF_FinishOperation(d, st))
report(True)
"""),
]


def run_c_api(lib, work):
    results = []
    for name, body in C_CASES:
        path = os.path.join(work, "c_%s.py" % name)
        with open(path, "w") as fh:
            fh.write(C_PRELUDE + body)
        shell = "ulimit -v 8000000; exec timeout 40 %s '%s' '%s'" % (sys.executable, path, lib)
        p = subprocess.run(["bash", "-c", shell], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out = (p.stdout + p.stderr).decode(errors="replace").strip()
        rc = p.returncode
        if rc == 124:
            outcome = "hang"
        elif rc > 128 or rc < 0:
            outcome = "crash"
        elif rc == 3:
            outcome = "no_error"
        elif rc != 0:
            outcome = "script_error"
        else:
            outcome = "ok"
        results.append(("c_api", name, outcome, rc, out.splitlines()[-1] if out else "", out))
    return results


# ---------------------------------------------------------------------------------------------
# Running.


def run_one(runner, work, idx, cat, name, text, fetches, args, config, feed=None):
    gpath = os.path.join(work, "g%d.pbtxt" % idx)
    with open(gpath, "w") as fh:
        fh.write(text)
    cmd = [runner, "--graph=" + gpath] + ["--fetch=" + x for x in fetches] + args
    if config:
        cpath = os.path.join(work, "c%d.pbtxt" % idx)
        with open(cpath, "w") as fh:
            fh.write(config)
        cmd.append("--config=" + cpath)
    if feed:
        cmd.append("--feed=" + feed)
    shell = "ulimit -v 8000000; exec timeout 40 " + " ".join("'%s'" % x.replace("'", "'\\''")
                                                                for x in cmd)
    p = subprocess.run(["bash", "-c", shell], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = p.stdout.decode(errors="replace")
    err = p.stderr.decode(errors="replace")
    rc = p.returncode
    if rc == 124:
        outcome = "hang"
    elif rc > 128 or rc < 0:
        outcome = "crash"
    elif rc == 0:
        outcome = "ok"
    elif any(line[:1].isupper() and ": " in line and line.split(": ")[0].isalpha()
             for line in err.splitlines()):
        outcome = "error"
    else:
        outcome = "no_message"
    return outcome, rc, out, err, gpath


def main():
    argv = sys.argv[1:]
    if not argv or argv[0].startswith("-"):
        print(__doc__)
        return 2
    runner = os.path.abspath(argv[0])
    only = None
    out_dir = None
    c_lib = None
    for a in argv[1:]:
        if a.startswith("--only="):
            only = a[len("--only="):]
        elif a.startswith("--out="):
            out_dir = a[len("--out="):]
        elif a.startswith("--c_api="):
            c_lib = os.path.abspath(a[len("--c_api="):])
    gen_nonfinite_to_int()
    gen_int_extremes()
    gen_empty_and_huge_dims()
    gen_rank0()
    gen_const_content()
    gen_type_attrs()
    gen_samplers_and_series()
    gen_functions_and_control_flow()
    gen_configs()
    feed_cat, feeds, feed_graphs = gen_feeds()
    work = tempfile.mkdtemp(prefix="crafted3_")
    counts = {}
    bad = 0
    results = []
    try:
        jobs = [(cat, name, text, fetch, args, cfg, None) for cat, name, text, fetch, args, cfg
                in CASES]
        for label, data, gname in feeds:
            path = os.path.join(work, label + ".npy")
            with open(path, "wb") as fh:
                fh.write(data)
            jobs.append((feed_cat, label, feed_graphs[gname].text(), ["y"], [], None,
                         "p=" + path))
        for idx, (cat, name, text, fetch, args, cfg, feed) in enumerate(jobs):
            if only and only not in name and only != cat:
                continue
            outcome, rc, out, err, gpath = run_one(runner, work, idx, cat, name, text, fetch,
                                                   args, cfg, feed)
            counts.setdefault(cat, {}).setdefault(outcome, 0)
            counts[cat][outcome] += 1
            last = err.strip().splitlines()[-1] if err.strip() else ""
            results.append((cat, name, outcome, rc, last, out.strip()))
            if outcome in ("crash", "hang", "no_message"):
                bad += 1
                print("%s %s rc=%d %s" % (outcome.upper(), name, rc, last[:300]), flush=True)
            if out_dir:
                os.makedirs(os.path.join(out_dir, "cases"), exist_ok=True)
                shutil.copy(gpath, os.path.join(out_dir, "cases", name + ".pbtxt"))
        if c_lib:
            for r in run_c_api(c_lib, work):
                if only and only not in r[1] and only != "c_api":
                    continue
                counts.setdefault("c_api", {}).setdefault(r[2], 0)
                counts["c_api"][r[2]] += 1
                results.append(r)
                if r[2] != "ok":
                    bad += r[2] in ("crash", "hang")
                    print("%s %s rc=%d %s" % (r[2].upper(), r[1], r[3], r[4][:300]), flush=True)
        if out_dir:
            os.makedirs(out_dir, exist_ok=True)
            with open(os.path.join(out_dir, "results.tsv"), "w") as fh:
                for r in results:
                    fh.write("\t".join(str(x).replace("\n", "\\n").replace("\t", " ")
                                       for x in r) + "\n")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    total = 0
    for cat in sorted(counts):
        n = sum(counts[cat].values())
        total += n
        print("%-24s %5d  %s" % (cat, n, " ".join("%s=%d" % kv for kv in sorted(
            counts[cat].items()))))
    print("cases run: %d, crashed/hung/no message: %d" % (total, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
