"""Fold's extension in APSW's own SQLite (3.47 or later): the v2 tokenizer and its locale, the
SQL functions, typed diacritics.

Usage: PYTHON-WITH-APSW apsw_locale.py PATH/libFoldSQLiteExtension.so
Prints one line per check: `ok NAME` or `FAIL NAME: got ..., expected ...`; exits 1 on a failure."""
import sys

import apsw

failures = 0


def check(name, got, expected):
    global failures
    if got == expected:
        print(f"ok {name}")
    else:
        failures += 1
        print(f"FAIL {name}: got {got!r}, expected {expected!r}")


db = apsw.Connection(":memory:")
db.enable_load_extension(True)
db.load_extension(sys.argv[1])


def rows(sql, *args):
    return [tuple(r) for r in db.execute(sql, args)]


check("sqlite is APSW's", apsw.sqlite_lib_version() >= "3.47", True)
db.execute("CREATE VIRTUAL TABLE people USING fts5(name, tokenize = 'fold', locale = 1)")
db.execute("INSERT INTO people VALUES (fts5_locale('de', 'Müller')), ('Mueller plain'), (fts5_locale('tr', 'ISPARTA')), ('Isparta plain'), (fts5_locale('xx', 'Őrség')), (fts5_locale('de', 'Mueller German'))")
# Each row is folded with its own locale, each query with its own: a German row and a German
# query fold ue like ü (both to u); a row without a locale keeps ue.
check("de row, de query", rows("SELECT name FROM people WHERE people MATCH fts5_locale('de', 'mueller') ORDER BY rowid"), [("Müller",), ("Mueller German",)])
check("de query with ü", rows("SELECT name FROM people WHERE people MATCH fts5_locale('de', 'Müller') ORDER BY rowid"), [("Müller",), ("Mueller German",)])
check("de rows, query without locale", rows("SELECT name FROM people WHERE people MATCH 'muller' ORDER BY rowid"), [("Müller",), ("Mueller German",)])
check("query without locale keeps ue", rows("SELECT name FROM people WHERE people MATCH 'mueller' ORDER BY rowid"), [("Mueller plain",)])
check("de_AT is German", rows("SELECT name FROM people WHERE people MATCH fts5_locale('de_AT', 'MUELLER') ORDER BY rowid"), [("Müller",), ("Mueller German",)])
# Turkish: ISPARTA folds to ısparta, found by a Turkish query, not by an untailored one.
check("tr row, tr query", rows("SELECT name FROM people WHERE people MATCH fts5_locale('tr', 'ısparta')"), [("ISPARTA",)])
check("tr row, plain query", rows("SELECT name FROM people WHERE people MATCH 'isparta'"), [("Isparta plain",)])
check("unknown locale is the table's fold", rows("SELECT name FROM people WHERE people MATCH 'orseg'"), [("Őrség",)])
check("highlight with locale", rows("SELECT highlight(people, 0, '[', ']') FROM people WHERE people MATCH fts5_locale('de', 'mueller') ORDER BY rowid"), [("[Müller]",), ("[Mueller] German",)])
# The SQL functions in this SQLite.
check("fold()", rows("SELECT fold('Crème Brûlée'), fold('Ærø', 'ascii'), fold(NULL)"), [("creme brulee", "aero", None)])
check("fold_fingerprint()", rows("SELECT substr(fold_fingerprint(), 1, 13)"), [("fold4-search-",)])
try:
    db.execute("SELECT fold('x', 'nope')").fetchall()
    check("bad profile is an error", "no error", "an error")
except apsw.SQLError as e:
    check("bad profile is an error", "valid ones are search, ascii" in str(e), True)
db.execute("CREATE TABLE t (x TEXT, k TEXT GENERATED ALWAYS AS (fold(x)) STORED)")
db.execute("INSERT INTO t(x) VALUES ('Łódź')")
check("generated column", rows("SELECT k FROM t"), [("lodz",)])
# Typed diacritics.
db.execute("CREATE VIRTUAL TABLE words USING fts5(w, tokenize = 'fold search typed_diacritics')")
db.execute("INSERT INTO words VALUES ('carnê'), ('carne'), ('CARNÊ de pagamento')")
check("typed carnê", rows("SELECT w FROM words WHERE words MATCH 'carnê' ORDER BY rowid"), [("carnê",), ("CARNÊ de pagamento",)])
check("untyped carne", rows("SELECT w FROM words WHERE words MATCH 'carne' ORDER BY rowid"), [("carnê",), ("carne",), ("CARNÊ de pagamento",)])
# Snowball after the fold, through the v2 tokenizer: the table's language, and a row's or a
# query's locale picking another (German rows stemmed as German, with German stop words and the
# German tailoring of the fold; English ones as English).
db.execute("CREATE VIRTUAL TABLE docs USING fts5(body, tokenize = 'snowball english stopwords fold', locale = 1)")
db.execute("INSERT INTO docs VALUES ('Running shoes for the lovers'), (fts5_locale('de', 'Die Häuser für alle')), (fts5_locale('de', 'Mueller läuft'))")
check("snowball english stems", rows("SELECT body FROM docs WHERE docs MATCH 'runs'"), [("Running shoes for the lovers",)])
check("snowball prefix beside the stem", rows("SELECT highlight(docs, 0, '[', ']') FROM docs WHERE docs MATCH 'runni*'"), [("[Running] shoes for the lovers",)])
check("snowball de row, de query", rows("SELECT highlight(docs, 0, '[', ']') FROM docs WHERE docs MATCH fts5_locale('de', 'haus')"), [("Die [Häuser] für alle",)])
check("snowball de stop words dropped", rows("SELECT count(*) FROM docs WHERE docs MATCH fts5_locale('de', 'hauser') AND docs MATCH fts5_locale('de', 'fur')"), [(0,)])
check("snowball de tailoring passed on", rows("SELECT body FROM docs WHERE docs MATCH fts5_locale('de', 'müller')"), [("Mueller läuft",)])
db.execute("CREATE VIRTUAL TABLE dv USING fts5vocab(docs, 'row')")
check("snowball vocabulary", [t for (t,) in rows("SELECT term FROM dv ORDER BY term")], ["haus", "hauser", "lauft", "lover", "lovers", "mull", "muller", "run", "running", "shoe", "shoes"])
# A locale of the table's own language: the stop list is folded with that locale's tailoring
# (Swedish keeps å and ö, so på and för are dropped as typed, not only pa and for).
db.execute("CREATE VIRTUAL TABLE sv USING fts5(body, tokenize = 'snowball swedish stopwords fold', locale = 1)")
db.execute("INSERT INTO sv VALUES (fts5_locale('sv', 'Boken på bordet för dig')), ('Boken pa bordet for dig')")
db.execute("CREATE VIRTUAL TABLE svv USING fts5vocab(sv, 'row')")
check("snowball sv stop words under the sv tailoring", [t for (t,) in rows("SELECT term FROM svv ORDER BY term")], ["bok", "boken", "bordet"])
sys.exit(1 if failures else 0)
