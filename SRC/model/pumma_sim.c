/*
 * pumma_sim.c -- pumma's broadcasts, reduces and shifts run on a model
 * clock instead of MPI (pumma_model.h).
 *
 * A variant's schedule is built from what its engine runs: the tree its
 * shape function gives (pumma_coll_ops_t.shape), the pieces pumma_coll_cut
 * makes of the message, and the order in which the engines of
 * pumma_bcast_tree.c and pumma_reduce_tree.c handle them -- a non-root
 * receives piece k from its parent and sends it to its children in their
 * order; an inner node of a reduce receives piece k from each child in
 * turn, adding each, then sends the sum on. The shifts' two schedules are
 * written out below beside the code they mirror. Each process then runs its
 * list of operations in order:
 *   send  starts when its process is free and its last send's gap has
 *         passed; the process is busy for the model's `busy`; the message
 *         is complete at its destination `arrive` after the start;
 *   recv  completes when its message is complete, and no sooner than the
 *         gap after the process's previous receive (a receiver takes
 *         messages one at a time); the process continues from then;
 *   add   the process is busy for the bytes times the model's add time.
 * Messages between two processes are matched in order, as MPI's
 * non-overtaking rule matches them. The prediction is when the last
 * process finishes. PLOGPC runs the same lists on shared processors
 * (sim_run_shared below).
 *
 * On a network whose messages in flight at once share the links they
 * cross (pumma_plogp_t.fair, measured), sends are not gated one after
 * another: the lists run on a fluid network instead (sim_run_fluid
 * below), a node's processes sharing its links, and a receiver takes
 * messages as they arrive.
 *
 * Where the model has one of its own for processes of one node
 * (pumma_netmodel_t.local), a message between two of them is priced by
 * it, and on a fair network crosses the node's memory, not its links.
 * The process pairs that exchange messages are kept as the lists are
 * built (a collective has some 2 np of them, not np^2).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pumma_model.h"

enum { SEND, RECV, ADD };
typedef struct op {
    int kind, peer, q;        /* q: the pair the message goes between */
    double bytes;
} op_t;

/* The pairs of processes that exchange messages (a collective's few,
 * not np^2): pair q's arrivals arr[q], in order, nsent[q] of them so far
 * (room for acap[q]), nrecv[q] received; found by (from, to) in an open
 * addressed table of hcap slots (hq: the pair + 1, 0 empty). */
typedef struct sim {
    int np;
    op_t **ops;               /* ops[p]: process p's list */
    int *nops, *cap;
    double **arr;
    int *nsent, *acap, *nrecv, *from, *to;
    int npair, cpair;
    int *hq, hcap;
    int fail;
} sim_t;

static unsigned pair_hash(const sim_t *s, int from, int to)
{
    return ((unsigned)from * 2654435761u ^ (unsigned)to * 40503u) &
           (unsigned)(s->hcap - 1);
}

/* The pair from -> to's index, made if new; -1 out of memory. */
static int pair_of(sim_t *s, int from, int to)
{
    if (2 * (s->npair + 1) > s->hcap) {          /* grow: rehash */
        const int hc = s->hcap ? 2 * s->hcap : 64;
        int *hq = calloc((size_t)hc, sizeof(int));
        if (!hq) return -1;
        free(s->hq);
        s->hq = hq;
        s->hcap = hc;
        for (int q = 0; q < s->npair; q++) {
            unsigned h = pair_hash(s, s->from[q], s->to[q]);
            while (s->hq[h]) h = (h + 1) & (unsigned)(hc - 1);
            s->hq[h] = q + 1;
        }
    }
    unsigned h = pair_hash(s, from, to);
    for (; s->hq[h]; h = (h + 1) & (unsigned)(s->hcap - 1)) {
        const int q = s->hq[h] - 1;
        if (s->from[q] == from && s->to[q] == to) return q;
    }
    if (s->npair == s->cpair) {
        const int c = s->cpair ? 2 * s->cpair : 64;
        double **arr = realloc(s->arr, sizeof(double *) * (size_t)c);
        if (arr) s->arr = arr;
        int *ints = realloc(s->nsent, sizeof(int) * 5 * (size_t)c);
        if (!arr || !ints) return -1;
        /* the five int arrays are one block: spread them to their new
         * places, the last first */
        for (int k = 4; k >= 1; k--)
            memmove(ints + k * c, ints + k * s->cpair,
                    sizeof(int) * (size_t)s->npair);
        s->nsent = ints;
        s->acap = ints + c;
        s->nrecv = ints + 2 * c;
        s->from = ints + 3 * c;
        s->to = ints + 4 * c;
        s->cpair = c;
    }
    const int q = s->npair++;
    s->arr[q] = NULL;
    s->nsent[q] = s->acap[q] = s->nrecv[q] = 0;
    s->from[q] = from;
    s->to[q] = to;
    s->hq[h] = q + 1;
    return q;
}

