"""NaN and inf through the fusions and kernels Rill's graph optimizer makes (issue 26).

Each probe is a small tf.function over one NHWC float input x, frozen as the model sweep
freezes. It runs in TensorFlow (plain CPU kernels, Grappler off, as model_sweep.py) and in Rill's
session_runner on variants of x: one NaN, one +inf, one -inf, the three mixed, whole pixels of
NaN / +inf / -inf, and whole channels of NaN / +inf. NaN and +-inf positions must be equal and
finite values within model_sweep's RTOL; integer outputs (ArgMax, TopK's indices) equal. One
row per probe, with the first differing element of each failing variant.

    bazel build //tools/session_runner
    python3 tests/tfgen/nan_probes.py [--channels 8] [--runner PATH] [NAME-SUBSTRING ...]

--channels sets x's last dimension (2 x 6 x 6 x C): the vector-lane behaviour TensorFlow's Eigen
kernels show with NaN depends on it, so run 8 and a count that is not a multiple of 8. Exit
status 1 when a probe differs. See docs/model_sweep.md.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import model_sweep as ms  # noqa: E402  (TensorFlow's environment, _run_tf, _rel_diff, ...)
import suite_models  # noqa: E402  (on the path model_sweep set: _freeze_fn)


def probes(tf, c):
    """name -> fn(x), weights seeded and sized for c channels."""
    rng = np.random.RandomState(0)

    def const(*shape, lo=-1.0, hi=1.0):
        return tf.constant(rng.uniform(lo, hi, shape).astype(np.float32))

    w, wd, b, bm = const(3, 3, c, c), const(3, 3, c, 1), const(c), const(c, c)
    gamma, mean, var = const(c, lo=0.5, hi=1.5), const(c), const(c, lo=0.5, hi=1.5)
    mask = tf.constant(np.where(np.arange(c) > c - 3, -np.inf, 0).astype(np.float32))

    def conv(x):
        return tf.nn.conv2d(x, w, 1, "SAME")

    def biased(x):
        return tf.nn.bias_add(conv(x), b)

    def rows(x):
        return tf.reshape(x, [-1, c])

    return {
        "conv_bias_relu": lambda x: tf.nn.relu(biased(x)),
        "conv_bn_relu": lambda x: tf.nn.relu(tf.compat.v1.nn.fused_batch_norm(
            conv(x), gamma, b, mean, var, is_training=False)[0]),
        "conv_swish": lambda x: biased(x) * tf.sigmoid(biased(x)),
        "conv_hardswish": lambda x: biased(x) * (tf.nn.relu6(biased(x) + 3) / 6),
        "conv_residual_relu": lambda x: tf.nn.relu(biased(x) + x),
        "conv_residual_relu6": lambda x: tf.nn.relu6(biased(x) + x),
        "depthwise_relu6": lambda x: tf.nn.relu6(tf.nn.bias_add(
            tf.nn.depthwise_conv2d(x, wd, [1, 1, 1, 1], "SAME"), b)),
        "pad_conv": lambda x: tf.nn.conv2d(tf.pad(x, [[0, 0], [1, 1], [1, 1], [0, 0]]), w, 2,
                                           "VALID"),
        "matmul_relu": lambda x: tf.nn.relu(tf.matmul(rows(x), bm) + b),
        "matmul_relu6": lambda x: tf.nn.relu6(tf.matmul(rows(x), bm) + b),
        "matmul_scale_shift_relu": lambda x: tf.nn.relu(tf.matmul(rows(x), bm) * gamma + b),
        "scale_shift": lambda x: x * gamma + b,
        "scale_shift_relu": lambda x: tf.nn.relu(x * gamma + b),
        "scale_shift_relu6": lambda x: tf.nn.relu6(x * gamma + b),
        "moments_layer_norm": lambda x: (lambda m, v: tf.nn.batch_normalization(
            x, m, v, b, gamma, 1e-3))(*tf.nn.moments(x, [-1], keepdims=True)),
        "gelu_exact": lambda x: tf.nn.gelu(x, approximate=False),
        "gelu_tanh": lambda x: tf.nn.gelu(x, approximate=True),
        "gelu_keras": lambda x: tf.keras.activations.gelu(x),
        "gelu_erf": lambda x: 0.5 * x * (1.0 + tf.math.erf(x / np.float32(np.sqrt(2)))),
        "maxpool": lambda x: tf.nn.max_pool2d(x, 2, 2, "VALID"),
        "maxpool_same3": lambda x: tf.nn.max_pool2d(x, 3, 1, "SAME"),
        "avgpool": lambda x: tf.nn.avg_pool2d(x, 3, 2, "SAME"),
        "maxpool3d_same": lambda x: tf.nn.max_pool3d(x[:, None], [1, 1, 3, 3, 1],
                                                     [1, 1, 1, 1, 1], "SAME"),
        "reduce_max_min": lambda x: (tf.reduce_max(x, -1), tf.reduce_max(x, [1, 2]),
                                     tf.reduce_min(x, -1), tf.reduce_max(x)),
        "reduce_sum_mean": lambda x: (tf.reduce_sum(x, -1), tf.reduce_mean(x, [1, 2])),
        "reduce_logsumexp": lambda x: tf.reduce_logsumexp(x, -1),
        "argmax_argmin": lambda x: (tf.argmax(x, -1), tf.argmin(x, -1), tf.argmax(x, 1)),
        "top_k": lambda x: tf.math.top_k(tf.reshape(x, [2, -1]), 5),
        "top_1": lambda x: tf.math.top_k(x, 1),
        "sort": lambda x: tf.sort(x, -1),
        "softmax": lambda x: (tf.nn.softmax(x), tf.nn.log_softmax(x)),
        "softmax_inf_mask": lambda x: tf.nn.softmax(x + mask),
        "clip": lambda x: tf.clip_by_value(x, -0.5, 0.5),
        "relu6_min_max": lambda x: tf.minimum(tf.maximum(x, 0.0), 6.0),
        "activations": lambda x: (tf.nn.relu(x), tf.nn.relu6(x), tf.nn.leaky_relu(x, 0.2),
                                  tf.nn.elu(x), tf.nn.selu(x), tf.nn.softplus(x),
                                  tf.sigmoid(x), tf.tanh(x),
                                  tf.keras.activations.hard_sigmoid(x), tf.maximum(x, 0.0)),
        "l2_normalize": lambda x: tf.math.l2_normalize(x, -1),
        "resize": lambda x: (tf.image.resize(x, [9, 9]), tf.image.resize(x, [9, 9], "nearest")),
        "cumulative": lambda x: (tf.cumsum(x, -1), tf.math.cumulative_logsumexp(x, -1)),
        "batch_matmul": lambda x: tf.matmul(tf.reshape(x, [2, 36, c]), tf.reshape(x, [2, 36, c]),
                                            transpose_b=True),
    }


def variants(shape):
    base = np.random.RandomState(1).uniform(-2, 2, shape).astype(np.float32)
    size = base.size
    out = []
    for tag, values in (("nan", [np.nan]), ("+inf", [np.inf]), ("-inf", [-np.inf]),
                        ("mixed", [np.nan, np.inf, -np.inf, np.nan])):
        v = base.copy().reshape(-1)
        for j, value in enumerate(values):
            v[(37 + 67 * j) % size] = value
        out.append((tag, v.reshape(shape)))
    v = base.copy()
    v[0, 2, 3, :] = np.nan
    v[1, 1, 1, :] = np.inf
    v[1, 4, 4, :2] = -np.inf
    out.append(("pixels", v))
    v = base.copy()
    v[0, :, :, 1] = np.nan
    v[1, :, :, shape[-1] - 1] = np.inf
    out.append(("channels", v))
    return out


def run_probe(graph_def, fetches, xs, runner, tmp):
    """Differences of one probe over the variants: a list of strings, empty when all match."""
    path = os.path.join(tmp, "g.pb")
    with open(path, "wb") as f:
        f.write(graph_def.SerializeToString())
    diffs = []
    for tag, x in xs:
        want = ms._run_tf(graph_def, {"x": x}, fetches)
        np.save(os.path.join(tmp, "x.npy"), x)
        out = os.path.join(tmp, "out")
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        r = subprocess.run([runner, "--graph=" + path, "--output_dir=" + out,
                            "--feed=x:0=" + os.path.join(tmp, "x.npy")] +
                           ["--fetch=%s:0" % f for f in fetches], capture_output=True, text=True)
        if r.returncode:
            diffs.append("%s: Rill failed: %s" % (tag, r.stderr.strip()[:200]))
            continue
        for i, f in enumerate(fetches):
            got, w = np.load(os.path.join(out, "%s_0.npy" % f)), np.asarray(want[i])
            d = ms._rel_diff(got, w)
            if d is not None and d <= ms.RTOL:
                continue
            where = ""
            if got.shape == w.shape:
                g64, w64 = got.astype(np.float64), w.astype(np.float64)
                bad = np.argwhere((np.isnan(g64) != np.isnan(w64)) |
                                  ((g64 != w64) & ~np.isnan(w64)))
                if len(bad):
                    at = tuple(int(k) for k in bad[0])
                    where = ", first at %s: TF %r, Rill %r" % (at, w[at].item(), got[at].item())
            counts = (" (TF %s; Rill %s)" % (ms._nonfinite(w), ms._nonfinite(got))
                      if w.dtype.kind == "f" else "")
            diffs.append("%s %s%s%s" % (tag, f, counts, where))
    return diffs


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runner", default=os.path.join(
        ms.REPO_ROOT, "bazel-bin/tools/session_runner/session_runner"))
    p.add_argument("--channels", type=int, default=8)
    p.add_argument("only", nargs="*")
    a = p.parse_args()
    tf = ms._tf()
    shape = (2, 6, 6, a.channels)
    xs = variants(shape)
    tmp = tempfile.mkdtemp(prefix="nan_probes_")
    failed = 0
    try:
        for name, fn in probes(tf, a.channels).items():
            if a.only and not any(o in name for o in a.only):
                continue
            graph_def = suite_models._freeze_fn(fn, tf.TensorSpec(shape, tf.float32))
            diffs = run_probe(graph_def, ms._outputs(graph_def), xs, a.runner, tmp)
            failed += bool(diffs)
            print("%-26s %s" % (name, "ok" if not diffs else "DIFFERS\n    " +
                                "\n    ".join(diffs)), flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
