#!/usr/bin/env python3
"""Crafted-input campaign, round 6 (issue 26): classes rounds 1-5 did not probe.

Writes text GraphDefs without TensorFlow and runs each through session_runner as
crafted_round4.py does (`ulimit -v 8000000`, `timeout 40`; a crash, hang, failure without a
`Code: message` line or wrong printed value is reported). With `--tf=FILE` each case also runs
in TensorFlow 2.21 and, where both ran, the printed values are compared: a case whose values
differ is reported as VALUE_DIFFERS (a silently wrong number unless TensorFlow's is the wrong
one). The ground:
- gradient kernels whose output shape is an input value or must agree with their other
  operands (pooling, convolution, depthwise, dilation, LRN, batch-norm, bias, fake-quant and
  quantize-dequantize gradients, MaxPoolV2's ksize/strides inputs, MaxPoolWithArgmax);
- sparse ops given indices out of range, negative, unsorted or of the wrong rank, nnz counts
  that disagree, negative and overflowing dense shapes (the sparse ops round 3 did not reach);
- ragged ops given row splits that do not start at 0, decrease, overrun or fall short of their
  values, or are empty;
- decoders given crafted bytes: PNG, JPEG, GIF, BMP and WAV headers whose dimensions, depths,
  chunk sizes and lengths lie, truncated streams; CSV records, base64 and serialized tensors;
- files written and read by ops: SaveV2 to paths that cannot be written, with counts that
  disagree and slice specs, MergeV2Checkpoints of missing or identical prefixes,
  ShardedFilename's shard arithmetic, ReadFile of devices and directories, WriteFile,
  InitializeTableFromTextFileV2 with columns, vocab sizes and delimiters that do not fit;
- strings holding NUL bytes through the string ops, empty and NUL separators, templates and
  patterns, hash keys and n-gram widths that do not fit, outputs that multiply a 1 MB string to
  10 GB;
- dead tensors: untaken Switch branches fetched directly, through Identity and Merge, Switch
  predicates that are not scalars, LoopCond of a vector, a well-formed loop that never ends
  under operation_timeout_in_ms.

    python3 tests/reliability/crafted_round6.py RUNNER [--only=SUBSTR] [--out=DIR] [--tf=FILE]

"{dir}" in a case's graph text is replaced by the case's own directory (paths of files that
ops write or read).
"""

import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crafted_round4 as r4  # noqa: E402
from crafted_round3 import G, c, esc, i, f, li, s, ty, ltype  # noqa: E402

case = r4.case
INT64_MAX = 2**63 - 1
INT32_MAX = 2**31 - 1


def b_(v):
    return "b: %s" % ("true" if v else "false")


def ls(vals):
    return "list { %s }" % " ".join("s: " + esc(v) for v in vals)


def op_case(cat, name, op, inputs, fetch="y", expect=None, config=None, **attrs):
    """A graph of one op `y` whose inputs are Consts [(dtype, values, shape)]."""
    g = G()
    names = []
    for k, (dtype, vals, shape) in enumerate(inputs):
        names.append(c(g, "in%d" % k, dtype, vals, shape))
    g.node("y", op, names, **attrs)
    case(cat, name, g, fetch, config=config, expect=expect)


# ---------------------------------------------------------------------------------------------
# Gradient kernels whose output shape is an input value or must match their other operands.


def zeros(n):
    return [0.0] * n


def prod(dims):
    p = 1
    for d in dims:
        p *= d
    return p