static void emit(sim_t *s, int p, int kind, int peer, double bytes)
{
    if (s->fail) return;
    if (s->nops[p] == s->cap[p]) {
        int c = s->cap[p] ? 2 * s->cap[p] : 16;
        op_t *o = realloc(s->ops[p], sizeof(op_t) * (size_t)c);
        if (!o) { s->fail = 1; return; }
        s->ops[p] = o;
        s->cap[p] = c;
    }
    const int q = kind == SEND   ? pair_of(s, p, peer)
                  : kind == RECV ? pair_of(s, peer, p)
                                 : -1;
    if (kind != ADD && q < 0) {
        s->fail = 1;
        return;
    }
    s->ops[p][s->nops[p]++] = (op_t){kind, peer, q, bytes};
}

static int sim_init(sim_t *s, int np)
{
    s->np = np;
    s->fail = 0;
    s->ops = calloc((size_t)np, sizeof(op_t *));
    s->nops = calloc((size_t)np * 2, sizeof(int));
    s->arr = NULL;
    s->nsent = s->acap = s->nrecv = s->from = s->to = s->hq = NULL;
    s->npair = s->cpair = s->hcap = 0;
    if (!s->ops || !s->nops) return -1;
    s->cap = s->nops + np;
    return 0;
}

static void sim_free(sim_t *s)
{
    for (int p = 0; s->ops && p < s->np; p++) free(s->ops[p]);
    for (int q = 0; s->arr && q < s->npair; q++) free(s->arr[q]);
    free(s->ops);
    free(s->nops);
    free(s->arr);
    free(s->nsent);
    free(s->hq);
}

static int push_arrival(sim_t *s, int q, double t)
{
    if (s->nsent[q] == s->acap[q]) {
        int c = s->acap[q] ? 2 * s->acap[q] : 8;
        double *a = realloc(s->arr[q], sizeof(double) * (size_t)c);
        if (!a) return -1;
        s->arr[q] = a;
        s->acap[q] = c;
    }
    s->arr[q][s->nsent[q]++] = t;
    return 0;
}

/*
 * PLOGPC: the lists run on processors the processes of a node share.
 * Nodes hold min(np, ppn) consecutive ranks and `cores` processors. A send
 * is a burst of its sender's processor (busy), then the wire, then a
 * burst of its receiver's (the receive overhead or(m), as much of it as
 * the message's pLogP time leaves: unshared and with the receiver
 * waiting, the message is complete when pLogP says); an add is a burst.
 * While r of a node's n processes are in bursts and the others wait
 * (polling, each taking theta of a processor), every burst there runs at
 * min(1, cores / (r + theta (n - r))) of a processor's speed. On a node
 * of more processes than processors a receive's burst is `wake` longer:
 * its process must be switched back in. Event driven: the clock moves to
 * the first burst to end or wait to pass.
 */
enum { READY, BURST, WAIT, BLOCKED, DONE };

/* The model of a message between processes a and b. */
static const pumma_netmodel_t *link_of(const pumma_netmodel_t *nm, int a,
                                       int b)
{
    return nm->local && nm->per > 1 && a / nm->per == b / nm->per ? nm->local
                                                                   : nm;
}

int pumma_sim_always_shared = 0;

static double recv_cpu(const pumma_netmodel_t *nm, double m,
                       const pumma_nm_cost_t *c)
{
    const double o = pumma_plogp_at(&nm->s, nm->s.orv, m),
                 room = c->arrive - c->busy;
    return o < room ? o : room > 0 ? room : 0;
}

