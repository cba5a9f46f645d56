#include "core/io/tensor_bundle.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <new>
#include <sstream>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/errno_status.h"
#include "core/io/crc32c.h"
#include "core/io/table.h"
#include "core/status_macros.h"
#include "core/tensor_shape.h"

namespace rill {
namespace {

constexpr uint64_t kMaxIndexBytes = (uint64_t{1} << 31) - 1;

absl::StatusOr<std::string> ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("Cannot open ", path));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The size of a data file, which must be a regular file: a device or a directory would be read
// without end or not at all.
absl::StatusOr<uint64_t> DataFileSize(const std::string& prefix, const std::string& file) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(file, ec);
  if (!std::filesystem::exists(status)) {
    return absl::DataLossError(
        absl::StrCat("Checkpoint ", prefix, " is missing its data file ", file));
  }
  if (!std::filesystem::is_regular_file(status)) {
    return absl::DataLossError(
        absl::StrCat("Checkpoint ", prefix, "'s data file ", file, " is not a regular file"));
  }
  const uint64_t size = std::filesystem::file_size(file, ec);
  if (ec) {
    return absl::DataLossError(
        absl::StrCat("Cannot read checkpoint data file ", file, ": ", ec.message()));
  }
  return size;
}

// Reads bytes [offset, offset + size) of `file` into `out`. Only a tensor's own bytes are read: a
// data file may be larger than memory (or sparse).
absl::Status ReadFileRange(const std::string& file, uint64_t offset, uint64_t size, char* out) {
  if (size == 0) return absl::OkStatus();
  std::ifstream in(file, std::ios::binary);
  if (in) in.seekg(static_cast<std::streamoff>(offset));
  if (in) in.read(out, static_cast<std::streamsize>(size));
  if (!in || static_cast<uint64_t>(in.gcount()) != size) {
    return absl::DataLossError(absl::StrCat("Cannot read bytes [", offset, ", ", offset + size,
                                            ") of checkpoint data file ", file));
  }
  return absl::OkStatus();
}

// Writes `bytes` to `path`; a failed open, write or close is TensorFlow's IOError for its errno
// ("<path>; No such file or directory" NotFound, PermissionDenied, FailedPrecondition for a
// directory, ResourceExhausted for a full disk).
absl::Status WriteWholeFile(const std::string& path, const std::string& bytes) {
  std::FILE* out = std::fopen(path.c_str(), "wb");
  if (out == nullptr) return IOError(path, errno);
  const size_t written = std::fwrite(bytes.data(), 1, bytes.size(), out);
  const int write_error = written == bytes.size() ? 0 : errno;
  const int close_error = std::fclose(out) == 0 ? 0 : errno;
  if (write_error != 0 || close_error != 0) {
    return IOError(absl::StrCat("Failed writing ", path), write_error ? write_error : close_error);
  }
  return absl::OkStatus();
}

// TensorFlow's BundleWriter creates the prefix's directory (one level, as its Env::CreateDir):
// a prefix in a missing directory whose parent exists is saved; deeper missing directories, a
// file where the directory should be, or a directory that cannot be written are IOErrors.
absl::Status CreatePrefixDirectory(const std::string& prefix) {
  const std::string dir = std::filesystem::path(prefix).parent_path().string();
  if (dir.empty() || ::mkdir(dir.c_str(), 0755) == 0 || errno == EEXIST) {
    return absl::OkStatus();
  }
  return IOError(dir, errno);
}

