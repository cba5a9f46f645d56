#!/usr/bin/env bash
# CLI golden tests: session_runner's exact stdout (and stderr + exit status for errors) on the seed
# examples. The golden files were written by hand from the formats in the spec (placement lines as
# `name: (Op): device`, values as numpy prints them), not recorded from Rill.
set -u
runner="$1"
cd "$(dirname "$0")/.."   # the runfiles root of the workspace
fail=0
check() {  # check NAME EXPECTED_STATUS STREAM GOLDEN ARGS...
  local name="$1" want_rc="$2" stream="$3" golden="$4"
  shift 4
  local out err rc
  out=$(mktemp) err=$(mktemp)
  "$runner" "$@" >"$out" 2>"$err"
  rc=$?
  if [ "$rc" -ne "$want_rc" ]; then
    echo "FAIL $name: exit status $rc, want $want_rc"; cat "$err"; fail=1; return
  fi
  local got="$out"
  [ "$stream" = stderr ] && got="$err"
  if ! diff -u "$golden" "$got"; then echo "FAIL $name: $stream differs from $golden"; fail=1; return; fi
  echo "ok   $name"
}
check matmul_log 0 stdout tests/golden/matmul_log.stdout \
  --graph=examples/graphs/matmul.pbtxt --log_device_placement --fetch=MatMul
check multi_tower_cpu 0 stdout tests/golden/multi_tower_cpu.stdout \
  --graph=examples/graphs/multi_tower_cpu.pbtxt --config=examples/cpu3.config.pbtxt --fetch=AddN
check four_replicas_cpu 0 stdout tests/golden/four_replicas_cpu.stdout \
  --graph=examples/graphs/four_replicas_cpu.pbtxt --config=examples/cpu4.config.pbtxt --fetch=AddN
check soft_placement_missing_gpu 1 stderr tests/golden/soft_placement_missing_gpu.stderr \
  --graph=examples/graphs/soft_placement.pbtxt --fetch=MatMul
check soft_placement_allowed 0 stdout tests/golden/soft_placement_allowed.stdout \
  --graph=examples/graphs/soft_placement.pbtxt --config=examples/soft_placement.config.pbtxt --fetch=MatMul
# Checkpoints and SavedModels written by TensorFlow (values: TensorFlow's y.npy, printed as numpy
# prints them).
check tf1_checkpoint 0 stdout tests/golden/tf1_checkpoint.stdout \
  --graph=tests/checkpoints/data/tf1_saver/graph.pbtxt \
  --checkpoint=tests/checkpoints/data/tf1_saver/model.ckpt \
  --feed=x=tests/checkpoints/data/tf1_saver/x.npy --fetch=y --fetch=global_step
check keras_saved_model 0 stdout tests/golden/keras_saved_model.stdout \
  --saved_model_dir=tests/checkpoints/data/keras_saved_model \
  --feed=keras_tensor=tests/checkpoints/data/keras_saved_model/x.npy
# The trace is Chrome's Trace Event Format: a JSON object with a traceEvents list, one process per
# device, complete events with ts/dur.
trace=$(mktemp)
"$runner" --graph=examples/graphs/multi_tower_cpu.pbtxt --config=examples/cpu3.config.pbtxt \
  --fetch=AddN --trace="$trace" >/dev/null || { echo "FAIL trace run"; fail=1; }
