#include "kernels/nn/pool_geometry.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "ops/attr_value_util.h"

namespace rill {

// Checks ksize and strides as TensorFlow's pooling constructors do.
absl::Status CheckKsizeAndStrides(const PoolSpec& s) {
  if (s.ksize.size() != 4) {
    return absl::InvalidArgumentError("Sliding window ksize field must specify 4 dimensions");
  }
  if (s.strides.size() != 4) {
    return absl::InvalidArgumentError("Sliding window stride field must specify 4 dimensions");
  }
  for (size_t i = 0; i < s.ksize.size(); ++i) {
    RILL_RETURN_IF_ERROR(CheckInt32Attr("ksize", s.ksize[i]));
    RILL_RETURN_IF_ERROR(CheckInt32Attr("strides", s.strides[i]));
    if (s.ksize[i] <= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Sliding window ksize for dimension ", i, " was zero."));
    }
  }
  if (s.ksize[0] != 1 || s.strides[0] != 1) {
    return absl::UnimplementedError("Pooling is not yet supported on the batch dimension.");
  }
  return absl::OkStatus();
}

// The geometry of pooling an NHWC input of `shape` by `s` (errors as the file comment).
absl::StatusOr<PoolGeometry> NhwcPoolGeometry(const PoolSpec& s, const TensorShape& shape) {
  if (shape.rank() != 4) return absl::InvalidArgumentError("tensor_in must be 4-dimensional");
  PoolGeometry g;
  g.batch = shape.dim(0);
  g.in_h = shape.dim(1);
  g.in_w = shape.dim(2);
  g.depth = shape.dim(3);
  g.k_h = s.ksize[1];
  g.k_w = s.ksize[2];
  g.k_d = s.ksize[3];
  g.stride_h = s.strides[1];
  g.stride_w = s.strides[2];
  if (g.k_d != 1 && (g.k_h != 1 || g.k_w != 1)) {
    return absl::UnimplementedError(
        "MaxPooling supports exactly one of pooling across depth or pooling across width/height.");
  }
  if (g.k_d == 1) {
    const bool ex = s.padding == Padding::kExplicit;
    if (ex) {
      // TensorFlow's PoolParameters: a window that would lie wholly in the padding is refused.
      const struct {
        const char* side;
        int64_t pad, window;
      } sides[] = {{"Top", s.explicit_paddings[2], g.k_h},
                   {"Bottom", s.explicit_paddings[3], g.k_h},
                   {"Left", s.explicit_paddings[4], g.k_w},
                   {"Right", s.explicit_paddings[5], g.k_w}};
      for (const auto& side : sides) {
        if (side.pad >= side.window) {
          return absl::InvalidArgumentError(absl::StrCat(side.side, " padding ", side.pad,
                                                         " needs to be smaller than the window "
                                                         "size ",
                                                         side.window));
        }
      }
    }
    RILL_ASSIGN_OR_RETURN(
        Window h, ComputeWindow(g.in_h, g.k_h, g.stride_h, 1, s.padding,
                                ex ? s.explicit_paddings[2] : 0, ex ? s.explicit_paddings[3] : 0));
    RILL_ASSIGN_OR_RETURN(
        Window w, ComputeWindow(g.in_w, g.k_w, g.stride_w, 1, s.padding,
                                ex ? s.explicit_paddings[4] : 0, ex ? s.explicit_paddings[5] : 0));
    g.out_h = h.out;
    g.out_w = w.out;
    g.pad_h = h.pad_before;
    g.pad_w = w.pad_before;
    g.out_d = g.depth;
  } else {
    if (g.depth % g.k_d != 0) {
      return absl::UnimplementedError(
          "Depthwise max pooling requires the depth window to evenly divide the input depth");
    }
    if (s.strides[3] != g.k_d) {
      return absl::UnimplementedError(
          "Depthwise max pooling requires the depth window to equal the depth stride");
    }
    g.out_h = g.in_h;
    g.out_w = g.in_w;
    g.pad_h = g.pad_w = 0;
    g.out_d = g.depth / g.k_d;
  }
  return g;
}

absl::StatusOr<PoolSpec> ParsePoolAttrs(const OpKernelConstruction& ctx, const char* kernel_name,
                                        const char* device_type, bool attr_windows) {
  PoolSpec s;
  std::string format = "NHWC", padding;
  RILL_RETURN_IF_ERROR(ctx.GetAttr("data_format", &format));
  if (format != "NHWC") {
    return absl::InvalidArgumentError(
        absl::StrCat("Default ", kernel_name, " only supports NHWC on device type ", device_type));
  }
  RILL_RETURN_IF_ERROR(ctx.GetAttr("padding", &padding));
  s.padding = PaddingFromString(padding);
  if (!attr_windows) return s;
  RILL_RETURN_IF_ERROR(ctx.GetAttr("ksize", &s.ksize));
  RILL_RETURN_IF_ERROR(ctx.GetAttr("strides", &s.strides));
  RILL_RETURN_IF_ERROR(CheckKsizeAndStrides(s));
  if (s.padding == Padding::kExplicit) {
    RILL_RETURN_IF_ERROR(ctx.GetAttr("explicit_paddings", &s.explicit_paddings));
    if (s.explicit_paddings.size() != 8) {
      return absl::InvalidArgumentError(
          absl::StrCat("explicit_paddings attribute must contain 8 values, but got: ",
                       s.explicit_paddings.size()));
    }
    for (int64_t p : s.explicit_paddings) {
      if (p < 0) return absl::InvalidArgumentError("All explicit_paddings must be non-negative");
    }
  } else if (ctx.GetAttr("explicit_paddings", &s.explicit_paddings).ok() &&
             !s.explicit_paddings.empty()) {
    return absl::InvalidArgumentError(
        "explicit_paddings attribute must be empty if the padding attribute is not EXPLICIT");
  }
  return s;
}

}  // namespace rill
