#!/usr/bin/env python3
"""Before / after on a shared machine: two session_runner builds and ONNX Runtime, alternated.

Each round times, for every model and thread count, the old runner, the new runner and ONNX
Runtime right after one another (each in its own process, as tools/bench/model_suite.py times
them: session_runner --benchmark --warmup=3 --repeat=15, each with the OpenMP wait policy it
chooses itself unless --omp_wait_policy names one; ONNX
Runtime on the tf2onnx model, ORT_ENABLE_ALL, intra = inter = N, median of 15 runs after 3
warm-ups). The table gives the median time of each and the median of each round's ratios, so a
burst of other work on the machine moves one round, not the result. With --cpu the times are CPU
time per run instead of wall time (session_runner's "cpu median", every thread of its process;
ONNX Runtime's process CPU time around each call, the median of its runs): at 1 thread on a
loaded machine a run's wall time also counts the time other jobs held its core, its CPU time
does not.

    cp bazel-bin/tools/session_runner/session_runner /tmp/sr_old    # before the change
    bazel build -c opt //tools/session_runner                         # after it
    python3 tools/bench/alternate.py /tmp/sr_old bazel-bin/tools/session_runner/session_runner \\
        --models EfficientNetB0,MobileNetV2 [--threads 1,2] [--rounds 7] [--no_ort] [--cpu]

--sweep takes the models from the model sweep's cache instead (tools/bench/sweep_speed.py's
names, ~/.cache/rill-model-sweep): each runner times the cached graph and inputs as sweep_speed.py
does, ONNX Runtime runs in one worker process per thread count (sweep_speed.py's), and its CPU
time is not measured (--cpu gives Rill's CPU time and ORT's wall time).
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import model_suite  # noqa: E402
import suite_models  # noqa: E402
import sweep_speed  # noqa: E402


def ort_main(name, threads, cpu):
    """Child process: ONNX Runtime's median ms (CPU ms with `cpu`) on one model at one thread
    count, as one line."""
    import numpy as np
    import onnxruntime as ort
    p, _ = suite_models.make(name)
    onnx = suite_models.make_onnx(name)
    if onnx is None:
        print("ORT null")
        return 0
    o = ort.SessionOptions()
    o.intra_op_num_threads = o.inter_op_num_threads = threads
    o.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    s = ort.InferenceSession(onnx, o, providers=["CPUExecutionProvider"])
    feed = {s.get_inputs()[0].name: np.load(p["x"])}
    if not cpu:
        print("ORT " + json.dumps(model_suite._median_ms(lambda: s.run(None, feed))))
        return 0
    for _ in range(model_suite.WARMUP):
        s.run(None, feed)
    times = []
    for _ in range(model_suite.REPS):
        t0 = time.process_time()
        s.run(None, feed)
        times.append(time.process_time() - t0)
    print("ORT " + json.dumps(statistics.median(times) * 1e3))
    return 0


def ort_ms(name, threads, cpu=False):
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--_ort", name, str(threads),
                          "1" if cpu else "0"], capture_output=True, text=True)
    line = [l for l in out.stdout.splitlines() if l.startswith("ORT ")]
    return json.loads(line[0][4:]) if line else None


def rill_cpu_ms(runner, name, threads, wait_policy):
    """session_runner's median CPU ms per run (its "cpu median") on one model, or None."""
    p, meta = suite_models.make(name)
    with tempfile.TemporaryDirectory() as tmp:
        cfg = os.path.join(tmp, "config.pbtxt")
        with open(cfg, "w") as f:
            f.write("intra_op_parallelism_threads: %d inter_op_parallelism_threads: %d\n" %
                    (threads, threads))
        out = subprocess.run(
            [runner, "--graph=" + p["pb"], "--config=" + cfg,
             "--feed=%s=%s" % (meta["input"].split(":")[0], p["x"]),
             "--fetch=" + meta["output"].split(":")[0], "--benchmark",
             "--warmup=%d" % model_suite.WARMUP, "--repeat=%d" % model_suite.REPS],
            capture_output=True, text=True, env=model_suite._rill_env(wait_policy))
    m = re.search(r"cpu median ([0-9.]+) us", out.stdout)
    return float(m.group(1)) / 1e3 if out.returncode == 0 and m else None


