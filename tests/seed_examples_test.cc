// End-to-end: every seed example on CPU devices, through Session, printing the seeds' numbers.
// Graphs are written here as text GraphDefs in the shape TensorFlow writes them (Const nodes with
// dtype/value attrs, MatMul with T and transpose attrs), with /gpu:N replaced by /cpu:N.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "session/session.h"

namespace rill {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string ConstNode(const std::string& name, const std::string& device, int rows, int cols,
                      const std::vector<float>& values) {
  std::string vals;
  for (float v : values) absl::StrAppend(&vals, " float_val: ", v);
  return absl::StrCat(
      "node { name: '", name, "' op: 'Const' device: '", device,
      "' attr { key: 'dtype' value { type: DT_FLOAT } } attr { key: 'value' value { tensor {"
      " dtype: DT_FLOAT tensor_shape { dim { size: ",
      rows, " } dim { size: ", cols, " } }", vals, " } } } }\n");
}

std::string MatMulNode(const std::string& name, const std::string& device, const std::string& a,
                       const std::string& b) {
  return absl::StrCat("node { name: '", name, "' op: 'MatMul' input: '", a, "' input: '", b,
                      "' device: '", device, "' attr { key: 'T' value { type: DT_FLOAT } } }\n");
}

// The seed towers: on each device d, a (2x3) times b (3x2), then AddN of all products on CPU:0.
GraphDef Towers(const std::vector<std::string>& devices) {
  std::string text;
  std::string addn = "node { name: 'AddN' op: 'AddN' device: '/cpu:0'";
  for (size_t i = 0; i < devices.size(); ++i) {
    const std::string s = i == 0 ? "" : absl::StrCat("_", i);
    text += ConstNode("Const" + (i == 0 ? "" : absl::StrCat("_", 2 * i)), devices[i], 2, 3,
                      {1, 2, 3, 4, 5, 6});
    text += ConstNode(absl::StrCat("Const_", 2 * i + 1), devices[i], 3, 2, {1, 2, 3, 4, 5, 6});
    text += MatMulNode("MatMul" + s, devices[i], "Const" + (i == 0 ? "" : absl::StrCat("_", 2 * i)),
                       absl::StrCat("Const_", 2 * i + 1));
    absl::StrAppend(&addn, " input: 'MatMul", s, "'");
  }
  absl::StrAppend(&addn, " attr { key: 'N' value { i: ", devices.size(),
                  " } } attr { key: 'T' value { type: DT_FLOAT } } }\n");
  GraphDef g;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text + addn, &g));
  return g;
}

std::unique_ptr<Session> NewSession(int cpus, bool soft = false) {
  SessionOptions options;
  (*options.config.mutable_device_count())["CPU"] = cpus;
  options.config.set_allow_soft_placement(soft);
  absl::StatusOr<std::unique_ptr<Session>> s = Session::New(options);
  EXPECT_THAT(s, IsOk());
  return std::move(s).value();
}

std::vector<float> Values(const Tensor& t) {
  auto f = t.flat<float>();
  return std::vector<float>(f.begin(), f.end());
}

TEST(SeedExamplesTest, MatMulPrints22_28_49_64) {
  GraphDef g;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(
      ConstNode("a", "", 2, 3, {1, 2, 3, 4, 5, 6}) + ConstNode("b", "", 3, 2, {1, 2, 3, 4, 5, 6}) +
          MatMulNode("MatMul", "", "a", "b"),
      &g));
  auto session = NewSession(1);
  RILL_ASSERT_OK(session->Create(g));
  std::vector<Tensor> out;
  RILL_ASSERT_OK(session->Run({}, {"MatMul"}, {}, &out));
  EXPECT_EQ(out[0].shape(), TensorShape({2, 2}));
  EXPECT_THAT(Values(out[0]), ElementsAre(22, 28, 49, 64));
}

TEST(SeedExamplesTest, TwoTowersOnCpu1AndCpu2SumTo44_56_98_128) {
  auto session = NewSession(3);
  RILL_ASSERT_OK(session->Create(Towers({"/cpu:1", "/cpu:2"})));
  std::vector<Tensor> out;
  RunOptions opts;
  opts.set_output_partition_graphs(true);
  RunMetadata meta;
  RILL_ASSERT_OK(session->Run(opts, {}, {"AddN"}, {}, &out, &meta));
  EXPECT_THAT(Values(out[0]), ElementsAre(44, 56, 98, 128));
  // Three partitions (CPU:0 with AddN, CPU:1 and CPU:2 with a tower each), joined by _Send/_Recv.
  ASSERT_EQ(meta.partition_graphs_size(), 3);
  int sends = 0, recvs = 0;
  for (const GraphDef& p : meta.partition_graphs()) {
    for (const NodeDef& n : p.node()) {
      sends += n.op() == "_Send";
      recvs += n.op() == "_Recv";
    }
  }
  EXPECT_EQ(sends, 2);
  EXPECT_EQ(recvs, 2);
}

TEST(SeedExamplesTest, FourReplicasSumTo88_112_196_256) {
  auto session = NewSession(4);
  RILL_ASSERT_OK(session->Create(Towers({"/cpu:0", "/cpu:1", "/cpu:2", "/cpu:3"})));
  std::vector<Tensor> out;
  RILL_ASSERT_OK(session->Run({}, {"AddN"}, {}, &out));
  EXPECT_THAT(Values(out[0]), ElementsAre(88, 112, 196, 256));
}

TEST(SeedExamplesTest, MissingDeviceWithoutSoftPlacementFailsWithTensorFlowsWords) {
  GraphDef g;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(
      ConstNode("a", "/device:GPU:2", 2, 3, {1, 2, 3, 4, 5, 6}) +
          ConstNode("b", "/device:GPU:2", 3, 2, {1, 2, 3, 4, 5, 6}) +
          MatMulNode("MatMul", "/device:GPU:2", "a", "b"),
      &g));
  auto strict = NewSession(1);
  EXPECT_THAT(strict->Create(g),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::AllOf(HasSubstr("Cannot assign a device for operation"),
                                        HasSubstr("/device:GPU:2"))));
  auto soft = NewSession(1, /*soft=*/true);
  RILL_ASSERT_OK(soft->Create(g));
  std::vector<Tensor> out;
  RILL_ASSERT_OK(soft->Run({}, {"MatMul:0"}, {}, &out));
  EXPECT_THAT(Values(out[0]), ElementsAre(22, 28, 49, 64));
}

}  // namespace
}  // namespace rill
