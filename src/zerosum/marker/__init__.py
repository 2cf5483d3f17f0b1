"""The course system around the assignment programs: the auto-marker (check.py) that runs
a person's program on generated cases (cases.py) in a sandbox (sandbox.py) and compares
its answers with zerosum's reference programs."""
