# shellcheck shell=bash disable=SC2034
# (expected_dir, client_status, checkout, work and root are set here for the sourcing script.)
# Shared by the run_*.sh scripts of client programs written for TensorFlow's C API: unpacks
# Rill's release tarball and compares a program's output with what the same program printed on
# TensorFlow 2.21 (c/testdata/client_programs/). Sourced, not run.
#
# RILL_TARBALL overrides the tarball (default: bazel-bin/c/libtensorflow.tar.gz); a directory laid
# out as the unpacked tarball is used in place (c/tools/tf_wheel_root.sh lays out TensorFlow 2.21's
# pip library so, for the reference runs).

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
expected_dir="$repo/c/testdata/client_programs"
client_status=0

# unpack_tarball DIR: DIR/include and DIR/lib, as TensorFlow's libtensorflow tarball lays them out
# (DIR a link to RILL_TARBALL when that is a directory).
unpack_tarball() {
  local tarball=${RILL_TARBALL:-$repo/bazel-bin/c/libtensorflow.tar.gz}
  if [[ -d "$tarball" ]]; then
    rm -rf "$1" && ln -s "$(readlink -f "$tarball")" "$1"
    return
  fi
  [[ -f "$tarball" ]] || { echo "build //c:libtensorflow_tarball first" >&2; exit 2; }
  rm -rf "$1" && mkdir -p "$1" && tar -xzf "$tarball" -C "$1"
}

# start_work CHECKOUT [WORK_DIR]: sets checkout (CHECKOUT, absolute), work (WORK_DIR, else a new
# temporary directory; created, absolute) and root ($work/libtensorflow, the tarball unpacked).
start_work() {
  checkout=$(readlink -f "$1")
  work=$(readlink -f "${2:-$(mktemp -d)}")
  mkdir -p "$work"
  root="$work/libtensorflow"
  unpack_tarball "$root"
}

# same_output EXPECTED ACTUAL: the texts match, numbers printed with as many characters and
# within float rounding (relative 1e-6: a float's last bit, from another order of additions),
# everything else exactly.
same_output() {
  python3 - "$1" "$2" <<'PY'
import re, sys
token = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|\S")
a, b = (token.findall(open(f).read()) for f in sys.argv[1:])
def same(x, y):
    if x == y:
        return True
    if len(x) != len(y):
        return False
    try:
        fx, fy = float(x), float(y)
    except ValueError:
        return x == y
    return abs(fx - fy) <= 1e-6 * max(1.0, abs(fx), abs(fy))
sys.exit(0 if len(a) == len(b) and all(same(x, y) for x, y in zip(a, b)) else 1)
PY
}

# check NAME EXPECTED DIR COMMAND...: runs COMMAND in DIR, prints "NAME: PASS" when it exits 0 and
# prints EXPECTED's text (same_output), else "NAME: FAIL" with the difference; sets
# client_status on failure.
check() {
  local name=$1 expected=$2 dir=$3
  shift 3
  local out="$work/$name.out" rc=0
  (cd "$dir" && "$@") > "$out" 2> "$work/$name.err" || rc=$?
  if [[ $rc != 0 ]]; then
    echo "$name: FAIL (exit status $rc)"
    tail -3 "$work/$name.err"
    client_status=1
  elif ! same_output "$expected" "$out"; then
    diff "$expected" "$out" > "$work/$name.diff" || true
    echo "$name: FAIL (output differs from TensorFlow's)"
    head -10 "$work/$name.diff"
    client_status=1
  else
    echo "$name: PASS"
  fi
}
