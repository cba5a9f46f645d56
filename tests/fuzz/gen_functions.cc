// Function libraries: 1-4 functions f0..f3 (float -> float, one or two inputs) whose bodies call
// each other, and themselves, directly by name, through PartitionedCall and
// StatefulPartitionedCall, as If / StatelessIf branches (a branch may be the enclosing function)
// and inside While bodies (with an int32 counter, so every loop ends); the main graph calls them
// the same ways. Calls sometimes have the wrong arity or Tin, and the library sometimes has a
// function named like an op, a duplicate name or a call to a function that does not exist.
// Recursion must be refused fast (no unbounded inlining), everything else must run.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/fuzz/graph_gen.h"

namespace rill {
namespace fuzz {
namespace {

class FunctionsProgram {
 public:
  FunctionsProgram(FuzzInput* in, Generated* out) : in_(in), out_(out) {}

  void Build() {
    out_->config = BaseConfig(in_, 1);
    num_functions_ = static_cast<int>(in_->IntInRange(1, 4));
    for (int f = 0; f < num_functions_; ++f)
      arity_.push_back(static_cast<int>(in_->IntInRange(1, 2)));
    limit_ = static_cast<int>(in_->IntInRange(0, 4));
    FunctionDefLibrary* lib = out_->graph.mutable_library();
    for (int f = 0; f < num_functions_; ++f) BuildFunction(lib->add_function(), f);
    BuildLoopFunctions(lib);
    switch (in_->IntInRange(0, 15)) {  // a library TensorFlow refuses
      case 0:
        lib->mutable_function(0)->mutable_signature()->set_name("AddV2");
        break;
      case 1:
        *lib->add_function() = lib->function(0);
        break;
      default:
        break;
    }
    // The main graph: a fed placeholder, a constant, then calls.
    NodeList* nodes = out_->graph.mutable_node();
    NodeDef* p = AddNode(nodes, "p", "Placeholder", {});
    SetType(p, "dtype", DT_FLOAT);
    Tensor fed(DT_FLOAT, *TensorShape::FromDims({2}));
    fed.flat<float>()[0] = in_->SmallFloat();
    fed.flat<float>()[1] = in_->SmallFloat();
    out_->feeds.emplace_back("p", fed);
    AddConst(nodes, "c", Tensor::Scalar<float>(in_->SmallFloat()), in_->Bool());
    std::vector<std::string> values = {"p", "c"};
    const int calls = static_cast<int>(in_->IntInRange(1, 3));
    for (int k = 0; k < calls; ++k) {
      values.push_back(
          AddCall(nodes, absl::StrCat("call", k), values, /*in_body=*/false, num_functions_));
    }
    out_->fetches.push_back(values.back());
  }

 private:
  std::string FunctionName(int f) const { return absl::StrCat("f", f); }

  // The ref of output `index` of node `node` whose output arg is `arg`, in a body or a graph.
  static std::string Ref(bool in_body, const std::string& node, const char* arg, int index) {
    if (in_body) return absl::StrCat(node, ":", arg, ":", index);
    return index == 0 ? node : absl::StrCat(node, ":", index);
  }

  std::vector<std::string> Args(const std::vector<std::string>& values, int count) {
    std::vector<std::string> args;
    for (int k = 0; k < count; ++k) args.push_back(values[in_->Pick(values.size())]);
    return args;
  }

  // How many inputs a call of function `f` gets: usually its arity, sometimes one more or less.
  int CallArity(int f) {
    const uint8_t b = in_->Byte();
    if (b == 0xff) return arity_[f] + 1;
    if (b == 0xfe) return arity_[f] - 1;
    return arity_[f];
  }

  // A function to call from the body of function `caller` (num_functions_: from the main graph):
  // mostly one defined before it, so most libraries are acyclic and run; sometimes any function
  // (self or mutual recursion), rarely one that does not exist.
  int PickFunction(int caller) {
    const uint8_t b = in_->Byte();
    if (b == 0xff) return num_functions_ + 5;
    if (b >= 0xe0 || caller == 0) return static_cast<int>(in_->Pick(num_functions_));
    return static_cast<int>(in_->Pick(caller));
  }

