"""Learning agents, graded against perfect play: `grade` (mistake rates against the
solvers' labels), `train` (the one trainer: self-play through match.play_match,
checkpoints, resume), `weights` (the one file format), `methods` (the methods by name:
`ntuple`, TD n-tuple networks) and `player` (a learned player, alone or at the leaves
of alpha-beta). See docs/learning.md."""
