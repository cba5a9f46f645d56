#!/usr/bin/env python3
"""Crafted round 12 (issue 26): hostile and careless inputs to the recurrent sequence fusion,
Case, the image transforms, the sparse feature ops, TensorListSetItem's in-place update and the
half / Pow / Neg kernels.

The code under test: graph/recurrent_sequence_fusion and _RillRecurrentSequence (a plain loop
frame of step ops holding a MatMul run as one node), Case / StatelessCase, ImageProjectiveTransformV2
/ V3, SparseDenseCwiseMul / Add / Div, SparseCrossV2 / SparseCrossHashed, DenseCountSparseOutput /
SparseCountSparseOutput / RaggedCountSparseOutput, TensorListSetItem updating an unshared list in
place, the half elementwise / BiasAdd / pooling / Cast kernels widened through F16C, Pow by 2 and 3
and Neg's sign flip. Each family takes a fixed list of hostile cases and random ones around them:
loops of zero, one and several iterations over zero-size batches, units and inputs, NaN and
infinite states, float64 and half loops, counters cast into the step, masks, two conditions, a
nested loop, a loop in a dead cond branch, step errors in the middle of a loop, frames that almost
match (a step op outside the list, a value read from outside the frame); Case indices out of range
both ways, non-scalar, branches of different shapes, a failing Assert in a branch not taken and
taken; transforms NaN, infinite and 1e30, empty images, output shapes 0 and odd; sparse indices out
of bounds, negative, unsorted, repeated, dense sides that do not broadcast, zeros read and unread;
count values negative, weights of another shape, splits unsorted or out of range; lists written
through an alias, a list two writers share; half NaN, infinities, subnormals and -0. Values whose
sign or payload matters (Neg, Pow, Cast, half results) are also fetched bit for bit through Bitcast.

It records with crafted_round9.py's recorder (each graph run in TensorFlow 2.21 with Grappler and
oneDNN off) into tests/reliability/data/crafted_round12.pbtxt.gz, which
//tests/reliability:crafted_round12_test replays through a Session with the optimizer on and off
(crafted_replay.h). Tolerance 1e-5 relative plus 1e-5 of the case's largest finite output (2e-3
for half); the loops' steps are the same kernels fused or not.

Usage (from the repository root; TensorFlow only to regenerate):
    python3 tests/reliability/crafted_round12.py [--seed=12] [--out=FILE] [--only=FAMILY] [-n N]
"""
import contextlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import crafted_cases  # noqa: E402
import crafted_round9 as r9  # noqa: E402  (sets TF_ENABLE_ONEDNN_OPTS=0 before TensorFlow)
import numpy as np  # noqa: E402
from crafted_cases import INF, NAN, poison, uniform  # noqa: E402

tf, tf1, raw, core = r9.tf, r9.tf1, r9.raw, r9.core
RTOL = 1e-5
atol = crafted_cases.scaled_atol(1e-5)
atol_half = crafted_cases.scaled_atol(2e-3)
NP_DT = {"float32": np.float32, "float64": np.float64, "half": np.float16}


def case(g, family, what, inputs, build, modes=None, half=False, op=None):
    g.case(family, what, inputs, build, rtol=2e-3 if half else RTOL,
           atol=atol_half if half else atol, modes=modes, op=op)


def fed(g, value, name, shape="known"):
    """A Placeholder fed `value` (its shape unknown when shape is None), made inside build()."""
    ph = tf1.placeholder(tf.as_dtype(value.dtype), shape=None if shape is None else value.shape,
                         name=name)
    g.extra_feeds.append((ph.name, value))
    return ph


def bits(t, nan_bits=False):
    """`t` bit for bit (the sign of a zero, subnormals): Bitcast to the unsigned integer of its
    width (floats only). A NaN's sign and payload, which IEEE 754 leaves to the implementation for
    arithmetic results, are compared only with nan_bits (Neg flips the sign as TensorFlow's does);
    otherwise NaNs are 0 there (the value output compares NaN as NaN)."""
    to = {tf.float16: tf.uint16, tf.float32: tf.uint32, tf.float64: tf.uint64}.get(t.dtype)
    if to is None:
        return t
    if not nan_bits:
        t = raw.SelectV2(condition=raw.IsNan(x=t), t=tf1.zeros_like(t), e=t)
    return raw.Bitcast(input=t, type=to)


# --- recurrent loops (graph/recurrent_sequence_fusion, _RillRecurrentSequence) -----------------

ACTS = ["Tanh", "Sigmoid", "Relu", "Relu6", "Elu", "Selu", "Softplus", "Softsign", "none"]


def _act(name, y):
    if name == "none":
        return y
    if name == "Softmax":  # not a step op: the frame is left unfused
        return raw.Softmax(logits=y)
    return getattr(raw, name)(features=y) if name in ("Relu", "Relu6", "Elu", "Selu", "Softplus",
                                                      "Softsign") else getattr(raw, name)(x=y)


