#!/usr/bin/env bash
# Builds the GPU checks here (a machine with the CUDA toolkit, no GPU needed) and bundles them
# into .gpu/ for the GPU machine (../shared/tools/gpu_bundle.sh), where tools/gpu/run_checks.sh
# runs them. Usage, from the repository root:
#   tools/gpu/bundle.sh            # then, on the GPU machine: tools/gpu/run_checks.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
targets="//tests:gpu_kernels_test //tests:gpu_nn_kernels_test //tests:gpu_array_kernels_test
  //tests:gpu_memory_options_test
  //core/gpu:gpu_sub_allocators_test //core/gpu:cuda_probe_test //tools/session_runner:session_runner
  //tools/bench:gpu_bench //examples:colocate_gradients //kernels/control_flow:control_flow_ops_gpu_test
  //tools/gpu:gpu_model_check"
bazel build -c opt $targets
# The opt tree itself, not the bazel-bin link (another command may have pointed it elsewhere).
bin=$(bazel info -c opt bazel-bin 2>/dev/null)
bins=""
for t in $targets; do
  path=${t#//}; bins="$bins $bin/${path%%:*}/${path##*:}"
done
rm -rf .gpu
../shared/tools/gpu_bundle.sh .gpu $bins 2>&1 | grep -v "keep it under" || true
# Tracked files plus the carried bundle must stay under 64 MiB: the binaries need no runfiles (the
# launcher's LD_LIBRARY_PATH finds the libraries), and the whole bundle travels as one xz archive,
# .gpupack/gpu.tar.xz (about 19 MB; carry ".gpupack"); run_checks.sh unpacks it.
rm -rf .gpu/bin/*.runfiles
chmod u+w .gpu/bin/* .gpu/lib/*
strip --strip-unneeded .gpu/bin/* .gpu/lib/* 2>/dev/null || true  # symbols: ~4 MB of the archive
mkdir -p .gpupack
tar -cf - .gpu | xz -T0 -6 > .gpupack/gpu.tar.xz
for d in /.gpu/ /.gpupack/; do
  grep -qx "$d" .git/info/exclude 2>/dev/null || echo "$d" >> .git/info/exclude
done
echo "tracked: $(git ls-files -z | xargs -0 du -cb | tail -1 | cut -f1) bytes," \
  "bundle: $(stat -c %s .gpupack/gpu.tar.xz) bytes (together under 67108864)"
