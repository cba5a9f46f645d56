#!/usr/bin/env python3
"""Whole models on the GPU beside PyTorch eager (issue 31), in one command on the GPU machine:

    python3 tools/bench/gpu_model_peers.py --model_check ".gpu/run gpu_model_check" [--runs 30]

Rill: tools/gpu/gpu_model_check on the frozen Keras graphs of tools/gpu/models (ResNet50 and
MobileNetV2, 224x224, float32), batch 1 and 32; its "median GPU" is Session::Run with the input
fed from host memory and the outputs fetched to host memory. PyTorch: the same architectures in
eager mode (torchvision's resnet50 and mobilenet_v2 when torchvision is installed, else the
definitions below, which follow the same layer lists), float32 with TF32 off, channels_last,
cuDNN's default algorithm choice (benchmark off), under torch.inference_mode; timed two ways:
"fed" copies a host input to the GPU and the logits back, as a Session::Run does, "resident"
keeps both on the GPU. Medians of --runs after 3 warm-ups. Keras's ResNet50 puts the stride of a
bottleneck on its first 1x1 convolution and torchvision's on the 3x3 (v1.5): the same layers
and nearly the same flops. Without torch or a GPU says so and exits 0.
"""
import argparse
import re
import shlex
import statistics
import subprocess
import time

MODELS = ("resnet50", "mobilenet_v2")
BATCHES = (1, 32)


def build_torch_model(name):
    import torch.nn as nn
    try:
        import torchvision
        return getattr(torchvision.models, name)(weights=None), "torchvision"
    except ImportError:
        pass

    def conv_bn(cin, cout, k, stride=1, groups=1, act=None):
        layers = [nn.Conv2d(cin, cout, k, stride, k // 2, groups=groups, bias=False),
                  nn.BatchNorm2d(cout)]
        if act is not None:
            layers.append(act())
        return nn.Sequential(*layers)

    if name == "resnet50":
        class Bottleneck(nn.Module):
            def __init__(self, cin, width, stride):
                super().__init__()
                cout = width * 4
                self.body = nn.Sequential(conv_bn(cin, width, 1, act=nn.ReLU),
                                          conv_bn(width, width, 3, stride, act=nn.ReLU),
                                          conv_bn(width, cout, 1))
                self.skip = (conv_bn(cin, cout, 1, stride)
                             if stride != 1 or cin != cout else nn.Identity())
                self.relu = nn.ReLU()

            def forward(self, x):
                return self.relu(self.body(x) + self.skip(x))

        layers = [conv_bn(3, 64, 7, 2, act=nn.ReLU), nn.MaxPool2d(3, 2, 1)]
        cin = 64
        for width, blocks, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
            for i in range(blocks):
                layers.append(Bottleneck(cin, width, stride if i == 0 else 1))
                cin = width * 4
        layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(2048, 1000)]
        return nn.Sequential(*layers), "own definition"

    class InvertedResidual(nn.Module):
        def __init__(self, cin, cout, stride, expand):
            super().__init__()
            hidden = cin * expand
            body = [] if expand == 1 else [conv_bn(cin, hidden, 1, act=nn.ReLU6)]
            body += [conv_bn(hidden, hidden, 3, stride, groups=hidden, act=nn.ReLU6),
                     conv_bn(hidden, cout, 1)]
            self.body = nn.Sequential(*body)
            self.residual = stride == 1 and cin == cout

        def forward(self, x):
            return x + self.body(x) if self.residual else self.body(x)

    layers = [conv_bn(3, 32, 3, 2, act=nn.ReLU6)]
    cin = 32
    for expand, cout, repeats, stride in ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2),
                                          (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2),
                                          (6, 320, 1, 1)):
        for i in range(repeats):
            layers.append(InvertedResidual(cin, cout, stride if i == 0 else 1, expand))
            cin = cout
    layers += [conv_bn(320, 1280, 1, act=nn.ReLU6), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
               nn.Linear(1280, 1000)]
    return nn.Sequential(*layers), "own definition"


def torch_times(runs):
    import torch
    if not torch.cuda.is_available():
        return None, ""
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cudnn.benchmark = False
    dev = torch.device("cuda:0")
    out, source = {}, ""

    def median_ms(fn):
        for _ in range(3):
            fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            fn()
            torch.cuda.synchronize()
            times.append((time.perf_counter() - t0) * 1e3)
        return statistics.median(times)

    for name in MODELS:
        try:
            model, source = build_torch_model(name)
        except Exception as e:  # a torchvision without this model: say so, time the others
            print("PyTorch %s: %s" % (name, e))
            continue
        model = model.eval().to(dev).to(memory_format=torch.channels_last)
        for batch in BATCHES:
            host = torch.rand(batch, 3, 224, 224).contiguous(memory_format=torch.channels_last)
            resident = host.to(dev)
            with torch.inference_mode():
                out[(name, batch, "fed")] = median_ms(lambda: model(host.to(dev)).cpu())
                out[(name, batch, "resident")] = median_ms(lambda: model(resident))
        del model
        torch.cuda.empty_cache()
    return out, source


def rill_times(model_check, runs):
    out = {}
    for batch in BATCHES:
        cmd = shlex.split(model_check) + ["--manifest=tools/gpu/models/manifest.txt",
                                          "--models=" + ",".join(MODELS), "--batch=%d" % batch,
                                          "--runs=%d" % runs]
        text = subprocess.run(cmd, capture_output=True, text=True).stdout
        print(text, end="")
        found = re.findall(r"median GPU ([0-9.]+) ms", text)
        for name, ms in zip(MODELS, found):
            out[(name, batch)] = float(ms)
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model_check", default="bazel-bin/tools/gpu/gpu_model_check",
                   help="command that runs Rill's gpu_model_check")
    p.add_argument("--runs", type=int, default=30)
    a = p.parse_args()
    rill = rill_times(a.model_check, a.runs)
    try:
        peer, source = torch_times(a.runs)
    except ImportError:
        print("PyTorch not installed: no peer figures")
        return
    if peer is None:
        print("PyTorch sees no GPU")
        return
    print("PyTorch models: %s" % source)
    print("| model | batch | Rill ms | PyTorch fed ms | PyTorch resident ms | PyTorch fed / Rill |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in MODELS:
        for batch in BATCHES:
            if (name, batch, "fed") not in peer:
                continue
            fed, res = peer[(name, batch, "fed")], peer[(name, batch, "resident")]
            r = rill.get((name, batch))
            print("| %s | %d | %s | %.3f | %.3f | %s |" % (
                name, batch, "%.3f" % r if r else "-", fed, res, "%.2f" % (fed / r) if r else "-"))


if __name__ == "__main__":
    main()