def fam_recurrent(g, n):
    base = dict(T=3, B=2, D=3, U=4, dt="float32", act="Tanh", v1=True, read="list",
                unknown=False, poison=None, hh_first=False, mask=False, cast_counter=False,
                two_conds=False, nested=False, dead=False, acc=True, bad=None, T_fed=False,
                extra_var=False, outside_read=False, bias="BiasAdd", gru=False, cond_body=False)
    fixed = [("ok", {}), ("T0", {"T": 0}), ("T1", {"T": 1}), ("B0", {"B": 0}), ("U0", {"U": 0}),
             ("D0", {"D": 0}), ("T0_B0", {"T": 0, "B": 0}), ("v2", {"v1": False}),
             ("v2_T0", {"v1": False, "T": 0}), ("float64", {"dt": "float64"}),
             ("half", {"dt": "half"}), ("nan_state", {"poison": "h0"}),
             ("inf_input", {"poison": "x"}), ("nan_weights", {"poison": "w"}),
             ("hh_first", {"hh_first": True}), ("mask", {"mask": True}),
             ("cast_counter", {"cast_counter": True}), ("two_conds", {"two_conds": True}),
             ("nested", {"nested": True}), ("dead_branch", {"dead": True}),
             ("alive_branch", {"dead": "alive"}), ("no_acc", {"acc": False}),
             ("strided_read", {"read": "slice"}), ("softmax", {"act": "Softmax"}),
             ("outside_read", {"outside_read": True}), ("extra_var", {"extra_var": True}),
             ("add_bias", {"bias": "AddV2"}), ("bias_first", {"bias": "AddV2_first"}),
             ("T_fed_neg", {"T_fed": -2}), ("T_fed_past", {"T_fed": 5}),
             ("T_fed_past_slice", {"T_fed": 4, "read": "slice"}),
             ("unknown_shapes", {"unknown": True}),
             ("bad_h_width", {"unknown": True, "bad": "h_width"}),
             ("bad_h_batch", {"unknown": True, "bad": "h_batch"}),
             ("bad_h_rank", {"unknown": True, "bad": "h_rank"}),
             ("bad_x_width", {"unknown": True, "bad": "x_width"}),
             ("gru", {"gru": True}), ("gru_hh_first", {"gru": True, "hh_first": True}),
             ("gru_batch_mismatch", {"gru": True, "unknown": True, "bad": "h_batch"}),
             ("gru_batch_mismatch_hh_first", {"gru": True, "hh_first": True, "unknown": True,
                                              "bad": "h_batch"}),
             ("gru_T0", {"gru": True, "T": 0}), ("gru_nan", {"gru": True, "poison": "h0"}),
             ("gru_v2", {"gru": True, "v1": False}), ("cond_in_body", {"cond_body": True}),
             ("cond_in_body_v2", {"cond_body": True, "v1": False})]
    for i in range(n):
        r = g.r
        fixed.append(("random%d" % i, {
            "T": r.randint(0, 4), "B": r.randint(0, 3), "D": r.randint(0, 3),
            "U": r.randint(0, 4), "dt": r.choice(["float32"] * 4 + ["float64"]),
            "act": r.choice(ACTS), "v1": r.random() < 0.6,
            "read": r.choice(["list", "slice"]), "poison": r.choice([None, None, "h0", "x", "w"]),
            "hh_first": r.random() < 0.3, "mask": r.random() < 0.2,
            "cast_counter": r.random() < 0.2, "two_conds": r.random() < 0.2,
            "acc": r.random() < 0.7, "bias": r.choice(["BiasAdd", "AddV2", "AddV2_first"]),
            "gru": r.random() < 0.3, "extra_var": r.random() < 0.2}))
    for what, over in fixed:
        o = dict(base, **over)
        if o["gru"] and o["U"] == 0:
            o["U"] = 2
        if o["gru"] and o["dt"] != "float32":
            o["dt"] = "float32"
        npdt = NP_DT[o["dt"]]
        T, B, D, U = o["T"], o["B"], o["D"], o["U"]
        G = 3 * U if o["gru"] else U
        x = uniform(g, T, B, D, dtype=npdt)
        h0 = uniform(g, B, U, dtype=npdt)
        if o["bad"] == "h_width":
            h0 = uniform(g, B, U + 1, dtype=npdt)
        elif o["bad"] == "h_batch":
            h0 = uniform(g, B + 1, U, dtype=npdt)
        elif o["bad"] == "h_rank":
            h0 = uniform(g, U, dtype=npdt)
        elif o["bad"] == "x_width":
            x = uniform(g, T, B, D + 1, dtype=npdt)
        w = uniform(g, D, G, dtype=npdt)
        u = uniform(g, U, G, dtype=npdt)
        b = uniform(g, G, dtype=npdt)
        if o["poison"] == "h0":
            h0 = poison(g, h0, 0.4)
        elif o["poison"] == "x":
            x = poison(g, x, 0.3)
        elif o["poison"] == "w":
            w = poison(g, w, 0.3)
        mask = (uniform(g, T, B, 1) > 0).astype(np.bool_)

        def build(o=o, x=x, h0=h0, w=w, u=u, b=b, mask=mask, T=T, U=U):
            xs = fed(g, x, "x", None if o["unknown"] else "known")
            hs = fed(g, h0, "h0", None if o["unknown"] else "known")
            tb = fed(g, np.int32(o["T_fed"]), "steps") if o["T_fed"] is not False else \
                tf1.constant(np.int32(T), name="steps")
            wc, uc, bc = tf1.constant(w, name="w"), tf1.constant(u, name="u"), \
                tf1.constant(b, name="b")
            dt = xs.dtype
            elem = tf1.constant(np.array([-1, -1], np.int32))
            tl = raw.TensorListFromTensor(tensor=xs, element_shape=elem)
            ml = tf1.constant(mask)
            outside = tf1.placeholder_with_default(tf1.constant(np.ones(U, x.dtype)), [U]) \
                if o["outside_read"] else None

            def step(i, h):
                if o["read"] == "list":
                    xt = raw.TensorListGetItem(input_handle=tl, index=i, element_shape=elem,
                                               element_dtype=dt)
                else:
                    xt = xs[i]
                xp = raw.MatMul(a=xt, b=wc)
                hp = raw.MatMul(a=h, b=uc)
                if o["gru"]:
                    xp = raw.BiasAdd(value=xp, bias=bc)
                    xz, xr, xc = raw.Split(axis=tf1.constant(np.int32(1)), value=xp, num_split=3)

                    def sl(lo, hi):
                        return raw.StridedSlice(
                            input=hp, begin=tf1.constant(np.array([0, lo], np.int32)),
                            end=tf1.constant(np.array([0, hi], np.int32)),
                            strides=tf1.constant(np.array([1, 1], np.int32)), begin_mask=1,
                            end_mask=1)
                    hz, hr, hc = sl(0, U), sl(U, 2 * U), sl(2 * U, 3 * U)

                    def add(a, c):
                        return raw.AddV2(x=c, y=a) if o["hh_first"] else raw.AddV2(x=a, y=c)
                    z = raw.Sigmoid(x=add(xz, hz))
                    rg = raw.Sigmoid(x=add(xr, hr))
                    c = raw.Tanh(x=raw.AddV2(x=xc, y=raw.Mul(x=rg, y=hc)))
                    zh = raw.Mul(x=h, y=z) if o["hh_first"] else raw.Mul(x=z, y=h)
                    one = tf1.constant(np.float32(1.0))
                    return raw.AddV2(x=zh, y=raw.Mul(x=raw.Sub(x=one, y=z), y=c))
                s = raw.AddV2(x=hp, y=xp) if o["hh_first"] else raw.AddV2(x=xp, y=hp)
                if o["bias"] == "BiasAdd":
                    s = raw.BiasAdd(value=s, bias=bc)
                elif o["bias"] == "AddV2":
                    s = raw.AddV2(x=s, y=bc)
                else:
                    s = raw.AddV2(x=bc, y=s)
                if o["cast_counter"]:
                    s = raw.AddV2(x=s, y=raw.Cast(x=i, DstT=dt))
                if outside is not None:
                    s = raw.Mul(x=s, y=outside)
                y = _act(o["act"], s)
                if o["cond_body"]:  # a cond in the step: its Switch and Merge in the frame
                    y = tf1.cond(raw.Less(x=i, y=tf1.constant(np.int32(1))),
                                 lambda: raw.Neg(x=y), lambda: raw.Square(x=y))
                if o["mask"]:
                    y = raw.SelectV2(condition=raw.TensorListGetItem(
                        input_handle=raw.TensorListFromTensor(tensor=ml, element_shape=elem),
                        index=i, element_shape=elem, element_dtype=tf.bool), t=y, e=h)
                return y

            def loop():
                acc0 = raw.TensorListReserve(element_shape=elem, num_elements=tf1.maximum(tb, 0),
                                             element_dtype=dt)
                j0 = tf1.constant(np.int32(0))
                extra0 = tf1.constant(np.float32(0.5))

                def cond(i, h, acc, j, extra):
                    c = raw.Less(x=i, y=tb)
                    if o["two_conds"]:
                        c = raw.LogicalAnd(x=c, y=raw.Less(x=j, y=tf1.constant(np.int32(2))))
                    return c

                def body(i, h, acc, j, extra):
                    y = step(i, h)
                    if o["acc"]:
                        acc = raw.TensorListSetItem(input_handle=acc, index=i, item=y)
                    if o["nested"]:
                        k0 = tf1.constant(np.int32(0))
                        _, y = tf1.while_loop(lambda k, v: k < 2,
                                              lambda k, v: (k + 1, raw.Tanh(x=v)), [k0, y])
                    if o["extra_var"]:
                        extra = raw.Mul(x=extra, y=tf1.constant(np.float32(2.0)))
                    return raw.AddV2(x=i, y=tf1.constant(np.int32(1))), y, acc, \
                        raw.AddV2(x=j, y=tf1.constant(np.int32(1))), extra

                shape_h = tf.TensorShape(None) if o["unknown"] else tf.TensorShape([None, U])
                i, h, acc, j, extra = tf1.while_loop(
                    cond, body, [tf1.constant(np.int32(0)), hs, acc0, j0, extra0],
                    shape_invariants=[tf.TensorShape([]), shape_h, tf.TensorShape(None),
                                      tf.TensorShape([]), tf.TensorShape([])])
                out = [raw.Identity(input=h, name="h"), raw.Identity(input=i, name="i")]
                if o["acc"]:
                    out.append(raw.TensorListLength(input_handle=acc))
                if o["extra_var"]:
                    out.append(extra)
                return out

            ctx = core.control_flow_v1() if o["v1"] else contextlib.nullcontext()
            with ctx:
                if o["dead"]:
                    pred = tf1.constant(o["dead"] == "alive")
                    outs = tf1.cond(pred, loop, lambda: [raw.Identity(input=hs),
                                                         tf1.constant(np.int32(-1))] +
                                    ([tf1.constant(np.int32(-1))] if o["acc"] else []))
                    return list(outs)
                return loop()

        case(g, "recurrent", what, [], build, half=o["dt"] == "half", op="RecurrentLoop")


