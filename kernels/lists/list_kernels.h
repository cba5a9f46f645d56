// The TensorList kernels (ops/list_ops.cc; the value is kernels/lists/tensor_list.h), written once
// for every device: the list handle and the int32/shape arguments are host objects, the element
// tensors live in the device's memory, and the few kernels that move element data (FromTensor,
// Stack, and reading an unset element as zeros) do it through `Elements`, a device's element mover:
//
//   struct CpuListElements {
//     // Copies n elements of src from element src_off into dst at dst_off (same dtype).
//     static absl::Status Copy(OpKernelContext& ctx, const Tensor& src, int64_t src_off,
//                              Tensor* dst, int64_t dst_off, int64_t n);
//     // Writes zeros into n elements of dst from element off.
//     static absl::Status Zero(OpKernelContext& ctx, Tensor* dst, int64_t off, int64_t n);
//     // OK when element `index` of a list, about to be read, is in this device's memory (a list
//     // made on another device holds that device's tensors).
//     static absl::Status CheckItem(OpKernelContext& ctx, const Tensor& item, int64_t index);
//   };
//   REGISTER_KERNEL(KernelDefBuilder("TensorListStack").Device(kDeviceCpu),
//                   list_kernels::StackOp<CpuListElements>);
//
// Lists are values: SetItem, PushBack and PopBack output a new list sharing the element tensors
// (GetItem and SetItem copy no element data), except that SetItem updates a list that nothing but
// its input slot holds in place and outputs it (as TensorFlow's forwards such a list), so a loop
// writing step t of T does not copy T element handles a step. An unset element reads as zeros of
// the element shape when that shape is fully known. Errors are TensorFlow's texts
// (InvalidArgument): "Invalid data types; op elements float but list elements int32", "Trying to
// access element 3 in a list with 2 elements.", "Trying to pop from an empty list.", "Tried to
// stack elements of an empty list with non-fully-defined element_shape: ...". All cheap except
// Stack and FromTensor.
#ifndef RILL_KERNELS_LISTS_LIST_KERNELS_H_
#define RILL_KERNELS_LISTS_LIST_KERNELS_H_

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/op_kernel.h"
#include "kernels/lists/resize_elements.h"
#include "kernels/lists/tensor_list.h"

namespace rill {
namespace list_kernels {

inline absl::Status CheckDtype(DataType op, DataType list) {
  if (op == list) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("Invalid data types; op elements ",
                                                 DataTypeString(op), " but list elements ",
                                                 DataTypeString(list)));
}

inline absl::StatusOr<int64_t> ScalarIndex(const Tensor& t, const char* what) {
  if (t.shape().rank() != 0 || t.dtype() != DT_INT32) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " must be an int32 scalar, but got shape ", t.shape().DebugString()));
  }
  return t.flat<int32_t>()[0];
}

// Output `out` as zeros of the list's element shape merged with `requested`, for reading an unset
// element.
template <typename Elements>
absl::Status ZerosForUnset(OpKernelContext& ctx, const TensorList& list,
                           const PartialTensorShape& requested, int out) {
  RILL_ASSIGN_OR_RETURN(PartialTensorShape shape, MergeShapes(list.element_shape, requested));
  if (!shape.IsFullyDefined()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Trying to read an uninitialized tensor but element_shape is not fully defined: ",
        shape.DebugString(), " and no list element is set."));
  }
  RILL_ASSIGN_OR_RETURN(TensorShape dims, TensorShape::FromDims(shape.dims()));
  RILL_ASSIGN_OR_RETURN(Tensor * zeros, ctx.allocate_output(out, dims));
  return Elements::Zero(ctx, zeros, 0, zeros->NumElements());
}

class ListOpBase : public OpKernel {
 public:
  explicit ListOpBase(OpKernelConstruction& ctx) : OpKernel(ctx) {
    if (ctx.def().attr().count("element_dtype") > 0) {
      ctx.SetStatus(ctx.GetAttr("element_dtype", &element_dtype_));
    }
  }
  bool IsExpensive() const override { return false; }

