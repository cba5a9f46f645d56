#include "kernels/math_lib/conv_window.h"

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "ops/attr_value_util.h"

namespace rill {

absl::StatusOr<Conv2DAttrs> ParseConv2DAttrs(const OpKernelConstruction& ctx, bool has_dilations) {
  Conv2DAttrs a;
  RILL_RETURN_IF_ERROR(ctx.GetAttr("strides", &a.strides));
  std::string padding, format = "NHWC";
  RILL_RETURN_IF_ERROR(ctx.GetAttr("padding", &padding));
  if (ctx.GetAttr("data_format", &format).ok()) a.nchw = format == "NCHW";
  (void)ctx.GetAttr("explicit_paddings", &a.explicit_paddings);  // absent on older ops
  a.padding = PaddingFromString(padding);
  const int n = 0, c = a.nchw ? 1 : 3;
  // TensorFlow reads strides and dilations as int32: a value past it is its shape function's
  // error, not a window of 2^63 (which ran, giving zeros or the input).
  for (int64_t v : a.strides) RILL_RETURN_IF_ERROR(CheckInt32Attr("strides", v));
  if (a.strides.size() != 4) {
    return absl::InvalidArgumentError("Sliding window strides field must specify 4 dimensions");
  }
  if (a.strides[n] != 1 || a.strides[c] != 1) {
    return absl::InvalidArgumentError(
        "Current implementation does not yet support strides in the batch and depth dimensions.");
  }
  a.dilations = {1, 1, 1, 1};
  if (has_dilations) {
    RILL_RETURN_IF_ERROR(ctx.GetAttr("dilations", &a.dilations));
    for (int64_t v : a.dilations) RILL_RETURN_IF_ERROR(CheckInt32Attr("dilations", v));
    if (a.dilations.size() != 4) {
      return absl::InvalidArgumentError("Sliding window dilations field must specify 4 dimensions");
    }
    if (a.dilations[n] != 1 || a.dilations[c] != 1) {
      return absl::InvalidArgumentError(
          "Current implementation does not yet support dilations in the batch and depth "
          "dimensions.");
    }
  }
  if (a.padding != Padding::kExplicit && !a.explicit_paddings.empty()) {
    return absl::InvalidArgumentError(
        "explicit_paddings attribute must be empty if the padding attribute is not EXPLICIT");
  }
  if (a.padding == Padding::kExplicit) {
    if (a.explicit_paddings.size() != 8) {
      return absl::InvalidArgumentError(
          absl::StrCat("explicit_paddings attribute must contain 8 values, but got: ",
                       a.explicit_paddings.size()));
    }
    for (int64_t p : a.explicit_paddings) {
      if (p < 0) return absl::InvalidArgumentError("All explicit_paddings must be non-negative");
    }
  }
  return a;
}

absl::StatusOr<ConvWindows> NhwcWindows(const Conv2DAttrs& attrs, int64_t in_h, int64_t in_w,
                                        int64_t k_h, int64_t k_w) {
  ConvWindows w;
  RILL_ASSIGN_OR_RETURN(Window h, attrs.WindowAlong(1, in_h, k_h));
  RILL_ASSIGN_OR_RETURN(Window v, attrs.WindowAlong(2, in_w, k_w));
  w.out_h = h.out;
  w.out_w = v.out;
  w.pad_h = h.pad_before;
  w.pad_w = v.pad_before;
  w.stride_h = attrs.strides[1];
  w.stride_w = attrs.strides[2];
  w.dil_h = attrs.dilations[1];
  w.dil_w = attrs.dilations[2];
  return w;
}

namespace {

// SpaceToBatchND's check on the height and width of a folded convolution's input (see
// Conv2DAttrs::space_to_batch_block).
absl::Status CheckSpaceToBatchPadding(const Conv2DAttrs& attrs, int64_t in_h, int64_t in_w) {
  if (attrs.space_to_batch_block.empty()) return absl::OkStatus();
  const int64_t sizes[] = {in_h, in_w};
  for (int k = 0; k < 2; ++k) {
    int64_t padded;
    if (__builtin_add_overflow(attrs.space_to_batch_paddings[2 * k], sizes[k], &padded) ||
        __builtin_add_overflow(padded, attrs.space_to_batch_paddings[2 * k + 1], &padded)) {
      return absl::InvalidArgumentError(absl::StrCat("padded_shape[", k, "] overflows int64"));
    }
    const int64_t block = attrs.space_to_batch_block[k];
    if (padded % block != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "padded_shape[", k, "]=", padded, " is not divisible by block_shape[", k, "]=", block));
    }
  }
  return absl::OkStatus();
}

