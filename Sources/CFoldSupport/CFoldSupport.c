// The atomics are inline in include/CFoldPlatform.h; memmem is here because its declaration
// needs _GNU_SOURCE on glibc.
#define _GNU_SOURCE
#include <string.h>
#include "CFoldPlatform.h"

void *cfold_memmem(const void *haystack, size_t haystack_length, const void *needle,
                   size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}