python3 - "$trace" <<'PY' || fail=1
import json, sys
t = json.load(open(sys.argv[1]))
procs = {e["args"]["name"] for e in t["traceEvents"] if e["ph"] == "M"}
assert len(procs) == 3, procs
ops = {e["args"]["op"] for e in t["traceEvents"] if e["ph"] == "X"}
assert {"MatMul", "AddN", "_Send", "_Recv"} <= ops, ops
assert all("ts" in e and "dur" in e for e in t["traceEvents"] if e["ph"] == "X")
print("ok   trace")
PY
# Reliability (issue 26): bad files, paths and flag values end with an error naming the flag and
# file and exit status 1 (2 for a bad command line), never a hang, an abort or a crash.
tmp=$(mktemp -d)
check_error() {  # check_error NAME EXPECTED_STATUS EXPECTED_STDERR_LINE ARGS...
  local name="$1" want_rc="$2" want="$3"
  shift 3
  local err rc
  err=$(timeout 60 "$runner" "$@" 2>&1 >/dev/null)
  rc=$?
  if [ "$rc" -ne "$want_rc" ]; then
    echo "FAIL $name: exit status $rc, want $want_rc"; echo "$err"; fail=1; return
  fi
  if [ "$err" != "$want" ]; then
    echo "FAIL $name: stderr is"; echo "$err"; echo "want"; echo "$want"; fail=1; return
  fi
  echo "ok   $name"
}
matmul=examples/graphs/matmul.pbtxt
check_error graph_dev_zero 1 "InvalidArgument: --graph=/dev/zero: is a device, not a file" \
  --graph=/dev/zero --fetch=MatMul
check_error config_dev_zero 1 "InvalidArgument: --config=/dev/zero: is a device, not a file" \
  --graph=$matmul --config=/dev/zero --fetch=MatMul
check_error feed_dev_zero 1 'InvalidArgument: feed a: /dev/zero is not a valid .npy file: bad magic: it starts with "\x00\x00\x00\x00\x00\x00", not "\x93NUMPY"' \
  --graph=$matmul --feed=a=/dev/zero --fetch=MatMul
truncate -s 3G "$tmp/huge.pb"
check_error graph_over_2gb 1 "InvalidArgument: --graph=$tmp/huge.pb: is 3221225472 bytes, more than 2147483647 (protobuf's limit on a GraphDef)" \
  --graph="$tmp/huge.pb" --fetch=MatMul
truncate -s 20M "$tmp/big.config"
check_error config_over_16mb 1 "InvalidArgument: --config=$tmp/big.config: is 20971520 bytes, more than 16777216 (a ConfigProto text file is small)" \
  --graph=$matmul --config="$tmp/big.config" --fetch=MatMul
mkfifo "$tmp/fifo"
# The script holds the FIFO open (read-write, which does not wait for a partner) while a writer
# fills it, so the runner's open never waits for a writer that has not started yet.
exec 3<>"$tmp/fifo"
(head -c 20000000 /dev/zero >&3 2>/dev/null &)
check_error config_pipe_is_bounded 1 "InvalidArgument: --config=$tmp/fifo: holds more than 16777216 bytes (a ConfigProto text file is small)" \
  --graph=$matmul --config="$tmp/fifo" --fetch=MatMul
exec 3>&-
check_error config_directory 1 "InvalidArgument: --config=$tmp: is a directory, not a file" \
  --graph=$matmul --config="$tmp" --fetch=MatMul
touch "$tmp/file"
check_error output_dir_is_a_file 1 "InvalidArgument: --output_dir=$tmp/file: is not a directory" \
  --graph=$matmul --fetch=MatMul --output_dir="$tmp/file"
check_error dump_partitions_is_a_file 1 "InvalidArgument: --dump_partitions=$tmp/file: is not a directory" \
  --graph=$matmul --fetch=MatMul --dump_partitions="$tmp/file"
check_error output_dir_under_a_file 1 "NotFound: --output_dir=$tmp/file/sub: cannot create the directory: Not a directory" \
  --graph=$matmul --fetch=MatMul --output_dir="$tmp/file/sub"
check_error fetch_control_input 2 "InvalidArgument: --fetch=^bad: a fetch cannot be a control input '^bad'; to run node 'bad' without fetching a value use --target=bad" \
  --graph=$matmul --fetch=^bad
check_error repeat_overflow 2 "InvalidArgument: --repeat needs a positive integer, got '99999999999999999999'" \
  --graph=$matmul --fetch=MatMul --repeat=99999999999999999999
check_error save_checkpoint_without_saver 1 "InvalidArgument: --save_checkpoint needs a graph with a tf.train.Saver (a TF1 Saver's nodes), and this graph has none: expected nodes save/Const (the checkpoint prefix) and save/control_dependency, it has neither" \
  --graph=$matmul --fetch=MatMul --save_checkpoint="$tmp/ckpt"
