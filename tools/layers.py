"""Import circles and upward imports of src/zerosum, by the layer order of
docs/architecture.md (bottom up), on the graph tests/test_layers.py builds: every
import, function-local ones included. Prints each upward import, then the counts.

    python tools/layers.py
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Bottom up; a module belongs to the first layer one of whose prefixes it has.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("ground floor", ("zerosum.game", "zerosum.result", "zerosum.stop", "zerosum.kernel",
                      "zerosum.table", "zerosum.convert", "zerosum.fileio", "zerosum.plugins",
                      "zerosum.ratings", "zerosum.extras", "zerosum.native", "zerosum.sandbox",
                      "zerosum.assignments")),
    ("console", ("zerosum.console",)),
    ("search and games", ("zerosum.search", "zerosum.games", "zerosum.logic",
                          "zerosum.localsearch")),
    ("match and running", ("zerosum.match", "zerosum.running", "zerosum.conformance",
                           "zerosum.gamefile", "zerosum.review", "zerosum.explain",
                           "zerosum.svg", "zerosum.reports", "zerosum.ratingplot",
                           "zerosum.learn")),
    ("players", ("zerosum.players", "zerosum.ugi", "zerosum.records", "zerosum.tournament",
                 "zerosum.notebook", "zerosum.widget")),
    ("assignment programs", ("zerosum.frontends",)),
    ("marker and classes", ("zerosum.marker", "zerosum.classes")),
    ("front ends", ("zerosum.cli", "zerosum.web", "zerosum._launch", "zerosum.__main__")),
]


def layer_of(module: str) -> int:
    if module == "zerosum":  # the package's root: its version and REQUIRES, no import
        return 0
    for i, (_, prefixes) in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return i
    raise SystemExit(f"tools/layers.py: {module} is in no layer; add it to LAYERS")


def main() -> int:
    spec = importlib.util.spec_from_file_location("layers_test", ROOT / "tests" / "test_layers.py")
    assert spec is not None and spec.loader is not None
    checker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(checker)
    graph = checker.GRAPH
    upward = sorted(f"{m} ({LAYERS[layer_of(m)][0]}) imports {t} ({LAYERS[layer_of(t)][0]})"
                    for m, targets in graph.items() for t in targets
                    if layer_of(t) > layer_of(m))
    for line in upward:
        print(line)
    cycle = checker.find_cycle(graph)
    print("circle:", " -> ".join(cycle) if cycle else "none")
    print(f"upward imports: {len(upward)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
