// The text search dictionary template: fold_dict_init (its options: profile, filter, stopwords)
// and fold_dict_lexize, which makes each token the words of its fold, drops the words of a
// folded stop list, and, as a filtering dictionary, hands its word on to the next dictionary of
// the mapping (a stemmer). Its state, FoldDictionary, is in fold_internal.h (dependencies.c
// reads it).
#include "postgres.h"

#include <string.h>

#include "commands/defrem.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "nodes/pg_list.h"
#include "tsearch/ts_public.h"

#include "fold_internal.h"

PG_FUNCTION_INFO_V1(fold_dict_init);
PG_FUNCTION_INFO_V1(fold_dict_lexize);

/// The words of `token` as `folder` folds them, each NUL-terminated, one after the other, in
/// `out` (palloc'd: pfree out->allocation); returns how many.
static int32
folded_words(const void *folder, const char *token, int length, foldpg_buffer *out)
{
	int32		status;
	int32		count = 0;
	int64		error_offset = 0;

	foldc_buffer_init(out, (int64) length * 2 + 16);
	IN_SWIFT(status = foldpg_words(folder, (const uint8_t *) token, length, out, &count, &error_offset));
	foldc_report_status(status, error_offset, token, length);
	return count;
}

// ---------------------------------------------------------------------------------------------
// The stop list, folded with the dictionary's profile

/// The folder readstoplist's word operation folds with (set around the one call that uses it).
static const void *stop_word_folder = NULL;

/// readstoplist's word operation: the stop word as the dictionary folds text, so that a stop
/// word typed with or without its accents (für, fur) matches the folded word. A stop word that
/// folds to several words is kept as them joined by a space, which no single word matches.
static char *
fold_stop_word(const char *word)
{
	foldpg_buffer out;
	int32		count = folded_words(stop_word_folder, word, strlen(word), &out);
	StringInfoData joined;
	const char *w = (const char *) out.bytes;
	int			i;

	initStringInfo(&joined);
	for (i = 0; i < count; i++)
	{
		if (i > 0)
			appendStringInfoChar(&joined, ' ');
		appendStringInfoString(&joined, w);
		w += strlen(w) + 1;
	}
	pfree(out.allocation);
	return joined.data;
}

// ---------------------------------------------------------------------------------------------
// The dictionary template

/// Options: PROFILE (a Fold profile, default search), FILTER (boolean, default false: when true
/// the dictionary passes its word on to the next dictionary of the mapping, as unaccent does) and
/// STOPWORDS (the name of a stop-word file in $SHAREDIR/tsearch_data, as the snowball template's
/// option: `german` reads german.stop; each word is folded with PROFILE, and words of the text
/// that fold to one of them are dropped).
Datum
fold_dict_init(PG_FUNCTION_ARGS)
{
	List	   *options = (List *) PG_GETARG_POINTER(0);
	FoldDictionary *dictionary = palloc0(sizeof(FoldDictionary));
	const char *profile = "search";
	const char *stopwords = NULL;
	ListCell   *cell;

	foreach(cell, options)
	{
		DefElem    *option = (DefElem *) lfirst(cell);

		if (pg_strcasecmp(option->defname, "profile") == 0)
			profile = defGetString(option);
		else if (pg_strcasecmp(option->defname, "filter") == 0)
			dictionary->filter = defGetBoolean(option);
		else if (pg_strcasecmp(option->defname, "stopwords") == 0)
			stopwords = defGetString(option);
		else
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("fold: unknown dictionary option \"%s\"; the valid ones are profile, filter and stopwords",
							option->defname)));
	}
	dictionary->folder = foldc_folder_named(profile, strlen(profile));
	if (stopwords != NULL)
	{
		stop_word_folder = dictionary->folder;
		PG_TRY();
		{
			readstoplist(stopwords, &dictionary->stopwords, fold_stop_word);
		}
		PG_FINALLY();
		{
			stop_word_folder = NULL;
		}
		PG_END_TRY();
	}
	PG_RETURN_POINTER(dictionary);
}

/// The words of `token` as TSLexemes: the first at the token's position, each next one at the
/// next position (TSL_ADDPOS), as the library's tokens are numbered. Words of MAXSTRLEN bytes or
/// more are left out (a tsvector cannot hold them), and so are stop words. No word left: an
/// empty list, which PostgreSQL reads as a stop word. A filtering dictionary marks a single word
/// TSL_FILTER, so the next dictionary gets it; a token of several words (½ is 1 and 2) is
/// answered here, since PostgreSQL passes only one word on.
static TSLexeme *
lexemes_of(FoldDictionary *dictionary, const char *token, int length)
{
	foldpg_buffer out;
	int32		words = folded_words(dictionary->folder, token, length, &out);
	TSLexeme   *lexemes = palloc0(sizeof(TSLexeme) * (words + 1));
	const char *word = (const char *) out.bytes;
	int			i,
				n = 0;

	for (i = 0; i < words; i++)
	{
		size_t		size = strlen(word);

		if (size < MAXSTRLEN && !(dictionary->stopwords.len > 0 && searchstoplist(&dictionary->stopwords, (char *) word)))
		{
			lexemes[n].lexeme = pnstrdup(word, size);
			lexemes[n].flags = n > 0 ? TSL_ADDPOS : 0;
			n++;
		}
		word += size + 1;
	}
	if (dictionary->filter && n == 1)
		lexemes[0].flags |= TSL_FILTER;
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
	PG_RETURN_POINTER(lexemes_of(dictionary, token, length));
}
