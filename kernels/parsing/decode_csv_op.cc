// DecodeCSV: each string of `records` split into fields (RFC 4180 quoting when use_quote_delim:
// a field in double quotes may hold the delimiter, and "" inside it is one quote), converted to
// the OUT_TYPE of its column; an empty field, or one equal to na_value, takes the column's
// default (an empty default makes the column required). Numbers parse as TensorFlow's
// safe_strto32 / safe_strtof do: surrounding whitespace allowed, floats also hex, inf, infinity
// and nan in any case, out-of-range floats become +-inf or 0, out-of-range integers are errors.
// Error texts are TensorFlow's.
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/op_kernel.h"

namespace rill {
namespace {

bool ParseInt(absl::string_view s, int64_t lo, int64_t hi, int64_t* out) {
  s = absl::StripAsciiWhitespace(s);
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return false;
  // Accumulated as a negative number so the most negative value fits.
  int64_t v = 0;
  for (char ch : s) {
    if (ch < '0' || ch > '9') return false;
    const int digit = ch - '0';
    if (v < (std::numeric_limits<int64_t>::min() + digit) / 10) return false;
    v = v * 10 - digit;
  }
  if (!negative) {
    if (v == std::numeric_limits<int64_t>::min()) return false;
    v = -v;
  }
  if (v < lo || v > hi) return false;
  *out = v;
  return true;
}

template <typename T>
bool ParseFloat(absl::string_view s, T* out) {
  const std::string text(absl::StripAsciiWhitespace(s));
  if (text.empty()) return false;
  char* end = nullptr;
  errno = 0;
  if constexpr (sizeof(T) == 4) {
    *out = std::strtof(text.c_str(), &end);
  } else {
    *out = std::strtod(text.c_str(), &end);
  }
  return end == text.c_str() + text.size();
}

class DecodeCSVOp final : public OpKernel {
 public:
  explicit DecodeCSVOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string delim;
    absl::Status s = ctx.GetAttr("OUT_TYPE", &out_types_);
    if (s.ok()) s = ctx.GetAttr("field_delim", &delim);
    if (s.ok()) s = ctx.GetAttr("use_quote_delim", &use_quote_delim_);
    if (s.ok()) s = ctx.GetAttr("na_value", &na_value_);
    if (s.ok()) s = ctx.GetAttr("select_cols", &select_cols_);
    if (s.ok() && delim.size() != 1) {
      s = absl::InvalidArgumentError("field_delim should be only 1 char");
    }
    for (size_t i = 1; s.ok() && i < select_cols_.size(); ++i) {
      if (select_cols_[i - 1] >= select_cols_[i]) {
        s = absl::InvalidArgumentError("select_cols should be strictly increasing indices");
      }
    }
    if (s.ok() && !select_cols_.empty() && select_cols_.front() < 0) {
      s = absl::InvalidArgumentError("select_cols should be non-negative indices");
    }
    if (s.ok() && !select_cols_.empty() && select_cols_.size() != out_types_.size()) {
      s = absl::InvalidArgumentError("select_cols should match output size");
    }
    if (s.ok()) delim_ = delim[0];
    ctx.SetStatus(s);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const int num_fields = static_cast<int>(out_types_.size());
    for (int f = 0; f < num_fields; ++f) {
      const Tensor& d = ctx.input(1 + f);
      if (d.shape().rank() > 1) {
        return absl::InvalidArgumentError("Each record default should be at most rank 1");
      }
      if (d.NumElements() > 1) {
        return absl::InvalidArgumentError(absl::StrCat(
            "There should only be 1 default per field but field ", f, " has ", d.NumElements()));
      }
    }
    const Tensor& records = ctx.input(0);
    auto in = records.flat<std::string>();
    std::vector<Tensor*> outs(num_fields);
    for (int f = 0; f < num_fields; ++f) {
      RILL_ASSIGN_OR_RETURN(outs[f], ctx.allocate_output(f, records.shape()));
    }
    std::vector<std::string> fields;
    for (size_t r = 0; r < in.size(); ++r) {
      RILL_RETURN_IF_ERROR(Split(in[r], &fields));
      if (static_cast<int>(fields.size()) != num_fields) {
        return absl::InvalidArgumentError(absl::StrCat("Expect ", num_fields, " fields but have ",
                                                       fields.size(), " in record ", r));
      }
      for (int f = 0; f < num_fields; ++f) {
        RILL_RETURN_IF_ERROR(Convert(fields[f], ctx.input(1 + f), f, r, outs[f]));
      }
    }
    return absl::OkStatus();
  }

