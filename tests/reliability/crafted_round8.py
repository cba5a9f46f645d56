#!/usr/bin/env python3
"""Crafted-input campaign, round 8 (issue 26): what rounds 1-7 did not probe, beyond one process.

- cluster: multi-process sessions through session_runner (`--cluster_spec`, `--session_target`,
  ConfigProto.cluster_def in `--config`) on `rill_server` tasks this script starts on free
  loopback ports: malformed and unreachable addresses, task indices out of range, duplicate and
  sparse tasks, devices on jobs and tasks that do not exist, a worker killed or stopped mid-run,
  tensors up to 1.2 GB across the wire, rill_server given bad flags or a port in use;
- wire: a hostile peer on a worker's port: garbage bytes, HTTP/1.1, an HTTP/2 preface then
  garbage, and gRPC calls to every WorkerService and MasterService method with garbage bytes and
  with well-formed requests naming unknown sessions, graphs, steps and rendezvous keys; after
  each, a session on the cluster must still run;
- timeouts: `operation_timeout_in_ms` on each long-running kernel class Rill has (TF1 and
  functional loops that never end around Add, MatMul, Conv2D and string ops, one huge MatMul, a
  Unique of 3M elements, a _Recv whose tensor never comes, the same across workers; Rill has no
  queues, barriers or accumulators): DeadlineExceeded near the deadline (the case fails past
  `deadline + 20 s`), and a run without one works;
- python: the `rill` package used carelessly (`PYTHONPATH=python`, the library from bazel-bin):
  feeds of mixed-type lists, object, non-contiguous, Fortran-order and big-endian arrays, 0-d
  against 1-d, Python ints past int64, huge strings; the same tensor fetched twice; a session
  closed twice and used after close; runs after a DeadlineExceeded; runs from many threads while
  another thread closes the session, partial runs from threads, ops added to the graph while
  other threads run it (thread cases print error classes only: which text a thread sees depends
  on when the close lands).

Session_runner cases run as crafted_round4.run_one does (`ulimit -v 8000000`, `timeout 40`). A
Python case is a snippet run with `tf` bound to `rill.compat.v1` (and with `--tf=FILE` to
TensorFlow 2.21's `tensorflow.compat.v1`: outcomes and printed lines are compared). `EXPECT`
holds each case's code and message part (TensorFlow's text where TensorFlow has one); a case
that runs, fails otherwise, crashes or hangs is reported.

    python3 tests/reliability/crafted_round8.py RUNNER SERVER [--only=SUBSTR] [--out=DIR]
        [--tf=FILE]

RUNNER is session_runner, SERVER rill_server (bazel-bin/tools/...); the Python cases need
bazel-bin/c/libtensorflow.so.2 and python/tools/gen_protos.sh's modules.
"""

import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crafted_round4 as r4  # noqa: E402
from crafted_round3 import G, c, i, s, ty, li  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INT32_MAX = 2**31 - 1


def b_(v):
    return "b: %s" % ("true" if v else "false")


# Each case: dict(cat, name, kind in {"runner", "server", "wire", "py"}, ...). `servers` is the
# number of worker tasks started (job "worker", tasks 0..n-1) before the case; in texts and
# args "{spec}" is their cluster spec, "{addr0}", "{addr1}", "{port0}" their addresses, "{free}" a
# port nobody listens on; `during` is (seconds, action) done while the run goes on.
CASES = []


def add(cat, name, kind, **kw):
    CASES.append(dict(cat=cat, name=name, kind=kind, **kw))


def runner_case(cat, name, g, fetch, args=(), config=None, servers=0, during=None, expect=None,
                deadline=None, server_flags=()):
    add(cat, name, "runner", text=g.text() if g is not None else None,
        fetch=fetch if isinstance(fetch, list) else [fetch], args=list(args), config=config,
        files={}, servers=servers, during=during, expect=expect, deadline=deadline,
        server_flags=list(server_flags))


# ---------------------------------------------------------------------------------------------
# Graphs.


def towers(dev0="/job:worker/task:0", dev1="/job:worker/task:1", sum_dev="/job:worker/task:0"):
    g = G()
    c(g, "a", "float", [1.0, 2.0, 3.0, 4.0], [2, 2])
    g.nodes[-1] = g.nodes[-1][:-1] + 'device: "%s" }' % dev0
    g.node("m0", "MatMul", ["a", "a"], device=dev0, T=ty("float"))
    g.node("m1", "MatMul", ["a", "a"], device=dev1, T=ty("float"))
    g.node("y", "AddN", ["m0", "m1"], device=sum_dev, T=ty("float"), N=i(2))
    return g


TOWERS_OUT = "[[14. 20.]\n [30. 44.]]"


def tf1_loop(body, dtype="float", init=None, device=None, pi=1, forever=True):
    """A TF1 while loop (Enter/Merge/Switch/NextIteration/Exit) whose body is `body(g, x)`
    returning the next value's node; cond always true when `forever`."""
    g = G()
    if init is None:
        c(g, "x0", dtype, 0.0 if dtype == "float" else 0)
    else:
        init(g)
    kw = dict(device=device) if device else {}
    g.node("e", "Enter", ["x0"], T=ty(dtype), frame_name=s("L"), is_constant=b_(False),
           parallel_iterations=i(pi), **kw)
    g.node("m", "Merge", ["e", "ni"], T=ty(dtype), N=i(2), **kw)
    c(g, "t", "bool", True)
    g.node("te", "Enter", ["t"], T=ty("bool"), frame_name=s("L"), is_constant=b_(True),
           parallel_iterations=i(pi), **kw)
    g.node("lc", "LoopCond", ["te"], **kw)
    g.node("sw", "Switch", ["m", "lc"], T=ty(dtype), **kw)
    g.node("id", "Identity", ["sw:1"], T=ty(dtype), **kw)
    nxt = body(g, "id")
    g.node("ni", "NextIteration", [nxt], T=ty(dtype), **kw)
    g.node("y", "Exit", ["sw"], T=ty(dtype), **kw)
    if device:
        on_device(g, device)
    return g


def on_device(g, device):
    """Places every node of `g` that names no device on `device`."""
    g.nodes = [n if " device: " in n else n[:-1] + ' device: "%s" }' % device for n in g.nodes]
    return g


def const_in_frame(g, name, dtype, vals, shape, pi=1):
    c(g, name + "_c", dtype, vals, shape)
    g.node(name, "Enter", [name + "_c"], T=ty(dtype), frame_name=s("L"), is_constant=b_(True),
           parallel_iterations=i(pi))
    return name


# ---------------------------------------------------------------------------------------------
# Multi-process sessions.


