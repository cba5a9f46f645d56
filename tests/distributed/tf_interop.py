#!/usr/bin/env python3
"""Interop: a Rill session (session_runner as the master) driving TensorFlow's own workers.

Starts two tf.distribute.Server workers (tensorflow-cpu, job "worker", tasks 0 and 1) on free
loopback ports, runs the seed towers (tests/distributed/testdata/multi_tower_workers.pbtxt) with
    session_runner --cluster_spec=worker|A;B --session_target=grpc://A --fetch=AddN
and checks the result [[44, 56], [98, 128]]; then the same graph on two rill_server workers, and
on a mixed cluster (task 0 rill_server, task 1 TensorFlow: the tower's result crosses between
the two implementations by RecvTensor); and the reverse, a TensorFlow client
(tf.compat.v1.Session on grpc://task 0) driving two rill_server workers through their
MasterService, and that client's sess.partial_run (PartialRunSetup and RunStep with a
partial_run_handle) on them.
The rill_servers send every numeric tensor to each other through their same-host path
(--same_host_min_bytes=0; Rill-only) and print its counters at shutdown, recorded below each
cluster: between the two Rill tasks the tower's product goes through shared memory; in the mixed
cluster Rill's offer is ignored by TensorFlow, which answers in its own wire format.
Writes what it saw to tests/distributed/testdata/tf_interop_result.txt (or --out).
Not a bazel test (it needs TensorFlow): run after `bazel build //tools/session_runner
//tools/rill_server`:  python3 tests/distributed/tf_interop.py
"""
import argparse
import os
import socket
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUNNER = os.path.join(ROOT, "bazel-bin/tools/session_runner/session_runner")
SERVER = os.path.join(ROOT, "bazel-bin/tools/rill_server/rill_server")
GRAPH = os.path.join(ROOT, "tests/distributed/testdata/multi_tower_workers.pbtxt")
EXPECTED = "[[ 44.  56.]\n [ 98. 128.]]"

TF_WORKER = """
import sys, tensorflow as tf
cluster = tf.train.ClusterSpec({"worker": sys.argv[1].split(",")})
server = tf.distribute.Server(cluster, job_name="worker", task_index=int(sys.argv[2]),
                              protocol="grpc", start=True)
print("ready", flush=True)
server.join()
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(proc, word, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        if word in line:
            return
    raise RuntimeError("worker did not start")


def start_workers(kind, addresses):
    procs = []
    for i in range(len(addresses)):
        # "mixed": task 0 is a rill_server, task 1 TensorFlow's (RecvTensor between the two).
        if kind == "tensorflow" or (kind == "mixed" and i == 1):
            cmd = [sys.executable, "-c", TF_WORKER, ",".join(addresses), str(i)]
            word = "ready"
        else:
            cmd = [SERVER, "--cluster_spec=worker|" + ";".join(addresses), "--job_name=worker",
                   "--task_id=%d" % i, "--same_host_min_bytes=0"]
            word = "serving"
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        procs.append(p)
        wait_ready(p, word)
    return procs


def stop_workers(procs):
    """Stops the workers; the same-host counters each rill_server printed at shutdown."""
    for p in procs:
        p.terminate()
    counters = []
    for i, p in enumerate(procs):
        try:
            out, _ = p.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()
            out = ""
        for line in (out or "").splitlines():
            if "same-host RecvTensor" in line:
                counters.append("task %d %s" % (i, line))
    return counters


def run_master(addresses, extra=()):
    cmd = [RUNNER, "--graph=" + GRAPH, "--cluster_spec=worker|" + ";".join(addresses),
           "--session_target=grpc://" + addresses[0], "--log_device_placement", "--fetch=AddN"]
    cmd += list(extra)
    t = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return r, time.time() - t


TF_CLIENT = """
import os, sys
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import tensorflow as tf
tf.compat.v1.disable_eager_execution()
gd = tf.compat.v1.GraphDef()
from google.protobuf import text_format
text_format.Parse(open(sys.argv[2]).read(), gd)
g = tf.Graph()
with g.as_default():
    tf.compat.v1.import_graph_def(gd, name="")
    with tf.compat.v1.Session("grpc://" + sys.argv[1], graph=g) as s:
        print("devices:", [d.name for d in s.list_devices()])
        print(s.run(g.get_tensor_by_name("AddN:0")))
