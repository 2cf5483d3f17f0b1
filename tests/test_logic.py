"""Propositional logic: the strict parser and its errors, the printer's round trip,
entailment by truth table and by DPLL checked against each other, against brute force
and against answers worked out by hand on the wumpus world."""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest

from zerosum.game import InputError
from zerosum.logic import (
    DPLL,
    WUMPUS_SYMBOLS,
    And,
    Answer,
    Compound,
    Expr,
    If,
    Iff,
    LogicSyntaxError,
    Not,
    Or,
    Symbol,
    Xor,
    check,
    clause_form,
    directly_fixed,
    dpll_entails,
    parse,
    parse_lines,
    parse_sentence,
    pl_true,
    symbols_in,
    to_prefix,
    tt_entails,
    wumpus_rules,
    wumpus_rules_text,
)
from zerosum.logic.parser import MAX_DEPTH
from zerosum.logic.truthtable import (
    TableTooLarge,
    check_table_size,
    column_value,
    table_work,
    truth_column,
    unfixed_symbols,
)
from zerosum.logic.wumpus import neighbours

RULES_FILE = Path(__file__).resolve().parents[1] / "assignments" / "uta-logic" / "wumpus_rules.txt"
METHODS = ("tt", "dpll")
P, Q, R = Symbol("P"), Symbol("Q"), Symbol("R")


def s(text: str) -> Expr:
    return parse_sentence(text)


# -- the parser ------------------------------------------------------------------------


def test_parse_a_file() -> None:
    text = (
        "# comment\r\n"
        "\r\n"
        "   \t\n"
        "  # indented comment\n"
        "P_1_1\n"
        "(not M_1_1)\n"
        "\t(if M_1_3 (and S_1_2 (not S_1_4)))  \n"
        "(AND (Or) (xor) (and) X )\n"
    )
    lines = parse_lines(text, "kb.txt")
    assert [n for n, _ in lines] == [5, 6, 7, 8]
    assert [e for _, e in lines] == [
        Symbol("P_1_1"),
        Not(Symbol("M_1_1")),
        If(Symbol("M_1_3"), And(Symbol("S_1_2"), Not(Symbol("S_1_4")))),
        And(Or(), Xor(), And(), Symbol("X")),
    ]
    assert to_prefix(lines[3][1]) == "(and (or) (xor) (and) X)"


@pytest.mark.parametrize(
    "line, column, problem",
    [
        ("( and P Q)", 2, "no white space allowed between '(' and the connective"),
        ("(not(and P))", 5, "'(' must be preceded by white space"),
        ("(and P(not Q))", 7, "'(' must be preceded by white space"),
        ("P(not Q)", 2, "'(' must be preceded by white space"),
        ("(or (not P)Q)", 11, "')' must be followed by white space or ')'"),
        ("(not P)(not Q)", 7, "')' must be followed by white space or ')'"),
        ("(P_1_1)", 1, "a symbol is never parenthesised: write P_1_1, not (P_1_1)"),
        ("(and (P) Q)", 6, "a symbol is never parenthesised: write P, not (P)"),
        ("(not P Q)", 1, "'not' takes exactly one operand, not 2"),
        ("(not)", 1, "'not' takes exactly one operand, not 0"),
        ("(if P)", 1, "'if' takes exactly two operands, not 1"),
        ("(and P (iff P Q R))", 8, "'iff' takes exactly two operands, not 3"),
        (
            "(nand P Q)",
            2,
            "unknown connective 'nand' (expected one of: and, or, xor, not, if, iff)",
        ),
        ("(and P Q", 9, "missing ')' for the '(' at column 1"),
        ("(and P (or Q R)", 16, "missing ')' for the '(' at column 1"),
        ("P Q", 3, "text after the end of the sentence (one sentence per line)"),
        ("(not P) # note", 9, "text after the end of the sentence (one sentence per line)"),
        ("(not P))", 8, "unmatched ')'"),
        (")", 1, "expected a symbol or '(', found ')'"),
        ("()", 2, "'()' has no connective"),
        ("(", 2, "the line ends after '('"),
        ("(-P)", 2, "expected a connective after '(', found '-'"),
        ("(and P-Q)", 7, "unexpected character '-' in a symbol"),
        ("(and ,)", 6, "unexpected character ','"),
        ("(and, P)", 5, "unexpected character ',' after 'and'"),
        ("(or P and)", 7, "'and' is a connective, not a symbol: write (and ...)"),
        ("Not", 1, "'Not' is a connective, not a symbol: write (not ...)"),
        ("P_1_1\u00a0", 6, "unexpected character '\\xa0' in a symbol"),
    ],
)
def test_parse_errors(line: str, column: int, problem: str) -> None:
    with pytest.raises(LogicSyntaxError) as info:
        parse(f"# rules\n\nP\n{line}\n", "kb.txt")
    e = info.value
    assert (e.source, e.line, e.column, e.problem) == ("kb.txt", 4, column, problem)
    assert str(e) == f"kb.txt:4:{column}: {problem}"
    assert isinstance(e, InputError)


