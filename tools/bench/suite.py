#!/usr/bin/env python3
"""Rill's benchmark suite side by side with its peers, in one sitting (issue 14).

    python3 tools/bench/suite.py [--reps 3] [--skip_build] [--only overhead]

Installs the peers from PyPI when missing (tensorflow-cpu, onnxruntime, onnx), builds and runs
Rill's Google Benchmark binaries (//tools/bench:session_bench, //tools/bench:nn_bench, -c opt,
JSON output), times TensorFlow (tf.compat.v1.Session.run, so Python's share is included; the
"python floor" row is TensorFlow's cost of running an Identity) and ONNX Runtime (InferenceSession
.run; its floor likewise) on the same workloads, and prints one table: workload, threads, Rill,
each peer, and Rill's speed relative to each (peer time / Rill time: above 1 means Rill is
faster). Workloads: run overhead (one Add on [2,2], fed and fetched), per-node cost (a chain of
1000 Adds), 1M-element Add, MatMul 256/1024/2048 (and OpenBLAS sgemm called directly), two
Conv2Ds, the 784-512-512-10 MLP at batch 1 and 64, the wide graph (1000 MatMuls + AddN), the
small CNN at batch 1 and 64 and MobileNetV2 (tools/bench/model_peers.py), on 1 and 2 threads, and
the cost of a cross-device Send/Recv edge. These machines are
shared and noisy: compare ratios, not absolute times, and rerun before drawing conclusions.
"""
import argparse
import importlib.util
import json
import os
import subprocess
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)


def ensure_peers():
    missing = [pkg for mod, pkg in (("tensorflow", "tensorflow-cpu"), ("onnxruntime", "onnxruntime"),
                                    ("onnx", "onnx")) if importlib.util.find_spec(mod) is None]
    if missing:
        print("installing peers:", " ".join(missing), flush=True)
        subprocess.run([sys.executable, "-m", "pip", "install", "-q"] + missing, check=True)


def rill_benchmarks(skip_build, overhead_only=False):
    """{benchmark name: microseconds per iteration (real time)} from Rill's binaries."""
    benchmarks = ["//tools/bench:session_bench"]
    if not overhead_only:
        benchmarks.append("//tools/bench:nn_bench")
    if not skip_build:
        # session_runner times the whole models (model_peers.py).
        subprocess.run(["bazel", "build", "-c", "opt", "//tools/session_runner"] + benchmarks,
                       cwd=ROOT, check=True)
    out = {}
    for t in benchmarks:
        binary = os.path.join(ROOT, "bazel-bin", "tools", "bench", t.split(":")[1])
        res = subprocess.run([binary, "--benchmark_format=json", "--benchmark_repetitions=3",
                              "--benchmark_report_aggregates_only=true"], cwd=ROOT, check=True,
                             capture_output=True, text=True)
        for b in json.loads(res.stdout)["benchmarks"]:
            if b.get("aggregate_name") != "median":
                continue
            scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[b["time_unit"]]
            out[b["run_name"]] = b["real_time"] * scale
    return out