static double sim_run_shared(sim_t *s, const pumma_netmodel_t *nm, int kind)
{
    const int np = s->np;
    const int per = nm->s.ppn >= 1 && nm->s.ppn < np ? (int)nm->s.ppn : np;
    const int nn = (np + per - 1) / per;
    int *st = calloc((size_t)(2 * np + 2 * nn), sizeof(int));
    double *d = calloc((size_t)(5 * np + nn), sizeof(double));
    double end = -1;
    if (!st || !d) goto out;
    int *pc = st + np, *nb = pc + np, *crowded = nb + nn;
    for (int n = 0; n < nn; n++)
        crowded[n] = nm->s.cores > 0 &&
                     (n < nn - 1 ? per : np - n * per) > nm->s.cores;
    double *rem = d, *wake = d + np, *sgate = d + 2 * np, *rlast = d + 3 * np,
           *wire = d + 4 * np, *rate = d + 5 * np;
    for (int p = 0; p < np; p++) rlast[p] = -INFINITY;
    double T = 0;
    end = 0;
    for (;;) {
        /* everything that can start at T */
        for (int moved = 1; moved;) {
            moved = 0;
            for (int p = 0; p < np; p++) {
                if (st[p] == BLOCKED) st[p] = READY;
                while (st[p] == READY) {
                    if (pc[p] == s->nops[p]) {
                        st[p] = DONE;
                        if (T > end) end = T;
                        break;
                    }
                    const op_t *o = &s->ops[p][pc[p]];
                    pumma_nm_cost_t c;
                    if (o->kind == ADD) {
                        rem[p] = o->bytes * nm->add;
                    } else if (o->kind == SEND) {
                        const pumma_netmodel_t *ln = link_of(nm, p, o->peer);
                        pumma_nm_msg(ln, kind, o->bytes, &c);
                        if (sgate[p] > T) {
                            st[p] = WAIT, wake[p] = sgate[p];
                            break;
                        }
                        sgate[p] = T + c.gap;
                        rem[p] = c.busy;
                        wire[p] = c.arrive - c.busy - recv_cpu(ln, o->bytes, &c);
                    } else {
                        const int q = o->q;
                        if (s->nrecv[q] == s->nsent[q]) {
                            st[p] = BLOCKED;
                            break;
                        }
                        const pumma_netmodel_t *ln = link_of(nm, o->peer, p);
                        pumma_nm_msg(ln, kind, o->bytes, &c);
                        double at = s->arr[q][s->nrecv[q]];
                        if (at < rlast[p] + c.gap) at = rlast[p] + c.gap;
                        if (at > T) {
                            st[p] = WAIT, wake[p] = at;
                            break;
                        }
                        s->nrecv[q]++;
                        rlast[p] = at;
                        rem[p] = recv_cpu(ln, o->bytes, &c) +
                                 (crowded[p / per] ? nm->s.wake : 0);
                    }
                    st[p] = BURST;
                    moved = 1;
                    if (rem[p] > 0) break;
                    /* an empty burst ends at once */
                    if (o->kind == SEND &&
                        push_arrival(s, o->q, T + wire[p])) {
                        end = -1;
                        goto out;
                    }
                    pc[p]++;
                    st[p] = READY;
                }
            }
        }
        /* each node's speed, then the next event */
        for (int n = 0; n < nn; n++) nb[n] = 0;
        for (int p = 0; p < np; p++) nb[p / per] += st[p] == BURST;
        for (int n = 0; n < nn; n++) {
            const int size = n < nn - 1 ? per : np - n * per;
            const double load = nb[n] + nm->s.theta * (size - nb[n]);
            rate[n] = nm->s.cores > 0 && load > nm->s.cores
                          ? nm->s.cores / load : 1;
        }
        double dt = INFINITY;
        for (int p = 0; p < np; p++) {
            if (st[p] == BURST && rem[p] / rate[p / per] < dt)
                dt = rem[p] / rate[p / per];
            if (st[p] == WAIT && wake[p] - T < dt) dt = wake[p] - T;
        }
        if (dt == INFINITY) break;
        if (dt < 0) dt = 0;
        const double cut = dt * (1 + 1e-12);
        for (int p = 0; p < np; p++) {
            if (st[p] == WAIT && wake[p] - T <= cut) st[p] = READY;
            if (st[p] != BURST) continue;
            if (rem[p] / rate[p / per] > cut) {
                rem[p] -= dt * rate[p / per];
                continue;
            }
            const op_t *o = &s->ops[p][pc[p]];
            if (o->kind == SEND &&
                push_arrival(s, o->q, T + dt + wire[p])) {
                end = -1;
                goto out;
            }
            pc[p]++;
            st[p] = READY;
        }
        T += dt;
    }
    for (int p = 0; p < np; p++)
        if (st[p] != DONE) end = -1;
out:
    free(st);
    free(d);
    return end;
}

