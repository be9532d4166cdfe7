-- The `fold` extension, version 0.1: Fold's fold inside PostgreSQL (see Postgres/README.md).
\echo Use "CREATE EXTENSION fold" to load this file. \quit

-- Fold reads and writes UTF-8: a database in another encoding would hand it bytes it misreads.
DO $$
BEGIN
    IF pg_catalog.getdatabaseencoding() NOT IN ('UTF8', 'SQL_ASCII') THEN
        RAISE EXCEPTION 'fold needs a UTF8 database; this one is %', pg_catalog.getdatabaseencoding()
            USING ERRCODE = 'feature_not_supported';
    END IF;
END
$$;

-- ---------------------------------------------------------------------------------------------
-- fold() and fingerprints

CREATE FUNCTION fold(input text, profile text DEFAULT 'search') RETURNS text
    AS 'MODULE_PATHNAME', 'fold_fold'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fold(text, text) IS
    'Folds text for search with a Fold profile (search, ascii, nfc, nfd, nfkc, nfkd, nfkc-casefold, search-LANG): fold(''Crème Brûlée'') = ''creme brulee''. Immutable: its output changes only with fold_fingerprint(profile).';

CREATE FUNCTION fold_fingerprint(profile text DEFAULT 'search') RETURNS text
    AS 'MODULE_PATHNAME', 'fold_fingerprint'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fold_fingerprint(text) IS
    'A string that changes whenever fold(x, profile) could: the profile''s steps, Fold''s table version, the Unicode and ICU versions';

CREATE FUNCTION fold_profiles(OUT profile text, OUT fingerprint text, OUT summary text) RETURNS SETOF record
    AS 'MODULE_PATHNAME', 'fold_profiles'
    LANGUAGE C STABLE STRICT PARALLEL SAFE ROWS 17;
COMMENT ON FUNCTION fold_profiles() IS 'Every profile fold() accepts, with its fingerprint and what it does';

-- ---------------------------------------------------------------------------------------------
-- Full-text search: parsers, the dictionary template, dictionaries and configurations

-- A parser's profile is in its start function's name: fold_prs_start is `search`,
-- fold_prs_start_NAME is NAME with _ for - (fold_create_configuration makes more).
CREATE FUNCTION fold_prs_start(internal, integer) RETURNS internal
    AS 'MODULE_PATHNAME', 'fold_prs_start' LANGUAGE C STRICT;
CREATE FUNCTION fold_prs_start_ascii(internal, integer) RETURNS internal
    AS 'MODULE_PATHNAME', 'fold_prs_start' LANGUAGE C STRICT;
CREATE FUNCTION fold_prs_nexttoken(internal, internal, internal) RETURNS internal
    AS 'MODULE_PATHNAME', 'fold_prs_nexttoken' LANGUAGE C STRICT;
CREATE FUNCTION fold_prs_end(internal) RETURNS void
    AS 'MODULE_PATHNAME', 'fold_prs_end' LANGUAGE C STRICT;
CREATE FUNCTION fold_prs_lextype(internal) RETURNS internal
    AS 'MODULE_PATHNAME', 'fold_prs_lextype' LANGUAGE C STRICT;

-- Tokens: `word` (the original text of a word, or of words that share characters, like ½) and
-- `blank` (everything between). The headline function is the default parser's: it reads these
-- token types as its own `word` and `blank`.
CREATE TEXT SEARCH PARSER fold_search (
    START = fold_prs_start, GETTOKEN = fold_prs_nexttoken, END = fold_prs_end,
    LEXTYPES = fold_prs_lextype, HEADLINE = pg_catalog.prsd_headline);
COMMENT ON TEXT SEARCH PARSER fold_search IS 'Words as Fold''s tokens cut the search fold (CJK per ideograph, Thai by dictionary, apostrophes split)';
CREATE TEXT SEARCH PARSER fold_ascii (
    START = fold_prs_start_ascii, GETTOKEN = fold_prs_nexttoken, END = fold_prs_end,
    LEXTYPES = fold_prs_lextype, HEADLINE = pg_catalog.prsd_headline);
COMMENT ON TEXT SEARCH PARSER fold_ascii IS 'Words as Fold''s tokens cut the ascii fold';

CREATE FUNCTION fold_dict_init(internal) RETURNS internal
    AS 'MODULE_PATHNAME', 'fold_dict_init' LANGUAGE C STRICT;
CREATE FUNCTION fold_dict_lexize(internal, internal, internal, internal) RETURNS internal
    AS 'MODULE_PATHNAME', 'fold_dict_lexize' LANGUAGE C STRICT;

-- The template. Options: PROFILE (default search): a token becomes the words of its fold.
-- FILTER (default false): true makes it a filtering dictionary, as unaccent is: a word is handed
-- on to the next dictionary of the mapping (a Snowball stemmer) instead of being the answer; a
-- filtering dictionary alone in a mapping answers nothing, as unaccent alone does. STOPWORDS: a
-- stop-word file of $SHAREDIR/tsearch_data (as the snowball template's option: 'german' reads
-- german.stop), each word folded with PROFILE: a word of the text that folds to one of them is
-- dropped, typed with or without its accents (für, fur).
CREATE TEXT SEARCH TEMPLATE fold (INIT = fold_dict_init, LEXIZE = fold_dict_lexize);
COMMENT ON TEXT SEARCH TEMPLATE fold IS 'Folds each token with a Fold profile (options PROFILE, FILTER, STOPWORDS)';

