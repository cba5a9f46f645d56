// NonMaxSuppressionV2, V3, V4 and V5 on the CPU: greedy selection of boxes [num_boxes, 4] (corners
// [y1, x1, y2, x2] in either order) by descending score (equal scores: lower index first), a
// candidate is dropped when its IoU with an already selected box exceeds iou_threshold, and only
// scores above score_threshold are considered (V2 has no score_threshold input: scores above T's
// lowest finite value). V5 with soft_nms_sigma > 0 is Soft-NMS (Bodla et
// al.): instead of being dropped, a candidate's score is multiplied by exp(-0.5 * iou^2 / sigma)
// for each selected box it was not yet compared with, and it goes back into the queue while the
// score stays above score_threshold. V4 and V5 also return the number of valid outputs and, with
// pad_to_max_output_size, pad the outputs with zeros to max_output_size.
//
// Arithmetic is done in T as TensorFlow does: for half, every IoU and score operation is rounded to
// half (the exp of the Soft-NMS weight is taken in float).
//
// CombinedNonMaxSuppression: per batch and class, hard NMS of boxes [batch, num_boxes, q, 4] (q is
// 1 or num_classes) with scores [batch, num_boxes, num_classes], keeping at most
// max_output_size_per_class per class (candidates leave a max-heap on score filled in box order,
// as TensorFlow's std::priority_queue, so equal scores keep its order); the per-class results are
// merged by descending score (TensorFlow's order: std::sort of the per-class slots) and the first
// max_total_size (or, with pad_per_class, min(max_total_size, max_output_size_per_class *
// num_classes)) are written, boxes clipped to [0, 1] with clip_boxes.
//
// Errors are InvalidArgument with TensorFlow's texts ("boxes must be 2-D[4]", "boxes must have 4
// columns", "scores must be 1-D[1,6]", "scores has incompatible shape", "max_output_size must be
// 0-D, got shape [1]", "iou_threshold must be in [0, 1]", "soft_nms_sigma_val must be >= 0",
// "max_total_size must be > 0", ...).
//
// NonMaxSuppressionWithOverlaps is hard NMS (float) over a given similarity matrix instead of box
// IoUs ("overlaps must be 2-D[4]", "overlaps must be square[2,3]").
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <queue>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/half.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

// Rounds a float result to T's precision (T's arithmetic is float arithmetic rounded to T).
template <typename T>
float R(float v) {
  return static_cast<float>(T(v));
}
template <>
float R<float>(float v) {
  return v;
}

template <typename T>
float ToF(T v) {
  return static_cast<float>(v);
}

// Intersection over union of boxes a and b ([y1, x1, y2, x2], corners in either order), in T's
// precision; 0 when either box has no area.
template <typename T>
float Iou(const float* a, const float* b) {
  const float ay0 = std::min(a[0], a[2]), ax0 = std::min(a[1], a[3]);
  const float ay1 = std::max(a[0], a[2]), ax1 = std::max(a[1], a[3]);
  const float by0 = std::min(b[0], b[2]), bx0 = std::min(b[1], b[3]);
  const float by1 = std::max(b[0], b[2]), bx1 = std::max(b[1], b[3]);
  const float area_a = R<T>(R<T>(ay1 - ay0) * R<T>(ax1 - ax0));
  const float area_b = R<T>(R<T>(by1 - by0) * R<T>(bx1 - bx0));
  if (area_a <= 0 || area_b <= 0) return 0.0f;
  const float ih = std::max(R<T>(std::min(ay1, by1) - std::max(ay0, by0)), 0.0f);
  const float iw = std::max(R<T>(std::min(ax1, bx1) - std::max(ax0, bx0)), 0.0f);
  const float inter = R<T>(ih * iw);
  return R<T>(inter / R<T>(R<T>(area_a + area_b) - inter));
}

absl::Status ScalarCheck(const Tensor& t, const char* name, bool rank_note) {
  if (t.shape().rank() == 0) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      name, " must be 0-D, got shape ", t.shape().DebugString(),
      rank_note ? absl::StrCat(" (Shape must be rank 0 but is rank ", t.shape().rank(), ")")
                : std::string()));
}