def gen_cluster():
    cat = "cluster"
    spec = ["--cluster_spec={spec}", "--session_target=grpc://{addr0}"]
    runner_case(cat, "towers", towers(), "y", spec, servers=2, expect=TOWERS_OUT)
    runner_case(cat, "towers_config_cluster_def", towers(), "y",
                ["--session_target=grpc://{addr0}"], servers=2, expect=TOWERS_OUT,
                config='cluster_def { job { name: "worker" tasks { key: 0 value: "{addr0}" } '
                       'tasks { key: 1 value: "{addr1}" } } }')
    # A task whose server is not there, before the run.
    runner_case(cat, "task1_down", towers(), "y",
                ["--cluster_spec=worker|{addr0};127.0.0.1:{free}",
                 "--session_target=grpc://{addr0}"], servers=1)
    runner_case(cat, "target_down", towers(), "y",
                ["--cluster_spec=worker|127.0.0.1:{free}",
                 "--session_target=grpc://127.0.0.1:{free}"])
    # Unreachable and malformed addresses.
    for label, addr in [("unroutable", "10.255.255.1:2222"), ("port_zero", "127.0.0.1:0"),
                        ("port_huge", "127.0.0.1:99999"), ("port_negative", "127.0.0.1:-1"),
                        ("port_text", "127.0.0.1:abc"), ("no_port", "127.0.0.1"),
                        ("empty_host", ":2222"), ("bad_ipv6", "[::1:2222"),
                        ("spaces", "127.0.0. 1:2222"), ("unicode", "h\u00f6st:2222"),
                        ("unresolvable", "no-such-host.invalid:2222"),
                        ("long_host", "a" * 5000 + ":2222"), ("nul", "127.0.0.1\\000:2222")]:
        runner_case(cat, "address_" + label, towers(), "y",
                    ["--cluster_spec=worker|{addr0};" + addr, "--session_target=grpc://{addr0}"],
                    servers=1)
        runner_case(cat, "config_address_" + label, towers(), "y",
                    ["--session_target=grpc://{addr0}"], servers=1,
                    config='cluster_def { job { name: "worker" tasks { key: 0 value: "{addr0}" } '
                           'tasks { key: 1 value: "%s" } } }' % addr.replace('"', '\\"'))
    # Cluster specs and targets that do not parse or do not fit.
    for label, sp in [("empty_job", "|{addr0}"), ("no_bar", "{addr0}"), ("two_bars", "w|x|{addr0}"),
                      ("job_twice", "worker|{addr0},worker|{addr1}"),
                      ("empty_task", "worker|{addr0};;{addr1}"),
                      ("trailing_comma", "worker|{addr0},"), ("job_slash", "wor/ker|{addr0}"),
                      ("job_colon", "job:worker|{addr0}"), ("many_tasks", "worker|" + ";".join(
                          ["{addr0}"] + ["127.0.0.1:%d" % (1 + k) for k in range(3000)]))]:
        runner_case(cat, "spec_" + label, towers(), "y",
                    ["--cluster_spec=" + sp, "--session_target=grpc://{addr0}"], servers=2)
    for label, target in [("empty_host", "grpc://"), ("scheme", "grpcx://{addr0}"),
                          ("no_scheme", "{addr0}"), ("not_in_cluster", "grpc://127.0.0.1:{free}"),
                          ("local", "local"), ("path", "grpc://{addr0}/x")]:
        runner_case(cat, "target_" + label, towers(), "y",
                    ["--cluster_spec={spec}", "--session_target=" + target], servers=2)
    # ClusterDefs that name tasks oddly.
    for label, jobs in [
            ("sparse_task_5", 'job { name: "worker" tasks { key: 0 value: "{addr0}" } '
                              'tasks { key: 5 value: "{addr1}" } }'),
            ("negative_task", 'job { name: "worker" tasks { key: 0 value: "{addr0}" } '
                              'tasks { key: -1 value: "{addr1}" } }'),
            ("task_int_max", 'job { name: "worker" tasks { key: 0 value: "{addr0}" } '
                             'tasks { key: 2147483647 value: "{addr1}" } }'),
            ("duplicate_address", 'job { name: "worker" tasks { key: 0 value: "{addr0}" } '
                                  'tasks { key: 1 value: "{addr0}" } }'),
            ("duplicate_job", 'job { name: "worker" tasks { key: 0 value: "{addr0}" } } '
                              'job { name: "worker" tasks { key: 1 value: "{addr1}" } }'),
            ("empty_job_name", 'job { name: "" tasks { key: 0 value: "{addr0}" } }'),
            ("job_without_tasks", 'job { name: "worker" tasks { key: 0 value: "{addr0}" } '
                                  'tasks { key: 1 value: "{addr1}" } } job { name: "ps" }'),
            ("empty_address", 'job { name: "worker" tasks { key: 0 value: "{addr0}" } '
                              'tasks { key: 1 value: "" } }'),
            ("two_jobs_same_address", 'job { name: "worker" tasks { key: 0 value: "{addr0}" } '
                                      'tasks { key: 1 value: "{addr1}" } } '
                                      'job { name: "ps" tasks { key: 0 value: "{addr1}" } }')]:
        runner_case(cat, "cluster_def_" + label, towers(), "y",
                    ["--session_target=grpc://{addr0}"], servers=2,
                    config="cluster_def { %s }" % jobs)
    # Devices naming jobs, tasks and replicas the cluster does not have.
    for label, dev in [("task_7", "/job:worker/task:7"), ("job_ps", "/job:ps/task:0"),
                       ("replica_1", "/job:worker/replica:1/task:1"),
                       ("task_negative", "/job:worker/task:-1"),
                       ("cpu_5", "/job:worker/task:1/device:CPU:5"),
                       ("gpu_0", "/job:worker/task:1/device:GPU:0"),
                       ("localhost", "/job:localhost/replica:0/task:0"),
                       ("task_huge", "/job:worker/task:99999999999")]:
        runner_case(cat, "device_" + label, towers(dev1=dev), "y", spec, servers=2)
        runner_case(cat, "device_soft_" + label, towers(dev1=dev), "y",
                    spec + ["--allow_soft_placement"], servers=2, expect=TOWERS_OUT)
    # A worker killed or stopped mid-run: task 1 loops (never ends) and dies after 1.5 s.
    loop_on_1 = tf1_loop(lambda g, x: g.node("add", "Add", [x, const_in_frame(
        g, "one", "float", 1.0, [])], T=ty("float")), device="/job:worker/task:1")
    g = loop_on_1
    g.node("z", "Identity", ["y"], device="/job:worker/task:0", T=ty("float"))
    runner_case(cat, "worker_killed_mid_run", g, "z", spec, servers=2,
                during=(1.5, ("kill", 1, signal.SIGKILL)))
    runner_case(cat, "worker_sigterm_mid_run", g, "z", spec, servers=2,
                during=(1.5, ("kill", 1, signal.SIGTERM)))
    runner_case(cat, "master_task_killed_mid_run", g, "z", spec, servers=2,
                during=(1.5, ("kill", 0, signal.SIGKILL)))
    runner_case(cat, "worker_stopped_mid_run_timeout", g, "z", spec, servers=2,
                config="operation_timeout_in_ms: 3000", deadline=3.0,
                during=(1.0, ("kill", 1, signal.SIGSTOP)))
    runner_case(cat, "worker_loop_timeout", g, "z", spec, servers=2,
                config="operation_timeout_in_ms: 1500", deadline=1.5)
    # A _Recv on task 1 of a tensor that task 0 never sends (its loop never ends).
    g = tf1_loop(lambda g, x: g.node("add", "Add", [x, const_in_frame(
        g, "one", "float", 1.0, [])], T=ty("float")), device="/job:worker/task:0")
    g.node("n", "Neg", ["y"], device="/job:worker/task:1", T=ty("float"))
    runner_case(cat, "recv_never_arrives_timeout", g, "n", spec, servers=2,
                config="operation_timeout_in_ms: 1500", deadline=1.5)
    # Large tensors across the wire: made on task 1, reduced on task 0.
    for label, n, flags in [("1e8_floats", 100_000_000, ()),
                            ("3e8_floats_response", 300_000_000, ("--same_host_transfer=false",)),
                            ("3e8_floats_shm", 300_000_000, ())]:
        g = G()
        c(g, "dims", "int32", [n])
        g.nodes[-1] = g.nodes[-1][:-1] + ' device: "/job:worker/task:1" }'
        c(g, "v", "float", 1.0)
        g.nodes[-1] = g.nodes[-1][:-1] + ' device: "/job:worker/task:1" }'
        g.node("big", "Fill", ["dims", "v"], device="/job:worker/task:1", T=ty("float"))
        c(g, "ax", "int32", [0])
        g.nodes[-1] = g.nodes[-1][:-1] + ' device: "/job:worker/task:0" }'
        g.node("y", "Sum", ["big", "ax"], device="/job:worker/task:0", T=ty("float"),
               Tidx=ty("int32"))
        runner_case(cat, "big_tensor_" + label, g, "y", spec, servers=2, server_flags=flags)
    # Strings across the wire.
    g = G()
    c(g, "x", "string", ["ab"])
    g.nodes[-1] = g.nodes[-1][:-1] + ' device: "/job:worker/task:1" }'
    g.node("big", "StringJoin", ["x"] * 4, device="/job:worker/task:1", N=i(4))
    g.node("y", "StringLength", ["big"], device="/job:worker/task:0")
    runner_case(cat, "string_across_tasks", g, "y", spec, servers=2, expect="8")
    # Workers started with small and large thread counts (those past a session config's 1024
    # are refused below; 1024 stacks do not fit the cases' 8 GB address space).
    for label, flag in [("intra_one", "--intra_op_threads=1"),
                        ("inter_64", "--inter_op_threads=64")]:
        runner_case(cat, "server_" + label + "_runs", towers(), "y", spec, servers=2,
                    server_flags=[flag], expect=TOWERS_OUT)
    # rill_server misused.
    for label, flags in [("task_out_of_range", ["--cluster_spec=worker|127.0.0.1:{free}",
                                                "--job_name=worker", "--task_id=3"]),
                         ("job_missing", ["--cluster_spec=worker|127.0.0.1:{free}",
                                          "--job_name=ps", "--task_id=0"]),
                         ("port_in_use", ["--cluster_spec=worker|{addr0}", "--job_name=worker",
                                          "--task_id=0"]),
                         ("port_text", ["--cluster_spec=worker|127.0.0.1:abc",
                                        "--job_name=worker", "--task_id=0"]),
                         ("port_huge", ["--cluster_spec=worker|127.0.0.1:70000",
                                        "--job_name=worker", "--task_id=0"]),
                         ("task_huge", ["--cluster_spec=worker|127.0.0.1:{free}",
                                        "--job_name=worker", "--task_id=99999999999"]),
                         ("no_spec", ["--job_name=worker", "--task_id=0"]),
                         ("spec_garbage", ["--cluster_spec=|||", "--job_name=worker",
                                           "--task_id=0"]),
                         ("threads_negative", ["--cluster_spec=worker|127.0.0.1:{free}",
                                               "--job_name=worker", "--task_id=0",
                                               "--inter_op_threads=-5"]),
                         ("threads_huge", ["--cluster_spec=worker|127.0.0.1:{free}",
                                           "--job_name=worker", "--task_id=0",
                                           "--intra_op_threads=100000000"]),
                         ("inter_threads_huge", ["--cluster_spec=worker|127.0.0.1:{free}",
                                                 "--job_name=worker", "--task_id=0",
                                                 "--inter_op_threads=100000000"])]:
        add(cat, "server_" + label, "server", flags=flags, servers=1)


