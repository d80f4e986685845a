#include "cpng_internal.h"
#include <string.h>

/* Finds where a raw deflate stream's final block starts and where it ends, by walking its blocks: reading
   each block's Huffman codes and decoding its symbols without writing anything out. Only ever given what
   libdeflate just made (never a file), but every read is bounds-checked all the same: a stream that is not
   what it should be gives -1, never a read past its end.

   Speed matters (the walk runs over every piece of every image): codes of up to FAST_BITS bits, nearly
   all of them, are decoded with one look-up in a table small enough to stay in the first-level cache;
   longer ones bit by bit from the code's canonical order (as RFC 1951 builds it). Skipping a block's
   symbols goes faster still: a second table per code gives how many bits a literal, or a length or
   distance with its extra bits, takes, so a match is skipped in two look-ups; whatever that table does
   not cover (the end of the block, a long code, the last bits of the stream) takes the careful path. */

enum { FAST_BITS = 10, FAST_SIZE = 1 << FAST_BITS, END_OF_BLOCK = 256, MAXIMUM_SYMBOLS = 288 };

typedef struct {
  const unsigned char *data;
  size_t size;
  size_t next;     /* the next byte to load into `buffer` */
  uint64_t buffer; /* bits not yet taken, the next one lowest */
  unsigned count;  /* how many bits `buffer` holds */
} bit_reader;

/* A Huffman code: entry (next FAST_BITS bits) = symbol << 4 | length, or 0 for a longer code; and, for
   those, how many codes each length has and the symbols in canonical order. */
typedef struct {
  uint16_t fast[FAST_SIZE];
  uint16_t counts[16];
  uint16_t symbols[MAXIMUM_SYMBOLS];
} huffman_code;

