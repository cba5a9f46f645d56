#!/usr/bin/env python3
"""Speed over the model sweep: every model tests/tfgen/model_sweep.py froze into
~/.cache/rill-model-sweep (*.pb, *_in.npz, *.json), timed in Rill, TensorFlow and ONNX Runtime at
each thread count, one sitting, as tools/bench/model_suite.py times its suite:

  - Rill: `session_runner --benchmark` on the frozen GraphDef (the -c opt build), intra = inter
    = N, with the OpenMP wait policy session_runner chooses at start; its median and fastest run.
  - TensorFlow: tf.compat.v1.Session, intra = inter = N, its default oneDNN path
    (TF_ENABLE_ONEDNN_OPTS unset), timed through Session.make_callable (its Python call floor,
    about 0.1-0.2 ms, is in each run).
  - ONNX Runtime: the graph converted by tf2onnx (opset 17, kept in
    ~/.cache/rill-model-sweep-onnx), ORT_ENABLE_ALL, intra = inter = N. "n/c" where tf2onnx
    cannot convert or ONNX Runtime cannot load or run the result (reasons listed below the table).

The sweep checks correctness; this script checks speed on models nobody tuned for. TensorFlow
and ONNX Runtime each run in one long-lived worker process per thread count (TensorFlow keeps its
first session's thread pools for the process; a worker that crashes or passes --timeout is
restarted), asked model by model, so the three engines' runs of one row lie minutes apart at
most. Skipped: models with string feeds or lookup-table initializers, models whose frozen graph
is over --max_mb, and models TensorFlow runs in under --min_ms at 1 thread (the Python call floor
would be most of the figure). Runs per engine and row: --warmup, then --reps, fewer for slow
models (about --budget_ms of timed runs, at least 5).

    pip install tf2onnx                        # the converter, for this script only
    python3 tests/tfgen/model_sweep.py         # fills the cache (once)
    bazel build -c opt //tools/session_runner
    python3 tools/bench/sweep_speed.py [NAME-SUBSTRING ...] [--threads 1,2] [--reps 10] \\
        [--max_mb 120] [--json FILE]

Prints one Markdown row per model and thread count, sorted by its worst ratio (the lower of
TF/Rill and ORT/Rill), each engine's median and fastest run (ms), then the geometric means per
thread count and the models left out.
"""
import argparse
import glob
import json
import math
import os
import re
import select
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import model_suite  # noqa: E402  (timing, process and table helpers shared with the suite)

CACHE = os.path.expanduser("~/.cache/rill-model-sweep")
ONNX_CACHE = os.path.expanduser("~/.cache/rill-model-sweep-onnx")


def load_meta(name):
    with open(os.path.join(CACHE, name + ".json")) as f:
        return json.load(f)


def load_feeds(name):
    return dict(np.load(os.path.join(CACHE, name + "_in.npz")))


def skip_reason(meta, feeds, max_mb):
    """Why the model is left out of the timing, or None."""
    if meta.get("build_error"):
        return "not built: " + meta["build_error"][:80]
    if meta.get("init"):
        return "lookup-table initializer"
    if any(v.dtype.kind in "OSU" for v in feeds.values()):
        return "string feed"
    if meta.get("bytes", 0) > max_mb * 1e6:
        return "graph %.0f MB > --max_mb" % (meta["bytes"] / 1e6)
    return None


def choose_reps(ms, reps, budget_ms):
    """Timed runs for a model whose one run took `ms`: reps, fewer for slow ones, at least 5."""
    return max(5, min(reps, int(budget_ms / max(ms, 1e-3))))


def timed(call, warmup, reps):
    """(median ms, fastest ms) of `reps` calls after `warmup`, through model_suite's timer."""
    model_suite.WARMUP, model_suite.REPS = warmup, reps
    return model_suite._timed_ms(call)


# ---------------------------------------------------------------------------------------------
# Peer workers: one process per engine and thread count, one JSON request per line on stdin
# ({"name", "warmup", "reps"}; reps 0 asks for a quick estimate: the median of 3 runs), one "RESULT {...}" line
# per request on stdout.

