"""A person's own game from a Python file: `zerosum play --game-file mygame.py`; and a
person's own agent (`zerosum tournament --agent myagent.py:depth=3`, `zerosum play
connect4 --opponent myagent.py`).

The convention: the file defines a module-level `GAME`, either a game (an instance of
a GameBase subclass, or any object with the Game protocol's methods) or a `GameSpec`
when it wants a title, options, engines or capabilities (perft, a position format).
A bare game is named after the file (`mygame`). See docs/examples/mygame.py.

Loading the file runs it: it is the person's own code, run on purpose, as `python
mygame.py` would. Every problem with it (missing, not Python, raising while it loads,
no GAME, breaking a rule of the protocol) is an InputError naming the file.
"""

from __future__ import annotations

import contextlib
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from zerosum.fileio import read_text
from zerosum.game import AnyGame, InputError, Unresponsive
from zerosum.games.registry import GameSpec

GAME_FILE_HELP = ("a Python file defining GAME, your own game (runs the file's code: "
                  "use only files you trust; see docs/architecture.md)")
CHECK_PLAYTHROUGHS = 5  # the quick check before playing: a few random games
NO_CHECK_HELP = "with --game-file: skip the quick conformance check of the game"


def load_game_file(path: str) -> GameSpec:
    """The game `path` defines, as a GameSpec; InputError naming the file if it has none."""
    return _spec(_load_module(path, "game file"), path)


def _load_module(path: str, what: str) -> types.ModuleType:
    """Run the file as a module of its own; InputError naming it if that fails."""
    source = read_text(path, what)
    kind = what.split()[0]
    module = types.ModuleType(f"zerosum_{kind}_file_{Path(path).stem}")
    module.__file__ = path
    try:
        code = compile(source, path, "exec")
    except SyntaxError as e:
        raise InputError(f"{what} {path}, line {e.lineno}: syntax error: {e.msg}") from None
    # Registered as a module: dataclasses and typing look classes' modules up there.
    sys.modules[module.__name__] = module
    try:
        exec(code, module.__dict__)
    except (Exception, SystemExit) as e:  # whatever the person's code raises
        sys.modules.pop(module.__name__, None)
        why = raised(e, "while loading it")
        raise InputError(f"{what} {path}{_line_in(e, path)}: {why}") from None
    return module


def raised(e: BaseException, doing: str) -> str:
    """What a person's code raised while `doing` something, in words. sys.exit is one of
    them: their code never decides zerosum's exit status."""
    if isinstance(e, SystemExit):
        return f"sys.exit({e.code!r}) called {doing}"
    return f"{type(e).__name__} {doing}: {e}"


@contextlib.contextmanager
def blame(path: str, what: str = "game file") -> Iterator[None]:
    """While the person's game (or agent: `what`) is used: an error raised in their
    file's code (with --no-check, or a rule the quick check did not meet) becomes one
    line naming the file and its line, not a traceback; an error raised elsewhere, from
    what their methods returned, one line naming the file; a search that cannot be
    stopped (their code loops), one line too."""
    try:
        yield
    except Unresponsive as e:
        raise InputError(f"{what} {path}: {e}: its code loops") from None
    except InputError:
        raise
    except (Exception, SystemExit) as e:
        from zerosum.conformance import unwritten

        if (method := unwritten(e)) is not None:
            raise InputError(f"{what} {path}: {method}() is not written: the game must "
                             "define it") from None
        line = _line_in(e, path)
        if line:
            raise InputError(f"{what} {path}{line}: {raised(e, 'during the game')}") \
                from None
        # Raised in zerosum's code, from what the file's methods gave it (a state that is
        # not hashable, an iterator for actions, a utility that is no number...).
        hint = " (without --no-check, the check says which rule)" if what == "game file" \
            else ""
        raise InputError(f"{what} {path} breaks a rule: {raised(e, 'during the game')}"
                         f"{hint}") from None


def _line_in(error: BaseException, path: str) -> str:
    """', line N' of the deepest frame of `error` in the file, or ''."""
    line = ""
    tb = error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == path:
            line = f", line {tb.tb_lineno}"
        tb = tb.tb_next
    return line


def _spec(module: types.ModuleType, path: str) -> GameSpec:
    game: Any = getattr(module, "GAME", None)
    if game is None:
        raise InputError(f"game file {path}: defines no GAME (a game object or a GameSpec; "
                         "see docs/examples/mygame.py)")
    if isinstance(game, GameSpec):
        return game
    missing = [m for m in ("initial_state", "actions", "result", "is_terminal", "utility",
                           "is_maxs_turn") if not callable(getattr(game, m, None))]
    if isinstance(game, type) or missing:
        what = "a class, not a game: make one, GAME = MyGame()" if isinstance(game, type) \
            else f"not a game: it has no {', '.join(missing)}"
        raise InputError(f"game file {path}: GAME is {what}")
    stem = Path(path).stem
    return GameSpec(stem, stem, lambda: game)


def load_checked(path: str, check: bool = True) -> tuple[GameSpec, AnyGame]:
    """The file's spec and its game (default options), checked by a few random playthroughs
    unless `check` is False: InputError with the first problem found."""
    spec = load_game_file(path)
    try:
        game = spec.create()
    except InputError as e:
        raise InputError(f"game file {path}: {e}") from None
    except (Exception, SystemExit) as e:  # the person's code again
        why = raised(e, "while making the game")
        raise InputError(f"game file {path}{_line_in(e, path)}: {why}") from None
    if check:
        from zerosum.conformance import check_game

        problems = check_game(game, playthroughs=CHECK_PLAYTHROUGHS)
        if problems:
            raise InputError(f"game file {path} breaks a rule: {problems[0]} "
                             "(--no-check plays it anyway)")
    return spec, game


def load_agent_file(path: str, settings: dict[str, str], seed: int | None) -> Any:
    """The agent `path` makes: the file defines `make_agent(seed, **settings)` (the
    settings as written in the spec, strings) returning an object with `play(game,
    state)` -> a legal move (see docs/examples/myagent.py). InputError naming the file."""
    module = _load_module(path, "agent file")
    make = getattr(module, "make_agent", None)
    if not callable(make):
        raise InputError(f"agent file {path}: defines no make_agent(seed, **settings) "
                         "(see docs/examples/myagent.py)")
    try:
        agent = make(seed, **settings)
    except (Exception, SystemExit) as e:  # the person's code
        why = raised(e, "while making the agent")
        raise InputError(f"agent file {path}{_line_in(e, path)}: {why}") from None
    if not callable(getattr(agent, "play", None)):
        raise InputError(f"agent file {path}: make_agent returned an object with no "
                         "play(game, state) method")
    return agent