/* Tops `buffer` up to at least 56 bits, or with all that is left. */
static inline void refill(bit_reader *reader) {
  if (reader->next + 8 <= reader->size) {
    uint64_t word;
    memcpy(&word, reader->data + reader->next, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    word = __builtin_bswap64(word); /* deflate packs bits from the first byte's lowest */
#endif
    reader->buffer |= word << reader->count;
    reader->next += (63 - reader->count) >> 3;
    reader->count |= 56;
    return;
  }
  while (reader->count <= 56 && reader->next < reader->size) {
    reader->buffer |= (uint64_t)reader->data[reader->next++] << reader->count;
    reader->count += 8;
  }
}

/* The position of the next bit, from the stream's first. */
static inline size_t bit_position(const bit_reader *reader) { return reader->next * 8 - reader->count; }

/* Takes `count` bits (at most 16); -1 past the stream's end. */
static inline int take_bits(bit_reader *reader, unsigned count, uint32_t *value) {
  if (reader->count < count) {
    refill(reader);
    if (reader->count < count) return -1;
  }
  *value = (uint32_t)(reader->buffer & ((1u << count) - 1));
  reader->buffer >>= count;
  reader->count -= count;
  return 0;
}

/* The code for `count` symbols' lengths; -1 when the lengths do not make a prefix code. */
static int build_code(const unsigned char *lengths, unsigned count, huffman_code *code) {
  uint16_t offsets[16];
  memset(code->counts, 0, sizeof code->counts);
  for (unsigned symbol = 0; symbol < count; symbol++) code->counts[lengths[symbol]]++;
  code->counts[0] = 0;
  offsets[1] = 0;
  for (unsigned length = 1; length < 15; length++) offsets[length + 1] = offsets[length] + code->counts[length];
  for (unsigned symbol = 0; symbol < count; symbol++)
    if (lengths[symbol]) code->symbols[offsets[lengths[symbol]]++] = (uint16_t)symbol;

  memset(code->fast, 0, sizeof code->fast);
  unsigned next = 0, index = 0;
  for (unsigned length = 1; length <= FAST_BITS; length++) {
    for (unsigned n = 0; n < code->counts[length]; n++, next++) {
      if (next >= 1u << length) return -1;
      unsigned reversed = 0;
      for (unsigned bit = 0; bit < length; bit++) reversed |= ((next >> bit) & 1) << (length - 1 - bit);
      for (unsigned entry = reversed; entry < FAST_SIZE; entry += 1u << length)
        code->fast[entry] = (uint16_t)(code->symbols[index + n] << 4 | length);
    }
    index += code->counts[length];
    next <<= 1;
  }
  return 0;
}

/* Decodes one symbol; -1 for bits no code starts with, or past the end. */
static inline int decode_symbol(bit_reader *reader, const huffman_code *code) {
  if (reader->count < 15) refill(reader);
  const uint16_t entry = code->fast[reader->buffer & (FAST_SIZE - 1)];
  const unsigned length = entry & 15;
  if (length != 0) {
    if (length > reader->count) return -1;
    reader->buffer >>= length;
    reader->count -= length;
    return entry >> 4;
  }
  /* A longer code: its bits, first bit highest, against the first code of each length. */
  int first = 0, index = 0, value = 0;
  for (unsigned bits = 1; bits <= 15; bits++) {
    uint32_t bit;
    if (take_bits(reader, 1, &bit)) return -1;
    value |= (int)bit;
    const int count = code->counts[bits];
    if (value - first < count) return code->symbols[index + value - first];
    index += count;
    first = (first + count) << 1;
    value <<= 1;
  }
  return -1;
}

/* Reads a dynamic block's code lengths (RFC 1951 3.2.7) into its two codes. */
static int read_dynamic_codes(bit_reader *reader, huffman_code *literals, huffman_code *distances) {
  static const unsigned char order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
  uint32_t literal_count, distance_count, length_count;
  if (take_bits(reader, 5, &literal_count) || take_bits(reader, 5, &distance_count) ||
      take_bits(reader, 4, &length_count))
    return -1;
  literal_count += 257;
  distance_count += 1;
  length_count += 4;
  if (literal_count > 286 || distance_count > 30) return -1;
  unsigned char code_lengths[19] = {0};
  for (uint32_t index = 0; index < length_count; index++) {
    uint32_t length;
    if (take_bits(reader, 3, &length)) return -1;
    code_lengths[order[index]] = (unsigned char)length;
  }
  if (build_code(code_lengths, 19, literals) != 0) return -1;
  unsigned char lengths[286 + 30] = {0};
  const uint32_t total = literal_count + distance_count;
  for (uint32_t index = 0; index < total;) {
    const int symbol = decode_symbol(reader, literals);
    if (symbol < 0) return -1;
    if (symbol < 16) {
      lengths[index++] = (unsigned char)symbol;
      continue;
    }
    uint32_t repeat;
    unsigned char value = 0;
    if (symbol == 16) {
      if (index == 0 || take_bits(reader, 2, &repeat)) return -1;
      value = lengths[index - 1];
      repeat += 3;
    } else if (symbol == 17) {
      if (take_bits(reader, 3, &repeat)) return -1;
      repeat += 3;
    } else {
      if (take_bits(reader, 7, &repeat)) return -1;
      repeat += 11;
    }
    if (index + repeat > total) return -1;
    memset(lengths + index, value, repeat);
    index += repeat;
  }
  if (build_code(lengths, literal_count, literals) != 0) return -1;
  return build_code(lengths + literal_count, distance_count, distances);
}

/* The fixed codes (RFC 1951 3.2.6). */
static void fixed_codes(huffman_code *literals, huffman_code *distances) {
  unsigned char lengths[288];
  memset(lengths, 8, 144);
  memset(lengths + 144, 9, 112);
  memset(lengths + 256, 7, 24);
  memset(lengths + 280, 8, 8);
  build_code(lengths, 288, literals);
  memset(lengths, 5, 30);
  build_code(lengths, 30, distances);
}

/* The extra bits after a length symbol (257-285) and after a distance symbol (0-29). */
static inline unsigned length_extra_bits(int symbol) {
  return symbol < 265 || symbol == 285 ? 0 : (unsigned)(symbol - 261) / 4;
}
static inline unsigned distance_extra_bits(int symbol) { return symbol < 4 ? 0 : (unsigned)symbol / 2 - 1; }

/* Skips one symbol (with a match's distance) the careful way: 1 at the end of the block, 0 past
   anything else, -1 for a stream that is not whole. */
static int skip_symbol(bit_reader *reader, const huffman_code *literals, const huffman_code *distances) {
  const int symbol = decode_symbol(reader, literals);
  if (symbol < 0 || symbol > 285) return -1;
  if (symbol == END_OF_BLOCK) return 1;
  if (symbol < END_OF_BLOCK) return 0;
  uint32_t ignored;
  if (take_bits(reader, length_extra_bits(symbol), &ignored)) return -1;
  const int distance = decode_symbol(reader, distances);
  if (distance < 0 || distance > 29) return -1;
  return take_bits(reader, distance_extra_bits(distance), &ignored) ? -1 : 0;
}

/* The skip table of a code (see the top): for each FAST_BITS bits, the bits its literal or its length or
   distance with their extra bits take, flagged LITERAL or LENGTH in a literal/length code; 0 where the
   careful path decides. */
enum { SKIP_BITS = 31, SKIP_LITERAL = 32, SKIP_LENGTH = 64 };
static void build_skips(const huffman_code *code, int is_literal_code, unsigned char skips[FAST_SIZE]) {
  for (unsigned index = 0; index < FAST_SIZE; index++) {
    const unsigned length = code->fast[index] & 15;
    const int symbol = code->fast[index] >> 4;
    unsigned char skip = 0;
    if (length != 0 && is_literal_code) {
      if (symbol < END_OF_BLOCK) skip = (unsigned char)(SKIP_LITERAL | length);
      else if (symbol > END_OF_BLOCK && symbol <= 285)
        skip = (unsigned char)(SKIP_LENGTH | (length + length_extra_bits(symbol)));
    } else if (length != 0 && symbol <= 29) {
      skip = (unsigned char)(length + distance_extra_bits(symbol));
    }
    skips[index] = skip;
  }
}

/* Skips a block's symbols up to its end-of-block code. With 48 bits at hand (a length code and its extra
   bits take at most 20, a distance with its extra bits 28) a literal or a whole match is skipped from the
   skip tables without a check; the rest goes the careful way. */
static int skip_symbols(bit_reader *reader, const huffman_code *literals, const huffman_code *distances) {
  unsigned char literal_skips[FAST_SIZE], distance_skips[FAST_SIZE];
  build_skips(literals, 1, literal_skips);
  build_skips(distances, 0, distance_skips);
  for (;;) {
    if (reader->count < 48) refill(reader);
    /* The bits in locals while they last: the reader's fields would go through memory each symbol. */
    uint64_t buffer = reader->buffer;
    unsigned count = reader->count;
    while (count >= 48) {
      const unsigned skip = literal_skips[buffer & (FAST_SIZE - 1)];
      unsigned bits = skip & SKIP_BITS;
      if (skip & SKIP_LENGTH) {
        const unsigned distance_bits = distance_skips[(buffer >> bits) & (FAST_SIZE - 1)];
        if (distance_bits == 0) break;
        bits += distance_bits;
      } else if (!(skip & SKIP_LITERAL)) {
        break;
      }
      buffer >>= bits;
      count -= bits;
    }
    reader->buffer = buffer;
    reader->count = count;
    if (count >= 48 || (refill(reader), reader->count < 48)) {
      const int status = skip_symbol(reader, literals, distances);
      if (status != 0) return status > 0 ? 0 : -1;
    }
  }
}

/* Where a raw deflate stream's final block's header bit is and the bit just after its end-of-block code.
   Returns 0, or -1 when `stream` is not a whole deflate stream. */
static int deflate_final_block(const unsigned char *stream, size_t size, void *room, size_t *header_bit,
                               size_t *end_bit) {
  bit_reader reader = {stream, size, 0, 0, 0};
  huffman_code *literals = room, *distances = literals + 1;
  for (;;) {
    const size_t header = bit_position(&reader);
    uint32_t final, type;
    if (take_bits(&reader, 1, &final) || take_bits(&reader, 2, &type)) return -1;
    if (type == 0) {
      /* Stored: from the next byte, a length, its complement and that many bytes. */
      const size_t start = (bit_position(&reader) + 7) / 8;
      if (start + 4 > size) return -1;
      const uint32_t length = stream[start] | (uint32_t)stream[start + 1] << 8;
      const uint32_t complement = stream[start + 2] | (uint32_t)stream[start + 3] << 8;
      if ((length ^ 0xffff) != complement || start + 4 + length > size) return -1;
      reader = (bit_reader){stream, size, start + 4 + length, 0, 0};
    } else if (type == 1 || type == 2) {
      if (type == 1) {
        fixed_codes(literals, distances);
      } else if (read_dynamic_codes(&reader, literals, distances) != 0) {
        return -1;
      }
      if (skip_symbols(&reader, literals, distances) != 0) return -1;
    } else {
      return -1;
    }
    if (final) {
      *header_bit = header;
      *end_bit = bit_position(&reader);
      return 0;
    }
  }
}

size_t deflate_walk_room(void) { return 2 * sizeof(huffman_code); }

size_t deflate_continue_after(unsigned char *stream, size_t size, void *room) {
  size_t header_bit, end_bit;
  if (deflate_final_block(stream, size, room, &header_bit, &end_bit) != 0 || (end_bit + 7) / 8 != size)
    return 0;
  stream[header_bit / 8] &= (unsigned char)~(1u << (header_bit % 8));
  /* After the last code, an empty stored block that is not final: three zero bits (not final, stored),
     zeros to the byte's end, then its length 0 and the length's complement. */
  const size_t end = (end_bit + 3 + 7) / 8;
  if (end_bit % 8 != 0) stream[end_bit / 8] &= (unsigned char)((1u << (end_bit % 8)) - 1);
  for (size_t index = size; index < end; index++) stream[index] = 0;
  static const unsigned char empty_stored[4] = {0x00, 0x00, 0xff, 0xff};
  memcpy(stream + end, empty_stored, 4);
  return end + 4;
}
