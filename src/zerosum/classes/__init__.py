"""A whole class at once: every submission of a folder built, marked and played, each in
the sandbox (zerosum.sandbox), nothing of a submission trusted (docs/class.md).

- `build`: the submissions of a folder, their safe names, and how each is built and run
  (a Makefile, build.sh, javac, gcc, or nothing; a folder's run.txt says the command);
- `mark`: `zerosum class mark`: every submission marked by zerosum.marker.check on the same
  cases, a gradebook CSV, a report each and an HTML summary, resumable;
- `play`: `zerosum class tournament`: every submission that builds enters a tournament
  (zerosum.tournament) as its course's player, beside zerosum's reference players.

Above the marker, the assignment programs and the tournament; below the command line.
"""
