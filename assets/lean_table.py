#!/usr/bin/env python3
"""Writes the table the binary embeds: IN.json minified, without the provenance text the parser
never reads ("sources" objects, "note"/"notes", the top-level "meta"). The repository's tables
keep all of it, and tests/test_catalog.cpp checks it there; site/sources.html shows it.

Usage: lean_table.py IN.json OUT.json
"""
import json
import sys

DROP = ("sources", "note", "notes")


def lean(v):
    if isinstance(v, dict):
        return {k: lean(x) for k, x in v.items() if k not in DROP}
    if isinstance(v, list):
        return [lean(x) for x in v]
    return v


doc = json.load(open(sys.argv[1], encoding="utf-8"))
doc.pop("meta", None)
with open(sys.argv[2], "w", encoding="utf-8") as f:
    json.dump(lean(doc), f, ensure_ascii=False, separators=(",", ":"))
