#include <cuda_runtime.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "core/gpu/cuda_dnn.h"
#include "core/gpu/cuda_dnn_graph.h"
#include "core/gpu/dynamic_library.h"

#if __has_include(<cudnn.h>)
#include <cudnn.h>
#define RILL_HAS_CUDNN_HEADERS 1
#endif

namespace rill {
namespace gpu_internal {

bool FitsCudnn(const DnnConvShape& s) {
  auto fits = [](int64_t a, int64_t b, int64_t c, int64_t d) {
    if (a < 0 || b < 0 || c < 0 || d < 0) return false;
    __int128 n = static_cast<__int128>(a) * b * c * d;
    return n < INT_MAX;
  };
  return fits(s.batch, s.in_rows, s.in_cols, s.in_depth) &&
         fits(s.batch, s.out_rows, s.out_cols, s.out_depth) &&
         fits(s.out_depth, s.filter_rows, s.filter_cols, s.in_depth) && s.groups > 0 &&
         s.groups < INT_MAX && s.pad_rows < INT_MAX && s.pad_cols < INT_MAX &&
         s.stride_rows < INT_MAX && s.stride_cols < INT_MAX && s.dilation_rows < INT_MAX &&
         s.dilation_cols < INT_MAX;
}

#ifndef RILL_HAS_CUDNN_HEADERS

// A toolkit without cuDNN's headers: every call says so.
namespace {
bool NoCudnn(std::string* error) {
  if (error != nullptr) *error = "this Rill was built without cuDNN's headers (cudnn.h)";
  return false;
}
}  // namespace
bool CudnnCreate(int, void*, void**, std::string* error) { return NoCudnn(error); }
void CudnnDestroy(int, void*) {}
bool CudnnConvPlan(int, void*, const DnnConvShape&, int*, size_t*, std::string* error) {
  return NoCudnn(error);
}
bool CudnnConvForward(int, void*, const DnnConvShape&, int, const void*, const void*, void*, void*,
                      size_t, std::string* error) {
  return NoCudnn(error);
}

#else

namespace {

// The cuDNN functions Rill calls, resolved from the library opened on first use.
struct CudnnApi {
  decltype(&::cudnnGetVersion) get_version = nullptr;
  decltype(&::cudnnGetErrorString) error_string = nullptr;
  decltype(&::cudnnCreate) create = nullptr;
  decltype(&::cudnnDestroy) destroy = nullptr;
  decltype(&::cudnnSetStream) set_stream = nullptr;
  decltype(&::cudnnCreateTensorDescriptor) create_tensor = nullptr;
  decltype(&::cudnnDestroyTensorDescriptor) destroy_tensor = nullptr;
  decltype(&::cudnnSetTensor4dDescriptor) set_tensor = nullptr;
  decltype(&::cudnnCreateFilterDescriptor) create_filter = nullptr;
  decltype(&::cudnnDestroyFilterDescriptor) destroy_filter = nullptr;
  decltype(&::cudnnSetFilter4dDescriptor) set_filter = nullptr;
  decltype(&::cudnnCreateConvolutionDescriptor) create_conv = nullptr;
  decltype(&::cudnnDestroyConvolutionDescriptor) destroy_conv = nullptr;
  decltype(&::cudnnSetConvolution2dDescriptor) set_conv = nullptr;
  decltype(&::cudnnSetConvolutionGroupCount) set_groups = nullptr;
  decltype(&::cudnnSetConvolutionMathType) set_math = nullptr;
  decltype(&::cudnnGetConvolutionForwardAlgorithm_v7) algorithms = nullptr;
  decltype(&::cudnnGetConvolutionForwardWorkspaceSize) workspace_size = nullptr;
  decltype(&::cudnnConvolutionForward) forward = nullptr;
  std::string error;  // why loading failed; empty once loaded
};

const CudnnApi& Cudnn() {
  static const CudnnApi* const api = [] {
    auto* a = new CudnnApi();
    std::string tried;
    void* lib = OpenFirstLibrary({"libcudnn.so.9", "libcudnn.so"}, &tried);
    if (lib == nullptr) {
      a->error = "cuDNN could not be loaded (" + tried +
                 "): install cuDNN 9 for CUDA 13 or put the directory holding libcudnn.so.9 on "
                 "LD_LIBRARY_PATH";
      return a;
    }
    std::string e;
    const bool all =
        ResolveSymbol(lib, "libcudnn", "cudnnGetVersion", &a->get_version, &e) &&
        ResolveSymbol(lib, "libcudnn", "cudnnGetErrorString", &a->error_string, &e) &&
        ResolveSymbol(lib, "libcudnn", "cudnnCreate", &a->create, &e) &&
        ResolveSymbol(lib, "libcudnn", "cudnnDestroy", &a->destroy, &e) &&
        ResolveSymbol(lib, "libcudnn", "cudnnSetStream", &a->set_stream, &e) &&
        ResolveSymbol(lib, "libcudnn", "cudnnCreateTensorDescriptor", &a->create_tensor, &e) &&
        ResolveSymbol(lib, "libcudnn", "cudnnDestroyTensorDescriptor", &a->destroy_tensor, &e) &&
        ResolveSymbol(lib, "libcudnn", "cudnnSetTensor4dDescriptor", &a->set_tensor, &e) &&
        ResolveSymbol(lib, "libcudnn", "cudnnCreateFilterDescriptor", &a->create_filter, &e) &&
        ResolveSymbol(lib, "libcudnn", "cudnnDestroyFilterDescriptor", &a->destroy_filter, &e) &&
        ResolveSymbol(lib, "libcudnn", "cudnnSetFilter4dDescriptor", &a->set_filter, &e) &&
        ResolveSymbol(lib, "libcudnn", "cudnnCreateConvolutionDescriptor", &a->create_conv, &e) &&
        ResolveSymbol(lib, "libcudnn", "cudnnDestroyConvolutionDescriptor", &a->destroy_conv, &e) &&
        ResolveSymbol(lib, "libcudnn", "cudnnSetConvolution2dDescriptor", &a->set_conv, &e) &&
        ResolveSymbol(lib, "libcudnn", "cudnnSetConvolutionGroupCount", &a->set_groups, &e) &&
        ResolveSymbol(lib, "libcudnn", "cudnnSetConvolutionMathType", &a->set_math, &e) &&
        ResolveSymbol(lib, "libcudnn", "cudnnGetConvolutionForwardAlgorithm_v7", &a->algorithms,
                      &e) &&
        ResolveSymbol(lib, "libcudnn", "cudnnGetConvolutionForwardWorkspaceSize",
                      &a->workspace_size, &e) &&
        ResolveSymbol(lib, "libcudnn", "cudnnConvolutionForward", &a->forward, &e);
    if (!all) {
      a->error = "cuDNN could not be loaded: " + e;
      return a;
    }
    const std::string path = LibraryPath(lib);
    std::fprintf(stderr, "Rill: loaded cuDNN %zu from %s\n", a->get_version(), path.c_str());
    return a;
  }();
  return *api;
}

bool Check(cudnnStatus_t s, const char* what, std::string* error) {
  if (s == CUDNN_STATUS_SUCCESS) return true;
  if (error != nullptr) *error = std::string("cuDNN ") + what + ": " + Cudnn().error_string(s);
  cudaGetLastError();  // so the next kernel's launch check does not report this failure
  return false;
}

bool SetDevice(int platform_id, std::string* error) {
  const cudaError_t err = cudaSetDevice(platform_id);
  if (err == cudaSuccess) return true;
  if (error != nullptr) *error = cudaGetErrorString(err);
  return false;
}

cudnnHandle_t H(void* handle) { return static_cast<cudnnHandle_t>(handle); }

// Float convolutions use TF32 tensor cores only when RILL_GPU_TF32=1.
bool AllowTf32() {
  static const bool allow = [] {
    const char* v = std::getenv("RILL_GPU_TF32");
    return v != nullptr && std::strcmp(v, "1") == 0;
  }();
  return allow;
}

// The descriptors of one convolution, destroyed with it.
class ConvDescriptors {
 public:
  ConvDescriptors() = default;
  ConvDescriptors(const ConvDescriptors&) = delete;
  ConvDescriptors& operator=(const ConvDescriptors&) = delete;
  ~ConvDescriptors() {
    const CudnnApi& api = Cudnn();
    if (input != nullptr) api.destroy_tensor(input);
    if (output != nullptr) api.destroy_tensor(output);
    if (filter != nullptr) api.destroy_filter(filter);
    if (conv != nullptr) api.destroy_conv(conv);
  }

