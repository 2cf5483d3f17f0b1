#!/usr/bin/env python3
"""COMP3608 Connect Four (classic search and tournament player); see README.md in this folder"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
from zerosum.frontends.connect4 import main

sys.exit(main(sys.argv[1:]))
