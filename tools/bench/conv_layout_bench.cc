// oneDNN forward-inference convolutions of real models' shapes at batch 1 on one thread, in three
// layouts (issue 29): (a) src/dst NHWC as Rill's kernels run them, (b) src/dst `any` (oneDNN's
// own choice), (c) src/dst nChw16c, the blocked layout (d) (c) plus the reorders NHWC -> nChw16c
// and back around each convolution. Weights are `any` in all three and
// reordered once, outside the timing; each convolution has a bias and no post-op.
//
//   bazel build -c opt //tools/bench:conv_layout_bench
//   bazel-bin/tools/bench/conv_layout_bench [--per_conv] [--models=ResNet50,MobileNetV2] \
//       [--reps=N] [--threads=N] [--block=8|16]
//
// ONEDNN_MAX_CPU_ISA=AVX2 with --block=8 shows what an AVX2 machine would get.
//
// Prints, per convolution (--per_conv) and per model, the median time of each variant and the
// implementation and layouts oneDNN picked (impl_info_str). The shapes are those of the suite's
// frozen Keras models (tools/bench/suite_models.py): ResNet50 at 160x160, MobileNetV2 and
// EfficientNetB0 at 224x224, with Keras's zero Pads folded into the convolution as the graph
// optimizer does (session/pad_fold.h); one row per convolution node, repeats included.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <dnnl.hpp>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

using dnnl::memory;
using tag = memory::format_tag;

struct ConvShape {
  const char* model;
  int64_t h, w, c, kh, kw, oc, oh, ow, stride, pad_top, pad_left;
  int depthwise;  // 1: DepthwiseConv2dNative (groups = c, multiplier oc / c)
};

