"""zerosum: play and solve two-player, perfect-information, zero-sum games."""

# Kept valid Python 3.6 and free of imports: every launcher imports this package before
# it can check the Python version (see zerosum/_launch.py).
__version__ = "0.1.0"
# The oldest Python zerosum runs on, which every launcher checks first: keep it equal to
# requires-python in pyproject.toml (a test checks).
REQUIRES = (3, 10)