CREATE TEXT SEARCH DICTIONARY fold_search (TEMPLATE = fold, PROFILE = 'search');
CREATE TEXT SEARCH DICTIONARY fold_ascii (TEMPLATE = fold, PROFILE = 'ascii');
-- Filtering: for a mapping that stems after the fold (WITH fold_search_filter, english_stem).
CREATE TEXT SEARCH DICTIONARY fold_search_filter (TEMPLATE = fold, PROFILE = 'search', FILTER = true);
COMMENT ON TEXT SEARCH DICTIONARY fold_search_filter IS 'Folds with the search profile and hands the word on: WITH fold_search_filter, english_stem';
CREATE TEXT SEARCH DICTIONARY fold_ascii_filter (TEMPLATE = fold, PROFILE = 'ascii', FILTER = true);
COMMENT ON TEXT SEARCH DICTIONARY fold_ascii_filter IS 'Folds with the ascii profile and hands the word on: WITH fold_ascii_filter, english_stem';

CREATE TEXT SEARCH CONFIGURATION fold (PARSER = fold_search);
ALTER TEXT SEARCH CONFIGURATION fold ADD MAPPING FOR word WITH fold_search;
COMMENT ON TEXT SEARCH CONFIGURATION fold IS 'Fold''s search profile: to_tsvector(''fold'', body), fold_tsquery(query)';

CREATE TEXT SEARCH CONFIGURATION fold_ascii (PARSER = fold_ascii);
ALTER TEXT SEARCH CONFIGURATION fold_ascii ADD MAPPING FOR word WITH fold_ascii;
COMMENT ON TEXT SEARCH CONFIGURATION fold_ascii IS 'Fold''s ascii profile';

-- The Snowball languages PostgreSQL has (its snowball dictionaries LANGUAGE_stem in
-- pg_catalog), with the stop-word file each of those reads (NULL when it has none).
CREATE FUNCTION fold_snowball_languages(OUT language text, OUT stemmer regdictionary, OUT stopwords text)
RETURNS SETOF record
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT substr(d.dictname, 1, length(d.dictname) - 5), d.oid::regdictionary,
           substring(d.dictinitoption from 'stopwords = ''([^'']*)''')
      FROM pg_ts_dict d JOIN pg_ts_template t ON t.oid = d.dicttemplate
     WHERE t.tmplname = 'snowball' AND t.tmplnamespace = 'pg_catalog'::regnamespace
       AND d.dictnamespace = 'pg_catalog'::regnamespace AND d.dictname LIKE '%\_stem'
     ORDER BY 1
$$;
COMMENT ON FUNCTION fold_snowball_languages() IS
    'The languages fold_create_configuration accepts: PostgreSQL''s Snowball stemmers (LANGUAGE_stem), with their stop-word files';

-- A configuration for any profile (a language tailoring, say), and, with a Snowball language,
-- one that folds, drops the language's stop words (folded with the same profile) and stems:
-- its mapping is a filtering fold dictionary with the language's stop words, then
-- pg_catalog.LANGUAGE_stem. Its parser, dictionary and start function are made in this
-- extension's schema when missing. It runs with the caller's search_path (an unqualified
-- config_name goes to the caller's current schema, as CREATE TEXT SEARCH CONFIGURATION would put
-- it) and names everything else with its schema.
CREATE FUNCTION fold_create_configuration(config_name text, profile text DEFAULT 'search', language text DEFAULT NULL)
RETURNS regconfig
LANGUAGE plpgsql
AS $$
DECLARE
    canonical text;
    suffix text;
    parser text;
    dictionary text;
    qualified text;
    snowball text;
    stopwords text;
