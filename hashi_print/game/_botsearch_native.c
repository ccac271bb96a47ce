/* The bots' search kernel in C: the same search as hashi_print/game/botsearch.py, on C arrays.
 *
 * botsearch.py is the reference; this file computes every float by the same operations in the same
 * order (no reassociation, no fused multiply-add: setup.py compiles it with -ffp-contract=off), so the
 * bots play the same moves with either (tests/game/test_bot_replay.py replays recorded games with
 * both). setup.py compiles in the SHA-256 of the botsearch.py it mirrors as SOURCE_SHA256, and the
 * bots use this kernel only beside that very file: an edit of botsearch.py falls back to pure Python
 * until this file is brought in line and built again (scripts/build_native_bots.py).
 *
 * Python objects are touched only at the edges (building a Search, calling value or best); the
 * search itself allocates once per call and never boxes a float.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "_native_ints.h"

#define ROOM_FREE 99
#define NO_ISLAND (-1)
#define CIRCLED 0
#define DEAD (-1)
#define BARE (-2)
/* Numerals, bridge counts and the outlook's tables run 0..12: NUMERALS slots each. */
#define NUMERALS 13
/* Caps on what a Search accepts, far above any board or card the game prints, so that a beam's
 * arrays stay within a few megabytes (width x lanes x bridges ints). */
#define MAX_ISLANDS 1024
#define MAX_LANES 4096
#define MAX_BRIDGES 16
#define MAX_WIDTH 64

typedef struct {
    PyObject_HEAD
    int n;
    int lanes;
    int *ends_a;
    int *ends_b;
    int *cross_start; /* lane k's crossing lanes: cross[cross_start[k] .. cross_start[k + 1]) */
    int *cross;
    int *adj_start; /* island i's lanes and other ends: adj_*[adj_start[i] .. adj_start[i + 1]) */
    int *adj_lane;
    int *adj_other;
    int n_red;
    int *red;
    int n_blue;
    int *blue;
    double p_need[NUMERALS];
    double p_bare[NUMERALS];
    double supply[NUMERALS];
    double *empty;
    double dead;
    double ends_supply;
    int strict;
    int soft;
    double weight;
    double power;
    double per;
    double red_value;
    double blue_value;
    double six;
    /* Scratch for `value`, as in botsearch.py: one of each for every position. */
    int *kind;
    double *chance;
    double *expected;
    int *parent;
    int *sizes;
    /* Set when a position had more bridges at an unnumbered island than the tables count (botsearch
     * would raise IndexError): the call then raises ValueError instead of reading out of bounds. */
    int overflow;
} SearchObject;

/* A position: numerals and counts per island, bridges and crossing blocks per lane, the bridged lanes
 * as a stack (in the order they were bridged). */
typedef struct {
    int *num;
    int *br;
    int *cnt;
    int *blocks;
    int *bridged;
    int n_bridged;
} Position;

/* ---- the search, mirroring botsearch.Search ---- */

static double chances(SearchObject *s, const int *wanting, int open_need)
{
    double scale = (double)open_need > s->ends_supply ? s->ends_supply / (double)open_need : 1.0;
    double circles = 0.0;
    for (int i = 0; i < s->n; i++) {
        int w = s->kind[i];
        double ch;
        if (w > 0) {
            ch = s->p_need[w] * scale;
        } else if (w == CIRCLED) {
            ch = 1.0;
        } else if (w == DEAD) {
            ch = 0.0;
        } else if (w == BARE) {
            ch = s->empty[i];
        } else {
            int c = BARE - w;
            ch = s->p_bare[c];
            if ((double)wanting[c] > s->supply[c]) {
                ch = ch * (s->supply[c] / (double)wanting[c]);
            }
        }
        s->chance[i] = ch;
        circles += ch;
    }
    return circles;
}

