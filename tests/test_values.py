"""Values that say what they are: one format_value for every game, results that are
decided or estimates, and engines that take the fastest win and the slowest loss."""

from __future__ import annotations

import contextlib
import functools
import io
import random
import re
from typing import Any

import pytest

from zerosum.game import OUTCOME_BOUNDED, AnyGame, Values, format_value
from zerosum.games.maxconnect4.game import MaxConnect4
from zerosum.games.registry import all_games, get_game
from zerosum.games.tictactoe import TicTacToe
from zerosum.match import Move
from zerosum.players.agents import RandomAgent, engines_of
from zerosum.players.catalogue import searcher, searches
from zerosum.players.text import value_text
from zerosum.result import Limit
from zerosum.search import iterative_deepening_search, mcts_search

TTT = TicTacToe()


def test_one_format_for_every_game() -> None:
    assert format_value(TTT, 1, decided=True, plies=3) == "+1 (X wins in 3 plies)"
    assert format_value(TTT, -1, decided=True, plies=1) == "-1 (O wins in 1 ply)"
    assert format_value(TTT, -1, decided=True) == "-1 (O wins, proven)"  # distance unknown
    assert format_value(TTT, 0, decided=True, plies=9) == "0 (draw in 9 plies)"
    assert format_value(TTT, 0, decided=True) == "0 (draw, proven)"
    assert format_value(TTT, 0.25) == "+0.25 (estimate, good for X)"
    assert format_value(TTT, 0.05) == "+0.05 (estimate, good for X)"  # the band's edge
    assert format_value(TTT, -0.049) == "-0.049 (estimate, about even)"
    assert format_value(TTT, 0) == "0 (estimate, about even)"
    assert format_value(TTT, float("-inf")) == "none yet"
    mc4 = MaxConnect4()  # a score game: points ahead, not wins
    assert format_value(mc4, 3, decided=True) == "+3 (proven: Player 1 ahead by 3)"
    assert format_value(mc4, 3, decided=True, plies=10) == \
        "+3 (proven: Player 1 ahead by 3 after 10 plies)"
    assert format_value(mc4, -1.5) == "-1.5 (estimate: Player 2 ahead)"
    assert format_value(mc4, 0.04) == "+0.04 (estimate: about level)"
    assert format_value(mc4, 0, decided=True) == "0 (proven: level)"


def test_every_game_says_what_its_values_are() -> None:
    for spec in all_games():
        values = spec.create().values
        assert values.kind in ("outcome", "score") and values.lo < 0 < values.hi, spec.name
    assert OUTCOME_BOUNDED.decides(1.0) and not OUTCOME_BOUNDED.decides(0.999)
    assert not Values().decides(5.0)  # unbounded estimates decide nothing


@functools.cache
def distance(state: Any) -> tuple[float, int]:
    """(game value, plies to the end) of a tic-tac-toe position under play that wins
    as fast and loses as slowly as it can (a draw: as long as it lasts)."""
    if TTT.is_terminal(state):
        return TTT.utility(state), 0
    maximize = TTT.is_maxs_turn(state)
    children = [distance(TTT.result(state, a)) for a in TTT.actions(state)]
    best = max(v for v, _ in children) if maximize else min(v for v, _ in children)
    wins = best != 0 and (best > 0) == maximize
    plies = [p for v, p in children if v == best]
    return best, (min(plies) if wins else max(plies)) + 1


