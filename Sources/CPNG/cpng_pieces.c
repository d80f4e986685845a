#include "cpng.h"
#include "cpng_internal.h"
#include <libdeflate.h>
#include <stdio.h>
#include <string.h>

/* libdeflate is the fastest deflate there is, but one call is one core, and it cannot flush: each stream
   it makes ends in a final block. So the filtered rows are cut into pieces of whole rows, each filtered and
   deflated on its own on any free core, and every piece but the last has its final block made not final
   and is ended on a byte with an empty stored block (deflate_continue_after), as a zlib sync flush ends a
   piece; laid end to end behind a zlib header, with the pieces' Adler-32 sums combined, they are one
   stream. A piece starts with an empty window, which costs a few hundred bytes a piece. The pieces depend on
   the image's size alone, never on the number of cores or on the order they are deflated in, so the same
   pixels give the same bytes on every machine. An image too small for two pieces is one zlib stream. */

enum { MAXIMUM_PIECES = 64 };

struct cpng_pieces {
  uint32_t width, height;
  int opaque, filter, level;
  uint32_t rows_per_piece, count;
  /* Each piece's deflated bytes (a whole zlib stream when there is one piece), its data's Adler-32 sum and
     length. */
  unsigned char *outputs[MAXIMUM_PIECES];
  size_t output_sizes[MAXIMUM_PIECES];
  uint32_t sums[MAXIMUM_PIECES];
  size_t lengths[MAXIMUM_PIECES];
};

static void copy_message(char *error, size_t error_size, const char *message) {
  if (error && error_size > 0) snprintf(error, error_size, "%s", message);
}

cpng_pieces *cpng_pieces_begin(uint32_t width, uint32_t height, int compression_level, int filter, int opaque,
                               size_t piece_bytes) {
  if (width == 0 || height == 0 || width > 0x7fffffff || height > 0x7fffffff) return NULL;
  if (filter != CPNG_FILTER_NONE && filter != CPNG_FILTER_PAETH) return NULL;
  cpng_pieces *pieces = calloc(1, sizeof *pieces);
  if (!pieces) return NULL;
  pieces->width = width;
  pieces->height = height;
  pieces->opaque = opaque != 0;
  pieces->filter = filter;
  pieces->level = compression_level < 1 ? 1 : compression_level > 12 ? 12 : compression_level;
  const uint64_t filtered_size = ((uint64_t)width * (opaque ? 3 : 4) + 1) * height;
  uint64_t wanted = piece_bytes > 0 ? filtered_size / piece_bytes : 1;
  if (wanted > MAXIMUM_PIECES) wanted = MAXIMUM_PIECES;
  if (wanted > height) wanted = height;
  if (wanted < 2) wanted = 1;
  pieces->rows_per_piece = (uint32_t)((height + wanted - 1) / wanted);
  pieces->count = (height + pieces->rows_per_piece - 1) / pieces->rows_per_piece;
  return pieces;
}

uint32_t cpng_pieces_count(const cpng_pieces *pieces) { return pieces->count; }

void cpng_pieces_rows(const cpng_pieces *pieces, uint32_t piece, uint32_t *first, uint32_t *last) {
  *first = piece * pieces->rows_per_piece;
  *last = *first + pieces->rows_per_piece < pieces->height ? *first + pieces->rows_per_piece : pieces->height;
}

/* A piece through our own level-1 encoder (cpng_fast_deflate.c), which ends a piece on a byte itself; a
   lone piece gets the zlib header and trailer around it. NULL when memory runs out or it fails. */
