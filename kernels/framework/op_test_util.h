// OpTester: runs one kernel on a CPU device the way the executor would, for kernel unit tests (in
// the spirit of TensorFlow's OpsTestBase). It builds the NodeDef (attr defaults filled from the
// op registry, then validated), creates the kernel through the global KernelRegistry, feeds input
// tensors (or refs), runs Compute (or ComputeAsync and waits) and returns the outputs.
//
//   OpTester t("MatMul");
//   t.Attr("T", DT_FLOAT).Attr("transpose_b", true);
//   t.Input(Tensor::FromVector<float>({1, 2, 3, 4}, TensorShape({2, 2})));
//   t.Input(Tensor::FromVector<float>({5, 6, 7, 8}, TensorShape({2, 2})));
//   RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
//   ExpectTensorEqual(out[0], Tensor::FromVector<float>({17, 23, 39, 53}, TensorShape({2, 2})));
//
// Several testers may share one Device (pass it to the constructor) so that stateful kernels see
// the same ResourceMgr (VariableV2 then Assign). Test-only.
#ifndef RILL_KERNELS_FRAMEWORK_OP_TEST_UTIL_H_
#define RILL_KERNELS_FRAMEWORK_OP_TEST_UTIL_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/device.h"
#include "core/rendezvous.h"
#include "core/tensor.h"
#include "kernels/framework/op_kernel.h"
#include "ops/attr_value_util.h"
#include "proto/node_def.pb.h"

namespace rill {

// The CPU device name OpTester creates when none is given.
inline constexpr char kTestCpuDevice[] = "/job:localhost/replica:0/task:0/device:CPU:0";

// Not thread-safe while being configured (Attr, Input, Set*, Init); once Init has succeeded,
// RunWith and RunAsync may be called from many threads at once (as the executor runs a kernel
// for concurrent steps).
class OpTester {
 public:
  // A node named `node_name` (default: the op name) running `op`. `device` is borrowed and must
  // outlive the tester; nullptr makes a private CPU device.
  explicit OpTester(std::string op, std::string node_name = "", Device* device = nullptr);
  OpTester(const OpTester&) = delete;
  OpTester& operator=(const OpTester&) = delete;

  // Sets attr `name` (any type SetAttr from ops/attr_value_util.h accepts).
  template <typename T>
  OpTester& Attr(absl::string_view name, const T& value) {
    SetAttr(&node_, name, value);
    return *this;
  }
  OpTester& Attr(absl::string_view name, const AttrValue& value);
  // Sets a shape attr from dims (-1 for unknown dims); `unknown_rank` ignores dims.
  OpTester& ShapeAttr(absl::string_view name, const std::vector<int64_t>& dims,
                      bool unknown_rank = false);
  // Sets a tensor attr (Const's value).
  OpTester& TensorAttr(absl::string_view name, const Tensor& value);

  // Appends a data input holding `value`. `source` is the NodeDef input string (default "in<i>");
  // kernels name it in messages ("Attempting to use uninitialized value v").
  OpTester& Input(const Tensor& value, std::string source = "");
  // Appends a ref input: `ref` and `mu` are borrowed (normally a Var's) and must outlive runs.
  OpTester& RefInput(Tensor* ref, rill::SharedMutex* mu, std::string source = "");
  // Appends an input from a TensorValue (e.g. a ref output of another tester's run).
  OpTester& InputValue(const TensorValue& value, std::string source = "");
  // Replaces the value fed to input `i` in later runs (the NodeDef is unchanged).
  void SetInput(int i, const TensorValue& value) { inputs_[i] = value; }

  // Per-step context the kernel sees. All borrowed; they must outlive the runs that use them.
  void SetRendezvous(Rendezvous* r) { rendezvous_ = r; }
  void SetCallFrame(CallFrame* f) { call_frame_ = f; }
  void SetStepResources(ResourceMgr* r) { step_resources_ = r; }
  void SetInputDead(bool dead) { is_input_dead_ = dead; }
  void SetIntraOpThreads(int threads) { intra_op_threads_ = threads; }

  // Fills defaults, validates the NodeDef against its OpDef and creates the kernel. Returns the
  // validation or construction error (e.g. InvalidArgument from the kernel's constructor, or
  // TensorFlow's "No OpKernel was registered" text when no CPU kernel matches). Idempotent once
  // it has succeeded.
  absl::Status Init();

  // Runs the kernel once on the inputs given so far, calling Init first if needed, and waits for
  // async kernels. Returns the outputs with refs read (a ref output gives the variable's current
  // value), or the kernel's error.
  absl::StatusOr<std::vector<Tensor>> Run();
  // Runs once with explicit inputs, returning raw outputs (refs stay refs). REQUIRES: Init() OK.
  // Thread-safe.
  absl::StatusOr<std::vector<TensorValue>> RunWith(std::vector<TensorValue> inputs) const;
  using DoneCallback = std::function<void(absl::StatusOr<std::vector<TensorValue>>)>;
  // Starts a run and returns at once; `done` is called exactly once, possibly on another thread
  // (or before RunAsync returns). REQUIRES: Init() OK. Thread-safe.
  void RunAsync(std::vector<TensorValue> inputs, DoneCallback done) const;

  const std::vector<TensorValue>& inputs() const { return inputs_; }
  NodeDef& node_def() { return node_; }
  Device* device() const { return device_; }
  // REQUIRES: Init() OK.
  const OpKernel& kernel() const { return *kernel_; }

 private:
  std::unique_ptr<Device> owned_device_;
  Device* device_;  // Not owned when passed in.
  NodeDef node_;
  OpDef op_def_;
  std::vector<TensorValue> inputs_;
  std::unique_ptr<OpKernel> kernel_;
  Rendezvous* rendezvous_ = nullptr;       // Not owned.
  CallFrame* call_frame_ = nullptr;        // Not owned.
  ResourceMgr* step_resources_ = nullptr;  // Not owned.
  bool is_input_dead_ = false;
  int intra_op_threads_ = 1;
};

// EXPECTs that `actual` has the dtype, shape and exactly the values of `expected` (half and
// bfloat16 compared bit-exactly, floats with ==).
void ExpectTensorEqual(const Tensor& actual, const Tensor& expected);

// A host tensor of dtype `dtype` and `shape` whose elements are `values` converted from double
// (for dtypes without a convenient C++ literal: half, bfloat16, complex). REQUIRES: numeric dtype,
// values.size() == shape.num_elements().
Tensor MakeTensor(DataType dtype, const TensorShape& shape, const std::vector<double>& values);

}  // namespace rill

#endif  // RILL_KERNELS_FRAMEWORK_OP_TEST_UTIL_H_
