// Checkpoints end to end: a TF1 graph and the checkpoint tf.compat.v1.train.Saver wrote for it
// (tests/tfgen/make_checkpoint_cases.py) restored in Rill with the graph's own save/restore_all
// (the filename fed to save/Const:0, as Saver.restore does), giving TensorFlow's output; saved
// by Rill with save/control_dependency and restored in a fresh session; and every bad
// checkpoint a clean error followed by a successful run in the same session.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/io/tensor_bundle.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "graph/graph_file.h"
#include "gtest/gtest.h"
#include "session/session.h"
#include "tools/npy/npy.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

const std::string kData = "tests/checkpoints/data/tf1_saver/";
const std::string kCheckpoint = kData + "model.ckpt";

std::string TempDir() {
  const char* t = std::getenv("TEST_TMPDIR");
  return t != nullptr ? t : "/tmp";
}

std::unique_ptr<Session> NewSession() {
  absl::StatusOr<GraphDef> graph = ReadGraphDefFile(kData + "graph.pbtxt");
  EXPECT_THAT(graph.status(), IsOk());
  absl::StatusOr<std::unique_ptr<Session>> s = Session::New(SessionOptions());
  EXPECT_THAT(s.status(), IsOk());
  EXPECT_THAT((*s)->Create(*graph), IsOk());
  return *std::move(s);
}

absl::Status Restore(Session& s, const std::string& prefix) {
  std::vector<Tensor> out;
  return s.Run({{"save/Const:0", Tensor::Scalar<std::string>(prefix)}}, {}, {"save/restore_all"},
               &out);
}

// y for TensorFlow's x, compared with TensorFlow's y.
void ExpectTensorFlowsOutput(Session& s) {
  RILL_ASSERT_OK_AND_ASSIGN(Tensor x, ReadNpy(kData + "x.npy"));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor want, ReadNpy(kData + "y.npy"));
  std::vector<Tensor> out;
  ASSERT_THAT(s.Run({{"x:0", x}}, {"y:0"}, {}, &out), IsOk());
  ASSERT_EQ(out[0].shape().DebugString(), want.shape().DebugString());
  for (int64_t i = 0; i < want.NumElements(); ++i) {
    EXPECT_NEAR(out[0].flat<float>()[i], want.flat<float>()[i], 1e-6) << i;
  }
}

int64_t GlobalStep(Session& s) {
  std::vector<Tensor> out;
  EXPECT_THAT(s.Run({}, {"global_step:0"}, {}, &out), IsOk());
  return out.empty() ? -1 : out[0].flat<int64_t>()[0];
}

TEST(CheckpointTest, RestoresWhatTensorFlowSavedAndGivesItsOutput) {
  std::unique_ptr<Session> s = NewSession();
  ASSERT_THAT(Restore(*s, kCheckpoint), IsOk());
  ExpectTensorFlowsOutput(*s);
  EXPECT_EQ(GlobalStep(*s), 42);
}

TEST(CheckpointTest, RillSavesAndRestoresInAFreshSession) {
  std::unique_ptr<Session> s = NewSession();
  ASSERT_THAT(Restore(*s, kCheckpoint), IsOk());
  std::vector<Tensor> out;
  ASSERT_THAT(s->Run({}, {}, {"bump"}, &out), IsOk());  // global_step 42 -> 84
  const std::string prefix = TempDir() + "/rill_saved.ckpt";
  ASSERT_THAT(s->Run({{"save/Const:0", Tensor::Scalar<std::string>(prefix)}},
                     {"save/control_dependency:0"}, {}, &out),
              IsOk());
  EXPECT_EQ(out[0].flat<std::string>()[0], prefix);
  std::unique_ptr<Session> fresh = NewSession();
  ASSERT_THAT(Restore(*fresh, prefix), IsOk());
  EXPECT_EQ(GlobalStep(*fresh), 84);
  ExpectTensorFlowsOutput(*fresh);
}

// A copy of TensorFlow's checkpoint with `edit` applied to its tensors.
std::string EditedCheckpoint(const std::string& name,
                             const std::function<void(std::map<std::string, Tensor>*)>& edit) {
  auto reader = BundleReader::Open(kCheckpoint);
  EXPECT_THAT(reader.status(), IsOk());
  std::map<std::string, Tensor> tensors;
  for (const std::string& k : (*reader)->Keys()) tensors[k] = *(*reader)->Lookup(k);
  edit(&tensors);
  const std::string prefix = TempDir() + "/" + name;
  BundleWriter w(prefix);
  for (const auto& [k, t] : tensors) EXPECT_THAT(w.Add(k, t), IsOk());
  EXPECT_THAT(w.Finish(), IsOk());
  return prefix;
}

TEST(CheckpointTest, BadCheckpointsAreCleanErrorsAndTheSessionStaysUsable) {
  std::unique_ptr<Session> s = NewSession();
  struct Case {
    std::string prefix;
    absl::StatusCode code;
    std::string message;
  };
  const std::vector<Case> cases = {
      {TempDir() + "/no_such.ckpt", absl::StatusCode::kNotFound,
       "Unsuccessful TensorSliceReader constructor: Failed to find any matching files for " +
           TempDir() + "/no_such.ckpt"},
      {EditedCheckpoint("missing.ckpt", [](auto* t) { t->erase("out/b"); }),
       absl::StatusCode::kNotFound, "Key out/b not found in checkpoint"},
      {EditedCheckpoint("dtype.ckpt",
                        [](auto* t) { (*t)["dense/b"] = Tensor(DT_INT32, TensorShape({3})); }),
       absl::StatusCode::kInvalidArgument,
       "tensor_name = dense/b; expected dtype float does not equal original dtype int32"},
      {EditedCheckpoint("shape.ckpt",
                        [](auto* t) { (*t)["dense/b"] = Tensor(DT_FLOAT, TensorShape({5})); }),
       absl::StatusCode::kInvalidArgument,
       "Assign requires shapes of both tensors to match. lhs shape= [3] rhs shape= [5]"},
  };
  for (const Case& c : cases) {
    EXPECT_THAT(Restore(*s, c.prefix), StatusIs(c.code, HasSubstr(c.message))) << c.prefix;
    // The same session then restores the good checkpoint and runs.
    ASSERT_THAT(Restore(*s, kCheckpoint), IsOk());
    ExpectTensorFlowsOutput(*s);
  }
  // A flipped bit in the data file.
  const std::string flipped = TempDir() + "/flipped.ckpt";
  std::filesystem::copy_file(BundleIndexFilename(kCheckpoint), BundleIndexFilename(flipped),
                             std::filesystem::copy_options::overwrite_existing);
  std::filesystem::copy_file(BundleDataFilename(kCheckpoint, 0, 1),
                             BundleDataFilename(flipped, 0, 1),
                             std::filesystem::copy_options::overwrite_existing);
  {
    std::fstream f(BundleDataFilename(flipped, 0, 1),
                   std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(5);
    f.put('\x7f');
  }
  EXPECT_THAT(Restore(*s, flipped),
              StatusIs(absl::StatusCode::kDataLoss, HasSubstr("Checksum does not match")));
  ASSERT_THAT(Restore(*s, kCheckpoint), IsOk());
  ExpectTensorFlowsOutput(*s);
}

}  // namespace
}  // namespace rill
