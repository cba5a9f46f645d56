// The CUDA kernels of the shape, index and selection ops (kernels/gpu/shape_ops_gpu.cc,
// gather_select_ops_gpu.cc, compare_ops_gpu.cc and the cwise additions) against their CPU kernels
// on random inputs: every op, several shapes, empty tensors, rank 0 and 1, negative strides and
// every StridedSlice mask. Each case pins the op under test to "DEVICE" (no soft placement, so an
// op without a GPU kernel fails placement), checks that the session placed it on GPU:0, and
// compares with the same graph on the CPU: float within 1e-5 relative, double 1e-12, integer and
// bool results exactly. Errors on the GPU are the CPU kernels' (code and message). Without a CUDA
// GPU every test skips, saying why.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "core/status_macros.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "session/session.h"
#include "tests/gpu/gpu_test_util.h"

namespace rill {
namespace {

using gpu_test::ExpectClose;
using gpu_test::Placeholder;
using gpu_test::Random;
using gpu_test::SessionWith;
using ::testing::HasSubstr;

using Feeds = std::vector<std::pair<std::string, Tensor>>;

// Integers uniform in [lo, hi] (DT_INT32 / DT_INT64) or bools (DT_BOOL, lo and hi ignored).
Tensor RandomInts(DataType dtype, const TensorShape& shape, int seed, int64_t lo = -50,
                  int64_t hi = 50) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int64_t> dist(lo, hi);
  Tensor t = *Tensor::Allocate(CpuAllocator::Default(), dtype, shape);
  for (int64_t i = 0; i < shape.num_elements(); ++i) {
    const int64_t v = dist(rng);
    if (dtype == DT_INT32) {
      t.flat<int32_t>()[i] = static_cast<int32_t>(v);
    } else if (dtype == DT_INT64) {
      t.flat<int64_t>()[i] = v;
    } else {
      t.flat<bool>()[i] = (v & 1) != 0;
    }
  }
  return t;
}

// A random tensor of any dtype the kernels take.
Tensor Any(DataType dtype, const TensorShape& shape, int seed) {
  if (dtype == DT_FLOAT || dtype == DT_DOUBLE) return Random(dtype, shape, seed);
  return RandomInts(dtype, shape, seed);
}

std::string Type(DataType t) { return DataType_Name(t); }

std::string TypeAttr(const std::string& key, DataType t) {
  return absl::StrCat(" attr { key: '", key, "' value { type: ", Type(t), " } }");
}
std::string IntAttr(const std::string& key, int64_t v) {
  return absl::StrCat(" attr { key: '", key, "' value { i: ", v, " } }");
}

// A node pinned to DEVICE with `inputs` and the attr text `attrs`.
std::string Node(const std::string& name, const std::string& op,
                 const std::vector<std::string>& inputs, const std::string& attrs) {
  std::string text = absl::StrCat("node { name: '", name, "' op: '", op, "'");
  for (const std::string& in : inputs) absl::StrAppend(&text, " input: '", in, "'");
  return absl::StrCat(text, " device: 'DEVICE'", attrs, " }\n");
}

// An int32 (or int64) Const `name` of `shape` (a vector of values.size() when empty).
std::string IntConst(const std::string& name, const std::vector<int64_t>& values,
                     std::vector<int64_t> shape = {-1}, DataType dtype = DT_INT32) {
  if (shape.size() == 1 && shape[0] == -1) shape = {static_cast<int64_t>(values.size())};
  std::string dims;
  for (int64_t d : shape) absl::StrAppend(&dims, " dim { size: ", d, " }");
  std::string vals;
  for (int64_t v : values) {
    absl::StrAppend(&vals, dtype == DT_INT32 ? " int_val: " : " int64_val: ", v);
  }
  return absl::StrCat("node { name: '", name, "' op: 'Const'", TypeAttr("dtype", dtype),
                      " attr { key: 'value' value { tensor { dtype: ", Type(dtype),
                      " tensor_shape {", dims, " }", vals, " } } } }\n");
}

// Integer and bool results exactly; float and double by ExpectClose (`floor`: its floor).
void ExpectSame(const Tensor& gpu, const Tensor& cpu, double floor = 1e-3) {
  ASSERT_EQ(gpu.dtype(), cpu.dtype());
  ASSERT_EQ(gpu.shape(), cpu.shape());
  if (cpu.dtype() == DT_FLOAT || cpu.dtype() == DT_DOUBLE) {
    ExpectClose(gpu, cpu, floor);
    return;
  }
  const size_t bytes = cpu.NumElements() * DataTypeSize(cpu.dtype());
  for (int64_t i = 0; i < cpu.NumElements(); ++i) {
    if (cpu.dtype() == DT_BOOL) {
      ASSERT_EQ(gpu.flat<bool>()[i], cpu.flat<bool>()[i]) << "element " << i;
    } else if (cpu.dtype() == DT_INT32) {
      ASSERT_EQ(gpu.flat<int32_t>()[i], cpu.flat<int32_t>()[i]) << "element " << i;
    } else if (cpu.dtype() == DT_INT64) {
      ASSERT_EQ(gpu.flat<int64_t>()[i], cpu.flat<int64_t>()[i]) << "element " << i;
    }
  }
  EXPECT_EQ(std::memcmp(gpu.raw_data(), cpu.raw_data(), bytes), 0);
}

// Runs `graph` with DEVICE = /device:GPU:0, asserts that `nodes` (default: the fetched node) were
// placed there, and returns the fetch.
absl::StatusOr<Tensor> RunOnGpu(const std::string& graph, const Feeds& feeds,
                                const std::string& fetch, std::vector<std::string> nodes = {}) {
  RILL_ASSIGN_OR_RETURN(std::unique_ptr<Session> session,
                        SessionWith(absl::StrReplaceAll(graph, {{"DEVICE", "/device:GPU:0"}})));
  std::vector<Tensor> out;
  RILL_RETURN_IF_ERROR(session->Run(feeds, {fetch}, {}, &out));
  // "z (Transpose) -> /job:localhost/replica:0/task:0/device:GPU:0: <why>"
  if (nodes.empty()) nodes.push_back(fetch.substr(0, fetch.find(':')));
  const std::string explained = session->ExplainPlacement(-1);
  for (const std::string& node : nodes) {
    bool placed = false;
    for (absl::string_view line : absl::StrSplit(explained, '\n')) {
      if (absl::StartsWith(line, node + " (")) {
        placed = absl::StrContains(line, ") -> /job:localhost/replica:0/task:0/device:GPU:0:");
      }
    }
    if (!placed) {
      return absl::InternalError(absl::StrCat(node, " was not placed on GPU:0:\n", explained));
    }
  }
  return out[0];
}

absl::StatusOr<Tensor> RunOnCpu(const std::string& graph, const Feeds& feeds,
                                const std::string& fetch) {
  return gpu_test::RunOn(graph, "/device:CPU:0", feeds, fetch);
}

// The op on GPU:0 (placed there) and on CPU:0 agree.
void ExpectMatch(const std::string& graph, const Feeds& feeds, const std::string& fetch,
                 double floor = 1e-3) {
  absl::StatusOr<Tensor> gpu = RunOnGpu(graph, feeds, fetch);
  ASSERT_THAT(gpu.status(), IsOk());
  absl::StatusOr<Tensor> cpu = RunOnCpu(graph, feeds, fetch);
  ASSERT_THAT(cpu.status(), IsOk());
  ExpectSame(*gpu, *cpu, floor);
}

// Both devices fail with the same code and message.
void ExpectSameError(const std::string& graph, const Feeds& feeds, const std::string& fetch,
                     const std::string& message_part) {
  absl::Status gpu = RunOnGpu(graph, feeds, fetch).status();
  absl::Status cpu = RunOnCpu(graph, feeds, fetch).status();
  EXPECT_THAT(cpu, StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(message_part)));
  EXPECT_EQ(gpu.code(), cpu.code()) << gpu;
  EXPECT_EQ(gpu.message(), cpu.message());
}