 private:
  bool Selected(int64_t column, size_t* next) const {
    if (select_cols_.empty()) return true;
    if (*next < select_cols_.size() && select_cols_[*next] == column) {
      ++*next;
      return true;
    }
    return false;
  }

  absl::Status Split(const std::string& in, std::vector<std::string>* out) const {
    out->clear();
    if (in.empty()) return absl::OkStatus();
    size_t i = 0, next = 0;
    int64_t column = 0;
    while (i < in.size()) {
      std::string field;
      if (use_quote_delim_ && in[i] == '"') {
        ++i;
        while (i + 1 < in.size() && (in[i] != '"' || in[i + 1] != delim_)) {
          if (in[i] != '"') {
            field += in[i++];
            continue;
          }
          if (in[i + 1] != '"') {
            return absl::InvalidArgumentError(
                "Quote inside a string has to be escaped by another quote");
          }
          field += '"';
          i += 2;
        }
        if (!(i < in.size() && in[i] == '"' && (i + 1 == in.size() || in[i + 1] == delim_))) {
          return absl::InvalidArgumentError(
              "Quoted field has to end with quote followed by delim or end");
        }
        i += 2;
      } else {
        for (; i < in.size() && in[i] != delim_; ++i) {
          if ((use_quote_delim_ && in[i] == '"') || in[i] == '\n' || in[i] == '\r') {
            return absl::InvalidArgumentError("Unquoted fields cannot have quotes/CRLFs inside");
          }
          field += in[i];
        }
        ++i;
      }
      if (Selected(column++, &next)) out->push_back(std::move(field));
    }
    // A record ending in the delimiter has an empty last field.
    if (in.back() == delim_ && Selected(column, &next)) out->emplace_back();
    return absl::OkStatus();
  }

  absl::Status Convert(const std::string& field, const Tensor& def, int f, size_t r,
                       Tensor* out) const {
    const bool missing = field.empty() || field == na_value_;
    if (missing && def.NumElements() == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Field ", f, " is required but missing in record ", r, "!"));
    }
    auto bad = [&](const char* type) {
      return absl::InvalidArgumentError(
          absl::StrCat("Field ", f, " in record ", r, " is not a valid ", type, ": ", field));
    };
    switch (out_types_[f]) {
      case DT_INT32: {
        int64_t v = 0;
        if (missing) {
          v = def.flat<int32_t>()[0];
        } else if (!ParseInt(field, std::numeric_limits<int32_t>::min(),
                             std::numeric_limits<int32_t>::max(), &v)) {
          return bad("int32");
        }
        out->flat<int32_t>()[r] = static_cast<int32_t>(v);
        break;
      }
      case DT_INT64: {
        int64_t v = 0;
        if (missing) {
          v = def.flat<int64_t>()[0];
        } else if (!ParseInt(field, std::numeric_limits<int64_t>::min(),
                             std::numeric_limits<int64_t>::max(), &v)) {
          return bad("int64");
        }
        out->flat<int64_t>()[r] = v;
        break;
      }
      case DT_FLOAT: {
        float v = 0;
        if (missing) {
          v = def.flat<float>()[0];
        } else if (!ParseFloat(field, &v)) {
          return bad("float");
        }
        out->flat<float>()[r] = v;
        break;
      }
      case DT_DOUBLE: {
        double v = 0;
        if (missing) {
          v = def.flat<double>()[0];
        } else if (!ParseFloat(field, &v)) {
          return bad("double");
        }
        out->flat<double>()[r] = v;
        break;
      }
      default:
        out->flat<std::string>()[r] = missing ? def.flat<std::string>()[0] : field;
        break;
    }
    return absl::OkStatus();
  }

  std::vector<DataType> out_types_;
  char delim_ = ',';
  bool use_quote_delim_ = true;
  std::string na_value_;
  std::vector<int64_t> select_cols_;
};

REGISTER_KERNEL(KernelDefBuilder("DecodeCSV").Device(kDeviceCpu), DecodeCSVOp);

}  // namespace
}  // namespace rill