  // Adds a call of a library function to `nodes` (the main graph or a body), by one of the ways
  // TensorFlow has; returns the ref of its float output.
  std::string AddCall(NodeList* nodes, const std::string& name,
                      const std::vector<std::string>& values, bool in_body, int caller) {
    const int f = PickFunction(caller);
    const int arity = f < num_functions_ ? CallArity(f) : 1;
    switch (in_->Pick(5)) {
      case 0: {  // by name, as an op
        AddNode(nodes, name, FunctionName(f), Args(values, arity));
        return Ref(in_body, name, "y", 0);
      }
      case 1: {  // PartitionedCall / StatefulPartitionedCall
        NodeDef* n =
            AddNode(nodes, name, in_->Bool() ? "PartitionedCall" : "StatefulPartitionedCall",
                    Args(values, arity));
        SetTypeList(n, "Tin",
                    std::vector<DataType>(in_->Byte() == 0xff ? arity + 1 : arity, DT_FLOAT));
        SetTypeList(n, "Tout", {DT_FLOAT});
        SetFunc(n, "f", FunctionName(f));
        return Ref(in_body, name, "output", 0);
      }
      case 2:
      case 3: {  // If / StatelessIf on x > c, both branches of the same arity (or not)
        const int g = PickFunction(caller);
        std::vector<std::string> cmp_in = Args(values, 2);
        NodeDef* cmp = AddNode(nodes, name + "_cond", "Greater", cmp_in);
        SetType(cmp, "T", DT_FLOAT);
        std::vector<std::string> inputs = {Ref(in_body, cmp->name(), "z", 0)};
        for (const std::string& a : Args(values, arity)) inputs.push_back(a);
        NodeDef* n = AddNode(nodes, name, in_->Bool() ? "If" : "StatelessIf", inputs);
        SetType(n, "Tcond", DT_BOOL);
        SetTypeList(n, "Tin", std::vector<DataType>(arity, DT_FLOAT));
        SetTypeList(n, "Tout", {DT_FLOAT});
        SetFunc(n, "then_branch", FunctionName(f));
        SetFunc(n, "else_branch", FunctionName(g));
        return Ref(in_body, name, "output", 0);
      }
      default: {  // While (counter, x): the body calls a function on x
        const std::string zero = name + "_zero";
        AddConst(nodes, zero, Tensor::Scalar<int32_t>(0), false);
        NodeDef* n = AddNode(nodes, name, in_->Bool() ? "While" : "StatelessWhile",
                             {Ref(in_body, zero, "output", 0), values[in_->Pick(values.size())]});
        SetTypeList(n, "T", {DT_INT32, DT_FLOAT});
        SetFunc(n, "cond", "below");
        SetFunc(n, "body", in_->Bool() ? "step" : "step_call");
        SetInt(n, "parallel_iterations", in_->IntInRange(1, 10));
        return Ref(in_body, name, "output", 1);
      }
    }
  }

