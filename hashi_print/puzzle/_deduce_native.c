/* The deducer's quiet run in C: the same as hashi_print/puzzle/deduce_engine.py with
 * hashi_print/puzzle/deduce_techniques.py when nothing is explained.
 *
 * Those two files are the reference; this one applies the same techniques to the same islands in the
 * same order, so every run ends with the same lane bounds, hardest rung, contradiction and set of
 * techniques (tests/puzzle/test_deduce_native.py compares the two on every puzzle it is given). Only
 * the quiet run is here (grade, grade_within, the generator's grading, a hint's first pass): runs that
 * explain their steps stay in Python. setup.py compiles in the SHA-256 of the two Python files as
 * SOURCE_SHA256, and deduce.py uses this module only beside those very files.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "_native_ints.h"

/* Caps far above any puzzle the package reads (60 x 60 grids), so that arrays stay small. */
#define MAX_ISLANDS 100000
#define MAX_LANES 400000
#define MAX_CLUE 1000

/* The rungs (deduce_engine.EASY ... EXPERT), the contradictions (deduce_engine.TOO_MANY ...), and the
 * techniques in the order of deduce_engine.TECHNIQUES, each with its rung. */
enum { EASY, MEDIUM, HARD, EXPERT };
enum { NONE = -1, TOO_MANY, TOO_FEW, SPLIT, OVERFULL };
enum { COMPLETE, CROSSING, FILL, SPREAD, CAPACITY, NEEDS, PAIR, ISOLATION, IMPOSSIBLE, ONLY_WAY_OUT,
       CONTRADICTION, TECHNIQUE_COUNT };
static const int RUNG[TECHNIQUE_COUNT] = {EASY, EASY, EASY, EASY, EASY, MEDIUM, MEDIUM, HARD, HARD, EXPERT,
                                          EXPERT};

/* What never changes during a run (deduce_engine.Board). */
typedef struct {
    int n, m;
    int *clue, *ea, *eb, *xr;
    int *adj_start, *adj;     /* lanes_of[i]: adj[adj_start[i] .. adj_start[i + 1]) */
    int *cross_start, *cross; /* crossings[k] */
    int *near_start, *near;   /* near[i] */
    int max_deg, max_cross;
} Board;

/* Scratch shared by a run and its contradiction trials (a trial runs while its parent waits). */
typedef struct {
    int *chg[2];   /* a step's changes (lane, at least, at most), by depth: a step, its crossing step */
    int *built[2]; /* the lanes a step's changes gave their first bridge, by depth */
    int *forced, *capped;
    int *closed, *loss_key, *loss_val;
    int *seen, stamp, *todo;
    int *disc, *low, *cuts, *st_v, *st_pl, *st_pos;
} Scratch;

/* Mutable lane bounds with work queues per rung (deduce_engine.Engine). */
typedef struct Engine {
    const Board *b;
    Scratch *s;
    int level, sweep, chains, global_check;
    int *lo, *hi, *los, *reach;
    char *stale;
    int *q[3], head[3], len[3];
    char *u[3];
    int used, broken, swept, checked, chain_pos;
    int techniques; /* a bit per technique of a step taken (deduce_engine.Engine.techniques) */
    struct Engine *child; /* the engine of the contradiction trials (a top run's only) */
} Engine;

static void run(Engine *e);

static void fail(Engine *e, int reason)
{
    if (e->broken == NONE) {
        e->broken = reason;
    }
}

static void push(Engine *e, int q, int i)
{
    if (!e->u[q][i]) {
        e->u[q][i] = 1;
        int n = e->b->n;
        e->q[q][(e->head[q] + e->len[q]) % n] = i;
        e->len[q]++;
    }
}

static int pop(Engine *e, int q)
{
    int i = e->q[q][e->head[q]];
    e->head[q] = (e->head[q] + 1) % e->b->n;
    e->len[q]--;
    e->u[q][i] = 0;
    return i;
}