def gen_grad_shapes():
    cat = "grad_shapes"
    pool = dict(T=ty("float"), ksize=li([1, 2, 2, 1]), strides=li([1, 2, 2, 1]),
                padding=s("VALID"))
    # AvgPoolGrad: orig_input_shape decides the output; grad must be the pooled shape.
    for label, shape, gshape in [
            ("good", [1, 4, 4, 1], [1, 2, 2, 1]),
            ("shape_negative", [1, -4, 4, 1], [1, 2, 2, 1]),
            ("shape_huge", [1, INT32_MAX, INT32_MAX, 1], [1, 2, 2, 1]),
            ("shape_rank3", [4, 4, 1], [1, 2, 2, 1]),
            ("shape_zero", [1, 0, 4, 1], [1, 2, 2, 1]),
            ("grad_too_small", [1, 8, 8, 1], [1, 2, 2, 1]),
            ("grad_too_big", [1, 4, 4, 1], [1, 5, 5, 1]),
            ("grad_channels_differ", [1, 4, 4, 1], [1, 2, 2, 3]),
            ("grad_batch_differ", [1, 4, 4, 1], [3, 2, 2, 1])]:
        op_case(cat, "AvgPoolGrad_" + label, "AvgPoolGrad",
                [("int32", shape, [len(shape)]),
                 ("float", [1.0] * max(prod(gshape), 0), gshape)],
                expect="[[[[0.25]" if label == "good" else None, **pool)
    for label, ksize, strides in [("ksize_0", [1, 0, 2, 1], [1, 2, 2, 1]),
                                  ("stride_0", [1, 2, 2, 1], [1, 0, 2, 1]),
                                  ("ksize_huge", [1, INT32_MAX, 2, 1], [1, 2, 2, 1]),
                                  ("ksize_batch", [2, 2, 2, 1], [1, 2, 2, 1]),
                                  ("ksize_negative", [1, -2, 2, 1], [1, 2, 2, 1])]:
        op_case(cat, "AvgPoolGrad_" + label, "AvgPoolGrad",
                [("int32", [1, 4, 4, 1], [4]), ("float", [1.0] * 4, [1, 2, 2, 1])],
                T=ty("float"), ksize=li(ksize), strides=li(strides), padding=s("VALID"))
    # MaxPoolGrad / MaxPoolGradGrad: orig_input, orig_output and grad must agree.
    for op in ("MaxPoolGrad", "MaxPoolGradGrad"):
        for label, xin, xout, grad in [
                ("good", [1, 4, 4, 1], [1, 2, 2, 1], [1, 2, 2, 1] if op == "MaxPoolGrad"
                 else [1, 4, 4, 1]),
                ("orig_output_wrong", [1, 4, 4, 1], [1, 3, 3, 1], [1, 2, 2, 1]),
                ("grad_wrong", [1, 4, 4, 1], [1, 2, 2, 1], [1, 3, 2, 1]),
                ("orig_input_rank3", [4, 4, 1], [1, 2, 2, 1], [1, 2, 2, 1]),
                ("empty_orig_output", [1, 4, 4, 1], [1, 0, 2, 1], [1, 2, 2, 1]),
                ("grad_empty", [1, 4, 4, 1], [1, 2, 2, 1], [0, 2, 2, 1])]:
            op_case(cat, "%s_%s" % (op, label), op,
                    [("float", [float(k) for k in range(prod(xin))], xin),
                     ("float", [float(k) for k in range(prod(xout))], xout),
                     ("float", [1.0] * prod(grad), grad)], **pool)
    for op, ishape_dtype in (("MaxPool3DGrad", "float"), ("AvgPool3DGrad", None)):
        for label, xin, grad in [("good", [1, 2, 2, 2, 1], [1, 1, 1, 1, 1]),
                                 ("grad_wrong", [1, 2, 2, 2, 1], [1, 2, 1, 1, 1]),
                                 ("input_rank4", [1, 2, 2, 1], [1, 1, 1, 1, 1]),
                                 ("input_negative", [1, 2, -2, 2, 1], [1, 1, 1, 1, 1])]:
            attrs = dict(T=ty("float"), ksize=li([1, 2, 2, 2, 1]),
                         strides=li([1, 2, 2, 2, 1]), padding=s("VALID"))
            if ishape_dtype:
                if min(xin) < 0:
                    continue
                attrs["TInput"] = ty("float")
                ins = [("float", [float(k) for k in range(prod(xin))], xin),
                       ("float", [7.0] * prod(grad), grad),
                       ("float", [1.0] * prod(grad), grad)]
            else:
                ins = [("int32", xin, [len(xin)]), ("float", [1.0] * prod(grad), grad)]
            op_case(cat, "%s_%s" % (op, label), op, ins, **attrs)
    for label, xout in [("orig_output_wrong", [1, 2, 1, 1, 1]), ("orig_output_empty",
                                                                  [0, 1, 1, 1, 1])]:
        op_case(cat, "MaxPool3DGrad_" + label, "MaxPool3DGrad",
                [("float", [float(k) for k in range(8)], [1, 2, 2, 2, 1]),
                 ("float", [7.0] * prod(xout), xout), ("float", [1.0], [1, 1, 1, 1, 1])],
                T=ty("float"), TInput=ty("float"), ksize=li([1, 2, 2, 2, 1]),
                strides=li([1, 2, 2, 2, 1]), padding=s("VALID"))
    # Convolution backprops: the sizes input against the filter and out_backprop.
    conv = dict(T=ty("float"), strides=li([1, 1, 1, 1]), padding=s("VALID"))
    for label, sizes, fshape, oshape in [
            ("good", [1, 3, 3, 1], [2, 2, 1, 1], [1, 2, 2, 1]),
            ("sizes_negative", [1, -3, 3, 1], [2, 2, 1, 1], [1, 2, 2, 1]),
            ("sizes_huge", [1, INT32_MAX, INT32_MAX, 1], [2, 2, 1, 1], [1, 2, 2, 1]),
            ("sizes_rank3", [1, 3, 3], [2, 2, 1, 1], [1, 2, 2, 1]),
            ("sizes_zero", [0, 3, 3, 1], [2, 2, 1, 1], [0, 2, 2, 1]),
            ("backprop_wrong", [1, 3, 3, 1], [2, 2, 1, 1], [1, 5, 5, 1]),
            ("depth_wrong", [1, 3, 3, 2], [2, 2, 1, 1], [1, 2, 2, 1]),
            ("filter_bigger", [1, 1, 1, 1], [2, 2, 1, 1], [1, 1, 1, 1]),
            ("filter_zero", [1, 3, 3, 1], [0, 2, 1, 1], [1, 2, 2, 1])]:
        op_case(cat, "Conv2DBackpropInput_" + label, "Conv2DBackpropInput",
                [("int32", sizes, [len(sizes)]), ("float", [1.0] * prod(fshape), fshape),
                 ("float", [1.0] * max(prod(oshape), 0), oshape)],
                expect="[[[[1.]" if label == "good" else None, **conv)
        op_case(cat, "DepthwiseConv2dNativeBackpropInput_" + label,
                "DepthwiseConv2dNativeBackpropInput",
                [("int32", sizes, [len(sizes)]), ("float", [1.0] * prod(fshape), fshape),
                 ("float", [1.0] * max(prod(oshape), 0), oshape)],
                expect="[[[[1.]" if label == "good" else None, **conv)
        if min(sizes) >= 0 and prod(sizes) < 100:
            xs = [1, 3, 3, 1] if label != "depth_wrong" else [1, 3, 3, 2]
            op_case(cat, "Conv2DBackpropFilter_" + label, "Conv2DBackpropFilter",
                    [("float", [1.0] * prod(xs), xs), ("int32", fshape, [4]),
                     ("float", [1.0] * max(prod(oshape), 0), oshape)],
                    expect="[[[[4.]]\n\n  [[4.]]]" if label == "good" else None, **conv)
    for label, fsizes in [("filter_sizes_negative", [-2, 2, 1, 1]),
                          ("filter_sizes_huge", [INT32_MAX, INT32_MAX, 1, 1]),
                          ("filter_sizes_rank2", [2, 2]),
                          ("filter_sizes_channels_wrong", [2, 2, 3, 1])]:
        for op in ("Conv2DBackpropFilter", "DepthwiseConv2dNativeBackpropFilter"):
            op_case(cat, "%s_%s" % (op, label), op,
                    [("float", [1.0] * 9, [1, 3, 3, 1]), ("int32", fsizes, [len(fsizes)]),
                     ("float", [1.0] * 4, [1, 2, 2, 1])], **conv)
    for label, attrs in [("stride_0", dict(strides=li([1, 0, 1, 1]))),
                         ("dilation_0", dict(dilations=li([1, 0, 1, 1]))),
                         ("dilation_huge", dict(dilations=li([1, INT32_MAX, 1, 1]))),
                         ("stride_batch", dict(strides=li([2, 1, 1, 1]))),
                         ("explicit_bad", dict(padding=s("EXPLICIT"),
                                               explicit_paddings=li([0, 0, -1, 5, 0, 0, 0,
                                                                     0])))]:
        a = dict(conv)
        a.update(attrs)
        op_case(cat, "Conv2DBackpropInput_" + label, "Conv2DBackpropInput",
                [("int32", [1, 3, 3, 1], [4]), ("float", [1.0] * 4, [2, 2, 1, 1]),
                 ("float", [1.0] * 4, [1, 2, 2, 1])], **a)
    conv3 = dict(T=ty("float"), strides=li([1, 1, 1, 1, 1]), padding=s("VALID"))
    for label, sizes, oshape in [("good", [1, 2, 2, 2, 1], [1, 1, 1, 1, 1]),
                                 ("sizes_negative", [1, 2, -2, 2, 1], [1, 1, 1, 1, 1]),
                                 ("sizes_huge", [1, INT32_MAX, 2, 2, 1], [1, 1, 1, 1, 1]),
                                 ("sizes_rank4", [1, 2, 2, 2], [1, 1, 1, 1, 1]),
                                 ("backprop_wrong", [1, 2, 2, 2, 1], [1, 3, 1, 1, 1])]:
        op_case(cat, "Conv3DBackpropInputV2_" + label, "Conv3DBackpropInputV2",
                [("int32", sizes, [len(sizes)]), ("float", [1.0] * 8, [2, 2, 2, 1, 1]),
                 ("float", [1.0] * prod(oshape), oshape)], **conv3)
        op_case(cat, "Conv3DBackpropFilterV2_" + label, "Conv3DBackpropFilterV2",
                [("float", [1.0] * 8, [1, 2, 2, 2, 1]),
                 ("int32", [2, 2, 2, 1, 1] if label == "good" else sizes[:5], [5]
                  if len(sizes) >= 5 else [len(sizes)]),
                 ("float", [1.0] * prod(oshape), oshape)], **conv3)
    # Dilation2D backprops.
    dil = dict(T=ty("float"), strides=li([1, 1, 1, 1]), rates=li([1, 1, 1, 1]),
               padding=s("VALID"))
    for label, fshape, oshape, extra in [
            ("good", [2, 2, 1], [1, 2, 2, 1], {}),
            ("backprop_wrong", [2, 2, 1], [1, 3, 3, 1], {}),
            ("filter_rank4", [2, 2, 1, 1], [1, 2, 2, 1], {}),
            ("rate_0", [2, 2, 1], [1, 2, 2, 1], dict(rates=li([1, 0, 1, 1]))),
            ("stride_0", [2, 2, 1], [1, 2, 2, 1], dict(strides=li([1, 0, 1, 1])))]:
        a = dict(dil)
        a.update(extra)
        for op in ("Dilation2DBackpropInput", "Dilation2DBackpropFilter"):
            op_case(cat, "%s_%s" % (op, label), op,
                    [("float", [float(k) for k in range(9)], [1, 3, 3, 1]),
                     ("float", [1.0] * prod(fshape), fshape),
                     ("float", [1.0] * prod(oshape), oshape)], **a)
    # LRNGrad: the three inputs must have one shape.
    for label, s1, s2, s3, extra in [
            ("good", [1, 1, 1, 3], [1, 1, 1, 3], [1, 1, 1, 3], {}),
            ("image_wrong", [1, 1, 1, 3], [1, 1, 1, 2], [1, 1, 1, 3], {}),
            ("output_wrong", [1, 1, 1, 3], [1, 1, 1, 3], [1, 1, 2, 3], {}),
            ("rank3", [1, 1, 3], [1, 1, 3], [1, 1, 3], {}),
            ("radius_huge", [1, 1, 1, 3], [1, 1, 1, 3], [1, 1, 1, 3],
             dict(depth_radius=i(INT32_MAX))),
            ("radius_negative", [1, 1, 1, 3], [1, 1, 1, 3], [1, 1, 1, 3],
             dict(depth_radius=i(-1)))]:
        op_case(cat, "LRNGrad_" + label, "LRNGrad",
                [("float", [1.0] * prod(s1), s1), ("float", [1.0] * prod(s2), s2),
                 ("float", [0.5] * prod(s3), s3)], T=ty("float"), **extra)
    # FusedBatchNormGrad: scale and the reserve spaces must have the channel count.
    for op in ("FusedBatchNormGrad", "FusedBatchNormGradV2", "FusedBatchNormGradV3"):
        for label, ch_scale, ch_r1, xshape, train in [
                ("good", 2, 2, [1, 1, 2, 2], True),
                ("good_inference", 2, 2, [1, 1, 2, 2], False),
                ("scale_wrong", 3, 2, [1, 1, 2, 2], True),
                ("reserve_wrong", 2, 5, [1, 1, 2, 2], True),
                ("reserve_wrong_inference", 2, 5, [1, 1, 2, 2], False),
                ("x_rank3", 2, 2, [1, 2, 2], True),
                ("x_empty", 2, 2, [0, 1, 2, 2], True)]:
            ins = [("float", [1.0] * prod(xshape), xshape),
                   ("float", [float(k) for k in range(prod(xshape))], xshape),
                   ("float", [1.0] * ch_scale, [ch_scale]),
                   ("float", [0.5] * ch_r1, [ch_r1]), ("float", [1.0] * 2, [2])]
            attrs = dict(T=ty("float"), is_training=b_(train))
            if op != "FusedBatchNormGrad":
                attrs["U"] = ty("float")
            if op == "FusedBatchNormGradV3":
                ins.append(("float", [0.0] * 2, [2]))
            op_case(cat, "%s_%s" % (op, label), op, ins,
                    fetch=["y:0", "y:1", "y:2"], **attrs)
    for label, shape, fmt in [("rank1", [3], "NHWC"), ("nchw_rank2", [2, 3], "NCHW"),
                              ("empty", [0, 3], "NHWC"), ("nchw_rank5", [1, 2, 1, 1, 2],
                                                          "NCHW")]:
        op_case(cat, "BiasAddGrad_" + label, "BiasAddGrad",
                [("float", [1.0] * prod(shape), shape)], T=ty("float"), data_format=s(fmt))
    op_case(cat, "BiasAdd_nchw_rank2", "BiasAdd", [("float", [1.0] * 6, [2, 3]),
                                                   ("float", [1.0] * 3, [3])],
            T=ty("float"), data_format=s("NCHW"))
    # Fake-quant and quantize-dequantize gradients: gradients and inputs must agree.
    for label, gshape, xshape, attrs in [
            ("good", [3], [3], {}), ("shapes_differ", [3], [4], {}),
            ("bits_0", [3], [3], dict(num_bits=i(0))), ("bits_100", [3], [3],
                                                        dict(num_bits=i(100))),
            ("min_above_max", [3], [3], dict(min=f(5.0), max=f(-5.0)))]:
        op_case(cat, "FakeQuantWithMinMaxArgsGradient_" + label,
                "FakeQuantWithMinMaxArgsGradient",
                [("float", [1.0] * prod(gshape), gshape),
                 ("float", [-7.0, 0.5, 9.0, 1.0][:prod(xshape)] or [], xshape)], **attrs)
    for label, gshape, xshape, mn, mx, bits in [
            ("good", [3], [3], [-1.0], [1.0], 8), ("shapes_differ", [3], [2], [-1.0], [1.0], 8),
            ("min_vector", [3], [3], [-1.0, -2.0], [1.0], 8),
            ("bits_1", [3], [3], [-1.0], [1.0], 1), ("nan_range", [3], [3], [float("nan")],
                                                     [1.0], 8)]:
        op_case(cat, "FakeQuantWithMinMaxVarsGradient_" + label,
                "FakeQuantWithMinMaxVarsGradient",
                [("float", [1.0] * prod(gshape), gshape),
                 ("float", [-7.0, 0.5, 9.0][:prod(xshape)], xshape),
                 ("float", mn[0] if len(mn) == 1 else mn, [] if len(mn) == 1 else [len(mn)]),
                 ("float", mx[0] if len(mx) == 1 else mx, [] if len(mx) == 1 else [len(mx)])],
                fetch=["y:0", "y:1", "y:2"], num_bits=i(bits))
    for label, nch in [("good", 2), ("channels_short", 1), ("channels_long", 5)]:
        op_case(cat, "FakeQuantWithMinMaxVarsPerChannelGradient_" + label,
                "FakeQuantWithMinMaxVarsPerChannelGradient",
                [("float", [1.0] * 4, [2, 2]), ("float", [-3.0, 0.2, 0.4, 9.0], [2, 2]),
                 ("float", [-1.0] * nch, [nch]), ("float", [1.0] * nch, [nch])],
                fetch=["y:0", "y:1", "y:2"])
    for label, axis, mn_shape in [("good", -1, []), ("axis_past", 3, [2]), ("axis_neg2", -2, []),
                                  ("axis_huge", INT32_MAX, [2]), ("min_count_wrong", 1, [5]),
                                  ("per_axis_good", 1, [2])]:
        n = prod(mn_shape)
        op_case(cat, "QuantizeAndDequantizeV4Grad_" + label, "QuantizeAndDequantizeV4Grad",
                [("float", [1.0] * 4, [2, 2]), ("float", [-3.0, 0.2, 0.4, 9.0], [2, 2]),
                 ("float", [-1.0] * n if mn_shape else -1.0, mn_shape),
                 ("float", [1.0] * n if mn_shape else 1.0, mn_shape)],
                fetch=["y:0", "y:1", "y:2"], T=ty("float"), axis=i(axis))
    # MaxPoolV2: ksize and strides as inputs (values, not attrs).
    for label, ksize, strides in [("good", [1, 2, 2, 1], [1, 2, 2, 1]),
                                  ("ksize_0", [1, 0, 2, 1], [1, 2, 2, 1]),
                                  ("ksize_negative", [1, -2, 2, 1], [1, 2, 2, 1]),
                                  ("stride_0", [1, 2, 2, 1], [1, 0, 2, 1]),
                                  ("ksize_short", [2, 2], [1, 2, 2, 1]),
                                  ("ksize_huge", [1, INT32_MAX, 2, 1], [1, 2, 2, 1]),
                                  ("ksize_depth", [1, 1, 1, 2], [1, 1, 1, 2])]:
        op_case(cat, "MaxPoolV2_" + label, "MaxPoolV2",
                [("float", [float(k) for k in range(16)], [1, 4, 4, 1]),
                 ("int32", ksize, [len(ksize)]), ("int32", strides, [len(strides)])],
                expect="[[[[ 5.]" if label == "good" else None, T=ty("float"),
                padding=s("VALID"))
    for label, attrs in [("good", {}), ("ksize_0", dict(ksize=li([1, 0, 2, 1]))),
                         ("stride_0", dict(strides=li([1, 2, 0, 1]))),
                         ("batch_index", dict(include_batch_in_index=b_(True))),
                         ("ksize_rank3", dict(ksize=li([1, 2, 2])))]:
        a = dict(T=ty("float"), ksize=li([1, 2, 2, 1]), strides=li([1, 2, 2, 1]),
                 padding=s("VALID"), Targmax=ty("int64"))
        a.update(attrs)
        op_case(cat, "MaxPoolWithArgmax_" + label, "MaxPoolWithArgmax",
                [("float", [float(k) for k in range(32)], [2, 4, 4, 1])],
                fetch=["y:0", "y:1"], **a)


