"""The browser UI server's memory after many games: its resident set (VmRSS in
/proc/PID/status) before and after 100 whole games played over HTTP and WebSocket.

    python bench/web_memory.py [--games 100] [--seconds 0.02]

Starts a real `zerosum serve` on 127.0.0.1 (a free port). The games alternate between
tic-tac-toe and Connect Four: a random player (a seeded generator, moves POSTed) against
the game's engine at a small time limit (asked for over the session's WebSocket, as the
page does); a headless Chromium page runs them, each game its own session and socket.
Every game is bounded (MAX_PLIES); the server is killed at the end, even on error.
"""

from __future__ import annotations

import argparse
from typing import Any

from web_serve import chromium_page, rss_mb, served

GAMES = ("tictactoe", "connect4")
MAX_PLIES = 200  # more than either game can last: a bound, should the server misbehave

# One whole game in the page: random (first) against `player`; the number of plies.
PLAY = """async ({ name, player, seconds, seed, maxPlies }) => {
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const post = async (path, body) => {
    const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
                                  body: JSON.stringify(body) });
    const data = await r.json();
    if (!r.ok) throw new Error(data.error);
    return data;
  };
  let s = await post("/api/sessions", { game: name });
  const ws = new WebSocket(`ws://${location.host}/api/sessions/${s.id}/think`);
  await new Promise((ok, fail) => { ws.onopen = ok; ws.onerror = fail; });
  let reply = null;
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.type !== "info" && m.type !== "started") reply(m);
  };
  try {
    while (!s.over && s.moves.length < maxPlies) {
      if (s.moves.length % 2 === 0) {
        const move = s.legal[Math.floor(random() * s.legal.length)];
        s = await post(`/api/sessions/${s.id}/move`, { move });
      } else {
        const m = await new Promise((ok) => {
          reply = ok;
          ws.send(JSON.stringify({ type: "think", player, seconds }));
        });
        if (m.type !== "result") throw new Error(m.error);
        s = m.state;
      }
    }
  } finally {
    ws.close();
  }
  return s.moves.length;
}"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=0.02, help="the engine's limit a move")
    args = ap.parse_args()
    with served() as (url, pid), chromium_page() as page:
        page.goto(url + "/")
        players: dict[str, Any] = {g["name"]: g["default_player"]
                                   for g in page.evaluate("fetch('/api/games').then(r => r.json())")
                                   ["games"]}
        start = rss_mb(pid)
        print(f"server pid {pid}: {start:.1f} MB at start (page loaded, no game yet)")
        plies = {name: 0 for name in GAMES}
        for i in range(max(1, args.games)):
            name = GAMES[i % len(GAMES)]
            plies[name] += page.evaluate(PLAY, {"name": name, "player": players[name],
                                                "seconds": args.seconds, "seed": i + 1,
                                                "maxPlies": MAX_PLIES})
            if i + 1 in (10, args.games // 2):
                print(f"after {i + 1:>3} games: {rss_mb(pid):.1f} MB")
        end = rss_mb(pid)
    print(f"after {args.games:>3} games: {end:.1f} MB (+{end - start:.1f} MB)")
    print("games: " + ", ".join(f"{(args.games + (len(GAMES) - 1 - k)) // len(GAMES)} {name} "
                                f"({plies[name]} plies, engine: {players[name]})"
                                for k, name in enumerate(GAMES)))


if __name__ == "__main__":
    main()
