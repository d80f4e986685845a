#ifndef CPNG_INTERNAL_H
#define CPNG_INTERNAL_H
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* What the module's files share (not part of its interface). */

/* Decodes a plain PNG (8 bits, not interlaced, no gamma or colour profile) of the header's size into
   `rgba` (4 * width * height bytes), straight RGBA, with libdeflate (cpng_decode_plain.c). Returns 0, or
   1 when the file is not one it decodes or has any problem: libpng then decodes it and reports what it
   finds. */
int cpng_decode_plain(const unsigned char *bytes, size_t length, uint32_t width, uint32_t height,
                      unsigned char *rgba);

enum { FILTER_NONE = 0, FILTER_PAETH = 4 };

/* The Paeth predictor (PNG 9.4) of a byte from the bytes left of it, above it and above-left, without
   branches (the encoder's loop over a row vectorizes): with estimate = left + above - corner, its
   distances to left, above and corner are |above - corner|, |left - corner| and |left + above - 2 corner|. */
static inline unsigned char paeth_predictor(int left, int above, int corner) {
  const int to_left = abs(above - corner);
  const int to_above = abs(left - corner);
  const int to_corner = abs(left + above - 2 * corner);
  const int nearer = to_above <= to_corner ? above : corner;
  return (unsigned char)(to_left <= to_above && to_left <= to_corner ? left : nearer);
}

/* One row of Cairo's premultiplied native-endian ARGB32 as straight RGB (`opaque`) or RGBA bytes. */
void convert_row(const unsigned char *source_row, uint32_t width, int opaque, unsigned char *target);

/* A filter byte and the filtered row; `previous` is the row above (NULL for the first row). */
void filter_row(int filter, const unsigned char *row, const unsigned char *previous, size_t row_bytes,
                int bytes_per_pixel, unsigned char *target);

/* Rows `first` to `last` (exclusive) of the image, converted and filtered, one after another at `target`
   (each a filter byte and the row); `rows` is scratch room for two converted rows. */
void filter_rows(const unsigned char *pixels, uint32_t width, uint32_t stride, int opaque, int filter,
                 uint32_t first, uint32_t last, unsigned char *rows, unsigned char *target);

void put_be32(unsigned char *target, uint32_t value);

/* The big-endian 32-bit number at `bytes` (chunk lengths, CRCs, the header's sizes). */
static inline uint32_t read_be32(const unsigned char *bytes) {
  return ((uint32_t)bytes[0] << 24) | ((uint32_t)bytes[1] << 16) | ((uint32_t)bytes[2] << 8) | bytes[3];
}

/* Writes a chunk (length, type, data, CRC) at `target`; returns the bytes written. */
size_t put_chunk(unsigned char *target, const char type[4], const unsigned char *data, uint32_t length);

/* The PNG file around a whole zlib stream: signature, IHDR, IDAT chunks, IEND. Returns -1 when out of
   memory. */
int write_png(uint32_t width, uint32_t height, int opaque, const unsigned char *stream, size_t stream_size,
              unsigned char **png_out, size_t *png_size);

/* A zlib stream held in parts (a header, deflated pieces, a sum), laid end to end. */
typedef struct {
  const unsigned char *const *data;
  const size_t *sizes;
  uint32_t count;
} stream_segments;

/* The size of the PNG file around a zlib stream of `stream_size` bytes. */
size_t png_size_for_stream(size_t stream_size);

/* Writes the PNG file around the stream the segments make into `png` (png_size_for_stream bytes), its
   IDAT chunks gathered straight from them; returns the bytes written. */
size_t write_png_into(uint32_t width, uint32_t height, int opaque, const stream_segments *segments,
                      unsigned char *png);

/* The least level the row-by-row writer is used at for a large image. */
enum { ROW_WRITER_LEVEL = 7 };

/* A large image through the row-by-row writer (cpng_stream.c), all its rows at once: libdeflate at `level`
   in pieces of a mebibyte on all cores, in bounded memory. */
int encode_in_bands(const unsigned char *pixels, uint32_t width, uint32_t height, uint32_t stride, int level,
                    int filter, int opaque, unsigned char **png_out, size_t *png_size, char *error,
                    size_t error_size);

/* Where the filter is chosen: up to SAMPLE_RUNS runs of SAMPLE_RUN_ROWS consecutive rows spread over
   `height` rows (their first rows and counts). Returns the number of runs. */
