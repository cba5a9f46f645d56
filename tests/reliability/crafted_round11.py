#!/usr/bin/env python3
"""Crafted round 11 (issue 26): hostile inputs to the sequence fusions, atrous fold,
deconvolution and recurrent block ops.

The ops are the held-out sweep's (BlockLSTM, BlockLSTMV2, LSTMBlockCell, GRUBlockCell,
NonMaxSuppressionWithOverlaps, FusedPadConv2D, FusedResizeAndPadConv2D), Conv2DBackpropInput (now
on oneDNN's deconvolution for float with finite weights) and the atrous fold (SpaceToBatchND ->
Conv2D / DepthwiseConv2dNative -> BatchToSpaceND becoming one dilated convolution). Each family
takes a fixed list of hostile cases (zero-size dims of every kind, shapes one off, NaN and
infinite values and attrs, huge sizes, strides and dilations, sizes whose product overflows,
crops past what the convolution gives) and random ones drawn from the seed around them.

Cases where TensorFlow 2.21 aborts the process are left out (it checks with CHECK where Rill
returns InvalidArgument): BlockLSTM / BlockLSTMV2 with seq_len_max below 0 or above the time
steps, LSTMBlockCell with an x that is not a matrix.

It records with crafted_round9.py's recorder (each graph run in TensorFlow 2.21 with Grappler and
oneDNN off) into tests/reliability/data/crafted_round11.pbtxt.gz, which
//tests/reliability:crafted_round11_test replays through a Session with the optimizer on and off
(crafted_replay.h). Tolerance 1e-4 relative plus 1e-4 of the case's largest finite output: the
recurrent cells' products and the convolutions sum in another order than TensorFlow's.

Usage (from the repository root; TensorFlow only to regenerate):
    python3 tests/reliability/crafted_round11.py [--seed=11] [--out=FILE] [--only=FAMILY] [-n N]
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import crafted_cases  # noqa: E402
import crafted_round9 as r9  # noqa: E402  (sets TF_ENABLE_ONEDNN_OPTS=0 before TensorFlow)
import numpy as np  # noqa: E402
from crafted_cases import INF, NAN, poison, uniform  # noqa: E402,F401

tf, raw = r9.tf, r9.raw
RTOL = 1e-4
atol = crafted_cases.scaled_atol(1e-4)  # 1e-4 of the largest finite output (at least 1e-4)


def case(g, family, what, inputs, build, modes=None):
    g.case(family, what, inputs, build, rtol=RTOL, atol=atol, modes=modes)


# --- BlockLSTM, BlockLSTMV2, LSTMBlockCell ------------------------------------------------------

def lstm_inputs(g, T, B, I, C, bad=None):
    """x [T, B, I], cs / h [B, C], w [I + C, 4C], wci / wcf / wco [C], b [4C]; `bad` names one
    to give a shape one off."""
    shapes = {"x": (T, B, I), "cs": (B, C), "h": (B, C), "w": (I + C, 4 * C), "wci": (C,),
              "wcf": (C,), "wco": (C,), "b": (4 * C,)}
    if bad:
        s = list(shapes[bad])
        s[-1] += 1
        shapes[bad] = tuple(s)
    return [(k, uniform(g, *v)) for k, v in shapes.items()]


def fam_block_lstm(g, n):
    fixed = [("ok", 3, 2, 3, 4, None, {}), ("T0", 0, 2, 3, 4, None, {}),
             ("B0", 3, 0, 3, 4, None, {}), ("C0", 3, 2, 3, 0, None, {}),
             ("I0", 3, 2, 0, 4, None, {}), ("slm_less", 3, 2, 3, 4, None, {"slm": 1}),
             ("slm0", 3, 2, 3, 4, None, {"slm": 0}),
             ("clip_nan", 3, 2, 3, 4, None, {"clip": NAN}),
             ("clip_inf", 3, 2, 3, 4, None, {"clip": INF}),
             ("clip_neg", 3, 2, 3, 4, None, {"clip": -1.0}),
             ("clip_zero", 3, 2, 3, 4, None, {"clip": 0.0}),
             ("no_peephole", 3, 2, 3, 4, None, {"peep": False}),
             ("forget_nan", 3, 2, 3, 4, None, {"fb": NAN}),
             ("forget_inf", 3, 2, 3, 4, None, {"fb": -INF}),
             ("poisoned", 3, 2, 3, 4, None, {"poison": True})]
    fixed += [("bad_" + k, 3, 2, 3, 4, k, {}) for k in
              ("x", "cs", "h", "w", "wci", "wcf", "wco", "b")]
    draws = []
    for i in range(n):
        r = g.r
        draws.append(("random%d" % i, r.randint(0, 4), r.randint(0, 3), r.randint(0, 3),
                      r.randint(0, 4), None, {"poison": r.random() < 0.5,
                                              "clip": r.choice([-1.0, 0.0, 0.5, 3.0, NAN]),
                                              "peep": r.random() < 0.5}))
    for v2 in (False, True):
        family = "BlockLSTMV2" if v2 else "BlockLSTM"
        for what, T, B, I, C, bad, opt in fixed + draws:
            if v2 and "fb" in opt:
                continue
            inputs = lstm_inputs(g, T, B, I, C, bad)
            if opt.get("poison"):
                inputs = [(k, poison(g, v)) for k, v in inputs]
            slm = np.int64(opt.get("slm", T))
            if bad == "x":  # a rank-2 x: TensorFlow's "x must be 3D"
                inputs[0] = ("x", uniform(g, B, I))
                slm = np.int64(0)

            def build(x, cs, h, w, wci, wcf, wco, b, slm=slm, opt=opt, v2=v2):
                common = dict(seq_len_max=tf.constant(slm), x=x, cs_prev=cs, h_prev=h, w=w,
                              wci=wci, wcf=wcf, wco=wco, b=b, cell_clip=opt.get("clip", 3.0),
                              use_peephole=opt.get("peep", True))
                if v2:
                    out = raw.BlockLSTMV2(**common)
                else:
                    out = raw.BlockLSTM(forget_bias=opt.get("fb", 1.0), **common)
                # cs and h: TensorFlow leaves the gates past seq_len_max unwritten.
                return [out[1], out[6]]

            case(g, family, what, inputs, build)


def fam_lstm_block_cell(g, n):
    fixed = [("ok", 2, 3, 4, None, {}), ("B0", 0, 3, 4, None, {}), ("C0", 2, 3, 0, None, {}),
             ("I0", 2, 0, 4, None, {}), ("forget_nan", 2, 3, 4, None, {"fb": NAN}),
             ("clip_nan", 2, 3, 4, None, {"clip": NAN}), ("poisoned", 2, 3, 4, None,
                                                          {"poison": True})]
    fixed += [("bad_" + k, 2, 3, 4, k, {}) for k in ("cs", "h", "w", "wci", "b")]
    for i in range(n):
        r = g.r
        fixed.append(("random%d" % i, r.randint(0, 3), r.randint(0, 3), r.randint(0, 4), None,
                      {"poison": r.random() < 0.5, "peep": r.random() < 0.5}))
    for what, B, I, C, bad, opt in fixed:
        inputs = lstm_inputs(g, 1, B, I, C, bad)
        inputs[0] = ("x", inputs[0][1][0])
        if opt.get("poison"):
            inputs = [(k, poison(g, v)) for k, v in inputs]

        def build(x, cs, h, w, wci, wcf, wco, b, opt=opt):
            out = raw.LSTMBlockCell(x=x, cs_prev=cs, h_prev=h, w=w, wci=wci, wcf=wcf, wco=wco,
                                    b=b, forget_bias=opt.get("fb", 1.0),
                                    cell_clip=opt.get("clip", 3.0),
                                    use_peephole=opt.get("peep", True))
            return list(out)

        case(g, "LSTMBlockCell", what, inputs, build)


def fam_gru_block_cell(g, n):
    def shapes(B, I, C):
        return {"x": (B, I), "h": (B, C), "w_ru": (I + C, 2 * C), "w_c": (I + C, C),
                "b_ru": (2 * C,), "b_c": (C,)}
    fixed = [("ok", 2, 3, 4, None, False), ("B0", 0, 3, 4, None, False),
             ("C0", 2, 3, 0, None, False), ("I0", 2, 0, 4, None, False),
             ("poisoned", 2, 3, 4, None, True)]
    fixed += [("bad_" + k, 2, 3, 4, k, False) for k in shapes(1, 1, 1)]
    fixed += [("rank1_x", 2, 3, 4, "rank_x", False), ("rank1_h", 2, 3, 4, "rank_h", False)]
    for i in range(n):
        r = g.r
        fixed.append(("random%d" % i, r.randint(0, 3), r.randint(0, 3), r.randint(0, 4), None,
                      r.random() < 0.5))
    for what, B, I, C, bad, poisoned in fixed:
        s = shapes(B, I, C)
        if bad in s:
            s[bad] = s[bad][:-1] + (s[bad][-1] + 1,)
        if bad == "rank_x":
            s["x"] = (I,)
        if bad == "rank_h":
            s["h"] = (C,)
        inputs = [(k, uniform(g, *v)) for k, v in s.items()]
        if poisoned:
            inputs = [(k, poison(g, v)) for k, v in inputs]

        def build(x, h, w_ru, w_c, b_ru, b_c):
            return list(raw.GRUBlockCell(x=x, h_prev=h, w_ru=w_ru, w_c=w_c, b_ru=b_ru, b_c=b_c))

        case(g, "GRUBlockCell", what, inputs, build)


# --- NonMaxSuppressionWithOverlaps --------------------------------------------------------------

def fam_nms_overlaps(g, n):
    fixed = [("ok", 5, 3, 0.5, 0.0, None), ("N0", 0, 3, 0.5, 0.0, None),
             ("max_negative", 5, -1, 0.5, 0.0, None), ("max_huge", 5, 2 ** 31 - 1, 0.5, 0.0, None),
             ("max0", 5, 0, 0.5, 0.0, None), ("overlap_nan", 5, 3, NAN, 0.0, None),
             ("score_nan", 5, 3, 0.5, NAN, None), ("score_-inf", 5, 3, 0.5, -INF, None),
             ("scores_poisoned", 5, 4, 0.5, -INF, "scores"),
             ("overlaps_poisoned", 5, 4, 0.5, 0.0, "overlaps"),
             ("not_square", 5, 3, 0.5, 0.0, "not_square"), ("scores_short", 5, 3, 0.5, 0.0,
                                                              "short")]
    for i in range(n):
        r = g.r
        fixed.append(("random%d" % i, r.randint(0, 6), r.randint(-1, 6),
                      r.choice([0.0, 0.3, 0.5, 1.0, NAN]), r.choice([-INF, 0.0, 0.4, NAN]),
                      r.choice([None, "scores", "overlaps"])))
    for what, N, mos, ot, st, how in fixed:
        overlaps = uniform(g, N, N, lo=0.0, hi=1.0)
        scores = uniform(g, N, lo=0.0, hi=1.0)
        if how == "scores":
            scores = poison(g, scores, 0.4)
        elif how == "overlaps":
            overlaps = poison(g, overlaps, 0.4)
        elif how == "not_square":
            overlaps = uniform(g, N, N - 1, lo=0.0, hi=1.0)
        elif how == "short":
            scores = uniform(g, N - 1, lo=0.0, hi=1.0)
        inputs = [("overlaps", overlaps), ("scores", scores), ("max_output_size", np.int32(mos)),
                  ("overlap_threshold", np.float32(ot)), ("score_threshold", np.float32(st))]

        def build(ov, sc, m, o, s):
            return raw.NonMaxSuppressionWithOverlaps(overlaps=ov, scores=sc, max_output_size=m,
                                                     overlap_threshold=o, score_threshold=s)

        case(g, "NonMaxSuppressionWithOverlaps", what, inputs, build)


# --- FusedPadConv2D, FusedResizeAndPadConv2D ----------------------------------------------------

def fam_fused_pad_conv(g, n):
    P = [[0, 0], [1, 1], [1, 1], [0, 0]]
    fixed = [("ok", (1, 5, 5, 2), P, (3, 3, 2, 3), "REFLECT", 1, "VALID", False),
             ("symmetric", (1, 5, 5, 2), P, (3, 3, 2, 3), "SYMMETRIC", 1, "VALID", False),
             ("same", (2, 5, 4, 2), P, (3, 3, 2, 3), "REFLECT", 2, "SAME", False),
             ("pad_at_dim", (1, 5, 5, 2), [[0, 0], [5, 1], [1, 1], [0, 0]], (3, 3, 2, 3),
              "REFLECT", 1, "VALID", False),
             ("symmetric_pad_dim", (1, 5, 5, 2), [[0, 0], [5, 5], [1, 1], [0, 0]], (3, 3, 2, 3),
              "SYMMETRIC", 1, "VALID", False),
             ("pad_batch", (1, 5, 5, 2), [[1, 0], [1, 1], [1, 1], [0, 0]], (3, 3, 2, 3),
              "REFLECT", 1, "VALID", False),
             ("pad_huge", (1, 5, 5, 2), [[0, 0], [2 ** 30, 1], [1, 1], [0, 0]], (3, 3, 2, 3),
              "REFLECT", 1, "VALID", False),
             ("batch0", (0, 5, 5, 2), P, (3, 3, 2, 3), "REFLECT", 1, "VALID", False),
             ("poisoned", (1, 5, 5, 2), P, (3, 3, 2, 3), "REFLECT", 1, "VALID", True),
             ("stride_huge", (1, 5, 5, 2), P, (3, 3, 2, 3), "REFLECT", 2 ** 30, "VALID", False),
             ("filter0", (1, 5, 5, 2), P, (0, 3, 2, 3), "REFLECT", 1, "VALID", False)]
    for i in range(n):
        r = g.r
        h, w = r.randint(2, 6), r.randint(2, 6)
        pads = [[0, 0], [r.randint(0, h - 1), r.randint(0, h - 1)],
                [r.randint(0, w - 1), r.randint(0, w - 1)], [0, 0]]
        fixed.append(("random%d" % i, (r.randint(1, 2), h, w, 2), pads,
                      (r.randint(1, 3), r.randint(1, 3), 2, 2), r.choice(["REFLECT", "SYMMETRIC"]),
                      r.randint(1, 3), r.choice(["SAME", "VALID"]), r.random() < 0.3))
    for what, xs, pads, fs, mode, stride, padding, poisoned in fixed:
        x = uniform(g, *xs)
        if poisoned:
            x = poison(g, x)
        inputs = [("input", x), ("paddings", np.asarray(pads, np.int32)),
                  ("filter", uniform(g, *fs))]

        def build(x, p, f, mode=mode, stride=stride, padding=padding):
            return raw.FusedPadConv2D(input=x, paddings=p, filter=f, mode=mode,
                                      strides=[1, stride, stride, 1], padding=padding)

        # TensorFlow's shape function needs the paddings and the filter's shape.
        case(g, "FusedPadConv2D", what, inputs, build, modes=[None, "const", "const"])
    sizes = [("ok", (1, 5, 5, 2), [7, 6], P, False), ("align", (1, 5, 5, 2), [7, 6], P, True),
             ("size_huge", (1, 5, 5, 2), [100000, 100000], P, False),
             ("size_int_max", (1, 5, 5, 2), [2 ** 31 - 1, 2], P, False),
             ("pad_past", (1, 5, 5, 2), [3, 3], [[0, 0], [3, 3], [1, 1], [0, 0]], False),
             ("batch0", (0, 5, 5, 2), [7, 6], P, False), ("map0", (1, 0, 5, 2), [7, 6], P, False),
             ("downsize", (1, 9, 9, 2), [4, 3], P, False)]
    for what, xs, size, pads, align in sizes:
        inputs = [("input", uniform(g, *xs)), ("size", np.asarray(size, np.int32)),
                  ("paddings", np.asarray(pads, np.int32)), ("filter", uniform(g, 3, 3, 2, 3))]

        def build(x, s, p, f, align=align):
            return raw.FusedResizeAndPadConv2D(input=x, size=s, paddings=p, filter=f,
                                               resize_align_corners=align, mode="REFLECT",
                                               strides=[1, 1, 1, 1], padding="VALID")

        case(g, "FusedResizeAndPadConv2D", what, inputs, build,
             modes=["const", "const", "const", "const"])


# --- Conv2DBackpropInput ------------------------------------------------------------------------

def fam_deconv(g, n):
    fixed = [("ok", [1, 6, 6, 2], (3, 3, 2, 4), (1, 3, 3, 4), 2, "SAME", None),
             ("valid", [1, 7, 7, 2], (3, 3, 2, 4), (1, 3, 3, 4), 2, "VALID", None),
             ("map0", [1, 0, 6, 2], (3, 3, 2, 4), (1, 0, 3, 4), 2, "SAME", None),
             ("batch0", [0, 6, 6, 2], (3, 3, 2, 4), (0, 3, 3, 4), 2, "SAME", None),
             ("sizes_huge", [1, 2 ** 30, 6, 2], (3, 3, 2, 4), (1, 3, 3, 4), 2, "SAME", None),
             ("backprop_rows", [1, 6, 6, 2], (3, 3, 2, 4), (1, 4, 3, 4), 2, "SAME", None),
             ("backprop_depth", [1, 6, 6, 2], (3, 3, 2, 4), (1, 3, 3, 5), 2, "SAME", None),
             ("filter0", [1, 6, 6, 2], (0, 3, 2, 4), (1, 3, 3, 4), 2, "SAME", None),
             ("stride_huge", [1, 6, 6, 2], (3, 3, 2, 4), (1, 1, 1, 4), 2 ** 20, "SAME", None),
             ("inf_weight", [1, 6, 6, 2], (3, 3, 2, 4), (1, 3, 3, 4), 2, "SAME", "filter"),
             ("nan_backprop", [1, 6, 6, 2], (3, 3, 2, 4), (1, 3, 3, 4), 2, "SAME", "backprop"),
             ("batch8", [8, 6, 6, 2], (3, 3, 2, 4), (8, 3, 3, 4), 2, "SAME", None)]
    for i in range(n):
        r = g.r
        s, k = r.randint(1, 3), r.randint(1, 4)
        h, w = r.randint(1, 7), r.randint(1, 7)
        padding = r.choice(["SAME", "VALID"])
        oh = -(-h // s) if padding == "SAME" else max(0, (h - k) // s + 1)
        ow = -(-w // s) if padding == "SAME" else max(0, (w - k) // s + 1)
        fixed.append(("random%d" % i, [r.randint(1, 2), h, w, 2], (k, k, 2, 3),
                      None, s, padding, r.choice([None, "filter", "backprop"])))
        fixed[-1] = fixed[-1][:3] + ((fixed[-1][2][0], oh, ow, 3),) + fixed[-1][4:]
    for what, sizes, fs, bs, stride, padding, bad in fixed:
        f = uniform(g, *fs)
        dy = uniform(g, *bs)
        if bad == "filter":
            f = poison(g, f)
        elif bad == "backprop":
            dy = poison(g, dy)
        inputs = [("input_sizes", np.asarray(sizes, np.int32)), ("filter", f),
                  ("out_backprop", dy)]

        def build(s, f, dy, stride=stride, padding=padding):
            return raw.Conv2DBackpropInput(input_sizes=s, filter=f, out_backprop=dy,
                                           strides=[1, stride, stride, 1], padding=padding)

        case(g, "Conv2DBackpropInput", what, inputs, build, modes=["const", None, None])


# --- atrous convolutions (the optimizer's fold) --------------------------------------------------

def fam_atrous(g, n):
    fixed = [("ok", (1, 7, 6, 2), [2, 2], [[2, 3], [2, 2]], [[0, 1], [0, 0]], 3),
             ("block1", (1, 7, 6, 2), [1, 1], [[1, 1], [1, 1]], [[0, 0], [0, 0]], 3),
             ("block_big", (1, 3, 3, 2), [64, 64], [[61, 64], [61, 64]], [[0, 0], [0, 0]], 3),
             ("not_divisible", (1, 8, 6, 2), [2, 2], [[2, 3], [2, 2]], [[0, 1], [0, 0]], 3),
             ("maps_below_filter", (1, 2, 2, 2), [2, 2], [[0, 0], [0, 0]], [[0, 0], [0, 0]], 3),
             ("crop_past_rows", (1, 1, 1, 2), [2, 2], [[2, 3], [2, 3]], [[2, 1], [0, 0]], 3),
             ("crop_past_columns", (1, 1, 1, 2), [2, 2], [[2, 3], [2, 3]], [[0, 0], [2, 1]], 3),
             ("batch0", (0, 7, 6, 2), [2, 2], [[2, 3], [2, 2]], [[0, 1], [0, 0]], 3),
             ("pointwise", (1, 7, 6, 2), [2, 2], [[1, 0], [0, 0]], [[1, 0], [0, 0]], 1),
             ("block3x1", (2, 9, 5, 2), [3, 1], [[3, 3], [1, 1]], [[0, 2], [0, 0]], 3)]
    for i in range(n):
        r = g.r
        b = [r.randint(1, 4), r.randint(1, 4)]
        k = r.randint(1, 3)
        h, w = r.randint(1, 9), r.randint(1, 9)
        pads, crops = [], []
        for d, bd in ((h, b[0]), (w, b[1])):
            before = r.randint(0, 4)
            after = r.randint(0, 4)
            if r.random() < 0.8:  # usually divisible
                after += (-(d + before + after)) % bd
            pads.append([before, after])
            crops.append([r.randint(0, before), r.randint(0, after)])
        fixed.append(("random%d" % i, (r.randint(1, 2), h, w, 2), b, pads, crops, k))
    for what, xs, block, pads, crops, k in fixed:
        for op in ("Conv2D", "DepthwiseConv2dNative"):
            x = uniform(g, *xs)
            if g.r.random() < 0.3:
                x = poison(g, x)
            f = uniform(g, k, k, 2, 3 if op == "Conv2D" else 2)
            inputs = [("x", x)]

            def build(x, op=op, f=f, block=block, pads=pads, crops=crops):
                y = raw.SpaceToBatchND(input=x, block_shape=tf.constant(block, tf.int32),
                                       paddings=tf.constant(pads, tf.int32))
                conv = raw.Conv2D if op == "Conv2D" else raw.DepthwiseConv2dNative
                z = conv(input=y, filter=tf.constant(f), strides=[1, 1, 1, 1], padding="VALID")
                return raw.BatchToSpaceND(input=z, block_shape=tf.constant(block, tf.int32),
                                          crops=tf.constant(crops, tf.int32))

            case(g, "atrous_" + op, what, inputs, build, modes=["feed"])


FAMILIES = [
    ("block_lstm", fam_block_lstm, 12),
    ("lstm_cell", fam_lstm_block_cell, 10),
    ("gru_cell", fam_gru_block_cell, 10),
    ("nms", fam_nms_overlaps, 20),
    ("fused_pad", fam_fused_pad_conv, 16),
    ("deconv", fam_deconv, 24),
    ("atrous", fam_atrous, 30),
]


if __name__ == "__main__":
    crafted_cases.main(FAMILIES, seed=11, out="crafted_round11.pbtxt.gz")