// Generated from the frozen models by walking their Conv2D / DepthwiseConv2dNative nodes
// (TensorFlow's static shapes; a VALID convolution reading a Pad gets the Pad's input and its
// leading pads, as session/pad_fold.h folds them).
const ConvShape kShapes[] = {
    {"ResNet50", 160, 160, 3, 7, 7, 64, 80, 80, 2, 3, 3, 0},
    {"ResNet50", 40, 40, 64, 1, 1, 256, 40, 40, 1, 0, 0, 0},
    {"ResNet50", 40, 40, 64, 1, 1, 64, 40, 40, 1, 0, 0, 0},
    {"ResNet50", 40, 40, 64, 3, 3, 64, 40, 40, 1, 1, 1, 0},
    {"ResNet50", 40, 40, 64, 1, 1, 256, 40, 40, 1, 0, 0, 0},
    {"ResNet50", 40, 40, 256, 1, 1, 64, 40, 40, 1, 0, 0, 0},
    {"ResNet50", 40, 40, 64, 3, 3, 64, 40, 40, 1, 1, 1, 0},
    {"ResNet50", 40, 40, 64, 1, 1, 256, 40, 40, 1, 0, 0, 0},
    {"ResNet50", 40, 40, 256, 1, 1, 64, 40, 40, 1, 0, 0, 0},
    {"ResNet50", 40, 40, 64, 3, 3, 64, 40, 40, 1, 1, 1, 0},
    {"ResNet50", 40, 40, 64, 1, 1, 256, 40, 40, 1, 0, 0, 0},
    {"ResNet50", 40, 40, 256, 1, 1, 512, 20, 20, 2, 0, 0, 0},
    {"ResNet50", 40, 40, 256, 1, 1, 128, 20, 20, 2, 0, 0, 0},
    {"ResNet50", 20, 20, 128, 3, 3, 128, 20, 20, 1, 1, 1, 0},
    {"ResNet50", 20, 20, 128, 1, 1, 512, 20, 20, 1, 0, 0, 0},
    {"ResNet50", 20, 20, 512, 1, 1, 128, 20, 20, 1, 0, 0, 0},
    {"ResNet50", 20, 20, 128, 3, 3, 128, 20, 20, 1, 1, 1, 0},
    {"ResNet50", 20, 20, 128, 1, 1, 512, 20, 20, 1, 0, 0, 0},
    {"ResNet50", 20, 20, 512, 1, 1, 128, 20, 20, 1, 0, 0, 0},
    {"ResNet50", 20, 20, 128, 3, 3, 128, 20, 20, 1, 1, 1, 0},
    {"ResNet50", 20, 20, 128, 1, 1, 512, 20, 20, 1, 0, 0, 0},
    {"ResNet50", 20, 20, 512, 1, 1, 128, 20, 20, 1, 0, 0, 0},
    {"ResNet50", 20, 20, 128, 3, 3, 128, 20, 20, 1, 1, 1, 0},
    {"ResNet50", 20, 20, 128, 1, 1, 512, 20, 20, 1, 0, 0, 0},
    {"ResNet50", 20, 20, 512, 1, 1, 1024, 10, 10, 2, 0, 0, 0},
    {"ResNet50", 20, 20, 512, 1, 1, 256, 10, 10, 2, 0, 0, 0},
    {"ResNet50", 10, 10, 256, 3, 3, 256, 10, 10, 1, 1, 1, 0},
    {"ResNet50", 10, 10, 256, 1, 1, 1024, 10, 10, 1, 0, 0, 0},
    {"ResNet50", 10, 10, 1024, 1, 1, 256, 10, 10, 1, 0, 0, 0},
    {"ResNet50", 10, 10, 256, 3, 3, 256, 10, 10, 1, 1, 1, 0},
    {"ResNet50", 10, 10, 256, 1, 1, 1024, 10, 10, 1, 0, 0, 0},
    {"ResNet50", 10, 10, 1024, 1, 1, 256, 10, 10, 1, 0, 0, 0},
    {"ResNet50", 10, 10, 256, 3, 3, 256, 10, 10, 1, 1, 1, 0},
    {"ResNet50", 10, 10, 256, 1, 1, 1024, 10, 10, 1, 0, 0, 0},
    {"ResNet50", 10, 10, 1024, 1, 1, 256, 10, 10, 1, 0, 0, 0},
    {"ResNet50", 10, 10, 256, 3, 3, 256, 10, 10, 1, 1, 1, 0},
    {"ResNet50", 10, 10, 256, 1, 1, 1024, 10, 10, 1, 0, 0, 0},
    {"ResNet50", 10, 10, 1024, 1, 1, 256, 10, 10, 1, 0, 0, 0},
    {"ResNet50", 10, 10, 256, 3, 3, 256, 10, 10, 1, 1, 1, 0},
    {"ResNet50", 10, 10, 256, 1, 1, 1024, 10, 10, 1, 0, 0, 0},
    {"ResNet50", 10, 10, 1024, 1, 1, 256, 10, 10, 1, 0, 0, 0},
    {"ResNet50", 10, 10, 256, 3, 3, 256, 10, 10, 1, 1, 1, 0},
    {"ResNet50", 10, 10, 256, 1, 1, 1024, 10, 10, 1, 0, 0, 0},
    {"ResNet50", 10, 10, 1024, 1, 1, 2048, 5, 5, 2, 0, 0, 0},
    {"ResNet50", 10, 10, 1024, 1, 1, 512, 5, 5, 2, 0, 0, 0},
    {"ResNet50", 5, 5, 512, 3, 3, 512, 5, 5, 1, 1, 1, 0},
    {"ResNet50", 5, 5, 512, 1, 1, 2048, 5, 5, 1, 0, 0, 0},
    {"ResNet50", 5, 5, 2048, 1, 1, 512, 5, 5, 1, 0, 0, 0},
    {"ResNet50", 5, 5, 512, 3, 3, 512, 5, 5, 1, 1, 1, 0},
    {"ResNet50", 5, 5, 512, 1, 1, 2048, 5, 5, 1, 0, 0, 0},
    {"ResNet50", 5, 5, 2048, 1, 1, 512, 5, 5, 1, 0, 0, 0},
    {"ResNet50", 5, 5, 512, 3, 3, 512, 5, 5, 1, 1, 1, 0},
    {"ResNet50", 5, 5, 512, 1, 1, 2048, 5, 5, 1, 0, 0, 0},
    {"MobileNetV2", 224, 224, 3, 3, 3, 32, 112, 112, 2, 0, 0, 0},
    {"MobileNetV2", 112, 112, 32, 3, 3, 32, 112, 112, 1, 1, 1, 1},
    {"MobileNetV2", 112, 112, 32, 1, 1, 16, 112, 112, 1, 0, 0, 0},
    {"MobileNetV2", 112, 112, 16, 1, 1, 96, 112, 112, 1, 0, 0, 0},
    {"MobileNetV2", 112, 112, 96, 3, 3, 96, 56, 56, 2, 0, 0, 1},
    {"MobileNetV2", 56, 56, 96, 1, 1, 24, 56, 56, 1, 0, 0, 0},
    {"MobileNetV2", 56, 56, 24, 1, 1, 144, 56, 56, 1, 0, 0, 0},
    {"MobileNetV2", 56, 56, 144, 3, 3, 144, 56, 56, 1, 1, 1, 1},
    {"MobileNetV2", 56, 56, 144, 1, 1, 24, 56, 56, 1, 0, 0, 0},
    {"MobileNetV2", 56, 56, 24, 1, 1, 144, 56, 56, 1, 0, 0, 0},
    {"MobileNetV2", 56, 56, 144, 3, 3, 144, 28, 28, 2, 0, 0, 1},
    {"MobileNetV2", 28, 28, 144, 1, 1, 32, 28, 28, 1, 0, 0, 0},
    {"MobileNetV2", 28, 28, 32, 1, 1, 192, 28, 28, 1, 0, 0, 0},
    {"MobileNetV2", 28, 28, 192, 3, 3, 192, 28, 28, 1, 1, 1, 1},
    {"MobileNetV2", 28, 28, 192, 1, 1, 32, 28, 28, 1, 0, 0, 0},
    {"MobileNetV2", 28, 28, 32, 1, 1, 192, 28, 28, 1, 0, 0, 0},
    {"MobileNetV2", 28, 28, 192, 3, 3, 192, 28, 28, 1, 1, 1, 1},
    {"MobileNetV2", 28, 28, 192, 1, 1, 32, 28, 28, 1, 0, 0, 0},
    {"MobileNetV2", 28, 28, 32, 1, 1, 192, 28, 28, 1, 0, 0, 0},
    {"MobileNetV2", 28, 28, 192, 3, 3, 192, 14, 14, 2, 0, 0, 1},
    {"MobileNetV2", 14, 14, 192, 1, 1, 64, 14, 14, 1, 0, 0, 0},
    {"MobileNetV2", 14, 14, 64, 1, 1, 384, 14, 14, 1, 0, 0, 0},
    {"MobileNetV2", 14, 14, 384, 3, 3, 384, 14, 14, 1, 1, 1, 1},
    {"MobileNetV2", 14, 14, 384, 1, 1, 64, 14, 14, 1, 0, 0, 0},
    {"MobileNetV2", 14, 14, 64, 1, 1, 384, 14, 14, 1, 0, 0, 0},
    {"MobileNetV2", 14, 14, 384, 3, 3, 384, 14, 14, 1, 1, 1, 1},
    {"MobileNetV2", 14, 14, 384, 1, 1, 64, 14, 14, 1, 0, 0, 0},
    {"MobileNetV2", 14, 14, 64, 1, 1, 384, 14, 14, 1, 0, 0, 0},
    {"MobileNetV2", 14, 14, 384, 3, 3, 384, 14, 14, 1, 1, 1, 1},
    {"MobileNetV2", 14, 14, 384, 1, 1, 64, 14, 14, 1, 0, 0, 0},
    {"MobileNetV2", 14, 14, 64, 1, 1, 384, 14, 14, 1, 0, 0, 0},
    {"MobileNetV2", 14, 14, 384, 3, 3, 384, 14, 14, 1, 1, 1, 1},
    {"MobileNetV2", 14, 14, 384, 1, 1, 96, 14, 14, 1, 0, 0, 0},
    {"MobileNetV2", 14, 14, 96, 1, 1, 576, 14, 14, 1, 0, 0, 0},
    {"MobileNetV2", 14, 14, 576, 3, 3, 576, 14, 14, 1, 1, 1, 1},
    {"MobileNetV2", 14, 14, 576, 1, 1, 96, 14, 14, 1, 0, 0, 0},
    {"MobileNetV2", 14, 14, 96, 1, 1, 576, 14, 14, 1, 0, 0, 0},
    {"MobileNetV2", 14, 14, 576, 3, 3, 576, 14, 14, 1, 1, 1, 1},
    {"MobileNetV2", 14, 14, 576, 1, 1, 96, 14, 14, 1, 0, 0, 0},
    {"MobileNetV2", 14, 14, 96, 1, 1, 576, 14, 14, 1, 0, 0, 0},
    {"MobileNetV2", 14, 14, 576, 3, 3, 576, 7, 7, 2, 0, 0, 1},
    {"MobileNetV2", 7, 7, 576, 1, 1, 160, 7, 7, 1, 0, 0, 0},
    {"MobileNetV2", 7, 7, 160, 1, 1, 960, 7, 7, 1, 0, 0, 0},
    {"MobileNetV2", 7, 7, 960, 3, 3, 960, 7, 7, 1, 1, 1, 1},
    {"MobileNetV2", 7, 7, 960, 1, 1, 160, 7, 7, 1, 0, 0, 0},
    {"MobileNetV2", 7, 7, 160, 1, 1, 960, 7, 7, 1, 0, 0, 0},
    {"MobileNetV2", 7, 7, 960, 3, 3, 960, 7, 7, 1, 1, 1, 1},
    {"MobileNetV2", 7, 7, 960, 1, 1, 160, 7, 7, 1, 0, 0, 0},
    {"MobileNetV2", 7, 7, 160, 1, 1, 960, 7, 7, 1, 0, 0, 0},
    {"MobileNetV2", 7, 7, 960, 3, 3, 960, 7, 7, 1, 1, 1, 1},
    {"MobileNetV2", 7, 7, 960, 1, 1, 320, 7, 7, 1, 0, 0, 0},
    {"MobileNetV2", 7, 7, 320, 1, 1, 1280, 7, 7, 1, 0, 0, 0},
    {"EfficientNetB0", 224, 224, 3, 3, 3, 32, 112, 112, 2, 0, 0, 0},
    {"EfficientNetB0", 112, 112, 32, 3, 3, 32, 112, 112, 1, 1, 1, 1},
    {"EfficientNetB0", 1, 1, 32, 1, 1, 8, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 1, 1, 8, 1, 1, 32, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 112, 112, 32, 1, 1, 16, 112, 112, 1, 0, 0, 0},
    {"EfficientNetB0", 112, 112, 16, 1, 1, 96, 112, 112, 1, 0, 0, 0},
    {"EfficientNetB0", 112, 112, 96, 3, 3, 96, 56, 56, 2, 0, 0, 1},
    {"EfficientNetB0", 1, 1, 96, 1, 1, 4, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 1, 1, 4, 1, 1, 96, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 56, 56, 96, 1, 1, 24, 56, 56, 1, 0, 0, 0},
    {"EfficientNetB0", 56, 56, 24, 1, 1, 144, 56, 56, 1, 0, 0, 0},
    {"EfficientNetB0", 56, 56, 144, 3, 3, 144, 56, 56, 1, 1, 1, 1},
    {"EfficientNetB0", 1, 1, 144, 1, 1, 6, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 1, 1, 6, 1, 1, 144, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 56, 56, 144, 1, 1, 24, 56, 56, 1, 0, 0, 0},
    {"EfficientNetB0", 56, 56, 24, 1, 1, 144, 56, 56, 1, 0, 0, 0},
    {"EfficientNetB0", 56, 56, 144, 5, 5, 144, 28, 28, 2, 1, 1, 1},
    {"EfficientNetB0", 1, 1, 144, 1, 1, 6, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 1, 1, 6, 1, 1, 144, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 28, 28, 144, 1, 1, 40, 28, 28, 1, 0, 0, 0},
    {"EfficientNetB0", 28, 28, 40, 1, 1, 240, 28, 28, 1, 0, 0, 0},
    {"EfficientNetB0", 28, 28, 240, 5, 5, 240, 28, 28, 1, 2, 2, 1},
    {"EfficientNetB0", 1, 1, 240, 1, 1, 10, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 1, 1, 10, 1, 1, 240, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 28, 28, 240, 1, 1, 40, 28, 28, 1, 0, 0, 0},
    {"EfficientNetB0", 28, 28, 40, 1, 1, 240, 28, 28, 1, 0, 0, 0},
    {"EfficientNetB0", 28, 28, 240, 3, 3, 240, 14, 14, 2, 0, 0, 1},
    {"EfficientNetB0", 1, 1, 240, 1, 1, 10, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 1, 1, 10, 1, 1, 240, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 14, 14, 240, 1, 1, 80, 14, 14, 1, 0, 0, 0},
    {"EfficientNetB0", 14, 14, 80, 1, 1, 480, 14, 14, 1, 0, 0, 0},
    {"EfficientNetB0", 14, 14, 480, 3, 3, 480, 14, 14, 1, 1, 1, 1},
    {"EfficientNetB0", 1, 1, 480, 1, 1, 20, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 1, 1, 20, 1, 1, 480, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 14, 14, 480, 1, 1, 80, 14, 14, 1, 0, 0, 0},
    {"EfficientNetB0", 14, 14, 80, 1, 1, 480, 14, 14, 1, 0, 0, 0},
    {"EfficientNetB0", 14, 14, 480, 3, 3, 480, 14, 14, 1, 1, 1, 1},
    {"EfficientNetB0", 1, 1, 480, 1, 1, 20, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 1, 1, 20, 1, 1, 480, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 14, 14, 480, 1, 1, 80, 14, 14, 1, 0, 0, 0},
    {"EfficientNetB0", 14, 14, 80, 1, 1, 480, 14, 14, 1, 0, 0, 0},
    {"EfficientNetB0", 14, 14, 480, 5, 5, 480, 14, 14, 1, 2, 2, 1},
    {"EfficientNetB0", 1, 1, 480, 1, 1, 20, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 1, 1, 20, 1, 1, 480, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 14, 14, 480, 1, 1, 112, 14, 14, 1, 0, 0, 0},
    {"EfficientNetB0", 14, 14, 112, 1, 1, 672, 14, 14, 1, 0, 0, 0},
    {"EfficientNetB0", 14, 14, 672, 5, 5, 672, 14, 14, 1, 2, 2, 1},
    {"EfficientNetB0", 1, 1, 672, 1, 1, 28, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 1, 1, 28, 1, 1, 672, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 14, 14, 672, 1, 1, 112, 14, 14, 1, 0, 0, 0},
    {"EfficientNetB0", 14, 14, 112, 1, 1, 672, 14, 14, 1, 0, 0, 0},
    {"EfficientNetB0", 14, 14, 672, 5, 5, 672, 14, 14, 1, 2, 2, 1},
    {"EfficientNetB0", 1, 1, 672, 1, 1, 28, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 1, 1, 28, 1, 1, 672, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 14, 14, 672, 1, 1, 112, 14, 14, 1, 0, 0, 0},
    {"EfficientNetB0", 14, 14, 112, 1, 1, 672, 14, 14, 1, 0, 0, 0},
    {"EfficientNetB0", 14, 14, 672, 5, 5, 672, 7, 7, 2, 1, 1, 1},
    {"EfficientNetB0", 1, 1, 672, 1, 1, 28, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 1, 1, 28, 1, 1, 672, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 7, 7, 672, 1, 1, 192, 7, 7, 1, 0, 0, 0},
    {"EfficientNetB0", 7, 7, 192, 1, 1, 1152, 7, 7, 1, 0, 0, 0},
    {"EfficientNetB0", 7, 7, 1152, 5, 5, 1152, 7, 7, 1, 2, 2, 1},
    {"EfficientNetB0", 1, 1, 1152, 1, 1, 48, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 1, 1, 48, 1, 1, 1152, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 7, 7, 1152, 1, 1, 192, 7, 7, 1, 0, 0, 0},
    {"EfficientNetB0", 7, 7, 192, 1, 1, 1152, 7, 7, 1, 0, 0, 0},
    {"EfficientNetB0", 7, 7, 1152, 5, 5, 1152, 7, 7, 1, 2, 2, 1},
    {"EfficientNetB0", 1, 1, 1152, 1, 1, 48, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 1, 1, 48, 1, 1, 1152, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 7, 7, 1152, 1, 1, 192, 7, 7, 1, 0, 0, 0},
    {"EfficientNetB0", 7, 7, 192, 1, 1, 1152, 7, 7, 1, 0, 0, 0},
    {"EfficientNetB0", 7, 7, 1152, 5, 5, 1152, 7, 7, 1, 2, 2, 1},
    {"EfficientNetB0", 1, 1, 1152, 1, 1, 48, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 1, 1, 48, 1, 1, 1152, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 7, 7, 1152, 1, 1, 192, 7, 7, 1, 0, 0, 0},
    {"EfficientNetB0", 7, 7, 192, 1, 1, 1152, 7, 7, 1, 0, 0, 0},
    {"EfficientNetB0", 7, 7, 1152, 3, 3, 1152, 7, 7, 1, 1, 1, 1},
    {"EfficientNetB0", 1, 1, 1152, 1, 1, 48, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 1, 1, 48, 1, 1, 1152, 1, 1, 1, 0, 0, 0},
    {"EfficientNetB0", 7, 7, 1152, 1, 1, 320, 7, 7, 1, 0, 0, 0},
    {"EfficientNetB0", 7, 7, 320, 1, 1, 1280, 7, 7, 1, 0, 0, 0},
};

