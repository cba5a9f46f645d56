#!/usr/bin/env bash
# Lazy CUDA (issue 27): no Rill binary or library depends on a CUDA library. The CUDA runtime is
# linked statically and opens the driver itself; cuBLAS is opened with dlopen when a GPU first
# multiplies. So ldd shows no libcuda/libcudart/libcublas, and the binaries run with an empty
# library path on a host without CUDA (this one: no driver, the toolkit hidden).
set -u
fail=0
for bin in "$@"; do
  cuda=$(ldd "$bin" | grep -iE "libcuda|libcudart|libcublas|libcudnn")
  if [ -n "$cuda" ]; then echo "FAIL $bin links CUDA:"; echo "$cuda"; fail=1; else
    echo "ok   $(basename "$bin") links no CUDA library"; fi
done
runner=$1
out=$(env -i PATH=/usr/bin:/bin "$runner" --graph=examples/graphs/matmul.pbtxt --fetch=MatMul 2>&1)
want='MatMul:0 dtype=float32 shape=[2,2]
[[22. 28.]
 [49. 64.]]'
if [ "$out" = "$want" ]; then echo "ok   runs with an empty environment"; else
  echo "FAIL with an empty environment:"; echo "$out"; fail=1; fi
exit $fail
