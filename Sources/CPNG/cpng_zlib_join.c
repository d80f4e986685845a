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

uint32_t combined_adler32(const uint32_t *sums, const size_t *lengths, uint32_t count) {
  uLong sum = adler32(0, NULL, 0);
  for (uint32_t part = 0; part < count; part++) sum = adler32_combine(sum, sums[part], (z_off_t)lengths[part]);
  return (uint32_t)sum;
}
