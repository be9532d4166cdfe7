// The `fold` extension's C: what PostgreSQL's API needs (PG_MODULE_MAGIC, the V1 functions,
// palloc'd results, ereport, CHECK_FOR_INTERRUPTS, the text search parser, dictionary template
// and tsquery builder). Every fold is the library's, through the foldpg_ functions that
// FoldPostgresBridge.h declares (implemented in Swift: Sources/FoldPostgres).
//
// Rules for calling Swift (the section "Calling Swift" below holds them):
// - Swift is called only through IN_SWIFT, which marks the call for the trap handler.
// - Nothing called from Swift raises a PostgreSQL error (cfoldpg_append returns a status), and no
//   PostgreSQL error is raised while a Swift frame is on the stack, so no longjmp crosses Swift.
//   A status that says something failed becomes an ERROR after Swift has returned.
// - Swift objects that live across calls (a stream, a parser) are released by a memory context
//   callback too, so an ERROR or a cancel between two calls does not leak them.
// - Long text is worked through in chunks with CHECK_FOR_INTERRUPTS between them, so query
//   cancel and statement_timeout stop a fold of a 50 MB value within a chunk.
#include "postgres.h"

#include <signal.h>
#include <string.h>

#include "catalog/pg_ts_dict.h"
#include "catalog/pg_ts_template.h"
#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "tsearch/ts_cache.h"
#include "tsearch/ts_public.h"
#include "tsearch/ts_type.h"
#include "tsearch/ts_utils.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/formatting.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

#include "FoldPostgresBridge.h"

PG_MODULE_MAGIC;

void _PG_init(void);

PG_FUNCTION_INFO_V1(fold_fold);
PG_FUNCTION_INFO_V1(fold_fingerprint);
PG_FUNCTION_INFO_V1(fold_profiles);
PG_FUNCTION_INFO_V1(fold_prs_start);
PG_FUNCTION_INFO_V1(fold_prs_nexttoken);
PG_FUNCTION_INFO_V1(fold_prs_end);
PG_FUNCTION_INFO_V1(fold_prs_lextype);
PG_FUNCTION_INFO_V1(fold_dict_init);
PG_FUNCTION_INFO_V1(fold_dict_lexize);
PG_FUNCTION_INFO_V1(fold_tsquery);
PG_FUNCTION_INFO_V1(fold_expression_profiles);
PG_FUNCTION_INFO_V1(fold_config_profiles);
PG_FUNCTION_INFO_V1(fold_test_trap);

/// Long text is folded and parsed in chunks of this many bytes, with an interrupt check between.
#define CHUNK_BYTES (1 << 20)

/// The parser's token types. The numbers are those of PostgreSQL's default parser for the same
/// notions (WORD_T and SPACE in wparser_def.c), so its headline function, prsd_headline, which
/// the fold parsers use, treats blanks as spaces and words as words.
#define FOLD_WORD 2
#define FOLD_BLANK 12

/// fold_tsquery uses a query's first this many words (Fold's FTSQuery.maximumWords for SQLite).
#define QUERY_MAX_WORDS 64

// ---------------------------------------------------------------------------------------------
// Calling Swift, and traps

/// Set while Swift runs, for the trap handler.
static volatile sig_atomic_t in_swift = 0;
/// Set once a trap stopped Swift in this backend: Fold is off for the rest of the session.
static volatile sig_atomic_t trapped = 0;

static struct sigaction previous_sigill;
static struct sigaction previous_sigtrap;

static void
refuse_after_trap(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_INTERNAL_ERROR),
			 errmsg("fold: disabled in this session after an internal failure"),
			 errhint("Reconnect to use fold again. The server log has the failure.")));
}

#define IN_SWIFT(statement) \
	do { \
		if (trapped) \
			refuse_after_trap(); \
		in_swift = 1; \
		statement; \
		in_swift = 0; \
	} while (0)