# --- Case / StatelessCase ----------------------------------------------------------------------

def fam_case(g, n):
    fixed = [("ok0", 0, "scalar", "pure"), ("ok2", 2, "scalar", "pure"),
             ("past", 3, "scalar", "pure"), ("far_past", 2 ** 31 - 1, "scalar", "pure"),
             ("minus1", -1, "scalar", "pure"), ("int_min", -2 ** 31, "scalar", "pure"),
             ("vector1", 1, "vector1", "pure"), ("vector2", 1, "vector2", "pure"),
             ("matrix", 0, "matrix", "pure"), ("shapes_differ", 1, "scalar", "shapes"),
             ("shapes_differ_default", 7, "scalar", "shapes"),
             ("assert_not_taken", 0, "scalar", "assert"), ("assert_taken", 1, "scalar", "assert"),
             ("assert_default", 9, "scalar", "assert"), ("nested", 1, "scalar", "nested"),
             ("nested_past", -5, "scalar", "nested"), ("nan_values", 2, "scalar", "nan"),
             ("const_index", 1, "const", "pure"), ("const_past", 6, "const", "pure"),
             ("in_loop", 0, "scalar", "loop"), ("two_outputs", 1, "scalar", "two"),
             ("one_branch", 4, "scalar", "one"), ("int64_index", 1, "int64", "pure")]
    for i in range(n):
        r = g.r
        fixed.append(("random%d" % i, r.choice([-3, -1, 0, 1, 2, 3, 4, 100]),
                      r.choice(["scalar", "scalar", "const", "vector1"]),
                      r.choice(["pure", "shapes", "assert", "nested", "nan", "two", "loop"])))
    for what, idx, how, kind in fixed:
        x = uniform(g, 2, 3, lo=-2, hi=2)
        if kind == "nan":
            x = poison(g, x, 0.5)

        def build(x, idx=idx, how=how, kind=kind):
            if how == "const":
                index = tf1.constant(np.int32(idx), name="index")
            elif how == "int64":
                index = fed(g, np.int64(idx), "index")
            elif how == "vector1":
                index = fed(g, np.array([idx], np.int32), "index", None)
            elif how == "vector2":
                index = fed(g, np.array([idx, 0], np.int32), "index", None)
            elif how == "matrix":
                index = fed(g, np.zeros((1, 1), np.int32), "index", None)
            else:
                index = fed(g, np.int32(idx), "index", None)
            if kind == "shapes":
                branches = [lambda: x * 2.0, lambda: tf.reduce_sum(x, axis=0),
                            lambda: tf.reshape(x, [-1])]
            elif kind == "assert":
                def failing():
                    with tf1.control_dependencies([tf1.Assert(tf1.constant(False), [x])]):
                        return tf.identity(x)
                branches = [lambda: -x, failing, lambda: x + 1.0]
            elif kind == "nested":
                branches = [lambda: x, lambda: tf.switch_case(
                    tf.cast(index, tf.int32) + 1, [lambda: x * 3.0, lambda: x * 4.0]),
                    lambda: tf.square(x)]
            elif kind == "two":
                branches = [lambda: (x, tf.reduce_max(x)), lambda: (-x, tf.reduce_min(x)),
                            lambda: (x * 0.0, tf.constant(np.float32(NAN)))]
            elif kind == "one":
                branches = [lambda: x * 5.0]
            elif kind == "loop":
                def run_loop():
                    def body(i, v):
                        return i + 1, tf.switch_case(
                            tf.math.floormod(i + index, 3),
                            [lambda: v * 2.0, lambda: v - 1.0, lambda: tf.abs(v)])
                    return tf1.while_loop(lambda i, v: i < 4, body,
                                          [tf1.constant(np.int32(0)), x])[1]
                return [raw.Identity(input=run_loop(), name="out")]
            else:
                branches = [lambda: x * 2.0, lambda: tf.math.pow(x, 3.0), lambda: -x]
            out = tf.switch_case(index, branches)
            return [raw.Identity(input=t) for t in core._flatten(out)]

        case(g, "Case", what, [("x", x)], build, modes=["feed"])