int64_t PadAfter(int64_t in, int64_t out, int64_t k, int64_t stride, int64_t before) {
  return std::max<int64_t>(0, (out - 1) * stride + k - in - before);
}

// "nhwc", "nChw16c", ... for a 4-D f32 desc: the plain dims ordered by stride, outermost first,
// with the inner block appended.
std::string Layout(const memory::desc& d) {
  const auto& b = d.data.format_desc.blocking;
  const char* names = "nchw";
  std::vector<int> order = {0, 1, 2, 3};
  std::stable_sort(order.begin(), order.end(),
                   [&](int x, int y) { return b.strides[x] > b.strides[y]; });
  std::string s;
  for (int i : order) {
    bool blocked = false;
    for (int k = 0; k < b.inner_nblks; ++k) blocked |= b.inner_idxs[k] == i;
    s += blocked ? static_cast<char>(names[i] - 'a' + 'A') : names[i];
  }
  for (int k = 0; k < b.inner_nblks; ++k)
    s += std::to_string(b.inner_blks[k]) + names[b.inner_idxs[k]];
  return s;
}

template <typename F>
double MedianUs(F&& f, int reps) {
  for (int i = 0; i < 5; ++i) f();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
  return t[t.size() / 2];
}

struct Result {
  double nhwc = 0, any = 0, blocked = 0, blocked_reorders = 0;
  std::string impl_nhwc, impl_any, impl_blocked, src_layout, dst_layout;
};

