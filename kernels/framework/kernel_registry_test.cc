#include "kernels/framework/kernel_registry.h"

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class PassThrough final : public OpKernel {
 public:
  explicit PassThrough(OpKernelConstruction& ctx) : OpKernel(ctx) {
    bool flag = false;
    if (ctx.def().attr().count("transpose_a")) {
      absl::Status s = ctx.GetAttr("transpose_a", &flag);
      if (s.ok() && flag) ctx.SetStatus(absl::UnimplementedError("transpose_a is not supported"));
    }
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    ctx.set_output(0, ctx.input(0));
    return absl::OkStatus();
  }
};

NodeDef MatMulNode(DataType t, bool transpose_a = false) {
  NodeDef n;
  n.set_name("mm");
  n.set_op("MatMul");
  n.add_input("a");
  n.add_input("b");
  SetAttr(&n, "T", t);
  SetAttr(&n, "transpose_a", transpose_a);
  SetAttr(&n, "transpose_b", false);
  return n;
}

// A private registry with a fake GPU kernel for float only, as placer tests use.
std::unique_ptr<KernelRegistry> MakeRegistry() {
  auto registry = std::make_unique<KernelRegistry>();
  KernelRegistry& r = *registry;
  EXPECT_THAT(r.Register(KernelDefBuilder("MatMul")
                             .Device(kDeviceCpu)
                             .TypeConstraint("T", {DT_FLOAT, DT_INT32})
                             .Build(),
                         kernel_registry_internal::MakeFactory<PassThrough>()),
              IsOk());
  EXPECT_THAT(r.Register(KernelDefBuilder("MatMul")
                             .Device(kDeviceGpu)
                             .TypeConstraint("T", {DT_FLOAT})
                             .HostMemory("b")
                             .Build(),
                         kernel_registry_internal::MakeFactory<PassThrough>()),
              IsOk());
  return registry;
}

TEST(KernelRegistryTest, TypeConstraintsDecideSupportedDevices) {
  std::unique_ptr<KernelRegistry> registry = MakeRegistry();
  KernelRegistry& r = *registry;
  EXPECT_THAT(r.SupportedDeviceTypes(MatMulNode(DT_FLOAT), {"GPU", "CPU"}),
              ElementsAre("GPU", "CPU"));
  EXPECT_THAT(r.SupportedDeviceTypes(MatMulNode(DT_INT32), {"GPU", "CPU"}), ElementsAre("CPU"));
  EXPECT_TRUE(r.SupportedDeviceTypes(MatMulNode(DT_DOUBLE), {"GPU", "CPU"}).empty());
}

TEST(KernelRegistryTest, LookupSeesOnlyTheOpsOwnKernelsInRegistrationOrder) {
  // Ops whose names sort right before and after "MatMul" (and a prefix of it) have kernels the
  // lookup must not take; of two CPU kernels for the op, the first registered that matches wins.
  KernelRegistry r;
  auto add = [&](const std::string& op, const std::string& device, std::vector<DataType> t,
                 std::vector<std::string> host = {}) {
    KernelDefBuilder b(op);
    b.Device(device).TypeConstraint("T", std::move(t));
    for (std::string& arg : host) b.HostMemory(std::move(arg));
    ASSERT_THAT(r.Register(b.Build(), kernel_registry_internal::MakeFactory<PassThrough>()),
                IsOk());
  };
  add("MatMu", kDeviceGpu, {DT_DOUBLE});
  add("MatMulA", kDeviceGpu, {DT_DOUBLE});
  add("MatMul", kDeviceCpu, {DT_FLOAT});
  add("MatMul", kDeviceCpu, {DT_FLOAT, DT_INT32}, {"b"});
  add("MatMul", kDeviceGpu, {DT_INT32});
  add("MatMum", kDeviceGpu, {DT_DOUBLE});
  EXPECT_THAT(r.SupportedDeviceTypes(MatMulNode(DT_DOUBLE), {"GPU", "CPU"}), ElementsAre());
  EXPECT_THAT(r.SupportedDeviceTypes(MatMulNode(DT_INT32), {"GPU", "CPU"}),
              ElementsAre("GPU", "CPU"));
  RILL_ASSERT_OK_AND_ASSIGN(const KernelDef* f, r.FindKernelDef(MatMulNode(DT_FLOAT), "CPU"));
  EXPECT_THAT(f->host_memory_args, ElementsAre());
  RILL_ASSERT_OK_AND_ASSIGN(const KernelDef* i, r.FindKernelDef(MatMulNode(DT_INT32), "CPU"));
  EXPECT_THAT(i->host_memory_args, ElementsAre("b"));
  NodeDef other = MatMulNode(DT_DOUBLE);
  other.set_op("MatMum");
  EXPECT_THAT(r.SupportedDeviceTypes(other, {"GPU", "CPU"}), ElementsAre("GPU"));
  other.set_op("MatMuk");  // sorts between MatMu and MatMul; has no kernel
  EXPECT_THAT(r.SupportedDeviceTypes(other, {"GPU", "CPU"}), ElementsAre());
  other.set_op("Zzz");  // past every registered op
  EXPECT_THAT(r.FindKernelDef(other, "GPU").status(),
              StatusIs(absl::StatusCode::kNotFound, "No GPU kernel for op 'Zzz' of node 'mm'"));
}

