/* The Connect Four engine's node function, compiled: a twin of the closure
 * `Connect4Kernel._build_search` makes in engine.py, which stays the reference. The
 * kernel class (the root, `prepare`, the solver stages, `verdict`, the principal
 * variation) stays in Python and is shared by both paths; only `search` is here.
 *
 * Everything that decides which nodes are visited is the same, step for step and under
 * the same names: the forced block, the loss to two threats, the moves under an
 * opponent's threat never played, `evaluate` at the leaves, the table probe and store,
 * `order` (the table's move, then most threats created, centre first; at the nodes
 * above the leaves centre first only), principal variation search. So the values, the
 * best moves, the table's entries and the node counts are identical; only the cost per
 * node differs (a 64-bit word instead of CPython's arbitrary-precision ints, no
 * interpreter between the steps).
 *
 * The table is the Python one (`TranspositionTable.entries`, a dict, with its entries
 * (depth, bound, value, best move)): the kernel keeps it from move to move, reads the
 * principal variation and the root's first move from it, a server counts and bounds it,
 * and the pure path may use it next. Probing a dict from C costs a key object per node,
 * far less than the interpreter's steps it saves; a table of its own would be faster,
 * but then both paths' memories would differ.
 *
 * Reporting back: every 256 nodes, as the closure does, `observe(nodes)` is called (the
 * kernel's `stop.observe` with its base count added); a true answer raises SearchStopped,
 * which unwinds the recursion as the ERROR value. That call runs Python code, so the
 * interpreter also handles signals (Ctrl-C) and lets other threads run there, as it does
 * between the pure search's bytecodes.
 *
 * Built by setup.py when a C compiler is present (zerosum.games.connect4._engine);
 * chosen by zerosum.native ("connect4 engine"). Boards of at most 63 bits only (width *
 * (height + 1)); engine.py keeps the others in Python. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>

#define MAX_WIDTH 12
#define SCALE 1000       /* as engine.py: a decided score s is worth s * SCALE */
#define INFINITY_ 1000000000LL /* engine.py's INFINITY: beyond every value */
#define ERROR LLONG_MIN  /* a Python exception is set: unwind */
#define CHECK_MASK 255   /* observe every 256 nodes, as the closure */

typedef uint64_t bitboard;

typedef struct {
    PyObject_HEAD
    /* the board (Geometry in bitboard.py) and the evaluation's masks (EvaluationTables) */
    int width, height, h1, cells;
    bitboard bottom, board, odd_rows, even_rows;
    bitboard planes[5];
    bitboard centre_columns[MAX_WIDTH]; /* column masks, centre first */
    bitboard plain_columns[MAX_WIDTH];  /* without `ordering`: left to right */
    int use_table, use_order, use_pvs;  /* the Enhancements */
    /* the Python side: the table's dict, its capacity and make_room, the stop */
    PyObject *entries, *make_room, *observe, *stopped;
    Py_ssize_t capacity;
    long long nodes, hits;
} Search;

