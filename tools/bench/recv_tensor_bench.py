#!/usr/bin/env python3
"""RecvTensor throughput of a 100 MB tensor between two worker processes on loopback:
Rill (session_runner as master, two rill_server workers) beside TensorFlow (a tf.compat.v1
Session on grpc://task0, two tf.distribute.Server workers), the same GraphDef on both. Rill runs
twice: with its same-host path (the bytes through a shared-memory segment, the default between
Rill processes on one host) and with --same_host_transfer=false (the bytes in the gRPC response,
TensorFlow's wire format, as between hosts or with TensorFlow peers).

    big  = VariableV2 [25e6] float  on /job:worker/task:1   (100 MB, set once by init =
                                                             Assign(big, Fill(dims, one)))
    out  = Slice(big, [N-1], [1])   on /job:worker/task:0   (each step, big's value crosses by
                                                             RecvTensor; the slice costs nothing)

and a local variant with both nodes on task 1 (no transfer). The transfer time is the median
step time of the cross-task graph minus the local one's; throughput = 100 MB / that time.
Medians of --reps steps after --warmup, one sitting.

    bazel build -c opt //tools/session_runner //tools/rill_server
    python3 tools/bench/recv_tensor_bench.py [--reps 20] [--warmup 3]
"""
import argparse
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# The opt binaries by their own path: bazel-bin follows whichever build ran last in the workspace.
RUNNER = os.path.join(ROOT, "bazel-out/k8-opt/bin/tools/session_runner/session_runner")
SERVER = os.path.join(ROOT, "bazel-out/k8-opt/bin/tools/rill_server/rill_server")
N = 25 * 1000 * 1000
MB = N * 4 / 1e6

TF_WORKER = """
import os, sys
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import tensorflow as tf
cluster = tf.train.ClusterSpec({"worker": sys.argv[1].split(",")})
server = tf.distribute.Server(cluster, job_name="worker", task_index=int(sys.argv[2]),
                              protocol="grpc", start=True)
print("ready", flush=True)
server.join()
"""

TF_MASTER = """
import os, sys, time, statistics
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import tensorflow as tf
from google.protobuf import text_format
reps, warmup = int(sys.argv[3]), int(sys.argv[4])
for path in sys.argv[5:]:
    gd = tf.compat.v1.GraphDef()
    text_format.Parse(open(path).read(), gd)
    g = tf.Graph()
    with g.as_default():
        tf.compat.v1.import_graph_def(gd, name="")
    with tf.compat.v1.Session("grpc://" + sys.argv[1], graph=g) as s:
        out = g.get_tensor_by_name("out:0")
        s.run(g.get_operation_by_name("init"), {"one:0": 1.0})
        for _ in range(warmup):
            s.run(out)
        times = []
        for _ in range(reps):
            t = time.perf_counter(); v = s.run(out)
            times.append(time.perf_counter() - t)
        assert list(v) == [1.0], v
        print("median_us", statistics.median(times) * 1e6, "min_us", min(times) * 1e6, flush=True)
"""


def graph(task_of_big, task_of_slice):
    return """
node { name: "dims" op: "Const" device: "/job:worker/task:%(b)d"
  attr { key: "dtype" value { type: DT_INT32 } }
  attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 1 } } int_val: %(n)d } } } }
node { name: "one" op: "Placeholder" device: "/job:worker/task:%(b)d"
  attr { key: "dtype" value { type: DT_FLOAT } } attr { key: "shape" value { shape { } } } }
node { name: "fill" op: "Fill" input: "dims" input: "one" device: "/job:worker/task:%(b)d"
  attr { key: "T" value { type: DT_FLOAT } } attr { key: "index_type" value { type: DT_INT32 } } }
node { name: "big" op: "VariableV2" device: "/job:worker/task:%(b)d"
  attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "shape" value { shape { dim { size: %(n)d } } } }
  attr { key: "container" value { s: "" } } attr { key: "shared_name" value { s: "" } } }
node { name: "init" op: "Assign" input: "big" input: "fill" device: "/job:worker/task:%(b)d"
  attr { key: "T" value { type: DT_FLOAT } } attr { key: "use_locking" value { b: true } }
  attr { key: "validate_shape" value { b: true } } }
node { name: "begin" op: "Const" device: "/job:worker/task:%(s)d"
  attr { key: "dtype" value { type: DT_INT32 } }
  attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 1 } } int_val: %(last)d } } } }
node { name: "size" op: "Const" device: "/job:worker/task:%(s)d"
  attr { key: "dtype" value { type: DT_INT32 } }
  attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 1 } } int_val: 1 } } } }
node { name: "out" op: "Slice" input: "big" input: "begin" input: "size" device: "/job:worker/task:%(s)d"
  attr { key: "T" value { type: DT_FLOAT } } attr { key: "Index" value { type: DT_INT32 } } }
""" % {"b": task_of_big, "s": task_of_slice, "n": N, "last": N - 1}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(kind, addresses):
    procs = []
    for i in range(2):
        if kind == "tf":
            cmd = [sys.executable, "-c", TF_WORKER, ",".join(addresses), str(i)]
            word = "ready"
        else:
            cmd = [SERVER, "--cluster_spec=worker|" + ";".join(addresses), "--job_name=worker",
                   "--task_id=%d" % i]
            if kind == "rill-response":
                cmd.append("--same_host_transfer=false")
            word = "serving"
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        deadline = time.time() + 60
        while time.time() < deadline:
            line = p.stdout.readline()
            if not line or word in line:
                break
        procs.append(p)
    return procs