/// SIGILL and SIGTRAP: a Swift trap (a failed precondition, fatalError) is `ud2`. One raised
/// while Swift runs becomes an ERROR: the backend lives on (the server does not restart every
/// session, as it would for a crashed backend), and Fold is disabled in the session, since the
/// Swift state it left (a lock held, a half-built buffer) cannot be trusted. Any other SIGILL or
/// SIGTRAP gets what it would have got: the previous action, then the instruction runs again.
static void
on_trap(int signo, siginfo_t *info, void *context)
{
	struct sigaction *previous = signo == SIGILL ? &previous_sigill : &previous_sigtrap;

	if (!in_swift)
	{
		sigaction(signo, previous, NULL);
		return;
	}
	in_swift = 0;
	trapped = 1;
	ereport(ERROR,
			(errcode(ERRCODE_INTERNAL_ERROR),
			 errmsg("fold: the Fold library stopped on an internal check (signal %d)", signo),
			 errdetail("The statement was stopped; the server and other sessions go on."),
			 errhint("Fold is disabled in this session; reconnect. Please report the failure with its input.")));
}

void
_PG_init(void)
{
	struct sigaction action;

	memset(&action, 0, sizeof(action));
	action.sa_sigaction = on_trap;
	// SA_NODEFER: the handler leaves by longjmp, and some of PostgreSQL's longjmp targets do not
	// restore the signal mask, which would leave SIGILL blocked (a blocked SIGILL kills).
	action.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&action.sa_mask);
	sigaction(SIGILL, &action, &previous_sigill);
	sigaction(SIGTRAP, &action, &previous_sigtrap);
}

/// A Swift object that lives across calls, released by `release` when the memory context it was
/// made in is reset, if nothing released it before.
typedef struct SwiftObject
{
	void	   *object;
	void		(*release) (void *object);
	MemoryContextCallback callback;
} SwiftObject;

static void
release_swift_object(void *argument)
{
	SwiftObject *swift = (SwiftObject *) argument;

	// After a trap the Swift state is not trusted (a lock may be held): leak rather than hang.
	if (swift->object != NULL && !trapped)
	{
		in_swift = 1;
		swift->release(swift->object);
		in_swift = 0;
	}
	swift->object = NULL;
}

/// Registers `swift` for release when the current memory context is reset; call before making
/// the object, so no error can fall between making it and registering it.
static void
adopt_swift_object(SwiftObject *swift, void (*release) (void *object))
{
	swift->object = NULL;
	swift->release = release;
	swift->callback.func = release_swift_object;
	swift->callback.arg = swift;
	MemoryContextRegisterResetCallback(CurrentMemoryContext, &swift->callback);
}

// ---------------------------------------------------------------------------------------------
// Buffers Swift writes into

/// A buffer for at least `capacity` bytes (more as Swift appends), with room for a varlena
/// header before its bytes, in the current memory context, holding at most what a value may.
static void
buffer_init(foldpg_buffer *buffer, int64 capacity)
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
static text *
buffer_text(foldpg_buffer *buffer)
{
	SET_VARSIZE(buffer->allocation, VARHDRSZ + buffer->count);
	return (text *) buffer->allocation;
}

// ---------------------------------------------------------------------------------------------
// Errors

/// Text in a database whose encoding is neither UTF8 nor SQL_ASCII would be read as UTF-8 by
/// mistake: refuse. (The install script refuses such databases too; this covers a database made
/// from a template that had the extension.)
static void
check_encoding(void)
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
static void
report_status(int32 status, int64 error_offset, const char *bytes, int64 count)
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
static const void *
folder_named(const char *name, int length)
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

static const void *
folder_of_text(text *profile)
{
	return folder_named(VARDATA_ANY(profile), VARSIZE_ANY_EXHDR(profile));
}

// ---------------------------------------------------------------------------------------------
// fold(text, profile) and fold_fingerprint(profile)

