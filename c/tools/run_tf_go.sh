#!/bin/bash
# Runs the tests of TensorFlow's Go binding (tensorflow/go: graphs, operations, attrs of every
# kind, tensors of every dtype, sessions, partial runs, SavedModels, gradients, the eager
# context, and its generated op wrappers) against Rill's C API release tarball, with cgo and
# `go test`, and compares which tests pass with what they gave on TensorFlow 2.21
# (c/testdata/client_programs/tf_go/).
#
# CHECKOUT is wamuir/graft (88418f6): TensorFlow's tensorflow/go directory as TensorFlow's
# nightly build of 2024-03-21 generated it, with the Go code of TensorFlow's protos and the op
# wrappers (op/wrappers.go) that `go generate` writes, under the import path
# github.com/wamuir/graft/tensorflow. Nothing is downloaded: the build runs with GO111MODULE=off
# in a GOPATH made of the checkout and Debian's /usr/share/gocode (golang-go,
# golang-google-protobuf-dev).
#
#   bazel build //c:libtensorflow_tarball
#   c/tools/run_tf_go.sh /path/to/graft [WORK_DIR]
#
# cgo compiles against include/ (CGO_CFLAGS) and links lib/ (the binding's own
# `#cgo LDFLAGS: -ltensorflow`, plus -ltensorflow_framework: TensorFlow's wheel, laid out as its
# tarball, has TF_NewStatus and other C API functions in that library). Each package's
# `go test -v` is compared by the list of tests and subtests with their results (timings, log
# lines and TensorFlow's start-up messages left out); go test also checks the Example's
# printed output. Prints a line per package; exits 1 if one fails.
set -euo pipefail
# shellcheck source=c/tools/client_program_lib.sh
source "$(dirname "$0")/client_program_lib.sh"

start_work "$@"

gopath="${work:?}/gopath"
rm -rf "$gopath" && mkdir -p "$gopath/src/github.com/wamuir"
ln -s "$checkout" "$gopath/src/github.com/wamuir/graft"
export GO111MODULE=off GOFLAGS='' GOPATH="$gopath:/usr/share/gocode"
export GOCACHE="${GOCACHE:-${work:?}/gocache}"
export CGO_CFLAGS="-I$root/include"
export CGO_LDFLAGS="-L$root/lib -ltensorflow_framework -Wl,-rpath,$root/lib"
export TF_CPP_MIN_LOG_LEVEL=3

# test_results PACKAGE: runs go test -v on PACKAGE (under github.com/wamuir/graft/), prints each
# test's and subtest's result line and go test's summary without timings; go test's exit status.
# The whole log is in $work/<last element of PACKAGE>.log; failing tests go to stderr.
# shellcheck disable=SC2317  # called by check
test_results() {
  local log="${work:?}/${1##*/}.log" rc=0
  go test -count=1 -v "github.com/wamuir/graft/$1" > "$log" 2>&1 || rc=$?
  grep -E '^ *--- (PASS|FAIL|SKIP)|^(PASS|FAIL|ok) ' "$log" \
    | sed -E 's/ \([0-9.]+s\)$//; s/\t[0-9.]+s$//; s/\t\(cached\)$//' || true
  grep -E '^ *--- FAIL|^FAIL|cannot|undefined|panic' "$log" >&2 || true
  return "$rc"
}

check tensorflow "$expected_dir/tf_go/tensorflow.txt" "$gopath" test_results tensorflow
check op "$expected_dir/tf_go/op.txt" "$gopath" test_results tensorflow/op
exit "$client_status"
