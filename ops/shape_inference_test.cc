#include "ops/shape_inference.h"

#include <limits>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ops/attr_value_util.h"
#include "ops/op_registry.h"
#include "ops/window_geometry.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

absl::StatusOr<std::vector<PartialTensorShape>> Infer(const NodeDef& node,
                                                      std::vector<PartialTensorShape> inputs,
                                                      int outputs) {
  const OpRegistration* reg = OpRegistry::Global()->LookUp(node.op());
  ShapeInferenceContext c(node, std::move(inputs), outputs);
  absl::Status s = reg->shape_fn(c);
  if (!s.ok()) return s;
  return c.TakeOutputs();
}

NodeDef MatMul(bool ta, bool tb) {
  NodeDef n;
  n.set_name("mm");
  n.set_op("MatMul");
  SetAttr(&n, "transpose_a", ta);
  SetAttr(&n, "transpose_b", tb);
  return n;
}

TEST(ShapeInferenceTest, MatMulWithTransposeAndUnknownDims) {
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out,
      Infer(MatMul(false, false), {PartialTensorShape({2, 3}), PartialTensorShape({3, 5})}, 1));
  EXPECT_EQ(out[0].DebugString(), "[2,5]");
  RILL_ASSERT_OK_AND_ASSIGN(
      out, Infer(MatMul(true, false), {PartialTensorShape({-1, 4}), PartialTensorShape()}, 1));
  EXPECT_EQ(out[0].DebugString(), "[4,?]");
  EXPECT_THAT(
      Infer(MatMul(false, false), {PartialTensorShape({2, 3}), PartialTensorShape({4, 5})}, 1),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("Dimensions must be equal, but are 3 and 4 for node 'mm'")));
  EXPECT_THAT(Infer(MatMul(false, false), {PartialTensorShape({2}), PartialTensorShape()}, 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Shape must be rank 2 but is rank 1 for node 'mm'")));
}

TEST(ShapeInferenceTest, BroadcastFollowsNumpyRules) {
  NodeDef add;
  add.set_name("add");
  add.set_op("AddV2");
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out, Infer(add, {PartialTensorShape({4, 1, 3}), PartialTensorShape({5, 1})}, 1));
  EXPECT_EQ(out[0].DebugString(), "[4,5,3]");
  RILL_ASSERT_OK_AND_ASSIGN(out,
                            Infer(add, {PartialTensorShape({-1, 3}), PartialTensorShape({3})}, 1));
  EXPECT_EQ(out[0].DebugString(), "[?,3]");
  EXPECT_THAT(Infer(add, {PartialTensorShape({2}), PartialTensorShape({3})}, 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Incompatible shapes: [2] vs. [3] for node 'add'")));
}

// Equal and NotEqual with incompatible_shape_error=false take operands that do not broadcast (the
// kernel gives a scalar false / true): the output shape is unknown, as in TensorFlow.
TEST(ShapeInferenceTest, EqualityWithoutIncompatibleShapeError) {
  for (const char* op : {"Equal", "NotEqual"}) {
    NodeDef eq;
    eq.set_name("eq");
    eq.set_op(op);
    EXPECT_THAT(Infer(eq, {PartialTensorShape({2}), PartialTensorShape({2, 3})}, 1).status(),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("Incompatible shapes: [2] vs. [2,3] for node 'eq'")));
    SetAttr(&eq, "incompatible_shape_error", false);
    RILL_ASSERT_OK_AND_ASSIGN(auto out,
                              Infer(eq, {PartialTensorShape({2}), PartialTensorShape({2, 3})}, 1));
    EXPECT_TRUE(out[0].unknown_rank()) << op;
    RILL_ASSERT_OK_AND_ASSIGN(out,
                              Infer(eq, {PartialTensorShape({3}), PartialTensorShape({2, 3})}, 1));
    EXPECT_EQ(out[0].DebugString(), "[2,3]");
  }
}

TEST(ShapeInferenceTest, PlaceholderUsesShapeAttrAndUnknownRankDefault) {
  NodeDef p;
  p.set_name("p");
  p.set_op("Placeholder");
  TensorShapeProto shape;
  shape.add_dim()->set_size(-1);
  shape.add_dim()->set_size(3);
  SetAttr(&p, "shape", shape);
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Infer(p, {}, 1));
  EXPECT_EQ(out[0].DebugString(), "[?,3]");
}

