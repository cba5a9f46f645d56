// _RillLstmSequence on the CPU: a whole LSTM loop frame (graph/lstm_sequence_fusion.h) run as
// one node. Each step runs the kernels the loop's body ran, built once here for this node:
//   x  = TensorListGetItem(input_list, counters[read_counter], element_shape)
//   xw = MatMul(x, kernel)                      (skipped when project_input is false: xw = x)
//   hu = MatMul(h, recurrent_kernel)
//   s  = AddV2(xw, hu)                          (operands in the body's order: input_first)
//   z  = BiasAdd(s, bias)
//   c, h = _RillLstmCell(z, c)
//   output_list = TensorListSetItem(output_list, counters[write_counter] or write_index, h)
//   every counter + 1
// while counters[bound_counters[k]] < bounds[k] for every k. So the values are the body's bit
// for bit (the same kernels on the same inputs, MatMul with the same packed-weights choice), and
// a step's error is the error its node gave. Bounds that are not scalars make the condition a
// tensor: the loop Switch's error, or with to_bool (a ToBool before the LoopCond) "go on" exactly
// when it has elements. Outputs: the counters, the output list, h and c after the last step (before
// any step: the inputs).
//
// Errors name the loop's own nodes (attr _rill_error_nodes, kernels/framework/error_nodes.h):
// [TensorListGetItem, the MatMul of x ("" without one), the MatMul of h, the sum, BiasAdd,
// TensorListSetItem, a loop Switch, then the cell's: its Split and its Mul of Sigmoid(f) and c],
// each step kernel's error with the node that ran it in the loop.
//
// Kernels are immutable after construction; Compute is thread-safe (the sub-kernels' Compute is).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/error_nodes.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/step_kernels.h"
#include "kernels/math_lib/broadcast.h"

