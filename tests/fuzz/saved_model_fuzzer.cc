// Fuzz target: loading a SavedModel (session/saved_model_loader.h) and running its signature, as
// session_runner --saved_model_dir does. The input is a program of edits to a small TF1 SavedModel
// (x -> MatMul(w) + b -> Softmax, a Saver's RestoreV2 and an init op): the restore's tensor names,
// shape_and_slices specs and dtypes, the variables' shapes and dtypes, the SaverDef's op and tensor
// names, the init op, tags and meta graph count, what the checkpoint holds (shapes, dtypes, missing
// or extra keys), bytes cut from or changed in its files and in saved_model.pb, and the feed's
// shape. Loading either fails with a status that has a message or gives a session whose runs end
// with a status; nothing may crash, leak or hang.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "core/io/tensor_bundle.h"
#include "core/tensor.h"
#include "google/protobuf/stubs/logging.h"
#include "google/protobuf/text_format.h"
#include "proto/saved_model.pb.h"
#include "session/saved_model_loader.h"
#include "session/session.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_input.h"

namespace {

using rill::fuzz::FuzzInput;

constexpr char kGraph[] = R"pb(
  node {
    name: "x"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "shape"
      value {
        shape {
          dim { size: -1 }
          dim { size: 4 }
        }
      }
    }
  }
  node {
    name: "w"
    op: "VariableV2"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "shape"
      value {
        shape {
          dim { size: 4 }
          dim { size: 2 }
        }
      }
    }
  }
  node {
    name: "b"
    op: "VariableV2"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "shape"
      value { shape { dim { size: 2 } } }
    }
  }
  node {
    name: "w/init"
    op: "Const"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "value"
      value {
        tensor {
          dtype: DT_FLOAT
          tensor_shape {
            dim { size: 4 }
            dim { size: 2 }
          }
          float_val: 0.5
        }
      }
    }
  }
  node {
    name: "b/init"
    op: "Const"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "value"
      value {
        tensor {
          dtype: DT_FLOAT
          tensor_shape { dim { size: 2 } }
          float_val: 0.25
        }
      }
    }
  }
  node {
    name: "w/Assign"
    op: "Assign"
    input: "w"
    input: "w/init"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "b/Assign"
    op: "Assign"
    input: "b"
    input: "b/init"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "w/read"
    op: "Identity"
    input: "w"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "b/read"
    op: "Identity"
    input: "b"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "MatMul"
    op: "MatMul"
    input: "x"
    input: "w/read"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "add"
    op: "AddV2"
    input: "MatMul"
    input: "b/read"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "probs"
    op: "Softmax"
    input: "add"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node { name: "init" op: "NoOp" input: "^w/Assign" input: "^b/Assign" }
  node {
    name: "save/filename/input"
    op: "Const"
    attr {
      key: "dtype"
      value { type: DT_STRING }
    }
    attr {
      key: "value"
      value {
        tensor {
          dtype: DT_STRING
          tensor_shape {}
          string_val: "model"
        }
      }
    }
  }
  node {
    name: "save/Const"
    op: "PlaceholderWithDefault"
    input: "save/filename/input"
    attr {
      key: "dtype"
      value { type: DT_STRING }
    }
    attr {
      key: "shape"
      value { shape {} }
    }
  }
  node {
    name: "save/RestoreV2/tensor_names"
    op: "Const"
    attr {
      key: "dtype"
      value { type: DT_STRING }
    }
    attr {
      key: "value"
      value {
        tensor {
          dtype: DT_STRING
          tensor_shape { dim { size: 2 } }
          string_val: "b"
          string_val: "w"
        }
      }
    }
  }
  node {
    name: "save/RestoreV2/shape_and_slices"
    op: "Const"
    attr {
      key: "dtype"
      value { type: DT_STRING }
    }
    attr {
      key: "value"
      value {
        tensor {
          dtype: DT_STRING
          tensor_shape { dim { size: 2 } }
          string_val: ""
          string_val: ""
        }
      }
    }
  }
  node {
    name: "save/RestoreV2"
    op: "RestoreV2"
    input: "save/Const"
    input: "save/RestoreV2/tensor_names"
    input: "save/RestoreV2/shape_and_slices"
    attr {
      key: "dtypes"
      value { list { type: DT_FLOAT type: DT_FLOAT } }
    }
  }
  node {
    name: "save/Assign"
    op: "Assign"
    input: "b"
    input: "save/RestoreV2"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "save/Assign_1"
    op: "Assign"
    input: "w"
    input: "save/RestoreV2:1"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node { name: "save/restore_all" op: "NoOp" input: "^save/Assign" input: "^save/Assign_1" }
)pb";

constexpr const char* kNames[] = {"b", "w", "", "missing", "x", "w/read", "b\x01", "save/Const"};
constexpr const char* kSlices[] = {
    "",           "2 0,2",     "4 2 -:-", "4 2 0,4:0,2", "4 2 0,5:-", "-1 2 -:-",
    "4 -:-",      "1 2 3",     "garbage", "2 -1,2",      "4 2 3,2:-", "9223372036854775807 2 -:-",
    "4 2 0,-1:-", "4 2 -:-:-", " ",       "4 2 1,3:1,1"};
constexpr const char* kTensorNames[] = {"save/Const:0", "save/restore_all", "x:0",         "",
                                        "nope",         "save/Const:7",     "^save/Const", "init",
                                        "probs:0",      "save/RestoreV2:1", ":0",          "w"};
constexpr const char* kTags[] = {"serve", "train", "", "serve,gpu"};
constexpr int64_t kDims[] = {
    0, 1, 2, 4, -1, -2, 3, int64_t{1} << 40, std::numeric_limits<int64_t>::max()};
constexpr rill::DataType kTypes[] = {rill::DT_FLOAT,    rill::DT_INT32,  rill::DT_STRING,
                                     rill::DT_DOUBLE,   rill::DT_BOOL,   rill::DT_HALF,
                                     rill::DT_RESOURCE, rill::DT_INVALID};

template <typename T, size_t N>
const T& PickFrom(FuzzInput& in, const T (&items)[N]) {
  return items[in.Pick(N)];
}

rill::NodeDef* Node(rill::GraphDef& g, const std::string& name) {
  for (rill::NodeDef& n : *g.mutable_node()) {
    if (n.name() == name) return &n;
  }
  return nullptr;
}

void FuzzShape(FuzzInput& in, rill::TensorShapeProto* shape) {
  shape->Clear();
  const int rank = static_cast<int>(in.IntInRange(-1, 3));
  if (rank < 0) {
    shape->set_unknown_rank(true);
    return;
  }
  for (int i = 0; i < rank; ++i) shape->add_dim()->set_size(PickFrom(in, kDims));
}

// A tensor for the checkpoint: any of a few dtypes and small shapes.
rill::Tensor CheckpointTensor(FuzzInput& in, const rill::TensorShape& usual) {
  rill::TensorShape shape = usual;
  if (in.Bool()) {
    std::vector<int64_t> dims(in.IntInRange(0, 3));
    for (int64_t& d : dims) d = in.IntInRange(0, 4);
    shape = *rill::TensorShape::FromDims(dims);
  }
  switch (in.Pick(4)) {
    case 0:
      return rill::Tensor(rill::DT_INT32, shape);
    case 1:
      return rill::Tensor(rill::DT_STRING, shape);
    case 2:
      return rill::Tensor(rill::DT_DOUBLE, shape);
    default:
      return rill::Tensor(rill::DT_FLOAT, shape);
  }
}

const std::filesystem::path& Dir() {
  static const std::filesystem::path* dir =
      new std::filesystem::path(std::filesystem::temp_directory_path() /
                                ("rill_saved_model_fuzz_" + std::to_string(getpid())));
  return *dir;
}

void WriteFile(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Cuts `bytes` short or changes one of its bytes, as the input says.
void Damage(FuzzInput& in, std::string* bytes) {
  if (bytes->empty()) return;
  const size_t at = static_cast<size_t>(in.IntInRange(0, static_cast<int64_t>(bytes->size()) - 1));
  if (in.Bool()) {
    bytes->resize(at);
  } else {
    (*bytes)[at] = static_cast<char>(in.Byte());
  }
}

void CheckStatus(const absl::Status& s) {
  if (!s.ok()) FUZZ_CHECK(!s.message().empty());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  google::protobuf::LogSilencer quiet;  // protobuf's parse-error log lines are expected here
  FuzzInput in(data, size);
  rill::SavedModel saved;
  rill::MetaGraphDef& meta = *saved.add_meta_graphs();
  FUZZ_CHECK(google::protobuf::TextFormat::ParseFromString(kGraph, meta.mutable_graph_def()));
  meta.mutable_meta_info_def()->add_tags("serve");
  rill::SaverDef& saver = *meta.mutable_saver_def();
  saver.set_filename_tensor_name("save/Const:0");
  saver.set_restore_op_name("save/restore_all");
  (*meta.mutable_collection_def())["legacy_init_op"].mutable_node_list()->add_value("init");
  rill::SignatureDef& sig = (*meta.mutable_signature_def())["serving_default"];
  (*sig.mutable_inputs())["x"].set_name("x:0");
  (*sig.mutable_outputs())["probs"].set_name("probs:0");
  rill::GraphDef& graph = *meta.mutable_graph_def();

  bool damage_pb = false, damage_index = false, damage_data = false, no_variables = false;
  std::vector<std::pair<std::string, rill::Tensor>> checkpoint = {
      {"b", rill::Tensor(rill::DT_FLOAT, rill::TensorShape({2}))},
      {"w", rill::Tensor(rill::DT_FLOAT, rill::TensorShape({4, 2}))}};
  rill::TensorShape feed_shape({3, 4});
  const int edits = static_cast<int>(in.IntInRange(0, 6));
  for (int e = 0; e < edits; ++e) {
    switch (in.Pick(14)) {
      case 0: {  // the restore's tensor names (count may differ from dtypes)
        rill::TensorProto* t =
            (*Node(graph, "save/RestoreV2/tensor_names")->mutable_attr())["value"].mutable_tensor();
        t->clear_string_val();
        const int n = static_cast<int>(in.IntInRange(0, 3));
        for (int i = 0; i < n; ++i) t->add_string_val(PickFrom(in, kNames));
        t->mutable_tensor_shape()->mutable_dim(0)->set_size(in.Bool() ? n : 2);
        break;
      }
      case 1: {  // shape_and_slices specs
        rill::TensorProto* t =
            (*Node(graph, "save/RestoreV2/shape_and_slices")->mutable_attr())["value"]
                .mutable_tensor();
        const std::string fuzzed = in.Bytes(12);
        t->set_string_val(static_cast<int>(in.Pick(2)),
                          in.Bool() ? std::string(PickFrom(in, kSlices)) : fuzzed);
        break;
      }
      case 2: {  // RestoreV2's dtypes
        rill::AttrValue::ListValue* list =
            (*Node(graph, "save/RestoreV2")->mutable_attr())["dtypes"].mutable_list();
        list->clear_type();
        const int n = static_cast<int>(in.IntInRange(0, 3));
        for (int i = 0; i < n; ++i) list->add_type(PickFrom(in, kTypes));
        break;
      }
      case 3:  // a variable's shape
        FuzzShape(in,
                  (*Node(graph, in.Bool() ? "w" : "b")->mutable_attr())["shape"].mutable_shape());
        break;
      case 4:  // a variable's dtype
        (*Node(graph, in.Bool() ? "w" : "b")->mutable_attr())["dtype"].set_type(
            PickFrom(in, kTypes));
        break;
      case 5:
        saver.set_restore_op_name(PickFrom(in, kTensorNames));
        break;
      case 6:
        saver.set_filename_tensor_name(PickFrom(in, kTensorNames));
        break;
      case 7:  // the init op, from the collection or the signature TF2 uses
        if (in.Bool()) {
          rill::CollectionDef::NodeList* list =
              (*meta.mutable_collection_def())[in.Bool() ? "legacy_init_op" : "saved_model_main_op"]
                  .mutable_node_list();
          list->clear_value();
          list->add_value(PickFrom(in, kTensorNames));
        } else {
          (*(*meta.mutable_signature_def())["__saved_model_init_op"]
                .mutable_outputs())["__saved_model_init_op"]
              .set_name(PickFrom(in, kTensorNames));
        }
        break;
      case 8:  // tags and meta graph count
        if (in.Bool()) {
          meta.mutable_meta_info_def()->set_tags(0, PickFrom(in, kTags));
        } else if (in.Bool()) {
          *saved.add_meta_graphs() = meta;
        } else {
          saved.clear_meta_graphs();
          e = edits;  // `meta` and the refs into it are gone
        }
        break;
      case 9: {  // what the checkpoint holds
        const size_t k = in.Pick(checkpoint.size() + 1);
        if (k == checkpoint.size()) {
          checkpoint.emplace_back(PickFrom(in, kNames), CheckpointTensor(in, rill::TensorShape()));
        } else if (in.Bool()) {
          checkpoint[k].second = CheckpointTensor(in, checkpoint[k].second.shape());
        } else {
          checkpoint.erase(checkpoint.begin() + k);
        }
        break;
      }
      case 10:
        damage_pb = true;
        break;
      case 11:
        (in.Bool() ? damage_index : damage_data) = true;
        break;
      case 12:
        no_variables = true;
        break;
      case 13: {
        std::vector<int64_t> dims(in.IntInRange(0, 3));
        for (int64_t& d : dims) d = in.IntInRange(0, 5);
        feed_shape = *rill::TensorShape::FromDims(dims);
        break;
      }
    }
  }

  const std::filesystem::path& dir = Dir();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "variables");
  std::string pb;
  FUZZ_CHECK(saved.SerializeToString(&pb));
  if (damage_pb) Damage(in, &pb);
  WriteFile(dir / "saved_model.pb", pb);
  if (!no_variables) {
    const std::string prefix = (dir / "variables" / "variables").string();
    rill::BundleWriter writer(prefix);
    for (const auto& [key, tensor] : checkpoint) (void)writer.Add(key, tensor);
    FUZZ_CHECK(writer.Finish().ok());
    for (const auto& [damage, path] :
         {std::make_pair(damage_index, rill::BundleIndexFilename(prefix)),
          std::make_pair(damage_data, rill::BundleDataFilename(prefix, 0, 1))}) {
      if (!damage) continue;
      std::string bytes = ReadFile(path);
      Damage(in, &bytes);
      WriteFile(path, bytes);
    }
  }

  rill::SessionOptions options;
  options.config.set_operation_timeout_in_ms(10000);
  absl::StatusOr<rill::LoadedSavedModel> model = rill::LoadSavedModel(options, dir.string());
  if (!model.ok()) {
    CheckStatus(model.status());
    return 0;
  }
  absl::StatusOr<rill::SignatureDef> signature = model->Signature("serving_default");
  if (!signature.ok()) {
    CheckStatus(signature.status());
    return 0;
  }
  std::vector<std::pair<std::string, rill::Tensor>> feeds;
  for (const auto& [key, info] : signature->inputs()) {
    feeds.emplace_back(info.name(), rill::Tensor(rill::DT_FLOAT, feed_shape));
  }
  std::vector<std::string> fetches;
  for (const auto& [key, info] : signature->outputs()) fetches.push_back(info.name());
  std::vector<rill::Tensor> out;
  absl::Status s = model->session->Run(feeds, fetches, {}, &out);
  CheckStatus(s);
  FUZZ_CHECK(s.code() != absl::StatusCode::kDeadlineExceeded);
  if (s.ok()) FUZZ_CHECK(out.size() == fetches.size());
  CheckStatus(model->session->Close());
  return 0;
}
