// Sparse-tensor ops of sparse feature pipelines on the CPU (indices [nnz, rank] int64, values
// [nnz], dense_shape [rank] int64):
//
//   SparseSlice(indices, values, shape, start, size): the entries with start <= index < start +
//     size in every dim, shifted by -start, in input order; the output shape is the overlap of
//     the slice with the input's shape.
//   SparseSoftmax(sp_indices, sp_values, sp_shape): softmax over the innermost dim of each group
//     of entries sharing the outer indices (exp(v - max) / sum); the output values are in the
//     row-major order of the indices, as TensorFlow sorts them first.
//   SparseTensorDenseAdd(a_indices, a_values, a_shape, b): b plus the sparse tensor (repeated
//     indices add up; integers wrap, half adds in float).
//
// Errors are InvalidArgument with TensorFlow's texts ("Sparse indices must be rank 2 but is rank
// 1", "Expected start to be a vector of length 2 but got length 3", "Input
// should have rank >= 2, but received shape: 4", "Dimension 1 does not equal (no broadcasting is
// supported): sparse side 3 vs dense side 4", ...). Kernels are immutable after construction;
// Compute is thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/layout_util.h"
#include "kernels/math_lib/cwise_math.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

using cwise_internal::Load;
using cwise_internal::Store;

// SparseTensor::Create's checks: indices [nnz, rank], values [nnz], rank == shape's length.
absl::Status CheckEntries(const Tensor& indices, const Tensor& values, int64_t rank) {
  if (indices.shape().dim(0) != values.shape().dim(0)) {
    return absl::InvalidArgumentError(absl::StrCat("Number of elements in indices (",
                                                   indices.shape().dim(0), ") and values (",
                                                   values.shape().dim(0), ") do not match"));
  }
  if (indices.shape().dim(1) != rank) {
    return absl::InvalidArgumentError(absl::StrCat("Index rank (", indices.shape().dim(1),
                                                   ") and shape rank (", rank, ") do not match"));
  }
  return absl::OkStatus();
}

class SparseSliceOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& indices = ctx.input(0);
    const Tensor& values = ctx.input(1);
    const char* names[] = {"indices", "values", "shape"};
    for (int i = 0; i < 3; ++i) {
      const int want = i == 0 ? 2 : 1;
      if (ctx.input(i).shape().rank() != want) {
        return absl::InvalidArgumentError(absl::StrCat("Sparse ", names[i], " must be rank ", want,
                                                       " but is rank ",
                                                       ctx.input(i).shape().rank()));
      }
    }
    for (int i = 3; i < 5; ++i) {
      if (ctx.input(i).shape().rank() != 1) {
        return absl::InvalidArgumentError(absl::StrCat("Input ", i == 3 ? "start" : "size",
                                                       " should be a vector but received shape ",
                                                       ctx.input(i).shape().DebugString()));
      }
    }
    const std::vector<int64_t> dims = IndexValues(ctx.input(2));
    const std::vector<int64_t> start = IndexValues(ctx.input(3));
    const std::vector<int64_t> size = IndexValues(ctx.input(4));
    const int64_t rank = static_cast<int64_t>(dims.size());
    if (static_cast<int64_t>(start.size()) != rank) {
      return absl::InvalidArgumentError(absl::StrCat("Expected start to be a vector of length ",
                                                     rank, " but got length ", start.size()));
    }
    if (static_cast<int64_t>(size.size()) != rank) {
      return absl::InvalidArgumentError(absl::StrCat("Expected size to be a vector of length ",
                                                     rank, " but got length ", size.size()));
    }
    for (int64_t d : dims) {
      if (d < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("Expected shape dimensions to be non-negative, got ", d));
      }
    }
    for (int64_t d : size) {
      if (d < 0) {
        return absl::InvalidArgumentError(absl::StrCat("Expected a non-negative size, got ", d));
      }
    }
    RILL_RETURN_IF_ERROR(TensorShape::FromDims(dims).status());
    RILL_RETURN_IF_ERROR(CheckEntries(indices, values, rank));
    std::vector<int64_t> out_dims(rank);
    for (int64_t d = 0; d < rank; ++d) {
      if (start[d] < dims[d] - size[d]) {
        out_dims[d] = size[d];
      } else if (start[d] < dims[d]) {
        out_dims[d] = dims[d] - start[d];
      } else {
        out_dims[d] = 0;
      }
    }
    RILL_RETURN_IF_ERROR(TensorShape::FromDims(out_dims).status());
    const std::vector<int64_t> idx = IndexValues(indices);
    const int64_t nnz = indices.shape().dim(0);
    std::vector<int64_t> hits;
    for (int64_t n = 0; n < nnz; ++n) {
      bool hit = true;
      for (int64_t d = 0; d < rank && hit; ++d) {
        const int64_t i = idx[n * rank + d];
        // start <= i < start + size, without overflowing start + size.
        hit = i >= start[d] && (size[d] > 0 && i - start[d] < size[d]);
      }
      if (hit) hits.push_back(n);
    }
    const int64_t count = static_cast<int64_t>(hits.size());
    RILL_ASSIGN_OR_RETURN(Tensor * out_idx, ctx.allocate_output(0, TensorShape({count, rank})));
    RILL_ASSIGN_OR_RETURN(Tensor * out_val, ctx.allocate_output(1, TensorShape({count})));
    RILL_ASSIGN_OR_RETURN(Tensor * out_shape, ctx.allocate_output(2, TensorShape({rank})));
    int64_t* oi = out_idx->flat<int64_t>().data();
    for (int64_t k = 0; k < count; ++k) {
      for (int64_t d = 0; d < rank; ++d) oi[k * rank + d] = idx[hits[k] * rank + d] - start[d];
      RILL_RETURN_IF_ERROR(CopyElements(values, hits[k], out_val, k, 1));
    }
    std::copy(out_dims.begin(), out_dims.end(), out_shape->flat<int64_t>().data());
    return absl::OkStatus();
  }
};

