/* A DEFLATE encoder (RFC 1951) for the filtered rows of a map drawn from vectors: flat colours, runs
   of one pixel, rows like the row above, antialiased edges and some text. About 55 % of libdeflate
   level 1's CPU on such images, for about 5 % more bytes (cpng_internal.h says where it is used).

   Parse: greedy. At each position the next 4 bytes are compared with those one pixel back and one row
   up, and the first that matches wins; else a 64K-entry table of the last position of each 4-byte hash
   is probed (and updated only there, never inside a match). Matches are 4 to 258 bytes.

   Blocks: 64 KiB of input parsed into symbols and counted, then written as whichever of a dynamic, fixed
   or stored block is smallest. The output depends on the input alone. */
#include <pthread.h>
#include <string.h>

#include "cpng_internal.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

enum {
  BLOCK_BYTES = 65536,
  HASH_BITS = 16,
  MINIMUM_MATCH = 4,
  MAXIMUM_MATCH = 258,
  WINDOW = 32768,
  /* The main loop reads up to this far past a position without checks (a match's 16-byte compares). */
  TAIL_BYTES = 300,
};

/* ---- The format's tables (RFC 1951 3.2.5), made once. ---- */

static uint8_t length_symbol[256]; /* match length − 3 → length code − 257 */
static uint8_t length_extra_bits[29];
static uint16_t length_base[29];
static uint8_t distance_extra_bits[30];
static uint16_t distance_base[30];
static uint8_t distance_symbol_table[512]; /* distance_index(d) → distance code */
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void make_tables(void) {
  int base = 3;
  for (int code = 0; code < 28; code++) {
    length_extra_bits[code] = code < 8 ? 0 : (uint8_t)((code - 4) / 4);
    length_base[code] = (uint16_t)base;
    for (int k = 0; k < (1 << length_extra_bits[code]); k++) {
      if (base - 3 + k < 256) length_symbol[base - 3 + k] = (uint8_t)code;
    }
    base += 1 << length_extra_bits[code];
  }
  length_extra_bits[28] = 0;
  length_base[28] = 258;
  length_symbol[255] = 28;
  base = 1;
  for (int code = 0; code < 30; code++) {
    distance_extra_bits[code] = code < 4 ? 0 : (uint8_t)((code - 2) / 2);
    distance_base[code] = (uint16_t)base;
    for (int k = 0; k < (1 << distance_extra_bits[code]); k++) {
      const int distance = base + k;
      if (distance <= 256) distance_symbol_table[distance] = (uint8_t)code;
      else distance_symbol_table[256 + ((distance - 1) >> 7)] = (uint8_t)code;
    }
    base += 1 << distance_extra_bits[code];
  }
}

/* Distances up to 256 index the table directly, larger ones by 128s above it. */
static inline unsigned distance_symbol(uint32_t distance) {
  const uint32_t large = -(uint32_t)(distance > 256);
  return distance_symbol_table[(distance & ~large) | ((256 + ((distance - 1) >> 7)) & large)];
}

static inline uint32_t load32(const uint8_t *p) {
  uint32_t value;
  memcpy(&value, p, 4);
  return value;
}

static inline uint64_t load64(const uint8_t *p) {
  uint64_t value;
  memcpy(&value, p, 8);
  return value;
}

/* ---- Huffman codes. ---- */

/* Sorts up to 288 keys (a bottom-up merge sort: qsort's callback cost more than the rest). */
static void sort_keys(uint64_t *keys, int count) {
  uint64_t spare[288], *from = keys, *to = spare;
  for (int width = 1; width < count; width *= 2) {
    for (int low = 0; low < count; low += 2 * width) {
      const int middle = low + width < count ? low + width : count;
      const int high = low + 2 * width < count ? low + 2 * width : count;
      int i = low, j = middle, k = low;
      while (i < middle && j < high) to[k++] = from[i] <= from[j] ? from[i++] : from[j++];
      while (i < middle) to[k++] = from[i++];
      while (j < high) to[k++] = from[j++];
    }
    uint64_t *swap = from;
    from = to;
    to = swap;
  }
  if (from != keys) memcpy(keys, from, (size_t)count * sizeof *keys);
}

