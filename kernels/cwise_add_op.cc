// Add, AddV2 (numpy broadcasting, strings concatenate for Add) and AddN (same shapes) on the CPU.
// Incompatible shapes are InvalidArgument "Incompatible shapes: [2] vs. [3]".
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "kernels/kernel_registry.h"

namespace rill {
namespace {

template <typename T>
T AddValues(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
    return T(static_cast<float>(a) + static_cast<float>(b));
  } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    using U = std::make_unsigned_t<T>;  // wrap on overflow, as TensorFlow's kernels do
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}

// Output shape of numpy broadcasting, or InvalidArgument.
absl::StatusOr<TensorShape> BroadcastShape(const TensorShape& a, const TensorShape& b) {
  const int rank = std::max(a.rank(), b.rank());
  std::vector<int64_t> dims(rank);
  for (int i = 0; i < rank; ++i) {
    const int ia = a.rank() - rank + i, ib = b.rank() - rank + i;
    const int64_t da = ia >= 0 ? a.dim(ia) : 1, db = ib >= 0 ? b.dim(ib) : 1;
    if (da != db && da != 1 && db != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("Incompatible shapes: ", a.DebugString(), " vs. ", b.DebugString()));
    }
    dims[i] = da == 1 ? db : da;
  }
  return TensorShape::FromDims(dims);
}

class AddOp final : public OpKernel {
 public:
  explicit AddOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  bool IsExpensive() const override { return false; }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor a = ctx.input(0), b = ctx.input(1);
    absl::StatusOr<TensorShape> shape = BroadcastShape(a.shape(), b.shape());
    if (!shape.ok()) return shape.status();
    absl::StatusOr<Tensor*> out = ctx.allocate_output(0, *shape);
    if (!out.ok()) return out.status();
    return VisitDataType(a.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same_v<T, bool>) {
        return absl::InvalidArgumentError("Add of bool");
      } else {
        auto x = a.flat<T>(), y = b.flat<T>(), z = (*out)->flat<T>();
        const int64_t n = shape->num_elements();
        if (a.shape() == b.shape()) {
          for (int64_t i = 0; i < n; ++i) z[i] = AddValues(x[i], y[i]);
        } else if (b.NumElements() == 1) {
          for (int64_t i = 0; i < n; ++i) z[i] = AddValues(x[i], y[0]);
        } else if (a.NumElements() == 1) {
          for (int64_t i = 0; i < n; ++i) z[i] = AddValues(x[0], y[i]);
        } else {
          // General broadcast: walk output indices, mapping each to both inputs.
          const int rank = shape->rank();
          std::vector<int64_t> sa(rank, 0), sb(rank, 0);
          int64_t st_a = 1, st_b = 1;
          for (int d = rank - 1; d >= 0; --d) {
            const int ia = a.shape().rank() - rank + d, ib = b.shape().rank() - rank + d;
            const int64_t da = ia >= 0 ? a.shape().dim(ia) : 1;
            const int64_t db = ib >= 0 ? b.shape().dim(ib) : 1;
            sa[d] = da == 1 ? 0 : st_a;
            sb[d] = db == 1 ? 0 : st_b;
            st_a *= da;
            st_b *= db;
          }
          std::vector<int64_t> idx(rank, 0);
          int64_t oa = 0, ob = 0;
          for (int64_t i = 0; i < n; ++i) {
            z[i] = AddValues(x[oa], y[ob]);
            for (int d = rank - 1; d >= 0; --d) {
              ++idx[d];
              oa += sa[d];
              ob += sb[d];
              if (idx[d] < shape->dim(d)) break;
              oa -= sa[d] * idx[d];
              ob -= sb[d] * idx[d];
              idx[d] = 0;
            }
          }
        }
        return absl::OkStatus();
      }
    });
  }
};

class AddNOp final : public OpKernel {
 public:
  explicit AddNOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  bool IsExpensive() const override { return false; }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor first = ctx.input(0);
    for (int i = 1; i < ctx.num_inputs(); ++i) {
      if (ctx.input(i).shape() != first.shape()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Inputs to operation AddN of type AddN must have the same size and shape.  Input 0: ",
            first.shape().DebugString(), " != input ", i, ": ",
            ctx.input(i).shape().DebugString()));
      }
    }
    absl::StatusOr<Tensor*> out = ctx.allocate_output(0, first.shape());
    if (!out.ok()) return out.status();
    return VisitDataType(first.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::string>) {
        return absl::InvalidArgumentError("AddN of " + DataTypeString(first.dtype()));
      } else {
        auto z = (*out)->flat<T>();
        auto x0 = first.flat<T>();
        std::copy(x0.begin(), x0.end(), z.begin());
        for (int i = 1; i < ctx.num_inputs(); ++i) {
          auto x = ctx.input(i).flat<T>();
          for (size_t j = 0; j < z.size(); ++j) z[j] = AddValues(z[j], x[j]);
        }
        return absl::OkStatus();
      }
    });
  }
};

const std::vector<DataType> kAddTypes = {DT_BFLOAT16, DT_HALF,  DT_FLOAT,     DT_DOUBLE,
                                         DT_UINT8,    DT_INT8,  DT_INT16,     DT_INT32,
                                         DT_INT64,    DT_COMPLEX64, DT_COMPLEX128};

REGISTER_KERNEL(KernelDefBuilder("Add").Device(kDeviceCpu).TypeConstraint("T", [] {
  auto t = kAddTypes;
  t.push_back(DT_STRING);
  return t;
}()), AddOp);
REGISTER_KERNEL(KernelDefBuilder("AddV2").Device(kDeviceCpu).TypeConstraint("T", [] {
  auto t = kAddTypes;
  t.insert(t.end(), {DT_UINT16, DT_UINT32, DT_UINT64});
  return t;
}()), AddOp);
REGISTER_KERNEL(KernelDefBuilder("AddN").Device(kDeviceCpu).TypeConstraint("T", kAddTypes),
                AddNOp);

}  // namespace
}  // namespace rill
