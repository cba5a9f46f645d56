#!/usr/bin/env bash
# Adversarial sweep of session_runner's flags and files (issue 26): odd tensor names, feeds of the
# wrong dtype, shape or file kind, output paths that are files, devices or missing, bad configs,
# cluster specs and session targets, devices as PEM files, SavedModels with odd tags, signatures
# and huge sparse variables. Each run, under a 8 GB address-space limit and a 40 s timeout, must
# end with status 0, 1 or 2 (never a signal or the timeout), and a failing one must print
# "Code: message" on stderr. Exact messages are cli_golden_test's; this checks that nothing the
# sweep tries crashes, aborts or hangs.
set -u
runner="$1"
cd "$(dirname "$0")/.."   # the runfiles root of the workspace
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
runs=0
python3 - "$tmp" <<'PY'
import struct, sys
def npy(name, descr, shape, data):
    h = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join("%d, " % s for s in shape) if len(shape) != 1 else "%d," % shape[0])
    h += " " * ((64 - (10 + len(h) + 1) % 64) % 64) + "\n"
    with open(sys.argv[1] + "/" + name, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode() + data)
npy("f.npy", "<f4", (2, 3), struct.pack("<6f", *range(6)))
npy("f4.npy", "<f4", (3, 4), struct.pack("<12f", *range(12)))
npy("i.npy", "<i8", (2, 3), struct.pack("<6q", *range(6)))
npy("s.npy", "|S2", (2,), b"abc\0")
npy("u.npy", "<U2", (2,), "abc\0".encode("utf-32-le"))
npy("c.npy", "<c16", (1,), b"\0" * 16)
npy("h.npy", "<f2", (2, 3), b"\0" * 12)
npy("e.npy", "<f4", (0, 3), b"")
npy("sc.npy", "<f4", (), struct.pack("<f", 3))
PY
printf 'node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }\nnode { name: "y" op: "Identity" input: "x" attr { key: "T" value { type: DT_FLOAT } } }\n' >"$tmp/id.pbtxt"
printf 'node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_STRING } } }\nnode { name: "y" op: "StringLength" input: "x" }\n' >"$tmp/str.pbtxt"
printf 'node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } attr { key: "shape" value { shape { dim { size: -1 } dim { size: 3 } } } } }\nnode { name: "y" op: "Identity" input: "x" attr { key: "T" value { type: DT_FLOAT } } }\n' >"$tmp/shape.pbtxt"
touch "$tmp/empty"
echo garbage >"$tmp/garbage"
mkdir -p "$tmp/dir"
sm=tests/checkpoints/data/tf1_saved_model
mkdir -p "$tmp/sparse/variables"
cp "$sm/saved_model.pb" "$tmp/sparse/"
cp "$sm/variables/variables.index" "$sm/variables/variables.data-00000-of-00001" "$tmp/sparse/variables/"
truncate -s 20G "$tmp/sparse/variables/variables.data-00000-of-00001"

run() {
  runs=$((runs + 1))
  ( ulimit -v 8000000; timeout 40 "$runner" "$@" >/dev/null 2>"$tmp/err" )
  local rc=$?
  if [ "$rc" -gt 2 ]; then
    echo "FAIL exit status $rc: $*"; tail -c 600 "$tmp/err"; echo; fail=1
  elif [ "$rc" -ne 0 ] && ! grep -qE '^[A-Za-z]+: .' "$tmp/err"; then
    echo "FAIL no 'Code: message' line (exit $rc): $*"; tail -c 600 "$tmp/err"; echo; fail=1
  fi
}
m=examples/graphs/matmul.pbtxt
for fetch in MatMul:1 MatMul:-1 MatMul:99999999999999999999 MatMul: :0 MatMul:0:0 "MatMul MatMul" \
    '^MatMul' ' ' 'a:0:' 'Mat/Mul'; do
  run --graph=$m --fetch="$fetch"
