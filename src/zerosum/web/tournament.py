"""The tournament page of `zerosum serve --tournament DB`: a tournament's standings as its
games come in (the page asks again every few seconds), and any finished game replayed
move by move on the page's own board drawing, for a class to watch on a projector.

The database is read as `zerosum results` reads it (tournament.store), afresh for each
request, while `zerosum tournament` (or `zerosum class tournament`) may still be writing
to it; nothing here writes. Ratings are the tournament report's (Bradley-Terry). A class
tournament's students are shown by their folder's key (classes.play.entrant_label).
"""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from zerosum.classes.names import entrant_label, labelled
from zerosum.game import InputError, play_line
from zerosum.match import pass_turn
from zerosum.ratings import format_elo
from zerosum.tournament.referee import make_game
from zerosum.tournament.report import Played, ratings
from zerosum.tournament.store import Store
from zerosum.web.sessions import NotFound
from zerosum.web.views import view_of

PAGE = files("zerosum.web") / "static" / "tournament.html"
SCORES = {1.0: "1-0", 0.5: "½-½", 0.0: "0-1"}


def standings(db: str) -> dict[str, Any]:
    """The tournament so far: its game, the standings and every finished game."""
    with Store.existing(db) as store:
        settings, results, jobs = store.settings(), store.results(), store.jobs()
    played = [Played(jobs[n], results[n]) for n in sorted(results)]
    agents = list(settings.agents)
    try:
        rows = [{"name": entrant_label(r.name), "games": r.games, "points": r.points,
                 "elo": format_elo(r.elo),
                 "interval": f"[{format_elo(r.low)}, {format_elo(r.high)}]"}
                for r in ratings(played)]
    except ValueError:  # not every agent linked by games yet: points only
        points = {a: 0.0 for a in agents}
        games = {a: 0 for a in agents}
        for p in played:
            for agent in p.job.agents:
                points[agent] += p.score_of(agent)
                games[agent] += 1
        rows = [{"name": entrant_label(a), "games": games[a], "points": points[a],
                 "elo": "", "interval": ""}
                for a in sorted(agents, key=lambda a: -points[a])]
    rated = {entrant_label(a) for a in agents}
    rows += [{"name": n, "games": 0, "points": 0.0, "elo": "", "interval": ""}
             for n in sorted(rated - {r["name"] for r in rows})]
    return {
        "game": settings.game, "total": settings.total(), "played": len(played),
        "standings": rows,
        "games": [{"number": p.job.number, "first": entrant_label(p.job.agents[0]),
                   "second": entrant_label(p.job.agents[1]),
                   "score": SCORES[p.result.score],
                   "reason": labelled(p.result.reason, p.job.agents),
                   "plies": len(p.result.moves)} for p in reversed(played)],
    }


def replay(db: str, number: int) -> dict[str, Any]:
    """One finished game, a drawing of the board after each of its plies."""
    with Store.existing(db) as store:
        results, jobs = store.results(), store.jobs()
    if number not in results:
        raise NotFound(f"no finished game {number} in this tournament")
    job, result = jobs[number], results[number]
    spec, game = make_game(job)
    state = game.initial_state()
    plies = [{"move": "", "by": "", "note": "the start", "view": view_of(spec, game, state)}]
    for ply, move in enumerate(result.moves, 1):
        by = "opening" if move.by < 0 else entrant_label(job.agents[move.by])
        forfeit = labelled(move.forfeit, job.agents)
        if move.forfeit:
            state = pass_turn(game, state)
            if state is None:
                raise InputError(f"game {number}, move {ply}: a lost turn in a game that "
                                 "cannot pass")
            plies.append({"move": "", "by": by, "note": f"lost its turn: {forfeit}",
                          "view": view_of(spec, game, state)})
            continue
        state, (action,) = play_line(game, state, [move.move], first=ply)
        plies.append({"move": move.move, "by": by, "note": "",
                      "view": view_of(spec, game, state, action)})
    return {"number": number, "first": entrant_label(job.agents[0]),
            "second": entrant_label(job.agents[1]), "score": SCORES[result.score],
            "reason": labelled(result.reason, job.agents), "plies": plies}


def tournament_routes(db: str) -> list[BaseRoute]:
    async def page(request: Request) -> Response:
        return HTMLResponse(PAGE.read_text(encoding="utf-8"))

    async def table(request: Request) -> Response:
        return JSONResponse(standings(db))

    async def game(request: Request) -> Response:
        text = request.path_params["number"]
        if not (text.isascii() and text.isdigit()) or len(text) > 9:
            raise InputError(f"game {text[:20]!r}: not a game's number")
        return JSONResponse(replay(db, int(text)))

    return [Route("/tournament", page), Route("/api/tournament", table),
            Route("/api/tournament/games/{number}", game)]
