// The built-in engine's guard against crashes, hangs and memory blow-ups. In C because a signal handler
// may only call async-signal-safe functions, which Swift cannot promise.
#include "CFuzz.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static char prefix[4096];
static const uint8_t *_Atomic current_data;
static _Atomic size_t current_size;
static _Atomic double current_start;  // seconds, 0 when no input is running
static double timeout;
static long rss_limit;

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

long cfuzz_peak_rss_mb(void) {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;  // kilobytes on Linux
}

static void say(const char *text) { (void)!write(2, text, strlen(text)); }

/// Writes the running input to `<prefix><kind>-<hash>` with only async-signal-safe calls.
static void save_input(const char *kind) {
  const uint8_t *data = atomic_load(&current_data);
  size_t size = atomic_load(&current_size);
  uint64_t hash = 1469598103934665603ull;  // FNV-1a
  for (size_t i = 0; data && i < size; i++) hash = (hash ^ data[i]) * 1099511628211ull;
  char path[4200];
  size_t length = strlen(prefix);
  memcpy(path, prefix, length);
  size_t kind_length = strlen(kind);
  memcpy(path + length, kind, kind_length);
  length += kind_length;
  path[length++] = '-';
  for (int shift = 60; shift >= 0; shift -= 4) path[length++] = "0123456789abcdef"[(hash >> shift) & 15];
  path[length] = 0;
  int file = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (file >= 0) {
    size_t written = 0;
    while (data && written < size) {
      ssize_t n = write(file, data + written, size - written);
      if (n <= 0) break;
      written += (size_t)n;
    }
    close(file);
  }
  say("==mymap-fuzz== ");
  say(kind);
  say(": input written to ");
  say(path);
  say("\n");
}

static void on_signal(int number) {
  say("==mymap-fuzz== deadly signal\n");
  save_input("crash");
  raise(number);  // SA_RESETHAND: the default action now ends the process
}

static void *watchdog(void *unused) {
  (void)unused;
  for (;;) {
    usleep(100 * 1000);
    double start = atomic_load(&current_start);
    if (start > 0 && timeout > 0 && now_seconds() - start > timeout) {
      say("==mymap-fuzz== timeout: one input ran longer than the limit\n");
      save_input("timeout");
      _exit(70);
    }
    if (rss_limit > 0 && cfuzz_peak_rss_mb() > rss_limit) {
      say("==mymap-fuzz== out-of-memory: resident size over the limit\n");
      save_input("oom");
      _exit(71);
    }
  }
  return NULL;
}

void cfuzz_guard_install(const char *artifact_prefix, double timeout_seconds, long rss_limit_mb) {
  strncpy(prefix, artifact_prefix, sizeof prefix - 1);
  timeout = timeout_seconds;
  rss_limit = rss_limit_mb;
  // An alternate stack, so that a stack overflow (deep recursion) is reported too.
  static char alternate[1 << 16];
  stack_t stack = {.ss_sp = alternate, .ss_size = sizeof alternate, .ss_flags = 0};
  sigaltstack(&stack, NULL);
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_signal;
  action.sa_flags = SA_ONSTACK | SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  int deadly[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE};
  for (size_t i = 0; i < sizeof deadly / sizeof deadly[0]; i++) sigaction(deadly[i], &action, NULL);
  pthread_t thread;
  if (pthread_create(&thread, NULL, watchdog, NULL) == 0) pthread_detach(thread);
}

void cfuzz_guard_begin(const uint8_t *data, size_t size) {
  atomic_store(&current_data, data);
  atomic_store(&current_size, size);
  atomic_store(&current_start, now_seconds());
}

void cfuzz_guard_end(void) { atomic_store(&current_start, 0.0); }