check_error trace_is_a_directory 1 "InvalidArgument: --trace=$tmp: is a directory; give a file name" \
  --graph=$matmul --fetch=MatMul --trace="$tmp"
check_error trace_in_a_missing_directory 1 "NotFound: --trace=$tmp/nodir/t.json: cannot be written: No such file or directory" \
  --graph=$matmul --fetch=MatMul --trace="$tmp/nodir/t.json"
check_error tls_ca_dev_zero 1 "InvalidArgument: The CA certificate file /dev/zero: is a device, not a file; give a readable PEM file" \
  --graph=$matmul --fetch=MatMul --tls_ca_file=/dev/zero
check_error benchmark_repetitions_past_int 2 "InvalidArgument: --repeat=2147483647 with --warmup=1 is more than 2147483647 repetitions" \
  --graph=$matmul --fetch=MatMul --benchmark --warmup=1 --repeat=2147483647
# Nodes named like a Saver's whose save/control_dependency is not the prefix string.
cat >"$tmp/fake_saver.pbtxt" <<'PB'
node { name: "save/Const" op: "Placeholder" attr { key: "dtype" value { type: DT_STRING } } }
node { name: "save/control_dependency" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { } float_val: 1 } } } }
PB
check_error save_checkpoint_not_a_prefix 1 "InvalidArgument: --save_checkpoint: save/control_dependency:0 gave a float tensor of shape [], not a string scalar (the checkpoint's prefix, as a tf.train.Saver's gives)" \
  --graph="$tmp/fake_saver.pbtxt" --fetch=save/control_dependency --save_checkpoint="$tmp/ckpt"
check_error checkpoint_without_saver 1 "InvalidArgument: --checkpoint needs a graph with a tf.train.Saver (a TF1 Saver's nodes), and this graph has none: expected nodes save/Const (the checkpoint prefix) and save/restore_all, it has neither" \
  --graph=$matmul --fetch=MatMul --checkpoint="$tmp/ckpt"
cat >"$tmp/unpack.pbtxt" <<'PB'
node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }
node { name: "u" op: "Unpack" input: "x" attr { key: "T" value { type: DT_FLOAT } }
       attr { key: "num" value { i: 1000000000 } } }
PB
check_error unpack_a_billion_outputs 1 "InvalidArgument: Attr 'num' of node 'u' is 1000000000: Rill allows at most 1048576 tensors in one input or output list ('output' of Unpack)" \
  --graph="$tmp/unpack.pbtxt" --fetch=u
# Versions and function libraries TensorFlow refuses (graph/graph_def_versions.h).
const_x='node { name: "x" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } } attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { } float_val: 2 } } } }'
fn_f='function { signature { name: "F" input_arg { name: "a" type: DT_FLOAT } output_arg { name: "b" type: DT_FLOAT } } node_def { name: "n" op: "OP" input: "a" attr { key: "T" value { type: DT_FLOAT } } } ret { key: "b" value: "n:y:0" } }'
printf '%s\nversions { producer: 1700 min_consumer: 100000 }\n' "$const_x" >"$tmp/min_consumer.pbtxt"
check_error min_consumer_above_rill 1 "InvalidArgument: GraphDef min consumer version 100000 above current version 2474 for Rill.  Please upgrade Rill." \
  --graph="$tmp/min_consumer.pbtxt" --fetch=x
printf '%s\nnode { name: "y" op: "F" input: "x" }\nlibrary { %s %s }\n' "$const_x" \
  "${fn_f/OP/Neg}" "${fn_f/OP/Square}" >"$tmp/two_functions.pbtxt"
check_error two_functions_one_name 1 "InvalidArgument: Cannot add function 'F' because a different function with the same name already exists." \
  --graph="$tmp/two_functions.pbtxt" --fetch=y
printf '%s\nnode { name: "y" op: "F" input: "x" input: "x" }\nlibrary { %s }\n' "$const_x" \
  "${fn_f/OP/Neg}" >"$tmp/call_inputs.pbtxt"
check_error function_call_inputs 1 "InvalidArgument: NodeDef expected inputs 'float' do not match 2 inputs specified; Op<name=F; signature=a:float -> b:float>; NodeDef: {{node y}}" \
  --graph="$tmp/call_inputs.pbtxt" --fetch=y