/* Bits set, without assuming the popcnt instruction (a portable build may not have it). */
static int popcount(bitboard x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* The empty cells that would complete a four of `p` (bitboard.threat_finder, unrolled
 * alike; no memo: recomputing is cheaper here). Bits shifted past bit 63 are lost, as
 * `board` would mask them off anyway. */
static bitboard threats(const Search *s, bitboard p, bitboard mask)
{
    const int h1 = s->h1, h0 = h1 - 1, h2 = h1 + 1;
    bitboard r = (p << 1) & (p << 2) & (p << 3);
    bitboard up, down;
    up = p << h1; down = p >> h1;
    r |= up & (p << 2 * h1) & ((p << 3 * h1) | down);
    r |= down & (p >> 2 * h1) & ((p >> 3 * h1) | up);
    up = p << h0; down = p >> h0;
    r |= up & (p << 2 * h0) & ((p << 3 * h0) | down);
    r |= down & (p >> 2 * h0) & ((p >> 3 * h0) | up);
    up = p << h2; down = p >> h2;
    r |= up & (p << 2 * h2) & ((p << 3 * h2) | down);
    r |= down & (p >> 2 * h2) & ((p >> 3 * h2) | up);
    return r & s->board & ~mask;
}

/* engine.evaluation's `evaluate`: the estimate from the mover's side within
 * +-(SCALE - 1). `mine`, `theirs`: the mover's and the opponent's threats. */
static long long evaluate(const Search *s, bitboard current, bitboard mask, bitboard mine,
                          bitboard theirs, int first_to_move)
{
    const bitboard opponent = current ^ mask;
    const bitboard good_mine = first_to_move ? s->odd_rows : s->even_rows;
    const bitboard good_theirs = first_to_move ? s->even_rows : s->odd_rows;
    /* Threats just above the lowest empty cells: the opponent may not play below them. */
    const bitboard above = ((mask + s->bottom) & s->board) << 1;
    long long v = 24 * (popcount(mine) - popcount(theirs));
    v += 36 * (popcount(mine & good_mine) - popcount(theirs & good_theirs));
    v += 16 * (popcount(mine & above) - popcount(theirs & above));
    /* Stones weighted by the fours through their cells, one bit plane at a time. */
    for (int k = 0; k < 5; k++)
        v += (1LL << k) * (popcount(current & s->planes[k]) - popcount(opponent & s->planes[k]));
    const long long top = SCALE - 1;
    return v > top ? top : v < -top ? -top : v;
}

typedef struct {
    bitboard move;
    long long threats; /* the threats the move creates, or -1 when not counted */
} Ordered;

/* engine.ordering's `order`: the moves in search order, into `out`; returns how many. */
static int order(const Search *s, bitboard current, bitboard mask, bitboard candidates,
                 bitboard first, int scored, Ordered *out)
{
    int n = 0;
    if (s->use_order && scored) {
        if (!(candidates & (candidates - 1))) {
            out[0].move = candidates;
            out[0].threats = -1;
            return 1;
        }
        /* Packed as (threats << 4 | 15 - rank) for one descending sort, the table's move
         * above every count. */
        int keys[MAX_WIDTH];
        long long created[MAX_WIDTH];
        for (int k = 0; k < s->width; k++) {
            const bitboard move = candidates & s->centre_columns[k];
            if (move) {
                const bitboard t = threats(s, current | move, mask);
                created[k] = (long long)t;
                const int count = move == first ? 63 : popcount(t);
                int i = n++; /* insertion into the descending order */
                const int key = (count << 4) | (15 - k);
                while (i > 0 && keys[i - 1] < key) {
                    keys[i] = keys[i - 1];
                    i--;
                }
                keys[i] = key;
            }
        }
        for (int i = 0; i < n; i++) {
            const int k = 15 - (keys[i] & 15);
            out[i].move = candidates & s->centre_columns[k];
            out[i].threats = created[k];
        }
        return n;
    }
    const bitboard *columns = s->use_order ? s->centre_columns : s->plain_columns;
    int at_first = -1;
    for (int k = 0; k < s->width; k++) {
        const bitboard move = candidates & columns[k];
        if (move) {
            if (move == first)
                at_first = n;
            out[n].move = move;
            out[n].threats = -1;
            n++;
        }
    }
    if (at_first > 0) { /* the table's move to the front, the others in their order */
        const Ordered moved = out[at_first];
        for (int i = at_first; i > 0; i--)
            out[i] = out[i - 1];
        out[0] = moved;
    }
    return n;
}

/* Every 256 nodes: the stop (stop.observe), which may end the search. */
static int observe(Search *s)
{
    PyObject *count = PyLong_FromLongLong(s->nodes);
    if (count == NULL)
        return -1;
    PyObject *r = PyObject_CallOneArg(s->observe, count);
    Py_DECREF(count);
    if (r == NULL)
        return -1;
    const int stop = PyObject_IsTrue(r);
    Py_DECREF(r);
    if (stop < 0)
        return -1;
    if (stop) {
        PyErr_SetNone(s->stopped);
        return -1;
    }
    return 0;
}

/* The table's entry for `key`: 1 and its four fields, 0 if none, -1 on an error. */
static int table_get(Search *s, bitboard key, long long *remaining, long long *bound,
                     long long *value, bitboard *first)
{
    PyObject *k = PyLong_FromUnsignedLongLong(key);
    if (k == NULL)
        return -1;
    PyObject *entry = PyDict_GetItemWithError(s->entries, k); /* borrowed */
    Py_DECREF(k);
    if (entry == NULL)
        return PyErr_Occurred() ? -1 : 0;
    if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 4) {
        PyErr_SetString(PyExc_TypeError, "a table entry is (depth, bound, value, move)");
        return -1;
    }
    *remaining = PyLong_AsLongLong(PyTuple_GET_ITEM(entry, 0));
    *bound = PyLong_AsLongLong(PyTuple_GET_ITEM(entry, 1));
    *value = PyLong_AsLongLong(PyTuple_GET_ITEM(entry, 2));
    *first = (bitboard)PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(entry, 3));
    return PyErr_Occurred() ? -1 : 1;
}

