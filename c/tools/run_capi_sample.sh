#!/bin/bash
# Builds AmirulOm/tensorflow_capi_sample (a C program loading a SavedModel with
# TF_LoadSessionFromSavedModel and running its serving signature; d445026, the version its
# tutorial shows) unmodified with the tutorial's gcc command against Rill's C API release
# tarball, runs it on the model the tutorial describes (c/testdata/client_programs/capi_sample/
# model, written by c/tools/make_capi_sample_model.py: its model.py needs Keras 2) and compares
# its output with TensorFlow 2.21's.
#
#   bazel build //c:libtensorflow_tarball
#   git -C /path/to/tensorflow_capi_sample checkout d445026
#   c/tools/run_capi_sample.sh /path/to/tensorflow_capi_sample [WORK_DIR]
set -euo pipefail
# shellcheck source=c/tools/client_program_lib.sh
source "$(dirname "$0")/client_program_lib.sh"

start_work "$@"

rm -rf "${work:?}/run" && mkdir -p "${work:?}/run"
ln -s "$expected_dir/capi_sample/model" "${work:?}/run/model"
gcc -I"$root/include" -L"$root/lib" "$checkout/main.c" -ltensorflow -o "${work:?}/run/main.out" \
  2> "${work:?}/build.log"
LD_LIBRARY_PATH="$root/lib" check main "$expected_dir/capi_sample/main.txt" "${work:?}/run" \
  ./main.out
exit "$client_status"
