// fold_tsquery(query, prefix_last, config): a tsquery from anything a user typed, made with a
// configuration's parser and dictionaries as to_tsvector would (never a syntax error).
#include "postgres.h"

#include <string.h>

#include "fmgr.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "tsearch/ts_cache.h"
#include "tsearch/ts_public.h"
#include "tsearch/ts_type.h"
#include "utils/builtins.h"

#include "fold_internal.h"

PG_FUNCTION_INFO_V1(fold_tsquery);

/// fold_tsquery uses a query's first this many words (Fold's FTSQuery.maximumWords for SQLite).
#define QUERY_MAX_WORDS 64

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

	foldc_check_encoding();
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