/* Code lengths for `count` symbols of the given frequencies, at most `maximum_bits` long: a complete
   code of at least two symbols (the format wants one), the longest codes for the rarest symbols. */
static void code_lengths(const uint32_t *frequencies, int count, int maximum_bits, uint8_t *lengths) {
  uint64_t keys[288];
  uint32_t weight[576];
  uint16_t parent[576];
  uint8_t depth[576];
  int used = 0;
  memset(lengths, 0, (size_t)count);
  for (int symbol = 0; symbol < count; symbol++) {
    if (frequencies[symbol]) keys[used++] = ((uint64_t)frequencies[symbol] << 16) | (uint64_t)symbol;
  }
  if (used < 2) {
    const int only = used ? (int)(keys[0] & 0xFFFF) : 0;
    lengths[only] = 1;
    lengths[only == 0 ? 1 : 0] = 1;
    return;
  }
  sort_keys(keys, used);
  for (int i = 0; i < used; i++) weight[i] = (uint32_t)(keys[i] >> 16);
  /* Two queues: the sorted leaves and the inner nodes, made in increasing weight. */
  int leaf = 0, inner = used, next = used;
  for (int k = 0; k < used - 1; k++) {
    int a, b;
    if (leaf < used && (inner >= next || weight[leaf] <= weight[inner])) a = leaf++;
    else a = inner++;
    if (leaf < used && (inner >= next || weight[leaf] <= weight[inner])) b = leaf++;
    else b = inner++;
    weight[next] = weight[a] + weight[b];
    parent[a] = parent[b] = (uint16_t)next;
    next++;
  }
  const int root = 2 * used - 2;
  depth[root] = 0;
  for (int node = root - 1; node >= 0; node--) {
    const int d = depth[parent[node]] + 1;
    depth[node] = (uint8_t)(d > 255 ? 255 : d);
  }
  int per_length[256] = {0};
  for (int i = 0; i < used; i++) per_length[depth[i]]++;
  for (int d = maximum_bits + 1; d < 256; d++) {
    per_length[maximum_bits] += per_length[d];
    per_length[d] = 0;
  }
  /* Too deep codes were cut to the limit: lengthen shorter ones until the code is complete again. */
  uint32_t total = 0;
  for (int d = 1; d <= maximum_bits; d++) total += (uint32_t)per_length[d] << (maximum_bits - d);
  while (total > (1u << maximum_bits)) {
    per_length[maximum_bits]--;
    for (int d = maximum_bits - 1; d > 0; d--) {
      if (per_length[d]) {
        per_length[d]--;
        per_length[d + 1] += 2;
        break;
      }
    }
    total--;
  }
  int index = 0;
  for (int length = maximum_bits; length >= 1; length--) {
    for (int c = per_length[length]; c > 0; c--) lengths[keys[index++] & 0xFFFF] = (uint8_t)length;
  }
}

/* The canonical codes of the lengths, bit-reversed for the LSB-first bit writer. */
static void canonical_codes(const uint8_t *lengths, int count, uint16_t *codes) {
  uint16_t per_length[16] = {0}, next_code[16] = {0};
  for (int symbol = 0; symbol < count; symbol++) per_length[lengths[symbol]]++;
  per_length[0] = 0;
  unsigned code = 0;
  for (int bits = 1; bits <= 15; bits++) {
    code = (code + per_length[bits - 1]) << 1;
    next_code[bits] = (uint16_t)code;
  }
  for (int symbol = 0; symbol < count; symbol++) {
    const int length = lengths[symbol];
    if (!length) {
      codes[symbol] = 0;
      continue;
    }
    unsigned value = next_code[length]++, reversed = 0;
    for (int i = 0; i < length; i++) {
      reversed = (reversed << 1) | (value & 1);
      value >>= 1;
    }
    codes[symbol] = (uint16_t)reversed;
  }
}

