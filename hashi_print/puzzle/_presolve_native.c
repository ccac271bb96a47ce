/* Root propagation and the CNF over the open lanes in C: the same as hashi_print/puzzle/presolve.py.
 *
 * presolve.py is the reference; this file settles the same lanes in the same order and writes the same
 * clauses in the same order, so the solver sees the same formula and every verdict, model and
 * generated puzzle stays the same (tests/puzzle/test_presolve_native.py compares the two on every
 * puzzle it is given). setup.py compiles in the SHA-256 of the presolve.py it mirrors as SOURCE_SHA256,
 * and presolve.py uses this module only beside that very file.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#include "_native_ints.h"

/* Caps far above any puzzle the package reads (60 x 60 grids), so that arrays stay small. */
#define MAX_ISLANDS 100000
#define MAX_LANES 400000
/* An island of a grid has at most four lanes; the clause templates enumerate 3^open lanes. */
#define MAX_OPEN 8
#define MAX_CLUE 1000

typedef struct {
    int n;
    int lanes;
    int *clue;
    int *ends_a;
    int *ends_b;
    int *adj_start; /* island i's lanes: adj[adj_start[i] .. adj_start[i + 1]) */
    int *adj;
    int *cross_start; /* lane k's crossing lanes: cross[cross_start[k] .. cross_start[k + 1]) */
    int *cross;
    /* Bounds: per lane least and most bridges, per island least and most. */
    int *lo;
    int *hi;
    int *least;
    int *most;
    /* The islands waiting to be looked at (a stack, popped from the end) and whether each waits. */
    int *todo;
    int n_todo;
    char *queued;
    int *label;
    int *demand;
    int *size;
} Work;

static void free_work(Work *w)
{
    PyMem_Free(w->clue);
    PyMem_Free(w->ends_a);
    PyMem_Free(w->ends_b);
    PyMem_Free(w->adj_start);
    PyMem_Free(w->adj);
    PyMem_Free(w->cross_start);
    PyMem_Free(w->cross);
    PyMem_Free(w->lo);
    PyMem_Free(w->hi);
    PyMem_Free(w->least);
    PyMem_Free(w->most);
    PyMem_Free(w->todo);
    PyMem_Free(w->queued);
    PyMem_Free(w->label);
    PyMem_Free(w->demand);
    PyMem_Free(w->size);
}

static void wake(Work *w, int i)
{
    if (!w->queued[i]) {
        w->queued[i] = 1;
        w->todo[w->n_todo++] = i;
    }
}

/* _cap: a lane's most bridges between clues x and y, of more than two islands. */
static int cap(int x, int y)
{
    if (x == y && y <= 2) {
        return x - 1;
    }
    return x > 1 && 1 < y ? 2 : 1;
}

static void first_bounds(Work *w)
{
    for (int k = 0; k < w->lanes; k++) {
        int x = w->clue[w->ends_a[k]];
        int y = w->clue[w->ends_b[k]];
        w->hi[k] = w->n > 2 ? cap(x, y) : (x > 1 && 1 < y ? 2 : 1);
        w->lo[k] = 0;
    }
    for (int i = 0; i < w->n; i++) {
        w->least[i] = 0;
        w->most[i] = 0;
    }
    for (int k = 0; k < w->lanes; k++) {
        w->most[w->ends_a[k]] += w->hi[k];
        w->most[w->ends_b[k]] += w->hi[k];
    }
}

static int close_crossers(Work *w, int x)
{
    for (int e = w->cross_start[x]; e < w->cross_start[x + 1]; e++) {
        int c = w->cross[e];
        int h = w->hi[c];
        if (h) {
            if (w->lo[c]) {
                return 0;
            }
            w->hi[c] = 0;
            w->most[w->ends_a[c]] -= h;
            wake(w, w->ends_a[c]);
            w->most[w->ends_b[c]] -= h;
            wake(w, w->ends_b[c]);
        }
    }
    return 1;
}