// Runs `op`'s shape function with the partial values `values` of its inputs.
PartialTensorShape InferWithValues(const std::string& op, std::vector<PartialTensorShape> inputs,
                                   std::vector<std::optional<PartialValue>> values,
                                   std::vector<const Tensor*> tensors = {}) {
  NodeDef n;
  n.set_name("n");
  n.set_op(op);
  const OpRegistration* reg = OpRegistry::Global()->LookUp(op);
  ShapeInferenceContext c(n, std::move(inputs), 1, std::move(tensors));
  c.set_input_values(std::move(values));
  EXPECT_TRUE(reg->shape_fn(c).ok());
  return c.output(0);
}

TEST(ShapeFromShapeTensorTest, PartialValuesShapeFillReshapeTileAndBroadcastTo) {
  const PartialValue batch_by_4{false, {-1, 4}};
  EXPECT_EQ(InferWithValues("Fill", {PartialTensorShape({2}), PartialTensorShape({})}, {batch_by_4})
                .DebugString(),
            "[?,4]");
  EXPECT_EQ(InferWithValues("BroadcastTo", {PartialTensorShape({4}), PartialTensorShape({2})},
                            {std::nullopt, batch_by_4})
                .DebugString(),
            "[?,4]");
  EXPECT_EQ(InferWithValues("RandomUniform", {PartialTensorShape({2})}, {batch_by_4}).DebugString(),
            "[?,4]");
  // Reshape resolves the one unknown dim from a fully defined input: 24 / 4.
  EXPECT_EQ(InferWithValues("Reshape", {PartialTensorShape({2, 3, 4}), PartialTensorShape({2})},
                            {std::nullopt, batch_by_4})
                .DebugString(),
            "[6,4]");
  EXPECT_EQ(InferWithValues("Reshape", {PartialTensorShape({-1, 3, 4}), PartialTensorShape({2})},
                            {std::nullopt, batch_by_4})
                .DebugString(),
            "[?,4]");
  EXPECT_EQ(InferWithValues("Tile", {PartialTensorShape({1, 2}), PartialTensorShape({2})},
                            {std::nullopt, batch_by_4})
                .DebugString(),
            "[?,8]");
}

TEST(ShapeFromShapeTensorTest, TileProductsPastInt64AreTensorFlowsError) {
  NodeDef n;
  n.set_name("n");
  n.set_op("Tile");
  ShapeInferenceContext c(n, {PartialTensorShape({int64_t{1} << 62, 2}), PartialTensorShape({2})},
                          1, {});
  c.set_input_values({std::nullopt, PartialValue{false, {4, 2}}});
  EXPECT_THAT(OpRegistry::Global()->LookUp("Tile")->shape_fn(c),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Negative dimension size caused by overflow when multiplying "
                       "4611686018427387904 and 4"));
}

TEST(ShapeFromShapeTensorTest, ConstantsLengthsAndValuesTheKernelRefuses) {
  // Without a value, a shape vector of known length gives the rank.
  EXPECT_EQ(
      InferWithValues("Fill", {PartialTensorShape({3}), PartialTensorShape({})}, {}).DebugString(),
      "[?,?,?]");
  EXPECT_EQ(
      InferWithValues("Fill", {PartialTensorShape({-1}), PartialTensorShape({})}, {}).DebugString(),
      "<unknown>");
  // A constant -1 is an unknown dim; -2 is the kernel's to refuse; a scalar -1 an unknown rank.
  const Tensor dims = Tensor::FromVector<int32_t>({-1, 5}, TensorShape({2}));
  EXPECT_EQ(InferWithValues("Fill", {PartialTensorShape({2}), PartialTensorShape({})}, {}, {&dims})
                .DebugString(),
            "[?,5]");
  const Tensor bad = Tensor::FromVector<int32_t>({-2, 5}, TensorShape({2}));
  EXPECT_EQ(InferWithValues("Fill", {PartialTensorShape({2}), PartialTensorShape({})}, {}, {&bad})
                .DebugString(),
            "<unknown>");
  const Tensor scalar = Tensor::FromVector<int32_t>({-1}, TensorShape({}));
  EXPECT_EQ(InferWithValues("Fill", {PartialTensorShape({}), PartialTensorShape({})}, {}, {&scalar})
                .DebugString(),
            "<unknown>");
  // A constant wins over a partial value.
  EXPECT_EQ(InferWithValues("Fill", {PartialTensorShape({2}), PartialTensorShape({})},
                            {PartialValue{false, {-1, -1}}}, {&dims})
                .DebugString(),
            "[?,5]");
}