/* entries[key] = (depth, bound, value, move), making room first when full. */
static int table_set(Search *s, bitboard key, long long depth, long long bound,
                     long long value, bitboard move)
{
    if (PyDict_GET_SIZE(s->entries) >= s->capacity) {
        PyObject *r = PyObject_CallNoArgs(s->make_room);
        if (r == NULL)
            return -1;
        Py_DECREF(r);
    }
    PyObject *entry = PyTuple_New(4);
    if (entry == NULL)
        return -1;
    PyObject *items[4] = {PyLong_FromLongLong(depth), PyLong_FromLongLong(bound),
                          PyLong_FromLongLong(value), PyLong_FromUnsignedLongLong(move)};
    for (int i = 0; i < 4; i++) {
        if (items[i] == NULL) {
            for (int j = 0; j < 4; j++)
                Py_XDECREF(items[j]);
            Py_DECREF(entry);
            return -1;
        }
    }
    for (int i = 0; i < 4; i++)
        PyTuple_SET_ITEM(entry, i, items[i]); /* steals the reference */
    PyObject *k = PyLong_FromUnsignedLongLong(key);
    if (k == NULL) {
        Py_DECREF(entry);
        return -1;
    }
    const int r = PyDict_SetItem(s->entries, k, entry);
    Py_DECREF(k);
    Py_DECREF(entry);
    return r;
}

/* Negamax alpha-beta, fail-soft; the mover cannot win at once. `theirs`: the
 * opponent's threats if the caller knows them, else -1. Read engine.py's `search`
 * beside this: the same steps in the same order. */
