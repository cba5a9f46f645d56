// Byte-encoding kernels on the CPU, as TensorFlow's:
//   EncodeBase64: web-safe base64 (alphabet A-Z a-z 0-9 - _) of each string, '=' padding with pad.
//   DecodeBase64: the inverse; padding optional, a 4-character group with padding only at the end.
//   DecodeRaw: each string's bytes as out_type values (little- or big-endian): the output is the
//     input's shape plus [bytes / size], 0 when the strings are empty or there are none.
// Errors (InvalidArgument, TensorFlow's texts): "Invalid character found in base64.", "Base64
// string length cannot be 1 modulo 4.", "DecodeRaw requires input strings to all be the same size,
// but element 1 has size 4 != 8", "Input to DecodeRaw has length 3 that is not a multiple of 4, the
// size of int32".
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"

namespace rill {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string Encode(const std::string& in, bool pad) {
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= in.size(); i += 3) {
    const uint32_t v = (static_cast<uint8_t>(in[i]) << 16) |
                       (static_cast<uint8_t>(in[i + 1]) << 8) | static_cast<uint8_t>(in[i + 2]);
    for (int shift = 18; shift >= 0; shift -= 6) out.push_back(kAlphabet[(v >> shift) & 63]);
  }
  const size_t rest = in.size() - i;
  if (rest > 0) {
    uint32_t v = static_cast<uint8_t>(in[i]) << 16;
    if (rest == 2) v |= static_cast<uint8_t>(in[i + 1]) << 8;
    for (size_t k = 0; k <= rest; ++k) out.push_back(kAlphabet[(v >> (18 - 6 * k)) & 63]);
    if (pad) out.append(3 - rest, '=');
  }
  return out;
}

// The 6-bit value of a web-safe base64 character, -1 for any other.
int Sextet(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}

// Appends the 3 bytes of 4 characters; InvalidArgument for a character outside the alphabet.
absl::Status DecodeGroup(const char* g, std::string* out) {
  uint32_t v = 0;
  for (int k = 0; k < 4; ++k) {
    const int s = Sextet(g[k]);
    if (s < 0) return absl::InvalidArgumentError("Invalid character found in base64.");
    v = (v << 6) | static_cast<uint32_t>(s);
  }
  out->push_back(static_cast<char>(v >> 16));
  out->push_back(static_cast<char>(v >> 8));
  out->push_back(static_cast<char>(v));
  return absl::OkStatus();
}

absl::StatusOr<std::string> Decode(const std::string& in) {
  std::string out;
  const char* p = in.data();
  const char* end = p + in.size();
  if (p == end) return out;
  for (; end - p > 4; p += 4) RILL_RETURN_IF_ERROR(DecodeGroup(p, &out));
  if (end - p == 4) {  // the last group: "xx==" or "xxx=" are padded
    if (p[2] == '=' && p[3] == '=') {
      end -= 2;
    } else if (p[3] == '=') {
      end -= 1;
    }
  }
  const int rest = static_cast<int>(end - p);
  if (rest == 1) return absl::InvalidArgumentError("Base64 string length cannot be 1 modulo 4.");
  char tail[4] = {'A', 'A', 'A', 'A'};
  std::memcpy(tail, p, rest);
  RILL_RETURN_IF_ERROR(DecodeGroup(tail, &out));
  out.resize(out.size() - 3 + (rest - 1));
  return out;
}

class EncodeBase64Op final : public OpKernel {
 public:
  explicit EncodeBase64Op(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("pad", &pad_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in.shape()));
    auto s = in.flat<std::string>();
    auto z = out->flat<std::string>();
    for (size_t i = 0; i < s.size(); ++i) z[i] = Encode(s[i], pad_);
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  bool pad_ = false;
};

class DecodeBase64Op final : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in.shape()));
    auto s = in.flat<std::string>();
    auto z = out->flat<std::string>();
    for (size_t i = 0; i < s.size(); ++i) {
      RILL_ASSIGN_OR_RETURN(z[i], Decode(s[i]));
    }
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

class DecodeRawOp final : public OpKernel {
 public:
  explicit DecodeRawOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("out_type", &out_type_));
    ctx.SetStatus(ctx.GetAttr("little_endian", &little_endian_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    auto s = in.flat<std::string>();
    int64_t size = -1;
    for (size_t i = 0; i < s.size(); ++i) {
      const int64_t n = static_cast<int64_t>(s[i].size());
      if (size == -1) {
        size = n;
      } else if (n != size) {
        return absl::InvalidArgumentError(
            absl::StrCat("DecodeRaw requires input strings to all be the same size, but element ",
                         i, " has size ", size, " != ", n));
      }
    }
    std::vector<int64_t> dims(in.shape().dims().begin(), in.shape().dims().end());
    const int64_t width = DataTypeSize(out_type_);
    if (size > 0 && size % width != 0) {
      return absl::InvalidArgumentError(absl::StrCat("Input to DecodeRaw has length ", size,
                                                     " that is not a multiple of ", width,
                                                     ", the size of ", DataTypeString(out_type_)));
    }
    dims.push_back(size > 0 ? size / width : 0);
    RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::FromDims(dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    if (size <= 0) return absl::OkStatus();
    char* z = static_cast<char*>(out->raw_data());
    for (size_t i = 0; i < s.size(); ++i) {
      char* row = z + i * size;
      std::memcpy(row, s[i].data(), size);
      if (!little_endian_ && width > 1) {  // the host is little-endian
        for (int64_t e = 0; e < size; e += width) std::reverse(row + e, row + e + width);
      }
    }
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  DataType out_type_ = DT_INVALID;
  bool little_endian_ = true;
};

REGISTER_KERNEL(KernelDefBuilder("EncodeBase64").Device(kDeviceCpu), EncodeBase64Op);
REGISTER_KERNEL(KernelDefBuilder("DecodeBase64").Device(kDeviceCpu), DecodeBase64Op);
REGISTER_KERNEL(KernelDefBuilder("DecodeRaw")
                    .Device(kDeviceCpu)
                    .TypeConstraint("out_type", {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_INT32, DT_UINT8,
                                                 DT_INT16, DT_INT8, DT_INT64, DT_BOOL}),
                DecodeRawOp);

}  // namespace
}  // namespace rill