def test_nesting_limit() -> None:
    ok = "(not " * MAX_DEPTH + "P" + ")" * MAX_DEPTH
    deep = parse_sentence(ok)
    assert parse(to_prefix(deep)) == [deep]
    assert check([deep], deep, "dpll") == check([deep], deep, "tt") == Answer.TRUE
    too_deep = "(not " * (MAX_DEPTH + 1) + "P" + ")" * (MAX_DEPTH + 1)
    with pytest.raises(LogicSyntaxError, match=f"more than {MAX_DEPTH} deep"):
        parse(too_deep)


def test_allowed_symbols() -> None:
    assert parse("(or A B)", symbols={"A", "B"}) == [Or(Symbol("A"), Symbol("B"))]
    with pytest.raises(LogicSyntaxError, match=re.escape("f:1:12: unknown symbol 'C' (A or B)")):
        parse("(or A (not C))", "f", symbols={"A", "B"}, symbols_help="A or B")


def test_parse_sentence_wants_exactly_one() -> None:
    with pytest.raises(LogicSyntaxError, match="found no sentence"):
        parse_sentence("# nothing\n")
    with pytest.raises(LogicSyntaxError, match=re.escape(":2:1: expected one sentence")):
        parse_sentence("P\nQ\n")


def test_expression_tree_is_checked_and_immutable() -> None:
    with pytest.raises(ValueError, match="'if' takes 2 operands, not 1"):
        Compound("if", (P,))
    with pytest.raises(ValueError, match="unknown connective"):
        Compound("nor", (P, Q))
    e = And(P, Q)
    with pytest.raises(AttributeError):
        e.connective = "or"  # type: ignore[misc]
    assert {And(P, Q), And(P, Q)} == {e} and str(e) == "(and P Q)"


def random_sentence(rng: random.Random, names: list[str], depth: int) -> Expr:
    if depth == 0 or rng.random() < 0.3:
        return Symbol(rng.choice(names))
    connective = rng.choice(["and", "or", "xor", "not", "if", "iff"])
    n = {"not": 1, "if": 2, "iff": 2}.get(connective, rng.randint(0, 4))
    return Compound(connective, tuple(random_sentence(rng, names, depth - 1) for _ in range(n)))


def test_round_trip() -> None:
    rng = random.Random(8)
    sentences = [random_sentence(rng, ["A", "B_2", "c3"], 5) for _ in range(300)]
    text = "\n".join(map(to_prefix, sentences)) + "\n"
    assert parse(text) == sentences
    assert "\n".join(map(to_prefix, parse(text))) + "\n" == text


# -- semantics and entailment ---------------------------------------------------------


def test_pl_true_connectives() -> None:
    m = {"P": True, "Q": True, "R": True}
    assert pl_true(And(), m) and not pl_true(Or(), m) and not pl_true(Xor(), m)
    # xor is "exactly one", not parity: three true operands make it false.
    assert not pl_true(Xor(P, Q, R), m)
    assert pl_true(Xor(P, Not(Q), Not(R)), m)
    assert pl_true(If(Not(P), Q), m) and not pl_true(If(P, Not(Q)), m)
    assert not pl_true(Iff(P, Not(Q)), m)


