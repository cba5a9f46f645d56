#!/usr/bin/env python3
"""Where a model's run time goes, by op family, in Rill and beside ONNX Runtime.

  - Rill: runs session_runner on a model of the suite (tools/bench/suite_models.py) at N threads
    with --trace (the last run's per-node times) and ONEDNN_VERBOSE=1 (oneDNN's own time for each
    convolution it executes), and prints the time per op and per convolution kind (stem, 1x1
    expand / project, depthwise, squeeze-excitation 1x1 on one pixel), with oneDNN's
    implementation and GFLOP/s per convolution under --convs.
  - ONNX Runtime (--ort): the same model converted by tf2onnx (suite_models.make_onnx) with ORT's
    profiler (ORT_ENABLE_ALL), the median (--min: fastest) per node over the runs, summed by op.
    With --convs too, the convolutions of both engines matched by shape (channels, output size,
    window), Rill's oneDNN primitive time beside ORT's Conv node, the largest differences first.

    bazel build -c opt //tools/session_runner
    python3 tools/bench/op_breakdown.py EfficientNetB0 [--threads 1] [--reps 20] [--ort] [--convs]
        [--min] [--traces 12]

The trace is one run (with --traces N, N runs, one per session_runner process: each node's median,
or fastest with --min, beside the fastest traced run's span; on a shared machine one traced run is
often descheduled in the middle, so a single trace can put milliseconds on whichever node was
running) and oneDNN's times are medians over the runs (the fastest runs with --min),
so the two columns differ by the executor's own cost and by noise; on a shared machine compare the
kinds between engines within one sitting, and before / after a change by alternating binaries
(--runner).
"""
import argparse
import collections
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import suite_models  # noqa: E402

CONV_RE = re.compile(r"(?:g(\d+))?mb(\d+)_ic(\d+)oc(\d+)_ih(\d+)oh(\d+)kh(\d+)sh\d+dh\d+ph\d+"
                     r"_iw(\d+)ow(\d+)kw(\d+)")


def conv_kind(groups, ic, oc, oh, ow, kh, kw):
    if groups > 1:
        return "conv depthwise"
    if oh == 1 and ow == 1:
        return "conv 1x1 on one pixel (squeeze-excitation)"
    if kh > 1 or kw > 1:
        return "conv k>1"
    return "conv 1x1 expand" if oc > ic else "conv 1x1 project"


def conv_key(depthwise, ic, oc, oh, ow, kh, kw):
    """A convolution's shape, as both engines' convolutions are matched by it."""
    return ("dw " if depthwise else "") + "%d->%d %dx%d k%dx%d" % (ic, oc, oh, ow, kh, kw)