// boxes [num_boxes, 4] and scores [num_boxes].
absl::StatusOr<int64_t> CheckBoxesAndScores(const Tensor& boxes, const Tensor& scores) {
  const TensorShape bs = boxes.shape();
  if (bs.rank() != 2) {
    return absl::InvalidArgumentError(absl::StrCat("boxes must be 2-D", bs.DebugString(),
                                                   " (Shape must be rank 2 but is rank ", bs.rank(),
                                                   ")"));
  }
  if (bs.dim(1) != 4) {
    return absl::InvalidArgumentError(
        absl::StrCat("boxes must have 4 columns (Dimension must be 4 but is ", bs.dim(1), ")"));
  }
  const int64_t n = bs.dim(0);
  const TensorShape ss = scores.shape();
  if (ss.rank() != 1) {
    return absl::InvalidArgumentError(absl::StrCat("scores must be 1-D", ss.DebugString(),
                                                   " (Shape must be rank 1 but is rank ", ss.rank(),
                                                   ")"));
  }
  if (ss.dim(0) != n) {
    return absl::InvalidArgumentError(
        absl::StrCat("scores has incompatible shape (Dimensions must be equal, but are ", n,
                     " and ", ss.dim(0), ")"));
  }
  if (n > std::numeric_limits<int32_t>::max()) {
    return absl::InvalidArgumentError("boxes has too many rows");
  }
  return n;
}

// The result of one NMS: selected box indices and their (possibly soft-suppressed) scores.
struct NmsResult {
  std::vector<int32_t> indices;
  std::vector<float> scores;
};

// Greedy (Soft-)NMS over scores (as float), T's precision; similarity(candidate, selected) is the
// IoU of two boxes, or NonMaxSuppressionWithOverlaps' overlaps[candidate][selected].
template <typename T, typename Similarity>
NmsResult RunNms(Similarity similarity, const std::vector<float>& scores, int64_t max_output,
                 float iou_threshold, float score_threshold, float sigma) {
  struct Candidate {
    int32_t index;
    float score;
    int64_t compared;  // selected boxes [0, compared) were already applied to score
  };
  // Higher score first; equal scores: lower index first.
  auto lower_priority = [](const Candidate& a, const Candidate& b) {
    return a.score < b.score || (a.score == b.score && a.index > b.index);
  };
  std::priority_queue<Candidate, std::vector<Candidate>, decltype(lower_priority)> queue(
      lower_priority);
  for (size_t i = 0; i < scores.size(); ++i) {
    if (scores[i] > score_threshold) queue.push({static_cast<int32_t>(i), scores[i], 0});
  }
  const bool soft = sigma > 0;
  const float scale = soft ? R<T>(-0.5f / sigma) : 0.0f;
  NmsResult out;
  while (static_cast<int64_t>(out.indices.size()) < max_output && !queue.empty()) {
    Candidate c = queue.top();
    queue.pop();
    const float original = c.score;
    bool dropped = false;
    for (int64_t j = static_cast<int64_t>(out.indices.size()) - 1; j >= c.compared; --j) {
      const float iou = similarity(c.index, out.indices[j]);
      // TensorFlow's weight: exp(scale * iou^2) in soft mode whatever the IoU; in hard mode 1
      // (scale is 0) at or below the threshold and 0 otherwise, so an IoU of NaN (a box with a
      // NaN corner) zeroes the candidate's score without dropping it: it goes back into the
      // queue at score 0 when that is above score_threshold.
      float w = R<T>(std::exp(R<T>(R<T>(scale * iou) * iou)));
      if (!soft && !(iou <= iou_threshold)) w = 0.0f;
      c.score = R<T>(c.score * w);
      if (!soft && iou > iou_threshold) {
        dropped = true;
        break;
      }
      if (c.score <= score_threshold) break;
    }
    c.compared = static_cast<int64_t>(out.indices.size());
    if (dropped) continue;
    if (c.score == original) {
      out.indices.push_back(c.index);
      out.scores.push_back(c.score);
    } else if (c.score > score_threshold) {
      queue.push(c);
    }
  }
  return out;
}

template <typename T>
std::vector<float> AsFloats(const Tensor& t) {
  std::vector<float> v(static_cast<size_t>(t.NumElements()));
  const T* p = t.flat<T>().data();
  for (size_t i = 0; i < v.size(); ++i) v[i] = ToF(p[i]);
  return v;
}

