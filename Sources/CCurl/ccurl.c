#include "ccurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// libcurl's stable ABI numbers (curl/curl.h), declared here so that building mymap needs no libcurl
// headers and running it needs libcurl only when it fetches.
enum {
  OPT_WRITEDATA = 10001,
  OPT_URL = 10002,
  OPT_ERRORBUFFER = 10010,
  OPT_WRITEFUNCTION = 20011,
  OPT_HTTPHEADER = 10023,
  OPT_HEADERDATA = 10029,
  OPT_NOPROGRESS = 43,
  OPT_FOLLOWLOCATION = 52,
  OPT_XFERINFODATA = 10057,
  OPT_HEADERFUNCTION = 20079,
  OPT_NOSIGNAL = 99,
  OPT_ACCEPT_ENCODING = 10102,
  OPT_CONNECTTIMEOUT_MS = 156,
  OPT_PROTOCOLS = 181,
  OPT_XFERINFOFUNCTION = 20219,
  INFO_RESPONSE_CODE = 0x200000 + 2,
  INFO_SIZE_DOWNLOAD_T = 0x600000 + 8,
  INFO_CONTENT_LENGTH_DOWNLOAD_T = 0x600000 + 15,
  PROTO_HTTP = 1 << 0,
  PROTO_HTTPS = 1 << 1,
  GLOBAL_ALL = 3,
};

struct ccurl_api {
  int (*global_init)(long flags);
  void *(*easy_init)(void);
  int (*easy_setopt)(void *handle, int option, ...);
  int (*easy_perform)(void *handle);
  int (*easy_getinfo)(void *handle, int info, ...);
  void (*easy_reset)(void *handle);
  void (*easy_cleanup)(void *handle);
  const char *(*easy_strerror)(int code);
  void *(*slist_append)(void *list, const char *text);
  void (*slist_free_all)(void *list);
};

/// Opened libraries by name: few (one in the product), kept for the life of the process.
typedef struct opened {
  struct opened *next;
  char *name;
  struct ccurl_api api;
} opened;

static pthread_mutex_t opened_lock = PTHREAD_MUTEX_INITIALIZER;
static opened *opened_list = NULL;

static int find(void *library, const char *name, void **slot, char *message, size_t size) {
  *slot = dlsym(library, name);
  if (*slot != NULL) return 1;
  snprintf(message, size, "it has no %s", name);
  return 0;
}

const ccurl_api *ccurl_open(const char *library, char *message, size_t size) {
  pthread_mutex_lock(&opened_lock);
  for (opened *entry = opened_list; entry != NULL; entry = entry->next) {
    if (strcmp(entry->name, library) == 0) {
      pthread_mutex_unlock(&opened_lock);
      return &entry->api;
    }
  }
  const ccurl_api *result = NULL;
  void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  opened *entry = calloc(1, sizeof(opened));
  if (handle == NULL) {
    const char *why = dlerror();
    snprintf(message, size, "%s", why != NULL ? why : "dlopen failed");
  } else if (entry == NULL || (entry->name = strdup(library)) == NULL) {
    snprintf(message, size, "out of memory");
  } else {
    struct ccurl_api *api = &entry->api;
    if (find(handle, "curl_global_init", (void **)&api->global_init, message, size)
        && find(handle, "curl_easy_init", (void **)&api->easy_init, message, size)
        && find(handle, "curl_easy_setopt", (void **)&api->easy_setopt, message, size)
        && find(handle, "curl_easy_perform", (void **)&api->easy_perform, message, size)
        && find(handle, "curl_easy_getinfo", (void **)&api->easy_getinfo, message, size)
        && find(handle, "curl_easy_reset", (void **)&api->easy_reset, message, size)
        && find(handle, "curl_easy_cleanup", (void **)&api->easy_cleanup, message, size)
        && find(handle, "curl_easy_strerror", (void **)&api->easy_strerror, message, size)
        && find(handle, "curl_slist_append", (void **)&api->slist_append, message, size)
        && find(handle, "curl_slist_free_all", (void **)&api->slist_free_all, message, size)) {
      // curl_global_init is not thread-safe: it runs here, under the lock, once per library.
      if (api->global_init(GLOBAL_ALL) == 0) {
        entry->next = opened_list;
        opened_list = entry;
        result = api;
        entry = NULL;
      } else {
        snprintf(message, size, "curl_global_init failed");
      }
    }
  }
  if (entry != NULL) {
    free(entry->name);
    free(entry);
  }
  pthread_mutex_unlock(&opened_lock);
  return result;
}