static int propagate(Work *w)
{
    int *lo = w->lo, *hi = w->hi, *least = w->least, *most = w->most;
    while (w->n_todo) {
        int i = w->todo[--w->n_todo];
        w->queued[i] = 0;
        int up = w->clue[i] - least[i];
        int down = most[i] - w->clue[i];
        if (up < 0 || down < 0) {
            return 0;
        }
        if ((up > 1 && down > 1) || (up == 0 && down == 0)) {
            continue;
        }
        int least_margin = up < down ? up : down;
        for (int e = w->adj_start[i]; e < w->adj_start[i + 1]; e++) {
            int x = w->adj[e];
            int span = hi[x] - lo[x];
            if (span <= least_margin) {
                continue;
            }
            int a = w->ends_a[x];
            int b = w->ends_b[x];
            if (span > up) {
                int lower_by = span - up;
                hi[x] -= lower_by;
                most[a] -= lower_by;
                most[b] -= lower_by;
            }
            if (span > down) {
                int raise_by = span - down;
                int old_lo = lo[x];
                lo[x] = old_lo + raise_by;
                least[a] += raise_by;
                least[b] += raise_by;
                if (!old_lo && !close_crossers(w, x)) {
                    return 0;
                }
            }
            wake(w, b == i ? a : b);
        }
    }
    return 1;
}

/* group_roots over the lanes built for sure: each island's group root, its smallest island. */
static void group_roots(Work *w)
{
    int *parent = w->label;
    for (int i = 0; i < w->n; i++) {
        parent[i] = i;
    }
    for (int k = 0; k < w->lanes; k++) {
        if (!w->lo[k]) {
            continue;
        }
        int a = w->ends_a[k];
        int b = w->ends_b[k];
        while (parent[a] != a) {
            parent[a] = parent[parent[a]];
            a = parent[a];
        }
        while (parent[b] != b) {
            parent[b] = parent[parent[b]];
            b = parent[b];
        }
        if (a < b) {
            parent[b] = a;
        } else if (b < a) {
            parent[a] = b;
        }
    }
    for (int i = 0; i < w->n; i++) {
        parent[i] = parent[parent[i]];
    }
}

static void isolate(Work *w)
{
    int *lo = w->lo, *hi = w->hi, *most = w->most, *label = w->label;
    group_roots(w);
    for (int i = 0; i < w->n; i++) {
        w->demand[i] = 0;
        w->size[i] = 0;
    }
    for (int i = 0; i < w->n; i++) {
        w->demand[label[i]] += w->clue[i] - w->least[i];
        w->size[label[i]] += 1;
    }
    for (int x = 0; x < w->lanes; x++) {
        if (!(hi[x] > lo[x]) || lo[x]) {
            continue;
        }
        int a = w->ends_a[x];
        int b = w->ends_b[x];
        int ra = label[a];
        int rb = label[b];
        int h = hi[x];
        if (ra != rb && w->demand[ra] + w->demand[rb] == 2 * h && w->size[ra] + w->size[rb] < w->n) {
            hi[x] = h - 1;
            most[a] -= 1;
            most[b] -= 1;
            wake(w, a);
            wake(w, b);
        }
    }
}

/* _settle: 1 with the bounds and the group roots in w->label, 0 when the clues contradict. */
static int settle(Work *w)
{
    first_bounds(w);
    w->n_todo = 0;
    for (int i = w->n - 1; i >= 0; i--) {
        w->todo[w->n_todo++] = i;
        w->queued[i] = 1;
    }
    for (;;) {
        if (!propagate(w)) {
            return 0;
        }
        isolate(w);
        if (!w->n_todo) {
            return 1;
        }
    }
}

/* _numbered: the groups of w->label numbered in order of their first island; returns how many. */
static int numbered(Work *w)
{
    int groups = 0;
    for (int i = 0; i < w->n; i++) {
        int root = w->label[i];
        if (root == i) {
            w->label[i] = groups++;
        } else {
            w->label[i] = w->label[root];
        }
    }
    return groups;
}

/* ---- building the Python result ---- */