/// Folds `count` bytes into a new text: in one call when short, else chunk by chunk with
/// CHECK_FOR_INTERRUPTS between the chunks.
static text *
fold_bytes(const void *folder, const char *bytes, int64 count)
{
	foldpg_buffer out;
	int32		status = FOLDPG_OK;
	int64		error_offset = 0;

	buffer_init(&out, count + count / 8 + 16);
	if (count <= CHUNK_BYTES)
		IN_SWIFT(status = foldpg_fold(folder, (const uint8_t *) bytes, count, &out, &error_offset));
	else
	{
		SwiftObject *stream = palloc0(sizeof(SwiftObject));
		int64		done;

		adopt_swift_object(stream, foldpg_stream_release);
		IN_SWIFT(stream->object = foldpg_stream_make(folder));
		for (done = 0; done < count && status == FOLDPG_OK; done += CHUNK_BYTES)
		{
			int64		piece = Min(CHUNK_BYTES, count - done);

			IN_SWIFT(status = foldpg_stream_feed(stream->object, (const uint8_t *) bytes + done, piece, &out, &error_offset));
			CHECK_FOR_INTERRUPTS();
		}
		if (status == FOLDPG_OK)
			IN_SWIFT(status = foldpg_stream_finish(stream->object, &out, &error_offset));
		release_swift_object(stream);
		if (status == FOLDPG_UNSPLITTABLE)
		{
			// Megabytes with nowhere to split (one combining sequence): fold it all at once.
			out.count = 0;
			out.failure = FOLDPG_OK;
			IN_SWIFT(status = foldpg_fold(folder, (const uint8_t *) bytes, count, &out, &error_offset));
		}
	}
	report_status(status, error_offset, bytes, count);
	return buffer_text(&out);
}

Datum
fold_fold(PG_FUNCTION_ARGS)
{
	text	   *input = PG_GETARG_TEXT_PP(0);
	const void *folder = folder_of_text(PG_GETARG_TEXT_PP(1));

	check_encoding();
	PG_RETURN_TEXT_P(fold_bytes(folder, VARDATA_ANY(input), VARSIZE_ANY_EXHDR(input)));
}

Datum
fold_fingerprint(PG_FUNCTION_ARGS)
{
	const void *folder = folder_of_text(PG_GETARG_TEXT_PP(0));
	const char *fingerprint;

	IN_SWIFT(fingerprint = foldpg_folder_fingerprint(folder));
	PG_RETURN_TEXT_P(cstring_to_text(fingerprint));
}