class SweepTimer:
    """Rill and ONNX Runtime times of model-sweep models, as sweep_speed.py takes them."""

    def __init__(self):
        self.workers = {}

    def rill(self, runner, name, threads, wait_policy, cpu):
        meta = sweep_speed.load_meta(name)
        res = sweep_speed.run_rill(runner, name, meta, threads, model_suite.WARMUP,
                                   model_suite.REPS, 600, model_suite._rill_env(wait_policy))
        return res.get("cpu" if cpu else "ms")

    def ort(self, name, threads):
        if threads not in self.workers:
            self.workers[threads] = sweep_speed.Worker("ort", threads, 600)
        return self.workers[threads].ask(name, model_suite.WARMUP, model_suite.REPS).get("ms")

    def close(self):
        for w in self.workers.values():
            w.close()


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--_ort":
        return ort_main(sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1")
    ap = argparse.ArgumentParser()
    ap.add_argument("old", help="session_runner before the change")
    ap.add_argument("new", help="session_runner after it")
    ap.add_argument("--models", required=True, help="comma-separated suite_models names")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--no_ort", action="store_true", help="time the two builds only")
    ap.add_argument("--cpu", action="store_true",
                    help="CPU time per run instead of wall time (needs a session_runner that "
                    "prints 'cpu median')")
    ap.add_argument("--omp_wait_policy", default="",
                    help="OMP_WAIT_POLICY for both runners (default: each runner's own choice; "
                    "docs/performance.md, \"OpenMP wait policy\")")
    ap.add_argument("--sweep", action="store_true",
                    help="models of the model sweep's cache (sweep_speed.py) instead of the suite")
    a = ap.parse_args()
    names = [n for n in a.models.split(",") if n]
    sweep = SweepTimer() if a.sweep else None
    known = (lambda n: os.path.exists(os.path.join(sweep_speed.CACHE, n + ".pb"))) if a.sweep \
        else (lambda n: n in suite_models.MODELS)
    unknown = [n for n in names if not known(n)]
    if unknown:
        ap.error("unknown models %s" % ", ".join(unknown))
    med = statistics.median
    fmt = lambda v: "-" if v is None else "%.2f" % v
    unit = "CPU ms" if a.cpu else "ms"
    print("| model | threads | Rill before %s | Rill after %s | ORT %s | before/after | ORT/after "
          "| ORT/before |" % (unit, unit, unit))
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for t in [int(x) for x in a.threads.split(",")]:
        for name in names:
            old, new, ort = [], [], []
            for _ in range(a.rounds):
                if sweep:
                    old.append(sweep.rill(a.old, name, t, a.omp_wait_policy, a.cpu))
                    new.append(sweep.rill(a.new, name, t, a.omp_wait_policy, a.cpu))
                    ort.append(None if a.no_ort else sweep.ort(name, t))
                    continue
                if a.cpu:
                    old.append(rill_cpu_ms(a.old, name, t, a.omp_wait_policy))
                    new.append(rill_cpu_ms(a.new, name, t, a.omp_wait_policy))
                else:
                    old.append(model_suite.run_rill(a.old, name, t, a.omp_wait_policy)[0])
                    new.append(model_suite.run_rill(a.new, name, t, a.omp_wait_policy)[0])
                ort.append(None if a.no_ort else ort_ms(name, t, a.cpu))
            if None in old or None in new:
                print("| %s | %d | failed | | | | | |" % (name, t), flush=True)
                continue
            ratio = lambda xs, ys: (None if None in xs else
                                    med([x / y for x, y in zip(xs, ys)]))
            rx = lambda v: "-" if v is None else "%.2fx" % v
            print("| %s | %d | %s | %s | %s | %s | %s | %s |" % (
                name, t, fmt(med(old)), fmt(med(new)), fmt(None if None in ort else med(ort)),
                rx(ratio(old, new)), rx(ratio(ort, new)), rx(ratio(ort, old))), flush=True)
    if sweep:
        sweep.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