// TensorFlow's first checks of a sparse operand given as (indices, values, shape) named
// `prefix`indices, `prefix`values and `prefix`shape: indices a matrix, values and shape vectors.
absl::Status CheckSparseOperand(const Tensor& indices, const Tensor& values, const Tensor& shape,
                                absl::string_view prefix) {
  if (indices.shape().rank() != 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Input ", prefix,
        "indices should be a matrix but received shape: ", indices.shape().DebugString()));
  }
  if (values.shape().rank() != 1 || shape.shape().rank() != 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Inputs ", prefix, "values and ", prefix, "shape should be vectors but received shapes: ",
        values.shape().DebugString(), " and ", shape.shape().DebugString()));
  }
  return absl::OkStatus();
}

class SparseSoftmaxOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& indices = ctx.input(0);
    const Tensor& values = ctx.input(1);
    const Tensor& shape_t = ctx.input(2);
    RILL_RETURN_IF_ERROR(CheckSparseOperand(indices, values, shape_t, "sp_"));
    const std::vector<int64_t> dims = IndexValues(shape_t);
    if (dims.size() < 2) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Input should have rank >= 2, but received shape: ",
          absl::StrJoin(dims.begin(), dims.begin() + std::min<size_t>(3, dims.size()), " ")));
    }
    for (int64_t d : dims) {
      if (d < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("Expected shape dimensions to be non-negative, got ", d));
      }
    }
    RILL_RETURN_IF_ERROR(TensorShape::FromDims(dims).status());
    const int64_t rank = static_cast<int64_t>(dims.size());
    if (indices.shape().dim(0) != values.shape().dim(0)) {
      return absl::InvalidArgumentError(
          absl::StrCat("indices and values rows (indexing dimension) must match. (indices = ",
                       indices.shape().dim(0), ", values = ", values.shape().dim(0), ")"));
    }
    if (indices.shape().dim(1) != rank) {
      return absl::InvalidArgumentError("Order length must be SparseTensor rank.");
    }
    const int64_t nnz = indices.shape().dim(0);
    const std::vector<int64_t> idx = IndexValues(indices);
    std::vector<int64_t> order(nnz);
    std::iota(order.begin(), order.end(), 0);
    auto row = [&](int64_t n) { return idx.begin() + n * rank; };
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      return std::lexicographical_compare(row(a), row(a) + rank, row(b), row(b) + rank);
    });
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, TensorShape({nnz})));
    return VisitKernelTypes<half, float, double>(*this, values.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* v = values.flat<T>().data();
      T* o = out->flat<T>().data();
      for (int64_t start = 0; start < nnz;) {
        int64_t end = start + 1;
        while (end < nnz &&
               std::equal(row(order[start]), row(order[start]) + rank - 1, row(order[end]))) {
          ++end;
        }
        // T's arithmetic: each step rounded to T (half computes in float and rounds).
        T max = v[order[start]];
        for (int64_t k = start + 1; k < end; ++k) {
          max = Load(v[order[k]]) > Load(max) ? v[order[k]] : max;
        }
        T sum = Store<T>(0);
        for (int64_t k = start; k < end; ++k) {
          o[k] = Store<T>(std::exp(Load(Store<T>(Load(v[order[k]]) - Load(max)))));
          sum = Store<T>(Load(sum) + Load(o[k]));
        }
        const T inverse = Store<T>(decltype(Load(sum))(1) / Load(sum));
        for (int64_t k = start; k < end; ++k) o[k] = Store<T>(Load(o[k]) * Load(inverse));
        start = end;
      }
      return absl::OkStatus();
    });
  }
};

class SparseTensorDenseAddOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& indices = ctx.input(0);
    const Tensor& values = ctx.input(1);
    const Tensor& shape_t = ctx.input(2);
    const Tensor& b = ctx.input(3);
    RILL_RETURN_IF_ERROR(CheckSparseOperand(indices, values, shape_t, "a_"));
    const int64_t nnz = indices.shape().dim(0);
    const int64_t rank = indices.shape().dim(1);
    if (values.NumElements() != nnz) {
      return absl::InvalidArgumentError(
          absl::StrCat("Dimensions ", nnz, " and ", values.NumElements(), " are not compatible"));
    }
    if (shape_t.NumElements() != rank) {
      return absl::InvalidArgumentError(
          absl::StrCat("Dimensions ", rank, " and ", shape_t.NumElements(), " are not compatible"));
    }
    if (shape_t.NumElements() != b.shape().rank()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Two operands have different ranks; received: ", shape_t.NumElements(),
                       " and ", b.shape().rank()));
    }
    const std::vector<int64_t> dims = IndexValues(shape_t);
    for (int64_t d = 0; d < rank; ++d) {
      if (dims[d] != b.shape().dim(d)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Dimension ", d, " does not equal (no broadcasting is supported): sparse side ",
            dims[d], " vs dense side ", b.shape().dim(d)));
      }
    }
    const std::vector<int64_t> idx = IndexValues(indices);
    for (int64_t n = 0; n < nnz; ++n) {
      for (int64_t d = 0; d < rank; ++d) {
        const int64_t i = idx[n * rank + d];
        if (i < 0 || i >= dims[d]) {
          return absl::InvalidArgumentError(
              absl::StrCat("Sparse tensor has an invalid index on dimension ", d, ": a_indices(", n,
                           ",", d, ") = ", i, ", dense tensor shape: ", absl::StrJoin(dims, " ")));
        }
      }
    }
    if (rank < 1 || rank > 5) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Only tensors with ranks between 1 and 5 are currently supported.  Tensor rank: ", rank));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, b.shape()));
    RILL_RETURN_IF_ERROR(CopyElements(b, 0, out, 0, b.NumElements()));
    return VisitKernelTypes<float, double, half, int32_t, int64_t, uint8_t, int8_t, int16_t>(
        *this, b.dtype(), [&](auto tag) {
          using T = typename decltype(tag)::type;
          T* o = out->flat<T>().data();
          const T* v = values.flat<T>().data();
          for (int64_t n = 0; n < nnz; ++n) {
            int64_t at = 0;
            for (int64_t d = 0; d < rank; ++d) at = at * dims[d] + idx[n * rank + d];
            o[at] = Store<T>(cwise_math::WrapAdd(Load(o[at]), Load(v[n])));
          }
          return absl::OkStatus();
        });
  }
};

REGISTER_KERNEL(KernelDefBuilder("SparseSlice").Device(kDeviceCpu), SparseSliceOp);
REGISTER_KERNEL(KernelDefBuilder("SparseSoftmax")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<half, float, double>()),
                SparseSoftmaxOp);
REGISTER_KERNEL(KernelDefBuilder("SparseTensorDenseAdd")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double, half, int32_t, int64_t, uint8_t,
                                                     int8_t, int16_t>())
                    .TypeConstraint("Tindices", DataTypesOf<int32_t, int64_t>()),
                SparseTensorDenseAddOp);

}  // namespace
}  // namespace rill
