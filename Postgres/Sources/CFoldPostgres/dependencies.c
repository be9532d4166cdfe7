// What profiles a stored expression or a text search configuration folds with, for
// fold_stale_indexes: fold_expression_profiles (fold() calls, fold configurations and
// dictionaries in an index's, a generated column's or a materialized view's expression) and
// fold_config_profiles (with the Snowball stemmers a configuration uses, as snowball:LANGUAGE).
#include "postgres.h"

#include <string.h>

#include "catalog/pg_ts_dict.h"
#include "catalog/pg_ts_template.h"
#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "fmgr.h"
#include "nodes/nodeFuncs.h"
#include "tsearch/ts_cache.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/formatting.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "fold_internal.h"

PG_FUNCTION_INFO_V1(fold_expression_profiles);
PG_FUNCTION_INFO_V1(fold_config_profiles);

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

/// The name of a dictionary's template's lexize function (palloc'd, or NULL), and its options
/// (a List of DefElem), read from the catalogs without initializing the dictionary (another
/// template's init may read files, and is none of fold_stale_indexes' business).
static char *
dictionary_lexize_name(Oid dictionary_id, List **options)
{
	HeapTuple	tuple;
	Oid			template_id,
				lexize;
	bool		isnull;
	Datum		option_text;

	tuple = SearchSysCache1(TSDICTOID, ObjectIdGetDatum(dictionary_id));
	if (!HeapTupleIsValid(tuple))
		return NULL;
	template_id = ((Form_pg_ts_dict) GETSTRUCT(tuple))->dicttemplate;
	if (options != NULL)
	{
		option_text = SysCacheGetAttr(TSDICTOID, tuple, Anum_pg_ts_dict_dictinitoption, &isnull);
		*options = isnull ? NIL : deserialize_deflist(option_text);
	}
	ReleaseSysCache(tuple);
	tuple = SearchSysCache1(TSTEMPLATEOID, ObjectIdGetDatum(template_id));
	if (!HeapTupleIsValid(tuple))
		return NULL;
	lexize = ((Form_pg_ts_template) GETSTRUCT(tuple))->tmpllexize;
	ReleaseSysCache(tuple);
	return get_func_name(lexize);
}

static bool
is_fold_dictionary(Oid dictionary_id)
{
	char	   *name = dictionary_lexize_name(dictionary_id, NULL);

	return name != NULL && strcmp(name, "fold_dict_lexize") == 0;
}

/// A Snowball dictionary (PostgreSQL's snowball template) of a configuration that folds: its
/// stems are part of what an index holds, so the configuration's profiles name it too, as
/// `snowball:LANGUAGE`, whose fingerprint (fold_fingerprints) names PostgreSQL's major version,
/// the only thing that changes PostgreSQL's bundled Snowball.
static void
add_snowball_profile(ProfileWalk *walk, Oid dictionary_id)
{
	List	   *options = NIL;
	char	   *name = dictionary_lexize_name(dictionary_id, &options);
	ListCell   *cell;

	if (name == NULL || strcmp(name, "dsnowball_lexize") != 0)
		return;
	foreach(cell, options)
	{
		DefElem    *option = (DefElem *) lfirst(cell);

		if (pg_strcasecmp(option->defname, "language") == 0)
		{
			add_profile(walk, psprintf("snowball:%s", defGetString(option)));
			return;
		}
	}
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
		char	   *profile = foldc_profile_of_start_function(parser->startOid);

		if (profile != NULL)
			add_profile(walk, profile);
	}
	for (type = 0; type < config->lenmap; type++)
		for (i = 0; i < config->map[type].len; i++)
		{
			add_dictionary_profile(walk, config->map[type].dictIds[i]);
			add_snowball_profile(walk, config->map[type].dictIds[i]);
		}
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
/// (its parser's, if it is a fold parser, and its fold dictionaries'), and `snowball:LANGUAGE` for
/// each of its Snowball dictionaries; empty for a configuration with neither.
Datum
fold_config_profiles(PG_FUNCTION_ARGS)
{
	ProfileWalk walk = {InvalidOid, NIL};

	add_config_profiles(&walk, PG_GETARG_OID(0));
	PG_RETURN_DATUM(profiles_array(walk.profiles));
}