const DataType kCopyTypes[] = {DT_FLOAT, DT_DOUBLE, DT_INT64, DT_BOOL};

std::string ShapeString(const TensorShape& s) { return s.DebugString(); }

TEST(GpuArrayKernelsTest, TransposeEveryRankMatchesCpu) {
  RILL_REQUIRE_GPU();
  struct Case {
    std::vector<int64_t> dims, perm;
  };
  const std::vector<Case> cases = {
      {{2, 3, 4}, {2, 0, 1}},
      {{5}, {0}},
      {{}, {}},
      {{3, 0, 2}, {1, 2, 0}},
      {{17, 33}, {1, 0}},
      {{2, 3, 1, 4, 2, 3}, {5, 3, 1, 0, 2, 4}},
      {{2, 1, 2, 1, 2, 1, 2, 1, 3}, {8, 7, 6, 5, 4, 3, 2, 1, 0}},  // rank 9, 5 dims after merging
      {{4, 5, 6}, {0, 1, 2}},                                      // identity: forwarded
  };
  for (DataType t : kCopyTypes) {
    for (const Case& c : cases) {
      const TensorShape shape = *TensorShape::FromDims(c.dims);
      SCOPED_TRACE(
          absl::StrCat(Type(t), " ", ShapeString(shape), " perm ", absl::StrJoin(c.perm, ",")));
      const std::string graph =
          Placeholder("x", t) + IntConst("perm", c.perm) +
          Node("z", "Transpose", {"x", "perm"}, TypeAttr("T", t) + TypeAttr("Tperm", DT_INT32));
      ExpectMatch(graph, {{"x", Any(t, shape, 1)}}, "z:0");
    }
  }
}

TEST(GpuArrayKernelsTest, SliceMatchesCpu) {
  RILL_REQUIRE_GPU();
  struct Case {
    std::vector<int64_t> dims, begin, size;
  };
  const std::vector<Case> cases = {
      {{4, 5, 6}, {1, 0, 2}, {2, -1, 3}},
      {{4, 5, 6}, {0, 0, 0}, {4, 5, 6}},  // the whole input
      {{4, 5, 6}, {1, 2, 3}, {0, 2, 2}},  // empty
      {{30}, {7}, {11}},
      {{0, 3}, {0, 1}, {0, 2}},
      {{3, 4, 5, 6, 7}, {1, 1, 1, 1, 1}, {2, 2, 3, 4, 5}},
  };
  for (DataType t : kCopyTypes) {
    for (const Case& c : cases) {
      const TensorShape shape = *TensorShape::FromDims(c.dims);
      SCOPED_TRACE(absl::StrCat(Type(t), " ", ShapeString(shape), " begin ",
                                absl::StrJoin(c.begin, ","), " size ", absl::StrJoin(c.size, ",")));
      const std::string graph =
          Placeholder("x", t) + IntConst("b", c.begin) + IntConst("s", c.size) +
          Node("z", "Slice", {"x", "b", "s"}, TypeAttr("T", t) + TypeAttr("Index", DT_INT32));
      ExpectMatch(graph, {{"x", Any(t, shape, 2)}}, "z:0");
    }
  }
}

TEST(GpuArrayKernelsTest, StridedSliceWithEveryMaskMatchesCpu) {
  RILL_REQUIRE_GPU();
  struct Case {
    std::string what;
    std::vector<int64_t> dims, begin, end, strides;
    int64_t begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask;
  };
  const std::vector<Case> cases = {
      {"x[1:3, ::-1, 2]", {4, 5, 6}, {1, 0, 2}, {3, 0, 3}, {1, -1, 1}, 2, 2, 0, 0, 4},
      {"x[..., newaxis, ::2]", {4, 5, 6}, {0, 0, 0}, {0, 0, 0}, {1, 1, 2}, 4, 4, 1, 2, 0},
      {"x[-1]", {4, 5, 6}, {-1}, {0}, {1}, 0, 0, 0, 0, 1},
      {"x[10:-10:-3]", {7, 3}, {10}, {-10}, {-3}, 0, 0, 0, 0, 0},
      {"x[3:1] (empty)", {7, 3}, {3}, {1}, {1}, 0, 0, 0, 0, 0},
      {"x[:] (identity)", {7, 3}, {0}, {0}, {1}, 1, 1, 0, 0, 0},
      {"x[2:17:4]", {20}, {2}, {17}, {4}, 0, 0, 0, 0, 0},
      {"x[newaxis, 1, ..., ::-2]",
       {3, 4, 5, 6},
       {0, 1, 0, -1},
       {0, 2, 0, 0},
       {1, 1, 1, -2},
       0,
       8,
       4,
       1,
       2},
      {"x[::-1, ::-1] (whole input reversed)", {5, 6}, {0, 0}, {0, 0}, {-1, -1}, 3, 3, 0, 0, 0},
      {"x[1, 2] of a matrix (rank 0 result)", {5, 6}, {1, 2}, {2, 3}, {1, 1}, 0, 0, 0, 0, 3},
  };
  for (DataType t : kCopyTypes) {
    for (const Case& c : cases) {
      SCOPED_TRACE(absl::StrCat(Type(t), " ", c.what));
      const std::string graph =
          Placeholder("x", t) + IntConst("b", c.begin) + IntConst("e", c.end) +
          IntConst("s", c.strides) +
          Node("z", "StridedSlice", {"x", "b", "e", "s"},
               TypeAttr("T", t) + TypeAttr("Index", DT_INT32) +
                   IntAttr("begin_mask", c.begin_mask) + IntAttr("end_mask", c.end_mask) +
                   IntAttr("ellipsis_mask", c.ellipsis_mask) +
                   IntAttr("new_axis_mask", c.new_axis_mask) +
                   IntAttr("shrink_axis_mask", c.shrink_axis_mask));
      ExpectMatch(graph, {{"x", Any(t, *TensorShape::FromDims(c.dims), 3)}}, "z:0");
    }
  }
}