@pytest.mark.parametrize("method", METHODS)
def test_zero_operand_connectives(method: str) -> None:
    assert check([], And(), method) == Answer.TRUE
    assert check([], Or(), method) == Answer.FALSE
    assert check([], Xor(), method) == Answer.FALSE
    assert check([], P, method) == Answer.UNKNOWN
    assert check([And()], P, method) == Answer.UNKNOWN
    assert check([Or()], P, method) == Answer.CONTRADICTION
    assert check([Xor()], Q, method) == Answer.CONTRADICTION
    assert check([Not(And())], Q, method) == Answer.CONTRADICTION
    assert check([P], Xor(P), method) == Answer.TRUE  # one operand: the operand itself
    assert check([P, Q, R], Xor(P, Q, R), method) == Answer.FALSE
    assert check([Xor(P, Q)], Iff(P, Not(Q)), method) == Answer.TRUE
    assert check([Or(P, Q), Not(P)], Q, method) == Answer.TRUE
    assert check([If(P, Q), Not(Q)], P, method) == Answer.FALSE


def models(names: list[str]) -> list[dict[str, bool]]:
    return [
        dict(zip(names, v, strict=True))
        for v in itertools.product((False, True), repeat=len(names))
    ]


def brute_check(kb: list[Expr], alpha: Expr) -> Answer:
    names = symbols_in([*kb, alpha])
    kb_models = [m for m in models(names) if all(pl_true(x, m) for x in kb)]
    yes = all(pl_true(alpha, m) for m in kb_models)
    no = not any(pl_true(alpha, m) for m in kb_models)
    if yes:
        return Answer.CONTRADICTION if no else Answer.TRUE
    return Answer.FALSE if no else Answer.UNKNOWN


def test_methods_agree_with_brute_force() -> None:
    rng = random.Random(7)
    names = ["A", "B", "C", "D", "E"]
    seen = set()
    for _ in range(400):
        kb = [random_sentence(rng, names, 3) for _ in range(rng.randint(0, 4))]
        kb += [
            rng.choice([Symbol(n), Not(Symbol(n))]) for n in rng.sample(names, rng.randint(0, 2))
        ]
        alpha = random_sentence(rng, names, 3)
        expected = brute_check(kb, alpha)
        assert check(kb, alpha, "tt") == expected, (kb, alpha)
        assert check(kb, alpha, "dpll") == expected, (kb, alpha)
        assert tt_entails(kb, alpha, block=0) == (expected in (Answer.TRUE, Answer.CONTRADICTION))
        seen.add(expected)
    assert seen == set(Answer)


def test_clause_form_is_equivalent_on_every_model() -> None:
    """For each assignment of the symbols, the clauses (with the symbols fixed) are
    satisfiable exactly when the sentence is true: Tseitin's encoding is faithful."""
    rng = random.Random(3)
    names = ["A", "B", "C", "D"]
    for _ in range(150):
        e = random_sentence(rng, names, 4)
        cnf = clause_form([e])
        for m in models(names):
            units = [
                (cnf.variables[n] if v else -cnf.variables[n],)
                for n, v in m.items()
                if n in cnf.variables
            ]
            sat = DPLL([*cnf.clauses, *units], cnf.num_vars).solve() is not None
            assert sat == pl_true(e, m), (to_prefix(e), m)


def test_clause_form_is_linear() -> None:
    names = [Symbol(f"X{i}") for i in range(300)]
    for e in (Xor(*names), Iff(Or(*names[:150]), And(*names[150:])), Not(Xor(*names))):
        cnf = clause_form([e])
        assert cnf.num_vars < 4 * len(names) and len(cnf.clauses) < 12 * len(names)
    # The wumpus rules become mostly plain clauses: (if M_1_3 (and S_1_2 ...)) is 3.
    cnf = clause_form(wumpus_rules())
    assert len(cnf.variables) == 64
    # Auxiliaries only for the xor of 16: 15 'both', 14 'two', 15 'some', 1 result.
    assert cnf.num_vars == 64 + 15 + 14 + 15 + 1
    assert len(cnf.clauses) < 400


