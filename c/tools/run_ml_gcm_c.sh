#!/bin/bash
# Builds ttahseen/ml-gcm-c's load_model.c (ec00ca2: loads the Keras SavedModel in its model/
# directory with TF_LoadSessionFromSavedModel and looks up its serving signature's operations)
# unmodified as its README says: the libtensorflow tarball (here Rill's) unpacked into the
# checkout's root, over its copy of TensorFlow 2.15's headers, and `gcc load_model.c -ltensorflow`
# with the unpacked lib/ on LIBRARY_PATH and LD_LIBRARY_PATH (its utils/set-env.sh) and include/
# on CPATH (its cluster's `module load`). Runs it in the checkout, where it reads model/, and
# compares its output with TensorFlow 2.21's (c/testdata/client_programs/ml_gcm_c/).
#
#   bazel build //c:libtensorflow_tarball
#   c/tools/run_ml_gcm_c.sh /path/to/ml-gcm-c [WORK_DIR]
set -euo pipefail
# shellcheck source=c/tools/client_program_lib.sh
source "$(dirname "$0")/client_program_lib.sh"

start_work "$@"
src="${work:?}/src"
rm -rf "$src" && cp -r "$checkout" "$src"
cp -r "$root/." "$src/"
(cd "$src" && CPATH="$src/include" LIBRARY_PATH="$src/lib" gcc load_model.c -ltensorflow \
  -o run_file) > "${work:?}/build.log" 2>&1
LD_LIBRARY_PATH="$src/lib" check load_model "$expected_dir/ml_gcm_c/load_model.txt" "$src" \
  ./run_file
exit "$client_status"
