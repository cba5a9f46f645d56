// OpKernel: the code that runs one node on one device. A kernel is built once per node per
// partition (its constructor reads and validates attrs through OpKernelConstruction, reporting
// errors with ctx.SetStatus), is stateless across runs, and computes from an OpKernelContext.
//
//   class IdentityOp final : public OpKernel {
//    public:
//     explicit IdentityOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
//     absl::Status Compute(OpKernelContext& ctx) const override {
//       ctx.set_output(0, ctx.input(0));
//       return absl::OkStatus();
//     }
//     bool IsExpensive() const override { return false; }
//   };
//   REGISTER_KERNEL(KernelDefBuilder("Identity").Device(kDeviceCpu), IdentityOp);
//
// Compute may run concurrently for different steps: kernels must be thread-safe (const). Async
// kernels (_Recv) derive from AsyncOpKernel and call `done` exactly once.
#ifndef RILL_KERNELS_FRAMEWORK_OP_KERNEL_H_
#define RILL_KERNELS_FRAMEWORK_OP_KERNEL_H_

#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/cancellation.h"
#include "core/device.h"
#include "core/mutex.h"
#include "core/openmp_parallel_for.h"
#include "core/rendezvous.h"
#include "core/tensor.h"
#include "core/thread_pool.h"
#include "ops/attr_value_util.h"
#include "ops/node_def_util.h"
#include "proto/node_def.pb.h"
#include "proto/op_def.pb.h"

namespace rill {

// A value flowing along an edge: a tensor, or for ref edges (TF1 variables) a pointer to the
// variable's tensor and the mutex that guards it.
struct TensorValue {
  // User-provided, so TensorValue() and vectors of them do not zero all 112 bytes before the
  // members' own initializers run (a `rep stos` per kernel output).
  TensorValue() {}
  TensorValue(Tensor t, Tensor* r, rill::SharedMutex* mu)
      : tensor(std::move(t)), ref(r), ref_mu(mu) {}
  Tensor tensor;
  Tensor* ref = nullptr;                // Not owned; lives in a variable resource.
  rill::SharedMutex* ref_mu = nullptr;  // Not owned.
  bool is_ref() const { return ref != nullptr; }
  // The tensor itself, reading through a ref (a cheap handle copy that shares the buffer).
  Tensor Get() const;
};

// A node's inputs or outputs: inline for the usual few, so running a node allocates nothing.
using TensorValueVector = absl::InlinedVector<TensorValue, 4>;

class OpKernelConstruction {
 public:
  // All pointers are borrowed and must outlive the construction.
  OpKernelConstruction(const NodeDef* node, const OpDef* op_def, Device* device,
                       DataTypeVector input_types, DataTypeVector output_types)
      : node_(node),
        op_def_(op_def),
        device_(device),
        input_types_(std::move(input_types)),
        output_types_(std::move(output_types)) {}

  const NodeDef& def() const { return *node_; }
  const OpDef& op_def() const { return *op_def_; }
  Device* device() const { return device_; }
  const DataTypeVector& input_types() const { return input_types_; }
  const DataTypeVector& output_types() const { return output_types_; }

  template <typename T>
  absl::Status GetAttr(absl::string_view name, T* value) const {
    return GetNodeAttr(*node_, name, value);
  }
  // Records the first construction error; the kernel factory then fails with it.
  void SetStatus(const absl::Status& s) {
    if (status_.ok()) status_ = s;
  }
  const absl::Status& status() const { return status_; }