def make_onnx(name, meta):
    """tf2onnx's model of the cached graph (opset 17), converted once into ONNX_CACHE; None and
    the converter's error kept beside it where it cannot convert."""
    base = os.path.join(ONNX_CACHE, name)
    if os.path.exists(base + ".onnx"):
        return base + ".onnx", None
    if os.path.exists(base + ".error"):
        with open(base + ".error") as f:
            return None, f.read()
    os.makedirs(ONNX_CACHE, exist_ok=True)
    import tensorflow as tf
    import tf2onnx
    graph_def = tf.compat.v1.GraphDef()
    with open(os.path.join(CACHE, name + ".pb"), "rb") as f:
        graph_def.ParseFromString(f.read())
    try:
        model, _ = tf2onnx.convert.from_graph_def(
            graph_def, input_names=[k + ":0" for k in meta["feeds"]],
            output_names=[f + ":0" for f in meta["fetches"]], opset=17)
        with open(base + ".onnx", "wb") as f:
            f.write(model.SerializeToString())
        return base + ".onnx", None
    except Exception as e:  # the converter raises many kinds; its message is what we report
        err = "tf2onnx: %s: %s" % (type(e).__name__, (str(e).strip().splitlines() or [""])[0][:160])
        with open(base + ".error", "w") as f:
            f.write(err)
        return None, err


def _tf_session(name, meta, threads):
    import tensorflow as tf
    tf1 = tf.compat.v1
    graph_def = tf1.GraphDef()
    with open(os.path.join(CACHE, name + ".pb"), "rb") as f:
        graph_def.ParseFromString(f.read())
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(graph_def, name="")
    config = tf1.ConfigProto(intra_op_parallelism_threads=threads,
                             inter_op_parallelism_threads=threads)
    return tf1.Session(graph=g, config=config)


def worker_main(engine, threads):
    cached = {}  # the last model's callable, kept for its timed request after the probe
    for line in sys.stdin:
        req = json.loads(line)
        name = req["name"]
        meta = load_meta(name)
        feeds = load_feeds(name)
        result = {}
        try:
            if cached.get("name") != name:
                if cached.get("session") is not None:
                    cached["session"].close()
                cached = {"name": name}
                if engine == "tf":
                    s = _tf_session(name, meta, threads)
                    fn = s.make_callable([f + ":0" for f in meta["fetches"]],
                                         feed_list=[k + ":0" for k in meta["feeds"]])
                    args = [feeds[k] for k in meta["feeds"]]
                    cached.update(session=s, call=lambda: fn(*args))
                else:
                    path, err = make_onnx(name, meta)
                    if path is None:
                        raise RuntimeError(err)
                    import onnxruntime as ort
                    o = ort.SessionOptions()
                    o.intra_op_num_threads = o.inter_op_num_threads = threads
                    o.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
                    try:
                        s = ort.InferenceSession(path, o, providers=["CPUExecutionProvider"])
                    except Exception as e:
                        raise RuntimeError("ONNX Runtime cannot load tf2onnx's model: " +
                                           str(e).strip().splitlines()[0][-120:])
                    names = [i.name for i in s.get_inputs()]
                    feed = {n: feeds[n.split(":")[0]] for n in names}
                    cached.update(call=lambda: s.run(None, feed))
            if req["reps"] == 0:  # the median of 3 runs after one warm-up
                result["once"] = timed(cached["call"], 1, 3)[0]
            else:
                result["ms"], result["min"] = timed(cached["call"], req["warmup"], req["reps"])
        except Exception as e:  # a peer that cannot run the model: its reason goes in the table
            result["error"] = "%s: %s" % (type(e).__name__,
                                          (str(e).strip().splitlines() or [""])[0][:160])
            cached = {}
        print("RESULT " + json.dumps(result), flush=True)


