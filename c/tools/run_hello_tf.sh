#!/bin/bash
# The example program of TensorFlow's "Install TensorFlow for C" guide (tensorflow/docs,
# site/en/install/lang_c.ipynb: hello_tf.c prints TF_Version()), written from the notebook's
# %%writefile cell unmodified and built as the guide says for a library extracted outside the
# system directories: LIBRARY_PATH and LD_LIBRARY_PATH name its lib/, and
# `gcc -I<prefix>/include -L<prefix>/lib hello_tf.c -ltensorflow -o hello_tf`. Its output is
# compared with TensorFlow 2.21's (c/testdata/client_programs/hello_tf/).
#
#   bazel build //c:libtensorflow_tarball
#   c/tools/run_hello_tf.sh /path/to/docs [WORK_DIR]     (a tensorflow/docs checkout)
set -euo pipefail
# shellcheck source=c/tools/client_program_lib.sh
source "$(dirname "$0")/client_program_lib.sh"

start_work "$@"
run="${work:?}/run"
rm -rf "$run" && mkdir -p "$run"
# The notebook cell whose source starts with "%%writefile hello_tf.c", without that line.
python3 - "$checkout/site/en/install/lang_c.ipynb" "$run/hello_tf.c" <<'PY'
import json, sys
cells = json.load(open(sys.argv[1]))["cells"]
src = next("".join(c["source"]) for c in cells
           if c["cell_type"] == "code" and "".join(c["source"]).startswith("%%writefile hello_tf.c"))
open(sys.argv[2], "w").write(src.split("\n", 1)[1])
PY
export LIBRARY_PATH="$root/lib" LD_LIBRARY_PATH="$root/lib"
(cd "$run" && gcc -I"$root/include" -L"$root/lib" hello_tf.c -ltensorflow -o hello_tf) \
  > "${work:?}/build.log" 2>&1
check hello_tf "$expected_dir/hello_tf/hello_tf.txt" "$run" ./hello_tf
exit "$client_status"