 protected:
  absl::StatusOr<std::shared_ptr<const TensorList>> InputList(OpKernelContext& ctx) const {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<const TensorList> list,
                          ListFromTensor(ctx.input(0), type_string()));
    if (element_dtype_ != DT_INVALID)
      RILL_RETURN_IF_ERROR(CheckDtype(element_dtype_, list->element_dtype));
    return list;
  }
  DataType element_dtype_ = DT_INVALID;
};

// EmptyTensorList(element_shape, max_num_elements), TensorListReserve(element_shape, n).
class NewListOp final : public ListOpBase {
 public:
  explicit NewListOp(OpKernelConstruction& ctx)
      : ListOpBase(ctx), reserve_(ctx.def().op() == "TensorListReserve") {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    auto list = std::make_shared<TensorList>();
    list->element_dtype = element_dtype_;
    RILL_ASSIGN_OR_RETURN(list->element_shape, ElementShapeFromTensor(ctx.input(0)));
    RILL_ASSIGN_OR_RETURN(
        int64_t n, ScalarIndex(ctx.input(1), reserve_ ? "num_elements" : "max_num_elements"));
    if (reserve_) {
      if (n < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("The num_elements to reserve must be a non negative number, but got ", n));
      }
      RILL_RETURN_IF_ERROR(ResizeElements(&list->tensors, n, "a TensorList"));
    } else {
      list->max_num_elements = static_cast<int>(n);
    }
    ctx.set_output(0, TensorForList(std::move(list)));
    return absl::OkStatus();
  }

 private:
  const bool reserve_;
};

template <typename Elements>
class FromTensorOp final : public ListOpBase {
 public:
  explicit FromTensorOp(OpKernelConstruction& ctx) : ListOpBase(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& t = ctx.input(0);
    if (t.shape().rank() < 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Tensor must be at least a vector, but saw shape: ", t.shape().DebugString()));
    }
    std::vector<int64_t> dims(t.shape().dims().begin() + 1, t.shape().dims().end());
    RILL_ASSIGN_OR_RETURN(PartialTensorShape requested, ElementShapeFromTensor(ctx.input(1)));
    RILL_ASSIGN_OR_RETURN(const TensorShape element, TensorShape::FromDims(dims));
    if (!requested.IsCompatibleWith(element)) {
      return absl::InvalidArgumentError(
          absl::StrCat("Specified a list with shape ", requested.DebugString(),
                       " from a tensor with shape ", t.shape().DebugString()));
    }
    auto list = std::make_shared<TensorList>();
    list->element_dtype = t.dtype();
    list->element_shape = requested;
    const int64_t n = t.shape().dims()[0];
    const int64_t per = element.num_elements();
    for (int64_t i = 0; i < n; ++i) {
      RILL_ASSIGN_OR_RETURN(Tensor e, ctx.allocate_temp(t.dtype(), element));
      RILL_RETURN_IF_ERROR(Elements::Copy(ctx, t, i * per, &e, 0, per));
      list->tensors.push_back(std::move(e));
    }
    ctx.set_output(0, TensorForList(std::move(list)));
    return absl::OkStatus();
  }
};

