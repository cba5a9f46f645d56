// The linear algebra kernels on matrices large enough for the LAPACK path (kLapackMinSize rows and
// up) and just below it (Eigen): values whose results are computed exactly (integer factors,
// scaled permutations), identities (Q R = A, U S V^T = A) elsewhere, the not positive definite,
// singular and NaN cases, adjoint, and batches over several threads. The recorded TensorFlow cases
// (tests/conformance/data/<op>.pbtxt.gz) cover the small matrices and TensorFlow's error texts;
// kernels/math_lib/lapack_test.cc compares the LAPACK routines with Eigen's on random matrices.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
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

absl::StatusOr<std::vector<Tensor>> RunOp(const std::string& op, DataType dtype,
                                          const std::vector<Tensor>& inputs,
                                          const std::vector<std::pair<std::string, bool>>& attrs,
                                          int threads = 1) {
  OpTester t(op);
  t.Attr("T", dtype);
  for (const auto& [name, value] : attrs) t.Attr(name, value);
  for (const Tensor& in : inputs) t.Input(in);
  t.SetIntraOpThreads(threads);
  return t.Run();
}

// A scaled permutation repeated over a batch of two, the second copy made singular (row 3
// repeating row 1) when asked.
std::vector<double> PermutationBatch(int64_t n, bool second_singular) {
  std::vector<double> batch = ScaledPermutation(n, false);
  std::vector<double> b = batch;
  if (second_singular) {
    for (int64_t j = 0; j < n; ++j) b[3 * n + j] = b[1 * n + j];
  }
  batch.insert(batch.end(), b.begin(), b.end());
  return batch;
}

// The sign of the permutation i -> (3 i + 5) mod n (by counting its inversions).
double PermutationSign(int64_t n) {
  int64_t inversions = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = i + 1; k < n; ++k) inversions += (3 * i + 5) % n > (3 * k + 5) % n;
  }
  return inversions % 2 == 0 ? 1.0 : -1.0;
}

TEST(LinalgOpsTest, DeterminantsOfScaledPermutationsAndSingularMatrices) {
  for (DataType dtype : {DT_FLOAT, DT_DOUBLE}) {
    for (int64_t n : kSizes) {
      const Tensor a = MakeTensor(dtype, TensorShape({2, n, n}), PermutationBatch(n, true));
      RILL_ASSERT_OK_AND_ASSIGN(auto log, RunOp("LogMatrixDeterminant", dtype, {a}, {}, 2));
      const std::vector<double> sign = Values(log[0]), log_abs = Values(log[1]);
      EXPECT_EQ(sign[0], PermutationSign(n)) << n;
      EXPECT_NEAR(log_abs[0], n * std::log(2.0), 1e-4) << n;
      EXPECT_EQ(sign[1], 0.0) << n;
      EXPECT_EQ(log_abs[1], -std::numeric_limits<double>::infinity()) << n;
      RILL_ASSERT_OK_AND_ASSIGN(auto det, RunOp("MatrixDeterminant", dtype, {a}, {}, 2));
      const std::vector<double> d = Values(det[0]);
      EXPECT_NEAR(d[0] / std::pow(2.0, n), PermutationSign(n), 1e-4) << n;
      EXPECT_EQ(d[1], 0.0) << n;
      // A NaN gives a NaN determinant.
      std::vector<double> nan = ScaledPermutation(n, false);
      nan[n + 2] = std::numeric_limits<double>::quiet_NaN();
      RILL_ASSERT_OK_AND_ASSIGN(det, RunOp("MatrixDeterminant", dtype,
                                           {MakeTensor(dtype, TensorShape({n, n}), nan)}, {}));
      EXPECT_TRUE(std::isnan(Values(det[0])[0])) << n;
    }
  }
}

