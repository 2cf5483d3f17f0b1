"""The web server's memory for the engines' tables: its resident set (VmRSS) over many
short games, and over many sessions each thinking once.

    python bench/web_tables.py [--games 300] [--sessions 200] [--seconds 0.02]
                               [--think 1.0] [--max-rss 4000] [-- SERVE OPTIONS]

Starts a real `zerosum serve` on 127.0.0.1 (a free port; options after `--` go to it,
e.g. `-- --table-memory 64`) and talks to it as the page does, over HTTP and one
WebSocket per session (a small client on wsproto, which uvicorn installs; no browser).

1. Games: `--games` whole games, Connect Four and Max-Connect4 in turn, a seeded random
   player against the game's engine at `--seconds` a move, each game its own session.
2. Sessions: `--sessions` new Connect Four sessions, each asking the engine once for
   `--think` seconds from the start (each search fills its tables), none played again.

The RSS is printed as it goes. Should it pass `--max-rss` MB the phase stops there and
says so (an unbounded server would otherwise take the machine's memory). Run it on two
checkouts (PYTHONPATH=OTHER/src) for a before and after.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import sys
import time
import urllib.request
from collections import deque
from typing import Any

from web_serve import rss_mb, served
from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, CloseConnection, Message, Request, TextMessage

GAMES = ("connect4", "maxconnect4")
MAX_PLIES = 200  # more than either game lasts: a bound, should the server misbehave


class Socket:
    """A WebSocket client, blocking, enough for JSON messages."""

    def __init__(self, url: str, path: str) -> None:
        host, port = url.removeprefix("http://").rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=120)
        self.ws = WSConnection(ConnectionType.CLIENT)
        self.events: deque[Any] = deque()
        self.sock.sendall(self.ws.send(Request(host=f"{host}:{port}", target=path)))
        if not isinstance(self.next(), AcceptConnection):
            raise RuntimeError(f"{path}: not accepted")

    def next(self) -> Any:
        while not self.events:
            data = self.sock.recv(1 << 16)
            self.ws.receive_data(data or None)
            self.events.extend(self.ws.events())
        return self.events.popleft()

    def send(self, message: dict[str, Any]) -> None:
        self.sock.sendall(self.ws.send(Message(data=json.dumps(message))))

    def receive(self) -> dict[str, Any]:
        parts = []
        while True:
            event = self.next()
            if isinstance(event, CloseConnection):
                raise RuntimeError(f"closed: {event.code} {event.reason}")
            if isinstance(event, TextMessage):
                parts.append(event.data)
                if event.message_finished:
                    message: dict[str, Any] = json.loads("".join(parts))
                    return message

    def think(self, seconds: float) -> dict[str, Any]:
        self.send({"type": "think", "player": "engine", "seconds": seconds})
        while True:
            m = self.receive()
            if m["type"] == "result":
                return m
            if m["type"] in ("error", "busy"):
                raise RuntimeError(m["error"])

    def close(self) -> None:
        try:
            self.sock.sendall(self.ws.send(CloseConnection(code=1000)))
        finally:
            self.sock.close()


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        data: dict[str, Any] = json.load(response)
        return data


def play(url: str, game: str, seconds: float, seed: int) -> int:
    """One game, random (first) against the engine; its plies."""
    rng = random.Random(seed)
    s = post(url + "/api/sessions", {"game": game})
    ws = Socket(url, f"/api/sessions/{s['id']}/think")
    try:
        while not s["over"] and len(s["moves"]) < MAX_PLIES:
            if len(s["moves"]) % 2 == 0:
                s = post(f"{url}/api/sessions/{s['id']}/move", {"move": rng.choice(s["legal"])})
            else:
                s = ws.think(seconds)["state"]
    finally:
        ws.close()
    return len(s["moves"])


def main() -> None:
    argv = sys.argv[1:]
    serve_options = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[:argv.index("--")] if "--" in argv else argv
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--sessions", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=0.02, help="the engine's time a move")
    ap.add_argument("--think", type=float, default=1.0, help="each session's one think")
    ap.add_argument("--max-rss", type=float, default=4000.0, metavar="MB")
    args = ap.parse_args(argv)
    began = time.monotonic()
    with served("--max-seconds", str(max(args.seconds, args.think)), *serve_options) as (
            url, pid):
        post(url + "/api/sessions", {"game": "tictactoe"})  # the app loaded
        start = rss_mb(pid)
        print(f"server pid {pid} {' '.join(serve_options)}: {start:.1f} MB at start")
        plies = 0
        for i in range(args.games):
            plies += play(url, GAMES[i % len(GAMES)], args.seconds, i + 1)
            rss = rss_mb(pid)
            if (i + 1) % 50 == 0 or i + 1 == args.games or rss > args.max_rss:
                print(f"  after {i + 1:>3} games ({plies} plies): {rss:7.1f} MB", flush=True)
            if rss > args.max_rss:
                print(f"  stopped: over {args.max_rss:.0f} MB")
                break
        games_end = rss_mb(pid)
        for i in range(args.sessions):
            s = post(url + "/api/sessions", {"game": "connect4"})
            ws = Socket(url, f"/api/sessions/{s['id']}/think")
            try:
                ws.think(args.think)
            finally:
                ws.close()
            rss = rss_mb(pid)
            if (i + 1) % 25 == 0 or i + 1 == args.sessions or rss > args.max_rss:
                print(f"  after {i + 1:>3} sessions thought once: {rss:7.1f} MB", flush=True)
            if rss > args.max_rss:
                print(f"  stopped: over {args.max_rss:.0f} MB")
                break
        end = rss_mb(pid)
    print(f"{args.games} games at {args.seconds} s a move: {start:.1f} -> {games_end:.1f} MB; "
          f"then {args.sessions} sessions thinking {args.think} s once: -> {end:.1f} MB "
          f"({time.monotonic() - began:.0f} s)")


if __name__ == "__main__":
    main()
