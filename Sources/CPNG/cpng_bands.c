#include "cpng_internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* A large image (its filtered rows too many to hold beside it) is cut into bands of about a mebibyte of
   filtered rows. Each band is deflated on its own, on as many threads as there are cores, primed with the
   32 KiB of filtered rows before it (so matches reach across the cut, as in one stream) and ended on a byte
   boundary with a sync flush; the last band ends the stream. Laid end to end behind a zlib header, with the
   bands' Adler-32 sums combined, they are one zlib stream. The bands depend on the image alone, never on the
   number of threads, so the same pixels give the same bytes on every machine. */

enum { BAND_BYTES = 1 << 20, WINDOW_BYTES = 32768 };

typedef struct {
  const unsigned char *pixels;
  uint32_t width, height, stride;
  int opaque, filter, level;
  uint32_t rows_per_band, bands;
  /* Per band, filled by whichever thread deflates it. */
  unsigned char **pieces;
  size_t *piece_sizes;
  uint32_t *sums;
  size_t *lengths;
  task_queue tasks;
} band_job;

/* Deflates one band; returns 0, or -1 when out of memory or zlib fails. */
static int deflate_band(band_job *job, uint32_t band, unsigned char *rows, unsigned char *filtered,
                        unsigned char *window) {
  const size_t row_bytes = (size_t)job->width * (job->opaque ? 3 : 4) + 1;
  const uint32_t first = band * job->rows_per_band;
  const uint32_t last = first + job->rows_per_band < job->height ? first + job->rows_per_band : job->height;
  const size_t length = row_bytes * (last - first);
  filter_rows(job->pixels, job->width, job->stride, job->opaque, job->filter, first, last, rows, filtered);
  job->sums[band] = (uint32_t)adler32(adler32(0, NULL, 0), filtered, (uInt)length);
  job->lengths[band] = length;

  z_stream stream;
  memset(&stream, 0, sizeof stream);
  if (deflateInit2(&stream, job->level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) return -1;
  int status = -1;
  if (first > 0) {
    /* The rows just above the band, filtered as in the stream: the window its matches may reach into. */
    const uint32_t above = (uint32_t)((WINDOW_BYTES + row_bytes - 1) / row_bytes);
    const uint32_t start = first > above ? first - above : 0;
    const size_t window_length = row_bytes * (first - start);
    filter_rows(job->pixels, job->width, job->stride, job->opaque, job->filter, start, first, rows, window);
    const size_t used = window_length < WINDOW_BYTES ? window_length : WINDOW_BYTES;
    if (deflateSetDictionary(&stream, window + window_length - used, (uInt)used) != Z_OK) goto done;
  }
  const int is_last = last == job->height;
  const size_t capacity = deflateBound(&stream, (uLong)length) + 64;
  unsigned char *piece = malloc(capacity);
  if (!piece) goto done;
  stream.next_in = filtered;
  stream.avail_in = (uInt)length;
  stream.next_out = piece;
  stream.avail_out = (uInt)capacity;
  const int result = deflate(&stream, is_last ? Z_FINISH : Z_SYNC_FLUSH);
  if ((is_last && result != Z_STREAM_END) || (!is_last && (result != Z_OK || stream.avail_in != 0))) {
    free(piece);
    goto done;
  }
  job->pieces[band] = piece;
  job->piece_sizes[band] = capacity - stream.avail_out;
  status = 0;
done:
  deflateEnd(&stream);
  return status;
}

static void *band_worker(void *argument) {
  band_job *job = argument;
  const size_t row_bytes = (size_t)job->width * (job->opaque ? 3 : 4) + 1;
  unsigned char *rows = malloc(row_bytes * 2);
  unsigned char *filtered = malloc(row_bytes * job->rows_per_band);
  unsigned char *window = malloc(row_bytes * ((WINDOW_BYTES + row_bytes - 1) / row_bytes));
  for (int64_t band; (band = take_task(&job->tasks)) >= 0;) {
    if (!rows || !filtered || !window || deflate_band(job, (uint32_t)band, rows, filtered, window) != 0) {
      fail_tasks(&job->tasks);
      break;
    }
  }
  free(rows);
  free(filtered);
  free(window);
  return NULL;
}

int encode_in_bands(const unsigned char *pixels, uint32_t width, uint32_t height, uint32_t stride, int level,
                    int opaque, int filter, unsigned char **png_out, size_t *png_size, char *error,
                    size_t error_size) {
  const size_t row_bytes = (size_t)width * (opaque ? 3 : 4) + 1;
  band_job job;
  memset(&job, 0, sizeof job);
  job.pixels = pixels;
  job.width = width;
  job.height = height;
  job.stride = stride;
  job.opaque = opaque;
  job.filter = filter;
  job.level = level < 1 ? 1 : level;
  job.rows_per_band = row_bytes >= BAND_BYTES ? 1 : (uint32_t)(BAND_BYTES / row_bytes);
  job.bands = (height + job.rows_per_band - 1) / job.rows_per_band;
  job.pieces = calloc(job.bands, sizeof *job.pieces);
  job.piece_sizes = calloc(job.bands, sizeof *job.piece_sizes);
  job.sums = calloc(job.bands, sizeof *job.sums);
  job.lengths = calloc(job.bands, sizeof *job.lengths);
  task_queue_init(&job.tasks, job.bands);
  int status = -1;
  unsigned char *stream = NULL;
  if (!job.pieces || !job.piece_sizes || !job.sums || !job.lengths) goto done;

  run_on_cores(band_worker, &job, job.bands);
  if (job.tasks.failed) goto done;

  size_t stream_size = 0;
  stream = join_zlib_pieces(job.pieces, job.piece_sizes, job.sums, job.lengths, job.bands, job.level,
                            &stream_size);
  if (!stream) goto done;
  status = write_png(width, height, opaque, stream, stream_size, png_out, png_size);
done:
  if (status != 0 && error && error_size > 0) snprintf(error, error_size, "%s", "PNG compression failed");
  for (uint32_t band = 0; job.pieces && band < job.bands; band++) free(job.pieces[band]);
  free(job.pieces);
  free(job.piece_sizes);
  free(job.sums);
  free(job.lengths);
  free(stream);
  task_queue_destroy(&job.tasks);
  return status;
}
