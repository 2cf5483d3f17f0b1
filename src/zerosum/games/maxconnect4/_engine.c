/* The Max-Connect4 engine's node function, compiled: a twin of the `negamax` closure that
 * MaxConnect4Kernel.node_function builds (engine.py), and of the evaluation it calls,
 * bitboard.potential. The Python stays the reference; every step that decides which
 * nodes are visited is the same here, under the same names: the table key and its
 * mirror image, the table's bounds and move, the children's order (the table's move,
 * then the moves that score, then the centre first, a stable sort as Python's), principal
 * variation search, the entries stored. So values, moves and node counts are identical.
 *
 * The table is the Python TranspositionTable's own dict (the same keys and entry tuples),
 * made room in by its own make_room: what is kept from search to search, and the
 * principal variation read from it, stay the Python's.
 *
 * Reporting back: every 1,024 nodes (CHECK_EVERY) the search calls the kernel's
 * `observe(nodes)` (kernel.h's node prologue); when it says stop, SearchStopped is raised
 * and unwinds the recursion as the ERROR value. The counts go back into the kernel's
 * `counter` list on every return. The evaluation's weights are bitboard.py's, handed over
 * when the search is made.
 *
 * The board is Pons's layout (bitboard.py): 7 columns of 7 bits, 49 bits, one machine
 * word. bitboard.potential counts both players in one integer ("SIMD within a
 * register", the opponent's board from bit 73 up); here each player is a word of its
 * own, which gives the same counts (the halves never mix there either). */

#include "../kernel.h"
#include "../connect4/_bitboard.h" /* the same layout: the bitboard type, popcount */

/* as bitboard.py */
#define ROWS 6
#define COLS 7
#define H (ROWS + 1)
#define CELLS (ROWS * COLS)
/* as engine.py */
#define EXACT 0
#define LOWER 1
#define UPPER 2
#define INFINITY_ 1000000L /* beyond any value in hundredths */
#define CHECK_EVERY 1024
#define MIRROR_PIECES 12
#define ERROR LONG_MIN /* a Python exception is set: unwind */

/* bitboard.py's POTENTIAL_WEIGHTS, in its order */
typedef struct {
    long open_one, open_two, threat_now, threat_own_row, threat_other_row;
} Weights;
#define WEIGHT_COUNT 5

static int read_weights_into(PyObject *weights, Weights *w)
{
    long x[WEIGHT_COUNT];
    if (read_weights(weights, x, WEIGHT_COUNT) < 0)
        return -1;
    *w = (Weights){x[0], x[1], x[2], x[3], x[4]};
    return 0;
}

static bitboard BOTTOM, BOARD, ODD_ROWS, EVEN_ROWS, COLUMN[COLS], BOTTOM_OF[COLS];
static bitboard QUADRUPLES_AT[H * COLS][16];
static int quadruples_at[H * COLS]; /* how many pass through each cell */
static const int DIRECTIONS[4] = {1, H, H - 1, H + 1};
static const int CENTRE_FIRST[COLS] = {3, 2, 4, 1, 5, 0, 6};
static const int LEFT_TO_RIGHT[COLS] = {0, 1, 2, 3, 4, 5, 6};

static bitboard cell(int col, int row) { return (bitboard)1 << (H * col + row); }

