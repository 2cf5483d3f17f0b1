"""Local search: a generic greedy hill climber and the problems it climbs (the TSP)."""

from zerosum.localsearch.hillclimb import Climb, Problem, Step, Stop, hill_climb
from zerosum.localsearch.tsp import TSP, DistanceMatrix, Tour, canonical

__all__ = [
    "TSP",
    "Climb",
    "DistanceMatrix",
    "Problem",
    "Step",
    "Stop",
    "Tour",
    "canonical",
    "hill_climb",
]
