#!/usr/bin/env python3
"""The model suite of issue 29: real models of every family (tools/bench/suite_models.py) timed
side by side in one sitting in Rill, TensorFlow and ONNX Runtime, at 1 and 2 threads.

  - Rill: `session_runner --benchmark --warmup=3 --repeat=15` on the frozen GraphDef (the -c opt
    build), intra = inter = N; its median. It runs with the OpenMP wait policy session_runner
    chooses at start (a short spin when the machine has idle cores for the team, passive when it
    does not; docs/performance.md, "OpenMP wait policy") unless --omp_wait_policy names one or
    the caller's environment sets OMP_WAIT_POLICY, GOMP_SPINCOUNT or RILL_OMP_WAIT.
  - TensorFlow: tf.compat.v1.Session on the same GraphDef, intra = inter = N, its default oneDNN
    path (TF_ENABLE_ONEDNN_OPTS left unset), timed through Session.make_callable; median of 15
    calls after 3 warm-ups (each includes TensorFlow's Python call floor, about 0.1-0.2 ms).
  - ONNX Runtime: the same frozen graph converted by tf2onnx (opset 17), ORT_ENABLE_ALL,
    intra = inter = N; median of 15 runs after 3 warm-ups. "n/c" where tf2onnx cannot convert or
    ONNX Runtime cannot load the converted model (the reason is printed below the table).
Each engine runs in its own process per model and thread count (TensorFlow keeps its first
session's thread pools for the process), so each process's peak resident set is one engine's:
Rill's is session_runner's ru_maxrss (os.wait4), TensorFlow's and ONNX Runtime's the peer
process's VmHWM after its timed runs (Python and numpy included). Rill's output is checked
against TensorFlow's: max |Rill - TF| / max |TF|.

    pip install tf2onnx                      # the converter, for this script only
    bazel build -c opt //tools/session_runner
    python3 tools/bench/model_suite.py [--models EfficientNetB0,ResNet50V2] [--threads 1,2] \
        [--min] [--reps 40]

Prints a Markdown table (model, threads, Rill ms, TF ms, ORT ms, TF/Rill, ORT/Rill) with the
geometric means per thread count, then the peak resident sets (model, threads, Rill / TF / ORT
MiB, Rill/TF, Rill/ORT, whether Rill is at most TF's and at most 1.5x ORT's); --json FILE
also writes the rows. --min also prints each engine's fastest run beside its median (on a shared
machine the median also measures how the scheduler treated that engine's runs), --reps N times
N runs per engine and row instead of 15.
--baseline RUNNER also times another session_runner (an older build) on each row, right before
the current one, for before / after ratios from one sitting.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import suite_models  # noqa: E402

WARMUP = 3
REPS = int(os.environ.get("RILL_SUITE_REPS", "15"))  # --reps, passed on to the peer processes


def _timed_ms(call):
    """(median, fastest) of REPS calls after WARMUP, in ms."""
    for _ in range(WARMUP):
        call()
    times = []
    for _ in range(REPS):
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    return float(np.median(times)) * 1e3, float(min(times)) * 1e3


def _median_ms(call):
    return _timed_ms(call)[0]


def _peak_rss_mib():
    """This process's peak resident set (VmHWM) in MiB."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0
    return None


def peer_main(name, threads, engine):
    """Child process: times one engine ("tf" or "ort") on one model at one thread count and
    prints one JSON line {"tf": ms, "tf_min": ms, "tf_rss": MiB} or {"ort": ms or null, ...,
    "ort_error": text}. One engine per process, so the peak resident set (VmHWM after the timed
    runs) is that engine's alone; "py_rss" is the interpreter's with numpy, before the engine is
    imported."""
    p, meta = suite_models.make(name)
    x = np.load(p["x"])
    result = {"py_rss": _peak_rss_mib()}
    if engine == "tf":
        import tensorflow as tf
        tf1 = tf.compat.v1
        graph_def = tf1.GraphDef()
        with open(p["pb"], "rb") as f:
            graph_def.ParseFromString(f.read())
        g = tf.Graph()
        with g.as_default():
            tf.import_graph_def(graph_def, name="")
        del graph_def  # the Graph holds what it needs
        config = tf1.ConfigProto(intra_op_parallelism_threads=threads,
                                 inter_op_parallelism_threads=threads)
        with tf1.Session(graph=g, config=config) as s:
            call = s.make_callable(meta["output"], feed_list=[meta["input"]])
            result["tf"], result["tf_min"] = _timed_ms(lambda: call(x))
            result["tf_rss"] = _peak_rss_mib()
            tf_out = os.path.join(suite_models.CACHE, name + "_tf_out.npy")
            if not os.path.exists(tf_out):
                np.save(tf_out, call(x))
        print("PEER " + json.dumps(result), flush=True)
        return
    onnx_path = suite_models.make_onnx(name)
    if onnx_path is None:
        result["ort"] = None
        with open(p["onnx_error"]) as f:
            result["ort_error"] = f.read()
    else:
        import onnxruntime as ort
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = threads
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        try:
            sess = ort.InferenceSession(onnx_path, opts, providers=["CPUExecutionProvider"])
        except Exception as e:  # ONNX Runtime refuses some of tf2onnx's models
            result["ort"] = None
            result["ort_error"] = "ONNX Runtime cannot load tf2onnx's model: " + str(e)[-120:]
        else:
            in_name = sess.get_inputs()[0].name
            result["ort"], result["ort_min"] = _timed_ms(lambda: sess.run(None, {in_name: x}))
            result["ort_rss"] = _peak_rss_mib()
    print("PEER " + json.dumps(result), flush=True)