void PutVarint64(std::string* out, uint64_t v) {
  while (v >= 128) {
    out->push_back(static_cast<char>(v | 128));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

bool GetVarint64(const char** p, const char* limit, uint64_t* v) {
  uint64_t result = 0;
  for (int shift = 0; shift <= 63 && *p < limit; shift += 7) {
    const auto byte = static_cast<unsigned char>(**p);
    ++*p;
    result |= static_cast<uint64_t>(byte & 127) << shift;
    if ((byte & 128) == 0) {
      *v = result;
      return true;
    }
  }
  return false;
}

// The CRC TensorFlow folds over a string length: 4 bytes when it fits, else 8 (compatibility).
uint32_t ExtendWithLength(uint32_t crc, uint64_t length) {
  if (length <= UINT32_MAX) {
    const uint32_t l32 = static_cast<uint32_t>(length);
    return crc32c::Extend(crc, reinterpret_cast<const char*>(&l32), 4);
  }
  return crc32c::Extend(crc, reinterpret_cast<const char*>(&length), 8);
}

// TensorFlow's CheckVersions for a bundle header: Rill reads what TensorFlow 2.21 reads
// (kTensorBundleVersion 1, minimum producer 0), with its texts.
absl::Status CheckBundleVersions(const VersionDef& v) {
  constexpr int kBundleVersion = 1;
  constexpr int kBundleMinProducer = 0;
  if (v.producer() < kBundleMinProducer) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Checkpoint producer version ", v.producer(), " below min producer ", kBundleMinProducer,
        " supported by Rill.  Please regenerate your checkpoint."));
  }
  if (v.min_consumer() > kBundleVersion) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Checkpoint min consumer version ", v.min_consumer(), " above current version ",
        kBundleVersion, " for Rill.  Please upgrade Rill."));
  }
  for (int bad : v.bad_consumers()) {
    if (bad == kBundleVersion) {
      return absl::InvalidArgumentError(
          absl::StrCat("Checkpoint disallows consumer version ", bad,
                       ".  Please upgrade Rill: this version is likely buggy."));
    }
  }
  return absl::OkStatus();
}

}  // namespace

std::string BundleIndexFilename(const std::string& prefix) { return prefix + ".index"; }
std::string BundleDataFilename(const std::string& prefix, int shard, int num_shards) {
  return absl::StrFormat("%s.data-%05d-of-%05d", prefix, shard, num_shards);
}

absl::StatusOr<std::unique_ptr<BundleReader>> BundleReader::Open(const std::string& prefix) {
  const std::string index_file = BundleIndexFilename(prefix);
  // An index is a table of small entries; a device or a huge file would be read without end.
  std::error_code ec;
  if (std::filesystem::exists(index_file, ec)) {
    if (!std::filesystem::is_regular_file(index_file, ec)) {
      return absl::DataLossError(
          absl::StrCat("Checkpoint index ", index_file, " is not a regular file"));
    }
    const uint64_t size = std::filesystem::file_size(index_file, ec);
    if (!ec && size > kMaxIndexBytes) {
      return absl::DataLossError(absl::StrCat("Checkpoint index ", index_file, " is ", size,
                                              " bytes, more than ", kMaxIndexBytes,
                                              " (protobuf's limit on a message)"));
    }
  }
  absl::StatusOr<std::string> bytes = ReadWholeFile(index_file);
  if (!bytes.ok()) {
    return absl::NotFoundError(absl::StrCat(
        "Unsuccessful TensorSliceReader constructor: Failed to find any matching files for ",
        prefix, " (no ", index_file,
        "; pass the checkpoint prefix, e.g. model.ckpt-1000, "
        "not a directory or a .data file)"));
  }
  RILL_ASSIGN_OR_RETURN(std::vector<TableEntry> table, ReadTable(*bytes, index_file));
  std::unique_ptr<BundleReader> r(new BundleReader(prefix));
  bool has_header = false;
  for (const TableEntry& e : table) {
    if (e.key.empty()) {
      if (!r->header_.ParseFromString(e.value)) {
        return absl::DataLossError(absl::StrCat("Corrupt bundle header in ", index_file));
      }
      has_header = true;
      continue;
    }
    BundleEntryProto entry;
    if (!entry.ParseFromString(e.value)) {
      return absl::DataLossError(
          absl::StrCat("Corrupt entry for tensor '", e.key, "' in ", index_file));
    }
    r->entries_.emplace(e.key, std::move(entry));
  }
  if (!has_header) {
    return absl::DataLossError(absl::StrCat(index_file,
                                            " has no bundle header (not a "
                                            "TensorFlow V2 checkpoint index?)"));
  }
  RILL_RETURN_IF_ERROR(CheckBundleVersions(r->header_.version()));
  if (r->header_.endianness() != BundleHeaderProto::LITTLE) {
    return absl::UnimplementedError(
        absl::StrCat(index_file, " was written big-endian; Rill reads little-endian bundles"));
  }
  return r;
}

std::vector<std::string> BundleReader::Keys() const {
  std::vector<std::string> out;
  for (const auto& [k, e] : entries_) out.push_back(k);
  return out;
}