static void build_tables(void)
{
    for (int c = 0; c < COLS; c++) {
        BOTTOM |= cell(c, 0);
        BOTTOM_OF[c] = cell(c, 0);
        COLUMN[c] = (((bitboard)1 << ROWS) - 1) << (H * c);
    }
    BOARD = BOTTOM * ((1 << ROWS) - 1);
    ODD_ROWS = BOTTOM * 0x15;  /* 0b010101 */
    EVEN_ROWS = BOTTOM * 0x2A; /* 0b101010 */
    const int steps[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    for (int c = 0; c < COLS; c++)
        for (int r = 0; r < ROWS; r++)
            for (int k = 0; k < 4; k++) {
                int dc = steps[k][0], dr = steps[k][1], ec = c + 3 * dc, er = r + 3 * dr;
                if (ec < 0 || ec >= COLS || er < 0 || er >= ROWS)
                    continue;
                bitboard q = 0;
                for (int i = 0; i < 4; i++)
                    q |= cell(c + i * dc, r + i * dr);
                for (int i = 0; i < H * COLS; i++)
                    if (q >> i & 1)
                        QUADRUPLES_AT[i][quadruples_at[i]++] = q;
            }
}

static bitboard playable_cells(bitboard mask) { return (mask + BOTTOM) & BOARD; }

/* One player's open quadruples by the pieces they hold, and its threats (the empty cell
 * of an open quadruple holding three); `sign` +1 for the mover, -1 for the opponent. */
static long open_quadruples(const Weights *w, bitboard own, bitboard empty, int sign,
                            bitboard *threats)
{
    bitboard free_ = own | empty;
    long value = 0;
    for (int k = 0; k < 4; k++) {
        int d = DIRECTIONS[k];
        bitboard starts = free_ & free_ >> d & free_ >> 2 * d & free_ >> 3 * d & BOARD;
        bitboard a0 = own, a1 = own >> d, a2 = own >> 2 * d, a3 = own >> 3 * d;
        bitboard low1 = a0 ^ a1, high1 = a0 & a1, low2 = a2 ^ a3, high2 = a2 & a3;
        bitboard ones = starts & (low1 ^ low2);
        bitboard twos = starts & (high1 ^ high2 ^ (low1 & low2));
        bitboard holding1 = ones & ~twos, holding2 = twos & ~ones, holding3 = ones & twos;
        value += sign * (w->open_one * popcount(holding1) + w->open_two * popcount(holding2));
        if (holding3) {
            *threats |= (holding3 & ~a0) | (holding3 & ~a1) << d | (holding3 & ~a2) << 2 * d;
            *threats |= (holding3 & ~a3) << 3 * d;
        }
    }
    return value;
}

/* bitboard.potential: the mover's expected gain of further points minus the opponent's,
 * in hundredths (see its doc for the terms and the parity rule). */
static long potential(const Weights *w, bitboard mine, bitboard theirs, bitboard mask)
{
    bitboard empty = BOARD & ~mask, my_threats = 0, their_threats = 0;
    long value = open_quadruples(w, mine, empty, 1, &my_threats)
                 + open_quadruples(w, theirs, empty, -1, &their_threats);
    if (my_threats | their_threats) {
        bitboard playable = playable_cells(mask);
        bitboard my_rows = popcount(mask) % 2 == 0 ? ODD_ROWS : EVEN_ROWS;
        bitboard mine_later = my_threats & empty & ~playable;
        bitboard their_later = their_threats & empty & ~playable;
        value += w->threat_now * popcount(my_threats & playable);
        value += w->threat_own_row * popcount(mine_later & my_rows);
        value += w->threat_other_row * popcount(mine_later & ~my_rows);
        value -= w->threat_own_row * popcount(their_later & ~my_rows);
        value -= w->threat_other_row * popcount(their_later & my_rows);
    }
    return value;
}

/* The board reflected left to right (column c goes to column 6 - c). */
static bitboard mirror(bitboard board)
{
    bitboard col = 0x7F;
    return (board & col) << 42 | (board & col << 7) << 28 | (board & col << 14) << 14
           | (board & col << 21) | (board & col << 28) >> 14 | (board & col << 35) >> 28
           | (board & col << 42) >> 42;
}

/* The table key of a position (Pons's mine + mask), and whether it is its mirror's. */
static bitboard table_key(bitboard mine, bitboard mask, int *flipped)
{
    bitboard key = mine + mask;
    *flipped = 0;
    if (popcount(mask) < MIRROR_PIECES) {
        bitboard mirrored = mirror(key);
        if (mirrored < key) {
            *flipped = 1;
            return mirrored;
        }
    }
    return key;
}

typedef struct {
    int gained, col;
    bitboard mine2;
} Child;

/* The moves in search order (engine.children): `columns`, and with `ordering` the moves
 * that score before the others, the table's move kept first. Python's sort is stable,
 * also in reverse: so is this insertion sort. Returns how many. */
static int children(bitboard mine, bitboard mask, const int *columns, int ordering,
                    int first, Child *found)
{
    int n = 0;
    for (int i = 0; i < COLS; i++) {
        int col = columns[i];
        bitboard move = (mask + BOTTOM_OF[col]) & COLUMN[col];
        if (!move)
            continue; /* the column is full */
        bitboard mine2 = mine | move;
        int at = __builtin_ctzll(move), gained = 0; /* gcc and clang */
        for (int k = 0; k < quadruples_at[at]; k++)
            if ((mine2 & QUADRUPLES_AT[at][k]) == QUADRUPLES_AT[at][k])
                gained++;
        found[n].gained = gained;
        found[n].col = col;
        found[n].mine2 = mine2;
        n++;
    }
    if (ordering) {
        int start = first >= 0 ? 1 : 0;
        for (int i = start + 1; i < n; i++) {
            Child c = found[i];
            int j = i - 1;
            while (j >= start && found[j].gained < c.gained) {
                found[j + 1] = found[j];
                j--;
            }
            found[j + 1] = c;
        }
    }
    return n;
}

typedef struct {
    PyObject_HEAD
    PyObject *entries;   /* the table's dict, or NULL without a table */
    PyObject *make_room; /* the table's make_room */
    PyObject *counter;   /* the kernel's [nodes, hits] */
    Counter count;       /* the kernel's observe(nodes) -> bool, the counts in C */
    Weights weights;
    Py_ssize_t capacity;
    int ordering, pvs;
    int orders[COLS + 1][COLS]; /* [table move + 1]: the column order starting with it */
} Search;

/* The table's entry: 1 found (remaining -1 for None), 0 none, -1 error. */
static int probe(Search *S, PyObject *key, long *remaining, long *bound, long *stored,
                 long *move)
{
    PyObject *entry;
    const int found = table_probe(S->entries, key, &entry);
    if (found <= 0)
        return found;
    PyObject *r = PyTuple_GET_ITEM(entry, 0);
    *remaining = r == Py_None ? -1 : PyLong_AsLong(r);
    *bound = PyLong_AsLong(PyTuple_GET_ITEM(entry, 1));
    *stored = PyLong_AsLong(PyTuple_GET_ITEM(entry, 2));
    *move = PyLong_AsLong(PyTuple_GET_ITEM(entry, 3));
    if (PyErr_Occurred())
        return -1;
    if (*move < -1 || *move >= COLS) {
        PyErr_SetString(PyExc_ValueError, "a table move off the board");
        return -1;
    }
    return 1;
}

static int store(Search *S, PyObject *key, long remaining, long bound, long best,
                 long best_move)
{
    if (PyDict_GET_SIZE(S->entries) >= S->capacity) {
        /* Within a pass too: one deep pass alone can outgrow any memory. */
        PyObject *r = PyObject_CallNoArgs(S->make_room);
        if (r == NULL)
            return -1;
        Py_DECREF(r);
    }
    PyObject *fields[4] = {remaining < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(remaining),
                           PyLong_FromLong(bound), PyLong_FromLong(best),
                           PyLong_FromLong(best_move)};
    return table_store(S->entries, key, fields);
}

/* The value for the mover (hundredths of a point) of the position where the mover holds
 * `mine`, the opponent `theirs` and the mover leads by `diff` points, searched `depth`
 * plies deep. Fail-soft: outside (alpha, beta) it is a bound on the true value. */
static long negamax(Search *S, bitboard mine, bitboard theirs, long diff, int depth,
                    long alpha, long beta)
{
    if (counted_node(&S->count, CHECK_EVERY) < 0)
        return ERROR;
    bitboard mask = mine | theirs;
    if (mask == BOARD)
        return 100 * diff;
    if (depth <= 0)
        return 100 * diff + potential(&S->weights, mine, theirs, mask);
    long table_move = -1;
    int flipped = 0;
    PyObject *key = NULL;
    if (S->entries != NULL) {
        key = PyLong_FromUnsignedLongLong(table_key(mine, mask, &flipped));
        if (key == NULL)
            return ERROR;
        long remaining, bound, stored;
        int found = probe(S, key, &remaining, &bound, &stored, &table_move);
        if (found < 0) {
            Py_DECREF(key);
            return ERROR;
        }
        if (found) {
            if (flipped)
                table_move = 6 - table_move;
            if (remaining < 0 || remaining >= depth) {
                S->count.hits += 1;
                if (bound == EXACT) {
                    Py_DECREF(key);
                    return stored;
                }
                if (bound == LOWER)
                    alpha = alpha > stored ? alpha : stored;
                else
                    beta = beta < stored ? beta : stored;
                if (alpha >= beta) {
                    Py_DECREF(key);
                    return stored;
                }
            }
        }
    }
    long alpha0 = alpha, best = -INFINITY_, best_move = -1, result = ERROR;
    Child found[COLS];
    int n = children(mine, mask, S->orders[table_move + 1], S->ordering, (int)table_move,
                     found);
    for (int i = 0; i < n; i++) {
        long d2 = -(diff + found[i].gained), v;
        if (S->pvs && i > 0) { /* first a null window: is it better? */
            v = negamax(S, theirs, found[i].mine2, d2, depth - 1, -alpha - 1, -alpha);
            if (v == ERROR)
                goto done;
            v = -v;
            if (alpha < v && v < beta) { /* it may be: search it properly */
                v = negamax(S, theirs, found[i].mine2, d2, depth - 1, -beta, -alpha);
                if (v == ERROR)
                    goto done;
                v = -v;
            }
        } else {
            v = negamax(S, theirs, found[i].mine2, d2, depth - 1, -beta, -alpha);
            if (v == ERROR)
                goto done;
            v = -v;
        }
        if (v > best) {
            best = v;
            best_move = found[i].col;
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta)
                    break;
            }
        }
    }
    if (S->entries != NULL) {
        long bound = best <= alpha0 ? UPPER : best >= beta ? LOWER : EXACT;
        if (flipped)
            best_move = 6 - best_move;
        int exact = depth >= CELLS - popcount(mask); /* reached the end everywhere */
        if (store(S, key, exact ? -1 : depth, bound, best, best_move) < 0)
            goto done;
    }
    result = best;
