"""The analysis board's figures: every legal move's value in the position shown, and
the value of each position of the game (the value graph), for any game.

One WebSocket per analysis, /api/sessions/{sid}/analysis: the client sends
{"type": "analyse", "seconds": s} (bounded by the server's limit) and gets "started"
(the moves), one "estimate" per move (a shallow search of the game's engine, or of
iterative deepening: a hint, marked as such), then one "move" per move as its value is
proven: by the game's own per-move solver where it declares one (GameSpec.solver's
move_values: Connect Four's, the cheapest first, with a "bound" now and then for a move
in progress: what its score's interval proven so far tells, "draw or better", and the
nodes), else by the generic strong solver (search/solve.py) within SOLVE_BUDGET
positions. Then "done", naming the moves left unproven and why (time's up, with the
budget; stopped; too big for the solver). {"type": "stop"} or closing the socket stops
it. The budget is the time asked for within the server's
`max_seconds`, and only that: the server's node cap bounds a computer's move (a think),
not an analysis, which nothing else would let a person set. The work runs in a
zerosum.running.Running, its messages a Stream the socket reads (web/socket.py, the
base it shares with the think socket), and holds one of the server's search slots,
like a think.

GET /api/sessions/{sid}/history: the value after each move of the line (the solver's
where the whole game from its start fits its budget, else the engine's estimate at
ESTIMATE_DEPTH), decided values marked apart, and the moves that changed a decided
value, in the words of `zerosum review` (review.verdict: "threw a win away: win ->
draw", "turned a draw into a loss: draw -> loss").
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable, Iterator, Mapping
from typing import Any, Protocol

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket

from zerosum.game import AnyGame, InputError, format_value, plies_text, side_to_move
from zerosum.games.registry import GameSpec, MoveValue
from zerosum.kernel import bound_memory
from zerosum.players.agents import ComputerAgent, engines_of
from zerosum.players.catalogue import Choice, make_player
from zerosum.result import InfoSink, Limit
from zerosum.review import Value, Valuer, verdict
from zerosum.running import Running, Stream
from zerosum.search.solve import Solution, TooBig, Unsolvable, solve
from zerosum.stop import SearchStopped, Stop
from zerosum.web.messages import positive
from zerosum.web.socket import SearchSocket

ESTIMATE_DEPTH = 4  # plies of the engine's search under each move: quick, a hint only
DEFAULT_SECONDS = 10.0
SOLVE_BUDGET = 200_000  # positions the generic solver may keep for one analysis (~60 MB)
HISTORY_SECONDS = 3.0  # for the estimates of the value graph of a whole game
HISTORY_BUDGET = 100_000  # positions, when the graph solves the game from its start
HISTORY_ENTRIES = 100_000  # table entries of the engine estimating the graph's values


class Sessions(Protocol):
    """What the analysis needs of the app's server (zerosum.web.sessions.Server)."""

    @property
    def max_seconds(self) -> float: ...
    @property
    def max_nodes(self) -> int: ...
    @property
    def session_entries(self) -> int: ...
    @property
    def sessions(self) -> Mapping[str, Any]: ...

    def acquire(self) -> bool: ...
    def release(self) -> None: ...
    def session(self, sid: str) -> Any: ...


Send = Callable[[dict[str, Any]], None]


def outcome_of(game: AnyGame, mine: float) -> str:
    return "win" if mine > 0 else "loss" if mine < 0 else "draw"


def verdict_words(outcome: str, plies: int | None) -> str:
    """"wins in 3 plies", "draw", "loses (proven)": a move's verdict, from its mover."""
    if outcome == "draw":
        return "draw"
    verb = "wins" if outcome == "win" else "loses"
    return f"{verb} in {plies_text(plies)}" if plies is not None else f"{verb} (proven)"


def move_message(game: AnyGame, state: Any, mv: MoveValue, value: float | None) -> dict[str, Any]:
    """A proven move for the client; `value` its game value from Max's side, if known."""
    sign = 1 if game.is_maxs_turn(state) else -1
    if value is None:
        value = sign * {"win": 1, "draw": 0, "loss": -1}[mv.outcome] * game.values.win
    return {"type": "move", "move": game.format_move(mv.action), "outcome": mv.outcome,
            "plies": mv.plies, "score": mv.score, "verdict": verdict_words(mv.outcome, mv.plies),
            "text": format_value(game, value, decided=True, plies=mv.plies,
                                 side=side_to_move(game, state))}


BOUND_WORDS = {"win": "wins", "loss": "loses", "win or draw": "draw or better",
               "loss or draw": "loss or draw", "draw": "draw", "open": "not proven yet"}


def bound_message(game: AnyGame, mv: MoveValue) -> dict[str, Any]:
    """A move still being proven: what its interval so far tells, in words from its
    mover's side ("draw or better"), the interval and the nodes searched for it."""
    assert mv.interval is not None
    return {"type": "bound", "move": game.format_move(mv.action), "outcome": mv.outcome,
            "words": BOUND_WORDS.get(mv.outcome, mv.outcome), "lo": mv.interval[0],
            "hi": mv.interval[1], "nodes": mv.nodes}