static unsigned char *deflate_piece_fast(const cpng_pieces *pieces, const unsigned char *filtered, size_t length,
                                         size_t row_bytes, int is_last, size_t *size) {
  const int lone = pieces->count == 1;
  void *room = scratch_take(fast_deflate_room_bytes());
  unsigned char *stream = room ? scratch_take(fast_deflate_bound(length) + 6) : NULL;
  *size = 0;
  if (stream) {
    const size_t header = lone ? 2 : 0;
    if (lone) zlib_header_bytes(pieces->level, stream);
    const size_t deflated =
        fast_deflate(filtered, length, row_bytes + 1, pieces->opaque ? 3 : 4, is_last, room, stream + header);
    if (deflated) {
      if (lone) put_be32(stream + header + deflated, libdeflate_adler32(1, filtered, length));
      *size = deflated + (lone ? 6 : 0);
    } else {
      scratch_give(stream);
      stream = NULL;
    }
  }
  scratch_give(room);
  return stream;
}

/* A piece through libdeflate: a lone piece is its zlib stream, any other has its final block made not
   final (deflate_stream_piece). NULL when memory runs out or it fails. */
static unsigned char *deflate_piece_libdeflate(const cpng_pieces *pieces, const unsigned char *filtered,
                                               size_t length, int is_last, size_t *size) {
  struct libdeflate_compressor *compressor = compressor_take(pieces->level);
  unsigned char *stream = NULL;
  *size = 0;
  if (!compressor) return NULL;
  if (pieces->count == 1) {
    const size_t bound = libdeflate_zlib_compress_bound(compressor, length);
    stream = scratch_take(bound);
    *size = stream ? libdeflate_zlib_compress(compressor, filtered, length, stream, bound) : 0;
    if (*size == 0) {
      scratch_give(stream);
      stream = NULL;
    }
  } else {
    void *walk_room = malloc(deflate_walk_room());
    if (walk_room) stream = deflate_stream_piece(compressor, filtered, length, is_last, walk_room, size);
    free(walk_room);
  }
  compressor_give(compressor, pieces->level);
  return stream;
}

int cpng_pieces_deflate(cpng_pieces *pieces, uint32_t piece, const unsigned char *pixels, uint32_t stride) {
  if (piece >= pieces->count || pieces->outputs[piece] || stride < (uint64_t)pieces->width * 4) return -1;
  uint32_t first, last;
  cpng_pieces_rows(pieces, piece, &first, &last);
  const size_t row_bytes = (size_t)pieces->width * (pieces->opaque ? 3 : 4);
  const size_t length = (row_bytes + 1) * (last - first);
  unsigned char *filtered = scratch_take(length);
  unsigned char *rows = malloc(row_bytes * 2);
  int status = -1;
  if (filtered && rows) {
    filter_rows(pixels, pieces->width, stride, pieces->opaque, pieces->filter, first, last, rows, filtered);
    if (pieces->count > 1) {
      pieces->sums[piece] = libdeflate_adler32(1, filtered, length);
      pieces->lengths[piece] = length;
    }
    const int is_last = last == pieces->height;
    /* Level 1 (maps drawn from vectors) goes through our own encoder. */
    pieces->outputs[piece] =
        pieces->level == 1
            ? deflate_piece_fast(pieces, filtered, length, row_bytes, is_last, &pieces->output_sizes[piece])
            : deflate_piece_libdeflate(pieces, filtered, length, is_last, &pieces->output_sizes[piece]);
    status = pieces->outputs[piece] ? 0 : -1;
  }
  scratch_give(filtered);
  free(rows);
  return status;
}

/* The zlib stream the pieces make, as segments: a lone piece is a whole stream; more are laid behind a
   zlib header, with their sums combined into the trailer. -1 while a piece is missing. */
typedef struct {
  const unsigned char *data[MAXIMUM_PIECES + 2];
  size_t sizes[MAXIMUM_PIECES + 2];
  unsigned char header[2], trailer[4];
  stream_segments segments;
} piece_stream;