absl::StatusOr<BundleEntryProto> BundleReader::Entry(const std::string& key) const {
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    return absl::NotFoundError(absl::StrCat("Key ", key, " not found in checkpoint ", prefix_));
  }
  return it->second;
}

absl::StatusOr<Tensor> BundleReader::Lookup(const std::string& key, Allocator* allocator) const {
  RILL_ASSIGN_OR_RETURN(BundleEntryProto entry, Entry(key));
  if (entry.slices_size() > 0) {
    return absl::UnimplementedError(absl::StrCat(
        "Tensor ", key, " in checkpoint ", prefix_,
        " is saved as slices (a partitioned variable); Rill restores whole tensors only"));
  }
  if (entry.shard_id() < 0 || entry.shard_id() >= std::max(header_.num_shards(), 1)) {
    return absl::DataLossError(absl::StrCat("Tensor ", key, " in checkpoint ", prefix_,
                                            " names data shard ", entry.shard_id(), " of ",
                                            header_.num_shards()));
  }
  const std::string file = BundleDataFilename(prefix_, entry.shard_id(), header_.num_shards());
  absl::StatusOr<TensorShape> shape = TensorShape::FromProto(entry.shape());
  if (!shape.ok()) {
    return absl::DataLossError(absl::StrCat("Tensor ", key, " in ", BundleIndexFilename(prefix_),
                                            " has a bad shape: ", shape.status().message()));
  }
  RILL_ASSIGN_OR_RETURN(const uint64_t file_size, DataFileSize(prefix_, file));
  if (entry.offset() < 0 || entry.size() < 0 || static_cast<uint64_t>(entry.offset()) > file_size ||
      static_cast<uint64_t>(entry.size()) > file_size - entry.offset()) {
    return absl::DataLossError(
        absl::StrCat("Tensor ", key, ": bytes [", entry.offset(), ", ",
                     static_cast<uint64_t>(entry.offset()) + static_cast<uint64_t>(entry.size()),
                     ") lie past the end of ", file, " (", file_size, " bytes; truncated file?)"));
  }
  // The entry's size bounds its element count before anything is allocated: each string takes
  // at least its length's byte, and other dtypes exactly their size.
  const int element_size = entry.dtype() == DT_STRING ? 1 : DataTypeSize(entry.dtype());
  if (element_size > 0 &&
      (shape->num_elements() > entry.size() / element_size ||
       (entry.dtype() != DT_STRING && shape->num_elements() * element_size != entry.size()))) {
    return absl::DataLossError(
        absl::StrCat("Tensor ", key, " in ", file, " holds ", entry.size(), " bytes, but shape ",
                     shape->DebugString(), " of ", DataTypeString(entry.dtype()), " needs ",
                     entry.dtype() == DT_STRING ? "at least " : "",
                     absl::StrCat(shape->num_elements(), " x ", element_size)));
  }
  absl::StatusOr<Tensor> allocated = Tensor::Allocate(allocator, entry.dtype(), *shape);
  if (!allocated.ok()) {
    if (absl::IsResourceExhausted(allocated.status())) return allocated.status();
    return absl::DataLossError(
        absl::StrCat("Tensor ", key, " in ", file, " has dtype ", DataTypeString(entry.dtype()),
                     ", which Rill cannot hold: ", allocated.status().message()));
  }
  Tensor t = *std::move(allocated);
  uint32_t crc = 0;
  if (entry.dtype() == DT_STRING) {
    // Lengths, their checksum and the bytes: read whole, as the entry's size says.
    std::string bytes;
    try {
      bytes.resize(static_cast<size_t>(entry.size()));
    } catch (const std::bad_alloc&) {
      return absl::ResourceExhaustedError(absl::StrCat("Tensor ", key, " in ", file, " holds ",
                                                       entry.size(),
                                                       " bytes of strings, more than the host "
                                                       "can allocate"));
    }
    RILL_RETURN_IF_ERROR(ReadFileRange(file, entry.offset(), entry.size(), bytes.data()));
    const char* p = bytes.data();
    const char* limit = p + bytes.size();
    auto strings = t.flat<std::string>();
    std::vector<uint64_t> lengths(strings.size());
    for (uint64_t& l : lengths) {
      if (!GetVarint64(&p, limit, &l)) {
        return absl::DataLossError(
            absl::StrCat("Tensor ", key, " in ", file, ": bad string length"));
      }
      crc = ExtendWithLength(crc, l);
    }
    if (limit - p < 4)
      return absl::DataLossError(absl::StrCat("Tensor ", key, " in ", file, " is truncated"));
    uint32_t length_checksum;
    std::memcpy(&length_checksum, p, 4);
    if (crc32c::Unmask(length_checksum) != crc) {
      return absl::DataLossError(absl::StrCat("Tensor ", key, " in ", file,
                                              ": the string lengths' checksum does not match"));
    }
    crc = crc32c::Extend(crc, p, 4);
    p += 4;
    for (size_t i = 0; i < strings.size(); ++i) {
      if (static_cast<uint64_t>(limit - p) < lengths[i]) {
        return absl::DataLossError(absl::StrCat("Tensor ", key, " in ", file, " is truncated"));
      }
      strings[i].assign(p, lengths[i]);
      crc = crc32c::Extend(crc, p, lengths[i]);
      p += lengths[i];
    }
  } else {
    if (static_cast<uint64_t>(entry.size()) != t.TotalBytes()) {
      return absl::DataLossError(absl::StrCat(
          "Tensor ", key, " in ", file, " holds ", entry.size(), " bytes, but shape ",
          shape->DebugString(), " of ", DataTypeString(entry.dtype()), " needs ", t.TotalBytes()));
    }
    char* out = static_cast<char*>(t.raw_data());
    RILL_RETURN_IF_ERROR(ReadFileRange(file, entry.offset(), t.TotalBytes(), out));
    crc = crc32c::Value(out, t.TotalBytes());
  }
  if (crc32c::Unmask(entry.crc32c()) != crc) {
    return absl::DataLossError(absl::StrCat(
        "Checksum does not match: stored ", crc32c::Unmask(entry.crc32c()),
        " vs. calculated on the restored bytes ", crc, " (tensor ", key, " in ", file, ")"));
  }
  return t;
}

