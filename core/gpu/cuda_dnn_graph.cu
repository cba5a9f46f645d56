#include <cuda_runtime.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <utility>
#include <vector>

#include "core/gpu/cuda_dnn_graph.h"
#include "core/gpu/dynamic_library.h"

#if __has_include(<cudnn.h>)
#include <cudnn.h>
#define RILL_HAS_CUDNN_HEADERS 1
#endif

namespace rill {
namespace gpu_internal {

bool UseCudnnGraphApi() {
  static const bool use = [] {
    const char* v = std::getenv("RILL_CUDNN_API");
    return v != nullptr && std::strcmp(v, "graph") == 0;
  }();
  return use;
}

#ifndef RILL_HAS_CUDNN_HEADERS

bool GraphConvPlan(void*, const DnnConvShape&, int64_t, bool, size_t*, std::string* error) {
  if (error != nullptr) error->clear();
  return false;
}
void GraphConvForget(void*) {}
bool GraphConvForward(void*, const DnnConvShape&, int64_t, const void*, const void*, void*, void*,
                      std::string* error) {
  if (error != nullptr) *error = "this Rill was built without cuDNN's headers (cudnn.h)";
  return false;
}

#else

namespace {

// The graph API's functions, resolved from the cuDNN library cuda_dnn.cu loads (dlopen returns
// the same handle).
struct GraphApi {
  decltype(&::cudnnBackendCreateDescriptor) create = nullptr;
  decltype(&::cudnnBackendDestroyDescriptor) destroy = nullptr;
  decltype(&::cudnnBackendSetAttribute) set = nullptr;
  decltype(&::cudnnBackendGetAttribute) get = nullptr;
  decltype(&::cudnnBackendFinalize) finalize = nullptr;
  decltype(&::cudnnBackendExecute) execute = nullptr;
  decltype(&::cudnnGetErrorString) error_string = nullptr;
  std::string error;  // why loading failed; empty once loaded
};

const GraphApi& Api() {
  static const GraphApi* const api = [] {
    auto* a = new GraphApi();
    std::string tried;
    void* lib = OpenFirstLibrary({"libcudnn.so.9", "libcudnn.so"}, &tried);
    if (lib == nullptr) {
      a->error = "cuDNN could not be loaded (" + tried + ")";
      return a;
    }
    std::string e;
    const bool all =
        ResolveSymbol(lib, "libcudnn", "cudnnBackendCreateDescriptor", &a->create, &e) &&
        ResolveSymbol(lib, "libcudnn", "cudnnBackendDestroyDescriptor", &a->destroy, &e) &&
        ResolveSymbol(lib, "libcudnn", "cudnnBackendSetAttribute", &a->set, &e) &&
        ResolveSymbol(lib, "libcudnn", "cudnnBackendGetAttribute", &a->get, &e) &&
        ResolveSymbol(lib, "libcudnn", "cudnnBackendFinalize", &a->finalize, &e) &&
        ResolveSymbol(lib, "libcudnn", "cudnnBackendExecute", &a->execute, &e) &&
        ResolveSymbol(lib, "libcudnn", "cudnnGetErrorString", &a->error_string, &e);
    if (!all) a->error = "cuDNN's graph API could not be loaded: " + e;
    return a;
  }();
  return *api;
}

bool Check(cudnnStatus_t s, const char* what, std::string* error) {
  if (s == CUDNN_STATUS_SUCCESS) return true;
  if (error != nullptr) {
    *error = std::string("cuDNN graph API, ") + what + ": " + Api().error_string(s);
  }
  cudaGetLastError();  // so the next kernel's launch check does not report this failure
  return false;
}

// One backend descriptor, destroyed with its owner.
class Descriptor {
 public:
  Descriptor() = default;
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() {
    if (d_ != nullptr) Api().destroy(d_);
  }