/// fold_profiles(): every profile with its fingerprint and what it does.
Datum
fold_profiles(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	int32		count;
	int32		i;

	InitMaterializedSRF(fcinfo, 0);
	IN_SWIFT(count = foldpg_profile_count());
	for (i = 0; i < count; i++)
	{
		const void *folder;
		int32		status = FOLDPG_OK;
		const char *name,
				   *fingerprint,
				   *summary;
		Datum		values[3];
		bool		nulls[3] = {false, false, false};

		IN_SWIFT(folder = foldpg_profile_at(i, &status));
		if (folder == NULL)
			report_status(status == FOLDPG_UNKNOWN_PROFILE ? FOLDPG_FAILED : status, 0, NULL, 0);
		IN_SWIFT((name = foldpg_folder_name(folder),
				  fingerprint = foldpg_folder_fingerprint(folder),
				  summary = foldpg_folder_summary(folder)));
		values[0] = CStringGetTextDatum(name);
		values[1] = CStringGetTextDatum(fingerprint);
		values[2] = CStringGetTextDatum(summary);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

// ---------------------------------------------------------------------------------------------
// The text search parser

/// A parser's profile is in its start function's name: fold_prs_start is `search`, and
/// fold_prs_start_NAME is the profile NAME with `_` for `-` (fold_prs_start_search_de is
/// `search-de`). One C function serves every profile; fold_create_configuration() makes them.
typedef struct ParserFolder
{
	Oid			function;
	const void *folder;
} ParserFolder;

static ParserFolder parser_folders[32];
static int	parser_folder_count = 0;

#define START_FUNCTION "fold_prs_start"

/// The profile named by a parser start function's name (palloc'd), or NULL when the name is not
/// one of those.
static char *
profile_of_start_function(Oid function)
{
	char	   *name = get_func_name(function);
	char	   *profile;
	char	   *c;

	if (name == NULL || strncmp(name, START_FUNCTION, strlen(START_FUNCTION)) != 0)
		return NULL;
	profile = name + strlen(START_FUNCTION);
	if (*profile == '\0')
		return pstrdup("search");
	if (*profile != '_')
		return NULL;
	profile = pstrdup(profile + 1);
	for (c = profile; *c; c++)
		if (*c == '_')
			*c = '-';
	return profile;
}

static const void *
parser_folder(FunctionCallInfo fcinfo)
{
	Oid			function = fcinfo->flinfo ? fcinfo->flinfo->fn_oid : InvalidOid;
	const void *folder;
	char	   *profile;
	int			i;

	for (i = 0; i < parser_folder_count; i++)
		if (parser_folders[i].function == function)
			return parser_folders[i].folder;
	profile = OidIsValid(function) ? profile_of_start_function(function) : NULL;
	if (profile == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("fold: a parser's start function must be named %s or %s_PROFILE",
						START_FUNCTION, START_FUNCTION)));
	folder = folder_named(profile, strlen(profile));
	if (parser_folder_count < (int) lengthof(parser_folders))
	{
		parser_folders[parser_folder_count].function = function;
		parser_folders[parser_folder_count].folder = folder;
		parser_folder_count++;
	}
	return folder;
}

/// A parse: the units the Swift parser gives, and blank tokens for what lies between them (every
/// byte of the text is in one token, so ts_headline gives the text back whole).
typedef struct FoldParse
{
	SwiftObject parser;
	const char *text;
	int64		count;
	/// Bytes given as tokens so far.
	int64		position;
	/// The next unit, when `has_unit`.
	int64		unit_start;
	int64		unit_end;
	bool		has_unit;
	bool		at_end;
} FoldParse;

Datum
fold_prs_start(PG_FUNCTION_ARGS)
{
	const void *folder = parser_folder(fcinfo);
	FoldParse  *parse = palloc0(sizeof(FoldParse));

	check_encoding();
	parse->text = (const char *) PG_GETARG_POINTER(0);
	parse->count = PG_GETARG_INT32(1);
	adopt_swift_object(&parse->parser, foldpg_parser_release);
	IN_SWIFT(parse->parser.object = foldpg_parser_make(folder, (const uint8_t *) parse->text, parse->count));
	PG_RETURN_POINTER(parse);
}

/// How many bytes of the blank from `start` to `limit` one token takes: all of it, or less than
/// MAXSTRLEN ending on a character boundary (PostgreSQL drops longer tokens, also from
/// headlines).
static int64
blank_piece(const char *text, int64 start, int64 limit)
{
	int64		end;

	if (limit - start < MAXSTRLEN)
		return limit - start;
	end = start + MAXSTRLEN - 1;
	while (end > start + 1 && (((unsigned char) text[end]) & 0xC0) == 0x80)
		end--;
	return end - start;
}

Datum
fold_prs_nexttoken(PG_FUNCTION_ARGS)
{
	FoldParse  *parse = (FoldParse *) PG_GETARG_POINTER(0);
	char	  **token = (char **) PG_GETARG_POINTER(1);
	int		   *length = (int *) PG_GETARG_POINTER(2);
	int64		limit;
	int64		piece;

	CHECK_FOR_INTERRUPTS();
	if (parse->position >= parse->count)
		PG_RETURN_INT32(0);
	if (!parse->has_unit && !parse->at_end)
	{
		int64		start = 0,
					end = 0,
					error_offset = 0;
		int32		status;

		IN_SWIFT(status = foldpg_parser_next(parse->parser.object, &start, &end, &error_offset));
		if (status == FOLDPG_UNIT)
		{
			parse->unit_start = start;
			parse->unit_end = end;
			parse->has_unit = true;
		}
		else if (status == FOLDPG_END)
			parse->at_end = true;
		else
			report_status(status, error_offset, parse->text, parse->count);
	}
	if (parse->has_unit && parse->position >= parse->unit_start)
	{
		*token = (char *) parse->text + parse->unit_start;
		*length = (int) (parse->unit_end - parse->unit_start);
		parse->position = parse->unit_end;
		parse->has_unit = false;
		PG_RETURN_INT32(FOLD_WORD);
	}
	limit = parse->has_unit ? parse->unit_start : parse->count;
	piece = blank_piece(parse->text, parse->position, limit);
	*token = (char *) parse->text + parse->position;
	*length = (int) piece;
	parse->position += piece;
	PG_RETURN_INT32(FOLD_BLANK);
}

Datum
fold_prs_end(PG_FUNCTION_ARGS)
{
	FoldParse  *parse = (FoldParse *) PG_GETARG_POINTER(0);

	// The struct stays until its memory context goes: its callback is registered there.
	release_swift_object(&parse->parser);
	PG_RETURN_VOID();
}

Datum
fold_prs_lextype(PG_FUNCTION_ARGS)
{
	LexDescr   *types = palloc0(sizeof(LexDescr) * 3);

	types[0].lexid = FOLD_WORD;
	types[0].alias = pstrdup("word");
	types[0].descr = pstrdup("Word, as Fold's tokens cut the folded text");
	types[1].lexid = FOLD_BLANK;
	types[1].alias = pstrdup("blank");
	types[1].descr = pstrdup("Space symbols, punctuation and anything else between words");
	types[2].lexid = 0;
	PG_RETURN_POINTER(types);
}

// ---------------------------------------------------------------------------------------------
// The dictionary template: each token becomes the words of its fold

typedef struct FoldDictionary
{
	const void *folder;
} FoldDictionary;

Datum
fold_dict_init(PG_FUNCTION_ARGS)
{
	List	   *options = (List *) PG_GETARG_POINTER(0);
	FoldDictionary *dictionary = palloc0(sizeof(FoldDictionary));
	const char *profile = "search";
	ListCell   *cell;

	foreach(cell, options)
	{
		DefElem    *option = (DefElem *) lfirst(cell);

		if (pg_strcasecmp(option->defname, "profile") == 0)
			profile = defGetString(option);
		else
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("fold: unknown dictionary option \"%s\"; the only one is profile", option->defname)));
	}
	dictionary->folder = folder_named(profile, strlen(profile));
	PG_RETURN_POINTER(dictionary);
}