// The IoU of boxes a and b of boxes [n, 4] (as float), in T's precision.
template <typename T>
struct BoxIou {
  const float* boxes;
  float operator()(int32_t a, int32_t b) const { return Iou<T>(boxes + 4 * a, boxes + 4 * b); }
};

float ScalarAsFloat(const Tensor& t) {
  return t.dtype() == DT_HALF ? static_cast<float>(t.flat<half>()[0]) : t.flat<float>()[0];
}

// NonMaxSuppression (kVersion 1: iou_threshold an attr), V2 (2), V3 (3), V4 (4) and V5 (5).
template <int kVersion>
class NonMaxSuppressionOp final : public OpKernel {
 public:
  explicit NonMaxSuppressionOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    if (kVersion >= 4) ctx.SetStatus(ctx.GetAttr("pad_to_max_output_size", &pad_));
    if (kVersion == 1) ctx.SetStatus(ctx.GetAttr("iou_threshold", &iou_attr_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& boxes = ctx.input(0);
    const Tensor& scores = ctx.input(1);
    const bool note = kVersion == 3;
    RILL_RETURN_IF_ERROR(ScalarCheck(ctx.input(2), "max_output_size", note));
    if (kVersion >= 2) RILL_RETURN_IF_ERROR(ScalarCheck(ctx.input(3), "iou_threshold", note));
    const float iou = kVersion >= 2 ? ScalarAsFloat(ctx.input(3)) : iou_attr_;
    if (!(iou >= 0.0f && iou <= 1.0f)) {
      return absl::InvalidArgumentError("iou_threshold must be in [0, 1]");
    }
    float score_threshold =
        ctx.input(0).dtype() == DT_HALF ? -65504.0f : std::numeric_limits<float>::lowest();
    if (kVersion >= 3) {
      RILL_RETURN_IF_ERROR(ScalarCheck(ctx.input(4), "score_threshold", false));
      score_threshold = ScalarAsFloat(ctx.input(4));
    }
    float sigma = 0.0f;
    if (kVersion == 5) {
      RILL_RETURN_IF_ERROR(ScalarCheck(ctx.input(5), "soft_nms_sigma", false));
      sigma = ScalarAsFloat(ctx.input(5));
      if (!(sigma >= 0.0f)) {
        return absl::InvalidArgumentError("soft_nms_sigma_val must be >= 0");
      }
    }
    RILL_RETURN_IF_ERROR(CheckBoxesAndScores(boxes, scores).status());
    const int64_t max_output = ctx.input(2).flat<int32_t>()[0];
    if (max_output < 0) return absl::InvalidArgumentError("output size must be non-negative");
    const bool is_half = boxes.dtype() == DT_HALF;
    NmsResult r;
    if (is_half) {
      const std::vector<float> b = AsFloats<half>(boxes);
      r = RunNms<half>(BoxIou<half>{b.data()}, AsFloats<half>(scores), max_output, R<half>(iou),
                       R<half>(score_threshold), R<half>(sigma));
    } else {
      const std::vector<float> b = AsFloats<float>(boxes);
      r = RunNms<float>(BoxIou<float>{b.data()}, AsFloats<float>(scores), max_output, iou,
                        score_threshold, sigma);
    }
    const int64_t valid = static_cast<int64_t>(r.indices.size());
    // Padded to max_output_size with zeros (allocated, not built up in vectors).
    const int64_t count = pad_ ? max_output : valid;
    RILL_ASSIGN_OR_RETURN(Tensor * indices, ctx.allocate_output(0, TensorShape({count})));
    int32_t* idx = indices->flat<int32_t>().data();
    std::copy(r.indices.begin(), r.indices.end(), idx);
    std::fill(idx + valid, idx + count, 0);
    int valid_output = 1;
    if (kVersion == 5) {
      RILL_ASSIGN_OR_RETURN(Tensor * out_scores, ctx.allocate_output(1, TensorShape({count})));
      for (int64_t i = 0; i < count; ++i) {
        const float v = i < valid ? r.scores[i] : 0.0f;
        if (is_half) {
          out_scores->flat<half>()[i] = half(v);
        } else {
          out_scores->flat<float>()[i] = v;
        }
      }
      valid_output = 2;
    }
    if (kVersion >= 4) {
      RILL_ASSIGN_OR_RETURN(Tensor * n, ctx.allocate_output(valid_output, TensorShape({})));
      n->flat<int32_t>()[0] = static_cast<int32_t>(valid);
    }
    return absl::OkStatus();
  }

 private:
  bool pad_ = false;
  float iou_attr_ = 0.5f;  // NonMaxSuppression's iou_threshold
};

// NonMaxSuppressionWithOverlaps: hard NMS in float where the similarity of two boxes is read from
// overlaps [num_boxes, num_boxes] (overlaps[candidate][selected]) and compared with
// overlap_threshold (no range check, as TensorFlow).
class NonMaxSuppressionWithOverlapsOp final : public OpKernel {
 public:
  explicit NonMaxSuppressionWithOverlapsOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& overlaps = ctx.input(0);
    const Tensor& scores = ctx.input(1);
    RILL_RETURN_IF_ERROR(ScalarCheck(ctx.input(2), "max_output_size", false));
    RILL_RETURN_IF_ERROR(ScalarCheck(ctx.input(3), "overlap_threshold", false));
    RILL_RETURN_IF_ERROR(ScalarCheck(ctx.input(4), "score_threshold", false));
    const float overlap_threshold = ctx.input(3).flat<float>()[0];
    const float score_threshold = ctx.input(4).flat<float>()[0];
    const TensorShape os = overlaps.shape();
    if (os.rank() != 2) {
      return absl::InvalidArgumentError(absl::StrCat("overlaps must be 2-D", os.DebugString()));
    }
    const int64_t n = os.dim(0);
    if (os.dim(1) != n) {
      return absl::InvalidArgumentError(absl::StrCat("overlaps must be square", os.DebugString()));
    }
    const TensorShape ss = scores.shape();
    if (ss.rank() != 1) {
      return absl::InvalidArgumentError(absl::StrCat("scores must be 1-D", ss.DebugString(),
                                                     " (Shape must be rank 1 but is rank ",
                                                     ss.rank(), ")"));
    }
    if (ss.dim(0) != n) {
      return absl::InvalidArgumentError(
          absl::StrCat("scores has incompatible shape (Dimensions must be equal, but are ", n,
                       " and ", ss.dim(0), ")"));
    }
    if (n > std::numeric_limits<int32_t>::max()) {
      return absl::InvalidArgumentError("overlaps has too many rows");
    }
    const int64_t max_output = ctx.input(2).flat<int32_t>()[0];
    if (max_output < 0) return absl::InvalidArgumentError("output size must be non-negative");
    const float* o = overlaps.flat<float>().data();
    auto similarity = [o, n](int32_t a, int32_t b) { return o[a * n + b]; };
    const NmsResult r = RunNms<float>(similarity, AsFloats<float>(scores), max_output,
                                      overlap_threshold, score_threshold, 0.0f);
    RILL_ASSIGN_OR_RETURN(
        Tensor * indices,
        ctx.allocate_output(0, TensorShape({static_cast<int64_t>(r.indices.size())})));
    std::copy(r.indices.begin(), r.indices.end(), indices->flat<int32_t>().data());
    return absl::OkStatus();
  }
};

