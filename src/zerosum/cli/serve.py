"""`zerosum serve`: the browser UI (zerosum.web) on a local web server.

It binds 127.0.0.1 unless told otherwise, and warns when told otherwise: the server
runs searches for whoever reaches it. It needs the `web` extra (Starlette, uvicorn),
imported only when the command runs so that the rest of `zerosum` never needs it.
"""

from __future__ import annotations

import argparse
import ipaddress
import socket
import sys
from typing import Any

from zerosum.convert import int_arg, positive_float
from zerosum.extras import install_hint, source_root
from zerosum.game import InputError
from zerosum.gamefile import GAME_FILE_HELP, NO_CHECK_HELP, load_checked
from zerosum.games.registry import GameSpec, all_games
from zerosum.players.agents import FileAgent
from zerosum.players.spec import agent_from_spec

LOCAL = "127.0.0.1"
TABLE_MEMORY = 256  # MB: zerosum.web.sessions.TABLE_MEMORY (not imported: the extra may be missing)


def missing_web() -> str:
    """What to do when the web extra is missing (`make serve` installs it from a clone)."""
    also = " (or: make serve)" if source_root() is not None else ""
    return f"zerosum serve needs the web extra: {install_hint('web')}{also}"


def register(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help="play and watch the search in a browser (a local web server)",
        description="Start a web server for the browser UI: play every game against any "
        "player and watch its search live. Binds 127.0.0.1 (this machine only) unless "
        "--host says otherwise.",
    )
    p.add_argument("--host", default=LOCAL, help="address to bind (default: %(default)s)")
    p.add_argument("--port", type=int_arg(1, 65535), default=8000,
                   help="port (default: %(default)s)")
    p.add_argument("--max-searches", type=int_arg(1, 64), default=2, metavar="N",
                   help="searches running at once; others are told to wait "
                   "(default: %(default)s)")
    p.add_argument("--max-seconds", type=positive_float, default=10.0, metavar="S",
                   help="longest search, whatever a client asks (default: %(default)s)")
    p.add_argument("--game-file", action="append", default=[], metavar="FILE",
                   help=GAME_FILE_HELP + "; it joins the page's Game menu, after a quick "
                   "check (repeat the option for more)")
    p.add_argument("--no-check", action="store_true", help=NO_CHECK_HELP)
    p.add_argument("--agent", action="append", default=[], metavar="FILE.py[:SETTING=VALUE]",
                   help="your own agent, a file defining make_agent(seed, **settings) (as "
                   "docs/examples/myagent.py; runs the file's code): a player of every game "
                   "in the page (repeat the option for more)")
    p.add_argument("--table-memory", type=int_arg(1, 1 << 20), default=TABLE_MEMORY,
                   metavar="MB", help="memory for all sessions' search tables, about; the "
                   "least recently used are freed first (default: %(default)s)")
    p.add_argument("--train", metavar="FILE.zsnet",
                   help="also watch this training run (zerosum train's weights file, "
                   "which may still be training) at /train: its learning curve, its "
                   "checkpoints' ratings, each move's learned and exact values, and its "
                   "weights as a player of its game")
    p.add_argument("--tournament", metavar="DB",
                   help="also show this tournament's standings, live, and replay its games "
                   "move by move, at /tournament (a database of zerosum tournament or "
                   "zerosum class tournament, which may still be playing)")
    p.set_defaults(func=run)


def own_games_and_agents(game_files: list[str], agents: list[str],
                         check: bool = True) -> tuple[list[GameSpec], list[str]]:
    """The games of --game-file (each checked as `zerosum play --game-file` checks it)
    and the --agent specs, each loaded once now so that a broken file is one line before
    the server starts (InputError)."""
    specs = [load_checked(path, check)[0] for path in game_files]
    any_game = all_games()[0]  # an agent file is made the same way for every game
    for text in agents:
        if not isinstance(agent_from_spec(any_game, text), FileAgent):
            raise InputError(f"--agent {text}: give your own agent's file, "
                             "FILE.py[:SETTING=VALUE,...]; the page offers zerosum's players")
    return specs, [text.strip() for text in agents]


def loopback(host: str) -> bool:
    """Whether `host` is this machine only (127.0.0.1, ::1, localhost, ...)."""
    if host.lower() in ("localhost", "localhost.", "ip6-localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to `host`:`port` and listening, before anything says where: a
    taken port or an address this machine does not have is an InputError (one line)."""
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host.strip("[]"), port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as e:
        raise InputError(f"cannot listen on {where}: unknown host ({reason(e)})") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as e:
        sock.close()
        raise InputError(f"cannot listen on {where}: {reason(e)}") from None
    return sock


def reason(error: OSError | UnicodeError) -> str:
    return (error.strerror if isinstance(error, OSError) else None) or str(error)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from zerosum.web.app import create_app
    except ImportError:
        sys.stderr.write(missing_web() + "\n")
        return 2
    games, agents = own_games_and_agents(args.game_file, args.agent, not args.no_check)
    if args.tournament is not None:
        from zerosum.tournament.store import Store

        with Store.existing(args.tournament) as store:  # one line now if it is not one
            store.settings()
    if args.train is not None:
        from zerosum.learn.watch import check_run

        check_run(args.train)  # one line now if it is not a run's weights
    sock = listen(args.host, args.port)
    if not loopback(args.host):
        sys.stderr.write(f"zerosum serve: warning: binding {args.host}, not {LOCAL}: anyone "
                         "who can reach this address can use the server\n")
    app = create_app(max_searches=args.max_searches, max_seconds=args.max_seconds,
                     table_memory=args.table_memory, own_games=games, agents=agents,
                     tournament=args.tournament, train=args.train)
    host = f"[{args.host}]" if ":" in args.host else args.host
    page = "tournament" if args.tournament is not None else \
        "train" if args.train is not None else ""
    print(f"zerosum serve: open http://{host}:{args.port}/{page} (Ctrl-C to stop)", flush=True)
    config = uvicorn.Config(app, log_level="warning", ws_max_size=65536)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
    return 0
