#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks to build and test Rill (as root): Bazel 4.2.3 and the
# Debian libraries Rill links. Idempotent: does nothing when everything is present. Nothing is
# downloaded at build time; CUDA, when present at /usr/local/cuda, is picked up automatically.
set -euo pipefail
pkgs=(bazel-bootstrap bazel-rules-java bazel-platforms libprotobuf-dev protobuf-compiler
      libabsl-dev libeigen3-dev libgtest-dev libgmock-dev libbenchmark-dev libopenblas-dev libdnnl-dev libre2-dev zlib1g-dev
      libjpeg62-turbo-dev libpng-dev
      clang-format python3-numpy python3-protobuf python3-pytest python3-dev pybind11-dev
      libgrpc++-dev protobuf-compiler-grpc)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