done:
    Py_XDECREF(key);
    return result;
}

static int Search_traverse(Search *S, visitproc visit, void *arg)
{
    Py_VISIT(S->entries);
    Py_VISIT(S->make_room);
    Py_VISIT(S->counter);
    COUNTER_VISIT(&S->count);
    return 0;
}

static int Search_clear(Search *S)
{
    Py_CLEAR(S->entries);
    Py_CLEAR(S->make_room);
    Py_CLEAR(S->counter);
    COUNTER_CLEAR(&S->count);
    return 0;
}

static void Search_dealloc(Search *S)
{
    PyObject_GC_UnTrack(S);
    Search_clear(S);
    Py_TYPE(S)->tp_free((PyObject *)S);
}

/* Search(entries, capacity, make_room, observe, counter, stopped, ordering, pvs, weights) */
static int Search_init(Search *S, PyObject *args, PyObject *kwds)
{
    static char *names[] = {"entries", "capacity", "make_room", "observe", "counter",
                            "stopped", "ordering", "pvs", "weights", NULL};
    PyObject *entries, *make_room, *observe_, *counter, *stopped, *weights;
    Py_ssize_t capacity;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OnOOO!OppO", names, &entries, &capacity,
                                     &make_room, &observe_, &PyList_Type, &counter,
                                     &stopped, &S->ordering, &S->pvs, &weights)
        || read_weights_into(weights, &S->weights) < 0
        || counter_init(&S->count, observe_, stopped) < 0)
        return -1;
    if (entries != Py_None && !PyDict_Check(entries)) {
        PyErr_SetString(PyExc_TypeError, "entries must be a dict or None");
        return -1;
    }
    if (PyList_GET_SIZE(counter) != 2) {
        PyErr_SetString(PyExc_ValueError, "counter must be [nodes, hits]");
        return -1;
    }
    Py_XSETREF(S->entries, entries == Py_None ? NULL : Py_NewRef(entries));
    Py_XSETREF(S->make_room, Py_NewRef(make_room));
    Py_XSETREF(S->counter, Py_NewRef(counter));
    S->capacity = capacity;
    /* engine.orders: the table's move (-1: none) first, then the base order */
    const int *base = S->ordering ? CENTRE_FIRST : LEFT_TO_RIGHT;
    for (int first = -1; first < COLS; first++) {
        int *o = S->orders[first + 1], n = 0;
        if (first >= 0)
            o[n++] = first;
        for (int i = 0; i < COLS; i++)
            if (base[i] != first)
                o[n++] = base[i];
    }
    return 0;
}