/* Append a clause of `count` literals to the list; 0 or -1. */
static int add_clause(PyObject *clauses, const int *lits, int count)
{
    PyObject *t = int_tuple(lits, count);
    if (!t) {
        return -1;
    }
    int failed = PyList_Append(clauses, t);
    Py_DECREF(t);
    return failed;
}

/* The clauses of one island whose open lanes have `widths` (1 or 2 above the base) and literals
 * table[4 * pos + 0..3] = (e1, e2, -e1, -e2), summing to `need`: as presolve._templates. */
static int island_clauses(PyObject *clauses, const int *widths, const int *table, int open, int need)
{
    int counts[MAX_OPEN];
    int lits[MAX_OPEN];
    int widest = 0;
    for (int p = 0; p < open; p++) {
        counts[p] = 0;
        widest += widths[p];
    }
    /* Every count tuple in itertools.product order: the last position varies fastest. */
    for (;;) {
        int total = 0;
        for (int p = 0; p < open; p++) {
            total += counts[p];
        }
        if (total == need + 1) {
            int m = 0;
            for (int p = 0; p < open; p++) {
                if (counts[p]) {
                    lits[m++] = table[4 * p + counts[p] - 1 + 2];
                }
            }
            if (add_clause(clauses, lits, m)) {
                return -1;
            }
        }
        if (total == need - 1) {
            int m = 0;
            for (int p = 0; p < open; p++) {
                if (counts[p] < widths[p]) {
                    lits[m++] = table[4 * p + counts[p] + 1 - 1];
                }
            }
            if (add_clause(clauses, lits, m)) {
                return -1;
            }
        }
        int p = open - 1;
        while (p >= 0 && counts[p] == widths[p]) {
            counts[p] = 0;
            p--;
        }
        if (p < 0) {
            break;
        }
        counts[p] += 1;
    }
    if (need > widest || need < 0) {
        return add_clause(clauses, lits, 0);
    }
    return 0;
}

