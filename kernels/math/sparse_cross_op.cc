// SparseCross, SparseCrossV2 and SparseCrossHashed on the CPU: the crossed features of feature
// columns (tf.feature_column's crossed_column, tf.sparse.cross, tf.sparse.cross_hashed). Inputs
// are N 2-D sparse tensors (indices, values, shapes, rows = batch) and M dense [batch, k]
// tensors, of int64 or string values. For each batch row, every combination of one feature from
// each input is a cross, the last input varying fastest; a row where some input has no feature
// has no cross. Output: a 2-D sparse tensor [batch, most crosses in a row], crosses of row b at
// (b, 0), (b, 1), ...
//
// A sparse input's features of row b are the run of entries with row b where a cursor walking
// the indices in row order stands (TensorFlow's reading: indices are expected sorted by row;
// entries out of order or out of range belong to no row).
//
// SparseCross, out_type int64 (TensorFlow keys the kernel on it, not on hashed_output): a cross
// is FingerprintCat64 folded from hash_key over each feature (string: FarmHash Fingerprint64;
// int64: the value itself), then modulo num_buckets (modulo INT64_MAX when num_buckets is 0).
// out_type string: the features as strings (int64 in decimal) joined with "_X_". Values and dense
// inputs must be of internal_type or strings.
// SparseCrossV2: the string form joined with the scalar input `sep`; any mix of int64 and string
// inputs.
// SparseCrossHashed: the first feature's hash FingerprintCat64-folded with the others', then
// modulo num_buckets (INT64_MAX when num_buckets <= 0). A feature's hash: a string's
// Fingerprint64, or with strong_hash its SipHash-2-4 keyed by salt; a sparse int64's the same of
// the value's first 4 bytes in memory (TensorFlow hashes sizeof(DataType) bytes of it); a dense
// int64 the value itself. With strong_hash TensorFlow reads a dense int64 value as an address
// (its process dies): Rill refuses that input.
//
// Errors are InvalidArgument with TensorFlow's texts ("Input indices should be a matrix but
// received shape [2] at position 0", "Expected batch size 2 got 3 at position 1", "Input
// separator should be a scalar. Received: Tensor<type: string shape: [2] values: a b>", "Input
// \"salt\" must have length 2 but has length 1", ...). Kernels are immutable after construction;
// Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/strings/hash.h"

namespace rill {
namespace {

uint64_t ShiftMix(uint64_t v) { return v ^ (v >> 47); }

// TensorFlow's FingerprintCat64: combines two fingerprints, order-dependent.
uint64_t FingerprintCat64(uint64_t fp1, uint64_t fp2) {
  constexpr uint64_t kMul = 0xc6a4a7935bd1e995ULL;
  uint64_t result = fp1 ^ kMul;
  result ^= ShiftMix(fp2 * kMul) * kMul;
  result *= kMul;
  result = ShiftMix(result) * kMul;
  return ShiftMix(result);
}

// One input column: where each batch row's features start and how many it has.
struct Column {
  const Tensor* values = nullptr;  // a vector (sparse) or a [batch, k] matrix (dense)
  bool dense = false;
  std::vector<int64_t> start, count;