/* ---- Bits out, least significant first. At most 57 bits are held; `flush` writes 8 bytes. ---- */

typedef struct {
  uint64_t bits;
  unsigned count;
  uint8_t *at;
} bit_writer;

static inline void put_bits(bit_writer *writer, uint64_t value, unsigned count) {
  writer->bits |= value << writer->count;
  writer->count += count;
}

static inline void flush_bits(bit_writer *writer) {
  memcpy(writer->at, &writer->bits, 8);
  writer->at += writer->count >> 3;
  writer->bits >>= writer->count & ~7u;
  writer->count &= 7;
}

/* Pads to a byte (the pending bits are written). */
static inline void align_bits(bit_writer *writer) {
  flush_bits(writer);
  if (writer->count) writer->at++;
  writer->bits = 0;
  writer->count = 0;
}

static const uint8_t code_length_order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
static const uint8_t code_length_extra_bits[19] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7};

/* A literal/length symbol's length in the fixed code (RFC 1951 3.2.6). */
static inline uint8_t fixed_literal_length(int symbol) {
  return (uint8_t)(symbol < 144 ? 8 : symbol < 256 ? 9 : symbol < 280 ? 7 : 8);
}

/* Stored blocks of input[start..end), the last one final when `final`. */
static void write_stored(bit_writer *writer, const uint8_t *input, size_t start, size_t end, int final) {
  do {
    const size_t length = end - start > 65535 ? 65535 : end - start;
    put_bits(writer, (uint64_t)(final && start + length == end), 3);
    align_bits(writer);
    writer->at[0] = (uint8_t)length;
    writer->at[1] = (uint8_t)(length >> 8);
    writer->at[2] = (uint8_t)~length;
    writer->at[3] = (uint8_t)(~length >> 8);
    memcpy(writer->at + 4, input + start, length);
    writer->at += 4 + length;
    start += length;
  } while (start < end);
}

/* A block's codes, and the tables the coder writes from: literal x at [x], a match of length L at
   [256 + L − 3] (its code and extra bits together); distance code 30 stands for none. */
typedef struct {
  uint8_t literal_lengths[288], distance_lengths[32], code_length_lengths[19];
  uint16_t literal_codes[288], distance_codes[32], code_length_codes[19];
  uint32_t first_code[512];
  uint8_t first_bits[512];
  uint32_t distance_code[32];
  uint8_t distance_code_bits[32], distance_bits[32];
  int literal_count, distance_count, code_length_count, header_items;
  uint8_t header_symbols[320], header_extra[320];
} block_codes;

/* The codes and the coder's tables from the code lengths. */
static void fill_tables(block_codes *codes) {
  canonical_codes(codes->literal_lengths, 288, codes->literal_codes);
  canonical_codes(codes->distance_lengths, 30, codes->distance_codes);
  for (int symbol = 0; symbol < 256; symbol++) {
    codes->first_code[symbol] = codes->literal_codes[symbol];
    codes->first_bits[symbol] = codes->literal_lengths[symbol];
  }
  for (int length = 0; length < 256; length++) {
    const int symbol = length_symbol[length];
    const int bits = codes->literal_lengths[257 + symbol];
    codes->first_code[256 + length] =
        codes->literal_codes[257 + symbol] | ((uint32_t)(length + 3 - length_base[symbol]) << bits);
    codes->first_bits[256 + length] = (uint8_t)(bits + length_extra_bits[symbol]);
  }
  for (int symbol = 0; symbol < 30; symbol++) {
    codes->distance_code[symbol] = codes->distance_codes[symbol];
    codes->distance_code_bits[symbol] = codes->distance_lengths[symbol];
    codes->distance_bits[symbol] = (uint8_t)(codes->distance_lengths[symbol] + distance_extra_bits[symbol]);
  }
  codes->distance_code[30] = 0;
  codes->distance_code_bits[30] = 0;
  codes->distance_bits[30] = 0;
}