namespace rill {
namespace {

// Builds the kernel of `op` for a node named `name` with `attrs` (defaults filled in).
absl::StatusOr<std::unique_ptr<OpKernel>> SubKernel(
    const std::string& name, const char* op,
    const std::vector<std::pair<const char*, AttrValue>>& attrs, Device* device) {
  RILL_ASSIGN_OR_RETURN(const OpRegistration* reg, OpRegistry::Global()->LookUpOrError(op));
  NodeDef def;
  def.set_name(name);
  def.set_op(op);
  // Placeholder input names: the kernel reads values, not names.
  for (int i = 0; i < reg->op_def.input_arg_size(); ++i) def.add_input(absl::StrCat("in", i));
  for (const auto& [key, value] : attrs) (*def.mutable_attr())[key] = value;
  return CreateStepKernel(std::move(def), device);
}

AttrValue TypeValue(DataType t) {
  AttrValue v;
  v.set_type(t);
  return v;
}

AttrValue BoolValue(bool b) {
  AttrValue v;
  v.set_b(b);
  return v;
}

class LstmSequenceOp final : public OpKernel {
 public:
  explicit LstmSequenceOp(OpKernelConstruction& ctx) : OpKernel(ctx), nodes_(ctx) {
    ctx.SetStatus(Init(ctx));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const int nc = num_counters_;
    std::vector<int32_t> counters(nc);
    for (int i = 0; i < nc; ++i) {
      const Tensor& t = ctx.input(i);
      if (t.shape().rank() != 0) {
        return nodes_.At(
            kSwitch, absl::InvalidArgumentError(absl::StrCat(
                         "The loop's counters must be scalars; got ", t.shape().DebugString())));
      }
      counters[i] = t.flat<int32_t>()[0];
    }
    std::vector<int32_t> bounds(num_bounds_);
    bool scalar_bounds = true;
    for (int k = 0; k < num_bounds_; ++k) {
      const Tensor& t = ctx.input(nc + k);
      scalar_bounds &= t.shape().rank() == 0;
      if (t.shape().rank() == 0) bounds[k] = t.flat<int32_t>()[0];
    }
    // A bound that is not a scalar makes the condition a tensor of the bounds' broadcast shape
    // (LogicalAnd's error when they do not broadcast): the loop Switch's error, or through
    // ToBool, "go on" exactly when it has elements, whatever the counters.
    std::optional<bool> fixed_condition;
    if (!scalar_bounds) {
      TensorShape pred = ctx.input(nc).shape();
      for (int k = 1; k < num_bounds_; ++k) {
        RILL_ASSIGN_OR_RETURN(pred, BroadcastShapes(pred, ctx.input(nc + k).shape()));
      }
      if (!to_bool_) {
        return nodes_.At(kSwitch, absl::InvalidArgumentError(absl::StrCat(
                                      "The second input must be a scalar, but it has shape ",
                                      pred.DebugString())));
      }
      fixed_condition = pred.num_elements() > 0;
    }
    const int base = nc + num_bounds_;
    const Tensor& input_list = ctx.input(base);
    const Tensor& element_shape = ctx.input(base + 1);
    Tensor list = ctx.input(base + 2);
    Tensor h = ctx.input(base + 3);
    Tensor c = ctx.input(base + 4);
    const Tensor& kernel = ctx.input(base + 5);
    const Tensor& recurrent = ctx.input(base + 6);
    const Tensor& bias = ctx.input(base + 7);

    StepKernelRunner runner(ctx);
    // Runs `k` on `inputs` (moved in, so an elementwise kernel may reuse a buffer nothing else
    // holds); returns its outputs, or its error naming the loop's node `node` (kGetItem...).
    auto run = [&](const OpKernel& k, TensorValueVector inputs, int outputs,
                   size_t node) -> absl::StatusOr<TensorValueVector> {
      TensorValueVector out;
      RILL_RETURN_IF_ERROR(nodes_.At(node, runner.RunInto(k, inputs, outputs, &out)));
      return out;
    };
    // The inputs of a run: rvalues moved in (an initializer list would copy them, so the buffer
    // would have a second holder), lvalues copied.
    auto values = [](auto&&... t) {
      TensorValueVector v;
      (v.emplace_back(Tensor(std::forward<decltype(t)>(t)), nullptr, nullptr), ...);
      return v;
    };
    auto running = [&] {
      if (fixed_condition) return *fixed_condition;
      for (int k = 0; k < num_bounds_; ++k) {
        if (!(counters[bound_counters_[k]] < bounds[k])) return false;
      }
      return true;
    };
    while (running()) {
      // A timeout, Close or another partition's error cancels the step: the loop stops before its
      // next step with the cancellation's status.
      RILL_RETURN_IF_ERROR(runner.Cancelled());
      RILL_ASSIGN_OR_RETURN(
          TensorValueVector x,
          run(*get_item_,
              values(input_list, Tensor::Scalar<int32_t>(counters[read_counter_]), element_shape),
              1, kGetItem));
      Tensor xw = std::move(x[0].tensor);
      if (matmul_x_ != nullptr) {
        RILL_ASSIGN_OR_RETURN(TensorValueVector p,
                              run(*matmul_x_, values(std::move(xw), kernel), 1, kMatMulX));
        xw = std::move(p[0].tensor);
      }
      RILL_ASSIGN_OR_RETURN(TensorValueVector hu,
                            run(*matmul_h_, values(h, recurrent), 1, kMatMulH));
      Tensor hw = std::move(hu[0].tensor);
      RILL_ASSIGN_OR_RETURN(TensorValueVector s,
                            input_first_
                                ? run(*sum_, values(std::move(xw), std::move(hw)), 1, kSum)
                                : run(*sum_, values(std::move(hw), std::move(xw)), 1, kSum));
      RILL_ASSIGN_OR_RETURN(TensorValueVector z,
                            run(*bias_add_, values(std::move(s[0].tensor), bias), 1, kBiasAdd));
      RILL_ASSIGN_OR_RETURN(TensorValueVector cell,
                            run(*cell_, values(std::move(z[0].tensor), std::move(c)), 2, kCell));
      c = std::move(cell[0].tensor);
      h = std::move(cell[1].tensor);
      const Tensor index =
          Tensor::Scalar<int32_t>(write_counter_ >= 0 ? counters[write_counter_] : write_index_);
      // Moved in: the SetItem may update a list nothing else holds in place.
      RILL_ASSIGN_OR_RETURN(TensorValueVector l,
                            run(*set_item_, values(std::move(list), index, h), 1, kSetItem));
      list = std::move(l[0].tensor);
      for (int32_t& i : counters) i = static_cast<int32_t>(static_cast<uint32_t>(i) + 1u);
    }
    for (int i = 0; i < nc; ++i) {
      RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(i, TensorShape({})));
      out->flat<int32_t>()[0] = counters[i];
    }
    ctx.set_output(nc, std::move(list));
    ctx.set_output(nc + 1, std::move(h));
    ctx.set_output(nc + 2, std::move(c));
    return absl::OkStatus();
  }

