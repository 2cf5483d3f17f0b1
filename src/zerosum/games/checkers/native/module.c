/* The module zerosum.games.checkers._checkers: its functions (perft, generate, score)
 * and type (Search, search.c), and the crossing between Python's ints and the C types.
 * checkers.h says which file does what. */

#include "checkers.h" /* first: Python.h sets the feature macros */


/* ---- between Python's ints and Bits ----------------------------------------------- */

/* A non-negative Python int of at most 192 bits as Bits; -1 with an exception. */
int bits_from_py(PyObject *value, Bits *out)
{
    if (!PyLong_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "a set of squares must be an int");
        return -1;
    }
    PyObject *rest = value;
    Py_INCREF(rest);
    for (int i = 0; i < WORDS; i++) {
        out->w[i] = PyLong_AsUnsignedLongLongMask(rest);
        PyObject *shift64 = PyLong_FromLong(64);
        PyObject *next = shift64 == NULL ? NULL : PyNumber_Rshift(rest, shift64);
        Py_XDECREF(shift64);
        Py_DECREF(rest);
        if (next == NULL)
            return -1;
        rest = next;
    }
    int sign = PyObject_IsTrue(rest);
    Py_DECREF(rest);
    if (sign != 0) {
        if (sign > 0)
            PyErr_SetString(PyExc_ValueError, "a set of squares beyond the board");
        return -1;
    }
    return 0;
}

/* A move's path as a tuple of squares. */
PyObject *path_to_py(const Move *m)
{
    PyObject *path = PyTuple_New(m->len);
    if (path == NULL)
        return NULL;
    for (int i = 0; i < m->len; i++) {
        PyObject *sq = PyLong_FromLong(m->path[i]);
        if (sq == NULL) {
            Py_DECREF(path);
            return NULL;
        }
        PyTuple_SET_ITEM(path, i, sq);
    }
    /* A tuple of ints can be in no cycle: untracked, the collector need not visit it
     * (CPython untracks such tuples itself, but only once a collection has seen them). */
    PyObject_GC_UnTrack(path);
    return path;
}

/* Reads (n, black, white, kings, black_to_move, <int>, max_capture) */
static const Board *parse_position(PyObject *args, Position *p, int *btm, int *extra,
                                   int *max_capture)
{
    int n;
    PyObject *black, *white, *kings;
    if (!PyArg_ParseTuple(args, "iOOOpip", &n, &black, &white, &kings, btm, extra,
                          max_capture))
        return NULL;
    const Board *b = board(n);
    if (b == NULL || bits_from_py(black, &p->black) < 0 || bits_from_py(white, &p->white) < 0
        || bits_from_py(kings, &p->kings) < 0 || check_position(b, *p) < 0)
        return NULL;
    return b;
}

static PyObject *py_perft(PyObject *self, PyObject *args)
{
    (void)self;
    Position p;
    int btm, depth, max_capture;
    const Board *b = parse_position(args, &p, &btm, &depth, &max_capture);
    if (b == NULL)
        return NULL;
    if (depth < 0) {
        PyErr_SetString(PyExc_ValueError, "perft depth must be 0 or more");
        return NULL;
    }
    long long total = perft(b, p, btm, depth, max_capture);
    return total < 0 ? NULL : PyLong_FromLongLong(total);
}

static PyObject *py_generate(PyObject *self, PyObject *args)
{
    (void)self;
    Position p;
    int btm, unused, max_capture;
    /* the same arguments as perft with a 0 in depth's place, to keep one parser */
    const Board *b = parse_position(args, &p, &btm, &unused, &max_capture);
    if (b == NULL)
        return NULL;
    MoveList moves = {0};
    PyObject *out = NULL;
    if (generate(b, p.black, p.white, p.kings, btm, max_capture, &moves) == 0) {
        out = PyList_New(moves.len);
        for (int i = 0; out != NULL && i < moves.len; i++) {
            PyObject *path = path_to_py(&moves.m[i]);
            if (path == NULL)
                Py_CLEAR(out);
            else
                PyList_SET_ITEM(out, i, path);
        }
    }
    free_list(&moves);
    return out;
}
static PyObject *py_score(PyObject *self, PyObject *args)
{
    (void)self;
    int n;
    PyObject *black, *white, *kings, *weights;
    Position p;
    Weights w;
    if (!PyArg_ParseTuple(args, "iOOOO", &n, &black, &white, &kings, &weights)
        || read_weights_into(weights, &w) < 0)
        return NULL;
    const Board *b = board(n);
    if (b == NULL || bits_from_py(black, &p.black) < 0 || bits_from_py(white, &p.white) < 0
        || bits_from_py(kings, &p.kings) < 0 || check_position(b, p) < 0)
        return NULL;
    return PyLong_FromLong(score(b, &w, p.black, p.white, p.kings));
}

static PyMethodDef module_methods[] = {
    {"perft", py_perft, METH_VARARGS,
     "perft(n, black, white, kings, black_to_move, depth, max_capture) -> leaf count"},
    {"generate", py_generate, METH_VARARGS,
     "generate(n, black, white, kings, black_to_move, 0, max_capture) -> the legal moves' "
     "paths, in board.generate's order"},
    {"score", py_score, METH_VARARGS,
     "score(n, black, white, kings, weights) -> evaluation.score, points from black's side"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_checkers",
    "Checkers compiled: move generator, perft, evaluation, the engine's search.", -1,
    module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__checkers(void)
{
    PyTypeObject *types[] = {&SearchType, NULL};
    return kernel_module(&module, types);
}
