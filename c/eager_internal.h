// The eager API's objects behind the opaque pointers of tensorflow/c/eager/c_api.h. Shared by
// eager_context.cc (options, contexts, tensor handles, functions) and eager_execute.cc
// (operations and TFE_Execute). Not installed.
//
// A context keeps, for each signature of an executed operation (its name, attributes, input types
// and list lengths, device), an EagerKernel: a graph of one Placeholder per input and the
// operation, and a session over it. A tensor handle is a TF_Tensor sharing its buffer.
#ifndef RILL_C_EAGER_INTERNAL_H_
#define RILL_C_EAGER_INTERNAL_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "c/c_api_internal.h"
#include "core/mutex.h"
#include "proto/function.pb.h"
#include "proto/op_def.pb.h"
#include "tensorflow/c/eager/c_api.h"

struct TFE_ContextOptions {
  TF_SessionOptions session_options;
  TFE_ContextDevicePlacementPolicy policy = TFE_DEVICE_PLACEMENT_SILENT;
};

namespace rill_c {

// The CPU device every handle lives on.
extern const char kEagerCpuDevice[];

// A built one-operation graph and the session that runs it. Immutable once built; runs may come
// from several threads at once.
class EagerKernel {
 public:
  EagerKernel() = default;
  ~EagerKernel();
  EagerKernel(const EagerKernel&) = delete;
  EagerKernel& operator=(const EagerKernel&) = delete;

  TF_Graph* graph = nullptr;
  TF_Session* session = nullptr;
  std::vector<TF_Output> inputs;   // the Placeholders, one per flat input
  std::vector<TF_Output> outputs;  // the operation's outputs
  TF_Operation* operation = nullptr;
};

}  // namespace rill_c

struct TFE_Context {
  TF_SessionOptions session_options;
  // Set and read from any thread (TFE_ContextSetThreadLocalDevicePlacementPolicy).
  std::atomic<TFE_ContextDevicePlacementPolicy> policy{TFE_DEVICE_PLACEMENT_SILENT};
  std::vector<rill::DeviceAttributes> devices;
  rill::Mutex mu;
  std::map<std::string, std::shared_ptr<rill_c::EagerKernel>> kernels ABSL_GUARDED_BY(mu);
  // Library functions by name (TFE_ContextAddFunction), copied into each kernel's graph.
  std::map<std::string, rill::FunctionDef> functions ABSL_GUARDED_BY(mu);
  // Bumped by each change of `functions`: a kernel built against an older set of functions is
  // not kept (it was built outside the lock, and the change cleared `kernels` meanwhile).
  uint64_t functions_generation ABSL_GUARDED_BY(mu) = 0;
};

struct TFE_TensorHandle {
  TF_Tensor tensor;
};

struct TFE_Op {
  // An attribute as set: `key` identifies its value in a signature, `apply` sets it on the
  // operation being built. int_value and list_length serve to count a list input given as
  // single inputs (its number_attr, its type_list_attr).
  struct Attr {
    std::string key;
    std::function<void(TF_OperationDescription*)> apply;
    int64_t int_value = -1;
    int list_length = -1;
  };
  // A run of inputs as added: one TFE_OpAddInput (is_list false, count 1) or one
  // TFE_OpAddInputList.
  struct InputGroup {
    bool is_list = false;
    int count = 0;
  };

  TFE_Context* ctx = nullptr;
  std::string name;
  rill::OpDef def;
  // The next argument of `def` that inputs as added correspond to, while they do (attributes are
  // inferred from them).
  int next_arg = 0;
  bool inferring = true;
  std::string device;
  std::vector<std::unique_ptr<TFE_TensorHandle>> inputs;  // copies sharing the callers' buffers
  std::vector<InputGroup> groups;
  std::map<std::string, Attr> attrs;
  // The first error of a setter without a status (TFE_OpSetAttrTensor of a bad tensor ...),
  // reported by TFE_Execute.
  absl::Status deferred;
};

namespace rill_c {

// The op definition of `name`: a registered op's or a library function's signature of `ctx`.
// NotFound with TensorFlow's "Op type not registered" text otherwise.
absl::StatusOr<rill::OpDef> EagerOpDef(TFE_Context* ctx, const std::string& name);

}  // namespace rill_c

#endif  // RILL_C_EAGER_INTERNAL_H_
