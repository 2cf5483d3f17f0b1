#!/usr/bin/env python3
"""The Max-Connect4 program (one-move and interactive modes); see README.md in this folder."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
from zerosum.frontends.uta_maxconnect4 import main

sys.exit(main(sys.argv[1:]))