  void BuildFunction(FunctionDef* fn, int f) {
    OpDef* sig = fn->mutable_signature();
    sig->set_name(FunctionName(f));
    std::vector<std::string> values;
    for (int k = 0; k < arity_[f]; ++k) {
      OpDef::ArgDef* arg = sig->add_input_arg();
      arg->set_name(absl::StrCat("x", k));
      arg->set_type(DT_FLOAT);
      values.push_back(arg->name());
    }
    OpDef::ArgDef* out = sig->add_output_arg();
    out->set_name("y");
    out->set_type(DT_FLOAT);
    NodeList* body = fn->mutable_node_def();
    const int count = static_cast<int>(in_->IntInRange(1, 5));
    for (int k = 0; k < count; ++k) {
      const std::string name = absl::StrCat("b", k);
      switch (in_->Pick(4)) {
        case 0: {
          static const char* const kOps[] = {"AddV2", "Mul", "Maximum"};
          NodeDef* n = AddNode(body, name, kOps[in_->Pick(3)], Args(values, 2));
          SetType(n, "T", DT_FLOAT);
          values.push_back(Ref(true, name, "z", 0));
          break;
        }
        case 1: {
          static const char* const kOps[] = {"Neg", "Tanh", "Square"};
          NodeDef* n = AddNode(body, name, kOps[in_->Pick(3)], Args(values, 1));
          SetType(n, "T", DT_FLOAT);
          values.push_back(Ref(true, name, "y", 0));
          break;
        }
        case 2: {
          AddConst(body, name, Tensor::Scalar<float>(in_->SmallFloat()), in_->Bool());
          values.push_back(Ref(true, name, "output", 0));
          break;
        }
        default:
          if (f == 0 && in_->Byte() < 0xc0) {  // f0 calls only itself: mostly not at all
            SetType(AddNode(body, name, "Identity", Args(values, 1)), "T", DT_FLOAT);
            values.push_back(Ref(true, name, "output", 0));
            break;
          }
          values.push_back(AddCall(body, name, values, /*in_body=*/true, f));
          break;
      }
    }
    (*fn->mutable_ret())["y"] = values.back();
  }

  // below(i, x) = i < limit; step(i, x) = (i + 1, -x); step_call(i, x) = (i + 1, f(x)).
  void BuildLoopFunctions(FunctionDefLibrary* lib) {
    auto signature = [](FunctionDef* fn, const char* name, bool cond) {
      OpDef* sig = fn->mutable_signature();
      sig->set_name(name);
      OpDef::ArgDef* i = sig->add_input_arg();
      i->set_name("i");
      i->set_type(DT_INT32);
      OpDef::ArgDef* x = sig->add_input_arg();
      x->set_name("x");
      x->set_type(DT_FLOAT);
      if (cond) {
        OpDef::ArgDef* c = sig->add_output_arg();
        c->set_name("c");
        c->set_type(DT_BOOL);
        return;
      }
      OpDef::ArgDef* i2 = sig->add_output_arg();
      i2->set_name("i2");
      i2->set_type(DT_INT32);
      OpDef::ArgDef* x2 = sig->add_output_arg();
      x2->set_name("x2");
      x2->set_type(DT_FLOAT);
    };
    FunctionDef* below = lib->add_function();
    signature(below, "below", true);
    AddConst(below->mutable_node_def(), "limit", Tensor::Scalar<int32_t>(limit_), false);
    SetType(AddNode(below->mutable_node_def(), "less", "Less", {"i", "limit:output:0"}), "T",
            DT_INT32);
    (*below->mutable_ret())["c"] = "less:z:0";
    for (const bool calls : {false, true}) {
      FunctionDef* step = lib->add_function();
      signature(step, calls ? "step_call" : "step", false);
      NodeList* body = step->mutable_node_def();
      AddConst(body, "one", Tensor::Scalar<int32_t>(1), false);
      SetType(AddNode(body, "next", "AddV2", {"i", "one:output:0"}), "T", DT_INT32);
      (*step->mutable_ret())["i2"] = "next:z:0";
      if (calls) {
        (*step->mutable_ret())["x2"] =
            AddCall(body, "inner", {"x"}, /*in_body=*/true, num_functions_);
      } else {
        SetType(AddNode(body, "neg", "Neg", {"x"}), "T", DT_FLOAT);
        (*step->mutable_ret())["x2"] = "neg:y:0";
      }
    }
  }

  FuzzInput* in_;
  Generated* out_;
  int num_functions_ = 1;
  int limit_ = 0;
  std::vector<int> arity_;
};

}  // namespace

void GenerateFunctions(FuzzInput* in, Generated* out) { FunctionsProgram(in, out).Build(); }

}  // namespace fuzz
}  // namespace rill
