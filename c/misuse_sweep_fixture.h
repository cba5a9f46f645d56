// Valid arguments for every C API parameter type, made on demand for c/misuse_sweep_test.cc's
// generated cases. Each case runs in a child process of its own, which calls one function with
// one argument spoiled and exits without cleaning up: the fixture frees nothing (a case may have
// deleted or taken ownership of what it was given).
#ifndef RILL_C_MISUSE_SWEEP_FIXTURE_H_
#define RILL_C_MISUSE_SWEEP_FIXTURE_H_

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/eager/c_api_experimental.h"
#include "tensorflow/c/rill_extensions.h"
#include "tensorflow/c/tf_tstring.h"

class MisuseFixture {
 public:
  static constexpr int kArray = 8;  // elements in every array the fixture hands out

  static void NoopDeallocator(void*, size_t, void*) {}
  static void NoopListener(const char*) {}

  // The status the case's function is given (and the child reports).
  TF_Status* status() {
    return Once(status_, [] { return TF_NewStatus(); });
  }

  // A graph with a float Placeholder "feed" and an Identity "ident" of it.
  TF_Graph* graph() {
    if (graph_ == nullptr) {
      graph_ = TF_NewGraph();
      feed_ = Placeholder(graph_, "feed");
      TF_OperationDescription* d = TF_NewOperation(graph_, "Identity", "ident");
      TF_AddInput(d, TF_Output{feed_, 0});
      ident_ = TF_FinishOperation(d, own());
    }
    return graph_;
  }
  TF_Operation* op() { return graph(), feed_; }
  TF_Operation* consumer() { return graph(), ident_; }
  // A fresh description of an Identity in graph() (TF_FinishOperation frees descriptions).
  TF_OperationDescription* desc() { return TF_NewOperation(graph(), "Identity", "sweep_desc"); }
  TF_Buffer* buffer() { return TF_NewBuffer(); }
  TF_Tensor* tensor() { return TF_AllocateTensor(TF_FLOAT, nullptr, 0, sizeof(float)); }
  TF_SessionOptions* sopts() { return TF_NewSessionOptions(); }
  TF_Session* session() { return TF_NewSession(graph(), sopts(), own()); }
  TF_DeprecatedSession* dsession() { return TF_NewDeprecatedSession(sopts(), own()); }
  TF_ImportGraphDefOptions* iopts() { return TF_NewImportGraphDefOptions(); }
  TF_ImportGraphDefResults* iresults() {
    TF_Buffer* def = TF_NewBuffer();
    TF_GraphToGraphDef(graph(), def, own());
    TF_ImportGraphDefOptions* o = TF_NewImportGraphDefOptions();
    TF_ImportGraphDefOptionsSetPrefix(o, "imported");
    TF_ImportGraphDefOptionsAddReturnOutput(o, "feed", 0);
    return TF_GraphImportGraphDefWithResults(graph(), def, o, own());
  }
  // "sweep_fn": float in, its Identity out.
  TF_Function* function() {
    TF_Graph* g = TF_NewGraph();
    TF_Operation* in = Placeholder(g, "in");
    TF_OperationDescription* d = TF_NewOperation(g, "Identity", "out");
    TF_AddInput(d, TF_Output{in, 0});
    TF_Operation* out = TF_FinishOperation(d, own());
    TF_Output input{in, 0}, output{out, 0};
    return TF_GraphToFunction(g, "sweep_fn", 0, -1, nullptr, 1, &input, 1, &output, nullptr,
                              nullptr, "", own());
  }
  TF_DeviceList* devices() { return TF_SessionListDevices(session(), own()); }
  TF_ApiDefMap* apidefs() {
    TF_Buffer* ops = TF_NewBuffer();  // an empty OpList
    return TF_NewApiDefMap(ops, own());
  }
  TF_WhileParams* while_params() {
    TF_Output in{op(), 0};
    return new TF_WhileParams(TF_NewWhile(graph(), &in, 1, own()));
  }
  TF_ShapeAndTypeList* shapes() { return TF_NewShapeAndTypeList(2); }
  TF_TString* tstring() {
    auto* t = static_cast<TF_TString*>(scratch());
    TF_StringInit(t);
    TF_StringCopy(t, "feed", 4);
    return t;
  }
  TFE_ContextOptions* copts() { return TFE_NewContextOptions(); }
  TFE_Context* ctx() {
    return Once(ctx_, [this] { return TFE_NewContext(copts(), own()); });
  }
  TFE_TensorHandle* handle() { return TFE_NewTensorHandle(tensor(), own()); }
  TFE_Op* eop() { return TFE_NewOp(ctx(), "Identity", own()); }

  // Arrays of kArray valid elements (writable: a function may fill them).
  TF_Operation** ops() {
    return Fill<TF_Operation*>([this] { return op(); });
  }
  TF_Tensor** tensors() {
    return Fill<TF_Tensor*>([this] { return tensor(); });
  }
  TFE_TensorHandle** handles() {
    return Fill<TFE_TensorHandle*>([this] { return handle(); });
  }
  TF_Function** functions() {
    return Fill<TF_Function*>([this] { return function(); });
  }
  TF_Output* outputs() {
    return Fill<TF_Output>([this] { return TF_Output{op(), 0}; });
  }
  const char** strings() {
    return Fill<const char*>([] { return "feed"; });
  }
  size_t* sizes() {
    return Fill<size_t>([] { return size_t{4}; });
  }
  int* ints() {
    return Fill<int>([] { return 1; });
  }
  TF_DataType* types() {
    return Fill<TF_DataType>([] { return TF_FLOAT; });
  }
  const int64_t** dims_list() {
    return Fill<const int64_t*>([this] { return static_cast<const int64_t*>(scratch()); });
  }
  // 64 KiB of zeros, 64-byte aligned: what a function reads (zero dims, empty bytes) or fills.
  void* scratch() { return calloc(1, 1 << 16); }

 private:
  template <typename T, typename F>
  T Once(T& slot, F make) {
    if (slot == nullptr) slot = make();
    return slot;
  }
  template <typename T, typename F>
  T* Fill(F make) {
    T* a = static_cast<T*>(calloc(kArray, sizeof(T)));
    for (int i = 0; i < kArray; ++i) a[i] = make();
    return a;
  }
  TF_Status* own() {
    return Once(own_, [] { return TF_NewStatus(); });
  }
  TF_Operation* Placeholder(TF_Graph* g, const char* name) {
    TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", name);
    TF_SetAttrType(d, "dtype", TF_FLOAT);
    return TF_FinishOperation(d, own());
  }

  TF_Status* status_ = nullptr;
  TF_Status* own_ = nullptr;
  TF_Graph* graph_ = nullptr;
  TF_Operation* feed_ = nullptr;
  TF_Operation* ident_ = nullptr;
  TFE_Context* ctx_ = nullptr;
};

#endif  // RILL_C_MISUSE_SWEEP_FIXTURE_H_