/*
 * A fair network (pumma_plogp_t.fair): the messages in flight share the
 * links they cross, max-min fairly, as a fluid network's do. A message
 * between two nodes crosses its sender node's link out and its receiver
 * node's link in, which all processes of those nodes share; one within a
 * node crosses the node's memory, once. Nodes hold pumma_netmodel_t.per
 * consecutive ranks where the model has a node's own pair (local), else a
 * process is a node. Alone on its links a message holds them for its gap,
 * then takes the rest of its time to be complete at its destination
 * (Hockney's message holds them for beta m: alpha is its latency).
 * The sends a process posts between two waits are posted at one instant,
 * when it last waited (SimGrid starts them so), and every message shares
 * its links from its post on: pieces posted together arrive together, so
 * a segmented chain does not pipeline (SimGrid's chain of 16 hpc ranks
 * takes its unsegmented time, whatever the segment). Event driven, in
 * time order: the clock moves to the first message to be through its
 * links or the first process to post; at each, the links' shares are
 * filled anew. Sends over a model that is not fair are gated one after
 * another as sim_run's.
 */
typedef struct flow {
    double rem, tail, rate;
    int q, slot, lk[2], nl;
} flow_t;

/* Progressive filling's work space: per link its capacity left, its
 * flows not yet fixed and where its list of flows starts; the lists; a
 * heap of links keyed by their fair share. */
typedef struct fillw {
    double *cap, *key;
    int *cnt, *start, *list, *heap;
    int nf;                    /* flows the lists and heap have room for */
} fillw_t;

static void heap_up(fillw_t *w, int n)
{
    int i = n, x = w->heap[i];
    const double k = w->key[i];
    while (i > 0 && w->key[(i - 1) / 2] > k) {
        w->heap[i] = w->heap[(i - 1) / 2];
        w->key[i] = w->key[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    w->heap[i] = x;
    w->key[i] = k;
}

static void heap_down(fillw_t *w, int n)
{
    const int x = w->heap[n];
    const double k = w->key[n];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && w->key[c + 1] < w->key[c]) c++;
        if (w->key[c] >= k) break;
        w->heap[i] = w->heap[c];
        w->key[i] = w->key[c];
        i = c;
    }
    w->heap[i] = x;
    w->key[i] = k;
}

/*
 * Max-min fair rates of the flows in flight (each link a capacity of 1):
 * the link of least share cap/cnt fixes its flows at that share, which
 * leaves the others' shares no smaller; so a heap whose stale keys are
 * low, each looked at again when it comes up. O((flows + links) log).
 */