static void make_codes(block_codes *codes, const uint32_t *literal_frequencies,
                       const uint32_t *distance_frequencies) {
  code_lengths(literal_frequencies, 286, 15, codes->literal_lengths);
  memset(codes->literal_lengths + 286, 0, 2);
  code_lengths(distance_frequencies, 30, 15, codes->distance_lengths);
  memset(codes->distance_lengths + 30, 0, 2);
  int literals = 286, distances = 30;
  while (literals > 257 && !codes->literal_lengths[literals - 1]) literals--;
  while (distances > 1 && !codes->distance_lengths[distances - 1]) distances--;
  /* The lengths, run-length coded with symbols 16–18. */
  uint8_t all[320];
  memcpy(all, codes->literal_lengths, (size_t)literals);
  memcpy(all + literals, codes->distance_lengths, (size_t)distances);
  const int total = literals + distances;
  int items = 0;
  for (int i = 0; i < total;) {
    const int value = all[i];
    int run = 1;
    while (i + run < total && all[i + run] == value) run++;
    int left = run;
    if (value == 0) {
      while (left >= 11) {
        const int take = left < 138 ? left : 138;
        codes->header_symbols[items] = 18;
        codes->header_extra[items++] = (uint8_t)(take - 11);
        left -= take;
      }
      if (left >= 3) {
        codes->header_symbols[items] = 17;
        codes->header_extra[items++] = (uint8_t)(left - 3);
        left = 0;
      }
    } else {
      codes->header_symbols[items] = (uint8_t)value;
      codes->header_extra[items++] = 0;
      left--;
      while (left >= 3) {
        const int take = left < 6 ? left : 6;
        codes->header_symbols[items] = 16;
        codes->header_extra[items++] = (uint8_t)(take - 3);
        left -= take;
      }
    }
    while (left-- > 0) {
      codes->header_symbols[items] = (uint8_t)value;
      codes->header_extra[items++] = 0;
    }
    i += run;
  }
  uint32_t code_length_frequencies[19] = {0};
  for (int i = 0; i < items; i++) code_length_frequencies[codes->header_symbols[i]]++;
  code_lengths(code_length_frequencies, 19, 7, codes->code_length_lengths);
  canonical_codes(codes->code_length_lengths, 19, codes->code_length_codes);
  int code_length_count = 19;
  while (code_length_count > 4 && !codes->code_length_lengths[code_length_order[code_length_count - 1]]) {
    code_length_count--;
  }
  codes->literal_count = literals;
  codes->distance_count = distances;
  codes->code_length_count = code_length_count;
  codes->header_items = items;
  fill_tables(codes);
}

static void write_dynamic_header(bit_writer *writer, const block_codes *codes, int final) {
  put_bits(writer, (uint64_t)final | (2 << 1), 3);
  put_bits(writer, (uint64_t)(codes->literal_count - 257), 5);
  put_bits(writer, (uint64_t)(codes->distance_count - 1), 5);
  put_bits(writer, (uint64_t)(codes->code_length_count - 4), 4);
  flush_bits(writer);
  for (int i = 0; i < codes->code_length_count; i++) {
    put_bits(writer, codes->code_length_lengths[code_length_order[i]], 3);
    flush_bits(writer);
  }
  for (int i = 0; i < codes->header_items; i++) {
    const int symbol = codes->header_symbols[i];
    put_bits(writer, codes->code_length_codes[symbol], codes->code_length_lengths[symbol]);
    if (symbol >= 16) put_bits(writer, codes->header_extra[i], code_length_extra_bits[symbol]);
    flush_bits(writer);
  }
}

/* A parsed symbol: a literal x is x | 30 << 9; a match is 256 + length − 3, its distance code
   << 9 and its distance's extra bits << 14. */
#define LITERAL_SYMBOL(x) ((uint32_t)(x) | (30u << 9))

