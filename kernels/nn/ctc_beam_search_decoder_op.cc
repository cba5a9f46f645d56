// CTCBeamSearchDecoder on the CPU: TensorFlow's CTC prefix beam search over time-major logits
// [max_time, batch, classes], blank = the last class, each batch entry decoded from its first
// sequence_length steps (none when the length is 0 or negative). Outputs, per path p of
// top_paths: the decoded sequences as a sparse tensor (indices [n, 2] in batch then position
// order, values, shape [batch, longest]); and log_probability [batch, top_paths].
//
// The search is TensorFlow's (tensorflow/core/util/ctc/ctc_beam_search.h), reproduced step for
// step because its quirks decide which prefixes survive and how ties are ordered:
// - each step normalizes the logits by log-sum-exp (the max subtracted, a sequential sum);
// - a prefix keeps P(ends in blank), P(ends in its label) and their sum, in log space; the
//   prefixes in the beam are updated best first, then expanded best first by every non-blank
//   label; a new child enters only if it beats the beam's bottom, which is then reset to
//   probability zero (so a child of it can later start afresh);
// - a prefix whose label repeats its parent's extends only the parent's blank-ending mass, with
//   or without merge_repeated; merge_repeated only merges equal neighbours in the returned
//   sequences ("A B B" comes back "A B");
// - the beam has the semantics of TensorFlow's gtl::TopN (Beam below), which order equal scores;
// - log-sum-exp of two terms computes its correction in float for both dtypes, as TensorFlow's
//   LogSumExp (expf, log1pf) does.
// Errors (TensorFlow's texts and codes): inputs not [time, batch, classes] or empty,
// sequence_length not a vector (InvalidArgument); its length not batch or an entry above
// max_time (FailedPrecondition); top_paths above beam_width, or above the prefixes the beam
// holds at the end (InvalidArgument).
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/nn/ctc_decoder_inputs.h"

namespace rill {
namespace {

template <typename T>
constexpr T kLogZero = -std::numeric_limits<T>::infinity();

// log(exp(a) + exp(b)).
template <typename T>
T LogSumExp(T a, T b) {
  if (a == kLogZero<T>) return b;
  if (b == kLogZero<T>) return a;
  return a > b ? a + std::log1p(std::exp(static_cast<float>(b - a)))
               : b + std::log1p(std::exp(static_cast<float>(a - b)));
}

// Log probabilities of a prefix at one step: ending in blank, ending in its label, either.
template <typename T>
struct LogProbs {
  T total = kLogZero<T>;
  T blank = kLogZero<T>;
  T label = kLogZero<T>;
};

// A decoded prefix: its last label and the prefix before it (-1 for the empty root).
template <typename T>
struct Prefix {
  int64_t parent = -1;
  int64_t label = -1;
  int64_t first_child = -1;  // offset of its classes - 1 child slots, -1 until expanded
  LogProbs<T> oldp;          // at the previous step
  LogProbs<T> newp;          // at this step; total kLogZero: not in the beam
  bool Active() const { return newp.total != kLogZero<T>; }
};

// The beam: at most `limit` prefix ids, compared by newp.total (higher is better), with the
// semantics of TensorFlow's gtl::TopN, which fix the order of equal scores. Ids are appended
// until one more than the limit arrives; then they become a heap (worst on top) and a push
// replaces the top when it is better. Asking for the bottom before that moves the worst (the
// first of equal worst) to the front, and from then on a push that is not better than the front
// takes the front's place. Extract returns the ids best first (std::sort, or std::sort_heap on
// the heap) and empties the beam.
template <typename T>
class Beam {
 public:
  Beam(size_t limit, const std::vector<Prefix<T>>* prefixes) : limit_(limit), better_{prefixes} {}

  size_t size() const { return ids_.size(); }
  const std::vector<int64_t>& ids() const { return ids_; }

  void Push(int64_t id) {
    if (state_ != kHeap) {
      ids_.push_back(id);
      if (ids_.size() == limit_ + 1) {
        std::make_heap(ids_.begin(), ids_.end(), better_);
        std::pop_heap(ids_.begin(), ids_.end(), better_);
        ids_.pop_back();
        state_ = kHeap;
      } else if (state_ == kBottomKnown && !better_(ids_.back(), ids_.front())) {
        std::swap(ids_.front(), ids_.back());
      }
    } else if (better_(id, ids_.front())) {
      std::pop_heap(ids_.begin(), ids_.end(), better_);
      ids_.back() = id;
      std::push_heap(ids_.begin(), ids_.end(), better_);
    }
  }

  int64_t Bottom() {
    if (state_ == kUnordered) {
      size_t worst = 0;
      for (size_t i = 1; i < ids_.size(); ++i) {
        if (better_(ids_[worst], ids_[i])) worst = i;
      }
      std::swap(ids_[0], ids_[worst]);
      state_ = kBottomKnown;
    }
    return ids_.front();
  }

