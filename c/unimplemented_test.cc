// The entry points Rill does not serve yet: TF_UNIMPLEMENTED with the function's name, null
// results, and no crash.
#include <string>

#include "c/c_test_util.h"
#include "gtest/gtest.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tensorflow/c/eager/c_api.h"

namespace {

using rill_c_test::Status;

TEST(Unimplemented, SetsTheCodeAndNamesTheFunction) {
  Status s;
  TF_Graph* g = TF_NewGraph();
  EXPECT_EQ(TF_NewServer(nullptr, 0, s), nullptr);
  EXPECT_EQ(s.message(), "TF_NewServer is not implemented in Rill");
  TF_DeleteServer(nullptr);
  TF_DeleteGraph(g);
}

TEST(Unimplemented, EagerAndExperimentalEntryPoints) {
  Status s;
  TFE_ContextSetServerDef(nullptr, 0, nullptr, 0, s);
  EXPECT_EQ(s.code(), TF_UNIMPLEMENTED);
  EXPECT_EQ(s.message(), "TFE_ContextSetServerDef is not implemented in Rill");
  EXPECT_EQ(TF_NewCheckpointReader("/tmp/ckpt", s), nullptr);
  EXPECT_EQ(s.message(), "TF_NewCheckpointReader is not implemented in Rill");
  TF_DeleteCheckpointReader(nullptr);
  EXPECT_EQ(TF_CheckpointReaderSize(nullptr), 0);
  EXPECT_EQ(TF_PickUnusedPortOrDie(), -1);
  TF_ShapeAndTypeList* out = TF_NewShapeAndTypeList(1);
  TFE_InferShapes(nullptr, nullptr, nullptr, nullptr, nullptr, &out, nullptr, s);
  EXPECT_EQ(out, nullptr);
  EXPECT_EQ(s.message(), "TFE_InferShapes is not implemented in Rill");
  EXPECT_EQ(TF_LoadPluggableDeviceLibrary("x.so", s), nullptr);
  EXPECT_EQ(s.code(), TF_UNIMPLEMENTED);
}

}  // namespace
