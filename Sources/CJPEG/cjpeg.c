#include "cjpeg.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
// jpeglib.h needs stdio.h (FILE) and size_t first.
#include <jpeglib.h>

/// Progressive JPEGs with thousands of tiny scans take very long to decode; real ones have about 10.
#define CJPEG_MAXIMUM_SCANS 500

typedef struct {
  struct jpeg_error_mgr base;
  jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
} error_manager;

static void copy_message(char *error, size_t error_size, const char *message) {
  if (error && error_size > 0) {
    snprintf(error, error_size, "%s", message);
  }
}

static void error_exit(j_common_ptr cinfo) {
  error_manager *manager = (error_manager *)cinfo->err;
  (*cinfo->err->format_message)(cinfo, manager->message);
  longjmp(manager->jump, 1);
}

/// Warnings (level -1) mean corrupt or truncated data that libjpeg would paper over with grey pixels:
/// treat them as errors so a broken tile is reported instead of drawn. Trace messages are ignored.
static void emit_message(j_common_ptr cinfo, int level) {
  if (level < 0) error_exit(cinfo);
}

static void output_message(j_common_ptr cinfo) { (void)cinfo; }

static void progress_monitor(j_common_ptr cinfo) {
  if (!cinfo->is_decompressor) return;
  j_decompress_ptr decompress = (j_decompress_ptr)cinfo;
  if (decompress->input_scan_number > CJPEG_MAXIMUM_SCANS) {
    error_manager *manager = (error_manager *)cinfo->err;
    snprintf(manager->message, sizeof manager->message, "JPEG has more than %d scans",
             CJPEG_MAXIMUM_SCANS);
    longjmp(manager->jump, 1);
  }
}

int cjpeg_decode_rgba(const unsigned char *bytes, size_t length, uint32_t max_width, uint32_t max_height,
                      unsigned char **pixels, uint32_t *width, uint32_t *height, char *error,
                      size_t error_size) {
  *pixels = NULL;
  *width = 0;
  *height = 0;
  if (!bytes || length < 3 || bytes[0] != 0xFF || bytes[1] != 0xD8 || bytes[2] != 0xFF) {
    copy_message(error, error_size, "not a JPEG image");
    return CJPEG_NOT_AN_IMAGE;
  }
  if (length > (size_t)(unsigned long)-1) {
    copy_message(error, error_size, "JPEG data is too long");
    return CJPEG_NOT_AN_IMAGE;
  }
  struct jpeg_decompress_struct cinfo;
  error_manager manager;
  struct jpeg_progress_mgr progress;
  // Written after setjmp and read after longjmp: volatile so the value is not lost in a register.
  unsigned char *volatile buffer = NULL;
  memset(&cinfo, 0, sizeof cinfo);
  memset(&progress, 0, sizeof progress);
  cinfo.err = jpeg_std_error(&manager.base);
  manager.base.error_exit = error_exit;
  manager.base.emit_message = emit_message;
  manager.base.output_message = output_message;
  manager.message[0] = 0;
  if (setjmp(manager.jump)) {
    copy_message(error, error_size, manager.message[0] ? manager.message : "corrupt JPEG data");
    jpeg_destroy_decompress(&cinfo);
    free(buffer);
    return CJPEG_NOT_AN_IMAGE;
  }
  jpeg_create_decompress(&cinfo);
  progress.progress_monitor = progress_monitor;
  cinfo.progress = &progress;
  jpeg_mem_src(&cinfo, bytes, (unsigned long)length);
  jpeg_read_header(&cinfo, TRUE);
  *width = cinfo.image_width;
  *height = cinfo.image_height;
  if (cinfo.image_width == 0 || cinfo.image_height == 0) {
    jpeg_destroy_decompress(&cinfo);
    copy_message(error, error_size, "JPEG has an empty size");
    return CJPEG_NOT_AN_IMAGE;
  }
  if (cinfo.image_width > max_width || cinfo.image_height > max_height) {
    jpeg_destroy_decompress(&cinfo);
    return CJPEG_TOO_LARGE;
  }
  switch (cinfo.jpeg_color_space) {
    case JCS_GRAYSCALE:
    case JCS_RGB:
    case JCS_YCbCr:
      break;
    case JCS_CMYK:
    case JCS_YCCK:
      jpeg_destroy_decompress(&cinfo);
      copy_message(error, error_size, "CMYK JPEG images are not supported; use RGB or grayscale");
      return CJPEG_NOT_AN_IMAGE;
    default:
      jpeg_destroy_decompress(&cinfo);
      copy_message(error, error_size, "JPEG colour space is not supported; use RGB or grayscale");
      return CJPEG_NOT_AN_IMAGE;
  }
  // libjpeg-turbo's extended colour space: RGBA with alpha 255, also from grayscale.
  cinfo.out_color_space = JCS_EXT_RGBA;
  jpeg_start_decompress(&cinfo);
  if (cinfo.output_width != cinfo.image_width || cinfo.output_height != cinfo.image_height ||
      cinfo.output_components != 4) {
    jpeg_destroy_decompress(&cinfo);
    copy_message(error, error_size, "unexpected JPEG output layout");
    return CJPEG_NOT_AN_IMAGE;
  }
  const size_t row_bytes = (size_t)cinfo.output_width * 4;
  buffer = malloc(row_bytes * cinfo.output_height);
  if (!buffer) {
    jpeg_destroy_decompress(&cinfo);
    copy_message(error, error_size, "out of memory");
    return CJPEG_NOT_AN_IMAGE;
  }
  while (cinfo.output_scanline < cinfo.output_height) {
    JSAMPROW row = buffer + (size_t)cinfo.output_scanline * row_bytes;
    if (jpeg_read_scanlines(&cinfo, &row, 1) != 1) {
      // Only a suspending data source returns 0 lines; the memory source never suspends.
      jpeg_destroy_decompress(&cinfo);
      free(buffer);
      copy_message(error, error_size, "JPEG data ended early");
      return CJPEG_NOT_AN_IMAGE;
    }
  }
  jpeg_finish_decompress(&cinfo);
  jpeg_destroy_decompress(&cinfo);
  *pixels = buffer;
  return CJPEG_OK;
}

void cjpeg_free(void *pointer) { free(pointer); }