absl::Status BundleWriter::Add(const std::string& key, const Tensor& tensor) {
  if (key.empty()) return absl::InvalidArgumentError("A checkpoint tensor needs a name");
  if (entries_.count(key) > 0) {
    return absl::InvalidArgumentError(absl::StrCat("Adding duplicate key: ", key));
  }
  const DataType dtype = tensor.dtype();
  if (dtype == DT_VARIANT || dtype == DT_RESOURCE || !IsSupportedDataType(dtype)) {
    return absl::InvalidArgumentError(absl::StrCat("Cannot save tensor ", key, " of dtype ",
                                                   DataTypeString(dtype), " in a checkpoint"));
  }
  BundleEntryProto entry;
  entry.set_dtype(dtype);
  TensorShapeProto* shape = entry.mutable_shape();  // present even for scalars, as TensorFlow
  for (int64_t d : tensor.shape().dims()) shape->add_dim()->set_size(d);
  entry.set_shard_id(0);
  entry.set_offset(static_cast<int64_t>(data_.size()));
  uint32_t crc = 0;
  if (dtype == DT_STRING) {
    std::string lengths;
    for (const std::string& s : tensor.flat<std::string>()) {
      PutVarint64(&lengths, s.size());
      crc = ExtendWithLength(crc, s.size());
    }
    data_.append(lengths);
    const uint32_t length_checksum = crc32c::Mask(crc);
    data_.append(reinterpret_cast<const char*>(&length_checksum), 4);
    crc = crc32c::Extend(crc, reinterpret_cast<const char*>(&length_checksum), 4);
    for (const std::string& s : tensor.flat<std::string>()) {
      data_.append(s);
      crc = crc32c::Extend(crc, s.data(), s.size());
    }
  } else {
    const char* bytes = static_cast<const char*>(tensor.raw_data());
    data_.append(bytes, tensor.TotalBytes());
    crc = crc32c::Value(bytes, tensor.TotalBytes());
  }
  entry.set_size(static_cast<int64_t>(data_.size()) - entry.offset());
  entry.set_crc32c(crc32c::Mask(crc));
  entries_.emplace(key, std::move(entry));
  return absl::OkStatus();
}