TEST(KernelRegistryTest, WithoutCudaKernelsHidesKernelsThatNeedCuda) {
  KernelRegistry r;
  ASSERT_THAT(r.Register(KernelDefBuilder("MatMul").Device(kDeviceCpu).Build(),
                         kernel_registry_internal::MakeFactory<PassThrough>()),
              IsOk());
  ASSERT_THAT(r.Register(KernelDefBuilder("MatMul").Device(kDeviceGpu).NeedsCuda().Build(),
                         kernel_registry_internal::MakeFactory<PassThrough>()),
              IsOk());
  ASSERT_THAT(r.Register(KernelDefBuilder("Relu").Device(kDeviceGpu).Build(),
                         kernel_registry_internal::MakeFactory<PassThrough>()),
              IsOk());
  NodeDef relu;
  relu.set_name("r");
  relu.set_op("Relu");
  EXPECT_THAT(r.SupportedDeviceTypes(MatMulNode(DT_FLOAT), {"GPU", "CPU"}),
              ElementsAre("GPU", "CPU"));
  EXPECT_THAT(r.WithoutCudaKernels().SupportedDeviceTypes(MatMulNode(DT_FLOAT), {"GPU", "CPU"}),
              ElementsAre("CPU"));
  // A GPU kernel that is not marked (a test's kernel for simulated GPUs) stays visible.
  EXPECT_THAT(r.WithoutCudaKernels().SupportedDeviceTypes(relu, {"GPU", "CPU"}),
              ElementsAre("GPU"));
}

TEST(KernelRegistryTest, NoKernelErrorUsesTensorFlowText) {
  std::unique_ptr<KernelRegistry> registry = MakeRegistry();
  KernelRegistry& r = *registry;
  EXPECT_THAT(
      r.NoKernelError(MatMulNode(DT_DOUBLE), {"CPU", "GPU"}),
      StatusIs(absl::StatusCode::kInvalidArgument,
               "No OpKernel was registered to support Op 'MatMul' used by {{node mm}} with "
               "these attrs: [T=DT_DOUBLE, transpose_a=false, transpose_b=false]\n"
               "Registered devices: [CPU, GPU]\nRegistered kernels:\n"
               "  device='CPU'; T in [DT_FLOAT, DT_INT32]\n  device='GPU'; T in [DT_FLOAT]\n"));
}

TEST(KernelRegistryTest, DuplicateRegistrationFails) {
  std::unique_ptr<KernelRegistry> registry = MakeRegistry();
  KernelRegistry& r = *registry;
  EXPECT_THAT(
      r.Register(
          KernelDefBuilder("MatMul").Device(kDeviceGpu).TypeConstraint("T", {DT_FLOAT}).Build(),
          kernel_registry_internal::MakeFactory<PassThrough>()),
      StatusIs(absl::StatusCode::kAlreadyExists,
               "Kernel for op 'MatMul' (device='GPU'; T in [DT_FLOAT]) is registered "
               "twice"));
}

TEST(KernelRegistryTest, CreateKernelRunsConstructorValidation) {
  std::unique_ptr<KernelRegistry> registry = MakeRegistry();
  KernelRegistry& r = *registry;
  const OpDef& op = OpRegistry::Global()->LookUp("MatMul")->op_def;
  std::unique_ptr<Device> cpu = NewCpuDevice("/job:localhost/replica:0/task:0/device:CPU:0");
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OpKernel> k,
                            r.CreateKernel(MatMulNode(DT_FLOAT), op, cpu.get()));
  EXPECT_EQ(k->name(), "mm");
  EXPECT_THAT(k->input_types(), ElementsAre(DT_FLOAT, DT_FLOAT));
  EXPECT_THAT(r.CreateKernel(MatMulNode(DT_FLOAT, true), op, cpu.get()),
              StatusIs(absl::StatusCode::kUnimplemented, "transpose_a is not supported"));
  EXPECT_THAT(r.CreateKernel(MatMulNode(DT_DOUBLE), op, cpu.get()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("No OpKernel was registered to support Op 'MatMul'")));
}

