#include "kernels/math_lib/lapack.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>
#include <vector>

#include "kernels/math_lib/blas_threads.h"

// OpenBLAS's LAPACK (libopenblas exports it; Debian installs no LAPACKE header for it). Fortran
// calling convention: every argument by pointer, and a hidden length after the arguments for each
// character argument.
extern "C" {
void spotrf_(const char* uplo, const int* n, float* a, const int* lda, int* info, size_t uplo_len);
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info, size_t uplo_len);
void sgetrf_(const int* m, const int* n, float* a, const int* lda, int* ipiv, int* info);
void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);
void sgetri_(const int* n, float* a, const int* lda, const int* ipiv, float* work, const int* lwork,
             int* info);
void dgetri_(const int* n, double* a, const int* lda, const int* ipiv, double* work,
             const int* lwork, int* info);
void sgetrs_(const char* trans, const int* n, const int* nrhs, const float* a, const int* lda,
             const int* ipiv, float* b, const int* ldb, int* info, size_t trans_len);
void dgetrs_(const char* trans, const int* n, const int* nrhs, const double* a, const int* lda,
             const int* ipiv, double* b, const int* ldb, int* info, size_t trans_len);
void sgeqrf_(const int* m, const int* n, float* a, const int* lda, float* tau, float* work,
             const int* lwork, int* info);
void dgeqrf_(const int* m, const int* n, double* a, const int* lda, double* tau, double* work,
             const int* lwork, int* info);
void sorgqr_(const int* m, const int* n, const int* k, float* a, const int* lda, const float* tau,
             float* work, const int* lwork, int* info);
void dorgqr_(const int* m, const int* n, const int* k, double* a, const int* lda, const double* tau,
             double* work, const int* lwork, int* info);
void sgesdd_(const char* jobz, const int* m, const int* n, float* a, const int* lda, float* s,
             float* u, const int* ldu, float* vt, const int* ldvt, float* work, const int* lwork,
             int* iwork, int* info, size_t jobz_len);
void dgesdd_(const char* jobz, const int* m, const int* n, double* a, const int* lda, double* s,
             double* u, const int* ldu, double* vt, const int* ldvt, double* work, const int* lwork,
             int* iwork, int* info, size_t jobz_len);
}

namespace rill {
namespace {

template <typename T>
constexpr bool kFloat = std::is_same_v<T, float>;

template <typename T>
void Getrf(int n, T* a, int* ipiv, int* info) {
  if constexpr (kFloat<T>) {
    sgetrf_(&n, &n, a, &n, ipiv, info);
  } else {
    dgetrf_(&n, &n, a, &n, ipiv, info);
  }
}

// Whether every diagonal entry of the n x n matrix a is above 0 in magnitude (false for NaN).
template <typename T>
bool PivotsNonZero(const T* a, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    if (!(std::abs(a[i * n + i]) > T(0))) return false;
  }
  return true;
}

}  // namespace

// A float holds every integer only below 2^24: a LAPACK without sroundup_lwork stores a larger
// size as the nearest float, which may be below it. sroundup_lwork's remedy is one step of
// (1 + epsilon) upwards; reading the next representable value up covers the same gap.
template <typename T>
int LapackWorkSize(T reported) {
  if (!(reported > T(1))) return 1;  // NaN, 0 and negative included
  const T exact_below = std::ldexp(T(1), std::numeric_limits<T>::digits);
  if (reported >= exact_below) reported = std::nextafter(reported, std::numeric_limits<T>::max());
  const double size = std::ceil(static_cast<double>(reported));
  if (size >= static_cast<double>(std::numeric_limits<int>::max())) {
    return std::numeric_limits<int>::max();
  }
  return static_cast<int>(size);
}

// Row-major a is column-major a^T, whose upper triangle is a's lower one: ?potrf('U') factors it
// as U^T U and leaves U, which read row-major is L.
template <typename T>
bool LapackCholesky(T* a, int64_t n) {
  UseSingleThreadedBlas();
  const int ni = static_cast<int>(n);
  int info = 0;
  if constexpr (kFloat<T>) {
    spotrf_("U", &ni, a, &ni, &info, 1);
  } else {
    dpotrf_("U", &ni, a, &ni, &info, 1);
  }
  if (info != 0) return false;
  for (int64_t r = 0; r < n; ++r) std::fill(a + r * n + r + 1, a + (r + 1) * n, T(0));
  return true;
}

