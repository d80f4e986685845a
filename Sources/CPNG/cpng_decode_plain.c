/* Decoding the PNGs that are nearly all of a map's tiles without libpng: not interlaced, 8 bits a sample
   (palette images 1-8 bits an index), no gamma or colour profile (no gAMA, cHRM, iCCP or sBIT chunk).
   Their image data is inflated once, by libdeflate, into a buffer of exactly the size the header gives
   (a stream that would inflate to more stops there: a decompression bomb costs nothing), unfiltered in
   place and expanded to RGBA rows. libpng inflates with zlib, about half as fast, and the bomb check
   before it inflated every tile a second time.

   Anything else, and any problem at all (a CRC that does not match, a stream that is short or long, a
   palette index past the palette), returns 1 without a message: libpng then decodes the file and says
   what it finds, so both paths give the same pixels and the same errors (a differential test holds them
   to it). */
#include "cpng_internal.h"
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static int is_type(const unsigned char *type, const char *name) { return memcmp(type, name, 4) == 0; }

/* What the chunks say, once they are all found well formed. */
typedef struct {
  int depth;
  int colour;
  const unsigned char *palette; /* RGB triples */
  uint32_t palette_entries;
  const unsigned char *alphas; /* tRNS of a palette image */
  uint32_t alpha_entries;
  size_t first_idat;            /* offset of the first IDAT chunk */
  size_t idat_bytes;            /* all IDAT data together */
  int idat_chunks;
} plain_png;

/* Walks the chunks after the signature; 0 when the file is one this path decodes. */
static int read_chunks(const unsigned char *bytes, size_t length, plain_png *png) {
  memset(png, 0, sizeof *png);
  size_t offset = 8;
  int idat_ended = 0;
  while (length - offset >= 12) {
    const uint32_t size = read_be32(bytes + offset);
    if (size > length - offset - 12) return 1;
    const unsigned char *type = bytes + offset + 4;
    const unsigned char *data = type + 4;
    if (libdeflate_crc32(0, type, (size_t)size + 4) != read_be32(data + size)) return 1;
    if (offset == 8) {
      if (!is_type(type, "IHDR") || size != 13) return 1;
      png->depth = data[8];
      png->colour = data[9];
      /* Compression, filter method and interlacing: all 0. */
      if (data[10] != 0 || data[11] != 0 || data[12] != 0) return 1;
    } else if (is_type(type, "IDAT")) {
      if (idat_ended) return 1;
      if (png->idat_chunks == 0) png->first_idat = offset;
      png->idat_chunks += 1;
      png->idat_bytes += size;
    } else {
      if (png->idat_chunks > 0) idat_ended = 1;
      if (is_type(type, "IEND")) return png->idat_chunks > 0 ? 0 : 1;
      if (is_type(type, "PLTE")) {
        /* A grey image has none (libpng says so); a colour image may suggest one, which changes nothing. */
        if (png->colour == 0 || png->colour == 4) return 1;
        if (png->idat_chunks > 0 || png->palette || size == 0 || size % 3 != 0 || size > 768) return 1;
        png->palette = data;
        png->palette_entries = size / 3;
      } else if (is_type(type, "tRNS")) {
        if (png->colour != 3 || !png->palette || png->idat_chunks > 0 || png->alphas) return 1;
        if (size > png->palette_entries) return 1;
        png->alphas = data;
        png->alpha_entries = size;
      } else if (is_type(type, "gAMA") || is_type(type, "cHRM") || is_type(type, "iCCP") ||
                 is_type(type, "sBIT") || is_type(type, "IHDR") || (type[0] & 0x20) == 0) {
        /* Colour handling libpng does, or a critical chunk this path does not know. */
        return 1;
      }
    }
    offset += 12 + (size_t)size;
  }
  return 1; /* no IEND */
}

static int channels_of(const plain_png *png) {
  switch (png->colour) {
    case 0: return png->depth == 8 ? 1 : 0;
    case 2: return png->depth == 8 ? 3 : 0;
    case 3:
      return (png->depth == 1 || png->depth == 2 || png->depth == 4 || png->depth == 8) && png->palette ? 1 : 0;
    case 4: return png->depth == 8 ? 2 : 0;
    case 6: return png->depth == 8 ? 4 : 0;
    default: return 0;
  }
}

