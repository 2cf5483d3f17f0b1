#!/usr/bin/env python3
"""CMPT 317 A4 question 5 (N-Queens game); see README.md in this folder."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
from zerosum.frontends.nqueens_a4 import q5 as main

sys.exit(main(sys.argv[1:]))
