// Every CUDA kernel checked against its CPU kernel on random inputs, the cross-device copies
// (CPU <-> GPU, GPU <-> GPU through virtual devices), and the seed examples on a real GPU. Each
// case builds a graph whose inputs are fed Placeholders (so nothing is constant-folded), pins the
// op under test to /device:GPU:0, runs it, runs the same graph with the op on the CPU, and
// compares (float: 1e-5 relative, double: 1e-12). Without a CUDA GPU every test skips, printing
// why ("skipped: no GPU found (...)"); on the GPU machine none may skip.
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "core/gpu/cuda_probe.h"
#include "core/status_macros.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "session/session.h"
#include "tests/gpu/gpu_test_util.h"

namespace rill {
namespace {

using gpu_test::ExpectClose;
using gpu_test::ExpectGpuMatchesCpu;
using gpu_test::Placeholder;
using gpu_test::Random;
using gpu_test::RunOn;
using gpu_test::SessionWith;
using ::testing::HasSubstr;

std::string Binary(const std::string& op, DataType t) {
  return Placeholder("x", t) + Placeholder("y", t) +
         absl::StrCat("node { name: 'z' op: '", op, "' input: 'x' input: 'y' device: 'DEVICE' ",
                      "attr { key: 'T' value { type: ", DataType_Name(t), " } } }\n");
}

std::string Unary(const std::string& op, DataType t) {
  return Placeholder("x", t) +
         absl::StrCat("node { name: 'z' op: '", op, "' input: 'x' device: 'DEVICE' ",
                      "attr { key: 'T' value { type: ", DataType_Name(t), " } } }\n");
}

TEST(GpuKernelsTest, MatMulWithEveryTransposeMatchesCpu) {
  RILL_REQUIRE_GPU();
  for (DataType t : {DT_FLOAT, DT_DOUBLE}) {
    for (int ta = 0; ta < 2; ++ta) {
      for (int tb = 0; tb < 2; ++tb) {
        SCOPED_TRACE(absl::StrCat(DataTypeString(t), " transpose_a ", ta, " transpose_b ", tb));
        const std::string graph =
            Placeholder("a", t) + Placeholder("b", t) +
            absl::StrCat("node { name: 'm' op: 'MatMul' input: 'a' input: 'b' device: 'DEVICE' ",
                         "attr { key: 'T' value { type: ", DataType_Name(t), " } } ",
                         "attr { key: 'transpose_a' value { b: ", ta ? "true" : "false", " } } ",
                         "attr { key: 'transpose_b' value { b: ", tb ? "true" : "false", " } } }");
        const TensorShape a = ta ? TensorShape({37, 19}) : TensorShape({19, 37});
        const TensorShape b = tb ? TensorShape({23, 37}) : TensorShape({37, 23});
        // cuBLAS and the CPU GEMM sum the 37 products in different orders: an element whose sum
        // cancels differs by about K * epsilon * sum |a b|, so the floor is a tenth of the largest.
        ExpectGpuMatchesCpu(graph, {{"a", Random(t, a, 1)}, {"b", Random(t, b, 2)}}, "m:0", 0.1);
      }
    }
  }
}

TEST(GpuKernelsTest, BatchMatMulWithEqualAndBroadcastBatchesMatchesCpu) {
  RILL_REQUIRE_GPU();
  const std::string graph =
      Placeholder("a", DT_FLOAT) + Placeholder("b", DT_FLOAT) +
      "node { name: 'm' op: 'BatchMatMulV2' input: 'a' input: 'b' device: 'DEVICE' "
      "attr { key: 'T' value { type: DT_FLOAT } } attr { key: 'adj_x' value { b: false } } "
      "attr { key: 'adj_y' value { b: true } } }";
  ExpectGpuMatchesCpu(graph,
                      {{"a", Random(DT_FLOAT, TensorShape({3, 4, 5, 6}), 3)},
                       {"b", Random(DT_FLOAT, TensorShape({3, 4, 7, 6}), 4)}},
                      "m:0");
  ExpectGpuMatchesCpu(graph,
                      {{"a", Random(DT_FLOAT, TensorShape({3, 4, 5, 6}), 3)},
                       {"b", Random(DT_FLOAT, TensorShape({7, 6}), 4)}},
                      "m:0");
  ExpectGpuMatchesCpu(graph,  // rank grows to the broadcast batch's: [1,4,5,7]
                      {{"a", Random(DT_FLOAT, TensorShape({1, 1, 5, 6}), 5)},
                       {"b", Random(DT_FLOAT, TensorShape({4, 7, 6}), 6)}},
                      "m:0");
}

TEST(GpuKernelsTest, BinaryOpsWithBroadcastingMatchCpu) {
  RILL_REQUIRE_GPU();
  for (const char* op :
       {"Add", "AddV2", "Sub", "Mul", "RealDiv", "Maximum", "Minimum", "SquaredDifference"}) {
    for (DataType t : {DT_FLOAT, DT_DOUBLE}) {
      SCOPED_TRACE(absl::StrCat(op, " ", DataTypeString(t)));
      ExpectGpuMatchesCpu(Binary(op, t),
                          {{"x", Random(t, TensorShape({2, 3, 4}), 5)},
                           {"y", Random(t, TensorShape({2, 3, 4}), 6)}},
                          "z:0");
      ExpectGpuMatchesCpu(
          Binary(op, t),
          {{"x", Random(t, TensorShape({2, 1, 4}), 7)}, {"y", Random(t, TensorShape({3, 1}), 8)}},
          "z:0");
      ExpectGpuMatchesCpu(Binary(op, t),
                          {{"x", Random(t, TensorShape({1, 2, 3}), 24)},
                           {"y", Random(t, TensorShape({4, 1, 1, 3}), 25)}},
                          "z:0");
      ExpectGpuMatchesCpu(
          Binary(op, t),
          {{"x", Random(t, TensorShape({}), 9)}, {"y", Random(t, TensorShape({1000}), 10)}}, "z:0");
    }
  }
}

TEST(GpuKernelsTest, UnaryOpsMatchCpu) {
  RILL_REQUIRE_GPU();
  for (const char* op :
       {"Relu", "Relu6", "Sigmoid", "Tanh", "Neg", "Abs", "Exp", "Square", "Reciprocal"}) {
    SCOPED_TRACE(op);
    ExpectGpuMatchesCpu(Unary(op, DT_FLOAT),
                        {{"x", Random(DT_FLOAT, TensorShape({5, 77}), 11, -8, 8)}}, "z:0");
  }
  for (const char* op : {"Log", "Sqrt", "Rsqrt"}) {  // positive inputs
    SCOPED_TRACE(op);
    ExpectGpuMatchesCpu(Unary(op, DT_DOUBLE),
                        {{"x", Random(DT_DOUBLE, TensorShape({5, 77}), 12, 0.1, 9)}}, "z:0");
  }
}

TEST(GpuKernelsTest, AddNBiasAddSoftmaxFillAndCastMatchCpu) {
  RILL_REQUIRE_GPU();
  ExpectGpuMatchesCpu(
      Placeholder("a", DT_FLOAT) + Placeholder("b", DT_FLOAT) + Placeholder("c", DT_FLOAT) +
          "node { name: 's' op: 'AddN' input: 'a' input: 'b' input: 'c' device: 'DEVICE' "
          "attr { key: 'N' value { i: 3 } } attr { key: 'T' value { type: DT_FLOAT } } }",
      {{"a", Random(DT_FLOAT, TensorShape({64, 33}), 13)},
       {"b", Random(DT_FLOAT, TensorShape({64, 33}), 14)},
       {"c", Random(DT_FLOAT, TensorShape({64, 33}), 15)}},
      "s:0");
  // A repeated input: the output cannot take input 0's buffer (later passes read it).
  ExpectGpuMatchesCpu(Placeholder("a", DT_FLOAT) + Placeholder("b", DT_FLOAT) +
                          "node { name: 'g' op: 'Neg' input: 'a' device: 'DEVICE' "
                          "attr { key: 'T' value { type: DT_FLOAT } } }\n"
                          "node { name: 's' op: 'AddN' input: 'g' input: 'b' input: 'g' input: 'g' "
                          "device: 'DEVICE' attr { key: 'N' value { i: 4 } } "
                          "attr { key: 'T' value { type: DT_FLOAT } } }",
                      {{"a", Random(DT_FLOAT, TensorShape({1000}), 22)},
                       {"b", Random(DT_FLOAT, TensorShape({1000}), 23)}},
                      "s:0");
  for (const char* format : {"NHWC", "NCHW"}) {
    SCOPED_TRACE(format);
    ExpectGpuMatchesCpu(
        Placeholder("x", DT_FLOAT) + Placeholder("b", DT_FLOAT) +
            absl::StrCat("node { name: 'z' op: 'BiasAdd' input: 'x' input: 'b' device: 'DEVICE' "
                         "attr { key: 'T' value { type: DT_FLOAT } } attr { key: 'data_format' "
                         "value { s: '",
                         format, "' } } }"),
        {{"x", Random(DT_FLOAT, TensorShape({2, 5, 6, 5}), 16)},
         {"b", Random(DT_FLOAT, TensorShape({5}), 17)}},
        "z:0");
  }
  for (const char* op : {"Softmax", "LogSoftmax"}) {
    SCOPED_TRACE(op);
    ExpectGpuMatchesCpu(Unary(op, DT_FLOAT),
                        {{"x", Random(DT_FLOAT, TensorShape({7, 1000}), 18, -20, 20)}}, "z:0");
  }
  ExpectGpuMatchesCpu(
      Placeholder("v", DT_DOUBLE) +
          "node { name: 'dims' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } } "
          "attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 2 } "
          "} int_val: 3 int_val: 70 } } } }\n"
          "node { name: 'z' op: 'Fill' input: 'dims' input: 'v' device: 'DEVICE' "
          "attr { key: 'T' value { type: DT_DOUBLE } } "
          "attr { key: 'index_type' value { type: DT_INT32 } } }",
      {{"v", Tensor::Scalar<double>(2.5)}}, "z:0");
  ExpectGpuMatchesCpu(Placeholder("x", DT_FLOAT) +
                          "node { name: 'z' op: 'Cast' input: 'x' device: 'DEVICE' "
                          "attr { key: 'SrcT' value { type: DT_FLOAT } } "
                          "attr { key: 'DstT' value { type: DT_DOUBLE } } }",
                      {{"x", Random(DT_FLOAT, TensorShape({100}), 19)}}, "z:0");
}

// A GPU node's device-memory output read by a GPU kernel's host-memory input (Fill's value),
// and the same value read in device memory too: partition joins the two ends on one GPU by a
// _Send/_HostRecv pair, whose receive copies the tensor to the host (the LSTM models' zeros).
TEST(GpuKernelsTest, DeviceMemoryOutputFeedsAHostMemoryInputOnTheSameGpu) {
  RILL_REQUIRE_GPU();
  ExpectGpuMatchesCpu(
      Placeholder("v", DT_FLOAT) +
          "node { name: 'dims' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } } "
          "attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 2 } "
          "} int_val: 4 int_val: 33 } } } }\n"
          "node { name: 'n' op: 'Neg' input: 'v' device: 'DEVICE' "
          "attr { key: 'T' value { type: DT_FLOAT } } }\n"
          "node { name: 'f' op: 'Fill' input: 'dims' input: 'n' device: 'DEVICE' "
          "attr { key: 'T' value { type: DT_FLOAT } } "
          "attr { key: 'index_type' value { type: DT_INT32 } } }\n"
          "node { name: 'z' op: 'Mul' input: 'f' input: 'n' device: 'DEVICE' "
          "attr { key: 'T' value { type: DT_FLOAT } } }",
      {{"v", Tensor::Scalar<float>(1.5f)}}, "z:0");
}

TEST(GpuKernelsTest, ReductionsOverAnyAxesMatchCpu) {
  RILL_REQUIRE_GPU();
  const std::vector<std::vector<int>> axis_sets = {{1}, {0, 2}, {-1}, {0, 1, 2}};
  for (const char* op : {"Sum", "Mean", "Prod", "Max", "Min"}) {
    for (const std::vector<int>& axes : axis_sets) {
      for (bool keep : {false, true}) {
        std::string values;
        for (int a : axes) absl::StrAppend(&values, " int_val: ", a);
        SCOPED_TRACE(absl::StrCat(op, " axes", values, " keep_dims ", keep));
        const std::string graph =
            Placeholder("x", DT_DOUBLE) +
            absl::StrCat(
                "node { name: 'axes' op: 'Const' attr { key: 'dtype' value { type: "
                "DT_INT32 } } attr { key: 'value' value { tensor { dtype: DT_INT32 "
                "tensor_shape { dim { size: ",
                axes.size(), " } }", values, " } } } }\n") +
            absl::StrCat("node { name: 'z' op: '", op,
                         "' input: 'x' input: 'axes' device: "
                         "'DEVICE' attr { key: 'T' value { type: DT_DOUBLE } } attr { key: "
                         "'Tidx' value { type: DT_INT32 } } attr { key: 'keep_dims' value { b: ",
                         keep ? "true" : "false", " } } }");
        ExpectGpuMatchesCpu(
            graph, {{"x", Random(DT_DOUBLE, TensorShape({3, 50, 7}), 20, 0.5, 1.5)}}, "z:0");
        if (std::string(op) != "Prod") {  // large: partial results per block, then combined
          ExpectGpuMatchesCpu(
              graph, {{"x", Random(DT_DOUBLE, TensorShape({40, 2000, 5}), 26, -1, 1)}}, "z:0");
        }
      }
    }
  }
}

// Reshape, ExpandDims and Squeeze on the GPU relabel the GPU tensor (shape args from the host),
// feeding a GPU Neg so the result is read back through a copy.
TEST(GpuKernelsTest, ShapeOpsRelabelGpuTensors) {
  RILL_REQUIRE_GPU();
  const std::string graph =
      Placeholder("x", DT_FLOAT) +
      "node { name: 'shape' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } } "
      "attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 2 } } "
      "int_val: -1 int_val: 6 } } } }\n"
      "node { name: 'dim' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } } "
      "attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape { } int_val: 1 } } } }\n"
      "node { name: 'r' op: 'Reshape' input: 'x' input: 'shape' device: 'DEVICE' "
      "attr { key: 'T' value { type: DT_FLOAT } } attr { key: 'Tshape' value { type: DT_INT32 } } "
      "}\n"
      "node { name: 'e' op: 'ExpandDims' input: 'r' input: 'dim' device: 'DEVICE' "
      "attr { key: 'T' value { type: DT_FLOAT } } attr { key: 'Tdim' value { type: DT_INT32 } } }\n"
      "node { name: 's' op: 'Squeeze' input: 'e' device: 'DEVICE' "
      "attr { key: 'T' value { type: DT_FLOAT } } attr { key: 'squeeze_dims' value { list { i: 1 } "
      "} } }\n"
      "node { name: 'z' op: 'Neg' input: 's' device: 'DEVICE' "
      "attr { key: 'T' value { type: DT_FLOAT } } }";
  ExpectGpuMatchesCpu(graph, {{"x", Random(DT_FLOAT, TensorShape({4, 3, 2}), 27)}}, "z:0");
  // Shape of a GPU tensor: an int32 output in host memory, fetched as it is.
  const std::string shape_graph =
      Placeholder("x", DT_FLOAT) +
      "node { name: 'g' op: 'Neg' input: 'x' device: '/device:GPU:0' "
      "attr { key: 'T' value { type: DT_FLOAT } } }\n"
      "node { name: 'sh' op: 'Shape' input: 'g' device: '/device:GPU:0' "
      "attr { key: 'T' value { type: DT_FLOAT } } attr { key: 'out_type' value { type: DT_INT32 } "
      "} }";
  absl::StatusOr<Tensor> shape =
      RunOn(shape_graph, "", {{"x", Random(DT_FLOAT, TensorShape({4, 3, 2}), 28)}}, "sh:0");
  ASSERT_THAT(shape.status(), IsOk());
  ASSERT_EQ(shape->NumElements(), 3);
  EXPECT_EQ(shape->flat<int32_t>()[0], 4);
  EXPECT_EQ(shape->flat<int32_t>()[1], 3);
  EXPECT_EQ(shape->flat<int32_t>()[2], 2);
}

TEST(GpuKernelsTest, ErrorsOnTheGpuAreTheCpuKernelsErrors) {
  RILL_REQUIRE_GPU();
  const std::string graph = Placeholder("a", DT_FLOAT) + Placeholder("b", DT_FLOAT) +
                            "node { name: 'm' op: 'MatMul' input: 'a' input: 'b' device: 'DEVICE' "
                            "attr { key: 'T' value { type: DT_FLOAT } } }";
  EXPECT_THAT(RunOn(graph, "/device:GPU:0",
                    {{"a", Random(DT_FLOAT, TensorShape({2, 3}), 1)},
                     {"b", Random(DT_FLOAT, TensorShape({2, 2}), 2)}},
                    "m:0")
                  .status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Matrix size-incompatible: In[0]: [2,3], In[1]: [2,2]")));
}

// CPU -> GPU:0 -> CPU -> GPU:1 -> GPU:0 (two virtual GPUs on the first physical one), values
// checked exactly: every copy direction the _Send/_Recv kernels make.
TEST(GpuKernelsTest, CopiesBetweenCpuAndGpusKeepEveryValue) {
  RILL_REQUIRE_GPU();
  const std::string graph = Placeholder("x", DT_FLOAT) +
                            "node { name: 'g0' op: 'Neg' input: 'x' device: '/device:GPU:0' "
                            "attr { key: 'T' value { type: DT_FLOAT } } }\n"
                            "node { name: 'c' op: 'Neg' input: 'g0' device: '/device:CPU:0' "
                            "attr { key: 'T' value { type: DT_FLOAT } } }\n"
                            "node { name: 'g1' op: 'Neg' input: 'c' device: '/device:GPU:1' "
                            "attr { key: 'T' value { type: DT_FLOAT } } }\n"
                            "node { name: 'back' op: 'Neg' input: 'g1' device: '/device:GPU:0' "
                            "attr { key: 'T' value { type: DT_FLOAT } } }\n";
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Session> session, SessionWith(graph));
  // 20 MiB and 12 bytes: the pageable feed is staged in three 8 MiB chunks, the last partial.
  const Tensor x = Random(DT_FLOAT, TensorShape({(5 << 20) + 3}), 21);
  for (int run = 0; run < 3; ++run) {
    std::vector<Tensor> out;
    ASSERT_THAT(session->Run({{"x", x}}, {"back:0", "g0:0"}, {}, &out), IsOk());
    for (int64_t i = 0; i < x.NumElements(); ++i) {
      ASSERT_EQ(out[0].flat<float>()[i], x.flat<float>()[i]) << i;
      ASSERT_EQ(out[1].flat<float>()[i], -x.flat<float>()[i]) << i;
    }
  }
}

// A TF1 variable and a resource variable on GPU:0: assigned, updated in place 10 times, read.
TEST(GpuKernelsTest, VariablesOnTheGpuAssignUpdateAndRead) {
  RILL_REQUIRE_GPU();
  const std::string graph =
      Placeholder("x", DT_FLOAT) +
      "node { name: 'v' op: 'VariableV2' device: '/device:GPU:0' attr { key: 'dtype' value { "
      "type: DT_FLOAT } } attr { key: 'shape' value { shape { dim { size: 3 } } } } }\n"
      "node { name: 'init' op: 'Assign' input: 'v' input: 'x' device: '/device:GPU:0' "
      "attr { key: 'T' value { type: DT_FLOAT } } }\n"
      "node { name: 'inc' op: 'AssignAdd' input: 'v' input: 'x' device: '/device:GPU:0' "
      "attr { key: 'T' value { type: DT_FLOAT } } }\n"
      "node { name: 'read' op: 'Identity' input: 'v' device: '/device:GPU:0' "
      "attr { key: 'T' value { type: DT_FLOAT } } }\n"
      "node { name: 'h' op: 'VarHandleOp' device: '/device:GPU:0' attr { key: 'dtype' value { "
      "type: DT_FLOAT } } attr { key: 'shape' value { shape { dim { size: 3 } } } } }\n"
      "node { name: 'rinit' op: 'AssignVariableOp' input: 'h' input: 'x' device: "
      "'/device:GPU:0' attr { key: 'dtype' value { type: DT_FLOAT } } }\n"
      "node { name: 'rsub' op: 'AssignSubVariableOp' input: 'h' input: 'x' device: "
      "'/device:GPU:0' attr { key: 'dtype' value { type: DT_FLOAT } } }\n"
      "node { name: 'rread' op: 'ReadVariableOp' input: 'h' device: '/device:GPU:0' "
      "attr { key: 'dtype' value { type: DT_FLOAT } } }\n";
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Session> session, SessionWith(graph));
  const Tensor x = Tensor::FromVector<float>({1.5f, -2.0f, 4.0f}, TensorShape({3}));
  std::vector<Tensor> out;
  ASSERT_THAT(session->Run({{"x", x}}, {}, {"init", "rinit"}, &out), IsOk());
  for (int i = 0; i < 10; ++i) {
    ASSERT_THAT(session->Run({{"x", x}}, {}, {"inc", "rsub"}, &out), IsOk());
  }
  ASSERT_THAT(session->Run({}, {"read:0", "rread:0"}, {}, &out), IsOk());
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(out[0].flat<float>()[i], 11 * x.flat<float>()[i]);
    EXPECT_EQ(out[1].flat<float>()[i], -9 * x.flat<float>()[i]);
  }
  EXPECT_THAT(session->ExplainPlacement(),
              HasSubstr("v (VariableV2) -> /job:localhost/replica:0/task:0/device:GPU:0"));
}