/* Engine._apply: tighten the bounds; the count of lanes given their first bridge, or -1. */
static int apply(Engine *e, const int *chg, int count, int *built)
{
    const Board *b = e->b;
    int *lo = e->lo, *hi = e->hi, *los = e->los;
    int nb = 0;
    for (int t = 0; t < count; t++) {
        int k = chg[3 * t], nlo = chg[3 * t + 1], nhi = chg[3 * t + 2];
        if (nlo > lo[k]) {
            if (lo[k] == 0) {
                built[nb++] = k;
            }
            int d = nlo - lo[k];
            los[b->ea[k]] += d;
            los[b->eb[k]] += d;
            lo[k] = nlo;
        }
        if (nhi < hi[k]) {
            if (nhi == 0) {
                e->checked = 0;
            }
            hi[k] = nhi;
        }
        if (lo[k] > hi[k]) {
            fail(e, OVERFULL);
            return -1;
        }
        int ends[2] = {b->ea[k], b->eb[k]};
        for (int x = 0; x < 2; x++) {
            int i = ends[x];
            push(e, 0, i);
            push(e, 1, i);
            for (int p = b->near_start[i]; p < b->near_start[i + 1]; p++) {
                int j = b->near[p];
                push(e, 2, j);
                e->stale[j] = 1;
            }
        }
    }
    return nb;
}

/* Engine.step without the record: apply the changes, then close the lanes crossed by new bridges. */
static void step(Engine *e, int technique, const int *chg, int count, int depth)
{
    int level = RUNG[technique];
    if (level > e->used) {
        e->used = level;
    }
    e->techniques |= 1 << technique;
    int *built = e->s->built[depth];
    int nb = apply(e, chg, count, built);
    if (nb < 0) {
        return;
    }
    if (level == HARD) {
        e->swept = 0;
    }
    /* A crossing step's changes never raise a lane's least bridges, so it builds nothing (nb is 0 at
     * depth 1) and the recursion of Engine.step stops there. */
    const Board *b = e->b;
    int *closing = e->s->chg[1];
    for (int x = 0; x < nb && depth == 0; x++) {
        int k = built[x], c = 0;
        for (int p = b->cross_start[k]; p < b->cross_start[k + 1]; p++) {
            int l = b->cross[p];
            if (e->hi[l] > 0) {
                closing[3 * c] = l;
                closing[3 * c + 1] = e->lo[l];
                closing[3 * c + 2] = 0;
                c++;
            }
        }
        if (c) {
            step(e, CROSSING, closing, c, 1);
        }
    }
}

/* One change (lane, at least, at most) as a step of `technique`. */
static void step1(Engine *e, int technique, int k, int nlo, int nhi)
{
    int *chg = e->s->chg[0];
    chg[0] = k;
    chg[1] = nlo;
    chg[2] = nhi;
    step(e, technique, chg, 1, 0);
}

/* deduce_techniques._pair */
static void pair_rule(Engine *e, int i)
{
    const Board *b = e->b;
    int *lo = e->lo, *hi = e->hi;
    int c = b->clue[i], los = e->los[i];
    if (c > 2 || b->n <= 2) {
        return;
    }
    for (int p = b->adj_start[i]; p < b->adj_start[i + 1]; p++) {
        int k = b->adj[p], j = b->xr[k] ^ i;
        if (hi[k] >= c && b->clue[j] == c && los == lo[k] && e->los[j] == lo[k]) {
            step1(e, PAIR, k, lo[k], c - 1);
            return;
        }
    }
}

