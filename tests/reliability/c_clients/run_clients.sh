#!/bin/bash
# Builds each C client program here the way a user outside Bazel does (gcc -std=c99 -pedantic
# against an installed or unpacked libtensorflow) and runs it: every program must print PASSED
# and exit 0 (no crash, no sanitizer report, no hang past 120 s).
#
#   run_clients.sh --prefix=DIR [--asan] [NAME...]    # tools/install.sh DIR: pkg-config tensorflow
#   run_clients.sh --tarball=FILE [--asan] [NAME...]  # bazel-bin/c/libtensorflow.tar.gz (c/README.md)
#   run_clients.sh --tf [NAME...]                     # TensorFlow 2.21's pip library, to check the
#                                                     # expectations (RILL_ONLY programs skipped)
#
# --asan compiles the programs with -fsanitize=address,undefined (the library is not
# instrumented; ASan's allocator still sees every malloc and free, double frees included).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# Under `bazel test` the script runs as tests/reliability/c_clients_test: the programs are in
# the runfiles' copy of this directory.
if [[ -n "${TEST_SRCDIR:-}" ]]; then
  here="$TEST_SRCDIR/${TEST_WORKSPACE:-rill}/tests/reliability/c_clients"
fi
mode="" arg="" asan=0 names=()
for a in "$@"; do
  case "$a" in
    --prefix=*) mode=prefix arg=${a#--prefix=} ;;
    --tarball=*) mode=tarball arg=${a#--tarball=} ;;
    --tf) mode=tf ;;
    --asan) asan=1 ;;
    *) names+=("$a") ;;
  esac
done
[[ -n "$mode" ]] || { echo "usage: $0 --prefix=DIR | --tarball=FILE | --tf [--asan] [NAME...]"; exit 2; }
work=${TEST_TMPDIR:-$(mktemp -d)}/c_clients
rm -rf "$work" && mkdir -p "$work"
case "$mode" in
  prefix)
    flags=$(PKG_CONFIG_PATH="$arg/lib/pkgconfig" pkg-config --cflags --libs tensorflow) || exit 2 ;;
  tarball)
    mkdir -p "$work/release" && tar -xzf "$arg" -C "$work/release" || exit 2
    flags="-I$work/release/include -L$work/release/lib -Wl,-rpath,$work/release/lib -ltensorflow" ;;
  tf)
    tf=$(python3 -c 'import os, tensorflow; print(os.path.dirname(tensorflow.__file__))' 2>/dev/null)
    flags="-DCLIENTS_AGAINST_TENSORFLOW -I$tf/include -L$tf -l:libtensorflow_cc.so.2 -l:libtensorflow_framework.so.2 -Wl,-rpath,$tf" ;;
esac
cflags=(-std=c99 -Wall -Wextra -Werror -pedantic -pthread -O1 -g)
if [[ $asan == 1 ]]; then
  cflags+=(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  # Leaks inside the uninstrumented library's static registries are not the programs'.
  export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1
fi
[[ ${#names[@]} -gt 0 ]] || names=($(cd "$here" && ls *.c | sed 's/\.c$//'))
passed=0 failed=0 skipped=0
for name in "${names[@]}"; do
  if [[ $mode == tf ]] && grep -q RILL_ONLY "$here/$name.c"; then
    skipped=$((skipped + 1)); continue
  fi
  if ! gcc "${cflags[@]}" "$here/$name.c" -I"$here" $flags -o "$work/$name" 2> "$work/$name.build"; then
    echo "FAIL $name: does not build"; cat "$work/$name.build"; failed=$((failed + 1)); continue
  fi
  TF_CPP_MIN_LOG_LEVEL=3 timeout 120 "$work/$name" > "$work/$name.out" 2>&1
  rc=$?
  if [[ $rc == 0 ]] && grep -q '^PASSED' "$work/$name.out"; then
    passed=$((passed + 1))
  else
    echo "FAIL $name (exit status $rc):"; grep -v '^ok ' "$work/$name.out" | head -40
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed, $skipped skipped"
[[ $failed == 0 && $passed -gt 0 ]]
