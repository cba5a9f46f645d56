// TF_ApiDefMap over TF_GetAllOpList, with text-format overrides.
#include <string>

#include "c/api_def.pb.h"
#include "c/c_test_util.h"
#include "gtest/gtest.h"
#include "tensorflow/c/c_api.h"

namespace {

using rill_c_test::Status;

rill::c_api::ApiDef Get(TF_ApiDefMap* map, const std::string& op, TF_Status* s) {
  rill::c_api::ApiDef def;
  TF_Buffer* buffer = TF_ApiDefMapGet(map, op.data(), op.size(), s);
  if (buffer == nullptr) return def;
  EXPECT_TRUE(def.ParseFromArray(buffer->data, static_cast<int>(buffer->length)));
  TF_DeleteBuffer(buffer);
  return def;
}

TEST(ApiDefMap, DefaultsFromOpDefsAndOverrides) {
  TF_Buffer* ops = TF_GetAllOpList();
  Status s;
  TF_ApiDefMap* map = TF_NewApiDefMap(ops, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  rill::c_api::ApiDef matmul = Get(map, "MatMul", s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_EQ(matmul.graph_op_name(), "MatMul");
  EXPECT_EQ(matmul.visibility(), rill::c_api::ApiDef::VISIBLE);
  ASSERT_EQ(matmul.endpoint_size(), 1);
  EXPECT_EQ(matmul.endpoint(0).name(), "MatMul");
  ASSERT_EQ(matmul.in_arg_size(), 2);
  EXPECT_EQ(matmul.in_arg(0).name(), "a");

  const std::string text = R"pb(
    op {
      graph_op_name: "MatMul"
      visibility: HIDDEN
      endpoint { name: "linalg.MatMul" }
      in_arg { name: "a" rename_to: "left" }
      attr {
        name: "transpose_a"
        default_value { b: true }
      }
      summary: "Multiplies matrices."
    }
  )pb";
  TF_ApiDefMapPut(map, text.data(), text.size(), s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  matmul = Get(map, "MatMul", s);
  EXPECT_EQ(matmul.visibility(), rill::c_api::ApiDef::HIDDEN);
  EXPECT_EQ(matmul.endpoint(0).name(), "linalg.MatMul");
  EXPECT_EQ(matmul.in_arg(0).rename_to(), "left");
  EXPECT_EQ(matmul.in_arg(1).rename_to(), "b");
  EXPECT_EQ(matmul.summary(), "Multiplies matrices.");
  for (const auto& attr : matmul.attr()) {
    if (attr.name() == "transpose_a") EXPECT_TRUE(attr.default_value().b());
  }

  const std::string unknown = R"pb(op { graph_op_name: "NoSuchOp" })pb";
  TF_ApiDefMapPut(map, unknown.data(), unknown.size(), s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TF_ApiDefMapPut(map, "op {", 4, s);
  EXPECT_EQ(s.message(), "Unparseable ApiDefs text");
  Get(map, "NoSuchOp", s);
  EXPECT_EQ(s.code(), TF_NOT_FOUND);
  EXPECT_EQ(s.message(), "NoSuchOp not found in ApiDefMap.");
  TF_DeleteApiDefMap(map);
  TF_DeleteBuffer(ops);

  TF_Buffer* junk = TF_NewBufferFromString("\xff\xff", 2);
  EXPECT_EQ(TF_NewApiDefMap(junk, s), nullptr);
  EXPECT_EQ(s.message(), "Unparseable OpList");
  TF_DeleteBuffer(junk);
}

}  // namespace