BEGIN
    SELECT p.profile INTO canonical FROM @extschema@.fold_profiles() p
     WHERE p.profile OPERATOR(pg_catalog.=) pg_catalog.lower(fold_create_configuration.profile);
    IF canonical IS NULL THEN
        PERFORM @extschema@.fold_fingerprint(fold_create_configuration.profile);  -- 22023, naming the valid ones
    END IF;
    IF fold_create_configuration.language IS NOT NULL THEN
        SELECT l.language, l.stopwords INTO snowball, stopwords FROM @extschema@.fold_snowball_languages() l
         WHERE l.language OPERATOR(pg_catalog.=) pg_catalog.lower(fold_create_configuration.language);
        IF snowball IS NULL THEN
            RAISE EXCEPTION 'fold: unknown Snowball language "%"; the valid ones are %', fold_create_configuration.language,
                (SELECT pg_catalog.string_agg(l.language, ', ' ORDER BY l.language) FROM @extschema@.fold_snowball_languages() l)
                USING ERRCODE = 'invalid_parameter_value';
        END IF;
    END IF;
    suffix := pg_catalog.replace(canonical, '-', '_');
    parser := 'fold_' OPERATOR(pg_catalog.||) suffix;
    dictionary := 'fold_' OPERATOR(pg_catalog.||) suffix;
    IF canonical OPERATOR(pg_catalog.<>) 'search'
       AND pg_catalog.to_regprocedure(pg_catalog.format('@extschema@.%I(internal,integer)', 'fold_prs_start_' OPERATOR(pg_catalog.||) suffix)) IS NULL THEN
        EXECUTE pg_catalog.format('CREATE FUNCTION @extschema@.%I(internal, integer) RETURNS internal AS %L, %L LANGUAGE C STRICT',
                                  'fold_prs_start_' OPERATOR(pg_catalog.||) suffix, 'MODULE_PATHNAME', 'fold_prs_start');
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_ts_parser
                    WHERE prsname OPERATOR(pg_catalog.=) parser AND prsnamespace OPERATOR(pg_catalog.=) '@extschema@'::regnamespace) THEN
        EXECUTE pg_catalog.format('CREATE TEXT SEARCH PARSER @extschema@.%I (START = @extschema@.%I, GETTOKEN = @extschema@.fold_prs_nexttoken, '
                                  'END = @extschema@.fold_prs_end, LEXTYPES = @extschema@.fold_prs_lextype, HEADLINE = pg_catalog.prsd_headline)',
                                  parser, CASE WHEN canonical OPERATOR(pg_catalog.=) 'search' THEN 'fold_prs_start'
                                               ELSE 'fold_prs_start_' OPERATOR(pg_catalog.||) suffix END);
    END IF;
    IF snowball IS NOT NULL THEN
        dictionary := dictionary OPERATOR(pg_catalog.||) '_' OPERATOR(pg_catalog.||) snowball;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_ts_dict
                    WHERE dictname OPERATOR(pg_catalog.=) dictionary AND dictnamespace OPERATOR(pg_catalog.=) '@extschema@'::regnamespace) THEN
        IF snowball IS NULL THEN
            EXECUTE pg_catalog.format('CREATE TEXT SEARCH DICTIONARY @extschema@.%I (TEMPLATE = @extschema@.fold, PROFILE = %L)', dictionary, canonical);
        ELSIF stopwords IS NULL THEN
            EXECUTE pg_catalog.format('CREATE TEXT SEARCH DICTIONARY @extschema@.%I (TEMPLATE = @extschema@.fold, PROFILE = %L, FILTER = true)',
                                      dictionary, canonical);
        ELSE
            EXECUTE pg_catalog.format('CREATE TEXT SEARCH DICTIONARY @extschema@.%I (TEMPLATE = @extschema@.fold, PROFILE = %L, FILTER = true, STOPWORDS = %L)',
                                      dictionary, canonical, stopwords);
        END IF;
    END IF;
    SELECT pg_catalog.string_agg(pg_catalog.quote_ident(part), '.') INTO qualified
      FROM pg_catalog.unnest(pg_catalog.parse_ident(config_name)) part;
    EXECUTE pg_catalog.format('CREATE TEXT SEARCH CONFIGURATION %s (PARSER = @extschema@.%I)', qualified, parser);
    IF snowball IS NULL THEN
        EXECUTE pg_catalog.format('ALTER TEXT SEARCH CONFIGURATION %s ADD MAPPING FOR word WITH @extschema@.%I', qualified, dictionary);
    ELSE
        EXECUTE pg_catalog.format('ALTER TEXT SEARCH CONFIGURATION %s ADD MAPPING FOR word WITH @extschema@.%I, %s',
                                  qualified, dictionary, 'pg_catalog.' OPERATOR(pg_catalog.||) pg_catalog.quote_ident(snowball OPERATOR(pg_catalog.||) '_stem'));
    END IF;
    RETURN qualified::regconfig;
END
$$;
COMMENT ON FUNCTION fold_create_configuration(text, text, text) IS
    'Makes a text search configuration for a Fold profile, and with a Snowball language one that folds, drops the folded stop words and stems: SELECT fold_create_configuration(''fold_de'', ''search-de'', ''german'')';

-- Ready-made: fold (search profile), drop the language's stop words (folded), stem.
SELECT fold_create_configuration('@extschema@.fold_' OPERATOR(pg_catalog.||) l, 'search', l)
  FROM pg_catalog.unnest(ARRAY['english', 'german', 'french', 'spanish', 'italian', 'portuguese', 'dutch']) l;
COMMENT ON TEXT SEARCH CONFIGURATION fold_english IS 'Fold''s search profile, English stop words (folded) dropped, then english_stem';
COMMENT ON TEXT SEARCH CONFIGURATION fold_german IS 'Fold''s search profile, German stop words (folded) dropped, then german_stem';
COMMENT ON TEXT SEARCH CONFIGURATION fold_french IS 'Fold''s search profile, French stop words (folded) dropped, then french_stem';
COMMENT ON TEXT SEARCH CONFIGURATION fold_spanish IS 'Fold''s search profile, Spanish stop words (folded) dropped, then spanish_stem';
COMMENT ON TEXT SEARCH CONFIGURATION fold_italian IS 'Fold''s search profile, Italian stop words (folded) dropped, then italian_stem';
COMMENT ON TEXT SEARCH CONFIGURATION fold_portuguese IS 'Fold''s search profile, Portuguese stop words (folded) dropped, then portuguese_stem';
COMMENT ON TEXT SEARCH CONFIGURATION fold_dutch IS 'Fold''s search profile, Dutch stop words (folded) dropped, then dutch_stem';