def rill(runner, name, threads, reps, show_convs, pick, traces):
    p, meta = suite_models.make(name)
    per_node = collections.defaultdict(list)  # node -> its time in each traced run
    op_of = {}
    spans = []
    with tempfile.TemporaryDirectory() as tmp:
        cfg = os.path.join(tmp, "config.pbtxt")
        with open(cfg, "w") as f:
            f.write("intra_op_parallelism_threads: %d inter_op_parallelism_threads: %d\n" %
                    (threads, threads))
        trace = os.path.join(tmp, "trace.json")
        env = dict(os.environ, ONEDNN_VERBOSE="1")
        env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        for t in range(traces):
            out = subprocess.run(
                [runner, "--graph=" + p["pb"], "--config=" + cfg,
                 "--feed=%s=%s" % (meta["input"].split(":")[0], p["x"]),
                 "--fetch=" + meta["output"].split(":")[0], "--benchmark", "--warmup=3",
                 "--repeat=%d" % (reps if t == 0 else 1), "--trace=" + trace],
                capture_output=True, text=True, env=env)
            if out.returncode != 0:
                sys.exit("session_runner failed: " + out.stderr[-500:])
            if t == 0:
                first = out
            with open(trace) as f:
                events = json.load(f)
            events = events["traceEvents"] if isinstance(events, dict) else events
            nodes = [e for e in events if e.get("ph") == "X"]
            if nodes:
                spans.append(max(e["ts"] + e["dur"] for e in nodes) - min(e["ts"] for e in nodes))
            for e in nodes:
                op_of[e["name"]] = e.get("args", {}).get("op", e["name"])
                per_node[e["name"]].append(e["dur"])
    out = first
    by_op = collections.defaultdict(lambda: [0, 0.0])
    for node, durs in per_node.items():
        by_op[op_of[node]][0] += 1
        by_op[op_of[node]][1] += pick(durs)
    median = re.search(r"median ([0-9.]+ ?[um]?s)", out.stdout)
    total = sum(v[1] for v in by_op.values())
    if traces == 1:
        print("Rill %s, %d thread(s): median %s; last run's trace by op (us):" %
              (name, threads, median.group(1) if median else "?"))
    else:
        print("Rill %s, %d thread(s): median %s; %s of each node over %d traced runs by op (us), "
              "sum %.0f; fastest traced run %.0f from its first node's start to its last's end:" %
              (name, threads, median.group(1) if median else "?", pick.__name__, traces, total,
               min(spans)))
    for op, (n, us) in sorted(by_op.items(), key=lambda kv: -kv[1][1]):
        if us >= 0.005 * total:
            print("  %-34s %4d nodes %8.0f  %5.1f%%" % (op, n, us, 100 * us / total))
    # oneDNN's convolutions. The executor's order of independent nodes can change from run to run
    # (inception branches), so a convolution is its descriptor and its rank among the
    # convolutions of that descriptor in its run, not its position in the run.
    convs = [l.strip().split(",") for l in out.stdout.splitlines() + out.stderr.splitlines()
             if l.startswith("onednn_verbose,exec,cpu,convolution")]
    per_run = len(convs) // (reps + 3) if convs else 0
    if not per_run:
        return {}
    times = collections.defaultdict(list)
    timed = convs[-per_run * reps:]
    for r in range(reps):
        seen = collections.Counter()
        for f in timed[r * per_run:(r + 1) * per_run]:
            times[(f[-2], seen[f[-2]])].append(float(f[-1]) * 1e3)
            seen[f[-2]] += 1
    kinds = collections.defaultdict(float)
    shapes = collections.defaultdict(lambda: [0, 0.0])
    rows = []
    impl = {f[-2]: f[4] for f in timed}
    for (desc, _), ts in sorted(times.items()):
        m = CONV_RE.match(desc)
        g, ic, oc, ih, oh, kh, iw, ow, kw = [int(m.group(i) or 1) for i in (1, 3, 4, 5, 6, 7, 8, 9,
                                                                            10)]
        us = pick(ts)
        kinds[conv_kind(g, ic, oc, oh, ow, kh, kw)] += us
        key = conv_key(g > 1, ic, oc, oh, ow, kh, kw)
        shapes[key][0] += 1
        shapes[key][1] += us
        flop = 2.0 * oh * ow * oc * (ic // g) * kh * kw
        rows.append((impl[desc], desc, us, flop / us / 1e3 if us > 0 else 0.0))
    print("  oneDNN convolutions by kind, %s of %d runs (us):" % (pick.__name__, reps))
    for kind, us in sorted(kinds.items(), key=lambda kv: -kv[1]):
        print("    %-44s %8.0f" % (kind, us))
    if show_convs:
        for impl, desc, us, gflops in rows:
            print("    %-24s %-66s %7.1f us %6.1f GFLOP/s" % (impl, desc, us, gflops))
    return shapes


def ort(name, threads, reps, pick):
    import numpy as np
    import onnxruntime as ort_lib
    p, _ = suite_models.make(name)
    onnx = suite_models.make_onnx(name)
    if onnx is None:
        print("ONNX Runtime: tf2onnx could not convert %s" % name)
        return {}
    x = np.load(p["x"])
    o = ort_lib.SessionOptions()
    o.intra_op_num_threads = o.inter_op_num_threads = threads
    o.graph_optimization_level = ort_lib.GraphOptimizationLevel.ORT_ENABLE_ALL
    o.enable_profiling = True
    o.profile_file_prefix = os.path.join(tempfile.gettempdir(), "op_breakdown_ort")
    s = ort_lib.InferenceSession(onnx, o, providers=["CPUExecutionProvider"])
    feed = {s.get_inputs()[0].name: x}
    for _ in range(3 + reps):
        s.run(None, feed)
    path = s.end_profiling()
    with open(path) as f:
        events = json.load(f)
    os.remove(path)
    per_node = collections.defaultdict(list)
    conv_shape = {}  # node -> conv_key of a Conv / FusedConv (shapes NCHW, weights OIHW)
    for e in events:
        if e.get("cat") == "Node" and e["name"].endswith("_kernel_time"):
            op = e["args"].get("op_name", "?")
            per_node[(e["name"], op)].append(e["dur"])
            dims = [list(t.values())[0] for t in e["args"].get("input_type_shape", [])]
            outs = [list(t.values())[0] for t in e["args"].get("output_type_shape", [])]
            if op in ("Conv", "FusedConv") and len(dims) >= 2 and len(dims[0]) == 4 and outs:
                x, w, y = dims[0], dims[1], outs[0]
                conv_shape[e["name"]] = conv_key(w[1] == 1 and x[1] > 1, x[1], w[0], y[2], y[3],
                                                 w[2], w[3])
    by_op = collections.defaultdict(float)
    for (_, op), durs in per_node.items():
        by_op[op] += pick(durs)
    total = sum(by_op.values())
    print("ONNX Runtime %s, %d thread(s): %s per node over %d runs (us; the profiler adds "
          "its own cost):" % (name, threads, pick.__name__, reps))
    for op, us in sorted(by_op.items(), key=lambda kv: -kv[1]):
        if us >= 0.005 * total:
            print("  %-34s %8.0f  %5.1f%%" % (op, us, 100 * us / total))
    shapes = collections.defaultdict(lambda: [0, 0.0])
    for (node, _), durs in per_node.items():
        if node in conv_shape:
            shapes[conv_shape[node]][0] += 1
            shapes[conv_shape[node]][1] += pick(durs)
    return shapes


def compare_convs(rill_shapes, ort_shapes, top):
    """Convolutions by shape, oneDNN's primitive time in Rill beside ONNX Runtime's Conv node
    (which includes its fused activation and residual sum), the largest differences first."""
    keys = set(rill_shapes) | set(ort_shapes)
    diff = lambda k: rill_shapes.get(k, (0, 0.0))[1] - ort_shapes.get(k, (0, 0.0))[1]
    print("  convolutions by shape, Rill's oneDNN time against ONNX Runtime's (us):")
    print("    %-32s %4s %8s %4s %8s %8s" % ("shape", "n", "Rill", "n", "ORT", "Rill-ORT"))
    for k in sorted(keys, key=lambda k: -abs(diff(k)))[:top]:
        r, o = rill_shapes.get(k, (0, 0.0)), ort_shapes.get(k, (0, 0.0))
        print("    %-32s %4d %8.0f %4d %8.0f %8.0f" % (k, r[0], r[1], o[0], o[1], diff(k)))
    print("    %-32s %4d %8.0f %4d %8.0f" % (
        "all", sum(v[0] for v in rill_shapes.values()), sum(v[1] for v in rill_shapes.values()),
        sum(v[0] for v in ort_shapes.values()), sum(v[1] for v in ort_shapes.values())))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model", help="a model of tools/bench/suite_models.py (--list there)")
    ap.add_argument("--runner", default=os.path.join(
        ROOT, "bazel-out/k8-opt/bin/tools/session_runner/session_runner"))
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--ort", action="store_true", help="also profile ONNX Runtime")
    ap.add_argument("--convs", action="store_true", help="list each oneDNN convolution")
    ap.add_argument("--min", action="store_true",
                    help="each convolution's and ONNX Runtime node's fastest run instead of its "
                    "median (on a loaded machine); with --traces, each Rill node's too")
    ap.add_argument("--traces", type=int, default=1,
                    help="trace this many runs of Rill (one session_runner each) and give each "
                    "node's median (--min: fastest) over them, beside the fastest run's span")
    a = ap.parse_args()
    if a.model not in suite_models.MODELS:
        ap.error("unknown model %s" % a.model)
    pick = min if a.min else statistics.median
    rill_shapes = rill(a.runner, a.model, a.threads, a.reps, a.convs, pick, a.traces)
    if a.ort:
        ort_shapes = ort(a.model, a.threads, a.reps, pick)
        if a.convs and rill_shapes and ort_shapes:
            compare_convs(rill_shapes, ort_shapes, 15)
    return 0


if __name__ == "__main__":
    sys.exit(main())
