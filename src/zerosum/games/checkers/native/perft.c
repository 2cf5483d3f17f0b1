/* perft (perft.py): the leaf count of the move tree, the move generator's test. */

#include "checkers.h" /* first: Python.h sets the feature macros */

#include <stdlib.h>

/* The number of legal moves, counting steps by shifts without listing them. */
static long long count_moves(const Board *b, Position p, int black_to_move, int max_capture,
                             MoveList *scratch)
{
    if (generate_captures(b, p.black, p.white, p.kings, black_to_move, scratch) < 0)
        return -1;
    if (scratch->len) {
        if (max_capture)
            keep_longest(scratch);
        return scratch->len;
    }
    Bits own = black_to_move ? p.black : p.white;
    return count_steps(b, own, p.kings, b_andnot(b->valid, b_or(p.black, p.white)),
                       black_to_move);
}

/* Leaf count of the move tree `depth` plies deep; lists[d] is the move list of depth d.
 * -1: MemoryError. */
static long long perft_at(const Board *b, Position p, int black_to_move, int depth,
                          int max_capture, MoveList *lists)
{
    if (depth == 0)
        return 1;
    if (depth == 1)
        return count_moves(b, p, black_to_move, max_capture, &lists[1]);
    MoveList *moves = &lists[depth];
    if (generate(b, p.black, p.white, p.kings, black_to_move, max_capture, moves) < 0)
        return -1;
    long long total = 0;
    for (int i = 0; i < moves->len; i++) {
        long long n = perft_at(b, apply(b, p, black_to_move, &moves->m[i]), !black_to_move,
                               depth - 1, max_capture, lists);
        if (n < 0)
            return -1;
        total += n;
    }
    return total;
}

/* perft.perft: the leaf count `depth` plies deep; -1 with MemoryError set. */
long long perft(const Board *b, Position p, int black_to_move, int depth, int max_capture)
{
    MoveList *lists = calloc((size_t)depth + 2, sizeof *lists);
    if (lists == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    long long total = perft_at(b, p, black_to_move, depth, max_capture, lists);
    for (int d = 0; d < depth + 2; d++)
        free_list(&lists[d]);
    free(lists);
    return total;
}