TEST(LinalgOpsTest, SolveWithScaledPermutationsIsExact) {
  for (DataType dtype : {DT_FLOAT, DT_DOUBLE}) {
    for (int64_t n : kSizes) {
      const int64_t k = 3;
      std::vector<double> rhs(2 * n * k);
      for (size_t i = 0; i < rhs.size(); ++i) rhs[i] = static_cast<double>(i % 7) - 3.0;
      const Tensor a = MakeTensor(dtype, TensorShape({2, n, n}), PermutationBatch(n, false));
      const Tensor b = MakeTensor(dtype, TensorShape({2, n, k}), rhs);
      for (bool adjoint : {false, true}) {
        // (2 P) x = b: x = P^T b / 2; (2 P)^T x = b: x = P b / 2. Row i of P has its 1 in
        // column (3 i + 5) mod n.
        std::vector<double> want(2 * n * k);
        for (int64_t m = 0; m < 2; ++m) {
          for (int64_t i = 0; i < n; ++i) {
            const int64_t j = (3 * i + 5) % n;
            for (int64_t c = 0; c < k; ++c) {
              if (adjoint) {
                want[(m * n + i) * k + c] = rhs[(m * n + j) * k + c] / 2.0;
              } else {
                want[(m * n + j) * k + c] = rhs[(m * n + i) * k + c] / 2.0;
              }
            }
          }
        }
        RILL_ASSERT_OK_AND_ASSIGN(
            auto x, RunOp("MatrixSolve", dtype, {a, b}, {{"adjoint", adjoint}}, /*threads=*/2));
        ExpectTensorEqual(x[0], MakeTensor(dtype, TensorShape({2, n, k}), want));
      }
      const Tensor singular = MakeTensor(dtype, TensorShape({2, n, n}), PermutationBatch(n, true));
      EXPECT_THAT(RunOp("MatrixSolve", dtype, {singular, b}, {{"adjoint", false}}, 2).status(),
                  StatusIs(absl::StatusCode::kInvalidArgument, "Input matrix is not invertible."))
          << n;
    }
  }
}

