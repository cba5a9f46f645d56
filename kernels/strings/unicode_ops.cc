// tf.strings.unicode_* on the CPU (kernels/strings/unicode_codec.h decodes and encodes):
//
//   UnicodeDecode(input): the code points of every string of `input` (any shape, flattened) as
//     a ragged batch: row_splits [n + 1] (Tsplits) and char_values (int32).
//   UnicodeDecodeWithOffsets(input): the same and each character's byte offset in its string
//     (char_to_byte_starts, int64).
//   UnicodeEncode(input_values, input_splits): one string per row of the ragged code points.
//   UnicodeTranscode(input): every string re-encoded, `input`'s shape.
//
// Malformed input follows `errors`: "replace" puts replacement_char in its place, "ignore"
// drops it, "strict" fails with "Invalid formatting on input string" (Encode: "Code point is
// out of range for Unicode, or is a surrogate."). With replace_control_characters, code points
// up to U+001F are replaced (or dropped) too, never an error. Input encodings: those
// unicode_codec.h names; another name fails as TensorFlow fails for a name ICU does not know
// ("Could not create converter for input encoding: X"), saying which ones Rill decodes.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/strings/unicode_codec.h"

namespace rill {
namespace {

using unicode::Decoded;
using unicode::InputEncoding;
using unicode::OutputEncoding;

const std::vector<DataType>& SplitTypes() {
  static const auto* types = new std::vector<DataType>{DT_INT32, DT_INT64};
  return *types;
}

// The errors / replacement_char / replace_control_characters attrs.
struct ErrorOptions {
  int32_t subst = 0xFFFD;
  bool ignore = false;
  bool strict = false;
  bool replace_control = false;

  // Whether decoded `d` is replaced (or dropped): malformed, or a control character when asked.
  bool Replaces(const Decoded& d) const {
    return d.malformed || (replace_control && d.code_point <= 0x1F);
  }
};

absl::Status ReadErrorOptions(OpKernelConstruction& ctx, bool has_control_attr, ErrorOptions* out) {
  std::string policy;
  RILL_RETURN_IF_ERROR(ctx.GetAttr("errors", &policy));
  if (policy == "ignore") {
    out->ignore = true;
  } else if (policy == "strict") {
    out->strict = true;
  } else if (policy != "replace") {
    return absl::InvalidArgumentError(
        "errors policy must be one of 'strict', 'replace', or 'ignore'");
  }
  int64_t replacement = 0;
  RILL_RETURN_IF_ERROR(ctx.GetAttr("replacement_char", &replacement));
  if (replacement < 0 || replacement > 0x10FFFF) {
    return absl::InvalidArgumentError("replacement_char out of unicode codepoint range");
  }
  out->subst = static_cast<int32_t>(replacement);
  if (has_control_attr) {
    RILL_RETURN_IF_ERROR(ctx.GetAttr("replace_control_characters", &out->replace_control));
  }
  return absl::OkStatus();
}

absl::Status ReadInputEncoding(OpKernelConstruction& ctx, InputEncoding* out) {
  std::string name;
  RILL_RETURN_IF_ERROR(ctx.GetAttr("input_encoding", &name));
  auto parsed = unicode::ParseInputEncoding(name);
  if (!parsed) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Could not create converter for input encoding: ", name,
        " (Rill decodes UTF-8, UTF-16BE, UTF-16LE, UTF-32BE, UTF-32LE, ISO-8859-1 and US-ASCII)"));
  }
  *out = *parsed;
  return absl::OkStatus();
}

absl::Status ReadOutputEncoding(OpKernelConstruction& ctx, OutputEncoding* out) {
  std::string name;
  RILL_RETURN_IF_ERROR(ctx.GetAttr("output_encoding", &name));
  auto parsed = unicode::ParseOutputEncoding(name);
  if (!parsed) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Invalid encoding \"", name, "\": Should be one of: UTF-8, UTF-16-BE, UTF-32-BE"));
  }
  *out = *parsed;
  return absl::OkStatus();
}

constexpr char kInvalidFormatting[] = "Invalid formatting on input string";

// Calls emit(code_point, byte_offset) for every character of `s` the options keep; sets
// *malformed when any bytes were malformed.
template <typename Emit>
void DecodeString(InputEncoding encoding, const ErrorOptions& options, absl::string_view s,
                  bool* malformed, Emit emit) {
  size_t at = 0;
  while (at < s.size()) {
    const Decoded d = unicode::DecodeOne(encoding, s.substr(at));
    if (d.malformed) *malformed = true;
    if (!options.Replaces(d)) {
      emit(d.code_point, at);
    } else if (!options.ignore) {
      emit(options.subst, at);
    }
    at += d.length;
  }
}

