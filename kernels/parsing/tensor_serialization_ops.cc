// SerializeTensor and ParseTensor: a tensor to and from the bytes of its TensorProto
// (tensor_content for numbers, string_val for strings, as TensorFlow's AsProtoTensorContent writes
// it), the form tf.io.serialize_tensor gives and serving signatures sometimes take.
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "core/tensor_proto.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/op_kernel.h"
#include "proto/tensor.pb.h"

namespace rill {
namespace {

const std::vector<DataType>& SerializableTypes() {
  static const std::vector<DataType> types = {DT_FLOAT, DT_DOUBLE, DT_HALF,      DT_INT32,
                                              DT_INT64, DT_UINT8,  DT_INT8,      DT_INT16,
                                              DT_BOOL,  DT_STRING, DT_COMPLEX64, DT_COMPLEX128};
  return types;
}

class SerializeTensorOp final : public OpKernel {
 public:
  explicit SerializeTensorOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    TensorProto proto;
    TensorToProto(ctx.input(0), &proto, /*use_tensor_content=*/true);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, TensorShape({})));
    if (!proto.SerializeToString(&out->flat<std::string>()[0])) {
      return absl::InvalidArgumentError(
          absl::StrCat("Unable to serialize a tensor of shape ", ctx.input(0).shape().DebugString(),
                       ": its TensorProto would exceed protobuf's 2 GB limit"));
    }
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

class ParseTensorOp final : public OpKernel {
 public:
  explicit ParseTensorOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("out_type", &out_type_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    if (in.shape().rank() != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Expected `serialized` to be a scalar, got shape: ", in.shape().DebugString()));
    }
    const std::string& serialized = in.flat<std::string>()[0];
    TensorProto proto;
    if (!proto.ParseFromString(serialized)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Could not parse `serialized` as TensorProto, base64: ", absl::Base64Escape(serialized)));
    }
    RILL_ASSIGN_OR_RETURN(Tensor out, TensorFromProto(proto));
    if (out.dtype() != out_type_) {
      return absl::InvalidArgumentError(absl::StrCat("Type mismatch between parsed tensor (",
                                                     DataTypeString(out.dtype()), ") and dtype (",
                                                     DataTypeString(out_type_), ")"));
    }
    ctx.set_output(0, std::move(out));
    return absl::OkStatus();
  }

 private:
  DataType out_type_ = DT_INVALID;
};

REGISTER_KERNEL(
    KernelDefBuilder("SerializeTensor").Device(kDeviceCpu).TypeConstraint("T", SerializableTypes()),
    SerializeTensorOp);
REGISTER_KERNEL(KernelDefBuilder("ParseTensor")
                    .Device(kDeviceCpu)
                    .TypeConstraint("out_type", SerializableTypes()),
                ParseTensorOp);

}  // namespace
}  // namespace rill
