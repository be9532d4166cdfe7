// The text search dictionary template: fold_dict_init (its one option, profile) and
// fold_dict_lexize, which makes each token the words of its fold. Its state, FoldDictionary, is in
// fold_internal.h (dependencies.c reads it).
#include "postgres.h"

#include <string.h>

#include "commands/defrem.h"
#include "fmgr.h"
#include "nodes/pg_list.h"
#include "tsearch/ts_public.h"

#include "fold_internal.h"

PG_FUNCTION_INFO_V1(fold_dict_init);
PG_FUNCTION_INFO_V1(fold_dict_lexize);

// ---------------------------------------------------------------------------------------------
// The dictionary template: each token becomes the words of its fold

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
	dictionary->folder = foldc_folder_named(profile, strlen(profile));
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

	foldc_buffer_init(&out, (int64) length * 2 + 16);
	IN_SWIFT(status = foldpg_words(folder, (const uint8_t *) token, length, &out, &words, &error_offset));
	foldc_report_status(status, error_offset, token, length);
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

	foldc_check_encoding();
	PG_RETURN_POINTER(lexemes_of(dictionary->folder, token, length));
}

