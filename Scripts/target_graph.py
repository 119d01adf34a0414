#!/usr/bin/env python3
"""Prints the graph of the package's own targets, bottom layer first: each target with the targets
of ours it depends on directly, and the products of other packages it links (in brackets).

    swift package dump-package > /tmp/package.json && Scripts/target_graph.py /tmp/package.json [--tests]

A target's layer is one more than the highest layer among its dependencies (a target with none is
layer 0). Test targets are left out unless --tests is given."""
import json
import sys


def main():
    arguments = [argument for argument in sys.argv[1:] if not argument.startswith("--")]
    if not arguments:
        sys.stderr.write("usage: target_graph.py PACKAGE_DUMP.json [--tests]\n")
        sys.exit(2)
    try:
        with open(arguments[0], encoding="utf-8") as handle:
            package = json.load(handle)
    except (OSError, ValueError) as error:
        sys.stderr.write(f"target_graph: {arguments[0]}: {error}\n")
        sys.exit(2)
    with_tests = "--tests" in sys.argv[1:]
    targets = {target["name"]: target for target in package["targets"]
               if with_tests or target["type"] != "test"}
    ours, products = {}, {}
    for name, target in targets.items():
        ours[name], products[name] = [], []
        for dependency in target.get("dependencies", []):
            for kind in ("byName", "target"):
                if kind in dependency and dependency[kind][0] in targets:
                    ours[name].append(dependency[kind][0])
            if "product" in dependency:
                products[name].append(dependency["product"][0])
    layer = {}

    def depth(name, seen=()):
        if name not in layer:
            layer[name] = 1 + max((depth(other, seen + (name,)) for other in ours[name] if other not in seen), default=-1)
        return layer[name]

    for name in targets:
        depth(name)
    for name in sorted(targets, key=lambda name: (layer[name], name)):
        linked = f" [{', '.join(sorted(products[name]))}]" if products[name] else ""
        print(f"{layer[name]:>2}  {name} -> {', '.join(sorted(ours[name])) or '-'}{linked}")


if __name__ == "__main__":
    main()
