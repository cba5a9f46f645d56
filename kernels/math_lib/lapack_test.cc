// The LAPACK paths on row-major matrices: exact results where the arithmetic is exact (integer
// factors, scaled permutations), Eigen's decompositions (the kernels' other path) as the reference
// on random matrices (square, tall and wide), and singular matrices.
#include "kernels/math_lib/lapack.h"

#include <cmath>
#include <cstdint>
#include <eigen3/Eigen/Dense>
#include <limits>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace rill {
namespace {

template <typename T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

template <typename T>
RowMat<T> Random(int64_t m, int64_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  RowMat<T> a(m, n);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) a(i, j) = static_cast<T>(dist(gen));
  }
  return a;
}

// A unit lower-triangular matrix with entries in {-1, 0, 1} below the diagonal.
template <typename T>
RowMat<T> UnitLower(int64_t n) {
  RowMat<T> l = RowMat<T>::Zero(n, n);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < i; ++j) l(i, j) = static_cast<T>((i * 7 + j * 3) % 3) - 1;
    l(i, i) = 1;
  }
  return l;
}

// 2 times the permutation i -> (3 i + 1) mod n (n not a multiple of 3), its rows scaled by +-1.
template <typename T>
RowMat<T> ScaledPermutation(int64_t n) {
  RowMat<T> p = RowMat<T>::Zero(n, n);
  for (int64_t i = 0; i < n; ++i) p(i, (3 * i + 1) % n) = (i % 2 == 0) ? 2 : -2;
  return p;
}

template <typename T>
class LapackTest : public ::testing::Test {};
using Types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(LapackTest, Types);

template <typename T>
T Tol() {
  return std::is_same_v<T, float> ? T(2e-4) : T(1e-11);
}

TYPED_TEST(LapackTest, CholeskyOfIntegerFactorsIsExact) {
  using T = TypeParam;
  const RowMat<T> l = UnitLower<T>(40);
  RowMat<T> a = l * l.transpose();
  ASSERT_TRUE(LapackCholesky(a.data(), 40));
  EXPECT_EQ(a, l);
  RowMat<T> not_pd = -RowMat<T>::Identity(40, 40);
  EXPECT_FALSE(LapackCholesky(not_pd.data(), 40));
}

TYPED_TEST(LapackTest, InverseOfScaledPermutationIsExact) {
  using T = TypeParam;
  const RowMat<T> p = ScaledPermutation<T>(35);
  RowMat<T> inv = p;
  ASSERT_TRUE(LapackInverse(inv.data(), 35));
  EXPECT_EQ(inv, RowMat<T>(p.transpose() / T(4)));
  RowMat<T> singular = RowMat<T>::Ones(35, 35);
  EXPECT_FALSE(LapackInverse(singular.data(), 35));
}

TYPED_TEST(LapackTest, LogDeterminant) {
  using T = TypeParam;
  // det(2 P) for a permutation of 35 = 2^35 times the permutation's sign times the rows' signs.
  const RowMat<T> p = ScaledPermutation<T>(35);
  RowMat<T> a = p;
  T sign = 0, log_abs = 0;
  LapackLogDeterminant(a.data(), 35, &sign, &log_abs);
  EXPECT_EQ(sign, static_cast<T>(Eigen::PartialPivLU<RowMat<T>>(p).determinant() > 0 ? 1 : -1));
  EXPECT_NEAR(log_abs, 35 * std::log(T(2)), Tol<T>());
  // Random: Eigen's LU as the reference.
  const RowMat<T> r = Random<T>(64, 64, 7);
  a = r;
  LapackLogDeterminant(a.data(), 64, &sign, &log_abs);
  const T det = Eigen::PartialPivLU<RowMat<T>>(r).determinant();
  EXPECT_EQ(sign, det > 0 ? T(1) : T(-1));
  EXPECT_NEAR(log_abs, std::log(std::abs(det)), Tol<T>() * 10);
  // Singular: sign 0, log |det| -inf.
  a = RowMat<T>::Ones(40, 40);
  LapackLogDeterminant(a.data(), 40, &sign, &log_abs);
  EXPECT_EQ(sign, T(0));
  EXPECT_EQ(log_abs, -std::numeric_limits<T>::infinity());
  // NaN: sign NaN.
  a = Random<T>(40, 40, 3);
  a(5, 7) = std::numeric_limits<T>::quiet_NaN();
  LapackLogDeterminant(a.data(), 40, &sign, &log_abs);
  EXPECT_TRUE(std::isnan(sign));
}

