// TF_Session: runs (feeds, fetches, targets, run options and metadata; fed shapes unchecked, as
// TensorFlow's), graphs that grow after the session is made, errors with TensorFlow's codes and
// texts, eight threads on one session, device lists, config, close/delete, and
// TF_LoadSessionFromSavedModel.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "c/c_test_util.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "proto/config.pb.h"
#include "proto/meta_graph.pb.h"
#include "proto/saved_model.pb.h"
#include "tensorflow/c/c_api.h"

namespace {

using rill_c_test::Status;
using ::testing::HasSubstr;

TF_Session* NewSession(TF_Graph* g, const std::string& config_text = "") {
  TF_SessionOptions* opts = TF_NewSessionOptions();
  Status s;
  if (!config_text.empty()) {
    rill::ConfigProto config;
    EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(config_text, &config));
    const std::string bytes = config.SerializeAsString();
    TF_SetConfig(opts, bytes.data(), bytes.size(), s);
    EXPECT_EQ(s.code(), TF_OK) << s.message();
  }
  TF_Session* session = TF_NewSession(g, opts, s);
  EXPECT_EQ(s.code(), TF_OK) << s.message();
  TF_DeleteSessionOptions(opts);
  return session;
}

// y = x + 10 with x a float placeholder of shape [2].
class SessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    g_ = TF_NewGraph();
    x_ = rill_c_test::Placeholder(g_, "x", TF_FLOAT, {2}, true);
    TF_Tensor* ten = rill_c_test::FloatTensor({2}, {10, 10});
    c_ = rill_c_test::Const(g_, "ten", ten);
    TF_DeleteTensor(ten);
    y_ = rill_c_test::Add(g_, "y", {x_, 0}, {c_, 0});
    session_ = NewSession(g_);
  }
  void TearDown() override {
    Status s;
    TF_DeleteSession(session_, s);
    EXPECT_EQ(s.code(), TF_OK);
    TF_DeleteGraph(g_);
  }

  // Fetches `output` with x fed {1, 2}.
  TF_Tensor* Fetch(TF_Operation* op) {
    Status s;
    TF_Tensor* in = rill_c_test::FloatTensor({2}, {1, 2});
    TF_Output feed{x_, 0}, fetch{op, 0};
    TF_Tensor* out = nullptr;
    TF_SessionRun(session_, nullptr, &feed, &in, 1, &fetch, &out, 1, nullptr, 0, nullptr, s);
    EXPECT_EQ(s.code(), TF_OK) << s.message();
    TF_DeleteTensor(in);
    return out;
  }

  // Runs y with x fed `values`; returns y's values, or nothing on error (in *code/*message).
  std::vector<float> RunY(const std::vector<float>& values, TF_Status* status) {
    TF_Tensor* in = rill_c_test::FloatTensor({2}, values);
    TF_Output feed{x_, 0}, fetch{y_, 0};
    TF_Tensor* out = nullptr;
    TF_SessionRun(session_, nullptr, &feed, &in, 1, &fetch, &out, 1, nullptr, 0, nullptr, status);
    TF_DeleteTensor(in);
    if (out == nullptr) return {};
    std::vector<float> result = rill_c_test::FloatValues(out);
    TF_DeleteTensor(out);
    return result;
  }

  TF_Graph* g_;
  TF_Operation* x_;
  TF_Operation* c_;
  TF_Operation* y_;
  TF_Session* session_;
};

// A computed output is the caller's alone and may be moved; a constant's is shared with the
// kernel that holds the constant, so it is not.
TEST_F(SessionTest, MaybeMoveMovesAComputedOutputButNotAConstant) {
  TF_Tensor* y = Fetch(y_);
  ASSERT_NE(y, nullptr);
  void* data = TF_TensorData(y);
  TF_Tensor* moved = TF_TensorMaybeMove(y);
  ASSERT_NE(moved, nullptr);
  EXPECT_EQ(TF_TensorData(moved), data);
  EXPECT_EQ(rill_c_test::FloatValues(moved), (std::vector<float>{11, 12}));
  TF_DeleteTensor(moved);
  TF_Tensor* ten = Fetch(c_);
  ASSERT_NE(ten, nullptr);
  EXPECT_EQ(TF_TensorMaybeMove(ten), nullptr);
  EXPECT_EQ(rill_c_test::FloatValues(ten), (std::vector<float>{10, 10}));  // left as it was
  TF_DeleteTensor(ten);
}