# --- ImageProjectiveTransformV2 / V3 -----------------------------------------------------------

def fam_image_transform(g, n):
    ident = [1, 0, 0, 0, 1, 0, 0, 0]
    rot = [0.8, -0.6, 1.5, 0.6, 0.8, -0.5, 0.0, 0.0]
    fixed = [("ok", (1, 4, 5, 2), [rot], [4, 5], "BILINEAR", "CONSTANT", 0.0, "float32"),
             ("nan_transform", (1, 4, 5, 1), [[NAN] + ident[1:]], [4, 5], "BILINEAR",
              "CONSTANT", 0.0, "float32"),
             ("nan_nearest", (1, 4, 5, 1), [[NAN] + ident[1:]], [4, 5], "NEAREST", "CONSTANT",
              0.0, "float32"),
             ("inf_transform", (1, 4, 5, 1), [[1, 0, INF, 0, 1, 0, 0, 0]], [4, 5], "BILINEAR",
              "REFLECT", 0.0, "float32"),
             ("huge_transform", (1, 4, 5, 1), [[1e30, 0, 0, 0, 1e30, 0, 0, 0]], [4, 5],
              "BILINEAR", "WRAP", 0.0, "float32"),
             ("projective_zero", (1, 4, 5, 1), [[1, 0, 0, 0, 1, 0, -1, -1]], [4, 5], "BILINEAR",
              "CONSTANT", 0.0, "float32"),
             ("batch0", (0, 4, 5, 1), [ident], [4, 5], "BILINEAR", "CONSTANT", 0.0, "float32"),
             ("height0", (1, 0, 5, 1), [ident], [4, 5], "NEAREST", "REFLECT", 0.0, "float32"),
             ("width0_wrap", (1, 3, 0, 1), [rot], [3, 3], "BILINEAR", "WRAP", 0.0, "float32"),
             ("channels0", (1, 3, 3, 0), [rot], [3, 3], "BILINEAR", "CONSTANT", 0.0, "float32"),
             ("out0", (1, 4, 5, 1), [rot], [0, 0], "BILINEAR", "CONSTANT", 0.0, "float32"),
             ("out_negative", (1, 4, 5, 1), [rot], [-1, 5], "BILINEAR", "CONSTANT", 0.0,
              "float32"),
             ("out_odd", (1, 4, 5, 1), [rot], [1, 7], "NEAREST", "NEAREST", 0.0, "float32"),
             ("out_three", (1, 4, 5, 1), [rot], [1, 7, 2], "NEAREST", "NEAREST", 0.0, "float32"),
             ("transform_short", (1, 4, 5, 1), [ident[:7]], [4, 5], "BILINEAR", "CONSTANT", 0.0,
              "float32"),
             ("transforms_batch_mismatch", (2, 4, 5, 1), [ident, rot, rot], [4, 5], "BILINEAR",
              "CONSTANT", 0.0, "float32"),
             ("shared_transform", (3, 4, 5, 1), [rot], [4, 5], "BILINEAR", "REFLECT", 0.0,
              "float32"),
             ("fill_nan", (1, 4, 5, 1), [rot], [4, 5], "BILINEAR", "CONSTANT", NAN, "float32"),
             ("fill_inf_uint8", (1, 4, 5, 1), [rot], [4, 5], "NEAREST", "CONSTANT", INF, "uint8"),
             ("fill_negative_uint8", (1, 4, 5, 1), [rot], [4, 5], "BILINEAR", "CONSTANT", -3.5,
              "uint8"),
             ("fill_huge_int32", (1, 4, 5, 1), [rot], [4, 5], "NEAREST", "CONSTANT", 1e20,
              "int32"),
             ("half_nan", (1, 4, 5, 1), [[NAN] + ident[1:]], [4, 5], "BILINEAR", "CONSTANT", 0.0,
              "half"),
             ("int64_huge", (1, 4, 5, 1), [[1e30] + ident[1:]], [4, 5], "BILINEAR", "CONSTANT",
              2.0, "int64"),
             ("rank3_image", (4, 5, 1), [ident], [4, 5], "BILINEAR", "CONSTANT", 0.0, "float32")]
    for i in range(n):
        r = g.r
        t = [r.choice([1.0, 0.0, -1.0, 0.5, 2.5, -3.0, 1e-8, 1e8, NAN, INF]) for _ in range(8)]
        fixed.append(("random%d" % i, (r.randint(0, 2), r.randint(0, 5), r.randint(0, 5),
                                       r.randint(1, 2)),
                      [t], [r.randint(0, 6), r.randint(0, 6)], r.choice(["NEAREST", "BILINEAR"]),
                      r.choice(["CONSTANT", "REFLECT", "WRAP", "NEAREST"]),
                      r.choice([0.0, 1.5, NAN, -INF]),
                      r.choice(["float32", "float32", "float64", "half", "uint8", "int32"])))
    for what, shape, transforms, out_shape, interp, fill_mode, fill, dt in fixed:
        npdt = r9.NP[dt]
        img = np.array([g.r.randint(0, 9) for _ in range(int(np.prod(shape)))]).astype(
            npdt).reshape(shape)
        tr = np.asarray(transforms, np.float32)
        for version in (2, 3):
            if version == 2 and fill != 0.0:
                continue
            inputs = [("images", img), ("transforms", tr),
                      ("output_shape", np.asarray(out_shape, np.int32))]

            def build(im, t, s, version=version, interp=interp, fill_mode=fill_mode, fill=fill):
                if version == 2:
                    y = raw.ImageProjectiveTransformV2(images=im, transforms=t, output_shape=s,
                                                       interpolation=interp, fill_mode=fill_mode)
                else:
                    y = raw.ImageProjectiveTransformV3(
                        images=im, transforms=t, output_shape=s,
                        fill_value=tf1.constant(np.float32(fill)), interpolation=interp,
                        fill_mode=fill_mode)
                return [y, bits(y)]

            case(g, "ImageProjectiveTransformV%d" % version, what, inputs, build,
                 half=dt == "half")


# --- SparseDenseCwiseMul / Add / Div -----------------------------------------------------------