-- A mapping with a Fold dictionary that is not filtering and a dictionary after it (WITH
-- fold_search, english_stem) is accepted by PostgreSQL but never reaches the second: Fold answers
-- every word. Said at once, as a WARNING, when a configuration is made or changed.
CREATE FUNCTION fold_check_mappings() RETURNS event_trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, @extschema@, pg_temp
AS $$
DECLARE
    m record;
BEGIN
    FOR m IN
        SELECT c.objid::regconfig AS config, f.mapdict::regdictionary AS fold_dictionary,
               (SELECT n.mapdict::regdictionary FROM pg_ts_config_map n
                 WHERE n.mapcfg = f.mapcfg AND n.maptokentype = f.maptokentype AND n.mapseqno > f.mapseqno
                 ORDER BY n.mapseqno LIMIT 1) AS never_asked
          FROM pg_event_trigger_ddl_commands() c
          JOIN pg_ts_config_map f ON f.mapcfg = c.objid
          JOIN pg_ts_dict d ON d.oid = f.mapdict
         WHERE c.classid = 'pg_ts_config'::regclass
           AND d.dicttemplate = (SELECT t.oid FROM pg_ts_template t
                                  WHERE t.tmplname = 'fold' AND t.tmplnamespace = '@extschema@'::regnamespace)
           AND d.dictinitoption !~* '(^|, )filter = ''(t|true|y|yes|on|1)'''
           AND EXISTS (SELECT 1 FROM pg_ts_config_map n
                        WHERE n.mapcfg = f.mapcfg AND n.maptokentype = f.maptokentype AND n.mapseqno > f.mapseqno)
    LOOP
        RAISE WARNING 'fold: in text search configuration %, dictionary % answers every word, so % after it is never asked', m.config, m.fold_dictionary, m.never_asked
            USING HINT = 'Use a filtering Fold dictionary (FILTER = true), such as fold_search_filter, or one made by fold_create_configuration(name, profile, language).';
    END LOOP;
EXCEPTION WHEN OTHERS THEN
    RAISE WARNING 'fold: could not check the mappings: %', SQLERRM;
END
$$;
CREATE EVENT TRIGGER fold_check_mappings ON ddl_command_end
    WHEN TAG IN ('CREATE TEXT SEARCH CONFIGURATION', 'ALTER TEXT SEARCH CONFIGURATION')
    EXECUTE FUNCTION fold_check_mappings();
REVOKE ALL ON FUNCTION fold_check_mappings() FROM PUBLIC;

-- Anything a user types as a safe tsquery: never a syntax error, each word folded as `config`
-- folds it, words that touch in the input as a phrase, the last a prefix when asked.
CREATE FUNCTION fold_tsquery(query text, prefix_last boolean DEFAULT true, config regconfig DEFAULT '@extschema@.fold')
    RETURNS tsquery
    AS 'MODULE_PATHNAME', 'fold_tsquery'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fold_tsquery(text, boolean, regconfig) IS
    'Turns what a user typed into a tsquery that is never a syntax error: fold_tsquery(''Crème brû'') = ''creme'' & ''bru'':*';

-- ---------------------------------------------------------------------------------------------
-- Upgrade safety: what each stored fold was built with, and what to rebuild when it changes

-- What a stored expression folds with (used by fold_objects). It takes pg_node_tree, a type only
-- the catalogs can make: the node reader is not meant for text from users.
CREATE FUNCTION fold_expression_profiles(tree pg_node_tree, fold_function regprocedure) RETURNS text[]
    AS 'MODULE_PATHNAME', 'fold_expression_profiles' LANGUAGE C STABLE STRICT;
CREATE FUNCTION fold_config_profiles(config regconfig) RETURNS text[]
    AS 'MODULE_PATHNAME', 'fold_config_profiles' LANGUAGE C STABLE STRICT;

-- A configuration by name, or NULL (PostgreSQL 15 has no to_regconfig): tsvector_update_trigger's
-- arguments are names that CREATE TRIGGER does not check.
CREATE FUNCTION fold_config_named(name text) RETURNS regconfig
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN name::regconfig;
EXCEPTION WHEN OTHERS THEN
    RETURN NULL;
END
$$;

-- The running library: every profile's fingerprint, sorted.
CREATE FUNCTION fold_library_fingerprints() RETURNS text[]
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$ SELECT array_agg(p.fingerprint ORDER BY p.fingerprint) FROM @extschema@.fold_profiles() p $$;