TEST(KernelRegistryTest, HostMemoryArgsFollowDeclarationsAndInt32Rule) {
  std::unique_ptr<KernelRegistry> registry = MakeRegistry();
  KernelRegistry& r = *registry;
  const OpDef& op = OpRegistry::Global()->LookUp("MatMul")->op_def;
  std::vector<bool> in, out;
  RILL_ASSERT_OK(r.HostMemoryArgs(MatMulNode(DT_FLOAT), op, "GPU", &in, &out));
  EXPECT_THAT(in, ElementsAre(false, true));
  EXPECT_THAT(out, ElementsAre(false));
  RILL_ASSERT_OK(r.HostMemoryArgs(MatMulNode(DT_FLOAT), op, "CPU", &in, &out));
  EXPECT_THAT(in, ElementsAre(true, true));
}

TEST(KernelRegistryTest, ResourceHandlesAreOnHostOnEveryDeviceEvenWithoutAKernel) {
  std::unique_ptr<KernelRegistry> registry = MakeRegistry();
  NodeDef read;
  read.set_name("read");
  read.set_op("ReadVariableOp");
  read.add_input("v");
  AttrValue dtype;
  dtype.set_type(DT_FLOAT);
  (*read.mutable_attr())["dtype"] = dtype;
  const OpDef& op = OpRegistry::Global()->LookUp("ReadVariableOp")->op_def;
  std::vector<bool> in, out;
  RILL_ASSERT_OK(registry->HostMemoryArgs(read, op, "GPU", &in, &out));
  EXPECT_THAT(in, ElementsAre(true));
  EXPECT_THAT(out, ElementsAre(false));
}

TEST(KernelRegistryTest, OpKernelContextReportsOomWithNodeAndAllocator) {
  std::unique_ptr<KernelRegistry> registry = MakeRegistry();
  KernelRegistry& r = *registry;
  const OpDef& op = OpRegistry::Global()->LookUp("MatMul")->op_def;
  CpuAllocator tiny(/*bytes_limit=*/8);
  DeviceAttributes attrs;
  attrs.set_name("/job:localhost/replica:0/task:0/device:CPU:0");
  attrs.set_device_type("CPU");
  Device dev(attrs, &tiny);
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OpKernel> k,
                            r.CreateKernel(MatMulNode(DT_FLOAT), op, &dev));
  std::vector<TensorValue> inputs(2);
  OpKernelContext::Params p;
  p.device = &dev;
  p.kernel = k.get();
  p.inputs = absl::MakeConstSpan(inputs);
  OpKernelContext ctx(&p, 1);
  EXPECT_THAT(ctx.allocate_output(0, TensorShape({4, 4})),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       ::testing::AllOf(
                           HasSubstr("OOM when allocating tensor with shape[4,4] and type float "
                                     "on /job:localhost/replica:0/task:0/device:CPU:0 by "
                                     "allocator cpu (64 bytes) in node mm (MatMul)"),
                           HasSubstr("Limit: 8"))));
}

// Issue 26 (found by graph_modes_fuzzer): the byte count in the message was num_elements * size
// in int64, which overflowed (UBSan) for 2^62 floats and printed a negative count.
TEST(KernelRegistryTest, OomMessageCountsBytesPastInt64) {
  std::unique_ptr<KernelRegistry> registry = MakeRegistry();
  const OpDef& op = OpRegistry::Global()->LookUp("MatMul")->op_def;
  CpuAllocator tiny(/*bytes_limit=*/8);
  DeviceAttributes attrs;
  attrs.set_name("/job:localhost/replica:0/task:0/device:CPU:0");
  attrs.set_device_type("CPU");
  Device dev(attrs, &tiny);
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OpKernel> k,
                            registry->CreateKernel(MatMulNode(DT_FLOAT), op, &dev));
  std::vector<TensorValue> inputs(2);
  OpKernelContext::Params p;
  p.device = &dev;
  p.kernel = k.get();
  p.inputs = absl::MakeConstSpan(inputs);
  OpKernelContext ctx(&p, 1);
  EXPECT_THAT(
      ctx.allocate_output(0, TensorShape({2147483647, 2147483647})),
      StatusIs(absl::StatusCode::kResourceExhausted,
               HasSubstr("OOM when allocating tensor with shape[2147483647,2147483647] and "
                         "type float on /job:localhost/replica:0/task:0/device:CPU:0 by "
                         "allocator cpu (18446744056529682436 bytes) in node mm (MatMul)")));
}

}  // namespace
}  // namespace rill
