/* The engine's node function, a twin of CheckersKernel.negamax (engine.py), and the
 * Python type `Search` that holds one kernel's search: its board, Zobrist keys, the
 * evaluation's weights, the table's dict, and the killer moves and the history heuristic,
 * which live here (`history()` hands the latter back for the root's ordering, which the
 * Python does).
 *
 * Reporting back: every 1,024 nodes (as engine.py) the search calls the kernel's
 * `observe(nodes)` (kernel.h's node prologue), which runs the kernel's `check` at that
 * count (the stop, the node budget, the table's room); the SearchStopped it may raise
 * unwinds the recursion as the ERROR value. The kernel comes with each `negamax` call,
 * never kept: a kernel holds its search, and a search holding the kernel would be a
 * cycle that only the garbage collector frees. */

#include "checkers.h" /* first: Python.h sets the feature macros */

#include <stdlib.h>
#include <string.h>

static int drawn(const Search *S, uint64_t h, int game_ply, int quiet, int since)
{
    if (S->ply_limit && game_ply >= S->ply_limit)
        return 1;
    if (S->tournament && quiet >= TOURNAMENT_QUIET_PLIES)
        return 1;
    /* Any repetition since the last irreversible move counts as a draw inside the
     * search: the side that repeated could repeat again, and it stops circling. */
    for (int i = since; i < S->line_len - 1; i++)
        if (S->line[i] == h)
            return 1;
    return 0;
}

static int same_path(const uint8_t *a, int alen, const uint8_t *b, int blen)
{
    return alen == blen && memcmp(a, b, (size_t)alen) == 0;
}

static long rank_of(const Search *S, const Move *m, int ply, int side)
{
    const Killer *k = S->killers[ply];
    if (same_path(m->path, m->len, k[0].path, k[0].len))
        return -1000000;
    if (same_path(m->path, m->len, k[1].path, k[1].len))
        return -999999;
    return -(long)S->history[side][m->path[0]][m->path[1]];
}

/* The table's move, then (ordering) the longest captures or (killers) the killer moves
 * and the steps with the most history. Python's sort is stable: so is this insertion
 * sort (the lists are short). Fills S->orders[ply]. */
