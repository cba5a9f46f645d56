#include "kernels/math_lib/einsum_spec.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/status_macros.h"

namespace rill {
namespace {

absl::StatusOr<EinsumSubscripts> ParseSubscripts(absl::string_view s, absl::string_view equation) {
  EinsumSubscripts out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '.') {
      if (out.ellipsis_at >= 0 || s.substr(i, 3) != "...") {
        return absl::InvalidArgumentError(
            absl::StrCat("Invalid ellipsis in einsum equation: ", equation));
      }
      out.ellipsis_at = static_cast<int>(out.labels.size());
      i += 2;
    } else if (s[i] >= ' ' && s[i] <= '~') {
      // TensorFlow takes every character but '.' as a label: digits, punctuation and spaces too
      // ("i j,j k->i k" has operands of rank 3). Control characters name the ellipsis dims here,
      // and bytes past ASCII are refused.
      out.labels.push_back(s[i]);
    } else {
      return absl::InvalidArgumentError(absl::StrCat("Invalid character '", std::string(1, s[i]),
                                                     "' in einsum equation: ", equation));
    }
  }
  return out;
}

// The full label list of an operand of rank `rank` (the ellipsis expanded to rank - labels dims).
absl::StatusOr<std::string> Expand(const EinsumSubscripts& s, int rank, int input_index) {
  const int named = static_cast<int>(s.labels.size());
  if (s.ellipsis_at < 0 ? rank != named : rank < named) {
    return absl::InvalidArgumentError(
        absl::StrCat("Expected input ", input_index, " to have rank ", named, " but got: ", rank));
  }
  if (s.ellipsis_at < 0) return s.labels;
  const int e = rank - named;
  std::string out = s.labels.substr(0, s.ellipsis_at);
  for (int k = e - 1; k >= 0; --k) out.push_back(EinsumEllipsisLabel(k));
  out += s.labels.substr(s.ellipsis_at);
  return out;
}

}  // namespace

absl::StatusOr<EinsumEquation> ParseEinsumEquation(const std::string& equation, int n,
                                                   bool allow_diagonals) {
  std::vector<std::string> sides = absl::StrSplit(equation, "->");
  if (sides.size() != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("Expecting exactly one '->' in einsum equation: ", equation));
  }
  std::vector<std::string> ins = absl::StrSplit(sides[0], ',');
  if (static_cast<int>(ins.size()) != n || n > 2) {
    return absl::InvalidArgumentError(absl::StrCat("Expecting ", n,
                                                   " input subscripts in einsum equation '",
                                                   equation, "' but got ", ins.size()));
  }
  EinsumEquation eq;
  for (const std::string& in : ins) {
    RILL_ASSIGN_OR_RETURN(EinsumSubscripts s, ParseSubscripts(in, equation));
    for (size_t i = 0; i < s.labels.size() && !allow_diagonals; ++i) {
      if (s.labels.find(s.labels[i], i + 1) != std::string::npos) {
        return absl::UnimplementedError(absl::StrCat(
            "Einsum with a label repeated within one operand (a diagonal) is not supported: ",
            equation));
      }
    }
    eq.inputs.push_back(s);
  }
  RILL_ASSIGN_OR_RETURN(eq.output, ParseSubscripts(sides[1], equation));
  if (!allow_diagonals &&
      EinsumWithoutDiagonals(eq.output).labels.size() != eq.output.labels.size()) {
    return absl::UnimplementedError(absl::StrCat(
        "Einsum with a label repeated in the output (a diagonal) is not supported: ", equation));
  }
  for (char l : eq.output.labels) {
    bool found = false;
    for (const EinsumSubscripts& s : eq.inputs) found |= s.labels.find(l) != std::string::npos;
    if (!found) {
      return absl::InvalidArgumentError(absl::StrCat("Output subscript contains label '",
                                                     std::string(1, l),
                                                     "' not present in the input subscripts"));
    }
  }
  return eq;
}

EinsumSubscripts EinsumWithoutDiagonals(const EinsumSubscripts& subscripts) {
  EinsumSubscripts out;
  for (size_t i = 0; i < subscripts.labels.size(); ++i) {
    if (static_cast<int>(i) == subscripts.ellipsis_at) {
      out.ellipsis_at = static_cast<int>(out.labels.size());
    }
    if (out.labels.find(subscripts.labels[i]) == std::string::npos) {
      out.labels.push_back(subscripts.labels[i]);
    }
  }
  if (subscripts.ellipsis_at == static_cast<int>(subscripts.labels.size())) {
    out.ellipsis_at = static_cast<int>(out.labels.size());
  }
  return out;
}

absl::StatusOr<EinsumLabels> EinsumLabelsOf(const EinsumEquation& equation,
                                            const std::vector<TensorShape>& shapes) {
  EinsumLabels l;
  const int n = static_cast<int>(shapes.size());
  int ellipsis_rank = 0;
  for (int i = 0; i < n; ++i) {
    const TensorShape& shape = shapes[i];
    RILL_ASSIGN_OR_RETURN(std::string labels, Expand(equation.inputs[i], shape.rank(), i));
    for (int d = 0; d < shape.rank(); ++d) {
      const char c = labels[d];
      if (c < ' ') {
        ellipsis_rank = std::max(ellipsis_rank, static_cast<int>(c));
        int64_t& s = l.size[c];
        s = std::max(s, shape.dim(d));
        continue;
      }
      auto [it, inserted] = l.size.emplace(c, shape.dim(d));
      if (!inserted && it->second != shape.dim(d)) {
        return absl::InvalidArgumentError(
            absl::StrCat("Expected dimension ", it->second, " at axis ", d, " of the input shaped ",
                         shape.DebugString(), " but got dimension ", shape.dim(d)));
      }
    }
    l.operands.push_back(std::move(labels));
  }
  // The output's labels, the ellipsis expanded to every ellipsis dim.
  l.output = equation.output.labels;
  if (equation.output.ellipsis_at >= 0) {
    std::string e;
    for (int k = ellipsis_rank - 1; k >= 0; --k) e.push_back(EinsumEllipsisLabel(k));
    l.output.insert(equation.output.ellipsis_at, e);
  }
  std::vector<int64_t> out_dims;
  for (char c : l.output) out_dims.push_back(l.size[c]);
  RILL_ASSIGN_OR_RETURN(l.out_shape, TensorShape::FromDims(out_dims));
  if (n != 2) return l;
  auto in_operand = [&](int i, char c) { return l.operands[i].find(c) != std::string::npos; };
  auto in_output = [&](char c) { return l.output.find(c) != std::string::npos; };
  for (char c : l.operands[0]) {
    if (in_operand(1, c)) {
      (in_output(c) ? l.batch : l.contract).push_back(c);
    } else if (in_output(c)) {
      l.free_x.push_back(c);
    }
  }
  for (char c : l.operands[1]) {
    if (!in_operand(0, c) && in_output(c)) l.free_y.push_back(c);
  }
  return l;
}

}  // namespace rill