// One CombinedNonMaxSuppression result slot: a selected box of a class (box_index -1: empty).
struct ResultSlot {
  int32_t box_index = -1;
  float score = -1.0f;
  int32_t class_idx = -1;
  float box[4] = {0, 0, 0, 0};
};

class CombinedNonMaxSuppressionOp final : public OpKernel {
 public:
  explicit CombinedNonMaxSuppressionOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("pad_per_class", &pad_per_class_));
    ctx.SetStatus(ctx.GetAttr("clip_boxes", &clip_boxes_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& boxes = ctx.input(0);
    const Tensor& scores = ctx.input(1);
    const TensorShape bs = boxes.shape(), ss = scores.shape();
    if (bs.rank() > 0 && ss.rank() > 0 && bs.dim(0) != ss.dim(0)) {
      return absl::InvalidArgumentError("boxes and scores must have same batch size");
    }
    RILL_RETURN_IF_ERROR(ScalarCheck(ctx.input(2), "max_size_per_class", false));
    const int64_t max_size_per_class = ctx.input(2).flat<int32_t>()[0];
    RILL_RETURN_IF_ERROR(ScalarCheck(ctx.input(3), "max_total_size", false));
    const int64_t max_total_size = ctx.input(3).flat<int32_t>()[0];
    if (max_total_size <= 0) return absl::InvalidArgumentError("max_total_size must be > 0");
    RILL_RETURN_IF_ERROR(ScalarCheck(ctx.input(4), "iou_threshold", false));
    const float iou_threshold = ctx.input(4).flat<float>()[0];
    RILL_RETURN_IF_ERROR(ScalarCheck(ctx.input(5), "score_threshold", false));
    const float score_threshold = ctx.input(5).flat<float>()[0];
    if (!(iou_threshold >= 0 && iou_threshold <= 1)) {
      return absl::InvalidArgumentError("iou_threshold must be in [0, 1]");
    }
    if (ss.rank() != 3) {
      return absl::InvalidArgumentError(absl::StrCat("scores must be 3-D", ss.DebugString()));
    }
    const int64_t num_classes = ss.dim(2);
    if (bs.rank() != 4) {
      return absl::InvalidArgumentError(absl::StrCat("boxes must be 4-D", bs.DebugString()));
    }
    const int64_t q = bs.dim(2);
    if (q != 1 && q != num_classes) {
      return absl::InvalidArgumentError("third dimension of boxes must be either 1 or num classes");
    }
    const int64_t num_boxes = bs.dim(1);
    if (bs.dim(3) != 4) return absl::InvalidArgumentError("boxes must have 4 columns");
    if (ss.dim(1) != num_boxes) {
      return absl::InvalidArgumentError("scores has incompatible shape");
    }
    const int64_t batches = bs.dim(0);
    const int64_t size_per_class =
        std::max<int64_t>(0, std::min<int64_t>(max_size_per_class, num_boxes));
    const int64_t per_batch =
        pad_per_class_ ? std::min<int64_t>(max_total_size,
                                           std::max<int64_t>(0, max_size_per_class) * num_classes)
                       : max_total_size;
    RILL_ASSIGN_OR_RETURN(const TensorShape boxes_shape,
                          TensorShape::FromDims({batches, per_batch, 4}));
    RILL_ASSIGN_OR_RETURN(const TensorShape scores_shape,
                          TensorShape::FromDims({batches, per_batch}));
    RILL_ASSIGN_OR_RETURN(Tensor * out_boxes, ctx.allocate_output(0, boxes_shape));
    RILL_ASSIGN_OR_RETURN(Tensor * out_scores, ctx.allocate_output(1, scores_shape));
    RILL_ASSIGN_OR_RETURN(Tensor * out_classes, ctx.allocate_output(2, scores_shape));
    RILL_ASSIGN_OR_RETURN(Tensor * out_valid, ctx.allocate_output(3, TensorShape({batches})));
    float* ob = out_boxes->flat<float>().data();
    float* os = out_scores->flat<float>().data();
    float* oc = out_classes->flat<float>().data();
    std::fill_n(ob, out_boxes->NumElements(), 0.0f);
    std::fill_n(os, out_scores->NumElements(), 0.0f);
    std::fill_n(oc, out_classes->NumElements(), 0.0f);
    const float* box_data = boxes.flat<float>().data();
    const float* score_data = scores.flat<float>().data();
    // Each (batch, class) pair's selection is independent: the pairs are spread over the intra-op
    // threads, each filling its own slots; then each batch merges its classes' slots.
    std::vector<ResultSlot> all_slots(static_cast<size_t>(batches * num_classes * size_per_class));
    // With q == 1 the classes of a batch share its boxes: ordered once per batch.
    std::vector<OrderedBox> shared;
    if (q == 1) {
      shared.resize(static_cast<size_t>(batches * num_boxes));
      for (int64_t b = 0; b < batches; ++b) {
        OrderBoxes(box_data + b * num_boxes * 4, num_boxes, 1, 0, shared.data() + b * num_boxes);
      }
    }
    ctx.ParallelFor(batches * num_classes, num_boxes * 64, [&](int64_t begin, int64_t end) {
      std::vector<OrderedBox> own(q > 1 ? static_cast<size_t>(num_boxes) : 0);
      for (int64_t u = begin; u < end; ++u) {
        const int64_t b = u / num_classes, c = u % num_classes;
        const float* batch_boxes = box_data + b * num_boxes * q * 4;
        // (shared is empty when q > 1: no offset into it then.)
        const OrderedBox* ordered = own.data();
        if (q > 1) {
          OrderBoxes(batch_boxes, num_boxes, q, c, own.data());
        } else {
          ordered = shared.data() + b * num_boxes;
        }
        ClassNms(batch_boxes, ordered, score_data + b * num_boxes * num_classes, num_boxes, q,
                 num_classes, c, size_per_class, iou_threshold, score_threshold,
                 all_slots.data() + u * size_per_class);  // no element to refer to when empty
      }
    });
    ctx.ParallelFor(batches, num_classes * size_per_class * 8, [&](int64_t begin, int64_t end) {
      for (int64_t b = begin; b < end; ++b) {
        const auto first = all_slots.begin() + b * num_classes * size_per_class;
        const auto last = first + num_classes * size_per_class;
        std::sort(first, last,
                  [](const ResultSlot& x, const ResultSlot& y) { return x.score > y.score; });
        const int64_t filled =
            std::count_if(first, last, [](const ResultSlot& r) { return r.box_index > -1; });
        const int64_t count = std::min(filled, per_batch);
        out_valid->flat<int32_t>()[b] = static_cast<int32_t>(count);
        for (int64_t i = 0; i < count; ++i) {
          const ResultSlot& r = first[i];
          for (int k = 0; k < 4; ++k) {
            ob[(b * per_batch + i) * 4 + k] =
                clip_boxes_ ? std::max(std::min(r.box[k], 1.0f), 0.0f) : r.box[k];
          }
          os[b * per_batch + i] = r.score;
          oc[b * per_batch + i] = static_cast<float>(r.class_idx);
        }
      }
    });
    return absl::OkStatus();
  }

 private:
  // A box with its corners ordered and its area, as Iou<float> computes them.
  struct OrderedBox {
    float y0, x0, y1, x1, area;
  };

  // The boxes of class c (all classes' when q is 1) of one batch [num_boxes, q, 4], into
  // out[0, num_boxes).
  static void OrderBoxes(const float* boxes, int64_t num_boxes, int64_t q, int64_t c,
                         OrderedBox* out) {
    for (int64_t i = 0; i < num_boxes; ++i) {
      const float* a = boxes + (i * q + (q > 1 ? c : 0)) * 4;
      OrderedBox& o = out[i];
      o.y0 = std::min(a[0], a[2]);
      o.x0 = std::min(a[1], a[3]);
      o.y1 = std::max(a[0], a[2]);
      o.x1 = std::max(a[1], a[3]);
      o.area = (o.y1 - o.y0) * (o.x1 - o.x0);
    }
  }

  // The selected boxes of one class whose area is above 0, by coordinate (structure of arrays, so
  // a candidate's IoUs with all of them are one vector loop). A box without area has IoU 0 with
  // every box, which never exceeds an iou_threshold in [0, 1]: such boxes are kept and never
  // suppress, so they are not listed.
  struct SelectedBoxes {
    std::vector<float> y0, x0, y1, x1, area;
    void Add(const OrderedBox& b) {
      y0.push_back(b.y0);
      x0.push_back(b.x0);
      y1.push_back(b.y1);
      x1.push_back(b.x1);
      area.push_back(b.area);
    }
  };

  // Whether candidate a (area above 0, or NaN) has an IoU above iou_threshold with a selected box:
  // Iou<float>'s arithmetic, in blocks of 16 boxes (branch-free inside a block, so it vectorizes).
  static bool Suppressed(const OrderedBox& a, const SelectedBoxes& s, float iou_threshold) {
    const int64_t n = static_cast<int64_t>(s.area.size());
    const float* __restrict y0 = s.y0.data();
    const float* __restrict x0 = s.x0.data();
    const float* __restrict y1 = s.y1.data();
    const float* __restrict x1 = s.x1.data();
    const float* __restrict area = s.area.data();
    for (int64_t j0 = 0; j0 < n; j0 += 16) {
      const int64_t j1 = std::min<int64_t>(n, j0 + 16);
      int any = 0;
      for (int64_t j = j0; j < j1; ++j) {
        const float ih = std::max(std::min(a.y1, y1[j]) - std::max(a.y0, y0[j]), 0.0f);
        const float iw = std::max(std::min(a.x1, x1[j]) - std::max(a.x0, x0[j]), 0.0f);
        const float inter = ih * iw;
        any |= inter / ((a.area + area[j]) - inter) > iou_threshold;
      }
      if (any) return true;
    }
    return false;
  }

  // Hard NMS of class `c` of one batch: boxes [num_boxes, q, 4] (`ordered`: the class's boxes
  // from OrderBoxes), scores [num_boxes, num_classes]; the selected boxes fill
  // slots[0, size_per_class) in selection order. Candidates come off a max-heap on score filled in
  // box order, as TensorFlow's std::priority_queue does (equal scores leave in its order), and
  // only as many as the selection needs are taken off. A candidate is dropped when its IoU
  // (Iou<float>) with any selected box exceeds iou_threshold.
  static void ClassNms(const float* boxes, const OrderedBox* ordered, const float* scores,
                       int64_t num_boxes, int64_t q, int64_t num_classes, int64_t c,
                       int64_t size_per_class, float iou_threshold, float score_threshold,
                       ResultSlot* slots) {
    struct Candidate {
      int32_t index;
      float score;
    };
    auto lower = [](const Candidate& x, const Candidate& y) { return x.score < y.score; };
    std::priority_queue<Candidate, std::vector<Candidate>, decltype(lower)> queue(lower);
    for (int64_t i = 0; i < num_boxes; ++i) {
      const float s = scores[i * num_classes + c];
      if (s > score_threshold) queue.push({static_cast<int32_t>(i), s});
    }
    SelectedBoxes with_area;
    int64_t selected = 0;
    while (!queue.empty() && selected < size_per_class) {
      const Candidate next = queue.top();
      queue.pop();
      const OrderedBox& box = ordered[next.index];
      if (!(box.area <= 0)) {
        if (Suppressed(box, with_area, iou_threshold)) continue;
        with_area.Add(box);
      }
      ResultSlot& r = slots[selected++];
      r.box_index = next.index;
      r.score = next.score;
      r.class_idx = static_cast<int32_t>(c);
      std::copy_n(boxes + (next.index * q + (q > 1 ? c : 0)) * 4, 4, r.box);
    }
  }

  bool pad_per_class_ = false;
  bool clip_boxes_ = true;
};

