// What a freestanding wasm32 module needs from a C library, for Fold's WebAssembly build: an
// allocator over the module's linear memory, the mem* and str* functions that Swift, Fold's C
// targets and the compiler's own lowering call, and the two hooks Embedded Swift's runtime asks
// for (putchar for fatalError's message, arc4random_buf for Hasher's seed).
//
// The allocator keeps one free list per power-of-two size class (16 bytes to 2 GB). Each block
// has a 16-byte header with its class and its distance from the block's start (for aligned
// blocks); freed blocks go back on their list and are reused, never returned to the host (linear
// memory only grows). Simple, fast for the engine's pattern (a few buffers reused per call), and
// at most twice the bytes asked for.
#include "FoldWasmLibc.h"

#define HEADER 16u
#define CLASSES 32

typedef struct Header {
    uint32_t size_class;  // the block holds 1 << size_class bytes, header included
    uint32_t offset;      // from the block's start to this header
    uint32_t unused[2];
} Header;

static void *free_lists[CLASSES];
static uintptr_t heap_next, heap_end;
extern unsigned char __heap_base;

static uint32_t class_for(size_t total) {
    uint32_t c = 5;  // 32 bytes: a header and 16 bytes
    while (((size_t)1 << c) < total) c++;
    return c;
}

static void *take_block(uint32_t c) {
    if (c >= CLASSES) return 0;
    void *block = free_lists[c];
    if (block) {
        free_lists[c] = *(void **)block;
        return block;
    }
    size_t size = (size_t)1 << c;
    if (heap_next == 0) heap_next = heap_end = (uintptr_t)&__heap_base;
    uintptr_t start = (heap_next + 15u) & ~(uintptr_t)15u;
    if (start + size < start) return 0;
    if (start + size > heap_end) {
        size_t needed = start + size - heap_end;
        size_t pages = (needed + 65535u) / 65536u;
        if (__builtin_wasm_memory_grow(0, pages) == (size_t)-1) return 0;
        heap_end += pages * 65536u;
        // The heap's end is the memory's end: the first growth starts there.
        size_t memory_end = __builtin_wasm_memory_size(0) * 65536u;
        if (heap_end < memory_end) heap_end = memory_end;
    }
    heap_next = start + size;
    return (void *)start;
}

static void *allocate(size_t size, size_t alignment) {
    if (alignment < HEADER) alignment = HEADER;
    size_t extra = alignment > HEADER ? alignment : 0;
    size_t total = size + HEADER + extra;
    if (total < size) return 0;
    uint32_t c = class_for(total);
    unsigned char *block = take_block(c);
    if (!block) return 0;
    uintptr_t user = ((uintptr_t)block + HEADER + alignment - 1) & ~(uintptr_t)(alignment - 1);
    Header *header = (Header *)(user - HEADER);
    header->size_class = c;
    header->offset = (uint32_t)((uintptr_t)header - (uintptr_t)block);
    return (void *)user;
}

void *malloc(size_t size) { return allocate(size, HEADER); }

void free(void *pointer) {
    if (!pointer) return;
    Header *header = (Header *)((unsigned char *)pointer - HEADER);
    void *block = (unsigned char *)header - header->offset;
    uint32_t c = header->size_class;
    *(void **)block = free_lists[c];
    free_lists[c] = block;
}

void *calloc(size_t count, size_t size) {
    size_t total = count * size;
    if (size && total / size != count) return 0;
    void *p = malloc(total);
    if (p) memset(p, 0, total);
    return p;
}

void *realloc(void *pointer, size_t size) {
    if (!pointer) return malloc(size);
    Header *header = (Header *)((unsigned char *)pointer - HEADER);
    size_t room = ((size_t)1 << header->size_class) - header->offset - HEADER;
    if (size <= room) return pointer;
    void *moved = malloc(size);
    if (!moved) return 0;
    memcpy(moved, pointer, room);
    free(pointer);
    return moved;
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    void *p = allocate(size, alignment);
    if (!p) return 12;  // ENOMEM
    *result = p;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) { return allocate(size, alignment); }

// The bulk-memory instructions (memory.copy, memory.fill) do these at native speed.
void *memcpy(void *destination, const void *source, size_t count) {
    __builtin_memcpy(destination, source, count);
    return destination;
}

void *memmove(void *destination, const void *source, size_t count) {
    __builtin_memmove(destination, source, count);
    return destination;
}

void *memset(void *destination, int value, size_t count) {
    __builtin_memset(destination, value, count);
    return destination;
}

int memcmp(const void *a, const void *b, size_t count) {
    const unsigned char *x = a, *y = b;
    for (size_t i = 0; i < count; i++) {
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    }
    return 0;
}

void *memchr(const void *haystack, int byte, size_t count) {
    const unsigned char *p = haystack;
    for (size_t i = 0; i < count; i++) {
        if (p[i] == (unsigned char)byte) return (void *)(p + i);
    }
    return 0;
}

void *memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length) {
    const unsigned char *h = haystack, *n = needle;
    if (needle_length == 0) return (void *)h;
    if (haystack_length < needle_length) return 0;
    size_t last = haystack_length - needle_length;
    for (size_t i = 0; i <= last; i++) {
        if (h[i] == n[0] && memcmp(h + i, n, needle_length) == 0) return (void *)(h + i);
    }
    return 0;
}

size_t strlen(const char *string) {
    size_t n = 0;
    while (string[n]) n++;
    return n;
}

// Embedded Swift's runtime: fatalError prints its message with putchar (collected here and
// handed to the host at each newline, see fold_host_print), and Hasher's seed comes from
// arc4random_buf (a fixed seed: a page's hashing need not be randomized, and a fixed one keeps
// runs reproducible).
__attribute__((import_module("env"), import_name("fold_host_print")))
void fold_host_print(const char *text, size_t length);

static char line[512];
static size_t line_length;

int putchar(int c) {
    if (c != '\n' && line_length < sizeof line) line[line_length++] = (char)c;
    if (c == '\n' || line_length == sizeof line) {
        fold_host_print(line, line_length);
        line_length = 0;
    }
    return c;
}

void arc4random_buf(void *buffer, size_t count) {
    unsigned char *p = buffer;
    uint64_t state = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < count; i++) {
        state ^= state << 13; state ^= state >> 7; state ^= state << 17;
        p[i] = (unsigned char)state;
    }
}