def overhead_peers(reps):
    """Run overhead and per-node cost for ONNX Runtime and TensorFlow: {(kind, peer): us}."""
    import numpy as np
    import nn_peers
    res = {}
    x = {"x": np.ones((2, 2), np.float32), "y": np.ones((2, 2), np.float32)}
    # ONNX Runtime.
    import onnxruntime as ort
    from onnx import TensorProto, helper
    def model(n_adds):
        ins = [helper.make_tensor_value_info(k, TensorProto.FLOAT, [2, 2]) for k in ("x", "y")]
        nodes, h = [], "x"
        for i in range(n_adds):
            nodes.append(helper.make_node("Add", [h, "y"], [f"a{i}"]))
            h = f"a{i}"
        g = helper.make_graph(nodes, "g", ins, [helper.make_tensor_value_info(h, TensorProto.FLOAT,
                                                                              None)])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
        m.ir_version = 8
        return m.SerializeToString()
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    one = ort.InferenceSession(model(1), opts, providers=["CPUExecutionProvider"])
    chain = ort.InferenceSession(model(1000), opts, providers=["CPUExecutionProvider"])
    res[("overhead", "ort")] = nn_peers.median_us(lambda: one.run(None, x), reps=reps)
    res[("per_node", "ort")] = (nn_peers.median_us(lambda: chain.run(None, x), reps=reps) -
                                res[("overhead", "ort")]) / 999
    # TensorFlow (tf.compat.v1 Session.run from Python).
    import tensorflow as tf
    tf1 = tf.compat.v1
    tf1.disable_eager_execution()
    config = tf1.ConfigProto(intra_op_parallelism_threads=1, inter_op_parallelism_threads=1)
    g = tf.Graph()
    with g.as_default():
        a = tf1.placeholder(tf.float32, [2, 2])
        b = tf1.placeholder(tf.float32, [2, 2])
        add = a + b
        h = a
        for _ in range(1000):
            h = h + b
        ident = tf.identity(a)
    with tf1.Session(graph=g, config=config) as s:
        feed = {a: x["x"], b: x["y"]}
        res[("floor", "tf")] = nn_peers.median_us(lambda: s.run(ident, {a: x["x"]}), reps=reps)
        res[("overhead", "tf")] = nn_peers.median_us(lambda: s.run(add, feed), reps=reps)
        res[("per_node", "tf")] = (nn_peers.median_us(lambda: s.run(h, feed), reps=reps) -
                                   res[("overhead", "tf")]) / 999
    return res


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--skip_build", action="store_true")
    p.add_argument("--only", choices=["overhead"],
                   help="overhead: just the run-overhead, per-node and multi-device rows (a "
                   "minute, for checking executor changes)")
    a = p.parse_args()
    ensure_peers()
    overhead_only = a.only == "overhead"
    rill = rill_benchmarks(a.skip_build, overhead_only)
    import nn_peers
    cases = {} if overhead_only else nn_peers.workloads()
    ort_res = {} if overhead_only else nn_peers.run_ort(cases, a.reps)
    tf_res = {} if overhead_only else nn_peers.run_tf(cases, a.reps)
    over = overhead_peers(a.reps)
    models = {}
    if not overhead_only:
        # In its own process: Keras needs eager execution, which overhead_peers turned off.
        res = subprocess.run([sys.executable, os.path.join(HERE, "model_peers.py"), "--json",
                              "--reps", str(a.reps)], check=True, capture_output=True, text=True)
        models = {(name, t): r for name, t, r in json.loads(res.stdout.strip().splitlines()[-1])}

    rows = []  # (workload, threads, rill us, {peer: us})
    rows.append(("run overhead: Add [2,2] fed + fetched (us)", 1,
                 rill.get("BM_RunOverhead_OneAdd/1"),
                 {"ORT": over[("overhead", "ort")], "TF": over[("overhead", "tf")]}))
    chain = rill.get("BM_PerNode_AddChain1000/1")
    over_rill = rill.get("BM_RunOverhead_OneAdd/1") or 0
    rows.append(("per node: chain of 1000 Adds (us/node)", 1,
                 (chain - over_rill) / 999 if chain else None,
                 {"ORT": over[("per_node", "ort")], "TF": over[("per_node", "tf")]}))
    for n in () if overhead_only else (256, 1024, 2048):
        for t in (1, 2):
            rows.append((f"MatMul {n} (us)", t, rill.get(f"BM_MatMulSession/{n}/{t}/real_time"),
                         {"sgemm": rill.get(f"BM_Sgemm/{n}/{t}/real_time"),
                          "ORT": ort_res.get((f"MatMul/{n}", t)),
                          "TF": tf_res.get((f"MatMul/{n}", t))}))
    convs = (("BM_Conv2D_28x28x32_to_64_3x3", "Conv2D/28x28x32->64 3x3/1"),
             ("BM_Conv2D_224x224x3_to_64_7x7s2", "Conv2D/224x224x3->64 7x7/2"))
    for bench, name in () if overhead_only else convs:
        for t in (1, 2):
            rows.append((name + " (us)", t, rill.get(f"{bench}/{t}/real_time"),
                         {"ORT": ort_res.get((name, t)), "TF": tf_res.get((name, t))}))
    for batch in () if overhead_only else (1, 64):
        for t in (1, 2):
            rows.append((f"MLP 784-512-512-10 batch {batch} (us)", t,
                         rill.get(f"BM_MLP/{batch}/{t}/real_time"),
                         {"ORT": ort_res.get((f"MLP/{batch}", t)),
                          "TF": tf_res.get((f"MLP/{batch}", t))}))

    for (name, t), r in models.items():
        rows.append((name + " (us)", t, r.get("Rill"), {"ORT": r.get("ORT"), "TF": r.get("TF")}))
    # Multi-device overhead: Rill against itself (the peers have no such knob in one process).
    single, spread = rill.get("BM_DeviceChain100/0"), rill.get("BM_DeviceChain100/1")
    towers1, towers3 = rill.get("BM_TwoTowers/0"), rill.get("BM_TwoTowers/1")

    def fmt(v):
        return "-" if v is None else ("%.3f" % v if v < 1 else "%.1f" % v)
    print()
    print("| workload | threads | Rill | sgemm | ORT | TF | vs sgemm | vs ORT | vs TF |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, t, r, peers in rows:
        ratios = []
        for k in ("sgemm", "ORT", "TF"):
            v = peers.get(k)
            ratios.append("-" if v is None or not r else "%.2fx" % (v / r))
        print("| %s | %d | %s | %s | %s | %s | %s |" % (
            name, t, fmt(r), fmt(peers.get("sgemm")), fmt(peers.get("ORT")), fmt(peers.get("TF")),
            " | ".join(ratios)))
    print("\nPython call floors (included in the ORT and TF times above): TF Identity %.1f us" %
          over[("floor", "tf")])
    for (name, t), r in models.items():
        m = r.get("memory")
        if m:
            grew = m["in_use_n"] - m["in_use_1"]
            line = ("Memory, %s (Rill, CPU allocator): peak %.1f MiB; in use after 1 run %.1f MiB, "
                    "after %d runs %.1f MiB (%s)" % (name, m["peak"], m["in_use_1"], m["runs"],
                                                     m["in_use_n"], "no growth" if grew == 0 else
                                                     "GREW %.1f MiB" % grew))
            if "rss_tenth" in m and "rss_n" in m:
                line += "; process resident set after %d runs %.1f MiB, after %d %.1f MiB" % (
                    m["runs"] // 10, m["rss_tenth"], m["runs"], m["rss_n"])
            print(line)
    for (name, t), r in models.items():
        if "max_abs_diff" in r:
            print("Outputs, %s: largest |Rill - TensorFlow| over the softmax %.2g" %
                  (name, r["max_abs_diff"]))
    if single and spread:
        print("Multi-device: a CPU:0 -> CPU:1 Send/Recv edge costs %.2f us per step (chain of 100 "
              "Adds alternating devices %.1f us vs one device %.1f us, 99 edges); two towers on "
              "3 CPU devices %.2f us vs one device %.2f us" % ((spread - single) / 99, spread,
                                                              single, towers3 or 0, towers1 or 0))


if __name__ == "__main__":
    main()
