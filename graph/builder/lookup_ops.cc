#include "graph/builder/lookup_ops.h"

#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {
namespace {

Output Table(const Scope& scope, const char* op, DataType key_dtype, DataType value_dtype,
             const std::string& shared_name) {
  return OpBuilder(scope, op)
      .Attr("key_dtype", key_dtype)
      .Attr("value_dtype", value_dtype)
      .Attr("shared_name", shared_name)
      .Finalize()
      .output(0);
}

Operation Update(const Scope& scope, const char* op, const Input& table, const Input& keys,
                 const Input& values) {
  return OpBuilder(scope, op).Input(table).Input(keys).Input(values).Finalize();
}

}  // namespace

Output HashTableV2(const Scope& scope, DataType key_dtype, DataType value_dtype,
                   const std::string& shared_name) {
  return Table(scope, "HashTableV2", key_dtype, value_dtype, shared_name);
}
Output MutableHashTableV2(const Scope& scope, DataType key_dtype, DataType value_dtype,
                          const std::string& shared_name) {
  return Table(scope, "MutableHashTableV2", key_dtype, value_dtype, shared_name);
}
Operation InitializeTableV2(const Scope& scope, const Input& table, const Input& keys,
                            const Input& values) {
  return Update(scope, "InitializeTableV2", table, keys, values);
}
Operation InitializeTableFromTextFileV2(const Scope& scope, const Input& table,
                                        const Input& filename, const TextFileInit& how) {
  return OpBuilder(scope, "InitializeTableFromTextFileV2")
      .Input(table)
      .Input(filename)
      .Attr("key_index", how.key_index)
      .Attr("value_index", how.value_index)
      .Attr("vocab_size", how.vocab_size)
      .Attr("delimiter", how.delimiter)
      .Attr("offset", how.offset)
      .Finalize();
}
Operation LookupTableImportV2(const Scope& scope, const Input& table, const Input& keys,
                              const Input& values) {
  return Update(scope, "LookupTableImportV2", table, keys, values);
}
Operation LookupTableInsertV2(const Scope& scope, const Input& table, const Input& keys,
                              const Input& values) {
  return Update(scope, "LookupTableInsertV2", table, keys, values);
}
Output LookupTableFindV2(const Scope& scope, const Input& table, const Input& keys,
                         const Input& default_value) {
  return OpBuilder(scope, "LookupTableFindV2")
      .Input(table)
      .Input(keys)
      .Input(default_value)
      .Finalize()
      .output(0);
}
Output LookupTableSizeV2(const Scope& scope, const Input& table) {
  return OpBuilder(scope, "LookupTableSizeV2").Input(table).Finalize().output(0);
}
TableExport LookupTableExportV2(const Scope& scope, const Output& table, DataType key_dtype,
                                DataType value_dtype) {
  Operation op = OpBuilder(scope, "LookupTableExportV2")
                     .Input(table)
                     .Attr("Tkeys", key_dtype)
                     .Attr("Tvalues", value_dtype)
                     .Finalize();
  return {op.output(0), op.output(1)};
}

}  // namespace ops
}  // namespace rill