# ---------------------------------------------------------------------------------------------
# Sparse ops given indices and shapes that lie.

SP_GOOD = ([[0, 0], [1, 2]], [1.0, 2.0], [2, 3])
SP_VARIANTS = [
    ("good", SP_GOOD),
    ("index_past_shape", ([[0, 0], [1, 3]], [1.0, 2.0], [2, 3])),
    ("index_negative", ([[0, 0], [-1, 2]], [1.0, 2.0], [2, 3])),
    ("index_huge", ([[0, 0], [INT64_MAX, 2]], [1.0, 2.0], [2, 3])),
    ("unsorted", ([[1, 2], [0, 0]], [2.0, 1.0], [2, 3])),
    ("duplicate", ([[1, 2], [1, 2]], [2.0, 1.0], [2, 3])),
    ("values_short", ([[0, 0], [1, 2]], [1.0], [2, 3])),
    ("values_long", ([[0, 0], [1, 2]], [1.0, 2.0, 3.0], [2, 3])),
    ("shape_rank_short", ([[0, 0], [1, 2]], [1.0, 2.0], [2])),
    ("shape_negative", ([[0, 0], [1, 2]], [1.0, 2.0], [2, -3])),
    ("shape_overflow", ([[0, 0], [1, 2]], [1.0, 2.0], [2**62, 2**62])),
    ("empty_shape_zero", ([], [], [0, 3])),
]


def sp_inputs(ind, vals, shape, values_dtype="float"):
    nnz = len(ind)
    rank = len(ind[0]) if ind else 2
    return [("int64", [v for row in ind for v in row], [nnz, rank]),
            (values_dtype, vals if values_dtype == "float" else [int(v) for v in vals],
             [len(vals)]),
            ("int64", shape, [len(shape)])]


def gen_sparse():
    cat = "sparse"
    for label, (ind, vals, shape) in SP_VARIANTS:
        sp = sp_inputs(ind, vals, shape)
        op_case(cat, "SparseSlice_" + label, "SparseSlice",
                sp + [("int64", [0, 1], [2]), ("int64", [2, 2], [2])],
                fetch=["y:0", "y:1", "y:2"], T=ty("float"))
        op_case(cat, "SparseTensorDenseAdd_" + label, "SparseTensorDenseAdd",
                sp + [("float", zeros(6), [2, 3])], T=ty("float"), Tindices=ty("int64"))
        op_case(cat, "SparseSoftmax_" + label, "SparseSoftmax", sp, T=ty("float"))
        op_case(cat, "SparseReduceMax_" + label, "SparseReduceMax",
                sp + [("int32", [1], [1])], T=ty("float"))
        op_case(cat, "SparseReduceSum_axis_none_" + label, "SparseReduceSum",
                sp + [("int32", [], [0])], T=ty("float"))
        op_case(cat, "SparseBincount_" + label, "SparseBincount",
                sp_inputs(ind, vals, shape, "int32") + [("int32", 4, []), ("float", [], [0])],
                Tidx=ty("int32"), T=ty("float"))
        op_case(cat, "SparseTensorDenseMatMul_adjoint_" + label, "SparseTensorDenseMatMul",
                sp + [("float", [1.0] * 4, [2, 2])], T=ty("float"), Tindices=ty("int64"),
                adjoint_a=b_(True))
        op_case(cat, "SparseAdd_" + label, "SparseAdd",
                sp + sp_inputs(*SP_GOOD) + [("float", 0.0, [])], fetch=["y:0", "y:1", "y:2"],
                T=ty("float"), Treal=ty("float"))
        op_case(cat, "SparseToDense_novalidate_" + label, "SparseToDense",
                [sp[0], sp[2], sp[1], ("float", 0.0, [])], T=ty("float"),
                Tindices=ty("int64"), validate_indices=b_(False))
        op_case(cat, "SparseFillEmptyRows_" + label, "SparseFillEmptyRows",
                sp + [("float", 9.0, [])], fetch=["y:0", "y:1", "y:2", "y:3"], T=ty("float"))
    for label, size in [("size_negative", -1), ("size_huge", INT32_MAX)]:
        op_case(cat, "SparseBincount_" + label, "SparseBincount",
                sp_inputs(*SP_GOOD, values_dtype="int32") + [("int32", size, []),
                                                             ("float", [], [0])],
                Tidx=ty("int32"), T=ty("float"))
    for label, start, size in [("start_negative", [-1, 0], [2, 2]),
                               ("size_negative", [0, 0], [-2, 2]),
                               ("start_huge", [INT64_MAX, 0], [2, 2]),
                               ("size_huge", [1, 1], [INT64_MAX, INT64_MAX]),
                               ("rank_short", [0], [2])]:
        op_case(cat, "SparseSlice_" + label, "SparseSlice",
                sp_inputs(*SP_GOOD) + [("int64", start, [len(start)]),
                                       ("int64", size, [len(size)])],
                fetch=["y:0", "y:1", "y:2"], T=ty("float"))
    # Sparse segment reductions: indices into data and segment ids.
    for op in ("SparseSegmentSumWithNumSegments", "SparseSegmentMeanWithNumSegments",
               "SparseSegmentSqrtNWithNumSegments"):
        for label, idx, seg, num in [("good", [0, 1], [0, 2], 3),
                                     ("index_past", [0, 5], [0, 1], 3),
                                     ("index_negative", [-1, 0], [0, 1], 3),
                                     ("segment_past_num", [0, 1], [0, 3], 3),
                                     ("segment_negative", [0, 1], [-1, 0], 3),
                                     ("segments_unsorted", [0, 1], [2, 0], 3),
                                     ("num_negative", [0, 1], [0, 0], -1),
                                     ("num_huge", [0, 1], [0, 0], INT32_MAX),
                                     ("count_mismatch", [0, 1, 1], [0, 0], 3)]:
            op_case(cat, "%s_%s" % (op, label), op,
                    [("float", [1.0, 2.0, 3.0, 4.0], [2, 2]), ("int32", idx, [len(idx)]),
                     ("int32", seg, [len(seg)]), ("int32", num, [])], T=ty("float"))


# ---------------------------------------------------------------------------------------------
# Ragged ops given row splits that lie.

SPLITS = [("good", [0, 2, 3]), ("not_from_0", [1, 2, 3]), ("decreasing", [0, 3, 2]),
          ("past_values", [0, 2, 9]), ("short_of_values", [0, 1, 2]), ("empty", []),
          ("negative", [0, -1, 3]), ("huge", [0, INT64_MAX, 3]), ("single_0", [0])]


def gen_ragged():
    cat = "ragged"
    vals = [1.0, 2.0, 3.0]
    for label, splits in SPLITS:
        sp = ("int64", splits, [len(splits)])
        op_case(cat, "RaggedTensorToSparse_" + label, "RaggedTensorToSparse",
                [sp, ("float", vals, [3])], fetch=["y:0", "y:1", "y:2"], RAGGED_RANK=i(1),
                T=ty("float"), Tsplits=ty("int64"))
        op_case(cat, "RaggedGather_" + label, "RaggedGather",
                [sp, ("float", vals, [3]), ("int32", [1, 0], [2])], fetch=["y:0", "y:1"],
                Tvalues=ty("float"), Tindices=ty("int32"), Tsplits=ty("int64"),
                PARAMS_RAGGED_RANK=i(1), OUTPUT_RAGGED_RANK=i(1))
        op_case(cat, "RaggedBincount_" + label, "RaggedBincount",
                [sp, ("int32", [0, 1, 1], [3]), ("int32", 3, []), ("float", [], [0])],
                Tidx=ty("int32"), T=ty("float"))
        op_case(cat, "RaggedTensorToTensor_row_splits_" + label, "RaggedTensorToTensor",
                [("int64", [-1, -1], [2]), ("float", vals, [3]), ("float", 0.0, []), sp],
                T=ty("float"), Tindex=ty("int64"), Tshape=ty("int64"),
                num_row_partition_tensors=i(1), row_partition_types=ls(["ROW_SPLITS"]))
    for label, rowids, nrows in [("good", [0, 0, 2], 3), ("unsorted", [2, 0, 0], 3),
                                 ("past_nrows", [0, 0, 5], 3), ("negative", [-1, 0, 0], 3),
                                 ("nrows_negative", [0, 0, 0], -2),
                                 ("count_wrong", [0, 0], 3)]:
        op_case(cat, "RaggedTensorToTensor_row_ids_" + label, "RaggedTensorToTensor",
                [("int64", [-1, -1], [2]), ("float", vals, [3]), ("float", 0.0, []),
                 ("int64", nrows, []), ("int64", rowids, [len(rowids)])],
                T=ty("float"), Tindex=ty("int64"), Tshape=ty("int64"),
                num_row_partition_tensors=i(2),
                row_partition_types=ls(["FIRST_DIM_SIZE", "VALUE_ROWIDS"]))
    for label, shape in [("shape_negative_2", [-2, 2]), ("shape_huge", [INT64_MAX, INT64_MAX]),
                         ("shape_rank_wrong", [3, 3, 3]), ("shape_small", [1, 1])]:
        op_case(cat, "RaggedTensorToTensor_" + label, "RaggedTensorToTensor",
                [("int64", shape, [len(shape)]), ("float", vals, [3]), ("float", 0.0, []),
                 ("int64", [0, 2, 3], [3])], T=ty("float"), Tindex=ty("int64"),
                Tshape=ty("int64"), num_row_partition_tensors=i(1),
                row_partition_types=ls(["ROW_SPLITS"]))
    for label, ptypes in [("types_unknown", ["NOPE"]), ("types_empty", []),
                          ("types_two_for_one", ["ROW_SPLITS", "ROW_SPLITS"])]:
        op_case(cat, "RaggedTensorToTensor_" + label, "RaggedTensorToTensor",
                [("int64", [-1, -1], [2]), ("float", vals, [3]), ("float", 0.0, []),
                 ("int64", [0, 2, 3], [3])], T=ty("float"), Tindex=ty("int64"),
                Tshape=ty("int64"), num_row_partition_tensors=i(1),
                row_partition_types=ls(ptypes))
    for label, st, lim, de in [("good", [0, 5], [3, 1], [1, -2]),
                               ("delta_0", [0], [3], [0]),
                               ("huge_count", [0], [INT64_MAX], [1]),
                               ("span_overflow", [-(2**63)], [INT64_MAX], [1]),
                               ("lengths_differ", [0, 1], [3], [1, 1, 1])]:
        op_case(cat, "RaggedRange_" + label, "RaggedRange",
                [("int64", st, [len(st)]), ("int64", lim, [len(lim)]),
                 ("int64", de, [len(de)])], fetch=["y:0", "y:1"], T=ty("int64"),
                Tsplits=ty("int64"))
    for label, st in [("float_nan", [float("nan")]), ("float_inf", [float("-inf")])]:
        op_case(cat, "RaggedRange_" + label, "RaggedRange",
                [("float", st, [1]), ("float", [3.0], [1]), ("float", [1.0], [1])],
                fetch=["y:0", "y:1"], T=ty("float"), Tsplits=ty("int64"))


