// _RillRecurrentSequence on the CPU: a whole recurrent loop frame
// (graph/recurrent_sequence_fusion.h) run as one node. Attr `step` holds the frame's step nodes
// as serialized NodeDefs in an order where each comes after the nodes it reads; their inputs are
// "v:K" (loop variable K's current value), "c:K" (input Tvars + K, a loop constant) or "s:J:O"
// (output O of step node J). Each node's kernel is built once, here, from its NodeDef. A run:
//   vars = the inputs `initial`
//   loop: run step nodes [0, num_cond); pred = the value `cond` names (a bool scalar: the loop
//         Switch's error otherwise); stop when false; run the other step nodes; vars = the values
//         `next` names (all read before any is replaced)
//   outputs = vars
// Body nodes that read only constants (a Keras GRU's Split and Squeeze of its bias) and are not
// stateful (a TensorArray op) run in the first step only and their outputs are kept: the same
// kernels on the same values give the same values, and their errors come in the first step either
// way. The kernels are the loop's own on the same inputs in the same dependency order, so the
// outputs are the loop's bit for bit. A step node's error is its kernel's, naming that node as the
// executor would have ("... [[{{node NAME}}]]"); a condition that is not a scalar gives the
// Switch's error naming `cond_switch`. The step's cancellation is checked before every test, so a
// timeout, Close or another partition's error stops the loop between steps with the cancellation's
// status. A value's last reader in a step gets it moved in, so an elementwise kernel or
// TensorListSetItem may reuse a buffer nothing else holds, as the executor lets it.
//
// The attrs are checked as the pass guarantees them, since a user graph may name the op: each step
// node's op is one of graph/recurrent_step_ops.h's, each input of the dtype its kernel expects,
// the condition a bool, each next value of its variable's dtype; InvalidArgument naming the node
// and the step input otherwise.
//
// Kernels are immutable after construction; Compute is thread-safe (the sub-kernels' Compute is).
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/status_macros.h"
#include "graph/recurrent_step_ops.h"
#include "kernels/framework/error_nodes.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/step_kernels.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

// A value a step node reads.
struct Ref {
  enum Kind { kVar, kConst, kStep } kind = kVar;
  int index = 0;      // variable, constant or step node
  int output = 0;     // kStep only
  bool last = false;  // the step's last read of a variable or step value: moved out
};