def run_peers(name, threads):
    """TensorFlow, then ONNX Runtime, each in a fresh process; their results merged."""
    result = {}
    for engine in ("tf", "ort"):
        out = subprocess.run([sys.executable, os.path.abspath(__file__), "--_peer", name,
                              str(threads), engine], capture_output=True, text=True)
        line = [l for l in out.stdout.splitlines() if l.startswith("PEER ")]
        if out.returncode != 0 or not line:
            tail = (out.stderr.strip().splitlines() or ["?"])[-1][:200]
            result.setdefault(engine, None)
            if engine == "ort":
                result["ort_error"] = "peer failed: " + tail
            continue
        result.update(json.loads(line[0][5:]))
    return result


def _run_measured(cmd, env):
    """Runs cmd to completion: (return code, stdout, stderr, the child's peak resident set in
    MiB from its rusage, ru_maxrss)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        p = subprocess.Popen(cmd, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return p.returncode, out.read(), err.read(), usage.ru_maxrss / 1024.0


def run_rill(runner, name, threads, wait_policy):
    """(median ms, max relative difference to TensorFlow's output or None, error text, fastest
    ms, peak resident set MiB)."""
    p, meta = suite_models.make(name)
    with tempfile.TemporaryDirectory() as tmp:
        cfg = os.path.join(tmp, "config.pbtxt")
        with open(cfg, "w") as f:
            f.write("intra_op_parallelism_threads: %d inter_op_parallelism_threads: %d\n" %
                    (threads, threads))
        fetch = meta["output"].split(":")[0]
        rc, stdout, stderr, rss = _run_measured(
            [runner, "--graph=" + p["pb"], "--config=" + cfg,
             "--feed=%s=%s" % (meta["input"].split(":")[0], p["x"]), "--fetch=" + fetch,
             "--output_dir=" + tmp, "--benchmark", "--warmup=%d" % WARMUP, "--repeat=%d" % REPS],
            _rill_env(wait_policy))
        m = re.search(r"median ([0-9.]+) ?(us|ms|s)\b", stdout)
        fastest = re.search(r"min ([0-9.]+) ?(us|ms|s)\b", stdout)
        if rc != 0 or not m or not fastest:
            return None, None, (stderr.strip().splitlines() or ["?"])[-1][:200], None, None
        unit = {"us": 1e-3, "ms": 1.0, "s": 1e3}
        ms = float(m.group(1)) * unit[m.group(2)]
        min_ms = float(fastest.group(1)) * unit[fastest.group(2)]
        got = np.load(os.path.join(tmp, fetch.replace("/", "_") + ".npy")).astype(np.float64)
    tf_out = os.path.join(suite_models.CACHE, name + "_tf_out.npy")
    rel = None
    if os.path.exists(tf_out):
        want = np.load(tf_out).astype(np.float64)
        rel = float(np.abs(got - want).max() / max(np.abs(want).max(), 1e-30))
    return ms, rel, None, min_ms, rss


def _rill_env(wait_policy):
    env = dict(os.environ)
    if wait_policy and "OMP_WAIT_POLICY" not in env and "GOMP_SPINCOUNT" not in env:
        env["OMP_WAIT_POLICY"] = wait_policy
    return env


def geomean(values):
    values = [v for v in values if v]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def print_table(rows, threads_list):
    fmt = lambda v: "-" if v is None else ("%.2f" % v if v < 10 else "%.1f" % v)
    ratio = lambda a, b: None if a is None or b is None else a / b
    rx = lambda v: "-" if v is None else "%.2fx" % v
    before = any("rill_before" in r for r in rows)
    extra = " Rill before ms | TF/before | ORT/before |" if before else ""
    print("| model | family | threads | Rill ms | TF ms | ORT ms | TF/Rill | ORT/Rill | "
          "max rel diff vs TF |" + extra)
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|" + ("---:|---:|---:|" if before else ""))
    for r in rows:
        ort = fmt(r["ort"]) if r["ort"] is not None else ("n/c" if r.get("ort_error") else "-")
        line = "| %s | %s | %d | %s | %s | %s | %s | %s | %s |" % (
            r["model"], r["family"], r["threads"], fmt(r["rill"]), fmt(r["tf"]), ort,
            rx(ratio(r["tf"], r["rill"])), rx(ratio(r["ort"], r["rill"])),
            "-" if r["rel_diff"] is None else "%.1e" % r["rel_diff"])
        if before:
            b = r.get("rill_before")
            line += " %s | %s | %s |" % (fmt(b), rx(ratio(r["tf"], b)), rx(ratio(r["ort"], b)))
        print(line)
    for t in threads_list:
        sel = [r for r in rows if r["threads"] == t]
        line = "| geometric mean | | %d | | | | %s | %s | |" % (
            t, rx(geomean([ratio(r["tf"], r["rill"]) for r in sel])),
            rx(geomean([ratio(r["ort"], r["rill"]) for r in sel])))
        if before:
            line += " | %s | %s |" % (
                rx(geomean([ratio(r["tf"], r.get("rill_before")) for r in sel])),
                rx(geomean([ratio(r["ort"], r.get("rill_before")) for r in sel])))
        print(line)
    errors = {r["model"]: r["ort_error"] for r in rows if r.get("ort_error")}
    for model, err in errors.items():
        print("\n%s: ONNX Runtime not timed: %s" % (model, err))
    for r in rows:
        if r.get("rill_error"):
            print("\n%s (%d threads): Rill failed: %s" % (r["model"], r["threads"], r["rill_error"]))


def print_memory_table(rows, threads_list):
    """Each engine's peak resident set over its process (load, session creation, the warm-up and
    timed runs), and the issue's target: Rill at most TensorFlow's and at most 1.5x ONNX
    Runtime's."""
    fmt = lambda v: "-" if v is None else "%.0f" % v
    ratio = lambda a, b: None if a is None or b is None else a / b
    rx = lambda v: "-" if v is None else "%.2fx" % v
    before = any(r.get("rill_before_rss") for r in rows)
    print("| model | threads | Rill MiB | TF MiB | ORT MiB | Rill/TF | Rill/ORT | target met |" +
          (" Rill before MiB | before/ORT |" if before else ""))
    print("|---|---:|---:|---:|---:|---:|---:|:---:|" + ("---:|---:|" if before else ""))
    met = {t: [0, 0] for t in threads_list}
    for r in rows:
        rill, tf, ort = r.get("rill_rss"), r.get("tf_rss"), r.get("ort_rss")
        ok = None
        if rill is not None and (tf is not None or ort is not None):
            ok = (tf is None or rill <= tf) and (ort is None or rill <= 1.5 * ort)
            met[r["threads"]][0] += ok
            met[r["threads"]][1] += 1
        line = "| %s | %d | %s | %s | %s | %s | %s | %s |" % (
            r["model"], r["threads"], fmt(rill), fmt(tf),
            fmt(ort) if ort is not None else ("n/c" if r.get("ort_error") else "-"),
            rx(ratio(rill, tf)), rx(ratio(rill, ort)), "-" if ok is None else
            ("yes" if ok else "no"))
        if before:
            b = r.get("rill_before_rss")
            line += " %s | %s |" % (fmt(b), rx(ratio(b, ort)))
        print(line)
    for t in threads_list:
        sel = [r for r in rows if r["threads"] == t]
        print("| geometric mean | %d | | | | %s | %s | %d of %d |%s" % (
            t, rx(geomean([ratio(r.get("rill_rss"), r.get("tf_rss")) for r in sel])),
            rx(geomean([ratio(r.get("rill_rss"), r.get("ort_rss")) for r in sel])),
            met[t][0], met[t][1], " | %s |" % rx(geomean(
                [ratio(r.get("rill_before_rss"), r.get("ort_rss")) for r in sel]))
            if before else ""))
    py = [r["py_rss"] for r in rows if r.get("py_rss")]
    if py:
        print("\nTF and ORT figures include the Python interpreter with numpy (%.0f-%.0f MiB "
              "before the engine is imported)." % (min(py), max(py)))