// Column-major, the buffer is a^T, and the inverse of a^T read row-major is the inverse of a.
template <typename T>
bool LapackInverse(T* a, int64_t n) {
  UseSingleThreadedBlas();
  const int ni = static_cast<int>(n);
  std::vector<int> pivots(static_cast<size_t>(n));
  int info = 0;
  Getrf(ni, a, pivots.data(), &info);
  if (info < 0 || !PivotsNonZero(a, n)) return false;
  // ?getri's blocked form wants n * block size of workspace; 64 covers OpenBLAS's blocks.
  const int lwork = ni * 64;
  std::vector<T> work(static_cast<size_t>(lwork));
  if constexpr (kFloat<T>) {
    sgetri_(&ni, a, &ni, pivots.data(), work.data(), &lwork, &info);
  } else {
    dgetri_(&ni, a, &ni, pivots.data(), work.data(), &lwork, &info);
  }
  return info == 0;
}

// det(a^T) = det(a): the LU of the column-major view serves. Each row interchange flips the sign.
template <typename T>
void LapackLogDeterminant(T* a, int64_t n, T* sign, T* log_abs) {
  UseSingleThreadedBlas();
  const int ni = static_cast<int>(n);
  std::vector<int> pivots(static_cast<size_t>(n));
  int info = 0;
  Getrf(ni, a, pivots.data(), &info);
  T s = 1;
  for (int i = 0; i < ni; ++i) {
    if (pivots[i] != i + 1) s = -s;
  }
  T l = 0;
  for (int64_t k = 0; k < n; ++k) {
    const T d = a[k * n + k];
    if (d < 0) s = -s;
    if (d == 0) s = 0;
    if (std::isnan(d)) s = d;
    l += std::log(std::abs(d));
  }
  *sign = s;
  *log_abs = l;
}

// The buffer factored is a^T (column-major view): a x = b is (a^T)^T x = b, ?getrs 'T'; the
// adjoint's a^T x = b is ?getrs 'N'. The right-hand sides go through a column-major copy.
template <typename T>
bool LapackSolve(T* a, const T* b, int64_t n, int64_t k, bool adjoint, T* x) {
  UseSingleThreadedBlas();
  const int ni = static_cast<int>(n);
  const int ki = static_cast<int>(k);
  std::vector<int> pivots(static_cast<size_t>(n));
  int info = 0;
  Getrf(ni, a, pivots.data(), &info);
  if (info < 0 || !PivotsNonZero(a, n)) return false;
  std::vector<T> cols(static_cast<size_t>(n * k));
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < k; ++j) cols[i + j * n] = b[i * k + j];
  }
  const char* trans = adjoint ? "N" : "T";
  if constexpr (kFloat<T>) {
    sgetrs_(trans, &ni, &ki, a, &ni, pivots.data(), cols.data(), &ni, &info, 1);
  } else {
    dgetrs_(trans, &ni, &ki, a, &ni, pivots.data(), cols.data(), &ni, &info, 1);
  }
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < k; ++j) x[i * k + j] = cols[i + j * n];
  }
  return info == 0;
}

template <typename T>
void LapackTriangularSolve(const T* a, int64_t n, int64_t k, bool lower, bool adjoint, T* x) {
  UseSingleThreadedBlas();
  const CBLAS_UPLO uplo = lower ? CblasLower : CblasUpper;
  const CBLAS_TRANSPOSE trans = adjoint ? CblasTrans : CblasNoTrans;
  const int ni = static_cast<int>(n);
  const int ki = static_cast<int>(k);
  if constexpr (kFloat<T>) {
    cblas_strsm(CblasRowMajor, CblasLeft, uplo, trans, CblasNonUnit, ni, ki, 1.0f, a, ni, x, ki);
  } else {
    cblas_dtrsm(CblasRowMajor, CblasLeft, uplo, trans, CblasNonUnit, ni, ki, 1.0, a, ni, x, ki);
  }
}

