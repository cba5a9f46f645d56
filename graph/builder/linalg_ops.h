// Builder wrappers for the dense linear-algebra ops: determinants, inverse, Cholesky, QR, SVD and
// the solves (TensorFlow's C++ API names). Included by graph/builder/ops.h.
//
//   Output inv = ops::MatrixInverse(root, x);
//   std::vector<Output> qr = ops::Qr(root, x, /*full_matrices=*/true);  // q, r
//
// Multi-output ops return their outputs in OpDef order. Errors are recorded in the scope (see
// op_builder.h). Thread safety: as Scope.
#ifndef RILL_GRAPH_BUILDER_LINALG_OPS_H_
#define RILL_GRAPH_BUILDER_LINALG_OPS_H_

#include <vector>

#include "graph/builder/input.h"
#include "graph/builder/scope.h"

namespace rill {
namespace ops {

Output MatrixDeterminant(const Scope& scope, const Input& input);
// sign, log_abs_determinant.
std::vector<Output> LogMatrixDeterminant(const Scope& scope, const Input& input);
Output MatrixInverse(const Scope& scope, const Input& input, bool adjoint = false);
Output Cholesky(const Scope& scope, const Input& input);
// q, r.
std::vector<Output> Qr(const Scope& scope, const Input& input, bool full_matrices = false);
// s, u, v.
std::vector<Output> Svd(const Scope& scope, const Input& input, bool compute_uv = true,
                        bool full_matrices = false);
Output MatrixTriangularSolve(const Scope& scope, const Input& matrix, const Input& rhs,
                             bool lower = true, bool adjoint = false);
Output MatrixSolve(const Scope& scope, const Input& matrix, const Input& rhs, bool adjoint = false);

// Lu: the packed LU factors of each matrix and the row permutation (output_idx_type indices).
std::vector<Output> Lu(const Scope& scope, const Input& input, DataType output_idx_type = DT_INT32);
// MatrixSolveLs: least-squares solutions of matrix * x = rhs with an L2 regularizer (a double
// scalar); `fast` uses the normal equations, else a complete orthogonal decomposition.
Output MatrixSolveLs(const Scope& scope, const Input& matrix, const Input& rhs,
                     const Input& l2_regularizer, bool fast = true);
Output MatrixSquareRoot(const Scope& scope, const Input& input);
// The principal logarithm of complex matrices.
Output MatrixLogarithm(const Scope& scope, const Input& input);
// {e, v}: complex eigenvalues and (with compute_v) unit eigenvectors of general matrices, of
// dtype Tout (DT_COMPLEX64 for float and complex64 input, DT_COMPLEX128 for the others).
std::vector<Output> Eig(const Scope& scope, const Input& input, DataType Tout,
                        bool compute_v = true);
// BandedTriangularSolve: `matrix` holds the bands of a triangular matrix, [..., k + 1, n].
Output BandedTriangularSolve(const Scope& scope, const Input& matrix, const Input& rhs,
                             bool lower = true, bool adjoint = false);
// TridiagonalSolve: `diagonals` is [..., 3, n] (superdiagonal, diagonal, subdiagonal).
Output TridiagonalSolve(const Scope& scope, const Input& diagonals, const Input& rhs,
                        bool partial_pivoting = true, bool perturb_singular = false);
Output TridiagonalMatMul(const Scope& scope, const Input& superdiag, const Input& maindiag,
                         const Input& subdiag, const Input& rhs);

// The names old TF1 graphs carry for the ops above (the same computations; float and double).
Output BatchMatrixDeterminant(const Scope& scope, const Input& input);
Output BatchMatrixInverse(const Scope& scope, const Input& input, bool adjoint = false);
Output BatchMatrixSolve(const Scope& scope, const Input& matrix, const Input& rhs,
                        bool adjoint = false);
Output BatchMatrixTriangularSolve(const Scope& scope, const Input& matrix, const Input& rhs,
                                  bool lower = true, bool adjoint = false);
Output BatchCholesky(const Scope& scope, const Input& input);
// e, v.
std::vector<Output> BatchSelfAdjointEigV2(const Scope& scope, const Input& input,
                                          bool compute_v = true);
Output BatchMatrixSolveLs(const Scope& scope, const Input& matrix, const Input& rhs,
                          const Input& l2_regularizer, bool fast = true);

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_LINALG_OPS_H_