# SavedModels without a MetaGraph, or whose saved_model.pb is a directory (TensorFlow's codes).
mkdir -p "$tmp/no_meta_graph" "$tmp/pb_is_a_dir/saved_model.pb"
printf '\010\001' >"$tmp/no_meta_graph/saved_model.pb"
check_error saved_model_without_meta_graph 1 "NotFound: MetaGraphDef associated with tags 'serve' could not be found in SavedModel $tmp/no_meta_graph/saved_model.pb, with available tags ''" \
  --saved_model_dir="$tmp/no_meta_graph"
check_error saved_model_pb_is_a_directory 1 "FailedPrecondition: $tmp/pb_is_a_dir/saved_model.pb; Is a directory" \
  --saved_model_dir="$tmp/pb_is_a_dir"
# 1,024 inter-op threads (the most a config may ask for) that the process cannot start under a
# 3 GB address-space limit: ResourceExhausted naming the pool (which thread fails varies).
printf 'inter_op_parallelism_threads: 1024\n' >"$tmp/threads.config"
threads_err=$( (ulimit -v 3000000; timeout 60 "$runner" --graph=$matmul \
  --config="$tmp/threads.config" --fetch=MatMul) 2>&1 >/dev/null)
threads_rc=$?
case "$threads_rc:$threads_err" in
  "1:ResourceExhausted: Could not start thread pool \"rill_inter_op\" of 1024 threads (thread "*" of 1024 could not start: Resource temporarily unavailable). Ask for fewer threads (ConfigProto.inter_op_parallelism_threads) or raise the process's thread or memory limit")
    echo "ok   threads_past_the_memory_limit" ;;
  *) echo "FAIL threads_past_the_memory_limit: exit $threads_rc: $threads_err"; fail=1 ;;
esac
# Feeds of rank 20,000 are refused (TensorFlow's limit is 254); a 40 MB tensor prints its summary.
python3 - "$tmp" <<'PY' || fail=1
import struct, sys
def npy(path, descr, shape, data):
    h = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join("%d, " % s for s in shape) if len(shape) != 1 else "%d," % shape[0])
    h += " " * ((64 - (12 + len(h) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x02\x00" + struct.pack("<I", len(h)) + h.encode() + data)
npy(sys.argv[1] + "/big.npy", "<f4", (2500000, 4), b"\0" * 40000000)
npy(sys.argv[1] + "/rank20000.npy", "<f4", (1,) * 20000, b"\0" * 4)
PY
cat >"$tmp/identity.pbtxt" <<'PB'
node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }
node { name: "y" op: "Identity" input: "x" attr { key: "T" value { type: DT_FLOAT } } }
PB
check_error feed_rank_20000 1 "InvalidArgument: feed x: $tmp/rank20000.npy is not a valid .npy file: 'shape' has rank 20000, more than 254 (TensorFlow's limit on a shape's rank)" \
  --graph="$tmp/identity.pbtxt" --feed=x="$tmp/rank20000.npy" --fetch=y
big_out=$(timeout 60 "$runner" --graph="$tmp/identity.pbtxt" --feed=x="$tmp/big.npy" --fetch=y)
big_want='y:0 dtype=float32 shape=[2500000,4]
[[0. 0. 0. 0.]
 [0. 0. 0. 0.]
 [0. 0. 0. 0.]
 ...
 [0. 0. 0. 0.]
 [0. 0. 0. 0.]
 [0. 0. 0. 0.]]'
if [ "$big_out" = "$big_want" ]; then echo "ok   big_tensor_summary"; else
  echo "FAIL big_tensor_summary:"; echo "$big_out" | head -20; fail=1; fi
# A TensorFlow ConfigProto text may set fields of the messages Rill keeps as empty shells
# (proto/opaque.proto: RewriterConfig, CoordinationServiceConfig, ...): they are skipped, as
# TensorFlow would read them and Rill ignore them; an unknown field elsewhere is still refused.
printf 'graph_options { rewrite_options { constant_folding: OFF disable_meta_optimizer: true custom_optimizers { name: "x" } } }\nexperimental { coordination_config { service_type: "standalone" } }\n' >"$tmp/rewrite.config"
rewrite_out=$(timeout 60 "$runner" --graph=$matmul --config="$tmp/rewrite.config" --fetch=MatMul 2>&1)
rewrite_want='MatMul:0 dtype=float32 shape=[2,2]
[[22. 28.]
 [49. 64.]]'
if [ "$rewrite_out" = "$rewrite_want" ]; then echo "ok   config_rewrite_options"; else
  echo "FAIL config_rewrite_options:"; echo "$rewrite_out"; fail=1; fi
printf 'graph_options { rewrite_options { constant_folding: OFF } bogus: 1 }\n' >"$tmp/typo.config"
check_error config_unknown_field 1 "InvalidArgument: config file $tmp/typo.config is not a text ConfigProto: line 1, column 64: Message type \"rill.GraphOptions\" has no field named \"bogus\"." \
  --graph=$matmul --config="$tmp/typo.config" --fetch=MatMul
# A quantized graph: a quint8 feed from a '|u1' .npy (numpy holds what session.run returns for a
# quint8 tensor as uint8), Dequantize and QuantizeV2; the quint8 fetch prints, and is written to
# --output_dir, as its integers (TensorFlow 2.21's values).
python3 - "$tmp" <<'PY' || fail=1
import struct, sys
h = "{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }"
h += " " * ((64 - (10 + len(h) + 1) % 64) % 64) + "\n"
with open(sys.argv[1] + "/q.npy", "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode() + bytes([0, 128, 255]))
PY
cat >"$tmp/quantized.pbtxt" <<'PB'
node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_QUINT8 } } }
node { name: "lo" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 0 } } } }
node { name: "hi" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 1 } } } }
node { name: "deq" op: "Dequantize" input: "x" input: "lo" input: "hi"
  attr { key: "T" value { type: DT_QUINT8 } } }
