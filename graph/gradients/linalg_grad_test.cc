// Unit tests of graph/gradients/linalg_grad.cc beyond the recorded conformance cases
// (tests/gradients/data/linalg): exact values of small gradients and the errors of the
// gradients that need static shapes or real dtypes.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/status_matchers.h"
#include "core/tensor.h"
#include "gmock/gmock.h"
#include "graph/builder/ops.h"
#include "graph/gradients/grad_test_util.h"
#include "graph/gradients/gradients.h"
#include "gtest/gtest.h"
#include "session/session.h"

namespace rill {
namespace {

using grad_test::GradOf;
using grad_test::RunFetch;

using ::testing::HasSubstr;

TEST(LinalgGradTest, EinsumMatrixVector) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), {{1.f, 2.f}, {3.f, 4.f}});
  Output v = ops::Const(root.WithOpName("v"), {5.f, -1.f});
  Output y = ops::Einsum(root.WithOpName("y"), {x, v}, "ij,j->i");
  std::vector<Output> grads;
  RILL_ASSERT_OK(AddSymbolicGradients(root, {y}, {x, v}, &grads));
  EXPECT_EQ(RunFetch(root, grads[0]), (std::vector<float>{5, -1, 5, -1}));  // each row gets v
  EXPECT_EQ(RunFetch(root, grads[1]), (std::vector<float>{4, 6}));          // column sums of x
}

TEST(LinalgGradTest, MatrixBandPartKeepsTheBand) {
  Scope root = Scope::NewRootScope();
  Output x = ops::Const(root.WithOpName("x"), {{1.f, 2.f}, {3.f, 4.f}});
  Output y = ops::MatrixBandPart(root.WithOpName("y"), x, ops::Const(root, int64_t{0}),
                                 ops::Const(root, int64_t{-1}));
  std::vector<Output> grads;
  RILL_ASSERT_OK(AddSymbolicGradients(root, {y}, {x}, &grads));
  EXPECT_EQ(RunFetch(root, grads[0]), (std::vector<float>{1, 1, 0, 1}));
}

TEST(LinalgGradTest, QrNeedsStaticMatrixDims) {
  Scope root = Scope::NewRootScope();
  Output a = ops::Placeholder(root.WithOpName("a"), DT_FLOAT, PartialTensorShape({-1, 3}));
  std::vector<Output> qr = ops::Qr(root.WithOpName("qr"), a);
  std::vector<Output> grads;
  EXPECT_THAT(AddSymbolicGradients(root, {qr[0]}, {a}, &grads),
              StatusIs(absl::StatusCode::kUnimplemented,
                       HasSubstr("Node 'qr' (Qr): the gradient needs static matrix dims")));
}

TEST(LinalgGradTest, QrFullMatricesOfADeepMatrixIsUnimplemented) {
  Scope root = Scope::NewRootScope();
  Output a = ops::Placeholder(root.WithOpName("a"), DT_FLOAT, PartialTensorShape({4, 3}));
  std::vector<Output> qr = ops::Qr(root.WithOpName("qr"), a, /*full_matrices=*/true);
  std::vector<Output> grads;
  EXPECT_THAT(AddSymbolicGradients(root, {qr[1]}, {a}, &grads),
              StatusIs(absl::StatusCode::kUnimplemented,
                       HasSubstr("no gradient for full_matrices=true with more rows (4) than "
                                 "columns (3)")));
}

TEST(LinalgGradTest, SvdFullMatricesNeedsNearlySquareInput) {
  Scope root = Scope::NewRootScope();
  Output a = ops::Placeholder(root.WithOpName("a"), DT_FLOAT, PartialTensorShape({5, 3}));
  std::vector<Output> usv = ops::Svd(root.WithOpName("svd"), a, /*compute_uv=*/true,
                                     /*full_matrices=*/true);
  std::vector<Output> grads;
  EXPECT_THAT(AddSymbolicGradients(root, {usv[1]}, {a}, &grads),
              StatusIs(absl::StatusCode::kUnimplemented,
                       HasSubstr("Node 'svd' (Svd): no gradient for full_matrices=true with "
                                 "matrix dims 3 and 5")));
}

}  // namespace
}  // namespace rill
