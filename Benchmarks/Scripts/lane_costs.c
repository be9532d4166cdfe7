// The costs behind two choices of the step over mixed scripts (Sources/CFoldSupport/CFoldQuickRun.c),
// measured apart from the fold on the machine at hand:
//
// - reading sixteen 4-byte words of a 256 KB table at sixteen indices: one `vpgatherdd`, against
//   sixteen scalar loads each put into its lane (`vpinsrd`, in fours joined by `vinserti32x4`),
//   with the indices in memory and with them taken out of a vector by `vpextrd` (as the compiled
//   `cfold_quick_words` does);
// - writing a window's bytes: `vpcompressb` and a masked store, against the masked store alone.
//
// The indices mix Cyrillic, Greek, kana, ideographs and fullwidth forms as mixed.txt does. Needs
// AVX-512 (F, BW, VBMI, VBMI2). Build and run from the repository root:
//
//     clang -O2 Benchmarks/Scripts/lane_costs.c -o /tmp/lane_costs && /tmp/lane_costs
//
// On this project's machine (Zen 4, 2026-11-29): gather 5.0 ns, loads 3.7 ns (both ways);
// compress and store 1.57 ns, store alone 1.52 ns. The machine is shared and has a slow mode (one
// run gave 8.0 / 4.8 / 4.9): run it twice.
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt"), noinline))

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

AVX512 static uint32_t gathered(const uint32_t *table, const uint32_t *index, int n) {
    __m512i sum = _mm512_setzero_si512();
    for (int i = 0; i < n; i += 16) sum = _mm512_xor_si512(sum, _mm512_i32gather_epi32(_mm512_loadu_si512(index + i), table, 4));
    return (uint32_t)_mm512_reduce_add_epi32(sum);
}

#define QUARTER(at)                                                                                                      \
    _mm_insert_epi32(_mm_insert_epi32(_mm_insert_epi32(_mm_cvtsi32_si128((int)table[(at)[0]]), (int)table[(at)[1]], 1), \
                                      (int)table[(at)[2]], 2),                                                             \
                     (int)table[(at)[3]], 3)

AVX512 static uint32_t loaded(const uint32_t *table, const uint32_t *index, int n) {
    __m512i sum = _mm512_setzero_si512();
    for (int i = 0; i < n; i += 16) {
        const uint32_t *at = index + i;
        const __m512i words = _mm512_inserti32x4(
            _mm512_inserti32x4(_mm512_inserti32x4(_mm512_castsi128_si512(QUARTER(at)), QUARTER(at + 4), 1), QUARTER(at + 8), 2),
            QUARTER(at + 12), 3);
        sum = _mm512_xor_si512(sum, words);
    }
    return (uint32_t)_mm512_reduce_add_epi32(sum);
}

// A quarter of lanes from the indices in `v` (a vector), each taken out with `vpextrd`, as the
// step's compiled code does.
#define QUARTER_OF(v, q)                                                                                                   \
    _mm_insert_epi32(                                                                                                      \
        _mm_insert_epi32(_mm_insert_epi32(_mm_cvtsi32_si128((int)table[(uint32_t)_mm_extract_epi32(_mm512_extracti32x4_epi32(v, q), 0)]), \
                                          (int)table[(uint32_t)_mm_extract_epi32(_mm512_extracti32x4_epi32(v, q), 1)], 1),     \
                         (int)table[(uint32_t)_mm_extract_epi32(_mm512_extracti32x4_epi32(v, q), 2)], 2),                      \
        (int)table[(uint32_t)_mm_extract_epi32(_mm512_extracti32x4_epi32(v, q), 3)], 3)

AVX512 static uint32_t loadedFromVector(const uint32_t *table, const uint32_t *index, int n) {
    __m512i sum = _mm512_setzero_si512();
    for (int i = 0; i < n; i += 16) {
        const __m512i v = _mm512_loadu_si512(index + i);
        const __m512i words = _mm512_inserti32x4(
            _mm512_inserti32x4(_mm512_inserti32x4(_mm512_castsi128_si512(QUARTER_OF(v, 0)), QUARTER_OF(v, 1), 1), QUARTER_OF(v, 2), 2),
            QUARTER_OF(v, 3), 3);
        sum = _mm512_xor_si512(sum, words);
    }
    return (uint32_t)_mm512_reduce_add_epi32(sum);
}

AVX512 static int64_t stored(uint8_t *out, const uint8_t *src, const uint64_t *keeps, int n, int compress) {
    int64_t o = 0;
    for (int i = 0; i < n; i++) {
        const __m512i v = _mm512_loadu_si512(src + (i & 1023) * 8);
        const uint64_t keep = keeps[i & 1023];
        const int count = __builtin_popcountll(keep);
        const uint64_t mask = count == 64 ? ~0ull : (1ull << count) - 1;
        _mm512_mask_storeu_epi8(out + o, mask, compress ? _mm512_maskz_compress_epi8(keep, v) : v);
        o += count;
        if (o > 60000) o = 0;
    }
    return o;
}

int main(void) {
    uint32_t *table = malloc(65536 * sizeof *table);
    for (int i = 0; i < 65536; i++) table[i] = (uint32_t)i * 2654435761u;
    const int n = 1 << 16;
    uint32_t *index = malloc((size_t)n * sizeof *index);
    srand(1);
    for (int i = 0; i < n; i++) {
        const int r = rand() % 10;
        index[i] = r < 3 ? 0x400 + rand() % 128 : r < 5 ? 0x380 + rand() % 128 : r < 7 ? 0x3040 + rand() % 192
                 : r < 9 ? 0x4E00 + rand() % 20000 : 0xFF00 + rand() % 200;
    }
    const char *names[] = {"vpgatherdd", "loads, indices in memory", "loads, indices from a vector"};
    for (int mode = 0; mode < 3; mode++) {
        double best = 1e9;
        uint32_t check = 0;
        for (int run = 0; run < 50; run++) {
            const double t = now();
            check += mode == 0 ? gathered(table, index, n) : mode == 1 ? loaded(table, index, n) : loadedFromVector(table, index, n);
            const double d = now() - t;
            if (d < best) best = d;
        }
        printf("%-30s %.2f ns per sixteen words (%u)\n", names[mode], best * 1e9 / (n / 16), check);
    }
    static uint8_t src[9000], out[70000];
    static uint64_t keeps[1024];
    for (int i = 0; i < 9000; i++) src[i] = (uint8_t)(i * 7);
    // Each lane of four bytes keeps one to three, as folds of one to three bytes do.
    for (int i = 0; i < 1024; i++) {
        uint64_t keep = 0;
        for (int k = 0; k < 16; k++) keep |= ((1ull << (1 + (i * 31 + k * 7) % 3)) - 1) << (4 * k);
        keeps[i] = keep;
    }
    for (int compress = 1; compress >= 0; compress--) {
        double best = 1e9;
        for (int run = 0; run < 30; run++) {
            const double t = now();
            (void)stored(out, src, keeps, 1 << 20, compress);
            const double d = now() - t;
            if (d < best) best = d;
        }
        printf("%-30s %.2f ns per window\n", compress ? "vpcompressb and masked store" : "masked store alone", best * 1e9 / (1 << 20));
    }
    free(index);
    free(table);
    return 0;
}