-- The sorted fingerprints of `profiles`; '*' (a profile computed at run time) stands for all.
-- `snowball:LANGUAGE` (a Snowball stemmer of a configuration that folds) is
-- `snowball-LANGUAGE-pgMAJOR`: PostgreSQL bundles its Snowball, which changes only with a major
-- version (pg_upgrade keeps indexes, whose stems may then differ).
CREATE FUNCTION fold_fingerprints(profiles text[]) RETURNS text[]
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN '*' = ANY (profiles) THEN @extschema@.fold_library_fingerprints()
                ELSE (SELECT coalesce(array_agg(DISTINCT f ORDER BY f), '{}')
                        FROM (SELECT coalesce(p.fingerprint,
                                              CASE WHEN wanted LIKE 'snowball:%'
                                                   THEN 'snowball-' || substr(wanted, 10) || '-pg' || (current_setting('server_version_num')::int / 10000)
                                                   ELSE 'no profile ' || wanted END) AS f
                                FROM unnest(profiles) wanted
                                LEFT JOIN @extschema@.fold_profiles() p ON p.profile = lower(wanted)) x) END
$$;

-- Indexes, generated columns and materialized views: recorded by the event triggers below and
-- by fold_stale_indexes(). Not dumped: a restore builds them again (and records them).
CREATE TABLE fold_builds (
    kind text NOT NULL,
    object text NOT NULL,
    relation text NOT NULL,
    objid oid NOT NULL,
    storage oid,
    fingerprints text[] NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
    PRIMARY KEY (kind, object)
);
COMMENT ON TABLE fold_builds IS 'The fingerprints fold''s indexes, generated columns and materialized views were built with';

-- tsvector columns kept by tsvector_update_trigger with a fold configuration, and columns the
-- application fills (fold_track_column): their values are data, which pg_dump copies as they
-- are, so their records are dumped with them.
CREATE TABLE fold_column_builds (
    kind text NOT NULL,
    object text NOT NULL,
    relation text NOT NULL,
    column_name name NOT NULL,
    profiles text[] NOT NULL,
    fingerprints text[] NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
    PRIMARY KEY (kind, object)
);
COMMENT ON TABLE fold_column_builds IS 'The fingerprints the values of fold''s tsvector columns were computed with';
SELECT pg_catalog.pg_extension_config_dump('fold_column_builds', '');

-- The library fold_stale_indexes() last ran with (to date the rebuilds it finds).
CREATE TABLE fold_library (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    fingerprints text[] NOT NULL,
    checked_at timestamptz NOT NULL DEFAULT pg_catalog.now()
);
INSERT INTO fold_library (fingerprints) SELECT @extschema@.fold_library_fingerprints();

-- Every stored object that folds: indexes and generated columns whose expressions call fold()
-- or name a fold configuration or dictionary, materialized views whose query does,
-- tsvector_update_trigger columns with a fold configuration, and the columns fold_track_column
-- registered. `storage` is the relfilenode (it changes when REINDEX, VACUUM FULL or a rewrite
-- rebuilds the object).
CREATE FUNCTION fold_objects(
    OUT kind text, OUT object text, OUT relation text, OUT column_name name, OUT objid oid, OUT storage oid,
    OUT profiles text[])
RETURNS SETOF record
LANGUAGE sql STABLE
SET search_path = pg_catalog, @extschema@, pg_temp
AS $$
WITH fold_configs AS (
    SELECT c.oid FROM pg_ts_config c
      JOIN pg_ts_parser p ON p.oid = c.cfgparser
      JOIN pg_proc f ON f.oid = p.prsstart
     WHERE f.prosrc = 'fold_prs_start' AND f.probin = 'MODULE_PATHNAME'
    UNION
    SELECT m.mapcfg FROM pg_ts_config_map m
      JOIN pg_ts_dict d ON d.oid = m.mapdict
      JOIN pg_ts_template t ON t.oid = d.dicttemplate
     WHERE t.tmpllexize = '@extschema@.fold_dict_lexize(internal,internal,internal,internal)'::regprocedure
), refs AS (
    SELECT 'pg_proc'::regclass::oid AS refclassid, '@extschema@.fold(text,text)'::regprocedure::oid AS refobjid
    UNION ALL
    SELECT 'pg_ts_config'::regclass::oid, oid FROM fold_configs
    UNION ALL
    SELECT 'pg_ts_dict'::regclass::oid, d.oid FROM pg_ts_dict d JOIN pg_ts_template t ON t.oid = d.dicttemplate
     WHERE t.tmpllexize = '@extschema@.fold_dict_lexize(internal,internal,internal,internal)'::regprocedure
), users AS (
    SELECT DISTINCT d.classid, d.objid FROM pg_depend d JOIN refs USING (refclassid, refobjid)
), fold_function AS (
    SELECT '@extschema@.fold(text,text)'::regprocedure AS f
)
SELECT 'index', format('%I.%I', n.nspname, c.relname), format('%I.%I', tn.nspname, t.relname), NULL::name, c.oid,
       pg_relation_filenode(c.oid),
       coalesce(fold_expression_profiles(i.indexprs, (SELECT f FROM fold_function)), '{}')
       || coalesce(fold_expression_profiles(i.indpred, (SELECT f FROM fold_function)), '{}')
  FROM users u
  JOIN pg_class c ON u.classid = 'pg_class'::regclass AND c.oid = u.objid AND c.relkind = 'i'
  JOIN pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_index i ON i.indexrelid = c.oid
  JOIN pg_class t ON t.oid = i.indrelid
  JOIN pg_namespace tn ON tn.oid = t.relnamespace