static double colour(SearchObject *s, const int *flagged, int size, double value, const Position *p)
{
    int done = 0;
    for (int j = 0; j < size; j++) {
        int i = flagged[j];
        int v = p->num[i];
        if (v && p->cnt[i] == v) {
            done += 1;
        }
    }
    if (done == size) {
        return value;
    }
    if (s->strict) {
        return s->weight * value * pow((double)done / (double)size, 2.0);
    }
    if (s->soft) {
        double picked = 0.0;
        for (int j = 0; j < size; j++) {
            picked += s->chance[flagged[j]];
        }
        return s->weight * value * pow(picked / (double)size, s->power);
    }
    double prod = 1.0;
    for (int j = 0; j < size; j++) {
        prod *= s->chance[flagged[j]];
    }
    return s->weight * value * prod;
}

static int find_root(const int *parent, int a)
{
    while (parent[a] != a) {
        a = parent[a];
    }
    return a;
}

static void join(int *parent, int a, int b)
{
    a = find_root(parent, a);
    b = find_root(parent, b);
    if (a < b) {
        parent[b] = a;
    } else if (b < a) {
        parent[a] = b;
    }
}

static int circled_group(SearchObject *s, const Position *p)
{
    int *parent = s->parent;
    int *sizes = s->sizes;
    for (int i = 0; i < s->n; i++) {
        parent[i] = i;
        sizes[i] = 0;
    }
    for (int j = 0; j < p->n_bridged; j++) {
        int k = p->bridged[j];
        int a = s->ends_a[k];
        int b = s->ends_b[k];
        int va = p->num[a];
        int vb = p->num[b];
        if (va && vb && p->cnt[a] == va && p->cnt[b] == vb) {
            join(parent, a, b);
        }
    }
    int largest = 0;
    for (int i = 0; i < s->n; i++) {
        int root = parent[parent[i]];
        parent[i] = root;
        int v = p->num[i];
        if (v && p->cnt[i] == v) {
            int size = sizes[root] + 1;
            sizes[root] = size;
            if (size > largest) {
                largest = size;
            }
        }
    }
    return largest;
}

static double expected_group(SearchObject *s, const Position *p)
{
    const double *chance = s->chance;
    int *parent = s->parent;
    for (int i = 0; i < s->n; i++) {
        parent[i] = i;
    }
    int joined = 0;
    for (int j = 0; j < p->n_bridged; j++) {
        int k = p->bridged[j];
        int a = s->ends_a[k];
        int b = s->ends_b[k];
        if (chance[a] > 0 && chance[b] > 0) {
            joined = 1;
            join(parent, a, b);
        }
    }
    if (!joined) {
        /* max(chance): the first largest. */
        double top = chance[0];
        for (int i = 1; i < s->n; i++) {
            if (chance[i] > top) {
                top = chance[i];
            }
        }
        return top;
    }
    double *expected = s->expected;
    double largest = 0.0;
    for (int i = 0; i < s->n; i++) {
        double c = chance[i];
        int root = parent[parent[i]];
        parent[i] = root;
        if (c > 0) {
            double sum = root == i ? c : expected[root] + c;
            expected[root] = sum;
            if (sum > largest) {
                largest = sum;
            }
        }
    }
    return largest;
}

static double six_value(SearchObject *s, const Position *p, int circled)
{
    if (s->strict || circled >= 6) {
        int largest = circled_group(s, p);
        if (circled >= 6 && largest >= 6) {
            return s->six;
        }
        if (s->strict) {
            return s->weight * s->six * pow((double)largest / 6.0, 2.0);
        }
    }
    double reach = expected_group(s, p) / 6.0;
    if (reach > 1.0) {
        reach = 1.0;
    }
    return s->weight * s->six * pow(reach, 3.0);
}

