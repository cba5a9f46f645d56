#!/usr/bin/env python3
"""GPU benchmarks of issues 11 and 14 on the GPU machine: Rill's gpu_bench beside PyTorch in one
command, with the ratios the issues set as targets.

    python3 tools/bench/gpu_peers.py --gpu_bench .gpu/run\\ gpu_bench

  - MatMul 4096 float32: Rill's cuBLAS kernel through Session::Run vs torch.matmul on resident
    tensors (TF32 off in both), target within 5 %.
  - Per node: a 1000-Add chain on [2,2] through one Session::Run vs PyTorch eager's per-op time
    (y = y + y, 1000 times, one synchronize), target at most PyTorch's.
  - 256 MiB copies: Rill's host-to-device (from pageable and from pinned memory) and
    device-to-host vs PyTorch's .to('cuda') / .to('cpu') bandwidth (pinned, and pageable for
    Rill's pageable copy), target 90 %.
  - Convolutions float32, NHWC (PyTorch: channels_last, cuDNN, TF32 off in both): 3x3 64 -> 64 on
    [32, 56, 56, 64] and 3x3 depthwise on [32, 56, 56, 144].
Prints one line per figure and a table; without torch or a GPU says so and exits 0.
"""
import argparse
import shlex
import statistics
import subprocess
import time


def torch_figures():
    import torch
    if not torch.cuda.is_available():
        return None
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cudnn.benchmark = False
    dev = torch.device("cuda:0")
    out = {}

    def timed(fn, reps):
        fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(reps):
            t0 = time.perf_counter()
            fn()
            torch.cuda.synchronize()
            times.append((time.perf_counter() - t0) * 1e6)
        return statistics.median(times)

    a = torch.rand(4096, 4096, device=dev) / 4096
    out["matmul_4096_us"] = timed(lambda: torch.matmul(a, a), 20)
    x = torch.rand(2, 2, device=dev)

    def chain(n):
        y = x
        for _ in range(n):
            y = y + y
        return y

    out["add_chain_per_node_us"] = (timed(lambda: chain(1000), 20) - timed(lambda: chain(0), 20)) / 1000
    n = 64 << 20
    host = torch.empty(n, dtype=torch.float32).pin_memory()
    gb = n * 4 / 1e9
    out["h2d_256mib_pinned_gbps"] = gb / (timed(lambda: host.to(dev, non_blocking=True), 10) / 1e6)
    g = torch.empty(n, dtype=torch.float32, device=dev)
    out["d2h_256mib_gbps"] = gb / (timed(lambda: host.copy_(g, non_blocking=True), 10) / 1e6)
    pageable = torch.empty(n, dtype=torch.float32)
    out["h2d_256mib_pageable_gbps"] = gb / (timed(lambda: pageable.to(dev), 10) / 1e6)

    def conv(channels, groups):
        x = torch.ones(32, channels, 56, 56, device=dev).to(memory_format=torch.channels_last)
        w = torch.full((channels, channels // groups, 3, 3), 1.0 / (9 * channels // groups),
                       device=dev).to(memory_format=torch.channels_last)
        return timed(lambda: torch.nn.functional.conv2d(x, w, padding=1, groups=groups), 20)

    out["conv3x3_us"] = conv(64, 1)
    out["depthwise3x3_us"] = conv(144, 144)
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--gpu_bench", default="bazel-bin/tools/bench/gpu_bench",
                   help="command that runs Rill's gpu_bench")
    a = p.parse_args()
    text = subprocess.run(shlex.split(a.gpu_bench), capture_output=True, text=True).stdout
    print(text, end="")
    if text.startswith("skipped"):
        return
    rill = {k: float(v) for k, v in (line.split() for line in text.splitlines() if line.strip())}
    try:
        peer = torch_figures()
    except ImportError:
        print("PyTorch not installed: no peer figures")
        return
    if peer is None:
        print("PyTorch sees no GPU")
        return
    for k, v in peer.items():
        print("torch_%s %.3f" % (k, v))
    print("| figure | Rill | PyTorch | Rill / PyTorch |")
    print("|---|---:|---:|---:|")
    for k in ("matmul_4096_us", "add_chain_per_node_us", "conv3x3_us", "depthwise3x3_us",
              "d2h_256mib_gbps", "h2d_256mib_pageable_gbps", "h2d_256mib_pinned_gbps"):
        if k in rill and k in peer:
            print("| %s | %.3f | %.3f | %.2f |" % (k, rill[k], peer[k], rill[k] / peer[k]))


if __name__ == "__main__":
    main()
