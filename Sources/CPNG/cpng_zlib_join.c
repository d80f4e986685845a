#include "cpng_internal.h"
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

void zlib_header_bytes(int level, unsigned char header[2]) {
  /* Its "how hard" bits are only informative. */
  const unsigned level_bits = level <= 1 ? 0 : level <= 5 ? 1 : level == 6 ? 2 : 3;
  const unsigned flags = level_bits << 6;
  header[0] = 0x78; /* deflate, 32 KiB window */
  header[1] = (unsigned char)(flags + (31 - (0x78 * 256 + flags) % 31) % 31);
}

unsigned char *join_zlib_pieces(unsigned char *const *pieces, const size_t *sizes, const uint32_t *sums,
                                const size_t *lengths, uint32_t count, int level, size_t *stream_size) {
  size_t size = 2 + 4;
  for (uint32_t piece = 0; piece < count; piece++) size += sizes[piece];
  unsigned char *stream = scratch_take(size);
  if (!stream) return NULL;
  zlib_header_bytes(level, stream);
  size_t offset = 2;
  uLong sum = adler32(0, NULL, 0);
  for (uint32_t piece = 0; piece < count; piece++) {
    memcpy(stream + offset, pieces[piece], sizes[piece]);
    offset += sizes[piece];
    sum = adler32_combine(sum, sums[piece], (z_off_t)lengths[piece]);
  }
  put_be32(stream + offset, (uint32_t)sum);
  *stream_size = size;
  return stream;
}