TEST(RangeShapeTest, KnownBoundsGiveTheLengthUnknownOrRefusedGiveUnknown) {
  const Tensor zero = Tensor::FromVector<int32_t>({0}, TensorShape({}));
  const Tensor one = Tensor::FromVector<int32_t>({1}, TensorShape({}));
  const Tensor minus_three = Tensor::FromVector<int32_t>({-3}, TensorShape({}));
  const Tensor ten = Tensor::FromVector<int32_t>({10}, TensorShape({}));
  const std::vector<PartialTensorShape> scalars(3, PartialTensorShape(std::vector<int64_t>{}));
  // limit = Size(Shape(x)) for x of rank 3: the partial value 3.
  EXPECT_EQ(InferWithValues("Range", scalars, {std::nullopt, PartialValue{true, {3}}},
                            {&zero, nullptr, &one})
                .DebugString(),
            "[3]");
  EXPECT_EQ(InferWithValues("Range", scalars, {}, {&ten, &zero, &minus_three}).DebugString(),
            "[4]");
  EXPECT_EQ(InferWithValues("Range", scalars, {}, {&zero, &ten, &minus_three}).DebugString(),
            "[?]");
  EXPECT_EQ(InferWithValues("Range", scalars, {}, {&zero, &ten, &zero}).DebugString(), "[?]");
  EXPECT_EQ(InferWithValues("Range", scalars, {std::nullopt, PartialValue{true, {-1}}},
                            {&zero, nullptr, &one})
                .DebugString(),
            "[?]");
  const Tensor lowest =
      Tensor::FromVector<int64_t>({std::numeric_limits<int64_t>::min()}, TensorShape({}));
  const Tensor highest =
      Tensor::FromVector<int64_t>({std::numeric_limits<int64_t>::max()}, TensorShape({}));
  const Tensor step = Tensor::FromVector<int64_t>({1}, TensorShape({}));
  EXPECT_EQ(InferWithValues("Range", scalars, {}, {&lowest, &highest, &step}).DebugString(), "[?]");
  EXPECT_EQ(InferWithValues("LinSpace", scalars, {}, {nullptr, nullptr, &ten}).DebugString(),
            "[10]");
  EXPECT_EQ(InferWithValues("LinSpace", scalars, {}, {nullptr, nullptr, &zero}).DebugString(),
            "[?]");
}

// Pad, PadV2 and MirrorPad with constant paddings give the padded dims (TensorFlow's shape
// function), so a VALID window after them is checked against the padded size; paddings the kernel
// refuses, unknown dims and sums past int64 leave the dim unknown.
TEST(PadShapeTest, ConstantPaddingsGiveThePaddedDims) {
  const Tensor pads = Tensor::FromVector<int32_t>({0, 0, 1, 2, 0, 0}, TensorShape({3, 2}));
  for (const char* op : {"Pad", "PadV2", "MirrorPad"}) {
    EXPECT_EQ(InferWithValues(op, {PartialTensorShape({2, 3, -1}), PartialTensorShape({3, 2})}, {},
                              {nullptr, &pads})
                  .DebugString(),
              "[2,6,?]")
        << op;
  }
  const Tensor negative = Tensor::FromVector<int64_t>({-1, 0, 1, 1}, TensorShape({2, 2}));
  EXPECT_EQ(InferWithValues("Pad", {PartialTensorShape({4, 1}), PartialTensorShape({2, 2})}, {},
                            {nullptr, &negative})
                .DebugString(),
            "[?,3]");
  const Tensor huge = Tensor::FromVector<int64_t>({0, std::numeric_limits<int64_t>::max(), 0, 0},
                                                  TensorShape({2, 2}));
  EXPECT_EQ(InferWithValues("Pad", {PartialTensorShape({4, 1}), PartialTensorShape({2, 2})}, {},
                            {nullptr, &huge})
                .DebugString(),
            "[?,1]");
  // Without constant paddings only the rank is known.
  EXPECT_EQ(InferWithValues("Pad", {PartialTensorShape({4, 1}), PartialTensorShape({2, 2})}, {})
                .DebugString(),
            "[?,?]");
}

