/* The engine's transposition table: the Zobrist hash of a position (board.py's keys),
 * and its entries, kept in the Python TranspositionTable's own dict as (depth, bound,
 * points, path) tuples (kernel.h), so what the engine keeps from move to move, the
 * table's bound (make_room, capacity_for) and the principal variation read from it stay
 * the Python's. */

#include "checkers.h"

/* The Zobrist hash after `move` (board.py's zobrist keys, handed over), from `h`. */
uint64_t hash_after(const Search *S, uint64_t h, Position p, int black_to_move,
                    const Move *move, Bits new_kings)
{
    int f = move->path[0], t = move->path[move->len - 1];
    int side = black_to_move ? 0 : 1;
    h ^= S->zobrist[side + (b_has(p.kings, f) ? 2 : 0)][f];
    h ^= S->zobrist[side + (b_has(new_kings, t) ? 2 : 0)][t];
    Bits taken = move->taken;
    int other = 1 - side;
    for (int s = pop_lowest(&taken); s >= 0; s = pop_lowest(&taken))
        h ^= S->zobrist[other + (b_has(p.kings, s) ? 2 : 0)][s];
    return h ^ S->zobrist_black;
}

/* Win scores count plies from the root; the table stores them from this node. */
long to_table(long v, int ply)
{
    if (v >= WIN_BOUND)
        return v + ply;
    if (v <= -WIN_BOUND)
        return v - ply;
    return v;
}

long from_table(long v, int ply)
{
    if (v >= WIN_BOUND)
        return v - ply;
    if (v <= -WIN_BOUND)
        return v + ply;
    return v;
}

/* A table entry (depth, bound, points, path) read; 1 found, 0 none, -1 error. */
int probe(Search *S, PyObject *key, long *depth, long *bound, long *v, uint8_t *path,
          int *len)
{
    PyObject *entry;
    const int found = table_probe(S->entries, key, &entry);
    if (found <= 0)
        return found;
    *depth = PyLong_AsLong(PyTuple_GET_ITEM(entry, 0));
    *bound = PyLong_AsLong(PyTuple_GET_ITEM(entry, 1));
    *v = PyLong_AsLong(PyTuple_GET_ITEM(entry, 2));
    if (PyErr_Occurred())
        return -1;
    PyObject *p = PyTuple_GET_ITEM(entry, 3);
    *len = 0;
    if (p != Py_None) {
        Py_ssize_t n = PyTuple_Check(p) ? PyTuple_GET_SIZE(p) : 0;
        if (n < 1 || n > MAX_PATH) {
            PyErr_SetString(PyExc_TypeError, "a checkers table move is a path");
            return -1;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            long sq = PyLong_AsLong(PyTuple_GET_ITEM(p, i));
            if (sq < 0 || sq >= MAX_SIZE) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "a square off the board");
                return -1;
            }
            path[i] = (uint8_t)sq;
        }
        *len = (int)n;
    }
    return 1;
}

/* entries[key] = (depth, bound, points, path) */
int store(Search *S, PyObject *key, int depth, long bound, long v, const Move *best)
{
    PyObject *fields[4] = {PyLong_FromLong(depth), PyLong_FromLong(bound), PyLong_FromLong(v),
                           path_to_py(best)};
    return table_store(S->entries, key, fields);
}