node { name: "q" op: "QuantizeV2" input: "deq" input: "lo" input: "hi"
  attr { key: "T" value { type: DT_QUINT8 } } }
PB
mkdir -p "$tmp/qout"
q_out=$(timeout 60 "$runner" --graph="$tmp/quantized.pbtxt" --feed=x="$tmp/q.npy" --fetch=deq \
  --fetch=q --output_dir="$tmp/qout" 2>&1)
q_want='deq:0 dtype=float32 shape=[3]
[0.        0.5019608 1.       ]
q:0 dtype=quint8 shape=[3]
[  0 128 255]'
q_npy=$(python3 -c "import sys; d = open(sys.argv[1], 'rb').read(); print(b\"'|u1'\" in d, list(d[-3:]))" \
  "$tmp/qout/q.npy" 2>&1)
if [ "$q_out" = "$q_want" ] && [ "$q_npy" = "True [0, 128, 255]" ]; then
  echo "ok   quantized_feed_fetch"; else
  echo "FAIL quantized_feed_fetch:"; echo "$q_out"; echo "$q_npy"; fail=1; fi
# A status message holding a NUL byte (CheckNumerics' message attr) prints whole, the NUL as \0.
cat > "$tmp/nul_message.pbtxt" <<'PB'
node { name: "x" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 1 } }
  float_val: nan } } } }
node { name: "y" op: "CheckNumerics" input: "x" attr { key: "T" value { type: DT_FLOAT } }
  attr { key: "message" value { s: "a\000b" } } }
PB
nul_err=$(timeout 60 "$runner" --graph="$tmp/nul_message.pbtxt" --fetch=y 2>&1 >/dev/null | tr -d '\000')
nul_first=$(printf '%s\n' "$nul_err" | head -1)
if [ "$nul_first" = 'InvalidArgument: a\0b : Tensor had NaN values' ] &&
  printf '%s\n' "$nul_err" | grep -qF '[[{{node y}}]]'; then
  echo "ok   nul_in_message"; else
  echo "FAIL nul_in_message:"; printf '%s\n' "$nul_err"; fail=1; fi
rm -rf "$tmp"
exit $fail
