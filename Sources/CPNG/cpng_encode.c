#include "cpng.h"
#include "cpng_internal.h"
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void copy_message(char *error, size_t error_size, const char *message) {
  if (error && error_size > 0) snprintf(error, error_size, "%s", message);
}

void convert_row(const unsigned char *source_row, uint32_t width, int opaque, unsigned char *target) {
  const uint32_t *source = (const uint32_t *)source_row;
  if (opaque) {
    /* Every pixel is opaque (the caller checked): nothing to undo, and a loop without branches. */
    for (uint32_t x = 0; x < width; x++) {
      const uint32_t argb = source[x];
      target[0] = (unsigned char)(argb >> 16);
      target[1] = (unsigned char)(argb >> 8);
      target[2] = (unsigned char)argb;
      target += 3;
    }
    return;
  }
  for (uint32_t x = 0; x < width; x++) {
    uint32_t argb = source[x];
    uint32_t a = argb >> 24, r = (argb >> 16) & 0xff, g = (argb >> 8) & 0xff, b = argb & 0xff;
    if (a != 0 && a != 255) {
      // Undo Cairo's premultiplication, rounding to nearest.
      r = (r * 255 + a / 2) / a;
      g = (g * 255 + a / 2) / a;
      b = (b * 255 + a / 2) / a;
      if (r > 255) r = 255;
      if (g > 255) g = 255;
      if (b > 255) b = 255;
    }
    *target++ = (unsigned char)r;
    *target++ = (unsigned char)g;
    *target++ = (unsigned char)b;
    if (!opaque) *target++ = (unsigned char)a;
  }
}

void filter_row(int filter, const unsigned char *row, const unsigned char *previous, size_t row_bytes,
                       int bytes_per_pixel, unsigned char *target) {
  target[0] = (unsigned char)filter;
  if (filter == FILTER_NONE) {
    memcpy(target + 1, row, row_bytes);
    return;
  }
  const size_t step = (size_t)bytes_per_pixel;
  unsigned char *filtered = target + 1;
  if (!previous) {
    /* Nothing above: the predictor is the byte to the left. */
    memcpy(filtered, row, step < row_bytes ? step : row_bytes);
    for (size_t i = step; i < row_bytes; i++) filtered[i] = (unsigned char)(row[i] - row[i - step]);
    return;
  }
  /* Nothing to the left: the predictor is the byte above. */
  for (size_t i = 0; i < step && i < row_bytes; i++) filtered[i] = (unsigned char)(row[i] - previous[i]);
  for (size_t i = step; i < row_bytes; i++)
    filtered[i] = (unsigned char)(row[i] - paeth_predictor(row[i - step], previous[i], previous[i - step]));
}

uint32_t filter_sample_runs(uint32_t height, uint32_t first[SAMPLE_RUNS], uint32_t count[SAMPLE_RUNS]) {
  const uint32_t sample_rows = height < SAMPLE_RUNS * SAMPLE_RUN_ROWS ? height : SAMPLE_RUNS * SAMPLE_RUN_ROWS;
  uint32_t sampled = 0, runs = 0;
  for (uint32_t run = 0; run < SAMPLE_RUNS && sampled < sample_rows; run++) {
    uint32_t start = (uint32_t)((uint64_t)height * (2 * run + 1) / (2 * SAMPLE_RUNS));
    if (start + SAMPLE_RUN_ROWS > height) start = height > SAMPLE_RUN_ROWS ? height - SAMPLE_RUN_ROWS : 0;
    uint32_t rows = height - start < SAMPLE_RUN_ROWS ? height - start : SAMPLE_RUN_ROWS;
    if (rows > sample_rows - sampled) rows = sample_rows - sampled;
    first[runs] = start;
    count[runs++] = rows;
    sampled += rows;
  }
  return runs;
}

/* One filter's trial on the sample rows: the rows filtered and deflated at level 3. */
typedef struct {
  task_queue tasks; /* task 0 tries "none", task 1 "paeth" */
  const unsigned char *const *runs;
  const uint32_t *counts;
  uint32_t run_count;
  size_t row_bytes, sample_rows;
  int bpp;
  size_t sizes[2];
} filter_trials;

