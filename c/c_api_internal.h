// The C API's objects behind the opaque pointers of include/tensorflow/c/, and the helpers the
// c/*.cc files share. Not installed; clients see only the C headers.
//
// Ownership: TF_Tensor holds a shared TensorStorage, so copies (TF_TensorMaybeMove, bitcasts,
// tensors kept by a run) share one block, released once by the last holder. A TF_Operation* is a
// rill::Node* of the TF_Graph's rill::Graph (nodes never move, so it stays valid as long as the
// graph). A TF_Graph is freed when it has been deleted and no TF_Session uses it.
#ifndef RILL_C_C_API_INTERNAL_H_
#define RILL_C_C_API_INTERNAL_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/mutex.h"
#include "core/tensor.h"
#include "google/protobuf/message_lite.h"
#include "graph/graph.h"
#include "proto/config.pb.h"
#include "proto/device_attributes.pb.h"
#include "proto/function.pb.h"
#include "proto/node_def.pb.h"
#include "session/session.h"
#include "tensorflow/c/c_api.h"

struct TF_Status {
  TF_Code code = TF_OK;
  std::string message;
};

namespace rill_c {

// The bytes of a tensor and how they are released. Exactly one of three kinds:
//   owned:    64-byte-aligned memory from TF_AllocateTensor, freed with free(); for TF_STRING
//             the TF_TString elements are deallocated one by one first;
//   external: the caller's memory from TF_NewTensor, released by calling its deallocator;
//   wrapped:  a rill::Tensor's buffer (a run's output), released with that tensor.
class TensorStorage {
 public:
  static std::shared_ptr<TensorStorage> Owned(size_t len, TF_DataType dtype, int64_t elements);
  static std::shared_ptr<TensorStorage> External(void* data, size_t len,
                                                 void (*deallocator)(void*, size_t, void*),
                                                 void* arg);
  static std::shared_ptr<TensorStorage> Wrapped(rill::Tensor tensor);
  ~TensorStorage();
  TensorStorage(const TensorStorage&) = delete;
  TensorStorage& operator=(const TensorStorage&) = delete;

  void* data() const { return data_; }
  size_t len() const { return len_; }
  bool owned() const { return kind_ == Kind::kOwned; }
  // Whether the bytes belong to this storage alone, so that a TF_Tensor holding it may be moved:
  // owned memory, or a run's output whose buffer nothing else holds (not a constant's or a
  // variable's). External memory is the caller's.
  bool Movable() const {
    return kind_ == Kind::kOwned || (kind_ == Kind::kWrapped && wrapped_.BufferHolders() == 1);
  }

 private:
  enum class Kind { kOwned, kExternal, kWrapped };
  TensorStorage() = default;
  Kind kind_ = Kind::kOwned;
  void* data_ = nullptr;
  size_t len_ = 0;
  int64_t owned_strings_ = 0;  // TF_TString elements to deallocate (owned TF_STRING tensors)
  void (*deallocator_)(void*, size_t, void*) = nullptr;
  void* deallocator_arg_ = nullptr;
  rill::Tensor wrapped_;
};

// The TF_AttrType of an op definition's attr kind ("int", "list(shape)", ...); the element
// kind of a list.
TF_AttrType KindToAttrType(const std::string& kind);

}  // namespace rill_c

struct TF_Tensor {
  TF_DataType dtype = TF_FLOAT;
  std::vector<int64_t> dims;
  std::shared_ptr<rill_c::TensorStorage> storage;
};

namespace rill_c {
// The state of one partial run: what its setup declared, and what was fed and fetched so far.
struct PartialRun {
  std::set<std::string> feeds, fetches, targets;
  std::set<std::string> fetched;
  std::vector<std::pair<std::string, rill::Tensor>> fed;
};
}  // namespace rill_c

struct TF_Graph {
  rill::Mutex mu;
  rill::Graph graph ABSL_GUARDED_BY(mu);
  int num_sessions ABSL_GUARDED_BY(mu) = 0;
  bool delete_requested ABSL_GUARDED_BY(mu) = false;
  // For the cond and body graphs of TF_NewWhile: the graph the loop goes into and its inputs.
  TF_Graph* while_parent = nullptr;
  std::vector<TF_Output> while_parent_inputs;
};

