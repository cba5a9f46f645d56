#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }

// Small integers (exact in float) so the GEMM path and the reference loop agree exactly.
Tensor Ramp(TensorShape s, int mod, int offset) {
  std::vector<float> v(s.num_elements());
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((i * 7 + offset) % mod) - 3;
  return F(v, s);
}

struct ConvCase {
  int64_t stride, dilation;
  std::string padding;
  std::vector<int64_t> explicit_paddings;
};

// The definition of Conv2D (NHWC, HWIO), written as directly as possible.
Tensor ReferenceConv(const Tensor& in, const Tensor& f, const ConvCase& c, int64_t out_h,
                     int64_t out_w, int64_t pad_h, int64_t pad_w) {
  const auto& is = in.shape();
  const auto& fs = f.shape();
  Tensor out(DT_FLOAT, TensorShape({is.dim(0), out_h, out_w, fs.dim(3)}));
  auto x = in.flat<float>();
  auto w = f.flat<float>();
  auto y = out.flat<float>();
  for (int64_t n = 0; n < is.dim(0); ++n)
    for (int64_t oh = 0; oh < out_h; ++oh)
      for (int64_t ow = 0; ow < out_w; ++ow)
        for (int64_t co = 0; co < fs.dim(3); ++co) {
          float sum = 0;
          for (int64_t kh = 0; kh < fs.dim(0); ++kh)
            for (int64_t kw = 0; kw < fs.dim(1); ++kw)
              for (int64_t ci = 0; ci < fs.dim(2); ++ci) {
                const int64_t h = oh * c.stride - pad_h + kh * c.dilation;
                const int64_t ww = ow * c.stride - pad_w + kw * c.dilation;
                if (h < 0 || h >= is.dim(1) || ww < 0 || ww >= is.dim(2)) continue;
                sum += x[((n * is.dim(1) + h) * is.dim(2) + ww) * is.dim(3) + ci] *
                       w[((kh * fs.dim(1) + kw) * fs.dim(2) + ci) * fs.dim(3) + co];
              }
          y[((n * out_h + oh) * out_w + ow) * fs.dim(3) + co] = sum;
        }
  return out;
}

absl::StatusOr<std::vector<Tensor>> Conv(const Tensor& in, const Tensor& f, const ConvCase& c,
                                         const std::string& format = "NHWC") {
  OpTester t("Conv2D");
  t.Attr("T", DT_FLOAT)
      .Attr("strides", std::vector<int64_t>{1, c.stride, c.stride, 1})
      .Attr("dilations", std::vector<int64_t>{1, c.dilation, c.dilation, 1})
      .Attr("padding", c.padding)
      .Attr("explicit_paddings", c.explicit_paddings)
      .Attr("data_format", format)
      .Input(in)
      .Input(f);
  return t.Run();
}

TEST(Conv2DOpTest, MatchesTheDefinitionForEachPaddingStrideAndDilation) {
  const Tensor in = Ramp(TensorShape({2, 7, 6, 3}), 7, 1);
  const Tensor f = Ramp(TensorShape({3, 2, 3, 4}), 5, 2);
  struct Expected {
    ConvCase c;
    int64_t out_h, out_w, pad_h, pad_w;
  };
  const std::vector<Expected> cases = {
      {{1, 1, "VALID", {}}, 5, 5, 0, 0}, {{2, 1, "VALID", {}}, 3, 3, 0, 0},
      {{1, 1, "SAME", {}}, 7, 6, 1, 0},  {{2, 1, "SAME", {}}, 4, 3, 1, 0},
      {{1, 2, "SAME", {}}, 7, 6, 2, 1},  {{1, 1, "EXPLICIT", {0, 0, 2, 1, 1, 3, 0, 0}}, 8, 9, 2, 1},
  };
  for (const Expected& e : cases) {
    SCOPED_TRACE(e.c.padding + " stride " + std::to_string(e.c.stride) + " dilation " +
                 std::to_string(e.c.dilation));
    RILL_ASSERT_OK_AND_ASSIGN(auto out, Conv(in, f, e.c));
    ExpectTensorEqual(out[0], ReferenceConv(in, f, e.c, e.out_h, e.out_w, e.pad_h, e.pad_w));
  }
}

