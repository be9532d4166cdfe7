// The `fold` extension's C: what PostgreSQL's API needs (PG_MODULE_MAGIC, the V1 functions,
// palloc'd results, ereport, CHECK_FOR_INTERRUPTS, the text search parser, dictionary template
// and tsquery builder). Every fold is the library's, through the foldpg_ functions that
// FoldPostgresBridge.h declares (implemented in Swift: Sources/FoldPostgres).
//
// This file holds the module (PG_MODULE_MAGIC, _PG_init) and what the other files share, which
// fold_internal.h declares: calling Swift and its traps, Swift objects that live across calls,
// the buffers Swift writes into, errors, and the folder of a profile name. The others:
// functions.c (fold(), fold_fingerprint(), fold_profiles()), parser.c (the text
// search parser), dictionary.c (the dictionary template), tsquery.c (fold_tsquery) and
// dependencies.c (what profiles a stored expression or configuration uses).
//
// Rules for calling Swift (the section "Calling Swift" below and fold_internal.h's IN_SWIFT hold
// them):
// - Swift is called only through IN_SWIFT (FOLDC_CALL_SWIFT), which marks the call for the trap
//   handler and sets the point the handler jumps back to.
// - Nothing called from Swift raises a PostgreSQL error (cfoldpg_append returns a status), and no
//   PostgreSQL error is raised while a Swift frame is on the stack, so no PostgreSQL longjmp
//   crosses Swift. A status that says something failed becomes an ERROR after Swift has returned.
// - A trap in Swift is the one way out of Swift that is not a return. The handler jumps from the
//   trapping instruction to the C frame that made the call and raises the ERROR from there (see
//   "Traps" below for why skipping those Swift frames is safe); Fold is then off for the session.
// - Swift objects that live across calls (a stream, a parser) are released by a memory context
//   callback too, so an ERROR or a cancel between two calls does not leak them.
// - Long text is worked through in chunks with CHECK_FOR_INTERRUPTS between them, so query
//   cancel and statement_timeout stop a fold of a 50 MB value within a chunk.
#include "postgres.h"

#include <string.h>

#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "mb/pg_wchar.h"
#include "utils/memutils.h"

#include "fold_internal.h"

PG_MODULE_MAGIC;

void _PG_init(void);

// ---------------------------------------------------------------------------------------------
// Calling Swift, and traps

/// Set while Swift runs, for the trap handler.
volatile sig_atomic_t foldc_in_swift = 0;
/// Set once a trap stopped Swift in this backend: Fold is off for the rest of the session.
volatile sig_atomic_t foldc_trapped = 0;
/// The C frame the running Swift call returns to after a trap (FOLDC_CALL_SWIFT).
sigjmp_buf *volatile foldc_swift_return = NULL;
/// The signal of the trap, for the ERROR.
static volatile sig_atomic_t trap_signal = 0;

static struct sigaction previous_sigill;
static struct sigaction previous_sigtrap;

void
foldc_refuse_after_trap(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_INTERNAL_ERROR),
			 errmsg("fold: disabled in this session after an internal failure"),
			 errhint("Reconnect to use fold again. The server log has the failure.")));
}

/// The ERROR of a trap, raised by the C frame that called Swift, after the handler's jump back
/// (FOLDC_CALL_SWIFT): in ordinary context, no Swift frame and no signal handler on the stack.
void
foldc_report_trap(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_INTERNAL_ERROR),
			 errmsg("fold: the Fold library stopped on an internal check (signal %d)", (int) trap_signal),
			 errdetail("The statement was stopped; the server and other sessions go on."),
			 errhint("Fold is disabled in this session; reconnect. Please report the failure with its input.")));
}

/// SIGILL and SIGTRAP: a Swift trap (a failed precondition, fatalError) is `ud2`. One raised
/// while Swift runs becomes an ERROR: the backend lives on (the server does not restart every
/// session, as it would for a crashed backend), and Fold is disabled in the session. Any other
/// SIGILL or SIGTRAP gets what it would have got: the previous action, then the instruction runs
/// again.
///
/// Why the jump back over the Swift frames is safe. A trap is synchronous: the Swift code itself
/// executed `ud2`, at a point the compiler treats as the end of the program (noreturn: no defer,
/// no release, no cleanup follows it in any frame), so the abandoned frames had nothing left to
/// run, exactly as if the process had stopped; Swift has no unwinding that a jump could skip. The
/// trap is not inside malloc or another libc function (those are not Swift and do not trap), so
/// no libc lock is held. What the frames leave behind is never touched again: objects they
/// retained (leaked), locks they held (the folders' mutex, the Swift runtime's own), half-built
/// Swift state. foldc_trapped makes every later Swift call in the backend an ERROR before it
/// starts, and memory context callbacks leak Swift objects instead of releasing them. The bytes
/// Swift was writing are in palloc'd buffers, which their memory context frees. The handler does
/// nothing but set flags and jump (no ereport, no palloc in the handler); the ERROR is raised by
/// the C frame the jump lands in, and PostgreSQL's own longjmp from there crosses only C frames.
static void
on_trap(int signo, siginfo_t *info, void *context)
{
	struct sigaction *previous = signo == SIGILL ? &previous_sigill : &previous_sigtrap;
	sigjmp_buf *back = foldc_swift_return;

	if (!foldc_in_swift || back == NULL)
	{
		sigaction(signo, previous, NULL);
		return;
	}
	foldc_in_swift = 0;
	foldc_trapped = 1;
	trap_signal = signo;
	siglongjmp(*back, 1);
}