static double value(SearchObject *s, const Position *p)
{
    int wanting[NUMERALS] = {0};
    int open_need = 0;
    int circled = 0;
    double total = 0.0;
    const int *num = p->num;
    const int *cnt = p->cnt;
    for (int i = 0; i < s->n; i++) {
        int v = num[i];
        int c = cnt[i];
        if (!v) {
            if (c >= NUMERALS) {
                s->overflow = 1;
                c = 0;
            }
            if (c) {
                wanting[c] += 1;
            }
            s->kind[i] = BARE - c;
            continue;
        }
        if (c == v) {
            s->kind[i] = CIRCLED;
            circled += 1;
            continue;
        }
        int need = v - c;
        int avail = 0;
        for (int e = s->adj_start[i]; e < s->adj_start[i + 1]; e++) {
            int k = s->adj_lane[e];
            int b = p->br[k];
            if (p->blocks[k] || b == 2) {
                continue;
            }
            int o = s->adj_other[e];
            int vo = num[o];
            int room = vo ? vo - cnt[o] : ROOM_FREE;
            if (room > 0) {
                avail += 2 - b < room ? 2 - b : room;
                if (avail >= need) {
                    break;
                }
            }
        }
        if (avail < need) {
            total -= s->dead;
            s->kind[i] = DEAD;
        } else {
            s->kind[i] = need;
            open_need += need;
        }
    }
    total += s->per * chances(s, wanting, open_need);
    if (s->red_value != 0.0) {
        total += colour(s, s->red, s->n_red, s->red_value, p);
    }
    if (s->blue_value != 0.0) {
        total += colour(s, s->blue, s->n_blue, s->blue_value, p);
    }
    if (s->six != 0.0) {
        total += six_value(s, p, circled);
    }
    return total;
}

static void add_bridge(SearchObject *s, Position *p, int k)
{
    int b = p->br[k];
    if (!b) {
        p->bridged[p->n_bridged++] = k;
        for (int e = s->cross_start[k]; e < s->cross_start[k + 1]; e++) {
            p->blocks[s->cross[e]] += 1;
        }
    }
    p->br[k] = b + 1;
    p->cnt[s->ends_a[k]] += 1;
    p->cnt[s->ends_b[k]] += 1;
}

static void remove_bridge(SearchObject *s, Position *p, int k)
{
    int b = p->br[k] - 1;
    p->br[k] = b;
    p->cnt[s->ends_a[k]] -= 1;
    p->cnt[s->ends_b[k]] -= 1;
    if (!b) {
        p->n_bridged -= 1;
        for (int e = s->cross_start[k]; e < s->cross_start[k + 1]; e++) {
            p->blocks[s->cross[e]] -= 1;
        }
    }
}

/* The beam's candidates: per candidate its value and its sorted lanes (`length` of them). */
typedef struct {
    int length;
    int count;
    int capacity;
    double *values;
    int *keys;
    int *order; /* candidate indices, sorted best first */
    int *table; /* open addressing on the keys: candidate index + 1, 0 for empty */
    int table_size;
} Candidates;

static int compare_length; /* the key length during a sort (qsort has no context argument) */
static const Candidates *compare_with;

static int compare_keys(const int *a, const int *b, int length)
{
    for (int j = 0; j < length; j++) {
        if (a[j] != b[j]) {
            return a[j] < b[j] ? -1 : 1;
        }
    }
    return 0;
}

/* Best first, as botsearch sorts (-value, lanes) pairs: the higher value, then the lower lanes. */
static int compare_candidates(const void *x, const void *y)
{
    int i = *(const int *)x;
    int j = *(const int *)y;
    double a = -compare_with->values[i];
    double b = -compare_with->values[j];
    if (a < b) {
        return -1;
    }
    if (a > b) {
        return 1;
    }
    return compare_keys(compare_with->keys + (size_t)i * compare_length,
                        compare_with->keys + (size_t)j * compare_length, compare_length);
}

static unsigned int hash_key(const int *key, int length)
{
    unsigned int h = 2166136261u;
    for (int j = 0; j < length; j++) {
        h = (h ^ (unsigned int)key[j]) * 16777619u;
    }
    return h;
}

