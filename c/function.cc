// TF_Function as a FunctionDef: import and export, name, attrs, and copying functions into a
// graph's library (TF_GraphCopyFunction, TF_GraphGetFunctions). Graphs that call library
// functions import and run (the session inlines them); building the call operations with
// TF_NewOperation, and TF_GraphToFunction, are not served yet.
#include <string>

#include "absl/strings/str_cat.h"
#include "c/c_api_internal.h"
#include "google/protobuf/util/message_differencer.h"
#include "ops/op_registry.h"
#include "proto/attr_value.pb.h"
#include "proto/function.pb.h"

namespace rill_c {
namespace {

// Adds `f` to `library` unless an identical one is there; InvalidArgument (TensorFlow's texts)
// for a function named like a registered op (a call by that name would run the op) or a
// different function of the same name.
absl::Status AddFunction(const rill::FunctionDef& f, rill::FunctionDefLibrary* library) {
  if (rill::OpRegistry::Global()->LookUp(f.signature().name()) != nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("Cannot add function '", f.signature().name(),
                                                   "' because an op with the same name already "
                                                   "exists."));
  }
  for (const rill::FunctionDef& existing : library->function()) {
    if (existing.signature().name() != f.signature().name()) continue;
    if (google::protobuf::util::MessageDifferencer::Equals(existing, f)) return absl::OkStatus();
    return absl::InvalidArgumentError(absl::StrCat("Cannot add function '", f.signature().name(),
                                                   "' because a different function with the "
                                                   "same name already exists."));
  }
  *library->add_function() = f;
  return absl::OkStatus();
}

}  // namespace
}  // namespace rill_c

using rill_c::SetOk;
using rill_c::SetStatus;

extern "C" {

TF_Function* TF_FunctionImportFunctionDef(const void* proto, size_t proto_len, TF_Status* status) {
  TF_Function* f = new TF_Function;
  if (!rill_c::ParseFromBytes(proto, proto_len, &f->fdef)) {
    delete f;
    SetStatus(status, absl::InvalidArgumentError(
                          "Invalid FunctionDef given to TF_FunctionImportFunctionDef"));
    return nullptr;
  }
  SetOk(status);
  return f;
}

void TF_FunctionToFunctionDef(TF_Function* func, TF_Buffer* output_func_def, TF_Status* status) {
  if (func == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("The function is null"));
  }
  SetStatus(status, rill_c::SerializeToBuffer(func->fdef, output_func_def));
}

const char* TF_FunctionName(TF_Function* func) {
  return func == nullptr ? nullptr : func->fdef.signature().name().c_str();
}

void TF_FunctionSetAttrValueProto(TF_Function* func, const char* attr_name, const void* proto,
                                  size_t proto_len, TF_Status* status) {
  if (func == nullptr || attr_name == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("The function or attr name is null"));
  }
  rill::AttrValue value;
  if (!rill_c::ParseFromBytes(proto, proto_len, &value)) {
    return SetStatus(status, absl::InvalidArgumentError("Unparseable AttrValue proto"));
  }
  (*func->fdef.mutable_attr())[attr_name] = value;
  SetOk(status);
}

void TF_FunctionGetAttrValueProto(TF_Function* func, const char* attr_name,
                                  TF_Buffer* output_attr_value, TF_Status* status) {
  if (func == nullptr || attr_name == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("The function or attr name is null"));
  }
  auto it = func->fdef.attr().find(attr_name);
  if (it == func->fdef.attr().end()) {
    return SetStatus(
        status, absl::InvalidArgumentError(absl::StrCat("Function '", func->fdef.signature().name(),
                                                        "' has no attr named '", attr_name, "'.")));
  }
  SetStatus(status, rill_c::SerializeToBuffer(it->second, output_attr_value));
}

void TF_DeleteFunction(TF_Function* func) { delete func; }

void TF_GraphCopyFunction(TF_Graph* g, const TF_Function* func, const TF_Function* grad,
                          TF_Status* status) {
  if (g == nullptr) return SetStatus(status, absl::InvalidArgumentError("The graph is null"));
  if (func == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError(
                                 "'func' argument to TF_GraphCopyFunction cannot be null"));
  }
  rill::MutexLock lock(&g->mu);
  rill::FunctionDefLibrary library = g->graph.library();
  absl::Status st = rill_c::AddFunction(func->fdef, &library);
  if (st.ok() && grad != nullptr) {
    st = rill_c::AddFunction(grad->fdef, &library);
    if (st.ok()) {
      const std::string& name = func->fdef.signature().name();
      for (const rill::GradientDef& gd : library.gradient()) {
        if (gd.function_name() == name && gd.gradient_func() != grad->fdef.signature().name()) {
          st = absl::InvalidArgumentError(absl::StrCat(
              "Cannot assign gradient function '", grad->fdef.signature().name(), "' to '", name,
              "' because it already has gradient function '", gd.gradient_func(), "'"));
        }
      }
      bool present = false;
      for (const rill::GradientDef& gd : library.gradient()) {
        present = present || gd.function_name() == name;
      }
      if (st.ok() && !present) {
        rill::GradientDef* gd = library.add_gradient();
        gd->set_function_name(name);
        gd->set_gradient_func(grad->fdef.signature().name());
      }
    }
  }
  if (!st.ok()) return SetStatus(status, st);
  *g->graph.mutable_library() = std::move(library);
  SetOk(status);
}

int TF_GraphNumFunctions(TF_Graph* g) {
  if (g == nullptr) return 0;
  rill::MutexLock lock(&g->mu);
  return g->graph.library().function_size();
}

int TF_GraphGetFunctions(TF_Graph* g, TF_Function** funcs, int max_func, TF_Status* status) {
  if (g == nullptr || (funcs == nullptr && max_func > 0)) {
    SetStatus(status, absl::InvalidArgumentError("The graph or the output array is null"));
    return 0;
  }
  rill::MutexLock lock(&g->mu);
  const auto& functions = g->graph.library().function();
  int n = 0;
  for (; n < max_func && n < functions.size(); ++n) funcs[n] = new TF_Function{functions[n]};
  SetOk(status);
  return n;
}

}  // extern "C"
