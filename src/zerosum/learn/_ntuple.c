/* The n-tuple network's value and update, compiled: a twin of NTupleNet.value and
 * NTupleNet.update (ntuple.py). The Python stays the reference; every weight is read
 * and changed in the same order, with the same double additions and libm's tanh, so
 * values and weights are the same to the last bit (built with -std=c99, so gcc fuses
 * no multiply-add: the roundings are Python's).
 *
 * For a game of k in a row (registry.InARow: tic-tac-toe, Connect Four) a whole game of
 * self-play is played here too, and learned from: play_self and learn_from, twins of
 * zerosum.learn.train's functions of those names with an n-tuple learner (one-ply
 * moves, the random ones drawn from the same Python generator in the same order; the
 * same lambda-returns), for the Python's game loop around each evaluation cost most of
 * a game's time.
 *
 * `plan` is NTupleNet.plan: for each feature (a tuple under one symmetry), the offset of
 * its table in `weights`, then its `length` cells; `base` is added to every index (the
 * half of the weights of the side to move). `board` holds one byte a cell (0
 * empty, 1 Max's, 2 Min's, ... below `kinds`). With temporal coherence learning, two
 * more arrays of doubles, one a weight (NTupleNet.coherence: N and A), are given to
 * update and learn_from.
 *
 * The playable view (ntuple.py's playable_view): value and update are given the board
 * as the tuples read it (the Python marks it); play_self and learn_from, which keep
 * their own board, mark it here before each valuation (`playable`: the lowest empty
 * cell of each column read as state kinds - 1, the other empty cells 0). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>

typedef struct {
    Py_buffer weights, plan, board;
    Py_buffer n, a;  /* TCL's sums (obj NULL without TCL) */
    Py_ssize_t features;
} Net;

static void release(Net *net)
{
    PyBuffer_Release(&net->weights);
    PyBuffer_Release(&net->plan);
    if (net->board.obj != NULL)
        PyBuffer_Release(&net->board);
    if (net->n.obj != NULL)
        PyBuffer_Release(&net->n);
    if (net->a.obj != NULL)
        PyBuffer_Release(&net->a);
}

/* Borrow TCL's sums `n` and `a` (both NULL: no TCL), writable doubles one a weight;
 * -1 with an exception set (and the net released) if not. */
static int borrow_coherence(Net *net, PyObject *n, PyObject *a)
{
    if (n == NULL && a == NULL)
        return 0;
    if (n == NULL || a == NULL
        || PyObject_GetBuffer(n, &net->n, PyBUF_FORMAT | PyBUF_WRITABLE) < 0
        || PyObject_GetBuffer(a, &net->a, PyBUF_FORMAT | PyBUF_WRITABLE) < 0
        || strcmp(net->n.format, "d") != 0 || strcmp(net->a.format, "d") != 0
        || net->n.len != net->weights.len || net->a.len != net->weights.len) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "the coherence sums must be two array('d') "
                            "of one a weight");
        release(net);
        return -1;
    }
    return 0;
}

/* Borrow the buffers and check their shapes; -1 with an exception set if wrong. With
 * `board` NULL, the network's alone (play_self and learn_from keep their own board). */
static int borrow(Net *net, PyObject *weights, PyObject *plan, PyObject *board, int length,
                  int writable)
{
    memset(net, 0, sizeof *net);
    if (PyObject_GetBuffer(weights, &net->weights,
                           PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0)) < 0)
        return -1;
    if (PyObject_GetBuffer(plan, &net->plan, PyBUF_FORMAT) < 0) {
        PyBuffer_Release(&net->weights);
        return -1;
    }
    if (board != NULL && PyObject_GetBuffer(board, &net->board, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&net->weights);
        PyBuffer_Release(&net->plan);
        return -1;
    }
    if (strcmp(net->weights.format, "d") != 0 || strcmp(net->plan.format, "i") != 0
        || length < 1 || net->plan.len % ((Py_ssize_t)sizeof(int) * (length + 1)) != 0) {
        release(net);
        PyErr_SetString(PyExc_ValueError, "weights must be array('d'), plan array('i')");
        return -1;
    }
    net->features = net->plan.len / ((Py_ssize_t)sizeof(int) * (length + 1));
    return 0;
}