def positions(count: int, seed: int = 3) -> list[Any]:
    """Seeded random positions of tic-tac-toe that are won for one side."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        state = TTT.initial_state()
        for _ in range(rng.randrange(2, 7)):
            if TTT.is_terminal(state):
                break
            state = TTT.result(state, rng.choice(TTT.actions(state)))
        if not TTT.is_terminal(state) and distance(state)[0] != 0 and state not in found:
            found.append(state)
    return found


@pytest.mark.parametrize("state", positions(12), ids=lambda s: s[0])
def test_iterative_deepening_takes_the_fastest_win(state: Any) -> None:
    value, plies = distance(state)
    r = iterative_deepening_search(TTT, state, seconds=60)
    assert (r.value, r.decided, r.plies) == (value, True, plies)
    # The move played keeps the value and is one ply shorter (a loss: one ply longer
    # is impossible, so a loser's move also lasts `plies - 1` after it).
    assert distance(TTT.result(state, r.action)) == (value, plies - 1)


def win_in_one(game: AnyGame, state: Any) -> list[Any]:
    return [a for a in game.actions(state)
            if game.is_terminal(s := game.result(state, a)) and game.utility(s) != 0]


def test_no_search_misses_a_win_in_one() -> None:
    # X: 0 1 _ / O O _ / _ _ _ : X wins at 2 at once (and O threatens 5).
    state = ("XX.OO....", "X")
    assert win_in_one(TTT, state) == [2]
    r = iterative_deepening_search(TTT, state, seconds=60)
    assert (r.action, r.value, r.plies) == (2, 1, 1)
    r = mcts_search(TTT, state, simulations=2000, seed=1)
    assert (r.action, r.value, r.decided, r.plies) == (2, 1, True, None)  # proven, no distance


def test_every_agent_answers_the_one_contract() -> None:
    # analyse(game, state, limit, on_info, stop) -> SearchResult, and play -> the move.
    state = ("XX.OO....", "X")
    for agent in (searcher("alphabeta"), searcher("iterative"), searcher("mcts", seed=2),
                  searcher("minimax", depth=3)):
        r = agent.analyse(TTT, state, Limit(seconds=5))
        assert r.action == 2 and agent.play(TTT, state, Limit(seconds=5)) == 2, agent.name
    r = RandomAgent(4).analyse(TTT, state, Limit(depth=1))
    assert r.action in TTT.actions(state) and r.algorithm == "random"
    for spec in all_games():
        for name, engine in engines_of(spec).items():
            assert callable(engine), (spec.name, name)


# --- Every game, every kind of value, in the terminal and in the browser's JSON -------
#
# Each registered game's positions: a proven win (three plies before the end of a seeded
# random game won by one side), a proven draw (or why the game has none), an estimate
# (a shallow search of the start) and MCTS (an estimate from the start, a proof one ply
# before a win). The default player searches (the game's engine, else iterative
# deepening). The truth comes from iterative deepening over the protocol.

OPTIONS: dict[str, dict[str, Any]] = {"checkers": {"size": 4}}  # 4x4: solved, drawn
# Starts where neither a shallow search nor a short MCTS decides anything (MCTS-Solver
# proves the small N-Queens and Take-Stones games within 300 simulations).
OPEN: dict[str, dict[str, Any]] = {"nqueens": {"size": 8, "variation": "2"},
                                   "takestones": {"stones": 40}}
DRAWN = {"connect4": "6351166615313145174444",  # drawn, 20 cells empty: the exact solve
         "checkers": ""}  # the 4x4 start: a draw
NO_DRAWS = {"nqueens": "the parity of the final count decides",
            "takestones": "the last to take wins"}
NUMBER = r"[+-]?[0-9.]+"


def options_of(name: str, proven: bool) -> dict[str, Any]:
    return (OPTIONS if proven else OPEN).get(name, {})


def game_of(name: str, proven: bool = True) -> AnyGame:
    return get_game(name).create(**options_of(name, proven))


def playout(game: AnyGame, seed: int) -> list[Any]:
    rng, state, moves = random.Random(seed), game.initial_state(), []
    while not game.is_terminal(state):
        moves.append(rng.choice(list(game.actions(state))))
        state = game.result(state, moves[-1])
    return moves


def replay(game: AnyGame, moves: list[Any]) -> Any:
    state = game.initial_state()
    for move in moves:
        state = game.result(state, move)
    return state


@functools.cache
def won_line(name: str, before_end: int) -> tuple[str, ...]:
    """The moves (written) of the first seeded random game of `name` won by one side,
    but its last `before_end`."""
    game = game_of(name)
    for seed in range(100):
        moves = playout(game, seed)
        if game.utility(replay(game, moves)) != 0 and len(moves) > before_end:
            return tuple(game.format_move(m) for m in moves[:-before_end])
    raise AssertionError(f"no won game of {name} in 100 seeds")


@functools.cache
def drawn_line(name: str) -> tuple[str, ...]:
    game = game_of(name)
    if name in DRAWN:
        return tuple(DRAWN[name]) if name == "connect4" else ()
    for seed in range(100):
        moves = playout(game, seed)
        if game.utility(replay(game, moves)) == 0:
            return tuple(game.format_move(m) for m in moves[:-2])
    raise AssertionError(f"no drawn game of {name} in 100 seeds")


def position(game: AnyGame, written: tuple[str, ...]) -> Any:
    state = game.initial_state()
    for text in written:
        state = game.result(state, game.parse_move(state, text))
    return state


def win_label(game: AnyGame, winner: str, plies: int | None, proof_only: bool = False) -> str:
    """The label a proven win must have: its winner, and `in N plies` only with N the
    minimax distance (`plies`), else ", proven"."""
    soon = rf"(, proven| in {plies} pl(y|ies))" if plies is not None and not proof_only \
        else ", proven"
    if game.values.kind == "score":
        soon = "" if proof_only else rf"( after {plies or '[0-9]+'} plies)?"
        return rf"{NUMBER} \(proven: {winner} ahead by [0-9.]+{soon}\)"
    return rf"{NUMBER} \({winner} wins{soon}\)"


def estimate_label(game: AnyGame) -> str:
    sides = "|".join(game.players)
    if game.values.kind == "score":
        return rf"{NUMBER} \(estimate: (({sides}) ahead|about level)\)"
    return rf"{NUMBER} \(estimate, (good for ({sides})|about even)\)"


def draw_label(game: AnyGame) -> str:
    if game.values.kind == "score":
        return r"0 \(proven: level( after \d+ plies)?\)"
    return r"0 \(draw( in \d+ plies|, proven)\)"


def analyse_text(name: str, moves: tuple[str, ...], *flags: str,
                 proven: bool = True) -> tuple[str, str]:
    """`zerosum analyse` in the terminal: (its last Info line's value, its summary)."""
    from zerosum.cli import main

    out = io.StringIO()
    options = [f"--{k}={v}" for k, v in options_of(name, proven).items()]
    with contextlib.redirect_stdout(out):
        assert main(["analyse", name, *options, *flags, "--", *moves]) == 0
    lines = out.getvalue().splitlines()
    return lines[-2], lines[-1]


def web_think(name: str, moves: tuple[str, ...], proven: bool = True,
              **request: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The browser's search: its Info messages and its result (JSON)."""
    from starlette.testclient import TestClient

    from zerosum.web.app import create_app

    with TestClient(create_app(max_searches=1, max_seconds=60.0)) as client:
        options = options_of(name, proven)
        sid = client.post("/api/sessions", json={"game": name, "options": options}).json()["id"]
        for text in moves:
            response = client.post(f"/api/sessions/{sid}/move", json={"move": text})
            assert response.status_code == 200, response.text
        with client.websocket_connect(f"/api/sessions/{sid}/think") as ws:
            ws.send_json({"type": "think", **request})
            infos: list[dict[str, Any]] = []
            while True:
                m: dict[str, Any] = ws.receive_json()
                if m["type"] == "info":
                    infos.append(m)
                elif m["type"] in ("result", "error"):
                    assert m["type"] == "result", m
                    return infos, m


GAMES = [spec.name for spec in all_games()]


def player_of(name: str) -> str:
    return next(iter(engines_of(get_game(name))), "iterative")


@pytest.mark.parametrize("name", GAMES)
def test_a_proven_win_says_who_wins_and_never_estimate(name: str) -> None:
    game = game_of(name)
    moves = won_line(name, 3)
    truth = iterative_deepening_search(game, position(game, moves), seconds=60)
    # (A score game's generic search gives no distance: it need not end soonest.)
    assert truth.decided and truth.value != 0
    assert (truth.plies is None) == (game.values.kind == "score")
    winner = game.players[0] if truth.value > 0 else game.players[1]
    label = win_label(game, winner, truth.plies)
    last, summary = analyse_text(name, moves, "--player", player_of(name), "--time", "10")
    assert re.search(rf"^best move .+?: value {label}, depth", summary), summary
    assert re.search(rf" {label} ", last) and "estimate" not in last, last
    infos, result = web_think(name, moves, player=player_of(name), seconds=10)
    assert re.fullmatch(label, result["value"]) and infos[-1]["decided"], result
    assert re.fullmatch(label, infos[-1]["value"]), infos[-1]
    # A textbook search's line is no distance: alpha-beta to the end says "proven".
    _, summary = analyse_text(name, moves, "--player", "alphabeta", "--depth", "0")
    assert re.search(rf"value {win_label(game, winner, None)}, depth end,", summary), summary


@pytest.mark.parametrize("name", GAMES)
def test_a_proven_draw_says_draw(name: str) -> None:
    game = game_of(name)
    if name in NO_DRAWS:  # then no seeded game ends drawn
        assert all(game.utility(replay(game, playout(game, seed))) != 0 for seed in range(50))
        assert re.fullmatch(draw_label(game), format_value(game, 0, decided=True))
        return
    moves = drawn_line(name)
    if name not in DRAWN:  # (those are known draws: tests/test_connect4.py, test_checkers.py)
        truth = iterative_deepening_search(game, position(game, moves), seconds=60)
        assert truth.decided and truth.value == 0
    last, summary = analyse_text(name, moves, "--player", player_of(name), "--time", "10")
    assert re.search(rf"^best move .+?: value {draw_label(game)}, depth", summary), summary
    assert "estimate" not in last, last
    _, result = web_think(name, moves, player=player_of(name), seconds=10)
    assert re.fullmatch(draw_label(game), result["value"]), result


@pytest.mark.parametrize("name", GAMES)
def test_an_estimate_says_estimate(name: str) -> None:
    game = game_of(name, proven=False)
    label = estimate_label(game)
    _, summary = analyse_text(name, (), "--player", player_of(name), "--depth", "2",
                              proven=False)
    assert re.search(rf"^best move .+?: value {label}, depth [12], nodes ", summary), summary
    infos, result = web_think(name, (), proven=False, player=player_of(name), depth=2,
                              seconds=10)
    assert re.fullmatch(label, result["value"]) and not infos[-1]["decided"], result
    assert result["depth_text"] in ("depth 1", "depth 2") and result["unit"] == "nodes"


@pytest.mark.parametrize("name", GAMES)
def test_mcts_reports_simulations_its_tree_depth_and_only_proofs_as_decided(
        name: str) -> None:
    game = game_of(name, proven=False)
    _, summary = analyse_text(name, (), "--player", "mcts", "--nodes", "300", "--seed", "1",
                              proven=False)
    assert re.search(rf"^best move .+?: value {estimate_label(game)}, tree depth [1-9]\d*, "
                     r"simulations 300, time", summary), summary
    assert "depth end" not in summary
    infos, result = web_think(name, (), proven=False, player="mcts", seconds=1)
    assert re.fullmatch(estimate_label(game), result["value"]), result
    assert re.fullmatch(r"tree depth [1-9]\d*", result["depth_text"])
    assert result["unit"] == "simulations" and all(m["unit"] == "simulations" for m in infos)
    # One ply before a won game's end, MCTS-Solver proves the win: decided, no distance.
    game = game_of(name)
    moves = won_line(name, 1)
    truth = iterative_deepening_search(game, position(game, moves), seconds=60)
    winner = game.players[0] if truth.value > 0 else game.players[1]
    label = win_label(game, winner, None, proof_only=True)
    _, summary = analyse_text(name, moves, "--player", "mcts", "--nodes", "5000")
    assert re.search(rf"value {label}, tree depth \d+, simulations \d+,", summary), summary
    _, result = web_think(name, moves, player="mcts", seconds=10)
    assert re.fullmatch(label, result["value"]), result


def test_the_engine_calls_a_weak_solve_win_proven() -> None:
    """The issue's case: after these moves the engine's weak solve proves Yellow's win,
    whose length it does not know. It once showed "-0.999 (estimate, good for Yellow),
    depth end" (and depth 0 on the line above). Both from the side to move: +1 for
    Yellow, and the words say it is Yellow's win."""
    moves = ("4", "4", "4", "4", "3", "2", "5", "6", "3", "3", "5", "3", "5")
    last, summary = analyse_text("connect4", moves, "--time", "5")
    assert last.split()[:5] == ["end", "+1", "(Yellow", "wins,", "proven)"]
    assert summary.startswith("best move 5: value +1 (Yellow wins, proven), depth end, nodes ")
    infos, result = web_think("connect4", moves, player="engine", seconds=5)
    assert (infos[-1]["depth"], infos[-1]["value"], infos[-1]["decided"]) == \
        (None, "+1 (Yellow wins, proven)", True)
    assert (result["value"], result["depth_text"]) == ("+1 (Yellow wins, proven)", "depth end")


def test_records_and_exports_keep_what_a_search_counted() -> None:
    """A record's figures say what the search counted: MCTS's simulations and its tree's
    depth (never "depth end" and "nodes"), through a tournament's stored moves too."""
    from zerosum.match import MoveRecord
    from zerosum.records import figures
    from zerosum.tournament.jobs import GameResult

    game = TTT
    r = searcher("mcts", seed=1).analyse(game, game.initial_state(), Limit(nodes=300))
    assert (r.depth, r.unit, r.stats.nodes) == (r.stats.max_depth, "simulations", 300)
    move = MoveRecord.of(game, Move(r.action, r, 0.25, side=0))
    assert (move.depth, move.nodes, move.unit) == (r.depth, 300, "simulations")
    stored = GameResult.from_json(GameResult(1, 0.5, "Draw", (move,)).to_json()).moves[0]
    assert stored == move
    assert figures(stored, "mcts") == f"mcts: value {value_text(game, r, 0)}, " \
        f"tree depth {r.depth}, 300 simulations, 0.25 s"
    # A result stored before the unit was kept reads as nodes.
    old = '{"fault": null, "moves": [{"by": 0, "depth": 9, "move": "5", "nodes": 549946, ' \
        '"seconds": 1.0, "value": "0 (draw, proven)"}], "number": 1, "reason": "Draw", ' \
        '"score": 0.5, "seconds": 1.0}'
    assert GameResult.from_json(old).moves[0] == MoveRecord("5", 1.0, "0 (draw, proven)", 9,
                                                            549946, 0, "nodes")


@pytest.mark.parametrize("name", GAMES)
def test_no_player_calls_an_estimate_depth_end(name: str) -> None:
    """Every player of every game, from seeded positions: a value that is not decided
    comes with the depth it looked to (depth None means: to the end of the game)."""
    spec = get_game(name)
    game = spec.create()
    players: dict[str, Any] = {name: engine for name, engine in engines_of(spec).items()}
    limits = {"minimax": Limit(depth=2), "alphabeta": Limit(depth=2), "mcts": Limit(nodes=50),
              "depth-limited": Limit(depth=2), "iterative": Limit(seconds=0.1)}
    for kind in [k.name for k in searches()]:
        players[kind] = searcher(kind, seed=1).analyse
    players["random"] = RandomAgent(1).analyse
    for seed in range(3):
        rng, state = random.Random(seed), game.initial_state()
        for _ in range(seed * 3):
            if not game.is_terminal(s := game.result(state, rng.choice(game.actions(state)))):
                state = s
        for kind, analyse in players.items():
            r = analyse(game, state, limits.get(kind, Limit(seconds=0.05)))
            assert r.decided or r.depth is not None, (name, kind, seed, r)
            text = value_text(game, r, 0)
            assert ("estimate" in text) != r.decided or text == "none yet", (kind, text)