/* The slot of `key` in the table: where it is, or the empty slot where it would go. */
static int find_slot(const Candidates *c, const int *key)
{
    unsigned int mask = (unsigned int)c->table_size - 1;
    unsigned int at = hash_key(key, c->length) & mask;
    for (;;) {
        int held = c->table[at];
        if (!held || compare_keys(c->keys + (size_t)(held - 1) * c->length, key, c->length) == 0) {
            return (int)at;
        }
        at = (at + 1) & mask;
    }
}

/* The beam over `bridges` bridges, keeping `width` sequences per step; the complete ones (every kept one
 * when `partial`), best first, go to done_values / done_keys (each key `bridges` long, unused slots -1).
 * Returns how many, or -1 when out of memory. */
static int beam(SearchObject *s, Position *p, int bridges, int width, int partial, double *done_values,
                int *done_keys, int *done_lengths)
{
    int lanes_all = s->lanes;
    int done = 0;
    /* The first step searches from the empty sequence even when `width` keeps none. */
    int capacity = (width > 1 ? width : 1) * lanes_all + 1;
    int table_size = 1;
    while (table_size < 2 * capacity) {
        table_size *= 2;
    }
    int *beam_keys = PyMem_Malloc(sizeof(int) * (size_t)width * (size_t)bridges + sizeof(int));
    Candidates c = {0};
    c.values = PyMem_Malloc(sizeof(double) * (size_t)capacity);
    c.keys = PyMem_Malloc(sizeof(int) * (size_t)capacity * (size_t)bridges + sizeof(int));
    c.order = PyMem_Malloc(sizeof(int) * (size_t)capacity);
    c.table = PyMem_Malloc(sizeof(int) * (size_t)table_size);
    c.table_size = table_size;
    int *key = PyMem_Malloc(sizeof(int) * (size_t)bridges + sizeof(int));
    if (!beam_keys || !c.values || !c.keys || !c.order || !c.table || !key) {
        done = -1;
        goto out;
    }
    int n_beam = 1; /* the empty sequence */
    for (int step = 0; step < bridges; step++) {
        int length = step + 1;
        c.length = length;
        c.count = 0;
        memset(c.table, 0, sizeof(int) * (size_t)table_size);
        for (int m = 0; m < n_beam; m++) {
            const int *lanes = beam_keys + (size_t)m * step;
            for (int j = 0; j < step; j++) {
                add_bridge(s, p, lanes[j]);
            }
            for (int k = 0; k < lanes_all; k++) {
                if (p->br[k] >= 2 || p->blocks[k]) {
                    continue;
                }
                int a = s->ends_a[k];
                int o = s->ends_b[k];
                int va = p->num[a];
                int vo = p->num[o];
                if (!(va || vo) || (va && p->cnt[a] >= va) || (vo && p->cnt[o] >= vo)) {
                    continue;
                }
                /* The lanes with k, sorted: one set of lanes, one key. */
                int at = 0;
                while (at < step && lanes[at] <= k) {
                    key[at] = lanes[at];
                    at++;
                }
                key[at] = k;
                for (int j = at; j < step; j++) {
                    key[j + 1] = lanes[j];
                }
                int slot = find_slot(&c, key);
                if (c.table[slot]) {
                    continue;
                }
                int index = c.count++;
                memcpy(c.keys + (size_t)index * length, key, sizeof(int) * (size_t)length);
                c.table[slot] = index + 1;
                add_bridge(s, p, k);
                c.values[index] = value(s, p);
                remove_bridge(s, p, k);
            }
            for (int j = step - 1; j >= 0; j--) {
                remove_bridge(s, p, lanes[j]);
            }
        }
        for (int i = 0; i < c.count; i++) {
            c.order[i] = i;
        }
        compare_length = length;
        compare_with = &c;
        qsort(c.order, (size_t)c.count, sizeof(int), compare_candidates);
        int kept = c.count < width ? c.count : width;
        if (partial || step == bridges - 1) {
            for (int r = 0; r < kept; r++) {
                int i = c.order[r];
                done_values[done] = c.values[i];
                memcpy(done_keys + (size_t)done * bridges, c.keys + (size_t)i * length,
                       sizeof(int) * (size_t)length);
                done_lengths[done] = length;
                done++;
            }
        }
        /* The kept sequences become the next beam (ranked, best first). */
        for (int r = 0; r < kept; r++) {
            memcpy(beam_keys + (size_t)r * length, c.keys + (size_t)c.order[r] * length,
                   sizeof(int) * (size_t)length);
        }
        n_beam = kept;
        if (!n_beam) {
            break;
        }
    }
out:
    PyMem_Free(beam_keys);
    PyMem_Free(c.values);
    PyMem_Free(c.keys);
    PyMem_Free(c.order);
    PyMem_Free(c.table);
    PyMem_Free(key);
    return done;
}