TEST(DynamicStitchShapeTest, KnownIndicesGiveTheLength) {
  // Sum's gradient: DynamicStitch([range(rank), axes], [shape(x), ones]) for x of shape [?, 10].
  const Tensor axes = Tensor::FromVector<int32_t>({1}, TensorShape({1}));
  const std::vector<PartialTensorShape> inputs = {PartialTensorShape({2}), PartialTensorShape({1}),
                                                  PartialTensorShape({2}), PartialTensorShape({1})};
  EXPECT_EQ(
      InferWithValues("DynamicStitch", inputs, {PartialValue{false, {0, 1}}}, {nullptr, &axes})
          .DebugString(),
      "[2]");
  // An index not known: the length is unknown, the trailing dims still merge.
  EXPECT_EQ(
      InferWithValues("DynamicStitch", inputs, {PartialValue{false, {0, -1}}}, {nullptr, &axes})
          .DebugString(),
      "[?]");
  const std::vector<PartialTensorShape> rows = {PartialTensorShape({2}), PartialTensorShape({3}),
                                                PartialTensorShape({2, -1}),
                                                PartialTensorShape({3, 4})};
  const Tensor first = Tensor::FromVector<int32_t>({0, 4}, TensorShape({2}));
  const Tensor second = Tensor::FromVector<int32_t>({1, 2, 3}, TensorShape({3}));
  EXPECT_EQ(InferWithValues("DynamicStitch", rows, {}, {&first, &second}).DebugString(), "[5,4]");
}

// A window op `op` with padding, strides and its window attr (ksize for pools).
NodeDef WindowNode(const std::string& op, const std::string& padding,
                   const std::vector<int64_t>& strides, const std::vector<int64_t>& ksize = {}) {
  NodeDef n;
  n.set_name("w");
  n.set_op(op);
  SetAttr(&n, "padding", padding);
  SetAttr(&n, "strides", strides);
  if (!ksize.empty()) SetAttr(&n, "ksize", ksize);
  return n;
}

