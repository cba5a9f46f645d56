// InitializeTableFromTextFileV2 on the CPU: initializes a table (LookupTable::Initialize) from the
// lines of a text file, as TensorFlow's TextFileLineIterator reads them: line i (from 0, at most
// vocab_size lines when that is not -1) gives a key and a value from key_index / value_index:
// -2 the whole line, -1 the line number i + offset (int64 tables only), n >= 0 the n-th field of
// the line split on `delimiter`; fields are parsed as the table's dtypes (int32, int64, float,
// double, string).
// Errors (TensorFlow's texts): InvalidArgument "filename should be a single string, but got [2]",
// "Key index for line number requires table key dtype of int64, got string" (and Value ...),
// "Invalid content in f: empty line found at position 20." (the byte offset after that line),
// "Invalid number of columns in f line 0 (apple\t10) : expected at least 3 got 2", "Field apple
// in line 0 is not a valid int64.", "Invalid vocab_size in f: expected 5 but got 3"; NotFound
// "f; No such file or directory"; OutOfRange "Read less bytes than requested" for an empty file
// without a vocab_size.
// Thread safety: the table locks itself; the kernel holds no mutable state.
#include <cerrno>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/errno_status.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/lookup/lookup_table.h"
#include "kernels/state/variable.h"

namespace rill {
namespace {

constexpr int64_t kWholeLine = -2;
constexpr int64_t kLineNumber = -1;

// Parses `token` (field of line `line`) into element i of `out`.
absl::Status SetField(const std::string& token, int64_t line, int64_t i, Tensor* out) {
  auto bad = [&](const char* type) {
    return absl::InvalidArgumentError(
        absl::StrCat("Field ", token, " in line ", line, " is not a valid ", type, "."));
  };
  switch (out->dtype()) {
    case DT_STRING:
      out->flat<std::string>()[i] = token;
      return absl::OkStatus();
    case DT_INT32:
      if (!absl::SimpleAtoi(token, &out->flat<int32_t>()[i])) return bad("int32");
      return absl::OkStatus();
    case DT_INT64:
      if (!absl::SimpleAtoi(token, &out->flat<int64_t>()[i])) return bad("int64");
      return absl::OkStatus();
    case DT_FLOAT:
      if (!absl::SimpleAtof(token, &out->flat<float>()[i])) return bad("float");
      return absl::OkStatus();
    case DT_DOUBLE:
      if (!absl::SimpleAtod(token, &out->flat<double>()[i])) return bad("double");
      return absl::OkStatus();
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("Data type ", DataTypeString(out->dtype()), " not supported."));
  }
}

class InitializeTableFromTextFileOp final : public OpKernel {
 public:
  explicit InitializeTableFromTextFileOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("key_index", &key_index_));
    ctx.SetStatus(ctx.GetAttr("value_index", &value_index_));
    ctx.SetStatus(ctx.GetAttr("vocab_size", &vocab_size_));
    ctx.SetStatus(ctx.GetAttr("delimiter", &delimiter_));
    ctx.SetStatus(ctx.GetAttr("offset", &offset_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(ResourceHandle h, ResourceHandleFromTensor(ctx.input(0)));
    RILL_ASSIGN_OR_RETURN(
        std::shared_ptr<LookupTable> table,
        ctx.device()->resource_manager()->Lookup<LookupTable>(h.container, h.name));
    const Tensor& filename_t = ctx.input(1);
    if (filename_t.shape().rank() != 0) {
      return absl::InvalidArgumentError(absl::StrCat("filename should be a single string, but got ",
                                                     filename_t.shape().DebugString()));
    }
    const std::string& filename = filename_t.flat<std::string>()[0];
    if (filename.empty()) return absl::InvalidArgumentError("filename cannot be empty.");
    for (const auto& [index, dtype, what] :
         {std::make_tuple(key_index_, table->key_dtype(), "Key"),
          std::make_tuple(value_index_, table->value_dtype(), "Value")}) {
      if (index == kLineNumber && dtype != DT_INT64) {
        return absl::InvalidArgumentError(absl::StrCat(
            what, " index for line number requires ", "table ", absl::AsciiStrToLower(what),
            " dtype of int64, got ", DataTypeString(dtype)));
      }
    }
    errno = 0;
    std::ifstream in(filename, std::ios::binary);
    if (!in) return IOError(filename, errno != 0 ? errno : EIO);
    std::vector<std::string> lines;
    int64_t position = 0;
    std::string line;
    while ((vocab_size_ == -1 || static_cast<int64_t>(lines.size()) < vocab_size_) &&
           std::getline(in, line)) {
      position += static_cast<int64_t>(line.size()) + (in.eof() ? 0 : 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.empty()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Invalid content in ", filename, ": empty line found at position ", position, "."));
      }
      lines.push_back(line);
    }
    const int64_t n = static_cast<int64_t>(lines.size());
    // TensorFlow's reader of an empty file, when no vocab_size was given.
    if (n == 0 && vocab_size_ == -1) return absl::OutOfRangeError("Read less bytes than requested");
    if (vocab_size_ != -1 && n != vocab_size_) {
      return absl::InvalidArgumentError(absl::StrCat("Invalid vocab_size in ", filename,
                                                     ": expected ", vocab_size_, " but got ", n));
    }
    Tensor keys(table->key_dtype(), TensorShape({n}));
    Tensor values(table->value_dtype(), TensorShape({n}));
    const bool split = key_index_ >= 0 || value_index_ >= 0;
    for (int64_t i = 0; i < n; ++i) {
      std::vector<std::string> fields;
      if (split) {
        fields = absl::StrSplit(lines[i], delimiter_);
        const size_t want = static_cast<size_t>(std::max(key_index_, value_index_) + 1);
        if (fields.size() < want) {
          return absl::InvalidArgumentError(
              absl::StrCat("Invalid number of columns in ", filename, " line ", i, " (", lines[i],
                           ") : expected at least ", want, " got ", fields.size()));
        }
      }
      for (const auto& [index, out] :
           {std::make_pair(key_index_, &keys), std::make_pair(value_index_, &values)}) {
        if (index == kLineNumber) {
          out->flat<int64_t>()[i] = i + offset_;
        } else {
          RILL_RETURN_IF_ERROR(SetField(index == kWholeLine ? lines[i] : fields[index], i, i, out));
        }
      }
    }
    return table->Initialize(keys, values);
  }

 private:
  int64_t key_index_ = kWholeLine, value_index_ = kLineNumber, vocab_size_ = -1, offset_ = 0;
  std::string delimiter_ = "\t";
};

REGISTER_KERNEL(KernelDefBuilder("InitializeTableFromTextFileV2").Device(kDeviceCpu),
                InitializeTableFromTextFileOp);

}  // namespace
}  // namespace rill