def test_dpll_models_and_pigeons() -> None:
    # Three pigeons, two holes: unsatisfiable (variable 2p + h - 2 says pigeon p in hole h).
    def x(p: int, h: int) -> int:
        return 2 * p + h - 2

    clauses = [(x(p, 1), x(p, 2)) for p in (1, 2, 3)]
    clauses += [
        (-x(p, h), -x(q, h)) for h in (1, 2) for p, q in itertools.combinations((1, 2, 3), 2)
    ]
    solver = DPLL(clauses, 6)
    assert solver.solve() is None and solver.decisions >= 1
    model = DPLL(clauses[:2] + clauses[3:], 6).solve()  # pigeon 3 may stay out
    assert model is not None
    assert all(
        any(model.get(abs(lit)) == (lit > 0) for lit in c) for c in clauses[:2] + clauses[3:]
    )
    assert DPLL([()], 1).solve() is None  # the empty clause
    assert DPLL([], 0).solve() == {}


# -- the wumpus world ----------------------------------------------------------------


def test_rules_file_is_the_generators_output() -> None:
    text = RULES_FILE.read_text(encoding="utf-8")
    assert text == wumpus_rules_text()
    rules = parse(text, str(RULES_FILE), symbols=WUMPUS_SYMBOLS)
    assert rules == wumpus_rules() and len(rules) == 16 * 4 + 1 + 8 + 2
    assert sorted(symbols_in(rules)) == sorted(WUMPUS_SYMBOLS) and len(WUMPUS_SYMBOLS) == 64
    assert neighbours(1, 1) == [(1, 2), (2, 1)] and neighbours(2, 3) == [
        (1, 3),
        (2, 2),
        (2, 4),
        (3, 3),
    ]
    assert directly_fixed(rules) == {
        f"{k}_{i}_{j}": False for i, j in [(1, 1), (1, 2), (2, 1), (2, 2)] for k in "MP"
    }


def derived_world(monster: tuple[int, int] | None, pits: set[tuple[int, int]]) -> dict[str, bool]:
    """Every symbol's value in the world with this monster and these pits, stench and
    breeze where a neighbour has the monster or a pit."""
    world = {}
    for i, j in itertools.product(range(1, 5), repeat=2):
        near = neighbours(i, j)
        world[f"M_{i}_{j}"] = (i, j) == monster
        world[f"P_{i}_{j}"] = (i, j) in pits
        world[f"S_{i}_{j}"] = monster in near
        world[f"B_{i}_{j}"] = any(n in pits for n in near)
    return world


def test_rules_hold_in_exactly_the_intended_worlds() -> None:
    """Over all 16 monster squares and all 2^16 pit sets (a truth table of 2^16 rows per
    monster square, stench and breeze derived): the rules hold in 12 * (2^12 - 2) worlds,
    the monster off the four safe squares and 1 to 11 pits on the other twelve."""
    rules = wumpus_rules()
    squares = [(i, j) for i in range(1, 5) for j in range(1, 5)]
    rows = 1 << 16
    full = (1 << rows) - 1
    pit = {sq: truth_column(k, 16) for k, sq in enumerate(squares)}
    total = 0
    for monster in squares:
        columns = {}
        for sq in squares:
            near = neighbours(*sq)
            columns[f"P_{sq[0]}_{sq[1]}"] = pit[sq]
            columns[f"M_{sq[0]}_{sq[1]}"] = full if sq == monster else 0
            columns[f"S_{sq[0]}_{sq[1]}"] = full if monster in near else 0
            breeze = 0
            for n in near:
                breeze |= pit[n]
            columns[f"B_{sq[0]}_{sq[1]}"] = breeze
        holds = full
        for rule in rules:
            holds &= column_value(rule, columns, full)
        total += holds.bit_count()
    assert total == 12 * (2**12 - 2)
    # And a world that breaks one percept, or has no monster or two, breaks the rules.
    world = derived_world((3, 3), {(1, 3), (4, 4)})
    assert all(pl_true(r, world) for r in rules)
    for name in WUMPUS_SYMBOLS:
        if name[0] == "P":  # another pit may well make another possible world
            continue
        flipped = {**world, name: not world[name]}
        assert not all(pl_true(r, flipped) for r in rules), name


