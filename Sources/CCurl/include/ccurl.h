#ifndef MYMAP_CCURL_H
#define MYMAP_CCURL_H

// libcurl, opened with dlopen at the first fetch, so that a render that fetches nothing loads neither
// libcurl nor the TLS, Kerberos and LDAP libraries behind it. Only the few calls one GET needs.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// libcurl's entry points, found with dlsym; filled by ccurl_open.
typedef struct ccurl_api ccurl_api;

/// Opens `library` (such as "libcurl.so.4") once per process and name; NULL with a reason in `message`
/// when it cannot be opened or lacks a call mymap needs. The returned table lives until the process ends.
const ccurl_api *ccurl_open(const char *library, char *message, size_t message_size);

/// How one exchange ended.
typedef enum {
  CCURL_DONE = 0,          // a complete response (any status)
  CCURL_TOO_LARGE = 1,     // the body grew past the limit while arriving
  CCURL_TOO_LARGE_ANNOUNCED = 2, // Content-Length over the limit: refused before the body
  CCURL_TIMED_OUT = 3,     // nothing arrived for the idle timeout (or the connection took as long)
  CCURL_DEADLINE = 4,      // data kept arriving, too slowly to end by the deadline
  CCURL_CANCELLED = 5,     // ccurl_cancel was called
  CCURL_HEADERS_TOO_LARGE = 6, // the response's header block is over its limit
  CCURL_FAILED = 7,        // libcurl failed: `curl_code` and `error_text` say how
  CCURL_NO_MEMORY = 8,
} ccurl_outcome;

/// One GET: what to send (set by the caller), what came back (set by ccurl_perform).
typedef struct {
  // In.
  const char *url;
  /// Header lines, "Name: value".
  const char *const *headers;
  int header_count;
  size_t body_limit;
  size_t header_limit;
  double idle_timeout_seconds;
  double deadline_seconds;
  /// Set from any thread by ccurl_cancel.
  int cancelled;
  // Out.
  ccurl_outcome outcome;
  int curl_code;
  long status;
  /// Content-Length as announced, -1 when none.
  int64_t announced;
  /// Bytes of the body as they came over the wire (before any decompression).
  int64_t received_on_wire;
  unsigned char *body;
  size_t body_size;
  size_t body_capacity;
  /// The last response's header block, lines separated by "\r\n".
  char *header_text;
  size_t header_size;
  size_t header_capacity;
  char error_text[256];
  // Private.
  double started;
  double last_activity;
} ccurl_exchange;

/// A handle that keeps its connections open between exchanges; use it on one thread at a time.
void *ccurl_handle_new(const ccurl_api *api);
void ccurl_handle_free(const ccurl_api *api, void *handle);

/// Performs `exchange` on `handle`, blocking until it ends; never follows redirects.
void ccurl_perform(const ccurl_api *api, void *handle, ccurl_exchange *exchange);

/// Asks the exchange running on another thread to stop (within about a second).
void ccurl_cancel(ccurl_exchange *exchange);

/// Frees what ccurl_perform allocated in `exchange` (not the exchange itself).
void ccurl_exchange_release(ccurl_exchange *exchange);

#ifdef __cplusplus
}
#endif

#endif
