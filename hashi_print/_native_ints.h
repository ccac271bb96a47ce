/* Lists of ints between Python and the package's C modules (hashi_print/game/_botsearch_native.c,
 * hashi_print/puzzle/_presolve_native.c, hashi_print/puzzle/_deduce_native.c). Read: every item checked
 * against its range, every count capped, so that a bad argument is a ValueError naming the list, never
 * a read out of bounds. And the module object that carries the SHA-256 of the Python files it mirrors. */

#ifndef HASHI_NATIVE_INTS_H
#define HASHI_NATIVE_INTS_H

#include <Python.h>
#include <string.h>

/* setup.py defines it: the SHA-256 of the Python files the module mirrors (hashi_print/native.py). */
#ifndef SOURCE_SHA256
#define SOURCE_SHA256 ""
#endif

/* The module of `def`, with its SOURCE_SHA256 (NULL with an exception set). */
static PyObject *mirror_module(struct PyModuleDef *def)
{
    PyObject *m = PyModule_Create(def);
    if (m && PyModule_AddStringConstant(m, "SOURCE_SHA256", SOURCE_SHA256) < 0) {
        Py_CLEAR(m);
    }
    return m;
}

/* A sequence of ints, each in [low, high), as a new PyMem array (NULL with an exception set): exactly
 * `exact` items when `exact` >= 0, else at most `most`. */
static int *read_ints(PyObject *seq, const char *what, long low, long high, int *length, Py_ssize_t exact,
                      Py_ssize_t most)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) {
        return NULL;
    }
    Py_ssize_t size = PySequence_Fast_GET_SIZE(fast);
    if (exact >= 0 && size != exact) {
        PyErr_Format(PyExc_ValueError, "%s: %zd items, expected %zd", what, size, exact);
    } else if (size > most) {
        PyErr_Format(PyExc_ValueError, "%s: %zd items, at most %zd expected", what, size, most);
    }
    int *out = PyErr_Occurred() ? NULL : PyMem_Malloc(sizeof(int) * (size_t)size + sizeof(int));
    if (!out) {
        if (!PyErr_Occurred()) {
            PyErr_NoMemory();
        }
        Py_DECREF(fast);
        return NULL;
    }
    for (Py_ssize_t j = 0; j < size; j++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, j));
        if (v == -1 && PyErr_Occurred()) {
            break;
        }
        if (v < low || v >= high) {
            PyErr_Format(PyExc_ValueError, "%s: %ld is out of range", what, v);
            break;
        }
        out[j] = (int)v;
    }
    Py_DECREF(fast);
    if (PyErr_Occurred()) {
        PyMem_Free(out);
        return NULL;
    }
    *length = (int)size;
    return out;
}

/* `count` sequences of ints (each at most `most` items in [0, high)), flattened: the items of sequence j
 * are (*flat)[(*start)[j] .. (*start)[j + 1]). 0, or -1 with an exception set (the caller frees both). */
static int read_nested(PyObject *seq, const char *what, Py_ssize_t count, long high, Py_ssize_t most,
                       int **start, int **flat)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) {
        return -1;
    }
    if (PySequence_Fast_GET_SIZE(fast) != count) {
        PyErr_Format(PyExc_ValueError, "%s: %zd items, expected %zd", what, PySequence_Fast_GET_SIZE(fast),
                     count);
        Py_DECREF(fast);
        return -1;
    }
    Py_ssize_t total = 0, capacity = 4 * count + 4;
    *start = PyMem_Malloc(sizeof(int) * ((size_t)count + 1));
    *flat = PyMem_Malloc(sizeof(int) * (size_t)capacity);
    int failed = !*start || !*flat;
    if (failed) {
        PyErr_NoMemory();
    }
    for (Py_ssize_t j = 0; j < count && !failed; j++) {
        int size;
        int *part = read_ints(PySequence_Fast_GET_ITEM(fast, j), what, 0, high, &size, -1, most);
        if (!part) {
            failed = 1;
            break;
        }
        if (total + size > capacity) {
            capacity = 2 * (total + size);
            int *grown = PyMem_Realloc(*flat, sizeof(int) * (size_t)capacity);
            if (!grown) {
                PyMem_Free(part);
                PyErr_NoMemory();
                failed = 1;
                break;
            }
            *flat = grown;
        }
        (*start)[j] = (int)total;
        memcpy(*flat + total, part, sizeof(int) * (size_t)size);
        total += size;
        PyMem_Free(part);
    }
    if (!failed) {
        (*start)[count] = (int)total;
    }
    Py_DECREF(fast);
    return failed ? -1 : 0;
}

/* A new tuple of `count` Python ints (NULL with an exception set). */
static PyObject *int_tuple(const int *values, Py_ssize_t count)
{
    PyObject *t = PyTuple_New(count);
    if (!t) {
        return NULL;
    }
    for (Py_ssize_t j = 0; j < count; j++) {
        PyObject *v = PyLong_FromLong(values[j]);
        if (!v) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, j, v);
    }
    return t;
}

#endif