static int fill(flow_t *f, const int *act, int nact, int nl, fillw_t *w)
{
    if (w->nf < nact) {
        const int n = 2 * nact;
        int *list = realloc(w->list, sizeof(int) * 2 * (size_t)n);
        if (list) w->list = list;
        int *heap = realloc(w->heap, sizeof(int) * ((size_t)nl + 2 * (size_t)n + 1));
        if (heap) w->heap = heap;
        double *key = realloc(w->key, sizeof(double) * ((size_t)nl + 2 * (size_t)n + 1));
        if (key) w->key = key;
        if (!list || !heap || !key) return -1;
        w->nf = n;
    }
    for (int l = 0; l <= nl; l++) w->start[l] = 0;
    for (int i = 0; i < nact; i++) {
        flow_t *x = &f[act[i]];
        x->rate = -1;
        for (int j = 0; j < x->nl; j++) w->start[x->lk[j] + 1]++;
    }
    int nh = 0;
    for (int l = 0; l < nl; l++) {
        w->cnt[l] = w->start[l + 1];
        w->cap[l] = 1;
        w->start[l + 1] += w->start[l];
        if (w->cnt[l] > 0) {
            w->heap[nh] = l;
            w->key[nh] = 1.0 / w->cnt[l];
            heap_up(w, nh++);
        }
    }
    int *pos = w->cnt + nl;                 /* fill cursors: cnt's twin */
    for (int l = 0; l < nl; l++) pos[l] = w->start[l];
    for (int i = 0; i < nact; i++) {
        const flow_t *x = &f[act[i]];
        for (int j = 0; j < x->nl; j++) w->list[pos[x->lk[j]]++] = act[i];
    }
    while (nh > 0) {
        const int l = w->heap[0];
        const double k = w->key[0];
        heap_down(w, --nh);
        if (w->cnt[l] <= 0) continue;
        double share = w->cap[l] / w->cnt[l];
        if (share > k * (1 + 1e-12)) {         /* stale: its share grew */
            w->heap[nh] = l;
            w->key[nh] = share;
            heap_up(w, nh++);
            continue;
        }
        if (share < 1e-12) share = 1e-12;
        for (int e = w->start[l]; e < w->start[l + 1]; e++) {
            flow_t *x = &f[w->list[e]];
            if (x->rate >= 0) continue;
            x->rate = share;
            for (int j = 0; j < x->nl; j++)
                w->cap[x->lk[j]] -= share, w->cnt[x->lk[j]]--;
        }
    }
    return 0;
}