# ---------------------------------------------------------------------------------------------
# Decoders given crafted bytes.

JPEG_2x2 = bytes.fromhex(
    "ffd8ffe000104a46494600010100000100010000ffdb0043000302020302020303030304030304050805050404"
    "050a070706080c0a0c0c0b0a0b0b0d0e12100d0e110e0b0b1016101113141515150c0f171816141812141514"
    "ffdb00430103040405040509050509140d0b0d1414141414141414141414141414141414141414141414141414"
    "141414141414141414141414141414141414ffc00011080002000203012200021101031101ffc4001f00000105"
    "01010101010100000000000000000102030405060708090a0bffc400b510000201030302040305050404000001"
    "7d01020300041105122131410613516107227114328191a1082342b1c11552d1f02433627282090a16171819"
    "1a25262728292a3435363738393a434445464748494a535455565758595a636465666768696a737475767778"
    "797a838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8"
    "c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1f2f3f4f5f6f7f8f9faffc4001f0100030101010101010101"
    "010000000000000102030405060708090a0bffc400b51100020102040403040705040400010277000102031104"
    "052131061241510761711322328108144291a1b1c109233352f0156272d10a162434e125f11718191a26272829"
    "2a35363738393a434445464748494a535455565758595a636465666768696a737475767778797a8283848586"
    "8788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6"
    "d7d8d9dae2e3e4e5e6e7e8e9eaf2f3f4f5f6f7f8f9faffda000c03010002110311003f00f98a8a28af843fbe0f"
    "ffd9")