// TensorListSplit(tensor, element_shape, lengths): element i is rows [lengths[0] + ... +
// lengths[i-1], ... + lengths[i]) of tensor; TensorFlow's checks and texts.
template <typename Elements>
class SplitOp final : public ListOpBase {
 public:
  explicit SplitOp(OpKernelConstruction& ctx) : ListOpBase(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(PartialTensorShape requested, ElementShapeFromTensor(ctx.input(1)));
    if (!requested.unknown_rank() && requested.rank() < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("TensorListSplit requires element_shape to be at least of rank 1, but saw: ",
                       requested.DebugString()));
    }
    const Tensor& t = ctx.input(0);
    if (t.shape().rank() < 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Tensor must be at least a vector, but saw shape: ", t.shape().DebugString()));
    }
    std::vector<int64_t> inner(t.shape().dims().begin() + 1, t.shape().dims().end());
    RILL_ASSIGN_OR_RETURN(const TensorShape inner_shape, TensorShape::FromDims(inner));
    if (!requested.unknown_rank()) {
      std::vector<int64_t> requested_inner(requested.dims().begin() + 1, requested.dims().end());
      if (!PartialTensorShape(requested_inner).IsCompatibleWith(inner_shape)) {
        return absl::InvalidArgumentError(absl::StrCat("tensor shape ", t.shape().DebugString(),
                                                       " is not compatible with element_shape ",
                                                       requested.DebugString()));
      }
    }
    const Tensor& lengths = ctx.input(2);
    if (lengths.shape().rank() != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Expected lengths to be a vector, received shape: ", lengths.shape().DebugString()));
    }
    auto list = std::make_shared<TensorList>();
    list->element_dtype = t.dtype();
    list->element_shape = requested;
    const int64_t rows = t.shape().dims()[0];
    int64_t per_row = 1;
    for (int64_t d : inner) per_row *= d;
    std::vector<int64_t> dims = inner;
    dims.insert(dims.begin(), 0);
    int64_t start = 0;
    for (int64_t i = 0; i < lengths.NumElements(); ++i) {
      const int64_t length = lengths.flat<int64_t>()[i];
      if (length < 0) {
        return absl::InvalidArgumentError(absl::StrCat("Invalid value in lengths: ", length));
      }
      if (length > rows - start) {
        return absl::InvalidArgumentError(absl::StrCat("Attempting to slice [", start, ", ",
                                                       start + length, "] from tensor with length ",
                                                       rows));
      }
      dims[0] = length;
      RILL_ASSIGN_OR_RETURN(const TensorShape shape, TensorShape::FromDims(dims));
      RILL_ASSIGN_OR_RETURN(Tensor e, ctx.allocate_temp(t.dtype(), shape));
      RILL_RETURN_IF_ERROR(Elements::Copy(ctx, t, start * per_row, &e, 0, length * per_row));
      list->tensors.push_back(std::move(e));
      start += length;
    }
    if (start != rows) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Unused values in tensor. Length of tensor: ", rows, " Values used: ", start));
    }
    ctx.set_output(0, TensorForList(std::move(list)));
    return absl::OkStatus();
  }
};

template <typename Elements>
class GetItemOp final : public ListOpBase {
 public:
  explicit GetItemOp(OpKernelConstruction& ctx) : ListOpBase(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<const TensorList> list, InputList(ctx));
    RILL_ASSIGN_OR_RETURN(int64_t index, ScalarIndex(ctx.input(1), "index"));
    if (index < 0 || index >= static_cast<int64_t>(list->tensors.size())) {
      return absl::InvalidArgumentError(absl::StrCat("Trying to access element ", index,
                                                     " in a list with ", list->tensors.size(),
                                                     " elements."));
    }
    const Tensor& item = list->tensors[index];
    if (item.IsInitialized()) {
      RILL_RETURN_IF_ERROR(Elements::CheckItem(ctx, item, index));
      ctx.set_output(0, item);
      return absl::OkStatus();
    }
    RILL_ASSIGN_OR_RETURN(PartialTensorShape requested, ElementShapeFromTensor(ctx.input(2)));
    return ZerosForUnset<Elements>(ctx, *list, requested, 0);
  }
};

class SetItemOp final : public ListOpBase {
 public:
  explicit SetItemOp(OpKernelConstruction& ctx) : ListOpBase(ctx) {
    if (ctx.def().attr().count("resize_if_index_out_of_bounds") > 0) {
      ctx.SetStatus(ctx.GetAttr("resize_if_index_out_of_bounds", &resize_));
    }
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<const TensorList> list, InputList(ctx));
    RILL_ASSIGN_OR_RETURN(int64_t index, ScalarIndex(ctx.input(1), "index"));
    const Tensor& item = ctx.input(2);
    const int64_t size = static_cast<int64_t>(list->tensors.size());
    if (index < 0 || (index >= size && !resize_)) {
      return absl::InvalidArgumentError(
          absl::StrCat("Trying to modify element ", index, " in a list with ", size, " elements."));
    }
    if (!list->element_shape.IsCompatibleWith(item.shape())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Tried to set a tensor with incompatible shape at a list index. Item element shape: ",
          item.shape().DebugString(), " list shape: ", list->element_shape.DebugString()));
    }
    if (Unshared(ctx.input_value(0), list)) {
      // Nothing else can read the list: `list` and the input's Variant are its only owners, and
      // the input tensor's buffer is this slot's alone. The object was made non-const.
      TensorList* own = const_cast<TensorList*>(list.get());
      if (index >= size) {
        RILL_RETURN_IF_ERROR(ResizeElements(&own->tensors, index + 1, "a TensorList"));
      }
      own->tensors[index] = item;
      ctx.set_output(0, ctx.input(0));
      return absl::OkStatus();
    }
    auto out = std::make_shared<TensorList>(*list);
    if (index >= size) {
      RILL_RETURN_IF_ERROR(ResizeElements(&out->tensors, index + 1, "a TensorList"));
    }
    out->tensors[index] = item;
    ctx.set_output(0, TensorForList(std::move(out)));
    return absl::OkStatus();
  }

  // Whether `list`, read from `input`, is held by nothing else: the input is no ref, its buffer
  // has one holder (the slot) and the list two owners (that buffer's Variant and `list`).
  static bool Unshared(const TensorValue& input, const std::shared_ptr<const TensorList>& list) {
    return !input.is_ref() && input.tensor.BufferHolders() == 1 && list.use_count() == 2;
  }

 private:
  bool resize_ = false;
};