#if defined(__SSE2__)
/* Paeth for pixels of 3 or 4 bytes, a pixel at a time in 16-bit lanes: each byte depends on the one a
   pixel to its left, so a row cannot be done in wider pieces, but a pixel's bytes can (libpng does the
   same). The first pixel has no left or corner: zeros. Inlined for each constant `step`, so that its
   copies of 3 or 4 bytes are single moves. */
static inline __attribute__((always_inline)) void unpaeth_pixels(unsigned char *row, const unsigned char *above,
                                                                  size_t row_bytes, size_t step) {
  const __m128i zero = _mm_setzero_si128();
  __m128i left = zero, corner = zero;
  for (size_t i = 0; i + step <= row_bytes; i += step) {
    uint32_t up_bytes = 0, own_bytes = 0;
    memcpy(&up_bytes, above + i, step);
    memcpy(&own_bytes, row + i, step);
    const __m128i up = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)up_bytes), zero);
    const __m128i own = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)own_bytes), zero);
    const __m128i up_corner = _mm_sub_epi16(up, corner), left_corner = _mm_sub_epi16(left, corner);
    const __m128i both = _mm_add_epi16(up_corner, left_corner);
    const __m128i to_left = _mm_max_epi16(up_corner, _mm_sub_epi16(zero, up_corner));
    const __m128i to_above = _mm_max_epi16(left_corner, _mm_sub_epi16(zero, left_corner));
    const __m128i to_corner = _mm_max_epi16(both, _mm_sub_epi16(zero, both));
    /* nearer = to_above <= to_corner ? up : corner; then left where to_left is the smallest. */
    const __m128i corner_nearer = _mm_cmpgt_epi16(to_above, to_corner);
    const __m128i nearer = _mm_or_si128(_mm_and_si128(corner_nearer, corner), _mm_andnot_si128(corner_nearer, up));
    const __m128i left_nearest =
        _mm_andnot_si128(_mm_or_si128(_mm_cmpgt_epi16(to_left, to_above), _mm_cmpgt_epi16(to_left, to_corner)),
                         _mm_set1_epi16(-1));
    const __m128i predictor =
        _mm_or_si128(_mm_and_si128(left_nearest, left), _mm_andnot_si128(left_nearest, nearer));
    const __m128i value = _mm_and_si128(_mm_add_epi16(own, predictor), _mm_set1_epi16(0xFF));
    const uint32_t bytes = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(value, zero));
    memcpy(row + i, &bytes, step);
    left = value;
    corner = up;
  }
}
#endif

/* Undoes a row's filter in place; `above` is the row above, already unfiltered (NULL for the first). */
static int unfilter(int filter, unsigned char *row, const unsigned char *above, size_t row_bytes, size_t step) {
  switch (filter) {
    case 0: break;
    case 1:
      for (size_t i = step; i < row_bytes; i++) row[i] = (unsigned char)(row[i] + row[i - step]);
      break;
    case 2:
      if (above)
        for (size_t i = 0; i < row_bytes; i++) row[i] = (unsigned char)(row[i] + above[i]);
      break;
    case 3:
      for (size_t i = 0; i < row_bytes; i++) {
        const int left = i >= step ? row[i - step] : 0;
        row[i] = (unsigned char)(row[i] + ((left + (above ? above[i] : 0)) >> 1));
      }
      break;
    case 4:
      if (!above) {
        /* Nothing above: the predictor is the byte to the left. */
        for (size_t i = step; i < row_bytes; i++) row[i] = (unsigned char)(row[i] + row[i - step]);
        break;
      }
#if defined(__SSE2__)
      if (step == 3 || step == 4) {
        if (step == 3)
          unpaeth_pixels(row, above, row_bytes, 3);
        else
          unpaeth_pixels(row, above, row_bytes, 4);
        break;
      }
#endif
      /* Nothing to the left: the predictor is the byte above. */
      for (size_t i = 0; i < step && i < row_bytes; i++) row[i] = (unsigned char)(row[i] + above[i]);
      for (size_t i = step; i < row_bytes; i++)
        row[i] = (unsigned char)(row[i] + paeth_predictor(row[i - step], above[i], above[i - step]));
      break;
    default: return 1;
  }
  return 0;
}

