#!/usr/bin/env python3
"""Regenerate A4_output.txt, a4q8.txt and A4_EXECUTION.txt; see README.md in this folder."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
from zerosum.frontends.nqueens_a4 import generate as main

sys.exit(main([*sys.argv[1:], "--folder", str(Path(__file__).resolve().parent)]))