// The errors the unfolded graph gives after SpaceToBatchND for a folded convolution's k_h x k_w
// filter (see Conv2DAttrs::space_to_batch_block): the VALID convolution of the P / b maps, then
// BatchToSpaceND's crops of its Z * b rows. REQUIRES: CheckSpaceToBatchPadding passed.
absl::Status CheckUnfoldedAtrousWindows(const Conv2DAttrs& attrs, int64_t in_h, int64_t in_w,
                                        int64_t k_h, int64_t k_w) {
  if (attrs.space_to_batch_block.empty() || attrs.batch_to_space_crops.size() != 4) {
    return absl::OkStatus();
  }
  const int64_t sizes[] = {in_h, in_w}, filter[] = {k_h, k_w};
  int64_t rows[2];  // Z * b per dim
  for (int k = 0; k < 2; ++k) {
    const int64_t block = attrs.space_to_batch_block[k];
    const int64_t padded =
        attrs.space_to_batch_paddings[2 * k] + sizes[k] + attrs.space_to_batch_paddings[2 * k + 1];
    absl::StatusOr<Window> w = ComputeWindow(padded / block, filter[k], 1, 1, Padding::kValid);
    if (!w.ok()) return attrs.atrous_nodes.At(1, w.status());
    rows[k] = w->out * block;
  }
  for (int k = 0; k < 2; ++k) {
    int64_t cropped;
    if (__builtin_sub_overflow(rows[k], attrs.batch_to_space_crops[2 * k], &cropped) ||
        __builtin_sub_overflow(cropped, attrs.batch_to_space_crops[2 * k + 1], &cropped)) {
      return attrs.atrous_nodes.At(
          2, absl::InvalidArgumentError(absl::StrCat("cropped_shape[", k, "] overflows int64")));
    }
    if (cropped < 0) {
      return attrs.atrous_nodes.At(
          2, absl::InvalidArgumentError(
                 absl::StrCat("cropped_shape[", k, "]=", cropped, " must be non-negative")));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ConvGeometry> NhwcConvGeometry(const Conv2DAttrs& attrs, const TensorShape& in_shape,
                                              const TensorShape& filter, bool grouped) {
  ConvGeometry g;
  g.batch = in_shape.dim(0);
  g.in_h = in_shape.dim(1);
  g.in_w = in_shape.dim(2);
  g.in_c = in_shape.dim(3);
  RILL_RETURN_IF_ERROR(attrs.atrous_nodes.At(0, CheckSpaceToBatchPadding(attrs, g.in_h, g.in_w)));
  g.k_h = filter.dim(0);
  g.k_w = filter.dim(1);
  g.out_c = filter.dim(3);
  const int64_t filter_c = filter.dim(2);
  if (filter_c <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("filter depth must be stricly positive, got ", filter_c));
  }
  if (g.in_c % filter_c != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "input depth must be evenly divisible by filter depth: ", g.in_c, " vs ", filter_c));
  }
  if (filter_c != g.in_c) {
    if (!grouped) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Gradients for grouped convolutions are not supported on CPU. Please file a feature "
          "request if you run into this issue. Computed input depth ",
          g.in_c, " doesn't match filter input depth ", filter_c));
    }
    g.groups = g.in_c / filter_c;
    if (g.groups > 0 && g.out_c % g.groups != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("output depth must be evenly divisible by number of groups: ", g.out_c,
                       " vs ", g.groups));
    }
  }
  RILL_RETURN_IF_ERROR(CheckUnfoldedAtrousWindows(attrs, g.in_h, g.in_w, g.k_h, g.k_w));
  RILL_ASSIGN_OR_RETURN(static_cast<ConvWindows&>(g),
                        NhwcWindows(attrs, g.in_h, g.in_w, g.k_h, g.k_w));
  return g;
}

