"""Hill climbing and the TSP: costs worked out by hand, the climb step by step, bad files."""

import itertools
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.cli import main as zerosum
from zerosum.game import InputError
from zerosum.localsearch import TSP, DistanceMatrix, Halt, canonical, hill_climb

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "docs" / "examples" / "tsp5.txt"
PLATEAU = ROOT / "docs" / "examples" / "tsp5-plateau.txt"

# docs/examples/tsp5.txt: ME 15, MC 13, MS 9, MW 12, EC 7, ES 6, EW 4, CS 10, CW 5, SW 6.
# All 12 tours from M, each written its alphabetically first way round, costs by hand:
SAMPLE_COSTS = {
    "M-C-E-S-W-M": 13 + 7 + 6 + 6 + 12,  # 44
    "M-C-E-W-S-M": 13 + 7 + 4 + 6 + 9,  # 39
    "M-C-S-E-W-M": 13 + 10 + 6 + 4 + 12,  # 45
    "M-C-S-W-E-M": 13 + 10 + 6 + 4 + 15,  # 48
    "M-C-W-E-S-M": 13 + 5 + 4 + 6 + 9,  # 37: the optimum
    "M-C-W-S-E-M": 13 + 5 + 6 + 6 + 15,  # 45
    "M-E-C-S-W-M": 15 + 7 + 10 + 6 + 12,  # 50
    "M-E-C-W-S-M": 15 + 7 + 5 + 6 + 9,  # 42
    "M-E-S-C-W-M": 15 + 6 + 10 + 5 + 12,  # 48
    "M-E-W-C-S-M": 15 + 4 + 5 + 10 + 9,  # 43
    "M-S-C-E-W-M": 9 + 10 + 7 + 4 + 12,  # 42
    "M-S-E-C-W-M": 9 + 6 + 7 + 5 + 12,  # 39
}


def sample() -> TSP:
    return TSP(DistanceMatrix.parse(SAMPLE.read_text()), "M")


def test_costs_and_states_by_hand() -> None:
    tsp = sample()
    assert {tsp.format(t): tsp.cost(t) for t in tsp.all_tours()} == SAMPLE_COSTS
    assert tsp.state_count() == 12 and tsp.swaps_per_state() == 6
    assert tsp.optimum() == (37, [("C", "W", "E", "S")])


def test_a_tour_and_its_reverse_are_one_state() -> None:
    tsp = sample()
    assert tsp.parse_tour("M-W-S-C-E-M") == tsp.parse_tour("M-E-C-S-W-M") == ("E", "C", "S", "W")
    assert canonical(["W", "A", "B"]) == ("B", "A", "W")
    assert tsp.cost(("W", "S", "C", "E")) == tsp.cost(("E", "C", "S", "W")) == 50


def test_neighbours_of_the_initial_tour() -> None:
    # Swaps of E C S W (positions 1-4): 12 -> C E S W, 13 -> S C E W, 14 -> W C S E
    # (= E S C W reversed), 23 -> E S C W, 24 -> E W S C (= C S W E reversed),
    # 34 -> E C W S. Swaps 14 and 23 give the same tour: 5 distinct neighbours.
    tsp = sample()
    names = [tsp.format(t) for t in tsp.neighbours(("E", "C", "S", "W"))]
    assert names == ["M-C-E-S-W-M", "M-S-C-E-W-M", "M-E-S-C-W-M", "M-C-S-W-E-M",
                     "M-E-C-W-S-M"]


@pytest.mark.parametrize("k, swaps, distinct, states",
                         [(2, 1, 0, 1), (3, 3, 2, 3), (4, 6, 5, 12), (5, 10, 9, 60),
                          (6, 15, 15, 360), (7, 21, 21, 2520)])
def test_neighbour_and_state_counts(k: int, swaps: int, distinct: int, states: int) -> None:
    labels = ("A", *(chr(ord("B") + i) for i in range(k)))
    zeros = tuple(tuple(0 for _ in labels) for _ in labels)
    tsp = TSP(DistanceMatrix(labels, zeros), "A")
    assert tsp.swaps_per_state() == swaps and tsp.state_count() == states
    tours = tsp.all_tours()
    assert len(tours) == len(set(tours)) == states
    assert {len(tsp.neighbours(t)) for t in tours} == {distinct}


def test_climb_breaks_ties_alphabetically_and_reaches_the_optimum() -> None:
    # From 50: the cheapest neighbours cost 42, M-E-C-W-S-M and M-S-C-E-W-M: the first
    # alphabetically wins. From 42: 39 twice (M-C-E-W-S-M, M-S-E-C-W-M): the first again.
    # From 39: M-C-W-E-S-M at 37, whose neighbours cost 39 39 43 45 45: a strict minimum.
    tsp = sample()
    climb = hill_climb(tsp, tsp.parse_tour("M-E-C-S-W-M"))
    assert [(tsp.format(s.state), s.cost) for s in climb.steps] == [
        ("M-E-C-S-W-M", 50), ("M-E-C-W-S-M", 42), ("M-C-E-W-S-M", 39), ("M-C-W-E-S-M", 37)]
    assert climb.stop is Halt.LOCAL_MINIMUM
    assert [c for _, c in climb.final.neighbours] == [39, 39, 43, 45, 45]
    assert climb.evaluations == 1 + 4 * 5


