#!/usr/bin/env python3
"""Fails when a target imports a module it does not declare as a dependency (`make test` runs it).

    Scripts/check_imports.py [--root DIR] [PACKAGE_DUMP.json]

SwiftPM's `--explicit-target-dependency-import-check` catches only an import of a target that is
not among the importer's dependencies at any depth; an import of a dependency's dependency passes
it. This check is stricter: every `import X` (with any attributes: `@testable`, `@_exported`, ...)
in a target's Swift files must name
  * one of the target's own direct dependencies (a target of ours, or a product of another package,
    whose module has the product's name), or
  * a module of the toolchain (the standard library's, Foundation's, the test libraries', the C
    library's).
The manifest is read from `swift package dump-package` (or the JSON file given), so the rule follows
Package.swift as it is. Exit 0: every import is declared; 1: the undeclared ones, one a line, as
`file:line: target T imports M, which it does not declare`; 2: the manifest could not be read."""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ARGUMENTS = sys.argv[1:]
if ARGUMENTS[:1] == ["--root"] and len(ARGUMENTS) > 1:
    ROOT, ARGUMENTS = ARGUMENTS[1], ARGUMENTS[2:]
TOOLCHAIN = {
    "Swift", "_Concurrency", "_StringProcessing", "Synchronization", "Foundation", "FoundationEssentials",
    "FoundationInternationalization", "FoundationNetworking", "FoundationXML", "Dispatch", "Glibc", "Musl",
    "Darwin", "WinSDK", "Android", "Bionic", "os", "Testing", "XCTest", "RegexBuilder", "Distributed",
    "Observation", "CoreFoundation", "SwiftGlibc", "_Differentiation", "Cxx", "CxxStdlib",
}
IMPORT = re.compile(r"^\s*(?:@[\w]+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|class|enum|protocol|typealias|func|let|var)\s+)?([A-Za-z_][\w]*)")


def c99(name):
    return re.sub(r"[^A-Za-z0-9_]", "_", name)


def manifest():
    if ARGUMENTS:
        try:
            with open(ARGUMENTS[0], encoding="utf-8") as handle:
                return json.load(handle)
        except (OSError, ValueError) as error:
            sys.stderr.write(f"check_imports: {ARGUMENTS[0]}: cannot read the manifest: {error}\n")
            sys.exit(2)
    result = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        sys.stderr.write("check_imports: swift package dump-package failed:\n" + result.stderr)
        sys.exit(2)
    return json.loads(result.stdout)


def declared(target):
    names = set()
    for dependency in target.get("dependencies", []):
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                names.add(c99(dependency[kind][0]))
    return names


def folder(target):
    if target.get("path"):
        return os.path.join(ROOT, target["path"])
    base = "Tests" if target["type"] == "test" else "Sources"
    return os.path.join(ROOT, base, target["name"])


def main():
    package = manifest()
    targets = package.get("targets") if isinstance(package, dict) else None
    if not targets:
        # A manifest with no targets would pass every import unread.
        sys.stderr.write("check_imports: the manifest lists no targets, so no import could be checked\n")
        sys.exit(2)
    ours = {c99(target["name"]) for target in targets}
    problems = []
    for target in targets:
        if target["type"] in ("system", "binary", "plugin", "macro"):
            continue
        allowed = declared(target) | TOOLCHAIN | {c99(target["name"])}
        if not os.path.isdir(folder(target)):
            # A folder this check looks for in the wrong place would pass its imports unread.
            problems.append(f"{os.path.relpath(folder(target), ROOT)}: target {target['name']}'s folder does not exist, "
                            "so its imports cannot be checked")
            continue
        for directory, subfolders, files in os.walk(folder(target)):
            subfolders[:] = [name for name in subfolders if not name.startswith(".")]
            for name in sorted(files):
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as handle:
                    for number, line in enumerate(handle, 1):
                        match = IMPORT.match(line)
                        if not match:
                            continue
                        module = match.group(1)
                        if module in allowed:
                            continue
                        # A C module of ours (CFieldKernel, CCurl, ...) or any other module: the same rule.
                        kind = "a target of ours" if module in ours else "a module"
                        problems.append(f"{os.path.relpath(path, ROOT)}:{number}: target {target['name']} imports {module} "
                                        f"({kind}), which it does not declare as a dependency")
    for problem in problems:
        print(problem)
    if problems:
        print(f"check_imports: {len(problems)} undeclared import(s); declare them in Package.swift or remove them")
        sys.exit(1)
    print(f"check_imports: every import of the {len(targets)} targets is declared")


if __name__ == "__main__":
    main()