TEST(GpuArrayKernelsTest, ConcatV2AndPackMatchCpu) {
  RILL_REQUIRE_GPU();
  struct Case {
    std::vector<std::vector<int64_t>> shapes;
    int64_t axis;
  };
  const std::vector<Case> concat_cases = {
      {{{2, 3, 4}, {2, 1, 4}, {2, 5, 4}}, 1},
      {{{2, 3, 4}, {2, 3, 2}}, -1},
      {{{2, 3}, {4, 3}, {1, 3}}, 0},
      {{{2, 0, 4}, {2, 3, 4}}, 1},  // an empty input
      {{{5}, {7}}, 0},
  };
  for (DataType t : kCopyTypes) {
    for (const Case& c : concat_cases) {
      SCOPED_TRACE(absl::StrCat(Type(t), " ConcatV2 of ", c.shapes.size(), " axis ", c.axis));
      std::string graph = IntConst("axis", {c.axis}, {});
      std::vector<std::string> inputs;
      Feeds feeds;
      for (size_t i = 0; i < c.shapes.size(); ++i) {
        const std::string name = absl::StrCat("x", i);
        graph += Placeholder(name, t);
        inputs.push_back(name);
        feeds.push_back({name, Any(t, *TensorShape::FromDims(c.shapes[i]), 10 + i)});
      }
      inputs.push_back("axis");
      graph += Node("z", "ConcatV2", inputs,
                    TypeAttr("T", t) + TypeAttr("Tidx", DT_INT32) +
                        IntAttr("N", static_cast<int64_t>(c.shapes.size())));
      ExpectMatch(graph, feeds, "z:0");
    }
    for (const std::vector<int64_t>& dims : {std::vector<int64_t>{2, 3}, std::vector<int64_t>{}}) {
      for (int64_t axis : {0, 1, -1}) {
        if (dims.empty() && axis == 1) continue;
        for (int n : {1, 3}) {
          SCOPED_TRACE(absl::StrCat(Type(t), " Pack of ", n, " [", absl::StrJoin(dims, ","),
                                    "] axis ", axis));
          std::string graph;
          std::vector<std::string> inputs;
          Feeds feeds;
          for (int i = 0; i < n; ++i) {
            const std::string name = absl::StrCat("x", i);
            graph += Placeholder(name, t);
            inputs.push_back(name);
            feeds.push_back({name, Any(t, *TensorShape::FromDims(dims), 20 + i)});
          }
          graph +=
              Node("z", "Pack", inputs, TypeAttr("T", t) + IntAttr("N", n) + IntAttr("axis", axis));
          ExpectMatch(graph, feeds, "z:0");
        }
      }
    }
  }
}

TEST(GpuArrayKernelsTest, UnpackSplitAndSplitVMatchCpu) {
  RILL_REQUIRE_GPU();
  for (DataType t : kCopyTypes) {
    for (int64_t axis : {0, 1, -1}) {
      const TensorShape shape({3, 4, 5});
      const int num = static_cast<int>(shape.dim(axis < 0 ? 2 : static_cast<int>(axis)));
      const std::string graph = Placeholder("x", t) + Node("z", "Unpack", {"x"},
                                                           TypeAttr("T", t) + IntAttr("num", num) +
                                                               IntAttr("axis", axis));
      for (int out : {0, num - 1}) {
        SCOPED_TRACE(absl::StrCat(Type(t), " Unpack axis ", axis, " output ", out));
        ExpectMatch(graph, {{"x", Any(t, shape, 30)}}, absl::StrCat("z:", out));
      }
    }
    for (int64_t axis : {1, -1}) {
      const std::string graph =
          Placeholder("x", t) + IntConst("dim", {axis}, {}) +
          Node("z", "Split", {"dim", "x"}, TypeAttr("T", t) + IntAttr("num_split", 3));
      for (int out : {0, 2}) {
        SCOPED_TRACE(absl::StrCat(Type(t), " Split axis ", axis, " output ", out));
        ExpectMatch(graph, {{"x", Any(t, TensorShape({2, 6, 3}), 31)}}, absl::StrCat("z:", out));
      }
    }
    const std::string splitv =
        Placeholder("x", t) + IntConst("sizes", {2, -1, 1, 0}) + IntConst("dim", {0}, {}) +
        Node("z", "SplitV", {"x", "sizes", "dim"},
             TypeAttr("T", t) + TypeAttr("Tlen", DT_INT32) + IntAttr("num_split", 4));
    for (int out : {0, 1, 2, 3}) {
      SCOPED_TRACE(absl::StrCat(Type(t), " SplitV output ", out));
      ExpectMatch(splitv, {{"x", Any(t, TensorShape({7, 3}), 32)}}, absl::StrCat("z:", out));
    }
  }
}

