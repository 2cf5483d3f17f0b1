"""The layers of docs/architecture.md, checked on the source: every import of every
module of src/zerosum (at any level, function-local ones included) is an edge of the
module import graph, and the graph must keep the rules below."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

import zerosum

SRC = Path(zerosum.__file__).parent

GROUND_FLOOR = {
    "zerosum.game", "zerosum.result", "zerosum.stop", "zerosum.kernel", "zerosum.table",
    "zerosum.convert", "zerosum.fileio", "zerosum.plugins", "zerosum.ratings",
    "zerosum.extras", "zerosum.native", "zerosum.sandbox",
}
# A front end's `if __name__ == "__main__":` block may import this (the pointer to the
# command, which needs the table of assignments): it runs only when the module is the
# program itself, and the table imports no program.
MAIN_BLOCK_ALLOWED = {"zerosum.assignments"}
# What starts the `zerosum` command and every launcher: it reaches the command line only
# to run it, and the front ends read its Python version requirement.
ENTRY = "zerosum._launch"

Graph = dict[str, set[str]]


def module_name(path: Path, root: Path = SRC) -> str:
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def all_modules(root: Path = SRC) -> dict[str, Path]:
    return {module_name(p, root): p for p in sorted(root.rglob("*.py"))}


def is_main_block(node: ast.AST) -> bool:
    """`if __name__ == "__main__":`"""
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name)
            and test.left.id == "__name__" and len(test.comparators) == 1
            and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value == "__main__")


def imported_names(module: str, is_package: bool, tree: ast.AST) -> Iterable[tuple[str, bool]]:
    """(dotted name, inside a __main__ block) of every import in `tree`; for
    `from a import b` both `a.b` and `a` (the caller keeps whichever is a module). A
    `KernelSpec("module", ...)` counts as an import of its module, which it imports
    when the engine first plays."""
    in_main = {id(n) for block in ast.walk(tree) if is_main_block(block)
               for n in ast.walk(block)}
    for node in ast.walk(tree):
        main = id(node) in in_main
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, main
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package of this module
                package = module.split(".")
                package = package if is_package else package[:-1]
                package = package[: len(package) - node.level + 1]
                base = ".".join([*package, base] if base else package)
            for alias in node.names:
                yield f"{base}.{alias.name}|{base}", main
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "KernelSpec" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            yield node.args[0].value, main


def resolve(name: str, modules: Iterable[str]) -> str | None:
    """The module an imported name refers to, None outside zerosum."""
    known = set(modules)
    candidates = name.split("|")
    if candidates[-1].split(".")[0] != "zerosum":
        return None
    for candidate in candidates:
        if candidate in known:
            return candidate
    raise AssertionError(f"import of {candidates[-1]}, which is no module of src/zerosum")


def build_graph(sources: dict[str, tuple[str, bool]]) -> tuple[Graph, Graph, Graph]:
    """From {module: (source text, is a package)}: the import graph, the imports of the
    standard library and others outside zerosum, and the __main__-block imports."""
    graph: Graph = {m: set() for m in sources}
    outside: Graph = {m: set() for m in sources}
    main_only: Graph = {m: set() for m in sources}
    for module, (text, is_package) in sources.items():
        for name, main in imported_names(module, is_package, ast.parse(text)):
            target = resolve(name, sources)
            if target is None:
                outside[module].add(name.split("|")[-1].split(".")[0])
            elif main:
                main_only[module].add(target)
            elif target != module:
                graph[module].add(target)
    return graph, outside, main_only


def find_cycle(graph: Graph) -> list[str] | None:
    """One cycle of the graph as a path [a, b, ..., a], or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def in_package(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def violations(graph: Graph, layer: str, forbidden: Iterable[str]) -> list[str]:
    return sorted(f"{m} imports {t}" for m, targets in graph.items() if in_package(m, layer)
                  for t in targets if any(in_package(t, f) for f in forbidden))


def read_sources() -> dict[str, tuple[str, bool]]:
    return {m: (p.read_text(encoding="utf-8"), p.name == "__init__.py")
            for m, p in all_modules().items()}


GRAPH, OUTSIDE, MAIN_ONLY = build_graph(read_sources())


# ----------------------------------------------------- the checker checks itself


def test_the_graph_holds_known_edges_top_level_and_function_local() -> None:
    assert "zerosum.game" in GRAPH["zerosum.search.alphabeta"]
    # Named by the KernelSpec, loaded only when the engine plays.
    assert "zerosum.games.maxconnect4.engine" in GRAPH["zerosum.games.maxconnect4.game"]
    # Imported inside a method (Connect4.evaluate).
    assert "zerosum.games.connect4.engine" in GRAPH["zerosum.games.connect4.game"]
    assert "zerosum.cli" in GRAPH["zerosum._launch"]  # inside zerosum_main
    assert "zerosum.assignments" in MAIN_ONLY["zerosum.frontends.uta_logic"]
    assert "zerosum.assignments" not in GRAPH["zerosum.frontends.uta_logic"]
    assert {"argparse", "sys"} <= OUTSIDE["zerosum.console"]
    assert len(GRAPH) > 60


def test_the_checker_finds_a_cycle_and_a_forbidden_import() -> None:
    sources = {
        "zerosum": ("", True),
        "zerosum.games": ("", True),
        "zerosum.games.g": ("def f():\n    from zerosum.search import s\n", False),
        "zerosum.search": ("from . import s\n", True),
        "zerosum.search.s": ("from ..games import g\nimport json\n", False),
    }
    graph, outside, _ = build_graph(sources)
    assert graph["zerosum.search.s"] == {"zerosum.games.g"}  # relative, resolved
    assert outside["zerosum.search.s"] == {"json"}
    assert find_cycle(graph) == ["zerosum.games.g", "zerosum.search.s", "zerosum.games.g"]
    assert violations(graph, "zerosum.games", ["zerosum.search"]) == [
        "zerosum.games.g imports zerosum.search.s"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    with pytest.raises(AssertionError, match=r"zerosum\.search\.gone"):
        build_graph({"zerosum": ("import zerosum.search.gone\n", True)})


# ---------------------------------------------------------------------- the rules


def test_no_two_modules_import_each_other() -> None:
    cycle = find_cycle(GRAPH)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def floors(graph: Graph) -> Graph:
    """The graph of zerosum's packages and top-level modules (zerosum.marker,
    zerosum.players, zerosum.ugi, ...), the entry point left out."""
    out: Graph = {}
    for module, targets in graph.items():
        here = ".".join(module.split(".")[:2])
        for target in targets:
            there = ".".join(target.split(".")[:2])
            if here != there and ENTRY not in (here, there):
                out.setdefault(here, set()).add(there)
    return out


@pytest.mark.parametrize("package", ["zerosum.marker", "zerosum.frontends", "zerosum.players",
                                     "zerosum.sandbox", "zerosum.assignments", "zerosum.cli"])
def test_the_marker_and_its_programs_stand_in_floors(package: str) -> None:
    """Not even through their modules does a package reach itself: the command line
    above the marker, the marker above the front ends (its reference programs), the
    front ends above the players (the course programs among them), all above the
    sandbox."""
    graph = floors(GRAPH)
    seen: set[str] = set()
    todo = list(graph.get(package, ()))
    while todo:
        here = todo.pop()
        if here not in seen:
            seen.add(here)
            todo.extend(graph.get(here, ()))
    assert package not in seen, find_cycle({k: v for k, v in graph.items()})
    assert find_cycle(floors({"zerosum.a.x": {"zerosum.b.y"}, "zerosum.b.z": {"zerosum.a.w"}}))


def test_nothing_below_the_command_line_imports_it() -> None:
    users = sorted(m for m, targets in GRAPH.items()
                   if not in_package(m, "zerosum.cli") and m != ENTRY
                   and any(in_package(t, "zerosum.cli") for t in targets | MAIN_ONLY[m]))
    assert users == []


def test_the_sandbox_stands_on_the_ground_floor() -> None:
    """zerosum.sandbox, shared by the marker, the course programs and the class commands."""
    assert GRAPH["zerosum.sandbox"] <= GROUND_FLOOR, GRAPH["zerosum.sandbox"]
    assert OUTSIDE["zerosum.sandbox"] <= sys.stdlib_module_names
    assert "zerosum.sandbox" in GRAPH["zerosum.players.programs"]
    assert "zerosum.sandbox" in GRAPH["zerosum.marker.check"]


@pytest.mark.parametrize(("layer", "forbidden"), [
    ("zerosum.games", ["zerosum.search", "zerosum.cli", "zerosum.frontends", "zerosum.players",
                        "zerosum.match"]),
    ("zerosum.search", ["zerosum.games", "zerosum.cli", "zerosum.frontends"]),
    ("zerosum.cli", ["zerosum.frontends"]),
    ("zerosum.frontends", ["zerosum.cli"]),
    ("zerosum.web", ["zerosum.cli", "zerosum.frontends"]),
    ("zerosum.classes", ["zerosum.cli", "zerosum.web"]),
])
def test_layers_import_only_downwards(layer: str, forbidden: list[str]) -> None:
    assert violations(GRAPH, layer, forbidden) == []


@pytest.mark.parametrize("layer", ["zerosum.games", "zerosum.search"])
def test_games_and_search_stand_on_the_ground_floor_only(layer: str) -> None:
    above = sorted(f"{m} imports {t}" for m, targets in GRAPH.items() if in_package(m, layer)
                   for t in targets if not in_package(t, layer) and t not in GROUND_FLOOR)
    assert above == []


@pytest.mark.parametrize("module", sorted(GROUND_FLOOR))
def test_the_ground_floor_needs_only_the_standard_library(module: str) -> None:
    assert GRAPH[module] <= GROUND_FLOOR, f"{module} imports {GRAPH[module] - GROUND_FLOOR}"
    assert OUTSIDE[module] <= sys.stdlib_module_names, OUTSIDE[module]


def test_the_console_stands_on_the_ground_floor() -> None:
    assert GRAPH["zerosum.console"] <= GROUND_FLOOR, GRAPH["zerosum.console"]
    assert OUTSIDE["zerosum.console"] <= sys.stdlib_module_names


def test_only_the_web_layer_needs_the_web_extra() -> None:
    """zerosum.web (Starlette, uvicorn) is an optional extra: only it and the command
    that starts it (cli/serve.py, lazily) may import it or its libraries."""
    users = sorted(m for m, targets in GRAPH.items() if not in_package(m, "zerosum.web")
                   and any(in_package(t, "zerosum.web") for t in targets))
    assert users == ["zerosum.cli.serve"]
    extra = {"starlette", "uvicorn", "httpx", "wsproto"}
    needing = sorted(m for m, names in OUTSIDE.items() if names & extra)
    assert needing == ["zerosum.cli.serve", "zerosum.web.analysis", "zerosum.web.app",
                       "zerosum.web.explain", "zerosum.web.messages", "zerosum.web.sessions",
                       "zerosum.web.socket", "zerosum.web.think", "zerosum.web.tournament",
                       "zerosum.web.training"]


def test_the_web_names_no_game() -> None:
    """What the page shows of a game (its drawing, position strings, record style,
    per-move analysis) is declared in its registration: the web reaches the games only
    through the registry, and the explain page's explicit trees (games.tree)."""
    allowed = {"zerosum.games", "zerosum.games.registry", "zerosum.games.tree"}
    reached = sorted(f"{m} imports {t}" for m, targets in GRAPH.items()
                     if in_package(m, "zerosum.web") for t in targets
                     if in_package(t, "zerosum.games") and t not in allowed)
    assert reached == []
    # Nor by name: no module of the web (nor the records) tests a game's name.
    games = ("tictactoe", "connect4", "maxconnect4", "checkers", "nqueens", "takestones")
    web = [p for m, p in all_modules().items()
           if in_package(m, "zerosum.web") and m != "zerosum.web.explain"]
    named = sorted(f"{p.name}: {g}" for p in [*web, SRC / "records.py"]
                   for g in games if f'"{g}"' in p.read_text(encoding="utf-8"))
    assert named == []


def test_the_running_search_handle_stands_on_the_ground_floor() -> None:
    """zerosum.running, shared by the terminal (players.terminal.Watch), the page and notebooks."""
    assert GRAPH["zerosum.running"] <= GROUND_FLOOR, GRAPH["zerosum.running"]
    assert "zerosum.running" in GRAPH["zerosum.players.terminal"]
    assert "zerosum.running" in GRAPH["zerosum.web.socket"]


def test_main_blocks_import_only_the_pointer_to_the_command() -> None:
    extra = {m: t - MAIN_BLOCK_ALLOWED for m, t in MAIN_ONLY.items() if t - MAIN_BLOCK_ALLOWED}
    assert extra == {}


def reachable(module: str) -> set[str]:
    """Every module `module` imports, directly or through others."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        for target in GRAPH.get(todo.pop(), ()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


@pytest.mark.parametrize("module", ["zerosum.web.app", "zerosum.tournament.referee",
                                    "zerosum.tournament.backends", "zerosum.match",
                                    "zerosum.players.spec", "zerosum.players.catalogue"])
def test_servers_and_workers_import_no_terminal(module: str) -> None:
    """The web server, a tournament's workers and the players they make never load the
    terminal's prompts, its watch or its person (console, players.terminal)."""
    terminal = {"zerosum.console", "zerosum.players.terminal"}
    assert reachable(module) & terminal == set()
    assert not any(in_package(t, "zerosum.cli") or in_package(t, "zerosum.frontends")
                   for t in reachable(module))


def test_the_match_loop_knows_no_player_kind() -> None:
    """zerosum.match stands below the players: it imports the ground floor only."""
    assert GRAPH["zerosum.match"] <= GROUND_FLOOR, GRAPH["zerosum.match"]