/* deduce_techniques.local */
static void local(Engine *e, int i, int level)
{
    const Board *b = e->b;
    int *lo = e->lo, *hi = e->hi;
    int c = b->clue[i], los = e->los[i];
    int first = b->adj_start[i], last = b->adj_start[i + 1];
    int *chg = e->s->chg[0];
    int count = 0;
    if (los > c) {
        fail(e, TOO_MANY);
        return;
    }
    if (los == c) {
        for (int p = first; p < last; p++) {
            int k = b->adj[p];
            if (hi[k] > lo[k]) {
                chg[3 * count] = k;
                chg[3 * count + 1] = lo[k];
                chg[3 * count + 2] = lo[k];
                count++;
            }
        }
        if (count) {
            step(e, COMPLETE, chg, count, 0);
        }
        return;
    }
    int his = 0;
    for (int p = first; p < last; p++) {
        his += hi[b->adj[p]];
    }
    if (his < c) {
        fail(e, TOO_FEW);
        return;
    }
    if (his == c) {
        for (int p = first; p < last; p++) {
            int k = b->adj[p];
            if (lo[k] < hi[k]) {
                chg[3 * count] = k;
                chg[3 * count + 1] = hi[k];
                chg[3 * count + 2] = hi[k];
                count++;
            }
        }
        step(e, FILL, chg, count, 0);
        return;
    }
    int *forced = e->s->forced, nf = 0, spread = 1;
    for (int p = first; p < last; p++) {
        int k = b->adj[p], h = hi[k];
        if (h) {
            int need = c - his + h;
            if (need > lo[k]) {
                forced[3 * nf] = k;
                forced[3 * nf + 1] = need;
                forced[3 * nf + 2] = h;
                nf++;
            }
            if (need < 1) {
                spread = 0;
            }
        }
    }
    if (nf && spread) {
        step(e, SPREAD, forced, nf, 0);
        return;
    }
    int room = c - los, *capped = e->s->capped, nc = 0;
    for (int p = first; p < last; p++) {
        int k = b->adj[p];
        if (hi[k] > lo[k] + room) {
            capped[3 * nc] = k;
            capped[3 * nc + 1] = lo[k];
            capped[3 * nc + 2] = lo[k] + room;
            nc++;
        }
    }
    if (nc) {
        step(e, CAPACITY, capped, nc, 0);
    } else if (level >= MEDIUM) {
        if (nf) {
            step(e, NEEDS, forced, nf, 0);
        } else {
            pair_rule(e, i);
        }
    }
}

/* deduce_techniques.reach, with its cache */
static int reach(Engine *e, int j)
{
    if (e->stale[j]) {
        const Board *b = e->b;
        int total = 0;
        for (int p = b->adj_start[j]; p < b->adj_start[j + 1]; p++) {
            int m = b->adj[p], h = e->hi[m];
            if (h) {
                int o = b->xr[m] ^ j;
                int cap = b->clue[o] - e->los[o] + e->lo[m];
                total += h < cap ? h : cap;
            }
        }
        e->reach[j] = total;
        e->stale[j] = 0;
    }
    return e->reach[j];
}

/* Add `amount` to island j's loss in the insertion-ordered map of deduce_techniques._reach_losses. */
static int add_loss(Scratch *s, int size, int j, int amount)
{
    for (int x = 0; x < size; x++) {
        if (s->loss_key[x] == j) {
            s->loss_val[x] += amount;
            return size;
        }
    }
    s->loss_key[size] = j;
    s->loss_val[size] = amount;
    return size + 1;
}