/// The words of `token` as TSLexemes: the first at the token's position, each next one at the
/// next position (TSL_ADDPOS), as the library's tokens are numbered. Words of MAXSTRLEN bytes or
/// more are left out (a tsvector cannot hold them).
static TSLexeme *
lexemes_of(const void *folder, const char *token, int length)
{
	foldpg_buffer out;
	int32		status;
	int32		words = 0;
	int64		error_offset = 0;
	TSLexeme   *lexemes;
	const char *word;
	int			i,
				n = 0;

	buffer_init(&out, (int64) length * 2 + 16);
	IN_SWIFT(status = foldpg_words(folder, (const uint8_t *) token, length, &out, &words, &error_offset));
	report_status(status, error_offset, token, length);
	lexemes = palloc0(sizeof(TSLexeme) * (words + 1));
	word = (const char *) out.bytes;
	for (i = 0; i < words; i++)
	{
		size_t		size = strlen(word);

		if (size < MAXSTRLEN)
		{
			lexemes[n].lexeme = pnstrdup(word, size);
			lexemes[n].flags = i > 0 ? TSL_ADDPOS : 0;
			n++;
		}
		word += size + 1;
	}
	pfree(out.allocation);
	return lexemes;
}

Datum
fold_dict_lexize(PG_FUNCTION_ARGS)
{
	FoldDictionary *dictionary = (FoldDictionary *) PG_GETARG_POINTER(0);
	char	   *token = (char *) PG_GETARG_POINTER(1);
	int32		length = PG_GETARG_INT32(2);

	check_encoding();
	PG_RETURN_POINTER(lexemes_of(dictionary->folder, token, length));
}

