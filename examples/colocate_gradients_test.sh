#!/usr/bin/env bash
# The seed's colocated-gradients example: with colocation, the gradient ops of b = sin(a) request
# b's device (/device:GPU:0) and those of c = cos(b) request c's (/device:CPU:0); without, they
# request none. g = dc/da = -sin(sin(1)) cos(1) = -0.402862, g + c = 0.263504 either way.
set -euo pipefail
bin=examples/colocate_gradients
fail() { echo "$*" >&2; exit 1; }
out=$($bin)
echo "$out"
grep -q '^g = -0.402862$' <<<"$out" || fail "g is not -0.402862"
grep -q '^g + c = 0.263504$' <<<"$out" || fail "g + c is not 0.263504"
b_lines=$(grep '^gradients/b_grad/.* requests ' <<<"$out") || fail "no gradient ops for b"
c_lines=$(grep '^gradients/c_grad/.* requests ' <<<"$out") || fail "no gradient ops for c"
if grep -v 'requests "/device:GPU:0"$' <<<"$b_lines"; then fail "a gradient op of b is not on b's device"; fi
if grep -v 'requests "/device:CPU:0"$' <<<"$c_lines"; then fail "a gradient op of c is not on c's device"; fi
# The placement log: every node placed, on the CPU here (soft placement without a GPU).
grep -q '^b: (Sin): /job:localhost/replica:0/task:0/device:' <<<"$out" || fail "no placement log line for b"
out=$($bin --no_colocate)
if grep '^gradients/.* requests ' <<<"$out" | grep -v 'requests ""$'; then fail "uncolocated gradient ops request a device"; fi
grep -q '^g = -0.402862$' <<<"$out" || fail "g is not -0.402862 without colocation"