# ---------------------------------------------------------------------------------------------
# A hostile peer on a worker's port; after each probe a session must still run the towers.

WIRE_HELPER = r"""
import os, socket, sys, time
sys.path.insert(0, sys.argv[1])
import grpc
from distributed.protos import worker_pb2, master_pb2
addr, probe = sys.argv[2], sys.argv[3]
host, port = addr.rsplit(":", 1)

def raw(data, wait=1.0):
    s = socket.create_connection((host, int(port)), timeout=5)
    try:
        s.sendall(data)
        s.settimeout(wait)
        print("RPC_RAW sent %d bytes, read %d" % (len(data), len(s.recv(65536))))
    except Exception as e:
        print("RPC_RAW %s: %s" % (type(e).__name__, e))
    finally:
        s.close()

def call(service, method, payload, timeout=10):
    ch = grpc.insecure_channel(addr, options=[("grpc.max_send_message_length", -1),
                                              ("grpc.max_receive_message_length", -1)])
    f = ch.unary_unary("/tensorflow.%s/%s" % (service, method))
    try:
        f(payload, timeout=timeout)
        print("RPC_OK %s" % method)
    except grpc.RpcError as e:
        print("RPC_ERR %s %s: %s" % (method, e.code().name, (e.details() or "")[:300]))
    ch.close()

WORKER = ["GetStatus", "CreateWorkerSession", "DeleteWorkerSession", "RegisterGraph",
          "DeregisterGraph", "RunGraph", "CleanupGraph", "CleanupAll", "RecvTensor"]
MASTER = ["CreateSession", "ExtendSession", "PartialRunSetup", "RunStep", "CloseSession",
          "ListDevices", "Reset"]
if probe == "garbage":
    raw(os.urandom(4096))
elif probe == "zeros_10mb":
    raw(b"\0" * (10 << 20))
elif probe == "http1":
    raw(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
elif probe == "h2_preface_garbage":
    raw(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + os.urandom(2048))
elif probe == "h2_huge_frame":
    raw(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\xff\xff\xff\x00\x00\x00\x00\x00\x01" +
        b"\0" * 100000)
elif probe == "half_open_100":
    socks = [socket.create_connection((host, int(port)), timeout=5) for _ in range(100)]
    time.sleep(0.5)
    for s in socks:
        s.close()
elif probe == "rpc_garbage":
    for m in WORKER:
        call("WorkerService", m, os.urandom(200))
    for m in MASTER:
        call("MasterService", m, os.urandom(200))
elif probe == "rpc_empty":
    for m in WORKER:
        call("WorkerService", m, b"")
    for m in MASTER:
        call("MasterService", m, b"")
elif probe == "rpc_truncated_varint":
    for m in WORKER + MASTER:
        call("WorkerService" if m in WORKER else "MasterService", m, b"\x0a\xff\xff\xff\xff\x0f")
elif probe == "rpc_unknown_method":
    call("WorkerService", "NoSuchMethod", b"")
elif probe == "rpc_unknown_handles":
    call("WorkerService", "RegisterGraph", worker_pb2.RegisterGraphRequest(
        session_handle="nope").SerializeToString())
    call("WorkerService", "RunGraph", worker_pb2.RunGraphRequest(
        session_handle="nope", graph_handle="g", step_id=1).SerializeToString())
    call("WorkerService", "RunGraph", worker_pb2.RunGraphRequest(
        graph_handle="g", step_id=-1).SerializeToString())
    call("WorkerService", "DeregisterGraph", worker_pb2.DeregisterGraphRequest(
        session_handle="nope", graph_handle="g").SerializeToString())
    call("WorkerService", "CleanupGraph", worker_pb2.CleanupGraphRequest(
        step_id=-5).SerializeToString())
    call("WorkerService", "DeleteWorkerSession", worker_pb2.DeleteWorkerSessionRequest(
        session_handle="nope").SerializeToString())
    call("MasterService", "RunStep", master_pb2.RunStepRequest(
        session_handle="nope", fetch=["x:0"]).SerializeToString())
    call("MasterService", "ExtendSession", master_pb2.ExtendSessionRequest(
        session_handle="nope").SerializeToString())
    call("MasterService", "CloseSession", master_pb2.CloseSessionRequest(
        session_handle="nope").SerializeToString())
elif probe == "recv_bad_keys":
    for key in ["", "a", "a;b;c;d;e", ";;;;", "/job:worker/replica:0/task:0/device:CPU:0;zz;"
                "/job:worker/replica:0/task:1/device:CPU:0;t;0:0", "x" * 100000,
                "/job:worker/replica:0/task:0/device:CPU:0;0000000000000001;"
                "/job:worker/replica:0/task:1/device:CPU:0;edge_1_x;0:0"]:
        call("WorkerService", "RecvTensor", worker_pb2.RecvTensorRequest(
            step_id=12345, rendezvous_key=key).SerializeToString(), timeout=3)
elif probe == "create_session_bad_server_def":
    from proto import cluster_pb2
    sd = master_pb2.CreateSessionRequest()
    call("WorkerService", "CreateWorkerSession", worker_pb2.CreateWorkerSessionRequest(
        session_handle="h").SerializeToString())
    req = worker_pb2.CreateWorkerSessionRequest(session_handle="h2")
    req.server_def.job_name = "nosuchjob"
    req.server_def.task_index = 77
    call("WorkerService", "CreateWorkerSession", req.SerializeToString())
    req = worker_pb2.CreateWorkerSessionRequest(session_handle="h3")
    req.server_def.job_name = "worker"
    req.server_def.task_index = -1
    call("WorkerService", "CreateWorkerSession", req.SerializeToString())
elif probe == "register_bad_graphs":
    req = worker_pb2.CreateWorkerSessionRequest(session_handle="hs")
    call("WorkerService", "CreateWorkerSession", req.SerializeToString())
    for text in ["node { name: 'a' op: 'NoSuchOp' }",
                 "node { name: 'a' op: 'Const' }",
                 "node { name: 'a' op: 'Identity' input: 'a' "
                 "attr { key: 'T' value { type: DT_FLOAT } } }",
                 "node { name: 'a' op: 'Const' device: '/job:worker/replica:0/task:9/device:CPU:0'"
                 " attr { key: 'dtype' value { type: DT_FLOAT } } attr { key: 'value' value { "
                 "tensor { dtype: DT_FLOAT tensor_shape {} float_val: 1 } } } }"]:
        from google.protobuf import text_format
        req = worker_pb2.RegisterGraphRequest(session_handle="hs")
        text_format.Parse(text, req.graph_def)
        call("WorkerService", "RegisterGraph", req.SerializeToString())
    req = worker_pb2.RegisterGraphRequest(session_handle="hs")
    call("WorkerService", "RegisterGraph", req.SerializeToString())
elif probe == "master_bad_graph":
    from google.protobuf import text_format
    req = master_pb2.CreateSessionRequest()
    text_format.Parse("node { name: 'a' op: 'NoSuchOp' }", req.graph_def)
    call("MasterService", "CreateSession", req.SerializeToString())
    req = master_pb2.CreateSessionRequest()
    text_format.Parse("node { name: 'a' op: 'Placeholder' attr { key: 'dtype' value { type: "
                      "DT_FLOAT } } }", req.graph_def)
    call("MasterService", "CreateSession", req.SerializeToString())
elif probe == "rpc_flood":
    import threading
    ts = [threading.Thread(target=call, args=("WorkerService", "GetStatus", b"")) for _ in
          range(200)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
print("WIRE_DONE")
"""


