#include "kernels/math_lib/small_map_conv.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "core/openmp_parallel_for.h"
#include "kernels/math_lib/simd_dispatch.h"

#if RILL_SIMD_CLONES
#include <immintrin.h>
#endif

namespace rill {
namespace {

// Filter floats ahead of the one being read that each step prefetches (4 KiB: the hardware
// prefetcher alone left these passes about 30% slower).
constexpr int64_t kPrefetchAhead = 1024;

// With skip_zero_taps, pixels are grouped by the taps they read only when every group has at
// least this many (an atrous convolution's 16 maps of 2x2 give 4 groups of 16; a padded 2x2 or
// 5x5 map gives groups of 1-9, which ran slower than one block reading every tap).
constexpr int64_t kMinPixelsPerTapSet = 8;

int64_t WindowSize(const SmallMapConvGeometry& g) { return g.k_h * g.k_w * g.in_c; }

#if RILL_SIMD_CLONES
#define RILL_SMALL_MAP_TARGET __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")))

// A run of window elements whose filter rows are consecutive in a group's packed filter (the
// taps of one window row that a block's pixels read), and where the run starts in a window row.
struct Segment {
  int64_t filter_row = 0;  // the first of the run's rows in the group's [k_h * k_w * in_c] rows
  int64_t column = 0;      // its first element's column in the windows matrix
  int64_t length = 0;
};

// c[pixel[m] * ldc, 0:16] = (sum over the segments' k of a[m * lda + column(k)] *
// w[row(k), 0:16]) (+ bias) (+ c on entry) for m < MR, only the lanes in `mask` stored. Each
// row's sum is accumulated in order of k.
template <int MR>
RILL_SMALL_MAP_TARGET void Block(const float* a, int64_t lda, const float* w,
                                 const Segment* segments, int64_t num_segments, const float* bias,
                                 bool add, __mmask16 mask, float* c, int64_t ldc,
                                 const int64_t* pixel) {
  __m512 acc[MR];
#pragma GCC unroll 32
  for (int m = 0; m < MR; ++m) acc[m] = _mm512_setzero_ps();
  for (int64_t s = 0; s < num_segments; ++s) {
    const float* ws = w + segments[s].filter_row * 16;
    const float* as = a + segments[s].column;
    const int64_t length = segments[s].length;
    // Prefetches stay inside the segment: the rows after it may be taps no pixel here reads.
    const int64_t prefetched = std::max<int64_t>(0, length - kPrefetchAhead / 16);
    for (int64_t r = 0; r < length; ++r) {
      const __m512 wk = _mm512_loadu_ps(ws + r * 16);
      if (r < prefetched) {
        _mm_prefetch(reinterpret_cast<const char*>(ws + r * 16 + kPrefetchAhead), _MM_HINT_T0);
      }
#pragma GCC unroll 32
      for (int m = 0; m < MR; ++m) {
        acc[m] = _mm512_fmadd_ps(_mm512_set1_ps(as[m * lda + r]), wk, acc[m]);
      }
    }
  }
  if (bias != nullptr) {
    const __m512 b = _mm512_maskz_loadu_ps(mask, bias);
#pragma GCC unroll 32
    for (int m = 0; m < MR; ++m) acc[m] = _mm512_add_ps(acc[m], b);
  }
  if (add) {
#pragma GCC unroll 32
    for (int m = 0; m < MR; ++m) {
      acc[m] = _mm512_add_ps(acc[m], _mm512_maskz_loadu_ps(mask, c + pixel[m] * ldc));
    }
  }
#pragma GCC unroll 32
  for (int m = 0; m < MR; ++m) _mm512_mask_storeu_ps(c + pixel[m] * ldc, mask, acc[m]);
}

using BlockFn = void (*)(const float*, int64_t, const float*, const Segment*, int64_t, const float*,
                         bool, __mmask16, float*, int64_t, const int64_t*);

template <int... I>
constexpr std::array<BlockFn, sizeof...(I)> MakeBlocks(std::integer_sequence<int, I...>) {
  return {&Block<I + 1>...};
}
constexpr auto kBlocks = MakeBlocks(std::make_integer_sequence<int, kSmallMapBlockPixels>());
#endif  // RILL_SIMD_CLONES

}  // namespace

bool SmallMapConvApplies(const SmallMapConvGeometry& g) {
#if RILL_SIMD_CLONES
  const int64_t pixels = g.batch * g.out_h * g.out_w;
  const bool dilated = g.dil_h > 1 || g.dil_w > 1;
  const int64_t max_pixels =
      g.out_w <= kSmallMapNarrowWidth || dilated ? kSmallMapNarrowMaxPixels : kSmallMapMaxPixels;
  return ActiveSimdLevel() == SimdLevel::kAvx512 && pixels >= 1 && pixels <= max_pixels &&
         WindowSize(g) * g.out_c >= kSmallMapMinWeights;
#else
  (void)g;
  return false;
#endif
}

int64_t SmallMapPackedFilterSize(const SmallMapConvGeometry& g) {
  return (g.out_c + 15) / 16 * 16 * WindowSize(g);
}

void SmallMapConv2D(const SmallMapConvGeometry& g, int threads, const float* input,
                    const float* packed_filter, const float* bias, bool add_to_output,
                    float* output, bool skip_zero_taps) {
#if RILL_SIMD_CLONES
  const int64_t pixels = g.batch * g.out_h * g.out_w;
  // Taps no output pixel's window reaches the input with (a 3x3 SAME filter on a 1x1 map reads
  // only padding through 8 of its 9 taps) add only zeros: they are left out of the windows and
  // their filter rows are never read. A tap row kh is live when some output row reads an input
  // row through it, a tap column likewise; the live taps are those of a live row and column.
  auto live = [](int64_t k, int64_t out, int64_t stride, int64_t pad, int64_t dil, int64_t in) {
    for (int64_t o = 0; o < out; ++o) {
      const int64_t x = o * stride - pad + k * dil;
      if (x >= 0 && x < in) return true;
    }
    return false;
  };
  std::vector<char> live_h(g.k_h), live_w(g.k_w);
  bool all_live = true;
  for (int64_t kh = 0; kh < g.k_h; ++kh) {
    live_h[kh] = live(kh, g.out_h, g.stride_h, g.pad_top, g.dil_h, g.in_h);
    all_live = all_live && live_h[kh];
  }
  for (int64_t kw = 0; kw < g.k_w; ++kw) {
    live_w[kw] = live(kw, g.out_w, g.stride_w, g.pad_left, g.dil_w, g.in_w);
    all_live = all_live && live_w[kw];
  }
  // The live taps (kh, kw) in window order; a window row holds their in_c elements each.
  std::vector<std::pair<int64_t, int64_t>> taps;
  for (int64_t kh = 0; kh < g.k_h; ++kh) {
    for (int64_t kw = 0; kw < g.k_w; ++kw) {
      if (live_h[kh] && live_w[kw]) taps.emplace_back(kh, kw);
    }
  }
  const int64_t k_total = static_cast<int64_t>(taps.size()) * g.in_c;
  const int64_t filter_rows = WindowSize(g);  // a group's rows in the packed filter
  // The windows as rows of a [pixels, k_total] matrix with row stride lda. A stride of an even
  // number of cache lines would put the rows read together in few L1 sets (a 2048-channel row is
  // 128 lines: every row in one set), so it is padded to an odd number.
  const bool in_place = all_live && g.k_h == 1 && g.k_w == 1 && g.stride_h == 1 &&
                        g.stride_w == 1 && g.pad_top == 0 && g.pad_left == 0 && g.out_h == g.in_h &&
                        g.out_w == g.in_w && (g.in_c % 16 != 0 || (g.in_c / 16) % 2 == 1);
  // Per pixel, the live taps its window reads something other than zeros through (bit t: taps[t]),
  // when `skip_zero_taps` and there are at most 64: a tap that reads padding or a run of zeros
  // (SpaceToBatchND's padding before an atrous convolution) adds only zeros to that pixel's sums,
  // since every weight is finite. Pixels are then taken in order of their sets, so that a block
  // holds pixels of one set and reads only its taps' filter rows.
  const bool by_taps = skip_zero_taps && !in_place && !taps.empty() && taps.size() <= 64;
  const uint64_t every_tap = taps.size() >= 64 ? ~uint64_t{0} : (uint64_t{1} << taps.size()) - 1;
  auto source = [&](int64_t p, int64_t t) -> const float* {
    const int64_t n = p / (g.out_h * g.out_w);
    const int64_t oh = p / g.out_w % g.out_h, ow = p % g.out_w;
    const int64_t h = oh * g.stride_h - g.pad_top + taps[t].first * g.dil_h;
    const int64_t w = ow * g.stride_w - g.pad_left + taps[t].second * g.dil_w;
    if (h < 0 || h >= g.in_h || w < 0 || w >= g.in_w) return nullptr;
    return input + ((n * g.in_h + h) * g.in_w + w) * g.in_c;
  };
  thread_local std::vector<uint64_t> reads;
  thread_local std::vector<int64_t> order;
  reads.assign(static_cast<size_t>(pixels), every_tap);
  order.resize(static_cast<size_t>(pixels));
  for (int64_t p = 0; p < pixels; ++p) order[p] = p;
  if (by_taps) {
    for (int64_t p = 0; p < pixels; ++p) {
      uint64_t bits = 0;
      for (size_t t = 0; t < taps.size(); ++t) {
        const float* src = source(p, static_cast<int64_t>(t));
        if (src != nullptr && std::any_of(src, src + g.in_c, [](float v) { return v != 0.f; })) {
          bits |= uint64_t{1} << t;
        }
      }
      reads[p] = bits;
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t x, int64_t y) { return reads[x] < reads[y]; });
    // Sets of few pixels (the corners and edges of a padded map) would run as blocks of one to
    // a few pixels, each a pass over its taps' rows with little arithmetic per weight: then every
    // pixel reads every live tap, as without skip_zero_taps.
    for (int64_t r0 = 0, r1 = 0; r0 < pixels; r0 = r1) {
      for (r1 = r0 + 1; r1 < pixels && reads[order[r1]] == reads[order[r0]];) ++r1;
      if (r1 - r0 < kMinPixelsPerTapSet) {
        std::fill(reads.begin(), reads.end(), every_tap);
        for (int64_t p = 0; p < pixels; ++p) order[p] = p;
        break;
      }
    }
  }
  const float* a = input;
  int64_t lda = g.in_c;
  thread_local std::vector<float> windows;
  if (!in_place) {
    lda = (k_total + 15) / 16 * 16;
    if ((lda / 16) % 2 == 0) lda += 16;
    windows.resize(static_cast<size_t>(pixels * lda));
    for (int64_t m = 0; m < pixels; ++m) {  // windows in the pixels' order
      float* dst = windows.data() + m * lda;
      for (size_t t = 0; t < taps.size(); ++t, dst += g.in_c) {
        const float* src = source(order[m], static_cast<int64_t>(t));
        if (src == nullptr) {
          std::memset(dst, 0, sizeof(float) * g.in_c);
        } else {
          std::memcpy(dst, src, sizeof(float) * g.in_c);
        }
      }
    }
    a = windows.data();
  }
  // Runs of pixels with one set of taps, each split into near-equal blocks of at most
  // kSmallMapBlockPixels, one register each: the first block streams a group's filter from
  // memory, the others read it again from the L2. Each run's segments: its taps' filter rows
  // (adjacent taps merged) and their columns in the windows.
  struct PixelBlock {
    int64_t begin, end;
    int64_t first_segment, num_segments;
  };
  std::vector<PixelBlock> blocks;
  std::vector<Segment> segments;
  for (int64_t r0 = 0; r0 < pixels;) {
    const uint64_t set = reads[order[r0]];
    int64_t r1 = r0 + 1;
    while (r1 < pixels && reads[order[r1]] == set) ++r1;
    const int64_t first = static_cast<int64_t>(segments.size());
    for (size_t t = 0; t < taps.size(); ++t) {
      if ((set >> t & 1) == 0) continue;
      const int64_t row = (taps[t].first * g.k_w + taps[t].second) * g.in_c;
      const int64_t column = static_cast<int64_t>(t) * g.in_c;
      if (static_cast<int64_t>(segments.size()) > first &&
          segments.back().filter_row + segments.back().length == row &&
          segments.back().column + segments.back().length == column) {
        segments.back().length += g.in_c;
      } else {
        segments.push_back({row, column, g.in_c});
      }
    }
    const int64_t count = static_cast<int64_t>(segments.size()) - first;
    const int64_t n = r1 - r0;
    const int64_t parts = (n + kSmallMapBlockPixels - 1) / kSmallMapBlockPixels;
    for (int64_t q = 0; q < parts; ++q) {
      blocks.push_back({r0 + n * q / parts, r0 + n * (q + 1) / parts, first, count});
    }
    r0 = r1;
  }
  const int64_t groups = (g.out_c + 15) / 16;
  const int64_t* pixel_order = order.data();  // this thread's: the team's threads read it
  auto run = [&](int64_t begin, int64_t end) {
    for (int64_t j = begin; j < end; ++j) {
      const int64_t c0 = j * 16;
      const int64_t lanes = std::min<int64_t>(16, g.out_c - c0);
      const __mmask16 mask = static_cast<__mmask16>((1u << lanes) - 1);
      for (const PixelBlock& blk : blocks) {
        kBlocks[blk.end - blk.begin - 1](a + blk.begin * lda, lda,
                                         packed_filter + j * 16 * filter_rows,
                                         segments.data() + blk.first_segment, blk.num_segments,
                                         bias != nullptr ? bias + c0 : nullptr, add_to_output, mask,
                                         output + c0, g.out_c, pixel_order + blk.begin);
      }
    }
  };
  // Equal runs of channel groups, one per thread: each thread streams its own part of the filter.
  const int64_t parts = std::max<int64_t>(1, std::min<int64_t>(threads, groups));
  if (parts == 1) {
    run(0, groups);
  } else {
    OpenMpRunBlocks(parts,
                    [&](int64_t part) { run(groups * part / parts, groups * (part + 1) / parts); });
  }
#else
  (void)g, (void)threads, (void)input, (void)packed_filter, (void)bias, (void)add_to_output,
      (void)output, (void)skip_zero_taps;
#endif
}

}  // namespace rill
