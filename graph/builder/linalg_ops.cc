#include "graph/builder/linalg_ops.h"

#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {
namespace {

std::vector<Output> Outputs(const Operation& node) {
  std::vector<Output> out;
  for (int i = 0; i < node.num_outputs(); ++i) out.push_back(node.output(i));
  return out;
}

}  // namespace

Output MatrixDeterminant(const Scope& scope, const Input& input) {
  return OpBuilder(scope, "MatrixDeterminant").Input(input).Finalize().output(0);
}

std::vector<Output> LogMatrixDeterminant(const Scope& scope, const Input& input) {
  return Outputs(OpBuilder(scope, "LogMatrixDeterminant").Input(input).Finalize());
}

Output MatrixInverse(const Scope& scope, const Input& input, bool adjoint) {
  return OpBuilder(scope, "MatrixInverse")
      .Input(input)
      .Attr("adjoint", adjoint)
      .Finalize()
      .output(0);
}

Output Cholesky(const Scope& scope, const Input& input) {
  return OpBuilder(scope, "Cholesky").Input(input).Finalize().output(0);
}

std::vector<Output> Qr(const Scope& scope, const Input& input, bool full_matrices) {
  return Outputs(
      OpBuilder(scope, "Qr").Input(input).Attr("full_matrices", full_matrices).Finalize());
}

std::vector<Output> Svd(const Scope& scope, const Input& input, bool compute_uv,
                        bool full_matrices) {
  return Outputs(OpBuilder(scope, "Svd")
                     .Input(input)
                     .Attr("compute_uv", compute_uv)
                     .Attr("full_matrices", full_matrices)
                     .Finalize());
}

Output MatrixTriangularSolve(const Scope& scope, const Input& matrix, const Input& rhs, bool lower,
                             bool adjoint) {
  return OpBuilder(scope, "MatrixTriangularSolve")
      .Input(matrix)
      .Input(rhs)
      .Attr("lower", lower)
      .Attr("adjoint", adjoint)
      .Finalize()
      .output(0);
}

Output MatrixSolve(const Scope& scope, const Input& matrix, const Input& rhs, bool adjoint) {
  return OpBuilder(scope, "MatrixSolve")
      .Input(matrix)
      .Input(rhs)
      .Attr("adjoint", adjoint)
      .Finalize()
      .output(0);
}

std::vector<Output> Lu(const Scope& scope, const Input& input, DataType output_idx_type) {
  return Outputs(
      OpBuilder(scope, "Lu").Input(input).Attr("output_idx_type", output_idx_type).Finalize());
}

Output MatrixSolveLs(const Scope& scope, const Input& matrix, const Input& rhs,
                     const Input& l2_regularizer, bool fast) {
  return OpBuilder(scope, "MatrixSolveLs")
      .Input(matrix)
      .Input(rhs)
      .Input(l2_regularizer)
      .Attr("fast", fast)
      .Finalize()
      .output(0);
}

Output MatrixSquareRoot(const Scope& scope, const Input& input) {
  return OpBuilder(scope, "MatrixSquareRoot").Input(input).Finalize().output(0);
}

Output MatrixLogarithm(const Scope& scope, const Input& input) {
  return OpBuilder(scope, "MatrixLogarithm").Input(input).Finalize().output(0);
}

std::vector<Output> Eig(const Scope& scope, const Input& input, DataType Tout, bool compute_v) {
  return Outputs(OpBuilder(scope, "Eig")
                     .Input(input)
                     .Attr("Tout", Tout)
                     .Attr("compute_v", compute_v)
                     .Finalize());
}

Output BandedTriangularSolve(const Scope& scope, const Input& matrix, const Input& rhs, bool lower,
                             bool adjoint) {
  return OpBuilder(scope, "BandedTriangularSolve")
      .Input(matrix)
      .Input(rhs)
      .Attr("lower", lower)
      .Attr("adjoint", adjoint)
      .Finalize()
      .output(0);
}

Output TridiagonalSolve(const Scope& scope, const Input& diagonals, const Input& rhs,
                        bool partial_pivoting, bool perturb_singular) {
  return OpBuilder(scope, "TridiagonalSolve")
      .Input(diagonals)
      .Input(rhs)
      .Attr("partial_pivoting", partial_pivoting)
      .Attr("perturb_singular", perturb_singular)
      .Finalize()
      .output(0);
}

Output TridiagonalMatMul(const Scope& scope, const Input& superdiag, const Input& maindiag,
                         const Input& subdiag, const Input& rhs) {
  return OpBuilder(scope, "TridiagonalMatMul")
      .Input(superdiag)
      .Input(maindiag)
      .Input(subdiag)
      .Input(rhs)
      .Finalize()
      .output(0);
}

Output BatchMatrixDeterminant(const Scope& scope, const Input& input) {
  return OpBuilder(scope, "BatchMatrixDeterminant").Input(input).Finalize().output(0);
}

Output BatchMatrixInverse(const Scope& scope, const Input& input, bool adjoint) {
  return OpBuilder(scope, "BatchMatrixInverse")
      .Input(input)
      .Attr("adjoint", adjoint)
      .Finalize()
      .output(0);
}

Output BatchMatrixSolve(const Scope& scope, const Input& matrix, const Input& rhs, bool adjoint) {
  return OpBuilder(scope, "BatchMatrixSolve")
      .Input(matrix)
      .Input(rhs)
      .Attr("adjoint", adjoint)
      .Finalize()
      .output(0);
}

Output BatchMatrixTriangularSolve(const Scope& scope, const Input& matrix, const Input& rhs,
                                  bool lower, bool adjoint) {
  return OpBuilder(scope, "BatchMatrixTriangularSolve")
      .Input(matrix)
      .Input(rhs)
      .Attr("lower", lower)
      .Attr("adjoint", adjoint)
      .Finalize()
      .output(0);
}

Output BatchCholesky(const Scope& scope, const Input& input) {
  return OpBuilder(scope, "BatchCholesky").Input(input).Finalize().output(0);
}

std::vector<Output> BatchSelfAdjointEigV2(const Scope& scope, const Input& input, bool compute_v) {
  return Outputs(OpBuilder(scope, "BatchSelfAdjointEigV2")
                     .Input(input)
                     .Attr("compute_v", compute_v)
                     .Finalize());
}

Output BatchMatrixSolveLs(const Scope& scope, const Input& matrix, const Input& rhs,
                          const Input& l2_regularizer, bool fast) {
  return OpBuilder(scope, "BatchMatrixSolveLs")
      .Input(matrix)
      .Input(rhs)
      .Input(l2_regularizer)
      .Attr("fast", fast)
      .Finalize()
      .output(0);
}

}  // namespace ops
}  // namespace rill