  bool Create(cudnnBackendDescriptorType_t type, std::string* error) {
    return Check(Api().create(type, &d_), "creating a descriptor", error);
  }
  template <typename T>
  bool Set(cudnnBackendAttributeName_t name, cudnnBackendAttributeType_t type, int64_t count,
           const T* values, std::string* error) {
    return Check(Api().set(d_, name, type, count, values), "setting an attribute", error);
  }
  bool Finalize(std::string* error) { return Check(Api().finalize(d_), "finalizing", error); }
  cudnnBackendDescriptor_t get() const { return d_; }

 private:
  cudnnBackendDescriptor_t d_ = nullptr;
};

// The attributes cuDNN 9 marks deprecated (binding a graph or plan to a handle) still work; named
// by value so the build stays free of deprecation warnings.
const auto kOperationGraphHandle = static_cast<cudnnBackendAttributeName_t>(800);
const auto kExecutionPlanHandle = static_cast<cudnnBackendAttributeName_t>(400);

// Unique ids of the three tensors in the variant pack.
constexpr int64_t kX = 'x', kW = 'w', kY = 'y';

// An NCHW-dimensioned tensor stored as NHWC: strides {h*w*c, 1, w*c, c}.
bool MakeTensor(Descriptor* t, int64_t id, cudnnDataType_t type, int64_t n, int64_t c, int64_t h,
                int64_t w, int64_t alignment, std::string* error) {
  const int64_t dims[4] = {n, c, h, w};
  const int64_t strides[4] = {h * w * c, 1, w * c, c};
  return t->Create(CUDNN_BACKEND_TENSOR_DESCRIPTOR, error) &&
         t->Set(CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &type, error) &&
         t->Set(CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, 4, dims, error) &&
         t->Set(CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, 4, strides, error) &&
         t->Set(CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &id, error) &&
         t->Set(CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, 1, &alignment, error) &&
         t->Finalize(error);
}

// Whether an engine's numerical notes allow it: without tensor ops, no tensor-core, down-converting
// or reduced-precision engine (float32 stays strict float32, as the legacy path's FMA math).
bool EngineAllowed(cudnnBackendDescriptor_t config, bool tensor_ops, std::string* error) {
  if (tensor_ops) return true;
  Descriptor engine;
  if (!engine.Create(CUDNN_BACKEND_ENGINE_DESCRIPTOR, error)) return false;
  int64_t count = 0;
  cudnnBackendDescriptor_t e = engine.get();
  if (!Check(Api().get(config, CUDNN_ATTR_ENGINECFG_ENGINE, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                       &count, &e),
             "reading an engine", error)) {
    return false;
  }
  cudnnBackendNumericalNote_t notes[CUDNN_NUMERICAL_NOTE_TYPE_COUNT];
  int64_t n = 0;
  if (!Check(Api().get(engine.get(), CUDNN_ATTR_ENGINE_NUMERICAL_NOTE, CUDNN_TYPE_NUMERICAL_NOTE,
                       CUDNN_NUMERICAL_NOTE_TYPE_COUNT, &n, notes),
             "reading an engine's numerical notes", error)) {
    return false;
  }
  for (int64_t i = 0; i < n; ++i) {
    if (notes[i] == CUDNN_NUMERICAL_NOTE_TENSOR_CORE ||
        notes[i] == CUDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS ||
        notes[i] == CUDNN_NUMERICAL_NOTE_REDUCED_PRECISION_REDUCTION) {
      return false;
    }
  }
  return true;
}

// The most workspace a chosen engine may ask for (as the legacy path).
constexpr int64_t kMaxWorkspaceBytes = int64_t{1} << 30;

// A finalized execution plan and its workspace. Immutable once built.
struct GraphPlan {
  Descriptor plan;
  int64_t workspace = 0;
};

using PlanKey = std::tuple<void*, decltype(DnnConvShape().Key()), int64_t>;
std::mutex plans_mu;
std::map<PlanKey, std::shared_ptr<const GraphPlan> >& Plans() {
  static auto* plans = new std::map<PlanKey, std::shared_ptr<const GraphPlan> >();
  return *plans;
}

std::shared_ptr<const GraphPlan> Find(const PlanKey& key) {
  std::lock_guard<std::mutex> lock(plans_mu);
  auto it = Plans().find(key);
  return it == Plans().end() ? nullptr : it->second;
}

// Builds the plan; null with *error empty when no engine qualifies.
std::shared_ptr<const GraphPlan> Build(cudnnHandle_t handle, const DnnConvShape& s,
                                       int64_t alignment, bool tensor_ops, std::string* error) {
  const cudnnDataType_t data = s.half ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT;
  const cudnnDataType_t compute = CUDNN_DATA_FLOAT;
  Descriptor x, w, y, conv, op, graph, heuristics;
  const int64_t group_depth = s.in_depth / s.groups;
  if (!MakeTensor(&x, kX, data, s.batch, s.in_depth, s.in_rows, s.in_cols, alignment, error) ||
      !MakeTensor(&w, kW, data, s.out_depth, group_depth, s.filter_rows, s.filter_cols, alignment,
                  error) ||
      !MakeTensor(&y, kY, data, s.batch, s.out_depth, s.out_rows, s.out_cols, alignment, error)) {
    return nullptr;
  }
  const int64_t spatial = 2;
  const int64_t dilations[2] = {s.dilation_rows, s.dilation_cols};
  const int64_t strides[2] = {s.stride_rows, s.stride_cols};
  const int64_t padding[2] = {s.pad_rows, s.pad_cols};
  const cudnnConvolutionMode_t mode = CUDNN_CROSS_CORRELATION;
  if (!conv.Create(CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR, error) ||
      !conv.Set(CUDNN_ATTR_CONVOLUTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &compute, error) ||
      !conv.Set(CUDNN_ATTR_CONVOLUTION_CONV_MODE, CUDNN_TYPE_CONVOLUTION_MODE, 1, &mode, error) ||
      !conv.Set(CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS, CUDNN_TYPE_INT64, 1, &spatial, error) ||
      !conv.Set(CUDNN_ATTR_CONVOLUTION_DILATIONS, CUDNN_TYPE_INT64, 2, dilations, error) ||
      !conv.Set(CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES, CUDNN_TYPE_INT64, 2, strides, error) ||
      !conv.Set(CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS, CUDNN_TYPE_INT64, 2, padding, error) ||
      !conv.Set(CUDNN_ATTR_CONVOLUTION_POST_PADDINGS, CUDNN_TYPE_INT64, 2, padding, error) ||
      !conv.Finalize(error)) {
    return nullptr;
  }
  const float alpha = 1.0f, beta = 0.0f;
  const cudnnBackendDescriptor_t xd = x.get(), wd = w.get(), yd = y.get(), cd = conv.get();
  if (!op.Create(CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR, error) ||
      !op.Set(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &xd,
              error) ||
      !op.Set(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &wd,
              error) ||
      !op.Set(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &yd,
              error) ||
      !op.Set(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1,
              &cd, error) ||
      !op.Set(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA, CUDNN_TYPE_FLOAT, 1, &alpha, error) ||
      !op.Set(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA, CUDNN_TYPE_FLOAT, 1, &beta, error) ||
      !op.Finalize(error)) {
    return nullptr;
  }
  const cudnnBackendDescriptor_t od = op.get();
  if (!graph.Create(CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, error) ||
      !graph.Set(CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &od, error) ||
      !graph.Set(kOperationGraphHandle, CUDNN_TYPE_HANDLE, 1, &handle, error) ||
      !graph.Finalize(error)) {
    return nullptr;
  }
  const cudnnBackendDescriptor_t gd = graph.get();
  const cudnnBackendHeurMode_t heur_mode = CUDNN_HEUR_MODE_A;
  if (!heuristics.Create(CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, error) ||
      !heuristics.Set(CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &gd,
                      error) ||
      !heuristics.Set(CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, 1, &heur_mode, error) ||
      !heuristics.Finalize(error)) {
    return nullptr;
  }
  int64_t count = 0;
  if (!Check(Api().get(heuristics.get(), CUDNN_ATTR_ENGINEHEUR_RESULTS,
                       CUDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, nullptr),
             "counting the heuristics' engine configurations", error)) {
    return nullptr;
  }
  std::vector<Descriptor> configs(static_cast<size_t>(count));
  std::vector<cudnnBackendDescriptor_t> raw;
  for (Descriptor& c : configs) {
    if (!c.Create(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR, error)) return nullptr;
    raw.push_back(c.get());
  }
  int64_t returned = 0;
  if (count > 0 && !Check(Api().get(heuristics.get(), CUDNN_ATTR_ENGINEHEUR_RESULTS,
                                    CUDNN_TYPE_BACKEND_DESCRIPTOR, count, &returned, raw.data()),
                          "reading the heuristics' engine configurations", error)) {
    return nullptr;
  }
  // The first configuration, in the heuristics' order, whose plan finalizes within the workspace
  // bound; configurations cuDNN cannot finalize here are skipped.
  for (int64_t i = 0; i < returned; ++i) {
    std::string ignored;
    if (!EngineAllowed(raw[i], tensor_ops, &ignored)) continue;
    auto plan = std::make_shared<GraphPlan>();
    if (!plan->plan.Create(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, error)) return nullptr;
    if (!plan->plan.Set(kExecutionPlanHandle, CUDNN_TYPE_HANDLE, 1, &handle, &ignored) ||
        !plan->plan.Set(CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                        &raw[i], &ignored) ||
        !plan->plan.Finalize(&ignored)) {
      continue;
    }
    int64_t n = 0;
    if (!Check(Api().get(plan->plan.get(), CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE,
                         CUDNN_TYPE_INT64, 1, &n, &plan->workspace),
               "reading a plan's workspace size", error)) {
      return nullptr;
    }
    if (plan->workspace > kMaxWorkspaceBytes) continue;
    return plan;
  }
  if (error != nullptr) error->clear();
  return nullptr;
}

}  // namespace

bool GraphConvPlan(void* handle, const DnnConvShape& shape, int64_t alignment, bool tensor_ops,
                   size_t* workspace_bytes, std::string* error) {
  if (!Api().error.empty()) {
    if (error != nullptr) error->clear();  // the legacy path reports the library's state
    return false;
  }
  const PlanKey key{handle, shape.Key(), alignment};
  std::shared_ptr<const GraphPlan> plan = Find(key);
  if (plan == nullptr) {
    plan = Build(static_cast<cudnnHandle_t>(handle), shape, alignment, tensor_ops, error);
    if (plan == nullptr) return false;
    std::lock_guard<std::mutex> lock(plans_mu);
    Plans().emplace(key, plan);
  }
  *workspace_bytes = static_cast<size_t>(plan->workspace);
  return true;
}

void GraphConvForget(void* handle) {
  std::lock_guard<std::mutex> lock(plans_mu);
  for (auto it = Plans().begin(); it != Plans().end();) {
    it = std::get<0>(it->first) == handle ? Plans().erase(it) : std::next(it);
  }
}

bool GraphConvForward(void* handle, const DnnConvShape& shape, int64_t alignment, const void* input,
                      const void* filter, void* output, void* workspace, std::string* error) {
  std::shared_ptr<const GraphPlan> plan = Find(PlanKey{handle, shape.Key(), alignment});
  if (plan == nullptr) {
    if (error != nullptr) *error = "the convolution was not planned (GraphConvPlan) on this handle";
    return false;
  }
  const int64_t ids[3] = {kX, kW, kY};
  void* pointers[3] = {const_cast<void*>(input), const_cast<void*>(filter), output};
  Descriptor pack;
  return pack.Create(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, error) &&
         pack.Set(CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, 3, ids, error) &&
         pack.Set(CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR, 3, pointers, error) &&
         pack.Set(CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &workspace, error) &&
         pack.Finalize(error) &&
         Check(Api().execute(static_cast<cudnnHandle_t>(handle), plan->plan.get(), pack.get()),
               "running a convolution", error);
}

#endif  // RILL_HAS_CUDNN_HEADERS

}  // namespace gpu_internal
}  // namespace rill