// ---------------------------------------------------------------------------------------------
// fold_tsquery(query, prefix_last, config)

/// The lexemes a configuration makes of one token: its dictionaries in order, as ts_parse.c's
/// LexizeExec does for one-word dictionaries (a filtering dictionary passes its output on); a
/// dictionary that wants more words (a thesaurus) is treated as not knowing the token.
static TSLexeme *
lexize_token(TSConfigCacheEntry *config, int type, char *token, int length)
{
	ListDictionary *map = config->map + type;
	int			i;

	for (i = 0; i < map->len; i++)
	{
		TSDictionaryCacheEntry *dictionary = lookup_ts_dictionary_cache(map->dictIds[i]);
		DictSubState state = {false, false, NULL};
		TSLexeme   *lexemes;

		lexemes = (TSLexeme *) DatumGetPointer(FunctionCall4(&dictionary->lexize,
															 PointerGetDatum(dictionary->dictData),
															 PointerGetDatum(token),
															 Int32GetDatum(length),
															 PointerGetDatum(&state)));
		if (lexemes == NULL || state.getnext)
			continue;
		if (lexemes->lexeme != NULL && (lexemes->flags & TSL_FILTER))
		{
			token = lexemes->lexeme;
			length = strlen(token);
			continue;
		}
		return lexemes;
	}
	return NULL;
}

/// Appends `lexeme` quoted for tsquery's input syntax (nothing in it is syntax: ' doubled, \
/// escaped), with :* when `prefix`.
static void
append_operand(StringInfo query, const char *lexeme, bool prefix)
{
	const char *c;

	appendStringInfoChar(query, '\'');
	for (c = lexeme; *c; c++)
	{
		if (*c == '\'')
			appendStringInfoChar(query, '\'');
		else if (*c == '\\')
			appendStringInfoChar(query, '\\');
		appendStringInfoChar(query, *c);
	}
	appendStringInfoChar(query, '\'');
	if (prefix)
		appendStringInfoString(query, ":*");
}

/// The lexemes at one position: one operand, or several variants in parentheses joined by |.
static void
append_position(StringInfo query, TSLexeme *first, int count, bool prefix)
{
	int			i;

	if (count == 1)
	{
		append_operand(query, first->lexeme, prefix);
		return;
	}
	appendStringInfoChar(query, '(');
	for (i = 0; i < count; i++)
	{
		if (i > 0)
			appendStringInfoString(query, " | ");
		append_operand(query, first[i].lexeme, prefix);
	}
	appendStringInfoChar(query, ')');
}

