#include "graph/graph_def_versions.h"

#include <string>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

template <typename Proto>
Proto Parse(const std::string& text) {
  Proto p;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &p)) << text;
  return p;
}

// A function F(a: float) -> b: float whose body is `op`.
std::string Function(const std::string& name, const std::string& op) {
  return "function { signature { name: '" + name +
         "' input_arg { name: 'a' type: DT_FLOAT } output_arg { name: 'b' type: DT_FLOAT } } "
         "node_def { name: 'n' op: '" +
         op +
         "' input: 'a' attr { key: 'T' value { type: DT_FLOAT } } } ret { key: 'b' value: "
         "'n:y:0' } }";
}

TEST(GraphDefVersionsTest, VersionsTensorFlowRefusesAreRefused) {
  RILL_EXPECT_OK(CheckGraphDefVersions(VersionDef()));
  RILL_EXPECT_OK(CheckGraphDefVersions(Parse<VersionDef>("producer: 1700 min_consumer: 12")));
  RILL_EXPECT_OK(CheckGraphDefVersions(Parse<VersionDef>("min_consumer: 2474")));
  EXPECT_THAT(CheckGraphDefVersions(Parse<VersionDef>("producer: 1700 min_consumer: 100000")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("GraphDef min consumer version 100000 above current version "
                                 "2474 for Rill.  Please upgrade Rill.")));
  EXPECT_THAT(CheckGraphDefVersions(Parse<VersionDef>("bad_consumers: 7 bad_consumers: 2474")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("GraphDef disallows consumer version 2474.")));
  EXPECT_THAT(CheckGraphDefVersions(Parse<VersionDef>("producer: -1")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("GraphDef producer version -1 below min producer 0")));
}

TEST(GraphDefVersionsTest, DuplicateFunctionsMustBeIdentical) {
  RILL_EXPECT_OK(
      CheckFunctionLibrary(Parse<FunctionDefLibrary>(Function("F", "Neg") + Function("F", "Neg"))));
  EXPECT_THAT(
      CheckFunctionLibrary(
          Parse<FunctionDefLibrary>(Function("F", "Neg") + Function("F", "Square"))),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("Cannot add function 'F' because a different function with the same "
                         "name already exists.")));
}

TEST(GraphDefVersionsTest, AFunctionHasOneGradientFunction) {
  const std::string lib = Function("F", "Neg") + Function("G", "Square");
  RILL_EXPECT_OK(
      CheckFunctionLibrary(Parse<FunctionDefLibrary>(
          lib + " gradient { function_name: 'F' gradient_func: 'G' } gradient { function_name: 'F' "
                "gradient_func: 'G' }")));
  EXPECT_THAT(CheckFunctionLibrary(Parse<FunctionDefLibrary>(
                  lib + " gradient { function_name: 'F' gradient_func: 'F' } gradient { "
                        "function_name: 'F' gradient_func: 'G' }")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Cannot assign gradient function 'G' to 'F' because it already has "
                       "gradient function 'F'"));
}

TEST(GraphDefVersionsTest, AFunctionMayNotBeNamedLikeAnOp) {
  EXPECT_THAT(CheckFunctionLibrary(Parse<FunctionDefLibrary>(Function("Neg", "Square"))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Cannot add function 'Neg' because an op with the same name "
                                 "already exists.")));
}

TEST(GraphDefVersionsTest, ACallPassesAsManyInputsAsTheSignatureHas) {
  const FunctionDef g = Parse<FunctionDef>(
      "signature { name: 'G' input_arg { name: 'a' type: DT_FLOAT } input_arg { name: 'c' type: "
      "DT_FLOAT } output_arg { name: 'b' type: DT_FLOAT } }");
  RILL_EXPECT_OK(CheckFunctionCallInputs(
      Parse<NodeDef>("name: 'y' op: 'G' input: 'x' input: 'z' input: '^w'"), g));
  EXPECT_THAT(
      CheckFunctionCallInputs(Parse<NodeDef>("name: 'y' op: 'G' input: 'x' input: '^w'"), g),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("NodeDef expected inputs 'float, float' do not match 1 inputs "
                         "specified; Op<name=G; signature=a:float, c:float -> b:float>; "
                         "NodeDef: {{node y}}")));
}

}  // namespace
}  // namespace rill
