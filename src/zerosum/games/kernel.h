/* What every engine kernel's compiled twin repeats, written once: the count of nodes and
 * the periodic call back into Python that may stop the search (the node prologue), the
 * table entries kept in a Python dict, the weights the Python evaluation hands over, and
 * the module's making. Included by the engines' C files (games/connect4/_engine.c,
 * games/checkers/native/, games/maxconnect4/_engine.c); every function is static, so each
 * extension carries its own copy and none exports a symbol.
 *
 * The readable Python stays the reference (docs/architecture.md, "Native kernels"): these
 * pieces do what the Python kernels do, at the same node counts. */

#ifndef ZEROSUM_KERNEL_H
#define ZEROSUM_KERNEL_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

/* ---- counting nodes and the stop ---------------------------------------------------- */

/* The way back to Python: every `every` nodes (a power of two, the kernel's constant) the
 * search calls `observe(nodes)`, as the Python node function calls the stop at the same counts; a true
 * answer raises `stopped` (zerosum.stop.SearchStopped). That call runs Python code, so the
 * interpreter also handles signals (Ctrl-C) and lets other threads run there, as it does
 * between the pure search's bytecodes. An exception set there unwinds the C recursion as
 * the kernel's ERROR value and reaches the caller as in Python. */
typedef struct {
    PyObject *observe; /* observe(nodes) -> bool */
    PyObject *stopped; /* the exception class a stop raises */
    long long nodes, hits;
} Counter;

/* Who is called back (replacing any held before), checked and held. -1: an exception is
 * set. */
static inline int counter_watch(Counter *c, PyObject *observe)
{
    if (!PyCallable_Check(observe)) {
        PyErr_SetString(PyExc_TypeError, "observe must be a callable");
        return -1;
    }
    Py_INCREF(observe);
    Py_XSETREF(c->observe, observe);
    return 0;
}

/* Counter's Python objects, checked and held: `observe` may be NULL, to be given by
 * counter_watch before each search. -1: an exception is set. */
static inline int counter_init(Counter *c, PyObject *observe, PyObject *stopped)
{
    if (!PyExceptionClass_Check(stopped)) {
        PyErr_SetString(PyExc_TypeError, "stopped must be an exception class");
        return -1;
    }
    if (observe != NULL && counter_watch(c, observe) < 0)
        return -1;
    Py_INCREF(stopped);
    Py_XSETREF(c->stopped, stopped);
    return 0;
}

/* observe(nodes): -1 when it raised or said stop (the exception is set then). */
static inline int counter_observe(Counter *c)
{
    PyObject *count = PyLong_FromLongLong(c->nodes);
    if (count == NULL)
        return -1;
    PyObject *r = PyObject_CallOneArg(c->observe, count);
    Py_DECREF(count);
    if (r == NULL)
        return -1;
    const int stop = PyObject_IsTrue(r);
    Py_DECREF(r);
    if (stop < 0)
        return -1;
    if (stop) {
        PyErr_SetNone(c->stopped);
        return -1;
    }
    return 0;
}

/* The node prologue of every node function: count the node, and at every `every`-th (a
 * constant: the test compiles to one mask) call back into Python. -1: unwind (an
 * exception is set). */
static inline int counted_node(Counter *c, long long every)
{
    c->nodes++;
    if (c->nodes & (every - 1))
        return 0;
    return counter_observe(c);
}

/* For the owner's tp_traverse and tp_clear (a kernel holds its search, whose `observe`
 * is a closure over the kernel: a cycle the collector must see). */
#define COUNTER_VISIT(c) do { Py_VISIT((c)->observe); Py_VISIT((c)->stopped); } while (0)
#define COUNTER_CLEAR(c) do { Py_CLEAR((c)->observe); Py_CLEAR((c)->stopped); } while (0)

/* ---- the transposition table as a Python dict ------------------------------------ */

/* Kernels whose table is the Python TranspositionTable's own dict (what is kept from
 * search to search, made room in and read for the principal variation stays the
 * Python's) keep entries as 4-tuples: (depth, bound, value, move), in the kernel's own
 * forms. */

/* entries[key], a 4-tuple (borrowed) in *entry: 1 found, 0 none, -1 an exception set. */
static inline int table_probe(PyObject *entries, PyObject *key, PyObject **entry)
{
    *entry = PyDict_GetItemWithError(entries, key);
    if (*entry == NULL)
        return PyErr_Occurred() ? -1 : 0;
    if (!PyTuple_Check(*entry) || PyTuple_GET_SIZE(*entry) != 4) {
        PyErr_SetString(PyExc_TypeError, "a table entry is a 4-tuple");
        return -1;
    }
    return 1;
}

/* entries[key] = (fields...): the four new references are stolen (any NULL: an exception
 * is set, the others are released). -1 on error. */
static inline int table_store(PyObject *entries, PyObject *key, PyObject *fields[4])
{
    PyObject *entry = NULL;
    int ok = fields[0] && fields[1] && fields[2] && fields[3];
    if (ok)
        entry = PyTuple_New(4);
    if (entry == NULL) {
        for (int i = 0; i < 4; i++)
            Py_XDECREF(fields[i]);
        return -1;
    }
    for (int i = 0; i < 4; i++)
        PyTuple_SET_ITEM(entry, i, fields[i]);
    /* Ints, None and tuples of ints only: in no cycle, so the collector need not visit it
     * (CPython untracks such tuples itself, but only once a collection has seen them). */
    PyObject_GC_UnTrack(entry);
    const int r = PyDict_SetItem(entries, key, entry);
    Py_DECREF(entry);
    return r;
}

/* ---- the evaluation's weights ----------------------------------------------------- */

/* The Python evaluation's constants, handed over when a kernel is made (one definition,
 * in Python): `count` whole numbers from the sequence `weights` into `out`. -1 with an
 * exception when it is not `count` ints. */
static inline int read_weights(PyObject *weights, long *out, Py_ssize_t count)
{
    PyObject *seq = PySequence_Fast(weights, "weights must be a sequence of ints");
    if (seq == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != count) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%zd weights expected", count);
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++)
        out[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
    Py_DECREF(seq);
    return PyErr_Occurred() ? -1 : 0;
}

/* ---- the module --------------------------------------------------------------------- */

/* The module `def` with the types `types` (NULL-terminated) added under their short
 * names (what follows the last dot of tp_name). */
static inline PyObject *kernel_module(PyModuleDef *def, PyTypeObject **types)
{
    for (PyTypeObject **t = types; *t != NULL; t++)
        if (PyType_Ready(*t) < 0)
            return NULL;
    PyObject *m = PyModule_Create(def);
    if (m == NULL)
        return NULL;
    for (PyTypeObject **t = types; *t != NULL; t++) {
        const char *name = strrchr((*t)->tp_name, '.');
        Py_INCREF(*t);
        if (PyModule_AddObject(m, name == NULL ? (*t)->tp_name : name + 1,
                               (PyObject *)*t) < 0) {
            Py_DECREF(*t);
            Py_DECREF(m);
            return NULL;
        }
    }
    return m;
}

#endif
