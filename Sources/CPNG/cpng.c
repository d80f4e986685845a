#include "cpng.h"
#include "cpng_internal.h"
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static void copy_message(char *error, size_t error_size, const char *message) {
  if (error && error_size > 0) {
    snprintf(error, error_size, "%s", message);
  }
}

int cpng_read_size(const unsigned char *bytes, size_t length, uint32_t *width, uint32_t *height) {
  static const unsigned char signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
  if (length < 24 || memcmp(bytes, signature, 8) != 0 || memcmp(bytes + 12, "IHDR", 4) != 0) {
    return -1;
  }
  *width = read_be32(bytes + 16);
  *height = read_be32(bytes + 20);
  return 0;
}

/* Bytes of filtered image data (one filter byte a row) that a PNG with this header holds: what its IDAT
   stream inflates to. 0 for a colour type or bit depth PNG does not have (libpng then reports it). */
static size_t image_data_bytes(uint32_t width, uint32_t height, int bit_depth, int colour_type, int interlaced) {
  int channels;
  switch (colour_type) {
    case 0: case 3: channels = 1; break;
    case 2: channels = 3; break;
    case 4: channels = 2; break;
    case 6: channels = 4; break;
    default: return 0;
  }
  if (bit_depth != 1 && bit_depth != 2 && bit_depth != 4 && bit_depth != 8 && bit_depth != 16) return 0;
  const size_t bits = (size_t)channels * (size_t)bit_depth;
  if (!interlaced) return (size_t)height * (((size_t)width * bits + 7) / 8 + 1);
  /* Adam7: seven passes, each a smaller image with rows of its own. */
  static const uint32_t x0[7] = {0, 4, 0, 2, 0, 1, 0}, y0[7] = {0, 0, 4, 0, 2, 0, 1};
  static const uint32_t dx[7] = {8, 8, 4, 4, 2, 2, 1}, dy[7] = {8, 8, 8, 4, 4, 2, 2};
  size_t total = 0;
  for (int pass = 0; pass < 7; pass++) {
    size_t columns = width > x0[pass] ? (width - x0[pass] + dx[pass] - 1) / dx[pass] : 0;
    size_t rows = height > y0[pass] ? (height - y0[pass] + dy[pass] - 1) / dy[pass] : 0;
    if (columns > 0) total += rows * ((columns * bits + 7) / 8 + 1);
  }
  return total;
}

/* Whether the PNG's IDAT stream inflates to no more than `limit` bytes. Inflation stops as soon as it
   passes the limit: libpng itself would inflate all of a stream to check that it holds no extra data, so
   a tile of a plausible size whose stream inflates to gigabytes would keep it busy for seconds. A stream
   that is corrupt or ends early counts as within: libpng reports that itself. */
static int image_data_within(const unsigned char *bytes, size_t length, size_t limit) {
  z_stream stream;
  memset(&stream, 0, sizeof stream);
  if (inflateInit(&stream) != Z_OK) return 1;
  unsigned char scratch[32768];
  int within = 1;
  size_t offset = 8;
  while (offset <= length && length - offset >= 12) {
    const uint32_t chunk_length = read_be32(bytes + offset);
    if (chunk_length > length - offset - 12) break;
    const unsigned char *type = bytes + offset + 4;
    if (memcmp(type, "IEND", 4) == 0) break;
    if (memcmp(type, "IDAT", 4) == 0) {
      stream.next_in = (unsigned char *)(bytes + offset + 8);
      stream.avail_in = chunk_length;
      while (stream.avail_in > 0) {
        stream.next_out = scratch;
        stream.avail_out = sizeof scratch;
        const int status = inflate(&stream, Z_NO_FLUSH);
        if (stream.total_out > limit) {
          within = 0;
          goto done;
        }
        if (status != Z_OK) goto done;
      }
    }
    offset += 12 + (size_t)chunk_length;
  }
done:
  inflateEnd(&stream);
  return within;
}

/* Checks that no chunk claims more bytes than the file has left: libpng allocates a chunk's claimed length
   before reading it, so a few bytes could make it allocate 2 GB. Returns 0, or -1 with a message. */
static int check_chunk_lengths(const unsigned char *bytes, size_t length, char *error, size_t error_size) {
  size_t offset = 8;
  while (length - offset >= 8) {
    const unsigned char *chunk = bytes + offset;
    const uint32_t claimed = read_be32(chunk);
    size_t left = length - offset - 8;
    if (claimed > left) {
      char name[5] = {0};
      for (int i = 0; i < 4; i++) name[i] = (chunk[4 + i] >= 0x20 && chunk[4 + i] < 0x7F) ? (char)chunk[4 + i] : '?';
      char message[160];
      snprintf(message, sizeof message, "PNG chunk %s claims %u bytes, more than the %zu left in the file", name,
               claimed, left);
      copy_message(error, error_size, message);
      return -1;
    }
    if (memcmp(chunk + 4, "IEND", 4) == 0) break;
    offset += 8 + (size_t)claimed + (left - claimed >= 4 ? 4 : left - claimed);  /* the CRC, when it is there */
  }
  return 0;
}

int cpng_decode_rgba(const unsigned char *bytes, size_t length, unsigned char *pixels, char *error,
                     size_t error_size) {
  uint32_t header_width = 0, header_height = 0;
  if (cpng_read_size(bytes, length, &header_width, &header_height) == 0 && header_width > 0 && header_height > 0 &&
      cpng_decode_plain(bytes, length, header_width, header_height, pixels) == 0) {
    return 0;
  }
  return cpng_decode_rgba_libpng(bytes, length, pixels, error, error_size);
}

int cpng_decode_rgba_libpng(const unsigned char *bytes, size_t length, unsigned char *pixels, char *error,
                            size_t error_size) {
  uint32_t header_width = 0, header_height = 0;
  if (cpng_read_size(bytes, length, &header_width, &header_height) != 0) {
    copy_message(error, error_size, "not a PNG image");
    return -1;
  }
  if (header_width == 0 || header_height == 0) {
    copy_message(error, error_size, "a PNG of no pixels");
    return -1;
  }
  if (check_chunk_lengths(bytes, length, error, error_size) != 0) return -1;
  /* A few bytes of slack: some encoders end the stream with an empty block. */
  const size_t expected =
      length >= 29 ? image_data_bytes(header_width, header_height, bytes[24], bytes[25], bytes[28]) : 0;
  if (expected > 0 && !image_data_within(bytes, length, expected + 1024)) {
    char message[160];
    snprintf(message, sizeof message,
             "its image data inflates to more than the %zu bytes a %u×%u PNG holds: a decompression bomb", expected,
             header_width, header_height);
    copy_message(error, error_size, message);
    return -1;
  }
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  // The simplified API catches libpng's longjmp internally and reports failure through its return value.
  if (!png_image_begin_read_from_memory(&image, bytes, length)) {
    copy_message(error, error_size, image.message);
    png_image_free(&image);
    return -1;
  }
  image.format = PNG_FORMAT_RGBA;
  /* The caller's buffer holds the header's size, which is the one libpng reads. */
  if (image.width != header_width || image.height != header_height) {
    copy_message(error, error_size, "the PNG's size differs from its header's");
    png_image_free(&image);
    return -1;
  }
  const size_t row_bytes = (size_t)image.width * 4;
  if (!png_image_finish_read(&image, NULL, pixels, (png_int_32)row_bytes, NULL)) {
    copy_message(error, error_size, image.message);
    png_image_free(&image);
    return -1;
  }
  return 0;
}

void cpng_free(void *pointer) { free(pointer); }
