#!/usr/bin/env bash
# Writes the Python modules of Rill's proto/*.proto (TensorFlow's field names and numbers) into
# DIR (default: python/rill/_proto), as modules of the package rill._proto.
# Usage: python/tools/gen_protos.sh [DIR]   (needs protoc; Debian's protobuf-compiler)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-$root/python/rill/_proto}"
mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && protoc -I. --python_out="$tmp" proto/*.proto)
for f in "$tmp"/proto/*_pb2.py; do
  sed -e 's/^from proto import /from rill._proto import /' "$f" > "$out/$(basename "$f")"
done