"""

# sess.partial_run: r1 = a + b on task 1 fetched first, then r2 = r1 * c on task 0 with c fed
# in the second call.
TF_PARTIAL_CLIENT = """
import os, sys
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import tensorflow as tf
tf.compat.v1.disable_eager_execution()
g = tf.Graph()
with g.as_default():
    a = tf.compat.v1.placeholder(tf.float32, shape=[2], name="a")
    b = tf.compat.v1.placeholder(tf.float32, shape=[2], name="b")
    c = tf.compat.v1.placeholder(tf.float32, shape=[2], name="c")
    with tf.device("/job:worker/task:1"):
        r1 = tf.add(a, b, name="r1")
    with tf.device("/job:worker/task:0"):
        r2 = tf.multiply(r1, c, name="r2")
    with tf.compat.v1.Session("grpc://" + sys.argv[1], graph=g) as s:
        h = s.partial_run_setup([r1, r2], [a, b, c])
        print("partial_run r1:", s.partial_run(h, r1, feed_dict={a: [1, 2], b: [3, 4]}))
        print("partial_run r2:", s.partial_run(h, r2, feed_dict={c: [10, 100]}))
        try:
            s.partial_run(h, r2)
        except tf.errors.OpError as e:
            print("again:", type(e).__name__, e.message)
"""
PARTIAL_EXPECTED = "partial_run r1: [4. 6.]\npartial_run r2: [ 40. 600.]"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "tests/distributed/testdata/"
                                                  "tf_interop_result.txt"))
    args = ap.parse_args()
    import tensorflow as tf
    lines = ["# tests/distributed/tf_interop.py: a Rill session (session_runner as master) over",
             "# TensorFlow %s tf.distribute.Server workers, rill_server workers, and one of each;"
             " then a TensorFlow client on rill_server workers." %
             tf.__version__, ""]
    ok = True
    for kind in ("tensorflow", "rill", "mixed"):
        addresses = ["127.0.0.1:%d" % free_port() for _ in range(2)]
        procs = start_workers(kind, addresses)
        try:
            r, seconds = run_master(addresses)
        finally:
            counters = stop_workers(procs)
        good = r.returncode == 0 and EXPECTED in r.stdout
        ok = ok and good
        lines.append("== workers: %s (2 tasks), master: session_runner; %s, %.2f s" %
                     (kind, "OK" if good else "FAILED", seconds))
        out = r.stdout.replace(addresses[0], "A").replace(addresses[1], "B")
        lines += [l for l in out.splitlines()]
        if r.stderr.strip():
            lines += ["stderr: " + l for l in r.stderr.strip().splitlines()[-5:]]
        lines += counters
        lines.append("")
    # The reverse: a TensorFlow client (tf.compat.v1.Session on grpc://task 0) on rill_servers,
    # whose MasterService runs the graph with task 0 as the master.
    addresses = ["127.0.0.1:%d" % free_port() for _ in range(2)]
    procs = start_workers("rill", addresses)
    try:
        t = time.time()
        r = subprocess.run([sys.executable, "-c", TF_CLIENT, addresses[0], GRAPH],
                           capture_output=True, text=True, timeout=120)
        seconds = time.time() - t
    finally:
        counters = stop_workers(procs)
    good = r.returncode == 0 and EXPECTED in r.stdout
    ok = ok and good
    lines.append("== client: TensorFlow %s tf.compat.v1.Session, workers: rill (2 tasks); %s, "
                 "%.2f s (with TensorFlow's start)" % (tf.__version__, "OK" if good else "FAILED",
                                                       seconds))
    lines += r.stdout.replace(addresses[0], "A").replace(addresses[1], "B").splitlines()
    if not good:
        lines += ["stderr: " + l for l in r.stderr.strip().splitlines()[-5:]]
    lines += counters
    lines.append("")
    # Partial runs from a TensorFlow client on rill_servers.
    addresses = ["127.0.0.1:%d" % free_port() for _ in range(2)]
    procs = start_workers("rill", addresses)
    try:
        r = subprocess.run([sys.executable, "-c", TF_PARTIAL_CLIENT, addresses[0]],
                           capture_output=True, text=True, timeout=120)
    finally:
        stop_workers(procs)
    good = r.returncode == 0 and PARTIAL_EXPECTED in r.stdout
    ok = ok and good
    lines.append("== client: TensorFlow %s sess.partial_run, workers: rill (2 tasks); %s" %
                 (tf.__version__, "OK" if good else "FAILED"))
    lines += r.stdout.splitlines()
    if not good:
        lines += ["stderr: " + l for l in r.stderr.strip().splitlines()[-5:]]
    lines.append("")
    text = "\n".join(lines) + "\n"
    print(text)
    with open(args.out, "w") as f:
        f.write(text)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