TEST(GpuArrayKernelsTest, PadPadV2TileAndReverseV2MatchCpu) {
  RILL_REQUIRE_GPU();
  struct PadCase {
    std::vector<int64_t> dims, paddings;
  };
  const std::vector<PadCase> pads = {
      {{2, 3}, {1, 2, 0, 3}}, {{2, 3, 4}, {0, 1, 2, 0, 1, 1}},
      {{2, 3}, {0, 0, 0, 0}},  // nothing padded: forwarded
      {{0, 3}, {1, 1, 2, 0}},  // an empty input: all padding
      {{5}, {3, 0}},
  };
  for (DataType t : {DT_FLOAT, DT_DOUBLE, DT_INT64}) {
    for (const PadCase& c : pads) {
      const std::vector<int64_t> pshape = {static_cast<int64_t>(c.dims.size()), 2};
      const TensorShape shape = *TensorShape::FromDims(c.dims);
      SCOPED_TRACE(absl::StrCat(Type(t), " Pad ", ShapeString(shape), " paddings ",
                                absl::StrJoin(c.paddings, ",")));
      ExpectMatch(
          Placeholder("x", t) + IntConst("p", c.paddings, pshape) +
              Node("z", "Pad", {"x", "p"}, TypeAttr("T", t) + TypeAttr("Tpaddings", DT_INT32)),
          {{"x", Any(t, shape, 40)}}, "z:0");
      const Tensor value = t == DT_FLOAT    ? Tensor::Scalar<float>(2.5f)
                           : t == DT_DOUBLE ? Tensor::Scalar<double>(-1.25)
                                            : Tensor::Scalar<int64_t>(int64_t{1} << 40);
      ExpectMatch(Placeholder("x", t) + Placeholder("v", t) + IntConst("p", c.paddings, pshape) +
                      Node("z", "PadV2", {"x", "p", "v"},
                           TypeAttr("T", t) + TypeAttr("Tpaddings", DT_INT32)),
                  {{"x", Any(t, shape, 41)}, {"v", value}}, "z:0");
    }
  }
  struct TileCase {
    std::vector<int64_t> dims, multiples;
  };
  const std::vector<TileCase> tiles = {
      {{2, 3}, {2, 3}}, {{3}, {0}}, {{2, 1, 3}, {1, 4, 2}}, {{}, {}}, {{4, 5}, {1, 1}},
  };
  for (DataType t : kCopyTypes) {
    for (const TileCase& c : tiles) {
      const TensorShape shape = *TensorShape::FromDims(c.dims);
      SCOPED_TRACE(absl::StrCat(Type(t), " Tile ", ShapeString(shape), " multiples ",
                                absl::StrJoin(c.multiples, ",")));
      ExpectMatch(
          Placeholder("x", t) + IntConst("m", c.multiples) +
              Node("z", "Tile", {"x", "m"}, TypeAttr("T", t) + TypeAttr("Tmultiples", DT_INT32)),
          {{"x", Any(t, shape, 42)}}, "z:0");
    }
  }
  struct ReverseCase {
    std::vector<int64_t> dims, axes;
  };
  const std::vector<ReverseCase> reverses = {
      {{3, 4, 5}, {0, 2}}, {{3, 4, 5}, {-1}}, {{3, 4, 5}, {}},
      {{7}, {0}},          {{3, 0}, {1}},     {{2, 3, 4}, {0, 1, 2}},
  };
  for (DataType t : kCopyTypes) {
    for (const ReverseCase& c : reverses) {
      const TensorShape shape = *TensorShape::FromDims(c.dims);
      SCOPED_TRACE(absl::StrCat(Type(t), " ReverseV2 ", ShapeString(shape), " axes ",
                                absl::StrJoin(c.axes, ",")));
      ExpectMatch(
          Placeholder("x", t) + IntConst("a", c.axes) +
              Node("z", "ReverseV2", {"x", "a"}, TypeAttr("T", t) + TypeAttr("Tidx", DT_INT32)),
          {{"x", Any(t, shape, 43)}}, "z:0");
    }
  }
}

TEST(GpuArrayKernelsTest, GatherV2MatchesCpuAndWritesZerosForBadIndices) {
  RILL_REQUIRE_GPU();
  struct Case {
    std::vector<int64_t> params, indices;
    int64_t axis, batch_dims;
  };
  const std::vector<Case> cases = {
      {{5, 4}, {3}, 0, 0},     {{5, 4}, {2, 2}, 1, 0}, {{6}, {}, 0, 0},
      {{3, 7, 2}, {4}, -2, 0}, {{5, 4}, {0}, 0, 0},    {{2, 5, 3}, {2, 4}, 1, 1},
  };
  for (DataType t : {DT_FLOAT, DT_DOUBLE, DT_INT64}) {
    for (DataType ti : {DT_INT32, DT_INT64}) {
      for (const Case& c : cases) {
        const TensorShape ps = *TensorShape::FromDims(c.params);
        const TensorShape is = *TensorShape::FromDims(c.indices);
        const int axis = static_cast<int>(c.axis < 0 ? c.axis + ps.rank() : c.axis);
        SCOPED_TRACE(absl::StrCat(Type(t), " indices ", Type(ti), " params ", ShapeString(ps),
                                  " indices ", ShapeString(is), " axis ", c.axis, " batch_dims ",
                                  c.batch_dims));
        const std::string graph =
            Placeholder("p", t) + Placeholder("i", ti) + IntConst("axis", {c.axis}, {}) +
            Node("z", "GatherV2", {"p", "i", "axis"},
                 TypeAttr("Tparams", t) + TypeAttr("Tindices", ti) + TypeAttr("Taxis", DT_INT32) +
                     IntAttr("batch_dims", c.batch_dims));
        ExpectMatch(graph,
                    {{"p", Any(t, ps, 50)}, {"i", RandomInts(ti, is, 51, 0, ps.dim(axis) - 1)}},
                    "z:0");
      }
    }
  }
  // Gather (no axis input) on the GPU.
  ExpectMatch(Placeholder("p", DT_FLOAT) + Placeholder("i", DT_INT32) +
                  Node("z", "Gather", {"p", "i"},
                       TypeAttr("Tparams", DT_FLOAT) + TypeAttr("Tindices", DT_INT32)),
              {{"p", Random(DT_FLOAT, TensorShape({9, 3}), 52)},
               {"i", RandomInts(DT_INT32, TensorShape({4, 2}), 53, 0, 8)}},
              "z:0");
  // An index out of range. int32 indices live in host memory: the GPU kernel checks them and
  // fails as the CPU kernel does. int64 indices are on the GPU: it gathers zeros for that index
  // (TensorFlow's GPU behaviour; checking would wait for the GPU).
  for (DataType ti : {DT_INT32, DT_INT64}) {
    SCOPED_TRACE(absl::StrCat("out-of-range ", Type(ti), " index"));
    const std::string graph =
        Placeholder("p", DT_FLOAT) + Placeholder("i", ti) + IntConst("axis", {0}, {}) +
        Node(
            "z", "GatherV2", {"p", "i", "axis"},
            TypeAttr("Tparams", DT_FLOAT) + TypeAttr("Tindices", ti) + TypeAttr("Taxis", DT_INT32));
    Tensor index = ti == DT_INT32 ? Tensor::FromVector<int32_t>({2, 7, -1}, TensorShape({3}))
                                  : Tensor::FromVector<int64_t>({2, 7, -1}, TensorShape({3}));
    const Feeds feeds = {{"p", Random(DT_FLOAT, TensorShape({3, 2}), 54, 1, 2)}, {"i", index}};
    if (ti == DT_INT32) {
      ExpectSameError(graph, feeds, "z:0", "indices[1] = 7 is not in [0, 3)");
      continue;
    }
    EXPECT_THAT(
        RunOnCpu(graph, feeds, "z:0").status(),
        StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("indices[1] = 7 is not in [0, 3)")));
    RILL_ASSERT_OK_AND_ASSIGN(Tensor gpu, RunOnGpu(graph, feeds, "z:0"));
    ASSERT_EQ(gpu.shape(), TensorShape({3, 2}));
    EXPECT_EQ(gpu.flat<float>()[0], feeds[0].second.flat<float>()[4]);
    EXPECT_EQ(gpu.flat<float>()[1], feeds[0].second.flat<float>()[5]);
    for (int k = 2; k < 6; ++k) EXPECT_EQ(gpu.flat<float>()[k], 0.0f) << k;
  }
}

