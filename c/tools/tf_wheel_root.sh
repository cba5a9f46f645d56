#!/bin/bash
# Lays out TensorFlow 2.21's pip library (python3's tensorflow package) as TensorFlow's
# libtensorflow tarball unpacks, in DIR, with links into the package: DIR/include (the wheel's
# headers) and DIR/lib with libtensorflow.so.2 (the wheel's libtensorflow_cc.so.2, which holds the
# C API), libtensorflow_framework.so.2 and their .so links. The run_*.sh scripts take it as
# RILL_TARBALL=DIR to record what a program prints on TensorFlow (c/testdata/client_programs/).
#
#   c/tools/tf_wheel_root.sh /tmp/tf_root && RILL_TARBALL=/tmp/tf_root c/tools/run_tf_go.sh ...
set -euo pipefail
[[ $# == 1 ]] || { echo "usage: $0 DIR" >&2; exit 2; }
tf=$(python3 -c 'import os, tensorflow; print(os.path.dirname(tensorflow.__file__))' 2> /dev/null)
[[ -f "$tf/libtensorflow_cc.so.2" ]] || { echo "no TensorFlow pip package for python3" >&2; exit 2; }
rm -rf "$1" && mkdir -p "$1/lib"
ln -s "$tf/include" "$1/include"
# Programs linked against libtensorflow.so.2 record the soname libtensorflow_cc.so.2.
ln -s "$tf/libtensorflow_cc.so.2" "$1/lib/libtensorflow_cc.so.2"
ln -s libtensorflow_cc.so.2 "$1/lib/libtensorflow.so.2"
ln -s libtensorflow.so.2 "$1/lib/libtensorflow.so"
ln -s "$tf/libtensorflow_framework.so.2" "$1/lib/libtensorflow_framework.so.2"
ln -s libtensorflow_framework.so.2 "$1/lib/libtensorflow_framework.so"
