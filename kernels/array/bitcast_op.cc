// Bitcast on the CPU: the input's bytes read as `type`. Equal sizes keep the shape; a smaller
// output type appends a last dim of in_size / out_size; a larger one needs the input's last dim
// to be out_size / in_size and drops it. The bytes are copied into a new buffer (Rill tensors
// carry one dtype per buffer).
// Errors: InvalidArgument "Cannot bitcast from <T> to <type>" (TensorFlow's text, with the
// DataType enum numbers, as its C-API kernel prints them) when the last dim does not fit.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cstdint>
#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"

namespace rill {
namespace {

const std::vector<DataType>& BitcastTypes() {
  static const auto* types = new std::vector<DataType>{
      DT_HALF,  DT_FLOAT,  DT_DOUBLE, DT_INT8,   DT_INT16,     DT_INT32,     DT_INT64,
      DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64, DT_COMPLEX64, DT_COMPLEX128};
  return *types;
}

class BitcastOp final : public OpKernel {
 public:
  explicit BitcastOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("T", &in_type_));
    ctx.SetStatus(ctx.GetAttr("type", &out_type_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    const int64_t in_size = DataTypeSize(in_type_), out_size = DataTypeSize(out_type_);
    const TensorShape& s = in.shape();
    if (!(in_size >= out_size || (s.rank() > 0 && s.dim(s.rank() - 1) == out_size / in_size))) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Cannot bitcast from ", static_cast<int>(in_type_), " to ", static_cast<int>(out_type_)));
    }
    std::vector<int64_t> dims(s.dims().begin(), s.dims().end());
    if (out_size < in_size) dims.push_back(in_size / out_size);
    if (out_size > in_size) dims.pop_back();
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    const size_t bytes = static_cast<size_t>(in.NumElements() * in_size);
    if (bytes > 0) std::memcpy(out->raw_data(), in.raw_data(), bytes);
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  DataType in_type_ = DT_INVALID;
  DataType out_type_ = DT_INVALID;
};

REGISTER_KERNEL(KernelDefBuilder("Bitcast")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", BitcastTypes())
                    .TypeConstraint("type", BitcastTypes()),
                BitcastOp);

}  // namespace
}  // namespace rill