// a is copied into column-major order; ?geqrf leaves R in its upper trapezoid and the Householder
// vectors below it, from which ?orgqr forms the first p columns of Q.
template <typename T>
bool LapackQr(const T* a, int64_t m, int64_t n, bool full, T* q, T* r) {
  UseSingleThreadedBlas();
  const int64_t mn = std::min(m, n);
  const int64_t p = full ? m : mn;
  const int mi = static_cast<int>(m), ni = static_cast<int>(n), pi = static_cast<int>(p);
  const int mni = static_cast<int>(mn);
  // Column-major m x max(n, p): ?orgqr forms Q in its first p columns.
  std::vector<T> c(static_cast<size_t>(m * std::max(n, p)));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) c[i + j * m] = a[i * n + j];
  }
  std::vector<T> tau(static_cast<size_t>(std::max<int64_t>(mn, 1)));
  int info = 0;
  int lwork = -1;
  auto geqrf = [&](T* work) {
    if constexpr (kFloat<T>) {
      sgeqrf_(&mi, &ni, c.data(), &mi, tau.data(), work, &lwork, &info);
    } else {
      dgeqrf_(&mi, &ni, c.data(), &mi, tau.data(), work, &lwork, &info);
    }
  };
  auto orgqr = [&](T* work) {
    if constexpr (kFloat<T>) {
      sorgqr_(&mi, &pi, &mni, c.data(), &mi, tau.data(), work, &lwork, &info);
    } else {
      dorgqr_(&mi, &pi, &mni, c.data(), &mi, tau.data(), work, &lwork, &info);
    }
  };
  T query_r = 0;
  T query_q = 0;
  geqrf(&query_r);
  if (info != 0) return false;
  orgqr(&query_q);
  if (info != 0) return false;
  lwork = std::max(LapackWorkSize(query_r), LapackWorkSize(query_q));
  std::vector<T> work(static_cast<size_t>(lwork));
  geqrf(work.data());
  if (info != 0) return false;
  for (int64_t i = 0; i < p; ++i) {
    for (int64_t j = 0; j < n; ++j) r[i * n + j] = i <= j && i < mn ? c[i + j * m] : T(0);
  }
  orgqr(work.data());
  if (info != 0) return false;
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < p; ++j) q[i * p + j] = c[i + j * m];
  }
  return true;
}

// Row-major a (m x n) is column-major a^T = U' S V'^T, so a = V' S U'^T: a's u is V' (?gesdd's
// vt, which read row-major is V'^T transposed, lands directly in u) and a's v is U' (column-major,
// copied transposed into v).
template <typename T>
bool LapackSvd(T* a, int64_t m, int64_t n, bool compute_uv, bool full, T* s, T* u, T* v) {
  UseSingleThreadedBlas();
  const int64_t p = std::min(m, n);
  const int am = static_cast<int>(n);  // rows of the column-major a^T
  const int an = static_cast<int>(m);
  const char* jobz = !compute_uv ? "N" : (full ? "A" : "S");
  const int64_t u_cols = full ? n : p;  // columns of U' (n x u_cols), a's v
  std::vector<T> uprime(compute_uv ? static_cast<size_t>(n * u_cols) : 1);
  const int ldu = compute_uv ? am : 1;
  const int ldvt = compute_uv ? static_cast<int>(full ? m : p) : 1;
  T vt_dummy = 0;
  T* vt = compute_uv ? u : &vt_dummy;
  std::vector<int> iwork(static_cast<size_t>(8 * std::max<int64_t>(p, 1)));
  int info = 0;
  int lwork = -1;
  T query = 0;
  auto gesdd = [&](T* work) {
    if constexpr (kFloat<T>) {
      sgesdd_(jobz, &am, &an, a, &am, s, uprime.data(), &ldu, vt, &ldvt, work, &lwork, iwork.data(),
              &info, 1);
    } else {
      dgesdd_(jobz, &am, &an, a, &am, s, uprime.data(), &ldu, vt, &ldvt, work, &lwork, iwork.data(),
              &info, 1);
    }
  };
  gesdd(&query);
  if (info != 0) return false;
  lwork = LapackWorkSize(query);
  std::vector<T> work(static_cast<size_t>(lwork));
  gesdd(work.data());
  if (info != 0) return false;
  if (compute_uv) {
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < u_cols; ++j) v[i * u_cols + j] = uprime[i + j * n];
    }
  }
  return true;
}

#define RILL_LAPACK_INSTANTIATE(T)                                                    \
  template bool LapackCholesky<T>(T*, int64_t);                                       \
  template bool LapackInverse<T>(T*, int64_t);                                        \
  template void LapackLogDeterminant<T>(T*, int64_t, T*, T*);                         \
  template bool LapackSolve<T>(T*, const T*, int64_t, int64_t, bool, T*);             \
  template void LapackTriangularSolve<T>(const T*, int64_t, int64_t, bool, bool, T*); \
  template bool LapackQr<T>(const T*, int64_t, int64_t, bool, T*, T*);                \
  template bool LapackSvd<T>(T*, int64_t, int64_t, bool, bool, T*, T*, T*);           \
  template int LapackWorkSize<T>(T);

RILL_LAPACK_INSTANTIATE(float)
RILL_LAPACK_INSTANTIATE(double)

}  // namespace rill