def gen_wire():
    for probe in ["garbage", "zeros_10mb", "http1", "h2_preface_garbage", "h2_huge_frame",
                  "half_open_100", "rpc_garbage", "rpc_empty", "rpc_truncated_varint",
                  "rpc_unknown_method", "rpc_unknown_handles", "recv_bad_keys",
                  "create_session_bad_server_def", "register_bad_graphs", "master_bad_graph",
                  "rpc_flood"]:
        add("wire", "wire_" + probe, "wire", probe=probe, servers=2, text=towers().text())


# ---------------------------------------------------------------------------------------------
# Timeouts on long-running kernels (one process).


def gen_timeouts():
    cat = "timeouts"
    cfg = "operation_timeout_in_ms: 1000"

    def tc(name, g, fetch, config=cfg, deadline=1.0, args=()):
        runner_case(cat, name, g, fetch, args, config=config, deadline=deadline)

    tc("loop_add", tf1_loop(lambda g, x: g.node("add", "Add", [x, const_in_frame(
        g, "one", "float", 1.0, [])], T=ty("float"))), "y")

    def mm_init(g):
        c(g, "x0", "float", [0.001] * 4, [2, 2])

    def mm_body(g, x):
        w = const_in_frame(g, "w", "float", [0.001], [1, 1])
        # Each step: a [512, 512] x [512, 512] product of a broadcast.
        c(g, "sh", "int32", [512, 512])
        g.node("she", "Enter", ["sh"], T=ty("int32"), frame_name=s("L"), is_constant=b_(True),
               parallel_iterations=i(1))
        g.node("bt", "BroadcastTo", [w, "she"], T=ty("float"), Tidx=ty("int32"))
        g.node("mm", "MatMul", ["bt", "bt"], T=ty("float"))
        c(g, "z", "int32", [0, 0])
        g.node("ze", "Enter", ["z"], T=ty("int32"), frame_name=s("L"), is_constant=b_(True),
               parallel_iterations=i(1))
        c(g, "two", "int32", [2, 2])
        g.node("twoe", "Enter", ["two"], T=ty("int32"), frame_name=s("L"), is_constant=b_(True),
               parallel_iterations=i(1))
        g.node("sl", "Slice", ["mm", "ze", "twoe"], T=ty("float"), Index=ty("int32"))
        return g.node("add", "Add", [x, "sl"], T=ty("float"))

    tc("loop_matmul", tf1_loop(mm_body, init=mm_init), "y")

    def conv_body(g, x):
        w = const_in_frame(g, "w", "float", [0.01], [1, 1, 1, 1])
        c(g, "sh", "int32", [1, 256, 256, 16])
        g.node("she", "Enter", ["sh"], T=ty("int32"), frame_name=s("L"), is_constant=b_(True),
               parallel_iterations=i(1))
        g.node("img", "BroadcastTo", [w, "she"], T=ty("float"), Tidx=ty("int32"))
        c(g, "fs", "int32", [3, 3, 16, 16])
        g.node("fse", "Enter", ["fs"], T=ty("int32"), frame_name=s("L"), is_constant=b_(True),
               parallel_iterations=i(1))
        g.node("flt", "BroadcastTo", [w, "fse"], T=ty("float"), Tidx=ty("int32"))
        g.node("cv", "Conv2D", ["img", "flt"], T=ty("float"), strides=li([1, 1, 1, 1]),
               padding=s("SAME"))
        g.node("sm", "Sum", ["cv", const_in_frame(g, "ax", "int32", [0, 1, 2, 3], [4])],
               T=ty("float"), Tidx=ty("int32"))
        return g.node("add", "Add", [x, "sm"], T=ty("float"))

    tc("loop_conv2d", tf1_loop(conv_body), "y")

    def str_init(g):
        c(g, "x0", "string", ["ab"], [])

    def str_body(g, x):
        g.node("j", "StringJoin", [x, x], N=i(2), separator=s(""))
        c(g, "len", "int32", 1 << 20, [])
        g.node("le", "Enter", ["len"], T=ty("int32"), frame_name=s("L"), is_constant=b_(True),
               parallel_iterations=i(1))
        c(g, "zero", "int32", 0, [])
        g.node("zer", "Enter", ["zero"], T=ty("int32"), frame_name=s("L"), is_constant=b_(True),
               parallel_iterations=i(1))
        # Keeps at most 1 MiB: the loop runs string work forever at a bounded size.
        g.node("sub", "Substr", ["j", "zer", "le"], T=ty("int32"), unit=s("BYTE"))
        g.node("rx", "RegexReplace", ["sub", const_in_frame(g, "pat", "string", ["(a|b)+c"], []),
                                      const_in_frame(g, "rw", "string", ["x"], [])],
               replace_global=b_(True))
        return "rx"

    tc("loop_strings", tf1_loop(str_body, dtype="string", init=str_init), "y")
    # One huge MatMul (about 2 * 5000^3 flops) of a random matrix (constants would be folded
    # before the run, in TensorFlow too): TensorFlow lets the kernel finish, then returns
    # DeadlineExceeded.
    g = G()
    c(g, "sh", "int32", [5000, 5000])
    g.node("r", "RandomUniform", ["sh"], T=ty("int32"), dtype=ty("float"), seed=i(1),
           seed2=i(2))
    g.node("mm", "MatMul", ["r", "r"], T=ty("float"))
    g.node("y", "Sum", ["mm", c(g, "ax", "int32", [0, 1])], T=ty("float"), Tidx=ty("int32"))
    tc("one_huge_matmul", g, "y", deadline=30.0)
    # A functional While whose cond is always true.
    g = G()
    c(g, "x0", "int32", 0, [])
    g.node("w", "While", ["x0"], T="list { type: 3 }", cond="func { name: \"cond\" }",
           body="func { name: \"body\" }", output_shapes="list { shape { } }",
           parallel_iterations=i(10))
    g.library = (
        'function { signature { name: "cond" input_arg { name: "x" type: DT_INT32 } '
        'output_arg { name: "r" type: DT_BOOL } } node_def { name: "t" op: "Const" '
        'attr { key: "dtype" value { type: DT_BOOL } } attr { key: "value" value { tensor { '
        'dtype: DT_BOOL tensor_shape { } bool_val: true } } } } ret { key: "r" '
        'value: "t:output:0" } } '
        'function { signature { name: "body" input_arg { name: "x" type: DT_INT32 } '
        'output_arg { name: "y" type: DT_INT32 } } node_def { name: "one" op: "Const" '
        'attr { key: "dtype" value { type: DT_INT32 } } attr { key: "value" value { tensor { '
        'dtype: DT_INT32 tensor_shape { } int_val: 1 } } } } node_def { name: "add" '
        'op: "AddV2" input: "x" input: "one:output:0" attr { key: "T" value { type: DT_INT32 '
        '} } } ret { key: "y" value: "add:z:0" } }')
    tc("functional_while", g, "w")
    # Single kernels that run for seconds: TensorFlow lets the kernel finish, then returns.
    # (Unique of 1M random floats takes 1.3-1.6 s in TensorFlow and Rill on this loaded machine.)
    g = G()
    c(g, "n", "int32", [3_000_000])
    g.node("r", "RandomUniform", ["n"], T=ty("int32"), dtype=ty("float"), seed=i(1),
           seed2=i(2))
    g.node("u", "Unique", ["r"], T=ty("float"), out_idx=ty("int32"))
    g.node("y", "Size", ["u"], T=ty("float"), out_type=ty("int32"))
    tc("unique_3m", g, "y", deadline=30.0)
    # A _Recv whose tensor is never sent.
    g = G()
    g.node("r", "_Recv", tensor_type=ty("float"), tensor_name=s("never"),
           send_device=s("/job:localhost/replica:0/task:0/device:CPU:0"),
           send_device_incarnation=i(1),
           recv_device=s("/job:localhost/replica:0/task:0/device:CPU:0"),
           client_terminated=b_(False))
    g.node("y", "Neg", ["r"], T=ty("float"))
    tc("recv_never_sent", g, "y")
    # Timeouts that are not long-running: the run must work.
    g = G()
    c(g, "x", "float", [1.0, 2.0])
    g.node("y", "Neg", ["x"], T=ty("float"))
    runner_case(cat, "timeout_1ms_quick_graph", g, "y", config="operation_timeout_in_ms: 1",
                expect=None)
    runner_case(cat, "timeout_negative", g, "y", config="operation_timeout_in_ms: -5",
                expect="[-1. -2.]")
    runner_case(cat, "timeout_int64_max", g, "y",
                config="operation_timeout_in_ms: 9223372036854775807", expect="[-1. -2.]")
    # A loop on 1 inter-op thread: the timeout must still fire.
    tc("loop_one_thread", tf1_loop(lambda g, x: g.node("add", "Add", [x, const_in_frame(
        g, "one", "float", 1.0, [])], T=ty("float"))), "y",
        config=cfg + " inter_op_parallelism_threads: 1 intra_op_parallelism_threads: 1")
    tc("loop_parallel_32", tf1_loop(lambda g, x: g.node("add", "Add", [x, const_in_frame(
        g, "one", "float", 1.0, [], pi=32)], T=ty("float")), pi=32), "y")