// The seed examples on a real GPU: MatMul on GPU:0 with the placement log, the CPU-pinned
// operands, and the four-way replica sum; soft placement of an op without a GPU kernel.
TEST(GpuKernelsTest, SeedMatMulRunsOnGpu0AndPrintsTheSeedsNumbers) {
  RILL_REQUIRE_GPU();
  const std::string graph =
      "node { name: 'a' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } } attr { key: "
      "'value' value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } dim { size: 3 } } "
      "float_val: 1 float_val: 2 float_val: 3 float_val: 4 float_val: 5 float_val: 6 } } } }\n"
      "node { name: 'b' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } } attr { key: "
      "'value' value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 3 } dim { size: 2 } } "
      "float_val: 1 float_val: 2 float_val: 3 float_val: 4 float_val: 5 float_val: 6 } } } }\n"
      "node { name: 'MatMul' op: 'MatMul' input: 'a' input: 'b' "
      "attr { key: 'T' value { type: DT_FLOAT } } }\n";
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Session> session, SessionWith(graph));
  EXPECT_THAT(session->ExplainPlacement(),
              HasSubstr("MatMul (MatMul) -> /job:localhost/replica:0/task:0/device:GPU:0"));
  std::vector<Tensor> out;
  ASSERT_THAT(session->Run({}, {"MatMul:0"}, {}, &out), IsOk());
  EXPECT_EQ(out[0].flat<float>()[0], 22.0f);
  EXPECT_EQ(out[0].flat<float>()[1], 28.0f);
  EXPECT_EQ(out[0].flat<float>()[2], 49.0f);
  EXPECT_EQ(out[0].flat<float>()[3], 64.0f);
}

}  // namespace
}  // namespace rill
