// Pixel loops Cairo has no call for. See craster.h.
#include "craster.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// x·a/255 rounded, for x, a in 0…255 (pixman's MUL_UN8).
static inline uint32_t multiply_channel(uint32_t x, uint32_t a) {
  uint32_t t = x * a + 0x80;
  return (t + (t >> 8)) >> 8;
}

// `color` through coverage `m` over `destination`, one pixel.
static inline uint32_t over_one(uint32_t color, uint32_t m, uint32_t destination) {
  uint32_t source_alpha = multiply_channel(color >> 24, m);
  uint32_t inverse = 255 - source_alpha;
  uint32_t out = 0;
  for (int shift = 0; shift < 32; shift += 8) {
    uint32_t sum = multiply_channel((color >> shift) & 0xFF, m) +
                   multiply_channel((destination >> shift) & 0xFF, inverse);
    out |= (sum > 255 ? 255 : sum) << shift;
  }
  return out;
}

#if defined(__SSE2__)
// Each 16-bit lane x·a/255 rounded (pixman's pix_multiply).
static inline __m128i multiply_lanes(__m128i x, __m128i a) {
  __m128i t = _mm_add_epi16(_mm_mullo_epi16(x, a), _mm_set1_epi16(0x80));
  return _mm_mulhi_epu16(t, _mm_set1_epi16(0x0101));
}

// Four pixels at `pixels` with the coverages in the four bytes of `m4`.
static inline void over_four(__m128i source, uint32_t m4, uint32_t *pixels) {
  const __m128i zero = _mm_setzero_si128();
  __m128i m = _mm_cvtsi32_si128((int)m4);
  m = _mm_unpacklo_epi8(m, m);
  m = _mm_unpacklo_epi16(m, m);  // each coverage four times, a pixel's four channels
  __m128i m_low = _mm_unpacklo_epi8(m, zero), m_high = _mm_unpackhi_epi8(m, zero);
  __m128i d = _mm_loadu_si128((const __m128i *)pixels);
  __m128i d_low = _mm_unpacklo_epi8(d, zero), d_high = _mm_unpackhi_epi8(d, zero);
  __m128i s_low = multiply_lanes(source, m_low), s_high = multiply_lanes(source, m_high);
  // 255 − the covered source's alpha (lane 3 of each pixel), in all four lanes.
  const __m128i full = _mm_set1_epi16(0xFF);
  __m128i i_low = _mm_xor_si128(_mm_shufflehi_epi16(_mm_shufflelo_epi16(s_low, 0xFF), 0xFF), full);
  __m128i i_high = _mm_xor_si128(_mm_shufflehi_epi16(_mm_shufflelo_epi16(s_high, 0xFF), 0xFF), full);
  d_low = multiply_lanes(d_low, i_low);
  d_high = multiply_lanes(d_high, i_high);
  __m128i out = _mm_adds_epu8(_mm_packus_epi16(s_low, s_high), _mm_packus_epi16(d_low, d_high));
  _mm_storeu_si128((__m128i *)pixels, out);
}
#endif

void craster_lay_solid(uint32_t color, uint8_t *mask, ptrdiff_t mask_stride, uint8_t *pixels,
                       ptrdiff_t pixel_stride, int first, int last, int top, int bottom) {
  if (first > last) return;
  const int end = last + 1;
  const int opaque = color >= 0xFF000000u;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  const __m128i source = _mm_unpacklo_epi8(_mm_set1_epi32((int)color), zero);
  const __m128i solid = _mm_set1_epi32((int)color);
#endif
  for (int row = top; row < bottom; row++) {
    uint8_t *coverage = mask + row * mask_stride;
    uint32_t *line = (uint32_t *)(pixels + row * pixel_stride);
    int column = first;
#if defined(__SSE2__)
    for (; column + 16 <= end; column += 16) {
      __m128i sixteen = _mm_loadu_si128((const __m128i *)(coverage + column));
      int untouched = _mm_movemask_epi8(_mm_cmpeq_epi8(sixteen, zero));
      if (untouched == 0xFFFF) continue;
      _mm_storeu_si128((__m128i *)(coverage + column), zero);
      if (opaque && _mm_movemask_epi8(_mm_cmpeq_epi8(sixteen, _mm_set1_epi8((char)0xFF))) == 0xFFFF) {
        for (int k = 0; k < 16; k += 4) _mm_storeu_si128((__m128i *)(line + column + k), solid);
        continue;
      }
      uint32_t m4s[4];
      memcpy(m4s, &sixteen, 16);
      for (int k = 0; k < 4; k++) {
        if ((untouched >> (4 * k) & 0xF) == 0xF) continue;
        over_four(source, m4s[k], line + column + 4 * k);
      }
    }
#endif
    for (; column < end; column++) {
      uint32_t m = coverage[column];
      if (m == 0) continue;
      coverage[column] = 0;
      line[column] = over_one(color, m, line[column]);
    }
  }
}
