#!/usr/bin/env python3
"""Writes the word lists of the same-stem check (Tests/FoldPostgresTests/Fixtures/stem-words-LANG.txt)
from three sources, deterministically:

1. Debian's word list for the language (wngerman: /usr/share/dict/ngerman; wamerican:
   /usr/share/dict/american-english): every Nth entry, about 1,500 words.
2. PostgreSQL's stop-word file for the language ($SHAREDIR/tsearch_data/LANG.stop), every word.
3. Hand-picked words with accents, ß, ligatures, capitals, fullwidth and decomposed letters.

The test (StemmingTests.sameStemFixtures) stems each word with PostgreSQL after Fold and compares
with Fixtures/stems-LANG.tsv; FOLD_PG_WRITE_STEMS=1 writes that file instead. Run this script
again only to change the lists: `python3 Postgres/Scripts/make-stem-words.py`.
"""
import os
import subprocess
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "Tests", "FoldPostgresTests", "Fixtures")

HAND_PICKED = {
    "german": [
        "Häuser", "Häusern", "Hauses", "Haus", "Bücher", "Bücherei", "Straße", "Straßen", "Strasse", "STRASSE",
        "STRAẞE", "Müller", "Mueller", "Größe", "größer", "grösste", "Fußball", "Fußgänger", "Mädchen", "Äpfel",
        "Öl", "Öffnung", "Übung", "übernehmen", "Über", "schön", "schöner", "Schönheit", "Zürich", "Köln",
        "Düsseldorf", "Bären", "fährt", "Fahrräder", "gemütlich", "Gemütlichkeit", "Frühstück", "Brötchen",
        "Käse", "Löwe", "Löwen", "Tür", "Türen", "Küche", "Küchen", "Stühle", "Flüsse", "Füße", "Grüße",
        "Maße", "Masse", "aufräumen", "Häuschen", "Dächer", "Wörter", "Wörterbuch", "Geschäft", "Geschäfte",
        "Bäckerei", "Café", "Cafés", "Crème", "Ha\u0308user", "HÄUSER", "ﬂüssig", "Ｆｕßｂａｌｌ", "für", "Fur",
        "über", "hätte", "wäre", "Mütter", "Väter", "Töchter", "Söhne", "Länder", "Ländern", "Universität",
        "Universitäten", "Qualität", "Möglichkeit", "Möglichkeiten", "Gebäude", "Gebäuden", "Verkäufer",
        "Verkäuferin", "Verkäuferinnen", "Gefühl", "Gefühle", "natürlich", "glücklich", "Glück", "Überraschung",
    ],
    "english": [
        "Running", "runs", "ran", "runner", "runners", "shoes", "lovers", "Crème", "brûlée", "café", "cafés",
        "naïve", "naïvety", "résumé", "résumés", "fiancée", "coöperate", "rôle", "façade", "façades", "jalapeño",
        "jalapeños", "piñata", "Zoë", "Noël", "déjà", "soufflé", "entrée", "entrées", "doppelgänger",
        "smörgåsbord", "ﬁnancial", "ＦＵＬＬ", "generalizations", "connection", "connected", "connecting",
        "happiness", "hopefully", "Straße", "Łódź", "Ærø", "cre\u0300me", "RÉSUMÉ", "protégé", "protégés",
        "appliqué", "attaché", "cliché", "clichés", "décor", "élite", "éclair", "éclairs", "exposé", "mêlée",
        "naïveté", "pâté", "touché", "über", "voilà", "crêpe", "crêpes", "señor", "señora", "cañon", "Brontë",
    ],
}

WORD_LISTS = {"german": "/usr/share/dict/ngerman", "english": "/usr/share/dict/american-english"}
PACKAGES = {"german": "wngerman", "english": "wamerican"}


def main():
    def version(package):
        return subprocess.run(["dpkg-query", "-W", "-f", "${Version}", package], capture_output=True, text=True).stdout.strip()

    pg_version = subprocess.run(["pg_config", "--version"], capture_output=True, text=True, check=True).stdout.strip()
    sharedir = subprocess.run(["pg_config", "--sharedir"], capture_output=True, text=True, check=True).stdout.strip()
    os.makedirs(FIXTURES, exist_ok=True)
    for language, path in WORD_LISTS.items():
        if not os.path.exists(path):
            raise SystemExit(f"{path} is missing: apt-get install {PACKAGES[language]}")
        with open(path, encoding="utf-8") as f:
            entries = [line.strip() for line in f if line.strip() and "'" not in line and " " not in line]
        step = max(1, len(entries) // 1500)
        sampled = entries[::step]
        with open(os.path.join(sharedir, "tsearch_data", f"{language}.stop"), encoding="utf-8") as f:
            stop = [line.strip() for line in f if line.strip()]
        words, seen = [], set()
        for source in (HAND_PICKED[language], stop, sampled):
            for word in source:
                if word not in seen:
                    seen.add(word)
                    words.append(word)
        out = os.path.join(FIXTURES, f"stem-words-{language}.txt")
        with open(out, "w", encoding="utf-8") as f:
            f.write(f"# The same-stem check's {language} words, written by Postgres/Scripts/make-stem-words.py: "
                    f"{len(HAND_PICKED[language])} hand-picked, {len(stop)} from PostgreSQL's {language}.stop, "
                    f"{len(sampled)} from Debian's {PACKAGES[language]} {version(PACKAGES[language])} ({os.path.basename(path)}, "
                    f"every {step}th entry); {pg_version}.\n")
            for word in words:
                f.write(word + "\n")
        print(f"{out}: {len(words)} words")


if __name__ == "__main__":
    main()