/* deduce_techniques._short_island: whether an island could no longer get all its bridges. */
static int short_island(Engine *e, int k, int d, int la, int lb)
{
    const Board *b = e->b;
    Scratch *s = e->s;
    int *lo = e->lo, *hi = e->hi;
    int a = b->ea[k], bb = b->eb[k];
    int nclosed = 0;
    if (lo[k] == 0) {
        for (int p = b->cross_start[k]; p < b->cross_start[k + 1]; p++) {
            if (hi[b->cross[p]] > 0) {
                s->closed[nclosed++] = b->cross[p];
            }
        }
    }
    /* _reach_losses */
    int size = 0;
    for (int x = 0; x < nclosed; x++) {
        int c = s->closed[x];
        size = add_loss(s, size, b->ea[c], hi[c]);
        size = add_loss(s, size, b->eb[c], hi[c]);
    }
    int ends[2] = {a, bb};
    for (int x = 0; x < 2; x++) {
        int end = ends[x];
        for (int p = b->adj_start[end]; p < b->adj_start[end + 1]; p++) {
            int m = b->adj[p];
            if (m != k && hi[m]) {
                size = add_loss(s, size, b->xr[m] ^ end, d);
            }
        }
    }
    for (int x = 0; x < size; x++) {
        int j = s->loss_key[x], most = s->loss_val[x];
        if (j == a || j == bb || reach(e, j) - most >= b->clue[j]) {
            continue;
        }
        int total = 0;
        for (int p = b->adj_start[j]; p < b->adj_start[j + 1]; p++) {
            int m = b->adj[p], h = hi[m];
            if (h == 0) {
                continue;
            }
            int in_closed = 0;
            for (int y = 0; y < nclosed; y++) {
                if (s->closed[y] == m) {
                    in_closed = 1;
                    break;
                }
            }
            if (in_closed) {
                continue;
            }
            int o = b->xr[m] ^ j;
            int cap = b->clue[o] - (o == a ? la : o == bb ? lb : e->los[o]) + lo[m];
            total += h < cap ? h : cap;
        }
        if (total < b->clue[j]) {
            return 1;
        }
    }
    return 0;
}

/* deduce_techniques.closed_group: whether lane k would close a complete group off the rest. */
static int closed_group(Engine *e, int k, int a, int bb)
{
    const Board *b = e->b;
    Scratch *s = e->s;
    if (s->stamp == INT_MAX) {
        memset(s->seen, 0, sizeof(int) * (size_t)b->n);
        s->stamp = 0;
    }
    int stamp = ++s->stamp;
    int count = 2, top = 0;
    s->seen[a] = stamp;
    s->seen[bb] = stamp;
    s->todo[top++] = a;
    s->todo[top++] = bb;
    while (top) {
        int i = s->todo[--top];
        if (i != a && i != bb && e->los[i] != b->clue[i]) {
            return 0;
        }
        for (int p = b->adj_start[i]; p < b->adj_start[i + 1]; p++) {
            int m = b->adj[p];
            if (e->lo[m] || m == k) {
                int j = b->xr[m] ^ i;
                if (s->seen[j] != stamp) {
                    s->seen[j] = stamp;
                    s->todo[top++] = j;
                    count++;
                }
            }
        }
    }
    return count < b->n;
}

/* deduce_techniques.trial: the technique that shows lane k cannot carry v bridges, looking one step
 * ahead, or NONE. */
static int trial(Engine *e, int k, int v)
{
    const Board *b = e->b;
    int a = b->ea[k], bb = b->eb[k];
    int d = v - e->lo[k];
    int la = e->los[a] + d, lb = e->los[bb] + d;
    if (la > b->clue[a] || lb > b->clue[bb]) {
        return IMPOSSIBLE;
    }
    if (la == b->clue[a] && lb == b->clue[bb] && b->n > 2 && closed_group(e, k, a, bb)) {
        return ISOLATION;
    }
    return short_island(e, k, d, la, lb) ? IMPOSSIBLE : NONE;
}

/* deduce_techniques.hard */
static void hard(Engine *e, int i)
{
    const Board *b = e->b;
    int *lo = e->lo, *hi = e->hi;
    for (int p = b->adj_start[i]; p < b->adj_start[i + 1]; p++) {
        int k = b->adj[p];
        if (lo[k] < hi[k]) {
            int values[2], nv = 0;
            if (hi[k] > lo[k] + 1) {
                values[nv++] = lo[k] + 1;
            }
            values[nv++] = hi[k];
            for (int x = 0; x < nv; x++) {
                int why = trial(e, k, values[x]);
                if (why != NONE) {
                    step1(e, why, k, lo[k], values[x] - 1);
                    return;
                }
            }
        }
    }
}

