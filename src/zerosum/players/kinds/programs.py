"""Programs in any language as kinds of player (players/programs.py): a course's program
called once a move as its course calls it, or an engine speaking UGI, written
`KIND[,SETTING=VALUE...]:COMMAND`."""

from __future__ import annotations

from typing import Any

from zerosum.game import InputError
from zerosum.games.registry import GameSpec
from zerosum.match import Agent
from zerosum.players.catalogue import Choice, PlayerKind, Setting, register
from zerosum.players.programs import CourseConnect4, OneMove, UgiPlayer, read_seconds
from zerosum.result import Limit


def read_folder(text: str, what: str) -> str:
    return text  # checked when the player is made (it must be a folder)


DIR = Setting("dir", "a folder the program starts in a fresh copy of (default: an empty "
              "folder of its own)", read_folder)
TIMEOUT = Setting("timeout", "seconds to wait for bestmove (default: twice time plus 1 s, "
                  "or 30 s)", read_seconds)
STARTUP = Setting("startup", "seconds to wait for ugiok (default 20)", read_seconds)


def extra(choice: Choice) -> dict[str, Any]:
    return dict(choice.extra)


def build_course(spec: GameSpec, limit: Limit, choice: Choice) -> Agent:
    return CourseConnect4(choice.argument, limit, extra(choice))


def build_one_move(spec: GameSpec, limit: Limit, choice: Choice) -> Agent:
    return OneMove(choice.argument, limit, extra(choice))


def build_ugi(spec: GameSpec, limit: Limit, choice: Choice) -> Agent:
    given = [name for name, value in (("time", choice.seconds), ("depth", choice.depth),
                                      ("nodes", choice.nodes)) if value is not None]
    if len(given) > 1:  # `go` carries one kind of limit, as UGI drivers send it
        raise InputError(f"ugi: give one of time, depth and nodes, not {' and '.join(given)}")
    return UgiPlayer(spec, choice.argument, limit, extra(choice))


register(PlayerKind(
    "course:comp3608", "a COMP3608 program, called once a move as the course calls it",
    build_course, ("time",), timed=True, applies=lambda spec: "course:comp3608" in spec.programs,
    argument="COMMAND", own_settings=(DIR,),
    explain="a COMP3608 student's program, run once a move as `COMMAND STATE red|yellow` "
    "and answering one column; a move not given within its time (the course's 1 s) is "
    "forfeit and play returns to the other player."))
register(PlayerKind(
    "course:maxconnect4", "a UTA Max-Connect4 program in one-move mode",
    build_one_move, ("depth", "time"), applies=lambda spec: "course:maxconnect4" in spec.programs,
    argument="COMMAND", own_settings=(DIR,),
    explain="a UTA CSE 4308 program run once a move as `COMMAND one-move input.txt "
    "output.txt DEPTH` (depth 4 unless given), its move read from output.txt."))
register(PlayerKind(
    "ugi", "an engine speaking UGI on its standard input and output", build_ugi,
    ("time", "depth", "nodes"), timed=True, depth_alone=True, argument="COMMAND",
    own_settings=(TIMEOUT, STARTUP, DIR),
    explain="an engine in any language speaking the Universal Game Interface, started "
    "for each game and sent `position` and `go` for each move."))
