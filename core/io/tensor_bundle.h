// TensorFlow's checkpoint format ("tensor bundle", V2), read and written by Rill's own code: a
// checkpoint with prefix P is `P.index` (a table, core/io/table.h: key "" -> BundleHeaderProto,
// tensor name -> BundleEntryProto) and data shards `P.data-00000-of-00001` holding each tensor's
// bytes (little-endian; strings as varint64 lengths, a masked CRC32C of the lengths, then the
// bytes), each checksummed with a masked CRC32C in its entry.
//
//   RILL_ASSIGN_OR_RETURN(std::unique_ptr<BundleReader> r, BundleReader::Open("/tmp/model.ckpt"));
//   RILL_ASSIGN_OR_RETURN(Tensor w, r->Lookup("w"));
//   BundleWriter w("/tmp/out.ckpt");  w.Add("w", tensor);  RILL_RETURN_IF_ERROR(w.Finish());
//
// Errors name the tensor and the file: NotFound "Unsuccessful TensorSliceReader constructor:
// Failed to find any matching files for P" (no P.index), NotFound "Key w not found in
// checkpoint P"; DataLoss for a truncated or corrupt index or shard, a size that does not match
// the entry's shape and dtype, or a checksum mismatch ("Checksum does not match: stored ... vs.
// calculated on the restored bytes ..."); Unimplemented for partitioned (sliced) tensors and
// big-endian bundles. A reader is immutable after Open (thread-safe); a writer is single-threaded.
#ifndef RILL_CORE_IO_TENSOR_BUNDLE_H_
#define RILL_CORE_IO_TENSOR_BUNDLE_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/allocator.h"
#include "core/mutex.h"
#include "core/tensor.h"
#include "proto/tensor_bundle.pb.h"

namespace rill {

// "P.index" and "P.data-00003-of-00010".
std::string BundleIndexFilename(const std::string& prefix);
std::string BundleDataFilename(const std::string& prefix, int shard, int num_shards);

class BundleReader {
 public:
  static absl::StatusOr<std::unique_ptr<BundleReader>> Open(const std::string& prefix);

  // The tensor named `key`, checksum verified.
  absl::StatusOr<Tensor> Lookup(const std::string& key,
                                Allocator* allocator = CpuAllocator::Default()) const;
  // Its entry (dtype, shape) without reading the data; NotFound as Lookup.
  absl::StatusOr<BundleEntryProto> Entry(const std::string& key) const;
  // Every tensor name, sorted.
  std::vector<std::string> Keys() const;
  const BundleHeaderProto& header() const { return header_; }
  const std::string& prefix() const { return prefix_; }

 private:
  explicit BundleReader(std::string prefix) : prefix_(std::move(prefix)) {}

  const std::string prefix_;
  BundleHeaderProto header_;
  std::map<std::string, BundleEntryProto> entries_;
};

class BundleWriter {
 public:
  explicit BundleWriter(std::string prefix) : prefix_(std::move(prefix)) {}
  // InvalidArgument for a name added twice or a dtype with no bundle encoding (variant,
  // resource).
  absl::Status Add(const std::string& key, const Tensor& tensor);
  // Writes P.data-00000-of-00001 and P.index, making P's directory when its parent exists (as
  // TensorFlow); a file that cannot be written is TensorFlow's IOError for the errno ("PATH; Not
  // a directory" FailedPrecondition, NotFound, PermissionDenied, ResourceExhausted).
  absl::Status Finish();

 private:
  const std::string prefix_;
  std::string data_;
  std::map<std::string, BundleEntryProto> entries_;
};

// Merges the bundles `prefixes` into one bundle at `destination` (TensorFlow's
// MergeV2Checkpoints): their data shards are renamed to the destination's numbering and one index
// lists every tensor; the destination's directory is made if missing. The old index files go;
// with `delete_old`, so do the directories they leave empty.
// InvalidArgument when a tensor name appears in two bundles.
absl::Status MergeBundles(const std::vector<std::string>& prefixes, const std::string& destination,
                          bool delete_old, bool allow_missing);

}  // namespace rill

#endif  // RILL_CORE_IO_TENSOR_BUNDLE_H_
