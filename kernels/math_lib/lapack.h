// The linear algebra kernels' paths through OpenBLAS's LAPACK (blocked and vectorized for the CPU
// it runs on, where Rill's Eigen is compiled for baseline x86-64), on row-major float or double
// matrices as Rill's tensors hold them. LAPACK works on column-major matrices: a row-major n x m
// buffer is the column-major m x n transpose, so each routine either factors the transpose and
// reads the result accordingly or copies into a column-major scratch. Each call runs on the
// calling thread (UseSingleThreadedBlas); the kernels spread a batch's matrices over their
// threads. Sizes are below 2^31 (LAPACK's int); the caller checks.
//
//   LapackCholesky(a, n): a (n x n) overwritten by the lower factor L of its lower triangle (zeros
//     above the diagonal); false when a is not positive definite (a then unspecified).
//   LapackInverse(a, n): a overwritten by its inverse; false when a partial-pivot LU pivot is not
//     above 0 in magnitude.
//   LapackLogDeterminant(a, n, &sign, &log_abs): the sign (-1, 0, 1, or NaN) and log |det| of a
//     from its partial-pivot LU (a overwritten): sign 0 and log_abs -inf when a pivot is 0.
//   LapackSolve(a, b, n, k, adjoint, x): x (n x k) = inverse(a) b, or inverse(a^T) b when adjoint
//     (a overwritten); false when a pivot is not above 0 in magnitude.
//   LapackTriangularSolve(a, n, k, lower, adjoint, x): x (n x k, holding the right-hand sides on
//     entry) = inverse(t) x, t the lower (upper) triangle of a, or its transpose when adjoint.
//   LapackQr(a, m, n, full, q, r): Householder QR (?geqrf, ?orgqr), q [m, p] and r [p, n] with
//     p = min(m, n), or m when full (the Householder sign convention of Eigen's HouseholderQR);
//     false when LAPACK reports an error (q and r then unspecified; the caller falls back).
//   LapackSvd(a, m, n, compute_uv, full, s, u, v): singular values s (min(m, n), descending) by
//     divide and conquer (?gesdd), and u [m, m or p], v [n, n or p] when compute_uv (a
//     overwritten); false when LAPACK reports no convergence. a must be finite.
//   LapackWorkSize(reported): the workspace size (at least 1, at most INT_MAX) to allocate for
//     the size a LAPACK workspace query reported as a T, rounded up so that a float above 2^24,
//     where floats skip integers, never yields less than LAPACK needs.
#ifndef RILL_KERNELS_MATH_LIB_LAPACK_H_
#define RILL_KERNELS_MATH_LIB_LAPACK_H_

#include <cstdint>

namespace rill {

template <typename T>
bool LapackCholesky(T* a, int64_t n);
template <typename T>
bool LapackInverse(T* a, int64_t n);
template <typename T>
void LapackLogDeterminant(T* a, int64_t n, T* sign, T* log_abs);
template <typename T>
bool LapackSolve(T* a, const T* b, int64_t n, int64_t k, bool adjoint, T* x);
template <typename T>
void LapackTriangularSolve(const T* a, int64_t n, int64_t k, bool lower, bool adjoint, T* x);
template <typename T>
bool LapackQr(const T* a, int64_t m, int64_t n, bool full, T* q, T* r);
template <typename T>
bool LapackSvd(T* a, int64_t m, int64_t n, bool compute_uv, bool full, T* s, T* u, T* v);
template <typename T>
int LapackWorkSize(T reported);

}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_LAPACK_H_