 private:
  const NodeDef* node_;
  const OpDef* op_def_;
  Device* device_;
  DataTypeVector input_types_, output_types_;
  absl::Status status_;
};

class OpKernel;

// Where _Arg kernels read feeds and _Retval kernels leave fetches for one step. Owned by the
// caller of the executor (the Session's run). Thread-safe.
class CallFrame {
 public:
  virtual ~CallFrame() = default;
  // InvalidArgument when `index` is out of range or the argument was not supplied.
  virtual absl::StatusOr<Tensor> GetArg(int index) const = 0;
  // InvalidArgument when `index` is out of range or was already set in this step.
  virtual absl::Status SetRetval(int index, const Tensor& value) = 0;
};

// Everything one Compute call sees. Created by the executor per node execution.
class OpKernelContext {
 public:
  struct Params {
    Device* device = nullptr;  // Not owned.
    int64_t step_id = 0;
    Rendezvous* rendezvous = nullptr;             // Not owned; the step's.
    CancellationManager* cancellation = nullptr;  // Not owned; the step's.
    const OpKernel* kernel = nullptr;             // Not owned.
    absl::Span<const TensorValue> inputs;         // Not owned.
    CallFrame* call_frame = nullptr;              // Not owned; feeds and fetches.
    // Not owned; resources that live for one step (TensorArrays), shared by its partitions and
    // dropped when the step ends. May be null (then kernels that need it fail with Internal).
    ResourceMgr* step_resources = nullptr;
    bool is_input_dead = false;  // TF1 control flow deadness
    // Threads one kernel may use (intra_op_parallelism_threads, counting the thread running
    // it): ParallelFor, Gemm and oneDNN run on an OpenMP team of that size; 1 = inline.
    int intra_op_threads = 1;
    // Not owned; null when every output lives in device memory. Entry i true: output i lives in
    // host memory although the device is not the CPU (a GPU kernel's HostMemory outputs,
    // strings, resources); allocate_output takes it from the host allocator.
    const std::vector<bool>* host_outputs = nullptr;
  };

  // Ref inputs (variables) are read once here, under their lock, so input() can hand out
  // references for the whole Compute. `params` is borrowed, not copied (the executor builds it
  // on its stack per node): it must outlive the context.
  OpKernelContext(const Params* params, int num_outputs);

  Device* device() const { return params_->device; }
  int64_t step_id() const { return params_->step_id; }
  Rendezvous* rendezvous() const { return params_->rendezvous; }
  CancellationManager* cancellation() const { return params_->cancellation; }
  const OpKernel& kernel() const { return *params_->kernel; }
  bool is_input_dead() const { return params_->is_input_dead; }
  CallFrame* call_frame() const { return params_->call_frame; }
  ResourceMgr* step_resources() const { return params_->step_resources; }
  // Threads a kernel may use inside one Compute, the thread running it included (1: inline).
  int intra_op_threads() const { return params_->intra_op_threads; }
  // Splits [0, total) over intra_op_threads() threads: the calling thread and an OpenMP team's
  // workers (core/openmp_parallel_for.h: the team oneDNN's convolutions and Gemm's blocks run on,
  // so a MaxPool after a convolution finds its workers spinning instead of waking a second set).
  // Small totals, or one intra-op thread, run fn(0, total) inline. Blocks until every block is
  // done.
  // Work estimated below this many cycles runs on the calling thread alone: waking an OpenMP
  // worker costs microseconds, more when another inter-op thread has the other cores (a
  // recurrent step's [16,256] Sigmoid took 28 us split in two and 2.7 us whole).
  static constexpr int64_t kMinOpenMpSplitCost = 100000;
  template <typename Fn>
  void ParallelFor(int64_t total, int64_t cost_per_unit, Fn&& fn) const {
    if (total <= 0) return;
    if (params_->intra_op_threads <= 1 ||
        total * std::max<int64_t>(cost_per_unit, 1) <= kMinOpenMpSplitCost) {
      fn(int64_t{0}, total);  // small work: no std::function, no allocation
      return;
    }
    OpenMpParallelFor(intra_op_threads(), total, cost_per_unit, fn);
  }

  int num_inputs() const { return static_cast<int>(params_->inputs.size()); }
  // The input tensor; for a ref input, the variable's value when the context was made. Valid
  // while the context lives.
  const Tensor& input(int i) const {
    const TensorValue& v = params_->inputs[i];
    return v.ref == nullptr ? v.tensor : ref_values_[i];
  }
  const TensorValue& input_value(int i) const { return params_->inputs[i]; }
  // False for a dead input (TF1 control flow): only Merge and the transfer ops see those.
  bool has_input(int i) const {
    const TensorValue& v = params_->inputs[i];
    return v.is_ref() || v.tensor.IsInitialized();
  }