TEST_F(SessionTest, FeedAndFetch) {
  Status s;
  EXPECT_EQ(RunY({1, 2}, s), (std::vector<float>{11, 12}));
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(RunY({-10, 0.5}, s), (std::vector<float>{0, 10.5}));
}

TEST_F(SessionTest, FedShapesAreNotCheckedAgainstThePlaceholders) {
  // As TensorFlow's session runs it: x is declared [2], a scalar fed to it broadcasts in y.
  Status s;
  TF_Tensor* in = rill_c_test::FloatTensor({}, {1});
  TF_Output feed{x_, 0}, fetch{y_, 0};
  TF_Tensor* out = nullptr;
  TF_SessionRun(session_, nullptr, &feed, &in, 1, &fetch, &out, 1, nullptr, 0, nullptr, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(rill_c_test::FloatValues(out), (std::vector<float>{11, 11}));
  TF_DeleteTensor(out);
  TF_DeleteTensor(in);
}

struct Released {
  int calls = 0;
};
void Release(void*, size_t, void* arg) { ++static_cast<Released*>(arg)->calls; }

TEST_F(SessionTest, InputsStayTheCallersAndOutputsAreOwned) {
  float values[2] = {3, 4};
  Released released;
  const int64_t dims[] = {2};
  TF_Tensor* in = TF_NewTensor(TF_FLOAT, dims, 1, values, sizeof(values), Release, &released);
  TF_Output feed{x_, 0}, fetch[] = {{y_, 0}, {c_, 0}};
  TF_Tensor* out[2] = {nullptr, nullptr};
  Status s;
  TF_SessionRun(session_, nullptr, &feed, &in, 1, fetch, out, 2, nullptr, 0, nullptr, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(released.calls, 0);  // not taken by the run
  EXPECT_EQ(TF_TensorType(in), TF_FLOAT);
  EXPECT_EQ(rill_c_test::FloatValues(out[0]), (std::vector<float>{13, 14}));
  EXPECT_EQ(rill_c_test::FloatValues(out[1]), (std::vector<float>{10, 10}));
  TF_DeleteTensor(in);
  EXPECT_EQ(released.calls, 1);
  TF_DeleteTensor(out[0]);
  TF_DeleteTensor(out[1]);
}

TEST_F(SessionTest, OperationsAddedAfterTheSessionAreSeen) {
  Status s;
  EXPECT_EQ(RunY({1, 1}, s), (std::vector<float>{11, 11}));
  TF_Operation* z = rill_c_test::Add(g_, "z", {y_, 0}, {y_, 0});
  TF_Tensor* in = rill_c_test::FloatTensor({2}, {1, 2});
  TF_Output feed{x_, 0}, fetch{z, 0};
  TF_Tensor* out = nullptr;
  TF_SessionRun(session_, nullptr, &feed, &in, 1, &fetch, &out, 1, nullptr, 0, nullptr, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(rill_c_test::FloatValues(out), (std::vector<float>{22, 24}));
  TF_DeleteTensor(out);
  TF_DeleteTensor(in);
}

TEST_F(SessionTest, TargetsVariablesAndRunMetadata) {
  // v = Variable; init: Assign(v, ten); fetch v after running init as a target.
  TF_OperationDescription* desc = TF_NewOperation(g_, "VariableV2", "v");
  TF_SetAttrType(desc, "dtype", TF_FLOAT);
  const int64_t shape[] = {2};
  TF_SetAttrShape(desc, "shape", shape, 1);
  Status s;
  TF_Operation* v = TF_FinishOperation(desc, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  desc = TF_NewOperation(g_, "Assign", "init");
  TF_AddInput(desc, {v, 0});
  TF_AddInput(desc, {c_, 0});
  TF_Operation* init = TF_FinishOperation(desc, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_SessionRun(session_, nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0, &init, 1, nullptr, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_Output fetch{v, 0};
  TF_Tensor* out = nullptr;
  TF_Buffer* metadata = TF_NewBuffer();
  rill::RunOptions options;
  options.set_trace_level(rill::RunOptions::FULL_TRACE);
  const std::string option_bytes = options.SerializeAsString();
  TF_Buffer* run_options = TF_NewBufferFromString(option_bytes.data(), option_bytes.size());
  TF_SessionRun(session_, run_options, nullptr, nullptr, 0, &fetch, &out, 1, nullptr, 0, metadata,
                s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(rill_c_test::FloatValues(out), (std::vector<float>{10, 10}));
  rill::RunMetadata md;
  EXPECT_TRUE(md.ParseFromArray(metadata->data, static_cast<int>(metadata->length)));
  EXPECT_TRUE(md.has_step_stats());
  TF_DeleteTensor(out);
  // A filled metadata buffer is refused, as TensorFlow refuses it.
  TF_SessionRun(session_, nullptr, nullptr, nullptr, 0, &fetch, &out, 1, nullptr, 0, metadata, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Passing non-empty run_metadata is invalid.");
  EXPECT_EQ(out, nullptr);
  TF_DeleteBuffer(metadata);
  TF_DeleteBuffer(run_options);
  TF_Buffer* junk = TF_NewBufferFromString("\xff\xff", 2);
  TF_SessionRun(session_, junk, nullptr, nullptr, 0, &fetch, &out, 1, nullptr, 0, nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Unparseable RunOptions proto");
  TF_DeleteBuffer(junk);
}

TEST_F(SessionTest, ErrorsCarryTensorFlowsCodesAndTexts) {
  Status s;
  // Unfed placeholder.
  TF_Output fetch{y_, 0};
  TF_Tensor* out = nullptr;
  TF_SessionRun(session_, nullptr, nullptr, nullptr, 0, &fetch, &out, 1, nullptr, 0, nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_THAT(s.message(), HasSubstr("You must feed a value for placeholder tensor 'x'"));
  EXPECT_EQ(out, nullptr);
  // Wrong dtype.
  TF_Tensor* ints = rill_c_test::Int32Tensor({2}, {1, 2});
  TF_Output feed{x_, 0};
  TF_SessionRun(session_, nullptr, &feed, &ints, 1, &fetch, &out, 1, nullptr, 0, nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_THAT(s.message(), HasSubstr("Expects arg[0] to be float but int32 is provided"));
  TF_DeleteTensor(ints);
  // Malformed tensor.
  TF_Tensor* short_tensor = rill_c_test::FloatTensor({2}, {1, 2});
  const int64_t four[] = {4};
  TF_SetShape(short_tensor, four, 1);
  TF_SessionRun(session_, nullptr, &feed, &short_tensor, 1, &fetch, &out, 1, nullptr, 0, nullptr,
                s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(),
            "Input 0 (x:0): Malformed TF_Tensor: it holds 8 bytes but a float tensor of shape "
            "[4] needs 16");
  TF_DeleteTensor(short_tensor);
  // Null pointers.
  TF_SessionRun(nullptr, nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0, nullptr, 0, nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TF_SessionRun(session_, nullptr, &feed, nullptr, 1, nullptr, nullptr, 0, nullptr, 0, nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TF_Output null_output{nullptr, 0};
  TF_SessionRun(session_, nullptr, nullptr, nullptr, 0, &null_output, &out, 1, nullptr, 0, nullptr,
                s);
  EXPECT_EQ(s.message(), "Output 0 names a null operation");
  // Nothing to do.
  TF_SessionRun(session_, nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0, nullptr, 0, nullptr,
                s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Must specify at least one target to fetch or execute.");
}

TEST_F(SessionTest, EightThreadsOnOneSession) {
  std::vector<std::thread> threads;
  std::vector<int> wrong(8, 0);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([this, t, &wrong] {
      Status s;
      for (int i = 0; i < 200; ++i) {
        const float a = static_cast<float>(t * 1000 + i);
        std::vector<float> y = RunY({a, -a}, s);
        if (s.code() != TF_OK || y != std::vector<float>{a + 10, 10 - a}) ++wrong[t];
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(wrong, std::vector<int>(8, 0));
}

TEST_F(SessionTest, GraphGrowsWhileOtherThreadsRun) {
  std::vector<std::thread> runners;
  std::vector<int> wrong(4, 0);
  for (int t = 0; t < 4; ++t) {
    runners.emplace_back([this, t, &wrong] {
      Status s;
      for (int i = 0; i < 50; ++i) {
        if (RunY({1, 2}, s) != std::vector<float>{11, 12}) ++wrong[t];
      }
    });
  }
  Status s;
  TF_Output last{y_, 0};
  for (int i = 0; i < 20; ++i) {
    TF_OperationDescription* desc =
        TF_NewOperation(g_, "Identity", ("grow_" + std::to_string(i)).c_str());
    TF_AddInput(desc, last);
    last = {TF_FinishOperation(desc, s), 0};
    ASSERT_EQ(s.code(), TF_OK) << s.message();
  }
  for (std::thread& th : runners) th.join();
  EXPECT_EQ(wrong, std::vector<int>(4, 0));
  TF_Tensor* in = rill_c_test::FloatTensor({2}, {5, 6});
  TF_Output feed{x_, 0};
  TF_Tensor* out = nullptr;
  TF_SessionRun(session_, nullptr, &feed, &in, 1, &last, &out, 1, nullptr, 0, nullptr, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(rill_c_test::FloatValues(out), (std::vector<float>{15, 16}));
  TF_DeleteTensor(out);
  TF_DeleteTensor(in);
}

// Runs and partial runs from threads while another thread adds operations and then closes the
// session: every call either succeeds with the right values or fails Cancelled with one of
// TensorFlow's two texts (a run refused after the close, or one cancelled in flight); nothing
// crashes or hangs (crafted_round8.py's threads cases; this target runs under --config=tsan).
TEST_F(SessionTest, CloseWhileThreadsRunPartialRunAndGrowTheGraph) {
  std::atomic<int> done{0};
  std::vector<std::string> failures[6];
  std::vector<int> wrong(6, 0);
  auto record = [&](int t, TF_Status* s) {
    if (TF_GetCode(s) != TF_CANCELLED ||
        (std::string(TF_Message(s)) != "Session has been closed." &&
         std::string(TF_Message(s)) != "Run call was cancelled")) {
      failures[t].push_back(absl::StrCat(TF_GetCode(s), " ", TF_Message(s)));
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      Status s;
      for (;;) {
        std::vector<float> y = RunY({1, 2}, s);
        if (s.code() != TF_OK) return record(t, s);
        if (y != std::vector<float>{11, 12}) ++wrong[t];
        ++done;
      }
    });
  }
  for (int t = 4; t < 6; ++t) {
    threads.emplace_back([&, t] {
      Status s;
      for (;;) {
        TF_Output feed{x_, 0}, fetch{y_, 0};
        const char* handle = nullptr;
        TF_SessionPRunSetup(session_, &feed, 1, &fetch, 1, nullptr, 0, &handle, s);
        if (s.code() != TF_OK) return record(t, s);
        TF_Tensor* in = rill_c_test::FloatTensor({2}, {3, 4});
        TF_Tensor* out = nullptr;
        TF_SessionPRun(session_, handle, &feed, &in, 1, &fetch, &out, 1, nullptr, 0, s);
        TF_DeleteTensor(in);
        TF_DeletePRunHandle(handle);
        if (s.code() != TF_OK) return record(t, s);
        if (rill_c_test::FloatValues(out) != std::vector<float>{13, 14}) ++wrong[t];
        TF_DeleteTensor(out);
        ++done;
      }
    });
  }
  Status s;
  TF_Output last{y_, 0};
  for (int i = 0; i < 20; ++i) {
    TF_OperationDescription* desc =
        TF_NewOperation(g_, "Identity", ("grow_" + std::to_string(i)).c_str());
    TF_AddInput(desc, last);
    last = {TF_FinishOperation(desc, s), 0};
    ASSERT_EQ(s.code(), TF_OK) << s.message();
  }
  while (done < 200) std::this_thread::yield();
  TF_CloseSession(session_, s);
  EXPECT_EQ(s.code(), TF_OK) << s.message();
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(wrong, std::vector<int>(6, 0));
  for (int t = 0; t < 6; ++t) EXPECT_THAT(failures[t], ::testing::IsEmpty()) << t;
  RunY({1, 2}, s);
  EXPECT_EQ(s.code(), TF_CANCELLED);
  EXPECT_EQ(s.message(), "Session has been closed.");
}

TEST_F(SessionTest, CloseThenRunIsCancelled) {
  Status s;
  TF_CloseSession(session_, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  RunY({1, 2}, s);
  EXPECT_EQ(s.code(), TF_CANCELLED);
  EXPECT_EQ(s.message(), "Session has been closed.");
}

TEST_F(SessionTest, StringTensorsThroughIdentity) {
  TF_Operation* str = rill_c_test::Placeholder(g_, "s", TF_STRING);
  TF_OperationDescription* desc = TF_NewOperation(g_, "Identity", "same");
  TF_AddInput(desc, {str, 0});
  Status s;
  TF_Operation* same = TF_FinishOperation(desc, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  const int64_t dims[] = {2};
  TF_Tensor* in = TF_AllocateTensor(TF_STRING, dims, 1, 2 * sizeof(TF_TString));
  TF_TString* e = static_cast<TF_TString*>(TF_TensorData(in));
  const std::string long_text(64, 'L');
  TF_StringCopy(&e[0], "short", 5);
  TF_StringCopy(&e[1], long_text.data(), long_text.size());
  TF_Output feed{str, 0}, fetch{same, 0};
  TF_Tensor* out = nullptr;
  TF_SessionRun(session_, nullptr, &feed, &in, 1, &fetch, &out, 1, nullptr, 0, nullptr, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  ASSERT_EQ(TF_TensorType(out), TF_STRING);
  const TF_TString* o = static_cast<const TF_TString*>(TF_TensorData(out));
  EXPECT_EQ(std::string(TF_StringGetDataPointer(&o[0]), TF_StringGetSize(&o[0])), "short");
  EXPECT_EQ(std::string(TF_StringGetDataPointer(&o[1]), TF_StringGetSize(&o[1])), long_text);
  TF_DeleteTensor(out);
  TF_DeleteTensor(in);
}

TEST(Session, ConfigDevicesAndTargets) {
  TF_Graph* g = TF_NewGraph();
  TF_Session* session = NewSession(g, "device_count { key: 'CPU' value: 2 }");
  Status s;
  TF_DeviceList* devices = TF_SessionListDevices(session, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  ASSERT_EQ(TF_DeviceListCount(devices), 2);
  EXPECT_STREQ(TF_DeviceListName(devices, 1, s), "/job:localhost/replica:0/task:0/device:CPU:1");
  EXPECT_STREQ(TF_DeviceListType(devices, 0, s), "CPU");
  EXPECT_GE(TF_DeviceListMemoryBytes(devices, 0, s), 0);
  TF_DeviceListIncarnation(devices, 0, s);
  EXPECT_EQ(s.code(), TF_OK);
  EXPECT_EQ(TF_DeviceListName(devices, 2, s), nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "index out of bounds");
  EXPECT_EQ(TF_DeviceListMemoryBytes(devices, -1, s), -1);
  EXPECT_EQ(TF_DeviceListIncarnation(devices, 9, s), 0u);
  TF_DeleteDeviceList(devices);
  TF_DeleteDeviceList(nullptr);
  TF_DeleteSession(session, s);

  TF_SessionOptions* opts = TF_NewSessionOptions();
  TF_SetConfig(opts, "\xff\xff", 2, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Unparseable ConfigProto");
  TF_SetTarget(opts, "grpc://elsewhere:2222");
  EXPECT_EQ(TF_NewSession(g, opts, s), nullptr);
  EXPECT_EQ(s.code(), TF_NOT_FOUND);
  EXPECT_THAT(s.message(), HasSubstr("No session factory registered"));
  TF_SetTarget(opts, "local");
  TF_Session* local = TF_NewSession(g, opts, s);
  EXPECT_EQ(s.code(), TF_OK) << s.message();
  TF_DeleteSession(local, s);
  EXPECT_EQ(TF_NewSession(nullptr, opts, s), nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TF_DeleteSessionOptions(opts);
  TF_DeleteSessionOptions(nullptr);
  TF_DeleteSession(nullptr, s);
  EXPECT_EQ(s.code(), TF_OK);
  TF_DeleteGraph(g);
}

TEST(Session, GraphOutlivesItsDeletionWhileASessionUsesIt) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* c = rill_c_test::ScalarConst(g, "c", 5.f);
  TF_Session* session = NewSession(g);
  TF_DeleteGraph(g);  // the session keeps it
  TF_Output fetch{c, 0};
  TF_Tensor* out = nullptr;
  Status s;
  TF_SessionRun(session, nullptr, nullptr, nullptr, 0, &fetch, &out, 1, nullptr, 0, nullptr, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(rill_c_test::FloatValues(out), (std::vector<float>{5}));
  TF_DeleteTensor(out);
  TF_DeleteSession(session, s);  // frees the graph too (LeakSanitizer checks under asan)
}

TEST(Session, LoadSessionFromSavedModel) {
  const std::string dir = std::string(getenv("TEST_TMPDIR")) + "/saved";
  std::filesystem::create_directories(dir);
  rill::SavedModel model;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(R"pb(
                                                              saved_model_schema_version: 1
                                                              meta_graphs {
                                                                meta_info_def { tags: "serve" }
                                                                graph_def {
                                                                  node {
                                                                    name: "x"
                                                                    op: "Placeholder"
                                                                    attr {
                                                                      key: "dtype"
                                                                      value { type: DT_FLOAT }
                                                                    }
                                                                  }
                                                                  node {
                                                                    name: "y"
                                                                    op: "Neg"
                                                                    input: "x"
                                                                    attr {
                                                                      key: "T"
                                                                      value { type: DT_FLOAT }
                                                                    }
                                                                  }
                                                                }
                                                                signature_def {
                                                                  key: "serving_default"
                                                                  value {
                                                                    inputs {
                                                                      key: "x"
                                                                      value { name: "x:0" }
                                                                    }
                                                                    outputs {
                                                                      key: "y"
                                                                      value { name: "y:0" }
                                                                    }
                                                                  }
                                                                }
                                                              }
                                                            )pb",
                                                            &model));
  std::ofstream(dir + "/saved_model.pb", std::ios::binary) << model.SerializeAsString();

  TF_SessionOptions* opts = TF_NewSessionOptions();
  TF_Graph* g = TF_NewGraph();
  TF_Buffer* meta = TF_NewBuffer();
  const char* tags[] = {"serve"};
  Status s;
  TF_Session* session =
      TF_LoadSessionFromSavedModel(opts, nullptr, dir.c_str(), tags, 1, g, meta, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  rill::MetaGraphDef meta_graph;
  ASSERT_TRUE(meta_graph.ParseFromArray(meta->data, static_cast<int>(meta->length)));
  EXPECT_EQ(meta_graph.signature_def().at("serving_default").outputs().at("y").name(), "y:0");
  TF_Operation* x = TF_GraphOperationByName(g, "x");
  TF_Operation* y = TF_GraphOperationByName(g, "y");
  ASSERT_NE(y, nullptr);
  TF_Tensor* in = rill_c_test::FloatTensor({3}, {1, -2, 3});
  TF_Output feed{x, 0}, fetch{y, 0};
  TF_Tensor* out = nullptr;
  TF_SessionRun(session, nullptr, &feed, &in, 1, &fetch, &out, 1, nullptr, 0, nullptr, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(rill_c_test::FloatValues(out), (std::vector<float>{-1, 2, -3}));
  TF_DeleteTensor(out);
  TF_DeleteTensor(in);
  TF_DeleteSession(session, s);

  // A graph that is not empty, and tags no MetaGraphDef has.
  EXPECT_EQ(TF_LoadSessionFromSavedModel(opts, nullptr, dir.c_str(), tags, 1, g, nullptr, s),
            nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TF_DeleteGraph(g);
  g = TF_NewGraph();
  const char* other[] = {"train"};
  EXPECT_EQ(TF_LoadSessionFromSavedModel(opts, nullptr, dir.c_str(), other, 1, g, nullptr, s),
            nullptr);
  EXPECT_EQ(s.code(), TF_NOT_FOUND);
  EXPECT_THAT(s.message(), HasSubstr("MetaGraphDef associated with tags 'train' could not be "
                                     "found in SavedModel"));
  TF_DeleteGraph(g);
  TF_DeleteBuffer(meta);
  TF_DeleteSessionOptions(opts);
}

}  // namespace