/// Anything a user typed as a tsquery that is never a syntax error: the configuration's parser
/// cuts it and its dictionaries fold each word, exactly as to_tsvector does with that
/// configuration; words that touch in the input (no token without a lexeme between them: the
/// ideographs of 東京, the two words of ½) are a phrase (<->), others are ANDed (&); the last
/// word is a prefix (:*) when asked. Only the first QUERY_MAX_WORDS words are used; the work is
/// linear in the input (one parse, stopped after those words).
Datum
fold_tsquery(PG_FUNCTION_ARGS)
{
	text	   *input = PG_GETARG_TEXT_PP(0);
	bool		prefix_last = PG_GETARG_BOOL(1);
	Oid			config_id = PG_GETARG_OID(2);
	TSConfigCacheEntry *config = lookup_ts_config_cache(config_id);
	TSParserCacheEntry *parser = lookup_ts_parser_cache(config->prsId);
	void	   *state;
	StringInfoData query;
	int			words = 0;
	bool		gap = false;
	TSLexeme   *last = NULL;
	int			last_count = 0;
	int			last_start = 0;

	check_encoding();
	initStringInfo(&query);
	state = DatumGetPointer(FunctionCall2(&parser->prsstart,
										  PointerGetDatum(VARDATA_ANY(input)),
										  Int32GetDatum(VARSIZE_ANY_EXHDR(input))));
	while (words < QUERY_MAX_WORDS)
	{
		char	   *token = NULL;
		int			length = 0;
		int			type;
		TSLexeme   *lexemes;
		TSLexeme   *lexeme;

		type = DatumGetInt32(FunctionCall3(&parser->prstoken,
										   PointerGetDatum(state),
										   PointerGetDatum(&token),
										   PointerGetDatum(&length)));
		if (type <= 0)
			break;
		CHECK_FOR_INTERRUPTS();
		if (type >= config->lenmap || config->map[type].len == 0 || length >= MAXSTRLEN)
		{
			gap = true;
			continue;
		}
		lexemes = lexize_token(config, type, token, length);
		if (lexemes == NULL || lexemes->lexeme == NULL)
		{
			gap = true;
			continue;
		}
		// One position per group: a group starts at the first lexeme and at each TSL_ADDPOS.
		for (lexeme = lexemes; lexeme->lexeme != NULL && words < QUERY_MAX_WORDS;)
		{
			TSLexeme   *group = lexeme;
			int			count = 0;

			do
			{
				count++;
				lexeme++;
			} while (lexeme->lexeme != NULL && !(lexeme->flags & TSL_ADDPOS));
			if (words > 0)
				appendStringInfoString(&query, gap ? " & " : " <-> ");
			last_start = query.len;
			last = group;
			last_count = count;
			append_position(&query, group, count, false);
			words++;
			gap = false;
		}
	}
	FunctionCall1(&parser->prsend, PointerGetDatum(state));
	if (words == 0)
	{
		TSQuery		empty = (TSQuery) palloc(HDRSIZETQ);

		SET_VARSIZE(empty, HDRSIZETQ);
		empty->size = 0;
		PG_RETURN_TSQUERY(empty);
	}
	if (prefix_last)
	{
		query.len = last_start;
		query.data[query.len] = '\0';
		append_position(&query, last, last_count, true);
	}
	PG_RETURN_DATUM(DirectFunctionCall1(tsqueryin, CStringGetDatum(query.data)));
}

// ---------------------------------------------------------------------------------------------
// What profiles a stored expression uses (for fold_stale_indexes)

typedef struct ProfileWalk
{
	Oid			fold_function;
	List	   *profiles;
} ProfileWalk;

static void
add_profile(ProfileWalk *walk, const char *profile)
{
	char	   *lowered = asc_tolower(profile, strlen(profile));
	ListCell   *cell;

	foreach(cell, walk->profiles)
		if (strcmp((char *) lfirst(cell), lowered) == 0)
			return;
	walk->profiles = lappend(walk->profiles, lowered);
}

/// Whether a dictionary's template is fold's, read from the catalogs without initializing the
/// dictionary (another template's init may read files, and is none of fold_stale_indexes' business).
static bool
is_fold_dictionary(Oid dictionary_id)
{
	HeapTuple	tuple;
	Oid			template_id,
				lexize;
	char	   *name;

	tuple = SearchSysCache1(TSDICTOID, ObjectIdGetDatum(dictionary_id));
	if (!HeapTupleIsValid(tuple))
		return false;
	template_id = ((Form_pg_ts_dict) GETSTRUCT(tuple))->dicttemplate;
	ReleaseSysCache(tuple);
	tuple = SearchSysCache1(TSTEMPLATEOID, ObjectIdGetDatum(template_id));
	if (!HeapTupleIsValid(tuple))
		return false;
	lexize = ((Form_pg_ts_template) GETSTRUCT(tuple))->tmpllexize;
	ReleaseSysCache(tuple);
	name = get_func_name(lexize);
	return name != NULL && strcmp(name, "fold_dict_lexize") == 0;
}

static void
add_dictionary_profile(ProfileWalk *walk, Oid dictionary_id)
{
	TSDictionaryCacheEntry *dictionary;
	const char *name;

	if (!is_fold_dictionary(dictionary_id))
		return;
	dictionary = lookup_ts_dictionary_cache(dictionary_id);
	if (dictionary->lexize.fn_addr != fold_dict_lexize)
		return;
	IN_SWIFT(name = foldpg_folder_name(((FoldDictionary *) dictionary->dictData)->folder));
	add_profile(walk, name);
}