/* negamax(mine, theirs, diff, depth, alpha, beta): the closure's arguments and value;
 * the counts carry on from the kernel's counter and go back into it. */
static PyObject *Search_negamax(Search *S, PyObject *args)
{
    unsigned long long mine, theirs;
    long diff, alpha, beta;
    int depth;
    if (!PyArg_ParseTuple(args, "KKlill", &mine, &theirs, &diff, &depth, &alpha, &beta))
        return NULL;
    if ((mine | theirs) & ~BOARD || mine & theirs) {
        PyErr_SetString(PyExc_ValueError, "not a Max-Connect4 position");
        return NULL;
    }
    S->count.nodes = PyLong_AsLongLong(PyList_GET_ITEM(S->counter, 0));
    S->count.hits = PyLong_AsLongLong(PyList_GET_ITEM(S->counter, 1));
    if (PyErr_Occurred())
        return NULL;
    long v = negamax(S, mine, theirs, diff, depth, alpha, beta);
    /* written back even when SearchStopped is on its way (search_move reads them) */
    PyObject *nodes = PyLong_FromLongLong(S->count.nodes);
    PyObject *hits = PyLong_FromLongLong(S->count.hits);
    if (nodes == NULL || hits == NULL) {
        Py_XDECREF(nodes);
        Py_XDECREF(hits);
        return NULL;
    }
    PyList_SetItem(S->counter, 0, nodes); /* steals the references */
    PyList_SetItem(S->counter, 1, hits);
    if (v == ERROR)
        return NULL;
    return PyLong_FromLong(v);
}