struct TF_SessionOptions {
  // TensorFlow's sessions run a fed value whatever the fed Placeholder's declared shape (its
  // Python client checks; programs on the C API feed a scalar to a [?] input): so do these.
  TF_SessionOptions() { options.check_feed_shapes = false; }

  rill::SessionOptions options;
  std::string target;
};

struct TF_Function {
  rill::FunctionDef fdef;
};

struct TF_DeviceList {
  std::vector<rill::DeviceAttributes> devices;
};

// A session over a TF_Graph (session.cc); partial runs in prun.cc.
struct TF_Session {
  std::unique_ptr<rill::Session> session;
  TF_Graph* graph = nullptr;
  rill::Mutex mu;
  // Node ids below this were given to `session`.
  int extended_ids ABSL_GUARDED_BY(mu) = 0;
  // Set by TF_CloseSession: what TF_SessionPRunSetup checks (TensorFlow's CheckNotClosed).
  bool closed ABSL_GUARDED_BY(mu) = false;
  // Partial runs by handle (prun.cc).
  rill::Mutex prun_mu;
  std::map<std::string, std::unique_ptr<rill_c::PartialRun>> partial_runs ABSL_GUARDED_BY(prun_mu);
  int64_t next_partial_run ABSL_GUARDED_BY(prun_mu) = 0;
};

