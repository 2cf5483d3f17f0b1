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
 * The table is `Table`, below: the behaviour of the dict the Python path keeps in
 * `TranspositionTable.entries` (exact keys, insertion order, an entry updated in place
 * keeps its place, `make_room` forgets the older half, `len`), in C, so a probe costs one
 * or two cache misses instead of a key object, a dict probe and a tuple of ints (with
 * the dict, this search ran at 3-4M nodes/s; without any table at 23M). The memory of a
 * game (engine.Memory) holds one when this module is built; it is also a mapping
 * (`get`, `len`, `[key] = entry`, `items`), so the Python node function, the principal
 * variation and a server's count of kept entries read it as they read the dict.
 *
 * Reporting back: every 256 nodes, as the closure does, `observe(nodes)` is called (the
 * kernel's `stop.observe` with its base count added): the node prologue of kernel.h.
 *
 * Built by setup.py when a C compiler is present (zerosum.games.connect4._engine);
 * chosen by zerosum.native ("connect4 engine"). Boards of at most 63 bits only (width *
 * (height + 1)); engine.py keeps the others in Python. */

#include "../kernel.h"

#define MAX_WIDTH 12
#define SCALE 1000       /* as engine.py: a decided score s is worth s * SCALE */
#define INFINITY_ 1000000000LL /* engine.py's INFINITY: beyond every value */
#define ERROR LLONG_MIN  /* a Python exception is set: unwind */
#define CHECK_EVERY 256  /* observe every 256 nodes, as the closure */

#include "_bitboard.h"

typedef struct {
    PyObject_HEAD
    /* the board (Geometry in bitboard.py) and the evaluation's masks (EvaluationTables) */
    int width, height, h1, cells;
    bitboard bottom, board, odd_rows, even_rows;
    bitboard planes[5];
    bitboard centre_columns[MAX_WIDTH]; /* column masks, centre first */
    bitboard plain_columns[MAX_WIDTH];  /* without `ordering`: left to right */
    int use_table, use_order, use_pvs;  /* the Enhancements */
    long long weights[3]; /* engine.py's WEIGHTS: threats, on good rows, playable next */
    /* the table (a Table, below) and the way back to Python: the stop */
    struct Table *table;
    Counter count;
} Search;

/* The cells that would complete a four of `p` on this kernel's board (_bitboard.h). */
static bitboard threats(const Search *s, bitboard p, bitboard mask)
{
    return threats_on(s->h1, s->board, p, mask);
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
    long long v = s->weights[0] * (popcount(mine) - popcount(theirs));
    v += s->weights[1] * (popcount(mine & good_mine) - popcount(theirs & good_theirs));
    v += s->weights[2] * (popcount(mine & above) - popcount(theirs & above));
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

/* -- the table: the Python dict's behaviour, in C ----------------------------------- */

typedef struct {
    bitboard key;
    long long depth, bound, value;
    bitboard move;
} Entry;

typedef struct Table {
    PyObject_HEAD
    Entry *entries;            /* in insertion order, `size` of them */
    Py_ssize_t size, allocated, capacity;
    uint32_t *index;           /* open addressing: an entry's position + 1, 0 = free */
    uint64_t index_mask;
    int index_shift;
} Table;

static uint64_t slot_of(const Table *t, bitboard key)
{
    return (key * 0x9E3779B97F4A7C15ULL) >> t->index_shift; /* Fibonacci hashing */
}

/* The entry for `key`, or NULL. */
static Entry *table_find(const Table *t, bitboard key)
{
    if (t->index == NULL)
        return NULL;
    for (uint64_t i = slot_of(t, key);; i = (i + 1) & t->index_mask) {
        const uint32_t at = t->index[i];
        if (at == 0)
            return NULL;
        if (t->entries[at - 1].key == key)
            return &t->entries[at - 1];
    }
}

/* The index anew for the entries there are (after growing or making room). */
static void table_reindex(Table *t)
{
    memset(t->index, 0, (t->index_mask + 1) * sizeof(uint32_t));
    for (Py_ssize_t n = 0; n < t->size; n++) {
        uint64_t i = slot_of(t, t->entries[n].key);
        while (t->index[i])
            i = (i + 1) & t->index_mask;
        t->index[i] = (uint32_t)(n + 1);
    }
}

/* Room for twice the entries (up to the capacity), as a dict grows: a short search
 * touches little memory. The index keeps at most half its slots used. */
static int table_grow(Table *t)
{
    Py_ssize_t allocated = t->allocated ? 2 * t->allocated : 1024;
    if (allocated > t->capacity)
        allocated = t->capacity;
    if (allocated <= t->size) /* stored past the capacity without make_room: a dict grows */
        allocated = 2 * t->size;
    uint64_t slots = 2048;
    while (slots < 2 * (uint64_t)allocated)
        slots <<= 1;
    Entry *entries = PyMem_Realloc(t->entries, (size_t)allocated * sizeof(Entry));
    if (entries == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    t->entries = entries;
    t->allocated = allocated;
    if (t->index == NULL || slots != t->index_mask + 1) {
        uint32_t *index = PyMem_Realloc(t->index, slots * sizeof(uint32_t));
        if (index == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        t->index = index;
        t->index_mask = slots - 1;
        t->index_shift = 64 - __builtin_ctzll(slots);
        table_reindex(t);
    }
    return 0;
}

/* entries[key] = entry: updated in place if there (it keeps its place in the order),
 * else appended. The caller makes room first at `capacity`, as the node function does. */
static int table_set(Table *t, bitboard key, long long depth, long long bound,
                     long long value, bitboard move)
{
    Entry *e = table_find(t, key);
    if (e == NULL) {
        if (t->size == t->allocated && table_grow(t) < 0)
            return -1;
        e = &t->entries[t->size++];
        uint64_t i = slot_of(t, key);
        while (t->index[i])
            i = (i + 1) & t->index_mask;
        t->index[i] = (uint32_t)t->size;
        e->key = key;
    }
    e->depth = depth;
    e->bound = bound;
    e->value = value;
    e->move = move;
    return 0;
}

/* TranspositionTable.make_room: forget the older half of the entries, but for the
 * exact ones among them (bound 0), up to a quarter of the capacity, the newest kept. */
static void table_make_room(Table *t)
{
    const Py_ssize_t older = t->size / 2;
    Py_ssize_t exact = 0, kept = 0;
    for (Py_ssize_t n = 0; n < older; n++)
        exact += t->entries[n].bound == 0;
    Py_ssize_t skip = exact - t->capacity / 4; /* the oldest exact ones past the quarter */
    for (Py_ssize_t n = 0; n < older; n++)
        if (t->entries[n].bound == 0 && skip-- <= 0)
            t->entries[kept++] = t->entries[n];
    memmove(t->entries + kept, t->entries + older, (size_t)(t->size - older) * sizeof(Entry));
    t->size = kept + t->size - older;
    if (t->index != NULL)
        table_reindex(t);
}

/* Negamax alpha-beta, fail-soft; the mover cannot win at once. `theirs`: the
 * opponent's threats if the caller knows them, else -1. Read engine.py's `search`
 * beside this: the same steps in the same order. */
static long long search(Search *s, bitboard current, bitboard mask, int moves, int depth,
                        long long alpha, long long beta, long long theirs_known)
{
    if (counted_node(&s->count, CHECK_EVERY) < 0)
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
        const Entry *entry = table_find(s->table, key);
        if (entry != NULL) {
            const long long remaining = entry->depth, bound = entry->bound;
            const long long value = entry->value;
            first = entry->move;
            if (remaining >= depth && (bound == 0 || (bound == 1 && value >= beta)
                                       || (bound == 2 && value <= alpha))) {
                s->count.hits++;
                return value;
            }
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
    if (s->use_table) {
        if (s->table->size >= s->table->capacity)
            table_make_room(s->table);
        if (table_set(s->table, key, depth, best >= beta ? 1 : best <= a0 ? 2 : 0, best,
                      best_move) < 0)
            return ERROR;
    }
    return best;
}

/* -- the Python type ------------------------------------------------------------------ */

static bitboard as_bitboard(PyObject *o)
{
    return (bitboard)PyLong_AsUnsignedLongLong(o);
}

static PyTypeObject TableType;

/* Search(width, height, centre_order, planes, odd_rows, weights, use_table, use_order,
 *        use_pvs, table, observe, stopped) */
static int Search_init(Search *s, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"width", "height", "centre_order", "planes", "odd_rows",
                            "weights", "use_table", "use_order", "use_pvs", "table",
                            "observe", "stopped", NULL};
    int width, height, use_table, use_order, use_pvs;
    PyObject *centre_order, *planes, *odd_rows, *weights, *table, *observe_, *stopped;
    long w[3];
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iiOOOOpppO!OO", names, &width, &height,
                                     &centre_order, &planes, &odd_rows, &weights,
                                     &use_table, &use_order, &use_pvs, &TableType, &table,
                                     &observe_, &stopped)
        || read_weights(weights, w, 3) < 0)
        return -1;
    if (width < 4 || height < 4 || width > MAX_WIDTH || width * (height + 1) > 63) {
        PyErr_Format(PyExc_ValueError, "the native engine takes boards of at most 63 bits "
                     "(width * (height + 1)), not %dx%d", width, height);
        return -1;
    }
    if (counter_init(&s->count, observe_, stopped) < 0)
        return -1;
    for (int k = 0; k < 3; k++)
        s->weights[k] = w[k];
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
    Py_INCREF(table);
    Py_XSETREF(s->table, (Table *)table);
    s->count.nodes = s->count.hits = 0;
    return 0;
}

/* The kernel holds its search and the search holds `observe`, a closure over the kernel:
 * a cycle, so the type takes part in garbage collection. */
static int Search_traverse(Search *s, visitproc visit, void *arg)
{
    Py_VISIT(s->table);
    COUNTER_VISIT(&s->count);
    return 0;
}

static int Search_clear(Search *s)
{
    Py_CLEAR(s->table);
    COUNTER_CLEAR(&s->count);
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
    if (s->table == NULL) {
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
    return PyLong_FromLongLong(s->count.nodes);
}

static PyObject *Search_get_hits(Search *s, void *Py_UNUSED(closure))
{
    return PyLong_FromLongLong(s->count.hits);
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

/* -- Table as Python sees it: a mapping key -> (depth, bound, value, move) ---------- */

static PyObject *entry_tuple(const Entry *e)
{
    return Py_BuildValue("(LLLK)", e->depth, e->bound, e->value,
                         (unsigned long long)e->move);
}

/* Table(capacity) */
static int Table_init(Table *t, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"capacity", NULL};
    Py_ssize_t capacity;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "n", names, &capacity))
        return -1;
    if (capacity < 2) { /* as TranspositionTable: make_room must free a place */
        PyErr_SetString(PyExc_ValueError, "table capacity must be at least 2");
        return -1;
    }
    PyMem_Free(t->entries);
    PyMem_Free(t->index);
    t->entries = NULL;
    t->index = NULL;
    t->size = t->allocated = 0;
    t->capacity = capacity;
    return 0;
}

static void Table_dealloc(Table *t)
{
    PyMem_Free(t->entries);
    PyMem_Free(t->index);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

static Py_ssize_t Table_len(Table *t)
{
    return t->size;
}

static int key_of(PyObject *o, bitboard *key)
{
    if (!PyLong_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "a key is an int");
        return -1;
    }
    *key = (bitboard)PyLong_AsUnsignedLongLong(o);
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *Table_subscript(Table *t, PyObject *k)
{
    bitboard key;
    if (key_of(k, &key) < 0)
        return NULL;
    const Entry *e = table_find(t, key);
    if (e == NULL) {
        PyErr_SetObject(PyExc_KeyError, k);
        return NULL;
    }
    return entry_tuple(e);
}

static int Table_ass_subscript(Table *t, PyObject *k, PyObject *v)
{
    bitboard key;
    if (v == NULL) {
        PyErr_SetString(PyExc_TypeError, "entries go by make_room or clear, not one by one");
        return -1;
    }
    if (key_of(k, &key) < 0)
        return -1;
    long long depth, bound, value;
    unsigned long long move;
    if (!PyArg_ParseTuple(v, "LLLK;an entry is (depth, bound, value, move)", &depth, &bound,
                          &value, &move))
        return -1;
    return table_set(t, key, depth, bound, value, (bitboard)move);
}

static PyObject *Table_get(Table *t, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "get(key, default=None)");
        return NULL;
    }
    bitboard key;
    if (!PyLong_Check(args[0]) || key_of(args[0], &key) < 0) {
        PyErr_Clear(); /* no such key, as a dict says of any other object */
        PyObject *fallback = nargs == 2 ? args[1] : Py_None;
        Py_INCREF(fallback);
        return fallback;
    }
    const Entry *e = table_find(t, key);
    if (e == NULL) {
        PyObject *fallback = nargs == 2 ? args[1] : Py_None;
        Py_INCREF(fallback);
        return fallback;
    }
    return entry_tuple(e);
}