static long long search(Search *s, bitboard current, bitboard mask, int moves, int depth,
                        long long alpha, long long beta, long long theirs_known)
{
    s->nodes++;
    if (!(s->nodes & CHECK_MASK) && observe(s) < 0)
        return ERROR;
    const bitboard opponent = current ^ mask;
    bitboard possible = (mask + s->bottom) & s->board;
    const bitboard theirs = theirs_known < 0 ? threats(s, opponent, mask)
                                             : (bitboard)theirs_known;
    const bitboard forced = possible & theirs;
    const long long lost = -(long long)((s->cells - moves) / 2) * SCALE;
    if (forced) {
        if (forced & (forced - 1))
            return lost; /* two threats to block: lost */
        possible = forced;
    }
    const bitboard candidates = possible & ~(theirs >> 1);
    if (!candidates)
        return lost; /* every move lets the opponent win at once */
    if (moves >= s->cells - 2)
        return 0;
    if (depth <= 0)
        return evaluate(s, current, mask, threats(s, current, mask), theirs, moves % 2 == 0);
    const bitboard key = current + mask;
    bitboard first = 0;
    if (s->use_table) {
        long long remaining, bound, value;
        const int found = table_get(s, key, &remaining, &bound, &value, &first);
        if (found < 0)
            return ERROR;
        if (found && remaining >= depth && (bound == 0 || (bound == 1 && value >= beta)
                                            || (bound == 2 && value <= alpha))) {
            s->hits++;
            return value;
        }
    }
    Ordered moves_in_order[MAX_WIDTH];
    const int count = order(s, current, mask, candidates, first, depth > 1, moves_in_order);
    const long long a0 = alpha;
    long long best = -INFINITY_;
    bitboard best_move = 0;
    for (int i = 0; i < count; i++) {
        const bitboard move = moves_in_order[i].move;
        const long long move_threats = moves_in_order[i].threats;
        long long value;
        if (best_move && s->use_pvs) {
            /* Principal variation search: a later move only needs the proof that it is
             * no better (a null window); one better after all is searched again. */
            value = search(s, opponent, mask | move, moves + 1, depth - 1, -alpha - 1, -alpha,
                           move_threats);
            if (value == ERROR)
                return ERROR;
            value = -value;
            if (alpha < value && value < beta) {
                value = search(s, opponent, mask | move, moves + 1, depth - 1, -beta, -value,
                               move_threats);
                if (value == ERROR)
                    return ERROR;
                value = -value;
            }
        } else {
            value = search(s, opponent, mask | move, moves + 1, depth - 1, -beta, -alpha,
                           move_threats);
            if (value == ERROR)
                return ERROR;
            value = -value;
        }
        if (value > best) {
            best = value;
            best_move = move;
            if (value > alpha) {
                alpha = value;
                if (alpha >= beta)
                    break;
            }
        }
    }
    if (s->use_table && table_set(s, key, depth, best >= beta ? 1 : best <= a0 ? 2 : 0, best,
                                  best_move) < 0)
        return ERROR;
    return best;
}

/* -- the Python type ------------------------------------------------------------------ */

static bitboard as_bitboard(PyObject *o)
{
    return (bitboard)PyLong_AsUnsignedLongLong(o);
}

/* Search(width, height, centre_order, planes, odd_rows, use_table, use_order, use_pvs,
 *        entries, capacity, make_room, observe, stopped) */
static int Search_init(Search *s, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"width", "height", "centre_order", "planes", "odd_rows",
                            "use_table", "use_order", "use_pvs", "entries", "capacity",
                            "make_room", "observe", "stopped", NULL};
    int width, height, use_table, use_order, use_pvs;
    Py_ssize_t capacity;
    PyObject *centre_order, *planes, *odd_rows, *entries, *make_room, *observe_, *stopped;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iiOOOpppO!nOOO", names, &width, &height,
                                     &centre_order, &planes, &odd_rows, &use_table,
                                     &use_order, &use_pvs, &PyDict_Type, &entries, &capacity,
                                     &make_room, &observe_, &stopped))
        return -1;
    if (width < 4 || height < 4 || width > MAX_WIDTH || width * (height + 1) > 63) {
        PyErr_Format(PyExc_ValueError, "the native engine takes boards of at most 63 bits "
                     "(width * (height + 1)), not %dx%d", width, height);
        return -1;
    }
    if (!PyCallable_Check(make_room) || !PyCallable_Check(observe_)
            || !PyExceptionClass_Check(stopped)) {
        PyErr_SetString(PyExc_TypeError, "make_room and observe must be callables, "
                        "stopped an exception class");
        return -1;
    }
    s->width = width;
    s->height = height;
    s->h1 = height + 1;
    s->cells = width * height;
    s->bottom = 0;
    for (int c = 0; c < width; c++)
        s->bottom |= (bitboard)1 << (c * s->h1);
    s->board = s->bottom * (((bitboard)1 << height) - 1);
    const bitboard column = ((bitboard)1 << height) - 1;
    PyObject *seq = PySequence_Fast(centre_order, "centre_order must be a sequence");
    if (seq == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != width) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "centre_order must name every column once");
        return -1;
    }
    for (int r = 0; r < width; r++) {
        const long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, r));
        if (c < 0 || c >= width) {
            Py_DECREF(seq);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "centre_order names a column off the board");
            return -1;
        }
        s->centre_columns[r] = column << (c * s->h1);
        s->plain_columns[r] = column << (r * s->h1);
    }
    Py_DECREF(seq);
    seq = PySequence_Fast(planes, "planes must be a sequence");
    if (seq == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != 5) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "planes must be five bitboards");
        return -1;
    }
    for (int k = 0; k < 5; k++)
        s->planes[k] = as_bitboard(PySequence_Fast_GET_ITEM(seq, k));
    Py_DECREF(seq);
    s->odd_rows = as_bitboard(odd_rows);
    if (PyErr_Occurred())
        return -1;
    s->even_rows = s->board ^ s->odd_rows;
    s->use_table = use_table;
    s->use_order = use_order;
    s->use_pvs = use_pvs;
    s->capacity = capacity;
    Py_INCREF(entries);
    Py_INCREF(make_room);
    Py_INCREF(observe_);
    Py_INCREF(stopped);
    Py_XSETREF(s->entries, entries);
    Py_XSETREF(s->make_room, make_room);
    Py_XSETREF(s->observe, observe_);
    Py_XSETREF(s->stopped, stopped);
    s->nodes = s->hits = 0;
    return 0;
}

