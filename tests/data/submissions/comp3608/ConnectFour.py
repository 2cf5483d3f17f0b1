"""An example COMP3608 submission, written plainly as a student might (a grid of
characters, no bitboards), to test zerosum's auto-marker against. It is correct; the
option --fault KIND (given before the course's arguments) makes it go wrong in one way:
nodes (counts one node too many), slow (sleeps), crash (raises), garbage (prints junk),
file (writes a file), socket (connects to a port)."""

import sys

ROWS, COLS = 6, 7


def parse(state):
    return [list(row) for row in state.split(",")]  # grid[row][col], row 0 at the bottom


def lines_of(grid, colour):
    """Lengths of the maximal runs of `colour` in the four directions."""
    runs = []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(ROWS):
            for c in range(COLS):
                if grid[r][c] != colour:
                    continue
                pr, pc = r - dr, c - dc
                if 0 <= pr < ROWS and 0 <= pc < COLS and grid[pr][pc] == colour:
                    continue  # not the start of a run
                n = 0
                while 0 <= r + n * dr < ROWS and 0 <= c + n * dc < COLS \
                        and grid[r + n * dr][c + n * dc] == colour:
                    n += 1
                runs.append(n)
    return runs


def score(grid, colour):
    tokens = sum(row.count(colour) for row in grid)
    runs = lines_of(grid, colour)
    return (tokens + 10 * sum(1 for n in runs if n == 2) + 100 * sum(1 for n in runs if n == 3)
            + 1000 * sum(1 for n in runs if n >= 4))


def winner(grid):
    for colour in "ry":
        if any(n >= 4 for n in lines_of(grid, colour)):
            return colour
    return None


def evaluation(grid):
    return score(grid, "r") - score(grid, "y")


def full(grid):
    return all(grid[ROWS - 1][c] != "." for c in range(COLS))


def moves(grid):
    return [c for c in range(COLS) if grid[ROWS - 1][c] == "."]


def play(grid, col, colour):
    new = [row[:] for row in grid]
    for r in range(ROWS):
        if new[r][col] == ".":
            new[r][col] = colour
            return new
    raise ValueError("full column")


class Search:
    def __init__(self, pruning, depth, extra=0):
        self.pruning, self.limit, self.nodes = pruning, depth, extra

    def value(self, grid, colour, depth, alpha, beta):
        self.nodes += 1  # examined: its terminal test runs now
        w = winner(grid)
        if w == "r":
            return 10000
        if w == "y":
            return -10000
        if full(grid) or depth == self.limit:
            return evaluation(grid)
        other = "y" if colour == "r" else "r"
        if colour == "r":
            v = float("-inf")
            for c in moves(grid):
                v = max(v, self.value(play(grid, c, colour), other, depth + 1, alpha, beta))
                if self.pruning:
                    if v >= beta:
                        return v
                    alpha = max(alpha, v)
            return v
        v = float("inf")
        for c in moves(grid):
            v = min(v, self.value(play(grid, c, colour), other, depth + 1, alpha, beta))
            if self.pruning:
                if v <= alpha:
                    return v
                beta = min(beta, v)
        return v

    def decide(self, grid, colour):
        self.nodes += 1  # the root
        other = "y" if colour == "r" else "r"
        best, best_col = None, None
        alpha, beta = float("-inf"), float("inf")
        for c in moves(grid):
            v = self.value(play(grid, c, colour), other, 1, alpha, beta)
            if best is None or (v > best if colour == "r" else v < best):
                best, best_col = v, c
            if self.pruning:
                if colour == "r":
                    alpha = max(alpha, v)
                else:
                    beta = min(beta, v)
        return best_col


def main(args):
    fault = None
    if args[:1] == ["--fault"]:
        fault, args = args[1], args[2:]
    if fault == "crash":
        raise RuntimeError("something went wrong")
    if fault == "garbage":
        print("Thinking... the best column is probably the middle one!")
        return
    if fault == "slow":
        import time
        time.sleep(30)
    if fault == "file":
        with open("notes.txt", "w") as f:
            f.write("I was here\n")
    if fault == "socket":
        import socket
        socket.create_connection(("127.0.0.1", 9), timeout=1)
    grid, colour = parse(args[0]), "r" if args[1] == "red" else "y"
    if len(args) == 2:  # the tournament call: a quick, shallow alpha-beta
        print(Search(True, 2).decide(grid, colour))
        return
    search = Search(args[2] == "A", int(args[3]), extra=1 if fault == "nodes" else 0)
    print(search.decide(grid, colour))
    print(search.nodes)


main(sys.argv[1:])
