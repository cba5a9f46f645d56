// The kernel registry: (op, device type, type constraints, host-memory args) -> factory.
// Registration is declarative, one line per (op, device) in the kernel's own file:
//
//   REGISTER_KERNEL(KernelDefBuilder("MatMul").Device(kDeviceCpu)
//                       .TypeConstraint("T", {DT_FLOAT, DT_DOUBLE}),
//                   MatMulOp);
//
// Lookups answer the placer's question "which device types have a kernel for this NodeDef"
// (through the KernelAvailability interface, so placer tests can supply their own registry with
// fake GPU kernels) and build kernels for the executor. Registering the same (op, device, type
// constraints) twice aborts at start-up. Thread-safe.
#ifndef RILL_KERNELS_FRAMEWORK_KERNEL_REGISTRY_H_
#define RILL_KERNELS_FRAMEWORK_KERNEL_REGISTRY_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/device.h"
#include "core/mutex.h"
#include "kernels/framework/op_kernel.h"

namespace rill {

struct KernelDef {
  std::string op;
  std::string device_type;
  // attr name -> allowed dtypes; the NodeDef's attr must be one of them.
  std::map<std::string, std::vector<DataType>> type_constraints;
  // Names of input/output args that live in host memory on this device (e.g. GPU shape args).
  std::vector<std::string> host_memory_args;
  // A CUDA kernel: runs only on a real GPU (GpuDevice), so sessions whose GPUs are simulated
  // (tests) hide it from the placer (KernelRegistry::WithoutCudaKernels).
  bool needs_cuda = false;
  std::string DebugString() const;  // "device='CPU'; T in [DT_FLOAT, DT_DOUBLE]"
};

class KernelDefBuilder {
 public:
  explicit KernelDefBuilder(std::string op) { def_.op = std::move(op); }
  KernelDefBuilder& Device(std::string type) {
    def_.device_type = std::move(type);
    return *this;
  }
  KernelDefBuilder& TypeConstraint(std::string attr, std::vector<DataType> types) {
    def_.type_constraints[std::move(attr)] = std::move(types);
    return *this;
  }
  KernelDefBuilder& HostMemory(std::string arg) {
    def_.host_memory_args.push_back(std::move(arg));
    return *this;
  }
  KernelDefBuilder& NeedsCuda() {
    def_.needs_cuda = true;
    return *this;
  }
  const KernelDef& Build() const { return def_; }

 private:
  KernelDef def_;
};

using KernelFactory =
    std::function<absl::StatusOr<std::unique_ptr<OpKernel>>(OpKernelConstruction& ctx)>;

// What the placer needs to know about kernels. KernelRegistry implements it; tests may fake it.
class KernelAvailability {
 public:
  virtual ~KernelAvailability() = default;
  // Device types (from `device_types`, in that order) that have a kernel matching `node`.
  virtual std::vector<std::string> SupportedDeviceTypes(
      const NodeDef& node, const std::vector<std::string>& device_types) const = 0;
  // TensorFlow's InvalidArgument text for a node no device can run:
  // "No OpKernel was registered to support Op 'X' used by {{node n}} with these attrs: [...]
  //  Registered devices: [CPU]\nRegistered kernels:\n  device='CPU'; T in [DT_FLOAT]".
  virtual absl::Status NoKernelError(const NodeDef& node,
                                     const std::vector<std::string>& device_types) const = 0;
};

class KernelRegistry : public KernelAvailability {
 public:
  // The process-wide registry every REGISTER_KERNEL writes into. Never destroyed.
  static KernelRegistry* Global();

  // AlreadyExists for a second registration with the same (op, device, constraints).
  absl::Status Register(KernelDef def, KernelFactory factory);
  // The matching KernelDef, or NotFound (TensorFlow's "No OpKernel was registered..." text is
  // InvalidArgument through NoKernelError; this NotFound is for internal lookups).
  absl::StatusOr<const KernelDef*> FindKernelDef(const NodeDef& node,
                                                 absl::string_view device_type) const;
  // Builds the kernel for `node` on `device`. InvalidArgument (no kernel, bad attrs).
  absl::StatusOr<std::unique_ptr<OpKernel>> CreateKernel(const NodeDef& node, const OpDef& op_def,
                                                         Device* device) const;
  // For each input and output of `node` on `device_type`: true when it lives in host memory.
  absl::Status HostMemoryArgs(const NodeDef& node, const OpDef& op_def,
                              absl::string_view device_type, std::vector<bool>* inputs,
                              std::vector<bool>* outputs) const;

  std::vector<std::string> SupportedDeviceTypes(
      const NodeDef& node, const std::vector<std::string>& device_types) const override;
  absl::Status NoKernelError(const NodeDef& node,
                             const std::vector<std::string>& device_types) const override;
  // Every registered KernelDef (for the registry test and docs).
  std::vector<KernelDef> ListKernels() const;
  // The placer's view for sessions whose GPUs cannot run CUDA kernels (simulated GPUs): as this
  // registry, without the kernels marked NeedsCuda. Lives as long as the registry.
  const KernelAvailability& WithoutCudaKernels() const { return without_cuda_; }

 private:
  struct Entry {
    KernelDef def;
    KernelFactory factory;
  };
  class WithoutCuda final : public KernelAvailability {
   public:
    explicit WithoutCuda(const KernelRegistry* registry) : registry_(registry) {}
    std::vector<std::string> SupportedDeviceTypes(
        const NodeDef& node, const std::vector<std::string>& device_types) const override;
    absl::Status NoKernelError(const NodeDef& node,
                               const std::vector<std::string>& device_types) const override {
      return registry_->NoKernelError(node, device_types);
    }

   private:
    const KernelRegistry* registry_;
  };
  const Entry* Find(const NodeDef& node, absl::string_view device_type,
                    bool cuda_kernels = true) const;

  const WithoutCuda without_cuda_{this};

  mutable rill::Mutex mu_;
  std::multimap<std::string, Entry> kernels_ ABSL_GUARDED_BY(mu_);  // keyed by op
};

namespace kernel_registry_internal {
struct KernelRegistrar {
  KernelRegistrar(const KernelDefBuilder& builder, KernelFactory factory);
};
template <typename K>
KernelFactory MakeFactory() {
  return [](OpKernelConstruction& ctx) -> absl::StatusOr<std::unique_ptr<OpKernel>> {
    auto kernel = std::make_unique<K>(ctx);
    if (!ctx.status().ok()) return ctx.status();
    return std::unique_ptr<OpKernel>(std::move(kernel));
  };
}
}  // namespace kernel_registry_internal

#define RILL_KERNEL_CONCAT_INNER_(a, b) a##b
#define RILL_KERNEL_CONCAT_(a, b) RILL_KERNEL_CONCAT_INNER_(a, b)
#define REGISTER_KERNEL(builder, ...)                                                 \
  static const ::rill::kernel_registry_internal::KernelRegistrar RILL_KERNEL_CONCAT_( \
      rill_kernel_registrar_, __COUNTER__)(                                           \
      builder, ::rill::kernel_registry_internal::MakeFactory<__VA_ARGS__>())

}  // namespace rill

#endif  // RILL_KERNELS_FRAMEWORK_KERNEL_REGISTRY_H_
