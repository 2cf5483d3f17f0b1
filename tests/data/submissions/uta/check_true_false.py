"""An example wumpus-checker submission for the auto-marker's tests: it never reasons,
and always writes the answer given as --always (default: possibly true, possibly false)."""

import sys

answer = "possibly true, possibly false"
if sys.argv[1:2] == ["--always"]:
    answer = sys.argv[2]
with open("result.txt", "w") as f:
    f.write(answer + "\n")
