#!/usr/bin/env bash
# On the GPU machine, from the copied working tree with .gpu/ (tools/gpu/bundle.sh): every GPU
# check of issues 10, 11 and 14 in one command. Writes everything it prints to $OUT/gpu_checks.log
# when $OUT is set.
#   1. missing libraries (must print nothing), the driver and GPU (nvidia-smi);
#   2. the GPU test binaries (gpu_kernels_test must report 0 skipped);
#   3. the seed examples on the GPU with TensorFlow's placement log;
#   4. whole models on the GPU against the CPU (gpu_model_check on tools/gpu/models, issue 31);
#   5. the GPU benchmarks beside PyTorch (tools/bench/gpu_peers.py, gpu_model_peers.py), and the
#      convolution tests, models and model times again with cuDNN's graph API (RILL_CUDNN_API=graph).
set -uo pipefail
cd "$(dirname "$0")/../.."
log=${OUT:-/tmp}/gpu_checks.log
[ -f .gpupack/gpu.tar.xz ] && xz -dc .gpupack/gpu.tar.xz | tar -xf -  # packed by bundle.sh
# Each step has its own time limit, so one hang cannot spend the whole GPU lease; output is line
# buffered so a crash loses none of it, and a bundled binary that crashes (SIGABRT, SIGFPE,
# SIGSEGV) runs again under the machine's debugger for its backtrace.
debugger=$(command -v gdb || command -v cuda-gdb || ls /usr/local/cuda/bin/cuda-gdb 2>/dev/null)
if [ -n "$debugger" ] && [ -x .gpu/run ]; then
  sed "s|^exec \"\$bin\" \"\$@\"|exec $debugger -q -batch -ex run -ex bt --args \"\$bin\" \"\$@\"|" \
    .gpu/run > .gpu/run_debug && chmod +x .gpu/run_debug
fi
run() {
  echo "+ $*"
  timeout "${STEP_TIMEOUT:-120}" stdbuf -oL -eL "$@"
  local rc=$?
  echo "(exit $rc)"
  if [ "$1" = ".gpu/run" ] && [ -x .gpu/run_debug ] && { [ $rc = 134 ] || [ $rc = 136 ] ||
    [ $rc = 139 ]; }; then
    echo "+ backtrace of $2"
    shift
    timeout 60 .gpu/run_debug "$@" 2>&1 | grep -v "^\[New Thread\|^\[Thread\|^\[Inferior" | tail -60
  fi
}
{
  nvidia-smi --query-gpu=name,driver_version,memory.total,memory.used --format=csv
  ls /usr/local/cuda/lib64 2>/dev/null | grep -E "^lib(cudart|cublas|cublasLt|cudnn)\.so" | tr '\n' ' '
  echo
  for b in gpu_kernels_test gpu_nn_kernels_test gpu_array_kernels_test gpu_memory_options_test \
           gpu_sub_allocators_test gpu_list_ops_test \
           cuda_probe_test session_runner gpu_bench control_flow_ops_gpu_test gpu_model_check; do
    .gpu/run --ldd "$b" | grep -i "not found"
  done
  for t in cuda_probe_test gpu_sub_allocators_test gpu_memory_options_test gpu_kernels_test \
           gpu_nn_kernels_test gpu_array_kernels_test control_flow_ops_gpu_test gpu_list_ops_test; do
    run .gpu/run "$t"
  done
  r=".gpu/run session_runner"
  run $r --graph=examples/graphs/matmul.pbtxt --log_device_placement --fetch=MatMul
  run $r --graph=examples/graphs/manual_placement.pbtxt --log_device_placement --fetch=MatMul
  run $r --graph=examples/graphs/multi_tower_gpu.pbtxt --config=examples/gpu4_virtual.config.pbtxt \
    --log_device_placement --fetch=AddN
  run $r --graph=examples/graphs/soft_placement.pbtxt --fetch=MatMul
  run $r --graph=examples/graphs/soft_placement.pbtxt \
    --config=examples/soft_placement.config.pbtxt --log_device_placement --fetch=MatMul
  run $r --graph=examples/graphs/device_function.pbtxt --allow_soft_placement --explain_placement \
    --target=w/Assign --then --fetch=MatMul
  run $r --graph=examples/graphs/four_replicas_cpu.pbtxt --config=examples/cpu4.config.pbtxt \
    --fetch=AddN
  # The seed's colocated gradients: sin and its gradient ops on GPU:0, cos and its on the CPU.
  run .gpu/run colocate_gradients
  # Whole models (tools/gpu/models, issue 31): GPU against CPU-only, one model per step so each
  # has its own time limit.
  for m in $(awk '!/^#/ && NF {print $1}' tools/gpu/models/manifest.txt); do
    run .gpu/run gpu_model_check --manifest=tools/gpu/models/manifest.txt --models="$m"
  done
  run .gpu/run gpu_model_check --manifest=tools/gpu/models/manifest.txt \
    --models=mobilenet_v2,resnet50 --batch=32
  # cuDNN's graph API with cached execution plans (RILL_CUDNN_API=graph) against the legacy API:
  # the convolution tests, the two models' outputs, and their times (issue 31).
  RILL_CUDNN_API=graph run .gpu/run gpu_nn_kernels_test
  RILL_CUDNN_API=graph run .gpu/run gpu_model_check --manifest=tools/gpu/models/manifest.txt \
    --models=mobilenet_v2,resnet50
  run python3 tools/bench/gpu_peers.py --gpu_bench ".gpu/run gpu_bench"
  # ResNet50 and MobileNetV2 at batch 1 and 32 beside PyTorch eager (its CPU pass included).
  STEP_TIMEOUT=150 run python3 tools/bench/gpu_model_peers.py \
    --model_check ".gpu/run gpu_model_check" --runs 20
  RILL_CUDNN_API=graph STEP_TIMEOUT=150 run python3 tools/bench/gpu_model_peers.py \
    --model_check ".gpu/run gpu_model_check" --runs 20
} 2>&1 | tee "$log"
