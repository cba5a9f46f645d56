// Fuzz target: import + place + run of small fuzzed graphs on CPU, structure-aware.
//
// Plain bytes would almost never get past the GraphDef parser, so the input is read as a program
// (tests/fuzz/fuzz_input.h) that builds a GraphDef of up to 24 nodes from a menu of ~50 ops
// (constants, placeholders, elementwise math, MatMul, reductions, shape ops, casts, comparisons,
// Select, Switch and a Merge of a Switch's two outputs), wiring each node to earlier outputs of a
// matching dtype (sometimes of the wrong dtype, a missing node, a later node making a cycle, or a
// control input), with devices from /cpu:0../cpu:2 (sometimes a GPU or CPU that does not exist), a
// ConfigProto (1-3 CPUs, soft placement, optimizer on or off) and feeds (sometimes the wrong dtype
// or shape). The GraphDef is serialized and goes the user's way: ParseGraphDefBytes, Session::New,
// Create, Run.
//
// Properties checked on every input:
// - every failure is a status with a message, never DeadlineExceeded (nothing here may block);
// - a second Run of the same signature returns the same status code and bit-identical outputs
//   (no state lost or leaked across runs, including after a failed run);
// - for a quarter of the inputs, the same graph with the graph optimizer off (opt_level L0) gives
//   the same status code and bit-identical outputs (constant folding, CSE and identity removal
//   change nothing).
// At exit it prints how many inputs reached Session::Run and how many runs succeeded.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/tensor.h"
#include "core/tensor_proto.h"
#include "google/protobuf/text_format.h"
#include "graph/graph_file.h"
#include "proto/graph.pb.h"
#include "session/session.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_input.h"

namespace rill {
namespace fuzz {
namespace {

struct Stats {
  std::atomic<int64_t> inputs{0};
  std::atomic<int64_t> created{0};  // Session::Create succeeded
  std::atomic<int64_t> ran{0};      // reached Session::Run
  std::atomic<int64_t> ran_ok{0};   // Session::Run succeeded
};

Stats& GlobalStats() {
  static Stats* stats = [] {
    auto* s = new Stats;
    std::atexit([] {
      Stats& st = GlobalStats();
      std::fprintf(stderr,
                   "graph_run_fuzzer: %lld inputs, %lld created, %lld reached Session::Run "
                   "(%.1f%%), %lld runs succeeded (%.1f%%)\n",
                   static_cast<long long>(st.inputs.load()),
                   static_cast<long long>(st.created.load()), static_cast<long long>(st.ran.load()),
                   st.inputs ? 100.0 * st.ran.load() / st.inputs.load() : 0.0,
                   static_cast<long long>(st.ran_ok.load()),
                   st.inputs ? 100.0 * st.ran_ok.load() / st.inputs.load() : 0.0);
    });
    return s;
  }();
  return *stats;
}

// One output of a node already in the graph.
struct Value {
  std::string name;  // "n3" or "n3:1"
  DataType dtype;
};

class GraphProgram {
 public:
  explicit GraphProgram(FuzzInput* in) : in_(in) {}

  void Build() {
    const int num_nodes = static_cast<int>(in_->IntInRange(1, 24));
    for (int i = 0; i < num_nodes && in_->remaining() > 0; ++i) AddNode(i, num_nodes);
    if (graph_.node_size() == 0) AddNode(0, 1);
  }

  GraphDef& graph() { return graph_; }
  std::vector<std::pair<std::string, Tensor>>& feeds() { return feeds_; }
  const std::vector<Value>& values() const { return values_; }

 private:
  DataType PickDtype() {
    static const DataType kTypes[] = {DT_FLOAT, DT_FLOAT, DT_INT32, DT_BOOL};
    return kTypes[in_->Pick(4)];
  }

