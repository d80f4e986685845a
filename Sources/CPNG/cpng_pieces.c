#include "cpng_internal.h"
#include <libdeflate.h>

/* libdeflate is the fastest deflate there is, but one call is one core, and it cannot flush: each stream
   it makes ends in a final block. So the filtered rows are cut into pieces of whole rows, each filtered and
   deflated on its own on any free core, and every piece but the last has its final block made not final
   and is ended on a byte with an empty stored block (deflate_continue_after), as a zlib sync flush ends a
   piece; laid end to end behind a zlib header, with the pieces' Adler-32 sums combined, they are one
   stream. A piece starts with an empty window, which costs a few hundred bytes a piece. The pieces depend on
   the image's size alone, never on the number of cores, so the same pixels give the same bytes on every
   machine. */

enum { MAXIMUM_PIECES = 64 };

typedef struct {
  const unsigned char *pixels;
  uint32_t width, height, stride;
  int opaque, filter, level;
  uint32_t rows_per_piece, pieces;
  unsigned char *filtered;
  unsigned char *outputs[MAXIMUM_PIECES];
  size_t output_sizes[MAXIMUM_PIECES];
  uint32_t sums[MAXIMUM_PIECES];
  size_t lengths[MAXIMUM_PIECES];
  task_queue tasks;
} piece_job;

typedef struct {
  struct libdeflate_compressor *compressor;
  unsigned char *rows;
  void *walk_room;
} piece_worker_room;

/* Filters and deflates one piece; returns 0, or -1 when out of memory or the piece cannot be ended. */
static int deflate_piece(piece_job *job, uint32_t piece, piece_worker_room *room) {
  const size_t row_bytes = (size_t)job->width * (job->opaque ? 3 : 4) + 1;
  const uint32_t first = piece * job->rows_per_piece;
  const uint32_t last = first + job->rows_per_piece < job->height ? first + job->rows_per_piece : job->height;
  const size_t length = row_bytes * (last - first);
  unsigned char *filtered = job->filtered + row_bytes * first;
  filter_rows(job->pixels, job->width, job->stride, job->opaque, job->filter, first, last, room->rows,
              filtered);
  job->sums[piece] = libdeflate_adler32(1, filtered, length);
  job->lengths[piece] = length;
  job->outputs[piece] = deflate_stream_piece(room->compressor, filtered, length, last == job->height,
                                             room->walk_room, &job->output_sizes[piece]);
  return job->outputs[piece] ? 0 : -1;
}

unsigned char *deflate_stream_piece(struct libdeflate_compressor *compressor, const unsigned char *input,
                                    size_t length, int is_last, void *walk_room, size_t *size) {
  const size_t capacity = libdeflate_deflate_compress_bound(compressor, length) + 5;
  unsigned char *output = scratch_take(capacity);
  if (!output) return NULL;
  *size = libdeflate_deflate_compress(compressor, input, length, output, capacity - 5);
  if (*size != 0 && !is_last) *size = deflate_continue_after(output, *size, walk_room);
  if (*size == 0) {
    scratch_give(output);
    return NULL;
  }
  return output;
}

static void *piece_worker(void *argument) {
  piece_job *job = argument;
  const size_t row_bytes = (size_t)job->width * (job->opaque ? 3 : 4);
  piece_worker_room room = {compressor_take(job->level), malloc(row_bytes * 2), malloc(deflate_walk_room())};
  for (int64_t piece; (piece = take_task(&job->tasks)) >= 0;) {
    if (!room.compressor || !room.rows || !room.walk_room || deflate_piece(job, (uint32_t)piece, &room) != 0) {
      fail_tasks(&job->tasks);
      break;
    }
  }
  compressor_give(room.compressor, job->level);
  free(room.rows);
  free(room.walk_room);
  return NULL;
}

/* The whole stream in one libdeflate call, on this core. */
static unsigned char *deflate_whole(const unsigned char *pixels, uint32_t width, uint32_t height,
                                    uint32_t stride, int opaque, int filter, int level, size_t *stream_size) {
  const size_t row_bytes = (size_t)width * (opaque ? 3 : 4);
  const size_t filtered_size = (row_bytes + 1) * height;
  unsigned char *filtered = scratch_take(filtered_size);
  unsigned char *rows = malloc(row_bytes * 2);
  struct libdeflate_compressor *compressor = compressor_take(level);
  const size_t bound = compressor ? libdeflate_zlib_compress_bound(compressor, filtered_size) : 0;
  unsigned char *stream = filtered && rows && bound ? scratch_take(bound) : NULL;
  if (stream) {
    filter_rows(pixels, width, stride, opaque, filter, 0, height, rows, filtered);
    *stream_size = libdeflate_zlib_compress(compressor, filtered, filtered_size, stream, bound);
    if (*stream_size == 0) {
      scratch_give(stream);
      stream = NULL;
    }
  }
  scratch_give(filtered);
  free(rows);
  compressor_give(compressor, level);
  return stream;
}

unsigned char *deflate_in_pieces(const unsigned char *pixels, uint32_t width, uint32_t height, uint32_t stride,
                                 int opaque, int filter, int level, size_t piece_bytes, size_t *stream_size) {
  *stream_size = 0;
  const size_t row_bytes = (size_t)width * (opaque ? 3 : 4) + 1;
  const size_t filtered_size = row_bytes * height;
  size_t wanted = piece_bytes > 0 ? filtered_size / piece_bytes : 1;
  if (wanted > MAXIMUM_PIECES) wanted = MAXIMUM_PIECES;
  if (wanted > height) wanted = height;
  if (wanted < 2) return deflate_whole(pixels, width, height, stride, opaque, filter, level, stream_size);

  piece_job *job = calloc(1, sizeof *job);
  if (!job) return NULL;
  job->pixels = pixels;
  job->width = width;
  job->height = height;
  job->stride = stride;
  job->opaque = opaque;
  job->filter = filter;
  job->level = level;
  job->rows_per_piece = (uint32_t)((height + wanted - 1) / wanted);
  job->pieces = (height + job->rows_per_piece - 1) / job->rows_per_piece;
  job->filtered = scratch_take(filtered_size);
  task_queue_init(&job->tasks, job->pieces);
  unsigned char *stream = NULL;
  if (job->filtered) {
    run_on_cores(piece_worker, job, job->pieces);
    /* A failed piece (out of memory, or a stream the walk does not follow) fails the image. */
    if (!job->tasks.failed) {
      stream = join_zlib_pieces(job->outputs, job->output_sizes, job->sums, job->lengths, job->pieces, level,
                                stream_size);
    }
  }
  for (uint32_t piece = 0; piece < job->pieces; piece++) scratch_give(job->outputs[piece]);
  scratch_give(job->filtered);
  task_queue_destroy(&job->tasks);
  free(job);
  return stream;
}
