#!/usr/bin/env python3
"""What `make docs` checks beyond docc's own warnings (which it treats as errors):

1. Every public symbol a module declares in its sources has a doc comment. docc does not warn
   about a missing one; the symbol graph says which have none. Symbols the compiler synthesizes
   or inherits from the standard library (hashValue, init(rawValue:) of a raw enum, ...) have no
   location in the sources and are not counted.
2. The landing page curates every top-level symbol: docc files the ones a page leaves out under
   topics it generates itself ("generated": true in the rendered page), which is where a reader
   who navigates by task would never look.

Usage: check_docs.py --build-docs .build-docs Fold FoldSQLite
(after the symbol graphs are in .build-docs/graphs/MODULE/ and the archives in
.build-docs/MODULE.doccarchive). Exits 1 with one line per problem.
"""
import argparse
import glob
import json
import os
import sys


def undocumented(graph_dir, module):
    paths = sorted(glob.glob(os.path.join(graph_dir, module + ".symbols.json")) +
                   glob.glob(os.path.join(graph_dir, module + "@*.symbols.json")))
    if not paths:
        return [f"{module}: no symbol graph in {graph_dir}"]
    problems = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            graph = json.load(f)
        for symbol in graph["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            location = symbol.get("location")
            if location is None or "docComment" in symbol:
                continue
            uri = location["uri"]
            source = uri.split("/Sources/", 1)[-1] if "/Sources/" in uri else uri
            line = location["position"]["line"] + 1
            name = "/".join(symbol["pathComponents"])
            problems.append(f"Sources/{source}:{line}: {module}.{name} ({symbol['kind']['displayName']}) has no doc comment")
    return problems


def uncurated(archive, module):
    page = os.path.join(archive, "data", "documentation", module.lower() + ".json")
    if not os.path.exists(page):
        return [f"{module}: no landing page at {page}"]
    with open(page, encoding="utf-8") as f:
        render = json.load(f)
    problems = []
    for section in render.get("topicSections", []):
        if section.get("generated"):
            names = [render["references"].get(r, {}).get("title", r) for r in section.get("identifiers", [])]
            problems.append(f"{module}: the landing page's Topics leave out {', '.join(names)} "
                            f"(docc filed them under '{section.get('title')}')")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-docs", default=".build-docs")
    parser.add_argument("modules", nargs="+")
    args = parser.parse_args()
    problems = []
    for module in args.modules:
        problems += undocumented(os.path.join(args.build_docs, "graphs", module), module)
        problems += uncurated(os.path.join(args.build_docs, module + ".doccarchive"), module)
    for p in problems:
        print(f"check_docs: {p}", file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"check_docs: every public symbol of {', '.join(args.modules)} documented and curated")


if __name__ == "__main__":
    main()