TEST(WindowShapeTest, ValidWindowsLargerThanTheInputAreTensorFlowsError) {
  // TensorFlow 2.21's shape functions (graph construction) refuse these; its kernels would give
  // an empty output.
  const auto negative = [](const std::string& what) {
    return StatusIs(absl::StatusCode::kInvalidArgument,
                    HasSubstr("Negative dimension size caused by subtracting " + what));
  };
  const PartialTensorShape x({1, 2, 2, 2});
  EXPECT_THAT(
      Infer(WindowNode("Conv2D", "VALID", {1, 1, 1, 1}), {x, PartialTensorShape({3, 3, 2, 3})}, 1),
      negative("3 from 2"));
  NodeDef dilated = WindowNode("Conv2D", "VALID", {1, 1, 1, 1});
  SetAttr(&dilated, "dilations", std::vector<int64_t>{1, 4, 4, 1});
  EXPECT_THAT(
      Infer(dilated, {PartialTensorShape({1, 4, 4, 2}), PartialTensorShape({2, 2, 2, 3})}, 1),
      negative("5 from 4"));
  NodeDef explicit_pad = WindowNode("Conv2D", "EXPLICIT", {1, 1, 1, 1});
  SetAttr(&explicit_pad, "explicit_paddings", std::vector<int64_t>{0, 0, 1, 0, 1, 0, 0, 0});
  EXPECT_THAT(Infer(explicit_pad, {x, PartialTensorShape({4, 4, 2, 3})}, 1), negative("4 from 3"));
  EXPECT_THAT(Infer(WindowNode("Conv2D", "VALID", {1, 1, 1, 1}),
                    {PartialTensorShape({1, 0, 4, 2}), PartialTensorShape({2, 2, 2, 3})}, 1),
              negative("2 from 0"));
  EXPECT_THAT(Infer(WindowNode("DepthwiseConv2dNative", "VALID", {1, 1, 1, 1}),
                    {x, PartialTensorShape({3, 3, 2, 1})}, 1),
              negative("3 from 2"));
  for (const char* op : {"MaxPool", "AvgPool"}) {
    EXPECT_THAT(Infer(WindowNode(op, "VALID", {1, 1, 1, 1}, {1, 3, 3, 1}), {x}, 1),
                negative("3 from 2"))
        << op;
  }
  EXPECT_THAT(Infer(WindowNode("MaxPool", "VALID", {1, 1, 1, 3}, {1, 1, 1, 3}), {x}, 1),
              negative("3 from 2"));
  EXPECT_THAT(Infer(WindowNode("MaxPoolWithArgmax", "VALID", {1, 1, 1, 1}, {1, 3, 3, 1}), {x}, 2),
              negative("3 from 2"));
  const PartialTensorShape x5({1, 2, 2, 2, 2});
  EXPECT_THAT(Infer(WindowNode("Conv3D", "VALID", {1, 1, 1, 1, 1}),
                    {x5, PartialTensorShape({3, 1, 1, 2, 3})}, 1),
              negative("3 from 2"));
  for (const char* op : {"MaxPool3D", "AvgPool3D"}) {
    EXPECT_THAT(Infer(WindowNode(op, "VALID", {1, 1, 1, 1, 1}, {1, 3, 1, 1, 1}), {x5}, 1),
                negative("3 from 2"))
        << op;
  }
  // SAME, a window that fits, and an unknown input dim are not refused.
  RILL_ASSERT_OK_AND_ASSIGN(auto same, Infer(WindowNode("Conv2D", "SAME", {1, 1, 1, 1}),
                                             {x, PartialTensorShape({3, 3, 2, 3})}, 1));
  EXPECT_EQ(same[0].DebugString(), "[1,2,2,3]");
  RILL_ASSERT_OK_AND_ASSIGN(
      auto fits, Infer(WindowNode("MaxPool", "VALID", {1, 1, 1, 1}, {1, 2, 2, 1}), {x}, 1));
  EXPECT_EQ(fits[0].DebugString(), "[1,1,1,2]");
  RILL_ASSERT_OK_AND_ASSIGN(
      auto unknown,
      Infer(WindowNode("Conv2D", "VALID", {1, 1, 1, 1}),
            {PartialTensorShape({1, -1, 2, 2}), PartialTensorShape({3, 2, 2, 3})}, 1));
  EXPECT_EQ(unknown[0].DebugString(), "[1,?,1,3]");
}

TEST(WindowShapeTest, Int64ExtremesDoNotOverflow) {
  // UBSan in the every-op sweep under --config=asan: filter, stride and padding attrs at the
  // int64 extremes overflowed the window arithmetic.
  const int64_t max = std::numeric_limits<int64_t>::max();
  const int64_t min = std::numeric_limits<int64_t>::min();
  EXPECT_THAT(ComputeWindow(4, min, 1, 1, Padding::kValid).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("overflows int64")));
  EXPECT_THAT(ComputeWindow(4, 3, max, 1, Padding::kSame).status(), IsOk());
  RILL_ASSERT_OK_AND_ASSIGN(Window same, ComputeWindow(max, 3, max, 1, Padding::kSame));
  EXPECT_EQ(same.out, 1);
  EXPECT_EQ(same.pad_before, 0);
  EXPECT_THAT(ComputeWindow(4, 3, 1, 1, Padding::kExplicit, max, 2).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("overflows int64")));
  EXPECT_THAT(ComputeWindow(4, 3, 1, max, Padding::kValid).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("overflows int64")));
  EXPECT_THAT(ComputeWindow(1, 3, 1, 1, Padding::kValid).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Computed output size would be negative: -1 [input_size: 1, "
                                 "effective_filter_size: 3, stride: 1]")));
}