typedef struct {
    double neg_value;
    int island;
} Ranked;

static int compare_ranked(const void *x, const void *y)
{
    const Ranked *a = x;
    const Ranked *b = y;
    if (a->neg_value < b->neg_value) {
        return -1;
    }
    if (a->neg_value > b->neg_value) {
        return 1;
    }
    return (a->island > b->island) - (a->island < b->island);
}

/* ---- reading Python arguments ---- */

/* Read `want` floats into `out`; 0 on success, -1 with an exception set. */
static int read_doubles(PyObject *seq, const char *what, double *out, int want)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) {
        return -1;
    }
    if (PySequence_Fast_GET_SIZE(fast) != want) {
        PyErr_Format(PyExc_ValueError, "%s: %zd items, expected %d", what, PySequence_Fast_GET_SIZE(fast),
                     want);
        Py_DECREF(fast);
        return -1;
    }
    for (int j = 0; j < want; j++) {
        out[j] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, j));
        if (out[j] == -1.0 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

/* ---- the Search type ---- */

/* Free the arrays of a Search and forget them (for a Search set up again, and at the end). */
static void Search_clear(SearchObject *self)
{
    PyMem_Free(self->ends_a);
    PyMem_Free(self->ends_b);
    PyMem_Free(self->cross_start);
    PyMem_Free(self->cross);
    PyMem_Free(self->adj_start);
    PyMem_Free(self->adj_lane);
    PyMem_Free(self->adj_other);
    PyMem_Free(self->red);
    PyMem_Free(self->blue);
    PyMem_Free(self->empty);
    PyMem_Free(self->kind);
    PyMem_Free(self->chance);
    PyMem_Free(self->expected);
    PyMem_Free(self->parent);
    PyMem_Free(self->sizes);
    memset((char *)self + sizeof(PyObject), 0, sizeof(SearchObject) - sizeof(PyObject));
}

static void Search_dealloc(SearchObject *self)
{
    Search_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Search_init(SearchObject *self, PyObject *args, PyObject *kwds)
{
    static char *names[] = {"ends_a", "ends_b", "crossings", "adj_lane", "adj_other", "flagged", "red", "blue",
                            "p_need", "p_bare", "p_empty", "dead", "supply", "ends_supply", "model",
                            "weight", "power", "per", "bonus", NULL};
    PyObject *ends_a, *ends_b, *crossings, *adj_lane, *adj_other, *flagged, *red, *blue, *p_need, *p_bare;
    PyObject *supply;
    double empty0, empty1, b0, b1, b2;
    const char *model;
    Search_clear(self);
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOOOOOOO(dd)dOdsddd(ddd)", names, &ends_a, &ends_b,
                                     &crossings, &adj_lane, &adj_other, &flagged, &red, &blue, &p_need,
                                     &p_bare, &empty0, &empty1, &self->dead, &supply, &self->ends_supply,
                                     &model, &self->weight, &self->power, &self->per, &b0, &b1, &b2)) {
        return -1;
    }
    Py_ssize_t n = PySequence_Size(adj_lane);
    if (n < 0) {
        return -1;
    }
    if (n < 1 || n > MAX_ISLANDS) {
        PyErr_Format(PyExc_ValueError, "adj_lane: between 1 and %d islands expected", MAX_ISLANDS);
        return -1;
    }
    self->n = (int)n;
    int lanes_b;
    if (!(self->ends_a = read_ints(ends_a, "ends_a", 0, self->n, &self->lanes, -1, MAX_LANES))
        || !(self->ends_b = read_ints(ends_b, "ends_b", 0, self->n, &lanes_b, self->lanes, MAX_LANES))
        || read_nested(crossings, "crossings", self->lanes, self->lanes, MAX_LANES, &self->cross_start,
                       &self->cross)
        || read_nested(adj_lane, "adj_lane", self->n, self->lanes, MAX_LANES, &self->adj_start,
                       &self->adj_lane)) {
        return -1;
    }
    int *other_start = NULL;
    int failed = read_nested(adj_other, "adj_other", self->n, self->n, MAX_LANES, &other_start,
                             &self->adj_other);
    if (!failed && memcmp(other_start, self->adj_start, sizeof(int) * (size_t)(self->n + 1)) != 0) {
        PyErr_SetString(PyExc_ValueError, "adj_other: not shaped as adj_lane");
        failed = 1;
    }
    PyMem_Free(other_start);
    if (failed) {
        return -1;
    }
    int n_flagged;
    int *flags = read_ints(flagged, "flagged", 0, 2, &n_flagged, self->n, MAX_LANES);
    if (!flags) {
        return -1;
    }
    self->empty = PyMem_Malloc(sizeof(double) * (size_t)self->n);
    if (!self->empty) {
        PyMem_Free(flags);
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < self->n; i++) {
        self->empty[i] = flags[i] ? empty1 : empty0;
    }
    PyMem_Free(flags);
    if (!(self->red = read_ints(red, "red", 0, self->n, &self->n_red, -1, MAX_LANES))
        || !(self->blue = read_ints(blue, "blue", 0, self->n, &self->n_blue, -1, MAX_LANES))
        || read_doubles(p_need, "p_need", self->p_need, NUMERALS)
        || read_doubles(p_bare, "p_bare", self->p_bare, NUMERALS)
        || read_doubles(supply, "supply", self->supply, NUMERALS)) {
        return -1;
    }
    self->strict = strcmp(model, "progress") == 0;
    self->soft = strcmp(model, "soft") == 0;
    self->red_value = b0;
    self->blue_value = b1;
    self->six = b2;
    self->kind = PyMem_Calloc((size_t)self->n, sizeof(int));
    self->chance = PyMem_Calloc((size_t)self->n, sizeof(double));
    self->expected = PyMem_Calloc((size_t)self->n, sizeof(double));
    self->parent = PyMem_Calloc((size_t)self->n, sizeof(int));
    self->sizes = PyMem_Calloc((size_t)self->n, sizeof(int));
    if (!self->kind || !self->chance || !self->expected || !self->parent || !self->sizes) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* Fill a position from the Python lists (num, br, cnt, and when given blocks and bridged); 0 or -1. */
static int read_position(SearchObject *s, Position *p, PyObject *num, PyObject *br, PyObject *cnt,
                         PyObject *blocks, PyObject *bridged)
{
    int length;
    memset(p, 0, sizeof(*p));
    p->bridged = PyMem_Malloc(sizeof(int) * (size_t)s->lanes + sizeof(int));
    if (!p->bridged) {
        PyErr_NoMemory();
        return -1;
    }
    if (!(p->num = read_ints(num, "num", 0, NUMERALS, &length, s->n, MAX_LANES))
        || !(p->br = read_ints(br, "br", 0, 3, &length, s->lanes, MAX_LANES))
        || !(p->cnt = read_ints(cnt, "cnt", 0, NUMERALS, &length, s->n, MAX_LANES))) {
        return -1;
    }
    if (blocks) {
        int *given;
        if (!(p->blocks = read_ints(blocks, "blocks", 0, MAX_LANES, &length, s->lanes, MAX_LANES))
            || !(given = read_ints(bridged, "bridged", 0, s->lanes, &p->n_bridged, -1, MAX_LANES))) {
            return -1;
        }
        if (p->n_bridged > s->lanes) {
            PyMem_Free(given);
            PyErr_SetString(PyExc_ValueError, "bridged: more lanes than the side has");
            return -1;
        }
        memcpy(p->bridged, given, sizeof(int) * (size_t)p->n_bridged);
        PyMem_Free(given);
        return 0;
    }
    p->blocks = PyMem_Calloc((size_t)s->lanes + 1, sizeof(int));
    if (!p->blocks) {
        PyErr_NoMemory();
        return -1;
    }
    for (int k = 0; k < s->lanes; k++) {
        if (p->br[k]) {
            p->bridged[p->n_bridged++] = k;
            for (int e = s->cross_start[k]; e < s->cross_start[k + 1]; e++) {
                p->blocks[s->cross[e]] += 1;
            }
        }
    }
    return 0;
}

static void free_position(Position *p)
{
    PyMem_Free(p->num);
    PyMem_Free(p->br);
    PyMem_Free(p->cnt);
    PyMem_Free(p->blocks);
    PyMem_Free(p->bridged);
}

static int check_ready(SearchObject *self)
{
    if (!self->kind) {
        PyErr_SetString(PyExc_TypeError, "the Search was not set up");
        return -1;
    }
    return 0;
}

static PyObject *overflowed(void)
{
    PyErr_SetString(PyExc_ValueError, "a position with more bridges at an island than its lanes can hold");
    return NULL;
}

static PyObject *Search_value(SearchObject *self, PyObject *args)
{
    PyObject *num, *br, *cnt, *blocks, *bridged;
    Position p;
    if (check_ready(self) || !PyArg_ParseTuple(args, "OOOOO", &num, &br, &cnt, &blocks, &bridged)) {
        return NULL;
    }
    if (read_position(self, &p, num, br, cnt, blocks, bridged)) {
        free_position(&p);
        return NULL;
    }
    self->overflow = 0;
    double v = value(self, &p);
    free_position(&p);
    if (self->overflow) {
        return overflowed();
    }
    return PyFloat_FromDouble(v);
}

static PyObject *Search_best(SearchObject *self, PyObject *args)
{
    PyObject *num, *br, *cnt, *choices_obj;
    int numeral, bridges, numerals, width, partial;
    Position p;
    if (check_ready(self) || !PyArg_ParseTuple(args, "OOOiiOiip", &num, &br, &cnt, &numeral, &bridges,
                                               &choices_obj, &numerals, &width, &partial)) {
        return NULL;
    }
    if (numeral < 0 || numeral >= NUMERALS || bridges < 0 || bridges > MAX_BRIDGES || width < 0
        || width > MAX_WIDTH || numerals < 0) {
        PyErr_SetString(PyExc_ValueError, "best: numeral, bridges, numerals or width out of range");
        return NULL;
    }
    int n_choices;
    int *choices = read_ints(choices_obj, "choices", 0, self->n, &n_choices, -1, MAX_LANES);
    if (!choices) {
        return NULL;
    }
    PyObject *result = NULL;
    int slots = (bridges > 0 ? bridges : 1) * (width > 0 ? width : 1);
    Ranked *ranked = PyMem_Malloc(sizeof(Ranked) * (size_t)n_choices + sizeof(Ranked));
    double *done_values = PyMem_Malloc(sizeof(double) * (size_t)slots);
    int *done_keys = PyMem_Malloc(sizeof(int) * (size_t)slots * (size_t)(bridges + 1));
    int *done_lengths = PyMem_Malloc(sizeof(int) * (size_t)slots);
    int *best_lanes = PyMem_Malloc(sizeof(int) * (size_t)(bridges + 1));
    if (read_position(self, &p, num, br, cnt, NULL, NULL)) {
        goto out;
    }
    self->overflow = 0;
    if (!ranked || !done_values || !done_keys || !done_lengths || !best_lanes) {
        PyErr_NoMemory();
        goto out;
    }
    for (int j = 0; j < n_choices; j++) {
        int i = choices[j];
        p.num[i] = numeral;
        ranked[j].neg_value = -value(self, &p);
        ranked[j].island = i;
        p.num[i] = 0;
    }
    qsort(ranked, (size_t)n_choices, sizeof(Ranked), compare_ranked);
    int n_options = 1 + (numerals < n_choices ? numerals : n_choices);
    double best_value = 0.0;
    int have_best = 0;
    int best_island = NO_ISLAND;
    int best_length = 0;
    for (int option = 0; option < n_options; option++) {
        int choice = option ? ranked[option - 1].island : NO_ISLAND;
        double skip_value = option ? -ranked[option - 1].neg_value : value(self, &p);
        if (choice != NO_ISLAND) {
            p.num[choice] = numeral;
        }
        if (!have_best || skip_value > best_value + 1e-9) {
            best_value = skip_value;
            best_island = choice;
            best_length = 0;
            have_best = 1;
        }
        int done = beam(self, &p, bridges, width, partial, done_values, done_keys, done_lengths);
        if (done < 0) {
            PyErr_NoMemory();
            goto out;
        }
        for (int d = 0; d < done; d++) {
            if (done_values[d] > best_value + 1e-9) {
                best_value = done_values[d];
                best_island = choice;
                best_length = done_lengths[d];
                memcpy(best_lanes, done_keys + (size_t)d * bridges, sizeof(int) * (size_t)best_length);
            }
        }
        if (choice != NO_ISLAND) {
            p.num[choice] = 0;
        }
    }
    if (self->overflow) {
        overflowed();
        goto out;
    }
    PyObject *lanes = int_tuple(best_lanes, best_length);
    if (lanes) {
        result = Py_BuildValue("(iN)", best_island, lanes);
    }
out:
    free_position(&p);
    PyMem_Free(choices);
    PyMem_Free(ranked);
    PyMem_Free(done_values);
    PyMem_Free(done_keys);
    PyMem_Free(done_lengths);
    PyMem_Free(best_lanes);
    return result;
}

static PyMethodDef Search_methods[] = {
    {"value", (PyCFunction)Search_value, METH_VARARGS,
     "Value of a position (num, br, cnt, blocks, bridged), as botsearch.Search.value."},
    {"best", (PyCFunction)Search_best, METH_VARARGS,
     "The best move (island or -1, lanes), as botsearch.Search.best."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "hashi_print.game._botsearch_native.Search",
    .tp_doc = "One move's search on C arrays: the same moves as hashi_print.game.botsearch.Search.",
    .tp_basicsize = sizeof(SearchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "hashi_print.game._botsearch_native",
    .m_doc = "The bots' search kernel in C (see hashi_print/game/botsearch.py, which it mirrors).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__botsearch_native(void)
{
    if (PyType_Ready(&SearchType) < 0) {
        return NULL;
    }
    PyObject *m = mirror_module(&module);
    if (!m) {
        return NULL;
    }
    if (PyModule_AddObjectRef(m, "Search", (PyObject *)&SearchType) < 0
        || PyModule_AddIntConstant(m, "NO_ISLAND", NO_ISLAND) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
