// Lookup-table kernels on the CPU (TensorFlow's lookup_table_op.cc semantics; the table is
// kernels/lookup/lookup_table.h, held in the device's ResourceMgr for the session's life):
//   HashTableV2 / MutableHashTableV2: the handle "<container or localhost>/<name>" of the table,
//     created on first run; name: shared_name, else the node name (use_node_name_sharing or not:
//     one table per node per session). InvalidArgument when the name holds a table of other dtypes.
//   InitializeTableV2, LookupTableImportV2, LookupTableInsertV2, LookupTableFindV2,
//   LookupTableSizeV2 (int64 scalar), LookupTableExportV2 (keys and values vectors): LookupTable's
//     methods, with its errors; NotFound "Resource localhost/t does not exist." for a handle no
//     table op made.
// Thread safety: the tables lock themselves; kernels hold no mutable state.
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/lookup/lookup_table.h"
#include "kernels/state/variable.h"

namespace rill {
namespace {

absl::StatusOr<std::shared_ptr<LookupTable>> TableOf(OpKernelContext& ctx) {
  RILL_ASSIGN_OR_RETURN(ResourceHandle h, ResourceHandleFromTensor(ctx.input(0)));
  return ctx.device()->resource_manager()->Lookup<LookupTable>(h.container, h.name);
}

template <bool kMutable>
class HashTableOp final : public OpKernel {
 public:
  explicit HashTableOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string container;
    ctx.SetStatus(ctx.GetAttr("container", &container));
    ctx.SetStatus(ctx.GetAttr("shared_name", &name_));
    ctx.SetStatus(ctx.GetAttr("key_dtype", &key_dtype_));
    ctx.SetStatus(ctx.GetAttr("value_dtype", &value_dtype_));
    container_ = container.empty() ? kDefaultContainer : container;
    if (name_.empty()) name_ = ctx.def().name();
    if (container_.find('/') != std::string::npos) {
      ctx.SetStatus(absl::InvalidArgumentError(
          absl::StrCat(ctx.def().op(), " node ", ctx.def().name(), ": container '", container_,
                       "' contains '/', which Rill's resource handles cannot hold")));
    }
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const DataType k = key_dtype_, v = value_dtype_;
    RILL_ASSIGN_OR_RETURN(
        std::shared_ptr<LookupTable> table,
        ctx.device()->resource_manager()->LookupOrCreate<LookupTable>(
            container_, name_, [k, v] { return std::make_shared<LookupTable>(k, v, kMutable); }));
    if (table->key_dtype() != k || table->value_dtype() != v || table->is_mutable() != kMutable) {
      return absl::InvalidArgumentError(absl::StrCat("Table ", container_, "/", name_, " is a ",
                                                     table->DebugString(), ", node ", name(),
                                                     " asks for another"));
    }
    ctx.set_output(0, MakeResourceHandleTensor(container_, name_));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  std::string container_, name_;
  DataType key_dtype_ = DT_INVALID, value_dtype_ = DT_INVALID;
};

enum class Update { kInitialize, kImport, kInsert };

template <Update kUpdate>
class TableUpdateOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<LookupTable> table, TableOf(ctx));
    switch (kUpdate) {
      case Update::kInitialize:
        return table->Initialize(ctx.input(1), ctx.input(2));
      case Update::kImport:
        return table->Import(ctx.input(1), ctx.input(2));
      default:
        return table->Insert(ctx.input(1), ctx.input(2));
    }
  }
};

class LookupTableFindOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<LookupTable> table, TableOf(ctx));
    const Tensor& keys = ctx.input(1);
    const Tensor& fallback = ctx.input(2);
    RILL_RETURN_IF_ERROR(table->CheckSignature(keys.dtype(), fallback.dtype(), true));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, keys.shape()));
    return table->Find(keys, fallback, out);
  }
};

class LookupTableSizeOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<LookupTable> table, TableOf(ctx));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, TensorShape({})));
    out->flat<int64_t>()[0] = table->Size();
    return absl::OkStatus();
  }
};

class LookupTableExportOp final : public OpKernel {
 public:
  explicit LookupTableExportOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("Tkeys", &key_dtype_));
    ctx.SetStatus(ctx.GetAttr("Tvalues", &value_dtype_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<LookupTable> table, TableOf(ctx));
    RILL_RETURN_IF_ERROR(table->CheckSignature(key_dtype_, value_dtype_, false));
    Tensor keys, values;
    RILL_RETURN_IF_ERROR(table->Export(&keys, &values));
    ctx.set_output(0, keys);
    ctx.set_output(1, values);
    return absl::OkStatus();
  }

 private:
  DataType key_dtype_ = DT_INVALID, value_dtype_ = DT_INVALID;
};

REGISTER_KERNEL(KernelDefBuilder("HashTableV2").Device(kDeviceCpu), HashTableOp<false>);
REGISTER_KERNEL(KernelDefBuilder("MutableHashTableV2").Device(kDeviceCpu), HashTableOp<true>);
REGISTER_KERNEL(KernelDefBuilder("InitializeTableV2").Device(kDeviceCpu),
                TableUpdateOp<Update::kInitialize>);
REGISTER_KERNEL(KernelDefBuilder("LookupTableImportV2").Device(kDeviceCpu),
                TableUpdateOp<Update::kImport>);
REGISTER_KERNEL(KernelDefBuilder("LookupTableInsertV2").Device(kDeviceCpu),
                TableUpdateOp<Update::kInsert>);
REGISTER_KERNEL(KernelDefBuilder("LookupTableFindV2").Device(kDeviceCpu), LookupTableFindOp);
REGISTER_KERNEL(KernelDefBuilder("LookupTableSizeV2").Device(kDeviceCpu), LookupTableSizeOp);
REGISTER_KERNEL(KernelDefBuilder("LookupTableExportV2").Device(kDeviceCpu), LookupTableExportOp);

}  // namespace
}  // namespace rill
