"""The opening book (games/connect4/book.py): built by our solver, checked against it,
consulted by it before searching."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from zerosum.games.connect4.bitboard import Geometry, geometry
from zerosum.games.connect4.book import (
    Book,
    build,
    canonical,
    children,
    mirror,
    parse,
    positions,
    shipped,
)
from zerosum.games.connect4.game import Connect4
from zerosum.games.connect4.solver import Solver

SMALL = geometry(5, 4)


def small_book(depth: int = 4) -> Book:
    solver = Solver(5, 4, book=False)

    def solve(current: int, mask: int) -> int:
        solver.reset()
        return solver.solve(current, mask)

    return build(SMALL, depth, solve)


def test_positions_per_ply_mirror_images_once() -> None:
    # 7 first moves, of which 4 differ up to mirror image; 49 pairs of moves give 25.
    assert [len(positions(geometry(), d)) for d in range(8)] == [1, 4, 25, 121, 568, 2144,
                                                                 8231, 27109]


def test_mirror_is_an_involution_and_keeps_the_score() -> None:
    geo = geometry()
    rng = random.Random(3)
    for current, mask in rng.sample(sorted(positions(geo, 5).values()), 20):
        assert mirror(geo, mirror(geo, mask)) == mask
        flipped = (mirror(geo, current), mirror(geo, mask))
        assert canonical(geo, current, mask) == canonical(geo, *flipped)


def test_every_entry_of_a_small_book_is_the_solvers_score() -> None:
    book = small_book()
    assert len(book) == 243
    check = Solver(5, 4, book=False)
    for depth in range(book.depth + 1):
        for current, mask in positions(SMALL, depth).values():
            check.reset()
            assert book.score(current, mask) == check.solve(current, mask)
            mirrored = (mirror(SMALL, current), mirror(SMALL, mask))
            assert book.score(*mirrored) == book.score(current, mask)
    assert book.score(0, 0) == check.solve(0, 0) == 0  # 5x4: a draw


def test_the_solver_answers_from_the_book_without_a_node() -> None:
    book = small_book()
    solver = Solver(5, 4, book=book)
    analysis = solver.analyse(0, 0, pv=False, all_scores=True)
    reference = Solver(5, 4, book=False).analyse(0, 0, pv=False, all_scores=True)
    assert analysis.score == reference.score
    assert analysis.best_moves == reference.best_moves
    assert analysis.move_scores == reference.move_scores
    assert analysis.nodes == 0 and reference.nodes > 0
    assert solver.solve(0, 0, weak=True) == 0
    # Beyond its depth the book says nothing and the solver searches.
    deep = next(iter(positions(SMALL, 5).values()))
    assert book.score(*deep) is None


def test_the_text_round_trips() -> None:
    book = small_book(3)
    again = parse(SMALL, book.text(["a comment"]))
    assert (again.depth, again.scores) == (book.depth, book.scores)
    with pytest.raises(ValueError, match="depth"):
        parse(SMALL, "# no depth\n")


def best_of_moves(geo: Geometry, book: Book, current: int, mask: int) -> int | None:
    """The best of the position's moves' scores by the book's own entries (a win at once,
    or minus the child's score), None if a child is missing."""
    moves = mask.bit_count()
    for c in geo.centre_order:
        if geo.playable(mask, c) and geo.has_four(current | geo.move_bit(mask, c)):
            return (geo.cells + 1 - moves) // 2
    scores = [book.score(child_current, child_mask)
              for _, child_current, child_mask in children(geo, current, mask)]
    if not scores or None in scores:
        return None
    return max(-s for s in scores if s is not None)


def test_the_shipped_book_is_consistent() -> None:
    """Over the whole shipped book: it has every position of every ply up to its depth,
    and every position whose moves' positions are all in it (every one but the last
    ply's) scores the best of its moves' scores."""
    geo = geometry()
    book = shipped(geo)
    if book is None:
        pytest.skip("no 7x6 book shipped (tools/connect4_book.py builds it)")
    every = {k: v for ply in range(book.depth + 1) for k, v in positions(geo, ply).items()}
    assert set(book.scores) <= set(every)
    unchecked = set()
    for key, score in book.scores.items():
        current, mask = every[key]
        best = best_of_moves(geo, book, current, mask)
        if best is None:
            unchecked.add(key)
        else:
            assert score == best, f"{key:x}"
    leaves = positions(geo, book.depth)
    # The shipped book is complete (every position of every ply up to its depth), so
    # every position shallower than its leaves is checked, and so is a leaf whose player
    # wins at once (its children's scores are not needed: at ply 7, 1,391 of 27,109).
    assert all(k in book.scores for k in leaves)
    assert len(book) == len(every)
    assert unchecked <= set(leaves)
    assert book.score(0, 0) == 1  # the first player wins, with their last stone
    for c, current, mask in children(geo, 0, 0):
        assert book.score(current, mask) == [2, 1, 0, -1, 0, 1, 2][c]


# The cheapest of the shipped book's last-ply positions to search again (from the build's
# log, tools/connect4_book.py): key -> score.
CHEAP_LEAVES = {0x820a00480: 11, 0x608204: -10}  # 8,956 and 11,159 nodes


def confirm(solver: Solver, current: int, mask: int, score: int) -> bool:
    """The score is exactly `score`: a solve told it lies in [score - 1, score + 1]
    asks two null windows (far cheaper than a whole bisection) and returns `score` only
    if both prove it (above score - 1, not above score)."""
    solver.reset()
    return solver.solve(current, mask, known=(score - 1, score + 1)) == score


