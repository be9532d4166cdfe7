// fold-runner.wasm: fold.wasm's objects linked with this WASI command, so that a WASI runtime
// (the toolchain's `wasmkit run`) drives the very API a page calls. The native tests compare what
// it prints with Fold's own fold byte for byte (Tests/FoldTests/WasmTests.swift).
//
//   wasmkit run fold-runner.wasm MODE PROFILE... < lines
//
// MODE fold: each profile's fingerprint line ("# NAME FINGERPRINT"), then each stdin line folded.
// MODE tokens: the same, each line's tokens as "START-END:FOLDED" separated by spaces.
// A line that is not UTF-8 prints "invalid@OFFSET". Lines are split on "\n" alone.
// MODE bench PROFILE (Benchmarks/Scripts/wasm_bench.py): folds every line once untimed, then 5
// timed passes, and prints each pass's MB/s times 100 (line bytes, newlines not counted).
#include "FoldWasmLibc.h"

#define WASI(name) __attribute__((import_module("wasi_snapshot_preview1"), import_name(#name)))
typedef struct { const void *base; size_t length; } IOVec;
WASI(fd_read) int32_t wasi_fd_read(int32_t fd, const IOVec *iovs, size_t count, size_t *read);
WASI(fd_write) int32_t wasi_fd_write(int32_t fd, const IOVec *iovs, size_t count, size_t *written);
WASI(args_sizes_get) int32_t wasi_args_sizes_get(size_t *count, size_t *size);
WASI(args_get) int32_t wasi_args_get(char **argv, char *buffer);
WASI(proc_exit) _Noreturn void wasi_proc_exit(int32_t code);
WASI(clock_time_get) int32_t wasi_clock_time_get(int32_t clock, uint64_t precision, uint64_t *time);

// fold.wasm's API (Wasm/Embedded/Exports.swift).
int32_t fold_folder(const uint8_t *name, int32_t count);
int32_t fold_fingerprint(int32_t folder);
int32_t fold_utf8(int32_t folder, const uint8_t *text, int32_t count);
int32_t fold_tokens(int32_t folder, const uint8_t *text, int32_t count);
uint8_t *fold_result(void);

// The host's print for fatalError (libc.c imports it from "env"): stderr here.
void fold_host_print(const char *text, size_t length) {
    IOVec v[2] = {{text, length}, {"\n", 1}};
    size_t written;
    wasi_fd_write(2, v, 2, &written);
}

static uint8_t *out;
static size_t out_length, out_capacity;

static void flush(void) {
    size_t done = 0;
    while (done < out_length) {
        IOVec v = {out + done, out_length - done};
        size_t written = 0;
        if (wasi_fd_write(1, &v, 1, &written) != 0) wasi_proc_exit(74);
        done += written;
    }
    out_length = 0;
}

static void emit(const void *bytes, size_t count) {
    if (out_length + count > out_capacity) {
        flush();
        if (count > out_capacity) {
            free(out);
            out_capacity = count * 2;
            out = malloc(out_capacity);
        }
    }
    memcpy(out + out_length, bytes, count);
    out_length += count;
}

static void emit_string(const char *s) { emit(s, strlen(s)); }

static void emit_number(uint32_t n) {
    char digits[12];
    int k = 12;
    do { digits[--k] = (char)('0' + n % 10); n /= 10; } while (n);
    emit(digits + k, 12 - k);
}

static uint32_t read32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

void _start(void) {
    out_capacity = 1 << 20;
    out = malloc(out_capacity);
    size_t argc, argv_size;
    wasi_args_sizes_get(&argc, &argv_size);
    char **argv = malloc(sizeof(char *) * (argc + 1));
    char *argv_buffer = malloc(argv_size);
    wasi_args_get(argv, argv_buffer);
    if (argc < 3) {
        emit_string("usage: fold-runner.wasm fold|tokens PROFILE... < lines\n");
        flush();
        wasi_proc_exit(64);
    }
    int tokens = strlen(argv[1]) == 6 && memcmp(argv[1], "tokens", 6) == 0;

    // All of stdin.
    size_t length = 0, capacity = 1 << 20;
    uint8_t *input = malloc(capacity);
    for (;;) {
        if (length == capacity) input = realloc(input, capacity *= 2);
        IOVec v = {input + length, capacity - length};
        size_t n = 0;
        if (wasi_fd_read(0, &v, 1, &n) != 0) wasi_proc_exit(74);
        if (n == 0) break;
        length += n;
    }

    if (strlen(argv[1]) == 5 && memcmp(argv[1], "bench", 5) == 0) {
        int32_t folder = fold_folder((const uint8_t *)argv[2], (int32_t)strlen(argv[2]));
        if (folder < 0) wasi_proc_exit(64);
        size_t content = 0;  // line bytes, newlines not counted (as bench-peers counts)
        for (size_t i = 0; i < length; i++) content += input[i] != '\n';
        for (int pass = 0; pass <= 5; pass++) {
            uint64_t begin = 0, end = 0;
            wasi_clock_time_get(1, 1000, &begin);
            size_t start = 0;
            while (start < length) {
                size_t stop = start;
                while (stop < length && input[stop] != '\n') stop++;
                fold_utf8(folder, input + start, (int32_t)(stop - start));
                start = stop + 1;
            }
            wasi_clock_time_get(1, 1000, &end);
            if (pass == 0) continue;  // untimed: the tables' first use
            emit_number((uint32_t)((double)content / ((double)(end - begin) / 1e9) / 1e6 * 100));
            emit_string("\n");
        }
        flush();
        wasi_proc_exit(0);
    }

    for (size_t a = 2; a < argc; a++) {
        int32_t folder = fold_folder((const uint8_t *)argv[a], (int32_t)strlen(argv[a]));
        if (folder < 0) {
            emit_string("unknown profile ");
            emit_string(argv[a]);
            emit_string("\n");
            flush();
            wasi_proc_exit(64);
        }
        emit_string("# ");
        emit_string(argv[a]);
        emit_string(" ");
        int32_t n = fold_fingerprint(folder);
        emit(fold_result(), (size_t)n);
        emit_string("\n");
        size_t start = 0;
        while (start < length) {
            size_t end = start;
            while (end < length && input[end] != '\n') end++;
            int32_t r = tokens ? fold_tokens(folder, input + start, (int32_t)(end - start))
                               : fold_utf8(folder, input + start, (int32_t)(end - start));
            if (r == -1) {
                emit_string("error\n");
                flush();
                wasi_proc_exit(70);
            } else if (r < 0) {
                emit_string("invalid@");
                emit_number((uint32_t)(-r - 2));
            } else if (!tokens) {
                emit(fold_result(), (size_t)r);
            } else {
                const uint8_t *p = fold_result();
                uint32_t count = read32(p);
                const uint8_t *words = p + 4 + 12 * count;
                for (uint32_t t = 0; t < count; t++) {
                    const uint8_t *entry = p + 4 + 12 * t;
                    uint32_t word_length = read32(entry + 8);
                    if (t) emit_string(" ");
                    emit_number(read32(entry));
                    emit_string("-");
                    emit_number(read32(entry + 4));
                    emit_string(":");
                    emit(words, word_length);
                    words += word_length;
                }
            }
            emit_string("\n");
            start = end + 1;
        }
    }
    flush();
    wasi_proc_exit(0);
}