/* deduce_techniques._bridge_lanes: the open lanes whose loss would split the islands, in the order of
 * the same depth-first search; -1 when the islands are already split. */
static int bridge_lanes(Engine *e)
{
    const Board *b = e->b;
    Scratch *s = e->s;
    int *disc = s->disc, *low = s->low;
    int n = b->n;
    for (int i = 0; i < n; i++) {
        disc[i] = -1;
        low[i] = 0;
    }
    disc[0] = 0;
    int t = 1, ncuts = 0, sp = 0;
    int v = 0, pl = -1, pos = b->adj_start[0], lv = 0;
    for (;;) {
        int went = 0;
        while (pos < b->adj_start[v + 1]) {
            int m = b->adj[pos++];
            if (!e->hi[m] || m == pl) {
                continue;
            }
            int w = b->xr[m] ^ v, seen = disc[w];
            if (seen < 0) {
                low[v] = lv;
                s->st_v[sp] = v;
                s->st_pl[sp] = pl;
                s->st_pos[sp] = pos;
                sp++;
                disc[w] = lv = t++;
                v = w;
                pl = m;
                pos = b->adj_start[w];
                went = 1;
                break;
            }
            if (seen < lv) {
                lv = seen;
            }
        }
        if (went) {
            continue;
        }
        if (!sp) {
            break;
        }
        int lane = pl;
        sp--;
        v = s->st_v[sp];
        pl = s->st_pl[sp];
        pos = s->st_pos[sp];
        int reached = lv;
        lv = low[v];
        if (reached < lv) {
            lv = reached;
        }
        if (reached > disc[v] && e->lo[lane] == 0) {
            s->cuts[ncuts++] = lane;
        }
    }
    return t < n ? -1 : ncuts;
}

/* deduce_techniques.cut_lanes */
static void cut_lanes(Engine *e)
{
    int ncuts = bridge_lanes(e);
    if (ncuts < 0) {
        fail(e, SPLIT);
        return;
    }
    for (int x = 0; x < ncuts; x++) {
        if (e->broken != NONE) {
            return;
        }
        int m = e->s->cuts[x];
        if (e->lo[m] == 0) {
            step1(e, ONLY_WAY_OUT, m, 1, e->hi[m]);
        }
    }
}

/* deduce_techniques._refuted: propagate an assumption in the child engine with the lower rungs. */
static int refuted(Engine *e, Engine *child, int k, int nlo, int nhi)
{
    const Board *b = e->b;
    int n = b->n, m = b->m;
    memcpy(child->lo, e->lo, sizeof(int) * (size_t)m);
    memcpy(child->hi, e->hi, sizeof(int) * (size_t)m);
    memcpy(child->los, e->los, sizeof(int) * (size_t)n);
    memset(child->reach, 0, sizeof(int) * (size_t)n);
    memset(child->stale, 1, (size_t)n);
    for (int q = 0; q < 3; q++) {
        memset(child->u[q], 0, (size_t)n);
        child->head[q] = child->len[q] = 0;
    }
    child->level = MEDIUM;
    child->sweep = child->chains = 0;
    child->global_check = 1;
    child->used = NONE;
    child->broken = NONE;
    child->swept = 0;
    child->checked = 1;
    child->chain_pos = 0;
    child->techniques = 0;
    step1(child, CONTRADICTION, k, nlo, nhi);
    run(child);
    return child->broken != NONE;
}