class Worker:
    """A peer worker process, started on first use and again after a crash or a timeout."""

    def __init__(self, engine, threads, timeout):
        self.engine, self.threads, self.timeout, self.proc = engine, threads, timeout, None

    def ask(self, name, warmup, reps):
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen(
                [sys.executable, os.path.abspath(__file__), "--_worker", self.engine,
                 str(self.threads)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.proc.stdin.write(json.dumps({"name": name, "warmup": warmup, "reps": reps}) + "\n")
        self.proc.stdin.flush()
        deadline = time.time() + self.timeout
        while time.time() < deadline:
            ready, _, _ = select.select([self.proc.stdout], [], [], deadline - time.time())
            if not ready:
                break
            line = self.proc.stdout.readline()
            if not line:
                self.proc = None
                return {"error": "worker died"}
            if line.startswith("RESULT "):
                return json.loads(line[7:])
        self.close()
        return {"error": "timed out after %d s" % self.timeout}

    def close(self):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


# ---------------------------------------------------------------------------------------------
# Rill: session_runner --benchmark on the cached graph and inputs.

def run_rill(runner, name, meta, threads, warmup, reps, timeout, env=None):
    """{"ms", "min", "cpu", "faults"} (session_runner's median and fastest run, its median CPU time
    per run over every thread of the process, and the page faults per timed run) or {"error"}."""
    with tempfile.TemporaryDirectory() as tmp:
        cfg = os.path.join(tmp, "config.pbtxt")
        with open(cfg, "w") as f:
            f.write("intra_op_parallelism_threads: %d inter_op_parallelism_threads: %d\n" %
                    (threads, threads))
        args = [runner, "--graph=" + os.path.join(CACHE, name + ".pb"), "--config=" + cfg]
        for k, v in load_feeds(name).items():
            path = os.path.join(tmp, "in_%s.npy" % k)
            np.save(path, v)
            args.append("--feed=%s:0=%s" % (k, path))
        args += ["--fetch=%s:0" % f for f in meta["fetches"]]
        args += ["--benchmark", "--warmup=%d" % warmup, "--repeat=%d" % reps]
        try:
            r = subprocess.run(args, capture_output=True, text=True, timeout=timeout,
                               env=env or model_suite._rill_env(""))
        except subprocess.TimeoutExpired:
            return {"error": "timed out after %d s" % timeout}
    unit = {"us": 1e-3, "ms": 1.0, "s": 1e3}
    m = re.search(r"median ([0-9.]+) ?(us|ms|s)\b", r.stdout)
    lo = re.search(r"min ([0-9.]+) ?(us|ms|s)\b", r.stdout)
    if r.returncode != 0 or not m or not lo:
        return {"error": (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[0][:160]}
    cpu = re.search(r"cpu median ([0-9.]+) ?(us|ms|s)\b", r.stdout)
    faults = re.search(r"page faults/rep ([0-9.]+)", r.stdout)
    return {"ms": float(m.group(1)) * unit[m.group(2)],
            "min": float(lo.group(1)) * unit[lo.group(2)],
            "cpu": float(cpu.group(1)) * unit[cpu.group(2)] if cpu else None,
            "faults": float(faults.group(1)) if faults else None}


# ---------------------------------------------------------------------------------------------
# The table.

def worst(row):
    rs = [r for r in (row.get("tf_ratio"), row.get("ort_ratio")) if r]
    return min(rs) if rs else float("inf")


def print_table(rows, threads_list, skipped):
    fmt = lambda v: "-" if v is None else ("%.3f" % v if v < 1 else "%.2f" % v if v < 10
                                           else "%.1f" % v)
    pair = lambda r, e: (("n/c" if e == "ort" else "err") if r.get(e + "_error") else
                         "%s / %s" % (fmt(r.get(e)), fmt(r.get(e + "_min"))))
    rx = lambda v: "-" if v is None else "%.2fx" % v
    print("| model | threads | Rill median / min ms | TF median / min ms | ORT median / min ms | "
          "TF/Rill | ORT/Rill | ops |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for r in sorted(rows, key=worst):
        print("| %s | %d | %s | %s | %s | %s | %s | %s |" % (
            r["model"], r["threads"], pair(r, "rill"), pair(r, "tf"), pair(r, "ort"),
            rx(r.get("tf_ratio")), rx(r.get("ort_ratio")), r["ops"]))
    print()
    print("| threads | models | geomean TF/Rill | geomean ORT/Rill (models ORT runs) | "
          "below 1.0x TF | below 0.9x ORT |")
    print("|---:|---:|---:|---:|---:|---:|")
    for t in threads_list:
        sel = [r for r in rows if r["threads"] == t]
        tfr = [r["tf_ratio"] for r in sel if r.get("tf_ratio")]
        ortr = [r["ort_ratio"] for r in sel if r.get("ort_ratio")]
        print("| %d | %d | %s (%d) | %s (%d) | %d | %d |" % (
            t, len(sel), rx(model_suite.geomean(tfr)), len(tfr), rx(model_suite.geomean(ortr)),
            len(ortr), sum(v < 1.0 for v in tfr), sum(v < 0.9 for v in ortr)))
    errs = {}
    for r in rows:
        for e in ("rill", "tf", "ort"):
            if r.get(e + "_error"):
                errs.setdefault((e, r[e + "_error"]), []).append(r["model"])
    for (e, err), models in sorted(errs.items()):
        print("\n%s not timed on %s: %s" % (e, ", ".join(sorted(set(models))), err))
    for name, why in sorted(skipped.items()):
        print("\nskipped %s: %s" % (name, why))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--_worker":
        return worker_main(sys.argv[2], int(sys.argv[3]))
    ap = argparse.ArgumentParser()
    ap.add_argument("filters", nargs="*", help="keep models whose name contains one of these")
    ap.add_argument("--runner", default=os.path.join(
        ROOT, "bazel-out/k8-opt/bin/tools/session_runner/session_runner"))
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--reps", type=int, default=10, help="timed runs per engine and row (most)")
    ap.add_argument("--budget_ms", type=float, default=1500,
                    help="fewer runs for slow models: about this much timed time per engine")
    ap.add_argument("--min_ms", type=float, default=0.3,
                    help="skip models TensorFlow runs in less at 1 thread")
    ap.add_argument("--max_mb", type=float, default=120, help="skip larger frozen graphs")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per engine and row")
    ap.add_argument("--json", default="", help="also write the rows to this file")
    a = ap.parse_args()
    names = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(CACHE, "*.json")))
    if a.filters:
        names = [n for n in names if any(f in n for f in a.filters)]
    threads_list = [int(t) for t in a.threads.split(",")]
    workers = {(e, t): Worker(e, t, a.timeout) for e in ("tf", "ort") for t in threads_list}
    probe = workers[("tf", threads_list[0])]
    rows, skipped = [], {}
    try:
        for name in names:
            meta = load_meta(name)
            why = skip_reason(meta, load_feeds(name), a.max_mb)
            if why is None:
                once = probe.ask(name, 0, 0)
                if "error" in once:
                    why = "TensorFlow: " + once["error"]
                elif once["once"] < a.min_ms:
                    why = "TensorFlow runs it in %.3f ms" % once["once"]
            if why is not None:
                skipped[name] = why
                continue
            reps = choose_reps(once["once"], a.reps, a.budget_ms)
            for t in threads_list:
                row = {"model": name, "threads": t, "ops": len(meta.get("ops", []))}
                for e in ("tf", "ort"):
                    res = workers[(e, t)].ask(name, a.warmup, reps)
                    row[e], row[e + "_min"], row[e + "_error"] = (
                        res.get("ms"), res.get("min"), res.get("error"))
                res = run_rill(a.runner, name, meta, t, a.warmup, reps, a.timeout)
                row["rill"], row["rill_min"], row["rill_error"] = (
                    res.get("ms"), res.get("min"), res.get("error"))
                for e in ("tf", "ort"):
                    row[e + "_ratio"] = (row[e] / row["rill"] if row[e] and row["rill"]
                                         else None)
                rows.append(row)
                print("# %s %d: Rill %s, TF %s, ORT %s ms" % (
                    name, t, row["rill"] or row["rill_error"], row["tf"] or row["tf_error"],
                    row["ort"] or row["ort_error"]), file=sys.stderr, flush=True)
    finally:
        for w in workers.values():
            w.close()
    print_table(rows, threads_list, skipped)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"rows": rows, "skipped": skipped}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