void
_PG_init(void)
{
	struct sigaction action;

	memset(&action, 0, sizeof(action));
	action.sa_sigaction = on_trap;
	// SA_NODEFER: the handler leaves by a jump that does not restore the signal mask (no system
	// call per Swift call), so SIGILL must not be blocked while it runs (a blocked SIGILL kills).
	action.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&action.sa_mask);
	sigaction(SIGILL, &action, &previous_sigill);
	sigaction(SIGTRAP, &action, &previous_sigtrap);

	// Loaded into the postmaster (shared_preload_libraries = 'fold'): build the tables a first
	// fold reads now, once, so that every backend forked from it inherits them and a new
	// connection's first fold builds nothing. (Swift starts no thread here, so forking after it
	// is safe.) A failure only leaves the tables to be built on first use.
	if (process_shared_preload_libraries_in_progress)
	{
		int32_t status = FOLDPG_OK;

		FOLDC_CALL_SWIFT(status = foldpg_warm(), status = FOLDPG_FAILED);
		if (status != FOLDPG_OK)
			elog(LOG, "fold: could not build its tables in advance (status %d); they are built on first use", (int) status);
	}
}

void
foldc_release_swift_object(void *argument)
{
	SwiftObject *swift = (SwiftObject *) argument;
	void	   *object = swift->object;

	swift->object = NULL;
	// After a trap the Swift state is not trusted (a lock may be held): leak rather than hang. A
	// trap in the release itself (this may run while a transaction aborts) raises nothing here:
	// it leaves Fold disabled, and the next call says so.
	if (object != NULL && !foldc_trapped)
		FOLDC_CALL_SWIFT(swift->release(object),
						 elog(WARNING, "fold: the Fold library stopped on an internal check (signal %d) while releasing an object; fold is disabled in this session", (int) trap_signal));
}

/// Registers `swift` for release when the current memory context is reset; call before making
/// the object, so no error can fall between making it and registering it.
void
foldc_adopt_swift_object(SwiftObject *swift, void (*release) (void *object))
{
	swift->object = NULL;
	swift->release = release;
	swift->callback.func = foldc_release_swift_object;
	swift->callback.arg = swift;
	MemoryContextRegisterResetCallback(CurrentMemoryContext, &swift->callback);
}

// ---------------------------------------------------------------------------------------------
// Buffers Swift writes into

/// A buffer for at least `capacity` bytes (more as Swift appends), with room for a varlena
/// header before its bytes, in the current memory context, holding at most what a value may.
void
foldc_buffer_init(foldpg_buffer *buffer, int64 capacity)
{
	int64		limit = (int64) MaxAllocSize - VARHDRSZ;

	capacity = Min(Max(capacity, 16), limit);
	buffer->allocation = palloc(VARHDRSZ + capacity);
	buffer->bytes = (uint8_t *) buffer->allocation + VARHDRSZ;
	buffer->count = 0;
	buffer->capacity = capacity;
	buffer->limit = limit;
	buffer->failure = FOLDPG_OK;
}

/// Called from Swift: must not raise an error (palloc_extended with MCXT_ALLOC_NO_OOM returns
/// NULL instead, and sizes stay below MaxAllocSize).
int32_t
cfoldpg_append(foldpg_buffer *buffer, const uint8_t *bytes, int64_t count)
{
	if (buffer->failure != FOLDPG_OK)
		return buffer->failure;
	if (count <= 0)
		return FOLDPG_OK;
	if (count > buffer->capacity - buffer->count)
	{
		int64		wanted;
		char	   *grown;

		if (count > buffer->limit - buffer->count)
			return buffer->failure = FOLDPG_TOO_LONG;
		wanted = Min(Max(buffer->count + count, buffer->capacity * 2), buffer->limit);
		grown = palloc_extended(VARHDRSZ + wanted, MCXT_ALLOC_NO_OOM);
		if (grown == NULL)
			return buffer->failure = FOLDPG_OUT_OF_MEMORY;
		memcpy(grown + VARHDRSZ, buffer->bytes, buffer->count);
		pfree(buffer->allocation);
		buffer->allocation = grown;
		buffer->bytes = (uint8_t *) grown + VARHDRSZ;
		buffer->capacity = wanted;
	}
	memcpy(buffer->bytes + buffer->count, bytes, count);
	buffer->count += count;
	return FOLDPG_OK;
}

