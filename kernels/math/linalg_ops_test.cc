// Cholesky and MatrixInverse of matrices large enough for the LAPACK path (kLapackMinSize rows and
// up) and just below it (Eigen): values whose factors are computed exactly, the not positive
// definite and singular cases, adjoint, and batches over several threads. The recorded TensorFlow
// cases (tests/conformance/data/Cholesky.pbtxt, MatrixInverse.pbtxt) cover the small matrices and
// TensorFlow's error texts.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/status_macros.h"
#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

// Sizes on both sides of the LAPACK threshold (32 rows).
constexpr int64_t kSizes[] = {31, 32, 70};

// A unit lower-triangular matrix with entries in {-1, 0, 1} below the diagonal: L L^T has small
// integer entries and its Cholesky factor is L, computed exactly in float.
std::vector<double> UnitLower(int64_t n) {
  std::vector<double> l(n * n, 0.0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < i; ++j) l[i * n + j] = static_cast<double>((i * 7 + j * 3) % 3) - 1.0;
    l[i * n + i] = 1.0;
  }
  return l;
}

std::vector<double> TimesTranspose(const std::vector<double>& l, int64_t n) {
  std::vector<double> a(n * n, 0.0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t k = 0; k < n; ++k) a[i * n + j] += l[i * n + k] * l[j * n + k];
    }
  }
  return a;
}

// The values of a float or double tensor as doubles.
std::vector<double> Values(const Tensor& t) {
  std::vector<double> v(t.NumElements());
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    v[i] = t.dtype() == DT_FLOAT ? t.flat<float>()[i] : t.flat<double>()[i];
  }
  return v;
}

absl::StatusOr<Tensor> RunOne(const std::string& op, DataType dtype, const Tensor& input,
                              bool adjoint = false, int threads = 1) {
  OpTester t(op);
  t.Attr("T", dtype);
  if (op == "MatrixInverse") t.Attr("adjoint", adjoint);
  t.Input(input);
  t.SetIntraOpThreads(threads);
  RILL_ASSIGN_OR_RETURN(std::vector<Tensor> out, t.Run());
  return out[0];
}

TEST(LinalgOpsTest, CholeskyFactorsExactly) {
  for (DataType dtype : {DT_FLOAT, DT_DOUBLE}) {
    for (int64_t n : kSizes) {
      const std::vector<double> l = UnitLower(n);
      // The strict upper triangle of the input is not read: fill it with garbage.
      std::vector<double> a = TimesTranspose(l, n);
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = i + 1; j < n; ++j) a[i * n + j] = 1000.0 + i;
      }
      RILL_ASSERT_OK_AND_ASSIGN(
          Tensor out, RunOne("Cholesky", dtype, MakeTensor(dtype, TensorShape({n, n}), a)));
      ExpectTensorEqual(out, MakeTensor(dtype, TensorShape({n, n}), l));
    }
  }
}

TEST(LinalgOpsTest, CholeskyOfABatchOverTwoThreads) {
  const int64_t n = 40;
  const std::vector<double> l = UnitLower(n);
  const std::vector<double> a = TimesTranspose(l, n);
  std::vector<double> batch_in, batch_out;
  for (int b = 0; b < 5; ++b) {
    for (double v : a) batch_in.push_back(v * (b + 1) * (b + 1));
    for (double v : l) batch_out.push_back(v * (b + 1));
  }
  RILL_ASSERT_OK_AND_ASSIGN(
      Tensor out,
      RunOne("Cholesky", DT_FLOAT, MakeTensor(DT_FLOAT, TensorShape({5, n, n}), batch_in), false,
             /*threads=*/2));
  ExpectTensorEqual(out, MakeTensor(DT_FLOAT, TensorShape({5, n, n}), batch_out));
}

TEST(LinalgOpsTest, CholeskyNotPositiveDefiniteIsNanBelowZeroAbove) {
  for (DataType dtype : {DT_FLOAT, DT_DOUBLE}) {
    for (int64_t n : kSizes) {
      std::vector<double> a = TimesTranspose(UnitLower(n), n);
      a[(n - 1) * n + (n - 1)] = -5.0;
      RILL_ASSERT_OK_AND_ASSIGN(
          Tensor out, RunOne("Cholesky", dtype, MakeTensor(dtype, TensorShape({n, n}), a)));
      const std::vector<double> v = Values(out);
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          if (j <= i) {
            EXPECT_TRUE(std::isnan(v[i * n + j])) << n << " " << i << " " << j;
          } else {
            EXPECT_EQ(v[i * n + j], 0.0) << n << " " << i << " " << j;
          }
        }
      }
    }
  }
}