# ---------------------------------------------------------------------------------------------
# The Python package used carelessly.

PY_PRELUDE = r"""
import os, sys, threading, time
import numpy as np
if os.environ.get("ROUND8_TF"):
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
else:
    import rill.compat.v1 as tf
def fmt(v):
    if isinstance(v, np.ndarray):
        return "%s %s %s" % (v.dtype, list(v.shape), v.tolist() if v.size < 20 else v.size)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(fmt(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join("%s: %s" % (k, fmt(v[k])) for k in sorted(v)) + "}"
    if isinstance(v, np.generic):
        return "%s %r" % (v.dtype, v.item() if not isinstance(v, bytes) else v)
    return repr(v)
def out(*vals):
    print(" ".join(fmt(v) for v in vals), flush=True)
def msg(e):
    lines = str(getattr(e, "message", e)).splitlines()
    skip = ("[[", "Graph execution error", "Detected at", "File ", "Traceback", "Original stack",
            "Node:")
    lines = [l.strip() for l in lines if l.strip() and not l.strip().startswith(skip)]
    return "%s: %s" % (type(e).__name__, " | ".join(lines)[:400])
def err(e):
    print("PY_EXC " + msg(e), flush=True)
def attempt(fn):
    try:
        out(fn())
    except Exception as e:
        err(e)
"""


def py(cat, name, code, expect=None, timeout=60):
    add(cat, name, "py", code=code, expect=expect, timeout=timeout)