// Issue 26 item 11: strides and dilations far beyond the input are computed (oneDNN never
// finished building a kernel for a dilation of 1e9), and a filter with a zero dimension is
// TensorFlow's InvalidArgument.
TEST(Conv2DOpTest, StridesAndDilationsBeyondTheInputAreComputed) {
  const Tensor in = Ramp(TensorShape({1, 5, 5, 2}), 7, 1);
  const Tensor f = Ramp(TensorShape({2, 2, 2, 3}), 5, 2);
  struct Expected {
    ConvCase c;
    int64_t out_h, out_w, pad_h, pad_w;
  };
  const int64_t huge = 1000000000;
  // SAME with dilation 1e9: the window is 1e9 + 1 wide, padded by 5e8 on top and left, so every
  // tap falls outside the input and the output is zeros, as TensorFlow computes.
  const std::vector<Expected> cases = {{{huge, 1, "SAME", {}}, 1, 1, 0, 0},
                                       {{huge, 1, "VALID", {}}, 1, 1, 0, 0},
                                       {{1, huge, "SAME", {}}, 5, 5, huge / 2, huge / 2}};
  for (const Expected& e : cases) {
    SCOPED_TRACE(e.c.padding + " stride " + std::to_string(e.c.stride) + " dilation " +
                 std::to_string(e.c.dilation));
    RILL_ASSERT_OK_AND_ASSIGN(auto out, Conv(in, f, e.c));
    ExpectTensorEqual(out[0], ReferenceConv(in, f, e.c, e.out_h, e.out_w, e.pad_h, e.pad_w));
  }
  EXPECT_THAT(Conv(in, Ramp(TensorShape({0, 2, 2, 3}), 5, 2), {1, 1, "VALID", {}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("filter must not have zero elements (i.e. all dimensions must be "
                                 "non-zero)")));
}

// TensorFlow reads strides and dilations as int32: 2^31 and beyond are its shape function's
// error (a stride or dilation of 2^63 - 1 ran, giving zeros).
TEST(Conv2DOpTest, StridesAndDilationsPastInt32AreTensorFlowsError) {
  const Tensor in = Ramp(TensorShape({1, 5, 5, 2}), 7, 1);
  const Tensor f = Ramp(TensorShape({2, 2, 2, 3}), 5, 2);
  const int64_t max = 9223372036854775807;
  EXPECT_THAT(Conv(in, f, {max, 1, "SAME", {}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Attr strides has value 9223372036854775807 out of range for an "
                                 "int32")));
  EXPECT_THAT(Conv(in, f, {1, 2147483648, "VALID", {}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Attr dilations has value 2147483648 out of range for an int32")));
}

TEST(Conv2DOpTest, PointwiseFilterIsOneMatrixProduct) {
  const Tensor in = Ramp(TensorShape({1, 2, 2, 3}), 7, 0);
  const Tensor f = Ramp(TensorShape({1, 1, 3, 2}), 5, 1);
  const ConvCase c{1, 1, "VALID", {}};
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Conv(in, f, c));
  ExpectTensorEqual(out[0], ReferenceConv(in, f, c, 2, 2, 0, 0));
}

// A 1x1 filter with stride 1 whose EXPLICIT padding is after the input only (bottom, right): more
// output pixels than input pixels, so not one matrix product of the input (which read past it;
// crafted round 10). half, double and int32 run Rill's own loops, and so does float with a
// dilation (which a 1x1 filter ignores).
template <typename T>
Tensor Cast(const Tensor& t) {
  std::vector<T> v(t.NumElements());
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<T>(t.flat<float>()[i]);
  return Tensor::FromVector<T>(v, t.shape());
}
template <typename T>
void ExpectPointwiseWithPaddingAfter(DataType dtype) {
  const Tensor in = Ramp(TensorShape({1, 3, 2, 2}), 7, 1);
  const Tensor f = Ramp(TensorShape({1, 1, 2, 4}), 5, 2);
  for (const std::vector<int64_t>& pads : std::vector<std::vector<int64_t>>{
           {0, 0, 0, 2, 0, 1, 0, 0}, {0, 0, 0, 0, 0, 1, 0, 0}, {0, 0, 0, 2, 0, 0, 0, 0}}) {
    for (int64_t dilation : {1, 2}) {
      const ConvCase c{1, dilation, "EXPLICIT", pads};
      OpTester t("Conv2D");
      t.Attr("T", dtype)
          .Attr("strides", std::vector<int64_t>{1, 1, 1, 1})
          .Attr("dilations", std::vector<int64_t>{1, dilation, dilation, 1})
          .Attr("padding", "EXPLICIT")
          .Attr("explicit_paddings", pads)
          .Input(Cast<T>(in))
          .Input(Cast<T>(f));
      RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
      ExpectTensorEqual(out[0], Cast<T>(ReferenceConv(in, f, c, 3 + pads[3], 2 + pads[5], 0, 0)));
    }
  }
}
TEST(Conv2DOpTest, PointwiseFilterWithPaddingAfterTheInputIsWindowed) {
  ExpectPointwiseWithPaddingAfter<half>(DT_HALF);
  ExpectPointwiseWithPaddingAfter<double>(DT_DOUBLE);
  ExpectPointwiseWithPaddingAfter<int32_t>(DT_INT32);
  ExpectPointwiseWithPaddingAfter<float>(DT_FLOAT);
}

// half Conv2D: each output is the float sum of the widened products, rounded once to half (the
// reference: the definition on the half values widened, every sum exact on these small
// integers times 1/4, then rounded), for 3x3 SAME at strides 1 and 2, a 1x1 filter, a dilation
// and a batch (finite weights: oneDNN, which leaves out the taps that read padding); with an inf
// weight (the im2col path) a window reading padding through it gives NaN (0 * inf) as TensorFlow's
// Eigen kernel does, and an inf input reaches the outputs whose windows read it.
TEST(Conv2DOpTest, HalfIsTheFloatSumRoundedOnce) {
  const float inf = std::numeric_limits<float>::infinity();
  struct Case {
    TensorShape in, filter;
    int64_t stride, dilation;
    std::string padding;
    int64_t out_h, out_w, pad_h, pad_w;
  };
  const std::vector<Case> cases = {
      {TensorShape({2, 6, 5, 3}), TensorShape({3, 3, 3, 16}), 1, 1, "SAME", 6, 5, 1, 1},
      {TensorShape({1, 7, 6, 5}), TensorShape({3, 3, 5, 9}), 2, 1, "SAME", 4, 3, 1, 0},
      {TensorShape({2, 4, 4, 16}), TensorShape({1, 1, 16, 24}), 1, 1, "VALID", 4, 4, 0, 0},
      {TensorShape({1, 7, 7, 4}), TensorShape({3, 3, 4, 6}), 1, 2, "SAME", 7, 7, 2, 2},
  };
  for (const Case& k : cases) {
    for (const bool non_finite : {false, true}) {
      SCOPED_TRACE(std::to_string(k.filter.dim(0)) + "x" + std::to_string(k.filter.dim(1)) +
                   " stride " + std::to_string(k.stride) + (non_finite ? " with inf" : ""));
      Tensor in = Ramp(k.in, 7, 1);
      Tensor f = Ramp(k.filter, 5, 2);
      for (int64_t i = 0; i < f.NumElements(); ++i) f.flat<float>()[i] *= 0.25f;
      if (non_finite) {
        in.flat<float>()[5] = inf;
        f.flat<float>()[0] = inf;  // tap (0, 0): read through padding by the first outputs
      }
      // The reference reads the padding as zeros it multiplies (0 * inf is NaN): the input
      // padded explicitly, convolved VALID.
      const int64_t rows = (k.out_h - 1) * k.stride + (k.filter.dim(0) - 1) * k.dilation + 1;
      const int64_t cols = (k.out_w - 1) * k.stride + (k.filter.dim(1) - 1) * k.dilation + 1;
      Tensor padded(DT_FLOAT, TensorShape({k.in.dim(0), rows, cols, k.in.dim(3)}));
      for (int64_t b = 0; b < k.in.dim(0); ++b)
        for (int64_t h = 0; h < rows; ++h)
          for (int64_t w = 0; w < cols; ++w)
            for (int64_t ch = 0; ch < k.in.dim(3); ++ch) {
              const int64_t ih = h - k.pad_h, iw = w - k.pad_w;
              const bool inside = ih >= 0 && ih < k.in.dim(1) && iw >= 0 && iw < k.in.dim(2);
              padded.flat<float>()[((b * rows + h) * cols + w) * k.in.dim(3) + ch] =
                  inside
                      ? in.flat<float>()[((b * k.in.dim(1) + ih) * k.in.dim(2) + iw) * k.in.dim(3) +
                                         ch]
                      : 0.f;
            }
      const ConvCase c{k.stride, k.dilation, "VALID", {}};
      OpTester t("Conv2D");
      t.Attr("T", DT_HALF)
          .Attr("strides", std::vector<int64_t>{1, k.stride, k.stride, 1})
          .Attr("dilations", std::vector<int64_t>{1, k.dilation, k.dilation, 1})
          .Attr("padding", k.padding)
          .Input(Cast<half>(in))
          .Input(Cast<half>(f));
      RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
      const Tensor want = Cast<half>(ReferenceConv(padded, f, c, k.out_h, k.out_w, 0, 0));
      ASSERT_EQ(out[0].shape().DebugString(), want.shape().DebugString());
      int nan = 0;
      for (int64_t i = 0; i < want.NumElements(); ++i) {
        const float g = static_cast<float>(out[0].flat<half>()[i]);
        const float w = static_cast<float>(want.flat<half>()[i]);
        if (std::isnan(w)) {
          EXPECT_TRUE(std::isnan(g)) << i << ": " << g;
          ++nan;
        } else {
          EXPECT_EQ(g, w) << i;
        }
      }
      if (non_finite) EXPECT_GT(nan, 0);
    }
  }
}

TEST(Conv2DOpTest, ErrorsAreTensorFlows) {
  const ConvCase valid{1, 1, "VALID", {}};
  EXPECT_THAT(Conv(F({1, 2, 3}, TensorShape({1, 1, 3})), F({1}, TensorShape({1, 1, 1, 1})), valid),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("convolution input must be 4-dimensional: [1,1,3]")));
  EXPECT_THAT(
      Conv(Ramp(TensorShape({1, 2, 2, 3}), 5, 0), Ramp(TensorShape({1, 1, 2, 1}), 5, 0), valid),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("input depth must be evenly divisible by filter depth: 3 vs 2")));
  EXPECT_THAT(
      Conv(Ramp(TensorShape({1, 1, 1, 1}), 5, 0), Ramp(TensorShape({3, 3, 1, 1}), 5, 0), valid),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("Computed output size would be negative: -1 [input_size: 1, "
                         "effective_filter_size: 3, stride: 1]")));
  EXPECT_THAT(Conv(Ramp(TensorShape({1, 2, 2, 1}), 5, 0), Ramp(TensorShape({1, 1, 1, 1}), 5, 0),
                   valid, "NCHW"),
              StatusIs(absl::StatusCode::kUnimplemented,
                       HasSubstr("only supports the NHWC tensor format on the CPU")));
}