struct fast_deflate_room {
  uint32_t hash[1 << HASH_BITS];
  uint32_t symbols[BLOCK_BYTES];
  uint32_t literal_frequencies[288], distance_frequencies[30], length_frequencies[256];
  block_codes codes;
};

size_t fast_deflate_room_bytes(void) { return sizeof(struct fast_deflate_room); }

size_t fast_deflate_bound(size_t length) {
  /* No block is larger than stored, whose blocks take 5 bytes each beside the data (two a block, as a
     block is one byte more than a stored block holds); then the closing empty block and the writer's
     8-byte stores. */
  return length + 10 * (length / 65535 + 2) + 64;
}

/* A parsed block, written as the smallest of dynamic, fixed and stored. */
static void write_block(struct fast_deflate_room *room, bit_writer *writer, const uint8_t *input, size_t start,
                        size_t end, size_t symbol_count, int final) {
  uint32_t *literal_frequencies = room->literal_frequencies, *distance_frequencies = room->distance_frequencies;
  literal_frequencies[256] = 1;
  block_codes *codes = &room->codes;
  make_codes(codes, literal_frequencies, distance_frequencies);
  uint64_t dynamic_bits = 17 + 3 * (uint64_t)codes->code_length_count, fixed_bits = 3, extra_bits = 0;
  for (int i = 0; i < codes->header_items; i++) {
    const int symbol = codes->header_symbols[i];
    dynamic_bits += codes->code_length_lengths[symbol] + code_length_extra_bits[symbol];
  }
  for (int symbol = 0; symbol < 286; symbol++) {
    const uint64_t frequency = literal_frequencies[symbol];
    if (!frequency) continue;
    dynamic_bits += frequency * codes->literal_lengths[symbol];
    fixed_bits += frequency * fixed_literal_length(symbol);
    if (symbol >= 257) extra_bits += frequency * length_extra_bits[symbol - 257];
  }
  for (int symbol = 0; symbol < 30; symbol++) {
    const uint64_t frequency = distance_frequencies[symbol];
    if (!frequency) continue;
    dynamic_bits += frequency * codes->distance_lengths[symbol];
    fixed_bits += frequency * 5;
    extra_bits += frequency * distance_extra_bits[symbol];
  }
  dynamic_bits += extra_bits;
  fixed_bits += extra_bits;
  const uint64_t raw = end - start;
  /* Whole bytes: a coded block must not outgrow its stored size even by the bits it leaves pending, which
     would add up from block to block past fast_deflate_bound. */
  const uint64_t stored_bits = (raw + 5 * (raw / 65535 + 1)) * 8;
  if (stored_bits < dynamic_bits && stored_bits < fixed_bits) {
    write_stored(writer, input, start, end, final);
    return;
  }
  if (fixed_bits <= dynamic_bits) {
    for (int symbol = 0; symbol < 288; symbol++) codes->literal_lengths[symbol] = fixed_literal_length(symbol);
    for (int symbol = 0; symbol < 30; symbol++) codes->distance_lengths[symbol] = 5;
    fill_tables(codes);
    put_bits(writer, (uint64_t)final | (1 << 1), 3);
    flush_bits(writer);
  } else {
    write_dynamic_header(writer, codes, final);
  }
  bit_writer out = *writer;
  for (size_t i = 0; i < symbol_count; i++) {
    const uint32_t symbol = room->symbols[i], first = symbol & 0x1FF, distance = (symbol >> 9) & 31,
                   distance_extra = symbol >> 14;
    const uint64_t value =
        codes->first_code[first] |
        ((uint64_t)(codes->distance_code[distance] | (distance_extra << codes->distance_code_bits[distance]))
         << codes->first_bits[first]);
    put_bits(&out, value, (unsigned)codes->first_bits[first] + codes->distance_bits[distance]);
    flush_bits(&out);
  }
  put_bits(&out, codes->literal_codes[256], codes->literal_lengths[256]);
  flush_bits(&out);
  *writer = out;
}

/* ---- The parser. ---- */