def gen_python():
    cat = "python"
    feeds = [
        ("mixed_list_str", "tf.float32", "[1, 'a']", None),
        ("mixed_list_none", "tf.float32", "[1.0, None]", None),
        ("ragged_list", "tf.float32", "[[1.0, 2.0], [3.0]]", None),
        ("object_array", "tf.float32", "np.array([1, 2.5], dtype=object)", None),
        ("object_array_str", "tf.string", "np.array(['a', b'b'], dtype=object)", None),
        ("object_array_ints_to_int64", "tf.int64", "np.array([1, 2**62], dtype=object)", None),
        ("noncontiguous", "tf.float32",
         "np.arange(12, dtype=np.float32).reshape(3, 4)[:, ::2]", [None, 2]),
        ("fortran", "tf.float32",
         "np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3))", [2, 3]),
        ("big_endian_f4", "tf.float32", "np.array([1.5, -2.0], dtype='>f4')", None),
        ("big_endian_i8", "tf.int64", "np.array([1, -2**40], dtype='>i8')", None),
        ("big_endian_c8", "tf.complex64", "np.array([1+2j], dtype='>c8')", None),
        ("negative_strides", "tf.float32", "np.arange(4, dtype=np.float32)[::-1]", None),
        ("broadcast_view", "tf.float32",
         "np.broadcast_to(np.float32(3), (2, 3))", [2, 3]),
        ("readonly", "tf.float32", "np.frombuffer(b'\\0\\0\\x80?' * 2, np.float32)", None),
        ("unaligned", "tf.float64",
         "np.frombuffer(b'x' + np.arange(3.0).tobytes(), np.uint8)[1:].view(np.float64)", None),
        ("scalar_to_vector", "tf.float32", "np.float32(3)", [1]),
        ("vector_to_scalar", "tf.float32", "np.array([3.0], np.float32)", []),
        ("python_scalar_to_vector", "tf.float32", "3.0", [None]),
        ("empty_list_to_scalar", "tf.float32", "[]", []),
        ("empty_list_unknown", "tf.float32", "[]", None),
        ("int_past_int64", "tf.int64", "2**70", None),
        ("int_past_int32", "tf.int32", "2**40", None),
        ("negative_to_uint8", "tf.uint8", "-1", None),
        ("float_to_int32", "tf.int32", "1.7", None),
        ("nan_to_int32", "tf.int32", "float('nan')", None),
        ("float64_to_float32_overflow", "tf.float32", "np.float64(1e300)", None),
        ("complex_to_float", "tf.float32", "np.array([1+2j])", None),
        ("bool_to_float", "tf.float32", "np.array([True, False])", None),
        ("float_to_bool", "tf.bool", "np.array([0.5, 0.0])", None),
        ("str_to_float", "tf.float32", "'1.5'", None),
        ("bytes_to_float", "tf.float32", "b'abcd'", None),
        ("str_to_int", "tf.int32", "['1', '2']", None),
        ("none_to_float", "tf.float32", "None", None),
        ("dict_to_float", "tf.float32", "{'a': 1}", None),
        ("structured", "tf.float32",
         "np.zeros(2, dtype=[('a', np.float32), ('b', np.int32)])", None),
        ("datetime", "tf.int64", "np.array(['2020-01-01'], dtype='datetime64[D]')", None),
        ("float16_to_float32", "tf.float32", "np.array([1.5], np.float16)", None),
        ("int8_to_float32", "tf.float32", "np.array([-3], np.int8)", None),
        ("uint64_big_to_int64", "tf.int64", "np.array([2**63], np.uint64)", None),
        ("unicode_to_string", "tf.string", "['h\\u00e9llo', '\\u2603']", None),
        ("bytes_nul_to_string", "tf.string", "[b'a\\0b', b'']", None),
        ("int_to_string", "tf.string", "[1, 2]", None),
        ("huge_string_100mb", "tf.string", "b'x' * (100 << 20)", None),
        ("many_strings", "tf.string", "[b'ab'] * 1000000", None),
        ("rank_40", "tf.float32", "np.zeros([1] * 40, np.float32)", None),
        ("zero_size", "tf.float32", "np.zeros([0, 3], np.float32)", [None, 3]),
        ("tensor_value", "tf.float32", "tf.constant(1.0)", None),
        ("matrix_to_vector", "tf.float32", "[[1.0]]", [1]),
    ]
    for label, dtype, value, shape in feeds:
        fetch = "tf.raw_ops.StringLength(input=x)" if dtype == "tf.string" else "tf.identity(x)"
        code = ("x = tf.placeholder(%s, shape=%r)\ny = %s\nsess = tf.Session()\n"
                "attempt(lambda: sess.run(y, {x: %s}))\n" % (dtype, shape, fetch, value))
        py(cat, "feed_" + label, code)
    # The same tensor fetched twice, fetched and fed, nested, by name.
    base = "x = tf.placeholder(tf.float32, shape=[2], name='x')\ny = tf.negative(x, name='y')\n" \
           "sess = tf.Session()\nv = np.array([1.0, 2.0], np.float32)\n"
    for label, expr in [("twice_list", "sess.run([y, y], {x: v})"),
                        ("twice_dict", "sess.run({'a': y, 'b': y}, {x: v})"),
                        ("twice_by_name", "sess.run([y, 'y:0', y.op], {x: v})"),
                        ("fed_and_fetched", "sess.run([x, y], {x: v})"),
                        ("fetch_fed_only", "sess.run(x, {x: v})"),
                        ("feed_fetched_tensor", "sess.run(y, {y: v})"),
                        ("feed_twice_same_key", "sess.run(y, {x: v, 'x:0': v + 1})"),
                        ("feed_op_name", "sess.run(y, {'x': v})"),
                        ("feed_missing_tensor", "sess.run(y, {'nope:0': v})"),
                        ("feed_index_past", "sess.run(y, {'x:3': v})"),
                        ("fetch_none", "sess.run(None)"),
                        ("fetch_int", "sess.run(3)"),
                        ("fetch_empty_list", "sess.run([])"),
                        ("fetch_nested_empty", "sess.run([[], {}, ()])"),
                        ("fetch_unknown_name", "sess.run('nope:0')"),
                        ("fetch_other_graph", "sess.run(tf.Graph().as_default().__enter__() and "
                                              "tf.constant(1.0))"),
                        ("no_feed", "sess.run(y)"),
                        ("feed_none_dict", "sess.run(y, None)"),
                        ("feed_list_not_dict", "sess.run(y, [(x, v)])")]:
        py(cat, "fetch_" + label, base + "attempt(lambda: %s)\n" % expr)
    # Closing.
    py(cat, "close_twice", base + "sess.close()\nsess.close()\nout('closed twice')\n")
    py(cat, "run_after_close", base + "sess.close()\nattempt(lambda: sess.run(y, {x: v}))\n")
    py(cat, "callable_after_close", base + "f = sess.make_callable(y, [x])\nout(f(v))\n"
       "sess.close()\nattempt(lambda: f(v))\n")
    py(cat, "partial_run_after_close", base + "h = sess.partial_run_setup([y], [x])\n"
       "sess.close()\nattempt(lambda: sess.partial_run(h, y, {x: v}))\n")
    py(cat, "with_then_run", base.replace("sess = tf.Session()\n", "") +
       "with tf.Session() as sess:\n    out(sess.run(y, {x: v}))\n"
       "attempt(lambda: sess.run(y, {x: v}))\n")
    py(cat, "del_session_while_callable", base + "f = sess.make_callable(y, [x])\ndel sess\n"
       "import gc; gc.collect()\nattempt(lambda: f(v))\n")
    py(cat, "graph_after_session_closed", base + "sess.close()\nz = y * 2\n"
       "with tf.Session() as s2:\n    out(s2.run(z, {x: v}))\n")
    # Timeouts through RunOptions and the config, then the next run.
    loop = ("i0 = tf.constant(0)\nloop = tf.while_loop(lambda i: i >= 0, lambda i: i + 1, [i0])\n"
            "c = tf.constant([1.0, 2.0]) * 2\n")
    py(cat, "timeout_run_options_then_run",
       loop + "sess = tf.Session()\nt0 = time.time()\n"
       "attempt(lambda: sess.run(loop, options=tf.RunOptions(timeout_in_ms=500)))\n"
       "out(time.time() - t0 < 20)\nout(sess.run(c))\n"
       "attempt(lambda: sess.run(loop, options=tf.RunOptions(timeout_in_ms=300)))\n"
       "out(sess.run(c))\n")
    py(cat, "timeout_config_then_run",
       loop + "sess = tf.Session(config=tf.ConfigProto(operation_timeout_in_ms=500))\n"
       "attempt(lambda: sess.run(loop))\nout(sess.run(c))\n")
    py(cat, "timeout_variable_state_kept",
       "v = tf.Variable(1.0, use_resource=True)\ninc = v.assign_add(1.0)\n"
       + loop + "sess = tf.Session()\nsess.run(v.initializer)\nsess.run(inc)\n"
       "attempt(lambda: sess.run(loop, options=tf.RunOptions(timeout_in_ms=300)))\n"
       "out(sess.run(v.read_value()))\n")
    # Concurrency: runs from threads while another thread closes the session.
    py(cat, "threads_run_while_close",
       "x = tf.placeholder(tf.float32, [64, 64])\ny = tf.matmul(x, x)\nsess = tf.Session()\n"
       "v = np.ones([64, 64], np.float32)\nerrs = set()\nwrong = []\n"
       "def work():\n    for _ in range(200000):\n        try:\n"
       "            r = sess.run(y, {x: v})\n            if r[0, 0] != 64.0:\n"
       "                wrong.append(r[0, 0])\n        except Exception as e:\n"
       "            errs.add(type(e).__name__)\n            return\n"
       "ts = [threading.Thread(target=work) for _ in range(8)]\n[t.start() for t in ts]\n"
       "time.sleep(1.0)\nsess.close()\n[t.join(60) for t in ts]\n"
       "out(sum(t.is_alive() for t in ts), len(wrong),\n"
       "    sorted(errs - {'CancelledError', 'RuntimeError'}))\n", timeout=120)
    py(cat, "threads_close_during_long_runs",
       loop.replace("i >= 0", "i >= 0") + "sess = tf.Session()\nres = []\n"
       "def work():\n    try:\n        sess.run(loop)\n        res.append('ok')\n"
       "    except Exception as e:\n        res.append(type(e).__name__)\n"
       "ts = [threading.Thread(target=work) for _ in range(4)]\n[t.start() for t in ts]\n"
       "time.sleep(0.5)\nsess.close()\n[t.join(30) for t in ts]\n"
       "out(sum(t.is_alive() for t in ts), sorted(set(res)))\n", timeout=120)
    py(cat, "threads_partial_runs",
       "a = tf.placeholder(tf.float32, [])\nb = tf.placeholder(tf.float32, [])\n"
       "r1 = a + 1.0\nr2 = r1 * b\nsess = tf.Session()\nbad = []\n"
       "def work(k):\n    for j in range(50):\n"
       "        h = sess.partial_run_setup([r1, r2], [a, b])\n"
       "        x1 = sess.partial_run(h, r1, {a: float(k)})\n"
       "        x2 = sess.partial_run(h, r2, {b: float(j)})\n"
       "        if x1 != k + 1 or x2 != (k + 1) * j:\n            bad.append((k, j, x1, x2))\n"
       "ts = [threading.Thread(target=work, args=(k,)) for k in range(6)]\n"
       "[t.start() for t in ts]\n[t.join() for t in ts]\nout(len(bad))\n", timeout=120)
    py(cat, "threads_extend_while_running",
       "x = tf.placeholder(tf.float32, [])\ny = x * 2.0\nsess = tf.Session()\nbad = []\n"
       "stop = [False]\n"
       "def work():\n    while not stop[0]:\n        r = sess.run(y, {x: 3.0})\n"
       "        if r != 6.0:\n            bad.append(r)\n"
       "ts = [threading.Thread(target=work) for _ in range(4)]\n[t.start() for t in ts]\n"
       "zs = []\nfor k in range(100):\n    zs.append(y + float(k))\n"
       "    if sess.run(zs[-1], {x: 1.0}) != 2.0 + k:\n        bad.append(k)\n"
       "stop[0] = True\n[t.join() for t in ts]\nout(len(bad), len(zs))\n", timeout=120)
    py(cat, "threads_close_while_partial_run",
       "a = tf.placeholder(tf.float32, [])\nr1 = a + 1.0\nr2 = r1 * 2.0\nsess = tf.Session()\n"
       "h = sess.partial_run_setup([r1, r2], [a])\nout(sess.partial_run(h, r1, {a: 1.0}))\n"
       "sess.close()\nattempt(lambda: sess.partial_run(h, r2))\n")
    py(cat, "interleaved_partial_runs",
       "a = tf.placeholder(tf.float32, [])\nb = tf.placeholder(tf.float32, [])\n"
       "r1 = a + 1.0\nr2 = r1 * b\nsess = tf.Session()\n"
       "h1 = sess.partial_run_setup([r1, r2], [a, b])\n"
       "h2 = sess.partial_run_setup([r1, r2], [a, b])\n"
       "out(sess.partial_run(h1, r1, {a: 1.0}), sess.partial_run(h2, r1, {a: 10.0}))\n"
       "out(sess.partial_run(h2, r2, {b: 2.0}), sess.partial_run(h1, r2, {b: 3.0}))\n"
       "attempt(lambda: sess.partial_run(h1, r2, {b: 3.0}))\n"
       "attempt(lambda: sess.partial_run(h2, r1, {a: 3.0}))\n")
    py(cat, "huge_string_fetch",
       "x = tf.placeholder(tf.string, [])\ny = tf.raw_ops.StringJoin(inputs=[x, x, x])\n"
       "sess = tf.Session()\n"
       "r = sess.run(y, {x: b'ab' * (50 << 20)})\nout(len(r), r[:4])\n")


# ---------------------------------------------------------------------------------------------
# Running.


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Cluster:
    """n rill_server tasks of job "worker" on free loopback ports."""

    def __init__(self, server, n, work, flags=()):
        self.server, self.work, self.flags = server, work, list(flags)
        self.ports = [free_port() for _ in range(n)]
        self.addrs = ["127.0.0.1:%d" % p for p in self.ports]
        self.spec = "worker|" + ";".join(self.addrs)
        self.procs = [None] * n
        self.logs = [os.path.join(work, "server%d.log" % k) for k in range(n)]
        for k in range(n):
            self.launch(k)
        for k in range(n):
            self.wait(k)

    def launch(self, k):
        out = open(self.logs[k], "w")
        self.procs[k] = subprocess.Popen(
            ["bash", "-c", "ulimit -v 8000000; exec \"$0\" \"$@\"", self.server,
             "--cluster_spec=" + self.spec, "--job_name=worker", "--task_id=%d" % k]
            + self.flags, stdout=out, stderr=subprocess.STDOUT)

    def wait(self, k):
        end = time.time() + 30
        while time.time() < end:
            if "serving" in open(self.logs[k]).read():
                return
            if self.procs[k].poll() is not None:
                raise RuntimeError("rill_server %d exited: %s" % (k, open(self.logs[k]).read()))
            time.sleep(0.05)
        raise RuntimeError("rill_server %d did not start" % k)

    def signal(self, k, sig):
        if self.procs[k] and self.procs[k].poll() is None:
            self.procs[k].send_signal(sig)

    def alive(self):
        return [p.poll() is None for p in self.procs]

    def stop(self):
        """Exit statuses after SIGTERM (a SIGSTOPped one is continued first)."""
        codes = []
        for p in self.procs:
            if p.poll() is None:
                p.send_signal(signal.SIGCONT)
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(15)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
                    codes.append("hang")
                    continue
            codes.append(p.returncode)
        return codes