  std::vector<int64_t> Extract() {
    std::vector<int64_t> out;
    out.swap(ids_);
    if (state_ == kHeap) {
      std::sort_heap(out.begin(), out.end(), better_);
    } else {
      std::sort(out.begin(), out.end(), better_);
    }
    state_ = kUnordered;
    return out;
  }

 private:
  struct Better {
    const std::vector<Prefix<T>>* prefixes;
    bool operator()(int64_t a, int64_t b) const {
      return (*prefixes)[a].newp.total > (*prefixes)[b].newp.total;
    }
  };
  enum State { kUnordered, kBottomKnown, kHeap };

  size_t limit_;
  Better better_;
  State state_ = kUnordered;
  std::vector<int64_t> ids_;
};

// The search over one batch entry.
template <typename T>
class BeamSearch {
 public:
  BeamSearch(int64_t classes, int64_t beam_width)
      : classes_(classes), beam_width_(beam_width), beam_(beam_width, &prefixes_) {
    Prefix<T> root;
    root.newp.total = T(0);
    root.newp.blank = T(0);
    prefixes_.push_back(root);
    beam_.Push(0);
  }
  // beam_ points into prefixes_.
  BeamSearch(const BeamSearch&) = delete;
  BeamSearch& operator=(const BeamSearch&) = delete;

  void Step(const T* x) {
    const int64_t blank = classes_ - 1;
    T max_coeff = x[0];
    for (int64_t j = 1; j < classes_; ++j) {
      if (x[j] > max_coeff) max_coeff = x[j];
    }
    T sum = T(0);
    for (int64_t j = 0; j < classes_; ++j) sum += std::exp(x[j] - max_coeff);
    const T norm = max_coeff + std::log(sum);

    const std::vector<int64_t> branches = beam_.Extract();
    for (int64_t b : branches) prefixes_[b].oldp = prefixes_[b].newp;
    // Extend the prefixes in the beam, best first.
    for (int64_t b : branches) {
      Prefix<T>& p = prefixes_[b];
      if (p.parent >= 0) {
        const Prefix<T>& parent = prefixes_[p.parent];
        if (parent.Active()) {
          const T previous = p.label == parent.label ? parent.oldp.blank : parent.oldp.total;
          p.newp.label = LogSumExp(p.newp.label, previous);
        }
        p.newp.label += x[p.label] - norm;
      }
      p.newp.blank = p.oldp.total + x[blank] - norm;
      p.newp.total = LogSumExp(p.newp.blank, p.newp.label);
      beam_.Push(b);
    }
    // Grow children of each, best first (by the previous step's probability).
    for (int64_t b : branches) {
      if (!IsCandidate(prefixes_[b].oldp.total)) continue;
      for (int64_t label = 0; label < classes_ - 1; ++label) {
        const int64_t c = Child(b, label);
        Prefix<T>& child = prefixes_[c];
        if (child.Active()) continue;
        const Prefix<T>& parent = prefixes_[b];
        child.newp.blank = kLogZero<T>;
        const T previous = label == parent.label ? parent.oldp.blank : parent.oldp.total;
        child.newp.label = x[label] - norm + previous;
        child.newp.total = child.newp.label;
        if (IsCandidate(child.newp.total)) {
          if (beam_.size() == static_cast<size_t>(beam_width_)) {
            prefixes_[beam_.Bottom()].newp = LogProbs<T>();
          }
          beam_.Push(c);
        } else {
          child.oldp = LogProbs<T>();
          child.newp = LogProbs<T>();
        }
      }
    }
  }

  // The best `n` prefixes, best first: their label sequences (equal neighbours merged when
  // merge_repeated) and log probabilities.
  absl::Status TopPaths(int64_t n, bool merge_repeated, std::vector<std::vector<int64_t>>* paths,
                        std::vector<T>* log_probs) const {
    if (n > beam_width_) {
      return absl::InvalidArgumentError("requested more paths than the beam width.");
    }
    if (n > static_cast<int64_t>(beam_.size())) {
      return absl::InvalidArgumentError("Less leaves in the beam search than requested.");
    }
    Beam<T> top(n, &prefixes_);
    for (int64_t id : beam_.ids()) top.Push(id);
    const std::vector<int64_t> best = top.Extract();
    paths->assign(n, {});
    log_probs->assign(n, T(0));
    for (int64_t i = 0; i < n; ++i) {
      std::vector<int64_t>& labels = (*paths)[i];
      int64_t previous = -1;
      for (int64_t e = best[i]; prefixes_[e].parent >= 0; e = prefixes_[e].parent) {
        if (!merge_repeated || prefixes_[e].label != previous) {
          labels.push_back(prefixes_[e].label);
        }
        previous = prefixes_[e].label;
      }
      std::reverse(labels.begin(), labels.end());
      (*log_probs)[i] = prefixes_[best[i]].newp.total;
    }
    return absl::OkStatus();
  }

