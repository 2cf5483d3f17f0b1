"""zerosum: play and solve two-player, perfect-information, zero-sum games."""

__version__ = "0.1.0"
