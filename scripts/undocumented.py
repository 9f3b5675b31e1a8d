#!/usr/bin/env python3
"""Lists the public symbols of the library targets that carry no doc comment, from the symbol graphs that
`swift package generate-documentation` extracts (.build/<triple>/extracted-symbols/<package>/<Target>/).

A symbol counts when it has a source location in this package (so nothing the compiler synthesizes, such as
`!=` or a memberwise initializer nobody wrote) and no doc comment of its own. Usage:
    scripts/undocumented.py [--summary] Target...
Exit status 1 when any symbol is listed."""
import glob, json, os, sys
from collections import Counter

def undocumented(target):
    paths = glob.glob(f".build/*/extracted-symbols/*/{target}/*.symbols.json")
    if not paths:
        sys.exit(f"no symbol graph for {target}: run scripts/docs.sh first")
    root = os.getcwd()
    seen = set()
    for path in paths:
        for symbol in json.load(open(path))["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            uri = symbol.get("location", {}).get("uri", "")
            if not uri.startswith("file://" + root + "/"):
                continue
            if symbol.get("docComment", {}).get("lines"):
                continue
            file = uri[len("file://" + root + "/"):]
            key = (file, ".".join(symbol["pathComponents"]))
            if key not in seen:
                seen.add(key)
                yield key

def main():
    args = sys.argv[1:]
    summary = "--summary" in args
    targets = [a for a in args if not a.startswith("--")]
    total = 0
    for target in targets:
        found = sorted(undocumented(target))
        total += len(found)
        print(f"{target}: {len(found)} undocumented public symbols")
        if summary:
            for file, count in sorted(Counter(f for f, _ in found).items()):
                print(f"  {file}: {count}")
        else:
            for file, name in found:
                print(f"  {file}: {name}")
    sys.exit(1 if total else 0)

main()
