"""`python -m zerosum`: the `zerosum` command. Valid Python 3.6, like zerosum/_launch.py,
so that an old Python gets a one-line answer rather than a SyntaxError."""

import sys

from zerosum._launch import zerosum_main

sys.exit(zerosum_main())