static int order(Search *S, int ply, const uint8_t *tt_move, int tt_len, int btm)
{
    MoveList *moves = &S->lists[ply];
    if (S->order_cap[ply] < moves->len) {
        int cap = moves->len < 64 ? 64 : moves->len;
        int *o = realloc(S->orders[ply], (size_t)cap * sizeof *o);
        if (o != NULL)
            S->orders[ply] = o;
        long *k = realloc(S->keys[ply], (size_t)cap * sizeof *k);
        if (k != NULL)
            S->keys[ply] = k;
        if (o == NULL || k == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        S->order_cap[ply] = cap;
    }
    int *o = S->orders[ply];
    int count = moves->len;
    for (int i = 0; i < count; i++)
        o[i] = i;
    int capture = b_any(moves->m[0].taken);
    if ((capture && S->ordering) || (!capture && S->killing)) {
        long *keys = S->keys[ply];
        int side = btm ? 0 : 1;
        for (int i = 0; i < count; i++)
            keys[i] = capture ? -moves->m[i].len : rank_of(S, &moves->m[i], ply, side);
        for (int i = 1; i < count; i++) {
            int idx = o[i];
            long key = keys[idx];
            int j = i - 1;
            while (j >= 0 && keys[o[j]] > key) {
                o[j + 1] = o[j];
                j--;
            }
            o[j + 1] = idx;
        }
    }
    if (tt_len) {
        for (int i = 0; i < count; i++) {
            const Move *m = &moves->m[o[i]];
            if (same_path(m->path, m->len, tt_move, tt_len)) {
                int idx = o[i];
                memmove(o + 1, o, (size_t)i * sizeof *o);
                o[0] = idx;
                break;
            }
        }
    }
    return 0;
}

static void remember_cutoff(Search *S, const Move *move, int ply, int depth, int btm)
{
    Killer *k = S->killers[ply];
    if (!same_path(k[0].path, k[0].len, move->path, move->len)) {
        k[1] = k[0];
        memcpy(k[0].path, move->path, (size_t)move->len);
        k[0].len = move->len;
    }
    S->history[btm ? 0 : 1][move->path[0]][move->path[1]] += (long long)depth * depth;
}

static int line_push(Search *S, uint64_t h)
{
    if (S->line_len == S->line_cap) {
        int cap = S->line_cap ? 2 * S->line_cap : 256;
        uint64_t *l = realloc(S->line, (size_t)cap * sizeof *l);
        if (l == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        S->line = l;
        S->line_cap = cap;
    }
    S->line[S->line_len++] = h;
    return 0;
}

static long evaluate(const Search *S, Position p, int btm)
{
    long s = score(S->b, &S->weights, p.black, p.white, p.kings);
    return btm ? s : -s;
}

/* Value for the side to move (see CheckersKernel.negamax); S->line holds the hashes
 * from the start of the reversible stretch to here, `since` where the current one began. */
static long negamax(Search *S, Position p, int btm, uint64_t h, int depth, long alpha,
                    long beta, int ply, int game_ply, int quiet, int since)
{
    const Board *b = S->b;
    if (counted_node(&S->count, CHECK_EVERY) < 0)
        return ERROR;
    if (ply > S->seldepth)
        S->seldepth = ply;
    MoveList *moves = &S->lists[ply];
    if (generate_captures(b, p.black, p.white, p.kings, btm, moves) < 0)
        return ERROR;
    if ((depth <= 0 && !(moves->len && S->quiescence)) || ply >= MAX_PLY) {
        /* A leaf: only ask whether a move exists. */
        if (!moves->len && !count_steps(b, btm ? p.black : p.white, p.kings,
                                        b_andnot(b->valid, b_or(p.black, p.white)), btm))
            return -(WIN - ply);
        if (drawn(S, h, game_ply, quiet, since))
            return 0;
        return evaluate(S, p, btm);
    }
    if (moves->len) {
        if (S->max_capture)
            keep_longest(moves);
    } else {
        if (generate_steps(b, p.black, p.white, p.kings, btm, moves) < 0)
            return ERROR;
        if (!moves->len)
            return -(WIN - ply);
    }
    if (drawn(S, h, game_ply, quiet, since))
        return 0;
    if (moves->len == 1 && S->quiescence)
        depth += 1; /* a forced move costs no depth */

    PyObject *key = NULL;
    uint8_t tt_move[MAX_PATH];
    int tt_len = 0;
    if (S->entries != NULL) {
        key = PyLong_FromUnsignedLongLong(h);
        if (key == NULL)
            return ERROR;
        long e_depth, bound, v;
        int found = probe(S, key, &e_depth, &bound, &v, tt_move, &tt_len);
        if (found < 0) {
            Py_DECREF(key);
            return ERROR;
        }
        if (found) {
            S->count.hits += 1;
            if (e_depth >= depth) {
                v = from_table(v, ply);
                if (bound == EXACT || (bound == LOWER && v >= beta)
                    || (bound == UPPER && v <= alpha)) {
                    Py_DECREF(key);
                    return v;
                }
            }
        }
    }

    long result = ERROR;
    if (order(S, ply, tt_move, tt_len, btm) < 0)
        goto done;
    long a0 = alpha, best_value = -WIN;
    int best = S->orders[ply][0];
    for (int i = 0; i < moves->len; i++) {
        /* the list of this ply stays put: the children use the lists of later plies */
        int idx = S->orders[ply][i];
        const Move *move = &moves->m[idx];
        Position child = apply(b, p, btm, move);
        uint64_t nh = hash_after(S, h, p, btm, move, child.kings);
        int irreversible = b_any(move->taken) || !b_has(p.kings, move->path[0]);
        if (line_push(S, nh) < 0)
            goto done;
        int child_since = irreversible ? S->line_len - 1 : since;
        int child_quiet = irreversible ? 0 : quiet + 1;
        long v;
        if (i == 0 || !S->pvs) {
            v = negamax(S, child, !btm, nh, depth - 1, -beta, -alpha, ply + 1, game_ply + 1,
                        child_quiet, child_since);
            v = v == ERROR ? ERROR : -v;
        } else { /* principal-variation search: prove it is worse with a null window */
            v = negamax(S, child, !btm, nh, depth - 1, -alpha - 1, -alpha, ply + 1,
                        game_ply + 1, child_quiet, child_since);
            v = v == ERROR ? ERROR : -v;
            if (v != ERROR && alpha < v && v < beta) {
                v = negamax(S, child, !btm, nh, depth - 1, -beta, -v, ply + 1, game_ply + 1,
                            child_quiet, child_since);
                v = v == ERROR ? ERROR : -v;
            }
        }
        S->line_len--;
        if (v == ERROR)
            goto done;
        if (v > best_value) {
            best_value = v;
            best = idx;
        }
        if (v > alpha)
            alpha = v;
        if (alpha >= beta) {
            if (!b_any(move->taken) && S->killing)
                remember_cutoff(S, move, ply, depth, btm);
            break;
        }
    }
    if (S->entries != NULL) {
        long bound = best_value <= a0 ? UPPER : best_value >= beta ? LOWER : EXACT;
        if (store(S, key, depth, bound, to_table(best_value, ply), &moves->m[best]) < 0)
            goto done;
    }
    result = best_value;
done:
    Py_XDECREF(key);
    return result;
}

static int Search_init(Search *S, PyObject *args, PyObject *kwds)
{
    static char *names[] = {"n", "zobrist", "zobrist_black", "max_capture", "ply_limit",
                            "tournament", "ordering", "pvs", "killers", "quiescence",
                            "entries", "weights", "stopped", NULL};
    int n;
    PyObject *zobrist, *entries, *weights, *stopped;
    unsigned long long zobrist_black;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOKpipppppOOO", names, &n, &zobrist,
                                     &zobrist_black, &S->max_capture, &S->ply_limit,
                                     &S->tournament, &S->ordering, &S->pvs, &S->killing,
                                     &S->quiescence, &entries, &weights, &stopped)
        || read_weights_into(weights, &S->weights) < 0
        || counter_init(&S->count, NULL, stopped) < 0)
        return -1;
    S->b = board(n);
    if (S->b == NULL)
        return -1;
    if (entries != Py_None && !PyDict_Check(entries)) {
        PyErr_SetString(PyExc_TypeError, "entries must be a dict or None");
        return -1;
    }
    PyObject *rows = PySequence_Fast(zobrist, "zobrist must be four sequences");
    if (rows == NULL)
        return -1;
    int ok = PySequence_Fast_GET_SIZE(rows) == 4;
    for (int kind = 0; ok && kind < 4; kind++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(rows, kind), "a zobrist row");
        if (row == NULL || PySequence_Fast_GET_SIZE(row) != S->b->size) {
            Py_XDECREF(row);
            ok = 0;
            break;
        }
        for (int sq = 0; sq < S->b->size; sq++)
            S->zobrist[kind][sq] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(row, sq));
        Py_DECREF(row);
        if (PyErr_Occurred())
            ok = 0;
    }
    Py_DECREF(rows);
    if (!ok) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "zobrist: four rows of one key per bit");
        return -1;
    }
    S->zobrist_black = zobrist_black;
    Py_XSETREF(S->entries, entries == Py_None ? NULL : Py_NewRef(entries));
    if (S->history == NULL) {
        S->history = calloc(2, sizeof *S->history);
        if (S->history == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

static void Search_dealloc(Search *S)
{
    for (int i = 0; i < MAX_PLY + 2; i++) {
        free_list(&S->lists[i]);
        free(S->orders[i]);
        free(S->keys[i]);
    }
    free(S->history);
    free(S->line);
    Py_XDECREF(S->entries);
    COUNTER_CLEAR(&S->count);
    Py_TYPE(S)->tp_free((PyObject *)S);
}

/* negamax(kernel, black, white, kings, btm, h, depth, alpha, beta, ply, game_ply, quiet,
 * line, since): CheckersKernel.negamax's arguments after the kernel, whose nodes, hits
 * and seldepth it carries on counting (and writes back, whatever happens). */
static PyObject *Search_negamax(Search *S, PyObject *args)
{
    PyObject *kernel, *black, *white, *kings, *line;
    int btm, depth, ply, game_ply, quiet, since;
    unsigned long long h;
    long alpha, beta;
    Position p;
    if (!PyArg_ParseTuple(args, "OOOOpKilliiiO!i", &kernel, &black, &white, &kings, &btm,
                          &h, &depth, &alpha, &beta, &ply, &game_ply, &quiet, &PyList_Type,
                          &line, &since))
        return NULL;
    if (bits_from_py(black, &p.black) < 0 || bits_from_py(white, &p.white) < 0
        || bits_from_py(kings, &p.kings) < 0 || check_position(S->b, p) < 0)
        return NULL;
    if (ply < 0 || ply > MAX_PLY) {
        PyErr_SetString(PyExc_ValueError, "ply out of range");
        return NULL;
    }
    S->line_len = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(line); i++) {
        unsigned long long x = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(line, i));
        if ((x == (unsigned long long)-1 && PyErr_Occurred()) || line_push(S, x) < 0)
            return NULL;
    }
    PyObject *counts[3];
    const char *names[3] = {"nodes", "hits", "seldepth"};
    long long values[3];
    for (int i = 0; i < 3; i++) {
        counts[i] = PyObject_GetAttrString(kernel, names[i]);
        values[i] = counts[i] == NULL ? -1 : PyLong_AsLongLong(counts[i]);
        Py_XDECREF(counts[i]);
        if (values[i] == -1 && PyErr_Occurred())
            return NULL;
    }
    S->count.nodes = values[0];
    S->count.hits = values[1];
    S->seldepth = (int)values[2];
    PyObject *observe = PyObject_GetAttrString(kernel, "observe");
    if (observe == NULL || counter_watch(&S->count, observe) < 0) {
        Py_XDECREF(observe);
        return NULL;
    }
    Py_DECREF(observe);
    long v = negamax(S, p, btm, h, depth, alpha, beta, ply, game_ply, quiet, since);
    Py_CLEAR(S->count.observe);
    /* written back even when a SearchStopped is on its way (the driver reports them) */
    PyObject *exc_type, *exc_value, *exc_tb;
    PyErr_Fetch(&exc_type, &exc_value, &exc_tb);
    values[0] = S->count.nodes;
    values[1] = S->count.hits;
    values[2] = S->seldepth;
    for (int i = 0; i < 3; i++) {
        PyObject *x = PyLong_FromLongLong(values[i]);
        if (x == NULL || PyObject_SetAttrString(kernel, names[i], x) < 0) {
            Py_XDECREF(x);
            Py_XDECREF(exc_type);
            Py_XDECREF(exc_value);
            Py_XDECREF(exc_tb);
            return NULL;
        }
        Py_DECREF(x);
    }
    PyErr_Restore(exc_type, exc_value, exc_tb);
    if (v == ERROR)
        return NULL;
    return PyLong_FromLong(v);
}