def subst(text, cl, free):
    if text is None:
        return None
    rep = {"{free}": str(free)}
    if cl is not None:
        rep["{spec}"] = cl.spec
        for k, a in enumerate(cl.addrs):
            rep["{addr%d}" % k] = a
            rep["{port%d}" % k] = str(cl.ports[k])
    for a, b in rep.items():
        text = text.replace(a, b)
    return text


def classify(rc, out, err, expect):
    if rc == 124:
        return "hang"
    if rc > 128 or rc < 0:
        return "crash"
    if rc == 0:
        return "wrong" if expect is not None and expect not in out else "ok"
    if any(line[:1].isupper() and ": " in line and line.split(": ")[0].isalpha()
           for line in err.splitlines()):
        return "error"
    return "no_message"


def run_runner_case(runner, server, work, idx, cs):
    cdir = os.path.join(work, "case%d" % idx)
    os.makedirs(cdir)
    cl = Cluster(server, cs["servers"], cdir, cs["server_flags"]) if cs["servers"] else None
    free = free_port()
    try:
        cs2 = dict(cs)
        cs2["text"] = subst(cs["text"], cl, free)
        cs2["args"] = [subst(a, cl, free) for a in cs["args"]]
        cs2["config"] = subst(cs["config"], cl, free)
        cs2["expect"] = None
        timer = None
        if cs["during"]:
            delay, (what, k, sig) = cs["during"]
            timer = threading.Timer(delay, lambda: cl.signal(k, sig))
            timer.start()
        t0 = time.time()
        _, rc, out, err, _ = r4.run_one(runner, os.path.join(work, "r%d" % idx), idx, cs2)
        elapsed = time.time() - t0
        if timer:
            timer.cancel()
        outcome = classify(rc, out, err, cs["expect"])
        note = ""
        if cs["deadline"] is not None and outcome in ("error", "ok"):
            if "DeadlineExceeded" not in err:
                outcome, note = "wrong_error", "want DeadlineExceeded"
            elif elapsed > cs["deadline"] + 20:
                outcome, note = "slow", "ended %.1f s after a %.1f s deadline" % (
                    elapsed, cs["deadline"])
        if cl is not None:
            codes = cl.stop()
            bad = [k for k, code in enumerate(codes) if code not in (0, -9, -15, -19)]
            if cs["during"] is None and any(code != 0 for code in codes):
                outcome, note = "server_" + "_".join(str(x) for x in codes), \
                    " | ".join(open(l).read()[-300:] for l in cl.logs)
            elif bad:
                outcome, note = "server_bad_exit", str(codes)
        return outcome, rc, out, err, "%.1fs %s" % (elapsed, note)
    finally:
        if cl is not None:
            cl.stop()