// Complex systems (Eigen's LU): adjoint solves with the conjugate transpose. A = [[0, 2i],
// [4, 0]], b = [2, 4i]: A x = b gives x = [i, -i]; A^H = [[0, 4], [-2i, 0]] gives x = [-2, 0.5].
TEST(LinalgOpsTest, ComplexSolveUsesTheConjugateTranspose) {
  auto c = [](std::vector<complex128> v, TensorShape s) {
    return Tensor::FromVector<complex128>(v, s);
  };
  const complex128 i(0, 1);
  const Tensor a = c({0, 2.0 * i, 4, 0}, TensorShape({2, 2}));
  const Tensor b = c({2, 4.0 * i}, TensorShape({2, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(auto x,
                            RunOp("MatrixSolve", DT_COMPLEX128, {a, b}, {{"adjoint", false}}));
  ExpectTensorEqual(x[0], c({i, -i}, TensorShape({2, 1})));
  RILL_ASSERT_OK_AND_ASSIGN(x, RunOp("MatrixSolve", DT_COMPLEX128, {a, b}, {{"adjoint", true}}));
  ExpectTensorEqual(x[0], c({-2, 0.5}, TensorShape({2, 1})));
  const Tensor singular = c({1, i, i, -1}, TensorShape({2, 2}));
  EXPECT_THAT(RunOp("MatrixSolve", DT_COMPLEX128, {singular, b}, {{"adjoint", false}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "Input matrix is not invertible."));
}

TEST(LinalgOpsTest, TriangularSolveOfIntegerSystemsIsExact) {
  for (DataType dtype : {DT_FLOAT, DT_DOUBLE}) {
    for (int64_t n : kSizes) {
      const int64_t k = 4;
      const std::vector<double> l = UnitLower(n);
      std::vector<double> x0(2 * n * k);
      for (size_t i = 0; i < x0.size(); ++i) x0[i] = static_cast<double>(i % 5) - 2.0;
      for (bool lower : {true, false}) {
        for (bool adjoint : {false, true}) {
          // The matrix holds the triangle the op reads (L, or L^T when upper), 9 elsewhere; the
          // system applied is that triangle, transposed when adjoint.
          std::vector<double> a(n * n, 9.0), t(n * n, 0.0);
          for (int64_t i = 0; i < n; ++i) {
            for (int64_t j = 0; j < n; ++j) {
              const double v = lower ? l[i * n + j] : l[j * n + i];
              if (lower ? j <= i : j >= i) a[i * n + j] = v;
              const bool transposed = adjoint;
              t[i * n + j] = transposed ? (lower ? l[j * n + i] : l[i * n + j]) : v;
            }
          }
          std::vector<double> rhs(2 * n * k, 0.0);
          for (int64_t m = 0; m < 2; ++m) {
            for (int64_t i = 0; i < n; ++i) {
              for (int64_t c = 0; c < k; ++c) {
                for (int64_t j = 0; j < n; ++j) {
                  rhs[(m * n + i) * k + c] += t[i * n + j] * x0[(m * n + j) * k + c];
                }
              }
            }
          }
          // One matrix broadcast over the right-hand sides' batch of two.
          RILL_ASSERT_OK_AND_ASSIGN(auto x,
                                    RunOp("MatrixTriangularSolve", dtype,
                                          {MakeTensor(dtype, TensorShape({1, n, n}), a),
                                           MakeTensor(dtype, TensorShape({2, n, k}), rhs)},
                                          {{"lower", lower}, {"adjoint", adjoint}}, /*threads=*/2));
          ExpectTensorEqual(x[0], MakeTensor(dtype, TensorShape({2, n, k}), x0));
        }
      }
    }
  }
}

// max |a b^T - c| (or a b - c) over row-major a [m, p], b [n, p] ([p, n]), c [m, n].
double ProductDistance(const std::vector<double>& a, const std::vector<double>& b,
                       const std::vector<double>& c, int64_t m, int64_t p, int64_t n,
                       bool b_transposed) {
  double worst = 0.0;
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double s = 0.0;
      for (int64_t k = 0; k < p; ++k)
        s += a[i * p + k] * (b_transposed ? b[j * p + k] : b[k * n + j]);
      worst = std::max(worst, std::abs(s - c[i * n + j]));
    }
  }
  return worst;
}

std::vector<double> SinMatrix(int64_t m, int64_t n) {
  std::vector<double> a(m * n);
  for (int64_t i = 0; i < m * n; ++i) a[i] = std::sin(static_cast<double>(i * 13 % 101));
  return a;
}

TEST(LinalgOpsTest, QrRebuildsTheMatrix) {
  const int64_t shapes[][2] = {{31, 31}, {32, 32}, {70, 70}, {70, 40}, {40, 70}};
  for (DataType dtype : {DT_FLOAT, DT_DOUBLE}) {
    const double tol = dtype == DT_FLOAT ? 1e-4 : 1e-12;
    for (const auto& shape : shapes) {
      const int64_t m = shape[0], n = shape[1];
      const std::vector<double> a = SinMatrix(m, n);
      for (bool full : {false, true}) {
        const int64_t p = full ? m : std::min(m, n);
        RILL_ASSERT_OK_AND_ASSIGN(auto qr,
                                  RunOp("Qr", dtype, {MakeTensor(dtype, TensorShape({m, n}), a)},
                                        {{"full_matrices", full}}));
        const std::vector<double> q = Values(qr[0]), r = Values(qr[1]);
        ASSERT_EQ(q.size(), static_cast<size_t>(m * p));
        ASSERT_EQ(r.size(), static_cast<size_t>(p * n));
        EXPECT_LT(ProductDistance(q, r, a, m, p, n, false), tol) << m << "x" << n << full;
        std::vector<double> eye(p * p, 0.0);
        for (int64_t i = 0; i < p; ++i) eye[i * p + i] = 1.0;
        std::vector<double> qt(p * m);
        for (int64_t i = 0; i < m; ++i) {
          for (int64_t j = 0; j < p; ++j) qt[j * m + i] = q[i * p + j];
        }
        EXPECT_LT(ProductDistance(qt, qt, eye, p, m, p, true), tol) << m << "x" << n << full;
        for (int64_t i = 0; i < p; ++i) {
          for (int64_t j = 0; j < std::min(i, n); ++j) EXPECT_EQ(r[i * n + j], 0.0);
        }
      }
    }
  }
}

TEST(LinalgOpsTest, SvdRebuildsTheMatrix) {
  const int64_t shapes[][2] = {{31, 31}, {32, 32}, {70, 70}, {70, 40}, {40, 70}};
  for (DataType dtype : {DT_FLOAT, DT_DOUBLE}) {
    const double tol = dtype == DT_FLOAT ? 2e-4 : 1e-11;
    for (const auto& shape : shapes) {
      const int64_t m = shape[0], n = shape[1], p = std::min(m, n);
      const std::vector<double> a = SinMatrix(m, n);
      const Tensor t = MakeTensor(dtype, TensorShape({m, n}), a);
      RILL_ASSERT_OK_AND_ASSIGN(
          auto values, RunOp("Svd", dtype, {t}, {{"compute_uv", false}, {"full_matrices", false}}));
      for (bool full : {false, true}) {
        RILL_ASSERT_OK_AND_ASSIGN(
            auto svd, RunOp("Svd", dtype, {t}, {{"compute_uv", true}, {"full_matrices", full}}));
        const std::vector<double> s = Values(svd[0]), u = Values(svd[1]), v = Values(svd[2]);
        const std::vector<double> s_only = Values(values[0]);
        for (int64_t i = 0; i < p; ++i) {
          EXPECT_NEAR(s[i], s_only[i], tol * 10);
          if (i > 0) {
            EXPECT_GE(s[i - 1], s[i]);
          }
        }
        const int64_t uc = full ? m : p, vc = full ? n : p;
        // u [:, :p] diag(s) v[:, :p]^T = a.
        std::vector<double> us(m * p), vp(n * p);
        for (int64_t i = 0; i < m; ++i) {
          for (int64_t j = 0; j < p; ++j) us[i * p + j] = u[i * uc + j] * s[j];
        }
        for (int64_t i = 0; i < n; ++i) {
          for (int64_t j = 0; j < p; ++j) vp[i * p + j] = v[i * vc + j];
        }
        EXPECT_LT(ProductDistance(us, vp, a, m, p, n, true), tol * 10) << m << "x" << n << full;
      }
      // A NaN makes every value and vector NaN.
      std::vector<double> nan = a;
      nan[5] = std::numeric_limits<double>::quiet_NaN();
      RILL_ASSERT_OK_AND_ASSIGN(auto svd,
                                RunOp("Svd", dtype, {MakeTensor(dtype, TensorShape({m, n}), nan)},
                                      {{"compute_uv", true}, {"full_matrices", false}}));
      for (const Tensor& out : svd) {
        for (double v : Values(out)) EXPECT_TRUE(std::isnan(v)) << m << "x" << n;
      }
    }
  }
}

// Matrices of at most 4 rows and columns take their own Householder QR: Q R = A with orthonormal
// Q and upper-triangular R for every small shape (a zero column among them: no reflector); a
// square A padded block-diagonally with a 4x4 identity takes the general path and must give A's
// factors in its top-left block; a NaN gives NaN.
TEST(LinalgOpsTest, SmallQrMatchesTheGeneralPath) {
  const int64_t shapes[][2] = {{1, 1}, {2, 2}, {3, 3}, {4, 4}, {4, 2}, {2, 4}, {3, 1}, {1, 3}};
  for (DataType dtype : {DT_FLOAT, DT_DOUBLE}) {
    const double tol = dtype == DT_FLOAT ? 1e-6 : 1e-14;
    for (const auto& shape : shapes) {
      const int64_t m = shape[0], n = shape[1];
      std::vector<double> a = SinMatrix(m, n);
      if (n > 1) {
        for (int64_t i = 0; i < m; ++i) a[i * n + 1] = 0.0;
      }
      for (bool full : {false, true}) {
        const int64_t p = full ? m : std::min(m, n);
        RILL_ASSERT_OK_AND_ASSIGN(auto qr,
                                  RunOp("Qr", dtype, {MakeTensor(dtype, TensorShape({m, n}), a)},
                                        {{"full_matrices", full}}));
        const std::vector<double> q = Values(qr[0]), r = Values(qr[1]);
        EXPECT_LT(ProductDistance(q, r, a, m, p, n, false), tol * 10) << m << "x" << n << full;
        std::vector<double> qt(p * m), eye(p * p, 0.0);
        for (int64_t i = 0; i < m; ++i) {
          for (int64_t j = 0; j < p; ++j) qt[j * m + i] = q[i * p + j];
        }
        for (int64_t i = 0; i < p; ++i) eye[i * p + i] = 1.0;
        EXPECT_LT(ProductDistance(qt, qt, eye, p, m, p, true), tol * 10) << m << "x" << n << full;
        for (int64_t i = 0; i < p; ++i) {
          for (int64_t j = 0; j < std::min(i, n); ++j) EXPECT_EQ(r[i * n + j], 0.0);
        }
        if (m != n || full) continue;
        // [[A, 0], [0, I]] (n + 4 square: the general path): Q and R are A's, block-diagonal.
        const int64_t big = n + 4;
        std::vector<double> padded(big * big, 0.0);
        for (int64_t i = 0; i < n; ++i) {
          for (int64_t j = 0; j < n; ++j) padded[i * big + j] = a[i * n + j];
        }
        for (int64_t i = n; i < big; ++i) padded[i * big + i] = 1.0;
        RILL_ASSERT_OK_AND_ASSIGN(
            auto general, RunOp("Qr", dtype, {MakeTensor(dtype, TensorShape({big, big}), padded)},
                                {{"full_matrices", false}}));
        const std::vector<double> gq = Values(general[0]), gr = Values(general[1]);
        for (int64_t i = 0; i < n; ++i) {
          for (int64_t j = 0; j < n; ++j) {
            EXPECT_NEAR(q[i * n + j], gq[i * big + j], tol) << n << " q " << i << " " << j;
            EXPECT_NEAR(r[i * n + j], gr[i * big + j], tol) << n << " r " << i << " " << j;
          }
        }
      }
      std::vector<double> nan = a;
      nan[0] = std::numeric_limits<double>::quiet_NaN();
      RILL_ASSERT_OK_AND_ASSIGN(auto qr,
                                RunOp("Qr", dtype, {MakeTensor(dtype, TensorShape({m, n}), nan)},
                                      {{"full_matrices", false}}));
      EXPECT_TRUE(std::isnan(Values(qr[1])[0])) << m << "x" << n;
    }
  }
}

}  // namespace
}  // namespace rill