/* The index into `weights` of every feature, as NTupleNet.active; -1 on a bad board. */
static int active(const Net *net, int length, int kinds, const unsigned char *board,
                  Py_ssize_t cells, Py_ssize_t base, Py_ssize_t *out)
{
    const int *plan = net->plan.buf;
    Py_ssize_t size = net->weights.len / (Py_ssize_t)sizeof(double);
    for (Py_ssize_t f = 0; f < net->features; f++) {
        const int *feature = plan + f * (length + 1);
        Py_ssize_t index = 0;
        for (int k = 1; k <= length; k++) {
            int c = feature[k];
            if (c < 0 || c >= cells || board[c] >= kinds)
                return -1;
            index = index * kinds + board[c];
        }
        index += base + feature[0];
        if (index < 0 || index >= size)
            return -1;
        out[f] = index;
    }
    return 0;
}

static double total(const Net *net, const Py_ssize_t *index)
{
    const double *w = net->weights.buf;
    double sum = 0.0;
    for (Py_ssize_t f = 0; f < net->features; f++)
        sum += w[index[f]];
    return sum;
}

/* NTupleNet.update on the features `index`: V moved by `step` times its gradient,
 * shared among them (each share times its weight's coherence, with TCL). */
static void move_value(const Net *net, const Py_ssize_t *index, double step)
{
    double v = tanh(total(net, index));
    double change = step * (1 - v * v) / (double)net->features;
    double *w = net->weights.buf;
    if (net->n.obj == NULL) {
        for (Py_ssize_t f = 0; f < net->features; f++)
            w[index[f]] += change;
        return;
    }
    double *n = net->n.buf, *a = net->a.buf;
    for (Py_ssize_t f = 0; f < net->features; f++) {
        Py_ssize_t i = index[f];
        w[i] += change * (a[i] != 0.0 ? fabs(n[i]) / a[i] : 1.0);
        n[i] += change;
        a[i] += fabs(change);
    }
}

static PyObject *run(PyObject *args, int learn)
{
    PyObject *weights, *plan, *board, *n = NULL, *a = NULL;
    int length, kinds;
    Py_ssize_t base;
    double step = 0.0;
    if (learn ? !PyArg_ParseTuple(args, "OOiiOnd|OO", &weights, &plan, &length, &kinds, &board,
                                  &base, &step, &n, &a)
              : !PyArg_ParseTuple(args, "OOiiOn", &weights, &plan, &length, &kinds, &board,
                                  &base))
        return NULL;
    Net net;
    if (borrow(&net, weights, plan, board, length, learn) < 0
        || borrow_coherence(&net, n, a) < 0)
        return NULL;
    Py_ssize_t *index = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(net.features + 1));
    if (index == NULL) {
        release(&net);
        return PyErr_NoMemory();
    }
    PyObject *result = NULL;
    if (active(&net, length, kinds, net.board.buf, net.board.len, base, index) < 0) {
        PyErr_SetString(PyExc_ValueError, "the board does not fit the network");
    } else {
        if (learn) {
            move_value(&net, index, step);
            result = Py_NewRef(Py_None);
        } else {
            result = PyFloat_FromDouble(tanh(total(&net, index)));
        }
    }
    PyMem_Free(index);
    release(&net);
    return result;
}

static PyObject *py_value(PyObject *self, PyObject *args)
{
    (void)self;
    return run(args, 0);
}

static PyObject *py_update(PyObject *self, PyObject *args)
{
    (void)self;
    return run(args, 1);
}


/* -- a whole game of k in a row (registry.InARow), played and learned from here -- */

#define MOST_CELLS 256

typedef struct {
    int rows, cols, cells, k, drop;  /* the rules */
    int playable;                    /* the playable view (drop rules only) */
    int length, kinds;
    Py_ssize_t half;                 /* where the weights of Min to move start */
    Net net;
    Py_ssize_t *index;               /* the features of the position being valued */
} Game;

static void game_free(Game *g)
{
    PyMem_Free(g->index);
    release(&g->net);
}

