"""The layer crossings of one click of the page (a think: the engine searches and its
move is recorded) and of one tournament game, counted the same way before and after a
change: every distinct (caller module, callee module) pair of zerosum's modules seen
while it runs (sys.setprofile), those whose modules lie in different layers of
tools/layers.py, and of those the ones going up (a call from a lower layer into a
higher one: a callback).

    python tools/crossings.py            # the src/ of this checkout
    PYTHONPATH=OTHER/src python tools/crossings.py
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from layers import LAYERS, layer_of


def module_of(frame: Any) -> str | None:
    name = frame.f_globals.get("__name__", "")
    return name if isinstance(name, str) and name.startswith("zerosum") else None


def recorded(run: Any) -> set[tuple[str, str]]:
    """The pairs of one run, after one unrecorded run (imports and registrations done)."""
    run()
    edges: set[tuple[str, str]] = set()

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event != "call":
            return
        callee, back = module_of(frame), frame.f_back
        caller = module_of(back) if back is not None else None
        if callee and caller and callee != caller:
            edges.add((caller, callee))

    threading.setprofile(profile)
    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
    return edges


def think() -> None:
    from starlette.testclient import TestClient

    from zerosum.web.app import create_app

    with TestClient(create_app()) as client:
        sid = client.post("/api/sessions", json={"game": "connect4"}).json()["id"]
        with client.websocket_connect(f"/api/sessions/{sid}/think") as ws:
            ws.send_json({"type": "think", "player": "iterative", "seconds": 0.3})
            while ws.receive_json()["type"] != "result":
                pass


def tournament_game() -> None:
    from zerosum.tournament.jobs import GameJob
    from zerosum.tournament.referee import play_game

    play_game(GameJob(number=0, game="tictactoe", agents=("alphabeta:depth=2",
                                                          "iterative:time=0.05"),
                      seeds=(1, 2)))


def report(what: str, edges: set[tuple[str, str]]) -> None:
    crossing = sorted((a, b) for a, b in edges if layer_of(a) != layer_of(b))
    up = [(a, b) for a, b in crossing if layer_of(b) > layer_of(a)]
    print(f"{what}: {len(edges)} module pairs, {len(crossing)} cross layers, "
          f"{len(up)} of them upward")
    for a, b in up:
        print(f"  up: {a} ({LAYERS[layer_of(a)][0]}) -> {b} ({LAYERS[layer_of(b)][0]})")


if __name__ == "__main__":
    report("the page's think", recorded(think))
    report("a tournament game", recorded(tournament_game))