  TensorShape PickShape(int max_rank) {
    std::vector<int64_t> dims;
    const int rank = static_cast<int>(in_->IntInRange(0, max_rank));
    for (int d = 0; d < rank; ++d)
      dims.push_back(in_->IntInRange(0, 3) == 0 ? 1 : in_->IntInRange(1, 3));
    return *TensorShape::FromDims(dims);
  }

  Tensor RandomTensor(DataType dtype, const TensorShape& shape) {
    Tensor t(dtype, shape);
    const int64_t n = shape.num_elements();
    if (dtype == DT_FLOAT) {
      for (int64_t k = 0; k < n; ++k) t.flat<float>()[k] = in_->SmallFloat();
    } else if (dtype == DT_INT32) {
      for (int64_t k = 0; k < n; ++k) t.flat<int32_t>()[k] = static_cast<int8_t>(in_->Byte()) / 8;
    } else {
      for (int64_t k = 0; k < n; ++k) t.flat<bool>()[k] = in_->Bool();
    }
    return t;
  }

  NodeDef* NewNode(int index, const std::string& op) {
    NodeDef* n = graph_.add_node();
    n->set_name(absl::StrCat("n", index));
    n->set_op(op);
    static const char* const kDevices[] = {
        "/cpu:0", "/cpu:1",       "/device:CPU:2", "/job:localhost/replica:0/task:0/device:CPU:0",
        "/gpu:0", "/device:CPU:7"};
    if (in_->IntInRange(0, 3) == 0) n->set_device(kDevices[in_->Pick(6)]);
    return n;
  }

  void SetType(NodeDef* n, const char* attr, DataType dtype) {
    (*n->mutable_attr())[attr].set_type(dtype);
  }

  // A const node holding `t`, added now; returns its name.
  std::string AddConst(const std::string& name, const Tensor& t) {
    NodeDef* n = graph_.add_node();
    n->set_name(name);
    n->set_op("Const");
    SetType(n, "dtype", t.dtype());
    TensorToProto(t, (*n->mutable_attr())["value"].mutable_tensor(), in_->Bool());
    return name;
  }

  std::string SmallIntConst(int index, const char* suffix, int count, int lo, int hi) {
    std::vector<int32_t> v;
    for (int k = 0; k < count; ++k) v.push_back(static_cast<int32_t>(in_->IntInRange(lo, hi)));
    const TensorShape shape =
        count != 1 || in_->Bool() ? *TensorShape::FromDims({count}) : TensorShape();
    return AddConst(absl::StrCat("n", index, "/", suffix), Tensor::FromVector<int32_t>(v, shape));
  }

  // An earlier output, preferring `want` (DT_INVALID: any). Occasionally a name that is wrong on
  // purpose: missing, or a later node (a forward edge, possibly a cycle).
  std::string Input(int index, int num_nodes, DataType want) {
    const uint8_t r = in_->Byte();
    if (r == 0xff) return "missing_node";
    if (r == 0xfe && index + 1 < num_nodes)
      return absl::StrCat("n", in_->IntInRange(index + 1, num_nodes - 1));
    std::vector<const Value*> matching;
    for (const Value& v : values_) {
      if (want == DT_INVALID || v.dtype == want || r == 0xfd) matching.push_back(&v);
    }
    if (matching.empty()) {
      // Nothing of that dtype yet: make a constant of it.
      const DataType dtype = want == DT_INVALID ? DT_FLOAT : want;
      const std::string name =
          AddConst(absl::StrCat("n", index, "/c", aux_++), RandomTensor(dtype, PickShape(2)));
      values_.push_back({name, dtype});
      return name;
    }
    return matching[in_->Pick(matching.size())]->name;
  }

  DataType DtypeOf(const std::string& input) const {
    for (const Value& v : values_) {
      if (v.name == input) return v.dtype;
    }
    return DT_FLOAT;
  }

