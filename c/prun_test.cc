// Partial runs: feeds and fetches spread over several TF_SessionPRun calls, TensorFlow's errors
// for undeclared or repeated feeds and fetches, and the refusal of stateful setups.
#include <string>
#include <vector>

#include "c/c_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensorflow/c/c_api.h"

namespace {

using rill_c_test::Status;

class PRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    g_ = TF_NewGraph();
    a_ = rill_c_test::Placeholder(g_, "a");
    b_ = rill_c_test::Placeholder(g_, "b");
    c_ = rill_c_test::ScalarConst(g_, "c", 3.f);
    plus_ = rill_c_test::Add(g_, "plus", {a_, 0}, {b_, 0});
    plus_c_ = rill_c_test::Add(g_, "plus_c", {plus_, 0}, {c_, 0});
    TF_SessionOptions* opts = TF_NewSessionOptions();
    session_ = TF_NewSession(g_, opts, s_);
    TF_DeleteSessionOptions(opts);
  }
  void TearDown() override {
    TF_DeleteSession(session_, s_);
    TF_DeleteGraph(g_);
  }

  const char* StartPartialRun() {
    TF_Output feeds[] = {{a_, 0}, {b_, 0}};
    TF_Output fetches[] = {{plus_, 0}, {plus_c_, 0}};
    const char* handle = nullptr;
    TF_SessionPRunSetup(session_, feeds, 2, fetches, 2, nullptr, 0, &handle, s_);
    EXPECT_EQ(s_.code(), TF_OK) << s_.message();
    return handle;
  }

  void Feed(const char* handle, TF_Operation* op, float value) {
    TF_Tensor* t = rill_c_test::FloatTensor({}, {value});
    TF_Output in{op, 0};
    TF_SessionPRun(session_, handle, &in, &t, 1, nullptr, nullptr, 0, nullptr, 0, s_);
    TF_DeleteTensor(t);
  }

  float Fetch(const char* handle, TF_Operation* op) {
    TF_Output out{op, 0};
    TF_Tensor* value = nullptr;
    TF_SessionPRun(session_, handle, nullptr, nullptr, 0, &out, &value, 1, nullptr, 0, s_);
    if (value == nullptr) return -1;
    const float v = rill_c_test::FloatValues(value)[0];
    TF_DeleteTensor(value);
    return v;
  }

  Status s_;
  TF_Graph* g_;
  TF_Operation *a_, *b_, *c_, *plus_, *plus_c_;
  TF_Session* session_;
};

TEST_F(PRunTest, FeedsAndFetchesOverSeveralCalls) {
  const char* handle = StartPartialRun();
  ASSERT_NE(handle, nullptr);
  Feed(handle, a_, 1);
  ASSERT_EQ(s_.code(), TF_OK) << s_.message();
  Feed(handle, b_, 2);
  ASSERT_EQ(s_.code(), TF_OK) << s_.message();
  EXPECT_EQ(Fetch(handle, plus_), 3);
  ASSERT_EQ(s_.code(), TF_OK) << s_.message();
  EXPECT_EQ(Fetch(handle, plus_c_), 6);
  ASSERT_EQ(s_.code(), TF_OK) << s_.message();
  // Everything was fetched: the partial run is over.
  Fetch(handle, plus_);
  EXPECT_EQ(s_.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s_.message(), "Must run 'setup' before performing partial runs!");
  TF_DeletePRunHandle(handle);
}

TEST_F(PRunTest, TensorFlowsErrors) {
  const char* handle = StartPartialRun();
  Feed(handle, a_, 1);
  Feed(handle, a_, 1);
  EXPECT_EQ(s_.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s_.message(), "The feed a:0 has already been fed.");
  Feed(handle, c_, 1);
  EXPECT_EQ(s_.message(), "The feed c:0 was not specified in partial_run_setup.");
  Fetch(handle, c_);
  EXPECT_EQ(s_.message(), "The fetch c:0 was not specified in partial_run_setup.");
  Feed(handle, b_, 5);
  EXPECT_EQ(Fetch(handle, plus_), 6);
  Fetch(handle, plus_);
  EXPECT_EQ(s_.message(), "The fetch plus:0 has already been fetched.");
  TF_DeletePRunHandle(handle);
  // A fetch whose feeds are missing fails as a run does.
  handle = StartPartialRun();
  Feed(handle, a_, 1);
  Fetch(handle, plus_);
  EXPECT_EQ(s_.code(), TF_INVALID_ARGUMENT);
  EXPECT_THAT(s_.message(), ::testing::HasSubstr("You must feed a value for placeholder"));
  TF_DeletePRunHandle(handle);
  TF_DeletePRunHandle(nullptr);
  TF_SessionPRun(session_, "no such handle", nullptr, nullptr, 0, nullptr, nullptr, 0, nullptr, 0,
                 s_);
  EXPECT_EQ(s_.message(), "Must run 'setup' before performing partial runs!");
}

// TensorFlow's PRunSetup checks the session first (CheckNotClosed), as Run does; a partial run
// started before the close fails at its next step.
TEST_F(PRunTest, AClosedSessionRefusesSetup) {
  const char* handle = StartPartialRun();
  TF_CloseSession(session_, s_);
  ASSERT_EQ(s_.code(), TF_OK) << s_.message();
  TF_Output feeds[] = {{a_, 0}};
  const char* after = nullptr;
  TF_SessionPRunSetup(session_, feeds, 1, feeds, 1, nullptr, 0, &after, s_);
  EXPECT_EQ(s_.code(), TF_CANCELLED);
  EXPECT_EQ(s_.message(), "Session has been closed.");
  EXPECT_EQ(after, nullptr);
  Feed(handle, a_, 1);
  Feed(handle, b_, 2);
  Fetch(handle, plus_);
  EXPECT_EQ(s_.code(), TF_CANCELLED);
  EXPECT_EQ(s_.message(), "Session has been closed.");
  TF_DeletePRunHandle(handle);
}

TEST_F(PRunTest, StatefulSetupsAreRefused) {
  TF_OperationDescription* desc = TF_NewOperation(g_, "VariableV2", "v");
  TF_SetAttrType(desc, "dtype", TF_FLOAT);
  TF_SetAttrShape(desc, "shape", nullptr, 0);
  TF_Operation* v = TF_FinishOperation(desc, s_);
  ASSERT_EQ(s_.code(), TF_OK) << s_.message();
  TF_Operation* sum = rill_c_test::Add(g_, "sum", {a_, 0}, {v, 0});
  TF_Output feed{a_, 0}, fetch{sum, 0};
  const char* handle = reinterpret_cast<const char*>(&feed);
  TF_SessionPRunSetup(session_, &feed, 1, &fetch, 1, nullptr, 0, &handle, s_);
  EXPECT_EQ(s_.code(), TF_UNIMPLEMENTED);
  EXPECT_EQ(s_.message(),
            "Partial runs that need a stateful operation are not implemented in Rill: 'v' "
            "(VariableV2) would run again at each TF_SessionPRun");
  EXPECT_EQ(handle, nullptr);
}

}  // namespace