done
run --graph=$m --fetch=MatMul --fetch=MatMul
run --graph=$m --target=MatMul:0
run --graph=$m --target=
for feed in MatMul=f a=f a=i a:1=f a:-1=f nope=f a=empty a=dir a=garbage a=/dev/zero a=/dev/null; do
  file=${feed#*=}
  case "$file" in /*) ;; *) [ -e "$tmp/$file.npy" ] && file="$tmp/$file.npy" || file="$tmp/$file" ;; esac
  run --graph=$m --fetch=MatMul --feed="${feed%%=*}=$file"
done
run --graph=$m --fetch=MatMul --feed=a="$tmp/f.npy" --feed=a="$tmp/f.npy"
run --graph=$m --fetch=a --feed=a="$tmp/f.npy"
for f in s c e sc u h; do
  run --graph="$tmp/id.pbtxt" --fetch=y --feed=x="$tmp/$f.npy" --output_dir="$tmp/out"
  run --graph="$tmp/str.pbtxt" --fetch=y --feed=x="$tmp/$f.npy"
  run --graph="$tmp/shape.pbtxt" --fetch=y --feed=x="$tmp/$f.npy"
  run --graph="$tmp/shape.pbtxt" --fetch=y --feed=x="$tmp/$f.npy" --no_feed_shape_check
done
for out in "$tmp/dir" "$tmp/nodir/t.json" "" /dev/null /proc/self "$tmp/garbage"; do
  run --graph="$tmp/id.pbtxt" --fetch=y --feed=x="$tmp/f.npy" --trace="$out"
  run --graph="$tmp/id.pbtxt" --fetch=y --feed=x="$tmp/f.npy" --output_dir="$out"
  run --graph="$tmp/id.pbtxt" --fetch=y --feed=x="$tmp/f.npy" --dump_partitions="$out"
done
for config in "$tmp/empty" "$tmp/garbage" "$tmp/nope" "$tmp/dir" /dev/null "$tmp/f.npy"; do
  run --graph=$m --fetch=MatMul --config="$config"
done
for spec in '' '|' 'w|a;;b' 'w|a,w|b' 'a/b|127.0.0.1:1' 'worker|127.0.0.1:99999999' ',,,' 'w|'; do
  run --graph=$m --fetch=MatMul --cluster_spec="$spec"
done
for target in grpc:// grpc://127.0.0.1:99999999 grpc://127.0.0.1:-1 local xyz://a grpc://127.0.0.1:1; do
  run --graph=$m --fetch=MatMul --session_target="$target"
done
for pem in "$tmp/garbage" "$tmp/dir" /dev/zero "$tmp/nope" "$tmp/empty"; do
  run --graph=$m --fetch=MatMul --tls_ca_file="$pem"
done
run --graph=$m --fetch=MatMul --explain_placement --explain_all --log_device_placement \
  --memory_stats --list_devices
run --graph=$m --fetch=MatMul --benchmark --warmup=2147483647 --repeat=1
for graph in "$tmp/dir" "$tmp/empty" "$tmp/garbage" "" /proc/self/mem /proc/self/status /dev/null \
    "$tmp/f.npy"; do
  run --graph="$graph" --fetch=y
done
for dir in "$tmp/dir" "$tmp/empty" "$tmp/nope" "$tmp/sparse"; do
  run --saved_model_dir="$dir" --feed=x="$sm/x.npy"
done
for flag in --signature_def=nope --signature_def= --tag_set= --tag_set=serve,serve --tag_set=train \
    --feed=x="$tmp/f.npy" --feed=x="$tmp/e.npy" --feed=x="$tmp/s.npy" --target=probs --then; do
  run --saved_model_dir=$sm "$flag"
done
for ckpt in "$tmp/nope" "$tmp/dir" "$tmp/empty" /dev/zero "$sm/variables" "$sm/variables/variables.index"; do
  run --graph=$sm/saved_model.pb --fetch=probs --feed=x="$sm/x.npy" --checkpoint="$ckpt"
done
# Saving writes PREFIX_temp/ and PREFIX.*: only under $tmp.
for ckpt in "$tmp/saved" "$tmp/dir" "$tmp/dir/" "$tmp/empty" "$tmp/garbage/x" ""; do
  run --graph=$sm/saved_model.pb --target=init --save_checkpoint="$ckpt"
done
echo "$runs runs"
exit $fail