TYPED_TEST(LapackTest, SolveMatchesEigen) {
  using T = TypeParam;
  const RowMat<T> a = Random<T>(50, 50, 1) + 4 * RowMat<T>::Identity(50, 50);
  const RowMat<T> b = Random<T>(50, 3, 2);
  for (bool adjoint : {false, true}) {
    RowMat<T> lu = a;
    RowMat<T> x(50, 3);
    ASSERT_TRUE(LapackSolve(lu.data(), b.data(), 50, 3, adjoint, x.data()));
    const RowMat<T> want = adjoint ? RowMat<T>(a.transpose().partialPivLu().solve(b))
                                   : RowMat<T>(a.partialPivLu().solve(b));
    EXPECT_LT((x - want).cwiseAbs().maxCoeff(), Tol<T>()) << adjoint;
  }
  // A scaled permutation: exact.
  const RowMat<T> p = ScaledPermutation<T>(35);
  RowMat<T> lu = p;
  const RowMat<T> rhs = RowMat<T>::Ones(35, 2);
  RowMat<T> x(35, 2);
  ASSERT_TRUE(LapackSolve(lu.data(), rhs.data(), 35, 2, false, x.data()));
  EXPECT_EQ(x, RowMat<T>(p.transpose() * rhs / T(4)));
  RowMat<T> singular = RowMat<T>::Ones(35, 35);
  EXPECT_FALSE(LapackSolve(singular.data(), rhs.data(), 35, 2, false, x.data()));
}

TYPED_TEST(LapackTest, TriangularSolveOfIntegerSystemsIsExact) {
  using T = TypeParam;
  const RowMat<T> l = UnitLower<T>(40);
  RowMat<T> x0(40, 4);
  for (int64_t i = 0; i < 40; ++i) {
    for (int64_t j = 0; j < 4; ++j) x0(i, j) = static_cast<T>((i + 2 * j) % 5) - 2;
  }
  // The other triangle holds values the solve must not read.
  RowMat<T> lower_full = l;
  lower_full.template triangularView<Eigen::StrictlyUpper>().setConstant(T(9));
  RowMat<T> upper_full = l.transpose();
  upper_full.template triangularView<Eigen::StrictlyLower>().setConstant(T(9));
  struct Case {
    bool lower, adjoint;
    RowMat<T> t;  // the triangular matrix applied
    const RowMat<T>* a;
  };
  const Case cases[] = {{true, false, l, &lower_full},
                        {true, true, l.transpose(), &lower_full},
                        {false, false, l.transpose(), &upper_full},
                        {false, true, l, &upper_full}};
  for (const Case& c : cases) {
    RowMat<T> x = c.t * x0;
    LapackTriangularSolve(c.a->data(), 40, 4, c.lower, c.adjoint, x.data());
    EXPECT_EQ(x, x0) << c.lower << c.adjoint;
  }
}

TYPED_TEST(LapackTest, QrMatchesEigen) {
  using T = TypeParam;
  const int64_t shapes[][2] = {{48, 48}, {60, 40}, {40, 60}};
  for (const auto& shape : shapes) {
    const int64_t m = shape[0], n = shape[1];
    const RowMat<T> a = Random<T>(m, n, static_cast<uint32_t>(m * 100 + n));
    Eigen::HouseholderQR<RowMat<T>> ref(a);
    for (bool full : {false, true}) {
      const int64_t p = full ? m : std::min(m, n);
      RowMat<T> q(m, p), r(p, n);
      ASSERT_TRUE(LapackQr(a.data(), m, n, full, q.data(), r.data()));
      const RowMat<T> want_q = ref.householderQ() * RowMat<T>::Identity(m, p);
      const RowMat<T> want_r =
          ref.matrixQR().topRows(std::min(m, n)).template triangularView<Eigen::Upper>();
      EXPECT_LT((q - want_q).cwiseAbs().maxCoeff(), Tol<T>()) << m << "x" << n << " " << full;
      EXPECT_LT((r.topRows(std::min(m, n)) - want_r).cwiseAbs().maxCoeff(), Tol<T>())
          << m << "x" << n << " " << full;
      for (int64_t i = 0; i < p; ++i) {
        for (int64_t j = 0; j < std::min(i, n); ++j) EXPECT_EQ(r(i, j), T(0));
      }
      for (int64_t i = std::min(m, n); i < p; ++i) EXPECT_EQ(r.row(i).cwiseAbs().maxCoeff(), T(0));
    }
  }
}