/* The network and the rules; -1 with an exception set if they do not fit. */
static int game_init(Game *g, PyObject *weights, PyObject *plan, int length, int kinds,
                     Py_ssize_t half, int rows, int cols, int k, int drop, int playable,
                     int writable)
{
    memset(g, 0, sizeof *g);
    if (rows < 1 || cols < 1 || rows * cols > MOST_CELLS || k < 1 || kinds < 3 + !!playable
        || half < 0 || (playable && !drop)) {
        PyErr_SetString(PyExc_ValueError, "rules a network of k in a row cannot play");
        return -1;
    }
    if (borrow(&g->net, weights, plan, NULL, length, writable) < 0)
        return -1;
    g->rows = rows, g->cols = cols, g->cells = rows * cols, g->k = k, g->drop = drop;
    g->playable = playable;
    g->length = length, g->kinds = kinds, g->half = half;
    g->index = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(g->net.features + 1));
    if (g->index == NULL) {
        release(&g->net);
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* The legal moves in the order of the game's `actions`; how many. */
static int legal(const Game *g, const unsigned char *board, long *moves)
{
    int n = 0;
    if (g->drop) {
        for (int c = 0; c < g->cols; c++)
            if (board[c] == 0)  /* row 0 is the top: a column with room */
                moves[n++] = c;
    } else {
        for (int i = 0; i < g->cells; i++)
            if (board[i] == 0)
                moves[n++] = i;
    }
    return n;
}

/* The cell `move` fills, or -1 if it is not a legal move. */
static int cell_of(const Game *g, const unsigned char *board, long move)
{
    if (g->drop) {
        if (move < 0 || move >= g->cols)
            return -1;
        for (int r = g->rows - 1; r >= 0; r--)
            if (board[r * g->cols + move] == 0)
                return r * g->cols + (int)move;
        return -1;
    }
    return move >= 0 && move < g->cells && board[move] == 0 ? (int)move : -1;
}

/* Whether the piece on `cell` completes k in a row: only the last piece can, the game
 * having gone on until it. */
static int wins(const Game *g, const unsigned char *board, int cell)
{
    static const int steps[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    int row = cell / g->cols, col = cell % g->cols;
    for (int d = 0; d < 4; d++) {
        int line = 1;
        for (int way = -1; way <= 1; way += 2) {
            int r = row + way * steps[d][0], c = col + way * steps[d][1];
            while (r >= 0 && r < g->rows && c >= 0 && c < g->cols
                   && board[r * g->cols + c] == board[cell]) {
                line++;
                r += way * steps[d][0], c += way * steps[d][1];
            }
        }
        if (line >= g->k)
            return 1;
    }
    return 0;
}

/* ntuple.playable_view: `board` into `seen`, the lowest empty cell of each column (row
 * 0 the top) marked kinds - 1. */
static void playable_view(const Game *g, const unsigned char *board, unsigned char *seen)
{
    memcpy(seen, board, (size_t)g->cells);
    for (int col = 0; col < g->cols; col++)
        for (int row = g->rows - 1; row >= 0; row--) {
            int cell = row * g->cols + col;
            if (board[cell] == 0) {
                seen[cell] = (unsigned char)(g->kinds - 1);
                break;
            }
        }
}

/* Index the features of `board` with `side` (0 Max, 1 Min) to move into g->index (of
 * its playable view, with one). */
static int features(Game *g, const unsigned char *board, int side)
{
    unsigned char seen[MOST_CELLS];
    if (g->playable) {
        playable_view(g, board, seen);
        board = seen;
    }
    if (active(&g->net, g->length, g->kinds, board, g->cells, side * g->half, g->index) < 0) {
        PyErr_SetString(PyExc_ValueError, "the board does not fit the network");
        return -1;
    }
    return 0;
}

/* NTupleLearner.afterstate_value: the value from Max's side of the position after the
 * piece just put on `cell`, `filled` pieces on the board: exact at the end. */
static int afterstate(Game *g, const unsigned char *board, int cell, int filled, double *v)
{
    int max_moved = board[cell] == 1;
    if (wins(g, board, cell)) {
        *v = max_moved ? 1.0 : -1.0;
        return 0;
    }
    if (filled == g->cells) {
        *v = 0.0;
        return 0;
    }
    if (features(g, board, max_moved) < 0)  /* after Max's move, Min (side 1) is to move */
        return -1;
    *v = tanh(total(&g->net, g->index));
    return 0;
}

/* Python's rng.random(); -1 with an exception set. */
static int draw(PyObject *rng, double *u)
{
    PyObject *r = PyObject_CallMethod(rng, "random", NULL);
    if (r == NULL)
        return -1;
    *u = PyFloat_AsDouble(r);
    Py_DECREF(r);
    return *u == -1.0 && PyErr_Occurred() ? -1 : 0;
}

/* rng.choice(the legal moves), as self_play_move draws an exploring move. */
static long choose_at_random(PyObject *rng, const long *moves, int n)
{
    PyObject *list = PyList_New(n);
    if (list == NULL)
        return -1;
    for (int i = 0; i < n; i++) {
        PyObject *move = PyLong_FromLong(moves[i]);
        if (move == NULL) {
            Py_DECREF(list);
            return -1;
        }
        PyList_SET_ITEM(list, i, move);
    }
    PyObject *chosen = PyObject_CallMethod(rng, "choice", "O", list);
    Py_DECREF(list);
    if (chosen == NULL)
        return -1;
    long move = PyLong_AsLong(chosen);
    Py_DECREF(chosen);
    return move;
}

/* play_self: a game of self-play from the empty board, every move as
 * NTupleLearner.self_play_move makes it (rng.random() below epsilon: rng.choice of the
 * legal moves; else the first move of highest afterstate value for the mover). */
static PyObject *py_play_self(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *weights, *plan, *rng;
    int length, kinds, rows, cols, k, drop, playable;
    Py_ssize_t half;
    double epsilon;
    if (!PyArg_ParseTuple(args, "OOiiniiippdO", &weights, &plan, &length, &kinds, &half,
                          &rows, &cols, &k, &drop, &playable, &epsilon, &rng))
        return NULL;
    Game g;
    if (game_init(&g, weights, plan, length, kinds, half, rows, cols, k, drop, playable,
                  0) < 0)
        return NULL;
    PyObject *moves = PyList_New(0), *explored = PyList_New(0), *result = NULL;
    unsigned char board[MOST_CELLS] = {0};
    long legal_moves[MOST_CELLS];
    int filled = 0, over = 0;
    if (moves == NULL || explored == NULL)
        goto done;
    while (!over) {
        int n = legal(&g, board, legal_moves);
        unsigned char piece = filled % 2 == 0 ? 1 : 2;  /* Max moves first */
        double u;
        long move = legal_moves[0];
        if (draw(rng, &u) < 0)
            goto done;
        int random_move = u < epsilon;
        if (random_move) {
            move = choose_at_random(rng, legal_moves, n);
            if (move == -1 && PyErr_Occurred())
                goto done;
        } else {
            double sign = piece == 1 ? 1.0 : -1.0, best = 0.0;
            for (int i = 0; i < n; i++) {
                int cell = cell_of(&g, board, legal_moves[i]);
                double v;
                board[cell] = piece;
                int failed = afterstate(&g, board, cell, filled + 1, &v);
                board[cell] = 0;
                if (failed)
                    goto done;
                if (i == 0 || sign * v > best)  /* the first of equals, as max() */
                    best = sign * v, move = legal_moves[i];
            }
        }
        int cell = cell_of(&g, board, move);
        if (cell < 0) {
            PyErr_SetString(PyExc_ValueError, "the generator chose a move not legal");
            goto done;
        }
        board[cell] = piece;
        filled++;
        over = wins(&g, board, cell) || filled == g.cells;
        PyObject *m = PyLong_FromLong(move);
        if (m == NULL || PyList_Append(moves, m) < 0
            || PyList_Append(explored, random_move ? Py_True : Py_False) < 0) {
            Py_XDECREF(m);
            goto done;
        }
        Py_DECREF(m);
    }
    result = PyTuple_Pack(2, moves, explored);
done:
    Py_XDECREF(moves);
    Py_XDECREF(explored);
    game_free(&g);
    return result;
}

/* learn_from: NTupleLearner.learn on the game `moves` played from the empty board,
 * `explored[t]` whether move t was random: every position's value first, with the
 * weights as they were; the lambda-returns from the end back; then each position not
 * followed by a random move moved toward its return, in the game's order. */
static PyObject *py_learn_from(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *weights, *plan, *moves_in, *explored_in, *sum_n = NULL, *sum_a = NULL;
    int length, kinds, rows, cols, k, drop, playable;
    Py_ssize_t half;
    double alpha, lam;
    if (!PyArg_ParseTuple(args, "OOiiniiippOOdd|OO", &weights, &plan, &length, &kinds, &half,
                          &rows, &cols, &k, &drop, &playable, &moves_in, &explored_in,
                          &alpha, &lam, &sum_n, &sum_a))
        return NULL;
    Game g;
    if (game_init(&g, weights, plan, length, kinds, half, rows, cols, k, drop, playable,
                  1) < 0)
        return NULL;
    if (borrow_coherence(&g.net, sum_n, sum_a) < 0) {
        PyMem_Free(g.index);
        return NULL;
    }
    PyObject *moves = PySequence_Fast(moves_in, "moves must be a sequence");
    PyObject *explored = moves == NULL ? NULL
        : PySequence_Fast(explored_in, "explored must be a sequence");
    PyObject *result = NULL;
    unsigned char *boards = NULL;
    double *values = NULL, *target = NULL;
    char *random_move = NULL;
    if (explored == NULL)
        goto done;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(moves);
    if (n > g.cells || PySequence_Fast_GET_SIZE(explored) != n) {
        PyErr_SetString(PyExc_ValueError, "not a game: more moves than cells, or an "
                        "explored flag not for each move");
        goto done;
    }
    if (n == 0) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    boards = PyMem_Malloc((size_t)(n * g.cells));
    values = PyMem_Malloc(sizeof(double) * (size_t)n);
    target = PyMem_Calloc((size_t)n, sizeof(double));
    random_move = PyMem_Malloc((size_t)n);
    if (boards == NULL || values == NULL || target == NULL || random_move == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    unsigned char board[MOST_CELLS] = {0};
    int over = 0, won = 0;
    for (Py_ssize_t t = 0; t < n; t++) {
        long move = PyLong_AsLong(PySequence_Fast_GET_ITEM(moves, t));
        if (move == -1 && PyErr_Occurred())
            goto done;
        int cell = over ? -1 : cell_of(&g, board, move);
        if (cell < 0) {
            PyErr_SetString(PyExc_ValueError, "not a game: a move not legal");
            goto done;
        }
        int flag = PyObject_IsTrue(PySequence_Fast_GET_ITEM(explored, t));
        if (flag < 0)
            goto done;
        random_move[t] = (char)flag;
        board[cell] = t % 2 == 0 ? 1 : 2;
        won = wins(&g, board, cell);
        over = won || t + 1 == g.cells;
        memcpy(boards + t * g.cells, board, (size_t)g.cells);
    }
    if (!over) {
        PyErr_SetString(PyExc_ValueError, "not a game: it does not end");
        goto done;
    }
    Py_ssize_t last = n - 1;
    /* after move t (Max's when t is even) the other side is to move */
    for (Py_ssize_t t = 0; t < last; t++) {
        if (features(&g, boards + t * g.cells, t % 2 == 0) < 0)
            goto done;
        values[t] = tanh(total(&g.net, g.index));
    }
    values[last] = won ? (last % 2 == 0 ? 1.0 : -1.0) : 0.0;
    double ret = values[last];
    for (Py_ssize_t t = last - 1; t >= 0; t--) {
        if (random_move[t + 1]) {
            ret = values[t];  /* the line after a random move tells nothing of this one */
            continue;
        }
        ret = t + 1 < last ? (1 - lam) * values[t + 1] + lam * ret : values[last];
        target[t] = ret;
    }
    for (Py_ssize_t t = 0; t < last; t++) {
        if (random_move[t + 1])
            continue;
        if (features(&g, boards + t * g.cells, t % 2 == 0) < 0)
            goto done;
        move_value(&g.net, g.index, alpha * (target[t] - values[t]));
    }
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(boards);
    PyMem_Free(values);
    PyMem_Free(target);
    PyMem_Free(random_move);
    Py_XDECREF(moves);
    Py_XDECREF(explored);
    game_free(&g);
    return result;
}

static PyMethodDef module_methods[] = {
    {"value", py_value, METH_VARARGS,
     "value(weights, plan, length, kinds, board, base) -> V, as NTupleNet.value"},
    {"update", py_update, METH_VARARGS,
     "update(weights, plan, length, kinds, board, base, step[, n, a]), as NTupleNet.update"},
    {"play_self", py_play_self, METH_VARARGS,
     "play_self(weights, plan, length, kinds, half, rows, cols, k, drop, playable, epsilon,"
     " rng)"
     " -> (moves, explored), as zerosum.learn.train.play_self"},
    {"learn_from", py_learn_from, METH_VARARGS,
     "learn_from(weights, plan, length, kinds, half, rows, cols, k, drop, playable, moves,"
     " explored, alpha, lam[, n, a]), as zerosum.learn.train.learn_from"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_ntuple", "The n-tuple network's value and update, compiled.",
    -1, module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__ntuple(void) { return PyModule_Create(&module); }
