// The session API from before TF_Graph: GraphDefs by TF_ExtendGraph, runs by name with TF_Run
// (which takes its inputs), device lists, close, delete, TF_Reset.
#include <string>

#include "c/c_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/graph.pb.h"
#include "tensorflow/c/c_api.h"

namespace {

using rill_c_test::Status;

struct Released {
  int calls = 0;
};
void Release(void*, size_t, void* arg) { ++static_cast<Released*>(arg)->calls; }

TEST(DeprecatedSession, ExtendRunByNameAndClose) {
  TF_SessionOptions* opts = TF_NewSessionOptions();
  Status s;
  TF_DeprecatedSession* session = TF_NewDeprecatedSession(opts, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_Buffer* def = rill_c_test::GraphDefBuffer(R"pb(
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
  )pb");
  TF_ExtendGraph(session, def->data, def->length, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_DeleteBuffer(def);

  float values[2] = {1, -2};
  Released released;
  const int64_t dims[] = {2};
  TF_Tensor* input = TF_NewTensor(TF_FLOAT, dims, 1, values, sizeof(values), Release, &released);
  const char* input_name = "x:0";
  const char* output_name = "y:0";
  TF_Tensor* output = nullptr;
  TF_Run(session, nullptr, &input_name, &input, 1, &output_name, &output, 1, nullptr, 0, nullptr,
         s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(released.calls, 1);  // TF_Run took the input
  EXPECT_EQ(rill_c_test::FloatValues(output), (std::vector<float>{-1, 2}));
  TF_DeleteTensor(output);

  // Unknown names: TensorFlow's NotFound; the input is taken anyway.
  input = TF_NewTensor(TF_FLOAT, dims, 1, values, sizeof(values), Release, &released);
  const char* missing = "nope:0";
  TF_Run(session, nullptr, &input_name, &input, 1, &missing, &output, 1, nullptr, 0, nullptr, s);
  EXPECT_EQ(s.code(), TF_NOT_FOUND);
  EXPECT_EQ(released.calls, 2);
  EXPECT_EQ(output, nullptr);

  TF_ExtendGraph(session, "\xff\xff", 2, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Invalid GraphDef");

  TF_DeviceList* devices = TF_DeprecatedSessionListDevices(session, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(TF_DeviceListCount(devices), 1);
  EXPECT_STREQ(TF_DeviceListType(devices, 0, s), "CPU");
  TF_DeleteDeviceList(devices);

  TF_Reset(opts, nullptr, 0, s);
  EXPECT_EQ(s.code(), TF_OK) << s.message();
  TF_CloseDeprecatedSession(session, s);
  EXPECT_EQ(s.code(), TF_OK) << s.message();
  TF_Run(session, nullptr, nullptr, nullptr, 0, &output_name, &output, 1, nullptr, 0, nullptr, s);
  EXPECT_EQ(s.code(), TF_CANCELLED);
  TF_DeleteDeprecatedSession(session, s);
  TF_DeleteDeprecatedSession(nullptr, s);
  TF_DeleteSessionOptions(opts);
}

TEST(DeprecatedSession, NullsNeverCrash) {
  Status s;
  EXPECT_EQ(TF_NewDeprecatedSession(nullptr, s), nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TF_Run(nullptr, nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0, nullptr, 0, nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TF_ExtendGraph(nullptr, nullptr, 0, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(TF_DeprecatedSessionListDevices(nullptr, s), nullptr);
}

TEST(DeprecatedSession, PartialRunsByName) {
  TF_SessionOptions* opts = TF_NewSessionOptions();
  Status s;
  TF_DeprecatedSession* session = TF_NewDeprecatedSession(opts, s);
  TF_Buffer* def = rill_c_test::GraphDefBuffer(R"pb(
    node {
      name: "a"
      op: "Placeholder"
      attr {
        key: "dtype"
        value { type: DT_FLOAT }
      }
    }
    node {
      name: "b"
      op: "Placeholder"
      attr {
        key: "dtype"
        value { type: DT_FLOAT }
      }
    }
    node {
      name: "sum"
      op: "Add"
      input: "a"
      input: "b"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    node {
      name: "v"
      op: "VariableV2"
      attr {
        key: "dtype"
        value { type: DT_FLOAT }
      }
      attr {
        key: "shape"
        value { shape {} }
      }
    }
  )pb");
  TF_ExtendGraph(session, def->data, def->length, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_DeleteBuffer(def);
  const char* feeds[] = {"a", "b:0"};
  const char* fetch = "sum";
  const char* handle = nullptr;
  TF_PRunSetup(session, feeds, 2, &fetch, 1, nullptr, 0, &handle, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_Tensor* a = rill_c_test::FloatTensor({}, {1});
  TF_PRun(session, handle, &feeds[0], &a, 1, nullptr, nullptr, 0, nullptr, 0, s);  // takes `a`
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_Tensor* b = rill_c_test::FloatTensor({}, {2});
  TF_Tensor* out = nullptr;
  TF_PRun(session, handle, &feeds[1], &b, 1, &fetch, &out, 1, nullptr, 0, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(rill_c_test::FloatValues(out), (std::vector<float>{3}));
  TF_DeleteTensor(out);
  TF_DeletePRunHandle(handle);

  const char* variable = "v";
  TF_PRunSetup(session, nullptr, 0, &variable, 1, nullptr, 0, &handle, s);
  EXPECT_EQ(s.code(), TF_UNIMPLEMENTED);
  EXPECT_EQ(handle, nullptr);
  const char* missing = "nope";
  TF_PRunSetup(session, nullptr, 0, &missing, 1, nullptr, 0, &handle, s);
  EXPECT_EQ(s.code(), TF_NOT_FOUND);
  TF_DeleteDeprecatedSession(session, s);
  TF_DeleteSessionOptions(opts);
}

}  // namespace