Result Run(const ConvShape& s, int block, dnnl::engine& eng, dnnl::stream& strm, int reps) {
  const auto f32 = memory::data_type::f32;
  const int64_t groups = s.depthwise ? s.c : 1;
  const memory::dims src_dims = {1, s.c, s.h, s.w}, dst_dims = {1, s.oc, s.oh, s.ow};
  const memory::dims w_dims = groups > 1 ? memory::dims{groups, s.oc / groups, 1, s.kh, s.kw}
                                         : memory::dims{s.oc, s.c, s.kh, s.kw};
  const memory::dims strides = {s.stride, s.stride}, dil = {0, 0};
  const memory::dims pad_l = {s.pad_top, s.pad_left};
  const memory::dims pad_r = {PadAfter(s.h, s.oh, s.kh, s.stride, s.pad_top),
                              PadAfter(s.w, s.ow, s.kw, s.stride, s.pad_left)};
  const memory::desc user_src(src_dims, f32, tag::nhwc), user_dst(dst_dims, f32, tag::nhwc);
  const memory::desc user_w(w_dims, f32, groups > 1 ? tag::hwigo : tag::hwio);
  const memory::desc bias_d({s.oc}, f32, tag::a);
  memory src_m(user_src, eng), dst_m(user_dst, eng), uw(user_w, eng), bias_m(bias_d, eng);
  {
    float* p = static_cast<float*>(src_m.get_data_handle());
    for (size_t i = 0; i < user_src.get_size() / 4; ++i) p[i] = (i % 17) * 0.1f - 0.8f;
    p = static_cast<float*>(uw.get_data_handle());
    for (size_t i = 0; i < user_w.get_size() / 4; ++i) p[i] = (i % 13) * 0.01f - 0.06f;
    p = static_cast<float*>(bias_m.get_data_handle());
    for (int64_t i = 0; i < s.oc; ++i) p[i] = 0.01f * i;
  }
  Result r;
  auto make = [&](const memory::desc& src, const memory::desc& dst) {
    dnnl::convolution_forward::desc d(
        dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, src,
        memory::desc(w_dims, f32, tag::any), bias_d, dst, strides, dil, pad_l, pad_r);
    return dnnl::convolution_forward::primitive_desc(d, eng);
  };
  auto run_conv = [&](const dnnl::convolution_forward::primitive_desc& pd, memory& src,
                      memory& dst) {
    memory w(pd.weights_desc(), eng);
    dnnl::reorder(uw, w).execute(strm, uw, w);
    memory pad(pd.scratchpad_desc(), eng);
    dnnl::convolution_forward conv(pd);
    std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, src},
                                            {DNNL_ARG_WEIGHTS, w},
                                            {DNNL_ARG_BIAS, bias_m},
                                            {DNNL_ARG_DST, dst},
                                            {DNNL_ARG_SCRATCHPAD, pad}};
    return std::make_pair(conv, args);
  };
  // (a) NHWC.
  {
    auto pd = make(user_src, user_dst);
    r.impl_nhwc = pd.impl_info_str();
    auto [conv, args] = run_conv(pd, src_m, dst_m);
    r.nhwc = MedianUs(
        [&] {
          conv.execute(strm, args);
          strm.wait();
        },
        reps);
  }
  // (b) oneDNN's choice of layouts, without reorders.
  {
    auto pd = make(memory::desc(src_dims, f32, tag::any), memory::desc(dst_dims, f32, tag::any));
    r.impl_any = pd.impl_info_str();
    r.src_layout = Layout(pd.src_desc());
    r.dst_layout = Layout(pd.dst_desc());
    memory bsrc(pd.src_desc(), eng), bdst(pd.dst_desc(), eng);
    dnnl::reorder(src_m, bsrc).execute(strm, src_m, bsrc);
    auto [conv, args] = run_conv(pd, bsrc, bdst);
    r.any = MedianUs(
        [&] {
          conv.execute(strm, args);
          strm.wait();
        },
        reps);
  }
  // (c), (d): src and dst in nChw16c (nChw8c with --block=8; oneDNN pads the channels to a
  // multiple of the block), without and with the reorders from and to NHWC. An input of fewer
  // channels than a block (a stem's) is NCHW, as oneDNN's blocked kernels take it: with a
  // blocked or NHWC input and a blocked output it has only its reference kernel.
  {
    const tag blocked = block == 8 ? tag::nChw8c : tag::nChw16c;
    auto pd = make(memory::desc(src_dims, f32, s.c < block ? tag::nchw : blocked),
                   memory::desc(dst_dims, f32, blocked));
    r.impl_blocked = pd.impl_info_str();
    memory bsrc(pd.src_desc(), eng), bdst(pd.dst_desc(), eng);
    dnnl::reorder to(src_m, bsrc), from(bdst, dst_m);
    to.execute(strm, src_m, bsrc);
    auto [conv, args] = run_conv(pd, bsrc, bdst);
    r.blocked = MedianUs(
        [&] {
          conv.execute(strm, args);
          strm.wait();
        },
        reps);
    r.blocked_reorders = MedianUs(
        [&] {
          to.execute(strm, src_m, bsrc);
          conv.execute(strm, args);
          from.execute(strm, bdst, dst_m);
          strm.wait();
        },
        reps);
  }
  return r;
}