  int64_t Flat(int64_t b, int64_t n) const { return start[b] + n; }
  uint64_t Hash(int64_t b, int64_t n) const {
    const int64_t i = Flat(b, n);
    if (values->dtype() == DT_STRING) {
      const std::string& s = values->flat<std::string>()[i];
      return strings_hash::Fingerprint64(s.data(), s.size());
    }
    return static_cast<uint64_t>(values->flat<int64_t>()[i]);
  }
  // SparseCrossHashed's hash of a feature (key: the salt; dense int64 with strong_hash is refused
  // before).
  uint64_t KeyedHash(int64_t b, int64_t n, bool strong, const uint64_t key[2]) const {
    const int64_t i = Flat(b, n);
    const char* data = nullptr;
    size_t len = 0;
    if (values->dtype() == DT_STRING) {
      const std::string& s = values->flat<std::string>()[i];
      data = s.data();
      len = s.size();
    } else if (dense) {
      return static_cast<uint64_t>(values->flat<int64_t>()[i]);
    } else {
      data = reinterpret_cast<const char*>(&values->flat<int64_t>()[i]);
      len = 4;  // sizeof(DataType) in TensorFlow's kernel
    }
    return strong ? strings_hash::SipHash24(key[0], key[1], data, len)
                  : strings_hash::Fingerprint64(data, len);
  }
  std::string Str(int64_t b, int64_t n) const {
    const int64_t i = Flat(b, n);
    if (values->dtype() == DT_STRING) return values->flat<std::string>()[i];
    return absl::StrCat(values->flat<int64_t>()[i]);
  }
};

std::string At(int i) { return absl::StrCat(" at position ", i); }

// TensorFlow's Tensor::DebugString, which its error texts print: the dtype, the shape and the first
// three values (strings C-escaped).
std::string TensorDebugString(const Tensor& t) {
  std::vector<std::string> shown;
  const int64_t count = t.NumElements();
  for (int64_t i = 0; i < count && i < 3; ++i) {
    shown.push_back(t.dtype() == DT_STRING ? absl::CEscape(t.flat<std::string>()[i])
                                           : absl::StrCat(t.flat<int64_t>()[i]));
  }
  return absl::StrCat("Tensor<type: ", DataTypeString(t.dtype()),
                      " shape: ", t.shape().DebugString(), " values: ", absl::StrJoin(shown, " "),
                      count > 3 ? "..." : "", ">");
}

enum class Kind { kV1, kV2, kHashed };

class SparseCrossOp final : public OpKernel {
 public:
  explicit SparseCrossOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    const std::string& op = ctx.def().op();
    kind_ =
        op == "SparseCrossV2" ? Kind::kV2 : (op == "SparseCrossHashed" ? Kind::kHashed : Kind::kV1);
    absl::Status s = ctx.GetAttr("N", &n_);
    if (kind_ == Kind::kV1) {
      if (s.ok()) s = ctx.GetAttr("num_buckets", &num_buckets_);
      if (s.ok()) s = ctx.GetAttr("hash_key", &hash_key_);
      DataType out_type = DT_INVALID;
      if (s.ok()) s = ctx.GetAttr("out_type", &out_type);
      if (s.ok()) s = ctx.GetAttr("internal_type", &internal_type_);
      hashed_ = out_type == DT_INT64;
    }
    ctx.SetStatus(s);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const int n = static_cast<int>(n_);
    const int extra = kind_ == Kind::kV2 ? 1 : (kind_ == Kind::kHashed ? 3 : 0);
    const int m = ctx.num_inputs() - 3 * n - extra;
    // V2 and Hashed take any mix of int64 and string inputs.
    RILL_RETURN_IF_ERROR(Validate(ctx, n, m, kind_ == Kind::kV1 ? internal_type_ : DT_INVALID));
    const int64_t batch =
        n > 0 ? ctx.input(2 * n).flat<int64_t>()[0] : (m > 0 ? ctx.input(3 * n).shape().dim(0) : 0);
    for (int i = 0; i < n; ++i) {
      const int64_t rows = ctx.input(2 * n + i).flat<int64_t>()[0];
      if (rows != batch) {
        return absl::InvalidArgumentError(
            absl::StrCat("Expected batch size ", batch, " got ", rows, At(i)));
      }
    }
    for (int i = 0; i < m; ++i) {
      const int64_t rows = ctx.input(3 * n + i).shape().dim(0);
      if (rows != batch) {
        return absl::InvalidArgumentError(
            absl::StrCat("Expected batch size ", batch, " got ", rows, " at dense tensor ", i));
      }
    }
    std::string sep = "_X_";
    int64_t num_buckets = num_buckets_;
    bool strong = false;
    uint64_t key[2] = {0, 0};
    const int last = 3 * n + m;  // the first input after the dense ones
    if (kind_ == Kind::kV2) {
      const Tensor& sep_t = ctx.input(last);
      if (sep_t.shape().rank() != 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Input separator should be a scalar. Received: ", TensorDebugString(sep_t)));
      }
      sep = sep_t.flat<std::string>()[0];
    } else if (kind_ == Kind::kHashed) {
      // TensorFlow reads num_buckets and strong_hash as scalars without a check (a CHECK
      // failure otherwise); Rill refuses other shapes.
      const Tensor& buckets_t = ctx.input(last);
      const Tensor& strong_t = ctx.input(last + 1);
      if (buckets_t.shape().rank() != 0 || strong_t.shape().rank() != 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("num_buckets and strong_hash must be scalars; got shapes ",
                         buckets_t.shape().DebugString(), " and ", strong_t.shape().DebugString()));
      }
      num_buckets = buckets_t.flat<int64_t>()[0];
      strong = strong_t.flat<bool>()[0];
      const Tensor& salt = ctx.input(last + 2);
      if (salt.NumElements() != 2) {
        return absl::InvalidArgumentError(
            absl::StrCat("Input \"salt\" must have length 2 but has length ", salt.NumElements()));
      }
      key[0] = static_cast<uint64_t>(salt.flat<int64_t>()[0]);
      key[1] = static_cast<uint64_t>(salt.flat<int64_t>()[1]);
      for (int i = 0; strong && i < m; ++i) {
        if (ctx.input(3 * n + i).dtype() == DT_INT64) {
          return absl::InvalidArgumentError(absl::StrCat(
              "SparseCrossHashed with strong_hash cannot hash the int64 dense input ", i,
              " (TensorFlow reads its values as addresses and crashes); pass it as a string or "
              "sparse input"));
        }
      }
    }
    std::vector<Column> cols(n + m);
    for (int i = 0; i < n; ++i) {
      Column& c = cols[i];
      c.values = &ctx.input(n + i);
      c.count.assign(batch, 0);
      c.start.assign(batch, 0);
      // A cursor walks the indices: row b's features are the run of indices whose row is b
      // where the cursor stands (rows out of order or out of range end up in no run).
      const Tensor& idx = ctx.input(i);
      const int64_t* rows = idx.flat<int64_t>().data();
      const int64_t entries = idx.shape().dim(0);
      int64_t cursor = 0;
      for (int64_t b = 0; b < batch; ++b) {
        c.start[b] = cursor;
        while (cursor < entries && rows[2 * cursor] == b) ++cursor;
        c.count[b] = cursor - c.start[b];
      }
    }
    for (int i = 0; i < m; ++i) {
      Column& c = cols[n + i];
      c.values = &ctx.input(3 * n + i);
      c.dense = true;
      const int64_t k = c.values->shape().dim(1);
      c.count.assign(batch, k);
      c.start.resize(batch);
      for (int64_t b = 0; b < batch; ++b) c.start[b] = b * k;
    }
    // Crosses per row (0 without inputs or when some input is empty in the row).
    std::vector<int64_t> crosses(batch, cols.empty() ? 0 : 1);
    int64_t total = 0, widest = 0;
    for (int64_t b = 0; b < batch; ++b) {
      for (const Column& c : cols) {
        if (c.count[b] == 0) crosses[b] = 0;
        if (crosses[b] > 0 && c.count[b] > std::numeric_limits<int64_t>::max() / crosses[b]) {
          return absl::InvalidArgumentError(
              absl::StrCat("Too many crosses in batch row ", b, " (more than 2^63)"));
        }
        crosses[b] *= c.count[b];
      }
      total += crosses[b];
      widest = std::max(widest, crosses[b]);
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out_idx, ctx.allocate_output(0, TensorShape({total, 2})));
    RILL_ASSIGN_OR_RETURN(Tensor * out_val, ctx.allocate_output(1, TensorShape({total})));
    RILL_ASSIGN_OR_RETURN(Tensor * out_shape, ctx.allocate_output(2, TensorShape({2})));
    out_shape->flat<int64_t>()[0] = batch;
    out_shape->flat<int64_t>()[1] = widest;
    int64_t at = 0;
    std::vector<int64_t> pick(cols.size());
    for (int64_t b = 0; b < batch; ++b) {
      std::fill(pick.begin(), pick.end(), 0);
      for (int64_t j = 0; j < crosses[b]; ++j, ++at) {
        out_idx->flat<int64_t>()[2 * at] = b;
        out_idx->flat<int64_t>()[2 * at + 1] = j;
        if (kind_ == Kind::kHashed) {
          uint64_t h = cols[0].KeyedHash(b, pick[0], strong, key);
          for (size_t c = 1; c < cols.size(); ++c)
            h = FingerprintCat64(h, cols[c].KeyedHash(b, pick[c], strong, key));
          const uint64_t mod = num_buckets > 0 ? static_cast<uint64_t>(num_buckets)
                                               : std::numeric_limits<int64_t>::max();
          out_val->flat<int64_t>()[at] = static_cast<int64_t>(h % mod);
        } else if (hashed_) {
          uint64_t h = static_cast<uint64_t>(hash_key_);
          for (size_t c = 0; c < cols.size(); ++c)
            h = FingerprintCat64(h, cols[c].Hash(b, pick[c]));
          const uint64_t mod = num_buckets_ > 0 ? static_cast<uint64_t>(num_buckets_)
                                                : std::numeric_limits<int64_t>::max();
          out_val->flat<int64_t>()[at] = static_cast<int64_t>(h % mod);
        } else {
          std::string s;
          for (size_t c = 0; c < cols.size(); ++c) {
            if (c > 0) s += sep;
            s += cols[c].Str(b, pick[c]);
          }
          out_val->flat<std::string>()[at] = std::move(s);
        }
        // The next combination: the last column fastest.
        for (int c = static_cast<int>(cols.size()) - 1; c >= 0; --c) {
          if (++pick[c] < cols[c].count[b]) break;
          pick[c] = 0;
        }
      }
    }
    return absl::OkStatus();
  }