UNION ALL
SELECT 'generated column', format('%I.%I.%I', n.nspname, t.relname, a.attname), format('%I.%I', n.nspname, t.relname),
       a.attname, ad.oid, NULL::oid, fold_expression_profiles(ad.adbin, (SELECT f FROM fold_function))
  FROM users u
  JOIN pg_attrdef ad ON u.classid = 'pg_attrdef'::regclass AND ad.oid = u.objid
  JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum AND a.attgenerated = 's'
  JOIN pg_class t ON t.oid = ad.adrelid AND t.relkind = 'r'
  JOIN pg_namespace n ON n.oid = t.relnamespace
UNION ALL
SELECT 'materialized view', format('%I.%I', n.nspname, m.relname), format('%I.%I', n.nspname, m.relname), NULL::name, m.oid,
       pg_relation_filenode(m.oid), fold_expression_profiles(r.ev_action, (SELECT f FROM fold_function))
  FROM users u
  JOIN pg_rewrite r ON u.classid = 'pg_rewrite'::regclass AND r.oid = u.objid
  JOIN pg_class m ON m.oid = r.ev_class AND m.relkind = 'm'
  JOIN pg_namespace n ON n.oid = m.relnamespace
UNION ALL
SELECT 'trigger column', format('%I.%I.%I', n.nspname, t.relname, g.args[1]), format('%I.%I', n.nspname, t.relname),
       g.args[1]::name, g.oid, NULL::oid, g.profiles
  FROM (SELECT tg.oid, tg.tgrelid, a.args, fold_config_profiles(fold_config_named(a.args[2])) AS profiles
          FROM pg_trigger tg
         CROSS JOIN LATERAL (SELECT string_to_array(encode(tg.tgargs, 'escape'), '\000') AS args) a
         WHERE tg.tgfoid = 'pg_catalog.tsvector_update_trigger'::regproc
           AND fold_config_named(a.args[2]) IN (SELECT oid FROM fold_configs)) g
  JOIN pg_class t ON t.oid = g.tgrelid AND t.relkind = 'r'
  JOIN pg_namespace n ON n.oid = t.relnamespace
UNION ALL
SELECT b.kind, b.object, b.relation, b.column_name, NULL::oid, NULL::oid, b.profiles
  FROM fold_column_builds b
 WHERE b.kind = 'column'
$$;

-- The event triggers. They never stop a DDL command: a failure to record is a WARNING.

-- After DDL: objects that have no record were built just now, by this library; a refreshed
-- materialized view was computed again just now; a renamed object keeps its record. A trigger
-- column made on a table that has rows gets `unknown`: its values predate the trigger.
CREATE FUNCTION fold_record_builds() RETURNS event_trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, @extschema@, pg_temp
AS $$
DECLARE
    refreshed text[];
    o record;
    is_empty boolean;
BEGIN
    SELECT coalesce(array_agg(c.object_identity), '{}') INTO refreshed
      FROM pg_event_trigger_ddl_commands() c WHERE c.command_tag = 'REFRESH MATERIALIZED VIEW';
    FOR o IN SELECT * FROM fold_objects() LOOP
        IF o.kind IN ('index', 'generated column', 'materialized view') THEN
            UPDATE fold_builds b SET object = o.object, relation = o.relation
             WHERE b.kind = o.kind AND b.objid = o.objid AND b.object <> o.object
               AND NOT EXISTS (SELECT 1 FROM fold_builds x WHERE x.kind = o.kind AND x.object = o.object);
            INSERT INTO fold_builds AS b (kind, object, relation, objid, storage, fingerprints)
            VALUES (o.kind, o.object, o.relation, o.objid, o.storage, fold_fingerprints(o.profiles))
            ON CONFLICT (kind, object) DO UPDATE
               SET objid = EXCLUDED.objid, storage = EXCLUDED.storage, fingerprints = EXCLUDED.fingerprints,
                   recorded_at = now()
             WHERE b.kind = 'materialized view' AND b.object = ANY (refreshed);
        ELSIF o.kind = 'trigger column'
              AND NOT EXISTS (SELECT 1 FROM fold_column_builds c WHERE c.kind = o.kind AND c.object = o.object) THEN
            EXECUTE format('SELECT NOT EXISTS (SELECT FROM %s)', o.relation) INTO is_empty;
            INSERT INTO fold_column_builds (kind, object, relation, column_name, profiles, fingerprints)
            VALUES (o.kind, o.object, o.relation, o.column_name, o.profiles,
                    CASE WHEN is_empty THEN fold_fingerprints(o.profiles) ELSE '{unknown}' END);
        END IF;
    END LOOP;
EXCEPTION WHEN OTHERS THEN
    RAISE WARNING 'fold: could not record the fingerprints of new objects: %', SQLERRM;
END
$$;

CREATE FUNCTION fold_forget_dropped() RETURNS event_trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, @extschema@, pg_temp
AS $$
BEGIN
    DELETE FROM fold_builds b USING pg_event_trigger_dropped_objects() d
     WHERE d.object_identity IN (b.object, b.relation);
    DELETE FROM fold_column_builds b USING pg_event_trigger_dropped_objects() d
     WHERE d.object_identity IN (b.object, b.relation);