def print_min_table(rows, threads_list):
    """Each engine's fastest run of the row beside its median: on a shared machine the median
    also measures how the scheduler treated the engine during its runs."""
    fmt = lambda v: "-" if v is None else ("%.2f" % v if v < 10 else "%.1f" % v)
    ratio = lambda a, b: None if a is None or b is None else a / b
    rx = lambda v: "-" if v is None else "%.2fx" % v
    pair = lambda lo, med: "-" if lo is None else "%s / %s" % (fmt(lo), fmt(med))
    print("| model | threads | Rill min / median ms | TF min / median ms | ORT min / median ms | "
          "TF/Rill (min) | ORT/Rill (min) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        ort = pair(r.get("ort_min"), r["ort"]) if r["ort"] is not None else (
            "n/c" if r.get("ort_error") else "-")
        print("| %s | %d | %s | %s | %s | %s | %s |" % (
            r["model"], r["threads"], pair(r.get("rill_min"), r["rill"]),
            pair(r.get("tf_min"), r["tf"]), ort, rx(ratio(r.get("tf_min"), r.get("rill_min"))),
            rx(ratio(r.get("ort_min"), r.get("rill_min")))))
    for t in threads_list:
        sel = [r for r in rows if r["threads"] == t]
        print("| geometric mean | %d | | | | %s | %s |" % (
            t, rx(geomean([ratio(r.get("tf_min"), r.get("rill_min")) for r in sel])),
            rx(geomean([ratio(r.get("ort_min"), r.get("rill_min")) for r in sel]))))