/* How far a and b agree from `length` on, up to `limit`. */
static inline size_t extend_match(const uint8_t *a, const uint8_t *b, size_t length, size_t limit) {
  while (length + 8 <= limit) {
    const uint64_t differ = load64(a + length) ^ load64(b + length);
    if (differ) return length + ((size_t)__builtin_ctzll(differ) >> 3);
    length += 8;
  }
  while (length < limit && a[length] == b[length]) length++;
  return length;
}

/* The match at a against b (their first 4 bytes equal) up to 258 bytes, 16 at a time: reads up to 272
   bytes past both, which the main loop leaves room for. */
static inline size_t match_length(const uint8_t *a, const uint8_t *b) {
#if defined(__SSE2__)
  size_t length = 0;
  for (;;) {
    const unsigned same = (unsigned)_mm_movemask_epi8(
        _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(a + length)), _mm_loadu_si128((const __m128i *)(b + length))));
    if (same != 0xFFFF) {
      length += (size_t)__builtin_ctz(~same);
      break;
    }
    length += 16;
    if (length >= MAXIMUM_MATCH) break;
  }
  return length < MAXIMUM_MATCH ? length : MAXIMUM_MATCH;
#else
  return extend_match(a, b, MINIMUM_MATCH, MAXIMUM_MATCH);
#endif
}

typedef struct {
  struct fast_deflate_room *room;
  const uint8_t *input;
  size_t length;
  /* The two distances tried first: a pixel back and a row up (0 when the row is too long). */
  size_t near[2];
} parse_state;

static inline uint32_t hash_of(uint32_t bytes) { return (bytes * 2654435761u) >> (32 - HASH_BITS); }

/* Parses input[*position..limit) into the room's symbols, counting each; returns how many. */
static size_t parse(parse_state *state, size_t *position, size_t limit) {
  struct fast_deflate_room *room = state->room;
  const uint8_t *input = state->input;
  const size_t length = state->length;
  uint32_t *literal_frequencies = room->literal_frequencies, *distance_frequencies = room->distance_frequencies,
           *length_frequencies = room->length_frequencies, *symbols = room->symbols, *hash = room->hash;
  const size_t safe_end = length >= MINIMUM_MATCH ? length - (MINIMUM_MATCH - 1) : 0;
  const size_t fast_end = length > TAIL_BYTES ? length - TAIL_BYTES : 0;
  const size_t fast_limit = limit < fast_end ? limit : fast_end;
  const size_t pixel = state->near[0], row = state->near[1];
  /* The main loop looks a row back without checks (the row distance is at least a pixel's). */
  const size_t fast_start = (row ? row : pixel) + pixel;
  uint32_t near_symbol[2];
  for (int k = 0; k < 2; k++) {
    const size_t distance = state->near[k] ? state->near[k] : pixel;
    const unsigned code = distance_symbol((uint32_t)distance);
    near_symbol[k] = (uint32_t)code << 9 | (uint32_t)(distance - distance_base[code]) << 14;
  }
  size_t at = *position, kept = 0;
#define KEEP_MATCH(match, distance)                                                             \
  do {                                                                                          \
    const unsigned length_index = (unsigned)(match) - 3, code = distance_symbol((uint32_t)(distance)); \
    length_frequencies[length_index]++;                                                         \
    distance_frequencies[code]++;                                                               \
    symbols[kept++] = 0x100 | length_index | (code << 9) | (((uint32_t)(distance) - distance_base[code]) << 14); \
  } while (0)
  while (at < limit) {
    if (at >= fast_start && at < fast_limit) {
      do {
        const uint8_t *p = input + at;
        const uint32_t bytes = load32(p);
        const unsigned near = (load32(p - pixel) == bytes) | ((unsigned)(row && load32(p - row) == bytes) << 1);
        if (near) {
          const unsigned k = (unsigned)__builtin_ctz(near);
          const size_t match = match_length(p, p - state->near[k]);
          const unsigned length_index = (unsigned)match - 3;
          length_frequencies[length_index]++;
          distance_frequencies[(near_symbol[k] >> 9) & 31]++;
          symbols[kept++] = 0x100 | length_index | near_symbol[k];
          at += match;
          continue;
        }
        const uint32_t slot = hash_of(bytes);
        const size_t candidate = hash[slot];
        hash[slot] = (uint32_t)at;
        if (at - candidate - 1 < WINDOW && load32(input + candidate) == bytes) {
          const size_t match = match_length(p, input + candidate);
          KEEP_MATCH(match, at - candidate);
          at += match;
          continue;
        }
        literal_frequencies[bytes & 0xFF]++;
        symbols[kept++] = LITERAL_SYMBOL(bytes & 0xFF);
        at++;
      } while (at < fast_limit);
      continue;
    }
    /* The first row and the last bytes, with every bound checked. */
    const uint8_t *p = input + at;
    size_t match = 0, distance = 0;
    if (at < safe_end) {
      const uint32_t bytes = load32(p);
      const size_t most = length - at < MAXIMUM_MATCH ? length - at : MAXIMUM_MATCH;
      for (int k = 0; k < 2; k++) {
        const size_t near = state->near[k];
        if (near && near <= at && load32(p - near) == bytes) {
          distance = near;
          break;
        }
      }
      if (distance) {
        match = extend_match(p, p - distance, MINIMUM_MATCH, most);
      } else {
        const uint32_t slot = hash_of(bytes);
        const size_t candidate = hash[slot];
        hash[slot] = (uint32_t)at;
        if (at - candidate - 1 < WINDOW && load32(input + candidate) == bytes) {
          distance = at - candidate;
          match = extend_match(p, input + candidate, MINIMUM_MATCH, most);
        }
      }
    }
    if (match) {
      KEEP_MATCH(match, distance);
      at += match;
    } else {
      literal_frequencies[*p]++;
      symbols[kept++] = LITERAL_SYMBOL(*p);
      at++;
    }
  }
#undef KEEP_MATCH
  *position = at;
  return kept;
}