static void *filter_trial_worker(void *argument) {
  filter_trials *trials = argument;
  for (int64_t task; (task = take_task(&trials->tasks)) >= 0;) {
    const int filter = task == 0 ? FILTER_NONE : FILTER_PAETH;
    const size_t n = (trials->row_bytes + 1) * trials->sample_rows;
    unsigned char *filtered = scratch_take(n);
    struct libdeflate_compressor *compressor = compressor_take(3);
    const size_t bound = compressor ? libdeflate_deflate_compress_bound(compressor, n) : 0;
    unsigned char *scratch = bound ? scratch_take(bound) : NULL;
    if (filtered && scratch) {
      size_t sampled = 0;
      for (uint32_t run = 0; run < trials->run_count; run++) {
        for (uint32_t row = 0; row < trials->counts[run]; row++, sampled++) {
          const unsigned char *current = trials->runs[run] + trials->row_bytes * row;
          const unsigned char *above = row > 0 ? current - trials->row_bytes : NULL;
          filter_row(filter, current, above, trials->row_bytes, trials->bpp,
                     filtered + sampled * (trials->row_bytes + 1));
        }
      }
      trials->sizes[task] = libdeflate_deflate_compress(compressor, filtered, n, scratch, bound);
    }
    scratch_give(filtered);
    scratch_give(scratch);
    compressor_give(compressor, 3);
    if (trials->sizes[task] == 0) fail_tasks(&trials->tasks);
  }
  return NULL;
}

/* "none" or "paeth", whichever deflates the sample rows smaller at level 3 (level 1 misses the long
   matches that favour no filter), the two tried at once on two cores. Maps of flat colours deflate best
   unfiltered (a row like the one above is a long match either way, and filtering turns antialiased edges
   into more distinct bytes); photographs and smooth gradients deflate best with paeth. -1 when out of
   memory. */
int pick_filter(const unsigned char *const *runs, const uint32_t *counts, uint32_t run_count, size_t row_bytes,
                int bpp) {
  filter_trials trials = {.runs = runs, .counts = counts, .run_count = run_count, .row_bytes = row_bytes,
                          .bpp = bpp};
  for (uint32_t run = 0; run < run_count; run++) trials.sample_rows += counts[run];
  task_queue_init(&trials.tasks, 2);
  run_on_cores(filter_trial_worker, &trials, 2);
  const int failed = trials.tasks.failed;
  task_queue_destroy(&trials.tasks);
  if (failed) return -1;
  return trials.sizes[1] < trials.sizes[0] ? FILTER_PAETH : FILTER_NONE;
}

/* The filter for every row of a whole image, chosen on runs of rows spread over it. Returns -1 when out of
   memory. */
static int choose_filter(const unsigned char *pixels, uint32_t width, uint32_t height, uint32_t stride,
                         int opaque) {
  const int bpp = opaque ? 3 : 4;
  const size_t row_bytes = (size_t)width * bpp;
  uint32_t first[SAMPLE_RUNS], count[SAMPLE_RUNS];
  const uint32_t run_count = filter_sample_runs(height, first, count);
  unsigned char *converted = scratch_take(row_bytes * SAMPLE_RUNS * SAMPLE_RUN_ROWS);
  if (!converted) return -1;
  const unsigned char *runs[SAMPLE_RUNS];
  size_t offset = 0;
  for (uint32_t run = 0; run < run_count; run++) {
    runs[run] = converted + offset;
    for (uint32_t row = 0; row < count[run]; row++, offset += row_bytes)
      convert_row(pixels + (size_t)(first[run] + row) * stride, width, opaque, converted + offset);
  }
  const int filter = pick_filter(runs, count, run_count, row_bytes, bpp);
  scratch_give(converted);
  return filter;
}

void put_be32(unsigned char *target, uint32_t value) {
  target[0] = (unsigned char)(value >> 24);
  target[1] = (unsigned char)(value >> 16);
  target[2] = (unsigned char)(value >> 8);
  target[3] = (unsigned char)value;
}

size_t put_chunk(unsigned char *target, const char type[4], const unsigned char *data, uint32_t length) {
  put_be32(target, length);
  memcpy(target + 4, type, 4);
  if (length > 0) memcpy(target + 8, data, length);
  put_be32(target + 8 + length, libdeflate_crc32(0, target + 4, (size_t)length + 4));
  return (size_t)length + 12;
}


void filter_rows(const unsigned char *pixels, uint32_t width, uint32_t stride, int opaque, int filter,
                 uint32_t first, uint32_t last, unsigned char *rows, unsigned char *target) {
  const int bpp = opaque ? 3 : 4;
  const size_t row_bytes = (size_t)width * bpp;
  unsigned char *current = rows, *above = NULL;
  if (filter != FILTER_NONE && first > 0) {
    convert_row(pixels + (size_t)(first - 1) * stride, width, opaque, current);
    above = current;
    current = rows + row_bytes;
  }
  for (uint32_t y = first; y < last; y++, target += row_bytes + 1) {
    if (filter == FILTER_NONE) {
      target[0] = FILTER_NONE;
      convert_row(pixels + (size_t)y * stride, width, opaque, target + 1);
      continue;
    }
    convert_row(pixels + (size_t)y * stride, width, opaque, current);
    filter_row(filter, current, above, row_bytes, bpp, target);
    above = current;
    current = current == rows ? rows + row_bytes : rows;
  }
}

