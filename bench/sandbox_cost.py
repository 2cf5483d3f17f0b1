"""What containing a program costs per call: the wall time of `run_program` around a
program that does little (/bin/true; Python starting and ending; a C program printing a
line; a C program asking the file system 10000 times, to show a traced call's own cost),
in each of the sandbox's modes this system offers, with and without the trace of its
file attempts (strace), beside the time counted against the program (its `seconds`:
from when it starts to when it ends). Timings: run on a quiet machine.

    python bench/sandbox_cost.py [CALLS]
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from zerosum.sandbox import Limits, containment, run_program

C_PROGRAMS = {
    "hello": '#include <stdio.h>\nint main(void) { puts("hello"); return 0; }\n',
    "stats": ('#include <sys/stat.h>\nint main(void) { struct stat s;\n'
              '  for (int i = 0; i < 10000; i++) stat("/usr", &s);\n  return 0; }\n'),
}
STATS = 10000  # the file calls of the "stats" program


def measure(command: list[str], calls: int, folder: Path | None) -> tuple[float, float]:
    walls, counted = [], []
    for _ in range(calls):
        t0 = time.perf_counter()
        run = run_program(command, (), Limits(seconds=30), folder)
        walls.append(time.perf_counter() - t0)
        counted.append(run.seconds)
        assert run.status == 0 and not run.attempts, run
    return statistics.median(walls), statistics.median(counted)


def build(folder: Path) -> dict[str, tuple[list[str], Path | None]]:
    programs: dict[str, tuple[list[str], Path | None]] = {
        "/bin/true": (["/bin/true"], None), "python3 -c pass": (["python3", "-c", "pass"], None)}
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        return programs
    for name, source in C_PROGRAMS.items():
        (folder / f"{name}.c").write_text(source)
        subprocess.run([compiler, "-O1", "-o", str(folder / name), str(folder / f"{name}.c")],
                       check=True)
        programs[f"C {name}"] = ([f"./{name}"], folder)
    return programs


def main() -> None:
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    with tempfile.TemporaryDirectory() as scratch:
        programs = build(Path(scratch))
        print(f"{'mode':<8} {'traced':<6} {'program':<16} {'call (median)':>14} "
              f"{'counted':>10} {'overhead':>10}")
        counted_stats: dict[bool, float] = {}
        for mode in ("bwrap", "unshare", "limits"):
            for traced in (True, False):
                os.environ["ZEROSUM_SANDBOX"] = mode
                os.environ["ZEROSUM_TRACE"] = "on" if traced else "off"
                containment.cache_clear()
                if containment().mode != mode or containment().traced != traced:
                    print(f"{mode:<8} {'yes' if traced else 'no':<6} (not available here)")
                    continue
                for name, (command, folder) in programs.items():
                    wall, counted = measure(command, calls, folder)
                    if mode == "bwrap" and name == "C stats":
                        counted_stats[traced] = counted
                    print(f"{mode:<8} {'yes' if traced else 'no':<6} {name:<16} "
                          f"{wall * 1000:11.1f} ms {counted * 1000:7.1f} ms "
                          f"{(wall - counted) * 1000:7.1f} ms")
        if len(counted_stats) == 2:
            each = (counted_stats[True] - counted_stats[False]) / STATS
            print(f"a traced file call costs the program about {each * 1e6:.1f} us "
                  f"(bwrap, C stats: counted time traced minus untraced, / {STATS})")


if __name__ == "__main__":
    main()
