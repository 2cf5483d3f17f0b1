"""The classic assignment front-ends: one module each, `main(argv) -> exit status`.

They only parse arguments, call the library and print. `zerosum.console.guarded` gives
them all the same behaviour on bad input: one line on stderr naming the problem, exit 2.

They are not programs themselves: the assignment launchers and `zerosum assignment NAME`
run them; `python -m zerosum.frontends.X` prints a one-line pointer to those, exit 2.
That pointer needs the command's table of assignments (cli/assignment.py), so each
module imports it inside its `if __name__ == "__main__":` block only: the import runs
only when the module is the program itself, never when cli/ imports a front end, so
front ends do not depend on cli/ (tests/test_layers.py allows exactly this import).
"""