def fam_sparse_dense(g, n):
    fixed = [("ok", [[0, 0], [1, 2]], [2, 3], (2, 3), "float32", None),
             ("broadcast_row", [[0, 0], [1, 2]], [2, 3], (3,), "float32", None),
             ("broadcast_col", [[0, 0], [1, 2]], [2, 3], (2, 1), "float32", None),
             ("no_broadcast", [[0, 0], [1, 2]], [2, 3], (1, 4), "float32", None),
             ("dense_bigger", [[0, 0]], [2, 3], (4, 2, 3), "float32", None),
             ("index_past", [[0, 0], [2, 1]], [2, 3], (2, 3), "float32", None),
             ("index_negative", [[0, -1]], [2, 3], (2, 3), "float32", None),
             ("unsorted", [[1, 2], [0, 0], [1, 0]], [2, 3], (2, 3), "float32", None),
             ("repeated", [[1, 2], [1, 2]], [2, 3], (2, 3), "float32", None),
             ("empty", np.zeros((0, 2), np.int64), [2, 3], (2, 3), "float32", None),
             ("shape0", np.zeros((0, 2), np.int64), [0, 3], (1, 3), "float32", None),
             ("rank_mismatch", [[0, 0, 0]], [2, 3], (2, 3), "float32", None),
             ("zero_read", [[0, 1]], [2, 3], (2, 3), "float32", "zero_read"),
             ("zero_unread", [[0, 1]], [2, 3], (2, 3), "float32", "zero_unread"),
             ("minus_zero_read", [[0, 1]], [2, 3], (2, 3), "float32", "minus_zero"),
             ("nan_dense", [[0, 1], [1, 1]], [2, 3], (2, 3), "float32", "nan"),
             ("int_zero_read", [[0, 1]], [2, 3], (2, 3), "int32", "zero_read"),
             ("int_min_over_minus1", [[0, 1]], [2, 3], (2, 3), "int32", "int_min"),
             ("half", [[0, 1], [1, 0]], [2, 3], (2, 3), "half", "nan"),
             ("double", [[0, 1], [1, 0]], [2, 3], (2, 3), "float64", None),
             ("uint8", [[0, 1], [1, 0]], [2, 3], (2, 3), "uint8", None),
             ("rank6", [[0, 0, 0, 0, 0, 0]], [1, 1, 1, 1, 1, 2], (2,), "float32", None),
             ("values_short", [[0, 0], [1, 1]], [2, 3], (2, 3), "float32", "values_short")]
    for i in range(n):
        r = g.r
        rows = r.randint(0, 4)
        idx = [[r.randint(-1, 2), r.randint(0, 3)] for _ in range(rows)]
        dshape = r.choice([(2, 3), (3,), (1, 3), (2, 1), (1,), (), (3, 3)])
        fixed.append(("random%d" % i, idx, [2, 3], dshape,
                      r.choice(["float32", "float64", "int64"]),
                      r.choice([None, None, "zero_read", "nan"])))
    for what, idx, shape, dshape, dt, how in fixed:
        idx = np.asarray(idx, np.int64).reshape(-1, len(shape) if len(idx) == 0 else
                                                np.asarray(idx).shape[1])
        npdt = r9.NP[dt]
        nnz = idx.shape[0] - (1 if how == "values_short" else 0)
        vals = np.array([g.r.randint(-4, 4) for _ in range(nnz)]).astype(npdt)
        dense = np.array([g.r.randint(1, 5) for _ in range(int(np.prod(dshape)))]).astype(
            npdt).reshape(dshape)
        flat = dense.reshape(-1)
        if how in ("zero_read", "minus_zero") and flat.size > 1:
            flat[1] = -0.0 if how == "minus_zero" else 0
        elif how == "zero_unread" and flat.size > 5:
            flat[5] = 0
        elif how == "nan" and dense.dtype.kind == "f":
            dense = poison(g, dense, 0.5)
            vals = poison(g, vals, 0.5)
        elif how == "int_min" and flat.size > 1:
            flat[1] = -1
            vals[:] = np.iinfo(npdt).min
        for op in ("SparseDenseCwiseMul", "SparseDenseCwiseAdd", "SparseDenseCwiseDiv"):
            if op == "SparseDenseCwiseDiv" and how == "int_min":
                continue  # TensorFlow's process dies of SIGFPE; Rill wraps (34e58037)
            inputs = [("sp_indices", idx), ("sp_values", vals),
                      ("sp_shape", np.asarray(shape, np.int64)), ("dense", dense)]

            def build(i_, v, s, d, op=op):
                return [getattr(raw, op)(sp_indices=i_, sp_values=v, sp_shape=s, dense=d)]

            case(g, op, what, inputs, build, half=dt == "half")


# --- SparseCrossV2 / SparseCrossHashed ---------------------------------------------------------

