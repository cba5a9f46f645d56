// DrawBoundingBoxes and DrawBoundingBoxesV2 on the CPU (float and half images, as TensorFlow
// registers them): copies the NHWC images and draws each box's one-pixel outline in a colour of
// the table, box i in colour i mod the table's size. The table is V2's `colors` rows (their first
// `depth` values) or, without colours or with none, TensorFlow's ten defaults (yellow, blue, red,
// lime, purple, olive, maroon, navy, aqua, fuchsia; channel 0 is 1 for grey images). A box
// [y_min, x_min, y_max, x_max] in [0, 1] maps to rows y * (height - 1) and columns x * (width - 1),
// multiplied in float and truncated toward zero; inverted boxes and boxes wholly outside the image
// are skipped; an edge outside the image is not drawn, the others are clipped to it. Errors are
// TensorFlow's texts (InvalidArgument): "The rank of the images should be 4", "The rank of the
// boxes tensor should be 3", "The batch sizes should be the same", "Channel depth should be either
// 1 (GRY), 3 (RGB), or 4 (RGBA)", "The size of the third dimension of the box must be 4.
// Received: 5", "colors must be a 2-D matrix[4]", "colors must have equal or more channels than
// the image provided: [2,2]". Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"

namespace rill {
namespace {

using ColorTable = std::vector<std::vector<float>>;

ColorTable DefaultColors(int64_t depth) {
  ColorTable t = {{1, 1, 0, 1},     {0, 0, 1, 1},   {1, 0, 0, 1},   {0, 1, 0, 1}, {0.5, 0, 0.5, 1},
                  {0.5, 0.5, 0, 1}, {0.5, 0, 0, 1}, {0, 0, 0.5, 1}, {0, 1, 1, 1}, {1, 0, 1, 1}};
  if (depth == 1) {
    for (auto& c : t) c[0] = 1;
  }
  return t;
}

// float -> int64 as x86's conversion gives it: truncation, and the lowest int64 for NaN and for
// values out of range (TensorFlow's compiled cast).
int64_t ToRow(float v) {
  if (!(v >= -9.2233715e18f && v < 9.2233715e18f)) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(v);
}

template <typename T>
void Draw(const ColorTable& colors, const Tensor& boxes, int64_t batch, int64_t height,
          int64_t width, int64_t depth, T* canvas) {
  const int64_t num_boxes = boxes.shape().dim(1);
  const float* bx = boxes.flat<float>().data();
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t i = 0; i < num_boxes; ++i) {
      const float* box = bx + (b * num_boxes + i) * 4;
      const std::vector<float>& color = colors[i % colors.size()];
      const int64_t min_row = ToRow(box[0] * static_cast<float>(height - 1));
      const int64_t max_row = ToRow(box[2] * static_cast<float>(height - 1));
      const int64_t min_col = ToRow(box[1] * static_cast<float>(width - 1));
      const int64_t max_col = ToRow(box[3] * static_cast<float>(width - 1));
      if (min_row > max_row || min_col > max_col) continue;  // inverted
      if (min_row >= height || max_row < 0 || min_col >= width || max_col < 0) continue;
      const int64_t row0 = std::max<int64_t>(min_row, 0);
      const int64_t row1 = std::min<int64_t>(max_row, height - 1);
      const int64_t col0 = std::max<int64_t>(min_col, 0);
      const int64_t col1 = std::min<int64_t>(max_col, width - 1);
      auto paint = [&](int64_t r, int64_t c) {
        T* px = canvas + ((b * height + r) * width + c) * depth;
        for (int64_t k = 0; k < depth; ++k) px[k] = static_cast<T>(color[k]);
      };
      if (min_row >= 0) {
        for (int64_t c = col0; c <= col1; ++c) paint(min_row, c);
      }
      if (max_row < height) {
        for (int64_t c = col0; c <= col1; ++c) paint(max_row, c);
      }
      if (min_col >= 0) {
        for (int64_t r = row0; r <= row1; ++r) paint(r, min_col);
      }
      if (max_col < width) {
        for (int64_t r = row0; r <= row1; ++r) paint(r, max_col);
      }
    }
  }
}

class DrawBoundingBoxesOp final : public OpKernel {
 public:
  explicit DrawBoundingBoxesOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& images = ctx.input(0);
    const Tensor& boxes = ctx.input(1);
    if (images.shape().rank() != 4) {
      return absl::InvalidArgumentError("The rank of the images should be 4");
    }
    if (boxes.shape().rank() != 3) {
      return absl::InvalidArgumentError("The rank of the boxes tensor should be 3");
    }
    if (images.shape().dim(0) != boxes.shape().dim(0)) {
      return absl::InvalidArgumentError("The batch sizes should be the same");
    }
    const int64_t depth = images.shape().dim(3);
    if (depth != 4 && depth != 1 && depth != 3) {
      return absl::InvalidArgumentError(
          "Channel depth should be either 1 (GRY), 3 (RGB), or 4 (RGBA)");
    }
    if (boxes.shape().dim(2) != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("The size of the third dimension of the box must be 4. Received: ",
                       boxes.shape().dim(2)));
    }
    ColorTable colors;
    if (ctx.num_inputs() == 3) {
      const Tensor& ct = ctx.input(2);
      if (ct.shape().rank() != 2) {
        return absl::InvalidArgumentError(
            absl::StrCat("colors must be a 2-D matrix", ct.shape().DebugString()));
      }
      if (ct.shape().dim(1) < depth) {
        return absl::InvalidArgumentError(
            absl::StrCat("colors must have equal or more channels than the image provided: ",
                         ct.shape().DebugString()));
      }
      const float* cv = ct.flat<float>().data();
      const int64_t cols = ct.shape().dim(1);
      for (int64_t r = 0; ct.NumElements() != 0 && r < ct.shape().dim(0); ++r) {
        colors.emplace_back(cv + r * cols, cv + r * cols + depth);
      }
    }
    if (colors.empty()) colors = DefaultColors(depth);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, images.shape()));
    const int64_t batch = images.shape().dim(0), height = images.shape().dim(1);
    const int64_t width = images.shape().dim(2);
    if (images.dtype() == DT_HALF) {
      const half* in = images.flat<half>().data();
      std::copy(in, in + images.NumElements(), out->flat<half>().data());
      Draw<half>(colors, boxes, batch, height, width, depth, out->flat<half>().data());
    } else {
      const float* in = images.flat<float>().data();
      std::copy(in, in + images.NumElements(), out->flat<float>().data());
      Draw<float>(colors, boxes, batch, height, width, depth, out->flat<float>().data());
    }
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

REGISTER_KERNEL(KernelDefBuilder("DrawBoundingBoxes")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_FLOAT, DT_HALF}),
                DrawBoundingBoxesOp);
REGISTER_KERNEL(KernelDefBuilder("DrawBoundingBoxesV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_FLOAT, DT_HALF}),
                DrawBoundingBoxesOp);

}  // namespace
}  // namespace rill
