// The little of a C library that Fold's Swift sources and its C targets call, for the
// freestanding WebAssembly build (wasm32-unknown-none-wasm has no libc): declared here,
// defined in libc.c. Scripts/build-wasm.sh imports this module into every Swift file of the
// build (-import-module), where the native build imports Glibc, Musl or Darwin.
#ifndef FOLD_WASM_LIBC_H
#define FOLD_WASM_LIBC_H

#include <stddef.h>
#include <stdint.h>

void *malloc(size_t size);
void *calloc(size_t count, size_t size);
void *realloc(void *pointer, size_t size);
void free(void *pointer);
int posix_memalign(void **result, size_t alignment, size_t size);

void *memcpy(void *destination, const void *source, size_t count);
void *memmove(void *destination, const void *source, size_t count);
void *memset(void *destination, int value, size_t count);
int memcmp(const void *a, const void *b, size_t count);
void *memchr(const void *haystack, int byte, size_t count);
void *memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);
size_t strlen(const char *string);

/// Nothing to yield to: one thread.
static inline int sched_yield(void) { return 0; }

#endif