def fam_sparse_cross(g, n):
    def sparse_str(rows, per_row, batch, unsorted=False, index_past=False):
        idx, vals = [], []
        for b in range(batch):
            for k in range(per_row[b] if b < len(per_row) else 0):
                idx.append([b, k])
                vals.append(("v%d_%d" % (b, k)).encode())
        if unsorted and len(idx) > 1:
            idx[0], idx[-1] = idx[-1], idx[0]
        if index_past and idx:
            idx[-1][0] = batch + 3
        return (np.asarray(idx, np.int64).reshape(-1, 2), np.asarray(vals, object),
                np.asarray([batch, max(per_row + [1])], np.int64))

    fixed = [("ok", [1, 2], [2, 1], 2, {}), ("empty_rows", [0, 2], [2, 0], 2, {}),
             ("batch0", [], [], 0, {}), ("batch_mismatch", [1, 2], [1], 1, {"dense_batch": 3}),
             ("unsorted", [2, 2], [1, 1], 2, {"unsorted": True}),
             ("index_past", [1, 1], [1, 1], 2, {"index_past": True}),
             ("sep_vector", [1, 1], [1, 1], 2, {"sep": np.array([b"a", b"b"], object)}),
             ("sep_empty", [1, 1], [1, 1], 2, {"sep": np.array(b"", object)}),
             ("dense_only", [], [], 2, {"dense_only": True}),
             ("int64_mix", [1, 2], [2, 1], 2, {"int64": True}),
             ("buckets0", [1, 2], [2, 1], 2, {"buckets": 0}),
             ("buckets1", [1, 2], [2, 1], 2, {"buckets": 1}),
             ("buckets_negative", [1, 2], [2, 1], 2, {"buckets": -5}),
             ("salt_short", [1, 1], [1, 1], 2, {"salt": [7], "strong": True}),
             ("salt_long", [1, 1], [1, 1], 2, {"salt": [7, 8, 9], "strong": True}),
             ("strong", [1, 2], [2, 1], 2, {"strong": True}),
             ("many", [3, 3, 3], [3, 3, 3], 3, {})]
    for i in range(n):
        r = g.r
        bsz = r.randint(0, 3)
        fixed.append(("random%d" % i, [r.randint(0, 3) for _ in range(bsz)],
                      [r.randint(0, 2) for _ in range(bsz)], bsz,
                      {"int64": r.random() < 0.4, "buckets": r.choice([0, 1, 7, 1000]),
                       "strong": r.random() < 0.3}))
    for what, a_rows, b_rows, batch, opt in fixed:
        ai, av, ash = sparse_str(None, a_rows, batch, opt.get("unsorted"), opt.get("index_past"))
        bi, bv, bsh = sparse_str(None, b_rows, batch)
        if opt.get("int64"):
            bv = np.arange(len(bv), dtype=np.int64) * 1000003 - 7
        db = opt.get("dense_batch", batch)
        dense = np.asarray([[("d%d" % k).encode()] for k in range(db)], object).reshape(db, 1)
        sep = opt.get("sep", np.array(b"_X_", object))
        for op in ("SparseCrossV2", "SparseCrossHashed"):
            if op == "SparseCrossV2" and ("buckets" in opt or "salt" in opt or "strong" in opt):
                if "int64" not in opt:
                    continue
            if op == "SparseCrossHashed" and "sep" in opt:
                continue
            inputs = [("ai", ai), ("av", av), ("ash", ash), ("dense", dense)]
            if not opt.get("dense_only"):
                inputs += [("bi", bi), ("bv", bv), ("bsh", bsh)]

            def build(ai_, av_, ash_, d, *rest, op=op, opt=opt, sep=sep):
                if opt.get("dense_only"):
                    ind, val, shp = [], [], []
                else:
                    ind, val, shp = [ai_, rest[0]], [av_, rest[1]], [ash_, rest[2]]
                if op == "SparseCrossV2":
                    out = raw.SparseCrossV2(indices=ind, values=val, shapes=shp, dense_inputs=[d],
                                            sep=tf1.constant(sep))
                else:
                    out = raw.SparseCrossHashed(
                        indices=ind, values=val, shapes=shp, dense_inputs=[d],
                        num_buckets=tf1.constant(np.int64(opt.get("buckets", 0))),
                        strong_hash=tf1.constant(bool(opt.get("strong", False))),
                        salt=tf1.constant(np.asarray(opt.get("salt", [3, 5]), np.int64)))
                return list(out)

            case(g, op, what, inputs, build, modes=["const"] * len(inputs))


# --- DenseCountSparseOutput / SparseCountSparseOutput / RaggedCountSparseOutput -----------------