TEST(GpuArrayKernelsTest, SelectSelectV2AndTheComparisonsFeedingThemMatchCpu) {
  RILL_REQUIRE_GPU();
  // Select: elementwise, by rows (vector condition), by a scalar condition.
  struct SelectCase {
    std::vector<int64_t> cond, values;
  };
  for (DataType t : {DT_FLOAT, DT_DOUBLE, DT_INT64, DT_BOOL}) {
    for (const SelectCase& c : std::vector<SelectCase>{
             {{3, 4}, {3, 4}}, {{3}, {3, 4, 2}}, {{}, {5, 2}}, {{0}, {0, 3}}, {{6}, {6}}}) {
      SCOPED_TRACE(absl::StrCat(Type(t), " Select cond [", absl::StrJoin(c.cond, ","), "] values [",
                                absl::StrJoin(c.values, ","), "]"));
      const TensorShape vs = *TensorShape::FromDims(c.values);
      ExpectMatch(Placeholder("c", DT_BOOL) + Placeholder("a", t) + Placeholder("b", t) +
                      Node("z", "Select", {"c", "a", "b"}, TypeAttr("T", t)),
                  {{"c", RandomInts(DT_BOOL, *TensorShape::FromDims(c.cond), 60)},
                   {"a", Any(t, vs, 61)},
                   {"b", Any(t, vs, 62)}},
                  "z:0");
    }
  }
  // SelectV2 broadcasting its three operands.
  struct V2Case {
    std::vector<int64_t> cond, a, b;
  };
  for (const V2Case& c : std::vector<V2Case>{{{3, 4}, {3, 4}, {3, 4}},
                                             {{3, 1}, {1, 4}, {}},
                                             {{}, {2, 3}, {3}},
                                             {{2, 1, 3}, {4, 1}, {1, 4, 3}},
                                             {{0, 3}, {3}, {1}}}) {
    SCOPED_TRACE(absl::StrCat("SelectV2 [", absl::StrJoin(c.cond, ","), "] [",
                              absl::StrJoin(c.a, ","), "] [", absl::StrJoin(c.b, ","), "]"));
    ExpectMatch(Placeholder("c", DT_BOOL) + Placeholder("a", DT_FLOAT) +
                    Placeholder("b", DT_FLOAT) +
                    Node("z", "SelectV2", {"c", "a", "b"}, TypeAttr("T", DT_FLOAT)),
                {{"c", RandomInts(DT_BOOL, *TensorShape::FromDims(c.cond), 63)},
                 {"a", Random(DT_FLOAT, *TensorShape::FromDims(c.a), 64)},
                 {"b", Random(DT_FLOAT, *TensorShape::FromDims(c.b), 65)}},
                "z:0");
  }
  // Where-free masking as models write it: Select(Less(x, y), x, y) all on the GPU.
  for (const char* op : {"Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual"}) {
    SCOPED_TRACE(op);
    const std::string graph = Placeholder("x", DT_FLOAT) + Placeholder("y", DT_FLOAT) +
                              Node("c", op, {"x", "y"}, TypeAttr("T", DT_FLOAT)) +
                              Node("z", "SelectV2", {"c", "x", "y"}, TypeAttr("T", DT_FLOAT));
    // Rounded values so Equal and NotEqual see equal pairs.
    Tensor x = Random(DT_FLOAT, TensorShape({4, 5}), 66, -3, 3);
    Tensor y = Random(DT_FLOAT, TensorShape({5}), 67, -3, 3);
    for (float& v : x.flat<float>()) v = std::round(v);
    for (float& v : y.flat<float>()) v = std::round(v);
    ExpectMatch(graph, {{"x", x}, {"y", y}}, "z:0");
    ExpectMatch(graph, {{"x", x}, {"y", y}}, "c:0");
  }
}

