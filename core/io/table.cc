#include "core/io/table.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "core/io/crc32c.h"
#include "core/status_macros.h"

namespace rill {
namespace {

constexpr uint64_t kTableMagic = 0xdb4775248b80fb57ull;
constexpr size_t kFooterSize = 48;       // two max-size handles (2 * 20) + 8 bytes of magic
constexpr size_t kBlockTrailerSize = 5;  // compression type + masked crc32c
constexpr size_t kBlockSize = 256 * 1024;
constexpr int kRestartInterval = 16;

uint32_t DecodeFixed32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);  // little-endian hosts only (x86, arm64)
  return v;
}
uint64_t DecodeFixed64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
void PutFixed32(std::string* out, uint32_t v) { out->append(reinterpret_cast<char*>(&v), 4); }
void PutFixed64(std::string* out, uint64_t v) { out->append(reinterpret_cast<char*>(&v), 8); }
void PutVarint64(std::string* out, uint64_t v) {
  while (v >= 128) {
    out->push_back(static_cast<char>(v | 128));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

// Reads a varint from the front of *in; false when malformed or truncated.
bool GetVarint64(absl::string_view* in, uint64_t* v) {
  uint64_t result = 0;
  for (int shift = 0; shift <= 63 && !in->empty(); shift += 7) {
    const auto byte = static_cast<unsigned char>((*in)[0]);
    in->remove_prefix(1);
    result |= static_cast<uint64_t>(byte & 127) << shift;
    if ((byte & 128) == 0) {
      *v = result;
      return true;
    }
  }
  return false;
}

struct BlockHandle {
  uint64_t offset = 0;
  uint64_t size = 0;
};

class Reader {
 public:
  Reader(absl::string_view bytes, absl::string_view file) : bytes_(bytes), file_(file) {}

  absl::Status Corrupt(absl::string_view what) const {
    return absl::DataLossError(absl::StrCat("Corrupted table file ", file_, ": ", what));
  }

  absl::StatusOr<BlockHandle> DecodeHandle(absl::string_view* in) const {
    BlockHandle h;
    if (!GetVarint64(in, &h.offset) || !GetVarint64(in, &h.size)) {
      return Corrupt("bad block handle");
    }
    return h;
  }

  // The block's contents after its checksum was verified.
  absl::StatusOr<absl::string_view> ReadBlock(const BlockHandle& h) const {
    if (h.offset > bytes_.size() || h.size > bytes_.size() - h.offset ||
        bytes_.size() - h.offset - h.size < kBlockTrailerSize) {
      return Corrupt(absl::StrCat("block at offset ", h.offset, " of size ", h.size,
                                  " runs past the end of the file (", bytes_.size(), " bytes)"));
    }
    const char* data = bytes_.data() + h.offset;
    const char type = data[h.size];
    const uint32_t stored = crc32c::Unmask(DecodeFixed32(data + h.size + 1));
    const uint32_t actual = crc32c::Value(data, h.size + 1);  // contents and type byte
    if (stored != actual) {
      return Corrupt(absl::StrCat("checksum mismatch in the block at offset ", h.offset));
    }
    if (type != 0) {
      return Corrupt(absl::StrCat("block at offset ", h.offset, " is compressed (type ",
                                  static_cast<int>(type),
                                  "); only uncompressed tables (what TensorFlow writes) are read"));
    }
    return absl::string_view(data, h.size);
  }

  // Decodes every entry of a block.
  absl::Status ParseBlock(absl::string_view block, std::vector<TableEntry>* out) const {
    if (block.size() < 4) return Corrupt("block too small");
    const uint32_t num_restarts = DecodeFixed32(block.data() + block.size() - 4);
    if (num_restarts > (block.size() - 4) / 4) return Corrupt("bad restart count");
    const size_t limit = block.size() - 4 - 4 * static_cast<size_t>(num_restarts);
    absl::string_view in = block.substr(0, limit);
    std::string key;
    while (!in.empty()) {
      uint64_t shared, non_shared, value_length;
      if (!GetVarint64(&in, &shared) || !GetVarint64(&in, &non_shared) ||
          !GetVarint64(&in, &value_length) || shared > key.size() || non_shared > in.size() ||
          value_length > in.size() - non_shared) {
        return Corrupt("bad entry in block");
      }
      key.resize(shared);
      key.append(in.data(), non_shared);
      in.remove_prefix(non_shared);
      out->push_back({key, std::string(in.substr(0, value_length))});
      in.remove_prefix(value_length);
    }
    return absl::OkStatus();
  }

 private:
  absl::string_view bytes_;
  absl::string_view file_;
};

}  // namespace

absl::StatusOr<std::vector<TableEntry>> ReadTable(absl::string_view bytes, absl::string_view file) {
  Reader r(bytes, file);
  if (bytes.size() < kFooterSize) {
    return r.Corrupt(absl::StrCat("file is too short (", bytes.size(), " bytes) to be a table"));
  }
  const char* footer = bytes.data() + bytes.size() - kFooterSize;
  if (DecodeFixed64(footer + kFooterSize - 8) != kTableMagic) {
    return r.Corrupt("not a table (bad magic number)");
  }
  absl::string_view handles(footer, kFooterSize - 8);
  RILL_ASSIGN_OR_RETURN(BlockHandle metaindex, r.DecodeHandle(&handles));
  (void)metaindex;
  RILL_ASSIGN_OR_RETURN(BlockHandle index, r.DecodeHandle(&handles));
  RILL_ASSIGN_OR_RETURN(absl::string_view index_block, r.ReadBlock(index));
  std::vector<TableEntry> index_entries;
  RILL_RETURN_IF_ERROR(r.ParseBlock(index_block, &index_entries));
  std::vector<TableEntry> out;
  for (const TableEntry& e : index_entries) {
    absl::string_view v = e.value;
    RILL_ASSIGN_OR_RETURN(BlockHandle h, r.DecodeHandle(&v));
    RILL_ASSIGN_OR_RETURN(absl::string_view block, r.ReadBlock(h));
    RILL_RETURN_IF_ERROR(r.ParseBlock(block, &out));
  }
  return out;
}

void TableBuilder::Add(absl::string_view key, absl::string_view value) {
  if (any_ && key <= last_key_) out_of_order_ = true;
  if (block_.empty()) {
    restarts_.push_back(0);
    since_restart_ = 0;
  } else if (since_restart_ >= kRestartInterval) {
    restarts_.push_back(static_cast<uint32_t>(block_.size()));
    since_restart_ = 0;
  }
  size_t shared = 0;  // restart points store whole keys
  if (since_restart_ > 0) {
    const size_t n = std::min(last_key_.size(), key.size());
    while (shared < n && last_key_[shared] == key[shared]) ++shared;
  }
  PutVarint64(&block_, shared);
  PutVarint64(&block_, key.size() - shared);
  PutVarint64(&block_, value.size());
  block_.append(key.data() + shared, key.size() - shared);
  block_.append(value.data(), value.size());
  ++since_restart_;
  last_key_ = std::string(key);
  any_ = true;
  if (block_.size() >= kBlockSize) FlushBlock();
}

namespace {

// Appends block contents plus trailer to *out and returns its handle (encoded).
std::string WriteBlock(std::string contents, std::string* out) {
  std::string handle;
  PutVarint64(&handle, out->size());
  PutVarint64(&handle, contents.size());
  contents.push_back('\0');  // no compression
  const uint32_t crc = crc32c::Mask(crc32c::Value(contents.data(), contents.size()));
  out->append(contents);
  PutFixed32(out, crc);
  return handle;
}

// A block from (key, value) pairs with a restart at every entry (index and metaindex blocks).
std::string SimpleBlock(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string b;
  std::vector<uint32_t> restarts;
  for (const auto& [k, v] : entries) {
    restarts.push_back(static_cast<uint32_t>(b.size()));
    PutVarint64(&b, 0);
    PutVarint64(&b, k.size());
    PutVarint64(&b, v.size());
    b.append(k);
    b.append(v);
  }
  if (restarts.empty()) restarts.push_back(0);
  for (uint32_t r : restarts) PutFixed32(&b, r);
  PutFixed32(&b, static_cast<uint32_t>(restarts.size()));
  return b;
}

}  // namespace

void TableBuilder::FlushBlock() {
  if (block_.empty()) return;
  for (uint32_t r : restarts_) PutFixed32(&block_, r);
  PutFixed32(&block_, static_cast<uint32_t>(restarts_.size()));
  // The index key is the block's last key: >= every key in it and < every key after it.
  index_.emplace_back(last_key_, WriteBlock(std::move(block_), &out_));
  block_.clear();
  restarts_.clear();
  since_restart_ = 0;
}

absl::StatusOr<std::string> TableBuilder::Finish() {
  if (out_of_order_) {
    return absl::InvalidArgumentError("TableBuilder: keys were not added in increasing order");
  }
  FlushBlock();
  const std::string metaindex = WriteBlock(SimpleBlock({}), &out_);
  const std::string index = WriteBlock(SimpleBlock(index_), &out_);
  std::string footer = metaindex + index;
  footer.resize(kFooterSize - 8, '\0');
  PutFixed64(&footer, kTableMagic);
  out_.append(footer);
  return std::move(out_);
}

}  // namespace rill
