"""Adversarial search algorithms; they know no game, only the protocol in zerosum.game."""

from zerosum.result import SearchResult, SearchStats, TraceEvent, Tracer
from zerosum.search.alphabeta import alphabeta_search
from zerosum.search.iterative import iterative_deepening_search
from zerosum.search.mcts import mcts_search
from zerosum.search.minimax import minimax_search
from zerosum.stop import SearchStopped, Stop
from zerosum.table import Bound, TranspositionTable

__all__ = [
    "Bound",
    "SearchResult",
    "SearchStats",
    "SearchStopped",
    "Stop",
    "TraceEvent",
    "Tracer",
    "TranspositionTable",
    "alphabeta_search",
    "iterative_deepening_search",
    "mcts_search",
    "minimax_search",
]
