#!/usr/bin/env bash
# README's C++ example prints relu(x * w + b) for x = [[1 2 3] [4 5 6]].
set -euo pipefail
got=$(examples/hello_rill)
want="22.5 0 49.5 0 "
if [ "$got" != "$want" ]; then
  echo "hello_rill printed '$got', want '$want'" >&2
  exit 1
fi