/* IDAT chunks carry at most this much of the zlib stream each. */
#define IDAT_CHUNK_BYTES ((size_t)1 << 20)

size_t png_size_for_stream(size_t stream_size) {
  const size_t chunks = stream_size / IDAT_CHUNK_BYTES + 1;
  return 8 + 25 + stream_size + 12 * chunks + 12;
}

/* Copies `length` bytes from `offset` on of the stream the segments make laid end to end. */
static void copy_from_segments(const stream_segments *segments, size_t offset, size_t length,
                               unsigned char *target) {
  for (uint32_t index = 0; index < segments->count && length > 0; index++) {
    const size_t size = segments->sizes[index];
    if (offset >= size) {
      offset -= size;
      continue;
    }
    const size_t taken = size - offset < length ? size - offset : length;
    memcpy(target, segments->data[index] + offset, taken);
    target += taken;
    length -= taken;
    offset = 0;
  }
}

size_t write_png_into(uint32_t width, uint32_t height, int opaque, const stream_segments *segments,
                      unsigned char *png) {
  size_t stream_size = 0;
  for (uint32_t index = 0; index < segments->count; index++) stream_size += segments->sizes[index];
  static const unsigned char signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
  memcpy(png, signature, 8);
  size_t size = 8;
  unsigned char header[13];
  put_be32(header, width);
  put_be32(header + 4, height);
  header[8] = 8;                /* bits per channel */
  header[9] = opaque ? 2 : 6;   /* RGB or RGBA */
  header[10] = header[11] = 0;  /* deflate, adaptive filtering (one filter byte a row) */
  header[12] = 0;               /* not interlaced */
  size += put_chunk(png + size, "IHDR", header, 13);
  for (size_t offset = 0; offset < stream_size; offset += IDAT_CHUNK_BYTES) {
    const size_t length = stream_size - offset < IDAT_CHUNK_BYTES ? stream_size - offset : IDAT_CHUNK_BYTES;
    /* The chunk's data gathered straight from the segments, then its CRC over what was written. */
    put_be32(png + size, (uint32_t)length);
    memcpy(png + size + 4, "IDAT", 4);
    copy_from_segments(segments, offset, length, png + size + 8);
    put_be32(png + size + 8 + length, libdeflate_crc32(0, png + size + 4, length + 4));
    size += length + 12;
  }
  size += put_chunk(png + size, "IEND", NULL, 0);
  return size;
}

int write_png(uint32_t width, uint32_t height, int opaque, const unsigned char *stream, size_t stream_size,
              unsigned char **png_out, size_t *png_size) {
  unsigned char *png = malloc(png_size_for_stream(stream_size));
  if (!png) return -1;
  const stream_segments segments = {&stream, &stream_size, 1};
  *png_out = png;
  *png_size = write_png_into(width, height, opaque, &segments, png);
  return 0;
}

int cpng_encode_argb32(const unsigned char *pixels, uint32_t width, uint32_t height, uint32_t stride,
                       int compression_level, int filter, int opaque, size_t max_buffered_bytes,
                       size_t piece_bytes,
                       unsigned char **png_out,
                       size_t *png_size, char *error, size_t error_size) {
  *png_out = NULL;
  *png_size = 0;
  if (width == 0 || height == 0 || width > 0x7fffffff || height > 0x7fffffff ||
      stride < (uint64_t)width * 4) {
    copy_message(error, error_size, "cannot encode an image of that size");
    return -1;
  }
  const int level = compression_level < 1 ? 1 : compression_level > 12 ? 12 : compression_level;
  const uint64_t row_bytes = (uint64_t)width * (opaque ? 3 : 4) + 1;
  const uint64_t limit = max_buffered_bytes < SIZE_MAX / 2 ? max_buffered_bytes : SIZE_MAX / 2;
  if (filter != CPNG_FILTER_NONE && filter != CPNG_FILTER_PAETH) filter = CPNG_FILTER_SAMPLED;
  if (height <= limit / row_bytes) {
    if (filter == CPNG_FILTER_SAMPLED) filter = choose_filter(pixels, width, height, stride, opaque);
    if (filter < 0) {
      copy_message(error, error_size, "out of memory");
      return -1;
    }
    return encode_in_pieces(pixels, width, height, stride, opaque, filter, level, piece_bytes, png_out, png_size,
                            error, error_size);
  }
  /* A piece of a mebibyte starts with an empty window: level 7 keeps a large map below zlib's level 6. */
  return encode_in_bands(pixels, width, height, stride, level < ROW_WRITER_LEVEL ? ROW_WRITER_LEVEL : level, filter,
                         opaque, png_out, png_size, error, error_size);
}