def main():
    global REPS
    if len(sys.argv) == 5 and sys.argv[1] == "--_peer":
        return peer_main(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    ap = argparse.ArgumentParser()
    ap.add_argument("--runner", default=os.path.join(
        ROOT, "bazel-out/k8-opt/bin/tools/session_runner/session_runner"))
    ap.add_argument("--models", default="", help="comma-separated names (default: all)")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--json", default="", help="also write the rows to this file")
    ap.add_argument("--baseline", default="", help="another session_runner to time beside")
    ap.add_argument("--omp_wait_policy", default="",
                    help="OMP_WAIT_POLICY for session_runner (default: its own choice)")
    ap.add_argument("--reps", type=int, default=REPS, help="timed runs per engine and row")
    ap.add_argument("--min", action="store_true",
                    help="also print each engine's fastest run (its speed when it has the cores)")
    ap.add_argument("--list", action="store_true", help="list the models and exit")
    a = ap.parse_args()
    REPS = a.reps
    os.environ["RILL_SUITE_REPS"] = str(a.reps)
    if a.list:
        for name, (family, _, shape, _) in suite_models.MODELS.items():
            print("%-18s %-28s input %s" % (name, family, "x".join(map(str, shape))))
        return 0
    names = [n for n in a.models.split(",") if n] or list(suite_models.MODELS)
    unknown = [n for n in names if n not in suite_models.MODELS]
    if unknown:
        ap.error("unknown models %s; --list shows them" % ", ".join(unknown))
    threads_list = [int(t) for t in a.threads.split(",")]
    rows = []
    for name in names:
        suite_models.make(name)
        for t in threads_list:
            peers = run_peers(name, t)
            row = {"model": name, "family": suite_models.MODELS[name][0], "threads": t,
                   "tf": peers.get("tf"), "ort": peers.get("ort"),
                   "tf_min": peers.get("tf_min"), "ort_min": peers.get("ort_min"),
                   "ort_error": peers.get("ort_error")}
            row["tf_rss"], row["ort_rss"] = peers.get("tf_rss"), peers.get("ort_rss")
            row["py_rss"] = peers.get("py_rss")
            if a.baseline:
                before = run_rill(a.baseline, name, t, a.omp_wait_policy)
                row["rill_before"], row["rill_before_rss"] = before[0], before[4]
            (row["rill"], row["rel_diff"], row["rill_error"], row["rill_min"],
             row["rill_rss"]) = run_rill(a.runner, name, t, a.omp_wait_policy)
            rows.append(row)
            rill = row["rill"]
            print("# %s %d: Rill %s ms, TF %s ms, ORT %s ms; peak RSS Rill %s, TF %s, ORT %s MiB"
                  % (name, t, rill, peers.get("tf"), peers.get("ort"), row["rill_rss"],
                     peers.get("tf_rss"), peers.get("ort_rss")), file=sys.stderr, flush=True)
    rows.sort(key=lambda r: (r["threads"], names.index(r["model"])))
    print_table(rows, threads_list)
    print()
    print_memory_table(rows, threads_list)
    if a.min:
        print()
        print_min_table(rows, threads_list)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
