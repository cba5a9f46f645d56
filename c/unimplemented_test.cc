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
  EXPECT_EQ(TF_NewServer(nullptr, 0, s), nullptr);
  EXPECT_EQ(s.message(), "TF_NewServer is not implemented in Rill");
  TF_DeleteServer(nullptr);
  TF_DeleteGraph(g);
}

}  // namespace