  void AddNode(int i, int num_nodes) {
    static const char* const kUnaryFloat[] = {
        "Neg",      "Relu", "Abs",     "Square",    "Sqrt",  "Exp",   "Tanh", "Sigmoid",
        "Identity", "Log",  "Softmax", "ZerosLike", "Floor", "Relu6", "Rsqrt"};
    static const char* const kBinary[] = {
        "Add",     "AddV2",   "Sub",      "Mul",      "Maximum",
        "Minimum", "RealDiv", "FloorDiv", "FloorMod", "SquaredDifference",
        "Pow",     "BiasAdd"};
    static const char* const kReduce[] = {"Sum", "Max", "Min", "Mean", "Prod", "ArgMax"};
    static const char* const kCompare[] = {"Less", "Greater", "Equal", "NotEqual", "LessEqual"};
    const int choice = static_cast<int>(in_->Pick(18));
    switch (choice) {
      case 0: {  // Const
        const DataType dtype = PickDtype();
        AddConst(absl::StrCat("n", i), RandomTensor(dtype, PickShape(3)));
        values_.push_back({absl::StrCat("n", i), dtype});
        return;
      }
      case 1: {  // Placeholder, fed (sometimes with a mismatching tensor)
        NodeDef* n = NewNode(i, "Placeholder");
        const DataType dtype = in_->Bool() ? DT_FLOAT : DT_INT32;
        SetType(n, "dtype", dtype);
        TensorShape shape = PickShape(2);
        if (in_->Bool()) {
          TensorShapeProto* s = (*n->mutable_attr())["shape"].mutable_shape();
          for (int d = 0; d < shape.rank(); ++d)
            s->add_dim()->set_size(in_->Bool() ? -1 : shape.dim(d));
        }
        if (in_->IntInRange(0, 7) != 0) {
          const DataType fed = in_->IntInRange(0, 15) == 0 ? DT_BOOL : dtype;
          const TensorShape fed_shape = in_->IntInRange(0, 15) == 0 ? PickShape(2) : shape;
          feeds_.emplace_back(n->name(), RandomTensor(fed, fed_shape));
        }
        values_.push_back({n->name(), dtype});
        return;
      }
      case 2:
      case 3: {  // unary float
        NodeDef* n = NewNode(i, kUnaryFloat[in_->Pick(15)]);
        n->add_input(Input(i, num_nodes, DT_FLOAT));
        SetType(n, "T", DT_FLOAT);
        values_.push_back({n->name(), DT_FLOAT});
        return;
      }
      case 4:
      case 5:
      case 6: {  // binary, same dtype
        const DataType dtype = in_->IntInRange(0, 3) == 0 ? DT_INT32 : DT_FLOAT;
        NodeDef* n = NewNode(i, kBinary[in_->Pick(12)]);
        n->add_input(Input(i, num_nodes, dtype));
        n->add_input(Input(i, num_nodes, dtype));
        SetType(n, "T", dtype);
        values_.push_back({n->name(), dtype});
        return;
      }
      case 7: {  // MatMul
        NodeDef* n = NewNode(i, "MatMul");
        n->add_input(Input(i, num_nodes, DT_FLOAT));
        n->add_input(Input(i, num_nodes, DT_FLOAT));
        SetType(n, "T", DT_FLOAT);
        (*n->mutable_attr())["transpose_a"].set_b(in_->Bool());
        (*n->mutable_attr())["transpose_b"].set_b(in_->Bool());
        values_.push_back({n->name(), DT_FLOAT});
        return;
      }
      case 8: {  // reductions
        const char* op = kReduce[in_->Pick(6)];
        NodeDef* n = NewNode(i, op);
        const std::string x = Input(i, num_nodes, in_->Bool() ? DT_FLOAT : DT_INT32);
        const DataType dtype = DtypeOf(x);
        n->add_input(x);
        n->add_input(SmallIntConst(i, "axis", static_cast<int>(in_->IntInRange(1, 2)), -3, 2));
        SetType(n, "T", dtype);
        SetType(n, "Tidx", DT_INT32);
        if (std::string(op) == "ArgMax") {
          SetType(n, "output_type", DT_INT64);
        } else {
          (*n->mutable_attr())["keep_dims"].set_b(in_->Bool());
          values_.push_back({n->name(), dtype});
        }
        return;
      }
      case 9: {  // Reshape / Tile / Transpose / ExpandDims
        static const char* const kOps[] = {"Reshape", "Tile", "Transpose", "ExpandDims"};
        const int which = static_cast<int>(in_->Pick(4));
        NodeDef* n = NewNode(i, kOps[which]);
        const std::string x = Input(i, num_nodes, DT_INVALID);
        const DataType dtype = DtypeOf(x);
        n->add_input(x);
        const int count = which == 3 ? 1 : static_cast<int>(in_->IntInRange(1, 3));
        n->add_input(SmallIntConst(i, "arg", count, which == 0 ? -1 : (which == 1 ? 0 : -3),
                                   which == 1 ? 3 : 4));
        SetType(n, "T", dtype);
        SetType(
            n,
            which == 0 ? "Tshape" : (which == 1 ? "Tmultiples" : (which == 2 ? "Tperm" : "Tdim")),
            DT_INT32);
        values_.push_back({n->name(), dtype});
        return;
      }
      case 10: {  // ConcatV2 / Pack / AddN, N = 2..3
        static const char* const kOps[] = {"ConcatV2", "Pack", "AddN"};
        const int which = static_cast<int>(in_->Pick(3));
        NodeDef* n = NewNode(i, kOps[which]);
        const DataType dtype = in_->Bool() ? DT_FLOAT : DT_INT32;
        const int count = static_cast<int>(in_->IntInRange(2, 3));
        for (int k = 0; k < count; ++k) n->add_input(Input(i, num_nodes, dtype));
        if (which == 0) {
          n->add_input(SmallIntConst(i, "axis", 1, -2, 2));
          SetType(n, "Tidx", DT_INT32);
        }
        if (which == 1) (*n->mutable_attr())["axis"].set_i(in_->IntInRange(-2, 2));
        (*n->mutable_attr())["N"].set_i(count);
        SetType(n, "T", dtype);
        values_.push_back({n->name(), dtype});
        return;
      }
      case 11: {  // Shape / Size / Rank
        static const char* const kOps[] = {"Shape", "Size", "Rank"};
        const int which = static_cast<int>(in_->Pick(3));
        NodeDef* n = NewNode(i, kOps[which]);
        const std::string x = Input(i, num_nodes, DT_INVALID);
        n->add_input(x);
        SetType(n, "T", DtypeOf(x));
        if (which < 2) SetType(n, "out_type", DT_INT32);
        values_.push_back({n->name(), DT_INT32});
        return;
      }
      case 12: {  // Cast
        NodeDef* n = NewNode(i, "Cast");
        const std::string x = Input(i, num_nodes, DT_INVALID);
        const DataType dst = PickDtype();
        n->add_input(x);
        SetType(n, "SrcT", DtypeOf(x));
        SetType(n, "DstT", dst);
        values_.push_back({n->name(), dst});
        return;
      }
      case 13: {  // comparisons -> bool
        NodeDef* n = NewNode(i, kCompare[in_->Pick(5)]);
        const DataType dtype = in_->Bool() ? DT_FLOAT : DT_INT32;
        n->add_input(Input(i, num_nodes, dtype));
        n->add_input(Input(i, num_nodes, dtype));
        SetType(n, "T", dtype);
        values_.push_back({n->name(), DT_BOOL});
        return;
      }
      case 14: {  // Select
        NodeDef* n = NewNode(i, in_->Bool() ? "Select" : "SelectV2");
        const DataType dtype = in_->Bool() ? DT_FLOAT : DT_INT32;
        n->add_input(Input(i, num_nodes, DT_BOOL));
        n->add_input(Input(i, num_nodes, dtype));
        n->add_input(Input(i, num_nodes, dtype));
        SetType(n, "T", dtype);
        values_.push_back({n->name(), dtype});
        return;
      }
      case 15: {  // Switch: two outputs, one dead
        NodeDef* n = NewNode(i, "Switch");
        const std::string x = Input(i, num_nodes, DT_INVALID);
        n->add_input(x);
        n->add_input(Input(i, num_nodes, DT_BOOL));
        SetType(n, "T", DtypeOf(x));
        values_.push_back({n->name(), DtypeOf(x)});
        values_.push_back({absl::StrCat(n->name(), ":1"), DtypeOf(x)});
        switches_.push_back({n->name(), DtypeOf(x)});
        return;
      }
      case 16: {  // Merge of the two outputs of one Switch: exactly one of them is live
        // (a Merge of several live inputs forwards whichever comes first, which is
        // nondeterministic by definition, so the rerun check could not hold).
        if (switches_.empty()) {
          NodeDef* sw = NewNode(i, "Switch");
          sw->set_name(absl::StrCat("n", i, "/switch"));
          const std::string x = Input(i, num_nodes, DT_INVALID);
          sw->add_input(x);
          sw->add_input(Input(i, num_nodes, DT_BOOL));
          SetType(sw, "T", DtypeOf(x));
          switches_.push_back({sw->name(), DtypeOf(x)});
        }
        const Value& sw = switches_[in_->Pick(switches_.size())];
        NodeDef* n = NewNode(i, "Merge");
        n->add_input(sw.name);
        n->add_input(absl::StrCat(sw.name, ":1"));
        (*n->mutable_attr())["N"].set_i(2);
        SetType(n, "T", sw.dtype);
        values_.push_back({n->name(), sw.dtype});
        return;
      }
      default: {  // Slice / StridedSlice / Fill
        static const char* const kOps[] = {"Slice", "StridedSlice", "Fill"};
        const int which = static_cast<int>(in_->Pick(3));
        NodeDef* n = NewNode(i, kOps[which]);
        if (which == 2) {
          n->add_input(SmallIntConst(i, "dims", static_cast<int>(in_->IntInRange(1, 2)), -1, 4));
          const std::string v = Input(i, num_nodes, DT_FLOAT);
          n->add_input(v);
          SetType(n, "T", DtypeOf(v));
          SetType(n, "index_type", DT_INT32);
          values_.push_back({n->name(), DtypeOf(v)});
          return;
        }
        const std::string x = Input(i, num_nodes, DT_INVALID);
        n->add_input(x);
        const int count = static_cast<int>(in_->IntInRange(1, 2));
        n->add_input(SmallIntConst(i, "begin", count, -2, 2));
        n->add_input(SmallIntConst(i, "size", count, -1, 3));
        if (which == 1) {
          n->add_input(SmallIntConst(i, "strides", count, -2, 2));
          for (const char* mask :
               {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"}) {
            (*n->mutable_attr())[mask].set_i(in_->IntInRange(0, 7) == 0 ? in_->IntInRange(0, 3)
                                                                        : 0);
          }
        }
        SetType(n, "T", DtypeOf(x));
        SetType(n, "Index", DT_INT32);
        values_.push_back({n->name(), DtypeOf(x)});
        return;
      }
    }
  }

  FuzzInput* in_;
  GraphDef graph_;
  std::vector<std::pair<std::string, Tensor>> feeds_;
  std::vector<Value> values_;
  std::vector<Value> switches_;  // Switch nodes, by name
  int aux_ = 0;
};

// Outputs as bytes: equal tensors (NaN payloads included), equal strings.
std::string Fingerprint(const std::vector<Tensor>& outputs) {
  std::string out;
  for (const Tensor& t : outputs) {
    TensorProto p;
    TensorToProto(t, &p, /*use_tensor_content=*/true);
    out += p.SerializeAsString();
    out += '\n';
  }
  return out;
}

struct RunResult {
  absl::StatusCode create_code;
  absl::StatusCode run_code;
  std::string fingerprint;
};

RunResult CreateAndRun(const std::string& graph_bytes, ConfigProto config,
                       const std::vector<std::pair<std::string, Tensor>>& feeds,
                       const std::vector<std::string>& fetches, bool count) {
  RunResult result{absl::StatusCode::kOk, absl::StatusCode::kOk, ""};
  absl::StatusOr<GraphDef> graph = ParseGraphDefBytes(graph_bytes, "fuzzed.pb");
  FUZZ_CHECK(graph.ok());
  SessionOptions options;
  options.config = std::move(config);
  absl::StatusOr<std::unique_ptr<Session>> session = Session::New(options);
  FUZZ_CHECK(session.ok());
  absl::Status created = (*session)->Create(*graph);
  result.create_code = created.code();
  if (!created.ok()) {
    FUZZ_CHECK(!created.message().empty());
    return result;
  }
  if (count) GlobalStats().created++;
  std::vector<Tensor> first;
  absl::Status run = (*session)->Run(feeds, fetches, {}, &first);
  if (count) GlobalStats().ran++;
  result.run_code = run.code();
  FUZZ_CHECK(run.code() != absl::StatusCode::kDeadlineExceeded);
  if (!run.ok()) FUZZ_CHECK(!run.message().empty());
  if (run.ok() && count) GlobalStats().ran_ok++;
  result.fingerprint = run.ok() ? Fingerprint(first) : "";
  // The same signature again: the same outcome, bit for bit.
  std::vector<Tensor> second;
  absl::Status again = (*session)->Run(feeds, fetches, {}, &second);
  FUZZ_CHECK(again.code() == run.code());
  if (again.ok()) FUZZ_CHECK(Fingerprint(second) == result.fingerprint);
  FUZZ_CHECK((*session)->Close().ok());
  return result;
}

}  // namespace
}  // namespace fuzz
}  // namespace rill

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rill;        // NOLINT: a fuzz entry point
  using namespace rill::fuzz;  // NOLINT
  GlobalStats().inputs++;
  FuzzInput in(data, size);
  ConfigProto config;
  (*config.mutable_device_count())["CPU"] = static_cast<int32_t>(in.IntInRange(1, 3));
  config.set_allow_soft_placement(in.IntInRange(0, 3) != 0);
  config.set_inter_op_parallelism_threads(static_cast<int32_t>(in.IntInRange(1, 2)));
  config.set_intra_op_parallelism_threads(1);
  config.set_operation_timeout_in_ms(5000);
  GraphProgram program(&in);
  program.Build();
  std::vector<std::string> fetches;
  const std::vector<Value>& values = program.values();
  if (!values.empty()) {
    fetches.push_back(values.back().name);
    if (values.size() > 1 && in.Bool()) fetches.push_back(values[in.Pick(values.size())].name);
  } else {
    fetches.push_back(program.graph().node(program.graph().node_size() - 1).name());
  }
  const std::string bytes = program.graph().SerializeAsString();
  if (std::getenv("RILL_FUZZ_DUMP") != nullptr) {  // to see what a crashing input builds
    std::string text;
    google::protobuf::TextFormat::PrintToString(program.graph(), &text);
    std::fprintf(stderr, "%s\nconfig: %s\nfetches: %s\n", text.c_str(),
                 config.ShortDebugString().c_str(), absl::StrJoin(fetches, ", ").c_str());
  }
  const RunResult optimized = CreateAndRun(bytes, config, program.feeds(), fetches, true);
  // The differential run doubles the cost of an input; it is done for a quarter of them (chosen
  // by the input's first byte, so a crash reproduces).
  if (size == 0 || (data[0] & 3) != 0) return 0;
  ConfigProto plain = config;
  plain.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(OptimizerOptions::L0);
  const RunResult unoptimized = CreateAndRun(bytes, plain, program.feeds(), fetches, false);
  FUZZ_CHECK(optimized.create_code == unoptimized.create_code);
  FUZZ_CHECK(optimized.run_code == unoptimized.run_code);
  FUZZ_CHECK(optimized.fingerprint == unoptimized.fingerprint);
  return 0;
}
