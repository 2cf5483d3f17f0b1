"""A player's written form, `NAME[:SETTING=VALUE,...]` (or `NAME:ARGUMENT` for a kind
that takes one, e.g. an external program's command), read by `agent_from_spec` alone:
`zerosum tournament --agent`, `zerosum play --opponent`, `zerosum serve --agent`,
`zerosum ugi --player` and a tournament's jobs. The names and settings come from the
catalogue (zerosum.players.catalogue)."""

from __future__ import annotations

from typing import Any

from zerosum.convert import shown
from zerosum.game import InputError
from zerosum.games.registry import GameSpec
from zerosum.match import Agent
from zerosum.players.agents import FileAgent
from zerosum.players.catalogue import SETTINGS, Choice, all_kinds, kind_of, kinds_for


def spec_help(spec: GameSpec | None = None) -> str:
    """The help of an option that takes a player's spec, generated from the catalogue
    (for one game, or, without `spec`, every kind)."""
    kinds = kinds_for(spec) if spec is not None else all_kinds()
    plain = [k.usage() for k in kinds if k.argument is None]
    named = [k.usage() for k in kinds if k.argument is not None]
    own = "" if spec is not None else " or the game's own (engine, solver)"
    return (f"a player, NAME[:SETTING=VALUE,...]: {', '.join(plain)}{own}, with "
            f"{', '.join(SETTINGS)}; e.g. engine:time=0.1, alphabeta:depth=6, "
            "mcts:time=0.2,seed=3" + (f"; a program: {', '.join(named)}" if named else "")
            + "; or your own agent FILE.py[:SETTINGS] (see docs/tournaments.md)")


def split_name(spec: GameSpec, text: str) -> tuple[str, str, str | None]:
    """(NAME, its settings, the argument or None). A kind of this game taking an
    argument is written `NAME[,SETTING=VALUE...]:ARGUMENT` (the longest such name
    `text` starts with: `course:comp3608,time=2:./a.out` -> ("course:comp3608",
    "time=2", "./a.out")); any other `NAME[:SETTING=VALUE,...]`."""
    for name in sorted((k.name for k in kinds_for(spec) if k.argument is not None),
                       key=len, reverse=True):
        if text.startswith(name + ":"):
            return name, "", text[len(name) + 1:]
        if text.startswith(name + ","):
            settings, _, argument = text[len(name) + 1:].partition(":")
            return name, settings, argument
    for kind in all_kinds():  # a program of another course's game, named as such
        if kind.argument is not None and text.startswith((kind.name + ":", kind.name + ",")):
            raise InputError(f"player {shown(text, 40)}: {kind.name} does not play "
                             f"{spec.name}")
    name, _, rest = text.partition(":")
    return name, rest, None


def agent_from_spec(spec: GameSpec, text: str, default_seed: int | None = None) -> Agent:
    """A player from its written form: a kind's name (zerosum.players.catalogue) and its
    settings, e.g. `engine:time=0.1`, `alphabeta:depth=6` (0: to the end),
    `mcts:time=0.2,seed=3`, `random:seed=1`, `iterative:time=0.5,off=pvs+aspiration`;
    unset, the kind's defaults; `seed` unset is `default_seed`. A kind with an
    `argument` takes the rest of the text after `NAME:`. A NAME ending in `.py` is a
    person's own agent from that file (zerosum.gamefile.load_agent_file), given the
    settings as they are written. InputError, naming the spec, on anything else."""
    text = text.strip()
    name, rest, argument = split_name(spec, text)
    what = f"player {shown(text, 40)}"
    kind = None if name.endswith(".py") else kind_of(spec, name)
    if kind is not None and kind.argument is not None and not (argument or "").strip():
        raise InputError(f"{what}: give the {kind.argument}, {kind.usage()}")
    allowed = SETTINGS if kind is None else kind.readers()
    settings: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, equals, value = item.partition("=")
        if not equals or key in settings or not (kind is None or key in allowed):
            why = "repeated" if key in settings else "not SETTING=VALUE" if not equals \
                else f"unknown (settings: {', '.join(allowed) or 'none'})"
            raise InputError(f"{what}: {shown(item)} is {why}")
        settings[key] = value
    if kind is None:
        from zerosum.gamefile import load_agent_file

        own = FileAgent(load_agent_file(name, settings, default_seed), name)
        own.name = text
        return own
    readers = kind.readers()
    values: dict[str, Any] = {key: readers[key].read(value, f"{what}: {key}")
                              for key, value in settings.items()}
    choice = Choice(depth=values.get("depth"), seconds=values.get("time"),
                    nodes=values.get("nodes"), seed=values.get("seed", default_seed),
                    argument=(argument or "").strip(),
                    extra={s.name: values[s.name] for s in kind.own_settings
                           if s.name in values},
                    **({"enhancements": values["off"]} if "off" in values else {}))
    agent = kind.make(spec, choice)
    agent.name = text
    return agent