absl::StatusOr<std::vector<Tensor>> FusedConvAdd(const Tensor& in, const Tensor& f,
                                                 const Tensor& bias, const Tensor& addend,
                                                 const ConvCase& c,
                                                 const std::vector<std::string>& fused_ops,
                                                 int64_t num_args = 2) {
  OpTester t("_FusedConv2D");
  t.Attr("T", DT_FLOAT)
      .Attr("num_args", num_args)
      .Attr("fused_ops", fused_ops)
      .Attr("strides", std::vector<int64_t>{1, c.stride, c.stride, 1})
      .Attr("dilations", std::vector<int64_t>{1, c.dilation, c.dilation, 1})
      .Attr("padding", c.padding)
      .Attr("explicit_paddings", c.explicit_paddings)
      .Input(in)
      .Input(f)
      .Input(bias);
  if (num_args == 2) t.Input(addend);
  return t.Run();
}

// _FusedConv2D with a residual sum (the optimizer's Conv2D + BiasAdd + AddV2 [+ Relu | Relu6]):
// act((conv + bias) + addend), on oneDNN (sum post-op) and on the im2col path (strides past the
// input), with an addend of the output's shape or broadcast as AddV2 broadcasts.
TEST(FusedConv2DOpTest, ResidualAddIsTheConvolutionPlusBiasPlusAddendThenTheActivation) {
  const Tensor in = Ramp(TensorShape({1, 5, 5, 2}), 7, 1);
  const Tensor f = Ramp(TensorShape({2, 2, 2, 3}), 5, 2);
  const Tensor bias = F({0.5f, -1.f, 2.f}, TensorShape({3}));
  struct Case {
    ConvCase c;
    int64_t out_h, out_w, pad_h, pad_w;
  };
  for (const Case& k : {Case{{1, 1, "SAME", {}}, 5, 5, 0, 0}, Case{{2, 1, "VALID", {}}, 2, 2, 0, 0},
                        Case{{1000000000, 1, "VALID", {}}, 1, 1, 0, 0}}) {
    const Tensor conv = ReferenceConv(in, f, k.c, k.out_h, k.out_w, k.pad_h, k.pad_w);
    const TensorShape out_shape = conv.shape();
    for (const std::string act : {"", "Relu", "Relu6"}) {
      for (const TensorShape& addend_shape :
           {out_shape, TensorShape({3}), TensorShape({2, 1, 1, 3})}) {
        SCOPED_TRACE("stride " + std::to_string(k.c.stride) + " " + act + " addend " +
                     addend_shape.DebugString());
        const Tensor addend = Ramp(addend_shape, 11, 3);
        std::vector<std::string> ops = {"BiasAdd", "Add"};
        if (!act.empty()) ops.push_back(act);
        RILL_ASSERT_OK_AND_ASSIGN(auto out, FusedConvAdd(in, f, bias, addend, k.c, ops));
        // The expected values, broadcast as AddV2 does (the addend's last dim is the channels).
        const int64_t batch =
            addend_shape.rank() == 4 ? std::max(out_shape.dim(0), addend_shape.dim(0)) : 1;
        Tensor want(DT_FLOAT, TensorShape({batch, out_shape.dim(1), out_shape.dim(2), 3}));
        const int64_t per_batch = conv.NumElements();
        for (int64_t i = 0; i < want.NumElements(); ++i) {
          const int64_t ch = i % 3;
          int64_t a = ch;
          if (addend_shape == out_shape) {
            a = i;
          } else if (addend_shape.rank() == 4) {
            a = (i / per_batch) * 3 + ch;
          }
          float v = (conv.flat<float>()[i % per_batch] + bias.flat<float>()[ch]) +
                    addend.flat<float>()[a];
          if (!act.empty()) v = std::max(v, 0.f);
          if (act == "Relu6") v = std::min(v, 6.f);
          want.flat<float>()[i] = v;
        }
        ExpectTensorEqual(out[0], want);
      }
    }
  }
}