 private:
  bool IsCandidate(T total) {
    return total > kLogZero<T> && (beam_.size() < static_cast<size_t>(beam_width_) ||
                                   total > prefixes_[beam_.Bottom()].newp.total);
  }

  // The child of prefix `b` that appends `label`, made on first use.
  int64_t Child(int64_t b, int64_t label) {
    if (prefixes_[b].first_child < 0) {
      prefixes_[b].first_child = static_cast<int64_t>(child_slots_.size());
      child_slots_.resize(child_slots_.size() + classes_ - 1, -1);
    }
    int64_t& slot = child_slots_[prefixes_[b].first_child + label];
    if (slot < 0) {
      slot = static_cast<int64_t>(prefixes_.size());
      Prefix<T> child;
      child.parent = b;
      child.label = label;
      prefixes_.push_back(child);
    }
    return slot;
  }

  const int64_t classes_;
  const int64_t beam_width_;
  std::vector<Prefix<T>> prefixes_;
  std::vector<int64_t> child_slots_;
  Beam<T> beam_;
};

class CTCBeamSearchDecoderOp final : public OpKernel {
 public:
  explicit CTCBeamSearchDecoderOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("merge_repeated", &merge_repeated_));
    ctx.SetStatus(ctx.GetAttr("beam_width", &beam_width_));
    ctx.SetStatus(ctx.GetAttr("top_paths", &top_paths_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& inputs = ctx.input(0);
    const Tensor& lengths = ctx.input(1);
    RILL_ASSIGN_OR_RETURN(const CtcDecoderDims dims, CheckCtcDecoderInputs(inputs, lengths));
    const int64_t max_time = dims.max_time, batch = dims.batch, classes = dims.classes;
    const int32_t* len = lengths.flat<int32_t>().data();
    const int64_t top_paths = top_paths_;
    return VisitKernelTypes<float, double>(*this, inputs.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* x = inputs.flat<T>().data();
      // paths[b][p]: path p of batch entry b.
      std::vector<std::vector<std::vector<int64_t>>> paths(batch);
      std::vector<std::vector<T>> log_probs(batch);
      std::vector<absl::Status> status(batch);
      const int64_t cost = max_time * classes * std::min<int64_t>(beam_width_, 64) * 20;
      ctx.ParallelFor(batch, cost, [&](int64_t begin, int64_t end) {
        for (int64_t b = begin; b < end; ++b) {
          BeamSearch<T> search(classes, beam_width_);
          for (int64_t t = 0; t < len[b]; ++t) search.Step(x + (t * batch + b) * classes);
          status[b] = search.TopPaths(top_paths, merge_repeated_, &paths[b], &log_probs[b]);
        }
      });
      for (const absl::Status& s : status) RILL_RETURN_IF_ERROR(s);
      for (int64_t p = 0; p < top_paths; ++p) {
        int64_t total = 0, longest = 0;
        for (int64_t b = 0; b < batch; ++b) {
          total += paths[b][p].size();
          longest = std::max<int64_t>(longest, paths[b][p].size());
        }
        RILL_ASSIGN_OR_RETURN(Tensor * indices,
                              ctx.allocate_output(p, TensorShape({total, int64_t{2}})));
        RILL_ASSIGN_OR_RETURN(Tensor * values,
                              ctx.allocate_output(top_paths + p, TensorShape({total})));
        RILL_ASSIGN_OR_RETURN(Tensor * shape,
                              ctx.allocate_output(2 * top_paths + p, TensorShape({int64_t{2}})));
        int64_t* ix = indices->flat<int64_t>().data();
        int64_t* v = values->flat<int64_t>().data();
        int64_t n = 0;
        for (int64_t b = 0; b < batch; ++b) {
          for (size_t j = 0; j < paths[b][p].size(); ++j, ++n) {
            ix[2 * n] = b;
            ix[2 * n + 1] = static_cast<int64_t>(j);
            v[n] = paths[b][p][j];
          }
        }
        shape->flat<int64_t>()[0] = batch;
        shape->flat<int64_t>()[1] = longest;
      }
      RILL_ASSIGN_OR_RETURN(Tensor * log_prob,
                            ctx.allocate_output(3 * top_paths, TensorShape({batch, top_paths})));
      T* lp = log_prob->flat<T>().data();
      for (int64_t b = 0; b < batch; ++b) {
        for (int64_t p = 0; p < top_paths; ++p) lp[b * top_paths + p] = log_probs[b][p];
      }
      return absl::OkStatus();
    });
  }

 private:
  bool merge_repeated_ = true;
  int64_t beam_width_ = 1;
  int64_t top_paths_ = 1;
};

REGISTER_KERNEL(KernelDefBuilder("CTCBeamSearchDecoder")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double>()),
                CTCBeamSearchDecoderOp);

}  // namespace
}  // namespace rill
