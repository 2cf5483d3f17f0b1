"""The catalogue of player kinds: what each game offers, the defaults, the settings'
ranges, and a kind registered from outside appearing in every list and spec."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from zerosum.game import InputError
from zerosum.games.registry import GameSpec, all_games, get_game
from zerosum.match import Agent, Move
from zerosum.players import catalogue
from zerosum.players.agents import EngineAgent, SearchAgent
from zerosum.players.catalogue import (
    Choice,
    PlayerKind,
    Setting,
    default_kind,
    kind_of,
    make_player,
    names_for,
    register,
)
from zerosum.players.spec import agent_from_spec, spec_help
from zerosum.result import Limit

GENERIC = ["random", "minimax", "alphabeta", "depth-limited", "iterative", "mcts"]


def test_each_game_offers_the_generic_kinds_then_its_own() -> None:
    assert names_for(get_game("tictactoe")) == GENERIC
    assert names_for(get_game("connect4")) == [*GENERIC, "engine", "solver"]
    assert names_for(get_game("checkers")) == [*GENERIC, "engine"]
    assert default_kind(get_game("tictactoe")) == "iterative"
    assert default_kind(get_game("connect4")) == "engine"


def test_the_limits_a_kind_understands_and_its_defaults() -> None:
    c4 = get_game("connect4")  # default depth 6
    assert kind_of(c4, "alphabeta").limit(c4, Choice()) == Limit(depth=6)
    assert kind_of(c4, "alphabeta").limit(c4, Choice(depth=0)) == Limit()  # to the end
    assert kind_of(c4, "depth-limited").limit(c4, Choice(depth=3)) == Limit(depth=3)
    with pytest.raises(InputError, match=r"^depth-limited needs a depth of 1 or more$"):
        kind_of(c4, "depth-limited").limit(c4, Choice(depth=0))
    assert kind_of(c4, "iterative").limit(c4, Choice()) == Limit(seconds=1.0)
    assert kind_of(c4, "iterative").limit(c4, Choice(nodes=500)) == Limit(nodes=500)
    # An engine given a depth alone searches by depth; iterative deepening keeps its time.
    assert kind_of(c4, "engine").limit(c4, Choice(depth=8)) == Limit(depth=8)
    assert kind_of(c4, "iterative").limit(c4, Choice(depth=8)) == Limit(depth=8, seconds=1.0)
    assert kind_of(c4, "random").limit(c4, Choice()) == Limit()
    engine = make_player(c4, "engine", Choice(seconds=0.2))
    assert isinstance(engine, EngineAgent) and engine.limit == Limit(seconds=0.2)
    ab = agent_from_spec(c4, "alphabeta")
    assert isinstance(ab, SearchAgent) and ab.limit == Limit(depth=6)
    full = agent_from_spec(get_game("tictactoe"), "alphabeta:depth=0")
    assert isinstance(full, SearchAgent) and full.limit == Limit()


def test_settings_are_read_within_their_ranges() -> None:
    ttt = get_game("tictactoe")
    for text, message in [("minimax:depth=100", "depth must be a whole number from 0 to 99"),
                          ("mcts:time=0", "time must be"),
                          ("mcts:nodes=0", "nodes must be a whole number"),
                          ("random:seed=-1", "seed must be a whole number"),
                          ("depth-limited:depth=0", "depth-limited needs a depth of 1")]:
        with pytest.raises(InputError, match=message):
            agent_from_spec(ttt, text)


class Echo:
    """A stand-in for an external program: plays the first legal move."""

    def __init__(self, command: str, limit: Limit, folder: str = ".") -> None:
        self.name = f"echo:{command}"
        self.command, self.limit, self.folder = command, limit, folder

    def choose(self, game: object, state: object) -> Move:
        return Move(game.actions(state)[0])  # type: ignore[attr-defined]


def test_a_kind_registered_from_outside_is_everywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(catalogue, "KINDS", dict(catalogue.known()))

    def build(spec: GameSpec, limit: Limit, choice: Choice) -> Agent:
        return Echo(choice.argument, limit, **choice.extra)

    folder = Setting("folder", "where the program runs", lambda text, what: text)
    register(PlayerKind("course:echo", "a program, called once a move", build, ("time",),
                        timed=True, argument="COMMAND", own_settings=(folder,),
                        applies=lambda spec: spec.name == "tictactoe"))
    ttt, c4 = get_game("tictactoe"), get_game("connect4")
    agent = agent_from_spec(ttt, "course:echo:./a.out --fast")
    assert isinstance(agent, Echo) and agent.command == "./a.out --fast"
    assert (agent.limit, agent.folder) == (Limit(seconds=1.0), ".")
    agent = agent_from_spec(ttt, "course:echo,time=2,folder=/tmp/x:java Four")
    assert isinstance(agent, Echo) and agent.command == "java Four"
    assert (agent.limit, agent.folder) == (Limit(seconds=2.0), "/tmp/x")
    with pytest.raises(InputError, match=r"'depth=3' is unknown \(settings: time, folder\)"):
        agent_from_spec(ttt, "course:echo,depth=3:java Four")
    assert "course:echo[,SETTING=VALUE...]:COMMAND" in spec_help(ttt)
    assert "course:echo" not in spec_help(c4)
    assert names_for(ttt) == GENERIC  # menus offer only kinds that need no argument
    with pytest.raises(InputError,
                       match=r"give the COMMAND, course:echo\[,SETTING=VALUE...\]:COMMAND$"):
        agent_from_spec(ttt, "course:echo:")
    with pytest.raises(InputError, match="course:echo does not play connect4"):
        agent_from_spec(c4, "course:echo:./a.out")
    with pytest.raises(ValueError, match="registered twice"):
        register(PlayerKind("course:echo", "again", build))


# Where a string names a generic search, a game's own player or random moves, that is
# not a choice made by the kind's name: the explain page's traced textbook functions
# (minimax_search or alphabeta_search, with a tracer) and the N-Queens report's
# configurations.
NOT_KINDS = {"explain.py", "web/explain.py", "reports/nqueens.py"}


def kind_name_tests(tree: ast.AST, names: set[str]) -> list[int]:
    """The lines of `x == "NAME"`, `x != "NAME"` and `x in ("NAME", ...)` tests."""
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        for side in sides:
            strings = [side] if isinstance(side, ast.Constant) else list(side.elts) \
                if isinstance(side, (ast.Tuple, ast.List, ast.Set)) else []
            if any(isinstance(s, ast.Constant) and s.value in names for s in strings):
                lines.append(node.lineno)
    return lines


def test_no_module_chooses_by_a_player_kinds_name() -> None:
    """Which search runs is the kind's (its analyser, unit, cost, limits): no module
    outside the kind's own registration (players/kinds/) tests a kind's name."""
    # The kinds a menu offers (a program's kind, e.g. ugi, is also a protocol's word).
    names = {k.name for k in catalogue.known().values() if k.argument is None}
    src = Path(catalogue.__file__).parent.parent
    found = []
    for path in sorted(src.rglob("*.py")):
        where = path.relative_to(src).as_posix()
        if where.startswith("players/kinds/") or where in NOT_KINDS:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{where}:{line}" for line in kind_name_tests(tree, names)]
    assert found == []


def test_no_module_chooses_by_a_games_name() -> None:
    """What a game can do is declared in its GameSpec (a solver, cells, the course
    programs that play it, ...), or known by its class: no module, a kind's registration
    included, tests a game's name."""
    names = {spec.name for spec in all_games()}
    src = Path(catalogue.__file__).parent.parent
    found = [f"{path.relative_to(src).as_posix()}:{line}" for path in sorted(src.rglob("*.py"))
             for line in kind_name_tests(ast.parse(path.read_text(encoding="utf-8")), names)]
    assert found == []