/* history(): the history heuristic's counts, as the Python kernel keeps them:
 * {(side, from * 256 + to): count}, for the root's ordering. */
static PyObject *Search_history(Search *S, PyObject *unused)
{
    (void)unused;
    PyObject *out = PyDict_New();
    if (out == NULL)
        return NULL;
    for (int side = 0; side < 2; side++)
        for (int f = 0; f < S->b->size; f++)
            for (int t = 0; t < S->b->size; t++) {
                long long x = S->history[side][f][t];
                if (!x)
                    continue;
                PyObject *key = Py_BuildValue("(ii)", side, f * 256 + t);
                PyObject *value = PyLong_FromLongLong(x);
                int r = key == NULL || value == NULL ? -1 : PyDict_SetItem(out, key, value);
                Py_XDECREF(key);
                Py_XDECREF(value);
                if (r < 0) {
                    Py_DECREF(out);
                    return NULL;
                }
            }
    return out;
}

static PyMethodDef Search_methods[] = {
    {"negamax", (PyCFunction)Search_negamax, METH_VARARGS,
     "CheckersKernel.negamax compiled: negamax(kernel, black, white, kings, btm, h, depth, "
     "alpha, beta, ply, game_ply, quiet, line, since) -> points for the side to move."},
    {"history", (PyCFunction)Search_history, METH_NOARGS,
     "The history heuristic's counts: {(side, from * 256 + to): count}."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "zerosum.games.checkers._checkers.Search",
    .tp_doc = "The engine's node function, killers and history for one kernel (engine.py).",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
};