def fam_count(g, n):
    fixed = [("ok", {}), ("negative", {"neg": True}), ("weights_mismatch", {"wshape": "short"}),
             ("weights_scalar", {"wshape": "scalar"}), ("no_weights", {"wshape": "none"}),
             ("binary", {"binary": True}), ("binary_weights", {"binary": True, "wshape": "same"}),
             ("maxlength0", {"maxlength": 0}), ("maxlength_neg", {"maxlength": -1}),
             ("minlength_big", {"minlength": 50}), ("min_above_max", {"minlength": 9,
                                                                      "maxlength": 3}),
             ("minlength_neg2", {"minlength": -2}), ("empty", {"rows": 0}),
             ("nan_weights", {"wnan": True}), ("huge_value", {"huge": True}),
             ("unsorted", {"unsorted": True}), ("index_past", {"index_past": True}),
             ("splits_unsorted", {"splits": "unsorted"}), ("splits_past", {"splits": "past"}),
             ("splits_short", {"splits": "short"}), ("splits_not_zero", {"splits": "start1"}),
             ("rank3", {"rank3": True}), ("int32", {"int32": True})]
    for i in range(n):
        r = g.r
        fixed.append(("random%d" % i, {
            "neg": r.random() < 0.15, "wshape": r.choice(["same", "same", "none", "short"]),
            "binary": r.random() < 0.3, "maxlength": r.choice([-1, -1, 0, 2, 5]),
            "minlength": r.choice([-1, -1, 0, 3, 8]), "rows": r.randint(0, 3),
            "wnan": r.random() < 0.2, "unsorted": r.random() < 0.15,
            "splits": r.choice([None, None, None, "unsorted", "past"])}))
    for what, o in fixed:
        rows = o.get("rows", 2)
        cols = 3
        vdt = np.int32 if o.get("int32") else np.int64
        vals = np.array([g.r.randint(0, 6) for _ in range(rows * cols)], vdt).reshape(rows, cols)
        if o.get("neg") and vals.size:
            vals.reshape(-1)[-1] = -1
        if o.get("huge") and vals.size:
            vals.reshape(-1)[0] = np.iinfo(vdt).max
        if o.get("rank3"):
            vals = vals.reshape(1, rows, cols)
        wshape = o.get("wshape", "same")
        weights = uniform(g, *vals.shape, lo=0.0, hi=2.0)
        if o.get("wnan"):
            weights = poison(g, weights, 0.4)
        if wshape == "short":
            weights = weights.reshape(-1)[:max(0, weights.size - 1)].copy()
        elif wshape == "scalar":
            weights = np.float32(1.5)
        elif wshape == "none":
            weights = np.zeros((0,), np.float32)
        attrs = dict(binary_output=bool(o.get("binary", False)),
                     minlength=o.get("minlength", -1), maxlength=o.get("maxlength", -1))
        # Dense.
        inputs = [("values", vals), ("weights", weights)]

        def build_dense(v, w, attrs=attrs):
            return list(raw.DenseCountSparseOutput(values=v, weights=w, **attrs))

        case(g, "DenseCountSparseOutput", what, inputs, build_dense)
        # Sparse: the nonzero entries of a [rows, cols] tensor.
        flat = vals.reshape(-1)
        idx = np.array([[k // cols, k % cols] for k in range(flat.size)], np.int64).reshape(-1, 2)
        if o.get("unsorted") and len(idx) > 1:
            idx = idx[::-1].copy()
        if o.get("index_past") and len(idx):
            idx[-1, 0] = rows + 5
        sw = weights.reshape(-1) if np.ndim(weights) and np.size(weights) else weights
        inputs = [("indices", idx), ("values", flat.copy()),
                  ("dense_shape", np.asarray([rows, cols], np.int64)), ("weights", sw)]

        def build_sparse(i_, v, s, w, attrs=attrs):
            return list(raw.SparseCountSparseOutput(indices=i_, values=v, dense_shape=s,
                                                    weights=w, **attrs))

        case(g, "SparseCountSparseOutput", what, inputs, build_sparse)
        # Ragged: rows of 2, 0, 1, ... values.
        splits = [0]
        while splits[-1] < flat.size:
            splits.append(min(flat.size, splits[-1] + g.r.choice([0, 1, 2, 3])))
        how = o.get("splits")
        if how == "unsorted" and len(splits) > 2:
            splits[1], splits[2] = splits[2] + 1, splits[1]
        elif how == "past":
            splits[-1] = flat.size + 4
        elif how == "short":
            splits = splits[:1]
        elif how == "start1":
            splits[0] = 1
        inputs = [("splits", np.asarray(splits, np.int64)), ("values", flat.copy()),
                  ("weights", sw)]

        def build_ragged(sp, v, w, attrs=attrs):
            return list(raw.RaggedCountSparseOutput(splits=sp, values=v, weights=w, **attrs))

        case(g, "RaggedCountSparseOutput", what, inputs, build_ragged)


# --- TensorListSetItem in place ----------------------------------------------------------------

def fam_list_set_item(g, n):
    kinds = ["chain", "shared", "alias_identity", "from_tensor", "index_past", "index_negative",
             "wrong_shape", "loop_shared", "loop_in_place", "read_after", "empty_list",
             "nan_items", "resize", "v2_loop"]
    fixed = [(k, k) for k in kinds]
    for i in range(n):
        fixed.append(("random%d" % i, g.r.choice(kinds)))
    for what, kind in fixed:
        a = uniform(g, 2, 3)
        b = poison(g, uniform(g, 2, 3), 0.5 if kind == "nan_items" else 0.0)

        def build(a_, b_, kind=kind):
            es = tf1.constant(np.array([2, 3], np.int32))
            dt = tf.float32
            base = raw.TensorListReserve(element_shape=es, num_elements=3, element_dtype=dt)

            def stack(l_):
                return raw.TensorListStack(input_handle=l_, element_shape=es, element_dtype=dt)

            def set_(l_, i, v):
                return raw.TensorListSetItem(input_handle=l_, index=tf1.constant(np.int32(i)),
                                             item=v)
            if kind == "chain":
                return [stack(set_(set_(set_(base, 0, a_), 1, b_), 2, a_))]
            if kind == "shared":
                l1 = set_(set_(set_(base, 0, a_), 1, a_), 2, a_)
                return [stack(set_(l1, 1, b_)), stack(set_(l1, 2, b_)), stack(l1)]
            if kind == "alias_identity":
                l1 = set_(set_(set_(base, 0, a_), 1, a_), 2, a_)
                l2 = raw.Identity(input=l1)
                return [stack(set_(l2, 0, b_)), stack(l1)]
            if kind == "from_tensor":
                t = raw.Pack(values=[a_, b_, a_])
                l1 = raw.TensorListFromTensor(tensor=t, element_shape=es)
                return [stack(set_(l1, 1, a_)), t]
            if kind == "index_past":
                return [stack(set_(set_(base, 0, a_), 3, b_))]
            if kind == "index_negative":
                return [stack(set_(base, -1, b_))]
            if kind == "wrong_shape":
                return [stack(set_(base, 0, raw.Reshape(tensor=b_, shape=tf1.constant(
                    np.array([3, 2], np.int32)))))]
            if kind == "empty_list":
                e = raw.TensorListReserve(element_shape=es, num_elements=0, element_dtype=dt)
                return [stack(set_(e, 0, a_))]
            if kind == "resize":
                l1 = set_(set_(set_(base, 0, a_), 1, a_), 2, a_)
                l2 = raw.TensorListResize(input_handle=l1, size=tf1.constant(np.int32(5)))
                l3 = set_(l2, 4, b_)
                l4 = raw.TensorListResize(input_handle=l3, size=tf1.constant(np.int32(1)))
                return [raw.TensorListLength(input_handle=l3), stack(l1),
                        raw.TensorListLength(input_handle=l4),
                        raw.TensorListGetItem(input_handle=l3, index=tf1.constant(np.int32(4)),
                                              element_shape=es, element_dtype=dt)]
            if kind == "read_after":
                l1 = set_(set_(set_(base, 0, a_), 1, a_), 2, a_)
                l2 = set_(l1, 0, b_)
                return [raw.TensorListGetItem(input_handle=l1, index=tf1.constant(np.int32(0)),
                                              element_shape=es, element_dtype=dt), stack(l2)]
            # Loops writing a list each step; "loop_shared" also keeps the list before the loop.
            ctx = contextlib.nullcontext() if kind == "v2_loop" else core.control_flow_v1()
            with ctx:
                l0 = set_(set_(set_(base, 0, a_), 1, a_), 2, a_)

                def body(i, l_, v):
                    v2 = raw.Tanh(x=raw.AddV2(x=v, y=b_))
                    return i + 1, raw.TensorListSetItem(input_handle=l_, index=i, item=v2), v2

                _, lf, _ = tf1.while_loop(lambda i, l_, v: i < 3, body,
                                          [tf1.constant(np.int32(0)), l0, a_])
            out = [stack(lf)]
            if kind in ("loop_shared", "v2_loop"):
                out.append(stack(l0))
            return out

        case(g, "TensorListSetItem", what, [("a", a), ("b", b)], build)


# --- half elementwise / BiasAdd / pooling / Cast, Pow by 2 and 3, Neg ---------------------------

HALF_SPECIALS = [NAN, -NAN, INF, -INF, 0.0, -0.0, 6e-8, -6e-8, 6.1e-5, 65504.0, -65504.0, 1.0,
                 -1.5, 2049.0, 1e-4, 300.0]


def half_values(g, shape, p=0.5):
    a = uniform(g, *shape, lo=-8, hi=8, dtype=np.float16)
    return poison(g, a, p, specials=HALF_SPECIALS)


def fam_half(g, n):
    unary = ["Relu", "Abs", "Square", "Neg", "Sigmoid", "Tanh", "Exp", "Reciprocal", "Sqrt",
             "Relu6", "Elu", "Floor", "Sign"]
    binary = ["AddV2", "Sub", "Mul", "RealDiv", "Less", "Maximum", "Minimum", "Pow",
              "SquaredDifference", "Equal"]
    shapes = [(), (7,), (3, 5), (300,), (2, 257), (0, 3), (3, 1)]
    count = 0
    for op in unary:
        for s in (shapes[1], shapes[3], shapes[5]):
            x = half_values(g, s)

            def build(x_, op=op):
                y = _act(op, x_) if op in ("Relu", "Relu6", "Elu") else getattr(raw, op)(x=x_)
                return [y, bits(y)]

            case(g, "half_unary", "%s_%d" % (op, count), [("x", x)], build, half=True, op=op)
            count += 1
    for op in binary:
        for sa, sb in ((shapes[2], shapes[2]), (shapes[4], ()), (shapes[4], (257,)),
                       (shapes[6], (5,)), (shapes[5], (3,))):
            a, b = half_values(g, sa), half_values(g, sb)

            def build(a_, b_, op=op):
                y = getattr(raw, op)(x=a_, y=b_)
                return [y, bits(y)]

            case(g, "half_binary", "%s_%d" % (op, count), [("a", a), ("b", b)], build,
                 half=True, op=op)
            count += 1
    for fmt, xs, c in (("NHWC", (2, 3, 3, 37), 37), ("NCHW", (2, 5, 3, 3), 5),
                       ("NHWC", (1, 1, 1, 300), 300), ("NCHW", (0, 4, 2, 2), 4),
                       ("NHWC", (2, 2, 3), 3), ("NHWC", (2, 3), 4)):
        x, bias = half_values(g, xs, 0.2), half_values(g, (c,), 0.3)

        def build(x_, b_, fmt=fmt):
            y = raw.BiasAdd(value=x_, bias=b_, data_format=fmt)
            return [y, bits(y)]

        case(g, "half_BiasAdd", "%s_%d" % (fmt, count), [("x", x), ("bias", bias)], build,
             half=True, op="BiasAdd")
        count += 1
    for pool in ("MaxPool", "AvgPool"):
        for xs, k, st, pad in (((1, 5, 5, 3), 2, 2, "SAME"), ((2, 4, 4, 150), 3, 1, "VALID"),
                               ((1, 3, 3, 1), 3, 2, "SAME"), ((1, 2, 2, 2), 3, 1, "VALID"),
                               ((0, 4, 4, 2), 2, 2, "SAME")):
            x = half_values(g, xs, 0.3)

            def build(x_, pool=pool, k=k, st=st, pad=pad):
                y = getattr(raw, pool)(input=x_, ksize=[1, k, k, 1], strides=[1, st, st, 1],
                                       padding=pad)
                return [y, bits(y)]

            case(g, "half_pool", "%s_%d" % (pool, count), [("x", x)], build, half=True, op=pool)
            count += 1
    f_specials = [NAN, INF, -INF, 0.0, -0.0, 65520.0, 65519.0, 70000.0, 6e-8, 2.9e-8, 3e-8,
                  -3e-8, 1e-45, 1.0 + 2.0 ** -11, 1.0 + 3 * 2.0 ** -12, 2049.0, 1e30]
    for src, dst, trunc in (("float32", "half", False), ("half", "float32", False),
                            ("float64", "half", False), ("half", "float64", False),
                            ("half", "int32", False), ("half", "uint8", False),
                            ("half", "bool", False), ("int64", "half", False),
                            ("float32", "half", True), ("half", "int64", True)):
        if src == "half":
            x = half_values(g, (40,), 0.6)
        elif src == "int64":
            x = np.array([0, 1, -1, 65504, 65520, 2 ** 40, -2 ** 63, 2049], np.int64)
        else:
            x = np.array(f_specials + [g.r.uniform(-70000, 70000) for _ in range(20)],
                         r9.NP[src])

        def build(x_, dst=dst, trunc=trunc):
            y = raw.Cast(x=x_, DstT=tf.as_dtype(dst), Truncate=trunc)
            return [y, bits(y)]

        case(g, "half_Cast", "%s_to_%s%s_%d" % (src, dst, "_trunc" if trunc else "", count),
             [("x", x)], build, half=dst == "half" or src == "half", op="Cast")
        count += 1
    n_extra = max(0, n - count)
    del n_extra


def fam_pow_neg(g, n):
    specials = [NAN, -NAN, INF, -INF, 0.0, -0.0, 1e-40, -1e-40, 1e-20, 1e20, -1e20, 3e38, 1.5e13,
                -2.1e12, 1.0, -1.0, 0.1, 3.0, 7.0e12, 6.98e12, -6.98e12]
    count = 0
    for dt in ("float32", "float64", "half"):
        npdt = r9.NP[dt]
        for e in (2.0, 3.0, -2.0, 2.0001, 0.5):
            for shape_e in ("scalar", "tensor", "mixed"):
                with np.errstate(over="ignore"):
                    x = np.array(specials + [g.r.uniform(-100, 100) for _ in range(11)],
                                 np.float64).astype(npdt)
                if shape_e == "scalar":
                    ev = np.array(e, npdt)
                elif shape_e == "tensor":
                    ev = np.full(x.shape, e, npdt)
                else:
                    ev = np.array([e if k % 2 else 3.0 for k in range(x.size)], npdt)

                # 1 / y for the sign of a zero result: TensorFlow's pow is within an ulp of
                # the correctly rounded power, not always on it, so bits are not compared.
                def build(x_, e_):
                    y = raw.Pow(x=x_, y=e_)
                    return [y, raw.Reciprocal(x=y)]

                case(g, "Pow", "%s_%s_%s_%d" % (dt, e, shape_e, count), [("x", x), ("y", ev)],
                     build, half=dt == "half")
                count += 1
    for dt in ("float32", "float64", "half", "int8", "int32", "int64", "bfloat16"):
        if dt in ("int8", "int32", "int64"):
            info = np.iinfo(r9.NP[dt])
            x = np.array([0, 1, -1, info.min, info.max, info.min + 1], r9.NP[dt])
        else:
            with np.errstate(over="ignore"):
                x = np.array(specials, np.float64).astype(r9.NP[dt])

        def build(x_):
            y = raw.Neg(x=x_)
            return [y, bits(y, nan_bits=True), raw.Reciprocal(x=y) if y.dtype.is_floating else y]

        case(g, "Neg", "%s_%d" % (dt, count), [("x", x)], build, half=dt in ("half", "bfloat16"))
        count += 1
    del n


FAMILIES = [
    ("recurrent", fam_recurrent, 40),
    ("case", fam_case, 20),
    ("image_transform", fam_image_transform, 24),
    ("sparse_dense", fam_sparse_dense, 16),
    ("sparse_cross", fam_sparse_cross, 12),
    ("count", fam_count, 16),
    ("list_set_item", fam_list_set_item, 10),
    ("half", fam_half, 1),
    ("pow_neg", fam_pow_neg, 1),
]


if __name__ == "__main__":
    crafted_cases.main(FAMILIES, seed=12, out="crafted_round12.pbtxt.gz")