def test_the_cheapest_of_the_shipped_books_last_ply_against_the_solver() -> None:
    geo = geometry()
    book = shipped(geo)
    if book is None or book.depth != 7:
        pytest.skip("these leaves are of the depth-7 book")
    every = positions(geo, book.depth)
    solver = Solver(book=False)
    for key, score in CHEAP_LEAVES.items():
        assert book.scores.get(key) == score
        assert confirm(solver, *every[key], score)


@pytest.mark.slow
def test_a_sample_of_the_shipped_books_last_ply_against_the_solver() -> None:
    geo = geometry()
    book = shipped(geo)
    if book is None:
        pytest.skip("no 7x6 book shipped")
    solver = Solver(book=False)
    leaves = sorted((k, v) for k, v in positions(geo, book.depth).items() if k in book.scores)
    for key, (current, mask) in random.Random(24).sample(leaves, min(4, len(leaves))):
        assert confirm(solver, current, mask, book.scores[key]), f"{key:x}"


def test_the_book_script_builds_and_resumes(tmp_path: Path) -> None:
    import subprocess
    import sys

    script = Path(__file__).parents[1] / "tools" / "connect4_book.py"
    out = tmp_path / "book_5x4.txt"
    # A run killed (kill -9) after one leaf and in the middle of writing the next: the
    # work file holds the first, the cut line is ignored; the rerun does the rest.
    first, second = list(positions(SMALL, 3).items())[:2]
    check = Solver(5, 4, book=False)
    leaf_score = check.solve(*first[1])
    (tmp_path / "book_5x4.txt.partial").write_text(f"depth 3\n{first[0]:x} {leaf_score} 1.50\n"
                                                   f"{second[0]:x} 1")
    done = subprocess.run([sys.executable, str(script), "--width", "5", "--height", "4",
                           "--depth", "3", "--capacity", "10000", "--workers", "2",
                           "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"{len(positions(SMALL, 3))} positions of ply 3" in done.stdout
    assert "1 solved before" in done.stdout
    book = parse(SMALL, out.read_text())
    assert book.scores == small_book(3).scores
    assert not (tmp_path / "book_5x4.txt.partial").exists()
    assert "at most 3 stones" in out.read_text()


def test_a_symmetric_position_solves_each_mirrored_pair_of_moves_once() -> None:
    """The empty 5x4 board is its own mirror image: columns 1 and 5, 2 and 4 score the
    same, so --all-moves (parallel.move_scores) and the page's move solver search one
    of each pair: the same scores as every column searched, for fewer nodes."""
    from zerosum.games.connect4.moves import move_values
    from zerosum.games.connect4.parallel import move_scores
    from zerosum.stop import Stop

    every = Solver(5, 4, book=False)
    reference = {c: every.move_score(0, 0, c) for c in range(5)}
    assert reference[0] == reference[4] and reference[1] == reference[3]
    folded = Solver(5, 4, book=False)
    assert {c: s for c, s, _ in move_scores(folded, 0, 0, 1)} == reference
    assert 0 < folded.nodes < every.nodes
    game = Connect4(5, 4)
    values = [v for v in move_values(game, game.initial_state(), Stop())
              if v.interval is None]
    assert {v.action: v.score for v in values} == reference
    assert sum(v.nodes for v in values) < every.nodes


def test_the_book_script_writes_what_is_solved_so_far(tmp_path: Path) -> None:
    """--now: no search, the book of the leaves solved so far (and the positions they
    back up alone), the book it replaces kept for the rest; the work file stays, so
    the build can go on."""
    import subprocess
    import sys

    script = Path(__file__).parents[1] / "tools" / "connect4_book.py"
    out = tmp_path / "book_5x4.txt"
    full = small_book(2)
    out.write_text(small_book(1).text(["the book before"]))
    # Every ply-2 child of the first ply-1 position (in centre order: the centre
    # column's), so that position can be backed up; no other.
    first = next(iter(positions(SMALL, 1).values()))
    mine = {canonical(SMALL, c, m) for _, c, m in children(SMALL, *first)}
    lines = "".join(f"{key:x} {full.scores[key]} 0.5\n" for key in mine)
    (tmp_path / "book_5x4.txt.partial").write_text(f"depth 2\n{lines}")
    done = subprocess.run([sys.executable, str(script), "--width", "5", "--height", "4",
                           "--depth", "2", "--now", "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    book = parse(SMALL, out.read_text())
    assert book.depth == 2
    assert {k: book.scores[k] for k in mine} == {k: full.scores[k] for k in mine}
    assert book.scores[canonical(SMALL, *first)] == full.scores[canonical(SMALL, *first)]
    assert set(book.scores) == mine | set(small_book(1).scores)
    assert book.scores.items() <= full.scores.items()
    assert f"{len(mine)} of the {len(positions(SMALL, 2))} positions" in out.read_text()
    assert (tmp_path / "book_5x4.txt.partial").exists()


def test_a_worker_reads_the_book_of_the_solver_that_sent_it() -> None:
    """--all-moves' worker processes solve with the caller's book (none, or the one it
    was given), not the shipped one: a book saying the position after 4 4 4 scores +7
    (it does not) is what the worker answers from, with no node searched."""
    from zerosum.games.connect4.game import position_from_stones
    from zerosum.games.connect4.notation import parse_moves
    from zerosum.games.connect4.parallel import _solve_move

    geo = geometry(7, 6)
    child = position_from_stones(parse_moves("444"))
    wrong = Book(geo, 3, {canonical(geo, child.current, child.mask): 7})
    p = position_from_stones(parse_moves("44"))
    for native in (True, False):
        assert _solve_move(7, 6, 1000, wrong, p.current, p.mask, 3, None, native) == (-7, 0)
    assert Solver(book=wrong).move_score(p.current, p.mask, 3) == -7