template <typename Elements>
class StackOp final : public ListOpBase {
 public:
  explicit StackOp(OpKernelConstruction& ctx) : ListOpBase(ctx) {
    ctx.SetStatus(ctx.GetAttr("num_elements", &num_elements_));
  }
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<const TensorList> list, InputList(ctx));
    const int64_t n = static_cast<int64_t>(list->tensors.size());
    if (num_elements_ != -1 && num_elements_ != n) {
      return absl::InvalidArgumentError(
          absl::StrCat("Operation expected a list with ", num_elements_,
                       " elements but got a list with ", n, " elements."));
    }
    RILL_ASSIGN_OR_RETURN(PartialTensorShape requested, ElementShapeFromTensor(ctx.input(1)));
    RILL_ASSIGN_OR_RETURN(PartialTensorShape shape, MergeShapes(list->element_shape, requested));
    for (const Tensor& t : list->tensors) {
      if (!t.IsInitialized()) continue;
      RILL_ASSIGN_OR_RETURN(
          shape, MergeShapes(shape, PartialTensorShape(std::vector<int64_t>(
                                        t.shape().dims().begin(), t.shape().dims().end()))));
    }
    if (!shape.IsFullyDefined()) {
      return absl::InvalidArgumentError(absl::StrCat(
          n == 0 ? "Tried to stack elements of an empty list with non-fully-defined "
                   "element_shape: "
                 : "Tried to stack list which only contains uninitialized tensors and has a "
                   "non-fully-defined element_shape: ",
          shape.DebugString()));
    }
    std::vector<int64_t> dims{n};
    dims.insert(dims.end(), shape.dims().begin(), shape.dims().end());
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    const int64_t per = n > 0 ? out_shape.num_elements() / n : 0;
    for (int64_t i = 0; i < n; ++i) {
      const Tensor& t = list->tensors[i];
      if (t.IsInitialized()) {
        RILL_RETURN_IF_ERROR(Elements::CheckItem(ctx, t, i));
        RILL_RETURN_IF_ERROR(Elements::Copy(ctx, t, 0, out, i * per, per));
      } else {
        RILL_RETURN_IF_ERROR(Elements::Zero(ctx, out, i * per, per));
      }
    }
    return absl::OkStatus();
  }

 private:
  int64_t num_elements_ = -1;
};

class LengthOp final : public ListOpBase {
 public:
  explicit LengthOp(OpKernelConstruction& ctx) : ListOpBase(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<const TensorList> list, InputList(ctx));
    ctx.set_output(0, Tensor::Scalar<int32_t>(static_cast<int32_t>(list->tensors.size())));
    return absl::OkStatus();
  }
};