TEST(GpuArrayKernelsTest, ComparisonsAndLogicalOpsMatchCpu) {
  RILL_REQUIRE_GPU();
  for (const char* op : {"Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual"}) {
    for (DataType t : {DT_FLOAT, DT_DOUBLE, DT_INT64}) {
      for (const auto& shapes : std::vector<std::pair<TensorShape, TensorShape>>{
               {TensorShape({3, 4}), TensorShape({3, 4})},
               {TensorShape({2, 1, 4}), TensorShape({3, 1})},
               {TensorShape({}), TensorShape({7})},
               {TensorShape({0, 2}), TensorShape({2})}}) {
        SCOPED_TRACE(absl::StrCat(op, " ", Type(t), " ", ShapeString(shapes.first), " ",
                                  ShapeString(shapes.second)));
        Tensor x =
            t == DT_INT64 ? RandomInts(t, shapes.first, 70, -3, 3) : Any(t, shapes.first, 70);
        Tensor y =
            t == DT_INT64 ? RandomInts(t, shapes.second, 71, -3, 3) : Any(t, shapes.second, 71);
        ExpectMatch(
            Placeholder("x", t) + Placeholder("y", t) + Node("z", op, {"x", "y"}, TypeAttr("T", t)),
            {{"x", x}, {"y", y}}, "z:0");
      }
    }
  }
  // NaN compares unequal to everything, itself included.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const char* op : {"Less", "Equal", "NotEqual", "GreaterEqual"}) {
    SCOPED_TRACE(absl::StrCat(op, " with NaN"));
    ExpectMatch(Placeholder("x", DT_FLOAT) + Placeholder("y", DT_FLOAT) +
                    Node("z", op, {"x", "y"}, TypeAttr("T", DT_FLOAT)),
                {{"x", Tensor::FromVector<float>({nan, 1, nan, 2}, TensorShape({4}))},
                 {"y", Tensor::FromVector<float>({nan, nan, 1, 2}, TensorShape({4}))}},
                "z:0");
  }
  // Equal / NotEqual with incompatible_shape_error=false: a scalar false / true.
  for (const char* op : {"Equal", "NotEqual"}) {
    SCOPED_TRACE(absl::StrCat(op, " incompatible shapes"));
    ExpectMatch(Placeholder("x", DT_FLOAT) + Placeholder("y", DT_FLOAT) +
                    Node("z", op, {"x", "y"},
                         TypeAttr("T", DT_FLOAT) +
                             " attr { key: 'incompatible_shape_error' value { b: false } }"),
                {{"x", Random(DT_FLOAT, TensorShape({2, 3}), 72)},
                 {"y", Random(DT_FLOAT, TensorShape({4}), 73)}},
                "z:0");
  }
  for (const char* op : {"LogicalAnd", "LogicalOr"}) {
    for (const auto& shapes : std::vector<std::pair<TensorShape, TensorShape>>{
             {TensorShape({5, 6}), TensorShape({5, 6})},
             {TensorShape({5, 1}), TensorShape({6})},
             {TensorShape({}), TensorShape({0})}}) {
      SCOPED_TRACE(
          absl::StrCat(op, " ", ShapeString(shapes.first), " ", ShapeString(shapes.second)));
      ExpectMatch(
          Placeholder("x", DT_BOOL) + Placeholder("y", DT_BOOL) + Node("z", op, {"x", "y"}, ""),
          {{"x", RandomInts(DT_BOOL, shapes.first, 74)},
           {"y", RandomInts(DT_BOOL, shapes.second, 75)}},
          "z:0");
    }
  }
  ExpectMatch(Placeholder("x", DT_BOOL) + Node("z", "LogicalNot", {"x"}, ""),
              {{"x", RandomInts(DT_BOOL, TensorShape({3, 33}), 76)}}, "z:0");
}

TEST(GpuArrayKernelsTest, CastBetweenEveryPairMatchesCpu) {
  RILL_REQUIRE_GPU();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> special = {0.0f,   -0.0f, 0.5f,  -0.5f, 1.75f, -1.75f, 1e10f,
                                      -1e10f, 3e9f,  -3e9f, nan,   inf,   -inf,   1e20f};
  for (DataType from : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_BOOL}) {
    Tensor x;
    if (from == DT_FLOAT || from == DT_DOUBLE) {
      x = Random(from, TensorShape({100 + static_cast<int64_t>(special.size())}), 80, -1e3, 1e3);
      for (size_t i = 0; i < special.size(); ++i) {
        if (from == DT_FLOAT) {
          x.flat<float>()[i] = special[i];
        } else {
          x.flat<double>()[i] = special[i];
        }
      }
    } else {
      x = RandomInts(from, TensorShape({100}), 81, -100000, 100000);
    }
    // Not to int32: an int32 result would live in host memory, so that Cast stays on the CPU.
    for (DataType to : {DT_FLOAT, DT_DOUBLE, DT_INT64, DT_BOOL}) {
      if (to == from) continue;
      SCOPED_TRACE(absl::StrCat("Cast ", Type(from), " -> ", Type(to)));
      ExpectMatch(Placeholder("x", from) +
                      Node("z", "Cast", {"x"}, TypeAttr("SrcT", from) + TypeAttr("DstT", to)),
                  {{"x", x}}, "z:0");
    }
  }
}

TEST(GpuArrayKernelsTest, MoreUnaryAndBinaryOpsMatchCpu) {
  RILL_REQUIRE_GPU();
  struct UnaryCase {
    const char* op;
    double lo, hi;
  };
  // Ranges that keep each function finite and away from where float rounding dominates
  // (Round's halves are exact in binary, so both devices round them to even).
  const std::vector<UnaryCase> unary = {
      {"Sin", -10, 10},      {"Cos", -10, 10},      {"Erf", -3, 3},     {"Erfc", -3, 3},
      {"Softplus", -30, 30}, {"Softsign", -10, 10}, {"Elu", -5, 5},     {"Selu", -5, 5},
      {"Floor", -10, 10},    {"Ceil", -10, 10},     {"Round", -10, 10}, {"Rint", -10, 10},
      {"Sign", -3, 3},       {"Log1p", -0.9, 10},   {"Expm1", -5, 5},   {"Inv", 0.5, 4},
  };
  for (const UnaryCase& c : unary) {
    for (DataType t : {DT_FLOAT, DT_DOUBLE}) {
      SCOPED_TRACE(absl::StrCat(c.op, " ", Type(t)));
      Tensor x = Random(t, TensorShape({7, 61}), 90, c.lo, c.hi);
      // Exact halves and zero for Round, Rint, Sign, Floor, Ceil.
      const double exact[] = {0.5, -0.5, 1.5, -2.5, 2.5, 0.0, -0.0, 3.0};
      for (int i = 0; i < 8; ++i) {
        if (t == DT_FLOAT) {
          x.flat<float>()[i] = static_cast<float>(exact[i]);
        } else {
          x.flat<double>()[i] = exact[i];
        }
      }
      ExpectMatch(Placeholder("x", t) + Node("z", c.op, {"x"}, TypeAttr("T", t)), {{"x", x}},
                  "z:0");
    }
  }
  // b = sin(a) on the GPU: the colocated-gradients seed's op.
  ExpectMatch(Placeholder("a", DT_FLOAT) + Node("b", "Sin", {"a"}, TypeAttr("T", DT_FLOAT)),
              {{"a", Random(DT_FLOAT, TensorShape({2, 2}), 91)}}, "b:0");
  const float nan = std::numeric_limits<float>::quiet_NaN();
  ExpectMatch(
      Placeholder("x", DT_FLOAT) + Node("z", "IsNan", {"x"}, TypeAttr("T", DT_FLOAT)),
      {{"x", Tensor::FromVector<float>({nan, 1, -nan, 0, std::numeric_limits<float>::infinity()},
                                       TensorShape({5}))}},
      "z:0");
  ExpectMatch(Placeholder("x", DT_DOUBLE) + Node("z", "IsNan", {"x"}, TypeAttr("T", DT_DOUBLE)),
              {{"x", Random(DT_DOUBLE, TensorShape({10}), 92)}}, "z:0");
  ExpectMatch(Placeholder("x", DT_DOUBLE) + Node("z", "Sign", {"x"}, TypeAttr("T", DT_DOUBLE)),
              {{"x", Tensor::FromVector<double>({std::nan(""), -0.0, 2.0}, TensorShape({3}))}},
              "z:0");
  for (DataType t : {DT_FLOAT, DT_DOUBLE}) {
    for (float alpha : {0.2f, 0.3f}) {
      SCOPED_TRACE(absl::StrCat("LeakyRelu ", Type(t), " alpha ", alpha));
      ExpectMatch(Placeholder("x", t) +
                      Node("z", "LeakyRelu", {"x"},
                           TypeAttr("T", t) +
                               absl::StrCat(" attr { key: 'alpha' value { f: ", alpha, " } }")),
                  {{"x", Random(t, TensorShape({5, 40}), 93, -4, 4)}}, "z:0");
    }
    for (const char* op : {"Pow", "FloorDiv", "FloorMod"}) {
      SCOPED_TRACE(absl::StrCat(op, " ", Type(t)));
      const bool pow = std::string(op) == "Pow";
      const std::string graph =
          Placeholder("x", t) + Placeholder("y", t) + Node("z", op, {"x", "y"}, TypeAttr("T", t));
      ExpectMatch(graph,
                  {{"x", Random(t, TensorShape({3, 40}), 94, pow ? 0.1 : -20, 20)},
                   {"y", Random(t, TensorShape({3, 40}), 95, pow ? -3 : 0.5, pow ? 3 : 6)}},
                  "z:0");
      ExpectMatch(graph,
                  {{"x", Random(t, TensorShape({4, 1, 5}), 96, pow ? 0.1 : -20, 20)},
                   {"y", Random(t, TensorShape({3, 1}), 97, pow ? -2 : -6, pow ? 2 : -0.5)}},
                  "z:0");
    }
  }
}