absl::Status BundleWriter::Finish() {
  RILL_RETURN_IF_ERROR(CreatePrefixDirectory(prefix_));
  RILL_RETURN_IF_ERROR(WriteWholeFile(BundleDataFilename(prefix_, 0, 1), data_));
  BundleHeaderProto header;
  header.set_num_shards(1);
  header.set_endianness(BundleHeaderProto::LITTLE);
  header.mutable_version()->set_producer(1);
  TableBuilder table;
  table.Add("", header.SerializeAsString());
  for (const auto& [key, entry] : entries_) table.Add(key, entry.SerializeAsString());
  RILL_ASSIGN_OR_RETURN(std::string index, table.Finish());
  return WriteWholeFile(BundleIndexFilename(prefix_), index);
}

absl::Status MergeBundles(const std::vector<std::string>& prefixes, const std::string& destination,
                          bool delete_old, bool allow_missing) {
  std::vector<std::unique_ptr<BundleReader>> readers;
  int total_shards = 0;
  for (const std::string& p : prefixes) {
    absl::StatusOr<std::unique_ptr<BundleReader>> r = BundleReader::Open(p);
    if (!r.ok()) {
      if (!absl::IsNotFound(r.status())) return r.status();
      if (allow_missing) continue;
      // TensorFlow's text: the flag is what the user can change.
      return absl::InvalidArgumentError(absl::StrCat("allow_missing_files was set to false and ", p,
                                                     " did not exist. ", r.status().message()));
    }
    total_shards += std::max((*r)->header().num_shards(), 1);
    readers.push_back(*std::move(r));
  }
  if (readers.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("MergeV2Checkpoints: none of the ", prefixes.size(),
                     " checkpoint prefixes exists, nothing to merge into ", destination));
  }
  // The destination's directory is made with its parents, as TensorFlow's MergeBundles does.
  std::error_code ec;
  const std::filesystem::path merged_dir = std::filesystem::path(destination).parent_path();
  if (!merged_dir.empty() && !std::filesystem::exists(merged_dir, ec)) {
    std::filesystem::create_directories(merged_dir, ec);
    if (ec) return IOError(merged_dir.string(), ec.value());
  }
  std::map<std::string, BundleEntryProto> merged;
  int next_shard = 0;
  for (const auto& r : readers) {
    const int shards = std::max(r->header().num_shards(), 1);
    for (const std::string& key : r->Keys()) {
      BundleEntryProto e = *r->Entry(key);
      e.set_shard_id(e.shard_id() + next_shard);
      if (!merged.emplace(key, std::move(e)).second) {
        return absl::InvalidArgumentError(absl::StrCat("MergeV2Checkpoints: tensor ", key,
                                                       " appears in more than one checkpoint"));
      }
    }
    for (int s = 0; s < shards; ++s) {
      std::filesystem::rename(BundleDataFilename(r->prefix(), s, shards),
                              BundleDataFilename(destination, next_shard + s, total_shards), ec);
      if (ec) {
        return absl::InternalError(absl::StrCat("MergeV2Checkpoints: cannot move ",
                                                BundleDataFilename(r->prefix(), s, shards), ": ",
                                                ec.message()));
      }
    }
    next_shard += shards;
  }
  BundleHeaderProto header;
  header.set_num_shards(total_shards);
  header.set_endianness(BundleHeaderProto::LITTLE);
  header.mutable_version()->set_producer(1);
  TableBuilder table;
  table.Add("", header.SerializeAsString());
  for (const auto& [key, entry] : merged) table.Add(key, entry.SerializeAsString());
  RILL_ASSIGN_OR_RETURN(std::string index, table.Finish());
  RILL_RETURN_IF_ERROR(WriteWholeFile(BundleIndexFilename(destination), index));
  // The sources' index files go whatever delete_old says (their data files were moved), as in
  // TensorFlow; delete_old also removes their directories once empty.
  for (const auto& r : readers) {
    if (r->prefix() == destination) continue;
    std::filesystem::remove(BundleIndexFilename(r->prefix()), ec);
    if (delete_old) {
      const auto dir = std::filesystem::path(r->prefix()).parent_path();
      if (!dir.empty() && std::filesystem::is_empty(dir, ec)) std::filesystem::remove(dir, ec);
    }
  }
  return absl::OkStatus();
}

}  // namespace rill