/* deduce_techniques.chain, with chain_trials: the first assumption that fails gives a step. */
static int chain(Engine *e)
{
    int m = e->b->m;
    for (int t = 0; t < m; t++) {
        int k = (e->chain_pos + t) % m;
        int lo = e->lo[k], hi = e->hi[k];
        if (lo == hi) {
            continue;
        }
        /* (assumed at least, at most, concluded at least, at most) */
        int trials[4][4] = {{lo, lo, lo + 1, hi}, {lo + 1, hi, lo, lo}, {hi, hi, lo, hi - 1},
                            {lo, hi - 1, hi, hi}};
        int count = hi - lo == 2 ? 4 : 2;
        for (int x = 0; x < count; x++) {
            if (refuted(e, e->child, k, trials[x][0], trials[x][1])) {
                e->chain_pos = k;
                step1(e, CONTRADICTION, k, trials[x][2], trials[x][3]);
                return 1;
            }
        }
    }
    return 0;
}

static int done(const Engine *e)
{
    for (int k = 0; k < e->b->m; k++) {
        if (e->lo[k] != e->hi[k]) {
            return 0;
        }
    }
    return 1;
}

/* deduce_techniques.run */
static void run(Engine *e)
{
    int medium = e->level >= MEDIUM, hard_ = e->level >= HARD;
    while (e->broken == NONE) {
        if (e->len[0]) {
            local(e, pop(e, 0), EASY);
        } else if (medium && e->len[1]) {
            local(e, pop(e, 1), MEDIUM);
        } else if (hard_ && e->len[2]) {
            hard(e, pop(e, 2));
        } else if (hard_ && e->sweep && !e->swept) {
            e->swept = 1;
            for (int i = 0; i < e->b->n; i++) {
                push(e, 2, i);
            }
        } else if (e->global_check && !e->checked) {
            e->checked = 1;
            cut_lanes(e);
        } else if (!(e->level >= EXPERT && e->chains && !done(e) && chain(e))) {
            return;
        }
    }
}

/* Engine arrays: bounds, caches and queues for n islands and m lanes (0, or -1 out of memory). */
static int engine_alloc(Engine *e, int n, int m)
{
    size_t nn = (size_t)n + 1, mm = (size_t)m + 1;
    e->lo = PyMem_Malloc(sizeof(int) * mm);
    e->hi = PyMem_Malloc(sizeof(int) * mm);
    e->los = PyMem_Malloc(sizeof(int) * nn);
    e->reach = PyMem_Calloc(nn, sizeof(int));
    e->stale = PyMem_Malloc(nn);
    int ok = e->lo && e->hi && e->los && e->reach && e->stale;
    for (int q = 0; q < 3; q++) {
        e->q[q] = PyMem_Malloc(sizeof(int) * nn);
        e->u[q] = PyMem_Calloc(nn, 1);
        ok = ok && e->q[q] && e->u[q];
    }
    return ok ? 0 : -1;
}

static void engine_free(Engine *e)
{
    PyMem_Free(e->lo);
    PyMem_Free(e->hi);
    PyMem_Free(e->los);
    PyMem_Free(e->reach);
    PyMem_Free(e->stale);
    for (int q = 0; q < 3; q++) {
        PyMem_Free(e->q[q]);
        PyMem_Free(e->u[q]);
    }
}

static int scratch_alloc(Scratch *s, const Board *b)
{
    size_t nn = (size_t)b->n + 1, mm = (size_t)b->m + 1;
    size_t deg = (size_t)b->max_deg + 1, cross = (size_t)b->max_cross + 1;
    size_t losses = 2 * cross + 2 * deg;
    s->chg[0] = PyMem_Malloc(sizeof(int) * 3 * deg);
    s->chg[1] = PyMem_Malloc(sizeof(int) * 3 * cross);
    s->built[0] = PyMem_Malloc(sizeof(int) * deg);
    s->built[1] = PyMem_Malloc(sizeof(int) * cross);
    s->forced = PyMem_Malloc(sizeof(int) * 3 * deg);
    s->capped = PyMem_Malloc(sizeof(int) * 3 * deg);
    s->closed = PyMem_Malloc(sizeof(int) * cross);
    s->loss_key = PyMem_Malloc(sizeof(int) * losses);
    s->loss_val = PyMem_Malloc(sizeof(int) * losses);
    s->seen = PyMem_Calloc(nn, sizeof(int));
    s->todo = PyMem_Malloc(sizeof(int) * nn);
    s->disc = PyMem_Malloc(sizeof(int) * nn);
    s->low = PyMem_Malloc(sizeof(int) * nn);
    s->cuts = PyMem_Malloc(sizeof(int) * mm);
    s->st_v = PyMem_Malloc(sizeof(int) * nn);
    s->st_pl = PyMem_Malloc(sizeof(int) * nn);
    s->st_pos = PyMem_Malloc(sizeof(int) * nn);
    s->stamp = 0;
    return s->chg[0] && s->chg[1] && s->built[0] && s->built[1] && s->forced && s->capped && s->closed
           && s->loss_key && s->loss_val && s->seen && s->todo && s->disc && s->low && s->cuts && s->st_v
           && s->st_pl && s->st_pos ? 0 : -1;
}

