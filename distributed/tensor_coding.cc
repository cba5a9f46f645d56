#include "distributed/tensor_coding.h"

#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "core/tensor_proto.h"
#include "distributed/protos/worker.pb.h"

namespace rill {
namespace distributed {
namespace {

void PutVarint(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

int VarintSize(uint64_t v) {
  int n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

bool Memcpyable(DataType t) { return DataTypeSize(t) > 0 && IsSupportedDataType(t); }

void ReleaseTensor(void* tensor) { delete static_cast<Tensor*>(tensor); }

// A read position over gRPC's slices.
class Cursor {
 public:
  explicit Cursor(const std::vector<grpc::Slice>* slices) : slices_(slices) {
    for (const grpc::Slice& s : *slices) remaining_ += s.size();
    Settle();
  }

  size_t remaining() const { return remaining_; }
  bool done() const { return index_ >= slices_->size(); }

  bool ReadByte(uint8_t* b) {
    if (done()) return false;
    *b = (*slices_)[index_].begin()[offset_];
    Advance(1);
    return true;
  }
  bool ReadVarint(uint64_t* v) {
    *v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      uint8_t b;
      if (!ReadByte(&b)) return false;
      *v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) return true;
    }
    return false;
  }
  // Copies `n` bytes to `dst` (null: skips them).
  bool Copy(char* dst, size_t n) {
    while (n > 0) {
      if (done()) return false;
      const grpc::Slice& s = (*slices_)[index_];
      const size_t take = std::min(n, s.size() - offset_);
      if (dst != nullptr) {
        std::memcpy(dst, s.begin() + offset_, take);
        dst += take;
      }
      Advance(take);
      n -= take;
    }
    return true;
  }

 private:
  void Advance(size_t n) {
    offset_ += n;
    remaining_ -= n;
    Settle();
  }
  void Settle() {
    while (index_ < slices_->size() && offset_ >= (*slices_)[index_].size()) {
      offset_ = 0;
      ++index_;
    }
  }
  const std::vector<grpc::Slice>* slices_;
  size_t index_ = 0;
  size_t offset_ = 0;
  size_t remaining_ = 0;
};

absl::Status Malformed(const char* what) {
  return absl::InvalidArgumentError(absl::StrCat("Malformed RecvTensorResponse: ", what));
}

// Skips a field of wire type `wire`.
bool SkipField(Cursor* c, int wire) {
  uint64_t v;
  switch (wire) {
    case 0:
      return c->ReadVarint(&v);
    case 1:
      return c->Copy(nullptr, 8);
    case 2:
      return c->ReadVarint(&v) && c->Copy(nullptr, v);
    case 5:
      return c->Copy(nullptr, 4);
    default:
      return false;
  }
}

// Reads the TensorProto of `length` bytes at `c`. The fast path needs dtype and shape before
// tensor_content (how Rill's and TensorFlow's senders write it) and no other value fields;
// anything else is parsed by protobuf from a copy.
absl::Status ReadTensor(Cursor c, uint64_t length, Tensor* value) {
  const Cursor start = c;
  uint64_t consumed = 0;
  DataType dtype = DT_INVALID;
  TensorShapeProto shape_proto;
  bool fast = true, has_content = false;
  Tensor out;
  while (consumed < length) {
    uint64_t key;
    if (!c.ReadVarint(&key)) return Malformed("truncated tensor field");
    consumed += VarintSize(key);
    const int field = static_cast<int>(key >> 3), wire = static_cast<int>(key & 7);
    if (field == 1 && wire == 0) {
      uint64_t v;
      if (!c.ReadVarint(&v)) return Malformed("truncated dtype");
      consumed += VarintSize(v);
      dtype = static_cast<DataType>(v);
    } else if ((field == 2 || field == 4) && wire == 2) {
      uint64_t n;
      if (!c.ReadVarint(&n) || n > c.remaining()) return Malformed("truncated length");
      consumed += VarintSize(n) + n;
      if (field == 2) {
        std::string bytes(n, '\0');
        if (!c.Copy(bytes.data(), n)) return Malformed("truncated tensor_shape");
        if (!shape_proto.ParseFromString(bytes)) return Malformed("bad tensor_shape");
      } else {
        if (has_content || dtype == DT_INVALID || !Memcpyable(dtype)) {
          fast = false;
          if (!c.Copy(nullptr, n)) return Malformed("truncated tensor_content");
          continue;
        }
        RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::FromProto(shape_proto));
        RILL_ASSIGN_OR_RETURN(out,
                              Tensor::AllocateUninitialized(CpuAllocator::Default(), dtype, shape));
        if (out.TotalBytes() != n) {
          return absl::InvalidArgumentError(
              absl::StrCat("Malformed RecvTensorResponse: tensor_content has ", n, " bytes for a ",
                           DataTypeString(dtype), " tensor of shape ", shape.DebugString()));
        }
        if (!c.Copy(static_cast<char*>(out.raw_data()), n)) {
          return Malformed("truncated tensor_content");
        }
        has_content = true;
      }
    } else {
      // version_number, *_val fields, ...: protobuf reads the whole tensor below.
      fast = false;
      break;
    }
  }
  if (fast && has_content && consumed == length) {
    *value = std::move(out);
    return absl::OkStatus();
  }
  // The generic path: protobuf parses a copy of the sub-message.
  if (length > start.remaining()) return Malformed("truncated tensor");
  Cursor again = start;
  std::string bytes(length, '\0');
  if (!again.Copy(bytes.data(), length)) return Malformed("truncated tensor");
  TensorProto proto;
  if (!proto.ParseFromString(bytes)) return Malformed("bad tensor");
  RILL_ASSIGN_OR_RETURN(*value, TensorFromProto(proto));
  return absl::OkStatus();
}

}  // namespace

void EncodeRecvTensorResponse(const Tensor& value, bool is_dead, int64_t send_start_micros,
                              grpc::ByteBuffer* out) {
  std::string trailer;
  if (is_dead) {
    trailer.push_back(0x10);
    PutVarint(1, &trailer);
  }
  if (send_start_micros != 0) {
    trailer.push_back(0x18);
    PutVarint(static_cast<uint64_t>(send_start_micros), &trailer);
  }
  if (!value.IsInitialized() || !Memcpyable(value.dtype())) {
    tensorflow::RecvTensorResponse resp;
    if (value.IsInitialized()) TensorToProto(value, resp.mutable_tensor());
    std::string bytes = resp.SerializeAsString() + trailer;
    grpc::Slice slice(bytes.data(), bytes.size());
    *out = grpc::ByteBuffer(&slice, 1);
    return;
  }
  TensorShapeProto shape;
  for (int64_t d : value.shape().dims()) shape.add_dim()->set_size(d);
  const std::string shape_bytes = shape.SerializeAsString();
  const uint64_t content = value.TotalBytes();
  std::string inner;  // TensorProto up to tensor_content's bytes
  inner.push_back(0x08);
  PutVarint(static_cast<uint64_t>(value.dtype()), &inner);
  inner.push_back(0x12);
  PutVarint(shape_bytes.size(), &inner);
  inner += shape_bytes;
  inner.push_back(0x22);
  PutVarint(content, &inner);
  std::string header;
  header.push_back(0x0a);
  PutVarint(inner.size() + content, &header);
  header += inner;
  std::vector<grpc::Slice> slices;
  slices.emplace_back(header.data(), header.size());
  if (content > 0) {
    auto* keep = new Tensor(value);  // released by gRPC when the bytes are sent
    slices.emplace_back(keep->raw_data(), content, &ReleaseTensor, keep);
  }
  if (!trailer.empty()) slices.emplace_back(trailer.data(), trailer.size());
  *out = grpc::ByteBuffer(slices.data(), slices.size());
}

absl::Status DecodeRecvTensorResponse(const grpc::ByteBuffer& in, Tensor* value, bool* is_dead) {
  std::vector<grpc::Slice> slices;
  if (!in.Dump(&slices).ok()) return Malformed("unreadable buffer");
  Cursor c(&slices);
  *value = Tensor();
  *is_dead = false;
  while (!c.done()) {
    uint64_t key;
    if (!c.ReadVarint(&key)) return Malformed("truncated field");
    const int field = static_cast<int>(key >> 3), wire = static_cast<int>(key & 7);
    if (field == 1 && wire == 2) {
      uint64_t n;
      if (!c.ReadVarint(&n) || n > c.remaining()) return Malformed("truncated tensor length");
      RILL_RETURN_IF_ERROR(ReadTensor(c, n, value));
      if (!c.Copy(nullptr, n)) return Malformed("truncated tensor");
    } else if (field == 2 && wire == 0) {
      uint64_t v;
      if (!c.ReadVarint(&v)) return Malformed("truncated is_dead");
      *is_dead = v != 0;
    } else if (!SkipField(&c, wire)) {
      return Malformed("bad field");
    }
  }
  return absl::OkStatus();
}

}  // namespace distributed
}  // namespace rill
