"""Local search: a generic greedy hill climber and the problems it climbs (the TSP)."""

from zerosum.localsearch.hillclimb import Climb, Halt, Problem, Step, hill_climb
from zerosum.localsearch.tsp import TSP, DistanceMatrix, Tour, canonical

__all__ = [
    "TSP",
    "Climb",
    "DistanceMatrix",
    "Halt",
    "Problem",
    "Step",
    "Tour",
    "canonical",
    "hill_climb",
]