def estimator(spec: GameSpec) -> Callable[..., Any]:
    """The quick search behind an estimate: the game's engine, else iterative deepening."""
    engine = engines_of(spec).get("engine")
    if engine is not None:
        return engine
    agent = make_player(spec, "iterative", Choice(depth=ESTIMATE_DEPTH))
    assert isinstance(agent, ComputerAgent)  # the catalogue's iterative is a search
    return agent.analyse


def estimates(spec: GameSpec, game: AnyGame, state: Any, stop: Stop, send: Send) -> list[Any]:
    """A shallow search under each move; a move whose value it decides is sent as
    proven (and returned), the others as estimates."""
    search = estimator(spec)
    sign = 1 if game.is_maxs_turn(state) else -1
    proven = []
    for action in game.actions(state):
        child = game.result(state, action)
        plies: int | None
        if game.is_terminal(child):
            value, decided, plies = game.utility(child), True, 0
        else:
            result = search(game, child, Limit(depth=ESTIMATE_DEPTH), None, stop)
            value, decided, plies = result.value, result.decided, result.plies
        mine = sign * value
        if decided:
            outcome = outcome_of(game, mine)
            moves = None if plies is None or outcome == "draw" else plies + 1
            send(move_message(game, state, MoveValue(action, outcome, moves), value))
            proven.append(action)
            continue
        send({"type": "estimate", "move": game.format_move(action),
              "value": round(float(mine), 3), "scale": game.values.win,
              "text": format_value(game, value, side=side_to_move(game, state))})
    return proven


def solved_moves(game: AnyGame, state: Any,
                 solution: Solution) -> Iterator[tuple[MoveValue, float]]:
    """Each move's verdict from a generic solution (plies of a draw or a score game's
    line are one line of many: not given)."""
    sign = 1 if game.is_maxs_turn(state) else -1
    for action, solved in solution.move_values(state):
        outcome = outcome_of(game, sign * solved.value)
        plies = solved.plies if game.values.kind == "outcome" and outcome != "draw" else None
        yield MoveValue(action, outcome, plies), solved.value


def stop_words(stop: Stop, seconds: float) -> str:
    """Why an analysis ended before proving every move, in words ("" if it did not stop)."""
    return {"stopped": "stopped", "time": f"time's up ({seconds:g} s)",
            "nodes": f"the node cap ({stop.node_budget or 0:,} nodes)"}.get(stop.reason(), "")


RANK = {"win": 1, "draw": 0, "loss": -1}


def remembering(game: AnyGame, state: Any, memo: dict[Hashable, Value],
                send: Send) -> Send:
    """`send`, and what it proves kept in `memo` (the session's values by game.key, as
    `history` keeps them) so that the value graph and its marks use what the analysis
    proved: each proven move's position, and once every move is proven, this one. Only
    for win/draw/loss games, whose proven value the outcome gives."""
    if game.values.kind != "outcome":
        return send
    sign = 1 if game.is_maxs_turn(state) else -1
    best: list[tuple[int, int]] = []  # (rank for the mover, -plies or plies) per move

    def out(message: dict[str, Any]) -> None:
        if message["type"] == "move":
            rank, plies = RANK[message["outcome"]], message["plies"]
            action = game.parse_move(state, message["move"])
            memo[game.key(game.result(state, action))] = Value(
                sign * rank * game.values.win, True, None if plies is None else plies - 1,
                "analysis")
            best.append((rank, 0 if plies is None else -plies if rank > 0 else plies))
        elif message["type"] == "done" and not message["unproven"] and best:
            memo[game.key(state)] = Value(sign * max(best)[0] * game.values.win, True, None,
                                          "analysis")
        send(message)

    return out


def analyse_moves(spec: GameSpec, game: AnyGame, state: Any, stop: Stop, send: Send,
                  seconds: float = 0.0, memo: dict[Hashable, Value] | None = None) -> None:
    """The whole analysis of one position within `seconds` (see the module's docstring);
    what it proves goes into `memo` too (`remembering`)."""
    if memo is not None:
        send = remembering(game, state, memo, send)
    actions = game.actions(state)
    try:
        proven = estimates(spec, game, state, stop, send)
    except SearchStopped:
        send({"type": "done", "stopped": stop.requested, "why": stop_words(stop, seconds),
              "unproven": [game.format_move(a) for a in actions]})
        return
    left = [a for a in actions if a not in proven]
    why = ""
    try:
        if spec.solver is not None and spec.solver.move_values is not None:
            for mv in spec.solver.move_values(game, state, stop):
                if mv.interval is not None and mv.action in left:
                    send(bound_message(game, mv))
                elif mv.action in left:
                    send(move_message(game, state, mv, None))
                    left.remove(mv.action)
        elif left:
            budget = min(SOLVE_BUDGET, stop.node_budget or SOLVE_BUDGET)
            solution = solve(game, state, budget, stop)
            for mv, value in solved_moves(game, state, solution):
                if mv.action in left:
                    send(move_message(game, state, mv, value))
                    left.remove(mv.action)
    except SearchStopped:
        why = stop_words(stop, seconds) if left else ""
    except TooBig:
        why = f"too big for the solver within {SOLVE_BUDGET:,} positions"
    except Unsolvable:
        why = "the solver cannot follow this game (play may repeat)"
    send({"type": "done", "stopped": stop.requested, "why": why,
          "unproven": [game.format_move(a) for a in left]})