namespace rill_c {

// OK for the targets Rill serves ("" and "local"); TensorFlow's NotFound otherwise.
absl::Status CheckTarget(const std::string& target);

// The op's shape function on `node` (operation_build.cc), from its producers' shapes.
absl::Status InferNodeShapes(rill::Node* node);

// Function calls and functional ops (functional_ops.cc). NumOutputs/OutputType give the outputs
// such an operation declares when it was built through the C API, else the graph's.
const rill::FunctionDef* FindFunction(const rill::Graph& g, const std::string& name);
bool IsFunctionalOp(const std::string& op);
absl::StatusOr<std::vector<rill::DataType>> FunctionalOutputTypes(const rill::Graph& g,
                                                                  const rill::NodeDef& def);
void RecordDeclaredOutputs(const rill::Node* node, std::vector<rill::DataType> types);
std::optional<std::vector<rill::DataType>> DeclaredOutputs(const rill::Node* node);
// Drops the records of `g`'s nodes (before `g` is freed).
void ForgetDeclaredOutputs(const rill::Graph& g);
int NumOutputs(const rill::Node* node);
rill::DataType OutputType(const rill::Node* node, int index);

// A FunctionDef from operations of `g` (graph_to_function.cc; the arguments are
// TF_GraphToFunctionWithControlOutputs's).
absl::StatusOr<rill::FunctionDef> GraphToFunctionDef(
    const rill::Graph& g, const char* fn_name, bool append_hash, int num_opers,
    const TF_Operation* const* opers, int ninputs, const TF_Output* inputs, int noutputs,
    const TF_Output* outputs, const char* const* output_names, int ncontrol_outputs,
    const TF_Operation* const* control_outputs, const char* const* control_output_names,
    const char* description);

// Partial runs (prun.cc). The first stateful operation that `roots` need given the fed tensor
// names, or null.
const rill::Node* FirstStatefulNeeded(const rill::Graph& g, const std::set<std::string>& feeds,
                                      const std::vector<const rill::Node*>& roots);
using PartialRunner = std::function<absl::Status(
    const std::vector<std::pair<std::string, rill::Tensor>>& feeds,
    const std::vector<std::string>& fetches, const std::vector<std::string>& targets,
    std::vector<rill::Tensor>* results)>;
// One step of `run` by tensor and operation names: TensorFlow's errors for feeds, fetches and
// targets the setup did not declare or that were already fed or fetched; then `runner` with every
// tensor fed so far. *done: everything declared was fetched.
absl::Status PartialRunStepNamed(
    PartialRun& run, const std::vector<std::pair<std::string, const TF_Tensor*>>& inputs,
    const std::vector<std::string>& fetches, const std::vector<std::string>& targets,
    const PartialRunner& runner, std::vector<rill::Tensor>* results, bool* done);
// A malloc'd copy (partial-run handles, freed by TF_DeletePRunHandle).
char* CopyString(const std::string& s);

// Adds `nodes` (whose inputs name nodes of the graph or of `nodes`) to the graph, checked as
// TF_GraphImportGraphDef checks an import; on error the graph is unchanged (graph_import.cc).
absl::Status ImportNodesLocked(TF_Graph* graph, const rill::GraphDef& nodes)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(graph->mu);

// Extends the session with the graph's new operations, then runs it.
absl::Status RunNamed(TF_Session* s, const rill::RunOptions& options,
                      const std::vector<std::pair<std::string, rill::Tensor>>& feeds,
                      const std::vector<std::string>& fetches,
                      const std::vector<std::string>& targets, std::vector<rill::Tensor>* outputs,
                      rill::RunMetadata* metadata);

// Sets `status` (ignored when null) from an absl::Status; codes are numbered alike.
void SetStatus(TF_Status* status, const absl::Status& s);
void SetOk(TF_Status* status);
inline absl::Status InvalidArgument(absl::string_view message) {
  return absl::InvalidArgumentError(message);
}

// TF_Operation* <-> rill::Node*.
inline rill::Node* ToNode(TF_Operation* op) { return reinterpret_cast<rill::Node*>(op); }
inline const rill::Node* ToNode(const TF_Operation* op) {
  return reinterpret_cast<const rill::Node*>(op);
}
inline TF_Operation* ToOperation(const rill::Node* node) {
  return reinterpret_cast<TF_Operation*>(const_cast<rill::Node*>(node));
}

// "name:index", the tensor name of an output.
std::string OutputName(TF_Output output);

// Whether a caller's `length` can describe bytes in memory: no object is larger than PTRDIFF_MAX
// bytes, so a longer length is a negative count converted to size_t (-1 arrives as SIZE_MAX).
inline bool IsObjectLength(size_t length) {
  return length <= static_cast<size_t>(std::numeric_limits<std::ptrdiff_t>::max());
}
// InvalidArgument for a length IsObjectLength refuses, naming the argument.
inline absl::Status ObjectLengthError(absl::string_view argument, size_t length) {
  return absl::InvalidArgumentError(
      absl::StrCat(argument, " is ", length,
                   ", larger than any object (a negative length converted to size_t?); pass the "
                   "number of bytes"));
}

// Parses a caller's `length` bytes at `data` into `message`. False for null data with a length,
// a length past int (protobuf's limit: narrowed to int it would parse a prefix, or a negative
// size would fail protobuf's CHECK) and bytes that do not parse; null data with length 0 is the
// empty message.
bool ParseFromBytes(const void* data, size_t length, google::protobuf::MessageLite* message);

// Fills `buffer` with a copy of `bytes` (freeing what it held through its deallocator).
void SetBufferBytes(TF_Buffer* buffer, const std::string& bytes);
// Serializes `message` into `buffer`; InvalidArgument when `buffer` is null.
template <typename Proto>
absl::Status SerializeToBuffer(const Proto& message, TF_Buffer* buffer) {
  if (buffer == nullptr) return absl::InvalidArgumentError("The output buffer is null");
  std::string bytes;
  if (!message.SerializeToString(&bytes)) {
    return absl::InternalError("Failed to serialize the message");
  }
  SetBufferBytes(buffer, bytes);
  return absl::OkStatus();
}

// Tensors across the boundary. ToRillTensor copies the bytes (strings: decodes each TF_TString);
// InvalidArgument for a byte size that does not match the shape, a negative dim or a type Rill
// cannot hold. FromRillTensor shares a numeric tensor's buffer and copies strings into an owned
// TF_TString array.
absl::StatusOr<rill::Tensor> ToRillTensor(const TF_Tensor* tensor);
TF_Tensor* FromRillTensor(const rill::Tensor& tensor);

// Releases the graph if it was deleted and no session holds it. Takes g->mu.
void MaybeFreeGraph(TF_Graph* g);

// The graph as TF_GraphToGraphDef and TF_GraphDebugString give it: TensorFlow's versions of a
// graph made by the C API (producer 2474, TF_GRAPH_DEF_VERSION) unless an import set others,
// and a library, empty or not, as TensorFlow's Graph::ToGraphDef always writes one.
rill::GraphDef ExportedGraphDef(TF_Graph* graph);
rill::VersionDef GraphVersions(const rill::Graph& graph);

}  // namespace rill_c

#endif  // RILL_C_C_API_INTERNAL_H_
