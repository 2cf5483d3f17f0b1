"""COMP3608's auto-marked Connect Four program, `ConnectFour.py`.

    ConnectFour.py STATE red|yellow M|A DEPTH   the classic search: prints the column
                                                (0-6) and the number of nodes examined
    ConnectFour.py STATE red|yellow             the tournament player: prints a column,
                                                within 1 second including start-up

STATE: six comma-separated rows of seven 'r', 'y', '.', bottom row first. As the course
says, a state need not come from a balanced game: any counts of each colour, either
player to move; only a piece floating above an empty cell is refused. A STATE that is
already decided (a four on the board, or a full board) has no move to choose: that is
reported as an error (exit status 2), as is any malformed argument.
"""

from __future__ import annotations

import time

START = time.perf_counter()  # as near the start of the process as a module gets

import os  # noqa: E402
from collections.abc import Sequence  # noqa: E402

from zerosum.console import guarded  # noqa: E402
from zerosum.convert import parse_int  # noqa: E402
from zerosum.game import InputError  # noqa: E402

USAGE = "usage: ConnectFour.py STATE red|yellow [M|A DEPTH]"
# The search must end this long after the process started (interpreter start-up
# included), leaving room to print and exit within the 1 second.
TOURNAMENT_DEADLINE = 0.75
MIN_SEARCH = 0.03  # even on a swamped machine: enough for a shallow, safe answer
MAX_DEPTH = 42  # the cells of the board: no search goes deeper


def seconds_since_process_start() -> float:
    """Wall time since this process began, interpreter start-up included (Linux: from
    /proc, which can count 0.5 s and more on a loaded machine); elsewhere, since this
    module was imported."""
    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        with open("/proc/uptime", encoding="ascii") as f:
            uptime = float(f.read().split()[0])
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22: start time
        return max(uptime - started, time.perf_counter() - START)
    except (OSError, ValueError, IndexError):
        return time.perf_counter() - START


@guarded("ConnectFour.py")
def main(argv: Sequence[str]) -> int:
    if len(argv) not in (2, 4):
        raise InputError(f"expected 2 or 4 arguments, got {len(argv)}; {USAGE}")
    state_text, player = argv[0], argv[1]
    if player not in ("red", "yellow"):
        raise InputError(f"the player must be 'red' or 'yellow', not {player!r}")
    mode = depth = None
    if len(argv) == 4:
        mode, depth_text = argv[2], argv[3]
        if mode not in ("M", "A"):
            raise InputError(f"the mode must be M (minimax) or A (alpha-beta), not {mode!r}")
        depth = parse_int(depth_text, "DEPTH", lo=1, hi=MAX_DEPTH)

    from zerosum.games.connect4.course import CourseConnect4
    from zerosum.games.connect4.game import position_from_stones
    from zerosum.games.connect4.notation import parse_course

    game = CourseConnect4()
    stones = parse_course(state_text, balanced=False)
    state = position_from_stones(stones, red_to_move=player == "red")
    if game.is_terminal(state):
        # The course's states are games in progress; with any counts allowed, both
        # colours may even have a four: name each.
        fours = [name for name, mine in zip(("red", "yellow"), stones, strict=True)
                 if game.geo.has_four(mine)]
        why = (f"{' and '.join(fours)} {'has' if len(fours) == 1 else 'have'} four in a row"
               if fours else "the board is full")
        raise InputError(f"STATE is already decided ({why}): there is no move to choose")

    if mode is None:
        from zerosum.games.registry import kernel_of
        from zerosum.result import Limit
        from zerosum.search.driver import analyse_with

        seconds = max(MIN_SEARCH, TOURNAMENT_DEADLINE - seconds_since_process_start())
        print(analyse_with(kernel_of("connect4"), game, state, Limit(seconds=seconds)).action)
        return 0

    from zerosum.search import alphabeta_search, minimax_search

    if mode == "M":
        result = minimax_search(game, state, depth)
    else:
        result = alphabeta_search(game, state, depth)
    print(result.action)
    print(result.stats.nodes)
    return 0


if __name__ == "__main__":  # not a program itself: `python -m` says what to run instead
    from zerosum.assignments import not_a_program

    raise SystemExit(not_a_program())
