#!/usr/bin/env python3
"""Instructions per Session::Run of model-sweep models, counted by callgrind over every thread of
session_runner: steady on a noisy machine, for before / after comparisons of per-node costs
(docs/performance.md, "A loop iteration"). Needs valgrind.

Each model runs twice under callgrind, with --warmup=3 --repeat=R1 and --repeat=R2; the
difference of the two totals over R2 - R1 is one run's instructions, whatever loading and
creation cost. Nodes per run come from one traced run (--trace, outside valgrind): its step
stats hold one entry per node run, a loop's nodes once per iteration.

    bazel build -c opt //tools/session_runner && cp bazel-bin/tools/session_runner/session_runner /tmp/sr
    python3 tools/bench/callgrind_model.py /tmp/sr rnn_bilstm_while tf1_dynamic_rnn [--threads 1]

Models come from the model sweep's cache (python3 tests/tfgen/model_sweep.py NAME builds them).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

CACHE = os.path.expanduser("~/.cache/rill-model-sweep")


def runner_args(runner, name, tmp, threads):
    with open(os.path.join(CACHE, name + ".json")) as f:
        meta = json.load(f)
    cfg = os.path.join(tmp, "config.pbtxt")
    with open(cfg, "w") as f:
        f.write("intra_op_parallelism_threads: %d inter_op_parallelism_threads: %d\n" %
                (threads, threads))
    args = [runner, "--graph=" + os.path.join(CACHE, name + ".pb"), "--config=" + cfg]
    for op in meta.get("init", []):
        args += ["--target=" + op, "--then"]
    feeds = np.load(os.path.join(CACHE, name + "_in.npz"))
    for k in meta["feeds"]:
        path = os.path.join(tmp, "in_%s.npy" % k.replace("/", "_"))
        np.save(path, feeds[k])
        args.append("--feed=%s:0=%s" % (k, path))
    args += ["--fetch=%s:0" % f for f in meta["fetches"]]
    return args


def instructions(args, tmp, repeat):
    out = os.path.join(tmp, "cg.out")
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + args + [
        "--benchmark", "--warmup=3", "--repeat=%d" % repeat]
    # A wait policy set: session_runner then does not re-exec itself to choose one (an exec
    # valgrind does not follow).
    env = dict(os.environ, OMP_WAIT_POLICY=os.environ.get("OMP_WAIT_POLICY", "PASSIVE"))
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise RuntimeError(r.stderr.strip().splitlines()[-1] if r.stderr else "callgrind failed")
    m = re.search(r"Collected : (\d+)", r.stderr)
    if not m:
        with open(out) as f:
            m = re.search(r"^(?:summary|totals): (\d+)", f.read(), re.M)
    return int(m.group(1))


def nodes_per_run(args, tmp):
    trace = os.path.join(tmp, "trace.json")
    subprocess.run(args + ["--warmup=3", "--trace=" + trace], capture_output=True, text=True,
                   check=True)
    with open(trace) as f:
        events = json.load(f)
    if isinstance(events, dict):
        events = events.get("traceEvents", [])
    return sum(1 for e in events if e.get("ph") == "X")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("runner")
    p.add_argument("models", nargs="+")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--r1", type=int, default=5)
    p.add_argument("--r2", type=int, default=25)
    a = p.parse_args()
    print("| model | threads | nodes a run | instructions a run | a node |")
    print("|---|---:|---:|---:|---:|")
    for name in a.models:
        with tempfile.TemporaryDirectory() as tmp:
            args = runner_args(os.path.abspath(a.runner), name, tmp, a.threads)
            try:
                per_run = (instructions(args, tmp, a.r2) - instructions(args, tmp, a.r1)) / (
                    a.r2 - a.r1)
                nodes = nodes_per_run(args, tmp)
            except (RuntimeError, subprocess.CalledProcessError) as e:
                print("| %s | %d | error: %s | | |" % (name, a.threads, str(e)[:120]))
                continue
        print("| %s | %d | %d | %.3f M | %.0f |" % (name, a.threads, nodes, per_run / 1e6,
                                                   per_run / max(nodes, 1)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