 private:
  absl::Status Init(OpKernelConstruction& ctx) {
    int64_t nc = 0, nb = 0, read = 0, write = -1, write_index = 0;
    RILL_RETURN_IF_ERROR(ctx.GetAttr("num_counters", &nc));
    RILL_RETURN_IF_ERROR(ctx.GetAttr("num_bounds", &nb));
    RILL_RETURN_IF_ERROR(ctx.GetAttr("bound_counters", &bound_counters_));
    RILL_RETURN_IF_ERROR(ctx.GetAttr("read_counter", &read));
    RILL_RETURN_IF_ERROR(ctx.GetAttr("write_counter", &write));
    RILL_RETURN_IF_ERROR(ctx.GetAttr("write_index", &write_index));
    bool project = true, transpose_x = false, transpose_h = false, constant_x = false,
         constant_h = false;
    RILL_RETURN_IF_ERROR(ctx.GetAttr("project_input", &project));
    RILL_RETURN_IF_ERROR(ctx.GetAttr("transpose_kernel", &transpose_x));
    RILL_RETURN_IF_ERROR(ctx.GetAttr("transpose_recurrent_kernel", &transpose_h));
    RILL_RETURN_IF_ERROR(ctx.GetAttr("constant_kernel", &constant_x));
    RILL_RETURN_IF_ERROR(ctx.GetAttr("constant_recurrent_kernel", &constant_h));
    RILL_RETURN_IF_ERROR(ctx.GetAttr("input_first", &input_first_));
    RILL_RETURN_IF_ERROR(ctx.GetAttr("to_bool", &to_bool_));
    std::string data_format;
    RILL_RETURN_IF_ERROR(ctx.GetAttr("bias_data_format", &data_format));
    std::vector<int64_t> order;
    RILL_RETURN_IF_ERROR(ctx.GetAttr("gate_order", &order));
    if (static_cast<int64_t>(bound_counters_.size()) != nb) {
      return absl::InvalidArgumentError("bound_counters must have num_bounds entries");
    }
    for (int64_t k : bound_counters_) {
      if (k < 0 || k >= nc) return absl::InvalidArgumentError("bound_counters out of range");
    }
    if (read < 0 || read >= nc || write < -1 || write >= nc || write_index < INT32_MIN ||
        write_index > INT32_MAX) {
      return absl::InvalidArgumentError("read_counter, write_counter or write_index out of range");
    }
    num_counters_ = static_cast<int>(nc);
    num_bounds_ = static_cast<int>(nb);
    read_counter_ = static_cast<int>(read);
    write_counter_ = static_cast<int>(write);
    write_index_ = static_cast<int32_t>(write_index);
    Device* device = ctx.device();
    const std::string& name = ctx.def().name();
    const AttrValue f32 = TypeValue(DT_FLOAT);
    RILL_ASSIGN_OR_RETURN(get_item_,
                          SubKernel(absl::StrCat(name, "/TensorListGetItem"), "TensorListGetItem",
                                    {{"element_dtype", f32}}, device));
    if (project) {
      std::vector<std::pair<const char*, AttrValue>> attrs = {
          {"T", f32}, {"transpose_b", BoolValue(transpose_x)}};
      if (constant_x) attrs.emplace_back("_rill_constant_weights", BoolValue(true));
      RILL_ASSIGN_OR_RETURN(matmul_x_,
                            SubKernel(absl::StrCat(name, "/MatMul"), "MatMul", attrs, device));
    }
    std::vector<std::pair<const char*, AttrValue>> attrs = {
        {"T", f32}, {"transpose_b", BoolValue(transpose_h)}};
    if (constant_h) attrs.emplace_back("_rill_constant_weights", BoolValue(true));
    RILL_ASSIGN_OR_RETURN(matmul_h_,
                          SubKernel(absl::StrCat(name, "/MatMul_1"), "MatMul", attrs, device));
    RILL_ASSIGN_OR_RETURN(sum_,
                          SubKernel(absl::StrCat(name, "/AddV2"), "AddV2", {{"T", f32}}, device));
    AttrValue format;
    format.set_s(data_format);
    RILL_ASSIGN_OR_RETURN(bias_add_, SubKernel(absl::StrCat(name, "/BiasAdd"), "BiasAdd",
                                               {{"T", f32}, {"data_format", format}}, device));
    AttrValue gates;
    for (int64_t k : order) gates.mutable_list()->add_i(k);
    // The cell names its own nodes (the list's entries from kCell on).
    AttrValue cell_nodes;
    cell_nodes.mutable_list();
    for (size_t i = kCell; i < nodes_.names().size(); ++i) {
      cell_nodes.mutable_list()->add_s(nodes_.names()[i]);
    }
    RILL_ASSIGN_OR_RETURN(
        cell_,
        SubKernel(absl::StrCat(name, "/lstm_cell"), "_RillLstmCell",
                  {{"T", f32}, {"gate_order", gates}, {ErrorNodes::kAttr, cell_nodes}}, device));
    RILL_ASSIGN_OR_RETURN(set_item_,
                          SubKernel(absl::StrCat(name, "/TensorListSetItem"), "TensorListSetItem",
                                    {{"element_dtype", f32}}, device));
    return absl::OkStatus();
  }

  int num_counters_ = 1;
  int num_bounds_ = 1;
  std::vector<int64_t> bound_counters_;
  int read_counter_ = 0;
  int write_counter_ = -1;
  int32_t write_index_ = 0;
  bool input_first_ = true;
  bool to_bool_ = false;
  std::unique_ptr<OpKernel> get_item_, matmul_x_, matmul_h_, sum_, bias_add_, cell_, set_item_;
  // Positions in nodes_ (the cell's errors name the entries from kCell on, kCell itself when the
  // cell's own error names no node).
  static constexpr size_t kGetItem = 0, kMatMulX = 1, kMatMulH = 2, kSum = 3, kBiasAdd = 4,
                          kSetItem = 5, kSwitch = 6, kCell = 7;
  ErrorNodes nodes_;
};

REGISTER_KERNEL(
    KernelDefBuilder("_RillLstmSequence").Device(kDeviceCpu).TypeConstraint("T", {DT_FLOAT}),
    LstmSequenceOp);

}  // namespace
}  // namespace rill