static double sim_run_fluid(sim_t *s, const pumma_netmodel_t *nm, int kind)
{
    const int np = s->np, charge_or = kind == PUMMA_NM_PLOGPC;
    const int per = nm->local && nm->per > 1 ? nm->per : 1;
    const int nn = (np + per - 1) / per, nl = 3 * nn;
    flow_t *f = NULL;
    int nf = 0, cf = 0, nact = 0;
    int *ib = calloc((size_t)(np * 5 + 3 * nl + 2), sizeof(int));
    double *d = calloc((size_t)(np * 5 + nl), sizeof(double));
    fillw_t w = {0};
    int *act = NULL;
    double end = -1;
    if (!ib || !d) goto out;
    int *pc = ib, *wait_send = pc + np,
        *rq = wait_send + np, *inq = rq + np, /* to run: a stack, flags */
        *wl = inq + np, nrq = 0, nwl = 0;      /* waiting to post */
    w.cnt = wl + np;                 /* and its twin: 2 nl */
    w.start = w.cnt + 2 * nl;        /* nl + 1 */
    double *t = d, *tw = d + np, *sgate = d + 2 * np, *rlast = d + 3 * np;
    w.cap = d + 5 * np;
    for (int p = 0; p < np; p++) {
        rlast[p] = -INFINITY;
        rq[nrq++] = np - 1 - p;
        inq[p] = 1;
    }
#define WAKE(r)                                                              \
    do {                                                                     \
        if (!inq[r]) inq[r] = 1, rq[nrq++] = (r);                            \
    } while (0)
    double now = 0;
    int dirty = 0;
    for (;;) {
        /* every process that may go on, as far as it can go now: those
         * whose message came or whose time to post came */
        while (nrq > 0) {
            const int p = rq[--nrq];
            inq[p] = 0;
            for (; pc[p] < s->nops[p]; pc[p]++) {
                const op_t *o = &s->ops[p][pc[p]];
                pumma_nm_cost_t c;
                if (o->kind == ADD) {
                    t[p] += o->bytes * nm->add;
                    tw[p] = t[p];
                } else if (o->kind == RECV) {
                    const int q = o->q;
                    if (s->nrecv[q] == s->nsent[q] ||
                        isnan(s->arr[q][s->nrecv[q]]))
                        break;                     /* not yet sent */
                    const pumma_netmodel_t *ln = link_of(nm, o->peer, p);
                    pumma_nm_msg(ln, kind, o->bytes, &c);
                    double done = s->arr[q][s->nrecv[q]++];
                    /* a fair link's sharing is its receiver's too */
                    if (ln->s.fair <= 0.5 && done < rlast[p] + c.gap)
                        done = rlast[p] + c.gap;
                    rlast[p] = done;
                    if (t[p] < done) t[p] = done;
                    if (charge_or) t[p] += recv_cpu(ln, o->bytes, &c);
                    if (done > tw[p]) tw[p] = done;
                } else {
                    const pumma_netmodel_t *ln = link_of(nm, p, o->peer);
                    pumma_nm_msg(ln, kind, o->bytes, &c);
                    const double orc =
                        charge_or ? recv_cpu(ln, o->bytes, &c) : 0;
                    const int q = o->q;
                    if (ln->s.fair <= 0.5) {
                        const double st = t[p] > sgate[p] ? t[p] : sgate[p];
                        if (push_arrival(s, o->q, st + c.arrive - orc))
                            goto out;
                        WAKE(o->peer);
                        t[p] = st + c.busy;
                        sgate[p] = st + c.gap;
                    } else {
                        if (tw[p] > now) {      /* posts later */
                            if (!wait_send[p]) wait_send[p] = 1, wl[nwl++] = p;
                            break;
                        }
                        if (push_arrival(s, o->q, NAN)) goto out;
                        if (nf == cf) {
                            cf = cf ? 2 * cf : 256;
                            flow_t *x = realloc(f, sizeof(flow_t) * (size_t)cf);
                            int *y = realloc(act, sizeof(int) * (size_t)cf);
                            if (x) f = x;
                            if (y) act = y;
                            if (!x || !y) goto out;
                        }
                        const int l = ln != nm, a = p / per,
                                  b = o->peer / per;
                        /* Hockney's alpha is latency, not the link's
                         * time: there a message holds it for beta m */
                        const double work = kind == PUMMA_NM_HOCKNEY
                                                ? ln->beta * o->bytes
                                                : c.gap;
                        flow_t *x = &f[nf];
                        *x = (flow_t){work, c.arrive - work - orc, 0,
                                      q, s->nsent[q] - 1, {0, 0}, 1};
                        if (l || a == b)
                            x->lk[0] = 3 * a + 2;
                        else
                            x->lk[0] = 3 * a, x->lk[1] = 3 * b + 1,
                            x->nl = 2;
                        act[nact++] = nf++;
                        dirty = 1;
                        t[p] += c.busy;
                    }
                }
            }
        }
        /* the links' shares: max-min, by progressive filling */
        if (dirty) {
            if (fill(f, act, nact, nl, &w)) goto out;
            dirty = 0;
        }
        /* the next event */
        double next = INFINITY;
        for (int i = 0; i < nact; i++) {
            const double e = now + f[act[i]].rem / f[act[i]].rate;
            if (e < next) next = e;
        }
        for (int i = 0; i < nwl; i++)
            if (tw[wl[i]] < next) next = tw[wl[i]];
        if (next == INFINITY) break;
        const double dt = next - now, was = now;
        now = next;
        for (int i = 0; i < nwl;) {
            const int p = wl[i];
            if (tw[p] > now) {
                i++;
                continue;
            }
            wait_send[p] = 0;
            wl[i] = wl[--nwl];
            WAKE(p);
        }
        for (int i = 0; i < nact;) {
            flow_t *x = &f[act[i]];
            /* through by now: judged by its end as the clock saw it (a
             * remainder below the clock's rounding would never be) */
            if (was + x->rem / x->rate > now) {
                x->rem -= x->rate * dt;
                i++;
                continue;
            }
            /* through its links: complete after its tail */
            s->arr[x->q][x->slot] = now + x->tail;
            WAKE(s->to[x->q]);
            act[i] = act[--nact];
            dirty = 1;
        }
    }
#undef WAKE
    end = 0;
    for (int p = 0; p < np; p++) {
        if (pc[p] < s->nops[p]) {
            end = -1;
            break;
        }
        if (t[p] > end) end = t[p];
    }
out:
    free(ib);
    free(d);
    free(f);
    free(act);
    free(w.list);
    free(w.heap);
    free(w.key);
    return end;
}

/* Run every process's list; the time the last one finishes, or -1 if some
 * receive never finds its message (a schedule that would deadlock). */