static PyObject *Table_items(Table *t, PyObject *Py_UNUSED(ignored))
{
    PyObject *list = PyList_New(t->size);
    if (list == NULL)
        return NULL;
    for (Py_ssize_t n = 0; n < t->size; n++) {
        PyObject *item = Py_BuildValue("(KN)", (unsigned long long)t->entries[n].key,
                                       entry_tuple(&t->entries[n]));
        if (item == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, n, item);
    }
    return list;
}

static PyObject *Table_make_room(Table *t, PyObject *Py_UNUSED(ignored))
{
    table_make_room(t);
    Py_RETURN_NONE;
}

static PyObject *Table_clear(Table *t, PyObject *Py_UNUSED(ignored))
{
    t->size = 0;
    if (t->index != NULL)
        memset(t->index, 0, (t->index_mask + 1) * sizeof(uint32_t));
    Py_RETURN_NONE;
}

static PyObject *Table_get_capacity(Table *t, void *Py_UNUSED(closure))
{
    return PyLong_FromSsize_t(t->capacity);
}

static PyObject *Table_get_entries(Table *t, void *Py_UNUSED(closure))
{
    Py_INCREF(t); /* itself: TranspositionTable.entries, read the same way */
    return (PyObject *)t;
}

static PyMethodDef Table_methods[] = {
    {"get", (PyCFunction)(void (*)(void))Table_get, METH_FASTCALL,
     "get(key, default=None): the entry (depth, bound, value, move)"},
    {"items", (PyCFunction)Table_items, METH_NOARGS, "[(key, entry)] in insertion order"},
    {"make_room", (PyCFunction)Table_make_room, METH_NOARGS,
     "Forget the older half of the entries."},
    {"clear", (PyCFunction)Table_clear, METH_NOARGS, "Forget every entry."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Table_getset[] = {
    {"capacity", (getter)Table_get_capacity, NULL, "entries before make_room", NULL},
    {"entries", (getter)Table_get_entries, NULL, "the table itself, as a mapping", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMappingMethods Table_mapping = {
    .mp_length = (lenfunc)Table_len,
    .mp_subscript = (binaryfunc)Table_subscript,
    .mp_ass_subscript = (objobjargproc)Table_ass_subscript,
};

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "zerosum.games.connect4._engine.Table",
    .tp_doc = "The engine's transposition table: a dict's behaviour in C (see above).",
    .tp_basicsize = sizeof(Table),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Table_init,
    .tp_dealloc = (destructor)Table_dealloc,
    .tp_as_mapping = &Table_mapping,
    .tp_methods = Table_methods,
    .tp_getset = Table_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_engine",
    "The Connect Four engine's node function in C (see engine.py, the reference).", -1,
    NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__engine(void)
{
    PyTypeObject *types[] = {&SearchType, &TableType, NULL};
    return kernel_module(&module, types);
}
