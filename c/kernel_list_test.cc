// TF_GetAllRegisteredKernels / TF_GetRegisteredKernelsForOp: TensorFlow's KernelList.
#include <set>
#include <string>

#include "c/c_test_util.h"
#include "c/kernel_def.pb.h"
#include "gtest/gtest.h"
#include "tensorflow/c/c_api.h"

namespace {

using rill_c_test::Status;

rill::c_api::KernelList Parse(TF_Buffer* buffer) {
  rill::c_api::KernelList list;
  EXPECT_TRUE(list.ParseFromArray(buffer->data, static_cast<int>(buffer->length)));
  TF_DeleteBuffer(buffer);
  return list;
}

TEST(KernelList, AllAndPerOp) {
  Status s;
  rill::c_api::KernelList all = Parse(TF_GetAllRegisteredKernels(s));
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  std::set<std::string> ops;
  for (const auto& k : all.kernel()) ops.insert(k.op());
  EXPECT_GT(ops.size(), 100u);
  EXPECT_TRUE(ops.count("MatMul"));

  rill::c_api::KernelList matmul = Parse(TF_GetRegisteredKernelsForOp("MatMul", s));
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  ASSERT_GE(matmul.kernel_size(), 1);
  bool cpu_float = false;
  for (const auto& k : matmul.kernel()) {
    EXPECT_EQ(k.op(), "MatMul");
    if (k.device_type() != "CPU") continue;
    for (const auto& c : k.constraint()) {
      if (c.name() != "T") continue;
      for (int t : c.allowed_values().list().type()) cpu_float |= t == rill::DT_FLOAT;
    }
  }
  EXPECT_TRUE(cpu_float);
  EXPECT_EQ(Parse(TF_GetRegisteredKernelsForOp("NoSuchOp", s)).kernel_size(), 0);
  EXPECT_EQ(TF_GetRegisteredKernelsForOp(nullptr, s), nullptr);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
}

}  // namespace