static void
add_config_profiles(ProfileWalk *walk, Oid config_id)
{
	TSConfigCacheEntry *config = lookup_ts_config_cache(config_id);
	TSParserCacheEntry *parser = lookup_ts_parser_cache(config->prsId);
	int			type,
				i;

	if (parser->prsstart.fn_addr == fold_prs_start)
	{
		char	   *profile = profile_of_start_function(parser->startOid);

		if (profile != NULL)
			add_profile(walk, profile);
	}
	for (type = 0; type < config->lenmap; type++)
		for (i = 0; i < config->map[type].len; i++)
			add_dictionary_profile(walk, config->map[type].dictIds[i]);
}

static bool
profile_walker(Node *node, ProfileWalk *walk)
{
	if (node == NULL)
		return false;
	if (IsA(node, Query))
		return query_tree_walker((Query *) node, profile_walker, (void *) walk, 0);
	if (IsA(node, FuncExpr) && ((FuncExpr *) node)->funcid == walk->fold_function)
	{
		FuncExpr   *call = (FuncExpr *) node;
		Node	   *profile = list_length(call->args) > 1 ? (Node *) lsecond(call->args) : NULL;

		if (profile == NULL)
			add_profile(walk, "search");
		else if (IsA(profile, Const) && !((Const *) profile)->constisnull)
			add_profile(walk, TextDatumGetCString(((Const *) profile)->constvalue));
		else
			add_profile(walk, "*");
	}
	else if (IsA(node, Const) && !((Const *) node)->constisnull)
	{
		Const	   *constant = (Const *) node;

		if (constant->consttype == REGCONFIGOID)
			add_config_profiles(walk, DatumGetObjectId(constant->constvalue));
		else if (constant->consttype == REGDICTIONARYOID)
			add_dictionary_profile(walk, DatumGetObjectId(constant->constvalue));
	}
	return expression_tree_walker(node, profile_walker, (void *) walk);
}

static Datum
profiles_array(List *profiles)
{
	Datum	   *values = palloc(sizeof(Datum) * Max(list_length(profiles), 1));
	ListCell   *cell;
	int			n = 0;

	foreach(cell, profiles)
		values[n++] = CStringGetTextDatum((char *) lfirst(cell));
	return PointerGetDatum(construct_array(values, n, TEXTOID, -1, false, TYPALIGN_INT));
}

/// fold_expression_profiles(tree pg_node_tree, fold regprocedure): the profiles a stored expression
/// (an index's, a generated column's, a materialized view's query) folds
/// with: fold() calls with a constant profile, `*` for one computed at run time, and the profiles
/// of the fold configurations and dictionaries it names.
Datum
fold_expression_profiles(PG_FUNCTION_ARGS)
{
	char	   *tree = text_to_cstring(PG_GETARG_TEXT_PP(0));
	ProfileWalk walk = {PG_GETARG_OID(1), NIL};

	profile_walker((Node *) stringToNode(tree), &walk);
	PG_RETURN_DATUM(profiles_array(walk.profiles));
}

/// fold_config_profiles(config regconfig): the profiles a text search configuration folds with
/// (its parser's, if it is a fold parser, and its fold dictionaries'); empty for other ones.
Datum
fold_config_profiles(PG_FUNCTION_ARGS)
{
	ProfileWalk walk = {InvalidOid, NIL};

	add_config_profiles(&walk, PG_GETARG_OID(0));
	PG_RETURN_DATUM(profiles_array(walk.profiles));
}

/// For the tests only (not in the extension's script; a test makes it a function): a trap
/// inside Swift, which must become an ERROR and leave the backend alive.
Datum
fold_test_trap(PG_FUNCTION_ARGS)
{
	IN_SWIFT(foldpg_test_trap());
	PG_RETURN_VOID();
}
