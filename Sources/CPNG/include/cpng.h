#ifndef CPNG_H
#define CPNG_H
#include <stddef.h>
#include <stdint.h>

/// Reads only the header of a PNG held in memory. Returns 0 on success, -1 when the bytes are not a PNG.
int cpng_read_size(const unsigned char *bytes, size_t length, uint32_t *width, uint32_t *height);

/// Decodes a PNG held in memory into `pixels`: straight (not premultiplied) 8-bit RGBA rows, 4 * width
/// bytes each, of the size `cpng_read_size` gives, which the caller has checked against its limits and
/// allocated (so the pixels land where they are kept, with no copy). Returns 0 on success; on failure -1
/// and a message in `error`. Plain PNGs (8 bits, not interlaced, no gamma or colour profile: nearly every
/// map tile) are decoded with libdeflate, the rest (and every file with a problem) by
/// `cpng_decode_rgba_libpng`, with the same pixels and errors.
int cpng_decode_rgba(const unsigned char *bytes, size_t length, unsigned char *pixels, char *error,
                     size_t error_size);

/// `cpng_decode_rgba` through libpng alone: the reference the libdeflate path is held to.
int cpng_decode_rgba_libpng(const unsigned char *bytes, size_t length, unsigned char *pixels, char *error,
                            size_t error_size);

/// The filters `cpng_encode_argb32` can be told to use (PNG's filter types), or to choose by a sample.
enum { CPNG_FILTER_SAMPLED = -1, CPNG_FILTER_NONE = 0, CPNG_FILTER_PAETH = 4 };

/// Encodes premultiplied native-endian ARGB32 pixels (Cairo's CAIRO_FORMAT_ARGB32) as a PNG in memory.
/// When `opaque` is non-zero every pixel must be opaque, and the alpha channel is dropped (RGB output). Every row gets the same filter:
/// `filter` (CPNG_FILTER_NONE or CPNG_FILTER_PAETH), or with CPNG_FILTER_SAMPLED none or paeth, whichever deflates a sample of
/// the rows smaller. An image whose filtered rows fit in
/// `max_buffered_bytes` is deflated by libdeflate at `compression_level` (1-12), in pieces of about
/// `piece_bytes` of filtered rows on all cores at once when there are two or more; a larger one
/// goes through the row-by-row writer below (`cpng_stream_begin`), all rows at once, at level 7 or more. No time chunk is
/// written, so the same pixels always give the same bytes. Returns 0 on success; on failure -1 and a
/// message in `error`. The PNG bytes must be released with `cpng_free`.
int cpng_encode_argb32(const unsigned char *pixels, uint32_t width, uint32_t height, uint32_t stride,
                       int compression_level, int filter, int opaque, size_t max_buffered_bytes, size_t piece_bytes,
                       unsigned char **png,
                       size_t *png_size, char *error, size_t error_size);

/// A PNG written a few rows at a time, top to bottom, in bounded memory (about 10 MiB beside the file's
/// bytes, whatever the image's height, for rows of up to a mebibyte; four rows' worth for wider ones): libdeflate at `compression_level` (1-12) in pieces of a mebibyte of
/// filtered rows on all cores. The filter (none or
/// paeth) is chosen on the first rows; the bytes depend on the pixels alone, never on how many rows each
/// `cpng_stream_write` hands in. With `opaque` every pixel must be opaque, and the alpha channel is dropped.
typedef struct cpng_stream cpng_stream;

/// Begins a `width` × `height` PNG; NULL (and a message in `error`) for an impossible size or when out of
/// memory.
cpng_stream *cpng_stream_begin(uint32_t width, uint32_t height, int compression_level, int opaque, char *error,
                               size_t error_size);

/// Adds the next `rows` rows of premultiplied native-endian ARGB32 pixels, `stride` bytes apart. Returns 0,
/// or -1 and a message (then every later call fails too).
int cpng_stream_write(cpng_stream *stream, const unsigned char *pixels, uint32_t rows, uint32_t stride,
                      char *error, size_t error_size);

/// After the last row: the PNG (release with `cpng_free`). Releases the stream whatever it returns: 0, or
/// -1 and a message (rows missing, out of memory, an earlier failure).
int cpng_stream_finish(cpng_stream *stream, unsigned char **png, size_t *png_size, char *error,
                       size_t error_size);

/// Releases a stream without finishing it.
void cpng_stream_discard(cpng_stream *stream);

/// A PNG deflated a piece of rows at a time by the caller's threads, each piece as soon as its rows are
/// drawn: the bytes `cpng_encode_argb32` writes for the same pixels, `filter` (CPNG_FILTER_NONE or
/// CPNG_FILTER_PAETH), level and `piece_bytes`, whatever the order the pieces are deflated in. The pieces
/// (whole rows) depend on the image's size alone; each piece is held deflated until the end.
typedef struct cpng_pieces cpng_pieces;

/// Begins a `width` × `height` PNG; NULL for an impossible size or filter, or when out of memory.
cpng_pieces *cpng_pieces_begin(uint32_t width, uint32_t height, int compression_level, int filter, int opaque,
                               size_t piece_bytes);

/// How many pieces the image is deflated in.
uint32_t cpng_pieces_count(const cpng_pieces *pieces);

/// The image rows `first` up to (not including) `last` that piece `piece` holds.
void cpng_pieces_rows(const cpng_pieces *pieces, uint32_t piece, uint32_t *first, uint32_t *last);

/// Filters and deflates piece `piece` from the image's premultiplied native-endian ARGB32 rows (`pixels`
/// is the first row of the image, rows `stride` bytes apart; with CPNG_FILTER_PAETH the row above the
/// piece is read too). Threads may deflate different pieces at once. Returns 0, or -1 when out of memory
/// or the piece was deflated before.
int cpng_pieces_deflate(cpng_pieces *pieces, uint32_t piece, const unsigned char *pixels, uint32_t stride);

/// After every piece: the PNG (release with `cpng_free`). Releases the pieces whatever it returns: 0, or
/// -1 and a message (a piece missing, out of memory).
int cpng_pieces_finish(cpng_pieces *pieces, unsigned char **png, size_t *png_size, char *error,
                       size_t error_size);

/// After every piece: the size of the PNG `cpng_pieces_write` writes (0 while a piece is missing).
size_t cpng_pieces_size(const cpng_pieces *pieces);

/// After every piece: writes the PNG into `png`, whose `png_size` must be `cpng_pieces_size` (so that the
/// caller's own buffer takes it, without a copy). Releases the pieces whatever it returns: 0, or -1 and a
/// message (a piece missing, a wrong size).
int cpng_pieces_write(cpng_pieces *pieces, unsigned char *png, size_t png_size, char *error, size_t error_size);

/// Releases the pieces without finishing them.
void cpng_pieces_discard(cpng_pieces *pieces);

/// Releases what `cpng_encode_argb32` made.
void cpng_free(void *pointer);

/// The bytes of memory the encoder keeps between encodes (blocks only, not compressors).
size_t cpng_kept_scratch_bytes(void);

#endif
