/* The n-tuple network's value and update, compiled: a twin of NTupleNet.value and
 * NTupleNet.update (ntuple.py). The Python stays the reference; every weight is read
 * and changed in the same order, with the same double additions and libm's tanh, so
 * values and weights are the same to the last bit.
 *
 * `plan` is NTupleNet.plan: for each feature (a tuple under one symmetry), the offset of
 * its table in `weights`, then its `length` cells; `base` is added to every index (the
 * half of the weights of the side to move). `board` holds one byte a cell (0
 * empty, 1 Max's, 2 Min's, ... below `kinds`). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>

typedef struct {
    Py_buffer weights, plan, board;
    Py_ssize_t features;
} Net;

static void release(Net *net)
{
    PyBuffer_Release(&net->weights);
    PyBuffer_Release(&net->plan);
    PyBuffer_Release(&net->board);
}

/* Borrow the buffers and check their shapes; -1 with an exception set if wrong. */
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
    if (PyObject_GetBuffer(board, &net->board, PyBUF_SIMPLE) < 0) {
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
static int active(const Net *net, int length, int kinds, Py_ssize_t base, Py_ssize_t *out)
{
    const int *plan = net->plan.buf;
    const unsigned char *board = net->board.buf;
    Py_ssize_t size = net->weights.len / (Py_ssize_t)sizeof(double);
    for (Py_ssize_t f = 0; f < net->features; f++) {
        const int *feature = plan + f * (length + 1);
        Py_ssize_t index = 0;
        for (int k = 1; k <= length; k++) {
            int c = feature[k];
            if (c < 0 || c >= net->board.len || board[c] >= kinds)
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

static PyObject *run(PyObject *args, int learn)
{
    PyObject *weights, *plan, *board;
    int length, kinds;
    Py_ssize_t base;
    double step = 0.0;
    if (learn ? !PyArg_ParseTuple(args, "OOiiOnd", &weights, &plan, &length, &kinds, &board,
                                  &base, &step)
              : !PyArg_ParseTuple(args, "OOiiOn", &weights, &plan, &length, &kinds, &board,
                                  &base))
        return NULL;
    Net net;
    if (borrow(&net, weights, plan, board, length, learn) < 0)
        return NULL;
    Py_ssize_t *index = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(net.features + 1));
    if (index == NULL) {
        release(&net);
        return PyErr_NoMemory();
    }
    PyObject *result = NULL;
    if (active(&net, length, kinds, base, index) < 0) {
        PyErr_SetString(PyExc_ValueError, "the board does not fit the network");
    } else {
        double v = tanh(total(&net, index));
        if (learn) {
            double change = step * (1 - v * v) / (double)net.features;
            double *w = net.weights.buf;
            for (Py_ssize_t f = 0; f < net.features; f++)
                w[index[f]] += change;
            result = Py_NewRef(Py_None);
        } else {
            result = PyFloat_FromDouble(v);
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

static PyMethodDef module_methods[] = {
    {"value", py_value, METH_VARARGS,
     "value(weights, plan, length, kinds, board, base) -> V, as NTupleNet.value"},
    {"update", py_update, METH_VARARGS,
     "update(weights, plan, length, kinds, board, base, step), as NTupleNet.update"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_ntuple", "The n-tuple network's value and update, compiled.",
    -1, module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__ntuple(void) { return PyModule_Create(&module); }
