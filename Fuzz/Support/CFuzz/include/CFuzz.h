#ifndef CFUZZ_H
#define CFUZZ_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry for a program that has its own main (libFuzzer 12 and later).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

/// The built-in engine's guard: a crash signal, an input running longer than `timeout_seconds` or a
/// resident size over `rss_limit_mb` writes the input being run to `<artifact_prefix><kind>-<hash>`,
/// says so on stderr, and ends the process. Signals: the handler writes, then re-raises.
void cfuzz_guard_install(const char *artifact_prefix, double timeout_seconds, long rss_limit_mb);
/// The input about to run (kept by reference until `cfuzz_guard_end`).
void cfuzz_guard_begin(const uint8_t *data, size_t size);
void cfuzz_guard_end(void);
/// The process's peak resident size so far, in MB.
long cfuzz_peak_rss_mb(void);

#endif