class RecurrentSequenceOp final : public OpKernel {
 public:
  explicit RecurrentSequenceOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(Init(ctx));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const int nv = num_vars_;
    std::vector<Tensor> vars(nv);
    for (int i = 0; i < nv; ++i) vars[i] = ctx.input(i);
    std::vector<TensorValueVector> outs(steps_.size());
    StepKernelRunner runner(ctx);
    auto value = [&](const Ref& r) -> Tensor {
      switch (r.kind) {
        case Ref::kVar:
          return r.last ? std::move(vars[r.index]) : vars[r.index];
        case Ref::kConst:
          return ctx.input(nv + r.index);
        case Ref::kStep: {
          Tensor& t = outs[r.index][r.output].tensor;
          return r.last ? std::move(t) : t;
        }
      }
      return Tensor();
    };
    auto run = [&](size_t j) -> absl::Status {
      const Step& s = steps_[j];
      TensorValueVector inputs;
      for (const Ref& r : s.inputs) inputs.emplace_back(value(r), nullptr, nullptr);
      return error_nodes_.At(j, runner.RunInto(*s.kernel, inputs, s.num_outputs, &outs[j]));
    };
    bool invariants_ready = false;  // the invariant body nodes ran (in the first step)
    for (;;) {
      RILL_RETURN_IF_ERROR(runner.Cancelled());
      for (int j = 0; j < num_cond_; ++j) RILL_RETURN_IF_ERROR(run(j));
      const Tensor pred = value(cond_);
      if (pred.dtype() !=
          DT_BOOL) {  // checked at construction; a step kernel broke its output type
        return absl::InternalError(
            absl::StrCat("_RillRecurrentSequence node ", name(), ": the condition is not a bool"));
      }
      if (pred.shape().rank() != 0) {
        return error_nodes_.At(
            steps_.size(), absl::InvalidArgumentError(
                               absl::StrCat("The second input must be a scalar, but it has shape ",
                                            pred.shape().DebugString())));
      }
      if (!pred.flat<bool>()[0]) break;
      for (size_t j = num_cond_; j < steps_.size(); ++j) {
        if (steps_[j].invariant && invariants_ready) continue;
        RILL_RETURN_IF_ERROR(run(j));
      }
      invariants_ready = true;
      std::vector<Tensor> next(nv);
      for (int i = 0; i < nv; ++i) next[i] = value(next_[i]);
      vars = std::move(next);
      for (size_t j = 0; j < steps_.size(); ++j) {
        if (!steps_[j].invariant) outs[j].clear();
      }
    }
    for (int i = 0; i < nv; ++i) ctx.set_output(i, std::move(vars[i]));
    return absl::OkStatus();
  }

 private:
  struct Step {
    std::unique_ptr<OpKernel> kernel;
    std::vector<Ref> inputs;
    int num_outputs = 0;
    // A body node reading only constants and invariant nodes: its outputs are the same every
    // step, so it runs in the first step only and they are kept.
    bool invariant = false;
    // Its OpDef is stateful (a TensorArray read, write or size): never invariant, since the
    // array it reaches changes between steps and a read or write twice is an error to keep.
    bool stateful = false;
  };

  // "v:K", "c:K" or "s:J:O" read by step `reader` (steps.size() for the condition and the next
  // values).
  absl::StatusOr<Ref> ParseRef(const std::string& s, int num_consts, size_t reader) const {
    const std::vector<std::string> parts = absl::StrSplit(s, ':');
    Ref r;
    auto number = [&](size_t k, int limit, int* out) {
      return k < parts.size() && absl::SimpleAtoi(parts[k], out) && *out >= 0 && *out < limit;
    };
    bool ok = false;
    if (parts.size() == 2 && parts[0] == "v") {
      r.kind = Ref::kVar;
      ok = number(1, num_vars_, &r.index);
    } else if (parts.size() == 2 && parts[0] == "c") {
      r.kind = Ref::kConst;
      ok = number(1, num_consts, &r.index);
    } else if (parts.size() == 3 && parts[0] == "s") {
      r.kind = Ref::kStep;
      ok = number(1, static_cast<int>(reader), &r.index) &&
           number(2, steps_[r.index].num_outputs, &r.output);
    }
    if (!ok) return absl::InvalidArgumentError(absl::StrCat("bad step input '", s, "'"));
    return r;
  }

  // The dtype of the value `r` names (its indices checked by ParseRef).
  DataType TypeOf(const Ref& r, const std::vector<DataType>& tvars,
                  const std::vector<DataType>& tconsts) const {
    switch (r.kind) {
      case Ref::kVar:
        return tvars[r.index];
      case Ref::kConst:
        return tconsts[r.index];
      case Ref::kStep:
        return steps_[r.index].kernel->output_types()[r.output];
    }
    return DT_INVALID;
  }

  // InvalidArgument naming this node: "_RillRecurrentSequence node NAME: WHAT".
  absl::Status Bad(const OpKernelConstruction& ctx, absl::string_view what) const {
    return absl::InvalidArgumentError(
        absl::StrCat("_RillRecurrentSequence node ", ctx.def().name(), ": ", what));
  }

  absl::Status Init(OpKernelConstruction& ctx) {
    RILL_RETURN_IF_ERROR(ParseAndCheck(ctx));
    std::vector<std::string> names;
    for (const Step& s : steps_) names.push_back(s.kernel->name());
    names.push_back(cond_switch_);
    error_nodes_ = ErrorNodes(std::move(names));
    return absl::OkStatus();
  }

  absl::Status ParseAndCheck(OpKernelConstruction& ctx) {
    std::vector<DataType> tvars, tconsts;
    std::vector<std::string> step, next;
    int64_t num_cond = 0;
    std::string cond;
    RILL_RETURN_IF_ERROR(ctx.GetAttr("Tvars", &tvars));
    RILL_RETURN_IF_ERROR(ctx.GetAttr("Tconsts", &tconsts));
    RILL_RETURN_IF_ERROR(ctx.GetAttr("step", &step));
    RILL_RETURN_IF_ERROR(ctx.GetAttr("num_cond", &num_cond));
    RILL_RETURN_IF_ERROR(ctx.GetAttr("cond", &cond));
    RILL_RETURN_IF_ERROR(ctx.GetAttr("next", &next));
    RILL_RETURN_IF_ERROR(ctx.GetAttr("cond_switch", &cond_switch_));
    num_vars_ = static_cast<int>(tvars.size());
    const int num_consts = static_cast<int>(tconsts.size());
    if (num_cond < 0 || num_cond > static_cast<int64_t>(step.size())) {
      return Bad(ctx, "num_cond out of range");
    }
    if (static_cast<int>(next.size()) != num_vars_) {
      return Bad(ctx, "next must have one entry per variable");
    }
    if (ctx.output_types() != DataTypeVector(tvars.begin(), tvars.end())) {
      return Bad(ctx, "the outputs' dtypes must be Tvars");
    }
    num_cond_ = static_cast<int>(num_cond);
    for (const std::string& bytes : step) {
      NodeDef def;
      if (!def.ParseFromString(bytes)) return Bad(ctx, "bad step NodeDef");
      if (!IsRecurrentStepOp(def.op())) {
        return Bad(ctx, absl::StrCat("step node '", def.name(), "' is a ", def.op(),
                                     ", not an op a recurrent step may hold"));
      }
      // The registry's, ValidateNodeDef's and the step kernel's own errors, keeping their code,
      // naming both nodes.
      auto at_step = [&](const absl::Status& e) {
        return absl::Status(e.code(),
                            absl::StrCat("_RillRecurrentSequence node ", ctx.def().name(),
                                         ": step node '", def.name(), "': ", e.message()));
      };
      Step s;
      for (const std::string& in : def.input()) {
        absl::StatusOr<Ref> r = ParseRef(in, num_consts, steps_.size());
        if (!r.ok()) {
          return Bad(ctx, absl::StrCat("step node '", def.name(), "': ", r.status().message()));
        }
        s.inputs.push_back(*r);
      }
      absl::StatusOr<std::unique_ptr<OpKernel>> kernel = CreateStepKernel(def, ctx.device());
      if (!kernel.ok()) return at_step(kernel.status());
      s.kernel = std::move(*kernel);
      const DataTypeVector& want = s.kernel->input_types();
      if (want.size() != s.inputs.size()) {
        return Bad(ctx, absl::StrCat("step node '", def.name(), "' has ", s.inputs.size(),
                                     " inputs; its kernel takes ", want.size()));
      }
      for (size_t k = 0; k < want.size(); ++k) {
        const DataType got = TypeOf(s.inputs[k], tvars, tconsts);
        if (got != want[k]) {
          return Bad(ctx, absl::StrCat("step node '", def.name(), "' input ", k, " ('",
                                       def.input(k), "') is ", DataTypeString(got),
                                       "; its kernel expects ", DataTypeString(want[k])));
        }
      }
      s.num_outputs = static_cast<int>(s.kernel->output_types().size());
      const OpRegistration* reg = OpRegistry::Global()->LookUp(def.op());
      s.stateful = reg != nullptr && reg->op_def.is_stateful();
      steps_.push_back(std::move(s));
    }
    absl::StatusOr<Ref> c = ParseRef(cond, num_consts, num_cond_);
    if (!c.ok()) return Bad(ctx, absl::StrCat("cond: ", c.status().message()));
    cond_ = *c;
    if (TypeOf(cond_, tvars, tconsts) != DT_BOOL) {
      return Bad(
          ctx, absl::StrCat("the condition '", cond, "' is ",
                            DataTypeString(TypeOf(cond_, tvars, tconsts)), "; it must be a bool"));
    }
    for (size_t i = 0; i < next.size(); ++i) {
      absl::StatusOr<Ref> r = ParseRef(next[i], num_consts, steps_.size());
      if (!r.ok()) return Bad(ctx, absl::StrCat("next ", i, ": ", r.status().message()));
      const DataType got = TypeOf(*r, tvars, tconsts);
      if (got != tvars[i]) {
        return Bad(ctx,
                   absl::StrCat("next value ", i, " ('", next[i], "') is ", DataTypeString(got),
                                "; variable ", i, " is ", DataTypeString(tvars[i])));
      }
      next_.push_back(*r);
    }
    for (size_t j = num_cond_; j < steps_.size(); ++j) {
      bool invariant = !steps_[j].stateful;
      for (const Ref& r : steps_[j].inputs) {
        invariant &= r.kind == Ref::kConst || (r.kind == Ref::kStep && steps_[r.index].invariant);
      }
      steps_[j].invariant = invariant;
    }
    MarkLastReads();
    return absl::OkStatus();
  }

  // A read is last when no later step node, the condition or a next value reads the same value.
  // Variables are read again by the next test (condition nodes never move them) unless the body
  // replaces them; a variable that is its own next value is never moved.
  void MarkLastReads() {
    auto same = [](const Ref& a, const Ref& b) {
      return a.kind == b.kind && a.index == b.index &&
             (a.kind != Ref::kStep || a.output == b.output);
    };
    auto read_later = [&](const Ref& r, size_t from_step, size_t from_input) {
      for (size_t j = from_step; j < steps_.size(); ++j) {
        const std::vector<Ref>& in = steps_[j].inputs;
        for (size_t k = j == from_step ? from_input : 0; k < in.size(); ++k) {
          if (same(in[k], r)) return true;
        }
      }
      if (same(cond_, r)) return true;
      for (const Ref& n : next_) {
        if (same(n, r)) return true;
      }
      return false;
    };
    for (size_t j = num_cond_; j < steps_.size(); ++j) {
      std::vector<Ref>& in = steps_[j].inputs;
      for (size_t k = 0; k < in.size(); ++k) {
        if (in[k].kind == Ref::kConst) continue;
        if (in[k].kind == Ref::kStep && steps_[in[k].index].invariant) continue;  // kept
        in[k].last = !read_later(in[k], j, k + 1);
      }
    }
  }

  int num_vars_ = 0;
  int num_cond_ = 0;
  std::string cond_switch_;  // named in the error of a condition that is not a scalar
  ErrorNodes error_nodes_;   // the step nodes' names, then cond_switch_
  std::vector<Step> steps_;
  Ref cond_;
  std::vector<Ref> next_;
};

REGISTER_KERNEL(KernelDefBuilder("_RillRecurrentSequence").Device(kDeviceCpu), RecurrentSequenceOp);

}  // namespace
}  // namespace rill
