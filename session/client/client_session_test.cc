#include "session/client/client_session.h"

#include <thread>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "graph/builder/ops.h"
#include "graph/builder/scope.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<float> Floats(const Tensor& t) {
  auto v = t.flat<float>();
  return std::vector<float>(v.begin(), v.end());
}

TEST(ClientSessionTest, FetchesByOutputHandle) {
  Scope root = Scope::NewRootScope();
  Output a = ops::Const(root, {{1.f, 2.f}, {3.f, 4.f}});
  Output b = ops::MatMul(root, a, a);
  ClientSession session(root);
  std::vector<Tensor> out;
  ASSERT_THAT(session.Run({b}, &out), IsOk());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].shape(), TensorShape({2, 2}));
  EXPECT_THAT(Floats(out[0]), ElementsAre(7.f, 10.f, 15.f, 22.f));
}

TEST(ClientSessionTest, FeedsLiteralsAndTensors) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output y = ops::Mul(root, x, ops::Const(root, 2.f));
  ClientSession session(root);
  std::vector<Tensor> out;
  ASSERT_THAT(session.Run({{x, {1.f, 2.f, 3.f}}}, {y}, &out), IsOk());
  EXPECT_THAT(Floats(out[0]), ElementsAre(2.f, 4.f, 6.f));
  ASSERT_THAT(session.Run({{x, {{1.f}, {5.f}}}}, {y}, &out), IsOk());
  EXPECT_EQ(out[0].shape(), TensorShape({2, 1}));
  EXPECT_THAT(Floats(out[0]), ElementsAre(2.f, 10.f));
  ASSERT_THAT(session.Run({{x, Tensor::Scalar<float>(-1.f)}}, {y}, &out), IsOk());
  EXPECT_THAT(Floats(out[0]), ElementsAre(-2.f));
}

TEST(ClientSessionTest, NodesBuiltAfterTheSessionAreAddedOnTheNextRun) {
  Scope root = Scope::NewRootScope();
  Output a = ops::Const(root, 3.f);
  ClientSession session(root);
  std::vector<Tensor> out;
  ASSERT_THAT(session.Run({a}, &out), IsOk());
  Output b = ops::Add(root, a, ops::Const(root, 4.f));
  ASSERT_THAT(session.Run({b}, &out), IsOk());
  EXPECT_THAT(Floats(out[0]), ElementsAre(7.f));
  Output c = ops::Square(root, b);
  ASSERT_THAT(session.Run({c, a}, &out), IsOk());
  EXPECT_THAT(Floats(out[0]), ElementsAre(49.f));
  EXPECT_THAT(Floats(out[1]), ElementsAre(3.f));
}

TEST(ClientSessionTest, RunOutputsRunForTheirEffects) {
  Scope root = Scope::NewRootScope();
  Output v = ops::Variable(root.WithOpName("v"), PartialTensorShape({}), DT_FLOAT);
  Output init = ops::Assign(root, v, ops::Const(root, 5.f));
  Output inc = ops::AssignAdd(root, v, ops::Const(root, 1.f));
  ClientSession session(root);
  std::vector<Tensor> out;
  ASSERT_THAT(session.Run({}, {}, {init}, &out), IsOk());
  ASSERT_THAT(session.Run({}, {}, {inc}, &out), IsOk());
  ASSERT_THAT(session.Run({v}, &out), IsOk());
  EXPECT_THAT(Floats(out[0]), ElementsAre(6.f));
}

TEST(ClientSessionTest, HandlesOfAnotherRootScopeAreRefused) {
  Scope other = Scope::NewRootScope();
  Output foreign = ops::Const(other.WithOpName("x"), 1.f);
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), 2.f);  // same name as the foreign handle
  ClientSession session(root);
  std::vector<Tensor> out;
  EXPECT_THAT(session.Run({foreign}, &out),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("ClientSession: fetch 'x:0' belongs to another graph")));
  EXPECT_THAT(session.Run({{foreign, 3.f}}, {x}, &out),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("feed 'x:0' belongs to another graph")));
  EXPECT_THAT(session.Run({}, {}, {foreign}, &out),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("target 'x' belongs to another graph")));
  ASSERT_THAT(session.Run({x}, &out), IsOk());  // the session stays usable
  EXPECT_THAT(Floats(out[0]), ElementsAre(2.f));
}

TEST(ClientSessionTest, BuildErrorsAndSessionErrorsAreReturned) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output y = ops::Neg(root, x);
  ClientSession session(root);
  std::vector<Tensor> out;
  EXPECT_THAT(session.Run({y}, &out),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("You must feed a value for placeholder tensor 'x'")));
  EXPECT_THAT(session.Run({{x, {1, 2}}}, {y}, &out),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Expects arg[0] to be float but int32 is provided")));
  EXPECT_THAT(session.Run({Output()}, &out),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("fetch 0 is an invalid")));
  ops::MatMul(root, x, ops::Const(root, {1, 2}));  // dtype mismatch: the scope records it
  EXPECT_THAT(session.Run({y}, &out), StatusIs(absl::StatusCode::kInvalidArgument,
                                               HasSubstr("incompatible with expected float")));
}

TEST(ClientSessionTest, ASessionThatCannotBeMadeIsReportedByRun) {
  Scope root = Scope::NewRootScope();
  Output a = ops::Const(root, 1.f);
  SessionOptions options;
  (*options.config.mutable_device_count())["CPU"] = 0;
  ClientSession session(root, options);
  EXPECT_FALSE(session.status().ok());
  EXPECT_EQ(session.session(), nullptr);
  std::vector<Tensor> out;
  EXPECT_EQ(session.Run({a}, &out), session.status());
}

TEST(ClientSessionTest, RunsFromSeveralThreadsWhileTheGraphGrows) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  Output y = ops::Mul(root, x, x);
  ClientSession session(root);
  std::vector<std::thread> threads;
  std::vector<absl::Status> results(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        Output z = ops::Add(root, y, ops::Const(root, static_cast<float>(t)));
        std::vector<Tensor> out;
        absl::Status s = session.Run({{x, 3.f}}, {z}, &out);
        if (s.ok() && out[0].flat<float>()[0] != 9.f + t) s = absl::InternalError("wrong value");
        if (!s.ok()) results[t] = s;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (const absl::Status& s : results) EXPECT_THAT(s, IsOk());
}

}  // namespace
}  // namespace rill