/// The buffer's bytes as a text value (no copy).
text *
foldc_buffer_text(foldpg_buffer *buffer)
{
	SET_VARSIZE(buffer->allocation, VARHDRSZ + buffer->count);
	return (text *) buffer->allocation;
}

// ---------------------------------------------------------------------------------------------
// Errors

/// Text in a database whose encoding is neither UTF8 nor SQL_ASCII would be read as UTF-8 by
/// mistake: refuse. (The install script refuses such databases too; this covers a database made
/// from a template that had the extension.)
void
foldc_check_encoding(void)
{
	int			encoding = GetDatabaseEncoding();

	if (encoding != PG_UTF8 && encoding != PG_SQL_ASCII)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("fold: this database's encoding is %s; fold needs UTF8 (or SQL_ASCII holding UTF-8)",
						GetDatabaseEncodingName())));
}

/// Raises the ERROR a failed status means (after Swift returned). `bytes` is the input, for the
/// invalid UTF-8 message.
void
foldc_report_status(int32 status, int64 error_offset, const char *bytes, int64 count)
{
	switch (status)
	{
		case FOLDPG_OK:
		case FOLDPG_UNIT:
		case FOLDPG_END:
			return;
		case FOLDPG_INVALID_UTF8:
			{
				StringInfoData shown;
				int64		i;

				initStringInfo(&shown);
				for (i = error_offset; i < count && i < error_offset + 4; i++)
					appendStringInfo(&shown, "%s0x%02x", i == error_offset ? "" : " ", (unsigned char) bytes[i]);
				ereport(ERROR,
						(errcode(ERRCODE_CHARACTER_NOT_IN_REPERTOIRE),
						 errmsg("fold: invalid UTF-8 at byte offset %lld: %s", (long long) error_offset, shown.data)));
			}
			break;
		case FOLDPG_TOO_LONG:
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("fold: the result would be longer than the %d bytes a PostgreSQL value can hold",
							(int) (MaxAllocSize - VARHDRSZ))));
			break;
		case FOLDPG_OUT_OF_MEMORY:
			ereport(ERROR,
					(errcode(ERRCODE_OUT_OF_MEMORY),
					 errmsg("fold: out of memory for the result")));
			break;
		default:
			ereport(ERROR,
					(errcode(ERRCODE_INTERNAL_ERROR),
					 errmsg("fold: internal failure (status %d)", (int) status)));
	}
}

// ---------------------------------------------------------------------------------------------
// Profiles

typedef struct NamedFolder
{
	char	   *name;
	int			length;
	const void *folder;
} NamedFolder;

/// The folders looked up so far in this backend, by the name as written.
static NamedFolder named_folders[32];
static int	named_folder_count = 0;

/// The folder of the profile `name` (any case); an unknown name is an ERROR with SQLSTATE 22023
/// that names the valid ones.
const void *
foldc_folder_named(const char *name, int length)
{
	const void *folder;
	int32		status = FOLDPG_OK;
	int			i;

	for (i = 0; i < named_folder_count; i++)
		if (named_folders[i].length == length && memcmp(named_folders[i].name, name, length) == 0)
			return named_folders[i].folder;
	IN_SWIFT(folder = foldpg_folder((const uint8_t *) name, length, &status));
	if (folder == NULL)
	{
		const char *names;

		IN_SWIFT(names = foldpg_profile_names());
		if (status == FOLDPG_UNKNOWN_PROFILE)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("fold: unknown profile \"%s\"; the valid ones are %s",
							pnstrdup(name, length), names)));
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("fold: ICU could not make the folder of profile \"%s\"", pnstrdup(name, length))));
	}
	if (named_folder_count < (int) lengthof(named_folders) && length < 256)
	{
		named_folders[named_folder_count].name = MemoryContextAlloc(TopMemoryContext, Max(length, 1));
		memcpy(named_folders[named_folder_count].name, name, length);
		named_folders[named_folder_count].length = length;
		named_folders[named_folder_count].folder = folder;
		named_folder_count++;
	}
	return folder;
}

const void *
foldc_folder_of_text(text *profile)
{
	return foldc_folder_named(VARDATA_ANY(profile), VARSIZE_ANY_EXHDR(profile));
}
