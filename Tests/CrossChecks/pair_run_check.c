// The vector step of cfold_pair_run on the processor this is compiled for (NEON on AArch64, run
// under qemu by PairRunTests) against the portable step, on random bytes and tables: the same
// bytes, the same stop when the stopping byte is more than 17 bytes from the end, nothing written
// past the room. Prints "ok N M" (rounds, rounds that stopped at a byte) or the first difference,
// and exits 1 on a difference.
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "CFoldPairRun.h"

static uint64_t state = 0x9E3779B97F4A7C15ULL;
static uint32_t next(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (uint32_t)(state >> 16);
}
static uint32_t below(uint32_t n) { return next() % n; }

int main(void) {
    if (cfold_pair_run_level() < 1) {
        printf("no vector step on this processor\n");
        return 1;
    }
    long stopped = 0;
    const long rounds = 200000;
    for (long round = 0; round < rounds; round++) {
        const uint8_t lead = (uint8_t)(0xC2 + below(30)), pair = lead & 0xFE;
        const uint32_t folding = 90 + below(11);
        uint8_t targets[128];
        for (int k = 0; k < 128; k++) targets[k] = below(100) < folding ? (uint8_t)(CFOLD_PAIR_FOLDS | below(128)) : 0;
        uint8_t bytes[200];
        int n = 0;
        const int length = (int)below(141);
        while (n < length) {
            const uint32_t r = below(100);
            if (r < 35) bytes[n++] = (uint8_t)(0x20 + below(0x60));
            else if (r < 90) { bytes[n++] = (uint8_t)(pair | below(2)); bytes[n++] = (uint8_t)(0x80 + below(0x40)); }
            else if (r < 93) bytes[n++] = (uint8_t)below(0x20);
            else if (r < 95) { bytes[n++] = (uint8_t)(0xC2 + below(30)); bytes[n++] = (uint8_t)(0x80 + below(0x40)); }
            else if (r < 97) bytes[n++] = (uint8_t)(0x80 + below(0x40));
            else if (r < 98) bytes[n++] = pair;
            else { bytes[n++] = (uint8_t)(0xE0 | below(16)); bytes[n++] = 0x80; bytes[n++] = 0x80; }
        }
        const int room = below(2) == 0 ? n : (int)below((uint32_t)n + 1);
        uint8_t expected[240], got[240];
        memset(expected, 0, sizeof expected);
        memset(got, 0xEE, sizeof got);
        const int64_t e = cfold_pair_run_at(0, bytes, n, expected, room, targets, lead, (int32_t)(round & 1));
        const int64_t k = cfold_pair_run_at(1, bytes, n, got, room, targets, lead, (int32_t)(round & 1));
        int wrong = k > e || memcmp(got, expected, (size_t)(k < room ? k : room)) != 0;
        for (int j = room; j < room + 40; j++) wrong |= got[j] != 0xEE;
        if (e + 17 <= n && e + 16 <= room) {
            stopped++;
            wrong |= k != e;
        }
        if (wrong) {
            printf("round %ld: lead %02x n %d room %d: portable %lld, vector %lld\n", round, lead, n, room, (long long)e, (long long)k);
            return 1;
        }
    }
    printf("ok %ld %ld\n", rounds, stopped);
    return stopped > rounds / 5 ? 0 : 1;
}
