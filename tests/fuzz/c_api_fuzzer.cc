// Fuzz target: sequences of C API calls (c/include/tensorflow/c/c_api.h) as a careless or hostile
// program makes them. The input is a program: each step builds an operation (any op type and name,
// inputs with out-of-range indices or from another graph, attrs of the wrong kind, negative and
// huge counts and dims), makes a tensor, sets or reads shapes, reads attrs into short buffers,
// imports a GraphDef made of input bytes, runs or partially runs a session with such feeds and
// fetches, adds gradients, rewires an edge or evaluates a constant. Buffers passed with a count
// always hold that many items (the API's contract); everything else is fair game. Every call must
// return, every failure must carry a message, and a run that succeeds must give every fetch.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/tf_tstring.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_input.h"

namespace {

using rill::fuzz::FuzzInput;

constexpr const char* kOpTypes[] = {
    "Placeholder", "Const",      "AddV2",    "MatMul", "Identity", "AddN",   "Reshape",
    "Fill",        "Shape",      "Cast",     "NoOp",   "ConcatV2", "Unpack", "StridedSlice",
    "VariableV2",  "Assign",     "Switch",   "Merge",  "Square",   "Sum",    "IdentityN",
    "Range",       "StringJoin", "NoSuchOp", "",       "_Send",    "Enter",  "Exit"};
constexpr const char* kNames[] = {"a",   "b",  "c",       "x/y", "",          ":0",
                                  "a:1", "^c", "_SOURCE", "a b", "gradients", "save/Const"};
constexpr const char* kAttrNames[] = {
    "dtype", "T", "shape",       "value",  "N",          "axis",   "num",       "Tidx",     "DstT",
    "SrcT",  "",  "transpose_a", "Tshape", "index_type", "_class", "container", "separator"};
constexpr const char* kDevices[] = {"",
                                    "/cpu:0",
                                    "/device:CPU:1",
                                    "/device:GPU:7",
                                    "/job:x/replica:-1",
                                    "garbage",
                                    "/cpu:99999999999999999999"};
constexpr int64_t kDims[] = {0,
                             1,
                             2,
                             3,
                             -1,
                             -2,
                             int64_t{1} << 31,
                             int64_t{1} << 40,
                             std::numeric_limits<int64_t>::max(),
                             std::numeric_limits<int64_t>::min()};
constexpr int kMaxDims = 300;  // above TensorFlow's rank limit (254)

template <typename T, size_t N>
const T& PickFrom(FuzzInput& in, const T (&items)[N]) {
  return items[in.Pick(N)];
}

void CheckStatus(TF_Status* s) {
  if (TF_GetCode(s) != TF_OK) FUZZ_CHECK(std::strlen(TF_Message(s)) > 0);
}

struct State {
  TF_Graph* graph = TF_NewGraph();
  TF_Graph* other = TF_NewGraph();  // handles from here are another graph's
  std::vector<TF_Operation*> ops;
  std::vector<TF_Tensor*> tensors;
  TF_Session* session = nullptr;
  TF_Status* status = TF_NewStatus();
  int counter = 0;

  ~State() {
    if (session != nullptr) {
      TF_CloseSession(session, status);
      TF_DeleteSession(session, status);
    }
    for (TF_Tensor* t : tensors) TF_DeleteTensor(t);
    TF_DeleteGraph(graph);
    TF_DeleteGraph(other);
    TF_DeleteStatus(status);
  }