def test_the_check_finds_a_test_of_a_kinds_name() -> None:
    tree = ast.parse('if a == "mcts" or b in ("x", "minimax"):\n    pass\nc = d == "other"\n')
    assert kind_name_tests(tree, {"mcts", "minimax"}) == [1, 1]


def test_a_search_algorithm_is_one_registration_that_every_front_end_offers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A kind with an analyser (here minimax under another name) is offered in menus and
    specs, made into a player and started as a Running: no other edit."""
    from zerosum.search import minimax

    monkeypatch.setattr(catalogue, "KINDS", dict(catalogue.known()))
    register(PlayerKind("plain", "minimax again", None, ("depth",), fixed_depth=True,
                        analyser=lambda spec, choice: minimax.analyse, title="plain minimax",
                        order=25))
    ttt = get_game("tictactoe")
    assert names_for(ttt) == ["random", "minimax", "plain", *GENERIC[2:]]
    player = agent_from_spec(ttt, "plain:depth=2")
    assert isinstance(player, SearchAgent) and player.limit == Limit(depth=2)
    game = ttt.create()
    with kind_of(ttt, "plain").start(ttt, game, game.initial_state(), Choice(depth=9)) as running:
        depths = [info.depth for info in running]
    result = running.result()
    # Minimax reports no Info while it runs; to the end of tic-tac-toe, 549,946 nodes.
    assert depths == [] and result.value == 0 and result.stats.nodes == 549946