static double sim_run(sim_t *s, const pumma_netmodel_t *nm, int kind)
{
    const int np = s->np;
    if (s->fail) return -1;
    /* PLOGPC on nodes with a processor for each process: the receive's
     * overhead charged, nothing shared -- this loop does that exactly,
     * and much faster than the shared engine */
    const int per = nm->s.ppn >= 1 && nm->s.ppn < np ? (int)nm->s.ppn : np;
    const int charge_or = kind == PUMMA_NM_PLOGPC;
    if (charge_or && (pumma_sim_always_shared ||
                      (nm->s.cores > 0 && nm->s.cores < per)))
        return sim_run_shared(s, nm, kind);
    if (nm->s.fair > 0.5 || (nm->local && nm->per > 1 && nm->local->s.fair > 0.5))
        return sim_run_fluid(s, nm, kind);
    int *pc = calloc((size_t)np, sizeof(int));
    double *t = calloc((size_t)np * 3, sizeof(double));
    if (!pc || !t) {
        free(pc);
        free(t);
        return -1;
    }
    double *sgate = t + np, *rlast = t + 2 * np;
    for (int p = 0; p < np; p++) rlast[p] = -INFINITY;
    double end = 0;
    for (int moved = 1; moved;) {
        moved = 0;
        for (int p = 0; p < np; p++) {
            for (; pc[p] < s->nops[p]; pc[p]++) {
                const op_t *o = &s->ops[p][pc[p]];
                pumma_nm_cost_t c;
                if (o->kind == ADD) {
                    t[p] += o->bytes * nm->add;
                } else if (o->kind == SEND) {
                    const pumma_netmodel_t *ln = link_of(nm, p, o->peer);
                    pumma_nm_msg(ln, kind, o->bytes, &c);
                    double start = t[p] > sgate[p] ? t[p] : sgate[p];
                    const double orc =
                        charge_or ? recv_cpu(ln, o->bytes, &c) : 0;
                    if (push_arrival(s, o->q, start + c.arrive - orc)) {
                        end = -1;
                        goto out;
                    }
                    t[p] = start + c.busy;
                    sgate[p] = start + c.gap;
                } else {
                    const int q = o->q;
                    if (s->nrecv[q] == s->nsent[q]) break;  /* not sent yet */
                    const pumma_netmodel_t *ln = link_of(nm, o->peer, p);
                    pumma_nm_msg(ln, kind, o->bytes, &c);
                    double done = s->arr[q][s->nrecv[q]++];
                    if (done < rlast[p] + c.gap) done = rlast[p] + c.gap;
                    rlast[p] = done;
                    if (t[p] < done) t[p] = done;
                    if (charge_or) t[p] += recv_cpu(ln, o->bytes, &c);
                }
                moved = 1;
            }
        }
    }
    for (int p = 0; p < np; p++) {
        if (pc[p] < s->nops[p]) {
            end = -1;
            goto out;
        }
        if (t[p] > end) end = t[p];
    }
out:
    free(pc);
    free(t);
    return end;
}

/* The MPI variants have no tree of pumma's: simulated as Open MPI's
 * binomial, or in an SMPI build as SMPI's flat tree (pumma_bcast_mpi.c). */
int pumma_sim_knows(const pumma_coll_ops_t *v)
{
#ifdef PUMMA_SMPI
    if (!v->shape && v->seg_default < 0 && strcmp(v->name, "mpi") == 0)
        return 1;
#endif
    return v->shape != NULL;
}

static const pumma_coll_ops_t *tree_of(const pumma_coll_ops_t *v)
{
#ifdef PUMMA_SMPI
    const char *mpi_tree = "linear";
#else
    const char *mpi_tree = "binomial";
#endif
    return v->shape ? v : pumma_comm_find(PUMMA_BCAST_TABLE, mpi_tree);
}

/* Process me's part of a broadcast (reduce) with variant v: the pieces as
 * v's start() asks its engine for them, in the order the engine handles
 * them. emit(s, me, ...) gets each operation. */
