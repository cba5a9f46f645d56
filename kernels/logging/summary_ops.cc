// TensorSummary on the CPU: a scalar string holding a serialized tensorflow.Summary with one
// value, {node_name: the node's name, tensor: the input as a TensorProto} (tensor_content for
// numbers, string_val for strings), byte for byte as TensorFlow 2.21 writes it. description,
// labels and display_name are accepted and, as in TensorFlow, not written. Stateless.
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/status_macros.h"
#include "core/tensor_proto.h"
#include "kernels/framework/kernel_registry.h"

namespace rill {
namespace {

void AppendVarint(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

// A length-delimited protobuf field.
void AppendBytesField(int field, absl::string_view bytes, std::string* out) {
  AppendVarint(static_cast<uint64_t>(field) << 3 | 2, out);
  AppendVarint(bytes.size(), out);
  out->append(bytes.data(), bytes.size());
}

// tensorflow.Summary's field numbers.
constexpr int kSummaryValue = 1;   // Summary.value
constexpr int kValueNodeName = 7;  // Summary.Value.node_name
constexpr int kValueTensor = 8;    // Summary.Value.tensor

class TensorSummaryOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& t = ctx.input(0);
    if (t.dtype() == DT_VARIANT || t.dtype() == DT_RESOURCE) {
      return absl::UnimplementedError(absl::StrCat("TensorSummary node ", name(), ": a ",
                                                   DataTypeString(t.dtype()),
                                                   " tensor has no TensorProto form in Rill"));
    }
    TensorProto proto;
    TensorToProto(t, &proto, /*use_tensor_content=*/true);
    std::string value;
    AppendBytesField(kValueNodeName, name(), &value);
    AppendBytesField(kValueTensor, proto.SerializeAsString(), &value);
    std::string summary;
    AppendBytesField(kSummaryValue, value, &summary);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, TensorShape({})));
    out->flat<std::string>()[0] = std::move(summary);
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

REGISTER_KERNEL(KernelDefBuilder("TensorSummary").Device(kDeviceCpu), TensorSummaryOp);

}  // namespace
}  // namespace rill