static void scratch_free(Scratch *s)
{
    void *all[] = {s->chg[0], s->chg[1], s->built[0], s->built[1], s->forced, s->capped, s->closed,
                   s->loss_key, s->loss_val, s->seen, s->todo, s->disc, s->low, s->cuts, s->st_v,
                   s->st_pl, s->st_pos};
    for (size_t x = 0; x < sizeof(all) / sizeof(all[0]); x++) {
        PyMem_Free(all[x]);
    }
}

static void board_free(Board *b)
{
    void *all[] = {b->clue, b->ea, b->eb, b->xr, b->adj_start, b->adj, b->cross_start, b->cross,
                   b->near_start, b->near};
    for (size_t x = 0; x < sizeof(all) / sizeof(all[0]); x++) {
        PyMem_Free(all[x]);
    }
}

/* Read and check the board's lists; 0, or -1 with a ValueError naming the list. */
static int board_read(Board *b, PyObject *clues, PyObject *ea, PyObject *eb, PyObject *lanes_of,
                      PyObject *crossings, PyObject *near)
{
    int n, m, m2;
    if (!(b->clue = read_ints(clues, "clues", 0, MAX_CLUE, &n, -1, MAX_ISLANDS))) {
        return -1;
    }
    if (n < 1) {
        PyErr_SetString(PyExc_ValueError, "clues: no island");
        return -1;
    }
    b->n = n;
    if (!(b->ea = read_ints(ea, "ends_a", 0, n, &m, -1, MAX_LANES))
        || !(b->eb = read_ints(eb, "ends_b", 0, n, &m2, m, MAX_LANES))) {
        return -1;
    }
    b->m = m;
    if (read_nested(lanes_of, "lanes_of", n, m, MAX_LANES, &b->adj_start, &b->adj)
        || read_nested(crossings, "crossings", m, m, MAX_LANES, &b->cross_start, &b->cross)
        || read_nested(near, "near", n, n, MAX_ISLANDS, &b->near_start, &b->near)) {
        return -1;
    }
    b->xr = PyMem_Malloc(sizeof(int) * ((size_t)m + 1));
    if (!b->xr) {
        PyErr_NoMemory();
        return -1;
    }
    for (int k = 0; k < m; k++) {
        if (b->ea[k] == b->eb[k]) {
            PyErr_SetString(PyExc_ValueError, "ends_a: a lane needs two islands");
            return -1;
        }
        b->xr[k] = b->ea[k] ^ b->eb[k];
    }
    b->max_deg = b->max_cross = 0;
    /* A lane of island i must have i at one end (the techniques read its far end with xor). */
    for (int i = 0; i < n; i++) {
        int deg = b->adj_start[i + 1] - b->adj_start[i];
        b->max_deg = deg > b->max_deg ? deg : b->max_deg;
        for (int p = b->adj_start[i]; p < b->adj_start[i + 1]; p++) {
            if (b->ea[b->adj[p]] != i && b->eb[b->adj[p]] != i) {
                PyErr_SetString(PyExc_ValueError, "lanes_of: a lane that does not end at its island");
                return -1;
            }
        }
    }
    for (int k = 0; k < m; k++) {
        int count = b->cross_start[k + 1] - b->cross_start[k];
        b->max_cross = count > b->max_cross ? count : b->max_cross;
    }
    return 0;
}

