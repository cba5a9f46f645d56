// The sorted string table TensorFlow's checkpoint `.index` files use (LevelDB's format, as
// tensorflow/core/lib/io/table writes it): data blocks of prefix-compressed key/value entries
// with restart points, each followed by a compression byte and a masked CRC32C; an index block
// of (last key, block handle); an empty metaindex block; and a 48-byte footer ending in the magic
// number 0xdb4775248b80fb57. Only uncompressed blocks (what TensorFlow writes) are read.
//
//   RILL_ASSIGN_OR_RETURN(std::vector<TableEntry> entries, ReadTable(file_bytes, "x.index"));
//   TableBuilder b;  b.Add("", header);  b.Add("w", entry);  std::string bytes = b.Finish();
//
// Errors: DataLoss naming the file for a bad magic number, a truncated file, a block handle out
// of range, a checksum mismatch, a compressed block, malformed varints or entries. Pure
// functions / a single-threaded builder.
#ifndef RILL_CORE_IO_TABLE_H_
#define RILL_CORE_IO_TABLE_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace rill {

struct TableEntry {
  std::string key;
  std::string value;
};

// Every entry of the table in `bytes`, in key order. `file` names the file in errors.
absl::StatusOr<std::vector<TableEntry>> ReadTable(absl::string_view bytes, absl::string_view file);

class TableBuilder {
 public:
  // Keys must be added in strictly increasing byte order (InvalidArgument from Finish
  // otherwise).
  void Add(absl::string_view key, absl::string_view value);
  absl::StatusOr<std::string> Finish();

 private:
  void FlushBlock();

  std::string out_;
  std::string block_;               // the data block being built
  std::vector<uint32_t> restarts_;  // of block_
  int since_restart_ = 0;
  std::string last_key_;
  std::vector<std::pair<std::string, std::string>> index_;  // (last key, block handle)
  bool out_of_order_ = false;
  bool any_ = false;
};

}  // namespace rill

#endif  // RILL_CORE_IO_TABLE_H_
