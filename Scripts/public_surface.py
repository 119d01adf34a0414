#!/usr/bin/env python3
"""Counts each module's declared surface: the declarations marked `public` (or `open`), which a user
of the package sees, and those marked `package`, which only the package's own targets see.

    Scripts/public_surface.py [--json] [REPOSITORY]   (REPOSITORY: a checkout; by default this one)

It reads Sources/<target>/**/*.swift as text, one declaration a line: a line whose first words are
attributes, modifiers and then `public`/`open`/`package` followed by a declaration keyword (func,
var, let, init, subscript, struct, enum, class, actor, protocol, typealias, case, extension, ...).
`public extension` counts once. A rough census, not a compiler's: it tracks the surface's size
from one commit to the next."""
import json
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
KEYWORDS = r"(?:func|var|let|init|subscript|struct|enum|class|actor|protocol|typealias|case|extension|associatedtype|macro|deinit)"
DECLARATION = re.compile(r"^\s*(?:@[\w.()\"*:, ]+\s+)*(?:(?:final|static|override|nonisolated|mutating|nonmutating|convenience|required|indirect|lazy|weak|unowned|dynamic|borrowing|consuming|__consuming)\s+)*"
                         r"(public|open|package)(?:\(set\))?\s+(?:(?:final|static|override|nonisolated|mutating|convenience|required|indirect|lazy|weak|unowned|dynamic|private\(set\)|internal\(set\)|fileprivate\(set\)|package\(set\))\s+)*"
                         + KEYWORDS + r"\b")


def census(root):
    sources = os.path.join(root, "Sources")
    rows = {}
    for target in sorted(os.listdir(sources)):
        counts = {"public": 0, "package": 0}
        for folder, _, files in os.walk(os.path.join(sources, target)):
            for name in files:
                if not name.endswith(".swift"):
                    continue
                with open(os.path.join(folder, name), encoding="utf-8") as handle:
                    for line in handle:
                        match = DECLARATION.match(line)
                        if match:
                            counts["package" if match.group(1) == "package" else "public"] += 1
        if counts["public"] or counts["package"]:
            rows[target] = counts
    return rows


def main():
    folders = [argument for argument in sys.argv[1:] if not argument.startswith("--")]
    rows = census(folders[0] if folders else ROOT)
    if "--json" in sys.argv[1:]:
        print(json.dumps(rows, indent=2, sort_keys=True))
        return
    width = max(len(name) for name in rows)
    print(f"{'module':<{width}}  public  package")
    for name, counts in rows.items():
        print(f"{name:<{width}}  {counts['public']:>6}  {counts['package']:>7}")
    print(f"{'total':<{width}}  {sum(c['public'] for c in rows.values()):>6}  {sum(c['package'] for c in rows.values()):>7}")


if __name__ == "__main__":
    main()
