// Einsum's equation and labels, shared by the CPU kernel (kernels/math/einsum_op.cc) and the CUDA
// kernel (kernels/gpu/einsum_op_gpu.cc), with TensorFlow's errors (listed at the CPU kernel).
//
//   RILL_ASSIGN_OR_RETURN(EinsumEquation eq, ParseEinsumEquation("bij,bjk->bik", 2));
//   RILL_ASSIGN_OR_RETURN(EinsumLabels l, EinsumLabelsOf(eq, {x.shape(), y.shape()}));
//   // l.batch "b", l.free_x "i", l.contract "j", l.free_y "k", l.out_shape [B,I,K]
//
// Labels are printable ASCII characters other than '.' (letters, digits, punctuation, spaces, as
// TensorFlow takes them); an ellipsis stands for unnamed dims, labelled by EinsumEllipsisLabel
// (chars below ' '), which broadcast like NumPy dims. Pure; thread-safe.
#ifndef RILL_KERNELS_MATH_LIB_EINSUM_SPEC_H_
#define RILL_KERNELS_MATH_LIB_EINSUM_SPEC_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/tensor_shape.h"

namespace rill {

// One operand's (or the output's) subscripts: letters, and where the ellipsis sits (-1: none).
struct EinsumSubscripts {
  std::string labels;    // without the ellipsis
  int ellipsis_at = -1;  // index into labels where "..." stands
};

struct EinsumEquation {
  std::vector<EinsumSubscripts> inputs;  // one or two
  EinsumSubscripts output;
};

// Parses `equation` for `n` operands: exactly one "->", n <= 2 input subscripts, every output
// label in some input. A label repeated within one operand (a diagonal, "ii->i", "bii->b") or in
// the output ("ij,jk->ii") is Unimplemented unless `allow_diagonals`; the caller then takes the
// operands' diagonals first and places the output's (EinsumWithoutDiagonals).
absl::StatusOr<EinsumEquation> ParseEinsumEquation(const std::string& equation, int n,
                                                   bool allow_diagonals = false);

// `subscripts` with each repeated letter kept once, at its first place (the ellipsis moves with
// the letters before it): the subscripts of the operand's diagonal, whose dims follow the
// expanded labels in the same first-occurrence order.
EinsumSubscripts EinsumWithoutDiagonals(const EinsumSubscripts& subscripts);

// Internal label of ellipsis dim k counted from the right.
inline char EinsumEllipsisLabel(int k) { return static_cast<char>(1 + k); }

// The labels of one run, from the operands' shapes.
struct EinsumLabels {
  std::vector<std::string> operands;  // per operand, one label per dim (ellipsis expanded)
  std::map<char, int64_t> size;       // per label; ellipsis dims: the largest (they broadcast)
  std::string output;                 // one label per output dim
  TensorShape out_shape;
  // Two operands: labels in both and in the output (batch), in both but not the output
  // (contract), in only the first / second and in the output (free_x / free_y), in the order they
  // appear. An ellipsis dim of only one operand is free.
  std::string batch, contract, free_x, free_y;
};
absl::StatusOr<EinsumLabels> EinsumLabelsOf(const EinsumEquation& equation,
                                            const std::vector<TensorShape>& shapes);

}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_EINSUM_SPEC_H_
