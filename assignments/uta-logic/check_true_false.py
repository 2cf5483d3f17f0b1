#!/usr/bin/env python3
"""The wumpus-world checker (propositional logic); see README.md in this folder."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
from zerosum.frontends.uta_logic import main

sys.exit(main(sys.argv[1:]))