TEST(FusedConv2DOpTest, ResidualAddErrors) {
  const Tensor in = Ramp(TensorShape({1, 3, 3, 2}), 7, 1);
  const Tensor f = Ramp(TensorShape({1, 1, 2, 3}), 5, 2);
  const Tensor bias = F({0.5f, -1.f, 2.f}, TensorShape({3}));
  const ConvCase valid{1, 1, "VALID", {}};
  EXPECT_THAT(FusedConvAdd(in, f, bias, Ramp(TensorShape({2}), 5, 0), valid, {"BiasAdd", "Add"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Incompatible shapes: [1,3,3,3] vs. [2]")));
  EXPECT_THAT(FusedConvAdd(in, f, bias, Ramp(TensorShape({3}), 5, 0), valid, {"BiasAdd", "Add"},
                           /*num_args=*/1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Fusion is not implemented: [BiasAdd,Add]")));
  EXPECT_THAT(FusedConvAdd(in, f, bias, Ramp(TensorShape({3}), 5, 0), valid,
                           {"BiasAdd", "Add", "_MklSwish"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Fusion is not implemented: [BiasAdd,Add,_MklSwish]")));
}

absl::StatusOr<std::vector<Tensor>> FusedConvLeaky(const Tensor& in, const Tensor& f,
                                                   const Tensor& bias, const ConvCase& c,
                                                   const std::vector<std::string>& fused_ops,
                                                   std::optional<float> alpha) {
  OpTester t("_FusedConv2D");
  t.Attr("T", in.dtype())
      .Attr("num_args", int64_t{1})
      .Attr("fused_ops", fused_ops)
      .Attr("strides", std::vector<int64_t>{1, c.stride, c.stride, 1})
      .Attr("padding", c.padding);
  if (alpha) t.Attr("leakyrelu_alpha", *alpha);
  return t.Input(in).Input(f).Input(bias).Run();
}

// _FusedConv2D with fused_ops ["BiasAdd", "LeakyRelu"] (TensorFlow's remapper's form) is the
// ["BiasAdd"] output through the LeakyRelu kernel's x > 0 ? x : x * alpha, bit for bit: on oneDNN
// and on the im2col path (a stride past the input), float and double, NaN inputs, alpha 0.2
// (also the default when leakyrelu_alpha is absent), 0 and 1.5.
template <typename T>
void ExpectFusedLeakyReluIsBiasAddThenLeakyRelu() {
  Tensor in(DataTypeToEnum<T>::value, TensorShape({1, 5, 5, 2}));
  for (int64_t i = 0; i < in.NumElements(); ++i) {
    in.flat<T>()[i] = static_cast<T>(static_cast<int>(i * 7 % 13) - 6) / T(3);
  }
  in.flat<T>()[7] = std::numeric_limits<T>::quiet_NaN();
  Tensor f(DataTypeToEnum<T>::value, TensorShape({2, 2, 2, 3}));
  for (int64_t i = 0; i < f.NumElements(); ++i) {
    f.flat<T>()[i] = static_cast<T>(static_cast<int>(i * 5 % 11) - 5) / T(7);
  }
  Tensor bias(DataTypeToEnum<T>::value, TensorShape({3}));
  bias.flat<T>()[0] = T(0.5);
  bias.flat<T>()[1] = T(-1);
  bias.flat<T>()[2] = T(0.25);
  for (const ConvCase& c : {ConvCase{1, 1, "SAME", {}}, ConvCase{1000000000, 1, "VALID", {}}}) {
    RILL_ASSERT_OK_AND_ASSIGN(auto plain, FusedConvLeaky(in, f, bias, c, {"BiasAdd"}, 0.2f));
    for (std::optional<float> alpha : {std::optional<float>(), std::optional<float>(0.2f),
                                       std::optional<float>(0.f), std::optional<float>(1.5f)}) {
      SCOPED_TRACE("stride " + std::to_string(c.stride) + " alpha " +
                   (alpha ? std::to_string(*alpha) : "default"));
      RILL_ASSERT_OK_AND_ASSIGN(auto out,
                                FusedConvLeaky(in, f, bias, c, {"BiasAdd", "LeakyRelu"}, alpha));
      Tensor want(plain[0].dtype(), plain[0].shape());
      const T a = static_cast<T>(alpha.value_or(0.2f));
      int64_t nans = 0, negatives = 0;
      for (int64_t i = 0; i < want.NumElements(); ++i) {
        const T x = plain[0].flat<T>()[i];
        nans += std::isnan(x) ? 1 : 0;
        negatives += x < T(0) ? 1 : 0;
        want.flat<T>()[i] = x > T(0) ? x : x * a;
      }
      if (c.stride == 1) EXPECT_GT(nans, 0);  // the other reads one input pixel, not the NaN
      EXPECT_GT(negatives, 0);
      ASSERT_EQ(out[0].shape(), want.shape());
      for (int64_t i = 0; i < want.NumElements(); ++i) {
        const T got = out[0].flat<T>()[i], expected = want.flat<T>()[i];
        EXPECT_TRUE((std::isnan(got) && std::isnan(expected)) ||
                    (got == expected && std::signbit(got) == std::signbit(expected)))
            << "element " << i << ": " << got << " vs " << expected;
      }
    }
  }
  EXPECT_THAT(FusedConvAdd(in, f, bias, bias, ConvCase{1, 1, "SAME", {}}, {"BiasAdd", "LeakyRelu"},
                           /*num_args=*/2),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Fusion is not implemented: [BiasAdd,LeakyRelu]")));
}

TEST(FusedConv2DOpTest, LeakyReluIsBiasAddThenLeakyReluFloat) {
  ExpectFusedLeakyReluIsBiasAddThenLeakyRelu<float>();
}

TEST(FusedConv2DOpTest, LeakyReluIsBiasAddThenLeakyReluDouble) {
  ExpectFusedLeakyReluIsBiasAddThenLeakyRelu<double>();
}

// A grouped Conv2D (input depth G times the filter's) is G independent convolutions: group k's
// output channels [k * Cout/G, (k+1) * Cout/G) from input channels [k * Cin/G, (k+1) * Cin/G).
template <typename T>
void ExpectGroupedIsPerGroup(int threads) {
  const int64_t groups = 3, cin_g = 2, cout_g = 2;
  const TensorShape in_shape({2, 6, 5, groups * cin_g});
  const TensorShape f_shape({3, 2, cin_g, groups * cout_g});
  auto ramp = [](const TensorShape& s, int mod) {
    std::vector<T> v(s.num_elements());
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<T>(static_cast<int>(i * 7 % mod) - 3);
    return Tensor::FromVector<T>(v, s);
  };
  const Tensor in = ramp(in_shape, 7), f = ramp(f_shape, 5);
  auto conv = [&](const Tensor& x, const Tensor& w) {
    OpTester t("Conv2D");
    t.Attr("T", DataTypeToEnum<T>::value)
        .Attr("strides", std::vector<int64_t>{1, 2, 1, 1})
        .Attr("padding", std::string("SAME"))
        .Input(x)
        .Input(w);
    t.SetIntraOpThreads(threads);
    return t.Run();
  };
  RILL_ASSERT_OK_AND_ASSIGN(auto grouped, conv(in, f));
  ASSERT_EQ(grouped[0].shape(), TensorShape({2, 3, 5, groups * cout_g}));
  const int64_t pixels = 2 * 3 * 5;
  for (int64_t k = 0; k < groups; ++k) {
    Tensor xin(DataTypeToEnum<T>::value, TensorShape({2, 6, 5, cin_g}));
    for (int64_t p = 0; p < 2 * 6 * 5; ++p)
      for (int64_t c = 0; c < cin_g; ++c)
        xin.flat<T>()[p * cin_g + c] = in.flat<T>()[p * groups * cin_g + k * cin_g + c];
    Tensor w(DataTypeToEnum<T>::value, TensorShape({3, 2, cin_g, cout_g}));
    for (int64_t t = 0; t < 3 * 2 * cin_g; ++t)
      for (int64_t c = 0; c < cout_g; ++c)
        w.flat<T>()[t * cout_g + c] = f.flat<T>()[t * groups * cout_g + k * cout_g + c];
    RILL_ASSERT_OK_AND_ASSIGN(auto part, conv(xin, w));
    for (int64_t p = 0; p < pixels; ++p)
      for (int64_t c = 0; c < cout_g; ++c)
        ASSERT_EQ(grouped[0].template flat<T>()[p * groups * cout_g + k * cout_g + c],
                  part[0].template flat<T>()[p * cout_g + c])
            << "group " << k << " pixel " << p << " channel " << c;
  }
}

TEST(Conv2DOpTest, GroupedIsOneConvolutionPerGroup) {
  ExpectGroupedIsPerGroup<float>(1);  // oneDNN's grouped convolution
  ExpectGroupedIsPerGroup<float>(4);
  ExpectGroupedIsPerGroup<double>(1);  // im2col + GEMM per group
  ExpectGroupedIsPerGroup<int32_t>(4);
}

TEST(Conv2DOpTest, GroupedErrors) {
  const ConvCase valid{1, 1, "VALID", {}};
  EXPECT_THAT(
      Conv(Ramp(TensorShape({1, 3, 3, 6}), 5, 0), Ramp(TensorShape({1, 1, 2, 4}), 5, 0), valid),
      StatusIs(absl::StatusCode::kInvalidArgument,
               "output depth must be evenly divisible by number of groups: 4 vs 3"));
  EXPECT_THAT(
      Conv(Ramp(TensorShape({1, 3, 3, 6}), 5, 0), Tensor(DT_FLOAT, TensorShape({1, 1, 0, 4})),
           valid),
      StatusIs(absl::StatusCode::kInvalidArgument, "filter depth must be stricly positive, got 0"));
  // An empty input depth with a non-empty filter sums nothing: zeros, as in TensorFlow.
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Conv(Tensor(DT_FLOAT, TensorShape({1, 3, 3, 0})),
                                           Ramp(TensorShape({1, 1, 2, 4}), 5, 0), valid));
  ExpectTensorEqual(out[0], Tensor(DT_FLOAT, TensorShape({1, 3, 3, 4})));
}

TEST(Conv2DBackpropInputOpTest, IsTheTransposeOfConv2D) {
  // <conv(x, f), g> == <x, backprop_input(f, g)> for every x and g: check with unit vectors x.
  const Tensor f = Ramp(TensorShape({3, 3, 2, 2}), 5, 1);
  const Tensor g = Ramp(TensorShape({1, 3, 3, 2}), 7, 3);  // SAME, stride 2 over 5x5 -> 3x3
  OpTester t("Conv2DBackpropInput");
  t.Attr("T", DT_FLOAT)
      .Attr("strides", std::vector<int64_t>{1, 2, 2, 1})
      .Attr("padding", "SAME")
      .Input(Tensor::FromVector<int32_t>({1, 5, 5, 2}, TensorShape({4})))
      .Input(f)
      .Input(g);
  RILL_ASSERT_OK_AND_ASSIGN(auto dx, t.Run());
  ASSERT_EQ(dx[0].shape(), TensorShape({1, 5, 5, 2}));
  const ConvCase same2{2, 1, "SAME", {}};
  for (int64_t i = 0; i < 50; ++i) {
    std::vector<float> unit(50, 0);
    unit[i] = 1;
    RILL_ASSERT_OK_AND_ASSIGN(auto y, Conv(F(unit, TensorShape({1, 5, 5, 2})), f, same2));
    float dot = 0;
    for (int64_t j = 0; j < g.NumElements(); ++j) dot += y[0].flat<float>()[j] * g.flat<float>()[j];
    EXPECT_EQ(dx[0].flat<float>()[i], dot) << "input element " << i;
  }
}

// dx[n, h, w, ci] = sum of dy[n, oh, ow, co] * f[kh, kw, ci, co] over the windows covering
// (h, w): a direct loop for a 3x3 stride-2 VALID convolution of [1, 8, 7, 3] (3x3 windows; the
// last input row and column lie past every window).
std::vector<float> DirectBackpropInput(const Tensor& f, const Tensor& dy) {
  std::vector<float> dx(8 * 7 * 3, 0.f);
  for (int oh = 0; oh < 3; ++oh)
    for (int ow = 0; ow < 3; ++ow)
      for (int kh = 0; kh < 3; ++kh)
        for (int kw = 0; kw < 3; ++kw)
          for (int ci = 0; ci < 3; ++ci)
            for (int co = 0; co < 2; ++co) {
              dx[((oh * 2 + kh) * 7 + ow * 2 + kw) * 3 + ci] +=
                  dy.flat<float>()[(oh * 3 + ow) * 2 + co] *
                  f.flat<float>()[((kh * 3 + kw) * 3 + ci) * 2 + co];
            }
  return dx;
}

TEST(Conv2DBackpropInputOpTest, MatchesADirectLoopWithUnreachedRowsAndNonFiniteWeights) {
  // Finite weights run on oneDNN's deconvolution; an inf weight keeps the path that forms every
  // product (inf * 0 is NaN wherever that weight meets a zero gradient). With
  // _rill_constant_weights (a Const filter) the kernel keeps the reordered filter and reads the
  // filter's finiteness from it: the same results.
  for (bool constant : {false, true}) {
    for (bool inf_weight : {false, true}) {
      SCOPED_TRACE(std::string(inf_weight ? "inf weight" : "finite weights") +
                   (constant ? ", constant" : ""));
      Tensor f = Ramp(TensorShape({3, 3, 3, 2}), 5, 1);
      if (inf_weight) f.flat<float>()[7] = std::numeric_limits<float>::infinity();
      const Tensor dy = Ramp(TensorShape({1, 3, 3, 2}), 5, 2);
      OpTester t("Conv2DBackpropInput");
      t.Attr("T", DT_FLOAT)
          .Attr("strides", std::vector<int64_t>{1, 2, 2, 1})
          .Attr("padding", "VALID")
          .Input(Tensor::FromVector<int32_t>({1, 8, 7, 3}, TensorShape({4})))
          .Input(f)
          .Input(dy);
      if (constant) t.Attr("_rill_constant_weights", true);
      RILL_ASSERT_OK_AND_ASSIGN(auto dx, t.Run());
      ASSERT_EQ(dx[0].shape(), TensorShape({1, 8, 7, 3}));
      const std::vector<float> want = DirectBackpropInput(f, dy);
      for (size_t i = 0; i < want.size(); ++i) {
        const float got = dx[0].flat<float>()[i];
        if (std::isnan(want[i])) {
          EXPECT_TRUE(std::isnan(got)) << i;
        } else {
          EXPECT_EQ(got, want[i]) << i;
        }
      }
    }
  }
}

TEST(Conv2DBackpropFilterOpTest, IsTheAdjointOfConv2DInTheFilter) {
  // <conv(x, f), g> == <f, backprop_filter(x, g)> for every f: check with unit filters.
  const Tensor x = Ramp(TensorShape({2, 5, 5, 2}), 7, 1);
  const Tensor g = Ramp(TensorShape({2, 3, 3, 2}), 5, 2);  // SAME, stride 2 over 5x5 -> 3x3
  OpTester t("Conv2DBackpropFilter");
  t.Attr("T", DT_FLOAT)
      .Attr("strides", std::vector<int64_t>{1, 2, 2, 1})
      .Attr("padding", "SAME")
      .Input(x)
      .Input(Tensor::FromVector<int32_t>({3, 3, 2, 2}, TensorShape({4})))
      .Input(g);
  RILL_ASSERT_OK_AND_ASSIGN(auto df, t.Run());
  ASSERT_EQ(df[0].shape(), TensorShape({3, 3, 2, 2}));
  const ConvCase same2{2, 1, "SAME", {}};
  for (int64_t i = 0; i < 36; ++i) {
    std::vector<float> unit(36, 0);
    unit[i] = 1;
    RILL_ASSERT_OK_AND_ASSIGN(auto y, Conv(x, F(unit, TensorShape({3, 3, 2, 2})), same2));
    float dot = 0;
    for (int64_t j = 0; j < g.NumElements(); ++j) dot += y[0].flat<float>()[j] * g.flat<float>()[j];
    EXPECT_EQ(df[0].flat<float>()[i], dot) << "filter element " << i;
  }
}

}  // namespace
}  // namespace rill
