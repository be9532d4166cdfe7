// What the `fold` module's C files share: the trap state and IN_SWIFT, Swift objects that live
// across calls, the buffers Swift writes into, errors, the folder of a profile name (all defined
// in fold.c), the profile of a parser start function (parser.c) and the dictionary's state
// (dictionary.c), the last two for dependencies.c. Private to CFoldPostgres: not in include/,
// which Swift's importer reads and which must not include PostgreSQL's headers. Include it after
// "postgres.h".
//
// The foldc_ prefix keeps these names clear of PostgreSQL's symbols (the module is loaded into
// the server) and apart from the foldpg_ functions, which are Swift's and called only through
// IN_SWIFT. FOLDC_HIDDEN keeps them out of the module's exported symbols, as when they were
// static in one file.
#ifndef FOLD_INTERNAL_H
#define FOLD_INTERNAL_H

#include <setjmp.h>
#include <signal.h>

#include "fmgr.h"
#include "tsearch/ts_public.h"

#include "FoldPostgresBridge.h"

#define FOLDC_HIDDEN __attribute__((visibility("hidden")))

// ---- Calling Swift, and traps (fold.c) ----

extern FOLDC_HIDDEN volatile sig_atomic_t foldc_in_swift;
extern FOLDC_HIDDEN volatile sig_atomic_t foldc_trapped;
/// Where the trap handler jumps: the C frame that called Swift (set by FOLDC_CALL_SWIFT).
extern FOLDC_HIDDEN sigjmp_buf *volatile foldc_swift_return;

extern FOLDC_HIDDEN void foldc_refuse_after_trap(void) pg_attribute_noreturn();
extern FOLDC_HIDDEN void foldc_report_trap(void) pg_attribute_noreturn();

/// Runs `statement` (a call into Swift) marked for the trap handler. A trap inside it (a Swift
/// precondition, `ud2`) makes the handler jump back here, to this C frame, leaving the Swift
/// frames behind, and `on_trap` runs in ordinary context, not in the signal handler. The jump
/// buffer does not save the signal mask (no system call per call): the handler is installed with
/// SA_NODEFER, so the mask it runs with is the one the trap interrupted. Nothing assigned by
/// `statement` may be read in `on_trap`.
#define FOLDC_CALL_SWIFT(statement, on_trap) \
	do { \
		sigjmp_buf	foldc_return_here; \
		if (sigsetjmp(foldc_return_here, 0) != 0) \
		{ \
			on_trap; \
		} \
		else \
		{ \
			foldc_swift_return = &foldc_return_here; \
			foldc_in_swift = 1; \
			statement; \
			foldc_in_swift = 0; \
		} \
		foldc_swift_return = NULL; \
	} while (0)

/// A call into Swift from a SQL function: refused once a trap disabled Fold in this backend; a
/// trap inside it is an ERROR raised after the jump back (foldc_report_trap).
#define IN_SWIFT(statement) \
	do { \
		if (foldc_trapped) \
			foldc_refuse_after_trap(); \
		FOLDC_CALL_SWIFT(statement, foldc_report_trap()); \
	} while (0)

/// A Swift object that lives across calls, released by `release` when the memory context it was
/// made in is reset, if nothing released it before.
typedef struct SwiftObject
{
	void	   *object;
	void		(*release) (void *object);
	MemoryContextCallback callback;
} SwiftObject;

extern FOLDC_HIDDEN void foldc_release_swift_object(void *argument);
extern FOLDC_HIDDEN void foldc_adopt_swift_object(SwiftObject *swift, void (*release) (void *object));

// ---- Buffers Swift writes into, and errors (fold.c) ----

extern FOLDC_HIDDEN void foldc_buffer_init(foldpg_buffer *buffer, int64 capacity);
extern FOLDC_HIDDEN text *foldc_buffer_text(foldpg_buffer *buffer);
extern FOLDC_HIDDEN void foldc_check_encoding(void);
extern FOLDC_HIDDEN void foldc_report_status(int32 status, int64 error_offset, const char *bytes, int64 count);

// ---- Profiles (fold.c) ----

extern FOLDC_HIDDEN const void *foldc_folder_named(const char *name, int length);
extern FOLDC_HIDDEN const void *foldc_folder_of_text(text *profile);

// ---- The text search parser (parser.c) ----

extern FOLDC_HIDDEN char *foldc_profile_of_start_function(Oid function);
extern Datum fold_prs_start(PG_FUNCTION_ARGS);

// ---- The dictionary template (dictionary.c) ----

typedef struct FoldDictionary
{
	const void *folder;
	/// FILTER = true: a single word is handed on to the next dictionary (TSL_FILTER).
	bool		filter;
	/// STOPWORDS: the stop list, each word folded with the dictionary's profile, sorted.
	StopList	stopwords;
} FoldDictionary;

extern Datum fold_dict_lexize(PG_FUNCTION_ARGS);

#endif
