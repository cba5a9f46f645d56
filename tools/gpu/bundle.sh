#!/usr/bin/env bash
# Builds the GPU checks here (a machine with the CUDA toolkit, no GPU needed) and bundles them
# into .gpu/ for the GPU machine (../shared/tools/gpu_bundle.sh), where tools/gpu/run_checks.sh
# runs them. Usage, from the repository root:
#   tools/gpu/bundle.sh            # then, on the GPU machine: tools/gpu/run_checks.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
targets="//tests:gpu_kernels_test //tests:gpu_nn_kernels_test //tests:gpu_array_kernels_test
  //tests:gpu_memory_options_test //tests:gpu_list_ops_test
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
# .gpupack/gpu.tar.xz (carry ".gpupack"); run_checks.sh unpacks it. The binaries link Rill
# statically and are alike, so one xz stream with a dictionary larger than the bundle stores
# their common code once (26 MB instead of 38 MB; about two minutes on one core).
rm -rf .gpu/bin/*.runfiles
chmod u+w .gpu/bin/* .gpu/lib/*
strip --strip-unneeded .gpu/bin/* .gpu/lib/* 2>/dev/null || true  # symbols: ~4 MB of the archive
mkdir -p .gpupack
tar -cf - .gpu | xz -T1 --lzma2=preset=6,dict=192MiB > .gpupack/gpu.tar.xz
for d in /.gpu/ /.gpupack/; do
  grep -qx "$d" .git/info/exclude 2>/dev/null || echo "$d" >> .git/info/exclude
done
# The device tool's own count ran higher than this sum (a 38 MB bundle beside 14 MB of files was
# refused as over 64 MiB): keep a margin of 10 MB or more.
echo "tracked and untracked: $(git ls-files -co --exclude-standard -z | xargs -0 du -cb | tail -1 |
  cut -f1) bytes, bundle: $(stat -c %s .gpupack/gpu.tar.xz) bytes (together well under 67108864)"