class UnicodeDecodeOp final : public OpKernel {
 public:
  explicit UnicodeDecodeOp(OpKernelConstruction& ctx)
      : OpKernel(ctx), with_offsets_(ctx.def().op() == "UnicodeDecodeWithOffsets") {
    ctx.SetStatus(ReadErrorOptions(ctx, true, &options_));
    ctx.SetStatus(ReadInputEncoding(ctx, &encoding_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const int64_t n = input.NumElements();
    const std::string* strings = input.flat<std::string>().data();
    std::vector<int64_t> splits = {0};
    std::vector<int32_t> chars;
    std::vector<int64_t> offsets;
    bool malformed = false;
    for (int64_t i = 0; i < n; ++i) {
      DecodeString(encoding_, options_, strings[i], &malformed, [&](int32_t c, size_t at) {
        chars.push_back(c);
        if (with_offsets_) offsets.push_back(static_cast<int64_t>(at));
      });
      splits.push_back(static_cast<int64_t>(chars.size()));
    }
    if (options_.strict && malformed) return absl::InvalidArgumentError(kInvalidFormatting);
    RILL_ASSIGN_OR_RETURN(Tensor * splits_out, ctx.allocate_output(0, TensorShape({n + 1})));
    for (int64_t i = 0; i <= n; ++i) {
      if (splits_out->dtype() == DT_INT32) {
        splits_out->flat<int32_t>()[i] = static_cast<int32_t>(splits[i]);
      } else {
        splits_out->flat<int64_t>()[i] = splits[i];
      }
    }
    const int64_t total = static_cast<int64_t>(chars.size());
    RILL_ASSIGN_OR_RETURN(Tensor * chars_out, ctx.allocate_output(1, TensorShape({total})));
    std::copy(chars.begin(), chars.end(), chars_out->flat<int32_t>().data());
    if (with_offsets_) {
      RILL_ASSIGN_OR_RETURN(Tensor * offsets_out, ctx.allocate_output(2, TensorShape({total})));
      std::copy(offsets.begin(), offsets.end(), offsets_out->flat<int64_t>().data());
    }
    return absl::OkStatus();
  }

 private:
  const bool with_offsets_;
  ErrorOptions options_;
  InputEncoding encoding_ = InputEncoding::kUtf8;
};

class UnicodeTranscodeOp final : public OpKernel {
 public:
  explicit UnicodeTranscodeOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ReadErrorOptions(ctx, true, &options_));
    ctx.SetStatus(ReadOutputEncoding(ctx, &output_));
    ctx.SetStatus(ReadInputEncoding(ctx, &input_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, input.shape()));
    const std::string* in = input.flat<std::string>().data();
    std::string* z = out->flat<std::string>().data();
    bool malformed = false;
    for (int64_t i = 0; i < input.NumElements(); ++i) {
      std::string encoded;
      DecodeString(input_, options_, in[i], &malformed,
                   [&](int32_t c, size_t) { unicode::AppendEncoded(output_, c, &encoded); });
      z[i] = std::move(encoded);
    }
    if (options_.strict && malformed) return absl::InvalidArgumentError(kInvalidFormatting);
    return absl::OkStatus();
  }

 private:
  ErrorOptions options_;
  InputEncoding input_ = InputEncoding::kUtf8;
  OutputEncoding output_ = OutputEncoding::kUtf8;
};

class UnicodeEncodeOp final : public OpKernel {
 public:
  explicit UnicodeEncodeOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ReadOutputEncoding(ctx, &output_));
    ctx.SetStatus(ReadErrorOptions(ctx, false, &options_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& values_t = ctx.input(0);
    const Tensor& splits_t = ctx.input(1);
    if (values_t.shape().rank() != 1 || splits_t.shape().rank() != 1) {
      return absl::InvalidArgumentError(
          "Both the input_tensor and input_splits should be of rank 1.");
    }
    const int64_t num_splits = splits_t.NumElements();
    if (num_splits == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Input_splits should contain elements, but given input_values has ",
                       num_splits, " elements"));
    }
    std::vector<int64_t> splits(num_splits);
    for (int64_t i = 0; i < num_splits; ++i) {
      splits[i] =
          splits_t.dtype() == DT_INT32 ? splits_t.flat<int32_t>()[i] : splits_t.flat<int64_t>()[i];
    }
    const int64_t num_values = values_t.NumElements();
    if (splits[0] != 0) {
      return absl::InvalidArgumentError("First value in input_splits must be zero.");
    }
    if (splits[num_splits - 1] != num_values) {
      return absl::InvalidArgumentError(
          "Last value in input_splits must be equal to length of input_tensor.");
    }
    for (int64_t i = 1; i < num_splits; ++i) {
      if (splits[i] < splits[i - 1]) {
        return absl::InvalidArgumentError(
            "Values in input_splits must be equal or in ascending order.");
      }
    }
    const int32_t* values = values_t.flat<int32_t>().data();
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, TensorShape({num_splits - 1})));
    std::string* z = out->flat<std::string>().data();
    for (int64_t row = 0; row + 1 < num_splits; ++row) {
      std::string encoded;
      for (int64_t i = splits[row]; i < splits[row + 1]; ++i) {
        int32_t c = values[i];
        if (!unicode::IsValidCodePoint(c)) {
          if (options_.strict) {
            return absl::InvalidArgumentError(
                "Code point is out of range for Unicode, or is a surrogate.");
          }
          if (options_.ignore) continue;
          c = options_.subst;
        }
        unicode::AppendEncoded(output_, c, &encoded);
      }
      z[row] = std::move(encoded);
    }
    return absl::OkStatus();
  }

 private:
  ErrorOptions options_;
  OutputEncoding output_ = OutputEncoding::kUtf8;
};

REGISTER_KERNEL(
    KernelDefBuilder("UnicodeDecode").Device(kDeviceCpu).TypeConstraint("Tsplits", SplitTypes()),
    UnicodeDecodeOp);
REGISTER_KERNEL(KernelDefBuilder("UnicodeDecodeWithOffsets")
                    .Device(kDeviceCpu)
                    .TypeConstraint("Tsplits", SplitTypes()),
                UnicodeDecodeOp);
REGISTER_KERNEL(
    KernelDefBuilder("UnicodeEncode").Device(kDeviceCpu).TypeConstraint("Tsplits", SplitTypes()),
    UnicodeEncodeOp);
REGISTER_KERNEL(KernelDefBuilder("UnicodeTranscode").Device(kDeviceCpu), UnicodeTranscodeOp);

}  // namespace
}  // namespace rill
