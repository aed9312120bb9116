#!/usr/bin/env python3
"""Checks that Tile's layers stack: every #include "tile/..." in include/,
lib/, tools/ and test/lib/ goes to a strictly lower layer (or stays inside
its own component), so the include graph between components has no cycle.

    scripts/check-layers.py [ROOT]          check; print the component graph
    scripts/check-layers.py [ROOT] --dot    the graph in Graphviz's DOT

Exit status 1, with one line per offending include (file:line), when an
include goes up or sideways. The layers, bottom first (docs/architecture.md
draws the same picture):

    0  Dialect/Tile/IR                  the tile dialect
    1  Dialect/TileGPU/IR,              tilegpu: layouts, shared memory;
       Dialect/Tile/Transforms          tile-dialect rewrites
    2  Analysis                         AxisInfo, Allocation, Membar
    3  Dialect/TileGPU/Transforms,      passes, lowering to LLVM, PTX,
       Conversion, Target,              the front end, the interpreter,
       Frontend, Interpreter, Runtime   the CUDA driver
    4  Registration                     pass pipelines, InitTile.h
    5  Driver                           compile, cache, launch, check, time
    6  API                              the C++ API: include/tile/Tile.h,
                                        lib/API (libtile.so)
    7  tools/*, test/lib                tile-opt, tile-run, tile-compile,
                                        test passes
"""

import os
import re
import sys
from collections import defaultdict

LAYERS = {
    "Dialect/Tile/IR": 0,
    "Dialect/Tile/Transforms": 1,
    "Dialect/TileGPU/IR": 1,
    "Analysis": 2,
    "Dialect/TileGPU/Transforms": 3,
    "Conversion": 3,
    "Target": 3,
    "Frontend": 3,
    "Interpreter": 3,
    "Runtime": 3,
    "Registration": 4,
    "Driver": 5,
    "API": 6,
    "tools": 7,
    "test/lib": 7,
}

INCLUDE = re.compile(r'\s*#\s*include\s+"tile/([^"]+)"')


def component(parts):
    """The component of a path under include/tile/ or lib/, split in parts."""
    if parts[0] == "Dialect":
        return "/".join(parts[:3]) if len(parts) > 3 else "/".join(parts[:2])
    if parts[0] == "InitTile.h":
        return "Registration"
    if parts[0] == "Tile.h":
        return "API"
    return parts[0]


def source_component(rel):
    parts = rel.split("/")
    if parts[0] == "include" and parts[1:2] == ["tile"]:
        return component(parts[2:])
    if parts[0] == "lib":
        return component(parts[1:])
    if parts[0] == "tools":
        return "tools"
    if parts[:2] == ["test", "lib"]:
        return "test/lib"
    return None


def main(argv):
    dot = "--dot" in argv
    args = [a for a in argv[1:] if a != "--dot"]
    root = os.path.abspath(args[0] if args else
                           os.path.join(os.path.dirname(__file__), ".."))
    edges = defaultdict(set)
    violations = []
    unknown = set()
    for top in ("include", "lib", "tools", os.path.join("test", "lib")):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith((".h", ".cpp", ".td")):
                    continue
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                source = source_component(rel)
                if source not in LAYERS:
                    unknown.add(rel)
                    continue
                with open(path, errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        match = INCLUDE.match(line)
                        if not match:
                            continue
                        target = component(match.group(1).split("/"))
                        if target == source:
                            continue
                        if target not in LAYERS:
                            unknown.add(f"{rel}:{number}: tile/{match.group(1)}")
                            continue
                        edges[source].add(target)
                        if LAYERS[target] >= LAYERS[source]:
                            violations.append(
                                f"{rel}:{number}: {source} (layer "
                                f"{LAYERS[source]}) includes tile/"
                                f"{match.group(1)} of {target} (layer "
                                f"{LAYERS[target]})")
    if dot:
        print("digraph layers {\n  rankdir=BT;")
        for source in sorted(edges):
            for target in sorted(edges[source]):
                print(f'  "{source}" -> "{target}";')
        print("}")
    else:
        for source in sorted(edges, key=lambda c: (-LAYERS[c], c)):
            print(f"{source} -> {', '.join(sorted(edges[source]))}")
    for entry in sorted(unknown):
        print(f"{entry}: not in any layer (add it to scripts/check-layers.py)",
              file=sys.stderr)
    for violation in violations:
        print(violation, file=sys.stderr)
    if violations or unknown:
        return 1
    if not dot:
        print(f"layers stack: {sum(len(t) for t in edges.values())} "
              f"component edges, none upward or sideways")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