  bool Make(const DnnConvShape& s, cudnnMathType_t math, std::string* error) {
    const CudnnApi& api = Cudnn();
    auto i = [](int64_t v) { return static_cast<int>(v); };
    const cudnnDataType_t data = s.half ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT;
    return Check(api.create_tensor(&input), "creating a tensor descriptor", error) &&
           Check(api.create_tensor(&output), "creating a tensor descriptor", error) &&
           Check(api.create_filter(&filter), "creating a filter descriptor", error) &&
           Check(api.create_conv(&conv), "creating a convolution descriptor", error) &&
           Check(api.set_tensor(input, CUDNN_TENSOR_NHWC, data, i(s.batch), i(s.in_depth),
                                i(s.in_rows), i(s.in_cols)),
                 "describing the input", error) &&
           Check(api.set_tensor(output, CUDNN_TENSOR_NHWC, data, i(s.batch), i(s.out_depth),
                                i(s.out_rows), i(s.out_cols)),
                 "describing the output", error) &&
           Check(api.set_filter(filter, data, CUDNN_TENSOR_NHWC, i(s.out_depth),
                                i(s.in_depth / s.groups), i(s.filter_rows), i(s.filter_cols)),
                 "describing the filter", error) &&
           Check(api.set_conv(conv, i(s.pad_rows), i(s.pad_cols), i(s.stride_rows),
                              i(s.stride_cols), i(s.dilation_rows), i(s.dilation_cols),
                              CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
                 "describing the convolution", error) &&
           Check(api.set_groups(conv, i(s.groups)), "setting the group count", error) &&
           Check(api.set_math(conv, math), "setting the math type", error);
  }

  cudnnTensorDescriptor_t input = nullptr, output = nullptr;
  cudnnFilterDescriptor_t filter = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
};

// A shape's algorithm, with the descriptors it runs with (made once; cuDNN only reads them).
struct Plan {
  cudnnConvolutionFwdAlgo_t algorithm;
  cudnnMathType_t math;
  size_t workspace;
  std::shared_ptr<const ConvDescriptors> descriptors;
};

std::mutex plans_mu;
std::map<std::pair<int, decltype(DnnConvShape().Key())>, Plan>& Plans() {
  static auto* plans = new std::map<std::pair<int, decltype(DnnConvShape().Key())>, Plan>();
  return *plans;
}

// The `algorithm` CudnnConvPlan returns for a graph-API plan (no legacy algorithm has it).
constexpr int kGraphPlan = 1 << 20;

// The most workspace a chosen algorithm may ask for; faster algorithms past it are skipped.
constexpr size_t kMaxWorkspaceBytes = size_t{1} << 30;

bool LookUpPlan(int platform_id, const DnnConvShape& s, Plan* plan) {
  std::lock_guard<std::mutex> lock(plans_mu);
  auto it = Plans().find({platform_id, s.Key()});
  if (it == Plans().end()) return false;
  *plan = it->second;
  return true;
}

}  // namespace

bool CudnnCreate(int platform_id, void* stream, void** handle, std::string* error) {
  const CudnnApi& api = Cudnn();
  if (!api.error.empty()) {
    if (error != nullptr) *error = api.error;
    return false;
  }
  if (!SetDevice(platform_id, error)) return false;
  cudnnHandle_t h = nullptr;
  if (!Check(api.create(&h), "creating a handle", error)) return false;
  if (!Check(api.set_stream(h, static_cast<cudaStream_t>(stream)), "setting the stream", error)) {
    api.destroy(h);
    return false;
  }
  *handle = h;
  return true;
}

void CudnnDestroy(int platform_id, void* handle) {
  GraphConvForget(handle);
  if (handle != nullptr && cudaSetDevice(platform_id) == cudaSuccess) Cudnn().destroy(H(handle));
}

bool CudnnConvPlan(int platform_id, void* handle, const DnnConvShape& shape, int* algorithm,
                   size_t* workspace_bytes, std::string* error) {
  if (UseCudnnGraphApi()) {
    if (!SetDevice(platform_id, error)) return false;
    std::string graph_error;
    if (GraphConvPlan(handle, shape, shape.alignment, shape.half || AllowTf32(), workspace_bytes,
                      &graph_error)) {
      *algorithm = kGraphPlan;
      return true;
    }
    if (!graph_error.empty()) {
      if (error != nullptr) *error = graph_error;
      return false;
    }
  }
  Plan plan;
  if (!LookUpPlan(platform_id, shape, &plan)) {
    if (!SetDevice(platform_id, error)) return false;
    // Tensor cores: always for float16 (float32 accumulation), for float32 only as TF32 when
    // allowed.
    const bool tensor_ops = shape.half || AllowTf32();
    ConvDescriptors d;
    if (!d.Make(shape, tensor_ops ? CUDNN_DEFAULT_MATH : CUDNN_FMA_MATH, error)) return false;
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int returned = 0;
    if (!Check(Cudnn().algorithms(H(handle), d.input, d.filter, d.conv, d.output,
                                  CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &returned, perf),
               "choosing an algorithm", error)) {
      return false;
    }
    bool found = false;
    for (int i = 0; i < returned && !found; ++i) {
      const bool tensor_op = perf[i].mathType == CUDNN_TENSOR_OP_MATH ||
                             perf[i].mathType == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION;
      if (perf[i].status != CUDNN_STATUS_SUCCESS || perf[i].memory > kMaxWorkspaceBytes ||
          (tensor_op && !tensor_ops)) {
        continue;
      }
      auto descriptors = std::make_shared<ConvDescriptors>();
      if (!descriptors->Make(shape, perf[i].mathType, error)) return false;
      plan = {perf[i].algo, perf[i].mathType, perf[i].memory, std::move(descriptors)};
      found = true;
    }
    if (!found) {
      if (error != nullptr) {
        *error = "cuDNN has no algorithm for this convolution within 1 GiB of workspace";
      }
      return false;
    }
    std::lock_guard<std::mutex> lock(plans_mu);
    Plans().emplace(std::make_pair(platform_id, shape.Key()), plan);
  }
  *algorithm = static_cast<int>(plan.algorithm);
  *workspace_bytes = plan.workspace;
  return true;
}

bool CudnnConvForward(int platform_id, void* handle, const DnnConvShape& shape, int algorithm,
                      const void* input, const void* filter, void* output, void* workspace,
                      size_t workspace_bytes, std::string* error) {
  if (algorithm == kGraphPlan) {
    return SetDevice(platform_id, error) && GraphConvForward(handle, shape, shape.alignment, input,
                                                             filter, output, workspace, error);
  }
  Plan plan;
  if (!LookUpPlan(platform_id, shape, &plan) || static_cast<int>(plan.algorithm) != algorithm) {
    if (error != nullptr) *error = "the convolution was not planned (CudnnConvPlan) on this GPU";
    return false;
  }
  if (!SetDevice(platform_id, error)) return false;
  const ConvDescriptors& d = *plan.descriptors;
  const float one = 1.0f, zero = 0.0f;
  return Check(Cudnn().forward(H(handle), &one, d.input, input, d.filter, filter, d.conv,
                               plan.algorithm, workspace, workspace_bytes, &zero, d.output, output),
               "running a convolution", error);
}

#endif  // RILL_HAS_CUDNN_HEADERS

}  // namespace gpu_internal
}  // namespace rill