@pytest.mark.parametrize("method", METHODS)
def test_contradicting_rule_6(method: str) -> None:
    rules = wumpus_rules()
    world = derived_world((4, 4), {(3, 1)})
    # Facts fixing 52 symbols (few enough unknowns for the truth table).
    facts = [Symbol(n) if world[n] else Not(Symbol(n)) for n in WUMPUS_SYMBOLS[:52]]
    for contradiction in ["M_1_1", "P_2_2", "(or M_1_2 P_1_2)", "B_1_1", "(and S_1_1 (not M_4_4))"]:
        kb = [*rules, *facts, s(contradiction)]
        for statement in ["M_4_4", "(not M_4_4)", "(and)", "(or)", "P_3_3"]:
            assert check(kb, s(statement), method) == Answer.CONTRADICTION
    assert check([*rules, *facts], s("M_4_4"), method) == Answer.TRUE


@pytest.mark.parametrize("method", METHODS)
def test_facts_force_the_monsters_square(method: str) -> None:
    """Stench at (1,3): the monster is at (1,2), (1,4) or (2,3); (1,2) is safe (rule 6),
    and no stench at (2,2) rules out (2,3). So it is at (1,4)."""
    rules = wumpus_rules()
    facts = [s("S_1_3"), s("(not S_2_2)")]
    if method == "tt":  # fix the pits, breezes and the other stenches: 2^15 rows left
        world = derived_world((1, 4), {(3, 3)})
        asked = {"S_1_3", "S_2_2", "S_2_4", "S_3_3", "S_1_4"}
        facts += [
            Symbol(n) if world[n] else Not(Symbol(n))
            for n in WUMPUS_SYMBOLS
            if n[0] in "PBS" and n not in asked
        ]
    kb = [*rules, *facts]
    expected = {
        "M_1_4": Answer.TRUE,
        "M_2_3": Answer.FALSE,
        "M_4_4": Answer.FALSE,
        "S_2_4": Answer.TRUE,  # next to the monster
        "S_3_3": Answer.FALSE,  # no monster next to it
        "(xor M_1_4 M_2_3)": Answer.TRUE,
        "(iff S_1_4 M_1_3)": Answer.TRUE,  # no stench at (1,4), no monster at (1,3)
    }
    for statement, answer in expected.items():
        assert check(kb, s(statement), method) == answer, statement


def test_pits_by_hand() -> None:
    rules = wumpus_rules()
    # Breeze at (1,2): a pit at (1,1), (1,3) or (2,2); only (1,3) may hold one.
    kb = [*rules, s("B_1_2"), s("(not B_2_1)")]
    assert check(kb, s("P_1_3")) == Answer.TRUE
    assert check(kb, s("P_3_1")) == Answer.FALSE  # no breeze at (2,1)
    assert check(kb, s("P_4_4")) == Answer.UNKNOWN
    assert check(kb, s("B_1_4")) == Answer.TRUE  # next to the pit at (1,3)
    # Rule 7: pits on 11 of the 12 possible squares leave the 12th empty, and pits on
    # none of 11 put one on the 12th.
    possible = [f"P_{i}_{j}" for i in range(1, 5) for j in range(1, 5) if i > 2 or j > 2]
    # (The monster's and stenches' values are given too, to keep the truth table small:
    # 2^17 rows, the breezes and the twelfth pit.)
    world = derived_world((4, 4), set())
    monster = [Symbol(n) if world[n] else Not(Symbol(n)) for n in WUMPUS_SYMBOLS if n[0] in "MS"]
    for method in METHODS:
        eleven = [*rules, *monster, *map(Symbol, possible[1:])]
        assert check(eleven, Symbol(possible[0]), method) == Answer.FALSE
        none = [*rules, *monster, *(Not(Symbol(p)) for p in possible[1:])]
        assert check(none, Symbol(possible[0]), method) == Answer.TRUE


