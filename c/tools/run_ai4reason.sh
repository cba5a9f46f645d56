#!/bin/bash
# Builds the C programs of ai4reason/tensorflow-c-api-examples (8c3d6e7) unmodified with its
# make.sh's gcc commands against Rill's C API release tarball and runs them on the TF1
# SavedModels in the checkout:
#   tfc-model-eval, tfc-model-eval-mirecek: the values they print are compared with TensorFlow
#     2.21's (c/testdata/client_programs/ai4reason/) within 1e-4 (the version line is skipped):
#     the example model's softmax over logits near 200 turns the float32 rounding of 784-term
#     sums (Rill's and NumPy's OpenBLAS sums agree bit for bit; TensorFlow's oneDNN adds in
#     another order) into differences up to 3e-5 on AVX-512 machines;
#   tfc-model-list: lists every operation with its output shape (TF_GraphGetTensorShape); the
#     number of lines that differ from TensorFlow's is printed (Rill infers some shapes less
#     precisely, see docs/install.md), the operation names and types must match.
#
#   bazel build //c:libtensorflow_tarball
#   c/tools/run_ai4reason.sh /path/to/tensorflow-c-api-examples [WORK_DIR]
set -euo pipefail
# shellcheck source=c/tools/client_program_lib.sh
source "$(dirname "$0")/client_program_lib.sh"

start_work "$@"
expected="$expected_dir/ai4reason"
examples="$checkout/examples"
export LD_LIBRARY_PATH="$root/lib"

for program in tfc-model-list tfc-model-eval tfc-model-eval-mirecek; do
  gcc -I"$root/include" -L"$root/lib" "$examples/$program.c" -ltensorflow -o "${work:?}/$program" \
    2> "${work:?}/$program.build.log"
done

# Compares the numbers of two outputs within 1e-4.
close() {
  paste -d ' ' <(tr -s ', ' '\n' < "$1") <(tr -s ', ' '\n' < "$2") |
    awk '{d = $1 - $2; if (d < 0) d = -d; if (NF != 2 || d > 1e-4) bad = 1} END {exit bad}'
}
for pair in "tfc-model-eval models/example" "tfc-model-eval-mirecek models/mirecek"; do
  # shellcheck disable=SC2086  # two words: the program and its model
  set -- $pair
  if (cd "$examples" && "${work:?}/$1" "$2") > "${work:?}/$1.out" 2> "${work:?}/$1.err" &&
    close "$expected/$1.txt" <(tail -n +2 "${work:?}/$1.out"); then
    echo "$1: PASS"
  else
    echo "$1: FAIL"
    diff "$expected/$1.txt" <(tail -n +2 "${work:?}/$1.out") | head -6 || true
    client_status=1
  fi
done

(cd "$examples" && "${work:?}/tfc-model-list" models/example) > "${work:?}/tfc-model-list.out" \
  2> "${work:?}/tfc-model-list.err" || { echo "tfc-model-list: FAIL (exit status $?)"; exit 1; }
names() { sed 's/ ins=.*//' "$1"; }
if ! diff <(names "$expected/tfc-model-list.txt") <(names "${work:?}/tfc-model-list.out") > /dev/null; then
  echo "tfc-model-list: FAIL (operations differ)"
  client_status=1
else
  # in_type of an operation without inputs is whatever TensorFlow's memory held: not compared.
  differing=$(diff <(sed 's/in_type=[0-9]* //' "$expected/tfc-model-list.txt") \
    <(sed 's/in_type=[0-9]* //' "${work:?}/tfc-model-list.out") | grep -c '^>' || true)
  echo "tfc-model-list: PASS ($(wc -l < "${work:?}/tfc-model-list.out") operations; shapes of" \
    "$differing differ from TensorFlow's)"
fi
exit "$client_status"
