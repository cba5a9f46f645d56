#include "kernels/framework/op_test_util.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "core/mutex.h"
#include "core/status_macros.h"
#include "core/tensor_proto.h"
#include "gtest/gtest.h"
#include "kernels/framework/kernel_registry.h"
#include "ops/node_def_util.h"
#include "ops/op_registry.h"

namespace rill {

OpTester::OpTester(std::string op, std::string node_name, Device* device) : device_(device) {
  if (device_ == nullptr) {
    owned_device_ = NewCpuDevice(kTestCpuDevice);
    device_ = owned_device_.get();
  }
  node_.set_name(node_name.empty() ? op : std::move(node_name));
  node_.set_op(std::move(op));
  node_.set_device(device_->name());
}

OpTester& OpTester::Attr(absl::string_view name, const AttrValue& value) {
  (*node_.mutable_attr())[std::string(name)] = value;
  return *this;
}

OpTester& OpTester::ShapeAttr(absl::string_view name, const std::vector<int64_t>& dims,
                              bool unknown_rank) {
  TensorShapeProto proto;
  if (unknown_rank) {
    proto.set_unknown_rank(true);
  } else {
    for (int64_t d : dims) proto.add_dim()->set_size(d);
  }
  SetAttr(&node_, name, proto);
  return *this;
}

OpTester& OpTester::TensorAttr(absl::string_view name, const Tensor& value) {
  AttrValue v;
  TensorToProto(value, v.mutable_tensor());
  return Attr(name, v);
}

OpTester& OpTester::Input(const Tensor& value, std::string source) {
  TensorValue v;
  v.tensor = value;
  return InputValue(v, std::move(source));
}

OpTester& OpTester::RefInput(Tensor* ref, rill::SharedMutex* mu, std::string source) {
  TensorValue v;
  v.ref = ref;
  v.ref_mu = mu;
  return InputValue(v, std::move(source));
}

OpTester& OpTester::InputValue(const TensorValue& value, std::string source) {
  node_.add_input(source.empty() ? absl::StrCat("in", inputs_.size()) : std::move(source));
  inputs_.push_back(value);
  return *this;
}

absl::Status OpTester::Init() {
  if (kernel_ != nullptr) return absl::OkStatus();
  RILL_ASSIGN_OR_RETURN(const OpRegistration* reg, OpRegistry::Global()->LookUpOrError(node_.op()));
  op_def_ = reg->op_def;
  AddDefaultsToNodeDef(op_def_, &node_);
  RILL_RETURN_IF_ERROR(ValidateNodeDef(node_, op_def_));
  RILL_ASSIGN_OR_RETURN(kernel_, KernelRegistry::Global()->CreateKernel(node_, op_def_, device_));
  return absl::OkStatus();
}

absl::StatusOr<std::vector<Tensor>> OpTester::Run() {
  RILL_RETURN_IF_ERROR(Init());
  RILL_ASSIGN_OR_RETURN(std::vector<TensorValue> values, RunWith(inputs_));
  std::vector<Tensor> out;
  out.reserve(values.size());
  for (const TensorValue& v : values) out.push_back(v.Get());
  return out;
}

absl::StatusOr<std::vector<TensorValue>> OpTester::RunWith(std::vector<TensorValue> inputs) const {
  rill::Notification done;
  absl::StatusOr<std::vector<TensorValue>> result;
  RunAsync(std::move(inputs), [&](absl::StatusOr<std::vector<TensorValue>> r) {
    result = std::move(r);
    done.Notify();
  });
  done.WaitForNotification();
  return result;
}

void OpTester::RunAsync(std::vector<TensorValue> inputs, DoneCallback done) const {
  // Everything the kernel may touch after RunAsync returns lives in `state`, kept alive by the
  // completion callback.
  struct State {
    std::vector<TensorValue> inputs;
    OpKernelContext::Params params;
    std::unique_ptr<OpKernelContext> ctx;
  };
  auto state = std::make_shared<State>();
  state->inputs = std::move(inputs);
  OpKernelContext::Params& params = state->params;
  params.device = device_;
  params.step_id = 1;
  params.rendezvous = rendezvous_;
  params.kernel = kernel_.get();
  params.inputs = absl::MakeConstSpan(state->inputs);
  params.call_frame = call_frame_;
  params.step_resources = step_resources_;
  params.is_input_dead = is_input_dead_;
  params.intra_op_threads = intra_op_threads_;
  state->ctx =
      std::make_unique<OpKernelContext>(&params, static_cast<int>(kernel_->output_types().size()));
  auto finish = [state, done = std::move(done)](absl::Status s) {
    if (!s.ok()) {
      done(s);
    } else {
      done(std::vector<TensorValue>(state->ctx->outputs().begin(), state->ctx->outputs().end()));
    }
  };
  if (kernel_->IsAsync()) {
    static_cast<const AsyncOpKernel*>(kernel_.get())->ComputeAsync(*state->ctx, finish);
  } else {
    finish(kernel_->Compute(*state->ctx));
  }
}

namespace {

template <typename T>
std::string ElementString(const T& v) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
    return absl::StrCat(static_cast<float>(v), " (bits 0x", absl::Hex(v.bits), ")");
  } else if constexpr (std::is_same_v<T, complex64> || std::is_same_v<T, complex128>) {
    return absl::StrCat("(", v.real(), ",", v.imag(), ")");
  } else if constexpr (std::is_same_v<T, std::string>) {
    return absl::StrCat("\"", v, "\"");
  } else if constexpr (std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>) {
    return absl::StrCat(static_cast<int>(v));
  } else {
    return absl::StrCat(v);
  }
}

}  // namespace

void ExpectTensorEqual(const Tensor& actual, const Tensor& expected) {
  ASSERT_EQ(DataTypeString(actual.dtype()), DataTypeString(expected.dtype()));
  ASSERT_EQ(actual.shape().DebugString(), expected.shape().DebugString());
  absl::Status s = VisitDataType(expected.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    auto a = actual.flat<T>();
    auto e = expected.flat<T>();
    for (size_t i = 0; i < e.size(); ++i) {
      EXPECT_TRUE(a[i] == e[i]) << "element " << i << ": actual " << ElementString(a[i])
                                << ", expected " << ElementString(e[i]);
    }
    return absl::OkStatus();
  });
  EXPECT_TRUE(s.ok()) << s;
}

Tensor MakeTensor(DataType dtype, const TensorShape& shape, const std::vector<double>& values) {
  Tensor t(dtype, shape);
  absl::Status s = VisitDataType(dtype, [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, std::string>) {
      return absl::InvalidArgumentError("MakeTensor: use Tensor::FromVector for strings");
    } else {
      auto out = t.flat<T>();
      for (size_t i = 0; i < values.size() && i < out.size(); ++i) {
        if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
          out[i] = T(static_cast<float>(values[i]));
        } else if constexpr (std::is_same_v<T, complex64>) {
          out[i] = T(static_cast<float>(values[i]), 0.0f);
        } else if constexpr (std::is_same_v<T, complex128>) {
          out[i] = T(values[i], 0.0);
        } else {
          out[i] = static_cast<T>(values[i]);
        }
      }
      return absl::OkStatus();
    }
  });
  EXPECT_TRUE(s.ok()) << s;
  return t;
}

}  // namespace rill