  TF_Operation* Op(FuzzInput& in) {
    const size_t n = in.Pick(ops.size() + 2);
    if (n < ops.size()) return ops[n];
    if (n == ops.size()) return nullptr;
    return TF_GraphOperationByName(other, "other");
  }
  TF_Output Output(FuzzInput& in) {
    TF_Operation* op = Op(in);
    return TF_Output{op, static_cast<int>(in.IntInRange(-2, 3))};
  }
  TF_Tensor* Tensor(FuzzInput& in) {
    const size_t n = in.Pick(tensors.size() + 1);
    return n < tensors.size() ? tensors[n] : nullptr;
  }
  int Dims(FuzzInput& in, std::vector<int64_t>* dims) {
    const int count = in.Byte() == 0xff ? kMaxDims : static_cast<int>(in.IntInRange(-1, 4));
    dims->assign(count < 0 ? 0 : count, 1);
    for (int64_t& d : *dims) d = in.Bool() ? in.IntInRange(0, 3) : PickFrom(in, kDims);
    return count;
  }
};

// Any code in the enum's range (0-31), valid or not: a C caller may pass any of them, and a C++
// enum holds no value outside its range.
TF_DataType DataType(FuzzInput& in) { return static_cast<TF_DataType>(in.Byte() % 32); }

void BuildOperation(State& st, FuzzInput& in) {
  const std::string name = in.Bool() ? PickFrom(in, kNames) : "n" + std::to_string(st.counter++);
  TF_OperationDescription* desc = TF_NewOperation(st.graph, PickFrom(in, kOpTypes), name.c_str());
  if (desc == nullptr) return;
  const int steps = static_cast<int>(in.IntInRange(0, 7));
  for (int i = 0; i < steps; ++i) {
    const char* attr = PickFrom(in, kAttrNames);
    std::vector<int64_t> dims;
    switch (in.Pick(14)) {
      case 0:
        TF_AddInput(desc, st.Output(in));
        break;
      case 1: {
        std::vector<TF_Output> list(in.IntInRange(0, 4));
        for (TF_Output& o : list) o = st.Output(in);
        TF_AddInputList(desc, list.data(), in.Bool() ? static_cast<int>(list.size()) : -1);
        break;
      }
      case 2:
        TF_AddControlInput(desc, st.Op(in));
        break;
      case 3:
        TF_SetDevice(desc, PickFrom(in, kDevices));
        break;
      case 4:
        TF_SetAttrType(desc, attr, DataType(in));
        break;
      case 5:
        TF_SetAttrInt(desc, attr, PickFrom(in, kDims));
        break;
      case 6: {
        const int n = st.Dims(in, &dims);
        TF_SetAttrIntList(desc, attr, dims.data(), n);
        break;
      }
      case 7: {
        const int n = st.Dims(in, &dims);
        TF_SetAttrShape(desc, attr, dims.data(), n);
        break;
      }
      case 8:
        TF_SetAttrTensor(desc, attr, st.Tensor(in), st.status);
        CheckStatus(st.status);
        break;
      case 9: {
        const std::string value = in.Bytes(16);
        TF_SetAttrString(desc, attr, value.data(), value.size());
        break;
      }
      case 10: {
        const std::string proto = in.Bytes(24);
        TF_SetAttrValueProto(desc, attr, proto.data(), proto.size(), st.status);
        CheckStatus(st.status);
        break;
      }
      case 11: {
        TF_DataType types[4] = {DataType(in), DataType(in), DataType(in), DataType(in)};
        TF_SetAttrTypeList(desc, attr, types, static_cast<int>(in.IntInRange(-1, 4)));
        break;
      }
      case 12:
        TF_ColocateWith(desc, st.Op(in));
        break;
      case 13:
        TF_SetAttrBool(desc, attr, in.Bool());
        break;
    }
  }
  TF_Operation* op = TF_FinishOperation(desc, st.status);
  CheckStatus(st.status);
  if (TF_GetCode(st.status) == TF_OK) {
    FUZZ_CHECK(op != nullptr);
    st.ops.push_back(op);
  }
}

void MakeTensor(State& st, FuzzInput& in) {
  std::vector<int64_t> dims;
  const int n = st.Dims(in, &dims);
  const TF_DataType dtype = DataType(in);
  const size_t len = in.Bool() ? TF_DataTypeSize(dtype) : static_cast<size_t>(in.IntInRange(0, 64));
  TF_Tensor* t = nullptr;
  if (in.Bool()) {
    t = TF_AllocateTensor(dtype, dims.data(), n, len);
  } else {
    // A refused TF_NewTensor calls the deallocator itself. A one-element TF_STRING tensor reads
    // its TF_TString whatever `len` says (as TensorFlow does), so the buffer always holds one: a
    // zero-filled TF_TString is an empty string.
    void* data = std::calloc(1, std::max(len, sizeof(TF_TString)) + 1);
    t = TF_NewTensor(
        dtype, dims.data(), n, data, len, [](void* d, size_t, void*) { std::free(d); }, nullptr);
  }
  if (t != nullptr) st.tensors.push_back(t);
}

void Shapes(State& st, FuzzInput& in) {
  const TF_Output out = st.Output(in);
  std::vector<int64_t> dims;
  const int n = st.Dims(in, &dims);
  if (in.Bool()) {
    TF_GraphSetTensorShape(st.graph, out, dims.data(), n, st.status);
    CheckStatus(st.status);
  }
  TF_GraphGetTensorNumDims(st.graph, out, st.status);
  CheckStatus(st.status);
  TF_GraphGetTensorShape(st.graph, out, dims.data(), n, st.status);
  CheckStatus(st.status);
}

void ReadAttrs(State& st, FuzzInput& in) {
  TF_Operation* op = st.Op(in);
  const char* attr = PickFrom(in, kAttrNames);
  TF_Output out{op, static_cast<int>(in.IntInRange(-2, 3))};
  if (op != nullptr) {
    TF_OperationNumOutputs(op);
    TF_OperationNumInputs(op);
    TF_OperationOutputListLength(op, attr, st.status);
    CheckStatus(st.status);
    TF_OperationInputListLength(op, attr, st.status);
    CheckStatus(st.status);
    if (out.index >= 0 && out.index < TF_OperationNumOutputs(op)) {
      TF_OperationOutputType(out);
      TF_Input consumers[4];
      TF_OperationOutputConsumers(out, consumers, 4);
    }
  }
  const TF_AttrMetadata meta = TF_OperationGetAttrMetadata(op, attr, st.status);
  CheckStatus(st.status);
  (void)meta;
  char text[16];
  TF_OperationGetAttrString(op, attr, text, static_cast<size_t>(in.IntInRange(0, 16)), st.status);
  CheckStatus(st.status);
  int64_t values[kMaxDims];
  TF_OperationGetAttrIntList(op, attr, values, static_cast<int>(in.IntInRange(-1, 8)), st.status);
  CheckStatus(st.status);
  TF_OperationGetAttrShape(op, attr, values, static_cast<int>(in.IntInRange(-1, 8)), st.status);
  CheckStatus(st.status);
  TF_DataType type;
  TF_OperationGetAttrType(op, attr, &type, st.status);
  CheckStatus(st.status);
  TF_Tensor* value = nullptr;
  TF_OperationGetAttrTensor(op, attr, &value, st.status);
  CheckStatus(st.status);
  if (value != nullptr) TF_DeleteTensor(value);
  TF_Buffer* buffer = TF_NewBuffer();
  TF_OperationGetAttrValueProto(op, attr, buffer, st.status);
  CheckStatus(st.status);
  TF_OperationToNodeDef(op, buffer, st.status);
  CheckStatus(st.status);
  TF_DeleteBuffer(buffer);
}

void Import(State& st, FuzzInput& in) {
  const std::string bytes = in.Bytes(256);
  TF_Buffer* graph_def = TF_NewBufferFromString(bytes.data(), bytes.size());
  TF_ImportGraphDefOptions* options = TF_NewImportGraphDefOptions();
  if (in.Bool()) TF_ImportGraphDefOptionsSetPrefix(options, PickFrom(in, kNames));
  if (in.Bool()) {
    TF_ImportGraphDefOptionsAddInputMapping(options, PickFrom(in, kNames),
                                            static_cast<int>(in.IntInRange(-1, 2)), st.Output(in));
  }
  if (in.Bool()) {
    TF_ImportGraphDefOptionsAddReturnOutput(options, PickFrom(in, kNames),
                                            static_cast<int>(in.IntInRange(-1, 2)));
  }
  if (in.Bool()) TF_ImportGraphDefOptionsAddControlDependency(options, st.Op(in));
  TF_ImportGraphDefResults* results =
      TF_GraphImportGraphDefWithResults(st.graph, graph_def, options, st.status);
  CheckStatus(st.status);
  if (results != nullptr) TF_DeleteImportGraphDefResults(results);
  TF_DeleteImportGraphDefOptions(options);
  TF_DeleteBuffer(graph_def);
  // The imported operations become handles for later steps.
  size_t pos = 0;
  while (TF_Operation* op = TF_GraphNextOperation(st.graph, &pos)) {
    if (st.ops.size() >= 64) break;
    bool known = false;
    for (TF_Operation* o : st.ops) known = known || o == op;
    if (!known) st.ops.push_back(op);
  }
}

void NewSessionIfNone(State& st, FuzzInput& in) {
  if (st.session != nullptr) return;
  TF_SessionOptions* options = TF_NewSessionOptions();
  // operation_timeout_in_ms (field 11) = 10000: a fuzzed graph may wait on an input forever.
  const unsigned char config[] = {0x58, 0x90, 0x4e};
  TF_SetConfig(options, config, sizeof(config), st.status);
  FUZZ_CHECK(TF_GetCode(st.status) == TF_OK);
  st.session = TF_NewSession(in.Bool() ? st.graph : st.other, options, st.status);
  CheckStatus(st.status);
  TF_DeleteSessionOptions(options);
}

void Run(State& st, FuzzInput& in) {
  NewSessionIfNone(st, in);
  if (st.session == nullptr) return;
  std::vector<TF_Output> inputs(in.IntInRange(0, 3)), outputs(in.IntInRange(0, 3));
  std::vector<TF_Tensor*> values(inputs.size());
  std::vector<TF_Operation*> targets(in.IntInRange(0, 2));
  for (size_t i = 0; i < inputs.size(); ++i) {
    inputs[i] = st.Output(in);
    values[i] = st.Tensor(in);
  }
  for (TF_Output& o : outputs) o = st.Output(in);
  for (TF_Operation*& t : targets) t = st.Op(in);
  std::vector<TF_Tensor*> fetched(outputs.size(), nullptr);
  if (in.Bool()) {
    TF_SessionRun(st.session, nullptr, inputs.data(), values.data(),
                  static_cast<int>(inputs.size()), outputs.data(), fetched.data(),
                  static_cast<int>(outputs.size()), targets.data(),
                  static_cast<int>(targets.size()), nullptr, st.status);
    CheckStatus(st.status);
    if (TF_GetCode(st.status) == TF_OK) {
      for (TF_Tensor* t : fetched) FUZZ_CHECK(t != nullptr);
    }
  } else {
    const char* handle = nullptr;
    TF_SessionPRunSetup(st.session, inputs.data(), static_cast<int>(inputs.size()), outputs.data(),
                        static_cast<int>(outputs.size()), targets.data(),
                        static_cast<int>(targets.size()), &handle, st.status);
    CheckStatus(st.status);
    const std::string bad = in.Bytes(8);
    TF_SessionPRun(st.session, handle != nullptr && in.Bool() ? handle : bad.c_str(), inputs.data(),
                   values.data(), static_cast<int>(inputs.size()), outputs.data(), fetched.data(),
                   static_cast<int>(outputs.size()), targets.data(),
                   static_cast<int>(targets.size()), st.status);
    CheckStatus(st.status);
    if (handle != nullptr) TF_DeletePRunHandle(handle);
  }
  for (TF_Tensor* t : fetched) {
    if (t != nullptr) TF_DeleteTensor(t);
  }
}

void CloseSession(State& st) {
  if (st.session == nullptr) return;
  TF_CloseSession(st.session, st.status);
  CheckStatus(st.status);
  TF_DeleteSession(st.session, st.status);
  CheckStatus(st.status);
  st.session = nullptr;
}

void Gradients(State& st, FuzzInput& in) {
  TF_Output y[2] = {st.Output(in), st.Output(in)};
  TF_Output x[2] = {st.Output(in), st.Output(in)};
  TF_Output dy[2] = {st.Output(in), st.Output(in)};
  TF_Output dx[2];
  TF_AddGradientsWithPrefix(st.graph, in.Bool() ? nullptr : PickFrom(in, kNames), y,
                            static_cast<int>(in.IntInRange(-1, 2)), x,
                            static_cast<int>(in.IntInRange(-1, 2)), in.Bool() ? dy : nullptr,
                            st.status, dx);
  CheckStatus(st.status);
}

void Edit(State& st, FuzzInput& in) {
  TF_Operation* dst = st.Op(in);
  TF_UpdateEdge(st.graph, st.Output(in), TF_Input{dst, static_cast<int>(in.IntInRange(-1, 3))},
                st.status);
  CheckStatus(st.status);
}

void Evaluate(State& st, FuzzInput& in) {
  TF_Tensor* result = nullptr;
  TF_TryEvaluateConstant(st.graph, st.Output(in), &result, st.status);
  CheckStatus(st.status);
  if (result != nullptr) TF_DeleteTensor(result);
}

void Export(State& st) {
  TF_Buffer* buffer = TF_NewBuffer();
  TF_GraphToGraphDef(st.graph, buffer, st.status);
  CheckStatus(st.status);
  TF_DeleteBuffer(buffer);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  State st;
  {
    // One operation in the other graph, for handles that do not belong to st.graph.
    TF_OperationDescription* desc = TF_NewOperation(st.other, "Placeholder", "other");
    TF_SetAttrType(desc, "dtype", TF_FLOAT);
    TF_FinishOperation(desc, st.status);
    FUZZ_CHECK(TF_GetCode(st.status) == TF_OK);
  }
  for (int step = 0; step < 48 && in.remaining() > 0; ++step) {
    switch (in.Pick(11)) {
      case 0:
      case 1:
      case 2:
        if (st.ops.size() < 64) BuildOperation(st, in);
        break;
      case 3:
        if (st.tensors.size() < 16) MakeTensor(st, in);
        break;
      case 4:
        Shapes(st, in);
        break;
      case 5:
        ReadAttrs(st, in);
        break;
      case 6:
        Import(st, in);
        break;
      case 7:
        Run(st, in);
        break;
      case 8:
        if (in.Bool()) {
          CloseSession(st);
        } else {
          Export(st);
        }
        break;
      case 9:
        if (in.Bool()) {
          Gradients(st, in);
        } else {
          Edit(st, in);
        }
        break;
      case 10:
        Evaluate(st, in);
        break;
    }
  }
  return 0;
}
