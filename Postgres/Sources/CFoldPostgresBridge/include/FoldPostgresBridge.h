// The interface between the extension's C (CFoldPostgres, which includes PostgreSQL's server
// headers) and its Swift (FoldPostgres, which must not: PostgreSQL's headers and Swift's C
// importer do not mix). Plain <stdint.h> types only, as Fold's CFoldICU does for ICU.
//
// Naming: `foldpg_foo` is implemented in Swift (@_cdecl) and called from C; `cfoldpg_foo` is
// implemented in C and called from Swift. Every foldpg_ function returns a status instead of
// throwing, and every cfoldpg_ function returns instead of raising a PostgreSQL error, so neither
// a Swift error nor a PostgreSQL longjmp ever crosses the other language's frames.
#ifndef FOLD_POSTGRES_BRIDGE_H
#define FOLD_POSTGRES_BRIDGE_H

#include <stdint.h>

/// The statuses of the foldpg_ functions.
#define FOLDPG_OK 0
/// Text that is not UTF-8: `*error_offset` is the offset of the first bad byte.
#define FOLDPG_INVALID_UTF8 1
/// An append could not get memory (cfoldpg_append).
#define FOLDPG_OUT_OF_MEMORY 2
/// The result would pass the buffer's limit (PostgreSQL's 1 GB for a value).
#define FOLDPG_TOO_LONG 3
/// A stream met more than 16 MiB with nowhere to split it (one combining sequence): fold the
/// whole input at once instead.
#define FOLDPG_UNSPLITTABLE 4
/// The profile name is not one of Fold's.
#define FOLDPG_UNKNOWN_PROFILE 5
/// Anything else (ICU could not make a folder).
#define FOLDPG_FAILED 6
/// foldpg_parser_next: a unit was given; FOLDPG_END: the text has no more.
#define FOLDPG_UNIT 7
#define FOLDPG_END 8

/// Bytes that C owns (allocated from PostgreSQL's current memory context) and Swift appends to
/// through cfoldpg_append only. C leaves room for a varlena header before `bytes`.
typedef struct foldpg_buffer {
    /// The first byte of the contents.
    uint8_t *bytes;
    /// Bytes written so far.
    int64_t count;
    /// Bytes it holds before it must grow.
    int64_t capacity;
    /// The most it may ever hold.
    int64_t limit;
    /// FOLDPG_OUT_OF_MEMORY or FOLDPG_TOO_LONG once an append failed, else FOLDPG_OK.
    int32_t failure;
    /// C's: the allocation that holds `bytes`.
    void *allocation;
} foldpg_buffer;

// ---- Implemented in C (CFoldPostgres/fold.c) ----

/// Appends `count` bytes; FOLDPG_OK, or the buffer's failure. Never raises a PostgreSQL error.
int32_t cfoldpg_append(foldpg_buffer *buffer, const uint8_t *bytes, int64_t count);

// ---- Implemented in Swift (FoldPostgres) ----

/// The folder of the profile named by `name` (`count` bytes of UTF-8, any case), made once per
/// process and kept for its life; NULL with `*status` FOLDPG_UNKNOWN_PROFILE or FOLDPG_FAILED.
const void *foldpg_folder(const uint8_t *name, int64_t count, int32_t *status);
/// Makes the search folder and builds the tables most text reads (for the postmaster, under
/// shared_preload_libraries, so that every backend inherits them); FOLDPG_OK.
int32_t foldpg_warm(void);
/// Every valid profile name, comma-separated ("search, ascii, nfc, ..."), for error messages.
const char *foldpg_profile_names(void);
/// How many profiles there are, and the folder of the `index`th (presets, then tailorings).
int32_t foldpg_profile_count(void);
const void *foldpg_profile_at(int32_t index, int32_t *status);
/// The folder's profile name and fingerprint (NUL-terminated, kept for the life of the process).
const char *foldpg_folder_name(const void *folder);
const char *foldpg_folder_fingerprint(const void *folder);
/// One line on what the folder's profile does.
const char *foldpg_folder_summary(const void *folder);

/// Folds `count` bytes of UTF-8 into `out` in one go.
int32_t foldpg_fold(const void *folder, const uint8_t *bytes, int64_t count, foldpg_buffer *out, int64_t *error_offset);

/// A stream folds long text chunk by chunk, so C can check for interrupts between chunks; the
/// same bytes as foldpg_fold. `foldpg_stream_release` frees it (C calls it from a memory
/// context callback too, so an error cannot leak it).
void *foldpg_stream_make(const void *folder);
int32_t foldpg_stream_feed(void *stream, const uint8_t *bytes, int64_t count, foldpg_buffer *out, int64_t *error_offset);
int32_t foldpg_stream_finish(void *stream, foldpg_buffer *out, int64_t *error_offset);
void foldpg_stream_release(void *stream);

/// A parser gives the units of `text` (which must stay valid until it is released): the byte
/// ranges of the text that Fold's tokens come from, in order, tokens whose ranges overlap merged
/// into one unit (½ gives the tokens 1 and 2 from one range). It works through long text a
/// chunk (about 1 MB, cut after an ASCII space) at a time. While it lives, foldpg_words finds the
/// words of the units it gave without folding again.
void *foldpg_parser_make(const void *folder, const uint8_t *text, int64_t count);
/// FOLDPG_UNIT with the unit's range, FOLDPG_END, or FOLDPG_INVALID_UTF8.
int32_t foldpg_parser_next(void *parser, int64_t *start, int64_t *end, int64_t *error_offset);
void foldpg_parser_release(void *parser);

/// The words of `token` as `folder` folds them, each followed by a NUL byte, into `out`;
/// `*word_count` is how many. A token that a living parser of the same folder gave as a unit
/// gets that unit's words (the words of the whole text's fold); any other text is folded and cut
/// on its own.
int32_t foldpg_words(const void *folder, const uint8_t *token, int64_t count, foldpg_buffer *out,
                     int32_t *word_count, int64_t *error_offset);

/// For the tests only, in the test build only (Sources/FoldPostgresTestTrap, linked into
/// libFoldPostgresTestModule.so, never into the installed fold.so): traps inside Swift (a failed
/// precondition), as a bug would.
void foldpg_test_trap(void);

#endif