static double now_seconds(void) {
  struct timespec time;
  clock_gettime(CLOCK_MONOTONIC, &time);
  return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

/// Grows `*buffer` to hold `needed` bytes, doubling, never past `limit`; 0 when out of memory.
static int reserve(void **buffer, size_t *capacity, size_t needed, size_t limit) {
  if (needed <= *capacity) return 1;
  size_t grown = *capacity < 16384 ? 16384 : *capacity;
  while (grown < needed) grown = grown > SIZE_MAX / 2 ? needed : grown * 2;
  if (grown > limit) grown = limit;
  void *moved = realloc(*buffer, grown);
  if (moved == NULL) return 0;
  *buffer = moved;
  *capacity = grown;
  return 1;
}

typedef struct {
  const ccurl_api *api;
  void *handle;
  ccurl_exchange *exchange;
} context;

static size_t on_header(char *data, size_t size, size_t count, void *opaque) {
  context *ctx = opaque;
  ccurl_exchange *x = ctx->exchange;
  size_t length = size * count;
  x->last_activity = now_seconds();
  // A new status line starts a new header block (after a 100 Continue, say): keep only the last.
  if (length >= 5 && memcmp(data, "HTTP/", 5) == 0) x->header_size = 0;
  if (x->header_size + length + 1 > x->header_limit) {
    x->outcome = CCURL_HEADERS_TOO_LARGE;
    return 0;
  }
  if (!reserve((void **)&x->header_text, &x->header_capacity, x->header_size + length + 1, x->header_limit)) {
    x->outcome = CCURL_NO_MEMORY;
    return 0;
  }
  memcpy(x->header_text + x->header_size, data, length);
  x->header_size += length;
  x->header_text[x->header_size] = 0;
  // The blank line ends the block: a body announced over the limit is refused before it comes.
  if (length <= 2 && (data[0] == '\r' || data[0] == '\n')) {
    long status = 0;
    int64_t announced = -1;
    ctx->api->easy_getinfo(ctx->handle, INFO_RESPONSE_CODE, &status);
    ctx->api->easy_getinfo(ctx->handle, INFO_CONTENT_LENGTH_DOWNLOAD_T, &announced);
    if (status >= 200 && announced > 0 && (uint64_t)announced > (uint64_t)x->body_limit) {
      x->announced = announced;
      x->outcome = CCURL_TOO_LARGE_ANNOUNCED;
      return 0;
    }
  }
  return length;
}

static size_t on_body(char *data, size_t size, size_t count, void *opaque) {
  context *ctx = opaque;
  ccurl_exchange *x = ctx->exchange;
  size_t length = size * count;
  x->last_activity = now_seconds();
  if (length > x->body_limit - x->body_size) {
    // Nothing of a body over the limit is kept.
    free(x->body);
    x->body = NULL;
    x->body_size = x->body_capacity = 0;
    x->outcome = CCURL_TOO_LARGE;
    return 0;
  }
  if (length == 0) return 0;
  if (!reserve((void **)&x->body, &x->body_capacity, x->body_size + length, x->body_limit)) {
    x->outcome = CCURL_NO_MEMORY;
    return 0;
  }
  memcpy(x->body + x->body_size, data, length);
  x->body_size += length;
  return length;
}

/// Called by libcurl often while data moves and about once a second while it waits: the place to stop
/// an exchange that was cancelled, has waited too long for data or has run past its deadline.
static int on_progress(void *opaque, int64_t total_down, int64_t now_down, int64_t total_up, int64_t now_up) {
  (void)total_down, (void)now_down, (void)total_up, (void)now_up;
  ccurl_exchange *x = ((context *)opaque)->exchange;
  double now = now_seconds();
  if (__atomic_load_n(&x->cancelled, __ATOMIC_RELAXED)) {
    x->outcome = CCURL_CANCELLED;
    return 1;
  }
  if (now - x->started >= x->deadline_seconds) {
    x->outcome = CCURL_DEADLINE;
    return 1;
  }
  if (now - x->last_activity >= x->idle_timeout_seconds) {
    x->outcome = CCURL_TIMED_OUT;
    return 1;
  }
  return 0;
}

void *ccurl_handle_new(const ccurl_api *api) { return api->easy_init(); }

void ccurl_handle_free(const ccurl_api *api, void *handle) {
  if (handle != NULL) api->easy_cleanup(handle);
}

void ccurl_perform(const ccurl_api *api, void *handle, ccurl_exchange *x) {
  x->outcome = CCURL_DONE;
  x->curl_code = 0;
  x->status = 0;
  x->announced = -1;
  x->received_on_wire = 0;
  x->body_size = x->header_size = 0;
  x->error_text[0] = 0;
  x->started = x->last_activity = now_seconds();
  void *headers = NULL;
  for (int index = 0; index < x->header_count; index++) {
    void *grown = api->slist_append(headers, x->headers[index]);
    if (grown == NULL) {
      api->slist_free_all(headers);
      x->outcome = CCURL_NO_MEMORY;
      return;
    }
    headers = grown;
  }
  context ctx = {api, handle, x};
  char error[256] = {0};
  long connect_ms = (long)(x->idle_timeout_seconds * 1000);
  api->easy_reset(handle);
  api->easy_setopt(handle, OPT_URL, x->url);
  api->easy_setopt(handle, OPT_HTTPHEADER, headers);
  api->easy_setopt(handle, OPT_PROTOCOLS, (long)(PROTO_HTTP | PROTO_HTTPS));
  api->easy_setopt(handle, OPT_FOLLOWLOCATION, 0L);
  api->easy_setopt(handle, OPT_NOSIGNAL, 1L);
  api->easy_setopt(handle, OPT_ACCEPT_ENCODING, "");
  api->easy_setopt(handle, OPT_CONNECTTIMEOUT_MS, connect_ms > 0 ? connect_ms : 1L);
  api->easy_setopt(handle, OPT_ERRORBUFFER, error);
  api->easy_setopt(handle, OPT_HEADERFUNCTION, on_header);
  api->easy_setopt(handle, OPT_HEADERDATA, &ctx);
  api->easy_setopt(handle, OPT_WRITEFUNCTION, on_body);
  api->easy_setopt(handle, OPT_WRITEDATA, &ctx);
  api->easy_setopt(handle, OPT_NOPROGRESS, 0L);
  api->easy_setopt(handle, OPT_XFERINFOFUNCTION, on_progress);
  api->easy_setopt(handle, OPT_XFERINFODATA, &ctx);
  int code = api->easy_perform(handle);
  api->easy_getinfo(handle, INFO_RESPONSE_CODE, &x->status);
  if (x->announced < 0) api->easy_getinfo(handle, INFO_CONTENT_LENGTH_DOWNLOAD_T, &x->announced);
  api->easy_getinfo(handle, INFO_SIZE_DOWNLOAD_T, &x->received_on_wire);
  // The error buffer and the header list must not outlive this call.
  api->easy_setopt(handle, OPT_ERRORBUFFER, (char *)NULL);
  api->easy_setopt(handle, OPT_HTTPHEADER, (void *)NULL);
  api->slist_free_all(headers);
  x->curl_code = code;
  if (code != 0 && x->outcome == CCURL_DONE) {
    x->outcome = CCURL_FAILED;
    const char *text = error[0] != 0 ? error : api->easy_strerror(code);
    snprintf(x->error_text, sizeof x->error_text, "%s", text != NULL ? text : "libcurl error");
  }
}

void ccurl_cancel(ccurl_exchange *x) { __atomic_store_n(&x->cancelled, 1, __ATOMIC_RELAXED); }

void ccurl_exchange_release(ccurl_exchange *x) {
  free(x->body);
  free(x->header_text);
  x->body = NULL;
  x->header_text = NULL;
  x->body_size = x->body_capacity = x->header_size = x->header_capacity = 0;
}