def run_server_case(server, work, idx, cs):
    cdir = os.path.join(work, "case%d" % idx)
    os.makedirs(cdir)
    cl = Cluster(server, cs["servers"], cdir)
    free = free_port()
    try:
        args = [subst(a, cl, free) for a in cs["flags"]]
        shell = "ulimit -v 8000000; exec timeout 40 " + " ".join(
            "'%s'" % x.replace("'", "'\\''") for x in [server] + args)
        p = subprocess.Popen(["bash", "-c", shell], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        try:
            out, err = p.communicate(timeout=3)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            # Still serving after 3 s: it took the flags; stop it.
            p.send_signal(signal.SIGTERM)
            out, err = p.communicate()
            rc = p.returncode
            return "serves", rc, out.decode(errors="replace"), err.decode(errors="replace"), ""
        out, err = out.decode(errors="replace"), err.decode(errors="replace")
        outcome = "hang" if rc == 124 else "crash" if rc > 128 or rc < 0 else \
            "error" if rc == 1 and "rill_server: " in err else "no_message"
        return outcome, rc, out, err, ""
    finally:
        cl.stop()


def run_wire_case(runner, server, work, idx, cs, proto_dir):
    cdir = os.path.join(work, "case%d" % idx)
    os.makedirs(cdir)
    cl = Cluster(server, cs["servers"], cdir)
    try:
        hpath = os.path.join(work, "wire_helper.py")
        with open(hpath, "w") as fh:
            fh.write(WIRE_HELPER)
        try:
            p = subprocess.run([sys.executable, hpath, proto_dir, cl.addrs[0], cs["probe"]],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
            probe_out = p.stdout.decode(errors="replace") + p.stderr.decode(
                errors="replace")[-500:]
        except subprocess.TimeoutExpired:
            probe_out = "PROBE_HANG"
        alive = cl.alive()
        cs2 = dict(text=cs["text"], fetch=["y"], files={}, config=None, expect=None,
                   args=["--cluster_spec=" + cl.spec, "--session_target=grpc://" + cl.addrs[0]])
        _, rc, out, err, _ = r4.run_one(runner, os.path.join(work, "r%d" % idx), idx, cs2)
        outcome = classify(rc, out, err, TOWERS_OUT)
        if not all(alive):
            outcome = "server_died"
        elif "PROBE_HANG" in probe_out or "WIRE_DONE" not in probe_out:
            outcome = "probe_hang"
        elif outcome != "ok":
            outcome = "unusable_after"
        codes = cl.stop()
        if outcome == "ok" and any(code != 0 for code in codes):
            outcome = "server_bad_exit"
        rpc = [x for x in probe_out.splitlines() if x.startswith("RPC_")]
        return outcome, rc, out, err, " || ".join(rpc)[:3000] + (
            "" if outcome == "ok" else " | " + " | ".join(open(l).read()[-300:] for l in cl.logs))
    finally:
        cl.stop()


def run_py_case(work, idx, cs, tf_mode=False):
    path = os.path.join(work, "py%d.py" % idx)
    with open(path, "w") as fh:
        fh.write(PY_PRELUDE + cs["code"] + "print('PY_DONE', flush=True)\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(ROOT, "python") + (
        ":" + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    if tf_mode:
        env["ROUND8_TF"] = "1"
        env["PYTHONPATH"] = env.get("PYTHONPATH", "").replace(os.path.join(ROOT, "python"), "")
    shell = "ulimit -v %d; exec timeout %d %s %s" % (
        20000000 if tf_mode else 8000000, cs["timeout"], sys.executable, path)
    p = subprocess.run(["bash", "-c", shell], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       cwd=work, env=env)
    out = p.stdout.decode(errors="replace")
    err = p.stderr.decode(errors="replace")
    rc = p.returncode
    if rc == 124:
        outcome = "hang"
    elif rc > 128 or rc < 0:
        outcome = "crash"
    elif "PY_DONE" not in out:
        outcome = "uncaught"
    elif "PY_EXC" in out:
        outcome = "error"
    else:
        outcome = "ok"
    lines = [x for x in out.splitlines() if x != "PY_DONE"]
    return outcome, rc, "\n".join(lines), err


def norm_py(text):
    return "\n".join(re.sub(r"0x[0-9a-f]+", "0x", x) for x in text.splitlines())


# The code and message part each case must give (a case listed here that gives another is
# WRONG_ERROR); TensorFlow's text where it has one.
HOST_PORT = ("InvalidArgument: Could not interpret \"%s\" as a host-port pair. (task 1 of job "
             "'worker' in %s")
OTHER_TASK = "is served by a server of another task: its device is /job:worker/replica:0/task:"
EXPECT = {
    "address_port_zero": HOST_PORT % ("127.0.0.1:0", "the cluster spec"),
    "address_port_huge": HOST_PORT % ("127.0.0.1:99999", "the cluster spec"),
    "address_port_negative": HOST_PORT % ("127.0.0.1:-1", "the cluster spec"),
    "address_port_text": HOST_PORT % ("127.0.0.1:abc", "the cluster spec"),
    "address_no_port": HOST_PORT % ("127.0.0.1", "the cluster spec"),
    "address_empty_host": HOST_PORT % (":2222", "the cluster spec"),
    "address_spaces": HOST_PORT % ("127.0.0. 1:2222", "the cluster spec"),
    "config_address_port_zero": HOST_PORT % ("127.0.0.1:0", "the cluster_def"),
    "config_address_port_huge": HOST_PORT % ("127.0.0.1:99999", "the cluster_def"),
    "config_address_port_negative": HOST_PORT % ("127.0.0.1:-1", "the cluster_def"),
    "config_address_port_text": HOST_PORT % ("127.0.0.1:abc", "the cluster_def"),
    "config_address_no_port": HOST_PORT % ("127.0.0.1", "the cluster_def"),
    "config_address_empty_host": HOST_PORT % (":2222", "the cluster_def"),
    "config_address_spaces": HOST_PORT % ("127.0.0. 1:2222", "the cluster_def"),
    "config_address_nul": HOST_PORT % ("127.0.0.1\\000:2222", "the cluster_def"),
    "spec_job_slash": "InvalidArgument: Job name 'wor/ker' in the cluster spec cannot be part of "
                      "a device name",
    "spec_job_colon": "InvalidArgument: Job name 'job:worker' in the cluster spec cannot be part "
                      "of a device name",
    "target_empty_host": "InvalidArgument: Could not interpret \"\" as a host-port pair. (the "
                         "session target 'grpc://'",
    "cluster_def_sparse_task_5": "InvalidArgument: Task /job:worker/replica:0/task:5 (",
    "cluster_def_negative_task": "InvalidArgument: Task index -1 of job 'worker' in the "
                                 "cluster_def is negative; tasks are numbered from 0",
    "cluster_def_task_int_max": "InvalidArgument: Task /job:worker/replica:0/task:2147483647 (",
    "cluster_def_duplicate_address": OTHER_TASK + "0/device:CPU:0",
    "cluster_def_duplicate_job": "InvalidArgument: Duplicate job ID in cluster specification: "
                                 "worker",
    "cluster_def_empty_job_name": "InvalidArgument: Empty job name in the cluster_def",
    "cluster_def_empty_address": HOST_PORT.replace("task 1", "task 1") % ("", "the cluster_def"),
    "cluster_def_two_jobs_same_address": "InvalidArgument: Task /job:ps/replica:0/task:0 (",
    "server_port_in_use": "rill_server: Could not start the gRPC server on 0.0.0.0:",
    "server_port_huge": "rill_server: Could not interpret \"127.0.0.1:70000\" as a host-port "
                        "pair.",
    "server_threads_negative": "rill_server: --inter_op_threads is '-5'; give 0 for one thread "
                               "per core",
    "server_threads_huge": "rill_server: --intra_op_threads is 100000000; Rill allows at most "
                           "1024 threads per pool.",
    "server_inter_threads_huge": "rill_server: --inter_op_threads is 100000000; Rill allows at "
                                 "most 1024 threads per pool.",
    "server_task_huge": "rill_server: --task_id is '99999999999'; give the task's index in its "
                        "job, from 0",
    "feed_int_past_int32": "PY_EXC TypeError: Type of feed value 1099511627776 with type <class "
                           "'int'> is not compatible with Tensor type <class 'numpy.int32'>.",
    "feed_negative_to_uint8": "PY_EXC TypeError: Type of feed value -1 with type <class 'int'> "
                              "is not compatible with Tensor type <class 'numpy.uint8'>.",
    "feed_int_to_string": "PY_EXC InternalError: Unsupported object type int",
    "feed_tensor_value": "which was passed to the argument `feed_dict` with key "
                         "Tensor(\"Placeholder:0\", dtype=float32).",
    "fetch_fetch_fed_only": "float32 [2] [1.0, 2.0]",
    "fetch_feed_fetched_tensor": "float32 [2] [1.0, 2.0]",
    "fetch_feed_twice_same_key": "float32 [2] [-2.0, -3.0]",
    "fetch_fetch_empty_list": "[]",
    "fetch_fetch_nested_empty": "[[], {}, []]",
    "fetch_fetch_none": "PY_EXC TypeError: Argument `fetch` = None has invalid type "
                        "\"NoneType\". Cannot be None",
    "fetch_feed_list_not_dict": "PY_EXC TypeError: FlattenDictItems: 'dict' must be a dictionary "
                                "or collection.Mapping type object, instead of 'list'.",
    "partial_run_after_close": "PY_EXC RuntimeError: Attempted to use a closed Session.",
    "threads_close_while_partial_run": "PY_EXC RuntimeError: Attempted to use a closed Session.",
}


def main():
    argv = sys.argv[1:]
    if len(argv) < 2 or argv[0].startswith("-"):
        print(__doc__)
        return 2
    runner, server = os.path.abspath(argv[0]), os.path.abspath(argv[1])
    only = out_dir = tf_file = None
    for a in argv[2:]:
        if a.startswith("--only="):
            only = a[len("--only="):]
        elif a.startswith("--out="):
            out_dir = a[len("--out="):]
        elif a.startswith("--tf="):
            tf_file = a[len("--tf="):]
    gen_cluster()
    gen_wire()
    gen_timeouts()
    gen_python()
    work = tempfile.mkdtemp(prefix="crafted8_")
    proto_dir = os.path.join(work, "protos")
    os.makedirs(proto_dir)
    subprocess.run(["protoc", "-I" + ROOT, "--python_out=" + proto_dir]
                   + [os.path.join(ROOT, "proto", x) for x in os.listdir(
                       os.path.join(ROOT, "proto")) if x.endswith(".proto")]
                   + [os.path.join(ROOT, "distributed/protos", x) for x in os.listdir(
                       os.path.join(ROOT, "distributed/protos")) if x.endswith(".proto")],
                   check=True)
    for d in ("proto", "distributed", "distributed/protos"):
        open(os.path.join(proto_dir, d, "__init__.py"), "a").close()
    counts, bad, rows, tf_rows = {}, 0, [], []
    try:
        for idx, cs in enumerate(CASES):
            if only and only not in cs["name"] and only != cs["cat"]:
                continue
            note = ""
            if cs["kind"] == "runner":
                outcome, rc, out, err, note = run_runner_case(runner, server, work, idx, cs)
            elif cs["kind"] == "server":
                outcome, rc, out, err, note = run_server_case(server, work, idx, cs)
            elif cs["kind"] == "wire":
                outcome, rc, out, err, note = run_wire_case(runner, server, work, idx, cs,
                                                            proto_dir)
            else:
                outcome, rc, out, err = run_py_case(work, idx, cs)
                if tf_file:
                    t_outcome, _, t_out, t_err = run_py_case(work, idx, cs, tf_mode=True)
                    tf_rows.append((cs["name"], outcome, t_outcome, out, t_out))
                    if norm_py(out) != norm_py(t_out):
                        print("DIFFERS %s\n  rill: %s\n  tf:   %s" % (
                            cs["name"], out.replace("\n", " / ")[:600],
                            (t_out or t_err[-300:]).replace("\n", " / ")[:600]), flush=True)
            text = (err.strip() or out.strip()) if outcome != "ok" else out.strip()
            last = " | ".join(x.strip() for x in text.splitlines()[-3:])
            want = EXPECT.get(cs["name"])
            if want is not None and want not in err + out:
                outcome, last = "wrong_error", "want '%s', got: %s" % (want, last)
            counts.setdefault(cs["cat"], {}).setdefault(outcome, 0)
            counts[cs["cat"]][outcome] += 1
            rows.append((cs["cat"], cs["name"], outcome, rc, last, note))
            if outcome not in ("ok", "error", "serves"):
                bad += 1
                print("%s %s rc=%s %s %s" % (outcome.upper(), cs["name"], rc, last[:400],
                                             note[:600]), flush=True)
            elif os.environ.get("ROUND8_VERBOSE"):
                print("%s %s %s %s" % (outcome, cs["name"], last[:300], note[:300]), flush=True)
        if out_dir:
            os.makedirs(out_dir, exist_ok=True)
            with open(os.path.join(out_dir, "results.tsv"), "w") as fh:
                for r in rows:
                    fh.write("\t".join(str(x).replace("\n", "\\n").replace("\t", " ")
                                       for x in r) + "\n")
        if tf_file:
            with open(tf_file, "w") as fh:
                for r in tf_rows:
                    fh.write("\t".join(str(x).replace("\n", "\\n").replace("\t", " ")
                                       for x in r) + "\n")
    finally:
        subprocess.run(["rm", "-rf", work])
    total = 0
    for cat in sorted(counts):
        n = sum(counts[cat].values())
        total += n
        print("%-12s %5d  %s" % (cat, n, " ".join("%s=%d" % kv for kv in sorted(
            counts[cat].items()))))
    print("cases run: %d, crashed/hung/slow/no message/wrong value or error: %d" % (total, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