static void build(sim_t *s, const pumma_coll_ops_t *v, int reduce, int np,
                  int root, int me, int64_t count, int esize, int seg_elems,
                  int *kids)
{
    const pumma_coll_ops_t *tv = tree_of(v);
    int seg = tv->seg_default < 0 ? 0
              : seg_elems > 0    ? seg_elems
                                 : tv->seg_default / esize;
    int npc, piece, parent;
    pumma_coll_cut(count, seg, &npc, &piece);
    const int nk = tv->shape(np, root, me, &parent, kids);
    const int adds = tv == v || pumma_reduce_mpi_adds();
    for (int k = 0; k < npc; k++) {
        int64_t rest = count - (int64_t)k * piece;
        double len = (double)(rest < piece ? rest : piece) * esize;
        if (!reduce) {
            if (parent >= 0) emit(s, me, RECV, parent, len);
            for (int j = 0; j < nk; j++) emit(s, me, SEND, kids[j], len);
        } else {
            for (int j = 0; j < nk; j++) {
                emit(s, me, RECV, kids[j], len);
                if (adds) emit(s, me, ADD, -1, len);
            }
            if (parent >= 0) emit(s, me, SEND, parent, len);
        }
    }
}

static double coll(const pumma_coll_ops_t *v, int reduce,
                   const pumma_netmodel_t *nm, int kind, int np, int root,
                   double bytes, double seg_bytes, int esize)
{
    if (np <= 1 || bytes <= 0) return 0;
    if (esize < 1) esize = 1;
    const int64_t count = (int64_t)ceil(bytes / esize);
    const int seg = (int)fmin(floor(seg_bytes / esize), 2147483647.0);
    sim_t s = {0};
    int *kids = malloc(sizeof(int) * (size_t)np);
    double r = -1;
    if (kids && !sim_init(&s, np)) {
        for (int me = 0; me < np; me++)
            build(&s, v, reduce, np, root, me, count, esize, seg, kids);
        r = sim_run(&s, nm, kind);
    }
    sim_free(&s);
    free(kids);
    return r;
}

double pumma_sim_bcast(const pumma_coll_ops_t *v, const pumma_netmodel_t *nm,
                       int kind, int np, int root, double bytes,
                       double seg_bytes, int esize)
{
    return coll(v, 0, nm, kind, np, root, bytes, seg_bytes, esize);
}

double pumma_sim_reduce(const pumma_coll_ops_t *v,
                        const pumma_netmodel_t *nm, int kind, int np,
                        int root, double bytes, double seg_bytes, int esize)
{
    return coll(v, 1, nm, kind, np, root, bytes, seg_bytes, esize);
}

int pumma_sim_sends(const pumma_coll_ops_t *v, int reduce, int np, int root,
                    int me, int64_t count, int esize, int seg_elems,
                    int *dest, double *bytes, int max)
{
    sim_t s = {0};
    int *kids = malloc(sizeof(int) * (size_t)(np > 0 ? np : 1)), n = -1;
    if (kids && np > 1 && !sim_init(&s, np)) {
        build(&s, v, reduce, np, root, me, count, esize, seg_elems, kids);
        n = 0;
        for (int i = 0; !s.fail && i < s.nops[me]; i++) {
            const op_t *o = &s.ops[me][i];
            if (o->kind != SEND) continue;
            if (n < max) {
                dest[n] = o->peer;
                bytes[n] = o->bytes;
            }
            n++;
        }
        if (s.fail) n = -1;
    } else if (kids && np <= 1) {
        n = 0;
    }
    sim_free(&s);
    free(kids);
    return n;
}

/* The two shifts (pumma_shift_simultaneous.c, pumma_shift_oddeven.c): a
 * roll to the next process, from the previous. oddeven: odd processes send
 * first; an even one sends once its receive from an odd one is in (on a
 * ring of odd length process 0 and the last, both even, send at once). */
double pumma_sim_shift(const pumma_shift_ops_t *v, const pumma_netmodel_t *nm,
                       int kind, int np, double bytes)
{
    if (np <= 1 || bytes <= 0) return 0;
    sim_t s = {0};
    double r = -1;
    const int oddeven = v->two_steps;
    if (sim_init(&s, np)) goto out;
    for (int me = 0; me < np; me++) {
        const int dest = (me + 1) % np, source = (me - 1 + np) % np;
        if (oddeven && me % 2 == 0 && source % 2 == 1) {
            emit(&s, me, RECV, source, bytes);
            emit(&s, me, SEND, dest, bytes);
        } else {
            emit(&s, me, SEND, dest, bytes);
            emit(&s, me, RECV, source, bytes);
        }
    }
    r = sim_run(&s, nm, kind);
out:
    sim_free(&s);
    return r;
}