static PyObject *py_potential(PyObject *self, PyObject *args)
{
    (void)self;
    unsigned long long mine, theirs, mask;
    PyObject *weights;
    Weights w;
    if (!PyArg_ParseTuple(args, "KKKO", &mine, &theirs, &mask, &weights)
        || read_weights_into(weights, &w) < 0)
        return NULL;
    if ((mine | theirs | mask) & ~BOARD) {
        PyErr_SetString(PyExc_ValueError, "not a Max-Connect4 position");
        return NULL;
    }
    return PyLong_FromLong(potential(&w, mine, theirs, mask));
}

static PyMethodDef Search_methods[] = {
    {"negamax", (PyCFunction)Search_negamax, METH_VARARGS,
     "The node function: negamax(mine, theirs, diff, depth, alpha, beta) -> hundredths."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "zerosum.games.maxconnect4._engine.Search",
    .tp_doc = "The engine's node function for one kernel (engine.py).",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_traverse = (traverseproc)Search_traverse,
    .tp_clear = (inquiry)Search_clear,
    .tp_methods = Search_methods,
};

static PyMethodDef module_methods[] = {
    {"potential", py_potential, METH_VARARGS,
     "bitboard.potential(mine, theirs, mask, weights) -> hundredths, compiled"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_engine", "The Max-Connect4 engine's node function, compiled.",
    -1, module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__engine(void)
{
    build_tables();
    PyTypeObject *types[] = {&SearchType, NULL};
    return kernel_module(&module, types);
}
