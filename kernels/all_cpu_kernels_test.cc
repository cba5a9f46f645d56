// The registry test: every op has a CPU kernel, every kernel names a real op, and every type
// constraint stays within what the OpDef allows.
#include <algorithm>
#include <set>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/kernel_registry.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

TEST(AllCpuKernelsTest, EveryOpHasACpuKernel) {
  std::set<std::string> with_cpu_kernel;
  for (const KernelDef& def : KernelRegistry::Global()->ListKernels()) {
    if (def.device_type == kDeviceCpu) with_cpu_kernel.insert(def.op);
  }
  for (const std::string& op : OpRegistry::Global()->ListOps(/*include_internal=*/true)) {
    EXPECT_TRUE(with_cpu_kernel.count(op) > 0) << "no CPU kernel for op " << op;
  }
}

TEST(AllCpuKernelsTest, EveryKernelNamesARealOpAndAllowedTypes) {
  for (const KernelDef& def : KernelRegistry::Global()->ListKernels()) {
    const OpRegistration* reg = OpRegistry::Global()->LookUp(def.op);
    ASSERT_NE(reg, nullptr) << "kernel for unknown op " << def.op;
    for (const auto& [attr_name, types] : def.type_constraints) {
      const OpDef::AttrDef* attr = nullptr;
      for (const OpDef::AttrDef& a : reg->op_def.attr()) {
        if (a.name() == attr_name) attr = &a;
      }
      ASSERT_NE(attr, nullptr) << def.op << " kernel constrains unknown attr " << attr_name;
      EXPECT_THAT(attr->type(), ::testing::AnyOf("type", "list(type)")) << def.op;
      if (!attr->has_allowed_values()) continue;
      const auto& allowed = attr->allowed_values().list().type();
      for (DataType t : types) {
        EXPECT_TRUE(std::find(allowed.begin(), allowed.end(), t) != allowed.end())
            << def.op << " kernel registers " << DataType_Name(t) << " for " << attr_name
            << ", which the OpDef does not allow";
      }
    }
  }
}

}  // namespace
}  // namespace rill
