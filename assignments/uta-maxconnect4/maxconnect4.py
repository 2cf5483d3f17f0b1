#!/usr/bin/env python3
"""The Max-Connect4 program (one-move and interactive modes); see README.md in this folder."""
import os
import sys

# Ctrl-C from here on exits 130 quietly. _signal, the core of signal, comes loaded with the
# interpreter (as os does); importing signal would first import enum, which takes a while.
signals = sys.modules.get("_signal") or __import__("signal")
signals.signal(signals.SIGINT, lambda signum, frame: os._exit(130))

# The zerosum package: beside this file in an export, ../../src in the repository.
HERE = os.path.dirname(os.path.realpath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, os.pardir, os.pardir, "src")]
from zerosum._launch import launch  # noqa: E402  (checks the Python version first)

sys.exit(launch("zerosum.frontends.uta_maxconnect4:main"))