REGISTER_KERNEL(
    KernelDefBuilder("NonMaxSuppression").Device(kDeviceCpu).HostMemory("max_output_size"),
    NonMaxSuppressionOp<1>);
REGISTER_KERNEL(KernelDefBuilder("NonMaxSuppressionV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_HALF, DT_FLOAT})
                    .TypeConstraint("T_threshold", {DT_HALF, DT_FLOAT})
                    .HostMemory("max_output_size")
                    .HostMemory("iou_threshold"),
                NonMaxSuppressionOp<2>);
REGISTER_KERNEL(KernelDefBuilder("NonMaxSuppressionV3")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_HALF, DT_FLOAT})
                    .TypeConstraint("T_threshold", {DT_HALF, DT_FLOAT})
                    .HostMemory("max_output_size")
                    .HostMemory("iou_threshold")
                    .HostMemory("score_threshold"),
                NonMaxSuppressionOp<3>);
REGISTER_KERNEL(KernelDefBuilder("NonMaxSuppressionV4")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_HALF, DT_FLOAT})
                    .TypeConstraint("T_threshold", {DT_HALF, DT_FLOAT})
                    .HostMemory("max_output_size")
                    .HostMemory("iou_threshold")
                    .HostMemory("score_threshold"),
                NonMaxSuppressionOp<4>);
REGISTER_KERNEL(KernelDefBuilder("NonMaxSuppressionV5")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_HALF, DT_FLOAT})
                    .HostMemory("max_output_size")
                    .HostMemory("iou_threshold")
                    .HostMemory("score_threshold")
                    .HostMemory("soft_nms_sigma"),
                NonMaxSuppressionOp<5>);
REGISTER_KERNEL(KernelDefBuilder("NonMaxSuppressionWithOverlaps")
                    .Device(kDeviceCpu)
                    .HostMemory("max_output_size")
                    .HostMemory("overlap_threshold")
                    .HostMemory("score_threshold"),
                NonMaxSuppressionWithOverlapsOp);
REGISTER_KERNEL(KernelDefBuilder("CombinedNonMaxSuppression")
                    .Device(kDeviceCpu)
                    .HostMemory("max_output_size_per_class")
                    .HostMemory("max_total_size")
                    .HostMemory("iou_threshold")
                    .HostMemory("score_threshold"),
                CombinedNonMaxSuppressionOp);

}  // namespace
}  // namespace rill