class ElementShapeOp final : public ListOpBase {
 public:
  explicit ElementShapeOp(OpKernelConstruction& ctx) : ListOpBase(ctx) {
    ctx.SetStatus(ctx.GetAttr("shape_type", &shape_type_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<const TensorList> list, InputList(ctx));
    const PartialTensorShape& s = list->element_shape;
    const std::vector<int64_t> dims = s.unknown_rank() ? std::vector<int64_t>{-1} : s.dims();
    const TensorShape shape =
        s.unknown_rank() ? TensorShape() : TensorShape({static_cast<int64_t>(dims.size())});
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    for (size_t i = 0; i < dims.size(); ++i) {
      if (shape_type_ == DT_INT32) {
        out->flat<int32_t>()[i] = static_cast<int32_t>(dims[i]);
      } else {
        out->flat<int64_t>()[i] = dims[i];
      }
    }
    return absl::OkStatus();
  }

 private:
  DataType shape_type_ = DT_INT32;
};

class PushBackOp final : public ListOpBase {
 public:
  explicit PushBackOp(OpKernelConstruction& ctx) : ListOpBase(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<const TensorList> list, InputList(ctx));
    const Tensor& item = ctx.input(1);
    if (!list->element_shape.IsCompatibleWith(item.shape())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Tried to append a tensor with incompatible shape to a list. Op element shape: ",
          item.shape().DebugString(), " list shape: ", list->element_shape.DebugString()));
    }
    if (list->max_num_elements != -1 &&
        static_cast<int>(list->tensors.size()) >= list->max_num_elements) {
      return absl::InvalidArgumentError(
          absl::StrCat("Tried to push item into a full list list size: ", list->tensors.size(),
                       " max_num_elements: ", list->max_num_elements));
    }
    auto out = std::make_shared<TensorList>(*list);
    out->tensors.push_back(item);
    ctx.set_output(0, TensorForList(std::move(out)));
    return absl::OkStatus();
  }
};

template <typename Elements>
class PopBackOp final : public ListOpBase {
 public:
  explicit PopBackOp(OpKernelConstruction& ctx) : ListOpBase(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<const TensorList> list, InputList(ctx));
    if (list->tensors.empty()) {
      return absl::InvalidArgumentError("Trying to pop from an empty list.");
    }
    const Tensor& item = list->tensors.back();
    if (item.IsInitialized()) {
      RILL_RETURN_IF_ERROR(
          Elements::CheckItem(ctx, item, static_cast<int64_t>(list->tensors.size()) - 1));
      ctx.set_output(1, item);
    } else {
      RILL_ASSIGN_OR_RETURN(PartialTensorShape requested, ElementShapeFromTensor(ctx.input(1)));
      RILL_RETURN_IF_ERROR(ZerosForUnset<Elements>(ctx, *list, requested, 1));
    }
    auto out = std::make_shared<TensorList>(*list);
    out->tensors.pop_back();
    ctx.set_output(0, TensorForList(std::move(out)));
    return absl::OkStatus();
  }
};

