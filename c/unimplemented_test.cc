// The entry points Rill does not serve yet: TF_UNIMPLEMENTED with the function's name, null
// results, and no crash.
#include <string>

#include "c/c_test_util.h"
#include "gtest/gtest.h"
#include "tensorflow/c/c_api.h"

namespace {

using rill_c_test::Status;

TEST(Unimplemented, SetsTheCodeAndNamesTheFunction) {
  Status s;
  TF_Graph* g = TF_NewGraph();
  TF_AddGradients(g, nullptr, 0, nullptr, 0, nullptr, s, nullptr);
  EXPECT_EQ(s.code(), TF_UNIMPLEMENTED);
  EXPECT_EQ(s.message(), "TF_AddGradients is not implemented in Rill");
  EXPECT_EQ(TF_NewServer(nullptr, 0, s), nullptr);
  EXPECT_EQ(s.message(), "TF_NewServer is not implemented in Rill");
  EXPECT_EQ(TF_LoadLibrary("x.so", s), nullptr);
  EXPECT_EQ(s.code(), TF_UNIMPLEMENTED);
  TF_AddGradientsWithPrefix(g, "p", nullptr, 0, nullptr, 0, nullptr, s, nullptr);
  EXPECT_EQ(s.message(), "TF_AddGradientsWithPrefix is not implemented in Rill");
  EXPECT_EQ(TF_GetOpList(nullptr).data, nullptr);
  TF_DeleteServer(nullptr);
  TF_DeleteLibraryHandle(nullptr);
  TF_DeleteGraph(g);
}

struct Released {
  int calls = 0;
};
void Release(void*, size_t, void* arg) { ++static_cast<Released*>(arg)->calls; }

TEST(Unimplemented, DeprecatedPRunStillTakesItsInputs) {
  float v = 1;
  Released released;
  TF_Tensor* input = TF_NewTensor(TF_FLOAT, nullptr, 0, &v, sizeof(v), Release, &released);
  TF_Tensor* output = reinterpret_cast<TF_Tensor*>(&v);
  const char* in_name = "x";
  const char* out_name = "y";
  Status s;
  TF_PRun(nullptr, "h", &in_name, &input, 1, &out_name, &output, 1, nullptr, 0, s);
  EXPECT_EQ(s.code(), TF_UNIMPLEMENTED);
  EXPECT_EQ(s.message(), "TF_PRun is not implemented in Rill");
  EXPECT_EQ(released.calls, 1);
  EXPECT_EQ(output, nullptr);
}

}  // namespace