/* One unfiltered row as RGBA; 1 when a palette index is past the palette. */
static int expand(const plain_png *png, const unsigned char *row, uint32_t width, unsigned char *target) {
  switch (png->colour) {
    case 6: memcpy(target, row, (size_t)width * 4); break;
    case 2:
      for (uint32_t x = 0; x < width; x++, row += 3, target += 4) {
        target[0] = row[0], target[1] = row[1], target[2] = row[2], target[3] = 255;
      }
      break;
    case 0:
      for (uint32_t x = 0; x < width; x++, target += 4) target[0] = target[1] = target[2] = row[x], target[3] = 255;
      break;
    case 4:
      for (uint32_t x = 0; x < width; x++, row += 2, target += 4) {
        target[0] = target[1] = target[2] = row[0], target[3] = row[1];
      }
      break;
    case 3: {
      const int depth = png->depth;
      const unsigned mask = (1u << depth) - 1;
      for (uint32_t x = 0; x < width; x++, target += 4) {
        const size_t bit = (size_t)x * (size_t)depth;
        const unsigned index = (row[bit / 8] >> (8 - depth - (int)(bit % 8))) & mask;
        if (index >= png->palette_entries) return 1;
        const unsigned char *entry = png->palette + 3 * index;
        target[0] = entry[0], target[1] = entry[1], target[2] = entry[2];
        target[3] = index < png->alpha_entries ? png->alphas[index] : 255;
      }
      break;
    }
  }
  return 0;
}

int cpng_decode_plain(const unsigned char *bytes, size_t length, uint32_t width, uint32_t height,
                      unsigned char *rgba) {
  plain_png png;
  if (length < 8 || read_chunks(bytes, length, &png) != 0) return 1;
  const int channels = channels_of(&png);
  if (channels == 0) return 1;
  const size_t row_bytes = ((size_t)width * (size_t)channels * (size_t)png.depth + 7) / 8;
  const size_t step = (size_t)channels * (size_t)png.depth >= 8 ? (size_t)channels * (size_t)png.depth / 8 : 1;
  const size_t filtered_bytes = (size_t)height * (row_bytes + 1);

  /* One IDAT is read where it lies; several are put together first. */
  const unsigned char *stream = bytes + png.first_idat + 8;
  unsigned char *joined = NULL;
  if (png.idat_chunks > 1) {
    joined = malloc(png.idat_bytes);
    if (!joined) return 1;
    size_t offset = png.first_idat, filled = 0;
    for (int chunk = 0; chunk < png.idat_chunks; chunk++) {
      const uint32_t size = read_be32(bytes + offset);
      memcpy(joined + filled, bytes + offset + 8, size);
      filled += size;
      offset += 12 + (size_t)size;
    }
    stream = joined;
  }
  unsigned char *filtered = malloc(filtered_bytes);
  struct libdeflate_decompressor *decompressor = libdeflate_alloc_decompressor();
  int status = 1;
  if (filtered && decompressor &&
      libdeflate_zlib_decompress(decompressor, stream, png.idat_bytes, filtered, filtered_bytes, NULL) ==
          LIBDEFLATE_SUCCESS) {
    status = 0;
    const unsigned char *above = NULL;
    for (uint32_t y = 0; y < height && status == 0; y++) {
      unsigned char *row = filtered + (size_t)y * (row_bytes + 1);
      status = unfilter(row[0], row + 1, above, row_bytes, step) ||
               expand(&png, row + 1, width, rgba + (size_t)y * width * 4);
      above = row + 1;
    }
  }
  libdeflate_free_decompressor(decompressor);
  free(filtered);
  free(joined);
  /* A failure may leave rows written: libpng then writes every one again. */
  return status;
}
