"""An example Max-Connect4 submission for the auto-marker's tests: one-move mode only,
playing the leftmost open column (a legal move; no search). --fault turn forgets to
switch the player to move; --fault quiet prints the boards but no scores."""

import sys


def points(grid, player):
    total = 0
    for r in range(6):
        for c in range(7):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(4)]
                if all(0 <= y < 6 and 0 <= x < 7 and grid[y][x] == player for y, x in cells):
                    total += 1
    return total


def show(grid, fault):
    for r in reversed(range(6)):
        print(" ".join(map(str, grid[r])))
    if fault != "quiet":
        print(f"Score: Player 1 = {points(grid, 1)}, Player 2 = {points(grid, 2)}")


def main(args):
    fault = None
    if args[:1] == ["--fault"]:
        fault, args = args[1], args[2:]
    _, infile, outfile, _depth = args
    with open(infile) as f:
        lines = [line.strip() for line in f if line.strip()]
    grid = [[int(ch) for ch in lines[5 - r]] for r in range(6)]  # row 0 at the bottom
    player = int(lines[6])
    show(grid, fault)
    col = next(c for c in range(7) if grid[5][c] == 0)
    row = next(r for r in range(6) if grid[r][col] == 0)
    grid[row][col] = player
    show(grid, fault)
    nxt = player if fault == "turn" else 3 - player
    with open(outfile, "w") as f:
        f.write("".join("".join(map(str, grid[5 - r])) + "\n" for r in range(6)) + f"{nxt}\n")


main(sys.argv[1:])