TEST(GpuArrayKernelsTest, EinsumMatchesCpu) {
  RILL_REQUIRE_GPU();
  struct Case {
    std::string equation;
    std::vector<std::vector<int64_t>> shapes;
  };
  const std::vector<Case> cases = {
      {"BTNH,BSNH->BNTS", {{2, 5, 3, 8}, {2, 6, 3, 8}}},  // attention scores
      {"BNTS,BSNH->BTNH", {{2, 3, 5, 6}, {2, 6, 3, 8}}},  // attention output
      {"ij,jk->ik", {{7, 9}, {9, 4}}},
      {"ij,jk->ki", {{7, 9}, {9, 4}}},
      {"bij,bjk->bik", {{3, 4, 5}, {3, 5, 6}}},
      {"bhqd,bhkd->bhqk", {{2, 2, 5, 4}, {2, 2, 7, 4}}},
      {"...ij,...jk->...ik", {{3, 2, 4}, {4, 5}}},     // one operand's batch is empty
      {"...ij,...jk->...ik", {{1, 2, 4}, {3, 4, 5}}},  // a batch of one broadcasts
      {"ij,jk->ik", {{3, 0}, {0, 4}}},                 // an empty sum: zeros
      {"ij,jk->ik", {{0, 5}, {5, 4}}},                 // an empty output
      {"abc->cab", {{3, 4, 5}}},
      {"ij->ij", {{3, 4}}},
  };
  for (DataType t : {DT_FLOAT, DT_DOUBLE}) {
    for (const Case& c : cases) {
      SCOPED_TRACE(absl::StrCat(Type(t), " ", c.equation));
      const int n = static_cast<int>(c.shapes.size());
      std::string graph;
      std::vector<std::string> inputs;
      Feeds feeds;
      for (int i = 0; i < n; ++i) {
        const std::string name = absl::StrCat("x", i);
        graph += Placeholder(name, t);
        inputs.push_back(name);
        feeds.push_back({name, Random(t, *TensorShape::FromDims(c.shapes[i]), 110 + i)});
      }
      graph += Node("z", "Einsum", inputs,
                    TypeAttr("T", t) + IntAttr("N", n) +
                        absl::StrCat(" attr { key: 'equation' value { s: '", c.equation, "' } }"));
      // cuBLAS and the CPU GEMM sum in different orders (see gpu_kernels_test's MatMul).
      ExpectMatch(graph, feeds, "z:0", 0.1);
    }
  }
  // A label summed out of one operand: the GPU kernel says so (the CPU kernel computes it).
  const std::string sum =
      Placeholder("x", DT_FLOAT) + Node("z", "Einsum", {"x"},
                                        TypeAttr("T", DT_FLOAT) + IntAttr("N", 1) +
                                            " attr { key: 'equation' value { s: 'ij->i' } }");
  EXPECT_THAT(RunOnGpu(sum, {{"x", Random(DT_FLOAT, TensorShape({3, 4}), 120)}}, "z:0").status(),
              StatusIs(absl::StatusCode::kUnimplemented,
                       HasSubstr("Einsum node z on the GPU does not support a label summed out "
                                 "of one operand (the CPU kernel does); pin the node to the CPU")));
}