static PyObject *encode(Work *w)
{
    int *lo = w->lo, *hi = w->hi;
    int lanes = w->lanes;
    PyObject *result = NULL, *clauses = NULL, *links = NULL;
    int *e1 = PyMem_Calloc((size_t)lanes + 1, sizeof(int));
    int *e2 = PyMem_Calloc((size_t)lanes + 1, sizeof(int));
    int *lane_of = PyMem_Malloc(sizeof(int) * (2 * (size_t)lanes + 1));
    if (!e1 || !e2 || !lane_of) {
        PyErr_NoMemory();
        goto out;
    }
    int open = 0;
    for (int k = 0; k < lanes; k++) {
        if (lo[k] != hi[k]) {
            lane_of[open++] = k;
        }
    }
    int variables = open;
    if (!open) {
        int groups = numbered(w);
        result = Py_BuildValue("(NNN()()i())", int_tuple(lo, lanes), int_tuple(e1, lanes),
                               int_tuple(e2, lanes), groups > 0 ? groups : 1);
        goto out;
    }
    for (int v = 0; v < open; v++) {
        e1[lane_of[v]] = v + 1;
    }
    for (int v = 0; v < open; v++) {
        int k = lane_of[v];
        if (hi[k] - lo[k] == 2) {
            lane_of[variables] = k;
            e2[k] = ++variables;
        }
    }
    clauses = PyList_New(0);
    if (!clauses) {
        goto out;
    }
    int lits[2 * MAX_OPEN];
    for (int v = open; v < variables; v++) {
        int k = lane_of[v];
        lits[0] = -e2[k];
        lits[1] = e1[k];
        if (add_clause(clauses, lits, 2)) {
            goto out;
        }
    }
    for (int k = 0; k < lanes; k++) {
        for (int e = w->cross_start[k]; e < w->cross_start[k + 1]; e++) {
            int j = w->cross[e];
            if (k < j && e1[k] && e1[j]) {
                lits[0] = -e1[k];
                lits[1] = -e1[j];
                if (add_clause(clauses, lits, 2)) {
                    goto out;
                }
            }
        }
    }
    for (int i = 0; i < w->n; i++) {
        if (w->least[i] == w->most[i]) {
            continue;
        }
        int widths[MAX_OPEN];
        int table[4 * MAX_OPEN];
        int count = 0;
        for (int e = w->adj_start[i]; e < w->adj_start[i + 1]; e++) {
            int k = w->adj[e];
            int x = e1[k];
            if (x) {
                if (count == MAX_OPEN) {
                    PyErr_SetString(PyExc_ValueError, "an island with more than 8 open lanes");
                    goto out;
                }
                int y = e2[k];
                widths[count] = y ? 2 : 1;
                table[4 * count] = x;
                table[4 * count + 1] = y;
                table[4 * count + 2] = -x;
                table[4 * count + 3] = -y;
                count++;
            }
        }
        if (island_clauses(clauses, widths, table, count, w->clue[i] - w->least[i])) {
            goto out;
        }
    }
    int groups = numbered(w);
    int *label = w->label;
    links = PyList_New(0);
    if (!links) {
        goto out;
    }
    /* The links, and each group's cut (the e1 of every link leaving it), as presolve._group_cuts. */
    int *cut_start = PyMem_Calloc((size_t)groups + 1, sizeof(int));
    int *cut = PyMem_Malloc(sizeof(int) * (2 * (size_t)open + 1));
    int *fill = PyMem_Calloc((size_t)groups + 1, sizeof(int));
    int *linked = PyMem_Malloc(sizeof(int) * ((size_t)open + 1)); /* the lanes of the links, in order */
    int n_links = 0;
    if (!cut_start || !cut || !fill || !linked) {
        PyErr_NoMemory();
        groups = -1;
    }
    for (int v = 0; v < open && groups > 0; v++) {
        int k = lane_of[v];
        int ra = label[w->ends_a[k]];
        int rb = label[w->ends_b[k]];
        if (!lo[k] && ra != rb) {
            PyObject *link = Py_BuildValue("(iii)", e1[k], ra, rb);
            if (!link || PyList_Append(links, link)) {
                Py_XDECREF(link);
                groups = -1;
                break;
            }
            Py_DECREF(link);
            linked[n_links++] = k;
            cut_start[ra + 1] += 1;
            cut_start[rb + 1] += 1;
        }
    }
    if (groups > 1) {
        for (int g = 0; g < groups; g++) {
            cut_start[g + 1] += cut_start[g];
            w->size[g] = 0;
        }
        for (int i = 0; i < w->n; i++) {
            w->size[label[i]] += 1;
        }
        for (int j = 0; j < n_links; j++) {
            int k = linked[j];
            int ra = label[w->ends_a[k]];
            int rb = label[w->ends_b[k]];
            cut[cut_start[ra] + fill[ra]++] = e1[k];
            cut[cut_start[rb] + fill[rb]++] = e1[k];
        }
        for (int g = 0; g < groups; g++) {
            if (w->size[g] > 1 && add_clause(clauses, cut + cut_start[g], fill[g])) {
                groups = -1;
                break;
            }
        }
    }
    PyMem_Free(cut_start);
    PyMem_Free(cut);
    PyMem_Free(fill);
    PyMem_Free(linked);
    if (groups < 0) {
        goto out;
    }
    PyObject *clause_tuple = PyList_AsTuple(clauses);
    PyObject *link_tuple = PyList_AsTuple(links);
    result = Py_BuildValue("(NNNNNiN)", int_tuple(lo, lanes), int_tuple(e1, lanes), int_tuple(e2, lanes),
                           clause_tuple, link_tuple, groups, int_tuple(lane_of, variables));
out:
    Py_XDECREF(clauses);
    Py_XDECREF(links);
    PyMem_Free(e1);
    PyMem_Free(e2);
    PyMem_Free(lane_of);
    return result;
}