def test_empty_additional_knowledge() -> None:
    rules = wumpus_rules()
    assert len(unfixed_symbols(rules, s("M_3_3"))) == 56
    expected = {
        "M_3_3": Answer.UNKNOWN,
        "(not M_1_1)": Answer.TRUE,
        "P_2_1": Answer.FALSE,
        "B_1_1": Answer.FALSE,  # its neighbours are safe squares
        "S_1_1": Answer.FALSE,
        "(or M_1_3 M_1_4 M_2_3 M_2_4 M_3_1 M_3_2 M_3_3 M_3_4 M_4_1 M_4_2 M_4_3 M_4_4)": Answer.TRUE,
        "(if B_1_2 P_1_3)": Answer.TRUE,
        "(if S_1_2 (and M_1_3 (not S_2_1)))": Answer.TRUE,
        "(iff S_3_3 (or M_2_3 M_3_2 M_3_4 M_4_3))": Answer.TRUE,
        "(xor S_1_3 S_3_1)": Answer.UNKNOWN,
    }
    for statement, answer in expected.items():
        assert check(rules, s(statement)) == answer, statement
        assert dpll_entails(rules, s(statement)) == (answer == Answer.TRUE)


def random_wumpus_kb(rng: random.Random, fixed: int) -> tuple[list[Expr], dict[str, bool]]:
    """Facts from a random world: `fixed` symbols given directly, a few sentences more;
    sometimes one fact is flipped (the KB may then contradict the rules)."""
    free = [(i, j) for i in range(1, 5) for j in range(1, 5) if i > 2 or j > 2]
    pits = set(rng.sample(free, rng.randint(1, 11)))
    world = derived_world(rng.choice(free), pits)
    names = rng.sample(WUMPUS_SYMBOLS, fixed)
    facts: list[Expr] = [Symbol(n) if world[n] else Not(Symbol(n)) for n in names]
    for _ in range(rng.randint(0, 2)):
        a, b = (Symbol(n) for n in rng.sample(WUMPUS_SYMBOLS, 2))
        facts.append(rng.choice([Or(a, b), If(a, b), Iff(a, b), Xor(a, b)]))
    if rng.random() < 0.2:
        k = rng.randrange(len(facts))
        facts[k] = Not(facts[k])
    return facts, world


def test_methods_agree_on_generated_wumpus_kbs() -> None:
    rng = random.Random(2024)
    rules = wumpus_rules()
    seen = set()
    for _ in range(60):
        facts, _ = random_wumpus_kb(rng, rng.randint(48, 56))
        kb = [*rules, *facts]
        for _ in range(3):
            statement = random_sentence(rng, list(WUMPUS_SYMBOLS), 2)
            answer = check(kb, statement, "dpll")
            assert check(kb, statement, "tt") == answer, (facts, statement)
            seen.add(answer)
    assert seen == set(Answer)


def test_unknown_method() -> None:
    with pytest.raises(ValueError, match="unknown method 'resolution'"):
        check([], P, "resolution")


def test_truth_columns() -> None:
    for n in range(7):
        for i in range(n):
            expected = sum(1 << r for r in range(1 << n) if r >> i & 1)
            assert truth_column(i, n) == expected, (i, n)
    assert truth_column(0, 2) == 0b1010 and truth_column(1, 2) == 0b1100


def test_a_truth_table_too_large_to_finish_is_refused() -> None:
    # The rules alone fix 8 symbols directly (the safe corner and its neighbours' facts
    # are bare literals), leaving 56 to enumerate over 132 connectives: far past the limit.
    rules = wumpus_rules()
    assert table_work(rules, s("M_1_3")) == (56, 132)
    with pytest.raises(TableTooLarge, match=r"2\^56 rows of 132 connectives"):
        check(rules, s("M_1_3"), "tt")
    assert check(rules, s("M_1_3"), "dpll") == Answer.UNKNOWN
    # Exactly at the limit the table is enumerated; one row-connective more is refused.
    kb = [s(f"(or P{i} P{i + 1})") for i in range(9)]  # 10 symbols, 9 + 1 connectives
    assert table_work(kb, s("(not P0)")) == (10, 10)
    check_table_size(kb, s("(not P0)"), max_work=10 << 10)
    with pytest.raises(TableTooLarge):
        check_table_size(kb, s("(not P0)"), max_work=(10 << 10) - 1)


def test_the_commands_refuse_a_huge_truth_table_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    from zerosum.cli import main

    assert main(["logic", "check", "--wumpus", "-s", "M_1_3", "--method", "tt"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "2^56 rows" in err and "--method dpll" in err