def stop(procs):
    for p in procs:
        p.terminate()
    for p in procs:
        try:
            p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()


def rill_median(addresses, path, reps, warmup, one):
    # Run 0 initializes the variable; run 1 is timed.
    r = subprocess.run([RUNNER, "--graph=" + path, "--cluster_spec=worker|" + ";".join(addresses),
                        "--session_target=grpc://" + addresses[0], "--benchmark",
                        "--warmup=%d" % warmup, "--feed=one=" + one, "--target=init", "--then",
                        "--fetch=out", "--repeat=%d" % reps],
                       capture_output=True, text=True, timeout=600)
    m = re.search(r"run 1: .* min ([0-9.]+) us  median ([0-9.]+) us", r.stdout)
    if r.returncode != 0 or not m:
        raise RuntimeError(r.stdout + r.stderr)
    return float(m.group(2)), float(m.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp()
    cross = os.path.join(tmp, "cross.pbtxt")
    local = os.path.join(tmp, "local.pbtxt")
    open(cross, "w").write(graph(1, 0))
    open(local, "w").write(graph(1, 1))
    one = os.path.join(tmp, "one.npy")
    import numpy as np
    np.save(one, np.float32(1.0))
    results = {}
    for kind in ("rill", "rill-response", "tf"):
        addresses = ["127.0.0.1:%d" % free_port() for _ in range(2)]
        procs = start(kind, addresses)
        try:
            if kind != "tf":
                c = rill_median(addresses, cross, args.reps, args.warmup, one)
                l = rill_median(addresses, local, args.reps, args.warmup, one)
            else:
                r = subprocess.run([sys.executable, "-c", TF_MASTER, addresses[0], addresses[1],
                                    str(args.reps), str(args.warmup), cross, local],
                                   capture_output=True, text=True, timeout=600)
                vals = re.findall(r"median_us ([0-9.e+]+) min_us ([0-9.e+]+)", r.stdout)
                if len(vals) != 2:
                    raise RuntimeError(r.stdout + r.stderr)
                c, l = [(float(m), float(n)) for m, n in vals]
        finally:
            stop(procs)
        transfer = c[0] - l[0]
        floor = c[1] - l[1]
        results[kind] = (c[0], l[0], transfer, MB / (transfer / 1e6) / 1e3, floor)
    print("100 MB float32 tensor, task 1 -> task 0 over loopback gRPC (RecvTensor); medians of "
          "%d steps" % args.reps)
    names = {"rill": "Rill same-host", "rill-response": "Rill response", "tf": "TensorFlow"}
    print("%-16s %10s %10s %13s %8s %15s" % ("", "cross ms", "local ms", "transfer ms", "GB/s",
                                              "min-min ms"))
    for kind, (c, l, t, gbs, floor) in results.items():
        print("%-16s %10.1f %10.1f %13.1f %8.2f %15.1f" % (
            names[kind], c / 1e3, l / 1e3, t / 1e3, gbs, floor / 1e3))
    for kind in ("rill", "rill-response"):
        print("%s / TensorFlow throughput: %.2fx (medians), %.2fx (minima)" % (
            names[kind], results[kind][3] / results["tf"][3],
            results["tf"][4] / results[kind][4]))


if __name__ == "__main__":
    main()