static PyObject *presolve(PyObject *module, PyObject *args)
{
    PyObject *clues, *ends, *lanes_of, *crossings;
    if (!PyArg_ParseTuple(args, "OOOO", &clues, &ends, &lanes_of, &crossings)) {
        return NULL;
    }
    Work w;
    memset(&w, 0, sizeof(w));
    PyObject *result = NULL;
    int n;
    Py_ssize_t lanes;
    PyObject *ends_fast = NULL;
    if (!(w.clue = read_ints(clues, "clues", 0, MAX_CLUE, &n, -1, MAX_ISLANDS))) {
        goto out;
    }
    if (n < 1) {
        PyErr_SetString(PyExc_ValueError, "clues: no island");
        goto out;
    }
    w.n = (int)n;
    ends_fast = PySequence_Fast(ends, "ends");
    if (!ends_fast) {
        goto out;
    }
    lanes = PySequence_Fast_GET_SIZE(ends_fast);
    if (lanes > MAX_LANES) {
        PyErr_SetString(PyExc_ValueError, "ends: too many lanes");
        goto out;
    }
    w.lanes = (int)lanes;
    w.ends_a = PyMem_Malloc(sizeof(int) * (size_t)lanes + sizeof(int));
    w.ends_b = PyMem_Malloc(sizeof(int) * (size_t)lanes + sizeof(int));
    if (!w.ends_a || !w.ends_b) {
        PyErr_NoMemory();
        goto out;
    }
    for (Py_ssize_t k = 0; k < lanes; k++) {
        int two;
        int *pair = read_ints(PySequence_Fast_GET_ITEM(ends_fast, k), "ends", 0, n, &two, -1, 2);
        if (!pair) {
            goto out;
        }
        if (two != 2) {
            PyMem_Free(pair);
            PyErr_SetString(PyExc_ValueError, "ends: a lane needs two islands");
            goto out;
        }
        w.ends_a[k] = pair[0];
        w.ends_b[k] = pair[1];
        PyMem_Free(pair);
    }
    if (read_nested(lanes_of, "lanes_of", n, lanes, MAX_LANES, &w.adj_start, &w.adj)
        || read_nested(crossings, "crossings", lanes, lanes, MAX_LANES, &w.cross_start, &w.cross)) {
        goto out;
    }
    /* A lane of island i must have i at one end (the propagation reads its far end). */
    for (int i = 0; i < w.n; i++) {
        for (int e = w.adj_start[i]; e < w.adj_start[i + 1]; e++) {
            if (w.ends_a[w.adj[e]] != i && w.ends_b[w.adj[e]] != i) {
                PyErr_SetString(PyExc_ValueError, "lanes_of: a lane that does not end at its island");
                goto out;
            }
        }
    }
    size_t nn = (size_t)n + 1, ll = (size_t)lanes + 1;
    w.lo = PyMem_Malloc(sizeof(int) * ll);
    w.hi = PyMem_Malloc(sizeof(int) * ll);
    w.least = PyMem_Malloc(sizeof(int) * nn);
    w.most = PyMem_Malloc(sizeof(int) * nn);
    w.todo = PyMem_Malloc(sizeof(int) * nn);
    w.queued = PyMem_Malloc(nn);
    w.label = PyMem_Malloc(sizeof(int) * nn);
    w.demand = PyMem_Malloc(sizeof(int) * nn);
    w.size = PyMem_Malloc(sizeof(int) * nn);
    if (!w.lo || !w.hi || !w.least || !w.most || !w.todo || !w.queued || !w.label || !w.demand || !w.size) {
        PyErr_NoMemory();
        goto out;
    }
    if (!settle(&w)) {
        result = Py_NewRef(Py_None);
        goto out;
    }
    result = encode(&w);
out:
    Py_XDECREF(ends_fast);
    free_work(&w);
    return result;
}

static PyMethodDef methods[] = {
    {"presolve", presolve, METH_VARARGS,
     "presolve(clues, ends, lanes_of, crossings): Presolved's fields, or None when the clues contradict."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "hashi_print.puzzle._presolve_native",
    .m_doc = "Root propagation and the CNF over the open lanes in C (see hashi_print/puzzle/presolve.py).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__presolve_native(void)
{
    return mirror_module(&module);
}