static PyObject *deduce_run(PyObject *module, PyObject *args)
{
    PyObject *clues, *ea, *eb, *lanes_of, *crossings, *near, *lo_in, *hi_in;
    int level;
    if (!PyArg_ParseTuple(args, "OOOOOOiOO", &clues, &ea, &eb, &lanes_of, &crossings, &near, &level,
                          &lo_in, &hi_in)) {
        return NULL;
    }
    Board b;
    Scratch s;
    Engine e, child;
    memset(&b, 0, sizeof(b));
    memset(&s, 0, sizeof(s));
    memset(&e, 0, sizeof(e));
    memset(&child, 0, sizeof(child));
    int *lo = NULL, *hi = NULL, count;
    PyObject *result = NULL;
    if (level < EASY || level > EXPERT) {
        PyErr_SetString(PyExc_ValueError, "level: out of range");
        goto out;
    }
    if (board_read(&b, clues, ea, eb, lanes_of, crossings, near)) {
        goto out;
    }
    if (!(lo = read_ints(lo_in, "lo", 0, 3, &count, b.m, b.m)) || !(hi = read_ints(hi_in, "hi", 0, 3, &count,
                                                                                       b.m, b.m))) {
        goto out;
    }
    if (engine_alloc(&e, b.n, b.m) || engine_alloc(&child, b.n, b.m) || scratch_alloc(&s, &b)) {
        PyErr_NoMemory();
        goto out;
    }
    e.b = child.b = &b;
    e.s = child.s = &s;
    memcpy(e.lo, lo, sizeof(int) * (size_t)b.m);
    memcpy(e.hi, hi, sizeof(int) * (size_t)b.m);
    for (int i = 0; i < b.n; i++) {
        int total = 0;
        for (int p = b.adj_start[i]; p < b.adj_start[i + 1]; p++) {
            total += e.lo[b.adj[p]];
        }
        e.los[i] = total;
        e.stale[i] = 1;
    }
    /* A top run: every island queued for every rung, sweeps and chains on (Engine's defaults). */
    for (int q = 0; q < 3; q++) {
        for (int i = 0; i < b.n; i++) {
            e.q[q][i] = i;
            e.u[q][i] = 1;
        }
        e.head[q] = 0;
        e.len[q] = b.n;
    }
    e.level = level;
    e.sweep = e.chains = 1;
    e.global_check = level >= EXPERT;
    e.used = e.broken = NONE;
    e.child = &child;
    run(&e);
    PyObject *lo_out = int_tuple(e.lo, b.m), *hi_out = lo_out ? int_tuple(e.hi, b.m) : NULL;
    if (hi_out) {
        result = Py_BuildValue("(NNiii)", lo_out, hi_out, e.used, e.broken, e.techniques);
    } else {
        Py_XDECREF(lo_out);
    }
out:
    PyMem_Free(lo);
    PyMem_Free(hi);
    engine_free(&e);
    engine_free(&child);
    scratch_free(&s);
    board_free(&b);
    return result;
}

static PyMethodDef methods[] = {
    {"run", deduce_run, METH_VARARGS,
     "run(clues, ends_a, ends_b, lanes_of, crossings, near, level, lo, hi): the quiet run's final lane "
     "bounds (lo, hi), its hardest rung (-1 for none), its contradiction (-1 for none) and its techniques "
     "(bit j for the j-th of deduce_engine.TECHNIQUES)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "hashi_print.puzzle._deduce_native",
    .m_doc = "The deducer's quiet run in C (see hashi_print/puzzle/deduce_techniques.py).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__deduce_native(void)
{
    return mirror_module(&module);
}