// 2 P for a permutation P (row i has its 2 in column (3 i + 5) mod n, n not a multiple of 3):
// the inverse is P^T / 2, exact.
std::vector<double> ScaledPermutation(int64_t n, bool transposed_half) {
  std::vector<double> a(n * n, 0.0);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t j = (3 * i + 5) % n;
    if (transposed_half) {
      a[j * n + i] = 0.5;
    } else {
      a[i * n + j] = 2.0;
    }
  }
  return a;
}

TEST(LinalgOpsTest, InverseOfAScaledPermutationIsExact) {
  for (DataType dtype : {DT_FLOAT, DT_DOUBLE}) {
    for (int64_t n : kSizes) {
      const Tensor a = MakeTensor(dtype, TensorShape({n, n}), ScaledPermutation(n, false));
      RILL_ASSERT_OK_AND_ASSIGN(Tensor inv, RunOne("MatrixInverse", dtype, a));
      ExpectTensorEqual(inv, MakeTensor(dtype, TensorShape({n, n}), ScaledPermutation(n, true)));
      // adjoint: the inverse of a^T = 2 P^T is P / 2.
      RILL_ASSERT_OK_AND_ASSIGN(Tensor adj, RunOne("MatrixInverse", dtype, a, /*adjoint=*/true));
      std::vector<double> want = ScaledPermutation(n, false);
      for (double& v : want) v /= 4.0;
      ExpectTensorEqual(adj, MakeTensor(dtype, TensorShape({n, n}), want));
    }
  }
}

// max |a b - I| over the entries, for row-major n x n a and b (b transposed first when asked).
double DistanceFromIdentity(const std::vector<double>& a, const std::vector<double>& b, int64_t n,
                            bool a_transposed) {
  double worst = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double s = 0.0;
      for (int64_t k = 0; k < n; ++k) {
        s += (a_transposed ? a[k * n + i] : a[i * n + k]) * b[k * n + j];
      }
      worst = std::max(worst, std::abs(s - (i == j ? 1.0 : 0.0)));
    }
  }
  return worst;
}

TEST(LinalgOpsTest, InverseOfAGeneralMatrix) {
  for (DataType dtype : {DT_FLOAT, DT_DOUBLE}) {
    for (int64_t n : kSizes) {
      std::vector<double> a(n * n);
      for (int64_t i = 0; i < n * n; ++i) a[i] = std::sin(static_cast<double>(i * 13 % 101));
      for (int64_t i = 0; i < n; ++i) a[i * n + i] += 4.0;
      const Tensor t = MakeTensor(dtype, TensorShape({n, n}), a);
      const double tol = dtype == DT_FLOAT ? 1e-5 : 1e-13;
      RILL_ASSERT_OK_AND_ASSIGN(Tensor inv, RunOne("MatrixInverse", dtype, t));
      EXPECT_LT(DistanceFromIdentity(a, Values(inv), n, false), tol) << n;
      RILL_ASSERT_OK_AND_ASSIGN(Tensor adj, RunOne("MatrixInverse", dtype, t, /*adjoint=*/true));
      EXPECT_LT(DistanceFromIdentity(a, Values(adj), n, true), tol) << n;
    }
  }
}

TEST(LinalgOpsTest, SingularMatrixIsNotInvertible) {
  for (DataType dtype : {DT_FLOAT, DT_DOUBLE}) {
    for (int64_t n : kSizes) {
      std::vector<double> a = ScaledPermutation(n, false);
      // Row 3 repeats row 1.
      for (int64_t j = 0; j < n; ++j) a[3 * n + j] = a[1 * n + j];
      // In a batch of two, over two threads: the singular matrix is the second.
      std::vector<double> batch = ScaledPermutation(n, false);
      batch.insert(batch.end(), a.begin(), a.end());
      EXPECT_THAT(RunOne("MatrixInverse", dtype, MakeTensor(dtype, TensorShape({2, n, n}), batch),
                         false, /*threads=*/2)
                      .status(),
                  StatusIs(absl::StatusCode::kInvalidArgument, "Input is not invertible."))
          << n;
    }
  }
}

}  // namespace
}  // namespace rill