static int gather_stream(const cpng_pieces *pieces, piece_stream *stream) {
  for (uint32_t piece = 0; piece < pieces->count; piece++) {
    if (!pieces->outputs[piece]) return -1;
  }
  uint32_t count = 0;
  if (pieces->count > 1) {
    zlib_header_bytes(pieces->level, stream->header);
    stream->data[count] = stream->header;
    stream->sizes[count++] = 2;
  }
  for (uint32_t piece = 0; piece < pieces->count; piece++) {
    stream->data[count] = pieces->outputs[piece];
    stream->sizes[count++] = pieces->output_sizes[piece];
  }
  if (pieces->count > 1) {
    put_be32(stream->trailer, combined_adler32(pieces->sums, pieces->lengths, pieces->count));
    stream->data[count] = stream->trailer;
    stream->sizes[count++] = 4;
  }
  stream->segments = (stream_segments){stream->data, stream->sizes, count};
  return 0;
}

size_t cpng_pieces_size(const cpng_pieces *pieces) {
  piece_stream stream;
  if (gather_stream(pieces, &stream) != 0) return 0;
  size_t stream_size = 0;
  for (uint32_t index = 0; index < stream.segments.count; index++) stream_size += stream.sizes[index];
  return png_size_for_stream(stream_size);
}

int cpng_pieces_write(cpng_pieces *pieces, unsigned char *png, size_t png_size, char *error, size_t error_size) {
  piece_stream stream;
  int status = -1;
  if (gather_stream(pieces, &stream) != 0) {
    copy_message(error, error_size, "PNG compression failed (a piece is missing, or out of memory)");
  } else if (png_size != cpng_pieces_size(pieces)) {
    copy_message(error, error_size, "the PNG's room is not its size");
  } else {
    write_png_into(pieces->width, pieces->height, pieces->opaque, &stream.segments, png);
    status = 0;
  }
  cpng_pieces_discard(pieces);
  return status;
}

int cpng_pieces_finish(cpng_pieces *pieces, unsigned char **png, size_t *png_size, char *error,
                       size_t error_size) {
  *png = NULL;
  *png_size = 0;
  const size_t size = cpng_pieces_size(pieces);
  unsigned char *output = size ? malloc(size) : NULL;
  if (size && !output) {
    copy_message(error, error_size, "out of memory");
    cpng_pieces_discard(pieces);
    return -1;
  }
  if (cpng_pieces_write(pieces, output, size, error, error_size) != 0) {
    free(output);
    return -1;
  }
  *png = output;
  *png_size = size;
  return 0;
}

void cpng_pieces_discard(cpng_pieces *pieces) {
  if (!pieces) return;
  for (uint32_t piece = 0; piece < pieces->count; piece++) scratch_give(pieces->outputs[piece]);
  free(pieces);
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

/* The pieces of one image deflated by the threads of `run_on_cores`. */
typedef struct {
  cpng_pieces *pieces;
  const unsigned char *pixels;
  uint32_t stride;
  task_queue tasks;
} piece_job;

static void *piece_worker(void *argument) {
  piece_job *job = argument;
  for (int64_t piece; (piece = take_task(&job->tasks)) >= 0;) {
    if (cpng_pieces_deflate(job->pieces, (uint32_t)piece, job->pixels, job->stride) != 0) {
      fail_tasks(&job->tasks);
      break;
    }
  }
  return NULL;
}

int encode_in_pieces(const unsigned char *pixels, uint32_t width, uint32_t height, uint32_t stride, int opaque,
                     int filter, int level, size_t piece_bytes, unsigned char **png, size_t *png_size,
                     char *error, size_t error_size) {
  piece_job job = {cpng_pieces_begin(width, height, level, filter, opaque, piece_bytes), pixels, stride};
  if (!job.pieces) {
    copy_message(error, error_size, "out of memory");
    return -1;
  }
  task_queue_init(&job.tasks, job.pieces->count);
  run_on_cores(piece_worker, &job, job.pieces->count);
  task_queue_destroy(&job.tasks);
  return cpng_pieces_finish(job.pieces, png, png_size, error, error_size);
}