// TensorListConcatV2(list, element_shape, leading_dims): the elements (each at least a vector,
// equal past dim 0) joined along dim 0, and each one's dim 0. An unset element is zeros whose dim
// 0 is leading_dims[i], or the dim 0 every set element shares (or element_shape's first dim).
// TensorListConcat (the first version) takes element_shape from its attr alone (not merged with
// the list's), checks no first dim, and refuses unset elements, as TensorFlow's does.
template <typename Elements>
class ConcatOp final : public ListOpBase {
 public:
  explicit ConcatOp(OpKernelConstruction& ctx)
      : ListOpBase(ctx), v1_(ctx.def().op() == "TensorListConcat") {
    if (!v1_) return;
    TensorShapeProto proto;
    ctx.SetStatus(ctx.GetAttr("element_shape", &proto));
    absl::StatusOr<PartialTensorShape> shape = PartialTensorShape::FromProto(proto);
    ctx.SetStatus(shape.status());
    if (shape.ok()) attr_shape_ = *std::move(shape);
  }
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<const TensorList> list, InputList(ctx));
    PartialTensorShape shape = attr_shape_;
    if (!v1_) {
      RILL_ASSIGN_OR_RETURN(PartialTensorShape requested, ElementShapeFromTensor(ctx.input(1)));
      RILL_ASSIGN_OR_RETURN(shape, MergeShapes(list->element_shape, requested));
    }
    if (!shape.unknown_rank() && shape.rank() < 1) {
      return absl::InvalidArgumentError(
          "Concat requires elements to be at least vectors, found scalars instead.");
    }
    int64_t first_dim = shape.unknown_rank() || v1_ ? -1 : shape.dims()[0];
    PartialTensorShape rest;
    if (!shape.unknown_rank()) {
      rest = PartialTensorShape(std::vector<int64_t>(shape.dims().begin() + 1, shape.dims().end()));
    }
    const int64_t n = static_cast<int64_t>(list->tensors.size());
    if (n == 0 && !rest.IsFullyDefined()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "All except the first dimension must be fully defined when concating an empty tensor "
          "list. element_shape: ",
          rest.DebugString()));
    }
    if (!list->element_shape.IsFullyDefined()) {
      bool infer = first_dim == -1;
      int64_t inferred = first_dim;
      for (int64_t i = 0; i < n; ++i) {
        const Tensor& t = list->tensors[i];
        if (!t.IsInitialized()) continue;
        const auto dims = t.shape().dims();
        if (dims.empty()) {
          return absl::InvalidArgumentError(absl::StrCat("Concat saw a scalar shape at index ", i,
                                                         " but requires at least vectors."));
        }
        RILL_ASSIGN_OR_RETURN(rest, MergeShapes(rest, PartialTensorShape(std::vector<int64_t>(
                                                          dims.begin() + 1, dims.end()))));
        if (first_dim != -1 && first_dim != dims[0]) {
          return absl::InvalidArgumentError(absl::StrCat(
              "First entry of element_shape input does not match the first dim of list element "
              "at index: ",
              i, " Expected: ", first_dim, " Actual: ", dims[0]));
        }
        if (infer) {
          if (inferred == -1) {
            inferred = dims[0];
          } else if (inferred != dims[0]) {
            inferred = -1;
            infer = false;
          }
        }
      }
      first_dim = inferred;
    }
    if (!rest.IsFullyDefined()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Trying to concat list with only uninitialized tensors but "
                       "element_shape_except_first_dim is not fully defined: ",
                       rest.DebugString()));
    }
    const Tensor empty_leading(DT_INT64, TensorShape({0}));
    const Tensor& leading = v1_ ? empty_leading : ctx.input(2);
    RILL_ASSIGN_OR_RETURN(Tensor * lengths, ctx.allocate_output(1, TensorShape({n})));
    int64_t rows = 0;
    for (int64_t i = 0; i < n; ++i) {
      const Tensor& t = list->tensors[i];
      int64_t dim;
      if (t.IsInitialized()) {
        dim = t.shape().dim(0);
      } else if (v1_) {
        return absl::InvalidArgumentError(
            "Concating lists with uninitialized tensors is not supported in this version of "
            "TensorListConcat. Consider updating your GraphDef to run the newer version.");
      } else if (i >= leading.NumElements() && first_dim != -1) {
        dim = first_dim;
      } else if (i >= leading.NumElements()) {
        return absl::InvalidArgumentError(
            absl::StrCat("List contains uninitialized tensor at index ", i,
                         " but leading_dims has only ", leading.NumElements(), " elements."));
      } else {
        dim = leading.flat<int64_t>()[i];
      }
      lengths->flat<int64_t>()[i] = dim;
      rows += dim;
    }
    std::vector<int64_t> dims{rows};
    dims.insert(dims.end(), rest.dims().begin(), rest.dims().end());
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    const int64_t per_row = out_shape.num_elements() / rows;
    int64_t at = 0;
    for (int64_t i = 0; i < n; ++i) {
      const Tensor& t = list->tensors[i];
      const int64_t count = lengths->flat<int64_t>()[i] * per_row;
      if (t.IsInitialized()) {
        RILL_RETURN_IF_ERROR(Elements::CheckItem(ctx, t, i));
        RILL_RETURN_IF_ERROR(Elements::Copy(ctx, t, 0, out, at, count));
      } else {
        RILL_RETURN_IF_ERROR(Elements::Zero(ctx, out, at, count));
      }
      at += count;
    }
    return absl::OkStatus();
  }

 private:
  const bool v1_;
  PartialTensorShape attr_shape_;  // TensorListConcat's element_shape attr
};

}  // namespace list_kernels
}  // namespace rill

#endif  // RILL_KERNELS_LISTS_LIST_KERNELS_H_