EXCEPTION WHEN OTHERS THEN
    RAISE WARNING 'fold: could not forget dropped objects: %', SQLERRM;
END
$$;

CREATE EVENT TRIGGER fold_record_builds ON ddl_command_end
    WHEN TAG IN ('CREATE INDEX', 'ALTER INDEX', 'CREATE TABLE', 'CREATE TABLE AS', 'SELECT INTO', 'ALTER TABLE',
                 'CREATE MATERIALIZED VIEW', 'ALTER MATERIALIZED VIEW', 'REFRESH MATERIALIZED VIEW',
                 'CREATE TRIGGER', 'ALTER SCHEMA')
    EXECUTE FUNCTION fold_record_builds();
CREATE EVENT TRIGGER fold_forget_dropped ON sql_drop
    EXECUTE FUNCTION fold_forget_dropped();

-- What to rebuild: every stored fold built with fingerprints other than the running library's,
-- with the command that rebuilds it. It also brings the records up to date: an index whose
-- storage changed (REINDEX, VACUUM FULL) since its record was rebuilt by the library running
-- now if the library has not changed since this function last ran; if it has, the rebuild may
-- have used either, and the index is listed (`unknown`) until it is rebuilt again.
CREATE FUNCTION fold_stale_indexes(
    OUT kind text, OUT object text, OUT built_with text[], OUT running text[], OUT reason text, OUT fix text)
RETURNS SETOF record
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, @extschema@, pg_temp
AS $$
DECLARE
    library text[] := fold_library_fingerprints();
    unchanged boolean;
    o record;
    r record;
BEGIN
    SELECT l.fingerprints = library INTO unchanged FROM fold_library l;
    unchanged := coalesce(unchanged, false);
    -- Records of objects that are gone (a trigger column whose trigger was dropped, say).
    DELETE FROM fold_builds b
     WHERE NOT EXISTS (SELECT 1 FROM fold_objects() x WHERE x.kind = b.kind AND x.object = b.object);
    DELETE FROM fold_column_builds b
     WHERE b.kind = 'trigger column'
       AND NOT EXISTS (SELECT 1 FROM fold_objects() x WHERE x.kind = b.kind AND x.object = b.object);
    FOR o IN SELECT * FROM fold_objects() ORDER BY 1, 2 LOOP
        kind := o.kind;
        object := o.object;
        running := fold_fingerprints(o.profiles);
        reason := NULL;
        IF o.kind IN ('trigger column', 'column') THEN
            SELECT c.fingerprints INTO built_with FROM fold_column_builds c WHERE c.kind = o.kind AND c.object = o.object;
            IF NOT FOUND THEN
                built_with := '{unknown}';
                INSERT INTO fold_column_builds (kind, object, relation, column_name, profiles, fingerprints)
                VALUES (o.kind, o.object, o.relation, o.column_name, o.profiles, built_with);
            END IF;
            IF built_with = running THEN
                CONTINUE;
            END IF;
            reason := CASE WHEN built_with = '{unknown}' THEN 'its values may predate its fingerprint''s record'
                           ELSE 'its values were computed by another library' END;
        ELSE
            SELECT * INTO r FROM fold_builds b WHERE b.kind = o.kind AND b.object = o.object;
            IF NOT FOUND THEN
                built_with := '{unknown}';
                reason := 'no fingerprint was recorded when it was built';
                INSERT INTO fold_builds (kind, object, relation, objid, storage, fingerprints)
                VALUES (o.kind, o.object, o.relation, o.objid, o.storage, built_with);
            ELSIF o.storage IS DISTINCT FROM r.storage THEN
                IF unchanged THEN
                    UPDATE fold_builds SET objid = o.objid, storage = o.storage, fingerprints = running, recorded_at = now()
                     WHERE fold_builds.kind = o.kind AND fold_builds.object = o.object;
                    CONTINUE;
                END IF;
                built_with := '{unknown}';
                reason := 'rebuilt since its record, by a library that may not be this one (the library changed since fold_stale_indexes() last ran)';
                UPDATE fold_builds SET objid = o.objid, storage = o.storage, fingerprints = built_with, recorded_at = now()
                 WHERE fold_builds.kind = o.kind AND fold_builds.object = o.object;
            ELSIF r.fingerprints = running THEN
                CONTINUE;
            ELSE
                built_with := r.fingerprints;
                reason := CASE WHEN r.fingerprints = '{unknown}' THEN 'not rebuilt since it was found of unknown fingerprint'
                               ELSE 'built with another library' END;
            END IF;
        END IF;
        fix := CASE o.kind
            WHEN 'index' THEN format('REINDEX INDEX CONCURRENTLY %s;', o.object)
            WHEN 'materialized view' THEN format('REFRESH MATERIALIZED VIEW %s;', o.object)
            WHEN 'generated column' THEN format('SELECT %s(%L);', '@extschema@.fold_recompute', o.relation)
            WHEN 'trigger column' THEN format('SELECT %s(%L);', '@extschema@.fold_recompute', o.relation)
            ELSE format('-- compute %s again as your application fills it, then: SELECT %s(%L, %L);',
                        o.object, '@extschema@.fold_mark_rebuilt', o.relation, o.column_name)
        END;
        RETURN NEXT;
    END LOOP;
    INSERT INTO fold_library AS l (singleton, fingerprints) VALUES (true, library)
    ON CONFLICT (singleton) DO UPDATE SET fingerprints = EXCLUDED.fingerprints, checked_at = now();