enum { SAMPLE_RUNS = 4, SAMPLE_RUN_ROWS = 8 };
uint32_t filter_sample_runs(uint32_t height, uint32_t first[SAMPLE_RUNS], uint32_t count[SAMPLE_RUNS]);

/* FILTER_NONE or FILTER_PAETH for every row, whichever deflates the sample smaller: `runs[i]` is
   `counts[i]` converted rows, `row_bytes` apart. Returns -1 when out of memory. */
int pick_filter(const unsigned char *const *runs, const uint32_t *counts, uint32_t run_count, size_t row_bytes,
                int bpp);

/* The two bytes of a zlib header for `level`. */
void zlib_header_bytes(int level, unsigned char header[2]);

/* Filters the image's rows (`filter`) and deflates them by libdeflate at `level` into a PNG: in pieces of
   about `piece_bytes` of filtered rows (`cpng_pieces_begin`), on all cores at once (cpng_pieces.c).
   Returns 0, or -1 and a message in `error`. */
int encode_in_pieces(const unsigned char *pixels, uint32_t width, uint32_t height, uint32_t stride, int opaque,
                     int filter, int level, size_t piece_bytes, unsigned char **png, size_t *png_size,
                     char *error, size_t error_size);

/* Work shared out between threads: tasks 0..<count, each taken once (cpng_tasks.c). */
typedef struct {
  uint32_t next, count;
  int failed;
  pthread_mutex_t lock;
} task_queue;
void task_queue_init(task_queue *queue, uint32_t count);
void task_queue_destroy(task_queue *queue);
/* The next task, or -1 when none is left or one failed. */
int64_t take_task(task_queue *queue);
/* Stops the others taking tasks. */
void fail_tasks(task_queue *queue);
/* Runs `worker(job)` on as many threads as there are cores (at most 16, at most `tasks`), this one
   included, and returns when all have. */
void run_on_cores(void *(*worker)(void *), void *job, uint32_t tasks);

/* The Adler-32 sum of data made of `count` parts with the sums `sums` and the lengths `lengths`
   (cpng_zlib_join.c). */
uint32_t combined_adler32(const uint32_t *sums, const size_t *lengths, uint32_t count);

/* `length` bytes at `input` deflated by `compressor` as one piece of a longer stream: unless `is_last`,
   continued past its final block (deflate_continue_after, with `walk_room`), so that another piece can
   follow it (cpng_pieces.c). Returns the piece (release with free) and its size in `size`, or NULL when
   out of memory or the piece cannot be continued. */
struct libdeflate_compressor;
unsigned char *deflate_stream_piece(struct libdeflate_compressor *compressor, const unsigned char *input,
                                    size_t length, int is_last, void *walk_room, size_t *size);

/* Memory kept between encodes (cpng_scratch.c): `scratch_take` is malloc (uninitialised, NULL when out of
   memory) and `scratch_give` its free (NULL ignored); a compressor taken for a level goes back for that
   level (NULL ignored). Thread-safe. */
void *scratch_take(size_t bytes);
void scratch_give(void *memory);
struct libdeflate_compressor *compressor_take(int level);
void compressor_give(struct libdeflate_compressor *compressor, int level);

/* The bytes of scratch `deflate_continue_after` needs (cpng_deflate_walk.c). */
size_t deflate_walk_room(void);

/* Turns a raw deflate stream (`size` bytes at `stream`, with room for 5 more) into one that goes on: its
   final block, found by walking its blocks, made not final, then an empty stored block to end it on a
   byte, as a zlib sync flush does, so another stream can follow it. `room` is deflate_walk_room() bytes
   of scratch. Returns the new size, or 0 when the stream cannot be walked. */
size_t deflate_continue_after(unsigned char *stream, size_t size, void *room);

/* The deflate encoder for the filtered rows of a map drawn from vectors (cpng_fast_deflate.c): about
   1.8 times libdeflate level 1's speed for about 5 % more bytes, used where level 1 is asked for. `input` is
   `length` bytes of rows of `row_bytes` (the filter byte included) of `pixel_bytes` pixels; the raw
   deflate stream goes to `output` (fast_deflate_bound bytes) and is final when `final`, else it ends on a
   byte after an empty stored block so that another piece can follow. `room` is fast_deflate_room_bytes()
   of scratch. Returns the bytes written, or 0 for an input it does not take (4 GiB or more). */
size_t fast_deflate_room_bytes(void);
size_t fast_deflate_bound(size_t length);
size_t fast_deflate(const unsigned char *input, size_t length, size_t row_bytes, int pixel_bytes, int final,
                    void *room, unsigned char *output);

#endif