GIF_2x2 = bytes.fromhex("47494638376102000200810000c80a1e0000000000000000002c0000000002000200"
                        "000806000108041010003b")


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(
        ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(width, height, depth=8, color=0, rows=None, idat=None, ihdr=None, end=True):
    sig = b"\x89PNG\r\n\x1a\n"
    hdr = ihdr if ihdr is not None else struct.pack(">IIBBBBB", width, height, depth, color, 0,
                                                    0, 0)
    if idat is None:
        if rows is None:
            rows = b"".join(b"\0" + b"\x80" * width for _ in range(height))
        idat = zlib.compress(rows)
    return sig + png_chunk(b"IHDR", hdr) + png_chunk(b"IDAT", idat) + (
        png_chunk(b"IEND", b"") if end else b"")


def bmp(width, height, bpp=24, data=None, offset=54, file_size=None):
    row = (width * bpp // 8 + 3) // 4 * 4 if width > 0 else 0
    if data is None:
        data = b"\x10" * (row * abs(height)) if abs(height) < 100 and width < 100 else b""
    size = file_size if file_size is not None else 54 + len(data)
    return (b"BM" + struct.pack("<IHHI", size & 0xFFFFFFFF, 0, 0, offset) +
            struct.pack("<IiiHHIIiiII", 40, width, height, 1, bpp, 0, len(data), 0, 0, 0, 0) +
            data)


def wav(channels=1, rate=8000, bits=16, data=b"\x00\x10\x00\x20", fmt_size=16, data_size=None,
        riff_size=None, fmt_tag=1):
    fmt = struct.pack("<HHIIHH", fmt_tag, channels & 0xFFFF, rate, rate * max(channels, 0) *
                      bits // 8 & 0xFFFFFFFF, (channels * bits // 8) & 0xFFFF, bits)
    fmt = fmt[:fmt_size] if fmt_size <= 16 else fmt + b"\0" * (fmt_size - 16)
    body = (b"WAVE" + b"fmt " + struct.pack("<I", fmt_size) + fmt + b"data" +
            struct.pack("<I", (len(data) if data_size is None else data_size) & 0xFFFFFFFF) +
            data)
    return b"RIFF" + struct.pack("<I", (len(body) if riff_size is None else riff_size)
                                 & 0xFFFFFFFF) + body


def tensor_proto(dtype_code, dims, content=b"", extra=b""):
    pb = r4.pb_int(1, dtype_code)
    pb += r4.pb_bytes(2, b"".join(r4.pb_bytes(2, r4.pb_int(1, d)) for d in dims))
    if content:
        pb += r4.pb_bytes(4, content)
    return pb + extra


def gen_decoders():
    cat = "decoders"

    def dec(name, op, data, fetch="y", expect=None, extra_inputs=(), **attrs):
        g = G()
        g.const("in0", "string", [], [data])
        names = ["in0"]
        for k, (dtype, vals, shape) in enumerate(extra_inputs):
            names.append(c(g, "in%d" % (k + 1), dtype, vals, shape))
        g.node("y", op, names, **attrs)
        case(cat, name, g, fetch, expect=expect)

    good_png = png(2, 2)
    for label, data in [
            ("good", good_png),
            ("huge_dims", png(2**31 - 1, 2**31 - 1, idat=zlib.compress(b"\0\x80\x80"))),
            ("width_0", png(0, 2, idat=zlib.compress(b"\0\0"))),
            ("wide_rows_short", png(60000, 60000, idat=zlib.compress(b"\0" * 100))),
            ("depth_3", png(2, 2, depth=3)),
            ("color_7", png(2, 2, color=7)),
            ("truncated_idat", good_png[:45]),
            ("no_iend", png(2, 2, end=False)),
            ("idat_garbage", png(2, 2, idat=b"\x78\x9c\xff\xff\xff\xff")),
            ("ihdr_short", png(2, 2, ihdr=b"\0\0\0\2")),
            ("crc_wrong", good_png[:29] + b"\0\0\0\0" + good_png[33:]),
            ("signature_only", b"\x89PNG\r\n\x1a\n"),
            ("palette_missing", png(2, 2, depth=8, color=3)),
            ("depth16_rgba", png(2, 2, depth=16, color=6,
                                 rows=b"".join(b"\0" + b"\x80" * 16 for _ in range(2))))]:
        dec("DecodePng_" + label, "DecodePng", data,
            expect="[[[128]" if label == "good" else None)
        dec("DecodeImage_png_" + label, "DecodeImage", data)
    dec("DecodePng_channels_5", "DecodePng", good_png, channels=i(5))
    dec("DecodePng_channels_negative", "DecodePng", good_png, channels=i(-1))
    dec("DecodePng_dtype_float", "DecodePng", good_png, dtype=ty("float"))
    sof = JPEG_2x2.index(b"\xff\xc0")

    def jpeg_dims(h, w):
        return JPEG_2x2[:sof + 5] + struct.pack(">HH", h, w) + JPEG_2x2[sof + 9:]

    for label, data in [("good", JPEG_2x2), ("dims_max", jpeg_dims(65535, 65535)),
                        ("dims_zero", jpeg_dims(0, 2)), ("truncated", JPEG_2x2[:sof + 20]),
                        ("no_eoi", JPEG_2x2[:-2]), ("soi_only", b"\xff\xd8"),
                        ("sof_components_9", JPEG_2x2[:sof + 9] + b"\x09" +
                         JPEG_2x2[sof + 10:]),
                        ("garbage_after_soi", b"\xff\xd8" + b"\xff" * 100)]:
        dec("DecodeJpeg_" + label, "DecodeJpeg", data)
        dec("ExtractJpegShape_" + label, "ExtractJpegShape", data,
            expect="[2 2 3]" if label == "good" else None)
        dec("DecodeImage_jpeg_" + label, "DecodeImage", data)
    dec("DecodeJpeg_ratio_3", "DecodeJpeg", JPEG_2x2, ratio=i(3))
    dec("DecodeJpeg_ratio_0", "DecodeJpeg", JPEG_2x2, ratio=i(0))
    dec("DecodeJpeg_channels_2", "DecodeJpeg", JPEG_2x2, channels=i(2))
    dec("DecodeJpeg_acceptable_fraction_nan", "DecodeJpeg", JPEG_2x2[:sof + 200],
        try_recover_truncated=b_(True), acceptable_fraction=f(float("nan")))
    dec("DecodeJpeg_dct_unknown", "DecodeJpeg", JPEG_2x2, dct_method=s("NOPE"))
    for label, window in [("good", [0, 0, 1, 1]), ("past", [1, 1, 2, 2]),
                          ("negative", [-1, 0, 1, 1]), ("zero", [0, 0, 0, 0]),
                          ("huge", [0, 0, INT32_MAX, INT32_MAX]), ("short", [0, 0, 1])]:
        dec("DecodeAndCropJpeg_" + label, "DecodeAndCropJpeg", JPEG_2x2,
            extra_inputs=[("int32", window, [len(window)])])
    for label, data in [
            ("good", GIF_2x2),
            ("screen_huge", GIF_2x2[:6] + b"\xff\xff\xff\xff" + GIF_2x2[10:]),
            ("frame_outside_screen", GIF_2x2[:23] + b"\xff\x00" + GIF_2x2[25:]),
            ("frame_huge", GIF_2x2[:27] + b"\xff\xff\xff\xff" + GIF_2x2[31:]),
            ("truncated", GIF_2x2[:20]), ("header_only", b"GIF89a"),
            ("no_frames", GIF_2x2[:23] + b"\x3b")]:
        dec("DecodeGif_" + label, "DecodeGif", data)
        dec("DecodeImage_gif_" + label, "DecodeImage", data)
    for label, data in [("good", bmp(2, 2)), ("top_down", bmp(2, -2)),
                        ("huge", bmp(2**30, 2**30)), ("width_negative", bmp(-2, 2)),
                        ("height_min", bmp(2, -(2**31))), ("bpp_1", bmp(2, 2, bpp=1)),
                        ("bpp_0", bmp(2, 2, bpp=0)), ("data_short", bmp(4, 4, data=b"\0" * 8)),
                        ("offset_past", bmp(2, 2, offset=10**6)),
                        ("offset_negative", bmp(2, 2, offset=2**32 - 10)),
                        ("header_short", bmp(2, 2)[:20])]:
        dec("DecodeBmp_" + label, "DecodeBmp", data)
        dec("DecodeImage_bmp_" + label, "DecodeImage", data)
    for label, data, attrs in [
            ("good", wav(), {}), ("channels_0", wav(channels=0), {}),
            ("bits_7", wav(bits=7), {}), ("bits_0", wav(bits=0), {}),
            ("data_size_lies", wav(data_size=2**31), {}),
            ("riff_size_lies", wav(riff_size=2**32 - 1), {}),
            ("fmt_size_8", wav(fmt_size=8), {}), ("fmt_size_huge", wav(fmt_size=100000), {}),
            ("float_format", wav(fmt_tag=3, bits=32, data=struct.pack("<f", 0.5)), {}),
            ("odd_data", wav(data=b"\x01\x02\x03"), {}),
            ("desired_samples_more", wav(), dict(desired_samples=i(5))),
            ("desired_samples_negative", wav(), dict(desired_samples=i(-5))),
            ("desired_channels_huge", wav(), dict(desired_channels=i(INT32_MAX))),
            ("channels_65535", wav(channels=65535, data=b"\0" * 4), {}),
            ("rate_0", wav(rate=0), {}), ("not_riff", b"RIFX" + wav()[4:], {}),
            ("empty", b"", {})]:
        dec("DecodeWav_" + label, "DecodeWav", data, fetch=["y:0", "y:1"], **attrs)
    for label, audio, shape, rate in [("good", [0.5, -0.5], [2, 1], 8000),
                                      ("rank1", [0.5, -0.5], [2], 8000),
                                      ("rate_negative", [0.5], [1, 1], -1),
                                      ("channels_0", [], [2, 0], 8000),
                                      ("nan", [float("nan"), float("inf")], [2, 1], 8000)]:
        g = G()
        c(g, "a", "float", audio, shape)
        c(g, "r", "int32", rate)
        g.node("w", "EncodeWav", ["a", "r"])
        g.node("y", "DecodeWav", ["w"])
        case(cat, "EncodeWav_roundtrip_" + label, g, ["y:0", "y:1"])
    for label, image, shape, dtype, attrs in [
            ("good", [1, 2, 3, 4], [2, 2, 1], "uint8", {}),
            ("channels_2", [1, 2, 3, 4], [2, 1, 2], "uint8", {}),
            ("channels_5", [1] * 5, [1, 1, 5], "uint8", {}),
            ("empty", [], [0, 2, 1], "uint8", {}),
            ("rank2", [1, 2], [1, 2], "uint8", {}),
            ("compression_20", [1, 2], [1, 2, 1], "uint8", dict(compression=i(20))),
            ("uint16", [1, 60000], [1, 2, 1], "uint16", {})]:
        g = G()
        c(g, "a", dtype, image, shape)
        g.node("p", "EncodePng", ["a"], T=ty(dtype), **attrs)
        g.node("y", "DecodePng", ["p"], dtype=ty(dtype))
        case(cat, "EncodePng_roundtrip_" + label, g, "y")
    # CSV, base64, serialized tensors.
    for label, records, defaults, attrs in [
            ("good", [b"1,2.5,x"], [("int32", [0]), ("float", [0.0]), ("string", [b""])], {}),
            ("too_few_fields", [b"1,2.5"], [("int32", [0]), ("float", [0.0]),
                                            ("string", [b""])], {}),
            ("too_many_fields", [b"1,2,3,4"], [("int32", [0])], {}),
            ("int_overflow", [b"99999999999"], [("int32", [0])], {}),
            ("float_garbage", [b"1e99999"], [("float", [0.0])], {}),
            ("empty_no_default", [b""], [("int32", [])], {}),
            ("quote_unclosed", [b'"abc'], [("string", [b""])], {}),
            ("quote_inner", [b'a"b"c'], [("string", [b""])], {}),
            ("delim_two_chars", [b"1,2"], [("int32", [0]), ("int32", [0])],
             dict(field_delim=s(",,"))),
            ("delim_empty", [b"1,2"], [("int32", [0]), ("int32", [0])], dict(field_delim=s(""))),
            ("select_cols_unsorted", [b"1,2,3"], [("int32", [0]), ("int32", [0])],
             dict(select_cols=li([2, 0]))),
            ("select_cols_past", [b"1,2"], [("int32", [0])], dict(select_cols=li([5]))),
            ("select_cols_negative", [b"1,2"], [("int32", [0])], dict(select_cols=li([-1]))),
            ("default_vector", [b","], [("int32", [1, 2])], {}),
            ("nul_in_record", [b"1\x002"], [("int32", [0])], {})]:
        g = G()
        c(g, "rec", "string", records)
        names = ["rec"]
        for k, (dt, v) in enumerate(defaults):
            names.append(c(g, "d%d" % k, dt, v, [len(v)]))
        g.node("y", "DecodeCSV", names, OUT_TYPE=ltype([d for d, _ in defaults]), **attrs)
        case(cat, "DecodeCSV_" + label, g, ["y:%d" % k for k in range(len(defaults))])
    for label, data in [("good", b"aGVsbG8"), ("padded", b"aGVsbG8="), ("bad_char", b"a$b"),
                        ("length_1", b"a"), ("nul", b"aG\0Vs"), ("long_pad", b"aG=====")]:
        g = G()
        g.const("x", "string", [], [data])
        g.node("y", "DecodeBase64", ["x"])
        case(cat, "DecodeBase64_" + label, g, "y")
    for label, data, out in [
            ("good", tensor_proto(1, [2], struct.pack("<2f", 1, 2)), "float"),
            ("dtype_differs", tensor_proto(3, [2], struct.pack("<2i", 1, 2)), "float"),
            ("content_short", tensor_proto(1, [4], struct.pack("<2f", 1, 2)), "float"),
            ("dims_huge", tensor_proto(1, [2**40, 2**40], struct.pack("<2f", 1, 2)), "float"),
            ("dims_negative", tensor_proto(1, [-3], b""), "float"),
            ("rank_300", tensor_proto(1, [1] * 300, struct.pack("<f", 1)), "float"),
            ("garbage", b"\xff\xff\xff\xff", "float"),
            ("empty", b"", "float"),
            ("string_count", tensor_proto(7, [1000000000], b"", r4.pb_bytes(8, b"a")), "string"),
            ("float_val_many", tensor_proto(1, [3], b"", r4.pb_bytes(5, struct.pack("<f", 1) * 9)),
             "float"),
            ("resource", tensor_proto(20, [], b""), "resource"),
            ("variant", tensor_proto(21, [1], b""), "variant")]:
        g = G()
        g.const("x", "string", [], [data])
        g.node("y", "ParseTensor", ["x"], out_type=ty(out))
        case(cat, "ParseTensor_" + label, g, "y",
             expect="[1. 2.]" if label == "good" else None)


# ---------------------------------------------------------------------------------------------
# Files written and read by ops.


def gen_files():
    cat = "files"

    def save(name, prefix, names, slices, vals, then_restore=False, expect=None, dtypes=None):
        g = G()
        g.const("prefix", "string", [], [prefix])
        c(g, "names", "string", names)
        c(g, "slices", "string", slices)
        ins = []
        for k, v in enumerate(vals):
            ins.append(c(g, "t%d" % k, "float", v))
        g.node("save", "SaveV2", ["prefix", "names", "slices"] + ins,
               dtypes=ltype(dtypes or ["float"] * len(vals)))
        args = ["--target=save"]
        if then_restore:
            g.node("restore", "RestoreV2", ["prefix", "names", "slices"],
                   dtypes=ltype(["float"] * len(vals)))
            args += ["--then", "--fetch=restore"]
        case(cat, "SaveV2_" + name, g, [], args, expect=expect)

    save("roundtrip", "{dir}/ck/model", [b"a"], [b""], [[1.5, 2.5]], True, "[1.5 2.5]")
    save("prefix_empty", "", [b"a"], [b""], [[1.0]])
    save("prefix_is_directory", "{dir}", [b"a"], [b""], [[1.0]])
    save("prefix_root_unwritable", "/proc/rill_no/model", [b"a"], [b""], [[1.0]])
    save("prefix_nul", "{dir}/a\0b", [b"a"], [b""], [[1.0]])
    save("names_short", "{dir}/m", [b"a"], [b""], [[1.0], [2.0]])
    save("names_long", "{dir}/m", [b"a", b"b"], [b"", b""], [[1.0]])
    save("slices_short", "{dir}/m", [b"a", b"b"], [b""], [[1.0], [2.0]])
    save("duplicate_names", "{dir}/m", [b"a", b"a"], [b"", b""], [[1.0], [2.0]], True)
    save("empty_name", "{dir}/m", [b""], [b""], [[1.0]], True)
    save("slice_spec_full", "{dir}/m", [b"a"], [b"2 -"], [[1.0, 2.0]], True)
    save("slice_spec_part", "{dir}/m", [b"a"], [b"4 1,2"], [[1.0, 2.0]], True)
    save("slice_spec_wrong_size", "{dir}/m", [b"a"], [b"4 0,3"], [[1.0, 2.0]])
    save("slice_spec_garbage", "{dir}/m", [b"a"], [b"x y z"], [[1.0]])
    save("dtypes_lie", "{dir}/m", [b"a"], [b""], [[1.0]], dtypes=["int32"])
    save("many_names", "{dir}/m", [b"n%d" % k for k in range(2000)], [b""] * 2000,
         [[float(k)] for k in range(2000)])
    # Saving a file under another case-local file: the parent of the prefix is a file.
    g = G()
    g.const("path", "string", [], [b"{dir}/file"])
    g.const("body", "string", [], [b"x"])
    g.node("w", "WriteFile", ["path", "body"])
    g.const("prefix", "string", [], [b"{dir}/file/model"])
    c(g, "names", "string", [b"a"])
    c(g, "slices", "string", [b""])
    c(g, "t", "float", [1.0])
    g.node("save", "SaveV2", ["prefix", "names", "slices", "t"], dtypes=ltype(["float"]))
    case(cat, "SaveV2_under_a_file", g, [], ["--target=w", "--then", "--target=save"])
    # MergeV2Checkpoints.
    for label, srcs, dst, attrs, first in [
            ("good", [b"{dir}/a", b"{dir}/b"], b"{dir}/m", {}, True),
            ("source_missing", [b"{dir}/a", b"{dir}/nope"], b"{dir}/m", {}, True),
            ("source_missing_allowed", [b"{dir}/a", b"{dir}/nope"], b"{dir}/m",
             dict(allow_missing_files=b_(True)), True),
            ("all_missing", [b"{dir}/nope"], b"{dir}/m", {}, False),
            ("no_sources", [], b"{dir}/m", {}, False),
            ("destination_is_source", [b"{dir}/a"], b"{dir}/a", {}, True),
            ("destination_unwritable", [b"{dir}/a"], b"/proc/rill_no/m", {}, True),
            ("same_source_twice", [b"{dir}/a", b"{dir}/a"], b"{dir}/m", {}, True),
            ("delete_old_dirs", [b"{dir}/sub/a"], b"{dir}/m", dict(delete_old_dirs=b_(True)),
             True)]:
        g = G()
        for k, pref in enumerate([b"{dir}/a", b"{dir}/b", b"{dir}/sub/a"]):
            g.const("p%d" % k, "string", [], [pref])
            c(g, "n%d" % k, "string", [b"v%d" % k])
            c(g, "s%d" % k, "string", [b""])
            c(g, "t%d" % k, "float", [float(k + 1)])
            g.node("save%d" % k, "SaveV2", ["p%d" % k, "n%d" % k, "s%d" % k, "t%d" % k],
                   dtypes=ltype(["float"]))
        c(g, "srcs", "string", srcs)
        g.const("dst", "string", [], [dst])
        g.node("merge", "MergeV2Checkpoints", ["srcs", "dst"], **attrs)
        c(g, "rn", "string", [b"v0"])
        c(g, "rs", "string", [b""])
        g.node("restore", "RestoreV2", ["dst", "rn", "rs"], dtypes=ltype(["float"]))
        args = (["--target=save0", "--target=save1", "--target=save2", "--then"] if first
                else [])
        args += ["--target=merge", "--then", "--fetch=restore"]
        case(cat, "MergeV2Checkpoints_" + label, g, [], args,
             expect="[1.]" if label in ("good", "destination_is_source", "same_source_twice",
                                        "delete_old_dirs", "source_missing_allowed")
             else None)
    for label, shard, num in [("good", 1, 3), ("shard_past", 3, 3), ("shard_negative", -1, 3),
                              ("num_0", 0, 0), ("num_negative", 0, -5),
                              ("huge", INT32_MAX, INT32_MAX)]:
        g = G()
        g.const("base", "string", [], [b"m"])
        c(g, "sh", "int32", shard)
        c(g, "num", "int32", num)
        g.node("y", "ShardedFilename", ["base", "sh", "num"])
        g.node("z", "ShardedFilespec", ["base", "num"])
        case(cat, "ShardedFilename_" + label, g, ["y", "z"],
             expect="b'm-00001-of-00003'" if label == "good" else None)
    for label, path in [("dev_zero", b"/dev/zero"), ("directory", b"{dir}"),
                        ("missing", b"{dir}/nope"), ("empty_name", b""),
                        ("nul_in_name", b"{dir}/x\0y"), ("proc_self_status", b"/proc/self/stat"),
                        ("dev_null", b"/dev/null")]:
        g = G()
        g.const("p", "string", [], [path])
        g.node("y", "ReadFile", ["p"])
        g.node("n", "StringLength", ["y"])
        case(cat, "ReadFile_" + label, g, "n")
    for label, path in [("good", b"{dir}/out/w.txt"), ("directory", b"{dir}"),
                        ("dev_full", b"/dev/full"), ("nul_in_name", b"{dir}/x\0y"),
                        ("empty_name", b""), ("unwritable", b"/proc/rill_no/w")]:
        g = G()
        g.const("p", "string", [], [path])
        g.const("body", "string", [], [b"hello"])
        g.node("w", "WriteFile", ["p", "body"])
        g.node("y", "ReadFile", ["p"])
        case(cat, "WriteFile_" + label, g, [], ["--target=w", "--then", "--fetch=y"],
             expect="b'hello'" if label == "good" else None)
    # Lookup tables initialized from text files.
    vocab = b"a\t10\nb\t20\nc\t30\n"
    for label, content, attrs, kd, vd in [
            ("good_line_number", vocab, dict(key_index=i(0), value_index=i(-1)), "string",
             "int64"),
            ("good_column", vocab, dict(key_index=i(0), value_index=i(1)), "string", "int64"),
            ("value_column_past", vocab, dict(key_index=i(0), value_index=i(5)), "string",
             "int64"),
            ("key_column_past", vocab, dict(key_index=i(7), value_index=i(-1)), "string",
             "int64"),
            ("index_minus_3", vocab, dict(key_index=i(-3), value_index=i(-1)), "string",
             "int64"),
            ("vocab_size_larger", vocab, dict(key_index=i(0), value_index=i(-1),
                                              vocab_size=i(10)), "string", "int64"),
            ("vocab_size_smaller", vocab, dict(key_index=i(0), value_index=i(-1),
                                               vocab_size=i(2)), "string", "int64"),
            ("value_not_number", b"a\tx\n", dict(key_index=i(0), value_index=i(1)), "string",
             "int64"),
            ("value_overflow", b"a\t99999999999999999999\n",
             dict(key_index=i(0), value_index=i(1)), "string", "int64"),
            ("key_whole_line_int", b"12\n-3\n", dict(key_index=i(-1), value_index=i(-2)),
             "int64", "int64"),
            ("duplicate_keys", b"a\na\n", dict(key_index=i(0), value_index=i(-1)), "string",
             "int64"),
            ("delimiter_empty", vocab, dict(key_index=i(0), value_index=i(1), delimiter=s("")),
             "string", "int64"),
            ("delimiter_long", vocab, dict(key_index=i(0), value_index=i(1),
                                           delimiter=s("\t\t")), "string", "int64"),
            ("offset_past", vocab, dict(key_index=i(0), value_index=i(-1), offset=i(100)),
             "string", "int64"),
            ("empty_file", b"", dict(key_index=i(0), value_index=i(-1)), "string", "int64"),
            ("missing_file", None, dict(key_index=i(0), value_index=i(-1)), "string", "int64")]:
        g = G()
        g.node("t", "HashTableV2", key_dtype=ty(kd), value_dtype=ty(vd))
        g.const("fname", "string", [], [b"{dir}/vocab.txt"])
        g.node("init", "InitializeTableFromTextFileV2", ["t", "fname"], **attrs)
        if kd == "string":
            c(g, "k", "string", [b"a", b"c", b"zz"])
        else:
            c(g, "k", "int64", [12, -3, 5])
        c(g, "dflt", vd, -1)
        g.node("y", "LookupTableFindV2", ["t", "k", "dflt"], Tin=ty(kd), Tout=ty(vd))
        case(cat, "TextFileTable_" + label, g, [], ["--target=init", "--then", "--fetch=y"],
             files={"vocab.txt": content} if content is not None else {})


# ---------------------------------------------------------------------------------------------
# Dead tensors and loops.


def gen_dead():
    cat = "dead_tensors"

    def sw(pred_vals, pred_shape=None):
        g = G()
        c(g, "x", "float", [1.0, 2.0])
        c(g, "p", "bool", pred_vals, pred_shape)
        g.node("sw", "Switch", ["x", "p"], T=ty("float"))
        return g

    g = sw(False)
    case(cat, "fetch_untaken_branch", g, "sw:1")
    case(cat, "fetch_taken_branch", g, "sw:0", expect="[1. 2.]")
    case(cat, "fetch_both_branches", g, ["sw:0", "sw:1"])
    g = sw(False)
    g.node("y", "Identity", ["sw:1"], T=ty("float"))
    case(cat, "fetch_identity_of_dead", g, "y")
    g = sw(False)
    g.node("y", "Neg", ["sw:1"], T=ty("float"))
    g.node("z", "Neg", ["sw:0"], T=ty("float"))
    case(cat, "target_dead_node", g, [], ["--target=y", "--fetch=z"], expect="[-1. -2.]")
    g = sw(False)
    g.node("y", "Merge", ["sw:1", "sw:1"], T=ty("float"), N=i(2))
    case(cat, "merge_of_dead_only", g, "y")
    g = sw(False)
    g.node("y", "Merge", ["sw:1", "sw:0"], T=ty("float"), N=i(2))
    case(cat, "merge_dead_and_live", g, ["y:0", "y:1"], expect="[1. 2.]")
    g = sw(False)
    g.node("a", "Neg", ["sw:1"], T=ty("float"))
    g.node("y", "Add", ["a", "sw:0"], T=ty("float"))
    case(cat, "add_of_dead_and_live", g, "y")
    g = sw(False)
    g.node("a", "Neg", ["sw:1"], T=ty("float"))
    g.node("t", "ControlTrigger", ["^a"])
    g.node("y", "Identity", ["sw:0", "^t"], T=ty("float"))
    case(cat, "control_trigger", g, "y", expect="[1. 2.]")
    g = sw(False)
    g.node("a", "Neg", ["sw:1"], T=ty("float"))
    g.node("y", "Identity", ["sw:0", "^a"], T=ty("float"))
    case(cat, "control_edge_from_dead", g, "y")
    case(cat, "pred_vector", sw([True, False]), "sw:0")
    case(cat, "pred_empty", sw([], [0]), "sw:0")
    case(cat, "pred_matrix", sw([True], [1, 1]), "sw:1")
    g = G()
    c(g, "x", "float", [1.0, 2.0])
    c(g, "p", "int32", 1)
    g.node("sw", "Switch", ["x", "p"], T=ty("float"))
    case(cat, "pred_int32", g, "sw:1")
    g = G()
    c(g, "x", "float", [1.0, 2.0])
    g.node("p", "Placeholder", dtype=ty("bool"))
    g.node("sw", "Switch", ["x", "p"], T=ty("float"))
    case(cat, "pred_fed_vector", g, "sw:1", ["--feed=p={dir}/p.npy"],
         files={"p.npy": r4.npy("|b1", (2,), b"\x01\x00")})
    case(cat, "pred_unfed", g, "sw:1")
    # A loop whose LoopCond gets a vector, one whose cond is always true under a deadline, and
    # a loop whose Enter has negative parallel_iterations.

    def loop(cond_vals=None, always=False, pi=10, body_op="Add"):
        g = G()
        c(g, "x", "float", 0.0)
        c(g, "lim", "float", 3.0)
        c(g, "one", "float", 1.0)
        g.node("e", "Enter", ["x"], T=ty("float"), frame_name=s("L"), is_constant=b_(False),
               parallel_iterations=i(pi))
        g.node("l", "Enter", ["lim"], T=ty("float"), frame_name=s("L"), is_constant=b_(True),
               parallel_iterations=i(pi))
        g.node("o", "Enter", ["one"], T=ty("float"), frame_name=s("L"), is_constant=b_(True),
               parallel_iterations=i(pi))
        g.node("m", "Merge", ["e", "ni"], T=ty("float"), N=i(2))
        if cond_vals is not None:
            c(g, "cv", "bool", cond_vals)
            g.node("cve", "Enter", ["cv"], T=ty("bool"), frame_name=s("L"),
                   is_constant=b_(True), parallel_iterations=i(pi))
            g.node("lc", "LoopCond", ["cve"])
        elif always:
            g.node("lt", "GreaterEqual", ["m", "m"], T=ty("float"))
            g.node("lc", "LoopCond", ["lt"])
        else:
            g.node("lt", "Less", ["m", "l"], T=ty("float"))
            g.node("lc", "LoopCond", ["lt"])
        g.node("sw", "Switch", ["m", "lc"], T=ty("float"))
        g.node("add", body_op, ["sw:1", "o"], T=ty("float"))
        g.node("ni", "NextIteration", ["add"], T=ty("float"))
        g.node("y", "Exit", ["sw"], T=ty("float"))
        return g

    case(cat, "loop_good", loop(), "y", expect="3.0")
    case(cat, "loop_cond_vector", loop(cond_vals=[True, False]), "y")
    case(cat, "loop_cond_empty", loop(cond_vals=[]), "y")
    case(cat, "loop_forever_timeout", loop(always=True), "y",
         config="operation_timeout_in_ms: 1500")
    case(cat, "loop_forever_timeout_one_thread", loop(always=True), "y",
         config="operation_timeout_in_ms: 1500 inter_op_parallelism_threads: 1 "
                "intra_op_parallelism_threads: 1")
    case(cat, "loop_parallel_iterations_negative", loop(pi=-1), "y")
    case(cat, "loop_parallel_iterations_1", loop(pi=1), "y", expect="3.0")
    case(cat, "loop_parallel_iterations_huge", loop(pi=INT32_MAX), "y", expect="3.0")
    g = loop()
    g.nodes = [n.replace('value { s: "L" }', 'value { s: "M" }', 1)
               if n.startswith('node { name: "o"') else n for n in g.nodes]
    case(cat, "loop_constant_in_other_frame", g, "y")
    g = loop()
    g.nodes = [n.replace('value { i: 10 }', 'value { i: 3 }')
               if n.startswith('node { name: "l"') else n for n in g.nodes]
    case(cat, "loop_parallel_iterations_mismatch", g, "y")
    g = loop()
    g.nodes = [n for n in g.nodes if not n.startswith('node { name: "y"')]
    case(cat, "loop_fetch_inside_frame", g, "add")


# ---------------------------------------------------------------------------------------------
# Strings holding NUL bytes through every string op, separators and templates that are empty or
# NUL, and outputs whose size multiplies an input string's length.


def gen_strings():
    cat = "strings"
    nul = b"a\0b\0\0c"

    def sop(name, op, strings, extra=(), fetch="y", shape=None, expect=None, **attrs):
        g = G()
        c(g, "x", "string", strings, shape)
        names = ["x"]
        for k, (dtype, vals, shp_) in enumerate(extra):
            names.append(c(g, "e%d" % k, dtype, vals, shp_))
        g.node("y", op, names, **attrs)
        case(cat, name, g, fetch, expect=expect)

    sop("StringLength_nul", "StringLength", [nul], expect="[6]")
    sop("StringLength_nul_utf8", "StringLength", [nul], unit=s("UTF8_CHAR"), expect="[6]")
    sop("StringUpper_nul", "StringUpper", [nul])
    sop("StringLower_nul", "StringLower", [b"A\0B"])
    sop("StringStrip_nul", "StringStrip", [b" \0 a \0 "])
    sop("StringToNumber_nul", "StringToNumber", [b"12\0" + b"3"], out_type=ty("float"))
    sop("StringToNumber_only_nul", "StringToNumber", [b"\0"], out_type=ty("int32"))
    sop("StringToNumber_int64_edge", "StringToNumber", [b"9223372036854775808"],
        out_type=ty("int64"))
    sop("StringToNumber_hex", "StringToNumber", [b"0x10"], out_type=ty("int32"))
    sop("StringToNumber_spaces", "StringToNumber", [b" 5 "], out_type=ty("int32"))
    sop("StringToNumber_nan_text", "StringToNumber", [b"nan", b"-inf", b"1e400"],
        out_type=ty("float"))
    for label, sep in [("nul", b"\0"), ("empty", b""), ("long", b"\0\0\0\0\0\0\0\0")]:
        sop("StringSplit_%s" % label, "StringSplit", [nul],
            extra=[("string", sep, [])], fetch=["y:0", "y:1", "y:2"])
        sop("StringSplitV2_%s" % label, "StringSplitV2", [nul],
            extra=[("string", sep, [])], fetch=["y:0", "y:1", "y:2"], maxsplit=i(-1))
        sop("StringJoin_%s" % label, "StringJoin", [nul, b"x"], separator=s(sep), N=i(1))
        sop("ReduceJoin_%s" % label, "ReduceJoin", [nul, b"x"],
            extra=[("int32", 0, [])], separator=s(sep))
    sop("StringSplitV2_maxsplit_huge", "StringSplitV2", [nul], extra=[("string", b"\0", [])],
        fetch=["y:0", "y:1", "y:2"], maxsplit=i(INT32_MAX))
    sop("StringSplitV2_maxsplit_0", "StringSplitV2", [nul], extra=[("string", b"\0", [])],
        fetch=["y:0", "y:1", "y:2"], maxsplit=i(0))
    sop("StringSplit_skip_empty_false", "StringSplit", [b"\0\0"],
        extra=[("string", b"\0", [])], fetch=["y:0", "y:1", "y:2"], skip_empty=b_(False))
    sop("StringSplit_delimiter_vector", "StringSplit", [nul],
        extra=[("string", [b"a", b"b"], [2])], fetch=["y:0", "y:1", "y:2"])
    sop("ReduceJoin_axis_past", "ReduceJoin", [b"a", b"b"], extra=[("int32", 3, [])])
    sop("ReduceJoin_axis_negative_past", "ReduceJoin", [b"a", b"b"],
        extra=[("int32", -3, [])])
    sop("ReduceJoin_axes_repeated", "ReduceJoin", [b"a", b"b", b"c", b"d"], shape=[2, 2],
        extra=[("int32", [0, 0], [2])])
    sop("StringJoin_shapes_differ", "StringJoin", [b"a", b"b"], N=i(1))
    g = G()
    c(g, "x", "string", [b"a", b"b"])
    c(g, "z", "string", [b"a", b"b", b"c"])
    g.node("y", "StringJoin", ["x", "z"], N=i(2), separator=s("\0"))
    case(cat, "StringJoin_lengths_differ", g, "y")
    for label, pattern, rewrite in [("nul_pattern", b"\0", b"<>"),
                                    ("nul_in_class", b"[\0-\x01]+", b"."),
                                    ("nul_rewrite", b"a", b"\0\0"),
                                    ("backref_past", b"(a)", b"\\9"),
                                    ("empty_pattern", b"", b"-")]:
        sop("StaticRegexReplace_" + label, "StaticRegexReplace", [nul], pattern=s(pattern),
            rewrite=s(rewrite), replace_global=b_(True))
        sop("RegexReplace_" + label, "RegexReplace", [nul],
            extra=[("string", pattern, []), ("string", rewrite, [])], replace_global=b_(True))
    sop("RegexFullMatch_nul", "RegexFullMatch", [nul], extra=[("string", b"a.b..c", [])],
        expect="[ True]")
    sop("RegexFullMatch_pattern_vector", "RegexFullMatch", [nul],
        extra=[("string", [b"a", b"b"], [2])])
    sop("StaticRegexFullMatch_nul", "StaticRegexFullMatch", [nul], pattern=s(b"a\0b.*"),
        expect="[ True]")
    for op in ("StringToHashBucketFast", "StringToHashBucket"):
        for label, n in [("nul", 10), ("buckets_0", 0), ("buckets_negative", -1)]:
            sop("%s_%s" % (op, label), op, [nul], num_buckets=i(n))
    for label, key, n in [("nul", [1, 2], 10), ("key_short", [1], 10), ("key_long", [1, 2, 3], 10),
                          ("buckets_0", [1, 2], 0)]:
        sop("StringToHashBucketStrong_" + label, "StringToHashBucketStrong", [nul],
            num_buckets=i(n), key=li(key))
    for label, template, ph, summ in [("good", "x={}", "{}", 3), ("nul", "\0{}\0", "{}", 3),
                                      ("too_many_placeholders", "{} {}", "{}", 3),
                                      ("too_few_placeholders", "none", "{}", 3),
                                      ("placeholder_empty", "ab", "", 3),
                                      ("summarize_negative", "{}", "{}", -5),
                                      ("summarize_0", "{}", "{}", 0),
                                      ("placeholder_printf", "%n%s{}", "{}", 3)]:
        g = G()
        c(g, "x", "float", [float(k) for k in range(10)])
        g.node("y", "StringFormat", ["x"], T=ltype(["float"]), template=s(template),
               placeholder=s(ph), summarize=i(summ))
        case(cat, "StringFormat_" + label, g, "y")
    for label, attrs in [("good", {}), ("separator_nul", dict(separator=s("\0"))),
                         ("width_negative", dict(ngram_widths=li([-1]))),
                         ("width_0", dict(ngram_widths=li([0]))),
                         ("width_huge", dict(ngram_widths=li([INT32_MAX]))),
                         ("pad_width_huge", dict(pad_width=i(INT32_MAX))),
                         ("pad_width_negative_2", dict(pad_width=i(-2))),
                         ("pad_nul", dict(left_pad=s("\0"), right_pad=s("\0"), pad_width=i(1)))]:
        a = dict(separator=s(" "), ngram_widths=li([2]), left_pad=s("L"), right_pad=s("R"),
                 pad_width=i(0), preserve_short_sequences=b_(False), Tsplits=ty("int64"))
        a.update(attrs)
        sop("StringNGrams_" + label, "StringNGrams", [b"a", nul, b"c"],
            extra=[("int64", [0, 3], [2])], fetch=["y:0", "y:1"], **a)
    for label, splits in [("splits_past", [0, 9]), ("splits_decreasing", [0, 3, 1]),
                          ("splits_empty", [])]:
        sop("StringNGrams_" + label, "StringNGrams", [b"a", b"b", b"c"],
            extra=[("int64", splits, [len(splits)])], fetch=["y:0", "y:1"], separator=s(" "),
            ngram_widths=li([2]), left_pad=s("L"), right_pad=s("R"), pad_width=i(0),
            preserve_short_sequences=b_(False), Tsplits=ty("int64"))
    sop("EncodeBase64_nul", "EncodeBase64", [nul], expect="[b'YQBiAABj']")
    sop("Substr_nul", "Substr", [nul], extra=[("int32", [1], [1]), ("int32", [3], [1])],
        T=ty("int32"), expect="[b'\\x00b\\x00']")
    sop("AsString_of_string", "AsString", [nul], T=ty("string"))
    # Outputs whose size multiplies an input string's length: a 1 MB string tiled, joined and
    # padded to 10 GB must be ResourceExhausted (or computed), never abort.
    big = b"z" * (1 << 20)
    for label, op, extra, attrs in [
            ("Tile", "Tile", [("int32", [10000], [1])], dict(T=ty("string"))),
            ("BroadcastTo", "BroadcastTo", [("int32", [10000], [1])], dict(T=ty("string"))),
            ("Fill_then_join", None, None, None)]:
        g = G()
        c(g, "x", "string", [big])
        if op is None:
            c(g, "dims", "int32", [10000])
            c(g, "s", "string", big)
            g.node("f", "Fill", ["dims", "s"], T=ty("string"))
            c(g, "ax", "int32", 0)
            g.node("y", "ReduceJoin", ["f", "ax"])
            g.node("n", "StringLength", ["y"])
        else:
            names = ["x"]
            for k, (dtype, vals, shp_) in enumerate(extra):
                names.append(c(g, "e%d" % k, dtype, vals, shp_))
            g.node("y", op, names, **attrs)
            g.node("n", "StringLength", ["y"])
            g.node("sum", "Sum", ["n", "ax"], T=ty("int32"))
            c(g, "ax", "int32", 0)
        case(cat, "amplify_%s_10GB" % label, g, "n" if op is None else "sum")
    g = G()
    c(g, "x", "string", [big])
    c(g, "m", "int32", [12000])
    g.node("t", "Tile", ["x", "m"], T=ty("string"))
    c(g, "ax", "int32", 0)
    g.node("y", "ReduceJoin", ["t", "ax"])
    g.node("n", "StringLength", ["y"])
    case(cat, "amplify_Tile_then_join_12GB", g, "n")
    g = G()
    c(g, "x", "string", [big])
    g.node("y", "StringFormat", ["x"], T=ltype(["string"]), template=s("{}" * 5000),
           placeholder=s("{}"), summarize=i(3))
    g.node("n", "StringLength", ["y"])
    case(cat, "amplify_StringFormat_5000_placeholders", g, "n")


# ---------------------------------------------------------------------------------------------
# Running: crafted_round4's run_one / run_tf with "{dir}" replaced in the graph text too, and
# the printed values of runs that both engines finish compared.

# The errors this round's fixes give (code and message part; a case listed here that runs, or
# fails with another text, is reported as WRONG_ERROR). Each was a run TensorFlow 2.21 refuses
# with the same text, or an I/O failure it reports with the errno's code.
EXPECT_ERRORS = {
    "MaxPoolGrad_orig_output_wrong":
        "InvalidArgument: Expected orig_output shape to be [1,2,2,1], but got [1,3,3,1]",
    "MaxPoolGrad_empty_orig_output":
        "InvalidArgument: Expected orig_output shape to be [1,2,2,1], but got [1,0,2,1]",
    "MaxPool3DGrad_orig_output_wrong":
        "InvalidArgument: Expected orig_output shape to be [1,1,1,1,1], but got [1,2,1,1,1]",
    "BiasAddGrad_nchw_rank2":
        "InvalidArgument: Shape must be at least rank 3 but is rank 2 for node 'y'",
    "BiasAdd_nchw_rank2":
        "InvalidArgument: Shape must be at least rank 3 but is rank 2 for node 'y'",
    "SparseFillEmptyRows_shape_negative":
        "InvalidArgument: Expected shape dimensions to be non-negative, got -3",
    "RaggedTensorToTensor_shape_negative_2":
        "InvalidArgument: Invalid value in tensor used for shape: -2",
    "SaveV2_under_a_file": "FailedPrecondition: ",
    "SaveV2_prefix_root_unwritable": "NotFound: /proc/rill_no; No such file or directory",
    "MergeV2Checkpoints_source_missing":
        "InvalidArgument: allow_missing_files was set to false and ",
    "MergeV2Checkpoints_all_missing": "InvalidArgument: allow_missing_files was set to false and ",
    "MergeV2Checkpoints_destination_unwritable":
        "NotFound: /proc/rill_no; No such file or directory",
}
EXPECT_ERROR_TAILS = {
    "SaveV2_under_a_file": "/file/model.data-00000-of-00001; Not a directory",
    "MergeV2Checkpoints_source_missing": "/nope did not exist.",
    "MergeV2Checkpoints_all_missing": "/nope did not exist.",
}


def with_dir(cs, cdir):
    out = dict(cs)
    if cs["text"] is not None:
        out["text"] = cs["text"].replace("{dir}", cdir)
    return out


def norm(text):
    """The values of printed tensors, without session_runner's `NAME dtype=D shape=[S]` lines."""
    lines = [x for x in text.splitlines() if not re.match(r"^\S+ dtype=\S+ shape=\[.*\]$", x)]
    return " ".join(" ".join(lines).replace("[", " [ ").replace("]", " ] ").split())


# TensorFlow's outcomes in one process (importing TensorFlow per case takes seconds): each case
# runs crafted_round4's TF_WORKER with its own argv; a case that runs past 60 s or kills the
# process is recorded as a hang or crash and the batch goes on from the next case.
TF_BATCH = r"""
import json, os, sys, threading
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
code = compile(open(sys.argv[1]).read(), "tf_worker", "exec")
for c in json.load(open(sys.argv[2])):
    print("@@CASE %d" % c["idx"], flush=True)
    watchdog = threading.Timer(60, lambda: os._exit(124))
    watchdog.start()
    sys.argv = ["tf_worker", c["graph"]] + c["args"]
    try:
        exec(code, {"__name__": "tf_worker"})
    except BaseException as e:
        print("TF_ERR %s: %s" % (type(e).__name__, str(e)[:300]))
    watchdog.cancel()
    print("@@END", flush=True)
"""


def run_tf_batch(work, todo):
    """{idx: (outcome, text)} for the cases `todo` [(idx, case)], as crafted_round4.run_tf."""
    wpath = os.path.join(work, "tf_worker.py")
    with open(wpath, "w") as fh:
        fh.write(r4.TF_WORKER)
    bpath = os.path.join(work, "tf_batch.py")
    with open(bpath, "w") as fh:
        fh.write(TF_BATCH)
    specs = []
    for idx, cs in todo:
        cdir = os.path.join(work, "tf%d" % idx)
        cs = with_dir(cs, cdir)
        os.makedirs(cdir)
        for rel, data in cs["files"].items():
            path = os.path.join(cdir, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as fh:
                fh.write(data)
        gpath = os.path.join(cdir, "graph.pbtxt")
        with open(gpath, "w") as fh:
            fh.write(cs["text"])
        args = [a.replace("{dir}", cdir) for a in cs["args"]]
        if "--then" not in args:
            args += ["--fetch=" + x for x in cs["fetch"]]
        if cs["config"] is not None:
            cpath = os.path.join(cdir, "config.pbtxt")
            with open(cpath, "wb") as fh:
                fh.write(cs["config"] if isinstance(cs["config"], bytes)
                         else cs["config"].encode())
            args.append("--config=" + cpath)
        specs.append(dict(idx=idx, graph=gpath, args=args))
    results = {}
    while specs:
        lpath = os.path.join(work, "tf_cases.json")
        with open(lpath, "w") as fh:
            json.dump(specs, fh)
        p = subprocess.run([sys.executable, bpath, wpath, lpath], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        cur, buf = None, []
        for line in p.stdout.decode(errors="replace").splitlines():
            if line.startswith("@@CASE "):
                cur, buf = int(line.split()[1]), []
            elif line == "@@END":
                out = "\n".join(buf).strip()
                if out.endswith("TF_OK"):
                    results[cur] = ("ok", out[:-len("TF_OK")].strip())
                else:
                    last = out.splitlines()[-1] if out else ""
                    results[cur] = ("error", last[len("TF_ERR "):] if last.startswith(
                        "TF_ERR ") else last)
                cur = None
            elif cur is not None:
                buf.append(line)
        if cur is not None:
            results[cur] = ("hang" if p.returncode == 124 else "crash",
                            "rc=%d %s" % (p.returncode, p.stderr.decode(errors="replace")[-300:]))
        done = set(results)
        specs = [sp for sp in specs if sp["idx"] not in done]
        if cur is None and specs:  # the process ended between cases: nothing more will come
            for sp in specs:
                results[sp["idx"]] = ("crash", "rc=%d" % p.returncode)
            specs = []
    for idx, _ in todo:
        shutil.rmtree(os.path.join(work, "tf%d" % idx), ignore_errors=True)
    return results


def main():
    argv = sys.argv[1:]
    if not argv or argv[0].startswith("-"):
        print(__doc__)
        return 2
    runner = os.path.abspath(argv[0])
    only = out_dir = tf_file = None
    for a in argv[1:]:
        if a.startswith("--only="):
            only = a[len("--only="):]
        elif a.startswith("--out="):
            out_dir = a[len("--out="):]
        elif a.startswith("--tf="):
            tf_file = a[len("--tf="):]
    gen_grad_shapes()
    gen_sparse()
    gen_ragged()
    gen_decoders()
    gen_files()
    gen_dead()
    gen_strings()
    work = tempfile.mkdtemp(prefix="crafted6_")
    counts = {}
    bad = 0
    results = []
    tf_rows = []
    try:
        selected = [(idx, cs) for idx, cs in enumerate(r4.CASES)
                    if not only or only in cs["name"] or only == cs["cat"]]
        tf_results = run_tf_batch(work, selected) if tf_file else {}
        for idx, cs in selected:
            cdir = os.path.join(work, "case%d" % idx)
            outcome, rc, out, err, _ = r4.run_one(runner, work, idx, with_dir(cs, cdir))
            last = err.strip().splitlines()[-1] if err.strip() else ""
            want = EXPECT_ERRORS.get(cs["name"])
            if want is not None and (want not in err or
                                     EXPECT_ERROR_TAILS.get(cs["name"], "") not in err):
                outcome, last = "wrong_error", "want '%s', got: %s" % (want, " | ".join(
                    x.strip() for x in (err.strip() or out.strip()).splitlines()[-3:]))
            if tf_file:
                tf_outcome, tf_text = tf_results[idx]
                rill_text = out.strip() if outcome == "ok" else " | ".join(
                    x.strip() for x in err.strip().splitlines()[-3:])
                tf_rows.append((cs["name"], outcome, tf_outcome, rill_text, tf_text))
                if (outcome == "ok") != (tf_outcome == "ok"):
                    print("DIFFERS %s rill=%s tf=%s | %s | %s" % (
                        cs["name"], outcome, tf_outcome, rill_text[:200], tf_text[:200]),
                        flush=True)
                elif outcome == "ok" and norm(out) != norm(tf_text):
                    print("VALUE_DIFFERS %s rill=%s tf=%s" % (cs["name"], norm(out)[:200],
                                                               norm(tf_text)[:200]), flush=True)
            counts.setdefault(cs["cat"], {}).setdefault(outcome, 0)
            counts[cs["cat"]][outcome] += 1
            results.append((cs["cat"], cs["name"], outcome, rc, last, out.strip()))
            if outcome in ("crash", "hang", "no_message", "wrong", "wrong_error"):
                bad += 1
                print("%s %s rc=%d %s %s" % (outcome.upper(), cs["name"], rc, last[:300],
                                             out.strip()[:200] if outcome == "wrong" else ""),
                      flush=True)
            if out_dir and cs["text"] is not None:
                os.makedirs(os.path.join(out_dir, "cases"), exist_ok=True)
                with open(os.path.join(out_dir, "cases", cs["name"] + ".pbtxt"), "w") as fh:
                    fh.write(cs["text"])
            shutil.rmtree(cdir, ignore_errors=True)
        if out_dir:
            os.makedirs(out_dir, exist_ok=True)
            with open(os.path.join(out_dir, "results.tsv"), "w") as fh:
                for r in results:
                    fh.write("\t".join(str(x).replace("\n", "\\n").replace("\t", " ")
                                       for x in r) + "\n")
        if tf_file:
            with open(tf_file, "w") as fh:
                for r in tf_rows:
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
    print("cases run: %d, crashed/hung/no message/wrong value or error: %d" % (total, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
