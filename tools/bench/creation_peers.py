"""TensorFlow's session creation on the graphs tools/bench/creation_bench wrote (--write_dir).

For each DIR/<shape>_<nodes>.pb: import_graph_def into a fresh tf.compat.v1 Graph and create a
Session (intra = inter = 1 thread; "Create" column), then the first run of the same fetch or
target creation_bench runs ("first Run" column), as TensorFlow users create sessions.

    bazel run -c opt //tools/bench:creation_bench -- --write_dir=/tmp/creation
    python3 tools/bench/creation_peers.py /tmp/creation [--timeout_s=600] [--only=fan_out]
"""
import glob
import os
import re
import subprocess
import sys
import time



def fetch_for(shape, nodes):
    if shape in ("chain", "devices"):
        return "n%d:0" % (nodes - 1), None
    if shape == "fan_in":
        return "sum:0", None
    return None, "done"


def time_one(path, shape, nodes):
    import tensorflow as tf  # only in the child process
    graph_def = tf.compat.v1.GraphDef()
    with open(path, "rb") as fh:
        graph_def.ParseFromString(fh.read())
    config = tf.compat.v1.ConfigProto(
        intra_op_parallelism_threads=1,
        inter_op_parallelism_threads=1,
        device_count={"CPU": 2 if shape == "devices" else 1})
    start = time.perf_counter()
    graph = tf.Graph()
    with graph.as_default():
        tf.compat.v1.import_graph_def(graph_def, name="")
    session = tf.compat.v1.Session(graph=graph, config=config)
    create_ms = (time.perf_counter() - start) * 1e3
    fetch, target = fetch_for(shape, nodes)
    start = time.perf_counter()
    if fetch:
        session.run(fetch)
    else:
        session.run(graph.get_operation_by_name(target))
    run_ms = (time.perf_counter() - start) * 1e3
    session.close()
    print("%-8s %9d %10.1f %12.1f %10.1f" % (shape, nodes, create_ms, run_ms, create_ms + run_ms))


def main(directory, timeout_s, only):
    files = glob.glob(os.path.join(directory, "*.pb"))
    order = {"chain": 0, "fan_in": 1, "fan_out": 2, "devices": 3}
    runs = []
    for f in files:
        m = re.match(r"(.*)_(\d+)\.pb$", os.path.basename(f))
        if only and m.group(1) != only:
            continue
        runs.append((order[m.group(1)], int(m.group(2)), m.group(1), f))
    print("%-8s %9s %10s %12s %10s" % ("shape", "nodes", "Create ms", "first Run ms", "total ms"))
    sys.stdout.flush()
    for _, nodes, shape, path in sorted(runs):
        try:
            child = subprocess.run([sys.executable, __file__, "--one", path, shape, str(nodes)],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                   timeout=timeout_s)
        except subprocess.TimeoutExpired:
            print("%-8s %9d   TensorFlow took over %d s" % (shape, nodes, timeout_s))
            continue
        if child.returncode != 0:
            print("%-8s %9d   TensorFlow failed (exit status %d)" % (shape, nodes,
                                                                   child.returncode))
        else:
            sys.stdout.write(child.stdout)
        sys.stdout.flush()


if __name__ == "__main__":
    if sys.argv[1] == "--one":
        time_one(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        flags = dict(a[2:].split("=", 1) for a in sys.argv[2:])
        main(sys.argv[1], int(flags.get("timeout_s", "600")), flags.get("only", ""))