END
$$;
COMMENT ON FUNCTION fold_stale_indexes() IS
    'Indexes, generated columns, materialized views and tsvector columns built with a Fold fingerprint other than the running library''s, with the command that rebuilds each';

-- A relation's schema-qualified, quoted name, as the build records name it (the functions below
-- look their rows up by it).
CREATE FUNCTION fold_relation_name(rel regclass) RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT format('%I.%I', n.nspname, c.relname)
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = rel
$$;

-- Computes a table's generated and trigger-kept fold columns again (an UPDATE of every row,
-- which a table rewrite would cost too) and records them as built by the running library.
CREATE FUNCTION fold_recompute(rel regclass) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, @extschema@, pg_temp
AS $$
DECLARE
    identity text;
    first_column name;
    updated bigint;
BEGIN
    identity := fold_relation_name(rel);
    SELECT a.attname INTO first_column FROM pg_attribute a
     WHERE a.attrelid = rel AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
     ORDER BY a.attnum LIMIT 1;
    EXECUTE format('UPDATE %s SET %I = %I', identity, first_column, first_column);
    GET DIAGNOSTICS updated = ROW_COUNT;
    UPDATE fold_builds b SET fingerprints = fold_fingerprints(o.profiles), recorded_at = now()
      FROM fold_objects() o
     WHERE o.kind = 'generated column' AND b.kind = o.kind AND b.object = o.object AND o.relation = identity;
    UPDATE fold_column_builds b SET fingerprints = fold_fingerprints(o.profiles), recorded_at = now()
      FROM fold_objects() o
     WHERE o.kind = 'trigger column' AND b.kind = o.kind AND b.object = o.object AND o.relation = identity;
    RETURN updated;
END
$$;
COMMENT ON FUNCTION fold_recompute(regclass) IS
    'Computes a table''s generated and trigger-kept fold columns again (UPDATE of every row) and records the running fingerprints';

-- A tsvector (or folded text) column the application fills itself: registered with the profiles
-- it folds with, as computed by the running library.
CREATE FUNCTION fold_track_column(rel regclass, column_name name, profiles text[] DEFAULT '{search}') RETURNS void
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, @extschema@, pg_temp
AS $$
DECLARE
    identity text;
BEGIN
    identity := fold_relation_name(rel);
    IF NOT EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = rel AND a.attname = fold_track_column.column_name AND NOT a.attisdropped) THEN
        RAISE EXCEPTION 'column "%" of relation % does not exist', fold_track_column.column_name, identity
            USING ERRCODE = 'undefined_column';
    END IF;
    PERFORM fold_fingerprint(p) FROM unnest(profiles) p;  -- 22023 for an unknown profile
    INSERT INTO fold_column_builds (kind, object, relation, column_name, profiles, fingerprints)
    VALUES ('column', format('%s.%I', identity, fold_track_column.column_name), identity, fold_track_column.column_name,
            (SELECT array_agg(lower(p)) FROM unnest(profiles) p), fold_fingerprints(profiles))
    ON CONFLICT (kind, object) DO UPDATE SET profiles = EXCLUDED.profiles, fingerprints = EXCLUDED.fingerprints,
                                            recorded_at = now();
END
$$;

-- After the application computed a tracked column again (or a trigger column some other way).
CREATE FUNCTION fold_mark_rebuilt(rel regclass, column_name name) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, @extschema@, pg_temp
AS $$
DECLARE
    identity text;
BEGIN
    identity := fold_relation_name(rel);
    UPDATE fold_column_builds b SET fingerprints = fold_fingerprints(b.profiles), recorded_at = now()
     WHERE b.relation = identity AND b.column_name = fold_mark_rebuilt.column_name;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'fold: %.% is not a tracked column', identity, fold_mark_rebuilt.column_name
            USING ERRCODE = 'undefined_object';
    END IF;
END
$$;

-- The bookkeeping is the database owner's business: these run as the extension's owner.
REVOKE ALL ON FUNCTION fold_stale_indexes() FROM PUBLIC;
REVOKE ALL ON FUNCTION fold_expression_profiles(pg_node_tree, regprocedure) FROM PUBLIC;
REVOKE ALL ON FUNCTION fold_objects() FROM PUBLIC;
REVOKE ALL ON FUNCTION fold_recompute(regclass) FROM PUBLIC;
REVOKE ALL ON FUNCTION fold_track_column(regclass, name, text[]) FROM PUBLIC;
REVOKE ALL ON FUNCTION fold_mark_rebuilt(regclass, name) FROM PUBLIC;
REVOKE ALL ON FUNCTION fold_record_builds() FROM PUBLIC;
REVOKE ALL ON FUNCTION fold_forget_dropped() FROM PUBLIC;