TEST(AudioSpectrogramShapeTest, HugeWindowsEndAndLeaveTheKernelToRefuse) {
  // The power of two at least window_size overflowed int64 for windows past 2^62 and looped
  // forever (the every-op sweep's window_size=2^63-1); windows past the kernel's 2^30 bound give an
  // unknown shape, and the kernel's "Spectrogram initialization failed" error.
  for (int64_t window :
       {std::numeric_limits<int64_t>::max(), (int64_t{1} << 62) + 1, (int64_t{1} << 30) + 1}) {
    NodeDef n;
    n.set_name("s");
    n.set_op("AudioSpectrogram");
    SetAttr(&n, "window_size", window);
    SetAttr(&n, "stride", int64_t{1});
    RILL_ASSERT_OK_AND_ASSIGN(auto out, Infer(n, {PartialTensorShape({2, 3})}, 1));
    EXPECT_EQ(out[0].DebugString(), "<unknown>") << window;
  }
  NodeDef n;
  n.set_name("s");
  n.set_op("AudioSpectrogram");
  SetAttr(&n, "window_size", int64_t{5});
  SetAttr(&n, "stride", int64_t{2});
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Infer(n, {PartialTensorShape({9, 3})}, 1));
  EXPECT_EQ(out[0].DebugString(), "[3,3,5]");
}

TEST(ShapeInferenceTest, BiasAddGradNeedsAChannelDim) {
  NodeDef n;
  n.set_name("bg");
  n.set_op("BiasAddGrad");
  SetAttr(&n, "data_format", std::string("NCHW"));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Infer(n, {PartialTensorShape({2, 3, 5})}, 1));
  EXPECT_EQ(out[0].DebugString(), "[3]");
  // A matrix has no NCHW channel dim: TensorFlow's shape function refuses it.
  EXPECT_THAT(Infer(n, {PartialTensorShape({2, 3})}, 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Shape must be at least rank 3 but is rank 2 for node 'bg' (op "
                       "BiasAddGrad, data_format NCHW, input 0 with shape [2,3])"));
  SetAttr(&n, "data_format", std::string("NHWC"));
  RILL_ASSERT_OK_AND_ASSIGN(out, Infer(n, {PartialTensorShape({2, 3})}, 1));
  EXPECT_EQ(out[0].DebugString(), "[3]");
  EXPECT_THAT(Infer(n, {PartialTensorShape({3})}, 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Shape must be at least rank 2 but is rank 1 for node 'bg'")));
}

TEST(ShapeInferenceTest, BiasAddNeedsAChannelDim) {
  NodeDef n;
  n.set_name("ba");
  n.set_op("BiasAdd");
  SetAttr(&n, "data_format", std::string("NCHW"));
  RILL_ASSERT_OK_AND_ASSIGN(auto out,
                            Infer(n, {PartialTensorShape({2, 3, -1}), PartialTensorShape({3})}, 1));
  EXPECT_EQ(out[0].DebugString(), "[2,3,?]");
  EXPECT_THAT(Infer(n, {PartialTensorShape({2, 3}), PartialTensorShape({3})}, 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Shape must be at least rank 3 but is rank 2 for node 'ba' (op BiasAdd, "
                       "data_format NCHW, input 0 with shape [2,3])"));
  RILL_ASSERT_OK_AND_ASSIGN(out, Infer(n, {PartialTensorShape(), PartialTensorShape({3})}, 1));
  EXPECT_EQ(out[0].DebugString(), "<unknown>");
  SetAttr(&n, "data_format", std::string("NHWC"));
  RILL_ASSERT_OK_AND_ASSIGN(out,
                            Infer(n, {PartialTensorShape({2, 3}), PartialTensorShape({3})}, 1));
  EXPECT_EQ(out[0].DebugString(), "[2,3]");
}

// A space is an Einsum label, as in the kernel and TensorFlow 2.21 ("i j,j k->i k" wants rank-3
// operands): "a b->a b" of a [2,1,3] operand gives [2,1,3], not [2,3].
TEST(ShapeInferenceTest, EinsumSpacesAreLabels) {
  NodeDef n;
  n.set_name("e");
  n.set_op("Einsum");
  SetAttr(&n, "equation", std::string("a b->a b"));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Infer(n, {PartialTensorShape({2, 1, 3})}, 1));
  EXPECT_EQ(out[0].DebugString(), "[2,1,3]");
}

}  // namespace
}  // namespace rill