def test_climb_stops_on_a_plateau_above_the_optimum() -> None:
    # tsp5-plateau.txt: ME 4, MC 4, MS 15, MW 15, EC 7, ES 6, EW 3, CS 13, CW 10, SW 15.
    # M-E-C-S-W-M = 4+7+13+15+15 = 54; best neighbour M-C-S-W-E-M = 4+13+15+3+4 = 39;
    # its best neighbour costs 39 too; the optimum M-C-W-E-S-M = 4+10+3+6+15 = 38.
    tsp = TSP(DistanceMatrix.parse(PLATEAU.read_text()))
    assert tsp.start == "M"
    climb = hill_climb(tsp, tsp.parse_tour("M-E-C-S-W-M"))
    assert [(tsp.format(s.state), s.cost) for s in climb.steps] == [
        ("M-E-C-S-W-M", 54), ("M-C-S-W-E-M", 39)]
    assert climb.stop is Halt.PLATEAU and climb.final.neighbours[0][1] == 39
    assert tsp.optimum() == (38, [("C", "W", "E", "S")])


def test_step_limit_and_no_neighbours() -> None:
    tsp = sample()
    climb = hill_climb(tsp, tsp.parse_tour("M-E-C-S-W-M"), max_steps=1)
    assert len(climb.steps) == 2 and climb.stop is Halt.STEP_LIMIT
    three = TSP(DistanceMatrix.parse("A B C\n0 1 2\n1 0 3\n2 3 0"))
    climb = hill_climb(three, ("B", "C"))
    assert climb.stop is Halt.NO_NEIGHBOURS and climb.final.cost == 6


def test_decimal_distances_add_up_exactly() -> None:
    m = DistanceMatrix.parse("A, B, C\n0, 0.1, 0.2\n0.1, 0, 0.25\n0.2, 0.25, 0\n")
    tsp = TSP(m, "A")
    assert m.places == 2 and tsp.cost(("B", "C")) == 55
    assert m.format(tsp.cost(("B", "C"))) == "0.55"


def test_labelled_rows_may_come_in_any_order() -> None:
    m = DistanceMatrix.parse("X Y Z\nZ 2 3 0\nX 0 1 2\nY 1 0 3\n")
    assert m.distance("X", "Z") == 2 and m.distance("Y", "Z") == 3


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty"),
        ("A B\n0 1\n2 0\n", "not symmetric: A to B is 1 but B to A is 2"),
        ("A B\n0 x\nx 0\n", "line 2, distance 2: A to B: 'x' is not a number"),
        ("A B\n0 -1\n-1 0\n", "line 2, distance 2: A to B: '-1' is not a distance (0 to"),
        ("A B\n0 inf\ninf 0\n", "A to B: 'inf' is not a number"),
        ("A B\n0 nan\nnan 0\n", "A to B: 'nan' is not a number"),
        ("A B\n0 1e999999999\n1e999999999 0\n",
         "line 2, distance 2: A to B: '1e999999999' is not a distance (0 to 1,000,000,000,000)"),
        ("A B\n0 1e-99\n1e-99 0\n", "'1e-99' has more than 6 decimal places"),
        ("A B\n0 ٣\n٣ 0\n", "A to B: '٣' is not a number"),
        ("A B\nA 0 1\nB 1 1_0\n", "line 3, distance 2: B to B: '1_0' is not a number"),
        ("A B\n1 1\n1 0\n", "the distance from A to itself must be 0"),
        ("A B\nA 0 1\nC 1 0\n", "row label 'C' is not among the labels on the first line (A B)"),
        ("A B\nA 0 1\nA 1 0\n", "a second row for A"),
        ("A B\nA 0 1\n1 0\n", "label every row or none"),
        ("A B C\n0 1 2\n1 0 3\n", "2 rows of distances for 3 labels"),
        ("A B\n0 1 2 3\n1 0\n", "line 2: 4 cells; expected 2 distances"),
        ("A A\n0 1\n1 0\n", "label 'A' appears twice"),
        ("A B-C\n0 1\n1 0\n", "contains '-'"),
    ],
)
def test_bad_matrix_files(text: str, message: str) -> None:
    with pytest.raises(InputError, match=re.escape(message)):
        DistanceMatrix.parse(text)


@pytest.mark.parametrize(
    "tour, message",
    [
        ("E-C-S-W-M", "must start and end at M, e.g. M-E-C-S-W-M"),
        ("M-E-C-S-W", "must start and end at M"),
        ("M-E-C-S-X-M", "'X' is not a location of the matrix"),
        ("M-E-C-M-S-W-M", "'M' is the start"),
        ("M-E-C-E-W-M", "visits E twice"),
        ("M-E-C-S-M", "does not visit W"),
    ],
)
def test_bad_initial_tours(tour: str, message: str) -> None:
    with pytest.raises(InputError, match=re.escape(message)):
        sample().parse_tour(tour)


