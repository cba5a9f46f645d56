// DataFormatDimMap and DataFormatVecPermute: what layout-converting rewrites (NHWC <-> NCHW,
// NDHWC <-> NCDHW) leave in graphs around axes and shape vectors. DimMap maps each axis of
// src_format (negative ones from the end) to its position in dst_format; VecPermute reorders a
// vector of per-dimension values (or [n, 2] pairs, paddings) from src_format's order to
// dst_format's, or only the spatial ones when it has rank - 2 entries. Error texts are
// TensorFlow's.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/op_kernel.h"

namespace rill {
namespace {

absl::Status ReadFormats(OpKernelConstruction& ctx, std::string* src, std::string* dst) {
  RILL_RETURN_IF_ERROR(ctx.GetAttr("src_format", src));
  RILL_RETURN_IF_ERROR(ctx.GetAttr("dst_format", dst));
  if (src->size() != 4 && src->size() != 5) {
    return absl::InvalidArgumentError(
        absl::StrCat("Source format must be of length 4 or 5, received src_format = ", *src));
  }
  std::string a = *src, b = *dst;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  if (a != b || std::adjacent_find(a.begin(), a.end()) != a.end()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Destination and source format must determine a permutation, got ", *src, " and ", *dst));
  }
  return absl::OkStatus();
}

template <typename T>
void WriteIndices(const std::vector<int64_t>& v, Tensor* out) {
  auto o = out->flat<T>();
  for (size_t i = 0; i < v.size(); ++i) o[i] = static_cast<T>(v[i]);
}

class DataFormatDimMapOp final : public OpKernel {
 public:
  explicit DataFormatDimMapOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ReadFormats(ctx, &src_, &dst_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& x = ctx.input(0);
    const int64_t rank = static_cast<int64_t>(src_.size());
    std::vector<int64_t> v = IndexValues(x);
    for (int64_t& d : v) d = static_cast<int64_t>(dst_.find(src_[((d % rank) + rank) % rank]));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, x.shape()));
    if (x.dtype() == DT_INT32) {
      WriteIndices<int32_t>(v, out);
    } else {
      WriteIndices<int64_t>(v, out);
    }
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  std::string src_, dst_;
};

class DataFormatVecPermuteOp final : public OpKernel {
 public:
  explicit DataFormatVecPermuteOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ReadFormats(ctx, &src_, &dst_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& x = ctx.input(0);
    const TensorShape& s = x.shape();
    const int64_t full = static_cast<int64_t>(src_.size()), spatial = full - 2;
    if (s.rank() != 1 && s.rank() != 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("input must be a vector or 2D tensor, but got shape ", s.DebugString()));
    }
    const int64_t n = s.dim(0);
    if (s.rank() == 1 && n != spatial && n != full) {
      return absl::InvalidArgumentError(absl::StrCat("1D input must be of size ", spatial, " or ",
                                                     full, ", but got shape ", s.DebugString()));
    }
    if (s.rank() == 2) {
      if (n != spatial && n != full) {
        return absl::InvalidArgumentError(
            absl::StrCat("First dimension of 2D input must be of size ", spatial, " or ", full,
                         ", but got shape ", s.DebugString()));
      }
      if (s.dim(1) != 2) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Second dimension of 2D input must be of size 2, but got shape ", s.DebugString()));
      }
    }
    std::string src = src_, dst = dst_;
    if (n == spatial) {  // only the spatial dims: drop N and C from both
      auto strip = [](std::string f) {
        f.erase(std::remove_if(f.begin(), f.end(), [](char ch) { return ch == 'N' || ch == 'C'; }),
                f.end());
        return f;
      };
      src = strip(src);
      dst = strip(dst);
    }
    const int64_t width = s.rank() == 2 ? 2 : 1;
    const std::vector<int64_t> in = IndexValues(x);
    std::vector<int64_t> v(in.size());
    for (int64_t i = 0; i < n; ++i) {
      const int64_t from = static_cast<int64_t>(src.find(dst[i]));
      for (int64_t w = 0; w < width; ++w) v[i * width + w] = in[from * width + w];
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, s));
    if (x.dtype() == DT_INT32) {
      WriteIndices<int32_t>(v, out);
    } else {
      WriteIndices<int64_t>(v, out);
    }
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  std::string src_, dst_;
};

REGISTER_KERNEL(KernelDefBuilder("DataFormatDimMap")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_INT32, DT_INT64}),
                DataFormatDimMapOp);
REGISTER_KERNEL(KernelDefBuilder("DataFormatVecPermute")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_INT32, DT_INT64}),
                DataFormatVecPermuteOp);

}  // namespace
}  // namespace rill
