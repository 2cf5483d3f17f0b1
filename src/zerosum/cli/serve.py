"""`zerosum serve`: the browser UI (zerosum.web) on a local web server.

It binds 127.0.0.1 unless told otherwise, and warns when told otherwise: the server
runs searches for whoever reaches it. It needs the `web` extra (Starlette, uvicorn),
imported only when the command runs so that the rest of `zerosum` never needs it.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from zerosum.convert import int_arg, positive_float
from zerosum.extras import install_hint, source_root

LOCAL = "127.0.0.1"


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
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from zerosum.web.app import create_app
    except ImportError:
        sys.stderr.write(missing_web() + "\n")
        return 2
    if args.host != LOCAL:
        sys.stderr.write(f"zerosum serve: warning: binding {args.host}, not {LOCAL}: anyone "
                         "who can reach this address can use the server\n")
    app = create_app(max_searches=args.max_searches, max_seconds=args.max_seconds)
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"zerosum serve: open http://{host}:{args.port}/ (Ctrl-C to stop)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws_max_size=65536)
    return 0