def test_unknown_start() -> None:
    with pytest.raises(InputError, match="start 'Q' is not a location"):
        TSP(DistanceMatrix.parse(SAMPLE.read_text()), "Q")


def test_command_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert zerosum(["hillclimb", "tsp", str(SAMPLE), "--start", "M",
                    "--initial", "M-E-C-S-W-M"]) == 0
    assert capsys.readouterr().out == """\
Locations: M E C S W (n = 5); every tour starts and ends at M
Distinct states for n = 5: (5-1)!/2 = 12 (a tour and its reverse are one state)
Neighbours per state: C(4, 2) = 6 swaps of two of the 4 visited locations, giving 5 distinct tours
  (swapping the first and last visited gives, reversed, the same tour as swapping the middle two)

Hill climbing from M-E-C-S-W-M:
  0  M-E-C-S-W-M  cost 50
  1  M-E-C-W-S-M  cost 42
  2  M-C-E-W-S-M  cost 39
  3  M-C-W-E-S-M  cost 37
Stopped at M-C-W-E-S-M (cost 37) after 3 moves:
  every neighbour costs more: a strict local minimum.
Tours evaluated: 21

Optimum by exhaustive search over all 12 tours: cost 37, M-C-W-E-S-M
Hill climbing reached an optimal tour.
"""


def test_command_neighbours_and_plateau(capsys: pytest.CaptureFixture[str]) -> None:
    assert zerosum(["hillclimb", "tsp", str(SAMPLE), "--initial", "M-W-S-C-E-M",
                    "--neighbours"]) == 0
    out = capsys.readouterr().out
    assert "Hill climbing from M-E-C-S-W-M (given as M-W-S-C-E-M, the same tour reversed):" in out
    assert "       -> M-E-C-W-S-M  42  (tie: alphabetically first)\n" \
           "          M-S-C-E-W-M  42\n" in out
    assert zerosum(["hillclimb", "tsp", str(PLATEAU), "--initial", "M-E-C-S-W-M"]) == 0
    out = capsys.readouterr().out
    assert "the cheapest neighbour costs the same: a plateau" in out
    assert "Hill climbing stopped 1 above the optimum" in out


@pytest.mark.parametrize(
    "args, message",
    [
        (["nowhere.txt"], "matrix file nowhere.txt: no such file"),
        ([str(PLATEAU), "--initial", "M-E-C-M"], "does not visit S W"),
        ([str(PLATEAU), "--start", "Z"], "start 'Z' is not a location"),
    ],
)
def test_command_errors(args: list[str], message: str,
                        capsys: pytest.CaptureFixture[str]) -> None:
    assert zerosum(["hillclimb", "tsp", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.splitlines()) == 1 and message in captured.err


def test_command_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.txt"
    path.write_text("A B\n0 3\n4 0\n")
    assert zerosum(["hillclimb", "tsp", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"zerosum: error: matrix file {path}: not symmetric: A to B is 3 but B to A is 4\n")


def test_large_n_skips_the_exhaustive_optimum(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    n = 11
    labels = [f"L{i}" for i in range(n)]
    rows = [" ".join(str(abs(i - j)) for j in range(n)) for i in range(n)]
    path = tmp_path / "line.txt"
    path.write_text(" ".join(labels) + "\n" + "\n".join(rows) + "\n")
    assert zerosum(["hillclimb", "tsp", str(path)]) == 0
    out = capsys.readouterr().out
    assert "(11-1)!/2 = 1,814,400" in out and "C(10, 2) = 45 swaps" in out
    assert "Optimum: not computed" in out
    # Points on a line, visited in order: L0 ... L10 and back costs 2 * 10, the optimum.
    assert "  0  L0-L1-L2-L3-L4-L5-L6-L7-L8-L9-L10-L0  cost 20\n" in out


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 7).flatmap(
    lambda n: st.tuples(st.just(n), st.lists(st.integers(0, 20), min_size=n * (n - 1) // 2,
                                             max_size=n * (n - 1) // 2))))
def test_climbs_on_random_matrices(case: tuple[int, list[int]]) -> None:
    n, upper = case
    labels = tuple(chr(ord("A") + i) for i in range(n))
    d = [[0] * n for _ in range(n)]
    cells = iter(upper)
    for i in range(n):
        for j in range(i + 1, n):
            d[i][j] = d[j][i] = next(cells)
    tsp = TSP(DistanceMatrix(labels, tuple(map(tuple, d))), "A")
    climb = hill_climb(tsp, tsp.canonical_order())
    costs = [s.cost for s in climb.steps]
    assert all(a > b for a, b in itertools.pairwise(costs))
    best, _ = tsp.optimum()
    assert climb.final.cost >= best
    for step in climb.steps:
        tours = [t for t, _ in step.neighbours]
        assert len(tours) == len(set(tours)) == tsp.distinct_neighbours()
        assert step.state not in tours and all(t == canonical(t) for t in tours)
        assert [c for _, c in step.neighbours] == [tsp.cost(t) for t in tours]
    first_cost = climb.final.neighbours[0][1]
    assert climb.stop is (Halt.PLATEAU if first_cost == climb.final.cost
                          else Halt.LOCAL_MINIMUM)
