#ifndef CJPEG_H
#define CJPEG_H
#include <stddef.h>
#include <stdint.h>

/// Results of `cjpeg_decode_rgba`.
enum {
  CJPEG_OK = 0,
  /// Not a JPEG, or corrupt or truncated data (libjpeg warnings count as errors), or an unsupported kind
  /// of JPEG (CMYK); the reason is in `error`.
  CJPEG_NOT_AN_IMAGE = 1,
  /// The header's size is over the limits; `width` and `height` hold it. Nothing was allocated for pixels.
  CJPEG_TOO_LARGE = 2,
};

/// Decodes a JPEG held in memory (baseline or progressive, grayscale or YCbCr/RGB) into straight 8-bit
/// RGBA rows, 4 * width bytes each, alpha 255. The size is read from the header and checked against the
/// limits before any pixel memory is allocated. libjpeg's setjmp/longjmp error handling stays inside
/// this C file. On success the pixels must be released with `cjpeg_free`.
int cjpeg_decode_rgba(const unsigned char *bytes, size_t length, uint32_t max_width, uint32_t max_height,
                      unsigned char **pixels, uint32_t *width, uint32_t *height, char *error,
                      size_t error_size);

void cjpeg_free(void *pointer);

#endif
