// SavedModels written by TensorFlow (tests/tfgen/make_checkpoint_cases.py) loaded by Rill's
// loader (session/saved_model_loader.h): a TF1 Builder export with ref variables and a Keras
// export (TF2: resource variables, functions, StatefulPartitionedCall signatures and a restore
// function), a TF1 export whose lookup table reads a vocabulary asset, and an Estimator-style
// export whose signature parses serialized tf.train.Example records; the serving signature gives
// TensorFlow's outputs.
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "session/saved_model_loader.h"
#include "tools/npy/npy.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

void ExpectSignatureOutput(const std::string& dir, const std::string& in_key,
                           const std::string& out_key, const std::string& want_file) {
  RILL_ASSERT_OK_AND_ASSIGN(LoadedSavedModel m, LoadSavedModel(SessionOptions(), dir, "serve"));
  RILL_ASSERT_OK_AND_ASSIGN(SignatureDef sig, m.Signature("serving_default"));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor x, ReadNpy(dir + "/x.npy"));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor want, ReadNpy(dir + "/" + want_file));
  std::vector<Tensor> out;
  ASSERT_THAT(m.session->Run({{sig.inputs().at(in_key).name(), x}},
                             {sig.outputs().at(out_key).name()}, {}, &out),
              IsOk());
  ASSERT_EQ(out[0].shape().DebugString(), want.shape().DebugString());
  for (int64_t i = 0; i < want.NumElements(); ++i) {
    EXPECT_NEAR(out[0].flat<float>()[i], want.flat<float>()[i], 1e-5) << i;
  }
}

TEST(SavedModelTest, Tf1BuilderExportGivesTensorFlowsOutput) {
  ExpectSignatureOutput("tests/checkpoints/data/tf1_saved_model", "x", "probs", "probs.npy");
}

TEST(SavedModelTest, KerasExportGivesTensorFlowsOutput) {
  ExpectSignatureOutput("tests/checkpoints/data/keras_saved_model", "keras_tensor", "output_0",
                        "y.npy");
}

// The table's vocabulary is an asset: the graph's asset tensor holds the path it had when
// TensorFlow wrote the model (a deleted temporary file), and the loader feeds it the file inside
// the export, in the restore and the init runs, as TensorFlow's does. Without that feed the init
// op failed NotFound (or read whatever file was at the old path).
TEST(SavedModelTest, AssetsAreReadFromTheExport) {
  const std::string dir = "tests/checkpoints/data/tf1_asset_saved_model";
  RILL_ASSERT_OK_AND_ASSIGN(LoadedSavedModel m, LoadSavedModel(SessionOptions(), dir, "serve"));
  RILL_ASSERT_OK_AND_ASSIGN(SignatureDef sig, m.Signature("serving_default"));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor words, ReadNpy(dir + "/words.npy"));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor want, ReadNpy(dir + "/ids.npy"));
  std::vector<Tensor> out;
  ASSERT_THAT(m.session->Run({{sig.inputs().at("words").name(), words}},
                             {sig.outputs().at("ids").name()}, {}, &out),
              IsOk());
  ASSERT_EQ(out[0].NumElements(), 4);
  for (int64_t i = 0; i < 4; ++i) EXPECT_EQ(out[0].flat<int64_t>()[i], want.flat<int64_t>()[i]);
  EXPECT_EQ(want.flat<int64_t>()[1], 9);  // "zzz": the table's default -1 plus the offset 10
}

// A serving signature fed serialized tf.train.Example strings, as an Estimator exports it:
// ParseExampleV2 (a missing age takes its default, a variable-length city list feeds an
// embedding column, a missing history is padded) before the model.
TEST(SavedModelTest, ExampleParsingSignatureGivesTensorFlowsOutput) {
  const std::string dir = "tests/checkpoints/data/tf1_example_saved_model";
  RILL_ASSERT_OK_AND_ASSIGN(LoadedSavedModel m, LoadSavedModel(SessionOptions(), dir, "serve"));
  RILL_ASSERT_OK_AND_ASSIGN(SignatureDef sig, m.Signature("serving_default"));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor examples, ReadNpy(dir + "/examples.npy"));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor want, ReadNpy(dir + "/probs.npy"));
  std::vector<Tensor> out;
  ASSERT_THAT(m.session->Run({{sig.inputs().at("examples").name(), examples}},
                             {sig.outputs().at("probabilities").name()}, {}, &out),
              IsOk());
  ASSERT_EQ(out[0].shape().DebugString(), "[4,2]");
  for (int64_t i = 0; i < want.NumElements(); ++i) {
    EXPECT_NEAR(out[0].flat<float>()[i], want.flat<float>()[i], 1e-6) << i;
  }
}

TEST(SavedModelTest, ErrorsUseTensorFlowsTexts) {
  EXPECT_THAT(LoadSavedModel(SessionOptions(), "tests/checkpoints/data/nothing").status(),
              StatusIs(absl::StatusCode::kNotFound,
                       "SavedModel file does not exist at: tests/checkpoints/data/nothing/"
                       "{saved_model.pbtxt|saved_model.pb}"));
  EXPECT_THAT(
      LoadSavedModel(SessionOptions(), "tests/checkpoints/data/tf1_saved_model", "train").status(),
      StatusIs(absl::StatusCode::kNotFound,
               HasSubstr("MetaGraphDef associated with tags 'train' could not be found")));
  RILL_ASSERT_OK_AND_ASSIGN(
      LoadedSavedModel m,
      LoadSavedModel(SessionOptions(), "tests/checkpoints/data/tf1_saved_model", "serve"));
  EXPECT_THAT(m.Signature("predict").status(),
              StatusIs(absl::StatusCode::kNotFound,
                       "Could not find SignatureDef with key: 'predict'. Available keys: "
                       "[serving_default]"));
}

}  // namespace
}  // namespace rill