absl::StatusOr<ConvGeometry> NhwcDepthwiseGeometry(const Conv2DAttrs& attrs,
                                                   const TensorShape& in_shape,
                                                   const TensorShape& filter) {
  if (in_shape.rank() != 4) {
    return absl::InvalidArgumentError(
        absl::StrCat("input must be 4-dimensional", in_shape.DebugString()));
  }
  if (filter.rank() != 4) {
    return absl::InvalidArgumentError(
        absl::StrCat("filter must be 4-dimensional: ", filter.DebugString()));
  }
  ConvGeometry g;
  g.batch = in_shape.dim(0);
  g.in_h = in_shape.dim(1);
  g.in_w = in_shape.dim(2);
  g.in_c = in_shape.dim(3);
  RILL_RETURN_IF_ERROR(attrs.atrous_nodes.At(0, CheckSpaceToBatchPadding(attrs, g.in_h, g.in_w)));
  if (filter.dim(2) != g.in_c) {
    return absl::InvalidArgumentError(
        absl::StrCat("input and filter must have the same depth: ", g.in_c, " vs ", filter.dim(2)));
  }
  g.k_h = filter.dim(0);
  g.k_w = filter.dim(1);
  g.out_c = g.in_c * filter.dim(3);
  g.groups = g.in_c;
  RILL_RETURN_IF_ERROR(CheckUnfoldedAtrousWindows(attrs, g.in_h, g.in_w, g.k_h, g.k_w));
  RILL_ASSIGN_OR_RETURN(static_cast<ConvWindows&>(g),
                        NhwcWindows(attrs, g.in_h, g.in_w, g.k_h, g.k_w));
  return g;
}

absl::Status CheckConvolutionFourDims(const Tensor& t, const char* what) {
  if (t.shape().rank() == 4) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("convolution ", what, " must be 4-dimensional: ", t.shape().DebugString()));
}

absl::Status CheckFilterHasElements(const Tensor& filter) {
  if (filter.NumElements() > 0) return absl::OkStatus();
  return absl::InvalidArgumentError(
      "filter must not have zero elements (i.e. all dimensions must be non-zero)");
}

absl::StatusOr<Conv2DAttrs> ParseNhwcConvAttrs(const OpKernelConstruction& ctx) {
  RILL_ASSIGN_OR_RETURN(Conv2DAttrs attrs, ParseConv2DAttrs(ctx, /*has_dilations=*/true));
  if (attrs.nchw) {
    return absl::UnimplementedError(
        absl::StrCat("The ", ctx.def().op(),
                     " op currently only supports the NHWC tensor format on the CPU. The op was "
                     "given the format: NCHW"));
  }
  const auto& a = ctx.def().attr();
  if (a.count("_rill_space_to_batch_block") > 0 || a.count("_rill_space_to_batch_paddings") > 0 ||
      a.count("_rill_batch_to_space_crops") > 0) {
    (void)ctx.GetAttr("_rill_space_to_batch_block", &attrs.space_to_batch_block);
    (void)ctx.GetAttr("_rill_space_to_batch_paddings", &attrs.space_to_batch_paddings);
    (void)ctx.GetAttr("_rill_batch_to_space_crops", &attrs.batch_to_space_crops);
    // The crops may be absent: then the convolution's own window errors stand for the unfolded
    // graph's later ones.
    bool ok = attrs.space_to_batch_block.size() == 2 && attrs.space_to_batch_paddings.size() == 4 &&
              (attrs.batch_to_space_crops.empty() || attrs.batch_to_space_crops.size() == 4);
    for (int64_t b : attrs.space_to_batch_block) ok = ok && b >= 1;
    for (int64_t p : attrs.space_to_batch_paddings) ok = ok && p >= 0;
    for (int64_t c : attrs.batch_to_space_crops) ok = ok && c >= 0;
    if (!ok) {
      return absl::InvalidArgumentError(
          "_rill_space_to_batch_block must be 2 values of at least 1 with 4 non-negative "
          "_rill_space_to_batch_paddings and _rill_batch_to_space_crops");
    }
    attrs.atrous_nodes = ErrorNodes(ctx);
  }
  return attrs;
}

}  // namespace rill