 private:
  // TensorFlow prints the DataType enum values (7 string, 9 int64). No check for DT_INVALID.
  static absl::Status CheckType(const Tensor& t, const char* what, DataType internal) {
    if (internal == DT_INVALID || t.dtype() == internal || t.dtype() == DT_STRING) {
      return absl::OkStatus();
    }
    return absl::InvalidArgumentError(absl::StrCat(what, " should be of internal type ",
                                                   static_cast<int>(internal), " but received ",
                                                   static_cast<int>(t.dtype())));
  }

  static absl::Status Validate(OpKernelContext& ctx, int n, int m, DataType internal) {
    for (int i = 0; i < n; ++i) {
      const TensorShape& s = ctx.input(i).shape();
      if (s.rank() != 2) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Input indices should be a matrix but received shape ", s.DebugString(), At(i)));
      }
      if (s.dim(1) != 2) {
        return absl::InvalidArgumentError(
            absl::StrCat("Expected D2 of index to be 2 got ", s.dim(1), At(i)));
      }
    }
    for (int i = 0; i < n; ++i) {
      const TensorShape& s = ctx.input(n + i).shape();
      RILL_RETURN_IF_ERROR(CheckType(ctx.input(n + i), "Input values", internal));
      if (s.rank() != 1) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Input values should be a vector but received shape ", s.DebugString(), At(i)));
      }
      const int64_t want = ctx.input(i).shape().dim(0);
      if (s.dim(0) != want) {
        return absl::InvalidArgumentError(
            absl::StrCat("Expected size of values to be ", want, " got ", s.dim(0), At(i)));
      }
    }
    for (int i = 0; i < n; ++i) {
      const TensorShape& s = ctx.input(2 * n + i).shape();
      if (s.rank() != 1) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Input shapes should be a vector but received shape ", s.DebugString(), At(i)));
      }
      if (s.dim(0) != 2) {
        return absl::InvalidArgumentError(
            absl::StrCat("shape should imply a 2D tensor, but got ", s.DebugString(), At(i)));
      }
    }
    for (int i = 0; i < m; ++i) {
      const TensorShape& s = ctx.input(3 * n + i).shape();
      RILL_RETURN_IF_ERROR(CheckType(ctx.input(3 * n + i), "Dense inputs", internal));
      if (s.rank() != 2) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Dense inputs should be a matrix but received shape ", s.DebugString(), At(i)));
      }
    }
    return absl::OkStatus();
  }

  Kind kind_ = Kind::kV1;
  int64_t n_ = 0;
  bool hashed_ = false;  // SparseCross with out_type int64
  DataType internal_type_ = DT_INVALID;
  int64_t num_buckets_ = 0;
  int64_t hash_key_ = 0;
};

REGISTER_KERNEL(KernelDefBuilder("SparseCross").Device(kDeviceCpu), SparseCrossOp);
REGISTER_KERNEL(KernelDefBuilder("SparseCrossV2").Device(kDeviceCpu), SparseCrossOp);
REGISTER_KERNEL(KernelDefBuilder("SparseCrossHashed").Device(kDeviceCpu), SparseCrossOp);

}  // namespace
}  // namespace rill
