#include "kernels/math_lib/small_map_conv.h"

#include <algorithm>
#include <array>
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

int64_t WindowSize(const SmallMapConvGeometry& g) { return g.k_h * g.k_w * g.in_c; }

#if RILL_SIMD_CLONES
#define RILL_SMALL_MAP_TARGET __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")))

// A run of window elements whose filter rows are consecutive in a group's packed filter: the
// taps of one window row that reach the input (ones that read only padding are left out).
struct Segment {
  int64_t filter_row = 0;  // the first of the run's rows in the group's [k_h * k_w * in_c] rows
  int64_t length = 0;
};

// c[m, 0:16] = (sum over k of a[m * lda + k] * w[row(k), 0:16]) (+ bias) (+ c on entry) for
// m < MR, only the lanes in `mask` stored, where k runs over the segments' lengths in order and
// row(k) is k's row in its segment. Each row's sum is accumulated in order of k.
template <int MR>
RILL_SMALL_MAP_TARGET void Block(const float* a, int64_t lda, const float* w,
                                 const Segment* segments, int64_t num_segments, const float* bias,
                                 bool add, __mmask16 mask, float* c, int64_t ldc) {
  __m512 acc[MR];
#pragma GCC unroll 32
  for (int m = 0; m < MR; ++m) acc[m] = _mm512_setzero_ps();
  int64_t k = 0;
  for (int64_t s = 0; s < num_segments; ++s) {
    const float* ws = w + segments[s].filter_row * 16;
    const int64_t length = segments[s].length;
    // Prefetches stay inside the segment: the rows after it may be taps no pixel reads.
    const int64_t prefetched = std::max<int64_t>(0, length - kPrefetchAhead / 16);
    for (int64_t r = 0; r < length; ++r, ++k) {
      const __m512 wk = _mm512_loadu_ps(ws + r * 16);
      if (r < prefetched) {
        _mm_prefetch(reinterpret_cast<const char*>(ws + r * 16 + kPrefetchAhead), _MM_HINT_T0);
      }
#pragma GCC unroll 32
      for (int m = 0; m < MR; ++m) {
        acc[m] = _mm512_fmadd_ps(_mm512_set1_ps(a[m * lda + k]), wk, acc[m]);
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
      acc[m] = _mm512_add_ps(acc[m], _mm512_maskz_loadu_ps(mask, c + m * ldc));
    }
  }
#pragma GCC unroll 32
  for (int m = 0; m < MR; ++m) _mm512_mask_storeu_ps(c + m * ldc, mask, acc[m]);
}

using BlockFn = void (*)(const float*, int64_t, const float*, const Segment*, int64_t, const float*,
                         bool, __mmask16, float*, int64_t);

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
  const int64_t max_pixels =
      g.out_w <= kSmallMapNarrowWidth ? kSmallMapNarrowMaxPixels : kSmallMapMaxPixels;
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
                    float* output) {
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
  // The live taps' filter rows as runs (adjacent live taps of one row merged); k_total counts
  // their elements, the windows' row length.
  std::vector<Segment> segments;
  int64_t k_total = 0;
  for (int64_t kh = 0; kh < g.k_h; ++kh) {
    for (int64_t kw = 0; kw < g.k_w; ++kw) {
      if (!live_h[kh] || !live_w[kw]) continue;
      const int64_t row = (kh * g.k_w + kw) * g.in_c;
      if (!segments.empty() && segments.back().filter_row + segments.back().length == row) {
        segments.back().length += g.in_c;
      } else {
        segments.push_back({row, g.in_c});
      }
      k_total += g.in_c;
    }
  }
  const int64_t filter_rows = WindowSize(g);  // a group's rows in the packed filter
  // The windows as rows of a [pixels, k_total] matrix with row stride lda. A stride of an even
  // number of cache lines would put the rows read together in few L1 sets (a 2048-channel row is
  // 128 lines: every row in one set), so it is padded to an odd number.
  const bool in_place = all_live && g.k_h == 1 && g.k_w == 1 && g.stride_h == 1 &&
                        g.stride_w == 1 && g.pad_top == 0 && g.pad_left == 0 && g.out_h == g.in_h &&
                        g.out_w == g.in_w && (g.in_c % 16 != 0 || (g.in_c / 16) % 2 == 1);
  const float* a = input;
  int64_t lda = g.in_c;
  thread_local std::vector<float> windows;
  if (!in_place) {
    lda = (k_total + 15) / 16 * 16;
    if ((lda / 16) % 2 == 0) lda += 16;
    windows.resize(static_cast<size_t>(pixels * lda));
    float* row = windows.data();
    for (int64_t n = 0; n < g.batch; ++n) {
      for (int64_t oh = 0; oh < g.out_h; ++oh) {
        for (int64_t ow = 0; ow < g.out_w; ++ow, row += lda) {
          float* dst = row;
          for (int64_t kh = 0; kh < g.k_h; ++kh) {
            if (!live_h[kh]) continue;
            const int64_t h = oh * g.stride_h - g.pad_top + kh * g.dil_h;
            for (int64_t kw = 0; kw < g.k_w; ++kw) {
              if (!live_w[kw]) continue;
              const int64_t w = ow * g.stride_w - g.pad_left + kw * g.dil_w;
              if (h < 0 || h >= g.in_h || w < 0 || w >= g.in_w) {
                std::memset(dst, 0, sizeof(float) * g.in_c);
              } else {
                std::memcpy(dst, input + ((n * g.in_h + h) * g.in_w + w) * g.in_c,
                            sizeof(float) * g.in_c);
              }
              dst += g.in_c;
            }
          }
        }
      }
    }
    a = windows.data();
  }
  const int64_t groups = (g.out_c + 15) / 16;
  // Pixels in near-equal blocks of at most kSmallMapBlockPixels, one register each: the first
  // block streams a group's filter from memory, the others read it again from the L2.
  const int64_t row_blocks = (pixels + kSmallMapBlockPixels - 1) / kSmallMapBlockPixels;
  auto run = [&](int64_t begin, int64_t end) {
    for (int64_t j = begin; j < end; ++j) {
      const int64_t c0 = j * 16;
      const int64_t lanes = std::min<int64_t>(16, g.out_c - c0);
      const __mmask16 mask = static_cast<__mmask16>((1u << lanes) - 1);
      for (int64_t r = 0; r < row_blocks; ++r) {
        const int64_t m0 = pixels * r / row_blocks, m1 = pixels * (r + 1) / row_blocks;
        kBlocks[m1 - m0 - 1](a + m0 * lda, lda, packed_filter + j * 16 * filter_rows,
                             segments.data(), static_cast<int64_t>(segments.size()),
                             bias != nullptr ? bias + c0 : nullptr, add_to_output, mask,
                             output + m0 * g.out_c + c0, g.out_c);
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
      (void)output;
#endif
}

}  // namespace rill