static void count_lengths(struct fast_deflate_room *room) {
  for (int length = 0; length < 256; length++) {
    room->literal_frequencies[257 + length_symbol[length]] += room->length_frequencies[length];
  }
}

static void clear_counts(struct fast_deflate_room *room) {
  memset(room->literal_frequencies, 0, sizeof room->literal_frequencies);
  memset(room->distance_frequencies, 0, sizeof room->distance_frequencies);
  memset(room->length_frequencies, 0, sizeof room->length_frequencies);
}

size_t fast_deflate(const unsigned char *input, size_t length, size_t row_bytes, int pixel_bytes, int final,
                    void *room_memory, unsigned char *output) {
  pthread_once(&tables_once, make_tables);
  struct fast_deflate_room *room = room_memory;
  if (length >= ((size_t)1 << 32) || pixel_bytes < 1 || pixel_bytes > 8) return 0;
  parse_state state = {room, input, length, {(size_t)pixel_bytes, 0}};
  /* The row above, when it is within the window and further than a pixel. */
  if (row_bytes > (size_t)pixel_bytes && row_bytes + (size_t)pixel_bytes <= WINDOW) state.near[1] = row_bytes;
  memset(room->hash, 0, sizeof room->hash);
  bit_writer writer = {0, 0, output};
  size_t position = 0;
  do {
    clear_counts(room);
    const size_t start = position;
    const size_t limit = length - position > BLOCK_BYTES ? position + BLOCK_BYTES : length;
    const size_t kept = parse(&state, &position, limit);
    count_lengths(room);
    write_block(room, &writer, input, start, position, kept, final && position >= length);
  } while (position < length);
  if (!final) {
    /* An empty stored block ends the piece on a byte, as a sync flush does, so that another can follow. */
    put_bits(&writer, 0, 3);
    align_bits(&writer);
    memcpy(writer.at, "\x00\x00\xff\xff", 4);
    writer.at += 4;
  } else {
    align_bits(&writer);
  }
  return (size_t)(writer.at - output);
}