const char* Kind(const ConvShape& s) {
  if (s.depthwise) return "depthwise";
  if (s.oh == 1 && s.ow == 1) return "1x1 on 1 pixel (SE)";
  if (s.c < 8) return "stem";
  if (s.kh == 1 && s.kw == 1) return "1x1";
  return "kxk";
}

}  // namespace

int main(int argc, char** argv) {
  bool per_conv = false;
  int reps = 51, threads = 1, block = 16;
  std::string models;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--per_conv"))
      per_conv = true;
    else if (!std::strncmp(argv[i], "--models=", 9))
      models = argv[i] + 9;
    else if (!std::strncmp(argv[i], "--reps=", 7))
      reps = std::atoi(argv[i] + 7);
    else if (!std::strncmp(argv[i], "--threads=", 10))
      threads = std::atoi(argv[i] + 10);
    else if (!std::strncmp(argv[i], "--block=", 8) &&
             (!std::strcmp(argv[i] + 8, "8") || !std::strcmp(argv[i] + 8, "16")))
      block = std::atoi(argv[i] + 8);
    else {
      std::fprintf(
          stderr, "usage: %s [--per_conv] [--models=A,B] [--reps=N] [--threads=N] [--block=8|16]\n",
          argv[0]);
      return 2;
    }
  }
  omp_set_num_threads(threads);
  dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  dnnl::stream strm(eng);
  struct Sum {
    double nhwc = 0, any = 0, blocked = 0, blocked_reorders = 0;
    int n = 0;
    void Add(const Result& r) {
      nhwc += r.nhwc, any += r.any, blocked += r.blocked, blocked_reorders += r.blocked_reorders;
      ++n;
    }
    void Print(const std::string& model, const std::string& kind) const {
      std::printf("%-15s %-20s %5d | %9.0f %9.0f %9.0f %9.0f | %7.2fx %7.2fx %7.2fx\n",
                  model.c_str(), kind.c_str(), n, nhwc, any, blocked, blocked_reorders, nhwc / any,
                  nhwc / blocked, nhwc / blocked_reorders);
    }
  };
  std::map<std::string, Sum> totals;
  std::map<std::pair<std::string, std::string>, Sum> by_kind;
  std::vector<std::string> order;
  if (per_conv) {
    std::printf("%-15s %4s %4s %5s %5s %5s %2s %2s | %7s %7s %7s %7s | %-8s %-8s | %s | %s | %s\n",
                "model", "h", "w", "c", "k", "oc", "s", "dw", "nhwc", "any", "blk", "blk+reo",
                "any src", "any dst", "impl nhwc", "impl any", "impl blocked");
  }
  for (const ConvShape& s : kShapes) {
    if (!models.empty() &&
        ("," + models + ",").find(std::string(",") + s.model + ",") == std::string::npos) {
      continue;
    }
    if (!totals.count(s.model)) order.push_back(s.model);
    Result r = Run(s, block, eng, strm, reps);
    totals[s.model].Add(r);
    by_kind[{s.model, Kind(s)}].Add(r);
    if (per_conv) {
      std::printf(
          "%-15s %4ld %4ld %5ld %2ldx%-2ld %5ld %2ld %2d | %7.1f %7.1f %7.1f %7.1f | %-8s %-8s | "
          "%s | %s | %s\n",
          s.model, s.h, s.w, s.c, s.kh, s.kw, s.oc, s.stride, s.depthwise, r.nhwc, r.any, r.blocked,
          r.blocked_reorders, r.src_layout.c_str(), r.dst_layout.c_str(), r.impl_nhwc.c_str(),
          r.impl_any.c_str(), r.impl_blocked.c_str());
    }
  }
  std::printf("\n%-15s %-20s %5s | %9s %9s %9s %9s | %8s %8s %8s\n", "model", "kind", "convs",
              "nhwc us", "any us", "blk us", "blk+reo", "nhwc/any", "nhwc/blk", "n/blk+r");
  for (const std::string& m : order) {
    for (const auto& [key, k] : by_kind) {
      if (key.first == m) k.Print(m, key.second);
    }
    totals[m].Print(m, "all");
  }
  return 0;
}