// Workspace sizes come back from LAPACK as floating-point values; a float skips integers from
// 2^24 on, so the size read back is rounded up past any integer the float may stand for.
TEST(LapackWorkSizeTest, RoundsUpWhereFloatsSkipIntegers) {
  EXPECT_EQ(LapackWorkSize(0.0f), 1);
  EXPECT_EQ(LapackWorkSize(-3.0f), 1);
  EXPECT_EQ(LapackWorkSize(std::numeric_limits<float>::quiet_NaN()), 1);
  EXPECT_EQ(LapackWorkSize(100.0f), 100);
  EXPECT_EQ(LapackWorkSize(100.25f), 101);
  EXPECT_EQ(LapackWorkSize(16777215.0f), 16777215);  // 2^24 - 1: exact
  // 2^24 + 1 has no float: it is stored as 2^24, and read back as the next float up.
  EXPECT_EQ(LapackWorkSize(static_cast<float>(16777217)), 16777218);
  EXPECT_EQ(LapackWorkSize(static_cast<float>(100000001)), 100000008);
  EXPECT_EQ(LapackWorkSize(3.0e9f), std::numeric_limits<int>::max());
  // Doubles hold every int exactly.
  EXPECT_EQ(LapackWorkSize(16777217.0), 16777217);
  EXPECT_EQ(LapackWorkSize(2147483647.0), 2147483647);
  EXPECT_EQ(LapackWorkSize(1.0e12), std::numeric_limits<int>::max());
}

TYPED_TEST(LapackTest, SvdMatchesEigen) {
  using T = TypeParam;
  const int64_t shapes[][2] = {{48, 48}, {60, 40}, {40, 60}};
  for (const auto& shape : shapes) {
    const int64_t m = shape[0], n = shape[1], p = std::min(m, n);
    const RowMat<T> a = Random<T>(m, n, static_cast<uint32_t>(m * 10 + n));
    Eigen::BDCSVD<RowMat<T>> ref(a);
    for (int mode = 0; mode < 3; ++mode) {  // values only, thin, full
      const bool compute_uv = mode > 0, full = mode == 2;
      const int64_t uc = full ? m : p, vc = full ? n : p;
      RowMat<T> work = a;
      std::vector<T> s(p);
      RowMat<T> u(m, uc), v(n, vc);
      ASSERT_TRUE(LapackSvd(work.data(), m, n, compute_uv, full, s.data(),
                            compute_uv ? u.data() : nullptr, compute_uv ? v.data() : nullptr));
      for (int64_t i = 0; i < p; ++i) {
        EXPECT_NEAR(s[i], ref.singularValues()(i), Tol<T>()) << m << "x" << n << " " << i;
      }
      if (!compute_uv) continue;
      // u diag(s) v^T rebuilds a, and u, v have orthonormal columns.
      const RowMat<T> us =
          u.leftCols(p) * Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>(s.data(), p).asDiagonal();
      EXPECT_LT((us * v.leftCols(p).transpose() - a).cwiseAbs().maxCoeff(), Tol<T>());
      EXPECT_LT((u.transpose() * u - RowMat<T>::Identity(uc, uc)).cwiseAbs().maxCoeff(), Tol<T>());
      EXPECT_LT((v.transpose() * v - RowMat<T>::Identity(vc, vc)).cwiseAbs().maxCoeff(), Tol<T>());
    }
  }
}

}  // namespace
}  // namespace rill