// Shape arithmetic on the GPU as Keras's Tensordot writes it: int32 tensors there live in host
// memory and the int32 kernels (StridedSlice, GatherV2, Prod, Pack, ConcatV2, Slice, Sum, Max,
// Min) run on the host, so the chain stays in the GPU's partition without copies.
TEST(GpuArrayKernelsTest, Int32ShapeArithmeticStaysOnTheGpuInHostMemory) {
  RILL_REQUIRE_GPU();
  const std::string i32 = TypeAttr("T", DT_INT32);
  const std::string reduce =
      i32 + TypeAttr("Tidx", DT_INT32) + " attr { key: 'keep_dims' value { b: false } }";
  const std::string graph =
      Placeholder("x", DT_FLOAT) + IntConst("zero", {0}) + IntConst("two", {2}) +
      IntConst("one", {1}) + IntConst("axis", {0}, {}) + IntConst("last", {2}) +
      Node("s", "Shape", {"x"}, TypeAttr("T", DT_FLOAT) + TypeAttr("out_type", DT_INT32)) +
      Node("lead", "StridedSlice", {"s", "zero", "two", "one"},
           i32 + TypeAttr("Index", DT_INT32) + IntAttr("begin_mask", 0) + IntAttr("end_mask", 0) +
               IntAttr("ellipsis_mask", 0) + IntAttr("new_axis_mask", 0) +
               IntAttr("shrink_axis_mask", 0)) +
      Node("rows", "Prod", {"lead", "axis"}, reduce) +
      Node("cols", "GatherV2", {"s", "last", "axis"},
           TypeAttr("Tparams", DT_INT32) + TypeAttr("Tindices", DT_INT32) +
               TypeAttr("Taxis", DT_INT32) + IntAttr("batch_dims", 0)) +
      Node("packed", "Pack", {"rows"}, i32 + IntAttr("N", 1) + IntAttr("axis", 0)) +
      Node("dims", "ConcatV2", {"packed", "cols", "axis"},
           i32 + TypeAttr("Tidx", DT_INT32) + IntAttr("N", 2)) +
      Node("dims2", "Slice", {"dims", "zero", "two"}, i32 + TypeAttr("Index", DT_INT32)) +
      Node("r", "Reshape", {"x", "dims2"}, TypeAttr("T", DT_FLOAT) + TypeAttr("Tshape", DT_INT32)) +
      Node("z", "Neg", {"r"}, TypeAttr("T", DT_FLOAT)) + Node("mx", "Max", {"s", "axis"}, reduce) +
      Node("sm", "Sum", {"s", "axis"}, reduce) + Node("mn", "Min", {"s", "axis"}, reduce) +
      Node("stats", "Pack", {"mx", "sm", "mn", "rows"}, i32 + IntAttr("N", 4) + IntAttr("axis", 0));
  const Feeds feeds = {{"x", Random(DT_FLOAT, TensorShape({2, 3, 4}), 130)}};
  const std::vector<std::string> nodes = {"s", "lead", "rows", "cols", "packed", "dims", "dims2",
                                          "r", "z",    "mx",   "sm",   "mn",     "stats"};
  RILL_ASSERT_OK_AND_ASSIGN(Tensor z, RunOnGpu(graph, feeds, "z:0", nodes));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor cpu_z, RunOnCpu(graph, feeds, "z:0"));
  EXPECT_EQ(z.shape(), TensorShape({6, 4}));
  ExpectSame(z, cpu_z);
  RILL_ASSERT_OK_AND_ASSIGN(Tensor stats, RunOnGpu(graph, feeds, "stats:0", nodes));
  ASSERT_EQ(stats.NumElements(), 4);
  EXPECT_EQ(stats.flat<int32_t>()[0], 4);  // Max of [2,3,4]
  EXPECT_EQ(stats.flat<int32_t>()[1], 9);  // Sum
  EXPECT_EQ(stats.flat<int32_t>()[2], 2);  // Min
  EXPECT_EQ(stats.flat<int32_t>()[3], 6);  // Prod of [2,3]
}

TEST(GpuArrayKernelsTest, ErrorsOnTheGpuAreTheCpuKernelsErrors) {
  RILL_REQUIRE_GPU();
  const Feeds x = {{"x", Random(DT_FLOAT, TensorShape({2, 3, 4}), 100)}};
  ExpectSameError(Placeholder("x", DT_FLOAT) + IntConst("perm", {0, 0, 1}) +
                      Node("z", "Transpose", {"x", "perm"},
                           TypeAttr("T", DT_FLOAT) + TypeAttr("Tperm", DT_INT32)),
                  x, "z:0", "2 is missing from {0,0,1}.");
  ExpectSameError(Placeholder("x", DT_FLOAT) + IntConst("b", {3, 0, 0}) + IntConst("s", {1, 1, 1}) +
                      Node("z", "Slice", {"x", "b", "s"},
                           TypeAttr("T", DT_FLOAT) + TypeAttr("Index", DT_INT32)),
                  x, "z:0", "Expected begin[0] in [0, 2], but got 3");
  ExpectSameError(Placeholder("x", DT_FLOAT) + Placeholder("y", DT_FLOAT) +
                      IntConst("axis", {0}, {}) +
                      Node("z", "ConcatV2", {"x", "y", "axis"},
                           TypeAttr("T", DT_FLOAT) + TypeAttr("Tidx", DT_INT32) + IntAttr("N", 2)),
                  {x[0], {"y", Random(DT_FLOAT, TensorShape({3}), 101)}}, "z:0",
                  "ConcatOp : Ranks of all input tensors should match: shape[0] = [2,3,4] vs. "
                  "shape[1] = [3]");
  ExpectSameError(
      Placeholder("x", DT_FLOAT) + IntConst("b", {0}) + IntConst("e", {1}) + IntConst("s", {0}) +
          Node("z", "StridedSlice", {"x", "b", "e", "s"},
               TypeAttr("T", DT_FLOAT) + TypeAttr("Index", DT_INT32) + IntAttr("begin_mask", 0) +
                   IntAttr("end_mask", 0) + IntAttr("ellipsis_mask", 0) +
                   IntAttr("new_axis_mask", 0) + IntAttr("shrink_axis_mask", 0)),
      x, "z:0", "strides[0] must be non-zero");
  ExpectSameError(
      Placeholder("x", DT_FLOAT) + IntConst("p", {1, 1, -1, 0, 0, 0}, {3, 2}) +
          Node("z", "Pad", {"x", "p"}, TypeAttr("T", DT_FLOAT) + TypeAttr("Tpaddings", DT_INT32)),
      x, "z:0", "Paddings must be non-negative: -1 0");
  ExpectSameError(Placeholder("x", DT_FLOAT) + Placeholder("i", DT_INT32) +
                      IntConst("axis", {3}, {}) +
                      Node("z", "GatherV2", {"x", "i", "axis"},
                           TypeAttr("Tparams", DT_FLOAT) + TypeAttr("Tindices", DT_INT32) +
                               TypeAttr("Taxis", DT_INT32)),
                  {x[0], {"i", Tensor::FromVector<int32_t>({0}, TensorShape({1}))}}, "z:0",
                  "Expected axis in the range [-3, 3), but got 3");
  ExpectSameError(Placeholder("c", DT_BOOL) + Placeholder("x", DT_FLOAT) +
                      Placeholder("y", DT_FLOAT) +
                      Node("z", "Select", {"c", "x", "y"}, TypeAttr("T", DT_FLOAT)),
                  {{"c", RandomInts(DT_BOOL, TensorShape({3}), 102)},
                   x[0],
                   {"y", Random(DT_FLOAT, TensorShape({2, 3, 4}), 103)}},
                  "z:0", "Number of batches of 'then' must match size of 'cond', but saw: 2 vs. 3");
  ExpectSameError(Placeholder("x", DT_FLOAT) + Placeholder("y", DT_FLOAT) +
                      Node("z", "Less", {"x", "y"}, TypeAttr("T", DT_FLOAT)),
                  {x[0], {"y", Random(DT_FLOAT, TensorShape({5}), 104)}}, "z:0",
                  "Incompatible shapes: [2,3,4] vs. [5]");
}

}  // namespace
}  // namespace rill