class Analyst(SearchSocket):
    """One analysis socket (see the module's docstring)."""

    request = "analyse"

    def __init__(self, server: Sessions, ws: WebSocket) -> None:
        super().__init__(ws)
        self.server = server

    def find_session(self, sid: str) -> tuple[Any, str]:
        return self.server.sessions.get(sid), "no such session (the server may have restarted)"

    async def start(self, session: Any, request: dict[str, Any]) -> None:
        if self.task is not None and not self.task.done():
            await self.send({"type": "error", "error": "already analysing"})
            return
        try:
            seconds = positive(request.get("seconds", DEFAULT_SECONDS), "seconds")
        except InputError as e:
            await self.send({"type": "error", "error": str(e)})
            return
        if session.game.is_terminal(session.state):
            await self.send({"type": "error", "error": "the game is over"})
            return
        if not self.server.acquire():
            await self.send({"type": "busy", "error": "busy: the server's searches are all "
                             "running; try again in a moment"})
            return
        budget = min(float(seconds), self.server.max_seconds)
        stop = Stop(seconds=budget, check_every=128)  # the time asked for, no node cap
        # A game object of its own: the engine's tables are kept per game object, and
        # the session's may be searching in a think at the same time.
        game = session.spec.create(**session.options)
        bound_memory(game, self.server.session_entries)
        self.begin()
        self.task = asyncio.create_task(self.run(session.spec, game, session.state,
                                                 budget, stop, session.estimates))

    async def run(self, spec: GameSpec, game: AnyGame, state: Any, seconds: float,
                  stop: Stop, memo: dict[Hashable, Value]) -> None:
        try:
            await self.send({"type": "started", "seconds": seconds,
                             "moves": [game.format_move(a) for a in game.actions(state)]})
            messages: Stream[dict[str, Any]] = Stream()

            def work(on_info: InfoSink, stop: Stop) -> None:
                try:
                    analyse_moves(spec, game, state, stop, messages.put, seconds, memo)
                except Exception as e:  # reported to the client in one line
                    messages.put({"type": "error", "error": f"the analysis failed: {e}"})

            self.watch(Running(work, stop, on_done=lambda _: messages.close(),
                               name="zerosum-analysis"))
            async for message in messages:
                await self.send(message)
                if message["type"] in ("done", "error"):
                    # Finished: a client's next "analyse" at once must not find this
                    # task still waiting for the stream to close ("already analysing").
                    return
        finally:
            self.server.release()


def history(spec: GameSpec, game: AnyGame, states: list[Any],
            known: dict[Hashable, Value]) -> list[dict[str, Any]]:
    """Each position's value from Max's side with `decided` and `plies`, in [-1, 1] as
    `bar` (a decided win or loss at the ends), and for each move that changed a decided
    value, `mark` in words: `zerosum review`'s values (review.Valuer, within
    HISTORY_SECONDS) and words. `known` keeps the values between calls (by game.key),
    with what the analysis proved. `game` is a game object of the graph's own (its
    engine's tables are kept per game object)."""
    bound_memory(game, HISTORY_ENTRIES)
    valuer = Valuer(spec, game, HISTORY_BUDGET, ESTIMATE_DEPTH, known=known)
    values = valuer.within(states, Stop(seconds=HISTORY_SECONDS))
    scale = game.values.win if game.values.kind == "outcome" else max(
        [abs(v.value) for v in values if v is not None] + [1.0])
    out: list[dict[str, Any]] = []
    for i, v in enumerate(values):
        entry: dict[str, Any] = {"ply": i, "value": None, "decided": False, "bar": None,
                                 "text": "", "mark": ""}
        if v is not None:
            bar = v.value / scale if scale else 0.0
            if game.values.kind == "outcome" and v.decided:
                bar = (v.value > 0) - (v.value < 0)
            entry.update(value=v.value, decided=v.decided, bar=max(-1.0, min(1.0, bar)),
                         text=v.text(game))
        before = values[i - 1] if i else None
        if v is not None and before is not None:
            entry["mark"] = verdict(before, v, game.is_maxs_turn(states[i - 1])) or ""
        out.append(entry)
    return out


def analysis_routes(server: Sessions) -> list[BaseRoute]:
    """The analysis socket and the value history, over the app's sessions."""

    async def analysis(ws: WebSocket) -> None:
        await Analyst(server, ws).serve()

    async def values(request: Request) -> Response:
        session = server.session(request.path_params["sid"])
        memo = session.estimates
        states = list(session.states)
        game = session.spec.create(**session.options)
        entries = await run_in_threadpool(history, session.spec, game, states, memo)
        return JSONResponse({"values": entries})

    return [WebSocketRoute("/api/sessions/{sid}/analysis", analysis),
            Route("/api/sessions/{sid}/history", values)]
