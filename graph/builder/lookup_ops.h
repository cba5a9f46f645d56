// Builder wrappers for lookup tables (TensorFlow's C++ API names). Included by
// graph/builder/ops.h.
//
//   Output table = ops::HashTableV2(root, DT_STRING, DT_INT64, "vocab");
//   Operation init = ops::InitializeTableV2(root, table, words, ids);
//   Output ids = ops::LookupTableFindV2(root.WithControlDependencies({init}), table, query,
//                                       ops::Const(root, int64_t{-1}));
//
// Errors are recorded in the scope (see op_builder.h). Thread safety: as Scope.
#ifndef RILL_GRAPH_BUILDER_LOOKUP_OPS_H_
#define RILL_GRAPH_BUILDER_LOOKUP_OPS_H_

#include <cstdint>
#include <string>

#include "core/types.h"
#include "graph/builder/input.h"
#include "graph/builder/scope.h"

namespace rill {
namespace ops {

// Table handles; shared_name "" names the table after the node.
Output HashTableV2(const Scope& scope, DataType key_dtype, DataType value_dtype,
                   const std::string& shared_name = "");
Output MutableHashTableV2(const Scope& scope, DataType key_dtype, DataType value_dtype,
                          const std::string& shared_name = "");
Operation InitializeTableV2(const Scope& scope, const Input& table, const Input& keys,
                            const Input& values);
// Initializes a table from a text file's lines; key_index / value_index: -2 the whole line, -1
// the line number (+ offset), n the n-th field split on delimiter.
struct TextFileInit {
  int64_t key_index = -2, value_index = -1, vocab_size = -1, offset = 0;
  std::string delimiter = "\t";
};
Operation InitializeTableFromTextFileV2(const Scope& scope, const Input& table,
                                        const Input& filename, const TextFileInit& how = {});
Operation LookupTableImportV2(const Scope& scope, const Input& table, const Input& keys,
                              const Input& values);
Operation LookupTableInsertV2(const Scope& scope, const Input& table, const Input& keys,
                              const Input& values);
Output LookupTableFindV2(const Scope& scope, const Input& table, const Input& keys,
                         const Input& default_value);
Output LookupTableSizeV2(const Scope& scope, const Input& table);
struct TableExport {
  Output keys, values;
};
TableExport LookupTableExportV2(const Scope& scope, const Output& table, DataType key_dtype,
                                DataType value_dtype);

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_LOOKUP_OPS_H_