  int num_outputs() const { return static_cast<int>(outputs_.size()); }
  // Allocates output `i` from the device's allocator. ResourceExhausted names the node, shape,
  // dtype and allocator (with its stats). Numeric elements are uninitialized (as in TensorFlow;
  // 0xA5 bytes in builds without NDEBUG): the kernel must write every one.
  absl::StatusOr<Tensor*> allocate_output(int i, const TensorShape& shape);
  // Output `o` takes over the buffer of the first input in `candidates` that nothing else holds
  // (not a ref, same dtype as the output, `shape`'s element count, from this device's allocator),
  // as TensorFlow's forward_input_or_allocate_output; otherwise allocate_output. For kernels
  // that compute out[k] from in[k] alone (elementwise ops), which then write in place: a chain
  // of such ops allocates nothing. The forwarded input stays readable through input().
  absl::StatusOr<Tensor*> forward_input_or_allocate_output(std::initializer_list<int> candidates,
                                                           int o, const TensorShape& shape);
  // Allocates a scratch tensor (not an output) from the device's allocator; uninitialized as
  // allocate_output.
  absl::StatusOr<Tensor> allocate_temp(DataType dtype, const TensorShape& shape);
  void set_output(int i, Tensor t) { outputs_[i].tensor = std::move(t); }
  void set_output_ref(int i, rill::SharedMutex* mu, Tensor* ref) {
    outputs_[i].ref = ref;
    outputs_[i].ref_mu = mu;
  }
  // Passes a ref input through to a ref output (Assign's output_ref).
  void forward_ref_input_to_ref_output(int input, int output) {
    outputs_[output].ref = params_->inputs[input].ref;
    outputs_[output].ref_mu = params_->inputs[input].ref_mu;
  }
  TensorValueVector& outputs() { return outputs_; }

 private:
  bool OutputInHostMemory(int o) const {
    const std::vector<bool>* host = params_->host_outputs;
    return host != nullptr && o < static_cast<int>(host->size()) && (*host)[o];
  }

  const Params* const params_;  // Not owned.
  TensorValueVector outputs_;
  std::vector<Tensor> ref_values_;  // by input index, for ref inputs only (else empty)
};

class OpKernel {
 public:
  explicit OpKernel(OpKernelConstruction& ctx);
  virtual ~OpKernel() = default;
  OpKernel(const OpKernel&) = delete;
  OpKernel& operator=(const OpKernel&) = delete;

  // Runs the node once. The returned error fails the step; the executor prefixes nothing, so
  // messages should name what went wrong (the executor adds the node name).
  virtual absl::Status Compute(OpKernelContext& ctx) const = 0;
  // Cheap kernels run inline on the executor's thread; expensive ones go to the inter-op pool.
  virtual bool IsExpensive() const { return true; }
  virtual bool IsAsync() const { return false; }

  const std::string& name() const { return def_.name(); }
  const std::string& type_string() const { return def_.op(); }
  const NodeDef& def() const { return def_; }
  const DataTypeVector& input_types() const { return input_types_; }
  const DataTypeVector& output_types() const { return output_types_; }
  DataType input_type(int i) const { return input_types_[i]; }
  DataType output_type(int i) const { return output_types_[i]; }

 private:
  const NodeDef def_;
  const DataTypeVector input_types_;
  const DataTypeVector output_types_;
};

// A kernel that finishes later: ComputeAsync must call `done` exactly once (with the status).
class AsyncOpKernel : public OpKernel {
 public:
  using DoneCallback = std::function<void(absl::Status)>;
  explicit AsyncOpKernel(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  virtual void ComputeAsync(OpKernelContext& ctx, DoneCallback done) const = 0;
  absl::Status Compute(OpKernelContext&) const final {
    return absl::InternalError("AsyncOpKernel::Compute called; use ComputeAsync");
  }
  bool IsAsync() const final { return true; }
};

}  // namespace rill

#endif  // RILL_KERNELS_FRAMEWORK_OP_KERNEL_H_