/* The kernel holds its search and the search holds `observe`, a closure over the kernel:
 * a cycle, so the type takes part in garbage collection. */
static int Search_traverse(Search *s, visitproc visit, void *arg)
{
    Py_VISIT(s->entries);
    Py_VISIT(s->make_room);
    Py_VISIT(s->observe);
    Py_VISIT(s->stopped);
    return 0;
}

static int Search_clear(Search *s)
{
    Py_CLEAR(s->entries);
    Py_CLEAR(s->make_room);
    Py_CLEAR(s->observe);
    Py_CLEAR(s->stopped);
    return 0;
}

static void Search_dealloc(Search *s)
{
    PyObject_GC_UnTrack(s);
    Search_clear(s);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

/* search(current, mask, moves, depth, alpha, beta, theirs): the closure's arguments. */
static PyObject *Search_search(Search *s, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "search takes 7 arguments");
        return NULL;
    }
    if (s->entries == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Search was not initialised");
        return NULL;
    }
    const bitboard current = as_bitboard(args[0]), mask = as_bitboard(args[1]);
    const long moves = PyLong_AsLong(args[2]), depth = PyLong_AsLong(args[3]);
    const long long alpha = PyLong_AsLongLong(args[4]), beta = PyLong_AsLongLong(args[5]);
    const long long theirs = PyLong_AsLongLong(args[6]);
    if (PyErr_Occurred())
        return NULL;
    /* Checked, not trusted: the values and the recursion depend on them. */
    if (moves != popcount(mask) || (current & ~mask) || (mask & ~s->board)
            || depth > s->cells || alpha < -INFINITY_ || beta > INFINITY_) {
        PyErr_SetString(PyExc_ValueError, "not a position or a window of this board");
        return NULL;
    }
    const long long value = search(s, current, mask, (int)moves, (int)depth, alpha, beta,
                                   theirs);
    if (value == ERROR)
        return NULL;
    return PyLong_FromLongLong(value);
}

static PyObject *Search_get_nodes(Search *s, void *Py_UNUSED(closure))
{
    return PyLong_FromLongLong(s->nodes);
}

static PyObject *Search_get_hits(Search *s, void *Py_UNUSED(closure))
{
    return PyLong_FromLongLong(s->hits);
}

static PyMethodDef Search_methods[] = {
    {"search", (PyCFunction)(void (*)(void))Search_search, METH_FASTCALL,
     "search(current, mask, moves, depth, alpha, beta, theirs): the node function"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Search_getset[] = {
    {"nodes", (getter)Search_get_nodes, NULL, "nodes searched", NULL},
    {"hits", (getter)Search_get_hits, NULL, "table hits", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "zerosum.games.connect4._engine.Search",
    .tp_doc = "The engine's node function for one root (see engine.py, the reference).",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_traverse = (traverseproc)Search_traverse,
    .tp_clear = (inquiry)Search_clear,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_engine",
    "The Connect Four engine's node function in C (see engine.py, the reference).", -1,
    NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__engine(void)
{
    if (PyType_Ready(&SearchType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
