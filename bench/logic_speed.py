"""Timings of the wumpus-world checker: CPU seconds per query, both methods.

    python bench/logic_speed.py [--repeat 3]

For each knowledge base (the rules plus: no facts; a few percepts; facts from one world
fixing 52, 48, 40 and 36 symbols) and each statement, prints the answer and the CPU time of
`check` (best of the repeats) with DPLL and, where at most 28 symbols are left to enumerate
(or with --tt-all), with the truth table. Then the whole `check_true_false.py` run (start-up,
parsing, answer) as a subprocess. Timings on a shared machine are noisy: compare the best
of several repeats.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from zerosum.logic import WUMPUS_SYMBOLS, Expr, check, parse, parse_sentence, wumpus_rules
from zerosum.logic.truthtable import unfixed_symbols
from zerosum.logic.wumpus import neighbours

ROOT = Path(__file__).resolve().parents[1]
LAUNCHER = ROOT / "assignments" / "uta-logic" / "check_true_false.py"
RULES = ROOT / "assignments" / "uta-logic" / "wumpus_rules.txt"

STATEMENTS = [
    "M_3_3",
    "(not M_1_1)",
    "P_4_4",
    "(if B_1_2 P_1_3)",
    "(or M_1_3 M_1_4 M_2_3 M_2_4 M_3_1 M_3_2 M_3_3 M_3_4 M_4_1 M_4_2 M_4_3 M_4_4)",
    "(xor P_1_3 P_1_4 P_2_3 P_2_4 P_3_1 P_3_2 P_3_3 P_3_4 P_4_1 P_4_2 P_4_3 P_4_4)",
    "(iff S_3_3 (or M_2_3 M_3_2 M_3_4 M_4_3))",
    "(and B_2_4 (not B_1_1) (or S_4_1 S_4_3))",
]


def world_facts(fixed: int) -> list[str]:
    """The monster at (4,2), pits at (3,3) and (1,4): the first `fixed` symbols' values."""
    monster, pits = (4, 2), {(3, 3), (1, 4)}
    facts = []
    for name in WUMPUS_SYMBOLS:
        kind, i, j = name[0], int(name[2]), int(name[4])
        near = neighbours(i, j)
        value = {
            "M": (i, j) == monster,
            "S": monster in near,
            "P": (i, j) in pits,
            "B": any(n in pits for n in near),
        }[kind]
        facts.append(name if value else f"(not {name})")
    return facts[:fixed]


def best_cpu(kb: list[Expr], statement: Expr, method: str, repeat: int) -> tuple[str, float]:
    best = float("inf")
    answer = ""
    for _ in range(repeat):
        start = time.process_time()
        answer = str(check(kb, statement, method))
        best = min(best, time.process_time() - start)
    return answer, best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--tt-all", action="store_true", help="truth table on every KB (slow)")
    args = ap.parse_args()
    rules = wumpus_rules()
    kbs = {
        "no facts": [],
        "percepts S_1_3 (not S_2_2) B_1_2": ["S_1_3", "(not S_2_2)", "B_1_2"],
        "48 facts (M, S, P)": world_facts(48),
        "52 facts": world_facts(52),
        "40 facts": world_facts(40),
        "36 facts": world_facts(36),
    }
    print(f"CPU seconds per query, best of {args.repeat}")
    print(f"{'knowledge':34} {'unfixed':>7} {'dpll':>8} {'tt':>8}  answer / statement")
    worst = {"dpll": 0.0, "tt": 0.0}
    for label, facts in kbs.items():
        if facts is kbs["40 facts"]:
            print(f"worst so far: dpll {worst['dpll']:.4f} s, tt {worst['tt']:.4f} s")
        kb = rules + parse("\n".join(facts))
        for text in STATEMENTS:
            statement = parse_sentence(text)
            unfixed = len(unfixed_symbols(kb, statement))
            answer, dpll = best_cpu(kb, statement, "dpll", args.repeat)
            tt = "-"
            if unfixed <= 28 or args.tt_all:
                tt_answer, seconds = best_cpu(kb, statement, "tt", args.repeat)
                assert tt_answer == answer, (label, text, tt_answer, answer)
                tt = f"{seconds:8.4f}"
                worst["tt"] = max(worst["tt"], seconds)
            worst["dpll"] = max(worst["dpll"], dpll)
            print(f"{label:34} {unfixed:7} {dpll:8.4f} {tt:>8}  {answer} / {text}")
    print(f"worst query: dpll {worst['dpll']:.4f} s, tt (<= 28 unfixed) {worst['tt']:.4f} s")

    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        (d / "empty.txt").write_text("")
        (d / "facts48.txt").write_text("\n".join(world_facts(48)) + "\n")
        (d / "st.txt").write_text(STATEMENTS[4] + "\n")
        for kb_file, method in [
            ("empty.txt", "dpll"),
            ("facts48.txt", "dpll"),
            ("facts48.txt", "tt"),
        ]:
            best = float("inf")
            for _ in range(args.repeat):
                before = time.perf_counter()
                done = subprocess.run(
                    [
                        sys.executable,
                        str(LAUNCHER),
                        str(RULES),
                        kb_file,
                        "st.txt",
                        "--method",
                        method,
                    ],
                    cwd=d,
                    capture_output=True,
                    text=True,
                    check=True,
                )
                best = min(best, time.perf_counter() - before)
            print(
                f"check_true_false.py {kb_file} --method {method}: "
                f"{best:.3f} s wall (whole process), {done.stdout.strip()}"
            )


if __name__ == "__main__":
    main()
