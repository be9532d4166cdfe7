// The text search parser: fold_prs_start, fold_prs_nexttoken, fold_prs_end and
// fold_prs_lextype, whose tokens are the Swift parser's units and the blanks between them, and
// the profile a parser's start function's name gives (dependencies.c reads it too).
#include "postgres.h"

#include <string.h>

#include "fmgr.h"
#include "miscadmin.h"
#include "tsearch/ts_public.h"
#include "utils/lsyscache.h"

#include "fold_internal.h"

PG_FUNCTION_INFO_V1(fold_prs_start);
PG_FUNCTION_INFO_V1(fold_prs_nexttoken);
PG_FUNCTION_INFO_V1(fold_prs_end);
PG_FUNCTION_INFO_V1(fold_prs_lextype);

/// The parser's token types. The numbers are those of PostgreSQL's default parser for the same
/// notions (WORD_T and SPACE in wparser_def.c), so its headline function, prsd_headline, which
/// the fold parsers use, treats blanks as spaces and words as words.
#define FOLD_WORD 2
#define FOLD_BLANK 12

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
char *
foldc_profile_of_start_function(Oid function)
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
	profile = OidIsValid(function) ? foldc_profile_of_start_function(function) : NULL;
	if (profile == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("fold: a parser's start function must be named %s or %s_PROFILE",
						START_FUNCTION, START_FUNCTION)));
	folder = foldc_folder_named(profile, strlen(profile));
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

	foldc_check_encoding();
	parse->text = (const char *) PG_GETARG_POINTER(0);
	parse->count = PG_GETARG_INT32(1);
	foldc_adopt_swift_object(&parse->parser, foldpg_parser_release);
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
			foldc_report_status(status, error_offset, parse->text, parse->count);
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
	foldc_release_swift_object(&parse->parser);
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

