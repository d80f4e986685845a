#include "cpng_internal.h"
#include <libdeflate.h>
#include <string.h>

/* Memory an encode asks for again and again (filtered rows, deflated pieces, the stream, the file) and
   libdeflate's compressors, kept between encodes. Fresh memory reaches the process as zeroed pages, a
   kernel fault each, which cost a 1200x800 map's encode a tenth of its time; a second encode in the same
   process (a batch, a watch, a library client) now reuses the first one's. Kept: at most KEPT_BLOCKS
   blocks of at most KEPT_BYTES in all, and KEPT_COMPRESSORS compressors. */

enum { KEPT_BLOCKS = 32, KEPT_COMPRESSORS = 8 };
#define KEPT_BYTES ((size_t)48 << 20)

/* A block's capacity is written in front of it; what callers see stays 16-byte aligned. */
enum { HEADER_BYTES = 16 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char *kept_blocks[KEPT_BLOCKS];
static size_t kept_count, kept_bytes;
static struct libdeflate_compressor *kept_compressors[KEPT_COMPRESSORS];
static int kept_levels[KEPT_COMPRESSORS];
static size_t kept_compressor_count;

static size_t capacity_of(const unsigned char *block) {
  size_t capacity;
  memcpy(&capacity, block, sizeof capacity);
  return capacity;
}

void *scratch_take(size_t bytes) {
  if (bytes > SIZE_MAX - HEADER_BYTES) return NULL;
  unsigned char *block = NULL;
  pthread_mutex_lock(&lock);
  /* The smallest kept block that holds `bytes`, if it is not more than twice that. */
  size_t best = kept_count;
  for (size_t index = 0; index < kept_count; index++) {
    const size_t capacity = capacity_of(kept_blocks[index]);
    if (capacity >= bytes && capacity / 2 <= bytes &&
        (best == kept_count || capacity < capacity_of(kept_blocks[best])))
      best = index;
  }
  if (best < kept_count) {
    block = kept_blocks[best];
    kept_bytes -= capacity_of(block);
    kept_blocks[best] = kept_blocks[--kept_count];
  }
  pthread_mutex_unlock(&lock);
  if (!block) {
    block = malloc(HEADER_BYTES + bytes);
    if (!block) return NULL;
    memcpy(block, &bytes, sizeof bytes);
  }
  return block + HEADER_BYTES;
}

void scratch_give(void *memory) {
  if (!memory) return;
  unsigned char *block = (unsigned char *)memory - HEADER_BYTES;
  const size_t capacity = capacity_of(block);
  unsigned char *dropped = block;
  pthread_mutex_lock(&lock);
  if (capacity <= KEPT_BYTES) {
    /* The oldest kept blocks make room for this one. */
    while (kept_count > 0 && (kept_count == KEPT_BLOCKS || kept_bytes + capacity > KEPT_BYTES)) {
      kept_bytes -= capacity_of(kept_blocks[0]);
      free(kept_blocks[0]);
      memmove(kept_blocks, kept_blocks + 1, (--kept_count) * sizeof kept_blocks[0]);
    }
    kept_blocks[kept_count++] = block;
    kept_bytes += capacity;
    dropped = NULL;
  }
  pthread_mutex_unlock(&lock);
  free(dropped);
}

struct libdeflate_compressor *compressor_take(int level) {
  struct libdeflate_compressor *compressor = NULL;
  pthread_mutex_lock(&lock);
  for (size_t index = 0; index < kept_compressor_count; index++) {
    if (kept_levels[index] != level) continue;
    compressor = kept_compressors[index];
    kept_compressor_count--;
    kept_compressors[index] = kept_compressors[kept_compressor_count];
    kept_levels[index] = kept_levels[kept_compressor_count];
    break;
  }
  pthread_mutex_unlock(&lock);
  return compressor ? compressor : libdeflate_alloc_compressor(level);
}

void compressor_give(struct libdeflate_compressor *compressor, int level) {
  if (!compressor) return;
  pthread_mutex_lock(&lock);
  if (kept_compressor_count < KEPT_COMPRESSORS) {
    kept_compressors[kept_compressor_count] = compressor;
    kept_levels[kept_compressor_count++] = level;
    compressor = NULL;
  }
  pthread_mutex_unlock(&lock);
  libdeflate_free_compressor(compressor);
}

size_t cpng_kept_scratch_bytes(void) {
  pthread_mutex_lock(&lock);
  const size_t bytes = kept_bytes;
  pthread_mutex_unlock(&lock);
  return bytes;
}
